/*
 * What a systolic array's words cost in the node bound (docs/model.md,
 * "Bounds", systolic arrays): the hops the evaluator charges on a
 * `network: systolic` level beyond the one hop per word the rest of the
 * bound assumes, where the node's fixed spatial factors decide them.
 *
 * The evaluator (lib/eval/eval.c, trim__net_pj) charges a systolic level
 *   (down_dests + up_words) * hop * fwd + (unicast + drained) * hop * (avg - fwd)
 * with fwd = 1 <= avg = (Y+1)/2: a word that reaches one PE alone (a
 * unicast word: shifted in from the edge), and a result leaving a level
 * that adds nothing (drained), costs avg hops; the others one per PE. The
 * bound of a tensor (tensor_bound.c) charges its words at one hop (nw:
 * operands' deliveries <= down_dests, results' partial sums <= up_words)
 * and leaves out a result's read-backs, which go down the array. Three
 * terms tighten it, each for the completions of a node whose spatial
 * levels are fixed (allsp), proven below from the counts of
 * lib/activity/orders.c:
 *
 * (c) operands, unicast: a systolic level whose loops (bounds > 1) are all
 *     on dims that tell the operand's elements apart (the sole term of an
 *     axis, or a term of a one-to-one two-term axis: distinguishing_dims)
 *     gives every child a set of elements disjoint from its siblings'
 *     (they differ on that axis), so every word it passes is needed below one
 *     child: Uw[j] = Mw[j] (and a level with no loops, or off the
 *     replication range, counts every word unicast). Then unicast =
 *     down_words = down_dests and its words cost avg hops each.
 * (b) results, drained: the same condition on the result's dims (the
 *     children's partial sums are of distinct elements: nothing is added
 *     in the level, Up[qi] = Up[qo], reductions = 0), so drained =
 *     up_words and every word going up costs avg hops.
 *     Both (b) and (c) take one level with loops on the hop, the only one
 *     (the delivery tree of one level; several are left to one hop).
 * (a) results, read-backs: on the hop from a result holder B (kept) down
 *     to the next holder C (or the MACs), the evaluator reads back
 *     R_B = U_B - F_prev + R_prev words from B and sends each down every
 *     spatial level of the hop (down_words, down_dests and unicast += R_B):
 *     R_B avg hops per systolic level, plus R_B reads of B. Over the hops
 *     above B (from the outermost holder, F = the tensor's elements T0,
 *     R = 0) this telescopes to R_B = U_B - T0 + sum_(hops above) (U_j -
 *     F_j), where U_j (B_j's arrivals, Mw[0]) = F_j (the next holder's
 *     drains, Fc) when no spatial level on hop j has loops (one word up per
 *     word drained). U_B is Mw[0] of B's own hop, and B's updates are
 *     Up[jr] = Mw[jr]: equal when every spatial level with loops on that
 *     hop reduces (jr = 0; a systolic level does). So with no spatial
 *     level with loops above B and every one on its hop reducing,
 *     R_B = updates_B - T0 >= rdc[B] - T, rdc[B] the bound's floor on B's
 *     updates and T >= T0 the product over the result's axes of the
 *     values each takes. B's reads then are R_B + D_B (its drains) >=
 *     in[B] + (rdc[B] - T): the bound's rq[B] is raised to that, and
 *     every spatial level of the hop (one of them systolic: the term is
 *     this file's) is charged rdc[B] - T unicast words down (avg hops).
 *     No count is charged twice: the bound's other network words of a
 *     result are its partial sums going up (up_words).
 * Every count here is a floor of the evaluator's for every completion of
 * the node, every order and every bypass choice that keeps the levels of
 * `kept`; the energies are the evaluator's terms of them (linear in each
 * count). The exact tie test (tie_cut.c) evaluates the same counts: the
 * read-backs as a result's words down (node_counts.rdown) and the words at
 * avg hops as unicast words (node_counts.avg; a drained result's energy
 * is a unicast word's).
 */
#include "search_int.h"

/* The dims of tensor t whose values alone tell its elements apart along
 * an axis: the dim of a one-term axis, and both dims of a two-term axis
 * c d + c' d' on which (d, d') -> c d + c' d' is one to one over their
 * bounds (|c| > |c'| (bound d' - 1), as a pooling window with its stride
 * at least its size). Two index sets that differ in such a dim's values
 * (disjoint sets of them) touch disjoint elements. */
static unsigned distinguishing_dims(const trim__intra *w, int t)
{
	unsigned dims = 0;
	for (int i = 0; i < w->t[t].ndims; i++) {
		const trim__iexpr *e = &w->t[t].idx[i];
		if (e->nterms == 1 && e->coef[0] != 0)
			dims |= 1u << e->dim[0];
		if (trim__axis_one_to_one(w, e))
			dims |= 1u << e->dim[0] | 1u << e->dim[1];
	}
	return dims;
}

/* 1 if the loops of spatial level l are all on dims that tell t's
 * elements apart: at any step its children (each a distinct block of
 * values of every dim it splits) need disjoint elements of t. */
static int splits_disjoint(const trim__mapspace *s, const trim__mapping *m, int t, int l)
{
	const unsigned dims = distinguishing_dims(s->w, t);
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (m->f[l][d] > 1 && !(dims >> d & 1))
			return 0;
	return 1;
}

static double avg_hops(const trim__level_cost *c)
{
	return c->avg_hops > 0 ? c->avg_hops : 1;
}

double trim__systolic_hops(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                           const trim__mapping *m, int t, int l)
{
	const struct trim_arch *a = s->a;
	const double least = trim__net_min_hops(&costs[l]);
	if (a->lv[l].net != TRIM__NET_SYSTOLIC || !f->allsp || !splits_disjoint(s, m, t, l))
		return least;
	/* l the only spatial level with loops: one level on the delivery tree */
	for (int k = 0; k < a->nlevels; k++)
		if (k != l && a->lv[k].type == TRIM__LVL_SPATIAL && trim__level_has_loops(m, k))
			return least;
	const double avg = avg_hops(&costs[l]);
	return avg > least ? avg : least;
}

double trim__systolic_readbacks(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                                const trim__mapping *m, int t, const int *kept, const int64_t *rdc, int64_t *rq,
                                int64_t *down)
{
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	for (int l = 0; l < nl; l++)
		down[l] = 0;
	if (t != 2 || !f->allsp)
		return 0;
	/* T: the values of each axis of the result multiplied, >= its elements */
	int64_t T = 1;
	for (int i = 0; i < w->t[t].ndims; i++) {
		const trim__iexpr *e = &w->t[t].idx[i];
		int64_t span = 1;
		for (int j = 0; j < e->nterms; j++)
			span += (e->coef[j] < 0 ? -e->coef[j] : e->coef[j]) * (w->bound[e->dim[j]] - 1);
		T *= span;
	}
	double e = 0;
	for (int b = 0; b < nl; b++) {
		if (a->lv[b].type == TRIM__LVL_SPATIAL && trim__level_has_loops(m, b))
			break; /* a spatial level with loops above the holders below */
		if (a->lv[b].type != TRIM__LVL_STORAGE || !kept[b] || rdc[b] <= T)
			continue;
		/* b's hop: down to the next holder; every level with loops on it
		 * reduces, and some is systolic */
		int systolic = 0, ok = 1, c = b + 1;
		for (; c < nl && !(a->lv[c].type == TRIM__LVL_STORAGE && kept[c]); c++) {
			const trim__level *L = &a->lv[c];
			if (L->type != TRIM__LVL_SPATIAL)
				continue;
			if (trim__level_has_loops(m, c) && !L->reduction)
				ok = 0;
			if (L->net == TRIM__NET_SYSTOLIC)
				systolic = 1;
		}
		if (!ok || !systolic)
			continue;
		const int64_t R = rdc[b] - T;
		if (R > rq[b]) {
			e += (double)(R - rq[b]) * costs[b].read_pj;
			rq[b] = R;
		}
		for (int k = b + 1; k < c; k++)
			if (a->lv[k].type == TRIM__LVL_SPATIAL) {
				e += trim__net_pj(&a->lv[k], &costs[k], (double)R, (double)R, (double)R, 0, 0);
				down[k] = R;
			}
	}
	return e;
}
