/* How sure each point of an exploration is (lib/explore/bound.c): exact,
 * the lower bound of its goal's figure, the gap, the ranks it could hold. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "browser.h"
#include "explore/explore_int.h"
#include "trim.h"
#include "trim/explore.h"
#include "explore_util.h"

/* How sure each point is. An exact sweep: every point exact, gap 0, its
 * bound its figure, its rank proven. A sweep whose searches stop early
 * (stop_after: a time limit that lands the same on every machine): a point
 * that is not exact has a gap > 0 and a lower bound that is its searches'
 * bounds combined for its goal (hand-worked from its workloads' bounds and
 * the inter-layer work of the point's network evaluation), below the figure
 * the exact sweep gives that point; the ranks each point could hold follow
 * the intervals (brute force); the reports carry them, and a resumed sweep
 * keeps them bit for bit. */
static double goal_cost(int goal, const double *f)
{
	return goal == TRIM_EXPLORE_ENERGY ? f[TRIM_XF_ENERGY_PJ]
	       : goal == TRIM_EXPLORE_DELAY ? f[TRIM_XF_CYCLES]
	                                     : f[TRIM_XF_EDP];
}

static void sure_setup(fx *s, int goal, uint64_t stop_after)
{
	fx_setup(s, goal, 1);
	ck_assert(trim_explorer_set_int(s->ex, TRIM_EX_SPARSITY, 0) == 0); /* dense figures: bounded */
	s->ex->stop_after = stop_after;
}

/* The inter-layer work of point i no mapping changes: cycles, energy less leakage. */
static void inter_fixed(const fx *s, size_t i, double *cycles, double *pj)
{
	trim_arch *a = NULL;
	trim_neteval *ne = NULL;
	ck_assert(trim_space_point_arch(s->space, i, &a) == 0);
	ck_assert(trim_neteval_create(&ne, s->net, s->w, a, NULL) == 0);
	ck_assert(trim_neteval_set_int(ne, TRIM_NET_SPARSITY, 0) == 0);
	ck_assert(trim_neteval_run(ne) == 0);
	*cycles = *pj = 0;
	for (size_t j = 0; j < trim_workloads_inter_count(s->w); j++) {
		double f[TRIM_NI_COUNT];
		ck_assert(trim_neteval_inter(ne, j, f, TRIM_NI_COUNT) == 0);
		*cycles += f[TRIM_NI_CYCLES];
		*pj += f[TRIM_NI_ENERGY_PJ] - f[TRIM_NI_STATIC_PJ];
	}
	trim_neteval_free(ne);
	trim_arch_free(a);
}

static void check_bound(const fx *s, int goal, size_t i, const double *f, const double *exact)
{
	double cost = goal_cost(goal, f), lb = f[TRIM_XF_LOWER_BOUND];
	ck_assert(f[TRIM_XF_VALID] == 1 && f[TRIM_XF_EXACT] == 0);
	ck_assert_msg(lb > 0 && lb < cost && lb <= goal_cost(goal, exact), "point %zu: bound %g, figure %g, exact %g", i,
	              lb, cost, goal_cost(goal, exact));
	ck_assert(f[TRIM_XF_GAP] > 0 && fabs(f[TRIM_XF_GAP] - (cost - lb) / cost) <= 1e-15);
	/* hand-worked: the workloads' bounds and the inter-layer work */
	double ic, ipj, sum = 0, roots = 0;
	inter_fixed(s, i, &ic, &ipj);
	size_t n = trim_workloads_intra_count(s->w);
	for (size_t k = 0; k < n; k++) {
		double w[TRIM_NF_COUNT];
		ck_assert(trim_explorer_workload(s->ex, i, k, w, TRIM_NF_COUNT) == 0);
		ck_assert(w[TRIM_NF_LOWER_BOUND] > 0 && w[TRIM_NF_EXACT] == (s->ex->pt[i].wl[k].exact));
		double c = goal == TRIM_EXPLORE_ENERGY ? w[TRIM_NF_DENSE_ENERGY_PJ]
		           : goal == TRIM_EXPLORE_DELAY ? w[TRIM_NF_DENSE_CYCLES]
		                                         : w[TRIM_NF_DENSE_ENERGY_PJ] * w[TRIM_NF_DENSE_CYCLES];
		ck_assert(w[TRIM_NF_LOWER_BOUND] <= c);
		if (!w[TRIM_NF_EXACT])
			ck_assert(fabs(w[TRIM_NF_GAP] - (c - w[TRIM_NF_LOWER_BOUND]) / c) <= 1e-15);
		sum += w[TRIM_NF_LOWER_BOUND];
		roots += sqrt(w[TRIM_NF_LOWER_BOUND]);
	}
	double want = goal == TRIM_EXPLORE_ENERGY ? sum + ipj
	              : goal == TRIM_EXPLORE_DELAY ? sum + ic
	                                            : (roots + sqrt(ic * ipj)) * (roots + sqrt(ic * ipj));
	ck_assert_msg(fabs(lb - want) <= 1e-9 * want, "point %zu: bound %.17g, hand-worked %.17g", i, lb, want);
}

/* The ranks point i could hold: brute force over the intervals [bound, figure]. */
static void check_ranks(int goal, double f[][TRIM_XF_COUNT], size_t n, size_t i)
{
	size_t ahead = 0, behind = 0;
	for (size_t j = 0; j < n; j++) {
		if (j == i)
			continue;
		double cj = goal_cost(goal, f[j]), ci = goal_cost(goal, f[i]);
		ahead += cj < f[i][TRIM_XF_LOWER_BOUND] || (cj == f[i][TRIM_XF_LOWER_BOUND] && j < i);
		behind += ci < f[j][TRIM_XF_LOWER_BOUND] || (ci == f[j][TRIM_XF_LOWER_BOUND] && i < j);
	}
	ck_assert(f[i][TRIM_XF_RANK_BEST] == (double)(1 + ahead));
	ck_assert(f[i][TRIM_XF_RANK_WORST] == (double)(n - behind));
	ck_assert(f[i][TRIM_XF_RANK_BEST] <= f[i][TRIM_XF_RANK] && f[i][TRIM_XF_RANK] <= f[i][TRIM_XF_RANK_WORST]);
}

START_TEST(test_how_sure)
{
	const int goals[] = {TRIM_EXPLORE_ENERGY, TRIM_EXPLORE_DELAY, TRIM_EXPLORE_EDP};
	double edp_bound[3] = {0};
	for (int g = 0; g < 3; g++) {
		int goal = goals[g];
		fx e;
		sure_setup(&e, goal, 0);
		ck_assert(trim_explorer_run(e.ex) == 0);
		double fe[3][TRIM_XF_COUNT];
		for (size_t i = 0; i < 3; i++) {
			ck_assert(trim_explorer_point(e.ex, i, fe[i], TRIM_XF_COUNT) == 0);
			ck_assert(fe[i][TRIM_XF_VALID] == 1 && fe[i][TRIM_XF_EXACT] == 1);
			ck_assert(fe[i][TRIM_XF_GAP] == 0);
			ck_assert(fe[i][TRIM_XF_LOWER_BOUND] == goal_cost(goal, fe[i]));
			ck_assert(fe[i][TRIM_XF_RANK_BEST] == fe[i][TRIM_XF_RANK] &&
			          fe[i][TRIM_XF_RANK_WORST] == fe[i][TRIM_XF_RANK]);
		}
		char *t = NULL;
		ck_assert(trim_explorer_report(e.ex, TRIM_FORMAT_TABLE, &t) == 0);
		ck_assert_msg(strstr(t, "exact      gap ranks") && !strstr(t, "not proven"), "%s", t);
		trim_string_free(t);
		fx_teardown(&e);

		fx s;
		sure_setup(&s, goal, 1); /* every search stops at its first check */
		ck_assert_msg(trim_explorer_run(s.ex) == 0, "%s", trim_last_error());
		double f[3][TRIM_XF_COUNT];
		for (size_t i = 0; i < 3; i++) {
			ck_assert(trim_explorer_point(s.ex, i, f[i], TRIM_XF_COUNT) == 0);
			check_bound(&s, goal, i, f[i], fe[i]);
			edp_bound[i] = f[i][TRIM_XF_LOWER_BOUND];
		}
		for (size_t i = 0; i < 3; i++)
			check_ranks(goal, f, 3, i);
		ck_assert(f[0][TRIM_XF_RANK_BEST] != f[0][TRIM_XF_RANK_WORST]); /* the intervals overlap */
		ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_TABLE, &t) == 0);
		ck_assert_msg(strstr(t, " no ") && strstr(t, " 1-3\n") && strstr(t, "the order of 3 of 3 ranked points is not proven"),
		              "%s", t);
		trim_string_free(t);
		ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_JSON, &t) == 0);
		ck_assert(strstr(t, "\"exact\": false, \"lower_bound\": ") && strstr(t, "\"rank_best\": 1, \"rank_worst\": 3"));
		trim_string_free(t);
		ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_CSV, &t) == 0);
		ck_assert(strstr(t, ",temporal_utilization,exact,lower_bound,gap,rank_best,rank_worst,pareto_proven\n"));
		char want[128];
		snprintf(want, sizeof want, ",0,%.17g,%.17g,1,3,0\n", f[0][TRIM_XF_LOWER_BOUND], f[0][TRIM_XF_GAP]);
		ck_assert_msg(strstr(t, want), "%s not in %s", want, t);
		trim_string_free(t);
		fx_teardown(&s);
	}

	/* the goals that rank with EDP mappings (the same searches, stopped at the
	 * same place): weighted with equal energy and delay weights, the EDP bound
	 * to that power times the area's; with unequal ones no bound; area: the
	 * figure, whatever the searches proved */
	fx wg;
	sure_setup(&wg, TRIM_EXPLORE_WEIGHTED, 1);
	ck_assert(trim_explorer_run(wg.ex) == 0);
	const double weights[3][3] = {{1, 1, 0}, {2, 2, 1}, {2, 1, 0}};
	for (int k = 0; k < 3; k++) {
		ck_assert(trim_explorer_set_double(wg.ex, TRIM_EX_W_ENERGY, weights[k][0]) == 0);
		ck_assert(trim_explorer_set_double(wg.ex, TRIM_EX_W_DELAY, weights[k][1]) == 0);
		ck_assert(trim_explorer_set_double(wg.ex, TRIM_EX_W_AREA, weights[k][2]) == 0); /* re-ranked */
		for (size_t i = 0; i < 3; i++) {
			double f[TRIM_XF_COUNT];
			ck_assert(trim_explorer_point(wg.ex, i, f, TRIM_XF_COUNT) == 0);
			ck_assert(f[TRIM_XF_EXACT] == 0);
			double cost = pow(f[TRIM_XF_EDP], weights[k][0]) * pow(f[TRIM_XF_AREA_MM2], weights[k][2]);
			if (k == 2) {
				ck_assert(isnan(f[TRIM_XF_LOWER_BOUND]) && isnan(f[TRIM_XF_GAP]));
				continue;
			}
			double want = pow(edp_bound[i], weights[k][0]) * pow(f[TRIM_XF_AREA_MM2], weights[k][2]);
			ck_assert_msg(fabs(f[TRIM_XF_LOWER_BOUND] - want) <= 1e-12 * want, "weights %d point %zu: %.17g, want %.17g",
			              k, i, f[TRIM_XF_LOWER_BOUND], want);
			ck_assert(fabs(f[TRIM_XF_GAP] - (cost - want) / cost) <= 1e-9);
		}
	}
	fx_teardown(&wg);
	fx ar;
	sure_setup(&ar, TRIM_EXPLORE_AREA, 1);
	ck_assert(trim_explorer_run(ar.ex) == 0);
	for (size_t i = 0; i < 3; i++) {
		double f[TRIM_XF_COUNT];
		ck_assert(trim_explorer_point(ar.ex, i, f, TRIM_XF_COUNT) == 0);
		ck_assert(f[TRIM_XF_EXACT] == 0 && f[TRIM_XF_GAP] == 0 && f[TRIM_XF_LOWER_BOUND] == f[TRIM_XF_AREA_MM2]);
		ck_assert(f[TRIM_XF_RANK_BEST] == f[TRIM_XF_RANK] && f[TRIM_XF_RANK_WORST] == f[TRIM_XF_RANK]);
	}
	fx_teardown(&ar);

	/* the point files carry what the searches proved: resumed, the same */
	char dir[] = "/tmp/trim-sure-XXXXXX";
	ck_assert(mkdtemp(dir) != NULL);
	char *text[2];
	for (int k = 0; k < 2; k++) {
		fx s;
		sure_setup(&s, TRIM_EXPLORE_EDP, 1);
		ck_assert(trim_explorer_set_out_dir(s.ex, dir) == 0);
		ck_assert_int_eq(trim_explorer_resumed(s.ex), k ? 3 : 0);
		ck_assert(trim_explorer_run(s.ex) == 0);
		ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_CSV, &text[k]) == 0);
		double f[TRIM_XF_COUNT];
		ck_assert(trim_explorer_point(s.ex, 1, f, TRIM_XF_COUNT) == 0);
		ck_assert(f[TRIM_XF_EXACT] == 0 && f[TRIM_XF_GAP] > 0);
		fx_teardown(&s);
	}
	ck_assert_str_eq(text[0], text[1]);
	trim_string_free(text[0]);
	trim_string_free(text[1]);
	char path[300], file[1 << 16];
	snprintf(path, sizeof path, "%s/point-000001.json", dir);
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	file[fread(file, 1, sizeof file - 1, fp)] = '\0';
	fclose(fp);
	ck_assert(strstr(file, "\"exact\": false, \"lower_bound\": "));
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	ck_assert(system(path) == 0);

	/* sparse figures (zero-gating hardware, sparsity on): the searches bound
	 * the dense ones only: no bound unless exact */
	fx sp;
	fx_setup(&sp, TRIM_EXPLORE_ENERGY, 1);
	sp.ex->stop_after = 1;
	ck_assert(trim_explorer_run(sp.ex) == 0);
	double f[TRIM_XF_COUNT];
	ck_assert(trim_explorer_point(sp.ex, 0, f, TRIM_XF_COUNT) == 0);
	ck_assert(f[TRIM_XF_VALID] == 1 && f[TRIM_XF_EXACT] == 0);
	ck_assert(isnan(f[TRIM_XF_LOWER_BOUND]) && isnan(f[TRIM_XF_GAP]));
	ck_assert(f[TRIM_XF_RANK_BEST] == 1 && f[TRIM_XF_RANK_WORST] == 3);
	char *t = NULL;
	ck_assert(trim_explorer_report(sp.ex, TRIM_FORMAT_TABLE, &t) == 0);
	ck_assert_msg(strstr(t, "none 1-3"), "%s", t);
	trim_string_free(t);
	fx_teardown(&sp);
}
END_TEST

/* The Pareto front's sureness (trim__explore_pareto_proven): an exact sweep
 * proves every point's place on or off the front; a sweep whose searches
 * stop early proves none (the reports say so); and, point by point, a front
 * point is in doubt only while an inexact point of no larger area could reach
 * below its goal figure, an off-front point only while no exact point
 * dominates it. */
static size_t count(const char *hay, const char *needle)
{
	size_t k = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		k++;
	return k;
}

START_TEST(test_pareto_proven)
{
	fx s;
	sure_setup(&s, TRIM_EXPLORE_EDP, 1); /* stopped early: nothing proven */
	ck_assert(trim_explorer_run(s.ex) == 0);
	char *t = NULL;
	ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_JSON, &t) == 0);
	ck_assert_int_eq(count(t, "\"pareto_proven\": false"), 3);
	trim_string_free(t);
	for (size_t i = 0; i < 3; i++) { /* the C API's field says the same */
		double f[TRIM_XF_COUNT];
		ck_assert(trim_explorer_point(s.ex, i, f, TRIM_XF_COUNT) == 0);
		ck_assert(f[TRIM_XF_PARETO_PROVEN] == 0);
	}
	ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_TABLE, &t) == 0);
	ck_assert_msg(strstr(t, " *?  ") && strstr(t, "pareto ?: the place on or off the front of 3 points is not proven"),
	              "%s", t);
	trim_string_free(t);
	/* the HTML page draws them dashed and says why (in chromium when installed) */
	char dir[] = "/tmp/trim-front-XXXXXX", page[256], png[256];
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(page, sizeof page, "%s/x.html", dir);
	snprintf(png, sizeof png, "%s/x.png", dir);
	ck_assert(trim_explorer_write_html(s.ex, page) == 0);
	char *html = tb_slurp(page), *dom = tb_browse(page, dir, png, 800, 1000);
	ck_assert(html && count(html, "\"pareto_proven\": false") == 3);
	if (!dom)
		fprintf(stderr, "test_pareto_proven: chromium is not installed (make deps installs it): no page rendered\n");
	else
		ck_assert_msg(count(dom, "class=\"point unproven\"") == 3 && strstr(dom, "3 of 3 points are drawn dashed"),
		              "%.2000s", dom);
	free(html);
	free(dom);
	snprintf(page, sizeof page, "rm -rf %s", dir);
	ck_assert(system(page) == 0);
	fx_teardown(&s);

	sure_setup(&s, TRIM_EXPLORE_EDP, 0); /* exact */
	ck_assert(trim_explorer_run(s.ex) == 0);
	ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_JSON, &t) == 0);
	ck_assert_int_eq(count(t, "\"pareto_proven\": true"), 3);
	trim_string_free(t);
	for (size_t i = 0; i < 3; i++) {
		double f[TRIM_XF_COUNT];
		ck_assert(trim_explorer_point(s.ex, i, f, TRIM_XF_COUNT) == 0);
		ck_assert(f[TRIM_XF_PARETO_PROVEN] == 1);
	}
	ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_TABLE, &t) == 0);
	ck_assert_msg(!strstr(t, "pareto ?") && !strstr(t, "*?"), "%s", t);
	trim_string_free(t);
	trim__xpoint *pt = s.ex->pt;
	size_t front = 3, off = 3;
	for (size_t i = 0; i < 3; i++) {
		if (pt[i].f[TRIM_XF_PARETO] != 0)
			front = i;
		else
			off = i;
	}
	ck_assert(front < 3 && off < 3); /* the fixture has both */
	/* a front point against an inexact other point j */
	size_t j = front == 0 ? 1 : 0;
	double cost = trim__explore_point_cost(s.ex, &pt[front]);
	pt[j].f[TRIM_XF_EXACT] = 0;
	pt[j].f[TRIM_XF_LOWER_BOUND] = NAN; /* no bound: it could reach anything */
	int smaller = pt[j].f[TRIM_XF_AREA_MM2] <= pt[front].f[TRIM_XF_AREA_MM2];
	ck_assert_int_eq(trim__explore_pareto_proven(s.ex, front), !smaller);
	pt[j].f[TRIM_XF_LOWER_BOUND] = 2 * cost; /* surely above: cannot dominate */
	ck_assert_int_eq(trim__explore_pareto_proven(s.ex, front), 1);
	pt[j].f[TRIM_XF_LOWER_BOUND] = cost;
	ck_assert_int_eq(trim__explore_pareto_proven(s.ex, front), !smaller);
	ck_assert_int_eq(trim__explore_pareto_proven(s.ex, j), 0); /* inexact itself */
	/* the off-front point: proven while an exact point dominates it */
	for (size_t i = 0; i < 3; i++)
		pt[i].f[TRIM_XF_EXACT] = 1;
	ck_assert_int_eq(trim__explore_pareto_proven(s.ex, off), 1);
	for (size_t i = 0; i < 3; i++)
		if (i != off)
			pt[i].f[TRIM_XF_EXACT] = 0;
	ck_assert_int_eq(trim__explore_pareto_proven(s.ex, off), 0);
	fx_teardown(&s);
}
END_TEST

Suite *explore_bound_suite(void)
{
	Suite *s = suite_create("explore_bound");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_how_sure);
	tcase_add_test(tc, test_pareto_proven);
	suite_add_tcase(s, tc);
	return s;
}
