/* ONNX import (lib/network/onnx/, docs/onnx.md): the models of test/onnx/make_models.py
 * and test/onnx/export_torch.py, every operator, and every kind of bad model. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trim.h"
#include "trim/onnx.h"

/* The models of test/onnx/make_models.py, made once per run (with Debian's
 * python3-onnx) into TRIM_ONNX_DIR or a fresh directory. */
static int onnx_tmp; /* the directory is this process's own: removed by onnx_done */
static const char *onnx_dir(void)
{
	static char dir[256];
	if (dir[0])
		return dir;
	const char *env = getenv("TRIM_ONNX_DIR");
	if (env && env[0]) {
		snprintf(dir, sizeof dir, "%s", env);
	} else {
		snprintf(dir, sizeof dir, "/tmp/trim-onnx-XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(dir));
		onnx_tmp = 1;
	}
	char cmd[512];
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 test/onnx/make_models.py %s", dir);
	ck_assert_msg(system(cmd) == 0, "%s failed (python3-onnx and python3-yaml: make deps)", cmd);
	return dir;
}

static void onnx_done(void)
{
	if (onnx_tmp) {
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf %s", onnx_dir());
		ck_assert_int_eq(system(cmd), 0);
	}
}

static char *workloads_json(trim_network *net)
{
	trim_workloads *w = NULL;
	char *text = NULL;
	ck_assert_msg(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 2, 0) == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_workloads_report(w, TRIM_FORMAT_JSON, &text), 0);
	trim_workloads_free(w);
	return text;
}

/* The shipped ResNet-18, MobileNet-v1 and BERT-base written as ONNX import to
 * exactly the workloads of their YAML (training, every intra and inter workload). */
START_TEST(test_onnx_equals_shipped)
{
	const char *dir = onnx_dir();
	static const char *const nets[] = {"resnet18", "mobilenet-v1", "bert-base"};
	for (size_t k = 0; k < 3; k++) {
		char yp[300], op[300];
		snprintf(yp, sizeof yp, "models/networks/%s.yaml", nets[k]);
		snprintf(op, sizeof op, "%s/%s.onnx", dir, nets[k]);
		trim_network *a = NULL, *b = NULL;
		ck_assert_msg(trim_network_load(&a, yp) == 0, "%s", trim_last_error());
		ck_assert_msg(trim_network_load_onnx(&b, op, NULL) == 0, "%s", trim_last_error());
		ck_assert_int_eq(trim_network_layer_count(a), trim_network_layer_count(b));
		char *ja = workloads_json(a), *jb = workloads_json(b);
		ck_assert_msg(strcmp(ja, jb) == 0, "%s: imported workloads differ from the YAML's",
		              nets[k]);
		trim_string_free(ja);
		trim_string_free(jb);
		trim_network_free(b);
		/* trim_network_load takes .onnx too; and the model from memory */
		ck_assert_msg(trim_network_load(&b, op) == 0, "%s", trim_last_error());
		ck_assert_int_eq(trim_network_macs(a), trim_network_macs(b));
		trim_network_free(b);
		FILE *f = fopen(op, "rb");
		ck_assert_ptr_nonnull(f);
		static unsigned char buf[1 << 20];
		size_t n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		ck_assert(n > 0 && n < sizeof buf);
		ck_assert_msg(trim_network_load_onnx_memory(&b, buf, n, "mem.onnx", NULL) == 0, "%s",
		              trim_last_error());
		ck_assert_int_eq(trim_network_params(a), trim_network_params(b));
		trim_network_free(b);
		trim_network_free(a);
	}
	onnx_done();
}
END_TEST

static trim_network *import(const char *file, const trim_onnx_options *o)
{
	char path[300];
	snprintf(path, sizeof path, "%s/%s", onnx_dir(), file);
	trim_network *net = NULL;
	ck_assert_msg(trim_network_load_onnx(&net, path, o) == 0, "%s: %s", file, trim_last_error());
	return net;
}

static void types_are(const trim_network *net, const char *const *want)
{
	size_t n = 0;
	for (; want[n]; n++) {
		ck_assert_msg(n < trim_network_layer_count(net), "fewer layers than expected");
		ck_assert_msg(!strcmp(trim_network_layer_type(net, n), want[n]),
		              "layer %zu (%s) is a %s, expected %s", n, trim_network_layer_name(net, n),
		              trim_network_layer_type(net, n), want[n]);
	}
	ck_assert_int_eq(trim_network_layer_count(net), n);
}

/* Every supported operator and decomposed pattern, one small model each. */
START_TEST(test_onnx_operators)
{
	trim_network *net = import("op_conv.onnx", NULL);
	types_are(net, (const char *const[]){"conv2d", NULL});
	int64_t s[3];
	trim_network_layer_shape(net, 0, s, 3);
	ck_assert(s[0] == 4 && s[1] == 4 && s[2] == 6);
	ck_assert_int_eq(trim_network_params(net), 6 * 4 * 9 + 6);
	trim_network_free(net);
	/* SAME_UPPER: the odd row and column of padding at the end; SAME_LOWER: at the
	 * beginning; pads [top, left, bottom, right] as [[top, bottom], [left, right]] */
	char *yaml = NULL;
	char pads_model[300];
	snprintf(pads_model, sizeof pads_model, "%s/op_conv_pads.onnx", onnx_dir());
	ck_assert_msg(trim_onnx_to_yaml(&yaml, pads_model, NULL) == 0, "%s", trim_last_error());
	static const char *const pads[][2] = {{"\"upper\"", "padding: [[1, 2], [0, 1]]"},
	                                      {"\"lower\"", "padding: [[2, 1], [1, 0]]"},
	                                      {"\"explicit\"", "padding: [[1, 2], [0, 3]]"}};
	for (size_t k = 0; k < 3; k++) {
		const char *line = strstr(yaml, pads[k][0]), *end = line ? strchr(line, '\n') : NULL;
		ck_assert_msg(line && end && strstr(line, pads[k][1]) && strstr(line, pads[k][1]) < end,
		              "%s: %s expected in\n%s", pads[k][0], pads[k][1], yaml);
	}
	trim_string_free(yaml);
	net = import("op_conv_pads.onnx", NULL);
	trim_network_layer_shape(net, 2, s, 3);
	ck_assert(s[0] == 11 && s[1] == 13 && s[2] == 4);
	trim_network_free(net);
	net = import("op_depthwise.onnx", NULL);
	types_are(net, (const char *const[]){"depthwise_conv2d", NULL});
	trim_network_free(net);
	net = import("op_convtranspose.onnx", NULL);
	types_are(net, (const char *const[]){"conv2d_transpose", NULL});
	trim_network_layer_shape(net, 0, s, 3);
	ck_assert(s[0] == 16 && s[1] == 16 && s[2] == 3);
	trim_network_free(net);
	/* Gemm after Flatten of a 1x1 map; Softmax fused into the classifier */
	net = import("op_pools.onnx", NULL);
	types_are(net, (const char *const[]){"maxpool2d", "avgpool2d", "global_avgpool", "dense", NULL});
	trim_network_free(net);
	/* Clip(0, 6) = ReLU6; x * Sigmoid(x) = Swish; Identity is free */
	net = import("op_activations.onnx", NULL);
	types_are(net, (const char *const[]){"conv2d", "batchnorm", "activation", "activation",
	                                     "activation", "activation", "activation", "dropout", NULL});
	trim_network_free(net);
	net = import("op_resize.onnx", NULL);
	types_are(net, (const char *const[]){"upsample", "upsample", "concat", "split", "split", NULL});
	/* a dead end names the node, not a line of the translated description */
	ck_assert_int_eq(trim_network_warning_count(net), 1);
	ck_assert_msg(strstr(trim_network_warning(net, 0), "node 's0' (op_type Split") &&
	              !strstr(trim_network_warning(net, 0), "line"),
	              "%s", trim_network_warning(net, 0));
	trim_network_free(net);
	/* an empty 'split' tensor splits evenly (UBSan saw the empty tensor's
	 * null data pointer copied: the ONNX fuzz harness's finding) */
	net = import("op_split_empty.onnx", NULL);
	types_are(net, (const char *const[]){"conv2d", "split", "split", "add", NULL});
	trim_network_free(net);
	/* a 1-D convolution of [N, C, L]; transposed to [N, L, C] it is tokens at no cost */
	net = import("op_conv1d.onnx", NULL);
	types_are(net, (const char *const[]){"conv1d", "batchnorm", "dense", NULL});
	trim_network_layer_shape(net, 0, s, 3);
	ck_assert(s[0] == 8 && s[1] == 1 && s[2] == 6);
	ck_assert_int_eq(trim_network_macs(net), 8 * 6 * 4 * 3 + 8 * 6 * 5);
	trim_network_free(net);
	net = import("op_upsample9.onnx", NULL);
	types_are(net, (const char *const[]){"upsample", NULL});
	trim_network_free(net);
	net = import("op_transpose.onnx", NULL);
	types_are(net, (const char *const[]){"transpose", "flatten", NULL});
	trim_network_layer_shape(net, 0, s, 3);
	ck_assert(s[0] == 6 && s[1] == 4 && s[2] == 2);
	trim_network_free(net);
	/* a Reshape whose shape a ScatterND made (folded): [1, 4, 1] with its entry 2 set
	 * to 64, so [N, C, H W], then tokens [64, 1, 4] */
	net = import("op_scatter.onnx", NULL);
	types_are(net, (const char *const[]){"reshape", NULL});
	trim_network_layer_shape(net, 0, s, 3);
	ck_assert(s[0] == 64 && s[1] == 1 && s[2] == 4);
	trim_network_free(net);
	/* LayerNorm from ReduceMean/Sub/Pow/Sqrt/Div, tanh-GELU fused into the dense;
	 * its sequence length is a named dimension */
	trim_onnx_options *o = NULL;
	ck_assert_int_eq(trim_onnx_options_create(&o), 0);
	char path[300];
	snprintf(path, sizeof path, "%s/op_decomposed.onnx", onnx_dir());
	ck_assert_int_eq(trim_network_load_onnx(&net, path, o), TRIM_ERANGE);
	ck_assert_msg(strstr(trim_last_error(), "'seq'"), "%s", trim_last_error());
	ck_assert_int_eq(trim_onnx_options_set_dim(o, "seq", 6), 0);
	ck_assert_int_eq(trim_onnx_options_set_batch(o, 3), 0);
	net = import("op_decomposed.onnx", o);
	types_are(net, (const char *const[]){"layernorm", "dense", NULL});
	ck_assert_int_eq(trim_network_batch(net), 3);
	ck_assert_int_eq(trim_network_macs(net), 6 * 8 * 16);
	trim_network_free(net);
	trim_onnx_options_free(o);
	onnx_done();
}
END_TEST

/* A pointer into the importer's array of values kept across the call that
 * grows it read freed memory (AddressSanitizer, make check SANITIZE=1, sees
 * it): Flatten's output is where the array grows in op_cnn.onnx, and a chain
 * of 70 Flattens crosses every growth up to 64. */
START_TEST(test_onnx_values_grow)
{
	trim_network *net = import("op_cnn.onnx", NULL);
	types_are(net, (const char *const[]){"conv2d", "batchnorm", "activation", "maxpool2d", "conv2d",
	                                     "global_avgpool", "dense", NULL});
	ck_assert_str_eq(trim_network_layer_name(net, 6), "fc");
	ck_assert_int_eq(trim_network_params(net), 8 * 27 + 2 * 8 + 16 * 72 + 10 * 16 + 10);
	trim_network_free(net);
	net = import("op_flatten_chain.onnx", NULL);
	types_are(net, (const char *const[]){"global_avgpool", "dense", NULL});
	ck_assert_int_eq(trim_network_macs(net), 4 * 10);
	trim_network_free(net);
	onnx_done();
}
END_TEST

/* Bad models: a clear error naming the file (and the node), nothing loaded;
 * --passthrough turns an unknown operator into a listed warning. */
START_TEST(test_onnx_bad)
{
	static const struct {
		const char *file;
		int code;
		const char *what;
	} bad[] = {
		{"bad_truncated.onnx", TRIM_EPARSE, "not an ONNX model"},
		{"bad_random.onnx", TRIM_EPARSE, "not an ONNX model"},
		{"bad_cycle.onnx", TRIM_ESCHEMA, "node 'first' (op_type Relu, opset 17): input 'b' is "
		                                 "made by node 'second' later"},
		{"bad_no_shape.onnx", TRIM_ESHAPE, "graph input 'x' has no tensor shape"},
		{"bad_unknown_dim.onnx", TRIM_ERANGE, "dimension 2 ('height') is unknown"},
		{"bad_opset.onnx", TRIM_ESCHEMA, "opset 3 is not supported"},
		{"bad_value_info.onnx", TRIM_ESHAPE, "node 'c' (op_type Conv, opset 17): output 'c': the "
		                                     "model's value_info gives another shape"},
		{"bad_unknown_op.onnx", TRIM_ESCHEMA, "node 'my_nms' (op_type NonMaxSuppression, opset 17)"},
		{"bad_se_gate.onnx", TRIM_ESCHEMA, "node 'gate' (op_type HardSigmoid, opset 17)"},
		{"bad_fold_unknown.onnx", TRIM_ESCHEMA, "node 'expand' (op_type Expand, opset 17): shape: "
		                                        "its values are not known at import"},
		{"bad_rewrites_input.onnx", TRIM_ESCHEMA, "node 'relu_in_place' (op_type Relu, opset 17): "
		                                          "output 'c' is also its input 0"},
		{"bad_two_writers.onnx", TRIM_ESCHEMA, "node 'r2' (op_type Sigmoid, opset 17): output 'r' "
		                                       "is also made by node 'r1' (op_type Relu)"},
		{"bad_writes_graph_input.onnx", TRIM_ESCHEMA, "node 'rx' (op_type Relu, opset 17): output "
		                                              "'x' is also a graph input"},
		{"bad_writes_initializer.onnx", TRIM_ESCHEMA, "node 'rw' (op_type Relu, opset 17): output "
		                                              "'w' is also an initializer"},
		{"bad_initializer_twice.onnx", TRIM_ESCHEMA, "initializer 'w' is listed twice"},
		{"bad_undefined_input.onnx", TRIM_ESCHEMA, "node 'add' (op_type Add, opset 17): input "
		                                           "'nowhere' is no graph input, initializer or "
		                                           "node output"},
		{"bad_no_output.onnx", TRIM_ESCHEMA, "graph output 'y' is made by no node"},
		{"bad_conv_channels.onnx", TRIM_ESHAPE, "node 'conv' (op_type Conv, opset 17): the weight "
		                                        "expects 3 input channels, the input has 4"},
		{"bad_conv_group_channels.onnx", TRIM_ESHAPE, "node 'gconv' (op_type Conv, opset 17): the "
		                                              "weight expects 2 input channels, the input "
		                                              "has 4"},
		{"bad_conv1d_channels.onnx", TRIM_ESHAPE, "node 'c1d' (op_type Conv, opset 17): the weight "
		                                          "expects 3 input channels in 1 groups, the input "
		                                          "has 4"},
		{"bad_matmul_one_input.onnx", TRIM_ESCHEMA, "node 'mm' (op_type MatMul, opset 17): "
		                                            "missing input B"},
		{"bad_concat_empty_input.onnx", TRIM_ESCHEMA, "node 'cat' (op_type Concat, opset 17): "
		                                              "input 1 is empty"},
		{"bad_concat_shape.onnx", TRIM_ESHAPE, "node 'cat' (op_type Concat, opset 17): inputs: "
		                                       "input 1 has shape [4, 4, 4], input 0 has [8, 8, 4]"},
		{"bad_pad_nonzero.onnx", TRIM_ESCHEMA, "node 'pad' (op_type Pad, opset 17): pads: 1 at 1: a "
		                                       "Pad of an activation is supported where it pads nothing"},
		{"bad_rows_read.onnx", TRIM_ESCHEMA, "node 'relu_rows' (op_type Relu, opset 17): input 'rows' "
		                                     "is rows or columns of a channels-last map (a Slice), "
		                                     "which only a Concat may read"},
		{"bad_rows_no_roll.onnx", TRIM_ESCHEMA, "node 'not_a_roll' (op_type Concat, opset 17): a "
		                                        "concatenation of rows or columns of a channels-last "
		                                        "map is supported as a cyclic shift"},
		{"bad_dim_negative.onnx", TRIM_ERANGE, "graph input 'x': dimension 2 is -5: negative"},
		{"bad_dim_huge.onnx", TRIM_ERANGE, "graph input 'x': dimension 2 is 1099511627776: too "
		                                   "large"},
		{"bad_batch_negative.onnx", TRIM_ERANGE, "graph input 'x': dimension 0 is -5: negative"},
		{"does_not_exist.onnx", TRIM_EIO, "cannot open"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char path[300];
		snprintf(path, sizeof path, "%s/%s", onnx_dir(), bad[k].file);
		trim_network *net = (trim_network *)1;
		int rc = trim_network_load(&net, path);
		ck_assert_msg(rc == bad[k].code, "%s: %d (%s)", bad[k].file, rc, trim_last_error());
		ck_assert_ptr_null(net);
		ck_assert_msg(strstr(trim_last_error(), bad[k].what) && strstr(trim_last_error(), path),
		              "%s: '%s'", bad[k].file, trim_last_error());
		/* never a line:column of the translated description, which no user saw */
		const char *at = strstr(trim_last_error(), path) + strlen(path);
		ck_assert_msg(at[0] != ':' || !isdigit((unsigned char)at[1]), "%s: '%s'", bad[k].file,
		              trim_last_error());
		ck_assert_msg(!strstr(trim_last_error(), "unknown") || strstr(bad[k].file, "unknown"),
		              "%s: '%s'", bad[k].file, trim_last_error());
	}
	ck_assert_int_eq(trim_network_load_onnx_memory(NULL, "", 0, "x", NULL), TRIM_EINVAL);
	trim_network *net = NULL;
	ck_assert_int_eq(trim_network_load_onnx_memory(&net, "", 0, "empty.onnx", NULL), TRIM_EPARSE);
	trim_onnx_options *o = NULL;
	ck_assert_int_eq(trim_onnx_options_create(&o), 0);
	trim_onnx_options_set_passthrough(o, 1);
	/* --passthrough passes an operator through, never a broken graph */
	char path[300];
	snprintf(path, sizeof path, "%s/bad_undefined_input.onnx", onnx_dir());
	net = (trim_network *)1;
	ck_assert_int_eq(trim_network_load_onnx(&net, path, o), TRIM_ESCHEMA);
	ck_assert_ptr_null(net);
	ck_assert_msg(strstr(trim_last_error(), "input 'nowhere' is no graph input"), "%s",
	              trim_last_error());
	net = import("bad_unknown_op.onnx", o);
	ck_assert_int_eq(trim_network_warning_count(net), 1);
	ck_assert(strstr(trim_network_warning(net, 0), "'my_nms'"));
	trim_workloads *w = NULL;
	char *text = NULL;
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_DEFAULT, 0, 0), 0);
	ck_assert_int_eq(trim_workloads_report(w, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert(strstr(text, "warning: node 'my_nms'"));
	trim_string_free(text);
	ck_assert_int_eq(trim_workloads_report(w, TRIM_FORMAT_JSON, &text), 0);
	ck_assert(strstr(text, "\"warnings\": [\"node 'my_nms'"));
	trim_string_free(text);
	trim_workloads_free(w);
	trim_network_free(net);
	trim_onnx_options_free(o);
	/* the CLI: exit 2, nothing written; trim import writes a loadable description */
	const char *cli = getenv("TRIM_CLI");
	if (!cli)
		cli = "build/bin/trim";
	char cmd[1024], out[300];
	snprintf(out, sizeof out, "%s/imported.yaml", onnx_dir());
	remove(out);
	snprintf(cmd, sizeof cmd, "%s import %s/bad_cycle.onnx -o %s 2>/dev/null", cli, onnx_dir(), out);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
	FILE *f = fopen(out, "r");
	ck_assert_ptr_null(f);
	snprintf(cmd, sizeof cmd, "%s import %s/resnet18.onnx -o %s", cli, onnx_dir(), out);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 0);
	ck_assert_int_eq(trim_network_load(&net, out), 0);
	ck_assert_int_eq(trim_network_params(net), 11689512);
	trim_network_free(net);
	snprintf(cmd, sizeof cmd, "%s workloads %s/bad_random.onnx 2>/dev/null", cli, onnx_dir());
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
	snprintf(cmd, sizeof cmd, "%s import %s/bad_two_writers.onnx 2>&1 | grep -q \"node 'r2' "
	         "(op_type Sigmoid, opset 17): output 'r' is also made by node 'r1'\"", cli, onnx_dir());
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 0);
	snprintf(cmd, sizeof cmd, "%s import %s/bad_rewrites_input.onnx >/dev/null 2>&1", cli,
	         onnx_dir());
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
	remove(out);
	snprintf(cmd, sizeof cmd, "%s import %s/bad_concat_shape.onnx -o %s 2>&1 | grep -q \"node "
	         "'cat' (op_type Concat, opset 17): inputs: \"", cli, onnx_dir(), out);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 0);
	ck_assert_ptr_null(fopen(out, "r"));
	snprintf(cmd, sizeof cmd, "%s import %s/bad_concat_shape.onnx >/dev/null 2>&1", cli, onnx_dir());
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
	snprintf(cmd, sizeof cmd, "%s workloads %s/mobilenet-v1.onnx --mode training >/dev/null", cli,
	         onnx_dir());
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 0);
	onnx_done();
}
END_TEST

/* The file is checked before it is read: no FIFO (opening one without a
 * writer would wait), device or directory; nothing over 2 GiB (ONNX's limit)
 * is allocated for. */
START_TEST(test_onnx_files)
{
	char fifo[300], big[300], cmd[1024];
	snprintf(fifo, sizeof fifo, "%s/fifo.onnx", onnx_dir());
	remove(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	trim_network *net = (trim_network *)1;
	ck_assert_int_eq(trim_network_load(&net, fifo), TRIM_EIO);
	ck_assert_ptr_null(net);
	ck_assert_msg(strstr(trim_last_error(), "a FIFO, not a regular file") &&
	              strstr(trim_last_error(), fifo), "%s", trim_last_error());
	const char *cli = getenv("TRIM_CLI");
	snprintf(cmd, sizeof cmd, "timeout 60 %s workloads %s 2>/dev/null", cli ? cli : "build/bin/trim",
	         fifo);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
	remove(fifo);
	char *yaml = (char *)1;
	ck_assert_int_eq(trim_onnx_to_yaml(&yaml, "/dev/zero", NULL), TRIM_EIO);
	ck_assert_ptr_null(yaml);
	ck_assert_msg(strstr(trim_last_error(), "/dev/zero: a character device"), "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_onnx_to_yaml(&yaml, onnx_dir(), NULL), TRIM_EIO);
	ck_assert_msg(strstr(trim_last_error(), "a directory"), "%s", trim_last_error());
	/* 2 GiB + 1 of zeros (a sparse file), refused from its size: with the
	 * address space capped at what the process has plus 256 MiB (not under
	 * AddressSanitizer, which reserves terabytes) */
	snprintf(big, sizeof big, "%s/big.onnx", onnx_dir());
	FILE *f = fopen(big, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ftruncate(fileno(f), ((off_t)1 << 31) + 1), 0);
	fclose(f);
#ifndef __SANITIZE_ADDRESS__
	long pages = 0;
	f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	if (pages > 0) {
		rlim_t cap = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)256 << 20);
		struct rlimit rl = {cap, cap};
		ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);
	}
#endif
	ck_assert_int_eq(trim_network_load_onnx(&net, big, NULL), TRIM_ERANGE);
	ck_assert_msg(strstr(trim_last_error(), "2147483649 bytes, larger than 2 GiB"), "%s",
	              trim_last_error());
	remove(big);
	onnx_done();
}
END_TEST

static int count_substr(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

static int has_warning(const trim_network *net, const char *what)
{
	for (size_t k = 0; k < trim_network_warning_count(net); k++)
		if (strstr(trim_network_warning(net, k), what))
			return 1;
	return 0;
}

static size_t count_type(const trim_network *net, const char *type)
{
	size_t n = 0;
	for (size_t k = 0; k < trim_network_layer_count(net); k++)
		n += !strcmp(trim_network_layer_type(net, k), type);
	return n;
}

/* Two tiny networks exported by PyTorch, kept in test/data/onnx (the fuzz
 * harness's seeds): what a real exporter writes (node names like
 * "/features/features.0/Conv", BatchNorm folded into the Conv, ReLU6 as Clip
 * with constant inputs, a residual Add) imports without PyTorch. */
START_TEST(test_onnx_real_exports)
{
	trim_network *net = NULL;
	ck_assert_msg(trim_network_load(&net, "test/data/onnx/torch_tiny_cnn.onnx") == 0, "%s",
	              trim_last_error());
	types_are(net, (const char *const[]){"conv2d", "maxpool2d", "conv2d", "global_avgpool", "dense",
	                                     NULL});
	ck_assert_int_eq(trim_network_params(net), 8 * 27 + 8 + 16 * 72 + 16 + 16 * 10 + 10);
	trim_network_free(net);
	trim_onnx_options *o = NULL;
	ck_assert_int_eq(trim_onnx_options_create(&o), 0);
	ck_assert_int_eq(trim_onnx_options_set_batch(o, 4), 0);
	ck_assert_msg(trim_network_load_onnx(&net, "test/data/onnx/torch_tiny_mobile.onnx", o) == 0,
	              "%s", trim_last_error());
	types_are(net, (const char *const[]){"conv2d", "depthwise_conv2d", "conv2d", "add",
	                                     "global_avgpool", "dense", NULL});
	ck_assert_int_eq(trim_network_batch(net), 4);
	ck_assert_int_eq(trim_network_params(net), 8 * 27 + 8 + 8 * 9 + 8 + 8 * 8 + 8 + 8 * 5 + 5);
	trim_network_free(net);
	trim_onnx_options_free(o);
	/* a ConvNeXt block as torchvision writes it (export_torch.py's TinyConvNeXt): the
	 * Permutes to and from [N, H, W, C] free, LayerNorm over the channels, the Linear
	 * layers dense on [H, W, C] (a 1x1 convolution). MACs by hand on 16 x 16 x 3: stem
	 * 4 x 4 x 8 x 3 x 4 x 4, depthwise 4 x 4 x 8 x 7 x 7, Linear 8 -> 32 -> 8 at 16
	 * positions 2 x 16 x 8 x 32, downsampling 2 x 2 x 16 x 8 x 2 x 2, head 16 x 5; the
	 * layer scale (a Mul by a [C, 1, 1] constant) is free */
	ck_assert_msg(trim_network_load(&net, "test/data/onnx/torch_tiny_convnext.onnx") == 0, "%s",
	              trim_last_error());
	types_are(net, (const char *const[]){"conv2d", "layernorm", "depthwise_conv2d", "layernorm",
	                                     "dense", "dense", "add", "layernorm", "conv2d",
	                                     "global_avgpool", "layernorm", "dense", NULL});
	ck_assert_int_eq(trim_network_macs(net), 6144 + 6272 + 2 * 4096 + 2048 + 80);
	ck_assert_int_eq(trim_network_params(net), 3 * 16 * 8 + 8 + 2 * 8 + 49 * 8 + 8 + 2 * 8 + 8 * 32 +
	                                           32 + 32 * 8 + 8 + 2 * 8 + 8 * 4 * 16 + 16 + 2 * 16 + 16 * 5 + 5);
	int64_t hwc[3];
	trim_network_layer_shape(net, 4, hwc, 3); /* the first Linear: [H, W, 4 C] */
	ck_assert(hwc[0] == 4 && hwc[1] == 4 && hwc[2] == 32);
	trim_network_free(net);
	/* a Swin stage as torchvision writes it (export_torch.py's TinySwin, the shape
	 * arithmetic left in): 16 x 16 x 3, a 4 x 4 / 4 stem to [4, 4, 8] channels last,
	 * windows of 2 x 2 (4 windows of 4 tokens), 2 heads of 4, a block and a block
	 * shifted by 1; MACs by hand: stem 4 x 4 x 8 x 3 x 16 = 6,144; a block q k v
	 * 16 x 8 x 24, the two products 4 windows x 2 heads x 4 x 4 x 4 each, proj 16 x 8 x
	 * 8, MLP 2 x 16 x 8 x 32: 13,312; patch merging [2, 2, 32] -> 16: 2,048; head 80.
	 * The relative position bias tables (2 x 9 x 2) are constants, not parameters */
	ck_assert_msg(trim_network_load(&net, "test/data/onnx/torch_tiny_swin.onnx") == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_network_macs(net), 6144 + 2 * 13312 + 2048 + 80);
	ck_assert_int_eq(trim_network_params(net), 392 + 16 + 2 * (16 + 216 + 72 + 16 + 288 + 264) + 64 +
	                                           512 + 32 + 85);
	ck_assert_int_eq(count_type(net, "matmul"), 4);
	/* q, k, v cut from the fused projection; each into the window form (q, k, v)
	 * and back to the map (the context) per block; patch merging a space-to-depth */
	ck_assert_int_eq(count_type(net, "split"), 6);
	ck_assert_int_eq(count_type(net, "reshape"), 2 * 4 + 1);
	for (size_t k = 0; k < trim_network_layer_count(net); k++) {
		if (!strcmp(trim_network_layer_type(net, k), "matmul")) {
			trim_network_layer_shape(net, k, hwc, 3); /* [4 tokens, 1, 4 windows x 2 heads x 4] */
			ck_assert(hwc[0] == 4 && hwc[1] == 1 && hwc[2] == 32);
		}
		if (strstr(trim_network_layer_name(net, k), "Concat")) {
			trim_network_layer_shape(net, k, hwc, 3);
			ck_assert(hwc[0] == 2 && hwc[1] == 2 && hwc[2] == 32);
		}
	}
	/* the bias of each block and the shifted block's mask named */
	ck_assert_int_eq(trim_network_warning_count(net), 3);
	ck_assert(has_warning(net, "node '/blocks/blocks.0/Add' (op_type Add) adds a constant onto "
	                           "attention's scores: a mask or a position bias, not costed"));
	ck_assert(has_warning(net, "node '/blocks/blocks.1/Add_10' (op_type Add) adds a constant"));
	trim_network_free(net);
	char *sy = NULL;
	ck_assert_int_eq(trim_onnx_to_yaml(&sy, "test/data/onnx/torch_tiny_swin.onnx", NULL), 0);
	ck_assert_int_eq(count_substr(sy, "heads: 8, transpose_b: true"), 2);
	ck_assert_int_eq(count_substr(sy, "heads: 8, transpose_b: false"), 2);
	ck_assert_int_eq(count_substr(sy, "shape: [4, 1, 32]"), 6);
	ck_assert_int_eq(count_substr(sy, "shape: [4, 4, 8]"), 2);
	trim_string_free(sy);
	/* Hugging Face-style GPT-2 attention (export_transformers.py), without PyTorch:
	 * c_attn 64 x 768 x 2304, the products 2 x 12 x 64^3, c_proj 64 x 768^2; the
	 * torch.where causal mask named */
	ck_assert_msg(trim_network_load(&net, "test/data/onnx/torch_hf_gpt2_attn.onnx") == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_network_macs(net), 113246208 + 2 * 3145728 + 37748736);
	ck_assert_int_eq(trim_network_warning_count(net), 1);
	ck_assert(strstr(trim_network_warning(net, 0), "attention's scores: a mask"));
	trim_network_free(net);
	/* torch.nn's TransformerEncoderLayer(16, 4 heads, 32) on [T 5, N 2, F 16]: in_proj
	 * 5 x 16 x 48, the products 2 x 4 x 5 x 5 x 4, out_proj 5 x 16^2, the MLP 2 x 5 x 16 x
	 * 32; batch 2 (axis 1), 4 heads of 4 features (the heads taken from the view, not
	 * the head size) */
	ck_assert_msg(trim_network_load(&net, "test/data/onnx/torch_mha_tiny.onnx") == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_network_macs(net), 3840 + 800 + 1280 + 5120);
	ck_assert_int_eq(trim_network_batch(net), 2);
	ck_assert_int_eq(trim_network_warning_count(net), 1);
	ck_assert(strstr(trim_network_warning(net, 0), "has its tokens first"));
	trim_network_free(net);
	char *yaml = NULL;
	ck_assert_int_eq(trim_onnx_to_yaml(&yaml, "test/data/onnx/torch_mha_tiny.onnx", NULL), 0);
	ck_assert_int_eq(count_substr(yaml, "heads: 4, transpose_b: true"), 1);
	ck_assert_int_eq(count_substr(yaml, "heads: 4, transpose_b: false"), 1);
	trim_string_free(yaml);
}
END_TEST

/* Models exported from PyTorch (Debian's python3-torch, where installed) import
 * and map; ResNet-18, ResNet-50 (4,089,184,256 MACs a sample, the published
 * 4.09 G) and MobileNetV2 keep the shipped networks' MACs. */
START_TEST(test_onnx_from_pytorch)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 test/onnx/export_torch.py %s", onnx_dir());
	int st = system(cmd);
	/* the tiny networks (PyTorch without torchvision is enough): as the copies kept */
	static const char *const tiny[] = {"torch_tiny_cnn.onnx", "torch_tiny_mobile.onnx",
	                                   "torch_tiny_convnext.onnx", "torch_tiny_swin.onnx"};
	for (size_t k = 0; k < 4; k++) {
		char fresh[300], kept[300];
		snprintf(fresh, sizeof fresh, "%s/%s", onnx_dir(), tiny[k]);
		snprintf(kept, sizeof kept, "test/data/onnx/%s", tiny[k]);
		if (access(fresh, R_OK) != 0)
			continue;
		trim_network *a = import(tiny[k], NULL), *b = NULL;
		ck_assert_int_eq(trim_network_load(&b, kept), 0);
		ck_assert_int_eq(trim_network_params(a), trim_network_params(b));
		ck_assert_int_eq(trim_network_macs(a), trim_network_macs(b));
		trim_network_free(b);
		trim_network_free(a);
	}
	if (WEXITSTATUS(st) == 77) {
		fprintf(stderr, "test_onnx_from_pytorch: python3-torch or python3-torchvision not "
		        "installed, skipped\n");
		onnx_done();
		return;
	}
	ck_assert_msg(WEXITSTATUS(st) == 0, "%s failed", cmd);
	/* exported in training mode: the YAML's training workloads (counts, MACs, params,
	 * peak cache: the totals of the report) exactly; in eval mode BatchNorm is folded
	 * into the convolutions: the same MACs, 60 inter-layer workloads fewer */
	static const char *const pairs[][2] = {{"torch_resnet18.onnx", "resnet18.yaml"},
	                                       {"torch_resnet50.onnx", "resnet50.yaml"},
	                                       {"torch_mobilenet_v2.onnx", "mobilenet-v2.yaml"},
	                                       {"torch_resnet18_eval.onnx", "resnet18.yaml"}};
	enum { EVAL = 3 }; /* the eval-mode export */
	for (size_t k = 0; k < 4; k++) {
		trim_network *net = import(pairs[k][0], NULL), *ref = NULL;
		char yp[300];
		snprintf(yp, sizeof yp, "models/networks/%s", pairs[k][1]);
		ck_assert_int_eq(trim_network_load(&ref, yp), 0);
		ck_assert_int_eq(trim_network_macs(net), trim_network_macs(ref));
		char *jn = workloads_json(net), *jr = workloads_json(ref);
		const char *tn = strstr(jn, "\"totals\""), *tr = strstr(jr, "\"totals\"");
		ck_assert(tn && tr);
		int same = strncmp(tn, tr, (size_t)(strchr(tr, '}') - tr)) == 0;
		ck_assert_msg(same == (k != EVAL), "%s: %.200s, the YAML's %.200s", pairs[k][0], tn, tr);
		if (k == EVAL)
			ck_assert_msg(strstr(tn, "\"inter_count\": 104,") && strstr(tr, "\"inter_count\": 164,"),
			              "%.200s", tn);
		trim_string_free(jn);
		trim_string_free(jr);
		trim_network_free(ref);
		trim_network_free(net);
	}
	/* squeeze-excitation networks: refused at their HardSigmoid / gate Mul by
	 * default; with --passthrough the gates' products cost nothing and the MACs
	 * a sample are the published 0.22 G (MobileNetV3-large) and 0.39 G
	 * (EfficientNet-B0; torchvision's figures) */
	static const struct {
		const char *file;
		long long macs;
	} se[] = {{"torch_mobilenet_v3_large.onnx", 216589760}, {"torch_efficientnet_b0.onnx", 385814752}};
	trim_onnx_options *po = NULL;
	ck_assert_int_eq(trim_onnx_options_create(&po), 0);
	ck_assert_int_eq(trim_onnx_options_set_passthrough(po, 1), 0);
	for (size_t k = 0; k < 2; k++) {
		char path[300];
		snprintf(path, sizeof path, "%s/%s", onnx_dir(), se[k].file);
		trim_network *net = (trim_network *)1;
		ck_assert_int_eq(trim_network_load_onnx(&net, path, NULL), TRIM_ESCHEMA);
		net = import(se[k].file, po);
		ck_assert_msg(trim_network_macs(net) == se[k].macs, "%s: %lld MACs", se[k].file,
		              (long long)trim_network_macs(net));
		trim_network_free(net);
	}
	trim_onnx_options_free(po);
	/* ConvNeXt-T: torchvision's 4.456 GFLOPS (MACs), and by hand (conv2d and Linear
	 * MACs summed by forward hooks in PyTorch) exactly 4,455,531,264; the parameters
	 * less the 18 blocks' layer scales (3 x 96 + 3 x 192 + 9 x 384 + 3 x 768 = 6,624
	 * of 28,589,128: a scaling costs nothing and holds no weight libtrim counts) */
	trim_network *cnx = import("torch_convnext_tiny.onnx", NULL);
	ck_assert_int_eq(trim_network_macs(cnx), 4455531264LL);
	ck_assert_int_eq(trim_network_params(cnx), 28589128 - 6624);
	ck_assert_int_eq(count_type(cnx, "dense"), 2 * 18 + 1);
	ck_assert_int_eq(count_type(cnx, "transpose"), 0);
	trim_network_free(cnx);
	/* Swin-T: torchvision's 4.491 GFLOPS (MACs), and by hand exactly 4,490,566,656:
	 * conv2d and nn.Linear by hooks 2,963,159,040, plus q k v and the projection
	 * (F.linear in shifted_window_attention, 4 N C^2 = 4 x 3136 x 96^2 in each of the 12
	 * blocks) 1,387,266,048, plus the products (2 x windows x heads x 49 x 49 x 32 per
	 * block) 140,141,568; the parameters less the relative position bias tables
	 * (169 x (2 x 3 + 2 x 6 + 6 x 12 + 2 x 24) = 23,322 of 28,288,354) */
	trim_network *swin = import("torch_swin_t.onnx", NULL);
	ck_assert_int_eq(trim_network_macs(swin), 4490566656LL);
	ck_assert_int_eq(trim_network_params(swin), 28288354 - 23322);
	ck_assert_int_eq(count_type(swin, "matmul"), 24);
	ck_assert_int_eq(trim_network_warning_count(swin), 12 + 5); /* 12 biases, 5 masks */
	trim_network_free(swin);
	char *sy = NULL, sp[300];
	snprintf(sp, sizeof sp, "%s/torch_swin_t.onnx", onnx_dir());
	ck_assert_int_eq(trim_onnx_to_yaml(&sy, sp, NULL), 0);
	/* windows x heads: 64 x 3, 16 x 6, 4 x 12, 1 x 24 (2, 2, 6 and 2 blocks) */
	ck_assert_int_eq(count_substr(sy, "heads: 192, transpose_b: true"), 2);
	ck_assert_int_eq(count_substr(sy, "heads: 96, transpose_b: true"), 2);
	ck_assert_int_eq(count_substr(sy, "heads: 48, transpose_b: true"), 6);
	ck_assert_int_eq(count_substr(sy, "heads: 24, transpose_b: true"), 2);
	trim_string_free(sy);
	const char *cli = getenv("TRIM_CLI");
	snprintf(cmd, sizeof cmd,
	         "%s network %s/torch_resnet18.onnx models/arch/eyeriss.yaml --mode training "
	         "--constraints test/data/constraints/quick-eyeriss.yaml --quiet >/dev/null",
	         cli ? cli : "build/bin/trim", onnx_dir());
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 0);
	onnx_done();
}
END_TEST

/* Shape arithmetic folded at import (make_models.py's op_fold.onnx): the class
 * token expanded through ConstantOfShape / Equal / Where / Expand (5 tokens), the
 * heads computed from the tokens' shape (h = 6 / 3 = 2), a causal mask from Range /
 * Less / Where (named in a warning), a dropout ratio sqrt(6) / 5 from Cast / Sqrt /
 * Div. MACs by hand: q, k, v 3 x 5 x 6 x 6 = 540; scores and context 2 x (2 x 5 x 5 x 3). */
START_TEST(test_onnx_fold)
{
	trim_network *net = import("op_fold.onnx", NULL);
	types_are(net, (const char *const[]){"parameter", "concat", "dense", "dense", "dense", "matmul",
	                                     "softmax", "dropout", "matmul", NULL});
	ck_assert_int_eq(trim_network_macs(net), 540 + 2 * 150);
	int64_t s[3];
	trim_network_layer_shape(net, 1, s, 3);
	ck_assert(s[0] == 5 && s[1] == 1 && s[2] == 6);
	trim_network_layer_shape(net, 5, s, 3);
	ck_assert_msg(s[0] == 5 && s[2] == 2 * 5, "scores [%lld, %lld, %lld]", (long long)s[0],
	              (long long)s[1], (long long)s[2]);
	ck_assert_int_eq(trim_network_warning_count(net), 1);
	ck_assert(strstr(trim_network_warning(net, 0), "node 'masked' (op_type Where) selects "
	                                               "between a constant and attention's scores"));
	trim_network_free(net);
	char *yaml = NULL, path[300], rate[64];
	snprintf(path, sizeof path, "%s/op_fold.onnx", onnx_dir());
	ck_assert_msg(trim_onnx_to_yaml(&yaml, path, NULL) == 0, "%s", trim_last_error());
	snprintf(rate, sizeof rate, "rate: %.17g}", sqrt(6.0) / 5.0);
	ck_assert_msg(strstr(yaml, rate), "%s not in\n%s", rate, yaml);
	ck_assert_int_eq(count_substr(yaml, "heads: 2,"), 2);
	trim_string_free(yaml);
	/* --passthrough cannot pass through a node that reads no activation */
	trim_onnx_options *o = NULL;
	ck_assert_int_eq(trim_onnx_options_create(&o), 0);
	ck_assert_int_eq(trim_onnx_options_set_passthrough(o, 1), 0);
	snprintf(path, sizeof path, "%s/bad_const_unknown_op.onnx", onnx_dir());
	net = (trim_network *)1;
	ck_assert_int_eq(trim_network_load_onnx(&net, path, o), TRIM_ESCHEMA);
	ck_assert_ptr_null(net);
	ck_assert_msg(strstr(trim_last_error(), "node 'const_nms' (op_type NonMaxSuppression, opset "
	                     "17): an operator libtrim cannot cost or fold, reading no activation"),
	              "%s", trim_last_error());
	/* a squeeze-excitation Mul of the gate [1, 4, 1, 1] (its first input) by the
	 * activation [1, 4, 8, 8]: the activation goes on, not the gate, so the 1x1
	 * convolution after it keeps its 4 x 4 x 64 MACs (with the gate: 4 x 4) */
	net = import("bad_se_gate.onnx", o);
	ck_assert_int_eq(trim_network_macs(net), 2 * 4 * 4 * 64);
	int named = 0;
	for (size_t k = 0; k < trim_network_warning_count(net); k++) {
		named += strstr(trim_network_warning(net, k), "node 'scale' (op_type Mul, opset 17) passed through at no "
		                "cost: libtrim cannot cost it; its largest activation input 'c' goes on, its 1 other is "
		                "not read") != NULL;
	}
	ck_assert_int_eq(named, 1);
	trim_network_free(net);
	trim_onnx_options_free(o);
	onnx_done();
}
END_TEST

/* Transformers as torch.onnx.export writes them (test/onnx/export_transformers.py:
 * the exporter's shape arithmetic left in, training mode), each against a hand count:
 * a BERT-base layer at T = 128 tokens, E = 768, h = 12 heads, 3072 hidden is
 * q k v and the output projection 4 T E^2 = 301,989,888, the two attention products
 * 2 h T^2 (E / h) = 25,165,824 and the MLP 2 T E 3072 = 603,979,776: 931,135,488. */
START_TEST(test_onnx_transformers)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 test/onnx/export_transformers.py %s", onnx_dir());
	int st = system(cmd);
	if (WEXITSTATUS(st) == 77) {
		fprintf(stderr, "test_onnx_transformers: python3-torch not installed, skipped\n");
		onnx_done();
		return;
	}
	ck_assert_msg(WEXITSTATUS(st) == 0, "%s failed", cmd);
	const int64_t bert_layer = 931135488;
	/* nn.TransformerEncoder, batch_first and not: the same network, batch 2 */
	trim_network *bf = import("torch_encoder_bf.onnx", NULL), *sf = import("torch_encoder_sf.onnx", NULL);
	ck_assert_int_eq(trim_network_macs(bf), 2 * bert_layer);
	ck_assert_int_eq(trim_network_macs(sf), 2 * bert_layer);
	ck_assert_int_eq(trim_network_batch(bf), 2);
	ck_assert_int_eq(trim_network_batch(sf), 2);
	ck_assert_int_eq(count_type(bf, "matmul"), 4);
	char *yaml = NULL, path[300];
	snprintf(path, sizeof path, "%s/torch_encoder_sf.onnx", onnx_dir());
	ck_assert_int_eq(trim_onnx_to_yaml(&yaml, path, NULL), 0);
	ck_assert_int_eq(count_substr(yaml, "heads: 12,"), 4);
	trim_string_free(yaml);
	ck_assert_msg(has_warning(sf, "tokens first"), "the [T, N, F] input is not named");
	ck_assert(!has_warning(bf, "tokens first"));
	char *jb = workloads_json(bf), *js = workloads_json(sf);
	ck_assert(strstr(js, "\"warnings\"") != NULL);
	char *eb = strstr(jb, "\"totals\""), *es = strstr(js, "\"totals\"");
	ck_assert(eb && es && strchr(eb, '}') && strchr(es, '}'));
	strchr(eb, '}')[1] = strchr(es, '}')[1] = '\0'; /* the workloads and totals, no warning */
	ck_assert_msg(strcmp(jb, js) == 0, "batch_first changes the workloads");
	trim_string_free(jb);
	trim_string_free(js);
	trim_network_free(bf);
	trim_network_free(sf);
	/* a BERT layer written like Hugging Face's (view / permute, an additive mask) */
	trim_network *net = import("torch_hf_bert_layer.onnx", NULL);
	ck_assert_int_eq(trim_network_macs(net), bert_layer);
	ck_assert_int_eq(count_type(net, "matmul"), 2);
	ck_assert_msg(has_warning(net, "adds a constant onto attention's scores: a mask"),
	              "the attention mask is not named");
	trim_network_free(net);
	/* nanoGPT's block, T = 64: q k v 64 x 768 x 2304, the products 2 x 12 x 64^3,
	 * the projection 64 x 768^2, the MLP 2 x 64 x 768 x 3072; the Pow of the traced
	 * head size folded, the masked_fill named */
	net = import("torch_gpt_block.onnx", NULL);
	ck_assert_int_eq(trim_network_macs(net),
	                 113246208 + 2 * 3145728 + 37748736 + 2 * 150994944);
	ck_assert_msg(has_warning(net, "selects between a constant and attention's scores"),
	              "the causal mask is not named");
	trim_network_free(net);
	/* Hugging Face's GPT-2 attention: Conv1D as addmm on [N T, F], torch.where */
	net = import("torch_hf_gpt2_attn.onnx", NULL);
	ck_assert_int_eq(trim_network_macs(net), 113246208 + 2 * 3145728 + 37748736);
	ck_assert_int_eq(count_type(net, "matmul"), 2);
	ck_assert(has_warning(net, "attention's scores: a mask"));
	trim_network_free(net);
	/* torchvision's vit_b_16: exactly the shipped vit-b16.yaml (17.56 GMACs) */
	snprintf(path, sizeof path, "%s/torch_vit_b_16.onnx", onnx_dir());
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "test_onnx_transformers: python3-torchvision not installed, "
		        "vit_b_16 skipped\n");
		onnx_done();
		return;
	}
	trim_network *ref = NULL;
	net = import("torch_vit_b_16.onnx", NULL);
	ck_assert_int_eq(trim_network_load(&ref, "models/networks/vit-b16.yaml"), 0);
	ck_assert_int_eq(trim_network_macs(net), 17563828224LL);
	ck_assert_int_eq(trim_network_macs(net), trim_network_macs(ref));
	ck_assert_int_eq(trim_network_params(net), trim_network_params(ref));
	ck_assert_int_eq(count_type(net, "matmul"), 24);
	ck_assert_int_eq(trim_onnx_to_yaml(&yaml, path, NULL), 0);
	ck_assert_int_eq(count_substr(yaml, "heads: 12,"), 24);
	trim_string_free(yaml);
	trim_network_free(ref);
	trim_network_free(net);
	onnx_done();
}
END_TEST

Suite *onnx_suite(void)
{
	Suite *s = suite_create("onnx");
	TCase *to = tcase_create("onnx");
	tcase_set_timeout(to, 120);
	tcase_add_test(to, test_onnx_equals_shipped);
	tcase_add_test(to, test_onnx_operators);
	tcase_add_test(to, test_onnx_values_grow);
	tcase_add_test(to, test_onnx_bad);
	tcase_add_test(to, test_onnx_files);
	tcase_add_test(to, test_onnx_real_exports);
	tcase_add_test(to, test_onnx_from_pytorch);
	tcase_add_test(to, test_onnx_fold);
	suite_add_tcase(s, to);
	/* the exports of PyTorch's transformers take a minute on a loaded machine */
	TCase *tx = tcase_create("transformers");
	tcase_set_timeout(tx, 400);
	tcase_add_test(tx, test_onnx_transformers);
	suite_add_tcase(s, tx);
	return s;
}
