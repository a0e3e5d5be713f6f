/*
 * ONNX import: a ModelProto (protobuf-c, the onnx.proto of libonnx-dev
 * compiled at build time) translated into the network description of
 * docs/schema.md, which the ordinary loader then reads. docs/onnx.md lists
 * the operators; lib/onnx/ops.c dispatches them one node at a time to
 * ops_conv.c, ops_matmul.c, ops_elementwise.c and ops_shape.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx/onnx_int.h"
#include "util/util.h"

/* ---- options --------------------------------------------------------------- */

int trim_onnx_options_create(trim_onnx_options **out)
{
	if (!out)
		return trim__error(TRIM_EINVAL, "trim_onnx_options_create: out is NULL");
	*out = trim__calloc(1, sizeof **out);
	return *out ? 0 : TRIM_ENOMEM;
}

void trim_onnx_options_free(trim_onnx_options *o) { free(o); }

int trim_onnx_options_set_batch(trim_onnx_options *o, int64_t batch)
{
	if (!o)
		return trim__error(TRIM_EINVAL, "trim_onnx_options_set_batch: NULL options");
	if (batch < 0 || batch > (1 << 24))
		return trim__error(TRIM_ERANGE, "batch %lld out of range [1, %d]", (long long)batch,
		                   1 << 24);
	o->batch = batch;
	return 0;
}

int trim_onnx_options_set_dim(trim_onnx_options *o, const char *name, int64_t value)
{
	if (!o || !name || !name[0])
		return trim__error(TRIM_EINVAL, "trim_onnx_options_set_dim: NULL argument");
	if (value < 1 || value > INT32_MAX)
		return trim__error(TRIM_ERANGE, "dimension '%s' = %lld out of range [1, %d]", name,
		                   (long long)value, INT32_MAX);
	if (strlen(name) >= sizeof o->dim_name[0])
		return trim__error(TRIM_EINVAL, "dimension name '%.40s...' too long", name);
	for (int k = 0; k < o->ndims; k++)
		if (!strcmp(o->dim_name[k], name)) {
			o->dim_value[k] = value;
			return 0;
		}
	if (o->ndims >= TRIM__ONNX_MAX_NAMED)
		return trim__error(TRIM_ERANGE, "at most %d named dimensions", TRIM__ONNX_MAX_NAMED);
	snprintf(o->dim_name[o->ndims], sizeof o->dim_name[0], "%s", name);
	o->dim_value[o->ndims++] = value;
	return 0;
}

int trim_onnx_options_set_passthrough(trim_onnx_options *o, int on)
{
	if (!o)
		return trim__error(TRIM_EINVAL, "trim_onnx_options_set_passthrough: NULL options");
	o->passthrough = on != 0;
	return 0;
}

/* ---- reading the file -------------------------------------------------------- */

static int read_file(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return trim__error(TRIM_EIO, "%s: cannot open: %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	int rc = buf ? 0 : trim__error(TRIM_ENOMEM, "out of memory reading %s", path);
	while (rc == 0) {
		if (n == cap) {
			if (cap > ((size_t)1 << 31)) {
				rc = trim__error(TRIM_ERANGE, "%s: larger than 2 GiB (ONNX's limit)", path);
				break;
			}
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb) {
				rc = trim__error(TRIM_ENOMEM, "out of memory reading %s", path);
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				rc = trim__error(TRIM_EIO, "%s: read error: %s", path, strerror(errno));
			break;
		}
	}
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	*data = buf;
	*len = n;
	return 0;
}

/* The YAML of a model in memory. */
static int to_yaml_memory(char **out, const uint8_t *data, size_t len, const char *name,
                          const trim_onnx_options *o)
{
	static const trim_onnx_options defaults = {0};
	*out = NULL;
	if (len == 0)
		return trim__error(TRIM_EPARSE, "%s: empty file, not an ONNX model", name);
	Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, len, data);
	if (!m)
		return trim__error(TRIM_EPARSE,
		                   "%s: not an ONNX model (the bytes do not decode as a ModelProto: "
		                   "truncated or another format)",
		                   name);
	int rc = trim__onnx_translate(out, m, name, o ? o : &defaults);
	onnx__model_proto__free_unpacked(m, NULL);
	return rc;
}

int trim_onnx_to_yaml(char **out, const char *path, const trim_onnx_options *o)
{
	if (!out || !path)
		return trim__error(TRIM_EINVAL, "trim_onnx_to_yaml: NULL argument");
	*out = NULL;
	uint8_t *data = NULL;
	size_t len = 0;
	int rc = read_file(path, &data, &len);
	if (rc)
		return rc;
	rc = to_yaml_memory(out, data, len, path, o);
	free(data);
	return rc;
}

static int load_yaml(trim_network **out, char *yaml, const char *name)
{
	int rc = trim_network_load_string(out, yaml, name);
	if (rc)
		trim__error_prefix("the network imported from ONNX");
	trim_string_free(yaml);
	return rc;
}

int trim_network_load_onnx(trim_network **out, const char *path, const trim_onnx_options *o)
{
	if (!out)
		return trim__error(TRIM_EINVAL, "trim_network_load_onnx: out is NULL");
	*out = NULL;
	char *yaml;
	int rc = trim_onnx_to_yaml(&yaml, path, o);
	return rc ? rc : load_yaml(out, yaml, path);
}

int trim_network_load_onnx_memory(trim_network **out, const void *data, size_t len,
                                  const char *name, const trim_onnx_options *o)
{
	if (!out || (!data && len))
		return trim__error(TRIM_EINVAL, "trim_network_load_onnx_memory: NULL argument");
	*out = NULL;
	if (!name)
		name = "<memory>";
	char *yaml;
	int rc = to_yaml_memory(&yaml, data, len, name, o);
	return rc ? rc : load_yaml(out, yaml, name);
}
