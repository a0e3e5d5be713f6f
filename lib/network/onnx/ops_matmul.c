/*
 * ONNX Gemm and MatMul -> dense layers (a weight operand) or matmuls of two
 * activations (attention), docs/onnx.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

static int dense(tr *t, int x, int64_t K, int64_t units, int bias)
{
	val *X = &t->v[x];
	int64_t d[8];
	memcpy(d, X->d, sizeof d);
	if (X->layout != LY_NF && X->layout != LY_NTF && X->layout != LY_TOK && X->layout != LY_NHWC)
		return trim__ox_node_err(t, TRIM_ESHAPE, "a dense product needs a [N, F] or [N, T, F] input "
		                         "(or tokens with their features last, or a channels-last "
		                         "[N, H, W, C] map)");
	if (d[X->nd - 1] != K)
		return trim__ox_node_err(t, TRIM_ESHAPE, "the input has %lld features, the weight %lld",
		                (long long)d[X->nd - 1], (long long)K);
	d[X->nd - 1] = units;
	int li, vi, rc, map = -1; /* Swin's windows read as the map (windows.c) */
	if ((rc = trim__ox_win_layer(t, x, 0, &map)) ||
	    (rc = trim__ox_new_layer(t, "dense", NODE_NAME(t->node), &x, 1, &li)))
		return rc;
	t->l[li].in[0] = map;
	trim__ox_extra(t, li, ", units: %lld", (long long)units);
	t->l[li].act_ok = 1;
	t->l[li].use_bias = bias;
	if ((rc = trim__ox_tok_features(t, 0, li, x, units, &vi)))
		return rc;
	t->v[vi].at.win_form = 0; /* a dense layer gives windows as the map */
	return 0;
}

int trim__ox_gemm(tr *t)
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

int trim__ox_matmul(tr *t)
{
	int a, b, rc;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_input_val(t, 1, &b)))
		return rc;
	if ((rc = trim__ox_settle(t, a, &a)) || (rc = trim__ox_need_act(t, a, "input A")))
		return rc;
	if (b < 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "missing input B");
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
		int done = 0; /* heads in another order of axes (tokens.c) */
		if ((rc = trim__ox_tok_matmul(t, a, b, &done)) || done)
			return rc;
		return trim__ox_node_err(t, TRIM_ESHAPE, "a product of two activations needs [N, T, K] . [N, "
		                "K, M] or per-head operands (attention: Q K^T, or the scores times V, "
		                "docs/onnx.md)");
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
