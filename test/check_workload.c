/* The task analyst: workload counts, loop nests per phase, zeros, caching. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcase_util.h"
#include "trim.h"
#include "trim/sparsity.h"
#include "workload/workload_int.h"

static trim_workloads *analyse(const char *yaml, int mode, trim_network **netp)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	int rc = trim_network_load_string(&net, yaml, "t.yaml");
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	rc = trim_workloads_create(&w, net, mode, 0, 0);
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	if (netp)
		*netp = net;
	else
		trim_network_free(net);
	return w;
}

static trim_workloads *analyse_file(const char *path, int mode)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	int rc = trim_network_load(&net, path);
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	rc = trim_workloads_create(&w, net, mode, 0, 0);
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	trim_network_free(net);
	return w;
}

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
