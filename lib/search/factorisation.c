/*
 * Everything below one factorisation: its bounds, then per bypass choice
 * the fit, the utilisation constraints, the bypass bound and the order
 * classes.
 */
#include "search_int.h"

/* Bytes of every tensor's tile at every bounded storage level (doubled
 * with double buffering), as trim__mapping_check_reserved counts them. */
static void tile_bytes(const trim__mapspace *s, const trim__mapping *m, int64_t (*tb)[3])
{
	const struct trim_arch *a = s->a;
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		if (L->type != TRIM__LVL_STORAGE || L->capacity_bytes <= 0)
			continue;
		for (int t = 0; t < 3; t++)
			tb[l][t] = s->w->t[t].present ? trim__tile_bytes_at(a, l, trim__mapping_tile_elems(m, s->w, l, t)) : 0;
	}
}

/* trim__mapping_check_reserved for a mapping of the space whose spatial
 * factors fit (its structure is then valid by construction): the kept
 * tiles fit every level (with the cached activations); 1 if so. */
static int tiles_fit(const trim__mapspace *s, int64_t (*tb)[3], const trim__mapping *m)
{
	const struct trim_arch *a = s->a;
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		if (L->type != TRIM__LVL_STORAGE)
			continue;
		int64_t bytes[3];
		for (int t = 0; t < 3; t++)
			bytes[t] = m->keep[l][t] && s->w->t[t].present ? tb[l][t] : 0;
		if (!trim__tiles_fit_level(s, l, bytes))
			return 0;
	}
	return 1;
}

/* Exact ties (docs/model.md, "Bounds"): 1 if no mapping of bypass choice b
 * of factorisation fc beats, on (cost, second figure, index), a real mapping
 * costing exactly cur (the factorisation's best so far, or the one the tree
 * handed down: W->thr_idx, W->thr_sec): each costs at least cur, and where
 * the bound is cur, its second figure's bound is above that mapping's, or
 * equal with every index of the choice above that mapping's. The bounds are
 * the evaluator's own formula on count-wise lower bounds
 * (trim__factor_bound_cost): the same operations in the same order on
 * smaller or equal counts, each monotone in IEEE arithmetic, so no rounding
 * margin is needed and a tie is seen as one. */
static int tie_cut(const trim__mapspace *s, const trim__level_cost *costs, int goal, int64_t zero_macs,
                   const trim__mapping *m, trim__index fc, uint64_t b, const int *ch, double cur, double bound,
                   search_worker *W)
{
	if (W->cut_scale != 1 || s->topk > 1)
		return 0;
	int on = W->thr_idx_on && bound == cur;
	trim__index ref = W->thr_idx;
	double sec = W->thr_sec;
	if (W->item.n == 1 && W->item.cost[0] == cur &&
	    (!on || trim__better(cur, W->item.sec[0], W->item.idx[0], cur, sec, ref, 1))) {
		on = 1;
		ref = W->item.idx[0];
		sec = W->item.sec[0];
	}
	if (!on)
		return 0;
	trim__index lo = (fc << s->nbyp) | b; /* the smallest index of the choice: order codes 0 */
	for (int k = 0; k < s->nord; k++)
		lo *= (trim__index)s->nperm;
	double lbe;
	return trim__factor_bound_cost(s, &W->fbound, ch, zero_macs, costs, m, goal, &W->bound_eval, &lbe) == 0 &&
	       trim__tie_loses(lbe, trim__goal_second(&W->bound_eval, goal), cur, sec, lo > ref);
}

/* 1 if the factorisation's order-free bounds of tensors torder[0..k] (the
 * fast figures) and the node bound's of the others (W->leaf_choices: their
 * cheapest keep choice), with the MACs and the leakage over the compute
 * cycles, already exceed `bound` (energy and EDP goals). */
static int partial_cut(const trim__mapspace *s, const int *torder, int k, int goal, double bound, search_worker *W)
{
	if (goal == TRIM__GOAL_DELAY)
		return 0;
	const factor_bound *fb = &W->fbound;
	const node_choices *nc = W->leaf_choices;
	double e = fb->mac_pj + fb->leak * fb->comp_cyc;
	for (int j = 0; j < 3; j++) {
		const int t = torder[j];
		if (!s->w->t[t].present)
			continue;
		double emin = HUGE_VAL;
		if (j <= k) {
			for (int c = 0; c < fb->nch[t]; c++)
				if (fb->ok[t][c] && fb->E[t][c] < emin)
					emin = fb->E[t][c];
		} else {
			for (int c = 0; c < nc->nch[t]; c++)
				if (nc->E[t][c] < emin)
					emin = nc->E[t][c];
			if (nc->nch[t] == 0)
				emin = 0;
		}
		if (emin == HUGE_VAL)
			return 0; /* no in-scope choice: the caller's path decides */
		e += emin;
	}
	double v = goal == TRIM__GOAL_ENERGY ? e : e * fb->comp_cyc;
	return trim__cut(W, v * (1 - 1e-9), bound);
}

/* The bound of the factorisation m (every bypass choice and order): its
 * tensors' figures tensor by tensor (input, output, weight), and whether
 * they cut it whole (*cut_all). Returns 1 if the figures were computed
 * (lbok), 0 if not, -1 if cut under the tree (nothing more to do). */
static int factorisation_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, double bound,
                               int64_t zero_macs, trim__mapping *m, search_worker *W, int *cut_all)
{
	int lbok = 1;
	int early = 0;
	/* tensor by tensor (input, output, weight): once one is done, the
	 * others' node-bound figures may already cut the factorisation */
	static const int torder[3] = {0, 2, 1};
	const int one_pass = !W->leaf_choices; /* no node figures: all tensors at once */
	for (int k = 0; k < (one_pass ? 1 : 3) && lbok && !early; k++) {
		const unsigned tm = one_pass ? 7u : 1u << torder[k];
		if (!one_pass && !s->w->t[torder[k]].present)
			continue;
		lbok = trim__factor_bound_compute(s, &W->fbound, m, &W->ws.act, tm) == 0;
		if (!lbok)
			break;
		trim__factor_bound_prepare_fast(s, &W->fbound, zero_macs, costs, m, &W->bound_eval, tm);
		if (W->fbound.fast)
			trim__factor_bound_tighten(s, costs, goal, zero_macs, m, &W->bound_eval, W->leaf_choices,
			                           &W->fbound, tm, W->stationary);
		if (!one_pass && k < 2 && W->fbound.fast && partial_cut(s, torder, k, goal, bound, W))
			early = 1;
	}
	double lb;
	if (early) {
		W->st_leaves_cut++;
		*cut_all = 1;
		if (W->in_tree)
			return -1;
	} else if (lbok &&
	    (W->fbound.fast ? trim__factor_bound_fast(s, &W->fbound, NULL, goal, &lb)
	                    : trim__factor_bound_cost(s, &W->fbound, NULL, zero_macs, costs, m, goal, &W->bound_eval,
	                                              &lb)) == 0 &&
	    trim__cut(W, lb, bound)) {
		/* no bypass choice and no order can reach the bound */
		W->st_leaves_cut++;
		*cut_all = 1;
		/* under the tree, what is cut is counted from the distinct
		 * total (bounded += distinct - generated): nothing to count */
		if (W->in_tree)
			return -1;
	}
	return lbok;
}

/* Everything below one factorisation combination. `bound`: a cost that k
 * real mappings reach (a mapping costlier cannot be among the k best). The
 * work depends only on (ac, bound): deterministic for any thread count. */
void trim__search_factorisation(const trim__mapspace *s, const trim__level_cost *costs, int goal, trim__index fc,
                                double bound, int64_t zero_macs, search_worker *W)
{
	const uint64_t nb = (uint64_t)1 << s->nbyp;
	const int nomit = s->nobound;
	trim__mapping *m = &W->m;
	trim__space_mapping_init(s, m);
	int fits = trim__set_factors(s, fc, m);
	int64_t tbytes[TRIM__MAX_LEVELS][3];
	if (fits)
		tile_bytes(s, m, tbytes);
	W->item.n = 0;
	W->st_leaves++;
	if (trim__tensor_cache_reset(s, &W->tensor_counts)) {
		W->err = TRIM_ENOMEM;
		return;
	}
	int lbok = 0, cut_all = 0;
	if (fits && !nomit) {
		lbok = factorisation_bound(s, costs, goal, bound, zero_macs, m, W, &cut_all);
		if (lbok < 0)
			return;
	}
	for (uint64_t b = 0; b < nb; b++) {
		if (!trim__bypass_allowed(s, b))
			continue;
		order_plan p;
		trim__set_keeps(s, b, m);
		if (trim__plan_orders(s, m, &W->classes, &p)) {
			W->err = TRIM_ENOMEM;
			return;
		}
		W->cnt.generated += p.total;
		if (cut_all) { /* counted as bounded, fit or not */
			W->cnt.bounded += p.total;
			continue;
		}
		if (!fits || !tiles_fit(s, tbytes, m))
			continue;
		if (s->min_pe_util > 0 || s->min_rf_util > 0) {
			double pe = trim__mapspace_pe_util(s, m), rf = -1;
			if (pe > W->cnt.max_pe_util)
				W->cnt.max_pe_util = pe;
			if (pe >= s->min_pe_util) {
				rf = trim__mapspace_rf_util(s, m);
				if (rf > W->cnt.max_rf_util)
					W->cnt.max_rf_util = rf;
			}
			if (pe < s->min_pe_util || (s->min_rf_util > 0 && rf < s->min_rf_util)) {
				W->cnt.valid += p.total;
				W->cnt.pruned += p.total;
				continue;
			}
		}
		int scope = 1;
		if (lbok) {
			int ch[3] = {0, 0, 0};
			for (int t = 0; t < 3; t++)
				if (s->w->t[t].present) {
					ch[t] = trim__keep_choice(s, &W->fbound, t, b);
					scope &= W->fbound.ok[t][ch[t]];
				}
			double lb, cur = trim__cut_threshold(W, &W->item, bound);
			int lbset = scope && (W->fbound.fast ? trim__factor_bound_fast(s, &W->fbound, ch, goal, &lb)
			                                     : trim__factor_bound_cost(s, &W->fbound, ch, zero_macs, costs, m,
			                                                               goal, &W->bound_eval, &lb)) == 0;
			if (lbset && trim__cut(W, lb, cur)) {
				W->cnt.bounded += p.total;
				W->st_byp_cut++;
				continue;
			}
			if (lbset && lb * (1 + 4e-9) >= cur && tie_cut(s, costs, goal, zero_macs, m, fc, b, ch, cur, bound, W)) {
				W->cnt.bounded += p.total;
				W->st_byp_cut++;
				W->st_tie_cut++;
				W->cnt.tie_cuts++;
				continue;
			}
		}
		/* valid = evaluated + unsupported + pruned: what bounds skip is not
		 * counted as valid */
		W->cnt.valid += p.total;
		if (!scope) { /* every order is outside the analytic model's scope */
			W->cnt.unsupported += p.total;
			continue;
		}
		const trim__index base = (fc << s->nbyp) | b; /* index without the orders */

		if (trim__tensor_cache_plan(s, &p, &W->tensor_counts)) {
			W->err = TRIM_ENOMEM;
			return;
		}
		/* a class's energy is at least the sum of its tensors' dynamic
		 * energies plus the MACs and the leakage over the bypass choice's
		 * cycle bound: skip it (strictly) above the k-th best known */
		double cyc_lb = 0;
		if (lbok && W->fbound.fast && goal != TRIM__GOAL_DELAY)
			trim__factor_bound_cycles(s, &W->fbound, b, &cyc_lb);
		if (cyc_lb > 0 && s->w->t[2].present && s->nord > 0) {
			int rc = trim__visit_by_result(s, &p, b, base, bound, cyc_lb, lbok, goal, costs, zero_macs, m, W);
			if (rc < 0)
				return;
			if (rc == 0)
				continue;
		}
		for (uint64_t oc = 0; oc < p.total; oc++) {
			uint64_t code[TRIM__MAX_LEVELS], r = oc;
			for (int k = s->nord - 1; k >= 0; k--) {
				code[k] = r % p.radix[k];
				r /= p.radix[k];
			}
			if (trim__class_visit(s, &p, code, b, base, bound, cyc_lb, lbok, goal, costs, zero_macs, m, W))
				return;
		}
	}
}
