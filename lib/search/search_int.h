/*
 * Internals of the mapspace search (lib/search/mapspace_int.h is its interface to
 * the rest of the library; docs/model.md, "Mapspace and search", "Bounds"
 * and "Speed", gives the model). One concept per file:
 *   mapspace.c       the mapspace: factorisation tables, pins and dataflow
 *                    constraints, utilisation
 *   constrain.c      a dataflow constraint set's plan (lib/constraints/)
 *                    applied to a mapspace
 *   index.c          the index bijection (decode / encode, mixed radix)
 *   order_class.c    loop-order signatures, the order-class tables and their
 *                    cache, canonical representatives, order plans
 *   top_list.c       the k best (cost, second figure, index), the goal's cost
 *                    and second figure
 *   factor_bound.c   per factorisation, order-free lower bounds per tensor
 *                    and keep choice (bypass bounds)
 *   tensor_cache.c   per factorisation, each tensor's exact counts by its
 *                    own order classes
 *   class_visit.c    one order class: looked up, cut or evaluated; the
 *                    classes grouped by the result's projection
 *   factorisation.c  everything below one factorisation (bypass choices,
 *                    fit, bounds, classes)
 *   node_bound.c     the lower bound of a node of the factorisation tree:
 *                    its frame, the joint order's variants, the tensors
 *                    combined under the capacities
 *   tensor_bound.c   one tensor's part of it (per keep choice)
 *   tensor_figures.c that part as the node bound reads it (fit, counts,
 *                    the joint order's variants)
 *   window_words.c   the words of tiles on their axes: shares, moved
 *                    windows, the words a step brings
 *   spatial_chain.c  the words on a chain of several spatial levels, each
 *                    level's own fan-out
 *   open_hop.c       a hop between two holders while a spatial level on it
 *                    is open: the inner holder's entries, the words on the way
 *   leaf_children.c  the bounds of a node's leaf children from each
 *                    tensor's figures per combination of its own dims
 *   stationary_bound.c  the refills a node's open innermost level forces
 *                    (its capacity and the dataflow constraints), its
 *                    searches over the extents
 *   stationary_memo.c   their memo, in each worker's workspace
 *   systolic_bound.c what a systolic array's words cost beyond one hop
 *                    (unicast operands, drained results, a result's
 *                    read-backs down the array) once the array is fixed
 *   tie_cut.c        exact ties at a node (the evaluator's own arithmetic)
 *   hold_nothing.c   a level that holds nothing: the mappings equal to one
 *                    with its upper neighbour's loops moved into it
 *   tree.c           branch and bound over partial factorisations
 *   seed_bound.c     a first bound from a sample of real mappings
 *   perfect_first.c  with imperfect rows, the perfect subspace's best as
 *                    one more seed
 *   greedy_seed.c    a good mapping fast: a local search over real mappings
 *   driver.c         trim__search: rounds, merge, statistics, the result
 *   share.c          the top nodes' window (threads and processes), one
 *                    search's top nodes run by other processes (share.h)
 *   distinct.c       the number of distinct mappings, without enumeration
 *   why_empty.c      why a search found nothing (the rule or constraint)
 *   api.c            the public trim_search_* API (include/trim/search.h)
 * Their declarations are here, but for the bounds' (factor_bound.c,
 * node_bound.c, tensor_bound.c, tensor_figures.c, stationary_bound.c,
 * stationary_memo.c, systolic_bound.c, window_words.c, spatial_chain.c,
 * open_hop.c), which are in bound_int.h, included below.
 * Internal functions shared by these files carry the trim__ prefix (hidden
 * by -fvisibility=hidden); the others are static.
 */
#ifndef TRIM_SEARCH_INT_H
#define TRIM_SEARCH_INT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mapspace_int.h"

/* ---- the mapspace and its index (mapspace.c, index.c) -------------------- */

/* n! (n <= 20). */
static inline uint64_t trim__factorial(int n)
{
	static const uint64_t small[] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};
	if (n < 9)
		return small[n > 0 ? n : 0];
	uint64_t r = 1;
	for (int i = 2; i <= n; i++)
		r *= (uint64_t)i;
	return r;
}

/* Position of the idx-th (from 0) entry not in the mask `used` (Lehmer
 * decoding without moving a list). */
static inline int trim__nth_free(unsigned used, int idx)
{
	int j = 0;
	for (;; j++)
		if (!(used >> j & 1) && idx-- == 0)
			return j;
}

/* The bypass-choice filter of the dataflow constraints (forced keep bits). */
static inline int trim__bypass_allowed(const trim__mapspace *s, uint64_t b)
{
	return (b & s->byp_fixmask) == s->byp_fixval;
}

/* First X/Y split (dims in order, X bound ascending) that fits spatial level
 * L, with dim d along X only if axis[d] == 1, along Y only if 2; 1 if found. */
int trim__spatial_split(const trim__level *L, const uint8_t *axis, const int64_t *f, int d, int64_t px,
                        int64_t py, int64_t *fx, int64_t *fy);
/* Factors of factorisation combination fc; returns 1 if every spatial level
 * fits. */
int trim__set_factors(const trim__mapspace *s, trim__index fc, trim__mapping *m);
/* Keep bits from the bypass mask (bit nbyp-1-j is keep bit j). */
void trim__set_keeps(const trim__mapspace *s, uint64_t bmask, trim__mapping *m);
/* Lehmer code of level l's order restricted to the dims > 1. */
uint64_t trim__order_code(const trim__mapspace *s, const trim__mapping *m, int l);
/* Allowed combination ac -> global factorisation index. */
trim__index trim__combination_factorisation(const trim__mapspace *s, trim__index ac);

/* ---- order classes (order_class.c; docs/model.md, "Mapspace and search") --- */

enum { TRIM__SIGNATURE_MAX = 64 };

/* The classes of the orders of one set of dims (mask) for the tensors hb:
 * the smallest code of each, ascending, and the signatures for look-up.
 * Only the orders that obey storage level ord_level[k]'s permutation
 * constraint are members (equal signatures still give equal activities). */
typedef struct {
	int n, k;
	unsigned hb;    /* tensors with a holder below the level */
	int dl[TRIM_NDIMS];
	uint32_t *rep;
	uint8_t *sig;   /* n * TRIM__SIGNATURE_MAX */
	uint8_t *len;
	int32_t *slot;  /* hash: class index or -1 */
	uint32_t nslot;
	/* per tensor: the class of each class's signature restricted to that
	 * tensor (its counts depend on nothing else of this level's order) */
	uint16_t *proj[3];
	int nproj[3];
	uint8_t *proj_sig[3];   /* nproj * TRIM__SIGNATURE_MAX: the single-tensor signatures */
	uint8_t *proj_len[3];
	/* per tensor: the classes grouped by projection (ascending class
	 * index within a group): those of projection u are
	 * proj_classes[t][proj_start[t][u] .. proj_start[t][u + 1]) */
	uint32_t *proj_classes[3];
	uint32_t *proj_start[3];
} order_class_table;

/* Per-thread cache of class tables by (storage level, dims mask, hb). */
typedef struct {
	order_class_table **tab; /* nord * 256 * 8 */
	int nord;
} order_class_cache;

/* Per level: the class table of its dims > 1, and how many orders to try. */
typedef struct {
	const order_class_table *tab[TRIM__MAX_LEVELS];
	uint64_t radix[TRIM__MAX_LEVELS];
	uint64_t total;
} order_plan;

/* Tensors with a holder strictly below storage level l (bit t). */
unsigned trim__holders_below(const trim__mapspace *s, const trim__mapping *m, int l);
/* The orders of the storage levels outside the index: the dims in canonical
 * order, with the permutation constraint's dims moved innermost. */
void trim__fixed_orders(const trim__mapspace *s, trim__mapping *m);
/* A mapping of the space with every factor 1 and every order fixed by the
 * index layout set (trim__mapping_init, then trim__fixed_orders). */
void trim__space_mapping_init(const trim__mapspace *s, trim__mapping *m);
int trim__order_class_cache_init(order_class_cache *c, const trim__mapspace *s);
void trim__order_class_cache_free(order_class_cache *c);
/* The class table of ordered level k for the dims `mask` and the tensors hb
 * with a holder below (built on first use); NULL: no memory. */
const order_class_table *trim__order_class_cache_get(order_class_cache *c, const trim__mapspace *s, int k,
                                                     unsigned mask, unsigned hb);
/* The number of classes of trim__order_class_cache_get's table (its n),
 * found without enumerating every order: only the loops up to where every
 * tensor's signature ends (thousands of times faster for eight dims);
 * -1 when out of memory. */
int64_t trim__order_class_count(const trim__mapspace *s, int k, unsigned mask, unsigned hb);
/* The representative of m's class at every storage level: with a cache
 * (hash look-up), or (c NULL) by scanning the codes upwards. */
int trim__canonicalize(const trim__mapspace *s, trim__mapping *m, order_class_cache *c);
/* The order plan of m's factors and keeps. */
int trim__plan_orders(const trim__mapspace *s, const trim__mapping *m, order_class_cache *c, order_plan *p);
/* Order of level k: the representative of class `code`. */
void trim__apply_order(const trim__mapspace *s, const order_plan *p, int k, uint64_t code, trim__mapping *m);

/* ---- the k best (top_list.c) --------------------------------------------- */

/* A list of at most k (cost, second, index) in that order; k >= 1. */
typedef struct {
	size_t k, n;
	double *cost;
	double *sec; /* the second figure (trim__goal_second) */
	trim__index *idx;
	trim__mapping *map; /* NULL: costs and indices only */
} top_list;

int trim__top_init(top_list *t, size_t k, int maps);
void trim__top_free(top_list *t);
/* Insert unless the index is already there. */
void trim__top_put(top_list *t, double c, double sec, trim__index i, const trim__mapping *m);
/* 1 if (c, sec, i) ranks before t's first (or t is empty). */
static inline int trim__top_first(const top_list *t, double c, double sec, trim__index i)
{
	return trim__better(c, sec, i, t->n ? t->cost[0] : 0, t->n ? t->sec[0] : 0, t->n ? t->idx[0] : 0, t->n > 0);
}
/* Cost of the k-th best kept: nothing costlier can enter (inf if not full). */
static inline double trim__top_bound(const top_list *t)
{
	return t->n >= t->k ? t->cost[t->k - 1] : HUGE_VAL;
}

/* ---- the lower bounds (bound_int.h) --------------------------------------- */

#include "bound_int.h"

/* ---- per-tensor counts by order class (tensor_cache.c) ------------------- */

/* Per factorisation: each tensor's exact counts by (tensor, its keep
 * choice, its own signature at every level), which is all they depend on
 * (open addressing over entries of the current generation; the counts,
 * their energy and state live in vectors indexed by entry number). */
enum { TRIM__TENSOR_KEY_MAX = 8 + TRIM__MAX_LEVELS * 24 };
typedef struct {
	uint32_t gen;
	int32_t vi;              /* index into the vectors */
	uint16_t len;
	uint8_t key[TRIM__TENSOR_KEY_MAX];
} tensor_count_entry;
typedef struct {
	uint32_t cap, gen;       /* cap: a power of 2 */
	int nl;
	tensor_count_entry *ent;
	int32_t nv, vcap;
	int64_t *val;            /* nv * TRIM__NACTIVITY_ROWS * nl counts */
	double *energy;          /* nv: the tensor's dynamic energy (pJ) */
	double *words;           /* nv * 2 * nl: per level the words read and written
	                            (storage) or carried (spatial, in the first) */
	uint8_t *state;          /* nv: 1 counted, 2 outside the model */
	/* per bypass choice: per tensor, the entry of each combination of its
	 * per-level projected classes (-1: not looked up yet) */
	int32_t *by_proj[3];
	uint64_t by_proj_cap[3];
	/* per tensor: the analyst prepared for the current factorisation and
	 * keep choice prep_ch[t] (prep_on[t]; reset with each factorisation),
	 * and what the preparation returned (a scope error is every order's) */
	trim__act_ws prep_ws[3];
	int prep_on[3], prep_ch[3], prep_rc[3];
} tensor_count_cache;

/* Per-thread state of the search. */
typedef struct {
	trim__search_result cnt; /* counts only */
	trim__eval_ws ws;
	trim__eval ev, bound_eval;
	trim__mapping m;
	factor_bound fbound;     /* the current factorisation's order-free bounds */
	top_list item;           /* the best k of the current factorisation */
	top_list keep;           /* the best k of this thread, with mappings */
	top_list node;           /* the best k below the current branch-and-bound node */
	trim__mapping node_mapping; /* a node of the tree (partial factorisation) */
	order_class_cache classes; /* order class tables */
	trim__eval best_eval;    /* evaluation of keep's first */
	/* per tensor: its exact counts by its own order classes (the
	 * projected class ids of every level), for the current factorisation
	 * and bypass choice; entry = state (0 unknown, 1 counted, 2 outside
	 * the model) then TRIM__NACTIVITY_ROWS rows of nlevels counts */
	tensor_count_cache tensor_counts;
	trim__activity tensor_scratch; /* scratch of one tensor's counts */
	/* the fields of those counts common to every tensor and order */
	int64_t common_macs, common_steps, common_active_pes, common_instances[TRIM__MAX_LEVELS];
	/* search statistics (TRIM_SEARCH_STATS=1 prints them to stderr):
	 * tree nodes bounded and cut, leaves (factorisations) reached and cut
	 * whole, bypass choices cut, order classes cut and evaluated */
	uint64_t st_d[TRIM__MAX_LEVELS], st_dc[TRIM__MAX_LEVELS]; /* per depth */
	uint64_t st_nodes, st_nodes_cut, st_leaves, st_leaves_cut, st_byp_cut, st_cls_cut, st_tie_cut;
	uint64_t st_joint_cut; /* of the nodes cut, by the joint order (trim__node_bound_joint) */
	/* the node bound's per-choice energies of the leaf children of the
	 * current node (trim__tree_search_node), and the one of the leaf
	 * trim__search_factorisation works on */
	struct node_choices *child_choices;
	size_t child_choices_cap;
	const struct node_choices *leaf_choices;
	struct node_counts *node_counts; /* the exact tie test's scratch (allocated on first use) */
	/* trim__leaf_children_bounds: per tensor and combination of its dims,
	 * its figures and reuse, kept while the node's children are visited
	 * (leaf_on) for their joint-order bounds (trim__leaf_child_joint) */
	tensor_figures *leaf_figures;
	tensor_reuse *leaf_reuse;
	size_t leaf_figures_cap;
	int leaf_on;
	struct leaf_memo {
		node_frame f;
		int memo[3];
		int nvals[TRIM_NDIMS];
		int64_t cstride[TRIM_NDIMS], tstride[3][TRIM_NDIMS];
		int32_t vlo[TRIM_NDIMS][64]; /* the first row of each dim's values */
		size_t off[3];
		int64_t ncomb[3];   /* per tensor, the combinations of its dims' values */
		double every_child; /* energy: the MACs and the leakage at their cycles */
	} leaf;
	joint_variants leaf_joint; /* trim__leaf_child_joint's scratch */
	int in_tree; /* the factorisation is a leaf of the tree (its cuts are counted from the distinct total) */
	double *result_energies; /* trim__visit_by_result: the result's energies and their prefix minima */
	size_t result_energies_cap;
	int err;
	stationary_workspace *stationary; /* the stationarity bound's memo and stores (driver.c owns it) */
	/* anytime search (docs/model.md, "Anytime search"): the scale of every
	 * cut threshold (1 - gap; 1: exact), the wall-clock deadline (0: none)
	 * and the caller's stop flag; stopped once either fired. open_lb: the
	 * smallest bound of what was left unexplored or cut only because of the
	 * gap (HUGE_VAL: nothing), so min(best, open_lb) bounds every mapping */
	double cut_scale, deadline;
	double begun; /* when the search began (trim__now), for trim__worker_overdue */
	const double *deadline_at; /* the caller's deadline, which it may extend (trim__mapspace) */
	const int *stop;
	int stopped;
	uint64_t stop_after, stop_checks; /* trim__mapspace.stop_after; the checks so far */
	double open_lb;
	int64_t opens; /* trim__note_open's calls (a top node searched whole: none during it) */
	int64_t dive_leaves; /* leaves a dive may still search (trim__tree_visit) */
	/* exact ties (k = 1, exact search, the tree): the index of the mapping
	 * whose cost is the window's bound (rb_idx; rb_idx_on when there is one),
	 * and of the one whose cost is the threshold handed to the current
	 * factorisation (thr_idx, thr_idx_on): a bypass choice whose bound in
	 * the evaluator's own summation order reaches that cost and whose
	 * smallest index is above that index cannot beat it, nor can one whose
	 * second figure is above that mapping's (rb_sec, thr_sec) where its
	 * cost ties (docs/model.md, "Bounds", exact ties) */
	trim__index rb_idx, thr_idx;
	double rb_sec, thr_sec;
	int rb_idx_on, thr_idx_on;
} search_worker;

/* Monotonic wall-clock seconds. */
static inline double trim__now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* 1 once the deadline has passed or the caller's stop flag is set. */
static inline int trim__worker_stop(search_worker *W)
{
	if (W->stopped)
		return 1;
	if (W->stop_after && ++W->stop_checks >= W->stop_after)
		return W->stopped = 1;
	double dl = W->deadline;
	if (W->deadline_at)
		__atomic_load(W->deadline_at, &dl, __ATOMIC_RELAXED);
	if ((W->stop && __atomic_load_n(W->stop, __ATOMIC_RELAXED)) || (dl > 0 && trim__now() > dl))
		W->stopped = 1;
	return W->stopped;
}

/* trim__mapspace_distinct, stopped (returning 1, no error) once W's
 * deadline passes or its caller's stop flag is set (distinct.c). */
int trim__mapspace_distinct_until(const trim__mapspace *s, uint64_t *out, search_worker *W);

/* 1 once the search is past its stop by as long again as it was given
 * (its deadline passed by the time from its start to it, or twice
 * stop_after checks), or the caller's stop flag is set: what a search must
 * do even after its stop (a first real mapping, a sample of factorisations
 * to pick it from) is then cut to the least. A network's search given a
 * sliver of its time limit otherwise spent its floor (256 factorisation
 * bounds, 7 ms each on VGG-16's fc6 at batch 64 with ragged tiles): 57
 * searches took 4.9 s under --time-limit 0.005. */
static inline int trim__worker_overdue(search_worker *W)
{
	if (!trim__worker_stop(W))
		return 0;
	if (W->stop && __atomic_load_n(W->stop, __ATOMIC_RELAXED))
		return 1;
	if (W->stop_after) /* the checks after the stop count on (trim__worker_stop no longer does) */
		return ++W->stop_checks >= 2 * W->stop_after;
	double dl = W->deadline;
	if (W->deadline_at)
		__atomic_load(W->deadline_at, &dl, __ATOMIC_RELAXED);
	return dl > 0 && trim__now() > dl + (dl > W->begun ? dl - W->begun : 0);
}

/* Something whose every mapping costs at least lb is left unexplored. */
static inline void trim__note_open(search_worker *W, double lb)
{
	W->opens++;
	if (lb < W->open_lb)
		W->open_lb = lb;
}

/* The cut threshold below a list of the k best (the item's, the node's)
 * and the threshold passed down (already scaled). */
static inline double trim__cut_threshold(const search_worker *W, const top_list *t, double bound)
{
	double b = trim__top_bound(t) * W->cut_scale;
	return b < bound ? b : bound;
}

/* The cut: lb above the threshold (strictly, so ties are still seen). A cut
 * that the exact search would not make (the gap's) is noted as open. */
static inline int trim__cut(search_worker *W, double lb, double threshold)
{
	if (!(lb > threshold))
		return 0;
	if (W->cut_scale < 1 && lb * W->cut_scale <= threshold * (1 + 1e-12))
		trim__note_open(W, lb);
	return 1;
}

/* A new factorisation: forget every entry. */
int trim__tensor_cache_reset(const trim__mapspace *s, tensor_count_cache *c);
/* A new bypass choice (plan p): the per-choice look-up tables. */
int trim__tensor_cache_plan(const trim__mapspace *s, const order_plan *p, tensor_count_cache *c);
void trim__tensor_cache_free(tensor_count_cache *c);
/* The entry of tensor t for order class code[] of plan p under bypass
 * choice b (looked up, or computed from m); -1 with W->err set. */
int32_t trim__tensor_cache_entry(const trim__mapspace *s, const order_plan *p, const uint64_t *code, uint64_t oc,
                                 uint64_t b, int t, trim__mapping *m, int *applied, const trim__level_cost *costs,
                                 int64_t zero_macs, search_worker *W);

/* ---- order classes of one factorisation (class_visit.c, factorisation.c) --- */

/* One order class of bypass choice b: cut or evaluated into the top k;
 * 0, or -1 with W->err set. */
int trim__class_visit(const trim__mapspace *s, const order_plan *p, const uint64_t *code, uint64_t b,
                      trim__index base, double bound, double cyc_lb, int lbok, int goal,
                      const trim__level_cost *costs, int64_t zero_macs, trim__mapping *m, search_worker *W);
/* The classes of bypass choice b grouped by the result's projection; 0, 1
 * if the grouping does not apply, or -1 with W->err set. */
int trim__visit_by_result(const trim__mapspace *s, const order_plan *p, uint64_t b, trim__index base, double bound,
                          double cyc_lb, int lbok, int goal, const trim__level_cost *costs, int64_t zero_macs,
                          trim__mapping *m, search_worker *W);
/* Everything below factorisation combination fc, with the cost bound
 * `bound`. */
void trim__search_factorisation(const trim__mapspace *s, const trim__level_cost *costs, int goal, trim__index fc,
                                double bound, int64_t zero_macs, search_worker *W);

/* ---- branch and bound over partial factorisations (node_bound.c, tree.c) --- */

/* trim__mapspace_node_lb raised by the joint order of the known levels
 * (one innermost loop per level for every tensor; docs/model.md, "Bounds"):
 * valid wherever the node bound is, several times its cost. */
void trim__node_bound_joint(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb,
                            stationary_workspace *sw);
/* trim__node_bound, but (energy goal) it may stop as soon as the tensors
 * so far exceed `cut`, returning their sum (out then incomplete): for
 * children that are cut when above it. */
void trim__node_bound_above(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, node_choices *out,
                            double cut, stationary_workspace *sw);
/* Each present tensor's figure at node m (depth): its cheapest keep choice
 * whose own tiles fit, at most its energy in every valid mapping below m,
 * into fig (absent tensors: 0). 0 if the node has no frame (a spatial level
 * does not fit: nothing written). */
int trim__node_tensor_floors(const trim__mapspace *s, const trim__level_cost *costs, int depth, int64_t zero_macs,
                             const trim__mapping *m, double *fig);
/* trim__mapspace_node_lb, and (out not NULL) its per-choice energies. */
void trim__node_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                      int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, node_choices *out,
                      stationary_workspace *sw);
/* Exact ties at a node (docs/model.md, "Bounds"): 1 if no completion of
 * the node (factors of the tree slots < depth in m) ranks before a real
 * mapping of cost cur and second figure sec (trim__goal_second) on (cost,
 * second figure, index): by the evaluator's own formula on the node bound's
 * counts of every keep combination whose known tiles fit (the same
 * operations in the same order on smaller or equal counts: no rounding
 * margin), each combination costs more than cur, or cur with a second
 * figure above sec, or (idx_above: the caller checked that the node's
 * indices are above that mapping's) cur and sec. */
int trim__node_tie_cut(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth, int64_t zero_macs,
                       trim__mapping *m, trim__eval *ev, double cur, double sec, int idx_above, node_counts *nc,
                       stationary_workspace *sw);
/* The same rule on one pair of lower bounds (cost_lb, sec_lb) in the
 * evaluator's arithmetic: 1 if nothing they bound ranks before (cur, sec)
 * (idx_above: every index they bound is above that mapping's). */
static inline int trim__tie_loses(double cost_lb, double sec_lb, double cur, double sec, int idx_above)
{
	return cost_lb > cur || (cost_lb == cur && (sec_lb > sec || (sec_lb == sec && idx_above)));
}
/* A child of a node: the factor of every dim at the next slot, the rows of
 * each dim that have it (a range of the allowed rows, which are in
 * lexicographic order of their factors), and its bound. */
typedef struct {
	double lb;
	uint64_t ord; /* position in the enumeration (ties) */
	int32_t lo[TRIM_NDIMS], hi[TRIM_NDIMS];
	int moved; /* an exact tie of a child with a smaller index (hold_nothing.c) */
} tree_child;

/* ---- a level that holds nothing (hold_nothing.c) ------------------------- */

/* Tree slot i: if it is a storage level that holds none of the workload's
 * tensors, right below a storage level (slot i - 1), not the tree's last
 * slot, with no constraint on either that could keep the moved mapping out
 * of the space, and the search is for the best only (not the top k, not
 * plain exhaustive, no imperfect rows), i - 1; else -1. */
int trim__hold_nothing_parent(const trim__mapspace *s, int i);
/* 1 if the rows lo (the factors of slots i - 1 and i known) give slot
 * i - 1 a loop and, unless dominated, none on a dim slot i has a loop on:
 * the same nest with slot i - 1's loops moved outermost into slot i is a
 * mapping of a smaller index with the same cost (docs/model.md, "A level
 * that holds nothing"). */
int trim__hold_nothing_moved(const trim__mapspace *s, int64_t *const *trows, int i, const int32_t *lo,
                             int dominated);
/* 1 if every tensor of the workload that a storage level below tree slot
 * i's level may hold is an operand (not the result) with no sliding window
 * (no index expression of two moving terms): then slot i - 1's loops on a
 * dim slot i also has loops on, merged into slot i's loop, give a mapping
 * of a smaller index whose every count is no larger, and
 * trim__hold_nothing_moved (dominated = 1) cuts every child where slot
 * i - 1 has a loop. */
int trim__hold_nothing_dominated(const trim__mapspace *s, int i);

/* The children of the node whose rows are [lo, hi) per dim, fixed slots
 * < depth: every combination of the values at slot `depth` (mixed radix,
 * the last dim fastest: c[i].ord = i), nvals (not NULL) the number of values
 * of each dim. Returns their number (*out allocated), -1 on no memory, -2
 * if a dim has too many values, -3 if stopper (not NULL: the top nodes,
 * millions on a large ragged layer) reached its stop while they were made
 * (nothing allocated). */
int64_t trim__tree_children(const trim__mapspace *s, int64_t *const *trows, int depth, const int32_t *lo,
                            const int32_t *hi, tree_child **out, int *nvals, search_worker *stopper);
/* The bounds of the children of a node that are factorisations (depth:
 * theirs), when the slot they fix is a storage level: each tensor's
 * figures depend only on its own dims' factors there, so they are computed
 * once per combination of those; with the energy goal, a child whose
 * tensors and MACs exceed `above` gets that sum without the rest (the
 * parent's figure standing in for each tensor not yet looked up, unless
 * the mapspace's test_stand_ins_off is set). 1 if
 * done (c[i].lb, and W->child_choices[i] of the children below `above`),
 * 0 if it does not apply (nothing written), -1 on no memory. */
int trim__leaf_children_bounds(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs,
                               int goal, int depth, tree_child *c, int64_t n, const int *nvals, double above,
                               int64_t zero_macs, search_worker *W);
/* The joint-order bound of child c (not yet sorted away from its ord) of
 * the node whose children trim__leaf_children_bounds bounded last
 * (W->leaf_on), from the same figures: the bound trim__node_bound_joint
 * gives, or (energy goal) a lower one above cur when a cheaper sum of its
 * terms already exceeds cur. 1 if done (*lb), 0 if not kept (nothing done). */
int trim__leaf_child_joint(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                           int depth, const tree_child *c, double cur, int64_t zero_macs, search_worker *W,
                           double *lb);
/* qsort order of children: bound, then enumeration position. */
int trim__tree_child_cmp(const void *p, const void *q);
/* Factors of the node (tree slots < depth fixed) from its tree rows. */
void trim__tree_node_set(const trim__mapspace *s, int64_t *const *trows, int depth, const int32_t *lo,
                         trim__mapping *m);
/* Depth-first search below a node. */
void trim__tree_search_node(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                            int depth, const int32_t *lo, const int32_t *hi, double rb, int64_t zero_macs,
                            search_worker *W);
/* The same, or (dive) only the best child's path at every depth (a first
 * real mapping, for the seed). */
void trim__tree_visit(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                      int depth, const int32_t *lo, const int32_t *hi, double rb, int64_t zero_macs, int dive,
                      search_worker *W);
/* The allowed rows of dim d sorted in tree order. */
int64_t *trim__tree_rows(const trim__mapspace *s, int d);

/* ---- the first bound (seed_bound.c) -------------------------------------- */

/* The k-th best cost of a sample of real mappings (HUGE_VAL: none); the
 * mappings into seeds (k entries, with mappings), the first's evaluation
 * into *seed_eval. */
double trim__seed_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, trim__index nfc,
                        int64_t zero_macs, search_worker *W, top_list *seeds, trim__eval *seed_eval);
/* With imperfect rows: the best of the perfect subspace (its rows only,
 * the same indices; a quarter of the time left before deadline, 0: none)
 * into the seeds; returns their bound (perfect_first.c). */
double trim__perfect_first(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                           double deadline, top_list *seeds, trim__eval *seed_eval);
/* The caller's known mapping (s->hint_on) into the seeds when it is one of
 * this space's valid mappings with that cost (else ignored); the seeds'
 * k-th best cost. */
double trim__seed_hint(const trim__mapspace *s, const trim__level_cost *costs, int goal, search_worker *W,
                       top_list *seeds, trim__eval *seed_eval, int *used);
/* A good mapping fast (greedy_seed.c): steepest descent over real mappings
 * of the space from every factor outermost (from_seeds 0) or from the
 * seeds' best (1), a fixed evaluation budget (the time limit stops it
 * early, after a minimum, once the seeds hold a mapping); what it
 * evaluates goes into seeds as trim__seed_bound's does. Returns the seeds'
 * k-th best cost. */
double trim__greedy_seed(const trim__mapspace *s, const trim__level_cost *costs, int goal, search_worker *W,
                         top_list *seeds, trim__eval *seed_eval, int from_seeds);
/* The same descents (the keep bits held, then free) from a top node of the
 * tree: slot `slot`'s factors fix[d], every other factor outermost (but the
 * pinned ones, within the factor caps), every free keep bit kept; at most
 * `evals` evaluations, the time limit stopping it without a floor. */
double trim__greedy_top(const trim__mapspace *s, const trim__level_cost *costs, int goal, search_worker *W,
                        top_list *seeds, trim__eval *seed_eval, int slot, const int64_t *fix, int64_t evals);

/* ---- for share.c: the top nodes' schedule and one search's run, shared by
 * trim__search's threads (driver.c) and by processes (share.c, through
 * lib/search/share.h and trim/work.h) --------------------------------------- */
#include <omp.h>

/* Node i of the sorted top nodes is searched with the bound reached by the
 * nodes before i - TRIM__TOP_WINDOW (and its own mappings): the work, the
 * counts and the result do not depend on who runs which node when. */
enum { TRIM__TOP_WINDOW = 4 };

/* A node's threshold before the gap's scale: the k-th best cost known, and
 * (exact ties, k = 1) the second figure and the index of the mapping costing
 * it (on: there is one). */
typedef struct {
	double cost, sec;
	trim__index idx;
	int idx_on;
} top_threshold;

typedef struct {
	int64_t n;
	size_t k;
	int64_t next;            /* the next node to take */
	int64_t prefix;          /* nodes [0, prefix) finished, their costs in prefix_list */
	int64_t cut_from;        /* the first node cut by its bound (every later one is too) */
	int64_t finished_count;  /* nodes finished (under the lock) */
	int abort;               /* a thread left on an error or a stop: nobody waits any more */
	double **node_costs;     /* per finished node not yet in the prefix: its k best costs */
	double **node_sec;       /* their second figures */
	trim__index **node_idx;  /* and their indices */
	size_t *node_ncosts;
	uint8_t *finished;
	double *prefix_bound;    /* [j]: the k-th best cost of nodes [0, j] (HUGE_VAL: fewer) */
	trim__index *prefix_idx; /* [j]: the index of that mapping (k = 1 and one found) */
	double *prefix_sec;      /* [j]: and its second figure */
	int *prefix_idx_on;
	top_list prefix_list;
	omp_lock_t lock;
	int locked;              /* lock initialised */
} top_schedule;

int trim__schedule_init(top_schedule *q, int64_t n, size_t k);
void trim__schedule_free(top_schedule *q);
/* 1 once node i's threshold is known (nodes [0, i - TRIM__TOP_WINDOW] finished). */
int trim__schedule_ready(top_schedule *q, int64_t i);
/* Node i's threshold (ready): the seed's, or the prefix's when lower. */
void trim__schedule_threshold(top_schedule *q, int64_t i, const top_threshold *seed, top_threshold *out);
/* 1 if node i (bound lb) is cut by threshold t scaled by the gap (the
 * first cut node then cuts every later one: cut_from). */
int trim__schedule_cut(top_schedule *q, int64_t i, double lb, const top_threshold *t, search_worker *W);
/* Node i is done (kept: its best k, with their mappings, and first_eval the
 * evaluation of the first; none if it was cut): into the global list and
 * the prefix. 0, or TRIM_ENOMEM (the prefix then treats it as empty). */
int trim__schedule_finish(top_schedule *q, int64_t i, const top_list *kept, const trim__eval *first_eval,
                          top_list *glob, trim__eval *glob_eval);

/* One search from its set-up to its result (driver.c): the workers, the
 * seeds, the tree's top nodes sorted by bound, the global best k. */
typedef struct {
	const trim__mapspace *s;
	const trim__level_cost *costs;
	int goal, threads;
	int nworkers;            /* ws[0 .. nworkers): threads, then (share.c) the merged nodes' counts */
	size_t k;
	double gap;
	int64_t zero_macs;
	trim__index nfc;         /* factorisations for the plain rounds (0: the tree did them) */
	search_worker *ws;
	top_list glob, seeds;
	trim__eval glob_eval, seed_eval;
	double seed;             /* the sampled seed bound */
	int hint_used;           /* the caller's known mapping is among the seeds */
	top_threshold seed_thr;  /* after the dives: every node's threshold starts from it */
	tree_child *top;
	int64_t ntop;
	int64_t *trows[TRIM_NDIMS];
	double *top_lbs;         /* TRIM_SEARCH_STATS: the top nodes' bounds */
	uint8_t *done;           /* s->keep_done: per top node, searched whole */
	unsigned char top_digest[TRIM__DIGEST_BYTES]; /* of the sorted top nodes (keep_done, skip_top) */
	int64_t skipped;         /* top nodes s->skip_top dropped */
	int err;
} search_run;

/* Under the caller's lock, without waiting: the next top node of run r for
 * W, the same for threads (driver.c), processes (share.c) and a network's
 * pool (lib/neteval/pool.c). 1: taken, *node and its threshold *t; 0: it
 * must wait for the nodes of the window; 2: none is left to hand out (all
 * taken, the schedule aborted, or W's search stopped: the first node not
 * taken is noted open). Nodes cut by their bound, after the first cut one,
 * or with a result already are finished (empty) on the way. */
int trim__schedule_take(top_schedule *q, search_run *r, search_worker *W, int64_t *node, top_threshold *t);

/* Up to the top nodes (the workers, the seed, the tree, the dives); extra
 * workers beyond the threads (nworkers - threads) get no caches. 0 or an
 * error (then trim__search_end still frees). */
int trim__search_begin(search_run *r, const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                       int extra_workers);
/* Top node i on W with threshold t (not cut): W->keep its best k. */
void trim__search_top_node(search_run *r, int64_t i, const top_threshold *t, search_worker *W);
/* The plain rounds when there was no tree, the counts summed over the
 * workers, the result (out), and everything freed. */
int trim__search_end(search_run *r, trim__search_result *out);
/* The progress a caller polls (trim_search_progress). */
void trim__search_progress(const trim__mapspace *s, int64_t done, int64_t total);

#endif
