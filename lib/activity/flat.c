/*
 * Mappings with flattened groups (lib/mapping/flat.c; docs/model.md,
 * "Flattened groups"). The mapping's bounds see the collapsed workload
 * (trim__flat_view: a group is one dim, RSC of bound R*S*C), where every
 * tensor that reads a group through axes of its own (the weights of RSC,
 * the outputs of EF) is a relabelling of the real one: its counts are the
 * analyst's on that view, exactly. An operand that reads a group through a
 * window (the inputs: h = U*e + r) has tiles that are no translates of one
 * base set; it is counted here by walking, hop by hop, the steps of the
 * temporal loops above the child and its instances, with each tile's
 * distinct elements listed (the same quantities as the reference
 * simulator, test/refsim.c, from lists instead of bitmaps of the tensor).
 * Cost: per hop, (steps above the child) x (instances of the child) x
 * (points of its tile along the dims the tensor reads): the nest's points
 * once per hop at most; the scratch is allocated per call.
 */
#include <stdlib.h>
#include <string.h>

#include "analyst_int.h"

#define MAXLOOPS (TRIM__MAX_LEVELS * TRIM_NDIMS)
#define WALK_ENTRIES 268435456.0  /* 2^28 (instance, element) pairs of one step */
#define WALK_VISITS 17179869184.0 /* 2^34 points of the tiles over the steps */

typedef struct {
	int level, dim, spatial;
	int64_t b, stride;
} floop;

/* The walk of one tensor. Positions are per collapsed dim (a group's one
 * index at its head), expanded into the workload's dims for an element. */
typedef struct {
	const trim__intra *w;         /* the workload itself, not the collapsed view */
	const trim__mapping *m;
	int t, nL, n;                 /* the tensor, the levels, the loops */
	floop lp[MAXLOOPS];           /* the loops of bound > 1, outermost first */
	int64_t ext[TRIM_NDIMS];      /* the collapsed bounds */
	int rel[TRIM_NDIMS];          /* the collapsed dims the tensor reads */
	int64_t E;                    /* its elements */
	int64_t *cnt, *sum, *touched; /* per element: children needing it, words; elements touched */
	int64_t *stamp, gen;          /* per element: the last list it joined */
	int win[TRIM_NDIMS];          /* the group heads it reads (their pieces differ) */
} walker;

static int cmp64(const void *a, const void *b)
{
	const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The distinct elements of the tile of the instance at base ib (collapsed
 * positions) spanning below[] into out (sorted); their number. */
static int64_t tile_list(walker *W, const int64_t *ib, const int64_t *below, int64_t *out)
{
	int64_t n = 0, off[TRIM_NDIMS] = {0}, pos[TRIM_NDIMS], dv[TRIM_NDIMS];
	W->gen++;
	for (;;) {
		int inside = 1;
		for (int d = 0; d < TRIM_NDIMS; d++) {
			pos[d] = ib[d] + off[d];
			inside &= pos[d] < W->ext[d];
		}
		if (inside) {
			trim__flat_expand(W->m, W->w, pos, dv);
			const int64_t x = trim__flat_elem(W->w, W->t, dv);
			if (x >= 0 && W->stamp[x] != W->gen) {
				W->stamp[x] = W->gen;
				out[n++] = x;
			}
		}
		int d = TRIM_NDIMS - 1;
		while (d >= 0 && (!W->rel[d] || ++off[d] >= below[d])) {
			off[d] = 0;
			d--;
		}
		if (d < 0)
			break;
	}
	qsort(out, (size_t)n, sizeof *out, cmp64);
	return n;
}

/* One level of the delivery tree: entries (node id, element, words) of the
 * children at depth d+1, grouped by child, in order; per children of one
 * node (per of them) the words entering the node, into out (same form).
 * repl: the level and every one below on the hop replicate. Adds the
 * statistics of refsim's tree_walk. */
typedef struct {
	int64_t tot, deliv, uni, multi, mdest;
} tstat;

static int64_t tree_level(walker *W, const int64_t *in, int64_t nin, int64_t per, int repl, int64_t *out, tstat *st)
{
	int64_t nout = 0;
	for (int64_t i = 0; i < nin;) {
		const int64_t node = in[3 * i] / per;
		int64_t nt = 0, j = i;
		for (; j < nin && in[3 * j] / per == node; j++) {
			/* a child's entries name distinct elements: cnt counts children */
			const int64_t x = in[3 * j + 1], words = in[3 * j + 2];
			st->deliv += words;
			if (!W->cnt[x])
				W->touched[nt++] = x;
			W->cnt[x]++;
			W->sum[x] += words;
		}
		for (int64_t q = 0; q < nt; q++) {
			const int64_t x = W->touched[q];
			out[3 * nout] = node;
			out[3 * nout + 1] = x;
			out[3 * nout + 2] = repl ? 1 : W->sum[x];
			st->tot += out[3 * nout + 2];
			nout++;
			if (repl) {
				if (W->cnt[x] == 1)
					st->uni++;
				else {
					st->multi++;
					st->mdest += W->cnt[x];
				}
			}
			W->cnt[x] = W->sum[x] = 0;
		}
		i = j;
	}
	if (!repl)
		st->uni = st->deliv, st->multi = st->mdest = 0;
	return nout;
}

/* One hop's walk: its loops, instances, tree and scratch. */
typedef struct {
	int B, C, mac;                 /* C: the compute level (mac = 1) */
	int tl[MAXLOOPS], ntl;         /* temporal loops above C */
	int sl[MAXLOOPS], nsl;         /* spatial loops above C (instance digits, outer first) */
	int S[TRIM__MAX_LEVELS], k;    /* spatial levels of bounds > 1 between B and C */
	int repl[TRIM__MAX_LEVELS];    /* S[d] and every one below it multicast */
	int64_t per[TRIM__MAX_LEVELS]; /* children of an S[d] instance */
	int64_t below[TRIM_NDIMS], span[TRIM_NDIMS]; /* loops at C and below; the spatial loops above C */
	int64_t ninst, cap, nrk;
	int64_t *old, *oldn, *tiles, *tilen, *tgen, *ent[2];
} hop;

/* A step's statistics: per depth the tree's, [k] the leaves' words. */
typedef struct {
	tstat st[TRIM__MAX_LEVELS];
	int64_t tot_k, fills;
} hstat;

/* The counts of the step whose temporal loops start at tb (the step-th
 * executed): the child instances' tiles, their new elements (all at the
 * MACs) and the tree over them. */
static void hop_step(walker *W, hop *H, const int64_t *tb, int64_t step, hstat *hs)
{
	int64_t nl = 0;
	memset(hs, 0, sizeof *hs);
	for (int64_t c = 0; c < H->ninst; c++) {
		int64_t ib[TRIM_NDIMS], rem = c, rk = 0, rstride = 1;
		memcpy(ib, tb, sizeof ib);
		for (int q = H->nsl - 1; q >= 0; q--) {
			const floop *L = &W->lp[H->sl[q]];
			const int64_t digit = rem % L->b;
			rem /= L->b;
			ib[L->dim] += digit * L->stride;
			if (W->rel[L->dim]) {
				rk += digit * rstride;
				rstride *= L->b;
			}
		}
		int active = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			active &= ib[d] < W->ext[d];
		int64_t n = 0, *list = H->tiles + rk * H->cap, *e = H->ent[0];
		if (active) {
			if (H->tgen[rk] != step) {
				H->tgen[rk] = step;
				H->tilen[rk] = tile_list(W, ib, H->below, list);
			}
			n = H->tilen[rk];
		}
		if (H->mac) {
			for (int64_t q = 0; q < n; q++, nl++)
				e[3 * nl] = c, e[3 * nl + 1] = list[q], e[3 * nl + 2] = 1;
			continue;
		}
		int64_t *o = H->old + c * H->cap, on = H->oldn[c], p = 0;
		for (int64_t q = 0; q < n; q++) {
			while (p < on && o[p] < list[q])
				p++;
			if (p < on && o[p] == list[q])
				continue;
			e[3 * nl] = c, e[3 * nl + 1] = list[q], e[3 * nl + 2] = 1;
			nl++;
			hs->fills++;
		}
		memcpy(o, list, (size_t)n * sizeof *o);
		H->oldn[c] = n;
	}
	hs->tot_k = nl;
	int64_t *in = H->ent[0], *nx = H->ent[1];
	for (int d = H->k - 1; d >= 0; d--) {
		nl = tree_level(W, in, nl, H->per[d], H->repl[d], nx, &hs->st[d]);
		int64_t *sw = in;
		in = nx;
		nx = sw;
	}
}

/* A step's counts into out (refsim's tree_walk and fills). */
static void hop_add(const walker *W, const hop *H, const hstat *hs, trim__activity *out)
{
	const int t = W->t;
	if (!H->mac)
		out->fills[H->C][t] += hs->fills;
	for (int l = H->B + 1, d = 0; l < H->C; l++) {
		if (W->m->type[l] != TRIM__LVL_SPATIAL)
			continue;
		if (d < H->k && H->S[d] == l) {
			out->down_words[l][t] += hs->st[d].tot;
			out->down_dests[l][t] += hs->st[d].deliv;
			out->unicast[l][t] += hs->st[d].uni;
			out->mcast[l][t] += hs->st[d].multi;
			out->mcast_dests[l][t] += hs->st[d].mdest;
			d++;
		} else { /* bounds 1: what passes at its depth */
			const int64_t pass = d < H->k ? hs->st[d].tot : hs->tot_k;
			out->down_words[l][t] += pass;
			out->down_dests[l][t] += pass;
			out->unicast[l][t] += pass;
		}
	}
	out->reads[H->B][t] += H->k ? hs->st[0].tot : hs->tot_k;
}

/* The steps at the MACs do not depend on the last one: a step's counts
 * are those of any step whose tiles are its translates, so they are
 * memoised by a key that names them up to translation: per dim the start
 * of a group read through a window (its pieces differ), else the length
 * left before the bound, at most what the instances span (the clipping). */
typedef struct {
	int64_t key[TRIM_NDIMS];
	int used;
	hstat hs;
} mentry;

static void step_key(const walker *W, const hop *H, const int64_t *tb, int64_t *key)
{
	for (int d = 0; d < TRIM_NDIMS; d++) {
		const int g = W->m->ngroups ? W->m->group_of[d] - 1 : -1;
		if (g >= 0 && W->rel[d] && W->win[d])
			key[d] = tb[d];
		else
			key[d] = W->ext[d] - tb[d] < H->span[d] ? W->ext[d] - tb[d] : H->span[d];
	}
}

static uint64_t key_hash(const int64_t *key)
{
	uint64_t h = 1469598103934665603u;
	for (int d = 0; d < TRIM_NDIMS; d++)
		h = (h ^ (uint64_t)key[d]) * 1099511628211u;
	return h;
}

/* The memo's entry for key (a free one to fill: used 0); NULL when full. */
static mentry *memo_find(mentry *tab, size_t cap, const int64_t *key)
{
	for (size_t i = key_hash(key) % cap, n = 0; n < cap; n++, i = (i + 1) % cap)
		if (!tab[i].used || !memcmp(tab[i].key, key, sizeof tab[i].key))
			return &tab[i];
	return NULL;
}

static int hop_init(walker *W, const struct trim_arch *a, int B, int C, hop *H)
{
	const trim__mapping *m = W->m;
	memset(H, 0, sizeof *H);
	H->B = B;
	H->C = C;
	H->mac = C == W->nL - 1;
	H->ninst = H->cap = H->nrk = 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		H->below[d] = H->span[d] = 1;
		for (int l = C; l < W->nL; l++)
			H->below[d] *= m->f[l][d];
		if (W->rel[d])
			H->cap *= H->below[d] < W->ext[d] ? H->below[d] : W->ext[d];
	}
	for (int j = 0; j < W->n; j++) {
		const floop *L = &W->lp[j];
		if (L->level >= C)
			continue;
		if (!L->spatial) {
			H->tl[H->ntl++] = j;
			continue;
		}
		H->sl[H->nsl++] = j;
		H->ninst *= L->b;
		H->span[L->dim] += (L->b - 1) * L->stride;
		if (W->rel[L->dim])
			H->nrk *= L->b;
	}
	for (int l = B + 1; l < C; l++) {
		int64_t p = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			p *= m->f[l][d];
		if (m->type[l] == TRIM__LVL_SPATIAL && p > 1)
			H->S[H->k++] = l;
	}
	/* an S[d] instance's children: the instances of S[d+1] (of C) in it */
	for (int d = H->k - 1, repl = 1; d >= 0; d--) {
		int64_t p = 1;
		for (int q = 0; q < H->nsl; q++)
			if (W->lp[H->sl[q]].level >= H->S[d] && (d + 1 == H->k || W->lp[H->sl[q]].level < H->S[d + 1]))
				p *= W->lp[H->sl[q]].b;
		H->per[d] = p;
		repl = repl && a->lv[H->S[d]].multicast;
		H->repl[d] = repl;
	}
	/* the walk's size: its entries, and the points it visits (a step at the
	 * MACs, once counted, is looked up) */
	double steps = 1;
	for (int q = 0; q < H->ntl; q++)
		steps *= (double)W->lp[H->tl[q]].b;
	const double ent = (double)H->ninst * (double)H->cap, visits = H->mac ? steps : steps * ent;
	if (ent > WALK_ENTRIES || visits > WALK_VISITS)
		return trim__error(TRIM_EINVAL, "activity: the %s tensor of a flattened group's mapping is walked (read "
		                   "through a window): %.3g tile elements per step, %.3g visits at level %s, more than the "
		                   "walk takes (2^28, 2^34; docs/model.md, \"Flattened groups\")", W->w->t[W->t].name,
		                   ent, visits, m->name[C]);
	const size_t nent = (size_t)(H->ninst * H->cap);
	H->old = H->mac ? NULL : calloc(nent, sizeof *H->old);
	H->oldn = calloc((size_t)H->ninst, sizeof *H->oldn);
	H->tiles = malloc((size_t)(H->nrk * H->cap) * sizeof *H->tiles);
	H->tilen = malloc((size_t)H->nrk * sizeof *H->tilen);
	H->tgen = calloc((size_t)H->nrk, sizeof *H->tgen);
	H->ent[0] = malloc(3 * nent * sizeof(int64_t));
	H->ent[1] = malloc(3 * nent * sizeof(int64_t));
	if ((!H->mac && !H->old) || !H->oldn || !H->tiles || !H->tilen || !H->tgen || !H->ent[0] || !H->ent[1])
		return trim__error(TRIM_ENOMEM, "activity: out of memory (a flattened group's walk)");
	return 0;
}

static void hop_free(hop *H)
{
	free(H->old);
	free(H->oldn);
	free(H->tiles);
	free(H->tilen);
	free(H->tgen);
	free(H->ent[0]);
	free(H->ent[1]);
}

/* Hop B -> C of the walked tensor (C = the compute level: every step's
 * operands of the MACs): every executed step of the temporal loops above
 * C (one whose first point is within the bounds, as in refsim). */
static int walk_hop(walker *W, const struct trim_arch *a, int B, int C, trim__activity *out)
{
	hop H;
	int64_t cur[MAXLOOPS] = {0}, step = 0;
	size_t mcap = 4096;
	mentry *memo = NULL;
	int rc = hop_init(W, a, B, C, &H);
	if (!rc && H.mac && !(memo = calloc(mcap, sizeof *memo)))
		rc = trim__error(TRIM_ENOMEM, "activity: out of memory (a flattened group's walk)");
	for (; !rc;) {
		int64_t tb[TRIM_NDIMS] = {0};
		int executed = 1;
		for (int q = 0; q < H.ntl; q++)
			tb[W->lp[H.tl[q]].dim] += cur[q] * W->lp[H.tl[q]].stride;
		for (int d = 0; d < TRIM_NDIMS; d++)
			executed &= tb[d] < W->ext[d];
		if (executed) {
			hstat hs;
			int64_t key[TRIM_NDIMS];
			mentry *e = NULL;
			if (H.mac) {
				step_key(W, &H, tb, key);
				if (!(e = memo_find(memo, mcap, key))) { /* full: start again, twice the size */
					free(memo);
					mcap *= 2;
					if (!(memo = calloc(mcap, sizeof *memo))) {
						rc = trim__error(TRIM_ENOMEM, "activity: out of memory (a flattened group's walk)");
						break;
					}
					e = memo_find(memo, mcap, key);
				}
			}
			if (e && e->used) {
				hop_add(W, &H, &e->hs, out);
			} else {
				hop_step(W, &H, tb, ++step, &hs);
				hop_add(W, &H, &hs, out);
				if (e) {
					memcpy(e->key, key, sizeof key);
					e->used = 1;
					e->hs = hs;
				}
			}
		}
		int q = H.ntl - 1;
		while (q >= 0 && ++cur[q] == W->lp[H.tl[q]].b)
			cur[q--] = 0;
		if (q < 0)
			break;
	}
	free(memo);
	hop_free(&H);
	return rc;
}

/* Every hop of operand t (the tensor's home: level 0). */
static int walk_tensor(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m, int t,
                       trim__activity *out)
{
	walker W;
	memset(&W, 0, sizeof W);
	W.w = w;
	W.m = m;
	W.t = t;
	W.nL = m->nlevels;
	W.E = w->t[t].elems;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		W.ext[d] = trim__flat_bound(m, w, d);
		W.rel[d] = w->t[t].relevant >> d & 1;
	}
	for (int g = 0; g < m->ngroups; g++) {
		const int head = m->group_dim[g][0];
		for (int i = 0; i < m->group_nd[g]; i++)
			W.rel[head] |= w->t[t].relevant >> m->group_dim[g][i] & 1;
		for (int i = 1; i < m->group_nd[g]; i++)
			W.rel[m->group_dim[g][i]] = 0;
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		W.win[d] = W.rel[d] && m->group_of[d];
	for (int l = 0; l < W.nL; l++) {
		if (m->type[l] == TRIM__LVL_COMPUTE)
			continue;
		for (int q = 0; q < TRIM_NDIMS; q++) {
			const int d = m->type[l] == TRIM__LVL_STORAGE ? m->order[l][q] : q;
			if (m->f[l][d] > 1)
				W.lp[W.n++] = (floop){l, d, m->type[l] == TRIM__LVL_SPATIAL, m->f[l][d], 1};
		}
	}
	for (int j = 0; j < W.n; j++)
		for (int q = j + 1; q < W.n; q++)
			if (W.lp[q].dim == W.lp[j].dim)
				W.lp[j].stride *= W.lp[q].b;
	const size_t E = (size_t)(W.E > 0 ? W.E : 1);
	W.cnt = calloc(E, sizeof *W.cnt);
	W.sum = calloc(E, sizeof *W.sum);
	W.touched = malloc(E * sizeof *W.touched);
	W.stamp = calloc(E, sizeof *W.stamp);
	int rc = 0;
	if (!W.cnt || !W.sum || !W.touched || !W.stamp) {
		rc = trim__error(TRIM_ENOMEM, "activity: out of memory (a flattened group's walk)");
		goto out;
	}
	int B = 0;
	for (int l = 1; l < W.nL && !rc; l++) {
		const int holds = m->type[l] == TRIM__LVL_STORAGE && m->keep[l][t];
		if (!holds && l != W.nL - 1)
			continue;
		rc = walk_hop(&W, a, B, l, out);
		B = l;
	}
	for (int l = 0; l < W.nL && !rc; l++)
		if (m->type[l] == TRIM__LVL_STORAGE && m->keep[l][t]) {
			out->tile[l][t] = trim__flat_tile_elems(m, w, l, t);
			if (out->tile[l][t] < 0)
				rc = TRIM_ENOMEM;
		}
out:
	free(W.cnt);
	free(W.sum);
	free(W.touched);
	free(W.stamp);
	return rc;
}

int trim__act_flat(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m, trim__act_ws *ws,
                   unsigned tmask, trim__activity *out)
{
	if (ws->count == TRIM_COUNT_TIMELOOP)
		return trim__error(TRIM_EINVAL, "activity: a mapping with a flattened group is counted by libtrim's rules "
		                   "only (not under --count timeloop)");
	trim__intra v;
	unsigned walk = 0;
	int64_t zero = 0;
	int rc = trim__flat_view(m, w, &v, &walk);
	if (!rc)
		rc = trim__intra_act_zero_macs(w, &zero);
	if (rc)
		return rc;
	v.act_zero_macs = zero;
	v.act_zero_ok = 1;
	memset(out, 0, sizeof *out);
	if ((rc = trim__act_prepare(&v, a, m, ws, 0, tmask & ~walk, 0)) ||
	    (rc = trim__act_order_counts(ws, m, out)))
		return rc;
	ws->prep->lb = -1; /* the preparation is of the view: nothing to reuse */
	for (int t = 0; t < 2; t++)
		if ((walk & tmask) >> t & 1 && (rc = walk_tensor(w, a, m, t, out)))
			return rc;
	out->exact = 1;
	return 0;
}
