/*
 * An operand counted as Timeloop counts it (TRIM_COUNT_TIMELOOP, the
 * workspace's count; docs/mapping.md, "Differences from Timeloop's
 * counting", rules 1, 4 and 5). libtrim's own rules are in orders.c; only
 * the two places where Timeloop's differ are here.
 *
 * Rules 1 and 5, multicast per fan-out: Timeloop shares a word between the
 * children of one fan-out only when their tiles are identical, fan-out by
 * fan-out (a column's tile is the union below it), where libtrim shares
 * every word two children need (the union of their tiles, over every
 * network on the way). Siblings' tiles are translates of one base set, by
 * a vector of per-axis offsets from their ports; two are identical iff
 * their vectors are (a finite set is no translate of itself), and the
 * same holds for what they receive at every step (translates of one
 * delta). So per S_j instance the words entering are (classes of
 * identical children) x (the words entering one child), and every child
 * receives the words entering it. A level that does not multicast, or
 * above one that does not (libtrim's rule, which keeps Timeloop's counts
 * at least libtrim's: the search's bounds stay below), sends every child
 * its own words.
 *
 * Rule 4, windows: Timeloop saves the overlap of a tile with the last one
 * only on a step of the innermost loop (bound > 1) above the child; any
 * other step that moves the tile refills it whole (the Eyeriss-like DRAM
 * steps of test/data/timeloop-v4/: 16 whole tiles of 9,831).
 */
#include <stdlib.h>

#include "analyst_int.h"

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Distinct offsets s0 * i + s1 * j (i < p0, j < p1) along a two-term axis,
 * and those of one port only. */
static int axis_classes(trim__act_ws *ws, const int64_t *p, const int64_t *s, int64_t *cls, int64_t *uni)
{
	const int64_t n = p[0] * p[1];
	if (n == 1) {
		*cls = *uni = 1;
		return 0;
	}
	int64_t *v = trim__act_ws_get(ws, 1, (size_t)n);
	if (!v)
		return TRIM_ENOMEM;
	for (int64_t i = 0; i < p[0]; i++)
		for (int64_t j = 0; j < p[1]; j++)
			v[i * p[1] + j] = s[0] * i + s[1] * j;
	qsort(v, (size_t)n, sizeof *v, cmp64);
	*cls = *uni = 0;
	for (int64_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && v[b] == v[a]; b++)
			;
		(*cls)++;
		*uni += b - a == 1;
	}
	return 0;
}

int trim__act_tl_prepare(trim__act_ws *ws, const tprep_t *tp, hop_t *h)
{
	const struct trim__act_prep *P = ws->prep;
	h->tlinner = -1;
	for (int l = h->C - 1; l >= 0 && h->tlinner < 0; l--)
		if (P->type[l] == TRIM__LVL_STORAGE && P->lprod[l] > 1)
			h->tlinner = l;
	for (int j = 0; j < h->k; j++) {
		const int64_t below = j + 1 < h->k ? h->nsi[j + 1] : P->instances[h->C];
		const int64_t nch = below / h->nsi[j];
		if (j < h->jm) { /* no multicast at S_j or below: every child on its own */
			h->tlcls[j] = h->tluni[j] = nch;
			continue;
		}
		int64_t cls = 1, uni = 1;
		for (int a = 0; a < tp->nax; a++) {
			const hax_t *x = &h->ax[a];
			int64_t c, u;
			if (tp->ax[a].nt == 1) { /* disjoint ports: all distinct */
				c = u = x->p[j][0];
			} else {
				int rc = axis_classes(ws, x->p[j], x->s[j], &c, &u);
				if (rc)
					return rc;
			}
			cls *= c;
			uni *= u;
		}
		h->tlcls[j] = cls;
		h->tluni[j] = h->kirr[j] == 1 ? uni : 0;
	}
	return 0;
}

void trim__act_tl_words(const hop_t *h, int64_t fills1, int64_t instances_C, int64_t *Mw, int64_t *Uw)
{
	/* words entering one instance of S_j: classes x what one child gets */
	int64_t per = fills1;
	Mw[h->k] = fills1 * instances_C;
	for (int j = h->k - 1; j >= 0; j--) {
		Uw[j] = h->nsi[j] * h->tluni[j] * per;
		per *= h->tlcls[j];
		Mw[j] = h->nsi[j] * per;
	}
}
