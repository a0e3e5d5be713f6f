/* Networks: loading a description (file or string; an .onnx file goes to the
 * ONNX importer), its content digest, freeing, and the public accessors.
 * The parsing itself is in network.c and layers.c. */
#include <stdlib.h>
#include <string.h>

#include "network_int.h"
#include "trim/onnx.h"
#include "util/handle.h"
#include "util/util.h"
#include "util/ydoc.h"

/* The content digest of a description: every node's kind, every scalar's
 * text (and whether it was quoted), every mapping's keys in order. */
static void digest_node(trim__digest *d, const trim__ynode *n)
{
	trim__digest_int(d, "kind", n->kind);
	if (n->kind == TRIM__Y_SCALAR) {
		trim__digest_int(d, "plain", n->plain);
		trim__digest_str(d, "str", n->str);
		return;
	}
	trim__digest_int(d, "n", (int64_t)n->n);
	for (size_t i = 0; i < n->n; i++) {
		if (n->kind == TRIM__Y_MAP)
			digest_node(d, n->keys[i]);
		digest_node(d, n->items[i]);
	}
}

static int load_doc(trim_network **out, trim__ydoc *doc)
{
	struct trim_network *net = trim__calloc(1, sizeof *net);
	if (!net)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(net, NETWORK);
	trim__yctx c;
	trim__yctx_init(&c, trim__ydoc_name(doc));
	int rc = trim__net_parse(&c, net, trim__ydoc_root(doc));
	if (rc == 0) {
		trim__digest d;
		trim__digest_init(&d);
		digest_node(&d, trim__ydoc_root(doc));
		trim__digest_final(&d, net->digest);
		net->file = trim__strdup(trim__ydoc_name(doc));
		if (!net->file)
			rc = TRIM_ENOMEM;
	}
	if (rc) {
		trim_network_free(net);
		return rc;
	}
	*out = net;
	return 0;
}

int trim_network_load(trim_network **out, const char *path)
{
	if (!out)
		return trim__error(TRIM_EINVAL, "trim_network_load: out is NULL");
	*out = NULL;
	size_t len = path ? strlen(path) : 0;
	if (len > 5 && !strcmp(path + len - 5, ".onnx")) /* an ONNX model, default options */
		return trim_network_load_onnx(out, path, NULL);
	trim__ydoc *doc;
	int rc = trim__ydoc_load_file(&doc, path);
	if (rc)
		return rc;
	rc = load_doc(out, doc);
	trim__ydoc_free(doc);
	return rc;
}

int trim_network_load_string(trim_network **out, const char *yaml, const char *name)
{
	if (!out || !yaml)
		return trim__error(TRIM_EINVAL, "trim_network_load_string: NULL argument");
	*out = NULL;
	trim__ydoc *doc;
	int rc = trim__ydoc_load_string(&doc, yaml, strlen(yaml), name ? name : "<string>");
	if (rc)
		return rc;
	rc = load_doc(out, doc);
	trim__ydoc_free(doc);
	return rc;
}

void trim_network_free(trim_network *net)
{
	TRIM__HANDLE_CHECK_VOID(net, NETWORK);
	if (!net)
		return;
	for (int k = 0; k < net->nwarnings; k++)
		free(net->warnings[k]);
	free(net->warnings);
	free(net->layers);
	free(net->file);
	TRIM__HANDLE_POISON(net, NETWORK);
	free(net);
}

const char *trim_network_name(const trim_network *net)
{
	return TRIM__HANDLE_OK(net, NETWORK) ? net->name : NULL;
}
int trim_network_mode(const trim_network *net)
{
	return TRIM__HANDLE_OK(net, NETWORK) ? net->mode : TRIM_EINVAL;
}
int64_t trim_network_batch(const trim_network *net)
{
	return TRIM__HANDLE_OK(net, NETWORK) ? net->batch : TRIM_EINVAL;
}
int trim_network_word_bits(const trim_network *net)
{
	return TRIM__HANDLE_OK(net, NETWORK) ? net->word_bits : TRIM_EINVAL;
}
size_t trim_network_layer_count(const trim_network *net)
{
	return TRIM__HANDLE_OK(net, NETWORK) ? (size_t)net->nlayers : 0;
}
int64_t trim_network_params(const trim_network *net)
{
	return TRIM__HANDLE_OK(net, NETWORK) ? net->params : TRIM_EINVAL;
}
int64_t trim_network_macs(const trim_network *net)
{
	return TRIM__HANDLE_OK(net, NETWORK) ? net->macs : TRIM_EINVAL;
}
size_t trim_network_warning_count(const trim_network *net)
{
	TRIM__HANDLE_CHECK(net, NETWORK, 0);
	return net ? (size_t)net->nwarnings : 0;
}
const char *trim_network_warning(const trim_network *net, size_t i)
{
	TRIM__HANDLE_CHECK(net, NETWORK, NULL);
	return net && i < (size_t)net->nwarnings ? net->warnings[i] : NULL;
}

const char *trim_network_layer_name(const trim_network *net, size_t i)
{
	TRIM__HANDLE_CHECK(net, NETWORK, NULL);
	return net && i < (size_t)net->nlayers ? net->layers[i].name : NULL;
}

const char *trim_network_layer_type(const trim_network *net, size_t i)
{
	TRIM__HANDLE_CHECK(net, NETWORK, NULL);
	return net && i < (size_t)net->nlayers ? trim__layer_type_name(net->layers[i].type) : NULL;
}

int trim_network_layer_shape(const trim_network *net, size_t i, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(net, NETWORK, TRIM_EINVAL);
	if (!net || !out || n < 3)
		return trim__error(TRIM_EINVAL, "trim_network_layer_shape: bad arguments");
	if (i >= (size_t)net->nlayers)
		return trim__error(TRIM_ENOTFOUND, "no layer %zu (the network has %d)", i,
		                   net->nlayers);
	memcpy(out, net->layers[i].out, 3 * sizeof *out);
	return 0;
}
