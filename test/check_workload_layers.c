/*
 * The task analyst's layer properties (BatchNorm with ReLU, dropout, zero
 * insertion along columns, BatchNorm's cached input) and the newer layer
 * kinds (transformer layers, decoders, map borders, the shipped modern
 * networks end to end).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcase_util.h"
#include "trim.h"
#include "trim/sparsity.h"
#include "workload/workload_int.h"
#include "workload_util.h"

/* ---- properties ------------------------------------------------------------ */

static void sp_fields(const trim_workloads *w, const trim_sparsity *sp, const char *layer,
                      int phase, double *v)
{
	size_t i;
	ck_assert_msg(trim_workloads_find(w, layer, phase, &i) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_sparsity_workload(sp, i, v, TRIM_SP_NFIELDS), 0);
}

/* A ReLU fused into a BatchNorm (`batchnorm` with `activation: relu`) masks the
 * gradient after the normalisation: the conv before it receives a dense
 * gradient, while the conv after it sees ReLU zeros (FW input, BW output
 * skipping). Zeros made by dropout are not ReLU zeros: no BW output skipping
 * is credited after a dropout. */
START_TEST(test_bn_relu_and_dropout_sparsity)
{
	trim_network *net = NULL;
	trim_workloads *w = analyse(
		"network: {name: p, input: [6, 6, 2], batch: 2, mode: training}\n"
		"layers:\n"
		"  - {name: c0, type: conv2d, filters: 4, kernel: 1}\n"
		"  - {name: c1, type: conv2d, filters: 4, kernel: 3, padding: same, use_bias: false}\n"
		"  - {name: bn, type: batchnorm, activation: relu, sparsity: 0.5}\n"
		"  - {name: c2, type: conv2d, filters: 4, kernel: 3, padding: same, activation: relu,"
		" sparsity: 0.4}\n"
		"  - {name: drop, type: dropout, rate: 0.5}\n"
		"  - {name: c3, type: conv2d, filters: 4, kernel: 1}\n",
		TRIM_MODE_DEFAULT, &net);
	trim_sparsity *sp = NULL;
	ck_assert_msg(trim_sparsity_create(&sp, net, w) == 0, "%s", trim_last_error());
	double v[TRIM_SP_NFIELDS];
	/* c1's output goes through the BN before the ReLU: its gradient is dense */
	sp_fields(w, sp, "c1", TRIM_PHASE_BW, v);
	ck_assert_double_eq(v[TRIM_SP_OPERAND0], 0);
	sp_fields(w, sp, "c1", TRIM_PHASE_WG, v);
	ck_assert_double_eq(v[TRIM_SP_OPERAND1], 0);
	/* c2 reads the BN's ReLU output: zeros in FW, and its BW results are masked */
	sp_fields(w, sp, "c2", TRIM_PHASE_FW, v);
	ck_assert_double_eq_tol(v[TRIM_SP_OPERAND0], 0.5, 1e-12);
	sp_fields(w, sp, "c2", TRIM_PHASE_BW, v);
	ck_assert_double_eq_tol(v[TRIM_SP_OUTPUT], 0.5, 1e-12);
	/* the ReLU inside c2 masks c2's own gradient */
	ck_assert_double_eq_tol(v[TRIM_SP_OPERAND0], 0.4, 1e-12);
	/* after dropout: 1 - 0.6 x 0.5 = 0.7 zeros in FW, no output skipping in BW */
	sp_fields(w, sp, "c3", TRIM_PHASE_FW, v);
	ck_assert_double_eq_tol(v[TRIM_SP_OPERAND0], 0.7, 1e-12);
	sp_fields(w, sp, "c3", TRIM_PHASE_BW, v);
	ck_assert_double_eq(v[TRIM_SP_OUTPUT], 0);
	ck_assert_double_eq_tol(v[TRIM_SP_FACTOR], 1, 1e-12);
	/* the BN's ReLU keeps its output (the mask) from its FW until its BW */
	int cached = 0;
	for (size_t j = 0; j < trim_workloads_inter_count(w); j++)
		if (trim_workloads_inter_op(w, j) == TRIM_INTER_CACHE &&
		    !strcmp(trim_workloads_inter_layer(w, j), "bn"))
			cached++;
	ck_assert_int_eq(cached, 1);
	trim_sparsity_free(sp);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* A conv that needs zero insertion or padding along its columns only (1x3
 * kernel; stride 1 or [1, 2]) still gets the BW preprocessing workload that
 * makes its dY, with exactly the zeros it inserts. */
START_TEST(test_bw_preprocessing_columns_only)
{
	/* {strides, padding, zeros}: input 4x7, 3 filters, batch 2.
	 * stride [1,2], pad [0,1]: W_o = (7+2-3)/2+1 = 4; dY 4x4 becomes 4 x (7+2) with
	 * 4 real columns: 2*3*(4*9 - 4*4) = 120 zeros.
	 * stride 1, pad [0,1]: W_o = 7; dY 4x7 becomes 4 x 9: 2*3*(36-28) = 48.
	 * stride [1,2], no padding: W_o = 3; dY 4x3 becomes 4 x (7+2) with lo = 2,
	 * real at 2, 4, 6: 2*3*(4*9 - 4*3) = 144. */
	static const struct {
		const char *strides, *padding;
		int64_t zeros;
	} cases[] = {{"[1, 2]", "[0, 1]", 120}, {"1", "[0, 1]", 48}, {"[1, 2]", "valid", 144}};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char yaml[512];
		snprintf(yaml, sizeof yaml,
		         "network: {name: p, input: [4, 7, 2], batch: 2, mode: training}\n"
		         "layers:\n"
		         "  - {name: a, type: conv2d, filters: 2, kernel: 1}\n"
		         "  - {name: b, type: conv2d, filters: 3, kernel: [1, 3], strides: %s,"
		         " padding: %s}\n",
		         cases[k].strides, cases[k].padding);
		trim_workloads *w = analyse(yaml, TRIM_MODE_DEFAULT, NULL);
		size_t bw;
		ck_assert_int_eq(trim_workloads_find(w, "b", TRIM_PHASE_BW, &bw), 0);
		const trim__intra *x = trim__workloads_intra(w, bw);
		ck_assert_msg(x->pre_index >= 0, "case %zu: BW has no preprocessing", k);
		int found = 0;
		for (size_t j = 0; j < trim_workloads_inter_count(w); j++) {
			const trim__inter *y = trim__workloads_inter(w, j);
			if (y->op != TRIM__OP_UPSAMPLE_PAD || strcmp(y->layer, "b"))
				continue;
			found++;
			ck_assert_int_eq(y->before_intra, (int)bw);
			ck_assert_msg(y->zeros == cases[k].zeros, "case %zu: %lld zeros, expected %lld",
			              k, (long long)y->zeros, (long long)cases[k].zeros);
		}
		ck_assert_int_eq(found, 1);
		ck_assert_int_gt(trim_workloads_intra_zero_macs(w, bw), 0);
		trim_workloads_free(w);
	}
}
END_TEST

/* The input a BatchNorm caches (the activation it normalised) lives until the
 * first intra workload after the BN's BW (the BN's BW consumes it just before
 * that workload runs), and no longer. */
START_TEST(test_bn_cache_lifetime)
{
	trim_workloads *w = analyse(
		"network: {name: p, input: [6, 6, 2], batch: 2, mode: training}\n"
		"layers:\n"
		"  - {name: c0, type: conv2d, filters: 4, kernel: 3, padding: same}\n"
		"  - {name: c1, type: conv2d, filters: 4, kernel: 3, padding: same, use_bias: false}\n"
		"  - {name: bn, type: batchnorm}\n"
		"  - {name: r, type: activation, activation: relu}\n"
		"  - {name: c2, type: conv2d, filters: 4, kernel: 1}\n",
		TRIM_MODE_DEFAULT, NULL);
	int bn_bw_before = -1;
	for (size_t j = 0; j < trim_workloads_inter_count(w); j++) {
		const trim__inter *y = trim__workloads_inter(w, j);
		if (y->op == TRIM__OP_BATCHNORM && y->phase == TRIM_PHASE_BW)
			bn_bw_before = y->before_intra;
	}
	ck_assert_int_ge(bn_bw_before, 0);
	/* the first intra after the BN's BW is c1's BW (the BN sits between c1 and r) */
	size_t c1bw;
	ck_assert_int_eq(trim_workloads_find(w, "c1", TRIM_PHASE_BW, &c1bw), 0);
	ck_assert_int_eq(bn_bw_before, (int)c1bw);
	int found = 0;
	for (size_t j = 0; j < trim_workloads_inter_count(w); j++) {
		const trim__inter *y = trim__workloads_inter(w, j);
		if (y->op != TRIM__OP_CACHE || strcmp(y->layer, "c1"))
			continue;
		found++;
		int64_t created, freed;
		ck_assert_int_eq(trim_workloads_inter_lifetime(w, j, &created, &freed), 0);
		size_t c1fw;
		ck_assert_int_eq(trim_workloads_find(w, "c1", TRIM_PHASE_FW, &c1fw), 0);
		ck_assert_int_eq(created, (int64_t)c1fw);
		ck_assert_int_eq(freed, bn_bw_before);
		/* counted in the live bytes up to that workload, not after it */
		int64_t live[64];
		size_t n = trim_workloads_intra_count(w);
		ck_assert(n <= 64);
		trim_workloads_cached_bytes(w, live, n);
		int64_t bytes = trim_workloads_inter_bytes(w, j);
		ck_assert_int_ge(live[freed], bytes);
		if ((size_t)freed + 1 < n) {
			int64_t others = 0;
			for (size_t q = 0; q < trim_workloads_inter_count(w); q++) {
				const trim__inter *z = trim__workloads_inter(w, q);
				if (q != j && (z->op == TRIM__OP_CACHE || z->op == TRIM__OP_SHORTCUT) &&
				    z->created <= freed + 1 && z->freed >= freed + 1)
					others += trim_workloads_inter_bytes(w, q);
			}
			ck_assert_int_eq(live[freed + 1], others);
		}
	}
	ck_assert_int_eq(found, 1);
	trim_workloads_free(w);
}
END_TEST

static int count_phase(const trim_workloads *w, const char *layer, int phase)
{
	int n = 0;
	for (size_t i = 0; i < trim_workloads_intra_count(w); i++)
		n += !strcmp(trim_workloads_intra_layer(w, i), layer) &&
		     trim_workloads_intra_phase(w, i) == phase;
	return n;
}

static int count_inter(const trim_workloads *w, const char *layer, int op, int phase)
{
	int n = 0;
	for (size_t j = 0; j < trim_workloads_inter_count(w); j++) {
		const trim__inter *y = trim__workloads_inter(w, j);
		n += !strcmp(y->layer, layer) && y->op == op && y->phase == phase;
	}
	return n;
}

/* Transformer layers in training (batch 2, 6 tokens, 8 features, 2 heads). */
START_TEST(test_transformer_nests)
{
	trim_network *net = NULL;
	trim_workloads *w = analyse(
		"network: {name: tb, input: [6], batch: 2, mode: training, sparsity: 0.5}\n"
		"layers:\n"
		"  - {name: emb, type: embedding, vocab: 50, units: 8}\n"
		"  - {name: q, type: dense, units: 8}\n"
		"  - {name: k, type: dense, units: 8, inputs: [emb]}\n"
		"  - {name: v, type: dense, units: 8, inputs: [emb]}\n"
		"  - {name: qk, type: matmul, inputs: [q, k], heads: 2, transpose_b: true}\n"
		"  - {name: sm, type: softmax}\n"
		"  - {name: av, type: matmul, inputs: [sm, v], heads: 2}\n"
		"  - {name: ln, type: layernorm}\n"
		"  - {name: ff, type: dense, units: 16, activation: gelu}\n"
		"  - {name: out, type: dense, units: 8}\n",
		TRIM_MODE_DEFAULT, &net);
	size_t i;
	int64_t b[TRIM_NDIMS];
	/* dense over tokens: the 6 tokens fold into N = 2 x 6 */
	ck_assert_int_eq(trim_workloads_find(w, "q", TRIM_PHASE_FW, &i), 0);
	trim_workloads_intra_bounds(w, i, b, TRIM_NDIMS);
	int64_t eq[] = {12, 1, 8, 8, 1, 1, 1, 1};
	ck_assert_mem_eq(b, eq, sizeof eq);
	/* Q.K^T: per head 6 x 4 by 4 x 6; G = heads */
	ck_assert_int_eq(trim_workloads_find(w, "qk", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_workloads_intra_kind(w, i), TRIM_WL_MATMUL);
	trim_workloads_intra_bounds(w, i, b, TRIM_NDIMS);
	int64_t eqk[] = {2, 2, 6, 4, 6, 1, 1, 1};
	ck_assert_mem_eq(b, eqk, sizeof eqk);
	ck_assert_int_eq(trim_workloads_intra_macs(w, i), 2 * 2 * 6 * 4 * 6);
	/* both operands come from the batch: b is indexed by N */
	ck_assert_int_eq(trim_workloads_tensor_elems(w, i, 1), 2 * 8 * 6);
	/* the gradients of both operands, no WG */
	ck_assert_int_eq(count_phase(w, "qk", TRIM_PHASE_BW), 2);
	ck_assert_int_eq(count_phase(w, "qk", TRIM_PHASE_WG), 0);
	ck_assert_int_eq(count_phase(w, "av", TRIM_PHASE_BW), 2);
	for (size_t j = 0; j < trim_workloads_intra_count(w); j++)
		if (!strcmp(trim_workloads_intra_layer(w, j), "av"))
			ck_assert_int_eq(trim_workloads_intra_macs(w, j), 2 * 2 * 6 * 6 * 4);
	/* A.V: dA = dY . V^T has M = 6 keys, C = 4 values per head */
	ck_assert_int_eq(trim_workloads_find(w, "av", TRIM_PHASE_BW, &i), 0);
	ck_assert_str_eq(trim_workloads_tensor_name(w, i, 2), "dA");
	trim_workloads_intra_bounds(w, i, b, TRIM_NDIMS);
	ck_assert(b[TRIM_DIM_M] == 6 && b[TRIM_DIM_C] == 4 && b[TRIM_DIM_E] == 6);
	/* vector work, FW and BW, and what it caches */
	ck_assert_int_eq(count_inter(w, "sm", TRIM__OP_SOFTMAX, TRIM_PHASE_FW), 1);
	ck_assert_int_eq(count_inter(w, "sm", TRIM__OP_SOFTMAX, TRIM_PHASE_BW), 1);
	ck_assert_int_eq(count_inter(w, "ln", TRIM__OP_LAYERNORM, TRIM_PHASE_FW), 1);
	ck_assert_int_eq(count_inter(w, "ln", TRIM__OP_LAYERNORM, TRIM_PHASE_BW), 1);
	ck_assert_int_eq(count_inter(w, "sm", TRIM__OP_CACHE, TRIM_PHASE_FW), 1); /* its output */
	ck_assert_int_eq(count_inter(w, "av", TRIM__OP_CACHE, TRIM_PHASE_FW), 1); /* LN's input */
	/* the lookup and its row updates */
	ck_assert_int_eq(count_inter(w, "emb", TRIM__OP_LOOKUP, TRIM_PHASE_FW), 1);
	ck_assert_int_eq(count_inter(w, "emb", TRIM__OP_LOOKUP, TRIM_PHASE_WG), 1);
	ck_assert_int_eq(count_phase(w, "emb", TRIM_PHASE_FW), 0);
	/* GELU makes no exact zeros: the network's ReLU default does not apply */
	trim_sparsity *sp = NULL;
	ck_assert_int_eq(trim_sparsity_create(&sp, net, w), 0);
	double v[TRIM_SP_NFIELDS];
	sp_fields(w, sp, "out", TRIM_PHASE_FW, v);
	ck_assert_double_eq(v[TRIM_SP_OPERAND0], 0);
	sp_fields(w, sp, "out", TRIM_PHASE_BW, v);
	ck_assert_double_eq(v[TRIM_SP_OUTPUT], 0);
	trim_sparsity_free(sp);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* conv2d_transpose and upsample: FW, BW, WG nests as the adjoint convolution. */
START_TEST(test_decoder_nests)
{
	trim_workloads *w = analyse(
		"network: {name: d, input: [4, 4, 3], batch: 2, mode: training}\n"
		"layers:\n"
		"  - {name: c0, type: conv2d, filters: 4, kernel: 1}\n"
		"  - {name: up, type: conv2d_transpose, filters: 2, kernel: 3, strides: 2, padding: 1,"
		" output_padding: 1}\n"
		"  - {name: near, type: upsample, size: 2}\n"
		"  - {name: bil, type: upsample, size: 2, interpolation: bilinear, inputs: [up]}\n"
		"  - {name: c1, type: conv2d, filters: 2, kernel: 1, inputs: [near]}\n"
		"  - {name: c2, type: conv2d, filters: 2, kernel: 1, inputs: [bil]}\n",
		TRIM_MODE_DEFAULT, NULL);
	size_t fw, bw, wg;
	int64_t b[TRIM_NDIMS];
	/* up: 4x4x4 -> 8x8x2. FW as zero insertion: E = F = 8, M = 2, C = 4, 3x3.
	 * Real MACs: input i reaches outputs 2i + r - 1 (r < 3) inside [0, 8): 2 taps
	 * for i = 0, 3 for i = 1..3, 11 per axis: 2 x 2 x 4 x 11 x 11 (the padding crops
	 * the others of the layer's 2 x 16 x 4 x 2 x 9) */
	ck_assert_int_eq(trim_workloads_find(w, "up", TRIM_PHASE_FW, &fw), 0);
	trim_workloads_intra_bounds(w, fw, b, TRIM_NDIMS);
	int64_t efw[] = {2, 1, 2, 4, 8, 8, 3, 3};
	ck_assert_mem_eq(b, efw, sizeof efw);
	ck_assert_int_eq(trim_workloads_intra_macs(w, fw) - trim_workloads_intra_zero_macs(w, fw),
	                 2 * 2 * 4 * 11 * 11);
	ck_assert_str_eq(trim_workloads_tensor_name(w, fw, 0), "ifmap");
	ck_assert_int_eq(count_inter(w, "up", TRIM__OP_UPSAMPLE_PAD, TRIM_PHASE_FW), 1);
	/* BW: a strided convolution of dY (8x8x2) back to 4x4x4 */
	ck_assert_int_eq(trim_workloads_find(w, "up", TRIM_PHASE_BW, &bw), 0);
	trim_workloads_intra_bounds(w, bw, b, TRIM_NDIMS);
	int64_t ebw[] = {2, 1, 4, 2, 4, 4, 3, 3};
	ck_assert_mem_eq(b, ebw, sizeof ebw);
	ck_assert_str_eq(trim_workloads_tensor_name(w, bw, 0), "dY");
	ck_assert_str_eq(trim_workloads_tensor_name(w, bw, 2), "dX");
	/* WG: dW[c][m][r][s] over the 4x4 input positions */
	ck_assert_int_eq(trim_workloads_find(w, "up", TRIM_PHASE_WG, &wg), 0);
	ck_assert_int_eq(trim_workloads_tensor_elems(w, wg, 2), 4 * 2 * 9);
	ck_assert_str_eq(trim_workloads_tensor_name(w, wg, 1), "ifmap");
	/* nearest: FW moves data, BW sums dY over 2x2 blocks */
	ck_assert_int_eq(count_phase(w, "near", TRIM_PHASE_FW), 0);
	ck_assert_int_eq(count_inter(w, "near", TRIM__OP_MOVE, TRIM_PHASE_FW), 1);
	ck_assert_int_eq(trim_workloads_find(w, "near", TRIM_PHASE_BW, &bw), 0);
	ck_assert_int_eq(trim_workloads_intra_kind(w, bw), TRIM_WL_UPSAMPLE);
	ck_assert_int_eq(trim_workloads_intra_macs(w, bw), 2 * 2 * 16 * 16);
	/* bilinear: 4 taps per output in FW (2x2 real taps of a 4x4 kernel), as many in BW */
	ck_assert_int_eq(trim_workloads_find(w, "bil", TRIM_PHASE_FW, &fw), 0);
	ck_assert_int_eq(trim_workloads_find(w, "bil", TRIM_PHASE_BW, &bw), 0);
	int64_t nzf = trim_workloads_intra_macs(w, fw) - trim_workloads_intra_zero_macs(w, fw);
	int64_t nzb = trim_workloads_intra_macs(w, bw) - trim_workloads_intra_zero_macs(w, bw);
	ck_assert_int_eq(nzf, nzb);
	ck_assert_int_le(nzf, 2 * 2 * 16 * 16 * 4);
	ck_assert_int_gt(nzf, 2 * 2 * 16 * 16 * 3);
	trim_workloads_free(w);
}
END_TEST

/* A map's borders (zeropad2d, cropping2d): no nest; FW pads with zeros / cuts off,
 * BW the reverse on dY, each an inter workload with the elements it reads and
 * writes (batch 2, 5 x 5 x 3 padded to 7 x 6, cut back to 4 x 5 after a conv). */
START_TEST(test_border_workloads)
{
	trim_workloads *w = analyse(
		"network: {name: b, input: [5, 5, 3], batch: 2, mode: training}\n"
		"layers:\n"
		"  - {name: c0, type: conv2d, filters: 3, kernel: 1}\n"
		"  - {name: pad, type: zeropad2d, padding: [[0, 2], [1, 0]]}\n"
		"  - {name: c1, type: conv2d, filters: 4, kernel: 1}\n"
		"  - {name: crop, type: cropping2d, cropping: [[1, 2], [1, 1]]}\n"
		"  - {name: c2, type: conv2d, filters: 2, kernel: 1}\n",
		TRIM_MODE_DEFAULT, NULL);
	ck_assert_int_eq(count_phase(w, "pad", TRIM_PHASE_FW) + count_phase(w, "pad", TRIM_PHASE_BW), 0);
	ck_assert_int_eq(count_phase(w, "crop", TRIM_PHASE_FW) + count_phase(w, "crop", TRIM_PHASE_BW), 0);
	ck_assert_int_eq(count_inter(w, "pad", TRIM__OP_PAD, TRIM_PHASE_FW), 1);
	ck_assert_int_eq(count_inter(w, "pad", TRIM__OP_MOVE, TRIM_PHASE_BW), 1);
	ck_assert_int_eq(count_inter(w, "crop", TRIM__OP_MOVE, TRIM_PHASE_FW), 1);
	ck_assert_int_eq(count_inter(w, "crop", TRIM__OP_PAD, TRIM_PHASE_BW), 1);
	int seen = 0;
	for (size_t j = 0; j < trim_workloads_inter_count(w); j++) {
		const trim__inter *y = trim__workloads_inter(w, j);
		int pad = !strcmp(y->layer, "pad"), crop = !strcmp(y->layer, "crop");
		if ((!pad && !crop) || (y->op != TRIM__OP_PAD && y->op != TRIM__OP_MOVE))
			continue; /* the caches of their outputs */
		seen++;
		/* pad: 2 x 5 x 5 x 3 = 150 <-> 2 x 7 x 6 x 3 = 252; crop: 2 x 7 x 6 x 4 = 336
		 * <-> 2 x 4 x 4 x 4 = 128 */
		int64_t small = pad ? 150 : 128, big = pad ? 252 : 336;
		int grow = (pad && y->phase == TRIM_PHASE_FW) || (crop && y->phase == TRIM_PHASE_BW);
		ck_assert_int_eq(y->in_elems, grow ? small : big);
		ck_assert_int_eq(y->out_elems, grow ? big : small);
		ck_assert_int_eq(y->zeros, grow ? big - small : 0);
		ck_assert_int_eq(trim_workloads_inter_zeros(w, j), y->zeros);
		ck_assert_str_eq(y->tensor, y->phase == TRIM_PHASE_FW ? "ofmap" : "dY");
	}
	ck_assert_int_eq(seen, 4);
	/* the conv after the padding runs over the padded map; after the cut, the cut one */
	size_t fw;
	ck_assert_int_eq(trim_workloads_find(w, "c1", TRIM_PHASE_FW, &fw), 0);
	ck_assert_int_eq(trim_workloads_intra_macs(w, fw), 2 * 7 * 6 * 4 * 3);
	ck_assert_int_eq(trim_workloads_find(w, "c2", TRIM_PHASE_FW, &fw), 0);
	ck_assert_int_eq(trim_workloads_intra_macs(w, fw), 2 * 4 * 4 * 2 * 4);
	trim_workloads_free(w);
}
END_TEST

/* The shipped modern networks analyse, map, evaluate and train end to end
 * (a small mapspace: test/data/constraints/quick-eyeriss.yaml). */
START_TEST(test_shipped_networks_end_to_end)
{
	static const char *const nets[] = {"bert-base", "gpt2-small", "vit-b16", "mobilenet-v2",
	                                   "unet"};
	for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
		char args[512];
		int st;
		snprintf(args, sizeof args, "workloads models/networks/%s.yaml --mode training",
		         nets[k]);
		char *out = tu_capture(args, 1, &st);
		ck_assert_msg(st == 0 && strstr(out, "totals:"), "%s: status %d: %.300s", nets[k], st,
		              out);
		free(out);
		snprintf(args, sizeof args,
		         "network models/networks/%s.yaml models/arch/eyeriss.yaml --mode training "
		         "--constraints test/data/constraints/quick-eyeriss.yaml --quiet",
		         nets[k]);
		out = tu_capture(args, 1, &st);
		ck_assert_msg(st == 0 && strstr(out, "total:") && strstr(out, "pJ"),
		              "%s: status %d: %.300s", nets[k], st, out);
		free(out);
	}
}
END_TEST

Suite *workload_layers_suite(void)
{
	Suite *s = suite_create("workload_layers");
	TCase *tp = tcase_create("properties");
	tcase_add_test(tp, test_bn_relu_and_dropout_sparsity);
	tcase_add_test(tp, test_bw_preprocessing_columns_only);
	tcase_add_test(tp, test_bn_cache_lifetime);
	suite_add_tcase(s, tp);
	TCase *tl = tcase_create("layers");
	tcase_add_test(tl, test_transformer_nests);
	tcase_add_test(tl, test_decoder_nests);
	tcase_add_test(tl, test_border_workloads);
	tcase_add_test(tl, test_shipped_networks_end_to_end);
	tcase_set_timeout(tl, 300);
	suite_add_tcase(s, tl);
	return s;
}
