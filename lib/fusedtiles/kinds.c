/*
 * The kinds of tiles of a fused group under a tiling: with padding on a
 * shared axis, the tiles at its borders hold padding zeros and fewer rows
 * of their producers, so not every tile is a translate of the first. Per
 * axis, tiles with the same rows and zeros on every layer are one kind;
 * the group's kinds are one of each axis's. With the halo kept on an axis,
 * its first tile makes more rows than the others.
 */
#include <stdlib.h>
#include <string.h>

#include "fusedtiles_int.h"

/* What makes tile `pos` on axis x of layer i differ from another: its rows,
 * per tensor the zeros it holds before and after its real positions on the
 * axis, and with its halo kept the words of the other intermediates B
 * holds beside it (sig: SIG values). 0 when it holds none of its rows. */
enum { SIG = 2 + 2 * 3 };
static int tile_signature(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles, int x,
                          int64_t pos, int i, int64_t *sig)
{
	int64_t lo, hi;
	if (!trim__ft_tile_rows(c, a, ax, tiles, x, pos, i, &lo, &hi))
		return 0;
	const trim__intra *w = c->layer[a + i];
	const int d = ax->dim[x][i];
	int64_t b[TRIM_NDIMS];
	memcpy(b, w->bound, sizeof b);
	b[d] = hi - lo + 1;
	sig[0] = b[d];
	sig[SIG - 1] = 0;
	if (ax->keep == x + 1) {
		int64_t at[TRIM__FT_MAX_AXES] = {0};
		at[x] = pos;
		sig[SIG - 1] = trim__ft_kept_bytes(c, a, ax, tiles, at, i, 8);
	}
	for (int t = 0; t < 3; t++) {
		const trim__tensor *T = &w->t[t];
		sig[1 + 2 * t] = sig[2 + 2 * t] = 0;
		if (!T->present || !T->has_zeros)
			continue;
		for (int z = 0; z < 2; z++) {
			const trim__iexpr *e = &T->idx[T->ndims - 2 + z];
			int64_t coef = 0;
			for (int j = 0; j < e->nterms; j++)
				if (e->dim[j] == d)
					coef = e->coef[j];
			if (!coef)
				continue;
			/* the tile's first and last positions, against the real ones */
			int64_t first = coef * lo, last = first + trim__ft_span(e, b) - 1;
			const trim__zaxis *Z = &T->zaxis[z];
			sig[1 + 2 * t] = Z->lo > first ? Z->lo - first : 0;
			sig[2 + 2 * t] = last > Z->hi ? last - Z->hi : 0;
		}
	}
	return 1;
}

void trim__ft_classes_free(trim__ft_classes *cl)
{
	for (int x = 0; x < TRIM__FT_MAX_AXES; x++) {
		free(cl->rep[x]);
		free(cl->count[x]);
	}
	memset(cl, 0, sizeof *cl);
}

/* Axis x's kinds of tiles: tile p is of the kind of the first tile before
 * it with the same signature on every layer. */
static int axis_classes(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles, int x,
                        trim__ft_classes *cl)
{
	const int64_t T = tiles[x];
	const int n = ax->nlayers, per = SIG * n;
	if ((!ax->padded[x] && ax->keep != x + 1) || T == 1) { /* translates of one another */
		cl->rep[x] = calloc(1, sizeof *cl->rep[x]);
		cl->count[x] = malloc(sizeof *cl->count[x]);
		if (!cl->rep[x] || !cl->count[x])
			return trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
		cl->count[x][0] = T; /* none empty: without padding no rows are clipped, one tile holds all */
		cl->n[x] = 1;
		return 0;
	}
	int64_t *sig = malloc((size_t)T * (size_t)per * sizeof *sig);
	cl->rep[x] = malloc((size_t)T * sizeof *cl->rep[x]);
	cl->count[x] = malloc((size_t)T * sizeof *cl->count[x]);
	if (!sig || !cl->rep[x] || !cl->count[x]) {
		free(sig);
		return trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
	}
	int empty = 0;
	for (int64_t p = 0; p < T && !empty; p++) {
		int64_t *s = sig + p * per;
		for (int i = 0; i < n && !empty; i++)
			empty = !tile_signature(c, a, ax, tiles, x, p, i, s + SIG * i);
		if (empty)
			break;
		int k = 0;
		while (k < cl->n[x] && memcmp(sig + cl->rep[x][k] * per, s, (size_t)per * sizeof *s))
			k++;
		if (k == cl->n[x]) {
			cl->rep[x][k] = p;
			cl->count[x][k] = 0;
			cl->n[x]++;
		}
		cl->count[x][k]++;
	}
	free(sig);
	return empty;
}

int trim__ft_tile_classes(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles,
                          trim__ft_classes *cl)
{
	memset(cl, 0, sizeof *cl);
	cl->total = 1;
	for (int x = 0; x < ax->naxes; x++) {
		int rc = axis_classes(c, a, ax, tiles, x, cl);
		if (rc) {
			trim__ft_classes_free(cl);
			return rc;
		}
		cl->total *= cl->n[x];
	}
	return 0;
}

int64_t trim__ft_class_at(const trim__ft_classes *cl, int naxes, int64_t k, int64_t *pos)
{
	int64_t count = 1;
	for (int x = naxes - 1; x >= 0; x--) {
		int j = (int)(k % cl->n[x]);
		k /= cl->n[x];
		pos[x] = cl->rep[x][j];
		count *= cl->count[x][j];
	}
	return count;
}
