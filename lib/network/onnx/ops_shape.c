/*
 * ONNX operators that move or reshape data: Flatten, Reshape, Transpose,
 * Squeeze / Unsqueeze of activations, Concat, Split, Gather (embedding), Resize /
 * Upsample, Dropout, Constant,
 * docs/onnx.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

int trim__ox_flatten(tr *t)
{
	int x, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) || (rc = trim__ox_need_act(t, x, "input")))
		return rc;
	/* a copy: the output's value may move t->v (trim__grow) */
	const val X = t->v[x];
	int64_t axis = trim__ox_attr_int(t->node, "axis", 1);
	if (axis != 1)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "Flatten with axis %lld (only 1: keep the batch)",
		                (long long)axis);
	int64_t s[3];
	trim__ox_lt_shape(&X, s);
	int64_t d[2] = {X.d[0], s[0] * s[1] * s[2]};
	if (X.layout == LY_NF || (X.layout == LY_NCHW && s[0] == 1 && s[1] == 1)) {
		int vi = -1;
		if ((rc = trim__ox_out_val(t, 0, X.layer, LY_NF, 2, d, &vi)))
			return rc;
		t->v[vi].base = X.base;
		return 0;
	}
	if (X.layout != LY_NCHW)
		return trim__ox_node_err(t, TRIM_ESHAPE, "Flatten of this tensor is not supported");
	int li = -1, vi = -1;
	if ((rc = trim__ox_new_layer(t, "flatten", NODE_NAME(t->node), &x, 1, &li)))
		return rc;
	return trim__ox_out_val(t, 0, li, LY_NF, 2, d, &vi);
}

static int view(tr *t, int x, int layout, int nd, const int64_t *d)
{
	int vi = -1, rc = trim__ox_out_val(t, 0, t->v[x].layer, layout, nd, d, &vi);
	if (rc == 0)
		t->v[vi].base = t->v[x].base;
	return rc;
}

static int reshape_to(tr *t, int x, size_t n, const int64_t *d);

int trim__ox_reshape(tr *t)
{
	int x, sh, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_input_val(t, 1, &sh)))
		return rc;
	if ((rc = trim__ox_settle(t, x, &x)) || (rc = trim__ox_need_act(t, x, "data")) ||
	    (rc = trim__ox_need_static(t, sh, "shape", 1)))
		return rc;
	const val X_copy = t->v[x], *X = &X_copy;
	int64_t d[8];
	size_t n;
	if ((rc = trim__ox_static_ints(t, &t->v[sh], d, 8, &n)))
		return rc;
	int64_t total = trim__ox_numel(X), known = 1;
	int unknown = -1;
	for (size_t k = 0; k < n; k++) {
		if (d[k] == 0 && k < (size_t)X->nd)
			d[k] = X->d[k];
		if (d[k] == -1 && unknown < 0)
			unknown = (int)k;
		else if (d[k] < 1 || d[k] > INT32_MAX || __builtin_mul_overflow(known, d[k], &known))
			return trim__ox_node_err(t, TRIM_ESHAPE, "shape value %lld out of range",
			                         (long long)d[k]);
	}
	if (unknown >= 0)
		d[unknown] = total / known;
	int64_t got = 1;
	for (size_t k = 0; k < n; k++)
		if (__builtin_mul_overflow(got, d[k], &got))
			got = -1;
	if (got != total)
		return trim__ox_node_err(t, TRIM_ESHAPE, "reshape to %zu dims of %lld elements from %lld",
		                         n, (long long)got, (long long)total);
	return reshape_to(t, x, n, d);
}

/* Output 0 of the node is x with the ONNX dims d (as many elements). */
static int reshape_to(tr *t, int x, size_t n, const int64_t *d)
{
	const val X_copy = t->v[x], *X = &X_copy;
	int L = X->layout, same_batch = d[0] == X->d[0], done = 0, rc;
	if ((rc = trim__ox_win_reshape(t, x, n, d, &done)) || done) /* Swin's windows */
		return rc;
	if (same_batch && L == LY_NTF && n == 4 && d[1] == X->d[1] && d[2] * d[3] == X->d[2])
		return view(t, x, LY_NTHD, 4, d); /* split heads */
	if (same_batch && L == LY_NTHD && n == 3 && d[1] == X->d[1])
		return view(t, x, LY_NTF, 3, d); /* merge heads */
	if (same_batch && L == LY_NCHW && n == 2 && X->d[2] == 1 && X->d[3] == 1)
		return view(t, x, LY_NF, 2, d);
	if (same_batch && L == LY_NCHW && n == 3 && d[1] == X->d[1])
		return view(t, x, LY_NCT, 3, d); /* [N, C, H W]: tokens after a transpose */
	if (same_batch && (L == LY_NTF || L == LY_NF) && (n == 2 || n == 3)) {
		int li = -1, vi = -1;
		if ((rc = trim__ox_new_layer(t, "reshape", NODE_NAME(t->node), &x, 1, &li)))
			return rc;
		if (n == 2)
			trim__ox_extra(t, li, ", shape: [1, 1, %lld]", (long long)d[1]);
		else
			trim__ox_extra(t, li, ", shape: [%lld, 1, %lld]", (long long)d[1], (long long)d[2]);
		return trim__ox_out_val(t, 0, li, n == 2 ? LY_NF : LY_NTF, (int)n, d, &vi);
	}
	/* heads split and merged in another order (torch.nn's [T, N h, d], [T N, F]) */
	if ((rc = trim__ox_tok_reshape(t, x, n, d, &done)) || done)
		return rc;
	if (!same_batch)
		return trim__ox_node_err(t, TRIM_ESHAPE, "reshape of %d dims (first %lld) to %zu dims "
		                         "(first %lld): the batch must stay first, or the tensor be "
		                         "tokens whose heads, tokens and batch regroup", X->nd,
		                         (long long)X->d[0], n, (long long)d[0]);
	return trim__ox_node_err(t, TRIM_ESHAPE, "a reshape of this layout is not supported");
}

/* Squeeze and Unsqueeze of an activation: a reshape that drops or inserts axes of
 * size 1 (timm's qkv.unbind(0) exports Split then Squeeze). The axes come from the
 * attribute before opset 13, from input 1 after. */
int trim__ox_squeeze(tr *t, int unsqueeze)
{
	int x, ax = -1, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) ||
	    (rc = trim__ox_need_act(t, x, "data")))
		return rc;
	const val X = t->v[x];
	int64_t axes[8];
	size_t na = trim__ox_attr_ints(t->node, "axes", axes, 8);
	if (na == 0 && t->node->n_input > 1 && (rc = trim__ox_input_val(t, 1, &ax)) == 0 && ax >= 0 &&
	    (rc = trim__ox_static_ints(t, &t->v[ax], axes, 8, &na)))
		return rc;
	if (rc)
		return rc;
	int out_nd = unsqueeze ? X.nd + (int)na : X.nd;
	if (unsqueeze && na == 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "Unsqueeze needs axes");
	if (out_nd > 8)
		return trim__ox_node_err(t, TRIM_ESHAPE, "more than 8 dims");
	int mark[8] = {0};
	for (size_t k = 0; k < na; k++) {
		int64_t a = axes[k] < 0 ? axes[k] + out_nd : axes[k];
		if (a < 0 || a >= out_nd || mark[a])
			return trim__ox_node_err(t, TRIM_ESCHEMA, "axis %lld out of range or repeated",
			                         (long long)axes[k]);
		if (!unsqueeze && X.d[a] != 1)
			return trim__ox_node_err(t, TRIM_ESHAPE, "axis %lld has %lld elements, not 1",
			                         (long long)axes[k], (long long)X.d[a]);
		mark[a] = 1;
	}
	int64_t d[8];
	size_t n = 0;
	for (int k = 0, from = 0; k < out_nd; k++) {
		if (unsqueeze)
			d[n++] = mark[k] ? 1 : X.d[from++];
		else if (na ? !mark[k] : X.d[k] != 1)
			d[n++] = X.d[k];
	}
	if (n == 0)
		return trim__ox_node_err(t, TRIM_ESHAPE, "squeezes every axis");
	return reshape_to(t, x, n, d);
}

int trim__ox_transpose(tr *t)
{
	int x, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) || (rc = trim__ox_need_act(t, x, "data")))
		return rc;
	val *X = &t->v[x];
	int64_t p[8];
	size_t n = trim__ox_attr_ints(t->node, "perm", p, 8);
	unsigned seen = 0;
	for (size_t k = 0; k < n; k++)
		if (p[k] < 0 || p[k] >= (int64_t)n || (seen >> p[k] & 1u))
			n = 0; /* not a permutation */
		else
			seen |= 1u << p[k];
	if (n != (size_t)X->nd)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "perm must be a permutation of the %d axes",
		                         X->nd);
	if (p[0] != 0) { /* tokens whose batch moves (torch.nn's [T, N, F]) */
		int done = 0;
		if ((rc = trim__ox_tok_transpose(t, x, p, n, &done)) || done)
			return rc;
		return trim__ox_node_err(t, TRIM_ESCHEMA, "perm must keep the batch first, except "
		                         "for tokens (attention's heads)");
	}
	int64_t d[8];
	for (size_t k = 0; k < n; k++)
		d[k] = X->d[p[k]];
	int L = X->layout;
	if (L == LY_NTHD && p[1] == 2 && p[2] == 1 && p[3] == 3)
		return view(t, x, LY_HEADS, 4, d);
	if (L == LY_NTHD && p[1] == 2 && p[2] == 3 && p[3] == 1)
		return view(t, x, LY_HEADS_T, 4, d);
	if (L == LY_HEADS && p[1] == 2 && p[2] == 1 && p[3] == 3)
		return view(t, x, LY_NTHD, 4, d);
	if (L == LY_HEADS && p[1] == 1 && p[2] == 3 && p[3] == 2)
		return view(t, x, LY_HEADS_T, 4, d);
	if (L == LY_NCL && n == 3 && p[1] == 2 && p[2] == 1)
		return view(t, x, LY_NTF, 3, d); /* [N, C, L] -> [N, L, C]: the same [L, 1, C] */
	if (L == LY_NCT && n == 3 && p[1] == 2 && p[2] == 1) {
		/* [N, C, H W] -> [N, H W, C]: in channels-last order a reshape (a view) */
		int li = -1, vi = -1;
		if ((rc = trim__ox_new_layer(t, "reshape", NODE_NAME(t->node), &x, 1, &li)))
			return rc;
		trim__ox_extra(t, li, ", shape: [%lld, 1, %lld]", (long long)d[1], (long long)d[2]);
		return trim__ox_out_val(t, 0, li, LY_NTF, 3, d, &vi);
	}
	/* [N, C, H, W] <-> [N, H, W, C] (torchvision's Permute around a channels-last
	 * LayerNorm or Linear): libtrim's maps are [H, W, C] either way, a view */
	if (L == LY_NCHW && n == 4 && p[1] == 2 && p[2] == 3 && p[3] == 1)
		return view(t, x, LY_NHWC, 4, d);
	if (L == LY_NHWC && n == 4 && p[1] == 3 && p[2] == 1 && p[3] == 2)
		return view(t, x, LY_NCHW, 4, d);
	/* Swin's windows: [N, H/a, a, W/b, b, C] <-> [N, H/a, W/b, a, b, C] (windows.c) */
	static const int64_t win_perm[6] = {0, 1, 3, 2, 4, 5};
	if ((L == LY_WIN || L == LY_WIN_T) && n == 6 && !memcmp(p, win_perm, sizeof win_perm))
		return view(t, x, L == LY_WIN ? LY_WIN_T : LY_WIN, 6, d);
	if (L == LY_NCHW && n == 4) {
		/* libtrim axes: H = ONNX 2, W = 3, C = 1; output H', W', C' = ONNX p2, p3, p1 */
		static const int lt[4] = {-1, 2, 0, 1};
		int li = -1, vi = -1;
		if ((rc = trim__ox_new_layer(t, "transpose", NODE_NAME(t->node), &x, 1, &li)))
			return rc;
		trim__ox_extra(t, li, ", perm: [%d, %d, %d]", lt[p[2]], lt[p[3]], lt[p[1]]);
		return trim__ox_out_val(t, 0, li, LY_NCHW, 4, d, &vi);
	}
	if (L == LY_NTF && n == 3 && p[1] == 2 && p[2] == 1) {
		int li = -1, vi = -1;
		if ((rc = trim__ox_new_layer(t, "transpose", NODE_NAME(t->node), &x, 1, &li)))
			return rc;
		trim__ox_extra(t, li, ", perm: [2, 1, 0]");
		return trim__ox_out_val(t, 0, li, LY_NTF, 3, d, &vi);
	}
	int done = 0;
	if ((rc = trim__ox_tok_transpose(t, x, p, n, &done)) || done)
		return rc;
	return trim__ox_node_err(t, TRIM_ESCHEMA, "a transpose of this layout is not supported");
}

/* The parameter layer standing for a constant operand of a concat. */
static int const_layer(tr *t, int vi, const int64_t *shape)
{
	int pl, pv, rc;
	if ((rc = trim__ox_new_layer(t, "parameter", t->v[vi].name, NULL, 0, &pl)))
		return rc;
	trim__ox_extra(t, pl, ", shape: [%lld, %lld, %lld]", (long long)shape[0], (long long)shape[1],
	      (long long)shape[2]);
	if ((rc = trim__ox_add_val(t, t->v[vi].name, &pv)))
		return rc;
	t->v[pv].layer = pl;
	return pv;
}

int trim__ox_concat(tr *t)
{
	const Onnx__NodeProto *n = t->node;
	int in[16], m = 0, rc, first = -1;
	if (n->n_input < 2 || n->n_input > 16)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs 2 to 16 inputs");
	for (size_t k = 0; k < n->n_input; k++) {
		if ((rc = trim__ox_input_val(t, k, &in[m])) || (rc = trim__ox_settle(t, in[m], &in[m])))
			return rc;
		if (in[m] < 0)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "input %zu is empty (Concat has no "
			                         "optional input)", k);
		if (!t->v[in[m]].t && first < 0)
			first = in[m];
		m++;
	}
	if (first < 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "concatenates constants only");
	val F = t->v[first];
	int64_t axis = trim__ox_attr_int(n, "axis", 1);
	if (axis < 0)
		axis += F.nd;
	if (F.layout == LY_CUT) /* pieces of a channels-last map (windows.c) */
		return trim__ox_win_concat(t, in, m, axis);
	int rows = F.layout == LY_NTF && axis == 1;
	if (!rows && !((F.layout == LY_NCHW || F.layout == LY_NF) && axis == 1) &&
	    !(F.layout == LY_NTF && axis == 2))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "concatenation along axis %lld of this layout is not "
		                "supported (channels, or tokens)", (long long)axis);
	int64_t d[8];
	memcpy(d, F.d, sizeof d);
	d[axis] = 0;
	for (int k = 0; k < m; k++) {
		val *V = &t->v[in[k]];
		if (V->nd != F.nd)
			return trim__ox_node_err(t, TRIM_ESHAPE, "inputs of different ranks");
		d[axis] += V->d[axis];
		if (V->t) {
			int64_t s[3];
			val tmp = *V;
			tmp.layout = F.layout;
			trim__ox_lt_shape(&tmp, s);
			if ((in[k] = const_layer(t, in[k], s)) < 0)
				return in[k];
		}
	}
	int li = -1, vi = -1;
	if ((rc = trim__ox_new_layer(t, "concat", NODE_NAME(n), in, m, &li)))
		return rc;
	if (rows)
		trim__ox_extra(t, li, ", axis: 1");
	return trim__ox_out_val(t, 0, li, F.layout, F.nd, d, &vi);
}

int trim__ox_split(tr *t)
{
	const Onnx__NodeProto *n = t->node;
	int x, sp, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) || (rc = trim__ox_need_act(t, x, "input")))
		return rc;
	if ((rc = trim__ox_input_val(t, 1, &sp)))
		return rc;
	val X = t->v[x];
	int64_t axis = trim__ox_attr_int(n, "axis", 0);
	if (axis < 0)
		axis += X.nd;
	int rows = X.layout == LY_NTF && axis == 1;
	int features = X.layout == LY_TOK && axis == X.nd - 1 && trim__ox_tok_is_features(&X, (int)axis);
	int64_t sizes[16];
	size_t ns = trim__ox_attr_ints(n, "split", sizes, 16);
	if (ns == 0 && sp >= 0 && (rc = trim__ox_static_ints(t, &t->v[sp], sizes, 16, &ns)))
		return rc;
	if (!rows && !features) { /* q, k and v of a fused projection, unbound (tokens.c) */
		int done = 0;
		if ((rc = trim__ox_tok_split(t, x, axis, sizes, ns, &done)) || done)
			return rc;
	}
	if (!rows && !features && !((X.layout == LY_NCHW || X.layout == LY_NF) && axis == 1) &&
	    !(X.layout == LY_NTF && axis == 2))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "split along axis %lld of this layout is not "
		                "supported (channels, tokens, or q, k and v of a fused projection)",
		                (long long)axis);
	if (ns == 0) {
		ns = n->n_output;
		if (ns == 0 || ns > 16 || X.d[axis] % (int64_t)ns)
			return trim__ox_node_err(t, TRIM_ESHAPE, "cannot split %lld evenly in %zu",
			                (long long)X.d[axis], ns);
		for (size_t k = 0; k < ns; k++)
			sizes[k] = X.d[axis] / (int64_t)ns;
	}
	if (ns != n->n_output)
		return trim__ox_node_err(t, TRIM_ESHAPE, "%zu sizes for %zu outputs", ns, n->n_output);
	for (size_t k = 0; k < ns; k++) {
		int li = -1, vi = -1;
		char hint[80];
		snprintf(hint, sizeof hint, "%s.%zu", NODE_NAME(n), k);
		if ((rc = trim__ox_new_layer(t, "split", hint, &x, 1, &li)))
			return rc;
		trim__ox_extra(t, li, "%s, sizes: [", rows ? ", axis: 1" : "");
		for (size_t q = 0; q < ns; q++)
			trim__ox_extra(t, li, "%s%lld", q ? ", " : "", (long long)sizes[q]);
		trim__ox_extra(t, li, "], index: %zu", k);
		val like = X;
		like.d[axis] = sizes[k];
		if (features)
			like.at.size[3] = sizes[k];
		if ((rc = trim__ox_out_like(t, (int)k, li, &like, &vi)))
			return rc;
	}
	return 0;
}

int trim__ox_gather(tr *t)
{
	int data, idx, rc;
	if ((rc = trim__ox_input_val(t, 0, &data)) || (rc = trim__ox_input_val(t, 1, &idx)))
		return rc;
	if (data < 0 || idx < 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs data and indices");
	val *D = &t->v[data], *I = &t->v[idx];
	int64_t axis = trim__ox_attr_int(t->node, "axis", 0);
	if (D->t && !I->t) {
		/* a table looked up with token ids: an embedding */
		if (D->nd != 2 || axis != 0 || I->layout != LY_IDS)
			return trim__ox_node_err(t, TRIM_ESHAPE, "an embedding needs a [vocab, units] table and "
			                "[N, T] ids");
		int li = -1, vi = -1;
		int64_t vocab = D->d[0], units = D->d[1];
		if ((rc = trim__ox_new_layer(t, "embedding", NODE_NAME(t->node), &idx, 1, &li)))
			return rc;
		trim__ox_extra(t, li, ", vocab: %lld, units: %lld", (long long)vocab, (long long)units);
		int64_t d[3] = {I->d[0], I->d[1], units};
		return trim__ox_out_val(t, 0, li, LY_NTF, 3, d, &vi);
	}
	if (!D->t && I->t && trim__ox_is_scalar(I) && D->layout == LY_NTF && (axis == 1 || axis == -2)) {
		/* one token (e.g. the class token): a split along rows */
		int64_t k;
		size_t n;
		if ((rc = trim__ox_static_ints(t, I, &k, 1, &n)))
			return rc;
		int64_t T = D->d[1];
		if (k < -T || k >= T)
			return trim__ox_node_err(t, TRIM_ESHAPE, "index %lld out of [-%lld, %lld)",
			                         (long long)k, (long long)T, (long long)T);
		if (k < 0)
			k += T;
		if (k < 0 || k >= T)
			return trim__ox_node_err(t, TRIM_ESHAPE, "index %lld out of [0, %lld)", (long long)k,
			                (long long)T);
		int li = -1, vi = -1;
		if ((rc = trim__ox_new_layer(t, "split", NODE_NAME(t->node), &data, 1, &li)))
			return rc;
		int64_t sizes[3], ns = 0, index = 0;
		if (k > 0)
			sizes[ns++] = k;
		index = ns;
		sizes[ns++] = 1;
		if (T - k - 1 > 0)
			sizes[ns++] = T - k - 1;
		trim__ox_extra(t, li, ", axis: 1, sizes: [");
		for (int64_t q = 0; q < ns; q++)
			trim__ox_extra(t, li, "%s%lld", q ? ", " : "", (long long)sizes[q]);
		trim__ox_extra(t, li, "], index: %lld", (long long)index);
		int64_t d[2] = {D->d[0], D->d[2]};
		return trim__ox_out_val(t, 0, li, LY_NF, 2, d, &vi);
	}
	if (!D->t && I->t && trim__ox_is_scalar(I)) { /* q, k or v of a fused projection (tokens.c) */
		int64_t k;
		size_t n;
		int done = 0;
		if ((rc = trim__ox_static_ints(t, I, &k, 1, &n)) ||
		    (rc = trim__ox_tok_gather(t, data, k, axis < 0 ? axis + D->nd : axis, &done)) || done)
			return rc;
	}
	return trim__ox_node_err(t, TRIM_ESCHEMA, "Gather is supported as an embedding lookup (a constant "
	                "table, token ids), as one token of [N, T, F] or as q, k or v of a fused "
	                "projection viewed as [.., 3, heads, d]");
}

int trim__ox_resize(tr *t, int legacy)
{
	const Onnx__NodeProto *n = t->node;
	int x, sc = -1, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) || (rc = trim__ox_need_act(t, x, "input")))
		return rc;
	double s[4] = {1, 1, 1, 1};
	size_t ns = 0;
	if (legacy && t->opset < 9) {
		const Onnx__AttributeProto *a = trim__ox_attr(n, "scales");
		for (size_t k = 0; a && k < a->n_floats && k < 4; k++)
			s[ns++] = a->floats[k];
	} else {
		if ((rc = trim__ox_input_val(t, legacy ? 1 : 2, &sc)))
			return rc;
		if (sc >= 0 && trim__ox_numel(&t->v[sc]) > 0 && (rc = trim__ox_static_floats(t, &t->v[sc], s, 4, &ns)))
			return rc;
		int sz;
		if (!legacy && ns == 0 && (rc = trim__ox_input_val(t, 3, &sz)) == 0 && sz >= 0) {
			int64_t out[4];
			if ((rc = trim__ox_static_ints(t, &t->v[sz], out, 4, &ns)))
				return rc;
			for (size_t k = 0; k < ns && k < 4; k++)
				s[k] = (double)out[k] / (double)t->v[x].d[k];
		}
		if (rc)
			return rc;
	}
	val X = t->v[x];
	if (X.layout != LY_NCHW || ns != 4 || s[0] != 1 || s[1] != 1)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs [N, C, H, W] and scales [1, 1, sh, sw]");
	if (!(s[2] >= 1 && s[2] <= 65536 && s[3] >= 1 && s[3] <= 65536))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "scales %g, %g: upsampling factors 1 to 65536",
		                         s[2], s[3]);
	int64_t f[2] = {(int64_t)s[2], (int64_t)s[3]};
	if (f[0] < 1 || f[1] < 1 || (double)f[0] != s[2] || (double)f[1] != s[3])
		return trim__ox_node_err(t, TRIM_ESCHEMA, "scales %g, %g: only whole upsampling factors", s[2],
		                s[3]);
	char mode[32];
	const char *md = trim__ox_attr_str(n, "mode", mode, sizeof mode);
	int bilinear = md && (!strcmp(md, "linear") || !strcmp(md, "bilinear"));
	if (md && !bilinear && strcmp(md, "nearest"))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "mode '%s' (nearest or linear)", md);
	int li = -1, vi = -1;
	if ((rc = trim__ox_new_layer(t, "upsample", NODE_NAME(n), &x, 1, &li)))
		return rc;
	trim__ox_extra(t, li, ", size: [%lld, %lld], interpolation: %s", (long long)f[0], (long long)f[1],
	      bilinear ? "bilinear" : "nearest");
	int64_t d[4] = {X.d[0], X.d[1], X.d[2] * f[0], X.d[3] * f[1]};
	return trim__ox_out_val(t, 0, li, LY_NCHW, 4, d, &vi);
}

int trim__ox_dropout(tr *t)
{
	int x, r, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) || (rc = trim__ox_need_act(t, x, "input")))
		return rc;
	double ratio = trim__ox_attr_float(t->node, "ratio", 0.5);
	if ((rc = trim__ox_input_val(t, 1, &r)))
		return rc;
	if (r >= 0) {
		double f[1];
		size_t n;
		if ((rc = trim__ox_static_floats(t, &t->v[r], f, 1, &n)))
			return rc;
		ratio = f[0];
	}
	if (!(ratio >= 0 && ratio < 1))
		return trim__ox_node_err(t, TRIM_ERANGE, "ratio %g not in [0, 1)", ratio);
	if (ratio == 0) /* the identity in every mode (torchvision's Swin exported to train) */
		return trim__ox_alias(t, x, t->v[x].pat, t->v[x].src);
	int li = -1, vi = -1;
	if ((rc = trim__ox_new_layer(t, "dropout", NODE_NAME(t->node), &x, 1, &li)))
		return rc;
	trim__ox_extra(t, li, ", rate: %.17g", ratio);
	return trim__ox_out_like(t, 0, li, &t->v[x], &vi);
}

int trim__ox_constant(tr *t)
{
	const Onnx__AttributeProto *a = trim__ox_attr(t->node, "value");
	if (!a || !a->t)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "only a tensor `value` is supported");
	const Onnx__TensorProto *c = a->t;
	if (c->n_dims > 8)
		return trim__ox_node_err(t, TRIM_ESHAPE, "more than 8 dims");
	for (size_t k = 0; k < c->n_dims; k++)
		if (c->dims[k] < 0 || c->dims[k] > INT32_MAX)
			return trim__ox_node_err(t, TRIM_ESHAPE, "value: dimension %zu is %lld: %s", k,
			                         (long long)c->dims[k], c->dims[k] < 0 ? "negative" :
			                         "too large (at most 2^31 - 1)");
	if (t->node->n_output < 1 || !t->node->output[0][0])
		return trim__ox_node_err(t, TRIM_ESCHEMA, "has no output");
	int vi, rc = trim__ox_add_val(t, t->node->output[0], &vi);
	if (rc)
		return rc;
	t->v[vi].nd = (int)c->n_dims;
	if (c->n_dims)
		memcpy(t->v[vi].d, c->dims, c->n_dims * sizeof *c->dims);
	t->v[vi].t = a->t;
	return 0;
}
