/*
 * One tensor's part of the node bound of the factorisation tree
 * (docs/model.md, "Bounds"): per keep choice its energy and counts over
 * every completion of the node's factors and every order
 * (trim__tensor_part_floor). The figures node_bound.c reads, and the
 * same under a variant of the joint order, are made from it in
 * tensor_figures.c.
 */
#include "search_int.h"

static int64_t fanout_of(const trim__level *L)
{
	return (L->fanout_x > 0 ? L->fanout_x : 1) * (L->fanout_y > 0 ? L->fanout_y : 1);
}

/* 1 if spatial level sp spreads two dims of one axis of tensor t (then
 * its instances' tiles may overlap: a word may reach several of them that
 * differ in a dim t reads). */
static int window_spread(const trim__intra *w, const trim__mapping *m, int sp, int t)
{
	const trim__tensor *T = &w->t[t];
	for (int a = 0; a < T->ndims; a++) {
		int k = 0;
		for (int j = 0; j < T->idx[a].nterms; j++)
			k += T->idx[a].coef[j] != 0 && m->f[sp][T->idx[a].dim[j]] > 1;
		if (k > 1)
			return 1;
	}
	return 0;
}

/* The refill steps of tensor t below known storage level l (docs/model.md,
 * "Bounds", *Counts*): the innermost storage level k <= l with a loop on a
 * dim of `moving` decides; every step of its loops on those dims (all its
 * loops when the joint variant puts such a dim innermost there: k in vk)
 * and of every storage level above it moves t's tile off itself. 1 when no
 * level has such a loop. */
static int64_t refill_steps(const trim__mapspace *s, const trim__mapping *m, int l, unsigned moving, int v,
                            unsigned vk)
{
	const struct trim_arch *a = s->a;
	int64_t M = 1;
	for (int k = l; k >= 0; k--) {
		if (a->lv[k].type != TRIM__LVL_STORAGE)
			continue;
		int star = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			star |= (moving >> d & 1) && m->f[k][d] > 1;
		if (!star)
			continue;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if ((moving >> d & 1) || (v > 0 && (vk >> k & 1)))
				M *= m->f[k][d];
		for (int k2 = 0; k2 < k; k2++)
			if (a->lv[k2].type == TRIM__LVL_STORAGE)
				for (int d = 0; d < TRIM_NDIMS; d++)
					M *= m->f[k2][d];
		break;
	}
	return M;
}

/* 1 if axis e has two terms on two dims (dd, with |coefficients| cc). */
static int two_terms(const trim__iexpr *e, int *dd, int64_t *cc)
{
	int k = 0;
	for (int j = 0; j < e->nterms; j++)
		if (e->coef[j] != 0) {
			if (k == 2)
				return 0;
			dd[k] = e->dim[j];
			cc[k++] = e->coef[j] < 0 ? -e->coef[j] : e->coef[j];
		}
	return k == 2 && dd[0] != dd[1];
}

/* The dims every change of which moves the tile of one instance of holder
 * l (every level above it fixed) off itself: the sole dims of an axis of t,
 * and a dim d0 of a two-term axis c0 d0 + c1 d1 when no storage level above
 * l loops on d1 and |c0| >= |c1| (e1 - 1) + 1, e1 the extent of d1 at l and
 * below: the instance's tiles for two values of d0's loops above l then
 * start at least |c0| e0 apart on the axis, at least the tile's width
 * |c0| (e0 - 1) + |c1| (e1 - 1) + 1 there (docs/model.md, "Bounds"). */
static unsigned moving_dims(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int l)
{
	unsigned mv = s->dsingle[t];
	for (int ax = 0; ax < s->npair[t]; ax++) {
		const int dd[2] = {s->pdim[t][ax][0], s->pdim[t][ax][1]};
		const int64_t *cc = s->pcoef[t][ax];
		for (int i = 0; i < 2; i++) {
			const int d0 = dd[i], d1 = dd[1 - i];
			int loops = 0;
			for (int q = 0; q < l; q++)
				loops |= s->a->lv[q].type == TRIM__LVL_STORAGE && m->f[q][d1] > 1;
			if (!loops && cc[i] >= cc[1 - i] * (f->sfx[l][d1] - 1) + 1)
				mv |= 1u << d0;
		}
	}
	return mv;
}

/* At most how many instances of holder l below spatial level sp hold one
 * word of operand t at one step, so that one multicast word serves them:
 * those that differ only in dims t does not read, times, per two-term axis
 * c0 d0 + c1 d1 with d0 spread by sp (by P), min(P, ceil(W / (|c0| E0))): W
 * the tile's width on the axis at l, E0 the extent of d0 below sp (the
 * instances' tiles start |c0| E0 apart), which need the extents at l and
 * below sp (`extents`: every level above l fixed). 0 when sp spreads both
 * dims of an axis, or one without the extents (not bounded here). */
static int64_t multicast_share(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int sp, int t,
                               int l, int extents)
{
	const trim__tensor *T = &s->w->t[t];
	int64_t n = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!(T->relevant >> d & 1))
			n *= m->f[sp][d];
	for (int ax = 0; ax < s->npair[t]; ax++) {
		const int dd[2] = {s->pdim[t][ax][0], s->pdim[t][ax][1]};
		const int64_t *cc = s->pcoef[t][ax];
		const int s0 = m->f[sp][dd[0]] > 1, s1 = m->f[sp][dd[1]] > 1;
		if (s0 && s1)
			return 0;
		if (!s0 && !s1)
			continue;
		if (!extents)
			return 0; /* the tile's width at l is not known */
		const int p = s0 ? 0 : 1;
		const int64_t width = cc[0] * (f->sfx[l][dd[0]] - 1) + cc[1] * (f->sfx[l][dd[1]] - 1) + 1;
		const int64_t gap = cc[p] * f->sfx[sp + 1][dd[p]];
		const int64_t q = (width + gap - 1) / gap, P = m->f[sp][dd[p]];
		n *= q < P ? q : P;
	}
	return n;
}

/* The distinct elements of tensor t that the instances below spatial
 * level sp touch at one step (the extents below sp known): per axis, a
 * one-term dim's factor at sp, and for c0 d0 + c1 d1 the values
 * c0 s0 i + c1 s1 j over the indices i, j of sp, s the dims' extents below
 * sp (every instance at the same inner indices). */
static int64_t spatial_tile_words(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int sp)
{
	const trim__tensor *T = &s->w->t[t];
	int64_t n = 1;
	for (int ax = 0; ax < T->ndims; ax++) {
		const trim__iexpr *e = &T->idx[ax];
		int dd[2], k = 0, dz = 0;
		int64_t cc[2];
		for (int j = 0; j < e->nterms; j++)
			if (e->coef[j] != 0)
				k++, dz = e->dim[j];
		if (k == 1)
			n *= m->f[sp][dz];
		else if (two_terms(e, dd, cc))
			n *= trim__axis_distinct(cc[0] * f->sfx[sp + 1][dd[0]], m->f[sp][dd[0]], cc[1] * f->sfx[sp + 1][dd[1]],
			                         m->f[sp][dd[1]]);
		/* else (one dim twice, or more terms) at least one value */
	}
	return n;
}

/* The capacity floor of an operand's crossings (docs/model.md, "Bounds",
 * *Crossings by capacity*): at each iteration of the loops of a known
 * storage level K and the levels above it, every element of t's tile below
 * K is used below K, and the levels below that keep t (choice `kept`) hold
 * at most their capacities' worth of it from before (instances x capacity
 * in words, all of it t's); the rest crosses below K during the iteration.
 * Raises Rc[K] to (those iterations) x (tile - held) where that is more. */
static void crossing_floor(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, const int *kept,
                           int t, const tensor_reuse *r, int64_t *Rc)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	/* not at the level the tree fixes last: its loops on the dims t does
	 * not read would make t's figures differ between siblings that share
	 * its own dims' factors (trim__leaf_children_bounds) */
	const int last = s->nslots >= 2 ? s->slot[s->tord[s->nslots - 2]] : -1;
	int64_t iters = 1;
	for (int K = 0; K < nl && (a->lv[K].type != TRIM__LVL_STORAGE || f->known[K]); K++) {
		if (K == last)
			break;
		if (a->lv[K].type != TRIM__LVL_STORAGE)
			continue;
		for (int d = 0; d < TRIM_NDIMS; d++)
			iters *= m->f[K][d];
		int64_t held = 0;
		int open = 0;
		for (int l = K + 1; l < nl && !open; l++) {
			const trim__level *L = &a->lv[l];
			if (L->type != TRIM__LVL_STORAGE || !kept[l])
				continue;
			if (L->capacity_bytes <= 0) {
				open = 1;
				break;
			}
			int64_t cap = L->capacity_bytes - s->reserved[l];
			if (L->partitioned && L->part_bytes[t] < cap)
				cap = L->part_bytes[t];
			const int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
			held += f->inst[l] * ((cap > 0 ? cap : 0) * 8 / bits);
		}
		const int64_t need = r->tile[K];
		if (!open && need > held && iters * (need - held) > Rc[K])
			Rc[K] = iters * (need - held);
	}
}

/* What the helpers of trim__tensor_part_floor share: the node, tensor t
 * under variant v of the joint order, the stationary fills' floor, the
 * words crossing below each known storage level, and what the keep
 * choices share, each computed when first needed. */
typedef struct {
	const trim__mapspace *s;
	const trim__level_cost *costs;
	const node_frame *f;
	const trim__mapping *m;
	int t, v, res;
	const int *inner;
	tensor_reuse *r;
	tensor_figures *o; /* variant 0's figures (NULL for v > 0) */
	node_counts *nc;   /* variant 0's counts, or NULL */
	/* the joint levels whose innermost loop refills t at every step (vk)
	 * and those whose innermost loop slides a window of t (wk) */
	unsigned vk, wk;
	/* the stationary fills' floor: the choices that keep t at level
	 * fill_level (-1: none) fill it at least fill_words times; irr: the
	 * dims t does not read */
	int fill_level;
	int64_t fill_words;
	unsigned irr;
	/* crossing[l]: words of t that cross the boundary below known storage
	 * level l, over refill_at[l] refill steps */
	int64_t crossing[TRIM__MAX_LEVELS], refill_at[TRIM__MAX_LEVELS];
	/* per holder l with every level above fixed, its refill steps and its
	 * sliding windows' words; per l and the spatial level sp on its hop,
	 * the instances one multicast word serves; per spatial level, the
	 * tile of t its instances touch at one step (-1: not yet) */
	int64_t steps_at[TRIM__MAX_LEVELS], slid_at[TRIM__MAX_LEVELS], share_at[TRIM__MAX_LEVELS],
	    tile_at[TRIM__MAX_LEVELS];
	int share_sp[TRIM__MAX_LEVELS];
	chain_memo chain; /* the chains of spatial levels below each holder (spatial_chain.c) */
} part_frame;

/* One keep choice's counts per level (trim__tensor_part_floor). */
typedef struct {
	int kept[TRIM__MAX_LEVELS];
	int64_t rd[TRIM__MAX_LEVELS], in[TRIM__MAX_LEVELS];
	int64_t dw[TRIM__MAX_LEVELS]; /* network: words entering (cycles) */
	int64_t nw[TRIM__MAX_LEVELS]; /* network: words charged (energy) */
	int64_t rq[TRIM__MAX_LEVELS]; /* results: reads (read-backs and the R + D rule) */
	int64_t rdc[TRIM__MAX_LEVELS]; /* rd with the MAC feed */
	int64_t rdown[TRIM__MAX_LEVELS];
	int64_t Rc[TRIM__MAX_LEVELS]; /* the crossings with this choice's capacity floor */
	int h, ph;                    /* the innermost holder; its parent holder */
	int direct; /* no spatial level of bounds > 1 (or unknown) below h */
	int64_t feed;
} choice_counts;

/* The joint masks, the crossings below the known levels and (variant 0)
 * the reuse r that the other variants read. */
static void part_frame_init(part_frame *p)
{
	const trim__mapspace *s = p->s;
	const trim__intra *w = s->w;
	const int nl = s->a->nlevels, t = p->t;
	p->vk = p->wk = 0;
	for (int k = 0; p->inner && k < nl; k++)
		if (p->inner[k] >= 0) {
			const int mv = trim__joint_moves(s, p->f, p->m, t, k, p->inner[k]);
			p->vk |= (unsigned)(mv == 1) << k;
			p->wk |= (unsigned)(mv == 2) << k;
		}
	memset(p->crossing, 0, sizeof p->crossing);
	memset(p->refill_at, 0, sizeof p->refill_at);
	for (int l = 0; l < nl; l++) {
		if (!p->f->known[l])
			continue;
		const int64_t M = refill_steps(s, p->m, l, s->dsingle[t], p->v, p->vk);
		if (p->v == 0)
			p->r->tile[l] = trim__mapping_tile_elems(p->m, w, l + 1, t);
		p->crossing[l] = M * p->r->tile[l];
		p->refill_at[l] = M;
	}
	if (p->v == 0)
		trim__tensor_reuse_of(s, p->f, p->m, t, p->r);
	trim__chain_memo_init(&p->chain);
	for (int l = 0; l < nl; l++)
		p->steps_at[l] = p->slid_at[l] = p->share_at[l] = p->tile_at[l] = -1;
}

/* The entries into holder l below known storage level prev, every level
 * above l fixed: at each of the M steps every instance of l refills its
 * whole tile (the extents at l are known), and the sliding windows. */
static void fixed_entries(part_frame *p, choice_counts *cc, int l, int prev)
{
	const trim__mapspace *s = p->s;
	if (p->steps_at[l] < 0) {
		const unsigned mv = moving_dims(s, p->f, p->m, p->t, l);
		p->steps_at[l] = mv == s->dsingle[p->t] ? p->refill_at[prev] : refill_steps(s, p->m, prev, mv, p->v, p->vk);
	}
	int64_t refill = p->steps_at[l] * p->f->inst[l] * p->r->rsh[l];
	if (refill > cc->in[l])
		cc->in[l] = refill;
	if (p->wk) {
		if (p->slid_at[l] < 0)
			p->slid_at[l] = p->f->inst[l] * trim__window_slides(s, p->f, p->m, p->t, l, p->wk, p->inner);
		if (p->slid_at[l] > cc->in[l])
			cc->in[l] = p->slid_at[l];
	}
}

/* The hop (h, l) with every spatial level fixed: l's instances each
 * receive their share; the reads of h and the words on the way. */
static void fixed_hop(part_frame *p, choice_counts *cc, int l, int prev)
{
	const trim__mapspace *s = p->s;
	const struct trim_arch *a = s->a;
	const trim__mapping *m = p->m;
	const int t = p->t, res = p->res, h = cc->h;
	const int64_t touched = p->r->touched;
	int64_t *in = cc->in, *rd = cc->rd, *nw = cc->nw, *dw = cc->dw;
	int sp = -1, nsp = 0;
	for (int k = h + 1; k < l; k++)
		if (a->lv[k].type == TRIM__LVL_SPATIAL && trim__level_has_loops(m, k))
			sp = k, nsp++;
	if (p->r->share[l] > in[l])
		in[l] = p->r->share[l];
	const trim__level *S = sp >= 0 ? &a->lv[sp] : NULL;
	int mc = S && (res ? S->reduction : S->multicast);
	int64_t up = nsp == 1 && mc ? p->r->share[h] : in[l];
	if (l == p->fill_level && nsp == 1 && mc && !window_spread(s->w, m, sp, t)) {
		int64_t sfan = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (p->irr >> d & 1)
				sfan *= m->f[sp][d];
		if ((p->fill_words + sfan - 1) / sfan > up)
			up = (p->fill_words + sfan - 1) / sfan;
	}
	/* operands: the words crossing below a known storage level on the way
	 * all enter the network (read once for every instance that takes
	 * them) */
	for (int j = h; !res && nsp == 1 && j < sp; j++)
		if (a->lv[j].type == TRIM__LVL_STORAGE && p->f->known[j] && cc->Rc[j] > up)
			up = cc->Rc[j];
	/* and at least the words entering l's instances over the most of them
	 * one multicast word serves */
	if (!res && nsp == 1 && mc) {
		if (p->share_at[l] < 0 || p->share_sp[l] != sp) {
			p->share_at[l] = multicast_share(s, p->f, m, sp, t, l, prev >= 0 && p->f->known[prev]);
			p->share_sp[l] = sp;
		}
		const int64_t ms = p->share_at[l];
		if (ms > 0 && (in[l] + ms - 1) / ms > up)
			up = (in[l] + ms - 1) / ms;
	}
	if (nsp > 1)
		up = touched; /* outside the model's scope: keep it simple */
	if (up > rd[h])
		rd[h] = up;
	for (int k = h + 1; k < l; k++)
		if (a->lv[k].type == TRIM__LVL_SPATIAL) {
			/* operands: words on a bus with multicast, deliveries
			 * otherwise (the words entering each level on the way are >=
			 * the parent's distinct share); results: every drained word
			 * enters */
			int64_t words = res ? in[l] : (a->lv[k].net == TRIM__NET_BUS && a->lv[k].multicast) ? up : in[l];
			if (k != sp)
				words = up;
			nw[k] = words;
			dw[k] = up;
		}
	if (nsp > 1) /* each level's own fan-out */
		rd[h] = trim__chain_hop_raise(s, m, t, h, l, sp, in[l], up, rd[h], nw, dw);
}

/* The keep choice's entries and reads at every storage level, down to its
 * innermost holder h, with the words on the hops between holders. */
static void holder_counts(part_frame *p, choice_counts *cc)
{
	const trim__mapspace *s = p->s;
	const struct trim_arch *a = s->a;
	const node_frame *f = p->f;
	const int nl = a->nlevels, allsp = f->allsp;
	const int *kept = cc->kept, *known = f->known;
	int64_t *in = cc->in, *rd = cc->rd;
	for (int l = 0; l < nl; l++)
		rd[l] = in[l] = cc->dw[l] = cc->nw[l] = cc->rq[l] = 0;
	int prev = -1; /* the storage level above */
	cc->h = 0, cc->ph = -1;
	rd[0] = p->r->touched;
	memcpy(cc->Rc, p->crossing, sizeof cc->Rc);
	if (!p->res && allsp)
		crossing_floor(s, f, p->m, kept, p->t, p->r, cc->Rc);
	for (int l = 0; l < nl; l++) {
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		if (kept[l]) {
			if (prev >= 0 && !known[prev] && allsp && p->r->forced[l] > in[l])
				in[l] = p->r->forced[l];
			if (l == p->fill_level && p->fill_words > in[l])
				in[l] = p->fill_words;
			if (prev >= 0 && known[prev]) {
				in[l] = cc->Rc[prev]; /* entries into the holder l */
				if (allsp)
					fixed_entries(p, cc, l, prev);
			}
			if (l > 0 && allsp) {
				fixed_hop(p, cc, l, prev);
			} else if (l > 0) {
				/* a spatial level open: l's entries and the words on the
				 * way (open_hop.c) */
				rd[cc->h] = trim__open_hop_raise(s, f, p->m, p->t, cc->h, l, p->r->touched, &in[l], rd[cc->h],
				                                 cc->nw, cc->dw);
			}
			if (l != cc->h)
				cc->ph = cc->h;
			cc->h = l;
		}
		if (known[l] && cc->Rc[l] > rd[cc->h])
			rd[cc->h] = cc->Rc[l];
		prev = l;
	}
}

/* The innermost holder h feeds every MAC: the feed (cc->feed) and the
 * words on the spatial levels below h, with every spatial level fixed. */
static void fixed_feed(part_frame *p, choice_counts *cc, int64_t fan)
{
	const trim__mapspace *s = p->s;
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const node_frame *f = p->f;
	const trim__mapping *m = p->m;
	const int nl = a->nlevels, res = p->res, h = cc->h, t = p->t;
	int64_t feed;
	int nbig = 0, sp = -1;
	for (int l = h + 1; l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL && trim__level_has_loops(m, l))
			sp = l, nbig++;
	if (nbig == 0) {
		feed = w->macs;
	} else if (nbig == 1) {
		const trim__level *S = &a->lv[sp];
		int mc = res ? S->reduction : S->multicast;
		/* the spatial tile: one value per index of S per dim, at the
		 * stride of the extents below S once they are known, else the
		 * least over the strides the open levels below S may give
		 * (trim__chain_share; |A + B| >= |A| + |B| - 1 at least) */
		if (p->tile_at[sp] < 0)
			p->tile_at[sp] = f->sfx_exact[sp + 1] ? spatial_tile_words(s, f, m, t, sp)
			                                      : trim__chain_share(s, f, m, t, sp);
		feed = mc ? f->steps * f->inst[h] * p->tile_at[sp] : w->macs;
	} else {
		/* several levels with bounds: a node of the delivery tree at
		 * depth j needs at least the elements its whole subtree needs, so
		 * the words entering the tree (M_jm, operands) and the updates
		 * (M_jr, results) are at least M_0, the distinct elements over
		 * every spatial index below one instance of h, at each of the
		 * steps. Per dim the indices of those levels take prod f values
		 * (a loop's values are distinct whatever the strides), so the
		 * tile is at least the share of those extents (|A + B| >= |A| +
		 * |B| - 1; more where the dims' strides are known,
		 * trim__chain_share) */
		const int64_t tile = trim__chain_share(s, f, m, t, h + 1);
		feed = f->steps * f->inst[h] * tile;
		if (w->macs / fan > feed)
			feed = w->macs / fan;
	}
	for (int l = h + 1; l < nl; l++) {
		const trim__level *L = &a->lv[l];
		if (L->type != TRIM__LVL_SPATIAL)
			continue;
		/* operands: the words entering (bus with multicast) or the
		 * deliveries (MACs) at the innermost level with bounds; the feed
		 * at the others (M_j >= M_0); results: every MAC's partial sum
		 * enters the innermost level with bounds */
		int64_t words = feed;
		if (l == sp)
			words = res ? w->macs : (L->net == TRIM__NET_BUS && L->multicast) ? feed : w->macs;
		cc->nw[l] = words;
		cc->dw[l] = feed;
	}
	cc->feed = feed;
}

/* The innermost holder feeds every MAC (cc->feed, cc->direct) and the
 * words on the spatial levels below it. */
static void mac_feed(part_frame *p, choice_counts *cc)
{
	const trim__intra *w = p->s->w;
	const struct trim_arch *a = p->s->a;
	const int nl = a->nlevels, res = p->res, h = cc->h;
	cc->direct = 1;
	for (int l = h + 1; l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL && (!p->f->fixed[l] || trim__level_has_loops(p->m, l)))
			cc->direct = 0;
	int nsp = 0;
	int64_t allfan = 1, fan = 1;
	for (int l = h + 1; l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL) {
			nsp++;
			allfan *= fanout_of(&a->lv[l]);
			if (res ? a->lv[l].reduction : a->lv[l].multicast)
				fan *= fanout_of(&a->lv[l]);
		}
	if (p->f->allsp) {
		fixed_feed(p, cc, fan);
	} else {
		cc->feed = w->macs / fan;
		for (int l = h + 1; l < nl; l++) {
			const trim__level *L = &a->lv[l];
			if (L->type != TRIM__LVL_SPATIAL)
				continue;
			int64_t fo = fanout_of(L);
			/* with several spatial levels on the way, one of them may
			 * carry only what enters the network: MACs / all fan-outs */
			int64_t words = nsp > 1 ? w->macs / allfan
			                : res   ? w->macs
			                : L->net == TRIM__NET_BUS && L->multicast ? w->macs / fo
			                                                          : w->macs;
			cc->nw[l] = words;
		}
	}
	trim__chain_macs_raise(p->s, p->f, p->m, p->t, h, &p->chain, cc->nw, cc->dw,
	                       &cc->feed); /* each level's own fan-out */
}

/* The network's energy: every level on the hop to the MAC: at one step, an
 * element needed by a node of the delivery tree at depth j is needed by at
 * most prod_d f[S_j][d] of its children over the dims d not private to t
 * (children that differ in a private dim need disjoint elements), so M_j
 * >= M_{j+1} / that >= MACs / the product down to S_{k-1}; operands: a
 * level carries at least M_j of its own depth; results: a level receives
 * from below at least M_{j+1} (the lowest level every MAC's partial sum)
 * and sends up at least M_j. A level not fixed yet: the most any rows
 * give (mapspace.share_cap). Then the levels above h. */
static double network_energy(part_frame *p, choice_counts *cc)
{
	const trim__mapspace *s = p->s;
	const trim__level_cost *costs = p->costs;
	const struct trim_arch *a = s->a;
	const int64_t macs = s->w->macs;
	const int nl = a->nlevels, res = p->res, h = cc->h, t = p->t;
	node_counts *nc = p->v == 0 ? p->nc : NULL;
	double enet = 0;
	int64_t below = 1;
	for (int l = nl - 1; l > h; l--) {
		const trim__level *L = &a->lv[l];
		if (L->type != TRIM__LVL_SPATIAL)
			continue;
		int64_t nb = 1;
		if (p->f->fixed[l]) {
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (!(s->share_priv[t] >> d & 1))
					nb *= p->m->f[l][d];
		} else {
			nb = s->share_cap[t][l];
		}
		const int64_t incl = below * nb;
		const int64_t carried = (macs + (res ? below : incl) - 1) / (res ? below : incl);
		const int64_t entering = (macs + incl - 1) / incl;
		if (carried > cc->nw[l])
			cc->nw[l] = carried;
		if (entering > cc->dw[l])
			cc->dw[l] = entering;
		below = incl;
		const double hops = trim__systolic_hops(s, costs, p->f, p->m, t, l);
		enet += (double)cc->nw[l] * costs[l].hop_pj * hops;
		if (nc)
			nc->avg[t][l] = hops > trim__net_min_hops(&costs[l]);
	}
	for (int l = 0; l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL && l <= h) {
			const double hops = trim__systolic_hops(s, costs, p->f, p->m, t, l);
			enet += (double)cc->nw[l] * costs[l].hop_pj * hops;
			if (nc)
				nc->avg[t][l] = hops > trim__net_min_hops(&costs[l]);
		}
	return enet;
}

/* A result holder l below the outermost with no spatial level of bounds >
 * 1 (or unknown) between it and its child holder (or the MACs): every
 * update is an arrival, and each arrival is read back or drained (R + D =
 * U + the parent's read-backs; docs/model.md, "Bounds"), both reads of l.
 * 1 if so. */
static int updates_arrive(const part_frame *p, const choice_counts *cc, int l)
{
	const struct trim_arch *a = p->s->a;
	const int nl = a->nlevels;
	int direct_l = l == cc->h ? cc->direct : 1;
	for (int k = l + 1; l != cc->h && k < nl && a->lv[k].type != TRIM__LVL_COMPUTE; k++) {
		if (a->lv[k].type == TRIM__LVL_STORAGE && cc->kept[k])
			break;
		if (a->lv[k].type == TRIM__LVL_SPATIAL && (!p->f->fixed[k] || trim__level_has_loops(p->m, k)))
			direct_l = 0;
	}
	return direct_l;
}

/* The keep choice's energy from enet (the network's): the storage levels'
 * reads and writes, the read-backs, and a chain's or a systolic array's
 * read-backs; variant 0's cycle figures lowered to this choice's (have:
 * an earlier choice set them). */
static double choice_energy(part_frame *p, choice_counts *cc, double enet, int have)
{
	const trim__mapspace *s = p->s;
	const trim__level_cost *costs = p->costs;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels, res = p->res, h = cc->h, v = p->v;
	const int64_t touched = p->r->touched;
	const int *kept = cc->kept;
	tensor_figures *o = p->o;
	int64_t *rd = cc->rd, *in = cc->in, *rq = cc->rq, *rdc = cc->rdc;
	memcpy(rdc, rd, (size_t)nl * sizeof *rd);
	if (cc->feed > rdc[h])
		rdc[h] = cc->feed;
	double e = enet, echain = 0;
	int64_t rq_chain = 0; /* the chain's reads of h (trim__chain_readbacks_raise) */
	for (int l = 0; l < nl; l++) {
		if (a->lv[l].type == TRIM__LVL_SPATIAL) {
			/* cycles: words entering (operands) / leaving upwards (results) */
			if (v == 0 && (!have || cc->dw[l] < o->net[l]))
				o->net[l] = cc->dw[l];
			continue;
		}
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		/* Timeloop's counting (costs[l].count) charges no drain
		 * (docs/mapping.md, rule 3): the result's energy is then its
		 * updates' only, the read-backs and the reads that stand for
		 * drains below left out */
		const int tl = costs[l].count == TRIM_COUNT_TIMELOOP;
		e += res ? (double)rdc[l] * costs[l].update_pj + (double)in[l] * trim__drain_pj(&costs[l])
		         : (double)rdc[l] * costs[l].read_pj + (double)in[l] * costs[l].write_pj;
		int64_t rback_words = p->r->rback && kept[l] && rdc[l] > touched ? rdc[l] - touched : 0;
		if (!tl)
			e += (double)rback_words * costs[l].read_pj;
		rq[l] = rback_words;
		if (res && kept[l] && l > 0 && rdc[l] > in[l] + rback_words && updates_arrive(p, cc, l)) {
			if (!tl)
				e += (double)(rdc[l] - in[l] - rback_words) * costs[l].read_pj;
			rq[l] = rdc[l] - in[l];
		}
		if (res && l == h && l > 0 && !cc->direct) { /* read-backs over a chain to the MACs */
			rq_chain = rq[l];
			echain = trim__chain_readbacks_raise(s, costs, p->f, p->m, p->t, cc->ph, h, in[l], rback_words, cc->nw,
			                                     cc->ph >= 0 ? rdc[cc->ph] : 0, &p->chain, &rq_chain);
		}
		/* cycles: the counts without the MAC feed (its level depends on the choice) */
		if (v == 0 && (!have || rd[l] < o->rd[l]))
			o->rd[l] = rd[l];
		if (v == 0 && (!have || in[l] < o->in[l]))
			o->in[l] = in[l];
		if (v == 0 && kept[l] && in[l] < o->inkeep[l])
			o->inkeep[l] = in[l];
	}
	/* a result's read-backs down a systolic array (systolic_bound.c): the
	 * chain's read-back term above charges the same read-backs (their
	 * reads and their words down the levels below h), so the larger of
	 * the two is added, not both */
	const double esys = trim__systolic_readbacks(s, costs, p->f, p->m, p->t, kept, rdc, rq, cc->rdown);
	e += esys > echain ? esys : echain;
	if (rq_chain > rq[h])
		rq[h] = rq_chain;
	return e;
}

/* Variant 0: choice c's energy e, keep mask and (nc) counts recorded. */
static void record_choice(part_frame *p, const choice_counts *cc, int c, double e)
{
	const int nl = p->s->a->nlevels, t = p->t;
	unsigned km = 0;
	for (int l = 0; l < nl; l++)
		km |= (unsigned)cc->kept[l] << l;
	p->o->E[c] = e;
	p->o->K[c] = km;
	p->o->nch = c + 1;
	node_counts *nc = p->nc;
	if (nc) {
		memcpy(nc->a[t][c], cc->rdc, (size_t)nl * sizeof *cc->rdc);
		memcpy(nc->b[t][c], cc->in, (size_t)nl * sizeof *cc->in);
		memcpy(nc->r[t][c], cc->rq, (size_t)nl * sizeof *cc->rq);
		memcpy(nc->net[t][c], cc->nw, (size_t)nl * sizeof *cc->nw);
		memcpy(nc->dw[t][c], cc->dw, (size_t)nl * sizeof *cc->dw);
		memcpy(nc->rdown[t][c], cc->rdown, (size_t)nl * sizeof *cc->rdown);
	}
}

/* Tensor t's part of the node bound under variant v of the joint order (0:
 * every tensor's best order; else, at each known level k of the mask vk, an
 * innermost loop on a dim t reads alone on an axis, so that every loop of k
 * refills t's tile below it):
 * returns the cheapest choice's energy. Variant 0 computes r (what the
 * others read) and o; the others write their per-choice energies into Ev.
 * nc (variant 0, not NULL): the counts of every choice. fh >= 0 (a variant
 * v > 0 with vk = -1): the choices that keep t at level fh fill (result:
 * drain) it at least ffl times (stationary_bound.c), and its parent reads
 * (result: is updated) at least ffl / sfan of those through a multicast
 * (reducing) spatial level, sfan the instances of fh there that differ
 * only in the dims of mask irr (t reads none of them), unless that level
 * spreads two dims of one axis of t (window_spread). */
double trim__tensor_part_floor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                               const trim__mapping *m, int t, int v, const int *inner, tensor_reuse *r,
                               tensor_figures *o, double *Ev, node_counts *nc, int fh, int64_t ffl, unsigned irr)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	part_frame p = {.s = s, .costs = costs, .f = f, .m = m, .t = t, .v = v, .res = t == 2, .inner = inner, .r = r,
	                .o = o, .nc = nc, .fill_level = fh, .fill_words = ffl, .irr = irr};
	part_frame_init(&p);
	/* keep choices: every storage level below the outermost that may hold t */
	int kb[TRIM__MAX_LEVELS], nkb = 0;
	for (int l = 1; l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].keep[t])
			kb[nkb++] = l;
	if (nc && v == 0 && (1 << nkb) > 64)
		nc->complete = 0;
	if (nc && v == 0)
		memset(nc->avg[t], 0, sizeof nc->avg[t]);
	int have = 0;
	double emin = 0;
	if (v == 0)
		for (int l = 0; l < nl; l++)
			o->inkeep[l] = INT64_MAX;
	for (int c = 0; c < (1 << nkb); c++) {
		choice_counts cc;
		memset(cc.kept, 0, sizeof cc.kept);
		cc.kept[0] = 1;
		for (int j = 0; j < nkb; j++)
			cc.kept[kb[j]] = c >> j & 1;
		holder_counts(&p, &cc);
		mac_feed(&p, &cc);
		const double e = choice_energy(&p, &cc, network_energy(&p, &cc), have);
		if (v == 0 && c < 64)
			record_choice(&p, &cc, c, e);
		if (v > 0 && c < 64)
			Ev[c] = e;
		if (!have || e < emin)
			emin = e;
		have = 1;
	}
	if (v == 0) {
		o->emin = emin;
		o->complete = (1 << nkb) <= 64;
	}
	return emin;
}
