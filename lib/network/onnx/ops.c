/*
 * ONNX nodes -> libtrim layers, one node at a time (docs/onnx.md lists every
 * rule): the dispatch by op_type, the layers that take one activation and give
 * one (BatchNorm, LayerNorm, Softmax) and the zero-cost pass-through. The
 * operators live by kind in ops_conv.c, ops_matmul.c, ops_elementwise.c and
 * ops_shape.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

int trim__ox_simple_layer(tr *t, const char *type)
{
	int a, rc, li, vi;
	if ((rc = trim__ox_input_val(t, 0, &a)) || (rc = trim__ox_settle(t, a, &a)) || (rc = trim__ox_need_act(t, a, "input")))
		return rc;
	if ((rc = trim__ox_new_layer(t, type, NODE_NAME(t->node), &a, 1, &li)))
		return rc;
	return trim__ox_out_like(t, 0, li, &t->v[a], &vi);
}

int trim__ox_unknown_op(tr *t, int code, const char *why)
{
	if (!t->o->passthrough)
		return code;
	/* a copy: reading the inputs may set another message */
	int unknown = why && strstr(why, "an operator libtrim cannot cost") != NULL;
	/* the activation input of the most elements (the first of those): the
	 * shape an elementwise node's broadcast gives (a squeeze-excitation
	 * Mul of [N, C, H, W] by a [N, C, 1, 1] gate passes the activation on,
	 * not the gate, which would shrink every layer after it) */
	int x = -1, acts = 0;
	for (size_t k = 0; k < t->node->n_input; k++) {
		int v;
		int rc = trim__ox_input_val(t, k, &v);
		if (rc == 0 && v >= 0 && !t->v[v].t) {
			acts++;
			if (x < 0 || trim__ox_numel(&t->v[v]) > trim__ox_numel(&t->v[x]))
				x = v;
		}
	}
	if (x < 0 && unknown)
		return trim__ox_node_err(t, code, "an operator libtrim cannot cost or fold, reading no "
		                         "activation that --passthrough could pass through");
	if (x < 0)
		return code; /* the node's own error stands */
	if (acts > 1)
		trim__ox_warn(t, "node '%s' (op_type %s, opset %lld) passed through at no cost: libtrim cannot "
		     "cost it; its largest activation input '%s' goes on, its %d other%s not read", NODE_NAME(t->node),
		     t->node->op_type, (long long)t->opset, t->v[x].name ? t->v[x].name : "?", acts - 1,
		     acts > 2 ? "s are" : " is");
	else
		trim__ox_warn(t, "node '%s' (op_type %s, opset %lld) passed through at no cost: libtrim cannot "
		     "cost it", NODE_NAME(t->node), t->node->op_type, (long long)t->opset);
	for (size_t k = 0; k < t->node->n_output; k++) {
		int vi = -1;
		val copy = t->v[x];
		int rc = trim__ox_out_like(t, (int)k, copy.layer, &copy, &vi);
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
	for (size_t k = 0; k < t->node->n_input && strcmp(op, "Slice") && strcmp(op, "Concat"); k++) {
		int v = trim__ox_find_val(t, t->node->input[k]);
		int rc;
		if (v >= 0 && t->v[v].layout == LY_CUT && !t->v[v].t && (rc = trim__ox_win_crop(t, v)))
			return rc; /* cropped, or taken every other one (patch merging's, for a Concat) */
	}
	if (!strcmp(op, "Conv")) return trim__ox_conv(t, 0);
	if (!strcmp(op, "ConvTranspose")) return trim__ox_conv(t, 1);
	if (!strcmp(op, "Gemm")) return trim__ox_gemm(t);
	if (!strcmp(op, "MatMul")) return trim__ox_matmul(t);
	if (!strcmp(op, "Add")) return trim__ox_add(t);
	if (!strcmp(op, "Mul")) return trim__ox_mul(t);
	if (!strcmp(op, "Div")) return trim__ox_div(t);
	if (!strcmp(op, "Where")) return trim__ox_where(t);
	if (!strcmp(op, "Sub") || !strcmp(op, "Pow") || !strcmp(op, "Sqrt") ||
	    !strcmp(op, "ReduceMean") || !strcmp(op, "Erf"))
		return trim__ox_unary_pattern(t, op);
	if (!strcmp(op, "Relu")) return trim__ox_act(t, "relu");
	if (!strcmp(op, "Clip")) return trim__ox_act(t, "clip");
	if (!strcmp(op, "Sigmoid")) return trim__ox_act(t, "sigmoid");
	if (!strcmp(op, "Tanh")) return trim__ox_act(t, "tanh");
	if (!strcmp(op, "HardSwish")) return trim__ox_act(t, "hardswish");
	if (!strcmp(op, "BatchNormalization")) return trim__ox_simple_layer(t, "batchnorm");
	if (!strcmp(op, "LayerNormalization")) return trim__ox_simple_layer(t, "layernorm");
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
		return trim__ox_simple_layer(t, "softmax");
	}
	if (!strcmp(op, "MaxPool")) return trim__ox_pool(t, "maxpool2d");
	if (!strcmp(op, "AveragePool")) return trim__ox_pool(t, "avgpool2d");
	if (!strcmp(op, "GlobalAveragePool")) return trim__ox_pool(t, "global_avgpool");
	if (!strcmp(op, "Flatten")) return trim__ox_flatten(t);
	if (!strcmp(op, "Reshape")) return trim__ox_reshape(t);
	if (!strcmp(op, "Squeeze")) return trim__ox_squeeze(t, 0);
	if (!strcmp(op, "Unsqueeze")) return trim__ox_squeeze(t, 1);
	if (!strcmp(op, "Transpose")) return trim__ox_transpose(t);
	if (!strcmp(op, "Concat")) return trim__ox_concat(t);
	if (!strcmp(op, "Split")) return trim__ox_split(t);
	if (!strcmp(op, "Slice")) return trim__ox_slice(t);
	if (!strcmp(op, "Gather")) return trim__ox_gather(t);
	if (!strcmp(op, "Resize")) return trim__ox_resize(t, 0);
	if (!strcmp(op, "Upsample")) return trim__ox_resize(t, 1);
	if (!strcmp(op, "Dropout")) return trim__ox_dropout(t);
	if (!strcmp(op, "Pad")) return trim__ox_pad(t);
	if (!strcmp(op, "Identity")) {
		int x, rc;
		if ((rc = trim__ox_input_val(t, 0, &x)) || (rc = trim__ox_settle(t, x, &x)) || x < 0)
			return rc ? rc : trim__ox_node_err(t, TRIM_ESCHEMA, "needs an input");
		return trim__ox_alias(t, x, t->v[x].pat, t->v[x].src);
	}
	if (!strcmp(op, "Constant")) return trim__ox_constant(t);
	return trim__ox_node_err(t, TRIM_ESCHEMA, "an operator libtrim cannot cost (docs/onnx.md lists "
	                "those it can; trim import --passthrough, or trim_onnx_options_set_passthrough, "
	                "makes it a zero-cost pass-through)");
}
