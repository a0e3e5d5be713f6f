/*
 * The mapspace of one intra-layer workload: the ordered factorisations of
 * every dim's bound over the levels with loops, the keep bits and ordered
 * levels of the index (lib/mapspace_int.h), custom factors (pins), the
 * dataflow constraints' row filter, and the utilisation of a mapping.
 */
#include "search_int.h"

/* Ordered factorisations of b over k slots, lexicographic (slot 0 first,
 * ascending). Writes rows into out (if not NULL); returns the count. */
static int64_t list_factorisations(int64_t b, int k, int64_t *row, int depth, int64_t *out, int64_t n)
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
			n = list_factorisations(b / d, k, row, depth + 1, out, n);
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

static int mul_overflows(uint64_t a, uint64_t b, uint64_t *out)
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
			/* a level's order is part of the index only if some level
			 * below may hold a tensor (else every order is one class) */
			int below = 0;
			for (int k = l + 1; k < a->nlevels; k++)
				for (int t = 0; t < 3; t++)
					below |= a->lv[k].type == TRIM__LVL_STORAGE && a->lv[k].keep[t] && w->t[t].present;
			if (below)
				s->ord_level[s->nord++] = l;
			if (l > 0)
				for (int t = 0; t < 3; t++)
					if (a->lv[l].keep[t] && w->t[t].present) {
						s->byp_level[s->nbyp] = l;
						s->byp_slot[s->nbyp++] = t;
					}
		}
	}
	for (int t = 0; t < 3; t++) {
		unsigned any = 0;
		for (int i = 0; w->t[t].present && i < w->t[t].ndims; i++) {
			const trim__iexpr *e = &w->t[t].idx[i];
			for (int j = 0; j < e->nterms; j++)
				any |= 1u << e->dim[j];
			if (e->nterms == 1)
				s->dsingle[t] |= 1u << e->dim[0];
		}
		s->dwindow[t] = any & ~s->dsingle[t];
	}
	if (s->nslots == 0 || a->lv[0].type != TRIM__LVL_STORAGE)
		return trim__error(TRIM_EINVAL, "mapspace: the architecture has no outer storage level");
	{
		int n = 0;
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < s->nslots; i++)
				if ((a->lv[s->slot[i]].type == TRIM__LVL_SPATIAL) == !pass)
					s->tord[n++] = i;
	}
	int64_t row[TRIM__MAX_LEVELS];
	s->nfact = 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (w->bound[d] < 1)
			return trim__error(TRIM_EINVAL, "mapspace: bound of dim %d is %lld", d, (long long)w->bound[d]);
		s->nf[d] = list_factorisations(w->bound[d], s->nslots, row, 0, NULL, 0);
		s->fact[d] = malloc((size_t)(s->nf[d] * s->nslots) * sizeof(int64_t));
		if (!s->fact[d]) {
			trim__mapspace_free(s);
			return trim__error(TRIM_ENOMEM, "mapspace: out of memory");
		}
		list_factorisations(w->bound[d], s->nslots, row, 0, s->fact[d], 0);
		s->rows[d] = malloc((size_t)s->nf[d] * sizeof(int64_t));
		if (!s->rows[d]) {
			trim__mapspace_free(s);
			return trim__error(TRIM_ENOMEM, "mapspace: out of memory");
		}
		for (int64_t r = 0; r < s->nf[d]; r++)
			s->rows[d][r] = r;
		s->nrows[d] = s->nf[d];
		if (mul_overflows(s->nfact, (uint64_t)s->nf[d], &s->nfact))
			goto big;
		if (w->bound[d] > 1)
			s->dims[s->n++] = d;
	}
	s->nperm = trim__factorial(s->n);
	s->size = s->nfact;
	if (s->nbyp >= 63 || __builtin_mul_overflow(s->size, (trim__index)1 << s->nbyp, &s->size))
		goto big;
	for (int k = 0; k < s->nord; k++)
		if (__builtin_mul_overflow(s->size, (trim__index)s->nperm, &s->size))
			goto big;
	return 0;
big:
	trim__mapspace_free(s);
	return trim__error(TRIM_ERANGE, "mapspace: more than 2^128 raw mappings (no index)");
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
	if (trim__mapspace_filter_rows(s, dim)) {
		s->pin[level][dim] = old;
		return trim__error(TRIM_ENOFIT, "mapspace: no factorisation of %c = %lld has %c = %lld at level %s (with the other fixed factors)",
		                   "NGMCEFRS"[dim], (long long)s->w->bound[dim], "NGMCEFRS"[dim],
		                   (long long)bound, s->a->lv[level].name);
	}
	return 0;
}

int trim__mapspace_filter_rows(trim__mapspace *s, int dim)
{
	int64_t n = 0;
	for (int pass = 0; pass < 2; pass++) { /* count, then write (rows unchanged on failure) */
		n = 0;
		for (int64_t r = 0; r < s->nf[dim]; r++) {
			int ok = 1;
			for (int i = 0; i < s->nslots && ok; i++) {
				int64_t p = s->pin[s->slot[i]][dim], mx = s->fmax[s->slot[i]][dim];
				int64_t f = s->fact[dim][r * s->nslots + i];
				ok = (p == 0 || f == p) && (mx == 0 || f <= mx);
			}
			if (ok && pass)
				s->rows[dim][n] = r;
			n += ok;
		}
		if (n == 0)
			return TRIM_ENOFIT;
	}
	s->nrows[dim] = n;
	return 0;
}

void trim__mapspace_unconstrain(trim__mapspace *s)
{
	memset(s->pin, 0, sizeof s->pin);
	memset(s->fmax, 0, sizeof s->fmax);
	memset(s->cperm, 0, sizeof s->cperm);
	memset(s->ncperm, 0, sizeof s->ncperm);
	memset(s->axis, 0, sizeof s->axis);
	s->byp_fixmask = s->byp_fixval = 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		trim__mapspace_filter_rows(s, d);
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
		/* a partitioned level: of the partitions the workload can use (a
		 * pool has no weights: their partition cannot be filled) */
		int64_t cap = L->capacity_bytes;
		if (L->partitioned) {
			cap = 0;
			for (int t = 0; t < 3; t++)
				if (L->keep[t] && s->w->t[t].present)
					cap += L->part_bytes[t];
			if (cap <= 0)
				return 1;
		}
		return (double)bytes / (double)cap;
	}
	return 1; /* no bounded level: nothing to constrain */
}
