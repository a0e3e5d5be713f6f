/*
 * One layer of a fused group: its tile workload searched under the group's
 * constraints, exactly for the fused cost.
 *
 * The per-layer search (lib/search/) ranks mappings by their standard
 * cost, in which the intermediates still go to DRAM. The fused cost of a
 * mapping is its standard cost less what the fused home removes, and that
 * removal is the same for every mapping of the fused space (B holds the
 * whole tile of each intermediate, filled or drained once), so
 *   fused(m) >= standard(m) - saving,
 * saving = trim__ft_saving_bound (exact for the dynamic energy; for cycles,
 * a max over levels, and the leakage over them, an upper bound). The
 * search keeps its k best by standard cost; every mapping it did not keep
 * costs at least the k-th's standard cost, hence a fused cost of at least
 * that less the saving. When the best fused cost among the k is below that,
 * it is the fused optimum; else k grows (16, 64, 256, 1024) and at 1024 the
 * result says what is proven (lower bound, exact = 0).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fusedtiles_int.h"

#define FT_TOPK_FIRST 16
#define FT_TOPK_MAX 1024

int trim__ft_space_init(trim__mapspace *s, const trim__intra *w, const struct trim_arch *a, int B,
                        unsigned fused)
{
	int rc = trim__mapspace_init(s, w, a);
	if (rc)
		return rc;
	for (int l = 0; l < B && !rc; l++) {
		if (a->lv[l].type == TRIM__LVL_COMPUTE)
			continue;
		for (int d = 0; d < TRIM_NDIMS && !rc; d++)
			rc = trim__mapspace_pin(s, l, d, 1);
	}
	for (int j = 0; j < s->nbyp && !rc; j++) {
		int l = s->byp_level[j], t = s->byp_slot[j];
		if (!(fused >> t & 1) || l > B)
			continue;
		uint64_t bit = (uint64_t)1 << (s->nbyp - 1 - j);
		s->byp_fixmask |= bit;
		if (l == B)
			s->byp_fixval |= bit;
		else
			s->byp_fixval &= ~bit;
	}
	if (rc)
		trim__mapspace_free(s);
	return rc;
}

double trim__ft_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A search's time limit from the deadline (0: none); past it, a
 * millisecond (the search returns its first best, with what it proved). */
static void set_deadline(trim__mapspace *s, double deadline)
{
	if (deadline > 0) {
		double left = deadline - trim__ft_now();
		s->time_limit = left > 1e-3 ? left : 1e-3;
	}
}

/* The bytes the network's cache plan holds per level (NULL: none). */
static void set_reserved(trim__mapspace *s, const int64_t *reserved)
{
	if (reserved)
		memcpy(s->reserved, reserved, sizeof s->reserved);
}

/* The goal's cost of an evaluation (energy or delay). */
static double goal_cost(const trim__eval *e, int goal)
{
	return goal == TRIM__GOAL_DELAY ? e->cycles : e->energy_pj;
}

/* The plain search of a standalone layer. */
static int plain(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                 const int64_t *reserved, int goal, int threads, double deadline, trim__ft_layer_result *out)
{
	trim__mapspace s;
	trim__search_result res;
	memset(&res, 0, sizeof res);
	int rc = trim__mapspace_init(&s, w, a);
	if (rc)
		return rc;
	set_reserved(&s, reserved);
	set_deadline(&s, deadline);
	if ((rc = trim__search(&s, costs, goal, threads, &res)) == 0 && res.found) {
		out->found = 1;
		out->best = res.best;
		out->eval = res.best_eval;
		out->cost = res.best_cost;
		out->lower_bound = res.lower_bound;
		out->exact = res.exact;
		out->stopped = res.stopped && !res.exact;
		out->index = res.best_index;
		out->topk = 1;
	}
	trim__search_result_free(&res);
	trim__mapspace_free(&s);
	return rc;
}

/* The k best of one search by standard cost, ranked by fused cost. */
static int rank_top(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs, int B,
                    unsigned fused, int goal, const trim__search_result *res, trim__ft_layer_result *out,
                    trim__ft_removed *ref)
{
	trim__eval_ws ws;
	memset(&ws, 0, sizeof ws);
	trim__eval *std = trim__calloc(2, sizeof *std);
	if (!std)
		return TRIM_ENOMEM;
	trim__eval *fu = std + 1;
	int rc = 0, have = 0;
	for (size_t i = 0; i < res->ntop && !rc; i++) {
		trim__ft_removed r;
		if ((rc = trim__eval_run(w, a, costs, &res->top[i], &ws, std)))
			break;
		trim__ft_eval_fused(w, a, costs, &res->top[i], B, fused, std, fu, &r);
		if (i == 0)
			*ref = r;
		else if (memcmp(&r, ref, sizeof r))
			rc = trim__error(TRIM_EINVAL, "fused tiles: layer '%s': the fused home of its intermediates "
			                 "removes different counts from two mappings (a model error)", w->layer);
		double c = goal_cost(fu, goal);
		if (!rc && (!have || c < out->cost || (c == out->cost && res->top_index[i] < out->index))) {
			have = 1;
			out->cost = c;
			out->index = res->top_index[i];
			out->best = res->top[i];
			out->eval = *fu;
		}
	}
	out->found = have;
	trim__eval_ws_free(&ws);
	free(std);
	return rc;
}

int trim__ft_layer_search(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                          int B, unsigned fused, int goal, int threads, trim__ft_layer_result *out)
{
	return trim__ft_layer_search_until(w, a, costs, B, fused, NULL, goal, threads, 0, out);
}

int trim__ft_layer_search_until(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                                int B, unsigned fused, const int64_t *reserved, int goal, int threads,
                                double deadline, trim__ft_layer_result *out)
{
	memset(out, 0, sizeof *out);
	if (goal != TRIM__GOAL_ENERGY && goal != TRIM__GOAL_DELAY)
		return trim__error(TRIM_EINVAL, "fused tiles: the goal must be energy or delay (EDP is not yet "
		                   "searched exactly for fused groups)");
	if (!fused)
		return plain(w, a, costs, reserved, goal, threads, deadline, out);
	int rc = trim__ft_check_level(w, a, B, fused);
	if (rc)
		return rc;
	if (!trim__ft_fits_level(w, a, B, fused, reserved ? reserved[B] : 0))
		return 0; /* the intermediates' tiles alone overflow B: no mapping */
	for (int k = FT_TOPK_FIRST;; k *= 4) {
		trim__mapspace s;
		trim__search_result res;
		memset(&res, 0, sizeof res);
		if ((rc = trim__ft_space_init(&s, w, a, B, fused))) {
			/* nothing obeys the pins: no mapping, no error */
			return rc == TRIM_ENOFIT ? 0 : rc;
		}
		s.topk = k;
		set_reserved(&s, reserved);
		set_deadline(&s, deadline);
		trim__ft_removed ref;
		rc = trim__search(&s, costs, goal, threads, &res);
		if (rc == 0 && res.found)
			rc = rank_top(w, a, costs, B, fused, goal, &res, out, &ref);
		int done = 1;
		if (rc == 0 && out->found) {
			double save = trim__ft_saving_bound(a, costs, B, &ref, goal);
			/* what the mappings the search did not keep cost at least
			 * (none left: the whole space was ranked), a little below
			 * against rounding in the subtractions */
			double floor_ = HUGE_VAL;
			if (res.ntop >= (size_t)k) {
				floor_ = res.top_cost[k - 1] - save;
				floor_ -= 1e-9 * fabs(floor_);
			}
			double lb = res.exact ? floor_ : fmin(floor_, res.lower_bound - save);
			out->topk = k;
			out->exact = res.exact && out->cost < floor_;
			out->lower_bound = out->exact ? out->cost : fmin(out->cost, lb);
			out->stopped = res.stopped && !out->exact;
			done = out->exact || k >= FT_TOPK_MAX || !res.exact;
		}
		trim__search_result_free(&res);
		trim__mapspace_free(&s);
		if (rc || done)
			return rc;
	}
}
