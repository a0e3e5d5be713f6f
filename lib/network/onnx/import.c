/*
 * ONNX import: a ModelProto (protobuf-c, the onnx.proto of libonnx-dev
 * compiled at build time) translated into the network description of
 * docs/schema.md, which the ordinary loader then reads. docs/onnx.md lists
 * the operators; lib/network/onnx/ops.c dispatches them one node at a time to
 * ops_conv.c, ops_matmul.c, ops_elementwise.c and ops_shape.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "network/network_int.h"
#include "onnx_int.h"
#include "translate_int.h"
#include "util/handle.h"
#include "util/util.h"

/* ---- options --------------------------------------------------------------- */

int trim_onnx_options_create(trim_onnx_options **out)
{
	if (!out)
		return trim__error(TRIM_EINVAL, "trim_onnx_options_create: out is NULL");
	*out = trim__calloc(1, sizeof **out);
	if (!*out)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(*out, ONNX_OPTIONS);
	return 0;
}

void trim_onnx_options_free(trim_onnx_options *o)
{
	TRIM__HANDLE_CHECK_VOID(o, ONNX_OPTIONS);
	if (!o)
		return;
	TRIM__HANDLE_POISON(o, ONNX_OPTIONS);
	free(o);
}

int trim_onnx_options_set_batch(trim_onnx_options *o, int64_t batch)
{
	TRIM__HANDLE_CHECK(o, ONNX_OPTIONS, TRIM_EINVAL);
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
	TRIM__HANDLE_CHECK(o, ONNX_OPTIONS, TRIM_EINVAL);
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
	TRIM__HANDLE_CHECK(o, ONNX_OPTIONS, TRIM_EINVAL);
	if (!o)
		return trim__error(TRIM_EINVAL, "trim_onnx_options_set_passthrough: NULL options");
	o->passthrough = on != 0;
	return 0;
}

/* ---- reading the file -------------------------------------------------------- */

/* protobuf's limit on a message, and so on an ONNX model without external data */
#define ONNX_MAX_BYTES ((int64_t)1 << 31)

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* A model file, whole: a regular file of at most 2 GiB, its size known (fstat)
 * before anything is allocated. O_NONBLOCK: a FIFO without a writer is
 * refused instead of waited for (a regular file ignores the flag). */
static int read_file(const char *path, uint8_t **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return trim__error(TRIM_EIO, "%s: cannot open: %s", path, strerror(errno));
	struct stat st;
	uint8_t *buf = NULL;
	size_t n = 0;
	int rc = 0;
	if (fstat(fd, &st) != 0)
		rc = trim__error(TRIM_EIO, "%s: cannot stat: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = trim__error(TRIM_EIO, "%s: %s, not a regular file: an ONNX model is read from a "
		                 "file", path, file_kind(st.st_mode));
	else if ((int64_t)st.st_size > ONNX_MAX_BYTES)
		rc = trim__error(TRIM_ERANGE, "%s: %lld bytes, larger than 2 GiB (ONNX's limit: larger "
		                 "models keep their weights as external data)", path,
		                 (long long)st.st_size);
	else if (!(buf = malloc(st.st_size > 0 ? (size_t)st.st_size : 1)))
		rc = trim__error(TRIM_ENOMEM, "out of memory reading %s (%lld bytes)", path,
		                 (long long)st.st_size);
	/* the size fstat gave, no more (a file that grows meanwhile is read that far) */
	while (rc == 0 && n < (size_t)st.st_size) {
		ssize_t got = read(fd, buf + n, (size_t)st.st_size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			rc = trim__error(TRIM_EIO, "%s: read error: %s", path, strerror(errno));
		else if (got == 0)
			break; /* it shrank meanwhile */
		else
			n += (size_t)got;
	}
	close(fd);
	if (rc) {
		free(buf);
		return rc;
	}
	*data = buf;
	*len = n;
	return 0;
}

/* ---- errors the network loader finds in a translation --------------------------- */

/* The ONNX field of a key of the network description, where it has another name. */
static const char *onnx_field(const char *key)
{
	static const char *const names[][2] = {
		{"kernel", "kernel_shape"}, {"pool", "kernel_shape"}, {"padding", "pads"},
		{"dilation", "dilations"}, {"groups", "group"}, {"sizes", "split"},
		{"size", "scales"}, {"rate", "ratio"}, {"index", "indices"},
		{"interpolation", "mode"}, {"filters", "the weight's output channels"},
		{"depth_multiplier", "the weight's output channels"},
		{"units", "the weight's output features"}, {"vocab", "the table's rows"},
	};
	for (size_t k = 0; k < TRIM__ARRAY_LEN(names); k++)
		if (!strcmp(names[k][0], key))
			return names[k][1];
	return key;
}

/* The loader's error at a line of the description translated from `file`,
 * said of the node (or graph input) that line came from: its name, op_type
 * and field, and libtrim's layer and key. */
static int cite_origin(int code, const trim__onnx_origin *origin, const char *file)
{
	int line;
	const char *path, *what;
	if (!trim__error_where(&line, &path, &what))
		return trim__error_prefix("the network imported from ONNX");
	char key[64] = "";
	const char *dot = strchr(path, '.');
	size_t klen = dot ? strcspn(dot + 1, ".[") : 0;
	if (dot && klen < sizeof key)
		snprintf(key, sizeof key, "%.*s", (int)klen, dot + 1);
	char msg[1024];
	snprintf(msg, sizeof msg, "%s", what);
	if ((line == origin->input_line || line == origin->batch_line) && origin->input)
		return trim__error(code, "%s: graph input '%s': %s: %s", file, origin->input,
		                   line == origin->input_line ? "shape" : "batch", msg);
	size_t i = (size_t)(line - origin->first_layer_line);
	if (line < origin->first_layer_line || i >= origin->nlayers || !origin->layer[i].node)
		return trim__error(code, "%s: the network description translated from it: %s%s%s",
		                   file, path, path[0] ? ": " : "", msg);
	const Onnx__NodeProto *n = origin->layer[i].node;
	const char *field = key[0] ? onnx_field(key) : NULL;
	char lt[160];
	snprintf(lt, sizeof lt, "libtrim's layer '%s'%s%s%s%s", origin->layer[i].layer,
	         key[0] ? ", key '" : "", key, key[0] ? "'" : "",
	         strchr(msg, '[') ? ", shapes [H, W, C]" : "");
	return trim__error(code, "%s: node '%s' (op_type %s, opset %lld): %s%s%s (%s)", file,
	                   NODE_NAME(n), n->op_type ? n->op_type : "?", (long long)origin->opset,
	                   field ? field : "", field ? ": " : "", msg, lt);
}

/* A network loaded from a translation: its layers have no line a user wrote
 * (later errors name the layer and the file), and a warning that cites the
 * line of a layer names the node instead. */
static void forget_lines(trim_network *net, const trim__onnx_origin *origin)
{
	for (int i = 0; i < net->nlayers; i++)
		net->layers[i].line = net->layers[i].col = 0;
	for (int k = 0; k < net->nwarnings; k++) {
		const char *w = net->warnings[k], *at = strstr(w, " (line "), *rest;
		int line;
		if (!at || sscanf(at, " (line %d)", &line) != 1 || !(rest = strstr(at, "): ")))
			continue;
		size_t i = (size_t)(line - origin->first_layer_line);
		if (line < origin->first_layer_line || i >= origin->nlayers || !origin->layer[i].node)
			continue;
		const Onnx__NodeProto *n = origin->layer[i].node;
		char buf[600];
		snprintf(buf, sizeof buf, "node '%s' (op_type %s, libtrim's layer '%s')%s", NODE_NAME(n),
		         n->op_type ? n->op_type : "?", origin->layer[i].layer, rest + 1);
		char *copy = trim__strdup(buf);
		if (copy) {
			free(net->warnings[k]);
			net->warnings[k] = copy;
		}
	}
}

/* A model in memory translated and loaded: the network (net not NULL) and its
 * description (yaml not NULL). The description is loaded in either case, so
 * that trim_onnx_to_yaml gives only one that loads. */
static int import_memory(trim_network **net, char **yaml, const uint8_t *data, size_t len,
                         const char *name, const trim_onnx_options *o)
{
	static const trim_onnx_options defaults = {0};
	if (len == 0)
		return trim__error(TRIM_EPARSE, "%s: empty file, not an ONNX model", name);
	Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, len, data);
	if (!m)
		return trim__error(TRIM_EPARSE,
		                   "%s: not an ONNX model (the bytes do not decode as a ModelProto: "
		                   "truncated or another format)",
		                   name);
	char *text = NULL;
	trim__onnx_origin origin = {0};
	trim_network *loaded = NULL;
	int rc = trim__onnx_translate(&text, &origin, m, name, o ? o : &defaults);
	if (rc == 0) {
		rc = trim_network_load_string(&loaded, text, name);
		if (rc)
			rc = cite_origin(rc, &origin, name);
		else
			forget_lines(loaded, &origin);
	}
	trim__onnx_origin_free(&origin);
	onnx__model_proto__free_unpacked(m, NULL);
	if (rc == 0 && net)
		*net = loaded;
	else
		trim_network_free(loaded);
	if (rc == 0 && yaml)
		*yaml = text;
	else
		trim_string_free(text);
	return rc;
}

/* The model file at path, read (read_file's checks) and imported. */
static int import_file(trim_network **net, char **yaml, const char *path, const trim_onnx_options *o)
{
	uint8_t *data = NULL;
	size_t len = 0;
	int rc = read_file(path, &data, &len);
	if (rc)
		return rc;
	rc = import_memory(net, yaml, data, len, path, o);
	free(data);
	return rc;
}

int trim_onnx_to_yaml(char **out, const char *path, const trim_onnx_options *o)
{
	TRIM__HANDLE_CHECK(o, ONNX_OPTIONS, TRIM_EINVAL);
	if (!out || !path)
		return trim__error(TRIM_EINVAL, "trim_onnx_to_yaml: NULL argument");
	*out = NULL;
	return import_file(NULL, out, path, o);
}

int trim_network_load_onnx(trim_network **out, const char *path, const trim_onnx_options *o)
{
	TRIM__HANDLE_CHECK(o, ONNX_OPTIONS, TRIM_EINVAL);
	if (!out)
		return trim__error(TRIM_EINVAL, "trim_network_load_onnx: out is NULL");
	*out = NULL;
	if (!path)
		return trim__error(TRIM_EINVAL, "trim_network_load_onnx: path is NULL");
	return import_file(out, NULL, path, o);
}

int trim_network_load_onnx_memory(trim_network **out, const void *data, size_t len,
                                  const char *name, const trim_onnx_options *o)
{
	TRIM__HANDLE_CHECK(o, ONNX_OPTIONS, TRIM_EINVAL);
	if (!out || (!data && len))
		return trim__error(TRIM_EINVAL, "trim_network_load_onnx_memory: NULL argument");
	*out = NULL;
	if (!name)
		name = "<memory>";
	return import_memory(out, NULL, data, len, name, o);
}
