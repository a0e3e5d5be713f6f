/*
 * How sure a point of an exploration is (docs/guide.md, "How sure a point
 * is"; docs/model.md, "Lower bound of a point"): whether every search of
 * its network evaluation was proven optimal (exact), a proven lower bound
 * of its goal's figure built from the searches' lower bounds, the gap
 * between the two, and the ranks the point could hold given every ranked
 * point's interval [lower bound, figure].
 *
 * The searches bound each intra workload's cost under the mapper's goal
 * (dense figures): energy e_k, cycles d_k or e_k d_k at least lb_k for any
 * mapping. The network's figures add the inter-layer work: cycles Di and
 * energy Ei (+ the leakage of cached tensors, >= 0, which grows with the
 * intra cycles) that no mapping changes. So, for every choice of mappings:
 *   energy  E = sum e_k + Ei + leak >= sum lb_k + Ei
 *   delay   D = sum d_k + Di        >= sum lb_k + Di
 *   EDP     E D >= (sum sqrt(e_k d_k) + sqrt(Ei Di))^2   (Cauchy-Schwarz)
 *               >= (sum sqrt(lb_k) + sqrt(Ei Di))^2
 *   weighted E^w D^w A^wa (equal energy and delay weights w) >= EDP_lb^w A^wa;
 *   with unequal weights an EDP bound bounds nothing: no bound (NaN);
 *   area: mappings do not change it (the figure).
 * These hold for the dense figures only: a point whose figures are sparse
 * (zero-skipping hardware, sparsity on) has no bound (NaN) unless it is
 * exact. An exact point's bound is its figure (gap 0).

 */
#include <math.h>

#include "explore_int.h"

/* Figures within DENSE_TOL (relative) of the dense ones are dense: the
 * sparse adjustment of hardware that skips nothing, or of a network without
 * zeros, adds the same terms in another order (an ulp apart). The bound is
 * lowered by twice that much, so that it holds for the figures as written. */
#define DENSE_TOL 1e-12

static int near(double a, double b) { return fabs(a - b) <= DENSE_TOL * fabs(b); }

/* 1 when every workload's figures are its dense ones (what the searches bound). */
static int dense_figures(const trim__xpoint *p)
{
	for (size_t k = 0; k < p->nw; k++)
		if (!near(p->wl[k].cycles, p->wl[k].dense_cycles) || !near(p->wl[k].energy, p->wl[k].dense_energy))
			return 0;
	return 1;
}

/* The lower bound of an inexact valid point's figure (cost), or NaN. */
static double inexact_bound(const trim_explorer *ex, const trim__xpoint *p, double cost)
{
	if (ex->goal == TRIM_EXPLORE_AREA)
		return cost;
	if (!dense_figures(p))
		return NAN;
	double sum = 0, roots = 0;
	for (size_t k = 0; k < p->nw; k++) {
		double lb = p->wl[k].lower_bound > 0 ? p->wl[k].lower_bound : 0;
		if (!(lb == lb))
			return NAN;
		sum += lb;
		roots += sqrt(lb);
	}
	sum *= 1 - 2 * DENSE_TOL;
	roots *= 1 - 2 * DENSE_TOL;
	double edp = roots + sqrt(p->inter_fixed_pj * p->inter_cycles);
	edp *= edp;
	switch (ex->goal) {
	case TRIM_EXPLORE_ENERGY: return sum + p->inter_fixed_pj;
	case TRIM_EXPLORE_DELAY: return sum + p->inter_cycles;
	case TRIM_EXPLORE_EDP: return edp;
	default: { /* weighted: the searches minimise EDP */
		if (ex->we != ex->wd)
			return NAN;
		double a = p->f[TRIM_XF_AREA_MM2];
		if (!(a == a))
			a = p->f[TRIM_XF_DSP] > 0 ? p->f[TRIM_XF_DSP] : 1; /* as the ranking's cost */
		return pow(edp, ex->we) * pow(a, ex->wa);
	}
	}
}

void trim__explore_point_bound(const trim_explorer *ex, trim__xpoint *p)
{
	int exact = p->valid;
	for (size_t k = 0; k < p->nw && exact; k++)
		exact = p->wl[k].exact;
	p->f[TRIM_XF_EXACT] = exact;
	if (!p->valid) {
		p->f[TRIM_XF_LOWER_BOUND] = p->f[TRIM_XF_GAP] = NAN;
		return;
	}
	double cost = trim__explore_point_cost(ex, p), lb;
	if (p->fz.on) { /* fused tiles (lib/explore/fuse.c): L - C_lbl + F */
		double lbl = ex->goal == TRIM_EXPLORE_DELAY ? p->fz.lbl_cycles : p->fz.lbl_energy_pj;
		lb = (exact ? lbl : inexact_bound(ex, p, cost)) - p->fz.lbl_cost + p->fz.lower_bound;
		exact = exact && p->fz.exact;
		p->f[TRIM_XF_EXACT] = exact;
		if (exact)
			lb = cost;
	} else {
		lb = exact ? cost : inexact_bound(ex, p, cost);
	}
	if (lb > cost)
		lb = cost; /* rounding of the sums: a bound above a figure it bounds is the figure */
	p->f[TRIM_XF_LOWER_BOUND] = lb;
	p->f[TRIM_XF_GAP] = !(lb == lb) ? NAN : cost > 0 ? (cost - lb) / cost : 0;
}

/* 1 when point i (interval [lb_i, cost_i]) ranks before point j whatever
 * their figures within their intervals (ties by index). */
static int surely_before(const trim_explorer *ex, size_t i, size_t j)
{
	double ci = trim__explore_point_cost(ex, &ex->pt[i]), lj = ex->pt[j].f[TRIM_XF_LOWER_BOUND];
	return ci < lj || (ci == lj && i < j);
}

void trim__explore_rank_ranges(trim_explorer *ex, const size_t *order, size_t n)
{
	for (size_t i = 0; i < ex->n; i++)
		ex->pt[i].f[TRIM_XF_RANK_BEST] = ex->pt[i].f[TRIM_XF_RANK_WORST] = 0;
	for (size_t a = 0; a < n; a++) {
		size_t i = order[a], ahead = 0, behind = 0;
		for (size_t b = 0; b < n; b++) {
			size_t j = order[b];
			if (j == i)
				continue;
			ahead += surely_before(ex, j, i);
			behind += surely_before(ex, i, j);
		}
		ex->pt[i].f[TRIM_XF_RANK_BEST] = (double)(1 + ahead);
		ex->pt[i].f[TRIM_XF_RANK_WORST] = (double)(n - behind);
	}
}

