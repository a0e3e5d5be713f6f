/* ONNX translation, internal: the values and layers lib/network/onnx/translate.c keeps
 * and the helpers the operators (lib/network/onnx/ops*.c) translate nodes with. */
#ifndef TRIM_ONNX_TRANSLATE_INT_H
#define TRIM_ONNX_TRANSLATE_INT_H

#include "onnx_int.h"
#include "util/util.h"

enum layout {
	LY_NCHW,   /* [N, C, H, W] -> [H, W, C] */
	LY_NF,     /* [N, F] -> [1, 1, F] */
	LY_NTF,    /* [N, T, F] -> [T, 1, F] */
	LY_IDS,    /* [N, T] integer ids -> [T, 1, 1] */
	LY_NCT,    /* [N, C, H*W] (a flattened NCHW map) -> [H, W, C] */
	LY_NTHD,   /* [N, T, h, d] -> [T, 1, h d] */
	LY_HEADS,  /* [N, h, T, d] -> [T, 1, h d] */
	LY_HEADS_T, /* [N, h, d, T] -> [T, 1, h d] */
	LY_NCL      /* [N, C, L] (a 1-D convolution's) -> [L, 1, C] */
};

enum pattern {
	P_NONE = 0,
	P_SIGMOID,                                  /* sigmoid(src), not yet emitted */
	P_GELU_DIV, P_GELU_ERF, P_GELU_ERF1,        /* x / sqrt 2, erf(.), 1 + erf(.) */
	P_TG_CUBE, P_TG_INNER, P_TG_TANH, P_TG_1,   /* tanh GELU: x^3, x + c x^3, tanh, 1 + tanh */
	P_LN_MEAN, P_LN_CENTER, P_LN_SQ, P_LN_VAR, P_LN_STD
};

typedef struct {
	const char *name;
	const Onnx__TensorProto *t; /* static: its data; NULL for activations */
	int nd;
	int64_t d[8];
	int layer;  /* producing layer, -1 the network input */
	int layout;
	int pat, src; /* pattern stage and the value it started from */
	int base;     /* the value this one aliases (itself if none) */
	int readers;  /* node inputs that read it */
	const Onnx__NodeProto *node; /* the node that made it (NULL: input, initializer) */
} val;

typedef struct {
	char name[TRIM__NAME_LEN_ONNX];
	const char *type;
	int in[16], nin;
	char extra[320];
	const char *act;
	int act_ok;   /* accepts `activation` */
	int use_bias; /* -1: no such key */
	const Onnx__NodeProto *node; /* the node it stands for (errors name it) */
} lay;

/* t->v and t->l grow (trim__grow, which may move them) in trim__ox_add_val,
 * trim__ox_out_val, trim__ox_alias, trim__ox_new_layer, trim__ox_settle and
 * trim__ox_apply_act*: a val * or lay * taken before such a call points into
 * freed memory after it. Keep the index, or a copy of the val. */
typedef struct {
	const char *file;
	const trim_onnx_options *o;
	int64_t opset;
	val *v;
	size_t nv, capv;
	lay *l;
	size_t nl, capl;
	int64_t batch;
	int input_layout;
	int64_t input_shape[3];
	trim__sb warn;
	int nwarn;
	const Onnx__NodeProto *node; /* being translated */
	const Onnx__GraphProto *g;
} tr;

#define NODE_NAME(n) ((n)->name && (n)->name[0] ? (n)->name : "(unnamed)")

int trim__ox_node_err(tr *t, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int trim__ox_find_val(const tr *t, const char *name);
int trim__ox_add_val(tr *t, const char *name, int *index);
int64_t trim__ox_numel(const val *x);
int trim__ox_static_ints(tr *t, const val *x, int64_t *out, size_t cap, size_t *n);
int trim__ox_static_floats(tr *t, const val *x, double *out, size_t cap, size_t *n);
void trim__ox_lt_shape(const val *x, int64_t *s);
int trim__ox_new_layer(tr *t, const char *type, const char *hint, const int *in, int nin, int *li);
int trim__ox_out_val(tr *t, int oi, int layer, int layout, int nd, const int64_t *d, int *vi);
int trim__ox_alias(tr *t, int a, int pat, int src);
void trim__ox_extra(tr *t, int li, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void trim__ox_warn(tr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const Onnx__AttributeProto *trim__ox_attr(const Onnx__NodeProto *n, const char *name);
int64_t trim__ox_attr_int(const Onnx__NodeProto *n, const char *name, int64_t dflt);
double trim__ox_attr_float(const Onnx__NodeProto *n, const char *name, double dflt);
size_t trim__ox_attr_ints(const Onnx__NodeProto *n, const char *name, int64_t *out, size_t cap);
const char *trim__ox_attr_str(const Onnx__NodeProto *n, const char *name, char *buf, size_t cap);
int trim__ox_input_val(tr *t, size_t k, int *vi);
int trim__ox_need_act(tr *t, int vi, const char *what);
int trim__ox_need_static(tr *t, int vi, const char *what, int nd);
int trim__ox_apply_act_reads(tr *t, int x, const char *act, int reads);
int trim__ox_settle(tr *t, int vi, int *out);
int trim__ox_apply_act(tr *t, int x, const char *act);
/* graph_check.c: the graph's single assignment, topological order and outputs
 * (the rules of onnx.checker the translation relies on); 0 or an error naming
 * the node, input, initializer or output that breaks one. */
int trim__ox_check_graph(tr *t);
/* The operators (ops_*.c): translate node t->node; 0 or an error naming it. */
int trim__ox_conv(tr *t, int transposed);         /* ops_conv.c */
int trim__ox_pool(tr *t, const char *type);
int trim__ox_conv_pads(tr *t, const val *x, const int64_t *k, const int64_t *s, const int64_t *dl,
                       int64_t *pad, int transposed);
int trim__ox_gemm(tr *t);                         /* ops_matmul.c */
int trim__ox_matmul(tr *t);
int trim__ox_add(tr *t);                          /* ops_elementwise.c */
int trim__ox_mul(tr *t);
int trim__ox_div(tr *t);
int trim__ox_unary_pattern(tr *t, const char *op);
int trim__ox_act(tr *t, const char *act);
int trim__ox_is_scalar(const val *x);
int trim__ox_flatten(tr *t);                      /* ops_shape.c */
int trim__ox_reshape(tr *t);
int trim__ox_transpose(tr *t);
int trim__ox_concat(tr *t);
int trim__ox_split(tr *t);
int trim__ox_gather(tr *t);
int trim__ox_resize(tr *t, int legacy);
int trim__ox_dropout(tr *t);
int trim__ox_constant(tr *t);
int trim__ox_simple_layer(tr *t, const char *type); /* ops.c */
/* ops.c: translate node t->node; an operator that cannot be costed passes through. */
int trim__ox_translate_node(tr *t);
int trim__ox_unknown_op(tr *t, int code, const char *why);

#endif
