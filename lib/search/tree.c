/*
 * Branch and bound over partial factorisations: the factors of the tree
 * slots fixed one slot at a time (spatial levels first, innermost first),
 * children best first, a child cut when its bound exceeds the k-th best
 * cost known.
 */
#include "search_int.h"

int trim__tree_child_cmp(const void *p, const void *q)
{
	const tree_child *a = p, *b = q;
	if (a->lb != b->lb)
		return a->lb < b->lb ? -1 : 1;
	return a->ord < b->ord ? -1 : a->ord > b->ord;
}

int64_t trim__tree_children(const trim__mapspace *s, int64_t *const *trows, int depth, const int32_t *lo,
                            const int32_t *hi, tree_child **out, int *nvals, search_worker *stopper)
{
	const int slot = s->tord[depth];
	int32_t vlo[TRIM_NDIMS][64], vhi[TRIM_NDIMS][64];
	int nv[TRIM_NDIMS];
	int64_t n = 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		nv[d] = 0;
		for (int32_t p = lo[d]; p < hi[d];) {
			int64_t v = s->fact[d][trows[d][p] * s->nslots + slot];
			int32_t q = p;
			while (q < hi[d] && s->fact[d][trows[d][q] * s->nslots + slot] == v)
				q++;
			if (nv[d] == 64)
				return -2; /* too many divisors: not handled here */
			vlo[d][nv[d]] = p;
			vhi[d][nv[d]++] = q;
			p = q;
		}
		n *= nv[d];
	}
	if (nvals)
		memcpy(nvals, nv, sizeof nv);
	tree_child *c = malloc((size_t)(n > 0 ? n : 1) * sizeof *c);
	if (!c)
		return -1;
	for (int64_t i = 0; i < n; i++) {
		if (stopper && (i & 65535) == 65535 && trim__worker_stop(stopper)) {
			free(c);
			return -3;
		}
		int64_t r = i;
		for (int d = TRIM_NDIMS - 1; d >= 0; d--) {
			int j = (int)(r % nv[d]);
			r /= nv[d];
			c[i].lo[d] = vlo[d][j];
			c[i].hi[d] = vhi[d][j];
		}
		c[i].ord = (uint64_t)i;
		c[i].lb = 0;
		c[i].moved = 0;
	}
	*out = c;
	return n;
}

/* The factors of the tree slots < depth from the full factorisation row[d]
 * of every dim (and the rest at tree slot depth, the other slots 1). */
static void node_set(const trim__mapspace *s, int depth, const int64_t *const *row, trim__mapping *m)
{
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t rest = s->w->bound[d];
		for (int i = 0; i < s->nslots; i++)
			m->f[s->slot[i]][d] = 1;
		for (int i = 0; i < depth && i < s->nslots; i++) {
			int k = s->tord[i];
			m->f[s->slot[k]][d] = row[d][k];
			rest /= row[d][k];
		}
		if (depth < s->nslots)
			m->f[s->slot[s->tord[depth]]][d] = rest;
	}
}

void trim__mapspace_node_of(const trim__mapspace *s, int depth, const trim__mapping *full, trim__mapping *out)
{
	int64_t f[TRIM_NDIMS][TRIM__MAX_LEVELS];
	const int64_t *row[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++) {
		for (int i = 0; i < s->nslots; i++)
			f[d][i] = full->f[s->slot[i]][d];
		row[d] = f[d];
	}
	trim__space_mapping_init(s, out);
	node_set(s, depth, row, out);
}

/* Factors of the node (tree slots < depth fixed) from its tree rows. */
void trim__tree_node_set(const trim__mapspace *s, int64_t *const *trows, int depth, const int32_t *lo, trim__mapping *m)
{
	const int64_t *row[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++)
		row[d] = s->fact[d] + trows[d][lo[d]] * s->nslots;
	node_set(s, depth, row, m);
}

/* The smallest index below a child: the smallest factorisation row of
 * every dim, no bypass bit, every order code 0 (lib/search/index.c). */
static trim__index child_min_index(const trim__mapspace *s, int64_t *const *trows, const tree_child *c)
{
	trim__index fc = 0;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t lo = trows[d][c->lo[d]];
		for (int32_t p = c->lo[d] + 1; p < c->hi[d]; p++)
			if (trows[d][p] < lo)
				lo = trows[d][p];
		fc = fc * (trim__index)s->nf[d] + (trim__index)lo;
	}
	trim__index i = fc << s->nbyp;
	for (int k = 0; k < s->nord; k++)
		i *= (trim__index)s->nperm;
	return i;
}

/* Exact ties (docs/model.md, "Bounds"): 1 if the child (its slots < depth
 * fixed) can be cut because no mapping below it beats, on (cost, second
 * figure, index), a real mapping costing cur: the window's (rb) or the
 * node's best so far, the first of them in that order. Exact searches of
 * the best only; the bound must reach cur in the evaluator's own arithmetic
 * (trim__node_tie_cut), and where it equals cur, the bound of the second
 * figure must be above that mapping's, or equal with every index below the
 * child above that mapping's. */
static int tie_cut_child(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                         int depth, const tree_child *c, double rb, double cur, int64_t zero_macs, search_worker *W)
{
	if (W->cut_scale != 1 || s->topk > 1 || !(c->lb * (1 + 4e-9) >= cur))
		return 0;
	int on = W->rb_idx_on && rb == cur;
	trim__index ref = W->rb_idx;
	double sec = W->rb_sec;
	if (W->node.k == 1 && W->node.n == 1 && W->node.cost[0] == cur &&
	    (!on || trim__better(cur, W->node.sec[0], W->node.idx[0], cur, sec, ref, 1))) {
		on = 1;
		ref = W->node.idx[0];
		sec = W->node.sec[0];
	}
	if (!on)
		return 0;
	if (!W->node_counts && !(W->node_counts = malloc(sizeof *W->node_counts))) {
		W->err = TRIM_ENOMEM;
		return 0;
	}
	trim__tree_node_set(s, trows, depth, c->lo, &W->node_mapping);
	return trim__node_tie_cut(s, costs, goal, depth, zero_macs, &W->node_mapping, &W->bound_eval, cur, sec,
	                          child_min_index(s, trows, c) > ref, W->node_counts, W->stationary);
}

/* 1 if the child's bound with the joint order of its known levels
 * (trim__node_bound_joint: dearer, so only for children the plain bound
 * keeps) cuts it. */
static int joint_cut(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal, int depth,
                     const tree_child *c, double cur, int64_t zero_macs, search_worker *W)
{
	double lb;
	if (!trim__leaf_child_joint(s, trows, costs, goal, depth, c, cur, zero_macs, W, &lb)) {
		trim__tree_node_set(s, trows, depth, c->lo, &W->node_mapping);
		trim__node_bound_joint(s, costs, goal, depth, zero_macs, &W->node_mapping, &W->bound_eval, &lb,
		                       W->stationary);
	}
	return trim__cut(W, lb, cur);
}

/* Depth-first below a node (slots < depth fixed, rows [lo, hi)): children
 * best first, a child cut when its bound exceeds the k-th best cost known
 * to this node (the round's bound or the node's own mappings). */
void trim__tree_search_node(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                            int depth, const int32_t *lo, const int32_t *hi, double rb, int64_t zero_macs, search_worker *W)
{
	trim__tree_visit(s, trows, costs, goal, depth, lo, hi, rb, zero_macs, 0, W);
}

/* The leaf of the tree at the node lo (the last slot takes the rest: one
 * factorisation): its search under the threshold, with the exact ties'
 * reference, and its best into the node's list. */
static void visit_factorisation(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                                const int32_t *lo, double rb, int64_t zero_macs, search_worker *W)
{
	trim__index fc = 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		fc = fc * (trim__index)s->nf[d] + (trim__index)trows[d][lo[d]];
	double cur = trim__cut_threshold(W, &W->node, rb);
	/* exact ties: a real mapping whose cost is cur (the window's or the
	 * node's best), the first of those known on (cost, second figure,
	 * index) */
	W->thr_idx_on = W->cut_scale == 1 && W->rb_idx_on && rb == cur;
	W->thr_idx = W->rb_idx;
	W->thr_sec = W->rb_sec;
	if (W->cut_scale == 1 && W->node.k == 1 && W->node.n == 1 && W->node.cost[0] == cur &&
	    (!W->thr_idx_on || trim__better(cur, W->node.sec[0], W->node.idx[0], cur, W->thr_sec, W->thr_idx, 1))) {
		W->thr_idx_on = 1;
		W->thr_idx = W->node.idx[0];
		W->thr_sec = W->node.sec[0];
	}
	W->in_tree = 1;
	trim__search_factorisation(s, costs, goal, fc, cur, zero_macs, W);
	W->in_tree = 0;
	W->dive_leaves--;
	W->leaf_choices = NULL;
	for (size_t j = 0; j < W->item.n; j++)
		trim__top_put(&W->node, W->item.cost[j], W->item.sec[j], W->item.idx[j], NULL);
}

/* A level that holds nothing (hold_nothing.c): the children c[0 .. n) of a
 * node at depth that fix it, or (where dims split across it and the
 * level above are cut too) the level above it, with a loop there, are
 * marked moved. */
static void mark_hold_nothing(const trim__mapspace *s, int64_t *const *trows, int depth, tree_child *c, int64_t n)
{
	const int slot = s->tord[depth];
	const int here = trim__hold_nothing_parent(s, slot) >= 0;
	const int dominated = here && trim__hold_nothing_dominated(s, slot);
	const int below = slot + 1 < s->nslots && trim__hold_nothing_parent(s, slot + 1) == slot &&
	                  trim__hold_nothing_dominated(s, slot + 1);
	for (int64_t i = 0; (here || below) && i < n; i++)
		c[i].moved = (here && trim__hold_nothing_moved(s, trows, slot, c[i].lo, dominated)) ||
		             (below && trim__hold_nothing_moved(s, trows, slot + 1, c[i].lo, 1));
}

/* The search below a node, or (dive) only the path of the best child at
 * every depth down to one factorisation. */
void trim__tree_visit(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                      int depth, const int32_t *lo, const int32_t *hi, double rb, int64_t zero_macs, int dive,
                      search_worker *W)
{
	if (W->err)
		return;
	if (depth >= s->nslots - 1) { /* the last slot takes the rest: one factorisation */
		visit_factorisation(s, trows, costs, goal, lo, rb, zero_macs, W);
		return;
	}
	tree_child *c = NULL;
	int nvals[TRIM_NDIMS];
	int64_t n = trim__tree_children(s, trows, depth, lo, hi, &c, nvals, NULL);
	if (n < 0) {
		W->err = n == -1 ? TRIM_ENOMEM : TRIM_ERANGE;
		return;
	}
	const int leaves = depth + 1 == s->nslots - 1; /* the children are factorisations */
	mark_hold_nothing(s, trows, depth, c, n);
	if (leaves && (size_t)n > W->child_choices_cap) {
		struct node_choices *q = realloc(W->child_choices, (size_t)n * sizeof *q);
		if (!q) {
			free(c);
			W->err = TRIM_ENOMEM;
			return;
		}
		W->child_choices = q;
		W->child_choices_cap = (size_t)n;
	}
	if (depth + 1 <= s->nslots - 1) {
		/* node_set writes every factor; keeps and orders are not read */
		trim__space_mapping_init(s, &W->node_mapping);
		/* exact: a child above the threshold now is cut whatever comes
		 * later (the threshold only falls), so its bound may stop there */
		const double above = W->cut_scale == 1 ? trim__cut_threshold(W, &W->node, rb) : HUGE_VAL;
		int done = leaves ? trim__leaf_children_bounds(s, trows, costs, goal, depth + 1, c, n, nvals, above,
		                                               zero_macs, W)
		                  : 0;
		if (done < 0) {
			free(c);
			W->err = TRIM_ENOMEM;
			return;
		}
		for (int64_t i = 0; i < n && !done; i++) {
			if (trim__worker_stop(W)) {
				/* stopped while bounding the children (a bound can take
				 * a large layer milliseconds): this node's own bound
				 * stands for all of them */
				double lb;
				trim__space_mapping_init(s, &W->node_mapping);
				trim__tree_node_set(s, trows, depth, lo, &W->node_mapping);
				trim__mapspace_node_lb(s, costs, goal, depth, zero_macs, &W->node_mapping, &W->bound_eval, &lb,
				                       W->stationary);
				trim__note_open(W, lb);
				free(c);
				return;
			}
			if (c[i].moved) {
				c[i].lb = HUGE_VAL; /* cut below as a tie, not bounded */
				continue;
			}
			trim__tree_node_set(s, trows, depth + 1, c[i].lo, &W->node_mapping);
			trim__node_bound_above(s, costs, goal, depth + 1, zero_macs, &W->node_mapping, &W->bound_eval,
			                       &c[i].lb, leaves ? &W->child_choices[i] : NULL, above, W->stationary);
			/* c[i].ord (the enumeration position) is also the child_choices entry */
		}
		W->st_nodes += (uint64_t)n;
		W->st_d[depth + 1] += (uint64_t)n;
		/* exact: the children above the cut are cut below whatever their
		 * order, so only the others are sorted (first) */
		int64_t nsort = n;
		if (W->cut_scale == 1 && above < HUGE_VAL) {
			nsort = 0;
			for (int64_t i = 0; i < n; i++)
				if (!(c[i].lb > above)) {
					const tree_child keep = c[i];
					c[i] = c[nsort];
					c[nsort++] = keep;
				}
		}
		qsort(c, (size_t)nsort, sizeof *c, trim__tree_child_cmp);
	}
	for (int64_t i = 0; i < n && !W->err; i++) {
		if (trim__worker_stop(W)) {
			/* children are sorted by bound: the first left is the smallest
			 * (or above the cut, as every one after it) */
			trim__note_open(W, c[i].lb);
			break;
		}
		if (c[i].moved) { /* its equal with the smaller index is searched */
			W->st_nodes_cut++;
			W->st_dc[depth + 1]++;
			W->st_tie_cut++;
			W->cnt.tie_cuts++;
			W->cnt.tie_nodes++;
			continue;
		}
		double cur = trim__cut_threshold(W, &W->node, rb);
		if (trim__cut(W, c[i].lb, cur)) {
			W->st_nodes_cut++;
			W->st_dc[depth + 1]++;
			continue; /* counted from the distinct total */
		}
		if (depth + 1 >= 2 && joint_cut(s, trows, costs, goal, depth + 1, &c[i], cur, zero_macs, W)) {
			W->st_nodes_cut++;
			W->st_dc[depth + 1]++;
			W->st_joint_cut++;
			continue;
		}
		if (tie_cut_child(s, trows, costs, goal, depth + 1, &c[i], rb, cur, zero_macs, W)) {
			W->st_nodes_cut++;
			W->st_dc[depth + 1]++;
			W->st_tie_cut++;
			W->cnt.tie_cuts++;
			W->cnt.tie_nodes++;
			continue;
		}
		if (leaves)
			W->leaf_choices = &W->child_choices[c[i].ord];
		trim__tree_visit(s, trows, costs, goal, depth + 1, c[i].lo, c[i].hi, rb, zero_macs, dive, W);
		if (dive && (W->keep.n || W->dive_leaves <= 0))
			break; /* a dive stops at its first real mapping, or out of leaves */
	}
	W->leaf_on = 0; /* the leaf children's figures (trim__leaf_child_joint) are no longer theirs */
	free(c);
}

/* -1, 0 or 1 as row u's factors at the tree slots, in tree order, are
 * lexicographically below, equal to or above row v's. */
static int tree_row_cmp(const trim__mapspace *s, int d, int64_t u, int64_t v)
{
	const int64_t *fu = s->fact[d] + u * s->nslots, *fv = s->fact[d] + v * s->nslots;
	for (int k = 0; k < s->nslots; k++) {
		int64_t a = fu[s->tord[k]], b = fv[s->tord[k]];
		if (a != b)
			return a < b ? -1 : 1;
	}
	return 0;
}

/* The allowed rows of dim d sorted by tree_row_cmp: a bottom-up merge sort
 * (O(n log n) comparisons, each reading two rows' factors wherever they
 * lie; equal keys, which distinct rows do not have, would keep the allowed
 * rows' order): trim__tree_rows where its keys do not fit. */
static int64_t *tree_rows_merge(const trim__mapspace *s, int d)
{
	int64_t n = s->nrows[d];
	int64_t *r = malloc((size_t)(n > 0 ? n : 1) * sizeof *r), *t = malloc((size_t)(n > 0 ? n : 1) * sizeof *t);
	if (!r || !t) {
		free(r);
		free(t);
		return NULL;
	}
	memcpy(r, s->rows[d], (size_t)n * sizeof *r);
	for (int64_t w = 1; w < n; w *= 2) { /* runs of w merged into runs of 2w */
		for (int64_t lo = 0; lo < n; lo += 2 * w) {
			int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			int64_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				t[k++] = tree_row_cmp(s, d, r[j], r[i]) < 0 ? r[j++] : r[i++];
			while (i < mid)
				t[k++] = r[i++];
			while (j < hi)
				t[k++] = r[j++];
		}
		int64_t *x = r;
		r = t;
		t = x;
	}
	free(t);
	return r;
}

static int i64_cmp(const void *x, const void *y)
{
	const int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

/* The allowed rows of dim d (factorisation indices) sorted by their factors
 * at the tree slots in tree order, so that a node is a range of them. Each
 * row's factors, replaced by their ranks among the factor values the rows
 * use, packed in tree order into one 64-bit key: the keys sort as the rows
 * do (lexicographically), in one pass over the rows and a sort of
 * contiguous keys. A dim of a large layer has hundreds of thousands of rows
 * (AlexNet fc6's C = 9216 on simba-like: 0.4 s by comparisons, against its
 * share of 0.05 s of a network's time limit). Rows whose ranks need more
 * than 64 bits take the merge sort. */
int64_t *trim__tree_rows(const trim__mapspace *s, int d)
{
	const int64_t n = s->nrows[d];
	const int k = s->nslots;
	if (n < 64)
		return tree_rows_merge(s, d);
	/* the distinct factor values (a hash set; they are few: divisors of
	 * the bound and the ragged rows' factors), then sorted */
	size_t cap = 64;
	int64_t *set = NULL;
	size_t u = 0;
	for (int grown = 1; grown;) {
		grown = 0;
		free(set);
		if (!(set = malloc(cap * sizeof *set)))
			return NULL;
		memset(set, 0xff, cap * sizeof *set); /* -1: free (factors are >= 1) */
		u = 0;
		for (int64_t i = 0; i < n && !grown; i++) {
			const int64_t *f = s->fact[d] + s->rows[d][i] * k;
			for (int q = 0; q < k; q++) {
				size_t h = (size_t)((uint64_t)f[q] * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
				while (set[h] != -1 && set[h] != f[q])
					h = (h + 1) & (cap - 1);
				if (set[h] == -1) {
					set[h] = f[q];
					if (2 * ++u > cap) { /* half full: start again, twice as large */
						cap *= 2;
						grown = 1;
						break;
					}
				}
			}
		}
	}
	int64_t *v = set;
	size_t w = 0;
	for (size_t i = 0; i < cap; i++)
		if (set[i] != -1)
			v[w++] = set[i];
	qsort(v, u, sizeof *v, i64_cmp);
	int bits = 1;
	while (bits < 63 && ((size_t)1 << bits) < u)
		bits++;
	if (bits * k > 64) {
		free(v);
		return tree_rows_merge(s, d);
	}
	uint64_t *kr = malloc((size_t)n * 2 * sizeof *kr);
	int64_t *r = malloc((size_t)n * sizeof *r);
	if (!kr || !r) {
		free(v);
		free(kr);
		free(r);
		return NULL;
	}
	for (int64_t i = 0; i < n; i++) {
		const int64_t *f = s->fact[d] + s->rows[d][i] * k;
		uint64_t key = 0;
		for (int q = 0; q < k; q++) {
			const int64_t x = f[s->tord[q]];
			size_t lo = 0, hi = u; /* x's rank */
			while (hi - lo > 1) {
				const size_t mid = lo + (hi - lo) / 2;
				if (v[mid] <= x)
					lo = mid;
				else
					hi = mid;
			}
			key = key << bits | (uint64_t)lo;
		}
		kr[2 * i] = key;
		kr[2 * i + 1] = (uint64_t)s->rows[d][i];
	}
	/* an LSD radix sort of the (key, row) pairs, 16 bits a pass over the
	 * key's bits */
	uint64_t *tmp = malloc((size_t)n * 2 * sizeof *tmp);
	size_t *cnt = malloc(65537 * sizeof *cnt);
	if (!tmp || !cnt) {
		free(v);
		free(kr);
		free(r);
		free(tmp);
		free(cnt);
		return NULL;
	}
	for (int sh = 0; sh < bits * k; sh += 16) {
		memset(cnt, 0, 65537 * sizeof *cnt);
		for (int64_t i = 0; i < n; i++)
			cnt[(kr[2 * i] >> sh & 0xffff) + 1]++;
		for (int b = 0; b < 65536; b++)
			cnt[b + 1] += cnt[b];
		for (int64_t i = 0; i < n; i++) {
			const size_t at = cnt[kr[2 * i] >> sh & 0xffff]++;
			tmp[2 * at] = kr[2 * i];
			tmp[2 * at + 1] = kr[2 * i + 1];
		}
		uint64_t *x = kr;
		kr = tmp;
		tmp = x;
	}
	for (int64_t i = 0; i < n; i++)
		r[i] = (int64_t)kr[2 * i + 1];
	free(v);
	free(kr);
	free(tmp);
	free(cnt);
	return r;
}
