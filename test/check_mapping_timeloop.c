/*
 * Mappings to and from Timeloop: what timeloop-mapper writes, the export
 * (trim_mapping_dump_timeloop, trim eval --export-timeloop) read back, the
 * counting differences docs/mapping.md quotes, Timeloop's own Eyeriss-like
 * design (version 0.4).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "activity/activity_int.h"
#include "mapping/mapping_int.h"
#include "tcase_util.h"
#include "trim.h"
#include "mapping_fig6.h"

/* What timeloop-mapper writes: factors without '=' ("C1 M16"), output
 * channels as M (its CNN-Layer problem; K in older examples), every dim. */
START_TEST(test_timeloop_mapper_output)
{
	struct trim_arch a;
	trim__intra w;
	trim_mapping *m = NULL, *k = NULL;
	fig6_arch(&a);
	fig6_wl(&w);
	static const char mapper[] =
		"mapping:\n"
		"  - target: GLB\n    type: datatype\n    keep:\n      - Inputs\n      - Outputs\n    bypass:\n      - Weights\n"
		"  - target: DRAM\n    type: temporal\n    factors: C1 M4 R1 S1 N1 P1 Q1\n    permutation: CRSNPQM\n"
		"  - target: GLB\n    type: spatial\n    factors: C2 M4 R1 S1 N1 P1 Q1\n    permutation: MCRSNPQ\n    split: 1\n"
		"  - target: GLB\n    type: temporal\n    factors: C2 M2 R1 S1 N1 P1 Q1\n    permutation: CMRSNPQ\n"
		"  - target: RF\n    type: temporal\n    factors: C4 M1 R1 S1 N1 P1 Q1\n    permutation: CMRSNPQ\n";
	ck_assert_msg(trim_mapping_load_string(&m, &a, mapper, "mapper.yaml") == 0, "%s", trim_last_error());
	ck_assert_msg(trim_mapping_load_string(&k, &a, TL_FIG6B, "tl.yaml") == 0, "%s", trim_last_error());
	for (int l = 0; l < a.nlevels; l++) {
		for (int d = 0; d < TRIM_NDIMS; d++) {
			ck_assert_int_eq(m->f[l][d], k->f[l][d]);
			ck_assert_int_eq(m->fx[l][d], k->fx[l][d]);
			ck_assert_int_eq(m->fy[l][d], k->fy[l][d]);
		}
		for (int t = 0; t < 3; t++)
			ck_assert_int_eq(m->keep[l][t], k->keep[l][t]);
	}
	int pm = -1, pc = -1; /* M outside C at the GLB */
	for (int k = 0; k < TRIM_NDIMS; k++) {
		pm = m->order[GLB][k] == TRIM_DIM_M ? k : pm;
		pc = m->order[GLB][k] == TRIM_DIM_C ? k : pc;
	}
	ck_assert_int_lt(pm, pc);
	ck_assert_int_eq(trim__mapping_check(m, &w, &a), 0);
	trim_mapping_free(m);
	trim_mapping_free(k);
	m = NULL;
	/* K and M are one dim: both in a directive is a dim named twice */
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: temporal\n"
	           "    factors: K2 M2\n", "tl.yaml"), TRIM_ESCHEMA, "'M2': M is named twice");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: temporal\n"
	           "    factors: C2 X2\n", "tl.yaml"), TRIM_ESCHEMA, "bad factor 'X2'");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: temporal\n"
	           "    factors: C\n", "tl.yaml"), TRIM_ESCHEMA, "bad factor 'C'");
	ck_assert_ptr_null(m);
}
END_TEST

/* A mapping for any workload on eyeriss.yaml: every bound at DRAM except a
 * factor 2 (or 3) of the first dim that has one, spread along X (or Y). */
static int trivial_mapping(trim_mapping **out, const trim_workloads *ws, size_t i, const trim_arch *arch,
                           int along_y)
{
	int64_t b[TRIM_NDIMS];
	ck_assert_int_eq(trim_workloads_intra_bounds(ws, i, b, TRIM_NDIMS), 0);
	ck_assert_int_eq(trim_mapping_create(out, arch), 0);
	int spread = -1;
	for (int d = TRIM_NDIMS - 1; d >= 0 && spread < 0; d--)
		if (b[d] % 2 == 0 || b[d] % 3 == 0)
			spread = d;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t s = d == spread ? (b[d] % 2 == 0 ? 2 : 3) : 1;
		ck_assert_int_eq(trim_mapping_set_temporal(*out, 0, d, b[d] / s), 0);
		if (s > 1)
			ck_assert_int_eq(trim_mapping_set_spatial(*out, 2, d, along_y ? 1 : s, along_y ? s : 1), 0);
	}
	ck_assert_int_eq(trim_mapping_set_order(*out, 0, "SRFECMGN"), 0);
	ck_assert_int_eq(trim_mapping_set_keep(*out, 1, 1, 0), 0); /* the GLB bypasses slot 1 */
	return spread;
}

/* trim_mapping_dump_timeloop writes the problem and the mapping; libtrim's
 * reader gives back the same mapping, which evaluates identically: every
 * workload of AlexNet-CIFAR in training (conv, pool, FC; FW, BW, WG) and a
 * grouped (depthwise) conv of MobileNet, on Eyeriss. */
START_TEST(test_timeloop_export_roundtrip)
{
	static const char *const nets[2] = {"models/networks/alexnet-cifar.yaml", "models/networks/mobilenet-v1.yaml"};
	trim_arch *arch = NULL;
	ck_assert_int_eq(trim_arch_load(&arch, "models/arch/eyeriss.yaml"), 0);
	int groups_seen = 0;
	for (int n = 0; n < 2; n++) {
		trim_network *net = NULL;
		trim_workloads *ws = NULL;
		ck_assert_int_eq(trim_network_load(&net, nets[n]), 0);
		ck_assert_int_eq(trim_workloads_create(&ws, net, TRIM_MODE_TRAINING, 2, 0), 0);
		size_t count = trim_workloads_intra_count(ws);
		for (size_t i = 0; i < count && i < (n ? 4u : count); i++) {
			trim_mapping *m = NULL, *back = NULL;
			int along_y = (int)(i % 2);
			trivial_mapping(&m, ws, i, arch, along_y);
			char *tl = NULL;
			ck_assert_msg(trim_mapping_dump_timeloop(m, ws, i, arch, &tl) == 0, "%zu: %s", i, trim_last_error());
			ck_assert_ptr_nonnull(strstr(tl, "problem:\n  shape:\n"));
			ck_assert_ptr_nonnull(strstr(tl, "\nmapping:\n  - target: \"DRAM\"\n    type: temporal\n"));
			ck_assert_ptr_nonnull(strstr(tl, "type: spatial"));
			int64_t b[TRIM_NDIMS];
			ck_assert_int_eq(trim_workloads_intra_bounds(ws, i, b, TRIM_NDIMS), 0);
			if (b[TRIM_DIM_G] > 1) {
				groups_seen++;
				ck_assert_ptr_nonnull(strstr(tl, "dimensions: [G, C, M, R, S, N, P, Q]"));
			} else {
				ck_assert_ptr_nonnull(strstr(tl, "dimensions: [C, M, R, S, N, P, Q]"));
			}
			ck_assert_msg(trim_mapping_load_string(&back, arch, tl, "export.yaml") == 0, "%s\n%s",
			              trim_last_error(), tl);
			const trim__mapping *x = m, *y = back;
			for (int l = 0; l < x->nlevels; l++) {
				for (int d = 0; d < TRIM_NDIMS; d++) {
					ck_assert_int_eq(x->f[l][d], y->f[l][d]);
					ck_assert_int_eq(x->fx[l][d], y->fx[l][d]);
					ck_assert_int_eq(x->fy[l][d], y->fy[l][d]);
				}
				for (int t = 0; t < 3; t++) /* the tensors the workload has */
					if (trim__workloads_intra(ws, i)->t[t].present)
						ck_assert_int_eq(x->keep[l][t], y->keep[l][t]);
				/* the loop order, for the loops the workload has */
				for (int k = 0, j = 0; k < TRIM_NDIMS; k++) {
					if (b[x->order[l][k]] == 1 && x->order[l][k] == TRIM_DIM_G)
						continue;
					while (b[y->order[l][j]] == 1 && y->order[l][j] == TRIM_DIM_G)
						j++;
					ck_assert_int_eq(x->order[l][k], y->order[l][j]);
					j++;
				}
			}
			trim_eval *e1 = NULL, *e2 = NULL;
			ck_assert_msg(trim_eval_mapping(&e1, ws, i, arch, NULL, m) == 0, "%s", trim_last_error());
			ck_assert_int_eq(trim_eval_mapping(&e2, ws, i, arch, NULL, back), 0);
			ck_assert(trim_eval_cycles(e1) == trim_eval_cycles(e2));
			ck_assert(trim_eval_energy_pj(e1) == trim_eval_energy_pj(e2));
			trim_eval_free(e1);
			trim_eval_free(e2);
			trim_string_free(tl);
			trim_mapping_free(back);
			trim_mapping_free(m);
		}
		trim_workloads_free(ws);
		trim_network_free(net);
	}
	ck_assert_int_gt(groups_seen, 0);
	/* a dim split over both X and Y: two spatial directives (Timeloop gives a
	 * dim one loop per fan-out), which the reader multiplies back */
	trim_network *net = NULL;
	trim_workloads *ws = NULL;
	trim_mapping *m = NULL;
	char *tl = NULL;
	ck_assert_int_eq(trim_network_load(&net, nets[0]), 0);
	ck_assert_int_eq(trim_workloads_create(&ws, net, TRIM_MODE_INFERENCE, 4, 0), 0);
	int s = trivial_mapping(&m, ws, 0, arch, 0), d = TRIM_DIM_M;
	int64_t b[TRIM_NDIMS];
	ck_assert_int_eq(trim_workloads_intra_bounds(ws, 0, b, TRIM_NDIMS), 0);
	ck_assert_int_eq(trim_mapping_set_temporal(m, 0, s, b[s]), 0);
	ck_assert_int_eq(trim_mapping_set_spatial(m, 2, s, 1, 1), 0);
	ck_assert_int_eq(b[d] % 4, 0);
	ck_assert_int_eq(trim_mapping_set_temporal(m, 0, d, b[d] / 4), 0);
	ck_assert_int_eq(trim_mapping_set_spatial(m, 2, d, 2, 2), 0);
	ck_assert_msg(trim_mapping_dump_timeloop(m, ws, 0, arch, &tl) == 0, "%s", trim_last_error());
	ck_assert_ptr_nonnull(strstr(tl, "splits a dim over X and Y"));
	ck_assert_ptr_nonnull(strstr(tl, "  - target: \"PE array\"\n    type: spatial\n"));
	trim_mapping *back = NULL;
	ck_assert_msg(trim_mapping_load_string(&back, arch, tl, "xy.yaml") == 0, "%s", trim_last_error());
	for (int k = 0; k < TRIM_NDIMS; k++) {
		ck_assert_int_eq(back->fx[2][k], m->fx[2][k]);
		ck_assert_int_eq(back->fy[2][k], m->fy[2][k]);
		ck_assert_int_eq(back->f[2][k], m->f[2][k]);
	}
	trim_mapping_free(back);
	trim_string_free(tl);
	tl = NULL;
	/* an invalid mapping is not exported */
	ck_assert_int_eq(trim_mapping_set_spatial(m, 2, d, 4, 1), 0);
	ck_assert_int_eq(trim_mapping_set_temporal(m, 0, d, b[d] / 2), 0);
	EXPECT_ERR(trim_mapping_dump_timeloop(m, ws, 0, arch, &tl), TRIM_ESHAPE, "multiply to");
	ck_assert_ptr_null(tl);
	trim_mapping_free(m);
	trim_workloads_free(ws);
	trim_network_free(net);
	trim_arch_free(arch);
}
END_TEST

/* The CLI: trim eval --export-timeloop FILE writes what trim eval reads back
 * with the same report; trim map --format timeloop prints the best mapping. */
START_TEST(test_timeloop_export_cli)
{
	int st = 0;
	char args[1024], path[64];
	snprintf(path, sizeof path, "/tmp/trim-tl-export-%d.yaml", (int)getpid());
	const char *base = "eval models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1";
	snprintf(args, sizeof args, "%s --mapping test/data/mapping/eyeriss-conv1.yaml --export-timeloop %s", base, path);
	char *a = tu_capture(args, 0, &st);
	ck_assert_msg(st == 0, "%s", a);
	snprintf(args, sizeof args, "%s --mapping %s", base, path);
	char *b = tu_capture(args, 0, &st);
	ck_assert_msg(st == 0, "%s", b);
	ck_assert_str_eq(a, b);
	remove(path);
	free(a);
	free(b);
	/* a directory that does not exist: exit 2, no report claimed */
	snprintf(args, sizeof args, "%s --mapping test/data/mapping/eyeriss-conv1.yaml --export-timeloop /nonexistent/x.yaml", base);
	a = tu_capture(args, 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_ptr_nonnull(strstr(a, "/nonexistent/x.yaml"));
	free(a);
	a = tu_capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	               "--constraints models/constraints/timeloop-eyeriss-rs.yaml --format timeloop", 0, &st);
	ck_assert_msg(st == 0, "%s", a);
	ck_assert_ptr_nonnull(strstr(a, "problem:\n  shape:\n"));
	ck_assert_ptr_nonnull(strstr(a, "mapping:\n  - target: \"DRAM\""));
	/* and trim eval takes it back */
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(a, f);
	fclose(f);
	snprintf(args, sizeof args, "%s --mapping %s", base, path);
	b = tu_capture(args, 0, &st);
	ck_assert_msg(st == 0, "%s", b);
	remove(path);
	free(a);
	free(b);
}
END_TEST

/* The numbers docs/mapping.md quotes for the counting differences from
 * Timeloop (test/data/timeloop-diff): the activity of two small mappings. */
static void diff_activity(const char *layer, const char *mapfile, trim__activity *act)
{
	trim_network *net = NULL;
	trim_workloads *ws = NULL;
	trim_arch *arch = NULL;
	trim_mapping *m = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "test/data/timeloop-diff/net.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&ws, net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_int_eq(trim_arch_load(&arch, "test/data/timeloop-diff/arch.yaml"), 0);
	ck_assert_int_eq(trim_workloads_find(ws, layer, TRIM_PHASE_FW, &i), 0);
	ck_assert_msg(trim_mapping_load(&m, arch, mapfile) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_mapping_check(m, ws, i, arch) == 0, "%s", trim_last_error());
	trim__act_ws aws;
	memset(&aws, 0, sizeof aws);
	ck_assert_msg(trim__activity_compute(trim__workloads_intra(ws, i), arch, m, &aws, act) == 0, "%s",
	              trim_last_error());
	trim__act_ws_free(&aws);
	trim_mapping_free(m);
	trim_arch_free(arch);
	trim_workloads_free(ws);
	trim_network_free(net);
}

START_TEST(test_timeloop_differences)
{
	enum { G = 1, PE = 2, R = 3 };
	trim__activity a;
	/* 1. the diagonals of row stationary within one fan-out: 72 deliveries, 36
	 * distinct words read from the GLB (Timeloop multicasts them too, as measured
	 * with timeloop-model by the reporter of #36: docs/mapping.md) */
	diff_activity("conv", "test/data/timeloop-diff/conv-rs.yaml", &a);
	ck_assert_int_eq(a.down_dests[PE][0], 72);
	ck_assert_int_eq(a.down_words[PE][0], 36);
	ck_assert_int_eq(a.reads[G][0], 36);
	ck_assert_int_eq(a.mcast[PE][0], 24);
	ck_assert_int_eq(a.unicast[PE][0], 12);
	ck_assert_int_eq(a.fills[R][0], 72);
	/* weights: multicast over E by both tools */
	ck_assert_int_eq(a.reads[G][1], 9);
	ck_assert_int_eq(a.down_dests[PE][1], 36);
	/* 2. and 3. read-backs into one sibling and drains, under a reduction over 4 rows */
	diff_activity("fc", "test/data/timeloop-diff/fc-reduce.yaml", &a);
	ck_assert_int_eq(a.reads[G][2], 12);   /* Timeloop: 12 x 4 siblings = 48 */
	ck_assert_int_eq(a.fills[R][2], 12);
	ck_assert_int_eq(a.drains[R][2], 64);  /* Timeloop: not counted */
	ck_assert_int_eq(a.drains[G][2], 4);
	ck_assert_int_eq(a.up_words[PE][2], 64);
	ck_assert_int_eq(a.up_out[PE][2], 16);
	ck_assert_int_eq(a.reductions[PE][2], 48);
	ck_assert_int_eq(a.updates[G][2], 16);
}
END_TEST

/* Timeloop's own Eyeriss-like design, architecture (version 0.4), ERT and
 * mapping unchanged (test/data/timeloop-v4/README.md has the source and
 * Timeloop's figures): the same cycles, the counts both tools count the same
 * way equal, the energy within 2% (the rest is docs/mapping.md's rules: drains,
 * multicast of sliding windows across columns). */
START_TEST(test_timeloop_v4_eyeriss)
{
	const char *D = "test/data/timeloop-v4/";
	char p[256];
	trim_network *net = NULL;
	trim_workloads *ws = NULL;
	trim_arch *arch = NULL;
	trim_energy *ert = NULL;
	trim_mapping *m = NULL;
	trim_eval *e = NULL;
	size_t i = 0;
	snprintf(p, sizeof p, "%snet.yaml", D);
	ck_assert_int_eq(trim_network_load(&net, p), 0);
	ck_assert_int_eq(trim_workloads_create(&ws, net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_int_eq(trim_workloads_find(ws, "conv", TRIM_PHASE_FW, &i), 0);
	snprintf(p, sizeof p, "%sarch.yaml", D);
	ck_assert_msg(trim_arch_load(&arch, p) == 0, "%s", trim_last_error());
	snprintf(p, sizeof p, "%sERT.yaml", D);
	ck_assert_msg(trim_energy_load(&ert, p) == 0, "%s", trim_last_error());
	snprintf(p, sizeof p, "%smap.yaml", D);
	ck_assert_msg(trim_mapping_load(&m, arch, p) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_eval_mapping(&e, ws, i, arch, ert, m) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_eval_macs(e), 10838016);
	ck_assert_double_eq(trim_eval_cycles(e), 86016);
	double tl_pj = 59.28e6, pj = trim_eval_energy_pj(e);
	ck_assert_msg(fabs(pj / tl_pj - 1) < 0.02, "energy %.6g pJ, Timeloop %.6g", pj, tl_pj);
	trim__activity a;
	trim__act_ws aws;
	memset(&aws, 0, sizeof aws);
	ck_assert(trim__activity_compute(trim__workloads_intra(ws, i), arch, m, &aws, &a) == 0);
	trim__act_ws_free(&aws);
	enum { DRAM = 0, GLB = 1, IF = 4, WT = 5, PS = 6 };
	ck_assert_int_eq(a.reads[DRAM][1], 13824);
	ck_assert_int_eq(a.updates[DRAM][2], 401408);
	ck_assert_int_eq(a.updates[GLB][2], 401408);
	ck_assert_int_eq(a.reads[IF][0], 86016 * 126);
	ck_assert_int_eq(a.fills[IF][0], 10752 * 126);
	ck_assert_int_eq(a.reads[WT][1], 86016 * 126);
	ck_assert_int_eq(a.fills[WT][1], 1536 * 126);
	ck_assert_int_eq(a.reads[PS][2], 57344 * 126);
	ck_assert_int_eq(a.updates[PS][2], 86016 * 126);
	/* the two differences (docs/mapping.md): windows overlapping across the 14
	 * columns read once (Timeloop 1,354,752), drains of the partial sums */
	ck_assert_int_eq(a.reads[GLB][0], 935424);
	ck_assert_int_eq(a.drains[PS][2], 3612672);
	/* Timeloop's energy rebuilt from these counts with Timeloop's rule in
	 * place of libtrim's wherever they differ (docs/mapping.md, "Differences
	 * from Timeloop's counting", each measured here): every component lands on
	 * Timeloop's fJ/compute to its 2 printed decimals. ERT action energies per
	 * block (DRAM, GLB: 8 words; ifmap and weights spads: 2; psum_spad: 1). */
	const double C = 86016, N = 10838016, used = (double)a.instances[PS];
	ck_assert_int_eq(a.instances[PS], 126);
	ck_assert_int_eq(a.tile[GLB][0], 9831);
	/* rule 1/5: no multicast of inputs at all (the columns' tiles are not
	 * identical, the PEs' in a column disjoint): GLB reads = the spads' fills */
	const double tl_glb_in = (double)a.fills[IF][0];
	/* rule 4: no window saving between DRAM steps: 16 (P8 x Q2) whole tiles */
	const double tl_dram_in = 16.0 * (double)a.tile[GLB][0];
	/* rule 3: no drains charged (psum_spad's nor the GLB's); rule 6: leakage
	 * over the used instances only, none for the MACs */
	const double tl_fj[6] = {
		N * 0.207692,
		(double)a.reads[PS][2] * 0.2513 + (double)a.updates[PS][2] * 0.2191 + used * C * 0.000134,
		((double)a.reads[WT][1] * 1.976602 + (double)a.fills[WT][1] * 1.881657) / 2 + used * C * 0.001592,
		((double)a.reads[IF][0] * 0.202442 + (double)a.fills[IF][0] * 0.176713) / 2 + used * C * 0.000101,
		(tl_glb_in * 18.183829 + (tl_dram_in + (double)a.updates[GLB][2]) * 14.137929) / 8 + C * 0.005652,
		(tl_dram_in + (double)a.reads[DRAM][1] + (double)a.updates[DRAM][2]) * 512.0 / 8,
	};
	const double tl_printed[6] = {207.69, 386.77, 1006.69, 112.37, 375.27, 3380.86};
	double tl_sum = 0;
	for (int k = 0; k < 6; k++) {
		double fj = tl_fj[k] / N * 1000;
		ck_assert_msg(fabs(fj - tl_printed[k]) < 0.006, "component %d: %.4f fJ/compute, Timeloop %.2f", k, fj,
		              tl_printed[k]);
		tl_sum += tl_fj[k];
	}
	ck_assert_msg(fabs(tl_sum / tl_pj - 1) < 1e-4, "rebuilt %.7g pJ, Timeloop %.7g", tl_sum, tl_pj);
	/* a container's directives say nothing, or are refused */
	trim_mapping *bad = NULL;
	ck_assert_int_eq(trim_mapping_load_string(&bad, arch,
	                                          "mapping:\n  - {target: inter_PE_spatial, type: temporal, factors: C3}\n",
	                                          "tl-map.yaml"),
	                 TRIM_ESCHEMA);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "only factors of 1"));
	ck_assert_int_eq(trim_mapping_load_string(&bad, arch,
	                                          "mapping:\n  - {target: inter_PE_spatial, type: datatype, keep: [Inputs]}\n",
	                                          "tl-map.yaml"),
	                 TRIM_ESCHEMA);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "tl-map.yaml:2:"));
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "not a storage level: it keeps nothing"));
	trim_eval_free(e);
	trim_mapping_free(m);
	trim_energy_free(ert);
	trim_arch_free(arch);
	trim_workloads_free(ws);
	trim_network_free(net);
}
END_TEST

Suite *mapping_timeloop_suite(void)
{
	Suite *s = suite_create("mapping_timeloop");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_timeloop_v4_eyeriss);
	tcase_add_test(tc, test_timeloop_mapper_output);
	tcase_add_test(tc, test_timeloop_export_roundtrip);
	tcase_add_test(tc, test_timeloop_export_cli);
	tcase_add_test(tc, test_timeloop_differences);
	suite_add_tcase(s, tc);
	return s;
}
