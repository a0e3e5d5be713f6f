/*
 * trim/search.h - the mapping constructor and exhaustive search for one
 * intra-layer workload on one architecture (TRIM's mapper).
 *
 * The mapspace has a canonical order: every mapping is named by an index
 * (docs/model.md, "Mapspace and search"): a 64-bit integer when the raw
 * mapspace has at most 2^64 - 1 mappings, else up to 128 bits, in decimal
 * (trim_search_index_str). The search enumerates one
 * mapping per class of orders with identical activities, cuts every order
 * below factors and bypass choices that do not fit, skips the factors and
 * bypass choices whose lower bound (valid for every order) exceeds the cost
 * already reached, evaluates the rest and keeps the smallest (cost, second
 * figure, index): a tie on the goal's cost is broken by the other figure
 * (TRIM_GOAL_DELAY: the energy; TRIM_GOAL_ENERGY: the cycles; TRIM_GOAL_EDP:
 * the energy), as Timeloop's [delay, energy] objective does, and by the
 * index only after that. The result equals exhaustive evaluation and is the
 * same for any number of threads. A time limit or a gap (TRIM_SEARCH_TIME_LIMIT, _GAP) turn it
 * into an anytime search that reports the best found with a proven lower
 * bound (trim_search_lower_bound, _gap, _exact); with a gap alone the
 * result is still the same for any number of threads.
 *
 * Use: create, set options, trim_search_size (before a long run), run, then
 * read the counts, the best mapping and the report.
 * Ownership: a trim_search belongs to the caller (trim_search_free, NULL
 * accepted); it copies what it needs from the workloads and the arch.
 * Thread safety: one trim_search per caller thread; run uses OpenMP threads
 * internally (TRIM_SEARCH_THREADS).
 */
#ifndef TRIM_SEARCH_H
#define TRIM_SEARCH_H

#include "trim/arch.h"
#include "trim/common.h"
#include "trim/constraints.h"
#include "trim/energy.h"
#include "trim/mapping.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_search trim_search;

/** Search options (trim_search_set_int). */
enum trim_search_option {
	TRIM_SEARCH_GOAL = 0,    /**< TRIM_GOAL_ENERGY (default), _DELAY or _EDP */
	TRIM_SEARCH_THREADS = 1, /**< OpenMP threads, >= 1 (default 1) */
	TRIM_SEARCH_MIN_PE_UTIL = 2, /**< (double) prune mappings using fewer PEs (0 = off; TRIM: 0.75) */
	TRIM_SEARCH_MIN_RF_UTIL = 3, /**< (double) prune mappings filling less of the innermost
	                                  bounded storage level (0 = off; TRIM: 0.5) */
	TRIM_SEARCH_TOP_K = 4,       /**< keep the k best mappings, 1..1024 (default 1) */
	TRIM_SEARCH_TIME_LIMIT = 5,  /**< (double) stop after this many seconds of wall time, keeping
	                                  the best found and a proven lower bound (0 = none, default) */
	TRIM_SEARCH_GAP = 6,         /**< (double) stop as soon as the best found is proven within this
	                                  fraction of the optimum, in [0, 1) (0 = exact, default) */
	TRIM_SEARCH_IMPERFECT = 7,   /**< 1: also imperfect factorisations (a dim over more PEs than
	                                  any divisor fits, a ragged last pass), 0: not (default);
	                                  changes the index, slower (no tree bounds below them) */
	TRIM_SEARCH_COUNT = 8        /**< counting rules of the costs (enum trim_count, trim/common.h):
	                                  TRIM_COUNT_LIBTRIM (default) or TRIM_COUNT_TIMELOOP, charged as
	                                  trim_eval_mapping_count charges them; the bounds hold under both */
};
enum trim_goal { TRIM_GOAL_ENERGY = 0, TRIM_GOAL_DELAY = 1, TRIM_GOAL_EDP = 2 };

/** table NULL: the architecture's technology (trim_energy_load_for_arch). */
TRIM_API int trim_search_create(trim_search **out, const trim_workloads *w, size_t i,
                                const trim_arch *arch, const trim_energy *table);
TRIM_API void trim_search_free(trim_search *s);
TRIM_API int trim_search_set_int(trim_search *s, int option, int64_t value);
TRIM_API int trim_search_set_double(trim_search *s, int option, double value);
/** A custom factor the constructor must follow: the bound of `dim` at
 * (storage or spatial) level `level` is `bound` (0 frees it). TRIM_ENOFIT if
 * no factorisation obeys every such constraint of that dim. */
TRIM_API int trim_search_set_factor(trim_search *s, int level, int dim, int64_t bound);
/** Dataflow constraints (trim/constraints.h) the search must obey; copied;
 * NULL removes them. The raw index space is unchanged: the search, the
 * distinct count and the bounds cover only the mappings that obey them,
 * exactly. Errors (the set is then unchanged): a target the architecture
 * does not have (file:line:column of the target), TRIM_ENOFIT naming the
 * level and dimension when no factorisation of this workload obeys the
 * constraints or they contradict a custom factor. */
TRIM_API int trim_search_set_constraints(trim_search *s, const trim_constraints *c);
/** Raw mapspace size (every index), as a double; -1 on error. */
TRIM_API double trim_search_size(const trim_search *s);
/** Distinct mappings (one per class of equivalent orders: what the search
 * generates), computed without enumerating them; -1 on error. */
TRIM_API double trim_search_distinct(const trim_search *s);
TRIM_API int trim_search_run(trim_search *s);
/** Progress of a running trim_search_run, in [0, 1] (the share of the
 * branch-and-bound tree's top nodes done; the first ones are the slowest);
 * the only call that may be made from another thread while the search
 * runs. -1 for NULL. */
TRIM_API double trim_search_progress(const trim_search *s);
/** out[0..4] = generated, valid, evaluated, unsupported, pruned (n >= 5);
 * out[5] (n >= 6) = skipped by lower bounds (proven not to be among the
 * best; "valid" counts only the mappings not skipped). */
TRIM_API int trim_search_counts(const trim_search *s, int64_t *out, size_t n);
/** What the run proved. Lower bound: every mapping of the space costs at
 * least this much (the goal's cost; equal to the best's when exact); NaN
 * before a run or when nothing was found. Gap: (best - lower bound) / best
 * (0 when exact). Exact: 1 when the best equals exhaustive evaluation's
 * (cost, second figure, index), 0 when the time limit or the gap left out something that
 * could have ranked first, -1 before a run. */
TRIM_API double trim_search_lower_bound(const trim_search *s);
TRIM_API double trim_search_gap(const trim_search *s);
TRIM_API int trim_search_exact(const trim_search *s);
/** A copy of the best mapping (TRIM_ENOTFOUND if no mapping fits). */
TRIM_API int trim_search_best(const trim_search *s, trim_mapping **out);
/** After a run that found no mapping: why, in one sentence (the utilisation
 * constraint that prunes every mapping that fits, with the highest
 * utilisation the space reaches; or, when nothing fits, the dataflow
 * constraints or custom factors without which a mapping fits, found by
 * searching the relaxed spaces for at most 20 s each). NULL when the run
 * found a mapping or has not run. Owned by s, valid until the next run. */
TRIM_API const char *trim_search_why_empty(const trim_search *s);
/** Index of the best mapping in the canonical order; UINT64_MAX if none,
 * or if it does not fit 64 bits (then see trim_search_index_str). */
TRIM_API uint64_t trim_search_best_index(const trim_search *s);
/** Number of mappings kept by TRIM_SEARCH_TOP_K (after a run). */
TRIM_API size_t trim_search_top_count(const trim_search *s);
/** Cost and index of the i-th best mapping (0 = the best, in the order of
 * (cost, second figure, index)); TRIM_ERANGE (cost set, index UINT64_MAX)
 * when the index does not fit 64 bits. */
TRIM_API int trim_search_top(const trim_search *s, size_t i, double *cost, uint64_t *index);
/** The index of the i-th best mapping in decimal (any width; 40 bytes
 * always suffice) into buf of n bytes. */
TRIM_API int trim_search_index_str(const trim_search *s, size_t i, char *buf, size_t n);
/** A copy of the i-th best mapping. */
TRIM_API int trim_search_top_mapping(const trim_search *s, size_t i, trim_mapping **out);
/** TRIM_FORMAT_JSON: {"best": {cycles, energy_pj, edp, pe_utilization,
 * mapping, ...}, "counts": {...}, "mapspace": {...}}; or TRIM_FORMAT_TABLE. */
TRIM_API int trim_search_report(const trim_search *s, int format, char **out);

#ifdef __cplusplus
}
#endif
#endif
