/* Inter-layer fusion (docs/fusion.md): DeCoILFNet's toy example worked by
 * hand, partition counts, Pareto sets against brute force, DP against
 * enumeration, the VGG-16 figures, bad plans and the CLI. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "trim.h"

/* DeCoILFNet Sec. III: 5x5x3 input, two 3x3 convolutions with 3 filters,
 * stride 1, padding 1, then 2x2 max pooling with stride 2; 32-bit words. */
static const char toy_yaml[] =
	"network: {name: toy, input: [5, 5, 3], word_bits: 32}\n"
	"layers:\n"
	"  - {name: c1, type: conv2d, filters: 3, kernel: 3, strides: 1, padding: 1}\n"
	"  - {name: c2, type: conv2d, filters: 3, kernel: 3, strides: 1, padding: 1}\n"
	"  - {name: pool, type: maxpool2d, pool: 2, strides: 2}\n";

static trim_network *load_net(const char *yaml)
{
	trim_network *net = NULL;
	int rc = trim_network_load_string(&net, yaml, "toy.yaml");
	ck_assert_msg(rc == 0, "load failed: %s", trim_last_error());
	return net;
}

static trim_fusion *toy_chain(void)
{
	trim_network *net = load_net(toy_yaml);
	trim_fusion *f = NULL;
	int rc = trim_fusion_create(&f, net, NULL, NULL);
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	trim_network_free(net); /* the chain copies what it needs */
	return f;
}

static trim_fusion *vgg_chain(const char *first, const char *last)
{
	trim_network *net = NULL;
	trim_fusion *f = NULL;
	ck_assert_msg(trim_network_load(&net, "models/networks/vgg16.yaml") == 0, "%s",
	              trim_last_error());
	ck_assert_msg(trim_fusion_create(&f, net, first, last) == 0, "%s", trim_last_error());
	trim_network_free(net);
	return f;
}

static trim_fusion_plan *eval_ok(const trim_fusion *f, const char *groups)
{
	trim_fusion_plan *p = NULL;
	int rc = trim_fusion_evaluate(&p, f, groups);
	ck_assert_msg(rc == 0, "%s: %s", groups, trim_last_error());
	return p;
}

static double metric(const trim_fusion_plan *p, int m)
{
	double v[TRIM_FUSION_NMETRICS];
	ck_assert_int_eq(trim_fusion_plan_metrics(p, v, TRIM_FUSION_NMETRICS), 0);
	return v[m];
}

START_TEST(toy_line_buffers)
{
	trim_fusion *f = toy_chain();
	double q[TRIM_FUSION_L_NMETRICS];
	ck_assert_int_eq(trim_fusion_layer_count(f), 3);
	ck_assert_str_eq(trim_fusion_layer_name(f, 2), "pool");
	/* c1: padded width Wp = 5 + 2 = 7. Line buffer (K-1) x Wp x depth =
	 * 2 x 7 x 3 = 42 words; window K x K x depth = 3 x 3 x 3 = 27 words;
	 * weights 3 x 3 x 3 x 3 + 3 biases = 84; multipliers K x K x P = 27. */
	ck_assert_int_eq(trim_fusion_layer_metrics(f, 0, q, TRIM_FUSION_L_NMETRICS), 0);
	ck_assert_double_eq(q[TRIM_FUSION_L_LINE_BUFFER_WORDS], 42);
	ck_assert_double_eq(q[TRIM_FUSION_L_WINDOW_WORDS], 27);
	ck_assert_double_eq(q[TRIM_FUSION_L_POOL_BUFFER_WORDS], 0);
	ck_assert_double_eq(q[TRIM_FUSION_L_WEIGHT_WORDS], 84);
	ck_assert_double_eq(q[TRIM_FUSION_L_MACS_PARALLEL], 27);
	ck_assert_double_eq(q[TRIM_FUSION_L_PARALLELISM], 3);
	ck_assert_double_eq(q[TRIM_FUSION_L_PASSES], 1);
	/* first window: (K-1) padded rows + K slots = 2 x 7 + 3 = 17 slots */
	ck_assert_double_eq(q[TRIM_FUSION_L_FILL_SLOTS], 17);
	/* pipeline 9 x (1 + ceil(log2 9) + ceil(log2 3)) = 9 x 7 = 63, DeCoILFNet's 63 */
	ck_assert_double_eq(q[TRIM_FUSION_L_PIPELINE_CYCLES], 63);
	/* one filter per cycle: 3 cycles per output pixel */
	ck_assert_double_eq(q[TRIM_FUSION_L_CYCLES_PER_PIXEL], 3);
	/* MACs 5 x 5 x 3 x 3 x 9 = 2025 */
	ck_assert_double_eq(q[TRIM_FUSION_L_MACS], 2025);
	/* pool: no padding; pool line buffer ceil(2/2) rows x 2 output columns x
	 * 3 channels = 6 words; it waits for a whole row: (2-1) x 5 + 2 = 7 slots;
	 * comparator tree 9 x ceil(log2 4) = 18 cycles */
	ck_assert_int_eq(trim_fusion_layer_metrics(f, 2, q, TRIM_FUSION_L_NMETRICS), 0);
	ck_assert_double_eq(q[TRIM_FUSION_L_LINE_BUFFER_WORDS], 0);
	ck_assert_double_eq(q[TRIM_FUSION_L_POOL_BUFFER_WORDS], 6);
	ck_assert_double_eq(q[TRIM_FUSION_L_FILL_SLOTS], 7);
	ck_assert_double_eq(q[TRIM_FUSION_L_PIPELINE_CYCLES], 18);
	ck_assert_double_eq(q[TRIM_FUSION_L_MACS_PARALLEL], 0);
	ck_assert_double_eq(q[TRIM_FUSION_L_OUT_PIXELS], 4);
	trim_fusion_free(f);
}
END_TEST

/* A dilated convolution's window spans D(R-1)+1 rows and D_c(S-1)+1 columns:
 * its line buffer holds D(R-1) padded rows (the window's rows but the one
 * streaming in), its window D(R-1)+1 x D_c(S-1)+1 x depth words, and the first
 * window waits for D(R-1) rows and D_c(S-1)+1 slots. Kernel 3x3 with
 * dilation [2, 3] on 9x9x2, valid: 5 rows x 7 columns, a 5x3 output. */
START_TEST(dilated_line_buffers)
{
	static const char dilated[] =
		"network: {name: dil, input: [9, 9, 2], word_bits: 16}\n"
		"layers:\n"
		"  - {name: d1, type: conv2d, filters: 4, kernel: 3, dilation: [2, 3]}\n"
		"  - {name: d2, type: conv2d, filters: 4, kernel: 3, dilation: 2, padding: same}\n";
	trim_network *net = load_net(dilated);
	trim_fusion *f = NULL;
	ck_assert_msg(trim_fusion_create(&f, net, NULL, NULL) == 0, "%s", trim_last_error());
	trim_network_free(net);
	double q[TRIM_FUSION_L_NMETRICS];
	ck_assert_int_eq(trim_fusion_layer_metrics(f, 0, q, TRIM_FUSION_L_NMETRICS), 0);
	ck_assert_double_eq(q[TRIM_FUSION_L_OUT_PIXELS], 5 * 3);
	/* rows: 2 (3 - 1) + 1 = 5 -> 4 buffered rows of 9 pixels x 2 channels */
	ck_assert_double_eq(q[TRIM_FUSION_L_LINE_BUFFER_WORDS], 4 * 9 * 2);
	/* columns: 3 (3 - 1) + 1 = 7 */
	ck_assert_double_eq(q[TRIM_FUSION_L_WINDOW_WORDS], 5 * 7 * 2);
	ck_assert_double_eq(q[TRIM_FUSION_L_FILL_SLOTS], 4 * 9 + 7);
	/* the MACs and multipliers stay R x S: dilation spreads taps, it adds none */
	ck_assert_double_eq(q[TRIM_FUSION_L_MACS_PARALLEL], 3 * 3 * 2);
	ck_assert_double_eq(q[TRIM_FUSION_L_MACS], 5 * 3 * 4 * 2 * 9);
	/* d2: dilation 2 both ways, padding same (2 on each side of the 5x3 input):
	 * 5 rows -> 4 buffered rows of the padded width 3 + 4 = 7, x 4 channels */
	ck_assert_int_eq(trim_fusion_layer_metrics(f, 1, q, TRIM_FUSION_L_NMETRICS), 0);
	ck_assert_double_eq(q[TRIM_FUSION_L_OUT_PIXELS], 5 * 3);
	ck_assert_double_eq(q[TRIM_FUSION_L_LINE_BUFFER_WORDS], 4 * 7 * 4);
	ck_assert_double_eq(q[TRIM_FUSION_L_WINDOW_WORDS], 5 * 5 * 4);
	ck_assert_double_eq(q[TRIM_FUSION_L_FILL_SLOTS], 4 * 7 + 5);
	/* fused, the group holds both layers' line buffers and windows (16-bit
	 * words): (72 + 70) + (112 + 100) = 354 words; off chip only the input
	 * 9x9x2 and d2's 5x3x4 output, where layer by layer d1's 5x3x4 output
	 * also goes out and comes back */
	trim_fusion_plan *p = eval_ok(f, "d1,d2");
	trim_fusion_plan *lbl = eval_ok(f, "d1|d2");
	ck_assert_double_eq(metric(p, TRIM_FUSION_ONCHIP_FMAP_BYTES), 354 * 2);
	ck_assert_double_eq(metric(lbl, TRIM_FUSION_ONCHIP_FMAP_BYTES), (112 + 100) * 2);
	ck_assert_double_eq(metric(p, TRIM_FUSION_OFFCHIP_FMAP_BYTES), (162 + 60) * 2);
	ck_assert_double_eq(metric(lbl, TRIM_FUSION_OFFCHIP_FMAP_BYTES), (162 + 60 + 60 + 60) * 2);
	trim_fusion_plan_free(p);
	trim_fusion_plan_free(lbl);
	trim_fusion_free(f);
}
END_TEST

START_TEST(toy_latencies)
{
	trim_fusion *f = toy_chain();
	trim_fusion_plan *p = eval_ok(f, "c1, c2, pool");
	double t[TRIM_FUSION_T_N];
	/* c1 reads one pixel per cycle: A1 = 17 x 1 + 63 = 80; compute-bound:
	 * Z1 = max(80 + 25 x 3, 25 + 3 + 63) = 155; pace 3 */
	ck_assert_int_eq(trim_fusion_plan_layer_times(p, 0, t, TRIM_FUSION_T_N), 0);
	ck_assert_double_eq(t[TRIM_FUSION_T_FIRST_OUTPUT], 80);
	ck_assert_double_eq(t[TRIM_FUSION_T_LAST_OUTPUT], 155);
	ck_assert_double_eq(t[TRIM_FUSION_T_PACE], 3);
	/* c2's 17 slots arrive one per 3 cycles: A2 = 80 + 17 x 3 + 63 = 194;
	 * Z2 = max(194 + 75, 155 + 3 + 63) = 269 */
	trim_fusion_plan_layer_times(p, 1, t, TRIM_FUSION_T_N);
	ck_assert_double_eq(t[TRIM_FUSION_T_FIRST_OUTPUT], 194);
	ck_assert_double_eq(t[TRIM_FUSION_T_LAST_OUTPUT], 269);
	/* pool: A3 = 194 + 7 x 3 + 18 = 233; input-bound: Z3 = max(233 + 4 x 1,
	 * 269 + 1 + 18) = 288; pace max(1, 25 / 4 x 3) = 18.75 */
	trim_fusion_plan_layer_times(p, 2, t, TRIM_FUSION_T_N);
	ck_assert_double_eq(t[TRIM_FUSION_T_FIRST_OUTPUT], 233);
	ck_assert_double_eq(t[TRIM_FUSION_T_LAST_OUTPUT], 288);
	ck_assert_double_eq(t[TRIM_FUSION_T_PACE], 18.75);
	ck_assert_double_eq(metric(p, TRIM_FUSION_LATENCY_CYCLES), 233);
	ck_assert_double_eq(metric(p, TRIM_FUSION_CYCLES), 288);
	/* all fused: off chip only 5x5x3 in + 2x2x3 out = 87 words = 348 B, and
	 * 168 weight words = 672 B; on chip 42+27 + 42+27 + 6 = 144 words of
	 * buffers (576 B), 312 words with the weights (1248 B); 54 multipliers */
	ck_assert_double_eq(metric(p, TRIM_FUSION_OFFCHIP_FMAP_BYTES), 348);
	ck_assert_double_eq(metric(p, TRIM_FUSION_OFFCHIP_WEIGHT_BYTES), 672);
	ck_assert_double_eq(metric(p, TRIM_FUSION_OFFCHIP_BYTES), 1020);
	ck_assert_double_eq(metric(p, TRIM_FUSION_ONCHIP_FMAP_BYTES), 576);
	ck_assert_double_eq(metric(p, TRIM_FUSION_ONCHIP_BUFFER_BYTES), 1248);
	ck_assert_double_eq(metric(p, TRIM_FUSION_MACS_PARALLEL), 54);
	ck_assert_double_eq(metric(p, TRIM_FUSION_DSP), 54);
	/* BRAM18: c1 and c2 each 2 row FIFOs 96 bits x 7 (3 each) + 9 filter banks
	 * 96 bits x 3 (3 each) = 33; pool 96 bits x 2 = 3; 69 BRAM18 = 35 BRAM36 */
	ck_assert_double_eq(metric(p, TRIM_FUSION_BRAM36), 35);
	ck_assert_double_eq(metric(p, TRIM_FUSION_GROUPS), 1);
	trim_fusion_plan_free(p);

	/* layer by layer: 150 + 150 + 87 words of maps = 1548 B; the largest
	 * group's 27 multipliers; cycles 155 + 155 + pool alone (A = 7 + 18 = 25,
	 * Z = max(25 + 4, 25 + 1 + 18) = 44) = 354 */
	p = eval_ok(f, "c1|c2|pool");
	ck_assert_double_eq(metric(p, TRIM_FUSION_OFFCHIP_FMAP_BYTES), 1548);
	ck_assert_double_eq(metric(p, TRIM_FUSION_OFFCHIP_WEIGHT_BYTES), 672);
	ck_assert_double_eq(metric(p, TRIM_FUSION_MACS_PARALLEL), 27);
	ck_assert_double_eq(metric(p, TRIM_FUSION_CYCLES), 354);
	ck_assert_double_eq(metric(p, TRIM_FUSION_ONCHIP_BUFFER_BYTES), (69 + 84) * 4);
	ck_assert_double_eq(metric(p, TRIM_FUSION_GROUPS), 3);
	ck_assert_int_eq(trim_fusion_plan_cuts(p), 3);
	ck_assert_int_eq(trim_fusion_plan_group_count(p), 3);
	int64_t g[2];
	ck_assert_int_eq(trim_fusion_plan_group(p, 2, g, 2), 0);
	ck_assert(g[0] == 2 && g[1] == 2);
	trim_fusion_plan_free(p);
	trim_fusion_free(f);
}
END_TEST

START_TEST(toy_depth_decomposition)
{
	/* c2 with P = 1: 3 serial passes; 9 multipliers; 2-D pipeline
	 * 9 x (1 + 4 + 0) = 45 (DeCoILFNet's 2-D convolution latency); own pace
	 * 3 filters x 3 passes = 9 cycles per pixel: Z2 = A2 + 25 x 9 */
	trim_fusion *f = toy_chain();
	ck_assert_int_eq(trim_fusion_set_parallelism(f, "c2", 1), 0);
	double q[TRIM_FUSION_L_NMETRICS];
	trim_fusion_layer_metrics(f, 1, q, TRIM_FUSION_L_NMETRICS);
	ck_assert_double_eq(q[TRIM_FUSION_L_PASSES], 3);
	ck_assert_double_eq(q[TRIM_FUSION_L_MACS_PARALLEL], 9);
	ck_assert_double_eq(q[TRIM_FUSION_L_PIPELINE_CYCLES], 45);
	ck_assert_double_eq(q[TRIM_FUSION_L_CYCLES_PER_PIXEL], 9);
	trim_fusion_plan *p = eval_ok(f, "c1,c2|pool");
	double t[TRIM_FUSION_T_N];
	trim_fusion_plan_layer_times(p, 1, t, TRIM_FUSION_T_N);
	ck_assert_double_eq(t[TRIM_FUSION_T_FIRST_OUTPUT], 80 + 51 + 45);
	ck_assert_double_eq(t[TRIM_FUSION_T_LAST_OUTPUT], 80 + 51 + 45 + 225);
	ck_assert_double_eq(metric(p, TRIM_FUSION_MACS_PARALLEL), 36);
	trim_fusion_plan_free(p);
	/* bounds */
	ck_assert_int_eq(trim_fusion_set_parallelism(f, "c2", 4), TRIM_ERANGE);
	ck_assert_int_eq(trim_fusion_set_parallelism(f, "c2", 0), TRIM_ERANGE);
	ck_assert_int_eq(trim_fusion_set_parallelism(f, "pool", 1), TRIM_EINVAL);
	ck_assert_int_eq(trim_fusion_set_parallelism(f, "nope", 1), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_fusion_set_max_parallelism(f, 2), 0);
	trim_fusion_layer_metrics(f, 0, q, TRIM_FUSION_L_NMETRICS);
	ck_assert_double_eq(q[TRIM_FUSION_L_PASSES], 2);
	trim_fusion_free(f);
}
END_TEST

START_TEST(toy_bandwidth_and_energy)
{
	trim_fusion *f = toy_chain();
	/* 1.5 words per cycle: a 3-word pixel every 2 cycles; c1's 84 weight
	 * words take 56 cycles first. c1 alone: A = 17 x 2 + 63 = 97, Z = max(97 + 75,
	 * 50 + 66) = 172; traffic (75 + 75) / 1.5 = 100 < 172; cycles 172 + 84 / 1.5 */
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_DRAM_WORDS_PER_CYCLE, 1.5), 0);
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_DRAM_PJ_PER_BIT, 10), 0);
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_MAC_PJ, 2), 0);
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_SRAM_READ_PJ, 1), 0);
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_SRAM_WRITE_PJ, 0), 0);
	trim_fusion_plan *p = NULL;
	ck_assert_int_eq(trim_fusion_evaluate_cuts(&p, f, 1), 0); /* c1 | c2,pool */
	double m[TRIM_FUSION_NMETRICS];
	ck_assert_int_eq(trim_fusion_plan_group_metrics(p, 0, m, TRIM_FUSION_NMETRICS), 0);
	ck_assert_double_eq(m[TRIM_FUSION_CYCLES], 172 + 56);
	ck_assert_double_eq(m[TRIM_FUSION_LATENCY_CYCLES], 97 + 56);
	/* energy of c1's group: DRAM (150 + 84) words x 32 bits x 10 pJ; MACs
	 * 2025 x 2 pJ; reads: line buffer (3-1) x 7 x 7 x 3 = 294 and weights one
	 * per MAC 2025, 1 pJ each */
	ck_assert_double_eq(m[TRIM_FUSION_DRAM_PJ], 234.0 * 32 * 10);
	ck_assert_double_eq(m[TRIM_FUSION_MAC_ENERGY_PJ], 4050);
	ck_assert_double_eq(m[TRIM_FUSION_SRAM_PJ], 294 + 2025);
	ck_assert_double_eq(m[TRIM_FUSION_ENERGY_PJ], 234.0 * 320 + 4050 + 2319);
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_CLOCK_MHZ, 0), TRIM_ERANGE);
	ck_assert_int_eq(trim_fusion_set_param(f, 99, 1), TRIM_EINVAL);
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_MAC_PJ, -1), TRIM_ERANGE);
	trim_fusion_plan_free(p);
	trim_fusion_free(f);
}
END_TEST

/* Pareto set of every plan by the definition (O(n^2)), as sorted cut masks. */
static size_t brute_pareto(const trim_fusion *f, uint64_t *out)
{
	size_t L = trim_fusion_layer_count(f), n = 0;
	uint64_t total = (uint64_t)1 << (L - 1);
	static const int obj[4] = {TRIM_FUSION_OFFCHIP_BYTES, TRIM_FUSION_MACS_PARALLEL,
	                           TRIM_FUSION_ONCHIP_BUFFER_BYTES, TRIM_FUSION_CYCLES};
	double (*m)[TRIM_FUSION_NMETRICS] = calloc(total, sizeof *m);
	int *ok = calloc(total, sizeof *ok);
	for (uint64_t c = 0; c < total; c++) {
		trim_fusion_plan *p = NULL;
		ok[c] = trim_fusion_evaluate_cuts(&p, f, c) == 0;
		if (ok[c])
			trim_fusion_plan_metrics(p, m[c], TRIM_FUSION_NMETRICS);
		trim_fusion_plan_free(p);
	}
	for (uint64_t c = 0; c < total; c++) {
		if (!ok[c])
			continue;
		int dominated = 0;
		for (uint64_t d = 0; d < total && !dominated; d++) {
			if (!ok[d] || d == c)
				continue;
			int le = 1, lt = 0;
			for (int k = 0; k < 4; k++) {
				le &= m[d][obj[k]] <= m[c][obj[k]];
				lt |= m[d][obj[k]] < m[c][obj[k]];
			}
			if (le && (lt || d < c)) /* equal vectors: the lower mask stays */
				dominated = 1;
		}
		if (!dominated)
			out[n++] = c;
	}
	free(m);
	free(ok);
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static size_t result_pareto(const trim_fusion_result *r, uint64_t *out)
{
	size_t n = trim_fusion_result_pareto_count(r);
	for (size_t k = 0; k < n; k++) {
		size_t idx = 0;
		ck_assert_int_eq(trim_fusion_result_pareto(r, k, &idx), 0);
		out[k] = trim_fusion_result_plan_cuts(r, idx);
	}
	qsort(out, n, sizeof *out, cmp_u64);
	return n;
}

static void check_against_brute(trim_fusion *f, int expect_dp_equal)
{
	size_t L = trim_fusion_layer_count(f);
	uint64_t total = (uint64_t)1 << (L - 1);
	uint64_t *bp = calloc(total, sizeof *bp), *ep = calloc(total, sizeof *ep);
	uint64_t *dp = calloc(total, sizeof *dp);
	size_t nb = brute_pareto(f, bp);
	ck_assert_uint_gt(nb, 1);
	trim_fusion_result *r = NULL;
	ck_assert_msg(trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_OFFCHIP) == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_fusion_result_used_dp(r), 0);
	ck_assert_uint_eq(trim_fusion_result_considered(r), total);
	size_t ne = result_pareto(r, ep);
	ck_assert_uint_eq(ne, nb);
	for (size_t k = 0; k < nb; k++)
		ck_assert_uint_eq(ep[k], bp[k]);
	/* the same chain through the dynamic programme */
	trim_fusion *g = NULL;
	ck_assert_int_eq(trim_fusion_clone(&g, f), 0);
	ck_assert_int_eq(trim_fusion_set_param(g, TRIM_FUSION_ENUM_MAX_LAYERS, 1), 0);
	trim_fusion_result *rd = NULL;
	ck_assert_msg(trim_fusion_explore(&rd, g, TRIM_FUSION_GOAL_OFFCHIP) == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_fusion_result_used_dp(rd), 1);
	size_t nd = result_pareto(rd, dp);
	if (expect_dp_equal) {
		ck_assert_uint_eq(nd, nb);
		for (size_t k = 0; k < nb; k++)
			ck_assert_uint_eq(dp[k], bp[k]);
	}
	/* the best plan for off-chip traffic agrees */
	size_t b1 = 0, b2 = 0;
	ck_assert_int_eq(trim_fusion_result_best(r, &b1), 0);
	ck_assert_int_eq(trim_fusion_result_best(rd, &b2), 0);
	ck_assert_uint_eq(trim_fusion_result_plan_cuts(r, b1), trim_fusion_result_plan_cuts(rd, b2));
	trim_fusion_result_free(rd);
	trim_fusion_result_free(r);
	trim_fusion_free(g);
	free(bp);
	free(ep);
	free(dp);
}

START_TEST(partition_counts)
{
	trim_fusion *f = toy_chain();
	trim_fusion_result *r = NULL;
	ck_assert_int_eq(trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_CYCLES), 0);
	ck_assert_uint_eq(trim_fusion_result_considered(r), 4);
	ck_assert_uint_eq(trim_fusion_result_plan_count(r), 4);
	/* plans in cut order; layer by layer is cuts 0b11 */
	for (size_t i = 0; i < 4; i++)
		ck_assert_uint_eq(trim_fusion_result_plan_cuts(r, i), i);
	size_t lbl = 0;
	ck_assert_int_eq(trim_fusion_result_layer_by_layer(r, &lbl), 0);
	ck_assert_int_eq(lbl, 3);
	/* fastest: all fused (288 cycles, against 354 layer by layer) */
	size_t best = 9;
	ck_assert_int_eq(trim_fusion_result_best(r, &best), 0);
	ck_assert_int_eq(best, 0);
	ck_assert_int_eq(trim_fusion_result_pareto(r, 1000, &best), TRIM_EINVAL);
	trim_fusion_result_free(r);
	trim_fusion_free(f);

	f = vgg_chain("conv1_1", "conv3_1"); /* 5 conv + 2 pool */
	ck_assert_uint_eq(trim_fusion_layer_count(f), 7);
	ck_assert_int_eq(trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_OFFCHIP), 0);
	ck_assert_uint_eq(trim_fusion_result_considered(r), 64);
	ck_assert_uint_eq(trim_fusion_result_plan_count(r), 64);
	trim_fusion_result_free(r);
	trim_fusion_free(f);

	f = vgg_chain("conv1_1", "pool4"); /* 14 layers: 8192 partitions */
	ck_assert_int_eq(trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_OFFCHIP), 0);
	ck_assert_uint_eq(trim_fusion_result_considered(r), 8192);
	trim_fusion_result_free(r);
	/* NULL last: the chain runs to the last pool before flatten (18 layers) */
	trim_fusion_free(f);
	f = vgg_chain(NULL, NULL);
	ck_assert_uint_eq(trim_fusion_layer_count(f), 18);
	ck_assert_str_eq(trim_fusion_layer_name(f, 17), "pool5");
	trim_fusion_free(f);
}
END_TEST

START_TEST(pareto_brute_force)
{
	/* VGG-16 conv1_1..pool2 (6 layers) with the paper's parallelism and a
	 * budget that rules out fusing both blocks */
	trim_fusion *f = vgg_chain("conv1_1", "pool2");
	ck_assert_int_eq(trim_fusion_set_parallelism(f, "conv2_2", 64), 0);
	check_against_brute(f, 1);
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_BUDGET_DSP, 1200), 0);
	check_against_brute(f, 1);
	trim_fusion_result *r = NULL;
	ck_assert_int_eq(trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_OFFCHIP), 0);
	/* 32 partitions, some over budget, none of the kept ones over it */
	ck_assert_uint_eq(trim_fusion_result_considered(r), 32);
	ck_assert_uint_lt(trim_fusion_result_plan_count(r), 32);
	for (size_t i = 0; i < trim_fusion_result_plan_count(r); i++) {
		double m[TRIM_FUSION_NMETRICS];
		trim_fusion_result_plan_metrics(r, i, m, TRIM_FUSION_NMETRICS);
		ck_assert(m[TRIM_FUSION_DSP] <= 1200);
	}
	trim_fusion_result_free(r);
	trim_fusion_free(f);
	/* a longer chain, 12 layers (2048 partitions), DP against enumeration */
	f = vgg_chain("conv1_1", "conv4_2");
	ck_assert_int_eq(trim_fusion_set_max_parallelism(f, 64), 0);
	check_against_brute(f, 1);
	trim_fusion_free(f);
}
END_TEST

START_TEST(vgg_paper_figures)
{
	/* DeCoILFNet Table IV / Fused-Layer CNN on the first 5 conv + 2 pools */
	trim_fusion *f = vgg_chain("conv1_1", "conv3_1");
	trim_arch *a = NULL;
	ck_assert_msg(trim_arch_load(&a, "models/arch/virtex7-690t.yaml") == 0, "%s",
	              trim_last_error());
	ck_assert_msg(trim_fusion_set_hardware(f, a, NULL) == 0, "%s", trim_last_error());
	ck_assert_str_eq(trim_fusion_hardware_name(f), "virtex7-690t");
	double v;
	trim_fusion_get_param(f, TRIM_FUSION_CLOCK_MHZ, &v);
	ck_assert_double_eq(v, 120);
	trim_fusion_get_param(f, TRIM_FUSION_WORD_BITS, &v);
	ck_assert_double_eq(v, 32);
	trim_fusion_get_param(f, TRIM_FUSION_DSP_PER_MAC, &v);
	ck_assert_double_eq(v, 1);
	trim_fusion_get_param(f, TRIM_FUSION_BUDGET_DSP, &v);
	ck_assert_double_eq(v, 3600);
	ck_assert_int_eq(trim_fusion_set_parallelism(f, "conv2_2", 64), 0);
	trim_fusion_plan *p = eval_ok(f, "conv1_1,conv1_2,pool1,conv2_1,conv2_2,pool2,conv3_1");
	/* DSPs 27 + 576 + 576 + 576 + 1152 = 2907, DeCoILFNet's Table IV */
	ck_assert_double_eq(metric(p, TRIM_FUSION_DSP), 2907);
	/* maps in + out: (224x224x3 + 56x56x256) x 4 B = 3.637 MiB, Fused-Layer's 3.64 */
	ck_assert_double_eq(metric(p, TRIM_FUSION_OFFCHIP_FMAP_BYTES), (150528.0 + 802816) * 4);
	ck_assert(fabs(metric(p, TRIM_FUSION_OFFCHIP_FMAP_BYTES) / 1048576 - 3.64) < 0.005);
	trim_fusion_plan_free(p);
	/* conv3_1 on its own: 6.699 MiB, DeCoILFNet's 6.69 */
	p = eval_ok(f, "conv1_1,conv1_2,pool1,conv2_1,conv2_2,pool2|conv3_1");
	ck_assert(fabs(metric(p, TRIM_FUSION_OFFCHIP_FMAP_BYTES) / 1048576 - 6.699) < 0.0005);
	trim_fusion_plan_free(p);
	/* conv1_1 alone, one filter per cycle: 224 x 224 x 64 cycles + fill
	 * (2 x 226 + 3 = 455 slots) + 63 + its 1792 weight words at 31 words per
	 * cycle = 26.77 ms at 120 MHz; Table II: 26.76 ms. */
	double gm[TRIM_FUSION_NMETRICS];
	p = eval_ok(f, "conv1_1|conv1_2,pool1,conv2_1,conv2_2,pool2,conv3_1");
	trim_fusion_plan_group_metrics(p, 0, gm, TRIM_FUSION_NMETRICS);
	ck_assert(fabs(gm[TRIM_FUSION_CYCLES] - (3211264.0 + 455 + 63 + 1792.0 / 31)) < 1e-6);
	ck_assert(fabs(gm[TRIM_FUSION_TIME_MS] - 26.76) < 0.01);
	trim_fusion_plan_free(p);
	/* conv1_1 + conv1_2: + 455 slots x 64 cycles + 9 x (1 + 4 + 6) = 99, and
	 * 38720 weight words: 27.02 ms; Table II: 27.01 */
	p = eval_ok(f, "conv1_1,conv1_2|pool1|conv2_1|conv2_2|pool2|conv3_1");
	trim_fusion_plan_group_metrics(p, 0, gm, TRIM_FUSION_NMETRICS);
	ck_assert(fabs(gm[TRIM_FUSION_CYCLES] -
	               (3211264.0 + 455 + 63 + 455 * 64 + 99 + 38720.0 / 31)) < 1e-6);
	ck_assert(fabs(gm[TRIM_FUSION_TIME_MS] - 27.01) < 0.015);
	trim_fusion_plan_free(p);
	trim_arch_free(a);
	trim_fusion_free(f);
}
END_TEST

START_TEST(bad_plans)
{
	trim_fusion *f = toy_chain();
	trim_fusion_plan *p = NULL;
	/* non-consecutive layers in a group */
	ck_assert_int_eq(trim_fusion_evaluate(&p, f, "c1,pool|c2"), TRIM_ESCHEMA);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(trim_last_error(), "'pool' does not follow 'c1'") &&
	              strstr(trim_last_error(), "'c2' between"), "%s", trim_last_error());
	ck_assert_int_eq(trim_fusion_evaluate(&p, f, "c1|pool"), TRIM_ESCHEMA);
	ck_assert_msg(strstr(trim_last_error(), "'c2' is missing"), "%s", trim_last_error());
	ck_assert_int_eq(trim_fusion_evaluate(&p, f, "c1,c2"), TRIM_ESCHEMA);
	ck_assert_msg(strstr(trim_last_error(), "'pool'"), "%s", trim_last_error());
	ck_assert_int_eq(trim_fusion_evaluate(&p, f, "c1,c2,c2,pool"), TRIM_ESCHEMA);
	ck_assert_msg(strstr(trim_last_error(), "'c2' appears twice"), "%s", trim_last_error());
	ck_assert_int_eq(trim_fusion_evaluate(&p, f, "c1,fc,pool"), TRIM_ESCHEMA);
	ck_assert_msg(strstr(trim_last_error(), "'fc' is not in the chain"), "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_fusion_evaluate(&p, f, "c1,,c2,pool"), TRIM_ESCHEMA);
	ck_assert_int_eq(trim_fusion_evaluate_cuts(&p, f, 4), TRIM_EINVAL);
	/* a group over the DSP budget: c1 + c2 need 54 */
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_BUDGET_DSP, 30), 0);
	ck_assert_int_eq(trim_fusion_evaluate(&p, f, "c1,c2|pool"), TRIM_ENOFIT);
	ck_assert_msg(strstr(trim_last_error(), "group 1 (c1..c2) needs 54 DSP") &&
	              strstr(trim_last_error(), "budget of 30"), "%s", trim_last_error());
	p = eval_ok(f, "c1|c2,pool");
	trim_fusion_plan_free(p);
	trim_fusion_result *r = NULL;
	ck_assert_int_eq(trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_OFFCHIP), 0);
	ck_assert_uint_eq(trim_fusion_result_plan_count(r), 2); /* c1 separate from c2 */
	trim_fusion_result_free(r);
	ck_assert_int_eq(trim_fusion_set_param(f, TRIM_FUSION_BUDGET_DSP, 20), 0);
	ck_assert_int_eq(trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_OFFCHIP), TRIM_ENOFIT);
	ck_assert_ptr_null(r);
	ck_assert_msg(strstr(trim_last_error(), "layer by layer needs 27"), "%s", trim_last_error());
	ck_assert_int_eq(trim_fusion_explore(&r, f, 99), TRIM_EINVAL);
	trim_fusion_free(f);
}
END_TEST

START_TEST(bad_chains)
{
	trim_network *net = load_net(
		"network: {name: bad, input: [8, 8, 3]}\n"
		"layers:\n"
		"  - {name: c1, type: conv2d, filters: 4, kernel: 3, padding: 1}\n"
		"  - {name: bn, type: batchnorm}\n"
		"  - {name: c2, type: conv2d, filters: 4, kernel: 3, padding: 1}\n"
		"  - {name: c3, type: conv2d, filters: 4, kernel: 3, padding: 1, inputs: [bn]}\n"
		"  - {name: flat, type: flatten}\n"
		"  - {name: fc, type: dense, units: 2}\n");
	trim_fusion *f = NULL;
	/* a non-CONV/POOL layer inside the chain */
	ck_assert_int_eq(trim_fusion_create(&f, net, "c1", "c2"), TRIM_ESHAPE);
	ck_assert_ptr_null(f);
	ck_assert_msg(strstr(trim_last_error(), "layer 'bn' (batchnorm)") &&
	              strstr(trim_last_error(), "not a CONV"), "%s", trim_last_error());
	ck_assert_int_eq(trim_fusion_create(&f, net, "c3", "fc"), TRIM_ESHAPE);
	ck_assert_msg(strstr(trim_last_error(), "'flat'"), "%s", trim_last_error());
	/* c3 takes its input from bn, not from c2: not consecutive */
	ck_assert_int_eq(trim_fusion_create(&f, net, "c2", "c3"), TRIM_ESHAPE);
	ck_assert_msg(strstr(trim_last_error(), "layer 'c3'") &&
	              strstr(trim_last_error(), "not consecutive"), "%s", trim_last_error());
	ck_assert_int_eq(trim_fusion_create(&f, net, "c2", "c1"), TRIM_ESHAPE);
	ck_assert_int_eq(trim_fusion_create(&f, net, "nope", NULL), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_fusion_create(&f, net, "c1", "nope"), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_fusion_create(&f, net, "c1", "cc3"), TRIM_ENOTFOUND);
	ck_assert_str_eq(trim_last_error(), "network 'bad' has no layer 'cc3'; did you mean 'c3'?");
	/* without LAST the chain stops before the first non-fusable layer */
	ck_assert_int_eq(trim_fusion_create(&f, net, "c1", NULL), 0);
	ck_assert_uint_eq(trim_fusion_layer_count(f), 1);
	ck_assert_int_eq(trim_fusion_layer_find(f, "bn"), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_fusion_layer_find(f, "c11"), TRIM_ENOTFOUND);
	ck_assert_str_eq(trim_last_error(), "layer 'c11' is not in the chain c1..c1; did you mean 'c1'?");
	trim_fusion_free(f);
	trim_network_free(net);
}
END_TEST

START_TEST(reports)
{
	trim_fusion *f = toy_chain();
	trim_fusion_result *r = NULL;
	char *text = NULL;
	ck_assert_int_eq(trim_fusion_explore(&r, f, TRIM_FUSION_GOAL_OFFCHIP), 0);
	ck_assert_int_eq(trim_fusion_result_report(r, TRIM_FORMAT_JSON, &text), 0);
	ck_assert_msg(strstr(text, "\"plans\": [") && strstr(text, "\"pareto\": [") &&
	              strstr(text, "\"best\": {") &&
	              strstr(text, "\"groups\": [[\"c1\", \"c2\", \"pool\"]]") &&
	              strstr(text, "\"groups\": [[\"c1\"], [\"c2\"], [\"pool\"]]") &&
	              strstr(text, "\"offchip_fmap_bytes\": 348") &&
	              strstr(text, "\"macs_parallel\": 54") &&
	              strstr(text, "\"group_count\": 3"), "%s", text);
	/* one "groups" key per plan (the list), not a second one for the count */
	ck_assert_ptr_null(strstr(text, "\"groups\": 1"));
	trim_string_free(text);
	ck_assert_int_eq(trim_fusion_result_report(r, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_msg(strstr(text, "c1,c2,pool") && strstr(text, "c1 | c2 | pool"), "%s", text);
	trim_string_free(text);
	ck_assert_int_eq(trim_fusion_result_report(r, TRIM_FORMAT_CSV, &text), TRIM_EINVAL);
	trim_fusion_result_free(r);
	trim_fusion_plan *p = eval_ok(f, "c1|c2,pool");
	ck_assert_int_eq(trim_fusion_plan_report(p, TRIM_FORMAT_JSON, &text), 0);
	ck_assert_msg(strstr(text, "\"line_buffer_words\": 42"), "%s", text);
	trim_string_free(text);
	ck_assert_int_eq(trim_fusion_plan_report(p, TRIM_FORMAT_TABLE, &text), 0);
	trim_string_free(text);
	trim_fusion_plan_free(p);
	ck_assert_str_eq(trim_fusion_goal_name(TRIM_FUSION_GOAL_DSP), "dsp");
	ck_assert_int_eq(trim_fusion_goal_from_name("energy"), TRIM_FUSION_GOAL_ENERGY);
	ck_assert_int_eq(trim_fusion_goal_from_name("speed"), TRIM_EINVAL);
	ck_assert_str_eq(trim_fusion_metric_name(TRIM_FUSION_OFFCHIP_BYTES), "offchip_bytes");
	ck_assert_ptr_null(trim_fusion_param_name(TRIM_FUSION_NPARAMS));
	trim_fusion_free(NULL);
	trim_fusion_plan_free(NULL);
	trim_fusion_result_free(NULL);
	trim_fusion_free(f);
}
END_TEST

static int run(const char *args)
{
	const char *cli = getenv("TRIM_CLI");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s >/dev/null 2>&1", cli ? cli : "build/bin/trim", args);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(cli_fuse)
{
	const char *base = "fuse models/networks/vgg16.yaml models/arch/virtex7-690t.yaml";
	char args[512];
	snprintf(args, sizeof args, "%s --layers conv1_1:conv3_1 --format json", base);
	ck_assert_int_eq(run(args), 0);
	snprintf(args, sizeof args, "%s --layers conv1_1:pool1 --budget-dsp 100", base);
	ck_assert_int_eq(run(args), 2); /* conv1_2 alone needs 576 */
	snprintf(args, sizeof args, "%s --layers conv1_1:fc6", base);
	ck_assert_int_eq(run(args), 2);
	snprintf(args, sizeof args, "%s --layers conv1_1", base);
	ck_assert_int_eq(run(args), 2);
	snprintf(args, sizeof args, "%s --layers conv1_1:pool1 --plan 'conv1_1,pool1|conv1_2'",
	         base);
	ck_assert_int_eq(run(args), 2);
	snprintf(args, sizeof args, "%s --layers conv1_1:pool1 --parallel conv1_2=65", base);
	ck_assert_int_eq(run(args), 2);
	ck_assert_int_eq(run("fuse models/networks/vgg16.yaml"), 2);
	ck_assert_int_eq(run("fuse --help"), 0);

	const char *cli = getenv("TRIM_CLI");
	char cmd[1024], buf[1 << 16];
	snprintf(cmd, sizeof cmd, "%s %s --layers conv1_1:conv3_1 --parallel conv2_2=64 "
	         "--format json", cli ? cli : "build/bin/trim", base);
	FILE *pp = popen(cmd, "r");
	ck_assert_ptr_nonnull(pp);
	size_t n = fread(buf, 1, sizeof buf - 1, pp);
	buf[n] = '\0';
	pclose(pp);
	ck_assert_msg(strstr(buf, "\"plans\": [") && strstr(buf, "\"pareto\": [") &&
	              strstr(buf, "\"best\": {") && strstr(buf, "\"dsp\": 2907"), "%.2000s", buf);
}
END_TEST

Suite *fusion_suite(void)
{
	Suite *s = suite_create("fusion");
	TCase *tc = tcase_create("fusion");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, toy_line_buffers);
	tcase_add_test(tc, dilated_line_buffers);
	tcase_add_test(tc, toy_latencies);
	tcase_add_test(tc, toy_depth_decomposition);
	tcase_add_test(tc, toy_bandwidth_and_energy);
	tcase_add_test(tc, partition_counts);
	tcase_add_test(tc, pareto_brute_force);
	tcase_add_test(tc, vgg_paper_figures);
	tcase_add_test(tc, bad_plans);
	tcase_add_test(tc, bad_chains);
	tcase_add_test(tc, reports);
	tcase_add_test(tc, cli_fuse);
	suite_add_tcase(s, tc);
	return s;
}
