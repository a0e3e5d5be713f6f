/* ONNX import (lib/network/onnx/, docs/onnx.md): the models of test/onnx/make_models.py,
 * every operator, and every kind of bad model (the PyTorch exports: check_onnx_torch.c). */
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
#include "onnx_util.h"


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
		{"bad_gather_index_huge.onnx", TRIM_ESHAPE, "node 'gather_huge' (op_type Gather, opset 17): index "
		                                           "9223372036854775807 out of [-4, 4)"},
		{"bad_slice_step_huge.onnx", TRIM_ESHAPE, "node 'reshape_one' (op_type Reshape, opset 17): reshape "
		                                         "to 1 dims of 1 elements from 256"},
		{"bad_matmul_one_input.onnx", TRIM_ESCHEMA, "node 'mm' (op_type MatMul, opset 17): "
		                                            "missing input B"},
		{"bad_concat_empty_input.onnx", TRIM_ESCHEMA, "node 'cat' (op_type Concat, opset 17): "
		                                              "input 1 is empty"},
		{"bad_concat_shape.onnx", TRIM_ESHAPE, "node 'cat' (op_type Concat, opset 17): inputs: "
		                                       "input 1 has shape [4, 4, 4], input 0 has [8, 8, 4]"},
		{"bad_pad_nonzero.onnx", TRIM_ESCHEMA, "node 'pad' (op_type Pad, opset 17): pads: a Pad of an "
		                                       "activation is supported around the rows and columns of "
		                                       "a map"},
		{"bad_pad_reflect.onnx", TRIM_ESCHEMA, "node 'pad' (op_type Pad, opset 17): a Pad by reflect "
		                                       "is not zero padding"},
		{"bad_rows_read.onnx", TRIM_ESCHEMA, "node 'relu_rows' (op_type Relu, opset 17): input 'rows' "
		                                     "is rows or columns of a channels-last map taken every "
		                                     "other one (a Slice with a step), which only a Concat may "
		                                     "read"},
		{"bad_rows_no_roll.onnx", TRIM_ESCHEMA, "node 'not_a_roll' (op_type Concat, opset 17): a "
		                                        "concatenation of rows or columns of a channels-last "
		                                        "map is supported as a cyclic shift"},
		{"bad_squeeze_not_one.onnx", TRIM_ESHAPE, "node 'squeeze' (op_type Squeeze, opset 17): axis 1 "
		                                          "has 4 elements, not 1"},
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
	tcase_add_test(to, test_onnx_fold);
	suite_add_tcase(s, to);
	return s;
}
