/*
 * The lower bound of a node of the factorisation tree (docs/model.md,
 * "Bounds"): valid for every completion of its factors, every bypass choice
 * and every order.
 */
#include "search_int.h"

/* A lower bound on the elements of tensor t touched by a share of the
 * workload with ext[d] values of each dim d: a one-term axis has ext
 * values; a two-term axis c0*d0 + c1*d1 has exactly trim__axis_distinct
 * when both dims run over a contiguous range (exact[d]), and otherwise at
 * least ext0 + ext1 - 1 (|A + B| >= |A| + |B| - 1 for sets of integers). */
static int64_t share_lower_bound(const trim__intra *w, int t, const int64_t *ext, const int *exact)
{
	const trim__tensor *T = &w->t[t];
	if (!T->present)
		return 0;
	int64_t n = 1;
	for (int a = 0; a < T->ndims; a++) {
		const trim__iexpr *e = &T->idx[a];
		int64_t v[2];
		int k = 0, ex = 1;
		for (int j = 0; j < e->nterms; j++)
			if (e->coef[j] != 0) {
				v[k++] = ext[e->dim[j]];
				ex &= exact[e->dim[j]];
			}
		if (k == 1)
			n *= v[0];
		else if (k == 2)
			n *= ex ? trim__axis_distinct(e->coef[0], ext[e->dim[0]], e->coef[1], ext[e->dim[1]])
			        : v[0] + v[1] - 1;
	}
	return n;
}

static int level_has_loops(const trim__mapping *m, int l)
{
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (m->f[l][d] > 1)
			return 1;
	return 0;
}

static int64_t fanout_of(const trim__level *L)
{
	return (L->fanout_x > 0 ? L->fanout_x : 1) * (L->fanout_y > 0 ? L->fanout_y : 1);
}

/* Lower bound, valid for every completion of the factors, every bypass choice
 * and every order, on the cost of the mappings below a node of the tree
 * (docs/model.md, "Mapspace and search"). The node fixes the factors of the
 * first `depth` slots of s->tord (the spatial levels first); m holds them.
 * Per tensor and keep choice (every level that may hold it):
 * - compulsory traffic: the outermost level reads (result: receives) every
 *   element the workload touches at least once;
 * - at each boundary below a storage level l whose levels above are all
 *   fixed, the words crossing it are read from (result: written into) the
 *   innermost holder above it, and the holder below is entered as often;
 * - once the spatial levels are fixed: every instance of a holder below a
 *   spatial level receives (result: drains) every element its share of the
 *   workload touches at least once, and its parent reads at least the
 *   distinct elements of one parent instance's share (multicast) or every
 *   delivery; the innermost holder feeds every MAC: MACs words when no
 *   spatial level with bounds > 1 is between, else per step the distinct
 *   elements of the spatial tile (multicast / reduction) or one word per
 *   PE; every partial sum enters the network;
 * - before that: the innermost holder feeds MACs / F words, F the fan-out
 *   of the multicasting (result: reducing) spatial levels below it.
 * Cycles: the evaluator on the count-wise minimum over the choices (no MAC
 * feed), with the active PEs and instances once the spatial levels are
 * fixed; energy: the sum over tensors of the cheapest choice, plus MACs and
 * leakage. */

static void node_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth, int64_t zero_macs,
                       trim__mapping *m, trim__eval *ev, double *lb, node_choices *out, node_counts *nc, int joint,
                       double cut);

void trim__mapspace_node_lb(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, NULL, NULL, 0, HUGE_VAL);
}

void trim__node_bound_joint(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, NULL, NULL, 1, HUGE_VAL);
}

void trim__node_bound_above(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, node_choices *out,
                            double cut)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, out, NULL, 0, cut);
}

void trim__node_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                      int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, node_choices *out)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, out, NULL, 0, HUGE_VAL);
}

/* 1 if keep choices cc[t] (masks K) fit the capacities whose tiles are known. */
int trim__choices_fit(const trim__mapspace *s, const int *extk, const int64_t *const *tbytes,
                      const unsigned *const *K, const int *nch, const int *cc)
{
	const struct trim_arch *a = s->a;
	for (int l = 1; l < a->nlevels; l++) {
		if (!extk[l])
			continue;
		const trim__level *L = &a->lv[l];
		int64_t total = 0;
		for (int t = 0; t < 3; t++)
			if (nch[t] && (K[t][cc[t]] >> l & 1)) {
				if (L->partitioned && tbytes[t][l] > L->part_bytes[t])
					return 0;
				total += tbytes[t][l];
			}
		if ((!L->partitioned || s->reserved[l] > 0) && total + s->reserved[l] > L->capacity_bytes)
			return 0;
	}
	return 1;
}

/* The cheapest sum over tensors of E[t][choice] whose choices fit the
 * known tiles (HUGE_VAL: none fits): the choices of each tensor by
 * increasing energy, a branch left as soon as it cannot beat the best. */
static double cheapest_fit(const trim__mapspace *s, const int *extk, const tensor_figures *const *tf,
                           const double *const *E)
{
	int ord[3][64], n[3], nch[3];
	const int64_t *tbytes[3];
	const unsigned *K[3];
	double lo[4] = {0, 0, 0, 0}; /* lo[t]: the sum of the cheapest of tensors >= t */
	for (int t = 0; t < 3; t++) {
		nch[t] = tf[t]->nch;
		tbytes[t] = tf[t]->tbytes;
		K[t] = tf[t]->K;
		n[t] = nch[t] ? nch[t] : 1;
		for (int i = 0; i < n[t]; i++) { /* insertion sort: few choices */
			int j = i;
			while (j > 0 && nch[t] && E[t][ord[t][j - 1]] > E[t][i]) {
				ord[t][j] = ord[t][j - 1];
				j--;
			}
			ord[t][j] = i;
		}
	}
	for (int t = 2; t >= 0; t--)
		lo[t] = lo[t + 1] + (nch[t] ? E[t][ord[t][0]] : 0);
	double best = HUGE_VAL;
	for (int i0 = 0; i0 < n[0]; i0++) {
		const double e0 = nch[0] ? E[0][ord[0][i0]] : 0;
		if (e0 + lo[1] >= best)
			break;
		for (int i1 = 0; i1 < n[1]; i1++) {
			const double e1 = e0 + (nch[1] ? E[1][ord[1][i1]] : 0);
			if (e1 + lo[2] >= best)
				break;
			for (int i2 = 0; i2 < n[2]; i2++) {
				const double e = e1 + (nch[2] ? E[2][ord[2][i2]] : 0);
				if (e >= best)
					break;
				const int cc[3] = {ord[0][i0], ord[1][i1], ord[2][i2]};
				if (trim__choices_fit(s, extk, tbytes, K, nch, cc)) {
					best = e; /* the later choices of tensor 2 cost more */
					break;
				}
			}
		}
	}
	return best;
}

void trim__node_frame_extents(const trim__mapspace *s, const trim__mapping *m, node_frame *f)
{
	const int nl = s->a->nlevels;
	for (int d = 0; d < TRIM_NDIMS; d++)
		f->sfx[nl][d] = 1;
	for (int l = nl - 1; l >= 0; l--)
		for (int d = 0; d < TRIM_NDIMS; d++)
			f->sfx[l][d] = f->sfx[l + 1][d] * m->f[l][d];
}

int trim__node_frame(const trim__mapspace *s, const trim__level_cost *costs, int depth, int64_t zero_macs,
                     const trim__mapping *m, node_frame *f)
{
	if (s->imperfect && trim__mapspace_node_ragged(s, depth, m))
		return 2;
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	memset(f->fixed, 0, sizeof f->fixed);
	memset(f->known, 0, sizeof f->known);
	for (int i = 0; i < depth; i++)
		f->fixed[s->slot[s->tord[i]]] = 1;
	f->allsp = 1;
	for (int l = 0, pre = 1; l < nl; l++) {
		if (a->lv[l].type == TRIM__LVL_COMPUTE)
			continue;
		pre &= f->fixed[l];
		f->known[l] = pre && a->lv[l].type == TRIM__LVL_STORAGE;
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			f->allsp &= f->fixed[l];
	}
	/* spatial levels: misfit cuts the node; instances and active PEs */
	f->active = 1;
	for (int l = 0; l < nl; l++) {
		f->inst[l] = f->active;
		if (a->lv[l].type == TRIM__LVL_SPATIAL && f->fixed[l]) {
			int64_t fx[TRIM_NDIMS], fy[TRIM_NDIMS];
			if (!trim__spatial_split(&a->lv[l], s->axis[l], m->f[l], 0, 1, 1, fx, fy))
				return 1;
			for (int d = 0; d < TRIM_NDIMS; d++)
				f->active *= m->f[l][d];
		}
	}
	f->inst[nl] = f->active;
	/* the extents at and below each level: suffix products of the factors
	 * (they multiply to the bounds, node completions included) */
	trim__node_frame_extents(s, m, f);
	/* per-instance extents below each level (the bound over the spatial
	 * factors above it), when the spatial levels are fixed; a dim split by
	 * a spatial level above no longer runs over a contiguous range */
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t e = w->bound[d];
		int c = 1;
		for (int l = 0; l < nl; l++) {
			f->pext[l][d] = e;
			f->contig[l][d] = c;
			if (a->lv[l].type == TRIM__LVL_SPATIAL && f->allsp && m->f[l][d] > 1) {
				e /= m->f[l][d];
				c = 0;
			}
		}
	}
	f->steps = f->allsp ? w->macs / f->active : 0;
	/* tiles whose extents are known (every level above fixed) let the keep
	 * choices be combined under the capacities */
	for (int l = 0, pre = 1; l < nl; l++) {
		f->extk[l] = pre && a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].capacity_bytes > 0;
		if (a->lv[l].type != TRIM__LVL_COMPUTE)
			pre &= f->fixed[l];
	}
	/* the MACs' energy, as the evaluator computes it: with the tensors so
	 * far, what may already exceed a caller's cut */
	f->emacs = 0;
	for (int l = 0; l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_COMPUTE) {
			const trim__level_cost *c = &costs[l];
			double gated = a->lv[l].zero_gate ? c->gated_mac_pj : c->mac_pj;
			f->emacs = (double)(w->macs - zero_macs) * c->mac_pj + (double)zero_macs * gated;
		}
	return 0;
}


/* What every variant of tensor t shares (after r->tile). */
static void tensor_reuse_of(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t,
                            tensor_reuse *r)
{
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels, res = t == 2, allsp = f->allsp;
	const int ones[TRIM_NDIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
	/* per storage level, the share of one instance (spatial levels fixed) */
	memset(r->share, 0, (size_t)nl * sizeof *r->share);
	if (allsp)
		for (int l = 0; l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_STORAGE)
				r->share[l] = f->inst[l] * share_lower_bound(w, t, f->pext[l], f->contig[l]);
	r->touched = share_lower_bound(w, t, w->bound, ones);
	/* results: with the spatial levels fixed and splitting only dims that
	 * are the sole term of an axis of the result (no overlap, no
	 * reduction), each holder reads back at least its updates minus the
	 * result's elements (docs/model.md, "Lower bounds") */
	r->rback = res && allsp;
	for (int l = 0; r->rback && l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (m->f[l][d] > 1 && !((s->dsingle[t] & ~s->dwindow[t]) >> d & 1))
					r->rback = 0;
	/* forced refills: a holder l below the innermost known storage level
	 * K, with unknown levels between, whose capacity cannot take t's whole
	 * per-instance extent below K. Then a storage level between has a loop
	 * on a dim of t; when every axis of t is one dim, the innermost such
	 * level is L* of the *Counts* bound, so l is refilled at least (every
	 * loop of the levels <= K) x (its instances) x (t's per-instance extent
	 * below K) times (docs/model.md) */
	memset(r->forced, 0, (size_t)nl * sizeof *r->forced);
	if (allsp && !s->dwindow[t]) {
		int K = -1;
		for (int l = 0; l < nl; l++)
			if (f->known[l])
				K = l;
		if (K >= 0) {
			int64_t MK = 1, extK[TRIM_NDIMS];
			for (int d = 0; d < TRIM_NDIMS; d++) {
				extK[d] = w->bound[d];
				for (int k = 0; k <= K; k++) {
					extK[d] /= m->f[k][d];
					if (a->lv[k].type == TRIM__LVL_STORAGE)
						MK *= m->f[k][d];
				}
			}
			int unknown = 0;
			for (int l = K + 1; l < nl; l++) {
				const trim__level *L = &a->lv[l];
				if (L->type == TRIM__LVL_SPATIAL) {
					for (int d = 0; d < TRIM_NDIMS; d++)
						extK[d] /= m->f[l][d];
					continue;
				}
				if (L->type != TRIM__LVL_STORAGE)
					continue;
				if (unknown && L->capacity_bytes > 0 && L->keep[t]) {
					int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
					int64_t el = share_lower_bound(w, t, extK, ones);
					int64_t by = (el * bits + 7) / 8 * (L->double_buffer ? 2 : 1);
					int64_t cap = L->partitioned ? L->part_bytes[t] : L->capacity_bytes - s->reserved[l];
					if (by > cap)
						r->forced[l] = MK * f->inst[l] * el;
				}
				unknown = 1; /* l's own loops are unknown from here on */
			}
		}
	}
	/* t's elements in one tile of each storage level whose storage level
	 * above is known (the refill rule) */
	memset(r->rsh, 0, (size_t)nl * sizeof *r->rsh);
	for (int l = 0, pv = -1; allsp && l < nl; l++) {
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		if (pv >= 0 && f->known[pv])
			r->rsh[l] = share_lower_bound(w, t, f->sfx[l], ones);
		pv = l;
	}
}

/* Tensor t's part of the node bound under variant v of the joint order (0:
 * every tensor's best order; else loop vd innermost at known level vk):
 * returns the cheapest choice's energy. Variant 0 computes r (what the
 * others read) and o; the others write their per-choice energies into Ev.
 * nc (variant 0, not NULL): the counts of every choice. */
static double tensor_part(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                          const trim__mapping *m, int t, int v, int vk, int vd, tensor_reuse *r, tensor_figures *o,
                          double *Ev, node_counts *nc)
{
	(void)vd;
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels, res = t == 2, allsp = f->allsp;
	const int *fixed = f->fixed, *known = f->known;
	const int64_t *inst = f->inst;
	/* R[l]: words of t that cross the boundary below known storage level l */
	int64_t R[TRIM__MAX_LEVELS] = {0}, Mv[TRIM__MAX_LEVELS] = {0};
	for (int l = 0; l < nl; l++) {
		if (!known[l])
			continue;
		int64_t M = 1;
		for (int k = l; k >= 0; k--) {
			if (a->lv[k].type != TRIM__LVL_STORAGE)
				continue;
			int star = 0;
			for (int d = 0; d < TRIM_NDIMS; d++)
				star |= (s->dsingle[t] >> d & 1) && m->f[k][d] > 1;
			if (!star)
				continue;
			for (int d = 0; d < TRIM_NDIMS; d++)
				if ((s->dsingle[t] >> d & 1) || (v > 0 && k == vk))
					M *= m->f[k][d];
			for (int k2 = 0; k2 < k; k2++)
				if (a->lv[k2].type == TRIM__LVL_STORAGE)
					for (int d = 0; d < TRIM_NDIMS; d++)
						M *= m->f[k2][d];
			break;
		}
		if (v == 0)
			r->tile[l] = trim__mapping_tile_elems(m, w, l + 1, t);
		R[l] = M * r->tile[l];
		Mv[l] = M;
	}
	if (v == 0)
		tensor_reuse_of(s, f, m, t, r);
	const int64_t touched = r->touched;
	const int rback = r->rback;
	/* keep choices: every storage level below the outermost that may hold t */
	int kb[TRIM__MAX_LEVELS], nkb = 0;
	for (int l = 1; l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].keep[t])
			kb[nkb++] = l;
	if (nc && v == 0 && (1 << nkb) > 64)
		nc->complete = 0;
	int have = 0;
	double emin = 0;
	for (int c = 0; c < (1 << nkb); c++) {
		int kept[TRIM__MAX_LEVELS] = {0};
		kept[0] = 1;
		for (int j = 0; j < nkb; j++)
			kept[kb[j]] = c >> j & 1;
		int64_t rd[TRIM__MAX_LEVELS], in[TRIM__MAX_LEVELS];
		int64_t dw[TRIM__MAX_LEVELS];   /* network: words entering (cycles) */
		int64_t nw[TRIM__MAX_LEVELS];   /* network: words charged (energy) */
		int64_t rq[TRIM__MAX_LEVELS];   /* results: reads (read-backs and the R + D rule) */
		for (int l = 0; l < nl; l++)
			rd[l] = in[l] = dw[l] = nw[l] = rq[l] = 0;
		int h = 0, prev = -1; /* innermost holder so far; storage level above */
		rd[0] = touched;
		for (int l = 0; l < nl; l++) {
			if (a->lv[l].type != TRIM__LVL_STORAGE)
				continue;
			if (kept[l]) {
				if (prev >= 0 && !known[prev] && allsp && r->forced[l] > in[l])
					in[l] = r->forced[l];
				if (prev >= 0 && known[prev]) {
					in[l] = R[prev]; /* entries into the holder l */
					if (allsp) {
						/* every level above l is fixed: at each of the M
						 * steps every instance of l refills its whole tile
						 * (the extents at l are known) */
						int64_t refill = Mv[prev] * inst[l] * r->rsh[l];
						if (refill > in[l])
							in[l] = refill;
					}
				}
				if (l > 0 && allsp) {
					/* the hop (h, l): l's instances each receive their share */
					int sp = -1, nsp = 0;
					for (int k = h + 1; k < l; k++)
						if (a->lv[k].type == TRIM__LVL_SPATIAL && level_has_loops(m, k))
							sp = k, nsp++;
					if (r->share[l] > in[l])
						in[l] = r->share[l];
					const trim__level *S = sp >= 0 ? &a->lv[sp] : NULL;
					int mc = S && (res ? S->reduction : S->multicast);
					int64_t up = nsp == 1 && mc ? r->share[h] : in[l];
					if (nsp > 1)
						up = touched; /* outside the model's scope: keep it simple */
					if (up > rd[h])
						rd[h] = up;
					for (int k = h + 1; k < l; k++)
						if (a->lv[k].type == TRIM__LVL_SPATIAL) {
							/* operands: words on a bus with multicast,
							 * deliveries otherwise (the words entering
							 * each level on the way are >= the parent's
							 * distinct share); results: every drained
							 * word enters */
							int64_t words = res ? in[l]
							                : (a->lv[k].net == TRIM__NET_BUS && a->lv[k].multicast) ? up : in[l];
							if (k != sp)
								words = up;
							nw[k] = words;
							dw[k] = up;
						}
				}
				h = l;
			}
			if (known[l] && R[l] > rd[h])
				rd[h] = R[l];
			prev = l;
		}
		/* the innermost holder feeds every MAC */
		int64_t feed;
		int direct = 1; /* no spatial level of bounds > 1 (or unknown) below h */
		for (int l = h + 1; l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_SPATIAL && (!fixed[l] || level_has_loops(m, l)))
				direct = 0;
		double enet = 0;
		int nsp = 0, sp = -1;
		int64_t allfan = 1, fan = 1;
		for (int l = h + 1; l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_SPATIAL) {
				nsp++;
				allfan *= fanout_of(&a->lv[l]);
				if (res ? a->lv[l].reduction : a->lv[l].multicast)
					fan *= fanout_of(&a->lv[l]);
			}
		if (allsp) {
			int nbig = 0;
			for (int l = h + 1; l < nl; l++)
				if (a->lv[l].type == TRIM__LVL_SPATIAL && level_has_loops(m, l))
					sp = l, nbig++;
			if (nbig == 0) {
				feed = w->macs;
			} else if (nbig == 1) {
				const trim__level *S = &a->lv[sp];
				int64_t sext[TRIM_NDIMS];
				for (int d = 0; d < TRIM_NDIMS; d++)
					sext[d] = m->f[sp][d];
				int mc = res ? S->reduction : S->multicast;
				/* the spatial tile: one value per index of S per dim, at a
				 * stride unknown here: |A + B| >= |A| + |B| - 1 */
				const int nox[TRIM_NDIMS] = {0};
				feed = mc ? f->steps * inst[h] * share_lower_bound(w, t, sext, nox) : w->macs;
			} else {
				feed = w->macs / fan; /* outside the model's scope */
			}
			for (int l = h + 1; l < nl; l++) {
				const trim__level *L = &a->lv[l];
				if (L->type != TRIM__LVL_SPATIAL)
					continue;
				/* operands: the words entering (bus with multicast) or the
				 * deliveries (MACs) at the level with bounds; the feed at
				 * the others; results: every MAC's partial sum enters the
				 * level with bounds */
				int64_t words = feed;
				if (l == sp && nbig == 1)
					words = res ? w->macs : (L->net == TRIM__NET_BUS && L->multicast) ? feed : w->macs;
				enet += (double)words * costs[l].hop_pj * (costs[l].avg_hops > 0 ? costs[l].avg_hops : 1);
				nw[l] = words;
				dw[l] = feed;
			}
		} else {
			feed = w->macs / fan;
			for (int l = h + 1; l < nl; l++) {
				const trim__level *L = &a->lv[l];
				if (L->type != TRIM__LVL_SPATIAL)
					continue;
				int64_t fo = fanout_of(L);
				/* with several spatial levels on the way, one of them may
				 * carry only what enters the network: MACs / all fan-outs */
				int64_t words = nsp > 1 ? w->macs / allfan
				                : res ? w->macs
				                : L->net == TRIM__NET_BUS && L->multicast ? w->macs / fo : w->macs;
				enet += (double)words * costs[l].hop_pj * (costs[l].avg_hops > 0 ? costs[l].avg_hops : 1);
				nw[l] = words;
			}
		}
		for (int l = 0; l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_SPATIAL && l <= h)
				enet += (double)nw[l] * costs[l].hop_pj * (costs[l].avg_hops > 0 ? costs[l].avg_hops : 1);
		int64_t rdc[TRIM__MAX_LEVELS];
		memcpy(rdc, rd, (size_t)nl * sizeof *rd);
		if (feed > rdc[h])
			rdc[h] = feed;
		double e = enet;
		for (int l = 0; l < nl; l++) {
			if (a->lv[l].type == TRIM__LVL_SPATIAL) {
				/* cycles: words entering (operands) / leaving upwards (results) */
				if (v == 0 && (!have || dw[l] < o->net[l]))
					o->net[l] = dw[l];
				continue;
			}
			if (a->lv[l].type != TRIM__LVL_STORAGE)
				continue;
			e += res ? (double)rdc[l] * costs[l].update_pj + (double)in[l] * costs[l].read_pj
			         : (double)rdc[l] * costs[l].read_pj + (double)in[l] * costs[l].write_pj;
			int64_t rback_words = rback && kept[l] && rdc[l] > touched ? rdc[l] - touched : 0;
			e += (double)rback_words * costs[l].read_pj;
			rq[l] = rback_words;
			/* a result holder below the outermost with no spatial level of
			 * bounds > 1 (or unknown) between it and its child holder (or
			 * the MACs): every update is an arrival, and each arrival is
			 * read back or drained (R + D = U + the parent's read-backs;
			 * docs/model.md, "Bounds"), both reads of l */
			if (res && kept[l] && l > 0 && rdc[l] > in[l] + rback_words) {
				int direct_l = l == h ? direct : 1;
				for (int k = l + 1; l != h && k < nl && a->lv[k].type != TRIM__LVL_COMPUTE; k++) {
					if (a->lv[k].type == TRIM__LVL_STORAGE && kept[k])
						break;
					if (a->lv[k].type == TRIM__LVL_SPATIAL && (!fixed[k] || level_has_loops(m, k)))
						direct_l = 0;
				}
				if (direct_l) {
					e += (double)(rdc[l] - in[l] - rback_words) * costs[l].read_pj;
					rq[l] = rdc[l] - in[l];
				}
			}
			/* cycles: the counts without the MAC feed (its level depends on the choice) */
			if (v == 0 && (!have || rd[l] < o->rd[l]))
				o->rd[l] = rd[l];
			if (v == 0 && (!have || in[l] < o->in[l]))
				o->in[l] = in[l];
		}
		if (v == 0 && c < 64) {
			unsigned km = 0;
			for (int l = 0; l < nl; l++)
				km |= (unsigned)kept[l] << l;
			o->E[c] = e;
			o->K[c] = km;
			o->nch = c + 1;
			if (nc) {
				memcpy(nc->a[t][c], rdc, (size_t)nl * sizeof *rdc);
				memcpy(nc->b[t][c], in, (size_t)nl * sizeof *in);
				memcpy(nc->r[t][c], rq, (size_t)nl * sizeof *rq);
				memcpy(nc->net[t][c], nw, (size_t)nl * sizeof *nw);
				memcpy(nc->dw[t][c], dw, (size_t)nl * sizeof *dw);
			}
		}
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

/* The tile bytes of tensor t at the levels whose tiles are known. */
static void tensor_tile_bytes(const trim__mapspace *s, const node_frame *f, int t, int64_t *tbytes)
{
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int ones[TRIM_NDIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
	for (int l = 0; l < a->nlevels; l++) {
		tbytes[l] = 0;
		if (!f->extk[l] || !w->t[t].present)
			continue;
		const trim__level *L = &a->lv[l];
		int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
		tbytes[l] = (share_lower_bound(w, t, f->sfx[l], ones) * bits + 7) / 8 * (L->double_buffer ? 2 : 1);
	}
}

/* Figures of an absent tensor, or zeroed before tensor_part fills them. */
static void figures_clear(tensor_figures *o, int nl)
{
	o->nch = 0;
	o->emin = 0;
	o->complete = 1;
	for (int l = 0; l < nl; l++)
		o->rd[l] = o->in[l] = o->net[l] = o->tbytes[l] = 0;
}

void trim__node_tensor_reuse(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                             const trim__mapping *m, int t, tensor_figures *out, tensor_reuse *r)
{
	const struct trim_arch *a = s->a;
	figures_clear(out, a->nlevels);
	tensor_tile_bytes(s, f, t, out->tbytes);
	tensor_part(s, costs, f, m, t, 0, -1, -1, r, out, NULL, NULL);
	/* the choices whose own tiles fit where they are known, and the
	 * cheapest of them: every combination that fits has one for this
	 * tensor (trim__choices_fit) */
	out->emin_fit = out->complete ? HUGE_VAL : out->emin;
	out->fits_alone = 0;
	for (int c = 0; c < out->nch && out->complete; c++) {
		int fits = 1;
		for (int l = 1; l < a->nlevels && fits; l++) {
			const trim__level *L = &a->lv[l];
			if (!f->extk[l] || !(out->K[c] >> l & 1))
				continue;
			if (L->partitioned && out->tbytes[l] > L->part_bytes[t])
				fits = 0;
			if ((!L->partitioned || s->reserved[l] > 0) && out->tbytes[l] + s->reserved[l] > L->capacity_bytes)
				fits = 0;
		}
		if (fits)
			out->fits_alone |= 1ull << c;
		if (fits && out->E[c] < out->emin_fit)
			out->emin_fit = out->E[c];
	}
}

void trim__node_tensor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                       const trim__mapping *m, int t, tensor_figures *out)
{
	tensor_reuse r;
	trim__node_tensor_reuse(s, costs, f, m, t, out, &r);
}

/* What trim__eval_act reads, for the architecture's levels, with no
 * tensor's counts: the MACs, the active PEs and the instances (the whole
 * activity is ~10 KB: zeroing all of it was a tenth of the bound's time). */
static void activity_clear(const trim__mapspace *s, const node_frame *f, int64_t zero_macs, trim__activity *x)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	x->steps = x->padded_macs = 0;
	int64_t(*rows[])[3] = {x->tile,       x->fills,      x->reads,    x->updates, x->drains,
	                       x->down_words, x->down_dests, x->up_words, x->up_out};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		memset(rows[i], 0, (size_t)nl * sizeof *rows[i]);
	x->macs = s->w->macs;
	x->zero_macs = zero_macs;
	x->active_pes = f->allsp ? f->active : (a->total_pes > 0 ? a->total_pes : 1);
	for (int l = 0; l < nl; l++)
		x->instances[l] = f->allsp ? f->inst[l] : (a->lv[l].instances > 0 ? a->lv[l].instances : 1);
}

double trim__node_static_floor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                               const trim__mapping *m, int64_t zero_macs, trim__eval *ev)
{
	activity_clear(s, f, zero_macs, &ev->act);
	trim__eval_act(s->w, s->a, costs, m, ev);
	double e = 0;
	for (int l = 0; l < s->a->nlevels; l++)
		e += ev->static_pj[l];
	return e;
}

void trim__joint_variants_of(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, joint_variants *jv)
{
	const struct trim_arch *a = s->a;
	int nvar = 1;
	for (int k = 0; k < a->nlevels; k++) {
		if (!f->known[k] || a->lv[k].type != TRIM__LVL_STORAGE)
			continue;
		int loops = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			loops += m->f[k][d] > 1;
		if (loops > 1 && nvar + loops > TRIM__JOINT_VARIANTS)
			break; /* every variant of a level, or none */
		for (int d = 0; d < TRIM_NDIMS && loops > 1; d++)
			if (m->f[k][d] > 1) {
				jv->k[nvar] = k;
				jv->d[nvar++] = d;
			}
	}
	jv->n = nvar;
	for (int v = 0; v < nvar; v++)
		jv->e[v] = 0;
}

void trim__joint_variant(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                         const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                         joint_variants *jv, int v)
{
	const trim__intra *w = s->w;
	for (int ti = 0; ti < 3; ti++) {
		const int t = trim__bound_torder[ti];
		if (!w->t[t].present)
			continue;
		/* a variant changes the tensors indexed by its dim alone, unless
		 * every loop of its level is on such dims (no reuse to lose) */
		int all_rel = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			all_rel &= m->f[jv->k[v]][d] == 1 || (s->dsingle[t] >> d & 1);
		if (!(s->dsingle[t] >> jv->d[v] & 1) || all_rel) {
			jv->e[v] += tf[t]->emin;
			memcpy(jv->E[v][t], tf[t]->E, (size_t)tf[t]->nch * sizeof *tf[t]->E);
			continue;
		}
		jv->e[v] += tensor_part(s, costs, f, m, t, v, jv->k[v], jv->d[v], r[t], NULL, jv->E[v][t], NULL);
	}
}

double trim__joint_raise(const trim__mapspace *s, const joint_variants *jv, double etensor)
{
	/* per level, the cheapest innermost loop */
	for (int k = 0; k < s->a->nlevels && jv->n > 1; k++) {
		double bk = HUGE_VAL;
		int any = 0;
		for (int v = 1; v < jv->n; v++)
			if (jv->k[v] == k) {
				any = 1;
				if (jv->e[v] < bk)
					bk = jv->e[v];
			}
		if (any && bk > etensor)
			etensor = bk;
	}
	return etensor;
}

double trim__joint_energies(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                            const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                            double etensor, joint_variants *jv)
{
	for (int v = 1; v < jv->n; v++)
		trim__joint_variant(s, costs, f, m, tf, r, jv, v);
	return trim__joint_raise(s, jv, etensor);
}

/* The bound from the tensors' figures: the cheapest keep combination whose
 * known tiles fit (and per joint level the cheapest innermost loop), the
 * MACs, and the evaluator's cycles and leakage on the count-wise minima. */
static void combine(const trim__mapspace *s, const trim__level_cost *costs, int goal, const node_frame *f,
                    const trim__mapping *m, const tensor_figures *const *tf, double etensor,
                    const joint_variants *jv, int64_t zero_macs, trim__eval *ev, double *lb, node_choices *out,
                    node_counts *nc)
{
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	if (out)
		for (int t = 0; t < 3; t++) {
			out->nch[t] = tf[t]->nch;
			memcpy(out->E[t], tf[t]->E, (size_t)tf[t]->nch * sizeof *tf[t]->E);
			memcpy(out->K[t], tf[t]->K, (size_t)tf[t]->nch * sizeof *tf[t]->K);
		}
	if (nc) {
		memcpy(nc->extk, f->extk, (size_t)nl * sizeof *f->extk);
		for (int t = 0; t < 3; t++)
			memcpy(nc->tbytes[t], tf[t]->tbytes, (size_t)nl * sizeof *tf[t]->tbytes);
	}
	/* the cheapest combination of keep choices whose known tiles fit (when
	 * every choice of every tensor is among the 64 kept) */
	if (tf[0]->complete && tf[1]->complete && tf[2]->complete) {
		const double *E[3] = {tf[0]->E, tf[1]->E, tf[2]->E};
		double best = cheapest_fit(s, f->extk, tf, E);
		/* and per joint level, the cheapest innermost loop of those */
		for (int k = 0; jv && k < nl && jv->n > 1 && best < HUGE_VAL; k++) {
			double bk = HUGE_VAL;
			int any = 0;
			for (int v = 1; v < jv->n; v++)
				if (jv->k[v] == k) {
					any = 1;
					const double *Ev[3] = {jv->E[v][0], jv->E[v][1], jv->E[v][2]};
					double b = cheapest_fit(s, f->extk, tf, Ev);
					if (b < bk)
						bk = b;
				}
			if (any && bk > etensor)
				etensor = bk;
		}
		if (best == HUGE_VAL) {
			/* no keep choice fits the capacities whose tiles are known:
			 * no mapping below the node is valid */
			*lb = HUGE_VAL;
			return;
		}
		if (best > etensor)
			etensor = best;
	}
	trim__activity *x = &ev->act;
	activity_clear(s, f, zero_macs, x);
	for (int t = 0; t < 3; t++) {
		if (!w->t[t].present)
			continue;
		const int res = t == 2;
		for (int l = 0; l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_SPATIAL) {
				(res ? x->up_out : x->down_words)[l][t] = tf[t]->net[l];
			} else if (a->lv[l].type == TRIM__LVL_STORAGE) {
				(res ? x->updates : x->reads)[l][t] = tf[t]->rd[l];
				(res ? x->drains : x->fills)[l][t] = tf[t]->in[l];
			}
	}
	trim__eval_act(w, a, costs, m, ev);
	double energy = ev->mac_pj + etensor;
	for (int l = 0; l < nl; l++)
		energy += ev->static_pj[l];
	double v = goal == TRIM__GOAL_ENERGY ? energy : goal == TRIM__GOAL_DELAY ? ev->cycles : energy * ev->cycles;
	/* the sums above run in another order than the evaluator's: a margin far
	 * above their rounding keeps a tight bound from passing a real cost */
	*lb = v * (1 - 1e-9);
}

void trim__node_combine(const trim__mapspace *s, const trim__level_cost *costs, int goal, const node_frame *f,
                        const trim__mapping *m, const tensor_figures *const *tf, double etensor,
                        const joint_variants *jv, int64_t zero_macs, trim__eval *ev, double *lb, node_choices *out)
{
	combine(s, costs, goal, f, m, tf, etensor, jv, zero_macs, ev, lb, out, NULL);
}

static void node_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth, int64_t zero_macs,
                       trim__mapping *m, trim__eval *ev, double *lb, node_choices *out, node_counts *nc, int joint,
                       double cut)
{
	if (out)
		out->nch[0] = out->nch[1] = out->nch[2] = 0;
	if (nc)
		nc->complete = 1;
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	node_frame f;
	int rc = trim__node_frame(s, costs, depth, zero_macs, m, &f);
	if (rc == 1) {
		*lb = HUGE_VAL; /* a spatial level does not fit */
		return;
	}
	if (rc == 2) {
		/* imperfect factorisations below the node: this bound derives the
		 * extents below a level from the bound and the factors above it,
		 * which ragged rows break; no bound, no tie cut (docs/model.md,
		 * "Imperfect factorisations") */
		*lb = 0;
		if (nc)
			nc->complete = 0;
		return;
	}
	/* the joint order (joint: docs/model.md, "Bounds"): one loop of each
	 * known storage level k is its innermost; a tensor indexed by that dim
	 * alone on an axis then changes tile at every step of k's loops and
	 * is reused by none of them. Variant 0: every tensor's best order; each
	 * other variant (k, d): d innermost at k, the other tensors at best.
	 * The bound takes, per level, the smallest sum over its variants. */
	joint_variants jv_store, *jv = joint ? &jv_store : NULL;
	if (jv)
		trim__joint_variants_of(s, &f, m, jv);
	const int nvar = jv ? jv->n : 1;
	tensor_figures tf[3];
	tensor_reuse reuse[3];
	double etensor = 0;
	for (int t = 0; t < 3; t++) {
		figures_clear(&tf[t], nl);
		tensor_tile_bytes(s, &f, t, tf[t].tbytes);
	}
	for (int ti = 0; ti < 3; ti++) {
		const int t = trim__bound_torder[ti];
		if (!w->t[t].present)
			continue;
		tensor_part(s, costs, &f, m, t, 0, -1, -1, &reuse[t], &tf[t], NULL, nc);
		etensor += tf[t].emin;
		/* the tensors so far already exceed the caller's cut (energy):
		 * their sum is a bound, the rest is not needed */
		if ((f.emacs + etensor) * (1 - 1e-9) > cut && goal == TRIM__GOAL_ENERGY && nvar == 1) {
			*lb = (f.emacs + etensor) * (1 - 1e-9);
			return;
		}
	}
	if (nvar > 1) {
		const tensor_figures *tq[3] = {&tf[0], &tf[1], &tf[2]};
		tensor_reuse *rq[3] = {&reuse[0], &reuse[1], &reuse[2]};
		etensor = trim__joint_energies(s, costs, &f, m, tq, rq, etensor, jv);
	}
	const tensor_figures *tp[3] = {&tf[0], &tf[1], &tf[2]};
	combine(s, costs, goal, &f, m, tp, etensor, jv, zero_macs, ev, lb, out, nc);
}

void trim__node_bound_counts(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                             int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, node_choices *out,
                             node_counts *nc)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, out, nc, 0, HUGE_VAL);
}
