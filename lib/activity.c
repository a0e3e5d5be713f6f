/*
 * The analytic activity analyst (docs/model.md, "Mapping and activity
 * model", "Activity analyst"); no iteration of the loop nest is walked.
 *
 * Key facts used (each one is checked by the reference simulator):
 *  - every tile of a tensor at a level is a translate of one base set, a
 *    Cartesian product over the tensor's axes of the values c0*i + c1*j;
 *  - between two consecutive iterations of the temporal loops above a
 *    level, the tile moves by a translation that depends only on which loop
 *    advanced (the others reset): fills = |S| - |S ∩ (S - delta)|;
 *  - sibling instances under one spatial level differ by a translation per
 *    axis, so the number of siblings that need an element is a product of
 *    per-axis counts (dims irrelevant to the tensor multiply it), and the
 *    delivery statistics are sums and differences of per-axis products;
 *  - the innermost loop above a child on a dim of a one-term axis, and
 *    every loop outside it, refill the whole tile like the first step.
 *
 * Cost: prepare() does everything that does not depend on the loop orders
 * once per factors and keeps (one pass over each two-term axis and its
 * ports per hop); order_counts() then adds up, per hop, one part per
 * storage level between the barrier's level and the child, each a function
 * of that level's order only (level_steps: a walk over its loops, with the
 * statistics of each two-term axis memoised per distinct advance). When
 * prepared for many orders (trim__activity_prepare) the parts are memoised
 * per level order too.
 */
#include <stdlib.h>
#include <string.h>

#include "activity_int.h"

#define MAXAX TRIM__MAX_TDIMS

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

/* ---- the order-independent part (per factors and keeps) -------------------- */

/* Spatial levels with bounds > 1 one hop may cross (outer to inner). */
#define MAXSP 8

/* Delivery statistics of a hop, per instance of each of its spatial levels
 * S_j: distinct[j] = (element, S_j instance) pairs some child below needs,
 * uni[j] = those needed below exactly one child of S_j. */
typedef struct {
	int64_t distinct[MAXSP], uni[MAXSP];
} sstat;

/* One axis of a tensor's index, terms with coefficient 0 dropped. */
typedef struct {
	int nt;
	int dim[2];
	int64_t coef[2];
} axis_t;

/* An axis of the child's base set on one hop. */
typedef struct {
	int64_t n[2];    /* extents along each term's dim */
	int64_t span;    /* two-term: max value + 1 */
	int64_t size;    /* |T_a| */
	int64_t boff;    /* two-term: offset of its membership bitmap in ws->buf[0] */
	int64_t p[MAXSP][2]; /* ports of each S_j along each term's dim */
	int64_t s[MAXSP][2]; /* distance of neighbouring ports of S_j along the axis */
	/* first step, per S_j: positions held below >= 1 child of S_j, below
	 * exactly one */
	int64_t A1[MAXSP], O1[MAXSP];
	int memo;        /* two-term: its table of advances (memo_t), else -1 */
} hax_t;

typedef struct {
	int B, C;
	int k;            /* spatial levels with bounds > 1 between B and C */
	int S[MAXSP];     /* them, outer to inner */
	int cmac;
	/* S_jm .. S_k-1 all multicast (S_jr .. all reduce): a word is
	 * replicated (added) only where every spatial level below it on the
	 * hop does the same; jm = k: no replication */
	int jm, jr;
	int64_t size;     /* |T| of the child */
	int64_t stepsC;   /* product of the temporal bounds above C */
	int64_t M;        /* lower bound: first step plus the advances that refill all */
	int64_t kirr[MAXSP]; /* S_j's ports irrelevant to the tensor */
	int64_t nsi[MAXSP];  /* instances of S_j */
	sstat first;      /* delivery statistics of the first step */
	/* the innermost storage level above C with a loop (bound > 1) on a dim
	 * of a one-term axis (-1: none): the barrier is one of its loops */
	int Lb;
	size_t lbase;     /* its level tables (lmemo_t): levels max(Lb, 0) .. C-1 */
	/* one-term axes at a step inside the barrier (they do not move): the
	 * product of their positions below an S_j instance, and of their extents */
	int64_t c1[MAXSP], s1;
	int n2;           /* two-term axes, by index */
	int a2[MAXAX];
	hax_t ax[MAXAX];
} hop_t;

typedef struct {
	int on;             /* present and asked for */
	int nax;
	axis_t ax[MAXAX];
	unsigned hard, win; /* dims of one-term axes, of two-term axes */
	int nk;             /* hops */
	hop_t hop[TRIM__MAX_LEVELS];
} tprep_t;

/* A two-term axis' statistics of one advance (delta), memoised per
 * preparation (gen). Entries with another gen are free. */
typedef struct {
	uint64_t gen;
	int64_t delta;
	int64_t ov;              /* |T_a ∩ (T_a - delta)| */
	int64_t A[MAXSP], E[MAXSP], O[MAXSP], O1[MAXSP], G[MAXSP]; /* per S_j: see axis_scan */
} memo_t;
#define MEMO_WAYS 16 /* the hash below takes 4 bits */

/* The part of a hop's counts that one storage level's order decides (see
 * level_steps), memoised per preparation by the level's order (key),
 * direct-mapped. */
typedef struct lmemo {
	uint64_t gen;
	uint64_t key;
	int64_t fills;
	sstat st;
} lmemo_t;
#define LMEMO 128

struct trim__act_prep {
	int lb, nL;
	int lmemo_on;      /* level tables in use (prepared for many orders) */
	int type[TRIM__MAX_LEVELS];
	int64_t f[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int64_t ext[TRIM__MAX_LEVELS + 1][TRIM_NDIMS];
	int64_t lprod[TRIM__MAX_LEVELS];     /* product of the level's bounds */
	unsigned big[TRIM__MAX_LEVELS];      /* storage: dims with bound > 1 */
	int64_t above[TRIM__MAX_LEVELS];     /* product of the storage levels' bounds above l */
	int64_t macs, zero_macs, steps, active_pes;
	int64_t instances[TRIM__MAX_LEVELS];
	int64_t tile[TRIM__MAX_LEVELS][3];
	tprep_t t[3];
	uint64_t gen;
	int nmemo;
	size_t memo_cap;   /* tables */
	memo_t *memo;      /* memo_cap * MEMO_WAYS */
	memo_t spill;      /* when a table is full */
	size_t nlmemo, lmemo_cap; /* level tables: entries */
	struct lmemo *lmemo;
};

void trim__act_ws_free(trim__act_ws *ws)
{
	if (!ws)
		return;
	for (int i = 0; i < TRIM__ACT_NBUF; i++) {
		free(ws->buf[i]);
		ws->buf[i] = NULL;
		ws->cap[i] = 0;
	}
	if (ws->prep) {
		free(ws->prep->memo);
		free(ws->prep->lmemo);
		free(ws->prep);
		ws->prep = NULL;
	}
}

/* out[x] = sum over q < p of in[x - q*s]; returns the new length. */
static int64_t conv(const int64_t *in, int64_t len, int64_t p, int64_t s, int64_t *out)
{
	int64_t n = len + s * (p - 1);
	memset(out, 0, (size_t)n * sizeof *out);
	for (int64_t q = 0; q < p; q++)
		for (int64_t v = 0; v < len; v++)
			out[v + q * s] += in[v];
	return n;
}

/* in (len) summed over the ports of S_j along both terms, into out (tmp:
 * scratch of the same size); returns the new length. */
static int64_t conv_level(const hax_t *x, int j, const int64_t *in, int64_t len, int64_t *tmp, int64_t *out)
{
	int64_t n = conv(in, len, x->p[j][0], x->s[j][0], tmp);
	return conv(tmp, n, x->p[j][1], x->s[j][1], out);
}

/* Statistics of a two-term axis over the positions x of the union of the
 * tiles below one instance of S_j, for every j < k: a child of S_j holds x
 * (now) if one of the ports below it does, and holds it still if every
 * port below it holding x held x + delta before (its tile moved by delta).
 * P = children of S_j holding x, Q = those holding it still: A = #{P > 0},
 * O = #{P = 1}; unless first: E = #{P = Q > 0}, O1 = #{P = Q = 1},
 * G = #{Q >= 1, P = Q + 1}. Per j, port counts of the levels below S_j
 * are convolutions of the base set with their ports, innermost first;
 * O(range x ports). */
static int axis_scan(trim__act_ws *ws, const hax_t *x, int k, int64_t delta, int first, memo_t *st)
{
	int64_t range = x->span;
	for (int j = 0; j < k; j++)
		range += x->s[j][0] * (x->p[j][0] - 1) + x->s[j][1] * (x->p[j][1] - 1);
	int64_t *b = ws_get(ws, 1, 6 * (size_t)range);
	if (!b)
		return TRIM_ENOMEM;
	int64_t *cn = b, *cq = b + range, *tmp = b + 2 * range, *P = b + 3 * range, *Q = b + 4 * range,
	        *ind = b + 5 * range;
	const int64_t *bits = ws->buf[0] + x->boff;
	int64_t len = x->span;
	for (int64_t v = 0; v < len; v++) {
		cn[v] = bits[v];
		cq[v] = !first && bits[v] && v + delta >= 0 && v + delta < x->span && bits[v + delta];
	}
	for (int j = k - 1; j >= 0; j--) {
		/* cn, cq: ports below one child of S_j (len positions) */
		for (int64_t v = 0; v < len; v++)
			ind[v] = cn[v] > 0;
		int64_t glen = conv_level(x, j, ind, len, tmp, P);
		if (!first) {
			for (int64_t v = 0; v < len; v++)
				ind[v] = cn[v] > 0 && cn[v] == cq[v];
			conv_level(x, j, ind, len, tmp, Q);
		}
		int64_t A = 0, O = 0, E = 0, O1 = 0, G = 0;
		for (int64_t v = 0; v < glen; v++) {
			int64_t n = P[v];
			A += n > 0;
			O += n == 1;
			if (!first) {
				int64_t q = Q[v];
				E += n > 0 && n == q;
				O1 += n == 1 && q == 1;
				G += q >= 1 && n == q + 1;
			}
		}
		st->A[j] = A;
		st->O[j] = O;
		st->E[j] = E;
		st->O1[j] = O1;
		st->G[j] = G;
		if (j > 0) { /* the ports below one child of S_j-1 */
			conv_level(x, j, cn, len, tmp, ind);
			memcpy(cn, ind, (size_t)glen * sizeof *cn);
			if (!first) {
				conv_level(x, j, cq, len, tmp, ind);
				memcpy(cq, ind, (size_t)glen * sizeof *cq);
			}
		}
		len = glen;
	}
	return 0;
}

/* |T_a ∩ (T_a - delta)| = #{v in T_a : v + delta in T_a} of a two-term axis. */
static int64_t axis_overlap(const int64_t *bits, int64_t span, int64_t delta)
{
	int64_t lo = delta < 0 ? -delta : 0, hi = delta > 0 ? span - delta : span, n = 0;
	for (int64_t v = lo; v < hi; v++)
		n += bits[v] & bits[v + delta];
	return n;
}

static int64_t lvl_prod(const trim__mapping *m, int l)
{
	int64_t p = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		p *= m->f[l][d];
	return p;
}

/* Everything that does not depend on the loop orders: the scope checks,
 * tiles, base sets, sibling geometry and first-step statistics of every hop
 * of the tensors in tmask. lb: for trim__activity_lower. */
static int prepare(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                   trim__act_ws *ws, int lb, unsigned tmask, int many)
{
	int rc;
	if (!ws->prep) {
		ws->prep = calloc(1, sizeof *ws->prep);
		if (!ws->prep)
			return trim__error(TRIM_ENOMEM, "activity: out of memory");
	}
	struct trim__act_prep *P = ws->prep;
	const int nL = m->nlevels, MAC = nL - 1;
	P->lb = lb;
	P->nL = nL;
	P->lmemo_on = many && !lb;
	P->gen++;
	P->nmemo = 0;
	P->nlmemo = 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		P->ext[nL][d] = 1;
	for (int l = nL - 1; l >= 0; l--) /* eight independent products per level */
		for (int d = 0; d < TRIM_NDIMS; d++)
			P->ext[l][d] = P->ext[l + 1][d] * m->f[l][d];
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
	if (!lb) {
		rc = trim__activity_zero_macs(w, &P->zero_macs);
		if (rc)
			return rc;
	}
	size_t bused = 0; /* words of ws->buf[0] used by the bitmaps */

	for (int t = 0; t < 3; t++) {
		const trim__tensor *T = &w->t[t];
		tprep_t *tp = &P->t[t];
		tp->on = T->present && (tmask >> t & 1);
		if (!tp->on)
			continue;
		/* axes of the tensor (terms with coefficient 0 dropped) */
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
		/* holders, outer to inner, then the MAC */
		int chain[TRIM__MAX_LEVELS + 1], nk = 0;
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
			for (int a = 0; a < nax; a++) /* one term (coefficient > 0): its extent */
				n *= ax[a].nt == 1 ? P->ext[chain[i]][ax[a].dim[0]]
				     : trim__axis_distinct(ax[a].coef[0], P->ext[chain[i]][ax[a].dim[0]],
				                           ax[a].coef[1], P->ext[chain[i]][ax[a].dim[1]]);
			P->tile[chain[i]][t] = n;
		}

		for (int i = 1; i <= nk; i++) {
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
					int64_t *bits = ws_get(ws, 0, bused + (size_t)x->span);
					if (!bits)
						return TRIM_ENOMEM;
					x->boff = (int64_t)bused;
					bits += bused;
					bused += (size_t)x->span;
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
						if ((rc = axis_scan(ws, x, k, 0, 1, &st)))
							return rc;
						memcpy(x->A1, st.A, sizeof x->A1);
						memcpy(x->O1, st.O, sizeof x->O1);
					}
				}
				h->size *= x->size;
			}
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
		}
	}
	/* memo tables of the two-term axes, emptied by the new gen */
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

/* ---- the order-dependent part ------------------------------------------------ */

/* Statistics of the advance delta of two-term axis x (memoised). */
static int axis_advance(trim__act_ws *ws, const hax_t *x, int k, int64_t delta, const memo_t **out)
{
	struct trim__act_prep *P = ws->prep;
	memo_t *tab = P->memo + (size_t)x->memo * MEMO_WAYS;
	unsigned h = (unsigned)(((uint64_t)delta * 0x9e3779b97f4a7c15ull) >> 60) & (MEMO_WAYS - 1);
	memo_t *slot = NULL;
	for (int k = 0; k < MEMO_WAYS; k++) {
		memo_t *e = &tab[(h + (unsigned)k) & (MEMO_WAYS - 1)];
		if (e->gen != P->gen) {
			slot = e;
			break;
		}
		if (e->delta == delta) {
			*out = e;
			return 0;
		}
	}
	memo_t *e = slot ? slot : &P->spill; /* table full: read before the next call */
	e->delta = delta;
	e->ov = axis_overlap(ws->buf[0] + x->boff, x->span, delta);
	if (k > 0) {
		int rc = axis_scan(ws, x, k, delta, 0, e);
		if (rc)
			return rc;
	}
	e->gen = P->gen;
	*out = e;
	return 0;
}

/* The steps of a hop (B, C) of tensor t, for the loop orders of m (facts
 * 2-4 and 7 of docs/model.md, "Activity analyst"): the barrier (the
 * innermost loop above C on a dim of a one-term axis) and every loop
 * outside it refill the whole tile and deliver what the first step
 * delivers: with the first step, full = above[Lb] * (the bounds of the
 * barrier and of the loops of Lb outside it) steps. A loop j inside the
 * barrier, at level l, moves the one-term axes by 0 and each two-term axis
 * by delta_j, which depends on the loops inside it: those of l inside j and
 * every loop of the storage levels between l and C; it happens cnt_j =
 * above[l] * (bounds of l's loops outside j) * (b_j - 1) times (the loops
 * outside j above the barrier's level multiply to above[l]). So the counts
 * are a sum over the levels Lb .. C-1 of a part that depends on the order
 * of that level only. level_steps: the part of level l (with full's part
 * at l = Lb): fills of a child instance and, with S, the delivery
 * statistics per instance of S. */
static int level_steps(trim__act_ws *ws, const tprep_t *tp, const hop_t *h, int l, const int *order,
                       int64_t *fills, sstat *tot)
{
	const struct trim__act_prep *P = ws->prep;
	/* the loops of l (bound > 1), innermost first, up to the barrier */
	int ld[TRIM_NDIMS], nl = 0;
	int64_t lbd[TRIM_NDIMS], lst[TRIM_NDIMS], inner = 1;
	for (int k = TRIM_NDIMS - 1; k >= 0; k--) {
		int d = order[k];
		int64_t b = P->f[l][d];
		if (b == 1)
			continue;
		if (l == h->Lb && (tp->hard >> d & 1))
			break;
		ld[nl] = d;
		lbd[nl] = b;
		lst[nl] = P->ext[l + 1][d];
		inner *= b;
		nl++;
	}
	/* before: the steps of the loops outside the outermost of those */
	int64_t before = P->above[l];
	const int k = h->k;
	*fills = 0;
	for (int j = 0; j < k; j++)
		tot->distinct[j] = tot->uni[j] = 0;
	if (l == h->Lb) {
		before *= P->lprod[l] / inner; /* = full */
		*fills = before * h->size;
		for (int j = 0; j < k; j++) {
			tot->distinct[j] = h->first.distinct[j] * before;
			tot->uni[j] = h->first.uni[j] * before;
		}
	}
	if (!h->n2 || !nl)
		return 0;
	/* deltas of the two-term axes, innermost loop first: a loop advances
	 * its dim by its stride and resets every loop inside it (all loops of
	 * the storage levels between l and C) */
	int64_t reset[TRIM_NDIMS] = {0}, dl[TRIM_NDIMS][MAXAX];
	int mv[TRIM_NDIMS];
	for (int i = l + 1; i < h->C; i++)
		if (P->type[i] == TRIM__LVL_STORAGE)
			for (unsigned wd = tp->win & P->big[i]; wd; wd &= wd - 1) {
				int d = __builtin_ctz(wd);
				reset[d] += (P->f[i][d] - 1) * P->ext[i + 1][d];
			}
	for (int i = 0; i < nl; i++) {
		int moved = 0;
		for (int k = 0; k < h->n2; k++) {
			const axis_t *y = &tp->ax[h->a2[k]];
			int64_t d0 = -reset[y->dim[0]] + (y->dim[0] == ld[i] ? lst[i] : 0);
			int64_t d1 = -reset[y->dim[1]] + (y->dim[1] == ld[i] ? lst[i] : 0);
			dl[i][k] = y->coef[0] * d0 + y->coef[1] * d1;
			moved |= dl[i][k] != 0;
		}
		mv[i] = moved;
		reset[ld[i]] += (lbd[i] - 1) * lst[i];
	}
	for (int i = nl - 1; i >= 0; i--) {
		int64_t cnt = before * (lbd[i] - 1);
		before *= lbd[i];
		if (!mv[i])
			continue; /* stationary: nothing changes */
		/* per two-term axis a: ov_a, and per S_j the position counts; the
		 * one-term axes hold every element at both steps */
		int64_t ov = h->s1, A[MAXSP], E[MAXSP], O[MAXSP], O1[MAXSP];
		int64_t Ga[MAXAX][MAXSP], O1a[MAXAX][MAXSP];
		for (int j = 0; j < k; j++)
			A[j] = E[j] = O[j] = O1[j] = h->c1[j];
		for (int kk = 0; kk < h->n2; kk++) {
			const hax_t *x = &h->ax[h->a2[kk]];
			if (dl[i][kk] == 0) {
				ov *= x->size;
				for (int j = 0; j < k; j++) {
					A[j] *= x->A1[j];
					E[j] *= x->A1[j];
					O[j] *= x->O1[j];
					O1[j] *= x->O1[j];
					Ga[kk][j] = 0;
					O1a[kk][j] = x->O1[j];
				}
				continue;
			}
			const memo_t *e;
			int rc = axis_advance(ws, x, k, dl[i][kk], &e);
			if (rc)
				return rc;
			ov *= e->ov;
			for (int j = 0; j < k; j++) {
				A[j] *= e->A[j];
				E[j] *= e->E[j];
				O[j] *= e->O[j];
				O1[j] *= e->O1[j];
				Ga[kk][j] = e->G[j];
				O1a[kk][j] = e->O1[j];
			}
		}
		*fills += cnt * (h->size - ov);
		for (int j = 0; j < k; j++) {
			/* children of S_j needing x: kirr * (prod_a P_a - prod_a Q_a)
			 * with Q_a <= P_a: > 0 unless every P_a = Q_a; = 1 (kirr = 1)
			 * iff every P_a = 1 and some Q_a = 0, or one axis has P_a =
			 * Q_a + 1 >= 2 and the others P_b = Q_b = 1 */
			int64_t uni = 0;
			if (h->kirr[j] == 1) {
				uni = O[j] - O1[j];
				for (int kk = 0; kk < h->n2; kk++) {
					int64_t g = Ga[kk][j] * h->c1[j];
					for (int q = 0; q < h->n2; q++)
						if (q != kk)
							g *= O1a[q][j];
					uni += g;
				}
			}
			tot->distinct[j] += cnt * (A[j] - E[j]);
			tot->uni[j] += cnt * uni;
		}
	}
	return 0;
}

/* Per child instance, the fills over all its steps (fills1) and, with S, the
 * delivery statistics per instance of S summed over the steps (tot). key[l]:
 * level l's order, packed. */
static int hop_steps(trim__act_ws *ws, const tprep_t *tp, const hop_t *h, const trim__mapping *m,
                     const uint32_t *key, int64_t *fills1, sstat *tot)
{
	const struct trim__act_prep *P = ws->prep;
	if (h->cmac || P->lb) {
		/* MAC: one element per MAC, nothing kept: every step is a first
		 * step; lower bound: the first step and the fewest steps that
		 * refill the whole tile */
		int64_t n = h->cmac ? h->stepsC : h->M;
		*fills1 = h->cmac ? n : n * h->size;
		for (int j = 0; j < h->k; j++) {
			tot->distinct[j] = h->first.distinct[j] * n;
			tot->uni[j] = h->first.uni[j] * n;
		}
		return 0;
	}
	const int lo = h->Lb > 0 ? h->Lb : 0;
	if (h->Lb < 0) { /* no barrier: only the first step refills */
		*fills1 = h->size;
		*tot = h->first;
	} else {
		*fills1 = 0;
		for (int j = 0; j < h->k; j++)
			tot->distinct[j] = tot->uni[j] = 0;
	}
	for (int l = lo; l < h->C; l++) {
		if (P->type[l] != TRIM__LVL_STORAGE)
			continue;
		lmemo_t one, *e = &one;
		if (!P->lmemo_on) { /* one order: nothing to reuse */
			int rc = level_steps(ws, tp, h, l, m->order[l], &e->fills, &e->st);
			if (rc)
				return rc;
		} else if (e = &P->lmemo[h->lbase + (size_t)(l - lo) * LMEMO +
		                         ((key[l] * 2654435761u) >> 25 & (LMEMO - 1))],
		           e->gen != P->gen || e->key != key[l]) {
			int rc = level_steps(ws, tp, h, l, m->order[l], &e->fills, &e->st);
			if (rc) {
				e->gen = 0;
				return rc;
			}
			e->gen = P->gen;
			e->key = key[l];
		}
		*fills1 += e->fills;
		for (int j = 0; j < h->k; j++) {
			tot->distinct[j] += e->st.distinct[j];
			tot->uni[j] += e->st.uni[j];
		}
	}
	return 0;
}

/* The counts of every prepared tensor for m's loop orders. Rows >= the
 * number of levels are not written. */
static int order_counts(trim__act_ws *ws, const trim__mapping *m, trim__activity *out)
{
	struct trim__act_prep *P = ws->prep;
	const int nL = P->nL;
	uint32_t key[TRIM__MAX_LEVELS]; /* storage: the order, 3 bits per position */
	for (int l = 0; P->lmemo_on && l < nL; l++) {
		key[l] = 0;
		for (int k = 0; k < TRIM_NDIMS; k++)
			key[l] |= (uint32_t)(m->order[l][k] & 7) << (3 * k);
	}
	out->macs = P->macs;
	out->zero_macs = P->zero_macs;
	out->steps = P->steps;
	out->active_pes = P->active_pes;
	memcpy(out->instances, P->instances, (size_t)nL * sizeof *out->instances);
	memcpy(out->tile, P->tile, (size_t)nL * sizeof *out->tile);
	int64_t (*const zero[])[3] = {out->fills, out->reads, out->updates, out->drains, out->down_words,
	                              out->down_dests, out->unicast, out->mcast, out->mcast_dests,
	                              out->up_words, out->up_out, out->reductions};
	for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
		for (int l = 0; l < nL; l++) /* short rows: no call */
			zero[i][l][0] = zero[i][l][1] = zero[i][l][2] = 0;

	for (int t = 0; t < 3; t++) {
		const tprep_t *tp = &P->t[t];
		if (!tp->on)
			continue;
		int64_t Fprev = P->tile[0][t], Rprev = 0; /* result: entries and read-backs of the parent */
		int nored = 1; /* no spatial level above the hop splits a dim irrelevant to the result */
		for (int i = 0; i < tp->nk; i++) {
			const hop_t *h = &tp->hop[i];
			const int B = h->B, C = h->C, k = h->k, cmac = h->cmac;
			int64_t fills1;
			sstat tot_st;
			int rc = hop_steps(ws, tp, h, m, key, &fills1, &tot_st);
			if (rc)
				return rc;
			int64_t Fc = fills1 * P->instances[C];
			/* Mw[j] (j < k): (element, S_j instance) pairs needed below,
			 * Mw[k]: deliveries to the children (C's instances); Uw[j]:
			 * pairs needed below exactly one child of S_j */
			int64_t Mw[MAXSP + 1], Uw[MAXSP];
			for (int j = 0; j < k; j++) {
				Mw[j] = tot_st.distinct[j] * h->nsi[j];
				Uw[j] = tot_st.uni[j] * h->nsi[j];
			}
			Mw[k] = Fc;
			/* depth of a spatial level on the hop: the S_j above it */
			int depth[TRIM__MAX_LEVELS], sp_j[TRIM__MAX_LEVELS];
			for (int l = B + 1, q = 0; l < C; l++) {
				sp_j[l] = q < k && h->S[q] == l ? q : -1;
				depth[l] = q;
				if (sp_j[l] >= 0)
					q++;
			}
			if (t < 2) {
				/* a word is replicated only at S_jm .. S_k-1: above S_jm
				 * every delivery of S_jm's children travels on its own */
				const int jm = h->jm;
				if (!cmac)
					out->fills[C][t] += Fc;
				out->reads[B][t] += Mw[jm];
				for (int l = B + 1; l < C; l++) {
					if (P->type[l] != TRIM__LVL_SPATIAL)
						continue;
					const int j = sp_j[l];
					if (j >= jm) {
						out->down_words[l][t] += Mw[j];
						out->down_dests[l][t] += Mw[j + 1];
						out->unicast[l][t] += Uw[j];
						out->mcast[l][t] += Mw[j] - Uw[j];
						out->mcast_dests[l][t] += Mw[j + 1] - Uw[j];
					} else {
						/* no replication here, or a level with bounds 1 */
						const int q = j >= 0 ? j : depth[l];
						int64_t wds = Mw[q > jm ? q : jm];
						out->down_words[l][t] += wds;
						out->down_dests[l][t] += wds;
						out->unicast[l][t] += wds;
					}
				}
			} else {
				/* read-backs: what arrives minus the first entries (Fprev -
				 * Rprev); those are the result's elements, once each, while
				 * no spatial level above splits a dim irrelevant to it (the
				 * lower bound's U is a lower bound) */
				const int jr = h->jr;
				int64_t U = Mw[0], R = P->lb ? (nored && U > P->tile[0][t] ? U - P->tile[0][t] : 0) : U - Fprev + Rprev;
				int64_t upd = Mw[jr];
				if (!cmac) {
					out->fills[C][t] += R;
					out->drains[C][t] += Fc;
				}
				out->reads[B][t] += R;
				/* lower bound: below the outermost holder, R + (B's drains,
				 * Fprev) = U + Rprev >= U; B's reads and drains cost the same
				 * (both read B), so the shortfall is charged to B's reads
				 * only (not to the read-backs' network words and fills,
				 * which may be drains instead) */
				if (P->lb && i > 0 && U > R + Fprev)
					out->reads[B][t] += U - R - Fprev;
				out->updates[B][t] += upd;
				for (int l = B + 1; l < C; l++) {
					if (P->type[l] != TRIM__LVL_SPATIAL)
						continue;
					out->down_words[l][t] += R;
					out->down_dests[l][t] += R;
					out->unicast[l][t] += R;
					/* the words of S_j's children enter S_j; S_jr .. S_k-1
					 * add them up, the levels above pass what S_jr sends */
					const int j = sp_j[l];
					const int qi = j >= 0 ? j + 1 : depth[l], qo = j >= 0 ? j : depth[l];
					int64_t in_w = Mw[qi > jr ? qi : jr];
					int64_t out_w = Mw[qo > jr ? qo : jr];
					out->up_words[l][t] += in_w;
					out->up_out[l][t] += out_w;
					out->reductions[l][t] += in_w - out_w;
				}
				Fprev = Fc;
				Rprev = R;
				for (int l = B + 1; l < C; l++)
					if (P->type[l] == TRIM__LVL_SPATIAL)
						for (int d = 0; d < TRIM_NDIMS; d++)
							if (P->f[l][d] > 1 && !((tp->hard & ~tp->win) >> d & 1))
								nored = 0;
			}
		}
	}
	return 0;
}

/* ---- entry points --------------------------------------------------------------- */

/* lb = 0: exact counts of every tensor. lb = 1: for the tensors in tmask
 * only, a lower bound on every count valid for every loop order of the
 * levels (docs/model.md, "Mapspace and search"): per hop, the first step and
 * the fewest steps that move a single-term axis of the tensor (each refills
 * the whole tile and sends what the first step sends), and no partial-sum
 * read-backs; zero_macs is left 0. */
static int compute(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                   trim__act_ws *ws, trim__activity *out, int lb, unsigned tmask)
{
	memset(out, 0, sizeof *out);
	int rc = prepare(w, arch, m, ws, lb, tmask, 0);
	if (rc)
		return rc;
	return order_counts(ws, m, out);
}

int trim__activity_compute(const trim__intra *w, const struct trim_arch *arch,
                           const trim__mapping *m, trim__act_ws *ws, trim__activity *out)
{
	return compute(w, arch, m, ws, out, 0, 7u);
}

int trim__activity_tensors(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                           unsigned tmask, trim__act_ws *ws, trim__activity *out)
{
	return compute(w, arch, m, ws, out, 0, tmask);
}

int trim__activity_lower(const trim__intra *w, const struct trim_arch *arch,
                         const trim__mapping *m, unsigned tmask, trim__act_ws *ws,
                         trim__activity *out)
{
	return compute(w, arch, m, ws, out, 1, tmask);
}

int trim__activity_prepare_tensors(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                                   unsigned tmask, trim__act_ws *ws)
{
	int rc = prepare(w, arch, m, ws, 0, tmask, tmask == 7u);
	if (rc && ws->prep)
		ws->prep->lb = -1; /* nothing prepared */
	return rc;
}

int trim__activity_prepare(const trim__intra *w, const struct trim_arch *arch,
                           const trim__mapping *m, trim__act_ws *ws)
{
	return trim__activity_prepare_tensors(w, arch, m, 7u, ws);
}

int trim__activity_orders(trim__act_ws *ws, const trim__mapping *m, trim__activity *out)
{
	if (!ws->prep || ws->prep->lb != 0 || ws->prep->nL != m->nlevels)
		return trim__error(TRIM_EINVAL, "activity: orders evaluated without a preparation");
	return order_counts(ws, m, out);
}
