/*
 * The chain of a fused group: the intermediates that link its layers, the
 * axes its layers can share, and a layer's tile workload under a tiling.
 */
#include <stdio.h>
#include <string.h>

#include "fusedtiles_int.h"

/* The one dim of expression e that moves (coefficient != 0, bound > 1) in
 * w, with its coefficient; -1 when none or several move. */
static int single_dim(const trim__intra *w, const trim__iexpr *e, int64_t *coef)
{
	int d = -1;
	for (int k = 0; k < e->nterms; k++) {
		if (e->coef[k] == 0 || w->bound[e->dim[k]] <= 1)
			continue;
		if (d >= 0)
			return -1;
		d = e->dim[k];
		*coef = e->coef[k];
	}
	return d;
}

int64_t trim__ft_span(const trim__iexpr *e, const int64_t *b)
{
	int64_t v = 1;
	for (int k = 0; k < e->nterms; k++)
		v += (e->coef[k] < 0 ? -e->coef[k] : e->coef[k]) * (b[e->dim[k]] - 1);
	return v;
}

static void shape_str(const trim__tensor *t, char *buf, size_t n)
{
	size_t o = (size_t)snprintf(buf, n, "[");
	for (int k = 0; k < t->ndims && o < n; k++)
		o += (size_t)snprintf(buf + o, n - o, "%s%lld", k ? ", " : "", (long long)t->extent[k]);
	if (o < n)
		snprintf(buf + o, n - o, "]");
}

/* The real extent of position k of tensor T: its extent less the padding
 * zeros around the real positions. */
static int64_t real_extent(const trim__tensor *T, int k)
{
	if (!T->has_zeros || k < T->ndims - 2)
		return T->extent[k];
	const trim__zaxis *z = &T->zaxis[k - (T->ndims - 2)];
	return z->hi - z->lo + 1;
}

int trim__ft_link_position(const trim__tensor *out, const trim__tensor *in, int k)
{
	if (k < 0 || k >= out->ndims || out->extent[k] <= 1)
		return -1;
	int nth = 0;
	for (int j = 0; j < k; j++)
		nth += out->extent[j] > 1;
	for (int j = 0; j < in->ndims; j++)
		if (real_extent(in, j) > 1 && nth-- == 0)
			return j;
	return -1;
}

/* 1 if position kin of `in` (a consumer's input) holds position kout of
 * `out` (its producer's result) as it is, or with rows of padding zeros
 * around it: on a spatial position with zeros (step 1), the real positions
 * are exactly out's extent. */
static int holds_result(const trim__tensor *in, int kin, const trim__tensor *out, int kout)
{
	if (!in->has_zeros || kin < in->ndims - 2)
		return in->extent[kin] == out->extent[kout];
	const trim__zaxis *z = &in->zaxis[kin - (in->ndims - 2)];
	return z->step == 1 && z->lo >= 0 && z->hi - z->lo + 1 == out->extent[kout] && z->hi < in->extent[kin];
}

/* 1 if `in` holds `out`: position by position, each of out's positions of
 * extent above 1 (linked by trim__ft_link_position) and as many of in's. */
static int holds_tensor(const trim__tensor *in, const trim__tensor *out)
{
	if (!out->present || !in->present)
		return 0;
	int nout = 0, nin = 0;
	for (int k = 0; k < out->ndims; k++)
		nout += out->extent[k] > 1;
	for (int k = 0; k < in->ndims; k++)
		nin += real_extent(in, k) > 1;
	if (nout != nin)
		return 0;
	for (int k = 0; k < out->ndims; k++) {
		int j = trim__ft_link_position(out, in, k);
		if (out->extent[k] > 1 && (j < 0 || !holds_result(in, j, out, k)))
			return 0;
	}
	/* the positions of extent 1 of in: one row, with or without zeros around */
	for (int j = 0; j < in->ndims; j++)
		if (real_extent(in, j) == 1 && in->has_zeros && j >= in->ndims - 2) {
			const trim__zaxis *z = &in->zaxis[j - (in->ndims - 2)];
			if (z->step != 1 || z->lo < 0 || z->hi >= in->extent[j])
				return 0;
		}
	return 1;
}

int trim__ft_chain_check(const trim__ft_chain *c)
{
	if (c->nlayers < 1 || c->nlayers > TRIM__FT_MAX_LAYERS)
		return trim__error(TRIM_ERANGE, "fused tiles: a chain has 1 to %d layers, not %d", TRIM__FT_MAX_LAYERS,
		                   c->nlayers);
	/* FW workloads; or BW ones, their intermediates also written (dY for WG) */
	const int phase = c->written && c->layer[0]->phase == TRIM_PHASE_BW ? TRIM_PHASE_BW : TRIM_PHASE_FW;
	for (int i = 0; i < c->nlayers; i++)
		if (c->layer[i]->phase != phase)
			return trim__error(TRIM_EINVAL, "fused tiles: layer '%s' is a %s workload; a chain fuses FW workloads, "
			                   "or BW workloads whose intermediates are also written", c->layer[i]->layer,
			                   trim_phase_name(c->layer[i]->phase));
	for (int i = 0; i + 1 < c->nlayers; i++) {
		const trim__tensor *out = &c->layer[i]->t[2], *in = &c->layer[i + 1]->t[0];
		if (!holds_tensor(in, out)) {
			char so[96], si[96];
			shape_str(out, so, sizeof so);
			shape_str(in, si, sizeof si);
			return trim__error(TRIM_ESHAPE,
			                   "fused tiles: layer '%s' does not read layer '%s''s result as it is: "
			                   "%s %s against %s %s%s",
			                   c->layer[i + 1]->layer, c->layer[i]->layer, out->name, so, in->name, si,
			                   in->has_zeros ? " (its input is padded other than around it)" : "");
		}
	}
	return 0;
}

/* Position of the result of w whose single moving dim is d (coefficient
 * 1), or -1. */
static int result_position(const trim__intra *w, int d)
{
	const trim__tensor *t = &w->t[2];
	for (int k = 0; k < t->ndims; k++) {
		int64_t coef = 0;
		if (single_dim(w, &t->idx[k], &coef) == d && coef == 1)
			return k;
	}
	return -1;
}

/* 1 if dim d of w can be tiled: every position of a tensor it is on spans
 * exactly the tensor's extent (no rows left over by a stride), and zeros
 * on such a position are padding (step 1: a border tile holds some of
 * them, trim__ft_tile_workload), not inserted zeros. *padded is set when
 * some position has zeros. */
static int tileable(const trim__intra *w, int d, int *padded)
{
	for (int t = 0; t < 3; t++) {
		const trim__tensor *T = &w->t[t];
		if (!T->present)
			continue;
		for (int k = 0; k < T->ndims; k++) {
			const trim__iexpr *e = &T->idx[k];
			int on = 0;
			for (int j = 0; j < e->nterms; j++)
				on |= e->dim[j] == d && e->coef[j] != 0;
			if (!on)
				continue;
			if (T->has_zeros && k >= T->ndims - 2) {
				if (T->zaxis[k - (T->ndims - 2)].step != 1)
					return 0;
				*padded = 1;
			}
			if (trim__ft_span(e, w->bound) != T->extent[k])
				return 0;
		}
	}
	return 1;
}

/* Position k of w's input as coef * d plus a window: d the one moving dim
 * that is in w's result (-1 if none, or if another is, or d is in it with
 * another coefficient somewhere), the other moving terms' span in *window. */
static int input_link(const trim__intra *w, int k, int64_t *coef, int64_t *window)
{
	const trim__iexpr *e = &w->t[0].idx[k];
	int d = -1;
	*window = 0;
	for (int j = 0; j < e->nterms; j++) {
		int64_t c = e->coef[j];
		if (c == 0 || w->bound[e->dim[j]] <= 1)
			continue;
		if (result_position(w, e->dim[j]) >= 0) {
			if (d >= 0 || c < 1)
				return -1;
			d = e->dim[j];
			*coef = c;
		} else {
			*window += (c < 0 ? -c : c) * (w->bound[e->dim[j]] - 1);
		}
	}
	return d;
}

/* The zeros before the real rows of position k of the consumer's input
 * (0 if it has none there). */
static int64_t pad_before(const trim__tensor *in, int k)
{
	if (!in->has_zeros || k < in->ndims - 2)
		return 0;
	return in->zaxis[k - (in->ndims - 2)].lo;
}

void trim__ft_group_axes(const trim__ft_chain *c, int a, int b, trim__ft_axes *ax)
{
	memset(ax, 0, sizeof *ax);
	ax->nlayers = b - a + 1;
	const trim__intra *first = c->layer[a];
	const trim__tensor *out0 = &first->t[2];
	for (int k0 = 0; k0 < out0->ndims && ax->naxes < TRIM__FT_MAX_AXES; k0++) {
		int64_t coef = 0;
		int padded = 0;
		int d = single_dim(first, &out0->idx[k0], &coef);
		if (d < 0 || coef != 1 || !tileable(first, d, &padded))
			continue;
		int x = ax->naxes;
		ax->dim[x][0] = d;
		int k = k0, ok = 1;
		for (int i = a + 1; i <= b && ok; i++) {
			const trim__intra *w = c->layer[i];
			int64_t window = 0;
			k = trim__ft_link_position(&c->layer[i - 1]->t[2], &w->t[0], k);
			int dn = k < 0 ? -1 : input_link(w, k, &coef, &window);
			/* the consumer's window over its whole bound reaches exactly
			 * its input's rows, the producer's with any padding around
			 * them (tileable: no rows left over by a stride) */
			ok = dn >= 0 && tileable(w, dn, &padded) && coef * (w->bound[dn] - 1) + window + 1 == w->t[0].extent[k];
			if (ok) {
				ax->dim[x][i - a] = dn;
				ax->coef[x][i - a - 1] = coef;
				ax->window[x][i - a - 1] = window;
				ax->pad[x][i - a - 1] = pad_before(&w->t[0], k);
				k = result_position(w, dn);
				ok = k >= 0;
			}
		}
		if (!ok)
			continue;
		ax->bound[x] = c->layer[b]->bound[ax->dim[x][b - a]];
		ax->padded[x] = padded;
		ax->naxes++;
	}
	/* what a rejected candidate left behind */
	for (int x = ax->naxes; x < TRIM__FT_MAX_AXES; x++) {
		memset(ax->dim[x], 0, sizeof ax->dim[x]);
		memset(ax->coef[x], 0, sizeof ax->coef[x]);
		memset(ax->window[x], 0, sizeof ax->window[x]);
		memset(ax->pad[x], 0, sizeof ax->pad[x]);
	}
}

/* The rows of layer a + i that tile `pos` on axis x needs (its own, for
 * the last layer; else what the layer after needs, clipped): the halo
 * recomputed. */
static int needed_rows(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles, int x,
                       int64_t pos, int i, int64_t *lo, int64_t *hi)
{
	int64_t t = ax->bound[x] / tiles[x];
	*lo = pos * t;
	*hi = *lo + t - 1;
	for (int j = ax->nlayers - 2; j >= i; j--) {
		/* layer j + 1's rows read these rows of its (padded) input: layer
		 * j's, less the padding before them, within layer j's rows */
		int64_t rows = c->layer[a + j]->bound[ax->dim[x][j]];
		*lo = ax->coef[x][j] * *lo - ax->pad[x][j];
		*hi = ax->coef[x][j] * *hi + ax->window[x][j] - ax->pad[x][j];
		if (*lo < 0)
			*lo = 0;
		if (*hi > rows - 1)
			*hi = rows - 1;
	}
	return *hi >= *lo;
}

int trim__ft_tile_rows(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles, int x,
                       int64_t pos, int i, int64_t *lo, int64_t *hi)
{
	if (!needed_rows(c, a, ax, tiles, x, pos, i, lo, hi))
		return 0;
	/* a kept halo: the rows the tile before made stay in B */
	int64_t plo, phi;
	if (ax->keep == x + 1 && i < ax->nlayers - 1 && pos > 0 && needed_rows(c, a, ax, tiles, x, pos - 1, i, &plo, &phi) &&
	    phi + 1 > *lo)
		*lo = phi + 1;
	return *hi >= *lo;
}

/* The rows of intermediate j (layer a + j's result) that tiles p and
 * p + 1 on axis x both need (0 if none, or no such tiles). */
static int64_t overlap_rows(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles, int x,
                            int64_t p, int j)
{
	int64_t lo0, hi0, lo1, hi1;
	if (p < 0 || p + 1 >= tiles[x] || !needed_rows(c, a, ax, tiles, x, p, j, &lo0, &hi0) ||
	    !needed_rows(c, a, ax, tiles, x, p + 1, j, &lo1, &hi1))
		return 0;
	return hi0 >= lo1 ? hi0 - lo1 + 1 : 0;
}

int trim__ft_has_halo(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles)
{
	for (int x = 0; x < ax->naxes; x++)
		for (int j = 0; j < ax->nlayers - 1; j++)
			for (int64_t p = 0; p + 1 < tiles[x]; p++)
				if (overlap_rows(c, a, ax, tiles, x, p, j) > 0)
					return 1;
	return 0;
}

int trim__ft_halo_axis(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles)
{
	int keep = -1;
	for (int x = 0; x < ax->naxes; x++) {
		if (tiles[x] == 1)
			continue;
		int64_t ov = 0;
		for (int j = 0; j < ax->nlayers - 1; j++)
			for (int64_t p = 0; p + 1 < tiles[x]; p++)
				ov += overlap_rows(c, a, ax, tiles, x, p, j);
		if (ov > 0 || ax->padded[x]) {
			if (keep >= 0 || !ov)
				return -1; /* two axes with halos, or padding on another tiled axis */
			keep = x;
		}
	}
	return keep;
}

/* With the halo kept on x, the rows of intermediate j (layer a + j's
 * result) that B holds from tile p to tile p + 1: made in tile p or
 * before, read by layer a + j + 1 in tile p + 1 or after (from the first
 * row it reads in tile p + 1 on: that row only grows); 0 if none, or no
 * such tiles. */
static int64_t kept_rows(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles, int x,
                         int64_t p, int j)
{
	int64_t lo, hi, clo, chi;
	if (p < 0 || p + 1 >= tiles[x] || !trim__ft_tile_rows(c, a, ax, tiles, x, p, j, &lo, &hi) ||
	    !trim__ft_tile_rows(c, a, ax, tiles, x, p + 1, j + 1, &clo, &chi))
		return 0;
	int64_t first = ax->coef[x][j] * clo - ax->pad[x][j];
	if (first < 0)
		first = 0;
	return hi >= first ? hi - first + 1 : 0;
}

int64_t trim__ft_kept_bytes(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles,
                            const int64_t *pos, int i, int word_bits)
{
	const int x = ax->keep - 1;
	if (x < 0)
		return 0;
	int64_t share = 1, bytes = 0;
	for (int k = 0; k < ax->naxes; k++)
		if (k != x)
			share *= tiles[k];
	for (int j = 0; j < ax->nlayers - 1; j++) {
		/* layer a + i's input: what the next tile reads of it lies in
		 * the tile of it that this one reads, in its own mapping */
		if (j == i - 1)
			continue;
		/* read by a layer that ran in this tile: held for the next; else
		 * (its own result included) held from the tile before */
		int64_t rows = kept_rows(c, a, ax, tiles, x, j < i ? pos[x] : pos[x] - 1, j);
		const trim__intra *w = c->layer[a + j];
		int64_t per_row = w->t[2].elems / w->bound[ax->dim[x][j]] / share;
		bytes += (rows * per_row * word_bits + 7) / 8;
	}
	return bytes;
}

/* The zeros of tensor T (its zaxis in the layer's coordinates) seen from a
 * tile whose loop indices start at org: shifted by the tile's first
 * position, clipped to the tile's extent (step 1); has_zeros cleared when
 * every position of the tile is real. */
static void tile_zeros(trim__tensor *T, const int64_t *org)
{
	int real = 1;
	for (int z = 0; z < 2; z++) {
		int k = T->ndims - 2 + z;
		trim__zaxis *Z = &T->zaxis[z];
		int64_t p0 = 0;
		for (int j = 0; j < T->idx[k].nterms; j++)
			p0 += T->idx[k].coef[j] * org[T->idx[k].dim[j]];
		Z->lo -= p0;
		Z->hi -= p0;
		if (Z->step != 1) {
			real = 0;
			continue;
		}
		if (Z->lo < 0)
			Z->lo = 0;
		if (Z->hi > T->extent[k] - 1)
			Z->hi = T->extent[k] - 1;
		real &= Z->lo == 0 && Z->hi == T->extent[k] - 1;
	}
	if (real) {
		T->has_zeros = 0;
		memset(T->zaxis, 0, sizeof T->zaxis);
	}
}

int trim__ft_tile_workload(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles,
                           const int64_t *pos, int i, trim__intra *out, int64_t *origin)
{
	*out = *c->layer[a + i];
	unsigned tiled = 0;
	int64_t org[TRIM_NDIMS] = {0};
	for (int x = 0; x < ax->naxes; x++) {
		int d = ax->dim[x][i];
		if (tiles[x] < 1 || ax->bound[x] % tiles[x] != 0)
			return trim__error(TRIM_EINVAL, "fused tiles: %lld tiles do not divide %c = %lld of layer '%s'",
			                   (long long)tiles[x], "NGMCEFRS"[ax->dim[x][ax->nlayers - 1]],
			                   (long long)ax->bound[x], c->layer[a + ax->nlayers - 1]->layer);
		int64_t p = pos ? pos[x] : 0, lo, hi;
		if (p < 0 || p >= tiles[x] || !trim__ft_tile_rows(c, a, ax, tiles, x, p, i, &lo, &hi))
			return trim__error(TRIM_EINVAL, "fused tiles: tile %lld of %lld on %c of layer '%s' %s",
			                   (long long)p, (long long)tiles[x], "NGMCEFRS"[d], out->layer,
			                   p < 0 || p >= tiles[x] ? "does not exist" : "holds none of its rows");
		if (origin)
			origin[x] = lo;
		org[d] = lo;
		tiled |= 1u << d;
		out->bound[d] = hi - lo + 1;
	}
	for (int t = 0; t < 3; t++) {
		trim__tensor *T = &out->t[t];
		if (!T->present)
			continue;
		unsigned zeros = 0;
		for (int k = 0; k < T->ndims; k++) {
			unsigned on = 0;
			for (int j = 0; j < T->idx[k].nterms; j++)
				on |= 1u << T->idx[k].dim[j];
			if (on & tiled) {
				T->extent[k] = trim__ft_span(&T->idx[k], out->bound);
				zeros |= T->has_zeros && k >= T->ndims - 2;
			}
		}
		if (zeros)
			tile_zeros(T, org);
		trim__tensor_finish(T);
	}
	out->macs = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		out->macs *= out->bound[d];
	out->zero_macs = trim__intra_zero_macs(out);
	trim__intra_act_zero_macs_cache(out);
	return 0;
}

int trim__ft_same_nest(const trim__intra *a, const trim__intra *b)
{
	if (a->kind != b->kind || a->phase != b->phase || memcmp(a->bound, b->bound, sizeof a->bound))
		return 0;
	for (int t = 0; t < 3; t++) {
		const trim__tensor *x = &a->t[t], *y = &b->t[t];
		if (x->present != y->present || x->ndims != y->ndims || x->has_zeros != y->has_zeros)
			return 0;
		if (x->has_zeros && memcmp(x->zaxis, y->zaxis, sizeof x->zaxis))
			return 0;
		for (int k = 0; k < x->ndims; k++) {
			const trim__iexpr *e = &x->idx[k], *f = &y->idx[k];
			if (x->extent[k] != y->extent[k] || e->nterms != f->nterms)
				return 0;
			for (int j = 0; j < e->nterms; j++)
				if (e->dim[j] != f->dim[j] || e->coef[j] != f->coef[j])
					return 0;
		}
	}
	return 1;
}

void trim__ft_group_reserved(const trim__ft_chain *c, int a, int b, int64_t *reserved)
{
	memset(reserved, 0, TRIM__MAX_LEVELS * sizeof *reserved);
	if (c->glb <= 0 || c->glb >= TRIM__MAX_LEVELS)
		return;
	for (int i = a; i <= b; i++)
		if (c->reserved[i] > reserved[c->glb])
			reserved[c->glb] = c->reserved[i];
}
