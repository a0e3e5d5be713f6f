/* Work items (trim/work.h) of one search: its top nodes handed out by a
 * collector and run by other "processes" in any order, the same report as
 * one process; tickets and results of another search, garbage and nodes run
 * twice refused; a search without a tree. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trim.h"
#include "trim/work.h"
#include "work_fixture.h"

/* ---- one search's top nodes (trim_work_search) ------------------------------ */

#define RESNET "models/networks/resnet18.yaml"
#define EYERISS "models/arch/eyeriss.yaml"

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_arch *arch;
	trim_search *s;
	trim_work *wk;
} sfx;

static void ssetup(sfx *f, const char *layer, int goal, int topk, int threads)
{
	memset(f, 0, sizeof *f);
	size_t i = 0;
	ck_assert(trim_network_load(&f->net, RESNET) == 0);
	ck_assert(trim_workloads_create(&f->w, f->net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert(trim_workloads_find(f->w, layer, TRIM_PHASE_FW, &i) == 0);
	ck_assert_msg(trim_arch_load(&f->arch, EYERISS) == 0, "%s", trim_last_error());
	ck_assert(trim_search_create(&f->s, f->w, i, f->arch, NULL) == 0);
	ck_assert(trim_search_set_int(f->s, TRIM_SEARCH_GOAL, goal) == 0);
	ck_assert(trim_search_set_int(f->s, TRIM_SEARCH_TOP_K, topk) == 0);
	ck_assert(trim_search_set_int(f->s, TRIM_SEARCH_THREADS, threads) == 0);
}

static void steardown(sfx *f)
{
	trim_work_free(f->wk);
	trim_search_free(f->s);
	trim_arch_free(f->arch);
	trim_workloads_free(f->w);
	trim_network_free(f->net);
}

/* The search's reports (JSON, then the table). */
static char *sreport(const trim_search *s)
{
	char *j = NULL, *t = NULL, *both = NULL;
	ck_assert(trim_search_report(s, TRIM_FORMAT_JSON, &j) == 0);
	ck_assert(trim_search_report(s, TRIM_FORMAT_TABLE, &t) == 0);
	ck_assert((both = malloc(strlen(j) + strlen(t) + 1)) != NULL);
	strcpy(both, j);
	strcat(both, t);
	trim_string_free(j);
	trim_string_free(t);
	return both;
}

/* The nodes of a search handed out by a collector (one thread) and run by
 * another "process" (another search of the same inputs, 2 threads) or by
 * the collector itself, in a scrambled order within the window, the
 * results merged as they come: the reports are trim_search_run's. */
static void nodes_any_order(const char *layer, int goal, int topk)
{
	sfx ref, col, run;
	ssetup(&ref, layer, goal, topk, 1);
	ck_assert(trim_search_run(ref.s) == 0);
	char *want = sreport(ref.s);
	ssetup(&col, layer, goal, topk, 1);
	ssetup(&run, layer, goal, topk, 2);
	ck_assert_msg(trim_work_search(&col.wk, col.s) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_work_search(&run.wk, run.s) == 0, "%s", trim_last_error());
	const size_t n = trim_work_count(col.wk);
	ck_assert_uint_gt(n, 16);
	ck_assert_uint_eq(trim_work_count(run.wk), n);
	int64_t id = -1, last = -1;
	double b0 = 0, b1 = 0;
	ck_assert(trim_work_item(col.wk, 0, &id, &b0) == 0 && id == 0);
	ck_assert(trim_work_item(col.wk, n - 1, &id, &b1) == 0 && id == (int64_t)(n - 1));
	ck_assert(b0 <= b1); /* bound order */
	char *pending[8];
	int64_t pid[8];
	int np = 0, rc = 0, tickets = 0, early = 0, own = 0;
	unsigned seed = 12345;
	char *text = NULL;
	ck_assert_int_eq(trim_work_finish(col.wk), TRIM_EINVAL); /* nothing yet */
	while ((rc = trim_work_next(col.wk, &id, &text)) != 2 || np) {
		ck_assert_msg(rc >= 0, "%s", trim_last_error());
		if (rc == 1) {
			ck_assert_int_lt(np, 8);
			ck_assert_int_gt(id, last); /* in order */
			last = id;
			pending[np] = text;
			pid[np++] = id;
			tickets++;
			if (np < 4 && seed % 3)
				continue; /* take more while the window lets */
		}
		ck_assert_msg(np > 0, "the window waits with nothing running");
		seed = seed * 1103515245u + 12345u;
		int j = (int)(seed >> 16) % np;
		early += j != 0;
		char *result = NULL;
		if ((seed >> 8) % 5 == 0) { /* the collector runs it: recorded there */
			ck_assert_msg(trim_work_run_ticket(col.wk, pending[j], NULL) == 0, "%s", trim_last_error());
			own++;
		} else {
			ck_assert_msg(trim_work_run_ticket(run.wk, pending[j], &result) == 0, "%s", trim_last_error());
			int64_t got = -1;
			ck_assert_msg(trim_work_merge(col.wk, result, &got) == 0, "%s", trim_last_error());
			ck_assert_int_eq(got, pid[j]);
			ck_assert_int_eq(trim_work_status(col.wk, got), 1);
			ck_assert(trim_work_merge(col.wk, result, NULL) == 0); /* twice: nothing changes */
			trim_string_free(result);
		}
		trim_string_free(pending[j]);
		pending[j] = pending[np - 1];
		pid[j] = pid[np - 1];
		np--;
	}
	ck_assert_int_gt(tickets, 4);
	ck_assert_int_gt(early, 0); /* some result merged before one handed out earlier */
	ck_assert_int_gt(own, 0);
	ck_assert_uint_eq(trim_work_done(col.wk), n);
	ck_assert_msg(trim_work_finish(col.wk) == 0, "%s", trim_last_error());
	char *got = sreport(col.s);
	size_t at = 0;
	while (got[at] && got[at] == want[at])
		at++;
	ck_assert_msg(!got[at] && !want[at], "%s: the reports differ from trim_search_run's at byte %zu: '%.60s' "
	              "instead of '%.60s'", layer, at, got + at, want + at);
	free(got);
	free(want);
	steardown(&ref);
	steardown(&col);
	steardown(&run);
}

START_TEST(test_search_nodes_any_order)
{
	/* ResNet-18 on Eyeriss: top nodes searched with thresholds below the
	 * seed's (the prefix's), the others cut */
	nodes_any_order("layer2.0.downsample.0", TRIM_GOAL_EDP, 1);    /* 8 of 2016 searched */
	nodes_any_order("layer3.1.conv2", TRIM_GOAL_ENERGY, 3);        /* 6 of 5184 */
}
END_TEST

/* Tickets and results of another search, garbage, a node run twice at
 * once beyond the threads, trim_work_run: refused with the reason. */
START_TEST(test_search_nodes_refused)
{
	sfx a, b;
	ssetup(&a, "layer4.0.downsample.0", TRIM_GOAL_ENERGY, 1, 1);
	ssetup(&b, "layer4.0.downsample.0", TRIM_GOAL_DELAY, 1, 1);
	ck_assert(trim_work_search(&a.wk, a.s) == 0);
	ck_assert(trim_work_search(&b.wk, b.s) == 0);
	int64_t id = -1;
	char *ta = NULL, *tb = NULL, *ra = NULL;
	ck_assert_int_eq(trim_work_next(a.wk, &id, &ta), 1);
	ck_assert_int_eq(id, 0);
	ck_assert_int_eq(trim_work_next(b.wk, &id, &tb), 1);
	ck_assert_int_eq(trim_work_run_ticket(a.wk, tb, NULL), TRIM_EINVAL); /* the other goal's tree */
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "another search"));
	ck_assert_int_eq(trim_work_run_ticket(a.wk, "libtrim search node 2\nsearch x\n", NULL), TRIM_EINVAL);
	ck_assert_int_eq(trim_work_run_ticket(a.wk, "not a ticket", NULL), TRIM_EPARSE);
	ck_assert_int_eq(trim_work_run(a.wk, 0, NULL), TRIM_EINVAL);
	/* a ticket whose index is past the space (39 nines: past 128 bits too) */
	char big[1024];
	const char *ix = strstr(ta, "\nindex ");
	ck_assert_ptr_nonnull(ix);
	snprintf(big, sizeof big, "%.*s\nindex 999999999999999999999999999999999999999%s", (int)(ix - ta), ta,
	         strstr(ix, "\nindex_on"));
	ck_assert_int_eq(trim_work_run_ticket(a.wk, big, NULL), TRIM_EPARSE);
	ck_assert_int_eq(trim_work_run_ticket(b.wk, tb, &ra), 0);
	trim_string_free(tb);
	tb = NULL;
	ck_assert_int_eq(trim_work_merge(a.wk, ra, NULL), TRIM_EINVAL); /* b's result */
	ck_assert_int_eq(trim_work_merge(a.wk, "libtrim work 1\n", NULL), TRIM_EPARSE);
	/* node 0's result, and the same with more mappings than the search keeps */
	trim_string_free(ra);
	ck_assert_int_eq(trim_work_run_ticket(a.wk, ta, &ra), 0);
	ck_assert_int_eq(trim_work_status(a.wk, 0), 1);
	ck_assert_int_eq(trim_work_finish(a.wk), TRIM_EINVAL); /* node 1 and on not done */
	sfx c;
	ssetup(&c, "layer4.0.downsample.0", TRIM_GOAL_ENERGY, 1, 1);
	ck_assert(trim_work_search(&c.wk, c.s) == 0);
	char *bad = strdup(ra), *kept = strstr(bad, "\nkept ");
	ck_assert_ptr_nonnull(kept);
	kept[6] = '9';
	ck_assert_int_eq(trim_work_merge(c.wk, bad, NULL), TRIM_EPARSE);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "malformed result of node 0"));
	ck_assert_int_eq(trim_work_status(c.wk, 0), 0);
	/* a result whose best mapping carries another second figure (the
	 * tie-break's: cycles for the energy goal) is refused, not merged */
	free(bad);
	bad = strdup(ra);
	kept = strstr(bad, "\nkept 1\n");
	ck_assert_ptr_nonnull(kept);
	char *fig = strchr(kept + 8, ' '); /* "cost second index": the second, as 9s of its length */
	ck_assert_ptr_nonnull(fig);
	for (char *q = fig + 1; *q != ' '; q++)
		*q = '9';
	ck_assert_int_eq(trim_work_merge(c.wk, bad, NULL), TRIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "(second figure"));
	ck_assert_int_eq(trim_work_status(c.wk, 0), 0);
	ck_assert_int_eq(trim_work_merge(c.wk, ra, NULL), 0);
	ck_assert_int_eq(trim_work_status(c.wk, 0), 1);
	free(bad);
	steardown(&c);
	xfx e;
	xsetup(&e, TRIM_GOAL_ENERGY, NULL);
	ck_assert(trim_work_explore(&e.wk, e.ex) == 0);
	ck_assert_int_eq(trim_work_next(e.wk, &id, &tb), TRIM_EINVAL);
	ck_assert_ptr_null(tb);
	ck_assert_int_eq(trim_work_merge(e.wk, ra, NULL), TRIM_EINVAL); /* a node's result in an exploration */
	xteardown(&e);
	trim_string_free(ta);
	trim_string_free(tb);
	trim_string_free(ra);
	steardown(&a);
	steardown(&b);
}
END_TEST

/* A search without a tree (two storage levels: fewer than three slots): no
 * nodes to hand out, trim_work_finish runs it whole, as trim_search_run. */
START_TEST(test_search_nodes_no_tree)
{
	static const char flat[] = "schema_version: 1\nname: flat\nclock_mhz: 100\ntechnology: 65nm\nword_bits: 16\n"
	                           "levels:\n"
	                           "  - {name: DRAM, type: storage, class: dram, technology: ddr3, read_bw: 2, write_bw: 2}\n"
	                           "  - {name: RF, type: storage, class: regfile, capacity: 1 KB}\n"
	                           "  - {name: MAC, type: compute, datatype: int16, zero_gate: true}\n";
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_search *ref = NULL, *s = NULL;
	trim_work *wk = NULL;
	ck_assert(trim_network_load(&net, NET) == 0);
	ck_assert(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert_msg(trim_arch_load_string(&a, flat, "flat") == 0, "%s", trim_last_error());
	ck_assert(trim_search_create(&ref, w, 0, a, NULL) == 0 && trim_search_create(&s, w, 0, a, NULL) == 0);
	ck_assert(trim_search_run(ref) == 0);
	char *want = sreport(ref);
	ck_assert(trim_work_search(&wk, s) == 0);
	ck_assert_uint_eq(trim_work_count(wk), 0);
	int64_t id = 5;
	char *t = NULL;
	ck_assert_int_eq(trim_work_next(wk, &id, &t), 2);
	ck_assert(id == -1 && t == NULL);
	ck_assert_int_eq(trim_search_exact(s), -1); /* not run yet */
	ck_assert_msg(trim_work_finish(wk) == 0, "%s", trim_last_error());
	char *got = sreport(s);
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(trim_work_finish(wk), 0); /* again: nothing changes */
	free(got);
	free(want);
	trim_work_free(wk);
	trim_search_free(s);
	trim_search_free(ref);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

Suite *work_search_suite(void)
{
	Suite *s = suite_create("work_search");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_search_nodes_any_order);
	tcase_add_test(tc, test_search_nodes_refused);
	tcase_add_test(tc, test_search_nodes_no_tree);
	suite_add_tcase(s, tc);
	return s;
}
