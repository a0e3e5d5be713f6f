/*
 * lib/sparsity/: ReLU-driven sparsity (GRADIENT_SPARSITY). One concept per file:
 *   sparsity.c     which operands are sparse, effective MACs, imbalance
 *   sparse_eval.c  one evaluated mapping's figures adjusted for sparsity
 *
 * Sparse evaluation: the figures of one evaluated (dense) mapping adjusted
 * for ReLU-driven sparsity on hardware that gates or skips zeros
 * (docs/sparsity.md, "Time and energy").
 */
#ifndef TRIM_SPARSE_EVAL_INT_H
#define TRIM_SPARSE_EVAL_INT_H

#include "eval/eval_int.h"
#include "trim/sparsity.h"

typedef struct {
	double dense_cycles, cycles;
	double dense_energy_pj, energy_pj;
	double compute_cycles;     /* compute level, after skipping and imbalance */
	double time_factor;        /* fraction of the (non-predictable-zero) MACs executed */
	double imbalance;          /* >= 1: pe_imbalance x lane_imbalance */
	double pe_imbalance;       /* the most loaded PE (output tiles, or MACs per PE) */
	double lane_imbalance;     /* the slowest lane of a PE's adder-tree group */
	double level_cycles[TRIM__MAX_LEVELS]; /* per level, after skipping and compression */
	int bottleneck;            /* level with the most cycles */
	double metadata_words;     /* metadata words moved (storage reads + fills, network words) */
	double effective_macs;     /* MACs executed (predictable zeros and skipped work removed) */
	double mac_pj, saved_access_pj, metadata_pj, encode_pj, static_pj;
	int skips, gates;          /* the hardware skipped / gated something here */
} trim__sparse_eval;

/* Adjust `dense` (trim__eval_run of the same workload, arch, costs and
 * mapping) by the sparsity fields `sp` (TRIM_SP_*). */
int trim__sparse_adjust(const trim__intra *w, const struct trim_arch *a,
                        const trim__level_cost *costs, const trim__mapping *m,
                        const trim__eval *dense, const double *sp, trim__sparse_eval *out);

#endif
