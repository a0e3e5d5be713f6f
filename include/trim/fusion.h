/*
 * trim/fusion.h - inter-layer fusion of CONV / POOL chains (after DeCoILFNet).
 *
 * A chain is a run of consecutive CONV and POOL layers [FIRST..LAST] of a
 * network, each taking its input from the one before. A fusion plan
 * partitions the chain into groups of consecutive layers. Inside a group the
 * layers stream through on-chip line buffers (DeCoILFNet's line-buffer
 * windowing, depth concatenation and inter-layer pipelining): only the
 * group's input, its weights and its output cross the off-chip interface.
 * Groups run one after another on the same fabric, so a plan needs the
 * compute and on-chip memory of its largest group. docs/fusion.md gives
 * every equation.
 *
 * Typical use:
 *   trim_fusion_create(&f, net, "conv1_1", "conv3_1");
 *   trim_fusion_set_hardware(f, arch, NULL);      // clock, DRAM, BRAM, DSP
 *   trim_fusion_set_parallelism(f, "conv2_2", 64);  // depth concatenation
 *   trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_OFFCHIP);
 *   trim_fusion_result_report(r, TRIM_FORMAT_JSON, &text);
 *
 * Ownership: handles from **out belong to the caller and are released with
 * the matching *_free (NULL accepted). A trim_fusion copies what it needs
 * from the network and the hardware (they may be freed first); plans and
 * results copy what they need from the trim_fusion (it may be freed first).
 * `const char *` results live as long as their handle; `char **out` text is
 * freed with trim_string_free().
 * Thread safety: evaluation and exploration only read the trim_fusion, so
 * they may run from many threads at once; setters need exclusive access.
 */
#ifndef TRIM_FUSION_H
#define TRIM_FUSION_H

#include "trim/arch.h"
#include "trim/common.h"
#include "trim/energy.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_fusion trim_fusion;
typedef struct trim_fusion_plan trim_fusion_plan;
typedef struct trim_fusion_result trim_fusion_result;

/** Hardware parameters (trim_fusion_set_param). Defaults in brackets. */
enum trim_fusion_param {
	TRIM_FUSION_CLOCK_MHZ = 0,        /**< fabric clock [100] */
	TRIM_FUSION_WORD_BITS = 1,        /**< bits per stored word [the network's] */
	TRIM_FUSION_DRAM_PJ_PER_BIT = 2,  /**< off-chip energy per bit moved [0] */
	TRIM_FUSION_DRAM_WORDS_PER_CYCLE = 3, /**< off-chip bandwidth; 0 = unlimited [0] */
	TRIM_FUSION_SRAM_READ_PJ = 4,     /**< on-chip buffer read per word, when no table [0] */
	TRIM_FUSION_SRAM_WRITE_PJ = 5,    /**< on-chip buffer write per word, when no table [0] */
	TRIM_FUSION_MAC_PJ = 6,           /**< energy per MAC [0] */
	TRIM_FUSION_DSP_PER_MAC = 7,      /**< DSP slices per parallel multiplier [1] */
	TRIM_FUSION_DSP_AVAILABLE = 8,    /**< DSP slices of the device; 0 = unknown [0] */
	TRIM_FUSION_BRAM36_AVAILABLE = 9, /**< BRAM36 blocks of the device; 0 = unknown [0] */
	TRIM_FUSION_STATIC_MW = 10,       /**< static power of the device [0] */
	TRIM_FUSION_OP_LATENCY = 11,      /**< pipeline latency of one multiply / add stage [9] */
	TRIM_FUSION_BUDGET_DSP = 12,      /**< DSP budget of every group; 0 = none [0] */
	TRIM_FUSION_ENUM_MAX_LAYERS = 13, /**< longest chain enumerated exhaustively;
	                                       longer chains use dynamic programming [20] */
	TRIM_FUSION_NPARAMS = 14
};

/** Metrics of a plan (trim_fusion_plan_metrics) or of one of its groups. */
enum trim_fusion_metric {
	TRIM_FUSION_OFFCHIP_FMAP_BYTES = 0,   /**< feature maps in + out, summed over groups */
	TRIM_FUSION_OFFCHIP_WEIGHT_BYTES = 1, /**< weights (and biases) loaded */
	TRIM_FUSION_OFFCHIP_BYTES = 2,        /**< the sum of the two */
	TRIM_FUSION_ONCHIP_BUFFER_BYTES = 3,  /**< line + window + pool buffers + weights (max over groups) */
	TRIM_FUSION_ONCHIP_FMAP_BYTES = 4,    /**< line + window + pool buffers only (max over groups) */
	TRIM_FUSION_MACS_PARALLEL = 5,        /**< parallel multipliers (max over groups) */
	TRIM_FUSION_DSP = 6,                  /**< DSP slices (max over groups) */
	TRIM_FUSION_BRAM36 = 7,               /**< BRAM36 blocks (max over groups) */
	TRIM_FUSION_LATENCY_CYCLES = 8,       /**< cycles to the first output, summed over groups */
	TRIM_FUSION_CYCLES = 9,               /**< cycles of one input, summed over groups */
	TRIM_FUSION_TIME_MS = 10,             /**< CYCLES at the clock */
	TRIM_FUSION_MACS = 11,                /**< MACs of one input */
	TRIM_FUSION_DRAM_PJ = 12,
	TRIM_FUSION_SRAM_PJ = 13,
	TRIM_FUSION_MAC_ENERGY_PJ = 14,
	TRIM_FUSION_STATIC_PJ = 15,
	TRIM_FUSION_ENERGY_PJ = 16,           /**< the sum of the four energies */
	TRIM_FUSION_GROUPS = 17,              /**< number of groups ("group_count"; 1 for a group) */
	TRIM_FUSION_NMETRICS = 18
};

/** Per-layer quantities of a chain (trim_fusion_layer_metrics), in words / cycles. */
enum trim_fusion_layer_metric {
	TRIM_FUSION_L_LINE_BUFFER_WORDS = 0, /**< CONV: (K_r-1) x padded width x depth */
	TRIM_FUSION_L_WINDOW_WORDS = 1,      /**< CONV: K_r x K_s x depth */
	TRIM_FUSION_L_POOL_BUFFER_WORDS = 2, /**< POOL: ceil(K/U) x output width x depth */
	TRIM_FUSION_L_WEIGHT_WORDS = 3,      /**< CONV: weights + biases */
	TRIM_FUSION_L_MACS_PARALLEL = 4,     /**< CONV: K_r x K_s x P */
	TRIM_FUSION_L_PARALLELISM = 5,       /**< P: channels computed at once */
	TRIM_FUSION_L_PASSES = 6,            /**< ceil(depth / P): serial passes */
	TRIM_FUSION_L_FILL_SLOTS = 7,        /**< stream slots before the first window */
	TRIM_FUSION_L_PIPELINE_CYCLES = 8,   /**< delta: arithmetic pipeline depth */
	TRIM_FUSION_L_CYCLES_PER_PIXEL = 9,  /**< own pace: cycles per output pixel */
	TRIM_FUSION_L_OUT_PIXELS = 10,       /**< E x F */
	TRIM_FUSION_L_IN_PIXELS = 11,        /**< H x W */
	TRIM_FUSION_L_MACS = 12,
	TRIM_FUSION_L_NMETRICS = 13
};

/** Timing of one layer inside a plan (trim_fusion_plan_layer_times), cycles
 *  from the start of its group. */
enum trim_fusion_time {
	TRIM_FUSION_T_FIRST_OUTPUT = 0, /**< A: first output of the layer */
	TRIM_FUSION_T_LAST_OUTPUT = 1,  /**< Z: last output of the layer */
	TRIM_FUSION_T_PACE = 2,         /**< pi: cycles per output pixel in steady state */
	TRIM_FUSION_T_N = 3
};

/** Goals of trim_fusion_explore: the metric the best plan minimises. */
enum trim_fusion_goal {
	TRIM_FUSION_GOAL_OFFCHIP = 0, /**< off-chip bytes */
	TRIM_FUSION_GOAL_CYCLES = 1,
	TRIM_FUSION_GOAL_DSP = 2,
	TRIM_FUSION_GOAL_ONCHIP = 3,
	TRIM_FUSION_GOAL_ENERGY = 4,
	TRIM_FUSION_NGOALS = 5
};

/* ---- chains ------------------------------------------------------------ */

/**
 * The chain of layers `first`..`last` of `net` (names; NULL `first` = the
 * first layer, NULL `last` = as far as the chain of CONV / POOL layers goes
 * from `first`). Every layer must be conv2d, maxpool2d or avgpool2d and take
 * its input from the previous one: otherwise TRIM_ESHAPE naming the layer.
 * Parallelism defaults to full depth (P = input channels per group).
 */
TRIM_API int trim_fusion_create(trim_fusion **out, const trim_network *net, const char *first,
                                const char *last);
TRIM_API void trim_fusion_free(trim_fusion *f);
/** A deep copy. */
TRIM_API int trim_fusion_clone(trim_fusion **out, const trim_fusion *f);

TRIM_API size_t trim_fusion_layer_count(const trim_fusion *f);
/** Name of chain layer i (NULL if out of range). */
TRIM_API const char *trim_fusion_layer_name(const trim_fusion *f, size_t i);
/** Index of a layer in the chain, or TRIM_ENOTFOUND. */
TRIM_API int trim_fusion_layer_find(const trim_fusion *f, const char *name);
/** TRIM_FUSION_L_* quantities of chain layer i into out[0..n-1]. */
TRIM_API int trim_fusion_layer_metrics(const trim_fusion *f, size_t i, double *out, size_t n);

/** Set / get a TRIM_FUSION_* parameter. TRIM_ERANGE for a negative or absurd value. */
TRIM_API int trim_fusion_set_param(trim_fusion *f, int param, double value);
TRIM_API int trim_fusion_get_param(const trim_fusion *f, int param, double *value);
/** Name of a parameter ("clock_mhz", ...), NULL if out of range. */
TRIM_API const char *trim_fusion_param_name(int param);
/** Name of a metric ("offchip_bytes", ...), NULL if out of range. */
TRIM_API const char *trim_fusion_metric_name(int metric);
/** Name of a goal ("offchip", ...), NULL if out of range; and back. */
TRIM_API const char *trim_fusion_goal_name(int goal);
TRIM_API int trim_fusion_goal_from_name(const char *name);

/**
 * Depth concatenation: channels of CONV layer `layer` computed at once
 * (1 <= P <= its input channels per group). A layer with P below its depth
 * runs ceil(depth / P) serial passes (iterative decomposition).
 */
TRIM_API int trim_fusion_set_parallelism(trim_fusion *f, const char *layer, int64_t channels);
/** Cap every CONV layer's P at `channels` (0 = full depth everywhere). */
TRIM_API int trim_fusion_set_max_parallelism(trim_fusion *f, int64_t channels);

/**
 * Take the clock, word width, off-chip bandwidth and energy per bit from an
 * architecture, and buffer / MAC energies and FPGA resources (DSP per MAC,
 * device DSP and BRAM36, static power) from its energy table. `table` may be
 * NULL: the architecture's technology is resolved (trim_energy_load_for_arch).
 * The DSP budget becomes the device's DSPs unless one was set.
 */
TRIM_API int trim_fusion_set_hardware(trim_fusion *f, const trim_arch *arch,
                                      const trim_energy *table);
/** Name of the hardware ("" until trim_fusion_set_hardware). */
TRIM_API const char *trim_fusion_hardware_name(const trim_fusion *f);

/* ---- plans ------------------------------------------------------------- */

/**
 * Evaluate a plan written as groups of layer names: layers separated by
 * ',' inside a group, groups by '|' ("conv1_1,conv1_2,pool1|conv2_1").
 * Every chain layer must appear once, in chain order. Errors (TRIM_ESCHEMA
 * naming the layer): unknown layer, a layer outside the chain, layers out of
 * order or not consecutive, a missing layer; TRIM_ENOFIT: a group over the
 * DSP budget.
 */
TRIM_API int trim_fusion_evaluate(trim_fusion_plan **out, const trim_fusion *f,
                                  const char *groups);
/** The same from a cut mask: bit i set = a group ends after chain layer i
 *  (bits at and above L-1 must be 0). Chains of at most 64 layers. */
TRIM_API int trim_fusion_evaluate_cuts(trim_fusion_plan **out, const trim_fusion *f,
                                       uint64_t cuts);
TRIM_API void trim_fusion_plan_free(trim_fusion_plan *p);

TRIM_API uint64_t trim_fusion_plan_cuts(const trim_fusion_plan *p);
TRIM_API size_t trim_fusion_plan_group_count(const trim_fusion_plan *p);
/** Chain indices of the first and last layer of group g into out[0..1]. */
TRIM_API int trim_fusion_plan_group(const trim_fusion_plan *p, size_t g, int64_t *out, size_t n);
/** TRIM_FUSION_* metrics of the plan into out[0..n-1] (n <= TRIM_FUSION_NMETRICS). */
TRIM_API int trim_fusion_plan_metrics(const trim_fusion_plan *p, double *out, size_t n);
/** The same for group g alone. */
TRIM_API int trim_fusion_plan_group_metrics(const trim_fusion_plan *p, size_t g, double *out,
                                            size_t n);
/** TRIM_FUSION_T_* of chain layer i within its group into out[0..n-1]. */
TRIM_API int trim_fusion_plan_layer_times(const trim_fusion_plan *p, size_t i, double *out,
                                          size_t n);
/** TRIM_FORMAT_TABLE or TRIM_FORMAT_JSON; free *out with trim_string_free. */
TRIM_API int trim_fusion_plan_report(const trim_fusion_plan *p, int format, char **out);

/* ---- exploration ------------------------------------------------------- */

/**
 * Every partition of the chain into groups (2^(L-1) for L layers) when L is
 * at most TRIM_FUSION_ENUM_MAX_LAYERS; beyond, a Pareto dynamic programme
 * over prefixes (exact for the Pareto set: every objective is a sum or a max
 * over groups). Plans with a group over the DSP budget are left out. The
 * Pareto set is over (off-chip bytes, parallel MACs, on-chip buffer bytes,
 * cycles); the best plan minimises `goal`, ties broken by off-chip bytes,
 * cycles, MACs, on-chip bytes and the cut mask. Order is deterministic:
 * plans by cut mask, the Pareto set by (MACs, off-chip bytes, cycles,
 * on-chip bytes, cut mask). TRIM_ENOFIT if no plan fits the budget.
 */
TRIM_API int trim_fusion_explore(trim_fusion_result **out, const trim_fusion *f, int goal);
TRIM_API void trim_fusion_result_free(trim_fusion_result *r);

/** Partitions considered (2^(L-1) when enumerated; evaluated states for DP). */
TRIM_API uint64_t trim_fusion_result_considered(const trim_fusion_result *r);
/** 1 when the result came from the dynamic programme, 0 from enumeration. */
TRIM_API int trim_fusion_result_used_dp(const trim_fusion_result *r);
/** Plans kept (within budget; with DP only the Pareto set is kept). */
TRIM_API size_t trim_fusion_result_plan_count(const trim_fusion_result *r);
TRIM_API uint64_t trim_fusion_result_plan_cuts(const trim_fusion_result *r, size_t i);
TRIM_API int trim_fusion_result_plan_metrics(const trim_fusion_result *r, size_t i, double *out,
                                             size_t n);
TRIM_API size_t trim_fusion_result_pareto_count(const trim_fusion_result *r);
/** Plan index of the k-th Pareto plan into *index (TRIM_EINVAL if k is out of range). */
TRIM_API int trim_fusion_result_pareto(const trim_fusion_result *r, size_t k, size_t *index);
/** Plan index of the best plan for the goal into *index (TRIM_ENOTFOUND if no plan fits). */
TRIM_API int trim_fusion_result_best(const trim_fusion_result *r, size_t *index);
/** Plan index of layer-by-layer execution (every layer its own group) into *index;
 *  TRIM_ENOTFOUND if it was not kept (over budget, or not on the Pareto set under DP). */
TRIM_API int trim_fusion_result_layer_by_layer(const trim_fusion_result *r, size_t *index);
/** TRIM_FORMAT_TABLE or TRIM_FORMAT_JSON (`plans`, `pareto`, `best`, ...). */
TRIM_API int trim_fusion_result_report(const trim_fusion_result *r, int format, char **out);

#ifdef __cplusplus
}
#endif
#endif
