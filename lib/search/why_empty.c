/*
 * Why a search found no mapping: which rule or constraint empties the
 * mapspace (docs/mapping.md, "When no mapping fits").
 *
 * In the order the rules apply:
 *   1. the utilisation constraints: the search keeps the highest PE and RF
 *      utilisations of the mappings that fit (nothing that fits is cut by a
 *      bound when nothing is found), so the one that prunes everything is
 *      named with the highest value the space reaches;
 *   2. the model's scope: every mapping that fits is outside it;
 *   3. the dataflow constraints and custom factors: the space is searched
 *      again without them (stopping at the first mapping found: a gap of
 *      almost 1), then without each one alone; the ones whose removal lets
 *      a mapping fit are named;
 *   4. the architecture itself: the cached activations reserved at a level
 *      that leave no room, else the capacities and the array in general.
 * Steps 3 and 4 run only when no mapping fits at all; each relaxed search
 * gets a time limit (the diagnosis only; the search's result is unchanged).
 */
#include <stdio.h>

#include "constraints/constraints_int.h"
#include "search_int.h"

/* Seconds each relaxed search may take. */
#define WHY_EMPTY_TIME_LIMIT 20.0

/* 1 if some mapping fits the space of (w, a) with the reserved bytes and
 * utilisation constraints of `base`, the custom factors upin (NULL: none)
 * and the constraints c (NULL: none); 0 if none does; -1 if that could not
 * be told (an error, a constraint that leaves no factorisation counts as
 * "none", or the time limit). */
static int relaxed_fits(const trim__mapspace *base, const trim__level_cost *costs, int goal, int threads,
                        const int64_t (*upin)[TRIM_NDIMS], const trim_constraints *c)
{
	trim__mapspace r;
	if (trim__mapspace_init(&r, base->w, base->a))
		return -1;
	if (base->imperfect && trim__mapspace_set_imperfect(&r, 1)) { /* the same rows as the search's */
		trim__mapspace_free(&r);
		return -1;
	}
	memcpy(r.reserved, base->reserved, sizeof r.reserved);
	r.min_pe_util = base->min_pe_util;
	r.min_rf_util = base->min_rf_util;
	r.gap = 0.999999; /* any mapping ends the search */
	r.time_limit = WHY_EMPTY_TIME_LIMIT;
	int rc = 0, fits = -1;
	if (upin)
		for (int l = 0; l < base->a->nlevels && !rc; l++)
			for (int d = 0; d < TRIM_NDIMS && !rc; d++)
				if (upin[l][d])
					rc = trim__mapspace_pin(&r, l, d, upin[l][d]);
	if (!rc && c)
		rc = trim__mapspace_constrain(c, &r);
	if (rc == TRIM_ENOFIT) {
		fits = 0;
	} else if (!rc) {
		trim__search_result res;
		if (trim__search(&r, costs, goal, threads, &res) == 0)
			fits = res.found ? 1 : res.stopped ? -1 : 0;
		trim__search_result_free(&res);
	}
	trim__mapspace_free(&r);
	return fits;
}

static int any_pin(const int64_t (*upin)[TRIM_NDIMS], int nl)
{
	for (int l = 0; upin && l < nl; l++)
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (upin[l][d])
				return 1;
	return 0;
}

/* Step 3: the constraints and custom factors, with "" when there are none
 * or when even without them nothing fits. */
static void name_constraints(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                             const trim_constraints *cons, const int64_t (*upin)[TRIM_NDIMS], trim__sb *sb)
{
	const int nl = s->a->nlevels, pins = any_pin(upin, nl);
	const size_t items = trim__constraints_items(cons);
	if (!pins && !items)
		return;
	int free_fits = relaxed_fits(s, costs, goal, threads, NULL, NULL);
	if (free_fits == 0) {
		trim__sb_puts(sb, "; without the dataflow constraints and custom factors no mapping fits either");
		return;
	}
	if (free_fits < 0) {
		trim__sb_puts(sb, "; whether one fits without the constraints could not be told within the time");
		return;
	}
	size_t named = 0;
	char name[300];
	for (size_t i = 0; i < items; i++) {
		trim_constraints *less = NULL;
		if (trim__constraints_without(cons, i, &less, name, sizeof name))
			continue;
		int fits = relaxed_fits(s, costs, goal, threads, upin, less);
		trim_constraints_free(less);
		if (fits == 1)
			trim__sb_printf(sb, "%s%s", named++ ? "; " : "; mappings fit once any one of these is removed: ", name);
	}
	for (int l = 0; pins && l < nl; l++)
		for (int d = 0; d < TRIM_NDIMS; d++) {
			if (!upin[l][d])
				continue;
			int64_t keep = upin[l][d];
			int64_t less[TRIM__MAX_LEVELS][TRIM_NDIMS];
			memcpy(less, upin, (size_t)nl * sizeof *less);
			less[l][d] = 0;
			if (relaxed_fits(s, costs, goal, threads, (const int64_t(*)[TRIM_NDIMS])less, cons) == 1)
				trim__sb_printf(sb, "%sthe custom factor %s:%c=%lld", named++ ? "; " : "; mappings fit once any one of these is removed: ",
				                s->a->lv[l].name, "NGMCEFRS"[d], (long long)keep);
		}
	if (!named)
		trim__sb_puts(sb, "; mappings fit without the dataflow constraints and custom factors, but not without"
		                  " any one of them alone: they empty the space together");
}

int trim__search_why_empty(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                           const trim_constraints *cons, const int64_t (*upin)[TRIM_NDIMS],
                           const trim__search_result *res, char **out)
{
	*out = NULL;
	if (res->found)
		return 0;
	trim__sb sb;
	trim__sb_init(&sb);
	if (res->stopped) {
		trim__sb_puts(&sb, "no mapping found before the search stopped (time limit)");
	} else if (res->valid > 0 && res->pruned == res->valid) {
		if (s->min_pe_util > 0 && res->max_pe_util < s->min_pe_util)
			trim__sb_printf(&sb, "every mapping that fits (%llu) has a PE utilization below the minimum %g"
			                     " (--min-pe-util): the highest is %.4g",
			                (unsigned long long)res->valid, s->min_pe_util, res->max_pe_util);
		else if (s->min_pe_util > 0)
			trim__sb_printf(&sb, "every mapping that fits (%llu) and reaches the minimum PE utilization %g has an"
			                     " RF utilization below the minimum %g (--min-rf-util): the highest is %.4g",
			                (unsigned long long)res->valid, s->min_pe_util, s->min_rf_util,
			                res->max_rf_util < 0 ? 0 : res->max_rf_util);
		else
			trim__sb_printf(&sb, "every mapping that fits (%llu) has an RF utilization below the minimum %g"
			                     " (--min-rf-util): the highest is %.4g",
			                (unsigned long long)res->valid, s->min_rf_util, res->max_rf_util < 0 ? 0 : res->max_rf_util);
	} else if (res->valid > 0 && res->unsupported + res->pruned == res->valid) {
		trim__sb_printf(&sb, "every mapping that fits (%llu) is outside the analytic model's scope%s",
		                (unsigned long long)res->valid, res->pruned ? " or pruned by the utilisation constraints" : "");
	} else {
		trim__sb_printf(&sb, "no mapping of the %s fits the capacities and the array of %s",
		                trim__constraints_items(cons) || any_pin(upin, s->a->nlevels) ? "constrained mapspace"
		                                                                                 : "mapspace",
		                s->a->name);
		for (int l = 0; l < s->a->nlevels; l++) {
			const trim__level *L = &s->a->lv[l];
			if (L->type == TRIM__LVL_STORAGE && L->capacity_bytes > 0 && s->reserved[l] >= L->capacity_bytes)
				trim__sb_printf(&sb, "; the cached activations take %lld bytes of %s, whose capacity is %lld",
				                (long long)s->reserved[l], L->name, (long long)L->capacity_bytes);
		}
		name_constraints(s, costs, goal, threads, cons, upin, &sb);
	}
	return trim__sb_take(&sb, out);
}
