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
static int choices_fit(const trim__mapspace *s, const int *extk, int64_t (*tbytes)[3], unsigned (*K)[64],
                       const int *nch, const int *cc)
{
	const struct trim_arch *a = s->a;
	for (int l = 1; l < a->nlevels; l++) {
		if (!extk[l])
			continue;
		const trim__level *L = &a->lv[l];
		int64_t total = 0;
		for (int t = 0; t < 3; t++)
			if (nch[t] && (K[t][cc[t]] >> l & 1)) {
				if (L->partitioned && tbytes[l][t] > L->part_bytes[t])
					return 0;
				total += tbytes[l][t];
			}
		if ((!L->partitioned || s->reserved[l] > 0) && total + s->reserved[l] > L->capacity_bytes)
			return 0;
	}
	return 1;
}

/* The cheapest sum over tensors of E[t][choice] whose choices fit the
 * known tiles (HUGE_VAL: none fits): the choices of each tensor by
 * increasing energy, a branch left as soon as it cannot beat the best. */
static double cheapest_fit(const trim__mapspace *s, const int *extk, int64_t (*tbytes)[3], unsigned (*K)[64],
                           const int *nch, double (*E)[64])
{
	int ord[3][64], n[3];
	double lo[4] = {0, 0, 0, 0}; /* lo[t]: the sum of the cheapest of tensors >= t */
	for (int t = 0; t < 3; t++) {
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
				if (choices_fit(s, extk, tbytes, K, nch, cc)) {
					best = e; /* the later choices of tensor 2 cost more */
					break;
				}
			}
		}
	}
	return best;
}

enum { JOINT_VARIANTS = 24 }; /* at most, else a level is left out */

static void node_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth, int64_t zero_macs,
                       trim__mapping *m, trim__eval *ev, double *lb, node_choices *out, node_counts *nc, int joint,
                       double cut)
{
	if (out)
		out->nch[0] = out->nch[1] = out->nch[2] = 0;
	if (nc)
		nc->complete = 1;
	if (s->imperfect && trim__mapspace_node_ragged(s, depth, m)) {
		/* imperfect factorisations below the node: this bound derives the
		 * extents below a level from the bound and the factors above it,
		 * which ragged rows break; no bound, no tie cut (docs/model.md,
		 * "Imperfect factorisations") */
		*lb = 0;
		if (nc)
			nc->complete = 0;
		return;
	}
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	trim__activity *x = &ev->act;
	/* what trim__eval_act reads, for the architecture's levels (the whole
	 * activity is ~10 KB: zeroing it was a tenth of this bound's time) */
	x->steps = x->padded_macs = 0;
	{
		int64_t(*rows[])[3] = {x->tile,       x->fills,      x->reads,    x->updates, x->drains,
		                       x->down_words, x->down_dests, x->up_words, x->up_out};
		for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
			memset(rows[i], 0, (size_t)a->nlevels * sizeof *rows[i]);
	}
	int fixed[TRIM__MAX_LEVELS] = {0}, known[TRIM__MAX_LEVELS] = {0};
	for (int i = 0; i < depth; i++)
		fixed[s->slot[s->tord[i]]] = 1;
	/* storage level l is "known" when every level above it is fixed and so
	 * is l itself: the extents below it are then known */
	int allsp = 1;
	for (int l = 0, pre = 1; l < nl; l++) {
		if (a->lv[l].type == TRIM__LVL_COMPUTE)
			continue;
		pre &= fixed[l];
		known[l] = pre && a->lv[l].type == TRIM__LVL_STORAGE;
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			allsp &= fixed[l];
	}
	/* spatial levels: misfit cuts the node; instances and active PEs */
	int64_t inst[TRIM__MAX_LEVELS + 1], active = 1;
	for (int l = 0; l < nl; l++) {
		inst[l] = active;
		if (a->lv[l].type == TRIM__LVL_SPATIAL && fixed[l]) {
			int64_t fx[TRIM_NDIMS], fy[TRIM_NDIMS];
			if (!trim__spatial_split(&a->lv[l], s->axis[l], m->f[l], 0, 1, 1, fx, fy)) {
				*lb = HUGE_VAL;
				return;
			}
			for (int d = 0; d < TRIM_NDIMS; d++)
				active *= m->f[l][d];
		}
	}
	inst[nl] = active;
	/* the extents at and below each level: suffix products of the factors
	 * (they multiply to the bounds, node completions included) */
	int64_t sfx[TRIM__MAX_LEVELS + 1][TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++)
		sfx[nl][d] = 1;
	for (int l = nl - 1; l >= 0; l--)
		for (int d = 0; d < TRIM_NDIMS; d++)
			sfx[l][d] = sfx[l + 1][d] * m->f[l][d];
	/* per-instance extents below each level (the bound over the spatial
	 * factors above it), when the spatial levels are fixed; a dim split by
	 * a spatial level above no longer runs over a contiguous range */
	int64_t pext[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int contig[TRIM__MAX_LEVELS][TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t e = w->bound[d];
		int c = 1;
		for (int l = 0; l < nl; l++) {
			pext[l][d] = e;
			contig[l][d] = c;
			if (a->lv[l].type == TRIM__LVL_SPATIAL && allsp && m->f[l][d] > 1) {
				e /= m->f[l][d];
				c = 0;
			}
		}
	}
	const int ones[TRIM_NDIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
	const int64_t steps = allsp ? w->macs / active : 0;
	/* per tensor and keep choice: its energy and the levels it holds;
	 * tiles whose extents are known (every level above fixed) let the
	 * choices be combined under the capacities */
	double etensor = 0, Ech[3][64];
	unsigned Kch[3][64];
	int nch[3] = {0, 0, 0};
	int64_t tbytes[TRIM__MAX_LEVELS][3];
	int extk[TRIM__MAX_LEVELS];
	for (int l = 0, pre = 1; l < nl; l++) {
		extk[l] = pre && a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].capacity_bytes > 0;
		if (extk[l]) {
			const int64_t *ext = sfx[l];
			const trim__level *L = &a->lv[l];
			int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
			for (int t = 0; t < 3; t++)
				tbytes[l][t] = w->t[t].present ? (share_lower_bound(w, t, ext, ones) * bits + 7) / 8 * (L->double_buffer ? 2 : 1) : 0;
		}
		if (a->lv[l].type != TRIM__LVL_COMPUTE)
			pre &= fixed[l];
	}
	/* the joint order (joint: docs/model.md, "Bounds"): one loop of each
	 * known storage level k is its innermost; a tensor indexed by that dim
	 * alone on an axis then changes tile at every step of k's loops and
	 * is reused by none of them. Variant 0: every tensor's best order; each
	 * other variant (k, d): d innermost at k, the other tensors at best.
	 * The bound takes, per level, the smallest sum over its variants. */
	int nvar = 1, vk[JOINT_VARIANTS], vd[JOINT_VARIANTS];
	double evar[JOINT_VARIANTS], ebase[3] = {0, 0, 0};
	double Ev[JOINT_VARIANTS][3][64]; /* a variant's per-choice energies (the capacities combine them) */
	for (int k = 0; joint && k < nl; k++) {
		if (!known[k] || a->lv[k].type != TRIM__LVL_STORAGE)
			continue;
		int loops = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			loops += m->f[k][d] > 1;
		if (loops > 1 && nvar + loops > JOINT_VARIANTS)
			break; /* every variant of a level, or none */
		for (int d = 0; d < TRIM_NDIMS && loops > 1; d++)
			if (m->f[k][d] > 1) {
				vk[nvar] = k;
				vd[nvar++] = d;
			}
	}
	for (int v = 0; v < nvar; v++)
		evar[v] = 0;
	/* per tensor, what the variants share (computed at variant 0) */
	int64_t v_tile[3][TRIM__MAX_LEVELS], v_share[3][TRIM__MAX_LEVELS], v_forced[3][TRIM__MAX_LEVELS];
	int64_t v_rsh[3][TRIM__MAX_LEVELS], v_touched[3];
	int v_rback[3];
	/* the MACs' energy, as the evaluator computes it: with the tensors so
	 * far, what may already exceed the caller's cut */
	double emacs = 0;
	for (int l = 0; l < nl && cut < HUGE_VAL; l++)
		if (a->lv[l].type == TRIM__LVL_COMPUTE) {
			const trim__level_cost *c = &costs[l];
			double gated = a->lv[l].zero_gate ? c->gated_mac_pj : c->mac_pj;
			emacs = (double)(w->macs - zero_macs) * c->mac_pj + (double)zero_macs * gated;
		}
	/* the result first: usually the dearest, so the cut comes soonest */
	static const int torder[3] = {2, 0, 1};
	for (int v = 0; v < nvar; v++)
	for (int ti = 0; ti < 3; ti++) {
		const int t = torder[ti];
		if (!w->t[t].present)
			continue;
		/* a variant changes the tensors indexed by its dim alone, unless
		 * every loop of its level is on such dims (no reuse to lose) */
		int all_rel = 1;
		if (v > 0)
			for (int d = 0; d < TRIM_NDIMS; d++)
				all_rel &= m->f[vk[v]][d] == 1 || (s->dsingle[t] >> d & 1);
		if (v > 0 && (!(s->dsingle[t] >> vd[v] & 1) || all_rel)) {
			evar[v] += ebase[t];
			memcpy(Ev[v][t], Ech[t], (size_t)nch[t] * sizeof **Ech);
			continue;
		}
		const int res = t == 2;
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
					if ((s->dsingle[t] >> d & 1) || (v > 0 && k == vk[v]))
						M *= m->f[k][d];
				for (int k2 = 0; k2 < k; k2++)
					if (a->lv[k2].type == TRIM__LVL_STORAGE)
						for (int d = 0; d < TRIM_NDIMS; d++)
							M *= m->f[k2][d];
				break;
			}
			if (v == 0)
				v_tile[t][l] = trim__mapping_tile_elems(m, w, l + 1, t);
			R[l] = M * v_tile[t][l];
			Mv[l] = M;
		}
		int64_t *share = v_share[t], *forced = v_forced[t], *rsh = v_rsh[t];
		if (v > 0)
			goto choices; /* the rest is variant 0's */
		/* per storage level, the share of one instance (spatial levels fixed) */
		memset(share, 0, (size_t)nl * sizeof *share);
		if (allsp)
			for (int l = 0; l < nl; l++)
				if (a->lv[l].type == TRIM__LVL_STORAGE)
					share[l] = inst[l] * share_lower_bound(w, t, pext[l], contig[l]);
		v_touched[t] = share_lower_bound(w, t, w->bound, ones);
		/* results: with the spatial levels fixed and splitting only dims
		 * that are the sole term of an axis of the result (no overlap, no
		 * reduction), each holder reads back at least its updates minus
		 * the result's elements (docs/model.md, "Lower bounds") */
		v_rback[t] = res && allsp;
		for (int l = 0; v_rback[t] && l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_SPATIAL)
				for (int d = 0; d < TRIM_NDIMS; d++)
					if (m->f[l][d] > 1 && !((s->dsingle[t] & ~s->dwindow[t]) >> d & 1))
						v_rback[t] = 0;
		/* forced refills: a holder l below the innermost known storage level
		 * K, with unknown levels between, whose capacity cannot take t's
		 * whole per-instance extent below K. Then a storage level between
		 * has a loop on a dim of t; when every axis of t is one dim, the
		 * innermost such level is L* of the *Counts* bound, so l is refilled
		 * at least (every loop of the levels <= K) x (its instances) x (t's
		 * per-instance extent below K) times (docs/model.md) */
		memset(forced, 0, (size_t)nl * sizeof *forced);
		if (allsp && !s->dwindow[t]) {
			int K = -1;
			for (int l = 0; l < nl; l++)
				if (known[l])
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
							forced[l] = MK * inst[l] * el;
					}
					unknown = 1; /* l's own loops are unknown from here on */
				}
			}
		}
		/* t's elements in one tile of each storage level whose storage
		 * level above is known (the refill rule below) */
		memset(rsh, 0, (size_t)nl * sizeof *rsh);
		for (int l = 0, pv = -1; allsp && l < nl; l++) {
			if (a->lv[l].type != TRIM__LVL_STORAGE)
				continue;
			if (pv >= 0 && known[pv])
				rsh[l] = share_lower_bound(w, t, sfx[l], ones);
			pv = l;
		}
	choices:;
		const int64_t touched = v_touched[t];
		const int rback = v_rback[t];
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
					if (prev >= 0 && !known[prev] && allsp && forced[l] > in[l])
						in[l] = forced[l];
					if (prev >= 0 && known[prev]) {
						in[l] = R[prev]; /* entries into the holder l */
						if (allsp) {
							/* every level above l is fixed: at each of the
							 * M steps every instance of l refills its whole
							 * tile (the extents at l are known) */
							int64_t refill = Mv[prev] * inst[l] * rsh[l];
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
						if (share[l] > in[l])
							in[l] = share[l];
						const trim__level *S = sp >= 0 ? &a->lv[sp] : NULL;
						int mc = S && (res ? S->reduction : S->multicast);
						int64_t up = nsp == 1 && mc ? share[h] : in[l];
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
					/* the spatial tile: one value per index of S per dim,
					 * at a stride unknown here: |A + B| >= |A| + |B| - 1 */
					const int nox[TRIM_NDIMS] = {0};
					feed = mc ? steps * inst[h] * share_lower_bound(w, t, sext, nox) : w->macs;
				} else {
					feed = w->macs / fan; /* outside the model's scope */
				}
				for (int l = h + 1; l < nl; l++) {
					const trim__level *L = &a->lv[l];
					if (L->type != TRIM__LVL_SPATIAL)
						continue;
					/* operands: the words entering (bus with multicast)
					 * or the deliveries (MACs) at the level with bounds;
					 * the feed at the others; results: every MAC's
					 * partial sum enters the level with bounds */
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
					int64_t f = fanout_of(L);
					/* with several spatial levels on the way, one of them may
					 * carry only what enters the network: MACs / all fan-outs */
					int64_t words = nsp > 1 ? w->macs / allfan
					                : res ? w->macs
					                : L->net == TRIM__NET_BUS && L->multicast ? w->macs / f : w->macs;
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
					int64_t *o = res ? &x->up_out[l][t] : &x->down_words[l][t];
					if (v == 0 && (!have || dw[l] < *o))
						*o = dw[l];
					continue;
				}
				if (a->lv[l].type != TRIM__LVL_STORAGE)
					continue;
				e += res ? (double)rdc[l] * costs[l].update_pj + (double)in[l] * costs[l].read_pj
				         : (double)rdc[l] * costs[l].read_pj + (double)in[l] * costs[l].write_pj;
				int64_t rback_words = rback && kept[l] && rdc[l] > touched ? rdc[l] - touched : 0;
				e += (double)rback_words * costs[l].read_pj;
				rq[l] = rback_words;
				/* a result holder below the outermost with no spatial level
				 * of bounds > 1 (or unknown) between it and its child holder
				 * (or the MACs): every update is an arrival, and each arrival
				 * is read back or drained (R + D = U + the parent's
				 * read-backs; docs/model.md, "Bounds"), both reads of l */
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
				int64_t *out_rd = res ? &x->updates[l][t] : &x->reads[l][t];
				int64_t *out_in = res ? &x->drains[l][t] : &x->fills[l][t];
				if (v == 0 && (!have || rd[l] < *out_rd))
					*out_rd = rd[l];
				if (v == 0 && (!have || in[l] < *out_in))
					*out_in = in[l];
			}
			if (v == 0 && c < 64) {
				unsigned km = 0;
				for (int l = 0; l < nl; l++)
					km |= (unsigned)kept[l] << l;
				Ech[t][c] = e;
				Ev[0][t][c] = e;
				Kch[t][c] = km;
				nch[t] = c + 1;
				if (nc) {
					memcpy(nc->a[t][c], rdc, (size_t)nl * sizeof *rdc);
					memcpy(nc->b[t][c], in, (size_t)nl * sizeof *in);
					memcpy(nc->r[t][c], rq, (size_t)nl * sizeof *rq);
					memcpy(nc->net[t][c], nw, (size_t)nl * sizeof *nw);
					memcpy(nc->dw[t][c], dw, (size_t)nl * sizeof *dw);
				}
			}
			if (v > 0 && c < 64)
				Ev[v][t][c] = e;
			if (!have || e < emin)
				emin = e;
			have = 1;
		}
		if (v == 0) {
			etensor += emin;
			ebase[t] = emin;
			/* the tensors so far already exceed the caller's cut (energy):
			 * their sum is a bound, the rest is not needed */
			if ((emacs + etensor) * (1 - 1e-9) > cut && goal == TRIM__GOAL_ENERGY && nvar == 1) {
				*lb = (emacs + etensor) * (1 - 1e-9);
				return;
			}
		} else {
			evar[v] += emin;
		}
	}
	/* per level, the cheapest innermost loop */
	for (int k = 0; k < nl && nvar > 1; k++) {
		double bk = HUGE_VAL;
		int any = 0;
		for (int v = 1; v < nvar; v++)
			if (vk[v] == k) {
				any = 1;
				if (evar[v] < bk)
					bk = evar[v];
			}
		if (any && bk > etensor)
			etensor = bk;
	}
	if (out) {
		memcpy(out->nch, nch, sizeof nch);
		for (int t = 0; t < 3; t++) {
			memcpy(out->E[t], Ech[t], (size_t)nch[t] * sizeof **Ech);
			memcpy(out->K[t], Kch[t], (size_t)nch[t] * sizeof **Kch);
		}
	}
	if (nc) {
		memcpy(nc->extk, extk, (size_t)nl * sizeof *extk);
		memcpy(nc->tbytes, tbytes, (size_t)nl * sizeof *tbytes);
	}
	/* the cheapest combination of keep choices whose known tiles fit */
	if (nch[0] <= 64 && nch[1] <= 64 && nch[2] <= 64) {
		double best = cheapest_fit(s, extk, tbytes, Kch, nch, Ech);
		/* and per joint level, the cheapest innermost loop of those */
		for (int k = 0; k < nl && nvar > 1 && best < HUGE_VAL; k++) {
			double bk = HUGE_VAL;
			int any = 0;
			for (int v = 1; v < nvar; v++)
				if (vk[v] == k) {
					any = 1;
					double b = cheapest_fit(s, extk, tbytes, Kch, nch, Ev[v]);
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
	x->macs = w->macs;
	x->zero_macs = zero_macs;
	x->active_pes = allsp ? active : (a->total_pes > 0 ? a->total_pes : 1);
	for (int l = 0; l < nl; l++)
		x->instances[l] = allsp ? inst[l] : (a->lv[l].instances > 0 ? a->lv[l].instances : 1);
	trim__eval_act(w, a, costs, m, ev);
	double energy = ev->mac_pj + etensor;
	for (int l = 0; l < nl; l++)
		energy += ev->static_pj[l];
	double v = goal == TRIM__GOAL_ENERGY ? energy : goal == TRIM__GOAL_DELAY ? ev->cycles : energy * ev->cycles;
	/* the sums above run in another order than the evaluator's: a margin far
	 * above their rounding keeps a tight bound from passing a real cost */
	*lb = v * (1 - 1e-9);
}

/* The node's counts of keep combination cc on the count-wise minima in
 * base (what the choice does not set: the cycles' words). */
static void combination_counts(const trim__mapspace *s, const node_counts *nc, const int *nch, const int *cc,
                               const trim__activity *base, trim__activity *x)
{
	const struct trim_arch *a = s->a;
	*x = *base;
	for (int t = 0; t < 3; t++) {
		if (!nch[t])
			continue;
		const int c = cc[t], res = t == 2;
		for (int l = 0; l < a->nlevels; l++) {
			const trim__level *L = &a->lv[l];
			if (L->type == TRIM__LVL_STORAGE) {
				if (res) {
					x->updates[l][t] = nc->a[t][c][l];
					x->drains[l][t] = nc->b[t][c][l];
					x->reads[l][t] = nc->r[t][c][l];
				} else {
					x->reads[l][t] = nc->a[t][c][l];
					x->fills[l][t] = nc->b[t][c][l];
				}
			} else if (L->type == TRIM__LVL_SPATIAL) {
				const int64_t nw = nc->net[t][c][l], dw = nc->dw[t][c][l];
				if (res) {
					x->up_words[l][t] = nw;
					x->up_out[l][t] = dw;
				} else if (L->net == TRIM__NET_BUS) {
					x->down_words[l][t] = nw > dw ? nw : dw;
				} else {
					x->down_dests[l][t] = nw;
					x->down_words[l][t] = dw;
				}
			}
		}
	}
}

enum { TIE_MAX_COMBINATIONS = 4096 };

int trim__node_tie_cut(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth, int64_t zero_macs,
                       trim__mapping *m, trim__eval *ev, double cur, node_counts *nc)
{
	node_choices ch;
	double lb;
	node_bound(s, costs, goal, depth, zero_macs, m, ev, &lb, &ch, nc, 0, HUGE_VAL);
	if (lb == HUGE_VAL)
		return 1; /* no valid mapping below */
	if (!nc->complete)
		return 0;
	const int n0 = ch.nch[0] ? ch.nch[0] : 1, n1 = ch.nch[1] ? ch.nch[1] : 1, n2 = ch.nch[2] ? ch.nch[2] : 1;
	if (goal != TRIM__GOAL_ENERGY && n0 * n1 * n2 > TIE_MAX_COMBINATIONS)
		return 0;
	/* the node bound's own figures: MACs and the leakage over its cycles
	 * (a bound for every combination) */
	double fixed = ev->mac_pj;
	for (int l = 0; l < s->a->nlevels; l++)
		fixed += ev->static_pj[l];
	trim__activity base = ev->act;
	for (int c0 = 0; c0 < n0; c0++)
		for (int c1 = 0; c1 < n1; c1++)
			for (int c2 = 0; c2 < n2; c2++) {
				const int cc[3] = {c0, c1, c2};
				if (!choices_fit(s, nc->extk, nc->tbytes, ch.K, ch.nch, cc))
					continue; /* no valid mapping with these choices */
				if (goal == TRIM__GOAL_ENERGY) {
					/* above cur by far more than any rounding: no tie */
					double e = fixed;
					for (int t = 0; t < 3; t++)
						if (ch.nch[t])
							e += ch.E[t][cc[t]];
					if (e * (1 - 1e-9) > cur)
						continue;
				}
				combination_counts(s, nc, ch.nch, cc, &base, &ev->act);
				trim__eval_act(s->w, s->a, costs, m, ev);
				if (trim__goal_cost(ev, goal) < cur)
					return 0;
			}
	return 1;
}
