/*
 * The fusion model: one layer's buffers, parallelism and pipeline (F1-F6),
 * a group of fused layers (F7-F13), a plan's metrics from its groups' (F14).
 */
#include <math.h>
#include <string.h>

#include "fusion_int.h"

/* 1: a plan's value is the max over its groups; 0: the sum. */
static const int metric_is_max[TRIM_FUSION_NMETRICS] = {0, 0, 0, 1, 1, 1, 1, 1, 0,
                                                        0, 0, 0, 0, 0, 0, 0, 0, 0};

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* ---- per-layer model (F1-F6) --------------------------------------------------- */

/* BRAM18 blocks of a memory `width` bits wide and `depth` entries deep, in
 * the 7-series aspect ratios (the same mapping as lib/energy/costs.c): 512 x 36
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

void trim__fusion_layer_q(const trim_fusion *f, int i, fu_lq *q)
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
	trim__fusion_layer_q(f, (int)i, &q);
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
void trim__fusion_eval_group(const trim_fusion *f, int a, int b, double *m,
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
		trim__fusion_layer_q(f, i, &q);
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

int trim__fusion_over_budget(const trim_fusion *f, const double *gm)
{
	double b = f->prm[TRIM_FUSION_BUDGET_DSP];
	return b > 0 && gm[TRIM_FUSION_DSP] > b;
}

/* F14: a plan's metric is the sum over groups, or the max for resources. */
void trim__fusion_combine(double *acc, const double *gm)
{
	for (int k = 0; k < TRIM_FUSION_NMETRICS; k++) {
		if (metric_is_max[k])
			acc[k] = gm[k] > acc[k] ? gm[k] : acc[k];
		else
			acc[k] += gm[k];
	}
}
