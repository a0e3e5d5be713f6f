/*
 * Network descriptions: the layer types of transformers, decoders and
 * sequence models (matmul of two activations, layernorm, softmax, upsample,
 * conv2d_transpose, embedding, reshape, transpose, split, parameter).
 * docs/schema.md gives every key and shape rule.
 */
#include <stdio.h>
#include <string.h>

#include "network_int.h"
#include "util/util.h"
#include "util/ydoc.h"

int trim__net_read_shape(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                         int64_t *out)
{
	const trim__ynode *n = trim__ymap_get(map, key);
	if (!n)
		return required ? trim__yerr(c, map, TRIM_ESCHEMA, "missing required key '%s'", key) : 1;
	trim__yctx_key(c, key);
	int rc = 0;
	if (n->kind != TRIM__Y_SEQ || n->n < 1 || n->n > 3) {
		rc = trim__yerr(c, n, TRIM_ESCHEMA,
		                "expected [H, W, C], [tokens, features] or [tokens]");
	} else {
		int64_t v[3] = {1, 1, 1};
		for (size_t k = 0; k < n->n && rc == 0; k++) {
			trim__yctx_index(c, k);
			rc = trim__yint(c, n->items[k], 1, INT32_MAX, &v[k]);
			trim__yctx_pop(c);
		}
		if (rc == 0) {
			out[0] = v[0];
			out[1] = n->n == 3 ? v[1] : 1;
			out[2] = n->n == 3 ? v[2] : n->n == 2 ? v[1] : 1;
		}
	}
	trim__yctx_pop(c);
	return rc;
}

static const char *const interp_names[] = {"nearest", "bilinear", NULL};

/* matmul: out[g][e][m] = sum_k a[e][g K + k] * b(g, k, m) over the rows e of a
 * (H x W positions), heads g as groups. b^T (transpose_b): b's rows are the
 * m and its channels g K + k (attention's Q.K^T); otherwise b's rows are the
 * k and its channels g M + m (A.V). */
static int parse_matmul(trim__yctx *c, struct trim_network *net, trim__layer *L,
                        const trim__ynode *ln)
{
	int rc;
	L->heads = 1;
	if ((rc = trim__yget_int(c, ln, "heads", 0, 1, 1 << 16, &L->heads)) < 0)
		return rc;
	if ((rc = trim__yget_bool(c, ln, "transpose_b", 0, &L->transpose_b)) < 0)
		return rc;
	const int64_t *a = L->in;
	const int64_t *b = L->inputs[1] == TRIM__NET_INPUT ? net->input : net->layers[L->inputs[1]].out;
	int64_t G = L->heads, rows_b = b[0] * b[1];
	if (a[2] % G)
		return trim__yerr(c, ln, TRIM_ESHAPE, "heads %lld must divide a's channels %lld",
		                  (long long)G, (long long)a[2]);
	L->mm_k = a[2] / G;
	if (L->transpose_b) {
		if (b[2] != a[2])
			return trim__yerr(c, ln, TRIM_ESHAPE,
			                  "a . b^T needs b with a's channels %lld, b has %lld",
			                  (long long)a[2], (long long)b[2]);
		L->mm_m = rows_b;
	} else {
		if (rows_b != L->mm_k || b[2] % G)
			return trim__yerr(c, ln, TRIM_ESHAPE,
			                  "a . b needs b with %lld rows (a's channels per head) and channels "
			                  "a multiple of heads %lld; b is [%lld, %lld, %lld]",
			                  (long long)L->mm_k, (long long)G, (long long)b[0],
			                  (long long)b[1], (long long)b[2]);
		L->mm_m = b[2] / G;
	}
	L->out[0] = a[0];
	L->out[1] = a[1];
	int64_t oc[2] = {G, L->mm_m};
	int64_t mf[5] = {G, a[0], a[1], L->mm_k, L->mm_m};
	if (trim__net_product(&L->out[2], 2, oc) || trim__net_product(&L->macs, 5, mf))
		return trim__net_overflow(c, ln, L, "MACs per sample");
	L->groups = G;
	L->flat = 0;
	return 0;
}

/* conv2d_transpose: out = (in - 1) stride + kernel - padding + output_padding. */
static int parse_conv_t(trim__yctx *c, trim__layer *L, const trim__ynode *ln)
{
	int rc;
	int64_t C = L->in[2];
	if ((rc = trim__yget_int(c, ln, "filters", 1, 1, INT32_MAX, &L->filters)) < 0 ||
	    (rc = trim__yget_int(c, ln, "groups", 0, 1, INT32_MAX, &L->groups)) < 0 ||
	    (rc = trim__yget_ints(c, ln, "kernel", 1, 1, 1 << 16, 2, L->kernel)) < 0 ||
	    (rc = trim__yget_ints(c, ln, "strides", 0, 1, 1 << 16, 2, L->stride)) < 0)
		return rc;
	if ((rc = trim__yget_ints(c, ln, "output_padding", 0, 0, 1 << 16, 2, L->out_pad)) < 0)
		return rc;
	if (C % L->groups || L->filters % L->groups)
		return trim__yerr(c, trim__ymap_get(ln, "groups"), TRIM_ESHAPE,
		                  "groups %lld must divide the input channels %lld and the filters %lld",
		                  (long long)L->groups, (long long)C, (long long)L->filters);
	const trim__ynode *pn = trim__ymap_get(ln, "padding");
	if (pn && pn->kind == TRIM__Y_SCALAR && !strcmp(pn->str, "same")) {
		/* Keras: out = in x stride */
		for (int a = 0; a < 2; a++) {
			int64_t total = L->kernel[a] - L->stride[a];
			if (total < 0) {
				L->out_pad[a] += -total;
				total = 0;
			}
			L->pad[2 * a] = total / 2;
			L->pad[2 * a + 1] = total - total / 2;
		}
	} else if ((rc = trim__net_read_padding(c, ln, L)) != 0) {
		return rc;
	}
	for (int a = 0; a < 2; a++) {
		if (L->out_pad[a] >= L->stride[a] && L->out_pad[a] > 0)
			return trim__yerr(c, trim__ymap_get(ln, "output_padding"), TRIM_ESHAPE,
			                  "output_padding %lld must be smaller than the stride %lld",
			                  (long long)L->out_pad[a], (long long)L->stride[a]);
		int64_t o = (L->in[a] - 1) * L->stride[a] + L->kernel[a] - L->pad[2 * a] -
		            L->pad[2 * a + 1] + L->out_pad[a];
		if (o < 1)
			return trim__yerr(c, ln, TRIM_ESHAPE, "the padding leaves no output along %s",
			                  a ? "columns" : "rows");
		/* the extra output rows/columns are the padding's "after" side */
		L->out[a] = o;
	}
	L->out[2] = L->filters;
	int64_t pf[4] = {L->kernel[0], L->kernel[1], C / L->groups, L->filters};
	int64_t mf[6] = {L->in[0], L->in[1], C, L->filters / L->groups, L->kernel[0], L->kernel[1]};
	if (trim__net_product(&L->params, 4, pf) ||
	    __builtin_add_overflow(L->params, L->use_bias ? L->filters : 0, &L->params))
		return trim__net_overflow(c, ln, L, "parameters");
	if (trim__net_product(&L->macs, 6, mf))
		return trim__net_overflow(c, ln, L, "MACs per sample");
	L->flat = 0;
	return 0;
}

static int parse_reshape(trim__yctx *c, trim__layer *L, const trim__ynode *ln)
{
	const trim__ynode *n = trim__ymap_get(ln, "shape");
	if (!n)
		return trim__yerr(c, ln, TRIM_ESCHEMA, "missing required key 'shape'");
	trim__yctx_key(c, "shape");
	int64_t total, v[3] = {1, 1, 1};
	int rc = 0, unknown = -1;
	if (trim__net_product(&total, 3, L->in)) {
		trim__yctx_pop(c);
		return trim__net_overflow(c, ln, L, "input elements");
	}
	if (n->kind != TRIM__Y_SEQ || n->n < 1 || n->n > 3)
		rc = trim__yerr(c, n, TRIM_ESCHEMA, "expected [H, W, C], [tokens, features] or [C]");
	for (size_t k = 0; rc == 0 && k < n->n; k++) {
		trim__yctx_index(c, k);
		rc = trim__yint(c, n->items[k], -1, INT32_MAX, &v[k]);
		if (rc == 0 && v[k] == 0)
			rc = trim__yerr(c, n->items[k], TRIM_ERANGE, "a size must be positive or -1");
		if (rc == 0 && v[k] == -1) {
			if (unknown >= 0)
				rc = trim__yerr(c, n->items[k], TRIM_ESCHEMA, "only one size may be -1");
			unknown = (int)k;
		}
		trim__yctx_pop(c);
	}
	if (rc == 0) {
		int64_t known = 1;
		for (size_t k = 0; k < n->n; k++)
			if ((int)k != unknown && __builtin_mul_overflow(known, v[k], &known))
				known = -1; /* more elements than any input: the check below says so */
		if (unknown >= 0 && known > 0 && total % known == 0)
			v[unknown] = total / known;
		int64_t got = unknown >= 0 ? total : known;
		if (known < 0 || got != total || (unknown >= 0 && total % known))
			rc = trim__yerr(c, n, TRIM_ESHAPE, "shape has %lld elements, the input [%lld, %lld, "
			                "%lld] has %lld", (long long)known, (long long)L->in[0],
			                (long long)L->in[1], (long long)L->in[2], (long long)total);
	}
	trim__yctx_pop(c);
	if (rc)
		return rc;
	if (n->n == 3) {
		L->out[0] = v[0], L->out[1] = v[1], L->out[2] = v[2];
	} else if (n->n == 2) {
		L->out[0] = v[0], L->out[1] = 1, L->out[2] = v[1];
	} else {
		L->out[0] = L->out[1] = 1, L->out[2] = v[0];
	}
	L->flat = n->n == 1;
	return 0;
}

static int parse_split(trim__yctx *c, trim__layer *L, const trim__ynode *ln)
{
	int rc;
	int64_t axis = -1, index = 0;
	if ((rc = trim__yget_int(c, ln, "axis", 0, -1, 3, &axis)) < 0)
		return rc;
	if (axis != -1 && axis != 3 && axis != 1)
		return trim__yerr(c, trim__ymap_get(ln, "axis"), TRIM_ESCHEMA,
		                  "split is along channels (axis -1 or 3) or rows (axis 1, e.g. "
		                  "tokens)");
	int ax = axis == 1 ? 0 : 2;
	const trim__ynode *n;
	if ((rc = trim__yget_node(c, ln, "sizes", 1, TRIM__Y_SEQ, &n)) < 0)
		return rc;
	if ((rc = trim__yget_int(c, ln, "index", 1, 0, (int64_t)n->n - 1, &index)) < 0)
		return rc;
	int64_t sum = 0, mine = 0;
	trim__yctx_key(c, "sizes");
	for (size_t k = 0; k < n->n && rc == 0; k++) {
		int64_t v;
		trim__yctx_index(c, k);
		rc = trim__yint(c, n->items[k], 1, INT32_MAX, &v);
		trim__yctx_pop(c);
		sum += v;
		if ((int64_t)k == index)
			mine = v;
	}
	if (rc == 0 && sum != L->in[ax])
		rc = trim__yerr(c, n, TRIM_ESHAPE, "the sizes add up to %lld, the input has %lld %s",
		                (long long)sum, (long long)L->in[ax], ax ? "channels" : "rows");
	trim__yctx_pop(c);
	if (rc)
		return rc;
	L->out[ax] = mine;
	return 0;
}

/* ---- the shape functions of these kinds (network_int.h's table) ---------- */

int trim__shape_matmul(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	return parse_matmul(c, net, L, ln);
}

/* scale and shift per feature */
int trim__shape_layernorm(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	if (__builtin_mul_overflow(L->in[2], 2, &L->params))
		return trim__net_overflow(c, ln, L, "parameters");
	return 0;
}

int trim__shape_upsample(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	int rc;
	L->scale[0] = L->scale[1] = 2;
	if ((rc = trim__yget_ints(c, ln, "size", 0, 1, 1 << 16, 2, L->scale)) < 0)
		return rc;
	if ((rc = trim__yget_enum(c, ln, "interpolation", 0, interp_names, &L->interp)) < 0)
		return rc;
	for (int a = 0; a < 2; a++)
		if (__builtin_mul_overflow(L->in[a], L->scale[a], &L->out[a]))
			return trim__net_overflow(c, ln, L, "output size");
	L->flat = 0;
	return 0;
}

int trim__shape_conv_t(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	return parse_conv_t(c, L, ln);
}

int trim__shape_embedding(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	int rc;
	if (L->in[2] != 1)
		return trim__yerr(c, ln, TRIM_ESHAPE,
		                  "embedding looks up token ids: it needs [tokens] or [H, W, 1], got "
		                  "%lld channels", (long long)L->in[2]);
	if ((rc = trim__yget_int(c, ln, "vocab", 1, 1, INT32_MAX, &L->vocab)) < 0 ||
	    (rc = trim__yget_int(c, ln, "units", 1, 1, INT32_MAX, &L->units)) < 0)
		return rc;
	L->out[2] = L->units;
	if (__builtin_mul_overflow(L->vocab, L->units, &L->params))
		return trim__net_overflow(c, ln, L, "parameters");
	L->flat = 0;
	return 0;
}

int trim__shape_reshape(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	return parse_reshape(c, L, ln);
}

int trim__shape_transpose(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	int64_t p[3] = {0, 1, 2};
	int rc;
	if ((rc = trim__yget_ints(c, ln, "perm", 1, 0, 2, 3, p)) < 0)
		return rc;
	if (p[0] == p[1] || p[1] == p[2] || p[0] == p[2])
		return trim__yerr(c, trim__ymap_get(ln, "perm"), TRIM_ESCHEMA,
		                  "perm must be a permutation of [0, 1, 2] (H, W, C)");
	for (int k = 0; k < 3; k++) {
		L->perm[k] = (int)p[k];
		L->out[k] = L->in[p[k]];
	}
	L->flat = 0;
	return 0;
}

int trim__shape_split(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	return parse_split(c, L, ln);
}

/* a learned tensor with no input: its shape is its output */
int trim__shape_parameter(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	int rc;
	if ((rc = trim__net_read_shape(c, ln, "shape", 1, L->out)) != 0)
		return rc;
	memcpy(L->in, L->out, sizeof L->in);
	if (trim__net_product(&L->params, 3, L->out))
		return trim__net_overflow(c, ln, L, "parameters");
	return 0;
}
