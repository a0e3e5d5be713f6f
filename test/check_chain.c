/*
 * The node bound on chains of several spatial levels (lib/search/
 * spatial_chain.c; docs/model.md, "Bounds", *Spatial chains*), on a small
 * architecture shaped like models/arch/simba-like.yaml (a package and a
 * chip network between DRAM, a global buffer and the PE buffers; vector
 * MACs and their reducing lanes on buses; weight registers), against brute
 * force over its whole mapspace: each chain figure is at most the
 * evaluator's count it bounds (and equal to it in many mappings), the node
 * bound of every prefix of every valid mapping is at most its cost, and the
 * search returns the brute force's best (cost, second figure, index) at 1,
 * 2 and 3 threads.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity/activity_int.h"
#include "eval/eval_int.h"
#include "search/search_int.h"
#include "tcase_util.h"
#include "trim.h"

/* (package: a package network, mesh with multicast, between DRAM and) a
 * global buffer of inputs and outputs, a chip network (mesh, multicast;
 * reducing when bit 1 of reduce) to the PE buffers, vector MACs (bus,
 * multicast) of lanes (bus, multicast, reducing when bit 0 of reduce) and
 * (regs) weight registers of 2 words. */
static void arch_simba_small(struct trim_arch *a, int package, int regs, int reduce)
{
	tu_arch_init(a, "simba-small");
	tu_storage(a, "DRAM", 0, 16);
	if (package)
		tu_spatial(a, "Package", 2, 1, 1, 0)->net = TRIM__NET_MESH;
	tu_storage(a, "GlobalBuffer", 64, 16)->keep[1] = 0;
	tu_spatial(a, "Chiplet", 2, 1, 1, reduce >> 1 & 1)->net = TRIM__NET_MESH;
	tu_storage(a, "PEBuffer", 32, 16);
	tu_spatial(a, "VectorMACs", 2, 1, 1, 0)->net = TRIM__NET_BUS;
	tu_spatial(a, "Lanes", 2, 1, 1, reduce & 1)->net = TRIM__NET_BUS;
	if (regs) {
		trim__level *r = tu_storage(a, "WeightRegs", 4, 16);
		r->keep[0] = r->keep[2] = 0;
	}
	tu_compute(a, "MAC");
	tu_arch_finish(a);
}

/* The innermost storage level of m keeping t (0: DRAM). */
static int innermost_holder(const struct trim_arch *a, const trim__mapping *m, int t, int below)
{
	int h = 0;
	for (int l = 1; l < below; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE && m->keep[l][t])
			h = l;
	return h;
}

typedef struct {
	uint64_t checked, equal; /* chain figures compared with the counts, and equal to them */
	uint64_t readbacks;      /* results whose reads and drains were checked against U0 */
	/* open hops (open_hop.c): holders' entries checked, and above |t|;
	 * spatial levels' words checked, and of those open */
	uint64_t open_entries, open_entries_above_touched, open_words, open_words_open;
} chain_stats;

/* Each chain figure of m (the spatial levels of frame f fixed) against the
 * evaluator's counts x: operands, the words entering each level and those
 * it delivers; results, the words leaving each level upwards and those it
 * receives; and the result's reads and drains at its innermost holder
 * (both read it) against its distinct entries U0. */
static void check_chain_figures(const trim__mapspace *s, const node_frame *f, const trim__mapping *m,
                                const trim__activity *x, chain_stats *st)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		const int res = t == 2;
		int64_t enter[TRIM__MAX_LEVELS], deliver[TRIM__MAX_LEVELS];
		/* the hop to the MACs */
		const int h = innermost_holder(a, m, t, nl);
		int64_t u0_top = 0;
		const int64_t top = trim__chain_to_macs(s, f, m, t, h, enter, deliver, &u0_top);
		int64_t outer = 0;
		for (int k = h + 1; k < nl; k++) {
			if (!enter[k])
				continue;
			const int64_t in = res ? x->up_out[k][t] : x->down_words[k][t];
			const int64_t dl = res ? x->up_words[k][t] : x->down_dests[k][t];
			REQUIRE(enter[k] <= in && deliver[k] <= dl,
			              "tensor %d level %s: chain %lld / %lld above the counts %lld / %lld", t, a->lv[k].name,
			              (long long)enter[k], (long long)deliver[k], (long long)in, (long long)dl);
			st->checked++;
			st->equal += enter[k] == in && deliver[k] == dl;
			if (!outer)
				outer = enter[k];
		}
		REQUIRE(top == outer || (!top && !f->allsp), "top == outer || (!top && !f->allsp)"); /* h's figure once every level below h is fixed */
		REQUIRE(top <= (res ? x->updates[h][t] : x->reads[h][t]), "top <= (res ? x->updates[h][t] : x->reads[h][t])");
		if (res && top && h > 0) { /* the outermost's first entries are not drains */
			const int64_t u0 = trim__chain_distinct(s, f, m, t, h);
			REQUIRE(u0 <= x->reads[h][t] + x->drains[h][t], "U0 %lld above reads %lld + drains %lld",
			              (long long)u0, (long long)x->reads[h][t], (long long)x->drains[h][t]);
			st->readbacks++;
		}
		/* the hops between holders, from the inner holder's exact entries */
		for (int l = nl - 1; f->allsp && l > 0; l--) {
			if (a->lv[l].type != TRIM__LVL_STORAGE || !m->keep[l][t])
				continue;
			const int p = innermost_holder(a, m, t, l);
			const int64_t words = res ? x->drains[l][t] : x->fills[l][t];
			const int64_t ptop = trim__chain_hop(s, NULL, m, t, p, l, words, enter, deliver);
			for (int k = p + 1; k < l; k++) {
				if (a->lv[k].type != TRIM__LVL_SPATIAL || !enter[k])
					continue;
				const int64_t in = res ? x->up_out[k][t] : x->down_words[k][t];
				const int64_t dl = res ? x->up_words[k][t] : x->down_dests[k][t];
				REQUIRE(enter[k] <= in && deliver[k] <= dl,
				              "tensor %d hop %s level %s: chain %lld / %lld above the counts %lld / %lld", t,
				              a->lv[l].name, a->lv[k].name, (long long)enter[k], (long long)deliver[k],
				              (long long)in, (long long)dl);
				st->checked++;
				st->equal += enter[k] == in && deliver[k] == dl;
			}
			REQUIRE(ptop <= (res ? x->updates[p][t] : x->reads[p][t]), "ptop <= (res ? x->updates[p][t] : x->reads[p][t])");
		}
	}
}

/* The open hops' figures (lib/search/open_hop.c) of m at a node whose
 * frame f leaves a spatial level open, against the evaluator's counts x:
 * each holder's entries (operands: fills; results: drains) and, from its
 * exact entries, the words entering and delivered by each spatial level
 * between it and its parent holder, and the parent's reads (results:
 * updates). */
static void check_open_hop_figures(const trim__mapspace *s, const node_frame *f, const trim__mapping *m,
                                   const trim__activity *x, chain_stats *st)
{
	const struct trim_arch *a = s->a;
	const int ones[TRIM_NDIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
	for (int t = 0; t < 3; t++) {
		if (!s->w->t[t].present)
			continue;
		const int res = t == 2;
		const int64_t touched = trim__share_lower_bound(s->w, t, s->w->bound, ones);
		for (int l = a->nlevels - 1; l > 0; l--) {
			if (a->lv[l].type != TRIM__LVL_STORAGE || !m->keep[l][t])
				continue;
			const int p = innermost_holder(a, m, t, l);
			const int64_t words = res ? x->drains[l][t] : x->fills[l][t];
			const int64_t entries = trim__open_hop_entries(s, f, m, t, l, touched);
			REQUIRE(entries <= words, "tensor %d holder %s: entries %lld above the count %lld", t,
			              a->lv[l].name, (long long)entries, (long long)words);
			st->open_entries++;
			st->open_entries_above_touched += entries > touched;
			int64_t enter[TRIM__MAX_LEVELS], deliver[TRIM__MAX_LEVELS];
			const int64_t top = trim__chain_hop(s, f, m, t, p, l, words, enter, deliver);
			for (int k = p + 1; k < l; k++) {
				if (a->lv[k].type != TRIM__LVL_SPATIAL || !enter[k])
					continue;
				const int64_t in = res ? x->up_out[k][t] : x->down_words[k][t];
				const int64_t dl = res ? x->up_words[k][t] : x->down_dests[k][t];
				REQUIRE(enter[k] <= in && deliver[k] <= dl,
				              "tensor %d open hop %s level %s%s: %lld / %lld above the counts %lld / %lld", t,
				              a->lv[l].name, a->lv[k].name, f->fixed[k] ? "" : " (open)", (long long)enter[k],
				              (long long)deliver[k], (long long)in, (long long)dl);
				st->open_words++;
				st->open_words_open += !f->fixed[k];
			}
			REQUIRE(top <= (res ? x->updates[p][t] : x->reads[p][t]), "top <= (res ? x->updates[p][t] : x->reads[p][t])");
		}
	}
}

/* The mapping of factorisation combination i of s (every slot's factors;
 * keeps and orders as trim__space_mapping_init leaves them). */
static void factorisation_of(const trim__mapspace *s, uint64_t i, trim__mapping *m)
{
	trim__space_mapping_init(s, m);
	for (int d = 0; d < TRIM_NDIMS; d++) {
		const int64_t row = (int64_t)(i % (uint64_t)s->nf[d]);
		i /= (uint64_t)s->nf[d];
		for (int j = 0; j < s->nslots; j++)
			m->f[s->slot[j]][d] = s->fact[d][row * s->nslots + j];
	}
}

/* The depth of the tree at which every spatial level is fixed (the tree
 * fixes them first). */
static int spatial_depth(const trim__mapspace *s)
{
	int depth = 0;
	for (int i = 0; i < s->nslots; i++)
		if (s->a->lv[s->slot[s->tord[i]]].type == TRIM__LVL_SPATIAL)
			depth = i + 1;
	return depth;
}

/* Brute force over the mapspace of (a, w) for goal against the search at
 * 1, 2 and 3 threads; every valid mapping's chain figures and the node
 * bounds of its prefixes. */
static void brute_chain(struct trim_arch *a, trim__intra *w, int goal, chain_stats *st)
{
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	trim__eval_ws ws = {0};
	tu_costs(a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, w, a), 0);
	ck_assert_msg(s.size < 3000000, "space too large for brute force (%llu)", (unsigned long long)s.size);
	stationary_workspace *sw = trim__stationary_workspace_new(); /* the node bounds' own */
	ck_assert_ptr_nonnull(sw);
	int64_t zero_macs = 0;
	REQUIRE((trim__intra_act_zero_macs(w, &zero_macs)) == (0), "trim__intra_act_zero_macs(w, &zero_macs) == 0");
	const int spdepth = spatial_depth(&s);
	ck_assert_int_ge(spdepth, 3);
	int have = 0;
	double best = 0, best_sec = 0;
	trim__index best_idx = 0;
	uint64_t valid = 0;
	for (trim__index i = 0; i < s.size; i++) {
		trim__mapping m, k;
		trim__eval e;
		REQUIRE((trim__mapspace_decode(&s, i, &m)) == (0), "trim__mapspace_decode(&s, i, &m) == 0");
		if (trim__mapping_check(&m, w, a))
			continue;
		valid++;
		k = m;
		trim__mapspace_canonical(&s, &k);
		trim__index ki;
		REQUIRE((trim__mapspace_encode(&s, &k, &ki)) == (0), "trim__mapspace_encode(&s, &k, &ki) == 0");
		REQUIRE(trim__eval_run(w, a, c, &m, &ws, &e) == 0, "%s", trim_last_error());
		const double cost = goal == TRIM__GOAL_ENERGY ? e.energy_pj : goal == TRIM__GOAL_DELAY ? e.cycles
		                    : e.energy_pj * e.cycles;
		/* the chain figures, from the frames of the nodes that fix the
		 * spatial levels one by one (innermost first) */
		trim__mapping p;
		node_frame f;
		for (int depth = 1; depth <= spdepth; depth++) {
			trim__mapspace_node_of(&s, depth, &m, &p);
			REQUIRE((trim__node_frame(&s, c, depth, zero_macs, &p, &f)) == (0), "trim__node_frame(&s, c, depth, zero_macs, &p, &f) == 0");
			REQUIRE(f.allsp == (depth == spdepth), "f.allsp == (depth == spdepth)");
			check_chain_figures(&s, &f, &m, &e.act, st);
			if (!f.allsp)
				check_open_hop_figures(&s, &f, &m, &e.act, st);
		}
		/* the node bound of every prefix (every 5th mapping: all of them
		 * at the spatial depth) is at most the cost */
		for (int depth = 1; depth < s.nslots; depth++) {
			if (depth != spdepth && valid % 5)
				continue;
			const double lb = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p, sw);
			REQUIRE(lb <= cost, "depth %d: node bound %.17g above the cost %.17g", depth, lb, cost);
		}
		const double sec = goal == TRIM__GOAL_ENERGY ? e.cycles : e.energy_pj;
		if (!have || cost < best || (cost == best && (sec < best_sec || (sec == best_sec && ki < best_idx)))) {
			have = 1;
			best = cost;
			best_sec = sec;
			best_idx = ki;
		}
	}
	ck_assert(have);
	for (int threads = 1; threads <= 3; threads++) {
		trim__search_result r;
		ck_assert_int_eq(trim__search(&s, c, goal, threads, &r), 0);
		ck_assert(r.found && r.exact);
		ck_assert_msg(r.best_cost == best, "%d threads: search %.17g, brute force %.17g", threads, r.best_cost,
		              best);
		ck_assert(trim__goal_second(&r.best_eval, goal) == best_sec && r.best_index == best_idx);
		ck_assert_int_eq(trim__mapping_check(&r.best, w, a), 0);
		trim__search_result_free(&r);
	}
	fprintf(stderr, "chain brute force %s: %llu valid mappings, %llu chain figures (%llu equal to the counts), "
	        "%llu read-back floors; open hops: %llu entries (%llu above |t|), %llu words (%llu open)\n", a->name,
	        (unsigned long long)valid, (unsigned long long)st->checked, (unsigned long long)st->equal,
	        (unsigned long long)st->readbacks, (unsigned long long)st->open_entries,
	        (unsigned long long)st->open_entries_above_touched, (unsigned long long)st->open_words,
	        (unsigned long long)st->open_words_open);
	trim__stationary_workspace_free(sw);
	trim__eval_ws_free(&ws);
	trim__mapspace_free(&s);
}

/* Three spatial levels, a convolution with a sliding window (E = 4, R = 3,
 * padded) over the chip network, the vector MACs and the reducing lanes
 * (the operands' words per level differ from the outermost's; R reduces). */
START_TEST(test_chain_conv_energy)
{
	struct trim_arch a;
	trim__intra w;
	chain_stats st = {0};
	arch_simba_small(&a, 0, 0, 1);
	ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 4, 1, 3, 1, 1, 1, 1), 0);
	brute_chain(&a, &w, TRIM__GOAL_ENERGY, &st);
	ck_assert_uint_gt(st.checked, 10000);
	ck_assert_uint_gt(st.equal, st.checked / 4);
	ck_assert_uint_gt(st.readbacks, 1000);
}
END_TEST

/* Four spatial levels (a package network too) and weight registers: the
 * weights cross the package and chip networks between DRAM and the PE
 * buffers, or all four between DRAM and the registers; EDP. */
START_TEST(test_chain_fc_edp)
{
	struct trim_arch a;
	trim__intra w;
	chain_stats st = {0};
	arch_simba_small(&a, 1, 1, 1);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 4, 2, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	brute_chain(&a, &w, TRIM__GOAL_EDP, &st);
	ck_assert_uint_gt(st.checked, 1000);
	ck_assert_uint_gt(st.equal, st.checked / 4);
	ck_assert_uint_gt(st.readbacks, 100);
}
END_TEST

/* Lanes that do not reduce: every partial sum is forwarded; delay. */
START_TEST(test_chain_fc_forward_delay)
{
	struct trim_arch a;
	trim__intra w;
	chain_stats st = {0};
	arch_simba_small(&a, 1, 1, 0);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 2, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	brute_chain(&a, &w, TRIM__GOAL_DELAY, &st);
	ck_assert_uint_gt(st.checked, 1000);
	ck_assert_uint_gt(st.equal, st.checked / 4);
}
END_TEST

/* A reducing chip network above the PE buffers: a result drained from
 * them may be added up on its way to the global buffer, so the read-back
 * floor may not count the drains' network words and updates while that
 * level is open (or has bounds > 1); energy. */
START_TEST(test_chain_reducing_chip)
{
	struct trim_arch a;
	trim__intra w;
	chain_stats st = {0};
	arch_simba_small(&a, 0, 0, 3);
	ck_assert_int_eq(tu_layer(&w, TU_FC, TRIM_PHASE_FW, 1, 4, 2, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	brute_chain(&a, &w, TRIM__GOAL_ENERGY, &st);
	ck_assert_uint_gt(st.checked, 1000);
	ck_assert_uint_gt(st.readbacks, 100);
}
END_TEST

/* A max pool whose stride is its window (E = 4, R = 2, stride 2: the
 * input's row axis 2 E + R is one to one, trim__axis_one_to_one) over the
 * chip network, the vector MACs and the lanes: the lanes' instances that
 * differ in E or R need disjoint inputs (their sharers, the chain's
 * D_k), and a share of the spatial tile takes E x R rows; energy. */
START_TEST(test_chain_pool_one_to_one)
{
	struct trim_arch a;
	trim__intra w;
	chain_stats st = {0};
	arch_simba_small(&a, 0, 0, 1);
	ck_assert_int_eq(tu_layer(&w, TU_MAXPOOL, TRIM_PHASE_FW, 1, 2, 2, 1, 8, 1, 2, 1, 2, 1, 0), 0);
	ck_assert(trim__axis_one_to_one(&w, &w.t[0].idx[w.t[0].ndims - 2]));
	brute_chain(&a, &w, TRIM__GOAL_ENERGY, &st);
	ck_assert_uint_gt(st.checked, 1000);
	ck_assert_uint_gt(st.equal, st.checked / 2);
}
END_TEST

/* Max pools whose windows overlap (stride 2 under a window of 4: the
 * input's row axis 2 E + R takes 2 (|E| - 1) + |R| values over consecutive
 * E and R, more than |E| + |R| - 1): the chain's distinct elements and the
 * single-level spatial tile count the stride at the spacings the levels
 * below the spatial ones may give E and R (trim__chain_share), the weight
 * registers below the lanes being such a level while open; energy. */
START_TEST(test_chain_pool_overlap)
{
	struct trim_arch a;
	trim__intra w;
	for (int regs = 0; regs <= 1; regs++) {
		chain_stats st = {0};
		arch_simba_small(&a, 0, regs, 1);
		ck_assert_int_eq(tu_layer(&w, TU_MAXPOOL, TRIM_PHASE_FW, 1, 1, 1, 1, 10, 1, 4, 1, 2, 1, 0), 0);
		ck_assert(!trim__axis_one_to_one(&w, &w.t[0].idx[w.t[0].ndims - 2]));
		brute_chain(&a, &w, TRIM__GOAL_ENERGY, &st);
		ck_assert_uint_gt(st.checked, 1000);
	}
}
END_TEST

static int cmp_i64(const void *p, const void *q)
{
	const int64_t a = *(const int64_t *)p, b = *(const int64_t *)q;
	return (a > b) - (a < b);
}

/* The distinct elements of t in the full mapping m with the loops of the
 * levels l where vary[l] over their ranges and every other index at 0, by
 * enumeration. */
static int64_t distinct_elements(const struct trim_arch *a, const trim__intra *w, const trim__mapping *m, int t,
                                 const int *vary)
{
	const int nl = a->nlevels;
	int64_t total = 1;
	for (int k = 0; k < nl; k++)
		for (int d = 0; vary[k] && d < TRIM_NDIMS; d++)
			total *= m->f[k][d];
	ck_assert(total <= 1 << 16);
	static int64_t keys[1 << 16];
	const trim__tensor *T = &w->t[t];
	for (int64_t i = 0; i < total; i++) {
		int64_t v[TRIM_NDIMS] = {0}, r = i;
		for (int k = 0; k < nl; k++)
			for (int d = 0; vary[k] && d < TRIM_NDIMS; d++) {
				int64_t below = 1;
				for (int j = k + 1; j < nl; j++)
					below *= m->f[j][d];
				v[d] += (r % m->f[k][d]) * below;
				r /= m->f[k][d];
			}
		int64_t key = 0;
		for (int x = 0; x < T->ndims; x++) {
			int64_t av = 0;
			for (int j = 0; j < T->idx[x].nterms; j++)
				av += T->idx[x].coef[j] * v[T->idx[x].dim[j]];
			key = key * 4096 + av + 2048;
		}
		keys[i] = key;
	}
	qsort(keys, (size_t)total, sizeof *keys, cmp_i64);
	int64_t n = 0;
	for (int64_t i = 0; i < total; i++)
		n += i == 0 || keys[i] != keys[i - 1];
	return n;
}

/* The distinct elements of t below one node of spatial level k at a step
 * in the full mapping m: the spatial indices from k down vary. */
static int64_t tile_truth(const struct trim_arch *a, const trim__intra *w, const trim__mapping *m, int t, int k)
{
	int vary[TRIM__MAX_LEVELS] = {0};
	for (int l = k; l < a->nlevels; l++)
		vary[l] = a->lv[l].type == TRIM__LVL_SPATIAL;
	return distinct_elements(a, w, m, t, vary);
}

/* trim__chain_share on every node (from the spatial depth on) above every
 * factorisation, below each spatial level, for each tensor: at most the
 * distinct elements the tile has in that factorisation; equal to them once
 * every factor is known and no dim is split by two spatial levels; and
 * above |A| + |B| - 1 on some nodes whose storage levels below are open
 * (their possible strides still leave more). A max pool of stride 2 under
 * a window of 4, and a convolution of dilation 2. */
static void check_share(int kind, int64_t u, int64_t dil, int64_t in_h, int64_t r)
{
	struct trim_arch a;
	trim__intra w;
	arch_simba_small(&a, 0, 1, 1);
	ck_assert_int_eq(tu_layer(&w, kind, TRIM_PHASE_FW, 1, 2, 2, 1, in_h, 1, r, 1, u, dil, 0), 0);
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(&a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	const int nl = a.nlevels;
	const int spdepth = spatial_depth(&s);
	ck_assert(spdepth > 0 && spdepth + 1 < s.nslots);
	const int nox[TRIM_NDIMS] = {0};
	uint64_t checked = 0, equal = 0, wider = 0;
	ck_assert(s.nfact < 1000000);
	for (uint64_t i = 0; i < (uint64_t)s.nfact; i++) {
		trim__mapping m, p;
		factorisation_of(&s, i, &m);
		for (int k = 1; k < nl; k++) {
			if (a.lv[k].type != TRIM__LVL_SPATIAL)
				continue;
			int split = 0; /* a dim with factors > 1 at two spatial levels >= k */
			int64_t sext[TRIM_NDIMS];
			for (int d = 0; d < TRIM_NDIMS; d++) {
				int nsp = 0;
				sext[d] = 1;
				for (int l = k; l < nl; l++)
					if (a.lv[l].type == TRIM__LVL_SPATIAL) {
						sext[d] *= m.f[l][d];
						nsp += m.f[l][d] > 1;
					}
				split |= nsp > 1;
			}
			for (int t = 0; t < 3; t++) {
				if (!w.t[t].present)
					continue;
				const int64_t truth = tile_truth(&a, &w, &m, t, k);
				for (int depth = spdepth; depth < s.nslots; depth++) {
					node_frame f;
					trim__mapspace_node_of(&s, depth, &m, &p);
					if (trim__node_frame(&s, c, depth, 0, &p, &f))
						break; /* a spatial level does not fit */
					const int64_t share = trim__chain_share(&s, &f, &p, t, k);
					ck_assert_msg(share <= truth, "level %s tensor %d depth %d: %lld above the tile's %lld",
					              a.lv[k].name, t, depth, (long long)share, (long long)truth);
					checked++;
					if (depth == s.nslots - 1 && !split) {
						ck_assert_msg(share == truth, "level %s tensor %d: every factor known, %lld against %lld",
						              a.lv[k].name, t, (long long)share, (long long)truth);
						equal++;
					}
					if (depth < s.nslots - 1 && share > trim__share_lower_bound(&w, t, sext, nox))
						wider++;
				}
			}
		}
	}
	ck_assert(checked > 1000 && equal > 100 && wider > 0);
	/* with imperfect rows, no more than |A| + |B| - 1 */
	{
		trim__mapping m, p;
		node_frame f;
		ck_assert_int_eq(trim__mapspace_decode(&s, 0, &m), 0);
		trim__mapspace_node_of(&s, s.nslots - 1, &m, &p);
		ck_assert_int_eq(trim__node_frame(&s, c, s.nslots - 1, 0, &p, &f), 0);
		s.imperfect = 1;
		for (int k = 1; k < nl; k++)
			if (a.lv[k].type == TRIM__LVL_SPATIAL) {
				int64_t sext[TRIM_NDIMS];
				for (int d = 0; d < TRIM_NDIMS; d++) {
					sext[d] = 1;
					for (int l = k; l < nl; l++)
						if (a.lv[l].type == TRIM__LVL_SPATIAL)
							sext[d] *= p.f[l][d];
				}
				for (int t = 0; t < 3; t++)
					if (w.t[t].present)
						ck_assert_int_eq(trim__chain_share(&s, &f, &p, t, k),
						                 trim__share_lower_bound(&w, t, sext, nox));
			}
		s.imperfect = 0;
	}
	fprintf(stderr, "chain share: %llu nodes checked, %llu equal to the tile, %llu above |A| + |B| - 1\n",
	        (unsigned long long)checked, (unsigned long long)equal, (unsigned long long)wider);
	trim__mapspace_free(&s);
}

START_TEST(test_chain_share)
{
	check_share(TU_MAXPOOL, 2, 1, 10, 4); /* rows 2 E + R */
	check_share(TU_CONV, 1, 2, 6, 2);     /* rows E + 2 R */
}
END_TEST

/* The distinct elements of t in the share of one instance of storage level
 * l in the full mapping m (the spatial indices above l at 0, every other
 * index over its range), by enumeration. */
static int64_t share_truth(const struct trim_arch *a, const trim__intra *w, const trim__mapping *m, int t, int l)
{
	int vary[TRIM__MAX_LEVELS] = {0};
	for (int k = 0; k < a->nlevels; k++)
		vary[k] = !(a->lv[k].type == TRIM__LVL_SPATIAL && k < l);
	return distinct_elements(a, w, m, t, vary);
}

/* trim__share_blocks on every node from the spatial depth on, above every
 * factorisation of a max pool (its rows split by the package network above
 * the global buffer or the chip network above the PE buffers), for every
 * storage level and tensor: never above the share enumerated in that
 * factorisation, and above trim__share_lower_bound's |A| + |B| - 1 on some
 * nodes. A window of 4 under a stride of 2, and one of 3 under a stride of
 * 1, whose blocks' rows overlap. */
static void check_share_blocks(int64_t in_h, int64_t r, int64_t u)
{
	struct trim_arch a;
	trim__intra w;
	arch_simba_small(&a, 1, 0, 1);
	ck_assert_int_eq(tu_layer(&w, TU_MAXPOOL, TRIM_PHASE_FW, 1, 1, 1, 1, in_h, 1, r, 1, u, 1, 0), 0);
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(&a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	const int nl = a.nlevels;
	const int spdepth = spatial_depth(&s);
	uint64_t checked = 0, wider = 0;
	ck_assert(s.nfact < 1000000);
	for (uint64_t i = 0; i < (uint64_t)s.nfact; i++) {
		trim__mapping m, p;
		factorisation_of(&s, i, &m);
		for (int l = 1; l < nl; l++) {
			if (a.lv[l].type != TRIM__LVL_STORAGE)
				continue;
			for (int t = 0; t < 3; t++) {
				if (!w.t[t].present)
					continue;
				const int64_t truth = share_truth(&a, &w, &m, t, l);
				for (int depth = spdepth; depth < s.nslots; depth++) {
					node_frame f;
					trim__mapspace_node_of(&s, depth, &m, &p);
					if (trim__node_frame(&s, c, depth, 0, &p, &f))
						break; /* a spatial level does not fit */
					const int64_t share = trim__share_blocks(&s, &f, &p, t, l);
					ck_assert_msg(share <= truth, "level %s tensor %d depth %d: %lld above the share's %lld",
					              a.lv[l].name, t, depth, (long long)share, (long long)truth);
					checked++;
					wider += share > trim__share_lower_bound(&w, t, f.pext[l], f.contig[l]);
				}
			}
		}
	}
	fprintf(stderr, "share blocks: %llu nodes checked, %llu above |A| + |B| - 1\n", (unsigned long long)checked,
	        (unsigned long long)wider);
	ck_assert(checked > 1000 && wider > 0);
	trim__mapspace_free(&s);
}

START_TEST(test_chain_share_blocks)
{
	check_share_blocks(18, 4, 2); /* 8 output rows, a window of 4 under a stride of 2 */
	check_share_blocks(10, 3, 1); /* a window of 3 under a stride of 1: blocks' rows overlap */
}
END_TEST

Suite *chain_suite(void)
{
	Suite *s = suite_create("chain");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_chain_conv_energy);
	tcase_add_test(tc, test_chain_fc_edp);
	tcase_add_test(tc, test_chain_fc_forward_delay);
	tcase_add_test(tc, test_chain_reducing_chip);
	tcase_add_test(tc, test_chain_pool_one_to_one);
	tcase_add_test(tc, test_chain_pool_overlap);
	tcase_add_test(tc, test_chain_share);
	tcase_add_test(tc, test_chain_share_blocks);
	suite_add_tcase(s, tc);
	return s;
}
