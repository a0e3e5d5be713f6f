/* Work items (trim/work.h): an exploration's points and a network's distinct
 * searches run by other "processes" (other handles built from the same
 * inputs), their results merged in any order: the reports are
 * byte-identical to one process; results of other inputs, other kinds or
 * garbage are refused; errors travel; an output directory keeps what every
 * process finished (one search's top nodes: check_work_search.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trim.h"
#include "trim/work.h"
#include "work_fixture.h"

/* The reference: one process, one thread. */
static char *explore_reference(int goal)
{
	xfx s;
	xsetup(&s, goal, NULL);
	ck_assert(trim_explorer_run(s.ex) == 0);
	char *t = xreport(s.ex);
	xteardown(&s);
	return t;
}

/* Items run by two workers (alternately, largest first), merged by a
 * collector in reverse order of arrival; the collector runs the last item
 * itself: the report is the reference's. */
START_TEST(test_explore_any_order)
{
	char *ref = explore_reference(TRIM_EXPLORE_EDP);
	xfx c, w[2];
	xsetup(&c, TRIM_EXPLORE_EDP, NULL);
	ck_assert(trim_work_explore(&c.wk, c.ex) == 0);
	size_t n = trim_work_count(c.wk);
	ck_assert_int_eq(n, 3);
	for (int k = 0; k < 2; k++) {
		xsetup(&w[k], TRIM_EXPLORE_EDP, NULL);
		ck_assert(trim_work_explore(&w[k].wk, w[k].ex) == 0);
		ck_assert_int_eq(trim_work_count(w[k].wk), n);
	}
	double prev = 1e300;
	int64_t seen = 0;
	for (size_t k = 0; k < n; k++) { /* largest first, every point once */
		int64_t id = -1;
		double cost = -1;
		ck_assert(trim_work_item(c.wk, k, &id, &cost) == 0);
		ck_assert(id >= 0 && id < 3 && !(seen & (1 << id)));
		seen |= 1 << id;
		ck_assert(cost > 0 && cost <= prev);
		prev = cost;
	}
	int64_t id = 0;
	ck_assert_int_eq(trim_work_item(c.wk, n, &id, NULL), TRIM_ENOTFOUND);
	char *text[3] = {NULL, NULL, NULL};
	int64_t ids[3];
	for (size_t k = 0; k + 1 < n; k++) {
		ck_assert(trim_work_item(c.wk, k, &ids[k], NULL) == 0);
		ck_assert_msg(trim_work_run(w[k % 2].wk, ids[k], &text[k]) == 0, "%s", trim_last_error());
		ck_assert_ptr_nonnull(strstr(text[k], "libtrim work 1\nkind explore\n"));
	}
	ck_assert_int_eq(trim_work_finish(c.wk), TRIM_EINVAL); /* nothing recorded yet */
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "has no result yet"));
	for (size_t k = n - 1; k-- > 0;) {
		int64_t got = -1;
		ck_assert_msg(trim_work_merge(c.wk, text[k], &got) == 0, "%s", trim_last_error());
		ck_assert_int_eq(got, ids[k]);
	}
	ck_assert(trim_work_merge(c.wk, text[0], NULL) == 0); /* twice: no change */
	ck_assert_int_eq(trim_work_done(c.wk), n - 1);
	ck_assert(trim_work_item(c.wk, n - 1, &ids[n - 1], NULL) == 0);
	ck_assert_int_eq(trim_work_status(c.wk, ids[n - 1]), 0);
	ck_assert_int_eq(trim_work_status(c.wk, ids[0]), 1);
	ck_assert_int_eq(trim_work_status(c.wk, 3), TRIM_ENOTFOUND);
	ck_assert(trim_work_run(c.wk, ids[n - 1], NULL) == 0);
	ck_assert_int_eq(trim_work_status(c.wk, ids[n - 1]), 1);
	ck_assert_int_eq(trim_work_done(c.wk), n);
	ck_assert(trim_work_finish(c.wk) == 0);
	ck_assert(trim_explorer_run(c.ex) == 0);
	char *got = xreport(c.ex);
	ck_assert_str_eq(got, ref);
	trim_string_free(got);
	trim_string_free(ref);
	for (size_t k = 0; k < n; k++)
		trim_string_free(text[k]);
	xteardown(&c);
	xteardown(&w[0]);
	xteardown(&w[1]);
}
END_TEST

/* Results that do not belong are refused, with the reason. */
START_TEST(test_explore_refused)
{
	xfx a, b;
	xsetup(&a, TRIM_EXPLORE_EDP, NULL);
	xsetup(&b, TRIM_EXPLORE_DELAY, NULL); /* another search goal: other figures */
	ck_assert(trim_work_explore(&a.wk, a.ex) == 0);
	ck_assert(trim_work_explore(&b.wk, b.ex) == 0);
	char *t = NULL;
	ck_assert(trim_work_run(b.wk, 1, &t) == 0);
	ck_assert_int_eq(trim_work_merge(a.wk, t, NULL), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "the options") && strstr(trim_last_error(), "not a result of this exploration"),
	              "%s", trim_last_error());
	ck_assert_int_eq(trim_work_done(a.wk), 0);
	ck_assert_str_eq(trim_explorer_resume_notes(a.ex), ""); /* not a note: an error */
	/* an edited result fails its checksum */
	xfx d;
	xsetup(&d, TRIM_EXPLORE_DELAY, NULL);
	ck_assert(trim_work_explore(&d.wk, d.ex) == 0);
	char *e = strstr(t, "\"cycles\": ");
	ck_assert_ptr_nonnull(e);
	e[11] = e[11] == '9' ? '8' : '9';
	ck_assert_int_eq(trim_work_merge(d.wk, t, NULL), TRIM_EINVAL);
	xteardown(&d);
	ck_assert_msg(strstr(trim_last_error(), "checksum"), "%s", trim_last_error());
	/* truncated text, garbage, a bad id */
	t[strlen(t) / 2] = '\0';
	ck_assert_int_eq(trim_work_merge(a.wk, t, NULL), TRIM_EPARSE);
	ck_assert_int_eq(trim_work_merge(a.wk, "hello", NULL), TRIM_EPARSE);
	ck_assert_int_eq(trim_work_merge(a.wk, "libtrim work 1\nkind explore\nitem 7\nrc 0\nresumed 0\nstale 0\n"
	                                       "message 0\n\npayload 0\n\nend\n", NULL),
	                 TRIM_EINVAL);
	ck_assert_int_eq(trim_work_merge(a.wk, "libtrim work 1\nkind network\nitem 0\nrc 0\nresumed 0\nstale 0\n"
	                                       "message 0\n\npayload 0\n\nend\n", NULL),
	                 TRIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "network work"));
	ck_assert_int_eq(trim_work_run(a.wk, 3, NULL), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_work_run(a.wk, -1, NULL), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_work_run(NULL, 0, NULL), TRIM_EINVAL);
	ck_assert_int_eq(trim_work_merge(a.wk, NULL, NULL), TRIM_EINVAL);
	ck_assert_int_eq(trim_work_explore(NULL, a.ex), TRIM_EINVAL);
	ck_assert_int_eq(trim_work_finish(NULL), TRIM_EINVAL);
	ck_assert_int_eq(trim_work_count(NULL), 0);
	trim_work_free(NULL);
	trim_string_free(t);
	xteardown(&a);
	xteardown(&b);
}
END_TEST

/* With an output directory every item's file is written where it was run:
 * a rerun (after a "rank" died) finds them, and a worker asked for an item
 * it has read back sends it as resumed; the collector's count says so. */
START_TEST(test_explore_resume)
{
	char dir[] = "/tmp/trim-work-XXXXXX";
	ck_assert(mkdtemp(dir) != NULL);
	char *ref = explore_reference(TRIM_EXPLORE_EDP);
	xfx w;
	xsetup(&w, TRIM_EXPLORE_EDP, dir);
	ck_assert(trim_work_explore(&w.wk, w.ex) == 0);
	char *t = NULL;
	ck_assert(trim_work_run(w.wk, 2, &t) == 0); /* then the job "dies" */
	ck_assert_ptr_nonnull(strstr(t, "resumed 0\n"));
	trim_string_free(t);
	xteardown(&w);

	xfx c, v;
	xsetup(&c, TRIM_EXPLORE_EDP, NULL); /* a collector that has no directory */
	xsetup(&v, TRIM_EXPLORE_EDP, dir);
	ck_assert_int_eq(trim_explorer_resumed(v.ex), 1);
	ck_assert(trim_work_explore(&c.wk, c.ex) == 0);
	ck_assert(trim_work_explore(&v.wk, v.ex) == 0);
	ck_assert_int_eq(trim_work_count(c.wk), 3);
	ck_assert_int_eq(trim_work_count(v.wk), 2); /* point 2 is done there */
	for (int64_t id = 0; id < 3; id++) { /* a place in the run whatever is done: for static splits */
		int64_t pc = -1, pv = -2;
		ck_assert(trim_work_position(c.wk, id, &pc) == 0);
		ck_assert(trim_work_position(v.wk, id, &pv) == 0);
		ck_assert_int_eq(pc, pv);
		int64_t first = -1;
		ck_assert(trim_work_item(c.wk, (size_t)pc, &first, NULL) == 0);
		ck_assert_int_eq(first, id);
	}
	int64_t pos = 0;
	ck_assert_int_eq(trim_work_position(c.wk, 3, &pos), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_work_position(c.wk, 0, NULL), TRIM_EINVAL);
	for (int64_t id = 0; id < 3; id++) {
		ck_assert(trim_work_run(v.wk, id, &t) == 0);
		ck_assert_ptr_nonnull(strstr(t, id == 2 ? "resumed 1\n" : "resumed 0\n"));
		ck_assert(trim_work_merge(c.wk, t, NULL) == 0);
		trim_string_free(t);
	}
	ck_assert(trim_work_finish(c.wk) == 0);
	ck_assert_int_eq(trim_explorer_resumed(c.ex), 1);
	ck_assert(trim_explorer_run(c.ex) == 0);
	char *got = xreport(c.ex);
	ck_assert_str_eq(got, ref);
	trim_string_free(got);
	xteardown(&c);
	xteardown(&v);
	xfx r; /* everything is there now */
	xsetup(&r, TRIM_EXPLORE_EDP, dir);
	ck_assert_int_eq(trim_explorer_resumed(r.ex), 3);
	ck_assert(trim_work_explore(&r.wk, r.ex) == 0);
	ck_assert_int_eq(trim_work_count(r.wk), 0);
	ck_assert(trim_work_finish(r.wk) == 0);
	xteardown(&r);
	trim_string_free(ref);
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* An exploration cut into its points' searches: run by two workers with
 * other thread counts, merged in reverse; every point is finished when its
 * last search arrives, the report is the one-process run's; with an output
 * directory the finished points' files are there. */
START_TEST(test_explore_searches)
{
	char dir[] = "/tmp/trim-work-XXXXXX";
	ck_assert(mkdtemp(dir) != NULL);
	char *ref = explore_reference(TRIM_EXPLORE_EDP);
	xfx c, w[2];
	xsetup(&c, TRIM_EXPLORE_EDP, dir);
	ck_assert_msg(trim_work_explore_searches(&c.wk, c.ex) == 0, "%s", trim_last_error());
	size_t n = trim_work_count(c.wk), nw = trim_workloads_intra_count(c.w);
	ck_assert(n > 3 && n <= 3 * nw); /* more items than the 3 points */
	for (int k = 0; k < 2; k++) {
		xsetup(&w[k], TRIM_EXPLORE_EDP, NULL);
		ck_assert(trim_explorer_set_int(w[k].ex, TRIM_EX_THREADS, k + 1) == 0);
		ck_assert(trim_work_explore_searches(&w[k].wk, w[k].ex) == 0);
		ck_assert_int_eq(trim_work_count(w[k].wk), n);
	}
	char **text = calloc(n, sizeof *text);
	int64_t first = -1;
	for (size_t k = 0; k < n; k++) {
		int64_t id = -1;
		ck_assert(trim_work_item(c.wk, k, &id, NULL) == 0);
		ck_assert(id >= 0 && id < (int64_t)(3 * nw));
		if (k == 0)
			first = id;
		ck_assert_msg(trim_work_run(w[k % 2].wk, id, &text[k]) == 0, "%s", trim_last_error());
		ck_assert_ptr_nonnull(strstr(text[k], "kind explore-searches\n"));
	}
	ck_assert_int_eq(trim_work_merge(c.wk, "libtrim work 1\nkind explore\nitem 0\nrc 0\nresumed 0\nstale 0\n"
	                                       "message 0\n\npayload 0\n\nend\n", NULL),
	                 TRIM_EINVAL); /* a whole point's result is another kind */
	for (size_t k = n; k-- > 0;)
		ck_assert_msg(trim_work_merge(c.wk, text[k], NULL) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_work_status(c.wk, first), 1);
	ck_assert(trim_work_finish(c.wk) == 0);
	ck_assert_int_eq(trim_explorer_done(c.ex), 3); /* every point finished by its last search */
	ck_assert(trim_explorer_run(c.ex) == 0);
	char *got = xreport(c.ex);
	ck_assert_str_eq(got, ref);
	trim_string_free(got);
	xteardown(&c);
	xfx r; /* the finished points are in the directory */
	xsetup(&r, TRIM_EXPLORE_EDP, dir);
	ck_assert_int_eq(trim_explorer_resumed(r.ex), 3);
	xteardown(&r);
	for (size_t k = 0; k < n; k++)
		trim_string_free(text[k]);
	free(text);
	trim_string_free(ref);
	xteardown(&w[0]);
	xteardown(&w[1]);
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A point none of whose searches has a mapping within the limits is
 * invalid, as in one process, not an error of the run. */
START_TEST(test_explore_searches_invalid)
{
	xfx a, c;
	xsetup(&a, TRIM_EXPLORE_EDP, NULL);
	ck_assert(trim_explorer_set_int(a.ex, TRIM_EX_MAX_MAPPINGS, 2) == 0);
	ck_assert(trim_explorer_run(a.ex) == 0);
	char *ref = NULL;
	ck_assert(trim_explorer_report(a.ex, TRIM_FORMAT_TABLE, &ref) == 0);
	xsetup(&c, TRIM_EXPLORE_EDP, NULL);
	ck_assert(trim_explorer_set_int(c.ex, TRIM_EX_MAX_MAPPINGS, 2) == 0);
	ck_assert(trim_work_explore_searches(&c.wk, c.ex) == 0);
	for (size_t k = 0; k < trim_work_count(c.wk); k++) {
		int64_t id = -1;
		ck_assert(trim_work_item(c.wk, k, &id, NULL) == 0);
		ck_assert(trim_work_run(c.wk, id, NULL) == 0);
	}
	ck_assert(trim_work_finish(c.wk) == 0);
	ck_assert(trim_explorer_run(c.ex) == 0);
	char *got = NULL;
	ck_assert(trim_explorer_report(c.ex, TRIM_FORMAT_TABLE, &got) == 0);
	ck_assert_str_eq(got, ref);
	ck_assert_ptr_nonnull(strstr(got, "more than the limit of 2"));
	trim_string_free(got);
	trim_string_free(ref);
	xteardown(&a);
	xteardown(&c);
}
END_TEST

/* trim/work.h, "Threads": a collector that runs items in one thread while
 * another merges the others' results (trim-mpi's rank 0), points and
 * searches alike, the searches of one point arriving in both threads. */
START_TEST(test_run_overlaps_merge)
{
	char *ref = explore_reference(TRIM_EXPLORE_EDP);
	for (int fine = 0; fine < 2; fine++) {
		xfx c, w;
		xsetup(&c, TRIM_EXPLORE_EDP, NULL);
		xsetup(&w, TRIM_EXPLORE_EDP, NULL);
		ck_assert((fine ? trim_work_explore_searches(&c.wk, c.ex) : trim_work_explore(&c.wk, c.ex)) == 0);
		ck_assert((fine ? trim_work_explore_searches(&w.wk, w.ex) : trim_work_explore(&w.wk, w.ex)) == 0);
		size_t n = trim_work_count(c.wk);
		char **text = calloc(n, sizeof *text);
		int64_t *ids = calloc(n, sizeof *ids);
		for (size_t k = 0; k < n; k++) {
			ck_assert(trim_work_item(c.wk, k, &ids[k], NULL) == 0);
			if (k % 2)
				ck_assert(trim_work_run(w.wk, ids[k], &text[k]) == 0);
		}
		int bad = 0;
#pragma omp parallel sections num_threads(2) reduction(+ : bad)
		{
#pragma omp section
			for (size_t k = 0; k < n; k += 2)
				bad += trim_work_run(c.wk, ids[k], NULL) != 0;
#pragma omp section
			for (size_t k = 1; k < n; k += 2)
				bad += trim_work_merge(c.wk, text[k], NULL) != 0;
		}
		ck_assert_int_eq(bad, 0);
		ck_assert_int_eq(trim_work_done(c.wk), n);
		ck_assert_msg(trim_work_finish(c.wk) == 0, "%s", trim_last_error());
		ck_assert(trim_explorer_run(c.ex) == 0);
		char *got = xreport(c.ex);
		ck_assert_str_eq(got, ref);
		trim_string_free(got);
		for (size_t k = 0; k < n; k++)
			trim_string_free(text[k]);
		free(text);
		free(ids);
		xteardown(&c);
		xteardown(&w);
	}
	trim_string_free(ref);
}
END_TEST

/* ---- network ---------------------------------------------------------------- */

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_arch *arch;
	trim_neteval *ne;
	trim_work *wk;
} nfx;

static void nsetup(nfx *s, const char *net, int threads, int64_t max_mappings)
{
	memset(s, 0, sizeof *s);
	ck_assert(trim_network_load(&s->net, net) == 0);
	ck_assert(trim_workloads_create(&s->w, s->net, TRIM_MODE_DEFAULT, 0, 0) == 0);
	ck_assert(trim_arch_load(&s->arch, ARCH) == 0);
	ck_assert(trim_neteval_create(&s->ne, s->net, s->w, s->arch, NULL) == 0);
	ck_assert(trim_neteval_set_int(s->ne, TRIM_NET_THREADS, threads) == 0);
	ck_assert(trim_neteval_set_int(s->ne, TRIM_NET_MAX_MAPPINGS, max_mappings) == 0);
}

static void nteardown(nfx *s)
{
	trim_work_free(s->wk);
	trim_neteval_free(s->ne);
	trim_arch_free(s->arch);
	trim_workloads_free(s->w);
	trim_network_free(s->net);
}

static char *nreport(const trim_neteval *ne)
{
	char *t = NULL;
	ck_assert(trim_neteval_report(ne, TRIM_FORMAT_JSON, &t) == 0);
	return t;
}

/* The distinct searches of a network with repeated layers, run by a worker
 * with two threads and merged in reverse: the report (reuse, counts,
 * mappings) is the one-thread run's. */
START_TEST(test_network_items)
{
	nfx ref;
	nsetup(&ref, NET_REPEAT, 1, 0);
	ck_assert(trim_neteval_run(ref.ne) == 0);
	char *want = nreport(ref.ne);
	size_t distinct = 0;
	for (size_t i = 0; i < trim_neteval_count(ref.ne); i++) {
		double f[TRIM_NF_COUNT];
		ck_assert(trim_neteval_workload(ref.ne, i, f, TRIM_NF_COUNT) == 0);
		distinct += f[TRIM_NF_REUSED_FROM] < 0;
	}
	ck_assert(distinct < trim_neteval_count(ref.ne)); /* the network repeats some */
	nteardown(&ref);

	nfx c, w;
	nsetup(&c, NET_REPEAT, 1, 0);
	nsetup(&w, NET_REPEAT, 2, 0);
	ck_assert(trim_work_network(&c.wk, c.ne) == 0);
	ck_assert(trim_work_network(&w.wk, w.ne) == 0);
	size_t n = trim_work_count(c.wk);
	ck_assert_int_eq(n, distinct);
	char **text = calloc(n, sizeof *text);
	for (size_t k = 0; k < n; k++) {
		int64_t id = -1;
		ck_assert(trim_work_item(c.wk, k, &id, NULL) == 0);
		ck_assert_msg(trim_work_run(w.wk, id, &text[k]) == 0, "%s", trim_last_error());
	}
	for (size_t k = n; k-- > 0;)
		ck_assert_msg(trim_work_merge(c.wk, text[k], NULL) == 0, "%s", trim_last_error());
	ck_assert(trim_work_finish(c.wk) == 0);
	ck_assert(trim_neteval_run(c.ne) == 0);
	char *got = nreport(c.ne);
	ck_assert_str_eq(got, want);
	trim_work *late = NULL;
	ck_assert_int_eq(trim_work_network(&late, c.ne), TRIM_EINVAL); /* after the run: too late */
	ck_assert_ptr_null(late);
	/* a search result of another architecture's evaluation is refused */
	ck_assert_int_eq(trim_work_merge(c.wk, "libtrim work 1\nkind network\nitem 0\nrc 0\nresumed 0\nstale 0\n"
	                                       "message 0\n\npayload 4\nabcd\nend\n", NULL),
	                 0); /* already recorded: nothing is read */
	for (size_t k = 0; k < n; k++)
		trim_string_free(text[k]);
	free(text);
	trim_string_free(got);
	trim_string_free(want);
	nteardown(&c);
	nteardown(&w);

	nfx d;
	nsetup(&d, NET_REPEAT, 1, 0);
	ck_assert(trim_work_network(&d.wk, d.ne) == 0);
	ck_assert_int_eq(trim_work_merge(d.wk, "libtrim work 1\nkind network\nitem 0\nrc 0\nresumed 0\nstale 0\n"
	                                       "message 0\n\npayload 4\nabcd\nend\n", NULL),
	                 TRIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "not a result of this network evaluation"));
	nteardown(&d);
}
END_TEST

/* A search that fails is a result too: the collector reports the error the
 * one-process run reports (the first failing workload, its message). */
START_TEST(test_network_error_travels)
{
	nfx ref;
	nsetup(&ref, NET, 1, 2); /* at most 2 distinct mappings: every workload refused */
	int want_rc = trim_neteval_run(ref.ne);
	ck_assert_int_eq(want_rc, TRIM_ERANGE);
	char want[1024];
	snprintf(want, sizeof want, "%s", trim_last_error());
	nteardown(&ref);

	nfx c, w;
	nsetup(&c, NET, 1, 2);
	nsetup(&w, NET, 1, 2);
	ck_assert(trim_work_network(&c.wk, c.ne) == 0);
	ck_assert(trim_work_network(&w.wk, w.ne) == 0);
	size_t n = trim_work_count(c.wk);
	ck_assert(n >= 2);
	for (size_t k = 0; k < n; k++) {
		int64_t id = -1;
		char *t = NULL;
		ck_assert(trim_work_item(c.wk, k, &id, NULL) == 0);
		ck_assert_int_eq(trim_work_status(w.wk, id), 0);
		ck_assert(trim_work_run(w.wk, id, &t) == 0); /* the item's error is in its result */
		ck_assert_ptr_nonnull(strstr(t, "\nrc -9\n"));
		ck_assert_int_eq(trim_work_status(w.wk, id), TRIM_ERANGE); /* with the item's own message */
		ck_assert_ptr_nonnull(strstr(trim_last_error(), "distinct mappings, more than the limit of 2"));
		ck_assert(trim_work_merge(c.wk, t, NULL) == 0);
		trim_string_free(t);
	}
	ck_assert_int_eq(trim_work_finish(c.wk), TRIM_ERANGE);
	ck_assert_str_eq(trim_last_error(), want);
	ck_assert_int_eq(trim_neteval_run(c.ne), TRIM_ERANGE);
	ck_assert_str_eq(trim_last_error(), want);
	nteardown(&c);
	nteardown(&w);
}
END_TEST

Suite *work_suite(void)
{
	Suite *s = suite_create("work");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_explore_any_order);
	tcase_add_test(tc, test_explore_refused);
	tcase_add_test(tc, test_explore_resume);
	tcase_add_test(tc, test_explore_searches);
	tcase_add_test(tc, test_explore_searches_invalid);
	tcase_add_test(tc, test_run_overlaps_merge);
	tcase_add_test(tc, test_network_items);
	tcase_add_test(tc, test_network_error_travels);
	suite_add_tcase(s, tc);
	return s;
}
