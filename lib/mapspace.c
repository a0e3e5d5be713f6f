/*
 * The mapspace (canonical mapping <-> 64-bit index) and the exhaustive,
 * deterministic OpenMP search. See lib/mapspace_int.h for the index layout.
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "mapspace_int.h"

static uint64_t fact_u64(int n)
{
	uint64_t r = 1;
	for (int i = 2; i <= n; i++)
		r *= (uint64_t)i;
	return r;
}

/* Ordered factorisations of b over k slots, lexicographic (slot 0 first,
 * ascending). Writes rows into out (if not NULL); returns the count. */
static int64_t facts(int64_t b, int k, int64_t *row, int depth, int64_t *out, int64_t n)
{
	if (depth == k - 1) {
		if (out) {
			row[depth] = b;
			memcpy(out + n * k, row, (size_t)k * sizeof *row);
		}
		return n + 1;
	}
	for (int64_t d = 1; d <= b; d++)
		if (b % d == 0) {
			row[depth] = d;
			n = facts(b / d, k, row, depth + 1, out, n);
		}
	return n;
}

void trim__mapspace_free(trim__mapspace *s)
{
	if (!s)
		return;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		free(s->fact[d]);
		free(s->rows[d]);
		s->fact[d] = NULL;
		s->rows[d] = NULL;
	}
}

static int mul_ovf(uint64_t a, uint64_t b, uint64_t *out)
{
	return __builtin_mul_overflow(a, b, out);
}

int trim__mapspace_init(trim__mapspace *s, const trim__intra *w, const struct trim_arch *a)
{
	memset(s, 0, sizeof *s);
	s->w = w;
	s->a = a;
	for (int l = 0; l < a->nlevels; l++) {
		if (a->lv[l].type == TRIM__LVL_COMPUTE)
			continue;
		s->slot[s->nslots++] = l;
		if (a->lv[l].type == TRIM__LVL_STORAGE) {
			s->ord_level[s->nord++] = l;
			if (l > 0)
				for (int t = 0; t < 3; t++)
					if (a->lv[l].keep[t] && w->t[t].present) {
						s->byp_level[s->nbyp] = l;
						s->byp_slot[s->nbyp++] = t;
					}
		}
	}
	if (s->nslots == 0 || a->lv[0].type != TRIM__LVL_STORAGE)
		return trim__error(TRIM_EINVAL, "mapspace: the architecture has no outer storage level");
	int64_t row[TRIM__MAX_LEVELS];
	s->nfact = 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (w->bound[d] < 1)
			return trim__error(TRIM_EINVAL, "mapspace: bound of dim %d is %lld", d, (long long)w->bound[d]);
		s->nf[d] = facts(w->bound[d], s->nslots, row, 0, NULL, 0);
		s->fact[d] = malloc((size_t)(s->nf[d] * s->nslots) * sizeof(int64_t));
		if (!s->fact[d]) {
			trim__mapspace_free(s);
			return trim__error(TRIM_ENOMEM, "mapspace: out of memory");
		}
		facts(w->bound[d], s->nslots, row, 0, s->fact[d], 0);
		s->rows[d] = malloc((size_t)s->nf[d] * sizeof(int64_t));
		if (!s->rows[d]) {
			trim__mapspace_free(s);
			return trim__error(TRIM_ENOMEM, "mapspace: out of memory");
		}
		for (int64_t r = 0; r < s->nf[d]; r++)
			s->rows[d][r] = r;
		s->nrows[d] = s->nf[d];
		if (mul_ovf(s->nfact, (uint64_t)s->nf[d], &s->nfact))
			goto big;
		if (w->bound[d] > 1)
			s->dims[s->n++] = d;
	}
	s->nperm = fact_u64(s->n);
	s->size = s->nfact;
	if (s->nbyp >= 63 || mul_ovf(s->size, (uint64_t)1 << s->nbyp, &s->size))
		goto big;
	for (int k = 0; k < s->nord; k++)
		if (mul_ovf(s->size, s->nperm, &s->size))
			goto big;
	return 0;
big:
	trim__mapspace_free(s);
	return trim__error(TRIM_ERANGE, "mapspace: more than 2^64 raw mappings (no 64-bit index)");
}

int trim__mapspace_pin(trim__mapspace *s, int level, int dim, int64_t bound)
{
	if (dim < 0 || dim >= TRIM_NDIMS || bound < 0)
		return trim__error(TRIM_EINVAL, "mapspace: bad pin (dim %d, bound %lld)", dim, (long long)bound);
	int slot = -1;
	for (int i = 0; i < s->nslots; i++)
		if (s->slot[i] == level)
			slot = i;
	if (slot < 0)
		return trim__error(TRIM_EINVAL, "mapspace: level %d has no loops (storage or spatial levels only)", level);
	int64_t old = s->pin[level][dim];
	s->pin[level][dim] = bound;
	int64_t n = 0;
	for (int64_t r = 0; r < s->nf[dim]; r++) {
		int ok = 1;
		for (int i = 0; i < s->nslots && ok; i++) {
			int64_t p = s->pin[s->slot[i]][dim];
			ok = p == 0 || s->fact[dim][r * s->nslots + i] == p;
		}
		if (ok)
			s->rows[dim][n++] = r;
	}
	if (n == 0) {
		s->pin[level][dim] = old;
		trim__mapspace_pin(s, level, dim, old);
		return trim__error(TRIM_ENOFIT, "mapspace: no factorisation of %c = %lld has %c = %lld at level %s (with the other fixed factors)",
		                   "NGMCEFRS"[dim], (long long)s->w->bound[dim], "NGMCEFRS"[dim],
		                   (long long)bound, s->a->lv[level].name);
	}
	s->nrows[dim] = n;
	return 0;
}

double trim__mapspace_pe_util(const trim__mapspace *s, const trim__mapping *m)
{
	int64_t pes = 1;
	for (int l = 0; l < m->nlevels; l++)
		if (m->type[l] == TRIM__LVL_SPATIAL)
			for (int d = 0; d < TRIM_NDIMS; d++)
				pes *= m->f[l][d];
	return (double)pes / (double)(s->a->total_pes > 0 ? s->a->total_pes : 1);
}

double trim__mapspace_rf_util(const trim__mapspace *s, const trim__mapping *m)
{
	for (int l = m->nlevels - 1; l >= 0; l--) {
		const trim__level *L = &s->a->lv[l];
		if (L->type != TRIM__LVL_STORAGE || L->capacity_bytes <= 0)
			continue;
		int64_t bits = L->word_bits > 0 ? L->word_bits : (s->a->word_bits > 0 ? s->a->word_bits : 16);
		int64_t bytes = 0;
		for (int t = 0; t < 3; t++)
			if (m->keep[l][t] && s->w->t[t].present)
				bytes += (trim__mapping_tile_elems(m, s->w, l, t) * bits + 7) / 8;
		if (L->double_buffer)
			bytes *= 2;
		return (double)bytes / (double)L->capacity_bytes;
	}
	return 1; /* no bounded level: nothing to constrain */
}

/* ---- pieces of a mapping --------------------------------------------------- */

/* First X/Y split (dims in order, X bound ascending) that fits; 1 if found. */
static int split_dfs(const trim__level *L, const int64_t *f, int d, int64_t px, int64_t py,
                     int64_t *fx, int64_t *fy)
{
	if (d == TRIM_NDIMS)
		return 1;
	int64_t X = L->fanout_x > 0 ? L->fanout_x : 1, Y = L->fanout_y > 0 ? L->fanout_y : 1;
	for (int64_t x = 1; x <= f[d]; x++) {
		if (f[d] % x)
			continue;
		int64_t y = f[d] / x;
		if (px * x > X || py * y > Y)
			continue;
		fx[d] = x;
		fy[d] = y;
		if (split_dfs(L, f, d + 1, px * x, py * y, fx, fy))
			return 1;
	}
	return 0;
}

static int set_split(const struct trim_arch *a, trim__mapping *m, int l)
{
	if (split_dfs(&a->lv[l], m->f[l], 0, 1, 1, m->fx[l], m->fy[l]))
		return 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		m->fx[l][d] = m->f[l][d];
		m->fy[l][d] = 1;
	}
	return 0;
}

/* Factors of fact combo fc; returns 1 if every spatial level fits. */
static int set_facts(const trim__mapspace *s, uint64_t fc, trim__mapping *m)
{
	int64_t fi[TRIM_NDIMS];
	for (int d = TRIM_NDIMS - 1; d >= 0; d--) {
		fi[d] = (int64_t)(fc % (uint64_t)s->nf[d]);
		fc /= (uint64_t)s->nf[d];
	}
	for (int i = 0; i < s->nslots; i++)
		for (int d = 0; d < TRIM_NDIMS; d++)
			m->f[s->slot[i]][d] = s->fact[d][fi[d] * s->nslots + i];
	int ok = 1;
	for (int i = 0; i < s->nslots; i++)
		if (s->a->lv[s->slot[i]].type == TRIM__LVL_SPATIAL)
			ok &= set_split(s->a, m, s->slot[i]);
	return ok;
}

static void set_keeps(const trim__mapspace *s, uint64_t bmask, trim__mapping *m)
{
	for (int j = 0; j < s->nbyp; j++)
		m->keep[s->byp_level[j]][s->byp_slot[j]] = (int)((bmask >> (s->nbyp - 1 - j)) & 1);
}

/* Order of level l from the permutation `code` (Lehmer) of the dims > 1. */
static void set_order(const trim__mapspace *s, trim__mapping *m, int l, uint64_t code)
{
	int avail[TRIM_NDIMS], na = s->n, k = 0, used[TRIM_NDIMS] = {0};
	memcpy(avail, s->dims, sizeof avail);
	for (int i = 0; i < s->n; i++) {
		uint64_t f = fact_u64(s->n - 1 - i);
		int idx = (int)(code / f);
		code %= f;
		m->order[l][k++] = avail[idx];
		used[avail[idx]] = 1;
		memmove(avail + idx, avail + idx + 1, (size_t)(na - idx - 1) * sizeof *avail);
		na--;
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!used[d])
			m->order[l][k++] = d;
}

/* Lehmer code of level l's order restricted to the dims > 1. */
static uint64_t order_code(const trim__mapspace *s, const trim__mapping *m, int l)
{
	int avail[TRIM_NDIMS], na = s->n;
	memcpy(avail, s->dims, sizeof avail);
	uint64_t code = 0;
	int i = 0;
	for (int k = 0; k < TRIM_NDIMS; k++) {
		int d = m->order[l][k], idx = -1;
		for (int j = 0; j < na; j++)
			if (avail[j] == d)
				idx = j;
		if (idx < 0)
			continue;
		code += (uint64_t)idx * fact_u64(s->n - 1 - i);
		memmove(avail + idx, avail + idx + 1, (size_t)(na - idx - 1) * sizeof *avail);
		na--;
		i++;
	}
	return code;
}

int trim__mapspace_decode(const trim__mapspace *s, uint64_t index, trim__mapping *m)
{
	if (index >= s->size)
		return trim__error(TRIM_ERANGE, "mapspace: index %llu >= size %llu",
		                   (unsigned long long)index, (unsigned long long)s->size);
	trim__mapping_init(m, s->a);
	uint64_t codes[TRIM__MAX_LEVELS];
	for (int k = s->nord - 1; k >= 0; k--) {
		codes[k] = index % s->nperm;
		index /= s->nperm;
	}
	uint64_t bmask = index & (((uint64_t)1 << s->nbyp) - 1);
	uint64_t fc = index >> s->nbyp;
	set_facts(s, fc, m);
	set_keeps(s, bmask, m);
	for (int k = 0; k < s->nord; k++)
		set_order(s, m, s->ord_level[k], codes[k]);
	return 0;
}

int trim__mapspace_encode(const trim__mapspace *s, const trim__mapping *m, uint64_t *index)
{
	uint64_t fc = 0;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t hit = -1;
		for (int64_t r = 0; r < s->nf[d] && hit < 0; r++) {
			int ok = 1;
			for (int i = 0; i < s->nslots && ok; i++)
				ok = s->fact[d][r * s->nslots + i] == m->f[s->slot[i]][d];
			if (ok)
				hit = r;
		}
		if (hit < 0)
			return trim__error(TRIM_ENOTFOUND, "mapspace: the factors of dim %d are not in the space", d);
		fc = fc * (uint64_t)s->nf[d] + (uint64_t)hit;
	}
	uint64_t idx = fc;
	for (int j = 0; j < s->nbyp; j++)
		idx = idx * 2 + (uint64_t)(m->keep[s->byp_level[j]][s->byp_slot[j]] != 0);
	for (int k = 0; k < s->nord; k++)
		idx = idx * s->nperm + order_code(s, m, s->ord_level[k]);
	*index = idx;
	return 0;
}

/* A level's order matters only if some tensor has a holder below it. */
static int order_relevant(const trim__mapspace *s, const trim__mapping *m, int l)
{
	for (int k = l + 1; k < m->nlevels; k++)
		if (m->type[k] == TRIM__LVL_STORAGE)
			for (int t = 0; t < 3; t++)
				if (m->keep[k][t] && s->w->t[t].present)
					return 1;
	return 0;
}

void trim__mapspace_canonical(const trim__mapspace *s, trim__mapping *m)
{
	for (int k = 0; k < s->nord; k++) {
		int l = s->ord_level[k], rel = order_relevant(s, m, l), o[TRIM_NDIMS], n = 0;
		if (rel) {
			for (int i = 0; i < TRIM_NDIMS; i++)
				if (m->f[l][m->order[l][i]] > 1)
					o[n++] = m->order[l][i];
		} else {
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (m->f[l][d] > 1)
					o[n++] = d;
		}
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (m->f[l][d] == 1 && s->w->bound[d] > 1)
				o[n++] = d;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (s->w->bound[d] == 1)
				o[n++] = d;
		memcpy(m->order[l], o, sizeof o);
	}
}

/* ---- search ----------------------------------------------------------------- */

static double cost_of(const trim__eval *e, int goal)
{
	return goal == TRIM__GOAL_ENERGY ? e->energy_pj
	       : goal == TRIM__GOAL_DELAY ? e->cycles : e->energy_pj * e->cycles;
}

static int better(double c, uint64_t i, double bc, uint64_t bi, int have)
{
	return !have || c < bc || (c == bc && i < bi);
}

/* Per level: the dims with bound > 1 there, and how many orders to try. */
typedef struct {
	int k[TRIM__MAX_LEVELS];
	int dl[TRIM__MAX_LEVELS][TRIM_NDIMS];
	uint64_t radix[TRIM__MAX_LEVELS];
	uint64_t total;
} ordplan;

static void plan_orders(const trim__mapspace *s, const trim__mapping *m, ordplan *p)
{
	p->total = 1;
	for (int k = 0; k < s->nord; k++) {
		int l = s->ord_level[k];
		p->k[k] = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (m->f[l][d] > 1)
				p->dl[k][p->k[k]++] = d;
		p->radix[k] = order_relevant(s, m, l) ? fact_u64(p->k[k]) : 1;
		p->total *= p->radix[k];
	}
}

/* Order of level k from permutation `code` of its dims > 1; the other dims
 * follow canonically. */
static void apply_order(const trim__mapspace *s, const ordplan *p, int k, uint64_t code,
                        trim__mapping *m)
{
	int l = s->ord_level[k], avail[TRIM_NDIMS], na = p->k[k], o[TRIM_NDIMS], n = 0;
	memcpy(avail, p->dl[k], sizeof avail);
	for (int i = 0; i < p->k[k]; i++) {
		uint64_t f = fact_u64(p->k[k] - 1 - i);
		int idx = (int)(code / f);
		code %= f;
		o[n++] = avail[idx];
		memmove(avail + idx, avail + idx + 1, (size_t)(na - idx - 1) * sizeof *avail);
		na--;
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (m->f[l][d] == 1 && s->w->bound[d] > 1)
			o[n++] = d;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (s->w->bound[d] == 1)
			o[n++] = d;
	memcpy(m->order[l], o, sizeof o);
}

void trim__search_result_free(trim__search_result *r)
{
	if (!r)
		return;
	free(r->top_cost);
	free(r->top_index);
	free(r->top);
	r->top_cost = NULL;
	r->top_index = NULL;
	r->top = NULL;
	r->ntop = 0;
}

/* ---- lower bounds (docs/model.md, "Mapspace and search") -------------------- */

/* The [level][slot] count arrays of an activity record. */
static int64_t (*act_arr(trim__activity *x, int i))[3]
{
	int64_t (*const a[])[3] = {x->tile, x->fills, x->reads, x->updates, x->drains, x->down_words,
	                           x->down_dests, x->unicast, x->mcast, x->mcast_dests, x->up_words,
	                           x->up_out, x->reductions};
	return a[i];
}
enum { NARR = 13 };

/* Per factorisation: for every tensor and every choice of its keep bits,
 * lower bounds on its counts over every loop order (ok = 0: outside the
 * analytic model's scope, the same for every order; err: no bound). */
typedef struct {
	int nch[3];                         /* choices per tensor: 2^(its keep bits) */
	int bit[3][TRIM__MAX_LEVELS];       /* keep-bit positions (index into byp_*) */
	int nbit[3];
	trim__activity lo[3][1 << TRIM__MAX_LEVELS];
	int ok[3][1 << TRIM__MAX_LEVELS];
} fcbound;

static void fcb_plan(const trim__mapspace *s, fcbound *fb)
{
	for (int t = 0; t < 3; t++) {
		fb->nbit[t] = 0;
		for (int j = 0; j < s->nbyp; j++)
			if (s->byp_slot[j] == t && fb->nbit[t] < 16)
				fb->bit[t][fb->nbit[t]++] = j;
		fb->nch[t] = s->w->t[t].present ? 1 << fb->nbit[t] : 0;
	}
}

/* Choice of tensor t under bypass mask b. */
static int fcb_choice(const trim__mapspace *s, const fcbound *fb, int t, uint64_t b)
{
	int c = 0;
	for (int i = 0; i < fb->nbit[t]; i++)
		c = c * 2 + (int)((b >> (s->nbyp - 1 - fb->bit[t][i])) & 1);
	return c;
}

/* Fill fb for the factors in m (keeps of m are overwritten). Returns 0, or
 * an error that is not a scope error (then no bound is used). */
static int fcb_compute(const trim__mapspace *s, fcbound *fb, trim__mapping *m, trim__act_ws *ws)
{
	for (int t = 0; t < 3; t++)
		for (int c = 0; c < fb->nch[t]; c++) {
			for (int i = 0; i < fb->nbit[t]; i++) {
				int j = fb->bit[t][i];
				m->keep[s->byp_level[j]][t] = (c >> (fb->nbit[t] - 1 - i)) & 1;
			}
			int rc = trim__activity_lower(s->w, s->a, m, 1u << t, ws, &fb->lo[t][c]);
			if (rc == TRIM_EINVAL) {
				fb->ok[t][c] = 0;
				continue;
			}
			if (rc)
				return rc;
			fb->ok[t][c] = 1;
		}
	return 0;
}

/* Cost lower bound from per-tensor count bounds: choice ch[t] per tensor, or
 * (ch NULL) the count-wise minimum over every in-scope choice. Returns
 * 0 with *lb set, or 1 if some tensor has no in-scope choice. */
static int fcb_cost(const trim__mapspace *s, const fcbound *fb, const int *ch, int64_t zero_macs,
                    const trim__level_cost *costs, const trim__mapping *m, int goal, trim__eval *ev,
                    double *lb)
{
	trim__activity *x = &ev->act;
	int first = 1;
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		int have = 0;
		for (int c = 0; c < fb->nch[t]; c++) {
			if ((ch && c != ch[t]) || !fb->ok[t][c])
				continue;
			const trim__activity *y = &fb->lo[t][c];
			if (first) {
				*x = *y; /* macs, steps, instances, ... */
				for (int i = 0; i < NARR; i++)
					memset(act_arr(x, i), 0, sizeof x->fills);
				first = 0;
			}
			for (int i = 0; i < NARR; i++) {
				int64_t (*dst)[3] = act_arr(x, i);
				int64_t (*src)[3] = act_arr((trim__activity *)y, i);
				for (int l = 0; l < m->nlevels; l++)
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
	trim__eval_act(s->w, s->a, costs, m, ev);
	*lb = cost_of(ev, goal);
	return 0;
}

/* A t-stationary order at every storage level: the dims > 1 relevant to t
 * outermost, the others inside (then the canonical form). */
static void stationary_orders(const trim__mapspace *s, trim__mapping *m, int t)
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
	trim__mapspace_canonical(s, m);
}

/* A list of at most k (cost, index) by (cost, index); k >= 1. */
typedef struct {
	size_t k, n;
	double *cost;
	uint64_t *idx;
	trim__mapping *map; /* NULL: costs and indices only */
} toplist;

static int top_init(toplist *t, size_t k, int maps)
{
	t->k = k;
	t->n = 0;
	t->cost = malloc(k * sizeof *t->cost);
	t->idx = malloc(k * sizeof *t->idx);
	t->map = maps ? malloc(k * sizeof *t->map) : NULL;
	return t->cost && t->idx && (!maps || t->map) ? 0 : TRIM_ENOMEM;
}

static void top_free(toplist *t)
{
	free(t->cost);
	free(t->idx);
	free(t->map);
}

/* Insert unless the index is already there. */
static void top_put(toplist *t, double c, uint64_t i, const trim__mapping *m)
{
	for (size_t j = 0; j < t->n; j++)
		if (t->idx[j] == i)
			return;
	size_t pos = t->n;
	while (pos > 0 && better(c, i, t->cost[pos - 1], t->idx[pos - 1], 1))
		pos--;
	if (pos >= t->k)
		return;
	size_t last = t->n < t->k ? t->n : t->k - 1;
	for (size_t j = last; j > pos; j--) {
		t->cost[j] = t->cost[j - 1];
		t->idx[j] = t->idx[j - 1];
		if (t->map)
			t->map[j] = t->map[j - 1];
	}
	t->cost[pos] = c;
	t->idx[pos] = i;
	if (t->map)
		t->map[pos] = *m;
	if (t->n < t->k)
		t->n++;
}

/* Cost of the k-th best kept: nothing costlier can enter (inf if not full). */
static double top_bound(const toplist *t)
{
	return t->n >= t->k ? t->cost[t->k - 1] : HUGE_VAL;
}

/* Allowed combination ac -> global factorisation index. */
static uint64_t combo_fc(const trim__mapspace *s, uint64_t ac)
{
	uint64_t r = ac, fc = 0, digit[TRIM_NDIMS];
	for (int d = TRIM_NDIMS - 1; d >= 0; d--) {
		digit[d] = (uint64_t)s->rows[d][r % (uint64_t)s->nrows[d]];
		r /= (uint64_t)s->nrows[d];
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		fc = fc * (uint64_t)s->nf[d] + digit[d];
	return fc;
}

/* Per-thread state of the search. */
typedef struct {
	trim__search_result cnt; /* counts only */
	trim__eval_ws ws;
	trim__eval ev, lbev;
	trim__mapping m;
	fcbound fb;
	toplist item;            /* the best k of the current factorisation */
	toplist keep;            /* the best k of this thread, with mappings */
	trim__eval best_eval;    /* evaluation of keep's first */
	int err;
} worker;

/* Everything below one factorisation combination. `bound`: a cost that k
 * real mappings reach (a mapping costlier cannot be among the k best). The
 * work depends only on (ac, bound): deterministic for any thread count. */
static void do_item(const trim__mapspace *s, const trim__level_cost *costs, int goal, uint64_t ac,
                    double bound, int64_t zero_macs, worker *W)
{
	const uint64_t nb = (uint64_t)1 << s->nbyp;
	const int nomit = s->nobound;
	uint64_t fc = combo_fc(s, ac);
	trim__mapping *m = &W->m;
	trim__mapping_init(m, s->a);
	int fits = set_facts(s, fc, m);
	W->item.n = 0;
	int lbok = 0;
	if (fits && !nomit) {
		int rc = fcb_compute(s, &W->fb, m, &W->ws.act);
		lbok = rc == 0;
		double lb;
		if (lbok && fcb_cost(s, &W->fb, NULL, zero_macs, costs, m, goal, &W->lbev, &lb) == 0 && lb > bound) {
			/* no bypass choice and no order can reach the bound */
			for (uint64_t b = 0; b < nb; b++) {
				ordplan p;
				set_keeps(s, b, m);
				plan_orders(s, m, &p);
				W->cnt.generated += p.total;
				W->cnt.bounded += p.total;
			}
			return;
		}
	}
	for (uint64_t b = 0; b < nb; b++) {
		ordplan p;
		set_keeps(s, b, m);
		plan_orders(s, m, &p);
		W->cnt.generated += p.total;
		if (!fits || trim__mapping_check_reserved(m, s->w, s->a, s->reserved))
			continue;
		if ((s->min_pe_util > 0 && trim__mapspace_pe_util(s, m) < s->min_pe_util) ||
		    (s->min_rf_util > 0 && trim__mapspace_rf_util(s, m) < s->min_rf_util)) {
			W->cnt.valid += p.total;
			W->cnt.pruned += p.total;
			continue;
		}
		int scope = 1;
		if (lbok) {
			int ch[3] = {0, 0, 0};
			for (int t = 0; t < 3; t++)
				if (s->w->t[t].present) {
					ch[t] = fcb_choice(s, &W->fb, t, b);
					scope &= W->fb.ok[t][ch[t]];
				}
			double lb, cur = top_bound(&W->item) < bound ? top_bound(&W->item) : bound;
			if (scope && fcb_cost(s, &W->fb, ch, zero_macs, costs, m, goal, &W->lbev, &lb) == 0 && lb > cur) {
				W->cnt.bounded += p.total;
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
		const uint64_t base = (fc << s->nbyp) | b; /* index without the orders */
		for (uint64_t oc = 0; oc < p.total; oc++) {
			uint64_t r = oc;
			for (int k = s->nord - 1; k >= 0; k--) {
				apply_order(s, &p, k, r % p.radix[k], m);
				r /= p.radix[k];
			}
			int rc = trim__eval_run(s->w, s->a, costs, m, &W->ws, &W->ev);
			if (rc == TRIM_EINVAL) {
				W->cnt.unsupported++; /* outside the analytic model's scope */
				continue;
			}
			if (rc) {
				W->err = rc;
				return;
			}
			W->cnt.evaluated++;
			uint64_t idx = base;
			for (int k = 0; k < s->nord; k++)
				idx = idx * s->nperm + order_code(s, m, s->ord_level[k]);
			double c = cost_of(&W->ev, goal);
			top_put(&W->item, c, idx, m);
			if (better(c, idx, W->keep.n ? W->keep.cost[0] : 0, W->keep.n ? W->keep.idx[0] : 0, W->keep.n))
				W->best_eval = W->ev;
			top_put(&W->keep, c, idx, m);
		}
	}
}

/* A first bound before the search: the factorisations of a fixed sample
 * with the smallest lower bounds, each with every bypass choice that fits
 * and one stationary order per tensor. Real mappings: their k-th best cost
 * is a valid bound. */
static double seed_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal,
                         uint64_t nfc, int64_t zero_macs, size_t k, worker *W)
{
	enum { NSAMPLE = 2048, NPICK = 16 };
	uint64_t ns = nfc < NSAMPLE ? nfc : NSAMPLE;
	double pick_lb[NPICK];
	uint64_t pick_ac[NPICK];
	int np = 0;
	trim__mapping *m = &W->m;
	for (uint64_t i = 0; i < ns; i++) {
		uint64_t ac = i * nfc / ns;
		trim__mapping_init(m, s->a);
		if (!set_facts(s, combo_fc(s, ac), m) || fcb_compute(s, &W->fb, m, &W->ws.act))
			continue;
		double lb;
		if (fcb_cost(s, &W->fb, NULL, zero_macs, costs, m, goal, &W->lbev, &lb))
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
	toplist seed;
	if (top_init(&seed, k, 0))
		return HUGE_VAL;
	for (int i = 0; i < np; i++) {
		uint64_t fc = combo_fc(s, pick_ac[i]);
		for (uint64_t b = 0; b < ((uint64_t)1 << s->nbyp); b++) {
			trim__mapping_init(m, s->a);
			set_facts(s, fc, m);
			set_keeps(s, b, m);
			if (trim__mapping_check_reserved(m, s->w, s->a, s->reserved) ||
			    (s->min_pe_util > 0 && trim__mapspace_pe_util(s, m) < s->min_pe_util) ||
			    (s->min_rf_util > 0 && trim__mapspace_rf_util(s, m) < s->min_rf_util))
				continue;
			for (int t = 0; t < 3; t++) {
				if (!s->w->t[t].present)
					continue;
				stationary_orders(s, m, t);
				uint64_t idx;
				if (trim__eval_run(s->w, s->a, costs, m, &W->ws, &W->ev) ||
				    trim__mapspace_encode(s, m, &idx))
					continue;
				top_put(&seed, cost_of(&W->ev, goal), idx, NULL);
			}
		}
	}
	double r = top_bound(&seed);
	top_free(&seed);
	return r;
}

int trim__search(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                 trim__search_result *out)
{
	memset(out, 0, sizeof *out);
	int err = 0;
	if (threads < 1)
		threads = 1;
	const size_t k = s->topk > 1 ? (size_t)s->topk : 1;
	uint64_t nfc = 1; /* combinations of allowed factorisations */
	for (int d = 0; d < TRIM_NDIMS; d++)
		nfc *= (uint64_t)s->nrows[d];
	int64_t zero_macs = 0;
	if ((err = trim__activity_zero_macs(s->w, &zero_macs)))
		return err;
	worker *ws = calloc((size_t)threads, sizeof *ws);
	toplist glob = {0};
	trim__eval glob_eval;
	if (!ws || top_init(&glob, k, 1)) {
		free(ws);
		top_free(&glob);
		return trim__error(TRIM_ENOMEM, "search: out of memory");
	}
	for (int i = 0; i < threads; i++) {
		fcb_plan(s, &ws[i].fb);
		if (top_init(&ws[i].item, k, 0) || top_init(&ws[i].keep, k, 1))
			err = trim__error(TRIM_ENOMEM, "search: out of memory");
	}
	double bound = HUGE_VAL;
	if (!err && !s->nobound)
		bound = seed_bound(s, costs, goal, nfc, zero_macs, k, &ws[0]);
	/* rounds: every item of a round sees the bound reached at the end of
	 * the previous rounds (and its own mappings), so the work done, and the
	 * counts, do not depend on the number of threads */
	const uint64_t round = 512;
	for (uint64_t r0 = 0; r0 < nfc && !err; r0 += round) {
		uint64_t r1 = r0 + round < nfc ? r0 + round : nfc;
		double rb = bound;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
		for (uint64_t ac = r0; ac < r1; ac++) {
			worker *W = &ws[omp_get_thread_num()];
			if (!W->err)
				do_item(s, costs, goal, ac, rb, zero_macs, W);
		}
		for (int i = 0; i < threads; i++) {
			worker *W = &ws[i];
			if (W->err && !err)
				err = W->err;
			for (size_t j = 0; j < W->keep.n; j++) {
				if (better(W->keep.cost[j], W->keep.idx[j], glob.n ? glob.cost[0] : 0,
				           glob.n ? glob.idx[0] : 0, glob.n) && j == 0)
					glob_eval = W->best_eval;
				top_put(&glob, W->keep.cost[j], W->keep.idx[j], &W->keep.map[j]);
			}
			W->keep.n = 0;
		}
		double gb = top_bound(&glob);
		if (gb < bound && !s->nobound)
			bound = gb;
	}
	for (int i = 0; i < threads; i++) {
		worker *W = &ws[i];
		out->generated += W->cnt.generated;
		out->valid += W->cnt.valid;
		out->evaluated += W->cnt.evaluated;
		out->pruned += W->cnt.pruned;
		out->unsupported += W->cnt.unsupported;
		out->bounded += W->cnt.bounded;
		trim__eval_ws_free(&W->ws);
		top_free(&W->item);
		top_free(&W->keep);
	}
	free(ws);
	if (!err && glob.n) {
		out->found = 1;
		out->best_cost = glob.cost[0];
		out->best_index = glob.idx[0];
		out->best = glob.map[0];
		out->best_eval = glob_eval;
		if (s->topk > 1) {
			out->ntop = glob.n;
			out->top_cost = glob.cost;
			out->top_index = glob.idx;
			out->top = glob.map;
			return 0;
		}
	}
	top_free(&glob);
	return err;
}

/* ---- size of the distinct space ------------------------------------------------ */

/* Number of distinct mappings (what the search generates), without
 * enumerating them: a dynamic programme over the dims on the vector of
 * "loops with bound > 1" per storage level, then, per bypass choice, the
 * product of the order counts. */
int trim__mapspace_distinct(const trim__mapspace *s, uint64_t *out)
{
	if (s->nord > 6)
		return trim__error(TRIM_ERANGE, "mapspace: distinct size needs <= 6 storage levels");
	size_t nstate = 1;
	for (int k = 0; k < s->nord; k++)
		nstate *= 9;
	uint64_t *cur = calloc(nstate, sizeof *cur), *nxt = calloc(nstate, sizeof *nxt);
	int rc = 0;
	if (!cur || !nxt) {
		rc = trim__error(TRIM_ENOMEM, "mapspace: out of memory");
		goto out;
	}
	int pos[TRIM__MAX_LEVELS]; /* slot index of each storage level */
	for (int k = 0; k < s->nord; k++)
		for (int i = 0; i < s->nslots; i++)
			if (s->slot[i] == s->ord_level[k])
				pos[k] = i;
	cur[0] = 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		memset(nxt, 0, nstate * sizeof *nxt);
		for (size_t st = 0; st < nstate; st++) {
			if (!cur[st])
				continue;
			for (int64_t ri = 0; ri < s->nrows[d]; ri++) {
				int64_t r = s->rows[d][ri];
				size_t add = 0, mul = 1;
				for (int k = 0; k < s->nord; k++, mul *= 9)
					if (s->fact[d][r * s->nslots + pos[k]] > 1)
						add += mul;
				if (__builtin_add_overflow(nxt[st + add], cur[st], &nxt[st + add])) {
					rc = trim__error(TRIM_ERANGE, "mapspace: distinct size overflows");
					goto out;
				}
			}
		}
		uint64_t *t = cur;
		cur = nxt;
		nxt = t;
	}
	uint64_t total = 0;
	trim__mapping m;
	trim__mapping_init(&m, s->a);
	for (uint64_t b = 0; b < ((uint64_t)1 << s->nbyp); b++) {
		set_keeps(s, b, &m);
		int rel[TRIM__MAX_LEVELS];
		for (int k = 0; k < s->nord; k++)
			rel[k] = order_relevant(s, &m, s->ord_level[k]);
		for (size_t st = 0; st < nstate; st++) {
			if (!cur[st])
				continue;
			uint64_t p = cur[st];
			size_t v = st;
			for (int k = 0; k < s->nord; k++, v /= 9)
				if (rel[k] && __builtin_mul_overflow(p, fact_u64((int)(v % 9)), &p)) {
					rc = trim__error(TRIM_ERANGE, "mapspace: distinct size overflows");
					goto out;
				}
			if (__builtin_add_overflow(total, p, &total)) {
				rc = trim__error(TRIM_ERANGE, "mapspace: distinct size overflows");
				goto out;
			}
		}
	}
	*out = total;
out:
	free(cur);
	free(nxt);
	return rc;
}
