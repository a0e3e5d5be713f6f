/*
 * The mapspace index and the exhaustive search: index round trips, the
 * order equivalence the search relies on, the search against brute force
 * over the raw space, identical results with 1 and 2 threads (the bounds on
 * real layers against their slow forms: check_search_bounds.c).
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

/* The shared small spaces (tcase_util.h) as brute_vs_search builders. */
static void case_fc(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_fc(a, w), 0);
}

static void case_conv(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_conv(a, w), 0);
}

/* More small spaces for the bounds: every layer kind and phase on
 * DRAM -> NoC 2x1 -> RF -> MAC (bypass at the RF), 1-D windows. */
static int g_kind, g_phase, g_u, g_pad;
static void case_kind(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "tiny");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	tu_spatial(a, "NoC", 2, 1, g_phase != TRIM_PHASE_BW, 1);
	tu_storage(a, "RF", 12, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	int fc = g_kind == TU_FC;
	ck_assert_int_eq(tu_layer(w, g_kind, g_phase, 1, 2, 2, g_kind == TU_DEPTHWISE ? 2 : 1, fc ? 1 : 3, 1,
	                          fc ? 1 : 2, 1, g_u, 1, g_pad), 0);
}

START_TEST(test_index_roundtrip)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__mapping m, c;
	case_fc(&a, &w);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	/* 4 slots: M = 4 has 10 ordered factorisations, C = 2 has 4; 6 keep bits;
	 * 2 dims > 1 -> 2 orders at each of the 2 storage levels with a level
	 * below that may hold a tensor (the innermost level's order is fixed) */
	ck_assert_uint_eq(s.nfact, 40);
	ck_assert_int_eq(s.nbyp, 6);
	ck_assert_int_eq(s.nord, 2);
	ck_assert_uint_eq(s.size, 40ull * 64 * 4);
	for (uint64_t i = 0; i < s.size; i++) {
		trim__index j = ~(trim__index)0;
		REQUIRE(trim__mapspace_decode(&s, i, &m) == 0, "decode %llu", (unsigned long long)i);
		REQUIRE(trim__mapspace_encode(&s, &m, &j) == 0, "encode %llu", (unsigned long long)i);
		REQUIRE(i == j, "index %llu encodes back to %llu", (unsigned long long)i, (unsigned long long)j);
		c = m;
		trim__mapspace_canonical(&s, &c);
		trim__mapping d = c;
		trim__mapspace_canonical(&s, &d);
		REQUIRE(!memcmp(&c, &d, sizeof c), "canonical form of %llu is not idempotent", (unsigned long long)i);
	}
	ck_assert_int_eq(trim__mapspace_decode(&s, s.size, &m), TRIM_ERANGE);
	trim__mapspace_free(&s);
}
END_TEST

/* The order classes: on random layers (conv, depthwise, FC, pools; FW, BW,
 * WG; strides, dilation, padding) and random mappings (factors over
 * DRAM -> GLB -> NoC -> L1 -> RF, bypass, every order), the class
 * representative has exactly the activities of the mapping, and an order
 * code no larger than the mapping's own (dims of bound 1 placed
 * canonically). Also counts how often the representative differs from the
 * mapping's order beyond the old rule (the new classes do merge orders). */
START_TEST(test_order_classes)
{
	uint64_t st = 0x5eed0c1a55e5ull;
	trim__act_ws ws = {0};
	int merged = 0, done = 0, big = 0;
	for (int it = 0; it < 3000; it++) {
		struct trim_arch a;
		trim__intra w;
		int kind = (int)tu_range(&st, 0, 4), phase = (int)tu_range(&st, 0, 2);
		int64_t r = tu_range(&st, 1, 3), u = tu_range(&st, 1, 2), dil = tu_range(&st, 1, 2),
		        pad = tu_range(&st, 0, 1), ih = tu_range(&st, 3, 6), iw = tu_range(&st, 2, 5);
		if (kind == TU_FC)
			ih = iw = r = 1;
		if (tu_layer(&w, kind, phase, tu_range(&st, 1, 2), 2 * tu_range(&st, 1, 2), 2 * tu_range(&st, 1, 3),
		             kind == TU_CONV ? tu_range(&st, 1, 2) : 1, ih, iw, r, kind == TU_FC ? 1 : tu_range(&st, 1, 2),
		             u, dil, pad))
			continue;
		tu_arch_init(&a, "classes");
		tu_storage(&a, "DRAM", 0, 16);
		tu_storage(&a, "GLB", 0, 16);
		tu_spatial(&a, "NoC", 4, 4, (int)tu_range(&st, 0, 1), (int)tu_range(&st, 0, 1));
		tu_storage(&a, "L1", 0, 16);
		tu_storage(&a, "RF", 0, 16);
		tu_compute(&a, "MAC");
		tu_arch_finish(&a);
		trim__mapspace s;
		int rc = trim__mapspace_init(&s, &w, &a);
		if (rc == TRIM_ERANGE) { /* more than 2^64 raw mappings: no index */
			big++;
			continue;
		}
		ck_assert_int_eq(rc, 0);
		trim__mapping m, c, n;
		trim__mapping_init(&m, &a);
		for (int d = 0; d < TRIM_NDIMS; d++) {
			int64_t row = tu_range(&st, 0, s.nf[d] - 1);
			for (int i = 0; i < s.nslots; i++)
				m.f[s.slot[i]][d] = s.fact[d][row * s.nslots + i];
		}
		for (int i = 0; i < s.nslots; i++)
			for (int d = 0; d < TRIM_NDIMS; d++) {
				m.fx[s.slot[i]][d] = m.f[s.slot[i]][d];
				m.fy[s.slot[i]][d] = 1;
			}
		for (int j = 0; j < s.nbyp; j++)
			m.keep[s.byp_level[j]][s.byp_slot[j]] = tu_range(&st, 0, 2) > 0;
		for (int l = 0; l < a.nlevels; l++) { /* every storage level, in the index or not */
			if (a.lv[l].type != TRIM__LVL_STORAGE)
				continue;
			for (int i = 0; i < TRIM_NDIMS; i++)
				m.order[l][i] = i;
			for (int i = TRIM_NDIMS - 1; i > 0; i--) {
				int j = (int)tu_range(&st, 0, i), t = m.order[l][i];
				m.order[l][i] = m.order[l][j];
				m.order[l][j] = t;
			}
		}
		c = m;
		trim__mapspace_canonical(&s, &c);
		n = c;
		trim__mapspace_canonical(&s, &n);
		REQUIRE(!memcmp(&c, &n, sizeof c), "case %d: canonical form is not idempotent", it);
		/* the mapping with its own relative order (dims of bound 1 placed
		 * canonically): the representative's code is not larger */
		n = m;
		for (int k = 0; k < s.nord; k++) {
			int l = s.ord_level[k], o[TRIM_NDIMS], q = 0;
			for (int i = 0; i < TRIM_NDIMS; i++)
				if (m.f[l][m.order[l][i]] > 1)
					o[q++] = m.order[l][i];
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (m.f[l][d] == 1 && w.bound[d] > 1)
					o[q++] = d;
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (w.bound[d] == 1)
					o[q++] = d;
			memcpy(n.order[l], o, sizeof o);
		}
		/* order codes compare as the orders do, lexicographically */
		int cmp = 0;
		for (int k = 0; k < s.nord && !cmp; k++)
			for (int i = 0; i < TRIM_NDIMS && !cmp; i++)
				cmp = (c.order[s.ord_level[k]][i] > n.order[s.ord_level[k]][i]) -
				      (c.order[s.ord_level[k]][i] < n.order[s.ord_level[k]][i]);
		REQUIRE(cmp <= 0, "case %d: the representative's order code is above the member's", it);
		merged += cmp != 0;
		trim__activity x, y;
		memset(&x, 0, sizeof x);
		memset(&y, 0, sizeof y);
		int rx = trim__activity_compute(&w, &a, &m, &ws, &x), ry = trim__activity_compute(&w, &a, &c, &ws, &y);
		REQUIRE(rx == ry, "case %d: scope differs (%d, %d)", it, rx, ry);
		if (rx == 0) {
			done++;
			REQUIRE(!memcmp(&x, &y, sizeof x), "case %d (kind %d phase %d): the representative's activities differ",
			        it, kind, phase);
		}
		trim__mapspace_free(&s);
	}
	trim__act_ws_free(&ws);
	fprintf(stderr, "order classes: %d cases, %d evaluated, %d merged, %d without index\n", 3000, done, merged, big);
	ck_assert_int_gt(done, 1500);
	ck_assert_int_gt(merged, 150);
}
END_TEST

typedef struct {
	trim__index idx;
	int valid;
	int kept; /* valid and within the utilisation constraints */
	double cost, sec; /* the goal's cost and the second figure of the tie-break */
} cls;

static int cls_cost_cmp(const void *x, const void *y)
{
	const cls *a = x, *b = y;
	if (a->cost != b->cost)
		return a->cost < b->cost ? -1 : 1;
	if (a->sec != b->sec) /* a tie on the goal: the other figure, then the index */
		return a->sec < b->sec ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int cls_cmp(const void *x, const void *y)
{
	const cls *a = x, *b = y;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Brute force over every raw index vs. the search over the distinct space. */
typedef struct {
	int level, dim;
	int64_t bound;
} pin_t;

static void brute_vs_search_pinned(void (*mk)(struct trim_arch *, trim__intra *), int goal,
                                   const pin_t *pins, int npins);

static double g_min_pe, g_min_rf; /* utilisation constraints of the next brute force */
/* bytes reserved per level (training's cached activations) in the next brute force */
static int64_t g_reserved[TRIM__MAX_LEVELS];
static int g_reserved_on;
/* anytime runs of the brute-force cases that ended not exact (a test
 * checks that the gap cases do exercise inexact results) */
static int g_inexact_runs;
/* tensor figures checked against the tensor's energy in a mapping below
 * (a test checks that the brute-force cases exercise it) */
static uint64_t g_parts_checked;
/* bypass choices the exact-tie rule cut in the k = 1 runs (a test checks
 * that the brute-force cases exercise it) */
static uint64_t g_tie_cuts, g_tie_nodes, g_ties_tight, g_joint_higher, g_stopped_early, g_stop_points;
static node_counts *g_node_counts; /* the exact tie test's scratch */
/* the tie-break in the brute-force cases (tests check that they exercise
 * it): distinct mappings other than the best that share its cost, those of
 * them with another second figure, those that also share that (full ties),
 * and cases where the smallest index of the cost's ties is not the best
 * (where breaking ties by the index alone would answer wrongly) */
static uint64_t g_cost_ties, g_second_differs, g_full_ties, g_index_alone_wrong;

/* the next brute force's networks made systolic (one hop per forwarded word,
 * 2.5 per unicast word, the pipeline in the cycles) */
static int g_systolic;
/* the next brute force's counting rules (enum trim_count), and a factor on
 * its leakage (0: tu_costs') */
static int g_count;
static double g_leak_scale;
static void brute_vs_search(void (*mk)(struct trim_arch *, trim__intra *), int goal)
{
	brute_vs_search_pinned(mk, goal, NULL, 0);
}

static void brute_vs_search_pinned(void (*mk)(struct trim_arch *, trim__intra *), int goal,
                                   const pin_t *pins, int npins)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	trim__eval_ws ws = {0};
	mk(&a, &w);
	tu_costs(&a, c);
	trim__costs_set_count(c, a.nlevels, g_count);
	for (int l = 0; g_leak_scale > 0 && l < a.nlevels; l++)
		c[l].leak_pj_per_cycle *= g_leak_scale;
	for (int l = 0; g_systolic && l < a.nlevels; l++)
		if (a.lv[l].type == TRIM__LVL_SPATIAL) {
			a.lv[l].net = TRIM__NET_SYSTOLIC;
			c[l].avg_hops = 2.5;
			c[l].fwd_hops = 1;
		}
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	memcpy(s.reserved, g_reserved, sizeof s.reserved);
	uint64_t valid_unreserved = 0;
	for (int k = 0; k < npins; k++)
		ck_assert_int_eq(trim__mapspace_pin(&s, pins[k].level, pins[k].dim, pins[k].bound), 0);
	s.min_pe_util = g_min_pe;
	s.min_rf_util = g_min_rf;
	cls *seen = malloc(s.size * sizeof *seen);
	ck_assert_ptr_nonnull(seen);
	g_node_counts = malloc(sizeof *g_node_counts);
	ck_assert_ptr_nonnull(g_node_counts);
	int64_t zero_macs = 0;
	uint64_t nodes_checked = 0;
	ck_assert_int_eq(trim__activity_zero_macs(&w, &zero_macs), 0);
	int have = 0;
	double best = 0, best_sec = 0;
	uint64_t best_idx = 0;
	for (uint64_t i = 0; i < s.size; i++) {
		trim__mapping m, k;
		trim__eval e, ek;
		REQUIRE(trim__mapspace_decode(&s, i, &m) == 0, "decode");
		k = m;
		trim__mapspace_canonical(&s, &k);
		REQUIRE(trim__mapspace_encode(&s, &k, &seen[i].idx) == 0, "encode");
		int obeys = 1;
		for (int p = 0; p < npins; p++)
			obeys &= m.f[pins[p].level][pins[p].dim] == pins[p].bound;
		if (!obeys) {
			seen[i].idx = UINT64_MAX; /* outside the constrained space */
			seen[i].valid = seen[i].kept = 0;
			continue;
		}
		seen[i].valid = trim__mapping_check_reserved(&m, &w, &a, g_reserved) == 0;
		valid_unreserved += g_reserved_on && trim__mapping_check(&m, &w, &a) == 0;
		seen[i].kept = seen[i].valid && trim__mapspace_pe_util(&s, &m) >= g_min_pe &&
		               trim__mapspace_rf_util(&s, &m) >= g_min_rf;
		if (!seen[i].kept)
			continue;
		REQUIRE(trim__eval_run(&w, &a, c, &m, &ws, &e) == 0, "%s", trim_last_error());
		/* the order equivalence: the representative has the same activities */
		REQUIRE(trim__eval_run(&w, &a, c, &k, &ws, &ek) == 0, "%s", trim_last_error());
		REQUIRE(!memcmp(&e.act, &ek.act, sizeof e.act), "index %llu: equivalent orders differ",
		        (unsigned long long)i);
		REQUIRE(e.energy_pj == ek.energy_pj && e.cycles == ek.cycles, "costs differ");
		double cost = goal == TRIM__GOAL_ENERGY ? e.energy_pj : goal == TRIM__GOAL_DELAY ? e.cycles
		              : e.energy_pj * e.cycles;
		/* the tie-break's second figure: energy for delay and EDP, cycles for energy */
		const double sec = goal == TRIM__GOAL_ENERGY ? e.cycles : e.energy_pj;
		seen[i].cost = cost;
		seen[i].sec = sec;
		/* the branch-and-bound node bound of every prefix of m's factors
		 * (every slot up to the last) is not above m's cost */
		if (i % 3 == 0)
			for (int depth = 1; depth < s.nslots; depth++) {
				trim__mapping p;
				trim__eval ep;
				double lb = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p);
				REQUIRE(lb <= cost, "index %llu depth %d: node bound %.17g above the cost %.17g",
				        (unsigned long long)i, depth, lb, cost);
				/* the bound that may stop above a cut: the full one below
				 * the cut, a bound above it that is no higher than the full one */
				double lba;
				trim__node_bound_above(&s, c, goal, depth, zero_macs, &p, &ep, &lba, NULL, lb * 2);
				REQUIRE(lba == lb, "depth %d: bound %.17g with a cut above it, %.17g without", depth, lba, lb);
				trim__node_bound_above(&s, c, goal, depth, zero_macs, &p, &ep, &lba, NULL, lb * 0.5);
				REQUIRE(lba <= lb && (goal != TRIM__GOAL_ENERGY || lba > lb * 0.5),
				        "depth %d: bound %.17g with a cut at half, %.17g without", depth, lba, lb);
				g_stopped_early += lba < lb;
				/* so is the bound with the joint order of the known levels */
				double lbj;
				trim__node_bound_joint(&s, c, goal, depth, zero_macs, &p, &ep, &lbj);
				REQUIRE(lbj <= cost, "index %llu depth %d: joint node bound %.17g above the cost %.17g",
				        (unsigned long long)i, depth, lbj, cost);
				REQUIRE(lbj >= lb, "index %llu depth %d: joint bound %.17g below the plain one %.17g",
				        (unsigned long long)i, depth, lbj, lb);
				g_joint_higher += lbj > lb;
				/* each tensor's part of the bound (its cheapest keep choice
				 * whose own tiles fit) is at most that tensor's energy in
				 * m: the leaf children's bound takes each tensor's figure
				 * from the deepest node that has it (trim__leaf_children_bounds) */
				node_frame f;
				if (trim__node_frame(&s, c, depth, zero_macs, &p, &f) == 0)
					for (int t = 0; t < 3; t++) {
						if (!w.t[t].present)
							continue;
						tensor_figures tf;
						trim__node_tensor(&s, c, &f, &p, t, &tf);
						double et = 0;
						for (int l = 0; l < a.nlevels; l++)
							if (a.lv[l].type != TRIM__LVL_COMPUTE)
								et += e.dyn_pj[l][t];
						REQUIRE(tf.emin_fit <= et * (1 + 1e-12), "index %llu depth %d tensor %d: part %.17g above its energy %.17g",
						        (unsigned long long)i, depth, t, tf.emin_fit, et);
						g_parts_checked++;
					}
				/* the exact tie test never claims the node's mappings all rank
				 * after a mapping one ulp above m's cost (whatever its second
				 * figure and index), nor after one of m's cost and a second
				 * figure one ulp above m's, nor after m's figures with an
				 * index not below the node's */
				REQUIRE(!trim__node_tie_cut(&s, c, goal, depth, zero_macs, &p, &ep, nextafter(cost, HUGE_VAL),
				                            -HUGE_VAL, 1, g_node_counts),
				        "index %llu depth %d: tie test above the cost %.17g", (unsigned long long)i, depth, cost);
				REQUIRE(!trim__node_tie_cut(&s, c, goal, depth, zero_macs, &p, &ep, cost, nextafter(sec, HUGE_VAL), 1,
				                            g_node_counts),
				        "index %llu depth %d: tie test above the second figure %.17g", (unsigned long long)i, depth,
				        sec);
				REQUIRE(!trim__node_tie_cut(&s, c, goal, depth, zero_macs, &p, &ep, cost, sec, 0, g_node_counts),
				        "index %llu depth %d: tie test on a full tie without the index", (unsigned long long)i, depth);
				g_ties_tight += trim__node_tie_cut(&s, c, goal, depth, zero_macs, &p, &ep, cost, sec, 1, g_node_counts);
				nodes_checked++;
			}
		if (!have || cost < best || (cost == best && (sec < best_sec || (sec == best_sec && seen[i].idx < best_idx)))) {
			have = 1;
			best = cost;
			best_sec = sec;
			best_idx = seen[i].idx;
		}
	}
	ck_assert_uint_gt(nodes_checked, 0);
	qsort(seen, s.size, sizeof *seen, cls_cmp);
	uint64_t classes = 0, valid = 0, kept = 0, first_tie = UINT64_MAX;
	for (uint64_t i = 0; i < s.size; i++)
		if (seen[i].idx != UINT64_MAX && (!i || seen[i].idx != seen[i - 1].idx)) {
			classes++;
			valid += seen[i].valid;
			kept += seen[i].kept;
			if (!seen[i].kept || seen[i].cost != best)
				continue;
			if (first_tie == UINT64_MAX)
				first_tie = seen[i].idx; /* ascending: the smallest index of the cost's ties */
			if (seen[i].idx != best_idx) {
				g_cost_ties++;
				g_second_differs += seen[i].sec != best_sec;
				g_full_ties += seen[i].sec == best_sec;
				REQUIRE(seen[i].sec > best_sec || (seen[i].sec == best_sec && seen[i].idx > best_idx),
				        "brute force's best is not first on (cost, second figure, index)");
			}
		}
	g_index_alone_wrong += have && first_tie != best_idx;
	trim__search_result r1, r2;
	s.topk = 5;
	ck_assert_int_eq(trim__search(&s, c, goal, 1, &r1), 0);
	ck_assert_int_eq(trim__search(&s, c, goal, 2, &r2), 0);
	/* the top 5: the 5 smallest (cost, second figure, class index) of brute force */
	{
		cls *u = malloc(s.size * sizeof *u);
		ck_assert_ptr_nonnull(u);
		size_t nu = 0;
		for (uint64_t i = 0; i < s.size; i++)
			if (seen[i].kept && seen[i].idx != UINT64_MAX && (!i || seen[i].idx != seen[i - 1].idx))
				u[nu++] = seen[i];
		qsort(u, nu, sizeof *u, cls_cost_cmp);
		size_t want = nu < 5 ? nu : 5;
		ck_assert_uint_eq(r1.ntop, want);
		ck_assert_uint_eq(r2.ntop, want);
		for (size_t j = 0; j < want; j++) {
			ck_assert_msg(r1.top_cost[j] == u[j].cost && r1.top_second[j] == u[j].sec && r1.top_index[j] == u[j].idx,
			              "top %zu: search (%.17g, %.17g, %llu), brute force (%.17g, %.17g, %llu)", j, r1.top_cost[j],
			              r1.top_second[j], (unsigned long long)r1.top_index[j], u[j].cost, u[j].sec,
			              (unsigned long long)u[j].idx);
			ck_assert(r2.top_cost[j] == r1.top_cost[j] && r2.top_index[j] == r1.top_index[j]);
			ck_assert(!memcmp(&r1.top[j], &r2.top[j], sizeof r1.top[j]));
		}
		ck_assert(!memcmp(&r1.top[0], &r1.best, sizeof r1.best));
		free(u);
	}
	ck_assert(have && r1.found);
	ck_assert_msg(r1.best_cost == best, "search %.17g, brute force %.17g", r1.best_cost, best);
	ck_assert_uint_eq(r1.best_index, best_idx);
	ck_assert_uint_eq(r1.generated, classes);
	uint64_t dn = 0;
	ck_assert_int_eq(trim__mapspace_distinct(&s, &dn), 0);
	ck_assert_uint_eq(dn, classes); /* counted without enumeration */
	/* bounds skip work: what they skip was not needed for the answer */
	ck_assert_uint_le(r1.valid, valid);
	ck_assert_uint_le(r1.evaluated + r1.unsupported, kept);
	ck_assert_uint_ge(r1.valid + r1.bounded, valid);
	ck_assert_uint_ge(r1.evaluated + r1.unsupported + r1.bounded, kept);
	{
		/* without bounds: every valid distinct mapping is evaluated */
		trim__search_result r0;
		s.nobound = 1;
		ck_assert_int_eq(trim__search(&s, c, goal, 2, &r0), 0);
		s.nobound = 0;
		ck_assert_uint_eq(r0.generated, classes);
		ck_assert_uint_eq(r0.valid, valid);
		ck_assert_uint_eq(r0.evaluated + r0.unsupported, kept);
		ck_assert_uint_eq(r0.pruned, valid - kept);
		ck_assert_uint_eq(r0.bounded, 0);
		ck_assert(r0.best_cost == best && r0.best_index == best_idx);
		ck_assert_uint_eq(r0.ntop, r1.ntop);
		for (size_t j = 0; j < r0.ntop; j++)
			ck_assert(r0.top_cost[j] == r1.top_cost[j] && r0.top_index[j] == r1.top_index[j]);
		if (g_min_pe > 0 || g_min_rf > 0) /* the constraints did cut, and not everything */
			ck_assert(r0.pruned > 0 && r0.evaluated > 0);
		ck_assert_uint_lt(r0.valid, r0.generated); /* the capacities cut something */
		trim__search_result_free(&r0);
	}
	/* 1 and 2 threads: the same bytes, the same work */
	ck_assert_uint_eq(r1.generated, r2.generated);
	ck_assert_uint_eq(r1.valid, r2.valid);
	ck_assert_uint_eq(r1.evaluated, r2.evaluated);
	ck_assert_uint_eq(r1.bounded, r2.bounded);
	ck_assert_uint_eq(r1.pruned, r2.pruned);
	ck_assert_uint_eq(r1.best_index, r2.best_index);
	ck_assert(!memcmp(&r1.best_cost, &r2.best_cost, sizeof r1.best_cost));
	ck_assert(!memcmp(&r1.best, &r2.best, sizeof r1.best));
	trim__sb s1, s2;
	trim__sb_init(&s1);
	trim__sb_init(&s2);
	trim__eval_json(&r1.best_eval, &a, &r1.best, &s1);
	trim__eval_json(&r2.best_eval, &a, &r2.best, &s2);
	ck_assert_str_eq(s1.buf, s2.buf);
	trim__sb_free(&s1);
	trim__sb_free(&s2);
	/* the reservation and double buffering bind: fewer valid mappings */
	if (g_reserved_on)
		ck_assert_uint_lt(valid, valid_unreserved);
	/* 3 threads: the same bytes, the same work */
	{
		trim__search_result r3;
		ck_assert_int_eq(trim__search(&s, c, goal, 3, &r3), 0);
		ck_assert(r3.best_cost == r1.best_cost && r3.best_index == r1.best_index);
		ck_assert(r3.evaluated == r1.evaluated && r3.bounded == r1.bounded && r3.valid == r1.valid);
		ck_assert(!memcmp(&r3.best, &r1.best, sizeof r1.best));
		ck_assert_uint_eq(r3.ntop, r1.ntop);
		for (size_t j = 0; j < r3.ntop; j++)
			ck_assert(r3.top_cost[j] == r1.top_cost[j] && r3.top_index[j] == r1.top_index[j]);
		trim__search_result_free(&r3);
	}
	/* the exact search proves itself: exact, lower bound = best */
	ck_assert_int_eq(r1.exact, 1);
	ck_assert_int_eq(r1.stopped, 0);
	ck_assert(r1.lower_bound == r1.best_cost);
	/* every mapping returned passes the check trim eval applies */
	ck_assert_int_eq(trim__mapping_check_reserved(&r1.best, &w, &a, s.reserved), 0);
	/* anytime with a gap: the best found is a real mapping within the gap of
	 * brute force's optimum, the lower bound is below that optimum, and
	 * the run is the same for 1, 2 and 3 threads; an exact claim is true */
	s.topk = 1;
	static const double gaps[] = {0.01, 0.1, 0.3, 0.6};
	for (size_t gi = 0; gi < sizeof gaps / sizeof gaps[0]; gi++) {
		trim__search_result g[3];
		s.gap = gaps[gi];
		for (int t = 0; t < 3; t++)
			ck_assert_int_eq(trim__search(&s, c, goal, t + 1, &g[t]), 0);
		ck_assert(g[0].found);
		ck_assert_msg(g[0].lower_bound <= best, "gap %g: lower bound %.17g above the optimum %.17g", gaps[gi],
		              g[0].lower_bound, best);
		ck_assert(g[0].best_cost >= best);
		ck_assert_msg(g[0].best_cost - g[0].lower_bound <= gaps[gi] * g[0].best_cost * (1 + 1e-12),
		              "gap %g: best %.17g, lower bound %.17g", gaps[gi], g[0].best_cost, g[0].lower_bound);
		ck_assert_int_eq(trim__mapping_check_reserved(&g[0].best, &w, &a, s.reserved), 0);
		trim__eval ge;
		ck_assert_int_eq(trim__eval_run(&w, &a, c, &g[0].best, &ws, &ge), 0);
		double gc = goal == TRIM__GOAL_ENERGY ? ge.energy_pj : goal == TRIM__GOAL_DELAY ? ge.cycles
		            : ge.energy_pj * ge.cycles;
		ck_assert(gc == g[0].best_cost);
		if (g[0].exact)
			ck_assert(g[0].best_cost == best && g[0].best_index == best_idx && g[0].lower_bound == best);
		else
			g_inexact_runs++;
		for (int t = 1; t < 3; t++) {
			ck_assert(g[t].best_cost == g[0].best_cost && g[t].best_index == g[0].best_index);
			ck_assert(g[t].lower_bound == g[0].lower_bound && g[t].exact == g[0].exact);
			ck_assert(g[t].evaluated == g[0].evaluated && g[t].bounded == g[0].bounded);
		}
		for (int t = 0; t < 3; t++)
			trim__search_result_free(&g[t]);
	}
	s.gap = 0;
	/* the best alone (k = 1, where ties are cut by the second figure and the
	 * index): brute force's (cost, second figure, index) at 1, 2 and 3
	 * threads, the same work */
	{
		trim__search_result e[3];
		for (int t = 0; t < 3; t++) {
			ck_assert_int_eq(trim__search(&s, c, goal, t + 1, &e[t]), 0);
			ck_assert_msg(e[t].found && e[t].best_cost == best && e[t].best_index == best_idx,
			              "k = 1, %d threads: cost %.17g index %llu, brute force %.17g %llu", t + 1, e[t].best_cost,
			              (unsigned long long)e[t].best_index, best, (unsigned long long)best_idx);
			ck_assert(e[t].exact && e[t].evaluated == e[0].evaluated && e[t].bounded == e[0].bounded &&
			          e[t].tie_cuts == e[0].tie_cuts && e[t].tie_nodes == e[0].tie_nodes);
		}
		g_tie_cuts += e[0].tie_cuts;
		g_tie_nodes += e[0].tie_nodes;
		for (int t = 0; t < 3; t++)
			trim__search_result_free(&e[t]);
	}
	/* a time limit that stops at once: the seeds' best (a real mapping) or
	 * nothing, a lower bound below the optimum, not exact */
	{
		trim__search_result rt;
		s.time_limit = 1e-9;
		ck_assert_int_eq(trim__search(&s, c, goal, 2, &rt), 0);
		s.time_limit = 0;
		ck_assert_int_eq(rt.stopped, 1);
		ck_assert_int_eq(rt.exact, 0);
		if (rt.found) {
			ck_assert_int_eq(trim__mapping_check_reserved(&rt.best, &w, &a, s.reserved), 0);
			ck_assert(rt.best_cost >= best && rt.lower_bound <= best);
		}
		trim__search_result_free(&rt);
		/* and limits that stop anywhere in the set-up or the tree (while
		 * the children of a node have their bounds, say): whatever the
		 * point, the bound left is below the optimum */
		for (double lim = 1e-5; lim < 0.1; lim *= 4) {
			s.time_limit = lim;
			ck_assert_int_eq(trim__search(&s, c, goal, 1 + (lim > 1e-3), &rt), 0);
			s.time_limit = 0;
			if (rt.found) {
				ck_assert_int_eq(trim__mapping_check_reserved(&rt.best, &w, &a, s.reserved), 0);
				ck_assert_msg(rt.best_cost >= best && rt.lower_bound <= best,
				              "limit %g: best %.17g, bound %.17g, optimum %.17g", lim, rt.best_cost, rt.lower_bound, best);
			}
			ck_assert(rt.exact || rt.stopped);
			trim__search_result_free(&rt);
		}
		/* and a stop at each of the places a worker checks it (the same on
		 * every machine: the seed's sample, the top nodes' bounds, the
		 * children of every depth): one thread, at the 1st, 3rd, 7th, 15th ... check
		 * (twice as far each time), to the end */
		for (uint64_t at = 1;; at = 2 * at + 1) {
			s.stop_after = at;
			ck_assert_int_eq(trim__search(&s, c, goal, 1, &rt), 0);
			s.stop_after = 0;
			const int stopped = rt.stopped;
			if (rt.found) {
				ck_assert_int_eq(trim__mapping_check_reserved(&rt.best, &w, &a, s.reserved), 0);
				ck_assert_msg(rt.best_cost >= best && rt.lower_bound <= best,
				              "stopped at check %llu: best %.17g, bound %.17g, optimum %.17g", (unsigned long long)at,
				              rt.best_cost, rt.lower_bound, best);
			} else {
				ck_assert(stopped);
			}
			ck_assert(rt.exact != stopped);
			trim__search_result_free(&rt);
			if (!stopped)
				break; /* past the last check: the exact search */
			g_stop_points++;
		}
	}
	/* the best mapping decodes from its index */
	trim__mapping back;
	ck_assert_int_eq(trim__mapspace_decode(&s, r1.best_index, &back), 0);
	ck_assert(!memcmp(back.f, r1.best.f, sizeof back.f));
	ck_assert(!memcmp(back.keep, r1.best.keep, sizeof back.keep));
	trim__search_result_free(&r1);
	trim__search_result_free(&r2);
	free(seen);
	free(g_node_counts);
	g_node_counts = NULL;
	trim__eval_ws_free(&ws);
	trim__mapspace_free(&s);
}

START_TEST(test_search_fc_energy) { brute_vs_search(case_fc, TRIM__GOAL_ENERGY); }
END_TEST
/* TRIM's utilisation constraints prune exactly what they say */
START_TEST(test_search_utilization)
{
	g_min_pe = 0.5;
	g_min_rf = 0.5;
	brute_vs_search(case_fc, TRIM__GOAL_ENERGY);
	g_min_pe = 0.75;
	g_min_rf = 0;
	brute_vs_search(case_conv, TRIM__GOAL_EDP);
	g_min_pe = g_min_rf = 0;
}
END_TEST

/* custom factors: M = 2 at the GLB, C = 2 across the NoC */
START_TEST(test_search_fc_pinned)
{
	const pin_t pins[] = {{1, TRIM_DIM_M, 2}, {2, TRIM_DIM_C, 2}};
	brute_vs_search_pinned(case_fc, TRIM__GOAL_EDP, pins, 2);
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	case_fc(&a, &w);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	ck_assert_int_eq(trim__mapspace_pin(&s, 1, TRIM_DIM_M, 2), 0);
	ck_assert_int_eq(s.nrows[TRIM_DIM_M], 3); /* (2,1,1), (1,1,2)... with GLB = 2: 3 rows */
	ck_assert_int_eq(trim__mapspace_pin(&s, 1, TRIM_DIM_M, 3), TRIM_ENOFIT);
	ck_assert_int_eq(s.nrows[TRIM_DIM_M], 3); /* unchanged after a failed pin */
	ck_assert_int_eq(trim__mapspace_pin(&s, 1, TRIM_DIM_M, 0), 0);
	ck_assert_int_eq(s.nrows[TRIM_DIM_M], 10);
	trim__mapspace_free(&s);
}
END_TEST
START_TEST(test_search_fc_edp) { brute_vs_search(case_fc, TRIM__GOAL_EDP); }
END_TEST

/* On a systolic array (its pipeline in the cycles, one hop per forwarded
 * word): the bounds leave out what needs the whole mapping, the mappings
 * ranked include it, and the search equals brute force for every goal. */
START_TEST(test_search_systolic)
{
	g_systolic = 1;
	for (int goal = 0; goal < 3; goal++) {
		brute_vs_search(case_fc, goal);
		brute_vs_search(case_conv, goal);
	}
	g_systolic = 0;
}
END_TEST
/* A weight-stationary systolic array laid out as systolic-32x32: DRAM ->
 * GLB -> 2 x 2 PEs (multicast, reduction) -> a weight register (weights
 * only: partial sums go down the columns, read back from the GLB) -> MAC;
 * a 1x1 conv with M = C = E = 2 (levels 0-4); in BW (g_ws_layer) a conv
 * with C = 1, M = E = R = 2; a 2 x 1 max pool of stride 2 (E = R = 2). */
enum { WS_CONV_FW, WS_CONV_BW, WS_POOL };
static int g_ws_layer = WS_CONV_FW;
static void case_systolic_ws(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "ws");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	trim__level *g = tu_storage(a, "GLB", 24, 16);
	g->read_bw = g->write_bw = 4;
	tu_spatial(a, "Array", 2, 2, 1, 1);
	trim__level *r = tu_storage(a, "WReg", 4, 16);
	r->keep[0] = r->keep[2] = 0;
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	if (g_ws_layer == WS_CONV_FW)
		ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 2, 2, 1, 2, 1, 1, 1, 1, 1, 0), 0);
	else if (g_ws_layer == WS_CONV_BW) /* a 2-tap window: the input gradient's axis e + r */
		ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_BW, 1, 1, 2, 1, 3, 1, 2, 1, 1, 1, 0), 0);
	else /* windows apart: the input's axis 2 e + r, one to one */
		ck_assert_int_eq(tu_layer(w, TU_MAXPOOL, TRIM_PHASE_FW, 1, 2, 2, 1, 4, 1, 2, 1, 2, 1, 0), 0);
}

/* The systolic terms of the bounds (lib/search/systolic_bound.c): on the
 * weight-stationary array, every node bound (every prefix of every
 * mapping's factors) and every tensor's part stay at or below the
 * mapping's cost, and the search equals brute force (cost, second figure,
 * index; 1, 2 and 3 threads) for every goal, and for energy in BW (a
 * result with a window axis) and on a pool whose windows do not overlap. */
START_TEST(test_search_systolic_ws)
{
	g_systolic = 1;
	for (int goal = 0; goal < 3; goal++)
		brute_vs_search(case_systolic_ws, goal);
	for (g_ws_layer = WS_CONV_BW; g_ws_layer <= WS_POOL; g_ws_layer++)
		brute_vs_search(case_systolic_ws, TRIM__GOAL_ENERGY);
	g_ws_layer = WS_CONV_FW;
	g_systolic = 0;
}
END_TEST

/* The systolic terms bind: the node bound on the array is never below the
 * same bound with its words at one hop (a mesh of the same costs, where
 * they do not apply), and above it at many nodes, with each of the three
 * terms (read-backs, drained results, unicast operands) raising some, the
 * last also through a pool's one-to-one window axis (the array splitting R). */
START_TEST(test_systolic_bound_binds)
{
	uint64_t higher = 0, readback = 0, drained = 0, unicast = 0, window = 0;
	for (g_ws_layer = WS_CONV_FW; g_ws_layer <= WS_POOL; g_ws_layer += WS_POOL - WS_CONV_FW) {
		struct trim_arch a, mesh;
		trim__intra w;
		trim__mapspace s, sm;
		trim__level_cost c[TRIM__MAX_LEVELS];
		case_systolic_ws(&a, &w);
		tu_costs(&a, c);
		c[2].avg_hops = 2.5;
		c[2].fwd_hops = 1;
		mesh = a;
		a.lv[2].net = TRIM__NET_SYSTOLIC;
		mesh.lv[2].net = TRIM__NET_MESH;
		ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
		ck_assert_int_eq(trim__mapspace_init(&sm, &w, &mesh), 0);
		int64_t zero_macs = 0;
		ck_assert_int_eq(trim__activity_zero_macs(&w, &zero_macs), 0);
		int64_t elems = 1; /* the result's: the read-backs are updates - elems */
		for (int i = 0; i < w.t[2].ndims; i++)
			elems *= w.t[2].extent[i];
		for (uint64_t i = 0; i < s.size; i++) {
			trim__mapping m, p, pm;
			REQUIRE(trim__mapspace_decode(&s, i, &m) == 0, "decode");
			for (int depth = 1; depth < s.nslots; depth++) {
				const double lb = tu_node_lb(&s, c, TRIM__GOAL_ENERGY, depth, zero_macs, &m, &p);
				const double lbm = tu_node_lb(&sm, c, TRIM__GOAL_ENERGY, depth, zero_macs, &m, &pm);
				REQUIRE(lb >= lbm, "index %llu depth %d: %.17g below the one-hop bound %.17g",
				        (unsigned long long)i, depth, lb, lbm);
				higher += lb > lbm;
				node_frame f;
				if (trim__node_frame(&s, c, depth, zero_macs, &p, &f) || !f.allsp)
					continue;
				for (int t = 0; t < 3; t++)
					if (w.t[t].present && trim__systolic_hops(&s, c, &f, &p, t, 2) > 1) {
						drained += t == 2;
						unicast += t < 2;
						window += t == 0 && g_ws_layer == WS_POOL && p.f[2][TRIM_DIM_R] > 1;
					}
				/* the GLB keeping the result with elems + 5 updates: 5 read back */
				const int kept[5] = {1, 1, 0, 0, 0};
				const int64_t rdc[5] = {0, elems + 5, 0, 0, 0};
				int64_t rq[5] = {0, 0, 0, 0, 0}, down[5];
				if (trim__systolic_readbacks(&s, c, &f, &p, 2, kept, rdc, rq, down) > 0) {
					REQUIRE(rq[1] == 5 && down[2] == 5 && down[3] == 0, "read-backs %lld, down %lld, not 5",
					        (long long)rq[1], (long long)down[2]);
					readback++;
				}
			}
		}
		trim__mapspace_free(&s);
		trim__mapspace_free(&sm);
	}
	g_ws_layer = WS_CONV_FW;
	ck_assert_uint_gt(higher, 100);
	ck_assert_uint_gt(readback, 0);
	ck_assert_uint_gt(drained, 0);
	ck_assert_uint_gt(unicast, 0);
	ck_assert_uint_gt(window, 0);
}
END_TEST
/* The delay goal, where ties are the rule (many mappings take the compute
 * cycles alone): brute force's (cycles, energy, index) at 1, 2 and 3
 * threads, top 5 included (brute_vs_search). On the FC case 854 distinct
 * mappings share the best cycles at other energies, and the least energy
 * among them is not the smallest index (the answer of ties broken by the
 * index alone, as before); both cases have full ties (the same cycles and
 * energy) that the index decides. */
START_TEST(test_search_delay_ties)
{
	g_cost_ties = g_second_differs = g_full_ties = g_index_alone_wrong = 0;
	brute_vs_search(case_fc, TRIM__GOAL_DELAY);
	ck_assert_uint_gt(g_second_differs, 100);
	ck_assert_uint_eq(g_index_alone_wrong, 1);
	const uint64_t full = g_full_ties;
	brute_vs_search(case_conv, TRIM__GOAL_DELAY);
	ck_assert_uint_gt(full, 0);
	ck_assert_uint_gt(g_full_ties, full);
}
END_TEST
START_TEST(test_search_conv_energy) { brute_vs_search(case_conv, TRIM__GOAL_ENERGY); }
END_TEST

/* Timeloop's counting (TRIM_COUNT_TIMELOOP, docs/mapping.md rules 1, 3-6:
 * an operand shared per fan-out by identical tiles only, its windows along
 * the innermost loop only, no drain charged, leakage on the used instances
 * of a storage level, none for the MACs): every node bound, tensor part and tie test holds against
 * the costs so charged, and the search finds brute force's (cost, second
 * figure, index) and top 5 at 1, 2 and 3 threads (brute_vs_search). The
 * cases have partial sums drained at every level and fewer PEs used than
 * the array has (tu_costs: every level but DRAM leaks). */
static void case_hold_conv(struct trim_arch *a, trim__intra *w);

/* Timeloop's rules 1, 4 and 5 (an operand's identical tiles per fan-out, its
 * windows along the innermost loop): columns, a level keeping nothing, rows
 * (both multicasting and reducing), a convolution whose inputs slide (E =
 * 4, R = 2) and whose diagonals e + r are identical. */
static void case_tl_rows(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "tl-rows");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	tu_spatial(a, "Cols", 2, 1, 1, 1);
	trim__level *h = tu_storage(a, "Hold", 16, 16);
	h->keep[0] = h->keep[1] = h->keep[2] = 0;
	tu_spatial(a, "Rows", 2, 1, 1, 1);
	tu_storage(a, "RF", 12, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 5, 1, 2, 1, 1, 1, 0), 0);
}

/* Mappings of case_tl_rows whose operand reads (rules 1, 5) and fills
 * (rule 4) Timeloop's counting changes: the space exercises both. */
static void tl_rows_changed(uint64_t *reads, uint64_t *fills)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__act_ws ws = {0};
	case_tl_rows(&a, &w);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	*reads = *fills = 0;
	for (uint64_t i = 0; i < s.size; i++) {
		trim__mapping m;
		trim__activity x, y;
		ck_assert_int_eq(trim__mapspace_decode(&s, i, &m), 0);
		if (trim__mapping_check(&m, &w, &a))
			continue;
		ws.count = TRIM_COUNT_LIBTRIM;
		ck_assert_int_eq(trim__activity_compute(&w, &a, &m, &ws, &x), 0);
		ws.count = TRIM_COUNT_TIMELOOP;
		ck_assert_int_eq(trim__activity_compute(&w, &a, &m, &ws, &y), 0);
		int r = 0, f = 0;
		for (int l = 0; l < a.nlevels; l++)
			for (int t = 0; t < 2; t++) {
				r |= y.reads[l][t] != x.reads[l][t];
				f |= y.fills[l][t] != x.fills[l][t];
			}
		*reads += r;
		*fills += f;
	}
	trim__act_ws_free(&ws);
	trim__mapspace_free(&s);
}

START_TEST(test_search_count_timeloop)
{
	uint64_t changed_reads, changed_fills;
	tl_rows_changed(&changed_reads, &changed_fills);
	ck_assert_uint_gt(changed_reads, 0);
	ck_assert_uint_gt(changed_fills, 0);
	fprintf(stderr, "search count: case_tl_rows, %llu mappings whose reads and %llu whose fills Timeloop's rules change\n",
	        (unsigned long long)changed_reads, (unsigned long long)changed_fills);
	g_count = TRIM_COUNT_TIMELOOP;
	brute_vs_search(case_fc, TRIM__GOAL_ENERGY);
	brute_vs_search(case_conv, TRIM__GOAL_ENERGY);
	brute_vs_search(case_conv, TRIM__GOAL_EDP);
	brute_vs_search(case_hold_conv, TRIM__GOAL_ENERGY);
	brute_vs_search(case_tl_rows, TRIM__GOAL_ENERGY);
	brute_vs_search(case_tl_rows, TRIM__GOAL_DELAY);
	/* leakage that outweighs the accesses: the node bounds before the
	 * spatial factors are known take one used instance per storage level */
	g_leak_scale = 1000;
	brute_vs_search(case_fc, TRIM__GOAL_ENERGY);
	brute_vs_search(case_conv, TRIM__GOAL_EDP);
	g_leak_scale = 0;
	g_count = TRIM_COUNT_LIBTRIM;
}
END_TEST

/* A level that holds nothing (keep: [], AccelForge's always-bypassed
 * LocalBuffer, Timeloop's DummyBuffer) right below the GLB: an FC layer on
 * DRAM -> GLB -> Hold -> NoC 2x1 -> RF (weights, partial sums) -> MAC, and a convolution (a sliding
 * window: E = 4, R = 2) on DRAM -> Hold -> NoC 2x1 -> RF -> MAC. */
static void case_hold_fc(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "hold-fc");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 1;
	trim__level *g = tu_storage(a, "GLB", 24, 16);
	g->read_bw = g->write_bw = 2;
	trim__level *h = tu_storage(a, "Hold", 16, 16);
	h->keep[0] = h->keep[1] = h->keep[2] = 0;
	tu_spatial(a, "NoC", 2, 1, 1, 0);
	tu_storage(a, "RF", 6, 16)->keep[0] = 0; /* inputs stream past (a smaller space) */
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 2, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
}

static void case_hold_conv(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "hold-conv");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	trim__level *h = tu_storage(a, "Hold", 16, 16);
	h->keep[0] = h->keep[1] = h->keep[2] = 0;
	tu_spatial(a, "NoC", 2, 1, 1, 1);
	tu_storage(a, "RF", 12, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 5, 1, 2, 1, 1, 1, 0), 0);
}

/* The TPU-like shape, where the rule also cuts split dims: below Hold only
 * weights may be held (RF: weights), so every tensor held below it is an
 * operand without a window; a convolution (E = 4, R = 2: the inputs
 * slide, but go from the GLB straight to the MACs). */
static void case_hold_ws(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "hold-ws");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	trim__level *g = tu_storage(a, "GLB", 32, 16);
	g->read_bw = g->write_bw = 1;
	trim__level *h = tu_storage(a, "Hold", 16, 16);
	h->keep[0] = h->keep[1] = h->keep[2] = 0;
	tu_spatial(a, "NoC", 2, 1, 1, 1);
	trim__level *r = tu_storage(a, "RF", 4, 16);
	r->keep[0] = r->keep[2] = 0;
	r->read_bw = 1;
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 5, 1, 2, 1, 1, 1, 0), 0);
}

/* The rule of hold_nothing.c, on every raw mapping of both spaces: a
 * mapping whose level above Hold (up) has loops on dims Hold has none on
 * has exactly the activities and costs of the mapping with those loops
 * moved outermost into Hold, whose index is smaller; the search cuts the
 * first (as exact ties), and finds brute force's (cost, index) with 1, 2
 * and 3 threads, for the best and the top 5 (brute_vs_search). */
static void hold_nothing_moves(void (*mk)(struct trim_arch *, trim__intra *), int hold)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	trim__eval_ws ws = {0};
	mk(&a, &w);
	tu_costs(&a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	const int up = hold - 1;
	uint64_t moved = 0, split = 0, dominated = 0, dominated_lower = 0;
	for (uint64_t i = 0; i < s.size; i++) {
		trim__mapping m, mv;
		trim__eval e, ev;
		ck_assert_int_eq(trim__mapspace_decode(&s, i, &m), 0);
		unsigned above = 0, here = 0;
		for (int d = 0; d < TRIM_NDIMS; d++) {
			above |= (unsigned)(m.f[up][d] > 1) << d;
			here |= (unsigned)(m.f[hold][d] > 1) << d;
		}
		split += (above & here) != 0;
		if (above & here) {
			if (!trim__hold_nothing_dominated(&s, hold) || trim__mapping_check(&m, &w, &a) != 0)
				continue;
			/* dominated: the split dims' upper loops merged into Hold's
			 * refill nothing more often: no count rises, nor the costs,
			 * and the index falls */
			mv = m;
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (above & here & 1u << d) {
					mv.f[hold][d] *= mv.f[up][d];
					mv.f[up][d] = 1;
				}
			ck_assert_int_eq(trim__mapping_check(&mv, &w, &a), 0);
			ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
			ck_assert_int_eq(trim__eval_run(&w, &a, c, &mv, &ws, &ev), 0);
			for (int j = 0; j < TRIM__NACTIVITY_ROWS; j++) {
				int64_t (*x)[3] = trim__activity_rows(&e.act, j), (*y)[3] = trim__activity_rows(&ev.act, j);
				for (int l = 0; l < a.nlevels; l++)
					for (int t = 0; t < 3; t++)
						ck_assert_msg(y[l][t] <= x[l][t], "index %llu: row %d level %d tensor %d rose %lld -> %lld",
						              (unsigned long long)i, j, l, t, (long long)x[l][t], (long long)y[l][t]);
			}
			ck_assert(ev.energy_pj <= e.energy_pj && ev.cycles <= e.cycles);
			dominated_lower += ev.energy_pj < e.energy_pj;
			trim__index iv;
			ck_assert_int_eq(trim__mapspace_encode(&s, &mv, &iv), 0);
			ck_assert(iv < (trim__index)i);
			dominated++;
			continue;
		}
		if (!above || trim__mapping_check(&m, &w, &a) != 0)
			continue;
		/* the same nest: up's loops, then Hold's, all in Hold */
		mv = m;
		int n = 0;
		for (int pass = 0; pass < 3; pass++)
			for (int j = 0; j < TRIM_NDIMS; j++) {
				const int d = pass == 2 ? j : m.order[pass ? hold : up][j];
				const int64_t f = pass == 2 ? 1 : m.f[pass ? hold : up][d];
				if (pass == 2 ? mv.f[up][d] * mv.f[hold][d] == 1 : f > 1)
					mv.order[hold][n++] = d;
			}
		ck_assert_int_eq(n, TRIM_NDIMS);
		for (int d = 0; d < TRIM_NDIMS; d++) {
			mv.f[hold][d] *= mv.f[up][d];
			mv.f[up][d] = 1;
		}
		ck_assert_int_eq(trim__mapping_check(&mv, &w, &a), 0);
		ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
		ck_assert_int_eq(trim__eval_run(&w, &a, c, &mv, &ws, &ev), 0);
		ck_assert_msg(!memcmp(&e.act, &ev.act, sizeof e.act), "index %llu: moving the loops into %s changed the counts",
		              (unsigned long long)i, a.lv[hold].name);
		ck_assert(e.energy_pj == ev.energy_pj && e.cycles == ev.cycles);
		trim__index iv;
		ck_assert_int_eq(trim__mapspace_encode(&s, &mv, &iv), 0);
		ck_assert_msg(iv < (trim__index)i, "index %llu: the moved mapping's index is not smaller", (unsigned long long)i);
		moved++;
	}
	ck_assert_uint_gt(moved, 0);
	ck_assert_uint_gt(split, 0); /* loops on one dim above and in Hold */
	if (trim__hold_nothing_dominated(&s, hold)) /* split dims cut too: some strictly dearer */
		ck_assert(dominated > 0 && dominated_lower > 0);
	/* the search cuts the moved ones as ties (the best alone), only them:
	 * with the rule off (the top k) no tie is cut in these spaces */
	trim__search_result r;
	s.topk = 1;
	ck_assert_int_eq(trim__hold_nothing_parent(&s, hold), up);
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
	ck_assert_uint_gt(r.tie_nodes, 0);
	trim__search_result_free(&r);
	/* not for the top k, nor under a pin at either level */
	s.topk = 2;
	ck_assert_int_eq(trim__hold_nothing_parent(&s, hold), -1);
	s.topk = 1;
	ck_assert_int_eq(trim__mapspace_pin(&s, hold, TRIM_DIM_M, 1), 0);
	ck_assert_int_eq(trim__hold_nothing_parent(&s, hold), -1);
	trim__eval_ws_free(&ws);
	trim__mapspace_free(&s);
}

/* The "index" and "energy_pj" of the best of `trim map ... --format json`. */
static void cli_best(const char *args, char *out, size_t n)
{
	int st = -1;
	char *j = tu_capture(args, 0, &st);
	ck_assert_int_eq(st, 0);
	const char *best = strstr(j, "\"best\": {");
	ck_assert_ptr_nonnull(best);
	const char *e = strstr(best, "\"energy_pj\": "), *i = strstr(best, "\"index\": ");
	ck_assert(e && i);
	snprintf(out, n, "%.30s | %.30s", i, e);
	free(j);
}

START_TEST(test_hold_nothing)
{
	/* end to end on the TPU-like array with its bypassed LocalBuffer: the
	 * best alone (the rule on) is the top 2's first (the rule off) */
	char k1[80], k2[80];
#define HOLD_MAP "map models/networks/gpt2-small.yaml test/data/arch/tpu-like-keepnone.yaml --layer h.0.attn.context " \
	"--phase FW --quiet --format json --threads 2"
	cli_best(HOLD_MAP, k1, sizeof k1);
	cli_best(HOLD_MAP " --top 2", k2, sizeof k2);
#undef HOLD_MAP
	ck_assert_str_eq(k1, k2);
	hold_nothing_moves(case_hold_fc, 2);
	hold_nothing_moves(case_hold_conv, 1);
	hold_nothing_moves(case_hold_ws, 2);
	{ /* which spaces the split rule covers: not with the result or a sliding
	   * window held below Hold */
		struct trim_arch a;
		trim__intra w;
		trim__mapspace s;
		void (*const mk[])(struct trim_arch *, trim__intra *) = {case_hold_fc, case_hold_conv, case_hold_ws};
		const int hold[] = {2, 1, 2}, want[] = {0, 0, 1};
		for (int k = 0; k < 3; k++) {
			mk[k](&a, &w);
			ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
			ck_assert_int_eq(trim__hold_nothing_dominated(&s, hold[k]), want[k]);
			trim__mapspace_free(&s);
		}
	}
	brute_vs_search(case_hold_fc, TRIM__GOAL_ENERGY);
	brute_vs_search(case_hold_conv, TRIM__GOAL_EDP);
	brute_vs_search(case_hold_ws, TRIM__GOAL_EDP);
}
END_TEST

/* a known mapping handed to the search (hint): the same answer, from its
 * cost; a hint that is not one of the space's mappings at that cost is
 * ignored (the same run, counts included) */
START_TEST(test_search_hint)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	case_conv(&a, &w);
	tu_costs(&a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	trim__search_result r0, r1, r2, r3;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r0), 0);
	ck_assert(r0.found && r0.exact);
	s.hint_on = 1;
	s.hint_index = r0.best_index;
	s.hint_cost = r0.best_cost;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 2, &r1), 0);
	ck_assert(r1.exact && r1.best_cost == r0.best_cost && r1.best_index == r0.best_index);
	ck_assert(!memcmp(&r1.best, &r0.best, sizeof r0.best));
	ck_assert_uint_le(r1.evaluated, r0.evaluated);
	ck_assert_int_eq(r0.hint_used, 0);
	ck_assert_int_eq(r1.hint_used, 1);
	s.hint_cost = r0.best_cost * 0.5; /* not its cost: ignored */
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r2), 0);
	s.hint_cost = r0.best_cost;
	s.hint_index = s.size; /* past the space: ignored */
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r3), 0);
	for (int k = 0; k < 2; k++) {
		const trim__search_result *r = k ? &r3 : &r2;
		ck_assert(r->best_cost == r0.best_cost && r->best_index == r0.best_index);
		ck_assert(r->evaluated == r0.evaluated && r->bounded == r0.bounded && r->generated == r0.generated);
		ck_assert_int_eq(r->hint_used, 0);
	}
	trim__search_result_free(&r0);
	trim__search_result_free(&r1);
	trim__search_result_free(&r2);
	trim__search_result_free(&r3);
	trim__mapspace_free(&s);
}
END_TEST
/* the bounded search equals brute force on conv WG, depthwise with
 * padding, a strided pool, conv BW with stride 2 and padding, FC WG, pool
 * BW, every goal across them (kept small: brute force) */
START_TEST(test_search_kinds)
{
	static const int kinds[][4] = {
		{TU_CONV, TRIM_PHASE_WG, 1, 0}, {TU_DEPTHWISE, TRIM_PHASE_FW, 1, 1}, {TU_MAXPOOL, TRIM_PHASE_FW, 2, 0},
		{TU_CONV, TRIM_PHASE_BW, 2, 1},      {TU_FC, TRIM_PHASE_WG, 1, 0},         {TU_AVGPOOL, TRIM_PHASE_BW, 2, 0},
		{TU_MAXPOOL, TRIM_PHASE_BW, 2, 0},
	};
	g_inexact_runs = 0;
	g_tie_cuts = g_tie_nodes = g_ties_tight = g_joint_higher = g_stopped_early = g_stop_points = 0;
	g_index_alone_wrong = 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		g_kind = kinds[i][0];
		g_phase = kinds[i][1];
		g_u = kinds[i][2];
		g_pad = kinds[i][3];
		brute_vs_search(case_kind, (int)(i % 3));
	}
	/* the gaps did cut something the exact search would see */
	ck_assert_int_gt(g_inexact_runs, 0);
	/* and exact ties were cut (second figure and index), with brute force's answer: bypass
	 * choices, and whole subtrees of the factorisation tree */
	ck_assert_uint_gt(g_tie_cuts, 0);
	ck_assert_uint_gt(g_tie_nodes, 0);
	/* the exact tie test sees a tie as one: some node bounds equal, in the
	 * evaluator's arithmetic, the cost of a mapping below them */
	ck_assert_uint_gt(g_ties_tight, 0);
	/* and the depthwise case's delay ties are decided by the energy, not
	 * the index (brute force's answer at 1, 2 and 3 threads) */
	ck_assert_uint_gt(g_index_alone_wrong, 0);
	/* the joint order raises some node bounds (a rule that never binds
	 * would be dead code) */
	ck_assert_uint_gt(g_joint_higher, 0);
	/* and the bound that stops above a cut did stop somewhere */
	ck_assert_uint_gt(g_stopped_early, 0);
	/* each tensor's figure was checked against its energy */
	ck_assert_uint_gt(g_parts_checked, 0);
	/* the searches were stopped at many points */
	ck_assert_uint_gt(g_stop_points, 30);
}
END_TEST

/* double buffering and training's reserved bytes are what binds: the
 * search still equals brute force under the check trim eval applies */
static void case_conv_reserved(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_conv(a, w), 0);
	int l = -1;
	for (int k = 1; k < a->nlevels; k++)
		if (a->lv[k].type == TRIM__LVL_STORAGE && a->lv[k].capacity_bytes > 0 && l < 0)
			l = k;
	ck_assert_int_ge(l, 1);
	a->lv[l].double_buffer = 1;
	memset(g_reserved, 0, sizeof g_reserved);
	g_reserved[l] = a->lv[l].capacity_bytes / 4;
	g_reserved_on = 1;
}

START_TEST(test_search_reserved)
{
	brute_vs_search(case_conv_reserved, TRIM__GOAL_ENERGY);
	brute_vs_search(case_conv_reserved, TRIM__GOAL_EDP);
	g_reserved_on = 0;
	memset(g_reserved, 0, sizeof g_reserved);
}
END_TEST


/* `trim map` on a tiny network: the same bytes for 1 and 2 threads, the
 * counts, the refusal of a huge mapspace. */
static char *capture(const char *args, int *status)
{
	return tu_capture(args, 0, status);
}

#define TINY "map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv1 --format json "

START_TEST(test_map_cli)
{
	int st;
	char *one = capture(TINY "--goal edp --threads 1", &st);
	ck_assert_msg(st == 0, "%s", one);
	char *two = capture(TINY "--goal edp --threads 2", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strcmp(one, two) == 0, "1 and 2 threads differ");
	/* every distinct mapping generated; the bounds skip most of them (the
	 * exact split depends on the bounds, tested against brute force in
	 * check_search's core cases) */
	ck_assert_ptr_nonnull(strstr(one, "\"generated\": 21192"));
	ck_assert_ptr_nonnull(strstr(one, "\"best\": {\"cycles\""));
	ck_assert_ptr_nonnull(strstr(one, "\"index\": 1036314"));
	ck_assert_ptr_nonnull(strstr(one, "\"mapspace\": {\"distinct\": 21192, \"raw\": 4199040}"));
	ck_assert_ptr_nonnull(strstr(one, "\"pe_utilization\": "));
	ck_assert_ptr_nonnull(strstr(one, "\"mapping\": \"schema_version: 1"));
	free(one);
	free(two);
	char *big = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	                    "--max-mappings 1000000", &st);
	ck_assert_int_eq(st, 2);
	free(big);
	big = capture("map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv9", &st);
	ck_assert_int_eq(st, 2);
	free(big);
	/* a distinct count beyond 64 bits is no reason to refuse the search
	 * (AlexNet conv2 at batch 64 on simba-like), only a --max-mappings */
	big = tu_capture("map models/networks/alexnet.yaml models/arch/simba-like.yaml --batch 64 --layer conv2 "
	                 "--time-limit 0.2 --threads 1", 1, &st);
	ck_assert_msg(st == 0, "%s", big);
	ck_assert_ptr_nonnull(strstr(big, "more than 2^64 distinct"));
	ck_assert_ptr_nonnull(strstr(big, "best: index"));
	/* a raw count beyond 2^53 is not printed with made-up low digits */
	ck_assert_msg(strstr(big, "mapspace of about ") != NULL, "%s", big);
	free(big);
	big = tu_capture("map models/networks/alexnet.yaml models/arch/simba-like.yaml --batch 64 --layer conv2 "
	                 "--max-mappings 1000000000", 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_ptr_nonnull(strstr(big, "refused"));
	free(big);
	/* (UNet training at batch 64 on simba-like, refused for its size
	 * before: test/check_wide_space.c) */
	/* custom factors shrink the space: conv1 of AlexNet-CIFAR on Eyeriss with
	 * the PE array and RF factors fixed (row-stationary-like) is searchable */
	char *pinned = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	                       "--format json --threads 2 --factor 'PE array:E=8' --factor 'PE array:R=3' "
	                       "--factor 'PE array:M=4' --factor 'PE array:C=1' --factor 'PE array:F=1' "
	                       "--factor 'PE array:S=1' --factor RF:S=3 --factor RF:M=4 --factor RF:C=1 "
	                       "--factor RF:E=1 --factor RF:F=1 --factor RF:R=1", &st);
	ck_assert_msg(st == 0, "%s", pinned);
	ck_assert_ptr_nonnull(strstr(pinned, "\"mapspace\": {\"distinct\": 38623"));
	ck_assert_ptr_nonnull(strstr(pinned, "\"active_pes\": 96"));
	free(pinned);
	big = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	              "--factor 'PE array:E=5'", &st);
	ck_assert_int_eq(st, 2);
	free(big);
	big = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	              "--factor 'PE array:X=5'", &st);
	ck_assert_int_eq(st, 2);
	free(big);
}
END_TEST

/* The slow obvious tree order: an insertion sort of the allowed rows by
 * their factors at the tree slots, in tree order (stable). */
static void tree_rows_slow(const trim__mapspace *s, int d, int64_t *r)
{
	for (int64_t i = 0; i < s->nrows[d]; i++) {
		int64_t v = s->rows[d][i], j = i;
		while (j > 0) {
			const int64_t *fu = s->fact[d] + r[j - 1] * s->nslots, *fv = s->fact[d] + v * s->nslots;
			int c = 0;
			for (int k = 0; k < s->nslots && !c; k++)
				c = (fu[s->tord[k]] > fv[s->tord[k]]) - (fu[s->tord[k]] < fv[s->tord[k]]);
			if (c <= 0)
				break;
			r[j] = r[j - 1];
			j--;
		}
		r[j] = v;
	}
}

/* The fast paths over a dim's rows against the slow obvious ones, on large
 * layers of a deep hierarchy (simba-like: eight slots), with imperfect rows
 * (E = 7 on a 6-wide axis) and a fully connected layer of thousands of rows:
 * the tree's merge sort gives the insertion sort's order, and every row of
 * every dim, perfect (binary search) or imperfect (scan), encodes back to
 * its own index. */
/* The ordered factorisations of b over slots [depth, k) in lexicographic
 * order, every value 1..b tried at each slot (the obvious enumeration the
 * mapspace's divisor lists replace); returns the new count. */
static int64_t factorisations_slow(int64_t b, int k, int depth, int64_t *row, int64_t *out, int64_t n)
{
	if (depth == k - 1) {
		row[depth] = b;
		memcpy(out + n * k, row, (size_t)k * sizeof *row);
		return n + 1;
	}
	for (int64_t d = 1; d <= b; d++)
		if (b % d == 0) {
			row[depth] = d;
			n = factorisations_slow(b / d, k, depth + 1, row, out, n);
		}
	return n;
}

START_TEST(test_rows_fast_paths)
{
	static const char *const layers[][2] = {{"layer4.0.conv2", "imperfect"}, {"fc", ""}};
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/resnet50.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/simba-like.yaml"), 0);
	int64_t imperfect_rows = 0, rows = 0;
	for (size_t q = 0; q < 2; q++) {
		size_t i = 0;
		ck_assert_int_eq(trim_workloads_find(w, layers[q][0], TRIM_PHASE_FW, &i), 0);
		trim__mapspace s;
		ck_assert_int_eq(trim__mapspace_init(&s, trim__workloads_intra(w, i), a), 0);
		if (layers[q][1][0])
			ck_assert_int_eq(trim__mapspace_set_imperfect(&s, 1), 0);
		for (int d = 0; d < TRIM_NDIMS; d++) {
			/* the perfect rows: those of the obvious enumeration, in its order */
			int64_t row[TRIM__MAX_LEVELS], *all = malloc((size_t)(s.nperfect[d] * s.nslots) * sizeof *all);
			ck_assert_ptr_nonnull(all);
			ck_assert_int_eq(factorisations_slow(s.w->bound[d], s.nslots, 0, row, all, 0), s.nperfect[d]);
			ck_assert(!memcmp(all, s.fact[d], (size_t)(s.nperfect[d] * s.nslots) * sizeof *all));
			free(all);
			int64_t *fast = trim__tree_rows(&s, d), *slow = malloc((size_t)s.nrows[d] * sizeof *slow);
			ck_assert_ptr_nonnull(fast);
			ck_assert_ptr_nonnull(slow);
			tree_rows_slow(&s, d, slow);
			ck_assert_msg(!memcmp(fast, slow, (size_t)s.nrows[d] * sizeof *fast), "%s: dim %d: tree order differs",
			              layers[q][0], d);
			free(fast);
			free(slow);
			/* the index of row r of dim d, every other digit 0 */
			trim__index unit = 1;
			for (int e = d + 1; e < TRIM_NDIMS; e++)
				unit *= (trim__index)s.nf[e];
			unit <<= s.nbyp;
			for (int k = 0; k < s.nord; k++)
				unit *= (trim__index)s.nperm;
			for (int64_t r = 0; r < s.nf[d]; r++) {
				trim__mapping m;
				trim__index idx = unit * (trim__index)r, back = 0;
				REQUIRE(trim__mapspace_decode(&s, idx, &m) == 0, "decode row %lld", (long long)r);
				REQUIRE(trim__mapspace_encode(&s, &m, &back) == 0, "%s: dim %d row %lld: %s", layers[q][0], d,
				        (long long)r, trim_last_error());
				REQUIRE(back == idx, "%s: dim %d: row %lld encodes back to another row", layers[q][0], d,
				        (long long)r);
			}
			imperfect_rows += s.nf[d] - s.nperfect[d];
			rows += s.nf[d];
		}
		trim__mapspace_free(&s);
	}
	ck_assert_msg(imperfect_rows > 0 && rows > 10000, "%lld rows, %lld imperfect: the fast paths are not reached",
	              (long long)rows, (long long)imperfect_rows);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* A search stopped anywhere (time limits from the set-up to the end of
 * the tree, on AlexNet conv2 on Eyeriss, 0.5 s exact): the bound left for
 * what it did not explore (a node's own bound for its children not yet
 * bounded, the root's for the top nodes) is never above the optimum, and
 * the mapping it returns is real and valid. */
START_TEST(test_stop_anywhere)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv2", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	const trim__intra *x = trim__workloads_intra(w, i);
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(a, c);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, x, a), 0);
	trim__search_result r;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 2, &r), 0);
	ck_assert(r.found && r.exact);
	const double opt = r.best_cost;
	trim__search_result_free(&r);
	int stopped = 0;
	for (double lim = 0.002; lim < 0.5; lim *= 1.6) {
		s.time_limit = lim;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
		ck_assert(r.found);
		ck_assert_msg(r.lower_bound <= opt && r.best_cost >= opt, "limit %g: bound %.17g, best %.17g, optimum %.17g",
		              lim, r.lower_bound, r.best_cost, opt);
		ck_assert_int_eq(trim__mapping_check_reserved(&r.best, x, a, s.reserved), 0);
		stopped += r.stopped;
		trim__search_result_free(&r);
	}
	ck_assert_int_ge(stopped, 3);
	s.time_limit = 0;
	/* stops at chosen checks (the same on every machine), where the seed is
	 * not yet the optimum: a stop among a node's children must leave their
	 * bounds open, else the bound reported is above the optimum */
	int below_best = 0;
	for (uint64_t at = 1; at < (1u << 9); at += 1 + at / 2) {
		s.stop_after = at;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
		s.stop_after = 0;
		ck_assert(r.found);
		ck_assert_msg(r.lower_bound <= opt && r.best_cost >= opt, "check %llu: bound %.17g, best %.17g, optimum %.17g",
		              (unsigned long long)at, r.lower_bound, r.best_cost, opt);
		below_best += r.stopped && r.best_cost > opt;
		trim__search_result_free(&r);
	}
	ck_assert_int_gt(below_best, 0); /* some stops came before the optimum was found */
	trim__mapspace_free(&s);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* The top nodes of a large ragged layer (UNet up2.conv1 with imperfect
 * factors on Eyeriss: millions) are made only while the time lasts: with
 * the worker stopped, trim__tree_children returns -3 and allocates
 * nothing; without a stopper, every combination of the dims' values. */
START_TEST(test_top_nodes_stop)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/unet.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "up2.conv1", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, trim__workloads_intra(w, i), a), 0);
	ck_assert_int_eq(trim__mapspace_set_imperfect(&s, 1), 0);
	int64_t *trows[TRIM_NDIMS];
	int32_t lo[TRIM_NDIMS], hi[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++) {
		ck_assert_ptr_nonnull(trows[d] = trim__tree_rows(&s, d));
		lo[d] = 0;
		hi[d] = (int32_t)s.nrows[d];
	}
	tree_child *c = NULL;
	int nv[TRIM_NDIMS];
	const int64_t n = trim__tree_children(&s, trows, 0, lo, hi, &c, nv, NULL);
	int64_t prod = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		prod *= nv[d];
	ck_assert_int_eq(n, prod);
	ck_assert_int_gt(n, 1 << 20);
	ck_assert_uint_eq(c[n - 1].ord, (uint64_t)(n - 1));
	free(c);
	search_worker *W = calloc(1, sizeof *W); /* large: not on the stack */
	ck_assert_ptr_nonnull(W);
	W->stopped = 1;
	c = NULL;
	ck_assert_int_eq(trim__tree_children(&s, trows, 0, lo, hi, &c, nv, W), -3);
	ck_assert_ptr_null(c);
	W->stopped = 0; /* not stopped: the same children */
	ck_assert_int_eq(trim__tree_children(&s, trows, 0, lo, hi, &c, nv, W), n);
	free(c);
	free(W);
	for (int d = 0; d < TRIM_NDIMS; d++)
		free(trows[d]);
	trim__mapspace_free(&s);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* The cut rule itself (docs/model.md, *Exact ties*): a node whose bound
 * equals the threshold is not cut (it may hold a mapping of that very cost
 * and a smaller index, which exact ties rank first); above it, it is; with a
 * gap, a node cut only because of the gap is remembered as open (its bound
 * bounds what it holds), one above the threshold itself is not. */
START_TEST(test_cut_rule)
{
	search_worker *W = calloc(1, sizeof *W);
	ck_assert_ptr_nonnull(W);
	W->cut_scale = 1;
	W->open_lb = HUGE_VAL;
	ck_assert_int_eq(trim__cut(W, 5.0, 5.0), 0);
	ck_assert_int_eq(trim__cut(W, nextafter(5.0, 0), 5.0), 0);
	ck_assert_int_eq(trim__cut(W, nextafter(5.0, 10), 5.0), 1);
	ck_assert(W->open_lb == HUGE_VAL); /* exact: a cut leaves nothing open */
	W->cut_scale = 0.9; /* gap 0.1: the threshold passed is 0.9 x the best, 4.5 */
	ck_assert_int_eq(trim__cut(W, 4.8, 4.5), 1);
	ck_assert(W->open_lb == 4.8); /* 4.8 x 0.9 <= 4.5: cut for the gap alone */
	ck_assert_int_eq(trim__cut(W, 6.0, 4.5), 1);
	ck_assert(W->open_lb == 4.8); /* 6.0 x 0.9 > 4.5: cut on its own */
	free(W);
	/* the exact tie rule on (cost, second figure, index): bounds (5, 3)
	 * lose to a mapping (5, 2) whatever their indices, tie with (5, 3)
	 * and lose only when their indices are above its, and may win against
	 * (5, 4) or anything dearer than 5 */
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, 5.0, 2.0, 0), 1);
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, 5.0, 3.0, 1), 1);
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, 5.0, 3.0, 0), 0);
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, 5.0, 4.0, 1), 0);
	ck_assert_int_eq(trim__tie_loses(5.0, 3.0, nextafter(5.0, 10), 0.0, 1), 0);
	ck_assert_int_eq(trim__tie_loses(nextafter(5.0, 10), 9.0, 5.0, 0.0, 0), 1);
	/* a top list ranks on the same order, whatever the insertion order */
	top_list t;
	ck_assert_int_eq(trim__top_init(&t, 3, 0), 0);
	trim__top_put(&t, 5.0, 4.0, 1, NULL);
	trim__top_put(&t, 5.0, 3.0, 9, NULL);
	trim__top_put(&t, 6.0, 0.0, 0, NULL);
	trim__top_put(&t, 5.0, 3.0, 7, NULL);
	ck_assert_uint_eq(t.n, 3);
	ck_assert(t.idx[0] == 7 && t.idx[1] == 9 && t.idx[2] == 1);
	ck_assert_int_eq(trim__top_first(&t, 5.0, 3.0, 6), 1);
	ck_assert_int_eq(trim__top_first(&t, 5.0, 3.0, 8), 0);
	trim__top_free(&t);
}
END_TEST

/* The X/Y split of a spatial level's factors: trim__spatial_split tries
 * only the x whose X and Y parts can fit; the same first fit (or none) as
 * trying every x from 1 to the bound, on random fan-outs, axis pins and
 * bounds up to 4096. */
static int spatial_split_slow(const trim__level *L, const uint8_t *axis, const int64_t *f, int d, int64_t px,
                              int64_t py, int64_t *fx, int64_t *fy)
{
	if (d == TRIM_NDIMS)
		return 1;
	int64_t X = L->fanout_x > 0 ? L->fanout_x : 1, Y = L->fanout_y > 0 ? L->fanout_y : 1;
	for (int64_t x = 1; x <= f[d]; x++) {
		if (f[d] % x || (axis[d] == 1 && x != f[d]) || (axis[d] == 2 && x != 1))
			continue;
		int64_t y = f[d] / x;
		if (px * x > X || py * y > Y)
			continue;
		fx[d] = x;
		fy[d] = y;
		if (spatial_split_slow(L, axis, f, d + 1, px * x, py * y, fx, fy))
			return 1;
	}
	return 0;
}

START_TEST(test_spatial_split_fast)
{
	uint64_t st = 0x5b117ull;
	int fits = 0, misfits = 0;
	for (int it = 0; it < 20000; it++) {
		trim__level L;
		memset(&L, 0, sizeof L);
		L.fanout_x = (int)tu_range(&st, 1, 40);
		L.fanout_y = (int)tu_range(&st, 0, 3) ? (int)tu_range(&st, 1, 40) : 1;
		uint8_t axis[TRIM_NDIMS];
		int64_t f[TRIM_NDIMS], fx[TRIM_NDIMS], fy[TRIM_NDIMS], sx[TRIM_NDIMS], sy[TRIM_NDIMS];
		for (int d = 0; d < TRIM_NDIMS; d++) {
			axis[d] = (uint8_t)(tu_range(&st, 0, 5) < 4 ? 0 : tu_range(&st, 1, 2));
			const int64_t k = tu_range(&st, 0, 9);
			f[d] = k < 7 ? 1 : k < 9 ? tu_range(&st, 1, 12) : tu_range(&st, 1, 4096);
		}
		const int a = trim__spatial_split(&L, axis, f, 0, 1, 1, fx, fy), b = spatial_split_slow(&L, axis, f, 0, 1, 1, sx, sy);
		ck_assert_int_eq(a, b);
		if (a) {
			ck_assert(!memcmp(fx, sx, sizeof fx) && !memcmp(fy, sy, sizeof fy));
			fits++;
		} else {
			misfits++;
		}
	}
	ck_assert_int_gt(fits, 2000);
	ck_assert_int_gt(misfits, 2000);
}
END_TEST

/* A search told to stop before it starts (a network's time limit spent by
 * the searches before it) does no more than its set-up needs: the seed's
 * sample stops once it holds a factorisation, the top nodes are left
 * unbounded and the root's bound stands for them (the proven lower bound is
 * exactly the root's: on AlexNet conv2 on Eyeriss the top nodes' bounds are
 * well above it), and the mapping it returns is real and valid. */
START_TEST(test_stop_during_setup)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv2", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	const trim__intra *x = trim__workloads_intra(w, i);
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(a, c);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, x, a), 0);
	int64_t zero_macs = 0;
	ck_assert_int_eq(trim__activity_zero_macs(x, &zero_macs), 0);
	trim__mapping root;
	trim__eval ev;
	double root_lb = 0;
	trim__space_mapping_init(&s, &root);
	trim__mapspace_node_lb(&s, c, TRIM__GOAL_ENERGY, 0, zero_macs, &root, &ev, &root_lb);
	const int stop = 1;
	s.stop = &stop;
	for (int threads = 1; threads <= 2; threads++) {
		trim__search_result r;
		ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, threads, &r), 0);
		ck_assert(r.found && r.stopped && !r.exact);
		ck_assert_msg(r.lower_bound == root_lb, "%d threads: lower bound %.17g, the root's %.17g", threads,
		              r.lower_bound, root_lb);
		ck_assert(r.best_cost >= r.lower_bound);
		ck_assert_int_eq(trim__mapping_check_reserved(&r.best, x, a, s.reserved), 0);
		trim__search_result_free(&r);
	}
	trim__mapspace_free(&s);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* Batch 64: the raw mapspace of AlexNet-CIFAR conv2 on Eyeriss has more
 * than 2^64 mappings; the index is wider (128 bits), decodes and encodes
 * back, and reaches the CLI and the C API in decimal. */
START_TEST(test_wide_index)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/alexnet-cifar.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 64, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv2", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	trim__mapspace s;
	ck_assert_int_eq(trim__mapspace_init(&s, trim__workloads_intra(w, i), a), 0);
	char buf[48];
	ck_assert_str_eq(trim__index_str(s.size, buf), "24667144071413760000");
	ck_assert(s.size > (trim__index)UINT64_MAX);
	const trim__index probe[] = {0, (trim__index)UINT64_MAX, (trim__index)UINT64_MAX + 12345, s.size / 3,
	                             s.size - 1};
	for (size_t k = 0; k < sizeof probe / sizeof *probe; k++) {
		trim__mapping m;
		trim__index back = 0;
		ck_assert_int_eq(trim__mapspace_decode(&s, probe[k], &m), 0);
		ck_assert_int_eq(trim__mapspace_encode(&s, &m, &back), 0);
		ck_assert_msg(back == probe[k], "index %s does not encode back", trim__index_str(probe[k], buf));
	}
	trim__mapping m;
	ck_assert_int_eq(trim__mapspace_decode(&s, s.size, &m), TRIM_ERANGE);
	trim__mapspace_free(&s);
	/* the search (Timeloop's Eyeriss constraints keep it short) */
	trim_search *se = NULL;
	trim_constraints *c = NULL;
	ck_assert_int_eq(trim_constraints_load(&c, "models/constraints/timeloop-eyeriss-rs.yaml"), 0);
	ck_assert_int_eq(trim_search_create(&se, w, i, a, NULL), 0);
	ck_assert_int_eq(trim_search_set_constraints(se, c), 0);
	ck_assert_int_eq(trim_search_set_int(se, TRIM_SEARCH_THREADS, 2), 0);
	ck_assert_int_eq(trim_search_run(se), 0);
	ck_assert_uint_eq(trim_search_best_index(se), UINT64_MAX); /* does not fit */
	ck_assert_int_eq(trim_search_index_str(se, 0, buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "18668166881672851944");
	double cost;
	uint64_t idx;
	ck_assert_int_eq(trim_search_top(se, 0, &cost, &idx), TRIM_ERANGE);
	ck_assert_int_eq(trim_search_index_str(se, 0, buf, 5), TRIM_ERANGE);
	trim_search_free(se);
	trim_constraints_free(c);
	int st;
	char *out = capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --mode training --batch 64 "
	                    "--layer conv2 --format json --constraints models/constraints/timeloop-eyeriss-rs.yaml", &st);
	ck_assert_msg(st == 0, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\"index\": 18668166881672851944,"));
	ck_assert_ptr_nonnull(strstr(out, "\"raw\": 24667144071413760000}"));
	free(out);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* TRIM's register-utilisation rule on a partitioned register file counts
 * the partitions the workload can fill: a pool (no weights) under Eyeriss's
 * row-stationary constraints keeps mappings at --min-rf-util 0.5 (before,
 * the weight partition counted and every mapping was pruned: no best). */
START_TEST(test_rf_util_partitions)
{
	int st = 0;
	char *out = capture("map models/networks/alexnet.yaml models/arch/eyeriss.yaml --layer pool1 --phase FW "
	                    "--constraints models/constraints/timeloop-eyeriss-rs.yaml --min-rf-util 0.5 --quiet "
	                    "--format json", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "\"best\": {\"cycles\""), "%s", out);
	ck_assert(!strstr(out, "\"best\": null"));
	free(out);
	/* the rule still prunes: fewer evaluated than without it */
	out = capture("map models/networks/alexnet.yaml models/arch/eyeriss.yaml --layer pool1 --phase FW "
	              "--constraints models/constraints/timeloop-eyeriss-rs.yaml --min-rf-util 0.5 --quiet --format json",
	              &st);
	ck_assert(strstr(out, "\"pruned\": ") && !strstr(out, "\"pruned\": 0,"));
	free(out);
}
END_TEST

/* When nothing is found, the search says why: the utilisation constraint
 * that prunes every mapping that fits, with the highest utilisation of the
 * space (equal to brute force's maximum over the valid mappings), and the
 * dataflow constraints whose removal alone lets a mapping fit. */
START_TEST(test_why_empty)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	/* FC (M = 2, C = 4) on three PEs (at most two busy) with a 5-byte RF
	 * (at most two 16-bit words used): both maxima are below 1 */
	tu_arch_init(&a, "why");
	tu_storage(&a, "DRAM", 0, 16);
	tu_spatial(&a, "NoC", 3, 1, 1, 1);
	tu_storage(&a, "RF", 5, 16);
	tu_compute(&a, "MAC");
	tu_arch_finish(&a);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 2, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	tu_costs(&a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	double maxpe = -1, maxrf = -1;
	for (uint64_t i = 0; i < s.size; i++) {
		trim__mapping m;
		ck_assert_int_eq(trim__mapspace_decode(&s, i, &m), 0);
		if (trim__mapping_check_reserved(&m, &w, &a, s.reserved))
			continue;
		double pe = trim__mapspace_pe_util(&s, &m), rf = trim__mapspace_rf_util(&s, &m);
		maxpe = pe > maxpe ? pe : maxpe;
		maxrf = rf > maxrf ? rf : maxrf;
	}
	ck_assert_msg(maxpe > 0 && maxpe < 1 && maxrf > 0 && maxrf < 1, "max PE %g RF %g", maxpe, maxrf);
	for (int which = 0; which < 2; which++) {
		s.min_pe_util = which == 0 ? maxpe + 1e-9 : 0;
		s.min_rf_util = which == 1 ? maxrf + 1e-9 : 0;
		for (int threads = 1; threads <= 2; threads++) {
			trim__search_result r;
			char *why = NULL;
			ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, threads, &r), 0);
			ck_assert_int_eq(r.found, 0);
			ck_assert_uint_gt(r.valid, 0);
			ck_assert_uint_eq(r.pruned, r.valid);
			if (s.min_pe_util > 0)
				ck_assert_double_eq(r.max_pe_util, maxpe);
			else
				ck_assert_double_eq(r.max_rf_util, maxrf);
			ck_assert_int_eq(trim__search_why_empty(&s, c, TRIM__GOAL_ENERGY, threads, NULL, NULL, &r, &why), 0);
			char want[64];
			snprintf(want, sizeof want, "the highest is %.4g", s.min_pe_util > 0 ? maxpe : maxrf);
			ck_assert_msg(why && strstr(why, want), "%s", why ? why : "(null)");
			ck_assert_ptr_nonnull(strstr(why, s.min_pe_util > 0 ? "PE utilization below" : "RF utilization below"));
			free(why);
			trim__search_result_free(&r);
		}
	}
	/* a found mapping: no reason */
	s.min_pe_util = s.min_rf_util = 0;
	trim__search_result r;
	char *why = (char *)1;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
	ck_assert_int_eq(r.found, 1);
	ck_assert_int_eq(trim__search_why_empty(&s, c, TRIM__GOAL_ENERGY, 1, NULL, NULL, &r, &why), 0);
	ck_assert_ptr_null(why);
	trim__search_result_free(&r);
	trim__mapspace_free(&s);

	/* the constraints: the two entries that together empty the space are
	 * named, the third (no effect on the fit) is not; table and JSON */
	int st = 0;
	char *out = capture("map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv1 --constraints "
	                    "test/data/search/empty-constraints.yaml --quiet --format json", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "\"best\": null") && strstr(out, "\"no_mapping\": \"no mapping of the constrained "
	                                                              "mapspace fits"), "%s", out);
	ck_assert_msg(strstr(out, "empty-constraints.yaml:7:5: mapspace_constraints[0]") &&
	              strstr(out, "empty-constraints.yaml:10:5: mapspace_constraints[1]") &&
	              !strstr(out, "mapspace_constraints[2]"), "%s", out);
	free(out);
	out = capture("map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv1 --constraints "
	              "test/data/search/empty-constraints.yaml --quiet", &st);
	ck_assert_msg(strstr(out, "no mapping fits: no mapping of the constrained mapspace"), "%s", out);
	free(out);
	/* a custom factor that empties the space alone is named */
	out = capture("map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv1 --factor RF:C=2 "
	              "--factor RF:M=2 --factor RF:R=2 --factor RF:S=2 --constraints test/data/search/keep-weights.yaml "
	              "--quiet", &st);
	ck_assert_msg(strstr(out, "no mapping fits: ") && strstr(out, "keep-weights.yaml:5:5") &&
	              strstr(out, "the custom factor RF:C=2") && strstr(out, "the custom factor RF:S=2"), "%s", out);
	free(out);
}
END_TEST

Suite *search_suite(void)
{
	Suite *s = suite_create("search");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(tc, test_index_roundtrip);
	tcase_add_test(tc, test_wide_index);
	tcase_add_test(tc, test_order_classes);
	tcase_add_test(tc, test_search_fc_energy);
	tcase_add_test(tc, test_search_fc_pinned);
	tcase_add_test(tc, test_search_utilization);
	tcase_add_test(tc, test_search_fc_edp);
	tcase_add_test(tc, test_search_delay_ties);
	tcase_add_test(tc, test_search_systolic);
	tcase_add_test(tc, test_search_conv_energy);
	tcase_add_test(tc, test_hold_nothing);
	tcase_add_test(tc, test_search_kinds);
	tcase_add_test(tc, test_search_hint);
	tcase_add_test(tc, test_search_reserved);
	tcase_add_test(tc, test_rf_util_partitions);
	tcase_add_test(tc, test_why_empty);
	tcase_add_test(tc, test_map_cli);
	tcase_add_test(tc, test_rows_fast_paths);
	tcase_add_test(tc, test_stop_during_setup);
	tcase_add_test(tc, test_spatial_split_fast);
	tcase_add_test(tc, test_stop_anywhere);
	tcase_add_test(tc, test_top_nodes_stop);
	tcase_add_test(tc, test_cut_rule);
	suite_add_tcase(s, tc);
	/* Timeloop's counting rules (CK_RUN_CASE=count runs it alone) */
	TCase *count = tcase_create("count");
	tcase_set_timeout(count, 300);
	tcase_add_test(count, test_search_count_timeloop);
	suite_add_tcase(s, count);
	/* the systolic terms of the bounds (CK_RUN_CASE=systolic) */
	TCase *sys = tcase_create("systolic");
	tcase_set_timeout(sys, 300);
	tcase_add_test(sys, test_search_systolic_ws);
	tcase_add_test(sys, test_systolic_bound_binds);
	suite_add_tcase(s, sys);
	return s;
}
