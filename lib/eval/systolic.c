/*
 * The pipeline of a systolic array (docs/model.md, "Evaluator", systolic
 * arrays): the cycles a `network: systolic` level adds to the MACs' own,
 * from the mapping and the counts. Every fold (a new tile of a tensor that
 * stays in the PEs while the others stream: the weights of ws, the inputs
 * of is, the outputs of os; without one, every iteration of the temporal
 * loops above the array) fills and drains the array's pipeline, X + Y - 2
 * cycles, and a stationary operand held below the array is
 * preloaded serially: it shifts in from the top edge down the columns,
 * Y cycles per word a PE holds (X along a 1-D array), in every fold
 * that brings it a new tile. A double-buffered
 * holder loads the next fold's words while the current fold runs, so only
 * the first preload and the part of a preload longer than a fold show.
 * SCALE-Sim v2 takes folds x (T + X + Y - 2), plus Y per fold in ws and
 * is (docs/validation.md, "Systolic arrays").
 */
#include "eval_int.h"

/* Product of the temporal bounds of the storage levels in [from, to). */
static double temporal_product(const struct trim_arch *a, const trim__mapping *m, int from, int to)
{
	double p = 1;
	for (int k = from; k < to; k++)
		if (a->lv[k].type == TRIM__LVL_STORAGE)
			for (int d = 0; d < TRIM_NDIMS; d++)
				p *= (double)(m->f[k][d] > 0 ? m->f[k][d] : 1);
	return p;
}

/* Whether dim d indexes tensor t (a flattened group's head: one of its dims). */
static int relevant(const trim__intra *w, const trim__mapping *m, int t, int d)
{
	const int g = m->ngroups ? m->group_of[d] - 1 : -1;
	if (g < 0)
		return w->t[t].relevant >> d & 1;
	for (int i = 0; i < m->group_nd[g]; i++)
		if (w->t[t].relevant >> m->group_dim[g][i] & 1)
			return 1;
	return 0;
}

/* Folds in which a new tile of tensor t reaches the array: the product of
 * the fold loops (the temporal loops above level l, outermost first) down
 * to the innermost one that indexes t; the loops inside it reuse the tile. */
static double tile_loads(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m, int l, int t)
{
	double loads = 1, run = 1;
	for (int k = 0; k < l; k++) {
		if (a->lv[k].type != TRIM__LVL_STORAGE)
			continue;
		for (int i = 0; i < TRIM_NDIMS; i++) {
			int d = m->order[k][i];
			if (m->f[k][d] <= 1)
				continue;
			run *= (double)m->f[k][d];
			if (relevant(w, m, t, d))
				loads = run;
		}
	}
	return loads;
}

double trim__systolic_extra_cycles(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                                   const trim__activity *x, int l)
{
	const trim__level *L = &a->lv[l];
	if (L->type != TRIM__LVL_SPATIAL || L->net != TRIM__NET_SYSTOLIC)
		return 0;
	const double above = temporal_product(a, m, 0, l);
	const double steps = above * temporal_product(a, m, l + 1, a->nlevels);
	const double skew = (double)(L->fanout_x - 1) + (double)(L->fanout_y - 1);
	const double shift = L->fanout_y > 1 ? (double)L->fanout_y : (double)L->fanout_x;
	/* the tensors that stay in the PEs: held below the array and moved in
	 * (operands: filled; results: drained) at most one tile per new tile
	 * (a streamed tensor, refilled within a fold, flows with the stream).
	 * A fold ends when one of them changes; the operands among them are
	 * preloaded */
	double folds = 0, words = 0;
	int double_buffered = 1, any = 0;
	for (int t = 0; t < 3; t++) {
		if (!w->t[t].present)
			continue;
		int k = l + 1;
		while (k < a->nlevels && !(a->lv[k].type == TRIM__LVL_STORAGE && m->keep[k][t]))
			k++;
		if (k >= a->nlevels || x->instances[k] <= 0)
			continue;
		const double moved = (double)(t == 2 ? x->drains[k][t] : x->fills[k][t]) / (double)x->instances[k];
		const double loads = tile_loads(w, a, m, l, t);
		if (moved <= 0 || moved > loads * (double)x->tile[k][t])
			continue;
		if (loads > folds)
			folds = loads;
		if (t == 2)
			continue;
		/* a fold's preload takes as long in a partly used array */
		words += (double)x->tile[k][t] * loads;
		double_buffered &= a->lv[k].double_buffer;
		any = 1;
	}
	if (folds <= 0) /* nothing stays: every iteration above the array is a fold */
		folds = above;
	const double preload = words * shift;
	if (!any || preload <= 0)
		return folds * skew;
	if (!double_buffered)
		return folds * skew + preload;
	const double fold_preload = preload / folds, per_fold = steps / folds;
	const double exposed = fold_preload > per_fold ? fold_preload - per_fold : 0;
	return folds * skew + fold_preload + (folds - 1) * exposed;
}
