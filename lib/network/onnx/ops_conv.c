/*
 * ONNX Conv, ConvTranspose (1-D and 2-D) and the pools -> libtrim's
 * convolution and pooling layers (docs/onnx.md): the sliding-window operators.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

int trim__ox_conv_pads(tr *t, const val *x, const int64_t *k, const int64_t *s, const int64_t *dl,
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

int trim__ox_conv(tr *t, int transposed)
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
	if ((rc = trim__ox_conv_pads(t, X, k, s, dl, pad, transposed)))
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

int trim__ox_pool(tr *t, const char *type)
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
	if ((rc = trim__ox_conv_pads(t, X, k, s, dl, pad, 0)))
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
