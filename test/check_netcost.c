/* Inter-layer workloads on an architecture: where cached activations live,
 * what the mapper must leave free, and the cost of preprocessing and caching. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "energy/energy_int.h"
#include "eval/netcost_int.h"
#include "trim.h"

/* The caching example of check_workload.c on 8x8 inputs: 32-bit words, cached
 * entries input 256 B [0, 7], a 512 B [0, 7], b 512 B [1, 6], f 512 B [1, 4]. */
static const char *NET =
	"network: {name: c, input: [8, 8, 1], batch: 1, mode: training, word_bits: 32}\n"
	"layers:\n"
	"  - {name: a, type: conv2d, filters: 2, kernel: 3, padding: same, activation: relu}\n"
	"  - {name: b, type: conv2d, filters: 2, kernel: 3, padding: same, activation: relu}\n"
	"  - {name: f, type: flatten}\n"
	"  - {name: c, type: dense, units: 3}\n";

static const char *ARCH =
	"schema_version: 1\nname: n\nclock_mhz: 100\ntechnology: 65nm\nword_bits: 32\nlevels:\n"
	"  - {name: DRAM, type: storage, class: dram, technology: ddr3, read_bw: 2, write_bw: 1}\n"
	"  - {name: GLB, type: storage, class: sram, capacity: 1 KB, read_bw: 4, write_bw: 2}\n"
	"  - {name: NoC, type: spatial, fanout: [2, 2], network: bus}\n"
	"  - {name: RF, type: storage, class: regfile, capacity: 1 KB}\n"
	"  - {name: MAC, type: compute, datatype: fp32}\n";

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_arch *a;
	trim_energy *t;
	trim__level_cost costs[TRIM__MAX_LEVELS];
} fx;

static void setup(fx *s)
{
	memset(s, 0, sizeof *s);
	ck_assert(trim_network_load_string(&s->net, NET, "c.yaml") == 0);
	ck_assert(trim_workloads_create(&s->w, s->net, TRIM_MODE_DEFAULT, 0, 0) == 0);
	ck_assert_msg(trim_arch_load_string(&s->a, ARCH, "n.yaml") == 0, "%s", trim_last_error());
	ck_assert(trim_energy_load_for_arch(&s->t, s->a) == 0);
	ck_assert(trim__arch_costs(s->a, s->t, s->costs) == 0);
}

static void teardown(fx *s)
{
	trim_energy_free(s->t);
	trim_arch_free(s->a);
	trim_workloads_free(s->w);
	trim_network_free(s->net);
}

static int onchip_of(const fx *s, const trim__cache_plan *p, const char *layer)
{
	for (size_t j = 0; j < trim_workloads_inter_count(s->w); j++)
		if (trim_workloads_inter_op(s->w, j) == TRIM_INTER_CACHE &&
		    !strcmp(trim_workloads_inter_layer(s->w, j), layer))
			return p->onchip[j];
	ck_abort_msg("no cache entry for %s", layer);
	return -1;
}

START_TEST(test_cache_plan_greedy)
{
	fx s;
	setup(&s);
	trim__cache_plan p;
	/* budget 1 KB: input (256) and a (512) fit for their whole lifetimes; b and f
	 * would exceed it while they are live */
	ck_assert(trim__cache_plan_make(&p, s.w, s.a, 1.0) == 0);
	ck_assert_int_eq(p.glb, 1);
	ck_assert_int_eq(onchip_of(&s, &p, "input"), 1);
	ck_assert_int_eq(onchip_of(&s, &p, "a"), 1);
	ck_assert_int_eq(onchip_of(&s, &p, "b"), 0);
	ck_assert_int_eq(onchip_of(&s, &p, "f"), 0);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(p.reserved[i], 768);
	trim__cache_plan_free(&p);
	/* half the buffer: only the input */
	ck_assert(trim__cache_plan_make(&p, s.w, s.a, 0.5) == 0);
	ck_assert_int_eq(onchip_of(&s, &p, "input"), 1);
	ck_assert_int_eq(onchip_of(&s, &p, "a"), 0);
	ck_assert_int_eq(p.reserved[3], 256);
	trim__cache_plan_free(&p);
	ck_assert_int_eq(trim__cache_plan_make(&p, s.w, s.a, 1.5), TRIM_ERANGE);
	teardown(&s);
}
END_TEST

START_TEST(test_inter_costs)
{
	fx s;
	setup(&s);
	trim__cache_plan p;
	ck_assert(trim__cache_plan_make(&p, s.w, s.a, 1.0) == 0);
	double cyc[8] = {10, 10, 10, 10, 10, 10, 10, 10};
	int seen_pad = 0, seen_cache = 0;
	for (size_t j = 0; j < trim_workloads_inter_count(s.w); j++) {
		trim__inter_cost c, c2;
		ck_assert(trim__inter_cost_eval(s.w, j, s.a, s.costs, &p, cyc, &c) == 0);
		int op = trim_workloads_inter_op(s.w, j);
		if (op == TRIM_INTER_PAD && !seen_pad++) {
			/* a's padding: 1x1x8x8 -> 1x1x10x10: read 64 at 4/cycle, write 100 at 2/cycle */
			ck_assert_double_eq_tol(c.cycles, 50.0, 1e-12);
			ck_assert_double_eq_tol(c.energy_pj, 64 * s.costs[1].read_pj + 100 * s.costs[1].write_pj, 1e-9);
		}
		if (op == TRIM_INTER_CACHE && !strcmp(trim_workloads_inter_layer(s.w, j), "input")) {
			/* on chip: written and read once, leaks 256 B / 1 KB of the buffer for 8 x 10 cycles */
			seen_cache = 1;
			ck_assert_double_eq(c.cycles, 0);
			ck_assert_double_eq_tol(c.static_pj, s.costs[1].leak_pj_per_cycle * 0.25 * 80, 1e-9);
			double longer[8] = {20, 20, 20, 20, 20, 20, 20, 20};
			ck_assert(trim__inter_cost_eval(s.w, j, s.a, s.costs, &p, longer, &c2) == 0);
			ck_assert_double_eq_tol(c2.static_pj, 2 * c.static_pj, 1e-9);
		}
		if (op == TRIM_INTER_CACHE && !strcmp(trim_workloads_inter_layer(s.w, j), "b")) {
			/* off chip: DRAM write + read, no leakage charged to the buffer */
			ck_assert_int_eq(c.level, 0);
			ck_assert_double_eq(c.static_pj, 0);
			ck_assert_double_eq_tol(c.energy_pj, 128 * (s.costs[0].write_pj + s.costs[0].read_pj), 1e-9);
		}
	}
	ck_assert(seen_pad && seen_cache);
	trim__cache_plan_free(&p);
	teardown(&s);
}
END_TEST

Suite *netcost_suite(void)
{
	Suite *s = suite_create("netcost");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_cache_plan_greedy);
	tcase_add_test(tc, test_inter_costs);
	suite_add_tcase(s, tc);
	return s;
}
