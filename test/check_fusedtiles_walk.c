/*
 * Fused tiles (lib/fusedtiles/link.c, kinds.c; docs/fusion.md "Fused
 * tiles"): the tiling's semantics walked point by point - every tile of
 * every layer of fc chains, 1x1 and 3x1 conv chains (halos, strides),
 * padded chains (border tiles of their own kinds) and a conv -> pool ->
 * conv chain, in the chain's coordinates.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fusedtiles/fusedtiles_int.h"
#include "fusedtiles_util.h"
#include "tcase_util.h"

/* ---- the tiling's semantics, point by point ------------------------------- */

/* Linear index of tensor T's element at loop point dv. */
static int64_t elem_at(const trim__tensor *T, const int64_t *dv)
{
	int64_t e = 0;
	for (int k = 0; k < T->ndims; k++) {
		int64_t v = 0;
		for (int j = 0; j < T->idx[k].nterms; j++)
			v += T->idx[k].coef[j] * dv[T->idx[k].dim[j]];
		REQUIRE(v >= 0 && v < T->extent[k], "axis %d value %lld outside [0, %lld)", k, (long long)v,
		        (long long)T->extent[k]);
		e = e * T->extent[k] + v;
	}
	return e;
}

/* 1 if tensor T holds a padding zero at loop point dv. */
static int is_zero_at(const trim__tensor *T, const int64_t *dv)
{
	for (int z = 0; T->has_zeros && z < 2; z++) {
		const trim__iexpr *e = &T->idx[T->ndims - 2 + z];
		int64_t v = 0;
		for (int j = 0; j < e->nterms; j++)
			v += e->coef[j] * dv[e->dim[j]];
		if (v < T->zaxis[z].lo || v > T->zaxis[z].hi || (v - T->zaxis[z].lo) % T->zaxis[z].step)
			return 1;
	}
	return 0;
}

/* The element of `out` (the producer's result) that input T reads at loop
 * point dv, a real value (its zeros' positions less those before it; a
 * position of out found in T by trim__ft_link_position, those of extent 1
 * at 0). */
static int64_t produced_at(const trim__tensor *T, const trim__tensor *out, const int64_t *dv)
{
	int64_t v[TRIM__MAX_TDIMS], e = 0;
	for (int k = 0; k < T->ndims; k++) {
		v[k] = 0;
		for (int j = 0; j < T->idx[k].nterms; j++)
			v[k] += T->idx[k].coef[j] * dv[T->idx[k].dim[j]];
		if (T->has_zeros && k >= T->ndims - 2)
			v[k] -= T->zaxis[k - (T->ndims - 2)].lo;
	}
	for (int k = 0; k < out->ndims; k++) {
		int j = trim__ft_link_position(out, T, k);
		int64_t x = j < 0 ? 0 : v[j];
		REQUIRE(x >= 0 && x < out->extent[k], "axis %d value %lld outside [0, %lld)", k, (long long)x,
		        (long long)out->extent[k]);
		e = e * out->extent[k] + x;
	}
	return e;
}

/* Every point of layer i's tile at pos (tile number `tile`, for messages),
 * in the chain's coordinates: inside the layer, seeing a padding zero
 * exactly where the layer does. Adds to contrib (per element of its
 * result) the points that reach it, marks in read (NULL: not wanted) the
 * elements of the previous layer's result it reads, and adds to ran (NULL:
 * not wanted) each point's place in the layer's nest. */
static void walk_layer_tile(const trim__ft_chain *ch, const trim__ft_axes *ax, const int64_t *tiles,
                            const int64_t *pos, int i, int64_t tile, int64_t *contrib, unsigned char *read,
                            int64_t *ran)
{
	const trim__intra *w = ch->layer[i];
	const trim__tensor *out = &w->t[2], *in = &w->t[0];
	const trim__tensor *pout = i ? &ch->layer[i - 1]->t[2] : NULL;
	int64_t org[TRIM__FT_MAX_AXES], origin[TRIM_NDIMS] = {0};
	trim__intra tw;
	ck_assert_int_eq(trim__ft_tile_workload(ch, 0, ax, tiles, pos, i, &tw, org), 0);
	for (int x = 0; x < ax->naxes; x++)
		origin[ax->dim[x][i]] = org[x];
	int64_t dv[TRIM_NDIMS] = {0}, tv[TRIM_NDIMS] = {0};
	for (int64_t p = 0; p < tw.macs; p++) {
		int64_t q = p, lin = 0;
		for (int d = TRIM_NDIMS - 1; d >= 0; d--) {
			tv[d] = q % tw.bound[d];
			dv[d] = origin[d] + tv[d];
			q /= tw.bound[d];
		}
		for (int d = 0; d < TRIM_NDIMS; d++) {
			REQUIRE(dv[d] < w->bound[d], "layer %s tile %lld: %c = %lld outside its bound %lld", w->layer,
			        (long long)tile, "NGMCEFRS"[d], (long long)dv[d], (long long)w->bound[d]);
			lin = lin * w->bound[d] + dv[d];
		}
		contrib[elem_at(out, dv)]++;
		/* the tile sees a padding zero where the layer does */
		int zero = is_zero_at(in, dv);
		REQUIRE(zero == is_zero_at(&tw.t[0], tv), "layer %s tile %lld: point %lld reads a %s the tile sees as %s",
		        w->layer, (long long)tile, (long long)p, zero ? "zero" : "value", zero ? "a value" : "a zero");
		int64_t src = zero || !pout ? -1 : produced_at(in, pout, dv);
		if (read && src >= 0)
			read[src] = 1;
		if (ran)
			ran[lin]++;
	}
}

/* Walk every point of every layer in every tile of the group in the
 * chain's coordinates (layer i's tile starting at its origin, the first
 * of its rows in that tile, on each shared dim): every point lies inside
 * its layer; the tile's workload sees the zeros of padding exactly where
 * the layer does; in a tile, every element of a layer's result it touches
 * is completed (all its contributions), and the next layer reads exactly
 * the elements this one completed in the same tile (a halo is recomputed,
 * never read from another tile; padding is read as zeros, computed by
 * none); the last layer runs every MAC once and completes every output
 * element once. Tiles of one kind (kinds.c) have the same workloads, and
 * the kinds' counts add up to the tiles. */
static void walk_tiles(const trim__ft_chain *ch, const int64_t *tiles)
{
	trim__ft_axes ax;
	const int n = ch->nlayers;
	trim__ft_group_axes(ch, 0, n - 1, &ax);
	int64_t ntiles = 1;
	for (int x = 0; x < ax.naxes; x++)
		ntiles *= tiles[x];
	trim__ft_classes cl;
	ck_assert_int_eq(trim__ft_tile_classes(ch, 0, &ax, tiles, &cl), 0);
	int64_t kinds_total = 0, pos[TRIM__FT_MAX_AXES], kpos[TRIM__FT_MAX_AXES];
	for (int64_t k = 0; k < cl.total; k++)
		kinds_total += trim__ft_class_at(&cl, ax.naxes, k, kpos);
	ck_assert_int_eq(kinds_total, ntiles);
	const trim__intra *last = ch->layer[n - 1];
	int64_t *ran = calloc((size_t)last->macs, sizeof *ran);
	int64_t *done_in = calloc((size_t)last->t[2].elems, sizeof *done_in);
	for (int64_t tile = 0; tile < ntiles; tile++) {
		tu_ft_tile_pos(ax.naxes, tiles, tile, pos);
		unsigned char *prev = NULL; /* the previous layer's elements completed in this tile */
		for (int i = 0; i < n; i++) {
			const trim__intra *w = ch->layer[i];
			const trim__tensor *out = &w->t[2];
			const trim__tensor *pout = i ? &ch->layer[i - 1]->t[2] : NULL;
			int64_t per_elem = w->macs / out->elems;
			int64_t *contrib = calloc((size_t)out->elems, sizeof *contrib);
			unsigned char *read = pout ? calloc((size_t)pout->elems, 1) : NULL;
			walk_layer_tile(ch, &ax, tiles, pos, i, tile, contrib, read, i == n - 1 ? ran : NULL);
			for (int64_t x = 0; x < out->elems; x++) {
				REQUIRE(contrib[x] == 0 || contrib[x] == per_elem,
				        "layer %s tile %lld: element %lld gets %lld of its %lld contributions", w->layer,
				        (long long)tile, (long long)x, (long long)contrib[x], (long long)per_elem);
				if (i == n - 1 && contrib[x])
					done_in[x]++;
			}
			for (int64_t x = 0; prev && x < pout->elems; x++)
				REQUIRE(read[x] == prev[x], "layer %s tile %lld: input element %lld %s", w->layer, (long long)tile,
				        (long long)x, read[x] ? "not completed by its producer in this tile"
				                              : "completed by its producer but not read");
			/* the next layer's input tile is this layer's output tile,
			 * padded where the next layer's input is */
			if (i + 1 < n) {
				trim__intra tw, nw;
				ck_assert_int_eq(trim__ft_tile_workload(ch, 0, &ax, tiles, pos, i, &tw, NULL), 0);
				ck_assert_int_eq(trim__ft_tile_workload(ch, 0, &ax, tiles, pos, i + 1, &nw, NULL), 0);
				for (int k = 0; k < tw.t[2].ndims; k++) {
					int j = trim__ft_link_position(&tw.t[2], &nw.t[0], k);
					if (tw.t[2].extent[k] <= 1)
						continue;
					ck_assert_int_ge(j, 0);
					int64_t real = nw.t[0].extent[j];
					if (nw.t[0].has_zeros && j >= nw.t[0].ndims - 2) {
						const trim__zaxis *z = &nw.t[0].zaxis[j - (nw.t[0].ndims - 2)];
						real = z->hi - z->lo + 1;
					}
					ck_assert_int_eq(real, tw.t[2].extent[k]);
				}
			}
			free(prev);
			prev = malloc((size_t)out->elems);
			for (int64_t x = 0; x < out->elems; x++)
				prev[x] = contrib[x] > 0;
			free(contrib);
			free(read);
		}
		free(prev);
	}
	/* tiles of one kind: the same workload on every layer */
	for (int64_t tile = 0; tile < ntiles; tile++) {
		tu_ft_tile_pos(ax.naxes, tiles, tile, pos);
		int found = 0;
		for (int64_t k = 0; k < cl.total && !found; k++) {
			trim__ft_class_at(&cl, ax.naxes, k, kpos);
			int same = 1;
			for (int i = 0; i < n && same; i++) {
				trim__intra u, v;
				ck_assert_int_eq(trim__ft_tile_workload(ch, 0, &ax, tiles, pos, i, &u, NULL), 0);
				ck_assert_int_eq(trim__ft_tile_workload(ch, 0, &ax, tiles, kpos, i, &v, NULL), 0);
				same = trim__ft_same_nest(&u, &v);
			}
			found = same;
		}
		REQUIRE(found, "tile %lld is of no kind", (long long)tile);
	}
	trim__ft_classes_free(&cl);
	for (int64_t p = 0; p < last->macs; p++)
		REQUIRE(ran[p] == 1, "layer %s: point %lld ran %lld times", last->layer, (long long)p, (long long)ran[p]);
	for (int64_t x = 0; x < last->t[2].elems; x++)
		REQUIRE(done_in[x] == 1, "layer %s: element %lld completed in %lld tiles", last->layer, (long long)x,
		        (long long)done_in[x]);
	free(ran);
	free(done_in);
}

/* Tile number t with axis h fastest (then the others, the last fastest):
 * the order in which a kept halo's tiles run. */
static void keep_order(const trim__ft_axes *ax, const int64_t *tiles, int h, int64_t t, int64_t *pos)
{
	pos[h] = t % tiles[h];
	t /= tiles[h];
	for (int x = ax->naxes - 1; x >= 0; x--) {
		if (x == h)
			continue;
		pos[x] = t % tiles[x];
		t /= tiles[x];
	}
}

/* The halo kept (trim__ft_halo_axis, ax.keep): walk every point of every
 * layer in every tile, the tiles in their order (the kept axis fastest):
 * every point inside its layer, the zeros where the layer has them; every
 * element of every layer completed at most once (no halo recomputed) and
 * every one of the last layer's exactly once, each MAC of it run once;
 * every element a layer reads completed before, in this tile or one
 * before. Then, at each (tile, layer), the elements of the other
 * intermediates that were made before and are read after, outside the
 * layer's own tiles, counted from the walk: trim__ft_kept_bytes (in
 * words). Tiles of one kind have the same workloads and kept words. */
static int walk_kept(const trim__ft_chain *ch, const int64_t *tiles)
{
	trim__ft_axes ax;
	const int n = ch->nlayers;
	trim__ft_group_axes(ch, 0, n - 1, &ax);
	const int h = trim__ft_halo_axis(ch, 0, &ax, tiles);
	ck_assert_int_ge(h, 0);
	ax.keep = h + 1;
	trim__ft_classes cl;
	int rc = trim__ft_tile_classes(ch, 0, &ax, tiles, &cl);
	ck_assert_int_ge(rc, 0);
	if (rc) /* a tile that makes none of a layer's rows: no candidate */
		return 0;
	trim__ft_classes_free(&cl);
	int64_t nt = 1, pos[TRIM__FT_MAX_AXES], kpos[TRIM__FT_MAX_AXES];
	for (int x = 0; x < ax.naxes; x++)
		nt *= tiles[x];
	int64_t *prod[TRIM__FT_MAX_LAYERS], elems[TRIM__FT_MAX_LAYERS];
	unsigned char *read_at[TRIM__FT_MAX_LAYERS] = {NULL}; /* [t * elems + e]: read by the next layer in tile t */
	for (int j = 0; j < n; j++) {
		elems[j] = ch->layer[j]->t[2].elems;
		prod[j] = malloc((size_t)elems[j] * sizeof *prod[j]);
		for (int64_t e = 0; e < elems[j]; e++)
			prod[j][e] = -1;
		read_at[j] = calloc((size_t)(nt * elems[j]), 1);
	}
	const trim__intra *last = ch->layer[n - 1];
	int64_t *ran = calloc((size_t)last->macs, sizeof *ran);
	for (int64_t t = 0; t < nt; t++) {
		keep_order(&ax, tiles, h, t, pos);
		for (int i = 0; i < n; i++) {
			const trim__intra *w = ch->layer[i];
			const trim__tensor *out = &w->t[2];
			int64_t per_elem = w->macs / out->elems;
			int64_t *contrib = calloc((size_t)out->elems, sizeof *contrib);
			unsigned char *read = i ? read_at[i - 1] + t * elems[i - 1] : NULL;
			walk_layer_tile(ch, &ax, tiles, pos, i, t, contrib, read, i == n - 1 ? ran : NULL);
			for (int64_t e = 0; read && e < elems[i - 1]; e++)
				REQUIRE(!read[e] || (prod[i - 1][e] >= 0 && prod[i - 1][e] <= t),
				        "layer %s tile %lld reads element %lld of its input, made in tile %lld", w->layer,
				        (long long)t, (long long)e, (long long)prod[i - 1][e]);
			for (int64_t e = 0; e < out->elems; e++) {
				if (!contrib[e])
					continue;
				REQUIRE(contrib[e] == per_elem, "layer %s tile %lld: element %lld gets %lld of %lld contributions",
				        w->layer, (long long)t, (long long)e, (long long)contrib[e], (long long)per_elem);
				REQUIRE(prod[i][e] < 0, "layer %s: element %lld made in tiles %lld and %lld (a halo recomputed)",
				        w->layer, (long long)e, (long long)prod[i][e], (long long)t);
				prod[i][e] = t;
			}
			free(contrib);
		}
	}
	for (int64_t p = 0; p < last->macs; p++)
		REQUIRE(ran[p] == 1, "layer %s: point %lld ran %lld times", last->layer, (long long)p, (long long)ran[p]);
	for (int64_t e = 0; e < elems[n - 1]; e++)
		REQUIRE(prod[n - 1][e] >= 0, "layer %s: element %lld never made", last->layer, (long long)e);
	/* the words B holds beside each layer's own tiles */
	for (int64_t t = 0; t < nt; t++) {
		keep_order(&ax, tiles, h, t, pos);
		for (int i = 0; i < n; i++) {
			int64_t live = 0;
			for (int j = 0; j < n - 1; j++)
				for (int64_t e = 0; e < elems[j]; e++) {
					int64_t pt = prod[j][e];
					int later = 0, now = read_at[j][t * elems[j] + e];
					for (int64_t r = t + 1; r < nt && !later; r++)
						later = read_at[j][r * elems[j] + e];
					if (pt < 0)
						continue;
					if (j < i - 1)
						live += pt <= t && later;
					else if (j == i - 1)
						live += pt <= t && later && !now;
					else
						live += pt < t && (later || now);
				}
			int64_t kept = trim__ft_kept_bytes(ch, 0, &ax, tiles, pos, i, 8);
			REQUIRE(live == kept, "tile %lld layer %d: %lld words held beside its tiles, trim__ft_kept_bytes %lld",
			        (long long)t, i, (long long)live, (long long)kept);
		}
	}
	/* tiles of one kind: the same workloads and kept words */
	ck_assert_int_eq(trim__ft_tile_classes(ch, 0, &ax, tiles, &cl), 0);
	int64_t total = 0;
	for (int64_t k = 0; k < cl.total; k++)
		total += trim__ft_class_at(&cl, ax.naxes, k, kpos);
	ck_assert_int_eq(total, nt);
	for (int64_t t = 0; t < nt; t++) {
		keep_order(&ax, tiles, h, t, pos);
		int found = 0;
		for (int64_t k = 0; k < cl.total && !found; k++) {
			trim__ft_class_at(&cl, ax.naxes, k, kpos);
			int same = 1;
			for (int i = 0; i < n && same; i++) {
				trim__intra u, v;
				ck_assert_int_eq(trim__ft_tile_workload(ch, 0, &ax, tiles, pos, i, &u, NULL), 0);
				ck_assert_int_eq(trim__ft_tile_workload(ch, 0, &ax, tiles, kpos, i, &v, NULL), 0);
				same = trim__ft_same_nest(&u, &v) && trim__ft_kept_bytes(ch, 0, &ax, tiles, pos, i, 8) ==
				                                          trim__ft_kept_bytes(ch, 0, &ax, tiles, kpos, i, 8);
			}
			found = same;
		}
		REQUIRE(found, "tile %lld is of no kind", (long long)t);
	}
	trim__ft_classes_free(&cl);
	for (int j = 0; j < n; j++) {
		free(prod[j]);
		free(read_at[j]);
	}
	free(ran);
	return 1;
}

/* Kept halos: 3x1 convolutions (stride 1 and 2, a 2-row halo), with the
 * batch and the columns tiled too (no halo there), and with padding (the
 * border tiles of their own kinds). */
START_TEST(tiles_keep_halos)
{
	trim__intra *cv = calloc(3, sizeof *cv);
	ck_assert_int_eq(tu_layer(&cv[0], TU_CONV, TRIM_PHASE_FW, 2, 2, 3, 1, 6, 2, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&cv[1], TU_CONV, TRIM_PHASE_FW, 2, 3, 2, 1, 6, 2, 3, 1, 1, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&cv[2], TU_CONV, TRIM_PHASE_FW, 2, 2, 2, 1, 4, 2, 3, 1, 1, 1, 0), 0);
	trim__ft_chain cc = {3, {&cv[0], &cv[1], &cv[2]}, {0}, {0}, 0, {0}, 0};
	ck_assert_int_eq(trim__ft_chain_check(&cc), 0);
	trim__ft_axes ax;
	trim__ft_group_axes(&cc, 0, 2, &ax);
	ck_assert_int_eq(ax.naxes, 3); /* N, E, F */
	static const int64_t tt[][3] = {{1, 2, 1}, {2, 2, 2}, {1, 2, 2}};
	for (int k = 0; k < 3; k++)
		ck_assert(walk_kept(&cc, tt[k]));
	/* E tiled in 2 (the last layer's 2 rows, one a tile): the first layer
	 * makes rows 0..4 in tile 0 and 5 in tile 1, the second 0..2 then 3 */
	int64_t lo, hi;
	ax.keep = 2;
	ck_assert(trim__ft_tile_rows(&cc, 0, &ax, tt[0], 1, 0, 0, &lo, &hi) && lo == 0 && hi == 4);
	ck_assert(trim__ft_tile_rows(&cc, 0, &ax, tt[0], 1, 1, 0, &lo, &hi) && lo == 5 && hi == 5);
	ck_assert(trim__ft_tile_rows(&cc, 0, &ax, tt[0], 1, 1, 1, &lo, &hi) && lo == 3 && hi == 3);
	/* by hand: while the last layer runs tile 0, B keeps the first
	 * layer's rows 3..4 for the second layer's row 3 (2 rows x 2 images x
	 * 3 channels x 2 columns = 24 words); while the first runs tile 1,
	 * those and the second layer's rows 1..2 for the last layer's row 1
	 * (2 x 2 x 2 x 2 = 16 words) */
	int64_t p0[3] = {0, 0, 0}, p1[3] = {0, 1, 0};
	ck_assert_int_eq(trim__ft_kept_bytes(&cc, 0, &ax, tt[0], p0, 2, 8), 24);
	ck_assert_int_eq(trim__ft_kept_bytes(&cc, 0, &ax, tt[0], p1, 0, 8), 24 + 16);
	ck_assert_int_eq(trim__ft_kept_bytes(&cc, 0, &ax, tt[0], p1, 0, 16), 2 * (24 + 16)); /* in bytes */
	/* stride 2 (tiles overlapping by 1 row) */
	ck_assert_int_eq(tu_layer(&cv[0], TU_CONV, TRIM_PHASE_FW, 1, 2, 3, 1, 7, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&cv[1], TU_CONV, TRIM_PHASE_FW, 1, 3, 2, 1, 7, 1, 3, 1, 2, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&cv[2], TU_CONV, TRIM_PHASE_FW, 1, 2, 2, 1, 3, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(trim__ft_chain_check(&cc), 0);
	int64_t three[1] = {3};
	ck_assert(walk_kept(&cc, three));
	/* padding (tiles_cover_padding's chain): 2, 3 and 6 tiles of the rows */
	ck_assert_int_eq(tu_layer(&cv[0], TU_CONV, TRIM_PHASE_FW, 1, 2, 3, 1, 6, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&cv[1], TU_CONV, TRIM_PHASE_FW, 1, 3, 2, 1, 6, 1, 3, 1, 1, 1, 1), 0);
	ck_assert_int_eq(tu_layer(&cv[2], TU_CONV, TRIM_PHASE_FW, 1, 2, 2, 1, 6, 3, 3, 1, 1, 1, 1), 0);
	ck_assert_int_eq(trim__ft_chain_check(&cc), 0);
	/* in 3 or 6 tiles the last tile needs no row of the first layer that
	 * the tiles before did not make: a tiling that keeps its halo then is
	 * no candidate (trim__ft_tile_classes: 1) */
	static const int64_t pt[] = {2, 3, 6};
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(walk_kept(&cc, &pt[k]), k == 0);
	free(cv);
}
END_TEST

START_TEST(tiles_cover_the_chain)
{
	trim__intra *w = calloc(3, sizeof *w);
	tu_ft_fc(&w[0], "fc1", 6, 2, 3);
	tu_ft_fc(&w[1], "fc2", 6, 3, 2);
	tu_ft_fc(&w[2], "fc3", 6, 2, 4);
	trim__ft_chain ch = {3, {&w[0], &w[1], &w[2]}, {0}, {0}, 0, {0}, 0};
	static const int64_t counts[] = {1, 2, 3, 6};
	for (int k = 0; k < 4; k++)
		walk_tiles(&ch, &counts[k]);
	/* 1x1 convolutions: batch and both spatial axes shared */
	trim__intra *cv = calloc(3, sizeof *cv);
	ck_assert_int_eq(tu_layer(&cv[0], TU_CONV, TRIM_PHASE_FW, 2, 2, 3, 1, 4, 2, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&cv[1], TU_CONV, TRIM_PHASE_FW, 2, 3, 2, 1, 4, 2, 1, 1, 1, 1, 0), 0);
	trim__ft_chain cc = {2, {&cv[0], &cv[1]}, {0}, {0}, 0, {0}, 0};
	ck_assert_int_eq(trim__ft_chain_check(&cc), 0);
	trim__ft_axes ax;
	trim__ft_group_axes(&cc, 0, 1, &ax);
	ck_assert_int_eq(ax.naxes, 3); /* N, E, F */
	int64_t t3[3] = {2, 2, 1}, t3b[3] = {1, 4, 2};
	walk_tiles(&cc, t3);
	walk_tiles(&cc, t3b);
	/* a 3x1 consumer: its rows need a halo of 2 rows, recomputed */
	ck_assert_int_eq(tu_layer(&cv[1], TU_CONV, TRIM_PHASE_FW, 2, 3, 2, 1, 4, 2, 3, 1, 1, 1, 0), 0);
	ck_assert_int_eq(trim__ft_chain_check(&cc), 0);
	trim__ft_group_axes(&cc, 0, 1, &ax);
	ck_assert_int_eq(ax.naxes, 3);
	ck_assert_int_eq(ax.dim[1][0], TRIM_DIM_E);
	ck_assert_int_eq(ax.dim[1][1], TRIM_DIM_E);
	ck_assert_int_eq(ax.coef[1][0], 1);
	ck_assert_int_eq(ax.window[1][0], 2);
	ck_assert_int_eq(ax.bound[1], 2); /* the consumer's E */
	int64_t t2[3] = {2, 2, 2}, t2b[3] = {1, 2, 1};
	walk_tiles(&cc, t2);
	walk_tiles(&cc, t2b);
	/* its tile of 1 row needs 3 rows of the producer: 2 tiles, 6 rows
	 * computed of its 4 */
	trim__intra tw;
	ck_assert_int_eq(trim__ft_tile_workload(&cc, 0, &ax, t2b, NULL, 0, &tw, NULL), 0);
	ck_assert_int_eq(tw.bound[TRIM_DIM_E], 3);
	ck_assert_int_eq(tw.macs * 2, cv[0].macs / 4 * 6);
	/* stride 2: a 3x1 window every 2 rows of a 7-row map; tiles of 1 row
	 * start 2 rows apart and overlap by 1 */
	ck_assert_int_eq(tu_layer(&cv[0], TU_CONV, TRIM_PHASE_FW, 1, 2, 3, 1, 7, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&cv[1], TU_CONV, TRIM_PHASE_FW, 1, 3, 2, 1, 7, 1, 3, 1, 2, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&cv[2], TU_CONV, TRIM_PHASE_FW, 1, 2, 2, 1, 3, 1, 1, 1, 1, 1, 0), 0);
	trim__ft_chain c3 = {3, {&cv[0], &cv[1], &cv[2]}, {0}, {0}, 0, {0}, 0};
	ck_assert_int_eq(trim__ft_chain_check(&c3), 0);
	trim__ft_group_axes(&c3, 0, 2, &ax);
	ck_assert_int_eq(ax.naxes, 1); /* E (N, F are 1) */
	ck_assert_int_eq(ax.coef[0][0], 2);
	ck_assert_int_eq(ax.window[0][0], 2);
	static const int64_t thirds[] = {1, 3};
	for (int k = 0; k < 2; k++)
		walk_tiles(&c3, &thirds[k]);
	int64_t origin[TRIM__FT_MAX_AXES], one[1] = {1};
	ck_assert_int_eq(trim__ft_tile_workload(&c3, 0, &ax, &thirds[1], one, 0, &tw, origin), 0);
	ck_assert_int_eq(tw.bound[TRIM_DIM_E], 3);
	ck_assert_int_eq(origin[0], 2); /* the second tile's rows 2..4 */
	free(cv);
	free(w);
}
END_TEST

/* Padding on a shared axis: a 1x1 conv (6 x 1 map) -> a 3x1 conv with
 * padding 1 (rows and columns: 6 x 3 out) -> another (6 x 5 out). The
 * consumers read their producers' rows with a zero row before and after
 * them, so a border tile holds zeros and fewer producer rows than the
 * others: tiles of several kinds. */
START_TEST(tiles_cover_padding)
{
	trim__intra *cv = calloc(3, sizeof *cv);
	ck_assert_int_eq(tu_layer(&cv[0], TU_CONV, TRIM_PHASE_FW, 1, 2, 3, 1, 6, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&cv[1], TU_CONV, TRIM_PHASE_FW, 1, 3, 2, 1, 6, 1, 3, 1, 1, 1, 1), 0);
	ck_assert_int_eq(tu_layer(&cv[2], TU_CONV, TRIM_PHASE_FW, 1, 2, 2, 1, 6, 3, 3, 1, 1, 1, 1), 0);
	trim__ft_chain c2 = {2, {&cv[0], &cv[1]}, {0}, {0}, 0, {0}, 0}, c3 = {3, {&cv[0], &cv[1], &cv[2]}, {0}, {0}, 0, {0}, 0};
	ck_assert_int_eq(trim__ft_chain_check(&c3), 0);
	trim__ft_axes ax;
	trim__ft_group_axes(&c2, 0, 1, &ax);
	ck_assert_int_eq(ax.naxes, 1); /* E (the first layer's F is 1) */
	ck_assert_int_eq(ax.pad[0][0], 1);
	ck_assert_int_eq(ax.padded[0], 1);
	/* 3 tiles of 2 rows: the first layer computes rows 0..2, 1..4, 3..5
	 * (10 of its 6), each tile a kind of its own */
	int64_t three[1] = {3}, lo, hi;
	static const int64_t want[3][2] = {{0, 2}, {1, 4}, {3, 5}};
	for (int64_t p = 0; p < 3; p++) {
		ck_assert(trim__ft_tile_rows(&c2, 0, &ax, three, 0, p, 0, &lo, &hi));
		ck_assert_int_eq(lo, want[p][0]);
		ck_assert_int_eq(hi, want[p][1]);
	}
	trim__ft_classes cl;
	ck_assert_int_eq(trim__ft_tile_classes(&c2, 0, &ax, three, &cl), 0);
	ck_assert_int_eq(cl.total, 3);
	trim__ft_classes_free(&cl);
	/* the first tile of the consumer: 2 rows out of 3 real rows and a zero
	 * row before them (its columns: 1 real between 2 zeros) */
	trim__intra tw;
	ck_assert_int_eq(trim__ft_tile_workload(&c2, 0, &ax, three, NULL, 1, &tw, NULL), 0);
	ck_assert_int_eq(tw.bound[TRIM_DIM_E], 2);
	ck_assert_int_eq(tw.t[0].extent[3], 4);
	ck_assert(tw.t[0].has_zeros && tw.t[0].zaxis[0].lo == 1 && tw.t[0].zaxis[0].hi == 3);
	/* 6 tiles of 1 row: kinds 1, 4 of the same (rows 1..3 of the first) and 1 */
	int64_t six[1] = {6};
	ck_assert_int_eq(trim__ft_tile_classes(&c2, 0, &ax, six, &cl), 0);
	ck_assert_int_eq(cl.total, 3);
	int64_t pos[1], counts = 0;
	for (int64_t k = 0; k < 3; k++)
		counts = counts * 10 + trim__ft_class_at(&cl, 1, k, pos);
	ck_assert_int_eq(counts, 141);
	trim__ft_classes_free(&cl);
	static const int64_t e_tiles[] = {1, 2, 3, 6};
	for (int k = 0; k < 4; k++) {
		walk_tiles(&c2, &e_tiles[k]);
		walk_tiles(&c3, &e_tiles[k]);
	}
	/* the 3-layer chain's 6 tiles of 1 row: 5 kinds (the middle two alike) */
	trim__ft_group_axes(&c3, 0, 2, &ax);
	ck_assert_int_eq(ax.naxes, 1);
	ck_assert_int_eq(trim__ft_tile_classes(&c3, 0, &ax, six, &cl), 0);
	ck_assert_int_eq(cl.total, 5);
	trim__ft_classes_free(&cl);
	/* the last two layers share their columns too, padded: 5 tiles of 1
	 * column would leave the last one none of the middle layer's 3 */
	/* a 1x1 conv (4 x 4 map, 1 -> 2 channels), a 2x2/2 max pool, a 3x3 conv
	 * with padding 1: the pool's input [N, C, H, W] holds the conv's result
	 * [N, 1, M, E, F], and its rows and columns are shared by all three */
	trim__intra *pc = calloc(3, sizeof *pc);
	ck_assert_int_eq(tu_layer(&pc[0], TU_CONV, TRIM_PHASE_FW, 1, 1, 2, 1, 4, 4, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&pc[1], TU_MAXPOOL, TRIM_PHASE_FW, 1, 2, 2, 1, 4, 4, 2, 2, 2, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&pc[2], TU_CONV, TRIM_PHASE_FW, 1, 2, 1, 1, 2, 2, 3, 3, 1, 1, 1), 0);
	trim__ft_chain cp = {3, {&pc[0], &pc[1], &pc[2]}, {0}, {0}, 0, {0}, 0};
	ck_assert_int_eq(trim__ft_chain_check(&cp), 0);
	trim__ft_group_axes(&cp, 0, 2, &ax);
	ck_assert_int_eq(ax.naxes, 2); /* E, F */
	ck_assert_int_eq(ax.coef[0][0], 2);
	ck_assert_int_eq(ax.pad[0][1], 1);
	static const int64_t ef[4][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}};
	for (int k = 0; k < 4; k++)
		walk_tiles(&cp, ef[k]);
	free(pc);
	trim__ft_chain c23 = {2, {&cv[1], &cv[2]}, {0}, {0}, 0, {0}, 0};
	trim__ft_group_axes(&c23, 0, 1, &ax);
	ck_assert_int_eq(ax.naxes, 2); /* E, F */
	ck_assert_int_eq(ax.dim[1][0], TRIM_DIM_F);
	int64_t cols5[2] = {1, 5}, rows3[2] = {3, 1};
	ck_assert_int_eq(trim__ft_tile_classes(&c23, 0, &ax, cols5, &cl), 1);
	walk_tiles(&c23, rows3);
	free(cv);
}
END_TEST

Suite *fusedtiles_walk_suite(void)
{
	Suite *s = suite_create("fusedtiles_walk");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, tiles_cover_the_chain);
	tcase_add_test(tc, tiles_cover_padding);
	tcase_add_test(tc, tiles_keep_halos);
	suite_add_tcase(s, tc);
	return s;
}
