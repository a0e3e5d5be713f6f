/*
 * The activity analyst on cases worked by hand: TRIM's Fig. 6 example, two
 * networks with a bypass between them, the scope's errors, exact
 * distinct-value counts, an imperfect factorisation, every shipped
 * network's workloads and the zero-MAC count's closed form.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "activity/activity_int.h"
#include "refsim.h"
#include "tcase_util.h"
#include "trim.h"
#include "activity_compare.h"

/* ---- TRIM Fig. 6 ------------------------------------------------------------ */

enum { DRAM = 0, GLB = 1, NOC = 2, RF = 3, MACL = 4 };
enum { IN = 0, WT = 1, OUT = 2 };

static void fig6_setup(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "fig6");
	tu_storage(a, "DRAM", 0, 16);
	tu_storage(a, "GLB", 0, 16);
	tu_spatial(a, "NoC", 4, 2, 1, 1);
	tu_storage(a, "RF", 0, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	/* vector-matrix product: M = 32, C = 16, all other bounds 1 */
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 16, 32, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_eq(w->bound[TRIM_DIM_M], 32);
	ck_assert_int_eq(w->bound[TRIM_DIM_C], 16);
}

static void fig6_map(trim__mapping *m, const struct trim_arch *a, int variant_c)
{
	trim__mapping_init(m, a);
	/* DRAM: (b) m4 = 4, c4 = 1; (c) m4 = 2, c4 = 2 */
	m->f[DRAM][TRIM_DIM_M] = variant_c ? 2 : 4;
	m->f[DRAM][TRIM_DIM_C] = variant_c ? 2 : 1;
	ck_assert_int_eq(trim__mapping_set_order_str(m, DRAM, "MC"), 0);
	/* GLB: the same bounds (m3 = c3 = 2), different order:
	 * (b) m3 outer, c3 inner; (c) c3 outer, m3 inner */
	m->f[GLB][TRIM_DIM_M] = 2;
	m->f[GLB][TRIM_DIM_C] = 2;
	ck_assert_int_eq(trim__mapping_set_order_str(m, GLB, variant_c ? "CM" : "MC"), 0);
	/* NoC: m2 = 4 along X, c2 = 2 along Y */
	m->f[NOC][TRIM_DIM_M] = m->fx[NOC][TRIM_DIM_M] = 4;
	m->f[NOC][TRIM_DIM_C] = m->fy[NOC][TRIM_DIM_C] = 2;
	/* RF: (b) c1 = 4; (c) m1 = 2, c1 = 2 */
	m->f[RF][TRIM_DIM_M] = variant_c ? 2 : 1;
	m->f[RF][TRIM_DIM_C] = variant_c ? 2 : 4;
}

static void fig6_run(int variant_c, trim__activity *x)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	trim__act_ws ws = {0};
	trim__activity y;
	fig6_setup(&a, &w);
	fig6_map(&m, &a, variant_c);
	ck_assert_msg(trim__mapping_check(&m, &w, &a) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim__activity_compute(&w, &a, &m, &ws, x), 0);
	ck_assert_int_eq(refsim_run(&w, &a, &m, &y), 0);
	char msg[256];
	ck_assert_msg(!compare(x, &y, a.nlevels, msg, sizeof msg), "%s", msg);
	trim__act_ws_free(&ws);
}

START_TEST(test_fig6_b)
{
	trim__activity x;
	fig6_run(0, &x);
	ck_assert_int_eq(x.macs, 512);
	ck_assert_int_eq(x.active_pes, 8);
	/* GLB loops: c3 innermost. Every GLB iteration sends a new input block
	 * (4 words per PE, multicast over the 4 m-PEs) ... */
	ck_assert_int_eq(x.fills[RF][IN], 8 * 16 * 4);
	ck_assert_int_eq(x.reads[GLB][IN], 8 * 16 * 4 / 4);
	ck_assert_int_eq(x.mcast[NOC][IN], 128);
	ck_assert_int_eq(x.mcast_dests[NOC][IN], 512);
	/* ... while the partial sums stay in the RFs: never loaded back. */
	ck_assert_int_eq(x.fills[RF][OUT], 0);
	ck_assert_int_eq(x.reads[GLB][OUT], 0);
	ck_assert_int_eq(x.drains[RF][OUT], 8 * 8);  /* 8 output entries per PE */
	ck_assert_int_eq(x.updates[GLB][OUT], 32);   /* reduced over the 2 c-PEs */
	ck_assert_int_eq(x.reductions[NOC][OUT], 32);
	ck_assert_int_eq(x.fills[GLB][OUT], 0);
	ck_assert_int_eq(x.updates[DRAM][OUT], 32);
	/* DRAM -> GLB: inputs once, weights once */
	ck_assert_int_eq(x.fills[GLB][IN], 16);
	ck_assert_int_eq(x.fills[GLB][WT], 512);
	ck_assert_int_eq(x.reads[DRAM][IN], 16);
	/* RF reads: one per MAC per operand */
	ck_assert_int_eq(x.reads[RF][IN], 512);
	ck_assert_int_eq(x.reads[RF][WT], 512);
	ck_assert_int_eq(x.updates[RF][OUT], 512);
	ck_assert_int_eq(x.reads[RF][OUT], 512 - 8 * 8);
}
END_TEST

START_TEST(test_fig6_c)
{
	trim__activity x;
	fig6_run(1, &x);
	ck_assert_int_eq(x.macs, 512);
	/* GLB loops: m3 innermost. The inputs of the second iteration are the
	 * same block: not sent again (16 per PE instead of 32) ... */
	ck_assert_int_eq(x.fills[RF][IN], 8 * 16);
	ck_assert_int_eq(x.reads[GLB][IN], 8 * 16 / 4);
	/* ... but the partial sums of the first block are written back and
	 * loaded again when the block returns: 128 output entries per m-column
	 * of PEs, 32 of them first touches, 96 read back. */
	ck_assert_int_eq(x.drains[RF][OUT], 256);
	ck_assert_int_eq(x.updates[GLB][OUT], 128);
	ck_assert_int_eq(x.reductions[NOC][OUT], 128);
	ck_assert_int_eq(x.reads[GLB][OUT], 96);
	ck_assert_int_eq(x.fills[RF][OUT], 96);
	ck_assert_int_eq(x.unicast[NOC][OUT], 96);
	/* DRAM -> GLB: the input is split in two blocks, fetched once per m4 */
	ck_assert_int_eq(x.fills[GLB][IN], 32);
	ck_assert_int_eq(x.fills[GLB][WT], 512);
	ck_assert_int_eq(x.fills[GLB][OUT], 0);
	ck_assert_int_eq(x.updates[DRAM][OUT], 32);
}
END_TEST

/* Inputs bypass L2 between two networks (DRAM -> NoC1 (M) -> L2 -> NoC2
 * (C) -> RF): hand-derived counts, and the simulator's. Per DRAM step (M2 x
 * C2, C inner: the RFs' one input changes every step) each of the 4 RFs
 * needs I[2 c4 + c2]: 2 distinct inputs, each needed below both NoC1
 * children (multicast), and below one child of each NoC2 instance. */
static void two_noc_run(int inner_mc, trim__activity *x)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	trim__act_ws ws = {0};
	trim__activity y;
	tu_arch_init(&a, "two-noc");
	tu_storage(&a, "DRAM", 0, 16);
	tu_spatial(&a, "NoC1", 2, 1, 1, 1);
	tu_storage(&a, "L2", 0, 16);
	tu_spatial(&a, "NoC2", 2, 1, inner_mc, 1);
	tu_storage(&a, "RF", 0, 16);
	tu_compute(&a, "MAC");
	tu_arch_finish(&a);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 4, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	trim__mapping_init(&m, &a);
	m.f[1][TRIM_DIM_M] = m.fx[1][TRIM_DIM_M] = 2;
	m.f[3][TRIM_DIM_C] = m.fx[3][TRIM_DIM_C] = 2;
	m.f[0][TRIM_DIM_M] = 2;
	m.f[0][TRIM_DIM_C] = 2;
	ck_assert_int_eq(trim__mapping_set_order_str(&m, 0, "MC"), 0);
	m.keep[2][0] = 0; /* inputs bypass L2: they cross both NoCs */
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	ck_assert_msg(trim__activity_compute(&w, &a, &m, &ws, x) == 0, "%s", trim_last_error());
	ck_assert_int_eq(refsim_run(&w, &a, &m, &y), 0);
	char msg[256];
	ck_assert_msg(!compare(x, &y, a.nlevels, msg, sizeof msg), "%s", msg);
	ck_assert_int_eq(x->fills[4][0], 4 * 4);
	trim__act_ws_free(&ws);
}

START_TEST(test_two_noc_bypass)
{
	trim__activity x;
	two_noc_run(1, &x);
	/* both multicast: 2 words per step leave DRAM, NoC1 multicasts each
	 * to both NoC2 instances (4 deliveries), NoC2 sends each to one RF */
	ck_assert_int_eq(x.reads[0][0], 2 * 4);
	ck_assert_int_eq(x.down_words[1][0], 8);
	ck_assert_int_eq(x.mcast[1][0], 8);
	ck_assert_int_eq(x.mcast_dests[1][0], 16);
	ck_assert_int_eq(x.unicast[1][0], 0);
	ck_assert_int_eq(x.down_words[3][0], 16);
	ck_assert_int_eq(x.down_dests[3][0], 16);
	ck_assert_int_eq(x.unicast[3][0], 16);
	ck_assert_int_eq(x.reads[2][0] + x.fills[2][0], 0);
	/* NoC2 cannot multicast: a word is replicated nowhere above it
	 * either (no storage between to copy it), every RF gets its own */
	two_noc_run(0, &x);
	ck_assert_int_eq(x.reads[0][0], 16);
	ck_assert_int_eq(x.down_words[1][0], 16);
	ck_assert_int_eq(x.unicast[1][0], 16);
	ck_assert_int_eq(x.mcast[1][0], 0);
	ck_assert_int_eq(x.down_words[3][0], 16);
}
END_TEST

/* A hop across more spatial levels with bounds > 1 than the analyst
 * handles is refused with a message, not counted wrong. */
START_TEST(test_scope_errors)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	trim__act_ws ws = {0};
	trim__activity x;
	tu_arch_init(&a, "nine-nocs");
	tu_storage(&a, "DRAM", 0, 16);
	static const char *const names[] = {"N1", "N2", "N3", "N4", "N5", "N6", "N7", "N8", "N9"};
	for (int i = 0; i < 9; i++)
		tu_spatial(&a, names[i], 2, 1, 1, 1);
	tu_compute(&a, "MAC");
	tu_arch_finish(&a);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 1, 512, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	trim__mapping_init(&m, &a);
	for (int i = 1; i <= 8; i++)
		m.f[i][TRIM_DIM_M] = m.fx[i][TRIM_DIM_M] = 2;
	m.f[0][TRIM_DIM_M] = 2;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	ck_assert_int_eq(trim__activity_compute(&w, &a, &m, &ws, &x), 0); /* eight: counted */
	m.f[0][TRIM_DIM_M] = 1;
	m.f[9][TRIM_DIM_M] = m.fx[9][TRIM_DIM_M] = 2;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	ck_assert_int_eq(trim__activity_compute(&w, &a, &m, &ws, &x), TRIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "more than 8 spatial levels"));
	trim__act_ws_free(&ws);
}
END_TEST

/* Exact distinct-value counts of a*i + b*j against enumeration. */
START_TEST(test_axis_distinct)
{
	for (int64_t a = 0; a <= 4; a++)
		for (int64_t b = 0; b <= 4; b++)
			for (int64_t I = 1; I <= 6; I++)
				for (int64_t J = 1; J <= 6; J++) {
					char seen[64] = {0};
					int64_t n = 0;
					for (int64_t i = 0; i < I; i++)
						for (int64_t j = 0; j < J; j++)
							if (!seen[a * i + b * j]++)
								n++;
					ck_assert_msg(trim__axis_distinct(a, I, b, J) == n, "a=%lld I=%lld b=%lld J=%lld",
					              (long long)a, (long long)I, (long long)b, (long long)J);
				}
}
END_TEST


/* Every workload of every shipped network (inference and training) is in
 * the analytic model's scope, and its exact zero-MAC count equals the task
 * analyst's (two independent exact counts). */
/* ---- an imperfect factorisation, by hand ----------------------------------- */

/* A 1-D convolution with E = 55 outputs and a 3-tap filter over 14 PEs
 * (DRAM -> NoC (14 x 1, multicast, reduction) -> RF -> MAC): E = 4 (DRAM)
 * x 14 (NoC) covers 56 with a ragged last pass of 13 PEs; the RFs loop over
 * R = 3. PE p at DRAM step i computes O[14 i + p] (if < 55) from
 * I[14 i + p + r] and W[r]. */
START_TEST(test_ragged_e55)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	trim__act_ws ws = {0};
	trim__activity x, y;
	tu_arch_init(&a, "ragged");
	tu_storage(&a, "DRAM", 0, 16);
	tu_spatial(&a, "NoC", 14, 1, 1, 1);
	tu_storage(&a, "RF", 0, 16);
	tu_compute(&a, "MAC");
	tu_arch_finish(&a);
	ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 57, 1, 3, 1, 1, 1, 0), 0);
	ck_assert_int_eq(w.bound[TRIM_DIM_E], 55);
	ck_assert_int_eq(w.bound[TRIM_DIM_R], 3);
	trim__mapping_init(&m, &a);
	m.f[0][TRIM_DIM_E] = 4;
	m.f[1][TRIM_DIM_E] = m.fx[1][TRIM_DIM_E] = 14;
	m.f[2][TRIM_DIM_R] = 3;
	ck_assert_msg(trim__mapping_check(&m, &w, &a) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim__mapping_ragged(&m, &w), 1);
	ck_assert_int_eq(trim__activity_compute(&w, &a, &m, &ws, &x), 0);
	ck_assert_int_eq(refsim_run(&w, &a, &m, &y), 0);
	char msg[256];
	ck_assert_msg(!compare(&x, &y, a.nlevels, msg, sizeof msg), "%s", msg);
	/* the real work and the padded one; 4 DRAM steps x 3 RF steps */
	ck_assert_int_eq(x.macs, 165);
	ck_assert_int_eq(x.padded_macs, 168);
	ck_assert_int_eq(x.steps, 12);
	ck_assert_int_eq(x.active_pes, 14);
	/* inputs: 3 per active PE per DRAM step, none reused (the windows move
	 * by 14); from DRAM 16 distinct per full pass, 15 on the ragged one;
	 * per pass the two edge elements go to one PE, the others to 2-3 */
	ck_assert_int_eq(x.fills[2][IN], 165);
	ck_assert_int_eq(x.reads[0][IN], 16 * 3 + 15);
	ck_assert_int_eq(x.unicast[1][IN], 2 * 4);
	ck_assert_int_eq(x.mcast[1][IN], 14 * 3 + 13);
	ck_assert_int_eq(x.mcast_dests[1][IN], 165 - 8);
	ck_assert_int_eq(x.tile[2][IN], 3);
	/* weights: stationary, 3 per PE once, multicast to the 14 PEs (PE 13
	 * idle on the last pass: it drops them and is not refilled) */
	ck_assert_int_eq(x.fills[2][WT], 42);
	ck_assert_int_eq(x.reads[0][WT], 3);
	ck_assert_int_eq(x.mcast_dests[1][WT], 42);
	/* outputs: one update per MAC, read back for the 2 later taps, drained
	 * once per output, written to DRAM once */
	ck_assert_int_eq(x.updates[2][OUT], 165);
	ck_assert_int_eq(x.reads[2][OUT], 110);
	ck_assert_int_eq(x.drains[2][OUT], 55);
	ck_assert_int_eq(x.updates[0][OUT], 55);
	ck_assert_int_eq(x.fills[2][OUT], 0);
	/* E = 5 x 14 leaves the fifth DRAM iteration empty; 3 x 14 does not cover 55 */
	m.f[0][TRIM_DIM_E] = 5;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), TRIM_ESHAPE);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "would be empty"));
	m.f[0][TRIM_DIM_E] = 3;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), TRIM_ESHAPE);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "multiply to 42"));
	/* the perfect factorisation 5 x 11 of the same layer is not ragged */
	m.f[0][TRIM_DIM_E] = 5;
	m.f[1][TRIM_DIM_E] = m.fx[1][TRIM_DIM_E] = 11;
	ck_assert_int_eq(trim__mapping_ragged(&m, &w), 0);
	ck_assert_int_eq(trim__activity_compute(&w, &a, &m, &ws, &x), 0);
	ck_assert_int_eq(x.padded_macs, x.macs);
	ck_assert_int_eq(x.steps, 15);
	trim__act_ws_free(&ws);
}
END_TEST

START_TEST(test_shipped_workloads)
{
	static const char *const nets[] = {"alexnet-cifar", "alexnet", "inception-3b", "mobilenet-v1",
	                                   "resnet18", "resnet20-cifar", "resnet50", "trim-fig2",
	                                   "vgg11-cifar", "vgg11", "vgg16"};
	trim_arch *a = NULL;
	trim__act_ws ws = {0};
	trim__activity act;
	size_t total = 0;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	for (size_t k = 0; k < sizeof nets / sizeof *nets; k++) {
		char path[256];
		snprintf(path, sizeof path, "models/networks/%s.yaml", nets[k]);
		trim_network *net = NULL;
		ck_assert_msg(trim_network_load(&net, path) == 0, "%s", trim_last_error());
		for (int mode = 0; mode < 2; mode++) {
			trim_workloads *w = NULL;
			ck_assert_int_eq(trim_workloads_create(&w, net, mode, 0, 0), 0);
			for (size_t i = 0; i < trim_workloads_intra_count(w); i++) {
				const trim__intra *x = trim__workloads_intra(w, i);
				trim__mapping m;
				trim__mapping_init(&m, a);
				for (int d = 0; d < TRIM_NDIMS; d++)
					m.f[0][d] = x->bound[d];
				int rc = trim__activity_compute(x, a, &m, &ws, &act);
				if (rc || act.zero_macs != x->zero_macs || act.macs != x->macs)
					ck_abort_msg("%s %s phase %d: rc %d (%s), zero MACs %lld vs %lld", nets[k], x->layer,
					             x->phase, rc, trim_last_error(), (long long)act.zero_macs,
					             (long long)x->zero_macs);
				total++;
			}
			trim_workloads_free(w);
		}
		trim_network_free(net);
	}
	ck_assert_uint_gt(total, 800);
	trim__act_ws_free(&ws);
	trim_arch_free(a);
}
END_TEST


/* The zero-MAC count's closed form (one dim of each component counted as an
 * arithmetic progression, lib/workload/zero_macs.c) against the plain
 * enumeration of every index point: every training workload of UNet and
 * ResNet-18 (padding, zero insertion, upsampling), then random axes, strides,
 * negative coefficients and bounds on a copy of a workload with zeros. */
START_TEST(test_zero_macs_closed_form)
{
	static const char *const nets[] = {"unet", "resnet18", "alexnet"};
	trim__intra base;
	int have_base = 0;
	size_t with_zeros = 0;
	for (size_t k = 0; k < sizeof nets / sizeof *nets; k++) {
		char path[256];
		snprintf(path, sizeof path, "models/networks/%s.yaml", nets[k]);
		trim_network *net = NULL;
		ck_assert_msg(trim_network_load(&net, path) == 0, "%s", trim_last_error());
		trim_workloads *w = NULL;
		ck_assert_int_eq(trim_workloads_create(&w, net, 1, 0, 0), 0);
		for (size_t i = 0; i < trim_workloads_intra_count(w); i++) {
			trim__intra x = *trim__workloads_intra(w, i);
			int64_t fast = -1, slow = -2;
			x.act_zero_ok = 0;
			ck_assert_int_eq(trim__intra_act_zero_macs(&x, &fast), 0);
			ck_assert_int_eq(trim__intra_act_zero_macs_slow(&x, &slow), 0);
			ck_assert_msg(fast == slow, "%s %s phase %d: %lld vs %lld", nets[k], x.layer, x.phase,
			              (long long)fast, (long long)slow);
			with_zeros += fast > 0;
			if (!have_base && x.t[0].has_zeros && x.t[0].ndims >= 2) {
				base = x;
				have_base = 1;
			}
		}
		trim_workloads_free(w);
		trim_network_free(net);
	}
	ck_assert_uint_gt(with_zeros, 50);
	ck_assert(have_base);
	unsigned seed = 12345;
	int differs = 0;
	for (int trial = 0; trial < 4000; trial++) {
		trim__intra x = base;
		x.act_zero_ok = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			x.bound[d] = 1;
		for (int s = 0; s < 2; s++) {
			trim__tensor *t = &x.t[s];
			if (!t->present || !t->has_zeros || t->ndims < 2)
				continue;
			for (int a = 0; a < 2; a++) {
				trim__iexpr *e = &t->idx[t->ndims - 2 + a];
				for (int j = 0; j < e->nterms; j++) {
					seed = seed * 1103515245u + 12345u;
					e->coef[j] = (int64_t)(seed >> 16) % 7 - 3;
					seed = seed * 1103515245u + 12345u;
					x.bound[e->dim[j]] = 1 + (int64_t)(seed >> 16) % 23;
				}
				trim__zaxis *z = &t->zaxis[a];
				seed = seed * 1103515245u + 12345u;
				z->lo = (int64_t)(seed >> 16) % 41 - 20;
				seed = seed * 1103515245u + 12345u;
				z->hi = z->lo + (int64_t)(seed >> 16) % 60 - 5;
				seed = seed * 1103515245u + 12345u;
				z->step = 1 + (int64_t)(seed >> 16) % 6;
			}
		}
		int64_t fast = -1, slow = -2;
		ck_assert_int_eq(trim__intra_act_zero_macs(&x, &fast), 0);
		ck_assert_int_eq(trim__intra_act_zero_macs_slow(&x, &slow), 0);
		ck_assert_msg(fast == slow, "trial %d: %lld vs %lld", trial, (long long)fast, (long long)slow);
		differs += fast > 0;
	}
	ck_assert_int_gt(differs, 1000);
	/* a long axis: 2^24 outputs by 3 taps, step 2048 (an upsampling by 2048),
	 * counted without enumerating the 2^24 (the slow count takes 5 x 10^7
	 * steps: still compared) */
	trim__intra x = base;
	x.act_zero_ok = 0;
	int64_t fast = -1, slow = -2;
	for (int d = 0; d < TRIM_NDIMS; d++)
		x.bound[d] = 1;
	trim__tensor *t = &x.t[0];
	trim__iexpr *e = &t->idx[t->ndims - 2];
	for (int j = 0; j < e->nterms; j++) {
		e->coef[j] = 1;
		x.bound[e->dim[j]] = j ? 3 : (int64_t)1 << 24;
	}
	t->zaxis[0] = (trim__zaxis){5, ((int64_t)1 << 24) - 7, 2048};
	for (int s = 0; s < 2; s++)
		x.t[s].has_zeros = s == 0;
	t->zaxis[1] = (trim__zaxis){0, (int64_t)1 << 40, 1};
	ck_assert_int_eq(trim__intra_act_zero_macs(&x, &fast), 0);
	ck_assert_int_eq(trim__intra_act_zero_macs_slow(&x, &slow), 0);
	ck_assert_int_eq(fast, slow);
	ck_assert_int_gt(fast, 0);
}
END_TEST

Suite *activity_cases_suite(void)
{
	Suite *s = suite_create("activity_cases");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_axis_distinct);
	tcase_add_test(tc, test_fig6_b);
	tcase_add_test(tc, test_fig6_c);
	tcase_add_test(tc, test_ragged_e55);
	tcase_add_test(tc, test_two_noc_bypass);
	tcase_add_test(tc, test_scope_errors);
	tcase_add_test(tc, test_shipped_workloads);
	tcase_add_test(tc, test_zero_macs_closed_form);
	suite_add_tcase(s, tc);
	return s;
}
