/*
 * The fused counts of one layer's mapping: its intermediates live in the
 * buffer level B instead of DRAM (docs/fusion.md, "Fused tiles").
 */
#include <stdlib.h>
#include <string.h>

#include "fusedtiles_int.h"
#include "mapping/mapping_int.h"

int trim__ft_check_level(const trim__intra *w, const struct trim_arch *a, int B, unsigned fused)
{
	if (B < 1 || B >= a->nlevels || a->lv[B].type != TRIM__LVL_STORAGE)
		return trim__error(TRIM_EINVAL,
		                   "fused tiles: the buffer level must be a storage level below the outermost "
		                   "(level %d of %s is not)", B, a->name);
	for (int l = 0; l < B; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			return trim__error(TRIM_EINVAL,
			                   "fused tiles: buffer level '%s' of %s lies below spatial level '%s': "
			                   "choose a level above every spatial level (one instance)",
			                   a->lv[B].name, a->name, a->lv[l].name);
	for (int t = 0; t < 3; t += 2)
		if ((fused >> t & 1) && (!w->t[t].present || !a->lv[B].keep[t]))
			return trim__error(TRIM_EINVAL, "fused tiles: level '%s' of %s may not hold %s (layer '%s'): "
			                   "the intermediate of a fused group lives in the buffer level",
			                   a->lv[B].name, a->name, w->t[t].name, w->layer);
	return 0;
}

int trim__ft_fits_level(const trim__intra *w, const struct trim_arch *a, int B, unsigned fused, int64_t held)
{
	const trim__level *L = &a->lv[B];
	if (!fused || L->capacity_bytes <= 0)
		return 1;
	/* a mapping with every loop at B: its tiles there are those of every
	 * mapping of the fused space (no loops above B), counted as the
	 * evaluator and the search count them */
	trim__mapping *m = calloc(1, sizeof *m);
	if (!m)
		return 1; /* no proof: the search decides */
	m->nlevels = a->nlevels;
	for (int l = 0; l < a->nlevels; l++)
		for (int d = 0; d < TRIM_NDIMS; d++)
			m->f[l][d] = l == B ? w->bound[d] : 1;
	const int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
	int64_t total = 0;
	int fits = 1;
	for (int t = 0; t < 3; t++) {
		if (!(fused >> t & 1) || !w->t[t].present)
			continue;
		int64_t bytes = (trim__mapping_tile_elems(m, w, B, t) * bits + 7) / 8 * (L->double_buffer ? 2 : 1);
		if (L->partitioned && bytes > L->part_bytes[t])
			fits = 0;
		total += bytes;
	}
	free(m);
	/* as trim__mapping_check_reserved counts the bytes held beside them */
	return fits && !((!L->partitioned || held > 0) && total + held > L->capacity_bytes);
}

void trim__ft_eval_fused(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                         const trim__mapping *m, int B, unsigned fused, const trim__eval *std,
                         trim__eval *out, trim__ft_removed *removed)
{
	trim__ft_removed r;
	memset(&r, 0, sizeof r);
	if (out != std)
		*out = *std;
	trim__activity *x = &out->act;
	for (int t = 0; t < 3; t++) {
		if (!(fused >> t & 1))
			continue;
		/* an output also written: drained from B to DRAM as the standard
		 * counts have it (no loops above B: each element of the tile once) */
		if (t == 2 && (fused & TRIM__FT_WRITE))
			continue;
		/* above B: the tensor is not there */
		for (int l = 0; l < B; l++) {
			r.rd[l] += x->reads[l][t] + x->drains[l][t];
			r.fill[l] += x->fills[l][t];
			r.upd[l] += x->updates[l][t];
			x->reads[l][t] = x->drains[l][t] = x->fills[l][t] = x->updates[l][t] = 0;
			x->tile[l][t] = 0;
		}
		/* B is its home: nothing comes in from above or goes out to it */
		r.fill[B] += x->fills[B][t];
		r.rd[B] += x->drains[B][t];
		x->fills[B][t] = x->drains[B][t] = 0;
	}
	trim__eval_act(w, a, costs, m, out);
	if (removed)
		*removed = r;
}

double trim__ft_saving_bound(const struct trim_arch *a, const trim__level_cost *costs, int B,
                             const trim__ft_removed *r, int goal)
{
	/* max(p, q) - max(p - x, q - y) <= max(x, y): per level, the most
	 * cycles its reads or its writes lose; the cycles (a max over
	 * levels) lose at most the most of those */
	double cyc = 0, dyn = 0, leak = 0;
	for (int l = 0; l <= B; l++) {
		const trim__level *L = &a->lv[l];
		double inst = (double)(L->instances > 0 ? L->instances : 1);
		double rc = L->read_bw > 0 ? (double)r->rd[l] / (L->read_bw * inst) : 0;
		double wc = L->write_bw > 0 ? (double)(r->fill[l] + r->upd[l]) / (L->write_bw * inst) : 0;
		if (rc > cyc)
			cyc = rc;
		if (wc > cyc)
			cyc = wc;
		dyn += (double)r->rd[l] * costs[l].read_pj + (double)r->fill[l] * costs[l].write_pj +
		       (double)r->upd[l] * costs[l].update_pj;
	}
	if (goal == TRIM__GOAL_DELAY)
		return cyc;
	for (int l = 0; l < a->nlevels; l++)
		leak += costs[l].leak_pj_per_cycle * (double)(a->lv[l].instances > 0 ? a->lv[l].instances : 1);
	return dyn + leak * cyc;
}

double trim__ft_dram_bytes(const struct trim_arch *a, const trim__eval *e)
{
	const trim__activity *x = &e->act;
	int bits = a->lv[0].word_bits > 0 ? a->lv[0].word_bits : (a->word_bits > 0 ? a->word_bits : 16);
	double words = 0;
	for (int t = 0; t < 3; t++)
		words += (double)(x->reads[0][t] + x->drains[0][t] + x->fills[0][t] + x->updates[0][t]);
	return words * bits / 8;
}
