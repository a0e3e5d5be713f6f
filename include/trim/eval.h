/*
 * trim/eval.h - evaluation of one mapping of one intra-layer workload:
 * activity counts, cycles, energy and utilisation (docs/model.md, "Mapping
 * and activity model" and "Evaluator").
 *
 * Ownership: a trim_eval returned through **out belongs to the caller and
 * is released with trim_eval_free (NULL accepted); it does not reference
 * its inputs, which may be freed first. Strings returned as const char *
 * live as long as the trim_eval.
 * Thread safety: trim_eval_mapping may run in many threads at once on the
 * same (const) inputs.
 */
#ifndef TRIM_EVAL_H
#define TRIM_EVAL_H

#include "trim/arch.h"
#include "trim/common.h"
#include "trim/energy.h"
#include "trim/mapping.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_eval trim_eval;

/**
 * Validate mapping `m` for intra workload `i` of `w` on `arch` (structure and
 * capacity: TRIM_ESHAPE / TRIM_ENOFIT with a message) and evaluate it with
 * energy table `table` (NULL: the architecture's technology, resolved as
 * trim_energy_load_for_arch does).
 */
TRIM_API int trim_eval_mapping(trim_eval **out, const trim_workloads *w, size_t i,
                               const trim_arch *arch, const trim_energy *table,
                               const trim_mapping *m);
/**
 * trim_eval_mapping under counting rules `count` (enum trim_count, trim/common.h):
 * TRIM_COUNT_LIBTRIM is trim_eval_mapping; TRIM_COUNT_TIMELOOP counts and
 * charges as Timeloop does where docs/mapping.md's rules 1, 3, 4, 5 and 6
 * differ (an operand shared per fan-out by identical tiles only, its
 * windows along the innermost loop only; no drain charged nor in the read
 * bandwidth; leakage on the used instances of a storage level, none for
 * the MACs). TRIM_ERANGE for another value. The
 * JSON report then has "count": "timeloop" (no key under libtrim's rules).
 */
TRIM_API int trim_eval_mapping_count(trim_eval **out, const trim_workloads *w, size_t i,
                                     const trim_arch *arch, const trim_energy *table,
                                     const trim_mapping *m, int count);
/** "libtrim", "timeloop", or NULL for an unknown value of enum trim_count. */
TRIM_API const char *trim_count_name(int count);
/** The enum trim_count named `name` ("libtrim" or "timeloop") into *count;
 * TRIM_EINVAL (with a message) for another name. */
TRIM_API int trim_count_parse(const char *name, int *count);
TRIM_API void trim_eval_free(trim_eval *e);

TRIM_API double trim_eval_cycles(const trim_eval *e);
TRIM_API double trim_eval_energy_pj(const trim_eval *e);
/** Energy-delay product, pJ x cycles. */
TRIM_API double trim_eval_edp(const trim_eval *e);
TRIM_API double trim_eval_pe_utilization(const trim_eval *e);
/** The real work: the product of the workload's bounds. */
TRIM_API int64_t trim_eval_macs(const trim_eval *e);
TRIM_API int64_t trim_eval_zero_macs(const trim_eval *e);
/** The padded work of the mapping's loop nest (the product of its bounds):
 * trim_eval_macs, or more for an imperfect factorisation (ragged tiles). */
TRIM_API int64_t trim_eval_padded_macs(const trim_eval *e);
/** The PEs doing real work, on average over the executed steps, / PEs:
 * trim_eval_pe_utilization less the PEs idle on ragged tiles. */
TRIM_API double trim_eval_pe_utilization_real(const trim_eval *e);
/** Name of the level with the most cycles. */
TRIM_API const char *trim_eval_bottleneck(const trim_eval *e);
/** Report as TRIM_FORMAT_JSON (every count, the breakdown, temporal
 * utilisation and warnings) or TRIM_FORMAT_TABLE; free *out with
 * trim_string_free. */
TRIM_API int trim_eval_report(const trim_eval *e, int format, char **out);

/**
 * Actions of a breakdown (trim_eval_breakdown, trim_neteval_breakdown,
 * trim_explorer_breakdown), as Timeloop's statistics give them. A breakdown
 * has one count and one energy (pJ) per (level, tensor slot, action), at
 * index (level * 3 + slot) * TRIM_ACT_COUNT + action, slots 0 input-like
 * operand, 1 weight-like operand, 2 result; entries that do not apply to a
 * level's type are 0. The energies of all entries add up to the workload's
 * energy (up to the rounding of the additions: docs/guide.md, "Reports").
 */
enum trim_action {
	TRIM_ACT_READS = 0,  /**< storage: words read out for the children (result: partial sums sent down) */
	TRIM_ACT_FILLS,      /**< storage: words written from the parent (result: partial sums read back) */
	TRIM_ACT_UPDATES,    /**< storage: words written by the children */
	TRIM_ACT_DRAINS,     /**< storage: words read out to be written back to the parent */
	TRIM_ACT_UNICAST,    /**< network: words sent down to one destination */
	TRIM_ACT_MULTICAST,  /**< network: words sent down to several destinations (energy: one
	                          traversal on a bus, every arrival on other networks) */
	TRIM_ACT_REDUCTIONS, /**< network: count = additions done in the network; energy = the
	                          result words that travel up through it */
	TRIM_ACT_MACS,       /**< compute level, slot 0: MACs (zero-gated ones included) */
	TRIM_ACT_STATIC,     /**< slot 0 of every level: leakage; count = the workload's cycles */
	TRIM_ACT_SPARSE,     /**< compute level, slot 0, sparse hardware only: metadata and
	                          encoding minus the local accesses skipped (count 0) */
	TRIM_ACT_COUNT
};

/** "reads", "fills", ..., or NULL for an unknown action. */
TRIM_API const char *trim_action_name(int action);
/** Entries of a breakdown of an architecture of `levels` levels (levels x 3 x TRIM_ACT_COUNT). */
TRIM_API size_t trim_breakdown_size(int levels);
/** The breakdown of the evaluation into counts[] and energy_pj[] (either may
 * be NULL), each of n >= trim_breakdown_size(levels) entries; TRIM_EBUFSIZE
 * (the message gives the size needed) when n is smaller. */
TRIM_API int trim_eval_breakdown(const trim_eval *e, double *counts, double *energy_pj, size_t n);
/** Temporal utilisation: MACs executed / (PEs x MACs per PE per cycle x cycles),
 * the fraction of the compute bound reached; trim_eval_pe_utilization is the
 * spatial one (active PEs / PEs). */
TRIM_API double trim_eval_temporal_utilization(const trim_eval *e);
/** Cycles of the compute level alone (the busy time of the MACs). */
TRIM_API double trim_eval_compute_cycles(const trim_eval *e);
/** Warnings about a design that starves its compute (docs/guide.md,
 * "Reports"), as a JSON array of {"kind", "level", "workloads", "message"};
 * "[]" when there is none. Free *out with trim_string_free. */
TRIM_API int trim_eval_warnings(const trim_eval *e, char **out);

#ifdef __cplusplus
}
#endif
#endif
