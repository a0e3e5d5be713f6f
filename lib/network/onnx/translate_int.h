/* ONNX translation, internal: the values and layers lib/network/onnx/translate.c keeps
 * and the helpers the operators (lib/network/onnx/ops*.c) translate nodes with.
 *
 * lib/network/onnx/: import.c (reading the model, the public entry points),
 * graph_check.c (onnx.checker's rules), translate.c (values, layers, the graph,
 * the description), fold.c (constant folding), tokens.c (tokens and attention
 * heads in any order of axes), ops.c (the dispatch), ops_conv.c, ops_matmul.c,
 * ops_elementwise.c (with masks), ops_shape.c, ops_slice.c, windows.c (Swin's windows,
 * shifted windows and patch merging). */
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
	LY_NCL,     /* [N, C, L] (a 1-D convolution's) -> [L, 1, C] */
	LY_TOK,     /* tokens with their axes in another order: val.at says which (tokens.c) */
	LY_NHWC,    /* [N, H, W, C] (channels last, after a Permute) -> [H, W, C] */
	LY_WIN,     /* [N, H/a, a, W/b, b, C]: a channels-last map viewed as windows of a x b (windows.c) */
	LY_WIN_T,   /* [N, H/a, W/b, a, b, C]: the windows' axes first (windows.c) */
	LY_CUT      /* rows and columns of a channels-last map (a Slice: val.cut), read by Concat only */
};

/* The axes of a tensor of tokens as products of atoms (tokens.c): N the batch, T
 * the tokens, U the tokens attended to (the keys of attention's scores), F the
 * features, h the heads and d the features of a head (F = h d), w the windows of
 * Swin's window attention (the tokens T are those of one window) and S the q, k
 * and v stacked by a fused projection (F = S h d). "T" | "Nh" | "d" is [T, N h, d];
 * an axis of size 1 may hold no atom. */
#define TOK_ATOMS "NTUFhdwS"
typedef struct {
	int nax;
	char ax[8][8];   /* each axis's atoms, in order */
	int64_t size[8]; /* each atom's size, indexed like TOK_ATOMS */
	/* windows (w) of a channels-last map of map[0] x map[1] positions (0: none,
	 * windows.c); win_form: libtrim's shape is [T, 1, w ...] (the windows among
	 * the channels, as a matmul takes them), else the map's [H, W, ...] */
	int64_t map[2];
	int win_form;
} tok_atoms;

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
	tok_atoms at; /* LY_TOK: the atoms of each axis */
	int64_t cut[2][2]; /* LY_CUT: the first row and the step, the first column and the step of src */
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
	struct trim__ox_folded *folded; /* the tensors fold.c made (freed by trim__ox_fold_free) */
	int batch_axis; /* of the graph input: 0, or 1 for tokens first ([T, N, F]) */
	int batch_rows; /* a product had the batch as its rows (tokens.c): try batch_axis 1 */
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
/* Output oi of the node: made by `layer`, of the layout, dims and atoms of *like. */
int trim__ox_out_like(tr *t, int oi, int layer, const val *like, int *vi);
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
/* fold.c: node t->node computed at import when its inputs are static (*done = 1:
 * its outputs are static values); 0 or an error naming it. */
int trim__ox_fold(tr *t, int *done);
void trim__ox_fold_free(tr *t);
/* ops_slice.c: the elements Slice takes along each of the nd axes of dims d
 * (starts, ends, axes (NULL: 0, 1, ...), steps (NULL: 1) of n entries): the
 * first index lo, the step and the count out of each axis. */
int trim__ox_slice_range(tr *t, int nd, const int64_t *d, const int64_t *starts, const int64_t *ends,
                         const int64_t *axes, const int64_t *steps, size_t n, int64_t *lo,
                         int64_t *step, int64_t *out);
/* tokens.c: tensors of tokens whatever the order of their axes. */
int trim__ox_tok_of(const val *x, tok_atoms *a);         /* 0, or -1: not tokens */
int trim__ox_tok_size(const tok_atoms *a, char atom);    /* the atom's size, 0 if absent */
int trim__ox_tok_layout(tok_atoms *a);                   /* the layout that names a, or LY_TOK */
void trim__ox_tok_lt_shape(const val *x, int64_t *s);
void trim__ox_tok_axis(const tok_atoms *a, int k, char *out); /* axis k's atoms of size > 1 */
int trim__ox_tok_is_features(const val *x, int axis); /* tokens whose axis holds just F */
int trim__ox_tok_reshape(tr *t, int x, size_t n, const int64_t *d, int *done);
int trim__ox_tok_transpose(tr *t, int x, const int64_t *p, size_t n, int *done);
int trim__ox_tok_matmul(tr *t, int a, int b, int *done);
/* A value like x whose last axis (features) has `units` elements. */
int trim__ox_tok_features(tr *t, int oi, int layer, int x, int64_t units, int *vi);
/* Gather of one of q, k, v (an axis of atoms S) of a fused projection: a split. */
int trim__ox_tok_gather(tr *t, int data, int64_t index, int64_t axis, int *done);
/* Split of that axis into its S entries, each kept as an axis of size 1 (unbind). */
int trim__ox_tok_split(tr *t, int data, int64_t axis, const int64_t *sizes, size_t ns, int *done);
/* windows.c: Swin's windows. *layer: the layer that gives x's windows in the
 * form a matmul takes (windows = 1) or as the map (0): x's own layer (also when
 * x has no windows), or a `reshape` made here. */
int trim__ox_win_layer(tr *t, int x, int windows, int *layer);
int trim__ox_win_reshape(tr *t, int x, size_t n, const int64_t *d, int *done);
int trim__ox_win_cut(tr *t, int x, const int64_t *lo, const int64_t *step, const int64_t *out,
                     int *done);
int trim__ox_win_concat(tr *t, const int *in, int m, int64_t axis);
int trim__ox_pad(tr *t);
/* A LY_CUT value of step 1 read by another node than a Concat: a `cropping2d`, in place. */
int trim__ox_win_crop(tr *t, int vi);
int trim__ox_win_shape(const val *x, int64_t *s); /* LY_WIN, LY_WIN_T, LY_CUT: [H, W, C]; 0 if one */
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
int trim__ox_where(tr *t);
int trim__ox_unary_pattern(tr *t, const char *op);
int trim__ox_act(tr *t, const char *act);
int trim__ox_is_scalar(const val *x);
int trim__ox_flatten(tr *t);                      /* ops_shape.c */
int trim__ox_reshape(tr *t);
int trim__ox_squeeze(tr *t, int unsqueeze); /* of an activation */
int trim__ox_transpose(tr *t);
int trim__ox_concat(tr *t);
int trim__ox_split(tr *t);
int trim__ox_slice(tr *t);                        /* ops_slice.c */
int trim__ox_gather(tr *t);
int trim__ox_resize(tr *t, int legacy);
int trim__ox_dropout(tr *t);
int trim__ox_constant(tr *t);
int trim__ox_simple_layer(tr *t, const char *type); /* ops.c */
/* ops.c: translate node t->node; an operator that cannot be costed passes through. */
int trim__ox_translate_node(tr *t);
/* A node libtrim cannot cost (ops.c): the error `code`, or (passthrough) its
 * largest activation input passed on at no cost, with a warning. */
int trim__ox_unknown_op(tr *t, int code, const char *why);

#endif
