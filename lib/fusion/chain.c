/*
 * A chain of CONV / POOL layers to fuse: the handle, its layers, parameters
 * and parallelism.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fusion_int.h"

static const double param_max[TRIM_FUSION_NPARAMS] = {
	1e6, 1024, 1e6, 1e9, 1e9, 1e9, 1e9, 1e3, 1e9, 1e9, 1e9, 1e4, 1e12, 22};

static int is_fusable(int type)
{
	return type == TRIM__L_CONV || type == TRIM__L_MAXPOOL || type == TRIM__L_AVGPOOL;
}

static int find_layer(const trim_network *net, const char *name)
{
	for (int i = 0; i < net->nlayers; i++)
		if (!strcmp(net->layers[i].name, name))
			return i;
	return -1;
}

static int fill_layer(fu_layer *d, const trim__layer *s)
{
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "%s", s->name);
	d->pool = s->type != TRIM__L_CONV;
	d->maxp = s->type == TRIM__L_MAXPOOL;
	d->H = s->in[0];
	d->W = s->in[1];
	d->C = s->in[2];
	d->E = s->out[0];
	d->F = s->out[1];
	d->M = s->out[2];
	d->R = s->kernel[0];
	d->S = s->kernel[1];
	d->U = s->stride[0];
	d->V = s->stride[1];
	d->Dr = s->dilation[0] > 0 ? s->dilation[0] : 1;
	d->Dc = s->dilation[1] > 0 ? s->dilation[1] : 1;
	d->pt = s->pad[0];
	d->pb = s->pad[1];
	d->pl = s->pad[2];
	d->pr = s->pad[3];
	d->G = d->pool ? d->C : (s->groups > 0 ? s->groups : 1);
	if (!d->pool) {
		d->P = d->C / d->G;
		d->weights = s->params; /* weights + biases of the layer */
	}
	if (d->H <= 0 || d->W <= 0 || d->C <= 0 || d->E <= 0 || d->F <= 0 || d->M <= 0 ||
	    d->R <= 0 || d->S <= 0 || d->U <= 0 || d->V <= 0)
		return trim__error(TRIM_ESHAPE, "layer '%s': shape without positive sizes", s->name);
	return 0;
}

static void default_params(trim_fusion *f, int word_bits)
{
	memset(f->prm, 0, sizeof f->prm);
	f->prm[TRIM_FUSION_CLOCK_MHZ] = 100;
	f->prm[TRIM_FUSION_WORD_BITS] = word_bits;
	f->prm[TRIM_FUSION_DSP_PER_MAC] = 1;
	f->prm[TRIM_FUSION_OP_LATENCY] = 9;
	f->prm[TRIM_FUSION_ENUM_MAX_LAYERS] = 20;
}

/* "network 'N' has no layer 'X'; did you mean 'Y'?" */
static int no_layer(const trim_network *net, const char *name)
{
	trim__nearest near;
	trim__nearest_init(&near, name);
	for (int i = 0; i < net->nlayers; i++)
		trim__nearest_add(&near, net->layers[i].name);
	char hint[96];
	return trim__error(TRIM_ENOTFOUND, "network '%s' has no layer '%s'%s", net->name, name,
	                   trim__suggestion(hint, sizeof hint, &near));
}

TRIM_API int trim_fusion_create(trim_fusion **out, const trim_network *net, const char *first,
                                const char *last)
{
	TRIM__HANDLE_CHECK(net, NETWORK, TRIM_EINVAL);
	trim_fusion *f = NULL;
	int rc = 0;
	if (!out || !net)
		return trim__error(TRIM_EINVAL, "trim_fusion_create: NULL argument");
	*out = NULL;
	int a = 0, b;
	if (first) {
		a = find_layer(net, first);
		if (a < 0)
			return no_layer(net, first);
	}
	if (net->nlayers == 0)
		return trim__error(TRIM_ESHAPE, "network '%s' has no layers", net->name);
	if (last) {
		b = find_layer(net, last);
		if (b < 0)
			return no_layer(net, last);
		if (b < a)
			return trim__error(TRIM_ESHAPE, "chain %s..%s: layer '%s' comes before '%s' in "
			                   "network '%s'", net->layers[a].name, last, last,
			                   net->layers[a].name, net->name);
	} else {
		b = a;
		while (b + 1 < net->nlayers && is_fusable(net->layers[b + 1].type) &&
		       net->layers[b + 1].ninputs == 1 && net->layers[b + 1].inputs[0] == b &&
		       b + 1 - a < MAX_CHAIN)
			b++;
	}
	if (b - a + 1 > MAX_CHAIN)
		return trim__error(TRIM_ERANGE, "chain %s..%s has %d layers, more than %d",
		                   net->layers[a].name, net->layers[b].name, b - a + 1, MAX_CHAIN);
	for (int i = a; i <= b; i++) {
		const trim__layer *l = &net->layers[i];
		if (!is_fusable(l->type))
			return trim__error(TRIM_ESHAPE, "layer '%s' (%s) in chain %s..%s is not a CONV "
			                   "(conv2d) or POOL (maxpool2d, avgpool2d) layer: it cannot be "
			                   "fused", l->name, trim__layer_type_name(l->type),
			                   net->layers[a].name, net->layers[b].name);
		if (i > a && (l->ninputs != 1 || l->inputs[0] != i - 1))
			return trim__error(TRIM_ESHAPE, "layer '%s' in chain %s..%s does not take its "
			                   "input from the layer before it ('%s'): the layers are not "
			                   "consecutive", l->name, net->layers[a].name,
			                   net->layers[b].name, net->layers[i - 1].name);
	}
	f = trim__calloc(1, sizeof *f);
	if (!f)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(f, FUSION);
	snprintf(f->net, sizeof f->net, "%s", net->name);
	f->nl = b - a + 1;
	for (int i = a; i <= b; i++) {
		rc = fill_layer(&f->ly[i - a], &net->layers[i]);
		if (rc)
			goto out;
	}
	default_params(f, net->word_bits > 0 ? net->word_bits : 16);
	*out = f;
	f = NULL;
out:
	free(f);
	return rc;
}

TRIM_API void trim_fusion_free(trim_fusion *f)
{
	TRIM__HANDLE_CHECK_VOID(f, FUSION);
	if (!f)
		return;
	TRIM__HANDLE_POISON(f, FUSION);
	free(f);
}

TRIM_API int trim_fusion_clone(trim_fusion **out, const trim_fusion *f)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!out || !f)
		return trim__error(TRIM_EINVAL, "trim_fusion_clone: NULL argument");
	*out = trim__calloc(1, sizeof **out);
	if (!*out)
		return TRIM_ENOMEM;
	**out = *f;
	TRIM__HANDLE_INIT(*out, FUSION);
	return 0;
}

TRIM_API size_t trim_fusion_layer_count(const trim_fusion *f)
{
	return TRIM__HANDLE_OK(f, FUSION) ? (size_t)f->nl : 0;
}

TRIM_API const char *trim_fusion_layer_name(const trim_fusion *f, size_t i)
{
	TRIM__HANDLE_CHECK(f, FUSION, NULL);
	return f && i < (size_t)f->nl ? f->ly[i].name : NULL;
}

TRIM_API int trim_fusion_layer_find(const trim_fusion *f, const char *name)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!f || !name)
		return trim__error(TRIM_EINVAL, "trim_fusion_layer_find: NULL argument");
	for (int i = 0; i < f->nl; i++)
		if (!strcmp(f->ly[i].name, name))
			return i;
	trim__nearest near;
	trim__nearest_init(&near, name);
	for (int i = 0; i < f->nl; i++)
		trim__nearest_add(&near, f->ly[i].name);
	char hint[96];
	return trim__error(TRIM_ENOTFOUND, "layer '%s' is not in the chain %s..%s%s", name,
	                   f->ly[0].name, f->ly[f->nl - 1].name, trim__suggestion(hint, sizeof hint, &near));
}

TRIM_API int trim_fusion_set_param(trim_fusion *f, int p, double v)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!f)
		return trim__error(TRIM_EINVAL, "trim_fusion_set_param: NULL handle");
	if (p < 0 || p >= TRIM_FUSION_NPARAMS)
		return trim__error(TRIM_EINVAL, "unknown fusion parameter %d", p);
	if (!(v >= 0 && v <= param_max[p]))
		return trim__error(TRIM_ERANGE, "fusion parameter %s = %g: outside [0, %g]",
		                   trim__fusion_param_names[p], v, param_max[p]);
	if ((p == TRIM_FUSION_CLOCK_MHZ || p == TRIM_FUSION_WORD_BITS) && !(v > 0))
		return trim__error(TRIM_ERANGE, "fusion parameter %s must be positive",
		                   trim__fusion_param_names[p]);
	if (p == TRIM_FUSION_ENUM_MAX_LAYERS && v < 1)
		return trim__error(TRIM_ERANGE, "fusion parameter %s must be at least 1",
		                   trim__fusion_param_names[p]);
	f->prm[p] = v;
	return 0;
}

TRIM_API int trim_fusion_get_param(const trim_fusion *f, int p, double *v)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!f || !v)
		return trim__error(TRIM_EINVAL, "trim_fusion_get_param: NULL argument");
	if (p < 0 || p >= TRIM_FUSION_NPARAMS)
		return trim__error(TRIM_EINVAL, "unknown fusion parameter %d", p);
	*v = f->prm[p];
	return 0;
}

TRIM_API int trim_fusion_set_parallelism(trim_fusion *f, const char *layer, int64_t ch)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!f || !layer)
		return trim__error(TRIM_EINVAL, "trim_fusion_set_parallelism: NULL argument");
	int i = trim_fusion_layer_find(f, layer);
	if (i < 0)
		return i;
	fu_layer *l = &f->ly[i];
	if (l->pool)
		return trim__error(TRIM_EINVAL, "layer '%s' is a POOL layer: parallelism is set on "
		                   "CONV layers", layer);
	if (ch < 1 || ch > l->C / l->G)
		return trim__error(TRIM_ERANGE, "layer '%s': parallelism %lld outside [1, %lld] (its "
		                   "input channels per group)", layer, (long long)ch,
		                   (long long)(l->C / l->G));
	l->P = ch;
	return 0;
}

TRIM_API int trim_fusion_set_max_parallelism(trim_fusion *f, int64_t ch)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!f)
		return trim__error(TRIM_EINVAL, "trim_fusion_set_max_parallelism: NULL handle");
	if (ch < 0)
		return trim__error(TRIM_ERANGE, "maximum parallelism %lld is negative", (long long)ch);
	for (int i = 0; i < f->nl; i++) {
		fu_layer *l = &f->ly[i];
		if (!l->pool)
			l->P = ch == 0 || ch > l->C / l->G ? l->C / l->G : ch;
	}
	return 0;
}

TRIM_API const char *trim_fusion_hardware_name(const trim_fusion *f)
{
	return TRIM__HANDLE_OK(f, FUSION) ? f->hw : NULL;
}
