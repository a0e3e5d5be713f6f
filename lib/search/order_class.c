/*
 * Order classes (docs/model.md, "Mapspace and search"): the signature of a
 * level's loop order, the tables of classes of one set of dims (their
 * representatives and per-tensor projections), the per-thread cache of
 * those tables, canonical representatives, and order plans.
 */
#include "search_int.h"

/* Tensors with a holder strictly below storage level l (bit t). */
unsigned trim__holders_below(const trim__mapspace *s, const trim__mapping *m, int l)
{
	unsigned hb = 0;
	for (int k = l + 1; k < m->nlevels; k++)
		if (m->type[k] == TRIM__LVL_STORAGE)
			for (int t = 0; t < 3; t++)
				if (m->keep[k][t] && s->w->t[t].present)
					hb |= 1u << t;
	return hb;
}

/* Signature of the order o[0..k) (outermost first, loops of bound > 1) of a
 * level for the tensors hb: per tensor, from the innermost loop outwards up
 * to its first loop on a single-term dim, the window dims in sequence and
 * each run of irrelevant dims as a set; then whether a single-term loop
 * ended it. Returns the length. */
static int order_signature(const trim__mapspace *s, const int *o, int k, unsigned hb, uint8_t *sig)
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
static void permutation_of(const int *dl, int k, uint64_t code, int *o)
{
	unsigned taken = 0; /* positions of dl */
	uint32_t c = (uint32_t)code; /* < k! <= 8! */
	for (int i = 0; i < k; i++) {
		uint32_t f = (uint32_t)trim__factorial(k - 1 - i);
		int j = trim__nth_free(taken, (int)(c / f));
		c %= f;
		taken |= 1u << j;
		o[i] = dl[j];
	}
}

/* 1 if the loops o[0..k) (outermost first) of storage level l obey its
 * permutation constraint: the constrained dims it has are its innermost
 * loops, in the constraint's order. */
static int obeys_permutation_constraint(const trim__mapspace *s, int l, const int *o, int k)
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
static void apply_permutation_constraint(const trim__mapspace *s, int l, int *o, int k)
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
void trim__fixed_orders(const trim__mapspace *s, trim__mapping *m)
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
		apply_permutation_constraint(s, l, o, TRIM_NDIMS);
		memcpy(m->order[l], o, sizeof o);
	}
}

/* A mapping of the space with every factor 1 and every order fixed by the
 * index layout set (trim__mapping_init, then trim__fixed_orders). */
void trim__space_mapping_init(const trim__mapspace *s, trim__mapping *m)
{
	trim__mapping_init(m, s->a);
	trim__fixed_orders(s, m);
}

static uint32_t signature_hash(const uint8_t *sig, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ sig[i]) * 16777619u;
	return h;
}

/* Class index of a signature, or -1. */
static int class_of_signature(const order_class_table *tb, const uint8_t *sig, int n, uint32_t *where)
{
	uint32_t h = signature_hash(sig, n) & (tb->nslot - 1);
	for (;; h = (h + 1) & (tb->nslot - 1)) {
		int32_t c = tb->slot[h];
		if (c < 0 || (tb->len[c] == n && !memcmp(tb->sig + (size_t)c * TRIM__SIGNATURE_MAX, sig, (size_t)n))) {
			if (where)
				*where = h;
			return c;
		}
	}
}

static void order_class_table_free(order_class_table *tb)
{
	if (!tb)
		return;
	free(tb->rep);
	free(tb->sig);
	free(tb->len);
	free(tb->slot);
	for (int t = 0; t < 3; t++) {
		free(tb->proj[t]);
		free(tb->proj_sig[t]);
		free(tb->proj_len[t]);
		free(tb->proj_classes[t]);
		free(tb->proj_start[t]);
	}
	free(tb);
}

static order_class_table *order_class_table_build(const trim__mapspace *s, int lk, unsigned mask, unsigned hb)
{
	order_class_table *tb = calloc(1, sizeof *tb);
	if (!tb)
		return NULL;
	tb->hb = hb;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (mask >> d & 1)
			tb->dl[tb->k++] = d;
	uint64_t np = trim__factorial(tb->k);
	tb->nslot = 16;
	while (tb->nslot < 2 * np)
		tb->nslot *= 2;
	tb->rep = malloc(np * sizeof *tb->rep);
	tb->sig = malloc(np * TRIM__SIGNATURE_MAX);
	tb->len = malloc(np);
	tb->slot = malloc(tb->nslot * sizeof *tb->slot);
	if (!tb->rep || !tb->sig || !tb->len || !tb->slot) {
		order_class_table_free(tb);
		return NULL;
	}
	memset(tb->slot, 0xff, tb->nslot * sizeof *tb->slot);
	for (uint64_t code = 0; code < np; code++) {
		int o[TRIM_NDIMS];
		uint8_t sig[TRIM__SIGNATURE_MAX];
		permutation_of(tb->dl, tb->k, code, o);
		if (!obeys_permutation_constraint(s, s->ord_level[lk], o, tb->k))
			continue;
		int n = order_signature(s, o, tb->k, hb, sig);
		uint32_t at;
		if (class_of_signature(tb, sig, n, &at) >= 0)
			continue;
		tb->slot[at] = tb->n;
		tb->rep[tb->n] = (uint32_t)code;
		memcpy(tb->sig + (size_t)tb->n * TRIM__SIGNATURE_MAX, sig, (size_t)n);
		tb->len[tb->n] = (uint8_t)n;
		tb->n++;
	}
	/* per-tensor projections: the distinct single-tensor signatures in
	 * order of first appearance */
	uint8_t *usig = malloc((size_t)tb->n * TRIM__SIGNATURE_MAX);
	uint8_t *ulen = malloc((size_t)tb->n);
	for (int t = 0; t < 3; t++) {
		tb->proj[t] = calloc((size_t)tb->n, sizeof *tb->proj[t]);
		if (!tb->proj[t] || !usig || !ulen) {
			free(usig);
			free(ulen);
			order_class_table_free(tb);
			return NULL;
		}
		tb->nproj[t] = 1;
		if (!(hb >> t & 1))
			continue;
		int nu = 0;
		for (int c = 0; c < tb->n; c++) {
			int o[TRIM_NDIMS];
			uint8_t sig[TRIM__SIGNATURE_MAX];
			permutation_of(tb->dl, tb->k, tb->rep[c], o);
			int n = order_signature(s, o, tb->k, 1u << t, sig);
			int u = 0;
			while (u < nu && !(ulen[u] == n && !memcmp(usig + (size_t)u * TRIM__SIGNATURE_MAX, sig, (size_t)n)))
				u++;
			if (u == nu) {
				memcpy(usig + (size_t)nu * TRIM__SIGNATURE_MAX, sig, (size_t)n);
				ulen[nu++] = (uint8_t)n;
			}
			tb->proj[t][c] = (uint16_t)u;
		}
		tb->nproj[t] = nu;
		tb->proj_sig[t] = malloc((size_t)nu * TRIM__SIGNATURE_MAX);
		tb->proj_len[t] = malloc((size_t)nu);
		if (!tb->proj_sig[t] || !tb->proj_len[t]) {
			free(usig);
			free(ulen);
			order_class_table_free(tb);
			return NULL;
		}
		memcpy(tb->proj_sig[t], usig, (size_t)nu * TRIM__SIGNATURE_MAX);
		memcpy(tb->proj_len[t], ulen, (size_t)nu);
	}
	free(usig);
	for (int t = 0; t < 3; t++) { /* group the classes by projection (counting sort) */
		tb->proj_classes[t] = malloc((size_t)(tb->n > 0 ? tb->n : 1) * sizeof *tb->proj_classes[t]);
		tb->proj_start[t] = calloc((size_t)tb->nproj[t] + 1, sizeof *tb->proj_start[t]);
		if (!tb->proj_classes[t] || !tb->proj_start[t]) {
			free(ulen);
			order_class_table_free(tb);
			return NULL;
		}
		for (int c = 0; c < tb->n; c++)
			tb->proj_start[t][tb->proj[t][c] + 1]++;
		for (int u = 0; u < tb->nproj[t]; u++)
			tb->proj_start[t][u + 1] += tb->proj_start[t][u];
		for (int c = 0; c < tb->n; c++)
			tb->proj_classes[t][tb->proj_start[t][tb->proj[t][c]]++] = (uint32_t)c;
		for (int u = tb->nproj[t]; u > 0; u--) /* back to group starts */
			tb->proj_start[t][u] = tb->proj_start[t][u - 1];
		tb->proj_start[t][0] = 0;
	}
	free(ulen);
	return tb;
}

/* ---- the number of classes alone (trim__mapspace_distinct) ------------- */

/* A set of signatures (open addressing; grown at half full). */
typedef struct {
	uint8_t *sig; /* cap * TRIM__SIGNATURE_MAX */
	uint8_t *len; /* 1 + the signature's length; 0: free */
	uint32_t cap, n;
} sig_set;

static int sig_set_add(sig_set *z, const uint8_t *sig, int n)
{
	if (2 * (z->n + 1) > z->cap) {
		sig_set g = {NULL, NULL, z->cap ? 2 * z->cap : 64, 0};
		g.sig = malloc((size_t)g.cap * TRIM__SIGNATURE_MAX);
		g.len = calloc(g.cap, 1);
		if (!g.sig || !g.len) {
			free(g.sig);
			free(g.len);
			return TRIM_ENOMEM;
		}
		for (uint32_t i = 0; i < z->cap; i++)
			if (z->len[i])
				sig_set_add(&g, z->sig + (size_t)i * TRIM__SIGNATURE_MAX, z->len[i] - 1);
		free(z->sig);
		free(z->len);
		*z = g;
	}
	uint32_t h = signature_hash(sig, n) & (z->cap - 1);
	for (; z->len[h]; h = (h + 1) & (z->cap - 1))
		if (z->len[h] == n + 1 && !memcmp(z->sig + (size_t)h * TRIM__SIGNATURE_MAX, sig, (size_t)n))
			return 0;
	memcpy(z->sig + (size_t)h * TRIM__SIGNATURE_MAX, sig, (size_t)n);
	z->len[h] = (uint8_t)(n + 1);
	z->n++;
	return 0;
}

typedef struct {
	const trim__mapspace *s;
	unsigned hb;
	int k;
	int o[TRIM_NDIMS]; /* filled from the innermost (o[k - 1]) outwards */
	sig_set set;
	int err;
} class_count;

/* Place loop `pos` (counting from the innermost, 0) from the dims left;
 * once every tensor of hb has met a single-term dim (where its signature
 * ends) the loops outside cannot change the signature: any order of the
 * rest stands for them all. */
static void count_suffixes(class_count *c, int pos, unsigned left, unsigned ended)
{
	if (c->err)
		return;
	if (pos == c->k || ended == c->hb) {
		int o[TRIM_NDIMS], n = c->k - pos;
		memcpy(o + n, c->o + n, (size_t)pos * sizeof *o);
		for (int d = 0, i = 0; d < TRIM_NDIMS; d++)
			if (left >> d & 1)
				o[i++] = d;
		uint8_t sig[TRIM__SIGNATURE_MAX];
		const int len = order_signature(c->s, o, c->k, c->hb, sig);
		c->err = sig_set_add(&c->set, sig, len);
		return;
	}
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (!(left >> d & 1))
			continue;
		unsigned e = ended;
		for (int t = 0; t < 3; t++)
			if ((c->hb >> t & 1) && (c->s->dsingle[t] >> d & 1))
				e |= 1u << t;
		c->o[c->k - 1 - pos] = d;
		count_suffixes(c, pos + 1, left & ~(1u << d), e);
	}
}

int64_t trim__order_class_count(const trim__mapspace *s, int lk, unsigned mask, unsigned hb)
{
	class_count c = {.s = s, .hb = hb};
	for (int d = 0; d < TRIM_NDIMS; d++)
		c.k += mask >> d & 1;
	/* the permutation constraint's dims the level has are its innermost
	 * loops, in the constraint's order: placed first */
	const int l = s->ord_level[lk];
	unsigned left = mask, ended = 0;
	int pos = 0;
	for (int i = 0; i < s->ncperm[l]; i++) {
		const int d = s->cperm[l][i];
		if (!(left >> d & 1))
			continue;
		c.o[c.k - 1 - pos++] = d;
		left &= ~(1u << d);
		for (int t = 0; t < 3; t++)
			if ((hb >> t & 1) && (s->dsingle[t] >> d & 1))
				ended |= 1u << t;
	}
	count_suffixes(&c, pos, left, ended & hb);
	free(c.set.sig);
	free(c.set.len);
	return c.err ? -1 : (int64_t)c.set.n;
}

int trim__order_class_cache_init(order_class_cache *c, const trim__mapspace *s)
{
	c->nord = s->nord;
	c->tab = calloc((size_t)(s->nord > 0 ? s->nord : 1) * 256 * 8, sizeof *c->tab);
	return c->tab ? 0 : TRIM_ENOMEM;
}

void trim__order_class_cache_free(order_class_cache *c)
{
	if (!c->tab)
		return;
	for (int i = 0; i < c->nord * 256 * 8; i++)
		order_class_table_free(c->tab[i]);
	free(c->tab);
	c->tab = NULL;
}

const order_class_table *trim__order_class_cache_get(order_class_cache *c, const trim__mapspace *s, int k,
                                                     unsigned mask, unsigned hb)
{
	order_class_table **p = &c->tab[((size_t)k * 256 + mask) * 8 + hb];
	if (!*p)
		*p = order_class_table_build(s, k, mask, hb);
	return *p;
}

/* Dims with bound > 1 at level l. */
static unsigned loop_dims_mask(const trim__mapping *m, int l)
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
int trim__canonicalize(const trim__mapspace *s, trim__mapping *m, order_class_cache *c)
{
	trim__fixed_orders(s, m);
	for (int k = 0; k < s->nord; k++) {
		int l = s->ord_level[k], o[TRIM_NDIMS], n = 0, dl[TRIM_NDIMS], nd = 0;
		unsigned hb = trim__holders_below(s, m, l), mask = loop_dims_mask(m, l);
		for (int i = 0; i < TRIM_NDIMS; i++)
			if (m->f[l][m->order[l][i]] > 1)
				o[n++] = m->order[l][i];
		if (!obeys_permutation_constraint(s, l, o, n))
			apply_permutation_constraint(s, l, o, n);
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (mask >> d & 1)
				dl[nd++] = d;
		uint8_t sig[TRIM__SIGNATURE_MAX], sg[TRIM__SIGNATURE_MAX];
		int len = order_signature(s, o, n, hb, sig);
		if (c) {
			const order_class_table *tb = trim__order_class_cache_get(c, s, k, mask, hb);
			if (!tb)
				return TRIM_ENOMEM;
			int ci = class_of_signature(tb, sig, len, NULL);
			permutation_of(dl, nd, tb->rep[ci], o);
		} else {
			uint64_t np = trim__factorial(nd);
			for (uint64_t code = 0; code < np; code++) {
				int q[TRIM_NDIMS];
				permutation_of(dl, nd, code, q);
				if (obeys_permutation_constraint(s, l, q, nd) && order_signature(s, q, nd, hb, sg) == len &&
				    !memcmp(sg, sig, (size_t)len)) {
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
	trim__canonicalize(s, m, NULL);
}

int trim__plan_orders(const trim__mapspace *s, const trim__mapping *m, order_class_cache *c, order_plan *p)
{
	p->total = 1;
	for (int k = 0; k < s->nord; k++) {
		int l = s->ord_level[k];
		p->tab[k] = trim__order_class_cache_get(c, s, k, loop_dims_mask(m, l), trim__holders_below(s, m, l));
		if (!p->tab[k])
			return TRIM_ENOMEM;
		p->radix[k] = (uint64_t)p->tab[k]->n;
		p->total *= p->radix[k];
	}
	return 0;
}

/* Order of level k: the representative of class `code`. */
void trim__apply_order(const trim__mapspace *s, const order_plan *p, int k, uint64_t code,
                       trim__mapping *m)
{
	const order_class_table *tb = p->tab[k];
	int o[TRIM_NDIMS];
	permutation_of(tb->dl, tb->k, tb->rep[code], o);
	put_order(s, m, s->ord_level[k], o, tb->k);
}
