/*
 * ONNX element-wise operators: Add (residuals, biases), Mul, Div, the pieces of
 * decomposed LayerNorm / GELU / Swish (Sub, Pow, Sqrt, ReduceMean, Erf) and the
 * activations, docs/onnx.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

static int same_lt_shape(const val *a, const val *b)
{
	int64_t s[3], q[3];
	trim__ox_lt_shape(a, s);
	trim__ox_lt_shape(b, q);
	return !memcmp(s, q, sizeof s);
}

int trim__ox_is_scalar(const val *x) { return trim__ox_numel(x) == 1; }

/* Attention's scores: made by a Q K^T matmul (scalings, masks and dropout aside). */
static const char *scores_layer(const tr *t, const val *x)
{
	if (x->t || x->layer < 0)
		return NULL;
	const lay *L = &t->l[x->layer];
	return !strcmp(L->type, "matmul") && strstr(L->extra, "transpose_b: true") ? L->name : NULL;
}

/* A mask applied to the scores: free, and named in a warning (the scores are
 * counted in full: libtrim does not skip what a mask hides). An added constant
 * may also be a bias (Swin's relative position bias): free too. */
static int mask(tr *t, int x, const char *how)
{
	const char *scores = scores_layer(t, &t->v[x]);
	int add = !strcmp(t->node->op_type, "Add");
	trim__ox_warn(t, "node '%s' (op_type %s) %s %s: a mask%s, not costed (the %s are "
	              "counted in full)", NODE_NAME(t->node), t->node->op_type, how,
	              scores ? "attention's scores" : "an activation", add ? " or a position bias" : "",
	              scores ? "scores" : "elements");
	return trim__ox_alias(t, x, P_NONE, -1);
}

/* Where(condition, X, Y) of a constant condition, one activation and one
 * constant: a mask (masked_fill on attention's scores). */
int trim__ox_where(tr *t)
{
	int c, x, y, rc;
	if ((rc = trim__ox_input_val(t, 0, &c)) || (rc = trim__ox_input_val(t, 1, &x)) ||
	    (rc = trim__ox_input_val(t, 2, &y)))
		return rc;
	if (c < 0 || x < 0 || y < 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "needs a condition, X and Y");
	if (!t->v[c].t || (!t->v[x].t) == (!t->v[y].t))
		return trim__ox_node_err(t, TRIM_ESCHEMA, "Where is supported as a mask: a constant "
		                         "condition choosing between one activation and a constant");
	int a = t->v[x].t ? y : x;
	if ((rc = trim__ox_settle(t, a, &a)))
		return rc;
	if (trim__ox_numel(&t->v[c]) > trim__ox_numel(&t->v[a]) ||
	    trim__ox_numel(&t->v[x == a ? y : x]) > trim__ox_numel(&t->v[a]))
		return trim__ox_node_err(t, TRIM_ESHAPE, "the condition or the constant is larger than "
		                         "the activation (the output would be another shape)");
	return mask(t, a, "selects between a constant and");
}

int trim__ox_add(tr *t)
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
		if (scores_layer(t, A) && !trim__ox_is_scalar(B))
			return mask(t, a, "adds a constant onto");
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
			return trim__ox_out_like(t, 0, li, &t->v[a], &vi);
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
	return trim__ox_out_like(t, 0, li, &t->v[a], &vi);
}

int trim__ox_mul(tr *t)
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

int trim__ox_div(tr *t)
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
		return trim__ox_out_like(t, 0, li, &t->v[src], &vi);
	}
	if (B->t) {
		double f[1];
		size_t n = 0;
		if (trim__ox_is_scalar(B) && trim__ox_static_floats(t, B, f, 1, &n) == 0 && fabs(f[0] - sqrt(2.0)) < 1e-3)
			return trim__ox_alias(t, a, P_GELU_DIV, a);
		return trim__ox_alias(t, a, A->pat, A->src); /* a scaling (attention's 1 / sqrt d) */
	}
	return trim__ox_node_err(t, TRIM_ESCHEMA, "a quotient of two activations is not a layer libtrim "
	                "knows (only the LayerNorm pattern)");
}

int trim__ox_unary_pattern(tr *t, const char *op)
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
		if (b < 0 || !t->v[b].t || !trim__ox_is_scalar(&t->v[b]) || trim__ox_static_floats(t, &t->v[b], e, 1, &n))
			return trim__ox_node_err(t, TRIM_ESCHEMA, "Pow needs a constant exponent");
		if (A->pat == P_LN_CENTER && e[0] == 2)
			return trim__ox_alias(t, a, P_LN_SQ, A->src);
		if (A->pat == P_NONE && e[0] == 3)
			return trim__ox_alias(t, a, P_TG_CUBE, a);
		return trim__ox_node_err(t, TRIM_ESCHEMA, "Pow outside the LayerNorm and tanh-GELU patterns");
	}
	return trim__ox_node_err(t, TRIM_ESCHEMA, "internal: %s", op);
}

int trim__ox_act(tr *t, const char *act)
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
