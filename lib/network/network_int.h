/* lib/network/: network descriptions. One concept per file:
 *   network.c   YAML parsing, validation, shape inference
 *   layers.c    the layer types of transformers, decoders, sequence models
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
#include "workload/workload_int.h"

enum trim__layer_type {
	TRIM__L_CONV = 0,
	TRIM__L_DEPTHWISE,
	TRIM__L_DENSE,
	TRIM__L_MAXPOOL,
	TRIM__L_AVGPOOL,
	TRIM__L_GLOBAL_AVGPOOL,
	TRIM__L_BATCHNORM,
	TRIM__L_FLATTEN,
	TRIM__L_DROPOUT,
	TRIM__L_ADD,
	TRIM__L_CONCAT,
	TRIM__L_ACTIVATION,
	TRIM__L_MATMUL,      /* product of two activations, heads as groups */
	TRIM__L_LAYERNORM,
	TRIM__L_SOFTMAX,
	TRIM__L_UPSAMPLE,    /* nearest or bilinear */
	TRIM__L_CONV_T,      /* conv2d_transpose */
	TRIM__L_CONV1D,      /* a conv2d along rows (kernel k x 1) */
	TRIM__L_EMBEDDING,   /* a table lookup */
	TRIM__L_RESHAPE,     /* a view: no data moves */
	TRIM__L_TRANSPOSE,   /* a permutation of H, W, C: data moves */
	TRIM__L_SPLIT,       /* one piece of a split along channels: data moves */
	TRIM__L_PARAMETER,   /* a learned tensor with no input (class token, positions) */
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
/* The keys and shapes of the layer types added for modern networks (matmul, ...);
 * fills L->out, params, macs. */
int trim__parse_layer_more(trim__yctx *c, struct trim_network *net, trim__layer *L,
                           const trim__ynode *ln);

#endif
