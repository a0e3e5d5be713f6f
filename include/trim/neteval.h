/*
 * trim/neteval.h - a whole network on one architecture: the best mapping of
 * every intra-layer workload (the exhaustive search of trim/search.h) plus
 * the inter-layer workloads (preprocessing, BatchNorm, caching), with the
 * sparse figures whenever the architecture gates or skips zeros
 * (docs/model.md "Network evaluation", docs/sparsity.md).
 *
 * Use: create, set options, then trim_neteval_step until *done (one
 * workload per step, so a caller can show progress) or trim_neteval_run;
 * read totals, per-workload figures, mappings and the report.
 * Ownership: a trim_neteval belongs to the caller (trim_neteval_free, NULL
 * accepted); it copies what it needs: the network, workloads, arch and table
 * may be freed after create. Thread safety: one per caller thread; the
 * search inside uses TRIM_NET_THREADS OpenMP threads.
 */
#ifndef TRIM_NETEVAL_H
#define TRIM_NETEVAL_H

#include "trim/arch.h"
#include "trim/common.h"
#include "trim/constraints.h"
#include "trim/energy.h"
#include "trim/mapping.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_neteval trim_neteval;

/** Options: integers (trim_neteval_set_int) and doubles (_set_double);
 * the other setter refuses an option with TRIM_EINVAL naming the right one. */
enum trim_net_option {
	TRIM_NET_GOAL = 0,           /**< int: TRIM_GOAL_ENERGY (default), _DELAY, _EDP */
	TRIM_NET_THREADS = 1,        /**< int: threads (default 1): with at least twice as many distinct
	                                  workloads as threads, their searches run side by side, the
	                                  threads taking the ready top nodes of any of them (a pool);
	                                  else each search uses them all in turn */
	TRIM_NET_SPARSITY = 2,       /**< int: 1 (default) use the sparse figures when the
	                                  architecture gates or skips zeros, 0 dense only */
	TRIM_NET_CACHE = 4,          /**< int: 1 (default) search each distinct workload once: a
	                                  workload identical to an earlier one in everything the
	                                  search sees (shape, projections, zeros, phase, reserved
	                                  buffer bytes; the same arch, table, constraints and goal)
	                                  reuses its result; 0 searches every workload */
	TRIM_NET_MAX_MAPPINGS = 3,   /**< int: refuse a workload whose distinct mapspace is
	                                  larger (default 0: no limit) */
	TRIM_NET_IMPERFECT = 5,      /**< int: 1 also searches imperfect factorisations (a dim spread
	                                  over more PEs than a divisor fits, a ragged last pass;
	                                  TRIM_SEARCH_IMPERFECT); 0 (default) perfect ones only */
	TRIM_NET_COUNT = 6,          /**< int: counting rules (enum trim_count, trim/common.h) of every
	                                  search and evaluation: TRIM_COUNT_LIBTRIM (default) or
	                                  TRIM_COUNT_TIMELOOP (TRIM_SEARCH_COUNT) */
	TRIM_NET_MIN_PE_UTIL = 10,   /**< double: TRIM's utilisation constraint, keep only
	                                  mappings using at least this fraction of the PEs
	                                  (optional pruning, default 0: off) */
	TRIM_NET_MIN_RF_UTIL = 11,   /**< double: keep only mappings filling at least this
	                                  fraction of the innermost storage (default 0: off) */
	TRIM_NET_TIME_LIMIT = 12,    /**< double: wall-clock seconds for the whole network (0: none,
	                                  default), shared among the searches still to run; a
	                                  search that reaches its share keeps its best found */
	TRIM_NET_GAP = 13            /**< double: each search stops once its best is proven within
	                                  this fraction of the optimum, in [0, 1) (0: exact) */
};

/** Per-workload figures (trim_neteval_workload, indices of out[]). */
enum trim_net_field {
	TRIM_NF_CYCLES = 0, TRIM_NF_ENERGY_PJ, TRIM_NF_EDP, TRIM_NF_PE_UTILIZATION,
	TRIM_NF_ACTIVE_PES, TRIM_NF_DENSE_CYCLES, TRIM_NF_DENSE_ENERGY_PJ, TRIM_NF_STATIC_PJ,
	TRIM_NF_MACS, TRIM_NF_GENERATED, TRIM_NF_VALID, TRIM_NF_EVALUATED,
	TRIM_NF_MAPPED,         /**< 1, or 0 for a workload outside trim_neteval_set_layers */
	TRIM_NF_OFFCHIP_BYTES,  /**< bytes read from and written to the outermost level */
	TRIM_NF_TEMPORAL_UTILIZATION, /**< MACs executed / (PEs x MACs per PE per cycle x cycles);
	                                   TRIM_NF_PE_UTILIZATION is the spatial one (active PEs / PEs) */
	TRIM_NF_COMPUTE_CYCLES, /**< cycles of the compute level alone (its busy time) */
	TRIM_NF_BOTTLENECK,     /**< index of the level with the most cycles (-1: not mapped) */
	TRIM_NF_LOWER_BOUND,    /**< the search's proven lower bound on the goal's cost (dense) */
	TRIM_NF_GAP,            /**< (best - lower bound) / best of the search (0: exact) */
	TRIM_NF_EXACT,          /**< 1: the search's best is exhaustive evaluation's; 0: not proven */
	TRIM_NF_REUSED_FROM,    /**< the earlier identical workload whose search it reuses, or -1 */
	TRIM_NF_COUNT
};

/** `net` is the network `w` was made from (for its sparsity annotations):
 * workloads made from another description are refused (TRIM_EINVAL);
 * table NULL: the architecture's technology. */
TRIM_API int trim_neteval_create(trim_neteval **out, const trim_network *net,
                                 const trim_workloads *w, const trim_arch *arch,
                                 const trim_energy *table);
TRIM_API void trim_neteval_free(trim_neteval *ne);
TRIM_API int trim_neteval_set_int(trim_neteval *ne, int option, int64_t value);
TRIM_API int trim_neteval_set_double(trim_neteval *ne, int option, double value);
/** "TRIM_NET_GOAL", ..., or NULL for an unknown option. */
TRIM_API const char *trim_neteval_option_name(int option);
/** Map only the workloads of the layers FIRST..LAST (network order, inclusive) and
 * the inter-layer work of those layers; the others are left out of every total.
 * TRIM_ENOTFOUND names a layer without workloads. Before the first step. */
TRIM_API int trim_neteval_set_layers(trim_neteval *ne, const char *first, const char *last);
/** Dataflow constraints every workload's search must obey (trim/constraints.h);
 * copied, NULL removes them; checked against the architecture at once. A
 * workload no factorisation of which obeys them fails its step with
 * TRIM_ENOFIT naming the workload, level and dimension. Before the first step. */
TRIM_API int trim_neteval_set_constraints(trim_neteval *ne, const trim_constraints *c);
/** Override per-layer sparsity with a CSV trace (trim_sparsity_load_trace). */
TRIM_API int trim_neteval_load_trace(trim_neteval *ne, const char *path);

/** Map the next intra workload; *done = 1 when every workload is mapped and
 * the totals are ready. TRIM_ENOFIT names a workload no mapping fits. */
TRIM_API int trim_neteval_step(trim_neteval *ne, int *done);
/** Step until done. */
TRIM_API int trim_neteval_run(trim_neteval *ne);
/** Intra workloads mapped so far, and in all. */
/** Share of the searches done, in [0, 1], while trim_neteval_step runs (the
 * distinct workloads' searches are the slow part; with TRIM_NET_THREADS > 1
 * the first step runs them all in parallel, one thread each; with a time
 * limit and too few of them for that, or one thread, the first step runs
 * them one after the other, then retries the stopped ones): the only call
 * that may be made from another thread during a step. -1 for NULL. */
TRIM_API double trim_neteval_progress(const trim_neteval *ne);
/** Whole network: 1 if every search was exact, 0 if not, -1 before the run;
 * *lower_bound (NULL: not wanted) gets the sum of the workloads' proven lower
 * bounds on the goal's cost and *gap the network's relative gap (sum of the
 * best costs - that sum) / sum of the best costs. */
TRIM_API int trim_neteval_exact(const trim_neteval *ne, double *lower_bound, double *gap);
/** Keep every finished search in directory `dir` (made if missing; NULL:
 * none) and read back those a previous run left there, so that a killed
 * run resumes where it stopped. A file is reused only when it was made from
 * the same inputs (a digest of the library's version and cost model, the
 * architecture and its costs, the constraints, goal and options, and the
 * workload itself), its checksum holds, it carries the proof this run asks
 * for (exact, or without a time limit within TRIM_NET_GAP), its mapping
 * passes the check trim eval applies and evaluates to the recorded cost bit
 * for bit, and its index is the encoding of its mapping; otherwise it is
 * searched again and replaced (trim_neteval_resumed counts both,
 * trim_neteval_resume_notes says why). Only regular files of at most 64
 * MiB are read. Before the first step. */
TRIM_API int trim_neteval_set_out_dir(trim_neteval *ne, const char *dir);
/** After a run: searches read back from the directory, and files found
 * stale, corrupted or unreadable (searched again). */
TRIM_API int trim_neteval_resumed(const trim_neteval *ne, int64_t *resumed, int64_t *stale);
/** Why those files were not used: one line per reason, "FILE: its mapping
 * evaluates to X, not the recorded cost Y: searched again" ("FILE and N
 * more: ..." when several in a row share it); "" when none. Owned by the
 * evaluation, valid until it is freed. */
TRIM_API const char *trim_neteval_resume_notes(const trim_neteval *ne);
TRIM_API size_t trim_neteval_done(const trim_neteval *ne);
TRIM_API size_t trim_neteval_count(const trim_neteval *ne);

/** Totals (after run): cycles (intra + preprocessing), energy (dynamic + static).
 * These and the other double getters below return NaN, with the reason in
 * trim_last_error(), for a NULL handle or before the run has finished. */
TRIM_API double trim_neteval_cycles(const trim_neteval *ne);
TRIM_API double trim_neteval_energy_pj(const trim_neteval *ne);
TRIM_API double trim_neteval_static_pj(const trim_neteval *ne);
TRIM_API double trim_neteval_dense_cycles(const trim_neteval *ne);
TRIM_API double trim_neteval_dense_energy_pj(const trim_neteval *ne);
/** Seconds at the architecture's clock. */
TRIM_API double trim_neteval_seconds(const trim_neteval *ne);
/** MAC-weighted mean PE utilisation. */
TRIM_API double trim_neteval_pe_utilization(const trim_neteval *ne);
/** Temporal utilisation of the intra workloads together: MACs executed /
 * (PEs x MACs per PE per cycle x their cycles). */
TRIM_API double trim_neteval_temporal_utilization(const trim_neteval *ne);
/** Energy per level (dynamic + static, inter-layer work included) into out[0..nlevels-1];
 * TRIM_EBUFSIZE when n is smaller than the number of levels. Arrays too small
 * give TRIM_EBUFSIZE everywhere below (the message says the size needed). */
TRIM_API int trim_neteval_level_energy(const trim_neteval *ne, double *out, size_t n);

/** Fields TRIM_NF_* of intra workload i into out[0..n-1] (n >= TRIM_NF_COUNT). */
TRIM_API int trim_neteval_workload(const trim_neteval *ne, size_t i, double *out, size_t n);
/** A copy of the best mapping of intra workload i. */
TRIM_API int trim_neteval_mapping(const trim_neteval *ne, size_t i, trim_mapping **out);
/** Breakdown of intra workload i (trim/eval.h, enum trim_action) into counts[]
 * and energy_pj[] (either may be NULL) of n >= trim_breakdown_size(levels)
 * entries. Its energies add up to TRIM_NF_ENERGY_PJ of the workload (sparse
 * figures included); TRIM_ENOTFOUND for a workload that was not mapped. */
TRIM_API int trim_neteval_breakdown(const trim_neteval *ne, size_t i, double *counts,
                                    double *energy_pj, size_t n);

/** Per-inter-workload figures (trim_neteval_inter, indices of out[]). */
enum trim_net_inter_field {
	TRIM_NI_CYCLES = 0,   /**< added to the network's time (0 for caching: it overlaps) */
	TRIM_NI_ENERGY_PJ,    /**< dynamic + static */
	TRIM_NI_STATIC_PJ,
	TRIM_NI_LEVEL,        /**< index of the level where it runs */
	TRIM_NI_MAPPED,       /**< 1, or 0 outside trim_neteval_set_layers (all fields 0) */
	TRIM_NI_COUNT
};
/** Fields TRIM_NI_* of inter workload j (0 .. trim_workloads_inter_count - 1),
 * after the run. The energies of every intra breakdown plus TRIM_NI_ENERGY_PJ
 * of every inter workload add up to trim_neteval_energy_pj. */
TRIM_API int trim_neteval_inter(const trim_neteval *ne, size_t j, double *out, size_t n);
/** Warnings about defaults that starve the design (docs/guide.md, "Reports"),
 * after the run: a JSON array of {"kind", "level", "workloads", "message"}
 * ("[]" when there is none); trim_neteval_report has them too. Free *out
 * with trim_string_free. */
TRIM_API int trim_neteval_warnings(const trim_neteval *ne, char **out);
/** The breakdown of every mapped workload: TRIM_FORMAT_CSV, one row per
 * (workload, level, tensor, action): "goal,index,layer,phase,level,tensor,action,
 * count,energy_pj" (the goal's name first on every row; inter workloads as action
 * "inter" of their level), or TRIM_FORMAT_JSON ({"goal", "workloads", "inter"}).
 * Free *out with trim_string_free. */
TRIM_API int trim_neteval_breakdown_report(const trim_neteval *ne, int format, char **out);
/** Write one self-contained HTML page (inline CSS, script and SVG; it needs
 * no server or network) to `path`: totals, energy by level and tensor,
 * cycles and bottleneck per workload, utilisation, every mapping as a loop
 * nest, the warnings. Written atomically. */
TRIM_API int trim_neteval_write_html(const trim_neteval *ne, const char *path);

/** TRIM_FORMAT_JSON: {"network", "arch", "goal", "workloads": [{layer, phase, best: {cycles,
 * energy_pj, edp, pe_utilization, temporal_utilization, bottleneck, mapping, energy_by_level,
 * breakdown, ...}, counts: {generated, valid, evaluated}}], "inter": [...], "totals": {...},
 * "warnings": [...]}; TRIM_FORMAT_TABLE; TRIM_FORMAT_CSV (one row per workload: the
 * goal, the TRIM_NF_* fields, the bottleneck's name and the energy of every level). Free *out with
 * trim_string_free. */
TRIM_API int trim_neteval_report(const trim_neteval *ne, int format, char **out);

#ifdef __cplusplus
}
#endif
#endif
