/*
 * The plan of a chain: where to cut it into groups, and each fused group's
 * tiling, searched exactly (docs/fusion.md, "Fused tiles").
 *
 * A group of one layer is the layer searched alone (the layer-by-layer
 * plan is the plan of such groups only, so fusion never reports worse). A
 * group a..b of two or more layers tries every tiling of its shared axes
 * (every tile count dividing each axis's bound) and, per tiling, searches
 * each layer's tile workload (layer_search.c); its cost is T times the
 * sum of the layers' per-tile costs. Costs add over groups (energy, and
 * cycles: groups, tiles and layers run one after another), so the best
 * plan is a dynamic programme over prefixes: best[j] = min over i < j of
 * best[i] + group(i..j-1), on equal costs the plan whose last group is
 * shortest. The same programme over the proven lower bounds gives the
 * bound of every plan. Each layer search runs once per (layer, tile
 * bounds, intermediates): a memo serves the other groups.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fusedtiles_int.h"

#define FT_MAX_TILINGS 100000

typedef struct {
	int layer;
	unsigned fused;
	int64_t bound[TRIM_NDIMS];
	trim__ft_layer_result r;
} memo_entry;

typedef struct {
	memo_entry *e;
	size_t n, cap;
	int64_t searches;
} memo;

static int memo_search(memo *mo, const trim__intra *w, int layer, const struct trim_arch *a,
                       const trim__level_cost *costs, int B, unsigned fused, int goal, int threads,
                       const trim__ft_layer_result **out)
{
	for (size_t i = 0; i < mo->n; i++)
		if (mo->e[i].layer == layer && mo->e[i].fused == fused &&
		    !memcmp(mo->e[i].bound, w->bound, sizeof w->bound)) {
			*out = &mo->e[i].r;
			return 0;
		}
	if (mo->n == mo->cap) {
		size_t cap = mo->cap ? 2 * mo->cap : 16;
		memo_entry *e = realloc(mo->e, cap * sizeof *e);
		if (!e)
			return trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
		mo->e = e;
		mo->cap = cap;
	}
	memo_entry *e = &mo->e[mo->n];
	e->layer = layer;
	e->fused = fused;
	memcpy(e->bound, w->bound, sizeof w->bound);
	int rc = trim__ft_layer_search(w, a, costs, B, fused, goal, threads, &e->r);
	if (rc)
		return rc;
	mo->n++;
	mo->searches++;
	*out = &e->r;
	return 0;
}

/* The divisors of b, ascending. */
static int divisors(int64_t b, int64_t **out, int *n)
{
	int cnt = 0;
	for (int64_t d = 1; d <= b; d++)
		cnt += b % d == 0;
	*out = malloc((size_t)cnt * sizeof **out);
	if (!*out)
		return trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
	*n = 0;
	for (int64_t d = 1; d <= b; d++)
		if (b % d == 0)
			(*out)[(*n)++] = d;
	return 0;
}

/* A group's best tiling and its bound. */
/* A lower bound on the energy of layer i's tile in group a0..b0: its MACs
 * at the least MAC energy (zero-gated or not), and every word of each
 * tensor that is not an intermediate of the group (nothing of it is above
 * B between tiles) crossing DRAM at least once per tile, at the least of
 * DRAM's read, write and update energies. */
static double compulsory_pj(const trim__intra *tile, int i, int a0, int b0, const struct trim_arch *a,
                            const trim__level_cost *costs)
{
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
	if (!(pj > 0))
		return macs;
	double words = 0;
	for (int t = 0; t < 3; t++) {
		if ((t == 0 && i > a0) || (t == 2 && i < b0) || !tile->t[t].present || tile->t[t].has_zeros)
			continue;
		double w = 1;
		for (int k = 0; k < tile->t[t].ndims; k++)
			w *= (double)tile->t[t].extent[k];
		words += w;
	}
	return macs + words * pj;
}

typedef struct {
	int feasible;
	trim__ft_axes ax;
	int64_t tiles[TRIM__FT_MAX_AXES];
	double cost, lower_bound;
} group_best;

static int search_group(const trim__ft_chain *c, int a0, int b0, const struct trim_arch *arch,
                        const trim__level_cost *costs, int B, int goal, int threads, memo *mo,
                        trim__intra *tile, group_best *g)
{
	memset(g, 0, sizeof *g);
	g->lower_bound = HUGE_VAL;
	trim__ft_group_axes(c, a0, b0, &g->ax);
	int64_t *div[TRIM__FT_MAX_AXES] = {0};
	int ndiv[TRIM__FT_MAX_AXES], pos[TRIM__FT_MAX_AXES] = {0};
	int rc = 0;
	double combos = 1;
	for (int x = 0; x < g->ax.naxes && !rc; x++)
		if ((rc = divisors(g->ax.bound[x], &div[x], &ndiv[x])) == 0)
			combos *= ndiv[x];
	if (!rc && combos > FT_MAX_TILINGS)
		rc = trim__error(TRIM_ERANGE, "fused tiles: layers '%s'..'%s' have %.0f tilings, more than %d",
		                 c->layer[a0]->layer, c->layer[b0]->layer, combos, FT_MAX_TILINGS);
	for (int more = !rc; more;) {
		int64_t tiles[TRIM__FT_MAX_AXES], T = 1;
		for (int x = 0; x < g->ax.naxes; x++)
			T *= tiles[x] = div[x][pos[x]];
		double cost = 0, lb = 0;
		int fits = 1;
		if (goal == TRIM__GOAL_ENERGY && g->feasible) {
			/* skip a tiling whose compulsory DRAM energy alone reaches the
			 * best so far: it cannot replace it (only a lower cost does), and
			 * that energy bounds it for the group's lower bound */
			double floor = 0;
			for (int i = 0; i <= b0 - a0 && !rc; i++)
				if (!(rc = trim__ft_tile_workload(c, a0, &g->ax, tiles, i, tile, NULL)))
					floor += compulsory_pj(tile, a0 + i, a0, b0, arch, costs);
			floor *= (double)T;
			if (!rc && floor >= g->cost) {
				if (floor < g->lower_bound)
					g->lower_bound = floor;
				fits = 0;
			}
		}
		for (int i = 0; i <= b0 - a0 && fits && !rc; i++) {
			unsigned fused = (i > 0 ? TRIM__FT_IN : 0u) | (i < b0 - a0 ? TRIM__FT_OUT : 0u);
			const trim__ft_layer_result *r = NULL;
			if ((rc = trim__ft_tile_workload(c, a0, &g->ax, tiles, i, tile, NULL)) ||
			    (rc = memo_search(mo, tile, a0 + i, arch, costs, B, fused, goal, threads, &r)))
				break;
			fits = r->found;
			cost += r->cost;
			lb += r->lower_bound;
			if (i < b0 - a0 && c->vec[a0 + i]) { /* the softmax on this tile, in B */
				double v = trim__ft_vec_cost(tile, arch, costs, B, goal, NULL);
				cost += v;
				lb += v;
			}
		}
		if (rc)
			break;
		if (fits) {
			cost *= (double)T;
			lb *= (double)T;
			if (lb < g->lower_bound)
				g->lower_bound = lb;
			if (!g->feasible || cost < g->cost) {
				g->feasible = 1;
				g->cost = cost;
				memcpy(g->tiles, tiles, sizeof tiles);
			}
		}
		/* next tiling: the last axis fastest */
		int x = g->ax.naxes - 1;
		while (x >= 0 && ++pos[x] == ndiv[x])
			pos[x--] = 0;
		more = x >= 0;
	}
	for (int x = 0; x < TRIM__FT_MAX_AXES; x++)
		free(div[x]);
	return rc;
}

/* Fill the plan's group k for layers a0..b0 with tiling g (NULL: a single
 * layer alone) from the memo. */
static int fill_group(trim__ft_plan *p, const trim__ft_chain *c, int a0, int b0, const group_best *g,
                      const struct trim_arch *arch, const trim__level_cost *costs, int B, int goal,
                      int threads, memo *mo)
{
	trim__ft_group *G = &p->group[p->ngroups++];
	static const trim__ft_axes none;
	const trim__ft_axes *ax = g ? &g->ax : &none;
	int64_t ones[TRIM__FT_MAX_AXES] = {1, 1, 1, 1, 1};
	const int64_t *tiles = g ? g->tiles : ones;
	memset(G, 0, sizeof *G);
	G->first = a0;
	G->last = b0;
	G->naxes = ax->naxes;
	G->ntiles = 1;
	for (int x = 0; x < ax->naxes; x++) {
		G->dim[x] = ax->dim[x][0];
		G->tiles[x] = tiles[x];
		G->ntiles *= tiles[x];
	}
	for (int i = 0; i <= b0 - a0; i++) {
		unsigned fused = (i > 0 ? TRIM__FT_IN : 0u) | (i < b0 - a0 ? TRIM__FT_OUT : 0u);
		const trim__ft_layer_result *r = NULL;
		int rc = trim__ft_tile_workload(c, a0, ax, tiles, i, &p->tile[a0 + i], NULL);
		if (!rc)
			rc = memo_search(mo, &p->tile[a0 + i], a0 + i, arch, costs, B, fused, goal, threads, &r);
		if (rc)
			return rc;
		p->map[a0 + i] = r->best;
		p->eval[a0 + i] = r->eval;
		G->dram_bytes += (double)G->ntiles * trim__ft_dram_bytes(arch, &r->eval);
		if (b0 > a0 && r->eval.cap_bytes[B] > G->buffer_bytes)
			G->buffer_bytes = r->eval.cap_bytes[B];
	}
	if (a0 > 0 && c->vec[a0 - 1]) { /* the softmax before the group, in DRAM */
		double bytes = 0;
		trim__ft_vec_cost(c->layer[a0 - 1], arch, costs, 0, goal, &bytes);
		G->dram_bytes += bytes;
	}
	G->cost = g ? g->cost : 0;
	G->lower_bound = g ? g->lower_bound : 0;
	return 0;
}

int trim__ft_plan_search(const trim__ft_chain *c, const struct trim_arch *a, const trim__level_cost *costs,
                         int B, int goal, int threads, int first_fuse, int last_fuse, trim__ft_plan *out)
{
	memset(out, 0, sizeof *out);
	out->goal = goal;
	out->level = B;
	int rc = trim__ft_chain_check(c);
	if (rc)
		return rc;
	const int n = c->nlayers;
	memo mo = {0};
	trim__intra *tile = trim__calloc(1, sizeof *tile);
	group_best *gb = trim__calloc((size_t)n * (size_t)n, sizeof *gb);
	double best[TRIM__FT_MAX_LAYERS + 1], lb[TRIM__FT_MAX_LAYERS + 1];
	int from[TRIM__FT_MAX_LAYERS + 1];
	if (!tile || !gb) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	/* the groups: a single layer searched alone, longer ones fused */
	for (int a0 = 0; a0 < n && !rc; a0++)
		for (int b0 = a0; b0 < n && !rc; b0++) {
			group_best *g = &gb[a0 * n + b0];
			if (a0 == b0) {
				const trim__ft_layer_result *r = NULL;
				if ((rc = memo_search(&mo, c->layer[a0], a0, a, costs, B, 0, goal, threads, &r)))
					break;
				if (!r->found) {
					rc = trim__error(TRIM_ENOFIT, "fused tiles: no mapping of layer '%s' fits %s",
					                 c->layer[a0]->layer, a->name);
					break;
				}
				g->feasible = 1;
				g->cost = r->cost;
				g->lower_bound = r->lower_bound;
			} else if (first_fuse < 0 || (a0 >= first_fuse && b0 <= last_fuse)) {
				rc = search_group(c, a0, b0, a, costs, B, goal, threads, &mo, tile, g);
			}
			if (g->feasible && a0 > 0 && c->vec[a0 - 1]) {
				/* the chain cut before a0: the softmax between a0 - 1 and a0 in DRAM */
				double v = trim__ft_vec_cost(c->layer[a0 - 1], a, costs, 0, goal, NULL);
				g->cost += v;
				g->lower_bound += v;
			}
		}
	if (rc)
		goto out;
	best[0] = lb[0] = 0;
	for (int j = 1; j <= n; j++) {
		best[j] = lb[j] = HUGE_VAL;
		from[j] = -1;
		for (int i = j - 1; i >= 0; i--) {
			const group_best *g = &gb[i * n + j - 1];
			if (!g->feasible)
				continue;
			if (best[i] + g->cost < best[j]) {
				best[j] = best[i] + g->cost;
				from[j] = i;
			}
			if (lb[i] + g->lower_bound < lb[j])
				lb[j] = lb[i] + g->lower_bound;
		}
	}
	/* the groups, last first, then reversed */
	int cuts[TRIM__FT_MAX_LAYERS + 1], ncuts = 0;
	for (int j = n; j > 0; j = from[j])
		cuts[ncuts++] = j;
	for (int k = ncuts - 1; k >= 0 && !rc; k--) {
		int j = cuts[k], i = from[j];
		rc = fill_group(out, c, i, j - 1, i == j - 1 ? NULL : &gb[i * n + j - 1], a, costs, B, goal, threads,
		                &mo);
		out->group[out->ngroups - 1].cost = gb[i * n + j - 1].cost;
		out->group[out->ngroups - 1].lower_bound = gb[i * n + j - 1].lower_bound;
	}
	if (rc)
		goto out;
	out->cost = best[n];
	out->lower_bound = lb[n];
	out->exact = lb[n] >= best[n];
	for (int k = 0; k < out->ngroups; k++) {
		out->dram_bytes += out->group[k].dram_bytes;
		if (out->group[k].buffer_bytes > out->buffer_bytes)
			out->buffer_bytes = out->group[k].buffer_bytes;
	}
	for (int i = 0; i < n; i++) {
		const group_best *g = &gb[i * n + i];
		out->lbl_cost += g->cost;
		if (i > 0 && c->vec[i - 1]) {
			double bytes = 0;
			trim__ft_vec_cost(c->layer[i - 1], a, costs, 0, goal, &bytes);
			out->lbl_dram_bytes += bytes;
		}
		for (size_t k = 0; k < mo.n; k++)
			if (mo.e[k].layer == i && mo.e[k].fused == 0 &&
			    !memcmp(mo.e[k].bound, c->layer[i]->bound, sizeof mo.e[k].bound))
				out->lbl_dram_bytes += trim__ft_dram_bytes(a, &mo.e[k].r.eval);
	}
	out->searches = mo.searches;
out:
	free(mo.e);
	free(tile);
	free(gb);
	return rc;
}
