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

/* The extent of an index expression over the loop bounds b: the distinct
 * values sum coef_k d_k takes (coefficients >= 0: its span plus one). */
static int64_t span(const trim__iexpr *e, const int64_t *b)
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

int trim__ft_chain_check(const trim__ft_chain *c)
{
	if (c->nlayers < 1 || c->nlayers > TRIM__FT_MAX_LAYERS)
		return trim__error(TRIM_ERANGE, "fused tiles: a chain has 1 to %d layers, not %d", TRIM__FT_MAX_LAYERS,
		                   c->nlayers);
	for (int i = 0; i < c->nlayers; i++)
		if (c->layer[i]->phase != TRIM_PHASE_FW)
			return trim__error(TRIM_EINVAL, "fused tiles: layer '%s' is a %s workload; only FW chains fuse",
			                   c->layer[i]->layer, trim_phase_name(c->layer[i]->phase));
	for (int i = 0; i + 1 < c->nlayers; i++) {
		const trim__tensor *out = &c->layer[i]->t[2], *in = &c->layer[i + 1]->t[0];
		int same = out->present && in->present && out->ndims == in->ndims && !in->has_zeros;
		for (int k = 0; same && k < out->ndims; k++)
			same = out->extent[k] == in->extent[k];
		if (!same) {
			char so[96], si[96];
			shape_str(out, so, sizeof so);
			shape_str(in, si, sizeof si);
			return trim__error(TRIM_ESHAPE,
			                   "fused tiles: layer '%s' does not read layer '%s''s result as it is: "
			                   "%s %s against %s %s%s",
			                   c->layer[i + 1]->layer, c->layer[i]->layer, out->name, so, in->name, si,
			                   in->has_zeros ? " (its input is padded)" : "");
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

/* 1 if tiling dim d of w leaves every tile a translate of the others: d is
 * on no axis with padding zeros, and every axis it is on spans exactly the
 * tensor's extent (no padding counted in it). */
static int tileable(const trim__intra *w, int d)
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
			if (T->has_zeros && k >= T->ndims - 2)
				return 0;
			if (span(e, w->bound) != T->extent[k])
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

void trim__ft_group_axes(const trim__ft_chain *c, int a, int b, trim__ft_axes *ax)
{
	memset(ax, 0, sizeof *ax);
	ax->nlayers = b - a + 1;
	const trim__intra *first = c->layer[a];
	const trim__tensor *out0 = &first->t[2];
	for (int k0 = 0; k0 < out0->ndims && ax->naxes < TRIM__FT_MAX_AXES; k0++) {
		int64_t coef = 0;
		int d = single_dim(first, &out0->idx[k0], &coef);
		if (d < 0 || coef != 1 || !tileable(first, d))
			continue;
		int x = ax->naxes;
		ax->dim[x][0] = d;
		int k = k0, ok = 1;
		for (int i = a + 1; i <= b && ok; i++) {
			const trim__intra *w = c->layer[i];
			int64_t window = 0;
			int dn = input_link(w, k, &coef, &window);
			/* the producer's rows are exactly what the consumer's window
			 * reaches over its whole bound (tileable: no padding, no rows
			 * left over by a stride) */
			ok = dn >= 0 && tileable(w, dn) &&
			     coef * (w->bound[dn] - 1) + window + 1 == c->layer[i - 1]->bound[ax->dim[x][i - a - 1]];
			if (ok) {
				k = result_position(w, dn);
				ok = k >= 0;
				ax->dim[x][i - a] = dn;
				ax->coef[x][i - a - 1] = coef;
				ax->window[x][i - a - 1] = window;
			}
		}
		if (!ok)
			continue;
		ax->bound[x] = c->layer[b]->bound[ax->dim[x][b - a]];
		ax->naxes++;
	}
	/* what a rejected candidate left behind */
	for (int x = ax->naxes; x < TRIM__FT_MAX_AXES; x++) {
		memset(ax->dim[x], 0, sizeof ax->dim[x]);
		memset(ax->coef[x], 0, sizeof ax->coef[x]);
		memset(ax->window[x], 0, sizeof ax->window[x]);
	}
}

int trim__ft_tile_workload(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles,
                           int i, trim__intra *out, int64_t *step)
{
	*out = *c->layer[a + i];
	unsigned tiled = 0;
	for (int x = 0; x < ax->naxes; x++) {
		int d = ax->dim[x][i];
		if (tiles[x] < 1 || ax->bound[x] % tiles[x] != 0)
			return trim__error(TRIM_EINVAL, "fused tiles: %lld tiles do not divide %c = %lld of layer '%s'",
			                   (long long)tiles[x], "NGMCEFRS"[ax->dim[x][ax->nlayers - 1]],
			                   (long long)ax->bound[x], c->layer[a + ax->nlayers - 1]->layer);
		/* back from the last layer's tile through the links */
		int64_t t = ax->bound[x] / tiles[x], st = t;
		for (int j = ax->nlayers - 2; j >= i; j--) {
			t = ax->coef[x][j] * (t - 1) + ax->window[x][j] + 1;
			st *= ax->coef[x][j];
		}
		if (step)
			step[x] = st;
		if (t != out->bound[d])
			tiled |= 1u << d;
		out->bound[d] = t;
	}
	for (int t = 0; t < 3; t++) {
		trim__tensor *T = &out->t[t];
		if (!T->present)
			continue;
		for (int k = 0; k < T->ndims; k++) {
			unsigned on = 0;
			for (int j = 0; j < T->idx[k].nterms; j++)
				on |= 1u << T->idx[k].dim[j];
			if (on & tiled)
				T->extent[k] = span(&T->idx[k], out->bound);
		}
		trim__tensor_finish(T);
	}
	out->macs = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		out->macs *= out->bound[d];
	out->zero_macs = trim__intra_zero_macs(out);
	trim__intra_act_zero_macs_cache(out);
	return 0;
}
