/*
 * The rules of onnx.checker that the translation (lib/network/onnx/translate.c) relies
 * on, checked on the whole graph before it (docs/onnx.md, "What is refused"):
 * every tensor is assigned once (single static assignment: one graph input,
 * one initializer or one output of one node), every node input is made before
 * the node reads it (topological order), every graph output is made. A
 * model that breaks one is refused with the node, or the input, initializer
 * or output, that breaks it, whatever --passthrough says.
 */
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

enum def_kind { DEF_INPUT, DEF_INITIALIZER, DEF_NODE };

/* One assignment of a tensor name: a graph input, an initializer or a node output. */
typedef struct {
	const char *name;
	int kind;
	size_t node;  /* DEF_NODE: the node's index in the graph */
	size_t order; /* the position of the assignment: inputs, initializers, nodes in order */
} tensor_def;

static int by_name_then_order(const void *a, const void *b)
{
	const tensor_def *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The first assignment of `name` (defs sorted), or NULL. */
static const tensor_def *first_def(const tensor_def *defs, size_t n, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(defs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(defs[lo].name, name) ? &defs[lo] : NULL;
}

#define SSA_WHY "an ONNX tensor is assigned once; onnx.checker refuses the model"

/* A node's output that is assigned already: by its own inputs, by a graph
 * input or initializer, by an earlier node or by the node itself. */
static int check_outputs(tr *t, const tensor_def *defs, size_t n, size_t j)
{
	const Onnx__GraphProto *g = t->g;
	const Onnx__NodeProto *nd = g->node[j];
	t->node = nd;
	for (size_t q = 0; q < nd->n_output; q++) {
		const char *o = nd->output[q];
		if (!o || !o[0])
			continue; /* an optional output left out */
		for (size_t k = 0; k < nd->n_input; k++)
			if (nd->input[k] && !strcmp(nd->input[k], o))
				return trim__ox_node_err(t, TRIM_ESCHEMA, "output '%s' is also its input %zu: "
				                         "the node writes the tensor it reads (" SSA_WHY ")",
				                         o, k);
		for (size_t k = 0; k < q; k++)
			if (!strcmp(nd->output[k], o))
				return trim__ox_node_err(t, TRIM_ESCHEMA, "outputs %zu and %zu are both '%s' ("
				                         SSA_WHY ")", k, q, o);
		const tensor_def *d = first_def(defs, n, o);
		if (!d || (d->kind == DEF_NODE && d->node == j))
			continue;
		if (d->kind == DEF_INPUT)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "output '%s' is also a graph input ("
			                         SSA_WHY ")", o);
		if (d->kind == DEF_INITIALIZER)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "output '%s' is also an initializer ("
			                         SSA_WHY ")", o);
		const Onnx__NodeProto *other = g->node[d->node];
		return trim__ox_node_err(t, TRIM_ESCHEMA, "output '%s' is also made by node '%s' "
		                         "(op_type %s) (" SSA_WHY ")", o, NODE_NAME(other),
		                         other->op_type ? other->op_type : "?");
	}
	return 0;
}

/* A node's inputs: each assigned before the node. */
static int check_inputs(tr *t, const tensor_def *defs, size_t n, size_t j)
{
	const Onnx__NodeProto *nd = t->g->node[j];
	t->node = nd;
	for (size_t k = 0; k < nd->n_input; k++) {
		const char *in = nd->input[k];
		if (!in || !in[0])
			continue; /* an optional input left out */
		const tensor_def *d = first_def(defs, n, in);
		if (!d)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "input '%s' is no graph input, "
			                         "initializer or node output", in);
		if (d->kind == DEF_NODE && d->node >= j)
			return trim__ox_node_err(t, TRIM_ESCHEMA, "input '%s' is made by node '%s' later "
			                         "in the graph (a cycle, or nodes out of topological "
			                         "order)", in, NODE_NAME(t->g->node[d->node]));
	}
	return 0;
}

int trim__ox_check_graph(tr *t)
{
	const Onnx__GraphProto *g = t->g;
	size_t n = g->n_input + g->n_initializer;
	for (size_t j = 0; j < g->n_node; j++)
		n += g->node[j]->n_output;
	tensor_def *defs = trim__calloc(n ? n : 1, sizeof *defs);
	if (!defs)
		return TRIM_ENOMEM;
	size_t m = 0;
	int rc = 0;
	for (size_t k = 0; k < g->n_input; k++)
		if (g->input[k]->name && g->input[k]->name[0])
			defs[m] = (tensor_def){g->input[k]->name, DEF_INPUT, 0, m}, m++;
	for (size_t k = 0; k < g->n_initializer; k++)
		if (g->initializer[k]->name && g->initializer[k]->name[0])
			defs[m] = (tensor_def){g->initializer[k]->name, DEF_INITIALIZER, 0, m}, m++;
	for (size_t j = 0; j < g->n_node; j++)
		for (size_t q = 0; q < g->node[j]->n_output; q++)
			if (g->node[j]->output[q] && g->node[j]->output[q][0])
				defs[m] = (tensor_def){g->node[j]->output[q], DEF_NODE, j, m}, m++;
	qsort(defs, m, sizeof *defs, by_name_then_order);
	/* graph inputs and initializers: each listed once (an initializer may
	 * also be listed as a graph input, as models before IR version 4 do) */
	for (size_t i = 1; i < m && rc == 0; i++) {
		const tensor_def *a = &defs[i - 1], *b = &defs[i];
		if (strcmp(a->name, b->name) || b->kind == DEF_NODE || a->kind != b->kind)
			continue;
		rc = trim__error(TRIM_ESCHEMA, "%s: %s '%s' is listed twice (" SSA_WHY ")", t->file,
		                 b->kind == DEF_INPUT ? "graph input" : "initializer", b->name);
	}
	for (size_t j = 0; j < g->n_node && rc == 0; j++) {
		rc = check_outputs(t, defs, m, j);
		if (rc == 0)
			rc = check_inputs(t, defs, m, j);
	}
	for (size_t k = 0; k < g->n_output && rc == 0; k++) {
		const char *o = g->output[k]->name;
		if (!o || !o[0])
			rc = trim__error(TRIM_ESCHEMA, "%s: graph output %zu has no name", t->file, k);
		else if (!first_def(defs, m, o))
			rc = trim__error(TRIM_ESCHEMA, "%s: graph output '%s' is made by no node", t->file,
			                 o);
	}
	t->node = NULL;
	free(defs);
	return rc;
}
