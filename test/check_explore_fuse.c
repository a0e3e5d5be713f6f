/*
 * Fused tiles in the explorer (trim_explorer_set_fuse, `trim explore
 * --fuse`; lib/explore/fuse.c): mlp-wide (one chain, nothing else) over a
 * 1 KB and an 8 KB GLB. On the 8 KB point a fused group fits and wins; on
 * the 1 KB point none fits and the fused plan is the layer-by-layer one;
 * fusion turns the ranking round. A point's figures equal what `trim
 * network --fuse` reports on its architecture, at any thread count.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore_int.h"
#include "tcase_util.h"
#include "trim.h"
#include "trim/explore.h"
#include "trim/fusedtiles.h"

#define NET_FILE "test/data/networks/mlp-wide.yaml"
#define SPACE_FILE "test/data/arch/fused-glb-space.yaml"

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_space *space;
	trim_explorer *ex;
} fz_fx;

/* The explorer over SPACE_FILE with goal and threads; fused tiles `range` (NULL: none). */
static void setup(fz_fx *s, int goal, int threads, const char *range)
{
	memset(s, 0, sizeof *s);
	ck_assert(trim_network_load(&s->net, NET_FILE) == 0);
	ck_assert(trim_workloads_create(&s->w, s->net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert(trim_space_load(&s->space, SPACE_FILE) == 0);
	ck_assert(trim_explorer_create(&s->ex, s->net, s->w, s->space) == 0);
	ck_assert(trim_explorer_set_int(s->ex, TRIM_EX_GOAL, goal) == 0);
	ck_assert(trim_explorer_set_int(s->ex, TRIM_EX_THREADS, threads) == 0);
	if (range)
		ck_assert_msg(trim_explorer_set_fuse(s->ex, range, NULL) == 0, "%s", trim_last_error());
}

static void teardown(fz_fx *s)
{
	trim_explorer_free(s->ex);
	trim_space_free(s->space);
	trim_workloads_free(s->w);
	trim_network_free(s->net);
}

/* The number after `key` in the "totals" of trim network --fuse's JSON. */
static double totals_number(const char *json, const char *key)
{
	const char *t = strstr(json, "\"totals\"");
	ck_assert(t);
	const char *k = strstr(t, key);
	ck_assert_msg(k, "%s in %s", key, t);
	return strtod(k + strlen(key), NULL);
}

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }

/* Each point's figures are trim_fusedtiles_report's on its architecture
 * (the network is one chain): the goal's figure its total cost, the chain's
 * DRAM bytes, the groups and the buffer; for energy and delay. */
START_TEST(equals_network_fuse)
{
	static const int goals[] = {TRIM_EXPLORE_ENERGY, TRIM_EXPLORE_DELAY};
	for (int g = 0; g < 2; g++) {
		fz_fx s;
		setup(&s, goals[g], 1, "all");
		ck_assert_msg(trim_explorer_run(s.ex) == 0, "%s", trim_last_error());
		for (size_t i = 0; i < trim_explorer_count(s.ex); i++) {
			trim_arch *a = NULL;
			char *json = NULL;
			double f[TRIM_XF_COUNT], z[TRIM_XFU_COUNT];
			ck_assert(trim_space_point_arch(s.space, i, &a) == 0);
			ck_assert(trim_fusedtiles_report(s.net, s.w, a, NULL, "all", NULL,
			                                 g ? TRIM_GOAL_DELAY : TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_JSON, &json) == 0);
			ck_assert(trim_explorer_point(s.ex, i, f, TRIM_XF_COUNT) == 0);
			ck_assert(trim_explorer_point_fused(s.ex, i, z, TRIM_XFU_COUNT) == 0);
			double cost = totals_number(json, "\"cost\": ");
			ck_assert(z[TRIM_XFU_PLANNED] == 1 && z[TRIM_XFU_CHAINS] == 1);
			ck_assert(z[TRIM_XFU_COST] == cost);
			ck_assert_msg(near(g ? f[TRIM_XF_CYCLES] : f[TRIM_XF_ENERGY_PJ], cost), "point %zu: %.17g, %.17g", i,
			              g ? f[TRIM_XF_CYCLES] : f[TRIM_XF_ENERGY_PJ], cost);
			/* the network evaluation's chain is the plan's layer by layer */
			ck_assert(near(g ? z[TRIM_XFU_LBL_CYCLES] : z[TRIM_XFU_LBL_ENERGY_PJ], z[TRIM_XFU_LBL_COST]));
			ck_assert(z[TRIM_XFU_DRAM_BYTES] == totals_number(json, "\"dram_bytes\": "));
			ck_assert(z[TRIM_XFU_DRAM_SAVED] == totals_number(json, "\"dram_bytes_saved\": "));
			ck_assert(z[TRIM_XFU_FUSED_GROUPS] == totals_number(json, "\"fused_groups\": "));
			ck_assert(z[TRIM_XFU_BUFFER_BYTES] == totals_number(json, "\"buffer_bytes\": "));
			ck_assert(f[TRIM_XF_EXACT] == 1 && f[TRIM_XF_GAP] == 0 && z[TRIM_XFU_EXACT] == 1);
			trim_string_free(json);
			trim_arch_free(a);
		}
		teardown(&s);
	}
}
END_TEST

/* Fusion wins where the buffer holds a group (8 KB) and is the layer-by-layer
 * plan where it does not (1 KB); it turns the ranking round. */
START_TEST(fusion_changes_ranking)
{
	fz_fx lbl, fused;
	size_t best = 9;
	setup(&lbl, TRIM_EXPLORE_ENERGY, 1, NULL);
	setup(&fused, TRIM_EXPLORE_ENERGY, 1, "all");
	ck_assert(trim_explorer_run(lbl.ex) == 0 && trim_explorer_run(fused.ex) == 0);
	ck_assert(trim_explorer_ranked(lbl.ex, 1, &best) == 0);
	ck_assert_str_eq(trim_explorer_point_name(lbl.ex, best), "glb=1KB");
	ck_assert(trim_explorer_ranked(fused.ex, 1, &best) == 0);
	ck_assert_str_eq(trim_explorer_point_name(fused.ex, best), "glb=8KB");
	for (size_t i = 0; i < 2; i++) {
		double f0[TRIM_XF_COUNT], f1[TRIM_XF_COUNT], z[TRIM_XFU_COUNT];
		ck_assert(trim_explorer_point(lbl.ex, i, f0, TRIM_XF_COUNT) == 0);
		ck_assert(trim_explorer_point(fused.ex, i, f1, TRIM_XF_COUNT) == 0);
		ck_assert(trim_explorer_point_fused(fused.ex, i, z, TRIM_XFU_COUNT) == 0);
		ck_assert(z[TRIM_XFU_LBL_ENERGY_PJ] == f0[TRIM_XF_ENERGY_PJ]);
		if (!strcmp(trim_explorer_point_name(fused.ex, i), "glb=1KB")) {
			ck_assert(z[TRIM_XFU_FUSED_GROUPS] == 0 && z[TRIM_XFU_DRAM_SAVED] == 0);
			ck_assert(f1[TRIM_XF_ENERGY_PJ] == f0[TRIM_XF_ENERGY_PJ]);
		} else {
			ck_assert(z[TRIM_XFU_FUSED_GROUPS] == 1 && z[TRIM_XFU_DRAM_SAVED] > 0 && z[TRIM_XFU_BUFFER_BYTES] > 1024);
			ck_assert(f1[TRIM_XF_ENERGY_PJ] < f0[TRIM_XF_ENERGY_PJ]);
		}
	}
	/* the reports carry the figures */
	char *csv = NULL, *json = NULL, *table = NULL;
	ck_assert(trim_explorer_report(fused.ex, TRIM_FORMAT_CSV, &csv) == 0);
	ck_assert(trim_explorer_report(fused.ex, TRIM_FORMAT_JSON, &json) == 0);
	ck_assert(trim_explorer_report(fused.ex, TRIM_FORMAT_TABLE, &table) == 0);
	ck_assert_msg(strstr(csv, ",pareto_proven,fused_dram_bytes,lbl_dram_bytes,dram_bytes_saved,fused_groups,"), "%s", csv);
	ck_assert_msg(strstr(json, "\"fused\": {\"buffer_bytes\": ") && strstr(json, "\"fused_groups\": 1"), "%s", json);
	ck_assert_msg(strstr(table, "fused tiles (--fuse all)") && strstr(table, "saved B"), "%s", table);
	trim_string_free(csv);
	trim_string_free(json);
	trim_string_free(table);
	/* without fused tiles the reports are as before */
	ck_assert(trim_explorer_report(lbl.ex, TRIM_FORMAT_CSV, &csv) == 0);
	ck_assert_msg(strstr(csv, ",pareto_proven\n") && !strstr(csv, "fused"), "%s", csv);
	trim_string_free(csv);
	teardown(&lbl);
	teardown(&fused);
}
END_TEST

/* The same bytes at any thread count, stepped or run. */
START_TEST(threads_same_bytes)
{
	char *text[2][2];
	for (int t = 0; t < 2; t++) {
		fz_fx s;
		setup(&s, TRIM_EXPLORE_ENERGY, t + 1, "fc1:fc2");
		if (t == 0) {
			int done = 0;
			while (!done)
				ck_assert(trim_explorer_step(s.ex, &done) == 0);
		} else {
			ck_assert(trim_explorer_run(s.ex) == 0);
		}
		ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_JSON, &text[t][0]) == 0);
		ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_CSV, &text[t][1]) == 0);
		teardown(&s);
	}
	ck_assert_str_eq(text[0][0], text[1][0]);
	ck_assert_str_eq(text[0][1], text[1][1]);
	for (int t = 0; t < 2; t++)
		for (int k = 0; k < 2; k++)
			trim_string_free(text[t][k]);
}
END_TEST

/* A plan not proven (a time limit stopped it) makes the point inexact, with
 * the bound L - C_lbl + F (lib/explore/fuse.c) and its gap. */
START_TEST(plan_gap_is_point_gap)
{
	fz_fx s;
	setup(&s, TRIM_EXPLORE_ENERGY, 1, "all");
	ck_assert(trim_explorer_run(s.ex) == 0);
	trim__xpoint *p = &s.ex->pt[1];
	ck_assert(p->fz.on && p->fz.exact && p->f[TRIM_XF_EXACT] == 1);
	double cost = p->f[TRIM_XF_ENERGY_PJ];
	p->fz.exact = 0;
	p->fz.lower_bound = p->fz.cost * 0.5;
	trim__explore_point_bound(s.ex, p);
	ck_assert(p->f[TRIM_XF_EXACT] == 0);
	double lb = p->fz.lbl_energy_pj - p->fz.lbl_cost + p->fz.lower_bound;
	ck_assert(p->f[TRIM_XF_LOWER_BOUND] == lb && lb < cost);
	ck_assert(near(p->f[TRIM_XF_GAP], (cost - lb) / cost) && p->f[TRIM_XF_GAP] > 0);
	teardown(&s);
}
END_TEST

/* Bad input is refused, naming it; what fused tiles do not take yet too. */
START_TEST(bad_input)
{
	fz_fx s;
	setup(&s, TRIM_EXPLORE_ENERGY, 1, NULL);
	ck_assert_int_eq(trim_explorer_set_fuse(s.ex, "fc1:fcx", NULL), TRIM_ENOTFOUND);
	ck_assert_msg(strstr(trim_last_error(), "'fcx'"), "%s", trim_last_error());
	ck_assert_int_eq(trim_explorer_set_fuse(s.ex, "fc1", NULL), TRIM_EINVAL);
	ck_assert_int_eq(trim_explorer_set_fuse(s.ex, "fc2:fc1", NULL), TRIM_EINVAL);
	ck_assert_int_eq(trim_explorer_set_fuse(s.ex, "all", "RF"), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_explorer_set_fuse(s.ex, NULL, "GLB"), TRIM_EINVAL);
	ck_assert_int_eq(trim_explorer_set_fuse(s.ex, "all", "GLB"), 0);
	ck_assert_int_eq(trim_explorer_set_out_dir(s.ex, "build/test-explore-fuse"), TRIM_EINVAL);
	ck_assert(trim_explorer_set_int(s.ex, TRIM_EX_GOAL, TRIM_EXPLORE_EDP) == 0);
	ck_assert_int_eq(trim_explorer_run(s.ex), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "goal"), "%s", trim_last_error());
	teardown(&s);

	int st = 0;
	char *out = tu_capture("explore " NET_FILE " " SPACE_FILE " --quiet --fuse all", 0, &st);
	ck_assert_msg(st == 0 && strstr(out, "fused tiles (--fuse all)"), "%s", out);
	free(out);
	static const char *const bad[][2] = {
		{"--fuse fc1:nope", "'nope'"}, {"--fuse bad", "'bad'"}, {"--fuse fc2:fc1", "'fc2:fc1'"},
		{"--fuse all --fuse-level RF", "'RF'"}, {"--fuse-level GLB", "--fuse"}, {"--fuse all --goal edp", "--goal"},
		{"--fuse all --out build/x", "--out"}, {"--fuse all --gap 0.1", "--gap"}};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char args[256];
		snprintf(args, sizeof args, "explore " NET_FILE " " SPACE_FILE " --quiet %s", bad[i][0]);
		out = tu_capture(args, 1, &st);
		ck_assert_msg(st == 2 && strstr(out, bad[i][1]), "%s: exit %d: %s", bad[i][0], st, out);
		free(out);
	}
	/* zero-gating hardware: dense figures asked for */
	out = tu_capture("explore test/data/neteval/tiny.yaml test/data/neteval/tiny-space.yaml --mode inference --quiet "
	                 "--fuse all", 1, &st);
	ck_assert_msg(st == 2 && strstr(out, "--dense"), "exit %d: %s", st, out);
	free(out);
}
END_TEST

Suite *explore_fuse_suite(void)
{
	Suite *s = suite_create("explore_fuse");
	TCase *tc = tcase_create("explore_fuse");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, equals_network_fuse);
	tcase_add_test(tc, fusion_changes_ranking);
	tcase_add_test(tc, threads_same_bytes);
	tcase_add_test(tc, plan_gap_is_point_gap);
	tcase_add_test(tc, bad_input);
	suite_add_tcase(s, tc);
	return s;
}
