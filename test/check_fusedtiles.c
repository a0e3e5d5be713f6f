/*
 * Fused tiles across layers (lib/fusedtiles/, docs/fusion.md "Fused
 * tiles"): a hand-worked fused pair, the fused counts against the
 * reference simulator with the intermediate's home in the buffer, the plan
 * search against brute force at 1, 2 and 3 threads, a chain where fusion must win and one
 * where it must lose, halos, and the errors. The public report and
 * `trim network --fuse`: test/check_fusedtiles_api.c.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fusedtiles/fusedtiles_int.h"
#include "refsim.h"
#include "fusedtiles_util.h"
#include "tcase_util.h"

enum { DRAM = 0, GLB = 1 };


/* DRAM -> GLB of glb bytes -> (NoC nx x 1 if nx > 0) -> MAC, 16-bit words. */
static void arch_glb(struct trim_arch *a, int64_t glb, int64_t nx)
{
	tu_arch_init(a, "glb");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 1;
	trim__level *g = tu_storage(a, "GLB", glb, 16);
	g->read_bw = g->write_bw = 4;
	if (nx > 0)
		tu_spatial(a, "NoC", nx, 1, 1, 1);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
}

/* Every count array of an activity record, by name. */
#define ROWS(X) X(tile) X(fills) X(reads) X(updates) X(drains) X(down_words) X(down_dests) \
	X(unicast) X(mcast) X(mcast_dests) X(up_words) X(up_out) X(reductions)

static int same_counts(const trim__activity *x, const trim__activity *y, int nL, char *msg, size_t n)
{
	if (x->macs != y->macs || x->steps != y->steps || x->active_pes != y->active_pes) {
		snprintf(msg, n, "macs %lld/%lld steps %lld/%lld", (long long)x->macs, (long long)y->macs,
		         (long long)x->steps, (long long)y->steps);
		return 0;
	}
	for (int l = 0; l < nL; l++)
		for (int t = 0; t < 3; t++) {
#define CMP(f)                                                                                          \
	if (x->f[l][t] != y->f[l][t]) {                                                                     \
		snprintf(msg, n, #f "[%d][%d]: fused %lld, simulator %lld", l, t, (long long)x->f[l][t],       \
		         (long long)y->f[l][t]);                                                                \
		return 0;                                                                                       \
	}
			ROWS(CMP)
#undef CMP
		}
	return 1;
}

/* The analytic fused evaluation of m. */
static void fused_eval(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *c,
                       const trim__mapping *m, unsigned fused, trim__eval *std, trim__eval *fu)
{
	trim__eval_ws ws;
	memset(&ws, 0, sizeof ws);
	memset(std, 0, sizeof *std);
	ck_assert_msg(trim__eval_run(w, a, c, m, &ws, std) == 0, "%s", trim_last_error());
	trim__ft_eval_fused(w, a, c, m, GLB, fused, std, fu, NULL);
	trim__eval_ws_free(&ws);
}

/* ---- a hand-worked pair --------------------------------------------------- */

/* fc1: X[4][2] x W1 -> H[4][3]; fc2: H x W2 -> Y[4][2]; the tokens (N) in
 * two tiles of 2; DRAM -> GLB -> MAC, every loop of a tile at the GLB. */
START_TEST(hand_pair)
{
	struct trim_arch a;
	trim__level_cost c[TRIM__MAX_LEVELS];
	trim__intra *w = calloc(4, sizeof *w);
	arch_glb(&a, 1024, 0);
	tu_costs(&a, c);
	trim__ft_chain ch = {2, {&w[0], &w[1]}, {0}, {0}, 0, {0}, 0};
	tu_ft_fc(&w[0], "fc1", 4, 2, 3);
	tu_ft_fc(&w[1], "fc2", 4, 3, 2);
	ck_assert_int_eq(trim__ft_chain_check(&ch), 0);
	trim__ft_axes ax;
	trim__ft_group_axes(&ch, 0, 1, &ax);
	ck_assert_int_eq(ax.naxes, 1); /* the tokens; fc1's M is fc2's reduction C */
	ck_assert_int_eq(ax.dim[0][0], TRIM_DIM_N);
	ck_assert_int_eq(ax.dim[0][1], TRIM_DIM_N);
	int64_t two[1] = {2};
	ck_assert_int_eq(trim__ft_tile_workload(&ch, 0, &ax, two, NULL, 0, &w[2], NULL), 0);
	ck_assert_int_eq(trim__ft_tile_workload(&ch, 0, &ax, two, NULL, 1, &w[3], NULL), 0);
	ck_assert_int_eq(w[2].macs, 12);
	ck_assert_int_eq(w[2].t[2].elems, 6);
	ck_assert_int_eq(w[3].t[0].elems, 6);

	trim__mapping m;
	trim__eval *e = calloc(4, sizeof *e);
	trim__activity *sim = calloc(1, sizeof *sim);
	char msg[256];
	/* fc1's tile: for n < 2, m < 3, c < 2 at the GLB */
	trim__mapping_init(&m, &a);
	m.f[GLB][TRIM_DIM_N] = 2;
	m.f[GLB][TRIM_DIM_M] = 3;
	m.f[GLB][TRIM_DIM_C] = 2;
	ck_assert_msg(trim__mapping_check(&m, &w[2], &a) == 0, "%s", trim_last_error());
	fused_eval(&w[2], &a, c, &m, TRIM__FT_OUT, &e[0], &e[1]);
	const trim__activity *s1 = &e[0].act, *f1 = &e[1].act;
	/* standard: X (4) and W1 (6) read from DRAM once, H (6) written once */
	ck_assert_int_eq(s1->reads[DRAM][0], 4);
	ck_assert_int_eq(s1->reads[DRAM][1], 6);
	ck_assert_int_eq(s1->updates[DRAM][2], 6);
	ck_assert_int_eq(s1->drains[GLB][2], 6);
	/* fused: H stays in the GLB */
	ck_assert_int_eq(f1->reads[DRAM][0], 4);
	ck_assert_int_eq(f1->reads[DRAM][1], 6);
	ck_assert_int_eq(f1->updates[DRAM][2], 0);
	ck_assert_int_eq(f1->drains[GLB][2], 0);
	ck_assert_int_eq(f1->tile[DRAM][2], 0);
	/* the GLB side is unchanged: an operand read per MAC, a partial sum
	 * written per MAC and read back for all but the first of its 2 */
	ck_assert_int_eq(f1->fills[GLB][0], 4);
	ck_assert_int_eq(f1->reads[GLB][0], 12);
	ck_assert_int_eq(f1->reads[GLB][1], 12);
	ck_assert_int_eq(f1->updates[GLB][2], 12);
	ck_assert_int_eq(f1->reads[GLB][2], 6);
	ck_assert_int_eq(e[1].cap_bytes[GLB], (4 + 6 + 6) * 2);
	ck_assert(e[1].energy_pj < e[0].energy_pj);
	/* 6 DRAM writes and 6 GLB drains fewer, at tu_costs' prices (DRAM
	 * update 300 pJ, GLB read 2.5 pJ) and less leakage over fewer cycles */
	ck_assert(e[0].energy_pj - e[1].energy_pj >= 6 * 300 + 6 * 2.5 - 1e-9);
	ck_assert_double_eq(trim__ft_dram_bytes(&a, &e[1]), (4 + 6) * 2);
	int home1[3] = {0, 0, GLB};
	ck_assert_int_eq(refsim_run_home(&w[2], &a, &m, home1, sim), 0);
	ck_assert_msg(same_counts(f1, sim, a.nlevels, msg, sizeof msg), "fc1: %s", msg);

	/* fc2's tile: for n < 2, m < 2, c < 3 */
	trim__mapping_init(&m, &a);
	m.f[GLB][TRIM_DIM_N] = 2;
	m.f[GLB][TRIM_DIM_M] = 2;
	m.f[GLB][TRIM_DIM_C] = 3;
	ck_assert_msg(trim__mapping_check(&m, &w[3], &a) == 0, "%s", trim_last_error());
	fused_eval(&w[3], &a, c, &m, TRIM__FT_IN, &e[2], &e[3]);
	const trim__activity *f2 = &e[3].act;
	ck_assert_int_eq(e[2].act.reads[DRAM][0], 6);
	ck_assert_int_eq(e[2].act.fills[GLB][0], 6);
	ck_assert_int_eq(f2->reads[DRAM][0], 0); /* H is already in the GLB */
	ck_assert_int_eq(f2->fills[GLB][0], 0);
	ck_assert_int_eq(f2->reads[DRAM][1], 6);
	ck_assert_int_eq(f2->updates[DRAM][2], 4);
	ck_assert_int_eq(f2->reads[GLB][0], 12);
	ck_assert_int_eq(f2->reads[GLB][2], 12 - 4);
	ck_assert_int_eq(f2->drains[GLB][2], 4);
	ck_assert_double_eq(trim__ft_dram_bytes(&a, &e[3]), (6 + 4) * 2);
	int home2[3] = {GLB, 0, 0};
	ck_assert_int_eq(refsim_run_home(&w[3], &a, &m, home2, sim), 0);
	ck_assert_msg(same_counts(f2, sim, a.nlevels, msg, sizeof msg), "fc2: %s", msg);

	/* The plan: with DRAM 80 times a GLB access, the pair fused in one
	 * tile: X (8), W1 (6), W2 (6), Y (8) cross DRAM once each, 56 bytes,
	 * against 104 layer by layer (H written and read back: 2 x 12 words
	 * more); the GLB holds X, W1 and H (8 + 6 + 12 words), then H, W2
	 * and Y (12 + 6 + 8). */
	trim__ft_plan *p = calloc(1, sizeof *p);
	ck_assert_msg(trim__ft_plan_search(&ch, &a, c, GLB, TRIM__GOAL_ENERGY, 1, -1, -1, p) == 0, "%s",
	              trim_last_error());
	ck_assert_int_eq(p->ngroups, 1);
	ck_assert_int_eq(p->group[0].ntiles, 1);
	ck_assert_double_eq(p->dram_bytes, 56);
	ck_assert_double_eq(p->lbl_dram_bytes, 104);
	ck_assert_int_eq(p->buffer_bytes, 26 * 2);
	ck_assert(p->cost < p->lbl_cost);
	ck_assert_int_eq(p->exact, 1);
	ck_assert(p->lower_bound == p->cost);
	free(p);
	free(sim);
	free(e);
	free(w);
}
END_TEST

/* ---- the fused counts against the reference simulator -------------------- */

/* Every mapping of the fused space of a middle layer (input and output
 * fused) and of an end layer, on DRAM -> GLB -> NoC 2x1 -> MAC: the
 * analytic counts with the intermediates' home in the GLB equal the
 * simulator's walk with that home. */
START_TEST(counts_match_refsim)
{
	struct trim_arch a;
	trim__level_cost c[TRIM__MAX_LEVELS];
	arch_glb(&a, 64, 2);
	tu_costs(&a, c);
	trim__intra *w = calloc(3, sizeof *w);
	trim__eval *e = calloc(2, sizeof *e);
	trim__activity *sim = calloc(1, sizeof *sim);
	tu_ft_fc(&w[0], "fc2-tile", 2, 3, 2);
	tu_ft_fc(&w[1], "fc1-tile", 2, 2, 3);
	static const unsigned fused_of[2] = {TRIM__FT_IN | TRIM__FT_OUT, TRIM__FT_OUT};
	int64_t compared = 0;
	for (int k = 0; k < 2; k++) {
		trim__mapspace s;
		ck_assert_int_eq(trim__ft_space_init(&s, &w[k], &a, GLB, fused_of[k]), 0);
		int home[3] = {fused_of[k] & TRIM__FT_IN ? GLB : 0, 0, fused_of[k] & TRIM__FT_OUT ? GLB : 0};
		for (trim__index i = 0; i < s.size; i++) {
			trim__mapping m;
			ck_assert_int_eq(trim__mapspace_decode(&s, i, &m), 0);
			/* the fused space's rules, stated again: no loops above the
			 * GLB, the intermediates kept there */
			int skip = trim__mapping_check(&m, &w[k], &a) != 0;
			for (int d = 0; d < TRIM_NDIMS; d++)
				skip |= m.f[DRAM][d] != 1;
			for (int t = 0; t < 3; t++)
				skip |= (home[t] == GLB && !m.keep[GLB][t]);
			if (skip)
				continue;
			fused_eval(&w[k], &a, c, &m, fused_of[k], &e[0], &e[1]);
			char msg[256];
			ck_assert_int_eq(refsim_run_home(&w[k], &a, &m, home, sim), 0);
			ck_assert_msg(same_counts(&e[1].act, sim, a.nlevels, msg, sizeof msg), "%s mapping %llu: %s",
			              w[k].layer, (unsigned long long)i, msg);
			compared++;
		}
		trim__mapspace_free(&s);
	}
	ck_assert_int_gt(compared, 100);
	free(sim);
	free(e);
	free(w);
}
END_TEST

/* ---- the plan search against brute force ---------------------------------- */

/* The chain fc(N, C0 -> C1) -> fc(C1 -> C2) -> ... ; every plan (cut
 * mask) and every tiling of the tokens, each layer by enumeration. */
static double brute_plan(const int64_t *ch, int n, int64_t tokens, const struct trim_arch *a,
                         const trim__level_cost *c, int goal)
{
	double best = HUGE_VAL;
	trim__intra w;
	for (unsigned cuts = 0; cuts < 1u << (n - 1); cuts++) {
		double total = 0;
		for (int a0 = 0; a0 < n && total < HUGE_VAL;) {
			int b0 = a0;
			while (b0 < n - 1 && !(cuts >> b0 & 1))
				b0++;
			double group = HUGE_VAL;
			if (a0 == b0) {
				tu_ft_fc(&w, "single", tokens, ch[a0], ch[a0 + 1]);
				group = tu_ft_brute_layer(&w, a, c, GLB, 0, goal);
			} else {
				for (int64_t T = 1; T <= tokens; T++) {
					if (tokens % T)
						continue;
					double sum = 0;
					for (int i = a0; i <= b0 && sum < HUGE_VAL; i++) {
						unsigned f = (i > a0 ? TRIM__FT_IN : 0u) | (i < b0 ? TRIM__FT_OUT : 0u);
						tu_ft_fc(&w, "tile", tokens / T, ch[i], ch[i + 1]);
						sum += tu_ft_brute_layer(&w, a, c, GLB, f, goal);
					}
					if (sum * (double)T < group)
						group = sum * (double)T;
				}
			}
			total += group;
			a0 = b0 + 1;
		}
		if (total < best)
			best = total;
	}
	return best;
}

static void plan_vs_brute(int64_t glb, int goal, int expect_fused)
{
	static const int64_t chan[4] = {2, 3, 2, 2};
	const int64_t tokens = 4;
	struct trim_arch a;
	trim__level_cost c[TRIM__MAX_LEVELS];
	arch_glb(&a, glb, 2);
	tu_costs(&a, c);
	trim__intra *w = calloc(3, sizeof *w);
	trim__ft_chain ch = {3, {&w[0], &w[1], &w[2]}, {0}, {0}, 0, {0}, 0};
	for (int i = 0; i < 3; i++) {
		tu_ft_fc(&w[i], "fc", tokens, chan[i], chan[i + 1]);
		snprintf(w[i].layer, sizeof w[i].layer, "fc%d", i + 1);
	}
	double brute = brute_plan(chan, 3, tokens, &a, c, goal);
	trim__ft_plan *p = calloc(3, sizeof *p);
	for (int th = 1; th <= 3; th++) {
		trim__ft_plan *q = &p[th - 1];
		ck_assert_msg(trim__ft_plan_search(&ch, &a, c, GLB, goal, th, -1, -1, q) == 0, "%s", trim_last_error());
		ck_assert_msg(q->cost == brute, "glb %lld goal %d threads %d: search %.17g, brute force %.17g",
		              (long long)glb, goal, th, q->cost, brute);
		ck_assert_int_eq(q->exact, 1);
		ck_assert(q->lower_bound == q->cost);
		ck_assert(q->cost <= q->lbl_cost);
		/* the same plan at every thread count */
		ck_assert_int_eq(q->ngroups, p[0].ngroups);
		ck_assert(!memcmp(q->group, p[0].group, (size_t)q->ngroups * sizeof q->group[0]));
		for (int i = 0; i < 3; i++) {
			ck_assert(!memcmp(q->map[i].f, p[0].map[i].f, sizeof q->map[i].f));
			ck_assert(!memcmp(q->map[i].keep, p[0].map[i].keep, sizeof q->map[i].keep));
			ck_assert(!memcmp(q->map[i].order, p[0].map[i].order, sizeof q->map[i].order));
			ck_assert(q->eval[i].energy_pj == p[0].eval[i].energy_pj);
		}
	}
	if (expect_fused) { /* fusion must win */
		ck_assert_int_lt(p[0].ngroups, 3);
		ck_assert(p[0].cost < p[0].lbl_cost);
		ck_assert(p[0].dram_bytes < p[0].lbl_dram_bytes);
		ck_assert_int_gt(p[0].buffer_bytes, 0);
	} else { /* fusion must lose: no intermediate tile fits the GLB */
		ck_assert_int_eq(p[0].ngroups, 3);
		ck_assert(p[0].cost == p[0].lbl_cost);
		ck_assert(p[0].dram_bytes == p[0].lbl_dram_bytes);
		ck_assert_int_eq(p[0].buffer_bytes, 0);
	}
	free(p);
	free(w);
}

START_TEST(plan_brute_energy) { plan_vs_brute(256, TRIM__GOAL_ENERGY, 1); }
END_TEST

/* Smaller GLBs: the tile count and the cuts the brute force confirms. */
static void tiled_vs_brute(int64_t glb, int goal, int ngroups, int64_t last_tiles)
{
	static const int64_t chan[4] = {2, 3, 2, 2};
	struct trim_arch a;
	trim__level_cost c[TRIM__MAX_LEVELS];
	arch_glb(&a, glb, 2);
	tu_costs(&a, c);
	trim__intra *w = calloc(3, sizeof *w);
	trim__ft_chain ch = {3, {&w[0], &w[1], &w[2]}, {0}, {0}, 0, {0}, 0};
	for (int i = 0; i < 3; i++)
		tu_ft_fc(&w[i], "fc", 4, chan[i], chan[i + 1]);
	trim__ft_plan *p = calloc(1, sizeof *p);
	ck_assert_int_eq(trim__ft_plan_search(&ch, &a, c, GLB, goal, 2, -1, -1, p), 0);
	ck_assert(p->cost == brute_plan(chan, 3, 4, &a, c, goal));
	ck_assert_int_eq(p->ngroups, ngroups);
	ck_assert_int_eq(p->group[ngroups - 1].ntiles, last_tiles);
	ck_assert(p->cost < p->lbl_cost);
	free(p);
	free(w);
}

/* A 1x1 conv (1 -> 2 channels, 6x1) then a 3x1 conv (2 -> 1, 4 rows out):
 * fused, a tile of t output rows needs t + 2 rows of the first, which
 * recomputes the 2-row halo in every tile, or keeps it: then the first
 * layer makes t + 2 rows in the first tile and t in each other, while the
 * GLB holds the 2 rows (2 x 2 words, 8 bytes) made in the tile before. The
 * brute force builds the tiles on its own (a 1x1 conv on t + 2 or t rows,
 * a 3x1 conv on t + 2 rows) and enumerates every mapping of each. */
static void halo_vs_brute(int64_t glb, int goal, int ngroups, int64_t tiles, int halo)
{
	struct trim_arch a;
	trim__level_cost c[TRIM__MAX_LEVELS];
	arch_glb(&a, glb, 2);
	tu_costs(&a, c);
	trim__intra *w = calloc(5, sizeof *w);
	ck_assert_int_eq(tu_layer(&w[0], TU_CONV, TRIM_PHASE_FW, 1, 1, 2, 1, 6, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(tu_layer(&w[1], TU_CONV, TRIM_PHASE_FW, 1, 2, 1, 1, 6, 1, 3, 1, 1, 1, 0), 0);
	trim__ft_chain ch = {2, {&w[0], &w[1]}, {0}, {0}, 0, {0}, 0};
	double brute = tu_ft_brute_layer(&w[0], &a, c, GLB, 0, goal) + tu_ft_brute_layer(&w[1], &a, c, GLB, 0, goal);
	for (int64_t T = 1; T <= 4; T *= 2) {
		int64_t rows = 4 / T + 2;
		ck_assert_int_eq(tu_layer(&w[2], TU_CONV, TRIM_PHASE_FW, 1, 1, 2, 1, rows, 1, 1, 1, 1, 1, 0), 0);
		ck_assert_int_eq(tu_layer(&w[3], TU_CONV, TRIM_PHASE_FW, 1, 2, 1, 1, rows, 1, 3, 1, 1, 1, 0), 0);
		double f = (tu_ft_brute_layer(&w[2], &a, c, GLB, TRIM__FT_OUT, goal) + tu_ft_brute_layer(&w[3], &a, c, GLB, TRIM__FT_IN, goal)) *
		           (double)T;
		if (f < brute)
			brute = f;
		if (T == 1)
			continue;
		/* the halo kept (w[2], w[3] as above: the first tile's) */
		ck_assert_int_eq(tu_layer(&w[4], TU_CONV, TRIM_PHASE_FW, 1, 1, 2, 1, 4 / T, 1, 1, 1, 1, 1, 0), 0);
		f = tu_ft_brute_layer(&w[2], &a, c, GLB, TRIM__FT_OUT, goal) +
		    (double)(T - 1) * tu_ft_brute_layer_held(&w[4], &a, c, GLB, TRIM__FT_OUT, goal, 8) +
		    (double)T * tu_ft_brute_layer(&w[3], &a, c, GLB, TRIM__FT_IN, goal);
		if (f < brute)
			brute = f;
	}
	trim__ft_plan *p = calloc(1, sizeof *p);
	ck_assert_int_eq(trim__ft_plan_search(&ch, &a, c, GLB, goal, 3, -1, -1, p), 0);
	ck_assert_msg(p->cost == brute, "glb %lld: search %.17g, brute force %.17g", (long long)glb, p->cost, brute);
	ck_assert_int_eq(p->exact, 1);
	ck_assert_int_eq(p->ngroups, ngroups);
	ck_assert_int_eq(p->group[0].ntiles, tiles);
	ck_assert_int_eq(p->group[0].halo, halo);
	if (ngroups == 1 && halo == 1) /* the first layer computes (4 / T + 2) rows per tile: its halo again and again */
		ck_assert_int_eq(p->eval[0].act.macs, (4 / tiles + 2) * 2);
	if (halo == 2) /* kept: 4 / T rows in every tile but the first (the plan shows the most frequent kind,
	                * the first tile's of two) */
		ck_assert_int_eq(p->eval[0].act.macs, (tiles > 2 ? 4 / tiles : 4 / tiles + 2) * 2);
	free(p);
	free(w);
}

/* 8 words: fused in 4 tiles of one row, the halo kept (the first layer
 * computes 3 + 1 + 1 + 1 rows of 6; recomputed, it would compute 12) */
START_TEST(halo_brute_glb16) { halo_vs_brute(16, TRIM__GOAL_ENERGY, 1, 4, 2); }
END_TEST
/* 10 words, delay: fused in 2 tiles, the halo kept */
START_TEST(halo_brute_glb20_delay) { halo_vs_brute(20, TRIM__GOAL_DELAY, 1, 2, 2); }
END_TEST
/* 6 words: no fused tile fits, layer by layer */
START_TEST(halo_brute_glb12) { halo_vs_brute(12, TRIM__GOAL_ENERGY, 2, 1, 0); }
END_TEST

/* 4 words: fc1 alone, fc2..fc3 fused in 2 tiles of 2 tokens */
START_TEST(plan_brute_glb8) { tiled_vs_brute(8, TRIM__GOAL_ENERGY, 2, 2); }
END_TEST
/* 6 words: all three fused, one token per tile */
START_TEST(plan_brute_glb12) { tiled_vs_brute(12, TRIM__GOAL_ENERGY, 1, 4); }
END_TEST
/* 10 words, delay: all three fused in 2 tiles */
START_TEST(plan_brute_glb20_delay) { tiled_vs_brute(20, TRIM__GOAL_DELAY, 1, 2); }
END_TEST
START_TEST(plan_brute_delay) { plan_vs_brute(256, TRIM__GOAL_DELAY, 1); }
END_TEST
/* 1 word: the smallest intermediate tile (1 token x 2 or 3 channels) does
 * not fit, while a layer alone bypasses the GLB */
START_TEST(plan_brute_too_small) { plan_vs_brute(2, TRIM__GOAL_ENERGY, 0); }
END_TEST

/* ---- errors ----------------------------------------------------------------- */

START_TEST(bad_groups)
{
	struct trim_arch a;
	trim__level_cost c[TRIM__MAX_LEVELS];
	trim__intra *w = calloc(2, sizeof *w);
	trim__ft_chain ch = {2, {&w[0], &w[1]}, {0}, {0}, 0, {0}, 0};
	trim__ft_plan *p = calloc(1, sizeof *p);
	tu_ft_fc(&w[0], "fc1", 4, 2, 3);
	tu_ft_fc(&w[1], "fc2", 4, 5, 2); /* reads 5 channels, fc1 makes 3 */
	ck_assert_int_eq(trim__ft_chain_check(&ch), TRIM_ESHAPE);
	ck_assert_msg(strstr(trim_last_error(), "'fc2' does not read layer 'fc1'"), "%s", trim_last_error());
	tu_ft_fc(&w[1], "fc2", 4, 3, 2);
	/* the buffer below a spatial level */
	tu_arch_rf(&a, "rf", 2, 1, 64);
	tu_costs(&a, c);
	ck_assert_int_eq(trim__ft_plan_search(&ch, &a, c, 2, TRIM__GOAL_ENERGY, 1, -1, -1, p), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "below spatial level 'NoC'"), "%s", trim_last_error());
	/* EDP is not searched exactly yet */
	arch_glb(&a, 256, 0);
	tu_costs(&a, c);
	ck_assert_int_eq(trim__ft_plan_search(&ch, &a, c, GLB, TRIM__GOAL_EDP, 1, -1, -1, p), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "energy or delay"), "%s", trim_last_error());
	/* a level that may not hold the intermediate */
	a.lv[GLB].keep[2] = 0;
	ck_assert_int_eq(trim__ft_plan_search(&ch, &a, c, GLB, TRIM__GOAL_ENERGY, 1, -1, -1, p), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "may not hold ofmap"), "%s", trim_last_error());
	/* fusion restricted to a range that excludes the pair: layer by layer */
	a.lv[GLB].keep[2] = 1;
	ck_assert_int_eq(trim__ft_plan_search(&ch, &a, c, GLB, TRIM__GOAL_ENERGY, 1, 1, 1, p), 0);
	ck_assert_int_eq(p->ngroups, 2);
	free(p);
	free(w);
}
END_TEST

Suite *fusedtiles_suite(void)
{
	Suite *s = suite_create("fusedtiles");
	TCase *tc = tcase_create("fusedtiles");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, hand_pair);
	tcase_add_test(tc, counts_match_refsim);
		tcase_add_test(tc, plan_brute_energy);
	tcase_add_test(tc, plan_brute_glb8);
	tcase_add_test(tc, plan_brute_glb12);
	tcase_add_test(tc, plan_brute_glb20_delay);
	tcase_add_test(tc, halo_brute_glb16);
	tcase_add_test(tc, halo_brute_glb20_delay);
	tcase_add_test(tc, halo_brute_glb12);
	tcase_add_test(tc, plan_brute_delay);
	tcase_add_test(tc, plan_brute_too_small);
	tcase_add_test(tc, bad_groups);
	suite_add_tcase(s, tc);
	return s;
}
