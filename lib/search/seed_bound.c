/*
 * A first bound before the search: the k-th best cost of a few real
 * mappings (a sample of factorisations with the smallest bounds, each with
 * a stationary order per tensor).
 */
#include "search_int.h"

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* A t-stationary order at every storage level: the dims > 1 relevant to t
 * outermost, the others inside (then the canonical form). */
static int stationary_orders(const trim__mapspace *s, trim__mapping *m, int t, order_class_cache *c)
{
	unsigned rel = s->w->t[t].relevant;
	for (int k = 0; k < s->nord; k++) {
		int l = s->ord_level[k], o[TRIM_NDIMS], n = 0;
		for (int pass = 0; pass < 3; pass++)
			for (int d = 0; d < TRIM_NDIMS; d++) {
				int big = m->f[l][d] > 1, r = rel >> d & 1;
				if ((pass == 0 && big && r) || (pass == 1 && big && !r) || (pass == 2 && !big))
					o[n++] = d;
			}
		memcpy(m->order[l], o, sizeof o);
	}
	return trim__canonicalize(s, m, c);
}

/* A first bound before the search: the factorisations of a fixed sample
 * with the smallest lower bounds, each with every bypass choice that fits
 * and one stationary order per tensor (class representatives). Real
 * mappings: their k-th best cost is a valid bound. They go into `seeds`
 * (k entries, with mappings) and the evaluation of its first into
 * *seed_eval, for a search that stops before it finds better. */
double trim__seed_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal,
                        trim__index nfc, int64_t zero_macs, search_worker *W, top_list *seeds,
                        trim__eval *seed_eval)
{
	/* at the time limit (a search given almost no time): the sample so far
	 * once it holds MIN_SAMPLE factorisations and a pick, and the picks'
	 * mappings of the first MIN_PICKS; once the search is overdue
	 * (trim__worker_overdue), the sample so far once it holds a pick, and
	 * the first pick's first k mappings; the sample is visited in a stride
	 * order (a step coprime to its size) so that any prefix spreads over
	 * the whole space; complete, it is the same set and the same picks */
	enum { NSAMPLE = 2048, NPICK = 16, MIN_SAMPLE = 256, MIN_PICKS = 4 };
	uint64_t ns = nfc < NSAMPLE ? (uint64_t)nfc : NSAMPLE;
	uint64_t step = 1;
	if (ns > 2) /* near 0.618 ns (a golden-ratio stride), coprime: ns - 1 always is */
		for (step = ns * 618 / 1000; gcd_u64(step, ns) != 1; step++)
			;
	double pick_lb[NPICK];
	trim__index pick_ac[NPICK];
	int np = 0;
	trim__mapping *m = &W->m;
	for (uint64_t i = 0, j = 0; i < ns; i++, j = (j + step) % ns) {
		if (np > 0 && (i >= MIN_SAMPLE ? (i & 31) == 0 && trim__worker_stop(W) : trim__worker_overdue(W)))
			break; /* the floor of MIN_SAMPLE holds until the search is overdue */
		/* j nfc / ns without overflow (nfc may pass 2^64; j < ns <= 2^11) */
		trim__index ac = nfc / ns * j + nfc % ns * j / ns;
		W->cnt.seed_sampled++;
		trim__space_mapping_init(s, m);
		if (!trim__set_factors(s, trim__combination_factorisation(s, ac), m) ||
		    trim__factor_bound_compute(s, &W->fbound, m, &W->ws.act, 7u))
			continue;
		double lb;
		if (trim__factor_bound_cost(s, &W->fbound, NULL, zero_macs, costs, m, goal, &W->bound_eval, &lb))
			continue;
		int pos = np;
		while (pos > 0 && (lb < pick_lb[pos - 1] || (lb == pick_lb[pos - 1] && ac < pick_ac[pos - 1])))
			pos--;
		if (pos >= NPICK)
			continue;
		for (int j = (np < NPICK ? np : NPICK - 1); j > pos; j--) {
			pick_lb[j] = pick_lb[j - 1];
			pick_ac[j] = pick_ac[j - 1];
		}
		pick_lb[pos] = lb;
		pick_ac[pos] = ac;
		if (np < NPICK)
			np++;
	}
	for (int i = 0; i < np; i++) {
		if (seeds->n >= seeds->k && (i >= MIN_PICKS ? trim__worker_stop(W) : trim__worker_overdue(W)))
			break; /* the time limit: k real mappings found */
		trim__index fc = trim__combination_factorisation(s, pick_ac[i]);
		for (uint64_t b = 0; b < ((uint64_t)1 << s->nbyp); b++) {
			if (!trim__bypass_allowed(s, b))
				continue;
			/* the time limit within a pick too, k real mappings found: with
			 * imperfect factors on several spatial levels one evaluation
			 * takes milliseconds, a pick's bypass choices seconds (AlexNet-
			 * Cifar on simba-like with --imperfect --time-limit 1 took 9.7 s) */
			if (seeds->n >= seeds->k && trim__worker_stop(W))
				return trim__top_bound(seeds);
			trim__space_mapping_init(s, m);
			trim__set_factors(s, fc, m);
			trim__set_keeps(s, b, m);
			if (trim__mapping_check_reserved(m, s->w, s->a, s->reserved) ||
			    (s->min_pe_util > 0 && trim__mapspace_pe_util(s, m) < s->min_pe_util) ||
			    (s->min_rf_util > 0 && trim__mapspace_rf_util(s, m) < s->min_rf_util))
				continue;
			for (int t = 0; t < 3; t++) {
				if (!s->w->t[t].present)
					continue;
				trim__index idx;
				if (stationary_orders(s, m, t, &W->classes) || trim__eval_run(s->w, s->a, costs, m, &W->ws, &W->ev) ||
				    trim__mapspace_encode(s, m, &idx))
					continue;
				W->cnt.seed_evaluated++;
				double c = trim__goal_cost(&W->ev, goal), c2 = trim__goal_second(&W->ev, goal);
				if (trim__top_first(seeds, c, c2, idx))
					*seed_eval = W->ev;
				trim__top_put(seeds, c, c2, idx, m);
			}
		}
	}
	return trim__top_bound(seeds);
}

double trim__seed_hint(const trim__mapspace *s, const trim__level_cost *costs, int goal, search_worker *W,
                       top_list *seeds, trim__eval *seed_eval, int *used)
{
	*used = 0;
	trim__mapping *m = &W->m;
	trim__index idx;
	if (!s->hint_on || s->hint_index >= s->size || trim__mapspace_decode(s, s->hint_index, m) ||
	    trim__mapping_check_reserved(m, s->w, s->a, s->reserved) ||
	    trim__eval_run(s->w, s->a, costs, m, &W->ws, &W->ev) || trim__mapspace_encode(s, m, &idx) ||
	    idx != s->hint_index || trim__goal_cost(&W->ev, goal) != s->hint_cost) {
		trim_clear_error();
		return trim__top_bound(seeds); /* not this space's: ignored */
	}
	const double c2 = trim__goal_second(&W->ev, goal);
	if (trim__top_first(seeds, s->hint_cost, c2, idx))
		*seed_eval = W->ev;
	trim__top_put(seeds, s->hint_cost, c2, idx, m);
	*used = 1;
	return trim__top_bound(seeds);
}
