/*
 * The floor of a tiling (docs/fusion.md, "The search"): a lower bound on
 * the goal's cost of one layer of a fused group under a shared tiling,
 * known before its search runs, so that a tiling (and a group) is pruned
 * unsearched. Per layer, the largest of three floors:
 *
 * - compulsory: per tile, its MACs at the least MAC energy, and every word
 *   of each tensor that is not an intermediate of the group (weights, the
 *   group's input and output) crossing DRAM once at the least DRAM energy
 *   (energy); the same words over DRAM's read and write bandwidths
 *   (delay). Nothing stays above B between tiles (B holds only the
 *   running layer's tiles), so each tile pays them again: T times.
 * - the layer alone: where the layer's tiles partition it (no halo on any
 *   axis: T_x times its tile's rows is its bound, every tile of the same
 *   rows, its kinds differing only in their padding zeros), running the T tiles one
 *   after another is a mapping of the whole layer (the tile counts as
 *   loops at DRAM above the tile's mapping), whose standard cost is at
 *   most T times a tile's (its counts are at most T times, its cycles a
 *   max of sums); so T times a tile's standard cost is at least the
 *   layer's best alone (its proven lower bound), and the fused cost of a
 *   tile at least its standard cost less the saving of its intermediates
 *   (trim__ft_saving_bound over every word of their tiles read and written
 *   at DRAM and B once).
 * - the root: the per-layer search's own lower bound at the root of the
 *   tile's fused space (trim__mapspace_node_lb, on the standard counts),
 *   less the same saving, or the same bound on the tile without its
 *   intermediates (root_floor says why both hold), the larger, T times;
 *   dearer (the space is built), so the plan sorts the tilings by the
 *   other two and takes this one only for a tiling about to be searched.
 *
 * Above the three: HUGE_VAL when the tile's intermediates alone overflow
 * B (trim__ft_fits_level: every mapping of its fused space keeps them
 * there whole, so none fits; the search proves it only by visiting every
 * factorisation, 20 to 30 s for some of ResNet-18's tiles on eyeriss).
 *
 * With padding on a shared axis the tiles are of several kinds
 * (kinds.c): each floor is then the sum over the kinds of count times a
 * tile's, and the layer's the largest of those sums.
 *
 * test/check_fusedtiles_cut.c checks the floor against the evaluated cost
 * of every tiling of small chains.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "activity/activity_int.h"
#include "fusedtiles_int.h"
#include "search/search_int.h"

static double words_of(const trim__tensor *T)
{
	double w = 1;
	for (int k = 0; k < T->ndims; k++)
		w *= (double)T->extent[k];
	return w;
}

/* Per tile: the compulsory floor of `tile` whose intermediates are
 * `fused`. */
static double compulsory(const trim__intra *tile, unsigned fused, const struct trim_arch *a,
                         const trim__level_cost *costs, int goal)
{
	double in = 0, out = 0;
	for (int t = 0; t < 3; t++) {
		if ((fused >> t & 1) || !tile->t[t].present || tile->t[t].has_zeros)
			continue;
		if (t == 2)
			out += words_of(&tile->t[t]);
		else
			in += words_of(&tile->t[t]);
	}
	const trim__level *D = &a->lv[0];
	if (goal == TRIM__GOAL_DELAY) {
		double inst = (double)(D->instances > 0 ? D->instances : 1);
		double rc = D->read_bw > 0 ? in / (D->read_bw * inst) : 0;
		double wc = D->write_bw > 0 ? out / (D->write_bw * inst) : 0;
		return rc > wc ? rc : wc;
	}
	double macs = 0;
	for (int l = 0; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_COMPUTE) {
			double m = costs[l].mac_pj < costs[l].gated_mac_pj ? costs[l].mac_pj : costs[l].gated_mac_pj;
			macs = m > 0 ? (double)tile->macs * m : 0;
		}
	double pj = costs[0].read_pj;
	if (costs[0].write_pj < pj)
		pj = costs[0].write_pj;
	if (costs[0].update_pj < pj)
		pj = costs[0].update_pj;
	return macs + (pj > 0 ? (in + out) * pj : 0);
}

/* Per tile: at least what the fused home of the intermediates `fused`
 * saves on any mapping of `tile` (every word of their tiles read and
 * written at DRAM, the input filled into B, the output drained from it). */
static double saving(const trim__intra *tile, unsigned fused, const struct trim_arch *a,
                     const trim__level_cost *costs, int B, int goal)
{
	trim__ft_removed r;
	memset(&r, 0, sizeof r);
	if ((fused & TRIM__FT_IN) && tile->t[0].present) {
		int64_t w = (int64_t)words_of(&tile->t[0]);
		r.rd[0] += w;
		r.fill[B] += w;
	}
	if ((fused & TRIM__FT_OUT) && tile->t[2].present) {
		int64_t w = (int64_t)words_of(&tile->t[2]);
		r.rd[0] += w;
		r.fill[0] += w;
		r.upd[0] += w;
		r.rd[B] += w;
	}
	return trim__ft_saving_bound(a, costs, B, &r, goal);
}

/* The per-layer search's own bound at the root of the fused space of
 * `tile` (intermediates `fused`; standard counts, lib/search/node_bound.c)
 * with zero_macs zero MACs: HUGE_VAL when nothing obeys the space's pins,
 * 0 when the space cannot be built (no floor). */
static double root_bound(const trim__intra *tile, unsigned fused, int64_t zero_macs, const struct trim_arch *a,
                         const trim__level_cost *costs, int B, int goal)
{
	trim__mapspace s;
	int rc = fused ? trim__ft_space_init(&s, tile, a, B, fused) : trim__mapspace_init(&s, tile, a);
	if (rc)
		return rc == TRIM_ENOFIT ? HUGE_VAL : 0;
	double lb = 0;
	trim__mapping root;
	trim__eval *ev = trim__calloc(1, sizeof *ev);
	stationary_workspace *sw = trim__stationary_workspace_new();
	if (ev && sw) {
		trim__space_mapping_init(&s, &root);
		trim__mapspace_node_lb(&s, costs, goal, 0, zero_macs, &root, ev, &lb, sw);
	}
	trim__stationary_workspace_free(sw);
	free(ev);
	trim__mapspace_free(&s);
	return lb;
}

/* Per tile: the larger of two floors on the fused cost of every mapping m
 * of the tile's fused space (HUGE_VAL when nothing obeys its pins):
 * - the root's bound on the standard counts less the saving: the fused
 *   cost is the standard cost less the counts the home removes, which the
 *   saving bounds;
 * - the root's bound of the tile without its intermediates (their tensors
 *   absent, the same zero MACs): the fused cost of m is at least the
 *   standard cost of m without them (the same factors, orders and keep
 *   bits of the other tensors, a mapping of that space: the pins are the
 *   same and B holds less), whose counts are those of the other tensors,
 *   a subset of m's that the home move leaves, with the same MACs, and
 *   whose cycles (a maximum over levels of counts over bandwidths, and the
 *   compute's) are at most m's fused cycles. The first floor charges an
 *   intermediate's compulsory DRAM and B words once in the root's bound
 *   but takes off every word the home may save (reads, fills, updates:
 *   more than the root charged), so on a tile whose intermediates carry
 *   most of its DRAM words the second is the larger (the first was below
 *   the compulsory floor on MobileNet-V2's first layers). */
static double root_floor(const trim__intra *tile, unsigned fused, const struct trim_arch *a,
                         const trim__level_cost *costs, int B, int goal)
{
	int64_t zero_macs = 0;
	if (trim__intra_act_zero_macs(tile, &zero_macs))
		return 0;
	double lb = root_bound(tile, fused, zero_macs, a, costs, B, goal);
	if (lb == HUGE_VAL)
		return lb;
	lb -= saving(tile, fused, a, costs, B, goal);
	if (fused) {
		double lr = trim__ft_root_floor_rest(tile, fused, a, costs, B, goal);
		if (lr > lb)
			lb = lr;
	}
	return lb;
}

double trim__ft_root_floor_rest(const trim__intra *tile, unsigned fused, const struct trim_arch *a,
                                const trim__level_cost *costs, int B, int goal)
{
	int64_t zero_macs = 0;
	if (trim__intra_act_zero_macs(tile, &zero_macs))
		return 0;
	trim__intra rest = *tile;
	if (fused & TRIM__FT_IN)
		rest.t[0].present = 0;
	if (fused & TRIM__FT_OUT)
		rest.t[2].present = 0;
	return root_bound(&rest, fused, zero_macs, a, costs, B, goal);
}

void trim__ft_floor_add(trim__ft_floor *f, const trim__intra *tile, unsigned fused, int64_t count, int root,
                        const struct trim_arch *a, const trim__level_cost *costs, int B, int goal)
{
	const double T = (double)count;
	f->nofit |= fused && !trim__ft_fits_level(tile, a, B, fused, 0);
	f->compulsory += T * compulsory(tile, fused, a, costs, goal);
	f->saving += T * saving(tile, fused, a, costs, B, goal);
	if (root)
		f->root += T * root_floor(tile, fused, a, costs, B, goal);
}

double trim__ft_floor_value(const trim__ft_floor *f, int partitioned, double alone_lb, int root)
{
	if (f->nofit)
		return HUGE_VAL;
	double floor_ = f->compulsory;
	if (root && f->root > floor_)
		floor_ = f->root;
	if (!partitioned)
		return floor_;
	double alone = alone_lb - f->saving;
	return alone > floor_ ? alone : floor_;
}
