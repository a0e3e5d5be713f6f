/*
 * A good answer first: a local search over real mappings before the tree
 * (docs/model.md, "Mapspace and search", bound and determinism). From the
 * mapping with every factor at the outermost level (or from the seeds'
 * best), steepest descent by the evaluator's own cost: a step moves one
 * divisor of one dim's factor between two levels (spatial ones too), flips
 * one keep bit, or changes the tensor a storage level's order keeps
 * stationary; a second descent from the same start holds the keep bits
 * until the factors' local minimum. With a time limit, more starts: one
 * dim's largest divisor that the innermost spatial level takes, there.
 * The search also starts it in each of its best top nodes (the innermost
 * spatial level's factors of the node, the rest outermost: driver.c).
 * Only mappings of the space are visited (the allowed rows: pins and dataflow constraints; the
 * allowed bypass choices and spatial axes; the check trim eval applies
 * and the utilisation constraints), as class representatives.
 * Deterministic: a fixed evaluation budget, every tie broken by (cost,
 * second figure, index); the time limit (with a mapping in hand) stops it
 * early, after a minimum.
 */
#include "search_int.h"

/* At most GREEDY_EVALS evaluations in all (about 50 us each on AlexNet's
 * layers); a dim's factor moves take the divisors of the factor, at most
 * GREEDY_DIVISORS of them (the smallest). The time limit stops it (once a
 * mapping is in hand) only after GREEDY_MIN_EVALS evaluations or
 * GREEDY_GRACE_S seconds of the thread's CPU time (on a loaded machine its
 * wall time may be many times that; not with a stop at a chosen check,
 * stop_after, which is the same on every machine), whichever comes first:
 * a descent cut after a few
 * steps returns little better than its start, and a network's searches
 * given a tenth of a second each would otherwise stop it there. Neither
 * floor holds once the search is overdue (trim__worker_overdue: past its
 * deadline by as long again as it was given). */
enum { GREEDY_EVALS = 6000, GREEDY_MIN_EVALS = 2000, GREEDY_DIVISORS = 12, GREEDY_STOP_EVERY = 32 };
#define GREEDY_GRACE_S 0.03
#define GREEDY_EXTRA_SHARE 0.25

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A point of the descent: a row of fact[d] per dim (an allowed one), a
 * bypass choice, and per ordered storage level the tensor its order keeps
 * stationary. */
typedef struct {
	int64_t row[TRIM_NDIMS];
	uint64_t byp;
	int stat[TRIM__MAX_LEVELS];
} greedy_point;

typedef struct {
	const trim__mapspace *s;
	const trim__level_cost *costs;
	int goal;
	search_worker *W;
	top_list *seeds;
	trim__eval *seed_eval;
	int64_t evals;
	int stopped;
	double start; /* cpu_seconds() at the start */
	int frozen;   /* keep bits not moved */
	int64_t limit; /* the evaluation budget */
	int top;       /* from a top node: no floor before the time limit (the
	                * greedy seed's is for the first mapping in hand) */
} greedy_run;

typedef struct {
	int ok;
	double c, c2;
	trim__index idx;
} greedy_cost;

static int cost_better(const greedy_cost *a, const greedy_cost *b)
{
	return a->ok && trim__better(a->c, a->c2, a->idx, b->c, b->c2, b->idx, b->ok);
}

/* The position of global row r in rows[d] (ascending), -1 if not allowed. */
static int64_t allowed_pos(const trim__mapspace *s, int d, int64_t r)
{
	int64_t lo = 0, hi = s->nrows[d];
	while (lo < hi) {
		const int64_t mid = lo + (hi - lo) / 2;
		if (s->rows[d][mid] == r)
			return mid;
		if (s->rows[d][mid] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The global row of dim d with factors f (one per slot) if it is allowed,
 * else -1: the perfect rows are lexicographic (binary search), the
 * imperfect ones are scanned. */
static int64_t row_lookup(const trim__mapspace *s, int d, const int64_t *f)
{
	const int k = s->nslots;
	int64_t prod = 1, r = -1;
	for (int i = 0; i < k; i++)
		prod = prod <= INT64_MAX / f[i] ? prod * f[i] : -1;
	if (prod == s->w->bound[d]) {
		int64_t lo = 0, hi = s->nperfect[d];
		while (lo < hi && r < 0) {
			const int64_t mid = lo + (hi - lo) / 2, *row = s->fact[d] + mid * k;
			int c = 0;
			for (int i = 0; i < k && !c; i++)
				c = (row[i] > f[i]) - (row[i] < f[i]);
			if (c == 0)
				r = mid;
			else if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	} else {
		for (int64_t j = s->nperfect[d]; j < s->nf[d] && r < 0; j++)
			if (!memcmp(s->fact[d] + j * k, f, (size_t)k * sizeof *f))
				r = j;
	}
	return r >= 0 && allowed_pos(s, d, r) >= 0 ? r : -1;
}

/* Level ord_level[k]'s order keeps tensor stat[k] stationary: its
 * relevant dims > 1 outermost, the other dims > 1 inside them. */
static void set_orders(const trim__mapspace *s, const greedy_point *p, trim__mapping *m)
{
	for (int k = 0; k < s->nord; k++) {
		const int l = s->ord_level[k];
		const unsigned rel = s->w->t[p->stat[k]].relevant;
		int o[TRIM_NDIMS], n = 0;
		for (int pass = 0; pass < 3; pass++)
			for (int d = 0; d < TRIM_NDIMS; d++) {
				const int big = m->f[l][d] > 1, r = rel >> d & 1;
				if ((pass == 0 && big && r) || (pass == 1 && big && !r) || (pass == 2 && !big))
					o[n++] = d;
			}
		memcpy(m->order[l], o, sizeof o);
	}
}

/* Point p as a mapping of the space into W->m, evaluated (ok 0: not a
 * valid mapping of the space, or outside the model). */
static greedy_cost evaluate(greedy_run *g, const greedy_point *p)
{
	const trim__mapspace *s = g->s;
	search_worker *W = g->W;
	trim__mapping *m = &W->m;
	greedy_cost r = {0, 0, 0, 0};
	trim__index fc = 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		fc = fc * (trim__index)s->nf[d] + (trim__index)p->row[d];
	g->evals++;
	trim__space_mapping_init(s, m);
	if (!trim__set_factors(s, fc, m))
		return r;
	trim__set_keeps(s, p->byp, m);
	set_orders(s, p, m);
	if (trim__mapping_check_reserved(m, s->w, s->a, s->reserved) ||
	    (s->min_pe_util > 0 && trim__mapspace_pe_util(s, m) < s->min_pe_util) ||
	    (s->min_rf_util > 0 && trim__mapspace_rf_util(s, m) < s->min_rf_util) ||
	    trim__canonicalize(s, m, &W->classes) || trim__eval_run(s->w, s->a, g->costs, m, &W->ws, &W->ev) ||
	    trim__mapspace_encode(s, m, &r.idx)) {
		trim_clear_error();
		return r;
	}
	W->cnt.greedy_evaluated++;
	r.ok = 1;
	r.c = trim__goal_cost(&W->ev, g->goal);
	r.c2 = trim__goal_second(&W->ev, g->goal);
	if (trim__top_first(g->seeds, r.c, r.c2, r.idx))
		*g->seed_eval = W->ev;
	trim__top_put(g->seeds, r.c, r.c2, r.idx, m);
	return r;
}

/* 1 once the budget is spent or the time is up with a mapping in hand. */
static int out_of_time(greedy_run *g)
{
	if (!g->stopped && g->evals % GREEDY_STOP_EVERY == 0 && g->seeds->n > 0) {
		if ((g->top || g->evals >= GREEDY_MIN_EVALS ||
		     (!g->W->stop_after && cpu_seconds() - g->start > GREEDY_GRACE_S)) &&
		    trim__worker_stop(g->W))
			g->stopped = 1;
		else if (trim__worker_overdue(g->W)) /* past twice its time: no floor */
			g->stopped = 1;
	}
	return g->stopped || g->evals >= g->limit;
}

/* Neighbour q of p if better than *best (then into *next). */
static void try_point(greedy_run *g, const greedy_point *q, greedy_cost *best, greedy_point *next)
{
	if (out_of_time(g))
		return;
	greedy_cost c = evaluate(g, q);
	if (cost_better(&c, best)) {
		*best = c;
		*next = *q;
	}
}

/* The moves of dim d: a divisor v > 1 of its factor at slot i moved to
 * slot j (an allowed row). */
static void factor_moves(greedy_run *g, const greedy_point *p, int d, greedy_cost *best, greedy_point *next)
{
	const trim__mapspace *s = g->s;
	const int k = s->nslots;
	int64_t f[TRIM__MAX_LEVELS];
	for (int i = 0; i < k; i++) {
		const int64_t fi = s->fact[d][p->row[d] * k + i];
		int nv = 0;
		for (int64_t v = 2; v <= fi && nv < GREEDY_DIVISORS; v++) {
			if (fi % v)
				continue;
			nv++;
			for (int j = 0; j < k; j++) {
				if (j == i)
					continue;
				memcpy(f, s->fact[d] + p->row[d] * k, (size_t)k * sizeof *f);
				f[i] /= v;
				f[j] *= v;
				const int64_t r = row_lookup(s, d, f);
				if (r < 0)
					continue;
				greedy_point q = *p;
				q.row[d] = r;
				try_point(g, &q, best, next);
			}
		}
	}
}

/* Steepest descent from *p (valid, cost *cur) to a local minimum, into
 * both; with g->frozen no keep bit moves. */
static void descend(greedy_run *g, greedy_point *p, greedy_cost *cur)
{
	const trim__mapspace *s = g->s;
	while (!out_of_time(g)) {
		greedy_cost best = *cur;
		greedy_point next = *p;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (s->w->bound[d] > 1)
				factor_moves(g, p, d, &best, &next);
		for (int j = 0; j < s->nbyp && !g->frozen; j++) {
			greedy_point q = *p;
			q.byp ^= (uint64_t)1 << j;
			if (trim__bypass_allowed(s, q.byp))
				try_point(g, &q, &best, &next);
		}
		for (int k = 0; k < s->nord; k++)
			for (int t = 0; t < 3; t++) {
				greedy_point q = *p;
				q.stat[k] = t;
				if (t != p->stat[k] && s->w->t[t].present)
					try_point(g, &q, &best, &next);
			}
		if (!cost_better(&best, cur))
			return; /* a local minimum */
		*cur = best;
		*p = next;
	}
}

/* The best start of the given rows and bypass choice over the stationary
 * tensors (the same at every level). */
static greedy_cost start_point(greedy_run *g, greedy_point *p)
{
	greedy_cost best = {0, 0, 0, 0};
	greedy_point q = *p;
	for (int t = 0; t < 3; t++) {
		if (!g->s->w->t[t].present)
			continue;
		for (int k = 0; k < g->s->nord; k++)
			q.stat[k] = t;
		greedy_cost c = evaluate(g, &q);
		if (cost_better(&c, &best)) {
			best = c;
			*p = q;
		}
	}
	return best;
}

/* From the best start of *p's rows and bypass choice (start_point), a
 * descent with the keep bits held until the factors' local minimum, then
 * one with them free. */
static void held_then_free(greedy_run *g, greedy_point *p)
{
	greedy_cost c = start_point(g, p);
	if (!c.ok)
		return;
	g->frozen = 1;
	descend(g, p, &c);
	g->frozen = 0;
	descend(g, p, &c);
}

/* Every keep bit the constraints leave free kept (the forced ones as
 * forced). */
static uint64_t all_keeps(const trim__mapspace *s)
{
	return ((((uint64_t)1 << s->nbyp) - 1) & ~s->byp_fixmask) | s->byp_fixval;
}

/* The row of dim d with its pinned factors where they are pinned (at slot
 * fixslot, if not -1, the factor fix) and the rest as far out as the factor
 * caps (fmax) let it be; -1 if none is allowed. */
static int64_t outer_row(const trim__mapspace *s, int d, int fixslot, int64_t fix)
{
	int64_t f[TRIM__MAX_LEVELS], rest = s->w->bound[d];
	for (int i = 0; i < s->nslots; i++) {
		const int64_t pin = i == fixslot ? fix : s->pin[s->slot[i]][d];
		f[i] = pin > 0 ? pin : 1;
		if (pin > 0 && rest % pin)
			return -1;
		rest /= f[i];
	}
	for (int i = 0; i < s->nslots && rest > 1; i++) {
		const int64_t mx = s->fmax[s->slot[i]][d];
		if (s->pin[s->slot[i]][d] > 0 || i == fixslot)
			continue;
		int64_t v = mx > 0 && mx < rest ? mx : rest;
		while (rest % v)
			v--;
		f[i] = v;
		rest /= v;
	}
	return rest == 1 ? row_lookup(s, d, f) : -1;
}

/* The point of mapping m (a mapping of the space): its rows and keeps. */
static int point_of(const trim__mapspace *s, const trim__mapping *m, greedy_point *p)
{
	int64_t f[TRIM__MAX_LEVELS];
	memset(p, 0, sizeof *p);
	for (int d = 0; d < TRIM_NDIMS; d++) {
		for (int i = 0; i < s->nslots; i++)
			f[i] = m->f[s->slot[i]][d];
		if ((p->row[d] = row_lookup(s, d, f)) < 0)
			return 0;
	}
	for (int j = 0; j < s->nbyp; j++)
		p->byp |= (uint64_t)(m->keep[s->byp_level[j]][s->byp_slot[j]] != 0) << (s->nbyp - 1 - j);
	return 1;
}

double trim__greedy_seed(const trim__mapspace *s, const trim__level_cost *costs, int goal, search_worker *W,
                         top_list *seeds, trim__eval *seed_eval, int from_seeds)
{
	greedy_run g = {s, costs, goal, W, seeds, seed_eval, 0, 0, cpu_seconds(), 0, GREEDY_EVALS, 0};
	greedy_point p;
	int ok = 0;
	memset(&p, 0, sizeof p);
	if (from_seeds) { /* the seeds' best */
		ok = seeds->n > 0 && seeds->map && point_of(s, &seeds->map[0], &p);
	} else { /* every factor outermost (but the pinned ones, the rest
		  * within the factor caps), every keep bit the constraints
		  * leave free kept */
		ok = s->nslots > 0;
		for (int d = 0; d < TRIM_NDIMS && ok; d++)
			ok = (p.row[d] = outer_row(s, d, -1, 0)) >= 0;
		p.byp = all_keeps(s);
	}
	const greedy_point p0 = p;
	if (ok) {
		greedy_cost c = start_point(&g, &p);
		if (c.ok)
			descend(&g, &p, &c);
	}
	/* and from the start again, its keep bits held until the factors'
	 * local minimum, then free: a keep bit the first descent dropped early
	 * (a tile too large for the buffer then) is not taken back by one
	 * move once the factors would let it fit (UNet's down2.conv1 FW on
	 * Eyeriss: the input dropped from the global buffer, 7.28e10 pJ; held,
	 * 5.37e10; the 10 s search's best 4.41e10). Before the starts below,
	 * so that a time limit never makes the seed worse than none. */
	if (ok && !from_seeds && !out_of_time(&g)) {
		greedy_point q = p0;
		held_then_free(&g, &q);
	}
	/* with a time limit (the answer is then what the search found), more
	 * starts, other basins: from every factor outermost but one dim's
	 * largest divisor that the innermost spatial level's fan-out takes,
	 * there, for each dim in turn, while the budget lasts and for at most
	 * GREEDY_EXTRA_SHARE of the limit in CPU time (an exact search needs
	 * only a threshold: the two descents above) */
	int sp = -1;
	for (int i = 0; i < s->nslots; i++)
		if (s->a->lv[s->slot[i]].type == TRIM__LVL_SPATIAL)
			sp = i;
	const double extra_cpu = s->time_limit > 0 ? GREEDY_EXTRA_SHARE * s->time_limit : 0;
	for (int d = 0; d < TRIM_NDIMS && !from_seeds && ok && sp >= 0 && !out_of_time(&g) &&
	                cpu_seconds() - g.start < extra_cpu;
	     d++) {
		const int64_t *row = s->fact[d] + p0.row[d] * s->nslots;
		int64_t f[TRIM__MAX_LEVELS], v = s->a->lv[s->slot[sp]].fanout_total;
		memcpy(f, row, (size_t)s->nslots * sizeof *f);
		if (v > f[0])
			v = f[0];
		while (v > 1 && f[0] % v)
			v--;
		if (v < 2 || f[sp] != 1)
			continue;
		f[0] /= v;
		f[sp] = v;
		greedy_point q = p0;
		if ((q.row[d] = row_lookup(s, d, f)) < 0)
			continue;
		greedy_cost c = start_point(&g, &q);
		if (c.ok)
			descend(&g, &q, &c);
	}
	return trim__top_bound(seeds);
}

double trim__greedy_top(const trim__mapspace *s, const trim__level_cost *costs, int goal, search_worker *W,
                        top_list *seeds, trim__eval *seed_eval, int slot, const int64_t *fix, int64_t evals)
{
	greedy_run g = {s, costs, goal, W, seeds, seed_eval, 0, 0, cpu_seconds(), 0, evals, 1};
	greedy_point p;
	memset(&p, 0, sizeof p);
	for (int d = 0; d < TRIM_NDIMS; d++)
		if ((p.row[d] = outer_row(s, d, slot, fix[d])) < 0)
			return trim__top_bound(seeds);
	p.byp = all_keeps(s);
	held_then_free(&g, &p);
	return trim__top_bound(seeds);
}
