/* Network descriptions: YAML parsing, validation, shape inference (loader: api.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "network_int.h"
#include "util/util.h"
#include "util/ydoc.h"

static const char *const act_names[] = {"linear", "relu", "relu6", "sigmoid", "tanh", "swish",
                                        "softmax", "gelu", "silu", "hardswish", NULL};
static const char *const mode_names[] = {"inference", "training", NULL};

const char *trim__layer_type_name(int type)
{
	return type >= 0 && type < TRIM__L_COUNT ? trim__layer_kinds[type].name : "?";
}

static int find_layer(const struct trim_network *net, int upto, const char *name)
{
	for (int i = 0; i < upto; i++)
		if (strcmp(net->layers[i].name, name) == 0)
			return i;
	return -2;
}

/* p | [ph, pw] | [[t, b], [l, r]] at node n (the key already pushed on c):
 * four sides, top, bottom, left, right. */
int trim__net_read_sides(trim__yctx *c, const trim__ynode *n, int64_t *side)
{
	static const char *const forms = "an integer, [rows, columns] or [[top, bottom], [left, right]]";
	int rc = 0;
	if (n->kind == TRIM__Y_SCALAR) {
		int64_t p;
		if ((rc = trim__yint(c, n, 0, 1 << 20, &p)) == 0)
			side[0] = side[1] = side[2] = side[3] = p;
	} else if (n->kind == TRIM__Y_SEQ && n->n == 2 && n->items[0]->kind == TRIM__Y_SCALAR) {
		for (int a = 0; a < 2 && rc == 0; a++) {
			trim__yctx_index(c, (size_t)a);
			int64_t p;
			rc = trim__yint(c, n->items[a], 0, 1 << 20, &p);
			trim__yctx_pop(c);
			side[2 * a] = side[2 * a + 1] = p;
		}
	} else if (n->kind == TRIM__Y_SEQ && n->n == 2) {
		for (int a = 0; a < 2 && rc == 0; a++) {
			const trim__ynode *pair = n->items[a];
			trim__yctx_index(c, (size_t)a);
			if (pair->kind != TRIM__Y_SEQ || pair->n != 2)
				rc = trim__yerr(c, pair, TRIM_ESCHEMA, "expected [before, after]");
			for (int k = 0; k < 2 && rc == 0; k++) {
				trim__yctx_index(c, (size_t)k);
				rc = trim__yint(c, pair->items[k], 0, 1 << 20, &side[2 * a + k]);
				trim__yctx_pop(c);
			}
			trim__yctx_pop(c);
		}
	} else {
		rc = trim__yerr(c, n, TRIM_ESCHEMA, "expected %s", forms);
	}
	return rc;
}

/* Padding: valid | same | p | [ph, pw] | [[t, b], [l, r]]. Needs kernel,
 * stride, dilation and input already set; fills L->pad. */
int trim__net_read_padding(trim__yctx *c, const trim__ynode *map, trim__layer *L)
{
	const trim__ynode *n = trim__ymap_get(map, "padding");
	memset(L->pad, 0, sizeof L->pad);
	if (!n)
		return 0;
	trim__yctx_key(c, "padding");
	int rc = 0;
	if (n->kind == TRIM__Y_SCALAR && !strcmp(n->str, "valid")) {
		/* no padding */
	} else if (n->kind == TRIM__Y_SCALAR && !strcmp(n->str, "same")) {
		for (int a = 0; a < 2; a++) {
			int64_t in = L->in[a], s = L->stride[a];
			int64_t eff = L->dilation[a] * (L->kernel[a] - 1) + 1;
			int64_t out = (in + s - 1) / s;
			int64_t total = (out - 1) * s + eff - in;
			if (total < 0)
				total = 0;
			L->pad[2 * a] = total / 2;
			L->pad[2 * a + 1] = total - total / 2;
		}
	} else if ((rc = trim__net_read_sides(c, n, L->pad)) && (n->kind != TRIM__Y_SEQ || n->n != 2)) {
		rc = trim__yerr(c, n, TRIM_ESCHEMA,
		                "padding must be valid, same, an integer, [ph, pw] or "
		                "[[top, bottom], [left, right]]");
	}
	trim__yctx_pop(c);
	return rc;
}

/* Output size of a sliding window along one axis. */
int trim__net_window_out(trim__yctx *c, const trim__ynode *node, const trim__layer *L, int a,
                         int64_t *out)
{
	int64_t span = L->in[a] + L->pad[2 * a] + L->pad[2 * a + 1];
	int64_t eff = L->dilation[a] * (L->kernel[a] - 1) + 1;
	if (span < eff)
		return trim__yerr(c, node, TRIM_ESHAPE,
		                  "%s window %lld (kernel %lld, dilation %lld) is larger than the "
		                  "padded input %lld",
		                  a ? "column" : "row", (long long)eff, (long long)L->kernel[a],
		                  (long long)L->dilation[a], (long long)span);
	*out = (span - eff) / L->stride[a] + 1;
	return 0;
}

/* Product of n counts into *out; 0, or 1 if it does not fit in 64 bits. */
int trim__net_product(int64_t *out, int n, const int64_t *f)
{
	int64_t r = 1;
	for (int k = 0; k < n; k++)
		if (__builtin_mul_overflow(r, f[k], &r))
			return 1;
	*out = r;
	return 0;
}

/* A layer count that does not fit in 64 bits: the error names the file, the
 * layer's line and the layer. */
int trim__net_overflow(trim__yctx *c, const trim__ynode *ln, const trim__layer *L, const char *what)
{
	return trim__yerr(c, ln, TRIM_ERANGE, "layer '%s': its %s overflow 64 bits", L->name, what);
}

static int need_spatial(trim__yctx *c, const trim__ynode *node, const trim__layer *L)
{
	if (L->flat && (L->in[0] != 1 || L->in[1] != 1))
		return trim__yerr(c, node, TRIM_ESHAPE, "needs a [H, W, C] input, got a flat one");
	return 0;
}

/* `sparsity: 0.5` or `sparsity: {activation: 0.5, gradient: 0.45, within_channel_cv: 0.2}`:
 * the fraction of zeros of the layer's (ReLU) output, optionally of the gradient it
 * receives, and the spread of the per-channel sparsity. */
static int read_sparsity(trim__yctx *c, const trim__ynode *ln, trim__layer *L)
{
	static const char *const keys[] = {"activation", "gradient", "within_channel_cv", NULL};
	L->act_sparsity = L->grad_sparsity = L->sparsity_cv = -1;
	const trim__ynode *n = trim__ymap_get(ln, "sparsity");
	if (!n)
		return 0;
	L->sparsity_line = n->line;
	L->sparsity_col = n->col;
	int rc;
	if (n->kind == TRIM__Y_SCALAR) {
		trim__yctx_key(c, "sparsity");
		rc = trim__ydouble(c, n, 0, 0.999999, &L->act_sparsity);
	} else {
		trim__yctx_key(c, "sparsity");
		rc = trim__ymap_check(c, n, keys);
		if (rc == 0)
			rc = trim__yget_double(c, n, "activation", 1, 0, 0.999999, &L->act_sparsity);
		if (rc >= 0)
			rc = trim__yget_double(c, n, "gradient", 0, 0, 0.999999, &L->grad_sparsity);
		if (rc >= 0)
			rc = trim__yget_double(c, n, "within_channel_cv", 0, 0, 10, &L->sparsity_cv);
	}
	if (rc >= 0 && L->activation != TRIM__ACT_RELU && L->activation != TRIM__ACT_RELU6)
		rc = trim__yerr(c, n, TRIM_ESCHEMA,
		                "sparsity is given for the zeros of a ReLU output, but this layer's "
		                "activation is %s",
		                act_names[L->activation]);
	trim__yctx_pop(c);
	return rc < 0 ? rc : 0;
}

/* ---- the shape functions of the CNN layer kinds (network_int.h's table) ---- */

/* conv2d, depthwise_conv2d, conv1d */
int trim__shape_conv(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	int64_t C = L->in[2], Ho = 0, Wo = 0;
	int rc;
	if ((rc = need_spatial(c, ln, L)) != 0)
		return rc;
	if (L->type == TRIM__L_CONV1D && L->in[1] != 1)
		return trim__yerr(c, ln, TRIM_ESHAPE,
		                  "conv1d slides along rows: it needs a [steps, channels] input "
		                  "([H, 1, C]), got [%lld, %lld, %lld]",
		                  (long long)L->in[0], (long long)L->in[1], (long long)L->in[2]);
	if (L->type != TRIM__L_DEPTHWISE) {
		if ((rc = trim__yget_int(c, ln, "filters", 1, 1, INT32_MAX, &L->filters)) < 0)
			return rc;
		if ((rc = trim__yget_int(c, ln, "groups", 0, 1, INT32_MAX, &L->groups)) < 0)
			return rc;
	} else {
		if ((rc = trim__yget_int(c, ln, "depth_multiplier", 0, 1, 1 << 16, &L->depth_multiplier)) < 0)
			return rc;
		L->groups = C;
		L->filters = C * L->depth_multiplier;
	}
	if (L->type == TRIM__L_CONV1D) {
		/* one integer each: along rows; the column axis is trivial */
		if ((rc = trim__yget_int(c, ln, "kernel", 1, 1, 1 << 16, &L->kernel[0])) < 0 ||
		    (rc = trim__yget_int(c, ln, "strides", 0, 1, 1 << 16, &L->stride[0])) < 0 ||
		    (rc = trim__yget_int(c, ln, "dilation", 0, 1, 1 << 16, &L->dilation[0])) < 0)
			return rc;
	} else {
		if ((rc = trim__yget_ints(c, ln, "kernel", 1, 1, 1 << 16, 2, L->kernel)) < 0)
			return rc;
		if ((rc = trim__yget_ints(c, ln, "strides", 0, 1, 1 << 16, 2, L->stride)) < 0)
			return rc;
		if ((rc = trim__yget_ints(c, ln, "dilation", 0, 1, 1 << 16, 2, L->dilation)) < 0)
			return rc;
	}
	if (C % L->groups || L->filters % L->groups) {
		trim__yctx_key(c, L->type == TRIM__L_CONV ? "groups" : "depth_multiplier");
		return trim__yerr(c, trim__ymap_get(ln, "groups"), TRIM_ESHAPE,
		                  "groups %lld must divide the input channels %lld and the filters "
		                  "%lld",
		                  (long long)L->groups, (long long)C, (long long)L->filters);
	}
	if ((rc = trim__net_read_padding(c, ln, L)) != 0)
		return rc;
	if (L->type == TRIM__L_CONV1D)
		L->pad[2] = L->pad[3] = 0;
	if ((rc = trim__net_window_out(c, ln, L, 0, &Ho)) || (rc = trim__net_window_out(c, ln, L, 1, &Wo)))
		return rc;
	L->out[0] = Ho;
	L->out[1] = Wo;
	L->out[2] = L->filters;
	int64_t pf[4] = {L->kernel[0], L->kernel[1], C / L->groups, L->filters};
	int64_t mf[6] = {Ho, Wo, L->filters, C / L->groups, L->kernel[0], L->kernel[1]};
	if (trim__net_product(&L->params, 4, pf) ||
	    __builtin_add_overflow(L->params, L->use_bias ? L->filters : 0, &L->params))
		return trim__net_overflow(c, ln, L, "parameters");
	if (trim__net_product(&L->macs, 6, mf))
		return trim__net_overflow(c, ln, L, "MACs per sample");
	L->flat = 0;
	return 0;
}

/* dense: over the last axis; a [H, W, C] input (tokens x features, H x W
 * tokens) gives [H, W, units], its H x W positions folded into the batch */
int trim__shape_dense(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	int64_t C = L->in[2];
	int rc;
	if ((rc = trim__yget_int(c, ln, "units", 1, 1, INT32_MAX, &L->units)) < 0)
		return rc;
	L->tokens = L->flat ? 1 : L->in[0] * L->in[1];
	if (L->flat) {
		L->out[0] = L->out[1] = 1;
	}
	L->out[2] = L->units;
	L->filters = L->units;
	if (__builtin_mul_overflow(C, L->units, &L->params))
		return trim__net_overflow(c, ln, L, "parameters");
	if (__builtin_mul_overflow(L->params, L->tokens, &L->macs))
		return trim__net_overflow(c, ln, L, "MACs per sample");
	if (__builtin_add_overflow(L->params, L->use_bias ? L->units : 0, &L->params))
		return trim__net_overflow(c, ln, L, "parameters");
	return 0;
}

/* maxpool2d, avgpool2d */
int trim__shape_pool(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	int64_t Ho = 0, Wo = 0;
	int rc;
	if ((rc = need_spatial(c, ln, L)) != 0)
		return rc;
	if ((rc = trim__yget_ints(c, ln, "pool", 1, 1, 1 << 16, 2, L->kernel)) < 0)
		return rc;
	L->stride[0] = L->kernel[0];
	L->stride[1] = L->kernel[1];
	if ((rc = trim__yget_ints(c, ln, "strides", 0, 1, 1 << 16, 2, L->stride)) < 0)
		return rc;
	if ((rc = trim__net_read_padding(c, ln, L)) != 0)
		return rc;
	if ((rc = trim__net_window_out(c, ln, L, 0, &Ho)) || (rc = trim__net_window_out(c, ln, L, 1, &Wo)))
		return rc;
	L->out[0] = Ho;
	L->out[1] = Wo;
	return 0;
}

int trim__shape_global_avgpool(trim__yctx *c, struct trim_network *net, trim__layer *L,
                               const trim__ynode *ln)
{
	(void)net;
	int rc;
	if ((rc = need_spatial(c, ln, L)) != 0)
		return rc;
	L->kernel[0] = L->in[0];
	L->kernel[1] = L->in[1];
	L->out[0] = L->out[1] = 1;
	L->flat = 1;
	return 0;
}

int trim__shape_batchnorm(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	if (__builtin_mul_overflow(L->in[2], 2, &L->params))
		return trim__net_overflow(c, ln, L, "parameters");
	return 0;
}

int trim__shape_flatten(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	L->out[0] = L->out[1] = 1;
	if (trim__net_product(&L->out[2], 3, L->in))
		return trim__net_overflow(c, ln, L, "output elements");
	L->flat = 1;
	return 0;
}

int trim__shape_dropout(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)net;
	int rc = trim__yget_double(c, ln, "rate", 0, 0, 0.999999, &L->rate);
	return rc < 0 ? rc : 0;
}

/* the output is the input's shape (add, activation, softmax) */
int trim__shape_same(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	(void)c, (void)net, (void)L, (void)ln;
	return 0;
}

/* concat along channels, or along rows (axis 1, tokens); the inputs' shapes
 * and the axis are checked by parse_layer */
int trim__shape_concat(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	int64_t concat_axis = -1;
	int rc = trim__yget_int(c, ln, "axis", 0, -1, 3, &concat_axis);
	if (rc < 0)
		return rc;
	int ax = concat_axis == 1 ? 0 : 2;
	int64_t sum = 0;
	for (int k = 0; k < L->ninputs; k++)
		if (__builtin_add_overflow(sum,
		                           L->inputs[k] == TRIM__NET_INPUT ? net->input[ax]
		                                                            : net->layers[L->inputs[k]].out[ax],
		                           &sum))
			return trim__net_overflow(c, ln, L, "output size");
	L->out[ax] = sum;
	return 0;
}

/* The layer's name: given (unique, not `input`) or its kind's name and index. */
static int read_name(trim__yctx *c, struct trim_network *net, int i, const trim__ynode *ln)
{
	trim__layer *L = &net->layers[i];
	const trim__layer_kind *K = &trim__layer_kinds[L->type];
	const char *name = NULL;
	int rc = trim__yget_str(c, ln, "name", 0, &name);
	if (rc < 0)
		return rc;
	if (name) {
		if (strlen(name) >= TRIM__NAME_LEN || !name[0])
			return trim__yerr(c, trim__ymap_get(ln, "name"), TRIM_ESCHEMA,
			                  "layer names must have 1 to %d characters", TRIM__NAME_LEN - 1);
		if (!strcmp(name, "input"))
			return trim__yerr(c, trim__ymap_get(ln, "name"), TRIM_ESCHEMA,
			                  "'input' is reserved for the network input");
		if (find_layer(net, i, name) >= 0)
			return trim__yerr(c, trim__ymap_get(ln, "name"), TRIM_ESCHEMA,
			                  "duplicate layer name '%s'", name);
		snprintf(L->name, sizeof L->name, "%s", name);
	} else {
		snprintf(L->name, sizeof L->name, "%s%d", K->name, i);
		if (find_layer(net, i, L->name) >= 0)
			return trim__yerr(c, ln, TRIM_ESCHEMA, "default name '%s' clashes; name the layer",
			                  L->name);
	}

	return 0;
}

/* `inputs` (layer names defined before this one, or `input`; default the
 * previous layer), as many as the kind takes. */
static int read_inputs(trim__yctx *c, struct trim_network *net, int i, const trim__ynode *ln)
{
	trim__layer *L = &net->layers[i];
	const trim__layer_kind *K = &trim__layer_kinds[L->type];
	const trim__ynode *in = trim__ymap_get(ln, "inputs");
	int rc = 0;
	if (in) {
		trim__yctx_key(c, "inputs");
		if (in->kind == TRIM__Y_SCALAR) {
			rc = trim__yerr(c, in, TRIM_ESCHEMA, "expected a list of layer names");
		} else if ((rc = trim__yexpect(c, in, TRIM__Y_SEQ)) == 0) {
			if (in->n == 0 || in->n > TRIM__MAX_INPUTS)
				rc = trim__yerr(c, in, TRIM_ESCHEMA, "expected 1 to %d layer names",
				                TRIM__MAX_INPUTS);
			for (size_t k = 0; rc == 0 && k < in->n; k++) {
				trim__yctx_index(c, k);
				const trim__ynode *it = in->items[k];
				if ((rc = trim__yexpect(c, it, TRIM__Y_SCALAR)) == 0) {
					if (!strcmp(it->str, "input")) {
						L->inputs[k] = TRIM__NET_INPUT;
					} else {
						int j = find_layer(net, i, it->str);
						if (j < 0) {
							int later = 0;
							for (int q = i; q < net->nlayers; q++)
								if (!strcmp(net->layers[q].name, it->str))
									later = 1;
							rc = trim__yerr(c, it, TRIM_ENOTFOUND,
							                later || !strcmp(it->str, L->name)
							                    ? "layer '%s' is not defined before this one "
							                      "(a cycle or forward reference)"
							                    : "unknown layer '%s'",
							                it->str);
						}
						L->inputs[k] = j;
					}
				}
				trim__yctx_pop(c);
			}
			L->ninputs = (int)in->n;
		}
		trim__yctx_pop(c);
		if (rc)
			return rc;
	} else {
		L->ninputs = 1;
		L->inputs[0] = i == 0 ? TRIM__NET_INPUT : i - 1;
	}
	if (K->min_inputs >= 2 && L->ninputs < 2)
		return trim__yerr(c, in ? in : ln, TRIM_ESCHEMA, "%s needs at least two inputs", K->name);
	if (K->min_inputs == 2 && K->max_inputs == 2 && L->ninputs != 2)
		return trim__yerr(c, in, TRIM_ESCHEMA, "%s takes exactly two inputs [a, b]", K->name);
	if (K->max_inputs == 1 && L->ninputs != 1)
		return trim__yerr(c, in, TRIM_ESCHEMA, "%s takes exactly one input", K->name);
	return 0;
}

/* L->in from the first input; the other inputs' shapes against it (add: equal,
 * concat: equal rows and columns, or columns and channels along rows); a
 * declared `in_shape` against it. */
static int read_input_shape(trim__yctx *c, struct trim_network *net, trim__layer *L, const trim__ynode *ln)
{
	const trim__ynode *in = trim__ymap_get(ln, "inputs");
	int rc;
	int in_flat;
	const int64_t *s0;
	if (L->inputs[0] == TRIM__NET_INPUT) {
		s0 = net->input;
		in_flat = 0;
	} else {
		s0 = net->layers[L->inputs[0]].out;
		in_flat = net->layers[L->inputs[0]].flat;
	}
	memcpy(L->in, s0, sizeof L->in);
	L->flat = in_flat;
	int64_t concat_axis = -1;
	if (L->type == TRIM__L_CONCAT &&
	    (rc = trim__yget_int(c, ln, "axis", 0, -1, 3, &concat_axis)) < 0)
		return rc;
	if (concat_axis != -1 && concat_axis != 3 && concat_axis != 1)
		return trim__yerr(c, trim__ymap_get(ln, "axis"), TRIM_ESCHEMA,
		                  "concatenation is along channels (axis -1 or 3) or rows (axis 1, "
		                  "e.g. tokens)");
	for (int k = 1; k < L->ninputs && L->type != TRIM__L_MATMUL; k++) {
		const int64_t *sk = L->inputs[k] == TRIM__NET_INPUT ? net->input
		                                                      : net->layers[L->inputs[k]].out;
		int bad = L->type == TRIM__L_ADD ? memcmp(sk, s0, sizeof L->in) != 0
		          : concat_axis == 1     ? (sk[1] != s0[1] || sk[2] != s0[2])
		                                 : (sk[0] != s0[0] || sk[1] != s0[1]);
		if (bad) {
			trim__yctx_key(c, "inputs");
			return trim__yerr(c, in, TRIM_ESHAPE,
			                  "input %d has shape [%lld, %lld, %lld], input 0 has [%lld, %lld, "
			                  "%lld]; %s",
			                  k, (long long)sk[0], (long long)sk[1], (long long)sk[2],
			                  (long long)s0[0], (long long)s0[1], (long long)s0[2],
			                  L->type == TRIM__L_ADD ? "add needs equal shapes"
			                  : concat_axis == 1     ? "concat along rows needs equal W and C"
			                                         : "concat needs equal H and W");
		}
	}
	int64_t decl[3];
	rc = trim__yget_ints(c, ln, "in_shape", 0, 1, INT32_MAX, 3, decl);
	if (rc < 0)
		return rc;
	if (rc == 0 && memcmp(decl, L->in, sizeof decl) != 0) {
		trim__yctx_key(c, "in_shape");
		rc = trim__yerr(c, trim__ymap_get(ln, "in_shape"), TRIM_ESHAPE,
		                  "declared in_shape [%lld, %lld, %lld] but the input is [%lld, %lld, "
		                  "%lld]",
		                  (long long)decl[0], (long long)decl[1], (long long)decl[2],
		                (long long)L->in[0], (long long)L->in[1], (long long)L->in[2]);
		trim__yctx_pop(c);
		return rc;
	}

	return 0;
}

static int parse_layer(trim__yctx *c, struct trim_network *net, int i, const trim__ynode *ln)
{
	trim__layer *L = &net->layers[i];
	int rc = trim__yexpect(c, ln, TRIM__Y_MAP);
	if (rc)
		return rc;
	L->line = ln->line;
	L->col = ln->col;
	rc = trim__yget_enum(c, ln, "type", 1, trim__layer_kind_names, &L->type);
	if (rc < 0)
		return rc;
	const trim__layer_kind *K = &trim__layer_kinds[L->type];
	if ((rc = trim__ymap_check(c, ln, K->keys)) != 0)
		return rc;

	if ((rc = read_name(c, net, i, ln)) != 0)
		return rc;
	if (K->max_inputs == 0) {
		L->ninputs = 0;
		L->inputs[0] = TRIM__NET_INPUT;
		return K->shape(c, net, L, ln);
	}
	if ((rc = read_inputs(c, net, i, ln)) != 0 || (rc = read_input_shape(c, net, L, ln)) != 0)
		return rc;

	/* common parameters */
	L->stride[0] = L->stride[1] = 1;
	L->dilation[0] = L->dilation[1] = 1;
	L->kernel[0] = L->kernel[1] = 1;
	L->groups = 1;
	L->depth_multiplier = 1;
	L->use_bias = 1;
	L->activation = TRIM__ACT_LINEAR;
	if (trim__ymap_get(ln, "activation")) {
		rc = trim__yget_enum(c, ln, "activation", 1, act_names, &L->activation);
		if (rc < 0)
			return rc;
	} else if (L->type == TRIM__L_ACTIVATION) {
		return trim__yerr(c, ln, TRIM_ESCHEMA, "missing required key 'activation'");
	}
	if ((rc = trim__yget_bool(c, ln, "use_bias", 0, &L->use_bias)) < 0)
		return rc;

	memcpy(L->out, L->in, sizeof L->out);
	if ((rc = K->shape(c, net, L, ln)) != 0)
		return rc;
	return read_sparsity(c, ln, L);
}

/* The `network` map: name, input, batch, mode, word_bits, sparsity, warnings. */
static int read_header(trim__yctx *c, struct trim_network *net, const trim__ynode *root, const trim__ynode **nmp)
{
	static const char *const net_keys[] = {"name",      "input",    "output",   "batch", "mode",
	                                       "word_bits", "sparsity", "warnings", NULL};
	int rc;
	const trim__ynode *nm;
	if ((rc = trim__yget_node(c, root, "network", 1, TRIM__Y_MAP, &nm)) < 0)
		return rc;
	trim__yctx_key(c, "network");
	rc = trim__ymap_check(c, nm, net_keys);
	const char *name = NULL;
	if (rc == 0 && (rc = trim__yget_str(c, nm, "name", 1, &name)) == 0) {
		if (strlen(name) >= sizeof net->name)
			rc = trim__yerr(c, trim__ymap_get(nm, "name"), TRIM_ESCHEMA, "name too long");
		else
			snprintf(net->name, sizeof net->name, "%s", name);
	}
	if (rc == 0)
		rc = trim__net_read_shape(c, nm, "input", 1, net->input);
	net->batch = 1;
	net->mode = TRIM_MODE_INFERENCE;
	net->word_bits = 16;
	if (rc == 0)
		rc = trim__yget_int(c, nm, "batch", 0, 1, 1 << 24, &net->batch);
	if (rc >= 0)
		rc = trim__yget_enum(c, nm, "mode", 0, mode_names, &net->mode);
	net->default_sparsity = -1;
	if (rc >= 0)
		rc = trim__yget_double(c, nm, "sparsity", 0, 0, 0.999999, &net->default_sparsity);
	int64_t wb = 16;
	if (rc >= 0)
		rc = trim__yget_int(c, nm, "word_bits", 0, 1, 64, &wb);
	net->word_bits = (int)wb;
	/* warnings: what an import left out (a list of texts, shown in reports) */
	const trim__ynode *wn = trim__ymap_get(nm, "warnings");
	if (rc >= 0 && wn) {
		trim__yctx_key(c, "warnings");
		if ((rc = trim__yexpect(c, wn, TRIM__Y_SEQ)) == 0) {
			net->warnings = trim__calloc(wn->n ? wn->n : 1, sizeof *net->warnings);
			rc = net->warnings ? 0 : TRIM_ENOMEM;
		}
		for (size_t k = 0; rc == 0 && k < wn->n; k++) {
			trim__yctx_index(c, k);
			if ((rc = trim__yexpect(c, wn->items[k], TRIM__Y_SCALAR)) == 0) {
				net->warnings[k] = trim__strdup(wn->items[k]->str);
				rc = net->warnings[k] ? 0 : TRIM_ENOMEM;
				net->nwarnings += rc == 0;
			}
			trim__yctx_pop(c);
		}
		trim__yctx_pop(c);
	}
	trim__yctx_pop(c);
	*nmp = nm;
	return rc < 0 ? rc : 0;
}

/* The `layers` list, each parsed in order (names read first, so that a
 * reference to a later layer is told from an unknown one). */
static int read_layers(trim__yctx *c, struct trim_network *net, const trim__ynode *root, const trim__ynode **layersp)
{
	int rc;
	const trim__ynode *layers;
	if ((rc = trim__yget_node(c, root, "layers", 1, TRIM__Y_SEQ, &layers)) < 0)
		return rc;
	if (layers->n == 0)
		return trim__yerr(c, layers, TRIM_ESCHEMA, "a network needs at least one layer");
	net->layers = trim__calloc(layers->n, sizeof *net->layers);
	if (!net->layers)
		return TRIM_ENOMEM;
	net->nlayers = (int)layers->n;
	/* names first, so a reference to a later layer can be told apart */
	for (size_t i = 0; i < layers->n; i++) {
		const trim__ynode *nn = trim__ymap_get(layers->items[i], "name");
		if (nn && nn->kind == TRIM__Y_SCALAR)
			snprintf(net->layers[i].name, sizeof net->layers[i].name, "%s", nn->str);
	}
	trim__yctx_key(c, "layers");
	for (size_t i = 0; i < layers->n && rc >= 0; i++) {
		memset(net->layers[i].name, 0, sizeof net->layers[i].name);
		trim__yctx_index(c, i);
		rc = parse_layer(c, net, (int)i, layers->items[i]);
		trim__yctx_pop(c);
	}
	trim__yctx_pop(c);
	*layersp = layers;
	return rc < 0 ? rc : 0;
}

/* The network's parameters and MACs per sample, summed without overflow. */
static int sum_totals(trim__yctx *c, struct trim_network *net, const trim__ynode *layers)
{
	int rc;
	for (int i = 0; i < net->nlayers; i++) {
		if (__builtin_add_overflow(net->params, net->layers[i].params, &net->params) ||
		    __builtin_add_overflow(net->macs, net->layers[i].macs, &net->macs)) {
			trim__yctx_key(c, "layers");
			trim__yctx_index(c, (size_t)i);
			rc = trim__yerr(c, layers->items[i], TRIM_ERANGE,
			                "the network's parameters or MACs per sample overflow 64 bits "
			                "at layer '%s'",
			                net->layers[i].name);
			trim__yctx_pop(c);
			trim__yctx_pop(c);
			return rc;
		}
	}
	return 0;
}

/* A warning for each dead end: a layer (not the last) whose output no later
 * layer reads. */
static int warn_dead_ends(struct trim_network *net)
{
	/* dead ends: a layer (not the last) whose output no later layer reads */
	for (int i = 0; i < net->nlayers - 1; i++) {
		int used = 0;
		for (int j = i + 1; j < net->nlayers && !used; j++)
			for (int k = 0; k < net->layers[j].ninputs; k++)
				used |= net->layers[j].inputs[k] == i;
		if (used)
			continue;
		char msg[200];
		snprintf(msg, sizeof msg,
		         "layer '%s' (line %d): its output is read by no later layer (a dead end; "
		         "its work is still counted)",
		         net->layers[i].name, net->layers[i].line);
		char **grown = trim__realloc_array(net->warnings, (size_t)net->nwarnings + 1,
		                                   sizeof *grown);
		if (!grown)
			return TRIM_ENOMEM;
		net->warnings = grown;
		if (!(net->warnings[net->nwarnings] = trim__strdup(msg)))
			return TRIM_ENOMEM;
		net->nwarnings++;
	}
	return 0;
}

/* A declared `output` ([C] or [H, W, C]) against the last layer's. */
static int check_output(trim__yctx *c, const struct trim_network *net, const trim__ynode *nm)
{
	int rc = 0;
	/* declared output shape */
	const trim__ynode *on = trim__ymap_get(nm, "output");
	if (on) {
		trim__yctx_key(c, "network");
		trim__yctx_key(c, "output");
		const trim__layer *last = &net->layers[net->nlayers - 1];
		int64_t o[3];
		if (on->kind == TRIM__Y_SEQ && on->n == 1) {
			trim__yctx_index(c, 0);
			rc = trim__yint(c, on->items[0], 1, INT32_MAX, &o[2]);
			trim__yctx_pop(c);
			if (rc == 0 && (last->out[0] != 1 || last->out[1] != 1 || last->out[2] != o[2]))
				rc = trim__yerr(c, on, TRIM_ESHAPE,
				                "declared output [%lld] but the last layer '%s' gives [%lld, "
				                "%lld, %lld]",
				                (long long)o[2], last->name, (long long)last->out[0],
				                (long long)last->out[1], (long long)last->out[2]);
		} else if (on->kind == TRIM__Y_SEQ && on->n == 3) {
			for (int k = 0; k < 3 && rc == 0; k++) {
				trim__yctx_index(c, (size_t)k);
				rc = trim__yint(c, on->items[k], 1, INT32_MAX, &o[k]);
				trim__yctx_pop(c);
			}
			if (rc == 0 && memcmp(o, last->out, sizeof o) != 0)
				rc = trim__yerr(c, on, TRIM_ESHAPE,
				                "declared output [%lld, %lld, %lld] but the last layer '%s' "
				                "gives [%lld, %lld, %lld]",
				                (long long)o[0], (long long)o[1], (long long)o[2], last->name,
				                (long long)last->out[0], (long long)last->out[1],
				                (long long)last->out[2]);
		} else {
			rc = trim__yerr(c, on, TRIM_ESCHEMA, "output must be [C] or [H, W, C]");
		}
		trim__yctx_pop(c);
		trim__yctx_pop(c);
	}
	return rc < 0 ? rc : 0;
}

int trim__net_parse(trim__yctx *c, struct trim_network *net, const trim__ynode *root)
{
	static const char *const top_keys[] = {"schema_version", "network", "layers", NULL};
	int rc = trim__ymap_check(c, root, top_keys);
	if (rc)
		return rc;
	int64_t ver = 1;
	if ((rc = trim__yget_int(c, root, "schema_version", 0, 1, 1, &ver)) < 0)
		return rc;
	const trim__ynode *nm = NULL, *layers = NULL;
	if ((rc = read_header(c, net, root, &nm)) || (rc = read_layers(c, net, root, &layers)) ||
	    (rc = sum_totals(c, net, layers)) || (rc = warn_dead_ends(net)))
		return rc;
	return check_output(c, net, nm);
}
