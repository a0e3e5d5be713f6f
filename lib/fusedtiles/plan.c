/*
 * The plan of a chain: where to cut it into groups, and each fused group's
 * tiling, searched exactly (docs/fusion.md, "Fused tiles", "The search").
 *
 * A group of one layer is the layer searched alone (the layer-by-layer
 * plan is the plan of such groups only, so fusion never reports worse). A
 * group a..b of two or more layers has every tiling of its shared axes
 * (every tile count dividing each axis's bound) as a candidate, with its
 * halo recomputed and, where it has one to keep, kept; its cost
 * is T times the sum of its layers' per-tile costs, each layer's tile
 * workload searched by layer_search.c (through the cache, cache.c); with
 * padding on a shared axis, the sum over the kinds of tiles (kinds.c) of
 * count times a tile's.
 * Groups are searched shortest first, each against `limit`: the best split
 * of its layers into shorter groups (a group costing that much is never in
 * the best plan: the shorter last group wins ties). Its tilings go best
 * floor first (bound.c); a tiling is searched only while its floor can
 * beat both the group's best so far and the limit, and within a tiling
 * the layers one after another, and within a layer its kinds of tiles
 * dearest floor first, each search's result replacing its floor, the rest
 * skipped once the tiling cannot win (ResNet-18's block pairs on eyeriss:
 * the interior kind, most of the tiles, decides it). What is not searched
 * is bounded by its floor in the group's lower bound.
 *
 * Costs add over groups (energy, and cycles: groups, tiles and layers run
 * one after another), so the best plan is a dynamic programme over
 * prefixes: best[j] = min over i < j of best[i] + group(i..j-1), on equal
 * costs the plan whose last group is shortest. The same programme over
 * the proven lower bounds gives the bound of every plan. With a deadline,
 * the tilings not reached by then are bounded by their floors (the group
 * is `open`); the layers alone are always searched (each given the time
 * left), so the layer-by-layer plan is always a candidate. With a deadline
 * a probe runs between the layers alone and the groups (search_groups):
 * the groups longest first, each its first tilings best floor first until
 * one fits (those whose floor is below its layers alone), for at most half
 * the time left, so that the long groups, which
 * save the most and come last, have a plan when the deadline stops the
 * search; the search starts each group from its probe's tiling (the same
 * plan when nothing stops it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fusedtiles_int.h"

#define FT_MAX_TILINGS 100000
/* a probe's tilings per group, at most (search_groups) */
#define FT_PROBE_TILINGS 3

/* What one plan search holds. */
typedef struct {
	const trim__ft_chain *c;
	const struct trim_arch *a;
	const trim__level_cost *costs;
	int B;
	const trim__ft_plan_opts *o;
	trim__ft_cache *cache;
	trim__intra *tile;
	double alone_lb[TRIM__FT_MAX_LAYERS]; /* each layer's proven lower bound alone */
	int64_t tilings, pruned;
	int stopped;
	/* > 0: a probe (search_groups) searches at most this many tilings of a
	 * group, until one fits, with probe_deadline for its own */
	int probe;
	double probe_deadline;
} plan_ctx;

/* The divisors of b, ascending (trim__divisors), into a new array. */
static int divisors(int64_t b, int64_t **out, int *n)
{
	enum { MAXDIV = 4096 }; /* no b below 2^32 has more than 1,344 */
	int64_t dv[MAXDIV];
	*n = trim__divisors(b, dv, MAXDIV);
	if (*n < 0)
		return trim__error(TRIM_ERANGE, "fused tiles: %lld has more than %d divisors", (long long)b, MAXDIV);
	*out = malloc((size_t)(*n > 0 ? *n : 1) * sizeof **out);
	if (!*out)
		return trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
	memcpy(*out, dv, (size_t)*n * sizeof **out);
	return 0;
}

typedef struct {
	int feasible, open;   /* a tiling found; candidates left unsearched by the deadline */
	trim__ft_axes ax;
	int64_t tiles[TRIM__FT_MAX_AXES];
	int64_t index;        /* the best tiling's place in the enumeration (ties) */
	int keep;             /* its kept halo (trim__ft_axes.keep) */
	double cost, lower_bound;
} group_best;

/* A tiling with its halos recomputed (index 2 k, k its place in the
 * enumeration, the last axis fastest) or kept on an axis (2 k + 1; keep 1
 * + that axis), and its floor. */
typedef struct {
	double floor_;
	int64_t index;
	int keep;
} candidate;

static int candidate_cmp(const void *p, const void *q)
{
	const candidate *x = p, *y = q;
	if (x->floor_ != y->floor_)
		return x->floor_ < y->floor_ ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* The tile counts of tiling `index`. */
static void tiling_of(const trim__ft_axes *ax, int64_t *const *div, const int *ndiv, int64_t index,
                      int64_t *tiles, int64_t *T)
{
	*T = 1;
	for (int x = ax->naxes - 1; x >= 0; x--) {
		tiles[x] = div[x][index % ndiv[x]];
		index /= ndiv[x];
		*T *= tiles[x];
	}
}

static unsigned fused_bits(const plan_ctx *x, int i, int n)
{
	return (i > 0 ? TRIM__FT_IN : 0u) | (i < n - 1 ? TRIM__FT_OUT | (x->c->written ? TRIM__FT_WRITE : 0u) : 0u);
}

/* The bits of a word at level l (as the capacity check counts them). */
static int bits_of(const struct trim_arch *a, int l)
{
	return a->lv[l].word_bits > 0 ? a->lv[l].word_bits : (a->word_bits > 0 ? a->word_bits : 16);
}

/* The bytes reserved per level while layer a0 + i of group a0..b0 runs
 * the tile at pos: the cached activations of the network, and with its
 * halo kept the rows of the other intermediates B holds. */
static void tile_reserved(const plan_ctx *x, int a0, int b0, const trim__ft_axes *ax, const int64_t *tiles,
                          const int64_t *pos, int i, int64_t *res)
{
	trim__ft_group_reserved(x->c, a0, b0, res);
	res[x->B] += trim__ft_kept_bytes(x->c, a0, ax, tiles, pos, i, bits_of(x->a, x->B));
}

/* 1 if layer i's tile (x->tile) has 1 / tiles[k] of the layer's rows on
 * every shared axis. */
static int tile_partitions(const plan_ctx *x, int a0, const trim__ft_axes *ax, const int64_t *tiles, int i)
{
	int partitioned = 1;
	for (int k = 0; k < ax->naxes; k++)
		partitioned &= x->tile->bound[ax->dim[k][i]] * tiles[k] == x->c->layer[a0 + i]->bound[ax->dim[k][i]];
	return partitioned;
}

/* The floor of group a0..b0 under `tiles` (bound.c), over its kinds of
 * tiles cl, the vector work on the tiles in B included; per_layer (NULL:
 * not wanted) receives each layer's, per_kind (NULL: not wanted; layer i's
 * kind k at i * cl->total + k) each kind's alone: count times a tile's
 * compulsory or root floor, the larger (HUGE_VAL when its intermediates
 * overflow B), its vector work added. */
static int group_floor(plan_ctx *x, int a0, int b0, const trim__ft_axes *ax, const int64_t *tiles,
                       const trim__ft_classes *cl, int root, double *out, double *per_layer, double *per_kind)
{
	double f = 0;
	int64_t pos[TRIM__FT_MAX_AXES];
	for (int i = 0; i <= b0 - a0; i++) {
		trim__ft_floor fl = {0, 0, 0, 0};
		double vec = 0;
		int partitioned = 1;
		for (int64_t k = 0; k < cl->total; k++) {
			int64_t count = trim__ft_class_at(cl, ax->naxes, k, pos);
			int rc = trim__ft_tile_workload(x->c, a0, ax, tiles, pos, i, x->tile, NULL);
			if (rc)
				return rc;
			partitioned &= tile_partitions(x, a0, ax, tiles, i);
			trim__ft_floor kf = {0, 0, 0, 0};
			trim__ft_floor_add(&kf, x->tile, fused_bits(x, i, b0 - a0 + 1), count, root, x->a, x->costs, x->B,
			                   x->o->goal);
			fl.compulsory += kf.compulsory;
			fl.root += kf.root;
			fl.saving += kf.saving;
			fl.nofit |= kf.nofit;
			double v = 0;
			if (i < b0 - a0 && x->c->vec[a0 + i])
				v = (double)count * x->c->vec[a0 + i] *
				    trim__ft_vec_cost(x->tile, x->a, x->costs, x->B, x->o->goal, NULL);
			vec += v;
			if (per_kind)
				per_kind[i * cl->total + k] = trim__ft_floor_value(&kf, 0, 0, root) + v;
		}
		double fi = trim__ft_floor_value(&fl, partitioned, x->alone_lb[a0 + i], root) + vec;
		if (per_layer)
			per_layer[i] = fi;
		f += fi;
	}
	*out = f;
	return 0;
}

/* Whether a tiling whose cost is at least lb (index k) cannot replace the
 * group's best so far nor beat `limit`. */
static int tiling_loses(const group_best *g, double lb, int64_t k, double limit)
{
	return lb > limit || (g->feasible && (lb > g->cost || (lb == g->cost && k > g->index)));
}

/* What a tiling's searches are held against: the group's best so far, the
 * tiling's place in the enumeration, the limit, and (per layer, as its
 * searches go) the bound on the other layers' costs: those searched, then
 * the floors of those not yet. */
typedef struct {
	const group_best *g;
	int64_t index;
	double limit, others;
} tiling_race;

/* Layer a0 + i of the group under `tiles`: each kind of its tiles searched
 * (through the cache), dearest floor first (kind_floor, layer_floor: its
 * kinds' and its own, group_floor's), the cost and lower bound summed over
 * the kinds (count times a tile's, the vector work on the tile included);
 * 0 in *found when a kind has no mapping. After each kind the layer's bound
 * (the kinds searched, the floors of the others, at least layer_floor) and
 * race->others bound the tiling: once it loses (tiling_loses) while kinds
 * or layers are left, the rest is not searched (*lost 1, *lb that bound). */
static int layer_eval(plan_ctx *x, int a0, int b0, const trim__ft_axes *ax, const int64_t *tiles,
                      const trim__ft_classes *cl, int i, const double *kind_floor, double layer_floor,
                      const tiling_race *race, double *cost, double *lb, int *found, int *lost)
{
	int64_t pos[TRIM__FT_MAX_AXES], res[TRIM__MAX_LEVELS], *order = malloc((size_t)cl->total * sizeof *order);
	if (!order)
		return trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
	double unsearched = 0, searched = 0;
	for (int64_t k = 0; k < cl->total; k++) { /* by floor, dearest first; ties by kind (insertion) */
		int64_t j = k;
		for (; j > 0 && kind_floor[order[j - 1]] < kind_floor[k]; j--)
			order[j] = order[j - 1];
		order[j] = k;
		unsearched += kind_floor[k];
	}
	*cost = 0;
	*lb = layer_floor;
	*found = 1;
	*lost = 0;
	int rc = 0;
	for (int64_t n = 0; n < cl->total && *found && !*lost && !rc; n++) {
		const int64_t k = order[n];
		const trim__ft_layer_result *r = NULL;
		int64_t count = trim__ft_class_at(cl, ax->naxes, k, pos);
		tile_reserved(x, a0, b0, ax, tiles, pos, i, res);
		rc = trim__ft_tile_workload(x->c, a0, ax, tiles, pos, i, x->tile, NULL);
		if (!rc)
			rc = trim__ft_cache_search(x->cache, x->tile, x->a, x->costs, x->B, fused_bits(x, i, b0 - a0 + 1), res,
			                           x->o->goal, x->o->threads, x->o->deadline, &r);
		if (rc)
			break;
		*found = r->found;
		x->stopped |= r->stopped; /* its search stopped at the deadline */
		double c = r->cost, l = r->lower_bound;
		if (i < b0 - a0 && x->c->vec[a0 + i]) { /* the vector work on this tile, in B */
			double v = x->c->vec[a0 + i] * trim__ft_vec_cost(x->tile, x->a, x->costs, x->B, x->o->goal, NULL);
			c += v;
			l += v;
		}
		*cost += (double)count * c;
		searched += (double)count * l > kind_floor[k] ? (double)count * l : kind_floor[k];
		unsearched = n + 1 < cl->total ? unsearched - kind_floor[k] : 0; /* no rounding left over */
		double bound = searched + (unsearched > 0 ? unsearched : 0);
		*lb = bound > layer_floor ? bound : layer_floor;
		int left = n + 1 < cl->total || i < b0 - a0;
		*lost = left && tiling_loses(race->g, race->others + *lb, race->index, race->limit);
	}
	free(order);
	return rc;
}

/* Every layer of group a0..b0 searched under tiling k (`tiles`, its kinds
 * of tiles cl): cost and lower bound (sums over the kinds); *fits 0 when a
 * layer has no mapping. The layers one after another, each search's result
 * taking its floor's place (floor[i], kind_floor from i * cl->total) in
 * the tiling's bound: once that bound loses (layer_eval), the other kinds
 * and layers are not searched (*fits 0, *lb that bound). */
static int group_eval(plan_ctx *x, int a0, int b0, const trim__ft_axes *ax, const int64_t *tiles,
                      const trim__ft_classes *cl, int64_t k, const double *floor_, const double *kind_floor,
                      double limit, const group_best *g, double *cost, double *lb, int *fits)
{
	tiling_race race = {g, k, limit, 0};
	double rest = 0, sofar = 0, lbsofar = 0;
	for (int i = 0; i <= b0 - a0; i++)
		rest += floor_[i];
	*fits = 1;
	for (int i = 0; i <= b0 - a0 && *fits; i++) {
		double c = 0, l = 0;
		int lost = 0;
		rest -= floor_[i];
		race.others = lbsofar + (rest > 0 ? rest : 0);
		int rc = layer_eval(x, a0, b0, ax, tiles, cl, i, kind_floor + i * cl->total, floor_[i], &race, &c, &l,
		                    fits, &lost);
		if (rc)
			return rc;
		if (!*fits) {
			*lb = HUGE_VAL;
			return 0;
		}
		if (lost) {
			*fits = 0;
			*lb = race.others + l;
			x->pruned++;
			return 0;
		}
		sofar += c;
		lbsofar += l;
	}
	*cost = sofar;
	*lb = lbsofar;
	return 0;
}

/* The floor of group a0..b0 under `tiles` over its kinds of tiles;
 * HUGE_VAL when a tile holds none of a layer's rows (not a candidate). */
static int tiling_floor(plan_ctx *x, int a0, int b0, const trim__ft_axes *ax, const int64_t *tiles, int root,
                        double *out, double *per_layer)
{
	trim__ft_classes cl;
	int rc = trim__ft_tile_classes(x->c, a0, ax, tiles, &cl);
	if (rc) {
		*out = HUGE_VAL;
		return rc < 0 ? rc : 0;
	}
	rc = group_floor(x, a0, b0, ax, tiles, &cl, root, out, per_layer, NULL);
	trim__ft_classes_free(&cl);
	return rc;
}

/* Tiling `index` (`tiles`) of group a0..b0: its root floor, then (unless
 * that loses: tiling_loses) its searches (group_eval); the group's best and
 * lower bound updated. */
static int search_tiling(plan_ctx *x, int a0, int b0, const trim__ft_axes *ax, const int64_t *tiles, int64_t index,
                         double limit, group_best *g)
{
	double cost = 0, lb = 0, f, floors[TRIM__FT_MAX_LAYERS];
	int fits = 0;
	trim__ft_classes cl;
	int rc = trim__ft_tile_classes(x->c, a0, ax, tiles, &cl);
	if (rc)
		return rc; /* an error: the candidates left had finite floors */
	double *kind_floor = malloc((size_t)(b0 - a0 + 1) * (size_t)cl.total * sizeof *kind_floor);
	if (!kind_floor)
		rc = trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
	if (!rc)
		rc = group_floor(x, a0, b0, ax, tiles, &cl, 1, &f, floors, kind_floor);
	if (!rc && tiling_loses(g, f, index, limit)) { /* the root floor: skip it, not the rest */
		x->pruned++;
		lb = f;
		fits = 0;
	} else if (!rc) {
		rc = group_eval(x, a0, b0, ax, tiles, &cl, index, floors, kind_floor, limit, g, &cost, &lb, &fits);
		if (fits && f > lb)
			lb = f;
	}
	free(kind_floor);
	trim__ft_classes_free(&cl);
	if (rc)
		return rc;
	if (lb < g->lower_bound)
		g->lower_bound = lb;
	if (fits && (!g->feasible || cost < g->cost || (cost == g->cost && index < g->index))) {
		g->feasible = 1;
		g->cost = cost;
		g->index = index;
		g->keep = ax->keep;
		memcpy(g->tiles, tiles, sizeof g->tiles);
	}
	return 0;
}

/* Group a0..b0's best tiling, best floor first: a tiling whose floor
 * passes the best found (on equal floors, a later tiling than the best)
 * or `limit` (the best split of the same layers: the group cannot be in
 * a better plan) is not searched, nor any after it; its floor bounds them
 * in the group's lower bound. Past the deadline the same, the group then
 * `open`. A tiling with a tile that holds none of a layer's rows (padding
 * wider than a window) is no candidate (its floor HUGE_VAL: sorted last).
 * from (NULL: none), a probe's result for the group: its tiling is the
 * best so far. With x->probe, at most that many tilings, until one fits,
 * and x->probe_deadline (the group's bound then means nothing). */
static int search_group(plan_ctx *x, int a0, int b0, double limit, const group_best *from, group_best *g)
{
	memset(g, 0, sizeof *g);
	if (from && from->feasible) { /* a probe's tiling: the best so far */
		g->feasible = 1;
		g->cost = from->cost;
		g->index = from->index;
		g->keep = from->keep;
		memcpy(g->tiles, from->tiles, sizeof g->tiles);
	}
	g->lower_bound = HUGE_VAL;
	trim__ft_group_axes(x->c, a0, b0, &g->ax);
	int64_t *div[TRIM__FT_MAX_AXES] = {0};
	int ndiv[TRIM__FT_MAX_AXES];
	candidate *cand = NULL;
	int rc = 0;
	double combos = 1;
	for (int k = 0; k < g->ax.naxes && !rc; k++)
		if ((rc = divisors(g->ax.bound[k], &div[k], &ndiv[k])) == 0)
			combos *= ndiv[k];
	if (!rc && combos > FT_MAX_TILINGS)
		rc = trim__error(TRIM_ERANGE, "fused tiles: layers '%s'..'%s' have %.0f tilings, more than %d",
		                 x->c->layer[a0]->layer, x->c->layer[b0]->layer, combos, FT_MAX_TILINGS);
	const int64_t n = 2 * (int64_t)combos;
	if (!rc && !(cand = malloc((size_t)n * sizeof *cand)))
		rc = trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
	int64_t tiles[TRIM__FT_MAX_AXES], T, absent = 0; /* tilings with no halo to keep (sorted last) */
	for (int64_t k = 0; k < n && !rc; k++) {
		tiling_of(&g->ax, div, ndiv, k / 2, tiles, &T);
		trim__ft_axes ax = g->ax;
		cand[k].index = k;
		/* the halo kept, where a tiling has one to keep; recomputed, unless
		 * the chain's intermediates are also written (each row once) */
		int h = k % 2 ? trim__ft_halo_axis(x->c, a0, &ax, tiles) : 0;
		cand[k].keep = ax.keep = k % 2 ? h + 1 : 0;
		if (h < 0 || (k % 2 == 0 && x->c->written && trim__ft_has_halo(x->c, a0, &ax, tiles))) {
			cand[k].floor_ = HUGE_VAL;
			absent++;
			continue;
		}
		rc = tiling_floor(x, a0, b0, &ax, tiles, 0, &cand[k].floor_, NULL);
	}
	if (!rc)
		qsort(cand, (size_t)n, sizeof *cand, candidate_cmp);
	x->tilings += rc ? 0 : n - absent;
	for (int64_t k = 0; k < n && !rc; k++) {
		double f = cand[k].floor_;
		if (f == HUGE_VAL) { /* no candidates left */
			x->pruned += n - k - absent;
			break;
		}
		int beaten = g->feasible && tiling_loses(g, f, cand[k].index, HUGE_VAL);
		const double deadline = x->probe ? x->probe_deadline : x->o->deadline;
		int late = deadline > 0 && trim__ft_now() >= deadline;
		if (x->probe && (k >= x->probe || g->feasible))
			break; /* what a probe looks at (and a probe proves nothing) */
		if (beaten || f > limit || late) {
			g->open = late && !beaten && f <= limit;
			x->stopped |= g->open;
			x->pruned += n - k - absent;
			if (f < g->lower_bound)
				g->lower_bound = f;
			break;
		}
		trim__ft_axes ax = g->ax;
		ax.keep = cand[k].keep;
		tiling_of(&ax, div, ndiv, cand[k].index / 2, tiles, &T);
		rc = search_tiling(x, a0, b0, &ax, tiles, cand[k].index, limit, g);
	}
	g->ax.keep = g->keep; /* the best tiling's, for fill_group */
	free(cand);
	for (int k = 0; k < TRIM__FT_MAX_AXES; k++)
		free(div[k]);
	return rc;
}

/* n times the vector work on `producer`'s result at level l, both figures,
 * into *energy_pj and *cycles. */
static void vec_add(const plan_ctx *x, const trim__intra *producer, int l, double n, double *energy_pj,
                    double *cycles)
{
	*energy_pj += n * trim__ft_vec_cost(producer, x->a, x->costs, l, TRIM__GOAL_ENERGY, NULL);
	*cycles += n * trim__ft_vec_cost(producer, x->a, x->costs, l, TRIM__GOAL_DELAY, NULL);
}

/* Fill the plan's group k for layers a0..b0 with tiling g (NULL: a single
 * layer alone) from the cache: per layer, the mapping and evaluation of
 * its most frequent kind of tile (the first of the most frequent), the
 * DRAM bytes summed over every tile, the buffer the largest tile takes. */
static int fill_group(trim__ft_plan *p, plan_ctx *x, int a0, int b0, const group_best *g)
{
	trim__ft_group *G = &p->group[p->ngroups++];
	static const trim__ft_axes none;
	const trim__ft_axes *ax = g ? &g->ax : &none;
	int64_t ones[TRIM__FT_MAX_AXES] = {1, 1, 1, 1, 1}, pos[TRIM__FT_MAX_AXES];
	const int64_t *tiles = g ? g->tiles : ones;
	memset(G, 0, sizeof *G);
	G->first = a0;
	G->last = b0;
	G->naxes = ax->naxes;
	G->ntiles = 1;
	for (int k = 0; k < ax->naxes; k++) {
		G->dim[k] = ax->dim[k][0];
		G->tiles[k] = tiles[k];
		G->ntiles *= tiles[k];
	}
	trim__ft_classes cl;
	int rc = trim__ft_tile_classes(x->c, a0, ax, tiles, &cl);
	if (rc)
		return rc < 0 ? rc : trim__error(TRIM_EINVAL, "fused tiles: the plan's tiling of '%s'..'%s' is empty",
		                                 x->c->layer[a0]->layer, x->c->layer[b0]->layer);
	G->kinds = cl.total;
	G->halo = ax->keep ? 2 : trim__ft_has_halo(x->c, a0, ax, tiles);
	int64_t res[TRIM__MAX_LEVELS];
	for (int i = 0; i <= b0 - a0 && !rc; i++) {
		int64_t most = 0;
		for (int64_t k = 0; k < cl.total && !rc; k++) {
			const trim__ft_layer_result *r = NULL;
			int64_t count = trim__ft_class_at(&cl, ax->naxes, k, pos);
			tile_reserved(x, a0, b0, ax, tiles, pos, i, res);
			rc = trim__ft_tile_workload(x->c, a0, ax, tiles, pos, i, x->tile, NULL);
			if (!rc)
				rc = trim__ft_cache_search(x->cache, x->tile, x->a, x->costs, x->B,
				                           b0 > a0 ? fused_bits(x, i, b0 - a0 + 1) : 0u, res, x->o->goal,
				                           x->o->threads, x->o->deadline, &r);
			if (rc)
				break;
			if (count > most) {
				most = count;
				p->tile[a0 + i] = *x->tile;
				p->map[a0 + i] = r->best;
				p->eval[a0 + i] = r->eval;
			}
			G->dram_bytes += (double)count * trim__ft_dram_bytes(x->a, &r->eval);
			G->energy_pj += (double)count * r->eval.energy_pj;
			G->cycles += (double)count * r->eval.cycles;
			if (i < b0 - a0 && x->c->vec[a0 + i]) /* the vector work on this tile, in B */
				vec_add(x, x->tile, x->B, (double)count * x->c->vec[a0 + i], &G->energy_pj, &G->cycles);
			int64_t held = r->eval.cap_bytes[x->B] + trim__ft_kept_bytes(x->c, a0, ax, tiles, pos, i,
			                                                           bits_of(x->a, x->B));
			if (b0 > a0 && held > G->buffer_bytes)
				G->buffer_bytes = held;
		}
	}
	trim__ft_classes_free(&cl);
	if (rc)
		return rc;
	if (a0 > 0 && x->c->vec[a0 - 1]) { /* the vector work before the group, in DRAM */
		double bytes = 0;
		trim__ft_vec_cost(x->c->layer[a0 - 1], x->a, x->costs, 0, x->o->goal, &bytes);
		G->dram_bytes += x->c->vec[a0 - 1] * bytes;
		vec_add(x, x->c->layer[a0 - 1], 0, x->c->vec[a0 - 1], &G->energy_pj, &G->cycles);
	}
	return 0;
}

/* The vector work between layers a0 - 1 and a0 in DRAM (0 if none): what a
 * group starting at a0 > 0 adds, the chain being cut there. */
static double cut_cost(const plan_ctx *x, int a0)
{
	if (a0 == 0 || !x->c->vec[a0 - 1])
		return 0;
	return x->c->vec[a0 - 1] * trim__ft_vec_cost(x->c->layer[a0 - 1], x->a, x->costs, 0, x->o->goal, NULL);
}

/* Layer a0 alone, on its whole workload. */
static int search_alone(plan_ctx *x, int a0, group_best *g)
{
	const trim__ft_layer_result *r = NULL;
	int64_t res[TRIM__MAX_LEVELS];
	trim__ft_group_reserved(x->c, a0, a0, res);
	int rc = trim__ft_cache_search(x->cache, x->c->layer[a0], x->a, x->costs, x->B, 0, res, x->o->goal,
	                               x->o->threads, x->o->deadline, &r);
	if (rc)
		return rc;
	if (!r->found)
		return trim__error(TRIM_ENOFIT, "fused tiles: no mapping of layer '%s' fits %s", x->c->layer[a0]->layer,
		                   x->a->name);
	x->stopped |= r->stopped; /* its search stopped at the deadline */
	memset(g, 0, sizeof *g);
	g->feasible = 1;
	g->cost = r->cost;
	g->lower_bound = r->lower_bound;
	x->alone_lb[a0] = r->lower_bound;
	return 0;
}

/* Every group, shortest first: a fused group a..b is searched against the
 * best split of a..b into shorter groups (its limit); split[a * n + b]
 * holds it, best[a * n + b] the better of it and the group. */
static int search_groups(plan_ctx *x, group_best *gb, double *split, double *opt)
{
	const int n = x->c->nlayers;
	int rc = 0;
	group_best *probe = NULL;
	if (x->o->deadline > 0 && n > 1) {
		/* with a deadline: the layers alone, then the probe (the fused
		 * groups longest first, each its best-floor tilings that can beat
		 * its layers alone, until half the time left), so that the long
		 * groups a chain gains most from have a plan before the shorter
		 * ones use the time up; the search below starts each group from
		 * its probe's tiling */
		for (int a0 = 0; a0 < n && !rc; a0++)
			rc = search_alone(x, a0, &gb[a0 * n + a0]);
		if (!rc && !(probe = trim__calloc((size_t)n * (size_t)n, sizeof *probe)))
			rc = trim__error(TRIM_ENOMEM, "fused tiles: out of memory");
		const double now = trim__ft_now();
		const int64_t tilings = x->tilings, pruned = x->pruned;
		const int stopped = x->stopped;
		x->probe = FT_PROBE_TILINGS;
		x->probe_deadline = now + (x->o->deadline - now) / 2;
		for (int len = n; len >= 2 && !rc && trim__ft_now() < x->probe_deadline; len--)
			for (int a0 = 0; a0 + len <= n && !rc && trim__ft_now() < x->probe_deadline; a0++) {
				const int b0 = a0 + len - 1;
				if (x->o->first_fuse >= 0 && (a0 < x->o->first_fuse || b0 > x->o->last_fuse))
					continue;
				/* held against its layers alone (the split into single
				 * layers, the vector work at each cut in DRAM): a group
				 * costing more is in no best plan */
				double alone = gb[a0 * n + a0].cost;
				for (int i = a0 + 1; i <= b0; i++)
					alone += gb[i * n + i].cost + cut_cost(x, i);
				alone += 1e-9 * fabs(alone) + 1e-300;
				rc = search_group(x, a0, b0, alone, NULL, &probe[a0 * n + b0]);
			}
		x->probe = 0;
		x->tilings = tilings;
		x->pruned = pruned;
		x->stopped = stopped;
	}
	for (int len = 1; len <= n && !rc; len++)
		for (int a0 = 0; a0 + len <= n && !rc; a0++) {
			int b0 = a0 + len - 1;
			group_best *g = &gb[a0 * n + b0];
			double sp = HUGE_VAL;
			for (int k = a0; k < b0; k++)
				if (opt[a0 * n + k] + opt[(k + 1) * n + b0] < sp)
					sp = opt[a0 * n + k] + opt[(k + 1) * n + b0];
			split[a0 * n + b0] = sp;
			double pre = cut_cost(x, a0);
			if (len == 1) {
				if (!probe)
					rc = search_alone(x, a0, g);
			} else if (x->o->first_fuse < 0 || (a0 >= x->o->first_fuse && b0 <= x->o->last_fuse)) {
				/* a margin against rounding: the DP sums the same costs in
				 * another order */
				double limit = sp - pre;
				limit += 1e-9 * fabs(limit) + 1e-300;
				rc = search_group(x, a0, b0, limit, probe ? &probe[a0 * n + b0] : NULL, g);
			}
			if (g->feasible || g->open) {
				g->cost += pre;
				g->lower_bound += pre;
			}
			opt[a0 * n + b0] = g->feasible && g->cost < sp ? g->cost : sp;
		}
	free(probe);
	return rc;
}

/* The plan's totals and its layer-by-layer figures. */
static int plan_totals(trim__ft_plan *out, plan_ctx *x, const group_best *gb)
{
	const int n = x->c->nlayers;
	for (int k = 0; k < out->ngroups; k++) {
		out->dram_bytes += out->group[k].dram_bytes;
		out->energy_pj += out->group[k].energy_pj;
		out->cycles += out->group[k].cycles;
		if (out->group[k].buffer_bytes > out->buffer_bytes)
			out->buffer_bytes = out->group[k].buffer_bytes;
	}
	for (int i = 0; i < n; i++) {
		const trim__ft_layer_result *r = NULL;
		out->lbl_cost += gb[i * n + i].cost;
		if (i > 0 && x->c->vec[i - 1]) {
			double bytes = 0;
			trim__ft_vec_cost(x->c->layer[i - 1], x->a, x->costs, 0, x->o->goal, &bytes);
			out->lbl_dram_bytes += x->c->vec[i - 1] * bytes;
			vec_add(x, x->c->layer[i - 1], 0, x->c->vec[i - 1], &out->lbl_energy_pj, &out->lbl_cycles);
		}
		int64_t res[TRIM__MAX_LEVELS];
		trim__ft_group_reserved(x->c, i, i, res);
		int rc = trim__ft_cache_search(x->cache, x->c->layer[i], x->a, x->costs, x->B, 0, res, x->o->goal,
		                               x->o->threads, x->o->deadline, &r);
		if (rc)
			return rc;
		out->lbl_dram_bytes += trim__ft_dram_bytes(x->a, &r->eval);
		out->lbl_energy_pj += r->eval.energy_pj;
		out->lbl_cycles += r->eval.cycles;
	}
	return 0;
}

int trim__ft_plan_search_opts(const trim__ft_chain *c, const struct trim_arch *a, const trim__level_cost *costs,
                              int B, const trim__ft_plan_opts *o, trim__ft_plan *out)
{
	memset(out, 0, sizeof *out);
	out->goal = o->goal;
	out->level = B;
	int rc = trim__ft_chain_check(c);
	if (rc)
		return rc;
	const int n = c->nlayers;
	plan_ctx x = {.c = c, .a = a, .costs = costs, .B = B, .o = o, .cache = o->cache};
	trim__ft_cache *own = NULL;
	if (!x.cache && (rc = trim__ft_cache_new(&own)))
		return rc;
	if (own)
		x.cache = own;
	const int64_t searches0 = trim__ft_cache_searches(x.cache);
	x.tile = trim__calloc(1, sizeof *x.tile);
	group_best *gb = trim__calloc((size_t)n * (size_t)n, sizeof *gb);
	double *split = trim__calloc(2 * (size_t)n * (size_t)n, sizeof *split);
	double best[TRIM__FT_MAX_LAYERS + 1], lb[TRIM__FT_MAX_LAYERS + 1];
	int from[TRIM__FT_MAX_LAYERS + 1];
	if (!x.tile || !gb || !split) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	if ((rc = search_groups(&x, gb, split, split + (size_t)n * (size_t)n)))
		goto out;
	best[0] = lb[0] = 0;
	for (int j = 1; j <= n; j++) {
		best[j] = lb[j] = HUGE_VAL;
		from[j] = -1;
		for (int i = j - 1; i >= 0; i--) {
			const group_best *g = &gb[i * n + j - 1];
			if (g->feasible && best[i] + g->cost < best[j]) {
				best[j] = best[i] + g->cost;
				from[j] = i;
			}
			if ((g->feasible || g->open) && lb[i] + g->lower_bound < lb[j])
				lb[j] = lb[i] + g->lower_bound;
		}
	}
	/* the groups, last first, then reversed */
	int cuts[TRIM__FT_MAX_LAYERS + 1], ncuts = 0;
	for (int j = n; j > 0; j = from[j])
		cuts[ncuts++] = j;
	for (int k = ncuts - 1; k >= 0 && !rc; k--) {
		int j = cuts[k], i = from[j];
		rc = fill_group(out, &x, i, j - 1, i == j - 1 ? NULL : &gb[i * n + j - 1]);
		out->group[out->ngroups - 1].cost = gb[i * n + j - 1].cost;
		out->group[out->ngroups - 1].lower_bound = gb[i * n + j - 1].lower_bound;
	}
	if (rc || (rc = plan_totals(out, &x, gb)))
		goto out;
	out->cost = best[n];
	out->lower_bound = lb[n] < best[n] ? lb[n] : best[n];
	out->exact = lb[n] >= best[n] && !x.stopped;
	out->searches = trim__ft_cache_searches(x.cache) - searches0;
	out->tilings = x.tilings;
	out->pruned = x.pruned;
	out->stopped = x.stopped;
out:
	trim__ft_cache_free(own);
	free(x.tile);
	free(gb);
	free(split);
	return rc;
}

int trim__ft_plan_search(const trim__ft_chain *c, const struct trim_arch *a, const trim__level_cost *costs,
                         int B, int goal, int threads, int first_fuse, int last_fuse, trim__ft_plan *out)
{
	trim__ft_plan_opts o = {goal, threads, first_fuse, last_fuse, 0, NULL};
	return trim__ft_plan_search_opts(c, a, costs, B, &o, out);
}
