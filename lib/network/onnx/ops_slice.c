/*
 * ONNX Slice: the range arithmetic (shared with fold.c, which slices static
 * tensors) and Slice of an activation, docs/onnx.md: along the features (the
 * last axis of tokens, the channels of a map) it is a `split` layer taking
 * the sliced piece; a slice that takes a whole axis is free.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "translate_int.h"

int trim__ox_slice_range(tr *t, int nd, const int64_t *d, const int64_t *starts, const int64_t *ends,
                         const int64_t *axes, const int64_t *steps, size_t n, int64_t *lo,
                         int64_t *step, int64_t *out)
{
	for (int k = 0; k < nd; k++)
		lo[k] = 0, step[k] = 1, out[k] = d[k];
	for (size_t q = 0; q < n; q++) {
		int64_t ax = axes ? axes[q] : (int64_t)q;
		if (ax < -nd || ax >= nd)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "axis %lld out of range for %d dims",
			                         (long long)ax, nd);
		if (ax < 0)
			ax += nd;
		int64_t dim = d[ax], st = steps ? steps[q] : 1, s = starts[q], e = ends[q];
		if (st == 0)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "step 0");
		/* negative positions count from the end; then clamped to [0, dim] going
		 * forward, [-1, dim - 1] going backward (ONNX's Slice) */
		if (s < 0)
			s = s < -dim ? -1 : s + dim;
		if (e < 0)
			e = e < -dim ? -1 : e + dim;
		if (st > 0) {
			s = s < 0 ? 0 : s > dim ? dim : s;
			e = e < 0 ? 0 : e > dim ? dim : e;
		} else {
			s = s > dim - 1 ? dim - 1 : s;
			e = e > dim - 1 ? dim - 1 : e;
		}
		/* the positions s, s + st, ... before e: ceil(|e - s| / |st|) (|st| as
		 * unsigned: a step of INT64_MIN or INT64_MAX is one position) */
		int64_t span = st > 0 ? e - s : s - e;
		uint64_t mag = st > 0 ? (uint64_t)st : 0u - (uint64_t)st;
		int64_t cnt = span > 0 ? (int64_t)(((uint64_t)span - 1) / mag + 1) : 0;
		lo[ax] = s, step[ax] = st, out[ax] = cnt;
	}
	return 0;
}

/* One piece of x along its features (channels) or tokens (rows): a `split`
 * layer with the sizes [before, the piece, after] (those above 0). */
static int piece(tr *t, int x, int axis, int rows, int64_t lo, int64_t cnt)
{
	const val X = t->v[x];
	int64_t sizes[3], ns = 0, index, rest = X.d[axis] - lo - cnt;
	if (lo > 0)
		sizes[ns++] = lo;
	index = ns;
	sizes[ns++] = cnt;
	if (rest > 0)
		sizes[ns++] = rest;
	int li = -1, vi = -1, rc;
	if ((rc = trim__ox_new_layer(t, "split", NODE_NAME(t->node), &x, 1, &li)))
		return rc;
	trim__ox_extra(t, li, "%s, sizes: [", rows ? ", axis: 1" : "");
	for (int64_t q = 0; q < ns; q++)
		trim__ox_extra(t, li, "%s%lld", q ? ", " : "", (long long)sizes[q]);
	trim__ox_extra(t, li, "], index: %lld", (long long)index);
	if (axis == X.nd - 1 && X.layout != LY_NCHW)
		return trim__ox_tok_features(t, 0, li, x, cnt, &vi);
	val like = X;
	like.d[axis] = cnt;
	return trim__ox_out_like(t, 0, li, &like, &vi);
}

int trim__ox_slice(tr *t)
{
	int x, rc, in[4];
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) ||
	    (rc = trim__ox_need_act(t, x, "data")))
		return rc;
	int64_t arg[4][8];
	size_t na[4] = {0, 0, 0, 0};
	if (t->opset < 10) {
		static const char *const names[] = {"starts", "ends", "axes"};
		for (int k = 0; k < 3; k++)
			na[k] = trim__ox_attr_ints(t->node, names[k], arg[k], 8);
	} else {
		for (int k = 0; k < 4; k++) {
			if ((rc = trim__ox_input_val(t, (size_t)k + 1, &in[k])))
				return rc;
			if (in[k] >= 0 && (rc = trim__ox_static_ints(t, &t->v[in[k]], arg[k], 8, &na[k])))
				return rc;
		}
	}
	if (na[0] != na[1] || (na[2] && na[2] != na[0]) || (na[3] && na[3] != na[0]))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "starts, ends, axes and steps of different lengths");
	const val X = t->v[x];
	int64_t lo[8], step[8], out[8];
	if ((rc = trim__ox_slice_range(t, X.nd, X.d, arg[0], arg[1], na[2] ? arg[2] : NULL,
	                               na[3] ? arg[3] : NULL, na[0], lo, step, out)))
		return rc;
	int axis = -1, changed = 0;
	for (int k = 0; k < X.nd; k++)
		if (out[k] != X.d[k] || step[k] != 1)
			axis = k, changed++;
	if (changed == 0)
		return trim__ox_alias(t, x, P_NONE, -1); /* the whole tensor */
	if (changed == 1 && step[axis] == 1 && out[axis] > 0 && X.layout != LY_CUT) {
		if (axis == X.nd - 1 && trim__ox_tok_is_features(&X, axis))
			return piece(t, x, axis, 0, lo[axis], out[axis]);
		if (X.layout == LY_NCHW && axis == 1)
			return piece(t, x, axis, 0, lo[axis], out[axis]);
		if (X.layout == LY_NTF && axis == 1)
			return piece(t, x, axis, 1, lo[axis], out[axis]);
	}
	int done = 0; /* rows and columns of a channels-last map: Swin's (windows.c) */
	if ((rc = trim__ox_win_cut(t, x, lo, step, out, &done)) || done)
		return rc;
	return trim__ox_node_err(t, TRIM_ESCHEMA, "Slice of an activation is supported along its "
	                         "features (the last axis of tokens, the channels of a map) or its "
	                         "tokens, with step 1, and along the rows and columns of a "
	                         "channels-last map (Swin's cyclic shift and patch merging)");
}
