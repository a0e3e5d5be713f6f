/*
 * The mapspace (canonical mapping <-> 64-bit index) and the exhaustive,
 * deterministic OpenMP search. See lib/mapspace_int.h for the index layout.
 */
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

/* Insert (c, i, m) into a list of at most k entries sorted by (cost, index). */
static void top_insert(size_t k, size_t *n, double *cost, uint64_t *idx, trim__mapping *map,
                       double c, uint64_t i, const trim__mapping *m)
{
	size_t pos = *n;
	while (pos > 0 && better(c, i, cost[pos - 1], idx[pos - 1], 1))
		pos--;
	if (pos >= k)
		return;
	size_t last = *n < k ? *n : k - 1;
	for (size_t j = last; j > pos; j--) {
		cost[j] = cost[j - 1];
		idx[j] = idx[j - 1];
		map[j] = map[j - 1];
	}
	cost[pos] = c;
	idx[pos] = i;
	map[pos] = *m;
	if (*n < k)
		(*n)++;
}

int trim__search(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                 trim__search_result *out)
{
	memset(out, 0, sizeof *out);
	int err = 0;
	if (threads < 1)
		threads = 1;
	const size_t k = s->topk > 1 ? (size_t)s->topk : 0;
	if (k) {
		out->top_cost = malloc(k * sizeof *out->top_cost);
		out->top_index = malloc(k * sizeof *out->top_index);
		out->top = malloc(k * sizeof *out->top);
		if (!out->top_cost || !out->top_index || !out->top) {
			trim__search_result_free(out);
			return trim__error(TRIM_ENOMEM, "search: out of memory for the top %zu", k);
		}
	}
	const uint64_t nb = (uint64_t)1 << s->nbyp;
	uint64_t nfc = 1; /* combinations of allowed factorisations */
	for (int d = 0; d < TRIM_NDIMS; d++)
		nfc *= (uint64_t)s->nrows[d];
#pragma omp parallel num_threads(threads)
	{
		trim__search_result loc;
		trim__eval_ws ws = {0};
		trim__eval ev;
		trim__mapping m;
		int lerr = 0;
		memset(&loc, 0, sizeof loc);
		size_t ltop = 0;
		double *lcost = k ? malloc(k * sizeof *lcost) : NULL;
		uint64_t *lidx = k ? malloc(k * sizeof *lidx) : NULL;
		trim__mapping *lmap = k ? malloc(k * sizeof *lmap) : NULL;
		if (k && (!lcost || !lidx || !lmap))
			lerr = trim__error(TRIM_ENOMEM, "search: out of memory for the top %zu", k);
#pragma omp for schedule(dynamic, 16)
		for (uint64_t ac = 0; ac < nfc; ac++) {
			if (lerr)
				continue;
			/* allowed combination -> global factorisation index */
			uint64_t r = ac, fc = 0, digit[TRIM_NDIMS];
			for (int d = TRIM_NDIMS - 1; d >= 0; d--) {
				digit[d] = (uint64_t)s->rows[d][r % (uint64_t)s->nrows[d]];
				r /= (uint64_t)s->nrows[d];
			}
			for (int d = 0; d < TRIM_NDIMS; d++)
				fc = fc * (uint64_t)s->nf[d] + digit[d];
			trim__mapping_init(&m, s->a);
			int fits = set_facts(s, fc, &m);
			for (uint64_t b = 0; b < nb; b++) {
				ordplan p;
				set_keeps(s, b, &m);
				plan_orders(s, &m, &p);
				loc.generated += p.total;
				/* capacity and fan-out depend on factors and bypass only:
				 * a misfit cuts every order below it */
				if (!fits || trim__mapping_check_reserved(&m, s->w, s->a, s->reserved))
					continue;
				loc.valid += p.total;
				/* optional utilisation constraints (TRIM's pruning): factors and
				 * bypass decide them, so they cut every order below */
				if ((s->min_pe_util > 0 && trim__mapspace_pe_util(s, &m) < s->min_pe_util) ||
				    (s->min_rf_util > 0 && trim__mapspace_rf_util(s, &m) < s->min_rf_util)) {
					loc.pruned += p.total;
					continue;
				}
				const uint64_t base = (fc << s->nbyp) | b; /* index without the orders */
				for (uint64_t oc = 0; oc < p.total; oc++) {
					uint64_t r = oc;
					for (int k = s->nord - 1; k >= 0; k--) {
						apply_order(s, &p, k, r % p.radix[k], &m);
						r /= p.radix[k];
					}
					int rc = trim__eval_run(s->w, s->a, costs, &m, &ws, &ev);
					if (rc == TRIM_EINVAL) {
						loc.unsupported++; /* outside the analytic model's scope */
						continue;
					}
					if (rc) {
						lerr = rc;
						break;
					}
					loc.evaluated++;
					uint64_t idx = base;
					for (int k = 0; k < s->nord; k++)
						idx = idx * s->nperm + order_code(s, &m, s->ord_level[k]);
					double c = cost_of(&ev, goal);
					if (k)
						top_insert(k, &ltop, lcost, lidx, lmap, c, idx, &m);
					if (better(c, idx, loc.best_cost, loc.best_index, loc.found)) {
						loc.found = 1;
						loc.best_cost = c;
						loc.best_index = idx;
						loc.best = m;
						loc.best_eval = ev;
					}
				}
			}
		}
		trim__eval_ws_free(&ws);
#pragma omp critical
		{
			if (lerr && !err)
				err = lerr;
			out->generated += loc.generated;
			out->valid += loc.valid;
			out->evaluated += loc.evaluated;
			out->pruned += loc.pruned;
			out->unsupported += loc.unsupported;
			if (loc.found && better(loc.best_cost, loc.best_index, out->best_cost, out->best_index, out->found)) {
				out->found = 1;
				out->best_cost = loc.best_cost;
				out->best_index = loc.best_index;
				out->best = loc.best;
				out->best_eval = loc.best_eval;
			}
			for (size_t j = 0; j < ltop; j++)
				top_insert(k, &out->ntop, out->top_cost, out->top_index, out->top, lcost[j],
				           lidx[j], &lmap[j]);
		}
		free(lcost);
		free(lidx);
		free(lmap);
	}
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
