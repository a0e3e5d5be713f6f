/*
 * `trim map` end to end: the same bytes at 1 and 2 threads, an index past
 * 2^64 through the CLI and the C API, the register
 * utilisation rule on a partitioned register file, and why a search found
 * nothing.
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

/* `trim map` on a tiny network: the same bytes for 1 and 2 threads, the
 * counts, the refusal of a huge mapspace. */
static char *capture(const char *args, int *status)
{
	return tu_capture(args, 0, status);
}

#define TINY "map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv1 --format json "

START_TEST(test_map_cli)
{
	int st;
	char *one = capture(TINY "--goal edp --threads 1", &st);
	ck_assert_msg(st == 0, "%s", one);
	char *two = capture(TINY "--goal edp --threads 2", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strcmp(one, two) == 0, "1 and 2 threads differ");
	/* every distinct mapping generated; the bounds skip most of them (the
	 * exact split depends on the bounds, tested against brute force in
	 * check_search's core cases) */
	ck_assert_ptr_nonnull(strstr(one, "\"generated\": 21192"));
	ck_assert_ptr_nonnull(strstr(one, "\"best\": {\"cycles\""));
	ck_assert_ptr_nonnull(strstr(one, "\"index\": 1036314"));
	ck_assert_ptr_nonnull(strstr(one, "\"mapspace\": {\"distinct\": 21192, \"raw\": 4199040}"));
	ck_assert_ptr_nonnull(strstr(one, "\"pe_utilization\": "));
	ck_assert_ptr_nonnull(strstr(one, "\"mapping\": \"schema_version: 1"));
	free(one);
	free(two);
	char *big = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	                    "--max-mappings 1000000", &st);
	ck_assert_int_eq(st, 2);
	free(big);
	big = capture("map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv9", &st);
	ck_assert_int_eq(st, 2);
	free(big);
	/* a distinct count beyond 64 bits is no reason to refuse the search
	 * (AlexNet conv2 at batch 64 on simba-like), only a --max-mappings */
	big = tu_capture("map models/networks/alexnet.yaml models/arch/simba-like.yaml --batch 64 --layer conv2 "
	                 "--time-limit 0.2 --threads 1", 1, &st);
	ck_assert_msg(st == 0, "%s", big);
	ck_assert_ptr_nonnull(strstr(big, "more than 2^64 distinct"));
	ck_assert_ptr_nonnull(strstr(big, "best: index"));
	/* a raw count beyond 2^53 is not printed with made-up low digits */
	ck_assert_msg(strstr(big, "mapspace of about ") != NULL, "%s", big);
	free(big);
	big = tu_capture("map models/networks/alexnet.yaml models/arch/simba-like.yaml --batch 64 --layer conv2 "
	                 "--max-mappings 1000000000", 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_ptr_nonnull(strstr(big, "refused"));
	free(big);
	/* (UNet training at batch 64 on simba-like, refused for its size
	 * before: test/check_wide_space.c) */
	/* custom factors shrink the space: conv1 of AlexNet-CIFAR on Eyeriss with
	 * the PE array and RF factors fixed (row-stationary-like) is searchable */
	char *pinned = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	                       "--format json --threads 2 --factor 'PE array:E=8' --factor 'PE array:R=3' "
	                       "--factor 'PE array:M=4' --factor 'PE array:C=1' --factor 'PE array:F=1' "
	                       "--factor 'PE array:S=1' --factor RF:S=3 --factor RF:M=4 --factor RF:C=1 "
	                       "--factor RF:E=1 --factor RF:F=1 --factor RF:R=1", &st);
	ck_assert_msg(st == 0, "%s", pinned);
	ck_assert_ptr_nonnull(strstr(pinned, "\"mapspace\": {\"distinct\": 38623"));
	ck_assert_ptr_nonnull(strstr(pinned, "\"active_pes\": 96"));
	free(pinned);
	big = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	              "--factor 'PE array:E=5'", &st);
	ck_assert_int_eq(st, 2);
	free(big);
	big = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	              "--factor 'PE array:X=5'", &st);
	ck_assert_int_eq(st, 2);
	free(big);
}
END_TEST

/* Batch 64: the raw mapspace of AlexNet-CIFAR conv2 on Eyeriss has more
 * than 2^64 mappings; the index is wider (128 bits), decodes and encodes
 * back, and reaches the CLI and the C API in decimal. */
START_TEST(test_wide_index)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet-cifar.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 64, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv2", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, trim__workloads_intra(w, i), a), 0);
	char buf[48];
	ck_assert_str_eq(trim__index_str(s.size, buf), "24667144071413760000");
	ck_assert(s.size > (trim__index)UINT64_MAX);
	const trim__index probe[] = {0, (trim__index)UINT64_MAX, (trim__index)UINT64_MAX + 12345, s.size / 3,
	                             s.size - 1};
	for (size_t k = 0; k < sizeof probe / sizeof *probe; k++) {
		trim__mapping m;
		trim__index back = 0;
		ck_assert_int_eq(trim__mapspace_decode(&s, probe[k], &m), 0);
		ck_assert_int_eq(trim__mapspace_encode(&s, &m, &back), 0);
		ck_assert_msg(back == probe[k], "index %s does not encode back", trim__index_str(probe[k], buf));
	}
	trim__mapping m;
	ck_assert_int_eq(trim__mapspace_decode(&s, s.size, &m), TRIM_ERANGE);
	trim__mapspace_free(&s);
	/* the search (Timeloop's Eyeriss constraints keep it short) */
	trim_search *se = NULL;
	trim_constraints *c = NULL;
	ck_assert_int_eq(trim_constraints_load(&c, "models/constraints/timeloop-eyeriss-rs.yaml"), 0);
	ck_assert_int_eq(trim_search_create(&se, w, i, a, NULL), 0);
	ck_assert_int_eq(trim_search_set_constraints(se, c), 0);
	ck_assert_int_eq(trim_search_set_int(se, TRIM_SEARCH_THREADS, 2), 0);
	ck_assert_int_eq(trim_search_run(se), 0);
	ck_assert_uint_eq(trim_search_best_index(se), UINT64_MAX); /* does not fit */
	ck_assert_int_eq(trim_search_index_str(se, 0, buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "18668166881672851944");
	double cost;
	uint64_t idx;
	ck_assert_int_eq(trim_search_top(se, 0, &cost, &idx), TRIM_ERANGE);
	ck_assert_int_eq(trim_search_index_str(se, 0, buf, 5), TRIM_ERANGE);
	trim_search_free(se);
	trim_constraints_free(c);
	int st;
	char *out = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --mode training --batch 64 "
	                    "--layer conv2 --format json --constraints models/constraints/timeloop-eyeriss-rs.yaml", &st);
	ck_assert_msg(st == 0, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\"index\": 18668166881672851944,"));
	ck_assert_ptr_nonnull(strstr(out, "\"raw\": 24667144071413760000}"));
	free(out);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* TRIM's register-utilisation rule on a partitioned register file counts
 * the partitions the workload can fill: a pool (no weights) under Eyeriss's
 * row-stationary constraints keeps mappings at --min-rf-util 0.5 (before,
 * the weight partition counted and every mapping was pruned: no best). */
START_TEST(test_rf_util_partitions)
{
	int st = 0;
	char *out = capture("map models/networks/alexnet.yaml models/arch/eyeriss.yaml --layer pool1 --phase FW "
	                    "--constraints models/constraints/timeloop-eyeriss-rs.yaml --min-rf-util 0.5 --quiet "
	                    "--format json", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "\"best\": {\"cycles\""), "%s", out);
	ck_assert(!strstr(out, "\"best\": null"));
	free(out);
	/* the rule still prunes: fewer evaluated than without it */
	out = capture("map models/networks/alexnet.yaml models/arch/eyeriss.yaml --layer pool1 --phase FW "
	              "--constraints models/constraints/timeloop-eyeriss-rs.yaml --min-rf-util 0.5 --quiet --format json",
	              &st);
	ck_assert(strstr(out, "\"pruned\": ") && !strstr(out, "\"pruned\": 0,"));
	free(out);
}
END_TEST

/* When nothing is found, the search says why: the utilisation constraint
 * that prunes every mapping that fits, with the highest utilisation of the
 * space (equal to brute force's maximum over the valid mappings), and the
 * dataflow constraints whose removal alone lets a mapping fit. */
START_TEST(test_why_empty)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	/* FC (M = 2, C = 4) on three PEs (at most two busy) with a 5-byte RF
	 * (at most two 16-bit words used): both maxima are below 1 */
	tu_arch_init(&a, "why");
	tu_storage(&a, "DRAM", 0, 16);
	tu_spatial(&a, "NoC", 3, 1, 1, 1);
	tu_storage(&a, "RF", 5, 16);
	tu_compute(&a, "MAC");
	tu_arch_finish(&a);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 2, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	tu_costs(&a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	double maxpe = -1, maxrf = -1;
	for (uint64_t i = 0; i < s.size; i++) {
		trim__mapping m;
		ck_assert_int_eq(trim__mapspace_decode(&s, i, &m), 0);
		if (trim__mapping_check_reserved(&m, &w, &a, s.reserved))
			continue;
		double pe = trim__mapspace_pe_util(&s, &m), rf = trim__mapspace_rf_util(&s, &m);
		maxpe = pe > maxpe ? pe : maxpe;
		maxrf = rf > maxrf ? rf : maxrf;
	}
	ck_assert_msg(maxpe > 0 && maxpe < 1 && maxrf > 0 && maxrf < 1, "max PE %g RF %g", maxpe, maxrf);
	for (int which = 0; which < 2; which++) {
		s.min_pe_util = which == 0 ? maxpe + 1e-9 : 0;
		s.min_rf_util = which == 1 ? maxrf + 1e-9 : 0;
		for (int threads = 1; threads <= 2; threads++) {
			trim__search_result r;
			char *why = NULL;
			ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, threads, &r), 0);
			ck_assert_int_eq(r.found, 0);
			ck_assert_uint_gt(r.valid, 0);
			ck_assert_uint_eq(r.pruned, r.valid);
			if (s.min_pe_util > 0)
				ck_assert_double_eq(r.max_pe_util, maxpe);
			else
				ck_assert_double_eq(r.max_rf_util, maxrf);
			ck_assert_int_eq(trim__search_why_empty(&s, c, TRIM__GOAL_ENERGY, threads, NULL, NULL, &r, &why), 0);
			char want[64];
			snprintf(want, sizeof want, "the highest is %.4g", s.min_pe_util > 0 ? maxpe : maxrf);
			ck_assert_msg(why && strstr(why, want), "%s", why ? why : "(null)");
			ck_assert_ptr_nonnull(strstr(why, s.min_pe_util > 0 ? "PE utilization below" : "RF utilization below"));
			free(why);
			trim__search_result_free(&r);
		}
	}
	/* a found mapping: no reason */
	s.min_pe_util = s.min_rf_util = 0;
	trim__search_result r;
	char *why = (char *)1;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
	ck_assert_int_eq(r.found, 1);
	ck_assert_int_eq(trim__search_why_empty(&s, c, TRIM__GOAL_ENERGY, 1, NULL, NULL, &r, &why), 0);
	ck_assert_ptr_null(why);
	trim__search_result_free(&r);
	trim__mapspace_free(&s);

	/* the constraints: the two entries that together empty the space are
	 * named, the third (no effect on the fit) is not; table and JSON */
	int st = 0;
	char *out = capture("map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv1 --constraints "
	                    "test/data/search/empty-constraints.yaml --quiet --format json", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "\"best\": null") && strstr(out, "\"no_mapping\": \"no mapping of the constrained "
	                                                              "mapspace fits"), "%s", out);
	ck_assert_msg(strstr(out, "empty-constraints.yaml:7:5: mapspace_constraints[0]") &&
	              strstr(out, "empty-constraints.yaml:10:5: mapspace_constraints[1]") &&
	              !strstr(out, "mapspace_constraints[2]"), "%s", out);
	free(out);
	out = capture("map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv1 --constraints "
	              "test/data/search/empty-constraints.yaml --quiet", &st);
	ck_assert_msg(strstr(out, "no mapping fits: no mapping of the constrained mapspace"), "%s", out);
	free(out);
	/* a custom factor that empties the space alone is named */
	out = capture("map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv1 --factor RF:C=2 "
	              "--factor RF:M=2 --factor RF:R=2 --factor RF:S=2 --constraints test/data/search/keep-weights.yaml "
	              "--quiet", &st);
	ck_assert_msg(strstr(out, "no mapping fits: ") && strstr(out, "keep-weights.yaml:5:5") &&
	              strstr(out, "the custom factor RF:C=2") && strstr(out, "the custom factor RF:S=2"), "%s", out);
	free(out);
}
END_TEST

Suite *search_cli_suite(void)
{
	Suite *s = suite_create("search_cli");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(tc, test_map_cli);
	tcase_add_test(tc, test_wide_index);
	tcase_add_test(tc, test_rf_util_partitions);
	tcase_add_test(tc, test_why_empty);
	suite_add_tcase(s, tc);
	return s;
}
