/*
 * Per factorisation: order-free lower bounds on every tensor's counts for
 * every choice of its keep bits, and the cost bounds of a factorisation and
 * of each bypass choice from them (docs/model.md, "Bounds").
 */
#include <stdlib.h>

#include "search_int.h"

/* Returns 0, or TRIM_ENOMEM (fbound is then freed by
 * trim__factor_bound_free, as after any plan). */
int trim__factor_bound_plan(const trim__mapspace *s, factor_bound *fbound)
{
	for (int t = 0; t < 3; t++) {
		fbound->nbit[t] = 0;
		for (int j = 0; j < s->nbyp; j++)
			if (s->byp_slot[j] == t && fbound->nbit[t] < 16)
				fbound->bit[t][fbound->nbit[t]++] = j;
		fbound->nch[t] = s->w->t[t].present ? 1 << fbound->nbit[t] : 0;
		const size_t n = fbound->nch[t] ? (size_t)fbound->nch[t] : 1;
		fbound->lo[t] = calloc(n, sizeof *fbound->lo[t]);
		fbound->ok[t] = calloc(n, sizeof *fbound->ok[t]);
		if (!fbound->lo[t] || !fbound->ok[t])
			return TRIM_ENOMEM;
	}
	return 0;
}

void trim__factor_bound_free(factor_bound *fbound)
{
	for (int t = 0; t < 3; t++) {
		free(fbound->lo[t]);
		free(fbound->ok[t]);
		fbound->lo[t] = NULL;
		fbound->ok[t] = NULL;
	}
}

/* Fill fbound for the factors in m (keeps of m are overwritten). Returns 0, or
 * an error that is not a scope error (then no bound is used). */
int trim__factor_bound_compute(const trim__mapspace *s, factor_bound *fbound, trim__mapping *m, trim__act_ws *ws,
                               unsigned tmask)
{
	for (int t = 0; t < 3; t++)
		for (int c = 0; c < fbound->nch[t] && (tmask >> t & 1); c++) {
			for (int i = 0; i < fbound->nbit[t]; i++) {
				int j = fbound->bit[t][i];
				m->keep[s->byp_level[j]][t] = (c >> (fbound->nbit[t] - 1 - i)) & 1;
			}
			int rc = trim__activity_lower(s->w, s->a, m, 1u << t, ws, &fbound->lo[t][c]);
			if (rc == TRIM_EINVAL) {
				fbound->ok[t][c] = 0;
				continue;
			}
			if (rc)
				return rc;
			fbound->ok[t][c] = 1;
		}
	return 0;
}

/* The per-choice figures of fbound->fast from fbound->lo (after trim__factor_bound_compute): the
 * evaluator's formulas (trim__eval_act) split by tensor. ev: scratch. */
void trim__factor_bound_prepare_fast(const trim__mapspace *s, factor_bound *fbound, int64_t zero_macs,
                                     const trim__level_cost *costs, const trim__mapping *m, trim__eval *ev,
                                     unsigned tmask)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	fbound->fast = 1;
	for (int t = 0; t < 3; t++)
		fbound->fast &= fbound->nch[t] <= TRIM__FAST_CHOICES;
	if (!fbound->fast)
		return;
	int first = 1;
	for (int t = 0; t < 3; t++)
		for (int c = 0; c < fbound->nch[t] && (tmask >> t & 1); c++) {
			if (!fbound->ok[t][c])
				continue;
			const trim__activity *y = &fbound->lo[t][c];
			ev->act = *y;
			ev->act.zero_macs = zero_macs;
			trim__eval_act(s->w, a, costs, m, ev);
			double e = 0;
			for (int l = 0; l < nl; l++) {
				const trim__level *L = &a->lv[l];
				fbound->RD[t][c][l] = fbound->WR[t][c][l] = 0;
				if (L->type == TRIM__LVL_STORAGE) {
					e += ev->dyn_pj[l][t];
					fbound->RD[t][c][l] = (double)(y->reads[l][t] + trim__drain_bw(&costs[l], y->drains[l][t]));
					fbound->WR[t][c][l] = (double)(y->fills[l][t] + y->updates[l][t]);
				} else if (L->type == TRIM__LVL_SPATIAL) {
					e += ev->dyn_pj[l][t];
					fbound->RD[t][c][l] = (double)(y->down_words[l][t] + y->up_out[l][t]);
				}
			}
			fbound->E[t][c] = e;
			if (first) {
				first = 0;
				fbound->mac_pj = ev->mac_pj;
				fbound->comp_cyc = ev->level_cycles[nl - 1];
				fbound->leak = 0;
				for (int l = 0; l < nl; l++) {
					fbound->leak += trim__eval_leak_pj(a, costs, l, y->instances[l]);
					fbound->inst[l] = (double)y->instances[l];
				}
			}
		}
}

/* The evaluator's cycles (trim__eval_act) from the words read and written
 * per storage level and carried per spatial level (rd), with fbound's compute
 * cycles and active instances. */
double trim__words_cycles(const trim__mapspace *s, const factor_bound *fbound, const double *rd, const double *wr)
{
	const struct trim_arch *a = s->a;
	double y = fbound->comp_cyc;
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		double lc = 0;
		if (L->type == TRIM__LVL_STORAGE) {
			double rc_ = L->read_bw > 0 ? rd[l] / (L->read_bw * fbound->inst[l]) : 0;
			double wc = L->write_bw > 0 ? wr[l] / (L->write_bw * fbound->inst[l]) : 0;
			lc = rc_ > wc ? rc_ : wc;
		} else if (L->type == TRIM__LVL_SPATIAL) {
			int64_t bits = a->word_bits > 0 ? a->word_bits : 16;
			double bw = L->link_bits > 0 ? (double)L->link_bits / (double)bits : 0;
			lc = bw > 0 && fbound->inst[l] > 0 ? rd[l] / (bw * fbound->inst[l]) : 0;
		}
		if (lc > y)
			y = lc;
	}
	return y;
}

/* trim__factor_bound_cost from the per-choice figures (fbound->fast): the same bound up to the
 * order of the sums (hence the margin). */
int trim__factor_bound_fast(const trim__mapspace *s, const factor_bound *fbound, const int *ch, int goal, double *lb)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	double rd[TRIM__MAX_LEVELS] = {0}, wr[TRIM__MAX_LEVELS] = {0}, e = 0;
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		int have = 0;
		double emin = 0, r[TRIM__MAX_LEVELS], q[TRIM__MAX_LEVELS];
		for (int c = 0; c < fbound->nch[t]; c++) {
			if ((ch && c != ch[t]) || !fbound->ok[t][c])
				continue;
			for (int l = 0; l < nl; l++) {
				if (!have || fbound->RD[t][c][l] < r[l])
					r[l] = fbound->RD[t][c][l];
				if (!have || fbound->WR[t][c][l] < q[l])
					q[l] = fbound->WR[t][c][l];
			}
			if (!have || fbound->E[t][c] < emin)
				emin = fbound->E[t][c];
			have = 1;
		}
		if (!have)
			return 1;
		for (int l = 0; l < nl; l++) {
			rd[l] += r[l];
			wr[l] += q[l];
		}
		e += emin;
	}
	double cyc = trim__words_cycles(s, fbound, rd, wr);
	double energy = e + fbound->mac_pj + fbound->leak * cyc;
	double v = goal == TRIM__GOAL_ENERGY ? energy : goal == TRIM__GOAL_DELAY ? cyc : energy * cyc;
	*lb = v * (1 - 1e-9);
	return 0;
}

/* The cycle part of trim__factor_bound_fast for bypass mask b. */
void trim__factor_bound_cycles(const trim__mapspace *s, const factor_bound *fbound, uint64_t b, double *cyc)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	double rd[TRIM__MAX_LEVELS] = {0}, wr[TRIM__MAX_LEVELS] = {0};
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		int c = trim__keep_choice(s, fbound, t, b);
		for (int l = 0; l < nl; l++) {
			rd[l] += fbound->RD[t][c][l];
			wr[l] += fbound->WR[t][c][l];
		}
	}
	*cyc = trim__words_cycles(s, fbound, rd, wr) * (1 - 1e-9);
}

/* Cost lower bound from per-tensor count bounds: choice ch[t] per tensor, or
 * (ch NULL) the count-wise minimum over every in-scope choice. Returns
 * 0 with *lb set, or 1 if some tensor has no in-scope choice. */
int trim__factor_bound_cost(const trim__mapspace *s, const factor_bound *fbound, const int *ch, int64_t zero_macs,
                            const trim__level_cost *costs, const trim__mapping *m, int goal, trim__eval *ev,
                            double *lb)
{
	/* only the rows of the architecture's levels are written (the others
	 * stay 0 from the search_worker's calloc and are not read) */
	trim__activity *x = &ev->act;
	const int nl = m->nlevels;
	int first = 1;
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present) {
			for (int i = 0; i < TRIM__NACTIVITY_ROWS; i++) {
				int64_t (*dst)[3] = trim__activity_rows(x, i);
				for (int l = 0; l < nl; l++)
					dst[l][t] = 0;
			}
			continue;
		}
		int have = 0;
		for (int c = 0; c < fbound->nch[t]; c++) {
			if ((ch && c != ch[t]) || !fbound->ok[t][c])
				continue;
			const trim__activity *y = &fbound->lo[t][c];
			if (first) { /* macs, steps, instances: the same for every tensor */
				x->macs = y->macs;
				x->zero_macs = y->zero_macs;
				x->steps = y->steps;
				x->active_pes = y->active_pes;
				memcpy(x->instances, y->instances, (size_t)nl * sizeof *x->instances);
				first = 0;
			}
			for (int i = 0; i < TRIM__NACTIVITY_ROWS; i++) {
				int64_t (*dst)[3] = trim__activity_rows(x, i);
				int64_t (*src)[3] = trim__activity_rows((trim__activity *)y, i);
				for (int l = 0; l < nl; l++)
					if (!have || src[l][t] < dst[l][t])
						dst[l][t] = src[l][t];
			}
			have = 1;
		}
		if (!have)
			return 1;
	}
	if (first)
		return 1;
	x->zero_macs = zero_macs;
	x->exact = 0; /* the fewest counts of several choices */
	trim__eval_act(s->w, s->a, costs, m, ev);
	*lb = trim__goal_cost(ev, goal);
	return 0;
}

/* A factorisation's per-(tensor, keep choice) energy bounds (trim__factor_bound_prepare_fast)
 * raised to the node bound's of the same tensor and choice where that is
 * higher (both are lower bounds of the same energy, for every order): the
 * node bound sees the per-instance compulsory traffic and refills, the
 * order-free counts see the stationarity. */
void trim__factor_bound_tighten(const trim__mapspace *s, const trim__level_cost *costs, int goal, int64_t zero_macs,
                                trim__mapping *m, trim__eval *ev, const node_choices *have, factor_bound *fbound,
                                unsigned tmask, stationary_workspace *sw)
{
	node_choices own;
	const node_choices *nc = have;
	if (!nc) {
		double lb;
		trim__node_bound(s, costs, goal, s->nslots - 1, zero_macs, m, ev, &lb, &own, sw);
		nc = &own;
	}
	for (int t = 0; t < 3; t++)
		for (int c = 0; c < fbound->nch[t] && nc->nch[t] > 0 && (tmask >> t & 1); c++) {
			unsigned km = 1; /* the outermost level holds every tensor */
			for (int i = 0; i < fbound->nbit[t]; i++)
				if (c >> (fbound->nbit[t] - 1 - i) & 1)
					km |= 1u << s->byp_level[fbound->bit[t][i]];
			for (int j = 0; j < nc->nch[t]; j++)
				if (nc->K[t][j] == km) {
					double e = nc->E[t][j] * (1 - 1e-12);
					if (e > fbound->E[t][c])
						fbound->E[t][c] = e;
					break;
				}
		}
}
