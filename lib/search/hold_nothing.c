/*
 * A storage level that holds nothing (`keep: []`, or keeping only tensors
 * the workload does not have) carries temporal loops and nothing else. Its
 * loops and those of the storage level right above it form one run of the
 * loop nest, so a mapping whose upper level has loops on dims the level
 * that holds nothing has no loop on has the same nest, hence the same
 * activities and cost, as the mapping with those loops moved to the top of
 * the lower level's order, and that mapping has a smaller index. The tree
 * cuts the first as an exact tie (docs/model.md, "Mapspace and search",
 * "A level that holds nothing").
 */
#include "search_int.h"

/* 1 if tree slot i is the tree's last (it takes the rest of every dim). */
static int takes_the_rest(const trim__mapspace *s, int i)
{
	return s->tord[s->nslots - 1] == i;
}

int trim__hold_nothing_parent(const trim__mapspace *s, int i)
{
	if (i <= 0 || i >= s->nslots || s->topk > 1 || s->nobound || s->imperfect || takes_the_rest(s, i))
		return -1;
	const int l = s->slot[i], up = s->slot[i - 1];
	const trim__level *L = &s->a->lv[l], *U = &s->a->lv[up];
	/* the loops of the two levels must be adjacent in the nest: no level
	 * (a spatial one) between them */
	if (up != l - 1 || L->type != TRIM__LVL_STORAGE || U->type != TRIM__LVL_STORAGE)
		return -1;
	for (int t = 0; t < 3; t++)
		if (L->keep[t] && s->w->t[t].present)
			return -1;
	/* the moved mapping must be in the space: no pin or cap on either
	 * level, no permutation constraint on the lower one (the moved loops
	 * go outside its own) */
	if (s->ncperm[l] > 0)
		return -1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (s->pin[up][d] || s->pin[l][d] || s->fmax[l][d])
			return -1;
	return i - 1;
}

int trim__hold_nothing_dominated(const trim__mapspace *s, int i)
{
	const struct trim_arch *a = s->a;
	for (int l = s->slot[i] + 1; l < a->nlevels; l++)
		for (int t = 0; t < 3; t++)
			if (a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].keep[t] && s->w->t[t].present &&
			    (t == 2 || s->dslide[t]))
				return 0;
	return 1;
}

int trim__hold_nothing_moved(const trim__mapspace *s, int64_t *const *trows, int i, const int32_t *lo,
                             int dominated)
{
	unsigned above = 0, here = 0;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		const int64_t *row = s->fact[d] + trows[d][lo[d]] * s->nslots;
		above |= (unsigned)(row[i - 1] > 1) << d;
		here |= (unsigned)(row[i] > 1) << d;
	}
	return above && (dominated || !(above & here));
}
