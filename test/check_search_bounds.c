/*
 * The search's bounds on real layers (AlexNet, and others through the same
 * loader, on Eyeriss and the shipped designs): the joint order across levels,
 * the extents memo, the window floors, the seed's stops and floors, joint
 * refill reuse and the fallback bound, each against the slow obvious
 * computation. The leaf children's bounds: check_search_leaf.c; the
 * brute-force comparisons over whole small spaces: check_search_brute.c.
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
#include "search_fixture.h"

/* The joint order across levels and the network words below a known
 * level (docs/model.md, "Bounds"): AlexNet conv3 WG under row-stationary on
 * Eyeriss, whose best mapping needs C innermost at DRAM (the inputs are
 * read twice, once per M) and E innermost at GLB (the output gradient
 * refills the register files at every GLB step, and the GLB reads it into
 * the array as often). The joint bound of the best factorisation is its
 * cost: without the first it is 1.2% below, without the second 5.4%. */
START_TEST(test_joint_across)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_constraints *c = NULL;
	trim_search *se = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 1, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv3", TRIM_PHASE_WG, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	ck_assert_int_eq(trim_constraints_create(&c), 0);
	ck_assert_int_eq(trim_constraints_add_preset(c, "row-stationary"), 0);
	ck_assert_int_eq(trim_search_create(&se, w, i, a, NULL), 0);
	ck_assert_int_eq(trim_search_set_constraints(se, c), 0);
	ck_assert_int_eq(trim_search_set_int(se, TRIM_SEARCH_THREADS, 2), 0);
	ck_assert_int_eq(trim_search_run(se), 0);
	ck_assert_int_eq(trim_search_exact(se), 1);
	const trim__mapspace *s;
	const trim__level_cost *costs;
	int goal, threads;
	trim__search_parts(se, &s, &costs, &goal, &threads);
	double cost;
	uint64_t idx;
	ck_assert_int_eq(trim_search_top(se, 0, &cost, &idx), 0); /* the index fits 64 bits here */
	trim__mapping m, node;
	ck_assert_int_eq(trim__mapspace_decode(s, idx, &m), 0);
	int64_t zero_macs = 0;
	ck_assert_int_eq(trim__intra_act_zero_macs(s->w, &zero_macs), 0);
	trim__eval ev;
	double lb;
	const int depth = s->nslots - 1; /* every factor known */
	trim__mapspace_node_of(s, depth, &m, &node);
	stationary_workspace *sw = trim__stationary_workspace_new(); /* the node bounds' own */
	ck_assert_ptr_nonnull(sw);
	trim__node_bound_joint(s, costs, goal, depth, zero_macs, &node, &ev, &lb, sw);
	trim__stationary_workspace_free(sw);
	ck_assert_msg(lb <= cost && lb >= cost * (1 - 1e-6), "joint bound %.17g, cost %.17g (%.4f)", lb, cost,
	              lb / cost);
	trim_search_free(se);
	trim_constraints_free(c);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* The stationarity bound's memo of its searches over the extents
 * (lib/search/stationary_bound.c) against the searches themselves: on
 * nodes of every depth above sampled mappings of AlexNet conv2 (FW, WG)
 * on Eyeriss under row-stationary and input-stationary (where both the
 * most-reuse and the sliding-window searches run), every node bound is
 * the same with the memo (asked twice: the second time from the memo) as
 * without it; the same after the register file's reserved bytes change (a
 * key that left them out would answer with the old capacity: some bound
 * must change), with a second mapspace of the same workload and other
 * reserved bytes asked in between; and a whole search (conv3 WG) gives the same
 * best and the same counts either way. */
static void memo_bounds(const trim__mapspace *s, const trim__level_cost *c, int64_t zero_macs, const uint64_t *idx,
                        int n, double *out, stationary_workspace *sw)
{
	for (int i = 0; i < n; i++) {
		trim__mapping m, node;
		trim__eval ev;
		ck_assert_int_eq(trim__mapspace_decode(s, idx[i], &m), 0);
		for (int depth = 1; depth < s->nslots; depth++) {
			trim__mapspace_node_of(s, depth, &m, &node);
			trim__mapspace_node_lb(s, c, TRIM__GOAL_ENERGY, depth, zero_macs, &node, &ev,
			                       &out[i * TRIM__MAX_LEVELS + depth], sw);
		}
	}
}

/* n raw indices of s (a fixed xorshift sequence from seed) whose factors
 * obey its pins and caps, into idx. */
static void sample_obeying(const trim__mapspace *s, uint64_t seed, int n, uint64_t *idx)
{
	int got = 0;
	for (int tries = 0; got < n && tries < 200000; tries++) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		const uint64_t i = (uint64_t)((trim__index)seed % s->size);
		trim__mapping m;
		ck_assert_int_eq(trim__mapspace_decode(s, i, &m), 0);
		int ok = 1;
		for (int l = 0; l < s->a->nlevels && ok; l++)
			for (int d = 0; d < TRIM_NDIMS && ok; d++)
				ok = (s->pin[l][d] <= 0 || m.f[l][d] == s->pin[l][d]) &&
				     (s->fmax[l][d] <= 0 || m.f[l][d] <= s->fmax[l][d]);
		if (ok)
			idx[got++] = i;
	}
	ck_assert_int_eq(got, n);
}

/* The stationarity bound's two searches through their test hooks (which
 * ask the memo), for every tensor and set kept beside it, at depths 1 and
 * 2 of the first n mappings of idx, into out (2 x 3 x 8 per node). */
static void memo_hooks(const trim__mapspace *s, const trim__level_cost *c, const uint64_t *idx, int n, int64_t *out,
                       stationary_workspace *sw)
{
	int64_t *o = out;
	for (int i = 0; i < n; i++) {
		trim__mapping m, node;
		ck_assert_int_eq(trim__mapspace_decode(s, idx[i], &m), 0);
		for (int depth = 1; depth <= 2; depth++) {
			trim__mapspace_node_of(s, depth, &m, &node);
			for (int t = 0; t < 3; t++)
				for (unsigned keep = 0; keep < 8; keep++) {
					int h;
					*o++ = keep >> t & 1 ? 0 : trim__stationary_reuse(s, c, depth, &node, t, keep, &h, sw);
					*o++ = keep >> t & 1 ? 0 : trim__stationary_window_fills(s, c, depth, &node, t, keep, 0, &h, sw);
				}
		}
	}
}

/* AlexNet (ImageNet) training at batch 1 on Eyeriss, with the energy
 * table's level costs: the setting of the bound tests below. */
typedef search_fixture alexnet_eyeriss;

static void alexnet_eyeriss_load(alexnet_eyeriss *x)
{
	search_fixture_load(x, "alexnet", "eyeriss", TRIM_MODE_TRAINING, 1);
}

START_TEST(test_extents_memo)
{
	stationary_workspace *sw = trim__stationary_workspace_new(); /* the node bounds' own */
	ck_assert_ptr_nonnull(sw);
	alexnet_eyeriss ae;
	alexnet_eyeriss_load(&ae);
	trim_workloads *w = ae.w;
	trim_arch *a = ae.a;
	const trim__level_cost *c = ae.c;
	/* the register file: the level whose extents the searches explore */
	int rf = -1;
	for (int l = 1; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].capacity_bytes > 0)
			rf = l;
	ck_assert_int_ge(rf, 1);
	enum { N = 150 };
	const char *presets[] = {"row-stationary", "input-stationary"};
	const int phases[] = {TRIM_PHASE_FW, TRIM_PHASE_WG};
	int reserved_mattered = 0, memo_changed[2] = {0, 0};
	for (int pi = 0; pi < 2; pi++)
		for (int ph = 0; ph < 2; ph++) {
			size_t wi = 0;
			ck_assert_int_eq(trim_workloads_find(w, "conv2", phases[ph], &wi), 0);
			const trim__intra *x = trim__workloads_intra(w, wi);
			trim_constraints *cons = NULL;
			ck_assert_int_eq(trim_constraints_create(&cons), 0);
			ck_assert_int_eq(trim_constraints_add_preset(cons, presets[pi]), 0);
			trim__mapspace s, other;
			ck_assert_int_eq(trim__mapspace_init(&s, x, a), 0);
			ck_assert_int_eq(trim__mapspace_init(&other, x, a), 0);
			ck_assert_int_eq(trim__mapspace_constrain(cons, &s), 0);
			ck_assert_int_eq(trim__mapspace_constrain(cons, &other), 0);
			ck_assert(s.memo_id != other.memo_id && s.memo_id && other.memo_id);
			other.reserved[rf] = a->lv[rf].capacity_bytes / 3;
			int64_t zero_macs = 0;
			ck_assert_int_eq(trim__intra_act_zero_macs(x, &zero_macs), 0);
			/* mappings obeying the constraints: decoded raw indices, kept
			 * when the constraints' row filters allow their factors */
			uint64_t idx[N];
			sample_obeying(&s, 0x2545f4914f6cdd1dull, N, idx);
			static double off[N * TRIM__MAX_LEVELS], on1[N * TRIM__MAX_LEVELS], on2[N * TRIM__MAX_LEVELS],
			    tmp[N * TRIM__MAX_LEVELS];
			uint64_t hits = 0; /* the memo's answers to both mapspaces */
			s.test_memo_hits = other.test_memo_hits = &hits;
			for (int pass = 0; pass < 2; pass++) {
				s.reserved[rf] = pass ? a->lv[rf].capacity_bytes / 4 : 0;
				const uint64_t hoff = hits;
				s.test_memo_off = 1;
				memo_bounds(&s, c, zero_macs, idx, N, off, sw);
				s.test_memo_off = 0;
				ck_assert_msg(hits == hoff, "the memo answered with test_memo_off set");
				const uint64_t h0 = hits;
				memo_bounds(&s, c, zero_macs, idx, N, on1, sw);
				memo_bounds(&other, c, zero_macs, idx, N, tmp, sw);
				memo_bounds(&s, c, zero_macs, idx, N, on2, sw);
				ck_assert_msg(hits > h0, "%s conv2 %d: the memo never answered", presets[pi],
				              ph);
				for (int k = 0; k < N * TRIM__MAX_LEVELS; k++) {
					if (k % TRIM__MAX_LEVELS == 0 || k % TRIM__MAX_LEVELS >= s.nslots)
						continue;
					ck_assert_msg(memcmp(&off[k], &on1[k], sizeof off[k]) == 0 &&
					                  memcmp(&off[k], &on2[k], sizeof off[k]) == 0,
					              "%s conv2 %d pass %d, mapping %d depth %d: %.17g without the memo, %.17g and "
					              "%.17g with it",
					              presets[pi], ph, pass, k / TRIM__MAX_LEVELS, k % TRIM__MAX_LEVELS, off[k], on1[k],
					              on2[k]);
					if (pass == 1)
						reserved_mattered |= off[k] != tmp[k] || 0;
				}
				if (pass == 0)
					memcpy(tmp, off, sizeof tmp); /* the bounds with nothing reserved */
			}
			/* the searches themselves under three settings asked in turn
			 * (as loaded; the RF's reserved bytes raised; a cap of 3 on
			 * F at the RF): with the memo as without it, each setting
			 * changing some answer (a key that left the reserved bytes or
			 * the caps out would give the previous setting's) */
			enum { NH = 40 * 2 * 3 * 8 * 2 };
			static int64_t h_off[3][NH], h_on[NH];
			s.reserved[rf] = 0;
			const int64_t fmax_f = s.fmax[rf][TRIM_DIM_F];
			for (int set = 0; set < 3; set++) {
				s.reserved[rf] = set == 1 ? a->lv[rf].capacity_bytes * 3 / 4 : 0;
				s.fmax[rf][TRIM_DIM_F] = set == 2 ? 3 : fmax_f;
				s.test_memo_off = 1;
				memo_hooks(&s, c, idx, 40, h_off[set], sw);
				s.test_memo_off = 0;
				memo_hooks(&s, c, idx, 40, h_on, sw);
				ck_assert_msg(!memcmp(h_on, h_off[set], sizeof h_on), "%s conv2 %d setting %d: the memo's answers differ",
				              presets[pi], ph, set);
				if (set)
					memo_changed[set - 1] |= memcmp(h_off[set], h_off[0], sizeof h_on) != 0;
			}
			s.reserved[rf] = 0;
			s.fmax[rf][TRIM_DIM_F] = fmax_f;
			if (pi == 0 && ph == 1) {
				/* a whole search (conv3 WG: seconds under the sanitizers):
				 * the same best and counts either way */
				trim__search_result r0, r1;
				trim__mapspace s3;
				ck_assert_int_eq(trim_workloads_find(w, "conv3", TRIM_PHASE_WG, &wi), 0);
				ck_assert_int_eq(trim__mapspace_init(&s3, trim__workloads_intra(w, wi), a), 0);
				ck_assert_int_eq(trim__mapspace_constrain(cons, &s3), 0);
				s3.test_memo_off = 1;
				ck_assert_int_eq(trim__search(&s3, c, TRIM__GOAL_ENERGY, 2, &r0), 0);
				s3.test_memo_off = 0;
				ck_assert_int_eq(trim__search(&s3, c, TRIM__GOAL_ENERGY, 2, &r1), 0);
				ck_assert(r0.found && r1.found && r0.exact && r1.exact);
				ck_assert(r0.best_cost == r1.best_cost && r0.best_index == r1.best_index);
				ck_assert_uint_eq(r0.generated, r1.generated);
				ck_assert_uint_eq(r0.evaluated, r1.evaluated);
				ck_assert_uint_eq(r0.bounded, r1.bounded);
				trim__search_result_free(&r0);
				trim__search_result_free(&r1);
				trim__mapspace_free(&s3);
			}
			trim__mapspace_free(&s);
			trim__mapspace_free(&other);
			trim_constraints_free(cons);
		}
	ck_assert_msg(reserved_mattered, "the RF's reserved bytes changed no bound: the check of the key is vacuous");
	ck_assert_msg(memo_changed[0] && memo_changed[1],
	              "the reserved bytes (%d) or the cap (%d) changed no search's answer: the check of the key is vacuous",
	              memo_changed[0], memo_changed[1]);
	search_fixture_free(&ae);
	trim__stationary_workspace_free(sw);
}
END_TEST

/* The sliding-window floor per first loop (lib/search/stationary_bound.c,
 * docs/model.md *Stationarity of a sliding window*): each possible first
 * loop above the level takes the windowed tensor's floor of its own dim.
 * On the nodes at every depth above 60 sampled mappings of AlexNet conv2
 * (FW, BW, WG) on Eyeriss under row-stationary, the node bound is the least
 * over the dims that may have that loop of the node bound with that dim
 * alone (the mapspace's test_first_only), the same bits: a variant given
 * another dim's floor differs there. And the top node above conv2 WG's
 * best mapping under the preset is within 10% of its cost (83.6% with one
 * floor, the least over the dims, for every first loop). */
START_TEST(test_window_floor_first_loop)
{
	stationary_workspace *sw = trim__stationary_workspace_new(); /* the node bounds' own */
	ck_assert_ptr_nonnull(sw);
	alexnet_eyeriss ae;
	alexnet_eyeriss_load(&ae);
	trim_workloads *w = ae.w;
	trim_arch *a = ae.a;
	const trim__level_cost *c = ae.c;
	trim_constraints *cons = NULL;
	ck_assert_int_eq(trim_constraints_create(&cons), 0);
	ck_assert_int_eq(trim_constraints_add_preset(cons, "row-stationary"), 0);
	enum { N = 60 };
	const int phases[] = {TRIM_PHASE_FW, TRIM_PHASE_BW, TRIM_PHASE_WG};
	uint64_t compared = 0, split = 0, higher = 0;
	for (int ph = 0; ph < 3; ph++) {
		size_t wi = 0;
		ck_assert_int_eq(trim_workloads_find(w, "conv2", phases[ph], &wi), 0);
		const trim__intra *x = trim__workloads_intra(w, wi);
		trim__mapspace s;
		ck_assert_int_eq(trim__mapspace_init(&s, x, a), 0);
		ck_assert_int_eq(trim__mapspace_constrain(cons, &s), 0);
		int64_t zero_macs = 0;
		ck_assert_int_eq(trim__intra_act_zero_macs(x, &zero_macs), 0);
		uint64_t idx[N];
		sample_obeying(&s, 0x9e3779b97f4a7c15ull, N, idx);
		for (int i = 0; i < N; i++) {
			trim__mapping m, node;
			trim__eval ev;
			ck_assert_int_eq(trim__mapspace_decode(&s, idx[i], &m), 0);
			for (int depth = 1; depth < s.nslots; depth++) {
				double lb, least = HUGE_VAL;
				trim__mapspace_node_of(&s, depth, &m, &node);
				unsigned dims = 0;
				s.test_first_dims = &dims;
				trim__mapspace_node_lb(&s, c, TRIM__GOAL_ENERGY, depth, zero_macs, &node, &ev, &lb, sw);
				s.test_first_dims = NULL;
				if (!dims)
					continue;
				for (int d = 0; d < TRIM_NDIMS; d++) {
					if (!(dims >> d & 1))
						continue;
					double one;
					s.test_first_only = 1u << d;
					trim__mapspace_node_lb(&s, c, TRIM__GOAL_ENERGY, depth, zero_macs, &node, &ev, &one, sw);
					s.test_first_only = 0;
					if (one < least)
						least = one;
					higher += one > lb; /* the restriction took effect */
				}
				ck_assert_msg(!memcmp(&lb, &least, sizeof lb),
				              "conv2 phase %d mapping %d depth %d: bound %.17g, least over the first loops %.17g",
				              ph, i, depth, lb, least);
				compared++;
				split += __builtin_popcount(dims) > 1;
			}
		}
		if (phases[ph] == TRIM_PHASE_WG) {
			/* the best mapping of conv2 WG under the preset (trim map
			 * models/networks/alexnet.yaml models/arch/eyeriss.yaml --layer
			 * conv2 --phase WG --mode training --dataflow row-stationary) */
			trim__mapping m, node;
			trim__eval e, ev;
			trim__eval_ws ws = {0};
			double lb;
			ck_assert_int_eq(trim__mapspace_decode(&s, 671802328355156928ull, &m), 0);
			ck_assert_int_eq(trim__mapping_check(&m, x, a), 0);
			ck_assert_int_eq(trim__eval_run(x, a, c, &m, &ws, &e), 0);
			trim__mapspace_node_of(&s, 1, &m, &node);
			trim__mapspace_node_lb(&s, c, TRIM__GOAL_ENERGY, 1, zero_macs, &node, &ev, &lb, sw);
			ck_assert_msg(lb <= e.energy_pj && lb >= 0.9 * e.energy_pj,
			              "conv2 WG: top node bound %.6g, best mapping %.6g (%.1f%%)", lb, e.energy_pj,
			              100 * lb / e.energy_pj);
			trim__eval_ws_free(&ws);
		}
		trim__mapspace_free(&s);
	}
	ck_assert_uint_gt(compared, 100);
	ck_assert_uint_gt(split, 0);
	ck_assert_msg(higher > 0, "no variant of one first loop bounded above the node bound: the check is vacuous");
	trim_constraints_free(cons);
	search_fixture_free(&ae);
	trim__stationary_workspace_free(sw);
}
END_TEST

/* The joint order's reuse of a tensor's figures for a refill at every
 * step of a level (joint_variants.refill_v) against computing them for
 * every variant: the joint bound of the nodes at every depth above 150
 * sampled mappings of AlexNet conv2 (FW, WG) on Eyeriss, without
 * constraints and under row-stationary, is the same bits either way, and
 * the reuse happened. */
/* A time limit stops the seed's evaluations within a pick, between its
 * bypass choices, once k real mappings are in hand (seed_bound.c; with
 * ragged factors on several spatial levels an evaluation takes
 * milliseconds and one pick's bypass choices seconds). Stopped at its first
 * check (after the greedy seed's minimum, which gives the mapping in
 * hand), AlexNet fc8 WG on Eyeriss has evaluated at most one bypass
 * choice's seeds (3: one stationary order per tensor) and returns a
 * mapping that passes the check; the exact search's seeds evaluate many
 * more (before, the first check came after 4 picks' every bypass choice). */
START_TEST(test_seed_stops_within_pick)
{
	alexnet_eyeriss ae;
	alexnet_eyeriss_load(&ae);
	size_t wi = 0;
	ck_assert_int_eq(trim_workloads_find(ae.w, "fc8", TRIM_PHASE_WG, &wi), 0);
	const trim__intra *x = trim__workloads_intra(ae.w, wi);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, x, ae.a), 0);
	ck_assert_int_gt(s.nbyp, 1);
	trim__search_result r;
	s.stop_after = 1;
	ck_assert_int_eq(trim__search(&s, ae.c, TRIM__GOAL_ENERGY, 1, &r), 0);
	s.stop_after = 0;
	ck_assert(r.found && r.stopped && !r.exact);
	ck_assert_uint_le(r.seed_evaluated, 3);
	/* overdue at the second check (twice stop_after): the sample stops at
	 * its first pick instead of its floor of 256 factorisations */
	ck_assert_uint_ge(r.seed_sampled, 1);
	ck_assert_uint_le(r.seed_sampled, 2);
	/* the greedy seed before it: stopped after its minimum (greedy_seed.c) */
	ck_assert_uint_ge(r.greedy_evaluated, 2);
	ck_assert_uint_le(r.greedy_evaluated, 2000);
	ck_assert_int_eq(trim__mapping_check(&r.best, x, ae.a), 0);
	trim__search_result_free(&r);
	/* stopped at the 200th check, overdue only at the 400th: the floor
	 * holds (256 factorisations, then the stop, seen every 32) */
	s.stop_after = 200;
	ck_assert_int_eq(trim__search(&s, ae.c, TRIM__GOAL_ENERGY, 1, &r), 0);
	s.stop_after = 0;
	ck_assert(r.found && r.stopped && !r.exact);
	ck_assert_uint_eq(r.seed_sampled, 256);
	trim__search_result_free(&r);
	/* the same through the clock: a limit of a nanosecond is overdue at
	 * the first check */
	s.time_limit = 1e-9;
	ck_assert_int_eq(trim__search(&s, ae.c, TRIM__GOAL_ENERGY, 1, &r), 0);
	s.time_limit = 0;
	ck_assert(r.found && r.stopped && !r.exact);
	ck_assert_uint_le(r.seed_sampled, 2);
	ck_assert_uint_le(r.seed_evaluated, 3);
	ck_assert_int_eq(trim__mapping_check(&r.best, x, ae.a), 0);
	trim__search_result_free(&r);
	ck_assert_int_eq(trim__search(&s, ae.c, TRIM__GOAL_ENERGY, 1, &r), 0);
	ck_assert(r.found && r.exact);
	ck_assert_uint_gt(r.seed_evaluated, 12);
	ck_assert_uint_gt(r.seed_sampled, 256); /* the whole sample: min(2048, the combinations) */
	trim__search_result_free(&r);
	trim__mapspace_free(&s);
	search_fixture_free(&ae);
}
END_TEST

START_TEST(test_joint_refill_reuse)
{
	stationary_workspace *sw = trim__stationary_workspace_new(); /* the node bounds' own */
	ck_assert_ptr_nonnull(sw);
	alexnet_eyeriss ae;
	alexnet_eyeriss_load(&ae);
	trim_workloads *w = ae.w;
	trim_arch *a = ae.a;
	const trim__level_cost *c = ae.c;
	uint64_t reuses = 0; /* the joint variants' reuses of a refill's figures */
	for (int pi = 0; pi < 2; pi++)
		for (int ph = 0; ph < 2; ph++) {
			size_t wi = 0;
			ck_assert_int_eq(trim_workloads_find(w, "conv2", ph ? TRIM_PHASE_WG : TRIM_PHASE_FW, &wi), 0);
			const trim__intra *x = trim__workloads_intra(w, wi);
			trim__mapspace s;
			ck_assert_int_eq(trim__mapspace_init(&s, x, a), 0);
			s.test_joint_reuses = &reuses;
			trim_constraints *cons = NULL;
			if (pi) {
				ck_assert_int_eq(trim_constraints_create(&cons), 0);
				ck_assert_int_eq(trim_constraints_add_preset(cons, "row-stationary"), 0);
				ck_assert_int_eq(trim__mapspace_constrain(cons, &s), 0);
			}
			int64_t zero_macs = 0;
			ck_assert_int_eq(trim__intra_act_zero_macs(x, &zero_macs), 0);
			uint64_t idx[150];
			sample_obeying(&s, 0x9e3779b97f4a7c15ull, 150, idx);
			for (int i = 0; i < 150; i++) {
				trim__mapping m, node;
				trim__eval ev;
				ck_assert_int_eq(trim__mapspace_decode(&s, idx[i], &m), 0);
				for (int depth = 1; depth < s.nslots; depth++) {
					double on, off;
					trim__mapspace_node_of(&s, depth, &m, &node);
					const uint64_t r1 = reuses;
					s.test_joint_reuse_off = 1;
					trim__node_bound_joint(&s, c, TRIM__GOAL_ENERGY, depth, zero_macs, &node, &ev, &off, sw);
					s.test_joint_reuse_off = 0;
					ck_assert_msg(reuses == r1, "a joint variant reused figures with the reuse off");
					trim__node_bound_joint(&s, c, TRIM__GOAL_ENERGY, depth, zero_macs, &node, &ev, &on, sw);
					ck_assert_msg(memcmp(&on, &off, sizeof on) == 0,
					              "conv2 %s %s, depth %d: joint bound %.17g with the reuse, %.17g without",
					              ph ? "WG" : "FW", pi ? "row-stationary" : "unconstrained", depth, on, off);
				}
			}
			trim_constraints_free(cons);
			trim__mapspace_free(&s);
		}
	ck_assert_msg(reuses > 0, "no joint variant reused a refill's figures: the check is vacuous");
	search_fixture_free(&ae);
	trim__stationary_workspace_free(sw);
}
END_TEST

/* The joint order's per-tensor figures against every mapping (brute
 * force): for each subset of the storage levels, with each one's innermost
 * loop (bound > 1) of the mapping as the variant's, no tensor's figure for
 * the mapping's keep choice is above the evaluator's energy of that tensor.
 * A 1-D strided window on DRAM -> GLB -> NoC 2x1 -> RF, so that the window
 * dims slide under every level and a level between may loop on them
 * (input bypassing the GLB); the sliding-window rule raises some figures
 * (window_higher: a rule that never binds would not be tested). */
START_TEST(test_joint_window_brute)
{
	for (int stride = 1; stride <= 2; stride++) {
		struct trim_arch a;
		trim__intra w;
		tu_arch_init(&a, "window");
		trim__level *d = tu_storage(&a, "DRAM", 0, 16);
		d->read_bw = d->write_bw = 2;
		trim__level *g = tu_storage(&a, "GLB", 64, 16);
		g->read_bw = g->write_bw = 2;
		tu_spatial(&a, "NoC", 2, 1, 1, 1);
		tu_storage(&a, "RF", 16, 16);
		tu_compute(&a, "MAC");
		tu_arch_finish(&a);
		/* M = 2, E = 4, R = 3 (stride 1: 6 input rows; stride 2: 9) */
		ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 1, 2, 1, stride == 1 ? 6 : 9, 1, 3, 1, stride, 1, 0),
		                 0);
		trim__mapspace s;
		trim__level_cost c[TRIM__MAX_LEVELS];
		tu_costs(&a, c);
		ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
		trim__eval_ws ws = {0};
		int64_t zero_macs = 0;
		ck_assert_int_eq(trim__intra_act_zero_macs(&w, &zero_macs), 0);
		const int nl = a.nlevels, depth = s.nslots - 1;
		uint64_t checked = 0, window_higher = 0;
		for (uint64_t i = 0; i < s.size; i += 3) { /* every third: the suite's time */
			trim__mapping m, node;
			trim__eval e;
			REQUIRE(trim__mapspace_decode(&s, i, &m) == 0, "decode");
			if (trim__mapping_check(&m, &w, &a) != 0)
				continue;
			REQUIRE(trim__eval_run(&w, &a, c, &m, &ws, &e) == 0, "%s", trim_last_error());
			trim__mapspace_node_of(&s, depth, &m, &node);
			node_frame f;
			if (trim__node_frame(&s, c, depth, zero_macs, &node, &f) != 0)
				continue;
			tensor_figures tf[3];
			tensor_reuse r[3];
			for (int t = 0; t < 3; t++) {
				trim__tensor_figures_clear(&s, &f, t, &tf[t]);
				trim__tensor_bound(&s, c, &f, &node, t, &tf[t], &r[t], NULL);
			}
			/* the mapping's innermost loop at each storage level */
			int inner_of[TRIM__MAX_LEVELS];
			unsigned levels = 0;
			for (int l = 0; l < nl; l++) {
				inner_of[l] = -1;
				if (a.lv[l].type != TRIM__LVL_STORAGE)
					continue;
				for (int j = 0; j < TRIM_NDIMS; j++)
					if (m.f[l][m.order[l][j]] > 1)
						inner_of[l] = m.order[l][j]; /* the last one: innermost */
				levels |= (unsigned)(inner_of[l] >= 0) << l;
			}
			for (int t = 0; t < 3; t++) {
				double exact = 0;
				for (int l = 0; l < nl; l++)
					if (a.lv[l].type != TRIM__LVL_COMPUTE)
						exact += e.dyn_pj[l][t];
				int choice = 0, j = 0; /* the keep bits of the levels below the outermost */
				for (int l = 1; l < nl; l++)
					if (a.lv[l].type == TRIM__LVL_STORAGE && a.lv[l].keep[t])
						choice |= m.keep[l][t] << j++;
				for (unsigned sub = levels;; sub = (sub - 1) & levels) {
					int inner[TRIM__MAX_LEVELS];
					for (int l = 0; l < nl; l++)
						inner[l] = sub >> l & 1 ? inner_of[l] : -1;
					double E[64];
					trim__joint_tensor(&s, c, &f, &node, t, &r[t], inner, E);
					REQUIRE(E[choice] <= exact * (1 + 1e-9),
					        "stride %d index %llu tensor %d levels %#x: joint figure %.17g above the exact %.17g",
					        stride, (unsigned long long)i, t, sub, E[choice], exact);
					window_higher += t == 0 && E[choice] > tf[t].E[choice] * (1 + 1e-9);
					checked++;
					if (!sub)
						break;
				}
			}
		}
		trim__eval_ws_free(&ws);
		trim__mapspace_free(&s);
		ck_assert_uint_gt(checked, 0);
		ck_assert_uint_gt(window_higher, 0);
	}
}
END_TEST

/* The fallback bound of a factorisation (a tensor with more than
 * TRIM__FAST_CHOICES keep choices: seven levels that may hold it) is never
 * above the exact cost of a mapping with those factors, for its own keep
 * choice and for the minimum over every choice, for every goal. */
START_TEST(test_fallback_bound)
{
	static const char *names[] = {"DRAM", "L1", "L2", "L3", "L4", "L5", "L6", "L7"};
	struct trim_arch a;
	trim__intra w;
	tu_arch_init(&a, "deep");
	trim__level *d = tu_storage(&a, names[0], 0, 16);
	d->read_bw = d->write_bw = 2;
	for (int l = 1; l < 8; l++) {
		trim__level *L = tu_storage(&a, names[l], 64 + 32 * l, 16);
		L->read_bw = L->write_bw = 1 + l % 3;
	}
	tu_compute(&a, "MAC");
	tu_arch_finish(&a);
	ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 2, 2, 1, 3, 1, 2, 1, 1, 1, 0), 0);
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(&a, c);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	factor_bound *fb = calloc(1, sizeof *fb);
	ck_assert_ptr_nonnull(fb);
	ck_assert_int_eq(trim__factor_bound_plan(&s, fb), 0);
	for (int t = 0; t < 3; t++)
		ck_assert_int_gt(fb->nch[t], TRIM__FAST_CHOICES);
	int64_t zero_macs = 0;
	ck_assert_int_eq(trim__intra_act_zero_macs(&w, &zero_macs), 0);
	trim__eval_ws ws = {0};
	trim__eval e, bev;
	uint64_t st = 7;
	int checked = 0, tight = 0;
	for (int k = 0; k < 20000 && checked < 400; k++) {
		trim__index idx = (((trim__index)tu_rand(&st) << 64) | tu_rand(&st)) % s.size;
		trim__mapping m, f;
		ck_assert_int_eq(trim__mapspace_decode(&s, idx, &m), 0);
		if (trim__mapping_check(&m, &w, &a) || trim__eval_run(&w, &a, c, &m, &ws, &e))
			continue; /* misfits and mappings outside the analytic model */
		f = m;
		if (trim__factor_bound_compute(&s, fb, &f, &ws.act, 7u))
			continue;
		trim__factor_bound_prepare_fast(&s, fb, zero_macs, c, &f, &bev, 7u);
		ck_assert_int_eq(fb->fast, 0); /* the fallback path */
		int ch[3] = {0, 0, 0};
		for (int t = 0; t < 3; t++)
			for (int i = 0; i < fb->nbit[t]; i++)
				ch[t] = ch[t] * 2 + m.keep[s.byp_level[fb->bit[t][i]]][t];
		for (int goal = 0; goal < 3; goal++) {
			double cost = goal == TRIM__GOAL_ENERGY ? e.energy_pj : goal == TRIM__GOAL_DELAY ? e.cycles
			              : e.energy_pj * e.cycles;
			double lb_own, lb_any;
			f = m;
			int own = trim__factor_bound_cost(&s, fb, ch, zero_macs, c, &f, goal, &bev, &lb_own);
			f = m;
			ck_assert_int_eq(trim__factor_bound_cost(&s, fb, NULL, zero_macs, c, &f, goal, &bev, &lb_any), 0);
			ck_assert_msg(lb_any <= cost, "index %s goal %d: bound over every choice %.17g above the cost %.17g",
			              trim__index_str(idx, (char[48]){0}), goal, lb_any, cost);
			if (own == 0) {
				ck_assert_msg(lb_own <= cost, "goal %d: bound of its choice %.17g above the cost %.17g", goal,
				              lb_own, cost);
				ck_assert(lb_any <= lb_own);
				tight += lb_own >= 0.5 * cost;
			}
		}
		checked++;
	}
	ck_assert_int_ge(checked, 100);
	ck_assert_int_gt(tight, 0); /* the bound is not trivially low */
	trim__factor_bound_free(fb);
	free(fb);
	trim__eval_ws_free(&ws);
	trim__mapspace_free(&s);
}
END_TEST

Suite *search_bounds_suite(void)
{
	Suite *s = suite_create("search_bounds");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(tc, test_joint_across);
	tcase_add_test(tc, test_extents_memo);
	tcase_add_test(tc, test_window_floor_first_loop);
	tcase_add_test(tc, test_seed_stops_within_pick);
	tcase_add_test(tc, test_joint_refill_reuse);
	tcase_add_test(tc, test_joint_window_brute);
	tcase_add_test(tc, test_fallback_bound);
	suite_add_tcase(s, tc);
	return s;
}
