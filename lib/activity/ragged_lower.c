/*
 * The order-free lower bound of a ragged hop (docs/model.md, "Imperfect
 * factorisations"): per instance, the elements it touches.
 *
 * Claim. For a hop of tensor t into child C through the spatial levels
 * S_0 .. S_{k-1}, and for a level L among them (or C itself), let U_x be
 * the elements of t touched by the executed points below an instance x of
 * L (x: its coordinates at the spatial levels above L). Whatever the loop
 * orders, every element of U_x reaches x at least once: some leaf below x
 * touches it at some executed step, so the leaf's tile holds it then, and
 * at the step where it first entered that leaf's tile it was filled there,
 * hence needed by x (the (element, S_j instance) pairs Mw[j] and the drains'
 * pairs Dw[j] count it then; the child's fills Fc count it for x = the
 * leaf). Summed over the instances, sum_x |U_x| is a lower bound on Mw[j],
 * Dw[j] (a result leaving x goes up at least once: what x computed is part
 * of it) and Fc; with no spatial level above L it is the tensor's touched
 * elements T, the bound this replaces, so it is never weaker.
 *
 * How. The executed points below x are a box: per dim d, the values v < D_d
 * whose digits at the spatial levels above L (digit l = v / ext[l+1][d] mod
 * f[l][d], the mixed radix of the padded nest) are x's. An axis of t depends
 * on its own dims only, so |U_x| is the product over t's axes of the axis
 * values of x's box (0 if a dim of x has no value), times, per dim t does
 * not depend on, whether x has a value on it (its smallest value is below
 * the bound); the instances are a product
 * over dims of coordinates, so sum_x |U_x| is the product over those groups
 * of the group's sum over its own dims' coordinates. One-term axis: the sum
 * is D_d (every value is below exactly one coordinate). Two-term axis
 * c0 u + c1 v: per pair of coordinates, the distinct positions (a bitmap).
 * A dim of two axes, or too large a bitmap: the old bound T stands.
 */
#include <stdlib.h>
#include <string.h>

#include "analyst_int.h"

/* Bitmap work beyond this many words: T stands. */
#define LOWER_WORK_MAX ((int64_t)1 << 24)

/* Coordinates of dim d's values at the spatial levels above L: n (their
 * number) is returned; cnt[c] the values of coordinate c, and (list not
 * NULL) the values grouped by coordinate: list[start[c] .. start[c+1]). */
static int64_t coordinates(const struct trim__act_prep *P, int L, int d, int64_t *cnt, int64_t *start, int64_t *list)
{
	int64_t n = 1;
	for (int l = 0; l < L; l++)
		if (P->type[l] == TRIM__LVL_SPATIAL)
			n *= P->f[l][d];
	if (!cnt)
		return n;
	memset(cnt, 0, (size_t)n * sizeof *cnt);
	for (int pass = 0; pass < (list ? 2 : 1); pass++) {
		if (pass == 1) {
			start[0] = 0;
			for (int64_t c = 0; c < n; c++)
				start[c + 1] = start[c] + cnt[c];
			memset(cnt, 0, (size_t)n * sizeof *cnt);
		}
		for (int64_t v = 0; v < P->D[d]; v++) {
			int64_t c = 0;
			for (int l = 0; l < L; l++)
				if (P->type[l] == TRIM__LVL_SPATIAL && P->f[l][d] > 1)
					c = c * P->f[l][d] + v / P->ext[l + 1][d] % P->f[l][d];
			if (pass == 1)
				list[start[c] + cnt[c]] = v;
			cnt[c]++;
		}
	}
	return n;
}

/* sum_x |U_x| over the instances x of level L (above: the spatial levels
 * l < L), or -1 where the old bound stands (or scratch is short: ENOMEM is
 * then set and returned as -2). */
static int64_t touched_per_instance(trim__act_ws *ws, const struct trim__act_prep *P, const tprep_t *tp, int L)
{
	unsigned seen = 0;
	int64_t words = 0, n[TRIM_NDIMS], inst = 1;
	for (int l = 0; l < L; l++)
		if (P->type[l] == TRIM__LVL_SPATIAL)
			inst *= P->lprod[l];
	if (inst == 1)
		return -1; /* one instance: it touches T */
	for (int a = 0; a < tp->nax; a++)
		for (int e = 0; e < tp->ax[a].nt; e++) {
			const int d = tp->ax[a].dim[e];
			if (seen >> d & 1)
				return -1; /* a dim of two axes (or twice in one) */
			seen |= 1u << d;
		}
	for (int d = 0; d < TRIM_NDIMS; d++) {
		n[d] = coordinates(P, L, d, NULL, NULL, NULL);
		words += 2 * n[d] + 1 + P->D[d];
	}
	int64_t span_max = 0, work = 0;
	for (int a = 0; a < tp->nax; a++)
		if (tp->ax[a].nt == 2) {
			const axis_t *x = &tp->ax[a];
			int64_t c0 = llabs(x->coef[0]), c1 = llabs(x->coef[1]);
			int64_t span = c0 * (P->D[x->dim[0]] - 1) + c1 * (P->D[x->dim[1]] - 1) + 1;
			span_max = span > span_max ? span : span_max;
			work += n[x->dim[0]] * n[x->dim[1]] * span + P->D[x->dim[0]] * P->D[x->dim[1]];
		}
	if (work > LOWER_WORK_MAX)
		return -1;
	int64_t *buf = NULL;
	if (span_max > 0 && !(buf = trim__act_ws_get(ws, 2, (size_t)(3 * words + span_max))))
		return -2;
	int64_t total = 1;
	for (int a = 0; a < tp->nax && total > 0; a++) {
		const axis_t *x = &tp->ax[a];
		if (x->nt == 1)
			total *= P->D[x->dim[0]]; /* every value below one coordinate */
		if (x->nt != 2)
			continue; /* no term: one position */
		const int d0 = x->dim[0], d1 = x->dim[1];
		int64_t *cnt0 = buf, *st0 = cnt0 + n[d0], *ls0 = st0 + n[d0] + 1;
		int64_t *cnt1 = ls0 + P->D[d0], *st1 = cnt1 + n[d1], *ls1 = st1 + n[d1] + 1;
		int64_t *bits = ls1 + P->D[d1];
		coordinates(P, L, d0, cnt0, st0, ls0);
		coordinates(P, L, d1, cnt1, st1, ls1);
		/* positions c0 u + c1 v, shifted to start at 0 for negative terms */
		int64_t lo = 0;
		if (x->coef[0] < 0)
			lo += x->coef[0] * (P->D[d0] - 1);
		if (x->coef[1] < 0)
			lo += x->coef[1] * (P->D[d1] - 1);
		const int64_t span = llabs(x->coef[0]) * (P->D[d0] - 1) + llabs(x->coef[1]) * (P->D[d1] - 1) + 1;
		int64_t sum = 0;
		for (int64_t a0 = 0; a0 < n[d0]; a0++)
			for (int64_t a1 = 0; a1 < n[d1]; a1++) {
				if (!cnt0[a0] || !cnt1[a1])
					continue;
				memset(bits, 0, (size_t)span * sizeof *bits);
				for (int64_t i = st0[a0]; i < st0[a0 + 1]; i++)
					for (int64_t j = st1[a1]; j < st1[a1 + 1]; j++) {
						int64_t p = x->coef[0] * ls0[i] + x->coef[1] * ls1[j] - lo;
						sum += !bits[p];
						bits[p] = 1;
					}
			}
		total *= sum;
	}
	/* a dim t does not depend on: the coordinates with a value (the
	 * smallest value of coordinate c, its other digits 0, is below D) */
	for (int d = 0; d < TRIM_NDIMS && total > 0; d++) {
		if (seen >> d & 1 || P->ext[0][d] <= 1 || n[d] == 1)
			continue;
		int64_t have = 0;
		for (int64_t c = 0; c < n[d]; c++) {
			int64_t rem = c, v = 0;
			for (int l = L - 1; l >= 0; l--)
				if (P->type[l] == TRIM__LVL_SPATIAL && P->f[l][d] > 1) {
					v += rem % P->f[l][d] * P->ext[l + 1][d];
					rem /= P->f[l][d];
				}
			have += v < P->D[d];
		}
		total *= have;
	}
	return total;
}

int trim__act_ragged_lower(trim__act_ws *ws, int t, int i, int64_t *Fc, int64_t *Mw, int64_t *Dw)
{
	const struct trim__act_prep *P = ws->prep;
	const tprep_t *tp = &P->t[t];
	const hop_t *h = &tp->hop[i];
	for (int j = 0; j <= h->k; j++) {
		if (j == h->k && h->cmac)
			break; /* the MACs' words are exact */
		const int64_t u = touched_per_instance(ws, P, tp, j < h->k ? h->S[j] : h->C);
		if (u == -2)
			return TRIM_ENOMEM;
		if (j < h->k) {
			Mw[j] = u > Mw[j] ? u : Mw[j];
			Dw[j] = u > Dw[j] ? u : Dw[j];
		} else if (u > *Fc) {
			*Fc = Mw[j] = Dw[j] = u;
		}
	}
	return 0;
}
