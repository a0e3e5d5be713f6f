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

typedef struct {
	int level, dim, spatial;
	int64_t b, stride;
} floop;

typedef struct {
	const trim__intra *w;
	const trim__mapping *m;
	int t, nL, n;
	floop lp[MAXLOOPS];
	int64_t ext[TRIM_NDIMS];
	int rel[TRIM_NDIMS];
	int64_t E;
	int64_t *cnt, *sum, *touched; /* per element: children needing it, words; elements touched */
	int64_t *stamp, gen;          /* per element: the last list it joined */
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

/* Hop B -> C of the walked tensor (C = the compute level: every step's
 * operands of the MACs). */
static int walk_hop(walker *W, const struct trim_arch *a, int B, int C, trim__activity *out)
{
	const trim__mapping *m = W->m;
	const int MAC = W->nL - 1, t = W->t;
	int tl[MAXLOOPS], ntl = 0, sl[MAXLOOPS], nsl = 0, S[TRIM__MAX_LEVELS], k = 0;
	int64_t below[TRIM_NDIMS], ninst_C = 1, cap = 1, nrk = 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		below[d] = 1;
		for (int l = C; l < W->nL; l++)
			below[d] *= m->f[l][d];
		if (W->rel[d])
			cap *= below[d] < W->ext[d] ? below[d] : W->ext[d];
	}
	for (int j = 0; j < W->n; j++) {
		if (W->lp[j].level >= C)
			continue;
		if (W->lp[j].spatial) {
			sl[nsl++] = j;
			ninst_C *= W->lp[j].b;
			if (W->rel[W->lp[j].dim])
				nrk *= W->lp[j].b;
		} else {
			tl[ntl++] = j;
		}
	}
	int64_t ninst_at[TRIM__MAX_LEVELS + 1];
	for (int l = 0; l <= W->nL; l++) {
		ninst_at[l] = 1;
		for (int q = 0; q < nsl; q++)
			if (W->lp[sl[q]].level < l)
				ninst_at[l] *= W->lp[sl[q]].b;
	}
	for (int l = B + 1; l < C; l++) {
		int64_t p = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			p *= m->f[l][d];
		if (m->type[l] == TRIM__LVL_SPATIAL && p > 1)
			S[k++] = l;
	}
	int rc = 0;
	const size_t nent = (size_t)(ninst_C * cap);
	int64_t *old = C == MAC ? NULL : calloc((size_t)(ninst_C * cap), sizeof *old);
	int64_t *oldn = calloc((size_t)ninst_C, sizeof *oldn);
	int64_t *tiles = malloc((size_t)(nrk * cap) * sizeof *tiles), *tilen = malloc((size_t)nrk * sizeof *tilen);
	int64_t *tgen = calloc((size_t)nrk, sizeof *tgen), *cur = calloc(MAXLOOPS, sizeof *cur);
	int64_t *ent[2] = {malloc(3 * nent * sizeof(int64_t)), malloc(3 * nent * sizeof(int64_t))};
	if ((C != MAC && !old) || !oldn || !tiles || !tilen || !tgen || !cur || !ent[0] || !ent[1]) {
		rc = trim__error(TRIM_ENOMEM, "activity: out of memory (a flattened group's walk)");
		goto out;
	}
	int64_t step = 0;
	for (;;) {
		int64_t tb[TRIM_NDIMS] = {0};
		for (int q = 0; q < ntl; q++)
			tb[W->lp[tl[q]].dim] += cur[q] * W->lp[tl[q]].stride;
		int executed = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			executed &= tb[d] < W->ext[d];
		if (executed) {
			step++;
			int64_t nl = 0;
			for (int64_t c = 0; c < ninst_C; c++) {
				int64_t ib[TRIM_NDIMS], rem = c, rk = 0, rstride = 1;
				memcpy(ib, tb, sizeof ib);
				for (int q = nsl - 1; q >= 0; q--) {
					const floop *L = &W->lp[sl[q]];
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
				int64_t n = 0, *list = tiles + rk * cap;
				if (active) {
					if (tgen[rk] != step) {
						tgen[rk] = step;
						tilen[rk] = tile_list(W, ib, below, list);
					}
					n = tilen[rk];
				}
				/* the marks: new elements (every one at the MACs) */
				if (C == MAC) {
					for (int64_t q = 0; q < n; q++, nl++)
						ent[0][3 * nl] = c, ent[0][3 * nl + 1] = list[q], ent[0][3 * nl + 2] = 1;
					continue;
				}
				int64_t *o = old + c * cap, on = oldn[c], p = 0;
				for (int64_t q = 0; q < n; q++) {
					while (p < on && o[p] < list[q])
						p++;
					if (p < on && o[p] == list[q])
						continue;
					ent[0][3 * nl] = c, ent[0][3 * nl + 1] = list[q], ent[0][3 * nl + 2] = 1;
					nl++;
					out->fills[C][t]++;
				}
				memcpy(o, list, (size_t)n * sizeof *o);
				oldn[c] = n;
			}
			/* the tree, leaves up */
			tstat st[TRIM__MAX_LEVELS];
			memset(st, 0, sizeof st);
			int64_t tot_k = nl, *in = ent[0], *nx = ent[1];
			int repl = 1;
			for (int d = k - 1; d >= 0; d--) {
				repl = repl && a->lv[S[d]].multicast;
				const int64_t per = (d + 1 < k ? ninst_at[S[d + 1]] : ninst_C) / ninst_at[S[d]];
				/* entries of depth d+1 carry node ids of depth d+1 */
				nl = tree_level(W, in, nl, per, repl, nx, &st[d]);
				int64_t *sw = in;
				in = nx;
				nx = sw;
			}
			const int64_t tot0 = k ? st[0].tot : tot_k;
			for (int l = B + 1, d = 0; l < C; l++) {
				if (m->type[l] != TRIM__LVL_SPATIAL)
					continue;
				if (d < k && S[d] == l) {
					out->down_words[l][t] += st[d].tot;
					out->down_dests[l][t] += st[d].deliv;
					out->unicast[l][t] += st[d].uni;
					out->mcast[l][t] += st[d].multi;
					out->mcast_dests[l][t] += st[d].mdest;
					d++;
				} else {
					const int64_t pass = d < k ? st[d].tot : tot_k;
					out->down_words[l][t] += pass;
					out->down_dests[l][t] += pass;
					out->unicast[l][t] += pass;
				}
			}
			out->reads[B][t] += tot0;
		}
		int q = ntl - 1;
		while (q >= 0 && ++cur[q] == W->lp[tl[q]].b)
			cur[q--] = 0;
		if (q < 0)
			break;
	}
out:
	free(old);
	free(oldn);
	free(tiles);
	free(tilen);
	free(tgen);
	free(cur);
	free(ent[0]);
	free(ent[1]);
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
		rc = trim__activity_zero_macs(w, &zero);
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
