/*
 * ONNX operators -> libtrim layers, one node at a time (docs/onnx.md lists
 * every rule): convolutions, dense products, matmuls of two activations,
 * adds, the decomposed LayerNorm / GELU / Swish patterns, activations,
 * pools, reshapes and transposes, concat, split, gather, resize, dropout.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx/translate_int.h"

static int conv_pads(tr *t, const val *x, const int64_t *k, const int64_t *s, const int64_t *dl,
                     int64_t *pad, int transposed)
{
	const Onnx__NodeProto *n = t->node;
	char ap[32];
	memset(pad, 0, 4 * sizeof *pad);
	for (int a = 0; a < 2; a++)
		if (k[a] < 1 || k[a] > (1 << 16) || s[a] < 1 || s[a] > (1 << 16) || dl[a] < 1 ||
		    dl[a] > (1 << 16))
			return trim__ox_node_err(t, TRIM_ERANGE, "kernel, strides and dilations must be "
			                         "1 to 65536");
	const char *autopad = trim__ox_attr_str(n, "auto_pad", ap, sizeof ap);
	int64_t p[4] = {0, 0, 0, 0};
	size_t np = trim__ox_attr_ints(n, "pads", p, 4);
	if (autopad && (!strcmp(autopad, "SAME_UPPER") || !strcmp(autopad, "SAME_LOWER"))) {
		if (transposed)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "auto_pad %s on ConvTranspose is not supported: "
			                "give pads", autopad);
		for (int a = 0; a < 2; a++) {
			int64_t in = x->d[2 + a], out = (in + s[a] - 1) / s[a];
			int64_t total = (out - 1) * s[a] + dl[a] * (k[a] - 1) + 1 - in;
			if (total < 0)
				total = 0;
			int64_t small = total / 2, big = total - small;
			int upper = !strcmp(autopad, "SAME_UPPER");
			pad[2 * a] = upper ? small : big;
			pad[2 * a + 1] = upper ? big : small;
		}
		return 0;
	}
	if (np && np != 4)
		return trim__ox_node_err(t, TRIM_ESHAPE, "pads has %zu values, expected 4", np);
	/* ONNX: [top, left, bottom, right]; libtrim: top, bottom, left, right */
	pad[0] = p[0], pad[1] = p[2], pad[2] = p[1], pad[3] = p[3];
	for (int k2 = 0; k2 < 4; k2++)
		if (pad[k2] < 0 || pad[k2] > (1 << 20))
			return trim__ox_node_err(t, TRIM_ESHAPE, "pads must be 0 to 2^20");
	return 0;
}

/* A 1-D convolution of [N, C, L]: libtrim's conv1d along rows of [L, 1, C]. */
static int conv1d(tr *t, int x, int w, int b)
{
	const Onnx__NodeProto *n = t->node;
	val *X = &t->v[x], *W = &t->v[w];
	int64_t C = X->d[1], g = trim__ox_attr_int(n, "group", 1), M = W->d[0];
	int64_t k = W->d[2], s = 1, dl = 1, p[2] = {0, 0};
	trim__ox_attr_ints(n, "strides", &s, 1);
	trim__ox_attr_ints(n, "dilations", &dl, 1);
	size_t np = trim__ox_attr_ints(n, "pads", p, 2);
	char ap[32];
	const char *autopad = trim__ox_attr_str(n, "auto_pad", ap, sizeof ap);
	if (k < 1 || k > (1 << 16) || s < 1 || s > (1 << 16) || dl < 1 || dl > (1 << 16))
		return trim__ox_node_err(t, TRIM_ERANGE, "kernel, strides and dilations must be 1 to "
		                         "65536");
	if ((autopad && strcmp(autopad, "NOTSET") && strcmp(autopad, "VALID")) || (np && np != 2) ||
	    p[0] < 0 || p[1] < 0 || p[0] > (1 << 20) || p[1] > (1 << 20))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "a 1-D convolution needs explicit pads [begin, "
		                         "end] (0 to 2^20)");
	if (g < 1 || C % g || W->d[1] * g != C)
		return trim__ox_node_err(t, TRIM_ESHAPE, "the weight expects %lld input channels in %lld "
		                         "groups, the input has %lld",
		                         (long long)(W->d[1] * g), (long long)g, (long long)C);
	int64_t span = X->d[2] + p[0] + p[1], eff = dl * (k - 1) + 1;
	if (span < eff)
		return trim__ox_node_err(t, TRIM_ESHAPE, "the kernel is larger than the padded input");
	int64_t d[3] = {X->d[0], M, (span - eff) / s + 1};
	int li = -1, vi = -1, rc;
	if ((rc = trim__ox_new_layer(t, "conv1d", NODE_NAME(n), &x, 1, &li)))
		return rc;
	trim__ox_extra(t, li, ", filters: %lld, groups: %lld, kernel: %lld, strides: %lld, "
	               "dilation: %lld, padding: [[%lld, %lld], [0, 0]]",
	               (long long)M, (long long)g, (long long)k, (long long)s, (long long)dl,
	               (long long)p[0], (long long)p[1]);
	t->l[li].act_ok = 1;
	t->l[li].use_bias = b >= 0;
	return trim__ox_out_val(t, 0, li, LY_NCL, 3, d, &vi);
}

static int op_conv(tr *t, int transposed)
{
	int x, w, b, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_input_val(t, 1, &w)) || (rc = trim__ox_input_val(t, 2, &b)))
		return rc;
	if ((rc = trim__ox_need_act(t, x, "input X")) || (rc = trim__ox_need_static(t, w, "weight W", 0)))
		return rc;
	val *X = &t->v[x], *W = &t->v[w];
	if (X->layout == LY_NCL && W->nd == 3 && !transposed)
		return conv1d(t, x, w, b);
	if (W->nd != 4)
		return trim__ox_node_err(t, TRIM_ESHAPE, "weight W '%s' has %d dims, expected 4 (3 for "
		                         "a 1-D convolution of [N, C, L])", W->name, W->nd);
	if (X->layout != LY_NCHW || X->nd != 4)
		return trim__ox_node_err(t, TRIM_ESHAPE, "needs a 4-D [N, C, H, W] input (conv1d models: "
		                "write the network YAML)");
	const Onnx__NodeProto *n = t->node;
	int64_t C = X->d[1], g = trim__ox_attr_int(n, "group", 1);
	int64_t k[2] = {W->d[2], W->d[3]}, s[2] = {1, 1}, dl[2] = {1, 1}, pad[4];
	int64_t ks[2];
	if (trim__ox_attr_ints(n, "kernel_shape", ks, 2) == 2 && (ks[0] != k[0] || ks[1] != k[1]))
		return trim__ox_node_err(t, TRIM_ESHAPE, "kernel_shape differs from the weight's");
	trim__ox_attr_ints(n, "strides", s, 2);
	trim__ox_attr_ints(n, "dilations", dl, 2);
	if (g < 1 || C % g)
		return trim__ox_node_err(t, TRIM_ESHAPE, "group %lld does not divide the %lld input channels",
		                (long long)g, (long long)C);
	int64_t M = transposed ? W->d[1] * g : W->d[0];
	int64_t cin_w = transposed ? W->d[0] : W->d[1] * g;
	if (cin_w != C)
		return trim__ox_node_err(t, TRIM_ESHAPE, "the weight expects %lld input channels, the input "
		                "has %lld", (long long)cin_w, (long long)C);
	if ((rc = conv_pads(t, X, k, s, dl, pad, transposed)))
		return rc;
	int64_t d[4] = {X->d[0], M, 0, 0};
	const char *type = "conv2d";
	if (transposed) {
		int64_t op[2] = {0, 0};
		trim__ox_attr_ints(n, "output_padding", op, 2);
		if (op[0] < 0 || op[1] < 0 || op[0] >= s[0] || op[1] >= s[1])
			return trim__ox_node_err(t, TRIM_ESHAPE, "output_padding must be below the strides");
		if (dl[0] != 1 || dl[1] != 1)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "dilated ConvTranspose is not supported");
		for (int a = 0; a < 2; a++)
			d[2 + a] = (X->d[2 + a] - 1) * s[a] + k[a] - pad[2 * a] - pad[2 * a + 1] + op[a];
		type = "conv2d_transpose";
		int li = -1, vi = -1;
		if ((rc = trim__ox_new_layer(t, type, NODE_NAME(n), &x, 1, &li)))
			return rc;
		trim__ox_extra(t, li, ", filters: %lld, kernel: [%lld, %lld], strides: [%lld, %lld], padding: "
		      "[[%lld, %lld], [%lld, %lld]], output_padding: [%lld, %lld], groups: %lld",
		      (long long)M, (long long)k[0], (long long)k[1], (long long)s[0], (long long)s[1],
		      (long long)pad[0], (long long)pad[1], (long long)pad[2], (long long)pad[3],
		      (long long)op[0], (long long)op[1], (long long)g);
		t->l[li].act_ok = 1;
		t->l[li].use_bias = b >= 0;
		return trim__ox_out_val(t, 0, li, LY_NCHW, 4, d, &vi);
	}
	for (int a = 0; a < 2; a++) {
		int64_t span = X->d[2 + a] + pad[2 * a] + pad[2 * a + 1], eff = dl[a] * (k[a] - 1) + 1;
		if (span < eff)
			return trim__ox_node_err(t, TRIM_ESHAPE, "the kernel is larger than the padded input");
		d[2 + a] = (span - eff) / s[a] + 1;
	}
	int li = -1, vi = -1;
	int dw = g == C && g > 1 && W->d[1] == 1;
	if ((rc = trim__ox_new_layer(t, dw ? "depthwise_conv2d" : type, NODE_NAME(n), &x, 1, &li)))
		return rc;
	if (dw)
		trim__ox_extra(t, li, ", depth_multiplier: %lld", (long long)(M / C));
	else
		trim__ox_extra(t, li, ", filters: %lld, groups: %lld", (long long)M, (long long)g);
	trim__ox_extra(t, li, ", kernel: [%lld, %lld], strides: [%lld, %lld], dilation: [%lld, %lld], "
	      "padding: [[%lld, %lld], [%lld, %lld]]",
	      (long long)k[0], (long long)k[1], (long long)s[0], (long long)s[1], (long long)dl[0],
	      (long long)dl[1], (long long)pad[0], (long long)pad[1], (long long)pad[2],
	      (long long)pad[3]);
	t->l[li].act_ok = 1;
	t->l[li].use_bias = b >= 0;
	return trim__ox_out_val(t, 0, li, LY_NCHW, 4, d, &vi);
}

static int dense(tr *t, int x, int64_t K, int64_t units, int bias)
{
	val *X = &t->v[x];
	int64_t d[8];
	memcpy(d, X->d, sizeof d);
	if (X->layout != LY_NF && X->layout != LY_NTF)
		return trim__ox_node_err(t, TRIM_ESHAPE, "a dense product needs a [N, F] or [N, T, F] input");
	if (d[X->nd - 1] != K)
		return trim__ox_node_err(t, TRIM_ESHAPE, "the input has %lld features, the weight %lld",
		                (long long)d[X->nd - 1], (long long)K);
	d[X->nd - 1] = units;
	int li, vi, rc;
	int layout = X->layout, nd = X->nd;
	if ((rc = trim__ox_new_layer(t, "dense", NODE_NAME(t->node), &x, 1, &li)))
		return rc;
	trim__ox_extra(t, li, ", units: %lld", (long long)units);
	t->l[li].act_ok = 1;
	t->l[li].use_bias = bias;
	return trim__ox_out_val(t, 0, li, layout, nd, d, &vi);
}

static int op_gemm(tr *t)
{
	int a, b, c, rc;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_input_val(t, 1, &b)) || (rc = trim__ox_input_val(t, 2, &c)))
		return rc;
	if ((rc = trim__ox_need_act(t, a, "input A")) || (rc = trim__ox_need_static(t, b, "input B", 2)))
		return rc;
	if (trim__ox_attr_int(t->node, "transA", 0))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "transA = 1 is not supported");
	int tb = trim__ox_attr_int(t->node, "transB", 0) != 0;
	const val *B = &t->v[b];
	return dense(t, a, tb ? B->d[1] : B->d[0], tb ? B->d[0] : B->d[1], c >= 0);
}

static int op_matmul(tr *t)
{
	int a, b, rc;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_input_val(t, 1, &b)))
		return rc;
	if ((rc = trim__ox_settle(t, a, &a)) || (rc = trim__ox_need_act(t, a, "input A")))
		return rc;
	if (t->v[b].t) {
		if (t->v[b].nd != 2)
			return trim__ox_node_err(t, TRIM_ESHAPE, "a constant B must be 2-D [K, M]");
		return dense(t, a, t->v[b].d[0], t->v[b].d[1], 0);
	}
	if ((rc = trim__ox_settle(t, b, &b)))
		return rc;
	val *A = &t->v[a], *B = &t->v[b];
	int transpose_b;
	int64_t heads, d[4];
	if (A->layout == LY_HEADS && B->layout == LY_HEADS_T && A->d[1] == B->d[1] &&
	    A->d[3] == B->d[2]) {
		transpose_b = 1; /* Q . K^T */
		heads = A->d[1];
		d[0] = A->d[0], d[1] = heads, d[2] = A->d[2], d[3] = B->d[3];
	} else if (A->layout == LY_HEADS && B->layout == LY_HEADS && A->d[1] == B->d[1] &&
	           A->d[3] == B->d[2]) {
		transpose_b = 0; /* A . V */
		heads = A->d[1];
		d[0] = A->d[0], d[1] = heads, d[2] = A->d[2], d[3] = B->d[3];
	} else if (A->layout == LY_NTF && B->layout == LY_NTF && A->d[2] == B->d[1]) {
		transpose_b = 0;
		heads = 1;
		d[0] = A->d[0], d[1] = 1, d[2] = A->d[1], d[3] = B->d[2];
	} else {
		return trim__ox_node_err(t, TRIM_ESHAPE, "a product of two activations needs [N, T, K] . [N, "
		                "K, M] or per-head [N, h, T, d] operands (attention)");
	}
	int in[2] = {a, b}, li, vi;
	if ((rc = trim__ox_new_layer(t, "matmul", NODE_NAME(t->node), in, 2, &li)))
		return rc;
	trim__ox_extra(t, li, ", heads: %lld, transpose_b: %s", (long long)heads,
	      transpose_b ? "true" : "false");
	if (heads == 1 && A->layout == LY_NTF) {
		int64_t o[3] = {d[0], d[2], d[3]};
		return trim__ox_out_val(t, 0, li, LY_NTF, 3, o, &vi);
	}
	return trim__ox_out_val(t, 0, li, LY_HEADS, 4, d, &vi);
}

static int same_lt_shape(const val *a, const val *b)
{
	int64_t s[3], q[3];
	trim__ox_lt_shape(a, s);
	trim__ox_lt_shape(b, q);
	return !memcmp(s, q, sizeof s);
}

static int is_scalar(const val *x) { return trim__ox_numel(x) == 1; }

static int op_add(tr *t)
{
	int a, b, rc;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_input_val(t, 1, &b)))
		return rc;
	if (a < 0 || b < 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs two inputs");
	if (t->v[a].t && !t->v[b].t) {
		int q = a;
		a = b, b = q;
	}
	if ((rc = trim__ox_settle(t, a, &a)) || (rc = trim__ox_settle(t, b, &b)))
		return rc;
	val *A = &t->v[a], *B = &t->v[b];
	if (A->t)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "adds two constants");
	if (B->t) {
		/* a constant: a pattern's step, a bias, a learned tensor or a cost-free shift */
		if (A->pat == P_GELU_ERF)
			return trim__ox_alias(t, a, P_GELU_ERF1, A->src);
		if (A->pat == P_TG_TANH)
			return trim__ox_alias(t, a, P_TG_1, A->src);
		if (A->pat == P_LN_VAR)
			return trim__ox_alias(t, a, P_LN_VAR, A->src);
		int64_t s[3];
		trim__ox_lt_shape(A, s);
		lay *L = A->layer >= 0 ? &t->l[A->layer] : NULL;
		if (trim__ox_numel(B) == s[2] && trim__ox_numel(B) > 1 && L && L->use_bias == 0 && A->readers == 1)
			return (L->use_bias = 1, trim__ox_alias(t, a, P_NONE, -1));
		if (trim__ox_numel(B) == s[0] * s[1] * s[2] && trim__ox_numel(B) > s[2]) {
			int pl, pv, li, vi;
			if ((rc = trim__ox_new_layer(t, "parameter", B->name, NULL, 0, &pl)))
				return rc;
			trim__ox_extra(t, pl, ", shape: [%lld, %lld, %lld]", (long long)s[0], (long long)s[1],
			      (long long)s[2]);
			if ((rc = trim__ox_add_val(t, B->name, &pv)))
				return rc;
			t->v[pv].layer = pl;
			int in[2] = {a, pv};
			if ((rc = trim__ox_new_layer(t, "add", NODE_NAME(t->node), in, 2, &li)))
				return rc;
			t->l[li].act_ok = 1;
			val copy = t->v[a];
			return trim__ox_out_val(t, 0, li, copy.layout, copy.nd, copy.d, &vi);
		}
		return trim__ox_alias(t, a, A->pat, A->src);
	}
	if (A->pat == P_TG_CUBE || B->pat == P_TG_CUBE) {
		int cube = A->pat == P_TG_CUBE ? a : b, other = cube == a ? b : a;
		if (t->v[other].base == t->v[t->v[cube].src].base)
			return trim__ox_alias(t, other, P_TG_INNER, t->v[cube].src);
	}
	if (!same_lt_shape(A, B))
		return trim__ox_node_err(t, TRIM_ESHAPE, "adds activations of different shapes (broadcasting "
		                "is not supported)");
	/* a chain of adds of single-use sums is one add of all the terms */
	lay *L = A->layer >= 0 ? &t->l[A->layer] : NULL;
	if (L && !strcmp(L->type, "add") && !strcmp(L->act, "linear") && A->readers == 1 &&
	    t->v[A->base].readers <= 1 && L->nin < 16) {
		L->in[L->nin++] = B->layer;
		return trim__ox_alias(t, a, P_NONE, -1);
	}
	int in[2] = {a, b}, li, vi;
	if ((rc = trim__ox_new_layer(t, "add", NODE_NAME(t->node), in, 2, &li)))
		return rc;
	t->l[li].act_ok = 1;
	val copy = t->v[a];
	return trim__ox_out_val(t, 0, li, copy.layout, copy.nd, copy.d, &vi);
}

static int op_mul(tr *t)
{
	int a, b, rc;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_input_val(t, 1, &b)))
		return rc;
	if (a < 0 || b < 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs two inputs");
	if (t->v[a].t && !t->v[b].t) {
		int q = a;
		a = b, b = q;
	}
	val *A = &t->v[a], *B = &t->v[b];
	if (A->t)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "multiplies two constants");
	if (B->t) /* a scaling: free (a pattern's constant, a LayerNorm's gamma, ...) */
		return trim__ox_alias(t, a, A->pat, A->src);
	/* x * sigmoid(x): Swish; x * (1 + erf(x / sqrt 2)) or with tanh: GELU */
	for (int k = 0; k < 2; k++) {
		int p = k ? b : a, q = k ? a : b;
		const val *P = &t->v[p], *Q = &t->v[q];
		if (P->pat == P_SIGMOID && Q->base == t->v[P->src].base)
			return trim__ox_apply_act_reads(t, P->src, "swish", 2);
		if ((P->pat == P_GELU_ERF1 || P->pat == P_TG_1) && Q->base == t->v[P->src].base)
			return trim__ox_apply_act_reads(t, P->src, "gelu", P->pat == P_GELU_ERF1 ? 2 : 3);
	}
	return trim__ox_node_err(t, TRIM_ESCHEMA, "an elementwise product of two activations is not a "
	                "layer libtrim knows (only Swish and GELU patterns)");
}

static int op_div(tr *t)
{
	int a, b, rc;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_input_val(t, 1, &b)))
		return rc;
	if ((rc = trim__ox_need_act(t, a, "input A")) || b < 0)
		return rc ? rc : trim__ox_node_err(t, TRIM_ESCHEMA, "needs two inputs");
	val *A = &t->v[a], *B = &t->v[b];
	if (A->pat == P_LN_CENTER && B->pat == P_LN_STD && B->src == A->src) {
		int src = A->src, li, vi;
		if ((rc = trim__ox_new_layer(t, "layernorm", NODE_NAME(t->node), &src, 1, &li)))
			return rc;
		val copy = t->v[src];
		return trim__ox_out_val(t, 0, li, copy.layout, copy.nd, copy.d, &vi);
	}
	if (B->t) {
		double f[1];
		size_t n = 0;
		if (is_scalar(B) && trim__ox_static_floats(t, B, f, 1, &n) == 0 && fabs(f[0] - sqrt(2.0)) < 1e-3)
			return trim__ox_alias(t, a, P_GELU_DIV, a);
		return trim__ox_alias(t, a, A->pat, A->src); /* a scaling (attention's 1 / sqrt d) */
	}
	return trim__ox_node_err(t, TRIM_ESCHEMA, "a quotient of two activations is not a layer libtrim "
	                "knows (only the LayerNorm pattern)");
}

static int op_unary_pattern(tr *t, const char *op)
{
	int a, b, rc;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_input_val(t, 1, &b)))
		return rc;
	if ((rc = trim__ox_settle(t, a, &a)) || (rc = trim__ox_need_act(t, a, "input")))
		return rc;
	val *A = &t->v[a];
	if (!strcmp(op, "Erf")) {
		if (A->pat == P_GELU_DIV)
			return trim__ox_alias(t, a, P_GELU_ERF, A->src);
		return trim__ox_node_err(t, TRIM_ESCHEMA, "Erf outside GELU's x / sqrt(2) pattern");
	}
	if (!strcmp(op, "Sqrt")) {
		if (A->pat == P_LN_VAR)
			return trim__ox_alias(t, a, P_LN_STD, A->src);
		return trim__ox_node_err(t, TRIM_ESCHEMA, "Sqrt outside LayerNorm's pattern");
	}
	if (!strcmp(op, "ReduceMean")) {
		int64_t ax[4];
		size_t na = trim__ox_attr_ints(t->node, "axes", ax, 4);
		if (na == 0 && b >= 0 && t->v[b].t) {
			size_t n;
			if (trim__ox_static_ints(t, &t->v[b], ax, 4, &n) == 0)
				na = n;
		}
		if (na != 1 || (ax[0] != -1 && ax[0] != A->nd - 1))
			return trim__ox_node_err(t, TRIM_ESCHEMA, "ReduceMean outside LayerNorm's pattern (axes "
			                "[-1])");
		if (A->pat == P_LN_SQ)
			return trim__ox_alias(t, a, P_LN_VAR, A->src);
		return trim__ox_alias(t, a, P_LN_MEAN, a);
	}
	if (!strcmp(op, "Sub")) {
		if (b >= 0 && t->v[b].pat == P_LN_MEAN && t->v[b].src == a)
			return trim__ox_alias(t, a, P_LN_CENTER, a);
		return trim__ox_node_err(t, TRIM_ESCHEMA, "Sub outside LayerNorm's x - mean(x) pattern");
	}
	if (!strcmp(op, "Pow")) {
		double e[1];
		size_t n = 0;
		if (b < 0 || !t->v[b].t || !is_scalar(&t->v[b]) || trim__ox_static_floats(t, &t->v[b], e, 1, &n))
			return trim__ox_node_err(t, TRIM_ESCHEMA, "Pow needs a constant exponent");
		if (A->pat == P_LN_CENTER && e[0] == 2)
			return trim__ox_alias(t, a, P_LN_SQ, A->src);
		if (A->pat == P_NONE && e[0] == 3)
			return trim__ox_alias(t, a, P_TG_CUBE, a);
		return trim__ox_node_err(t, TRIM_ESCHEMA, "Pow outside the LayerNorm and tanh-GELU patterns");
	}
	return trim__ox_node_err(t, TRIM_ESCHEMA, "internal: %s", op);
}

static int op_act(tr *t, const char *act)
{
	int a, rc;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_settle(t, a, &a)) || (rc = trim__ox_need_act(t, a, "input")))
		return rc;
	if (!strcmp(act, "tanh") && t->v[a].pat == P_TG_INNER)
		return trim__ox_alias(t, a, P_TG_TANH, t->v[a].src);
	if (!strcmp(act, "sigmoid"))
		return trim__ox_alias(t, a, P_SIGMOID, a); /* decided by its reader: Swish or a sigmoid */
	if (!strcmp(act, "clip")) {
		double lo = trim__ox_attr_float(t->node, "min", -INFINITY), hi = trim__ox_attr_float(t->node, "max", INFINITY);
		for (int k = 1; k <= 2; k++) {
			int v;
			double f[1];
			size_t n;
			if ((rc = trim__ox_input_val(t, (size_t)k, &v)))
				return rc;
			if (v >= 0 && (rc = trim__ox_static_floats(t, &t->v[v], f, 1, &n)) == 0)
				*(k == 1 ? &lo : &hi) = f[0];
			else if (v >= 0)
				return rc;
		}
		if (lo == 0 && hi == 6)
			act = "relu6";
		else if (lo == 0 && isinf(hi))
			act = "relu";
		else
			return trim__ox_node_err(t, TRIM_ESCHEMA, "Clip(%g, %g) is neither ReLU nor ReLU6", lo, hi);
	}
	return trim__ox_apply_act(t, a, act);
}

static int simple_layer(tr *t, const char *type)
{
	int a, rc, li, vi;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_settle(t, a, &a)) || (rc = trim__ox_need_act(t, a, "input")))
		return rc;
	if ((rc = trim__ox_new_layer(t, type, NODE_NAME(t->node), &a, 1, &li)))
		return rc;
	val copy = t->v[a];
	return trim__ox_out_val(t, 0, li, copy.layout, copy.nd, copy.d, &vi);
}

static int op_pool(tr *t, const char *type)
{
	int x, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) || (rc = trim__ox_need_act(t, x, "input")))
		return rc;
	val *X = &t->v[x];
	if (X->layout != LY_NCHW)
		return trim__ox_node_err(t, TRIM_ESHAPE, "needs a [N, C, H, W] input");
	const Onnx__NodeProto *n = t->node;
	int li = -1, vi = -1;
	int64_t d[4] = {X->d[0], X->d[1], 1, 1};
	if (!strcmp(type, "global_avgpool")) {
		if ((rc = trim__ox_new_layer(t, type, NODE_NAME(n), &x, 1, &li)))
			return rc;
		return trim__ox_out_val(t, 0, li, LY_NCHW, 4, d, &vi);
	}
	int64_t k[2], s[2] = {1, 1}, dl[2] = {1, 1}, pad[4];
	if (trim__ox_attr_ints(n, "kernel_shape", k, 2) != 2)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs kernel_shape [kh, kw]");
	trim__ox_attr_ints(n, "strides", s, 2);
	trim__ox_attr_ints(n, "dilations", dl, 2);
	if (dl[0] != 1 || dl[1] != 1)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "dilated pooling is not supported");
	if (trim__ox_attr_int(n, "ceil_mode", 0))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "ceil_mode = 1 is not supported");
	if ((rc = conv_pads(t, X, k, s, dl, pad, 0)))
		return rc;
	for (int a = 0; a < 2; a++) {
		int64_t span = X->d[2 + a] + pad[2 * a] + pad[2 * a + 1];
		if (span < k[a])
			return trim__ox_node_err(t, TRIM_ESHAPE, "the window is larger than the padded input");
		d[2 + a] = (span - k[a]) / s[a] + 1;
	}
	if ((rc = trim__ox_new_layer(t, type, NODE_NAME(n), &x, 1, &li)))
		return rc;
	trim__ox_extra(t, li, ", pool: [%lld, %lld], strides: [%lld, %lld], padding: [[%lld, %lld], [%lld, "
	      "%lld]]", (long long)k[0], (long long)k[1], (long long)s[0], (long long)s[1],
	      (long long)pad[0], (long long)pad[1], (long long)pad[2], (long long)pad[3]);
	return trim__ox_out_val(t, 0, li, LY_NCHW, 4, d, &vi);
}

static int op_flatten(tr *t)
{
	int x, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) || (rc = trim__ox_need_act(t, x, "input")))
		return rc;
	val *X = &t->v[x];
	int64_t axis = trim__ox_attr_int(t->node, "axis", 1);
	if (axis != 1)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "Flatten with axis %lld (only 1: keep the batch)",
		                (long long)axis);
	int64_t s[3];
	trim__ox_lt_shape(X, s);
	int64_t d[2] = {X->d[0], s[0] * s[1] * s[2]};
	if (X->layout == LY_NF || (X->layout == LY_NCHW && s[0] == 1 && s[1] == 1)) {
		int vi = -1;
		if ((rc = trim__ox_out_val(t, 0, X->layer, LY_NF, 2, d, &vi)))
			return rc;
		t->v[vi].base = X->base;
		return 0;
	}
	if (X->layout != LY_NCHW)
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

static int op_reshape(tr *t)
{
	int x, sh, rc;
	if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_input_val(t, 1, &sh)))
		return rc;
	if ((rc = trim__ox_settle(t, x, &x)) || (rc = trim__ox_need_act(t, x, "data")) ||
	    (rc = trim__ox_need_static(t, sh, "shape", 1)))
		return rc;
	val *X = &t->v[x];
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
	if (got != total || d[0] != X->d[0])
		return trim__ox_node_err(t, TRIM_ESHAPE, "reshape to %zu dims of %lld elements from %lld (the "
		                "batch must stay first)", n, (long long)got, (long long)total);
	int L = X->layout;
	if (L == LY_NTF && n == 4 && d[1] == X->d[1] && d[2] * d[3] == X->d[2])
		return view(t, x, LY_NTHD, 4, d); /* split heads */
	if (L == LY_NTHD && n == 3 && d[1] == X->d[1])
		return view(t, x, LY_NTF, 3, d); /* merge heads */
	if (L == LY_NCHW && n == 2 && X->d[2] == 1 && X->d[3] == 1)
		return view(t, x, LY_NF, 2, d);
	if (L == LY_NCHW && n == 3 && d[1] == X->d[1])
		return view(t, x, LY_NCT, 3, d); /* [N, C, H W]: tokens after a transpose */
	if ((L == LY_NTF || L == LY_NF) && (n == 2 || n == 3)) {
		int li = -1, vi = -1;
		if ((rc = trim__ox_new_layer(t, "reshape", NODE_NAME(t->node), &x, 1, &li)))
			return rc;
		if (n == 2)
			trim__ox_extra(t, li, ", shape: [1, 1, %lld]", (long long)d[1]);
		else
			trim__ox_extra(t, li, ", shape: [%lld, 1, %lld]", (long long)d[1], (long long)d[2]);
		return trim__ox_out_val(t, 0, li, n == 2 ? LY_NF : LY_NTF, (int)n, d, &vi);
	}
	return trim__ox_node_err(t, TRIM_ESHAPE, "a reshape of this layout is not supported");
}

static int op_transpose(tr *t)
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
	if (n != (size_t)X->nd || p[0] != 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "perm must be a permutation of the axes that "
		                         "keeps the batch first");
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

static int op_concat(tr *t)
{
	const Onnx__NodeProto *n = t->node;
	int in[16], m = 0, rc, first = -1;
	if (n->n_input < 2 || n->n_input > 16)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs 2 to 16 inputs");
	for (size_t k = 0; k < n->n_input; k++) {
		if ((rc = trim__ox_input_val(t, k, &in[m])) || (rc = trim__ox_settle(t, in[m], &in[m])))
			return rc;
		if (in[m] >= 0 && !t->v[in[m]].t && first < 0)
			first = in[m];
		m++;
	}
	if (first < 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "concatenates constants only");
	val F = t->v[first];
	int64_t axis = trim__ox_attr_int(n, "axis", 1);
	if (axis < 0)
		axis += F.nd;
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

static int op_split(tr *t)
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
	if (!rows && !((X.layout == LY_NCHW || X.layout == LY_NF) && axis == 1) &&
	    !(X.layout == LY_NTF && axis == 2))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "split along axis %lld of this layout is not "
		                "supported (channels, or tokens)", (long long)axis);
	int64_t sizes[16];
	size_t ns = trim__ox_attr_ints(n, "split", sizes, 16);
	if (ns == 0 && sp >= 0 && (rc = trim__ox_static_ints(t, &t->v[sp], sizes, 16, &ns)))
		return rc;
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
		int64_t d[8];
		memcpy(d, X.d, sizeof d);
		d[axis] = sizes[k];
		if ((rc = trim__ox_out_val(t, (int)k, li, X.layout, X.nd, d, &vi)))
			return rc;
	}
	return 0;
}

static int op_gather(tr *t)
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
	if (!D->t && I->t && is_scalar(I) && D->layout == LY_NTF && (axis == 1 || axis == -2)) {
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
	return trim__ox_node_err(t, TRIM_ESCHEMA, "Gather is supported as an embedding lookup (a constant "
	                "table, token ids) or as one token of [N, T, F]");
}

static int op_resize(tr *t, int legacy)
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

static int op_dropout(tr *t)
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
	int li = -1, vi = -1;
	if ((rc = trim__ox_new_layer(t, "dropout", NODE_NAME(t->node), &x, 1, &li)))
		return rc;
	trim__ox_extra(t, li, ", rate: %.17g", ratio);
	val copy = t->v[x];
	return trim__ox_out_val(t, 0, li, copy.layout, copy.nd, copy.d, &vi);
}

static int op_constant(tr *t)
{
	const Onnx__AttributeProto *a = trim__ox_attr(t->node, "value");
	if (!a || !a->t)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "only a tensor `value` is supported");
	const Onnx__TensorProto *c = a->t;
	if (c->n_dims > 8)
		return trim__ox_node_err(t, TRIM_ESHAPE, "more than 8 dims");
	for (size_t k = 0; k < c->n_dims; k++)
		if (c->dims[k] < 0 || c->dims[k] > INT32_MAX)
			return trim__ox_node_err(t, TRIM_ESHAPE, "dimension %zu = %lld", k,
			                         (long long)c->dims[k]);
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

/* A node libtrim cannot cost: an error, or (passthrough) its first activation
 * input passed through at no cost, with a warning. */
int trim__ox_unknown_op(tr *t, int code, const char *why)
{
	if (!t->o->passthrough)
		return code;
	(void)why;
	int x = -1;
	for (size_t k = 0; k < t->node->n_input && x < 0; k++) {
		int v;
		int rc = trim__ox_input_val(t, k, &v);
		if (rc == 0 && v >= 0 && !t->v[v].t)
			x = v;
	}
	if (x < 0)
		return code;
	trim__ox_warn(t, "node '%s' (op_type %s, opset %lld) passed through at no cost: libtrim cannot "
	     "cost it", NODE_NAME(t->node), t->node->op_type, (long long)t->opset);
	for (size_t k = 0; k < t->node->n_output; k++) {
		int vi = -1;
		val copy = t->v[x];
		int rc = trim__ox_out_val(t, (int)k, copy.layer, copy.layout, copy.nd, copy.d, &vi);
		if (rc)
			return rc;
		t->v[vi].base = copy.base;
	}
	return 0;
}

int trim__ox_translate_node(tr *t)
{
	const char *op = t->node->op_type ? t->node->op_type : "";
	if (t->node->domain && t->node->domain[0] && strcmp(t->node->domain, "ai.onnx"))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "operator domain '%s' is not ONNX's",
		                t->node->domain);
	if (!strcmp(op, "Conv")) return op_conv(t, 0);
	if (!strcmp(op, "ConvTranspose")) return op_conv(t, 1);
	if (!strcmp(op, "Gemm")) return op_gemm(t);
	if (!strcmp(op, "MatMul")) return op_matmul(t);
	if (!strcmp(op, "Add")) return op_add(t);
	if (!strcmp(op, "Mul")) return op_mul(t);
	if (!strcmp(op, "Div")) return op_div(t);
	if (!strcmp(op, "Sub") || !strcmp(op, "Pow") || !strcmp(op, "Sqrt") ||
	    !strcmp(op, "ReduceMean") || !strcmp(op, "Erf"))
		return op_unary_pattern(t, op);
	if (!strcmp(op, "Relu")) return op_act(t, "relu");
	if (!strcmp(op, "Clip")) return op_act(t, "clip");
	if (!strcmp(op, "Sigmoid")) return op_act(t, "sigmoid");
	if (!strcmp(op, "Tanh")) return op_act(t, "tanh");
	if (!strcmp(op, "HardSwish")) return op_act(t, "hardswish");
	if (!strcmp(op, "BatchNormalization")) return simple_layer(t, "batchnorm");
	if (!strcmp(op, "LayerNormalization")) return simple_layer(t, "layernorm");
	if (!strcmp(op, "Softmax")) {
		int x, rc = trim__ox_input_val(t, 0, &x);
		if (rc)
			return rc;
		int64_t axis = trim__ox_attr_int(t->node, "axis", t->opset >= 13 ? -1 : 1);
		if (x >= 0 && axis != -1 && axis != t->v[x].nd - 1)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "Softmax over axis %lld (only the last)",
			                (long long)axis);
		/* after a layer that takes an activation (a classifier): its activation */
		if (x >= 0 && !t->v[x].t && t->v[x].layer >= 0 && t->l[t->v[x].layer].act_ok &&
		    !strcmp(t->l[t->v[x].layer].act, "linear") && t->v[x].readers == 1 &&
		    strcmp(t->l[t->v[x].layer].type, "activation"))
			return trim__ox_apply_act(t, x, "softmax");
		return simple_layer(t, "softmax");
	}
	if (!strcmp(op, "MaxPool")) return op_pool(t, "maxpool2d");
	if (!strcmp(op, "AveragePool")) return op_pool(t, "avgpool2d");
	if (!strcmp(op, "GlobalAveragePool")) return op_pool(t, "global_avgpool");
	if (!strcmp(op, "Flatten")) return op_flatten(t);
	if (!strcmp(op, "Reshape")) return op_reshape(t);
	if (!strcmp(op, "Transpose")) return op_transpose(t);
	if (!strcmp(op, "Concat")) return op_concat(t);
	if (!strcmp(op, "Split")) return op_split(t);
	if (!strcmp(op, "Gather")) return op_gather(t);
	if (!strcmp(op, "Resize")) return op_resize(t, 0);
	if (!strcmp(op, "Upsample")) return op_resize(t, 1);
	if (!strcmp(op, "Dropout")) return op_dropout(t);
	if (!strcmp(op, "Identity")) {
		int x, rc;
		if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) || x < 0)
			return rc ? rc : trim__ox_node_err(t, TRIM_ESCHEMA, "needs an input");
		return trim__ox_alias(t, x, t->v[x].pat, t->v[x].src);
	}
	if (!strcmp(op, "Constant")) return op_constant(t);
	return trim__ox_node_err(t, TRIM_ESCHEMA, "an operator libtrim cannot cost (docs/onnx.md lists "
	                "those it can; --passthrough makes it a zero-cost pass-through)");
}

