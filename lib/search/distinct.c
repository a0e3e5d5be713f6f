/*
 * The number of distinct mappings (what the search generates), computed
 * without enumerating mappings.
 */
#include "search_int.h"

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
	int64_t *classes;                /* per (ordered level, dims mask, hb): the classes, -1 unknown */
	unsigned mask[TRIM__MAX_LEVELS];
	uint64_t total;
	int err;
	search_worker *W; /* trim__mapspace_distinct_until's: its stop ends the count */
	unsigned leaves;
} distinct_count;

/* The count stopped by its worker's time (not an error: no message). */
#define DISTINCT_STOPPED 1

static void count_dfs(distinct_count *c, int i, uint64_t w)
{
	if (c->err)
		return;
	if (i == c->nd) {
		/* a large layer's count builds thousands of order-class tables
		 * (tenths of a second): a search whose time is up stops it (only
		 * by the clock or the caller's flag: a stop at a chosen check,
		 * stop_after, counts the search's checks, which this must not
		 * consume) */
		if (c->W && !c->W->stop_after && ++c->leaves % 16 == 0 && trim__worker_stop(c->W)) {
			c->err = DISTINCT_STOPPED;
			return;
		}
		for (int g = 0; g < c->ng; g++) {
			uint64_t p = w;
			if (__builtin_mul_overflow(p, c->gmul[g], &p))
				goto ovf;
			for (int j = 0; j < c->nrel; j++) {
				int64_t *n = &c->classes[((size_t)c->rel[j] * 256 + c->mask[j]) * 8 + c->ghb[g][j]];
				if (*n < 0 && (*n = trim__order_class_count(c->s, c->rel[j], c->mask[j], c->ghb[g][j])) < 0) {
					c->err = trim__error(TRIM_ENOMEM, "mapspace: out of memory");
					return;
				}
				if (__builtin_mul_overflow(p, (uint64_t)*n, &p))
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
		count_dfs(c, i + 1, nw);
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
static int distinct(const trim__mapspace *s, uint64_t *out, search_worker *W)
{
	distinct_count c;
	memset(&c, 0, sizeof c);
	c.s = s;
	c.W = W;
	if (s->nbyp > 12)
		return trim__error(TRIM_ERANGE, "mapspace: distinct size needs at most 12 keep bits");
	const size_t ncls = (size_t)(s->nord > 0 ? s->nord : 1) * 256 * 8;
	if (!(c.classes = malloc(ncls * sizeof *c.classes)))
		return trim__error(TRIM_ENOMEM, "mapspace: out of memory");
	memset(c.classes, 0xff, ncls * sizeof *c.classes);
	trim__mapping m;
	trim__space_mapping_init(s, &m);
	/* the relevant levels */
	unsigned any[TRIM__MAX_LEVELS] = {0};
	for (uint64_t b = 0; b < ((uint64_t)1 << s->nbyp); b++) {
		if (!trim__bypass_allowed(s, b))
			continue;
		trim__set_keeps(s, b, &m);
		for (int k = 0; k < s->nord; k++)
			any[k] |= trim__holders_below(s, &m, s->ord_level[k]);
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
		if (!trim__bypass_allowed(s, b))
			continue;
		unsigned v[TRIM__MAX_LEVELS];
		trim__set_keeps(s, b, &m);
		for (int j = 0; j < c.nrel; j++)
			v[j] = trim__holders_below(s, &m, s->ord_level[c.rel[j]]);
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
	count_dfs(&c, 0, 1);
	rc = c.err;
	if (!rc)
		*out = c.total;
out:
	for (int i = 0; i < c.nd; i++)
		free(c.h[i]);
	free(c.classes);
	return rc;
}

int trim__mapspace_distinct(const trim__mapspace *s, uint64_t *out)
{
	return distinct(s, out, NULL);
}

int trim__mapspace_distinct_until(const trim__mapspace *s, uint64_t *out, search_worker *W)
{
	return distinct(s, out, W);
}
