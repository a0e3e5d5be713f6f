/* The designer: canonical order, names, constraints, point architectures, bad spaces. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trim.h"

START_TEST(fpga_space)
{
	trim_space *s = NULL;
	ck_assert_int_eq(trim_space_load(&s, "models/arch/spaces/fpga.yaml"), 0);
	ck_assert_str_eq(trim_space_name(s), "fpga");
	ck_assert_uint_eq(trim_space_grid_size(s), 5);
	ck_assert_uint_eq(trim_space_count(s), 3); /* FPGA-4 and FPGA-5 do not fit */
	ck_assert_str_eq(trim_space_point_name(s, 0), "FPGA-1");
	ck_assert_str_eq(trim_space_point_name(s, 2), "FPGA-3");
	ck_assert_ptr_null(trim_space_point_name(s, 3));
	uint64_t i = 99;
	ck_assert_int_eq(trim_space_find(s, "FPGA-3", &i), 0);
	ck_assert_uint_eq(i, 2);
	ck_assert_int_eq(trim_space_find(s, "FPGA-4", &i), TRIM_ENOTFOUND);
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_space_point_arch(s, 2, &a), 0);
	ck_assert_int_eq(trim_arch_total_pes(a), 32);
	ck_assert_int_eq(trim_arch_level_capacity(a, trim_arch_level_find(a, "Cache")), 32768);
	ck_assert_str_eq(trim_arch_name(a), "FPGA-3");
	trim_arch_free(a);
	ck_assert_int_eq(trim_space_point_arch(s, 3, &a), TRIM_ERANGE);
	char *text = NULL;
	ck_assert_int_eq(trim_space_report(s, TRIM_FORMAT_JSON, &text), 0);
	ck_assert_ptr_nonnull(strstr(text, "\"points\":[{"));
	ck_assert_ptr_nonnull(strstr(text, "\"name\":\"FPGA-5\""));
	ck_assert_ptr_nonnull(strstr(text, "DSP 640 > 220"));
	trim_string_free(text);
	trim_space_free(s);
	trim_space_free(NULL);
}
END_TEST

START_TEST(case_study_2_canonical_order)
{
	trim_space *s = NULL;
	ck_assert_int_eq(trim_space_load(&s, "models/arch/spaces/case-study-2.yaml"), 0);
	ck_assert_uint_eq(trim_space_grid_size(s), 3 * 4 * 4);
	uint64_t n = trim_space_count(s);
	ck_assert(n > 0 && n < 48); /* the area budget rejects some */
	/* first parameter slowest, last fastest */
	ck_assert_str_eq(trim_space_point_name(s, 0), "pes=16x16_rf=512B_glb=128KB_zs");
	ck_assert_str_eq(trim_space_point_name(s, 1), "pes=16x16_rf=512B_glb=256KB_zs");
	ck_assert_str_eq(trim_space_point_name(s, 4), "pes=16x16_rf=1KB_glb=128KB_zs");
	ck_assert_uint_eq(trim_space_point_grid_index(s, 0), 0);
	uint64_t prev = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t g = trim_space_point_grid_index(s, i);
		ck_assert(i == 0 || g > prev);
		prev = g;
		double area = trim_space_point_area(s, i);
		ck_assert(area > 0 && area <= 100);
	}
	trim_arch *a = NULL;
	uint64_t k;
	ck_assert_int_eq(trim_space_find(s, "pes=32x32_rf=1KB_glb=1MB_zs", &k), 0);
	ck_assert_int_eq(trim_space_point_arch(s, k, &a), 0);
	ck_assert_int_eq(trim_arch_total_pes(a), 1024);
	ck_assert_int_eq(trim_arch_level_capacity(a, trim_arch_level_find(a, "RF")), 1024);
	ck_assert_int_eq(trim_arch_level_capacity(a, trim_arch_level_find(a, "GLB")), 1048576);
	ck_assert_int_eq(trim_arch_level_instances(a, trim_arch_level_find(a, "RF")), 1024);
	trim_arch_free(a);
	/* more PEs or more memory: more area */
	ck_assert(trim_space_point_area(s, 1) > trim_space_point_area(s, 0));
	ck_assert(trim_space_point_area(s, 4) > trim_space_point_area(s, 0));
	trim_space_free(s);
}
END_TEST

static char *write_space(const char *body)
{
	static char path[64];
	char cwd[1024];
	snprintf(path, sizeof path, "/tmp/trim-check-space-%d.yaml", (int)getpid());
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "schema_version: 1\nname: bad\nbase: %s/models/arch/eyeriss.yaml\n%s", cwd, body);
	fclose(f);
	return path;
}

static const struct bad {
	const char *what, *body;
	int code;
	const char *where, *path, *msg;
} bad[] = {
	{"unknown level", "parameters:\n  - {name: x, set: L2.capacity, values: [1 KB]}\n",
	 TRIM_ENOTFOUND, ":5:", "parameters[0].set", "no level 'L2'"},
	{"field of another kind", "parameters:\n  - {name: x, set: GLB.fanout, values: [4]}\n",
	 TRIM_ESCHEMA, ":5:", "parameters[0].set", "does not apply"},
	{"unknown field", "parameters:\n  - {name: x, set: GLB.colour, values: [4]}\n",
	 TRIM_ESCHEMA, ":5:", "parameters[0].set", "unknown field"},
	{"zero capacity", "parameters:\n  - {name: x, set: GLB.capacity, values: [64 KB, 0]}\n",
	 TRIM_ESCHEMA, ":5:", "parameters[0].values[1]", "positive size"},
	{"values and range", "parameters:\n  - {name: x, set: GLB.capacity, values: [1 KB], range: {from: 1 KB, to: 2 KB, factor: 2}}\n",
	 TRIM_ESCHEMA, ":5:", "parameters[0]", "exactly one of"},
	{"labels count", "parameters:\n  - {name: x, set: GLB.capacity, values: [1 KB, 2 KB], labels: [a]}\n",
	 TRIM_ESCHEMA, ":5:", "parameters[0].labels", "1 labels for 2 values"},
	{"fit_device on an ASIC", "constraints: {fit_device: true}\nparameters:\n  - {name: x, set: GLB.capacity, values: [1 KB]}\n",
	 TRIM_ESCHEMA, ":4:", "constraints.fit_device", "needs an FPGA"},
	{"unknown key", "colour: red\n", TRIM_ESCHEMA, ":4:1", "colour", "unknown key"},
	/* issue 13: each of these was accepted, the second silently winning */
	{"a parameter name twice", "parameters:\n  - {name: x, set: GLB.capacity, values: [1 KB]}\n"
	 "  - {name: x, set: RF.capacity, values: [512 B]}\n",
	 TRIM_ESCHEMA, ":6:", "parameters[1]", "parameter name 'x' is already parameters[0]'s"},
	{"one field, two parameters", "parameters:\n  - {name: a, set: GLB.capacity, values: [1 KB]}\n"
	 "  - {name: b, set: [RF.capacity, GLB.capacity], values: [[512 B, 2 KB]]}\n",
	 TRIM_ESCHEMA, ":6:", "parameters[1].set", "sets GLB.capacity, which parameter 'a' (parameters[0]) sets too"},
	{"one field twice in a parameter", "parameters:\n  - {name: a, set: [GLB.capacity, GLB.capacity], values: [[1 KB, 2 KB]]}\n",
	 TRIM_ESCHEMA, ":5:", "parameters[0].set", "sets GLB.capacity twice"},
	{"duplicate values", "parameters:\n  - {name: a, set: GLB.capacity, values: [1 KB, 2 KB, 1024]}\n",
	 TRIM_ESCHEMA, ":5:", "parameters[0].values", "value 2 ('1KB') repeats value 0"},
	{"duplicate labels", "parameters:\n  - {name: a, set: GLB.capacity, values: [1 KB, 2 KB], labels: [s, s]}\n",
	 TRIM_ESCHEMA, ":5:", "parameters[0].labels", "value 1 ('s') repeats value 0"},
	{"a capacity that overflows", "parameters:\n  - {name: a, set: GLB.capacity, values: [1e30 B]}\n",
	 TRIM_ERANGE, ":5:", "parameters[0].values[0]", "is too large (at most 2^48 bytes"},
	{"a misspelt level", "parameters:\n  - {name: a, set: GBL.capacity, values: [1 KB]}\n",
	 TRIM_ENOTFOUND, ":5:", "parameters[0].set", "no level 'GBL' (its levels: DRAM, GLB, PE array, RF, MAC); did you mean 'GLB'?"},
	{"a misspelt field", "parameters:\n  - {name: a, set: GLB.capacty, values: [1 KB]}\n",
	 TRIM_ESCHEMA, ":5:", "parameters[0].set", "did you mean 'capacity'?"},
	{"a misspelt key", "paramters: []\n", TRIM_ESCHEMA, ":4:1", "paramters", "did you mean 'parameters'?"},
};

START_TEST(bad_space)
{
	const struct bad *b = &bad[_i];
	char *path = write_space(b->body);
	trim_space *s = NULL;
	int rc = trim_space_load(&s, path);
	const char *msg = trim_last_error();
	ck_assert_msg(rc == b->code, "%s: code %d, expected %d (%s)", b->what, rc, b->code, msg);
	ck_assert_ptr_null(s);
	ck_assert_msg(strstr(msg, path) != NULL, "%s: '%s' lacks the file", b->what, msg);
	ck_assert_msg(strstr(msg, b->where) != NULL, "%s: '%s' lacks '%s'", b->what, msg, b->where);
	ck_assert_msg(strstr(msg, b->path) != NULL, "%s: '%s' lacks '%s'", b->what, msg, b->path);
	ck_assert_msg(strstr(msg, b->msg) != NULL, "%s: '%s' lacks '%s'", b->what, msg, b->msg);
	remove(path);
}
END_TEST

/* a directory given where a file is expected: said so, for every loader */
START_TEST(directory_as_file)
{
	trim_space *s = NULL;
	ck_assert_int_eq(trim_space_load(&s, "models/arch"), TRIM_EIO);
	ck_assert_str_eq(trim_last_error(), "models/arch: is a directory, not a YAML file");
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/"), TRIM_EIO);
	ck_assert_str_eq(trim_last_error(), "models/arch/: is a directory, not a YAML file");
	trim_network *n = NULL;
	ck_assert_int_eq(trim_network_load(&n, "models/networks"), TRIM_EIO);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "is a directory"));
	/* an Accelergy table directory is still a table */
	trim_energy *t = NULL;
	ck_assert_int_eq(trim_energy_load(&t, "energy_tables/accelergy-example"), 0);
	trim_energy_free(t);
}
END_TEST

START_TEST(range_and_rejected_points)
{
	/* a range, and points the energy table cannot cost are rejected, not fatal */
	char *path = write_space("parameters:\n  - {name: glb, set: GLB.capacity, range: {from: 4 MB, to: 16 MB, factor: 2}}\n");
	trim_space *s = NULL;
	ck_assert_int_eq(trim_space_load(&s, path), 0);
	ck_assert_uint_eq(trim_space_grid_size(s), 3);
	ck_assert_uint_eq(trim_space_count(s), 2); /* 16 MB is beyond the 65 nm table */
	ck_assert_str_eq(trim_space_point_name(s, 1), "glb=8MB");
	char *text = NULL;
	ck_assert_int_eq(trim_space_report(s, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_ptr_nonnull(strstr(text, "outside the table's range"));
	trim_string_free(text);
	trim_space_free(s);
	remove(path);
	ck_assert_int_eq(trim_space_load(&s, "models/arch/spaces/none.yaml"), TRIM_EIO);
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

START_TEST(cli_space)
{
	ck_assert_int_eq(run("space models/arch/spaces/fpga.yaml"), 0);
	ck_assert_int_eq(run("space models/arch/spaces/case-study-2.yaml --format json"), 0);
	ck_assert_int_eq(run("space models/arch/spaces/none.yaml"), 2);
	ck_assert_int_eq(run("space"), 2);
	char *path = write_space("parameters: 3\n");
	char args[256];
	snprintf(args, sizeof args, "space %s", path);
	ck_assert_int_eq(run(args), 2);
	remove(path);
}
END_TEST

Suite *space_suite(void)
{
	Suite *s = suite_create("space");
	TCase *tc = tcase_create("space");
	tcase_add_test(tc, fpga_space);
	tcase_add_test(tc, case_study_2_canonical_order);
	tcase_add_loop_test(tc, bad_space, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, range_and_rejected_points);
	tcase_add_test(tc, directory_as_file);
	tcase_add_test(tc, cli_space);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
