/*
 * Internals of inter-layer fusion of CONV / POOL chains (DeCoILFNet): line
 * buffers, depth concatenation, pipelined groups, and the exploration of
 * every partition of a chain into fused groups (include/trim/fusion.h is the
 * public API). docs/fusion.md gives every equation; the comments name them
 * (F1 ... F14). One concept per file:
 *   names.c      the names of the parameters, metrics and goals
 *   chain.c      the chain handle: its layers, parameters, parallelism
 *   hardware.c   a chain's hardware (architecture and energy table)
 *   model.c      one layer (F1-F6), one group (F7-F13), a plan's sums (F14)
 *   plans.c      a plan: one partition evaluated, its accessors
 *   explore.c    every partition: enumeration or dynamic programming, the
 *                Pareto set, the best plan, the result's accessors
 *   report.c     the reports of a plan and of a result
 * Internal functions and tables shared by these files carry the trim__
 * prefix (hidden by -fvisibility=hidden); the others are static.
 */
#ifndef TRIM_FUSION_INT_H
#define TRIM_FUSION_INT_H

#include <stddef.h>
#include <stdint.h>

#include "arch/arch_int.h"
#include "energy/energy_int.h"
#include "network/network_int.h"
#include "trim/fusion.h"
#include "util/handle.h"
#include "util/util.h"

#define MAX_CHAIN 64

typedef struct {
	char name[TRIM__NAME_LEN];
	int pool;   /* 0 CONV, 1 POOL */
	int maxp;   /* POOL: max (1) or average (0) */
	int64_t H, W, C, E, F, M;
	int64_t R, S, U, V, Dr, Dc, pt, pb, pl, pr, G;
	int64_t P;        /* CONV: channels computed at once */
	int64_t weights;  /* CONV: weight + bias words */
	/* energies per word of the layer's buffers (set by set_hardware) */
	double lb_rd, lb_wr, pb_rd, pb_wr, w_rd, w_wr;
} fu_layer;

struct trim_fusion {
	uint32_t tag; /* TRIM__H_FUSION (util/handle.h): first, checked by every entry point */
	char net[TRIM__NAME_LEN];
	char hw[TRIM__ARCH_NAME_LEN];
	int nl;
	fu_layer ly[MAX_CHAIN];
	double prm[TRIM_FUSION_NPARAMS];
	int has_table; /* per-layer buffer energies come from an energy table */
};

/* Per-layer derived quantities (F1-F6). */
typedef struct {
	double line, window, poolbuf, weights; /* words */
	double macs_par, passes, fill, delta, own, out_px, in_px, macs;
	double bram18;  /* BRAM18 blocks of the layer's buffers */
	double sram_pj; /* buffer energy of one input */
} fu_lq;

struct trim_fusion_plan {
	uint32_t tag; /* TRIM__H_FUSION_PLAN (util/handle.h): first, checked by every entry point */
	trim_fusion f; /* a copy: the plan does not refer to its chain */
	uint64_t cuts;
	int ng;
	int gfirst[MAX_CHAIN], glast[MAX_CHAIN];
	double gm[MAX_CHAIN][TRIM_FUSION_NMETRICS];
	double m[TRIM_FUSION_NMETRICS];
	double t[MAX_CHAIN][TRIM_FUSION_T_N];
};

struct trim_fusion_result {
	uint32_t tag; /* TRIM__H_FUSION_RESULT (util/handle.h): first, checked by every entry point */
	trim_fusion f;
	int goal, dp;
	uint64_t considered, over_budget;
	size_t n;
	uint64_t *cuts;
	double *m; /* n x TRIM_FUSION_NMETRICS */
	size_t np;
	size_t *pareto;
	int64_t best, lbl;
};

/* ---- names (names.c) ------------------------------------------------------- */

/* Parameter, metric and goal names by index (TRIM_FUSION_NPARAMS,
 * TRIM_FUSION_NMETRICS, TRIM_FUSION_NGOALS entries). */
extern const char *const trim__fusion_param_names[TRIM_FUSION_NPARAMS];
extern const char *const trim__fusion_metric_names[TRIM_FUSION_NMETRICS];
extern const char *const trim__fusion_goal_names[TRIM_FUSION_NGOALS];

/* ---- the model (model.c) ---------------------------------------------------- */

/* The derived quantities of chain layer i (F1-F6) into q. */
void trim__fusion_layer_q(const trim_fusion *f, int i, fu_lq *q);

/* Metrics of the group of chain layers a..b into m[]; the timing of each of
 * its layers into t[i][] when t is not NULL (F7-F13). */
void trim__fusion_eval_group(const trim_fusion *f, int a, int b, double *m,
                double (*t)[TRIM_FUSION_T_N]);

/* 1 when the group metrics gm need more DSP slices than the budget (a
 * budget of 0: none). */
int trim__fusion_over_budget(const trim_fusion *f, const double *gm);

/* F14: adds group metrics gm to a plan's acc: the sum over groups, or the
 * max for resources. */
void trim__fusion_combine(double *acc, const double *gm);

/* ---- plans (plans.c) -------------------------------------------------------- */

/* Copies the first n (at most TRIM_FUSION_NMETRICS) metrics of m to out; 0. */
int trim__fusion_copy_metrics(const double *m, double *out, size_t n);

#endif
