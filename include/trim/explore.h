/*
 * trim/explore.h - the explorer (TRIM Algorithm 1): every point of an
 * architecture space evaluated on a network (the best mapping of every
 * workload plus the inter-layer workloads, trim/neteval.h), ranked by a
 * design goal, with the Pareto front over (energy, delay, area).
 *
 * Use: create, set options (and optionally an output directory, which makes
 * the sweep resumable: each finished point is written there and a later
 * explorer with the same inputs and directory skips it), then
 * trim_explorer_step until *done (one point per step: progress without
 * callbacks) or trim_explorer_run (points in parallel with OpenMP); read the
 * ranking and the report.
 * Ownership: a trim_explorer belongs to the caller (trim_explorer_free, NULL
 * accepted); the network, workloads and space must outlive it.
 * Determinism: results are identical whatever the number of threads and
 * whether the sweep was resumed; a tie on the goal ranks by the other
 * figures (energy goal: cycles; the others: energy, then cycles), then by
 * point index.
 */
#ifndef TRIM_EXPLORE_H
#define TRIM_EXPLORE_H

#include "trim/common.h"
#include "trim/space.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_explorer trim_explorer;

/** Design goals (TRIM_EX_GOAL). */
enum trim_explore_goal {
	TRIM_EXPLORE_ENERGY = 0,
	TRIM_EXPLORE_DELAY = 1,
	TRIM_EXPLORE_EDP = 2,
	TRIM_EXPLORE_AREA = 3,
	TRIM_EXPLORE_WEIGHTED = 4 /**< energy^we x delay^wd x area^wa (TRIM_EX_W_*) */
};

/** Options: integers (trim_explorer_set_int) and doubles (_set_double). */
enum trim_explore_option {
	TRIM_EX_GOAL = 0,          /**< int, trim_explore_goal (default energy, as every goal option) */
	TRIM_EX_THREADS = 1,       /**< int, points evaluated at once by trim_explorer_run (1) */
	TRIM_EX_SPARSITY = 2,      /**< int, 1 (default): sparse figures on zero-skipping hardware */
	TRIM_EX_MAX_MAPPINGS = 3,  /**< int, refuse workloads with a larger mapspace (0: none) */
	TRIM_EX_IMPERFECT = 4,     /**< int, 1: imperfect factorisations searched too (TRIM_NET_IMPERFECT; 0) */
	TRIM_EX_AREA_BUDGET = 10,  /**< double, mm^2: points above it are not ranked (0: none) */
	TRIM_EX_W_ENERGY = 11,     /**< double, weights of TRIM_EXPLORE_WEIGHTED (1, 1, 0) */
	TRIM_EX_W_DELAY = 12,
	TRIM_EX_W_AREA = 13,
	TRIM_EX_MIN_PE_UTIL = 14,  /**< double, TRIM's optional utilisation pruning of the mapper */
	TRIM_EX_MIN_RF_UTIL = 15,
	TRIM_EX_TIME_LIMIT = 16,   /**< double, seconds per point for its network's searches
	                                (TRIM_NET_TIME_LIMIT; 0: none, exact) */
	TRIM_EX_GAP = 17           /**< double in [0, 1), each search stops once proven within it
	                                (TRIM_NET_GAP; 0: exact) */
};

/** Per-point figures (trim_explorer_point, indices of out[]). */
enum trim_explore_field {
	TRIM_XF_VALID = 0,     /**< 1 if every workload was mapped */
	TRIM_XF_RANK,          /**< 1 = best; 0 if not ranked (invalid or over budget) */
	TRIM_XF_CYCLES, TRIM_XF_SECONDS, TRIM_XF_ENERGY_PJ, TRIM_XF_STATIC_PJ, TRIM_XF_EDP,
	TRIM_XF_AREA_MM2,      /**< NaN for FPGA designs */
	TRIM_XF_PE_UTILIZATION,
	TRIM_XF_PARETO,        /**< 1 if on the (energy, delay, area) front */
	TRIM_XF_FITS,          /**< FPGA: 1 if the device holds it; ASIC: 1 */
	TRIM_XF_DSP, TRIM_XF_BRAM36, TRIM_XF_LUT, TRIM_XF_FF, /**< FPGA resources (0 for ASIC) */
	/* How sure the figures are (docs/guide.md, "How sure a point is"): */
	TRIM_XF_EXACT,         /**< 1 if every search of the point was proven optimal (0: a time
	                            limit or a gap stopped one; invalid points: 0) */
	TRIM_XF_LOWER_BOUND,   /**< proven lower bound of the point's goal figure (the ranking's
	                            cost): no choice of mappings gives less; the figure itself when
	                            exact or for the area goal; NaN when the searches bound nothing
	                            the goal's figure is made of (sparse figures, weighted goal with
	                            energy and delay weights that differ) or the point is invalid */
	TRIM_XF_GAP,           /**< (figure - lower bound) / figure: 0 when exact, NaN when unbounded */
	TRIM_XF_RANK_BEST,     /**< the best and worst ranks the point could hold with every */
	TRIM_XF_RANK_WORST,    /**< ranked point's goal figure anywhere in [lower bound, figure]
	                            (ties by index): equal to TRIM_XF_RANK when its order is proven; 0 if
	                            not ranked */
	TRIM_XF_PARETO_PROVEN, /**< 1 if the point's place on or off the Pareto front is proven: it
	                            and every point that could change it exact (docs/guide.md); 0 if
	                            not (invalid points: 0) */
	TRIM_XF_COUNT
};

TRIM_API const char *trim_explore_goal_name(int goal);

/** `w` made from `net` (workloads made from another description: TRIM_EINVAL). */
TRIM_API int trim_explorer_create(trim_explorer **out, const trim_network *net,
                                  const trim_workloads *w, const trim_space *space);
TRIM_API void trim_explorer_free(trim_explorer *ex);
TRIM_API int trim_explorer_set_int(trim_explorer *ex, int option, int64_t value);
TRIM_API int trim_explorer_set_double(trim_explorer *ex, int option, double value);
/** Dataflow constraints every point's searches must obey, in addition to the
 * space's `mapspace_constraints:` (trim_space_constraints); copied, NULL
 * keeps only the space's. Checked against the space's architecture at once.
 * A point where some workload has no mapping obeying them is recorded as
 * invalid. Part of the stamp of a resumable sweep. Before the first step. */
TRIM_API int trim_explorer_set_constraints(trim_explorer *ex, const trim_constraints *c);
/** Make the sweep resumable: finished points are written to `dir` (created
 * if missing) and points already there are loaded instead of evaluated.
 * Each point file carries the SHA-256 digest of the content of every input
 * its figures depend on (the network file and its workloads, the space file,
 * the base architecture file, the energy table(s), the dataflow constraints,
 * the options that change figures: search goal, mode, batch, word bits,
 * sparsity, mapping limits, time limit and gap; and the library: its version
 * and a digest of its sources) and a checksum of its own text. A file is
 * reused only if all of them agree and the point's mappings, each passing
 * the check trim eval applies, evaluate again to its figures bit for bit
 * (the file written again from them is the file, byte for byte); only
 * regular files of at most 64 MiB are read. A stale, corrupt, edited or
 * unreadable file is recomputed (and replaced), trim_explorer_resume_notes
 * says why. A file of another exploration (another network or space name)
 * is refused: TRIM_EINVAL naming it. An input that cannot be read is
 * TRIM_EIO.
 * The options that change figures and the constraints are set before it
 * (after it they are refused with TRIM_EINVAL); the area budget and the
 * weights may follow. */
TRIM_API int trim_explorer_set_out_dir(trim_explorer *ex, const char *dir);

/** Fused tiles (docs/fusion.md, "Fused tiles"; trim network --fuse): each
 * valid point's chains of layers are planned as fused groups (as
 * trim_fusedtiles_report_within on the point's architecture, for the goal,
 * with the time limit TRIM_EX_TIME_LIMIT of its own), and the point's
 * energy and cycles are its layer-by-layer figures less what the fused
 * plan saves over its own layer-by-layer plan (never more on the goal: the
 * layer-by-layer plan is a candidate); TRIM_XF_EXACT, _LOWER_BOUND and
 * _GAP include the plan's proof. range: "all" (every chain) or
 * "FIRST:LAST" (layer names: fused groups only within them), NULL: none
 * (the default). level: the buffer level (NULL: the first storage level
 * below the outermost). Checked at once: TRIM_EINVAL for a bad range,
 * TRIM_ENOTFOUND for an unknown layer or level (with the nearest name).
 * Inference workloads, the energy or delay goal, dense figures (sparsity
 * off, or no point that gates or skips zeros), and no constraints,
 * imperfect factorisations, mapping limits, utilisation pruning or gap:
 * a point is refused with TRIM_EINVAL naming what fused tiles do not take
 * yet. Not with an output directory (nor trim/work.h): its point files do
 * not keep the plans yet. Before the first step. */
TRIM_API int trim_explorer_set_fuse(trim_explorer *ex, const char *range, const char *level);

/** Fused-tiles figures of a point (trim_explorer_point_fused, indices of out[]). */
enum trim_explore_fused_field {
	TRIM_XFU_PLANNED = 0,    /**< 1 if the point's chains were planned (a valid point, fused tiles set) */
	TRIM_XFU_CHAINS,         /**< chains of the network */
	TRIM_XFU_FUSED_GROUPS,   /**< groups of two or more layers in the plans */
	TRIM_XFU_DRAM_BYTES,     /**< bytes the chains' plans move to and from DRAM */
	TRIM_XFU_LBL_DRAM_BYTES, /**< the same, layer by layer */
	TRIM_XFU_DRAM_SAVED,     /**< their difference */
	TRIM_XFU_BUFFER_BYTES,   /**< the most bytes of the buffer level a fused group's tile takes */
	TRIM_XFU_COST,           /**< the goal's figure of the chains' plans (pJ or cycles) */
	TRIM_XFU_LBL_COST,       /**< the same, layer by layer */
	TRIM_XFU_LOWER_BOUND,    /**< proven lower bound of the chains' figure over every plan */
	TRIM_XFU_EXACT,          /**< 1 if the plans are proven optimal (0: a time limit stopped one) */
	TRIM_XFU_LBL_ENERGY_PJ,  /**< the point's figures layer by layer (TRIM_XF_ENERGY_PJ, */
	TRIM_XFU_LBL_CYCLES,     /**< _CYCLES without fused tiles) */
	TRIM_XFU_COUNT
};

/** Fields TRIM_XFU_* of evaluated point i into out[0..n-1] (n >= TRIM_XFU_COUNT);
 * all 0 but NaN costs when the point was not planned. */
TRIM_API int trim_explorer_point_fused(const trim_explorer *ex, size_t i, double *out, size_t n);

/** Evaluate the next point; *done = 1 when all are done and ranked. A point
 * that cannot be mapped is recorded as invalid, not an error. */
TRIM_API int trim_explorer_step(trim_explorer *ex, int *done);
/** Evaluate every remaining point (TRIM_EX_THREADS at once). */
TRIM_API int trim_explorer_run(trim_explorer *ex);
TRIM_API size_t trim_explorer_done(const trim_explorer *ex);
TRIM_API size_t trim_explorer_count(const trim_explorer *ex);
/** Points loaded from the output directory instead of evaluated. */
TRIM_API size_t trim_explorer_resumed(const trim_explorer *ex);
/** Point files found in the output directory but not reused (stale: an
 * input changed; corrupt: the checksum does not match), to be recomputed. */
TRIM_API size_t trim_explorer_recomputed(const trim_explorer *ex);
/** Why those files were not reused: one line per reason, "FILE: the network
 * changed since it was written: recomputed" ("FILE and N more: ..." when
 * several share it); "" when none. Owned by the explorer, valid until it is
 * freed. */
TRIM_API const char *trim_explorer_resume_notes(const trim_explorer *ex);

TRIM_API const char *trim_explorer_point_name(const trim_explorer *ex, size_t i);
/** Fields TRIM_XF_* of point i into out[0..n-1] (n >= TRIM_XF_COUNT). */
TRIM_API int trim_explorer_point(const trim_explorer *ex, size_t i, double *out, size_t n);
/** Index of the point of rank r (1 = best); TRIM_ENOTFOUND if none. */
TRIM_API int trim_explorer_ranked(const trim_explorer *ex, size_t rank, size_t *index);

/** TRIM_FORMAT_TABLE, _JSON ({"goal", "points": [...], "pareto": [names]}) or _CSV. */
TRIM_API int trim_explorer_report(const trim_explorer *ex, int format, char **out);
/** Write the full result set: DIR/results.json, DIR/points.csv, DIR/workloads.csv. */
TRIM_API int trim_explorer_write(const trim_explorer *ex, const char *dir);

/** Fields TRIM_NF_* (trim/neteval.h) of intra workload k of valid point i, evaluated
 * again from the point's best mapping (resumed points included): the figures the
 * sweep found, with what its search proved (TRIM_NF_EXACT, _LOWER_BOUND, _GAP: kept
 * by the point, resumed points included). The search's counts (TRIM_NF_GENERATED,
 * _VALID, _EVALUATED) and _REUSED_FROM are NaN: the explorer does not keep them.
 * TRIM_ENOTFOUND for an invalid point; TRIM_EBUFSIZE when n < TRIM_NF_COUNT. Each
 * call evaluates the point's workloads once. */
TRIM_API int trim_explorer_workload(const trim_explorer *ex, size_t i, size_t k, double *out, size_t n);
/** Breakdown of intra workload k of valid point i (trim/eval.h, enum trim_action)
 * into counts[] and energy_pj[] (either may be NULL) of n >= trim_breakdown_size
 * (levels) entries; its energies add up to the workload's. */
TRIM_API int trim_explorer_breakdown(const trim_explorer *ex, size_t i, size_t k, double *counts,
                                     double *energy_pj, size_t n);
/** Warnings of valid point i as a JSON array (trim_neteval_warnings); free *out with
 * trim_string_free. */
TRIM_API int trim_explorer_warnings(const trim_explorer *ex, size_t i, char **out);
/** The breakdowns of every workload of every valid point: TRIM_FORMAT_CSV
 * ("goal,point,index,layer,phase,level,tensor,action,count,energy_pj", the
 * goal's name first on every row) or TRIM_FORMAT_JSON ({"goal", "points"}).
 * After the run. */
TRIM_API int trim_explorer_breakdown_report(const trim_explorer *ex, int format, char **out);
/** Write one self-contained HTML page to `path` (trim_neteval_write_html): the
 * ranking, the Pareto front (energy against delay, log axes when the values span
 * decades) and, for every valid point, its workloads' energy, time, bottleneck,
 * utilisation, loop nests and warnings. After the run; written atomically. */
TRIM_API int trim_explorer_write_html(const trim_explorer *ex, const char *path);

#ifdef __cplusplus
}
#endif
#endif
