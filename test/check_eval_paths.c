/*
 * Evaluator paths no other test covered (issue 13), each as a property
 * checked against the reference simulator's counts (test/refsim.c), not
 * against the evaluator's own: write bandwidth, the capacity use of a
 * double-buffered level, the bandwidth of a second spatial level.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "eval/eval_int.h"
#include "refsim.h"
#include "tcase_util.h"

/* DRAM -> NoC0 (x0 instances of GLB) -> GLB -> NoC 2x2 -> RF -> MAC, round costs. */
static void two_arrays(struct trim_arch *a, trim__level_cost *c, int64_t x0)
{
	tu_arch_init(a, "two-arrays");
	tu_storage(a, "DRAM", 0, 16);
	tu_spatial(a, "NoC0", x0, 1, 1, 1);
	trim__level *g = tu_storage(a, "GLB", 4096, 16);
	g->read_bw = 1e9; /* only the writes can be the bottleneck */
	g->write_bw = 1;
	tu_spatial(a, "NoC", 2, 2, 1, 1);
	tu_storage(a, "RF", 64, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	memset(c, 0, 6 * sizeof *c);
	for (int l = 0; l < 6; l++)
		c[l] = (trim__level_cost){.read_pj = 1, .write_pj = 1, .update_pj = 1, .hop_pj = 1, .mac_pj = 1};
}

enum { DRAM, NOC0, GLB, NOC, RF, MACL };

/* FC with C = 8 inputs and M = 8 outputs: M over the arrays, C split between
 * the GLB (inner, so the GLB takes partial-sum updates from below) and the RF. */
static void fc_mapping(const struct trim_arch *a, trim__intra *w, trim__mapping *m, int64_t x0)
{
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 8, 8, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	trim__mapping_init(m, a);
	m->f[NOC0][TRIM_DIM_M] = m->fx[NOC0][TRIM_DIM_M] = x0;
	m->f[DRAM][TRIM_DIM_M] = 2 / x0;
	m->f[GLB][TRIM_DIM_C] = 4;
	m->f[NOC][TRIM_DIM_M] = m->fx[NOC][TRIM_DIM_M] = 2;
	m->f[NOC][TRIM_DIM_M] *= 2;
	m->fy[NOC][TRIM_DIM_M] = 2;
	m->f[RF][TRIM_DIM_C] = 2;
	ck_assert_msg(trim__mapping_check(m, w, a) == 0, "%s", trim_last_error());
}

/* The write-bandwidth cycles of a storage level are (fills + partial-sum
 * updates) / (write_bw x active instances): both kinds of writes occupy the
 * write port. */
START_TEST(write_bandwidth_counts_updates_and_fills)
{
	for (int64_t x0 = 1; x0 <= 2; x0++) {
		struct trim_arch a;
		trim__level_cost c[6];
		trim__intra w;
		trim__mapping m;
		two_arrays(&a, c, x0);
		fc_mapping(&a, &w, &m, x0);
		trim__activity ref;
		ck_assert_msg(refsim_run(&w, &a, &m, &ref) == 0, "%s", trim_last_error());
		int64_t fills = 0, updates = 0;
		for (int t = 0; t < 3; t++) {
			fills += ref.fills[GLB][t];
			updates += ref.updates[GLB][t];
		}
		ck_assert(fills > 0 && updates > 0); /* the case exercises both */
		ck_assert_int_eq(ref.instances[GLB], x0);
		trim__eval_ws ws = {0};
		trim__eval e;
		ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
		double want = (double)(fills + updates) / (1.0 * (double)x0);
		ck_assert_msg(e.level_cycles[GLB] == want, "x0 %lld: GLB write cycles %g, (fills %lld + updates %lld) / %lld = %g",
		              (long long)x0, e.level_cycles[GLB], (long long)fills, (long long)updates, (long long)x0, want);
		/* twice the write bandwidth, half the cycles */
		a.lv[GLB].write_bw = 2;
		ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
		ck_assert(e.level_cycles[GLB] == want / 2);
		trim__eval_ws_free(&ws);
	}
}
END_TEST

/* A double-buffered level holds two copies of every kept tile: the capacity
 * use it reports counts both (and the mapper's check allows half). */
START_TEST(double_buffer_capacity_counts_both_buffers)
{
	struct trim_arch a;
	trim__level_cost c[6];
	trim__intra w;
	trim__mapping m;
	two_arrays(&a, c, 1);
	fc_mapping(&a, &w, &m, 1);
	trim__activity ref;
	ck_assert(refsim_run(&w, &a, &m, &ref) == 0);
	/* the GLB's tiles: input C 4 x 2 = 8, weights M 4 x C 8 = 32, outputs 4
	 * (16-bit words) */
	int64_t words = 0;
	for (int t = 0; t < 3; t++)
		words += ref.tile[GLB][t];
	ck_assert_int_eq(words, 8 + 32 + 4);
	trim__eval_ws ws = {0};
	trim__eval e;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	ck_assert_int_eq(e.cap_bytes[GLB], words * 2);
	ck_assert(e.cap_util[GLB] == (double)(words * 2) / 4096);
	a.lv[GLB].double_buffer = 1;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	ck_assert_int_eq(e.cap_bytes[GLB], 2 * words * 2);
	ck_assert(e.cap_util[GLB] == (double)(2 * words * 2) / 4096);
	/* a double-buffered GLB of 160 bytes cannot hold two 88-byte copies */
	a.lv[GLB].capacity_bytes = 160;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), TRIM_ENOFIT);
	a.lv[GLB].double_buffer = 0;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	trim__eval_ws_free(&ws);
}
END_TEST

/* The bandwidth cycles of a spatial level below another are its words over
 * (link words per cycle x its active instances): each of NoC0's x0 children
 * has its own NoC. */
START_TEST(second_spatial_level_counts_instances)
{
	for (int64_t x0 = 1; x0 <= 2; x0++) {
		struct trim_arch a;
		trim__level_cost c[6];
		trim__intra w;
		trim__mapping m;
		two_arrays(&a, c, x0);
		a.lv[NOC0].link_bits = 16; /* one word per cycle */
		a.lv[NOC].link_bits = 32;  /* two words per cycle */
		fc_mapping(&a, &w, &m, x0);
		trim__activity ref;
		ck_assert(refsim_run(&w, &a, &m, &ref) == 0);
		ck_assert_int_eq(ref.instances[NOC], x0);
		trim__eval_ws ws = {0};
		trim__eval e;
		ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
		for (int l = NOC0; l <= NOC; l += NOC - NOC0) {
			double words = 0;
			for (int t = 0; t < 3; t++)
				words += (double)(ref.down_words[l][t] + ref.up_out[l][t]);
			ck_assert(words > 0);
			double per_cycle = l == NOC ? 2 : 1;
			double inst = l == NOC ? (double)x0 : 1;
			ck_assert_msg(e.level_cycles[l] == words / (per_cycle * inst), "x0 %lld, level %d: %g cycles, %g words",
			              (long long)x0, l, e.level_cycles[l], words);
		}
		trim__eval_ws_free(&ws);
	}
}
END_TEST

Suite *eval_paths_suite(void)
{
	Suite *s = suite_create("eval_paths");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, write_bandwidth_counts_updates_and_fills);
	tcase_add_test(tc, double_buffer_capacity_counts_both_buffers);
	tcase_add_test(tc, second_spatial_level_counts_instances);
	suite_add_tcase(s, tc);
	return s;
}
