/*
 * Searches stopped anywhere (time limits, stop points, before the set-up
 * ends): the bound left stays below the optimum; the cut rule itself.
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

/* A search stopped anywhere (time limits from the set-up to the end of
 * the tree, on AlexNet conv2 on Eyeriss, 0.5 s exact): the bound left for
 * what it did not explore (a node's own bound for its children not yet
 * bounded, the root's for the top nodes) is never above the optimum, and
 * the mapping it returns is real and valid. */
START_TEST(test_stop_anywhere)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv2", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	const trim__intra *x = trim__workloads_intra(w, i);
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(a, c);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, x, a), 0);
	trim__search_result r;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 2, &r), 0);
	ck_assert(r.found && r.exact);
	const double opt = r.best_cost;
	trim__search_result_free(&r);
	int stopped = 0;
	for (double lim = 0.002; lim < 0.5; lim *= 1.6) {
		s.time_limit = lim;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
		ck_assert(r.found);
		ck_assert_msg(r.lower_bound <= opt && r.best_cost >= opt, "limit %g: bound %.17g, best %.17g, optimum %.17g",
		              lim, r.lower_bound, r.best_cost, opt);
		ck_assert_int_eq(trim__mapping_check_reserved(&r.best, x, a, s.reserved), 0);
		stopped += r.stopped;
		trim__search_result_free(&r);
	}
	ck_assert_int_ge(stopped, 3);
	s.time_limit = 0;
	/* stops at chosen checks (the same on every machine), where the seed is
	 * not yet the optimum: a stop among a node's children must leave their
	 * bounds open, else the bound reported is above the optimum */
	int below_best = 0;
	for (uint64_t at = 1; at < (1u << 9); at += 1 + at / 2) {
		s.stop_after = at;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
		s.stop_after = 0;
		ck_assert(r.found);
		ck_assert_msg(r.lower_bound <= opt && r.best_cost >= opt, "check %llu: bound %.17g, best %.17g, optimum %.17g",
		              (unsigned long long)at, r.lower_bound, r.best_cost, opt);
		below_best += r.stopped && r.best_cost > opt;
		trim__search_result_free(&r);
	}
	ck_assert_int_gt(below_best, 0); /* some stops came before the optimum was found */
	trim__mapspace_free(&s);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* A stopped search searched again (a network's retry): its first pass
 * says which top nodes it searched whole (keep_done), and the second,
 * seeded with the first's best (the hint), drops them (skip_top) and still
 * ends exact at the optimum that a search from scratch finds (AlexNet-Cifar
 * conv1 on Eyeriss: index and cost). Two first passes stop before the
 * optimum is found; the second stops inside the node that holds it (at
 * 48,500 checks; marked, that node lost the optimum to a tie of another
 * index): a node the clock stopped in must not be marked. The third has
 * found it: its node, skipped, must still give the hint as the answer.
 * Another space's marks (their digest differs) or a hint that is not in
 * the seeds skip nothing. */
START_TEST(test_retry_skips_done)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet-cifar.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv1", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(a, c);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, trim__workloads_intra(w, i), a), 0);
	trim__search_result r, r2;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
	ck_assert(r.found && r.exact && !r.top_done && r.top_skipped == 0);
	const double opt = r.best_cost;
	const trim__index opt_idx = r.best_index;
	trim__search_result_free(&r);
	int marked = 0, worse_first = 0;
	static const uint64_t stops[] = {10000, 48500, 60000};
	for (size_t si = 0; si < sizeof stops / sizeof stops[0]; si++) {
		const uint64_t at = stops[si];
		s.keep_done = 1;
		s.stop_after = at;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
		s.keep_done = 0;
		ck_assert(r.found && r.stopped && r.top_done);
		int64_t ndone = 0;
		for (int64_t k = 0; k < r.top_done_n; k++)
			ndone += r.top_done[k];
		marked += ndone > 0;
		worse_first += r.best_cost > opt;
		s.hint_on = 1;
		s.hint_index = r.best_index;
		s.hint_cost = r.best_cost;
		s.skip_top = r.top_done;
		s.skip_ntop = r.top_done_n;
		/* another space's marks (digest), a hint not in the seeds: none
		 * skipped (the search stopped early: the skip is decided first) */
		memcpy(s.skip_digest, r.top_digest, sizeof s.skip_digest);
		s.skip_digest[0] ^= 1;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r2), 0);
		ck_assert(r2.stopped && r2.top_skipped == 0);
		trim__search_result_free(&r2);
		s.skip_digest[0] ^= 1;
		s.hint_cost = r.best_cost * 2;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r2), 0);
		ck_assert(r2.stopped && r2.top_skipped == 0);
		trim__search_result_free(&r2);
		s.hint_cost = r.best_cost;
		s.stop_after = 0;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r2), 0);
		ck_assert_msg(r2.found && r2.exact && r2.best_cost == opt && r2.best_index == opt_idx,
		              "stop %llu: %.17g (exact %d) against the optimum %.17g", (unsigned long long)at, r2.best_cost,
		              r2.exact, opt);
		ck_assert_int_eq(r2.top_skipped, ndone);
		ck_assert(!r2.top_done); /* keep_done off */
		trim__search_result_free(&r2);
		s.hint_on = 0;
		s.skip_top = NULL;
		trim__search_result_free(&r);
	}
	ck_assert_int_eq(marked, 3);
	ck_assert_int_eq(worse_first, 2); /* the first two stopped before the optimum, the third with it */
	trim__mapspace_free(&s);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* The top nodes of a large ragged layer (UNet up2.conv1 with imperfect
 * factors on Eyeriss: millions) are made only while the time lasts: with
 * the worker stopped, trim__tree_children returns -3 and allocates
 * nothing; without a stopper, every combination of the dims' values. */
START_TEST(test_top_nodes_stop)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/unet.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "up2.conv1", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, trim__workloads_intra(w, i), a), 0);
	ck_assert_int_eq(trim__mapspace_set_imperfect(&s, 1), 0);
	int64_t *trows[TRIM_NDIMS];
	int32_t lo[TRIM_NDIMS], hi[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++) {
		ck_assert_ptr_nonnull(trows[d] = trim__tree_rows(&s, d));
		lo[d] = 0;
		hi[d] = (int32_t)s.nrows[d];
	}
	tree_child *c = NULL;
	int nv[TRIM_NDIMS];
	const int64_t n = trim__tree_children(&s, trows, 0, lo, hi, &c, nv, NULL);
	int64_t prod = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		prod *= nv[d];
	ck_assert_int_eq(n, prod);
	ck_assert_int_gt(n, 1 << 20);
	ck_assert_uint_eq(c[n - 1].ord, (uint64_t)(n - 1));
	free(c);
	search_worker *W = calloc(1, sizeof *W); /* large: not on the stack */
	ck_assert_ptr_nonnull(W);
	W->stopped = 1;
	c = NULL;
	ck_assert_int_eq(trim__tree_children(&s, trows, 0, lo, hi, &c, nv, W), -3);
	ck_assert_ptr_null(c);
	W->stopped = 0; /* not stopped: the same children */
	ck_assert_int_eq(trim__tree_children(&s, trows, 0, lo, hi, &c, nv, W), n);
	free(c);
	free(W);
	for (int d = 0; d < TRIM_NDIMS; d++)
		free(trows[d]);
	trim__mapspace_free(&s);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* The cut rule itself (docs/model.md, *Exact ties*): a node whose bound
 * equals the threshold is not cut (it may hold a mapping of that very cost
 * and a smaller index, which exact ties rank first); above it, it is; with a
 * gap, a node cut only because of the gap is remembered as open (its bound
 * bounds what it holds), one above the threshold itself is not. */
START_TEST(test_cut_rule)
{
	search_worker *W = calloc(1, sizeof *W);
	ck_assert_ptr_nonnull(W);
	W->cut_scale = 1;
	W->open_lb = HUGE_VAL;
	ck_assert_int_eq(trim__cut(W, 5.0, 5.0), 0);
	ck_assert_int_eq(trim__cut(W, nextafter(5.0, 0), 5.0), 0);
	ck_assert_int_eq(trim__cut(W, nextafter(5.0, 10), 5.0), 1);
	ck_assert(W->open_lb == HUGE_VAL); /* exact: a cut leaves nothing open */
	W->cut_scale = 0.9; /* gap 0.1: the threshold passed is 0.9 x the best, 4.5 */
	ck_assert_int_eq(trim__cut(W, 4.8, 4.5), 1);
	ck_assert(W->open_lb == 4.8); /* 4.8 x 0.9 <= 4.5: cut for the gap alone */
	ck_assert_int_eq(trim__cut(W, 6.0, 4.5), 1);
	ck_assert(W->open_lb == 4.8); /* 6.0 x 0.9 > 4.5: cut on its own */
	free(W);
	/* the exact tie rule on (cost, second figure, index): bounds (5, 3)
	 * lose to a mapping (5, 2) whatever their indices, tie with (5, 3)
	 * and lose only when their indices are above its, and may win against
	 * (5, 4) or anything dearer than 5 */
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, 5.0, 2.0, 0), 1);
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, 5.0, 3.0, 1), 1);
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, 5.0, 3.0, 0), 0);
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, 5.0, 4.0, 1), 0);
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, nextafter(5.0, 10), 0.0, 1), 0);
	ck_assert_int_eq(trim__tie_loses(nextafter(5.0, 10), 9.0, 5.0, 0.0, 0), 1);
	/* a top list ranks on the same order, whatever the insertion order */
	top_list t;
	ck_assert_int_eq(trim__top_init(&t, 3, 0), 0);
	trim__top_put(&t, 5.0, 4.0, 1, NULL);
	trim__top_put(&t, 5.0, 3.0, 9, NULL);
	trim__top_put(&t, 6.0, 0.0, 0, NULL);
	trim__top_put(&t, 5.0, 3.0, 7, NULL);
	ck_assert_uint_eq(t.n, 3);
	ck_assert(t.idx[0] == 7 && t.idx[1] == 9 && t.idx[2] == 1);
	ck_assert_int_eq(trim__top_first(&t, 5.0, 3.0, 6), 1);
	ck_assert_int_eq(trim__top_first(&t, 5.0, 3.0, 8), 0);
	trim__top_free(&t);
}
END_TEST

/* A search told to stop before it starts (a network's time limit spent by
 * the searches before it) does no more than its set-up needs: the seed's
 * sample stops once it holds a factorisation, the top nodes are left
 * unbounded and the root's bound stands for them (the proven lower bound is
 * exactly the root's: on AlexNet conv2 on Eyeriss the top nodes' bounds are
 * well above it), and the mapping it returns is real and valid. */
START_TEST(test_stop_during_setup)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv2", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	const trim__intra *x = trim__workloads_intra(w, i);
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(a, c);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, x, a), 0);
	int64_t zero_macs = 0;
	ck_assert_int_eq(trim__intra_act_zero_macs(x, &zero_macs), 0);
	trim__mapping root;
	trim__eval ev;
	double root_lb = 0;
	trim__space_mapping_init(&s, &root);
	stationary_workspace *sw = trim__stationary_workspace_new();
	ck_assert_ptr_nonnull(sw);
	trim__mapspace_node_lb(&s, c, TRIM__GOAL_ENERGY, 0, zero_macs, &root, &ev, &root_lb, sw);
	trim__stationary_workspace_free(sw);
	const int stop = 1;
	s.stop = &stop;
	for (int threads = 1; threads <= 2; threads++) {
		trim__search_result r;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, threads, &r), 0);
		ck_assert(r.found && r.stopped && !r.exact);
		ck_assert_msg(r.lower_bound == root_lb, "%d threads: lower bound %.17g, the root's %.17g", threads,
		              r.lower_bound, root_lb);
		ck_assert(r.best_cost >= r.lower_bound);
		ck_assert_int_eq(trim__mapping_check_reserved(&r.best, x, a, s.reserved), 0);
		trim__search_result_free(&r);
	}
	trim__mapspace_free(&s);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

Suite *search_stop_suite(void)
{
	Suite *s = suite_create("search_stop");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(tc, test_stop_during_setup);
	tcase_add_test(tc, test_stop_anywhere);
	tcase_add_test(tc, test_top_nodes_stop);
	tcase_add_test(tc, test_retry_skips_done);
	tcase_add_test(tc, test_cut_rule);
	suite_add_tcase(s, tc);
	return s;
}
