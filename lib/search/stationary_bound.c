/*
 * The stationarity bound of a node of the factorisation tree (docs/model.md,
 * "Bounds", *Stationarity*): how often a tile must be refilled at a level
 * whose extents the node leaves open, from the most reuse its capacity (and
 * the dataflow constraints) allow.
 *
 * A tensor t whose every axis is one dim (the weights and outputs of a
 * convolution, every tensor of a matrix product), kept at storage level h:
 * the tile of t at h holds prod over t's dims of e[d] words, e[d] the
 * extent of d at h and below, and is replaced whenever a loop above h
 * changes one of its indices, so its fills (result: drains) over all
 * instances are exactly
 *
 *     iterations / (prod over the dims t does not read of e[d]) / A,
 *
 * iterations the product of the bounds and A the product of the innermost
 * run of loops above h that t does not read. The first loop of bound > 1
 * above h (spatial loops do not step in time) is on some dim d*: every
 * tensor that reads d* then has A = 1. So for each possible d*, the
 * tensors reading it get the floor iterations / rho, rho the largest
 * product of the extents they do not read whose tiles fit h together with
 * the tiles of the other tensors kept there; the bound is the cheapest
 * over d* and over which tensors h keeps.
 *
 * A tensor with a sliding window (the inputs of a convolution) qualifies
 * when the node leaves every dim of its window axes extent 1 at h (as the
 * input-stationary preset does): its tile is then one word wide on those
 * axes, so a step that moves one of them replaces the whole tile. With d*
 * the sole term of an axis of t, every step still changes t's tile (d*
 * moves or resets), so the floor is the same. With d* in a window axis,
 * the step on which d* wraps may land on the same word (a carry into the
 * other term of the axis that undoes it: R of bound 2 into E of stride 1),
 * but the b* - 1 steps of every b* in which d* moves without wrapping
 * cannot: the floor is then iterations / rho / 2 (b* >= 2).
 *
 * A window wider than one word at h (window_fills, where a dataflow
 * constraint narrows it there): over all instances the tiles at h take
 * iterations / prod e steps; a step of d* that is the sole term of an
 * axis of t brings the whole tile, one of d0 in a window axis c0 d0 +
 * c1 d1 at least the values new on that axis times the other axes' on
 * every step that is not its wrap, at least half of them
 * (trim__window_step_words). The floor of d* is the least of that over
 * the extents that fit, and the variant of d* charges t that floor (one
 * search gives every dim's).
 *
 * Both searches over the extents (most_reuse, window_fills) read only the
 * mapspace, the level, the tensors kept there and the allowed extents of
 * the dims they vary (the others stay at their least), and siblings in
 * the tree mostly ask the same: each worker keeps their answers in a small
 * memo keyed by all of that (stationary_memo.c).
 */
#include "search_int.h"

/* 1 if the tiles of extents e of the tensors in mask fit level h. */
static int tiles_fit(const trim__mapspace *s, int h, unsigned mask, const int64_t *e)
{
	int64_t bytes[3];
	for (int t = 0; t < 3; t++)
		bytes[t] = mask >> t & 1 ? trim__tile_bytes_at(s->a, h, trim__tile_words(s->w, t, e)) : 0;
	return trim__tiles_fit_level(s, h, bytes);
}

/* 0 if the node is inconsistent. */
static int extents_allowed(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int h,
                           allowed_extents *x)
{
	const struct trim_arch *a = s->a;
	int64_t *q = x->q, *kmin = x->kmin, *cap = x->cap;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		q[d] = s->w->bound[d];
		kmin[d] = 1;
		cap[d] = 1;
		int capped = 1;
		for (int l = 0; l < a->nlevels; l++) {
			const int type = a->lv[l].type;
			if (type != TRIM__LVL_STORAGE && type != TRIM__LVL_SPATIAL)
				continue;
			const int64_t fv = f->fixed[l] ? m->f[l][d] : s->pin[l][d];
			if (l < h) {
				if (fv > 0) {
					if (q[d] % fv)
						return 0;
					q[d] /= fv;
				}
			} else if (fv > 0) {
				kmin[d] *= fv;
			} else if (s->fmax[l][d] > 0 && capped) {
				cap[d] *= s->fmax[l][d];
			} else {
				capped = 0;
			}
		}
		if (q[d] % kmin[d])
			return 0;
		cap[d] = capped ? cap[d] * kmin[d] : 0;
	}
	return 1;
}

/* The extents of d allowed at h in ascending order, each with the other
 * dims at e: the next after v (0: the first) whose tiles of the tensors in
 * mask fit, written to e[d]; 0 when there is none (e[d] then back at its
 * least). Tiles grow with every extent, so the first misfit ends them. */
static int64_t next_fitting(const trim__mapspace *s, const allowed_extents *x, int h, unsigned mask, int64_t *e,
                            int d, int64_t v)
{
	const int64_t n = x->q[d] / x->kmin[d];
	for (int64_t u = v / x->kmin[d] + 1; u <= n; u++) {
		if (n % u)
			continue;
		const int64_t w = x->kmin[d] * u;
		if (x->cap[d] > 0 && w > x->cap[d])
			break;
		e[d] = w;
		if (!tiles_fit(s, h, mask, e))
			break;
		return w;
	}
	e[d] = x->kmin[d];
	return 0;
}

/* The largest product over the dims in irr of extents allowed at h whose
 * tiles of the tensors in mask fit (the other dims at their least); 0 if
 * none fits. A depth-first search over divisors, ascending per dim (tiles
 * grow with every extent, so the first misfit ends a dim's values). */
typedef struct {
	const trim__mapspace *s;
	const allowed_extents *x;
	int h;
	unsigned mask;
	int nd, dim[TRIM_NDIMS];
	int64_t e[TRIM_NDIMS];
	int64_t best;
} reuse_search;

static void reuse_dfs(reuse_search *r, int i, int64_t prod)
{
	if (i == r->nd) {
		if (prod > r->best)
			r->best = prod;
		return;
	}
	const int d = r->dim[i];
	for (int64_t v = next_fitting(r->s, r->x, r->h, r->mask, r->e, d, 0); v;
	     v = next_fitting(r->s, r->x, r->h, r->mask, r->e, d, v))
		reuse_dfs(r, i + 1, prod * v);
}

static int64_t most_reuse_search(const trim__mapspace *s, const allowed_extents *x, int h, unsigned mask,
                                 unsigned irr)
{
	reuse_search r = {.s = s, .x = x, .h = h, .mask = mask, .best = 0};
	for (int d = 0; d < TRIM_NDIMS; d++) {
		r.e[d] = x->kmin[d];
		if (irr >> d & 1)
			r.dim[r.nd++] = d;
	}
	if (!tiles_fit(s, h, mask, r.e))
		return 0;
	reuse_dfs(&r, 0, 1);
	return r.best;
}

static int64_t most_reuse(stationary_workspace *sw, const trim__mapspace *s, const allowed_extents *x, int h,
                          unsigned mask, unsigned irr)
{
	extents_key k;
	extents_entry *e;
	int64_t v[TRIM_NDIMS] = {0};
	trim__extents_key_of(&k, s, x, 0, h, mask, 0, irr, 0, irr);
	if (trim__extents_get(sw, &k, &e, v, s->test_memo_hits))
		return v[0];
	v[0] = most_reuse_search(s, x, h, mask, irr);
	trim__extents_put(e, &k, v);
	return v[0];
}

/* The sliding-window floor (the header's last paragraph), for each
 * possible first loop above h on a dim d that t reads: the least, over the
 * extents allowed at h whose tiles of the tensors in mask fit, of the
 * steps above h (iters over the product of the extents) times half of
 * trim__window_step_words for d. The dims t does not read and those of its
 * window axes vary (the sole terms stay at their least: they scale the
 * words and the steps alike, and only grow the tiles). One search gives
 * every dim's floor. */
typedef struct {
	const trim__mapspace *s;
	const allowed_extents *x;
	int h, t;
	unsigned mask, dstar; /* dstar: the first-loop dims whose floors are sought (t reads each) */
	int nd, dim[TRIM_NDIMS];
	int64_t e[TRIM_NDIMS];
	int64_t iters, enough; /* stop once every floor is <= enough (no use) */
	int64_t best[TRIM_NDIMS];
} window_search;

/* 1 while some dim's floor may still be of use. */
static int window_open(const window_search *r)
{
	for (int d = 0; d < TRIM_NDIMS; d++)
		if ((r->dstar >> d & 1) && r->best[d] > r->enough)
			return 1;
	return 0;
}

/* The largest extent of d allowed at h whose tiles fit with the other
 * dims at r->e (0: not even its least); r->e[d] is left at it. */
static int64_t largest_fitting(window_search *r, int d)
{
	int64_t fit = 0;
	for (int64_t v = next_fitting(r->s, r->x, r->h, r->mask, r->e, d, 0); v;
	     v = next_fitting(r->s, r->x, r->h, r->mask, r->e, d, v))
		fit = v;
	r->e[d] = fit;
	return fit;
}

/* The floors at the extents r->e into r->best where less. */
static void window_floor_at(window_search *r)
{
	int64_t ext = 1, words[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++)
		ext *= r->e[d];
	trim__window_step_words(r->s, r->t, r->e, r->dstar, words);
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (!(r->dstar >> d & 1))
			continue;
		int64_t fl;
		if (__builtin_mul_overflow(r->iters / ext, words[d], &fl))
			fl = INT64_MAX;
		else
			fl /= 2;
		if (fl < r->best[d])
			r->best[d] = fl;
	}
}

static void window_dfs(window_search *r, int i)
{
	if (i == r->nd) {
		window_floor_at(r);
		return;
	}
	const int d = r->dim[i];
	if (i == r->nd - 1 && !(r->s->w->t[r->t].relevant >> d & 1)) {
		/* the last dim, one t does not read: its largest fitting extent
		 * alone (it divides the steps and adds no words) */
		if (largest_fitting(r, d))
			window_dfs(r, i + 1);
		r->e[d] = r->x->kmin[d];
		return;
	}
	for (int64_t v = next_fitting(r->s, r->x, r->h, r->mask, r->e, d, 0); v && window_open(r);
	     v = next_fitting(r->s, r->x, r->h, r->mask, r->e, d, v))
		window_dfs(r, i + 1);
	r->e[d] = r->x->kmin[d];
}

/* The floors of the dims of dstar (each read by t) into fl (0: none
 * above enough); -1 if not even the least tiles fit. */
static int window_fills_search(const trim__mapspace *s, const allowed_extents *x, int h, unsigned mask, int t,
                               unsigned dstar, int64_t iters, int64_t enough, int64_t *fl)
{
	window_search r = {.s = s, .x = x, .h = h, .t = t, .mask = mask, .dstar = dstar, .iters = iters,
	                   .enough = enough};
	for (int d = 0; d < TRIM_NDIMS; d++)
		r.best[d] = INT64_MAX;
	/* the window dims first, then those t does not read */
	const unsigned vary[2] = {s->dwindow[t], ~s->w->t[t].relevant & 0xffu};
	for (int d = 0; d < TRIM_NDIMS; d++)
		r.e[d] = x->kmin[d];
	for (int k = 0; k < 2; k++)
		for (int d = 0; d < TRIM_NDIMS; d++)
			if ((vary[k] >> d & 1) && x->q[d] > x->kmin[d] && (x->cap[d] <= 0 || x->cap[d] > x->kmin[d]))
				r.dim[r.nd++] = d;
	if (!tiles_fit(s, h, mask, r.e))
		return -1;
	if (dstar) {
		/* first the extents grown greedily, dim after dim: when those
		 * floors are no use, neither are the least */
		for (int i = 0; i < r.nd; i++)
			largest_fitting(&r, r.dim[i]); /* at least the least: it fits */
		window_floor_at(&r);
		for (int d = 0; d < TRIM_NDIMS; d++)
			r.e[d] = x->kmin[d];
		if (window_open(&r))
			window_dfs(&r, 0);
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (dstar >> d & 1)
			fl[d] = r.best[d] == INT64_MAX || r.best[d] <= enough ? 0 : r.best[d];
	return 0;
}

/* The floors of the first-loop dims of dstar that t reads into fl[d] (0:
 * none above enough; the other entries untouched); -1 if not even the
 * least tiles fit. iters is the product of the workload's bounds: the
 * mapspace's. */
static int window_fills(stationary_workspace *sw, const trim__mapspace *s, const allowed_extents *x, int h,
                        unsigned mask, int t, unsigned dstar, int64_t iters, int64_t enough, int64_t *fl)
{
	dstar &= s->w->t[t].relevant;
	if (!dstar)
		return tiles_fit(s, h, mask, x->kmin) ? 0 : -1;
	extents_key k;
	extents_entry *e;
	int64_t v[TRIM_NDIMS] = {0};
	trim__extents_key_of(&k, s, x, 1, h, mask, t, dstar, enough, s->dwindow[t] | (~s->w->t[t].relevant & 0xffu));
	if (!trim__extents_get(sw, &k, &e, v, s->test_memo_hits)) {
		if (window_fills_search(s, x, h, mask, t, dstar, iters, enough, v) < 0)
			v[0] = -1; /* the misfit (a floor is never negative) */
		trim__extents_put(e, &k, v);
	}
	if (v[0] < 0)
		return -1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (dstar >> d & 1)
			fl[d] = v[d];
	return 0;
}

/* 1 if the constraints pin a dim of a window axis of t to 1 at h (or cap
 * it there at 1): the sliding-window floor is tried only then. */
static int window_narrowed(const trim__mapspace *s, int h, int t)
{
	for (int d = 0; d < TRIM_NDIMS; d++)
		if ((s->dslide[t] >> d & 1) && (s->pin[h][d] == 1 || s->fmax[h][d] == 1))
			return 1;
	return 0;
}

/* 1 if tensor t qualifies (the header): every axis one dim, or every dim
 * of its window axes (s->dslide) of extent 1 at h and below in every
 * mapping of the node. */
static int qualifies(const trim__mapspace *s, const allowed_extents *x, int t)
{
	if (!s->w->t[t].present)
		return 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if ((s->dslide[t] >> d & 1) && (x->kmin[d] != 1 || (x->q[d] != 1 && x->cap[d] != 1)))
			return 0;
	return 1;
}

/* The innermost storage level with a capacity whose extents the node
 * leaves open (-1: none). */
static int open_level(const trim__mapspace *s, const node_frame *f)
{
	int h = -1;
	for (int l = 1; l < s->a->nlevels; l++)
		if (s->a->lv[l].type == TRIM__LVL_STORAGE && !f->extk[l] && s->a->lv[l].capacity_bytes > 0)
			h = l;
	return h;
}

int64_t trim__stationary_reuse(const trim__mapspace *s, const trim__level_cost *costs, int depth,
                               const trim__mapping *node, int t, unsigned keep, int *h, stationary_workspace *sw)
{
	node_frame f;
	*h = -1;
	if (trim__node_frame(s, costs, depth, 0, node, &f))
		return -1;
	*h = open_level(s, &f);
	allowed_extents x;
	if (*h < 0 || !extents_allowed(s, &f, node, *h, &x))
		return -1;
	if (!qualifies(s, &x, t))
		return -1;
	unsigned irr = 0;
	const unsigned rd = s->w->t[t].relevant;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (s->w->bound[d] > 1 && !(rd >> d & 1))
			irr |= 1u << d;
	return most_reuse(sw, s, &x, *h, keep | 1u << t, irr);
}

/* 1 if dim d may have a loop of bound > 1 at a storage level above h. */
static int loop_above(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int h, int d)
{
	const struct trim_arch *a = s->a;
	int64_t rest = s->w->bound[d];
	for (int l = 0; l < a->nlevels; l++)
		if (f->fixed[l] && (a->lv[l].type == TRIM__LVL_STORAGE || a->lv[l].type == TRIM__LVL_SPATIAL))
			rest /= m->f[l][d];
	for (int l = 0; l < h; l++) {
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		if (f->fixed[l] ? m->f[l][d] > 1
		                : rest > 1 && s->pin[l][d] != 1 && s->fmax[l][d] != 1)
			return 1;
	}
	return 0;
}

/* The dims that may have the first loop above h. */
static unsigned first_loop_dims(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int h)
{
	unsigned dstar = 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (s->w->bound[d] > 1 && loop_above(s, f, m, h, d))
			dstar |= 1u << d;
	return dstar;
}

int64_t trim__stationary_window_fills(const trim__mapspace *s, const trim__level_cost *costs, int depth,
                                      const trim__mapping *node, int t, unsigned keep, unsigned first, int *h,
                                      stationary_workspace *sw)
{
	node_frame f;
	*h = -1;
	if (trim__node_frame(s, costs, depth, 0, node, &f) || !f.allsp)
		return -1;
	*h = open_level(s, &f);
	allowed_extents x;
	if (*h < 0 || !extents_allowed(s, &f, node, *h, &x) || !s->w->t[t].present || qualifies(s, &x, t)) {
		*h = -1;
		return -1;
	}
	int64_t iters = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (__builtin_mul_overflow(iters, s->w->bound[d], &iters))
			return -1;
	unsigned dstar = first_loop_dims(s, &f, node, *h) & s->w->t[t].relevant;
	if (first)
		dstar &= first;
	int64_t fl[TRIM_NDIMS], least = INT64_MAX;
	if (!dstar || window_fills(sw, s, &x, *h, keep | 1u << t, t, dstar, iters, 0, fl) < 0)
		return 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if ((dstar >> d & 1) && fl[d] < least)
			least = fl[d];
	return least;
}

/* A possible first loop above h (trim__stationary_bound): the tensors it
 * reloads with the whole floor (v[0]) and with half of it (v[1]), and
 * for each windowed tensor the first-loop dim whose floor it takes (wg,
 * -1: none). */
typedef struct {
	unsigned v[2];
	int wg[3];
} stationary_variant;

/* What the steps of trim__stationary_bound share: the node, the open level
 * h and its allowed extents, and per tensor t that qualifies, per set p of
 * the other tensors kept at h, per floor (0: iterations / rho, 1: half of
 * it, for a first loop in a window axis): its per-choice energies with the
 * floor (E of the figures when the floor changes nothing). */
typedef struct {
	const trim__mapspace *s;
	const trim__level_cost *costs;
	const node_frame *f;
	const trim__mapping *m;
	const tensor_figures *const *tf;
	tensor_reuse *const *r;
	int h;
	allowed_extents x;
	int64_t iters;
	unsigned dstar, keepable, qual, wfloor;
	unsigned rd[3], win[3];
	const double *EF[3][8][2];
	int fits[3][8]; /* t kept at h beside the set p: its tiles may fit */
	double store[3][8][2][64];
	/* a windowed tensor's floor energies per first-loop dim that reads
	 * it (wgroup: the first dim with the same energies as each, -1: none) */
	const double *EW[3][8][TRIM_NDIMS];
	int wgroup[3][TRIM_NDIMS];
	stationary_workspace *sw; /* the memo, and EW's energies */
} stationary_frame;

/* A sliding window wider than one word at h, where the dataflow
 * constraints narrow the window at h (its search over the extents costs
 * more than it cuts elsewhere): a floor per first loop above h that reads
 * it. 1 if any floor applies. */
static int window_floors(stationary_frame *p, int t, unsigned irr)
{
	const trim__mapspace *s = p->s;
	const tensor_figures *tf = p->tf[t];
	const tensor_reuse *r = p->r[t];
	const int h = p->h;
	const unsigned dt = p->dstar & p->rd[t];
	int any = 0;
	int64_t done_fl[8][TRIM_NDIMS]; /* the floor whose energies EW holds (-1: none) */
	for (unsigned q = 0; q < 8; q++) {
		for (int d = 0; d < TRIM_NDIMS; d++) {
			done_fl[q][d] = -1;
			p->EW[t][q][d] = tf->E;
		}
		if ((q >> t & 1) || (q & ~p->keepable))
			continue;
		int64_t fl[TRIM_NDIMS];
		if (window_fills(p->sw, s, &p->x, h, q | 1u << t, t, dt, p->iters, r->share[h], fl) < 0) {
			p->fits[t][q] = 0; /* the least tiles do not fit */
			any = 1;
			continue;
		}
		for (int d = 0; d < TRIM_NDIMS; d++) {
			if (!(dt >> d & 1) || fl[d] <= r->share[h])
				continue;
			/* the same floor as before: the same energies */
			const double *same = NULL;
			for (unsigned q2 = 0; q2 <= q && !same; q2++)
				for (int d2 = 0; d2 < (q2 < q ? TRIM_NDIMS : d) && !same; d2++)
					if (done_fl[q2][d2] == fl[d])
						same = p->EW[t][q2][d2];
			if (!same) {
				double *E = p->sw->window_floors[t][q][d];
				trim__tensor_floor_energies(s, p->costs, p->f, p->m, t, p->r[t], h, fl[d], irr, E);
				same = E;
			}
			p->EW[t][q][d] = same;
			done_fl[q][d] = fl[d];
			any = 1;
		}
	}
	/* a first-loop dim whose floors are another's (the sole terms of t's
	 * axes: each replaces the whole tile) shares its variant: the first
	 * such dim stands for them */
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (!(dt >> d & 1))
			continue;
		p->wgroup[t][d] = d;
		for (int d2 = 0; d2 < d && p->wgroup[t][d] == d; d2++) {
			int eq = dt >> d2 & 1;
			for (unsigned q = 0; q < 8 && eq; q++)
				eq = p->EW[t][q][d2] == p->EW[t][q][d];
			if (eq)
				p->wgroup[t][d] = p->wgroup[t][d2];
		}
	}
	return any;
}

/* Tensor t qualifies: per set of the other tensors kept at h, the most
 * reuse rho its tiles allow, and the energies with the floor iterations /
 * rho (and half of it for a window axis). 1 if any floor applies. */
static int reuse_floors(stationary_frame *p, int t, unsigned irr)
{
	const trim__mapspace *s = p->s;
	const tensor_figures *tf = p->tf[t];
	const int h = p->h;
	int any = 0;
	int64_t done_rho[8];
	for (unsigned q = 0; q < 8; q++) {
		done_rho[q] = -1;
		if ((q >> t & 1) || (q & ~p->keepable))
			continue;
		int64_t rho = most_reuse(p->sw, s, &p->x, h, q | 1u << t, irr);
		done_rho[q] = rho;
		if (rho <= 0) {
			p->fits[t][q] = 0;
			any = 1;
			continue;
		}
		for (int half = 0; half < (p->win[t] ? 2 : 1); half++) {
			const int64_t div = half ? 2 * rho : rho;
			const int64_t floor = (p->iters + div - 1) / div;
			if (floor <= p->r[t]->share[h])
				continue;
			/* the same floor as a smaller set: the same energies */
			int same = -1;
			for (unsigned q2 = 0; q2 < q; q2++)
				if (done_rho[q2] == rho && p->EF[t][q2][half] != tf->E)
					same = (int)q2;
			if (same >= 0) {
				p->EF[t][q][half] = p->EF[t][same][half];
			} else {
				trim__tensor_floor_energies(s, p->costs, p->f, p->m, t, p->r[t], h, floor, irr,
				                            p->store[t][q][half]);
				p->EF[t][q][half] = p->store[t][q][half];
			}
			any = 1;
		}
	}
	return any;
}

/* Per tensor, its floors' energies (p->qual: the tensors with one,
 * p->wfloor: those by the sliding-window floor). */
static void tensor_floors(stationary_frame *p)
{
	const trim__intra *w = p->s->w;
	for (int t = 0; t < 3; t++)
		for (int c = 0; c < p->tf[t]->nch; c++)
			if (p->tf[t]->K[c] >> p->h & 1)
				p->keepable |= 1u << t;
	for (int t = 0; t < 3; t++) {
		p->rd[t] = w->t[t].present ? w->t[t].relevant : 0;
		p->win[t] = p->s->dslide[t];
		for (int q = 0; q < 8; q++) {
			p->EF[t][q][0] = p->EF[t][q][1] = p->tf[t]->E;
			p->fits[t][q] = 1;
		}
		for (int d = 0; d < TRIM_NDIMS; d++)
			p->wgroup[t][d] = -1;
		if (!(p->keepable >> t & 1) || !w->t[t].present)
			continue;
		unsigned irr = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (w->bound[d] > 1 && !(p->rd[t] >> d & 1))
				irr |= 1u << d;
		if (!qualifies(p->s, &p->x, t)) {
			if (window_narrowed(p->s, p->h, t) && window_floors(p, t, irr))
				p->qual |= 1u << t, p->wfloor |= 1u << t;
			continue;
		}
		if (reuse_floors(p, t, irr))
			p->qual |= 1u << t;
	}
}

/* Per possible first loop d above h: the tensors it reloads with the
 * whole floor (v[0]) and with half of it (v[1]: d in a window axis), and
 * the floor group of each windowed tensor that reads d; returns how many
 * distinct variants vars holds. */
static int first_loop_variants(const stationary_frame *p, stationary_variant *vars)
{
	int nvar = 0;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (!(p->dstar >> d & 1))
			continue;
		stationary_variant v = {{0, 0}, {-1, -1, -1}};
		for (int t = 0; t < 3; t++)
			if ((p->qual >> t & 1) && (p->rd[t] >> d & 1)) {
				v.v[(p->wfloor >> t & 1) ? 0 : (p->win[t] & p->s->wreturn[t]) >> d & 1] |= 1u << t;
				if (p->wfloor >> t & 1)
					v.wg[t] = p->wgroup[t][d];
			}
		int seen = 0;
		for (int i = 0; i < nvar && !seen; i++)
			seen = !memcmp(&vars[i], &v, sizeof v);
		if (!seen)
			vars[nvar++] = v;
	}
	if (nvar == 0) { /* no loop above h: every tile is loaded once per step */
		stationary_variant v = {{p->qual & ~p->wfloor, 0}, {-1, -1, -1}};
		vars[nvar++] = v;
	}
	return nvar;
}

/* Under first-loop variant v: the cheapest sum over the tensors, over the
 * sets of tensors kept at h, of each tensor's cheapest choice that keeps
 * it at h or not as the set says. */
static double cheapest_keep(const stationary_frame *p, const stationary_variant *v)
{
	const trim__intra *w = p->s->w;
	double bv = HUGE_VAL;
	for (unsigned keep = 0; keep < 8; keep++) {
		if (keep & ~p->keepable)
			continue;
		double sum = 0;
		for (int t = 0; t < 3 && sum < HUGE_VAL; t++) {
			if (!w->t[t].present)
				continue;
			const int in = keep >> t & 1;
			const unsigned others = keep & ~(1u << t);
			if (in && !p->fits[t][others]) {
				sum = HUGE_VAL;
				break;
			}
			const tensor_figures *tf = p->tf[t];
			const double *E = !in || !((v->v[0] | v->v[1]) >> t & 1) ? tf->E
			                  : p->wfloor >> t & 1                     ? p->EW[t][others][v->wg[t]]
			                                                          : p->EF[t][others][v->v[0] >> t & 1 ? 0 : 1];
			double g = HUGE_VAL;
			for (int c = 0; c < tf->nch; c++)
				if ((int)(tf->K[c] >> p->h & 1) == in && E[c] < g)
					g = E[c];
			sum += g;
		}
		if (sum < bv)
			bv = sum;
	}
	return bv;
}

double trim__stationary_bound(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                              const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                              stationary_workspace *sw)
{
	const trim__intra *w = s->w;
	if (!f->allsp)
		return 0;
	for (int t = 0; t < 3; t++)
		if (!tf[t]->complete)
			return 0;
	stationary_frame p; /* not zeroed: its stores are large, and written before they are read */
	p.s = s, p.costs = costs, p.f = f, p.m = m, p.tf = tf, p.r = r;
	p.keepable = p.qual = p.wfloor = 0;
	p.sw = sw;
	const int h = p.h = open_level(s, f);
	if (h < 0 || !extents_allowed(s, f, m, h, &p.x))
		return 0;
	p.iters = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (__builtin_mul_overflow(p.iters, w->bound[d], &p.iters))
			return 0;
	const unsigned first_dims = first_loop_dims(s, f, m, h);
	if (s->test_first_dims)
		*s->test_first_dims = first_dims;
	p.dstar = first_dims & (s->test_first_only ? s->test_first_only : ~0u);
	tensor_floors(&p);
	if (!p.qual)
		return 0;
	stationary_variant vars[TRIM_NDIMS + 1];
	const int nvar = first_loop_variants(&p, vars);
	double bound = HUGE_VAL;
	for (int i = 0; i < nvar; i++) {
		const double bv = cheapest_keep(&p, &vars[i]);
		if (bv < bound)
			bound = bv;
	}
	return bound == HUGE_VAL ? 0 : bound;
}
