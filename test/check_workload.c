/*
 * The task analyst: workload counts, loop nests per phase, zeros, caching
 * (the layers' properties and the newer layer kinds:
 * check_workload_layers.c).
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

/* TRIM: AlexNet gives 5+3+3 = 11 inference and (5+3)*3 + 3*2 - 1 = 29 training workloads. */
START_TEST(test_alexnet_counts)
{
	trim_workloads *w = analyse_file("models/networks/alexnet.yaml", TRIM_MODE_INFERENCE);
	ck_assert_int_eq(trim_workloads_intra_count(w), 11);
	trim_workloads_free(w);
	w = analyse_file("models/networks/alexnet.yaml", TRIM_MODE_TRAINING);
	ck_assert_int_eq(trim_workloads_intra_count(w), 29);
	size_t i;
	/* the first layer has no BW; every other CONV/FC has BW and WG, pools BW only */
	ck_assert_int_eq(trim_workloads_find(w, "conv1", TRIM_PHASE_BW, &i), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_workloads_find(w, "conv1", TRIM_PHASE_WG, &i), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv2", TRIM_PHASE_BW, &i), 0);
	ck_assert_int_eq(trim_workloads_find(w, "pool1", TRIM_PHASE_BW, &i), 0);
	ck_assert_int_eq(trim_workloads_find(w, "pool1", TRIM_PHASE_WG, &i), TRIM_ENOTFOUND);
	trim_workloads_free(w);
}
END_TEST

/* Every shipped network matches its published MAC and parameter counts. */
START_TEST(test_published_counts)
{
	FILE *f = fopen("test/data/published_counts.tsv", "r");
	ck_assert_msg(f != NULL, "test/data/published_counts.tsv missing");
	char line[1024];
	int rows = 0;
	ck_assert(fgets(line, sizeof line, f)); /* header */
	while (fgets(line, sizeof line, f)) {
		char file[256];
		long long macs, params;
		double tol;
		if (sscanf(line, "%255s %lld %lld %lf", file, &macs, &params, &tol) != 4)
			continue;
		char path[300];
		snprintf(path, sizeof path, "models/networks/%s", file);
		trim_network *net = NULL;
		int rc = trim_network_load(&net, path);
		ck_assert_msg(rc == 0, "%s: %s", path, trim_last_error());
		double em = (double)trim_network_macs(net) / (double)macs - 1;
		double ep = (double)trim_network_params(net) / (double)params - 1;
		ck_assert_msg(tol <= 0.01, "%s: tolerance above 1%%", file);
		ck_assert_msg(em <= tol && em >= -tol, "%s: %lld MACs vs published %lld", file,
		              (long long)trim_network_macs(net), macs);
		ck_assert_msg(ep <= tol && ep >= -tol, "%s: %lld params vs published %lld", file,
		              (long long)trim_network_params(net), params);
		trim_network_free(net);
		rows++;
	}
	fclose(f);
	ck_assert_int_ge(rows, 16);
}
END_TEST

/* Loop nests of the three phases of a strided, padded, grouped convolution. */
START_TEST(test_phase_nests)
{
	trim_workloads *w = analyse(
		"network: {name: n, input: [9, 9, 4], batch: 2, mode: training}\n"
		"layers:\n"
		"  - {name: c0, type: conv2d, filters: 4, kernel: 1}\n"
		"  - {name: c1, type: conv2d, filters: 6, kernel: 3, strides: 2, padding: 1, groups: 2}\n",
		TRIM_MODE_DEFAULT, NULL);
	size_t fw, bw, wg;
	ck_assert_int_eq(trim_workloads_find(w, "c1", TRIM_PHASE_FW, &fw), 0);
	ck_assert_int_eq(trim_workloads_find(w, "c1", TRIM_PHASE_BW, &bw), 0);
	ck_assert_int_eq(trim_workloads_find(w, "c1", TRIM_PHASE_WG, &wg), 0);
	int64_t b[TRIM_NDIMS];
	/* FW: N=2 G=2 M=3 C=2 E=F=(9+2-3)/2+1=5 R=S=3 */
	trim_workloads_intra_bounds(w, fw, b, TRIM_NDIMS);
	int64_t efw[] = {2, 2, 3, 2, 5, 5, 3, 3};
	ck_assert_mem_eq(b, efw, sizeof efw);
	/* BW: result channels = input channels, reduction = filters, E,F = input size */
	trim_workloads_intra_bounds(w, bw, b, TRIM_NDIMS);
	int64_t ebw[] = {2, 2, 2, 3, 9, 9, 3, 3};
	ck_assert_mem_eq(b, ebw, sizeof ebw);
	trim_workloads_intra_bounds(w, wg, b, TRIM_NDIMS);
	ck_assert_mem_eq(b, efw, sizeof efw);
	ck_assert_str_eq(trim_workloads_tensor_name(w, bw, 0), "dY");
	ck_assert_str_eq(trim_workloads_tensor_name(w, bw, 2), "dX");
	ck_assert_str_eq(trim_workloads_tensor_name(w, wg, 2), "dW");
	/* dW has the weights' shape, dX the input's */
	ck_assert_int_eq(trim_workloads_tensor_elems(w, wg, 2), 6 * 2 * 9);
	ck_assert_int_eq(trim_workloads_tensor_elems(w, bw, 2), 2 * 4 * 81);
	/* BW operand: dY upsampled (stride 2) and padded to 9 + 2 = 11 rows */
	ck_assert_int_eq(trim_workloads_tensor_elems(w, bw, 0), 2 * 6 * 11 * 11);
	/* c0 is the first layer: no BW */
	ck_assert_int_eq(trim_workloads_find(w, "c0", TRIM_PHASE_BW, &fw), TRIM_ENOTFOUND);
	trim_workloads_free(w);
}
END_TEST

/* Exact zero-MAC counts: brute force over the FW loop nest, and the identity
 * that every phase has the same number of MACs with two real operands. */
static int64_t brute_nonzero_fw(int64_t H, int64_t W, int64_t R, int64_t S, int64_t U,
                                int64_t V, int64_t D, const int64_t pad[4], int64_t E, int64_t F)
{
	int64_t n = 0;
	for (int64_t e = 0; e < E; e++)
		for (int64_t f = 0; f < F; f++)
			for (int64_t r = 0; r < R; r++)
				for (int64_t s = 0; s < S; s++) {
					int64_t h = U * e + D * r - pad[0], x = V * f + D * s - pad[2];
					if (h >= 0 && h < H && x >= 0 && x < W)
						n++;
				}
	return n;
}

START_TEST(test_zero_macs_exact)
{
	unsigned seed = 12345;
	for (int it = 0; it < 60; it++) {
		seed = seed * 1103515245u + 12345u;
		int64_t H = 3 + (seed >> 8) % 9, W = 3 + (seed >> 12) % 9;
		int64_t R = 1 + (seed >> 16) % 4, S = 1 + (seed >> 18) % 4;
		int64_t U = 1 + (seed >> 20) % 3, V = 1 + (seed >> 22) % 3, D = 1 + (seed >> 24) % 2;
		int64_t pad[4] = {(seed >> 26) % 3, (seed >> 27) % 3, (seed >> 28) % 3, (seed >> 29) % 3};
		if (H + pad[0] + pad[1] < D * (R - 1) + 1 || W + pad[2] + pad[3] < D * (S - 1) + 1)
			continue;
		char yaml[600];
		snprintf(yaml, sizeof yaml,
		         "network: {name: z, input: [%lld, %lld, 2], batch: 2, mode: training}\n"
		         "layers:\n"
		         "  - {name: a, type: conv2d, filters: 2, kernel: 1}\n"
		         "  - {name: b, type: conv2d, filters: 3, kernel: [%lld, %lld], strides: [%lld, %lld],"
		         " dilation: %lld, padding: [[%lld, %lld], [%lld, %lld]]}\n",
		         (long long)H, (long long)W, (long long)R, (long long)S, (long long)U,
		         (long long)V, (long long)D, (long long)pad[0], (long long)pad[1],
		         (long long)pad[2], (long long)pad[3]);
		trim_workloads *w = analyse(yaml, TRIM_MODE_DEFAULT, NULL);
		size_t fw, bw, wg;
		ck_assert_int_eq(trim_workloads_find(w, "b", TRIM_PHASE_FW, &fw), 0);
		ck_assert_int_eq(trim_workloads_find(w, "b", TRIM_PHASE_BW, &bw), 0);
		ck_assert_int_eq(trim_workloads_find(w, "b", TRIM_PHASE_WG, &wg), 0);
		int64_t b[TRIM_NDIMS];
		trim_workloads_intra_bounds(w, fw, b, TRIM_NDIMS);
		int64_t per = b[TRIM_DIM_N] * b[TRIM_DIM_G] * b[TRIM_DIM_M] * b[TRIM_DIM_C];
		int64_t real = per * brute_nonzero_fw(H, W, R, S, U, V, D, pad, b[TRIM_DIM_E], b[TRIM_DIM_F]);
		int64_t nz_fw = trim_workloads_intra_macs(w, fw) - trim_workloads_intra_zero_macs(w, fw);
		int64_t nz_bw = trim_workloads_intra_macs(w, bw) - trim_workloads_intra_zero_macs(w, bw);
		int64_t nz_wg = trim_workloads_intra_macs(w, wg) - trim_workloads_intra_zero_macs(w, wg);
		ck_assert_msg(nz_fw == real, "case %d: FW %lld vs brute %lld", it, (long long)nz_fw,
		              (long long)real);
		ck_assert_msg(nz_bw == real, "case %d (H%lld R%lld U%lld D%lld pad %lld/%lld): BW %lld vs %lld",
		              it, (long long)H, (long long)R, (long long)U, (long long)D,
		              (long long)pad[0], (long long)pad[1], (long long)nz_bw, (long long)real);
		ck_assert_int_eq(nz_wg, real);
		trim_workloads_free(w);
	}
}
END_TEST

/* Hand-worked preprocessing: padding a 2x5x5x3 input by 1 adds 2*3*(49-25) = 144 zeros;
 * BW of a stride-2 3x3 conv (5x5 -> 3x3 with pad 1, dilation 1): dY 3x3 is upsampled to 5x5
 * and padded by R-1-pad = 1 on top/left (and 1 at the bottom/right) into 7x7: zeros =
 * 2*4*(49-9) = 320. */
START_TEST(test_preprocessing_zeros)
{
	trim_workloads *w = analyse(
		"network: {name: p, input: [5, 5, 3], batch: 2, mode: training}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 3, kernel: 1}\n"
		"  - {name: b, type: conv2d, filters: 4, kernel: 3, strides: 2, padding: 1}\n",
		TRIM_MODE_DEFAULT, NULL);
	int found_pad = 0, found_up = 0, found_tr = 0;
	for (size_t j = 0; j < trim_workloads_inter_count(w); j++) {
		int op = trim_workloads_inter_op(w, j);
		if (strcmp(trim_workloads_inter_layer(w, j), "b"))
			continue;
		if (op == TRIM_INTER_PAD) {
			ck_assert_int_eq(trim_workloads_inter_zeros(w, j), 144);
			found_pad++;
		} else if (op == TRIM_INTER_UPSAMPLE_PAD) {
			ck_assert_int_eq(trim_workloads_inter_zeros(w, j), 320);
			found_up++;
		} else if (op == TRIM_INTER_TRANSPOSE) {
			ck_assert_int_eq(trim_workloads_inter_zeros(w, j), 0);
			found_tr++;
		}
	}
	ck_assert_int_eq(found_pad, 2); /* FW and WG */
	ck_assert_int_eq(found_up, 1);
	ck_assert_int_eq(found_tr, 1);
	trim_workloads_free(w);
}
END_TEST

/* Caching on TRIM's Fig. 4 pattern: x1 (output of FW1) lives until WG of the layer
 * that consumes it. Network: conv a (relu) -> conv b (relu) -> flatten -> dense c.
 * Sequence: 0 FW a, 1 FW b, 2 FW c, 3 BW c, 4 WG c, 5 BW b, 6 WG b, 7 WG a. */
START_TEST(test_caching_lifetimes)
{
	trim_workloads *w = analyse(
		"network: {name: c, input: [4, 4, 1], batch: 1, mode: training, word_bits: 32}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 2, kernel: 3, padding: same, activation: relu}\n"
		"  - {name: b, type: conv2d, filters: 2, kernel: 3, padding: same, activation: relu}\n"
		"  - {name: f, type: flatten}\n"
		"  - {name: c, type: dense, units: 3}\n",
		TRIM_MODE_DEFAULT, NULL);
	ck_assert_int_eq(trim_workloads_intra_count(w), 8);
	struct { const char *layer; int64_t bytes, created, freed; } want[] = {
		{"input", 16 * 4, 0, 7}, /* network input, for WG a */
		{"a", 32 * 4, 0, 6},     /* a's output: WG b, and a's ReLU mask until WG a... */
		{"b", 32 * 4, 1, 6},     /* b's output: ReLU mask of b until BW/WG b */
		{"f", 32 * 4, 1, 4},     /* flattened b: WG c */
	};
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		int found = 0;
		for (size_t j = 0; j < trim_workloads_inter_count(w); j++) {
			if (trim_workloads_inter_op(w, j) != TRIM_INTER_CACHE ||
			    strcmp(trim_workloads_inter_layer(w, j), want[k].layer))
				continue;
			int64_t cr, fr;
			trim_workloads_inter_lifetime(w, j, &cr, &fr);
			ck_assert_int_eq(trim_workloads_inter_bytes(w, j), want[k].bytes);
			ck_assert_int_eq(cr, want[k].created);
			if (!strcmp(want[k].layer, "a")) /* a's ReLU is consumed by WG a (7) */
				ck_assert_int_eq(fr, 7);
			else
				ck_assert_int_eq(fr, want[k].freed);
			found = 1;
		}
		ck_assert_msg(found, "no cache entry for %s", want[k].layer);
	}
	int64_t live[8];
	ck_assert_int_eq(trim_workloads_cached_bytes(w, live, 8), 0);
	/* at index 1..4 all four entries are live: 64 + 128 + 128 + 128 */
	ck_assert_int_eq(live[2], 448);
	ck_assert_int_eq(live[7], 64 + 128);
	ck_assert_int_eq(trim_workloads_peak_cached_bytes(w), 448);
	trim_workloads_free(w);
}
END_TEST

/* Residual add: an eltwise intra workload, the shortcut kept until the add. */
START_TEST(test_residual_and_branches)
{
	trim_workloads *w = analyse(
		"network: {name: r, input: [4, 4, 2], batch: 1}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 2, kernel: 3, padding: same}\n"
		"  - {name: b, type: conv2d, filters: 2, kernel: 3, padding: same}\n"
		"  - {name: s, type: add, inputs: [b, a]}\n"
		"  - {name: p, type: maxpool2d, pool: 3, strides: 1, padding: same, inputs: [input]}\n"
		"  - {name: k, type: concat, inputs: [s, p]}\n",
		TRIM_MODE_INFERENCE, NULL);
	size_t i;
	ck_assert_int_eq(trim_workloads_find(w, "s", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_workloads_intra_kind(w, i), TRIM_WL_ELTWISE);
	ck_assert_int_eq(trim_workloads_intra_macs(w, i), 32);
	int shortcut_a = 0;
	for (size_t j = 0; j < trim_workloads_inter_count(w); j++)
		if (trim_workloads_inter_op(w, j) == TRIM_INTER_SHORTCUT &&
		    !strcmp(trim_workloads_inter_layer(w, j), "a")) {
			int64_t cr, fr;
			trim_workloads_inter_lifetime(w, j, &cr, &fr);
			ck_assert_int_eq(cr, 0);
			ck_assert_int_eq(fr, 2);
			shortcut_a = 1;
		}
	ck_assert(shortcut_a);
	trim_workloads_free(w);
	/* training: the pool branch from the input needs no BW */
	w = analyse(
		"network: {name: r, input: [4, 4, 2], batch: 1, mode: training}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 2, kernel: 3, padding: same}\n"
		"  - {name: p, type: maxpool2d, pool: 2, inputs: [input]}\n"
		"  - {name: q, type: maxpool2d, pool: 2, inputs: [a]}\n"
		"  - {name: k, type: concat, inputs: [q, p]}\n",
		TRIM_MODE_DEFAULT, NULL);
	ck_assert_int_eq(trim_workloads_find(w, "p", TRIM_PHASE_BW, &i), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_workloads_find(w, "q", TRIM_PHASE_BW, &i), 0);
	trim_workloads_free(w);
}
END_TEST

START_TEST(test_report_json)
{
	trim_workloads *w = analyse_file("models/networks/alexnet.yaml", TRIM_MODE_TRAINING);
	char *text = NULL;
	ck_assert_int_eq(trim_workloads_report(w, TRIM_FORMAT_JSON, &text), 0);
	ck_assert(strstr(text, "\"intra\": ["));
	ck_assert(strstr(text, "\"inter\": ["));
	ck_assert(strstr(text, "\"intra_count\": 29"));
	ck_assert(strstr(text, "\"peak_cached_bytes\": "));
	ck_assert(strstr(text, "\"phase\": \"WG\""));
	trim_string_free(text);
	ck_assert_int_eq(trim_workloads_report(w, 99, &text), TRIM_EINVAL);
	ck_assert_ptr_null(text);
	ck_assert_str_eq(trim_last_error(), "trim_workloads_report: format 99 (unknown) is not offered; table, json, csv");
	ck_assert_int_eq(trim_workloads_report(w, TRIM_FORMAT_YAML, &text), TRIM_EINVAL);
	ck_assert_str_eq(trim_last_error(), "trim_workloads_report: format 3 (yaml) is not offered; table, json, csv");
	trim_workloads_free(w);
}
END_TEST

/* Golden dump: the full analysis of TRIM's Fig. 2 network in training, byte for
 * byte (regenerate with TRIM_UPDATE_GOLDEN=1 after an intended change, and
 * review the diff). */
START_TEST(test_golden_dump)
{
	const char *golden = "test/golden/trim-fig2-training.json";
	trim_workloads *w = analyse_file("models/networks/trim-fig2.yaml", TRIM_MODE_TRAINING);
	char *text = NULL;
	ck_assert_int_eq(trim_workloads_report(w, TRIM_FORMAT_JSON, &text), 0);
	if (getenv("TRIM_UPDATE_GOLDEN")) {
		FILE *f = fopen(golden, "w");
		ck_assert(f && fputs(text, f) >= 0 && fclose(f) == 0);
	}
	FILE *f = fopen(golden, "r");
	ck_assert_msg(f != NULL, "%s missing", golden);
	static char want[1 << 20];
	size_t n = fread(want, 1, sizeof want - 1, f);
	want[n] = '\0';
	fclose(f);
	ck_assert_msg(strcmp(text, want) == 0, "the analysis of trim-fig2 differs from %s", golden);
	trim_string_free(text);
	trim_workloads_free(w);
}
END_TEST

/* Counts that do not fit in 64 bits are errors naming the file, the layer's
 * line and the layer (they wrapped to negative MACs with status 0). */
static void expect_overflow(const char *yaml, int at_load, const char *where, const char *what)
{
	trim_network *net = NULL;
	trim_workloads *w = (trim_workloads *)1;
	int rc = trim_network_load_string(&net, yaml, "big.yaml");
	if (at_load) {
		ck_assert_msg(rc == TRIM_ERANGE, "load: %d %s", rc, trim_last_error());
		ck_assert_ptr_null(net);
	} else {
		ck_assert_msg(rc == 0, "%s", trim_last_error());
		rc = trim_workloads_create(&w, net, TRIM_MODE_DEFAULT, 0, 0);
		ck_assert_msg(rc == TRIM_ERANGE, "workloads: %d %s", rc, trim_last_error());
		ck_assert_ptr_null(w);
		trim_network_free(net);
	}
	const char *msg = trim_last_error();
	ck_assert_msg(strstr(msg, where) && strstr(msg, what), "'%s' lacks '%s' or '%s'", msg,
	              where, what);
}

START_TEST(test_count_overflow)
{
	/* MACs per sample: 2147483647^2 x 3 */
	expect_overflow("network: {name: n, input: [2147483647, 2147483647, 3]}\n"
	                "layers:\n"
	                "  - {name: big, type: conv2d, filters: 1, kernel: 1}\n",
	                1, "big.yaml:3:5", "'big': its MACs per sample overflow");
	/* a flatten of 2^93 elements, then a dense layer */
	expect_overflow("network: {name: n, input: [2147483647, 2147483647, 2147483647]}\n"
	                "layers:\n"
	                "  - {name: flat, type: flatten}\n"
	                "  - {type: dense, units: 10}\n",
	                1, "big.yaml:3:5", "'flat': its output elements overflow");
	/* dense: 2^34 inputs x 2^31 units */
	expect_overflow("network: {name: n, input: [65536, 65536, 4]}\n"
	                "layers:\n"
	                "  - {type: flatten}\n"
	                "  - {name: fc, type: dense, units: 2147483647}\n",
	                1, "big.yaml:4:5", "'fc': its parameters overflow");
	/* the network total: two layers of 2^62 MACs each */
	expect_overflow("network: {name: n, input: [65536, 65536, 32768]}\n"
	                "layers:\n"
	                "  - {name: a, type: conv2d, filters: 32768, kernel: 1}\n"
	                "  - {name: b, type: conv2d, filters: 32768, kernel: 1}\n",
	                1, "big.yaml:4:5", "MACs per sample overflow 64 bits at layer 'b'");
	/* per-sample counts fit; times the batch they do not (FW MACs) */
	expect_overflow("network: {name: n, input: [1024, 1024, 4096], batch: 65536}\n"
	                "layers:\n"
	                "  - {name: bn, type: batchnorm}\n"
	                "  - {name: conv1, type: conv2d, filters: 4096, kernel: 3, padding: same}\n",
	                0, "big.yaml:4:5: layers[1]",
	                "'conv1': the FW workload's MACs overflow 64 bits at batch 65536");
	/* a tensor (the batch's input activations) with more than 2^63 elements;
	 * a max-pool has no per-sample MACs, so only the workload's count can catch it */
	expect_overflow("network: {name: n, input: [2147483647, 2147483647, 1], batch: 4}\n"
	                "layers:\n"
	                "  - {name: pool, type: maxpool2d, pool: 1}\n",
	                0, "layers[0]", "'pool': the FW workload's");
	/* the sum over workloads of counts that each fit: FW + WG of 2^62 each */
	expect_overflow("network: {name: n, input: [65536, 65536, 32768], mode: training}\n"
	                "layers:\n"
	                "  - {name: only, type: conv2d, filters: 32768, kernel: 1}\n",
	                0, "layers[0]", "total MACs of the network's workloads overflow");
	/* the same from the CLI: exit 2, the file, line and layer named */
	int st;
	char *out = tu_capture("workloads test/data/bad/overflow_macs.yaml", 1, &st);
	ck_assert_msg(st == 2, "status %d: %s", st, out);
	ck_assert_msg(strstr(out, "test/data/bad/overflow_macs.yaml:6:5") && strstr(out, "'conv1'"),
	              "%s", out);
	free(out);
	out = tu_capture("network test/data/bad/overflow_macs.yaml models/arch/eyeriss.yaml "
	                 "--dataflow row-stationary --quiet",
	                 1, &st);
	ck_assert_msg(st == 2, "status %d: %s", st, out);
	ck_assert_msg(strstr(out, "test/data/bad/overflow_macs.yaml:6:5") && strstr(out, "'conv1'"),
	              "%s", out);
	free(out);
}
END_TEST

/* Zero counting stays fast on layers within the documented ranges: a 65536-row
 * window over 2^20 rows (2^36 (e, r) pairs) is counted in closed form. */
START_TEST(test_zero_count_large_layer)
{
	trim_workloads *w = analyse(
		"network: {name: big, input: [1048576, 2, 1], mode: training}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 1, kernel: 1}\n"
		"  - {name: b, type: conv2d, filters: 1, kernel: [65536, 1], strides: [2, 1],"
		" padding: same}\n",
		TRIM_MODE_DEFAULT, NULL);
	size_t fw, bw;
	ck_assert_int_eq(trim_workloads_find(w, "b", TRIM_PHASE_FW, &fw), 0);
	ck_assert_int_eq(trim_workloads_find(w, "b", TRIM_PHASE_BW, &bw), 0);
	/* every phase has the same real MACs (docs/model.md, section 2) */
	ck_assert_int_eq(trim_workloads_intra_macs(w, fw) - trim_workloads_intra_zero_macs(w, fw),
	                 trim_workloads_intra_macs(w, bw) - trim_workloads_intra_zero_macs(w, bw));
	ck_assert_int_gt(trim_workloads_intra_zero_macs(w, fw), 0);
	trim_workloads_free(w);
}
END_TEST

Suite *workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_alexnet_counts);
	tcase_add_test(tc, test_published_counts);
	tcase_add_test(tc, test_phase_nests);
	tcase_add_test(tc, test_zero_macs_exact);
	tcase_add_test(tc, test_preprocessing_zeros);
	tcase_add_test(tc, test_caching_lifetimes);
	tcase_add_test(tc, test_residual_and_branches);
	tcase_add_test(tc, test_report_json);
	tcase_add_test(tc, test_golden_dump);
	tcase_add_test(tc, test_count_overflow);
	tcase_add_test(tc, test_zero_count_large_layer);
	suite_add_tcase(s, tc);
	return s;
}
