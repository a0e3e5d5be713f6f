/*
 * trim/workload.h - networks and the task analyst.
 *
 * A network description (YAML, docs/schema.md) is loaded into a
 * trim_network; the task analyst turns it into intra-layer workloads (loop
 * nests over N, G, M, C, E, F, R, S) and inter-layer workloads (padding,
 * upsampling, transposition, caching of intermediate activations).
 *
 * Ownership: handles returned through **out belong to the caller and are
 * released with the matching *_free (which accepts NULL). A trim_workloads
 * does not reference its network: the network may be freed first. It keeps
 * a digest of the network's description, so that what takes a network and
 * its workloads refuses workloads made from another one (TRIM_EINVAL).
 * Strings returned as `const char *` live as long as their handle.
 * Thread safety: handles are immutable after creation and may be read from
 * any number of threads at once.
 */
#ifndef TRIM_WORKLOAD_H
#define TRIM_WORKLOAD_H

#include "trim/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Loop dimensions of an intra-layer workload. */
enum trim_dim {
	TRIM_DIM_N = 0, /**< batch */
	TRIM_DIM_G = 1, /**< groups (grouped / depthwise convolution, pooling channels) */
	TRIM_DIM_M = 2, /**< output channels (per group) */
	TRIM_DIM_C = 3, /**< input channels (per group) */
	TRIM_DIM_E = 4, /**< output rows */
	TRIM_DIM_F = 5, /**< output columns */
	TRIM_DIM_R = 6, /**< filter rows */
	TRIM_DIM_S = 7, /**< filter columns */
	TRIM_NDIMS = 8
};

/** Phases of training (inference has FW only). */
enum trim_phase { TRIM_PHASE_FW = 0, TRIM_PHASE_BW = 1, TRIM_PHASE_WG = 2 };

/** Processing mode. */
enum trim_mode {
	TRIM_MODE_DEFAULT = -1, /**< as the network description says */
	TRIM_MODE_INFERENCE = 0,
	TRIM_MODE_TRAINING = 1
};

/** Kind of layer an intra-layer workload comes from. */
enum trim_workload_kind {
	TRIM_WL_CONV = 0,      /**< conv2d (grouped included) */
	TRIM_WL_DEPTHWISE = 1, /**< depthwise_conv2d */
	TRIM_WL_FC = 2,        /**< dense */
	TRIM_WL_MAXPOOL = 3,
	TRIM_WL_AVGPOOL = 4,   /**< avgpool2d and global_avgpool */
	TRIM_WL_ELTWISE = 5,   /**< the intra-layer part of a residual add */
	TRIM_WL_MATMUL = 6,    /**< matmul of two activations (heads as G) */
	TRIM_WL_UPSAMPLE = 7   /**< upsample: bilinear FW, BW of both modes */
};

/** Inter-layer workload operations. */
enum trim_inter_op {
	TRIM_INTER_PAD = 0,          /**< padding before FW or WG */
	TRIM_INTER_UPSAMPLE_PAD = 1, /**< zero insertion + padding of the output gradient (BW) */
	TRIM_INTER_TRANSPOSE = 2,    /**< filter transposition and rotation (BW) */
	TRIM_INTER_CACHE = 3,        /**< an activation kept from FW for BW / WG */
	TRIM_INTER_SHORTCUT = 4,     /**< a branch kept until its residual add / concat */
	TRIM_INTER_CONCAT = 5,       /**< data movement of a concatenation */
	TRIM_INTER_BATCHNORM = 6,    /**< normalisation, a constant-delay workload */
	TRIM_INTER_LAYERNORM = 7,    /**< layer normalisation, vector work like BatchNorm */
	TRIM_INTER_SOFTMAX = 8,      /**< softmax, vector work like BatchNorm */
	TRIM_INTER_MOVE = 9,         /**< data movement (transpose, split, nearest upsample) */
	TRIM_INTER_LOOKUP = 10       /**< embedding lookup (FW) and row updates (WG) */
};

TRIM_API const char *trim_dim_name(int dim);       /**< "N", "G", ... ; NULL if out of range */
TRIM_API const char *trim_phase_name(int phase);   /**< "FW", "BW", "WG" */
TRIM_API const char *trim_mode_name(int mode);     /**< "inference", "training" */
TRIM_API const char *trim_workload_kind_name(int kind);
TRIM_API const char *trim_inter_op_name(int op);

/* ---- networks ---------------------------------------------------------- */

typedef struct trim_network trim_network;

/** Load and validate a network description. Errors name file:line:col and key. */
TRIM_API int trim_network_load(trim_network **out, const char *path);
/** The same from text in memory; `name` is used in error messages. */
TRIM_API int trim_network_load_string(trim_network **out, const char *yaml, const char *name);
TRIM_API void trim_network_free(trim_network *net);

TRIM_API const char *trim_network_name(const trim_network *net);
TRIM_API int trim_network_mode(const trim_network *net);
TRIM_API int64_t trim_network_batch(const trim_network *net);
TRIM_API int trim_network_word_bits(const trim_network *net);
TRIM_API size_t trim_network_layer_count(const trim_network *net);
/** Name of layer i (NULL if out of range). */
TRIM_API const char *trim_network_layer_name(const trim_network *net, size_t i);
/** Layer type as written in YAML ("conv2d", ...). */
TRIM_API const char *trim_network_layer_type(const trim_network *net, size_t i);
/** Output shape of layer i as H, W, C into out[0..2]. */
TRIM_API int trim_network_layer_shape(const trim_network *net, size_t i, int64_t *out, size_t n);
/** Trainable parameters (weights, biases, BatchNorm / LayerNorm scale and shift,
 * embedding tables, learned tensors). */
TRIM_API int64_t trim_network_params(const trim_network *net);
/** Multiply-accumulates of one forward pass of one sample (CONV, FC, conv2d_transpose
 * and matmul). */
TRIM_API int64_t trim_network_macs(const trim_network *net);

/** Warnings the description carries (`warnings:`, e.g. the operators an ONNX
 * import passed through at no cost): their count, and warning i (NULL if out of range). */
TRIM_API size_t trim_network_warning_count(const trim_network *net);
TRIM_API const char *trim_network_warning(const trim_network *net, size_t i);

/* ---- the task analyst --------------------------------------------------- */

typedef struct trim_workloads trim_workloads;

/**
 * Generate the workloads of a network.
 * @param mode      TRIM_MODE_INFERENCE, TRIM_MODE_TRAINING or TRIM_MODE_DEFAULT
 * @param batch     batch size, or 0 for the network's
 * @param word_bits bits per stored word (cached-activation bytes), 0 for the network's
 */
TRIM_API int trim_workloads_create(trim_workloads **out, const trim_network *net, int mode,
                                   int64_t batch, int word_bits);
TRIM_API void trim_workloads_free(trim_workloads *w);

TRIM_API int trim_workloads_mode(const trim_workloads *w);
TRIM_API int64_t trim_workloads_batch(const trim_workloads *w);
TRIM_API int trim_workloads_word_bits(const trim_workloads *w);
TRIM_API size_t trim_workloads_intra_count(const trim_workloads *w);
TRIM_API size_t trim_workloads_inter_count(const trim_workloads *w);

/** Index of the intra workload of `layer` in `phase`; TRIM_ENOTFOUND if none. */
TRIM_API int trim_workloads_find(const trim_workloads *w, const char *layer, int phase,
                                 size_t *index);
TRIM_API const char *trim_workloads_intra_layer(const trim_workloads *w, size_t i);
TRIM_API int trim_workloads_intra_phase(const trim_workloads *w, size_t i);
TRIM_API int trim_workloads_intra_kind(const trim_workloads *w, size_t i);
/** Loop bounds in TRIM_DIM_* order into out[0..TRIM_NDIMS-1] (n >= TRIM_NDIMS). */
TRIM_API int trim_workloads_intra_bounds(const trim_workloads *w, size_t i, int64_t *out,
                                         size_t n);
/** Strides and dilations (rows, columns) into out[0..3]: U, V, Drow, Dcol. */
TRIM_API int trim_workloads_intra_strides(const trim_workloads *w, size_t i, int64_t *out,
                                          size_t n);
TRIM_API int64_t trim_workloads_intra_macs(const trim_workloads *w, size_t i);
/** MACs whose operand is a zero created by padding or upsampling. */
TRIM_API int64_t trim_workloads_intra_zero_macs(const trim_workloads *w, size_t i);
/** Name ("ifmap", "dY", ...) and element count of tensor slot 0..2 (NULL / -1 if absent). */
TRIM_API const char *trim_workloads_tensor_name(const trim_workloads *w, size_t i, int slot);
TRIM_API int64_t trim_workloads_tensor_elems(const trim_workloads *w, size_t i, int slot);

TRIM_API int trim_workloads_inter_op(const trim_workloads *w, size_t j);
TRIM_API const char *trim_workloads_inter_layer(const trim_workloads *w, size_t j);
TRIM_API int64_t trim_workloads_inter_zeros(const trim_workloads *w, size_t j);
/** Bytes a caching inter workload keeps (0 for other operations). */
TRIM_API int64_t trim_workloads_inter_bytes(const trim_workloads *w, size_t j);
/** Lifetime of a caching inter workload as intra indices [created, freed]. */
TRIM_API int trim_workloads_inter_lifetime(const trim_workloads *w, size_t j, int64_t *created,
                                           int64_t *freed);

/** Live cached bytes while each intra workload runs, into out[0..intra_count-1]. */
TRIM_API int trim_workloads_cached_bytes(const trim_workloads *w, int64_t *out, size_t n);
TRIM_API int64_t trim_workloads_peak_cached_bytes(const trim_workloads *w);
/** Sum of MACs of all intra workloads. */
TRIM_API int64_t trim_workloads_total_macs(const trim_workloads *w);

/** Report as TRIM_FORMAT_TABLE, _JSON or _CSV; free *out with trim_string_free. */
TRIM_API int trim_workloads_report(const trim_workloads *w, int format, char **out);

#ifdef __cplusplus
}
#endif
#endif
