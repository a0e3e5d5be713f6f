/*
 * Imperfect factorisations (docs/model.md, "Imperfect factorisations"): a
 * dim's bounds multiply to more than its workload bound; every tile is the
 * padded one clipped at the bound (the last one ragged), an iteration whose
 * tile is empty is not executed, and an instance with nothing to do at a
 * step holds nothing. The tiles of a step are no longer translates of one
 * base set, so the per-advance closed forms of orders.c do not apply; this
 * file counts the same quantities per transition between steps, exactly:
 *  - a hop's counts at a transition are sums and differences of products
 *    over "groups" (a tensor axis, or a dim irrelevant to the tensor:
 *    position 0 held by an active instance) of per-group sums over the
 *    group's coordinates of the spatial levels above the child (the
 *    instances are a product over dims), exactly as in orders.c;
 *  - a group's sums depend only on where its dims' tiles start relative to
 *    each other and to the bound, so they are memoised by that key;
 *  - the MAC hop (no reuse between steps) and the step count are products
 *    over dims of sums over each dim's executed positions (the executed
 *    steps are a product over dims); the other hops sum over the advances
 *    of the loops above the child recursively, a sub-nest's sum memoised by
 *    its distances to the bounds (sub_sum): no step is walked.
 * Taken only for ragged mappings: perfect factorisations never come here.
 */
#include <stdlib.h>
#include <string.h>

#include "analyst_int.h"

#define MAXG (TRIM_NDIMS)
#define MAXLEAF (1 << 16)

/* A group of a hop: one axis of the tensor (nd dims, coefficients; coef 0:
 * a dim irrelevant to the tensor) and the spatial levels above the child. */
typedef struct {
	int nd, dim[2];
	int64_t coef[2];
	int ns;                         /* spatial levels above the child with bounds > 1 */
	int sl[TRIM__MAX_LEVELS];
	int64_t np[TRIM__MAX_LEVELS];   /* ports of each along the group's dims */
	int js[MAXSP];                  /* S_j's index in sl */
	int64_t nleaf;
	int64_t W[2];                   /* extent of all leaves along each dim (padded) */
} rgroup;

typedef struct {
	uint64_t gen; /* in use for the hop of this generation */
	int64_t key[8];
	trim__rag_stat st;
} rent;

struct trim__act_rag {
	uint64_t gen;       /* one per preparation (pgen: its P->gen): older entries are free;
	                     * a group's sums do not depend on the orders, so the orders of
	                     * one preparation share them (the key names the tensor and hop) */
	uint64_t pgen;
	size_t cap, n;      /* memo entries */
	rent *tab;
	trim__rag_scratch sc; /* ragged_stat.c's */
	int64_t *rng;       /* per leaf: cur [a0, e0, a1, e1], prev [a0, e0, a1, e1] */
	size_t rcap;
};

void trim__act_rag_free(struct trim__act_rag *r)
{
	if (!r)
		return;
	free(r->tab);
	trim__rag_scratch_free(&r->sc);
	free(r->rng);
	free(r);
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (*cap >= n)
		return p;
	size_t c = *cap ? *cap : 1024;
	while (c < n)
		c *= 2;
	void *q = realloc(p, c * size);
	if (!q)
		return NULL;
	*cap = c;
	return q;
}

/* The group's sums at a step whose tiles start at bc (per group dim), the
 * previous step's at bp (NULL: nothing held before): computed. */
static int group_stat(struct trim__act_prep *P, const rgroup *g, int k, int C, const int64_t *bc,
                      const int64_t *bp, trim__rag_stat *st)
{
	struct trim__act_rag *R = P->rag;
	const int64_t nl = g->nleaf;
	if (nl > MAXLEAF)
		return trim__error(TRIM_EINVAL, "activity: an imperfect factorisation with more than %d instances "
		                   "below a level (not supported)", MAXLEAF);
	int64_t *rng = grow(R->rng, &R->rcap, (size_t)nl * 8, sizeof *rng);
	if (!rng)
		return trim__error(TRIM_ENOMEM, "activity: out of memory");
	R->rng = rng;
	for (int64_t i = 0; i < nl; i++) {
		int64_t off[2] = {0, 0}, rem = i;
		for (int q = g->ns - 1; q >= 0; q--) {
			int64_t port = rem % g->np[q];
			rem /= g->np[q];
			const int l = g->sl[q];
			int64_t f0 = P->f[l][g->dim[0]];
			off[0] += port % f0 * P->ext[l + 1][g->dim[0]];
			if (g->nd > 1)
				off[1] += port / f0 * P->ext[l + 1][g->dim[1]];
		}
		int64_t *r = rng + i * 8;
		for (int s = 0; s < 2; s++) {
			const int64_t *b = s ? bp : bc;
			for (int e = 0; e < 2; e++) {
				int64_t a = 0, z = 1;
				if (e < g->nd && b) {
					const int d = g->dim[e];
					a = b[e] + off[e];
					z = a + P->ext[C][d];
					if (z > P->D[d])
						z = P->D[d];
					if (a > z)
						a = z;
				} else if (!b) {
					z = 0; /* nothing held before */
				}
				r[s * 4 + 2 * e] = a;
				r[s * 4 + 2 * e + 1] = z;
			}
		}
	}
	trim__rag_shape sh = {.coef = {g->coef[0], g->coef[1]}, .k = k, .nleaf = nl};
	for (int j = 0; j < k; j++) {
		const int q = g->js[j];
		sh.rch[j] = 1;
		for (int z = q + 1; z < g->ns; z++)
			sh.rch[j] *= g->np[z];
		sh.rin[j] = sh.rch[j] * g->np[q];
	}
	if (g->nd < 2)
		sh.coef[1] = 0;
	if (trim__rag_runs_apply(&sh))
		return trim__rag_stat_runs(&R->sc, &sh, rng, st);
	return trim__rag_stat_bits(&R->sc, &sh, rng, st);
}

/* group_stat memoised by what it depends on: per dim, where the previous
 * tiles start relative to the current ones and how far each is from the
 * bound (capped at the leaves' extent: further, nothing is clipped). The
 * result points into the table: copy it before the next look-up (which may
 * grow the table). */
static int group_stat_memo(struct trim__act_prep *P, int gid, const rgroup *g, int k, int C,
                           const int64_t *bc, const int64_t *bp, const trim__rag_stat **out)
{
	struct trim__act_rag *R = P->rag;
	int64_t key[8] = {gid, bp != NULL, 0, 0, 0, 0, 0, 0};
	for (int e = 0; e < g->nd; e++) {
		const int d = g->dim[e];
		int64_t rc = P->D[d] - bc[e];
		key[2 + 3 * e] = rc < g->W[e] ? rc : g->W[e];
		if (bp) {
			int64_t rp = P->D[d] - bp[e];
			key[3 + 3 * e] = rp < g->W[e] ? rp : g->W[e];
			key[4 + 3 * e] = bp[e] - bc[e];
		}
	}
	int rc = 0;
	if (2 * (R->n + 1) > R->cap) {
		size_t nc = R->cap ? 2 * R->cap : 256;
		rent *t = calloc(nc, sizeof *t);
		if (!t)
			return trim__error(TRIM_ENOMEM, "activity: out of memory");
		for (size_t i = 0; i < R->cap; i++)
			if (R->tab[i].gen == R->gen) {
				uint64_t h = 1469598103934665603ull;
				for (int z = 0; z < 8; z++)
					h = (h ^ (uint64_t)R->tab[i].key[z]) * 1099511628211ull;
				size_t s = (size_t)h & (nc - 1);
				while (t[s].gen == R->gen)
					s = (s + 1) & (nc - 1);
				t[s] = R->tab[i];
			}
		free(R->tab);
		R->tab = t;
		R->cap = nc;
	}
	uint64_t h = 1469598103934665603ull;
	for (int z = 0; z < 8; z++)
		h = (h ^ (uint64_t)key[z]) * 1099511628211ull;
	size_t s = (size_t)h & (R->cap - 1);
	while (R->tab[s].gen == R->gen && memcmp(R->tab[s].key, key, sizeof key))
		s = (s + 1) & (R->cap - 1);
	rent *e = &R->tab[s];
	if (e->gen != R->gen) {
		if ((rc = group_stat(P, g, k, C, bc, bp, &e->st)))
			return rc;
		e->gen = R->gen;
		memcpy(e->key, key, sizeof key);
		R->n++;
	}
	*out = &e->st;
	return 0;
}

/* One step's contribution (the group sums st[g]) to the hop's totals. */
static void add_step(int ng, int k, const trim__rag_stat *const *st, int64_t *Fc, int64_t *Mw, int64_t *Uw)
{
	int64_t c = 1, in = 1;
	for (int g = 0; g < ng; g++) {
		c *= st[g]->cur;
		in *= st[g]->inter;
	}
	*Fc += c - in;
	for (int j = 0; j < k; j++) {
		int64_t A = 1, E = 1, O = 1, O1 = 1, uni = 0;
		for (int g = 0; g < ng; g++) {
			A *= st[g]->A[j];
			E *= st[g]->E[j];
			O *= st[g]->O[j];
			O1 *= st[g]->O1[j];
		}
		uni = O - O1;
		for (int g = 0; g < ng; g++) {
			int64_t x = st[g]->G[j];
			for (int q = 0; q < ng && x; q++)
				if (q != g)
					x *= st[q]->O1[j];
			uni += x;
		}
		Mw[j] += A - E;
		if (Uw)
			Uw[j] += uni;
	}
}

/* The groups of tensor t's hop h. */
static int groups_of(const struct trim__act_prep *P, const tprep_t *tp, const hop_t *h, rgroup *gs)
{
	int ng = 0;
	unsigned rel = 0;
	for (int a = 0; a < tp->nax; a++) {
		rgroup *g = &gs[ng++];
		memset(g, 0, sizeof *g);
		g->nd = tp->ax[a].nt;
		for (int e = 0; e < g->nd; e++) {
			g->dim[e] = tp->ax[a].dim[e];
			g->coef[e] = tp->ax[a].coef[e];
			rel |= 1u << g->dim[e];
		}
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!(rel >> d & 1) && P->ext[0][d] > 1) {
			rgroup *g = &gs[ng++];
			memset(g, 0, sizeof *g);
			g->nd = 1;
			g->dim[0] = d;
		}
	for (int q = 0; q < ng; q++) {
		rgroup *g = &gs[q];
		g->nleaf = 1;
		for (int l = 0, j = 0; l < h->C; l++) {
			if (P->type[l] != TRIM__LVL_SPATIAL || P->lprod[l] <= 1)
				continue;
			int64_t n = 1;
			for (int e = 0; e < g->nd; e++)
				n *= P->f[l][g->dim[e]];
			if (j < h->k && h->S[j] == l)
				g->js[j++] = g->ns;
			g->sl[g->ns] = l;
			g->np[g->ns++] = n;
			g->nleaf *= n;
		}
		for (int e = 0; e < g->nd; e++) {
			const int d = g->dim[e];
			g->W[e] = P->ext[h->C][d];
			for (int z = 0; z < g->ns; z++)
				g->W[e] += (P->f[g->sl[z]][d] - 1) * P->ext[g->sl[z] + 1][d];
		}
	}
	return ng;
}

/* The executed positions of dim d (tile starts of the temporal loops above
 * level C on d, those below the bound), into pos
 * (NULL: counted only). */
static int64_t positions(const struct trim__act_prep *P, const trim__mapping *m, int C, int d, int64_t *pos)
{
	int64_t st[TRIM__MAX_LEVELS], bd[TRIM__MAX_LEVELS], idx[TRIM__MAX_LEVELS] = {0};
	int n = 0;
	for (int l = 0; l < C; l++)
		if (P->type[l] == TRIM__LVL_STORAGE && m->f[l][d] > 1) {
			st[n] = P->ext[l + 1][d];
			bd[n++] = m->f[l][d];
		}
	if (!pos) {
		/* counted: the loops on d are a mixed radix (each one's stride
		 * spans the loops inside it), so per loop the iterations whose
		 * whole subtree fits count full(inner) each, and the one cut by the
		 * bound recurses */
		int64_t full[TRIM__MAX_LEVELS + 1];
		full[n] = 1;
		for (int i = n - 1; i >= 0; i--)
			full[i] = full[i + 1] * bd[i];
		int64_t cnt = 0, rem = P->D[d];
		for (int i = 0; i < n && rem > 0; i++) {
			int64_t nv = (rem + st[i] - 1) / st[i], vf = rem / st[i];
			nv = nv < bd[i] ? nv : bd[i];
			vf = vf < nv ? vf : nv;
			cnt += vf * full[i + 1];
			if (nv == vf)
				return cnt;
			rem -= vf * st[i];
		}
		return cnt + 1;
	}
	int64_t cnt = 0, b = 0;
	for (;;) {
		if (pos)
			pos[cnt] = b;
		cnt++;
		int k = n - 1;
		while (k >= 0) {
			idx[k]++;
			b += st[k];
			if (idx[k] < bd[k] && b < P->D[d])
				break;
			b -= idx[k] * st[k];
			idx[k--] = 0;
		}
		if (k < 0)
			break;
	}
	return cnt;
}

int64_t trim__act_ragged_steps(const struct trim__act_prep *P, const trim__mapping *m)
{
	int64_t s = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		s *= positions(P, m, P->nL - 1, d, NULL);
	return s;
}

/* The MAC hop: every step is a first step; a product over groups of sums
 * over the group's executed positions. */
static int mac_hop(struct trim__act_prep *P, const trim__mapping *m, const rgroup *gs, int ng, int k, int C,
                   int hid, int64_t *Fc, int64_t *Mw, int64_t *Uw)
{
	trim__rag_stat tot[MAXG];
	const trim__rag_stat *pt[MAXG];
	for (int q = 0; q < ng; q++) {
		const rgroup *g = &gs[q];
		int64_t n[2] = {1, 1}, *pos[2] = {NULL, NULL};
		int rc = 0;
		for (int e = 0; e < g->nd; e++) {
			n[e] = positions(P, m, C, g->dim[e], NULL);
			pos[e] = malloc((size_t)n[e] * sizeof *pos[e]);
			if (!pos[e])
				rc = trim__error(TRIM_ENOMEM, "activity: out of memory");
			else
				positions(P, m, C, g->dim[e], pos[e]);
		}
		memset(&tot[q], 0, sizeof tot[q]);
		for (int64_t u = 0; !rc && u < n[0]; u++)
			for (int64_t v = 0; !rc && v < n[1]; v++) {
				int64_t bc[2] = {pos[0][u], g->nd > 1 ? pos[1][v] : 0};
				const trim__rag_stat *s;
				rc = group_stat_memo(P, hid * 32 + q, g, k, C, bc, NULL, &s);
				if (rc)
					break;
				tot[q].cur += s->cur;
				for (int j = 0; j < k; j++) {
					tot[q].A[j] += s->A[j];
					tot[q].O[j] += s->O[j];
				}
			}
		free(pos[0]);
		free(pos[1]);
		if (rc)
			return rc;
		pt[q] = &tot[q];
	}
	add_step(ng, k, pt, Fc, Mw, Uw);
	return 0;
}

/* ---- the other hops: a sum over the advances of the loops above C ------- */

/* The totals of a set of steps: fills of the child, per S_j the pairs
 * delivered and those needed below one child, the drains and their pairs. */
typedef struct {
	int64_t Fc, Mw[MAXSP], Uw[MAXSP], Dfc, Dw[MAXSP];
} racc;

static void acc_add(racc *a, const racc *b, int k)
{
	a->Fc += b->Fc;
	a->Dfc += b->Dfc;
	for (int j = 0; j < k; j++) {
		a->Mw[j] += b->Mw[j];
		a->Uw[j] += b->Uw[j];
		a->Dw[j] += b->Dw[j];
	}
}

#define MAXLOOP (TRIM__MAX_LEVELS * TRIM_NDIMS)

/* sub_sum's memo: (loop, distances to the bound) -> totals */
typedef struct {
	int used;
	int z;
	int64_t r[TRIM_NDIMS];
	racc acc;
} smemo;

typedef struct {
	struct trim__act_prep *P;
	const rgroup *gs;
	int ng, k, C, hid, t;
	int n;                      /* loops above C with bounds > 1, outermost first */
	int ld[MAXLOOP];
	int64_t lb[MAXLOOP], ls[MAXLOOP];
	int64_t cap[MAXLOOP + 1][TRIM_NDIMS];
	smemo *memo;
	size_t mcap, mn;
} walk_t;

/* The totals of one transition (bp NULL: a first step) between steps whose
 * tiles start at bc and bp, and, a result, the drains of bp's tiles. */
static int transition(walk_t *W, const int64_t *bc, const int64_t *bp, racc *out)
{
	const trim__rag_stat *sf[MAXG + MAXAX], *sd[MAXG + MAXAX];
	trim__rag_stat keep[MAXG + MAXAX], keepd[MAXG + MAXAX]; /* copies: a later look-up may grow the table */
	for (int q = 0; q < W->ng; q++) {
		const rgroup *g = &W->gs[q];
		int64_t c[2], p[2];
		for (int e = 0; e < g->nd; e++) {
			c[e] = bc[g->dim[e]];
			p[e] = bp ? bp[g->dim[e]] : 0;
		}
		int rc = group_stat_memo(W->P, W->hid * 32 + q, g, W->k, W->C, c, bp ? p : NULL, &sf[q]);
		if (rc)
			return rc;
		keep[q] = *sf[q];
		sf[q] = &keep[q];
		if (W->t == 2 && bp) {
			if ((rc = group_stat_memo(W->P, W->hid * 32 + q, g, W->k, W->C, p, c, &sd[q])))
				return rc;
			keepd[q] = *sd[q];
			sd[q] = &keepd[q];
		}
	}
	add_step(W->ng, W->k, sf, &out->Fc, out->Mw, out->Uw);
	if (W->t == 2 && bp)
		add_step(W->ng, W->k, sd, &out->Dfc, out->Dw, NULL);
	return 0;
}

/* The drains of the tiles at bp when nothing follows (the end). */
static int drain_only(walk_t *W, const int64_t *bp, racc *out)
{
	const trim__rag_stat *sd[MAXG + MAXAX];
	trim__rag_stat keepd[MAXG + MAXAX];
	for (int q = 0; q < W->ng; q++) {
		const rgroup *g = &W->gs[q];
		int64_t p[2];
		for (int e = 0; e < g->nd; e++)
			p[e] = bp[g->dim[e]];
		int rc = group_stat_memo(W->P, W->hid * 32 + q, g, W->k, W->C, p, NULL, &sd[q]);
		if (rc)
			return rc;
		keepd[q] = *sd[q];
		sd[q] = &keepd[q];
	}
	add_step(W->ng, W->k, sd, &out->Dfc, out->Dw, NULL);
	return 0;
}

/* Where the last executed step of loops z.. starts, from their origin at
 * distances r to the bounds: each loop at its last iteration that fits. */
static void last_offsets(const walk_t *W, int z, const int64_t *r, int64_t *off)
{
	int64_t rem[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++) {
		rem[d] = r[d];
		off[d] = 0;
	}
	for (int i = z; i < W->n; i++) {
		const int d = W->ld[i];
		int64_t last = (rem[d] - 1) / W->ls[i];
		if (last > W->lb[i] - 1)
			last = W->lb[i] - 1;
		off[d] += last * W->ls[i];
		rem[d] -= last * W->ls[i];
	}
}

/* The totals of every advance of the loops z.. (not the step they start
 * from) with their origin at distances r (capped at cap[z]) to the bounds:
 * per iteration i of loop z the advances inside it (the same for every
 * origin with the same distances, memoised), and between iterations i - 1
 * and i the advance of loop z itself. Tiles start, relative to the
 * origin, where only the distances matter (group_stat_memo's keys). */
static int sub_sum(walk_t *W, int z, const int64_t *r, racc *out)
{
	memset(out, 0, sizeof *out);
	if (z == W->n)
		return 0;
	/* memo */
	uint64_t h = 1469598103934665603ull ^ (uint64_t)z;
	for (int d = 0; d < TRIM_NDIMS; d++)
		h = (h ^ (uint64_t)r[d]) * 1099511628211ull;
	if (2 * (W->mn + 1) > W->mcap) {
		size_t nc = W->mcap ? 2 * W->mcap : 64;
		smemo *t = calloc(nc, sizeof *t);
		if (!t)
			return trim__error(TRIM_ENOMEM, "activity: out of memory");
		for (size_t i = 0; i < W->mcap; i++)
			if (W->memo[i].used) {
				uint64_t g = 1469598103934665603ull ^ (uint64_t)W->memo[i].z;
				for (int d = 0; d < TRIM_NDIMS; d++)
					g = (g ^ (uint64_t)W->memo[i].r[d]) * 1099511628211ull;
				size_t s = (size_t)g & (nc - 1);
				while (t[s].used)
					s = (s + 1) & (nc - 1);
				t[s] = W->memo[i];
			}
		free(W->memo);
		W->memo = t;
		W->mcap = nc;
	}
	size_t s = (size_t)h & (W->mcap - 1);
	while (W->memo[s].used) {
		if (W->memo[s].z == z && !memcmp(W->memo[s].r, r, sizeof W->memo[s].r)) {
			*out = W->memo[s].acc;
			return 0;
		}
		s = (s + 1) & (W->mcap - 1);
	}
	const int dz = W->ld[z];
	const int64_t sz = W->ls[z];
	int64_t org[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++)
		org[d] = W->P->D[d] - r[d];
	int64_t prev_r[TRIM_NDIMS];
	for (int64_t i = 0; i < W->lb[z] && i * sz < r[dz]; i++) {
		int64_t ri[TRIM_NDIMS];
		for (int d = 0; d < TRIM_NDIMS; d++) {
			int64_t v = d == dz ? r[d] - i * sz : r[d];
			ri[d] = v < W->cap[z + 1][d] ? v : W->cap[z + 1][d];
		}
		if (i > 0) { /* loop z advances: from the last step of iteration i - 1 */
			int64_t bp[TRIM_NDIMS], bc[TRIM_NDIMS];
			last_offsets(W, z + 1, prev_r, bp);
			for (int d = 0; d < TRIM_NDIMS; d++) {
				bp[d] += org[d] + (d == dz ? (i - 1) * sz : 0);
				bc[d] = org[d] + (d == dz ? i * sz : 0);
			}
			int rc = transition(W, bc, bp, out);
			if (rc)
				return rc;
		}
		racc in;
		int rc = sub_sum(W, z + 1, ri, &in);
		if (rc)
			return rc;
		acc_add(out, &in, W->k);
		memcpy(prev_r, ri, sizeof prev_r);
	}
	/* the table may have grown below: find the slot again */
	s = (size_t)h & (W->mcap - 1);
	while (W->memo[s].used)
		s = (s + 1) & (W->mcap - 1);
	W->memo[s].used = 1;
	W->memo[s].z = z;
	memcpy(W->memo[s].r, r, sizeof W->memo[s].r);
	W->memo[s].acc = *out;
	W->mn++;
	return 0;
}

int trim__act_ragged_hop(trim__act_ws *ws, const trim__mapping *m, int t, int i, int64_t *Fc,
                         int64_t *Mw, int64_t *Uw, int64_t *Dw)
{
	struct trim__act_prep *P = ws->prep;
	if (!P->rag) {
		P->rag = calloc(1, sizeof *P->rag);
		if (!P->rag)
			return trim__error(TRIM_ENOMEM, "activity: out of memory");
	}
	struct trim__act_rag *R = P->rag;
	if (R->pgen != P->gen) { /* a new preparation: every entry free (calloc'd entries have gen 0) */
		R->pgen = P->gen;
		R->n = 0;
		R->gen++;
	}
	const tprep_t *tp = &P->t[t];
	const hop_t *h = &tp->hop[i];
	const int k = h->k, C = h->C, hid = t * (TRIM__MAX_LEVELS + 1) + i; /* the hop in the memo's keys */
	rgroup gs[MAXG + MAXAX];
	const int ng = groups_of(P, tp, h, gs);
	*Fc = 0;
	for (int j = 0; j < k; j++)
		Mw[j] = Uw[j] = Dw[j] = 0;
	if (P->lb) {
		/* a lower bound for every order: every element the MACs touch
		 * enters the child and reaches an instance of each S_j at least
		 * once (and, a result, goes up once); a MAC takes one word (the
		 * MAC hop's deliveries are its MACs, exactly) */
		const int64_t T = P->tile[0][t];
		*Fc = h->cmac ? P->macs : T;
		for (int j = 0; j < k; j++)
			Mw[j] = Dw[j] = T;
		Mw[k] = Dw[k] = *Fc;
		/* and per instance of each S_j and of the child (ragged_lower.c) */
		return trim__act_ragged_lower(ws, t, i, Fc, Mw, Dw);
	}
	if (h->cmac) {
		int rc = mac_hop(P, m, gs, ng, k, C, hid, Fc, Mw, Uw);
		memcpy(Dw, Mw, (size_t)k * sizeof *Dw);
		Mw[k] = Dw[k] = *Fc;
		return rc;
	}
	/* the temporal loops above C with bounds > 1, outermost first */
	walk_t W;
	memset(&W, 0, sizeof W);
	W.P = P;
	W.gs = gs;
	W.ng = ng;
	W.k = k;
	W.C = C;
	W.hid = hid;
	W.t = t;
	for (int l = 0; l < C; l++)
		if (P->type[l] == TRIM__LVL_STORAGE)
			for (int z = 0; z < TRIM_NDIMS; z++) {
				int d = m->order[l][z];
				if (m->f[l][d] > 1) {
					W.ld[W.n] = d;
					W.lb[W.n] = m->f[l][d];
					W.ls[W.n++] = P->ext[l + 1][d];
				}
			}
	/* cap[z][d]: beyond this distance to the bound, the loops z.. and the
	 * leaves never reach it along d */
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t w = P->ext[C][d];
		for (int l = 0; l < C; l++)
			if (P->type[l] == TRIM__LVL_SPATIAL && P->lprod[l] > 1)
				w += (P->f[l][d] - 1) * P->ext[l + 1][d];
		W.cap[W.n][d] = w;
		for (int z = W.n - 1; z >= 0; z--)
			W.cap[z][d] = W.cap[z + 1][d] + (W.ld[z] == d ? (W.lb[z] - 1) * W.ls[z] : 0);
	}
	/* the first step, every advance (sub_sum), the last tiles' drains */
	int64_t r0[TRIM_NDIMS], zero[TRIM_NDIMS] = {0}, last[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++)
		r0[d] = P->D[d] < W.cap[0][d] ? P->D[d] : W.cap[0][d];
	racc tot;
	memset(&tot, 0, sizeof tot);
	int rc = transition(&W, zero, NULL, &tot);
	racc inner;
	if (!rc)
		rc = sub_sum(&W, 0, r0, &inner);
	if (rc)
		goto out;
	acc_add(&tot, &inner, k);
	if (t == 2) {
		/* origin 0 is D - r0 for the capped dims: only distances matter */
		int64_t org[TRIM_NDIMS];
		for (int d = 0; d < TRIM_NDIMS; d++)
			org[d] = P->D[d] - r0[d];
		last_offsets(&W, 0, r0, last);
		for (int d = 0; d < TRIM_NDIMS; d++)
			last[d] += org[d];
		rc = drain_only(&W, last, &tot);
		if (rc)
			goto out;
	}
	*Fc = tot.Fc;
	memcpy(Mw, tot.Mw, (size_t)k * sizeof *Mw);
	memcpy(Uw, tot.Uw, (size_t)k * sizeof *Uw);
	memcpy(Dw, tot.Dw, (size_t)k * sizeof *Dw);
	Mw[k] = *Fc;
	Dw[k] = tot.Dfc;
out:
	free(W.memo);
	return rc;
}
