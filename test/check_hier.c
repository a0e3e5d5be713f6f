/*
 * Deeper spatial hierarchies (docs/arch.md, docs/model.md): the search on
 * architectures with a tensor bypassing the storage between two spatial
 * levels, a level that keeps nothing and two spatial levels in a row,
 * against brute force over the whole mapspace (same best cost and index,
 * node bounds never above a mapping's cost); and the shipped Simba-like
 * design (models/arch/simba-like.yaml) mapped and explored.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "activity/activity_int.h"
#include "eval/eval_int.h"
#include "search/mapspace_int.h"
#include "refsim.h"
#include "tcase_util.h"
#include "trim.h"

/* Spatial levels with bounds > 1 on the longest hop of m (between two
 * holders of one tensor). */
static int deepest_hop(const struct trim_arch *a, const trim__intra *w, const trim__mapping *m)
{
	int best = 0;
	for (int t = 0; t < 3; t++) {
		if (!w->t[t].present)
			continue;
		int k = 0;
		for (int l = 1; l < a->nlevels; l++) {
			int64_t p = 1;
			for (int d = 0; d < TRIM_NDIMS; d++)
				p *= m->f[l][d];
			if (a->lv[l].type == TRIM__LVL_SPATIAL)
				k += p > 1;
			else if (a->lv[l].type == TRIM__LVL_COMPUTE || m->keep[l][t]) {
				best = k > best ? k : best;
				k = 0;
			}
		}
	}
	return best;
}

/* Brute force over every index of the mapspace of (a, w) against the
 * search, for goal; every 3rd valid mapping also against the reference
 * simulator and the node bounds of its prefixes. Returns the valid
 * mappings with a hop across >= 2 spatial levels with bounds > 1. */
static int brute_vs_search(struct trim_arch *a, trim__intra *w, int goal)
{
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	trim__eval_ws ws = {0};
	tu_costs(a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, w, a), 0);
	ck_assert_msg(s.size < 2000000, "space too large for brute force");
	stationary_workspace *sw = trim__stationary_workspace_new(); /* the node bounds' own */
	ck_assert_ptr_nonnull(sw);
	int64_t zero_macs = 0;
	ck_assert_int_eq(trim__intra_act_zero_macs(w, &zero_macs), 0);
	int have = 0, deep = 0;
	double best = 0, best_sec = 0;
	trim__index best_idx = 0;
	uint64_t valid = 0, simulated = 0;
	for (trim__index i = 0; i < s.size; i++) {
		trim__mapping m, k;
		trim__eval e;
		REQUIRE(trim__mapspace_decode(&s, i, &m) == 0, "decode");
		if (trim__mapping_check(&m, w, a))
			continue;
		valid++;
		k = m;
		trim__mapspace_canonical(&s, &k);
		trim__index ki;
		REQUIRE(trim__mapspace_encode(&s, &k, &ki) == 0, "encode");
		REQUIRE(trim__eval_run(w, a, c, &m, &ws, &e) == 0, "%s", trim_last_error());
		double cost = goal == TRIM__GOAL_ENERGY ? e.energy_pj : goal == TRIM__GOAL_DELAY ? e.cycles
		              : e.energy_pj * e.cycles;
		int dh = deepest_hop(a, w, &m);
		deep += dh >= 2;
		if (valid % 3 == 0) {
			if (dh >= 2 && simulated < 300) {
				trim__activity y;
				REQUIRE(refsim_run(w, a, &m, &y) == 0, "refsim");
				REQUIRE(y.reads[0][0] == e.act.reads[0][0] && y.reads[0][1] == e.act.reads[0][1] &&
				            y.updates[0][2] == e.act.updates[0][2],
				        "DRAM counts differ from the simulator");
				for (int l = 0; l < a->nlevels; l++)
					for (int t = 0; t < 3; t++)
						REQUIRE(y.down_words[l][t] == e.act.down_words[l][t] &&
						            y.down_dests[l][t] == e.act.down_dests[l][t] &&
						            y.up_out[l][t] == e.act.up_out[l][t] && y.fills[l][t] == e.act.fills[l][t],
						        "level %d tensor %d: counts differ from the simulator", l, t);
				simulated++;
			}
			for (int depth = 1; depth < s.nslots; depth++) {
				trim__mapping p;
				double lb = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p, sw);
				REQUIRE(lb <= cost, "depth %d: node bound %.17g above the cost %.17g", depth, lb, cost);
			}
		}
		/* the search's order: (cost, second figure, index); the second
		 * figure breaks a tie on the goal (energy: cycles; others: energy) */
		const double sec = goal == TRIM__GOAL_ENERGY ? e.cycles : e.energy_pj;
		if (!have || cost < best || (cost == best && (sec < best_sec || (sec == best_sec && ki < best_idx)))) {
			have = 1;
			best = cost;
			best_sec = sec;
			best_idx = ki;
		}
	}
	ck_assert(have);
	/* the tree fixes the spatial levels innermost first: the same answer
	 * at any thread count */
	for (int threads = 1; threads <= 3; threads++) {
		trim__search_result r;
		ck_assert_int_eq(trim__search(&s, c, goal, threads, &r), 0);
		ck_assert(r.found);
		ck_assert_msg(r.best_cost == best, "%d threads: search %.17g, brute force %.17g", threads, r.best_cost,
		              best);
		ck_assert(trim__goal_second(&r.best_eval, goal) == best_sec && r.best_index == best_idx);
		ck_assert_int_eq(trim__mapping_check(&r.best, w, a), 0);
		trim__search_result_free(&r);
	}
	trim__stationary_workspace_free(sw);
	trim__eval_ws_free(&ws);
	trim__mapspace_free(&s);
	fprintf(stderr, "hier brute force %s: %llu valid mappings, %d with a hop across >= 2 spatial levels\n", a->name,
	        (unsigned long long)valid, deep);
	return deep;
}

/* (1) weights may bypass L2 between NoC1 and NoC2 */
static void arch_bypass_between(struct trim_arch *a)
{
	tu_arch_init(a, "bypass-between");
	tu_storage(a, "DRAM", 0, 16);
	tu_spatial(a, "NoC1", 2, 1, 1, 0);
	tu_storage(a, "L2", 16, 16);
	tu_spatial(a, "NoC2", 2, 1, 0, 1);
	tu_storage(a, "RF", 8, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
}

/* (2) a level that keeps nothing between the networks */
static void arch_keep_nothing(struct trim_arch *a)
{
	tu_arch_init(a, "keep-nothing");
	tu_storage(a, "DRAM", 0, 16);
	tu_spatial(a, "NoC1", 2, 1, 1, 1);
	trim__level *d = tu_storage(a, "Dummy", 16, 16);
	d->keep[0] = d->keep[1] = d->keep[2] = 0;
	tu_spatial(a, "NoC2", 2, 1, 1, 0);
	tu_storage(a, "RF", 8, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
}

/* (3) two spatial levels in a row */
static void arch_adjacent(struct trim_arch *a)
{
	tu_arch_init(a, "adjacent");
	tu_storage(a, "DRAM", 0, 16);
	tu_storage(a, "GLB", 32, 16);
	tu_spatial(a, "Rows", 2, 1, 1, 0);
	tu_spatial(a, "Lanes", 2, 1, 0, 1);
	tu_storage(a, "RF", 8, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
}

START_TEST(test_search_bypass_between)
{
	struct trim_arch a;
	trim__intra w;
	arch_bypass_between(&a);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 4, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_gt(brute_vs_search(&a, &w, TRIM__GOAL_ENERGY), 50);
}
END_TEST

START_TEST(test_search_keep_nothing)
{
	struct trim_arch a;
	trim__intra w;
	arch_keep_nothing(&a);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 2, 4, 2, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_gt(brute_vs_search(&a, &w, TRIM__GOAL_EDP), 50);
}
END_TEST

START_TEST(test_search_adjacent)
{
	struct trim_arch a;
	trim__intra w;
	arch_adjacent(&a);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 4, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_gt(brute_vs_search(&a, &w, TRIM__GOAL_DELAY), 50);
}
END_TEST

/* models/arch/simba-like.yaml: the package's organisation, and every
 * workload of a small network mapped under Simba's weight-stationary
 * constraints (with the DRAM loops fixed, test/data/constraints/
 * simba-small.yaml): the search is exact, its mapping passes the mapping
 * check, the evaluator gives the search's cost, and the mapping uses the
 * deeper shapes (weights cross the package and chiplet networks between
 * DRAM and the PE buffers, inputs and partial sums the vector MACs and
 * their lanes). */
START_TEST(test_simba_like_map)
{
	trim_arch *a = NULL;
	ck_assert_msg(trim_arch_load(&a, "models/arch/simba-like.yaml") == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_arch_total_pes(a), 36 * 16 * 8 * 8);
	ck_assert_int_eq(trim_arch_level_instances(a, trim_arch_level_find(a, "GlobalBuffer")), 36);
	ck_assert_int_eq(trim_arch_level_instances(a, trim_arch_level_find(a, "PEBuffer")), 36 * 16);
	ck_assert_int_eq(trim_arch_level_instances(a, trim_arch_level_find(a, "Lanes")), 36 * 16 * 8);
	ck_assert_int_eq(trim_arch_level_capacity(a, trim_arch_level_find(a, "GlobalBuffer")), 64 * 1024);
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_constraints *c = NULL;
	ck_assert_int_eq(trim_network_load(&net, "test/data/networks/simba-small.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_msg(trim_constraints_load(&c, "test/data/constraints/simba-small.yaml") == 0, "%s", trim_last_error());
	const int gb = trim_arch_level_find(a, "GlobalBuffer"), lanes = trim_arch_level_find(a, "Lanes");
	ck_assert_uint_eq(trim_workloads_intra_count(w), 2);
	for (size_t i = 0; i < trim_workloads_intra_count(w); i++) {
		trim_search *s = NULL;
		trim_mapping *m = NULL;
		trim_eval *e = NULL;
		ck_assert_int_eq(trim_search_create(&s, w, i, a, NULL), 0);
		ck_assert_msg(trim_search_set_constraints(s, c) == 0, "%s", trim_last_error());
		ck_assert_msg(trim_search_run(s) == 0, "%s", trim_last_error());
		ck_assert_int_eq(trim_search_exact(s), 1);
		ck_assert_int_eq(trim_search_best(s, &m), 0);
		ck_assert_msg(trim_mapping_check(m, w, i, a) == 0, "%s", trim_last_error());
		double cost = trim_search_lower_bound(s); /* the best's cost when exact */
		ck_assert_int_eq(trim_eval_mapping(&e, w, i, a, NULL, m), 0);
		ck_assert_double_eq(trim_eval_energy_pj(e), cost);
		/* the shapes: weights bypass the global buffer, the lanes split C */
		const trim__mapping *mm = m;
		const trim__intra *x = trim__workloads_intra(w, i);
		ck_assert_int_eq(mm->keep[gb][1], 0);
		ck_assert_int_eq(trim_mapping_bound(m, lanes, TRIM_DIM_C), 8);
		ck_assert_int_ge(deepest_hop(a, x, mm), 2);
		trim_eval_free(e);
		trim_mapping_free(m);
		trim_search_free(s);
	}
	trim_constraints_free(c);
	trim_workloads_free(w);
	trim_network_free(net);
	trim_arch_free(a);
}
END_TEST

/* The most of a spatial level's instances that can need one element of a
 * tensor (mapspace.share_cap, a product <= the fan-out reached by dynamic
 * programming) against the obvious enumeration of every combination of the
 * factors the rows give the dims not private to the tensor. */
static int64_t share_cap_slow(const int64_t (*vals)[64], const int *nv, unsigned priv, int64_t fan, int d, int64_t p)
{
	while (d < TRIM_NDIMS && priv >> d & 1)
		d++;
	if (d == TRIM_NDIMS)
		return p;
	int64_t best = 0;
	for (int j = 0; j < nv[d]; j++)
		if (p * vals[d][j] <= fan) {
			int64_t q = share_cap_slow(vals, nv, priv, fan, d + 1, p * vals[d][j]);
			best = q > best ? q : best;
		}
	return best;
}

/* The distinct factors the rows give each dim at slot i. */
static void slot_values(const trim__mapspace *s, int i, int64_t (*vals)[64], int *nv)
{
	for (int d = 0; d < TRIM_NDIMS; d++) {
		nv[d] = 0;
		for (int64_t r = 0; r < s->nf[d]; r++) {
			const int64_t v = s->fact[d][r * s->nslots + i];
			int j = 0;
			while (j < nv[d] && vals[d][j] != v)
				j++;
			if (j == nv[d]) {
				ck_assert_int_lt(nv[d], 64);
				vals[d][nv[d]++] = v;
			}
		}
	}
}

/* ... and by hand on trim-fig2's conv1 (C 3, R S 3, M 16, E F 32) on the
 * Simba-like design: the lanes (8) reduce at most C x R x S = 3 partial
 * sums (9 > 8), the chiplet network (16) 9; 8 lanes can share an input
 * (M 8) or a weight (E 8). */
START_TEST(test_share_caps)
{
	static const char *const nets[][3] = {{"models/networks/trim-fig2.yaml", "conv1", ""},
	                                      {"models/networks/resnet50.yaml", "layer1.0.conv2", ""},
	                                      {"models/networks/resnet50.yaml", "layer4.0.conv2", "imperfect"},
	                                      {"models/networks/gpt2-small.yaml", "h.0.attn.scores", ""}};
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/simba-like.yaml"), 0);
	int compared = 0;
	for (size_t q = 0; q < sizeof nets / sizeof *nets; q++) {
		trim_network *net = NULL;
		trim_workloads *w = NULL;
		size_t i = 0;
		ck_assert_msg(trim_network_load(&net, nets[q][0]) == 0, "%s", trim_last_error());
		ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 1, 0), 0);
		if (trim_workloads_find(w, nets[q][1], TRIM_PHASE_FW, &i) != 0)
			ck_abort_msg("%s: no layer %s", nets[q][0], nets[q][1]);
		for (int ph = 0; ph < 3; ph++) {
			size_t j = i;
			if (ph && trim_workloads_find(w, nets[q][1], ph, &j) != 0)
				continue;
			trim__mapspace s;
			ck_assert_int_eq(trim__mapspace_init(&s, trim__workloads_intra(w, j), a), 0);
			if (nets[q][2][0])
				ck_assert_int_eq(trim__mapspace_set_imperfect(&s, 1), 0);
			for (int k = 0; k < s.nslots; k++) {
				const int l = s.slot[k];
				const trim__level *L = &a->lv[l];
				if (L->type != TRIM__LVL_SPATIAL)
					continue;
				int64_t vals[TRIM_NDIMS][64];
				int nv[TRIM_NDIMS];
				slot_values(&s, k, vals, nv);
				for (int t = 0; t < 3; t++) {
					if (!s.w->t[t].present)
						continue;
					const int64_t fan = (int64_t)L->fanout_x * L->fanout_y,
					              slow = share_cap_slow(vals, nv, s.share_priv[t], fan, 0, 1);
					ck_assert_msg(s.share_cap[t][l] == slow, "%s %s phase %d level %s tensor %d: cap %lld, enumeration %lld",
					              nets[q][0], nets[q][1], ph, L->name, t, (long long)s.share_cap[t][l], (long long)slow);
					compared++;
				}
			}
			if (q == 0 && ph == 0) {
				const int lanes = trim_arch_level_find(a, "Lanes"), chip = trim_arch_level_find(a, "Chiplet");
				ck_assert_int_eq(s.share_cap[2][lanes], 3);
				ck_assert_int_eq(s.share_cap[2][chip], 9);
				ck_assert_int_eq(s.share_cap[0][lanes], 8);
				ck_assert_int_eq(s.share_cap[1][lanes], 8);
			}
			trim__mapspace_free(&s);
		}
		trim_workloads_free(w);
		trim_network_free(net);
	}
	ck_assert_int_ge(compared, 40);
	trim_arch_free(a);
}
END_TEST

/* The Simba-like space (models/arch/spaces/simba-like.yaml: 2x2, 4x4 and
 * 6x6 chiplets x three global buffers) explored on the small network: every
 * point evaluated; for delay, more chiplets are never slower at the same
 * buffer (their mapspace holds the smaller package's mappings) and cost
 * more area. */
START_TEST(test_simba_like_explore)
{
	int st = 0;
	char *out = tu_capture("explore test/data/networks/simba-small.yaml models/arch/spaces/simba-like.yaml "
	                       "--constraints test/data/constraints/simba-small.yaml --goal delay --quiet --format csv", 0, &st);
	ck_assert_msg(st == 0, "%s", out);
	double cyc[3][3], area[3][3];
	int seen = 0;
	static const char *const chip[] = {"2x2", "4x4", "6x6"}, *const glb[] = {"32KB", "64KB", "128KB"};
	for (int p = 0; p < 3; p++)
		for (int g = 0; g < 3; g++) {
			char name[64];
			snprintf(name, sizeof name, "\ndelay,%s_glb=%s,", chip[p], glb[g]);
			const char *l = strstr(out, name);
			if (!l)
				continue;
			seen++;
			/* the columns of trim explore's CSV: goal, name, rank, valid, cycles */
			const char *f = l + 1;
			for (int k = 0; k < 4; k++)
				f = strchr(f, ',') + 1;
			cyc[p][g] = strtod(f, NULL);
			for (int k = 0; k < 5; k++) /* seconds, energy, static, edp, area */
				f = strchr(f, ',') + 1;
			area[p][g] = strtod(f, NULL);
		}
	ck_assert_msg(seen == 9, "%d of 9 points in\n%s", seen, out);
	for (int g = 0; g < 3; g++)
		ck_assert(cyc[2][g] <= cyc[1][g] && cyc[1][g] <= cyc[0][g] && cyc[0][g] > 0 &&
		          area[0][g] < area[1][g] && area[1][g] < area[2][g]);
	free(out);
}
END_TEST

/* The Simba-like mapping exported in Timeloop's format (two spatial levels in
 * a row: the second is a spatial directive naming its level) reads back
 * into the same mapping: the same energy and cycles. */
START_TEST(test_simba_like_timeloop_roundtrip)
{
	int st = 0;
	const char *args = "test/data/networks/simba-small.yaml models/arch/simba-like.yaml --layer conv3 --phase FW";
	char cmd[512], path[] = "/tmp/check_hier_XXXXXX";
	snprintf(cmd, sizeof cmd, "map %s --constraints test/data/constraints/simba-small.yaml --quiet --format timeloop", args);
	char *tl = tu_capture(cmd, 0, &st);
	ck_assert_msg(st == 0, "%s", tl);
	ck_assert_ptr_nonnull(strstr(tl, "target: \"Lanes\""));
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs(tl, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "map %s --constraints test/data/constraints/simba-small.yaml --quiet", args);
	char *mapped = tu_capture(cmd, 0, &st);
	ck_assert_int_eq(st, 0);
	snprintf(cmd, sizeof cmd, "eval %s --mapping %s", args, path);
	char *ev = tu_capture(cmd, 0, &st);
	ck_assert_msg(st == 0, "%s", ev);
	/* "cycles N (bottleneck L), energy E pJ" in both */
	const char *a = strstr(mapped, "cycles "), *b = strstr(ev, "cycles ");
	ck_assert(a && b);
	ck_assert_msg(!strncmp(a, b, (size_t)(strstr(a, " pJ") - a)), "map: %.80s\neval: %.80s", a, b);
	remove(path);
	free(tl);
	free(mapped);
	free(ev);
}
END_TEST

/* One network per tensor: the level's time is its slowest network's, each
 * carrying its own tensor's words. TRIM Fig. 6 (b) (DRAM -> GLB -> NoC 4x2
 * -> RF -> MAC, M = 32, C = 16): the NoC carries 128 input words (multicast
 * to 4), 512 weight words (each weight goes to one PE once) and 32 reduced
 * partial sums. Three 16-bit networks: max(128, 512, 32) = 512 cycles; one
 * 48-bit link for all: (128 + 512 + 32) / 3 = 224. */
START_TEST(test_per_tensor_link_time)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	trim__level_cost c[TRIM__MAX_LEVELS];
	trim__eval_ws ws = {0};
	trim__eval e;
	tu_arch_init(&a, "fig6");
	tu_storage(&a, "DRAM", 0, 16);
	tu_storage(&a, "GLB", 0, 16);
	trim__level *noc = tu_spatial(&a, "NoC", 4, 2, 1, 1);
	tu_storage(&a, "RF", 0, 16);
	tu_compute(&a, "MAC");
	tu_arch_finish(&a);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 16, 32, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	trim__mapping_init(&m, &a);
	m.f[0][TRIM_DIM_M] = 4;
	m.f[1][TRIM_DIM_M] = m.f[1][TRIM_DIM_C] = 2;
	ck_assert_int_eq(trim__mapping_set_order_str(&m, 1, "MC"), 0);
	m.f[2][TRIM_DIM_M] = m.fx[2][TRIM_DIM_M] = 4;
	m.f[2][TRIM_DIM_C] = m.fy[2][TRIM_DIM_C] = 2;
	m.f[3][TRIM_DIM_C] = 4;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	tu_costs(&a, c);
	noc->link_bits = 48;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	ck_assert_int_eq(e.act.down_words[2][0] + e.act.up_out[2][0], 128);
	ck_assert_int_eq(e.act.down_words[2][1] + e.act.up_out[2][1], 512);
	ck_assert_int_eq(e.act.down_words[2][2] + e.act.up_out[2][2], 32);
	ck_assert_double_eq(e.level_cycles[2], 224);
	noc->link_t[0] = noc->link_t[1] = noc->link_t[2] = 16;
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	ck_assert_double_eq(e.level_cycles[2], 512);
	ck_assert_int_eq(e.bottleneck, 2);
	noc->link_t[1] = 64; /* a wider filter network: the inputs' binds */
	ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
	ck_assert_double_eq(e.level_cycles[2], 128);
	trim__eval_ws_free(&ws);
}
END_TEST

/* The search against brute force with one network per tensor (goal delay:
 * the networks bind), on the bypass-between architecture. */
START_TEST(test_search_per_tensor_links)
{
	struct trim_arch a;
	trim__intra w;
	arch_bypass_between(&a);
	a.lv[1].link_t[0] = 16, a.lv[1].link_t[1] = 32, a.lv[1].link_t[2] = 48;
	a.lv[1].link_bits = 96;
	a.lv[3].link_t[0] = 32, a.lv[3].link_t[1] = 16, a.lv[3].link_t[2] = 16;
	a.lv[3].link_bits = 64;
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 4, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	ck_assert_int_gt(brute_vs_search(&a, &w, TRIM__GOAL_DELAY), 50);
	ck_assert_int_gt(brute_vs_search(&a, &w, TRIM__GOAL_EDP), 50);
}
END_TEST

/* An architecture file with one network per tensor maps through the CLI
 * (the array's time is its slowest network's), and a space may not set one
 * link_bits for such a level (file:line:column, exit 2). */
START_TEST(test_per_tensor_links_files)
{
	int st = 0;
	char *out = tu_capture("map test/data/networks/tiny.yaml test/data/arch/per-tensor-links.yaml --layer conv1 --phase FW "
	                       "--goal delay --quiet", 1, &st);
	ck_assert_msg(st == 0, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "cycles "));
	free(out);
	trim_space *sp = NULL;
	ck_assert_int_eq(trim_space_load(&sp, "test/data/explore/per-tensor-link-space.yaml"), TRIM_ESCHEMA);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "per-tensor-link-space.yaml:8:10: parameters[0].set: level 'PE array' "
	                                                "has one network per tensor"));
	out = tu_capture("space test/data/explore/per-tensor-link-space.yaml", 1, &st);
	ck_assert_int_eq(st, 2);
	free(out);
}
END_TEST

/* Timeloop's Eyeriss organisation: the X fan-out below the buffer, a
 * bypass-all DummyBuffer, the Y fan-out below it, and a Timeloop mapping
 * whose spatial directives name GLB (X) and DummyBuffer (Y). Against one
 * 2-D array (TRIM Fig. 6 (b)): every storage count is the same (both
 * networks multicast and reduce: a word is replicated where the 2-D array
 * would), the X network carries the 2-D array's words, the Y network
 * delivers its deliveries, and the simulator agrees. */
START_TEST(test_dummy_buffer_timeloop)
{
	struct trim_arch a2, ad;
	trim__intra w;
	trim__mapping m2, *md = NULL;
	trim__act_ws ws = {0};
	trim__activity x2, xd, y;
	tu_arch_init(&a2, "fig6");
	tu_storage(&a2, "DRAM", 0, 16);
	tu_storage(&a2, "GLB", 0, 16);
	tu_spatial(&a2, "NoC", 4, 2, 1, 1);
	tu_storage(&a2, "RF", 0, 16);
	tu_compute(&a2, "MAC");
	tu_arch_finish(&a2);
	tu_arch_init(&ad, "fig6-dummy");
	tu_storage(&ad, "DRAM", 0, 16);
	tu_storage(&ad, "GLB", 0, 16);
	tu_spatial(&ad, "PE columns", 4, 1, 1, 1);
	trim__level *d = tu_storage(&ad, "DummyBuffer", 32, 16);
	d->keep[0] = d->keep[1] = d->keep[2] = 0;
	tu_spatial(&ad, "PE rows", 2, 1, 1, 1);
	tu_storage(&ad, "RF", 0, 16);
	tu_compute(&ad, "MAC");
	tu_arch_finish(&ad);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 16, 32, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	trim__mapping_init(&m2, &a2);
	m2.f[0][TRIM_DIM_M] = 4;
	m2.f[1][TRIM_DIM_M] = m2.f[1][TRIM_DIM_C] = 2;
	ck_assert_int_eq(trim__mapping_set_order_str(&m2, 1, "MC"), 0);
	m2.f[2][TRIM_DIM_M] = m2.fx[2][TRIM_DIM_M] = 4;
	m2.f[2][TRIM_DIM_C] = m2.fy[2][TRIM_DIM_C] = 2;
	m2.f[3][TRIM_DIM_C] = 4;
	ck_assert_int_eq(trim__mapping_check(&m2, &w, &a2), 0);
	static const char *const tl =
		"mapping:\n"
		"  - {target: DRAM, type: temporal, factors: M4 C1, permutation: CM}\n"
		"  - {target: GLB, type: temporal, factors: M2 C2, permutation: CM}\n"
		"  - {target: GLB, type: spatial, factors: M4}\n"
		"  - {target: DummyBuffer, type: temporal, factors: M1 C1}\n"
		"  - {target: DummyBuffer, type: spatial, factors: C2}\n"
		"  - {target: RF, type: temporal, factors: C4}\n";
	ck_assert_msg(trim_mapping_load_string(&md, &ad, tl, "dummy.yaml") == 0, "%s", trim_last_error());
	ck_assert_int_eq(md->f[2][TRIM_DIM_M], 4);
	ck_assert_int_eq(md->f[4][TRIM_DIM_C], 2);
	ck_assert_int_eq(md->keep[3][0] + md->keep[3][1] + md->keep[3][2], 0);
	ck_assert_msg(trim__mapping_check(md, &w, &ad) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim__activity_compute(&w, &a2, &m2, &ws, &x2), 0);
	ck_assert_int_eq(trim__activity_compute(&w, &ad, md, &ws, &xd), 0);
	ck_assert_int_eq(refsim_run(&w, &ad, md, &y), 0);
	static const int map2[] = {0, 1, -1, -1, 3}, mapd[] = {0, 1, -1, -1, 5}; /* storage levels */
	for (int k = 0; k < 5; k++) {
		if (map2[k] < 0)
			continue;
		for (int t = 0; t < 3; t++) {
			ck_assert_int_eq(x2.fills[map2[k]][t], xd.fills[mapd[k]][t]);
			ck_assert_int_eq(x2.reads[map2[k]][t], xd.reads[mapd[k]][t]);
			ck_assert_int_eq(x2.updates[map2[k]][t], xd.updates[mapd[k]][t]);
			ck_assert_int_eq(x2.drains[map2[k]][t], xd.drains[mapd[k]][t]);
		}
	}
	for (int t = 0; t < 3; t++) {
		ck_assert_int_eq(x2.down_words[2][t], xd.down_words[2][t]);
		ck_assert_int_eq(x2.down_dests[2][t], xd.down_dests[4][t]);
		ck_assert_int_eq(x2.up_words[2][t], xd.up_words[4][t]);
		ck_assert_int_eq(x2.up_out[2][t], xd.up_out[2][t]);
		for (int l = 0; l < ad.nlevels; l++)
			ck_assert(xd.down_words[l][t] == y.down_words[l][t] && xd.down_dests[l][t] == y.down_dests[l][t] &&
			          xd.up_out[l][t] == y.up_out[l][t] && xd.reads[l][t] == y.reads[l][t]);
	}
	ck_assert_int_eq(xd.reads[1][0], 128); /* Fig. 6 (b): inputs multicast to 4 */
	ck_assert_int_eq(xd.updates[1][2], 32);
	/* rows that do not reduce: the columns cannot add what they did not */
	ad.lv[4].reduction = 0;
	ck_assert_int_eq(trim__activity_compute(&w, &ad, md, &ws, &xd), 0);
	ck_assert_int_eq(refsim_run(&w, &ad, md, &y), 0);
	ck_assert_int_eq(xd.updates[1][2], 64);
	ck_assert_int_eq(y.updates[1][2], 64);
	ck_assert_int_eq(xd.reductions[2][2], 0);
	trim_mapping_free(md);
	trim__act_ws_free(&ws);
}
END_TEST

Suite *hier_suite(void)
{
	Suite *s = suite_create("hier");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_search_bypass_between);
	tcase_add_test(tc, test_search_keep_nothing);
	tcase_add_test(tc, test_search_adjacent);
	tcase_add_test(tc, test_simba_like_map);
	tcase_add_test(tc, test_share_caps);
	tcase_add_test(tc, test_simba_like_explore);
	tcase_add_test(tc, test_simba_like_timeloop_roundtrip);
	tcase_add_test(tc, test_per_tensor_link_time);
	tcase_add_test(tc, test_search_per_tensor_links);
	tcase_add_test(tc, test_per_tensor_links_files);
	tcase_add_test(tc, test_dummy_buffer_timeloop);
	suite_add_tcase(s, tc);
	return s;
}
