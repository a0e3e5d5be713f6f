/* ONNX import, internal (lib/network/onnx/). One concept per file:
 *   import.c           reading a ModelProto, the file checks, the entry points
 *   graph_check.c      the onnx.checker rules the translation relies on
 *   translate.c        graph -> network description, node by node
 *   ops.c              the operator table and the shared node helpers
 *   ops_conv.c         Conv, ConvTranspose and the pools
 *   ops_matmul.c       Gemm and MatMul
 *   ops_elementwise.c  Add, Mul, Div, activations, normalisations
 *   ops_shape.c        Flatten, Reshape, Transpose, Concat, Split, ...
 *   ops_slice.c        Slice
 *   tokens.c           tokens and attention heads in any order of axes
 *   windows.c          Swin's windows: partition and reverse, cyclic shift, patch merging, Pad
 *   fold.c             constant folding
 * translate_int.h is what the operators share. */
#ifndef TRIM_ONNX_INT_H
#define TRIM_ONNX_INT_H

#include <stdint.h>

#include "onnx/onnx.pb-c.h" /* generated into $(BUILD)/gen/onnx from libonnx-dev's onnx.proto */
#include "trim/onnx.h"
#include "util/handle.h"

#define TRIM__ONNX_MAX_NAMED 16
#define TRIM__NAME_LEN_ONNX 64 /* = TRIM__NAME_LEN of a layer name */

struct trim_onnx_options {
	uint32_t tag; /* TRIM__H_ONNX_OPTIONS (util/handle.h): first, checked by every entry point */
	int64_t batch;   /* 0: the model's */
	int passthrough; /* unknown operators pass their first input through, with a warning */
	int ndims;
	char dim_name[TRIM__ONNX_MAX_NAMED][64];
	int64_t dim_value[TRIM__ONNX_MAX_NAMED];
};

/* Where the lines of a translated description come from, so that an error the
 * network loader finds in it names the ONNX node (and the graph input), never
 * a line of a text the user did not write. The nodes belong to the model. */
typedef struct {
	int64_t opset;
	const char *input;          /* the graph input's name */
	int input_line, batch_line; /* the lines of network.input and network.batch */
	int first_layer_line;       /* layers[i] is on line first_layer_line + i */
	size_t nlayers;
	struct trim__onnx_layer_origin {
		const Onnx__NodeProto *node; /* the node the layer stands for */
		char layer[TRIM__NAME_LEN_ONNX];
	} *layer;
} trim__onnx_origin;

void trim__onnx_origin_free(trim__onnx_origin *origin);

/* The network description (YAML, docs/schema.md) of model m read from `file`;
 * *out is freed with trim_string_free; *origin (unless NULL) where its lines
 * come from, freed with trim__onnx_origin_free. */
int trim__onnx_translate(char **out, trim__onnx_origin *origin, const Onnx__ModelProto *m,
                         const char *file, const trim_onnx_options *o);

#endif
