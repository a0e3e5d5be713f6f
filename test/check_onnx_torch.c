/* ONNX import of models exported by PyTorch (docs/onnx.md, "From PyTorch"): the
 * tiny exports kept in test/data/onnx (without PyTorch), and test/onnx/export_torch.py's
 * and export_transformers.py's exports made at test time where Debian's python3-torch
 * (and python3-torchvision) are installed, each against its published or hand count. */
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
	/* the same at 20 x 20, a 5 x 5 map its 2 x 2 windows do not divide (torchvision's
	 * padding): each block's attention on the map padded to 6 x 6 (a zeropad2d), cut
	 * back to 5 x 5 (a cropping2d) for the MLP, and the map padded again before patch
	 * merging. MACs by hand: stem 5 x 5 x 8 x 3 x 16 = 9,600; a block q k v 36 x 8 x
	 * 24, the products 9 windows x 2 heads x 4 x 4 x 4 each, proj 36 x 8 x 8, MLP
	 * 2 x 25 x 8 x 32: 24,320; patch merging [3, 3, 32] -> 16: 4,608; head 80 */
	ck_assert_msg(trim_network_load(&net, "test/data/onnx/torch_tiny_swin_pad.onnx") == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_network_macs(net), 9600 + 2 * 24320 + 4608 + 80);
	ck_assert_int_eq(count_type(net, "zeropad2d"), 3);
	ck_assert_int_eq(count_type(net, "cropping2d"), 2);
	for (size_t k = 0; k < trim_network_layer_count(net); k++) {
		const char *type = trim_network_layer_type(net, k);
		if (!strcmp(type, "zeropad2d") || !strcmp(type, "cropping2d")) {
			trim_network_layer_shape(net, k, hwc, 3);
			int pad = !strcmp(type, "zeropad2d");
			ck_assert(hwc[0] == (pad ? 6 : 5) && hwc[1] == (pad ? 6 : 5) && hwc[2] == 8);
		}
	}
	trim_network_free(net);
	/* a fuzz finding: the same export with one Slice's starts read from another
	 * constant, so that a Slice takes a whole piece of the cut map; the piece keeps
	 * the map it was cut from (it had none: the Concat then read before the values'
	 * array), and the Add after it is refused with the shapes it sees */
	net = NULL;
	ck_assert_int_eq(trim_network_load(&net, "test/data/onnx/bad_swin_cut_slice.onnx"), TRIM_ESHAPE);
	ck_assert_msg(strstr(trim_last_error(), "node '/blocks/blocks.0/Add_1' (op_type Add, opset 13): adds "
	                                        "activations of different shapes"), "%s", trim_last_error());
	ck_assert_ptr_null(net);
	/* a batch of 2 (the export's batch is symbolic): the windows of both samples, the
	 * same MACs a sample */
	ck_assert_int_eq(trim_onnx_options_create(&o), 0);
	ck_assert_int_eq(trim_onnx_options_set_batch(o, 2), 0);
	ck_assert_msg(trim_network_load_onnx(&net, "test/data/onnx/torch_tiny_swin.onnx", o) == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_network_batch(net), 2);
	ck_assert_int_eq(trim_network_macs(net), 6144 + 2 * 13312 + 2048 + 80);
	trim_network_free(net);
	trim_onnx_options_free(o);
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
	/* timm's Attention (16 features, 4 heads, 5 tokens): q, k and v by qkv.unbind(0),
	 * a Split of the stacked axis into three of size 1, each squeezed; then an
	 * Unsqueeze and a Squeeze of the result, free views. qkv 5 x 16 x 48, the products
	 * 4 heads x 5 x 5 x 4 each, proj 5 x 16 x 16 */
	ck_assert_msg(trim_network_load(&net, "test/data/onnx/torch_timm_attn_tiny.onnx") == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_network_macs(net), 3840 + 2 * 400 + 1280);
	ck_assert_int_eq(count_type(net, "matmul"), 2);
	ck_assert_int_eq(count_type(net, "split"), 3);
	ck_assert_int_eq(count_type(net, "dense"), 2);
	trim_network_free(net);
	ck_assert_int_eq(trim_onnx_to_yaml(&yaml, "test/data/onnx/torch_timm_attn_tiny.onnx", NULL), 0);
	ck_assert_int_eq(count_substr(yaml, "sizes: [16, 16, 16], index: "), 3);
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
	                                   "torch_tiny_convnext.onnx", "torch_tiny_swin.onnx",
	                                   "torch_tiny_swin_pad.onnx"};
	for (size_t k = 0; k < sizeof tiny / sizeof *tiny; k++) {
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
	/* at 256 x 256 the maps of 64, 32, 16 and 8 are padded to 70, 35, 21 and 14 for the
	 * 7 x 7 windows: q k v and the projection 4 Pp C^2 and the products 2 Pp 49 C on
	 * the padded positions Pp, the MLP 8 P C^2 on the map's P, patch merging
	 * P/4 x 4C x 2C, stem 64^2 x 96 x 48, head 768 x 1000: 7,345,441,536 (the same
	 * formula gives 4,490,566,656 at 224) */
	trim_network *s256 = import("torch_swin_t_256.onnx", NULL);
	ck_assert_int_eq(trim_network_macs(s256), 7345441536LL);
	ck_assert_int_eq(trim_network_params(s256), 28265032);
	ck_assert_int_eq(count_type(s256, "zeropad2d"), 12);
	ck_assert_int_eq(count_type(s256, "cropping2d"), 12);
	trim_network_free(s256);
	/* both exported in training mode too (StochasticDepth's drop probability 0: PyTorch
	 * cannot export its Bernoulli): no BatchNorm to fold, so the same network as the
	 * eval-mode export, to the training workloads */
	static const char *const trained[2][2] = {{"torch_convnext_tiny_train.onnx", "torch_convnext_tiny.onnx"},
	                                          {"torch_swin_t_train.onnx", "torch_swin_t.onnx"}};
	for (size_t k = 0; k < 2; k++) {
		trim_network *tr = import(trained[k][0], NULL), *ev = import(trained[k][1], NULL);
		ck_assert_int_eq(trim_network_macs(tr), k ? 4490566656LL : 4455531264LL);
		ck_assert_int_eq(trim_network_params(tr), trim_network_params(ev));
		ck_assert_int_eq(trim_network_layer_count(tr), trim_network_layer_count(ev));
		char *jt = workloads_json(tr), *je = workloads_json(ev);
		const char *tt = strstr(jt, "\"totals\""), *te = strstr(je, "\"totals\"");
		ck_assert(tt && te && strchr(te, '}'));
		ck_assert_msg(strncmp(tt, te, (size_t)(strchr(te, '}') - te)) == 0, "%s: %.200s, eval's %.200s",
		              trained[k][0], tt, te);
		trim_string_free(jt);
		trim_string_free(je);
		trim_network_free(tr);
		trim_network_free(ev);
	}
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
	/* timm's ViT-B attention at 197 tokens, q k v unbound: qkv 197 x 768 x 2304, the
	 * products 2 x 12 x 197^2 x 64, proj 197 x 768^2; as the same model with
	 * qkv[0], qkv[1], qkv[2] (torchvision's Swin) would give */
	net = import("torch_timm_attn.onnx", NULL);
	ck_assert_int_eq(trim_network_macs(net), 348585984 + 2 * 29805312 + 116195328);
	ck_assert_int_eq(count_type(net, "matmul"), 2);
	ck_assert_int_eq(count_type(net, "split"), 3);
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

Suite *onnx_torch_suite(void)
{
	Suite *s = suite_create("onnx_torch");
	/* the exports of torchvision's CNNs, ConvNeXt and Swin: a minute or more on a
	 * loaded machine */
	TCase *to = tcase_create("onnx_torch");
	tcase_set_timeout(to, 400);
	tcase_add_test(to, test_onnx_real_exports);
	tcase_add_test(to, test_onnx_from_pytorch);
	suite_add_tcase(s, to);
	TCase *tx = tcase_create("transformers");
	tcase_set_timeout(tx, 400);
	tcase_add_test(tx, test_onnx_transformers);
	suite_add_tcase(s, tx);
	return s;
}
