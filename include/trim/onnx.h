/*
 * trim/onnx.h - networks imported from ONNX models.
 *
 * An ONNX model (a ModelProto, read with Debian's protobuf-c and the
 * onnx.proto schema of libonnx-dev) is translated into the network
 * description of docs/schema.md and loaded as any other: the YAML it gives
 * (trim_onnx_to_yaml, `trim import`) can be read and edited.
 * trim_network_load() takes a `.onnx` file as well, with the default
 * options. docs/onnx.md lists the operators and how each is costed.
 *
 * Errors name the file, the node, its op_type and the model's opset, and the
 * field at fault (TRIM_EPARSE for bytes that are not a model, TRIM_EIO for a
 * path that is no regular file (a FIFO, a device), TRIM_ERANGE for a file over
 * 2 GiB, refused before it is read, TRIM_ESCHEMA for an operator or opset it
 * cannot cost and for a graph onnx.checker refuses,
 * TRIM_ESHAPE for shapes that do not fit, TRIM_ERANGE for a dimension that is
 * unknown, negative or too large); docs/onnx.md lists what is refused.
 *
 * Ownership and threads as everywhere: handles through **out belong to the
 * caller; an options handle may be shared by threads once set up.
 */
#ifndef TRIM_ONNX_H
#define TRIM_ONNX_H

#include "trim/common.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_onnx_options trim_onnx_options;

TRIM_API int trim_onnx_options_create(trim_onnx_options **out);
TRIM_API void trim_onnx_options_free(trim_onnx_options *o);
/** The batch: the first dimension of the graph's inputs, whatever the model says
 * (0: the model's; a named batch dimension then defaults to 1). */
TRIM_API int trim_onnx_options_set_batch(trim_onnx_options *o, int64_t batch);
/** Fix a named (symbolic) dimension of the graph's inputs, e.g. "sequence" = 128. */
TRIM_API int trim_onnx_options_set_dim(trim_onnx_options *o, const char *name, int64_t value);
/** on != 0: an operator that cannot be costed becomes a zero-cost pass-through of
 * its first input, listed as a warning (trim_network_warning), instead of an error. */
TRIM_API int trim_onnx_options_set_passthrough(trim_onnx_options *o, int on);

/** Load an ONNX model file as a network (options may be NULL: the defaults). */
TRIM_API int trim_network_load_onnx(trim_network **out, const char *path,
                                    const trim_onnx_options *o);
/** The same from the bytes of a model in memory; `name` is used in messages. */
TRIM_API int trim_network_load_onnx_memory(trim_network **out, const void *data, size_t len,
                                           const char *name, const trim_onnx_options *o);
/** The network description (YAML, docs/schema.md) of an ONNX model file, checked
 * to load (an error it would give names the ONNX node); free *out with
 * trim_string_free. */
TRIM_API int trim_onnx_to_yaml(char **out, const char *path, const trim_onnx_options *o);

#ifdef __cplusplus
}
#endif
#endif
