/*
 * Dataflow constraints (lib/constraints/): the constrained search against
 * brute force over every raw mapping that obeys the constraints
 * (constraints_brute.c), for every kind of constraint, random combinations
 * of them and imperfect factorisations; the distinct count against the
 * brute-force class count. The presets: check_constraints_presets.c;
 * reading and checking errors:
 * check_constraints_errors.c; the CLI: check_constraints_cli.c.
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

static const char *const slot_names_t[3] = {"input", "weight", "output"};

/* factors: a fixed bound (Timeloop's K = libtrim's M), `only` on the
 * spatial level below a storage target (Timeloop's convention) */
START_TEST(test_brute_factors)
{
	ref_t r;
	ref_init(&r);
	r.fix[1][TRIM_DIM_M] = 2;
	ref_only(&r, 2, "C");
	brute(case_fc, TRIM__GOAL_ENERGY,
	      "targets:\n"
	      "  - {target: GLB, type: temporal, factors: K=2}\n"
	      "  - {target: GLB, type: spatial, only: [C]}\n",
	      &r);
	/* Timeloop's form: 0 is the whole bound, X=1 leaves the rest free */
	ref_init(&r);
	r.fix[2][TRIM_DIM_R] = 2;
	r.fix[2][TRIM_DIM_C] = 1;
	brute(case_conv, TRIM__GOAL_EDP,
	      "mapspace_constraints:\n"
	      "  targets:\n"
	      "    - target: RF\n"
	      "      type: temporal\n"
	      "      factors: R=0 C=1\n",
	      &r);
}
END_TEST

/* caps (D<=n) and bypass: keep and bypass forced */
START_TEST(test_brute_max_bypass)
{
	ref_t r;
	ref_init(&r);
	r.max[0][TRIM_DIM_M] = 2;
	r.keep[3][1] = 1;
	r.keep[1][0] = 0;
	brute(case_fc, TRIM__GOAL_EDP,
	      "schema_version: 1\n"
	      "targets:\n"
	      "  - target: DRAM\n"
	      "    type: temporal\n"
	      "    factors: {M: <=2}\n"
	      "  - target: RF\n"
	      "    type: bypass\n"
	      "    keep: [Weights]\n"
	      "  - target: GLB\n"
	      "    type: datatype\n"
	      "    bypass: [ifmap]\n",
	      &r);
}
END_TEST

/* a cap above 1 where the stationarity bound reads it: the weights of a
 * batch-4 FC are reused at the RF over N, capped at 2 there (so they are
 * refilled at least MACs / 2 times whatever the capacity allows) */
static void case_fc_batch(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_fc(a, w), 0);
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 4, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0), 0);
}

START_TEST(test_brute_cap_reuse)
{
	ref_t r;
	ref_init(&r);
	r.max[3][TRIM_DIM_N] = 2;
	brute(case_fc_batch, TRIM__GOAL_ENERGY, "targets: [{target: RF, type: temporal, factors: N<=2}]\n", &r);
	ref_init(&r);
	r.max[3][TRIM_DIM_N] = 2;
	r.max[3][TRIM_DIM_C] = 1;
	brute(case_fc_batch, TRIM__GOAL_EDP, "targets: [{target: RF, type: temporal, factors: N<=2 C<=1}]\n", &r);
	/* the reuse was checked, and is often exactly a mapping's */
	fprintf(stderr, "stationarity reuse: %llu checked, %llu tight\n", (unsigned long long)g_reuse_checked,
	        (unsigned long long)g_reuse_equal);
	ck_assert_uint_gt(g_reuse_checked, 1000);
	ck_assert_uint_gt(g_reuse_equal * 10, g_reuse_checked);
}
END_TEST

/* the input-stationary case of the stationarity bound (the inputs' window
 * axes one word wide at the RF), with a 2x2 array that spreads E and R,
 * two terms of one input axis: a word of the inputs then reaches two PEs
 * at once (e + r = 1 for (0, 1) and (1, 0)), so the DRAM reads of the
 * inputs are not the RF fills over the PEs that differ in M alone */
static void case_window_spread(struct trim_arch *a, trim__intra *w)
{
	tu_arch_rf(a, "spread", 2, 2, 12);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 4, 1, 3, 2, 2, 1, 1, 1, 0), 0);
}

/* the same array under a 1x4 filter row over 3 x 4 inputs, one output
 * channel: the inputs' words dominate, and the array's network words are
 * bounded by the RF fills over the PEs one multicast word may serve, which
 * a spread of both E and R makes two, not one */
static void case_window_spread_row(struct trim_arch *a, trim__intra *w)
{
	tu_arch_rf(a, "spread-row", 2, 2, 12);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 3, 4, 2, 4, 1, 1, 0), 0);
}

START_TEST(test_brute_window_spread)
{
	ref_t r;
	ref_init(&r);
	ref_only(&r, 2, "M");
	r.max[2][TRIM_DIM_M] = 1;
	r.fix[1][TRIM_DIM_E] = 2;
	r.fix[1][TRIM_DIM_R] = 2;
	for (int goal = 0; goal < 3; goal++)
		brute(case_window_spread, goal,
		      "targets:\n"
		      "  - {target: RF, type: temporal, factors: M<=1, only: [M]}\n"
		      "  - {target: NoC, type: spatial, factors: E=2 R=2}\n",
		      &r);
	ref_init(&r);
	r.fix[1][TRIM_DIM_E] = 2;
	r.fix[1][TRIM_DIM_R] = 2;
	for (int goal = 0; goal < 3; goal++)
		brute(case_window_spread_row, goal, "targets:\n  - {target: NoC, type: spatial, factors: E=2 R=2}\n", &r);
}
END_TEST

/* permutations: the listed loops innermost, in order, the rest free */
START_TEST(test_brute_permutation)
{
	ref_t r;
	ref_init(&r);
	ref_perm(&r, 2, "SR");
	ref_perm(&r, 0, "EC");
	brute(case_conv, TRIM__GOAL_ENERGY,
	      "targets:\n"
	      "  - {target: RF, type: temporal, permutation: S R}\n"
	      "  - {target: DRAM, type: temporal, permutation: [E, C]}\n",
	      &r);
	ref_init(&r);
	ref_perm(&r, 1, "C");
	brute(case_fc, TRIM__GOAL_DELAY, "targets: [{target: GLB, type: temporal, permutation: C}]\n", &r);
}
END_TEST

/* a spatial split: M along X, C along Y of the 2x2 NoC (M = 4 across the
 * NoC then no longer fits) */
START_TEST(test_brute_split)
{
	ref_t r;
	ref_init(&r);
	r.axis[2][TRIM_DIM_M] = 1;
	r.axis[2][TRIM_DIM_C] = 2;
	r.fix[3][TRIM_DIM_C] = 1;
	brute(case_fc, TRIM__GOAL_DELAY,
	      "targets: [{target: GLB, type: spatial, permutation: KC, split: 1},\n"
	      "          {target: RF, type: temporal, factors: C=1}]\n",
	      &r);
}
END_TEST

/* random combinations of every kind of constraint, written as YAML and as
 * the reference independently */
START_TEST(test_brute_random)
{
	uint64_t st = 0xc0457a1e75ull;
	g_random = 1;
	g_enofit = 0;
	for (int it = 0; it < 10; it++) {
		void (*mk)(struct trim_arch *, trim__intra *) = it % 2 ? case_fc : case_conv;
		struct trim_arch a;
		trim__intra w;
		mk(&a, &w);
		ref_t r;
		ref_init(&r);
		char yaml[2048];
		size_t o = (size_t)snprintf(yaml, sizeof yaml, "targets:\n");
		for (int l = 0; l < a.nlevels; l++) {
			int ty = a.lv[l].type;
			if (ty == TRIM__LVL_COMPUTE)
				continue;
			char fac[128] = "", onl[32] = "", perm[16] = "";
			size_t fo = 0;
			int split = -1;
			unsigned only = 0, fixed = 0;
			int has_only = tu_range(&st, 0, 3) == 0;
			for (int d = 0; d < TRIM_NDIMS; d++) {
				if (w.bound[d] < 2)
					continue;
				int64_t k = tu_range(&st, 0, 9);
				if (k == 0) { /* the whole bound */
					fo += (size_t)snprintf(fac + fo, sizeof fac - fo, "%c=0 ", "NGMCEFRS"[d]);
					r.fix[l][d] = w.bound[d];
					fixed |= 1u << d;
				} else if (k == 1) { /* 2, or 1 */
					int64_t v = tu_range(&st, 1, 2);
					fo += (size_t)snprintf(fac + fo, sizeof fac - fo, "%c=%lld ", "NGMCEFRS"[d], (long long)v);
					r.fix[l][d] = v;
					fixed |= 1u << d;
				} else if (k == 2) {
					fo += (size_t)snprintf(fac + fo, sizeof fac - fo, "%c<=1 ", "NGMCEFRS"[d]);
					r.max[l][d] = 1;
				} else if (k == 3) { /* a cap above 1: the stationarity bound reads it */
					fo += (size_t)snprintf(fac + fo, sizeof fac - fo, "%c<=2 ", "NGMCEFRS"[d]);
					r.max[l][d] = 2;
				}
				if (has_only && (tu_range(&st, 0, 1) || (fixed >> d & 1)))
					only |= 1u << d;
			}
			if (has_only) {
				size_t k = 0;
				for (int d = 0; d < TRIM_NDIMS; d++) {
					if (only >> d & 1)
						onl[k++] = "NGMCEFRS"[d];
					else if (!r.fix[l][d])
						r.fix[l][d] = 1;
				}
				onl[k] = 0;
			}
			if (tu_range(&st, 0, 2) == 0) { /* a permutation of 1 or 2 dims > 1 */
				int dl[TRIM_NDIMS], n = 0;
				for (int d = 0; d < TRIM_NDIMS; d++)
					if (w.bound[d] > 1)
						dl[n++] = d;
				int k = (int)tu_range(&st, 1, 2), a0 = (int)tu_range(&st, 0, n - 1), a1 = (int)tu_range(&st, 0, n - 2);
				if (a1 >= a0)
					a1++;
				perm[0] = "NGMCEFRS"[dl[a0]];
				perm[1] = k == 2 ? "NGMCEFRS"[dl[a1]] : 0;
				perm[2] = 0;
				if (ty == TRIM__LVL_STORAGE) {
					ref_perm(&r, l, perm);
				} else {
					split = (int)tu_range(&st, 0, 1);
					for (int j = 0; j < k; j++)
						r.axis[l][dl[j ? a1 : a0]] = j < split ? 1 : 2;
				}
			}
			if (fac[0] || has_only || perm[0]) {
				o += (size_t)snprintf(yaml + o, sizeof yaml - o, "  - {target: %s, type: %s", a.lv[l].name,
				                      ty == TRIM__LVL_STORAGE ? "temporal" : "spatial");
				if (fac[0])
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, ", factors: %s", fac);
				if (has_only)
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, ", only: \"%s\"", onl);
				if (perm[0])
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, ", permutation: %s", perm);
				if (split >= 0)
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, ", split: %d", split);
				o += (size_t)snprintf(yaml + o, sizeof yaml - o, "}\n");
			}
			if (ty == TRIM__LVL_STORAGE && l > 0)
				for (int t = 0; t < 3; t++) {
					int64_t k = tu_range(&st, 0, 5);
					if (k > 1)
						continue;
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, "  - {target: %s, type: bypass, %s: [%s]}\n",
					                      a.lv[l].name, k ? "keep" : "bypass", slot_names_t[t]);
					r.keep[l][t] = (int)k;
				}
		}
		if (o == 10) /* nothing drawn */
			o += (size_t)snprintf(yaml + o, sizeof yaml - o, "  - {target: DRAM, type: temporal, permutation: C}\n"),
			ref_perm(&r, 0, "C");
		brute(mk, it % 3, yaml, &r);
	}
	fprintf(stderr, "random constraints: 10 cases, %d with no factorisation\n", g_enofit);
	ck_assert_int_lt(g_enofit, 5);
	g_random = 0;
}
END_TEST

/* Imperfect factorisations in the search: every raw mapping (ragged rows
 * included) evaluated against the search, top 5 and k = 1 at 1-3 threads,
 * with and without constraints; a factor constraint that does not divide
 * is met by the imperfect rows only. */
static void case_ragged_fc(struct trim_arch *a, trim__intra *w)
{
	/* C = 5 and M = 4 over a 3 x 1 array: 3 PEs only with a ragged pass */
	tu_arch_init(a, "ragged");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 1;
	trim__level *g = tu_storage(a, "GLB", 40, 16);
	g->read_bw = g->write_bw = 2;
	tu_spatial(a, "NoC", 3, 1, 1, 1);
	tu_storage(a, "RF", 8, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 5, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
}

static void case_ragged_conv(struct trim_arch *a, trim__intra *w)
{
	/* E = 5 output rows of a 3-tap filter over 3 PEs (a sliding window) */
	tu_arch_rf(a, "ragged-conv", 3, 1, 12);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 2, 1, 7, 1, 3, 1, 1, 1, 0), 0);
}

START_TEST(test_brute_imperfect)
{
	ref_t r;
	g_imperfect = 1;
	g_ragged_valid = 0;
	g_ragged_best = 0;
	g_ragged_raised = 0;
	g_ragged_nodes_raised = 0;
	ref_init(&r);
	ref_only(&r, 2, "C");
	brute(case_ragged_fc, TRIM__GOAL_DELAY, "targets:\n  - {target: NoC, type: spatial, only: [C]}\n", &r);
	ck_assert_uint_gt(g_ragged_valid, 0);
	ref_init(&r);
	ref_only(&r, 1, "E");
	brute(case_ragged_conv, TRIM__GOAL_EDP, "targets:\n  - {target: NoC, type: spatial, only: [E]}\n", &r);
	/* a factor that does not divide: E = 3 on the 3 PEs for E = 5 */
	ref_init(&r);
	r.fix[1][TRIM_DIM_E] = 3;
	brute(case_ragged_conv, TRIM__GOAL_DELAY, "targets:\n  - {target: NoC, type: spatial, factors: E=3}\n", &r);
	ck_assert(g_ragged_best); /* a ragged mapping was the optimum somewhere */
	{
		/* the perfect subspace's best as a seed (perfect_first.c): the
		 * perfect search's own best (same cost, same mapping, its index
		 * in the imperfect space); without imperfect rows, no seed */
		struct trim_arch pa;
		trim__intra pw;
		trim__mapspace ps;
		trim__level_cost pc[TRIM__MAX_LEVELS];
		trim__search_result pr;
		trim__eval pe;
		top_list seeds;
		case_ragged_conv(&pa, &pw);
		tu_costs(&pa, pc);
		ck_assert_int_eq(trim__mapspace_init(&ps, &pw, &pa), 0);
		ck_assert_int_eq(trim__search(&ps, pc, TRIM__GOAL_ENERGY, 1, &pr), 0);
		ck_assert(pr.found && pr.exact);
		ck_assert_int_eq(trim__top_init(&seeds, 1, 1), 0);
		ck_assert(trim__perfect_first(&ps, pc, TRIM__GOAL_ENERGY, 1, 0, &seeds, &pe) == HUGE_VAL && seeds.n == 0);
		ck_assert_int_eq(trim__mapspace_set_imperfect(&ps, 1), 0);
		const double b = trim__perfect_first(&ps, pc, TRIM__GOAL_ENERGY, 2, 0, &seeds, &pe);
		trim__index idx;
		ck_assert_int_eq(trim__mapspace_encode(&ps, &pr.best, &idx), 0);
		ck_assert_msg(seeds.n == 1 && b == pr.best_cost && seeds.idx[0] == idx && pe.energy_pj == pr.best_cost &&
		                  !trim__mapping_ragged(&seeds.map[0], &pw),
		              "perfect-first seed %.17g, the perfect search's best %.17g", b, pr.best_cost);
		trim__top_free(&seeds);
		trim__search_result_free(&pr);
		trim__mapspace_free(&ps);
	}
	/* the per-instance ragged bound is above the touched elements there:
	 * the factorisation bounds of those spaces were raised, and the search
	 * (with them) still gives brute force's best at 1, 2 and 3 threads */
	ck_assert_uint_gt(g_ragged_raised, 0);
	fprintf(stderr, "imperfect brute force: %llu (ragged mapping, tensor) pairs with a raised lower bound\n",
	        (unsigned long long)g_ragged_raised);
	/* nodes with ragged completions bounded above the root's bound (their
	 * spatial levels' instances: the delay and EDP goals), each at most
	 * the cost of every valid mapping below it (checked above) */
	ck_assert_uint_gt(g_ragged_nodes_raised, 0);
	fprintf(stderr, "imperfect brute force: %llu (ragged mapping, node) pairs above the root's bound\n",
	        (unsigned long long)g_ragged_nodes_raised);
	g_imperfect = 0;
	/* without the option that constraint leaves nothing, and says why */
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	case_ragged_conv(&a, &w);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	trim_constraints *cons = load("targets:\n  - {target: NoC, type: spatial, factors: E=3}\n");
	ck_assert_int_eq(trim__mapspace_constrain(cons, &s), TRIM_ENOFIT);
	ck_assert_msg(strstr(trim_last_error(), "E = 3 at NoC") && strstr(trim_last_error(), "imperfect"), "%s",
	              trim_last_error());
	trim_constraints_free(cons);
	trim__mapspace_free(&s);
	/* E = 3 and M = 2 on 3 PEs (both on the array below DRAM): nothing fits;
	 * with the option on, removing either constraint lets a mapping fit (E =
	 * 3 only with a ragged pass: the relaxed searches have the imperfect
	 * rows too), and the reason names both */
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	ck_assert_int_eq(trim__mapspace_set_imperfect(&s, 1), 0);
	cons = load("targets:\n  - {target: NoC, type: spatial, factors: E=3}\n"
	            "  - {target: DRAM, type: spatial, factors: M=2}\n");
	ck_assert_int_eq(trim__mapspace_constrain(cons, &s), 0);
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(&a, c);
	trim__search_result res;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &res), 0);
	ck_assert(!res.found);
	char *why = NULL;
	ck_assert_int_eq(trim__search_why_empty(&s, c, TRIM__GOAL_ENERGY, 1, cons, NULL, &res, &why), 0);
	ck_assert_msg(why && strstr(why, "removed: c.yaml:2:5: targets[0]; c.yaml:3:5: targets[1]"), "%s", why ? why : "");
	free(why);
	trim__search_result_free(&res);
	trim_constraints_free(cons);
	trim__mapspace_free(&s);
}
END_TEST

Suite *constraints_suite(void)
{
	Suite *s = suite_create("constraints");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_brute_factors);
	tcase_add_test(tc, test_brute_max_bypass);
	tcase_add_test(tc, test_brute_cap_reuse);
	tcase_add_test(tc, test_brute_window_spread);
	tcase_add_test(tc, test_brute_permutation);
	tcase_add_test(tc, test_brute_split);
	tcase_add_test(tc, test_brute_random);
	tcase_add_test(tc, test_brute_imperfect);
	suite_add_tcase(s, tc);
	return s;
}
