/*
 * One order class of a bypass choice: its tensors looked up with the
 * energy cut, its cycles, then evaluated if it can enter the top k; and the
 * classes grouped by the result's projection, whole groups cut at once.
 */
#include "search_int.h"

/* The cycles of the class whose tensors' entries are vi (lower by at most
 * the rounding of another summation order: times 1 - 1e-9). */
static double class_cycles(const trim__mapspace *s, const factor_bound *fbound, const tensor_count_cache *c,
                           const int32_t *vi)
{
	const int nl = s->a->nlevels;
	double rd[TRIM__MAX_LEVELS] = {0}, wr[TRIM__MAX_LEVELS] = {0};
	for (int t = 0; t < 3; t++)
		if (s->w->t[t].present) {
			const double *wd = c->words + (size_t)vi[t] * 2 * (size_t)nl;
			for (int l = 0; l < nl; l++) {
				rd[l] += wd[2 * l];
				wr[l] += wd[2 * l + 1];
			}
		}
	return trim__words_cycles(s, fbound, rd, wr) * (1 - 1e-9);
}

/* Evaluate order class oc (digits code[]) of plan p under bypass choice b
 * into W->ev from the cached per-tensor counts vi[] (the same numbers as
 * trim__eval_run: its counts are per tensor), orders applied to m. */
static void eval_class(const trim__mapspace *s, const int32_t *vi, const trim__level_cost *costs,
                       int64_t zero_macs, const trim__mapping *m, search_worker *W)
{
	const int nl = s->a->nlevels;
	const tensor_count_cache *c = &W->tensor_counts;
	trim__activity *x = &W->ev.act;
	memset(x, 0, sizeof *x);
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		const int64_t *v = c->val + (size_t)vi[t] * TRIM__NACTIVITY_ROWS * (size_t)nl;
		for (int j = 0; j < TRIM__NACTIVITY_ROWS; j++) {
			int64_t (*dst)[3] = trim__activity_rows(x, j);
			for (int l = 0; l < nl; l++)
				dst[l][t] = v[j * nl + l];
		}
	}
	x->macs = W->common_macs;
	x->steps = W->common_steps;
	x->active_pes = W->common_active_pes;
	memcpy(x->instances, W->common_instances, sizeof x->instances);
	x->zero_macs = zero_macs;
	x->exact = 1; /* every tensor's exact counts of the whole mapping m */
	trim__eval_act(s->w, s->a, costs, m, &W->ev);
}

/* One order class (code[k] per ordered level) of bypass choice b: its
 * tensors looked up tensor by tensor (result first) with the energy cut,
 * then its cycles, then evaluated if it can enter the top k. Returns 0, or
 * -1 with W->err set. */
int trim__class_visit(const trim__mapspace *s, const order_plan *p, const uint64_t *code, uint64_t b,
                      trim__index base, double bound, double cyc_lb, int lbok, int goal,
                      const trim__level_cost *costs, int64_t zero_macs, trim__mapping *m, search_worker *W)
{
	int applied = 0, unsup = 0, cut = 0;
	int32_t vi[3] = {0, 0, 0};
	/* tensor by tensor: its exact energy replaces its order-free
	 * bound; stop as soon as the class cannot make the top k */
	double elo[3] = {0, 0, 0}, en = 0;
	if (cyc_lb > 0)
		for (int t = 0; t < 3; t++)
			if (s->w->t[t].present)
				en += elo[t] = W->fbound.E[t][trim__keep_choice(s, &W->fbound, t, b)];
	for (int ti = 0; ti < 3 && !cut; ti++) {
		const int t = (int[]){2, 0, 1}[ti];
		if (!s->w->t[t].present)
			continue;
		vi[t] = trim__tensor_cache_entry(s, p, code, 0, b, t, m, &applied, costs, zero_macs, W);
		if (vi[t] < 0)
			return -1;
		if (W->tensor_counts.state[vi[t]] == 2) {
			unsup = 1;
			break;
		}
		if (cyc_lb > 0) {
			en += W->tensor_counts.energy[vi[t]] - elo[t];
			double e = (en + W->fbound.mac_pj + W->fbound.leak * cyc_lb) * (1 - 1e-9);
			double lbc = goal == TRIM__GOAL_ENERGY ? e : e * cyc_lb;
			double cur = trim__cut_threshold(W, &W->item, bound);
			cut = trim__cut(W, lbc, cur);
		}
	}
	if (unsup) {
		W->cnt.unsupported++; /* outside the analytic model's scope */
		return 0;
	}
	if (!cut && lbok && W->fbound.fast) {
		/* every tensor known: the class's cycles from its words (the
		 * evaluator's formula, summed in another order) */
		double cyc = class_cycles(s, &W->fbound, &W->tensor_counts, vi);
		double e = (en + W->fbound.mac_pj + W->fbound.leak * cyc) * (1 - 1e-9);
		double lbc = goal == TRIM__GOAL_ENERGY ? e : goal == TRIM__GOAL_DELAY ? cyc : e * cyc;
		double cur = trim__cut_threshold(W, &W->item, bound);
		cut = cyc_lb > 0 || goal == TRIM__GOAL_DELAY ? trim__cut(W, lbc, cur) : 0;
	}
	if (cut) {
		W->cnt.valid--;
		W->cnt.bounded++;
		W->st_cls_cut++;
		return 0;
	}
	if (!applied)
		for (int k = s->nord - 1; k >= 0; k--)
			trim__apply_order(s, p, k, code[k], m);
	eval_class(s, vi, costs, zero_macs, m, W);
	W->cnt.evaluated++;
	trim__index idx = base;
	for (int k = 0; k < s->nord; k++)
		idx = idx * s->nperm + trim__order_code(s, m, s->ord_level[k]);
	double c = trim__goal_cost(&W->ev, goal), c2 = trim__goal_second(&W->ev, goal);
	trim__top_put(&W->item, c, c2, idx, m);
	if (trim__top_first(&W->keep, c, c2, idx))
		W->best_eval = W->ev;
	trim__top_put(&W->keep, c, c2, idx, m);
	return 0;
}

/* The classes of bypass choice b grouped by the result's projection at
 * every ordered level. The result's exact energy of each combination of
 * projections is computed first (every class needs it anyway); a prefix
 * of projections (outer levels first) whose smallest result energy, plus
 * the other tensors' order-free bounds, the MACs and the leakage over the
 * cycle bound, exceeds the k-th best known is skipped with all its
 * classes; the classes of the surviving full projections are visited one
 * by one (trim__class_visit). Energy and EDP goals (cyc_lb > 0). Returns 0, 1 if
 * the grouping does not apply (a projection outside the analytic model,
 * or too many), or -1 with W->err set. */
int trim__visit_by_result(const trim__mapspace *s, const order_plan *p, uint64_t b, trim__index base, double bound,
                          double cyc_lb, int lbok, int goal, const trim__level_cost *costs, int64_t zero_macs,
                          trim__mapping *m, search_worker *W)
{
	enum { T = 2, MAXP = 1 << 16 };
	const int K = s->nord;
	int np[TRIM__MAX_LEVELS];
	uint64_t P = 1, off[TRIM__MAX_LEVELS + 2], tot = 0; /* off[k]: prefix minima of length k */
	for (int k = 0; k < K; k++) {
		np[k] = p->tab[k]->nproj[T];
		P *= (uint64_t)np[k];
		if (P > MAXP)
			return 1;
	}
	for (int k = 0; k <= K; k++) {
		uint64_t n = 1;
		for (int j = 0; j < k; j++)
			n *= (uint64_t)np[j];
		off[k] = tot;
		tot += n;
	}
	if (tot > W->result_energies_cap) {
		double *q = realloc(W->result_energies, tot * sizeof *q);
		if (!q) {
			W->err = TRIM_ENOMEM;
			return -1;
		}
		W->result_energies = q;
		W->result_energies_cap = tot;
	}
	double *mn = W->result_energies;
	/* the result's energy per full projection (length K) */
	for (uint64_t q = 0; q < P; q++) {
		uint64_t code[TRIM__MAX_LEVELS], r = q;
		for (int k = K - 1; k >= 0; k--) {
			const order_class_table *tb = p->tab[k];
			int u = (int)(r % (uint64_t)np[k]);
			r /= (uint64_t)np[k];
			code[k] = tb->proj_classes[T][tb->proj_start[T][u]];
		}
		int applied = 0;
		int32_t vi = trim__tensor_cache_entry(s, p, code, 0, b, T, m, &applied, costs, zero_macs, W);
		if (vi < 0)
			return -1;
		if (W->tensor_counts.state[vi] == 2)
			return 1;
		mn[off[K] + q] = W->tensor_counts.energy[vi];
	}
	for (int k = K - 1; k >= 0; k--) /* prefix minima, longest first */
		for (uint64_t q = 0; q < off[k + 1] - off[k]; q++) {
			double v = HUGE_VAL;
			for (int u = 0; u < np[k]; u++)
				if (mn[off[k + 1] + q * (uint64_t)np[k] + (uint64_t)u] < v)
					v = mn[off[k + 1] + q * (uint64_t)np[k] + (uint64_t)u];
			mn[off[k] + q] = v;
		}
	double other = W->fbound.mac_pj;
	for (int t = 0; t < 3; t++)
		if (t != T && s->w->t[t].present)
			other += W->fbound.E[t][trim__keep_choice(s, &W->fbound, t, b)];
	/* depth-first over the prefixes: u[k] the projection at level k */
	int u[TRIM__MAX_LEVELS], k = 0;
	uint64_t pre[TRIM__MAX_LEVELS + 1];
	pre[0] = 0;
	u[0] = -1;
	while (k >= 0) {
		if (++u[k] == np[k]) {
			k--;
			continue;
		}
		const uint64_t q = pre[k] * (uint64_t)np[k] + (uint64_t)u[k];
		double e = (mn[off[k + 1] + q] + other + W->fbound.leak * cyc_lb) * (1 - 1e-9);
		double lbc = goal == TRIM__GOAL_ENERGY ? e : e * cyc_lb;
		double cur = trim__cut_threshold(W, &W->item, bound);
		if (trim__cut(W, lbc, cur)) { /* every class under this prefix */
			uint64_t cnt = 1;
			for (int j = 0; j <= k; j++) {
				const order_class_table *tb = p->tab[j];
				cnt *= tb->proj_start[T][u[j] + 1] - tb->proj_start[T][u[j]];
			}
			for (int j = k + 1; j < K; j++)
				cnt *= (uint64_t)p->tab[j]->n;
			W->cnt.valid -= cnt;
			W->cnt.bounded += cnt;
			W->st_cls_cut += cnt;
			continue;
		}
		if (k + 1 < K) {
			pre[k + 1] = q;
			u[++k] = -1;
			continue;
		}
		/* a full projection: its classes, every combination of one class
		 * per level from its groups (an odometer over the positions) */
		uint32_t pos[TRIM__MAX_LEVELS];
		for (int j = 0; j < K; j++)
			pos[j] = p->tab[j]->proj_start[T][u[j]];
		for (;;) {
			uint64_t code[TRIM__MAX_LEVELS];
			for (int j = 0; j < K; j++)
				code[j] = p->tab[j]->proj_classes[T][pos[j]];
			if (trim__class_visit(s, p, code, b, base, bound, cyc_lb, lbok, goal, costs, zero_macs, m, W))
				return -1;
			int j = K - 1;
			while (j >= 0 && ++pos[j] == p->tab[j]->proj_start[T][u[j] + 1]) {
				pos[j] = p->tab[j]->proj_start[T][u[j]];
				j--;
			}
			if (j < 0)
				break;
		}
	}
	return 0;
}
