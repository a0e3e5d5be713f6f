/* ReLU-driven sparsity: the mask identity, the BatchNorm case, joint sparsity,
 * propagation, traces, and the load-imbalance model. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "trim.h"
#include "trim/sparsity.h"

/* c0 (ReLU, 40% zeros) -> c1 (linear) -> bn -> r1 (ReLU, 60%) -> p (maxpool 2x2)
 * -> c2 (ReLU, 50%) -> flatten -> fc */
static const char *NET =
	"network: {name: s, input: [8, 8, 2], batch: 2, mode: training}\n"
	"layers:\n"
	"  - {name: c0, type: conv2d, filters: 4, kernel: 3, padding: same, activation: relu, sparsity: 0.4}\n"
	"  - {name: c1, type: conv2d, filters: 4, kernel: 3, padding: same, use_bias: false}\n"
	"  - {name: bn, type: batchnorm}\n"
	"  - {name: r1, type: activation, activation: relu, sparsity: 0.6}\n"
	"  - {name: p, type: maxpool2d, pool: 2}\n"
	"  - {name: c2, type: conv2d, filters: 4, kernel: 3, padding: same, activation: relu,\n"
	"     sparsity: {activation: 0.5, gradient: 0.45}}\n"
	"  - {type: flatten}\n"
	"  - {name: fc, type: dense, units: 3}\n";

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_sparsity *sp;
} fixture;

static fixture make(const char *yaml)
{
	fixture f = {0};
	ck_assert_msg(trim_network_load_string(&f.net, yaml, "s.yaml") == 0, "%s", trim_last_error());
	ck_assert(trim_workloads_create(&f.w, f.net, TRIM_MODE_DEFAULT, 0, 0) == 0);
	ck_assert_msg(trim_sparsity_create(&f.sp, f.net, f.w) == 0, "%s", trim_last_error());
	return f;
}

static void drop(fixture *f)
{
	trim_sparsity_free(f->sp);
	trim_workloads_free(f->w);
	trim_network_free(f->net);
}

static void fields(const fixture *f, const char *layer, int phase, double *v)
{
	size_t i;
	ck_assert_int_eq(trim_workloads_find(f->w, layer, phase, &i), 0);
	ck_assert_int_eq(trim_sparsity_workload(f->sp, i, v, TRIM_SP_NFIELDS), 0);
}

/* The imbalance factor, or the (negative) error code. */
static double imb(int64_t units, double density, int64_t pes, double cv, double threshold)
{
	double f = 0;
	int rc = trim_sparsity_imbalance(units, density, pes, cv, threshold, &f);
	return rc ? rc : f;
}

static double layer_sp(const trim_sparsity *sp, const char *name)
{
	double v = 0;
	int rc = trim_sparsity_layer(sp, name, &v);
	return rc ? rc : v;
}

#define EQ(a, b) ck_assert_msg(fabs((a) - (b)) < 1e-12, "%s = %.15g, expected %.15g", #a, (double)(a), (double)(b))

START_TEST(test_relu_mask_identity)
{
	fixture f = make(NET);
	double v[TRIM_SP_NFIELDS];
	/* c2 computes on p's output: maxpool 2x2 of 60% zeros -> 0.6^4 zeros */
	fields(&f, "c2", TRIM_PHASE_FW, v);
	EQ(v[TRIM_SP_OPERAND0], pow(0.6, 4));
	EQ(v[TRIM_SP_OPERAND1], 0);
	/* c2 BW: its ReLU masks dY (measured gradient sparsity 0.45 given); the
	 * outputs dX are useless where p's (ReLU-derived) output is zero */
	fields(&f, "c2", TRIM_PHASE_BW, v);
	EQ(v[TRIM_SP_OPERAND0], 0.45);
	EQ(v[TRIM_SP_OUTPUT], pow(0.6, 4));
	EQ(v[TRIM_SP_FACTOR], (1 - 0.45) * (1 - pow(0.6, 4)));
	/* without a measured gradient figure, the identity: dY zeros = activation zeros */
	fixture g = make(
		"network: {name: i, input: [6, 6, 1], mode: training}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 2, kernel: 3, activation: relu, sparsity: 0.35}\n"
		"  - {name: b, type: conv2d, filters: 2, kernel: 3, activation: relu, sparsity: 0.5}\n");
	fields(&g, "b", TRIM_PHASE_BW, v);
	EQ(v[TRIM_SP_OPERAND0], 0.5);
	EQ(v[TRIM_SP_OUTPUT], 0.35);
	drop(&g);
	drop(&f);
}
END_TEST

START_TEST(test_batchnorm_case)
{
	fixture f = make(NET);
	double v[TRIM_SP_NFIELDS];
	/* c1 -> bn -> relu: the gradient reaching c1 is dense (BN renormalises it) ... */
	fields(&f, "c1", TRIM_PHASE_BW, v);
	EQ(v[TRIM_SP_OPERAND0], 0);
	/* ... but c1's BW outputs are still masked by c0's ReLU (40%) */
	EQ(v[TRIM_SP_OUTPUT], 0.4);
	EQ(v[TRIM_SP_FACTOR], 0.6);
	/* and c1's FW reads c0's sparse output */
	fields(&f, "c1", TRIM_PHASE_FW, v);
	EQ(v[TRIM_SP_OPERAND0], 0.4);
	drop(&f);
}
END_TEST

START_TEST(test_joint_product)
{
	fixture f = make(NET);
	double v[TRIM_SP_NFIELDS];
	/* WG of c2: ifmap (0.6^4 zeros) x dY (0.45 zeros): (1 - s0)(1 - s1) */
	fields(&f, "c2", TRIM_PHASE_WG, v);
	EQ(v[TRIM_SP_OPERAND0], pow(0.6, 4));
	EQ(v[TRIM_SP_OPERAND1], 0.45);
	EQ(v[TRIM_SP_FACTOR], (1 - pow(0.6, 4)) * (1 - 0.45));
	/* fc reads the flattened c2 output (50%); its BW outputs are masked by it */
	fields(&f, "fc", TRIM_PHASE_BW, v);
	EQ(v[TRIM_SP_OUTPUT], 0.5);
	EQ(v[TRIM_SP_OPERAND0], 0); /* fc is linear: dense incoming gradient */
	/* the pool's BW routes gradients that c1's... r1's ReLU then zeroes */
	fields(&f, "p", TRIM_PHASE_BW, v);
	EQ(v[TRIM_SP_OUTPUT], 0.6);
	EQ(layer_sp(f.sp, "p"), pow(0.6, 4));
	EQ(layer_sp(f.sp, "bn"), 0);
	EQ(layer_sp(f.sp, "nope"), TRIM_ENOTFOUND);
	drop(&f);
}
END_TEST

START_TEST(test_network_default_and_schema)
{
	fixture f = make(
		"network: {name: d, input: [6, 6, 1], mode: training, sparsity: 0.3}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 2, kernel: 3, activation: relu}\n"
		"  - {name: b, type: conv2d, filters: 2, kernel: 3}\n");
	double v[TRIM_SP_NFIELDS];
	fields(&f, "b", TRIM_PHASE_FW, v);
	EQ(v[TRIM_SP_OPERAND0], 0.3);
	/* the default can be changed through the API */
	ck_assert_int_eq(trim_sparsity_set_default(f.sp, 0.6), 0);
	fields(&f, "b", TRIM_PHASE_FW, v);
	EQ(v[TRIM_SP_OPERAND0], 0.6);
	ck_assert_int_eq(trim_sparsity_set_default(f.sp, 1.0), TRIM_ERANGE);
	drop(&f);
	trim_network *net = NULL;
	ck_assert_int_eq(trim_network_load_string(&net,
		"network: {name: d, input: [6, 6, 1]}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 2, kernel: 3, sparsity: 0.5}\n", "lin.yaml"),
		TRIM_ESCHEMA);
	ck_assert(strstr(trim_last_error(), "lin.yaml:3:") && strstr(trim_last_error(), "layers[0].sparsity"));
	ck_assert_int_eq(trim_network_load_string(&net,
		"network: {name: d, input: [6, 6, 1]}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 2, kernel: 3, activation: relu, sparsity: 1.5}\n", "r.yaml"),
		TRIM_ERANGE);
}
END_TEST

/* A map's borders: zero padding adds zeros that no ReLU made (s = 1 - (1 - s_in)
 * in / out: 4 x 4 padded to 6 x 5), cropping keeps the input's share. */
START_TEST(test_borders)
{
	fixture f = make(
		"network: {name: d, input: [4, 4, 1], mode: training}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 2, kernel: 1, activation: relu, sparsity: 0.4}\n"
		"  - {name: p, type: zeropad2d, padding: [[1, 1], [0, 1]]}\n"
		"  - {name: b, type: conv2d, filters: 2, kernel: 1}\n"
		"  - {name: k, type: cropping2d, cropping: [[1, 1], [0, 1]], inputs: [p]}\n"
		"  - {name: c, type: conv2d, filters: 2, kernel: 1}\n");
	EQ(layer_sp(f.sp, "p"), 1 - 0.6 * 16 / 30);
	EQ(layer_sp(f.sp, "k"), layer_sp(f.sp, "p"));
	double v[TRIM_SP_NFIELDS];
	fields(&f, "b", TRIM_PHASE_FW, v);
	EQ(v[TRIM_SP_OPERAND0], 1 - 0.6 * 16 / 30);
	drop(&f);
	f = make("network: {name: d, input: [4, 4, 1], mode: training}\n"
	         "layers:\n"
	         "  - {name: a, type: conv2d, filters: 2, kernel: 1, activation: relu, sparsity: 0.4}\n"
	         "  - {name: p, type: zeropad2d, padding: 0}\n"
	         "  - {name: b, type: conv2d, filters: 2, kernel: 1}\n");
	EQ(layer_sp(f.sp, "p"), 0.4); /* nothing padded: as the input */
	drop(&f);
}
END_TEST

START_TEST(test_trace)
{
	fixture f = make(NET);
	double v[TRIM_SP_NFIELDS];
	ck_assert_msg(trim_sparsity_load_trace(f.sp, "test/data/sparsity/trace.csv") == 0, "%s",
	              trim_last_error());
	fields(&f, "c1", TRIM_PHASE_BW, v);
	EQ(v[TRIM_SP_OUTPUT], 0.3);      /* c0 now 30% */
	EQ(v[TRIM_SP_SPREAD], 0.25);     /* spread inherited from c0 */
	fields(&f, "c2", TRIM_PHASE_BW, v);
	EQ(v[TRIM_SP_OUTPUT], pow(0.6, 4)); /* r1's activation unchanged */
	/* errors name file, line and column; nothing changes on error */
	ck_assert_int_eq(trim_sparsity_load_trace(f.sp, "test/data/sparsity/unknown_layer.csv"), TRIM_ENOTFOUND);
	ck_assert(strstr(trim_last_error(), "unknown_layer.csv:2:0: layer: no layer 'c9'"));
	ck_assert_int_eq(trim_sparsity_load_trace(f.sp, "test/data/sparsity/bad_number.csv"), TRIM_EPARSE);
	ck_assert(strstr(trim_last_error(), "bad_number.csv:3:0: activation_sparsity"));
	ck_assert_int_eq(trim_sparsity_load_trace(f.sp, "test/data/sparsity/bad_column.csv"), TRIM_EPARSE);
	ck_assert(strstr(trim_last_error(), "unknown column 'sparsity'"));
	ck_assert_int_eq(trim_sparsity_load_trace(f.sp, "test/data/sparsity/none.csv"), TRIM_EIO);
	double z = 0;
	ck_assert_int_eq(trim_sparsity_layer(f.sp, "c11", &z), TRIM_ENOTFOUND);
	ck_assert_str_eq(trim_last_error(), "no layer 'c11' in the network; did you mean 'c1'?");
	fields(&f, "c1", TRIM_PHASE_BW, v);
	EQ(v[TRIM_SP_OUTPUT], 0.3);
	drop(&f);
}
END_TEST

START_TEST(test_imbalance_exact)
{
	/* n = 1, p = 1/2, 2 PEs: E[max] = 1 - 1/4 = 3/4 over a mean of 1/2 */
	EQ(imb(1, 0.5, 2, 0, 0), 1.5);
	/* n = 2: F(0) = 1/4, F(1) = 3/4 -> E[max] = (1 - 1/16) + (1 - 9/16) = 1.375 */
	EQ(imb(2, 0.5, 2, 0, 0), 1.375);
	/* one PE, or no zeros: no imbalance */
	EQ(imb(1000, 0.3, 1, 0, 0), 1);
	EQ(imb(1000, 1.0, 64, 0, 0), 1);
	ck_assert(imb(-1, 0.5, 2, 0, 0) < 0);
	ck_assert(imb(10, 1.5, 2, 0, 0) < 0);
}
END_TEST

START_TEST(test_imbalance_properties)
{
	double prev = 1;
	for (int64_t P = 2; P <= 1024; P *= 4) { /* more PEs: a larger expected maximum */
		double f = imb(256, 0.5, P, 0, 0);
		ck_assert_msg(f > prev, "P=%lld: %g <= %g", (long long)P, f, prev);
		prev = f;
	}
	/* bigger tiles average out */
	ck_assert(imb(100000, 0.5, 256, 0, 0) <
	          imb(100, 0.5, 256, 0, 0));
	/* a per-channel spread makes it worse; redistribution at 30% caps it */
	double plain = imb(64, 0.4, 256, 0, 0);
	double spread = imb(64, 0.4, 256, 0.5, 0);
	ck_assert(spread > plain);
	ck_assert(plain > 1.3);
	EQ(imb(64, 0.4, 256, 0, 0.3), 1.3);
	/* never better than the ideal (1 - s) scaling */
	for (int k = 1; k < 10; k++)
		ck_assert(imb(50 * k, 0.1 * k, 16, 0, 0) >= 1);
	/* large tiles where GSL's binomial CDF fails (NaN) take the normal
	 * approximation: fc7 of AlexNet-CIFAR at batch 64 on 256 PEs, 4M MACs
	 * per PE, half of them skipped; E[max of 256 N(0,1)] is about 2.8 */
	double big = imb(4194304, 0.5, 256, 0, 0);
	ck_assert_msg(isfinite(big) && big > 1.0012 && big < 1.0016, "imbalance %g", big);
}
END_TEST

/* E[max] of binomials against a deterministic Monte-Carlo estimate. */
START_TEST(test_imbalance_monte_carlo)
{
	const int64_t n = 40, P = 16;
	const double p = 0.35;
	unsigned long long x = 88172645463325252ULL;
	double sum = 0;
	const int trials = 20000;
	for (int t = 0; t < trials; t++) {
		int64_t mx = 0;
		for (int64_t q = 0; q < P; q++) {
			int64_t c = 0;
			for (int64_t i = 0; i < n; i++) {
				x ^= x << 13; x ^= x >> 7; x ^= x << 17;
				c += (double)(x >> 11) / 9007199254740992.0 < p;
			}
			if (c > mx)
				mx = c;
		}
		sum += (double)mx;
	}
	double mc = sum / trials / (n * p);
	double f = imb(n, p, P, 0, 0);
	ck_assert_msg(fabs(f - mc) < 0.01, "model %g vs Monte-Carlo %g", f, mc);
}
END_TEST

Suite *sparsity_suite(void)
{
	Suite *s = suite_create("sparsity");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_relu_mask_identity);
	tcase_add_test(tc, test_batchnorm_case);
	tcase_add_test(tc, test_joint_product);
	tcase_add_test(tc, test_network_default_and_schema);
	tcase_add_test(tc, test_borders);
	tcase_add_test(tc, test_trace);
	tcase_add_test(tc, test_imbalance_exact);
	tcase_add_test(tc, test_imbalance_properties);
	tcase_add_test(tc, test_imbalance_monte_carlo);
	suite_add_tcase(s, tc);
	return s;
}
