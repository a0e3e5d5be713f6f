/*
 * Fused tiles over attention's scores -> softmax -> context
 * (lib/fusedtiles/vector.c, docs/fusion.md "Vector work between layers"):
 * the chain found in test/data/networks/attn-tiny.yaml (4 tokens, 2 heads
 * of size 2), its DRAM bytes and the softmax's cost by hand, and the plan
 * against brute force (every tiling of heads and queries built here on its
 * own, every mapping of every tile enumerated) at 1, 2 and 3 threads.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/energy_int.h"
#include "fusedtiles/fusedtiles_int.h"
#include "fusedtiles_util.h"
#include "tcase_util.h"
#include "trim.h"

enum { DRAM = 0, GLB = 1 };

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_arch *a;
	trim_energy *t;
	trim__level_cost c[TRIM__MAX_LEVELS];
	int link[8];
} attn;

/* attn-tiny on fused-glb (DRAM -> 1 KB GLB -> 2 PEs -> MAC, 16-bit words,
 * 1 word per cycle of DRAM, 4 of GLB); glb_bytes > 0 replaces the GLB's
 * capacity after the costs are taken (the table's smallest SRAM is 1 KB). */
static void attn_load(attn *x, int64_t glb_bytes)
{
	memset(x, 0, sizeof *x);
	ck_assert_int_eq(trim_network_load(&x->net, "test/data/networks/attn-tiny.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&x->w, x->net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_arch_load(&x->a, "test/data/arch/fused-glb.yaml"), 0);
	ck_assert_int_eq(trim_energy_load_for_arch(&x->t, x->a), 0);
	ck_assert_int_eq(trim__arch_costs(x->a, x->t, x->c), 0);
	if (glb_bytes > 0)
		x->a->lv[GLB].capacity_bytes = glb_bytes;
	ck_assert_int_eq(trim_workloads_intra_count(x->w), 5);
	ck_assert_int_eq(trim__ft_network_links(x->net, x->w, x->link), 0);
}

static void attn_free(attn *x)
{
	trim_energy_free(x->t);
	trim_arch_free(x->a);
	trim_workloads_free(x->w);
	trim_network_free(x->net);
}

/* w with heads (G) and queries (E) cut to g and e: every tensor index of
 * the matmul is one dim, so each extent is that dim's bound. */
static void cut(const trim__intra *w, int64_t g, int64_t e, trim__intra *out)
{
	*out = *w;
	out->bound[TRIM_DIM_G] = g;
	out->bound[TRIM_DIM_E] = e;
	out->macs = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		out->macs *= out->bound[d];
	for (int t = 0; t < 3; t++)
		for (int k = 0; k < out->t[t].ndims; k++) {
			ck_assert_int_eq(out->t[t].idx[k].nterms, 1);
			out->t[t].extent[k] = out->bound[out->t[t].idx[k].dim[0]];
		}
	out->act_zero_ok = 0;
	out->act_zero_macs = 0;
}

/* The softmax over `words` scores at level l, by the inter-layer model:
 * read and written once there, no leakage. */
static double softmax_cost(const attn *x, double words, int l, int goal)
{
	if (goal == TRIM__GOAL_DELAY)
		return fmax(words / x->a->lv[l].read_bw, words / x->a->lv[l].write_bw);
	return words * (x->c[l].read_pj + x->c[l].write_pj);
}

/* scores (G 2, M 4 keys, C 2, E 4 queries) -> softmax -> context (G 2, M 2,
 * C 4 keys, E 4): found as a chain through the softmax; DRAM bytes by hand,
 * fused in one tile on the 1 KB GLB, and the layer-by-layer cost that of
 * the two layers alone plus the softmax's 32 scores read and written in
 * DRAM. */
START_TEST(hand_attention)
{
	attn x;
	attn_load(&x, 0);
	/* q, k and v each have one reader but do not link to the next
	 * workload; scores -> context through the softmax */
	ck_assert_int_eq(x.link[0], 0);
	ck_assert_int_eq(x.link[1], 0);
	ck_assert_int_eq(x.link[2], 0);
	ck_assert_int_eq(x.link[3], 1 | TRIM__FT_VEC_SOFTMAX << 1);
	ck_assert_int_eq(x.link[4], 0);
	const trim__intra *s = trim__workloads_intra(x.w, 3), *cx = trim__workloads_intra(x.w, 4);
	ck_assert_str_eq(s->layer, "scores");
	ck_assert_str_eq(cx->layer, "context");
	trim__ft_chain ch = {2, {s, cx}, {1}, {TRIM__FT_VEC_SOFTMAX}, 0, {0}, 0};
	trim__ft_axes ax;
	trim__ft_group_axes(&ch, 0, 1, &ax);
	ck_assert_int_eq(ax.naxes, 2); /* the heads and the queries; the keys are context's reduction */
	ck_assert_int_eq(ax.dim[0][0], TRIM_DIM_G);
	ck_assert_int_eq(ax.dim[1][0], TRIM_DIM_E);
	/* the softmax: 2 x 4 x 4 = 32 scores, 64 words of DRAM when cut */
	double bytes = -1;
	double e_dram = trim__ft_vec_cost(s, x.a, x.c, DRAM, TRIM__GOAL_ENERGY, &bytes);
	ck_assert(bytes == 128);
	ck_assert(e_dram == 32 * (x.c[DRAM].read_pj + x.c[DRAM].write_pj));
	ck_assert(trim__ft_vec_cost(s, x.a, x.c, GLB, TRIM__GOAL_DELAY, &bytes) == 8); /* 32 words at 4 per cycle */
	ck_assert(bytes == 0);
	trim__ft_layer_result *r = calloc(2, sizeof *r);
	ck_assert_int_eq(trim__ft_layer_search(s, x.a, x.c, GLB, 0, TRIM__GOAL_ENERGY, 2, &r[0]), 0);
	ck_assert_int_eq(trim__ft_layer_search(cx, x.a, x.c, GLB, 0, TRIM__GOAL_ENERGY, 2, &r[1]), 0);
	trim__ft_plan *p = calloc(1, sizeof *p);
	ck_assert_msg(trim__ft_plan_search(&ch, x.a, x.c, GLB, TRIM__GOAL_ENERGY, 2, -1, -1, p) == 0, "%s",
	              trim_last_error());
	ck_assert(p->lbl_cost == r[0].cost + (r[1].cost + e_dram)); /* the plan's order of sums */
	/* layer by layer: scores reads Q and K (16 words each), writes 32 scores;
	 * the softmax reads and writes them; context reads them and V (16) and
	 * writes 16: 192 words. Fused: Q, K, V and the context, 64 words. */
	ck_assert(p->lbl_dram_bytes == 384);
	ck_assert(p->dram_bytes == 128);
	ck_assert_int_eq(p->ngroups, 1);
	ck_assert_int_eq(p->group[0].ntiles, 1);
	ck_assert(p->cost == p->eval[0].energy_pj + 32 * (x.c[GLB].read_pj + x.c[GLB].write_pj) + p->eval[1].energy_pj);
	ck_assert(p->cost < p->lbl_cost);
	ck_assert_int_eq(p->exact, 1);
	free(p);
	free(r);
	attn_free(&x);
}
END_TEST

/* Every cut and every tiling (heads 1 or 2 per tile, queries 1, 2 or 4),
 * the tiles built by cut(), every mapping enumerated, the softmax by hand;
 * the plan search the same at 1, 2 and 3 threads. */
static void attn_vs_brute(int64_t glb, int goal, int expect_fused, int64_t expect_tiles)
{
	attn x;
	attn_load(&x, glb);
	const trim__intra *s = trim__workloads_intra(x.w, 3), *cx = trim__workloads_intra(x.w, 4);
	trim__ft_chain ch = {2, {s, cx}, {1}, {TRIM__FT_VEC_SOFTMAX}, 0, {0}, 0};
	/* sums in the plan's order: a tile's layers and softmax in chain order */
	double brute = tu_ft_brute_layer(s, x.a, x.c, GLB, 0, goal) +
	               (tu_ft_brute_layer(cx, x.a, x.c, GLB, 0, goal) + softmax_cost(&x, 32, DRAM, goal));
	trim__intra *tile = calloc(2, sizeof *tile);
	for (int64_t tg = 1; tg <= 2; tg++)
		for (int64_t te = 1; te <= 4; te *= 2) {
			int64_t g = 2 / tg, e = 4 / te;
			cut(s, g, e, &tile[0]);
			cut(cx, g, e, &tile[1]);
			double f = tu_ft_brute_layer(&tile[0], x.a, x.c, GLB, TRIM__FT_OUT, goal) +
			           softmax_cost(&x, (double)(g * 4 * e), GLB, goal) +
			           tu_ft_brute_layer(&tile[1], x.a, x.c, GLB, TRIM__FT_IN, goal);
			if (f * (double)(tg * te) < brute)
				brute = f * (double)(tg * te);
		}
	trim__ft_plan *p = calloc(3, sizeof *p);
	for (int th = 1; th <= 3; th++) {
		trim__ft_plan *q = &p[th - 1];
		ck_assert_msg(trim__ft_plan_search(&ch, x.a, x.c, GLB, goal, th, -1, -1, q) == 0, "%s", trim_last_error());
		ck_assert_msg(q->cost == brute, "glb %lld goal %d threads %d: search %.17g, brute force %.17g",
		              (long long)glb, goal, th, q->cost, brute);
		ck_assert_int_eq(q->exact, 1);
		ck_assert_int_eq(q->ngroups, p[0].ngroups);
		ck_assert(!memcmp(q->group, p[0].group, (size_t)q->ngroups * sizeof q->group[0]));
		for (int i = 0; i < 2; i++)
			ck_assert(!memcmp(&q->map[i], &p[0].map[i], sizeof q->map[i]));
	}
	ck_assert_int_eq(p[0].ngroups, expect_fused ? 1 : 2);
	if (expect_fused)
		ck_assert_int_eq(p[0].group[0].ntiles, expect_tiles);
	if (!expect_fused)
		ck_assert(p[0].cost == p[0].lbl_cost && p[0].dram_bytes == p[0].lbl_dram_bytes);
	free(p);
	free(tile);
	attn_free(&x);
}

START_TEST(attn_brute_energy) { attn_vs_brute(1024, TRIM__GOAL_ENERGY, 1, 1); }
END_TEST
START_TEST(attn_brute_delay) { attn_vs_brute(1024, TRIM__GOAL_DELAY, 1, 1); }
END_TEST
/* smaller GLBs: fused in more tiles (16 bytes: 8 tiles, one head and one
 * query, 4 scores each) */
START_TEST(attn_brute_glb16) { attn_vs_brute(16, TRIM__GOAL_ENERGY, 1, 8); }
END_TEST
START_TEST(attn_brute_glb32) { attn_vs_brute(32, TRIM__GOAL_ENERGY, 1, 4); }
END_TEST
START_TEST(attn_brute_glb32_delay) { attn_vs_brute(32, TRIM__GOAL_DELAY, 1, 2); }
END_TEST
/* 4 bytes: no tile of scores (4 words at least) fits */
START_TEST(attn_brute_small) { attn_vs_brute(4, TRIM__GOAL_ENERGY, 0, 0); }
END_TEST

Suite *fusedtiles_attn_suite(void)
{
	Suite *s = suite_create("fusedtiles_attn");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, hand_attention);
	tcase_add_test(tc, attn_brute_energy);
	tcase_add_test(tc, attn_brute_delay);
	tcase_add_test(tc, attn_brute_glb16);
	tcase_add_test(tc, attn_brute_glb32);
	tcase_add_test(tc, attn_brute_glb32_delay);
	tcase_add_test(tc, attn_brute_small);
	suite_add_tcase(s, tc);
	return s;
}
