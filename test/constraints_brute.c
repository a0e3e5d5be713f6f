/*
 * Brute force over every raw mapping that obeys a constraint set (checked
 * by a reference written here, independent of the reader and of the
 * mapspace's filters) against the constrained search (constraints_brute.h).
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
#include "constraints_brute.h"

/* The reference (ref_t: constraints_brute.h). */
void ref_init(ref_t *r)
{
	memset(r, 0, sizeof *r);
	memset(r->keep, 0xff, sizeof r->keep);
}

/* dims of level l outside `allowed` (letters) are 1 */
void ref_only(ref_t *r, int l, const char *allowed)
{
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!strchr(allowed, "NGMCEFRS"[d]))
			r->fix[l][d] = 1;
}

void ref_perm(ref_t *r, int l, const char *inner_first)
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

trim_constraints *load(const char *yaml)
{
	trim_constraints *c = NULL;
	int rc = trim_constraints_load_string(&c, yaml, "c.yaml");
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	return c;
}

int g_random, g_enofit; /* random constraints: ENOFIT is an answer, and may cut nothing */
/* the next brute force with imperfect factorisations; what it saw of them:
 * valid ragged classes, and whether the best was one */
int g_imperfect;
uint64_t g_reuse_checked, g_reuse_equal; /* the stationarity bound's reuse, checked and tight */
/* its sliding-window floor: checked against a mapping's fills, above 0, tight */
uint64_t g_wfill_checked, g_wfill_raised, g_wfill_equal;
/* ... and where the floor of a mapping's own first loop above the level is
 * above the floor for any first loop */
uint64_t g_wfill_own_above;
/* node bounds checked with the stationarity bound's variant of a mapping's
 * own first loop alone */
uint64_t g_own_loop_checked, g_least_checked;
uint64_t g_ragged_valid;
int g_ragged_best;

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
uint64_t g_ragged_raised;
/* Nodes with a ragged completion whose bound is above the root's (the
 * fixed spatial levels' instances and active PEs: node_bound.c), each
 * checked, as every node, against every valid mapping below it. */
uint64_t g_ragged_nodes_raised;
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

void brute(void (*mk)(struct trim_arch *, trim__intra *), int goal, const char *yaml, const ref_t *ref)
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
	int rc = trim__mapspace_constrain(cons, &s);
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
	ck_assert_int_eq(trim__intra_act_zero_macs(&w, &zero_macs), 0);
	cls *seen = malloc(s.size * sizeof *seen);
	ck_assert_ptr_nonnull(seen);
	stationary_workspace *sw = trim__stationary_workspace_new(); /* the node bounds' own */
	ck_assert_ptr_nonnull(sw);
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
		trim__mapping root;
		const double root_lb = seen[i].ragged ? tu_node_lb(&s, c, goal, 0, zero_macs, &m, &root, sw) : 0;
		for (int depth = 1; depth < s.nslots; depth++) {
			trim__mapping p;
			trim__eval ep;
			double lb = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p, sw);
			REQUIRE(lb <= seen[i].cost, "index %llu depth %d: node bound %.17g above the cost %.17g",
			        (unsigned long long)i, depth, lb, seen[i].cost);
			if (seen[i].ragged && lb > root_lb)
				g_ragged_nodes_raised++;
			/* and its joint-order bound (which reads the permutation
			 * constraints) */
			trim__node_bound_joint(&s, c, goal, depth, zero_macs, &p, &ep, &lb, sw);
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
				trim__stationary_reuse(&s, c, depth, &p, 0, 0, &hs, sw);
				const unsigned own = hs > 0 ? first_loop_above(&a, &m, hs) : 0;
				if (own) {
					unsigned dims = 0;
					s.test_first_dims = &dims;
					const double full = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p, sw);
					s.test_first_dims = NULL;
					double least = HUGE_VAL;
					for (int d = 0; d < TRIM_NDIMS; d++) {
						if (!((own | (i % 7 ? 0 : dims)) >> d & 1))
							continue;
						s.test_first_only = 1u << d;
						lb = tu_node_lb(&s, c, goal, depth, zero_macs, &m, &p, sw);
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
				int64_t rho = trim__stationary_reuse(&s, c, depth, &p, t, 0, &h, sw);
				if (rho < 0 || !m.keep[h][t])
					continue;
				for (int u = 0; u < 3; u++)
					if (u != t && w.t[u].present && m.keep[h][u])
						keep |= 1u << u;
				rho = trim__stationary_reuse(&s, c, depth, &p, t, keep, &h, sw);
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
				if (trim__stationary_window_fills(&s, c, depth, &p, t, 0, 0, &h, sw) < 0 || !m.keep[h][t])
					continue;
				unsigned keep = 0;
				for (int u = 0; u < 3; u++)
					if (u != t && w.t[u].present && m.keep[h][u])
						keep |= 1u << u;
				const unsigned first = first_loop_above(&a, &m, h);
				for (int own = 0; own < (first ? 2 : 1); own++) {
					const int64_t fl =
					    trim__stationary_window_fills(&s, c, depth, &p, t, keep, own ? first : 0, &h, sw);
					REQUIRE(fl <= e.act.fills[h][t],
					        "index %llu depth %d tensor %d: window floor %lld (first loop %s) above the "
					        "fills %lld",
					        (unsigned long long)i, depth, t, (long long)fl, own ? "its own" : "any",
					        (long long)e.act.fills[h][t]);
					g_wfill_checked++;
					g_wfill_raised += fl > 0;
					g_wfill_equal += fl > 0 && fl == e.act.fills[h][t];
					if (own)
						g_wfill_own_above += fl > trim__stationary_window_fills(&s, c, depth, &p, t, keep, 0, &h, sw);
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
	trim__stationary_workspace_free(sw);
	trim__mapspace_free(&s);
}
