/* The explorer: ranking, Pareto front, goals, budgets, determinism, resuming. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trim.h"
#include "trim/explore.h"

#define NET "test/data/neteval/tiny.yaml"
#define SPACE "test/data/neteval/tiny-space-1pe.yaml"

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_space *space;
	trim_explorer *ex;
} fx;

static void setup(fx *s, int goal, int threads)
{
	memset(s, 0, sizeof *s);
	ck_assert(trim_network_load(&s->net, NET) == 0);
	/* inference keeps the sweeps fast */
	ck_assert(trim_workloads_create(&s->w, s->net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert_msg(trim_space_load(&s->space, SPACE) == 0, "%s", trim_last_error());
	ck_assert(trim_explorer_create(&s->ex, s->net, s->w, s->space) == 0);
	ck_assert(trim_explorer_set_int(s->ex, TRIM_EX_GOAL, goal) == 0);
	ck_assert(trim_explorer_set_int(s->ex, TRIM_EX_THREADS, threads) == 0);
}

static void teardown(fx *s)
{
	trim_explorer_free(s->ex);
	trim_space_free(s->space);
	trim_workloads_free(s->w);
	trim_network_free(s->net);
}

static char *report(const fx *s)
{
	char *t = NULL;
	ck_assert(trim_explorer_report(s->ex, TRIM_FORMAT_JSON, &t) == 0);
	return t;
}

START_TEST(test_ranking_and_pareto)
{
	fx s;
	setup(&s, TRIM_EXPLORE_EDP, 1);
	ck_assert_int_eq(trim_explorer_count(s.ex), 3);
	ck_assert(trim_explorer_run(s.ex) == 0);
	double f[3][TRIM_XF_COUNT];
	for (size_t i = 0; i < 3; i++) {
		ck_assert(trim_explorer_point(s.ex, i, f[i], TRIM_XF_COUNT) == 0);
		ck_assert(f[i][TRIM_XF_VALID] == 1);
		ck_assert(f[i][TRIM_XF_EDP] == f[i][TRIM_XF_CYCLES] * f[i][TRIM_XF_ENERGY_PJ]);
		ck_assert(f[i][TRIM_XF_AREA_MM2] > 0);
	}
	/* ranks follow EDP (ties by index) */
	for (size_t r = 1; r < 3; r++) {
		size_t a, b;
		ck_assert(trim_explorer_ranked(s.ex, r, &a) == 0);
		ck_assert(trim_explorer_ranked(s.ex, r + 1, &b) == 0);
		ck_assert(f[a][TRIM_XF_EDP] < f[b][TRIM_XF_EDP] ||
		          (f[a][TRIM_XF_EDP] == f[b][TRIM_XF_EDP] && a < b));
		ck_assert(f[a][TRIM_XF_RANK] == (double)r);
	}
	ck_assert_int_eq(trim_explorer_ranked(s.ex, 4, &(size_t){0}), TRIM_ENOTFOUND);
	/* the Pareto flags: brute force over (energy, delay, area) */
	for (size_t i = 0; i < 3; i++) {
		int dom = 0;
		for (size_t j = 0; j < 3; j++) {
			if (j == i)
				continue;
			int le = f[j][TRIM_XF_ENERGY_PJ] <= f[i][TRIM_XF_ENERGY_PJ] &&
			         f[j][TRIM_XF_CYCLES] <= f[i][TRIM_XF_CYCLES] &&
			         f[j][TRIM_XF_AREA_MM2] <= f[i][TRIM_XF_AREA_MM2];
			int lt = f[j][TRIM_XF_ENERGY_PJ] < f[i][TRIM_XF_ENERGY_PJ] ||
			         f[j][TRIM_XF_CYCLES] < f[i][TRIM_XF_CYCLES] ||
			         f[j][TRIM_XF_AREA_MM2] < f[i][TRIM_XF_AREA_MM2];
			if (le && (lt || j < i))
				dom = 1;
		}
		ck_assert_int_eq((int)f[i][TRIM_XF_PARETO], !dom);
	}
	/* the smallest buffer has the smallest area: always on the front */
	ck_assert(f[0][TRIM_XF_PARETO] == 1);
	char *t = report(&s);
	ck_assert(strstr(t, "\"goal\": \"edp\""));
	ck_assert(strstr(t, "\"pareto\": [\"pes=1_glb=1KB\""));
	ck_assert(strstr(t, "\"area_mm2\": "));
	trim_string_free(t);
	teardown(&s);
}
END_TEST

START_TEST(test_goals_and_budget)
{
	fx s;
	setup(&s, TRIM_EXPLORE_AREA, 1);
	/* area budget below the two larger buffers: only the smallest is ranked */
	double probe[TRIM_XF_COUNT];
	ck_assert(trim_explorer_run(s.ex) == 0);
	ck_assert(trim_explorer_point(s.ex, 0, probe, TRIM_XF_COUNT) == 0);
	size_t best;
	ck_assert(trim_explorer_ranked(s.ex, 1, &best) == 0);
	ck_assert_int_eq(best, 0); /* least area */
	ck_assert(trim_explorer_set_double(s.ex, TRIM_EX_AREA_BUDGET, probe[TRIM_XF_AREA_MM2] * 1.001) == 0);
	/* a finished sweep is re-ranked at once */
	ck_assert(trim_explorer_ranked(s.ex, 1, &best) == 0 && best == 0);
	ck_assert_int_eq(trim_explorer_ranked(s.ex, 2, &best), TRIM_ENOTFOUND);
	char *t = NULL;
	ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_TABLE, &t) == 0);
	ck_assert(strstr(t, "over the area budget"));
	trim_string_free(t);
	ck_assert_int_eq(trim_explorer_set_double(s.ex, TRIM_EX_W_ENERGY, -1), TRIM_ERANGE);
	ck_assert_int_eq(trim_explorer_set_int(s.ex, TRIM_EX_GOAL, 9), TRIM_EINVAL);
	teardown(&s);
}
END_TEST

/* Identical results for 1 and 2 threads, by stepping or running. */
START_TEST(test_deterministic)
{
	char *t[3];
	for (int k = 0; k < 3; k++) {
		fx s;
		setup(&s, TRIM_EXPLORE_ENERGY, k == 0 ? 1 : 2);
		if (k == 2) {
			int done = 0;
			while (!done)
				ck_assert(trim_explorer_step(s.ex, &done) == 0);
		} else {
			ck_assert(trim_explorer_run(s.ex) == 0);
		}
		t[k] = report(&s);
		teardown(&s);
	}
	ck_assert_str_eq(t[0], t[1]);
	ck_assert_str_eq(t[0], t[2]);
	for (int k = 0; k < 3; k++)
		trim_string_free(t[k]);
}
END_TEST

/* An interrupted sweep resumes from what it wrote, with identical results;
 * a directory of another exploration is refused. */
START_TEST(test_resume)
{
	char dir[] = "/tmp/trim-explore-XXXXXX";
	ck_assert(mkdtemp(dir) != NULL);
	char out[256];
	snprintf(out, sizeof out, "%s/run", dir);
	fx a;
	setup(&a, TRIM_EXPLORE_EDP, 1);
	ck_assert(trim_explorer_set_out_dir(a.ex, out) == 0);
	int done = 0;
	ck_assert(trim_explorer_step(a.ex, &done) == 0 && !done); /* one point, then "interrupted" */
	teardown(&a);

	fx b;
	setup(&b, TRIM_EXPLORE_EDP, 2);
	ck_assert(trim_explorer_set_out_dir(b.ex, out) == 0);
	ck_assert_int_eq(trim_explorer_resumed(b.ex), 1);
	ck_assert(trim_explorer_run(b.ex) == 0);
	char *tb = report(&b);
	ck_assert(trim_explorer_write(b.ex, out) == 0);
	teardown(&b);

	fx c; /* fresh, no directory */
	setup(&c, TRIM_EXPLORE_EDP, 1);
	ck_assert(trim_explorer_run(c.ex) == 0);
	char *tc = report(&c);
	teardown(&c);
	ck_assert_str_eq(tb, tc);

	fx d; /* everything resumed */
	setup(&d, TRIM_EXPLORE_EDP, 1);
	ck_assert(trim_explorer_set_out_dir(d.ex, out) == 0);
	ck_assert_int_eq(trim_explorer_resumed(d.ex), 3);
	ck_assert(trim_explorer_run(d.ex) == 0);
	char *td = report(&d);
	ck_assert_str_eq(td, tc);
	teardown(&d);

	fx e; /* another goal: the directory is refused, naming it */
	setup(&e, TRIM_EXPLORE_DELAY, 1);
	ck_assert_int_eq(trim_explorer_set_out_dir(e.ex, out), TRIM_EINVAL);
	ck_assert(strstr(trim_last_error(), "another exploration"));
	teardown(&e);

	char path[300];
	snprintf(path, sizeof path, "%s/results.json", out);
	ck_assert(access(path, R_OK) == 0);
	snprintf(path, sizeof path, "%s/workloads.csv", out);
	ck_assert(access(path, R_OK) == 0);
	trim_string_free(tb);
	trim_string_free(tc);
	trim_string_free(td);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert(system(cmd) == 0);
}
END_TEST

Suite *explore_suite(void)
{
	Suite *s = suite_create("explore");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_ranking_and_pareto);
	tcase_add_test(tc, test_goals_and_budget);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_resume);
	suite_add_tcase(s, tc);
	return s;
}
