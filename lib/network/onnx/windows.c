/*
 * Swin's windows (docs/onnx.md, "Windows"): torchvision's shifted window
 * attention works on a channels-last map [N, H, W, C] (LY_NHWC). It is
 *
 *   - padded to whole windows (a Pad by 0 when they fit: free);
 *   - shifted cyclically (torch.roll, exported as two Slices of rows or columns
 *     concatenated back in turn: LY_CUT pieces, whose Concat is the map again,
 *     a re-indexing of its positions at no cost, as a head split is);
 *   - cut into windows of a x b ([N, H/a, a, W/b, b, C] (LY_WIN), permuted to
 *     [N, H/a, W/b, a, b, C] (LY_WIN_T), viewed as [N nW, a b, C]: tokens with
 *     the atoms N w | T | F, tokens.c), and merged back the same way.
 *
 * The Linear layers and the LayerNorms read every position alike: on the
 * windows' tokens they see the map, libtrim's [H, W, C]. Attention's two
 * products are batched over the windows and the heads: a matmul with heads =
 * windows x heads on [a b, 1, windows x C] (the "window form"). Where a value
 * goes from one form to the other a `reshape` layer (data movement: the
 * partition PyTorch copies too) is made, named after the node that needs it.
 *
 * Patch merging (x[..., 0::2, 0::2, :] and the three other phases
 * concatenated along the channels) is a space-to-depth: a `reshape` of
 * [H, W, C] to [H/2, W/2, 4 C].
 */
#include <stdio.h>
#include <string.h>

#include "translate_int.h"

int trim__ox_win_shape(const val *x, int64_t *s)
{
	const int64_t *d = x->d;
	switch (x->layout) {
	case LY_WIN: s[0] = d[1] * d[2], s[1] = d[3] * d[4], s[2] = d[5]; return 0;
	case LY_WIN_T: s[0] = d[1] * d[3], s[1] = d[2] * d[4], s[2] = d[5]; return 0;
	case LY_CUT: s[0] = d[1], s[1] = d[2], s[2] = d[3]; return 0;
	default: return -1;
	}
}

/* libtrim's shape of tokens with windows in the window form or as the map. */
static void form_shape(const tok_atoms *a, int windows, int64_t *s)
{
	int64_t rest = 1, w = trim__ox_tok_size(a, 'w');
	for (int k = 0; k < a->nax; k++)
		for (const char *c = a->ax[k]; *c; c++)
			if (*c != 'N' && *c != 'T' && *c != 'w')
				rest *= a->size[strchr(TOK_ATOMS, *c) - TOK_ATOMS];
	if (windows)
		s[0] = trim__ox_tok_size(a, 'T'), s[1] = 1, s[2] = (w ? w : 1) * rest;
	else
		s[0] = a->map[0], s[1] = a->map[1], s[2] = rest;
}

int trim__ox_win_layer(tr *t, int x, int windows, int *layer)
{
	const val X = t->v[x];
	*layer = X.layer;
	if (X.layout != LY_TOK || !X.at.map[0] || !X.at.win_form == !windows)
		return 0;
	int64_t s[3];
	form_shape(&X.at, windows, s);
	char hint[TRIM__NAME_LEN_ONNX]; /* after the layer it reads: q.windows, context.map */
	snprintf(hint, sizeof hint, "%.48s.%s", X.layer >= 0 ? t->l[X.layer].name : NODE_NAME(t->node),
	         windows ? "windows" : "map");
	int rc = trim__ox_new_layer(t, "reshape", hint, &x, 1, layer);
	if (rc)
		return rc;
	trim__ox_extra(t, *layer, ", shape: [%lld, %lld, %lld]", (long long)s[0], (long long)s[1],
	               (long long)s[2]);
	return 0;
}

static int view(tr *t, int x, int layer, int layout, int nd, const int64_t *d, const tok_atoms *a)
{
	val like = t->v[x];
	like.layout = layout;
	like.nd = nd;
	memcpy(like.d, d, (size_t)nd * sizeof *d);
	if (a)
		like.at = *a;
	int vi = -1, rc = trim__ox_out_like(t, 0, layer, &like, &vi);
	if (rc == 0 && layer == t->v[x].layer)
		t->v[vi].base = t->v[x].base;
	return rc;
}

/* The window partition and its reverse, as Reshapes: free views. */
int trim__ox_win_reshape(tr *t, int x, size_t n, const int64_t *d, int *done)
{
	const val X = t->v[x];
	const int64_t *e = X.d;
	*done = 1;
	/* [N, H, W, C] -> [N, H/a, a, W/b, b, C] */
	if (X.layout == LY_NHWC && n == 6 && d[0] == e[0] && d[1] * d[2] == e[1] && d[3] * d[4] == e[2] &&
	    d[5] == e[3])
		return view(t, x, X.layer, LY_WIN, 6, d, NULL);
	/* [N, H/a, a, W/b, b, C] -> [N, H, W, C] */
	if (X.layout == LY_WIN && n == 4 && d[0] == e[0] && d[1] == e[1] * e[2] && d[2] == e[3] * e[4] &&
	    d[3] == e[5])
		return view(t, x, X.layer, LY_NHWC, 4, d, NULL);
	/* [N, H/a, W/b, a, b, C] -> [N nW, a b, C]: tokens of windows */
	if (X.layout == LY_WIN_T && n == 3 && d[0] == e[0] * e[1] * e[2] && d[1] == e[3] * e[4] &&
	    d[2] == e[5]) {
		tok_atoms a = {.nax = 3, .ax = {"Nw", "T", "F"}};
		a.size[0] = e[0], a.size[1] = d[1], a.size[3] = d[2], a.size[6] = e[1] * e[2];
		a.map[0] = e[1] * e[3], a.map[1] = e[2] * e[4];
		return view(t, x, X.layer, LY_TOK, 3, d, &a);
	}
	/* [N nW, a b, C] -> [N, H/a, W/b, a, b, C]: the windows merged back (as the map) */
	if (X.layout == LY_TOK && X.at.map[0] && X.at.nax == 3 && n == 6 && d[0] == X.at.size[0] &&
	    d[1] * d[2] == (trim__ox_tok_size(&X.at, 'w') ? trim__ox_tok_size(&X.at, 'w') : 1) &&
	    d[3] * d[4] == trim__ox_tok_size(&X.at, 'T') && d[1] * d[3] == X.at.map[0] &&
	    d[2] * d[4] == X.at.map[1] && d[5] == e[2] && trim__ox_tok_is_features(&X, 2)) {
		int layer, rc = trim__ox_win_layer(t, x, 0, &layer);
		if (rc)
			return rc;
		return view(t, x, layer, LY_WIN_T, 6, d, NULL);
	}
	*done = 0;
	return 0;
}

/* Rows and columns of a channels-last map (a Slice): a piece only a Concat reads. */
int trim__ox_win_cut(tr *t, int x, const int64_t *lo, const int64_t *step, const int64_t *out,
                     int *done)
{
	const val X = t->v[x];
	*done = 0;
	if ((X.layout != LY_NHWC && X.layout != LY_CUT) || X.nd != 4 || out[0] != X.d[0] ||
	    out[3] != X.d[3] || step[0] != 1 || step[3] != 1 || step[1] < 1 || step[2] < 1)
		return 0;
	val like = X;
	like.layout = LY_CUT;
	for (int k = 0; k < 2; k++) {
		int64_t first = X.layout == LY_CUT ? X.cut[k][0] : 0, by = X.layout == LY_CUT ? X.cut[k][1] : 1;
		like.cut[k][0] = first + lo[k + 1] * by;
		like.cut[k][1] = by * step[k + 1];
		like.d[k + 1] = out[k + 1];
	}
	like.src = X.layout == LY_CUT ? X.src : x;
	int vi = -1, rc = trim__ox_out_like(t, 0, X.layer, &like, &vi);
	if (rc)
		return rc;
	t->v[vi].cut[0][0] = like.cut[0][0], t->v[vi].cut[0][1] = like.cut[0][1];
	t->v[vi].cut[1][0] = like.cut[1][0], t->v[vi].cut[1][1] = like.cut[1][1];
	t->v[vi].src = like.src;
	*done = 1;
	return 0;
}

/* Does piece P take every row (k = 0) or column (1) of its source, dims full? */
static int whole(const val *P, const val *S, int k)
{
	return P->cut[k][0] == 0 && P->cut[k][1] == 1 && P->d[k + 1] == S->d[k + 1];
}

/* Concat of pieces of one map: a cyclic shift along rows or columns (the map
 * again, free), or the four phases of every other row and column along the
 * channels (patch merging: a `reshape` to [H/2, W/2, 4 C]). */
int trim__ox_win_concat(tr *t, const int *in, int m, int64_t axis)
{
	const val *S = NULL;
	for (int k = 0; k < m; k++) {
		const val *P = &t->v[in[k]];
		/* a piece is an activation's rows or columns (a constant taken for one,
		 * or a piece whose map is unknown, is not) */
		int cut = P->layout == LY_CUT && !P->t && P->src >= 0 && (size_t)P->src < t->nv;
		if (!cut || (S && t->v[P->src].base != S->base))
			return trim__ox_node_err(t, TRIM_ESCHEMA, "a concatenation of rows or columns of a "
			                         "channels-last map is supported as a cyclic shift (torch.roll) "
			                         "or patch merging, of pieces of one map");
		S = &t->v[P->src];
	}
	if (m == 2 && (axis == 1 || axis == 2)) {
		int k = (int)axis - 1;
		const val *A = &t->v[in[0]], *B = &t->v[in[1]];
		int64_t D = S->d[axis];
		int other = 1 - k;
		if (A->cut[k][1] == 1 && B->cut[k][1] == 1 && A->d[axis] + B->d[axis] == D &&
		    B->cut[k][0] == (A->cut[k][0] + A->d[axis]) % D &&
		    A->cut[k][0] == (B->cut[k][0] + B->d[axis]) % D && whole(A, S, other) && whole(B, S, other)) {
			int src = A->src;
			val like = t->v[src];
			int vi = -1, rc = trim__ox_out_like(t, 0, like.layer, &like, &vi);
			if (rc == 0)
				t->v[vi].base = like.base;
			return rc;
		}
	}
	if (m == 4 && axis == 3) {
		unsigned phases = 0;
		for (int k = 0; k < 4; k++) {
			const val *P = &t->v[in[k]];
			int ok = P->cut[0][1] == 2 && P->cut[1][1] == 2 && P->cut[0][0] < 2 && P->cut[1][0] < 2 &&
			         2 * P->d[1] == S->d[1] && 2 * P->d[2] == S->d[2];
			if (ok)
				phases |= 1u << (P->cut[0][0] * 2 + P->cut[1][0]);
		}
		if (phases == 15u) {
			int src = t->v[in[0]].src, li = -1, vi = -1, rc;
			int64_t d[4] = {S->d[0], S->d[1] / 2, S->d[2] / 2, 4 * S->d[3]};
			if ((rc = trim__ox_new_layer(t, "reshape", NODE_NAME(t->node), &src, 1, &li)))
				return rc;
			trim__ox_extra(t, li, ", shape: [%lld, %lld, %lld]", (long long)d[1], (long long)d[2],
			               (long long)d[3]);
			return trim__ox_out_val(t, 0, li, LY_NHWC, 4, d, &vi);
		}
	}
	return trim__ox_node_err(t, TRIM_ESCHEMA, "a concatenation of rows or columns of a "
	                         "channels-last map is supported as a cyclic shift (torch.roll: the two "
	                         "pieces of the rows or of the columns, in turn) or patch merging (every "
	                         "other row and column, four phases along the channels)");
}

/* Pad of an activation: free where it pads nothing (Swin at 224 x 224); zeros
 * around the rows and columns of a map a `zeropad2d` (Swin pads its map to whole
 * windows, and to an even size before patch merging, at sizes they do not divide). */
int trim__ox_pad(tr *t)
{
	int x, p, v = -1, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) ||
	    (rc = trim__ox_need_act(t, x, "data")))
		return rc;
	int64_t pads[16];
	double value = 0;
	size_t n = 0, nv = 0;
	if (t->opset < 11) {
		n = trim__ox_attr_ints(t->node, "pads", pads, 16);
		value = trim__ox_attr_float(t->node, "value", 0);
	} else {
		if ((rc = trim__ox_input_val(t, 1, &p)))
			return rc;
		if (p < 0)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "needs pads");
		if ((rc = trim__ox_need_static(t, p, "pads", 1)) ||
		    (rc = trim__ox_static_ints(t, &t->v[p], pads, 16, &n)))
			return rc;
		if (t->node->n_input > 2 && (rc = trim__ox_input_val(t, 2, &v)))
			return rc;
		if (v >= 0 && trim__ox_numel(&t->v[v]) > 0 &&
		    (rc = trim__ox_static_floats(t, &t->v[v], &value, 1, &nv)))
			return rc;
	}
	const val X = t->v[x];
	int any = 0;
	for (size_t k = 0; k < n; k++)
		any |= pads[k] != 0;
	if (!any)
		return trim__ox_alias(t, x, t->v[x].pat, t->v[x].src);
	char mode[32];
	const char *md = trim__ox_attr_str(t->node, "mode", mode, sizeof mode);
	int rows = X.layout == LY_NHWC ? 1 : 2; /* the axis of the rows; the columns next */
	int map = (X.layout == LY_NHWC || X.layout == LY_NCHW) && X.nd == 4 && n == 8;
	for (size_t k = 0; map && k < 8; k++) {
		int axis = (int)(k % 4);
		if (pads[k] < 0 || ((axis != rows && axis != rows + 1) && pads[k] != 0))
			map = 0;
	}
	if (!map)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "pads: a Pad of an activation is supported around "
		                         "the rows and columns of a map ([N, C, H, W] or channels last), by "
		                         "0, or where it pads nothing; a convolution's and a pool's own pads "
		                         "are costed");
	if (md && strcmp(md, "constant"))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "a Pad by %s is not zero padding (mode constant, "
		                         "value 0)", md);
	if (value != 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "a Pad by the value %g is not zero padding (mode "
		                         "constant, value 0)", value);
	int li = -1, vi = -1;
	if ((rc = trim__ox_new_layer(t, "zeropad2d", NODE_NAME(t->node), &x, 1, &li)))
		return rc;
	trim__ox_extra(t, li, ", padding: [[%lld, %lld], [%lld, %lld]]", (long long)pads[rows],
	               (long long)pads[rows + 4], (long long)pads[rows + 1], (long long)pads[rows + 5]);
	val like = X;
	like.d[rows] += pads[rows] + pads[rows + 4];
	like.d[rows + 1] += pads[rows + 1] + pads[rows + 5];
	return trim__ox_out_like(t, 0, li, &like, &vi);
}

/* Value vi, rows and columns of a channels-last map (LY_CUT) with step 1, read by
 * a node other than a Concat: the map with its borders cut off, a `cropping2d`
 * (Swin takes its padded map back to H x W), made in place. */
int trim__ox_win_crop(tr *t, int vi)
{
	const val P = t->v[vi];
	if (P.src < 0 || (size_t)P.src >= t->nv)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "input '%s' is rows or columns of a map that is not "
		                         "an activation", P.name ? P.name : "?");
	if (P.layout != LY_CUT || P.cut[0][1] != 1 || P.cut[1][1] != 1)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "input '%s' is rows or columns of a channels-last "
		                         "map taken every other one (a Slice with a step), which only a Concat "
		                         "may read (patch merging)", P.name ? P.name : "?");
	int src = P.src, li = -1;
	const val S = t->v[src];
	char hint[TRIM__NAME_LEN_ONNX];
	snprintf(hint, sizeof hint, "%.60s", P.node && P.node->name ? P.node->name : NODE_NAME(t->node));
	int rc = trim__ox_new_layer(t, "cropping2d", hint, &src, 1, &li);
	if (rc)
		return rc;
	if (P.node)
		t->l[li].node = P.node;
	trim__ox_extra(t, li, ", cropping: [[%lld, %lld], [%lld, %lld]]", (long long)P.cut[0][0],
	               (long long)(S.d[1] - P.cut[0][0] - P.d[1]), (long long)P.cut[1][0],
	               (long long)(S.d[2] - P.cut[1][0] - P.d[2]));
	val *V = &t->v[vi];
	V->layer = li;
	V->layout = LY_NHWC;
	V->base = vi;
	memset(V->cut, 0, sizeof V->cut);
	return 0;
}
