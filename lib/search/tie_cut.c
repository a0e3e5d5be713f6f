/*
 * Exact ties at a node of the factorisation tree (docs/model.md, "Bounds"):
 * the node bound's counts of every keep combination evaluated by the
 * evaluator's own formula, so that a bound equal to the best cost needs no
 * rounding margin; a tie on the cost is then decided by the second figure
 * (trim__goal_second) the same evaluation bounds, and by the index last.
 */
#include "search_int.h"

/* The node's counts of keep combination cc on the count-wise minima in
 * base (what the choice does not set: the cycles' words). */
static void combination_counts(const trim__mapspace *s, const node_counts *nc, const int *nch, const int *cc,
                               const trim__activity *base, trim__activity *x)
{
	const struct trim_arch *a = s->a;
	*x = *base;
	for (int t = 0; t < 3; t++) {
		if (!nch[t])
			continue;
		const int c = cc[t], res = t == 2;
		for (int l = 0; l < a->nlevels; l++) {
			const trim__level *L = &a->lv[l];
			if (L->type == TRIM__LVL_STORAGE) {
				if (res) {
					x->updates[l][t] = nc->a[t][c][l];
					x->drains[l][t] = nc->b[t][c][l];
					x->reads[l][t] = nc->r[t][c][l];
				} else {
					x->reads[l][t] = nc->a[t][c][l];
					x->fills[l][t] = nc->b[t][c][l];
				}
			} else if (L->type == TRIM__LVL_SPATIAL) {
				const int64_t nw = nc->net[t][c][l], dw = nc->dw[t][c][l];
				if (res) {
					/* a systolic array's read-backs down, and its partial
					 * sums up at avg hops where they are drained: as
					 * unicast words, the same energy (systolic_bound.c) */
					const int64_t rdown = nc->rdown[t][c][l];
					x->up_words[l][t] = nw;
					x->up_out[l][t] = dw;
					x->down_words[l][t] = x->down_dests[l][t] = rdown;
					x->unicast[l][t] = rdown + (nc->avg[t][l] ? nw : 0);
				} else if (L->net == TRIM__NET_BUS) {
					x->down_words[l][t] = nw > dw ? nw : dw;
				} else {
					x->down_dests[l][t] = nw;
					x->down_words[l][t] = dw;
					if (nc->avg[t][l]) /* unicast on a systolic array (systolic_bound.c) */
						x->unicast[l][t] = nw;
				}
			}
		}
	}
}

enum { TIE_MAX_COMBINATIONS = 4096 };

int trim__node_tie_cut(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth, int64_t zero_macs,
                       trim__mapping *m, trim__eval *ev, double cur, double sec, int idx_above, node_counts *nc,
                       stationary_workspace *sw)
{
	node_choices ch;
	double lb;
	trim__node_bound_counts(s, costs, goal, depth, zero_macs, m, ev, &lb, &ch, nc, sw);
	if (lb == HUGE_VAL)
		return 1; /* no valid mapping below */
	if (!nc->complete)
		return 0;
	if (costs[0].count == TRIM_COUNT_TIMELOOP) {
		/* Timeloop's counting charges leakage on the used instances
		 * (docs/mapping.md, rule 6), which the evaluations below would
		 * overstate until the spatial levels are fixed: no tie test before */
		node_frame f;
		if (trim__node_frame(s, costs, depth, zero_macs, m, &f) != 0 || !f.allsp)
			return 0;
	}
	const int n0 = ch.nch[0] ? ch.nch[0] : 1, n1 = ch.nch[1] ? ch.nch[1] : 1, n2 = ch.nch[2] ? ch.nch[2] : 1;
	if (goal != TRIM__GOAL_ENERGY && n0 * n1 * n2 > TIE_MAX_COMBINATIONS)
		return 0;
	/* the node bound's own figures: MACs and the leakage over its cycles
	 * (a bound for every combination) */
	double fixed = ev->mac_pj;
	for (int l = 0; l < s->a->nlevels; l++)
		fixed += ev->static_pj[l];
	trim__activity base = ev->act;
	const int64_t *tbytes[3] = {nc->tbytes[0], nc->tbytes[1], nc->tbytes[2]};
	const unsigned *K[3] = {ch.K[0], ch.K[1], ch.K[2]};
	for (int c0 = 0; c0 < n0; c0++)
		for (int c1 = 0; c1 < n1; c1++)
			for (int c2 = 0; c2 < n2; c2++) {
				const int cc[3] = {c0, c1, c2};
				if (!trim__choices_fit(s, nc->extk, tbytes, K, ch.nch, cc))
					continue; /* no valid mapping with these choices */
				if (goal == TRIM__GOAL_ENERGY) {
					/* above cur by far more than any rounding: no tie */
					double e = fixed;
					for (int t = 0; t < 3; t++)
						if (ch.nch[t])
							e += ch.E[t][cc[t]];
					if (e * (1 - 1e-9) > cur)
						continue;
				}
				combination_counts(s, nc, ch.nch, cc, &base, &ev->act);
				trim__eval_act(s->w, s->a, costs, m, ev);
				/* both figures of the evaluation bound every completion's
				 * with these choices */
				if (!trim__tie_loses(trim__goal_cost(ev, goal), trim__goal_second(ev, goal), cur, sec, idx_above))
					return 0;
			}
	return 1;
}
