/* Architecture loader: shipped models, derived fields, every bad-input case
 * (code, file:line:col and key path), and the `trim arch` CLI. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "trim.h"

static const char *const shipped[] = {
	"models/arch/eyeriss.yaml", "models/arch/training-baseline.yaml",
	"models/arch/fpga-pynq-z1.yaml", "models/arch/fpga-1.yaml", "models/arch/fpga-2.yaml",
	"models/arch/fpga-3.yaml", "models/arch/fpga-4.yaml", "models/arch/fpga-5.yaml",
	"models/arch/systolic-32x32.yaml", "models/arch/simba-like.yaml", "test/data/arch/accelergy-eyeriss.yaml"};

START_TEST(every_shipped_arch_loads_and_reports)
{
	for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
		trim_arch *a = NULL;
		char *text = NULL;
		int rc = trim_arch_load(&a, shipped[i]);
		ck_assert_msg(rc == 0, "%s: %s", shipped[i], trim_last_error());
		rc = trim_arch_report(a, NULL, TRIM_FORMAT_JSON, &text);
		ck_assert_msg(rc == 0, "%s: %s", shipped[i], trim_last_error());
		ck_assert_ptr_nonnull(strstr(text, "\"levels\""));
		trim_string_free(text);
		trim_arch_free(a);
	}
}
END_TEST

START_TEST(eyeriss_organisation)
{
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	ck_assert_str_eq(trim_arch_name(a), "eyeriss");
	ck_assert_str_eq(trim_arch_technology(a), "65nm");
	ck_assert_int_eq(trim_arch_level_count(a), 5);
	ck_assert_int_eq(trim_arch_total_pes(a), 168);
	ck_assert_int_eq(trim_arch_word_bits(a), 16);
	ck_assert(trim_arch_clock_mhz(a) == 200.0);
	int glb = trim_arch_level_find(a, "GLB"), rf = trim_arch_level_find(a, "RF");
	int noc = trim_arch_level_find(a, "PE array");
	ck_assert_int_eq(glb, 1);
	ck_assert_int_eq(trim_arch_level_capacity(a, glb), 108 * 1024);
	ck_assert_int_eq(trim_arch_level_instances(a, glb), 1);
	/* 12 + 224 + 24 sixteen-bit entries */
	ck_assert_int_eq(trim_arch_level_capacity(a, rf), 520);
	ck_assert_int_eq(trim_arch_level_instances(a, rf), 168);
	ck_assert_str_eq(trim_arch_level_class(a, rf), "regfile");
	ck_assert_int_eq(trim_arch_level_type(a, noc), TRIM_LEVEL_SPATIAL);
	ck_assert_int_eq(trim_arch_level_type(a, 4), TRIM_LEVEL_COMPUTE);
	int64_t f[2];
	ck_assert_int_eq(trim_arch_level_fanout(a, noc, f, 2), 0);
	ck_assert_int_eq(f[0] * f[1], 168);
	ck_assert_int_eq(trim_arch_level_capacity(a, 0), 0); /* unbounded DRAM */
	ck_assert_ptr_null(trim_arch_level_name(a, 5));
	ck_assert_int_eq(trim_arch_level_type(a, -1), TRIM_EINVAL);
	ck_assert_int_eq(trim_arch_level_find(a, "nope"), TRIM_ENOTFOUND);
	trim_arch_free(a);
	trim_arch_free(NULL);
}
END_TEST

START_TEST(training_baseline_organisation)
{
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/training-baseline.yaml"), 0);
	ck_assert_int_eq(trim_arch_total_pes(a), 256);
	ck_assert_int_eq(trim_arch_word_bits(a), 32);
	ck_assert_int_eq(trim_arch_level_capacity(a, trim_arch_level_find(a, "RF")), 1024);
	ck_assert_int_eq(trim_arch_level_capacity(a, trim_arch_level_find(a, "GLB")), 256 * 1024);
	trim_arch *b = NULL;
	ck_assert_int_eq(trim_arch_clone(&b, a), 0);
	ck_assert_str_eq(trim_arch_file(b), trim_arch_file(a));
	trim_arch_free(a);
	trim_arch_free(b);
}
END_TEST

/* ---- bad input ------------------------------------------------------------ */

#define HEAD "schema_version: 1\nname: t\nclock_mhz: 100\ntechnology: 65nm\nword_bits: 16\nlevels:\n"
#define DRAM "  - {name: DRAM, type: storage, class: dram, technology: ddr3}\n"
#define GLB "  - {name: GLB, type: storage, class: sram, capacity: 64 KB}\n"
#define NOC "  - {name: NoC, type: spatial, fanout: [4, 4], network: mesh}\n"
#define MAC "  - {name: MAC, type: compute, datatype: int16}\n"

/* Deeper hierarchies: two spatial levels in a row and a level that keeps
 * nothing (Timeloop's bypass-all DummyBuffer) load; instances follow the
 * fan-outs above each level. */
START_TEST(deeper_hierarchies_load)
{
	static const char *const yaml =
		HEAD DRAM NOC "  - {name: Lanes, type: spatial, fanout: 2, network: bus, multicast: true}\n"
		"  - {name: Dummy, type: storage, class: regfile, entries: 16, keep: []}\n"
		"  - {name: Cols, type: spatial, fanout: 3, network: bus}\n"
		"  - {name: RF, type: storage, class: regfile, entries: 64}\n" MAC;
	trim_arch *a = NULL;
	char *text = NULL;
	ck_assert_msg(trim_arch_load_string(&a, yaml, "deep.yaml") == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_arch_level_count(a), 7);
	ck_assert_int_eq(trim_arch_total_pes(a), 16 * 2 * 3);
	ck_assert_int_eq(trim_arch_level_instances(a, trim_arch_level_find(a, "Lanes")), 16);
	ck_assert_int_eq(trim_arch_level_instances(a, trim_arch_level_find(a, "Dummy")), 32);
	ck_assert_int_eq(trim_arch_level_instances(a, trim_arch_level_find(a, "RF")), 96);
	ck_assert_int_eq(trim_arch_report(a, NULL, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_ptr_nonnull(strstr(text, "Dummy"));
	trim_string_free(text);
	trim_arch_free(a);
}
END_TEST

/* One network per tensor (link_bits: {input, weight, output}): loads, the
 * report shows the widths; their sum is the level's link for area. */
START_TEST(per_tensor_networks_load)
{
	static const char *const yaml =
		HEAD DRAM GLB "  - {name: NoC, type: spatial, fanout: [4, 4], network: bus, link_bits: {input: 16, weight: 64, output: 128}}\n"
		"  - {name: RF, type: storage, class: regfile, entries: 64}\n" MAC;
	static const char *const one =
		HEAD DRAM GLB "  - {name: NoC, type: spatial, fanout: [4, 4], network: bus, link_bits: 208}\n"
		"  - {name: RF, type: storage, class: regfile, entries: 64}\n" MAC;
	trim_arch *a = NULL, *b = NULL;
	char *text = NULL, *json = NULL, *text_b = NULL;
	ck_assert_msg(trim_arch_load_string(&a, yaml, "pt.yaml") == 0, "%s", trim_last_error());
	ck_assert_msg(trim_arch_load_string(&b, one, "one.yaml") == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_arch_report(a, NULL, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_ptr_nonnull(strstr(text, "one network per tensor: input 16, weight 64, output 128 bits"));
	ck_assert_int_eq(trim_arch_report(a, NULL, TRIM_FORMAT_JSON, &json), 0);
	ck_assert_ptr_nonnull(strstr(json, "\"link_bits_per_tensor\":{\"input\":16,\"weight\":64,\"output\":128}"));
	/* the same area as one 208-bit link */
	ck_assert_int_eq(trim_arch_report(b, NULL, TRIM_FORMAT_TABLE, &text_b), 0);
	ck_assert_ptr_null(strstr(text_b, "one network per tensor"));
	ck_assert_ptr_nonnull(strstr(text, "total area:"));
	const char *area = strstr(text, "total area:"), *area_b = strstr(text_b, "total area:");
	size_t len = strcspn(area, "\n");
	ck_assert_msg(len == strcspn(area_b, "\n") && !strncmp(area, area_b, len), "%.40s vs %.40s", area, area_b);
	trim_string_free(text);
	trim_string_free(text_b);
	trim_string_free(json);
	trim_arch_free(a);
	trim_arch_free(b);
}
END_TEST

static const struct bad {
	const char *what, *yaml;
	int code;
	const char *where, *path, *msg;
} bad[] = {
	{"unknown level key", HEAD DRAM "  - {name: GLB, type: storage, class: sram, capacity: 1 KB, colour: red}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].colour", "unknown key"},
	{"unknown root key", "schema_version: 1\nfoo: 1\n", TRIM_ESCHEMA, "bad.yaml:2:1", "foo",
	 "unknown key"},
	{"missing capacity", HEAD DRAM "  - {name: GLB, type: storage, class: sram}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:5", "levels[1]", "capacity"},
	{"compute not last", HEAD DRAM MAC GLB, TRIM_ESCHEMA, "bad.yaml:8:5", "levels[1].type",
	 "must be the last level"},
	{"storage after compute", HEAD DRAM GLB MAC "  - {name: RF, type: storage, class: regfile, capacity: 64}\n",
	 TRIM_ESCHEMA, "bad.yaml:9:5", "levels[2].type", "must be the last level"},
	{"spatial first", HEAD NOC DRAM MAC, TRIM_ESCHEMA, "bad.yaml:7:5", "levels[0].type",
	 "first level must be storage"},
	{"dram inside", HEAD GLB DRAM MAC, TRIM_ESCHEMA, "bad.yaml:8:5", "levels[1].class",
	 "outermost"},
	{"zero capacity", HEAD DRAM "  - {name: GLB, type: storage, class: sram, capacity: 0}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].capacity", "positive size"},
	{"negative capacity", HEAD DRAM "  - {name: GLB, type: storage, class: sram, capacity: -4 KB}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].capacity", "positive size"},
	{"zero entries", HEAD DRAM "  - {name: GLB, type: storage, class: sram, entries: 0}\n" MAC,
	 TRIM_ERANGE, "bad.yaml:8:", "levels[1].entries", "out of range"},
	{"zero fanout", HEAD DRAM GLB "  - {name: NoC, type: spatial, fanout: [0, 4], network: mesh}\n" MAC,
	 TRIM_ERANGE, "bad.yaml:9:", "levels[2].fanout[0]", "out of range"},
	{"negative partition", HEAD DRAM "  - {name: RF, type: storage, class: regfile, partition: {input: -1}}\n" MAC,
	 TRIM_ERANGE, "bad.yaml:8:", "levels[1].partition.input", "out of range"},
	{"unknown tensor", HEAD DRAM "  - {name: RF, type: storage, class: regfile, capacity: 64, keep: [input, bias]}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].keep[1]", "unknown value 'bias'"},
	{"unknown class", HEAD DRAM "  - {name: GLB, type: storage, class: flash, capacity: 1 KB}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].class", "unknown value 'flash'"},
	{"duplicate level", HEAD DRAM "  - {name: DRAM, type: storage, class: sram, capacity: 1 KB}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].name", "used twice"},
	{"no compute", HEAD DRAM GLB, TRIM_ESCHEMA, "bad.yaml:8:5", "levels[1].type",
	 "last level must be the compute"},
	{"per-tensor link: unknown tensor", HEAD DRAM "  - {name: NoC, type: spatial, fanout: 4, network: bus, link_bits: {input: 16, weight: 16, output: 16, bias: 8}}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].link_bits.bias", "unknown key 'bias'"},
	{"per-tensor link: missing tensor", HEAD DRAM "  - {name: NoC, type: spatial, fanout: 4, network: bus, link_bits: {input: 16, output: 16}}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].link_bits", "missing required key 'weight'"},
	{"per-tensor link: zero width", HEAD DRAM "  - {name: NoC, type: spatial, fanout: 4, network: bus, link_bits: {input: 0, weight: 16, output: 16}}\n" MAC,
	 TRIM_ERANGE, "bad.yaml:8:", "levels[1].link_bits.input", "out of range"},
	{"schema version", "schema_version: 2\nname: t\n", TRIM_ERANGE, "bad.yaml:1:17",
	 "schema_version", "out of range"},
	{"missing technology", "schema_version: 1\nname: t\nclock_mhz: 1\nlevels: []\n",
	 TRIM_ESCHEMA, "bad.yaml:1:1", "", "missing required key 'technology'"},
	{"malformed yaml", HEAD "  - {name: DRAM, type: [storage\n", TRIM_EPARSE, "bad.yaml:", "",
	 "malformed YAML"},
	{"partition of a bypassed tensor", HEAD DRAM "  - {name: RF, type: storage, class: regfile, keep: [weight], partition: {input: 4, weight: 4}}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].partition", "does not keep"},
	{"instances contradict position", HEAD DRAM "  - {name: GLB, type: storage, class: sram, capacity: 1 KB, instances: per_pe}\n" MAC,
	 TRIM_ESCHEMA, "bad.yaml:8:", "levels[1].instances", "contradicts"},
};

START_TEST(bad_architecture)
{
	const struct bad *b = &bad[_i];
	trim_arch *a = NULL;
	trim_clear_error();
	int rc = trim_arch_load_string(&a, b->yaml, "bad.yaml");
	const char *msg = trim_last_error();
	ck_assert_msg(rc == b->code, "%s: code %d, expected %d (%s)", b->what, rc, b->code, msg);
	ck_assert_ptr_null(a);
	ck_assert_msg(strstr(msg, b->where) != NULL, "%s: '%s' lacks '%s'", b->what, msg, b->where);
	ck_assert_msg(strstr(msg, b->path) != NULL, "%s: '%s' lacks '%s'", b->what, msg, b->path);
	ck_assert_msg(strstr(msg, b->msg) != NULL, "%s: '%s' lacks '%s'", b->what, msg, b->msg);
}
END_TEST

/* Timeloop architecture files read unchanged (lib/arch/timeloop.c): 0.4's
 * nodes (Timeloop's own Eyeriss-like example) and a 0.3 subtree, level by
 * level; what cannot be translated is refused naming the Timeloop file's line
 * and column; trim import prints the translation. */
static void expect_level(const trim_arch *a, int i, const char *name, int type, int64_t cap, int bits)
{
	ck_assert_msg(!strcmp(trim_arch_level_name(a, i), name), "level %d: %s, expected %s", i,
	              trim_arch_level_name(a, i), name);
	ck_assert_int_eq(trim_arch_level_type(a, i), type);
	if (type == TRIM_LEVEL_STORAGE) {
		ck_assert_int_eq(trim_arch_level_capacity(a, i), cap);
		ck_assert_int_eq(trim_arch_level_word_bits(a, i), bits);
	}
}

START_TEST(timeloop_files)
{
	trim_arch *a = NULL;
	int64_t f[2];
	ck_assert_msg(trim_arch_load(&a, "test/data/timeloop-v4/arch.yaml") == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_arch_level_count(a), 8);
	expect_level(a, 0, "DRAM", TRIM_LEVEL_STORAGE, 0, 8);
	expect_level(a, 1, "shared_glb", TRIM_LEVEL_STORAGE, 131072, 8);   /* 16384 x 64 bits */
	expect_level(a, 2, "inter_PE_column_spatial", TRIM_LEVEL_SPATIAL, 0, 0);
	expect_level(a, 3, "inter_PE_spatial", TRIM_LEVEL_SPATIAL, 0, 0);
	expect_level(a, 4, "ifmap_spad", TRIM_LEVEL_STORAGE, 24, 8);        /* 12 x 16 bits */
	expect_level(a, 5, "weights_spad", TRIM_LEVEL_STORAGE, 384, 8);
	expect_level(a, 6, "psum_spad", TRIM_LEVEL_STORAGE, 32, 16);        /* 16 16-bit words */
	expect_level(a, 7, "mac", TRIM_LEVEL_COMPUTE, 0, 0);
	ck_assert_int_eq(trim_arch_level_fanout(a, 2, f, 2), 0);
	ck_assert(f[0] == 14 && f[1] == 1);
	ck_assert_int_eq(trim_arch_level_fanout(a, 3, f, 2), 0);
	ck_assert(f[0] == 1 && f[1] == 12);
	ck_assert_int_eq(trim_arch_total_pes(a), 168);
	ck_assert_str_eq(trim_arch_name(a), "arch");
	trim_arch_free(a);
	a = NULL;
	ck_assert_msg(trim_arch_load(&a, "test/data/timeloop-v3/arch.yaml") == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_arch_level_count(a), 9);
	expect_level(a, 1, "shared_glb", TRIM_LEVEL_STORAGE, 65536 * 2, 16);
	expect_level(a, 2, "inter_DummyBuffer_spatial", TRIM_LEVEL_SPATIAL, 0, 0);
	expect_level(a, 3, "DummyBuffer", TRIM_LEVEL_STORAGE, 32, 16);
	expect_level(a, 4, "inter_PE_spatial", TRIM_LEVEL_SPATIAL, 0, 0);
	ck_assert_int_eq(trim_arch_level_fanout(a, 4, f, 2), 0);
	ck_assert(f[0] == 1 && f[1] == 12);
	ck_assert_int_eq(trim_arch_total_pes(a), 168);
	trim_arch_free(a);
	/* the translation, printed and checked */
	char *y = NULL;
	ck_assert_int_eq(trim_arch_timeloop_yaml(&y, "test/data/timeloop-v4/arch.yaml"), 0);
	ck_assert_ptr_nonnull(strstr(y, "{name: \"shared_glb\", type: storage, class: sram, entries: 131072, "
	                                "word_bits: 8, block_size: 8, read_bw: 16, write_bw: 16, keep: [input, output]}"));
	ck_assert_ptr_nonnull(strstr(y, "link_bits: unlimited"));
	trim_string_free(y);
	ck_assert_int_eq(trim_arch_timeloop_yaml(&y, "models/arch/eyeriss.yaml"), TRIM_ESCHEMA);
	ck_assert_ptr_null(y);
	/* refused, with the Timeloop file's position */
	static const struct {
		const char *yaml, *where, *msg;
	} bad[] = {
		{"architecture:\n  version: 0.4\n  nodes:\n  - {name: DRAM, class: DRAM, attributes: {type: LPDDR4, "
		 "width: 64, datawidth: 8}}\n  - {name: noc, class: XY_NoC, attributes: {datawidth: 8}}\n"
		 "  - {name: mac, class: intmac, attributes: {multiplier_width: 8}}\n",
		 "tl.yaml:5:", "of class 'XY_NoC': libtrim reads storage classes"},
		{"architecture:\n  version: 0.4\n  nodes:\n  - {name: DRAM, class: DRAM, attributes: {type: LPDDR4, "
		 "width: 64, datawidth: 8}}\n  - {name: buf, class: SRAM, attributes: {depth: 'a * 2', width: 64, "
		 "datawidth: 8}}\n  - {name: mac, class: intmac, attributes: {multiplier_width: 8}}\n",
		 "tl.yaml:5:", "not a whole number"},
		{"architecture:\n  version: 0.4\n  nodes:\n  - {name: DRAM, class: DRAM, attributes: {type: LPDDR4, "
		 "width: 60, datawidth: 8}}\n  - {name: mac, class: intmac, attributes: {multiplier_width: 8}}\n",
		 "tl.yaml:4:", "width 60 is not a multiple of datawidth 8"},
		{"architecture:\n  version: 0.4\n  nodes:\n  - {name: DRAM, class: DRAM, attributes: {type: GDDR6, "
		 "width: 64, datawidth: 8}}\n  - {name: mac, class: intmac, attributes: {multiplier_width: 8}}\n",
		 "tl.yaml:4:", "DRAM type 'GDDR6': libtrim knows DDR3, LPDDR4 and HBM2"},
		{"architecture:\n  version: 0.4\n  nodes:\n  - {name: DRAM, class: DRAM, attributes: {type: LPDDR4, "
		 "width: 64, datawidth: 8}}\n",
		 "tl.yaml:2:", "no MAC component"},
		{"architecture:\n  version: 0.3\n  subtree:\n  - name: sys\n    local:\n    - {name: DRAM, class: DRAM, "
		 "attributes: {width: 64, word-bits: 8}}\n    - {name: 'buf[0..9]', class: SRAM, attributes: {memory_depth: 4, "
		 "width: 8, word-bits: 8, meshX: 4}}\n    - {name: mac, class: intmac, attributes: {datawidth: 8}}\n",
		 "tl.yaml:7:", "meshX 4 of 'buf' does not divide its fan-out 10"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		a = NULL;
		int rc = trim_arch_load_string(&a, bad[k].yaml, "tl.yaml");
		const char *msg = trim_last_error();
		ck_assert_msg(rc == TRIM_ESCHEMA, "case %zu: rc %d (%s)", k, rc, msg);
		ck_assert_ptr_null(a);
		ck_assert_msg(strstr(msg, bad[k].where) && strstr(msg, bad[k].msg), "case %zu: '%s'", k, msg);
	}
	/* numbers past int64_t, NaN and instance counts that overflow: refused as
	 * out of range (a fuzzer's finding: the cast of 9223372036854775807 read
	 * as a double to int64_t was undefined) */
#define TL4(ATTRS) "architecture:\n  version: 0.4\n  nodes:\n  - {name: DRAM, class: DRAM, attributes: {type: " \
	"LPDDR4, width: 64, datawidth: 8}}\n  - {name: buf, class: SRAM, attributes: {" ATTRS "}}\n" \
	"  - {name: mac, class: intmac, attributes: {multiplier_width: 8}}\n"
#define TL3(SYS, BUF) "architecture:\n  version: 0.3\n  subtree:\n  - name: '" SYS "'\n    local:\n" \
	"    - {name: DRAM, class: DRAM, attributes: {width: 64, word-bits: 8}}\n    - {name: '" BUF "', class: " \
	"SRAM, attributes: {memory_depth: 4, width: 8, word-bits: 8}}\n    - {name: mac, class: intmac, " \
	"attributes: {datawidth: 8}}\n"
	static const struct {
		const char *yaml, *where, *msg;
	} huge[] = {
		{TL4("depth: 4, width: 64, datawidth: 9223372036854775807"), "tl.yaml:5:", "datawidth must be in [1, 4096]"},
		{TL4("depth: 1e300, width: 64, datawidth: 8"), "tl.yaml:5:", "depth must be in [1, 1099511627776]"},
		{TL4("depth: -9223372036854775809, width: 64, datawidth: 8"), "tl.yaml:5:", "depth must be in"},
		{TL4("depth: nan, width: 64, datawidth: 8"), "tl.yaml:5:", "'nan' is not a whole number"},
		{TL4("depth: 4, width: inf, datawidth: 8"), "tl.yaml:5:", "width must be in"},
		{TL3("sys", "buf[0..9223372036854775807]"), "tl.yaml:7:", "more than 1099511627776 instances"},
		{TL3("sys[0..1048575]", "buf[0..2097151]"), "tl.yaml:7:", "more than 1099511627776 instances in all"},
	};
#undef TL4
#undef TL3
	for (size_t k = 0; k < sizeof huge / sizeof *huge; k++) {
		a = NULL;
		int rc = trim_arch_load_string(&a, huge[k].yaml, "tl.yaml");
		const char *msg = trim_last_error();
		ck_assert_msg(rc == TRIM_ERANGE || rc == TRIM_ESCHEMA, "huge %zu: rc %d (%s)", k, rc, msg);
		ck_assert_ptr_null(a);
		ck_assert_msg(strstr(msg, huge[k].where) && strstr(msg, huge[k].msg), "huge %zu: '%s'", k, msg);
	}
}
END_TEST

START_TEST(missing_file)
{
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/no-such-file.yaml"), TRIM_EIO);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "no-such-file.yaml"));
	ck_assert_ptr_null(a);
	ck_assert_int_eq(trim_arch_load(NULL, "x"), TRIM_EINVAL);
}
END_TEST

START_TEST(unknown_technology)
{
	trim_arch *a = NULL;
	trim_energy *t = NULL;
	static const char y[] = "schema_version: 1\nname: t\nclock_mhz: 100\ntechnology: 3nm-magic\n"
		"levels:\n" DRAM MAC;
	ck_assert_int_eq(trim_arch_load_string(&a, y, "bad.yaml"), 0);
	ck_assert_int_eq(trim_energy_load_for_arch(&t, a), TRIM_ENOTFOUND);
	const char *msg = trim_last_error();
	ck_assert_msg(strstr(msg, "bad.yaml:4:13: technology") != NULL, "%s", msg);
	ck_assert_msg(strstr(msg, "unknown technology '3nm-magic'") != NULL, "%s", msg);
	char *text = NULL;
	ck_assert_int_eq(trim_arch_report(a, NULL, TRIM_FORMAT_TABLE, &text), TRIM_ENOTFOUND);
	ck_assert_ptr_null(text);
	ck_assert_ptr_null(t);
	trim_arch_free(a);
}
END_TEST

START_TEST(technology_path_and_data_dir)
{
	char *p = NULL;
	/* next to the architecture: ../../energy_tables */
	ck_assert_int_eq(trim_energy_resolve("45nm", "models/arch/eyeriss.yaml", &p), 0);
	ck_assert_str_eq(p, "models/arch/../../energy_tables/45nm.yaml");
	trim_string_free(p);
	/* then $TRIM_DATA_DIR */
	setenv("TRIM_DATA_DIR", ".", 1);
	ck_assert_int_eq(trim_energy_resolve("65nm", "/nonexistent/a.yaml", &p), 0);
	ck_assert_str_eq(p, "./energy_tables/65nm.yaml");
	trim_string_free(p);
	unsetenv("TRIM_DATA_DIR");
	/* then ./energy_tables */
	ck_assert_int_eq(trim_energy_resolve("fpga-xc7z020", NULL, &p), 0);
	ck_assert_str_eq(p, "energy_tables/fpga-xc7z020.yaml");
	trim_string_free(p);
	/* a directory of Accelergy tables */
	ck_assert_int_eq(trim_energy_resolve("accelergy-example", NULL, &p), 0);
	ck_assert_str_eq(p, "energy_tables/accelergy-example");
	trim_string_free(p);
}
END_TEST

/* ---- CLI ----------------------------------------------------------------- */

static int run(const char *args)
{
	const char *cli = getenv("TRIM_CLI");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s >/dev/null 2>&1", cli ? cli : "build/bin/trim", args);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(cli_arch)
{
	ck_assert_int_eq(run("arch models/arch/eyeriss.yaml"), 0);
	ck_assert_int_eq(run("arch models/arch/fpga-4.yaml --format json"), 0);
	ck_assert_int_eq(run("arch models/arch/eyeriss.yaml --table energy_tables/45nm.yaml"), 0);
	ck_assert_int_eq(run("arch models/arch/no-such.yaml"), 2);
	ck_assert_int_eq(run("arch models/arch/eyeriss.yaml --format xml"), 2);
	ck_assert_int_eq(run("arch"), 2);
	FILE *f = fopen("/tmp/trim-check-arch-bad.yaml", "w");
	ck_assert_ptr_nonnull(f);
	fputs(HEAD DRAM MAC GLB, f);
	fclose(f);
	ck_assert_int_eq(run("arch /tmp/trim-check-arch-bad.yaml"), 2);
	remove("/tmp/trim-check-arch-bad.yaml");

	/* JSON of an FPGA design carries a boolean "fits" */
	const char *cli = getenv("TRIM_CLI");
	char cmd[512], buf[65536];
	snprintf(cmd, sizeof cmd, "%s arch models/arch/fpga-5.yaml --format json",
	         cli ? cli : "build/bin/trim");
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t n = fread(buf, 1, sizeof buf - 1, p);
	buf[n] = '\0';
	pclose(p);
	ck_assert_msg(strstr(buf, "\"fits\":false") != NULL, "%s", buf);
}
END_TEST

/* Eyeriss against its silicon (docs/validation.md): AlexNet conv1-5 at batch
 * 4 under Timeloop's row-stationary constraints (models/constraints/
 * timeloop-eyeriss-rs.yaml), the fastest mapping libtrim finds (of those,
 * the least energy: ties on the delay break by energy), beside the
 * chip's measurements (Chen et al., JSSC 2017, Table V: processing latency,
 * active PEs, chip power at 200 MHz). Latency within 15% of each layer's (the
 * largest deviation is 12%, conv3; TRIM reports 17%); the active PEs of
 * conv3-5 exactly, conv1-2 fewer (E = 55 and 27 need imperfect
 * factorisation); on-chip power (DRAM excluded) within 15% for conv1, whose
 * ifmaps have no zeros; conv2 0.79x (the least energy at its fastest time:
 * 0.75-1.0x; the 0.90x it had came from ties broken by index); conv3-5, whose
 * ifmaps are 72-79% zeros the chip gates, above the measurement (a dense
 * evaluation) but within 1.7x. */
START_TEST(eyeriss_validation)
{
	static const struct {
		const char *layer;
		double ms, mw;
		int pes;
	} pub[5] = {{"conv1", 16.5, 332, 154}, {"conv2", 39.2, 288, 135}, {"conv3", 21.8, 266, 156},
	            {"conv4", 16.0, 235, 156}, {"conv5", 10.0, 236, 156}};
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_constraints *c = NULL;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 4, 0), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	ck_assert_int_eq(trim_constraints_load(&c, "models/constraints/timeloop-eyeriss-rs.yaml"), 0);
	double total_ms = 0, total_pub = 0;
	for (int k = 0; k < 5; k++) {
		size_t i = 0;
		trim_search *s = NULL;
		trim_mapping *m = NULL;
		trim_eval *e = NULL;
		ck_assert_int_eq(trim_workloads_find(w, pub[k].layer, TRIM_PHASE_FW, &i), 0);
		ck_assert_int_eq(trim_search_create(&s, w, i, a, NULL), 0);
		ck_assert_int_eq(trim_search_set_int(s, TRIM_SEARCH_GOAL, TRIM_GOAL_DELAY), 0);
		ck_assert_int_eq(trim_search_set_constraints(s, c), 0);
		ck_assert_msg(trim_search_run(s) == 0, "%s", trim_last_error());
		ck_assert_int_eq(trim_search_best(s, &m), 0);
		ck_assert_int_eq(trim_eval_mapping(&e, w, i, a, NULL, m), 0);
		double sec = trim_eval_cycles(e) / (trim_arch_clock_mhz(a) * 1e6), ms = sec * 1e3;
		size_t n = trim_breakdown_size(trim_arch_level_count(a));
		double *en = calloc(n, sizeof *en), dram = 0;
		ck_assert_ptr_nonnull(en);
		ck_assert_int_eq(trim_eval_breakdown(e, NULL, en, n), 0);
		for (size_t j = 0; j < 3 * TRIM_ACT_COUNT; j++) /* level 0: DRAM */
			dram += en[j];
		double mw = (trim_eval_energy_pj(e) - dram) * 1e-12 / sec * 1e3;
		int pes = (int)(trim_eval_pe_utilization(e) * trim_arch_total_pes(a) + 0.5);
		ck_assert_msg(ms > 0.85 * pub[k].ms && ms < 1.15 * pub[k].ms, "%s: %.2f ms, the chip %.1f ms",
		              pub[k].layer, ms, pub[k].ms);
		if (k >= 2)
			ck_assert_msg(pes == pub[k].pes, "%s: %d PEs, the chip %d", pub[k].layer, pes, pub[k].pes);
		else
			ck_assert_msg(pes < pub[k].pes && pes > 0.75 * pub[k].pes, "%s: %d PEs", pub[k].layer, pes);
		if (k == 0)
			ck_assert_msg(mw > 0.85 * pub[k].mw && mw < 1.15 * pub[k].mw, "%s: %.0f mW, the chip %.0f",
			              pub[k].layer, mw, pub[k].mw);
		else if (k == 1)
			ck_assert_msg(mw > 0.75 * pub[k].mw && mw < pub[k].mw, "%s: %.0f mW, the chip %.0f", pub[k].layer, mw,
			              pub[k].mw);
		else
			ck_assert_msg(mw > pub[k].mw && mw < 1.7 * pub[k].mw, "%s: %.0f mW, the chip %.0f",
			              pub[k].layer, mw, pub[k].mw);
		total_ms += ms;
		total_pub += pub[k].ms;
		free(en);
		trim_eval_free(e);
		trim_mapping_free(m);
		trim_search_free(s);
	}
	/* the five layers: 103.5 ms on the chip */
	ck_assert_msg(total_ms > 0.9 * total_pub && total_ms < 1.1 * total_pub, "%.1f ms", total_ms);
	trim_constraints_free(c);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(b);
	size_t got = fread(b, 1, (size_t)n, f);
	b[got] = '\0';
	fclose(f);
	return b;
}

/* The roofline of test/data/arch/roofline.yaml, worked by hand (its header):
 * peak 16 PEs x 2 = 32 MACs per cycle; each figure is the denominator of the
 * evaluator's cycles_l (docs/model.md) and the peak over it. */
START_TEST(roofline_hand_worked)
{
	trim_arch *a = NULL;
	char *text = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "test/data/arch/roofline.yaml"), 0);
	ck_assert_int_eq(trim_arch_report(a, NULL, TRIM_FORMAT_JSON, &text), 0);
	static const char *const want[] = {
		"\"roofline\":{\"peak_macs_per_cycle\":32,\"binds_first\":\"DRAM\",\"levels\":[",
		"{\"name\":\"DRAM\",\"read_words_per_cycle\":2,\"write_words_per_cycle\":1,\"read_macs_per_word\":16,"
		"\"write_macs_per_word\":32,\"macs_per_word\":32}",
		"{\"name\":\"GLB\",\"read_words_per_cycle\":4,\"write_words_per_cycle\":4,\"read_macs_per_word\":8,"
		"\"write_macs_per_word\":8,\"macs_per_word\":8}",
		"{\"name\":\"Array\",\"link_words_per_cycle\":{\"input\":2,\"weight\":2,\"output\":2},\"shared_link\":true,"
		"\"delivered_words_per_cycle\":32,\"macs_per_word\":16}",
		"{\"name\":\"RF\",\"read_words_per_cycle\":16,\"write_words_per_cycle\":16,\"read_macs_per_word\":2,"
		"\"write_macs_per_word\":2,\"macs_per_word\":2}]}",
		",\"warnings\":[]}\n"};
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
		ck_assert_msg(strstr(text, want[k]) != NULL, "%s\nnot in\n%s", want[k], text);
	trim_string_free(text);
	ck_assert_int_eq(trim_arch_report(a, NULL, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_msg(strstr(text, "\nroofline: peak 32 MACs per cycle (16 PEs x 2)\n") != NULL, "%s", text);
	const char *dram = strstr(text, "\n  DRAM ");
	ck_assert_msg(dram && strstr(dram, "read 2, write 1") && strstr(dram, "read 16, write 32  <- binds first\n") &&
	                      strstr(dram, "read 16, write 32  <- binds first\n") < strchr(dram + 1, '\n') + 1,
	              "%s", text);
	ck_assert_msg(strstr(text, "link 2 (multicast: up to 32 arrive)") != NULL, "%s", text);
	ck_assert_ptr_null(strstr(text, "warning:"));
	trim_string_free(text);
	trim_arch_free(a);

	/* one network per tensor: 1, 2 and 4 words per cycle, 32, 16 and 8 MACs per word */
	char *yaml = slurp("test/data/arch/roofline.yaml"), *at = strstr(yaml, "link_bits: 32}");
	ck_assert_ptr_nonnull(at);
	char buf[4096];
	snprintf(buf, sizeof buf, "%.*slink_bits: {input: 16, weight: 32, output: 64}}%s", (int)(at - yaml), yaml,
	         at + strlen("link_bits: 32}"));
	ck_assert_msg(trim_arch_load_string(&a, buf, "per-tensor.yaml") == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_arch_report(a, NULL, TRIM_FORMAT_JSON, &text), 0);
	ck_assert_msg(strstr(text, "{\"name\":\"Array\",\"link_words_per_cycle\":{\"input\":1,\"weight\":2,\"output\":4},"
	                           "\"shared_link\":false,\"delivered_words_per_cycle\":112,\"macs_per_word\":32}"),
	              "%s", text);
	ck_assert_msg(strstr(text, "\"binds_first\":\"DRAM\"") != NULL, "%s", text); /* DRAM first on the tie */
	trim_string_free(text);
	trim_arch_free(a);
	free(yaml);
}
END_TEST

/* trim arch warns on a DRAM without bandwidth and on a link of one word per
 * cycle into 16 PEs (each word must feed 32 MACs), and only then */
START_TEST(arch_warnings_before_the_work)
{
	char *yaml = slurp("test/data/arch/roofline.yaml");
	char buf[4096];
	const char *dram = strstr(yaml, "read_bw: 2, write_bw: 1}"), *link = strstr(yaml, "link_bits: 32}");
	ck_assert(dram && link && dram < link);
	snprintf(buf, sizeof buf, "%.*s}%.*slink_bits: 16}%s", (int)(dram - yaml), yaml,
	         (int)(link - dram - strlen("read_bw: 2, write_bw: 1}")), dram + strlen("read_bw: 2, write_bw: 1}"),
	         link + strlen("link_bits: 32}"));
	trim_arch *a = NULL;
	char *text = NULL;
	ck_assert_msg(trim_arch_load_string(&a, buf, "starved.yaml") == 0, "%s\n%s", trim_last_error(), buf);
	ck_assert_int_eq(trim_arch_warnings(a, NULL, -1, TRIM_FORMAT_JSON, &text), 0);
	ck_assert_msg(strstr(text, "[{\"kind\": \"no_bandwidth\", \"level\": \"DRAM\", \"workloads\": 0, \"message\": "
	                           "\"DRAM has no read_bw or write_bw: its reads and writes take no time") != NULL,
	              "%s", text);
	ck_assert_msg(strstr(text, "{\"kind\": \"starved_link\", \"level\": \"Array\", \"workloads\": 0, \"message\": "
	                           "\"Array: a 16-bit link of 16-bit words carries 1 word per cycle into 16 children: "
	                           "each word must feed 32 MACs") != NULL,
	              "%s", text);
	trim_string_free(text);
	/* the same in trim_arch_report's table */
	ck_assert_int_eq(trim_arch_report(a, NULL, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_msg(strstr(text, "\nwarning: DRAM has no read_bw or write_bw") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "\nwarning: Array: a 16-bit link") != NULL, "%s", text);
	trim_string_free(text);
	/* bad arguments */
	ck_assert_int_eq(trim_arch_warnings(a, NULL, 0, TRIM_FORMAT_TABLE, &text), TRIM_ERANGE);
	ck_assert_int_eq(trim_arch_warnings(a, NULL, -2, TRIM_FORMAT_TABLE, &text), TRIM_EINVAL);
	ck_assert_int_eq(trim_arch_warnings(a, NULL, -1, TRIM_FORMAT_CSV, &text), TRIM_EINVAL);
	ck_assert_int_eq(trim_arch_warnings(NULL, NULL, -1, TRIM_FORMAT_TABLE, &text), TRIM_EINVAL);
	trim_arch_free(a);
	/* one word per cycle into 15 children, the read bandwidth alone missing */
	snprintf(buf, sizeof buf, "%.*sread_bw: 2}%.*slink_bits: 16}%s", (int)(dram - yaml), yaml,
	         (int)(link - dram - strlen("read_bw: 2, write_bw: 1}")), dram + strlen("read_bw: 2, write_bw: 1}"),
	         link + strlen("link_bits: 32}"));
	char *f = strstr(buf, "fanout: [4, 4]");
	ck_assert_ptr_nonnull(f);
	memcpy(f, "fanout: [5, 3]", 14);
	ck_assert_msg(trim_arch_load_string(&a, buf, "fifteen.yaml") == 0, "%s\n%s", trim_last_error(), buf);
	ck_assert_int_eq(trim_arch_warnings(a, NULL, -1, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_str_eq(text, "warning: DRAM has no write_bw: its writes take no time (0 cycles in every workload, "
	                       "inter-layer ones included); give it the words per cycle of its interface\n");
	trim_string_free(text);
	trim_arch_free(a);
	/* Eyeriss: none */
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	ck_assert_int_eq(trim_arch_warnings(a, NULL, -1, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_str_eq(text, "");
	trim_string_free(text);
	trim_arch_free(a);
	free(yaml);
}
END_TEST

Suite *arch_suite(void)
{
	Suite *s = suite_create("arch");
	TCase *tc = tcase_create("arch");
	tcase_add_test(tc, every_shipped_arch_loads_and_reports);
	tcase_add_test(tc, eyeriss_organisation);
	tcase_add_test(tc, eyeriss_validation);
	tcase_add_test(tc, training_baseline_organisation);
	tcase_add_test(tc, deeper_hierarchies_load);
	tcase_add_test(tc, per_tensor_networks_load);
	tcase_add_loop_test(tc, bad_architecture, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, timeloop_files);
	tcase_add_test(tc, unknown_technology);
	tcase_add_test(tc, technology_path_and_data_dir);
	tcase_add_test(tc, cli_arch);
	tcase_add_test(tc, roofline_hand_worked);
	tcase_add_test(tc, arch_warnings_before_the_work);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
