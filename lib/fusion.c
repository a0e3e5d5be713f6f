/*
 * Inter-layer fusion of CONV / POOL chains (DeCoILFNet): line buffers, depth
 * concatenation, pipelined groups, and the exploration of every partition of
 * a chain into fused groups. docs/fusion.md gives every equation; the
 * comments below name them (F1 ... F14).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_int.h"
#include "energy_int.h"
#include "network_int.h"
#include "trim/fusion.h"
#include "util/handle.h"
#include "util/util.h"

#define MAX_CHAIN 64
#define NOBJ 4 /* Pareto objectives: offchip, macs_parallel, onchip, cycles */

typedef struct {
	char name[TRIM__NAME_LEN];
	int pool;   /* 0 CONV, 1 POOL */
	int maxp;   /* POOL: max (1) or average (0) */
	int64_t H, W, C, E, F, M;
	int64_t R, S, U, V, Dr, Dc, pt, pb, pl, pr, G;
	int64_t P;        /* CONV: channels computed at once */
	int64_t weights;  /* CONV: weight + bias words */
	/* energies per word of the layer's buffers (set by set_hardware) */
	double lb_rd, lb_wr, pb_rd, pb_wr, w_rd, w_wr;
} fu_layer;

struct trim_fusion {
	uint32_t tag; /* TRIM__H_FUSION (util/handle.h): first, checked by every entry point */
	char net[TRIM__NAME_LEN];
	char hw[TRIM__ARCH_NAME_LEN];
	int nl;
	fu_layer ly[MAX_CHAIN];
	double prm[TRIM_FUSION_NPARAMS];
	int has_table; /* per-layer buffer energies come from an energy table */
};

/* Per-layer derived quantities (F1-F6). */
typedef struct {
	double line, window, poolbuf, weights; /* words */
	double macs_par, passes, fill, delta, own, out_px, in_px, macs;
	double bram18;  /* BRAM18 blocks of the layer's buffers */
	double sram_pj; /* buffer energy of one input */
} fu_lq;

struct trim_fusion_plan {
	uint32_t tag; /* TRIM__H_FUSION_PLAN (util/handle.h): first, checked by every entry point */
	trim_fusion f; /* a copy: the plan does not refer to its chain */
	uint64_t cuts;
	int ng;
	int gfirst[MAX_CHAIN], glast[MAX_CHAIN];
	double gm[MAX_CHAIN][TRIM_FUSION_NMETRICS];
	double m[TRIM_FUSION_NMETRICS];
	double t[MAX_CHAIN][TRIM_FUSION_T_N];
};

struct trim_fusion_result {
	uint32_t tag; /* TRIM__H_FUSION_RESULT (util/handle.h): first, checked by every entry point */
	trim_fusion f;
	int goal, dp;
	uint64_t considered, over_budget;
	size_t n;
	uint64_t *cuts;
	double *m; /* n x TRIM_FUSION_NMETRICS */
	size_t np;
	size_t *pareto;
	int64_t best, lbl;
};

static const char *const param_names[TRIM_FUSION_NPARAMS] = {
	"clock_mhz", "word_bits", "dram_pj_per_bit", "dram_words_per_cycle", "sram_read_pj",
	"sram_write_pj", "mac_pj", "dsp_per_mac", "dsp_available", "bram36_available", "static_mw",
	"op_latency", "budget_dsp", "enum_max_layers"};
static const double param_max[TRIM_FUSION_NPARAMS] = {
	1e6, 1024, 1e6, 1e9, 1e9, 1e9, 1e9, 1e3, 1e9, 1e9, 1e9, 1e4, 1e12, 22};
static const char *const metric_names[TRIM_FUSION_NMETRICS] = {
	"offchip_fmap_bytes", "offchip_weight_bytes", "offchip_bytes", "onchip_buffer_bytes",
	"onchip_fmap_bytes", "macs_parallel", "dsp", "bram36", "latency_cycles", "cycles",
	"time_ms", "macs", "dram_pj", "sram_pj", "mac_pj", "static_pj", "energy_pj", "group_count"};
/* 1: a plan's value is the max over its groups; 0: the sum. */
static const int metric_is_max[TRIM_FUSION_NMETRICS] = {0, 0, 0, 1, 1, 1, 1, 1, 0,
                                                        0, 0, 0, 0, 0, 0, 0, 0, 0};
static const char *const goal_names[TRIM_FUSION_NGOALS] = {"offchip", "cycles", "dsp",
                                                           "onchip", "energy"};
static const int goal_metric[TRIM_FUSION_NGOALS] = {
	TRIM_FUSION_OFFCHIP_BYTES, TRIM_FUSION_CYCLES, TRIM_FUSION_DSP,
	TRIM_FUSION_ONCHIP_BUFFER_BYTES, TRIM_FUSION_ENERGY_PJ};
static const int obj_metric[NOBJ] = {TRIM_FUSION_OFFCHIP_BYTES, TRIM_FUSION_MACS_PARALLEL,
                                     TRIM_FUSION_ONCHIP_BUFFER_BYTES, TRIM_FUSION_CYCLES};
static const int obj_is_sum[NOBJ] = {1, 0, 0, 1};

TRIM_API const char *trim_fusion_param_name(int p)
{
	return p >= 0 && p < TRIM_FUSION_NPARAMS ? param_names[p] : NULL;
}

TRIM_API const char *trim_fusion_metric_name(int m)
{
	return m >= 0 && m < TRIM_FUSION_NMETRICS ? metric_names[m] : NULL;
}

TRIM_API const char *trim_fusion_goal_name(int g)
{
	return g >= 0 && g < TRIM_FUSION_NGOALS ? goal_names[g] : NULL;
}

TRIM_API int trim_fusion_goal_from_name(const char *name)
{
	for (int g = 0; name && g < TRIM_FUSION_NGOALS; g++)
		if (!strcmp(name, goal_names[g]))
			return g;
	return trim__error(TRIM_EINVAL, "unknown fusion goal '%s' (offchip, cycles, dsp, onchip, "
	                   "energy)", name ? name : "(null)");
}

/* ---- chains ----------------------------------------------------------------- */

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

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
		                   param_names[p], v, param_max[p]);
	if ((p == TRIM_FUSION_CLOCK_MHZ || p == TRIM_FUSION_WORD_BITS) && !(v > 0))
		return trim__error(TRIM_ERANGE, "fusion parameter %s must be positive", param_names[p]);
	if (p == TRIM_FUSION_ENUM_MAX_LAYERS && v < 1)
		return trim__error(TRIM_ERANGE, "fusion parameter %s must be at least 1",
		                   param_names[p]);
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

/* ---- per-layer model (F1-F6) --------------------------------------------------- */

/* BRAM18 blocks of a memory `width` bits wide and `depth` entries deep, in
 * the 7-series aspect ratios (the same mapping as lib/energy.c): 512 x 36
 * (or wider, side by side) down to 16K x 1. */
static double bram18(double width, double depth)
{
	static const struct { double w, depth; } cfg[] = {
		{1, 16384}, {2, 8192}, {4, 4096}, {9, 2048}, {18, 1024}, {36, 512}};
	if (width <= 0 || depth <= 0)
		return 0;
	if (width > 36)
		return ceil(width / 36.0) * ceil(depth / 512.0);
	for (size_t k = 0; k < TRIM__ARRAY_LEN(cfg); k++)
		if (cfg[k].w >= width)
			return ceil(depth / cfg[k].depth);
	return ceil(depth / 512.0);
}

static double clog2(double x) { return x <= 1 ? 0 : ceil(log2(x) - 1e-12); }

static void layer_q(const trim_fusion *f, int i, fu_lq *q)
{
	const fu_layer *l = &f->ly[i];
	double wb = f->prm[TRIM_FUSION_WORD_BITS], op = f->prm[TRIM_FUSION_OP_LATENCY];
	double Reff = (double)(l->Dr * (l->R - 1) + 1), Seff = (double)(l->Dc * (l->S - 1) + 1);
	double Hp = (double)(l->H + l->pt + l->pb), Wp = (double)(l->W + l->pl + l->pr);
	double C = (double)l->C, Cg = (double)(l->C / l->G);
	/* energies per word: the table's (set_hardware) or the parameters */
	double rd = f->prm[TRIM_FUSION_SRAM_READ_PJ], wr = f->prm[TRIM_FUSION_SRAM_WRITE_PJ];
	double lb_rd = f->has_table ? l->lb_rd : rd, lb_wr = f->has_table ? l->lb_wr : wr;
	double w_rd = f->has_table ? l->w_rd : rd, w_wr = f->has_table ? l->w_wr : wr;
	double pb_rd = f->has_table ? l->pb_rd : rd, pb_wr = f->has_table ? l->pb_wr : wr;
	memset(q, 0, sizeof *q);
	q->out_px = (double)(l->E * l->F);
	q->in_px = (double)(l->H * l->W);
	/* F1: the first window needs (Reff-1) padded rows and Seff slots. */
	q->fill = (Reff - 1) * Wp + Seff;
	if (!l->pool) {
		double passes = (double)ceil_div(l->C / l->G, l->P);
		q->line = (Reff - 1) * Wp * C;                    /* F2 */
		q->window = Reff * Seff * C;                      /* F2 */
		q->weights = (double)l->weights;
		q->macs_par = (double)(l->R * l->S) * (double)l->P; /* F4 */
		q->passes = passes;
		q->delta = op * (1 + clog2((double)(l->R * l->S)) + clog2((double)l->P)); /* F5 */
		q->own = (double)l->M * passes;                   /* F6 */
		q->macs = q->out_px * (double)l->M * Cg * (double)(l->R * l->S);
		/* BRAM: Reff-1 row FIFOs, Wp deep, C words wide; R*S weight banks
		 * holding M filters of Cg words each (DeCoILFNet's d x d filter BRAMs). */
		q->bram18 = (Reff - 1) * bram18(C * wb, Wp) +
		            (double)(l->R * l->S) * bram18(Cg * wb, (double)l->M);
		double lbw = Hp * Wp * C, lbr = (Reff - 1) * Hp * Wp * C;
		q->sram_pj = lbw * lb_wr + lbr * lb_rd + q->macs * w_rd + q->weights * w_wr;
	} else {
		q->poolbuf = (double)ceil_div(l->R, l->U) * (double)l->F * C; /* F3 */
		q->passes = 1;
		q->delta = op * clog2((double)(l->R * l->S));
		q->own = 1;
		q->bram18 = bram18(C * wb, (double)ceil_div(l->R, l->U) * (double)l->F);
		double acc = q->in_px * C;
		q->sram_pj = acc * (pb_wr + pb_rd);
	}
}

TRIM_API int trim_fusion_layer_metrics(const trim_fusion *f, size_t i, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!f || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_layer_metrics: NULL argument");
	if (i >= (size_t)f->nl)
		return trim__error(TRIM_EINVAL, "chain layer %zu out of range (%d layers)", i, f->nl);
	fu_lq q;
	layer_q(f, (int)i, &q);
	double v[TRIM_FUSION_L_NMETRICS] = {q.line,   q.window, q.poolbuf, q.weights, q.macs_par,
	                                    q.passes > 0 && !f->ly[i].pool ? (double)f->ly[i].P : 0,
	                                    q.passes, q.fill,   q.delta,   q.own,     q.out_px,
	                                    q.in_px,  q.macs};
	for (size_t k = 0; k < n && k < TRIM_FUSION_L_NMETRICS; k++)
		out[k] = v[k];
	return 0;
}

/* ---- a group (F7-F12) ------------------------------------------------------- */

/* Metrics of the group of chain layers a..b into m[]; the timing of each of
 * its layers into t[i][] when t is not NULL. */
static void eval_group(const trim_fusion *f, int a, int b, double *m,
                       double (*t)[TRIM_FUSION_T_N])
{
	const double wb = f->prm[TRIM_FUSION_WORD_BITS], bytes = wb / 8.0;
	const double bw = f->prm[TRIM_FUSION_DRAM_WORDS_PER_CYCLE];
	const fu_layer *la = &f->ly[a], *lb = &f->ly[b];
	double in_words = (double)(la->H * la->W * la->C);
	double out_words = (double)(lb->E * lb->F * lb->M);
	/* F7: one input pixel (all C words, depth-concatenated) per cycle, or
	 * slower if the off-chip bandwidth cannot deliver C words a cycle. */
	double pi_prev = bw > 0 && (double)la->C / bw > 1 ? (double)la->C / bw : 1;
	double A_prev = 0, Z_prev = (double)(la->H * la->W) * pi_prev;
	double w = 0, line = 0, macs_par = 0, bram = 0, macs = 0, sram = 0;
	memset(m, 0, sizeof(double) * TRIM_FUSION_NMETRICS);
	for (int i = a; i <= b; i++) {
		fu_lq q;
		layer_q(f, i, &q);
		/* F8: steady-state pace: own pace, or the rate the input arrives at. */
		double pace = q.own, in_lim = q.in_px / q.out_px * pi_prev;
		if (in_lim > pace)
			pace = in_lim;
		/* F9: first output after the line buffer fills, plus the pipeline. */
		double A = A_prev + q.fill * pi_prev + q.delta;
		/* F10: last output: compute-bound from A, or right after the last input. */
		double Z = A + q.out_px * q.own;
		if (Z_prev + q.own + q.delta > Z)
			Z = Z_prev + q.own + q.delta;
		if (t) {
			t[i][TRIM_FUSION_T_FIRST_OUTPUT] = A;
			t[i][TRIM_FUSION_T_LAST_OUTPUT] = Z;
			t[i][TRIM_FUSION_T_PACE] = pace;
		}
		A_prev = A;
		Z_prev = Z;
		pi_prev = pace;
		w += q.weights;
		line += q.line + q.window + q.poolbuf;
		macs_par += q.macs_par;
		bram += q.bram18;
		macs += q.macs;
		sram += q.sram_pj;
	}
	/* F11: off-chip traffic: the group's input, output and weights. */
	m[TRIM_FUSION_OFFCHIP_FMAP_BYTES] = (in_words + out_words) * bytes;
	m[TRIM_FUSION_OFFCHIP_WEIGHT_BYTES] = w * bytes;
	m[TRIM_FUSION_OFFCHIP_BYTES] = (in_words + out_words + w) * bytes;
	m[TRIM_FUSION_ONCHIP_FMAP_BYTES] = line * bytes;
	m[TRIM_FUSION_ONCHIP_BUFFER_BYTES] = (line + w) * bytes;
	m[TRIM_FUSION_MACS_PARALLEL] = macs_par;
	m[TRIM_FUSION_DSP] = macs_par * f->prm[TRIM_FUSION_DSP_PER_MAC];
	m[TRIM_FUSION_BRAM36] = ceil(bram / 2.0);
	/* F12: cycles: weights are loaded first (when bandwidth is finite), then
	 * the stream runs until the last output; never faster than the traffic. */
	double wload = bw > 0 ? w / bw : 0;
	double cyc = Z_prev;
	if (bw > 0 && (in_words + out_words) / bw > cyc)
		cyc = (in_words + out_words) / bw;
	m[TRIM_FUSION_LATENCY_CYCLES] = A_prev + wload;
	m[TRIM_FUSION_CYCLES] = cyc + wload;
	m[TRIM_FUSION_TIME_MS] = m[TRIM_FUSION_CYCLES] / (f->prm[TRIM_FUSION_CLOCK_MHZ] * 1e3);
	m[TRIM_FUSION_MACS] = macs;
	/* F13: energy. */
	m[TRIM_FUSION_DRAM_PJ] = m[TRIM_FUSION_OFFCHIP_BYTES] * 8 * f->prm[TRIM_FUSION_DRAM_PJ_PER_BIT];
	m[TRIM_FUSION_SRAM_PJ] = sram;
	m[TRIM_FUSION_MAC_ENERGY_PJ] = macs * f->prm[TRIM_FUSION_MAC_PJ];
	m[TRIM_FUSION_STATIC_PJ] = f->prm[TRIM_FUSION_STATIC_MW] * m[TRIM_FUSION_CYCLES] /
	                           f->prm[TRIM_FUSION_CLOCK_MHZ] * 1e3;
	m[TRIM_FUSION_ENERGY_PJ] = m[TRIM_FUSION_DRAM_PJ] + m[TRIM_FUSION_SRAM_PJ] +
	                           m[TRIM_FUSION_MAC_ENERGY_PJ] + m[TRIM_FUSION_STATIC_PJ];
	m[TRIM_FUSION_GROUPS] = 1;
}

static int over_budget(const trim_fusion *f, const double *gm)
{
	double b = f->prm[TRIM_FUSION_BUDGET_DSP];
	return b > 0 && gm[TRIM_FUSION_DSP] > b;
}

/* F14: a plan's metric is the sum over groups, or the max for resources. */
static void combine(double *acc, const double *gm)
{
	for (int k = 0; k < TRIM_FUSION_NMETRICS; k++) {
		if (metric_is_max[k])
			acc[k] = gm[k] > acc[k] ? gm[k] : acc[k];
		else
			acc[k] += gm[k];
	}
}

/* ---- plans ------------------------------------------------------------------ */

TRIM_API int trim_fusion_evaluate_cuts(trim_fusion_plan **out, const trim_fusion *f,
                                       uint64_t cuts)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!out || !f)
		return trim__error(TRIM_EINVAL, "trim_fusion_evaluate_cuts: NULL argument");
	*out = NULL;
	if (f->nl < 64 && (cuts >> (f->nl - 1)) != 0)
		return trim__error(TRIM_EINVAL, "cut mask 0x%llx has bits at or above %d, the number "
		                   "of layer boundaries of the chain %s..%s", (unsigned long long)cuts,
		                   f->nl - 1, f->ly[0].name, f->ly[f->nl - 1].name);
	trim_fusion_plan *p = trim__calloc(1, sizeof *p);
	if (!p)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(p, FUSION_PLAN);
	p->f = *f;
	p->cuts = cuts;
	int a = 0;
	for (int i = 0; i < f->nl; i++) {
		if (i == f->nl - 1 || (cuts >> i & 1)) {
			int g = p->ng++;
			p->gfirst[g] = a;
			p->glast[g] = i;
			eval_group(f, a, i, p->gm[g], p->t);
			if (over_budget(f, p->gm[g])) {
				int rc = trim__error(TRIM_ENOFIT, "group %d (%s..%s) needs %.17g DSP slices, "
				                     "over the budget of %.17g", g + 1, f->ly[a].name,
				                     f->ly[i].name, p->gm[g][TRIM_FUSION_DSP],
				                     f->prm[TRIM_FUSION_BUDGET_DSP]);
				free(p);
				return rc;
			}
			combine(p->m, p->gm[g]);
			a = i + 1;
		}
	}
	*out = p;
	return 0;
}

/* Copy the next token of `s` up to one of `stop` (trimmed) into tok. */
static const char *next_tok(const char *s, char *tok, size_t cap)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = 0;
	while (*s && *s != ',' && *s != '|') {
		if (n + 1 < cap)
			tok[n++] = *s;
		s++;
	}
	while (n > 0 && (tok[n - 1] == ' ' || tok[n - 1] == '\t'))
		n--;
	tok[n] = '\0';
	return s;
}

TRIM_API int trim_fusion_evaluate(trim_fusion_plan **out, const trim_fusion *f,
                                  const char *groups)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!out || !f || !groups)
		return trim__error(TRIM_EINVAL, "trim_fusion_evaluate: NULL argument");
	*out = NULL;
	uint64_t cuts = 0;
	int next = 0, group = 1, in_group = 0;
	const char *s = groups;
	char tok[TRIM__NAME_LEN * 2];
	for (;;) {
		s = next_tok(s, tok, sizeof tok);
		if (!tok[0])
			return trim__error(TRIM_ESCHEMA, "plan '%s': group %d has an empty layer name",
			                   groups, group);
		int i = -1;
		for (int k = 0; k < f->nl; k++)
			if (!strcmp(f->ly[k].name, tok))
				i = k;
		if (i < 0)
			return trim__error(TRIM_ESCHEMA, "plan '%s': layer '%s' is not in the chain "
			                   "%s..%s", groups, tok, f->ly[0].name, f->ly[f->nl - 1].name);
		if (i < next)
			return trim__error(TRIM_ESCHEMA, "plan '%s': layer '%s' appears twice or out of "
			                   "chain order", groups, tok);
		if (i > next) {
			if (in_group)
				return trim__error(TRIM_ESCHEMA, "plan '%s': group %d: layer '%s' does not "
				                   "follow '%s': the chain has '%s' between them (a group "
				                   "holds consecutive layers)", groups, group, tok,
				                   f->ly[next - 1].name, f->ly[next].name);
			return trim__error(TRIM_ESCHEMA, "plan '%s': layer '%s' is missing (group %d "
			                   "starts at '%s')", groups, f->ly[next].name, group, tok);
		}
		next = i + 1;
		in_group = 1;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '|') {
			if (i < 64)
				cuts |= (uint64_t)1 << i;
			s++;
			group++;
			in_group = 0;
			continue;
		}
		break; /* end of text */
	}
	if (next != f->nl)
		return trim__error(TRIM_ESCHEMA, "plan '%s': layer '%s' and the %d after it are "
		                   "missing", groups, f->ly[next].name, f->nl - next - 1);
	return trim_fusion_evaluate_cuts(out, f, cuts);
}

TRIM_API void trim_fusion_plan_free(trim_fusion_plan *p)
{
	TRIM__HANDLE_CHECK_VOID(p, FUSION_PLAN);
	if (!p)
		return;
	TRIM__HANDLE_POISON(p, FUSION_PLAN);
	free(p);
}

TRIM_API uint64_t trim_fusion_plan_cuts(const trim_fusion_plan *p)
{
	return TRIM__HANDLE_OK(p, FUSION_PLAN) ? p->cuts : 0;
}

TRIM_API size_t trim_fusion_plan_group_count(const trim_fusion_plan *p)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, 0);
	return p ? (size_t)p->ng : 0;
}

TRIM_API int trim_fusion_plan_group(const trim_fusion_plan *p, size_t g, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out || n < 2)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_group: NULL argument or n < 2");
	if (g >= (size_t)p->ng)
		return trim__error(TRIM_EINVAL, "group %zu out of range (%d groups)", g, p->ng);
	out[0] = p->gfirst[g];
	out[1] = p->glast[g];
	return 0;
}

static int copy_metrics(const double *m, double *out, size_t n)
{
	for (size_t k = 0; k < n && k < TRIM_FUSION_NMETRICS; k++)
		out[k] = m[k];
	return 0;
}

TRIM_API int trim_fusion_plan_metrics(const trim_fusion_plan *p, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_metrics: NULL argument");
	return copy_metrics(p->m, out, n);
}

TRIM_API int trim_fusion_plan_group_metrics(const trim_fusion_plan *p, size_t g, double *out,
                                            size_t n)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_group_metrics: NULL argument");
	if (g >= (size_t)p->ng)
		return trim__error(TRIM_EINVAL, "group %zu out of range (%d groups)", g, p->ng);
	return copy_metrics(p->gm[g], out, n);
}

TRIM_API int trim_fusion_plan_layer_times(const trim_fusion_plan *p, size_t i, double *out,
                                          size_t n)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_layer_times: NULL argument");
	if (i >= (size_t)p->f.nl)
		return trim__error(TRIM_EINVAL, "chain layer %zu out of range (%d layers)", i, p->f.nl);
	for (size_t k = 0; k < n && k < TRIM_FUSION_T_N; k++)
		out[k] = p->t[i][k];
	return 0;
}

/* ---- reports ---------------------------------------------------------------- */

static void json_groups(trim__sb *sb, const trim_fusion *f, uint64_t cuts)
{
	trim__sb_putc(sb, '[');
	int open = 0;
	for (int i = 0; i < f->nl; i++) {
		if (!open) {
			trim__sb_puts(sb, i ? ", [" : "[");
			open = 1;
		} else {
			trim__sb_puts(sb, ", ");
		}
		trim__sb_json_str(sb, f->ly[i].name);
		if (i == f->nl - 1 || (cuts >> i & 1)) {
			trim__sb_putc(sb, ']');
			open = 0;
		}
	}
	trim__sb_putc(sb, ']');
}

static void text_groups(trim__sb *sb, const trim_fusion *f, uint64_t cuts)
{
	for (int i = 0; i < f->nl; i++) {
		trim__sb_puts(sb, f->ly[i].name);
		if (i < f->nl - 1)
			trim__sb_puts(sb, (cuts >> i & 1) ? " | " : ",");
	}
}

static void json_metrics(trim__sb *sb, const double *m)
{
	for (int k = 0; k < TRIM_FUSION_NMETRICS; k++) {
		trim__sb_printf(sb, ", \"%s\": ", metric_names[k]);
		trim__sb_json_double(sb, m[k]);
	}
}

static void json_hardware(trim__sb *sb, const trim_fusion *f)
{
	trim__sb_puts(sb, "\"network\": ");
	trim__sb_json_str(sb, f->net);
	trim__sb_puts(sb, ", \"hardware\": ");
	trim__sb_json_str(sb, f->hw);
	trim__sb_puts(sb, ", \"chain\": [");
	for (int i = 0; i < f->nl; i++) {
		trim__sb_puts(sb, i ? ", " : "");
		trim__sb_json_str(sb, f->ly[i].name);
	}
	trim__sb_puts(sb, "], \"parallelism\": {");
	int first = 1;
	for (int i = 0; i < f->nl; i++) {
		if (f->ly[i].pool)
			continue;
		trim__sb_puts(sb, first ? "" : ", ");
		trim__sb_json_str(sb, f->ly[i].name);
		trim__sb_printf(sb, ": %lld", (long long)f->ly[i].P);
		first = 0;
	}
	trim__sb_puts(sb, "}, \"params\": {");
	for (int p = 0; p < TRIM_FUSION_NPARAMS; p++) {
		trim__sb_printf(sb, "%s\"%s\": ", p ? ", " : "", param_names[p]);
		trim__sb_json_double(sb, f->prm[p]);
	}
	trim__sb_puts(sb, "}");
}

static void table_header(trim__sb *sb)
{
	trim__sb_printf(sb, "%5s %12s %10s %10s %8s %7s %12s %10s %12s  %s\n", "plan", "offchip_MB",
	                "fmap_MB", "weight_MB", "onchip_KB", "DSP", "BRAM36", "cycles", "energy_uJ",
	                "groups");
}

static void table_row(trim__sb *sb, const trim_fusion *f, const char *tag, uint64_t cuts,
                      const double *m)
{
	trim__sb_printf(sb, "%5s %12.3f %10.3f %10.3f %8.1f %7.0f %12.0f %10.0f %12.3f  ", tag,
	                m[TRIM_FUSION_OFFCHIP_BYTES] / 1048576.0,
	                m[TRIM_FUSION_OFFCHIP_FMAP_BYTES] / 1048576.0,
	                m[TRIM_FUSION_OFFCHIP_WEIGHT_BYTES] / 1048576.0,
	                m[TRIM_FUSION_ONCHIP_BUFFER_BYTES] / 1024.0, m[TRIM_FUSION_DSP],
	                m[TRIM_FUSION_BRAM36], m[TRIM_FUSION_CYCLES], m[TRIM_FUSION_ENERGY_PJ] * 1e-6);
	text_groups(sb, f, cuts);
	trim__sb_putc(sb, '\n');
}

TRIM_API int trim_fusion_plan_report(const trim_fusion_plan *p, int format, char **out)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_report: NULL argument");
	*out = NULL;
	trim__sb sb;
	trim__sb_init(&sb);
	const trim_fusion *f = &p->f;
	if (format == TRIM_FORMAT_JSON) {
		trim__sb_puts(&sb, "{");
		json_hardware(&sb, f);
		trim__sb_printf(&sb, ", \"cuts\": %llu, \"groups\": ", (unsigned long long)p->cuts);
		json_groups(&sb, f, p->cuts);
		json_metrics(&sb, p->m);
		trim__sb_puts(&sb, ", \"group_metrics\": [");
		for (int g = 0; g < p->ng; g++) {
			trim__sb_printf(&sb, "%s{\"first\": ", g ? ", " : "");
			trim__sb_json_str(&sb, f->ly[p->gfirst[g]].name);
			trim__sb_puts(&sb, ", \"last\": ");
			trim__sb_json_str(&sb, f->ly[p->glast[g]].name);
			json_metrics(&sb, p->gm[g]);
			trim__sb_puts(&sb, "}");
		}
		trim__sb_puts(&sb, "], \"layers\": [");
		for (int i = 0; i < f->nl; i++) {
			fu_lq q;
			layer_q(f, i, &q);
			trim__sb_printf(&sb, "%s{\"name\": ", i ? ", " : "");
			trim__sb_json_str(&sb, f->ly[i].name);
			trim__sb_printf(&sb, ", \"line_buffer_words\": %.17g, \"window_words\": %.17g, "
			                "\"pool_buffer_words\": %.17g, \"weight_words\": %.17g, "
			                "\"macs_parallel\": %.17g, \"passes\": %.17g, \"fill_slots\": "
			                "%.17g, \"pipeline_cycles\": %.17g, \"first_output\": %.17g, "
			                "\"last_output\": %.17g, \"pace\": %.17g}",
			                q.line, q.window, q.poolbuf, q.weights, q.macs_par, q.passes,
			                q.fill, q.delta, p->t[i][0], p->t[i][1], p->t[i][2]);
		}
		trim__sb_puts(&sb, "]}\n");
	} else if (format == TRIM_FORMAT_TABLE) {
		trim__sb_printf(&sb, "fusion plan of %s on %s: %d groups\n", f->net,
		                f->hw[0] ? f->hw : "(no hardware)", p->ng);
		table_header(&sb);
		table_row(&sb, f, "plan", p->cuts, p->m);
		trim__sb_printf(&sb, "\n%-12s %10s %10s %10s %8s %8s %10s %12s %12s %10s\n", "layer",
		                "line_w", "window_w", "pool_w", "weight_w", "MACs//", "passes",
		                "first_out", "last_out", "pace");
		for (int i = 0; i < f->nl; i++) {
			fu_lq q;
			layer_q(f, i, &q);
			trim__sb_printf(&sb, "%-12s %10.0f %10.0f %10.0f %8.0f %8.0f %10.0f %12.0f %12.0f "
			                "%10.0f\n", f->ly[i].name, q.line, q.window, q.poolbuf, q.weights,
			                q.macs_par, q.passes, p->t[i][0], p->t[i][1], p->t[i][2]);
		}
	} else {
		return trim__error(TRIM_EINVAL, "fusion plan report: format %d is not table or json",
		                   format);
	}
	return trim__sb_take(&sb, out);
}

/* ---- exploration ------------------------------------------------------------ */

typedef struct {
	uint64_t cuts;
	double m[TRIM_FUSION_NMETRICS];
} cand;

static int lex_cmp(const cand *x, const cand *y, const int *order, int n)
{
	for (int k = 0; k < n; k++) {
		double a = x->m[order[k]], b = y->m[order[k]];
		if (a < b)
			return -1;
		if (a > b)
			return 1;
	}
	return x->cuts < y->cuts ? -1 : x->cuts > y->cuts;
}

static int cmp_obj(const void *a, const void *b)
{
	return lex_cmp(a, b, obj_metric, NOBJ);
}

/* x dominates y: no worse in every objective, better in one. */
static int dominates(const double *x, const double *y)
{
	int better = 0;
	for (int k = 0; k < NOBJ; k++) {
		if (x[obj_metric[k]] > y[obj_metric[k]])
			return 0;
		if (x[obj_metric[k]] < y[obj_metric[k]])
			better = 1;
	}
	return better;
}

static int same_obj(const double *x, const double *y)
{
	for (int k = 0; k < NOBJ; k++)
		if (x[obj_metric[k]] != y[obj_metric[k]])
			return 0;
	return 1;
}

typedef struct {
	cand c; /* first member: a pair sorts with the cand comparators */
	size_t i;
} pair;

static int cmp_pareto(const void *a, const void *b)
{
	static const int order[NOBJ] = {TRIM_FUSION_MACS_PARALLEL, TRIM_FUSION_OFFCHIP_BYTES,
	                                TRIM_FUSION_CYCLES, TRIM_FUSION_ONCHIP_BUFFER_BYTES};
	return lex_cmp(a, b, order, NOBJ);
}

/* Indices (into c[]) of the Pareto set of c[0..n-1], sorted by (MACs,
 * off-chip bytes, cycles, on-chip bytes, cuts); of plans with the same
 * objectives only the lowest cut mask is kept. In lexicographic order of the
 * objectives a plan can only be dominated by one before it, and only the
 * Pareto plans found so far need checking (domination is transitive). */
static int pareto_of(const cand *c, size_t n, size_t **out, size_t *np)
{
	pair *pp = trim__calloc(n ? n : 1, sizeof *pp);
	pair *par = trim__calloc(n ? n : 1, sizeof *par);
	size_t *idx = NULL;
	int rc = 0;
	size_t k = 0;
	if (!pp || !par) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		pp[i].c = c[i];
		pp[i].i = i;
	}
	qsort(pp, n, sizeof *pp, cmp_obj);
	for (size_t i = 0; i < n; i++) {
		int keep = 1;
		for (size_t j = 0; j < k && keep; j++)
			if (dominates(par[j].c.m, pp[i].c.m) || same_obj(par[j].c.m, pp[i].c.m))
				keep = 0;
		if (keep)
			par[k++] = pp[i];
	}
	qsort(par, k, sizeof *par, cmp_pareto);
	idx = trim__calloc(k ? k : 1, sizeof *idx);
	if (!idx) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	for (size_t j = 0; j < k; j++)
		idx[j] = par[j].i;
	*out = idx;
	*np = k;
out:
	free(pp);
	free(par);
	return rc;
}

/* Group metrics of every group a..b, gm[a * L + b]. */
static int all_groups(const trim_fusion *f, double **out)
{
	int L = f->nl;
	double *gm = trim__calloc((size_t)L * (size_t)L * TRIM_FUSION_NMETRICS, sizeof *gm);
	if (!gm)
		return TRIM_ENOMEM;
	for (int a = 0; a < L; a++)
		for (int b = a; b < L; b++)
			eval_group(f, a, b, gm + ((size_t)a * (size_t)L + (size_t)b) * TRIM_FUSION_NMETRICS,
			           NULL);
	*out = gm;
	return 0;
}

#define GM(a, b) (gm + ((size_t)(a) * (size_t)L + (size_t)(b)) * TRIM_FUSION_NMETRICS)

static int enumerate(const trim_fusion *f, const double *gm, cand **out, size_t *n,
                     uint64_t *considered, uint64_t *over)
{
	int L = f->nl;
	uint64_t total = (uint64_t)1 << (L - 1);
	cand *c = trim__calloc((size_t)total, sizeof *c);
	if (!c)
		return TRIM_ENOMEM;
	size_t k = 0;
	for (uint64_t cuts = 0; cuts < total; cuts++) {
		cand *p = &c[k];
		memset(p, 0, sizeof *p);
		p->cuts = cuts;
		int a = 0, bad = 0;
		for (int i = 0; i < L && !bad; i++) {
			if (i == L - 1 || (cuts >> i & 1)) {
				if (over_budget(f, GM(a, i)))
					bad = 1;
				else
					combine(p->m, GM(a, i));
				a = i + 1;
			}
		}
		if (bad)
			(*over)++;
		else
			k++;
	}
	*considered = total;
	*out = c;
	*n = k;
	return 0;
}

/* q may be pruned from a prefix front by p: whatever follows, p's plan is
 * no worse than q's and wins the tie (strictly better in a summed objective,
 * or a lower cut mask). */
static int prunes(const cand *p, const cand *q)
{
	int strict_sum = 0;
	for (int k = 0; k < NOBJ; k++) {
		double a = p->m[obj_metric[k]], b = q->m[obj_metric[k]];
		if (a > b)
			return 0;
		if (a < b && obj_is_sum[k])
			strict_sum = 1;
	}
	return strict_sum || p->cuts < q->cuts;
}

static int dp(const trim_fusion *f, const double *gm, cand **out, size_t *n,
              uint64_t *considered)
{
	int L = f->nl, rc = 0;
	cand **front = trim__calloc((size_t)L + 1, sizeof *front);
	size_t *fn = trim__calloc((size_t)L + 1, sizeof *fn);
	cand *tmp = NULL;
	size_t tcap = 0;
	if (!front || !fn) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	front[0] = trim__calloc(1, sizeof(cand));
	if (!front[0]) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	fn[0] = 1;
	for (int j = 1; j <= L; j++) {
		size_t tn = 0;
		for (int i = 0; i < j; i++) {
			const double *g = GM(i, j - 1);
			if (over_budget(f, g))
				continue;
			for (size_t s = 0; s < fn[i]; s++) {
				if (tn == tcap) {
					rc = trim__grow((void **)&tmp, &tcap, tn + 1, sizeof *tmp);
					if (rc)
						goto out;
				}
				cand *c = &tmp[tn++];
				*c = front[i][s];
				if (i > 0)
					c->cuts |= (uint64_t)1 << (i - 1);
				combine(c->m, g);
				(*considered)++;
			}
		}
		/* prune */
		qsort(tmp, tn, sizeof *tmp, cmp_obj);
		cand *keep = trim__calloc(tn ? tn : 1, sizeof *keep);
		if (!keep) {
			rc = TRIM_ENOMEM;
			goto out;
		}
		size_t kn = 0;
		for (size_t s = 0; s < tn; s++) {
			int drop = 0;
			for (size_t t = 0; t < kn && !drop; t++)
				drop = prunes(&keep[t], &tmp[s]);
			if (!drop)
				keep[kn++] = tmp[s];
		}
		front[j] = keep;
		fn[j] = kn;
	}
	*out = front[L];
	*n = fn[L];
	front[L] = NULL;
out:
	if (front)
		for (int j = 0; j <= L; j++)
			free(front[j]);
	free(front);
	free(fn);
	free(tmp);
	return rc;
}

TRIM_API int trim_fusion_explore(trim_fusion_result **out, const trim_fusion *f, int goal)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!out || !f)
		return trim__error(TRIM_EINVAL, "trim_fusion_explore: NULL argument");
	*out = NULL;
	if (goal < 0 || goal >= TRIM_FUSION_NGOALS)
		return trim__error(TRIM_EINVAL, "unknown fusion goal %d", goal);
	int L = f->nl, rc;
	double *gm = NULL;
	cand *c = NULL;
	size_t n = 0;
	trim_fusion_result *r = trim__calloc(1, sizeof *r);
	if (!r)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(r, FUSION_RESULT);
	r->f = *f;
	r->goal = goal;
	rc = all_groups(f, &gm);
	if (rc)
		goto out;
	r->dp = L > (int)f->prm[TRIM_FUSION_ENUM_MAX_LAYERS];
	if (r->dp)
		rc = dp(f, gm, &c, &n, &r->considered);
	else
		rc = enumerate(f, gm, &c, &n, &r->considered, &r->over_budget);
	if (rc)
		goto out;
	if (n == 0) {
		double worst = 0;
		for (int i = 0; i < L; i++)
			if (GM(i, i)[TRIM_FUSION_DSP] > worst)
				worst = GM(i, i)[TRIM_FUSION_DSP];
		rc = trim__error(TRIM_ENOFIT, "no fusion plan of chain %s..%s fits the budget of "
		                 "%.17g DSP slices (layer by layer needs %.17g)", f->ly[0].name,
		                 f->ly[L - 1].name, f->prm[TRIM_FUSION_BUDGET_DSP], worst);
		goto out;
	}
	rc = pareto_of(c, n, &r->pareto, &r->np);
	if (rc)
		goto out;
	if (r->dp) { /* keep only the Pareto plans, in cut order */
		cand *pc = trim__calloc(r->np, sizeof *pc);
		if (!pc) {
			rc = TRIM_ENOMEM;
			goto out;
		}
		size_t *sel = trim__calloc(r->np, sizeof *sel);
		if (!sel) {
			free(pc);
			rc = TRIM_ENOMEM;
			goto out;
		}
		memcpy(sel, r->pareto, r->np * sizeof *sel);
		/* sort selected indices by cut mask */
		for (size_t i = 1; i < r->np; i++)
			for (size_t j = i; j > 0 && c[sel[j - 1]].cuts > c[sel[j]].cuts; j--) {
				size_t t = sel[j];
				sel[j] = sel[j - 1];
				sel[j - 1] = t;
			}
		for (size_t i = 0; i < r->np; i++)
			pc[i] = c[sel[i]];
		for (size_t k = 0; k < r->np; k++) /* Pareto order, indices into pc */
			for (size_t i = 0; i < r->np; i++)
				if (sel[i] == r->pareto[k]) {
					r->pareto[k] = i;
					break;
				}
		free(sel);
		free(c);
		c = pc;
		n = r->np;
	}
	r->n = n;
	r->cuts = trim__calloc(n, sizeof *r->cuts);
	r->m = trim__calloc(n * TRIM_FUSION_NMETRICS, sizeof *r->m);
	if (!r->cuts || !r->m) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	static const int tie[5] = {0, TRIM_FUSION_OFFCHIP_BYTES, TRIM_FUSION_CYCLES,
	                           TRIM_FUSION_MACS_PARALLEL, TRIM_FUSION_ONCHIP_BUFFER_BYTES};
	int order[5];
	memcpy(order, tie, sizeof order);
	order[0] = goal_metric[goal];
	r->best = 0;
	r->lbl = -1;
	uint64_t all_cut = L >= 65 ? ~(uint64_t)0 : (((uint64_t)1 << (L - 1)) - 1);
	for (size_t i = 0; i < n; i++) {
		r->cuts[i] = c[i].cuts;
		memcpy(r->m + i * TRIM_FUSION_NMETRICS, c[i].m, sizeof c[i].m);
		if (i > 0 && lex_cmp(&c[i], &c[r->best], order, 5) < 0)
			r->best = (int64_t)i;
		if (c[i].cuts == all_cut)
			r->lbl = (int64_t)i;
	}
	*out = r;
	r = NULL;
out:
	free(gm);
	free(c);
	trim_fusion_result_free(r);
	return rc;
}

TRIM_API void trim_fusion_result_free(trim_fusion_result *r)
{
	TRIM__HANDLE_CHECK_VOID(r, FUSION_RESULT);
	if (!r)
		return;
	free(r->cuts);
	free(r->m);
	free(r->pareto);
	TRIM__HANDLE_POISON(r, FUSION_RESULT);
	free(r);
}

TRIM_API uint64_t trim_fusion_result_considered(const trim_fusion_result *r)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, 0);
	return r ? r->considered : 0;
}

TRIM_API int trim_fusion_result_used_dp(const trim_fusion_result *r)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	return r ? r->dp : 0;
}

TRIM_API size_t trim_fusion_result_plan_count(const trim_fusion_result *r)
{
	return TRIM__HANDLE_OK(r, FUSION_RESULT) ? r->n : 0;
}

TRIM_API uint64_t trim_fusion_result_plan_cuts(const trim_fusion_result *r, size_t i)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, 0);
	return r && i < r->n ? r->cuts[i] : 0;
}

TRIM_API int trim_fusion_result_plan_metrics(const trim_fusion_result *r, size_t i, double *out,
                                             size_t n)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_plan_metrics: NULL argument");
	if (i >= r->n)
		return trim__error(TRIM_EINVAL, "plan %zu out of range (%zu plans)", i, r->n);
	return copy_metrics(r->m + i * TRIM_FUSION_NMETRICS, out, n);
}

TRIM_API size_t trim_fusion_result_pareto_count(const trim_fusion_result *r)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, 0);
	return r ? r->np : 0;
}

TRIM_API int trim_fusion_result_pareto(const trim_fusion_result *r, size_t k, size_t *index)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r || !index)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_pareto: NULL argument");
	if (k >= r->np)
		return trim__error(TRIM_EINVAL, "no Pareto plan %zu (the set has %zu)", k, r->np);
	*index = r->pareto[k];
	return 0;
}

/* A kept plan index, or an error saying why there is none. */
static int plan_index(int64_t v, const char *what, size_t *index)
{
	if (!index)
		return trim__error(TRIM_EINVAL, "trim_fusion_result: NULL index");
	if (v < 0)
		return trim__error(TRIM_ENOTFOUND, "no %s plan was kept", what);
	*index = (size_t)v;
	return 0;
}

TRIM_API int trim_fusion_result_best(const trim_fusion_result *r, size_t *index)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_best: NULL result");
	return plan_index(r->best, "best", index);
}

TRIM_API int trim_fusion_result_layer_by_layer(const trim_fusion_result *r, size_t *index)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_layer_by_layer: NULL result");
	return plan_index(r->lbl, "layer-by-layer", index);
}

static void json_plan(trim__sb *sb, const trim_fusion_result *r, size_t i)
{
	trim__sb_printf(sb, "{\"index\": %zu, \"cuts\": %llu, \"groups\": ", i,
	                (unsigned long long)r->cuts[i]);
	json_groups(sb, &r->f, r->cuts[i]);
	json_metrics(sb, r->m + i * TRIM_FUSION_NMETRICS);
	trim__sb_putc(sb, '}');
}

TRIM_API int trim_fusion_result_report(const trim_fusion_result *r, int format, char **out)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_report: NULL argument");
	*out = NULL;
	trim__sb sb;
	trim__sb_init(&sb);
	const trim_fusion *f = &r->f;
	if (format == TRIM_FORMAT_JSON) {
		trim__sb_puts(&sb, "{");
		json_hardware(&sb, f);
		trim__sb_printf(&sb, ",\n \"goal\": \"%s\", \"method\": \"%s\", \"considered\": %llu, "
		                "\"over_budget\": %llu,\n \"plans\": [", goal_names[r->goal],
		                r->dp ? "dynamic-programming" : "enumeration",
		                (unsigned long long)r->considered, (unsigned long long)r->over_budget);
		for (size_t i = 0; i < r->n; i++) {
			trim__sb_puts(&sb, i ? ",\n  " : "\n  ");
			json_plan(&sb, r, i);
		}
		trim__sb_puts(&sb, "],\n \"pareto\": [");
		for (size_t k = 0; k < r->np; k++)
			trim__sb_printf(&sb, "%s%zu", k ? ", " : "", r->pareto[k]);
		trim__sb_puts(&sb, "],\n \"best\": ");
		json_plan(&sb, r, (size_t)r->best);
		trim__sb_puts(&sb, ",\n \"layer_by_layer\": ");
		if (r->lbl >= 0)
			json_plan(&sb, r, (size_t)r->lbl);
		else
			trim__sb_puts(&sb, "null");
		trim__sb_puts(&sb, "}\n");
	} else if (format == TRIM_FORMAT_TABLE) {
		trim__sb_printf(&sb, "fusion of %s, chain %s..%s (%d layers) on %s\n", f->net,
		                f->ly[0].name, f->ly[f->nl - 1].name, f->nl,
		                f->hw[0] ? f->hw : "(no hardware)");
		trim__sb_printf(&sb, "%s: %llu partitions considered, %llu over the DSP budget "
		                "(%.17g), %zu plans kept; best for %s: plan %lld\n",
		                r->dp ? "dynamic programming" : "enumeration",
		                (unsigned long long)r->considered, (unsigned long long)r->over_budget,
		                f->prm[TRIM_FUSION_BUDGET_DSP], r->n, goal_names[r->goal],
		                (long long)r->best);
		trim__sb_puts(&sb, "\nPareto set (off-chip bytes, MACs, on-chip bytes, cycles), by "
		                   "DSP:\n");
		table_header(&sb);
		for (size_t k = 0; k < r->np; k++) {
			char tag[32];
			size_t i = r->pareto[k];
			snprintf(tag, sizeof tag, "%s%zu", (int64_t)i == r->best ? "*" : "", i);
			table_row(&sb, f, tag, r->cuts[i], r->m + i * TRIM_FUSION_NMETRICS);
		}
		if (r->lbl >= 0) {
			trim__sb_puts(&sb, "\nlayer by layer (every layer its own group):\n");
			table_row(&sb, f, "lbl", r->cuts[r->lbl], r->m + (size_t)r->lbl * TRIM_FUSION_NMETRICS);
		}
	} else {
		return trim__error(TRIM_EINVAL, "fusion report: format %d is not table or json", format);
	}
	return trim__sb_take(&sb, out);
}

/* ---- hardware ---------------------------------------------------------------- */

static int lookup(const trim_energy *t, const char *comp, const char *act, double cap,
                  double bits, double *v)
{
	double r[2];
	int rc = trim_energy_lookup(t, comp, act, cap, (int64_t)bits, TRIM_ENERGY_CLAMP, r, 2);
	if (rc == 0)
		*v = r[0];
	return rc;
}

TRIM_API int trim_fusion_set_hardware(trim_fusion *f, const trim_arch *a,
                                      const trim_energy *table)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(table, ENERGY, TRIM_EINVAL);
	if (!f || !a)
		return trim__error(TRIM_EINVAL, "trim_fusion_set_hardware: NULL argument");
	trim_energy *own = NULL;
	trim__level_cost *cost = NULL;
	int rc = 0;
	trim_fusion g = *f; /* work on a copy: f is unchanged on failure */
	if (!table) {
		rc = trim_energy_load_for_arch(&own, a);
		if (rc)
			goto out;
		table = own;
	}
	g.prm[TRIM_FUSION_CLOCK_MHZ] = a->clock_mhz;
	g.prm[TRIM_FUSION_WORD_BITS] = a->word_bits;
	double wb = a->word_bits;
	int dram = -1, comp = a->nlevels - 1;
	for (int i = 0; i < a->nlevels && dram < 0; i++)
		if (a->lv[i].type == TRIM__LVL_STORAGE && a->lv[i].mem_class == TRIM__MEM_DRAM)
			dram = i;
	if (dram >= 0) {
		const trim__level *d = &a->lv[dram];
		char name[48];
		snprintf(name, sizeof name, "dram.%s", d->technology);
		rc = lookup(table, name, "read", 0, 1, &g.prm[TRIM_FUSION_DRAM_PJ_PER_BIT]);
		if (rc)
			goto out;
		g.prm[TRIM_FUSION_DRAM_WORDS_PER_CYCLE] = d->read_bw * d->word_bits / wb;
	}
	if (a->lv[comp].type == TRIM__LVL_COMPUTE) {
		char name[48];
		snprintf(name, sizeof name, "mac.%s", a->lv[comp].datatype);
		rc = lookup(table, name, "mac", 0, wb, &g.prm[TRIM_FUSION_MAC_PJ]);
		if (rc)
			goto out;
	}
	if (trim_energy_is_fpga(table) == 1) {
		double avail[4];
		const char *dev = NULL;
		rc = trim__energy_device(table, avail, &dev);
		if (rc)
			goto out;
		g.prm[TRIM_FUSION_DSP_AVAILABLE] = avail[TRIM_RES_DSP];
		g.prm[TRIM_FUSION_BRAM36_AVAILABLE] = avail[TRIM_RES_BRAM36];
		g.prm[TRIM_FUSION_STATIC_MW] = trim__energy_static_mw(table);
		cost = trim__calloc((size_t)a->nlevels, sizeof *cost);
		if (!cost) {
			rc = TRIM_ENOMEM;
			goto out;
		}
		rc = trim__arch_costs(a, table, cost);
		if (rc)
			goto out;
		double macs = (double)a->lv[comp].instances * a->lv[comp].macs_per_cycle;
		if (macs > 0)
			g.prm[TRIM_FUSION_DSP_PER_MAC] = cost[comp].res[TRIM_RES_DSP] / macs;
		if (!(f->prm[TRIM_FUSION_BUDGET_DSP] > 0))
			g.prm[TRIM_FUSION_BUDGET_DSP] = avail[TRIM_RES_DSP];
	}
	/* per-layer buffer energies at each buffer's capacity */
	for (int i = 0; i < g.nl; i++) {
		fu_layer *l = &g.ly[i];
		fu_lq q;
		layer_q(&g, i, &q);
		double bytes = wb / 8.0;
		if (!l->pool) {
			double lbcap = (q.line > 0 ? q.line : q.window) * bytes;
			if ((rc = lookup(table, "sram", "read", lbcap, wb, &l->lb_rd)) ||
			    (rc = lookup(table, "sram", "write", lbcap, wb, &l->lb_wr)) ||
			    (rc = lookup(table, "sram", "read", q.weights * bytes, wb, &l->w_rd)) ||
			    (rc = lookup(table, "sram", "write", q.weights * bytes, wb, &l->w_wr)))
				goto out;
		} else {
			double cap = q.poolbuf * bytes;
			if ((rc = lookup(table, "sram", "read", cap, wb, &l->pb_rd)) ||
			    (rc = lookup(table, "sram", "write", cap, wb, &l->pb_wr)))
				goto out;
		}
	}
	g.has_table = 1;
	snprintf(g.hw, sizeof g.hw, "%s", a->name);
	*f = g;
out:
	if (rc)
		trim__error_prefix("fusion hardware");
	free(cost);
	trim_energy_free(own);
	return rc;
}
