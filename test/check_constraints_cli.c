/*
 * Dataflow constraints through the CLI: `trim map`, `trim network` and
 * `trim explore` with --constraints and --dataflow, Timeloop's
 * row-stationary Eyeriss constraints with --imperfect, whole networks and
 * explorations (the resumable sweep's stamp).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "activity/activity_int.h"
#include "constraints/constraints_int.h"
#include "search/search_int.h"
#include "tcase_util.h"
#include "trim.h"
#include "constraints_brute.h"

static char *capture(const char *args, int *status)
{
	return tu_capture(args, 1, status);
}

#define TINYNET "test/data/networks/tiny.yaml test/data/neteval/tiny-arch.yaml "

START_TEST(test_cli)
{
	int st;
	char *o = capture("map " TINYNET "--layer conv1 --dataflow output-stationary --format json", &st);
	ck_assert_msg(st == 0, "%s", o);
	ck_assert_ptr_nonnull(strstr(o, "\"best\": {"));
	free(o);
	o = capture("map " TINYNET "--layer conv1 --dataflow diagonal-stationary", &st);
	ck_assert_int_eq(st, 2);
	ck_assert_ptr_nonnull(strstr(o, "--dataflow takes weight-stationary"));
	free(o);
	o = capture("map " TINYNET "--layer conv1 --constraints test/data/constraints/bad-dim.yaml", &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(o, "test/data/constraints/bad-dim.yaml:6:14: targets[0].factors: unknown dimension 'X'"),
	              "%s", o);
	free(o);
	o = capture("map " TINYNET "--layer conv1 --constraints test/data/constraints/no-such-file.yaml", &st);
	ck_assert_int_eq(st, 2);
	free(o);
	/* a level the architecture does not have: the shipped files name "PE array" */
	o = capture("map " TINYNET "--layer conv1 --constraints models/constraints/row-stationary.yaml", &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(o, "models/constraints/row-stationary.yaml:10:13: targets[0].target: unknown level 'PE array'"),
	              "%s", o);
	free(o);
	o = capture("network " TINYNET "--quiet --constraints test/data/constraints/bad-dim.yaml", &st);
	ck_assert_int_eq(st, 2);
	free(o);
	o = capture("sparsity " TINYNET "--quiet --dataflow nope", &st);
	ck_assert_int_eq(st, 2);
	free(o);
	o = capture("explore test/data/networks/tiny.yaml test/data/neteval/tiny-space.yaml --quiet "
	            "--constraints test/data/constraints/bad-dim.yaml", &st);
	ck_assert_int_eq(st, 2);
	free(o);
	/* the constrained network: every workload mapped, no more energy-efficient than the free one */
	char *free_run = capture("network " TINYNET "--quiet --mode training --format json", &st);
	ck_assert_int_eq(st, 0);
	o = capture("network " TINYNET "--quiet --mode training --format json --threads 2 --dataflow row-stationary "
	            "--constraints test/data/constraints/tiny-glb.yaml", &st);
	ck_assert_msg(st == 0, "%s", o);
	free(free_run);
	free(o);
}
END_TEST

/* whole networks and explorations: the constraints reach every search, the
 * space's mapspace_constraints too, and the resumable sweep's stamp tells
 * constrained and free results apart */
/* Timeloop's row-stationary Eyeriss constraints on AlexNet conv1 (batch 4):
 * F = 55 across the 14 columns divides only as 11 (11 x 12 = 132 PEs);
 * with --imperfect the search finds 14 columns with a ragged last pass, 154
 * PEs as on the chip (docs/validation.md), and a faster mapping. */
START_TEST(test_cli_imperfect)
{
	int st;
#define RS_ARGS "map models/networks/alexnet.yaml models/arch/eyeriss.yaml --layer conv1 --phase FW --batch 4 " \
	        "--goal delay --constraints models/constraints/timeloop-eyeriss-rs.yaml "
	char *per = capture(RS_ARGS "--format json", &st);
	ck_assert_msg(st == 0, "%s", per);
	char *imp = capture(RS_ARGS "--imperfect --format json", &st);
	ck_assert_msg(st == 0, "%s", imp);
	ck_assert_msg(strstr(per, "\"active_pes\": 132") && strstr(per, "\"padded_macs\": 421660800"), "%s", per);
	ck_assert_msg(strstr(imp, "\"active_pes\": 154") && strstr(imp, "\"macs\": 421660800") &&
	                  strstr(imp, "\"padded_macs\": 429327360") && strstr(imp, "\"exact\": true"), "%s", imp);
	/* 3200266.67 cycles with 132 PEs; 4 x 2 x 6 x 3 x 2 x 55 x 176 RF steps with 154 */
	ck_assert_ptr_nonnull(strstr(per, "\"cycles\": 3200266.6666666665"));
	ck_assert_ptr_nonnull(strstr(imp, "\"cycles\": 2787840,"));
	free(per);
	free(imp);
	char *tab = capture(RS_ARGS "--imperfect", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(tab, "for f4 in [0:4)  # ragged: F = 55 in tiles of 14, the last 13"), "%s", tab);
	free(tab);
#undef RS_ARGS
}
END_TEST

START_TEST(test_neteval_explore)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_network_load(&net, "test/data/networks/tiny.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 0, 0), 0);
	ck_assert_int_eq(trim_arch_load(&a, "test/data/neteval/tiny-arch.yaml"), 0);
	trim_constraints *c = NULL;
	ck_assert_int_eq(trim_constraints_load(&c, "test/data/constraints/tiny-glb.yaml"), 0);
	double e[2];
	for (int k = 0; k < 2; k++) {
		trim_neteval *ne = NULL;
		ck_assert_int_eq(trim_neteval_create(&ne, net, w, a, NULL), 0);
		if (k)
			ck_assert_int_eq(trim_neteval_set_constraints(ne, c), 0);
		ck_assert_int_eq(trim_neteval_run(ne), 0);
		e[k] = trim_neteval_energy_pj(ne);
		for (size_t i = 0; k && i < trim_neteval_count(ne); i++) {
			trim_mapping *m = NULL;
			ck_assert_int_eq(trim_neteval_mapping(ne, i, &m), 0);
			const trim__mapping *x = (const trim__mapping *)m;
			/* tiny-glb.yaml: the GLB loops on M only, and keeps no weights */
			for (int d = 0; d < TRIM_NDIMS; d++)
				ck_assert(d == TRIM_DIM_M || x->f[1][d] == 1);
			ck_assert_int_eq(x->keep[1][1], 0);
			trim_mapping_free(m);
		}
		ck_assert_int_eq(trim_neteval_set_constraints(ne, NULL), TRIM_EINVAL); /* after the first step */
		trim_neteval_free(ne);
	}
	ck_assert(e[1] >= e[0]);
	trim_neteval *ne = NULL;
	trim_constraints *bad_level = load("targets: [{target: PE array, type: spatial, only: [M]}]\n");
	ck_assert_int_eq(trim_neteval_create(&ne, net, w, a, NULL), 0);
	ck_assert_int_eq(trim_neteval_set_constraints(ne, bad_level), TRIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "c.yaml:1:20: targets[0].target: unknown level 'PE array'"));
	trim_neteval_free(ne);
	/* a space with inline mapspace_constraints: the same as the file on the explorer */
	trim_space *sp = NULL, *sp2 = NULL;
	ck_assert_msg(trim_space_load(&sp, "test/data/constraints/tiny-space.yaml") == 0, "%s", trim_last_error());
	ck_assert_ptr_nonnull(trim_space_constraints(sp));
	ck_assert_int_eq(trim_space_load(&sp2, "test/data/neteval/tiny-space.yaml"), 0);
	ck_assert_ptr_null(trim_space_constraints(sp2));
	double pts[2][4];
	for (int k = 0; k < 2; k++) {
		trim_explorer *ex = NULL;
		ck_assert_int_eq(trim_explorer_create(&ex, net, w, k ? sp2 : sp), 0);
		if (k)
			ck_assert_int_eq(trim_explorer_set_constraints(ex, c), 0);
		ck_assert_int_eq(trim_explorer_run(ex), 0);
		ck_assert_uint_eq(trim_explorer_count(ex), 4);
		for (size_t i = 0; i < 4; i++) {
			double f[TRIM_XF_COUNT];
			ck_assert_int_eq(trim_explorer_point(ex, i, f, TRIM_XF_COUNT), 0);
			pts[k][i] = f[TRIM_XF_ENERGY_PJ];
		}
		trim_explorer_free(ex);
	}
	for (size_t i = 0; i < 4; i++)
		ck_assert(pts[0][i] == pts[1][i]);
	trim_explorer *ex = NULL;
	ck_assert_int_eq(trim_explorer_create(&ex, net, w, sp2), 0);
	ck_assert_int_eq(trim_explorer_set_constraints(ex, bad_level), TRIM_ENOTFOUND);
	trim_explorer_free(ex);
	/* a resumable sweep with constraints is not resumed without them */
	char dir[] = "/tmp/trim-constraints-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(trim_explorer_create(&ex, net, w, sp2), 0);
	ck_assert_int_eq(trim_explorer_set_constraints(ex, c), 0);
	ck_assert_int_eq(trim_explorer_set_out_dir(ex, dir), 0);
	ck_assert_int_eq(trim_explorer_run(ex), 0);
	trim_explorer_free(ex);
	ck_assert_int_eq(trim_explorer_create(&ex, net, w, sp2), 0);
	ck_assert_int_eq(trim_explorer_set_constraints(ex, c), 0);
	ck_assert_int_eq(trim_explorer_set_out_dir(ex, dir), 0);
	ck_assert_uint_eq(trim_explorer_resumed(ex), 4);
	trim_explorer_free(ex);
	ck_assert_int_eq(trim_explorer_create(&ex, net, w, sp2), 0);
	ck_assert_int_eq(trim_explorer_set_out_dir(ex, dir), 0); /* stale: recomputed, saying why */
	ck_assert_uint_eq(trim_explorer_resumed(ex), 0);
	ck_assert_ptr_nonnull(strstr(trim_explorer_resume_notes(ex), "the dataflow constraints changed"));
	trim_explorer_free(ex);
	for (int g = 0; g < 4; g++) {
		char f[128];
		snprintf(f, sizeof f, "%s/point-%06d.json", dir, g);
		remove(f);
	}
	ck_assert_int_eq(rmdir(dir), 0);
	trim_space_free(sp);
	trim_space_free(sp2);
	trim_space *sb = NULL;
	ck_assert_int_eq(trim_space_load(&sb, "test/data/constraints/bad-space.yaml"), TRIM_ENOTFOUND);
	ck_assert_msg(strstr(trim_last_error(), "bad-space.yaml:8:15: mapspace_constraints.targets[0].target: unknown level 'RFF'"),
	              "%s", trim_last_error());
	trim_constraints_free(bad_level);
	trim_constraints_free(c);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

Suite *constraints_cli_suite(void)
{
	Suite *s = suite_create("constraints_cli");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_cli);
	tcase_add_test(tc, test_cli_imperfect);
	tcase_add_test(tc, test_neteval_explore);
	suite_add_tcase(s, tc);
	return s;
}
