/*
 * ONNX graph -> network description. Nodes are read in their (topological)
 * order; every tensor of the graph is a value: a static tensor (initializer,
 * Constant) or an activation produced by a libtrim layer. Activations carry
 * their ONNX dims (batch first) and a layout telling how those map onto
 * libtrim's [H, W, C]; zero-cost ONNX plumbing (scalings, the reshapes and
 * transposes that split attention heads, flatten of a 1x1 map) aliases the
 * producing layer. Decomposed patterns (LayerNorm from ReduceMean / Sub /
 * Pow / Sqrt / Div, GELU with Erf or Tanh, Swish as x * Sigmoid(x)) are
 * recognised stage by stage. docs/onnx.md lists every rule.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"


int trim__ox_node_err(tr *t, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int trim__ox_node_err(tr *t, int code, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return trim__error(code, "%s: node '%s' (op_type %s, opset %lld): %s", t->file,
	                   NODE_NAME(t->node), t->node->op_type ? t->node->op_type : "?",
	                   (long long)t->opset, msg);
}

/* ---- values ------------------------------------------------------------------ */

int trim__ox_find_val(const tr *t, const char *name)
{
	for (size_t i = t->nv; i-- > 0;)
		if (!strcmp(t->v[i].name, name))
			return (int)i;
	return -1;
}

int trim__ox_add_val(tr *t, const char *name, int *index)
{
	if (trim__grow((void **)&t->v, &t->capv, t->nv + 1, sizeof *t->v))
		return TRIM_ENOMEM;
	val *x = &t->v[t->nv];
	memset(x, 0, sizeof *x);
	x->name = name;
	x->layer = -1;
	x->base = (int)t->nv;
	x->src = -1;
	x->node = t->node;
	*index = (int)t->nv++;
	return 0;
}

int64_t trim__ox_numel(const val *x)
{
	int64_t n = 1; /* saturating: dims are checked to [0, 2^31) */
	for (int k = 0; k < x->nd; k++)
		if (__builtin_mul_overflow(n, x->d[k], &n))
			return INT64_MAX;
	return n;
}

/* Integer / float data of a static tensor (int64, int32 or float, inline or raw). */
int trim__ox_static_ints(tr *t, const val *x, int64_t *out, size_t cap, size_t *n)
{
	const Onnx__TensorProto *p = x->t;
	size_t cnt = (size_t)trim__ox_numel(x);
	if (!p || cnt > cap)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "'%s' must be a small constant tensor", x->name);
	if (p->n_int64_data == cnt) {
		if (cnt) /* an empty tensor has no data pointer */
			memcpy(out, p->int64_data, cnt * sizeof *out);
	} else if (p->n_double_data == cnt && cnt) { /* a folded tensor (fold.c) */
		for (size_t k = 0; k < cnt; k++) {
			double f = p->double_data[k];
			out[k] = f >= 9.2e18 ? INT64_MAX : f <= -9.2e18 ? INT64_MIN : (int64_t)f;
		}
	} else if (p->n_int32_data == cnt) {
		for (size_t k = 0; k < cnt; k++)
			out[k] = p->int32_data[k];
	} else if (p->has_raw_data && p->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT64 &&
	           p->raw_data.len == cnt * 8) {
		for (size_t k = 0; k < cnt; k++) {
			uint64_t u = 0;
			for (int b = 7; b >= 0; b--)
				u = u << 8 | p->raw_data.data[k * 8 + (size_t)b];
			out[k] = (int64_t)u;
		}
	} else if (p->has_raw_data && p->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT32 &&
	           p->raw_data.len == cnt * 4) {
		for (size_t k = 0; k < cnt; k++) {
			uint32_t u = 0;
			for (int b = 3; b >= 0; b--)
				u = u << 8 | p->raw_data.data[k * 4 + (size_t)b];
			out[k] = (int32_t)u;
		}
	} else {
		return trim__ox_node_err(t, TRIM_ESCHEMA, "cannot read the integers of '%s'", x->name);
	}
	*n = cnt;
	return 0;
}

int trim__ox_static_floats(tr *t, const val *x, double *out, size_t cap, size_t *n)
{
	const Onnx__TensorProto *p = x->t;
	size_t cnt = (size_t)trim__ox_numel(x);
	if (!p || cnt > cap)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "'%s' must be a small constant tensor", x->name);
	if (p->n_float_data == cnt) {
		for (size_t k = 0; k < cnt; k++)
			out[k] = p->float_data[k];
	} else if (p->n_double_data == cnt && cnt) { /* a folded tensor (fold.c) */
		memcpy(out, p->double_data, cnt * sizeof *out);
	} else if (p->has_raw_data && p->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT &&
	           p->raw_data.len == cnt * 4) {
		for (size_t k = 0; k < cnt; k++) {
			uint32_t u = 0;
			float f;
			for (int b = 3; b >= 0; b--)
				u = u << 8 | p->raw_data.data[k * 4 + (size_t)b];
			memcpy(&f, &u, sizeof f);
			out[k] = f;
		}
	} else {
		int64_t iv[64];
		int rc = trim__ox_static_ints(t, x, iv, cap < 64 ? cap : 64, n);
		if (rc)
			return rc;
		for (size_t k = 0; k < *n; k++)
			out[k] = (double)iv[k];
		return 0;
	}
	*n = cnt;
	return 0;
}

/* libtrim's [H, W, C] of an activation. */
void trim__ox_lt_shape(const val *x, int64_t *s)
{
	const int64_t *d = x->d;
	switch (x->layout) {
	case LY_NCHW: s[0] = d[2], s[1] = d[3], s[2] = d[1]; break;
	case LY_NF: s[0] = 1, s[1] = 1, s[2] = d[1]; break;
	case LY_NTF: s[0] = d[1], s[1] = 1, s[2] = d[2]; break;
	case LY_IDS: s[0] = d[1], s[1] = 1, s[2] = 1; break;
	case LY_NCT: s[0] = -1, s[1] = -1, s[2] = d[1]; break;
	case LY_NTHD: s[0] = d[1], s[1] = 1, s[2] = d[2] * d[3]; break;
	case LY_HEADS: s[0] = d[2], s[1] = 1, s[2] = d[1] * d[3]; break;
	case LY_NCL: s[0] = d[2], s[1] = 1, s[2] = d[1]; break;
	case LY_TOK: trim__ox_tok_lt_shape(x, s); break;
	case LY_NHWC: s[0] = d[1], s[1] = d[2], s[2] = d[3]; break;
	case LY_WIN: case LY_WIN_T: case LY_CUT: trim__ox_win_shape(x, s); break;
	default: s[0] = d[3], s[1] = 1, s[2] = d[1] * d[2]; break; /* LY_HEADS_T */
	}
}

/* ---- layers -------------------------------------------------------------------- */

static void layer_name(tr *t, char *out, const char *hint)
{
	char base[TRIM__NAME_LEN_ONNX];
	snprintf(base, sizeof base - 4, "%s", hint && hint[0] ? hint : "layer");
	if (!strcmp(base, "input"))
		snprintf(base, sizeof base, "input_");
	snprintf(out, TRIM__NAME_LEN_ONNX, "%s", base);
	for (int k = 2;; k++) {
		int clash = 0;
		for (size_t i = 0; i < t->nl && !clash; i++)
			clash = !strcmp(t->l[i].name, out);
		if (!clash)
			return;
		snprintf(out, TRIM__NAME_LEN_ONNX, "%.52s.%d", base, k);
	}
}

/* A new layer reading the activations in[0..nin-1]; its output becomes value
 * `out` (a new value named after the node's output oi). */
int trim__ox_new_layer(tr *t, const char *type, const char *hint, const int *in, int nin,
                     int *li)
{
	if (trim__grow((void **)&t->l, &t->capl, t->nl + 1, sizeof *t->l))
		return TRIM_ENOMEM;
	lay *L = &t->l[t->nl];
	memset(L, 0, sizeof *L);
	layer_name(t, L->name, hint);
	L->type = type;
	L->node = t->node;
	L->use_bias = -1;
	L->act = "linear";
	for (int k = 0; k < nin && k < 16; k++)
		L->in[k] = t->v[in[k]].layer;
	L->nin = nin;
	*li = (int)t->nl++;
	return 0;
}

int trim__ox_out_val(tr *t, int oi, int layer, int layout, int nd, const int64_t *d, int *vi)
{
	const Onnx__NodeProto *n = t->node;
	if ((size_t)oi >= n->n_output || !n->output[oi][0])
		return trim__ox_node_err(t, TRIM_ESCHEMA, "has no output %d", oi);
	int rc = trim__ox_add_val(t, n->output[oi], vi);
	if (rc)
		return rc;
	val *x = &t->v[*vi];
	x->layer = layer;
	x->layout = layout;
	x->nd = nd;
	if (nd > 0)
		memcpy(x->d, d, (size_t)nd * sizeof *d);
	for (int k = 0; k < nd; k++)
		if (d[k] < 1 || d[k] > INT32_MAX)
			return trim__ox_node_err(t, TRIM_ESHAPE, "output '%s' would have dimension %d = "
			                         "%lld (1 to %d)", n->output[oi], k, (long long)d[k],
			                         INT32_MAX);
	/* the model's own shape of this tensor (value_info), where it gives one, must agree
	 * (the batch, and symbolic dimensions, aside) */
	for (size_t q = 0; t->g && q < t->g->n_value_info; q++) {
		const Onnx__ValueInfoProto *v = t->g->value_info[q];
		if (!v->name || strcmp(v->name, n->output[oi]) || !v->type ||
		    v->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
		    !v->type->tensor_type->shape)
			continue;
		const Onnx__TensorShapeProto *sh = v->type->tensor_type->shape;
		int bad = sh->n_dim != (size_t)nd;
		for (size_t k = 1; !bad && k < sh->n_dim; k++)
			bad = sh->dim[k]->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
			      sh->dim[k]->dim_value != d[k];
		if (bad)
			return trim__ox_node_err(t, TRIM_ESHAPE, "output '%s': the model's value_info "
			                         "gives another shape than the one computed from the inputs",
			                         n->output[oi]);
	}
	return 0;
}

int trim__ox_out_like(tr *t, int oi, int layer, const val *like, int *vi)
{
	val copy = *like; /* like may point into t->v, which the new value may move */
	int rc = trim__ox_out_val(t, oi, layer, copy.layout, copy.nd, copy.d, vi);
	if (rc == 0)
		t->v[*vi].at = copy.at;
	if (rc == 0 && copy.layout == LY_CUT) { /* the same rows and columns of the same map */
		memcpy(t->v[*vi].cut, copy.cut, sizeof copy.cut);
		t->v[*vi].src = copy.src;
	}
	return rc;
}

/* Output 0 of the node aliases value a (same layer, same dims unless given). */
int trim__ox_alias(tr *t, int a, int pat, int src)
{
	int vi = -1;
	val copy = t->v[a];
	int rc = trim__ox_out_like(t, 0, copy.layer, &copy, &vi);
	if (rc)
		return rc;
	t->v[vi].pat = pat;
	if (copy.layout != LY_CUT) /* a piece keeps the map it was cut from */
		t->v[vi].src = src;
	t->v[vi].base = copy.base;
	t->v[vi].t = copy.t;
	return 0;
}

void trim__ox_extra(tr *t, int li, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void trim__ox_extra(tr *t, int li, const char *fmt, ...)
{
	lay *L = &t->l[li];
	size_t n = strlen(L->extra);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(L->extra + n, sizeof L->extra - n, fmt, ap);
	va_end(ap);
}

void trim__ox_warn(tr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void trim__ox_warn(tr *t, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	trim__sb_puts(&t->warn, t->nwarn++ ? ", " : "");
	trim__sb_json_str(&t->warn, msg);
}

/* ---- attributes ------------------------------------------------------------------ */

const Onnx__AttributeProto *trim__ox_attr(const Onnx__NodeProto *n, const char *name)
{
	for (size_t k = 0; k < n->n_attribute; k++)
		if (n->attribute[k]->name && !strcmp(n->attribute[k]->name, name))
			return n->attribute[k];
	return NULL;
}

int64_t trim__ox_attr_int(const Onnx__NodeProto *n, const char *name, int64_t dflt)
{
	const Onnx__AttributeProto *a = trim__ox_attr(n, name);
	return a && a->has_i ? a->i : dflt;
}

double trim__ox_attr_float(const Onnx__NodeProto *n, const char *name, double dflt)
{
	const Onnx__AttributeProto *a = trim__ox_attr(n, name);
	return a && a->has_f ? a->f : dflt;
}

size_t trim__ox_attr_ints(const Onnx__NodeProto *n, const char *name, int64_t *out, size_t cap)
{
	const Onnx__AttributeProto *a = trim__ox_attr(n, name);
	if (!a)
		return 0;
	size_t k = 0;
	for (; k < a->n_ints && k < cap; k++)
		out[k] = a->ints[k];
	return k;
}

const char *trim__ox_attr_str(const Onnx__NodeProto *n, const char *name, char *buf, size_t cap)
{
	const Onnx__AttributeProto *a = trim__ox_attr(n, name);
	if (!a || !a->has_s)
		return NULL;
	size_t len = a->s.len < cap - 1 ? a->s.len : cap - 1;
	if (len) /* an empty string has no data pointer */
		memcpy(buf, a->s.data, len);
	buf[len] = '\0';
	return buf;
}


/* ---- operators ------------------------------------------------------------------ */

/* Value index of node input k (-1 if absent); an unknown name is an error. */
int trim__ox_input_val(tr *t, size_t k, int *vi)
{
	const Onnx__NodeProto *n = t->node;
	*vi = -1;
	if (k >= n->n_input || !n->input[k][0])
		return 0;
	int i = trim__ox_find_val(t, n->input[k]);
	if (i >= 0) {
		*vi = i;
		return 0;
	}
	const Onnx__GraphProto *g = t->g;
	for (size_t j = 0; j < g->n_node; j++)
		for (size_t q = 0; q < g->node[j]->n_output; q++)
			if (!strcmp(g->node[j]->output[q], n->input[k]))
				return trim__ox_node_err(t, TRIM_ESCHEMA,
				                "input '%s' is made by node '%s' later in the graph (a "
				                "cycle, or nodes out of topological order)",
				                n->input[k], NODE_NAME(g->node[j]));
	return trim__ox_node_err(t, TRIM_ESCHEMA,
	                "input '%s' is no graph input, initializer or node output", n->input[k]);
}

int trim__ox_need_act(tr *t, int vi, const char *what)
{
	if (vi < 0)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "missing %s", what);
	if (t->v[vi].t)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "%s '%s' must be an activation, it is a constant",
		                what, t->v[vi].name);
	if (t->v[vi].pat == P_SIGMOID)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "internal: pending sigmoid");
	return 0;
}

int trim__ox_need_static(tr *t, int vi, const char *what, int nd)
{
	if (vi < 0 || !t->v[vi].t)
		return trim__ox_node_err(t, TRIM_ESCHEMA, "%s must be an initializer or a Constant", what);
	if (nd && t->v[vi].nd != nd)
		return trim__ox_node_err(t, TRIM_ESHAPE, "%s '%s' has %d dims, expected %d", what,
		                t->v[vi].name, t->v[vi].nd, nd);
	return 0;
}

/* An activation function applied to x: fused into x's layer when that layer
 * takes an `activation`, has none yet and x has no reader but the function's
 * own `reads` (2 for x * sigmoid(x)); otherwise an `activation` layer. */
int trim__ox_apply_act_reads(tr *t, int x, const char *act, int reads)
{
	val *X = &t->v[x];
	if (X->layer >= 0) {
		lay *L = &t->l[X->layer];
		if (L->act_ok && !strcmp(L->act, "linear") && X->readers == reads &&
		    (X->base == x || t->v[X->base].readers <= 1))
			return (L->act = act, trim__ox_alias(t, x, P_NONE, -1));
	}
	int li = -1, vi = -1;
	int rc = trim__ox_new_layer(t, "activation", NODE_NAME(t->node), &x, 1, &li);
	if (rc)
		return rc;
	t->l[li].act = act;
	t->l[li].act_ok = 1;
	return trim__ox_out_like(t, 0, li, &t->v[x], &vi);
}

int trim__ox_apply_act(tr *t, int x, const char *act) { return trim__ox_apply_act_reads(t, x, act, 1); }

/* A pending sigmoid read by anything but the Mul of a Swish becomes a layer. */
int trim__ox_settle(tr *t, int vi, int *out)
{
	*out = vi;
	if (vi < 0 || t->v[vi].pat != P_SIGMOID)
		return 0;
	/* emit sigmoid on its source, as a layer of its own (it has another reader) */
	int src = t->v[vi].src, li;
	int rc = trim__ox_new_layer(t, "activation", t->v[vi].name, &src, 1, &li);
	if (rc)
		return rc;
	t->l[li].act = "sigmoid";
	t->l[li].act_ok = 1;
	if (t->v[vi].node)
		t->l[li].node = t->v[vi].node; /* the Sigmoid node, not its reader */
	t->v[vi].layer = li;
	t->v[vi].pat = P_NONE;
	t->v[vi].base = vi;
	return 0;
}

/* ---- the graph ---------------------------------------------------------------- */

static int64_t opset_of(const Onnx__ModelProto *m)
{
	for (size_t k = 0; k < m->n_opset_import; k++) {
		const Onnx__OperatorSetIdProto *o = m->opset_import[k];
		if ((!o->domain || !o->domain[0] || !strcmp(o->domain, "ai.onnx")) && o->has_version)
			return o->version;
	}
	return -1;
}

static int is_initializer(const Onnx__GraphProto *g, const char *name)
{
	for (size_t k = 0; k < g->n_initializer; k++)
		if (g->initializer[k]->name && !strcmp(g->initializer[k]->name, name))
			return 1;
	return 0;
}

/* The network input: dims fixed from the model, --batch and named dimensions. */
static int graph_input(tr *t, const Onnx__ValueInfoProto *vi)
{
	const char *name = vi->name ? vi->name : "";
	if (!vi->type || vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
	    !vi->type->tensor_type->shape)
		return trim__error(TRIM_ESHAPE, "%s: graph input '%s' has no tensor shape", t->file,
		                   name);
	const Onnx__TypeProto__Tensor *tt = vi->type->tensor_type;
	const Onnx__TensorShapeProto *sh = tt->shape;
	if (sh->n_dim < 2 || sh->n_dim > 4)
		return trim__error(TRIM_ESHAPE, "%s: graph input '%s' has %zu dims (2 to 4: batch "
		                   "first)", t->file, name, sh->n_dim);
	int x, rc = trim__ox_add_val(t, name, &x);
	if (rc)
		return rc;
	val *X = &t->v[x];
	X->nd = (int)sh->n_dim;
	for (size_t k = 0; k < sh->n_dim; k++) {
		const Onnx__TensorShapeProto__Dimension *d = sh->dim[k];
		int64_t v = -1;
		const char *param = NULL;
		if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
			/* a value the model gives: a size, never a guess (0 is an unknown
			 * batch to some exporters) */
			v = d->dim_value;
			if (v < 0 || v > INT32_MAX || (v == 0 && k > 0))
				return trim__error(TRIM_ERANGE, "%s: graph input '%s': dimension %zu is "
				                   "%lld: %s", t->file, name, k, (long long)v,
				                   v < 0 ? "negative" : v == 0 ? "an empty tensor" :
				                   "too large (at most 2^31 - 1)");
		} else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM) {
			param = d->dim_param;
		}
		for (int q = 0; param && q < t->o->ndims; q++)
			if (!strcmp(t->o->dim_name[q], param))
				v = t->o->dim_value[q];
		if ((int)k == t->batch_axis && t->o->batch > 0)
			v = t->o->batch;
		else if ((int)k == t->batch_axis && v < 1)
			v = 1; /* a symbolic batch: 1 unless --batch */
		if (v < 1)
			return trim__error(TRIM_ERANGE,
			                   "%s: graph input '%s': dimension %zu%s%s%s is unknown: fix it "
			                   "(trim import --dim %s=N, trim_onnx_options_set_dim)",
			                   t->file, name, k, param ? " ('" : "", param ? param : "",
			                   param ? "')" : "", param && param[0] ? param : "NAME");
		X->d[k] = v;
	}
	t->batch = X->d[t->batch_axis];
	int ints = tt->has_elem_type && (tt->elem_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT64 ||
	                                 tt->elem_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT32);
	if (X->nd == 4) {
		X->layout = LY_NCHW;
	} else if (X->nd == 3 && t->batch_axis == 1) {
		/* [T, N, F]: tokens first (torch.nn without batch_first) */
		X->layout = LY_TOK;
		X->at = (tok_atoms){.nax = 3, .ax = {"T", "N", "F"}, .size = {X->d[1], X->d[0], 0, X->d[2]}};
		trim__ox_warn(t, "graph input '%s' [%lld, %lld, %lld] has its tokens first (attention "
		              "reads axis 1 as the batch, as torch.nn without batch_first does): batch %lld",
		              name, (long long)X->d[0], (long long)X->d[1], (long long)X->d[2],
		              (long long)X->d[1]);
		t->input_layout = LY_NTF;
		trim__ox_lt_shape(X, t->input_shape);
		return 0;
	} else if (X->nd == 3) {
		/* [N, C, L] when a 1-D convolution or pool reads it, else [N, T, F] tokens */
		X->layout = LY_NTF;
		for (size_t j = 0; j < t->g->n_node; j++) {
			const Onnx__NodeProto *nd = t->g->node[j];
			const char *op = nd->op_type ? nd->op_type : "";
			if (nd->n_input > 0 && !strcmp(nd->input[0], name) &&
			    (!strcmp(op, "Conv") || !strcmp(op, "ConvTranspose") || !strcmp(op, "MaxPool") ||
			     !strcmp(op, "AveragePool")))
				X->layout = LY_NCL;
		}
	} else {
		X->layout = ints ? LY_IDS : LY_NF;
	}
	t->input_layout = X->layout;
	trim__ox_lt_shape(X, t->input_shape);
	return 0;
}

static int count_readers(tr *t, const char *name)
{
	int n = 0;
	for (size_t j = 0; j < t->g->n_node; j++)
		for (size_t k = 0; k < t->g->node[j]->n_input; k++)
			n += !strcmp(t->g->node[j]->input[k], name);
	for (size_t k = 0; k < t->g->n_output; k++)
		n += t->g->output[k]->name && !strcmp(t->g->output[k]->name, name);
	return n;
}

static void yaml_str(trim__sb *sb, const char *s) { trim__sb_json_str(sb, s); }

/* The line the text of sb continues on. */
static int next_line(const trim__sb *sb)
{
	int n = 1;
	for (size_t i = 0; sb->buf && i < sb->len; i++)
		n += sb->buf[i] == '\n';
	return n;
}

void trim__onnx_origin_free(trim__onnx_origin *origin)
{
	if (!origin)
		return;
	free(origin->layer);
	memset(origin, 0, sizeof *origin);
}

static void emit(tr *t, trim__sb *sb, const Onnx__ModelProto *m, trim__onnx_origin *origin)
{
	const Onnx__GraphProto *g = m->graph;
	trim__sb_printf(sb, "# Imported from %s (ONNX opset %lld", t->file, (long long)t->opset);
	if (m->producer_name && m->producer_name[0])
		trim__sb_printf(sb, ", made by %.60s", m->producer_name);
	trim__sb_puts(sb, ") by libtrim (docs/onnx.md).\nschema_version: 1\nnetwork:\n  name: ");
	char name[TRIM__NAME_LEN_ONNX];
	snprintf(name, sizeof name, "%s", g->name && g->name[0] ? g->name : "onnx");
	yaml_str(sb, name);
	const int64_t *s = t->input_shape;
	origin->input_line = next_line(sb) + 1;
	if (t->input_layout == LY_IDS)
		trim__sb_printf(sb, "\n  input: [%lld]", (long long)s[0]);
	else if (t->input_layout == LY_NTF || t->input_layout == LY_NCL)
		trim__sb_printf(sb, "\n  input: [%lld, %lld]", (long long)s[0], (long long)s[2]);
	else
		trim__sb_printf(sb, "\n  input: [%lld, %lld, %lld]", (long long)s[0], (long long)s[1],
		                (long long)s[2]);
	origin->batch_line = origin->input_line + 1;
	trim__sb_printf(sb, "\n  batch: %lld\n", (long long)t->batch);
	if (t->nwarn) {
		trim__sb_puts(sb, "  warnings: [");
		trim__sb_puts(sb, t->warn.buf ? t->warn.buf : "");
		trim__sb_puts(sb, "]\n");
	}
	trim__sb_puts(sb, "layers:\n");
	origin->first_layer_line = next_line(sb); /* a layer a line */
	for (size_t i = 0; i < t->nl; i++) {
		const lay *L = &t->l[i];
		if (origin->layer) {
			origin->layer[i].node = L->node;
			snprintf(origin->layer[i].layer, sizeof origin->layer[i].layer, "%s", L->name);
		}
		trim__sb_puts(sb, "  - {name: ");
		yaml_str(sb, L->name);
		trim__sb_printf(sb, ", type: %s", L->type);
		if (strcmp(L->type, "parameter")) {
			trim__sb_puts(sb, ", inputs: [");
			for (int k = 0; k < L->nin; k++) {
				trim__sb_puts(sb, k ? ", " : "");
				yaml_str(sb, L->in[k] < 0 ? "input" : t->l[L->in[k]].name);
			}
			trim__sb_puts(sb, "]");
		}
		trim__sb_puts(sb, L->extra);
		if (L->act_ok && (strcmp(L->act, "linear") || !strcmp(L->type, "activation")))
			trim__sb_printf(sb, ", activation: %s", L->act);
		if (L->use_bias >= 0)
			trim__sb_printf(sb, ", use_bias: %s", L->use_bias ? "true" : "false");
		trim__sb_puts(sb, "}\n");
	}
}

/* The graph's values and layers into t (once t->batch_axis is set). */
static int translate_graph(tr *t)
{
	const Onnx__GraphProto *g = t->g;
	int rc = 0;
	/* initializers, then the one activation input */
	for (size_t k = 0; rc == 0 && k < g->n_initializer; k++) {
		const Onnx__TensorProto *p = g->initializer[k];
		int vi = -1;
		if (!p->name || p->n_dims > 8) {
			rc = trim__error(TRIM_ESHAPE, "%s: initializer %zu has no name or more than 8 dims",
			                 t->file, k);
			break;
		}
		for (size_t q = 0; q < p->n_dims && rc == 0; q++)
			if (p->dims[q] < 0 || p->dims[q] > INT32_MAX)
				rc = trim__error(TRIM_ESHAPE, "%s: initializer '%s': dimension %zu is %lld: %s",
				                 t->file, p->name, q, (long long)p->dims[q],
				                 p->dims[q] < 0 ? "negative" : "too large (at most 2^31 - 1)");
		if (rc == 0 && (rc = trim__ox_add_val(t, p->name, &vi)) == 0) {
			t->v[vi].t = p;
			t->v[vi].nd = (int)p->n_dims;
			if (p->n_dims)
				memcpy(t->v[vi].d, p->dims, p->n_dims * sizeof *p->dims);
		}
	}
	int ninputs = 0;
	for (size_t k = 0; rc == 0 && k < g->n_input; k++) {
		const Onnx__ValueInfoProto *vi = g->input[k];
		if (!vi->name || is_initializer(g, vi->name))
			continue;
		if (ninputs++) {
			rc = trim__error(TRIM_ESCHEMA, "%s: the graph has more than one input ('%s'); a "
			                 "libtrim network has one", t->file, vi->name);
			break;
		}
		rc = graph_input(t, vi);
	}
	if (rc == 0 && ninputs == 0)
		rc = trim__error(TRIM_ESCHEMA, "%s: the graph has no input", t->file);
	for (size_t j = 0; rc == 0 && j < g->n_node; j++) {
		t->node = g->node[j];
		for (size_t k = 0; k < t->node->n_input; k++) {
			int vi = trim__ox_find_val(t, t->node->input[k]);
			if (vi >= 0 && !t->v[vi].readers)
				t->v[vi].readers = count_readers(t, t->node->input[k]);
		}
		size_t before = t->nv;
		int folded = 0;
		rc = trim__ox_fold(t, &folded);
		if (rc == 0 && !folded)
			rc = trim__ox_translate_node(t);
		if (rc == TRIM_ESCHEMA && t->o->passthrough && t->nv == before)
			rc = trim__ox_unknown_op(t, rc, trim_last_error());
	}
	/* every graph output must be a settled activation */
	for (size_t k = 0; rc == 0 && k < g->n_output; k++) {
		int vi = g->output[k]->name ? trim__ox_find_val(t, g->output[k]->name) : -1;
		if (vi < 0) {
			rc = trim__error(TRIM_ESCHEMA, "%s: graph output '%s' is made by no node", t->file,
			                 g->output[k]->name ? g->output[k]->name : "?");
		} else if (t->v[vi].pat == P_SIGMOID) {
			rc = trim__ox_settle(t, vi, &vi);
		} else if (t->v[vi].pat != P_NONE) {
			rc = trim__error(TRIM_ESCHEMA, "%s: graph output '%s' ends inside an unfinished "
			                 "LayerNorm or GELU pattern", t->file, g->output[k]->name);
		}
	}
	return rc;
}

/* t emptied for another translation of its graph. */
static void reset(tr *t)
{
	trim__sb_free(&t->warn);
	trim__sb_init(&t->warn);
	trim__ox_fold_free(t);
	t->nv = t->nl = 0;
	t->nwarn = 0;
	t->batch_rows = 0;
}

int trim__onnx_translate(char **out, trim__onnx_origin *origin, const Onnx__ModelProto *m,
                         const char *file, const trim_onnx_options *o)
{
	tr t = {.file = file, .o = o};
	trim__sb_init(&t.warn);
	int rc = 0;
	const Onnx__GraphProto *g = m->graph;
	t.g = g;
	t.opset = opset_of(m);
	if (!g)
		rc = trim__error(TRIM_EPARSE, "%s: the model has no graph", file);
	else if (t.opset < 0)
		rc = trim__error(TRIM_ESCHEMA, "%s: the model imports no ONNX operator set", file);
	else if (t.opset < 7 || t.opset > 18)
		rc = trim__error(TRIM_ESCHEMA, "%s: ONNX opset %lld is not supported (7 to 18)", file,
		                 (long long)t.opset);
	else if (g->n_node == 0)
		rc = trim__error(TRIM_ESCHEMA, "%s: the graph has no node", file);
	else
		rc = trim__ox_check_graph(&t);
	if (rc == 0)
		rc = translate_graph(&t);
	if (rc == TRIM_ESHAPE && t.batch_rows && !t.batch_axis) {
		/* attention's rows were the input's first axis: the tokens come first
		 * ([T, N, F], torch.nn without batch_first); the batch is axis 1 */
		reset(&t);
		t.batch_axis = 1;
		rc = translate_graph(&t);
	}
	if (rc == 0 && t.nl == 0)
		rc = trim__error(TRIM_ESCHEMA, "%s: no node of the graph is a layer libtrim costs",
		                 file);
	trim__onnx_origin where = {0};
	if (rc == 0 && origin) {
		where.layer = trim__calloc(t.nl, sizeof *where.layer);
		if (!where.layer)
			rc = TRIM_ENOMEM;
	}
	if (rc == 0) {
		trim__sb sb;
		trim__sb_init(&sb);
		where.opset = t.opset;
		where.nlayers = t.nl;
		for (size_t k = 0; k < g->n_input && !where.input; k++)
			if (g->input[k]->name && !is_initializer(g, g->input[k]->name))
				where.input = g->input[k]->name;
		emit(&t, &sb, m, &where);
		rc = trim__sb_take(&sb, out);
	}
	if (rc == 0 && origin)
		*origin = where;
	else
		trim__onnx_origin_free(&where);
	trim__sb_free(&t.warn);
	trim__ox_fold_free(&t);
	free(t.v);
	free(t.l);
	return rc;
}
