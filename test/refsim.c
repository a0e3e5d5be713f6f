/*
 * Reference simulator: a slow, obviously correct walker over every
 * iteration of a mapped loop nest (docs/model.md, "Mapping and activity
 * model"; an imperfect factorisation: the padded nest, its points beyond a
 * bound skipped, and a temporal step with no point within the bounds not
 * executed; a flattened group: one loop index, its dims its digits,
 * lib/mapping/flat.c). It shares no counting code with lib/activity/: tiles are
 * explicit sets of tensor elements per level instance, recomputed from the
 * loop indices, and every transfer is counted as it happens.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refsim.h"

#define MAXLOOPS (TRIM__MAX_LEVELS * TRIM_NDIMS)
#define MAXSP TRIM__MAX_LEVELS

typedef struct {
	int level, dim, spatial;
	int64_t b, stride;
} sloop;

typedef struct {
	const trim__intra *w;
	const struct trim_arch *a;
	const trim__mapping *m;
	trim__activity *o;
	const int *home; /* per tensor: the outermost level holding it */
	int nL, MAC, n;
	sloop lp[MAXLOOPS];
	int64_t cur[MAXLOOPS];
	int64_t ninst[TRIM__MAX_LEVELS + 1];
	int64_t elems[3];
	int chain[3][TRIM__MAX_LEVELS + 1], nk[3];
	/* per hop i (child chain[i]): its spatial levels with bounds > 1, outer
	 * to inner (k of them) */
	int sp[3][TRIM__MAX_LEVELS + 1][MAXSP], k[3][TRIM__MAX_LEVELS + 1];
	unsigned char *tile[3][TRIM__MAX_LEVELS];  /* current contents, ninst * elems */
	unsigned char *ntile[3][TRIM__MAX_LEVELS]; /* next contents */
	unsigned char *flag[TRIM__MAX_LEVELS];     /* result: element holds a nonzero partial sum */
	int64_t *cnt;                              /* per (parent instance, element) */
	int64_t *lead;
	size_t cntcap;
	/* the delivery tree of one hop: per depth d (instances of sp[d], d = k:
	 * of the child), per (node, element): needed below (mark), children
	 * needing it (nch), words that must enter the node (need) */
	int64_t *mark[MAXSP + 1], *nch[MAXSP + 1], *need[MAXSP + 1];
	size_t treecap;
	/* Timeloop's counting of operands (docs/mapping.md, rules 1, 4, 5) */
	int tl;
	int adv; /* the temporal loop (index into lp) that advanced to this step; -1 at the first */
} sim;

/* dv: the loops' positions per dim, a flattened group's one index at its
 * head (lib/mapping/flat.c); the workload's dims are its digits. */
static int64_t elem_of(const sim *s, int t, const int64_t *cv)
{
	int64_t dv[TRIM_NDIMS];
	trim__flat_expand(s->m, s->w, cv, dv);
	const trim__tensor *T = &s->w->t[t];
	int64_t lin = 0;
	for (int a = 0; a < T->ndims; a++) {
		int64_t v = 0;
		for (int k = 0; k < T->idx[a].nterms; k++)
			v += T->idx[a].coef[k] * dv[T->idx[a].dim[k]];
		if (v < 0 || v >= T->extent[a]) {
			fprintf(stderr, "refsim: tensor %d axis %d value %lld extent %lld\n", t, a, (long long)v, (long long)T->extent[a]);
			return -1;
		}
		lin = lin * T->extent[a] + v;
	}
	return lin;
}

/* An imperfect factorisation pads the nest: its points beyond a workload
 * bound are not executed (no MAC, no element touched). */
static int in_range(const sim *s, const int64_t *dv)
{
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (dv[d] >= trim__flat_bound(s->m, s->w, d))
			return 0;
	return 1;
}

static int is_zero(const sim *s, int t, const int64_t *cv)
{
	int64_t dv[TRIM_NDIMS];
	trim__flat_expand(s->m, s->w, cv, dv);
	const trim__tensor *T = &s->w->t[t];
	if (!T->present || !T->has_zeros)
		return 0;
	for (int a = 0; a < 2; a++) {
		const trim__iexpr *e = &T->idx[T->ndims - 2 + a];
		int64_t p = 0;
		for (int k = 0; k < e->nterms; k++)
			p += e->coef[k] * dv[e->dim[k]];
		const trim__zaxis *z = &T->zaxis[a];
		if (!(p >= z->lo && p <= z->hi && (p - z->lo) % z->step == 0))
			return 1;
	}
	return 0;
}

static void dimvals(const sim *s, const int64_t *idx, int64_t *dv)
{
	for (int d = 0; d < TRIM_NDIMS; d++)
		dv[d] = 0;
	for (int j = 0; j < s->n; j++)
		dv[s->lp[j].dim] += idx[j] * s->lp[j].stride;
}

/* Set the spatial loops at levels < l from instance id `inst` (outer loops
 * are the most significant digits). */
static void set_instance(const sim *s, int l, int64_t inst, int64_t *idx)
{
	for (int j = s->n - 1; j >= 0; j--)
		if (s->lp[j].spatial && s->lp[j].level < l) {
			idx[j] = inst % s->lp[j].b;
			inst /= s->lp[j].b;
		}
}

/* Contents of instance `inst` of level C at the current step: every
 * element touched by the loops at C and below. */
static int fill_tile(const sim *s, int t, int C, int64_t inst, unsigned char *set)
{
	int64_t idx[MAXLOOPS], dv[TRIM_NDIMS];
	memcpy(idx, s->cur, sizeof idx);
	set_instance(s, C, inst, idx);
	int free_[MAXLOOPS], nf = 0;
	for (int j = 0; j < s->n; j++)
		if (s->lp[j].level >= C) {
			free_[nf++] = j;
			idx[j] = 0;
		}
	memset(set, 0, (size_t)s->elems[t]);
	for (;;) {
		dimvals(s, idx, dv);
		if (in_range(s, dv)) {
			int64_t x = elem_of(s, t, dv);
			if (x < 0)
				return trim__error(TRIM_ESHAPE, "refsim: tensor %d index out of its extent", t);
			set[x] = 1;
		}
		int k = nf - 1;
		while (k >= 0 && ++idx[free_[k]] == s->lp[free_[k]].b)
			idx[free_[k--]] = 0;
		if (k < 0)
			break;
	}
	return 0;
}

static int mc(const sim *s, int S) { return s->a->lv[S].multicast; }
static int red(const sim *s, int S) { return s->a->lv[S].reduction; }

/* The leaf marks of hop i of tensor t: zero s->mark[k] (the child's
 * instances x elements) for the caller to set. */
static int64_t *tree_begin(sim *s, int t, int i)
{
	int C = s->chain[t][i];
	int k = s->k[t][i];
	size_t n = (size_t)(s->ninst[C] * s->elems[t]);
	if (s->treecap < n) {
		for (int d = 0; d <= MAXSP; d++) {
			free(s->mark[d]);
			free(s->nch[d]);
			free(s->need[d]);
			s->mark[d] = calloc(n, sizeof *s->mark[d]);
			s->nch[d] = calloc(n, sizeof *s->nch[d]);
			s->need[d] = calloc(n, sizeof *s->need[d]);
			if (!s->mark[d] || !s->nch[d] || !s->need[d]) {
				s->treecap = 0;
				return NULL;
			}
		}
		s->treecap = n;
	}
	memset(s->mark[k], 0, n * sizeof *s->mark[k]);
	return s->mark[k];
}

/* Walk the tree of hop i of tensor t from its marked leaves up: a node of
 * depth d < k is marked if one of its children is; a word entering a node
 * is replicated (dir 0: multicast; dir 1: added up, reduction) only if its
 * level and every level below it on the hop do so, else every word its
 * children need (send) enters it on its own. Counts the words on every
 * spatial level between the holders, down (dir 0) or up (dir 1); returns
 * the words at the parent (read from it, dir 0; written into it, dir 1). */
static int64_t tree_walk(sim *s, int t, int i, int dir)
{
	trim__activity *o = s->o;
	const int B = s->chain[t][i - 1], C = s->chain[t][i], k = s->k[t][i];
	const int64_t E = s->elems[t];
	int lev[MAXSP + 1];
	for (int d = 0; d < k; d++)
		lev[d] = s->sp[t][i][d];
	lev[k] = C;
	for (int d = k - 1; d >= 0; d--) {
		size_t n = (size_t)(s->ninst[lev[d]] * E);
		memset(s->mark[d], 0, n * sizeof *s->mark[d]);
		memset(s->nch[d], 0, n * sizeof *s->nch[d]);
		int64_t per = s->ninst[lev[d + 1]] / s->ninst[lev[d]];
		for (int64_t c = 0; c < s->ninst[lev[d + 1]]; c++)
			for (int64_t x = 0; x < E; x++)
				if (s->mark[d + 1][c * E + x]) {
					s->mark[d][(c / per) * E + x] = 1;
					s->nch[d][(c / per) * E + x]++;
				}
	}
	/* words entering each node, leaves first */
	int repl = 1; /* every level below replicates */
	memcpy(s->need[k], s->mark[k], (size_t)(s->ninst[C] * E) * sizeof *s->need[k]);
	int64_t tot[MAXSP + 1], deliv[MAXSP], uni[MAXSP], multi[MAXSP], mdest[MAXSP];
	tot[k] = 0;
	for (int64_t q = 0; q < s->ninst[C] * E; q++)
		tot[k] += s->need[k][q];
	for (int d = k - 1; d >= 0; d--) {
		int S = lev[d];
		repl = repl && (dir ? red(s, S) : mc(s, S));
		int64_t per = s->ninst[lev[d + 1]] / s->ninst[S];
		size_t n = (size_t)(s->ninst[S] * E);
		memset(s->need[d], 0, n * sizeof *s->need[d]);
		deliv[d] = uni[d] = multi[d] = mdest[d] = 0;
		for (int64_t c = 0; c < s->ninst[lev[d + 1]]; c++)
			for (int64_t x = 0; x < E; x++) {
				int64_t w = s->need[d + 1][c * E + x];
				deliv[d] += w;
				if (!repl)
					s->need[d][(c / per) * E + x] += w;
			}
		tot[d] = 0;
		for (size_t q = 0; q < n; q++) {
			if (repl && s->mark[d][q]) {
				s->need[d][q] = 1;
				if (s->nch[d][q] == 1)
					uni[d]++;
				else {
					multi[d]++;
					mdest[d] += s->nch[d][q];
				}
			}
			tot[d] += s->need[d][q];
		}
		if (!repl) {
			uni[d] = deliv[d];
			multi[d] = mdest[d] = 0;
		}
	}
	/* the spatial levels between the holders */
	for (int l = B + 1, d = 0; l < C; l++) {
		if (s->m->type[l] != TRIM__LVL_SPATIAL)
			continue;
		if (d < k && lev[d] == l) {
			if (!dir) {
				o->down_words[l][t] += tot[d];
				o->down_dests[l][t] += deliv[d];
				o->unicast[l][t] += uni[d];
				o->mcast[l][t] += multi[d];
				o->mcast_dests[l][t] += mdest[d];
			} else {
				o->up_words[l][t] += deliv[d];
				o->up_out[l][t] += tot[d];
				o->reductions[l][t] += deliv[d] - tot[d];
			}
			d++;
		} else if (!dir) { /* bounds 1: what passes at its depth */
			o->down_words[l][t] += tot[d];
			o->down_dests[l][t] += tot[d];
			o->unicast[l][t] += tot[d];
		} else {
			o->up_words[l][t] += tot[d];
			o->up_out[l][t] += tot[d];
		}
	}
	return tot[0];
}

/* Timeloop's rules 1 and 5 (tl): the words entering a node are those of
 * its children with distinct marks (identical tiles share, nothing else),
 * where its level and every one below it on the hop multicast; elsewhere
 * every child's own. Same counts as tree_walk's downwards otherwise. */
static int64_t tree_walk_tl(sim *s, int t, int i)
{
	trim__activity *o = s->o;
	const int B = s->chain[t][i - 1], C = s->chain[t][i], k = s->k[t][i];
	const int64_t E = s->elems[t];
	int lev[MAXSP + 1];
	for (int d = 0; d < k; d++)
		lev[d] = s->sp[t][i][d];
	lev[k] = C;
	/* marks per depth: the union below each node */
	for (int d = k - 1; d >= 0; d--) {
		size_t n = (size_t)(s->ninst[lev[d]] * E);
		memset(s->mark[d], 0, n * sizeof *s->mark[d]);
		int64_t per = s->ninst[lev[d + 1]] / s->ninst[lev[d]];
		for (int64_t c = 0; c < s->ninst[lev[d + 1]]; c++)
			for (int64_t x = 0; x < E; x++)
				if (s->mark[d + 1][c * E + x])
					s->mark[d][(c / per) * E + x] = 1;
	}
	/* need[d][node]: the words entering the node */
	int64_t tot[MAXSP + 1], deliv[MAXSP], uni[MAXSP], multi[MAXSP], mdest[MAXSP];
	tot[k] = 0;
	for (int64_t c = 0; c < s->ninst[C]; c++) {
		s->need[k][c] = 0;
		for (int64_t x = 0; x < E; x++)
			s->need[k][c] += s->mark[k][c * E + x];
		tot[k] += s->need[k][c];
	}
	int share = 1; /* every level below multicasts */
	for (int d = k - 1; d >= 0; d--) {
		share = share && mc(s, lev[d]);
		int64_t per = s->ninst[lev[d + 1]] / s->ninst[lev[d]];
		tot[d] = deliv[d] = uni[d] = multi[d] = mdest[d] = 0;
		for (int64_t nd = 0; nd < s->ninst[lev[d]]; nd++) {
			int64_t R = 0;
			for (int64_t c = nd * per; c < (nd + 1) * per; c++) {
				const int64_t Rc = s->need[d + 1][c];
				deliv[d] += Rc;
				int64_t size = 1, seen = 0;
				for (int64_t c2 = nd * per; share && c2 < (nd + 1) * per; c2++) {
					if (c2 == c)
						continue;
					if (memcmp(s->mark[d + 1] + c2 * E, s->mark[d + 1] + c * E, (size_t)E * sizeof *s->mark[d + 1]))
						continue;
					size++;
					seen |= c2 < c;
				}
				if (seen)
					continue; /* not the first of its class */
				R += Rc;
				if (size == 1)
					uni[d] += Rc;
				else {
					multi[d] += Rc;
					mdest[d] += size * Rc;
				}
			}
			s->need[d][nd] = R;
			tot[d] += R;
		}
	}
	for (int l = B + 1, d = 0; l < C; l++) {
		if (s->m->type[l] != TRIM__LVL_SPATIAL)
			continue;
		if (d < k && lev[d] == l) {
			o->down_words[l][t] += tot[d];
			o->down_dests[l][t] += deliv[d];
			o->unicast[l][t] += uni[d];
			o->mcast[l][t] += multi[d];
			o->mcast_dests[l][t] += mdest[d];
			d++;
		} else { /* bounds 1: what passes at its depth */
			o->down_words[l][t] += tot[d];
			o->down_dests[l][t] += tot[d];
			o->unicast[l][t] += tot[d];
		}
	}
	return tot[0];
}

/* The operand elements the marked children of hop i need. */
static void down(sim *s, int t, int i)
{
	s->o->reads[s->chain[t][i - 1]][t] += s->tl ? tree_walk_tl(s, t, i) : tree_walk(s, t, i, 0);
}

/* One partial sum read back from B to one child. */
static void readback(sim *s, int B, int C)
{
	trim__activity *o = s->o;
	o->reads[B][2] += 1;
	if (C != s->MAC)
		o->fills[C][2] += 1;
	for (int l = B + 1; l < C; l++)
		if (s->m->type[l] == TRIM__LVL_SPATIAL) {
			o->down_words[l][2] += 1;
			o->down_dests[l][2] += 1;
			o->unicast[l][2] += 1;
		}
}

/* The result elements the marked children of hop i write back. */
static void up(sim *s, int i)
{
	s->o->updates[s->chain[2][i - 1]][2] += tree_walk(s, 2, i, 1);
}

static int64_t *cnt_get(sim *s, size_t n)
{
	if (s->cntcap < n) {
		free(s->cnt);
		free(s->lead);
		s->cnt = calloc(n, sizeof *s->cnt);
		s->lead = calloc(n, sizeof *s->lead);
		s->cntcap = s->cnt && s->lead ? n : 0;
		if (!s->cntcap)
			return NULL;
	}
	memset(s->cnt, 0, n * sizeof *s->cnt);
	return s->cnt;
}

/* Drains (results only), inner to outer, of the levels whose loops above
 * changed (all levels at the end: final = 1). */
static int drains(sim *s, int Lc, int final)
{
	const int t = 2;
	if (!s->w->t[t].present)
		return 0;
	for (int i = s->nk[t] - 1; i >= 1; i--) {
		int C = s->chain[t][i], B = s->chain[t][i - 1];
		if (!final && Lc >= C)
			continue;
		int64_t E = s->elems[t], per = s->ninst[C] / s->ninst[B];
		int64_t *mk = tree_begin(s, t, i);
		if (!mk)
			return TRIM_ENOMEM;
		for (int64_t in = 0; in < s->ninst[C]; in++) {
			unsigned char *old = s->tile[t][C] + in * E, *nw = s->ntile[t][C] + in * E;
			unsigned char *fl = s->flag[C] + in * E;
			for (int64_t x = 0; x < E; x++)
				if (old[x] && (final || !nw[x])) {
					if (!fl[x])
						return trim__error(TRIM_EINVAL, "refsim: drain of an element without a partial sum");
					fl[x] = 0;
					s->o->drains[C][t]++;
					mk[in * E + x] = 1;
					s->flag[B][(in / per) * E + x] = 1;
				}
		}
		up(s, i);
	}
	return 0;
}

/* Fills, outer to inner. */
static int fills(sim *s, int Lc, int first)
{
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		for (int i = 1; i < s->nk[t]; i++) {
			int C = s->chain[t][i], B = s->chain[t][i - 1];
			if (!first && Lc >= C)
				continue;
			int64_t E = s->elems[t], per = s->ninst[C] / s->ninst[B];
			int64_t *cnt = cnt_get(s, (size_t)(s->ninst[B] * E));
			int64_t *mk = tree_begin(s, t, i);
			if (!cnt || !mk)
				return TRIM_ENOMEM;
			/* Timeloop's rule 4: an operand's tile that moves on a step of
			 * any loop but the innermost (bound > 1) above C refills whole */
			int whole = 0;
			if (s->tl && t < 2 && !first) {
				int inner = -1;
				for (int j = s->n - 1; j >= 0 && inner < 0; j--)
					if (!s->lp[j].spatial && s->lp[j].level < C && s->lp[j].b > 1)
						inner = j;
				whole = s->adv != inner;
			}
			for (int64_t in = 0; in < s->ninst[C]; in++) {
				unsigned char *old = s->tile[t][C] + in * E, *nw = s->ntile[t][C] + in * E;
				const int moved = whole && memcmp(old, nw, (size_t)E) != 0;
				for (int64_t x = 0; x < E; x++)
					if (nw[x] && (!old[x] || moved)) {
						int64_t k = (in / per) * E + x;
						if (!cnt[k]++)
							s->lead[k] = in;
						mk[in * E + x] = 1;
						if (t < 2)
							s->o->fills[C][t]++;
					}
			}
			if (t < 2)
				down(s, t, i);
			for (int64_t k = 0; t == 2 && k < s->ninst[B] * E; k++) {
				if (!cnt[k])
					continue;
				if (s->flag[B][k]) {
					readback(s, B, C);
					s->flag[B][k] = 0;
					s->flag[C][s->lead[k] * E + k % E] = 1;
				}
			}
			memcpy(s->tile[t][C], s->ntile[t][C], (size_t)(s->ninst[C] * E));
		}
	}
	return 0;
}

/* Every PE does one MAC at the current step. */
static int macs(sim *s)
{
	int64_t idx[MAXLOOPS], dv[TRIM_NDIMS];
	int64_t npe = s->ninst[s->MAC];
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		int i = s->nk[t], K = s->chain[t][i - 1];
		int64_t E = s->elems[t], per = npe / s->ninst[K];
		int64_t *cnt = cnt_get(s, (size_t)(s->ninst[K] * E));
		int64_t *mk = tree_begin(s, t, i);
		if (!cnt || !mk)
			return TRIM_ENOMEM;
		for (int64_t pe = 0; pe < npe; pe++) {
			memcpy(idx, s->cur, sizeof idx);
			set_instance(s, s->MAC, pe, idx);
			dimvals(s, idx, dv);
			if (!in_range(s, dv))
				continue; /* idle on a ragged tile */
			int64_t x = elem_of(s, t, dv);
			if (x < 0)
				return trim__error(TRIM_ESHAPE, "refsim: tensor %d index out of its extent", t);
			cnt[(pe / per) * E + x]++;
			mk[pe * E + x] = 1;
			if (t == 0) {
				s->o->macs++;
				if (is_zero(s, 0, dv) || is_zero(s, 1, dv))
					s->o->zero_macs++;
			}
		}
		if (t < 2) {
			down(s, t, i);
			continue;
		}
		for (int64_t k = 0; k < s->ninst[K] * E; k++)
			if (cnt[k] && s->flag[K][k]) {
				readback(s, K, s->MAC);
				s->flag[K][k] = 0;
			}
		up(s, i);
		for (int64_t k = 0; k < s->ninst[K] * E; k++)
			if (cnt[k])
				s->flag[K][k] = 1;
	}
	return 0;
}

static int recompute(sim *s, int Lc, int first)
{
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		for (int i = 1; i < s->nk[t]; i++) {
			int C = s->chain[t][i];
			if (!first && Lc >= C)
				continue;
			for (int64_t in = 0; in < s->ninst[C]; in++) {
				int rc = fill_tile(s, t, C, in, s->ntile[t][C] + in * s->elems[t]);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

int refsim_run(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
               trim__activity *out)
{
	static const int dram[3] = {0, 0, 0};
	return refsim_run_home(w, a, m, dram, out);
}

static int run(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m, const int *home,
               int count, trim__activity *out);

int refsim_run_home(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                    const int *home, trim__activity *out)
{
	return run(w, a, m, home, TRIM_COUNT_LIBTRIM, out);
}

int refsim_run_count(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m, int count,
                     trim__activity *out)
{
	static const int dram[3] = {0, 0, 0};
	return run(w, a, m, dram, count, out);
}

static int run(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m, const int *home,
               int count, trim__activity *out)
{
	sim s;
	int rc = 0;
	memset(&s, 0, sizeof s);
	memset(out, 0, sizeof *out);
	s.tl = count == TRIM_COUNT_TIMELOOP;
	s.adv = -1;
	s.home = home;
	s.w = w;
	s.a = a;
	s.m = m;
	s.o = out;
	s.nL = m->nlevels;
	s.MAC = s.nL - 1;
	/* the loop nest, outermost first */
	for (int l = 0; l < s.nL; l++) {
		if (m->type[l] == TRIM__LVL_COMPUTE)
			continue;
		for (int k = 0; k < TRIM_NDIMS; k++) {
			int d = m->type[l] == TRIM__LVL_STORAGE ? m->order[l][k] : k;
			s.lp[s.n++] = (sloop){l, d, m->type[l] == TRIM__LVL_SPATIAL, m->f[l][d], 1};
		}
	}
	for (int j = 0; j < s.n; j++)
		for (int k = j + 1; k < s.n; k++)
			if (s.lp[k].dim == s.lp[j].dim)
				s.lp[j].stride *= s.lp[k].b;
	for (int l = 0; l <= s.nL; l++) {
		s.ninst[l] = 1;
		for (int j = 0; j < s.n; j++)
			if (s.lp[j].spatial && s.lp[j].level < l)
				s.ninst[l] *= s.lp[j].b;
		if (l < s.nL)
			out->instances[l] = s.ninst[l];
	}
	s.ninst[s.MAC] = s.ninst[s.nL];
	out->active_pes = s.ninst[s.MAC];
	for (int t = 0; t < 3; t++) {
		s.elems[t] = 1;
		if (!w->t[t].present)
			continue;
		for (int k = 0; k < w->t[t].ndims; k++)
			s.elems[t] *= w->t[t].extent[k];
		for (int l = home[t]; l < s.nL; l++)
			if (m->type[l] == TRIM__LVL_STORAGE && m->keep[l][t])
				s.chain[t][s.nk[t]++] = l;
		if (!s.nk[t] || s.chain[t][0] != home[t]) {
			rc = trim__error(TRIM_EINVAL, "refsim: level %d (its home) must hold tensor %d", home[t], t);
			goto out;
		}
		/* a home below the outermost level holds the whole tensor: no loops above it */
		for (int l = 0; l < home[t]; l++)
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (m->f[l][d] > 1) {
					rc = trim__error(TRIM_EINVAL, "refsim: tensor %d's home %d has loops above it", t, home[t]);
					goto out;
				}
		s.chain[t][s.nk[t]] = s.MAC;
		for (int i = 1; i <= s.nk[t]; i++) {
			int B = s.chain[t][i - 1], C = s.chain[t][i];
			s.k[t][i] = 0;
			for (int l = B + 1; l < C; l++) {
				int64_t p = 1;
				for (int d = 0; d < TRIM_NDIMS; d++)
					p *= m->f[l][d];
				if (m->type[l] == TRIM__LVL_SPATIAL && p > 1)
					s.sp[t][i][s.k[t][i]++] = l;
			}
		}
		for (int i = 0; i < s.nk[t]; i++) {
			int l = s.chain[t][i];
			size_t n = (size_t)(s.ninst[l] * s.elems[t]);
			s.tile[t][l] = calloc(n, 1);
			s.ntile[t][l] = calloc(n, 1);
			if (!s.tile[t][l] || !s.ntile[t][l]) {
				rc = TRIM_ENOMEM;
				goto out;
			}
			if (t == 2) {
				s.flag[l] = calloc(n, 1);
				if (!s.flag[l]) {
					rc = TRIM_ENOMEM;
					goto out;
				}
			}
		}
	}
	/* tile sizes: instance 0 at the first step */
	for (int t = 0; t < 3; t++) {
		if (!w->t[t].present)
			continue;
		for (int i = 0; i < s.nk[t]; i++) {
			int l = s.chain[t][i];
			if ((rc = fill_tile(&s, t, l, 0, s.ntile[t][l])))
				goto out;
			for (int64_t x = 0; x < s.elems[t]; x++)
				out->tile[l][t] += s.ntile[t][l][x];
			/* its home (the outermost level, unless fused) holds the whole
			 * tensor from the start */
			if (i == 0)
				memcpy(s.tile[t][l], s.ntile[t][l], (size_t)s.elems[t]);
		}
	}
	/* walk every temporal iteration */
	int tl[MAXLOOPS], ntl = 0;
	for (int j = 0; j < s.n; j++)
		if (!s.lp[j].spatial)
			tl[ntl++] = j;
	int Lc = -1, first = 1;
	for (;;) {
		out->steps++;
		if ((rc = recompute(&s, Lc, first)) || (rc = (first ? 0 : drains(&s, Lc, 0))) ||
		    (rc = fills(&s, Lc, first)) || (rc = macs(&s)))
			goto out;
		first = 0;
		/* the next step with work: one whose first point is within the
		 * bounds; Lc: the outermost level whose loops changed */
		int k;
		Lc = s.nL;
		for (;;) {
			k = ntl - 1;
			while (k >= 0 && ++s.cur[tl[k]] == s.lp[tl[k]].b)
				s.cur[tl[k--]] = 0;
			if (k < 0)
				break;
			s.adv = tl[k];
			if (s.lp[tl[k]].level < Lc)
				Lc = s.lp[tl[k]].level;
			int64_t dv[TRIM_NDIMS];
			dimvals(&s, s.cur, dv);
			if (in_range(&s, dv))
				break;
		}
		if (k < 0)
			break;
	}
	rc = drains(&s, -1, 1);
out:
	for (int t = 0; t < 3; t++)
		for (int l = 0; l < TRIM__MAX_LEVELS; l++) {
			free(s.tile[t][l]);
			free(s.ntile[t][l]);
		}
	for (int l = 0; l < TRIM__MAX_LEVELS; l++)
		free(s.flag[l]);
	free(s.cnt);
	free(s.lead);
	for (int d = 0; d <= MAXSP; d++) {
		free(s.mark[d]);
		free(s.nch[d]);
		free(s.need[d]);
	}
	return rc;
}
