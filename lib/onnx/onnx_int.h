/* ONNX import, internal (lib/onnx/). */
#ifndef TRIM_ONNX_INT_H
#define TRIM_ONNX_INT_H

#include <stdint.h>

#include "onnx/onnx.pb-c.h" /* generated into $(BUILD)/gen/onnx from libonnx-dev's onnx.proto */
#include "trim/onnx.h"

#define TRIM__ONNX_MAX_NAMED 16
#define TRIM__NAME_LEN_ONNX 64 /* = TRIM__NAME_LEN of a layer name */

struct trim_onnx_options {
	int64_t batch;   /* 0: the model's */
	int passthrough; /* unknown operators pass their first input through, with a warning */
	int ndims;
	char dim_name[TRIM__ONNX_MAX_NAMED][64];
	int64_t dim_value[TRIM__ONNX_MAX_NAMED];
};

/* The network description (YAML, docs/schema.md) of model m read from `file`;
 * *out is freed with trim_string_free. */
int trim__onnx_translate(char **out, const Onnx__ModelProto *m, const char *file,
                         const trim_onnx_options *o);

#endif
