/*
 * The memo of the stationarity bound's searches over the extents
 * (stationary_bound.c: most reuse, sliding-window floors), kept in a
 * worker's stationary_workspace with the windowed tensors' floor energies.
 * Direct-mapped: no lock (one workspace per worker), an entry replaced by
 * the next key that hashes to its slot; a key holds every input of the
 * search it answers (bound_int.h, extents_key).
 */
#include "search_int.h"

stationary_workspace *trim__stationary_workspace_new(void)
{
	return trim__calloc(1, sizeof(stationary_workspace));
}

void trim__stationary_workspace_free(stationary_workspace *sw)
{
	free(sw);
}

void trim__extents_key_of(extents_key *k, const trim__mapspace *s, const allowed_extents *x, int kind, int h,
                          unsigned mask, int t, unsigned arg, int64_t enough, unsigned vary)
{
	k->space = s->test_memo_off ? 0 : s->memo_id; /* 0: neither asked nor kept */
	k->reserved = s->reserved[h];
	k->enough = enough;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		const int v = vary >> d & 1;
		k->kmin[d] = x->kmin[d];
		k->q[d] = v ? x->q[d] : 0;
		k->cap[d] = v ? x->cap[d] : 0;
	}
	k->args = (uint64_t)arg | (uint64_t)kind << 32 | (uint64_t)(h & 0xff) << 40 | (uint64_t)(t & 0xff) << 48 |
	          (uint64_t)(mask & 0xff) << 56;
}

static int keys_equal(const extents_key *a, const extents_key *b)
{
	const uint64_t *p = (const uint64_t *)a, *q = (const uint64_t *)b;
	for (size_t i = 0; i < sizeof *a / sizeof *p; i++)
		if (p[i] != q[i])
			return 0;
	return 1;
}

static extents_entry *extents_slot(stationary_workspace *sw, const extents_key *k)
{
	const uint64_t *p = (const uint64_t *)k;
	uint64_t v = 0;
	for (size_t i = 0; i < sizeof *k / sizeof *p; i++) {
		v = (v ^ p[i]) * 0x9e3779b97f4a7c15ull;
		v ^= v >> 32;
	}
	v = (v ^ v >> 30) * 0xbf58476d1ce4e5b9ull; /* splitmix64's finaliser: every bit to the low ones */
	v = (v ^ v >> 27) * 0x94d049bb133111ebull;
	v ^= v >> 31;
	return &sw->extents_memo[v % EXTENTS_MEMO];
}

int trim__extents_get(stationary_workspace *sw, const extents_key *k, extents_entry **e, int64_t *value,
                      uint64_t *hits)
{
	*e = NULL;
	if (!k->space)
		return 0;
	*e = extents_slot(sw, k);
	if (keys_equal(&(*e)->key, k)) { /* an unused entry's space is 0 */
		if (hits)
			(*hits)++;
		memcpy(value, (*e)->value, sizeof (*e)->value);
		return 1;
	}
	return 0;
}

void trim__extents_put(extents_entry *e, const extents_key *k, const int64_t *value)
{
	if (e) {
		e->key = *k;
		memcpy(e->value, value, sizeof e->value);
	}
}
