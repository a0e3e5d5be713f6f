/*
 * What the ONNX suites (check_onnx.c, check_onnx_torch.c) share (test/onnx_util.c).
 */
#ifndef TRIM_TEST_ONNX_UTIL_H
#define TRIM_TEST_ONNX_UTIL_H

#include <stddef.h>

#include "trim.h"
#include "trim/onnx.h"

/* The directory of the models of test/onnx/make_models.py (made once per run, in
 * TRIM_ONNX_DIR or a fresh directory that onnx_done removes). */
const char *onnx_dir(void);
void onnx_done(void);
/* The training workloads of net as JSON (freed with trim_string_free). */
char *workloads_json(trim_network *net);
/* onnx_dir()'s file imported with options o (NULL: the defaults); asserts it loads. */
trim_network *import(const char *file, const trim_onnx_options *o);
/* The layers' types are want (NULL-terminated). */
void types_are(const trim_network *net, const char *const *want);
int count_substr(const char *s, const char *what);
int has_warning(const trim_network *net, const char *what);
size_t count_type(const trim_network *net, const char *type);

#endif
