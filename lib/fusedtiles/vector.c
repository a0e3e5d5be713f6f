/*
 * The vector work on an intermediate between two layers of a chain (a
 * softmax between attention's scores and its context; docs/fusion.md,
 * "Vector work between layers"): costed as the inter-layer model costs it
 * (lib/eval/netcost.c: the tensor read once and written once where it
 * lives, cycles its words over that level's bandwidth, no leakage), with
 * the tensor in DRAM when the chain is cut there and in the buffer level B,
 * one tile at a time, when both layers are in one fused group.
 */
#include "fusedtiles_int.h"

/* Cycles to read rd and write wr words at level L; 0 if unlimited. */
static double move_cycles(const trim__level *L, double rd, double wr)
{
	double c = 0;
	if (L->read_bw > 0 && rd / L->read_bw > c)
		c = rd / L->read_bw;
	if (L->write_bw > 0 && wr / L->write_bw > c)
		c = wr / L->write_bw;
	return c;
}

double trim__ft_vec_cost(const trim__intra *producer, const struct trim_arch *a, const trim__level_cost *costs,
                         int l, int goal, double *dram_bytes)
{
	const trim__tensor *o = &producer->t[2];
	double elems = 1;
	for (int k = 0; k < o->ndims; k++)
		elems *= (double)o->extent[k];
	if (dram_bytes) {
		int bits = a->lv[0].word_bits > 0 ? a->lv[0].word_bits : (a->word_bits > 0 ? a->word_bits : 16);
		*dram_bytes = l == 0 ? 2 * elems * bits / 8 : 0;
	}
	if (goal == TRIM__GOAL_DELAY)
		return move_cycles(&a->lv[l], elems, elems);
	return elems * (costs[l].read_pj + costs[l].write_pj);
}
