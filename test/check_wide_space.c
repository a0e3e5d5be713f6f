/*
 * Mapspaces whose factorisation combinations pass 2^64 (issue #32): UNet's
 * down0.conv2 FW at training batch 64 on simba-like has about 2^65
 * combinations of ordered factorisations (2^108 raw mappings). The
 * combination number (lib/search/index.c) is a trim__index like the mapping
 * index: decode and encode agree past 2^64, the search runs and its result
 * is the same at 1, 2 and 3 threads; a space of 2^128 raw mappings or more
 * is still refused, with a message that says what shrinks it.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/mapspace_int.h"
#include "search/search_int.h"
#include "tcase_util.h"
#include "trim.h"

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_arch *a;
	const trim__intra *x;
} unet_layer;

static void unet_layer_load(unet_layer *u, int mode, int batch, const char *layer)
{
	size_t i = 0;
	memset(u, 0, sizeof *u);
	ck_assert_int_eq(trim_network_load(&u->net, "models/networks/unet.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&u->w, u->net, mode, batch, 0), 0);
	ck_assert_int_eq(trim_workloads_find(u->w, layer, TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&u->a, "models/arch/simba-like.yaml"), 0);
	u->x = trim__workloads_intra(u->w, i);
}

static void unet_load(unet_layer *u)
{
	unet_layer_load(u, TRIM_MODE_TRAINING, 64, "down0.conv2");
}

static void unet_free(unet_layer *u)
{
	trim_arch_free(u->a);
	trim_workloads_free(u->w);
	trim_network_free(u->net);
}

/* The index of the mapping with factorisation combination fc, keep bits
 * and order codes 0, by the definition (mapspace_int.h). */
static trim__index index_of_combination(const trim__mapspace *s, trim__index fc)
{
	trim__index i = fc << s->nbyp;
	for (int k = 0; k < s->nord; k++)
		i *= (trim__index)s->nperm;
	return i;
}

START_TEST(test_combinations_past_64_bits)
{
	unet_layer u;
	unet_load(&u);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, u.x, u.a), 0);
	char buf[48];
	/* 1716^3 x 11440^2 x 8^2 combinations, 2^6 keep choices, (7!)^3 orders
	 * (by hand from the rows' counts; Python's integers give the products) */
	ck_assert_int_eq(s.nf[0], 1716);
	ck_assert_int_eq(s.nf[4], 11440);
	ck_assert_int_eq(s.nbyp, 6);
	ck_assert_int_eq(s.nord, 3);
	ck_assert_str_eq(trim__index_str(s.nfact, buf), "42323723982235238400");
	ck_assert(s.nfact > (trim__index)UINT64_MAX);
	ck_assert_str_eq(trim__index_str(s.size, buf), "346781129460481217534518886400000");
	/* combinations past 2^64: the mixed-radix digits, then decode and
	 * encode back; the combination numbers of the search (all rows
	 * allowed: combination = factorisation) */
	const trim__index probe[] = {0, (trim__index)UINT64_MAX, (trim__index)UINT64_MAX + 12345, s.nfact / 3,
	                             s.nfact - 1};
	for (size_t k = 0; k < sizeof probe / sizeof *probe; k++) {
		ck_assert(trim__combination_factorisation(&s, probe[k]) == probe[k]);
		trim__mapping m, d;
		trim__space_mapping_init(&s, &m);
		trim__set_factors(&s, probe[k], &m);
		trim__index rest = probe[k];
		for (int dim = TRIM_NDIMS - 1; dim >= 0; dim--) {
			const int64_t row = (int64_t)(rest % (trim__index)s.nf[dim]);
			rest /= (trim__index)s.nf[dim];
			for (int i = 0; i < s.nslots; i++)
				ck_assert_int_eq(m.f[s.slot[i]][dim], s.fact[dim][row * s.nslots + i]);
		}
		const trim__index idx = index_of_combination(&s, probe[k]);
		ck_assert_int_eq(trim__mapspace_decode(&s, idx, &d), 0);
		for (int i = 0; i < s.nslots; i++)
			for (int dim = 0; dim < TRIM_NDIMS; dim++)
				ck_assert_int_eq(d.f[s.slot[i]][dim], m.f[s.slot[i]][dim]);
		const trim__index other[] = {idx, idx + s.size / s.nfact - 1};
		for (int j = 0; j < 2; j++) {
			trim__index back = 0;
			ck_assert_int_eq(trim__mapspace_decode(&s, other[j], &d), 0);
			ck_assert_int_eq(trim__mapspace_encode(&s, &d, &back), 0);
			ck_assert_msg(back == other[j], "index %s does not encode back", trim__index_str(other[j], buf));
		}
	}
	trim__mapspace_free(&s);
	unet_free(&u);
}
END_TEST

/* The search over it, stopped at a chosen check (the same on every
 * machine): a real mapping that fits, the same best index, cost and lower
 * bound at 1, 2 and 3 threads, its index encoding its mapping. */
START_TEST(test_search_past_64_bits)
{
	unet_layer u;
	unet_load(&u);
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(u.a, c);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, u.x, u.a), 0);
	s.stop_after = 200;
	char first[48] = "";
	double cost = 0, lb = 0;
	for (int threads = 1; threads <= 3; threads++) {
		trim__search_result r;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, threads, &r), 0);
		ck_assert(r.found && r.stopped && !r.exact);
		ck_assert(r.lower_bound > 0 && r.lower_bound <= r.best_cost);
		ck_assert_int_eq(trim__mapping_check_reserved(&r.best, u.x, u.a, s.reserved), 0);
		trim__index back = 0;
		ck_assert_int_eq(trim__mapspace_encode(&s, &r.best, &back), 0);
		ck_assert(back == r.best_index);
		char buf[48];
		trim__index_str(r.best_index, buf);
		if (threads == 1) {
			memcpy(first, buf, sizeof buf);
			cost = r.best_cost;
			lb = r.lower_bound;
		}
		ck_assert_str_eq(buf, first);
		ck_assert_msg(r.best_cost == cost && r.lower_bound == lb, "%d threads: %.17g / %.17g, 1 thread %.17g / %.17g",
		              threads, r.best_cost, r.lower_bound, cost, lb);
		trim__search_result_free(&r);
	}
	trim__mapspace_free(&s);
	unet_free(&u);
}
END_TEST

/* A distinct count past 2^64 (UNet's down2.conv1 FW at batch 1 on
 * simba-like) still gets the tree, without the count of what it cuts: the
 * search had run the plain loop over the leaves, whose only bound is the
 * root's (a gap of 55.9% after 10 s, its best 5.97e10 pJ; 3.1% and
 * 4.23e10 pJ with the tree). Stopped at a chosen check, after the top
 * nodes are bounded: the bound well above the root's (1.6 times). */
START_TEST(test_tree_past_64_bits)
{
	unet_layer u;
	unet_layer_load(&u, TRIM_MODE_DEFAULT, 1, "down2.conv1");
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(u.a, c);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, u.x, u.a), 0);
	uint64_t distinct = 0;
	ck_assert_int_eq(trim__mapspace_distinct(&s, &distinct), TRIM_ERANGE);
	int64_t zero_macs = 0;
	ck_assert_int_eq(trim__intra_act_zero_macs(u.x, &zero_macs), 0);
	stationary_workspace *sw = trim__stationary_workspace_new();
	ck_assert_ptr_nonnull(sw);
	trim__mapping root;
	trim__eval ev;
	double root_lb = 0;
	trim__space_mapping_init(&s, &root);
	trim__mapspace_node_lb(&s, c, TRIM__GOAL_ENERGY, 0, zero_macs, &root, &ev, &root_lb, sw);
	trim__stationary_workspace_free(sw);
	s.stop_after = 100000;
	trim__search_result r;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 2, &r), 0);
	ck_assert(r.found && r.stopped && !r.exact);
	ck_assert_int_eq(trim__mapping_check_reserved(&r.best, u.x, u.a, s.reserved), 0);

	ck_assert_msg(r.lower_bound >= 1.1 * root_lb && r.lower_bound <= r.best_cost, "bound %.17g, root's %.17g, best %.17g",
	              r.lower_bound, root_lb, r.best_cost);
	trim__search_result_free(&r);
	trim__mapspace_free(&s);
	unet_free(&u);
}
END_TEST

/* The whole network through the CLI (it refused with "more than 2^128 raw
 * mappings" before), and a space of 2^128 raw mappings or more still
 * refused: 1024^5 x 16^2 over simba-like's eight slots. */
START_TEST(test_refusal_beyond_128_bits)
{
	int st = 0;
	char *out = tu_capture("network models/networks/unet.yaml models/arch/simba-like.yaml --mode training "
	                       "--batch 64 --threads 1 --time-limit 0.01 --quiet",
	                       1, &st);
	ck_assert_msg(st == 0, "%s", out);
	ck_assert_msg(strstr(out, "down0.conv2") && !strstr(out, "2^128"), "%s", out);
	free(out);
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/simba-like.yaml"), 0);
	trim__intra x;
	ck_assert_int_eq(tu_layer(&x, TU_CONV, TRIM_PHASE_FW, 1024, 1024, 1024, 1, 1039, 1039, 16, 16, 1, 1, 0), 0);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, &x, a), TRIM_ERANGE);
	ck_assert_msg(strstr(trim_last_error(), "2^128") && strstr(trim_last_error(), "--factor"), "%s",
	              trim_last_error());
	trim_arch_free(a);
}
END_TEST

Suite *wide_space_suite(void)
{
	Suite *s = suite_create("wide_space");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_combinations_past_64_bits);
	tcase_add_test(tc, test_search_past_64_bits);
	tcase_add_test(tc, test_tree_past_64_bits);
	tcase_add_test(tc, test_refusal_beyond_128_bits);
	suite_add_tcase(s, tc);
	return s;
}
