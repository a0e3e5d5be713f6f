/*
 * The search on systolic arrays: brute force on every goal, and the
 * systolic terms of the bounds (lib/search/systolic_bound.c) hold and bind.
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

/* On a systolic array (its pipeline in the cycles, one hop per forwarded
 * word): the bounds leave out what needs the whole mapping, the mappings
 * ranked include it, and the search equals brute force for every goal. */
START_TEST(test_search_systolic)
{
	g_systolic = 1;
	for (int goal = 0; goal < 3; goal++) {
		brute_vs_search(case_fc, goal);
		brute_vs_search(case_conv, goal);
	}
	g_systolic = 0;
}
END_TEST
/* A weight-stationary systolic array laid out as systolic-32x32: DRAM ->
 * GLB -> 2 x 2 PEs (multicast, reduction) -> a weight register (weights
 * only: partial sums go down the columns, read back from the GLB) -> MAC;
 * a 1x1 conv with M = C = E = 2 (levels 0-4); in BW (g_ws_layer) a conv
 * with C = 1, M = E = R = 2; a 2 x 1 max pool of stride 2 (E = R = 2). */
enum { WS_CONV_FW, WS_CONV_BW, WS_POOL };
static int g_ws_layer = WS_CONV_FW;
static void case_systolic_ws(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "ws");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	trim__level *g = tu_storage(a, "GLB", 24, 16);
	g->read_bw = g->write_bw = 4;
	tu_spatial(a, "Array", 2, 2, 1, 1);
	trim__level *r = tu_storage(a, "WReg", 4, 16);
	r->keep[0] = r->keep[2] = 0;
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	if (g_ws_layer == WS_CONV_FW)
		ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 2, 2, 1, 2, 1, 1, 1, 1, 1, 0), 0);
	else if (g_ws_layer == WS_CONV_BW) /* a 2-tap window: the input gradient's axis e + r */
		ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_BW, 1, 1, 2, 1, 3, 1, 2, 1, 1, 1, 0), 0);
	else /* windows apart: the input's axis 2 e + r, one to one */
		ck_assert_int_eq(tu_layer(w, TU_MAXPOOL, TRIM_PHASE_FW, 1, 2, 2, 1, 4, 1, 2, 1, 2, 1, 0), 0);
}

/* The systolic terms of the bounds (lib/search/systolic_bound.c): on the
 * weight-stationary array, every node bound (every prefix of every
 * mapping's factors) and every tensor's part stay at or below the
 * mapping's cost, and the search equals brute force (cost, second figure,
 * index; 1, 2 and 3 threads) for every goal, and for energy in BW (a
 * result with a window axis) and on a pool whose windows do not overlap. */
START_TEST(test_search_systolic_ws)
{
	g_systolic = 1;
	for (int goal = 0; goal < 3; goal++)
		brute_vs_search(case_systolic_ws, goal);
	for (g_ws_layer = WS_CONV_BW; g_ws_layer <= WS_POOL; g_ws_layer++)
		brute_vs_search(case_systolic_ws, TRIM__GOAL_ENERGY);
	g_ws_layer = WS_CONV_FW;
	g_systolic = 0;
}
END_TEST

/* The systolic terms bind: the node bound on the array is never below the
 * same bound with its words at one hop (a mesh of the same costs, where
 * they do not apply), and above it at many nodes, with each of the three
 * terms (read-backs, drained results, unicast operands) raising some, the
 * last also through a pool's one-to-one window axis (the array splitting R). */
START_TEST(test_systolic_bound_binds)
{
	uint64_t higher = 0, readback = 0, drained = 0, unicast = 0, window = 0;
	stationary_workspace *sw = trim__stationary_workspace_new(); /* the node bounds' own */
	ck_assert_ptr_nonnull(sw);
	for (g_ws_layer = WS_CONV_FW; g_ws_layer <= WS_POOL; g_ws_layer += WS_POOL - WS_CONV_FW) {
		struct trim_arch a, mesh;
		trim__intra w;
		trim__mapspace s, sm;
		trim__level_cost c[TRIM__MAX_LEVELS];
		case_systolic_ws(&a, &w);
		tu_costs(&a, c);
		c[2].avg_hops = 2.5;
		c[2].fwd_hops = 1;
		mesh = a;
		a.lv[2].net = TRIM__NET_SYSTOLIC;
		mesh.lv[2].net = TRIM__NET_MESH;
		ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
		ck_assert_int_eq(trim__mapspace_init(&sm, &w, &mesh), 0);
		int64_t zero_macs = 0;
		ck_assert_int_eq(trim__intra_act_zero_macs(&w, &zero_macs), 0);
		int64_t elems = 1; /* the result's: the read-backs are updates - elems */
		for (int i = 0; i < w.t[2].ndims; i++)
			elems *= w.t[2].extent[i];
		for (uint64_t i = 0; i < s.size; i++) {
			trim__mapping m, p, pm;
			REQUIRE(trim__mapspace_decode(&s, i, &m) == 0, "decode");
			for (int depth = 1; depth < s.nslots; depth++) {
				const double lb = tu_node_lb(&s, c, TRIM__GOAL_ENERGY, depth, zero_macs, &m, &p, sw);
				const double lbm = tu_node_lb(&sm, c, TRIM__GOAL_ENERGY, depth, zero_macs, &m, &pm, sw);
				REQUIRE(lb >= lbm, "index %llu depth %d: %.17g below the one-hop bound %.17g",
				        (unsigned long long)i, depth, lb, lbm);
				higher += lb > lbm;
				node_frame f;
				if (trim__node_frame(&s, c, depth, zero_macs, &p, &f) || !f.allsp)
					continue;
				for (int t = 0; t < 3; t++)
					if (w.t[t].present && trim__systolic_hops(&s, c, &f, &p, t, 2) > 1) {
						drained += t == 2;
						unicast += t < 2;
						window += t == 0 && g_ws_layer == WS_POOL && p.f[2][TRIM_DIM_R] > 1;
					}
				/* the GLB keeping the result with elems + 5 updates: 5 read back */
				const int kept[5] = {1, 1, 0, 0, 0};
				const int64_t rdc[5] = {0, elems + 5, 0, 0, 0};
				int64_t rq[5] = {0, 0, 0, 0, 0}, down[5];
				if (trim__systolic_readbacks(&s, c, &f, &p, 2, kept, rdc, rq, down) > 0) {
					REQUIRE(rq[1] == 5 && down[2] == 5 && down[3] == 0, "read-backs %lld, down %lld, not 5",
					        (long long)rq[1], (long long)down[2]);
					readback++;
				}
			}
		}
		trim__mapspace_free(&s);
		trim__mapspace_free(&sm);
	}
	g_ws_layer = WS_CONV_FW;
	trim__stationary_workspace_free(sw);
	ck_assert_uint_gt(higher, 100);
	ck_assert_uint_gt(readback, 0);
	ck_assert_uint_gt(drained, 0);
	ck_assert_uint_gt(unicast, 0);
	ck_assert_uint_gt(window, 0);
}
END_TEST

Suite *search_systolic_suite(void)
{
	Suite *s = suite_create("search_systolic");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(tc, test_search_systolic);
	suite_add_tcase(s, tc);
	/* the systolic terms of the bounds (CK_RUN_CASE=systolic) */
	TCase *sys = tcase_create("systolic");
	tcase_set_timeout(sys, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(sys, test_search_systolic_ws);
	tcase_add_test(sys, test_systolic_bound_binds);
	suite_add_tcase(s, sys);
	return s;
}
