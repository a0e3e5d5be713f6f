/*
 * Dataflow constraints (lib/constraints/): the constrained search against
 * brute force over every raw mapping that obeys the constraints (checked
 * by a reference written here, independent of the reader and of the
 * mapspace's filters), the distinct count against the brute-force class
 * count, the presets' definitions, every reading and checking error with
 * its file:line and key path, the shipped examples, the CLI.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "activity/activity_int.h"
#include "constraints/constraints_int.h"
#include "search/search_int.h"
#include "tcase_util.h"
#include "trim.h"

/* The shared small spaces (tcase_util.h) as brute_vs_search builders. */
static void case_fc(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_fc(a, w), 0);
}

static void case_conv(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_conv(a, w), 0);
}

/* A conv's weight gradient (M = E = R = 2, the reduction over E) on the
 * same hardware. */
static void case_wg(struct trim_arch *a, trim__intra *w)
{
	case_conv(a, w);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_WG, 1, 1, 2, 1, 3, 1, 2, 1, 1, 1, 0), 0);
}

/* What a constraint set means, written out by hand: the reference the
 * brute force filters raw mappings with. */
typedef struct {
	int64_t fix[TRIM__MAX_LEVELS][TRIM_NDIMS]; /* 0 free */
	int64_t max[TRIM__MAX_LEVELS][TRIM_NDIMS]; /* 0 none */
	int keep[TRIM__MAX_LEVELS][3];             /* -1 free */
	int nperm[TRIM__MAX_LEVELS];
	int perm[TRIM__MAX_LEVELS][TRIM_NDIMS];    /* innermost first */
	int axis[TRIM__MAX_LEVELS][TRIM_NDIMS];    /* 1 X, 2 Y */
} ref_t;

static void ref_init(ref_t *r)
{
	memset(r, 0, sizeof *r);
	memset(r->keep, 0xff, sizeof r->keep);
}

/* dims of level l outside `allowed` (letters) are 1 */
static void ref_only(ref_t *r, int l, const char *allowed)
{
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!strchr(allowed, "NGMCEFRS"[d]))
			r->fix[l][d] = 1;
}

static void ref_perm(ref_t *r, int l, const char *inner_first)
{
	r->nperm[l] = 0;
	for (const char *p = inner_first; *p; p++)
		r->perm[l][r->nperm[l]++] = (int)(strchr("NGMCEFRS", *p) - "NGMCEFRS");
}

/* The constraints other than fit; and the spatial axes (part of fit). */
static int ref_obeys(const ref_t *r, const trim__mapping *m, const trim__intra *w, const struct trim_arch *a)
{
	for (int l = 0; l < a->nlevels; l++) {
		for (int d = 0; d < TRIM_NDIMS; d++) {
			int64_t fx = r->fix[l][d] > w->bound[d] ? w->bound[d] : r->fix[l][d];
			if ((fx && m->f[l][d] != fx) || (r->max[l][d] && m->f[l][d] > r->max[l][d]))
				return 0;
		}
		for (int t = 0; t < 3; t++)
			if (r->keep[l][t] >= 0 && l > 0 && a->lv[l].keep[t] && w->t[t].present && m->keep[l][t] != r->keep[l][t])
				return 0;
		if (r->nperm[l]) {
			int loops[TRIM_NDIMS], n = 0;
			for (int i = 0; i < TRIM_NDIMS; i++)
				if (m->f[l][m->order[l][i]] > 1)
					loops[n++] = m->order[l][i];
			int j = n - 1;
			for (int k = 0; k < r->nperm[l]; k++)
				if (m->f[l][r->perm[l][k]] > 1 && loops[j--] != r->perm[l][k])
					return 0;
		}
	}
	return 1;
}

static int ref_axes(const ref_t *r, const trim__mapping *m, const struct trim_arch *a)
{
	for (int l = 0; l < a->nlevels; l++)
		for (int d = 0; d < TRIM_NDIMS; d++)
			if ((r->axis[l][d] == 1 && m->fy[l][d] != 1) || (r->axis[l][d] == 2 && m->fx[l][d] != 1))
				return 0;
	return 1;
}

typedef struct {
	trim__index idx; /* class index (UINT64_MAX: outside the constrained space) */
	int valid, ragged;
	double cost, sec; /* the goal's cost and the tie-break's second figure */
} cls;

static int cls_idx_cmp(const void *x, const void *y)
{
	const cls *a = x, *b = y;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int cls_cost_cmp(const void *x, const void *y)
{
	const cls *a = x, *b = y;
	if (a->cost != b->cost)
		return a->cost < b->cost ? -1 : 1;
	if (a->sec != b->sec)
		return a->sec < b->sec ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static trim_constraints *load(const char *yaml)
{
	trim_constraints *c = NULL;
	int rc = trim_constraints_load_string(&c, yaml, "c.yaml");
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	return c;
}

static const char *const slot_names_t[3] = {"input", "weight", "output"};
static int g_random, g_enofit; /* random constraints: ENOFIT is an answer, and may cut nothing */
/* the next brute force with imperfect factorisations; what it saw of them:
 * valid ragged classes, and whether the best was one */
static int g_imperfect;
static uint64_t g_reuse_checked, g_reuse_equal; /* the stationarity bound's reuse, checked and tight */
/* its sliding-window floor: checked against a mapping's fills, above 0, tight */
static uint64_t g_wfill_checked, g_wfill_raised, g_wfill_equal;
/* ... and where the floor of a mapping's own first loop above the level is
 * above the floor for any first loop */
static uint64_t g_wfill_own_above;
/* node bounds checked with the stationarity bound's variant of a mapping's
 * own first loop alone */
static uint64_t g_own_loop_checked, g_least_checked;
static uint64_t g_ragged_valid;
static int g_ragged_best;

/* The dim of mapping m's first loop of bound > 1 above level h (the
 * innermost loop of the storage levels above it), as a mask; 0: none. */
static unsigned first_loop_above(const struct trim_arch *a, const trim__mapping *m, int h)
{
	for (int l = h - 1; l >= 0; l--) {
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		for (int k = TRIM_NDIMS - 1; k >= 0; k--)
			if (m->f[l][m->order[l][k]] > 1)
				return 1u << m->order[l][k];
	}
	return 0;
}

/* Brute force over every raw index against the constrained search. */
/* A ragged mapping's order-free lower counts (the factorisation bounds
 * of the search, lib/activity/ragged_lower.c) are at most its exact counts
 * x, here for every order and keep choice of the brute spaces; counted in
 * g_ragged_raised where a child's fills exceed the touched elements (the
 * per-instance bound above the bound it replaced). */
static uint64_t g_ragged_raised;
static void ragged_lower_check(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                               const trim__activity *x, uint64_t i)
{
	static _Thread_local trim__act_ws aws;
	for (int t = 0; t < 3; t++) {
		trim__activity lo;
		if (!w->t[t].present)
			continue;
		REQUIRE(trim__activity_lower(w, a, m, 1u << t, &aws, &lo) == 0, "%s", trim_last_error());
		int up = 0;
		for (int l = 0; l < a->nlevels; l++) {
			REQUIRE(lo.fills[l][t] <= x->fills[l][t] && lo.down_words[l][t] <= x->down_words[l][t] &&
			            lo.down_dests[l][t] <= x->down_dests[l][t] && lo.up_words[l][t] <= x->up_words[l][t] &&
			            lo.updates[l][t] <= x->updates[l][t] &&
			            lo.reads[l][t] + lo.drains[l][t] <= x->reads[l][t] + x->drains[l][t],
			        "index %llu tensor %d level %d: ragged lower counts above the exact ones (fills %lld/%lld)",
			        (unsigned long long)i, t, l, (long long)lo.fills[l][t], (long long)x->fills[l][t]);
			up |= a->lv[l].type != TRIM__LVL_COMPUTE && l > 0 && lo.fills[l][t] > lo.tile[0][t];
		}
		g_ragged_raised += up;
	}
}

static void brute(void (*mk)(struct trim_arch *, trim__intra *), int goal, const char *yaml, const ref_t *ref)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	trim__eval_ws ws = {0};
	trim__act_ws aws = {0}; /* ragged_lower_check's */
	mk(&a, &w);
	tu_costs(&a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	if (g_imperfect)
		ck_assert_int_eq(trim__mapspace_set_imperfect(&s, 1), 0);
	uint64_t unconstrained = 0;
	ck_assert_int_eq(trim__mapspace_distinct(&s, &unconstrained), 0);
	trim_constraints *cons = load(yaml);
	int rc = trim__constraints_apply(cons, &s);
	if (g_random && rc == TRIM_ENOFIT) {
		/* no factorisation obeys: no raw mapping does */
		for (uint64_t i = 0; i < s.size; i++) {
			trim__mapping m;
			REQUIRE(trim__mapspace_decode(&s, i, &m) == 0, "decode");
			REQUIRE(!ref_obeys(ref, &m, &w, &a), "ENOFIT, but index %llu obeys %s", (unsigned long long)i, yaml);
		}
		g_enofit++;
		trim_constraints_free(cons);
		trim__mapspace_free(&s);
		return;
	}
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	int64_t zero_macs = 0;
	ck_assert_int_eq(trim__activity_zero_macs(&w, &zero_macs), 0);
	cls *seen = malloc(s.size * sizeof *seen);
	ck_assert_ptr_nonnull(seen);
	uint64_t inside = 0;
	for (uint64_t i = 0; i < s.size; i++) {
		trim__mapping m, k;
		trim__eval e, ek;
		REQUIRE(trim__mapspace_decode(&s, i, &m) == 0, "decode");
		seen[i].valid = 0;
		seen[i].idx = UINT64_MAX;
		if (!ref_obeys(ref, &m, &w, &a))
			continue;
		inside++;
		k = m;
		trim__mapspace_canonical(&s, &k);
		REQUIRE(ref_obeys(ref, &k, &w, &a), "index %llu: the representative breaks the constraints",
		        (unsigned long long)i);
		REQUIRE(trim__mapspace_encode(&s, &k, &seen[i].idx) == 0, "encode");
		seen[i].valid = trim__mapping_check(&m, &w, &a) == 0 && ref_axes(ref, &m, &a);
		if (!seen[i].valid)
			continue;
		seen[i].ragged = trim__mapping_ragged(&m, &w);
		REQUIRE(trim__eval_run(&w, &a, c, &m, &ws, &e) == 0, "%s", trim_last_error());
		if (seen[i].ragged)
			ragged_lower_check(&w, &a, &m, &e.act, i);
		REQUIRE(trim__eval_run(&w, &a, c, &k, &ws, &ek) == 0, "%s", trim_last_error());
		REQUIRE(!memcmp(&e.act, &ek.act, sizeof e.act), "index %llu: equivalent orders differ",
		        (unsigned long long)i);
		seen[i].cost = goal == TRIM__GOAL_ENERGY ? e.energy_pj : goal == TRIM__GOAL_DELAY ? e.cycles
		               : e.energy_pj * e.cycles;
		seen[i].sec = goal == TRIM__GOAL_ENERGY ? e.cycles : e.energy_pj;
		/* the bound of every node on the way to it (which reads the
		 * constraints: the stationarity bound) is at most its cost */
		for (int depth = 1; depth < s.nslots; depth++) {
			trim__mapping p;
			trim__eval ep;
			double lb = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p);
			REQUIRE(lb <= seen[i].cost, "index %llu depth %d: node bound %.17g above the cost %.17g",
			        (unsigned long long)i, depth, lb, seen[i].cost);
			/* and its joint-order bound (which reads the permutation
			 * constraints) */
			trim__node_bound_joint(&s, c, goal, depth, zero_macs, &p, &ep, &lb);
			REQUIRE(lb <= seen[i].cost, "index %llu depth %d: joint bound %.17g above the cost %.17g",
			        (unsigned long long)i, depth, lb, seen[i].cost);
			/* and the stationarity bound's variant of this mapping's own
			 * first loop above the level it picks, alone (its floors
			 * computed for that loop only); on every seventh mapping, the
			 * node bound is the least of those variants' bounds, bit for
			 * bit (so a variant that charges a floor of another loop, or
			 * one the loop does not reload, fails one check or the
			 * other) */
			{
				int hs;
				trim__stationary_reuse(&s, c, depth, &p, 0, 0, &hs);
				const unsigned own = hs > 0 ? first_loop_above(&a, &m, hs) : 0;
				if (own) {
					trim__stationary_first_dims = 0;
					const double full = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p);
					const unsigned dims = trim__stationary_first_dims;
					double least = HUGE_VAL;
					for (int d = 0; d < TRIM_NDIMS; d++) {
						if (!((own | (i % 7 ? 0 : dims)) >> d & 1))
							continue;
						s.test_first_only = 1u << d;
						lb = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p);
						s.test_first_only = 0;
						if (own >> d & 1)
							REQUIRE(lb <= seen[i].cost,
							        "index %llu depth %d: node bound %.17g for its own first loop above the cost "
							        "%.17g",
							        (unsigned long long)i, depth, lb, seen[i].cost);
						if ((dims >> d & 1) && lb < least)
							least = lb;
					}
					g_own_loop_checked++;
					if (i % 7 == 0 && dims) {
						REQUIRE(!memcmp(&full, &least, sizeof full),
						        "index %llu depth %d: node bound %.17g, the least of its first loops' %.17g",
						        (unsigned long long)i, depth, full, least);
						g_least_checked++;
					}
				}
			}
			/* its fast path: the most reuse it allows a tensor at its
			 * level against this mapping's */
			for (int t = 0; t < 3; t++) {
				int h;
				unsigned keep = 0;
				int64_t rho = trim__stationary_reuse(&s, c, depth, &p, t, 0, &h);
				if (rho < 0 || !m.keep[h][t])
					continue;
				for (int u = 0; u < 3; u++)
					if (u != t && w.t[u].present && m.keep[h][u])
						keep |= 1u << u;
				rho = trim__stationary_reuse(&s, c, depth, &p, t, keep, &h);
				int64_t own = 1;
				for (int d = 0; d < TRIM_NDIMS; d++)
					if (!(w.t[t].relevant >> d & 1))
						for (int l = h; l < a.nlevels; l++)
							own *= m.f[l][d];
				REQUIRE(rho >= own, "index %llu depth %d tensor %d: most reuse %lld below the mapping's %lld",
				        (unsigned long long)i, depth, t, (long long)rho, (long long)own);
				g_reuse_checked++;
				g_reuse_equal += rho == own;
			}
			/* the sliding-window floor: at most the fills of the level it
			 * picks in this mapping, t kept there beside the same tensors,
			 * both the floor for any first loop above that level and the
			 * floor for this mapping's own first loop (the bound takes
			 * the latter in the variant of that loop) */
			for (int t = 0; t < 3; t++) {
				int h;
				if (trim__stationary_window_fills(&s, c, depth, &p, t, 0, 0, &h) < 0 || !m.keep[h][t])
					continue;
				unsigned keep = 0;
				for (int u = 0; u < 3; u++)
					if (u != t && w.t[u].present && m.keep[h][u])
						keep |= 1u << u;
				const unsigned first = first_loop_above(&a, &m, h);
				for (int own = 0; own < (first ? 2 : 1); own++) {
					const int64_t fl =
					    trim__stationary_window_fills(&s, c, depth, &p, t, keep, own ? first : 0, &h);
					REQUIRE(fl <= e.act.fills[h][t],
					        "index %llu depth %d tensor %d: window floor %lld (first loop %s) above the "
					        "fills %lld",
					        (unsigned long long)i, depth, t, (long long)fl, own ? "its own" : "any",
					        (long long)e.act.fills[h][t]);
					g_wfill_checked++;
					g_wfill_raised += fl > 0;
					g_wfill_equal += fl > 0 && fl == e.act.fills[h][t];
					if (own)
						g_wfill_own_above += fl > trim__stationary_window_fills(&s, c, depth, &p, t, keep, 0, &h);
				}
			}
		}
	}
	ck_assert_uint_gt(inside, 0);
	ck_assert_msg(g_random || inside < s.size, "%s: nothing cut", yaml); /* the constraints cut something */
	if (getenv("TRIM_TEST_VERBOSE"))
		fprintf(stderr, "%llu raw, %llu obey: %s", (unsigned long long)s.size, (unsigned long long)inside, yaml);
	qsort(seen, s.size, sizeof *seen, cls_idx_cmp);
	uint64_t classes = 0, valid = 0;
	size_t nu = 0;
	cls *u = malloc(s.size * sizeof *u);
	ck_assert_ptr_nonnull(u);
	for (uint64_t i = 0; i < s.size; i++)
		if (seen[i].idx != UINT64_MAX && (!i || seen[i].idx != seen[i - 1].idx)) {
			classes++;
			valid += seen[i].valid;
			if (seen[i].valid)
				u[nu++] = seen[i];
		}
	qsort(u, nu, sizeof *u, cls_cost_cmp);
	uint64_t dn = 0;
	ck_assert_int_eq(trim__mapspace_distinct(&s, &dn), 0);
	ck_assert_uint_eq(dn, classes); /* the constrained distinct count, without enumeration */
	ck_assert(g_random ? dn <= unconstrained : dn < unconstrained);
	trim__search_result r1, r2, r0;
	s.topk = 5;
	ck_assert_int_eq(trim__search(&s, c, goal, 1, &r1), 0);
	ck_assert_int_eq(trim__search(&s, c, goal, 2, &r2), 0);
	s.nobound = 1;
	ck_assert_int_eq(trim__search(&s, c, goal, 2, &r0), 0);
	ck_assert_uint_eq(r1.generated, classes);
	ck_assert_uint_eq(r0.generated, classes);
	ck_assert_uint_eq(r0.valid, valid);
	ck_assert_uint_eq(r0.evaluated + r0.unsupported, valid);
	ck_assert_uint_ge(r1.valid + r1.bounded, valid);
	size_t want = nu < 5 ? nu : 5;
	ck_assert_uint_eq(r1.ntop, want);
	for (size_t j = 0; j < want; j++) {
		ck_assert_msg(r1.top_cost[j] == u[j].cost && r1.top_second[j] == u[j].sec && r1.top_index[j] == u[j].idx,
		              "top %zu: search (%.17g, %.17g, %llu), brute force (%.17g, %.17g, %llu)", j, r1.top_cost[j],
		              r1.top_second[j], (unsigned long long)r1.top_index[j], u[j].cost, u[j].sec,
		              (unsigned long long)u[j].idx);
		ck_assert(r2.top_cost[j] == r1.top_cost[j] && r2.top_index[j] == r1.top_index[j]);
		ck_assert(r0.top_cost[j] == r1.top_cost[j] && r0.top_index[j] == r1.top_index[j]);
		ck_assert(ref_obeys(ref, &r1.top[j], &w, &a) && ref_axes(ref, &r1.top[j], &a));
	}
	if (nu) {
		ck_assert(r1.found);
		ck_assert(r1.best_cost == u[0].cost && r1.best_index == u[0].idx);
		ck_assert_uint_eq(r1.bounded, r2.bounded);
		ck_assert_uint_eq(r1.evaluated, r2.evaluated);
	}
	if (g_imperfect) {
		/* the best alone (k = 1, exact ties cut) at 1, 2 and 3 threads:
		 * brute force's (cost, second figure, index), the same work */
		trim__search_result e[3];
		s.nobound = 0;
		s.topk = 1;
		for (int t = 0; t < 3; t++) {
			ck_assert_int_eq(trim__search(&s, c, goal, t + 1, &e[t]), 0);
			ck_assert_msg(nu && e[t].found && e[t].best_cost == u[0].cost && e[t].best_index == u[0].idx,
			              "k = 1, %d threads: cost %.17g index %llu, brute force %.17g %llu", t + 1,
			              e[t].best_cost, (unsigned long long)e[t].best_index, nu ? u[0].cost : 0.0,
			              (unsigned long long)(nu ? u[0].idx : 0));
			ck_assert(e[t].exact && e[t].evaluated == e[0].evaluated && e[t].bounded == e[0].bounded);
			ck_assert(!memcmp(&e[t].best, &e[0].best, sizeof e[0].best));
		}
		ck_assert_int_eq(trim__mapping_check(&e[0].best, &w, &a), 0);
		for (int t = 0; t < 3; t++)
			trim__search_result_free(&e[t]);
		for (size_t j = 0; j < nu; j++)
			g_ragged_valid += u[j].ragged;
		g_ragged_best |= nu && u[0].ragged;
	}
	trim__search_result_free(&r0);
	trim__search_result_free(&r1);
	trim__search_result_free(&r2);
	trim_constraints_free(cons);
	free(u);
	free(seen);
	trim__eval_ws_free(&ws);
	trim__act_ws_free(&aws);
	trim__mapspace_free(&s);
}

/* factors: a fixed bound (Timeloop's K = libtrim's M), `only` on the
 * spatial level below a storage target (Timeloop's convention) */
START_TEST(test_brute_factors)
{
	ref_t r;
	ref_init(&r);
	r.fix[1][TRIM_DIM_M] = 2;
	ref_only(&r, 2, "C");
	brute(case_fc, TRIM__GOAL_ENERGY,
	      "targets:\n"
	      "  - {target: GLB, type: temporal, factors: K=2}\n"
	      "  - {target: GLB, type: spatial, only: [C]}\n",
	      &r);
	/* Timeloop's form: 0 is the whole bound, X=1 leaves the rest free */
	ref_init(&r);
	r.fix[2][TRIM_DIM_R] = 2;
	r.fix[2][TRIM_DIM_C] = 1;
	brute(case_conv, TRIM__GOAL_EDP,
	      "mapspace_constraints:\n"
	      "  targets:\n"
	      "    - target: RF\n"
	      "      type: temporal\n"
	      "      factors: R=0 C=1\n",
	      &r);
}
END_TEST

/* caps (D<=n) and bypass: keep and bypass forced */
START_TEST(test_brute_max_bypass)
{
	ref_t r;
	ref_init(&r);
	r.max[0][TRIM_DIM_M] = 2;
	r.keep[3][1] = 1;
	r.keep[1][0] = 0;
	brute(case_fc, TRIM__GOAL_EDP,
	      "schema_version: 1\n"
	      "targets:\n"
	      "  - target: DRAM\n"
	      "    type: temporal\n"
	      "    factors: {M: <=2}\n"
	      "  - target: RF\n"
	      "    type: bypass\n"
	      "    keep: [Weights]\n"
	      "  - target: GLB\n"
	      "    type: datatype\n"
	      "    bypass: [ifmap]\n",
	      &r);
}
END_TEST

/* a cap above 1 where the stationarity bound reads it: the weights of a
 * batch-4 FC are reused at the RF over N, capped at 2 there (so they are
 * refilled at least MACs / 2 times whatever the capacity allows) */
static void case_fc_batch(struct trim_arch *a, trim__intra *w)
{
	ck_assert_int_eq(tu_case_fc(a, w), 0);
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 4, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0), 0);
}

START_TEST(test_brute_cap_reuse)
{
	ref_t r;
	ref_init(&r);
	r.max[3][TRIM_DIM_N] = 2;
	brute(case_fc_batch, TRIM__GOAL_ENERGY, "targets: [{target: RF, type: temporal, factors: N<=2}]\n", &r);
	ref_init(&r);
	r.max[3][TRIM_DIM_N] = 2;
	r.max[3][TRIM_DIM_C] = 1;
	brute(case_fc_batch, TRIM__GOAL_EDP, "targets: [{target: RF, type: temporal, factors: N<=2 C<=1}]\n", &r);
	/* the reuse was checked, and is often exactly a mapping's */
	fprintf(stderr, "stationarity reuse: %llu checked, %llu tight\n", (unsigned long long)g_reuse_checked,
	        (unsigned long long)g_reuse_equal);
	ck_assert_uint_gt(g_reuse_checked, 1000);
	ck_assert_uint_gt(g_reuse_equal * 10, g_reuse_checked);
}
END_TEST

/* the input-stationary case of the stationarity bound (the inputs' window
 * axes one word wide at the RF), with a 2x2 array that spreads E and R,
 * two terms of one input axis: a word of the inputs then reaches two PEs
 * at once (e + r = 1 for (0, 1) and (1, 0)), so the DRAM reads of the
 * inputs are not the RF fills over the PEs that differ in M alone */
static void case_window_spread(struct trim_arch *a, trim__intra *w)
{
	tu_arch_rf(a, "spread", 2, 2, 12);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 4, 1, 3, 2, 2, 1, 1, 1, 0), 0);
}

/* the same array under a 1x4 filter row over 3 x 4 inputs, one output
 * channel: the inputs' words dominate, and the array's network words are
 * bounded by the RF fills over the PEs one multicast word may serve, which
 * a spread of both E and R makes two, not one */
static void case_window_spread_row(struct trim_arch *a, trim__intra *w)
{
	tu_arch_rf(a, "spread-row", 2, 2, 12);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 3, 4, 2, 4, 1, 1, 0), 0);
}

START_TEST(test_brute_window_spread)
{
	ref_t r;
	ref_init(&r);
	ref_only(&r, 2, "M");
	r.max[2][TRIM_DIM_M] = 1;
	r.fix[1][TRIM_DIM_E] = 2;
	r.fix[1][TRIM_DIM_R] = 2;
	for (int goal = 0; goal < 3; goal++)
		brute(case_window_spread, goal,
		      "targets:\n"
		      "  - {target: RF, type: temporal, factors: M<=1, only: [M]}\n"
		      "  - {target: NoC, type: spatial, factors: E=2 R=2}\n",
		      &r);
	ref_init(&r);
	r.fix[1][TRIM_DIM_E] = 2;
	r.fix[1][TRIM_DIM_R] = 2;
	for (int goal = 0; goal < 3; goal++)
		brute(case_window_spread_row, goal, "targets:\n  - {target: NoC, type: spatial, factors: E=2 R=2}\n", &r);
}
END_TEST

/* permutations: the listed loops innermost, in order, the rest free */
START_TEST(test_brute_permutation)
{
	ref_t r;
	ref_init(&r);
	ref_perm(&r, 2, "SR");
	ref_perm(&r, 0, "EC");
	brute(case_conv, TRIM__GOAL_ENERGY,
	      "targets:\n"
	      "  - {target: RF, type: temporal, permutation: S R}\n"
	      "  - {target: DRAM, type: temporal, permutation: [E, C]}\n",
	      &r);
	ref_init(&r);
	ref_perm(&r, 1, "C");
	brute(case_fc, TRIM__GOAL_DELAY, "targets: [{target: GLB, type: temporal, permutation: C}]\n", &r);
}
END_TEST

/* a spatial split: M along X, C along Y of the 2x2 NoC (M = 4 across the
 * NoC then no longer fits) */
START_TEST(test_brute_split)
{
	ref_t r;
	ref_init(&r);
	r.axis[2][TRIM_DIM_M] = 1;
	r.axis[2][TRIM_DIM_C] = 2;
	r.fix[3][TRIM_DIM_C] = 1;
	brute(case_fc, TRIM__GOAL_DELAY,
	      "targets: [{target: GLB, type: spatial, permutation: KC, split: 1},\n"
	      "          {target: RF, type: temporal, factors: C=1}]\n",
	      &r);
}
END_TEST

/* the presets on small spaces, as defined in docs/mapping.md */
static void ref_preset(ref_t *r, const struct trim_arch *a, const char *inner, const char *spatial,
                       const char *perm)
{
	ref_init(r);
	int in = -1;
	for (int l = 0; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE)
			in = l;
	ref_only(r, in, inner);
	ref_perm(r, in, perm);
	for (int l = 0; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			ref_only(r, l, spatial);
}

static const struct {
	const char *name, *inner, *spatial, *perm;
} defs[] = {
	{"weight-stationary", "NEF", "GMCRS", ""},
	{"output-stationary", "CRS", "NGMEF", ""},
	{"input-stationary", "M", "NGCEFRS", ""},
	{"row-stationary", "SFCM", "GMCER", "SF"},
};

START_TEST(test_brute_presets)
{
	void (*cases[])(struct trim_arch *, trim__intra *) = {case_conv, case_fc, case_wg};
	for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
		for (size_t k = 0; k < 3; k++) {
			if (i == 3 && k == 1)
				continue; /* row-stationary allows M and C everywhere: nothing to cut in an FC */
			struct trim_arch a;
			trim__intra w;
			cases[k](&a, &w);
			ref_t r;
			ref_preset(&r, &a, defs[i].inner, defs[i].spatial, defs[i].perm);
			char yaml[128];
			snprintf(yaml, sizeof yaml, "preset: %s\n", defs[i].name);
			brute(cases[k], (int)((i + k) % 3), yaml, &r);
		}
	/* the sliding-window floor was checked, raised above nothing often, and
	 * is sometimes a mapping's own fills */
	fprintf(stderr, "window floor: %llu checked, %llu above 0, %llu tight, %llu above the any-loop floor for the own first loop\n",
	        (unsigned long long)g_wfill_checked, (unsigned long long)g_wfill_raised,
	        (unsigned long long)g_wfill_equal, (unsigned long long)g_wfill_own_above);
	ck_assert_uint_gt(g_wfill_checked, 1000);
	ck_assert_uint_gt(g_wfill_raised * 10, g_wfill_checked);
	ck_assert_uint_gt(g_wfill_equal, 0);
	ck_assert_uint_gt(g_wfill_own_above, 0);
	ck_assert_uint_gt(g_own_loop_checked, 1000);
	ck_assert_uint_gt(g_least_checked, 100);
}
END_TEST

/* random combinations of every kind of constraint, written as YAML and as
 * the reference independently */
START_TEST(test_brute_random)
{
	uint64_t st = 0xc0457a1e75ull;
	g_random = 1;
	g_enofit = 0;
	for (int it = 0; it < 10; it++) {
		void (*mk)(struct trim_arch *, trim__intra *) = it % 2 ? case_fc : case_conv;
		struct trim_arch a;
		trim__intra w;
		mk(&a, &w);
		ref_t r;
		ref_init(&r);
		char yaml[2048];
		size_t o = (size_t)snprintf(yaml, sizeof yaml, "targets:\n");
		for (int l = 0; l < a.nlevels; l++) {
			int ty = a.lv[l].type;
			if (ty == TRIM__LVL_COMPUTE)
				continue;
			char fac[128] = "", onl[32] = "", perm[16] = "";
			size_t fo = 0;
			int split = -1;
			unsigned only = 0, fixed = 0;
			int has_only = tu_range(&st, 0, 3) == 0;
			for (int d = 0; d < TRIM_NDIMS; d++) {
				if (w.bound[d] < 2)
					continue;
				int64_t k = tu_range(&st, 0, 9);
				if (k == 0) { /* the whole bound */
					fo += (size_t)snprintf(fac + fo, sizeof fac - fo, "%c=0 ", "NGMCEFRS"[d]);
					r.fix[l][d] = w.bound[d];
					fixed |= 1u << d;
				} else if (k == 1) { /* 2, or 1 */
					int64_t v = tu_range(&st, 1, 2);
					fo += (size_t)snprintf(fac + fo, sizeof fac - fo, "%c=%lld ", "NGMCEFRS"[d], (long long)v);
					r.fix[l][d] = v;
					fixed |= 1u << d;
				} else if (k == 2) {
					fo += (size_t)snprintf(fac + fo, sizeof fac - fo, "%c<=1 ", "NGMCEFRS"[d]);
					r.max[l][d] = 1;
				} else if (k == 3) { /* a cap above 1: the stationarity bound reads it */
					fo += (size_t)snprintf(fac + fo, sizeof fac - fo, "%c<=2 ", "NGMCEFRS"[d]);
					r.max[l][d] = 2;
				}
				if (has_only && (tu_range(&st, 0, 1) || (fixed >> d & 1)))
					only |= 1u << d;
			}
			if (has_only) {
				size_t k = 0;
				for (int d = 0; d < TRIM_NDIMS; d++) {
					if (only >> d & 1)
						onl[k++] = "NGMCEFRS"[d];
					else if (!r.fix[l][d])
						r.fix[l][d] = 1;
				}
				onl[k] = 0;
			}
			if (tu_range(&st, 0, 2) == 0) { /* a permutation of 1 or 2 dims > 1 */
				int dl[TRIM_NDIMS], n = 0;
				for (int d = 0; d < TRIM_NDIMS; d++)
					if (w.bound[d] > 1)
						dl[n++] = d;
				int k = (int)tu_range(&st, 1, 2), a0 = (int)tu_range(&st, 0, n - 1), a1 = (int)tu_range(&st, 0, n - 2);
				if (a1 >= a0)
					a1++;
				perm[0] = "NGMCEFRS"[dl[a0]];
				perm[1] = k == 2 ? "NGMCEFRS"[dl[a1]] : 0;
				perm[2] = 0;
				if (ty == TRIM__LVL_STORAGE) {
					ref_perm(&r, l, perm);
				} else {
					split = (int)tu_range(&st, 0, 1);
					for (int j = 0; j < k; j++)
						r.axis[l][dl[j ? a1 : a0]] = j < split ? 1 : 2;
				}
			}
			if (fac[0] || has_only || perm[0]) {
				o += (size_t)snprintf(yaml + o, sizeof yaml - o, "  - {target: %s, type: %s", a.lv[l].name,
				                      ty == TRIM__LVL_STORAGE ? "temporal" : "spatial");
				if (fac[0])
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, ", factors: %s", fac);
				if (has_only)
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, ", only: \"%s\"", onl);
				if (perm[0])
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, ", permutation: %s", perm);
				if (split >= 0)
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, ", split: %d", split);
				o += (size_t)snprintf(yaml + o, sizeof yaml - o, "}\n");
			}
			if (ty == TRIM__LVL_STORAGE && l > 0)
				for (int t = 0; t < 3; t++) {
					int64_t k = tu_range(&st, 0, 5);
					if (k > 1)
						continue;
					o += (size_t)snprintf(yaml + o, sizeof yaml - o, "  - {target: %s, type: bypass, %s: [%s]}\n",
					                      a.lv[l].name, k ? "keep" : "bypass", slot_names_t[t]);
					r.keep[l][t] = (int)k;
				}
		}
		if (o == 10) /* nothing drawn */
			o += (size_t)snprintf(yaml + o, sizeof yaml - o, "  - {target: DRAM, type: temporal, permutation: C}\n"),
			ref_perm(&r, 0, "C");
		brute(mk, it % 3, yaml, &r);
	}
	fprintf(stderr, "random constraints: 10 cases, %d with no factorisation\n", g_enofit);
	ck_assert_int_lt(g_enofit, 5);
	g_random = 0;
}
END_TEST

/* ---- reading and checking errors: file:line:col and the key path --------- */

static void bad(const char *yaml, const char *want1, const char *want2)
{
	trim_constraints *c = NULL;
	int rc = trim_constraints_load_string(&c, yaml, "c.yaml");
	ck_assert_msg(rc < 0, "accepted: %s", yaml);
	ck_assert_ptr_null(c);
	const char *msg = trim_last_error();
	ck_assert_msg(strstr(msg, want1) && strstr(msg, want2), "'%s' lacks '%s' / '%s'", msg, want1, want2);
}

/* Imperfect factorisations in the search: every raw mapping (ragged rows
 * included) evaluated against the search, top 5 and k = 1 at 1-3 threads,
 * with and without constraints; a factor constraint that does not divide
 * is met by the imperfect rows only. */
static void case_ragged_fc(struct trim_arch *a, trim__intra *w)
{
	/* C = 5 and M = 4 over a 3 x 1 array: 3 PEs only with a ragged pass */
	tu_arch_init(a, "ragged");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 1;
	trim__level *g = tu_storage(a, "GLB", 40, 16);
	g->read_bw = g->write_bw = 2;
	tu_spatial(a, "NoC", 3, 1, 1, 1);
	tu_storage(a, "RF", 8, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 5, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
}

static void case_ragged_conv(struct trim_arch *a, trim__intra *w)
{
	/* E = 5 output rows of a 3-tap filter over 3 PEs (a sliding window) */
	tu_arch_rf(a, "ragged-conv", 3, 1, 12);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 2, 1, 7, 1, 3, 1, 1, 1, 0), 0);
}

START_TEST(test_brute_imperfect)
{
	ref_t r;
	g_imperfect = 1;
	g_ragged_valid = 0;
	g_ragged_best = 0;
	g_ragged_raised = 0;
	ref_init(&r);
	ref_only(&r, 2, "C");
	brute(case_ragged_fc, TRIM__GOAL_DELAY, "targets:\n  - {target: NoC, type: spatial, only: [C]}\n", &r);
	ck_assert_uint_gt(g_ragged_valid, 0);
	ref_init(&r);
	ref_only(&r, 1, "E");
	brute(case_ragged_conv, TRIM__GOAL_EDP, "targets:\n  - {target: NoC, type: spatial, only: [E]}\n", &r);
	/* a factor that does not divide: E = 3 on the 3 PEs for E = 5 */
	ref_init(&r);
	r.fix[1][TRIM_DIM_E] = 3;
	brute(case_ragged_conv, TRIM__GOAL_DELAY, "targets:\n  - {target: NoC, type: spatial, factors: E=3}\n", &r);
	ck_assert(g_ragged_best); /* a ragged mapping was the optimum somewhere */
	{
		/* the perfect subspace's best as a seed (perfect_first.c): the
		 * perfect search's own best (same cost, same mapping, its index
		 * in the imperfect space); without imperfect rows, no seed */
		struct trim_arch pa;
		trim__intra pw;
		trim__mapspace ps;
		trim__level_cost pc[TRIM__MAX_LEVELS];
		trim__search_result pr;
		trim__eval pe;
		top_list seeds;
		case_ragged_conv(&pa, &pw);
		tu_costs(&pa, pc);
		ck_assert_int_eq(trim__mapspace_init(&ps, &pw, &pa), 0);
		ck_assert_int_eq(trim__search(&ps, pc, TRIM__GOAL_ENERGY, 1, &pr), 0);
		ck_assert(pr.found && pr.exact);
		ck_assert_int_eq(trim__top_init(&seeds, 1, 1), 0);
		ck_assert(trim__perfect_first(&ps, pc, TRIM__GOAL_ENERGY, 1, 0, &seeds, &pe) == HUGE_VAL && seeds.n == 0);
		ck_assert_int_eq(trim__mapspace_set_imperfect(&ps, 1), 0);
		const double b = trim__perfect_first(&ps, pc, TRIM__GOAL_ENERGY, 2, 0, &seeds, &pe);
		trim__index idx;
		ck_assert_int_eq(trim__mapspace_encode(&ps, &pr.best, &idx), 0);
		ck_assert_msg(seeds.n == 1 && b == pr.best_cost && seeds.idx[0] == idx && pe.energy_pj == pr.best_cost &&
		                  !trim__mapping_ragged(&seeds.map[0], &pw),
		              "perfect-first seed %.17g, the perfect search's best %.17g", b, pr.best_cost);
		trim__top_free(&seeds);
		trim__search_result_free(&pr);
		trim__mapspace_free(&ps);
	}
	/* the per-instance ragged bound is above the touched elements there:
	 * the factorisation bounds of those spaces were raised, and the search
	 * (with them) still gives brute force's best at 1, 2 and 3 threads */
	ck_assert_uint_gt(g_ragged_raised, 0);
	fprintf(stderr, "imperfect brute force: %llu (ragged mapping, tensor) pairs with a raised lower bound\n",
	        (unsigned long long)g_ragged_raised);
	g_imperfect = 0;
	/* without the option that constraint leaves nothing, and says why */
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	case_ragged_conv(&a, &w);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	trim_constraints *cons = load("targets:\n  - {target: NoC, type: spatial, factors: E=3}\n");
	ck_assert_int_eq(trim__constraints_apply(cons, &s), TRIM_ENOFIT);
	ck_assert_msg(strstr(trim_last_error(), "E = 3 at NoC") && strstr(trim_last_error(), "imperfect"), "%s",
	              trim_last_error());
	trim_constraints_free(cons);
	trim__mapspace_free(&s);
	/* E = 3 and M = 2 on 3 PEs (both on the array below DRAM): nothing fits;
	 * with the option on, removing either constraint lets a mapping fit (E =
	 * 3 only with a ragged pass: the relaxed searches have the imperfect
	 * rows too), and the reason names both */
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	ck_assert_int_eq(trim__mapspace_set_imperfect(&s, 1), 0);
	cons = load("targets:\n  - {target: NoC, type: spatial, factors: E=3}\n"
	            "  - {target: DRAM, type: spatial, factors: M=2}\n");
	ck_assert_int_eq(trim__constraints_apply(cons, &s), 0);
	trim__level_cost c[TRIM__MAX_LEVELS];
	tu_costs(&a, c);
	trim__search_result res;
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &res), 0);
	ck_assert(!res.found);
	char *why = NULL;
	ck_assert_int_eq(trim__search_why_empty(&s, c, TRIM__GOAL_ENERGY, 1, cons, NULL, &res, &why), 0);
	ck_assert_msg(why && strstr(why, "removed: c.yaml:2:5: targets[0]; c.yaml:3:5: targets[1]"), "%s", why ? why : "");
	free(why);
	trim__search_result_free(&res);
	trim_constraints_free(cons);
	trim__mapspace_free(&s);
}
END_TEST

START_TEST(test_read_errors)
{
	bad("targets:\n  - target: RF\n    type: temporal\n    fators: R=1\n", "c.yaml:4:5: targets[0].fators",
	    "unknown key 'fators'");
	bad("targets:\n  - target: RF\n    type: spacial\n", "c.yaml:3:11: targets[0].type", "unknown type 'spacial'");
	bad("targets:\n  - target: RF\n    type: utilization\n", "c.yaml:3:11: targets[0].type", "not supported");
	bad("targets:\n  - {target: RF, type: temporal, factors: R=1 X=2}\n", "c.yaml:2:43: targets[0].factors",
	    "unknown dimension 'X'");
	bad("targets:\n  - {target: RF, type: temporal, factors: R=-1}\n", "c.yaml:2:43: targets[0].factors",
	    "bad factor");
	bad("targets:\n  - {target: RF, type: temporal, factors: R=2 R=3}\n", "targets[0].factors", "given twice");
	bad("targets:\n  - {target: RF, type: temporal, factors: {X: 2}}\n", "c.yaml:2:44: targets[0].factors.X",
	    "unknown dimension 'X'");
	bad("targets:\n  - target: RF\n    type: bypass\n    keep: [weigths]\n", "c.yaml:4:12: targets[0].keep[0]",
	    "unknown tensor 'weigths'");
	bad("targets:\n  - {target: RF, type: bypass, keep: [input], bypass: [Inputs]}\n",
	    "c.yaml:2:56: targets[0].bypass[0]", "both kept and bypassed");
	bad("targets:\n  - {target: RF, type: temporal, permutation: SRS}\n", "c.yaml:2:47: targets[0].permutation",
	    "S appears twice");
	bad("targets:\n  - {target: RF, type: temporal, keep: [input]}\n", "c.yaml:2:5: targets[0]", "type bypass");
	bad("targets:\n  - {target: GLB, type: spatial, split: 1}\n", "c.yaml:2:41: targets[0].split", "needs a permutation");
	bad("targets:\n  - {target: RF, type: temporal, split: 1}\n", "c.yaml:2:5: targets[0]", "spatial target only");
	bad("targets:\n  - {target: RF, type: temporal, only: [C], factors: R=3}\n", "c.yaml:2:40: targets[0].only",
	    "R is not in only");
	bad("targets:\n  - {type: temporal}\n", "c.yaml:2:5: targets[0]", "missing required key 'target'");
	bad("preset: row-stationery\n", "c.yaml:1:9: preset", "unknown preset 'row-stationery'");
	bad("mapspace_constraints:\n  targets:\n    - {target: RF, type: temporal, factor: R=1}\n",
	    "c.yaml:3:36: mapspace_constraints.targets[0].factor", "unknown key");
	bad("schema_version: 2\n", "c.yaml:1:17: schema_version", "out of range");
	bad("architecture: {}\n", "c.yaml:1:1: architecture", "unknown key");
	bad("targets: [\n", "c.yaml:", "");
}
END_TEST

#define TINY_ARCH                                                                         \
	"schema_version: 1\nname: t\nclock_mhz: 100\ntechnology: 65nm\nword_bits: 16\nlevels:\n" \
	"  - {name: DRAM, type: storage, class: dram, technology: ddr3}\n"                      \
	"  - {name: GLB, type: storage, class: sram, capacity: 1 KB}\n"                          \
	"  - {name: NoC, type: spatial, fanout: [2, 1], network: bus, multicast: true}\n"       \
	"  - {name: RF, type: storage, class: regfile, capacity: 64, keep: [input, output]}\n"  \
	"  - {name: MAC, type: compute, datatype: int16}\n"

static void bad_check(const char *yaml, const char *want1, const char *want2)
{
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load_string(&a, TINY_ARCH, "a.yaml"), 0);
	trim_constraints *c = load(yaml);
	int rc = trim_constraints_check(c, a);
	ck_assert_msg(rc < 0, "accepted: %s", yaml);
	const char *msg = trim_last_error();
	ck_assert_msg(strstr(msg, want1) && strstr(msg, want2), "'%s' lacks '%s' / '%s'", msg, want1, want2);
	trim_constraints_free(c);
	trim_arch_free(a);
}

START_TEST(test_check_errors)
{
	bad_check("targets:\n  - {target: RFF, type: temporal, only: [C]}\n", "c.yaml:2:14: targets[0].target",
	          "unknown level 'RFF' (t has DRAM, GLB, NoC, RF, MAC)");
	bad_check("targets:\n  - {target: NoC, type: temporal, only: [C]}\n", "c.yaml:2:14: targets[0].target",
	          "NoC is a spatial level: no temporal constraint");
	bad_check("targets:\n  - {target: RF, type: spatial, only: [C]}\n", "c.yaml:2:14: targets[0].target",
	          "no spatial level directly below RF");
	bad_check("targets:\n  - {target: MAC, type: temporal, only: [C]}\n", "targets[0].target", "compute level");
	bad_check("targets:\n  - {target: RF, type: bypass, keep: [weight]}\n", "c.yaml:2:5: targets[0]",
	          "cannot keep weight at RF");
	bad_check("targets:\n  - {target: DRAM, type: bypass, bypass: [output]}\n", "c.yaml:2:5: targets[0]",
	          "outermost level holds every tensor");
	bad_check("targets:\n  - {target: GLB, type: temporal, factors: M=2}\n  - {target: GLB, type: temporal, factors: K=4}\n",
	          "c.yaml:3:5: targets[1]", "M=4 at GLB contradicts M=2 from c.yaml:2:5: targets[0]");
	bad_check("preset: output-stationary\ntargets:\n  - {target: RF, type: temporal, factors: M=2}\n",
	          "c.yaml:3:5: targets[0]", "contradicts M=1 from c.yaml:1:9: preset (preset output-stationary)");
	bad_check("targets:\n  - {target: RF, type: temporal, permutation: SR}\n  - {target: RF, type: temporal, permutation: RS}\n",
	          "c.yaml:3:5: targets[1]", "a second, different permutation for RF");
	bad_check("targets:\n  - {target: GLB, type: spatial, permutation: MC, split: 1}\n"
	          "  - {target: NoC, type: spatial, permutation: CM, split: 1}\n",
	          "c.yaml:3:5: targets[1]", "C along X at NoC contradicts");
	bad_check("targets:\n  - {target: GLB, type: bypass, keep: [weight]}\n  - {target: GLB, type: bypass, bypass: [weight]}\n",
	          "c.yaml:3:5: targets[1]", "bypassing weight at GLB contradicts");
}
END_TEST

/* per workload: a factor that divides no factorisation is TRIM_ENOFIT
 * naming the level and dimension; the search is then unchanged */
START_TEST(test_search_enofit)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_search *s = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "test/data/networks/tiny.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv1", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load_string(&a, TINY_ARCH, "a.yaml"), 0);
	ck_assert_int_eq(trim_search_create(&s, w, i, a, NULL), 0);
	double d0 = trim_search_distinct(s);
	/* C = 3 > 2 is clamped to the bound (as Timeloop): C = 2 at the GLB */
	trim_constraints *c = load("targets:\n  - {target: GLB, type: temporal, factors: C=3}\n");
	ck_assert_int_eq(trim_search_set_constraints(s, c), 0);
	double dc = trim_search_distinct(s);
	ck_assert(dc < d0);
	trim_constraints_free(c);
	/* 3 does not divide fc1's C = 8 */
	{
		trim_search *f = NULL;
		size_t j = 0;
		ck_assert_int_eq(trim_workloads_find(w, "fc1", TRIM_PHASE_FW, &j), 0);
		ck_assert_int_eq(trim_search_create(&f, w, j, a, NULL), 0);
		c = load("targets:\n  - {target: GLB, type: temporal, factors: C=3}\n");
		ck_assert_int_eq(trim_search_set_constraints(f, c), TRIM_ENOFIT);
		ck_assert_msg(strstr(trim_last_error(), "no factorisation of C = 8 obeys C = 3 at GLB (c.yaml:2:5: targets[0])"),
		              "%s", trim_last_error());
		trim_constraints_free(c);
		trim_search_free(f);
	}
	/* M = 2 at GLB and at RF cannot both hold */
	c = load("targets:\n  - {target: GLB, type: temporal, factors: C=3 M=2}\n  - {target: RF, type: temporal, factors: K=2}\n");
	ck_assert_int_eq(trim_search_set_constraints(s, c), TRIM_ENOFIT);
	ck_assert_msg(strstr(trim_last_error(), "no factorisation of M = 2 obeys M = 2 at GLB (c.yaml:2:5: targets[0]), "
	                                        "M = 2 at RF (c.yaml:3:5: targets[1])"),
	              "%s", trim_last_error());
	ck_assert(trim_search_distinct(s) == dc); /* unchanged */
	ck_assert_int_eq(trim_search_set_constraints(s, NULL), 0);
	ck_assert(trim_search_distinct(s) == d0);
	trim_constraints_free(c);
	/* a custom factor and a constraint that contradict */
	ck_assert_int_eq(trim_search_set_factor(s, 3, TRIM_DIM_M, 2), 0);
	c = load("targets:\n  - {target: RF, type: temporal, only: [C]}\n");
	ck_assert_int_eq(trim_search_set_constraints(s, c), TRIM_ENOFIT);
	ck_assert_msg(strstr(trim_last_error(), "contradicts the custom factor M = 2"), "%s", trim_last_error());
	ck_assert_int_eq(trim_search_set_factor(s, 3, TRIM_DIM_M, 0), 0);
	ck_assert_int_eq(trim_search_set_constraints(s, c), 0);
	double d1 = trim_search_distinct(s);
	ck_assert(d1 > 0 && d1 < d0);
	ck_assert_int_eq(trim_search_set_factor(s, 3, TRIM_DIM_M, 2), TRIM_ENOFIT); /* against the constraint */
	ck_assert(trim_search_distinct(s) == d1);
	ck_assert_int_eq(trim_search_set_constraints(s, NULL), 0);
	ck_assert(trim_search_distinct(s) == d0);
	trim_constraints_free(c);
	/* an unknown level names the target's position */
	c = load("\ntargets:\n  - {target: RFF, type: temporal, only: [C]}\n");
	ck_assert_int_eq(trim_search_set_constraints(s, c), TRIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "c.yaml:3:14: targets[0].target: unknown level 'RFF'"));
	trim_constraints_free(c);
	trim_search_free(s);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* the presets on a real layer and architecture: the best and the top
 * mappings obey their definitions */
/* The wraps that may leave a one-word input window in place, worked by
 * hand (mixed radix on the axis e U + r): R of 2 wrapping into E of
 * stride 1 may ((e, 1) -> (e + 1, 0)); R and S of 3 over E and F of 13
 * may not (R moves back 2, E forward 1 or back 12, and a carry into a
 * second loop on R needs a bound with two factors); at stride 2, R of 3
 * over E of 4 may (R back 2, E forward 1: 2 x 1 = 1 x 2). */
static unsigned wrap_returns(int64_t in_h, int64_t in_w, int64_t r, int64_t s, int64_t u)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace sp;
	tu_arch_rf(&a, "wrap", 2, 2, 12);
	ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, in_h, in_w, r, s, u, 1, 0), 0);
	ck_assert_int_eq(trim__mapspace_init(&sp, &w, &a), 0);
	const unsigned ret = sp.wreturn[0];
	trim__mapspace_free(&sp);
	return ret;
}

START_TEST(test_window_wrap_returns)
{
	const unsigned E = 1u << TRIM_DIM_E, F = 1u << TRIM_DIM_F, R = 1u << TRIM_DIM_R, S = 1u << TRIM_DIM_S;
	unsigned ret = wrap_returns(5, 5, 2, 2, 1); /* E = F = 4, R = S = 2 */
	ck_assert_uint_eq(ret & (R | S), R | S);
	ck_assert_uint_eq(ret & (E | F), E | F); /* E of 4: a carry into its second loop, R forward 1 */
	ret = wrap_returns(15, 15, 3, 3, 1); /* E = F = 13, R = S = 3 */
	ck_assert_uint_eq(ret & (E | F | R | S), 0);
	ret = wrap_returns(9, 9, 3, 3, 2); /* E = F = 4, R = S = 3, stride 2 */
	ck_assert_uint_eq(ret & (R | S), R | S);
	/* the dims of no two-term axis count as returning (no claim) */
	ck_assert_uint_eq(ret & (1u << TRIM_DIM_C), 1u << TRIM_DIM_C);
}
END_TEST

START_TEST(test_presets_definition)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "test/data/networks/tiny.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 0, 0), 0);
	ck_assert_uint_ge(trim_workloads_intra_count(w), 4);
	ck_assert_int_eq(trim_arch_load(&a, "test/data/neteval/tiny-arch.yaml"), 0);
	for (size_t p = 0; trim_constraints_preset_name(p); p++) {
		ck_assert_str_eq(trim_constraints_preset_name(p), defs[p].name);
		ck_assert_ptr_nonnull(trim_constraints_preset_description(p));
		for (i = 0; i < trim_workloads_intra_count(w); i++) {
			trim_search *s = NULL;
			trim_constraints *c = NULL;
			ck_assert_int_eq(trim_search_create(&s, w, i, a, NULL), 0);
			ck_assert_int_eq(trim_constraints_create(&c), 0);
			ck_assert_int_eq(trim_constraints_add_preset(c, defs[p].name), 0);
			ck_assert_int_eq(trim_constraints_add_preset(c, defs[p].name), 0); /* twice: once */
			ck_assert_uint_eq(trim_constraints_preset_count(c), 1);
			double d0 = trim_search_distinct(s);
			ck_assert_int_eq(trim_search_set_constraints(s, c), 0);
			ck_assert(trim_search_distinct(s) <= d0); /* < for conv1 FW; an FC under row-stationary: = */
			ck_assert_int_eq(trim_search_set_int(s, TRIM_SEARCH_TOP_K, 8), 0);
			ck_assert_int_eq(trim_search_set_int(s, TRIM_SEARCH_THREADS, 2), 0);
			ck_assert_int_eq(trim_search_run(s), 0);
			ck_assert_uint_gt(trim_search_top_count(s), 0);
			for (size_t k = 0; k < trim_search_top_count(s); k++) {
				trim_mapping *m = NULL;
				ck_assert_int_eq(trim_search_top_mapping(s, k, &m), 0);
				const trim__mapping *x = (const trim__mapping *)m;
				for (int d = 0; d < TRIM_NDIMS; d++) {
					char dc = "NGMCEFRS"[d];
					ck_assert_msg(x->f[3][d] == 1 || strchr(defs[p].inner, dc), "%s: RF loops on %c",
					              defs[p].name, dc);
					ck_assert_msg(x->f[2][d] == 1 || strchr(defs[p].spatial, dc), "%s: NoC spreads %c",
					              defs[p].name, dc);
				}
				if (defs[p].perm[0]) { /* S then F innermost at the RF */
					int loops[TRIM_NDIMS], n = 0;
					for (int o = 0; o < TRIM_NDIMS; o++)
						if (x->f[3][x->order[3][o]] > 1)
							loops[n++] = x->order[3][o];
					int j = n - 1;
					for (const char *q = defs[p].perm; *q; q++) {
						int d = (int)(strchr("NGMCEFRS", *q) - "NGMCEFRS");
						if (x->f[3][d] > 1)
							ck_assert_int_eq(loops[j--], d);
					}
				}
				trim_mapping_free(m);
			}
			trim_constraints_free(c);
			trim_search_free(s);
		}
	}
	trim_constraints *c = NULL;
	ck_assert_int_eq(trim_constraints_create(&c), 0);
	ck_assert_int_eq(trim_constraints_add_preset(c, "diagonal-stationary"), TRIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "weight-stationary, output-stationary"));
	trim_constraints_free(c);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* the shipped preset files are the presets on the RF / PE array
 * architectures; the Timeloop-style file checks on Eyeriss; dumps load
 * back to the same dump */
START_TEST(test_shipped)
{
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/training-baseline.yaml"), 0);
	for (size_t p = 0; trim_constraints_preset_name(p); p++) {
		char path[256], *x = NULL, *y = NULL;
		snprintf(path, sizeof path, "models/constraints/%s.yaml", trim_constraints_preset_name(p));
		trim_constraints *f = NULL, *b = NULL;
		ck_assert_msg(trim_constraints_load(&f, path) == 0, "%s", trim_last_error());
		ck_assert_int_eq(trim_constraints_create(&b), 0);
		ck_assert_int_eq(trim_constraints_add_preset(b, trim_constraints_preset_name(p)), 0);
		ck_assert_int_eq(trim_constraints_dump(f, a, &x), 0);
		ck_assert_int_eq(trim_constraints_dump(b, a, &y), 0);
		ck_assert_msg(!strcmp(x, y), "%s differs from the preset:\n%s\n%s", path, x, y);
		trim_string_free(x);
		trim_string_free(y);
		trim_constraints_free(f);
		trim_constraints_free(b);
	}
	trim_arch_free(a);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	trim_constraints *t = NULL, *u = NULL;
	ck_assert_int_eq(trim_constraints_load(&t, "models/constraints/timeloop-eyeriss-rs.yaml"), 0);
	ck_assert_msg(trim_constraints_check(t, a) == 0, "%s", trim_last_error());
	ck_assert_uint_eq(trim_constraints_count(t), 5);
	ck_assert_int_eq(trim_constraints_add_preset(t, "row-stationary"), 0);
	char *x = NULL, *y = NULL;
	ck_assert_int_eq(trim_constraints_dump(t, NULL, &x), 0);
	ck_assert_ptr_nonnull(strstr(x, "preset: [row-stationary]\n"));
	ck_assert_ptr_nonnull(strstr(x, "  - target: \"GLB\"\n    type: spatial\n    factors: N=1 E=1 R=1 S=0\n"
	                                "    permutation: FSC\n    split: 1\n"));
	ck_assert_int_eq(trim_constraints_load_string(&u, x, "dump"), 0);
	ck_assert_int_eq(trim_constraints_dump(u, NULL, &y), 0);
	ck_assert_str_eq(x, y);
	ck_assert(trim__constraints_digest(t) == trim__constraints_digest(u));
	ck_assert(trim__constraints_digest(t) != 0 && trim__constraints_digest(NULL) == 0);
	trim_string_free(x);
	trim_string_free(y);
	trim_constraints_free(u);
	/* the preset's RF permutation (S F) and the file's (C R K) contradict */
	ck_assert_int_eq(trim_constraints_check(t, a), TRIM_ESCHEMA);
	trim_constraints_free(t);
	trim_arch_free(a);
}
END_TEST

static char *capture(const char *args, int *status)
{
	return tu_capture(args, 1, status);
}

#define TINYNET "test/data/networks/tiny.yaml test/data/neteval/tiny-arch.yaml "

START_TEST(test_cli)
{
	int st;
	char *o = capture("map " TINYNET "--layer conv1 --dataflow output-stationary --format json", &st);
	ck_assert_msg(st == 0, "%s", o);
	ck_assert_ptr_nonnull(strstr(o, "\"best\": {"));
	free(o);
	o = capture("map " TINYNET "--layer conv1 --dataflow diagonal-stationary", &st);
	ck_assert_int_eq(st, 2);
	ck_assert_ptr_nonnull(strstr(o, "--dataflow takes weight-stationary"));
	free(o);
	o = capture("map " TINYNET "--layer conv1 --constraints test/data/constraints/bad-dim.yaml", &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(o, "test/data/constraints/bad-dim.yaml:6:14: targets[0].factors: unknown dimension 'X'"),
	              "%s", o);
	free(o);
	o = capture("map " TINYNET "--layer conv1 --constraints test/data/constraints/no-such-file.yaml", &st);
	ck_assert_int_eq(st, 2);
	free(o);
	/* a level the architecture does not have: the shipped files name "PE array" */
	o = capture("map " TINYNET "--layer conv1 --constraints models/constraints/row-stationary.yaml", &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(o, "models/constraints/row-stationary.yaml:10:13: targets[0].target: unknown level 'PE array'"),
	              "%s", o);
	free(o);
	o = capture("network " TINYNET "--quiet --constraints test/data/constraints/bad-dim.yaml", &st);
	ck_assert_int_eq(st, 2);
	free(o);
	o = capture("sparsity " TINYNET "--quiet --dataflow nope", &st);
	ck_assert_int_eq(st, 2);
	free(o);
	o = capture("explore test/data/networks/tiny.yaml test/data/neteval/tiny-space.yaml --quiet "
	            "--constraints test/data/constraints/bad-dim.yaml", &st);
	ck_assert_int_eq(st, 2);
	free(o);
	/* the constrained network: every workload mapped, no more energy-efficient than the free one */
	char *free_run = capture("network " TINYNET "--quiet --mode training --format json", &st);
	ck_assert_int_eq(st, 0);
	o = capture("network " TINYNET "--quiet --mode training --format json --threads 2 --dataflow row-stationary "
	            "--constraints test/data/constraints/tiny-glb.yaml", &st);
	ck_assert_msg(st == 0, "%s", o);
	free(free_run);
	free(o);
}
END_TEST

/* whole networks and explorations: the constraints reach every search, the
 * space's mapspace_constraints too, and the resumable sweep's stamp tells
 * constrained and free results apart */
/* Timeloop's row-stationary Eyeriss constraints on AlexNet conv1 (batch 4):
 * F = 55 across the 14 columns divides only as 11 (11 x 12 = 132 PEs);
 * with --imperfect the search finds 14 columns with a ragged last pass, 154
 * PEs as on the chip (docs/validation.md), and a faster mapping. */
START_TEST(test_cli_imperfect)
{
	int st;
#define RS_ARGS "map models/networks/alexnet.yaml models/arch/eyeriss.yaml --layer conv1 --phase FW --batch 4 " \
	        "--goal delay --constraints models/constraints/timeloop-eyeriss-rs.yaml "
	char *per = capture(RS_ARGS "--format json", &st);
	ck_assert_msg(st == 0, "%s", per);
	char *imp = capture(RS_ARGS "--imperfect --format json", &st);
	ck_assert_msg(st == 0, "%s", imp);
	ck_assert_msg(strstr(per, "\"active_pes\": 132") && strstr(per, "\"padded_macs\": 421660800"), "%s", per);
	ck_assert_msg(strstr(imp, "\"active_pes\": 154") && strstr(imp, "\"macs\": 421660800") &&
	                  strstr(imp, "\"padded_macs\": 429327360") && strstr(imp, "\"exact\": true"), "%s", imp);
	/* 3200266.67 cycles with 132 PEs; 4 x 2 x 6 x 3 x 2 x 55 x 176 RF steps with 154 */
	ck_assert_ptr_nonnull(strstr(per, "\"cycles\": 3200266.6666666665"));
	ck_assert_ptr_nonnull(strstr(imp, "\"cycles\": 2787840,"));
	free(per);
	free(imp);
	char *tab = capture(RS_ARGS "--imperfect", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(tab, "for f4 in [0:4)  # ragged: F = 55 in tiles of 14, the last 13"), "%s", tab);
	free(tab);
#undef RS_ARGS
}
END_TEST

START_TEST(test_neteval_explore)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_network_load(&net, "test/data/networks/tiny.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 0, 0), 0);
	ck_assert_int_eq(trim_arch_load(&a, "test/data/neteval/tiny-arch.yaml"), 0);
	trim_constraints *c = NULL;
	ck_assert_int_eq(trim_constraints_load(&c, "test/data/constraints/tiny-glb.yaml"), 0);
	double e[2];
	for (int k = 0; k < 2; k++) {
		trim_neteval *ne = NULL;
		ck_assert_int_eq(trim_neteval_create(&ne, net, w, a, NULL), 0);
		if (k)
			ck_assert_int_eq(trim_neteval_set_constraints(ne, c), 0);
		ck_assert_int_eq(trim_neteval_run(ne), 0);
		e[k] = trim_neteval_energy_pj(ne);
		for (size_t i = 0; k && i < trim_neteval_count(ne); i++) {
			trim_mapping *m = NULL;
			ck_assert_int_eq(trim_neteval_mapping(ne, i, &m), 0);
			const trim__mapping *x = (const trim__mapping *)m;
			/* tiny-glb.yaml: the GLB loops on M only, and keeps no weights */
			for (int d = 0; d < TRIM_NDIMS; d++)
				ck_assert(d == TRIM_DIM_M || x->f[1][d] == 1);
			ck_assert_int_eq(x->keep[1][1], 0);
			trim_mapping_free(m);
		}
		ck_assert_int_eq(trim_neteval_set_constraints(ne, NULL), TRIM_EINVAL); /* after the first step */
		trim_neteval_free(ne);
	}
	ck_assert(e[1] >= e[0]);
	trim_neteval *ne = NULL;
	trim_constraints *bad_level = load("targets: [{target: PE array, type: spatial, only: [M]}]\n");
	ck_assert_int_eq(trim_neteval_create(&ne, net, w, a, NULL), 0);
	ck_assert_int_eq(trim_neteval_set_constraints(ne, bad_level), TRIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "c.yaml:1:20: targets[0].target: unknown level 'PE array'"));
	trim_neteval_free(ne);
	/* a space with inline mapspace_constraints: the same as the file on the explorer */
	trim_space *sp = NULL, *sp2 = NULL;
	ck_assert_msg(trim_space_load(&sp, "test/data/constraints/tiny-space.yaml") == 0, "%s", trim_last_error());
	ck_assert_ptr_nonnull(trim_space_constraints(sp));
	ck_assert_int_eq(trim_space_load(&sp2, "test/data/neteval/tiny-space.yaml"), 0);
	ck_assert_ptr_null(trim_space_constraints(sp2));
	double pts[2][4];
	for (int k = 0; k < 2; k++) {
		trim_explorer *ex = NULL;
		ck_assert_int_eq(trim_explorer_create(&ex, net, w, k ? sp2 : sp), 0);
		if (k)
			ck_assert_int_eq(trim_explorer_set_constraints(ex, c), 0);
		ck_assert_int_eq(trim_explorer_run(ex), 0);
		ck_assert_uint_eq(trim_explorer_count(ex), 4);
		for (size_t i = 0; i < 4; i++) {
			double f[TRIM_XF_COUNT];
			ck_assert_int_eq(trim_explorer_point(ex, i, f, TRIM_XF_COUNT), 0);
			pts[k][i] = f[TRIM_XF_ENERGY_PJ];
		}
		trim_explorer_free(ex);
	}
	for (size_t i = 0; i < 4; i++)
		ck_assert(pts[0][i] == pts[1][i]);
	trim_explorer *ex = NULL;
	ck_assert_int_eq(trim_explorer_create(&ex, net, w, sp2), 0);
	ck_assert_int_eq(trim_explorer_set_constraints(ex, bad_level), TRIM_ENOTFOUND);
	trim_explorer_free(ex);
	/* a resumable sweep with constraints is not resumed without them */
	char dir[] = "/tmp/trim-constraints-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(trim_explorer_create(&ex, net, w, sp2), 0);
	ck_assert_int_eq(trim_explorer_set_constraints(ex, c), 0);
	ck_assert_int_eq(trim_explorer_set_out_dir(ex, dir), 0);
	ck_assert_int_eq(trim_explorer_run(ex), 0);
	trim_explorer_free(ex);
	ck_assert_int_eq(trim_explorer_create(&ex, net, w, sp2), 0);
	ck_assert_int_eq(trim_explorer_set_constraints(ex, c), 0);
	ck_assert_int_eq(trim_explorer_set_out_dir(ex, dir), 0);
	ck_assert_uint_eq(trim_explorer_resumed(ex), 4);
	trim_explorer_free(ex);
	ck_assert_int_eq(trim_explorer_create(&ex, net, w, sp2), 0);
	ck_assert_int_eq(trim_explorer_set_out_dir(ex, dir), 0); /* stale: recomputed, saying why */
	ck_assert_uint_eq(trim_explorer_resumed(ex), 0);
	ck_assert_ptr_nonnull(strstr(trim_explorer_resume_notes(ex), "the dataflow constraints changed"));
	trim_explorer_free(ex);
	for (int g = 0; g < 4; g++) {
		char f[128];
		snprintf(f, sizeof f, "%s/point-%06d.json", dir, g);
		remove(f);
	}
	ck_assert_int_eq(rmdir(dir), 0);
	trim_space_free(sp);
	trim_space_free(sp2);
	trim_space *sb = NULL;
	ck_assert_int_eq(trim_space_load(&sb, "test/data/constraints/bad-space.yaml"), TRIM_ENOTFOUND);
	ck_assert_msg(strstr(trim_last_error(), "bad-space.yaml:8:15: mapspace_constraints.targets[0].target: unknown level 'RFF'"),
	              "%s", trim_last_error());
	trim_constraints_free(bad_level);
	trim_constraints_free(c);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

Suite *constraints_suite(void)
{
	Suite *s = suite_create("constraints");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_brute_factors);
	tcase_add_test(tc, test_brute_max_bypass);
	tcase_add_test(tc, test_brute_cap_reuse);
	tcase_add_test(tc, test_brute_window_spread);
	tcase_add_test(tc, test_brute_permutation);
	tcase_add_test(tc, test_brute_split);
	tcase_add_test(tc, test_brute_presets);
	tcase_add_test(tc, test_brute_random);
	tcase_add_test(tc, test_brute_imperfect);
	tcase_add_test(tc, test_read_errors);
	tcase_add_test(tc, test_check_errors);
	tcase_add_test(tc, test_search_enofit);
	tcase_add_test(tc, test_presets_definition);
	tcase_add_test(tc, test_window_wrap_returns);
	tcase_add_test(tc, test_shipped);
	tcase_add_test(tc, test_cli);
	tcase_add_test(tc, test_cli_imperfect);
	tcase_add_test(tc, test_neteval_explore);
	suite_add_tcase(s, tc);
	return s;
}
