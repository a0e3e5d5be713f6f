/*
 * The evaluator: cycles, energy and utilisation of one mapping of one
 * intra-layer workload, from the activity counts (lib/activity/activity_int.h) and
 * the per-level costs of an energy table (trim__level_cost, arch_int.h).
 * A pure function of (workload, arch, costs, mapping) writing into a
 * caller-provided result and workspace: no allocation once the workspace
 * has grown. docs/model.md, "Evaluator", gives the equations.
 *
 * One concept per file:
 *   eval.c      the evaluator: cycles per level, energy, utilisation
 *   systolic.c  the pipeline a `network: systolic` level adds (fills,
 *               drains, serial preloads)
 *   netcost.c   the costs of inter-layer workloads and the cache plan of
 *               intermediate activations (netcost_int.h)
 * The report of an evaluation (its breakdown, warnings, table and JSON) is
 * lib/report/eval.c, above the evaluator.
 */
#ifndef TRIM_EVAL_INT_H
#define TRIM_EVAL_INT_H

#include "activity/activity_int.h"
#include "trim/eval.h"

typedef struct {
	trim__activity act;
	double cycles;                          /* max over levels */
	int bottleneck;                         /* level with the most cycles */
	double level_cycles[TRIM__MAX_LEVELS];  /* trim__eval_act clears from here to the end */
	double energy_pj;                       /* dynamic + static */
	double dyn_pj[TRIM__MAX_LEVELS][3];     /* per level and tensor (compute: [.][0]) */
	double mac_pj;                          /* MACs, gated ones included */
	double static_pj[TRIM__MAX_LEVELS];     /* leakage over the cycles */
	double pe_util;                         /* active PEs / PEs */
	double pe_util_real;                    /* MACs / (steps x PEs): pe_util less the PEs idle
	                                         * on ragged tiles (= pe_util unless imperfect) */
	double cap_util[TRIM__MAX_LEVELS];      /* bytes of the kept tiles / capacity (0: unbounded) */
	int64_t cap_bytes[TRIM__MAX_LEVELS];    /* bytes of the kept tiles per instance */
} trim__eval;

typedef struct {
	trim__act_ws act;
} trim__eval_ws;

void trim__eval_ws_free(trim__eval_ws *ws);

/* costs: one per level (trim__arch_costs). The mapping must pass
 * trim__mapping_check (capacity included) or the caller must accept a
 * capacity utilisation above 1. */
int trim__eval_run(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                   const trim__mapping *m, trim__eval_ws *ws, trim__eval *out);

/* trim__eval_run in two parts (trim__activity_prepare / _orders): prepare
 * once per factors and keeps of m, then evaluate any number of mappings
 * that differ from it only in their loop orders, with the same ws. The
 * result is trim__eval_run's, except that the rows of out->act beyond the
 * architecture's levels are not written (zero them once). */
int trim__eval_prepare(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                       trim__eval_ws *ws);
int trim__eval_order(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                     const trim__mapping *m, trim__eval_ws *ws, trim__eval *out);

/* The rest of trim__eval_run: cycles, energy and utilisation from the
 * counts already in out->act (the other fields are overwritten). Every
 * result is a non-decreasing function of every count (IEEE operations are
 * monotone), so counts that are lower bounds give lower bounds. */
void trim__eval_act(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                    const trim__mapping *m, trim__eval *out);

/* Cycles a systolic spatial level l adds to the MACs' (lib/eval/systolic.c): the
 * fill and drain of the array on every fold and the serial preload of a
 * stationary operand; 0 for other levels. x: the counts of m. */
double trim__systolic_extra_cycles(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                                   const trim__activity *x, int l);

/* Bytes per level that cached intermediate activations take while intra
 * workload i of w runs (docs/model.md, "Network evaluation": greedy
 * on-chip placement within TRIM__CACHE_ONCHIP_FRACTION of the buffer). */
#define TRIM__CACHE_ONCHIP_FRACTION 0.5
int trim__eval_reserved(const trim_workloads *w, size_t i, const struct trim_arch *a,
                        int64_t *reserved);

/* Leakage per cycle of level l with `used` of its instances active (the
 * activity's instances[l]): on every instance (libtrim), or under
 * TRIM_COUNT_TIMELOOP (costs[l].count) on the used instances of a storage
 * level (at least 1) and none for the MACs (docs/mapping.md, rule 6); a
 * network leaks on every instance under both. Non-decreasing in `used`. */
double trim__eval_leak_pj(const struct trim_arch *a, const trim__level_cost *costs, int l, int64_t used);

/* The public handle (trim/eval.h): an evaluation with what it read, for
 * its getters (lib/eval/eval.c) and its report (lib/report/eval.c). */
struct trim_eval {
	uint32_t tag; /* TRIM__H_EVAL (util/handle.h): first, checked by every entry point */
	trim__eval e;
	struct trim_arch arch; /* copy; file pointer cleared */
	trim__mapping m;
	trim__intra w;
	trim__level_cost costs[TRIM__MAX_LEVELS]; /* what the evaluation charged */
};

/* JSON object of an evaluation (sorted keys, doubles as %.17g). */
void trim__eval_json(const trim__eval *e, const struct trim_arch *a, const trim__mapping *m,
                     trim__sb *sb);

#endif
