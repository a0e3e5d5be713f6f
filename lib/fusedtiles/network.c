/*
 * The chains of a network (docs/fusion.md, "Fused tiles"), the buffer
 * level and the range of layers to fuse, named as a user names them.
 */
#include <stdio.h>
#include <string.h>

#include "fusedtiles_int.h"
#include "network/network_int.h"
#include "workload/workload_build_int.h"

static int readers_of(const trim_network *net, int li)
{
	int readers = 0;
	for (int k = 0; k < net->nlayers; k++)
		for (int j = 0; j < net->layers[k].ninputs; j++)
			readers += net->layers[k].inputs[j] == li;
	return readers;
}

/* A layer with no workload of its own between two layers of a chain (FW,
 * inference): an activation other than softmax, a dropout. */
static int no_workload(const trim__layer *L)
{
	return (L->type == TRIM__L_ACTIVATION && L->activation != TRIM__ACT_SOFTMAX) || L->type == TRIM__L_DROPOUT;
}

/* The vector operation (TRIM__FT_VEC_*) that layer `li` of net stands for
 * among the n inter-layer workloads `ops`, marking it in *used; 0 if none. */
static unsigned vector_op(const trim__layer *L, int li, const trim__inter *const *ops, int n, unsigned *used)
{
	int op = L->type == TRIM__L_SOFTMAX ? TRIM__OP_SOFTMAX : L->type == TRIM__L_BATCHNORM ? TRIM__OP_BATCHNORM : -1;
	for (int k = 0; k < n && op >= 0; k++)
		if (ops[k]->op == op && ops[k]->layer_index == li && ops[k]->phase == TRIM_PHASE_FW && !(*used >> k & 1)) {
			*used |= 1u << k;
			return op == TRIM__OP_SOFTMAX ? TRIM__FT_VEC_SOFTMAX : TRIM__FT_VEC_BATCHNORM;
		}
	return 0;
}

/* What links intra workload i to i + 1 (trim__ft_network_links): 0, or 1
 * with the vector operations between them << 1. Walked back from workload
 * i + 1's first input to workload i's layer, every layer on the way takes
 * one input and has one reader, and is a softmax or a batchnorm (its
 * inter-layer workload between the two) or a layer without a workload; the
 * inter-layer workloads between them are those and the padding of workload
 * i + 1's own input. */
static int links(const trim_network *net, const trim_workloads *w, size_t i)
{
	const trim__intra *p = trim__workloads_intra(w, i), *c = trim__workloads_intra(w, i + 1);
	if (!p || !c || p->phase != TRIM_PHASE_FW || c->phase != TRIM_PHASE_FW)
		return 0;
	if (p->layer_index < 0 || p->layer_index >= net->nlayers || c->layer_index < 0 ||
	    c->layer_index >= net->nlayers || p->layer_index == c->layer_index)
		return 0;
	const trim__layer *L = &net->layers[c->layer_index];
	const trim__inter *ops[8];
	int nops = 0;
	for (size_t j = 0; trim__workloads_inter(w, j); j++) {
		const trim__inter *y = trim__workloads_inter(w, j);
		if (y->before_intra != (int)(i + 1))
			continue;
		if (y->op == TRIM__OP_PAD && (int)j == c->pre_index && y->layer_index == c->layer_index)
			continue; /* its own padding: the chain check matches it with the zeros of its input */
		if (nops == 8)
			return 0;
		ops[nops++] = y;
	}
	if (c->pre_index >= 0 && trim__workloads_inter(w, (size_t)c->pre_index)->op != TRIM__OP_PAD)
		return 0;
	if (L->ninputs < 1 || readers_of(net, p->layer_index) != 1)
		return 0;
	unsigned used = 0, bits = 0;
	int cur = L->inputs[0], path[8], npath = 0;
	while (cur != p->layer_index) {
		if (cur < 0 || cur >= net->nlayers || npath == 8)
			return 0;
		const trim__layer *M = &net->layers[cur];
		if (M->ninputs != 1 || readers_of(net, cur) != 1)
			return 0;
		unsigned v = vector_op(M, cur, ops, nops, &used);
		if (!v && !no_workload(M))
			return 0;
		/* in training a batchnorm normalises by the statistics of the
		 * whole batch and map: no tile of it is its own */
		if ((v & TRIM__FT_VEC_BATCHNORM) && trim_workloads_mode(w) == TRIM_MODE_TRAINING)
			return 0;
		if (v & bits) /* one of each */
			return 0;
		bits |= v;
		path[npath++] = cur;
		cur = M->inputs[0];
	}
	if (used != (1u << nops) - 1)
		return 0;
	/* a second operand: attention's V after its softmax, never the chain's */
	if (L->ninputs > 1 && !(bits & TRIM__FT_VEC_SOFTMAX))
		return 0;
	for (int k = 1; k < L->ninputs; k++) {
		if (L->inputs[k] == p->layer_index)
			return 0;
		for (int q = 0; q < npath; q++)
			if (L->inputs[k] == path[q])
				return 0;
	}
	trim__ft_chain pair = {2, {p, c}, {0}, {0}, 0, {0}, 0};
	return trim__ft_chain_check(&pair) == 0 ? (int)(1u | bits << 1) : 0;
}

int trim__ft_network_links(const trim_network *net, const trim_workloads *w, int *link)
{
	size_t n = trim_workloads_intra_count(w);
	for (size_t i = 0; i < n; i++)
		link[i] = i + 1 < n ? links(net, w, i) : 0;
	return 0;
}

/* BW workload i's successor in a BW chain (trim__ft_network_bw_links),
 * -1 if none. */
static int bw_link(const trim_workloads *w, const int *link, size_t n, size_t i)
{
	const trim__intra *p = trim__workloads_intra(w, i);
	if (!p || p->phase != TRIM_PHASE_BW)
		return -1;
	for (size_t f = 0; f + 1 < n; f++) {
		const trim__intra *a = trim__workloads_intra(w, f), *b = trim__workloads_intra(w, f + 1);
		if (link[f] != 1 || b->layer_index != p->layer_index)
			continue;
		/* FW a -> b (p's layer), nothing between: BW b -> BW a */
		for (size_t j = i + 1; j < n; j++) {
			const trim__intra *c = trim__workloads_intra(w, j);
			if (c->phase == TRIM_PHASE_WG)
				continue;
			if (c->phase != TRIM_PHASE_BW || c->layer_index != a->layer_index)
				return -1;
			for (size_t k = 0; trim__workloads_inter(w, k); k++) {
				const trim__inter *y = trim__workloads_inter(w, k);
				if (y->before_intra == (int)j && y->op != TRIM__OP_TRANSPOSE &&
				    !(y->op == TRIM__OP_UPSAMPLE_PAD && (int)k == c->pre_index))
					return -1;
			}
			trim__ft_chain pair = {2, {p, c}, {0}, {0}, 0, {0}, 1};
			return trim__ft_chain_check(&pair) == 0 ? (int)j : -1;
		}
		return -1;
	}
	return -1;
}

void trim__ft_network_bw_links(const trim_workloads *w, const int *link, int *bw)
{
	size_t n = trim_workloads_intra_count(w);
	for (size_t i = 0; i < n; i++) {
		int j = bw_link(w, link, n, i);
		bw[i] = j < 0 ? 0 : j + 1;
	}
}

int trim__ft_find_level(const struct trim_arch *a, const char *name, int *level)
{
	if (!name) {
		for (int l = 1; l < a->nlevels && a->lv[l].type != TRIM__LVL_SPATIAL; l++)
			if (a->lv[l].type == TRIM__LVL_STORAGE) {
				*level = l;
				return 0;
			}
		return trim__error(TRIM_EINVAL,
		                   "fused tiles: %s has no storage level between its outermost level and its "
		                   "first spatial level to hold the tiles of fused groups",
		                   a->name);
	}
	trim__nearest near;
	trim__nearest_init(&near, name);
	char list[512] = "";
	size_t o = 0;
	for (int l = 1; l < a->nlevels; l++) {
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		if (!strcmp(a->lv[l].name, name)) {
			for (int k = 0; k < l; k++)
				if (a->lv[k].type == TRIM__LVL_SPATIAL)
					return trim__error(TRIM_EINVAL,
					                   "fused tiles: buffer level '%s' of %s lies below spatial level '%s': "
					                   "choose a level above every spatial level (one instance)",
					                   name, a->name, a->lv[k].name);
			*level = l;
			return 0;
		}
		trim__nearest_add(&near, a->lv[l].name);
		if (o < sizeof list)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", o ? ", " : "", a->lv[l].name);
	}
	char hint[96];
	return trim__error(TRIM_ENOTFOUND, "fused tiles: %s has no storage level '%s' below its outermost "
	                   "(expected one of: %s)%s", a->name, name, list, trim__suggestion(hint, sizeof hint, &near));
}

/* The FW intra workload of layer `name`, or an error naming the nearest. */
static int find_layer(const trim_workloads *w, const char *name, size_t len, int *index)
{
	trim__nearest near;
	char word[TRIM__NAME_LEN];
	snprintf(word, sizeof word, "%.*s", (int)len, name);
	trim__nearest_init(&near, word);
	for (size_t i = 0; trim__workloads_intra(w, i); i++) {
		const trim__intra *x = trim__workloads_intra(w, i);
		if (x->phase != TRIM_PHASE_FW)
			continue;
		if (!strcmp(x->layer, word)) {
			*index = (int)i;
			return 0;
		}
		trim__nearest_add(&near, x->layer);
	}
	char hint[96];
	return trim__error(TRIM_ENOTFOUND, "fused tiles: --fuse: network '%s' has no layer '%s' with a FW "
	                   "workload%s", w->network, word, trim__suggestion(hint, sizeof hint, &near));
}

int trim__ft_find_range(const trim_workloads *w, const char *range, int *first, int *last)
{
	*first = -1;
	*last = -1;
	if (!range || !strcmp(range, "all"))
		return 0;
	const char *colon = strchr(range, ':');
	if (!colon || colon == range || !colon[1])
		return trim__error(TRIM_EINVAL, "fused tiles: --fuse '%s': expected 'all' or FIRST:LAST (two layer "
		                   "names)", range);
	int rc = find_layer(w, range, (size_t)(colon - range), first);
	if (!rc)
		rc = find_layer(w, colon + 1, strlen(colon + 1), last);
	if (!rc && *last < *first)
		rc = trim__error(TRIM_EINVAL, "fused tiles: --fuse '%s': layer '%s' comes before '%s'", range,
		                 colon + 1, trim__workloads_intra(w, (size_t)*first)->layer);
	return rc;
}
