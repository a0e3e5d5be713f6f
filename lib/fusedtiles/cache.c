/*
 * The cache of layer searches (docs/fusion.md, "The search"): each result
 * of trim__ft_layer_search kept under a key made of everything that
 * changes it: the content of the (tile) workload (its kind, phase, loop
 * bounds and every tensor's index expressions, extents and zeros; not its
 * name or position), the intermediates it keeps in B, B, the bytes
 * reserved per level (cached activations) and the goal. The
 * architecture and the energy table are those of the one call the cache
 * lives in (a report or a plan search), so two layers with the same
 * content in any chain, group or tiling share one search. A result its
 * deadline stopped is kept with that deadline; with refresh on (a report's
 * retry of its stopped chains) a later deadline searches it again.
 */
#include <stdlib.h>
#include <string.h>

#include "fusedtiles_int.h"

/* Everything of a search's inputs that can change its result, zeroed
 * where unused so that it compares and hashes as bytes. */
typedef struct {
	int kind, phase, B, goal, act_zero_ok;
	unsigned fused;
	int64_t bound[TRIM_NDIMS];
	int64_t macs, zero_macs, act_zero_macs;
	int64_t reserved[TRIM__MAX_LEVELS];
	struct {
		int present, ndims, has_zeros, nterms[TRIM__MAX_TDIMS];
		unsigned relevant;
		int dim[TRIM__MAX_TDIMS][TRIM__MAX_TERMS];
		int64_t coef[TRIM__MAX_TDIMS][TRIM__MAX_TERMS];
		int64_t extent[TRIM__MAX_TDIMS];
		int64_t elems;
		trim__zaxis zaxis[2];
	} t[3];
} cache_key;

struct trim__ft_cache {
	cache_key *key;
	trim__ft_layer_result **res; /* one allocation each: pointers stay valid as it grows */
	double *until;               /* the deadline each was searched with (0: none) */
	int refresh;                 /* search again what a deadline stopped, given more time */
	size_t n, cap;
	size_t *slot;                /* open addressing: index + 1, 0 empty */
	size_t nslot;
	int64_t searches, hits;
};

static void make_key(const trim__intra *w, int B, unsigned fused, const int64_t *reserved, int goal, cache_key *k)
{
	memset(k, 0, sizeof *k);
	if (reserved)
		memcpy(k->reserved, reserved, sizeof k->reserved);
	k->kind = w->kind;
	k->phase = w->phase;
	k->B = B;
	k->goal = goal;
	k->fused = fused;
	k->act_zero_ok = w->act_zero_ok;
	memcpy(k->bound, w->bound, sizeof k->bound);
	k->macs = w->macs;
	k->zero_macs = w->zero_macs;
	k->act_zero_macs = w->act_zero_macs;
	for (int t = 0; t < 3; t++) {
		const trim__tensor *T = &w->t[t];
		k->t[t].present = T->present;
		if (!T->present)
			continue;
		k->t[t].ndims = T->ndims;
		k->t[t].has_zeros = T->has_zeros;
		k->t[t].relevant = T->relevant;
		k->t[t].elems = T->elems;
		if (T->has_zeros)
			memcpy(k->t[t].zaxis, T->zaxis, sizeof T->zaxis);
		for (int x = 0; x < T->ndims && x < TRIM__MAX_TDIMS; x++) {
			k->t[t].extent[x] = T->extent[x];
			k->t[t].nterms[x] = T->idx[x].nterms;
			for (int j = 0; j < T->idx[x].nterms && j < TRIM__MAX_TERMS; j++) {
				k->t[t].dim[x][j] = T->idx[x].dim[j];
				k->t[t].coef[x][j] = T->idx[x].coef[j];
			}
		}
	}
}

/* FNV-1a over the key's bytes. */
static uint64_t key_hash(const cache_key *k)
{
	const unsigned char *p = (const unsigned char *)k;
	uint64_t h = 1469598103934665603u;
	for (size_t i = 0; i < sizeof *k; i++)
		h = (h ^ p[i]) * 1099511628211u;
	return h;
}

int trim__ft_cache_new(trim__ft_cache **out)
{
	*out = trim__calloc(1, sizeof **out);
	return *out ? 0 : TRIM_ENOMEM;
}

void trim__ft_cache_free(trim__ft_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->res[i]);
	free(c->key);
	free(c->res);
	free(c->until);
	free(c->slot);
	free(c);
}

void trim__ft_cache_refresh(trim__ft_cache *c, int on)
{
	c->refresh = on;
}

int64_t trim__ft_cache_searches(const trim__ft_cache *c)
{
	return c->searches;
}

/* The slot of key k (its entry, or the empty slot where it goes). */
static size_t find_slot(const trim__ft_cache *c, const cache_key *k)
{
	size_t i = (size_t)(key_hash(k) & (c->nslot - 1));
	while (c->slot[i] && memcmp(&c->key[c->slot[i] - 1], k, sizeof *k))
		i = (i + 1) & (c->nslot - 1);
	return i;
}

static int grow(trim__ft_cache *c)
{
	size_t cap = c->cap ? 2 * c->cap : 64, nslot = 2 * cap;
	cache_key *key = realloc(c->key, cap * sizeof *key);
	if (key)
		c->key = key;
	trim__ft_layer_result **res = key ? realloc(c->res, cap * sizeof *res) : NULL;
	if (res)
		c->res = res;
	double *until = res ? realloc(c->until, cap * sizeof *until) : NULL;
	if (until)
		c->until = until;
	size_t *slot = until ? trim__calloc(nslot, sizeof *slot) : NULL;
	if (!slot)
		return trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
	free(c->slot);
	c->slot = slot;
	c->nslot = nslot;
	c->cap = cap;
	for (size_t e = 0; e < c->n; e++)
		c->slot[find_slot(c, &c->key[e])] = e + 1;
	return 0;
}

/* A held result r searched again (again): again whole when it is exact
 * or r found nothing; else the cheaper mapping (goal cost, then index)
 * with the higher of the two lower bounds (both hold for the same space),
 * at most its cost. */
static void merge(trim__ft_layer_result *r, const trim__ft_layer_result *again)
{
	if (!again->found)
		return; /* nothing found in the time given: r stands */
	if (again->exact || !r->found) {
		*r = *again;
		return;
	}
	double lb = r->lower_bound > again->lower_bound ? r->lower_bound : again->lower_bound;
	if (again->cost < r->cost || (again->cost == r->cost && again->index < r->index))
		*r = *again;
	r->lower_bound = lb < r->cost ? lb : r->cost;
	r->stopped = again->stopped;
}

int trim__ft_cache_search(trim__ft_cache *c, const trim__intra *w, const struct trim_arch *a,
                          const trim__level_cost *costs, int B, unsigned fused, const int64_t *reserved, int goal,
                          int threads, double deadline, const trim__ft_layer_result **out)
{
	cache_key k;
	make_key(w, B, fused, reserved, goal, &k);
	if (c->nslot) {
		size_t i = find_slot(c, &k);
		if (c->slot[i]) {
			const size_t e = c->slot[i] - 1;
			trim__ft_layer_result *r = c->res[e];
			*out = r;
			if (!(c->refresh && r->stopped && (deadline <= 0 || deadline > c->until[e]))) {
				c->hits++;
				return 0;
			}
			/* stopped by an earlier deadline: again, with this one */
			trim__ft_layer_result again;
			int rc = trim__ft_layer_search_until(w, a, costs, B, fused, reserved, goal, threads, deadline, &again);
			if (rc)
				return rc;
			c->searches++;
			c->until[e] = deadline;
			merge(r, &again);
			return 0;
		}
	}
	int rc = c->n == c->cap ? grow(c) : 0;
	trim__ft_layer_result *r = rc ? NULL : trim__calloc(1, sizeof *r);
	if (!rc && !r)
		rc = trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
	if (!rc)
		rc = trim__ft_layer_search_until(w, a, costs, B, fused, reserved, goal, threads, deadline, r);
	if (rc) {
		free(r);
		return rc;
	}
	c->key[c->n] = k;
	c->res[c->n] = r;
	c->until[c->n] = deadline;
	c->slot[find_slot(c, &k)] = ++c->n;
	c->searches++;
	*out = r;
	return 0;
}
