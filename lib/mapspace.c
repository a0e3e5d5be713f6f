/*
 * The mapspace (canonical mapping <-> index) and the exhaustive,
 * deterministic OpenMP search. See lib/mapspace_int.h for the index layout.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mapspace_int.h"

static uint64_t fact_u64(int n)
{
	static const uint64_t small[] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};
	if (n < 9)
		return small[n > 0 ? n : 0];
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
		return (double)bytes / (double)L->capacity_bytes;
	}
	return 1; /* no bounded level: nothing to constrain */
}

/* ---- pieces of a mapping --------------------------------------------------- */

/* First X/Y split (dims in order, X bound ascending) that fits, with dim d
 * along X only if axis[d] == 1, along Y only if 2; 1 if found. */
static int split_dfs(const trim__level *L, const uint8_t *axis, const int64_t *f, int d, int64_t px,
                     int64_t py, int64_t *fx, int64_t *fy)
{
	if (d == TRIM_NDIMS)
		return 1;
	int64_t X = L->fanout_x > 0 ? L->fanout_x : 1, Y = L->fanout_y > 0 ? L->fanout_y : 1;
	for (int64_t x = 1; x <= f[d]; x++) {
		if (f[d] % x || (axis[d] == 1 && x != f[d]) || (axis[d] == 2 && x != 1))
			continue;
		int64_t y = f[d] / x;
		if (px * x > X || py * y > Y)
			continue;
		fx[d] = x;
		fy[d] = y;
		if (split_dfs(L, axis, f, d + 1, px * x, py * y, fx, fy))
			return 1;
	}
	return 0;
}

static int set_split(const trim__mapspace *s, trim__mapping *m, int l)
{
	const struct trim_arch *a = s->a;
	if (split_dfs(&a->lv[l], s->axis[l], m->f[l], 0, 1, 1, m->fx[l], m->fy[l]))
		return 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		m->fx[l][d] = m->f[l][d];
		m->fy[l][d] = 1;
	}
	return 0;
}

/* Position of the idx-th (from 0) entry not in the mask `used` (Lehmer
 * decoding without moving a list). */
static int nth_free(unsigned used, int idx)
{
	int j = 0;
	for (;; j++)
		if (!(used >> j & 1) && idx-- == 0)
			return j;
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
			ok &= set_split(s, m, s->slot[i]);
	return ok;
}

/* The bypass-choice filter of the dataflow constraints (forced keep bits). */
#define BYP_OK(s, b) (((b) & (s)->byp_fixmask) == (s)->byp_fixval)

static void set_keeps(const trim__mapspace *s, uint64_t bmask, trim__mapping *m)
{
	for (int j = 0; j < s->nbyp; j++)
		m->keep[s->byp_level[j]][s->byp_slot[j]] = (int)((bmask >> (s->nbyp - 1 - j)) & 1);
}

/* Order of level l from the permutation `code` (Lehmer) of the dims > 1. */
static void set_order(const trim__mapspace *s, trim__mapping *m, int l, uint64_t code)
{
	int k = 0, used[TRIM_NDIMS] = {0};
	unsigned taken = 0; /* positions of s->dims */
	for (int i = 0; i < s->n; i++) {
		uint64_t f = fact_u64(s->n - 1 - i);
		int j = nth_free(taken, (int)(code / f));
		code %= f;
		taken |= 1u << j;
		m->order[l][k++] = s->dims[j];
		used[s->dims[j]] = 1;
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!used[d])
			m->order[l][k++] = d;
}

/* Lehmer code of level l's order restricted to the dims > 1. */
static uint64_t order_code(const trim__mapspace *s, const trim__mapping *m, int l)
{
	/* s->dims ascending: a dim's digit is the number of unused dims > 1
	 * below it */
	unsigned avail = 0;
	for (int j = 0; j < s->n; j++)
		avail |= 1u << s->dims[j];
	uint64_t code = 0;
	int i = 0;
	for (int k = 0; k < TRIM_NDIMS; k++) {
		int d = m->order[l][k];
		if (!(avail >> d & 1))
			continue;
		int below = 0;
		for (unsigned x = avail & ((1u << d) - 1); x; x &= x - 1)
			below++;
		code += (uint64_t)below * fact_u64(s->n - 1 - i);
		avail &= ~(1u << d);
		i++;
	}
	return code;
}

static void fixed_orders(const trim__mapspace *s, trim__mapping *m);

char *trim__index_str(trim__index i, char *buf)
{
	char tmp[48];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + (int)(i % 10));
		i /= 10;
	} while (i);
	for (int j = 0; j < n; j++)
		buf[j] = tmp[n - 1 - j];
	buf[n] = 0;
	return buf;
}

int trim__mapspace_decode(const trim__mapspace *s, trim__index index, trim__mapping *m)
{
	if (index >= s->size) {
		char a[48], b[48];
		return trim__error(TRIM_ERANGE, "mapspace: index %s >= size %s", trim__index_str(index, a),
		                   trim__index_str(s->size, b));
	}
	trim__mapping_init(m, s->a);
	fixed_orders(s, m);
	uint64_t codes[TRIM__MAX_LEVELS];
	for (int k = s->nord - 1; k >= 0; k--) {
		codes[k] = (uint64_t)(index % s->nperm);
		index /= s->nperm;
	}
	uint64_t bmask = (uint64_t)(index & (((trim__index)1 << s->nbyp) - 1));
	uint64_t fc = (uint64_t)(index >> s->nbyp);
	set_facts(s, fc, m);
	set_keeps(s, bmask, m);
	for (int k = 0; k < s->nord; k++)
		set_order(s, m, s->ord_level[k], codes[k]);
	return 0;
}

int trim__mapspace_encode(const trim__mapspace *s, const trim__mapping *m, trim__index *index)
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
	trim__index idx = fc;
	for (int j = 0; j < s->nbyp; j++)
		idx = idx * 2 + (trim__index)(m->keep[s->byp_level[j]][s->byp_slot[j]] != 0);
	for (int k = 0; k < s->nord; k++)
		idx = idx * s->nperm + order_code(s, m, s->ord_level[k]);
	*index = idx;
	return 0;
}

/* ---- order classes (docs/model.md, "Mapspace and search") ------------------- */

/* Tensors with a holder strictly below storage level l (bit t). */
static unsigned holders_below(const trim__mapspace *s, const trim__mapping *m, int l)
{
	unsigned hb = 0;
	for (int k = l + 1; k < m->nlevels; k++)
		if (m->type[k] == TRIM__LVL_STORAGE)
			for (int t = 0; t < 3; t++)
				if (m->keep[k][t] && s->w->t[t].present)
					hb |= 1u << t;
	return hb;
}

enum { SIGLEN = 64 };

/* Signature of the order o[0..k) (outermost first, loops of bound > 1) of a
 * level for the tensors hb: per tensor, from the innermost loop outwards up
 * to its first loop on a single-term dim, the window dims in sequence and
 * each run of irrelevant dims as a set; then whether a single-term loop
 * ended it. Returns the length. */
static int level_sig(const trim__mapspace *s, const int *o, int k, unsigned hb, uint8_t *sig)
{
	int n = 0;
	for (int t = 0; t < 3; t++) {
		if (!(hb >> t & 1))
			continue;
		unsigned run = 0;
		int ended = 0;
		sig[n++] = (uint8_t)(0xE0 | t);
		for (int i = k - 1; i >= 0 && !ended; i--) {
			int d = o[i];
			if (s->dsingle[t] >> d & 1) {
				ended = 1;
			} else if (s->dwindow[t] >> d & 1) {
				if (run) {
					sig[n++] = 0xC0;
					sig[n++] = (uint8_t)run;
					run = 0;
				}
				sig[n++] = (uint8_t)d;
			} else {
				run |= 1u << d;
			}
		}
		if (run) {
			sig[n++] = 0xC0;
			sig[n++] = (uint8_t)run;
		}
		sig[n++] = ended ? 0xF1 : 0xF2;
	}
	return n;
}

/* Permutation `code` (Lehmer, lexicographic) of dl[0..k) into o. */
static void perm_of(const int *dl, int k, uint64_t code, int *o)
{
	unsigned taken = 0; /* positions of dl */
	uint32_t c = (uint32_t)code; /* < k! <= 8! */
	for (int i = 0; i < k; i++) {
		uint32_t f = (uint32_t)fact_u64(k - 1 - i);
		int j = nth_free(taken, (int)(c / f));
		c %= f;
		taken |= 1u << j;
		o[i] = dl[j];
	}
}

/* 1 if the loops o[0..k) (outermost first) of storage level l obey its
 * permutation constraint: the constrained dims it has are its innermost
 * loops, in the constraint's order. */
static int perm_ok(const trim__mapspace *s, int l, const int *o, int k)
{
	unsigned have = 0;
	for (int i = 0; i < k; i++)
		have |= 1u << o[i];
	int j = k - 1;
	for (int i = 0; i < s->ncperm[l]; i++) {
		int d = s->cperm[l][i];
		if (!(have >> d & 1))
			continue;
		if (o[j--] != d)
			return 0;
	}
	return 1;
}

/* Move the constrained loops of o[0..k) innermost, in order (others keep
 * their relative order outside them). */
static void perm_fix(const trim__mapspace *s, int l, int *o, int k)
{
	unsigned cons = 0, have = 0;
	int r[TRIM_NDIMS], n = 0;
	for (int i = 0; i < s->ncperm[l]; i++)
		cons |= 1u << s->cperm[l][i];
	for (int i = 0; i < k; i++) {
		have |= 1u << o[i];
		if (!(cons >> o[i] & 1))
			r[n++] = o[i];
	}
	for (int i = s->ncperm[l] - 1; i >= 0; i--)
		if (have >> s->cperm[l][i] & 1)
			r[n++] = s->cperm[l][i];
	memcpy(o, r, (size_t)k * sizeof *o);
}

/* The orders of the storage levels outside the index (nothing below them
 * may hold a tensor: every order is one class): the dims in canonical
 * order, with the permutation constraint's dims moved innermost. */
static void fixed_orders(const trim__mapspace *s, trim__mapping *m)
{
	int k = 0;
	for (int l = 0; l < s->a->nlevels; l++) {
		if (s->a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		if (k < s->nord && s->ord_level[k] == l) {
			k++;
			continue;
		}
		int o[TRIM_NDIMS];
		for (int d = 0; d < TRIM_NDIMS; d++)
			o[d] = d;
		perm_fix(s, l, o, TRIM_NDIMS);
		memcpy(m->order[l], o, sizeof o);
	}
}

/* A mapping of the space with every factor 1 and every order fixed by the
 * index layout set (trim__mapping_init, then fixed_orders). */
static void ms_mapping_init(const trim__mapspace *s, trim__mapping *m)
{
	trim__mapping_init(m, s->a);
	fixed_orders(s, m);
}

/* The classes of the orders of one set of dims (mask) for the tensors hb:
 * the smallest code of each, ascending, and the signatures for look-up.
 * Only the orders that obey storage level ord_level[k]'s permutation
 * constraint are members (equal signatures still give equal activities). */
typedef struct {
	int n, k;
	unsigned hb;    /* tensors with a holder below the level */
	int dl[TRIM_NDIMS];
	uint32_t *rep;
	uint8_t *sig;   /* n * SIGLEN */
	uint8_t *len;
	int32_t *slot;  /* hash: class index or -1 */
	uint32_t nslot;
	/* per tensor: the class of each class's signature restricted to that
	 * tensor (its counts depend on nothing else of this level's order) */
	uint16_t *pid[3];
	int npid[3];
	uint8_t *psig[3];   /* npid * SIGLEN: the single-tensor signatures */
	uint8_t *plen[3];
	/* per tensor: the classes grouped by projection (ascending class
	 * index within a group): those of projection u are
	 * pcls[t][poff[t][u] .. poff[t][u + 1]) */
	uint32_t *pcls[3];
	uint32_t *poff[3];
} octab;

static uint32_t sig_hash(const uint8_t *sig, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ sig[i]) * 16777619u;
	return h;
}

/* Class index of a signature, or -1. */
static int oct_find(const octab *tb, const uint8_t *sig, int n, uint32_t *where)
{
	uint32_t h = sig_hash(sig, n) & (tb->nslot - 1);
	for (;; h = (h + 1) & (tb->nslot - 1)) {
		int32_t c = tb->slot[h];
		if (c < 0 || (tb->len[c] == n && !memcmp(tb->sig + (size_t)c * SIGLEN, sig, (size_t)n))) {
			if (where)
				*where = h;
			return c;
		}
	}
}

static void oct_free(octab *tb)
{
	if (!tb)
		return;
	free(tb->rep);
	free(tb->sig);
	free(tb->len);
	free(tb->slot);
	for (int t = 0; t < 3; t++) {
		free(tb->pid[t]);
		free(tb->psig[t]);
		free(tb->plen[t]);
		free(tb->pcls[t]);
		free(tb->poff[t]);
	}
	free(tb);
}

static octab *oct_build(const trim__mapspace *s, int lk, unsigned mask, unsigned hb)
{
	octab *tb = calloc(1, sizeof *tb);
	if (!tb)
		return NULL;
	tb->hb = hb;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (mask >> d & 1)
			tb->dl[tb->k++] = d;
	uint64_t np = fact_u64(tb->k);
	tb->nslot = 16;
	while (tb->nslot < 2 * np)
		tb->nslot *= 2;
	tb->rep = malloc(np * sizeof *tb->rep);
	tb->sig = malloc(np * SIGLEN);
	tb->len = malloc(np);
	tb->slot = malloc(tb->nslot * sizeof *tb->slot);
	if (!tb->rep || !tb->sig || !tb->len || !tb->slot) {
		oct_free(tb);
		return NULL;
	}
	memset(tb->slot, 0xff, tb->nslot * sizeof *tb->slot);
	for (uint64_t code = 0; code < np; code++) {
		int o[TRIM_NDIMS];
		uint8_t sig[SIGLEN];
		perm_of(tb->dl, tb->k, code, o);
		if (!perm_ok(s, s->ord_level[lk], o, tb->k))
			continue;
		int n = level_sig(s, o, tb->k, hb, sig);
		uint32_t at;
		if (oct_find(tb, sig, n, &at) >= 0)
			continue;
		tb->slot[at] = tb->n;
		tb->rep[tb->n] = (uint32_t)code;
		memcpy(tb->sig + (size_t)tb->n * SIGLEN, sig, (size_t)n);
		tb->len[tb->n] = (uint8_t)n;
		tb->n++;
	}
	/* per-tensor projections: the distinct single-tensor signatures in
	 * order of first appearance */
	uint8_t *usig = malloc((size_t)tb->n * SIGLEN);
	uint8_t *ulen = malloc((size_t)tb->n);
	for (int t = 0; t < 3; t++) {
		tb->pid[t] = calloc((size_t)tb->n, sizeof *tb->pid[t]);
		if (!tb->pid[t] || !usig || !ulen) {
			free(usig);
			free(ulen);
			oct_free(tb);
			return NULL;
		}
		tb->npid[t] = 1;
		if (!(hb >> t & 1))
			continue;
		int nu = 0;
		for (int c = 0; c < tb->n; c++) {
			int o[TRIM_NDIMS];
			uint8_t sig[SIGLEN];
			perm_of(tb->dl, tb->k, tb->rep[c], o);
			int n = level_sig(s, o, tb->k, 1u << t, sig);
			int u = 0;
			while (u < nu && !(ulen[u] == n && !memcmp(usig + (size_t)u * SIGLEN, sig, (size_t)n)))
				u++;
			if (u == nu) {
				memcpy(usig + (size_t)nu * SIGLEN, sig, (size_t)n);
				ulen[nu++] = (uint8_t)n;
			}
			tb->pid[t][c] = (uint16_t)u;
		}
		tb->npid[t] = nu;
		tb->psig[t] = malloc((size_t)nu * SIGLEN);
		tb->plen[t] = malloc((size_t)nu);
		if (!tb->psig[t] || !tb->plen[t]) {
			free(usig);
			free(ulen);
			oct_free(tb);
			return NULL;
		}
		memcpy(tb->psig[t], usig, (size_t)nu * SIGLEN);
		memcpy(tb->plen[t], ulen, (size_t)nu);
	}
	free(usig);
	for (int t = 0; t < 3; t++) { /* group the classes by projection (counting sort) */
		tb->pcls[t] = malloc((size_t)(tb->n > 0 ? tb->n : 1) * sizeof *tb->pcls[t]);
		tb->poff[t] = calloc((size_t)tb->npid[t] + 1, sizeof *tb->poff[t]);
		if (!tb->pcls[t] || !tb->poff[t]) {
			free(ulen);
			oct_free(tb);
			return NULL;
		}
		for (int c = 0; c < tb->n; c++)
			tb->poff[t][tb->pid[t][c] + 1]++;
		for (int u = 0; u < tb->npid[t]; u++)
			tb->poff[t][u + 1] += tb->poff[t][u];
		for (int c = 0; c < tb->n; c++)
			tb->pcls[t][tb->poff[t][tb->pid[t][c]]++] = (uint32_t)c;
		for (int u = tb->npid[t]; u > 0; u--) /* back to group starts */
			tb->poff[t][u] = tb->poff[t][u - 1];
		tb->poff[t][0] = 0;
	}
	free(ulen);
	return tb;
}

/* Per-thread cache of class tables by (storage level, dims mask, hb). */
typedef struct {
	octab **tab; /* nord * 256 * 8 */
	int nord;
} occache;

static int occ_init(occache *c, const trim__mapspace *s)
{
	c->nord = s->nord;
	c->tab = calloc((size_t)(s->nord > 0 ? s->nord : 1) * 256 * 8, sizeof *c->tab);
	return c->tab ? 0 : TRIM_ENOMEM;
}

static void occ_free(occache *c)
{
	if (!c->tab)
		return;
	for (int i = 0; i < c->nord * 256 * 8; i++)
		oct_free(c->tab[i]);
	free(c->tab);
	c->tab = NULL;
}

static const octab *occ_get(occache *c, const trim__mapspace *s, int k, unsigned mask, unsigned hb)
{
	octab **p = &c->tab[((size_t)k * 256 + mask) * 8 + hb];
	if (!*p)
		*p = oct_build(s, k, mask, hb);
	return *p;
}

/* Dims with bound > 1 at level l. */
static unsigned level_mask(const trim__mapping *m, int l)
{
	unsigned mask = 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (m->f[l][d] > 1)
			mask |= 1u << d;
	return mask;
}

/* Level l's order: dims of bound > 1 as in o[0..k), then the others in
 * canonical order (bound 1 here but > 1 in the workload, then bound 1). */
static void put_order(const trim__mapspace *s, trim__mapping *m, int l, const int *o, int k)
{
	int r[TRIM_NDIMS], n = k;
	memcpy(r, o, (size_t)k * sizeof *o);
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (m->f[l][d] == 1 && s->w->bound[d] > 1)
			r[n++] = d;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (s->w->bound[d] == 1)
			r[n++] = d;
	memcpy(m->order[l], r, sizeof r);
}

/* The representative of m's class at every storage level: with a cache
 * (hash look-up), or (c NULL) by scanning the codes upwards. */
static int canonicalize(const trim__mapspace *s, trim__mapping *m, occache *c)
{
	fixed_orders(s, m);
	for (int k = 0; k < s->nord; k++) {
		int l = s->ord_level[k], o[TRIM_NDIMS], n = 0, dl[TRIM_NDIMS], nd = 0;
		unsigned hb = holders_below(s, m, l), mask = level_mask(m, l);
		for (int i = 0; i < TRIM_NDIMS; i++)
			if (m->f[l][m->order[l][i]] > 1)
				o[n++] = m->order[l][i];
		if (!perm_ok(s, l, o, n))
			perm_fix(s, l, o, n);
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (mask >> d & 1)
				dl[nd++] = d;
		uint8_t sig[SIGLEN], sg[SIGLEN];
		int len = level_sig(s, o, n, hb, sig);
		if (c) {
			const octab *tb = occ_get(c, s, k, mask, hb);
			if (!tb)
				return TRIM_ENOMEM;
			int ci = oct_find(tb, sig, len, NULL);
			perm_of(dl, nd, tb->rep[ci], o);
		} else {
			uint64_t np = fact_u64(nd);
			for (uint64_t code = 0; code < np; code++) {
				int q[TRIM_NDIMS];
				perm_of(dl, nd, code, q);
				if (perm_ok(s, l, q, nd) && level_sig(s, q, nd, hb, sg) == len && !memcmp(sg, sig, (size_t)len)) {
					memcpy(o, q, sizeof q);
					break;
				}
			}
		}
		put_order(s, m, l, o, n);
	}
	return 0;
}

void trim__mapspace_canonical(const trim__mapspace *s, trim__mapping *m)
{
	canonicalize(s, m, NULL);
}

/* ---- search ----------------------------------------------------------------- */

static double cost_of(const trim__eval *e, int goal)
{
	return goal == TRIM__GOAL_ENERGY ? e->energy_pj
	       : goal == TRIM__GOAL_DELAY ? e->cycles : e->energy_pj * e->cycles;
}

static int better(double c, trim__index i, double bc, trim__index bi, int have)
{
	return !have || c < bc || (c == bc && i < bi);
}

/* Per level: the class table of its dims > 1, and how many orders to try. */
typedef struct {
	const octab *tab[TRIM__MAX_LEVELS];
	uint64_t radix[TRIM__MAX_LEVELS];
	uint64_t total;
} ordplan;

static int plan_orders(const trim__mapspace *s, const trim__mapping *m, occache *c, ordplan *p)
{
	p->total = 1;
	for (int k = 0; k < s->nord; k++) {
		int l = s->ord_level[k];
		p->tab[k] = occ_get(c, s, k, level_mask(m, l), holders_below(s, m, l));
		if (!p->tab[k])
			return TRIM_ENOMEM;
		p->radix[k] = (uint64_t)p->tab[k]->n;
		p->total *= p->radix[k];
	}
	return 0;
}

/* Order of level k: the representative of class `code`. */
static void apply_order(const trim__mapspace *s, const ordplan *p, int k, uint64_t code,
                        trim__mapping *m)
{
	const octab *tb = p->tab[k];
	int o[TRIM_NDIMS];
	perm_of(tb->dl, tb->k, tb->rep[code], o);
	put_order(s, m, s->ord_level[k], o, tb->k);
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
	/* fcb_fast_prepare (when every tensor has at most FCB_FAST choices):
	 * per tensor and choice its dynamic energy and the words it moves per
	 * level (storage: read side, write side; spatial: words on the links);
	 * per factorisation the compute cycles, MAC energy, leakage per cycle
	 * and active instances */
	int fast;
	double E[3][64];
	double RD[3][64][TRIM__MAX_LEVELS], WR[3][64][TRIM__MAX_LEVELS];
	double comp_cyc, mac_pj, leak, inst[TRIM__MAX_LEVELS];
} fcbound;
enum { FCB_FAST = 64 };

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

/* The per-choice figures of fb->fast from fb->lo (after fcb_compute): the
 * evaluator's formulas (trim__eval_act) split by tensor. ev: scratch. */
static void fcb_fast_prepare(const trim__mapspace *s, fcbound *fb, int64_t zero_macs,
                             const trim__level_cost *costs, const trim__mapping *m, trim__eval *ev)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	fb->fast = 1;
	for (int t = 0; t < 3; t++)
		fb->fast &= fb->nch[t] <= FCB_FAST;
	if (!fb->fast)
		return;
	int first = 1;
	for (int t = 0; t < 3; t++)
		for (int c = 0; c < fb->nch[t]; c++) {
			if (!fb->ok[t][c])
				continue;
			const trim__activity *y = &fb->lo[t][c];
			ev->act = *y;
			ev->act.zero_macs = zero_macs;
			trim__eval_act(s->w, a, costs, m, ev);
			double e = 0;
			for (int l = 0; l < nl; l++) {
				const trim__level *L = &a->lv[l];
				fb->RD[t][c][l] = fb->WR[t][c][l] = 0;
				if (L->type == TRIM__LVL_STORAGE) {
					e += ev->dyn_pj[l][t];
					fb->RD[t][c][l] = (double)(y->reads[l][t] + y->drains[l][t]);
					fb->WR[t][c][l] = (double)(y->fills[l][t] + y->updates[l][t]);
				} else if (L->type == TRIM__LVL_SPATIAL) {
					e += ev->dyn_pj[l][t];
					fb->RD[t][c][l] = (double)(y->down_words[l][t] + y->up_out[l][t]);
				}
			}
			fb->E[t][c] = e;
			if (first) {
				first = 0;
				fb->mac_pj = ev->mac_pj;
				fb->comp_cyc = ev->level_cycles[nl - 1];
				fb->leak = 0;
				for (int l = 0; l < nl; l++) {
					fb->leak += costs[l].leak_pj_per_cycle * (double)(a->lv[l].instances > 0 ? a->lv[l].instances : 1);
					fb->inst[l] = (double)y->instances[l];
				}
			}
		}
}

/* The evaluator's cycles (trim__eval_act) from the words read and written
 * per storage level and carried per spatial level (rd), with fb's compute
 * cycles and active instances. */
static double words_cycles(const trim__mapspace *s, const fcbound *fb, const double *rd, const double *wr)
{
	const struct trim_arch *a = s->a;
	double y = fb->comp_cyc;
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		double lc = 0;
		if (L->type == TRIM__LVL_STORAGE) {
			double rc_ = L->read_bw > 0 ? rd[l] / (L->read_bw * fb->inst[l]) : 0;
			double wc = L->write_bw > 0 ? wr[l] / (L->write_bw * fb->inst[l]) : 0;
			lc = rc_ > wc ? rc_ : wc;
		} else if (L->type == TRIM__LVL_SPATIAL) {
			int64_t bits = a->word_bits > 0 ? a->word_bits : 16;
			double bw = L->link_bits > 0 ? (double)L->link_bits / (double)bits : 0;
			lc = bw > 0 && fb->inst[l] > 0 ? rd[l] / (bw * fb->inst[l]) : 0;
		}
		if (lc > y)
			y = lc;
	}
	return y;
}

/* fcb_cost from the per-choice figures (fb->fast): the same bound up to the
 * order of the sums (hence the margin). */
static int fcb_fast(const trim__mapspace *s, const fcbound *fb, const int *ch, int goal, double *lb)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	double rd[TRIM__MAX_LEVELS] = {0}, wr[TRIM__MAX_LEVELS] = {0}, e = 0;
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		int have = 0;
		double emin = 0, r[TRIM__MAX_LEVELS], q[TRIM__MAX_LEVELS];
		for (int c = 0; c < fb->nch[t]; c++) {
			if ((ch && c != ch[t]) || !fb->ok[t][c])
				continue;
			for (int l = 0; l < nl; l++) {
				if (!have || fb->RD[t][c][l] < r[l])
					r[l] = fb->RD[t][c][l];
				if (!have || fb->WR[t][c][l] < q[l])
					q[l] = fb->WR[t][c][l];
			}
			if (!have || fb->E[t][c] < emin)
				emin = fb->E[t][c];
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
	double cyc = words_cycles(s, fb, rd, wr);
	double energy = e + fb->mac_pj + fb->leak * cyc;
	double v = goal == TRIM__GOAL_ENERGY ? energy : goal == TRIM__GOAL_DELAY ? cyc : energy * cyc;
	*lb = v * (1 - 1e-9);
	return 0;
}

/* The cycle part of fcb_fast for bypass mask b. */
static void fcb_fast_cycles(const trim__mapspace *s, const fcbound *fb, uint64_t b, double *cyc)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	double rd[TRIM__MAX_LEVELS] = {0}, wr[TRIM__MAX_LEVELS] = {0};
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		int c = fcb_choice(s, fb, t, b);
		for (int l = 0; l < nl; l++) {
			rd[l] += fb->RD[t][c][l];
			wr[l] += fb->WR[t][c][l];
		}
	}
	*cyc = words_cycles(s, fb, rd, wr) * (1 - 1e-9);
}

/* Cost lower bound from per-tensor count bounds: choice ch[t] per tensor, or
 * (ch NULL) the count-wise minimum over every in-scope choice. Returns
 * 0 with *lb set, or 1 if some tensor has no in-scope choice. */
static int fcb_cost(const trim__mapspace *s, const fcbound *fb, const int *ch, int64_t zero_macs,
                    const trim__level_cost *costs, const trim__mapping *m, int goal, trim__eval *ev,
                    double *lb)
{
	/* only the rows of the architecture's levels are written (the others
	 * stay 0 from the worker's calloc and are not read) */
	trim__activity *x = &ev->act;
	const int nl = m->nlevels;
	int first = 1;
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present) {
			for (int i = 0; i < NARR; i++) {
				int64_t (*dst)[3] = act_arr(x, i);
				for (int l = 0; l < nl; l++)
					dst[l][t] = 0;
			}
			continue;
		}
		int have = 0;
		for (int c = 0; c < fb->nch[t]; c++) {
			if ((ch && c != ch[t]) || !fb->ok[t][c])
				continue;
			const trim__activity *y = &fb->lo[t][c];
			if (first) { /* macs, steps, instances: the same for every tensor */
				x->macs = y->macs;
				x->zero_macs = y->zero_macs;
				x->steps = y->steps;
				x->active_pes = y->active_pes;
				memcpy(x->instances, y->instances, (size_t)nl * sizeof *x->instances);
				first = 0;
			}
			for (int i = 0; i < NARR; i++) {
				int64_t (*dst)[3] = act_arr(x, i);
				int64_t (*src)[3] = act_arr((trim__activity *)y, i);
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
	trim__eval_act(s->w, s->a, costs, m, ev);
	*lb = cost_of(ev, goal);
	return 0;
}

/* A t-stationary order at every storage level: the dims > 1 relevant to t
 * outermost, the others inside (then the canonical form). */
static int stationary_orders(const trim__mapspace *s, trim__mapping *m, int t, occache *c)
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
	return canonicalize(s, m, c);
}

/* A list of at most k (cost, index) by (cost, index); k >= 1. */
typedef struct {
	size_t k, n;
	double *cost;
	trim__index *idx;
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
static void top_put(toplist *t, double c, trim__index i, const trim__mapping *m)
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

/* Per factorisation: each tensor's exact counts by (tensor, its keep
 * choice, its own signature at every level), which is all they depend on
 * (open addressing over entries of the current generation; the counts,
 * their energy and state live in vectors indexed by entry number). */
enum { TC_KEY = 8 + TRIM__MAX_LEVELS * 24 };
typedef struct {
	uint32_t gen;
	int32_t vi;              /* index into the vectors */
	uint16_t len;
	uint8_t key[TC_KEY];
} tcent;
typedef struct {
	uint32_t cap, gen;       /* cap: a power of 2 */
	int nl;
	tcent *ent;
	int32_t nv, vcap;
	int64_t *val;            /* nv * NARR * nl counts */
	double *energy;          /* nv: the tensor's dynamic energy (pJ) */
	double *words;           /* nv * 2 * nl: per level the words read and written
	                            (storage) or carried (spatial, in the first) */
	uint8_t *state;          /* nv: 1 counted, 2 outside the model */
	/* per bypass choice: per tensor, the entry of each combination of its
	 * per-level projected classes (-1: not looked up yet) */
	int32_t *pk[3];
	uint64_t pkcap[3];
} tcache;

/* Per-thread state of the search. */
typedef struct {
	trim__search_result cnt; /* counts only */
	trim__eval_ws ws;
	trim__eval ev, lbev;
	trim__mapping m;
	fcbound fb;
	toplist item;            /* the best k of the current factorisation */
	toplist keep;            /* the best k of this thread, with mappings */
	toplist node;            /* the best k below the current branch-and-bound node */
	trim__mapping m2;        /* partial factorisations */
	occache oc;              /* order classes */
	trim__eval best_eval;    /* evaluation of keep's first */
	/* per tensor: its exact counts by its own order classes (the
	 * projected class ids of every level), for the current factorisation
	 * and bypass choice; entry = state (0 unknown, 1 counted, 2 outside
	 * the model) then NARR rows of nlevels counts */
	tcache tc;
	trim__activity tcx;      /* scratch of one tensor's counts */
	int64_t cmacs, csteps, cactive, cinst[TRIM__MAX_LEVELS]; /* their common fields */
	/* search statistics (TRIM_SEARCH_STATS=1 prints them to stderr):
	 * tree nodes bounded and cut, leaves (factorisations) reached and cut
	 * whole, bypass choices cut, order classes cut and evaluated */
	uint64_t st_d[TRIM__MAX_LEVELS], st_dc[TRIM__MAX_LEVELS]; /* per depth */
	uint64_t st_nodes, st_nodes_cut, st_leaves, st_leaves_cut, st_byp_cut, st_cls_cut;
	/* the node bound's per-choice energies of the leaf children of the
	 * current node (bb_node), and the one of the leaf do_fc works on */
	struct nodech *nchbuf;
	size_t nchcap;
	const struct nodech *leafch;
	double *hbuf;            /* by_result: the result's energies and their prefix minima */
	size_t hcap;
	int err;
} worker;

/* A new factorisation: forget every entry. */
static int tc_reset(const trim__mapspace *s, tcache *c)
{
	if (!c->ent) {
		c->cap = 1024;
		c->nl = s->a->nlevels;
		c->ent = calloc(c->cap, sizeof *c->ent);
		if (!c->ent)
			return TRIM_ENOMEM;
	}
	c->nv = 0;
	if (++c->gen == 0) { /* wrapped: clear for real */
		for (uint32_t i = 0; i < c->cap; i++)
			c->ent[i].gen = 0;
		c->gen = 1;
	}
	return 0;
}

/* A new bypass choice (plan p): the per-choice look-up tables. */
static int tc_plan(const trim__mapspace *s, const ordplan *p, tcache *c)
{
	for (int t = 0; t < 3; t++) {
		uint64_t n = 1;
		for (int k = 0; k < s->nord; k++)
			n *= (uint64_t)p->tab[k]->npid[t];
		if (n > c->pkcap[t]) {
			int32_t *q = realloc(c->pk[t], n * sizeof *q);
			if (!q)
				return TRIM_ENOMEM;
			c->pk[t] = q;
			c->pkcap[t] = n;
		}
		memset(c->pk[t], 0xff, n * sizeof *c->pk[t]);
	}
	return 0;
}

static void tc_free(tcache *c)
{
	free(c->ent);
	free(c->val);
	free(c->energy);
	free(c->words);
	free(c->state);
	for (int t = 0; t < 3; t++)
		free(c->pk[t]);
}

static uint32_t tc_hash(const uint8_t *k, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ k[i]) * 16777619u;
	return h;
}

/* The slot of key (found, or the empty one where it goes). */
static uint32_t tc_find(const tcache *c, const uint8_t *k, int n)
{
	uint32_t i = tc_hash(k, n) & (c->cap - 1);
	for (;; i = (i + 1) & (c->cap - 1)) {
		const tcent *e = &c->ent[i];
		if (e->gen != c->gen || (e->len == n && !memcmp(e->key, k, (size_t)n)))
			return i;
	}
}

/* Room for one more entry (hash at most half full, vectors). */
static int tc_room(tcache *c)
{
	if (2 * ((uint32_t)c->nv + 1) > c->cap) {
		tcache d = *c;
		d.cap = c->cap * 2;
		d.ent = calloc(d.cap, sizeof *d.ent);
		if (!d.ent)
			return TRIM_ENOMEM;
		for (uint32_t i = 0; i < c->cap; i++)
			if (c->ent[i].gen == c->gen)
				d.ent[tc_find(&d, c->ent[i].key, c->ent[i].len)] = c->ent[i];
		free(c->ent);
		c->ent = d.ent;
		c->cap = d.cap;
	}
	if (c->nv == c->vcap) {
		int32_t n = c->vcap ? 2 * c->vcap : 256;
		int64_t *v = realloc(c->val, (size_t)n * NARR * (size_t)c->nl * sizeof *v);
		if (v)
			c->val = v;
		double *wd = realloc(c->words, (size_t)n * 2 * (size_t)c->nl * sizeof *wd);
		if (wd)
			c->words = wd;
		double *e = realloc(c->energy, (size_t)n * sizeof *e);
		if (e)
			c->energy = e;
		uint8_t *st = realloc(c->state, (size_t)n);
		if (st)
			c->state = st;
		if (!v || !e || !st || !wd)
			return TRIM_ENOMEM;
		c->vcap = n;
	}
	return 0;
}

/* The entry of tensor t for order class code[] of plan p under bypass
 * choice b: looked up, or computed from m (whose orders must then be the
 * class's: *applied tells, apply_all sets them). Returns the entry or -1
 * with W->err set. */
static int32_t tc_entry(const trim__mapspace *s, const ordplan *p, const uint64_t *code, uint64_t oc,
                        uint64_t b, int t, trim__mapping *m, int *applied, const trim__level_cost *costs,
                        int64_t zero_macs, worker *W)
{
	tcache *c = &W->tc;
	uint64_t pkey = 0;
	for (int k = 0; k < s->nord; k++)
		pkey = pkey * (uint64_t)p->tab[k]->npid[t] + p->tab[k]->pid[t][code[k]];
	if (c->pk[t][pkey] >= 0)
		return c->pk[t][pkey];
	uint8_t key[TC_KEY];
	int n = 0;
	key[n++] = (uint8_t)t;
	int ch = fcb_choice(s, &W->fb, t, b);
	key[n++] = (uint8_t)(ch & 0xff);
	key[n++] = (uint8_t)(ch >> 8);
	for (int k = 0; k < s->nord; k++) {
		const octab *tb = p->tab[k];
		int u = tb->pid[t][code[k]], len = (tb->hb >> t & 1) ? tb->plen[t][u] : 0;
		if (n + 1 + len > TC_KEY) {
			W->err = trim__error(TRIM_ERANGE, "search: signature too long");
			return -1;
		}
		key[n++] = (uint8_t)len;
		if (len) {
			memcpy(key + n, tb->psig[t] + (size_t)u * SIGLEN, (size_t)len);
			n += len;
		}
	}
	uint32_t i = tc_find(c, key, n);
	if (c->ent[i].gen != c->gen) {
		if (tc_room(c)) {
			W->err = trim__error(TRIM_ENOMEM, "search: out of memory");
			return -1;
		}
		i = tc_find(c, key, n);
		if (!*applied) {
			for (int k = s->nord - 1; k >= 0; k--)
				apply_order(s, p, k, code[k], m);
			*applied = 1;
		}
		(void)oc;
		const int nl = c->nl;
		const int32_t vi = c->nv++;
		int rc = trim__activity_tensors(s->w, s->a, m, 1u << t, &W->ws.act, &W->tcx);
		if (rc && rc != TRIM_EINVAL) {
			W->err = rc;
			return -1;
		}
		tcent *e = &c->ent[i];
		e->gen = c->gen;
		e->len = (uint16_t)n;
		e->vi = vi;
		memcpy(e->key, key, (size_t)n);
		c->state[vi] = rc ? 2 : 1;
		c->energy[vi] = 0;
		if (!rc) {
			int64_t *v = c->val + (size_t)vi * NARR * (size_t)nl;
			for (int j = 0; j < NARR; j++) {
				int64_t (*src)[3] = act_arr(&W->tcx, j);
				for (int l = 0; l < nl; l++)
					v[j * nl + l] = src[l][t];
			}
			/* the tensor's dynamic energy, by the evaluator's formulas */
			trim__eval *ev = &W->lbev;
			ev->act = W->tcx;
			ev->act.zero_macs = zero_macs;
			trim__eval_act(s->w, s->a, costs, m, ev);
			double en = 0;
			for (int l = 0; l < nl; l++)
				if (s->a->lv[l].type != TRIM__LVL_COMPUTE)
					en += ev->dyn_pj[l][t];
			c->energy[vi] = en;
			double *wd = c->words + (size_t)vi * 2 * (size_t)nl;
			for (int l = 0; l < nl; l++) {
				const trim__activity *y = &W->tcx;
				wd[2 * l] = wd[2 * l + 1] = 0;
				if (s->a->lv[l].type == TRIM__LVL_STORAGE) {
					wd[2 * l] = (double)(y->reads[l][t] + y->drains[l][t]);
					wd[2 * l + 1] = (double)(y->fills[l][t] + y->updates[l][t]);
				} else if (s->a->lv[l].type == TRIM__LVL_SPATIAL) {
					wd[2 * l] = (double)(y->down_words[l][t] + y->up_out[l][t]);
				}
			}
			W->cmacs = W->tcx.macs; /* the same for every tensor and order */
			W->csteps = W->tcx.steps;
			W->cactive = W->tcx.active_pes;
			memcpy(W->cinst, W->tcx.instances, sizeof W->cinst);
		}
	}
	return c->pk[t][pkey] = c->ent[i].vi;
}

/* The cycles of the class whose tensors' entries are vi (lower by at most
 * the rounding of another summation order: times 1 - 1e-9). */
static double class_cycles(const trim__mapspace *s, const fcbound *fb, const tcache *c, const int32_t *vi)
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
	return words_cycles(s, fb, rd, wr) * (1 - 1e-9);
}

/* Evaluate order class oc (digits code[]) of plan p under bypass choice b
 * into W->ev from the cached per-tensor counts vi[] (the same numbers as
 * trim__eval_run: its counts are per tensor), orders applied to m. */
static void eval_class(const trim__mapspace *s, const int32_t *vi, const trim__level_cost *costs,
                       int64_t zero_macs, const trim__mapping *m, worker *W)
{
	const int nl = s->a->nlevels;
	const tcache *c = &W->tc;
	trim__activity *x = &W->ev.act;
	memset(x, 0, sizeof *x);
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		const int64_t *v = c->val + (size_t)vi[t] * NARR * (size_t)nl;
		for (int j = 0; j < NARR; j++) {
			int64_t (*dst)[3] = act_arr(x, j);
			for (int l = 0; l < nl; l++)
				dst[l][t] = v[j * nl + l];
		}
	}
	x->macs = W->cmacs;
	x->steps = W->csteps;
	x->active_pes = W->cactive;
	memcpy(x->instances, W->cinst, sizeof x->instances);
	x->zero_macs = zero_macs;
	trim__eval_act(s->w, s->a, costs, m, &W->ev);
}

/* Bytes of every tensor's tile at every bounded storage level (doubled
 * with double buffering), as trim__mapping_check_reserved counts them. */
static void tile_bytes(const trim__mapspace *s, const trim__mapping *m, int64_t (*tb)[3])
{
	const struct trim_arch *a = s->a;
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		if (L->type != TRIM__LVL_STORAGE || L->capacity_bytes <= 0)
			continue;
		int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
		int64_t mult = L->double_buffer ? 2 : 1;
		for (int t = 0; t < 3; t++)
			tb[l][t] = s->w->t[t].present ? (trim__mapping_tile_elems(m, s->w, l, t) * bits + 7) / 8 * mult : 0;
	}
}

/* trim__mapping_check_reserved for a mapping of the space whose spatial
 * factors fit (its structure is then valid by construction): the kept
 * tiles fit every level (with the cached activations); 1 if so. */
static int fast_fit(const trim__mapspace *s, int64_t (*tb)[3], const trim__mapping *m)
{
	const struct trim_arch *a = s->a;
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		if (L->type != TRIM__LVL_STORAGE || L->capacity_bytes <= 0)
			continue;
		int64_t total = 0, res = s->reserved[l];
		for (int t = 0; t < 3; t++) {
			if (!m->keep[l][t] || !s->w->t[t].present)
				continue;
			if (L->partitioned && tb[l][t] > L->part_bytes[t])
				return 0;
			total += tb[l][t];
		}
		if ((!L->partitioned || res > 0) && total + res > L->capacity_bytes)
			return 0;
	}
	return 1;
}

/* One order class (code[k] per ordered level) of bypass choice b: its
 * tensors looked up tensor by tensor (result first) with the energy cut,
 * then its cycles, then evaluated if it can enter the top k. Returns 0, or
 * -1 with W->err set. */
static int class_visit(const trim__mapspace *s, const ordplan *p, const uint64_t *code, uint64_t b,
                       trim__index base, double bound, double cyc_lb, int lbok, int goal,
                       const trim__level_cost *costs, int64_t zero_macs, trim__mapping *m, worker *W)
{
	int applied = 0, unsup = 0, cut = 0;
	int32_t vi[3] = {0, 0, 0};
	/* tensor by tensor: its exact energy replaces its order-free
	 * bound; stop as soon as the class cannot make the top k */
	double elo[3] = {0, 0, 0}, en = 0;
	if (cyc_lb > 0)
		for (int t = 0; t < 3; t++)
			if (s->w->t[t].present)
				en += elo[t] = W->fb.E[t][fcb_choice(s, &W->fb, t, b)];
	for (int ti = 0; ti < 3 && !cut; ti++) {
		const int t = (int[]){2, 0, 1}[ti];
		if (!s->w->t[t].present)
			continue;
		vi[t] = tc_entry(s, p, code, 0, b, t, m, &applied, costs, zero_macs, W);
		if (vi[t] < 0)
			return -1;
		if (W->tc.state[vi[t]] == 2) {
			unsup = 1;
			break;
		}
		if (cyc_lb > 0) {
			en += W->tc.energy[vi[t]] - elo[t];
			double e = (en + W->fb.mac_pj + W->fb.leak * cyc_lb) * (1 - 1e-9);
			double lbc = goal == TRIM__GOAL_ENERGY ? e : e * cyc_lb;
			double cur = top_bound(&W->item) < bound ? top_bound(&W->item) : bound;
			cut = lbc > cur;
		}
	}
	if (unsup) {
		W->cnt.unsupported++; /* outside the analytic model's scope */
		return 0;
	}
	if (!cut && lbok && W->fb.fast) {
		/* every tensor known: the class's cycles from its words (the
		 * evaluator's formula, summed in another order) */
		double cyc = class_cycles(s, &W->fb, &W->tc, vi);
		double e = (en + W->fb.mac_pj + W->fb.leak * cyc) * (1 - 1e-9);
		double lbc = goal == TRIM__GOAL_ENERGY ? e : goal == TRIM__GOAL_DELAY ? cyc : e * cyc;
		double cur = top_bound(&W->item) < bound ? top_bound(&W->item) : bound;
		cut = cyc_lb > 0 || goal == TRIM__GOAL_DELAY ? lbc > cur : 0;
	}
	if (cut) {
		W->cnt.valid--;
		W->cnt.bounded++;
		W->st_cls_cut++;
		return 0;
	}
	if (!applied)
		for (int k = s->nord - 1; k >= 0; k--)
			apply_order(s, p, k, code[k], m);
	eval_class(s, vi, costs, zero_macs, m, W);
	W->cnt.evaluated++;
	trim__index idx = base;
	for (int k = 0; k < s->nord; k++)
		idx = idx * s->nperm + order_code(s, m, s->ord_level[k]);
	double c = cost_of(&W->ev, goal);
	top_put(&W->item, c, idx, m);
	if (better(c, idx, W->keep.n ? W->keep.cost[0] : 0, W->keep.n ? W->keep.idx[0] : 0, W->keep.n))
		W->best_eval = W->ev;
	top_put(&W->keep, c, idx, m);
	return 0;
}

/* The classes of bypass choice b grouped by the result's projection at
 * every ordered level. The result's exact energy of each combination of
 * projections is computed first (every class needs it anyway); a prefix
 * of projections (outer levels first) whose smallest result energy, plus
 * the other tensors' order-free bounds, the MACs and the leakage over the
 * cycle bound, exceeds the k-th best known is skipped with all its
 * classes; the classes of the surviving full projections are visited one
 * by one (class_visit). Energy and EDP goals (cyc_lb > 0). Returns 0, 1 if
 * the grouping does not apply (a projection outside the analytic model,
 * or too many), or -1 with W->err set. */
static int by_result(const trim__mapspace *s, const ordplan *p, uint64_t b, trim__index base, double bound,
                     double cyc_lb, int lbok, int goal, const trim__level_cost *costs, int64_t zero_macs,
                     trim__mapping *m, worker *W)
{
	enum { T = 2, MAXP = 1 << 16 };
	const int K = s->nord;
	int np[TRIM__MAX_LEVELS];
	uint64_t P = 1, off[TRIM__MAX_LEVELS + 2], tot = 0; /* off[k]: prefix minima of length k */
	for (int k = 0; k < K; k++) {
		np[k] = p->tab[k]->npid[T];
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
	if (tot > W->hcap) {
		double *q = realloc(W->hbuf, tot * sizeof *q);
		if (!q) {
			W->err = TRIM_ENOMEM;
			return -1;
		}
		W->hbuf = q;
		W->hcap = tot;
	}
	double *mn = W->hbuf;
	/* the result's energy per full projection (length K) */
	for (uint64_t q = 0; q < P; q++) {
		uint64_t code[TRIM__MAX_LEVELS], r = q;
		for (int k = K - 1; k >= 0; k--) {
			const octab *tb = p->tab[k];
			int u = (int)(r % (uint64_t)np[k]);
			r /= (uint64_t)np[k];
			code[k] = tb->pcls[T][tb->poff[T][u]];
		}
		int applied = 0;
		int32_t vi = tc_entry(s, p, code, 0, b, T, m, &applied, costs, zero_macs, W);
		if (vi < 0)
			return -1;
		if (W->tc.state[vi] == 2)
			return 1;
		mn[off[K] + q] = W->tc.energy[vi];
	}
	for (int k = K - 1; k >= 0; k--) /* prefix minima, longest first */
		for (uint64_t q = 0; q < off[k + 1] - off[k]; q++) {
			double v = HUGE_VAL;
			for (int u = 0; u < np[k]; u++)
				if (mn[off[k + 1] + q * (uint64_t)np[k] + (uint64_t)u] < v)
					v = mn[off[k + 1] + q * (uint64_t)np[k] + (uint64_t)u];
			mn[off[k] + q] = v;
		}
	double other = W->fb.mac_pj;
	for (int t = 0; t < 3; t++)
		if (t != T && s->w->t[t].present)
			other += W->fb.E[t][fcb_choice(s, &W->fb, t, b)];
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
		double e = (mn[off[k + 1] + q] + other + W->fb.leak * cyc_lb) * (1 - 1e-9);
		double lbc = goal == TRIM__GOAL_ENERGY ? e : e * cyc_lb;
		double cur = top_bound(&W->item) < bound ? top_bound(&W->item) : bound;
		if (lbc > cur) { /* every class under this prefix */
			uint64_t cnt = 1;
			for (int j = 0; j <= k; j++) {
				const octab *tb = p->tab[j];
				cnt *= tb->poff[T][u[j] + 1] - tb->poff[T][u[j]];
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
			pos[j] = p->tab[j]->poff[T][u[j]];
		for (;;) {
			uint64_t code[TRIM__MAX_LEVELS];
			for (int j = 0; j < K; j++)
				code[j] = p->tab[j]->pcls[T][pos[j]];
			if (class_visit(s, p, code, b, base, bound, cyc_lb, lbok, goal, costs, zero_macs, m, W))
				return -1;
			int j = K - 1;
			while (j >= 0 && ++pos[j] == p->tab[j]->poff[T][u[j] + 1]) {
				pos[j] = p->tab[j]->poff[T][u[j]];
				j--;
			}
			if (j < 0)
				break;
		}
	}
	return 0;
}

typedef struct nodech nodech;
static void node_lb(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                    int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, nodech *out);
static void fcb_tighten(const trim__mapspace *s, const trim__level_cost *costs, int goal, int64_t zero_macs,
                        trim__mapping *m, trim__eval *ev, const nodech *have, fcbound *fb);

/* Everything below one factorisation combination. `bound`: a cost that k
 * real mappings reach (a mapping costlier cannot be among the k best). The
 * work depends only on (ac, bound): deterministic for any thread count. */
static void do_fc(const trim__mapspace *s, const trim__level_cost *costs, int goal, uint64_t fc,
                  double bound, int64_t zero_macs, worker *W)
{
	const uint64_t nb = (uint64_t)1 << s->nbyp;
	const int nomit = s->nobound;
	trim__mapping *m = &W->m;
	ms_mapping_init(s, m);
	int fits = set_facts(s, fc, m);
	int64_t tbytes[TRIM__MAX_LEVELS][3];
	if (fits)
		tile_bytes(s, m, tbytes);
	W->item.n = 0;
	W->st_leaves++;
	if (tc_reset(s, &W->tc)) {
		W->err = TRIM_ENOMEM;
		return;
	}
	int lbok = 0;
	if (fits && !nomit) {
		int rc = fcb_compute(s, &W->fb, m, &W->ws.act);
		lbok = rc == 0;
		double lb;
		if (lbok) {
			fcb_fast_prepare(s, &W->fb, zero_macs, costs, m, &W->lbev);
			if (W->fb.fast)
				fcb_tighten(s, costs, goal, zero_macs, m, &W->lbev, W->leafch, &W->fb);
		}
		if (lbok && (W->fb.fast ? fcb_fast(s, &W->fb, NULL, goal, &lb)
		                        : fcb_cost(s, &W->fb, NULL, zero_macs, costs, m, goal, &W->lbev, &lb)) == 0 &&
		    lb > bound) {
			/* no bypass choice and no order can reach the bound */
			W->st_leaves_cut++;
			for (uint64_t b = 0; b < nb; b++) {
				if (!BYP_OK(s, b))
					continue;
				ordplan p;
				set_keeps(s, b, m);
				if (plan_orders(s, m, &W->oc, &p)) {
					W->err = TRIM_ENOMEM;
					return;
				}
				W->cnt.generated += p.total;
				W->cnt.bounded += p.total;
			}
			return;
		}
	}
	for (uint64_t b = 0; b < nb; b++) {
		if (!BYP_OK(s, b))
			continue;
		ordplan p;
		set_keeps(s, b, m);
		if (plan_orders(s, m, &W->oc, &p)) {
			W->err = TRIM_ENOMEM;
			return;
		}
		W->cnt.generated += p.total;
		if (!fits || !fast_fit(s, tbytes, m))
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
			if (scope &&
			    (W->fb.fast ? fcb_fast(s, &W->fb, ch, goal, &lb)
			                : fcb_cost(s, &W->fb, ch, zero_macs, costs, m, goal, &W->lbev, &lb)) == 0 &&
			    lb > cur) {
				W->cnt.bounded += p.total;
				W->st_byp_cut++;
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
		const trim__index base = ((trim__index)fc << s->nbyp) | b; /* index without the orders */

		if (tc_plan(s, &p, &W->tc)) {
			W->err = TRIM_ENOMEM;
			return;
		}
		/* a class's energy is at least the sum of its tensors' dynamic
		 * energies plus the MACs and the leakage over the bypass choice's
		 * cycle bound: skip it (strictly) above the k-th best known */
		double cyc_lb = 0;
		if (lbok && W->fb.fast && goal != TRIM__GOAL_DELAY)
			fcb_fast_cycles(s, &W->fb, b, &cyc_lb);
		if (cyc_lb > 0 && s->w->t[2].present && s->nord > 0) {
			int rc = by_result(s, &p, b, base, bound, cyc_lb, lbok, goal, costs, zero_macs, m, W);
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
			if (class_visit(s, &p, code, b, base, bound, cyc_lb, lbok, goal, costs, zero_macs, m, W))
				return;
		}
	}
}

/* ---- branch and bound over partial factorisations ------------------------- */

/* A lower bound on the elements of tensor t touched by a share of the
 * workload with ext[d] values of each dim d: a one-term axis has ext
 * values; a two-term axis c0*d0 + c1*d1 has exactly trim__axis_distinct
 * when both dims run over a contiguous range (exact[d]), and otherwise at
 * least ext0 + ext1 - 1 (|A + B| >= |A| + |B| - 1 for sets of integers). */
static int64_t share_lb(const trim__intra *w, int t, const int64_t *ext, const int *exact)
{
	const trim__tensor *T = &w->t[t];
	if (!T->present)
		return 0;
	int64_t n = 1;
	for (int a = 0; a < T->ndims; a++) {
		const trim__iexpr *e = &T->idx[a];
		int64_t v[2];
		int k = 0, ex = 1;
		for (int j = 0; j < e->nterms; j++)
			if (e->coef[j] != 0) {
				v[k++] = ext[e->dim[j]];
				ex &= exact[e->dim[j]];
			}
		if (k == 1)
			n *= v[0];
		else if (k == 2)
			n *= ex ? trim__axis_distinct(e->coef[0], ext[e->dim[0]], e->coef[1], ext[e->dim[1]])
			        : v[0] + v[1] - 1;
	}
	return n;
}

static int lvl_any(const trim__mapping *m, int l)
{
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (m->f[l][d] > 1)
			return 1;
	return 0;
}

static int64_t fanout_of(const trim__level *L)
{
	return (L->fanout_x > 0 ? L->fanout_x : 1) * (L->fanout_y > 0 ? L->fanout_y : 1);
}

/* Lower bound, valid for every completion of the factors, every bypass choice
 * and every order, on the cost of the mappings below a node of the tree
 * (docs/model.md, "Mapspace and search"). The node fixes the factors of the
 * first `depth` slots of s->tord (the spatial levels first); m holds them.
 * Per tensor and keep choice (every level that may hold it):
 * - compulsory traffic: the outermost level reads (result: receives) every
 *   element the workload touches at least once;
 * - at each boundary below a storage level l whose levels above are all
 *   fixed, the words crossing it are read from (result: written into) the
 *   innermost holder above it, and the holder below is entered as often;
 * - once the spatial levels are fixed: every instance of a holder below a
 *   spatial level receives (result: drains) every element its share of the
 *   workload touches at least once, and its parent reads at least the
 *   distinct elements of one parent instance's share (multicast) or every
 *   delivery; the innermost holder feeds every MAC: MACs words when no
 *   spatial level with bounds > 1 is between, else per step the distinct
 *   elements of the spatial tile (multicast / reduction) or one word per
 *   PE; every partial sum enters the network;
 * - before that: the innermost holder feeds MACs / F words, F the fan-out
 *   of the multicasting (result: reducing) spatial levels below it.
 * Cycles: the evaluator on the count-wise minimum over the choices (no MAC
 * feed), with the active PEs and instances once the spatial levels are
 * fixed; energy: the sum over tensors of the cheapest choice, plus MACs and
 * leakage. */
/* Per tensor and keep choice (levels kept: bit l of K), the node bound's
 * dynamic energy of that tensor (storage and network). */
struct nodech {
	int nch[3];
	double E[3][64];
	unsigned K[3][64];
};

void trim__mapspace_node_lb(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb)
{
	node_lb(s, costs, goal, depth, zero_macs, m, ev, lb, NULL);
}

/* A factorisation's per-(tensor, keep choice) energy bounds (fcb_fast_prepare)
 * raised to the node bound's of the same tensor and choice where that is
 * higher (both are lower bounds of the same energy, for every order): the
 * node bound sees the per-instance compulsory traffic and refills, the
 * order-free counts see the stationarity. */
static void fcb_tighten(const trim__mapspace *s, const trim__level_cost *costs, int goal, int64_t zero_macs,
                        trim__mapping *m, trim__eval *ev, const nodech *have, fcbound *fb)
{
	nodech own;
	const nodech *nc = have;
	if (!nc) {
		double lb;
		node_lb(s, costs, goal, s->nslots - 1, zero_macs, m, ev, &lb, &own);
		nc = &own;
	}
	for (int t = 0; t < 3; t++)
		for (int c = 0; c < fb->nch[t] && nc->nch[t] > 0; c++) {
			unsigned km = 1; /* the outermost level holds every tensor */
			for (int i = 0; i < fb->nbit[t]; i++)
				if (c >> (fb->nbit[t] - 1 - i) & 1)
					km |= 1u << s->byp_level[fb->bit[t][i]];
			for (int j = 0; j < nc->nch[t]; j++)
				if (nc->K[t][j] == km) {
					double e = nc->E[t][j] * (1 - 1e-12);
					if (e > fb->E[t][c])
						fb->E[t][c] = e;
					break;
				}
		}
}

static void node_lb(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                    int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, nodech *out)
{
	if (out)
		out->nch[0] = out->nch[1] = out->nch[2] = 0;
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	trim__activity *x = &ev->act;
	memset(x, 0, sizeof *x);
	int fixed[TRIM__MAX_LEVELS] = {0}, known[TRIM__MAX_LEVELS] = {0};
	for (int i = 0; i < depth; i++)
		fixed[s->slot[s->tord[i]]] = 1;
	/* storage level l is "known" when every level above it is fixed and so
	 * is l itself: the extents below it are then known */
	int allsp = 1;
	for (int l = 0, pre = 1; l < nl; l++) {
		if (a->lv[l].type == TRIM__LVL_COMPUTE)
			continue;
		pre &= fixed[l];
		known[l] = pre && a->lv[l].type == TRIM__LVL_STORAGE;
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			allsp &= fixed[l];
	}
	/* spatial levels: misfit cuts the node; instances and active PEs */
	int64_t inst[TRIM__MAX_LEVELS + 1], active = 1;
	for (int l = 0; l < nl; l++) {
		inst[l] = active;
		if (a->lv[l].type == TRIM__LVL_SPATIAL && fixed[l]) {
			int64_t fx[TRIM_NDIMS], fy[TRIM_NDIMS];
			if (!split_dfs(&a->lv[l], s->axis[l], m->f[l], 0, 1, 1, fx, fy)) {
				*lb = HUGE_VAL;
				return;
			}
			for (int d = 0; d < TRIM_NDIMS; d++)
				active *= m->f[l][d];
		}
	}
	inst[nl] = active;
	/* the extents at and below each level: suffix products of the factors
	 * (they multiply to the bounds, node completions included) */
	int64_t sfx[TRIM__MAX_LEVELS + 1][TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++)
		sfx[nl][d] = 1;
	for (int l = nl - 1; l >= 0; l--)
		for (int d = 0; d < TRIM_NDIMS; d++)
			sfx[l][d] = sfx[l + 1][d] * m->f[l][d];
	/* per-instance extents below each level (the bound over the spatial
	 * factors above it), when the spatial levels are fixed; a dim split by
	 * a spatial level above no longer runs over a contiguous range */
	int64_t pext[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int contig[TRIM__MAX_LEVELS][TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t e = w->bound[d];
		int c = 1;
		for (int l = 0; l < nl; l++) {
			pext[l][d] = e;
			contig[l][d] = c;
			if (a->lv[l].type == TRIM__LVL_SPATIAL && allsp && m->f[l][d] > 1) {
				e /= m->f[l][d];
				c = 0;
			}
		}
	}
	const int ones[TRIM_NDIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
	const int64_t steps = allsp ? w->macs / active : 0;
	/* per tensor and keep choice: its energy and the levels it holds;
	 * tiles whose extents are known (every level above fixed) let the
	 * choices be combined under the capacities */
	double etensor = 0, Ech[3][64];
	unsigned Kch[3][64];
	int nch[3] = {0, 0, 0};
	int64_t tbytes[TRIM__MAX_LEVELS][3];
	int extk[TRIM__MAX_LEVELS];
	for (int l = 0, pre = 1; l < nl; l++) {
		extk[l] = pre && a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].capacity_bytes > 0;
		if (extk[l]) {
			const int64_t *ext = sfx[l];
			const trim__level *L = &a->lv[l];
			int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
			for (int t = 0; t < 3; t++)
				tbytes[l][t] = w->t[t].present ? (share_lb(w, t, ext, ones) * bits + 7) / 8 * (L->double_buffer ? 2 : 1) : 0;
		}
		if (a->lv[l].type != TRIM__LVL_COMPUTE)
			pre &= fixed[l];
	}
	for (int t = 0; t < 3; t++) {
		if (!w->t[t].present)
			continue;
		const int res = t == 2;
		/* R[l]: words of t that cross the boundary below known storage level l */
		int64_t R[TRIM__MAX_LEVELS] = {0}, Mv[TRIM__MAX_LEVELS] = {0};
		for (int l = 0; l < nl; l++) {
			if (!known[l])
				continue;
			int64_t M = 1;
			for (int k = l; k >= 0; k--) {
				if (a->lv[k].type != TRIM__LVL_STORAGE)
					continue;
				int star = 0;
				for (int d = 0; d < TRIM_NDIMS; d++)
					star |= (s->dsingle[t] >> d & 1) && m->f[k][d] > 1;
				if (!star)
					continue;
				for (int d = 0; d < TRIM_NDIMS; d++)
					if (s->dsingle[t] >> d & 1)
						M *= m->f[k][d];
				for (int k2 = 0; k2 < k; k2++)
					if (a->lv[k2].type == TRIM__LVL_STORAGE)
						for (int d = 0; d < TRIM_NDIMS; d++)
							M *= m->f[k2][d];
				break;
			}
			R[l] = M * trim__mapping_tile_elems(m, w, l + 1, t);
			Mv[l] = M;
		}
		/* per storage level, the share of one instance (spatial levels fixed) */
		int64_t share[TRIM__MAX_LEVELS] = {0};
		if (allsp)
			for (int l = 0; l < nl; l++)
				if (a->lv[l].type == TRIM__LVL_STORAGE)
					share[l] = inst[l] * share_lb(w, t, pext[l], contig[l]);
		const int64_t touched = share_lb(w, t, w->bound, ones);
		/* results: with the spatial levels fixed and splitting only dims
		 * that are the sole term of an axis of the result (no overlap, no
		 * reduction), each holder reads back at least its updates minus
		 * the result's elements (docs/model.md, "Lower bounds") */
		int rback = res && allsp;
		for (int l = 0; rback && l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_SPATIAL)
				for (int d = 0; d < TRIM_NDIMS; d++)
					if (m->f[l][d] > 1 && !((s->dsingle[t] & ~s->dwindow[t]) >> d & 1))
						rback = 0;
		/* forced refills: a holder l below the innermost known storage level
		 * K, with unknown levels between, whose capacity cannot take t's
		 * whole per-instance extent below K. Then a storage level between
		 * has a loop on a dim of t; when every axis of t is one dim, the
		 * innermost such level is L* of the *Counts* bound, so l is refilled
		 * at least (every loop of the levels <= K) x (its instances) x (t's
		 * per-instance extent below K) times (docs/model.md) */
		int64_t forced[TRIM__MAX_LEVELS] = {0};
		if (allsp && !s->dwindow[t]) {
			int K = -1;
			for (int l = 0; l < nl; l++)
				if (known[l])
					K = l;
			if (K >= 0) {
				int64_t MK = 1, extK[TRIM_NDIMS];
				for (int d = 0; d < TRIM_NDIMS; d++) {
					extK[d] = w->bound[d];
					for (int k = 0; k <= K; k++) {
						extK[d] /= m->f[k][d];
						if (a->lv[k].type == TRIM__LVL_STORAGE)
							MK *= m->f[k][d];
					}
				}
				int unknown = 0;
				for (int l = K + 1; l < nl; l++) {
					const trim__level *L = &a->lv[l];
					if (L->type == TRIM__LVL_SPATIAL) {
						for (int d = 0; d < TRIM_NDIMS; d++)
							extK[d] /= m->f[l][d];
						continue;
					}
					if (L->type != TRIM__LVL_STORAGE)
						continue;
					if (unknown && L->capacity_bytes > 0 && L->keep[t]) {
						int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
						int64_t el = share_lb(w, t, extK, ones);
						int64_t by = (el * bits + 7) / 8 * (L->double_buffer ? 2 : 1);
						int64_t cap = L->partitioned ? L->part_bytes[t] : L->capacity_bytes - s->reserved[l];
						if (by > cap)
							forced[l] = MK * inst[l] * el;
					}
					unknown = 1; /* l's own loops are unknown from here on */
				}
			}
		}
		/* t's elements in one tile of each storage level whose storage
		 * level above is known (the refill rule below) */
		int64_t rsh[TRIM__MAX_LEVELS] = {0};
		for (int l = 0, pv = -1; allsp && l < nl; l++) {
			if (a->lv[l].type != TRIM__LVL_STORAGE)
				continue;
			if (pv >= 0 && known[pv])
				rsh[l] = share_lb(w, t, sfx[l], ones);
			pv = l;
		}
		/* keep choices: every storage level below the outermost that may hold t */
		int kb[TRIM__MAX_LEVELS], nkb = 0;
		for (int l = 1; l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].keep[t])
				kb[nkb++] = l;
		int have = 0;
		double emin = 0;
		for (int c = 0; c < (1 << nkb); c++) {
			int kept[TRIM__MAX_LEVELS] = {0};
			kept[0] = 1;
			for (int j = 0; j < nkb; j++)
				kept[kb[j]] = c >> j & 1;
			int64_t rd[TRIM__MAX_LEVELS], in[TRIM__MAX_LEVELS];
			int64_t dw[TRIM__MAX_LEVELS];   /* network: words entering (cycles) */
			double nw[TRIM__MAX_LEVELS];    /* network: words charged (energy) */
			for (int l = 0; l < nl; l++) {
				rd[l] = in[l] = dw[l] = 0;
				nw[l] = 0;
			}
			int h = 0, prev = -1; /* innermost holder so far; storage level above */
			rd[0] = touched;
			for (int l = 0; l < nl; l++) {
				if (a->lv[l].type != TRIM__LVL_STORAGE)
					continue;
				if (kept[l]) {
					if (prev >= 0 && !known[prev] && allsp && forced[l] > in[l])
						in[l] = forced[l];
					if (prev >= 0 && known[prev]) {
						in[l] = R[prev]; /* entries into the holder l */
						if (allsp) {
							/* every level above l is fixed: at each of the
							 * M steps every instance of l refills its whole
							 * tile (the extents at l are known) */
							int64_t refill = Mv[prev] * inst[l] * rsh[l];
							if (refill > in[l])
								in[l] = refill;
						}
					}
					if (l > 0 && allsp) {
						/* the hop (h, l): l's instances each receive their share */
						int sp = -1, nsp = 0;
						for (int k = h + 1; k < l; k++)
							if (a->lv[k].type == TRIM__LVL_SPATIAL && lvl_any(m, k))
								sp = k, nsp++;
						if (share[l] > in[l])
							in[l] = share[l];
						const trim__level *S = sp >= 0 ? &a->lv[sp] : NULL;
						int mc = S && (res ? S->reduction : S->multicast);
						int64_t up = nsp == 1 && mc ? share[h] : in[l];
						if (nsp > 1)
							up = touched; /* outside the model's scope: keep it simple */
						if (up > rd[h])
							rd[h] = up;
						for (int k = h + 1; k < l; k++)
							if (a->lv[k].type == TRIM__LVL_SPATIAL) {
								/* operands: words on a bus with multicast,
								 * deliveries otherwise (the words entering
								 * each level on the way are >= the parent's
								 * distinct share); results: every drained
								 * word enters */
								int64_t words = res ? in[l]
								                : (a->lv[k].net == TRIM__NET_BUS && a->lv[k].multicast) ? up : in[l];
								if (k != sp)
									words = up;
								nw[k] = (double)words;
								dw[k] = up;
							}
					}
					h = l;
				}
				if (known[l] && R[l] > rd[h])
					rd[h] = R[l];
				prev = l;
			}
			/* the innermost holder feeds every MAC */
			int64_t feed;
			double enet = 0;
			int nsp = 0, sp = -1;
			int64_t allfan = 1, fan = 1;
			for (int l = h + 1; l < nl; l++)
				if (a->lv[l].type == TRIM__LVL_SPATIAL) {
					nsp++;
					allfan *= fanout_of(&a->lv[l]);
					if (res ? a->lv[l].reduction : a->lv[l].multicast)
						fan *= fanout_of(&a->lv[l]);
				}
			if (allsp) {
				int nbig = 0;
				for (int l = h + 1; l < nl; l++)
					if (a->lv[l].type == TRIM__LVL_SPATIAL && lvl_any(m, l))
						sp = l, nbig++;
				if (nbig == 0) {
					feed = w->macs;
				} else if (nbig == 1) {
					const trim__level *S = &a->lv[sp];
					int64_t sext[TRIM_NDIMS];
					for (int d = 0; d < TRIM_NDIMS; d++)
						sext[d] = m->f[sp][d];
					int mc = res ? S->reduction : S->multicast;
					/* the spatial tile: one value per index of S per dim,
					 * at a stride unknown here: |A + B| >= |A| + |B| - 1 */
					const int nox[TRIM_NDIMS] = {0};
					feed = mc ? steps * inst[h] * share_lb(w, t, sext, nox) : w->macs;
				} else {
					feed = w->macs / fan; /* outside the model's scope */
				}
				for (int l = h + 1; l < nl; l++) {
					const trim__level *L = &a->lv[l];
					if (L->type != TRIM__LVL_SPATIAL)
						continue;
					/* operands: the words entering (bus with multicast)
					 * or the deliveries (MACs) at the level with bounds;
					 * the feed at the others; results: every MAC's
					 * partial sum enters the level with bounds */
					double words = (double)feed;
					if (l == sp && nbig == 1)
						words = res ? (double)w->macs
						        : (L->net == TRIM__NET_BUS && L->multicast) ? (double)feed : (double)w->macs;
					enet += words * costs[l].hop_pj * (costs[l].avg_hops > 0 ? costs[l].avg_hops : 1);
					dw[l] = feed;
				}
			} else {
				feed = w->macs / fan;
				for (int l = h + 1; l < nl; l++) {
					const trim__level *L = &a->lv[l];
					if (L->type != TRIM__LVL_SPATIAL)
						continue;
					int64_t f = fanout_of(L);
					/* with several spatial levels on the way, one of them may
					 * carry only what enters the network: MACs / all fan-outs */
					double words = nsp > 1 ? (double)(w->macs / allfan)
					               : res ? (double)w->macs
					               : L->net == TRIM__NET_BUS && L->multicast ? (double)(w->macs / f) : (double)w->macs;
					enet += words * costs[l].hop_pj * (costs[l].avg_hops > 0 ? costs[l].avg_hops : 1);
				}
			}
			for (int l = 0; l < nl; l++)
				if (a->lv[l].type == TRIM__LVL_SPATIAL && l <= h)
					enet += nw[l] * costs[l].hop_pj * (costs[l].avg_hops > 0 ? costs[l].avg_hops : 1);
			int64_t rdc[TRIM__MAX_LEVELS];
			memcpy(rdc, rd, (size_t)nl * sizeof *rd);
			if (feed > rdc[h])
				rdc[h] = feed;
			double e = enet;
			for (int l = 0; l < nl; l++) {
				if (a->lv[l].type == TRIM__LVL_SPATIAL) {
					/* cycles: words entering (operands) / leaving upwards (results) */
					int64_t *o = res ? &x->up_out[l][t] : &x->down_words[l][t];
					if (!have || dw[l] < *o)
						*o = dw[l];
					continue;
				}
				if (a->lv[l].type != TRIM__LVL_STORAGE)
					continue;
				e += res ? (double)rdc[l] * costs[l].update_pj + (double)in[l] * costs[l].read_pj
				         : (double)rdc[l] * costs[l].read_pj + (double)in[l] * costs[l].write_pj;
				if (rback && kept[l] && rdc[l] > touched)
					e += (double)(rdc[l] - touched) * costs[l].read_pj;
				/* cycles: the counts without the MAC feed (its level depends on the choice) */
				int64_t *out_rd = res ? &x->updates[l][t] : &x->reads[l][t];
				int64_t *out_in = res ? &x->drains[l][t] : &x->fills[l][t];
				if (!have || rd[l] < *out_rd)
					*out_rd = rd[l];
				if (!have || in[l] < *out_in)
					*out_in = in[l];
			}
			if (c < 64) {
				unsigned km = 0;
				for (int l = 0; l < nl; l++)
					km |= (unsigned)kept[l] << l;
				Ech[t][c] = e;
				Kch[t][c] = km;
				nch[t] = c + 1;
			}
			if (!have || e < emin)
				emin = e;
			have = 1;
		}
		etensor += emin;
	}
	if (out) {
		memcpy(out->nch, nch, sizeof nch);
		for (int t = 0; t < 3; t++) {
			memcpy(out->E[t], Ech[t], (size_t)nch[t] * sizeof **Ech);
			memcpy(out->K[t], Kch[t], (size_t)nch[t] * sizeof **Kch);
		}
	}
	/* the cheapest combination of keep choices whose known tiles fit */
	if (nch[0] <= 64 && nch[1] <= 64 && nch[2] <= 64) {
		int n0 = nch[0] ? nch[0] : 1, n1 = nch[1] ? nch[1] : 1, n2 = nch[2] ? nch[2] : 1;
		double best = HUGE_VAL;
		for (int c0 = 0; c0 < n0; c0++)
			for (int c1 = 0; c1 < n1; c1++)
				for (int c2 = 0; c2 < n2; c2++) {
					const int cc[3] = {c0, c1, c2};
					double e = 0;
					int ok = 1;
					for (int t = 0; t < 3; t++)
						if (nch[t])
							e += Ech[t][cc[t]];
					if (e >= best)
						continue;
					for (int l = 1; l < nl && ok; l++) {
						if (!extk[l])
							continue;
						const trim__level *L = &a->lv[l];
						int64_t total = 0;
						for (int t = 0; t < 3; t++)
							if (nch[t] && (Kch[t][cc[t]] >> l & 1)) {
								if (L->partitioned && tbytes[l][t] > L->part_bytes[t])
									ok = 0;
								total += tbytes[l][t];
							}
						if ((!L->partitioned || s->reserved[l] > 0) && total + s->reserved[l] > L->capacity_bytes)
							ok = 0;
					}
					if (ok)
						best = e;
				}
		if (best == HUGE_VAL) {
			/* no keep choice fits the capacities whose tiles are known:
			 * no mapping below the node is valid */
			*lb = HUGE_VAL;
			return;
		}
		if (best > etensor)
			etensor = best;
	}
	x->macs = w->macs;
	x->zero_macs = zero_macs;
	x->active_pes = allsp ? active : (a->total_pes > 0 ? a->total_pes : 1);
	for (int l = 0; l < nl; l++)
		x->instances[l] = allsp ? inst[l] : (a->lv[l].instances > 0 ? a->lv[l].instances : 1);
	trim__eval_act(w, a, costs, m, ev);
	double energy = ev->mac_pj + etensor;
	for (int l = 0; l < nl; l++)
		energy += ev->static_pj[l];
	double v = goal == TRIM__GOAL_ENERGY ? energy : goal == TRIM__GOAL_DELAY ? ev->cycles : energy * ev->cycles;
	/* the sums above run in another order than the evaluator's: a margin far
	 * above their rounding keeps a tight bound from passing a real cost */
	*lb = v * (1 - 1e-9);
}

/* A child of a node: the factor of every dim at the next slot, the rows of
 * each dim that have it (a range of the allowed rows, which are in
 * lexicographic order of their factors), and its bound. */
typedef struct {
	double lb;
	uint64_t ord; /* position in the enumeration (ties) */
	int32_t lo[TRIM_NDIMS], hi[TRIM_NDIMS];
} bbchild;


static int bbchild_cmp(const void *p, const void *q)
{
	const bbchild *a = p, *b = q;
	if (a->lb != b->lb)
		return a->lb < b->lb ? -1 : 1;
	return a->ord < b->ord ? -1 : a->ord > b->ord;
}

/* The children of the node whose rows are [lo, hi) per dim, fixed slots
 * < depth: every combination of the values at slot `depth`. Returns the
 * number (*out allocated), or -1 on no memory. */
static int64_t bb_children(const trim__mapspace *s, int64_t *const *trows, int depth, const int32_t *lo,
                           const int32_t *hi, bbchild **out)
{
	const int slot = s->tord[depth];
	int32_t vlo[TRIM_NDIMS][64], vhi[TRIM_NDIMS][64];
	int nv[TRIM_NDIMS];
	int64_t n = 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		nv[d] = 0;
		for (int32_t p = lo[d]; p < hi[d];) {
			int64_t v = s->fact[d][trows[d][p] * s->nslots + slot];
			int32_t q = p;
			while (q < hi[d] && s->fact[d][trows[d][q] * s->nslots + slot] == v)
				q++;
			if (nv[d] == 64)
				return -2; /* too many divisors: not handled here */
			vlo[d][nv[d]] = p;
			vhi[d][nv[d]++] = q;
			p = q;
		}
		n *= nv[d];
	}
	bbchild *c = malloc((size_t)(n > 0 ? n : 1) * sizeof *c);
	if (!c)
		return -1;
	for (int64_t i = 0; i < n; i++) {
		int64_t r = i;
		for (int d = TRIM_NDIMS - 1; d >= 0; d--) {
			int j = (int)(r % nv[d]);
			r /= nv[d];
			c[i].lo[d] = vlo[d][j];
			c[i].hi[d] = vhi[d][j];
		}
		c[i].ord = (uint64_t)i;
		c[i].lb = 0;
	}
	*out = c;
	return n;
}

/* The factors of the tree slots < depth from the full factorisation row[d]
 * of every dim (and the rest at tree slot depth, the other slots 1). */
static void node_set(const trim__mapspace *s, int depth, const int64_t *const *row, trim__mapping *m)
{
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t rest = s->w->bound[d];
		for (int i = 0; i < s->nslots; i++)
			m->f[s->slot[i]][d] = 1;
		for (int i = 0; i < depth && i < s->nslots; i++) {
			int k = s->tord[i];
			m->f[s->slot[k]][d] = row[d][k];
			rest /= row[d][k];
		}
		if (depth < s->nslots)
			m->f[s->slot[s->tord[depth]]][d] = rest;
	}
}

void trim__mapspace_node_of(const trim__mapspace *s, int depth, const trim__mapping *full, trim__mapping *out)
{
	int64_t f[TRIM_NDIMS][TRIM__MAX_LEVELS];
	const int64_t *row[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++) {
		for (int i = 0; i < s->nslots; i++)
			f[d][i] = full->f[s->slot[i]][d];
		row[d] = f[d];
	}
	ms_mapping_init(s, out);
	node_set(s, depth, row, out);
}

/* Factors of the node (tree slots < depth fixed) from its tree rows. */
static void bb_set(const trim__mapspace *s, int64_t *const *trows, int depth, const int32_t *lo, trim__mapping *m)
{
	const int64_t *row[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++)
		row[d] = s->fact[d] + trows[d][lo[d]] * s->nslots;
	node_set(s, depth, row, m);
}

/* Depth-first below a node (slots < depth fixed, rows [lo, hi)): children
 * best first, a child cut when its bound exceeds the k-th best cost known
 * to this node (the round's bound or the node's own mappings). */
static void bb_node(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                    int depth, const int32_t *lo, const int32_t *hi, double rb, int64_t zero_macs, worker *W)
{
	if (W->err)
		return;
	if (depth >= s->nslots - 1) { /* the last slot takes the rest: one factorisation */
		uint64_t fc = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			fc = fc * (uint64_t)s->nf[d] + (uint64_t)trows[d][lo[d]];
		double cur = top_bound(&W->node) < rb ? top_bound(&W->node) : rb;
		do_fc(s, costs, goal, fc, cur, zero_macs, W);
		W->leafch = NULL;
		for (size_t j = 0; j < W->item.n; j++)
			top_put(&W->node, W->item.cost[j], W->item.idx[j], NULL);
		return;
	}
	bbchild *c = NULL;
	int64_t n = bb_children(s, trows, depth, lo, hi, &c);
	if (n < 0) {
		W->err = n == -1 ? TRIM_ENOMEM : TRIM_ERANGE;
		return;
	}
	const int leaves = depth + 1 == s->nslots - 1; /* the children are factorisations */
	if (leaves && (size_t)n > W->nchcap) {
		struct nodech *q = realloc(W->nchbuf, (size_t)n * sizeof *q);
		if (!q) {
			free(c);
			W->err = TRIM_ENOMEM;
			return;
		}
		W->nchbuf = q;
		W->nchcap = (size_t)n;
	}
	if (depth + 1 <= s->nslots - 1) {
		ms_mapping_init(s, &W->m2); /* node_set writes every factor; keeps and orders are not read */
		for (int64_t i = 0; i < n; i++) {
			bb_set(s, trows, depth + 1, c[i].lo, &W->m2);
			node_lb(s, costs, goal, depth + 1, zero_macs, &W->m2, &W->lbev, &c[i].lb,
			        leaves ? &W->nchbuf[i] : NULL);
			/* c[i].ord (the enumeration position) is also the nchbuf entry */
		}
		W->st_nodes += (uint64_t)n;
		W->st_d[depth + 1] += (uint64_t)n;
		qsort(c, (size_t)n, sizeof *c, bbchild_cmp);
	}
	for (int64_t i = 0; i < n && !W->err; i++) {
		double cur = top_bound(&W->node) < rb ? top_bound(&W->node) : rb;
		if (c[i].lb > cur) {
			W->st_nodes_cut++;
			W->st_dc[depth + 1]++;
			continue; /* counted from the distinct total */
		}
		if (leaves)
			W->leafch = &W->nchbuf[c[i].ord];
		bb_node(s, trows, costs, goal, depth + 1, c[i].lo, c[i].hi, rb, zero_macs, W);
	}
	free(c);
}

/* The allowed rows of dim d (factorisation indices) sorted by their factors
 * at the tree slots in tree order, so that a node is a range of them. */
static int64_t *tree_rows(const trim__mapspace *s, int d)
{
	int64_t n = s->nrows[d];
	int64_t *r = malloc((size_t)(n > 0 ? n : 1) * sizeof *r);
	if (!r)
		return NULL;
	for (int64_t i = 0; i < n; i++) { /* insertion sort: stable, few rows */
		int64_t v = s->rows[d][i], j = i;
		const int64_t *fv = s->fact[d] + v * s->nslots;
		while (j > 0) {
			const int64_t *fu = s->fact[d] + r[j - 1] * s->nslots;
			int c = 0;
			for (int k = 0; k < s->nslots && !c; k++) {
				int64_t a = fu[s->tord[k]], b = fv[s->tord[k]];
				c = (a > b) - (a < b);
			}
			if (c <= 0)
				break;
			r[j] = r[j - 1];
			j--;
		}
		r[j] = v;
	}
	return r;
}

static void prog_set(const trim__mapspace *s, int64_t done, int64_t total)
{
	if (!s->prog)
		return;
	__atomic_store_n(&s->prog[1], total, __ATOMIC_RELAXED);
	__atomic_store_n(&s->prog[0], done, __ATOMIC_RELAXED);
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
		ms_mapping_init(s, m);
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
			if (!BYP_OK(s, b))
				continue;
			ms_mapping_init(s, m);
			set_facts(s, fc, m);
			set_keeps(s, b, m);
			if (trim__mapping_check_reserved(m, s->w, s->a, s->reserved) ||
			    (s->min_pe_util > 0 && trim__mapspace_pe_util(s, m) < s->min_pe_util) ||
			    (s->min_rf_util > 0 && trim__mapspace_rf_util(s, m) < s->min_rf_util))
				continue;
			for (int t = 0; t < 3; t++) {
				if (!s->w->t[t].present)
					continue;
				trim__index idx;
				if (stationary_orders(s, m, t, &W->oc) || trim__eval_run(s->w, s->a, costs, m, &W->ws, &W->ev) ||
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

/* End of a round: every thread's best k into the global list (thread order,
 * then (cost, index): the same for any thread count), the first error. */
static void merge_round(worker *ws, int threads, toplist *glob, trim__eval *glob_eval, int *err)
{
	for (int i = 0; i < threads; i++) {
		worker *W = &ws[i];
		if (W->err && !*err)
			*err = W->err;
		for (size_t j = 0; j < W->keep.n; j++) {
			if (better(W->keep.cost[j], W->keep.idx[j], glob->n ? glob->cost[0] : 0,
			           glob->n ? glob->idx[0] : 0, glob->n) && j == 0)
				*glob_eval = W->best_eval;
			top_put(glob, W->keep.cost[j], W->keep.idx[j], &W->keep.map[j]);
		}
		W->keep.n = 0;
	}
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
		if (top_init(&ws[i].item, k, 0) || top_init(&ws[i].keep, k, 1) || top_init(&ws[i].node, k, 0) ||
		    occ_init(&ws[i].oc, s))
			err = trim__error(TRIM_ENOMEM, "search: out of memory");
	}
	double bound = HUGE_VAL;
	if (!err && !s->nobound)
		bound = seed_bound(s, costs, goal, nfc, zero_macs, k, &ws[0]);
	const double seed = bound;
	/* branch and bound over partial factorisations: the factors of slot 0
	 * for every dim, then slot 1, ...; needs the distinct total (what is cut
	 * is counted from it) */
	uint64_t dtotal = 0;
	bbchild *top = NULL;
	int64_t ntop = 0;
	int64_t *trows[TRIM_NDIMS] = {0};
	if (!err && !s->nobound && s->nslots >= 3 && trim__mapspace_distinct(s, &dtotal) == 0) {
		int32_t lo[TRIM_NDIMS], hi[TRIM_NDIMS];
		for (int d = 0; d < TRIM_NDIMS && !err; d++) {
			lo[d] = 0;
			hi[d] = (int32_t)s->nrows[d];
			if (!(trows[d] = tree_rows(s, d)))
				err = trim__error(TRIM_ENOMEM, "search: out of memory");
		}
		if (!err)
			ntop = bb_children(s, trows, 0, lo, hi, &top);
		if (ntop == -1)
			err = trim__error(TRIM_ENOMEM, "search: out of memory");
		if (ntop < 0)
			ntop = 0;
	}
	if (ntop > 0) {
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
		for (int64_t i = 0; i < ntop; i++) {
			worker *W = &ws[omp_get_thread_num()];
			ms_mapping_init(s, &W->m2);
			bb_set(s, trows, 1, top[i].lo, &W->m2);
			trim__mapspace_node_lb(s, costs, goal, 1, zero_macs, &W->m2, &W->lbev, &top[i].lb);
		}
		qsort(top, (size_t)ntop, sizeof *top, bbchild_cmp);
		const int64_t round = 16;
		prog_set(s, 0, ntop);
		for (int64_t r0 = 0; r0 < ntop && !err; r0 += round) {
			int64_t r1 = r0 + round < ntop ? r0 + round : ntop;
			double rb = bound;
			if (top[r0].lb > rb)
				break; /* sorted: every later node is cut too */
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
			for (int64_t i = r0; i < r1; i++) {
				worker *W = &ws[omp_get_thread_num()];
				if (W->err || top[i].lb > rb)
					continue;
				W->node.n = 0;
				bb_node(s, trows, costs, goal, 1, top[i].lo, top[i].hi, rb, zero_macs, W);
			}
			merge_round(ws, threads, &glob, &glob_eval, &err);
			double gb = top_bound(&glob);
			if (gb < bound)
				bound = gb;
			prog_set(s, r1, ntop);
		}
		prog_set(s, ntop, ntop);
		nfc = 0; /* the plain loop below has nothing left */
	}
	free(top);
	for (int d = 0; d < TRIM_NDIMS; d++)
		free(trows[d]);
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
				do_fc(s, costs, goal, combo_fc(s, ac), rb, zero_macs, W);
		}
		merge_round(ws, threads, &glob, &glob_eval, &err);
		double gb = top_bound(&glob);
		if (gb < bound && !s->nobound)
			bound = gb;
		prog_set(s, (int64_t)r1, (int64_t)nfc);
	}
	if (getenv("TRIM_SEARCH_STATS")) {
		uint64_t v[6] = {0};
		for (int i = 0; i < threads; i++) {
			v[0] += ws[i].st_nodes, v[1] += ws[i].st_nodes_cut, v[2] += ws[i].st_leaves;
			v[3] += ws[i].st_leaves_cut, v[4] += ws[i].st_byp_cut, v[5] += ws[i].st_cls_cut;
		}
		for (int dd = 0; dd < TRIM__MAX_LEVELS; dd++) {
			uint64_t n = 0, c = 0;
			for (int i = 0; i < threads; i++)
				n += ws[i].st_d[dd], c += ws[i].st_dc[dd];
			if (n)
				fprintf(stderr, "search stats: depth %d: %llu nodes bounded, %llu cut\n", dd,
				        (unsigned long long)n, (unsigned long long)c);
		}
		fprintf(stderr, "search stats: top nodes %lld, nodes %llu (cut %llu), leaves %llu (cut whole %llu), "
		        "bypass choices cut %llu, classes cut %llu, seed bound %.6g\n", (long long)ntop,
		        (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
		        (unsigned long long)v[3], (unsigned long long)v[4], (unsigned long long)v[5], seed);
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
		tc_free(&W->tc);
		top_free(&W->item);
		top_free(&W->keep);
		top_free(&W->node);
		occ_free(&W->oc);
		free(W->nchbuf);
		free(W->hbuf);
	}
	free(ws);
	if (dtotal && ntop > 0) { /* cut subtrees: the distinct mappings not generated */
		out->bounded += dtotal - out->generated;
		out->generated = dtotal;
	}
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

/* State of the count: per dim with bound > 1, how many allowed
 * factorisations have bound > 1 at exactly the set S of the storage levels
 * that matter (bit i: rel[i]); the bypass groups. */
typedef struct {
	const trim__mapspace *s;
	int nrel, rel[TRIM__MAX_LEVELS]; /* storage levels (ord index) with a holder below in some choice */
	int nd, dim[TRIM_NDIMS];
	uint64_t *h[TRIM_NDIMS];         /* 2^nrel counts per dim */
	int ng;
	unsigned ghb[512][TRIM__MAX_LEVELS]; /* per group and relevant level: holders below */
	uint64_t gmul[512];               /* bypass choices in the group */
	occache oc;
	unsigned mask[TRIM__MAX_LEVELS];
	uint64_t total;
	int err;
} dcount;

static void dc_dfs(dcount *c, int i, uint64_t w)
{
	if (c->err)
		return;
	if (i == c->nd) {
		for (int g = 0; g < c->ng; g++) {
			uint64_t p = w;
			if (__builtin_mul_overflow(p, c->gmul[g], &p))
				goto ovf;
			for (int j = 0; j < c->nrel; j++) {
				const octab *tb = occ_get(&c->oc, c->s, c->rel[j], c->mask[j], c->ghb[g][j]);
				if (!tb) {
					c->err = trim__error(TRIM_ENOMEM, "mapspace: out of memory");
					return;
				}
				if (__builtin_mul_overflow(p, (uint64_t)tb->n, &p))
					goto ovf;
			}
			if (__builtin_add_overflow(c->total, p, &c->total))
				goto ovf;
		}
		return;
	ovf:
		c->err = trim__error(TRIM_ERANGE, "mapspace: distinct size overflows");
		return;
	}
	const int d = c->dim[i];
	for (unsigned S = 0; S < (1u << c->nrel); S++) {
		uint64_t n = c->h[i][S], nw;
		if (!n)
			continue;
		if (__builtin_mul_overflow(w, n, &nw)) {
			c->err = trim__error(TRIM_ERANGE, "mapspace: distinct size overflows");
			return;
		}
		for (int j = 0; j < c->nrel; j++)
			if (S >> j & 1)
				c->mask[j] |= 1u << d;
		dc_dfs(c, i + 1, nw);
		for (int j = 0; j < c->nrel; j++)
			c->mask[j] &= ~(1u << d);
	}
}

/* Number of distinct mappings (what the search generates), without
 * enumerating mappings: the sum over factorisation combinations and bypass
 * choices of the product over storage levels of the number of order
 * classes there, which depends only on the level's dims > 1 and the tensors
 * with a holder below it. Levels without a holder below in any bypass
 * choice have one class; the others are summed over the subsets of them
 * where each dim has bound > 1. */
int trim__mapspace_distinct(const trim__mapspace *s, uint64_t *out)
{
	dcount c;
	memset(&c, 0, sizeof c);
	c.s = s;
	if (s->nbyp > 12)
		return trim__error(TRIM_ERANGE, "mapspace: distinct size needs at most 12 keep bits");
	if (occ_init(&c.oc, s))
		return trim__error(TRIM_ENOMEM, "mapspace: out of memory");
	trim__mapping m;
	ms_mapping_init(s, &m);
	/* the relevant levels */
	unsigned any[TRIM__MAX_LEVELS] = {0};
	for (uint64_t b = 0; b < ((uint64_t)1 << s->nbyp); b++) {
		if (!BYP_OK(s, b))
			continue;
		set_keeps(s, b, &m);
		for (int k = 0; k < s->nord; k++)
			any[k] |= holders_below(s, &m, s->ord_level[k]);
	}
	for (int k = 0; k < s->nord; k++)
		if (any[k])
			c.rel[c.nrel++] = k;
	int rc = 0;
	if (c.nrel > 12) {
		rc = trim__error(TRIM_ERANGE, "mapspace: distinct size needs at most 12 ordered levels");
		goto out;
	}
	/* bypass groups by the holders below each relevant level */
	for (uint64_t b = 0; b < ((uint64_t)1 << s->nbyp); b++) {
		if (!BYP_OK(s, b))
			continue;
		unsigned v[TRIM__MAX_LEVELS];
		set_keeps(s, b, &m);
		for (int j = 0; j < c.nrel; j++)
			v[j] = holders_below(s, &m, s->ord_level[c.rel[j]]);
		int g = 0;
		while (g < c.ng && memcmp(c.ghb[g], v, (size_t)c.nrel * sizeof *v))
			g++;
		if (g == c.ng) {
			if (c.ng == 512) {
				rc = trim__error(TRIM_ERANGE, "mapspace: too many bypass groups for the distinct size");
				goto out;
			}
			memcpy(c.ghb[c.ng++], v, (size_t)c.nrel * sizeof *v);
		}
		c.gmul[g]++;
	}
	int pos[TRIM__MAX_LEVELS]; /* slot index of each relevant level */
	for (int j = 0; j < c.nrel; j++)
		for (int i = 0; i < s->nslots; i++)
			if (s->slot[i] == s->ord_level[c.rel[j]])
				pos[j] = i;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (s->w->bound[d] == 1)
			continue; /* one factorisation (all 1): no loops */
		int i = c.nd++;
		c.dim[i] = d;
		c.h[i] = calloc((size_t)1 << c.nrel, sizeof *c.h[i]);
		if (!c.h[i]) {
			rc = trim__error(TRIM_ENOMEM, "mapspace: out of memory");
			goto out;
		}
		for (int64_t ri = 0; ri < s->nrows[d]; ri++) {
			int64_t r = s->rows[d][ri];
			unsigned S = 0;
			for (int j = 0; j < c.nrel; j++)
				if (s->fact[d][r * s->nslots + pos[j]] > 1)
					S |= 1u << j;
			c.h[i][S]++;
		}
	}
	dc_dfs(&c, 0, 1);
	rc = c.err;
	if (!rc)
		*out = c.total;
out:
	for (int i = 0; i < c.nd; i++)
		free(c.h[i]);
	occ_free(&c.oc);
	return rc;
}
