/*
 * The words of a tensor's tiles from its index expressions (docs/model.md,
 * "Bounds"): the values of an axis and the elements of a share at given
 * extents (lower bounds), the values a tile moved along a two-term axis
 * brings, the words the joint order's sliding windows bring at the known
 * levels, and those a first loop above an open level brings at each step
 * (the stationarity of a sliding window).
 */
#include "search_int.h"

/* A lower bound on the values of axis e over a share of the workload with
 * ext[d] values of each dim d: a one-term axis has ext values; a two-term
 * axis c0*d0 + c1*d1 has exactly trim__axis_distinct when both dims run
 * over a contiguous range (exact[d]), and otherwise at least ext0 + ext1 -
 * 1 (|A + B| >= |A| + |B| - 1 for sets of integers); others at least 1. */
int64_t trim__axis_lower_bound(const trim__iexpr *e, const int64_t *ext, const int *exact)
{
	int64_t v[2];
	int k = 0, ex = 1;
	for (int j = 0; j < e->nterms; j++)
		if (e->coef[j] != 0) {
			if (k < 2)
				v[k] = ext[e->dim[j]];
			k++;
			ex &= exact[e->dim[j]];
		}
	if (k == 1)
		return v[0];
	if (k == 2)
		return ex ? trim__axis_distinct(e->coef[0], ext[e->dim[0]], e->coef[1], ext[e->dim[1]]) : v[0] + v[1] - 1;
	return 1;
}

int trim__axis_one_to_one(const trim__intra *w, const trim__iexpr *e)
{
	if (e->nterms != 2 || e->coef[0] == 0 || e->coef[1] == 0 || e->dim[0] == e->dim[1])
		return 0;
	const int64_t c0 = e->coef[0] < 0 ? -e->coef[0] : e->coef[0], c1 = e->coef[1] < 0 ? -e->coef[1] : e->coef[1];
	return c0 > c1 * (w->bound[e->dim[1]] - 1) || c1 > c0 * (w->bound[e->dim[0]] - 1);
}

int trim__axis_terms(const trim__iexpr *e, int *dd, int64_t *cc)
{
	int nt = 0;
	for (int j = 0; j < e->nterms; j++)
		if (e->coef[j] != 0) {
			if (nt < 2)
				dd[nt] = e->dim[j], cc[nt] = e->coef[j] < 0 ? -e->coef[j] : e->coef[j];
			nt++;
		}
	return nt;
}

/* A lower bound on the elements of tensor t touched by a share of the
 * workload with ext[d] values of each dim d: the product of its axes'
 * (trim__axis_lower_bound), a one-to-one two-term axis taking ext0 x ext1
 * values (the share is a product of per-dim value sets, which the axis
 * maps one to one). */
int64_t trim__share_lower_bound(const trim__intra *w, int t, const int64_t *ext, const int *exact)
{
	const trim__tensor *T = &w->t[t];
	if (!T->present)
		return 0;
	int64_t n = 1;
	for (int a = 0; a < T->ndims; a++) {
		const trim__iexpr *e = &T->idx[a];
		n *= trim__axis_one_to_one(w, e) ? ext[e->dim[0]] * ext[e->dim[1]] : trim__axis_lower_bound(e, ext, exact);
	}
	return n;
}

/*
 * One instance's share of t at storage level l (every spatial level fixed):
 * per axis, trim__share_lower_bound's count, or more on a two-term axis
 * c0 d0 + c1 d1 whose dim d0 is split by a spatial level above l and d1 is
 * not. d0's values in the share then have the digits of the spatial levels
 * above l frozen: with s the innermost of those with a factor on d0, and
 * every level from DRAM down to s fixed, they are nb blocks of L
 * consecutive values (L = the product of d0's factors below s, nb =
 * pext / L), two blocks' starts at least G = L f[s][d0] apart. Each block
 * takes D = D(c0, L, c1, pext1) values over a range of span = c0 (L - 1) +
 * c1 (pext1 - 1) + 1, and at most max(0, span - c0 G) of a later block's
 * values lie in the earlier blocks' ranges, so the axis takes at least
 * D + (nb - 1) max(0, D - that). A 3 x 3 pool of stride 2 whose rows are
 * split 3 ways by simba-like's package network above its global buffer:
 * 3 blocks of 3 rows of outputs take 21 input rows, where |A| + |B| - 1
 * gives 11.
 */
int64_t trim__share_blocks(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int l)
{
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const trim__tensor *T = &w->t[t];
	if (!T->present)
		return 0;
	int64_t n = 1;
	for (int x = 0; x < T->ndims; x++) {
		const trim__iexpr *e = &T->idx[x];
		const int one = trim__axis_one_to_one(w, e);
		int64_t v = one ? f->pext[l][e->dim[0]] * f->pext[l][e->dim[1]]
		                : trim__axis_lower_bound(e, f->pext[l], f->contig[l]);
		int dd[2];
		int64_t cc[2];
		const int nt = trim__axis_terms(e, dd, cc);
		if (!s->imperfect && nt == 2 && dd[0] != dd[1] && !one &&
		    f->contig[l][dd[0]] != f->contig[l][dd[1]]) {
			const int i0 = f->contig[l][dd[0]] ? 1 : 0; /* the split dim */
			const int d0 = dd[i0], d1 = dd[1 - i0];
			const int64_t c0 = cc[i0], c1 = cc[1 - i0];
			int sp = -1, prefix = 1;
			for (int k = 0; k < l; k++)
				if (a->lv[k].type == TRIM__LVL_SPATIAL && m->f[k][d0] > 1)
					sp = k;
			for (int i = 0; i < s->nslots; i++)
				if (s->slot[i] <= sp && !f->fixed[s->slot[i]])
					prefix = 0;
			if (sp >= 0 && prefix) {
				const int64_t L = f->sfx[sp + 1][d0], n1 = f->pext[l][d1];
				const int64_t nb = f->pext[l][d0] / L, G = L * m->f[sp][d0];
				const int64_t D = trim__axis_distinct(c0, L, c1, n1);
				const int64_t span = c0 * (L - 1) + c1 * (n1 - 1) + 1;
				const int64_t ov = span > c0 * G ? span - c0 * G : 0;
				const int64_t blocks = D + (nb - 1) * (D > ov ? D - ov : 0);
				if (blocks > v)
					v = blocks;
			}
		}
		n *= v;
	}
	return n;
}

/* |(A + delta) \ A| for the values A = c0 [0, e0) + c1 [0, e1) of a
 * two-term axis (c0, c1, delta > 0): the values a tile moved by delta on
 * the axis brings in (by a bitmap of the span up to AXIS_SPAN_MAX; above
 * it, delta when A is a contiguous range, else 0). */
enum { AXIS_SPAN_MAX = 4096 };
static int64_t axis_new_values(int64_t c0, int64_t e0, int64_t c1, int64_t e1, int64_t delta)
{
	const int64_t span = c0 * (e0 - 1) + c1 * (e1 - 1) + 1, n = trim__axis_distinct(c0, e0, c1, e1);
	if (delta >= span)
		return n;
	if (span > AXIS_SPAN_MAX)
		return n == span ? delta : 0;
	unsigned char in[AXIS_SPAN_MAX];
	memset(in, 0, (size_t)span);
	for (int64_t i = 0; i < e0; i++)
		for (int64_t j = 0; j < e1; j++)
			in[c0 * i + c1 * j] = 1;
	int64_t fresh = 0;
	for (int64_t x = 0; x < span; x++)
		fresh += in[x] && (x + delta >= span || !in[x + delta]);
	return fresh;
}

/* The joint order's sliding windows (docs/model.md, "Bounds", *Sliding
 * windows under the joint order*): at each known level k of mask wk, the
 * innermost loop is inner[k], a dim d0 of a two-term axis c0 d0 + c1 d1
 * of t. When no storage level strictly between k and the holder l loops
 * on d0 or d1, each step of that loop that is not its wrap moves the tile
 * of one instance of l by |c0| sfx[k+1][d0] on the axis and leaves its
 * other axes in place or moves them too: it brings at least the values
 * new on the axis (axis_new_values) times the other axes' values. Those
 * steps, (f - 1) x (k's other loops) x (every loop of the storage levels
 * above k), are distinct for distinct k; returns their words per instance
 * of l (every level above l fixed). */
int64_t trim__window_slides(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int l,
                             unsigned wk, const int *inner)
{
	const struct trim_arch *a = s->a;
	const trim__tensor *T = &s->w->t[t];
	int64_t words = 0;
	for (int k = 0; k < l; k++) {
		if (!(wk >> k & 1) || a->lv[k].type != TRIM__LVL_STORAGE)
			continue;
		const int d0 = inner[k], ax = s->waxis[t][d0], d1 = s->wpartner[t][d0];
		if (d1 < 0 || m->f[k][d0] <= 1)
			continue;
		const int64_t c0 = s->wcoef[t][d0], c1 = s->wcoef[t][d1];
		int between = 0;
		for (int q = k + 1; q < l; q++)
			between |= a->lv[q].type == TRIM__LVL_STORAGE && (m->f[q][d0] > 1 || m->f[q][d1] > 1);
		if (between)
			continue;
		int64_t fresh = axis_new_values(c0, f->sfx[l][d0], c1, f->sfx[l][d1], c0 * f->sfx[k + 1][d0]);
		const int ones[TRIM_NDIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
		for (int x = 0; x < T->ndims; x++)
			if (x != ax)
				fresh *= trim__axis_lower_bound(&T->idx[x], f->sfx[l], ones);
		int64_t steps = m->f[k][d0] - 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (d != d0)
				steps *= m->f[k][d];
		for (int q = 0; q < k; q++)
			if (a->lv[q].type == TRIM__LVL_STORAGE)
				for (int d = 0; d < TRIM_NDIMS; d++)
					steps *= m->f[q][d];
		words += steps * fresh;
	}
	return words;
}

/* Twice the least words of tensor t that enter the tile of one instance
 * of a storage level with extents e (at it and below) at a step of a first
 * loop above it on dim d, into words[d] for every d of dstar that t reads
 * (docs/model.md, "Bounds", *Stationarity of a sliding window*): a dim
 * that is the sole term of an axis of t replaces the whole tile (twice its
 * words), as does one of an axis one word wide at e that no wrap returns
 * (s->wreturn); one of a two-term axis c0 d0 + c1 d1 brings at least the
 * values new on that axis (axis_new_values, the shift c0 e[d0]) times the
 * other axes' values at each step that is not the loop's wrap, at least
 * half of its steps (so once those words); 0 for a dim in an axis of more
 * terms (not bounded). The other entries are left as they are. */
void trim__window_step_words(const trim__mapspace *s, int t, const int64_t *e, unsigned dstar, int64_t *words)
{
	const trim__tensor *T = &s->w->t[t];
	const int ones[TRIM_NDIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
	int64_t tile = -1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (!(dstar >> d & 1) || !(T->relevant >> d & 1))
			continue;
		const int d1 = s->wpartner[t][d];
		int64_t v;
		if ((s->dsingle[t] >> d & 1) || (d1 >= 0 && e[d] == 1 && e[d1] == 1 && !(s->wreturn[t] >> d & 1))) {
			/* the sole term of an axis, or an axis one word wide that no
			 * wrap returns: every step moves the tile off itself */
			if (tile < 0)
				tile = trim__share_lower_bound(s->w, t, e, ones);
			v = 2 * tile;
		} else if (d1 >= 0) {
			const int64_t c0 = s->wcoef[t][d], c1 = s->wcoef[t][d1];
			v = axis_new_values(c0, e[d], c1, e[d1], c0 * e[d]);
			for (int x = 0; x < T->ndims; x++)
				if (x != s->waxis[t][d])
					v *= trim__axis_lower_bound(&T->idx[x], e, ones);
		} else {
			v = 0; /* an axis of more terms, or the dim twice */
		}
		words[d] = v;
	}
}
