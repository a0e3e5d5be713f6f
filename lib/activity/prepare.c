/*
 * The order-independent part of the analyst: per factors and keeps, the
 * scope checks, tiles, base sets, sibling geometry and first-step
 * statistics of every hop.
 */
#include <stdlib.h>
#include <string.h>

#include "analyst_int.h"

/* ---- the order-independent part (per factors and keeps) -------------------- */

static int64_t lvl_prod(const trim__mapping *m, int l)
{
	int64_t p = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		p *= m->f[l][d];
	return p;
}

/* The level-wide figures: extents, bounds, MACs, steps, instances, each
 * level's product and loops of bound > 1, and (unless lb) the zero MACs. */
static int prep_levels(const trim__intra *w, const trim__mapping *m, struct trim__act_prep *P, int lb)
{
	int rc;
	const int nL = m->nlevels;
	for (int d = 0; d < TRIM_NDIMS; d++)
		P->ext[nL][d] = 1;
	for (int l = nL - 1; l >= 0; l--) /* eight independent products per level */
		for (int d = 0; d < TRIM_NDIMS; d++)
			P->ext[l][d] = P->ext[l + 1][d] * m->f[l][d];
	P->ragged = 0;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		P->D[d] = w->bound[d];
		P->ragged |= P->ext[0][d] != w->bound[d];
	}
	P->macs = 1;
	P->steps = 1;
	P->active_pes = 1;
	P->zero_macs = 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		P->macs *= w->bound[d];
	for (int l = 0; l < nL; l++) {
		P->type[l] = m->type[l];
		memcpy(P->f[l], m->f[l], sizeof P->f[l]);
		P->lprod[l] = lvl_prod(m, l);
		unsigned big = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			big |= (unsigned)(m->f[l][d] > 1) << d;
		P->big[l] = m->type[l] == TRIM__LVL_STORAGE ? big : 0;
		P->above[l] = P->steps;
		P->instances[l] = P->active_pes;
		P->tile[l][0] = P->tile[l][1] = P->tile[l][2] = 0;
		if (m->type[l] == TRIM__LVL_SPATIAL)
			P->active_pes *= P->lprod[l];
		else if (m->type[l] == TRIM__LVL_STORAGE)
			P->steps *= P->lprod[l];
	}
	if (P->ragged)
		P->steps = trim__act_ragged_steps(P, m);
	if (!lb) {
		rc = trim__intra_act_zero_macs(w, &P->zero_macs);
		if (rc)
			return rc;
	}
	return 0;
}

/* The axes of tensor T (terms with coefficient 0 dropped) into tp, the
 * dims it reads into *relp. */
static int prep_axes(const trim__tensor *T, int t, tprep_t *tp, unsigned *relp)
{
	axis_t *ax = tp->ax;
	int nax = 0;
	unsigned rel = 0;
	tp->hard = tp->win = 0;
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
		if (x->nt == 1)
			tp->hard |= 1u << x->dim[0];
		else
			tp->win |= 1u << x->dim[0] | 1u << x->dim[1];
		nax++;
	}
	tp->nax = nax;
	*relp = rel;
	return 0;
}

/* The holders of tensor t (chain, outer to inner, then the MAC: *nkp of
 * them), their tiles, and the storage levels with a loop on a dim of a
 * one-term axis (*hardlevp). */
static int prep_holders(const trim__intra *w, const trim__mapping *m, struct trim__act_prep *P, int t, int *chain,
                        int *nkp, unsigned *hardlevp)
{
	const trim__tensor *T = &w->t[t];
	tprep_t *tp = &P->t[t];
	const axis_t *ax = tp->ax;
	const int nL = m->nlevels, MAC = nL - 1, nax = tp->nax;
	/* holders, outer to inner, then the MAC */
	int nk = 0;
	for (int l = 0; l < nL; l++)
		if (m->type[l] == TRIM__LVL_STORAGE && m->keep[l][t])
			chain[nk++] = l;
	if (nk == 0 || chain[0] != 0)
		return trim__error(TRIM_EINVAL, "activity: the outermost level must hold tensor %s", T->name);
	chain[nk] = MAC;
	tp->nk = nk;
	unsigned hardlev = 0; /* storage levels with a loop on a dim of a one-term axis */
	for (int l = 0; l < nL; l++)
		if (P->big[l] & tp->hard)
			hardlev |= 1u << l;
	for (int i = 0; i < nk; i++) {
		int64_t n = 1;
		for (int a = 0; a < nax; a++) { /* one term (coefficient > 0): its extent */
			int64_t e0 = P->ext[chain[i]][ax[a].dim[0]], e1 = ax[a].nt > 1 ? P->ext[chain[i]][ax[a].dim[1]] : 1;
			if (P->ragged) { /* the full tile, clipped at the bounds */
				e0 = e0 < P->D[ax[a].dim[0]] ? e0 : P->D[ax[a].dim[0]];
				e1 = ax[a].nt == 1 || e1 < P->D[ax[a].dim[1]] ? e1 : P->D[ax[a].dim[1]];
			}
			n *= ax[a].nt == 1 ? e0 : trim__axis_distinct(ax[a].coef[0], e0, ax[a].coef[1], e1);
		}
		P->tile[chain[i]][t] = n;
	}
	*nkp = nk;
	*hardlevp = hardlev;
	return 0;
}

/* Hop h's base set of the child's tile per axis, its ports' tiles and the
 * bitmaps of two-term axes (words of ws->buf[0] from *bused on). */
static int prep_hop_axes(trim__act_ws *ws, const trim__mapping *m, struct trim__act_prep *P, const tprep_t *tp,
                         hop_t *h, size_t *bused)
{
	int rc;
	const axis_t *ax = tp->ax;
	const int nax = tp->nax, C = h->C, k = h->k;
	/* base set of the child's tile per axis */
	h->size = 1;
	h->s1 = 1;
	for (int j = 0; j < k; j++)
		h->c1[j] = 1;
	h->n2 = 0;
	for (int a = 0; a < nax; a++) {
		hax_t *x = &h->ax[a];
		const axis_t *y = &ax[a];
		x->n[0] = P->ext[C][y->dim[0]];
		x->n[1] = y->nt > 1 ? P->ext[C][y->dim[1]] : 1;
		for (int j = 0; j < k; j++) {
			const int Sj = h->S[j];
			x->p[j][0] = m->f[Sj][y->dim[0]];
			x->p[j][1] = y->nt > 1 ? m->f[Sj][y->dim[1]] : 1;
			x->s[j][0] = y->coef[0] * P->ext[Sj + 1][y->dim[0]];
			x->s[j][1] = y->nt > 1 ? y->coef[1] * P->ext[Sj + 1][y->dim[1]] : 0;
		}
		x->memo = -1;
		x->boff = 0;
		if (y->nt == 1) { /* closed forms: no bitmap */
			x->span = y->coef[0] * (x->n[0] - 1) + 1;
			x->size = x->n[0];
			/* the ports' tiles are disjoint (a port's stride in the
			 * index is at least the tile's extent, at every level):
			 * every element is held by one port */
			int64_t pos = x->n[0];
			for (int j = k - 1; j >= 0; j--) {
				pos *= x->p[j][0];
				x->A1[j] = x->O1[j] = pos;
				h->c1[j] *= pos;
			}
			h->s1 *= x->size;
		} else {
			x->span = y->coef[0] * (x->n[0] - 1) + y->coef[1] * (x->n[1] - 1) + 1;
			int64_t *bits = trim__act_ws_get(ws, 0, (*bused) + (size_t)x->span);
			if (!bits)
				return TRIM_ENOMEM;
			x->boff = (int64_t)(*bused);
			bits += *bused;
			*bused += (size_t)x->span;
			memset(bits, 0, (size_t)x->span * sizeof *bits);
			for (int64_t u = 0; u < x->n[0]; u++)
				for (int64_t v = 0; v < x->n[1]; v++)
					bits[y->coef[0] * u + y->coef[1] * v] = 1;
			x->size = 0;
			for (int64_t u = 0; u < x->span; u++)
				x->size += bits[u];
			x->memo = P->nmemo++;
			h->a2[h->n2++] = a;
			if (k > 0) {
				memo_t st = {0};
				if ((rc = trim__act_axis_scan(ws, x, k, 0, 1, &st)))
					return rc;
				memcpy(x->A1, st.A, sizeof x->A1);
				memcpy(x->O1, st.O, sizeof x->O1);
			}
		}
		h->size *= x->size;
	}
	return 0;
}

/* Hop i of tensor t (from holder chain[i - 1] to chain[i]): its spatial
 * levels, multicast and reduction prefixes, irrelevant fan-outs, base set,
 * first step, Timeloop's figures, memo base and (lb) fewest moving steps. */
static int prep_hop(trim__act_ws *ws, const struct trim_arch *arch, const trim__mapping *m, struct trim__act_prep *P,
                    const trim__tensor *T, tprep_t *tp, unsigned rel, unsigned hardlev, const int *chain, int i,
                    size_t *bused)
{
	int rc;
	const int MAC = m->nlevels - 1, nax = tp->nax, lb = P->lb;
	hop_t *h = &tp->hop[i - 1];
	const int B = chain[i - 1], C = chain[i];
	const int cmac = C == MAC;
	int k = 0;
	for (int l = B + 1; l < C; l++)
		if (m->type[l] == TRIM__LVL_SPATIAL && P->lprod[l] > 1) {
			if (k == MAXSP)
				return trim__error(TRIM_EINVAL, "activity: tensor %s crosses more than %d spatial levels "
				                   "with bounds > 1 between %s and %s (not supported by the analytic model)",
				                   T->name, MAXSP, m->name[B], cmac ? "the MACs" : m->name[C]);
			h->S[k++] = l;
		}
	h->B = B;
	h->C = C;
	h->k = k;
	h->cmac = cmac;
	h->jm = h->jr = k;
	while (h->jm > 0 && arch->lv[h->S[h->jm - 1]].multicast)
		h->jm--;
	while (h->jr > 0 && arch->lv[h->S[h->jr - 1]].reduction)
		h->jr--;
	h->stepsC = P->above[C];
	for (int j = 0; j < k; j++) {
		h->nsi[j] = P->instances[h->S[j]];
		h->kirr[j] = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (!(rel >> d & 1))
				h->kirr[j] *= m->f[h->S[j]][d];
	}
	if ((rc = prep_hop_axes(ws, m, P, tp, h, bused)))
		return rc;
	/* first step: every element is new to every child holding it */
	for (int j = 0; j < k; j++) {
		int64_t A = 1, O = 1;
		for (int a = 0; a < nax; a++) {
			A *= h->ax[a].A1[j];
			O *= h->ax[a].O1[j];
		}
		h->first.distinct[j] = A;
		h->first.uni[j] = h->kirr[j] == 1 ? O : 0;
	}
	if ((rc = trim__act_tl_prepare(ws, tp, h)))
		return rc;
	unsigned hb = hardlev & ((1u << C) - 1);
	h->Lb = hb ? 31 - __builtin_clz(hb) : -1;
	h->lbase = P->nlmemo;
	if (P->lmemo_on && !cmac)
		P->nlmemo += (size_t)(C - (h->Lb > 0 ? h->Lb : 0)) * LMEMO;
	h->M = 1;
	if (lb && !cmac) {
		/* fewest steps that move a single-term axis: the loops above
		 * the innermost level (above C) with a loop on such an axis,
		 * and that level's loops on such axes */
		int Ls = -1;
		for (int l = 0; l < C; l++)
			if (m->type[l] == TRIM__LVL_STORAGE)
				for (int d = 0; d < TRIM_NDIMS; d++)
					if ((tp->hard >> d & 1) && m->f[l][d] > 1)
						Ls = l;
		for (int l = 0; l < Ls + 1 && l < C; l++)
			if (m->type[l] == TRIM__LVL_STORAGE)
				for (int d = 0; d < TRIM_NDIMS; d++)
					if (l < Ls || (tp->hard >> d & 1))
						h->M *= m->f[l][d];
	}
	return 0;
}

/* The memo tables of the two-term axes, emptied by the new gen. */
static int prep_memos(struct trim__act_prep *P)
{
	if ((size_t)P->nmemo > P->memo_cap) {
		size_t c = P->memo_cap ? P->memo_cap : 8;
		while (c < (size_t)P->nmemo)
			c *= 2;
		memo_t *p = calloc(c * MEMO_WAYS, sizeof *p);
		if (!p)
			return trim__error(TRIM_ENOMEM, "activity: out of memory");
		free(P->memo);
		P->memo = p; /* gen 0: empty (P->gen >= 1) */
		P->memo_cap = c;
	}
	if (P->nlmemo > P->lmemo_cap) {
		size_t c = P->lmemo_cap ? P->lmemo_cap : 4 * LMEMO;
		while (c < P->nlmemo)
			c *= 2;
		lmemo_t *p = calloc(c, sizeof *p);
		if (!p)
			return trim__error(TRIM_ENOMEM, "activity: out of memory");
		free(P->lmemo);
		P->lmemo = p;
		P->lmemo_cap = c;
	}
	return 0;
}

/* Everything that does not depend on the loop orders: the scope checks,
 * tiles, base sets, sibling geometry and first-step statistics of every hop
 * of the tensors in tmask. lb: for trim__activity_lower. */
int trim__act_prepare(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                      trim__act_ws *ws, int lb, unsigned tmask, int many)
{
	int rc;
	if (!ws->prep) {
		ws->prep = calloc(1, sizeof *ws->prep);
		if (!ws->prep)
			return trim__error(TRIM_ENOMEM, "activity: out of memory");
	}
	struct trim__act_prep *P = ws->prep;
	const int nL = m->nlevels;
	P->lb = lb;
	P->tmask = tmask;
	P->nL = nL;
	P->lmemo_on = many && !lb;
	P->gen++;
	P->nmemo = 0;
	P->nlmemo = 0;
	if ((rc = prep_levels(w, m, P, lb)))
		return rc;
	size_t bused = 0; /* words of ws->buf[0] used by the bitmaps */
	for (int t = 0; t < 3; t++) {
		const trim__tensor *T = &w->t[t];
		tprep_t *tp = &P->t[t];
		tp->on = T->present && (tmask >> t & 1);
		if (!tp->on)
			continue;
		unsigned rel = 0, hardlev = 0;
		int chain[TRIM__MAX_LEVELS + 1], nk = 0;
		if ((rc = prep_axes(T, t, tp, &rel)) || (rc = prep_holders(w, m, P, t, chain, &nk, &hardlev)))
			return rc;
		for (int i = 1; i <= nk; i++)
			if ((rc = prep_hop(ws, arch, m, P, T, tp, rel, hardlev, chain, i, &bused)))
				return rc;
	}
	return prep_memos(P);
}
