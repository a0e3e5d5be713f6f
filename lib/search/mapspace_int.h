/*
 * The mapspace of one intra-layer workload on one architecture and the
 * exhaustive search over it (TRIM's mapping constructor).
 *
 * Canonical order: a mapping is named by its index (trim__index, 128 bits;
 * the C API gives it as a 64-bit integer when it fits, and in decimal), the
 * mixed-radix number (most significant first)
 *   fact[N], ..., fact[S]   one ordered factorisation of each dim's bound over
 *                           the levels with loops (radix: their number)
 *   keep bits               per (storage level below the outermost, tensor the
 *                           arch lets it hold): hold (1) or bypass (0)
 *   order[l]                per storage level that has a level below it able
 *                           to hold a tensor, a permutation (Lehmer code,
 *                           radix n!) of the n dims whose bound is > 1; dims
 *                           of bound 1 follow in canonical order. Below the
 *                           last level that may hold anything the order
 *                           changes no count: those levels (the innermost
 *                           storage level at least) take one fixed order,
 *                           canonical with the permutation constraint's dims
 *                           innermost, and are not in the index
 * Every index in [0, size) decodes to a mapping (the raw space). Orders that
 * give the same activities are one mapping (docs/model.md, "Mapspace and
 * search"): per storage level, the class of an order is its signature: for
 * each tensor with a holder below the level, the loops (bound > 1) from the
 * innermost outwards up to its first loop on a single-term dim of that
 * tensor, with each run of consecutive loops irrelevant to it taken as a set.
 * Equal signatures at every level give identical activities. The search
 * enumerates one representative per class (the distinct space): the order of
 * the smallest code (hence the smallest index) with that signature. The X/Y
 * split of spatial bounds does not change any count: the first split (in
 * canonical order) that fits the array is used.
 */
#ifndef TRIM_MAPSPACE_INT_H
#define TRIM_MAPSPACE_INT_H

#include "eval/eval_int.h"
#include "util/digest.h"

/* A mapping index (GCC/Clang's 128-bit integer: raw mapspaces of batch-64
 * convolutions exceed 2^64). */
__extension__ typedef unsigned __int128 trim__index;
/* Its decimal digits into buf (at least 40 bytes); returns buf. */
char *trim__index_str(trim__index i, char *buf);

/* The stationarity bound's per-thread workspace (stationary_bound.c). */
typedef struct stationary_workspace stationary_workspace;

typedef struct {
	const trim__intra *w;
	const struct trim_arch *a;
	int nslots;
	int slot[TRIM__MAX_LEVELS];         /* levels with loops (storage, spatial) */
	int64_t nf[TRIM_NDIMS];             /* factorisations of each dim's bound */
	int64_t *fact[TRIM_NDIMS];          /* nf[d] rows of nslots factors */
	int64_t nperfect[TRIM_NDIMS];       /* the first rows: the perfect ones, lexicographic */
	int64_t share_cap[3][TRIM__MAX_LEVELS]; /* spatial level l, tensor t: the most of l's instances
	                                     * below one instance above that any rows let need
	                                     * one element of t (tensor_bound.c) */
	unsigned share_priv[3];             /* t's private dims (their instances need disjoint elements) */
	int nbyp;
	int byp_level[3 * TRIM__MAX_LEVELS], byp_slot[3 * TRIM__MAX_LEVELS];
	int nord;
	int ord_level[TRIM__MAX_LEVELS];    /* storage levels */
	int n;                              /* dims with bound > 1 */
	int dims[TRIM_NDIMS];
	uint64_t nperm;                     /* n! */
	trim__index nfact;                  /* product of nf (beyond 2^64 for batch-64 training layers) */
	trim__index size;                   /* raw index count */
	int64_t reserved[TRIM__MAX_LEVELS]; /* bytes taken by cached activations (set by the caller) */
	/* user constraints: pin[l][d] > 0 fixes dim d's bound at level l; rows[d]
	 * lists the factorisations of d that obey them (all by default) */
	int64_t pin[TRIM__MAX_LEVELS][TRIM_NDIMS];
	/* optional utilisation constraints (0: off): active PEs / PEs, and the
	 * capacity used by the kept tiles of the innermost bounded storage level */
	double min_pe_util, min_rf_util;
	int topk;                           /* also keep the k best (0 or 1: the best only) */
	int nobound;                        /* 1: no bound pruning (plain exhaustive, for tests) */
	int imperfect;                      /* 1: imperfect rows too (trim__mapspace_set_imperfect) */
	int64_t *rows[TRIM_NDIMS];
	int64_t nrows[TRIM_NDIMS];
	/* dataflow constraints (lib/constraints/; all off by default):
	 * fmax[l][d] > 0 caps dim d's bound at level l (a row filter, like pin);
	 * a bypass choice b is searched iff (b & byp_fixmask) == byp_fixval
	 * (bit nbyp-1-j is keep bit j, as in the index); the loops (bound > 1)
	 * of storage level l on the dims cperm[l][0..ncperm[l]) that it has
	 * must be its innermost ones, in that order (innermost first), the
	 * others free outside them; axis[l][d] (spatial level l) 1: d only
	 * along X, 2: only along Y, 0: either */
	int64_t fmax[TRIM__MAX_LEVELS][TRIM_NDIMS];
	uint64_t byp_fixmask, byp_fixval;
	int8_t cperm[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int ncperm[TRIM__MAX_LEVELS];
	uint8_t axis[TRIM__MAX_LEVELS][TRIM_NDIMS];
	/* per tensor: dims that are the only term of some index expression
	 * (single-term), and the other relevant dims (window dims); dslide:
	 * the dims of its axes with two or more terms of coefficient != 0
	 * and bound > 1 (a sliding window that can move; the stationarity
	 * bound) */
	unsigned dsingle[3], dwindow[3], dslide[3];
	/* per tensor and dim d on an axis of exactly two terms c d + c' d' of
	 * distinct dims (the first such axis): waxis its axis, wpartner d'
	 * (-1: none), wcoef |c| (the joint order's sliding windows) */
	int8_t waxis[3][TRIM_NDIMS], wpartner[3][TRIM_NDIMS];
	int64_t wcoef[3][TRIM_NDIMS];
	/* per tensor: the dims d of such an axis for which the step on which a
	 * loop on d wraps may leave a window one word wide on the axis in
	 * place (the stationarity bound then halves its floor; all dims
	 * without a two-term axis are in it too) */
	unsigned wreturn[3];
	/* per tensor, its axes of exactly two terms of coefficient != 0 on two
	 * distinct dims, c0 d0 + c1 d1 (last axis first; the node bound's
	 * windowed-operand rules, which read them at every node, do not depend
	 * on the order): npair[t] of them, dims pdim[t][i][0..1],
	 * |coefficients| pcoef[t][i][0..1] */
	int npair[3];
	int8_t pdim[3][TRIM__MAX_TDIMS][2];
	int64_t pcoef[3][TRIM__MAX_TDIMS][2];
	/* branch and bound: the slots in the order the tree fixes them (the
	 * spatial levels first, innermost first, then the storage levels
	 * outermost first; the
	 * last one, a storage level, takes the rest) */
	int tord[TRIM__MAX_LEVELS];
	/* progress of a running search (NULL: not reported): [0] units done,
	 * [1] units in all (root nodes of the tree, or factorisation rounds),
	 * written with relaxed atomics, readable from another thread */
	int64_t *prog;
	/* anytime search (docs/model.md, "Anytime search"; all off by default,
	 * which is the exact search): stop after time_limit seconds of wall
	 * time (0: none), or once *stop becomes non-zero (NULL: never; read
	 * with relaxed atomics, set from another thread); gap > 0 lets the
	 * search skip what cannot beat the best found by more than that
	 * fraction of its cost (the best is then proven within `gap` of the
	 * optimum). The result says what was proven (lower_bound, exact). */
	double time_limit;
	double gap;
	const int *stop;
	/* stop at the stop_after-th place a worker checks for its stop (0:
	 * never): a time limit that lands at a chosen point, the same on every
	 * machine, for the tests of what a stopped search proves */
	uint64_t stop_after;
	/* with a time limit: the monotonic second (trim__now) at which to stop
	 * instead of time_limit after the start (NULL: that), read with atomics
	 * as the search runs, so that its caller may extend it */
	const double *deadline_at;
	/* a real mapping the caller already knows (hint_on: its index and
	 * cost, e.g. a stopped search's best): one more seed, so the search
	 * starts from its cost (lib/search/seed_bound.c) */
	int hint_on;
	trim__index hint_index;
	double hint_cost;
	/* a stopped search searched again (a network's retry, with its best
	 * as the hint): keep_done asks the result for the top nodes it
	 * searched whole (trim__search_result.top_done); skip_top, from such
	 * a result of the same space, drops them from this search when its
	 * sorted top nodes are the same (skip_ntop, skip_digest) and the hint is
	 * one of its seeds (k = 1): each of them holds nothing better than the
	 * hint (docs/model.md, "A network's searches") */
	int keep_done;
	const uint8_t *skip_top;
	int64_t skip_ntop;
	unsigned char skip_digest[TRIM__DIGEST_BYTES];
	/* unique per trim__mapspace_init (never 0): the key of what the
	 * search's per-thread memos keep of this mapspace (stationary_bound.c) */
	uint64_t memo_id;
	/* for tests (all 0 by default): the slow paths that the fast ones are
	 * checked against. test_memo_off: the stationarity bound searches the
	 * extents every time instead of asking its memo; test_joint_reuse_off:
	 * every joint variant computes its refilled tensors' figures;
	 * test_first_only: a mask of dims that the stationarity bound takes as
	 * the only possible first loops above its level (the bound of one
	 * variant: those dims' own floors alone); test_first_dims (not NULL):
	 * where every call of the stationarity bound writes the dims it found
	 * may have the first loop above its level (before test_first_only
	 * restricts them; calls on one thread only); test_stand_ins_off: the
	 * leaf children's bounds without the parent's figures standing in
	 * (trim__leaf_children_bounds) */
	int test_memo_off, test_joint_reuse_off, test_stand_ins_off;
	unsigned test_first_only;
	unsigned *test_first_dims;
	/* for tests (NULL by default; calls on one thread only): counters the
	 * search adds to, the stationarity bound's memo hits and the joint
	 * variants' reuses of a refilled tensor's figures */
	uint64_t *test_memo_hits, *test_joint_reuses;
} trim__mapspace;

int trim__mapspace_init(trim__mapspace *s, const trim__intra *w, const struct trim_arch *a);
void trim__mapspace_free(trim__mapspace *s);
/* A new memo_id (unique, never 0): for a copy of a mapspace whose rows differ. */
uint64_t trim__mapspace_memo_id(void);
/* Index -> mapping (any index < size). Spatial X/Y: the first split that
 * fits, else all along X (the check then reports the misfit). */
int trim__mapspace_decode(const trim__mapspace *s, trim__index index, trim__mapping *m);
/* Mapping -> index; TRIM_ENOTFOUND if it is not in the space. */
int trim__mapspace_encode(const trim__mapspace *s, const trim__mapping *m, trim__index *index);
/* Fix the bound of `dim` at `level` (a custom factor the constructor must
 * follow; 0 frees it again). The index space is unchanged: the search and
 * the sizes skip the factorisations that disobey. TRIM_ENOFIT if no
 * factorisation obeys every pin of that dim. */
int trim__mapspace_pin(trim__mapspace *s, int level, int dim, int64_t bound);
/* Rebuild rows[dim] from the pins and fmax of that dim; TRIM_ENOFIT (rows
 * unchanged) if no factorisation obeys them. */
int trim__mapspace_filter_rows(trim__mapspace *s, int dim);
/* Check c against s->a and restrict s accordingly (lib/search/constrain.c):
 * pins and caps of the factors (TRIM_ENOFIT naming the level and dimension
 * when no factorisation of the workload obeys them), forced keep bits,
 * permutations, spatial axes. Pins already set (custom factors) stay; a
 * different value is TRIM_ENOFIT. c NULL: nothing to do. */
struct trim_constraints;
int trim__mapspace_constrain(const struct trim_constraints *c, trim__mapspace *s);
/* Imperfect factorisations on (1) or off (0): rebuilds every dim's rows
 * (the index changes), perfect ones first, then, when on, those spreading
 * a dim over more PEs than any divisor fits, with a ragged last pass
 * (docs/model.md, "Imperfect factorisations"); the pins and dataflow
 * constraints are then applied again by the caller. */
int trim__mapspace_set_imperfect(trim__mapspace *s, int on);
/* 1 if row r of dim d is imperfect (its factors multiply past the bound). */
int trim__mapspace_row_ragged(const trim__mapspace *s, int d, int64_t r);
/* 1 if some allowed row of some dim agrees with m's factors at the tree
 * slots < depth and is imperfect (the node has ragged completions). */
int trim__mapspace_node_ragged(const trim__mapspace *s, int depth, const trim__mapping *m);
/* Drop every pin and dataflow constraint (the whole space again). */
void trim__mapspace_unconstrain(trim__mapspace *s);
/* Utilisation of a mapping as the constraints see it. */
double trim__mapspace_pe_util(const trim__mapspace *s, const trim__mapping *m);
double trim__mapspace_rf_util(const trim__mapspace *s, const trim__mapping *m);
/* Number of distinct mappings (= what the search generates), computed
 * without enumeration; TRIM_ERANGE on overflow. */
int trim__mapspace_distinct(const trim__mapspace *s, uint64_t *out);
/* The representative of m's equivalence class (same activities). m's
 * orders must obey the permutation constraints (cperm); an order that does
 * not is first moved to obey them (its listed loops moved innermost). */
void trim__mapspace_canonical(const trim__mapspace *s, trim__mapping *m);

enum { TRIM__GOAL_ENERGY = 0, TRIM__GOAL_DELAY = 1, TRIM__GOAL_EDP = 2 };

/* The goal's cost of an evaluation. */
static inline double trim__goal_cost(const trim__eval *e, int goal)
{
	return goal == TRIM__GOAL_ENERGY ? e->energy_pj
	       : goal == TRIM__GOAL_DELAY ? e->cycles : e->energy_pj * e->cycles;
}

/* The figure that breaks a tie on the goal's cost (docs/model.md, "Mapspace
 * and search"): the energy for the delay goal, the cycles for the energy
 * goal, the energy for EDP (equal EDP and equal energy: equal cycles). */
static inline double trim__goal_second(const trim__eval *e, int goal)
{
	return goal == TRIM__GOAL_ENERGY ? e->cycles : e->energy_pj;
}

/* 1 if (c, s, i) ranks before (bc, bs, bi) (or nothing is held: have == 0):
 * the search's one total order, (cost, second figure, index). */
static inline int trim__better(double c, double s, trim__index i, double bc, double bs, trim__index bi, int have)
{
	return !have || c < bc || (c == bc && (s < bs || (s == bs && i < bi)));
}

typedef struct {
	uint64_t generated;   /* distinct mappings constructed (cut subtrees counted) */
	uint64_t valid;       /* of which fit the hardware */
	uint64_t pruned;      /* valid, but cut by the utilisation constraints */
	uint64_t evaluated;
	uint64_t seed_evaluated; /* real mappings evaluated for the first bound (seed_bound.c) */
	uint64_t seed_sampled;   /* factorisations whose bound the first bound's sample took */
	uint64_t greedy_evaluated; /* real mappings the greedy seed evaluated (greedy_seed.c) */
	uint64_t unsupported; /* valid, but outside the analytic model (not evaluated) */
	uint64_t bounded;     /* skipped: a lower bound proves they cannot be among the best
	                         (not checked for fit when a whole factorisation is cut) */
	/* with a utilisation constraint (min_pe_util or min_rf_util > 0): the
	 * highest PE utilisation of the mappings examined that fit, and the
	 * highest RF utilisation of those that also pass min_pe_util (-1: none
	 * examined). When nothing is found, nothing that fits was cut by a
	 * bound, so these are the space's maxima (trim_search_why_empty). */
	double max_pe_util, max_rf_util;
	uint64_t tie_cuts; /* bypass choices and subtrees cut by the exact-tie rule (docs/model.md, "Bounds") */
	uint64_t tie_nodes; /* of which subtrees of the factorisation tree */
	int hint_used;      /* the caller's known mapping (trim__mapspace.hint_on) was one of the seeds */
	int found;
	double best_cost;
	trim__index best_index;
	trim__mapping best;
	trim__eval best_eval;
	/* with space->topk > 1: the k best by (cost, second figure, index),
	 * best first (the second figure: the energy for the delay and EDP goals,
	 * the cycles for the energy goal); owned by the result
	 * (trim__search_result_free); NULL otherwise */
	size_t ntop;
	double *top_cost, *top_second;
	trim__index *top_index;
	trim__mapping *top;
	/* what the search proved: every mapping of the space costs at least
	 * lower_bound (= best_cost when exact); exact = 1 when the best is the
	 * (cost, second figure, index) exhaustive evaluation gives, 0 when the time limit, the
	 * stop flag or the gap cut something that could have been better by
	 * the tie-break or within the gap; stopped = 1 when the time limit or
	 * the stop flag ended the search */
	double lower_bound;
	int exact, stopped;
	/* space->keep_done and stopped: per sorted top node, 1 if it was
	 * searched whole (nothing in it left open), top_done_n of them, and
	 * the digest of the sorted nodes (owned: trim__search_result_free) */
	uint8_t *top_done;
	int64_t top_done_n;
	unsigned char top_digest[TRIM__DIGEST_BYTES];
	int64_t top_skipped; /* top nodes space->skip_top dropped */
} trim__search_result;

/* Free what a search result owns (not the result itself). */
void trim__search_result_free(trim__search_result *r);
/* (best - lower bound) / best of a result that found a mapping (0 if exact). */
static inline double trim__search_gap(const trim__search_result *r)
{
	if (r->exact || !(r->best_cost > 0))
		return 0;
	double g = (r->best_cost - r->lower_bound) / r->best_cost;
	return g > 0 ? g : 0;
}

/* Lower bound on the goal's cost (0 energy, 1 delay, 2 EDP) of every mapping
 * whose factors at the first `depth` slots of the tree order (tord) are m's
 * (m: those factors, the rest of each bound at slot tord[depth], the other
 * slots 1; see trim__mapspace_node_of; keeps and orders are not read), for
 * every completion, bypass choice and order. ev and sw: scratch (sw: one
 * per thread, from trim__stationary_workspace_new). HUGE_VAL when no
 * completion fits the spatial levels. */
void trim__mapspace_node_lb(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb,
                            stationary_workspace *sw);
/* The stationarity bound's workspace (stationary_bound.c): the memo of its
 * searches over the extents and the energies of the window floors, one per
 * thread (search_worker.stationary). NULL when out of memory; _free takes
 * NULL. */
stationary_workspace *trim__stationary_workspace_new(void);
void trim__stationary_workspace_free(stationary_workspace *sw);
/* The node of depth `depth` above the full mapping `full` (its factors at
 * the first `depth` tree slots, the rest at the next one) into out. */
void trim__mapspace_node_of(const trim__mapspace *s, int depth, const trim__mapping *full,
                            trim__mapping *out);

/* Exhaustive search of the distinct space with `threads` OpenMP threads;
 * the best is the smallest (cost, second figure, index): identical for any
 * thread count. */
int trim__search(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                 trim__search_result *out);

/* After a search that found nothing (res): why, as one sentence into *out
 * (malloc'd; NULL when res found a mapping): the utilisation constraint
 * that prunes every mapping that fits (with the highest utilisation the
 * space reaches), the model's scope, or, when nothing fits at all, the
 * dataflow constraints (cons, may be NULL) and custom factors (upin, may be
 * NULL) whose removal alone lets a mapping fit, found by searching the
 * relaxed spaces (lib/search/why_empty.c). */
struct trim_constraints;
int trim__search_why_empty(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                           const struct trim_constraints *cons, const int64_t (*upin)[TRIM_NDIMS],
                           const trim__search_result *res, char **out);

#endif
