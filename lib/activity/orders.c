/*
 * The order-dependent part of the analyst: per hop, one part per storage
 * level between the barrier's level and the child, each a function of that
 * level's order only, memoised per distinct advance and per level order.
 */
#include <stdlib.h>
#include <string.h>

#include "analyst_int.h"

/* ---- the order-dependent part ------------------------------------------------ */

/* Statistics of the advance delta of two-term axis x (memoised). */
static int axis_advance(trim__act_ws *ws, const hax_t *x, int k, int64_t delta, const memo_t **out)
{
	struct trim__act_prep *P = ws->prep;
	memo_t *tab = P->memo + (size_t)x->memo * MEMO_WAYS;
	unsigned h = (unsigned)(((uint64_t)delta * 0x9e3779b97f4a7c15ull) >> 60) & (MEMO_WAYS - 1);
	memo_t *slot = NULL;
	for (int k = 0; k < MEMO_WAYS; k++) {
		memo_t *e = &tab[(h + (unsigned)k) & (MEMO_WAYS - 1)];
		if (e->gen != P->gen) {
			slot = e;
			break;
		}
		if (e->delta == delta) {
			*out = e;
			return 0;
		}
	}
	memo_t *e = slot ? slot : &P->spill; /* table full: read before the next call */
	e->delta = delta;
	e->ov = trim__act_axis_overlap(ws->buf[0] + x->boff, x->span, delta);
	if (k > 0) {
		int rc = trim__act_axis_scan(ws, x, k, delta, 0, e);
		if (rc)
			return rc;
	}
	e->gen = P->gen;
	*out = e;
	return 0;
}

/* The steps of a hop (B, C) of tensor t, for the loop orders of m (facts
 * 2-4 and 7 of docs/model.md, "Activity analyst"): the barrier (the
 * innermost loop above C on a dim of a one-term axis) and every loop
 * outside it refill the whole tile and deliver what the first step
 * delivers: with the first step, full = above[Lb] * (the bounds of the
 * barrier and of the loops of Lb outside it) steps. A loop j inside the
 * barrier, at level l, moves the one-term axes by 0 and each two-term axis
 * by delta_j, which depends on the loops inside it: those of l inside j and
 * every loop of the storage levels between l and C; it happens cnt_j =
 * above[l] * (bounds of l's loops outside j) * (b_j - 1) times (the loops
 * outside j above the barrier's level multiply to above[l]). So the counts
 * are a sum over the levels Lb .. C-1 of a part that depends on the order
 * of that level only. level_steps: the part of level l (with full's part
 * at l = Lb): fills of a child instance and, with S, the delivery
 * statistics per instance of S. */
static int level_steps(trim__act_ws *ws, const tprep_t *tp, const hop_t *h, int l, const int *order,
                       int64_t *fills, sstat *tot)
{
	/* an operand counted as Timeloop counts it: windows only along the
	 * innermost loop above C (timeloop.c, rule 4) */
	const int tlw = ws->count == TRIM_COUNT_TIMELOOP && tp != &ws->prep->t[2];
	const struct trim__act_prep *P = ws->prep;
	/* the loops of l (bound > 1), innermost first, up to the barrier */
	int ld[TRIM_NDIMS], nl = 0;
	int64_t lbd[TRIM_NDIMS], lst[TRIM_NDIMS], inner = 1;
	for (int k = TRIM_NDIMS - 1; k >= 0; k--) {
		int d = order[k];
		int64_t b = P->f[l][d];
		if (b == 1)
			continue;
		if (l == h->Lb && (tp->hard >> d & 1))
			break;
		ld[nl] = d;
		lbd[nl] = b;
		lst[nl] = P->ext[l + 1][d];
		inner *= b;
		nl++;
	}
	/* before: the steps of the loops outside the outermost of those */
	int64_t before = P->above[l];
	const int k = h->k;
	*fills = 0;
	for (int j = 0; j < k; j++)
		tot->distinct[j] = tot->uni[j] = 0;
	if (l == h->Lb) {
		before *= P->lprod[l] / inner; /* = full */
		*fills = before * h->size;
		for (int j = 0; j < k; j++) {
			tot->distinct[j] = h->first.distinct[j] * before;
			tot->uni[j] = h->first.uni[j] * before;
		}
	}
	if (!h->n2 || !nl)
		return 0;
	/* deltas of the two-term axes, innermost loop first: a loop advances
	 * its dim by its stride and resets every loop inside it (all loops of
	 * the storage levels between l and C) */
	int64_t reset[TRIM_NDIMS] = {0}, dl[TRIM_NDIMS][MAXAX];
	int mv[TRIM_NDIMS];
	for (int i = l + 1; i < h->C; i++)
		if (P->type[i] == TRIM__LVL_STORAGE)
			for (unsigned wd = tp->win & P->big[i]; wd; wd &= wd - 1) {
				int d = __builtin_ctz(wd);
				reset[d] += (P->f[i][d] - 1) * P->ext[i + 1][d];
			}
	for (int i = 0; i < nl; i++) {
		int moved = 0;
		for (int k = 0; k < h->n2; k++) {
			const axis_t *y = &tp->ax[h->a2[k]];
			int64_t d0 = -reset[y->dim[0]] + (y->dim[0] == ld[i] ? lst[i] : 0);
			int64_t d1 = -reset[y->dim[1]] + (y->dim[1] == ld[i] ? lst[i] : 0);
			dl[i][k] = y->coef[0] * d0 + y->coef[1] * d1;
			moved |= dl[i][k] != 0;
		}
		mv[i] = moved;
		reset[ld[i]] += (lbd[i] - 1) * lst[i];
	}
	for (int i = nl - 1; i >= 0; i--) {
		int64_t cnt = before * (lbd[i] - 1);
		before *= lbd[i];
		if (!mv[i])
			continue; /* stationary: nothing changes */
		if (tlw && !trim__act_tl_window(h, l, i)) { /* the whole tile, as the first step */
			*fills += cnt * h->size;
			for (int j = 0; j < k; j++) {
				tot->distinct[j] += cnt * h->first.distinct[j];
				tot->uni[j] += cnt * h->first.uni[j];
			}
			continue;
		}
		/* per two-term axis a: ov_a, and per S_j the position counts; the
		 * one-term axes hold every element at both steps */
		int64_t ov = h->s1, A[MAXSP], E[MAXSP], O[MAXSP], O1[MAXSP];
		int64_t Ga[MAXAX][MAXSP], O1a[MAXAX][MAXSP];
		for (int j = 0; j < k; j++)
			A[j] = E[j] = O[j] = O1[j] = h->c1[j];
		for (int kk = 0; kk < h->n2; kk++) {
			const hax_t *x = &h->ax[h->a2[kk]];
			if (dl[i][kk] == 0) {
				ov *= x->size;
				for (int j = 0; j < k; j++) {
					A[j] *= x->A1[j];
					E[j] *= x->A1[j];
					O[j] *= x->O1[j];
					O1[j] *= x->O1[j];
					Ga[kk][j] = 0;
					O1a[kk][j] = x->O1[j];
				}
				continue;
			}
			const memo_t *e;
			int rc = axis_advance(ws, x, k, dl[i][kk], &e);
			if (rc)
				return rc;
			ov *= e->ov;
			for (int j = 0; j < k; j++) {
				A[j] *= e->A[j];
				E[j] *= e->E[j];
				O[j] *= e->O[j];
				O1[j] *= e->O1[j];
				Ga[kk][j] = e->G[j];
				O1a[kk][j] = e->O1[j];
			}
		}
		*fills += cnt * (h->size - ov);
		for (int j = 0; j < k; j++) {
			/* children of S_j needing x: kirr * (prod_a P_a - prod_a Q_a)
			 * with Q_a <= P_a: > 0 unless every P_a = Q_a; = 1 (kirr = 1)
			 * iff every P_a = 1 and some Q_a = 0, or one axis has P_a =
			 * Q_a + 1 >= 2 and the others P_b = Q_b = 1 */
			int64_t uni = 0;
			if (h->kirr[j] == 1) {
				uni = O[j] - O1[j];
				for (int kk = 0; kk < h->n2; kk++) {
					int64_t g = Ga[kk][j] * h->c1[j];
					for (int q = 0; q < h->n2; q++)
						if (q != kk)
							g *= O1a[q][j];
					uni += g;
				}
			}
			tot->distinct[j] += cnt * (A[j] - E[j]);
			tot->uni[j] += cnt * uni;
		}
	}
	return 0;
}

/* Per child instance, the fills over all its steps (fills1) and, with S, the
 * delivery statistics per instance of S summed over the steps (tot). key[l]:
 * level l's order, packed. */
static int hop_steps(trim__act_ws *ws, const tprep_t *tp, const hop_t *h, const trim__mapping *m,
                     const uint32_t *key, int64_t *fills1, sstat *tot)
{
	const struct trim__act_prep *P = ws->prep;
	if (h->cmac || P->lb) {
		/* MAC: one element per MAC, nothing kept: every step is a first
		 * step; lower bound: the first step and the fewest steps that
		 * refill the whole tile */
		int64_t n = h->cmac ? h->stepsC : h->M;
		*fills1 = h->cmac ? n : n * h->size;
		for (int j = 0; j < h->k; j++) {
			tot->distinct[j] = h->first.distinct[j] * n;
			tot->uni[j] = h->first.uni[j] * n;
		}
		return 0;
	}
	const int lo = h->Lb > 0 ? h->Lb : 0;
	if (h->Lb < 0) { /* no barrier: only the first step refills */
		*fills1 = h->size;
		*tot = h->first;
	} else {
		*fills1 = 0;
		for (int j = 0; j < h->k; j++)
			tot->distinct[j] = tot->uni[j] = 0;
	}
	for (int l = lo; l < h->C; l++) {
		if (P->type[l] != TRIM__LVL_STORAGE)
			continue;
		lmemo_t one, *e = &one;
		if (!P->lmemo_on) { /* one order: nothing to reuse */
			int rc = level_steps(ws, tp, h, l, m->order[l], &e->fills, &e->st);
			if (rc)
				return rc;
		} else if (e = &P->lmemo[h->lbase + (size_t)(l - lo) * LMEMO +
		                         ((key[l] * 2654435761u) >> 25 & (LMEMO - 1))],
		           e->gen != P->gen || e->key != key[l]) {
			int rc = level_steps(ws, tp, h, l, m->order[l], &e->fills, &e->st);
			if (rc) {
				e->gen = 0;
				return rc;
			}
			e->gen = P->gen;
			e->key = key[l];
		}
		*fills1 += e->fills;
		for (int j = 0; j < h->k; j++) {
			tot->distinct[j] += e->st.distinct[j];
			tot->uni[j] += e->st.uni[j];
		}
	}
	return 0;
}

/* The counts of every prepared tensor for m's loop orders. Rows >= the
 * number of levels are not written. */
int trim__act_order_counts(trim__act_ws *ws, const trim__mapping *m, trim__activity *out)
{
	struct trim__act_prep *P = ws->prep;
	const int nL = P->nL;
	uint32_t key[TRIM__MAX_LEVELS]; /* storage: the order, 3 bits per position */
	for (int l = 0; P->lmemo_on && l < nL; l++) {
		key[l] = 0;
		for (int k = 0; k < TRIM_NDIMS; k++)
			key[l] |= (uint32_t)(m->order[l][k] & 7) << (3 * k);
		key[l] |= (uint32_t)(ws->count == TRIM_COUNT_TIMELOOP) << 31; /* level_steps reads it */
	}
	out->exact = !P->lb && (P->tmask & 7u) == 7u;
	out->macs = P->macs;
	out->padded_macs = P->ragged ? trim__mapping_padded_macs(m) : P->macs;
	out->zero_macs = P->zero_macs;
	out->steps = P->steps;
	out->active_pes = P->active_pes;
	memcpy(out->instances, P->instances, (size_t)nL * sizeof *out->instances);
	memcpy(out->tile, P->tile, (size_t)nL * sizeof *out->tile);
	int64_t (*const zero[])[3] = {out->fills, out->reads, out->updates, out->drains, out->down_words,
	                              out->down_dests, out->unicast, out->mcast, out->mcast_dests,
	                              out->up_words, out->up_out, out->reductions};
	for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
		for (int l = 0; l < nL; l++) /* short rows: no call */
			zero[i][l][0] = zero[i][l][1] = zero[i][l][2] = 0;

	for (int t = 0; t < 3; t++) {
		const tprep_t *tp = &P->t[t];
		if (!tp->on)
			continue;
		int64_t Fprev = P->tile[0][t], Rprev = 0; /* result: entries and read-backs of the parent */
		int nored = 1; /* no spatial level above the hop splits a dim irrelevant to the result */
		for (int i = 0; i < tp->nk; i++) {
			const hop_t *h = &tp->hop[i];
			const int B = h->B, C = h->C, k = h->k, cmac = h->cmac;
			/* Mw[j] (j < k): (element, S_j instance) pairs needed below,
			 * Mw[k]: deliveries to the children (C's instances); Uw[j]:
			 * pairs needed below exactly one child of S_j; Up: the same
			 * pairs of the result's words going up (Mw, but for ragged tiles) */
			int64_t Fc, Mw[MAXSP + 1], Uw[MAXSP], Dw[MAXSP + 1];
			const int64_t *Up = Mw;
			if (P->ragged) {
				int rc = trim__act_ragged_hop(ws, m, t, i, &Fc, Mw, Uw, Dw);
				if (rc)
					return rc;
				Up = Dw;
			} else {
				int64_t fills1;
				sstat tot_st;
				int rc = hop_steps(ws, tp, h, m, key, &fills1, &tot_st);
				if (rc)
					return rc;
				Fc = fills1 * P->instances[C];
				for (int j = 0; j < k; j++) {
					Mw[j] = tot_st.distinct[j] * h->nsi[j];
					Uw[j] = tot_st.uni[j] * h->nsi[j];
				}
				Mw[k] = Fc;
				if (t < 2 && !P->lb && ws->count == TRIM_COUNT_TIMELOOP) /* rules 1 and 5 */
					trim__act_tl_words(h, fills1, P->instances[C], Mw, Uw);
			}
			/* depth of a spatial level on the hop: the S_j above it */
			int depth[TRIM__MAX_LEVELS], sp_j[TRIM__MAX_LEVELS];
			for (int l = B + 1, q = 0; l < C; l++) {
				sp_j[l] = q < k && h->S[q] == l ? q : -1;
				depth[l] = q;
				if (sp_j[l] >= 0)
					q++;
			}
			if (t < 2) {
				/* a word is replicated only at S_jm .. S_k-1: above S_jm
				 * every delivery of S_jm's children travels on its own */
				const int jm = h->jm;
				if (!cmac)
					out->fills[C][t] += Fc;
				out->reads[B][t] += Mw[jm];
				for (int l = B + 1; l < C; l++) {
					if (P->type[l] != TRIM__LVL_SPATIAL)
						continue;
					const int j = sp_j[l];
					if (j >= jm) {
						out->down_words[l][t] += Mw[j];
						out->down_dests[l][t] += Mw[j + 1];
						out->unicast[l][t] += Uw[j];
						out->mcast[l][t] += Mw[j] - Uw[j];
						out->mcast_dests[l][t] += Mw[j + 1] - Uw[j];
					} else {
						/* no replication here, or a level with bounds 1 */
						const int q = j >= 0 ? j : depth[l];
						int64_t wds = Mw[q > jm ? q : jm];
						out->down_words[l][t] += wds;
						out->down_dests[l][t] += wds;
						out->unicast[l][t] += wds;
					}
				}
			} else {
				/* read-backs: what arrives minus the first entries (Fprev -
				 * Rprev); those are the result's elements, once each, while
				 * no spatial level above splits a dim irrelevant to it (the
				 * lower bound's U is a lower bound) */
				const int jr = h->jr;
				int64_t U = Mw[0], R = P->lb ? (nored && U > P->tile[0][t] ? U - P->tile[0][t] : 0) : U - Fprev + Rprev;
				int64_t upd = Up[jr];
				if (!cmac) {
					out->fills[C][t] += R;
					out->drains[C][t] += Fc;
				}
				out->reads[B][t] += R;
				/* lower bound: below the outermost holder, R + (B's drains,
				 * Fprev) = U + Rprev >= U; B's reads and drains cost the same
				 * (both read B), so the shortfall is charged to B's reads
				 * only (not to the read-backs' network words and fills,
				 * which may be drains instead) */
				if (P->lb && i > 0 && U > R + Fprev)
					out->reads[B][t] += U - R - Fprev;
				out->updates[B][t] += upd;
				for (int l = B + 1; l < C; l++) {
					if (P->type[l] != TRIM__LVL_SPATIAL)
						continue;
					out->down_words[l][t] += R;
					out->down_dests[l][t] += R;
					out->unicast[l][t] += R;
					/* the words of S_j's children enter S_j; S_jr .. S_k-1
					 * add them up, the levels above pass what S_jr sends */
					const int j = sp_j[l];
					const int qi = j >= 0 ? j + 1 : depth[l], qo = j >= 0 ? j : depth[l];
					int64_t in_w = Up[qi > jr ? qi : jr];
					int64_t out_w = Up[qo > jr ? qo : jr];
					out->up_words[l][t] += in_w;
					out->up_out[l][t] += out_w;
					out->reductions[l][t] += in_w - out_w;
				}
				Fprev = Fc;
				Rprev = R;
				for (int l = B + 1; l < C; l++)
					if (P->type[l] == TRIM__LVL_SPATIAL)
						for (int d = 0; d < TRIM_NDIMS; d++)
							if (P->f[l][d] > 1 && !((tp->hard & ~tp->win) >> d & 1))
								nored = 0;
			}
		}
	}
	return 0;
}
