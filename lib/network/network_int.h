/* lib/network/: network descriptions. One concept per file:
 *   network.c   YAML parsing, validation, shape inference; the CNN kinds' shapes
 *   kinds.c     the layer kinds' table: keys, inputs, shape function
 *   layers.c    the shapes of transformer, decoder and sequence-model kinds
 *   borders.c   zero padding and cropping of a map's borders
 *   api.c       loading (file, string, .onnx), digest, public accessors
 *   onnx/       the ONNX importer (onnx/onnx_int.h has its own map)
 *
 * Internal representation of a loaded network description. */
#ifndef TRIM_NETWORK_INT_H
#define TRIM_NETWORK_INT_H

#include <stdint.h>

#include "trim/workload.h"
#include "util/digest.h"
#include "util/handle.h"

/* A layer's name, its NUL included (the workloads made of a layer carry it). */
#define TRIM__NAME_LEN 64

/* The layer kinds, one row each: its enum (TRIM__L_<E>), its YAML `type`, the
 * keys it accepts (an array in kinds.c), how many inputs it takes and the
 * function that reads its parameters and infers its output (kinds.c's table,
 * trim__layer_kinds). A new layer type is a row here, its keys and shape
 * function, and its loop nests in lib/workload/. The order is the enum's. */
#define TRIM__LAYER_KINDS(X)                                                              \
	X(CONV, "conv2d", keys_conv, 1, 1, trim__shape_conv)                                    \
	X(DEPTHWISE, "depthwise_conv2d", keys_depthwise, 1, 1, trim__shape_conv)                \
	X(DENSE, "dense", keys_dense, 1, 1, trim__shape_dense)                                  \
	X(MAXPOOL, "maxpool2d", keys_pool, 1, 1, trim__shape_pool)                              \
	X(AVGPOOL, "avgpool2d", keys_pool, 1, 1, trim__shape_pool)                              \
	X(GLOBAL_AVGPOOL, "global_avgpool", keys_plain, 1, 1, trim__shape_global_avgpool)       \
	X(BATCHNORM, "batchnorm", keys_act, 1, 1, trim__shape_batchnorm) /* + fused ReLU */     \
	X(FLATTEN, "flatten", keys_plain, 1, 1, trim__shape_flatten)                            \
	X(DROPOUT, "dropout", keys_dropout, 1, 1, trim__shape_dropout)                          \
	X(ADD, "add", keys_merge, 2, TRIM__MAX_INPUTS, trim__shape_same)                        \
	X(CONCAT, "concat", keys_concat, 2, TRIM__MAX_INPUTS, trim__shape_concat)               \
	X(ACTIVATION, "activation", keys_act, 1, 1, trim__shape_same)                           \
	X(MATMUL, "matmul", keys_matmul, 2, 2, trim__shape_matmul) /* heads as groups */        \
	X(LAYERNORM, "layernorm", keys_plain, 1, 1, trim__shape_layernorm)                      \
	X(SOFTMAX, "softmax", keys_plain, 1, 1, trim__shape_same)                               \
	X(UPSAMPLE, "upsample", keys_upsample, 1, 1, trim__shape_upsample) /* nearest, bilinear */ \
	X(CONV_T, "conv2d_transpose", keys_conv_t, 1, 1, trim__shape_conv_t)                    \
	X(CONV1D, "conv1d", keys_conv, 1, 1, trim__shape_conv) /* along rows (k x 1) */         \
	X(EMBEDDING, "embedding", keys_embedding, 1, 1, trim__shape_embedding) /* a lookup */   \
	X(RESHAPE, "reshape", keys_reshape, 1, 1, trim__shape_reshape) /* a view */             \
	X(TRANSPOSE, "transpose", keys_transpose, 1, 1, trim__shape_transpose) /* H, W, C */    \
	X(SPLIT, "split", keys_split, 1, 1, trim__shape_split) /* one piece, along channels */  \
	X(PARAMETER, "parameter", keys_parameter, 0, 0, trim__shape_parameter) /* no input */ \
	X(ZEROPAD, "zeropad2d", keys_zeropad, 1, 1, trim__shape_borders) /* zeros around the map */ \
	X(CROP, "cropping2d", keys_crop, 1, 1, trim__shape_borders)   /* its borders cut off */

enum trim__layer_type {
#define TRIM__X_ENUM(e, name, keys, lo, hi, fn) TRIM__L_##e,
	TRIM__LAYER_KINDS(TRIM__X_ENUM)
#undef TRIM__X_ENUM
	TRIM__L_COUNT
};

enum trim__act {
	TRIM__ACT_LINEAR = 0,
	TRIM__ACT_RELU,
	TRIM__ACT_RELU6,
	TRIM__ACT_SIGMOID,
	TRIM__ACT_TANH,
	TRIM__ACT_SWISH,
	TRIM__ACT_SOFTMAX,
	TRIM__ACT_GELU,
	TRIM__ACT_SILU,
	TRIM__ACT_HARDSWISH,
	TRIM__ACT_COUNT
};

#define TRIM__MAX_INPUTS 16
#define TRIM__NET_INPUT (-1) /* input index meaning "the network input" */

typedef struct {
	char name[TRIM__NAME_LEN];
	int type;
	int line, col;
	int inputs[TRIM__MAX_INPUTS]; /* layer indices, or TRIM__NET_INPUT */
	int ninputs;
	/* parameters */
	int64_t filters, units, groups, depth_multiplier;
	int64_t kernel[2], stride[2], dilation[2];
	int64_t pad[4]; /* top, bottom, left, right */
	int activation;
	int use_bias;
	double rate; /* dropout */
	/* matmul: heads (groups), whether b is used transposed (a . b^T);
	 * contraction and output width per head */
	int64_t heads, mm_k, mm_m;
	int transpose_b;
	int interp;          /* upsample: 0 nearest, 1 bilinear */
	int64_t scale[2];    /* upsample factors */
	int64_t out_pad[2];  /* conv2d_transpose output padding */
	int64_t vocab;       /* embedding rows */
	int perm[3];         /* transpose: output axis k is input axis perm[k] */
	int64_t tokens;      /* dense over [tokens, features]: H x W folded into the batch; 1 flat */
	/* shapes, H W C */
	int64_t in[3], out[3];
	int flat; /* output is a flat vector (after flatten / dense / global pool) */
	int64_t params, macs;
	/* ReLU-driven sparsity of the layer's output (fraction of zeros), given in
	 * the description (`sparsity:`); < 0 when not given. */
	double act_sparsity, grad_sparsity, sparsity_cv;
	int sparsity_line, sparsity_col;
} trim__layer;

struct trim_network {
	uint32_t tag; /* TRIM__H_NETWORK (util/handle.h): first, checked by every entry point */
	char name[TRIM__NAME_LEN];
	char *file;
	int64_t input[3];
	int mode;
	int64_t batch;
	int word_bits;
	int nlayers;
	trim__layer *layers;
	int64_t params, macs;
	double default_sparsity; /* network-wide default for ReLU outputs; < 0 none */
	char **warnings;         /* `warnings:` (e.g. operators an ONNX import passed through) */
	int nwarnings;
	/* SHA-256 of the description's YAML tree (keys, values and their order;
	 * not comments, layout or the file name): the workloads made from it
	 * carry it, and what takes a network and workloads compares the two */
	unsigned char digest[TRIM__DIGEST_BYTES];
};

const char *trim__layer_type_name(int type);

/* Parsing helpers shared by network.c and layers.c (trim__yctx, ydoc.h). */
#include "util/ydoc.h"
/* The whole description at root into net (network.c); api.c's loader
 * calls it, then digests the tree. */
int trim__net_parse(trim__yctx *c, struct trim_network *net, const trim__ynode *root);
int trim__net_read_padding(trim__yctx *c, const trim__ynode *map, trim__layer *L);
/* p | [ph, pw] | [[t, b], [l, r]] at n (its key pushed on c): top, bottom, left,
 * right (network.c). */
int trim__net_read_sides(trim__yctx *c, const trim__ynode *n, int64_t *side);
int trim__net_window_out(trim__yctx *c, const trim__ynode *node, const trim__layer *L, int a,
                         int64_t *out);
/* Product of n counts into *out; 1 if it does not fit in 64 bits. */
int trim__net_product(int64_t *out, int n, const int64_t *f);
/* "layer 'x': its WHAT overflow 64 bits" at the layer's node. */
int trim__net_overflow(trim__yctx *c, const trim__ynode *ln, const trim__layer *L,
                       const char *what);
/* A shape [H, W, C], [T, F] (T tokens of F features: [T, 1, F]) or [T] ([T, 1, 1]). */
int trim__net_read_shape(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                         int64_t *out);
/* A layer kind's shape function: reads the kind's own keys and fills
 * L->out, params, macs (the common keys, inputs and L->in are read). */
typedef int (*trim__layer_shape_fn)(trim__yctx *c, struct trim_network *net, trim__layer *L,
                                    const trim__ynode *ln);
typedef struct {
	const char *name;              /* the YAML `type` */
	const char *const *keys;       /* every key it accepts, NULL-terminated */
	int min_inputs, max_inputs;    /* 0, 0: it reads none (a parameter) */
	trim__layer_shape_fn shape;
} trim__layer_kind;
/* TRIM__L_COUNT rows in enum order, then a row of NULLs; and the names alone
 * (NULL-terminated) for the `type` key's choices (kinds.c). */
extern const trim__layer_kind trim__layer_kinds[TRIM__L_COUNT + 1];
extern const char *const trim__layer_kind_names[TRIM__L_COUNT + 1];
#define TRIM__X_DECL(e, name, keys, lo, hi, fn) \
	int fn(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln);
TRIM__LAYER_KINDS(TRIM__X_DECL)
#undef TRIM__X_DECL

#endif
