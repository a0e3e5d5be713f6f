/*
 * The analytic activity analyst (docs/model.md, "Mapping and activity
 * model"). Cost: per (tensor, hop between consecutive holders) and per
 * temporal loop above the child, one pass over each tensor axis of the
 * child's tile (O(extent)); no iteration of the loop nest is walked.
 *
 * Key facts used (each one is checked by the reference simulator):
 *  - every tile of a tensor at a level is a translate of one base set, a
 *    Cartesian product over the tensor's axes of the values c0*i + c1*j;
 *  - between two consecutive iterations of the temporal loops above a
 *    level, the tile moves by a translation that depends only on which loop
 *    advanced (the others reset): fills = |S| - |S ∩ (S - delta)|;
 *  - sibling instances under one spatial level differ by a translation per
 *    axis, so the number of siblings that need an element is a product of
 *    per-axis counts (dims irrelevant to the tensor multiply it).
 */
#include <stdlib.h>
#include <string.h>

#include "activity_int.h"

#define MAXAX TRIM__MAX_TDIMS

typedef struct {
	int nt;
	int dim[2];
	int64_t coef[2];
	int64_t n[2];   /* extents of the base set along each term's dim */
	int64_t span;   /* max value + 1 */
	int64_t *bits;  /* membership of 0..span-1 */
	int64_t size;   /* |S_a| */
} axis_t;

typedef struct {
	int dim;
	int64_t b, stride;
} loop_t;

typedef struct {
	int64_t distinct, dests, uni;
} sstat;

void trim__act_ws_free(trim__act_ws *ws)
{
	if (!ws)
		return;
	for (int i = 0; i < TRIM__ACT_NBUF; i++) {
		free(ws->buf[i]);
		ws->buf[i] = NULL;
		ws->cap[i] = 0;
	}
}

static int64_t *ws_get(trim__act_ws *ws, int i, size_t n)
{
	if (n == 0)
		n = 1;
	if (ws->cap[i] < n) {
		size_t c = ws->cap[i] ? ws->cap[i] : 256;
		while (c < n)
			c *= 2;
		int64_t *p = realloc(ws->buf[i], c * sizeof *p);
		if (!p) {
			trim__error(TRIM_ENOMEM, "activity: out of memory (%zu words)", c);
			return NULL;
		}
		ws->buf[i] = p;
		ws->cap[i] = c;
	}
	return ws->buf[i];
}

/* ---- zero MACs ------------------------------------------------------------- */

static int zreal(const trim__zaxis *z, int64_t p)
{
	return p >= z->lo && p <= z->hi && (p - z->lo) % z->step == 0;
}

/* The count: 0, or (without a message) 1 if the MAC count overflows, 2 if a
 * component needs *big > 2^30 enumerations. */
static int zero_macs_count(const trim__intra *w, int64_t *out, int64_t *big)
{
	/* Constraints "position of operand axis is real"; grouped into connected
	 * components over the dims they use, each counted by enumeration of its
	 * dims (exact; a component is typically {e, r}). */
	const trim__iexpr *ex[4];
	const trim__zaxis *zx[4];
	int nc = 0;
	for (int s = 0; s < 2; s++) {
		const trim__tensor *t = &w->t[s];
		if (!t->present || !t->has_zeros || t->ndims < 2)
			continue;
		for (int a = 0; a < 2; a++) {
			ex[nc] = &t->idx[t->ndims - 2 + a];
			zx[nc] = &t->zaxis[a];
			nc++;
		}
	}
	int64_t macs = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (trim__mul64(macs, w->bound[d], &macs))
			return 1;
	if (!nc) {
		*out = 0;
		return 0;
	}
	int comp[4], ncomp = 0;
	unsigned cdims[4];
	for (int i = 0; i < nc; i++)
		comp[i] = -1;
	for (int i = 0; i < nc; i++) {
		if (comp[i] >= 0)
			continue;
		comp[i] = ncomp;
		unsigned dims = 0;
		for (int k = 0; k < ex[i]->nterms; k++)
			dims |= 1u << ex[i]->dim[k];
		int grew = 1;
		while (grew) {
			grew = 0;
			for (int j = 0; j < nc; j++) {
				if (comp[j] >= 0)
					continue;
				unsigned dj = 0;
				for (int k = 0; k < ex[j]->nterms; k++)
					dj |= 1u << ex[j]->dim[k];
				if (dj & dims) {
					comp[j] = ncomp;
					dims |= dj;
					grew = 1;
				}
			}
		}
		cdims[ncomp++] = dims;
	}
	unsigned all = 0;
	int64_t nonzero = 1;
	for (int c = 0; c < ncomp; c++) {
		int dl[TRIM_NDIMS], nd = 0;
		int64_t total = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (cdims[c] >> d & 1) {
				dl[nd++] = d;
				total *= w->bound[d];
			}
		all |= cdims[c];
		if (total > ((int64_t)1 << 30)) {
			*big = total;
			return 2;
		}
		int64_t idx[TRIM_NDIMS] = {0}, cnt = 0;
		for (int64_t it = 0; it < total; it++) {
			int64_t v = it;
			for (int k = nd - 1; k >= 0; k--) {
				idx[dl[k]] = v % w->bound[dl[k]];
				v /= w->bound[dl[k]];
			}
			int ok = 1;
			for (int i = 0; i < nc && ok; i++) {
				if (comp[i] != c)
					continue;
				int64_t p = 0;
				for (int k = 0; k < ex[i]->nterms; k++)
					p += ex[i]->coef[k] * idx[ex[i]->dim[k]];
				ok = zreal(zx[i], p);
			}
			cnt += ok;
		}
		nonzero *= cnt;
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!(all >> d & 1))
			nonzero *= w->bound[d];
	*out = macs - nonzero;
	return 0;
}

int trim__activity_zero_macs(const trim__intra *w, int64_t *out)
{
	if (w->act_zero_ok) {
		*out = w->act_zero_macs;
		return 0;
	}
	int64_t big = 0;
	int r = zero_macs_count(w, out, &big);
	if (r == 1)
		return trim__error(TRIM_ERANGE, "activity: MAC count overflows");
	if (r == 2)
		return trim__error(TRIM_ERANGE, "activity: zero-MAC count needs %lld enumerations", (long long)big);
	return 0;
}

void trim__activity_zero_macs_cache(trim__intra *w)
{
	int64_t z = 0, big = 0;
	w->act_zero_ok = 0;
	if (zero_macs_count(w, &z, &big) == 0) {
		w->act_zero_macs = z;
		w->act_zero_ok = 1;
	}
}

/* ---- per-axis sets ----------------------------------------------------------- */

static int64_t ax_at(const axis_t *ax, int64_t v)
{
	return v >= 0 && v < ax->span ? ax->bits[v] : 0;
}

/* |S ∩ (S - delta)| = #{v in S : v + delta in S}. */
static int64_t ax_overlap(const axis_t *ax, int64_t delta)
{
	if (delta == 0)
		return ax->size;
	if (ax->nt == 1) { /* {c*i : i < n}: closed form */
		int64_t c = ax->coef[0], d = delta < 0 ? -delta : delta;
		return d % c ? 0 : (ax->n[0] - d / c > 0 ? ax->n[0] - d / c : 0);
	}
	if (delta >= ax->span || -delta >= ax->span)
		return 0;
	int64_t n = 0;
	for (int64_t v = 0; v < ax->span; v++)
		n += ax->bits[v] & ax_at(ax, v + delta);
	return n;
}

/* Product-form statistics of one step at one spatial instance:
 * for every element, P = siblings whose new tile holds it, P' = siblings
 * whose old tile also holds it; the element must be delivered to P - P'.
 * ports[d], in[d]: spatial bound of dim d and the distance between
 * neighbouring ports in dim d's index. delta[a] per axis (first: no old). */
typedef struct {
	const axis_t *ax;
	int nax;
	const int64_t *P, *in;
	int64_t kirr;
	trim__act_ws *ws;
} sctx;

typedef struct {
	int64_t p, q, n;
} trip;

static int trip_cmp(const void *a, const void *b)
{
	const trip *x = a, *y = b;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	if (x->q != y->q)
		return x->q < y->q ? -1 : 1;
	return 0;
}

static int spatial_step(const sctx *c, const int64_t *delta, int first, sstat *st)
{
	trip *cur = (trip *)ws_get(c->ws, 4, 3 * 16);
	if (!cur)
		return TRIM_ENOMEM;
	size_t ncur = 1;
	cur[0] = (trip){c->kirr, first ? 0 : c->kirr, 1};
	for (int a = 0; a < c->nax; a++) {
		const axis_t *ax = &c->ax[a];
		if (ax->nt == 1) {
			/* one term: the ports' tiles are disjoint (a port's stride in the
			 * index is at least the tile's extent), so every element is held by
			 * at most one port: P*ov elements with (1, 1), P*(n - ov) with (1, 0) */
			int64_t p = c->P[ax->dim[0]], ov = first ? 0 : ax_overlap(ax, delta[a]);
			trip *nx = (trip *)ws_get(c->ws, 5, 3 * (2 * ncur + 1));
			if (!nx)
				return TRIM_ENOMEM;
			cur = (trip *)c->ws->buf[4];
			size_t k = 0;
			for (size_t i = 0; i < ncur; i++) {
				if (ov > 0)
					nx[k++] = (trip){cur[i].p, cur[i].q, cur[i].n * p * ov};
				if (ax->n[0] - ov > 0)
					nx[k++] = (trip){cur[i].p, 0, cur[i].n * p * (ax->n[0] - ov)};
			}
			qsort(nx, k, sizeof *nx, trip_cmp);
			size_t m = 0;
			for (size_t i = 0; i < k; i++) {
				if (m && nx[m - 1].p == nx[i].p && nx[m - 1].q == nx[i].q)
					nx[m - 1].n += nx[i].n;
				else
					nx[m++] = nx[i];
			}
			trip *dst = (trip *)ws_get(c->ws, 4, 3 * (m ? m : 1));
			if (!dst)
				return TRIM_ENOMEM;
			nx = (trip *)c->ws->buf[5];
			memcpy(dst, nx, m * sizeof *nx);
			cur = dst;
			ncur = m;
			continue;
		}
		/* offsets of the ports along this axis */
		int64_t p0 = ax->nt > 0 ? c->P[ax->dim[0]] : 1, p1 = ax->nt > 1 ? c->P[ax->dim[1]] : 1;
		int64_t s0 = ax->nt > 0 ? ax->coef[0] * c->in[ax->dim[0]] : 0;
		int64_t s1 = ax->nt > 1 ? ax->coef[1] * c->in[ax->dim[1]] : 0;
		int64_t range = ax->span + s0 * (p0 - 1) + s1 * (p1 - 1);
		int64_t *cn = ws_get(c->ws, 1, (size_t)range), *cq;
		if (!cn)
			return TRIM_ENOMEM;
		cq = ws_get(c->ws, 2, (size_t)range);
		if (!cq)
			return TRIM_ENOMEM;
		cn = c->ws->buf[1];
		memset(cn, 0, (size_t)range * sizeof *cn);
		memset(cq, 0, (size_t)range * sizeof *cq);
		int64_t maxc = 0;
		for (int64_t i = 0; i < p0; i++)
			for (int64_t j = 0; j < p1; j++) {
				int64_t o = i * s0 + j * s1;
				for (int64_t v = 0; v < ax->span; v++)
					if (ax->bits[v]) {
						cn[o + v]++;
						if (!first && ax_at(ax, v + delta[a]))
							cq[o + v]++;
					}
			}
		for (int64_t x = 0; x < range; x++)
			if (cn[x] > maxc)
				maxc = cn[x];
		size_t hsz = (size_t)(maxc + 1) * (size_t)(maxc + 1);
		if (hsz > ((size_t)1 << 22))
			return trim__error(TRIM_ERANGE, "activity: %lld siblings overlap on one axis: too many to count",
			                   (long long)maxc);
		int64_t *h = ws_get(c->ws, 3, hsz);
		if (!h)
			return TRIM_ENOMEM;
		memset(h, 0, hsz * sizeof *h);
		size_t nh = 0;
		for (int64_t x = 0; x < range; x++)
			if (cn[x]) {
				if (!h[cn[x] * (maxc + 1) + cq[x]]++)
					nh++;
			}
		/* product of the current list with this axis' histogram */
		size_t need = ncur * nh;
		if (need > ((size_t)1 << 22))
			return trim__error(TRIM_ERANGE, "activity: sibling-count distribution too large (%zu)", need);
		trip *nx = (trip *)ws_get(c->ws, 5, 3 * need);
		if (!nx)
			return TRIM_ENOMEM;
		cur = (trip *)c->ws->buf[4];
		size_t k = 0;
		for (size_t i = 0; i < ncur; i++)
			for (int64_t p = 1; p <= maxc; p++)
				for (int64_t q = 0; q <= p; q++) {
					int64_t n = h[p * (maxc + 1) + q];
					if (n)
						nx[k++] = (trip){cur[i].p * p, cur[i].q * q, cur[i].n * n};
				}
		qsort(nx, k, sizeof *nx, trip_cmp);
		size_t m = 0;
		for (size_t i = 0; i < k; i++) {
			if (m && nx[m - 1].p == nx[i].p && nx[m - 1].q == nx[i].q)
				nx[m - 1].n += nx[i].n;
			else
				nx[m++] = nx[i];
		}
		trip *dst = (trip *)ws_get(c->ws, 4, 3 * (m ? m : 1));
		if (!dst)
			return TRIM_ENOMEM;
		nx = (trip *)c->ws->buf[5];
		memcpy(dst, nx, m * sizeof *nx);
		cur = dst;
		ncur = m;
	}
	st->distinct = st->dests = st->uni = 0;
	for (size_t i = 0; i < ncur; i++) {
		int64_t d = cur[i].p - cur[i].q;
		if (d > 0) {
			st->distinct += cur[i].n;
			st->dests += cur[i].n * d;
			if (d == 1)
				st->uni += cur[i].n;
		}
	}
	return 0;
}

/* ---- the analyst ---------------------------------------------------------------- */

static int64_t lvl_prod(const trim__mapping *m, int l)
{
	int64_t p = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		p *= m->f[l][d];
	return p;
}

/* The analyst proper. lb = 0: exact counts of every tensor. lb = 1: for the
 * tensors in tmask only, a lower bound on every count valid for every loop
 * order of the levels (docs/model.md, "Mapspace and search"): per hop, the
 * first step and the fewest steps that move a single-term axis of the
 * tensor (each refills the whole tile and sends what the first step sends),
 * and no partial-sum read-backs; zero_macs is left 0. */
static int compute(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                   trim__act_ws *ws, trim__activity *out, int lb, unsigned tmask)
{
	int rc;
	const int nL = m->nlevels, MAC = nL - 1;
	int64_t ext[TRIM__MAX_LEVELS + 1][TRIM_NDIMS];
	memset(out, 0, sizeof *out);
	for (int d = 0; d < TRIM_NDIMS; d++) {
		ext[nL][d] = 1;
		for (int l = nL - 1; l >= 0; l--)
			ext[l][d] = ext[l + 1][d] * m->f[l][d];
	}
	out->macs = 1;
	out->steps = 1;
	out->active_pes = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		out->macs *= w->bound[d];
	for (int l = 0; l < nL; l++) {
		out->instances[l] = out->active_pes;
		if (m->type[l] == TRIM__LVL_SPATIAL)
			out->active_pes *= lvl_prod(m, l);
		else if (m->type[l] == TRIM__LVL_STORAGE)
			out->steps *= lvl_prod(m, l);
	}
	if (!lb) {
		rc = trim__activity_zero_macs(w, &out->zero_macs);
		if (rc)
			return rc;
	}

	for (int t = 0; t < 3; t++) {
		const trim__tensor *T = &w->t[t];
		if (!T->present || !(tmask >> t & 1))
			continue;
		/* axes of the tensor (terms with coefficient 0 dropped) */
		axis_t ax[MAXAX];
		int nax = 0;
		unsigned rel = 0;
		for (int a = 0; a < T->ndims; a++) {
			axis_t *x = &ax[nax];
			memset(x, 0, sizeof *x);
			for (int k = 0; k < T->idx[a].nterms; k++) {
				if (T->idx[a].coef[k] == 0)
					continue;
				if (T->idx[a].coef[k] < 0)
					return trim__error(TRIM_EINVAL, "activity: tensor %s: negative index coefficient", T->name);
				int d = T->idx[a].dim[k];
				if (rel >> d & 1)
					return trim__error(TRIM_EINVAL, "activity: tensor %s: dimension %s indexes two axes (not supported)",
					                   T->name, (const char *[]){"N", "G", "M", "C", "E", "F", "R", "S"}[d]);
				rel |= 1u << d;
				x->dim[x->nt] = d;
				x->coef[x->nt] = T->idx[a].coef[k];
				x->nt++;
			}
			if (x->nt == 0)
				continue;
			if (t == 2 && x->nt > 1)
				return trim__error(TRIM_EINVAL, "activity: result %s has a two-term index (not supported)", T->name);
			nax++;
		}
		/* holders, outer to inner, then the MAC */
		int chain[TRIM__MAX_LEVELS + 1], nk = 0;
		for (int l = 0; l < nL; l++)
			if (m->type[l] == TRIM__LVL_STORAGE && m->keep[l][t])
				chain[nk++] = l;
		if (nk == 0 || chain[0] != 0)
			return trim__error(TRIM_EINVAL, "activity: the outermost level must hold tensor %s", T->name);
		chain[nk] = MAC;
		for (int i = 0; i < nk; i++) {
			int64_t n = 1;
			for (int a = 0; a < nax; a++)
				n *= trim__axis_distinct(ax[a].coef[0], ext[chain[i]][ax[a].dim[0]],
				                         ax[a].nt > 1 ? ax[a].coef[1] : 0,
				                         ax[a].nt > 1 ? ext[chain[i]][ax[a].dim[1]] : 1);
			out->tile[chain[i]][t] = n;
		}
		int64_t Fprev = out->tile[0][t], Rprev = 0; /* result: entries and read-backs of the parent */

		for (int i = 1; i <= nk; i++) {
			const int B = chain[i - 1], C = chain[i];
			const int cmac = C == MAC;
			int S = -1, nS = 0;
			for (int l = B + 1; l < C; l++)
				if (m->type[l] == TRIM__LVL_SPATIAL && lvl_prod(m, l) > 1) {
					S = l;
					nS++;
				}
			if (nS > 1)
				return trim__error(TRIM_EINVAL, "activity: tensor %s crosses two spatial levels with bounds > 1 "
				                   "between %s and %s (not supported by the analytic model)",
				                   T->name, m->name[B], cmac ? "the MACs" : m->name[C]);
			/* base set of the child's tile per axis */
			size_t tot = 0;
			for (int a = 0; a < nax; a++) {
				axis_t *x = &ax[a];
				x->n[0] = ext[C][x->dim[0]];
				x->n[1] = x->nt > 1 ? ext[C][x->dim[1]] : 1;
				x->span = x->coef[0] * (x->n[0] - 1) + (x->nt > 1 ? x->coef[1] * (x->n[1] - 1) : 0) + 1;
				if (x->nt > 1)
					tot += (size_t)x->span;
			}
			int64_t *bits = ws_get(ws, 0, tot);
			if (!bits)
				return TRIM_ENOMEM;
			memset(bits, 0, tot * sizeof *bits);
			for (int a = 0; a < nax; a++) {
				axis_t *x = &ax[a];
				if (x->nt == 1) { /* closed forms: no bitmap */
					x->bits = NULL;
					x->size = x->n[0];
					continue;
				}
				x->bits = bits;
				bits += x->span;
				for (int64_t u = 0; u < x->n[0]; u++)
					for (int64_t v = 0; v < x->n[1]; v++)
						x->bits[x->coef[0] * u + (x->nt > 1 ? x->coef[1] * v : 0)] = 1;
				x->size = 0;
				for (int64_t u = 0; u < x->span; u++)
					x->size += x->bits[u];
			}
			int64_t size = 1;
			for (int a = 0; a < nax; a++)
				size *= ax[a].size;
			/* temporal loops above the child, outer to inner */
			loop_t lp[TRIM__MAX_LEVELS * TRIM_NDIMS];
			int nl = 0;
			int64_t steps = 1;
			for (int l = 0; l < C; l++) {
				if (m->type[l] != TRIM__LVL_STORAGE)
					continue;
				for (int k = 0; k < TRIM_NDIMS; k++) {
					int d = m->order[l][k];
					if (m->f[l][d] > 1) {
						lp[nl++] = (loop_t){d, m->f[l][d], ext[l + 1][d]};
						steps *= m->f[l][d];
					}
				}
			}
			/* spatial sibling context */
			int64_t P[TRIM_NDIMS], in[TRIM_NDIMS], kirr = 1;
			for (int d = 0; d < TRIM_NDIMS; d++) {
				P[d] = S >= 0 ? m->f[S][d] : 1;
				in[d] = S >= 0 ? ext[S + 1][d] : 1;
				if (!(rel >> d & 1))
					kirr *= P[d];
			}
			sctx sc = {ax, nax, P, in, kirr, ws};
			int64_t nsi = S >= 0 ? out->instances[S] : out->instances[C];
			/* per-instance fills of the child and per-S-instance delivery stats */
			int64_t fills1 = 0;
			sstat tot_st = {0, 0, 0}, st;
			int64_t zero[MAXAX] = {0};
			if (cmac) {
				fills1 = steps; /* one element per MAC, nothing kept */
				if (S >= 0) {
					if ((rc = spatial_step(&sc, zero, 1, &st)))
						return rc;
					tot_st.distinct = st.distinct * steps;
					tot_st.dests = st.dests * steps;
					tot_st.uni = st.uni * steps;
				}
			} else {
				fills1 = size;
				if (S >= 0) {
					if ((rc = spatial_step(&sc, zero, 1, &st)))
						return rc;
					tot_st = st;
				}
				int64_t before = 1;
				if (lb) {
					/* fewest steps that move a single-term axis: the loops
					 * above the innermost level (above C) with a loop on
					 * such an axis, and that level's loops on such axes */
					unsigned hard = 0;
					for (int a = 0; a < nax; a++)
						if (ax[a].nt == 1)
							hard |= 1u << ax[a].dim[0];
					int Ls = -1;
					for (int l = 0; l < C; l++)
						if (m->type[l] == TRIM__LVL_STORAGE)
							for (int d = 0; d < TRIM_NDIMS; d++)
								if ((hard >> d & 1) && m->f[l][d] > 1)
									Ls = l;
					int64_t M = 1;
					for (int l = 0; l < Ls + 1 && l < C; l++)
						if (m->type[l] == TRIM__LVL_STORAGE)
							for (int d = 0; d < TRIM_NDIMS; d++)
								if (l < Ls || (hard >> d & 1))
									M *= m->f[l][d];
					fills1 += (M - 1) * size;
					tot_st.distinct += (M - 1) * tot_st.distinct;
					tot_st.dests += (M - 1) * tot_st.dests;
					tot_st.uni += (M - 1) * tot_st.uni;
					nl = 0; /* the loop below adds nothing */
				}
				for (int j = 0; j < nl; j++) {
					int64_t cnt = before * (lp[j].b - 1);
					before *= lp[j].b;
					int64_t dd[TRIM_NDIMS] = {0};
					dd[lp[j].dim] += lp[j].stride;
					for (int k = j + 1; k < nl; k++)
						dd[lp[k].dim] -= (lp[k].b - 1) * lp[k].stride;
					int64_t delta[MAXAX], ov = 1;
					int moved = 0;
					for (int a = 0; a < nax; a++) {
						delta[a] = ax[a].coef[0] * dd[ax[a].dim[0]] +
						           (ax[a].nt > 1 ? ax[a].coef[1] * dd[ax[a].dim[1]] : 0);
						moved |= delta[a] != 0;
						ov *= ax_overlap(&ax[a], delta[a]);
					}
					if (!moved)
						continue; /* stationary: nothing changes */
					fills1 += cnt * (size - ov);
					if (S >= 0) {
						if ((rc = spatial_step(&sc, delta, 0, &st)))
							return rc;
						tot_st.distinct += cnt * st.distinct;
						tot_st.dests += cnt * st.dests;
						tot_st.uni += cnt * st.uni;
					}
				}
			}
			int64_t Fc = fills1 * out->instances[C];
			if (S < 0)
				tot_st = (sstat){fills1, fills1, fills1};
			int64_t Dd = tot_st.distinct * nsi, Ds = tot_st.dests * nsi, Du = tot_st.uni * nsi;
			int mc = S >= 0 && arch->lv[S].multicast, red = S >= 0 && arch->lv[S].reduction;
			if (t < 2) {
				int64_t sent = mc ? Dd : Ds; /* words leaving the parent */
				if (!cmac)
					out->fills[C][t] += Fc;
				out->reads[B][t] += sent;
				for (int l = B + 1; l < C; l++) {
					if (m->type[l] != TRIM__LVL_SPATIAL)
						continue;
					if (l == S) {
						out->down_words[l][t] += sent;
						out->down_dests[l][t] += Ds;
						if (mc) {
							out->unicast[l][t] += Du;
							out->mcast[l][t] += Dd - Du;
							out->mcast_dests[l][t] += Ds - Du;
						} else {
							out->unicast[l][t] += Ds;
						}
					} else {
						int64_t wds = (S >= 0 && l > S) ? Ds : sent;
						out->down_words[l][t] += wds;
						out->down_dests[l][t] += wds;
						out->unicast[l][t] += wds;
					}
				}
			} else {
				int64_t U = Dd, R = lb ? 0 : U - Fprev + Rprev;
				int64_t upd = red ? U : Fc;
				if (!cmac) {
					out->fills[C][t] += R;
					out->drains[C][t] += Fc;
				}
				out->reads[B][t] += R;
				out->updates[B][t] += upd;
				for (int l = B + 1; l < C; l++) {
					if (m->type[l] != TRIM__LVL_SPATIAL)
						continue;
					out->down_words[l][t] += R;
					out->down_dests[l][t] += R;
					out->unicast[l][t] += R;
					/* below S (or no S) every child's word passes on its own;
					 * S reduces (or not); above S the reduced words pass */
					int64_t in_w = (S >= 0 && l < S) ? upd : Fc;
					int64_t out_w = (S >= 0 && l <= S) ? upd : Fc;
					out->up_words[l][t] += in_w;
					out->up_out[l][t] += out_w;
					out->reductions[l][t] += in_w - out_w;
				}
				Fprev = Fc;
				Rprev = R;
			}
		}
	}
	return 0;
}

int trim__activity_compute(const trim__intra *w, const struct trim_arch *arch,
                           const trim__mapping *m, trim__act_ws *ws, trim__activity *out)
{
	return compute(w, arch, m, ws, out, 0, 7u);
}

int trim__activity_lower(const trim__intra *w, const struct trim_arch *arch,
                         const trim__mapping *m, unsigned tmask, trim__act_ws *ws,
                         trim__activity *out)
{
	return compute(w, arch, m, ws, out, 1, tmask);
}
