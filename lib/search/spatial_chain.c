/*
 * The words on a chain of several spatial levels (docs/model.md, "Bounds",
 * *Spatial chains*): part of the node bound (tensor_bound.c) once every
 * spatial level is fixed. Per spatial level k with bounds > 1 on a hop of
 * tensor t, a floor on the words entering k's networks (operands) or
 * leaving them upwards (results), and on the words k hands its children
 * (operands: deliveries) or receives from them (results), summed over k's
 * instances. The single-level bounds of tensor_bound.c charge every level
 * of such a chain with the figure of the outermost (M_j >= M_0); these see
 * each level's own fan-out.
 */
#include "search_int.h"

int64_t trim__chain_sharers(const trim__mapspace *s, const trim__mapping *m, int t, int k)
{
	int64_t n = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!(s->share_priv[t] >> d & 1))
			n *= m->f[k][d];
	return n;
}

/*
 * The values of each dim below one node of spatial level k at a step, every
 * spatial level from k down fixed: sum_j i_j P_j over the spatial levels
 * j >= k, P_j the product of d's factors below j. When at most one such
 * level j has a factor n > 1 on d they are P [0, n) (shifted): P = F o, F
 * the fixed levels' factors below j, o the open storage levels' below j: 1
 * when none is below j, exactly the open levels' rest of d's bound when one
 * level is open, else a divisor of that rest. A two-term axis c0 d0 + c1 d1
 * over two such dims takes at least the least trim__axis_distinct over the
 * possible spacings (a stride or dilation above 1 then counts), where
 * |A| + |B| - 1 holds for any spacing. Several spatial levels on a dim: its
 * values are consecutive when no storage level below the outermost of them
 * can loop on it (the exact flag of trim__share_lower_bound). With imperfect
 * rows a rest may be ragged: nothing is claimed.
 */
typedef struct {
	int64_t n;    /* the values: the product of the spatial factors >= k */
	int ap;       /* at most one spatial level >= k with a factor > 1 */
	int contig;   /* consecutive values */
	int64_t F;    /* ap: the known part of the spacing */
	int64_t rest; /* the open levels' rest of the bound */
	int open;     /* ap: 0, o = 1; 1, o = rest; 2, o divides rest */
} chain_dim;

static void chain_dim_of(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int k, int d,
                         chain_dim *c)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	int jo = -1, nsp = 0, nopen = 0, below_open = 0, below_fixed = 0;
	c->n = c->rest = c->F = 1;
	for (int i = 0; i < s->nslots; i++) {
		const int l = s->slot[i];
		if (!f->fixed[l])
			nopen++, c->rest *= m->f[l][d];
	}
	for (int l = k; l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL && m->f[l][d] > 1) {
			c->n *= m->f[l][d];
			nsp++;
			if (jo < 0)
				jo = l;
		}
	/* the slots below the outermost spatial level with a factor on d (the
	 * spatial ones among them are fixed: factor 1 on d but for the others
	 * counted in n) */
	for (int i = 0; jo >= 0 && i < s->nslots; i++) {
		const int l = s->slot[i];
		if (l <= jo || a->lv[l].type == TRIM__LVL_SPATIAL)
			continue;
		if (!f->fixed[l])
			below_open++;
		else if (m->f[l][d] > 1)
			below_fixed = 1, c->F *= m->f[l][d];
	}
	c->ap = !s->imperfect && nsp <= 1;
	c->open = !below_open || c->rest == 1 ? 0 : nopen == 1 ? 1 : 2;
	c->contig = !s->imperfect && !below_fixed && c->open == 0;
}

/* The spacings a dim's values may have (chain_dim) into p (room for max);
 * their count, -1 if more. */
static int spacings(const chain_dim *c, int64_t *p, int max)
{
	if (c->open == 0) {
		p[0] = c->F;
		return 1;
	}
	if (c->open == 1) {
		p[0] = c->F * c->rest;
		return 1;
	}
	const int n = trim__divisors(c->rest, p, max);
	for (int i = 0; i < n; i++) /* none when n < 0 */
		p[i] *= c->F;
	return n;
}

int64_t trim__chain_share(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int k)
{
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const trim__tensor *T = &w->t[t];
	if (!T->present)
		return 0;
	int64_t ext[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++)
		ext[d] = 1;
	for (int l = k; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			for (int d = 0; d < TRIM_NDIMS; d++)
				ext[d] *= m->f[l][d];
	int64_t n = 1;
	for (int x = 0; x < T->ndims; x++) {
		const trim__iexpr *e = &T->idx[x];
		int dd[2];
		int64_t cc[2];
		const int nt = trim__axis_terms(e, dd, cc);
		if (nt == 1) {
			n *= ext[dd[0]];
			continue;
		}
		if (nt != 2 || dd[0] == dd[1] || ext[dd[0]] == 1 || ext[dd[1]] == 1 || trim__axis_one_to_one(w, e)) {
			const int nox[TRIM_NDIMS] = {0};
			n *= trim__axis_one_to_one(w, e) ? ext[e->dim[0]] * ext[e->dim[1]] : trim__axis_lower_bound(e, ext, nox);
			continue;
		}
		chain_dim c0, c1;
		chain_dim_of(s, f, m, k, dd[0], &c0);
		chain_dim_of(s, f, m, k, dd[1], &c1);
		const int64_t any = ext[dd[0]] + ext[dd[1]] - 1; /* whatever the spacings */
		int64_t least = any;
		if (c0.ap && c1.ap) {
			/* both dims' values arithmetic progressions: the least count
			 * over their possible spacings */
			enum { MAXSP = 256 };
			int64_t p0[MAXSP], p1[MAXSP];
			const int n0 = spacings(&c0, p0, MAXSP), n1 = spacings(&c1, p1, MAXSP);
			/* too many to try (over MAXSP divisors): any spacing */
			least = n0 < 0 || n1 < 0 ? any : INT64_MAX;
			for (int i = 0; i < n0 && least > any; i++)
				for (int j = 0; j < n1 && least > any; j++) {
					const int64_t v = trim__axis_distinct(cc[0] * p0[i], c0.n, cc[1] * p1[j], c1.n);
					if (v < least)
						least = v;
				}
		} else if (c0.contig && c1.contig) {
			least = trim__axis_distinct(cc[0], ext[dd[0]], cc[1], ext[dd[1]]);
		}
		n *= least > any ? least : any;
	}
	return n;
}

/*
 * The hop from the innermost holder h of t to the MACs (nothing below h
 * keeps t), every spatial level k in (h, MAC), innermost first, whether
 * fixed or not. At each temporal step every MAC uses one element of each
 * operand and makes one partial sum. D_k: the distinct elements the MACs
 * below one node of k (one instance of k's network) use or make at a
 * step, summed over the nodes and steps; D of the MACs = MACs.
 *
 * (a) An element used below a node of k is used below at most sh(k) of
 * its children: children that differ in a dim private to t (the sole term
 * of an axis of t) need disjoint elements, so sh(k) = the product of k's
 * factors of the other dims (k fixed), or the most any rows give them
 * (mapspace.share_cap, k open). So D_k >= D_{k below} / sh(k).
 * (b) Once k and every level below it are fixed: below one node, dim d
 * takes prod_{j >= k} f[j][d] values (one loop's values are distinct
 * whatever the strides; the spatial indices form a product set), so an
 * axis of one term takes as many values and one of two terms at least
 * |A| + |B| - 1, or more where the dims' spacings are known
 * (trim__chain_share), at each of
 * the MACs / prod_{j >= k, d} f[j][d] (node, step) pairs (the factors
 * multiply to the bounds): D_k >= MACs / prod f x share(prod_{j >= k} f[j]).
 *
 * Operands: a node must take in, at each step, every distinct element its
 * MACs use then (nothing below h keeps it; one word entering reaches every
 * child at best: multicast), so enter[k] >= D_k; k delivers at least what
 * enters its children (the level below, or one word per MAC).
 * Results: a level that does not reduce forwards each word it receives
 * (the evaluator's rule: the levels above the innermost run of reducing
 * levels pass what that run sends; a level with no bounds > 1 passes its
 * child's), so leave[k] = leave[k below]; one that reduces sends at least
 * one word per distinct element made below it at the step: leave[k] >=
 * D_k (assuming every reducing level reduces only lowers the figures);
 * recv[k] = leave[k below] (MACs below the innermost).
 * The outermost level gives h's figure: operands, every word entering its
 * networks is one read of h; results, every word leaving them upwards is
 * one update of h (returned; 0: no spatial level below h), and its D is
 * the result's distinct entries below h (*distinct_top).
 */
int64_t trim__chain_to_macs(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h,
                            int64_t *enter, int64_t *deliver, int64_t *distinct_top)
{
	const struct trim_arch *a = s->a;
	const trim__intra *w = s->w;
	const int nl = a->nlevels, res = t == 2;
	/* below: the figure of the level below (the MACs: one word each);
	 * distinct: the distinct elements per node of the level below, summed
	 * over its nodes (the MACs: one each) */
	int64_t below = w->macs, distinct = w->macs, top = 0, fan = 1;
	int all_fixed = 1; /* every level from k down fixed: fan is theirs */
	for (int k = h + 1; k < nl; k++)
		enter[k] = deliver[k] = 0;
	for (int k = nl - 1; k > h; k--) {
		const trim__level *K = &a->lv[k];
		if (K->type != TRIM__LVL_SPATIAL)
			continue;
		const int fixed = f->fixed[k];
		all_fixed &= fixed;
		const int64_t sh = fixed ? trim__chain_sharers(s, m, t, k) : s->share_cap[t][k];
		int64_t dk = (distinct + sh - 1) / sh;
		if (all_fixed) {
			for (int d = 0; d < TRIM_NDIMS; d++)
				fan *= m->f[k][d];
			const int64_t share = w->macs / fan * trim__chain_share(s, f, m, t, k);
			if (share > dk)
				dk = share;
		}
		const int64_t e = res && !K->reduction ? below : dk;
		enter[k] = e;
		deliver[k] = below;
		below = e;
		distinct = dk;
		top = e;
	}
	*distinct_top = top ? distinct : 0;
	return top;
}

/*
 * The hop from holder h down to holder l of t (h < l, every spatial level
 * between fixed), with at least `words` entries into l's instances
 * (operands: fills; results: drains). Operands: one word entering a node
 * of level k reaches at most prod_{j >= k on the hop} sharers(j) instances
 * of l that need its element at once (those differ only in dims not private
 * to t at each level; a level without multicast delivers it to one child:
 * sharer 1), each as one entry, so
 *   enter[k] >= words / prod_{j >= k} (multicast(j) ? sharers(j) : 1),
 * and k delivers at least what enters the next level with bounds below it
 * (l's entries below the innermost). Results: l's drains leave upwards; a
 * level that does not reduce forwards what it receives, one that reduces
 * sends at least (its subtree's words) / prod_{j >= k} sharers(j), the
 * argument of trim__chain_to_macs. Returns the figure of the outermost
 * level with bounds (operands: reads of h; results: updates of h), 0 if
 * none.
 */
int64_t trim__chain_hop(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h, int l,
                        int64_t words, int64_t *enter, int64_t *deliver)
{
	const struct trim_arch *a = s->a;
	const int res = t == 2;
	int64_t below = words, prod = 1, top = 0;
	for (int k = l - 1; k > h; k--) {
		enter[k] = deliver[k] = 0;
		const trim__level *K = &a->lv[k];
		const int open = f && !f->fixed[k];
		if (K->type != TRIM__LVL_SPATIAL || (!open && !trim__level_has_loops(m, k)))
			continue;
		const int64_t c = open ? s->share_cap[t][k] : trim__chain_sharers(s, m, t, k);
		int64_t e;
		if (res) {
			prod *= c;
			e = K->reduction ? (words + prod - 1) / prod : below;
		} else {
			prod *= K->multicast ? c : 1;
			e = (words + prod - 1) / prod;
		}
		enter[k] = e;
		deliver[k] = below;
		below = e;
		top = e;
	}
	return top;
}

int64_t trim__chain_distinct(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h)
{
	int64_t enter[TRIM__MAX_LEVELS], deliver[TRIM__MAX_LEVELS], u0 = 0;
	trim__chain_to_macs(s, f, m, t, h, enter, deliver, &u0);
	return u0;
}

/*
 * The result's read-backs at its innermost holder h, with spatial levels
 * of bounds > 1 between h and the MACs (docs/model.md, "Bounds", *Spatial
 * chains*). At each step every distinct element made below an instance of
 * h (U0 of them over the run: trim__chain_distinct, the same argument as
 * trim__chain_to_macs) starts from a partial sum that h reads back (R,
 * each a read of h that crosses every spatial level below h, down_words of
 * each) or from zero, once per residency in h (the entries F into h, each
 * drained later: a read of h that, when no spatial level between h's
 * parent holder ph and h reduces with bounds > 1 or may (open), crosses
 * each of them upwards and updates ph): R + F = U0 + (ph's read-backs) >= U0 (the evaluator's
 * R_i = U_i - F_{i-1} + R_{i-1}). The node bound already charges F >= in_h
 * drains (reads of h), R >= rb reads of h, nw[k] words received by each
 * spatial level k between ph and h and upd_ph updates of ph, and no
 * read-back's network word; the least addition over every split,
 *   min_{F >= in_h} c_R R - rd rb + rd (F - in_h) + sum_k hop_k (max(nw[k], F) - nw[k])
 *                   + upd (max(upd_ph, F) - upd_ph),   R = max(rb, U0 - F),
 * c_R = rd + (the hop energies below h), is convex and piecewise linear in
 * F, so its minimum lies at F = in_h, at R's kink U0 - rb, or at a kink
 * nw[k], upd_ph inside them. Returns it (0 when nothing is owed); *reads:
 * h's reads and drains together are at least U0.
 */
double trim__chain_readbacks(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                             const trim__mapping *m, int ph, int h, int64_t U0, int64_t in_h, int64_t rb,
                             const int64_t *nw, int64_t upd_ph, int64_t *reads)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	double c_down = 0;
	for (int k = h + 1; k < nl; k++)
		if (a->lv[k].type == TRIM__LVL_SPATIAL)
			c_down += costs[k].hop_pj * trim__net_min_hops(&costs[k]);
	const double rd = costs[h].read_pj;
	int up = ph >= 0;
	for (int k = ph + 1; up && k < h; k++)
		if (a->lv[k].type == TRIM__LVL_SPATIAL && a->lv[k].reduction && (!f->fixed[k] || trim__level_has_loops(m, k)))
			up = 0; /* drains of several instances of h may be added up on the way */
	const int64_t hi = U0 - rb > in_h ? U0 - rb : in_h;
	int64_t cand[TRIM__MAX_LEVELS + 2];
	int nc = 0;
	cand[nc++] = in_h;
	cand[nc++] = hi;
	for (int k = ph + 1; up && k < h; k++)
		if (a->lv[k].type == TRIM__LVL_SPATIAL && nw[k] > in_h && nw[k] < hi)
			cand[nc++] = nw[k];
	if (up && upd_ph > in_h && upd_ph < hi)
		cand[nc++] = upd_ph;
	double best = HUGE_VAL;
	for (int i = 0; i < nc; i++) {
		const int64_t F = cand[i], R = U0 - F > rb ? U0 - F : rb;
		double e = (rd + c_down) * (double)R - rd * (double)rb + rd * (double)(F - in_h);
		for (int k = ph + 1; up && k < h; k++)
			if (a->lv[k].type == TRIM__LVL_SPATIAL && F > nw[k])
				e += costs[k].hop_pj * trim__net_min_hops(&costs[k]) * (double)(F - nw[k]);
		if (up && F > upd_ph)
			e += costs[ph].update_pj * (double)(F - upd_ph);
		if (e < best)
			best = e;
	}
	*reads = U0 - in_h > rb ? U0 - in_h : rb;
	return best > 0 ? best : 0;
}

/* ---- the chain figures applied to one keep choice's counts ---------------- */

void trim__chain_memo_init(chain_memo *c)
{
	c->h = -1;
	c->top = 0;
	for (int l = 0; l < TRIM__MAX_LEVELS; l++)
		c->u0[l] = -1;
}

int64_t trim__chain_hop_raise(const trim__mapspace *s, const trim__mapping *m, int t, int h, int l, int sp,
                              int64_t words, int64_t up, int64_t rd_h, int64_t *nw, int64_t *dw)
{
	const struct trim_arch *a = s->a;
	const int res = t == 2;
	int64_t enter[TRIM__MAX_LEVELS], deliver[TRIM__MAX_LEVELS];
	const int64_t top = trim__chain_hop(s, NULL, m, t, h, l, words, enter, deliver);
	if (top > up)
		up = top;
	for (int k = h + 1; k < l; k++) {
		const trim__level *K = &a->lv[k];
		if (K->type != TRIM__LVL_SPATIAL)
			continue;
		/* tensor_bound.c's figures with the raised `up` (the words every
		 * level carries but sp's results and deliveries), and the level's own */
		const int bus = K->net == TRIM__NET_BUS && K->multicast;
		const int64_t carried = k != sp || (!res && bus) ? up : 0;
		const int64_t own = res || !bus ? deliver[k] : enter[k];
		nw[k] = nw[k] > carried ? nw[k] : carried;
		nw[k] = nw[k] > own ? nw[k] : own;
		dw[k] = dw[k] > up ? dw[k] : up;
		dw[k] = dw[k] > enter[k] ? dw[k] : enter[k];
	}
	return rd_h > up ? rd_h : up;
}

void trim__chain_macs_raise(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h,
                            chain_memo *c, int64_t *nw, int64_t *dw, int64_t *feed)
{
	const struct trim_arch *a = s->a;
	const int res = t == 2;
	if (c->h != h) {
		int64_t u0 = 0;
		c->top = trim__chain_to_macs(s, f, m, t, h, c->enter, c->deliver, &u0);
		c->h = h;
	}
	for (int l = h + 1; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		if (L->type != TRIM__LVL_SPATIAL || !c->enter[l])
			continue;
		const int bus = L->net == TRIM__NET_BUS && L->multicast;
		const int64_t own = res || !bus ? c->deliver[l] : c->enter[l];
		nw[l] = nw[l] > own ? nw[l] : own;
		dw[l] = dw[l] > c->enter[l] ? dw[l] : c->enter[l];
	}
	if (c->top > *feed)
		*feed = c->top;
}

double trim__chain_readbacks_raise(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                                   const trim__mapping *m, int t, int ph, int h, int64_t in_h, int64_t rb,
                                   const int64_t *nw, int64_t upd_ph, chain_memo *c, int64_t *reads_h)
{
	if (c->u0[h] < 0)
		c->u0[h] = trim__chain_distinct(s, f, m, t, h);
	if (c->u0[h] <= 0)
		return 0;
	int64_t reads = 0;
	const double e = trim__chain_readbacks(s, costs, f, m, ph, h, c->u0[h], in_h, rb, nw, upd_ph, &reads);
	if (reads > *reads_h)
		*reads_h = reads;
	return e;
}
