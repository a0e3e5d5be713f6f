/*
 * The search's lower bounds (part of lib/search/search_int.h, which
 * includes it where its types are needed; docs/model.md, "Bounds"): the
 * order-free bounds of one factorisation (factor_bound.c), a node's frame
 * and choices (node_bound.c), one tensor's part (tensor_bound.c), the
 * joint order's variants, the stationarity bound (stationary_bound.c) and its memo
 * (stationary_memo.c),
 * the words of tiles on their axes (window_words.c), on chains of
 * several spatial levels (spatial_chain.c) and on a hop between holders
 * with a spatial level open (open_hop.c).
 */
#ifndef TRIM_SEARCH_BOUND_INT_H
#define TRIM_SEARCH_BOUND_INT_H
#ifndef TRIM_SEARCH_INT_H
#error "bound_int.h is part of search_int.h: include that"
#endif

/* 1 if level l of m has a factor above 1 (a loop). */
static inline int trim__level_has_loops(const trim__mapping *m, int l)
{
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (m->f[l][d] > 1)
			return 1;
	return 0;
}

/* ---- order-free bounds per factorisation (factor_bound.c) ---------------- */

/* The [level][slot] count arrays of an activity record. */
static inline int64_t (*trim__activity_rows(trim__activity *x, int i))[3]
{
	int64_t (*const a[])[3] = {x->tile, x->fills, x->reads, x->updates, x->drains, x->down_words,
	                           x->down_dests, x->unicast, x->mcast, x->mcast_dests, x->up_words,
	                           x->up_out, x->reductions};
	return a[i];
}
enum { TRIM__NACTIVITY_ROWS = 13 };

/* Per factorisation: for every tensor and every choice of its keep bits,
 * lower bounds on its counts over every loop order (ok = 0: outside the
 * analytic model's scope, the same for every order; err: no bound). */
typedef struct {
	int nch[3];                         /* choices per tensor: 2^(its keep bits) */
	int bit[3][TRIM__MAX_LEVELS];       /* keep-bit positions (index into byp_*) */
	int nbit[3];
	/* nch[t] entries each, allocated by trim__factor_bound_plan (up to
	 * 2^16 choices: inline, the arrays were a lazily touched 1 GB per
	 * worker, which AddressSanitizer maps and poisons whole) */
	trim__activity *lo[3];
	int *ok[3];
	/* trim__factor_bound_prepare_fast (when every tensor has at most
	 * TRIM__FAST_CHOICES choices): per tensor and choice its dynamic
	 * energy and the words it moves per level (storage: read side, write
	 * side; spatial: words on the links); per factorisation the compute
	 * cycles, MAC energy, leakage per cycle and active instances */
	int fast;
	double E[3][64];
	double RD[3][64][TRIM__MAX_LEVELS], WR[3][64][TRIM__MAX_LEVELS];
	double comp_cyc, mac_pj, leak, inst[TRIM__MAX_LEVELS];
} factor_bound;

enum { TRIM__FAST_CHOICES = 64 };

/* Per tensor and keep choice (levels kept: bit l of K), the node bound's
 * dynamic energy of that tensor (storage and network): trim__node_bound
 * writes it, trim__factor_bound_tighten reads it. */
typedef struct node_choices {
	int nch[3];
	double E[3][64];
	unsigned K[3][64];
} node_choices;

/* What the node bound charges per tensor and keep choice, level by level,
 * as counts (the exact tie test, trim__node_tie_cut, evaluates them):
 * storage: operand reads and fills, or result updates, drains and reads;
 * spatial: the words charged for energy (operands: entering on a bus,
 * delivered otherwise; results: leaving upwards) and those for cycles. */
typedef struct node_counts {
	int64_t a[3][64][TRIM__MAX_LEVELS];   /* operand reads / result updates */
	int64_t b[3][64][TRIM__MAX_LEVELS];   /* operand fills / result drains */
	int64_t r[3][64][TRIM__MAX_LEVELS];   /* result reads (read-backs and the rest of R + D >= U) */
	int64_t net[3][64][TRIM__MAX_LEVELS]; /* spatial: words charged for energy */
	int64_t dw[3][64][TRIM__MAX_LEVELS];  /* spatial: words for cycles */
	int64_t rdown[3][64][TRIM__MAX_LEVELS]; /* spatial, results: read-backs sent down (systolic_bound.c) */
	int avg[3][TRIM__MAX_LEVELS];         /* spatial: net words charged avg hops (systolic_bound.c) */
	int extk[TRIM__MAX_LEVELS];           /* storage levels whose tiles are known */
	int64_t tbytes[3][TRIM__MAX_LEVELS];  /* and the bytes of those tiles, per tensor */
	int complete;                         /* every tensor has at most 64 keep choices */
} node_counts;

/* What a node's bound knows before its tensors (node_bound.c): the levels
 * fixed, and "known" (storage, every level above and itself fixed: the
 * extents below it are known), the spatial levels' instances and active PEs
 * when all are fixed (allsp), the extents at and below each level (sfx:
 * suffix products of the factors) and per instance (pext; contig: the dim
 * still runs over a contiguous range), the storage levels whose tiles are
 * known (extk), the MACs' energy as the evaluator computes it. */
typedef struct {
	int fixed[TRIM__MAX_LEVELS], known[TRIM__MAX_LEVELS], extk[TRIM__MAX_LEVELS], allsp;
	int64_t inst[TRIM__MAX_LEVELS + 1], active, steps;
	int64_t sfx[TRIM__MAX_LEVELS + 1][TRIM_NDIMS];
	int sfx_exact[TRIM__MAX_LEVELS + 1]; /* sfx[l] is every completion's: the levels >= l are fixed */
	int64_t pext[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int contig[TRIM__MAX_LEVELS][TRIM_NDIMS];
	double emacs;
	/* act_sp: the activity's instances and active PEs are act_inst and
	 * act_active though allsp is 0 (the root's counts under a ragged
	 * node's fixed spatial levels, node_bound.c) */
	int act_sp;
	int64_t act_inst[TRIM__MAX_LEVELS + 1], act_active;
} node_frame;

/* One tensor's part of a node's bound: per keep choice (at most 64) its
 * energy and the levels it holds, the cheapest, per level the count-wise
 * minima over the choices that the cycles read (storage: reads or result
 * updates, fills or result drains; spatial: the words entering, or results
 * leaving upwards), and the bytes of its tiles where they are known. */
typedef struct {
	int nch;
	double E[64];
	unsigned K[64];
	double emin;
	/* trim__node_tensor only (0 after trim__tensor_figures_clear): */
	double emin_fit;     /* the cheapest whose own tiles fit (HUGE_VAL: none) */
	uint64_t fits_alone; /* bit c: choice c's own tiles fit */
	int64_t rd[TRIM__MAX_LEVELS], in[TRIM__MAX_LEVELS], net[TRIM__MAX_LEVELS];
	int64_t inkeep[TRIM__MAX_LEVELS]; /* fills of the level over the choices that keep it (INT64_MAX: none) */
	int64_t tbytes[TRIM__MAX_LEVELS];
	int complete; /* every keep choice is among the 64 */
} tensor_figures;

/* What the joint order's variants of a tensor share with its variant 0
 * (node_bound.c). */
typedef struct {
	int64_t tile[TRIM__MAX_LEVELS];   /* its elements in one tile below each known level */
	int64_t share[TRIM__MAX_LEVELS];  /* per storage level, the share of its instances */
	int64_t forced[TRIM__MAX_LEVELS]; /* forced refills */
	int64_t rsh[TRIM__MAX_LEVELS];    /* its elements in one tile of the levels below a known one */
	int64_t touched;
	int rback;
} tensor_reuse;

/* The joint order's variants (trim__node_bound_joint): variant v > 0 puts
 * loop d[v] innermost at known level k[v]; E[v][t]: its per-choice
 * energies, e[v] their cheapest sum. */
enum { TRIM__JOINT_VARIANTS = 24 }; /* at most, else a level is left out */
typedef struct {
	int n, k[TRIM__JOINT_VARIANTS], d[TRIM__JOINT_VARIANTS];
	double e[TRIM__JOINT_VARIANTS];
	double E[TRIM__JOINT_VARIANTS][3][64];
	int64_t slide[TRIM__JOINT_VARIANTS][3][TRIM__MAX_LEVELS]; /* trim__window_fills of the variant alone */
	/* tensor t's figures when level k's innermost loop refills it at every
	 * step are the same whichever loop that is: the variant that computed
	 * them first (-1: none yet) and their cheapest choice's energy */
	int refill_v[3][TRIM__MAX_LEVELS];
	double refill_emin[3][TRIM__MAX_LEVELS];
} joint_variants;

/* The node's frame from its factors in m (depth slots fixed): 0, 1 if a
 * spatial level does not fit (no valid mapping below), 2 if the node has
 * ragged completions (then only fixed, allsp, inst and active are set:
 * the fixed spatial levels' fit, instances and active PEs, which are every
 * completion's, ragged or not). */
int trim__node_frame(const trim__mapspace *s, const trim__level_cost *costs, int depth, int64_t zero_macs,
                     const trim__mapping *m, node_frame *f);
/* The extents of the frame (sfx) for other factors of the same fixed levels. */
void trim__node_frame_extents(const trim__mapspace *s, const trim__mapping *m, node_frame *f);
/* Tensor t's figures (variant 0 of the node bound; present tensors), and
 * (trim__node_tensor_reuse) what its joint-order variants share. */
void trim__node_tensor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                       const trim__mapping *m, int t, tensor_figures *out);
void trim__node_tensor_reuse(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                             const trim__mapping *m, int t, tensor_figures *out, tensor_reuse *r);
/* What every variant of tensor t shares into r (r->tile already set;
 * tensor_figures.c): the shares, the forced refills, the read-back rule
 * and the refill rule's tiles (trim__tensor_part_floor reads them). */
void trim__tensor_reuse_of(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t,
                           tensor_reuse *r);
/* The words of tensor t in a tile of extents ext (each dim over a
 * contiguous range: trim__axis_distinct on two-dim axes). */
int64_t trim__tile_words(const trim__intra *w, int t, const int64_t *ext);
/* tensor t's floors over every keep choice (tensor_bound.c): variant 0
 * fills r and o (and nc), a variant v > 0 writes per-choice energies into
 * Ev; fh >= 0 with ffl and irr: the stationary fills' floor
 * (stationary_bound.c). Returns the cheapest choice's energy. */
double trim__tensor_part_floor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                               const trim__mapping *m, int t, int v, const int *inner, tensor_reuse *r,
                               tensor_figures *o, double *Ev, node_counts *nc, int fh, int64_t ffl, unsigned irr);
/* Tensor t's figures emptied, with its tile bytes where they are known
 * (tensor_bound.c); then (trim__tensor_bound) filled as the node bound's
 * variant 0, with reuse r and (nc not NULL) every choice's counts. */
void trim__tensor_figures_clear(const trim__mapspace *s, const node_frame *f, int t, tensor_figures *out);
void trim__tensor_bound(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                        const trim__mapping *m, int t, tensor_figures *out, tensor_reuse *r, node_counts *nc);
/* The joint order's variants at the known storage levels of m (e zeroed). */
void trim__joint_variants_of(const trim__mapspace *s, const node_frame *f, const trim__mapping *m,
                             joint_variants *jv);
/* The variants' energies (jv->e, jv->E) from the tensors' variant-0
 * figures and reuse; returns etensor (the variant-0 sum) raised, per
 * level, to the cheapest of its variants. */
double trim__joint_energies(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                            const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                            double etensor, joint_variants *jv);
/* Its two steps: variant v's energies (jv->e[v], jv->E[v]), and etensor
 * raised per level to the cheapest of its variants (all computed). */
void trim__joint_variant(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                         const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                         joint_variants *jv, int v);
double trim__joint_raise(const trim__mapspace *s, const joint_variants *jv, double etensor);
/* How loop d innermost at level k moves tensor t's tile: 1 at every step
 * of k's loops (d is the sole dim of an axis of t and some loop of k is
 * not), 2 by a sliding window (d is one of two dims of an axis of t), 0
 * not. */
int trim__joint_moves(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int k, int d);
/* Per storage level (fills[l]), the words the sliding windows of the
 * innermost loops inner[] (-1: none) fill into all instances of l at
 * least, when t is kept there (tensor_bound.c, window_slides); the
 * figures change only where that exceeds variant 0's fewest over the
 * choices that keep t there (tensor_figures.inkeep). Additive over the
 * levels of inner[]. */
void trim__window_fills(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, const int *inner,
                        int64_t *fills);
/* Tensor t's per-choice energies (E; returns the cheapest) when every
 * known level k with inner[k] >= 0 has that innermost loop. */
double trim__joint_tensor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                          const trim__mapping *m, int t, tensor_reuse *r, const int *inner, double *E);
/* etensor raised to the cheapest combination of one innermost loop at
 * every joint level at once (after every variant of jv is computed; the
 * tensors' tiles combined under the capacities when tf is complete). */
double trim__joint_across(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                          const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                          const joint_variants *jv, double etensor);
/* Tensor t's per-choice energies (E; returns the cheapest) with every
 * choice that keeps it at level h filling (result: draining) h at least
 * `fills` times, its multicast parent reading at least fills over the
 * instances that differ only in the dims of mask irr (tensor_bound.c). */
double trim__tensor_floor_energies(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                                   const trim__mapping *m, int t, tensor_reuse *r, int h, int64_t fills,
                                   unsigned irr, double *E);
/* ---- the stationarity bound's memo (stationary_memo.c) ----------------- */

/* The extents at h and below that the node allows, per dim: kmin[d] (the
 * fixed factors at and below h, and the pinned ones) times a divisor of
 * q[d] / kmin[d] (q: the bound over the fixed and pinned factors above h)
 * of at most cap[d] (0: any). */
typedef struct {
	int64_t q[TRIM_NDIMS], kmin[TRIM_NDIMS], cap[TRIM_NDIMS];
} allowed_extents;

/* The memo of the searches over the extents: direct-mapped, in the
 * caller's stationary_workspace (one per worker: no lock), an entry
 * replaced by the next key that hashes to its slot. The key holds every
 * input of the search: the mapspace (its memo_id, unique per
 * trim__mapspace_init, and the bytes reserved at h: the tiles and
 * capacities are the mapspace's), which search and its arguments, the
 * least extents of every dim, and the bounds and caps of the dims the
 * search varies (zero for the others, which it does not read). */
enum { EXTENTS_MEMO = 1024 };
typedef struct {
	uint64_t space;
	int64_t reserved, enough;
	int64_t q[TRIM_NDIMS], kmin[TRIM_NDIMS], cap[TRIM_NDIMS];
	uint64_t args; /* arg, kind, h, t and mask */
} extents_key;
typedef struct {
	extents_key key;
	int64_t value[TRIM_NDIMS]; /* most reuse: [0]; sliding-window floors: per first-loop dim */
} extents_entry;
struct stationary_workspace {
	extents_entry extents_memo[EXTENTS_MEMO];
	/* the energies of the windowed tensors' floors, per tensor, set of the
	 * other tensors kept at h and first-loop dim (trim__stationary_bound) */
	double window_floors[3][8][TRIM_NDIMS][64];
};
/* The key of a search over the extents x at level h: kind 0 most reuse,
 * 1 sliding-window floors; t, mask, arg (the search's own argument) and
 * enough; vary: the dims the search varies (their bounds and caps are in
 * the key, the others' zeroed). A mapspace with test_memo_off gives a key
 * that is neither asked nor kept. */
void trim__extents_key_of(extents_key *k, const trim__mapspace *s, const allowed_extents *x, int kind, int h,
                          unsigned mask, int t, unsigned arg, int64_t enough, unsigned vary);
/* The memo's value for key k into *value (1, counted in *hits if not
 * NULL), or 0 (then *e is the slot to fill with trim__extents_put). */
int trim__extents_get(stationary_workspace *sw, const extents_key *k, extents_entry **e, int64_t *value,
                      uint64_t *hits);
/* Slot e (NULL: nothing) now holds key k's value. */
void trim__extents_put(extents_entry *e, const extents_key *k, const int64_t *value);

/* The stationarity bound (stationary_bound.c): a lower bound on the sum
 * of the tensors' energies from the refills that the capacity of the
 * innermost storage level with open extents forces (0: none applies). */
double trim__stationary_bound(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                              const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                              stationary_workspace *sw);
/* For tests: the most reuse the stationarity bound allows tensor t (whose
 * axes are one dim each) at the level *h it picks for the node (tree
 * slots < depth fixed in node), t kept there beside the tensors in mask
 * keep: the largest product of extents t does not read (0: no tiles fit;
 * -1, *h = -1: the bound does not apply). */
int64_t trim__stationary_reuse(const trim__mapspace *s, const trim__level_cost *costs, int depth,
                               const trim__mapping *node, int t, unsigned keep, int *h, stationary_workspace *sw);
/* ---- a systolic array's words (systolic_bound.c) ------------------------ */

/* The hops the node bound charges each of tensor t's words on spatial level
 * l (network words nw): the fewest any word takes, or on a systolic level
 * whose words are all unicast (operands) or drained (results) its mean. */
double trim__systolic_hops(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                           const trim__mapping *m, int t, int l);
/* The energy of a result's read-backs down a systolic array beyond what
 * rq[] (the reads charged per level, raised here) has: per holder kept
 * (kept[]) whose updates are at least rdc[], those read back and sent down
 * (down[l]: the words down spatial level l, set for every level). */
double trim__systolic_readbacks(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                                const trim__mapping *m, int t, const int *kept, const int64_t *rdc, int64_t *rq,
                                int64_t *down);
/* ---- the words of tiles on their axes (window_words.c) ------------------- */

/* At least the values of axis e over a share with ext[d] values of each
 * dim d (exact[d]: d runs over a contiguous range), and (share) the
 * elements of tensor t there. */
int64_t trim__axis_lower_bound(const trim__iexpr *e, const int64_t *ext, const int *exact);
int64_t trim__share_lower_bound(const trim__intra *w, int t, const int64_t *ext, const int *exact);
/* At least the elements of t in one instance's share at storage level l,
 * every spatial level fixed: trim__share_lower_bound over f's per-instance
 * extents, or more where a window axis has one dim split by a spatial level
 * above l (its values are blocks; window_words.c). */
int64_t trim__share_blocks(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int l);
/* 1 if e is c0 d0 + c1 d1 (distinct dims, c != 0) and (d0, d1) -> e is one
 * to one over the workload's bounds: |c0| > |c1| (bound d1 - 1) or the
 * reverse (a pooling window whose stride is at least its size). Index sets
 * that differ in the values of d0 or d1 then touch disjoint values. */
int trim__axis_one_to_one(const trim__intra *w, const trim__iexpr *e);
/* The terms of e with a coefficient other than 0: their count, the first
 * two into dd (dims) and cc (|coefficients|); window_words.c. */
int trim__axis_terms(const trim__iexpr *e, int *dd, int64_t *cc);
/* The words the joint order's sliding windows bring to one instance of
 * holder l of t, the known levels of mask wk having innermost loops inner[]. */
int64_t trim__window_slides(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int l,
                            unsigned wk, const int *inner);
/* Twice the least words of tensor t entering the tile of one instance of
 * a storage level of extents e at a step of a first loop above it on dim
 * d, into words[d] for each d of dstar that t reads (0: not bounded); the
 * other entries are left as they are. */
void trim__window_step_words(const trim__mapspace *s, int t, const int64_t *e, unsigned dstar, int64_t *words);
/* For tests: the fills of level *h that the stationarity bound of a
 * sliding window (stationary_bound.c) gives tensor t kept there beside the
 * tensors in mask keep, for the node (tree slots < depth fixed in node),
 * when the first loop above *h is on a dim of the mask first (0: any);
 * 0: none (no tiles fit, or no floor); -1, *h = -1: it does not apply. */
int64_t trim__stationary_window_fills(const trim__mapspace *s, const trim__level_cost *costs, int depth,
                                      const trim__mapping *node, int t, unsigned keep, unsigned first, int *h,
                                      stationary_workspace *sw);
/* ---- the words on chains of several spatial levels (spatial_chain.c) ---- */

/* Per spatial level k between the innermost holder h of t and the MACs
 * (fixed or not), at least the words entering k's networks (operands) or
 * leaving them upwards (results), enter[k], and those k delivers to its
 * children (operands) or receives from them (results), deliver[k]; 0 for
 * the other levels in (h, MAC). Returns the outermost one's enter (h's
 * reads, or result updates, at least), 0 if none; *distinct_top: the
 * distinct elements below h's instances over the steps. */
int64_t trim__chain_to_macs(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h,
                            int64_t *enter, int64_t *deliver, int64_t *distinct_top);
/* The same on the hop from holder h to holder l (h < l), given at least
 * `words` entries into l's instances (operands: fills; results: drains):
 * enter[k], deliver[k] for k in (h, l); returns the outermost level's
 * (0: none). f NULL: every spatial level between is fixed; else the open
 * ones of frame f take mapspace.share_cap as their sharers (open_hop.c). */
int64_t trim__chain_hop(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h, int l,
                        int64_t words, int64_t *enter, int64_t *deliver);

/* At least the distinct elements of t that the MACs below one node of
 * spatial level k use (result: make) at a step, every spatial level from k
 * down fixed: per axis, the values of its dims' spatial indices at the
 * spacings the levels below may give them (spatial_chain.c). */
int64_t trim__chain_share(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int k);
/* The most children of one node of spatial level k that can need one
 * element of t: the product of k's factors (in m) over the dims not
 * private to t (children that differ in a private dim need disjoint
 * elements). */
int64_t trim__chain_sharers(const trim__mapspace *s, const trim__mapping *m, int t, int k);
/* ---- a hop between holders with a spatial level open (open_hop.c) ------- */

/* The fills (results: drains) of holder l of t at least, whatever the
 * open levels: touched (|t|) x the fixed spatial levels' factors above l
 * on the dims t does not read. */
int64_t trim__open_hop_entries(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int l,
                               int64_t touched);
/* One keep choice's counts raised by both: *in_l (l's entries), nw[k] and
 * dw[k] of the levels between; returns h's reads (result: updates) rd_h
 * raised. */
int64_t trim__open_hop_raise(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h,
                             int l, int64_t touched, int64_t *in_l, int64_t rd_h, int64_t *nw, int64_t *dw);

/* The distinct elements of t that the MACs below the instances of holder h
 * use (operands) or make (results) at each step, summed over the steps and
 * instances (trim__chain_to_macs's *distinct_top). */
int64_t trim__chain_distinct(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h);
/* The result's read-backs at its innermost holder h (parent holder ph, -1:
 * none) over a chain of spatial levels to the MACs, U0 its distinct
 * entries (trim__chain_distinct): the least energy beyond the node bound's
 * charges (h's drains in_h and read-backs rb, the words nw[k] received by
 * the levels between ph and h, ph's updates upd_ph) over every split of U0
 * into read-backs and entries; *reads: h's reads and drains together. */
double trim__chain_readbacks(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                             const trim__mapping *m, int ph, int h, int64_t U0, int64_t in_h, int64_t rb,
                             const int64_t *nw, int64_t upd_ph, int64_t *reads);

/* What one tensor's keep choices share of the chains (per holder h: the
 * figures to the MACs of the last h asked, the result's distinct entries). */
typedef struct {
	int h;
	int64_t top, enter[TRIM__MAX_LEVELS], deliver[TRIM__MAX_LEVELS];
	int64_t u0[TRIM__MAX_LEVELS]; /* -1: not yet */
} chain_memo;
void trim__chain_memo_init(chain_memo *c);
/* tensor_bound.c's counts of one keep choice raised by the chains:
 * the hop (h, l) with at least `words` entries into l, sp its innermost
 * spatial level with bounds, `up` the words it charges each level, rd_h
 * h's reads (returns them raised); the hop from h to the MACs (nw, dw and
 * the feed of h); the result's read-backs at its innermost holder h
 * (returns the energy to add; *reads_h raised). */
int64_t trim__chain_hop_raise(const trim__mapspace *s, const trim__mapping *m, int t, int h, int l, int sp,
                              int64_t words, int64_t up, int64_t rd_h, int64_t *nw, int64_t *dw);
void trim__chain_macs_raise(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h,
                            chain_memo *c, int64_t *nw, int64_t *dw, int64_t *feed);
double trim__chain_readbacks_raise(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                                   const trim__mapping *m, int t, int ph, int h, int64_t in_h, int64_t rb,
                                   const int64_t *nw, int64_t upd_ph, chain_memo *c, int64_t *reads_h);

/* The node's bound from its tensors' figures (tf[t]; etensor: the sum of
 * their emin in the bound's order) without the joint order; out (not NULL)
 * gets the per-choice energies; jv (not NULL): with the joint order's
 * variants, etensor already raised by them. */
void trim__node_combine(const trim__mapspace *s, const trim__level_cost *costs, int goal, const node_frame *f,
                        const trim__mapping *m, const tensor_figures *const *tf, double etensor,
                        const joint_variants *jv, int64_t zero_macs, trim__eval *ev, double *lb, node_choices *out);
/* The leakage of the node's mappings at least: at the cycles of its MACs
 * alone (every count adds cycles). */
double trim__node_static_floor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                               const trim__mapping *m, int64_t zero_macs, trim__eval *ev);
/* 1 if keep choices cc[t] of the tensors' figures fit the capacities whose
 * tiles are known (extk). */
int trim__choices_fit(const trim__mapspace *s, const int *extk, const int64_t *const *tbytes,
                      const unsigned *const *K, const int *nch, const int *cc);
/* trim__node_bound with the counts the tie test evaluates (nc). */
void trim__node_bound_counts(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                             int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, node_choices *out,
                             node_counts *nc, stationary_workspace *sw);
/* The bytes of a tile of `words` words at storage level l (its word width,
 * doubled with double buffering), as trim__mapping_check_reserved counts
 * them; and (trim__tiles_fit_level) 1 if tiles of bytes[t] (0: tensor t not
 * kept there) fit level l with its cached activations, by the same rule:
 * each within its partition, and the sum within the capacity (with the
 * reservation) when the level is shared or holds cached activations. The
 * search's own copies of that check, separate from the evaluator's. */
static inline int64_t trim__tile_bytes_at(const struct trim_arch *a, int l, int64_t words)
{
	const trim__level *L = &a->lv[l];
	const int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
	return (words * bits + 7) / 8 * (L->double_buffer ? 2 : 1);
}

static inline int trim__tiles_fit_level(const trim__mapspace *s, int l, const int64_t *bytes)
{
	const trim__level *L = &s->a->lv[l];
	if (L->capacity_bytes <= 0)
		return 1;
	int64_t total = 0;
	for (int t = 0; t < 3; t++) {
		if (L->partitioned && bytes[t] > L->part_bytes[t])
			return 0;
		total += bytes[t];
	}
	return !((!L->partitioned || s->reserved[l] > 0) && total + s->reserved[l] > L->capacity_bytes);
}

/* The order in which the node bound sums its tensors (the result first:
 * usually the dearest, so a cut comes soonest). */
static const int trim__bound_torder[3] = {2, 0, 1};

/* Choice of tensor t under bypass mask b. */
static inline int trim__keep_choice(const trim__mapspace *s, const factor_bound *fbound, int t, uint64_t b)
{
	int c = 0;
	for (int i = 0; i < fbound->nbit[t]; i++)
		c = c * 2 + (int)((b >> (s->nbyp - 1 - fbound->bit[t][i])) & 1);
	return c;
}

int trim__factor_bound_plan(const trim__mapspace *s, factor_bound *fbound);
void trim__factor_bound_free(factor_bound *fbound);
/* Fill fbound for the factors in m and the tensors in tmask (keeps of m
 * are overwritten). Returns 0, or an error that is not a scope error (then
 * no bound is used). */
int trim__factor_bound_compute(const trim__mapspace *s, factor_bound *fbound, trim__mapping *m, trim__act_ws *ws,
                               unsigned tmask);
/* The per-choice figures of fbound->fast (after trim__factor_bound_compute)
 * of the tensors in tmask. ev: scratch. */
void trim__factor_bound_prepare_fast(const trim__mapspace *s, factor_bound *fbound, int64_t zero_macs,
                                     const trim__level_cost *costs, const trim__mapping *m, trim__eval *ev,
                                     unsigned tmask);
/* The evaluator's cycles from the words read and written per level. */
double trim__words_cycles(const trim__mapspace *s, const factor_bound *fbound, const double *rd, const double *wr);
/* trim__factor_bound_cost from the per-choice figures (fbound->fast). */
int trim__factor_bound_fast(const trim__mapspace *s, const factor_bound *fbound, const int *ch, int goal, double *lb);
/* The cycle part of trim__factor_bound_fast for bypass mask b. */
void trim__factor_bound_cycles(const trim__mapspace *s, const factor_bound *fbound, uint64_t b, double *cyc);
/* Cost lower bound from the per-tensor count bounds (choice ch[t], or ch
 * NULL: the minimum over every in-scope choice); 1 if some tensor has no
 * in-scope choice. */
int trim__factor_bound_cost(const trim__mapspace *s, const factor_bound *fbound, const int *ch, int64_t zero_macs,
                            const trim__level_cost *costs, const trim__mapping *m, int goal, trim__eval *ev,
                            double *lb);
/* The per-choice energies of the tensors in tmask raised to the node
 * bound's (have, or computed). */
void trim__factor_bound_tighten(const trim__mapspace *s, const trim__level_cost *costs, int goal, int64_t zero_macs,
                                trim__mapping *m, trim__eval *ev, const node_choices *have, factor_bound *fbound,
                                unsigned tmask, stationary_workspace *sw);

#endif
