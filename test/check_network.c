/* Network descriptions: loading, shape inference, counts, and every kind of bad input. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "trim.h"

static trim_network *load_ok(const char *yaml)
{
	trim_network *net = NULL;
	int rc = trim_network_load_string(&net, yaml, "t.yaml");
	ck_assert_msg(rc == 0, "load failed: %s", trim_last_error());
	return net;
}

START_TEST(test_shapes_and_counts)
{
	/* conv 3x3 same on 8x8x3 -> 8x8x4; maxpool 2 -> 4x4x4; flatten 64; dense 10 */
	trim_network *net = load_ok(
		"network: {name: tiny, input: [8, 8, 3], output: [10], batch: 2}\n"
		"layers:\n"
		"  - {name: c1, type: conv2d, filters: 4, kernel: 3, padding: same, activation: relu}\n"
		"  - {name: p1, type: maxpool2d, pool: 2}\n"
		"  - {type: flatten}\n"
		"  - {name: fc, type: dense, units: 10}\n");
	int64_t s[3];
	ck_assert_int_eq(trim_network_layer_count(net), 4);
	ck_assert_int_eq(trim_network_layer_shape(net, 0, s, 3), 0);
	ck_assert(s[0] == 8 && s[1] == 8 && s[2] == 4);
	trim_network_layer_shape(net, 1, s, 3);
	ck_assert(s[0] == 4 && s[1] == 4 && s[2] == 4);
	trim_network_layer_shape(net, 2, s, 3);
	ck_assert(s[0] == 1 && s[1] == 1 && s[2] == 64);
	ck_assert_str_eq(trim_network_layer_name(net, 2), "flatten2");
	/* params: 3*3*3*4 + 4 = 112; 64*10 + 10 = 650 */
	ck_assert_int_eq(trim_network_params(net), 112 + 650);
	/* MACs: 8*8*4*3*9 = 6912; 640 */
	ck_assert_int_eq(trim_network_macs(net), 6912 + 640);
	ck_assert_int_eq(trim_network_batch(net), 2);
	ck_assert_int_eq(trim_network_mode(net), TRIM_MODE_INFERENCE);
	trim_network_free(net);
}
END_TEST

START_TEST(test_padding_forms)
{
	/* TF 'same' with stride 2 on 7 rows, kernel 3: out 4, pad total 2 -> 1/1;
	 * on 8 rows: out 4, pad total 1 -> 0 top, 1 bottom. Explicit [[0, 2], [1, 1]]. */
	trim_network *net = load_ok(
		"network: {name: p, input: [7, 8, 2]}\n"
		"layers:\n"
		"  - {name: a, type: conv2d, filters: 2, kernel: 3, strides: 2, padding: same}\n"
		"  - {name: b, type: conv2d, filters: 2, kernel: [3, 1], padding: [[0, 2], [1, 1]]}\n"
		"  - {name: c, type: conv2d, filters: 2, kernel: 3, dilation: 2, padding: 2}\n"
		"  - {name: d, type: maxpool2d, pool: 3, strides: 1, padding: same}\n");
	int64_t s[3];
	trim_network_layer_shape(net, 0, s, 3);
	ck_assert(s[0] == 4 && s[1] == 4);
	trim_network_layer_shape(net, 1, s, 3); /* rows 4+2-3+1 = 4, cols 4+2-1+1 = 6 */
	ck_assert_msg(s[0] == 4 && s[1] == 6, "got %lld x %lld", (long long)s[0], (long long)s[1]);
	trim_network_layer_shape(net, 2, s, 3); /* dilated 3x3 spans 5; 4+4-5+1 = 4 */
	ck_assert(s[0] == 4 && s[1] == 6);
	trim_network_layer_shape(net, 3, s, 3);
	ck_assert(s[0] == 4 && s[1] == 6 && s[2] == 2);
	trim_network_free(net);
}
END_TEST

START_TEST(test_grouped_depthwise_residual_concat)
{
	trim_network *net = load_ok(
		"network: {name: g, input: [8, 8, 8]}\n"
		"layers:\n"
		"  - {name: g1, type: conv2d, filters: 16, kernel: 3, padding: same, groups: 4, use_bias: false}\n"
		"  - {name: dw, type: depthwise_conv2d, kernel: 3, padding: same, depth_multiplier: 2}\n"
		"  - {name: bn, type: batchnorm}\n"
		"  - {name: r, type: activation, activation: relu}\n"
		"  - {name: sc, type: conv2d, filters: 32, kernel: 1, inputs: [input]}\n"
		"  - {name: sum, type: add, inputs: [r, sc], activation: relu}\n"
		"  - {name: cat, type: concat, inputs: [sum, g1]}\n"
		"  - {name: gap, type: global_avgpool}\n");
	int64_t s[3];
	trim_network_layer_shape(net, 1, s, 3);
	ck_assert_int_eq(s[2], 32);
	trim_network_layer_shape(net, 6, s, 3);
	ck_assert_int_eq(s[2], 48);
	trim_network_layer_shape(net, 7, s, 3);
	ck_assert(s[0] == 1 && s[1] == 1 && s[2] == 48);
	/* params: g1 9*2*16 = 288; dw 9*16*2 + 32 = 320; bn 64; sc 8*32 + 32 = 288 */
	ck_assert_int_eq(trim_network_params(net), 288 + 320 + 64 + 288);
	/* MACs: g1 64*16*2*9 = 18432; dw 64*32*9 = 18432; sc 64*32*8 = 16384 */
	ck_assert_int_eq(trim_network_macs(net), 18432 + 18432 + 16384);
	trim_network_free(net);
}
END_TEST

/* A bad file gives the expected code and a message with file:line:col and the key path. */
static void expect_bad(const char *file, int code, const char *where, const char *what)
{
	char path[256];
	snprintf(path, sizeof path, "test/data/bad/%s", file);
	trim_network *net = (trim_network *)1;
	int rc = trim_network_load(&net, path);
	const char *msg = trim_last_error();
	ck_assert_msg(rc == code, "%s: expected %d got %d (%s)", file, code, rc, msg);
	ck_assert_ptr_null(net);
	ck_assert_msg(strstr(msg, where) != NULL, "%s: message '%s' lacks '%s'", file, msg, where);
	ck_assert_msg(strstr(msg, what) != NULL, "%s: message '%s' lacks '%s'", file, msg, what);
}

START_TEST(test_bad_inputs)
{
	expect_bad("malformed.yaml", TRIM_EPARSE, "malformed.yaml:4:", "malformed YAML");
	expect_bad("unknown_key.yaml", TRIM_ESCHEMA, "unknown_key.yaml:4:", "layers[1].stride");
	expect_bad("unknown_key.yaml", TRIM_ESCHEMA, "unknown_key.yaml:4:", "unknown key 'stride'");
	expect_bad("unknown_type.yaml", TRIM_ESCHEMA, "unknown_type.yaml:3:", "layers[0].type");
	expect_bad("unknown_type.yaml", TRIM_ESCHEMA, "unknown_type.yaml:3:", "conv3d");
	expect_bad("missing_field.yaml", TRIM_ESCHEMA, "missing_field.yaml:3:5", "'filters'");
	expect_bad("bad_shape.yaml", TRIM_ESHAPE, "bad_shape.yaml:3:", "larger than the padded input");
	expect_bad("unknown_input.yaml", TRIM_ENOTFOUND, "layers[1].inputs[1]", "unknown layer 'c9'");
	expect_bad("cycle.yaml", TRIM_ENOTFOUND, "layers[0].inputs[0]", "cycle or forward reference");
	expect_bad("in_shape.yaml", TRIM_ESHAPE, "layers[1].in_shape", "[6, 6, 4]");
	expect_bad("output.yaml", TRIM_ESHAPE, "network.output", "gives [1, 1, 12]");
	expect_bad("groups.yaml", TRIM_ESHAPE, "layers[0].groups", "must divide");
	expect_bad("add_shapes.yaml", TRIM_ESHAPE, "layers[2].inputs", "add needs equal shapes");
	expect_bad("bad_mode.yaml", TRIM_ESCHEMA, "network.mode", "learning");
	expect_bad("negative.yaml", TRIM_ERANGE, "network.batch", "out of range");
	expect_bad("does-not-exist.yaml", TRIM_EIO, "does-not-exist.yaml", "cannot open");
}
END_TEST

START_TEST(test_api_misuse)
{
	trim_network *net = NULL;
	ck_assert_int_eq(trim_network_load(NULL, "x"), TRIM_EINVAL);
	ck_assert_int_eq(trim_network_load(&net, NULL), TRIM_EINVAL);
	ck_assert_int_eq(trim_network_load_string(&net, "", "empty"), TRIM_EPARSE);
	ck_assert_int_eq(trim_network_load_string(&net, "[1, 2]", "seq"), TRIM_ESCHEMA);
	ck_assert_int_eq(
		trim_network_load_string(&net, "network: {name: x, input: [1,1,1]}\nlayers: []\n", "n"),
		TRIM_ESCHEMA);
	ck_assert_int_eq(trim_network_load_string(
		                 &net, "network: {name: x, input: [1,1,1], name: y}\nlayers: []\n", "d"),
	                 TRIM_ESCHEMA);
	ck_assert(strstr(trim_last_error(), "duplicate key 'name'"));
	trim_network_free(NULL);
	ck_assert_ptr_null(trim_network_layer_name(NULL, 0));
	ck_assert_str_eq(trim_strerror(TRIM_ESHAPE), "shape mismatch");
}
END_TEST

/* The CLI reports bad input with exit status 2 and one line naming file and field. */
START_TEST(test_cli_exit_codes)
{
	const char *cli = getenv("TRIM_CLI");
	if (!cli)
		cli = "build/bin/trim";
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s workloads test/data/bad/unknown_key.yaml 2>/dev/null", cli);
	int st = system(cmd);
	ck_assert_int_eq(WEXITSTATUS(st), 2);
	snprintf(cmd, sizeof cmd, "%s workloads --bogus 2>/dev/null", cli);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
	snprintf(cmd, sizeof cmd, "%s workloads models/networks/trim-fig2.yaml --format json >/dev/null", cli);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 0);
}
END_TEST

static void shape_is(const trim_network *net, const char *layer, int64_t h, int64_t w, int64_t c)
{
	for (size_t i = 0; i < trim_network_layer_count(net); i++) {
		if (strcmp(trim_network_layer_name(net, i), layer))
			continue;
		int64_t s[3];
		ck_assert_int_eq(trim_network_layer_shape(net, i, s, 3), 0);
		ck_assert_msg(s[0] == h && s[1] == w && s[2] == c,
		              "%s: [%lld, %lld, %lld], expected [%lld, %lld, %lld]", layer,
		              (long long)s[0], (long long)s[1], (long long)s[2], (long long)h,
		              (long long)w, (long long)c);
		return;
	}
	ck_abort_msg("no layer %s", layer);
}

/* A transformer block on 6 token ids: embedding, dense over [tokens, features],
 * attention as two matmuls with heads, softmax, layernorm, GELU. */
START_TEST(test_transformer_layers)
{
	trim_network *net = load_ok(
		"network: {name: tb, input: [6]}\n"
		"layers:\n"
		"  - {name: emb, type: embedding, vocab: 50, units: 8}\n"
		"  - {name: pos, type: parameter, shape: [6, 8]}\n"
		"  - {name: x, type: add, inputs: [emb, pos]}\n"
		"  - {name: q, type: dense, units: 8}\n"
		"  - {name: k, type: dense, units: 8, inputs: [x]}\n"
		"  - {name: v, type: dense, units: 8, inputs: [x], use_bias: false}\n"
		"  - {name: qk, type: matmul, inputs: [q, k], heads: 2, transpose_b: true}\n"
		"  - {name: sm, type: softmax}\n"
		"  - {name: av, type: matmul, inputs: [sm, v], heads: 2}\n"
		"  - {name: ln, type: layernorm}\n"
		"  - {name: ff, type: dense, units: 16, activation: gelu}\n"
		"  - {name: t, type: transpose, perm: [2, 1, 0]}\n"
		"  - {name: r, type: reshape, shape: [-1]}\n");
	shape_is(net, "emb", 6, 1, 8);
	shape_is(net, "q", 6, 1, 8);
	shape_is(net, "qk", 6, 1, 12); /* 2 heads x 6 keys */
	shape_is(net, "av", 6, 1, 8);  /* 2 heads x 4 values */
	shape_is(net, "ff", 6, 1, 16);
	shape_is(net, "t", 16, 1, 6);
	shape_is(net, "r", 1, 1, 96);
	/* params: 50*8 + 6*8 + 2 * (8*8 + 8) + 8*8 + 2*8 + 8*16 + 16 = 400 + 48 + 144 + 64 + 16 + 144 */
	ck_assert_int_eq(trim_network_params(net), 400 + 48 + 144 + 64 + 16 + 144);
	/* MACs: 3 dense 6*8*8; qk 2*6*4*6; av 2*6*6*4; ff 6*8*16 */
	ck_assert_int_eq(trim_network_macs(net), 3 * 384 + 288 + 288 + 768);
	trim_network_free(net);
}
END_TEST

/* Decoder layers: conv2d_transpose (PyTorch's and Keras's output sizes), upsample,
 * conv1d along rows, concat along rows, split. */
START_TEST(test_decoder_layers)
{
	trim_network *net = NULL;
	ck_assert_int_eq(trim_network_load_string(&net,
	                                          "network: {name: d, input: [5, 5, 4]}\n"
	                                          "layers:\n"
	                                          "  - {name: a, type: split, sizes: [1, 2], index: 0}\n",
	                                          "t.yaml"),
	                 TRIM_ESHAPE);
	ck_assert(strstr(trim_last_error(), "add up to 3"));
	net = load_ok(
		"network: {name: d, input: [5, 5, 4]}\n"
		"layers:\n"
		"  - {name: t1, type: conv2d_transpose, filters: 3, kernel: 3, strides: 2, padding: 1,"
		" output_padding: 1}\n"
		"  - {name: t2, type: conv2d_transpose, filters: 2, kernel: 2, strides: 2, inputs: [input]}\n"
		"  - {name: t3, type: conv2d_transpose, filters: 2, kernel: 3, strides: 2, padding: same,"
		" inputs: [input]}\n"
		"  - {name: u, type: upsample, size: [2, 3], interpolation: bilinear, inputs: [input]}\n"
		"  - {name: s, type: split, sizes: [1, 3], index: 1, inputs: [input]}\n"
		"  - {name: rows, type: concat, axis: 1, inputs: [input, input]}\n"
		"  - {name: seq, type: reshape, shape: [25, 4], inputs: [input]}\n"
		"  - {name: c1, type: conv1d, filters: 6, kernel: 3, strides: 2, padding: same}\n");
	/* PyTorch: (5-1)*2 - 2 + 3 + 1 = 10; (5-1)*2 + 2 = 10; Keras same: 5*2 = 10 */
	shape_is(net, "t1", 10, 10, 3);
	shape_is(net, "t2", 10, 10, 2);
	shape_is(net, "t3", 10, 10, 2);
	shape_is(net, "u", 10, 15, 4);
	shape_is(net, "s", 5, 5, 3);
	shape_is(net, "rows", 10, 5, 4);
	shape_is(net, "c1", 13, 1, 6);
	/* params: 3*3*4*3+3, 2*2*4*2+2, 3*3*4*2+2, conv1d 3*4*6+6 */
	ck_assert_int_eq(trim_network_params(net), 111 + 34 + 74 + 78);
	/* MACs of a transposed conv: every input times the kernel times the filters */
	ck_assert_int_eq(trim_network_macs(net), 25 * 4 * 3 * 9 + 25 * 4 * 2 * 4 + 25 * 4 * 2 * 9 +
	                                             13 * 6 * 4 * 3);
	trim_network_free(net);
	/* errors name the layer's key */
	static const struct {
		const char *layers, *where, *what;
	} bad[] = {
		{"  - {type: matmul, inputs: [input]}\n", "t.yaml:3:", "matmul needs at least two inputs"},
		{"  - {name: a, type: dense, units: 6}\n  - {type: matmul, inputs: [input, a], heads: 3}\n",
		 "layers[1]", "heads 3 must divide"},
		{"  - {type: matmul, inputs: [input, input]}\n", "layers[0]", "b with 4 rows"},
		{"  - {type: embedding, vocab: 3, units: 2}\n", "layers[0]", "token ids"},
		{"  - {type: reshape, shape: [7, -1]}\n", "layers[0].shape", "elements"},
		{"  - {type: reshape, shape: [2147483647, 2147483647, 2147483647]}\n", "layers[0].shape",
		 "elements"},
		{"  - {type: transpose, perm: [0, 0, 1]}\n", "t.yaml:3:", "perm must be a permutation"},
		{"  - {type: upsample, interpolation: cubic}\n", "layers[0].interpolation", "bilinear"},
		{"  - {type: conv1d, filters: 2, kernel: 3}\n", "layers[0]", "[steps, channels]"},
		{"  - {type: activation, activation: gelu, sparsity: 0.5}\n", "layers[0].sparsity",
		 "gelu"},
		{"  - {type: conv2d_transpose, filters: 2, kernel: 3, strides: 2, output_padding: 2}\n",
		 "t.yaml:3:", "must be smaller than the stride"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char yaml[512];
		snprintf(yaml, sizeof yaml, "network: {name: d, input: [4, 4, 4]}\nlayers:\n%s",
		         bad[k].layers);
		net = (trim_network *)1;
		ck_assert_int_lt(trim_network_load_string(&net, yaml, "t.yaml"), 0);
		ck_assert_ptr_null(net);
		const char *msg = trim_last_error();
		ck_assert_msg(strstr(msg, bad[k].where) && strstr(msg, bad[k].what),
		              "case %zu: '%s' lacks '%s' or '%s'", k, msg, bad[k].where, bad[k].what);
	}
}
END_TEST

/* A map's borders: zeropad2d and cropping2d in every form of their sides; no
 * weight, no MAC; what cannot be cut names its key. */
START_TEST(test_border_layers)
{
	trim_network *net = load_ok("network: {name: b, input: [5, 6, 4]}\n"
	                            "layers:\n"
	                            "  - {name: p1, type: zeropad2d, padding: 1}\n"
	                            "  - {name: p2, type: zeropad2d, padding: [2, 0], inputs: [input]}\n"
	                            "  - {name: p3, type: zeropad2d, padding: [[0, 2], [1, 0]], inputs: [input]}\n"
	                            "  - {name: k1, type: cropping2d, cropping: [[1, 2], [1, 1]], inputs: [p3]}\n"
	                            "  - {name: k2, type: cropping2d, cropping: [0, 2], inputs: [input]}\n");
	shape_is(net, "p1", 7, 8, 4);
	shape_is(net, "p2", 9, 6, 4);
	shape_is(net, "p3", 7, 7, 4);
	shape_is(net, "k1", 4, 5, 4);
	shape_is(net, "k2", 5, 2, 4);
	ck_assert_int_eq(trim_network_params(net), 0);
	ck_assert_int_eq(trim_network_macs(net), 0);
	trim_network_free(net);
	static const struct {
		const char *layers, *where, *what;
	} bad[] = {
		{"  - {type: zeropad2d}\n", "t.yaml:3:", "needs `padding`"},
		{"  - {type: cropping2d, padding: 1}\n", "layers[0].padding", "in_shape, cropping)"},
		{"  - {type: cropping2d, cropping: [2, 0]}\n", "layers[0].cropping", "leaves none"},
		{"  - {type: zeropad2d, padding: same}\n", "layers[0].padding", "expected an integer"},
		{"  - {type: zeropad2d, padding: [[1, 2], [3]]}\n", "layers[0].padding[1]", "[before, after]"},
		{"  - {type: zeropad2d, padding: -1}\n", "layers[0].padding", "out of range"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char yaml[512];
		snprintf(yaml, sizeof yaml, "network: {name: b, input: [4, 4, 4]}\nlayers:\n%s", bad[k].layers);
		net = (trim_network *)1;
		ck_assert_int_lt(trim_network_load_string(&net, yaml, "t.yaml"), 0);
		ck_assert_ptr_null(net);
		const char *msg = trim_last_error();
		ck_assert_msg(strstr(msg, bad[k].where) && strstr(msg, bad[k].what),
		              "case %zu: '%s' lacks '%s' or '%s'", k, msg, bad[k].where, bad[k].what);
	}
}
END_TEST

/* A layer whose output no later layer reads is a dead end: a warning naming it
 * (its work is still counted), shown by the workloads report; none otherwise. */
START_TEST(test_dead_end_warning)
{
	trim_network *net = load_ok("network: {name: d, input: [8, 8, 3]}\n"
	                            "layers:\n"
	                            "  - {name: a, type: conv2d, filters: 4, kernel: 3}\n"
	                            "  - {name: lost, type: conv2d, filters: 4, kernel: 1}\n"
	                            "  - {name: b, type: conv2d, filters: 4, kernel: 1, inputs: [a]}\n");
	ck_assert_int_eq(trim_network_warning_count(net), 1);
	ck_assert_msg(strstr(trim_network_warning(net, 0), "'lost' (line 4)") &&
	                  strstr(trim_network_warning(net, 0), "dead end"),
	              "%s", trim_network_warning(net, 0));
	ck_assert_ptr_null(trim_network_warning(net, 1));
	trim_workloads *w = NULL;
	char *text = NULL;
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_DEFAULT, 0, 0), 0);
	ck_assert_int_eq(trim_workloads_report(w, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert(strstr(text, "warning: layer 'lost'"));
	trim_string_free(text);
	trim_workloads_free(w);
	trim_network_free(net);
	net = load_ok("network: {name: d, input: [8, 8, 3]}\n"
	              "layers:\n"
	              "  - {name: a, type: conv2d, filters: 4, kernel: 3}\n"
	              "  - {name: b, type: conv2d, filters: 4, kernel: 1}\n");
	ck_assert_int_eq(trim_network_warning_count(net), 0);
	trim_network_free(net);
}
END_TEST

Suite *network_suite(void)
{
	Suite *s = suite_create("network");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_shapes_and_counts);
	tcase_add_test(tc, test_padding_forms);
	tcase_add_test(tc, test_grouped_depthwise_residual_concat);
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_api_misuse);
	tcase_add_test(tc, test_cli_exit_codes);
	tcase_add_test(tc, test_transformer_layers);
	tcase_add_test(tc, test_decoder_layers);
	tcase_add_test(tc, test_border_layers);
	tcase_add_test(tc, test_dead_end_warning);
	suite_add_tcase(s, tc);
	return s;
}
