/*
 * Brute force over every raw index of a small space against the search over
 * its distinct space (search_brute.h), with the small spaces it runs on.
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
#include "search_brute.h"

/* More small spaces for the bounds: every layer kind and phase on
 * DRAM -> NoC 2x1 -> RF -> MAC (bypass at the RF), 1-D windows. */
int g_kind, g_phase, g_u, g_pad;
void case_kind(struct trim_arch *a, trim__intra *w)
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

/* Brute force over every raw index vs. the search over the distinct space
 * (pin_t: search_brute.h). */
void brute_vs_search_pinned(void (*mk)(struct trim_arch *, trim__intra *), int goal,
                                   const pin_t *pins, int npins);

double g_min_pe, g_min_rf; /* utilisation constraints of the next brute force */
/* bytes reserved per level (training's cached activations) in the next brute force */
int64_t g_reserved[TRIM__MAX_LEVELS];
int g_reserved_on;
/* anytime runs of the brute-force cases that ended not exact (a test
 * checks that the gap cases do exercise inexact results) */
int g_inexact_runs;
/* tensor figures checked against the tensor's energy in a mapping below
 * (a test checks that the brute-force cases exercise it) */
uint64_t g_parts_checked;
/* bypass choices the exact-tie rule cut in the k = 1 runs (a test checks
 * that the brute-force cases exercise it) */
uint64_t g_tie_cuts, g_tie_nodes, g_ties_tight, g_joint_higher, g_stopped_early, g_stop_points;
/* stopped searches proven exact by the bounds of what they left open */
uint64_t g_stopped_exact;
node_counts *g_node_counts; /* the exact tie test's scratch */
/* the tie-break in the brute-force cases (tests check that they exercise
 * it): distinct mappings other than the best that share its cost, those of
 * them with another second figure, those that also share that (full ties),
 * and cases where the smallest index of the cost's ties is not the best
 * (where breaking ties by the index alone would answer wrongly) */
uint64_t g_cost_ties, g_second_differs, g_full_ties, g_index_alone_wrong;

/* the next brute force's networks made systolic (one hop per forwarded word,
 * 2.5 per unicast word, the pipeline in the cycles) */
int g_systolic;
/* the next brute force's counting rules (enum trim_count), and a factor on
 * its leakage (0: tu_costs') */
int g_count;
double g_leak_scale;
void brute_vs_search(void (*mk)(struct trim_arch *, trim__intra *), int goal)
{
	brute_vs_search_pinned(mk, goal, NULL, 0);
}

void brute_vs_search_pinned(void (*mk)(struct trim_arch *, trim__intra *), int goal,
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
	stationary_workspace *sw = trim__stationary_workspace_new(); /* the node bounds' own */
	ck_assert_ptr_nonnull(sw);
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
	ck_assert_int_eq(trim__intra_act_zero_macs(&w, &zero_macs), 0);
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
				double lb = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p, sw);
				REQUIRE(lb <= cost, "index %llu depth %d: node bound %.17g above the cost %.17g",
				        (unsigned long long)i, depth, lb, cost);
				/* the bound that may stop above a cut: the full one below
				 * the cut, a bound above it that is no higher than the full one */
				double lba;
				trim__node_bound_above(&s, c, goal, depth, zero_macs, &p, &ep, &lba, NULL, lb * 2, sw);
				REQUIRE(lba == lb, "depth %d: bound %.17g with a cut above it, %.17g without", depth, lba, lb);
				trim__node_bound_above(&s, c, goal, depth, zero_macs, &p, &ep, &lba, NULL, lb * 0.5, sw);
				REQUIRE(lba <= lb && (goal != TRIM__GOAL_ENERGY || lba > lb * 0.5),
				        "depth %d: bound %.17g with a cut at half, %.17g without", depth, lba, lb);
				g_stopped_early += lba < lb;
				/* so is the bound with the joint order of the known levels */
				double lbj;
				trim__node_bound_joint(&s, c, goal, depth, zero_macs, &p, &ep, &lbj, sw);
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
				                            -HUGE_VAL, 1, g_node_counts, sw),
				        "index %llu depth %d: tie test above the cost %.17g", (unsigned long long)i, depth, cost);
				REQUIRE(!trim__node_tie_cut(&s, c, goal, depth, zero_macs, &p, &ep, cost, nextafter(sec, HUGE_VAL), 1,
				                            g_node_counts, sw),
				        "index %llu depth %d: tie test above the second figure %.17g", (unsigned long long)i, depth,
				        sec);
				REQUIRE(!trim__node_tie_cut(&s, c, goal, depth, zero_macs, &p, &ep, cost, sec, 0, g_node_counts, sw),
				        "index %llu depth %d: tie test on a full tie without the index", (unsigned long long)i, depth);
				g_ties_tight += trim__node_tie_cut(&s, c, goal, depth, zero_macs, &p, &ep, cost, sec, 1, g_node_counts, sw);
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
			/* a stopped search is exact only where every node it left
			 * open has a bound above the best it found (driver.c): then
			 * it returns brute force's (cost, index) and proves it */
			ck_assert(rt.exact || stopped);
			if (rt.exact)
				ck_assert_msg(rt.best_cost == best && rt.best_index == best_idx && rt.lower_bound == best,
				              "stopped at check %llu, exact: best %.17g index %llu, bound %.17g; brute force "
				              "%.17g %llu", (unsigned long long)at, rt.best_cost, (unsigned long long)rt.best_index,
				              rt.lower_bound, best, (unsigned long long)best_idx);
			g_stopped_exact += stopped && rt.exact;
			trim__search_result_free(&rt);
			if (!stopped)
				break; /* past the last check: the exact search */
			g_stop_points++;
			/* the same stop point at 2 and 3 threads (each worker counts
			 * its own checks): an exact claim is brute force's answer */
			for (int t = 2; t <= 3; t++) {
				s.stop_after = at;
				ck_assert_int_eq(trim__search(&s, c, goal, t, &rt), 0);
				s.stop_after = 0;
				ck_assert(rt.exact || rt.stopped);
				if (rt.exact)
					ck_assert_msg(rt.best_cost == best && rt.best_index == best_idx && rt.lower_bound == best,
					              "%d threads, stopped at check %llu, exact: best %.17g index %llu; brute "
					              "force %.17g %llu", t, (unsigned long long)at, rt.best_cost,
					              (unsigned long long)rt.best_index, best, (unsigned long long)best_idx);
				if (rt.found)
					ck_assert_int_eq(trim__mapping_check_reserved(&rt.best, &w, &a, s.reserved), 0);
				g_stopped_exact += rt.stopped && rt.exact;
				trim__search_result_free(&rt);
			}
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
	trim__stationary_workspace_free(sw);
	trim__mapspace_free(&s);
}
