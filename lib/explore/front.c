/*
 * The Pareto front of an exploration over (energy, delay, area) of its
 * valid points (docs/guide.md, "How sure a point is"), and whether each
 * point's place on or off it is proven. It is proven for a point when its
 * figures are exact and no point whose figures are not could change its
 * place: on the front, no inexact point could dominate it (one with a larger
 * area, or whose goal figure is surely above its own, cannot: every goal is
 * non-decreasing in energy, delay and area); off it, an exact point
 * dominates it.
 */
#include "explore_int.h"

/* Area as the front compares it (FPGA points: DSPs). */
static double front_area(const trim__xpoint *p)
{
	return p->f[TRIM_XF_AREA_MM2] == p->f[TRIM_XF_AREA_MM2] ? p->f[TRIM_XF_AREA_MM2] : p->f[TRIM_XF_DSP];
}

/* neither is below the other on any axis (a NaN compares as equal) */
static int equal(const trim__xpoint *a, const trim__xpoint *b)
{
	double x[3] = {a->f[TRIM_XF_ENERGY_PJ], a->f[TRIM_XF_CYCLES], front_area(a)};
	double y[3] = {b->f[TRIM_XF_ENERGY_PJ], b->f[TRIM_XF_CYCLES], front_area(b)};
	for (int m = 0; m < 3; m++)
		if (x[m] < y[m] || x[m] > y[m])
			return 0;
	return 1;
}

/* a is no worse than b on every axis and better on one */
static int dominates(const trim__xpoint *a, const trim__xpoint *b)
{
	double x[3] = {a->f[TRIM_XF_ENERGY_PJ], a->f[TRIM_XF_CYCLES], front_area(a)};
	double y[3] = {b->f[TRIM_XF_ENERGY_PJ], b->f[TRIM_XF_CYCLES], front_area(b)};
	int lt = 0;
	for (int m = 0; m < 3; m++) {
		if (x[m] > y[m])
			return 0;
		lt |= x[m] < y[m];
	}
	return lt;
}

void trim__explore_pareto_front(trim_explorer *ex)
{
	for (size_t i = 0; i < ex->n; i++) {
		trim__xpoint *p = &ex->pt[i];
		if (!p->valid)
			continue;
		int dominated = 0;
		for (size_t j = 0; j < ex->n && !dominated; j++) {
			const trim__xpoint *q = &ex->pt[j];
			if (j == i || !q->valid)
				continue;
			/* equal points: the one with the smaller index stays on the front */
			dominated = dominates(q, p) || (j < i && equal(q, p));
		}
		p->f[TRIM_XF_PARETO] = !dominated;
	}
}

int trim__explore_pareto_proven(const trim_explorer *ex, size_t i)
{
	const trim__xpoint *q = &ex->pt[i];
	if (!q->valid || q->f[TRIM_XF_EXACT] == 0)
		return 0;
	double cost = trim__explore_point_cost(ex, q);
	for (size_t j = 0; j < ex->n; j++) {
		const trim__xpoint *p = &ex->pt[j];
		if (j == i || !p->valid)
			continue;
		if (q->f[TRIM_XF_PARETO] == 0) {
			if (p->f[TRIM_XF_EXACT] != 0 && dominates(p, q))
				return 1;
		} else if (p->f[TRIM_XF_EXACT] == 0 && front_area(p) <= front_area(q) &&
		           !(p->f[TRIM_XF_LOWER_BOUND] > cost)) {
			return 0;
		}
	}
	return q->f[TRIM_XF_PARETO] != 0;
}
