/*
 * Flattened groups (lib/mapping/flat.c, lib/activity/flat.c; docs/mapping.md,
 * "Flattened groups"): the YAML form and its errors, a tile's size counted by
 * hand, the counts against the reference simulator (test/refsim.c), and
 * SCALE-Sim's convolutions with their flattened rows and columns
 * (test/data/scalesim/, the files named -flat.yaml) within 2% of its cycles.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity/activity_int.h"
#include "eval/eval_int.h"
#include "refsim.h"
#include "tcase_util.h"
#include "trim.h"

#define ARCH "test/data/scalesim/arch-32x32.yaml"

static const char *const F_NAMES[] = {"fills", "reads", "updates", "drains", "down_words", "down_dests",
                                      "unicast", "mcast", "mcast_dests", "up_words", "up_out", "reductions",
                                      "tile"};

static int64_t (*field(trim__activity *a, int f))[3]
{
	int64_t (*const fs[])[3] = {a->fills, a->reads, a->updates, a->drains, a->down_words, a->down_dests,
	                            a->unicast, a->mcast, a->mcast_dests, a->up_words, a->up_out,
	                            a->reductions, a->tile};
	return fs[f];
}

/* Every count of x and y equal; x's tiles (the largest) hold y's (the
 * simulator's: instance 0's at the first step). */
static void same_counts(trim__activity *x, trim__activity *y, int nL)
{
	ck_assert_int_eq(x->macs, y->macs);
	ck_assert_int_eq(x->zero_macs, y->zero_macs);
	ck_assert_int_eq(x->steps, y->steps);
	ck_assert_int_eq(x->active_pes, y->active_pes);
	for (int l = 0; l < nL; l++) {
		ck_assert_int_eq(x->instances[l], y->instances[l]);
		for (int t = 0; t < 3; t++)
			ck_assert_int_ge(x->tile[l][t], y->tile[l][t]);
		for (int f = 0; f < 12; f++)
			for (int t = 0; t < 3; t++)
				ck_assert_msg(field(x, f)[l][t] == field(y, f)[l][t], "%s[level %d][slot %d]: analytic %lld, "
				              "simulator %lld", F_NAMES[f], l, t, (long long)field(x, f)[l][t],
				              (long long)field(y, f)[l][t]);
	}
}

/* The small case: C 2, M 2, a 5 x 5 input, 3 x 3 kernel (E = F = 3); the
 * window R x S x C = 18 as one index k = (r*3 + s)*2 + c, in pieces of 4
 * rows (5 folds, the last 2 rows). */
static const char *small_yaml = "mapping:\n"
                                "  - level: DRAM\n    temporal: {M: 2, RSC: 5}\n    order: MRSC\n"
                                "  - level: SRAM\n    temporal: {E: 3, F: 3}\n    order: EF\n"
                                "  - level: Array\n    spatial_x: {}\n    spatial_y: {RSC: 4}\n"
                                "  - level: PE\n    keep: [weight]\n";

static void small_case(trim_arch **a, trim__intra *w, trim_mapping **m, const char *yaml)
{
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 2, 2, 1, 5, 5, 3, 3, 1, 1, 0), 0);
	ck_assert_msg(trim_arch_load(a, ARCH) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_mapping_load_string(m, *a, yaml, "small.yaml") == 0, "%s", trim_last_error());
	ck_assert_msg(trim__mapping_check(*m, w, *a) == 0, "%s", trim_last_error());
}

/* By hand: the inputs a piece of the window touches while E and F run
 * below it: piece 0 (k 0-3: r 0, s 0-1, c 0-1) 2 x 3 x 4 = 24; piece 1
 * (r 0 s 2, r 1 s 0; c 0-1) per channel the 3 x 3 at columns 2-4 and the
 * 3 x 3 at rows 1-3, sharing rows 1-2 of column 2: 16, so 32; piece 2 (r 1,
 * s 1-2) 24; piece 3 (r 2, s 0-1) 24; piece 4 (r 2 s 2) 18. The SRAM's
 * largest input tile is 32; a PE holds 1 weight. */
START_TEST(test_flat_tile_by_hand)
{
	trim_arch *a = NULL;
	trim_mapping *m = NULL;
	trim__intra w;
	small_case(&a, &w, &m, small_yaml);
	ck_assert_int_eq(m->ngroups, 1);
	ck_assert_int_eq(m->f[0][TRIM_DIM_R], 5);
	ck_assert_int_eq(m->fy[2][TRIM_DIM_R], 4);
	ck_assert_int_eq(trim__flat_bound(m, &w, TRIM_DIM_R), 18);
	ck_assert_int_eq(trim__flat_bound(m, &w, TRIM_DIM_S), 1);
	ck_assert_int_eq(trim__flat_tile_elems(m, &w, 1, 0), 32);
	ck_assert_int_eq(trim__flat_tile_elems(m, &w, 3, 1), 1);
	ck_assert_int_eq(trim__flat_tile_elems(m, &w, 0, 0), 50);
	/* the flattened index: k = 9 is r 1, s 1, c 1 */
	int64_t v[TRIM_NDIMS] = {0}, dv[TRIM_NDIMS];
	v[TRIM_DIM_R] = 9;
	trim__flat_expand(m, &w, v, dv);
	ck_assert(dv[TRIM_DIM_R] == 1 && dv[TRIM_DIM_S] == 1 && dv[TRIM_DIM_C] == 1);
	/* the counts by hand: 2 x 18 x 9 MACs, 2 x 5 x 9 steps (the last fold
	 * runs 2 of its 4 rows); each weight preloaded once per fold (36 into
	 * the PEs); every step reads the inputs of its piece's rows, distinct
	 * at one (e, f): 2 x 9 x 18 */
	trim__act_ws ws = {0};
	trim__activity x;
	ck_assert_msg(trim__activity_compute(&w, a, m, &ws, &x) == 0, "%s", trim_last_error());
	ck_assert_int_eq(x.macs, 324);
	ck_assert_int_eq(x.steps, 90);
	ck_assert_int_eq(x.fills[3][1], 36);
	ck_assert_int_eq(x.reads[1][0], 324);
	ck_assert_int_eq(x.tile[1][0], 32);
	trim__act_ws_free(&ws);
	trim_mapping_free(m);
	trim_arch_free(a);
}
END_TEST

/* Every count against the reference simulator, which runs the group as one
 * loop index whose digits are the dims: the small case, the inputs kept in
 * the PEs instead (is-like: the window's pieces preloaded), the outputs'
 * pixels flattened (os-like: EF in pieces of 4, a ragged last piece of 1),
 * both groups at once, and a group of the filters and the output rows. */
START_TEST(test_flat_refsim)
{
	static const char *const yamls[] = {
		NULL, /* small_yaml */
		"mapping:\n  - level: DRAM\n    temporal: {RSC: 5, M: 2}\n    order: RSCM\n"
		"  - level: Array\n    spatial_x: {E: 3}\n    spatial_y: {RSC: 4}\n"
		"  - level: PE\n    temporal: {F: 3}\n    keep: [input]\n",
		"mapping:\n  - level: DRAM\n    temporal: {EF: 3}\n    order: EF\n"
		"  - level: SRAM\n    temporal: {C: 2}\n"
		"  - level: Array\n    spatial_x: {M: 2}\n    spatial_y: {EF: 4}\n"
		"  - level: PE\n    temporal: {R: 3, S: 3}\n    order: SR\n    keep: [output]\n",
		"mapping:\n  - level: DRAM\n    temporal: {RSC: 3, EF: 2, M: 2}\n    order: EFRSCM\n"
		"  - level: Array\n    spatial_x: {EF: 5}\n    spatial_y: {RSC: 6}\n"
		"  - level: PE\n    keep: [input, weight]\n",
		/* a group of the filters and the output rows: the weights read
		 * some of its dims only, the inputs one through a window (both
		 * walked), the outputs all (relabelled) */
		"mapping:\n  - level: DRAM\n    temporal: {ME: 2}\n  - level: SRAM\n    temporal: {F: 3, C: 2}\n"
		"    order: FC\n  - level: Array\n    spatial_x: {ME: 4}\n"
		"  - level: PE\n    temporal: {R: 3, S: 3}\n    keep: [output]\n",
	};
	for (size_t i = 0; i < sizeof yamls / sizeof yamls[0]; i++) {
		trim_arch *a = NULL;
		trim_mapping *m = NULL;
		trim__intra w;
		small_case(&a, &w, &m, yamls[i] ? yamls[i] : small_yaml);
		trim__act_ws ws = {0};
		trim__activity x, y;
		ck_assert_msg(trim__activity_compute(&w, a, m, &ws, &x) == 0, "%s", trim_last_error());
		ck_assert_msg(refsim_run(&w, a, m, &y) == 0, "%s", trim_last_error());
		same_counts(&x, &y, a->nlevels);
		ck_assert_int_eq(x.macs, 324);
		trim__act_ws_free(&ws);
		trim_mapping_free(m);
		trim_arch_free(a);
	}
}
END_TEST

/* A padded convolution on Eyeriss with the window as one index down its 12
 * rows (27 = 12 + 12 + 3): the fuzzer's seed (AlexNet-CIFAR conv1: pad 1,
 * stride 2, the zeros of the padding counted) cut to a 16 x 16 input and 16
 * filters (the simulator takes 30 CPU s on the whole layer), every count as
 * the simulator's. */
START_TEST(test_flat_refsim_eyeriss)
{
	trim_arch *a = NULL;
	trim_mapping *m = NULL;
	trim__intra w;
	ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 3, 16, 1, 16, 16, 3, 3, 2, 1, 1), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	ck_assert_msg(trim_mapping_load(&m, a, "test/data/mapping/eyeriss-conv1-flat.yaml") == 0, "%s", trim_last_error());
	ck_assert(m->f[0][TRIM_DIM_M] == 4 && m->f[1][TRIM_DIM_E] == 16 && m->f[1][TRIM_DIM_F] == 2);
	m->f[0][TRIM_DIM_M] = 1;
	m->f[1][TRIM_DIM_E] = 8;
	m->f[1][TRIM_DIM_F] = 1;
	ck_assert_msg(trim__mapping_check(m, &w, a) == 0, "%s", trim_last_error());
	trim__act_ws ws = {0};
	trim__activity x, y;
	ck_assert_msg(trim__activity_compute(&w, a, m, &ws, &x) == 0, "%s", trim_last_error());
	ck_assert_msg(refsim_run(&w, a, m, &y) == 0, "%s", trim_last_error());
	same_counts(&x, &y, a->nlevels);
	ck_assert_int_eq(x.macs, 8 * 8 * 16 * 27);
	ck_assert_int_gt(x.zero_macs, 0);
	trim__act_ws_free(&ws);
	trim_mapping_free(m);
	trim_arch_free(a);
}
END_TEST

/* The same over piece sizes (ragged and not), strides 1 and 2, the array
 * multicasting or not, and three dataflows: ws (the window's pieces on Y,
 * the filters on X), is (pieces of the window on Y, of the output pixels on
 * X, the inputs kept in the PEs) and os (pieces of the output pixels). */
START_TEST(test_flat_refsim_sweep)
{
	static const int64_t pieces[] = {1, 2, 3, 5, 7};
	int cases = 0;
	for (int u = 1; u <= 2; u++)
		for (int mc = 0; mc < 2; mc++)
			for (size_t pi = 0; pi < sizeof pieces / sizeof pieces[0]; pi++)
				for (int df = 0; df < 3; df++) {
					trim__intra w;
					ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 2, 2, 1, 5, 5, 3, 3, u, 1, 0), 0);
					const int64_t p = pieces[pi], K = 18, EF = w.bound[TRIM_DIM_E] * w.bound[TRIM_DIM_F];
					const int64_t q = p < EF ? p : EF;
					char yaml[512];
					if (df == 0)
						snprintf(yaml, sizeof yaml, "mapping:\n  - level: DRAM\n    temporal: {RSC: %lld, E: %lld}\n"
						         "    order: RSCE\n  - level: SRAM\n    temporal: {F: %lld}\n  - level: Array\n"
						         "    spatial_x: {M: 2}\n    spatial_y: {RSC: %lld}\n  - level: PE\n    keep: [weight]\n",
						         (long long)((K + p - 1) / p), (long long)w.bound[TRIM_DIM_E],
						         (long long)w.bound[TRIM_DIM_F], (long long)p);
					else if (df == 1)
						snprintf(yaml, sizeof yaml, "mapping:\n  - level: DRAM\n    temporal: {EF: %lld, RSC: %lld}\n"
						         "    order: EFRSC\n  - level: Array\n    spatial_x: {EF: %lld}\n"
						         "    spatial_y: {RSC: %lld}\n  - level: PE\n    temporal: {M: 2}\n    keep: [input]\n",
						         (long long)((EF + q - 1) / q), (long long)((K + p - 1) / p), (long long)q, (long long)p);
					else
						snprintf(yaml, sizeof yaml, "mapping:\n  - level: DRAM\n    temporal: {EF: %lld}\n"
						         "  - level: SRAM\n    temporal: {C: 2}\n  - level: Array\n    spatial_x: {M: 2}\n"
						         "    spatial_y: {EF: %lld}\n  - level: PE\n    temporal: {S: 3, R: 3}\n"
						         "    order: SR\n    keep: [output]\n", (long long)((EF + q - 1) / q), (long long)q);
					trim_arch *a = NULL;
					trim_mapping *m = NULL;
					ck_assert_int_eq(trim_arch_load(&a, ARCH), 0);
					a->lv[2].multicast = mc;
					ck_assert_msg(trim_mapping_load_string(&m, a, yaml, "sweep.yaml") == 0, "%s", trim_last_error());
					ck_assert_msg(trim__mapping_check(m, &w, a) == 0, "%s\n%s", trim_last_error(), yaml);
					trim__act_ws ws = {0};
					trim__activity x, y;
					ck_assert_msg(trim__activity_compute(&w, a, m, &ws, &x) == 0, "%s", trim_last_error());
					ck_assert_msg(refsim_run(&w, a, m, &y) == 0, "%s", trim_last_error());
					same_counts(&x, &y, a->nlevels);
					trim__act_ws_free(&ws);
					trim_mapping_free(m);
					trim_arch_free(a);
					cases++;
				}
	ck_assert_int_eq(cases, 60);
}
END_TEST

/* Cycles against SCALE-Sim v2 (test/data/scalesim/scalesim-v2-32x32.csv, the
 * rows of view "flat"): the layers SCALE-Sim flattens (R x S x C on its rows
 * in ws and is, E x F in os and is) as convolutions with flattened groups,
 * within 2%; the same cycles as their GEMM views within 0.1%. */
START_TEST(test_flat_scalesim_cycles)
{
	trim_arch *a = NULL;
	ck_assert_msg(trim_arch_load(&a, ARCH) == 0, "%s", trim_last_error());
	FILE *f = fopen("test/data/scalesim/scalesim-v2-32x32.csv", "r");
	ck_assert_ptr_nonnull(f);
	char line[512];
	int header = 0, flat = 0;
	trim__level_cost c[TRIM__MAX_LEVELS];
	memset(c, 0, sizeof c); /* cycles only */
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#' || !header++)
			continue;
		char layer[32], df[8], view[8], file[64];
		long long h, wd, r, s, ch, k, u, cyc, stall;
		ck_assert_int_eq(sscanf(line, "%31[^,],%7[^,],%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%7[^,],%63[^,\n]",
		                        layer, df, &h, &wd, &r, &s, &ch, &k, &u, &cyc, &stall, view, file), 13);
		if (strcmp(view, "flat"))
			continue;
		long long E = (h - r + u + u - 1) / u, F = (wd - s + u + u - 1) / u;
		trim__intra w, g;
		ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, ch, k, 1, (E - 1) * u + r, (F - 1) * u + s,
		                          r, s, u, 1, 0), 0);
		ck_assert_int_eq(tu_layer(&g, TU_FC, TRIM_PHASE_FW, E * F, r * s * ch, k, 1, 1, 1, 1, 1, 1, 1, 0), 0);
		char path[128], gpath[128];
		snprintf(path, sizeof path, "test/data/scalesim/%s", file);
		snprintf(gpath, sizeof gpath, "test/data/scalesim/%.*s.yaml", (int)(strlen(file) - 10), file);
		trim_mapping *m = NULL, *gm = NULL;
		ck_assert_msg(trim_mapping_load(&m, a, path) == 0, "%s", trim_last_error());
		ck_assert_msg(trim_mapping_load(&gm, a, gpath) == 0, "%s: %s", gpath, trim_last_error());
		ck_assert_msg(m->ngroups > 0, "%s", path);
		ck_assert_msg(trim__mapping_check(m, &w, a) == 0, "%s: %s", path, trim_last_error());
		trim__eval_ws ws = {0};
		trim__eval e, ge;
		ck_assert_msg(trim__eval_run(&w, a, c, m, &ws, &e) == 0, "%s: %s", path, trim_last_error());
		ck_assert_int_eq(trim__eval_run(&g, a, c, gm, &ws, &ge), 0);
		double rel = e.cycles / (double)cyc - 1;
		ck_assert_msg(fabs(rel) <= 0.02, "%s %s: libtrim %.0f cycles, SCALE-Sim %lld (%+.2f%%)", layer, df,
		              e.cycles, cyc, 100 * rel);
		ck_assert_msg(fabs(e.cycles / ge.cycles - 1) <= 0.001, "%s %s: %.0f cycles, the GEMM view %.0f", layer,
		              df, e.cycles, ge.cycles);
		ck_assert_int_eq(e.act.macs, ge.act.macs);
		ck_assert_int_eq(e.act.steps, ge.act.steps);
		/* the weights (ws, os) and the outputs are relabelled, not counted
		 * differently: the same as the GEMM view's */
		for (int l = 0; l < a->nlevels; l++)
			for (int t = 1; t < 3; t++) {
				ck_assert_int_eq(e.act.fills[l][t], ge.act.fills[l][t]);
				ck_assert_int_eq(e.act.reads[l][t], ge.act.reads[l][t]);
			}
		trim__eval_ws_free(&ws);
		trim_mapping_free(m);
		trim_mapping_free(gm);
		flat++;
	}
	fclose(f);
	ck_assert_int_eq(flat, 7);
	trim_arch_free(a);
}
END_TEST

/* A mapping whose load fails with a message containing want (NULL: loads,
 * and then its check fails with want). */
static void expect_error(const trim_arch *a, const trim__intra *w, const char *yaml, const char *want, int at_load)
{
	trim_mapping *m = NULL;
	int rc = trim_mapping_load_string(&m, a, yaml, yaml == small_yaml ? "small.yaml" : "bad.yaml");
	if (at_load) {
		ck_assert_msg(rc < 0, "loaded: %s", yaml);
		ck_assert_msg(strstr(trim_last_error(), want), "'%s' not in '%s'", want, trim_last_error());
		return;
	}
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	ck_assert_msg(trim__mapping_check(m, w, a) < 0, "passed: %s", yaml);
	ck_assert_msg(strstr(trim_last_error(), want), "'%s' not in '%s'", want, trim_last_error());
	trim_mapping_free(m);
}

START_TEST(test_flat_errors)
{
	trim_arch *a = NULL;
	trim_mapping *m = NULL;
	trim__intra w;
	small_case(&a, &w, &m, small_yaml);
	trim_mapping_free(m);
	/* a dim of a group with a bound of its own: in the same map, at another level, before */
	expect_error(a, &w, "mapping:\n  - level: DRAM\n    temporal: {M: 2, RSC: 5, R: 3}\n",
	             "bad.yaml:3:30: mapping[0].temporal.R: dimension R is named twice here (in 'RSC' and 'R')", 1);
	expect_error(a, &w, "mapping:\n  - level: DRAM\n    temporal: {M: 2, RSC: 5}\n  - level: PE\n    temporal: {S: 3}\n",
	             "bad.yaml:5:16: mapping[1].temporal.S: dimension S is in the flattened group RSC", 1);
	expect_error(a, &w, "mapping:\n  - level: DRAM\n    temporal: {S: 3}\n  - level: Array\n    spatial_y: {RSC: 6}\n",
	             "bad.yaml:5:17: mapping[1].spatial_y.RSC: dimension S of the flattened group RSC has a bound of its "
	             "own at level DRAM (line 3)", 1);
	/* an order naming a group's dims apart */
	expect_error(a, &w, "mapping:\n  - level: DRAM\n    temporal: {M: 2, RSC: 5}\n    order: RMSC\n",
	             "bad.yaml:4:12: mapping[0].order: mapping: level DRAM: R is in the flattened group RSC, one loop: "
	             "name it as RSC in order 'RMSC'", 1);
	/* two groups sharing a dim; a letter twice; an unknown letter */
	expect_error(a, &w, "mapping:\n  - level: DRAM\n    temporal: {RSC: 5}\n  - level: Array\n    spatial_y: {RS: 4}\n",
	             "mapping[1].spatial_y.RS: dimension R is in the flattened group RSC already", 1);
	expect_error(a, &w, "mapping:\n  - level: DRAM\n    temporal: {RR: 5}\n", "flattened group 'RR' names R twice", 1);
	expect_error(a, &w, "mapping:\n  - level: DRAM\n    temporal: {RSX: 5}\n", "unknown dimension 'RSX'", 1);
	/* the bounds must cover R x S x C = 18, with no empty last fold */
	expect_error(a, &w, "mapping:\n  - level: DRAM\n    temporal: {M: 2, RSC: 4, E: 3, F: 3}\n"
	             "  - level: Array\n    spatial_y: {RSC: 4}\n  - level: PE\n    keep: [weight]\n",
	             "bad.yaml:2:5: mapping[0]: level DRAM, dimension R: the bounds of the flattened group RSC multiply "
	             "to 16 (DRAM=4 x SRAM=1 x Array=4 x PE=1), its extent is R 3 x S 3 x C 2 = 18: they must cover it", 0);
	expect_error(a, &w, "mapping:\n  - level: DRAM\n    temporal: {M: 2, RSC: 6, E: 3, F: 3}\n"
	             "  - level: Array\n    spatial_y: {RSC: 4}\n  - level: PE\n    keep: [weight]\n",
	             "the last iteration of its outermost loop (bound 6, pieces of 4) would be empty", 0);
	/* a result read through a window (the small case with its input and
	 * output swapped) */
	trim__intra swapped = w;
	swapped.t[2] = w.t[0];
	swapped.t[0] = w.t[2];
	expect_error(a, &swapped, small_yaml, "small.yaml:2:3: mapping: the flattened group RSC: the result ifmap reads it "
	             "through a window or through some of its dims only (not supported: only an operand may)", 0);
	/* Timeloop's format has no flattened group: refused, not written wrong */
	trim_network *net = NULL;
	trim_workloads *wl = NULL;
	ck_assert_msg(trim_network_load_string(&net, "network: {name: one, input: [5, 5, 2]}\nlayers:\n"
	                                       "  - {name: c1, type: conv2d, filters: 2, kernel: 3, strides: 1}\n",
	                                       "one.yaml") == 0, "%s", trim_last_error());
	ck_assert_msg(trim_workloads_create(&wl, net, TRIM_MODE_INFERENCE, 1, 0) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_mapping_load_string(&m, a, small_yaml, "small.yaml") == 0, "%s", trim_last_error());
	char *text = NULL;
	ck_assert_int_lt(trim_mapping_dump_timeloop(m, wl, 0, a, &text), 0);
	ck_assert_msg(strstr(trim_last_error(), "flattened group RSC"), "%s", trim_last_error());
	ck_assert_ptr_null(text);
	/* libtrim's own form writes the group and reads it back */
	ck_assert_int_eq(trim_mapping_dump(m, TRIM_FORMAT_YAML, &text), 0);
	ck_assert_msg(strstr(text, "RSC: 5") && strstr(text, "RSC: 4") && strstr(text, "order: MRSC"), "%s", text);
	trim_mapping *back = NULL;
	ck_assert_msg(trim_mapping_load_string(&back, a, text, "back.yaml") == 0, "%s", trim_last_error());
	ck_assert_int_eq(memcmp(back->f, m->f, sizeof m->f), 0);
	ck_assert_int_eq(memcmp(back->order, m->order, sizeof m->order), 0);
	ck_assert_int_eq(back->ngroups, 1);
	trim_string_free(text);
	trim_mapping_free(back);
	trim_mapping_free(m);
	trim_workloads_free(wl);
	trim_network_free(net);
	trim_arch_free(a);
}
END_TEST

/* trim eval end to end: the loop nest names the group and its ragged last
 * fold, the cycles are SCALE-Sim's plus one; --export-timeloop and --count
 * timeloop refuse the mapping (exit 2) with the reason. */
START_TEST(test_flat_cli)
{
	static const char *const args = "eval test/data/scalesim/net-conv1.yaml test/data/scalesim/arch-32x32.yaml "
	                                "--layer conv1 --phase FW --mapping test/data/scalesim/ws-conv1-flat.yaml";
	char cmd[512];
	int st = 0;
	char *out = tu_capture(args, 1, &st);
	ck_assert_msg(st == 0, "%s", out);
	ck_assert_msg(strstr(out, "for rsc4 in [0:5)  # ragged: RSC = 147 in tiles of 32, the last 19"), "%s", out);
	ck_assert_msg(strstr(out, "parallel_for rsc2 in [0:32)  # X 1, Y 32"), "%s", out);
	ck_assert_msg(strstr(out, "cycles 121940 (bottleneck Array)"), "%s", out);
	free(out);
	snprintf(cmd, sizeof cmd, "%s --export-timeloop /tmp/trim-check-flat-tl.yaml", args);
	out = tu_capture(cmd, 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(out, "flattened group RSC"), "%s", out);
	free(out);
	snprintf(cmd, sizeof cmd, "%s --count timeloop", args);
	out = tu_capture(cmd, 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(out, "not under --count timeloop"), "%s", out);
	free(out);
	remove("/tmp/trim-check-flat-tl.yaml");
}
END_TEST

Suite *flat_suite(void)
{
	Suite *s = suite_create("flat");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_flat_tile_by_hand);
	tcase_add_test(tc, test_flat_refsim);
	tcase_add_test(tc, test_flat_refsim_sweep);
	tcase_add_test(tc, test_flat_refsim_eyeriss);
	tcase_add_test(tc, test_flat_errors);
	tcase_add_test(tc, test_flat_cli);
	suite_add_tcase(s, tc);
	tc = tcase_create("scalesim");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_flat_scalesim_cycles);
	suite_add_tcase(s, tc);
	return s;
}
