/*
 * One two-term axis (c0*i + c1*j) of a tensor: window sums of its base
 * set, overlaps of a tile with its translate, and the statistics of an
 * advance (lib/activity/activity.c, the key facts).
 */
#include <stdlib.h>
#include <string.h>

#include "analyst_int.h"

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
int trim__act_axis_scan(trim__act_ws *ws, const hax_t *x, int k, int64_t delta, int first, memo_t *st)
{
	int64_t range = x->span;
	for (int j = 0; j < k; j++)
		range += x->s[j][0] * (x->p[j][0] - 1) + x->s[j][1] * (x->p[j][1] - 1);
	int64_t *b = trim__act_ws_get(ws, 1, 6 * (size_t)range);
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
int64_t trim__act_axis_overlap(const int64_t *bits, int64_t span, int64_t delta)
{
	int64_t lo = delta < 0 ? -delta : 0, hi = delta > 0 ? span - delta : span, n = 0;
	for (int64_t v = lo; v < hi; v++)
		n += bits[v] & bits[v + delta];
	return n;
}
