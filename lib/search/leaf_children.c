/*
 * The bounds of a node's children that are factorisations (docs/model.md,
 * "Bounds", siblings): they differ only in the factors of one storage level
 * c (the last tree slot takes the rest), and each tensor's part of the node
 * bound reads only the factors of its own dims there. So each tensor's
 * figures are computed once per combination of its dims' values, and a
 * child is the sum of three looked-up parts: most children are cut on that
 * sum alone, the others get the capacities and cycles (trim__node_combine),
 * the same bound as trim__node_bound_above. The figures stay while the
 * children are visited (W->leaf_on) and give the joint-order bound of those
 * the plain bound keeps (trim__leaf_child_joint).
 *
 * Until a child's tensor is looked up, the parent node's figure for that
 * tensor stands in for it: each tensor's figure at any node is at most
 * that tensor's energy in every valid mapping below the node (the brute
 * force checks it), so the child's floor may take, per tensor, the larger
 * of its own figure and the parent's. A child whose result alone rises
 * past the cut is then cut before its operands are looked up.
 */
#include "search_int.h"

/* Why the figures of a tensor depend on its own dims alone at c: the words
 * crossing the boundaries below the known levels multiply the factors of
 * the dims that are the sole term of an axis of the tensor at c (and of
 * every dim at the levels above c, fixed here); its tiles and shares are
 * those of its dims; the spatial levels are fixed; and the forced refills
 * (a second unknown storage level below c) cannot occur, c being the
 * innermost storage level but one. */
static int applies(const trim__mapspace *s, int depth)
{
	const struct trim_arch *a = s->a;
	if (s->imperfect || depth != s->nslots - 1)
		return 0;
	const int c = s->slot[s->tord[depth - 1]], last = s->slot[s->tord[depth]];
	if (a->lv[c].type != TRIM__LVL_STORAGE || a->lv[last].type != TRIM__LVL_STORAGE)
		return 0;
	for (int l = c + 1; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE && l != last)
			return 0;
	return 1;
}

/* Tensor t's looked-up figures for combination `key` of its dims, computed
 * on first use from the child whose other digits are 0 (W->node_mapping
 * and the frame's extents are then that child's). */
static const tensor_figures *memo_figures(const trim__mapspace *s, int64_t *const *trows,
                                          const trim__level_cost *costs, int depth, int t, int64_t key,
                                          search_worker *W)
{
	struct leaf_memo *L = &W->leaf;
	const size_t e = L->off[t] + (size_t)key;
	if (W->leaf_figures[e].nch < 0) {
		int32_t lo[TRIM_NDIMS];
		for (int d = 0; d < TRIM_NDIMS; d++)
			lo[d] = L->vlo[d][L->tstride[t][d] ? key / L->tstride[t][d] % L->nvals[d] : 0];
		trim__tree_node_set(s, trows, depth, lo, &W->node_mapping);
		trim__node_frame_extents(s, &W->node_mapping, &L->f);
		trim__node_tensor_reuse(s, costs, &L->f, &W->node_mapping, t, &W->leaf_figures[e], &W->leaf_reuse[e]);
	}
	return &W->leaf_figures[e];
}

/* What a tensor's own figure adds to a floor that counted its stand-in. */
static double above_stand_in(double own, double stand_in)
{
	return own > stand_in ? own - stand_in : 0;
}

int trim__leaf_children_bounds(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs,
                               int goal, int depth, tree_child *c, int64_t n, const int *nvals, double above,
                               int64_t zero_macs, search_worker *W)
{
	W->leaf_on = 0;
	if (n < 2 || !applies(s, depth))
		return 0;
	const trim__intra *w = s->w;
	struct leaf_memo *L = &W->leaf;
	/* the children's digit strides (the last dim fastest) and, per tensor,
	 * the strides of its combinations (its dims with several values) */
	int64_t ncomb[3];
	for (int64_t d = TRIM_NDIMS - 1, st = 1; d >= 0; d--) {
		L->cstride[d] = st;
		L->nvals[d] = nvals[d];
		st *= nvals[d];
	}
	/* a tensor whose dims take fewer combinations than there are children
	 * is looked up (memo), the others are computed per child */
	size_t total = 0;
	int any = 0;
	for (int t = 0; t < 3; t++) {
		const unsigned dims = s->dsingle[t] | s->dwindow[t];
		ncomb[t] = 1;
		for (int d = TRIM_NDIMS - 1; d >= 0; d--) {
			L->tstride[t][d] = 0;
			if ((dims >> d & 1) && nvals[d] > 1) {
				L->tstride[t][d] = ncomb[t];
				ncomb[t] *= nvals[d];
			}
		}
		L->memo[t] = w->t[t].present && ncomb[t] < n;
		L->ncomb[t] = ncomb[t];
		any |= L->memo[t];
		L->off[t] = total;
		if (L->memo[t])
			total += (size_t)ncomb[t];
	}
	if (!any)
		return 0; /* nothing shared */
	if (total > W->leaf_figures_cap) {
		tensor_figures *q = realloc(W->leaf_figures, total * sizeof *q);
		if (q)
			W->leaf_figures = q;
		tensor_reuse *r = q ? realloc(W->leaf_reuse, total * sizeof *r) : NULL;
		if (!r)
			return -1;
		W->leaf_reuse = r;
		W->leaf_figures_cap = total;
	}
	trim__mapping *m = &W->node_mapping;
	node_frame *f = &L->f;
	trim__tree_node_set(s, trows, depth, c[0].lo, m);
	if (trim__node_frame(s, costs, depth, zero_macs, m, f))
		return 0; /* no spatial fit, or ragged: the plain bound says so */
	/* the looked-up tensors' figures, computed when first needed (nch -1:
	 * not yet) */
	for (size_t k = 0; k < total; k++)
		W->leaf_figures[k].nch = -1;
	for (int d = 0; d < TRIM_NDIMS; d++) /* each dim's values (the others' first) */
		for (int j = 0; j < nvals[d]; j++)
			L->vlo[d][j] = c[(int64_t)j * L->cstride[d]].lo[d];
	/* in the node bound's order, the result first: its figure rises the
	 * most once the children's factors are known (on AlexNet-Cifar's
	 * convolutions at batch 64 this order looks up 13-20% fewer figures
	 * than the fewest combinations first) */
	int sum_order[3], nsum = 0;
	for (int ti = 0; ti < 3; ti++)
		if (L->memo[trim__bound_torder[ti]])
			sum_order[nsum++] = trim__bound_torder[ti];
	tensor_figures absent, own[3]; /* absent: no choice, zero counts; own: computed per child */
	memset(&absent, 0, sizeof absent);
	absent.complete = 1;
	const int energy = goal == TRIM__GOAL_ENERGY;
	/* with the energy goal, the MACs and the leakage at their cycles come
	 * with every child */
	L->every_child = energy ? f->emacs + trim__node_static_floor(s, costs, f, m, zero_macs, &W->bound_eval) : 0;
	double stand_in[3] = {0, 0, 0}, stand_ins = 0;
	if (energy && !s->test_stand_ins_off) {
		trim__tree_node_set(s, trows, depth - 1, c[0].lo, m); /* the parent */
		if (trim__node_tensor_floors(s, costs, depth - 1, zero_macs, m, stand_in))
			for (int t = 0; t < 3; t++)
				stand_ins += stand_in[t];
		trim__tree_node_set(s, trows, depth, c[0].lo, m);
		trim__node_frame_extents(s, m, f);
	}
	for (int64_t i = 0; i < n; i++) {
		const tensor_figures *tf[3];
		int64_t key[3] = {0, 0, 0};
		if (c[i].moved) { /* cut as a tie (hold_nothing.c): no bound */
			c[i].lb = HUGE_VAL;
			W->child_choices[i].nch[0] = W->child_choices[i].nch[1] = W->child_choices[i].nch[2] = 0;
			continue;
		}
		for (int d = 0; d < TRIM_NDIMS; d++) {
			int64_t j = (int64_t)c[i].ord / L->cstride[d] % nvals[d];
			for (int t = 0; t < 3; t++)
				key[t] += j * L->tstride[t][d];
		}
		/* the looked-up tensors first: most children are cut on them;
		 * floor: their figures (each at least its stand-in), the parent's
		 * figures for the tensors not yet known */
		double floor = L->every_child + stand_ins;
		for (int t = 0; t < 3; t++)
			tf[t] = &absent;
		int cut = energy && floor * (1 - 1e-9) > above;
		for (int j = 0; j < nsum && !cut; j++) {
			const int t = sum_order[j];
			tf[t] = memo_figures(s, trows, costs, depth, t, key[t], W);
			floor += above_stand_in(tf[t]->emin_fit, stand_in[t]);
			cut = energy && floor * (1 - 1e-9) > above;
		}
		for (int ti = 0; ti < 3 && !cut; ti++) {
			const int t = trim__bound_torder[ti];
			if (L->memo[t] || !w->t[t].present)
				continue;
			trim__tree_node_set(s, trows, depth, c[i].lo, m); /* a look-up may have set another child */
			trim__node_frame_extents(s, m, f);
			trim__node_tensor(s, costs, f, m, t, &own[t]);
			tf[t] = &own[t];
			floor += above_stand_in(own[t].emin_fit, stand_in[t]);
			cut = energy && floor * (1 - 1e-9) > above;
		}
		if (cut) {
			c[i].lb = floor * (1 - 1e-9);
			W->child_choices[i].nch[0] = W->child_choices[i].nch[1] = W->child_choices[i].nch[2] = 0;
			continue;
		}
		double etensor = 0; /* in the node bound's order: the same bound */
		for (int ti = 0; ti < 3; ti++)
			if (w->t[trim__bound_torder[ti]].present)
				etensor += tf[trim__bound_torder[ti]]->emin;
		trim__node_combine(s, costs, goal, f, m, tf, etensor, NULL, zero_macs, &W->bound_eval, &c[i].lb,
		                   &W->child_choices[i]);
	}
	W->leaf_on = 1;
	return 1;
}

/* The cheapest sum over the tensors of energies E[t][choice] whose own
 * tiles fit (fits_alone), per joint level the cheapest of its variants. */
static double cheapest_alone(const tensor_figures *const *tf, const double *const *E)
{
	double e = 0;
	for (int ti = 0; ti < 3; ti++) {
		const int t = trim__bound_torder[ti];
		if (!tf[t]->nch)
			continue;
		if (!tf[t]->complete)
			return 0; /* some choice is not among the 64: no figure */
		double b = HUGE_VAL;
		for (int q = 0; q < tf[t]->nch; q++)
			if ((tf[t]->fits_alone >> q & 1) && E[t][q] < b)
				b = E[t][q];
		e += b;
	}
	return e;
}

int trim__leaf_child_joint(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                           int depth, const tree_child *c, double cur, int64_t zero_macs, search_worker *W,
                           double *lb)
{
	if (!W->leaf_on)
		return 0;
	const trim__intra *w = s->w;
	struct leaf_memo *L = &W->leaf;
	trim__mapping *m = &W->node_mapping;
	/* the child's tensors: looked up (which may set another child in m),
	 * then computed on the child's own factors */
	int64_t key[3] = {0, 0, 0};
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t j = (int64_t)c->ord / L->cstride[d] % L->nvals[d];
		for (int t = 0; t < 3; t++)
			key[t] += j * L->tstride[t][d];
	}
	tensor_figures own[3];
	tensor_reuse own_reuse[3];
	const tensor_figures *tf[3];
	tensor_reuse *tr[3];
	for (int t = 0; t < 3; t++)
		if (w->t[t].present && L->memo[t]) {
			tf[t] = memo_figures(s, trows, costs, depth, t, key[t], W);
			tr[t] = &W->leaf_reuse[L->off[t] + (size_t)key[t]];
		}
	trim__tree_node_set(s, trows, depth, c->lo, m);
	trim__node_frame_extents(s, m, &L->f);
	double etensor = 0;
	for (int ti = 0; ti < 3; ti++) {
		const int t = trim__bound_torder[ti];
		if (!w->t[t].present) {
			memset(&own[t], 0, sizeof own[t]);
			own[t].complete = 1;
			tf[t] = &own[t];
			tr[t] = &own_reuse[t];
			continue;
		}
		if (!L->memo[t]) {
			trim__node_tensor_reuse(s, costs, &L->f, m, t, &own[t], &own_reuse[t]);
			tf[t] = &own[t];
			tr[t] = &own_reuse[t];
		}
		etensor += tf[t]->emin;
	}
	joint_variants *jv = &W->leaf_joint;
	trim__joint_variants_of(s, &L->f, m, jv);
	/* with the energy goal, level by level (the variants are in level
	 * order): the terms without combining the tensors under the capacities
	 * (the plain sum and, per joint level done, its cheapest variant, each
	 * tensor at its cheapest choice whose own tiles fit) may exceed cur
	 * before the other levels' variants are computed */
	const double *E0[3] = {tf[0]->E, tf[1]->E, tf[2]->E};
	double quick = goal == TRIM__GOAL_ENERGY ? cheapest_alone(tf, E0) : 0;
	for (int v = 1; v < jv->n;) {
		int v_end = v;
		double bk = HUGE_VAL;
		for (; v_end < jv->n && jv->k[v_end] == jv->k[v]; v_end++) {
			trim__joint_variant(s, costs, &L->f, m, tf, tr, jv, v_end);
			if (goal == TRIM__GOAL_ENERGY) {
				const double *Ev[3] = {jv->E[v_end][0], jv->E[v_end][1], jv->E[v_end][2]};
				double b = cheapest_alone(tf, Ev);
				if (b < bk)
					bk = b;
			}
		}
		v = v_end;
		if (goal == TRIM__GOAL_ENERGY) {
			if (bk > quick)
				quick = bk;
			double q = (L->every_child + quick) * (1 - 1e-9);
			if (q > cur) {
				*lb = q;
				return 1;
			}
		}
	}
	if (goal == TRIM__GOAL_ENERGY && (L->every_child + quick) * (1 - 1e-9) > cur) {
		*lb = (L->every_child + quick) * (1 - 1e-9);
		return 1;
	}
	etensor = trim__joint_raise(s, jv, etensor);
	etensor = trim__joint_across(s, costs, &L->f, m, tf, tr, jv, etensor);
	trim__node_combine(s, costs, goal, &L->f, m, tf, etensor, jv, zero_macs, &W->bound_eval, lb, NULL);
	return 1;
}
