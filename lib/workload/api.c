/*
 * The task analyst's public API: the names of dimensions, phases, modes and
 * workload kinds, trim_workloads_create / _free, the accessors and the
 * reports (JSON, CSV, table). The analysis itself is lib/workload/workload.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "network/network_int.h"
#include "util/handle.h"
#include "util/util.h"
#include "workload_int.h"
#include "workload_build_int.h"

static const char *const dim_names[TRIM_NDIMS] = {"N", "G", "M", "C", "E", "F", "R", "S"};
static const char *const phase_names[] = {"FW", "BW", "WG"};
static const char *const kind_names[] = {"conv",    "depthwise", "fc",     "maxpool",
                                         "avgpool", "eltwise",   "matmul", "upsample"};
static const char *const inter_names[] = {"pad", "upsample_pad", "transpose", "cache",
                                          "shortcut", "concat", "batchnorm", "layernorm",
                                          "softmax", "move", "lookup"};

const char *trim_dim_name(int d) { return d >= 0 && d < TRIM_NDIMS ? dim_names[d] : NULL; }
const char *trim_phase_name(int p) { return p >= 0 && p < 3 ? phase_names[p] : NULL; }
const char *trim_mode_name(int m)
{
	return m == TRIM_MODE_INFERENCE ? "inference" : m == TRIM_MODE_TRAINING ? "training" : NULL;
}
const char *trim_workload_kind_name(int k)
{
	return k >= 0 && k < (int)TRIM__ARRAY_LEN(kind_names) ? kind_names[k] : NULL;
}
const char *trim_inter_op_name(int op)
{
	return op >= 0 && op < (int)TRIM__ARRAY_LEN(inter_names) ? inter_names[op] : NULL;
}

/* ---- creation ------------------------------------------------------------ */

int trim_workloads_create(trim_workloads **out, const trim_network *net, int mode,
                          int64_t batch, int word_bits)
{
	TRIM__HANDLE_CHECK(net, NETWORK, TRIM_EINVAL);
	if (!out || !net)
		return trim__error(TRIM_EINVAL, "trim_workloads_create: NULL argument");
	*out = NULL;
	if (mode != TRIM_MODE_DEFAULT && mode != TRIM_MODE_INFERENCE && mode != TRIM_MODE_TRAINING)
		return trim__error(TRIM_EINVAL, "trim_workloads_create: unknown mode %d", mode);
	if (batch < 0 || batch > (1 << 24))
		return trim__error(TRIM_ERANGE, "batch %lld out of range [1, %d]", (long long)batch,
		                   1 << 24);
	if (word_bits < 0 || word_bits > 64)
		return trim__error(TRIM_ERANGE, "word_bits %d out of range [1, 64]", word_bits);

	struct trim_workloads *w = trim__calloc(1, sizeof *w);
	builder b = {0};
	int n = net->nlayers, rc = TRIM_ENOMEM;
	if (!w)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(w, WORKLOADS);
	snprintf(w->network, sizeof w->network, "%s", net->name);
	memcpy(w->origin, net->digest, sizeof w->origin);
	w->mode = mode == TRIM_MODE_DEFAULT ? net->mode : mode;
	w->batch = batch ? batch : net->batch;
	w->word_bits = word_bits ? word_bits : net->word_bits;
	w->params = net->params;
	w->network_macs = net->macs;
	b.w = w;
	b.net = net;
	b.N = w->batch;
	int *ints = calloc((size_t)n * 7, sizeof *ints);
	if (!ints)
		goto out;
	if (net->nwarnings) {
		w->warnings = trim__calloc((size_t)net->nwarnings, sizeof *w->warnings);
		if (!w->warnings)
			goto out;
		for (int k = 0; k < net->nwarnings; k++) {
			if (!(w->warnings[k] = trim__strdup(net->warnings[k])))
				goto out;
			w->nwarnings++;
		}
	}
	b.fw_index = ints;
	b.last_fw = ints + n;
	b.bw_index = ints + 2 * n;
	b.wg_index = ints + 3 * n;
	b.bw_done = ints + 4 * n;
	b.needs_grad = ints + 5 * n;
	for (int i = 0; i < 5 * n; i++)
		ints[i] = -1;
	b.bw2_index = ints + 6 * n;
	for (int i = 6 * n; i < 7 * n; i++)
		ints[i] = -1;
	rc = trim__wl_analyse(&b);
	if (rc)
		goto out;

	/* live cached bytes over the intra sequence */
	w->cached = trim__calloc(w->nintra ? w->nintra : 1, sizeof *w->cached);
	if (!w->cached) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	for (size_t j = 0; j < w->ninter; j++) {
		const trim__inter *y = &w->inter[j];
		if (y->op != TRIM__OP_CACHE && y->op != TRIM__OP_SHORTCUT)
			continue;
		int64_t bytes;
		int bad = __builtin_mul_overflow(y->elems, (int64_t)w->word_bits, &bytes);
		bytes = bytes / 8 + (bytes % 8 != 0);
		for (int i = y->created; !bad && i <= y->freed && i < (int)w->nintra; i++)
			bad = __builtin_add_overflow(w->cached[i], bytes, &w->cached[i]);
		if (bad) {
			rc = trim__wl_overflow_error(net, y->layer_index, "the cached bytes", w->batch);
			goto out;
		}
	}
	for (size_t i = 0; i < w->nintra; i++) {
		if (__builtin_add_overflow(w->total_macs, w->intra[i].macs, &w->total_macs) ||
		    __builtin_add_overflow(w->total_zero_macs, w->intra[i].zero_macs,
		                           &w->total_zero_macs)) {
			rc = trim__wl_overflow_error(net, w->intra[i].layer_index,
			                    "the total MACs of the network's workloads", w->batch);
			goto out;
		}
	}
	for (size_t i = 0; i < w->nintra; i++)
		if (w->cached[i] > w->peak_cached)
			w->peak_cached = w->cached[i];
	*out = w;
	w = NULL;
out:
	free(ints);
	trim_workloads_free(w);
	return rc;
}

void trim_workloads_free(trim_workloads *w)
{
	TRIM__HANDLE_CHECK_VOID(w, WORKLOADS);
	if (!w)
		return;
	for (int k = 0; k < w->nwarnings; k++)
		free(w->warnings[k]);
	free(w->warnings);
	free(w->intra);
	free(w->inter);
	free(w->cached);
	TRIM__HANDLE_POISON(w, WORKLOADS);
	free(w);
}

/* ---- accessors ----------------------------------------------------------- */

#define INTRA_OR(w, i, bad)                                                  \
	do {                                                                      \
		if (!(w) || (i) >= (w)->nintra) {                                     \
			trim__error(TRIM_EINVAL, "no intra workload %zu", (size_t)(i));  \
			return bad;                                                       \
		}                                                                     \
	} while (0)
#define INTER_OR(w, j, bad)                                                  \
	do {                                                                      \
		if (!(w) || (j) >= (w)->ninter) {                                     \
			trim__error(TRIM_EINVAL, "no inter workload %zu", (size_t)(j));  \
			return bad;                                                       \
		}                                                                     \
	} while (0)

int trim_workloads_mode(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->mode : TRIM_EINVAL;
}
int64_t trim_workloads_batch(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->batch : TRIM_EINVAL;
}
int trim_workloads_word_bits(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->word_bits : TRIM_EINVAL;
}
size_t trim_workloads_intra_count(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->nintra : 0;
}
size_t trim_workloads_inter_count(const trim_workloads *w)
{
	return TRIM__HANDLE_OK(w, WORKLOADS) ? w->ninter : 0;
}

int trim__workloads_check_origin(const trim_workloads *w, const trim_network *net, const char *fn)
{
	if (!memcmp(w->origin, net->digest, sizeof w->origin))
		return 0;
	if (!strcmp(w->network, net->name))
		return trim__error(TRIM_EINVAL, "%s: the workloads were made from another description of "
		                   "network '%s' (its content differs): make them from this network "
		                   "with trim_workloads_create", fn, net->name);
	return trim__error(TRIM_EINVAL, "%s: the workloads were made from network '%s', not from "
	                   "'%s': make them from this network with trim_workloads_create", fn,
	                   w->network, net->name);
}

const trim__intra *trim__workloads_intra(const trim_workloads *w, size_t i)
{
	return w && i < w->nintra ? &w->intra[i] : NULL;
}

const trim__inter *trim__workloads_inter(const trim_workloads *w, size_t j)
{
	return w && j < w->ninter ? &w->inter[j] : NULL;
}

int trim_workloads_find(const trim_workloads *w, const char *layer, int phase, size_t *index)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	if (!w || !layer || !index)
		return trim__error(TRIM_EINVAL, "trim_workloads_find: NULL argument");
	for (size_t i = 0; i < w->nintra; i++) {
		if (!strcmp(w->intra[i].layer, layer) && w->intra[i].phase == phase) {
			*index = i;
			return 0;
		}
	}
	return trim__error(TRIM_ENOTFOUND, "no %s workload for layer '%s'%s",
	                   trim_phase_name(phase) ? trim_phase_name(phase) : "?", layer,
	                   w->mode == TRIM_MODE_INFERENCE && phase != TRIM_PHASE_FW
	                       ? " (inference has FW only)"
	                       : "");
}

const char *trim_workloads_intra_layer(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, NULL);
	INTRA_OR(w, i, NULL);
	return w->intra[i].layer;
}
int trim_workloads_intra_phase(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	return w->intra[i].phase;
}
int trim_workloads_intra_kind(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	return w->intra[i].kind;
}
int trim_workloads_intra_bounds(const trim_workloads *w, size_t i, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	if (!out || n < TRIM_NDIMS)
		return trim__error(TRIM_EINVAL, "bounds need room for %d values", TRIM_NDIMS);
	memcpy(out, w->intra[i].bound, TRIM_NDIMS * sizeof *out);
	return 0;
}
int trim_workloads_intra_strides(const trim_workloads *w, size_t i, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	if (!out || n < 4)
		return trim__error(TRIM_EINVAL, "strides need room for 4 values");
	out[0] = w->intra[i].stride[0];
	out[1] = w->intra[i].stride[1];
	out[2] = w->intra[i].dilation[0];
	out[3] = w->intra[i].dilation[1];
	return 0;
}
int64_t trim_workloads_intra_macs(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	return w->intra[i].macs;
}
int64_t trim_workloads_intra_zero_macs(const trim_workloads *w, size_t i)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	return w->intra[i].zero_macs;
}
const char *trim_workloads_tensor_name(const trim_workloads *w, size_t i, int slot)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, NULL);
	INTRA_OR(w, i, NULL);
	if (slot < 0 || slot > 2 || !w->intra[i].t[slot].present)
		return NULL;
	return w->intra[i].t[slot].name;
}
int64_t trim_workloads_tensor_elems(const trim_workloads *w, size_t i, int slot)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTRA_OR(w, i, TRIM_EINVAL);
	if (slot < 0 || slot > 2 || !w->intra[i].t[slot].present)
		return -1;
	return w->intra[i].t[slot].elems;
}
int trim_workloads_inter_op(const trim_workloads *w, size_t j)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTER_OR(w, j, TRIM_EINVAL);
	return w->inter[j].op;
}
const char *trim_workloads_inter_layer(const trim_workloads *w, size_t j)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, NULL);
	INTER_OR(w, j, NULL);
	return w->inter[j].layer;
}
int64_t trim_workloads_inter_zeros(const trim_workloads *w, size_t j)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTER_OR(w, j, TRIM_EINVAL);
	return w->inter[j].zeros;
}
int64_t trim_workloads_inter_bytes(const trim_workloads *w, size_t j)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTER_OR(w, j, TRIM_EINVAL);
	const trim__inter *y = &w->inter[j];
	if (y->op != TRIM__OP_CACHE && y->op != TRIM__OP_SHORTCUT)
		return 0;
	return y->elems / 8 * w->word_bits + (y->elems % 8 * w->word_bits + 7) / 8;
}
int trim_workloads_inter_lifetime(const trim_workloads *w, size_t j, int64_t *created,
                                  int64_t *freed)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	INTER_OR(w, j, TRIM_EINVAL);
	if (!created || !freed)
		return trim__error(TRIM_EINVAL, "NULL output");
	*created = w->inter[j].created;
	*freed = w->inter[j].freed;
	return 0;
}
int trim_workloads_cached_bytes(const trim_workloads *w, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	if (!w || !out || n < w->nintra)
		return trim__error(TRIM_EINVAL, "cached bytes need room for %zu values",
		                   w ? w->nintra : 0);
	memcpy(out, w->cached, w->nintra * sizeof *out);
	return 0;
}
int64_t trim_workloads_peak_cached_bytes(const trim_workloads *w)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	return w ? w->peak_cached : TRIM_EINVAL;
}
int64_t trim_workloads_total_macs(const trim_workloads *w)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	return w ? w->total_macs : TRIM_EINVAL;
}

/* ---- reports --------------------------------------------------------------- */

static void json_shape(trim__sb *sb, const int64_t *s)
{
	trim__sb_printf(sb, "[%lld, %lld, %lld, %lld]", (long long)s[0], (long long)s[1],
	                (long long)s[2], (long long)s[3]);
}

static int64_t total_zero_macs(const trim_workloads *w) { return w->total_zero_macs; }

/* The workloads as JSON: the network, every intra- and inter-layer
 * workload, the totals and the warnings. */
static int workloads_json(const void *report, trim__sb *sb)
{
	const trim_workloads *w = report;
	trim__sb_puts(sb, "{\n  \"network\": ");
	trim__sb_json_str(sb, w->network);
	trim__sb_printf(sb, ",\n  \"mode\": \"%s\",\n  \"batch\": %lld,\n  \"word_bits\": %d,\n",
	                trim_mode_name(w->mode), (long long)w->batch, w->word_bits);
	trim__sb_puts(sb, "  \"intra\": [");
	for (size_t i = 0; i < w->nintra; i++) {
		const trim__intra *x = &w->intra[i];
		trim__sb_printf(sb, "%s\n    {\"index\": %zu, \"layer\": ", i ? "," : "", i);
		trim__sb_json_str(sb, x->layer);
		trim__sb_printf(sb, ", \"phase\": \"%s\", \"kind\": \"%s\", \"bounds\": {",
		                phase_names[x->phase], kind_names[x->kind]);
		for (int d = 0; d < TRIM_NDIMS; d++)
			trim__sb_printf(sb, "%s\"%s\": %lld", d ? ", " : "", dim_names[d],
			                (long long)x->bound[d]);
		trim__sb_printf(sb,
		                "}, \"strides\": [%lld, %lld], \"dilation\": [%lld, %lld], \"macs\": "
		                "%lld, \"zero_macs\": %lld, \"tensors\": [",
		                (long long)x->stride[0], (long long)x->stride[1],
		                (long long)x->dilation[0], (long long)x->dilation[1],
		                (long long)x->macs, (long long)x->zero_macs);
		int first = 1;
		for (int k = 0; k < 3; k++) {
			if (!x->t[k].present)
				continue;
			trim__sb_printf(sb, "%s{\"slot\": %d, \"name\": ", first ? "" : ", ", k);
			trim__sb_json_str(sb, x->t[k].name);
			trim__sb_printf(sb, ", \"elems\": %lld}", (long long)x->t[k].elems);
			first = 0;
		}
		trim__sb_printf(sb, "], \"preprocessing\": %d, \"cached_bytes\": %lld}", x->pre_index,
		                (long long)w->cached[i]);
	}
	trim__sb_puts(sb, "\n  ],\n  \"inter\": [");
	for (size_t j = 0; j < w->ninter; j++) {
		const trim__inter *y = &w->inter[j];
		trim__sb_printf(sb, "%s\n    {\"index\": %zu, \"op\": \"%s\", \"layer\": ", j ? "," : "",
		                j, inter_names[y->op]);
		trim__sb_json_str(sb, y->layer);
		trim__sb_printf(sb, ", \"phase\": \"%s\", \"tensor\": ", phase_names[y->phase]);
		trim__sb_json_str(sb, y->tensor);
		if (y->op == TRIM__OP_CACHE || y->op == TRIM__OP_SHORTCUT) {
			trim__sb_printf(sb, ", \"elems\": %lld, \"bytes\": %lld, \"created\": %d, \"freed\": %d}",
			                (long long)y->elems, (long long)trim_workloads_inter_bytes(w, j),
			                y->created, y->freed);
		} else {
			trim__sb_puts(sb, ", \"in_shape\": ");
			json_shape(sb, y->in_shape);
			trim__sb_puts(sb, ", \"out_shape\": ");
			json_shape(sb, y->out_shape);
			trim__sb_printf(sb, ", \"zeros\": %lld, \"before_intra\": %d}", (long long)y->zeros,
			                y->before_intra);
		}
	}
	trim__sb_printf(sb,
	                "\n  ],\n  \"totals\": {\"macs\": %lld, \"zero_macs\": %lld, "
	                "\"network_macs\": %lld, \"params\": %lld, \"intra_count\": %zu, "
	                "\"inter_count\": %zu, \"peak_cached_bytes\": %lld}\n}\n",
	                (long long)trim_workloads_total_macs(w), (long long)total_zero_macs(w),
	                (long long)w->network_macs, (long long)w->params, w->nintra, w->ninter,
	                (long long)w->peak_cached);
	if (w->nwarnings) { /* reopen the object: the warnings of the network */
		sb->len -= 3; /* "}\n" of the object and the newline */
		trim__sb_puts(sb, ",\n  \"warnings\": [");
		for (int k = 0; k < w->nwarnings; k++) {
			trim__sb_puts(sb, k ? ", " : "");
			trim__sb_json_str(sb, w->warnings[k]);
		}
		trim__sb_puts(sb, "]\n}\n");
	}
	return 0;
}

/* The workloads as CSV: one row per intra- or inter-layer workload. */
static int workloads_csv(const void *report, trim__sb *sb)
{
	const trim_workloads *w = report;
	trim__sb_puts(sb, "kind,index,layer,phase,op,N,G,M,C,E,F,R,S,U,V,macs,zero_macs,zeros,"
	                  "bytes,created,freed,cached_bytes\n");
	for (size_t i = 0; i < w->nintra; i++) {
		const trim__intra *x = &w->intra[i];
		trim__sb_printf(sb, "intra,%zu,", i);
		trim__sb_csv_str(sb, x->layer);
		trim__sb_printf(sb, ",%s,%s", phase_names[x->phase], kind_names[x->kind]);
		for (int d = 0; d < TRIM_NDIMS; d++)
			trim__sb_printf(sb, ",%lld", (long long)x->bound[d]);
		trim__sb_printf(sb, ",%lld,%lld,%lld,%lld,,,,,%lld\n", (long long)x->stride[0],
		                (long long)x->stride[1], (long long)x->macs, (long long)x->zero_macs,
		                (long long)w->cached[i]);
	}
	for (size_t j = 0; j < w->ninter; j++) {
		const trim__inter *y = &w->inter[j];
		trim__sb_printf(sb, "inter,%zu,", j);
		trim__sb_csv_str(sb, y->layer);
		trim__sb_printf(sb, ",%s,%s,,,,,,,,,,,,,%lld,%lld,%d,%d,\n", phase_names[y->phase],
		                inter_names[y->op], (long long)y->zeros,
		                (long long)trim_workloads_inter_bytes(w, j), y->created, y->freed);
	}
	return 0;
}

/* The workloads as a table for people, with the totals and the warnings. */
static int workloads_table(const void *report, trim__sb *sb)
{
	const trim_workloads *w = report;
	trim__sb_printf(sb, "network %s, %s, batch %lld, %d-bit words\n\n", w->network,
	                trim_mode_name(w->mode), (long long)w->batch, w->word_bits);
	int lw = 5, tw = 6; /* columns as wide as the longest layer and tensor names */
	for (size_t i = 0; i < w->nintra; i++) {
		size_t l = strlen(w->intra[i].layer);
		lw = l > (size_t)lw && l < 256 ? (int)l : lw;
	}
	for (size_t j = 0; j < w->ninter; j++) {
		size_t l = strlen(w->inter[j].layer), t = strlen(w->inter[j].tensor);
		lw = l > (size_t)lw && l < 256 ? (int)l : lw;
		tw = t > (size_t)tw && t < 256 ? (int)t : tw;
	}
	trim__sb_printf(sb, "%-4s %-*s %-5s %-9s %6s %5s %5s %5s %5s %5s %3s %3s %2s %16s %14s %12s\n",
	                "#", lw, "layer", "phase", "kind", "N", "G", "M", "C", "E", "F", "R", "S", "U",
	                "MACs", "zero MACs", "cached B");
	for (size_t i = 0; i < w->nintra; i++) {
		const trim__intra *x = &w->intra[i];
		const int64_t *B = x->bound;
		trim__sb_printf(sb,
		                "%-4zu %-*s %-5s %-9s %6lld %5lld %5lld %5lld %5lld %5lld %3lld %3lld "
		                "%2lld %16lld %14lld %12lld\n",
		                i, lw, x->layer, phase_names[x->phase], kind_names[x->kind], (long long)B[0],
		                (long long)B[1], (long long)B[2], (long long)B[3], (long long)B[4],
		                (long long)B[5], (long long)B[6], (long long)B[7], (long long)x->stride[0],
		                (long long)x->macs, (long long)x->zero_macs, (long long)w->cached[i]);
	}
	trim__sb_printf(sb, "\n%-4s %-12s %-*s %-5s %-*s %14s %12s %s\n", "#", "op", lw, "layer", "phase",
	                tw, "tensor", "zeros", "bytes", "lifetime / feeds");
	for (size_t j = 0; j < w->ninter; j++) {
		const trim__inter *y = &w->inter[j];
		trim__sb_printf(sb, "%-4zu %-12s %-*s %-5s %-*s %14lld %12lld ", j,
		                inter_names[y->op], lw, y->layer, phase_names[y->phase], tw, y->tensor,
		                (long long)y->zeros, (long long)trim_workloads_inter_bytes(w, j));
		if (y->op == TRIM__OP_CACHE || y->op == TRIM__OP_SHORTCUT)
			trim__sb_printf(sb, "[%d, %d]\n", y->created, y->freed);
		else
			trim__sb_printf(sb, "-> #%d\n", y->before_intra);
	}
	trim__sb_printf(sb,
	                "\ntotals: %zu intra, %zu inter workloads; %lld MACs (%lld with a "
	                "predictable zero operand); network: %lld MACs/sample, %lld parameters; "
	                "peak cached %lld bytes\n",
	                w->nintra, w->ninter, (long long)trim_workloads_total_macs(w),
	                (long long)total_zero_macs(w), (long long)w->network_macs,
	                (long long)w->params, (long long)w->peak_cached);
	for (int k = 0; k < w->nwarnings; k++)
		trim__sb_printf(sb, "warning: %s\n", w->warnings[k]);
	return 0;
}

/* The writers of trim_workloads_report, one per format. */
static const trim__writers workloads_writers = {
	"trim_workloads_report",
	{[TRIM_FORMAT_TABLE] = workloads_table, [TRIM_FORMAT_JSON] = workloads_json, [TRIM_FORMAT_CSV] = workloads_csv}};

int trim_workloads_report(const trim_workloads *w, int format, char **out)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	if (!w || !out)
		return trim__error(TRIM_EINVAL, "trim_workloads_report: NULL argument");
	*out = NULL;
	return trim__write_report(&workloads_writers, format, w, out);
}
