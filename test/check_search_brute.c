/*
 * The search against brute force over the raw space (search_brute.c) for
 * every goal, with utilisation constraints, custom factors, every layer kind
 * and phase, reserved bytes and a hint: the same best, top 5 and work at 1,
 * 2 and 3 threads.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "constraints/constraints_int.h"
#include "energy/energy_int.h"
#include "search/mapspace_int.h"
#include "workload/workload_int.h"
#include "search/search_int.h"
#include "search/share.h"
#include "trim/search.h"
#include "tcase_util.h"
#include "search_brute.h"

START_TEST(test_search_fc_energy) { brute_vs_search(case_fc, TRIM__GOAL_ENERGY); }
END_TEST
/* TRIM's utilisation constraints prune exactly what they say */
START_TEST(test_search_utilization)
{
	g_min_pe = 0.5;
	g_min_rf = 0.5;
	brute_vs_search(case_fc, TRIM__GOAL_ENERGY);
	g_min_pe = 0.75;
	g_min_rf = 0;
	brute_vs_search(case_conv, TRIM__GOAL_EDP);
	g_min_pe = g_min_rf = 0;
}
END_TEST

/* custom factors: M = 2 at the GLB, C = 2 across the NoC */
START_TEST(test_search_fc_pinned)
{
	const pin_t pins[] = {{1, TRIM_DIM_M, 2}, {2, TRIM_DIM_C, 2}};
	brute_vs_search_pinned(case_fc, TRIM__GOAL_EDP, pins, 2);
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	case_fc(&a, &w);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	ck_assert_int_eq(trim__mapspace_pin(&s, 1, TRIM_DIM_M, 2), 0);
	ck_assert_int_eq(s.nrows[TRIM_DIM_M], 3); /* (2,1,1), (1,1,2)... with GLB = 2: 3 rows */
	ck_assert_int_eq(trim__mapspace_pin(&s, 1, TRIM_DIM_M, 3), TRIM_ENOFIT);
	ck_assert_int_eq(s.nrows[TRIM_DIM_M], 3); /* unchanged after a failed pin */
	ck_assert_int_eq(trim__mapspace_pin(&s, 1, TRIM_DIM_M, 0), 0);
	ck_assert_int_eq(s.nrows[TRIM_DIM_M], 10);
	trim__mapspace_free(&s);
}
END_TEST
START_TEST(test_search_fc_edp) { brute_vs_search(case_fc, TRIM__GOAL_EDP); }
END_TEST

/* The delay goal, where ties are the rule (many mappings take the compute
 * cycles alone): brute force's (cycles, energy, index) at 1, 2 and 3
 * threads, top 5 included (brute_vs_search). On the FC case 854 distinct
 * mappings share the best cycles at other energies, and the least energy
 * among them is not the smallest index (the answer of ties broken by the
 * index alone, as before); both cases have full ties (the same cycles and
 * energy) that the index decides. */
START_TEST(test_search_delay_ties)
{
	g_cost_ties = g_second_differs = g_full_ties = g_index_alone_wrong = 0;
	brute_vs_search(case_fc, TRIM__GOAL_DELAY);
	ck_assert_uint_gt(g_second_differs, 100);
	ck_assert_uint_eq(g_index_alone_wrong, 1);
	const uint64_t full = g_full_ties;
	brute_vs_search(case_conv, TRIM__GOAL_DELAY);
	ck_assert_uint_gt(full, 0);
	ck_assert_uint_gt(g_full_ties, full);
}
END_TEST
START_TEST(test_search_conv_energy) { brute_vs_search(case_conv, TRIM__GOAL_ENERGY); }
END_TEST

/* a known mapping handed to the search (hint): the same answer, from its
 * cost; a hint that is not one of the space's mappings at that cost is
 * ignored (the same run, counts included) */
START_TEST(test_search_hint)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	case_conv(&a, &w);
	tu_costs(&a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	trim__search_result r0, r1, r2, r3;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r0), 0);
	ck_assert(r0.found && r0.exact);
	s.hint_on = 1;
	s.hint_index = r0.best_index;
	s.hint_cost = r0.best_cost;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 2, &r1), 0);
	ck_assert(r1.exact && r1.best_cost == r0.best_cost && r1.best_index == r0.best_index);
	ck_assert(!memcmp(&r1.best, &r0.best, sizeof r0.best));
	ck_assert_uint_le(r1.evaluated, r0.evaluated);
	ck_assert_int_eq(r0.hint_used, 0);
	ck_assert_int_eq(r1.hint_used, 1);
	s.hint_cost = r0.best_cost * 0.5; /* not its cost: ignored */
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r2), 0);
	s.hint_cost = r0.best_cost;
	s.hint_index = s.size; /* past the space: ignored */
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r3), 0);
	for (int k = 0; k < 2; k++) {
		const trim__search_result *r = k ? &r3 : &r2;
		ck_assert(r->best_cost == r0.best_cost && r->best_index == r0.best_index);
		ck_assert(r->evaluated == r0.evaluated && r->bounded == r0.bounded && r->generated == r0.generated);
		ck_assert_int_eq(r->hint_used, 0);
	}
	trim__search_result_free(&r0);
	trim__search_result_free(&r1);
	trim__search_result_free(&r2);
	trim__search_result_free(&r3);
	trim__mapspace_free(&s);
}
END_TEST
/* the bounded search equals brute force on conv WG, depthwise with
 * padding, a strided pool, conv BW with stride 2 and padding, FC WG, pool
 * BW, every goal across them (kept small: brute force) */
START_TEST(test_search_kinds)
{
	static const int kinds[][4] = {
		{TU_CONV, TRIM_PHASE_WG, 1, 0}, {TU_DEPTHWISE, TRIM_PHASE_FW, 1, 1}, {TU_MAXPOOL, TRIM_PHASE_FW, 2, 0},
		{TU_CONV, TRIM_PHASE_BW, 2, 1},      {TU_FC, TRIM_PHASE_WG, 1, 0},         {TU_AVGPOOL, TRIM_PHASE_BW, 2, 0},
		{TU_MAXPOOL, TRIM_PHASE_BW, 2, 0},
	};
	g_inexact_runs = 0;
	g_tie_cuts = g_tie_nodes = g_ties_tight = g_joint_higher = g_stopped_early = g_stop_points = 0;
	g_index_alone_wrong = g_stopped_exact = 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		g_kind = kinds[i][0];
		g_phase = kinds[i][1];
		g_u = kinds[i][2];
		g_pad = kinds[i][3];
		brute_vs_search(case_kind, (int)(i % 3));
	}
	/* the gaps did cut something the exact search would see */
	ck_assert_int_gt(g_inexact_runs, 0);
	/* and exact ties were cut (second figure and index), with brute force's answer: bypass
	 * choices, and whole subtrees of the factorisation tree */
	ck_assert_uint_gt(g_tie_cuts, 0);
	ck_assert_uint_gt(g_tie_nodes, 0);
	/* the exact tie test sees a tie as one: some node bounds equal, in the
	 * evaluator's arithmetic, the cost of a mapping below them */
	ck_assert_uint_gt(g_ties_tight, 0);
	/* and the depthwise case's delay ties are decided by the energy, not
	 * the index (brute force's answer at 1, 2 and 3 threads) */
	ck_assert_uint_gt(g_index_alone_wrong, 0);
	/* the joint order raises some node bounds (a rule that never binds
	 * would be dead code) */
	ck_assert_uint_gt(g_joint_higher, 0);
	/* and the bound that stops above a cut did stop somewhere */
	ck_assert_uint_gt(g_stopped_early, 0);
	/* each tensor's figure was checked against its energy */
	ck_assert_uint_gt(g_parts_checked, 0);
	/* the searches were stopped at many points */
	ck_assert_uint_gt(g_stop_points, 30);
	/* and some stopped searches had left open only nodes above the best
	 * found: proven exact, with brute force's answer */
	ck_assert_uint_gt(g_stopped_exact, 0);
}
END_TEST

/* double buffering and training's reserved bytes are what binds: the
 * search still equals brute force under the check trim eval applies */
static void case_conv_reserved(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_conv(a, w), 0);
	int l = -1;
	for (int k = 1; k < a->nlevels; k++)
		if (a->lv[k].type == TRIM__LVL_STORAGE && a->lv[k].capacity_bytes > 0 && l < 0)
			l = k;
	ck_assert_int_ge(l, 1);
	a->lv[l].double_buffer = 1;
	memset(g_reserved, 0, sizeof g_reserved);
	g_reserved[l] = a->lv[l].capacity_bytes / 4;
	g_reserved_on = 1;
}

START_TEST(test_search_reserved)
{
	brute_vs_search(case_conv_reserved, TRIM__GOAL_ENERGY);
	brute_vs_search(case_conv_reserved, TRIM__GOAL_EDP);
	g_reserved_on = 0;
	memset(g_reserved, 0, sizeof g_reserved);
}
END_TEST

Suite *search_brute_suite(void)
{
	Suite *s = suite_create("search_brute");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(tc, test_search_fc_energy);
	tcase_add_test(tc, test_search_fc_pinned);
	tcase_add_test(tc, test_search_utilization);
	tcase_add_test(tc, test_search_fc_edp);
	tcase_add_test(tc, test_search_delay_ties);
	tcase_add_test(tc, test_search_conv_energy);
	tcase_add_test(tc, test_search_kinds);
	tcase_add_test(tc, test_search_hint);
	tcase_add_test(tc, test_search_reserved);
	suite_add_tcase(s, tc);
	return s;
}
