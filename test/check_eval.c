/*
 * The evaluator on TRIM's Fig. 6 (b) mapping with round-number costs:
 * cycles per level, bottleneck, energy per level / tensor / action, static
 * energy, utilisation. Expected values are derived by hand from the counts
 * asserted in check_activity.c.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "energy/energy_int.h"
#include "eval/eval_int.h"
#include "report/report_int.h"
#include "trim.h"
#include "tcase_util.h"

enum { DRAM = 0, GLB = 1, NOC = 2, RF = 3, MACL = 4 };

static void setup(struct trim_arch *a, trim__intra *w, trim__mapping *m, trim__level_cost *c)
{
	tu_arch_init(a, "fig6");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = 1;
	d->write_bw = 1;
	trim__level *g = tu_storage(a, "GLB", 1024, 16);
	g->read_bw = 4;
	g->write_bw = 4;
	tu_spatial(a, "NoC", 4, 4, 1, 1); /* 16 PEs, 8 used */
	a->lv[NOC].link_bits = 32;         /* 2 words per cycle */
	tu_storage(a, "RF", 64, 16);
	trim__level *mac = tu_compute(a, "MAC");
	mac->zero_gate = 1;
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 16, 32, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	trim__mapping_init(m, a);
	m->f[DRAM][TRIM_DIM_M] = 4;
	ck_assert_int_eq(trim__mapping_set_order_str(m, DRAM, "MC"), 0);
	m->f[GLB][TRIM_DIM_M] = 2;
	m->f[GLB][TRIM_DIM_C] = 2;
	ck_assert_int_eq(trim__mapping_set_order_str(m, GLB, "MC"), 0);
	m->f[NOC][TRIM_DIM_M] = m->fx[NOC][TRIM_DIM_M] = 4;
	m->f[NOC][TRIM_DIM_C] = m->fy[NOC][TRIM_DIM_C] = 2;
	m->f[RF][TRIM_DIM_C] = 4;
	memset(c, 0, 5 * sizeof *c);
	c[DRAM] = (trim__level_cost){.read_pj = 100, .write_pj = 110, .update_pj = 120};
	c[GLB] = (trim__level_cost){.read_pj = 6, .write_pj = 7, .update_pj = 8, .leak_pj_per_cycle = 0.25};
	c[NOC] = (trim__level_cost){.hop_pj = 2, .avg_hops = 1.5};
	c[RF] = (trim__level_cost){.read_pj = 1, .write_pj = 1.5, .update_pj = 2, .leak_pj_per_cycle = 0.125};
	c[MACL] = (trim__level_cost){.mac_pj = 3, .gated_mac_pj = 0.5};
}

START_TEST(test_eval_fig6b)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	trim__level_cost c[5];
	trim__eval_ws ws = {0};
	trim__eval e;
	setup(&a, &w, &m, c);
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	/* DRAM reads: input 16 + weight 512 (+ 0 partial sums); writes: 32 updates */
	ck_assert(e.level_cycles[DRAM] == 528);
	/* GLB: reads in 128 + wt 512 + drains 32 (to DRAM) = 672; writes: fills 16 + 512
	 * + updates 32 = 560; 4 words/cycle */
	ck_assert(e.level_cycles[GLB] == 672.0 / 4);
	/* NoC: words in 128 + 512 (weights unicast) + 32 up = 672 at 2 words/cycle */
	ck_assert_msg(e.level_cycles[NOC] == 336, "%g", e.level_cycles[NOC]);
	/* compute: 512 MACs on 8 PEs */
	ck_assert(e.level_cycles[MACL] == 64);
	ck_assert(e.cycles == 528);
	ck_assert_int_eq(e.bottleneck, DRAM);
	/* energy per level and tensor */
	ck_assert(e.dyn_pj[DRAM][1] == 512 * 100);
	ck_assert(e.dyn_pj[DRAM][2] == 32 * 120);
	ck_assert(e.dyn_pj[GLB][0] == 128 * 6 + 16 * 7);
	ck_assert(e.dyn_pj[GLB][2] == 32 * 8 + 32 * 6); /* updates in, drains out */
	ck_assert(e.dyn_pj[NOC][0] == 128 * 2 * 1.5);    /* a bus: one traversal per multicast word */
	ck_assert(e.dyn_pj[NOC][2] == 64 * 2 * 1.5);     /* partial sums entering */
	ck_assert(e.dyn_pj[RF][0] == 512 * 1 + 512 * 1.5);
	ck_assert(e.mac_pj == 512 * 3);
	/* leakage of every physical instance over the run */
	ck_assert(e.static_pj[GLB] == 0.25 * 528);
	ck_assert(e.static_pj[RF] == 0.125 * 16 * 528);
	double sum = 0;
	for (int l = 0; l < 5; l++) {
		sum += e.static_pj[l];
		for (int t = 0; t < 3; t++)
			sum += e.dyn_pj[l][t];
	}
	ck_assert(fabs(sum - e.energy_pj) < 1e-9 * sum);
	/* utilisation: 8 of 16 PEs; GLB tiles 16 + 128 + 8 words = 304 of 1024 bytes;
	 * RF tiles 4 + 4 + 1 words = 18 of 64 bytes */
	ck_assert(e.pe_util == 0.5);
	ck_assert_int_eq(e.cap_bytes[GLB], 304);
	ck_assert(e.cap_util[GLB] == 304.0 / 1024);
	ck_assert(e.cap_util[RF] == 18.0 / 64);
	/* on a mesh every destination pays its hops */
	a.lv[NOC].net = TRIM__NET_MESH;
	trim__eval em;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &em), 0);
	ck_assert(em.dyn_pj[NOC][0] == 512 * 2 * 1.5);
	ck_assert(em.dyn_pj[NOC][2] == 64 * 2 * 1.5);
	a.lv[NOC].net = TRIM__NET_BUS;
	trim__sb sb;
	trim__sb_init(&sb);
	trim__eval_json(&e, &a, &m, &sb);
	ck_assert_ptr_nonnull(strstr(sb.buf, "\"bottleneck\": \"DRAM\""));
	ck_assert_ptr_nonnull(strstr(sb.buf, "\"pe_utilization\": 0.5"));
	trim__sb_free(&sb);
	trim__eval_ws_free(&ws);
}
END_TEST

/* The breakdown of the Fig. 6 (b) evaluation: every count is the activity
 * analyst's, every energy is the count times its action's cost, and with
 * these round (dyadic) costs the entries add up to the evaluator's energy
 * exactly, level by level and in all. */
START_TEST(test_eval_breakdown)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	trim__level_cost c[5];
	trim__eval_ws ws = {0};
	trim__eval e;
	setup(&a, &w, &m, c);
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	double count[TRIM__BD_SIZE(5)], energy[TRIM__BD_SIZE(5)];
	trim__wview v = {&w, &m, &e, NULL};
	trim__breakdown(&v, &a, c, count, energy);
	const trim__activity *x = &e.act;
	for (int t = 0; t < 3; t++) {
		for (int l = 0; l < 5; l++) {
			if (a.lv[l].type != TRIM__LVL_STORAGE)
				continue;
			ck_assert(count[TRIM__BD_AT(l, t, TRIM_ACT_READS)] == (double)x->reads[l][t]);
			ck_assert(count[TRIM__BD_AT(l, t, TRIM_ACT_FILLS)] == (double)x->fills[l][t]);
			ck_assert(count[TRIM__BD_AT(l, t, TRIM_ACT_UPDATES)] == (double)x->updates[l][t]);
			ck_assert(count[TRIM__BD_AT(l, t, TRIM_ACT_DRAINS)] == (double)x->drains[l][t]);
			ck_assert(energy[TRIM__BD_AT(l, t, TRIM_ACT_DRAINS)] == (double)x->drains[l][t] * c[l].read_pj);
		}
		ck_assert(count[TRIM__BD_AT(NOC, t, TRIM_ACT_UNICAST)] == (double)x->unicast[NOC][t]);
		ck_assert(count[TRIM__BD_AT(NOC, t, TRIM_ACT_MULTICAST)] == (double)x->mcast[NOC][t]);
		ck_assert(count[TRIM__BD_AT(NOC, t, TRIM_ACT_REDUCTIONS)] == (double)x->reductions[NOC][t]);
	}
	/* hand-worked: GLB output = 32 updates x 8 pJ + 32 drains x 6 pJ; inputs are
	 * multicast on the bus (128 words, one traversal each at 2 pJ x 1.5 hops) */
	ck_assert(energy[TRIM__BD_AT(GLB, 2, TRIM_ACT_UPDATES)] == 32 * 8);
	ck_assert(energy[TRIM__BD_AT(GLB, 2, TRIM_ACT_DRAINS)] == 32 * 6);
	ck_assert(energy[TRIM__BD_AT(NOC, 0, TRIM_ACT_UNICAST)] + energy[TRIM__BD_AT(NOC, 0, TRIM_ACT_MULTICAST)] ==
	          128 * 2 * 1.5);
	ck_assert(count[TRIM__BD_AT(MACL, 0, TRIM_ACT_MACS)] == 512);
	ck_assert(energy[TRIM__BD_AT(MACL, 0, TRIM_ACT_MACS)] == 512 * 3);
	ck_assert(count[TRIM__BD_AT(RF, 0, TRIM_ACT_STATIC)] == 528);
	ck_assert(energy[TRIM__BD_AT(RF, 0, TRIM_ACT_STATIC)] == 0.125 * 16 * 528);
	double level[5], sum = 0;
	trim__breakdown_levels(&a, energy, level);
	for (int l = 0; l < 5; l++) {
		double want = e.static_pj[l] + e.dyn_pj[l][0] + e.dyn_pj[l][1] + e.dyn_pj[l][2];
		ck_assert_msg(level[l] == want, "level %d: %.17g != %.17g", l, level[l], want);
		sum += level[l];
	}
	ck_assert_msg(sum == e.energy_pj, "%.17g != %.17g", sum, e.energy_pj);
	/* on a mesh every multicast destination pays */
	a.lv[NOC].net = TRIM__NET_MESH;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	trim__breakdown(&v, &a, c, count, energy);
	ck_assert(energy[TRIM__BD_AT(NOC, 0, TRIM_ACT_UNICAST)] + energy[TRIM__BD_AT(NOC, 0, TRIM_ACT_MULTICAST)] ==
	          512 * 2 * 1.5);
	/* temporal utilisation: 512 MACs / (16 PEs x 528 cycles); DRAM bounds the
	 * time while compute is busy 64 of 528 cycles */
	ck_assert(trim__wview_temporal_util(&v, &a) == 512.0 / (16 * 528));
	ck_assert(trim__wview_compute_cycles(&v, &a) == 64);
	ck_assert_int_eq(trim__wview_bottleneck(&v, &a), DRAM);
	trim__warnings ws2;
	const char *names[1] = {"fc FW"};
	ck_assert_int_eq(trim__warnings_make(&ws2, &v, names, 1, &a), 0);
	ck_assert_int_eq(ws2.n, 2);
	ck_assert_str_eq(ws2.items[0].kind, "idle_compute");
	ck_assert_str_eq(ws2.items[0].level, "DRAM");
	ck_assert_msg(strstr(ws2.items[0].message, "compute is busy less than 50%") &&
	              strstr(ws2.items[0].message, "(fc FW: 12%)"), "%s", ws2.items[0].message);
	ck_assert_str_eq(ws2.items[1].kind, "low_utilization");
	trim__warnings_free(&ws2);
	/* a 16-bit link into 16 PEs that bounds the time: a starved link */
	a.lv[NOC].link_bits = 16;
	a.lv[DRAM].read_bw = a.lv[DRAM].write_bw = 0;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	ck_assert_int_eq(trim__wview_bottleneck(&v, &a), NOC);
	ck_assert_int_eq(trim__warnings_make(&ws2, &v, names, 1, &a), 0);
	ck_assert_int_ge(ws2.n, 1);
	ck_assert_msg(!strcmp(ws2.items[0].kind, "starved_link"), "%s", ws2.items[0].message);
	ck_assert_msg(strstr(ws2.items[0].message, "a 16-bit link carries 1 word per cycle into 16 children"), "%s",
	              ws2.items[0].message);
	trim__warnings_free(&ws2);
	/* a wide enough link and a compute-bound design: no warning */
	a.lv[NOC].link_bits = 16 * 64;
	a.lv[GLB].read_bw = a.lv[GLB].write_bw = 0;
	m.f[NOC][TRIM_DIM_M] = m.fx[NOC][TRIM_DIM_M] = 4;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	ck_assert_int_eq(trim__wview_bottleneck(&v, &a), MACL);
	ck_assert_int_eq(trim__warnings_make(&ws2, &v, names, 1, &a), 0);
	ck_assert(trim__wview_temporal_util(&v, &a) == 0.5); /* 8 of 16 PEs busy every cycle */
	ck_assert_int_eq(ws2.n, 0);
	trim__warnings_free(&ws2);
	trim__eval_ws_free(&ws);
}
END_TEST

/* Zero-gated MACs cost the gating energy; zero skipping saves cycles. */
START_TEST(test_eval_zero_gate)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	trim__level_cost c[5];
	trim__eval_ws ws = {0};
	trim__eval e;
	setup(&a, &w, &m, c);
	/* 3x3 conv, 4x4 input, padding 1: 16 outputs x 9 taps, 4*9 + ... zeros */
	ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 4, 4, 3, 3, 1, 1, 1), 0);
	trim__mapping_init(&m, &a);
	for (int d = 0; d < TRIM_NDIMS; d++)
		m.f[DRAM][d] = w.bound[d];
	ck_assert_int_eq(trim__mapping_check_shape(&m, &w, &a), 0);
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	/* per axis: 4 outputs x 3 taps = 12 pairs, 2 of them on padding -> 10 real;
	 * nonzero = 10 * 10 = 100 of 144 */
	ck_assert_int_eq(e.act.macs, 144);
	ck_assert_int_eq(e.act.zero_macs, 44);
	ck_assert(e.mac_pj == 100 * 3 + 44 * 0.5);
	ck_assert(e.level_cycles[MACL] == 144);
	a.lv[MACL].zero_skip = 1;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	ck_assert(e.level_cycles[MACL] == 100);
	a.lv[MACL].zero_gate = 0;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	ck_assert(e.mac_pj == 144 * 3);
	trim__eval_ws_free(&ws);
}
END_TEST


/* ---- the public API and `trim eval` on shipped models --------------------- */

static char *capture(const char *args, int *status)
{
	return tu_capture(args, 1, status);
}

#define EVAL_ARGS "eval models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 --phase FW "

START_TEST(test_eval_cli)
{
	int st;
	char *own = capture(EVAL_ARGS "--mapping test/data/mapping/eyeriss-conv1.yaml --format json", &st);
	ck_assert_msg(st == 0, "%s", own);
	char *tl = capture(EVAL_ARGS "--mapping test/data/mapping/eyeriss-conv1-timeloop.yaml --format json", &st);
	ck_assert_msg(st == 0, "%s", tl);
	/* the Timeloop form of the same mapping gives the same report */
	ck_assert_str_eq(own, tl);
	ck_assert_ptr_nonnull(strstr(own, "\"macs\": 442368"));
	ck_assert_ptr_nonnull(strstr(own, "\"zero_macs\": 18240"));
	ck_assert_ptr_nonnull(strstr(own, "\"active_pes\": 96"));
	free(own);
	free(tl);
	char *tab = capture(EVAL_ARGS "--mapping test/data/mapping/eyeriss-conv1.yaml", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(tab, "parallel_for r2 in [0:3)  # X 1, Y 3"));
	ck_assert_ptr_nonnull(strstr(tab, "bottleneck"));
	free(tab);
	/* a mapping for another layer does not multiply to conv2's bounds */
	char *bad = capture("eval models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv2 "
	                    "--phase FW --mapping test/data/mapping/eyeriss-conv1.yaml", &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(bad, "bounds of M multiply to 64") != NULL, "%s", bad);
	free(bad);
	bad = capture(EVAL_ARGS "--mapping test/data/mapping/no-such.yaml", &st);
	ck_assert_int_eq(st, 2);
	free(bad);
	bad = capture(EVAL_ARGS, &st);
	ck_assert_int_eq(st, 2);
	free(bad);
}
END_TEST

/* An imperfect factorisation read in both forms (AlexNet conv1, E = 55 as 4
 * passes of 14 columns): the same report, the real and the padded work. */
START_TEST(test_eval_ragged_cli)
{
	int st;
#define RAGGED_ARGS "eval models/networks/alexnet.yaml models/arch/eyeriss.yaml --layer conv1 --phase FW "
	char *own = capture(RAGGED_ARGS "--mapping test/data/mapping/eyeriss-alexnet-conv1-ragged.yaml --format json", &st);
	ck_assert_msg(st == 0, "%s", own);
	char *tl = capture(RAGGED_ARGS "--mapping test/data/mapping/eyeriss-alexnet-conv1-ragged-timeloop.yaml --format json", &st);
	ck_assert_msg(st == 0, "%s", tl);
	ck_assert_str_eq(own, tl);
	/* 96 x 3 x 55 x 55 x 11 x 11 real MACs; padded E = 56 */
	ck_assert_ptr_nonnull(strstr(own, "\"macs\": 105415200"));
	ck_assert_ptr_nonnull(strstr(own, "\"padded_macs\": 107331840"));
	/* 24 x 4 x 55 (DRAM) x 3 (GLB) x 44 (RF) steps, all executed */
	ck_assert_ptr_nonnull(strstr(own, "\"steps\": 696960"));
	ck_assert_ptr_nonnull(strstr(own, "\"active_pes\": 154"));
	/* 154 of 168 PEs occupied, 105415200 / (696960 x 168) doing real work */
	ck_assert_ptr_nonnull(strstr(own, "\"pe_utilization\": 0.91666666666666663"));
	ck_assert_ptr_nonnull(strstr(own, "\"pe_utilization_real\": 0.90029761904761907"));
	free(own);
	free(tl);
	char *tab = capture(RAGGED_ARGS "--mapping test/data/mapping/eyeriss-alexnet-conv1-ragged.yaml", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(tab, "imperfect factorisation: padded MACs 107331840 (1.786% wasted on ragged tiles), "
	                          "steps 696960") != NULL, "%s", tab);
	free(tab);
	/* exported to Timeloop's form, marked, and read back to the same report */
	char *ex = capture(RAGGED_ARGS "--mapping test/data/mapping/eyeriss-alexnet-conv1-ragged.yaml "
	                   "--export-timeloop build-ragged-export.yaml", &st);
	ck_assert_msg(st == 0, "%s", ex);
	free(ex);
	char *back = capture(RAGGED_ARGS "--mapping build-ragged-export.yaml --format json", &st);
	ck_assert_msg(st == 0, "%s", back);
	FILE *xf = fopen("build-ragged-export.yaml", "r");
	ck_assert_ptr_nonnull(xf);
	char head[4096] = "";
	size_t nh = fread(head, 1, sizeof head - 1, xf);
	head[nh] = 0;
	fclose(xf);
	remove("build-ragged-export.yaml");
	ck_assert_msg(strstr(head, "# An imperfect factorisation") && strstr(head, "factors: C1 M24 R1 S1 N1 P4 Q55") &&
	                  strstr(head, "factors: C1 M1 R11 S1 N1 P14,13 Q1"), "%s", head);
	own = capture(RAGGED_ARGS "--mapping test/data/mapping/eyeriss-alexnet-conv1-ragged.yaml --format json", &st);
	ck_assert_str_eq(back, own);
	free(back);
	/* Timeloop's residuals must cover the bound (1 + 3 x 14 + 11 = 54 does
	 * not), a comma must have its residual; without residuals the factors alone are read as libtrim's
	 * imperfect factorisation */
	static const char *const tl_variants[][2] = {
		{"P14,12", "the residuals of E (Timeloop's D=bound,residual) cover 54, the workload bound is 55"},
		{"P14,15", "the residual (after the comma) must be an integer from 1 to the bound 14"},
		{"P14,", "bad factor 'P14,': nothing after the comma"},
		{"P14,x", "bad factor 'P14,': nothing after the comma"},
		{"P14", NULL}};
	for (int k = 0; k < 5; k++) {
		FILE *in = fopen("test/data/mapping/eyeriss-alexnet-conv1-ragged-timeloop.yaml", "r"),
		     *outf = fopen("build-ragged-variant.yaml", "w");
		ck_assert(in && outf);
		char line[512];
		while (fgets(line, sizeof line, in)) {
			char *at = strstr(line, "P14,13");
			if (at && line[0] == ' ')
				fprintf(outf, "%.*s%s%s", (int)(at - line), line, tl_variants[k][0], at + 6);
			else
				fputs(line, outf);
		}
		fclose(in);
		fclose(outf);
		char *v = capture(RAGGED_ARGS "--mapping build-ragged-variant.yaml --format json", &st);
		remove("build-ragged-variant.yaml");
		if (tl_variants[k][1]) {
			ck_assert_int_eq(st, 2);
			ck_assert_msg(strstr(v, tl_variants[k][1]) != NULL, "%s", v);
		} else {
			ck_assert_msg(st == 0, "%s", v);
			ck_assert_str_eq(v, own);
		}
		free(v);
	}
	free(own);
	/* the ragged dim split over X and Y (7 x 2 columns of the 13 busy of the
	 * last pass): Timeloop's two fan-outs, X outside Y, with residuals 7 (not
	 * written) and 1: 1 + 3 x 14 + 6 x 2 + 0 = 55; read back the same */
	FILE *xy = fopen("build-ragged-xy.yaml", "w");
	ck_assert_ptr_nonnull(xy);
	fputs("mapping:\n  - level: DRAM\n    temporal: {M: 24, E: 4, F: 55}\n  - level: GLB\n    temporal: {C: 3, R: 11}\n"
	      "  - level: PE array\n    spatial_x: {E: 7}\n    spatial_y: {E: 2}\n  - level: RF\n    temporal: {M: 4, S: 11}\n",
	      xy);
	fclose(xy);
	char *xo = capture(RAGGED_ARGS "--mapping build-ragged-xy.yaml --format json", &st);
	ck_assert_msg(st == 0, "%s", xo);
	char *xe = capture(RAGGED_ARGS "--mapping build-ragged-xy.yaml --export-timeloop build-ragged-xy-tl.yaml", &st);
	ck_assert_msg(st == 0, "%s", xe);
	free(xe);
	xe = capture(RAGGED_ARGS "--mapping build-ragged-xy-tl.yaml --format json", &st);
	ck_assert_msg(st == 0, "%s", xe);
	ck_assert_str_eq(xe, xo);
	free(xe);
	free(xo);
	xy = fopen("build-ragged-xy-tl.yaml", "r");
	ck_assert_ptr_nonnull(xy);
	nh = fread(head, 1, sizeof head - 1, xy);
	head[nh] = 0;
	fclose(xy);
	remove("build-ragged-xy.yaml");
	remove("build-ragged-xy-tl.yaml");
	ck_assert_msg(strstr(head, "factors: C1 M1 R1 S1 N1 P7 Q1") && strstr(head, "factors: C1 M1 R1 S1 N1 P2,1 Q1"), "%s",
	              head);
	/* a perfect mapping prints no such line and pads nothing */
	tab = capture(EVAL_ARGS "--mapping test/data/mapping/eyeriss-conv1.yaml --format json", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(tab, "\"padded_macs\": 442368"));
	free(tab);
	/* E = 5 x 14 leaves the fifth pass empty: refused, with where and why */
	FILE *f = fopen("build-ragged-bad.yaml", "w");
	ck_assert_ptr_nonnull(f);
	fputs("mapping:\n  - level: DRAM\n    temporal: {M: 24, E: 5, F: 55}\n  - level: GLB\n    temporal: {C: 3}\n"
	      "  - level: PE array\n    spatial_x: {E: 14}\n    spatial_y: {R: 11}\n  - level: RF\n"
	      "    temporal: {M: 4, S: 11}\n", f);
	fclose(f);
	char *bad = capture(RAGGED_ARGS "--mapping build-ragged-bad.yaml", &st);
	remove("build-ragged-bad.yaml");
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(bad, "build-ragged-bad.yaml:2:5") && strstr(bad, "bounds of E multiply to 70") &&
	                  strstr(bad, "(bound 5, tiles of 14) would be empty"), "%s", bad);
	free(bad);
#undef RAGGED_ARGS
}
END_TEST

START_TEST(test_eval_api)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_mapping *m = NULL;
	trim_eval *e = NULL;
	size_t idx;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet-cifar.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv1", TRIM_PHASE_FW, &idx), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	ck_assert_int_eq(trim_mapping_load(&m, a, "test/data/mapping/eyeriss-conv1.yaml"), 0);
	ck_assert_int_eq(trim_mapping_check(m, w, idx, a), 0);
	size_t conv2;
	ck_assert_int_eq(trim_workloads_find(w, "conv2", TRIM_PHASE_FW, &conv2), 0);
	ck_assert_int_eq(trim_mapping_check(m, w, conv2, a), TRIM_ESHAPE);
	ck_assert_int_eq(trim_mapping_check(m, w, 999, a), TRIM_ENOTFOUND);
	ck_assert_msg(trim_eval_mapping(&e, w, idx, a, NULL, m) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_eval_macs(e), 442368);
	ck_assert(trim_eval_cycles(e) > 442368.0 / 168);
	ck_assert(trim_eval_energy_pj(e) > 0);
	ck_assert(fabs(trim_eval_edp(e) - trim_eval_cycles(e) * trim_eval_energy_pj(e)) < 1e-6 * trim_eval_edp(e));
	ck_assert(fabs(trim_eval_pe_utilization(e) - 96.0 / 168) < 1e-12);
	ck_assert_ptr_nonnull(trim_eval_bottleneck(e));
	/* a perfect factorisation: no padding, no idle PEs */
	ck_assert_int_eq(trim_eval_padded_macs(e), 442368);
	ck_assert(trim_eval_pe_utilization_real(e) == trim_eval_pe_utilization(e));
	ck_assert_int_eq(trim_eval_padded_macs(NULL), -1);
	trim_eval_free(e);
	e = NULL;
	/* E = 16 over 14 columns in 2 passes (14, 2): the padded and the real work */
	trim_mapping *rg = NULL;
	ck_assert_int_eq(trim_mapping_load_string(&rg, a,
	                 "mapping:\n  - level: DRAM\n    temporal: {M: 4}\n  - level: GLB\n"
	                 "    temporal: {C: 3, E: 2, F: 16}\n  - level: PE array\n    spatial_x: {E: 14}\n"
	                 "    spatial_y: {R: 3, M: 4}\n  - level: RF\n    temporal: {M: 4, S: 3}\n", "rg.yaml"), 0);
	ck_assert_msg(trim_eval_mapping(&e, w, idx, a, NULL, rg) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_eval_macs(e), 442368);
	ck_assert_int_eq(trim_eval_padded_macs(e), 442368 / 16 * 28);
	ck_assert(fabs(trim_eval_pe_utilization(e) - 168.0 / 168) < 1e-12);
	/* 4 x 3 x 2 x 16 x 12 steps, 442368 MACs over them on 168 PEs */
	ck_assert(fabs(trim_eval_pe_utilization_real(e) - 442368.0 / (4 * 3 * 2 * 16 * 12 * 168.0)) < 1e-12);
	ck_assert(trim_eval_cycles(e) >= 4 * 3 * 2 * 16 * 12);
	trim_eval_free(e);
	e = NULL;
	trim_mapping_free(rg);
	/* shrink the RF weight spad: the same mapping no longer fits */
	trim_mapping_free(m);
	m = NULL;
	ck_assert_int_eq(trim_mapping_load_string(&m, a,
	                 "mapping:\n  - level: DRAM\n    temporal: {M: 4}\n  - level: GLB\n"
	                 "    temporal: {C: 3, E: 2, F: 16}\n  - level: PE array\n    spatial_x: {E: 8}\n"
	                 "    spatial_y: {R: 3, M: 4}\n  - level: RF\n    temporal: {M: 4, S: 3, F: 1}\n"
	                 "    order: FMS\n", "m.yaml"), 0);
	ck_assert_int_eq(trim_eval_mapping(&e, w, idx, a, NULL, m), 0);
	trim_eval_free(e);
	e = NULL;
	ck_assert_int_eq(trim_mapping_set_temporal(m, 3, TRIM_DIM_C, 3), 0);
	ck_assert_int_eq(trim_mapping_set_temporal(m, 1, TRIM_DIM_C, 1), 0);
	/* RF input tile: 3 channels x 1 row x 3 columns = 9 entries fit the 12 of
	 * the ifmap spad; weights 4 x 3 x 3 = 36 <= 224; still fits */
	ck_assert_msg(trim_eval_mapping(&e, w, idx, a, NULL, m) == 0, "%s", trim_last_error());
	trim_eval_free(e);
	e = NULL;
	ck_assert_int_eq(trim_mapping_set_temporal(m, 3, TRIM_DIM_F, 2), 0);
	ck_assert_int_eq(trim_mapping_set_temporal(m, 1, TRIM_DIM_F, 8), 0);
	/* 3 channels x 1 x (2 f at stride 2 + 3 taps: 5 columns) = 15 > 12 entries */
	int rc = trim_eval_mapping(&e, w, idx, a, NULL, m);
	ck_assert_msg(rc == TRIM_ENOFIT, "rc %d: %s", rc, trim_last_error());
	ck_assert_msg(strstr(trim_last_error(), "RF: the input tile needs 30 bytes") != NULL, "%s", trim_last_error());
	ck_assert_ptr_null(e);
	trim_mapping_free(m);
	trim_workloads_free(w);
	/* in training, the mapper sees the buffer minus the cached activations
	 * live while the workload runs (lib/eval/netcost.c's plan) */
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 0, 0), 0);
	int64_t reserved[TRIM__MAX_LEVELS], most = 0;
	for (size_t i = 0; i < trim_workloads_intra_count(w); i++) {
		ck_assert_int_eq(trim__eval_reserved(w, i, a, reserved), 0);
		ck_assert(reserved[1] <= a->lv[1].capacity_bytes / 2);
		for (int l = 0; l < a->nlevels; l++)
			if (l != 1)
				ck_assert_int_eq(reserved[l], 0);
		if (reserved[1] > most)
			most = reserved[1];
	}
	ck_assert_int_gt(most, 0);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* A systolic array's network by hand: 4 x 2 PEs, weight-stationary FC with
 * the 4 filters M along X, the 2 channels C along Y and a batch of 3
 * streaming past. The 8 weights are preloaded unicast, each shifting down
 * its column from the top edge: (Y+1)/2 = 1.5 hops; each of the 6 inputs
 * is forwarded along its row, one hop into each of its 4 PEs (24); each
 * PE passes its partial sum one hop down (24 words up, 12 additions). A
 * mesh of the same shape charges every word (X-1)/2 + (Y-1)/2 = 2 hops. */
START_TEST(test_eval_systolic_hops)
{
	static const char *const yaml =
		"schema_version: 1\nname: sys\nclock_mhz: 100\ntechnology: 65nm\nword_bits: 16\nlevels:\n"
		"  - {name: DRAM, type: storage, class: dram, technology: lpddr4}\n"
		"  - {name: Array, type: spatial, fanout: [4, 2], network: %s}\n"
		"  - {name: PE, type: storage, class: regfile, partition: {input: 4, weight: 4, output: 4}}\n"
		"  - {name: MAC, type: compute, datatype: int16}\n";
	static const char *const map =
		"mapping:\n  - level: Array\n    spatial_x: {M: 4}\n    spatial_y: {C: 2}\n"
		"  - level: PE\n    temporal: {N: 3}\n    keep: [weight]\n";
	trim_energy *t = NULL;
	ck_assert_int_eq(trim_energy_load(&t, "energy_tables/65nm.yaml"), 0);
	trim__intra w;
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 3, 2, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	double net_pj[2][3];
	for (int mesh = 0; mesh < 2; mesh++) {
		char text[1024];
		snprintf(text, sizeof text, yaml, mesh ? "mesh, multicast: true, reduction: true" : "systolic");
		trim_arch *a = NULL;
		trim_mapping *m = NULL;
		ck_assert_msg(trim_arch_load_string(&a, text, "sys.yaml") == 0, "%s", trim_last_error());
		/* a systolic array forwards and reduces by default */
		ck_assert(a->lv[1].multicast && a->lv[1].reduction);
		ck_assert_msg(trim_mapping_load_string(&m, a, map, "m.yaml") == 0, "%s", trim_last_error());
		ck_assert_msg(trim__mapping_check(m, &w, a) == 0, "%s", trim_last_error());
		trim__level_cost c[TRIM__MAX_LEVELS];
		ck_assert_int_eq(trim__arch_costs(a, t, c), 0);
		/* 0.15 pJ/bit + 0.2 pJ/bit/mm x 0.25 mm, 16 bits (energy_tables/65nm.yaml) */
		ck_assert_double_eq_tol(c[1].hop_pj, 3.2, 1e-12);
		ck_assert(c[1].avg_hops == (mesh ? 2.0 : 1.5));
		ck_assert(c[1].fwd_hops == (mesh ? 2.0 : 1.0));
		trim__eval_ws ws = {0};
		trim__eval e;
		ck_assert_int_eq(trim__eval_run(&w, a, c, m, &ws, &e), 0);
		const trim__activity *x = &e.act;
		ck_assert_int_eq(x->unicast[1][1], 8);
		ck_assert_int_eq(x->mcast[1][0], 6);
		ck_assert_int_eq(x->mcast_dests[1][0], 24);
		ck_assert_int_eq(x->up_words[1][2], 24);
		ck_assert_int_eq(x->reductions[1][2], 12);
		for (int s = 0; s < 3; s++)
			net_pj[mesh][s] = e.dyn_pj[1][s];
		trim__eval_ws_free(&ws);
		trim_mapping_free(m);
		trim_arch_free(a);
	}
	/* systolic: 1 hop per forwarded word and per partial sum, 1.5 per preloaded weight */
	ck_assert_double_eq_tol(net_pj[0][0], 24 * 1.0 * 3.2, 1e-9);
	ck_assert_double_eq_tol(net_pj[0][1], 8 * 1.5 * 3.2, 1e-9);
	ck_assert_double_eq_tol(net_pj[0][2], 24 * 1.0 * 3.2, 1e-9);
	/* mesh: 2 hops for every arrival and every word up */
	ck_assert_double_eq_tol(net_pj[1][0], 24 * 2.0 * 3.2, 1e-9);
	ck_assert_double_eq_tol(net_pj[1][1], 8 * 2.0 * 3.2, 1e-9);
	ck_assert_double_eq_tol(net_pj[1][2], 24 * 2.0 * 3.2, 1e-9);
	/* output-stationary on the systolic array: the 4 filters along X, the
	 * batch of 2 along Y, the 3 channels in each PE; each of the 6 inputs
	 * is forwarded to the 4 PEs of its row, each of the 12 weights to the 2
	 * of its column (24 arrivals each), and the 8 results, added nowhere,
	 * shift out down their columns: (Y+1)/2 = 1.5 hops each */
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 2, 3, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	char text[1024];
	snprintf(text, sizeof text, yaml, "systolic");
	trim_arch *a = NULL;
	trim_mapping *m = NULL;
	ck_assert_int_eq(trim_arch_load_string(&a, text, "sys.yaml"), 0);
	ck_assert_msg(trim_mapping_load_string(&m, a, "mapping:\n  - level: Array\n    spatial_x: {M: 4}\n"
	                                       "    spatial_y: {N: 2}\n  - level: PE\n    temporal: {C: 3}\n"
	                                       "    keep: [output]\n", "os.yaml") == 0, "%s", trim_last_error());
	ck_assert_msg(trim__mapping_check(m, &w, a) == 0, "%s", trim_last_error());
	trim__level_cost c[TRIM__MAX_LEVELS];
	ck_assert_int_eq(trim__arch_costs(a, t, c), 0);
	trim__eval_ws ws = {0};
	trim__eval e;
	ck_assert_int_eq(trim__eval_run(&w, a, c, m, &ws, &e), 0);
	ck_assert_int_eq(e.act.mcast_dests[1][0], 24);
	ck_assert_int_eq(e.act.mcast_dests[1][1], 24);
	ck_assert_int_eq(e.act.up_words[1][2], 8);
	ck_assert_int_eq(e.act.reductions[1][2], 0);
	ck_assert_double_eq_tol(e.dyn_pj[1][0], 24 * 3.2, 1e-9);
	ck_assert_double_eq_tol(e.dyn_pj[1][1], 24 * 3.2, 1e-9);
	ck_assert_double_eq_tol(e.dyn_pj[1][2], 8 * 1.5 * 3.2, 1e-9);
	trim__eval_ws_free(&ws);
	trim_mapping_free(m);
	trim_arch_free(a);
	trim_energy_free(t);
}
END_TEST

/* Cycles against SCALE-Sim v2 (test/data/scalesim/scalesim-v2-32x32.csv: its
 * figures, their source and command): every case, on SCALE-Sim's fold order
 * written as a libtrim mapping, within 2%; the array's pipeline binds. Where
 * SCALE-Sim flattens several dims onto one array axis, the layer is given
 * here as its GEMM (im2col) view, N = E F, C = R S C (the same MACs), whose
 * imperfect factorisation cuts the flattened index in 32s; the same layers
 * as convolutions with flattened groups (view "flat") are the flat suite's. SCALE-Sim takes
 * folds x (T + X + Y - 2), plus Y per fold to preload ws's and is's
 * stationary operand; without that libtrim would give folds x T (ws FC: 512
 * cycles against 48,639). */
START_TEST(test_eval_scalesim_cycles)
{
	trim_arch *a = NULL;
	ck_assert_msg(trim_arch_load(&a, "test/data/scalesim/arch-32x32.yaml") == 0, "%s", trim_last_error());
	FILE *f = fopen("test/data/scalesim/scalesim-v2-32x32.csv", "r");
	ck_assert_ptr_nonnull(f);
	char line[512];
	int header = 0, conv = 0, gemm = 0;
	trim__level_cost c[TRIM__MAX_LEVELS];
	memset(c, 0, sizeof c); /* cycles only */
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		if (!header++)
			continue;
		char layer[32], df[8], view[8], file[64];
		long long h, wd, r, s, ch, k, u, cyc, stall;
		ck_assert_int_eq(sscanf(line, "%31[^,],%7[^,],%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%7[^,],%63[^,\n]",
		                        layer, df, &h, &wd, &r, &s, &ch, &k, &u, &cyc, &stall, view, file), 13);
		ck_assert_int_eq(stall, 0);
		if (!strcmp(view, "flat"))
			continue; /* the convolutions with flattened groups: the flat suite */
		/* SCALE-Sim's output size, ceil((H - R + U) / U): a valid convolution
		 * of the smallest input that has it */
		long long E = (h - r + u + u - 1) / u, F = (wd - s + u + u - 1) / u;
		trim__intra w;
		if (strcmp(view, "gemm") == 0) {
			ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, E * F, r * s * ch, k, 1, 1, 1, 1, 1, 1, 1, 0), 0);
			gemm++;
		} else {
			ck_assert_str_eq(view, "conv");
			ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, ch, k, 1, (E - 1) * u + r, (F - 1) * u + s,
			                          r, s, u, 1, 0), 0);
			ck_assert_int_eq(w.bound[TRIM_DIM_E], E);
			ck_assert_int_eq(w.bound[TRIM_DIM_F], F);
			conv++;
		}
		ck_assert_int_eq(w.macs, E * F * r * s * ch * k);
		char path[128];
		snprintf(path, sizeof path, "test/data/scalesim/%s", file);
		trim_mapping *m = NULL;
		ck_assert_msg(trim_mapping_load(&m, a, path) == 0, "%s", trim_last_error());
		ck_assert_msg(trim__mapping_check(m, &w, a) == 0, "%s: %s", path, trim_last_error());
		trim__eval_ws ws = {0};
		trim__eval e;
		ck_assert_int_eq(trim__eval_run(&w, a, c, m, &ws, &e), 0);
		double rel = e.cycles / (double)cyc - 1;
		ck_assert_msg(fabs(rel) <= 0.02, "%s %s: libtrim %.0f cycles, SCALE-Sim %lld (%+.2f%%)", layer, df,
		              e.cycles, cyc, 100 * rel);
		ck_assert_msg(e.bottleneck == 2, "%s %s: bottleneck %d", layer, df, e.bottleneck);
		trim__eval_ws_free(&ws);
		trim_mapping_free(m);
	}
	fclose(f);
	ck_assert_int_eq(conv, 8);
	ck_assert_int_eq(gemm, 7);
	trim_arch_free(a);
}
END_TEST

/* The pipeline by hand on ws GEMM (test/data/scalesim/ws-gemm.yaml): 16 folds
 * of T = 128 steps; each fold fills and drains the 32 x 32 array (62 cycles)
 * and preloads one weight per PE down the 32 rows. A double-buffered weight
 * register loads the next fold's weight while a fold runs (32 <= 128): only
 * the first preload shows. A 1-D array of 32 fills in 31 cycles and shifts
 * the preload along its 32 PEs. */
START_TEST(test_eval_systolic_pipeline)
{
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "test/data/scalesim/arch-32x32.yaml"), 0);
	trim__intra w;
	ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 1, 64, 1, 128, 256, 1, 256, 1, 1, 0), 0);
	trim_mapping *m = NULL;
	ck_assert_int_eq(trim_mapping_load(&m, a, "test/data/scalesim/ws-gemm.yaml"), 0);
	trim__level_cost c[TRIM__MAX_LEVELS];
	memset(c, 0, sizeof c);
	trim__eval_ws ws = {0};
	trim__eval e;
	ck_assert_int_eq(trim__eval_run(&w, a, c, m, &ws, &e), 0);
	ck_assert(e.level_cycles[4] == 16 * 128);
	ck_assert(e.level_cycles[2] == 16 * 128 + 16 * 62 + 16 * 32);
	a->lv[3].double_buffer = 1;
	ck_assert_int_eq(trim__eval_run(&w, a, c, m, &ws, &e), 0);
	ck_assert(e.level_cycles[2] == 16 * 128 + 16 * 62 + 32);
	a->lv[3].double_buffer = 0;
	/* nothing stays in the PEs: every iteration above the array is a fold,
	 * and nothing is preloaded (the pipeline's share; 1024 weights a step
	 * over a 32-word link bind) */
	trim_mapping *none = NULL;
	ck_assert_int_eq(trim_mapping_load_string(&none, a, "mapping:\n  - level: DRAM\n    temporal: {M: 2, S: 8}\n"
	                 "    order: MS\n  - level: Array\n    spatial_x: {M: 32}\n    spatial_y: {S: 32}\n"
	                 "  - level: PE\n    temporal: {E: 128}\n    keep: []\n", "none.yaml"), 0);
	ck_assert_msg(trim__mapping_check(none, &w, a) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim__eval_run(&w, a, c, none, &ws, &e), 0);
	ck_assert(trim__systolic_extra_cycles(&w, a, none, &e.act, 2) == 16 * 62);
	ck_assert(e.level_cycles[2] == 16 * 128 * 32); /* the weights sent every step bind the links */
	trim_mapping_free(none);
	/* streaming loops above the array (E, irrelevant to the weights, inside
	 * M and S) end no fold: the weights stay */
	ck_assert_int_eq(trim_mapping_load_string(&none, a, "mapping:\n  - level: DRAM\n    temporal: {M: 2, S: 8, E: 4}\n"
	                 "    order: MSE\n  - level: Array\n    spatial_x: {M: 32}\n    spatial_y: {S: 32}\n"
	                 "  - level: PE\n    temporal: {E: 32}\n    keep: [weight]\n", "stream.yaml"), 0);
	ck_assert_msg(trim__mapping_check(none, &w, a) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim__eval_run(&w, a, c, none, &ws, &e), 0);
	ck_assert(e.level_cycles[2] == 16 * 128 + 16 * 62 + 16 * 32);
	trim_mapping_free(none);
	/* the same GEMM on a row of 32 PEs: the window S 256 along it */
	trim_mapping_free(m);
	a->lv[2].fanout_x = 32;
	a->lv[2].fanout_y = 1;
	ck_assert_int_eq(trim__arch_finish(a), 0);
	ck_assert_int_eq(trim_mapping_load_string(&m, a, "mapping:\n  - level: DRAM\n    temporal: {M: 64, S: 8}\n"
	                 "    order: MS\n  - level: Array\n    spatial_x: {S: 32}\n  - level: PE\n"
	                 "    temporal: {E: 128}\n    keep: [weight]\n", "row.yaml"), 0);
	ck_assert_msg(trim__mapping_check(m, &w, a) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim__eval_run(&w, a, c, m, &ws, &e), 0);
	ck_assert(e.level_cycles[2] == 512 * 128 + 512 * 31 + 512 * 32);
	/* the other topologies have no pipeline */
	a->lv[2].net = TRIM__NET_MESH;
	ck_assert_int_eq(trim__eval_run(&w, a, c, m, &ws, &e), 0);
	double words[3];
	for (int t = 0; t < 3; t++)
		words[t] = (double)(e.act.down_words[2][t] + e.act.up_out[2][t]);
	ck_assert(e.level_cycles[2] == trim__link_cycles(&a->lv[2], a->word_bits, words, 1));
	trim__eval_ws_free(&ws);
	trim_mapping_free(m);
	trim_arch_free(a);
}
END_TEST

Suite *eval_suite(void)
{
	Suite *s = suite_create("eval");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_eval_fig6b);
	tcase_add_test(tc, test_eval_zero_gate);
	tcase_add_test(tc, test_eval_breakdown);
	tcase_add_test(tc, test_eval_api);
	tcase_add_test(tc, test_eval_cli);
	tcase_add_test(tc, test_eval_ragged_cli);
	tcase_add_test(tc, test_eval_systolic_hops);
	tcase_add_test(tc, test_eval_scalesim_cycles);
	tcase_add_test(tc, test_eval_systolic_pipeline);
	suite_add_tcase(s, tc);
	return s;
}
