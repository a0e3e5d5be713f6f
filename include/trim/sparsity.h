/*
 * trim/sparsity.h - ReLU-driven input and gradient-output sparsity in training.
 *
 * ReLU zeros its negative inputs; in the backward pass the gradient through
 * that ReLU is zero at exactly the same positions (GRADIENT_SPARSITY, Sec. III),
 * so an accelerator can skip (a) zero operands (input sparsity) and (b) in BW
 * whole gradient outputs that a ReLU will zero anyway (output sparsity), even
 * when BatchNorm between CONV and ReLU makes the incoming gradient dense.
 * docs/sparsity.md gives the rules and the load-imbalance model.
 *
 * Sparsities come from the network description (`sparsity:` per layer or a
 * network default, docs/schema.md) and optionally from a CSV trace
 * (trim_sparsity_load_trace). Ownership and threading as everywhere
 * (docs/conventions.md): the handle is immutable once built and loaded.
 */
#ifndef TRIM_SPARSITY_H
#define TRIM_SPARSITY_H

#include "trim/common.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_sparsity trim_sparsity;

/** Operand sparsities of one intra workload (indices of the out array). */
enum trim_sparsity_field {
	TRIM_SP_OPERAND0 = 0, /**< zeros of operand slot 0 (ifmap, dY, ...) */
	TRIM_SP_OPERAND1 = 1, /**< zeros of operand slot 1 (weights are dense: 0) */
	TRIM_SP_OUTPUT = 2,   /**< BW: fraction of results a later ReLU zeros (skippable) */
	TRIM_SP_FACTOR = 3,   /**< (1 - out) (1 - op0) (1 - op1): effective / dense MACs */
	TRIM_SP_SPREAD = 4,   /**< coefficient of variation of per-channel sparsity (0 if unknown) */
	TRIM_SP_NFIELDS = 5
};

/** Sparsity of every intra workload of `w`, from the annotations of `net`
 * (the network `w` was made from: workloads made from another description
 * are refused with TRIM_EINVAL). */
TRIM_API int trim_sparsity_create(trim_sparsity **out, const trim_network *net,
                                  const trim_workloads *w);
/**
 * Override per-layer figures with a CSV trace. Columns (header required, in
 * any order): layer, phase (FW, BW, WG or *), activation_sparsity,
 * gradient_sparsity, and optionally within_channel_cv and
 * through_channel_sparsity. Empty cells keep the current value. Errors name
 * file:line and the column.
 */
TRIM_API int trim_sparsity_load_trace(trim_sparsity *sp, const char *path);
TRIM_API void trim_sparsity_free(trim_sparsity *sp);
/** Set the fraction of zeros of every ReLU output that has no figure of its own
 * (the network's `sparsity:` default), in [0, 1). */
TRIM_API int trim_sparsity_set_default(trim_sparsity *sp, double zeros);

/** Fields TRIM_SP_* of intra workload i into out[0..n-1] (n >= TRIM_SP_NFIELDS). */
TRIM_API int trim_sparsity_workload(const trim_sparsity *sp, size_t i, double *out, size_t n);
/** Zeros of the output of layer `layer` (its activation) into *out;
 * TRIM_ENOTFOUND if the network has no such layer. */
TRIM_API int trim_sparsity_layer(const trim_sparsity *sp, const char *layer, double *out);

/**
 * Load imbalance. `units` work units per PE, each non-zero with probability
 * `density` independently (optionally with a per-PE spread of the density,
 * `cv` = its coefficient of variation); `pes` PEs finish when the most loaded
 * one does. Returns E[max over PEs of the non-zero units] / (units x density):
 * 1 means perfect balance, > 1 the slowdown over the ideal (1 - s) scaling.
 * With redistribution (`threshold` > 0, e.g. 0.3), work is split from a
 * straggler whose excess exceeds threshold x mean, bounding the factor by
 * 1 + threshold. The factor goes to *out; TRIM_EINVAL on bad arguments.
 */
TRIM_API int trim_sparsity_imbalance(int64_t units, double density, int64_t pes, double cv,
                                     double threshold, double *out);

#ifdef __cplusplus
}
#endif
#endif
