/*
 * Fused tiles across layers (issue #33; docs/fusion.md, "Fused tiles"): a
 * group of consecutive layers of a chain shares the loops above a chosen
 * buffer level B, so each intermediate tensor between two layers of the
 * group lives in B (one tile of it at a time) and never goes to DRAM.
 * Unlike lib/fusion/ (DeCoILFNet's line buffers on an FPGA fabric), every
 * layer keeps its own loop nest below B, searched by the per-layer mapper
 * (lib/search/) on the layer's tile workload; the counts are the activity
 * analyst's, with the intermediate's home moved from DRAM to B.
 *
 * One concept per file:
 *   link.c          the chain: which tensor links two layers, the axes the
 *                   layers of a group can share (tiled above B), the rows
 *                   and the workload of a layer's tile under a tiling
 *   kinds.c         the kinds of tiles of a tiling: with padding on a
 *                   shared axis the border tiles differ from the others
 *   counts.c        the fused counts of one layer's mapping: the
 *                   intermediate's accesses above B and its fills from /
 *                   drains to above B removed, the evaluation redone, and
 *                   the bound on what the removal can save
 *   layer_search.c  one layer of a group: its tile workload searched under
 *                   the group's constraints (no loops above B, the
 *                   intermediates kept in B), exactly for the fused cost
 *   vector.c        the vector work (a softmax) on an intermediate between
 *                   two layers: the inter-layer model's cost with the
 *                   tensor in DRAM (a cut) or one tile of it in B (fused)
 *   cache.c         the layer searches kept by the content of their inputs
 *                   (tile workload, intermediates, buffer level, goal), so
 *                   no layer tile is searched twice in one call
 *   bound.c         the floor of a tiling: a lower bound on a layer's
 *                   fused cost under a shared tiling before its search runs
 *   plan.c          the groups of a chain: the tilings of a group, best
 *                   floor first, pruned by the floor against the best so
 *                   far and against the best split of the same layers; the
 *                   cuts (a dynamic programme over prefixes, the
 *                   layer-by-layer plan one candidate), the totals and the
 *                   lower bound; a deadline
 *   network.c       the chains of a network, the buffer level and the range
 *                   of layers to fuse as a user names them
 *   report.c        trim_fusedtiles_report (include/trim/fusedtiles.h): every
 *                   chain of a network planned, as a table or JSON
 *
 * The model (docs/fusion.md has it in full):
 *   - a group of layers a..b shares a tiling: per shared axis x a tile
 *     count T_x dividing its bound; the T = prod T_x tiles run one after
 *     another, and in each tile the layers run one after another, each
 *     with its own mapping of its tile workload;
 *   - above B a layer's mapping has no loops (every factor at the levels
 *     above B is 1), so B holds the layer's whole tile of every tensor it
 *     keeps; the intermediates (layer i's output = layer i+1's input) are
 *     kept in B and bypass the levels between DRAM and B;
 *   - the tiles of a dense workload are translates of one another: a
 *     group's counts are T times one tile's; where a consumer's window
 *     needs a halo of its producer's rows, the producer's tiles overlap
 *     and it recomputes the halo in each (counted: T times its tile), or,
 *     along one tiled axis, keeps it: a producer makes in each tile only
 *     the rows the tiles before did not, B holding the rest (the tilings
 *     are searched both ways);
 *   - with padding on a shared axis, a border tile holds padding zeros
 *     and fewer of its producers' rows: the tiles fall into kinds of
 *     equal workloads, each searched on its own, and the group's counts
 *     are the sum over kinds of count times one tile's;
 *   - B must lie above every spatial level (one instance), so the tile of
 *     an intermediate is one buffer's contents, not spread over instances.
 * Not yet built: halos kept on two tiled axes (a line buffer), DAGs (attention's Q, K and V are read
 * from DRAM; only scores -> softmax -> context is a chain), element-wise and
 * normalisation layers inside a group, training's WG (its FW and BW chains fuse), the EDP goal, weights kept in B
 * across tiles, overlap of tiles or layers.
 */
#ifndef TRIM_FUSEDTILES_INT_H
#define TRIM_FUSEDTILES_INT_H

#include <stdint.h>

#include "search/mapspace_int.h"

#define TRIM__FT_MAX_LAYERS 64
#define TRIM__FT_MAX_AXES TRIM__MAX_TDIMS

/* ---- the chain (link.c) -------------------------------------------------- */

/* Layers 0..n-1, each taking the previous one's result (slot 2) as its
 * input (slot 0) with the same shape. The caller makes sure that the
 * intermediate has no other reader (a residual branch would need it in
 * DRAM). vec[i] > 0: that many vector operations run on layer i's result,
 * in place, before layer i + 1 reads it, each reading and writing it once
 * (vector.c); vec_ops[i] says which (TRIM__FT_VEC_*): a softmax
 * (attention's scores -> softmax -> context; its rows lie along a dim that
 * is not in layer i + 1's result, the keys, the context's reduction, so no
 * tile splits one), a batch normalisation in inference (an affine map per
 * channel: any tile of it is its own). */
enum { TRIM__FT_VEC_SOFTMAX = 1u << 0, TRIM__FT_VEC_BATCHNORM = 1u << 1 };
typedef struct {
	int nlayers;
	const trim__intra *layer[TRIM__FT_MAX_LAYERS];
	unsigned char vec[TRIM__FT_MAX_LAYERS];
	unsigned char vec_ops[TRIM__FT_MAX_LAYERS];
	/* the bytes of cached activations (a shortcut's input; in training,
	 * what the backward workloads read) that the network's cache plan
	 * keeps at level glb while layer i runs (docs/model.md, "Caching of
	 * intermediate activations"): taken off that level's capacity in every
	 * search of the layer, and in a group the most of its layers' (glb 0:
	 * none) */
	int glb;
	int64_t reserved[TRIM__FT_MAX_LAYERS];
	/* 1: each intermediate has another reader after the chain (training's
	 * BW chains: dY_i, the result of BW_(i+1), is also WG_i's input), so
	 * besides living in B it is drained to DRAM once (TRIM__FT_WRITE) */
	unsigned char written;
} trim__ft_chain;

/* The bytes reserved at each level (TRIM__MAX_LEVELS entries) while layers
 * a..b of c run together: at c->glb the most of their c->reserved. */
void trim__ft_group_reserved(const trim__ft_chain *c, int a, int b, int64_t *reserved);

/* The axes a group of layers a..b can share: axis x is the dim dim[x][i]
 * of layer a + i, a dim of every layer's result, linked from layer to
 * layer through the intermediates: position k of layer i's result is
 * dim[x][i] alone; the position of layer i + 1's input that holds it
 * (trim__ft_link_position) is
 * coef[x][i] * dim[x][i + 1] plus terms on dims that are not in layer
 * i + 1's result (a convolution's window: R with dilation D adds
 * window[x][i] = D (R - 1)), less pad[x][i] rows of padding zeros before
 * layer i's rows (0 without padding). A tile of layer i + 1's rows
 * lo..hi needs layer i's rows coef lo - pad .. coef hi + window - pad,
 * clipped to layer i's rows: the halo, recomputed by layer i in every
 * tile that needs it (the tiles of layer i overlap). bound[x] is the last
 * layer's bound; tile counts divide it. padded[x]: some tensor of the
 * group has padding zeros along the axis, so the tiles at its borders
 * differ from the others (fewer rows, zeros) and the tiles fall into
 * kinds (trim__ft_tile_classes); without, every tile is a translate of
 * the first. */
typedef struct {
	int naxes, nlayers;
	int dim[TRIM__FT_MAX_AXES][TRIM__FT_MAX_LAYERS];      /* dim of layer a + i */
	int64_t coef[TRIM__FT_MAX_AXES][TRIM__FT_MAX_LAYERS];   /* link i -> i + 1: the stride */
	int64_t window[TRIM__FT_MAX_AXES][TRIM__FT_MAX_LAYERS]; /* link i -> i + 1: the halo */
	int64_t pad[TRIM__FT_MAX_AXES][TRIM__FT_MAX_LAYERS];    /* link i -> i + 1: zeros before */
	int64_t bound[TRIM__FT_MAX_AXES];
	int padded[TRIM__FT_MAX_AXES];
	/* 1 + the axis whose halo is kept (0: every halo recomputed; set by
	 * the caller, trim__ft_halo_axis): its tiles run one after another,
	 * and a layer other than the last makes in tile p only the rows the
	 * tiles before did not (trim__ft_tile_rows); the rows the next tile
	 * needs stay in B (trim__ft_kept_bytes) */
	int keep;
} trim__ft_axes;

/* The extent of an index expression over the loop bounds b: the distinct
 * values sum coef_k d_k takes (coefficients >= 0: its span plus one). */
int64_t trim__ft_span(const trim__iexpr *e, const int64_t *b);
/* The position of `in` (a consumer's input) that holds position k of `out`
 * (its producer's result), -1 if k has extent 1: positions of extent 1 (a
 * group or a batch of 1; in's counted without its padding) hold no data, so
 * the k-th of out's other positions is the k-th of in's (a convolution's
 * result [N, 1, M, E, F] is a pool's input [N, C, H, W]). */
int trim__ft_link_position(const trim__tensor *out, const trim__tensor *in, int k);
/* 0 if every layer's input is the previous layer's result with the same
 * shape, positions of extent 1 aside (or that result with padding zeros
 * around it on its two spatial positions), else TRIM_ESHAPE naming the two
 * layers and the difference. */
int trim__ft_chain_check(const trim__ft_chain *c);
/* 1 if a and b are the same loop nest (names and positions aside): kind,
 * phase, bounds, and every tensor's index expressions, extents and padding
 * zeros (what the MACs, zero MACs and counts follow from). */
int trim__ft_same_nest(const trim__intra *a, const trim__intra *b);
/* The axes layers a..b (a < b) can share; naxes may be 0. */
void trim__ft_group_axes(const trim__ft_chain *c, int a, int b, trim__ft_axes *ax);
/* The rows lo..hi (on dim ax->dim[x][i]) of layer a + i in tile `pos`
 * (0 <= pos < tiles[x]) on axis x: the last layer's pos-th tile of rows,
 * then back through the links; with the halo kept on x (ax->keep), from
 * the row after those of tile pos - 1 on; 0 when the tile holds none of
 * layer i's rows (padding wider than the window, or a kept halo that
 * covers the tile: such a tiling is not a candidate). */
int trim__ft_tile_rows(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles, int x,
                       int64_t pos, int i, int64_t *lo, int64_t *hi);
/* The axis whose halo a tiling can keep: the one tiled axis (tiles > 1)
 * on which consecutive tiles of some layer need common rows, when every
 * other tiled axis has neither such rows nor padding; -1 if none. */
int trim__ft_halo_axis(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles);
/* 1 if consecutive tiles on some tiled axis need common rows of a layer. */
int trim__ft_has_halo(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles);
/* With the halo kept (ax->keep), the bytes of the group's other
 * intermediates that B holds while layer a + i runs tile `pos` beside its
 * own mapping's tiles: of each intermediate before its input, the rows the
 * next tile needs; of its own result and each after it, the rows kept
 * from the tile before (0 without a kept halo). */
int64_t trim__ft_kept_bytes(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles,
                            const int64_t *pos, int i, int word_bits);
/* Layer a + i of the group in the tile at pos[x] on each axis (NULL: the
 * first tile, 0, on every axis) under tile counts tiles[x] (each dividing
 * ax->bound[x]): its workload with each shared dim's bound its tile's rows
 * (trim__ft_tile_rows), the extents of the tensors it indexes recomputed,
 * and their padding zeros as the tile sees them (shifted and clipped;
 * none left: dense). origin (NULL: not wanted) receives per axis the
 * tile's first row on the layer's dim. */
int trim__ft_tile_workload(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles,
                           const int64_t *pos, int i, trim__intra *out, int64_t *origin);

/* The kinds of tiles of a group under a tiling: tiles whose workloads are
 * the same on every layer (translates) are one kind, and the group's counts
 * are a sum over kinds of count times one tile's. Per axis x, n[x] kinds,
 * each with a tile of it (rep, its position) and how many tiles it has;
 * a kind of the group is one of each axis's (total of them). */
typedef struct {
	int n[TRIM__FT_MAX_AXES];
	int64_t *rep[TRIM__FT_MAX_AXES];
	int64_t *count[TRIM__FT_MAX_AXES];
	int64_t total;
} trim__ft_classes;

/* 0, 1 when some tile holds none of a layer's rows (not a candidate), or
 * TRIM_ENOMEM; *cl is to be freed on 0. */
int trim__ft_tile_classes(const trim__ft_chain *c, int a, const trim__ft_axes *ax, const int64_t *tiles,
                          trim__ft_classes *cl);
void trim__ft_classes_free(trim__ft_classes *cl);
/* Kind k (0 <= k < cl->total, the last axis fastest): pos receives a tile
 * of it per axis; returns how many tiles it has. */
int64_t trim__ft_class_at(const trim__ft_classes *cl, int naxes, int64_t k, int64_t *pos);

/* ---- fused counts (counts.c) -------------------------------------------- */

/* What the fused home of a layer's intermediates removes from its counts:
 * per storage level at or above B, the words read out of it and written
 * into it; the same for every mapping of the layer's fused mapspace (B
 * holds the whole tile, filled or drained once; checked as it searches). */
typedef struct {
	int64_t rd[TRIM__MAX_LEVELS];   /* reads and drains */
	int64_t fill[TRIM__MAX_LEVELS]; /* fills */
	int64_t upd[TRIM__MAX_LEVELS];  /* updates */
} trim__ft_removed;

/* The slots of a layer that are intermediates of its group: bit 0 its input
 * (it is not the group's first layer), bit 2 its output (not the last);
 * TRIM__FT_WRITE with TRIM__FT_OUT: the output is also drained to DRAM,
 * each element once (a written chain's; trim__ft_chain.written). */
enum { TRIM__FT_IN = 1u << 0, TRIM__FT_OUT = 1u << 2, TRIM__FT_WRITE = 1u << 3 };

/* 0 if level B can hold the intermediates `fused` of workload w and lies
 * above every spatial level, below the outermost; else TRIM_EINVAL naming
 * the level and what is wrong. */
int trim__ft_check_level(const trim__intra *w, const struct trim_arch *a, int B, unsigned fused);
/* 0 when no mapping of w's fused space (trim__ft_space_init) fits level
 * B: every such mapping keeps the whole tile of each intermediate
 * `fused` in B (no loops above it), and those tiles alone pass B's
 * capacity (less `held` bytes reserved there: cached activations) or a
 * partition of it, by the rule of trim__mapping_check_reserved (the
 * search's trim__tiles_fit_level); else 1 (the search decides). The search
 * proves the same only by visiting every factorisation (seconds on a large
 * tile). */
int trim__ft_fits_level(const trim__intra *w, const struct trim_arch *a, int B, unsigned fused, int64_t held);
/* The fused evaluation of mapping m (already evaluated into *std, which is
 * not changed) into *out: the counts of the slots `fused` above B removed
 * (their tiles there, every access), their fills of B from above and
 * drains from B to above removed (an output with TRIM__FT_WRITE keeps
 * them: it is drained once), and cycles and energy recomputed.
 * removed (may be NULL) receives the words taken off each level. */
void trim__ft_eval_fused(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                         const trim__mapping *m, int B, unsigned fused, const trim__eval *std,
                         trim__eval *out, trim__ft_removed *removed);
/* An upper bound on (standard - fused) goal cost over every mapping whose
 * removal is `r`: delay, the most cycles any level at or above B loses;
 * energy, the dynamic energy of the removed words plus the leakage of
 * every level over those cycles. */
double trim__ft_saving_bound(const struct trim_arch *a, const trim__level_cost *costs, int B,
                             const trim__ft_removed *r, int goal);
/* Bytes moved to and from DRAM (level 0) by the counts of e. */
double trim__ft_dram_bytes(const struct trim_arch *a, const trim__eval *e);

/* ---- vector work between layers (vector.c) ------------------------------ */

/* The goal's cost (pJ or cycles) of a softmax over the result of workload
 * `producer` (a layer or its tile) held at level l: read once and written
 * once there, cycles its words over the level's read and write bandwidth
 * (the inter-layer model's, docs/model.md). dram_bytes (may be NULL): the
 * bytes it moves to and from DRAM (0 unless l is 0). */
double trim__ft_vec_cost(const trim__intra *producer, const struct trim_arch *a, const trim__level_cost *costs,
                         int l, int goal, double *dram_bytes);

/* ---- one layer of a group (layer_search.c) ------------------------------- */

typedef struct {
	int found;            /* 0: no mapping of the tile fits */
	trim__mapping best;   /* the best mapping of the tile workload */
	trim__eval eval;      /* its fused evaluation (per tile) */
	double cost;          /* the goal's fused cost per tile */
	double lower_bound;   /* every mapping of the group's space costs at least this */
	int exact;            /* 1: best is the (fused cost, index) optimum */
	int stopped;          /* its search stopped at its deadline (not exact) */
	trim__index index;    /* its index in the tile workload's mapspace */
	int topk;             /* the top-k the search needed */
} trim__ft_layer_result;

/* The same with the bytes reserved per level (TRIM__MAX_LEVELS entries,
 * NULL: none; trim__mapspace's `reserved`) and a deadline (a
 * trim__ft_now() second; 0: none): each
 * search is given the time left (at least a millisecond) and the result
 * says what it proved (exact, lower_bound). */
int trim__ft_layer_search_until(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                                int B, unsigned fused, const int64_t *reserved, int goal, int threads,
                                double deadline, trim__ft_layer_result *out);
/* Seconds on a monotonic clock. */
double trim__ft_now(void);

/* Search layer workload w (a tile workload) within a group at buffer level
 * B with intermediates `fused` (0: a standalone layer, the plain search).
 * goal: TRIM__GOAL_ENERGY or _DELAY. Not finding a mapping is no error
 * (out->found = 0). */
int trim__ft_layer_search(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                          int B, unsigned fused, int goal, int threads, trim__ft_layer_result *out);
/* The fused mapspace of a layer: w's mapspace with every factor above B
 * pinned to 1 and the keep bits of the intermediates forced (kept in B,
 * bypassing the levels between DRAM and B). TRIM_ENOFIT when none fits. */
int trim__ft_space_init(trim__mapspace *s, const trim__intra *w, const struct trim_arch *a, int B,
                        unsigned fused);

/* ---- the cache of layer searches (cache.c) ----------------------------- */

/* Results of trim__ft_layer_search_until keyed by the content of the
 * (tile) workload, the intermediates, B, the reserved bytes and the goal; one architecture
 * and energy table per cache (the caller's promise). */
typedef struct trim__ft_cache trim__ft_cache;
int trim__ft_cache_new(trim__ft_cache **out);
void trim__ft_cache_free(trim__ft_cache *c);
/* Searches run so far (results not served from the cache). */
int64_t trim__ft_cache_searches(const trim__ft_cache *c);
void trim__ft_cache_refresh(trim__ft_cache *c, int on);
/* The result for w, searched unless the cache holds it; *out stays valid
 * until the cache is freed. With refresh on (trim__ft_cache_refresh), a
 * held result whose search its deadline stopped is searched again when
 * this call's deadline is later (or none), the two merged in place (the
 * cheaper mapping, the higher lower bound; the new one whole if exact). */
int trim__ft_cache_search(trim__ft_cache *c, const trim__intra *w, const struct trim_arch *a,
                          const trim__level_cost *costs, int B, unsigned fused, const int64_t *reserved, int goal,
                          int threads, double deadline, const trim__ft_layer_result **out);

/* ---- the floor of a tiling (bound.c) ------------------------------------ */

/* A lower bound on the fused cost (goal) of one layer of a group under a
 * tiling, over every mapping of each of its tiles (intermediates `fused`),
 * summed over its kinds of tiles: per kind, trim__ft_floor_add(count of
 * its tiles, its tile workload), then trim__ft_floor_value. The value is
 * the largest of the compulsory floor; when `partitioned` (the layer's
 * tiles do not overlap and have the same rows: no halo), alone_lb (the
 * layer's proven lower bound searched alone on its whole workload) less
 * what its intermediates' home can save in all the tiles; with `root`,
 * the per-layer search's bound at the root of each tile's fused space less
 * the same saving, or that bound on the tile without its intermediates if
 * larger (HUGE_VAL when no mapping obeys that space's pins); and
 * HUGE_VAL, whatever the rest, when some kind's intermediates alone
 * overflow B (trim__ft_fits_level: no mapping of that tile fits). */
typedef struct {
	double compulsory, root, saving; /* sums over the tiles */
	int nofit;                       /* a kind's intermediates overflow B (trim__ft_fits_level) */
} trim__ft_floor;
void trim__ft_floor_add(trim__ft_floor *f, const trim__intra *tile, unsigned fused, int64_t count, int root,
                        const struct trim_arch *a, const trim__level_cost *costs, int B, int goal);
double trim__ft_floor_value(const trim__ft_floor *f, int partitioned, double alone_lb, int root);
/* The root's part of a tile's root floor without its intermediates `fused`
 * (their tensors absent, the tile's zero MACs): the bound of the search's
 * root on the tile's other tensors (bound.c). */
double trim__ft_root_floor_rest(const trim__intra *tile, unsigned fused, const struct trim_arch *a,
                                const trim__level_cost *costs, int B, int goal);

/* ---- the plan of a chain (plan.c) ---------------------------------------- */

typedef struct {
	int first, last;                  /* chain layer indices */
	int naxes;
	int dim[TRIM__FT_MAX_AXES];       /* the shared dim of the first layer */
	int64_t tiles[TRIM__FT_MAX_AXES]; /* tile count per axis */
	int64_t ntiles;                   /* their product */
	int64_t kinds;                    /* kinds of tiles (kinds.c; 1 without padding on a shared axis) */
	double cost, lower_bound;
	double dram_bytes;                /* over all tiles and layers */
	int64_t buffer_bytes;             /* most bytes of B any layer's tile takes (fused groups), with the
	                                   * rows a kept halo holds beside it */
	double energy_pj, cycles;         /* both figures of its cost, over all tiles and layers */
	int halo;                         /* tiles needing common rows of a layer: 0 none, 1 recomputed, 2 kept */
} trim__ft_group;

typedef struct {
	int goal, level;                  /* the options it was searched with */
	int ngroups;
	trim__ft_group group[TRIM__FT_MAX_LAYERS];
	/* per chain layer: its mapping (of its tile workload) and fused
	 * evaluation (per tile), of its group's most frequent kind of tile */
	trim__mapping map[TRIM__FT_MAX_LAYERS];
	trim__eval eval[TRIM__FT_MAX_LAYERS];
	trim__intra tile[TRIM__FT_MAX_LAYERS];
	double cost, lower_bound;         /* the goal's cost of the plan; of every plan */
	int exact;                        /* every search it rests on was exact */
	double dram_bytes;
	double lbl_cost, lbl_dram_bytes;  /* the layer-by-layer plan (all groups of one) */
	double energy_pj, cycles;         /* both figures of the plan (the goal's: cost, summed by group) */
	double lbl_energy_pj, lbl_cycles; /* and of the layer-by-layer plan */
	int64_t buffer_bytes;             /* max over the fused groups (0: none fused) */
	int64_t searches;                 /* layer searches run (after the cache) */
	int64_t tilings, pruned;          /* fused candidates (group, tiling); pruned by their floor */
	int stopped;                      /* the deadline left candidates unsearched (their floors bound them)
	                                   * or stopped a layer search of the plan */
} trim__ft_plan;

/* How a chain is planned: goal, threads, the range of layers fused groups
 * may span (first_fuse < 0: all), a deadline (trim__ft_now() second; 0:
 * none), and a cache to share between calls with the same architecture
 * and table (NULL: one of its own). */
typedef struct {
	int goal, threads, first_fuse, last_fuse;
	double deadline;
	trim__ft_cache *cache;
} trim__ft_plan_opts;

int trim__ft_plan_search_opts(const trim__ft_chain *c, const struct trim_arch *a, const trim__level_cost *costs,
                              int B, const trim__ft_plan_opts *o, trim__ft_plan *out);

/* The best plan of chain c with intermediates in buffer level B: every cut
 * (all if first_fuse < 0; else groups may only span layers within
 * [first_fuse, last_fuse]) and, per group, every tiling of its shared
 * axes. The result is the same for any thread count. */
int trim__ft_plan_search(const trim__ft_chain *c, const struct trim_arch *a, const trim__level_cost *costs,
                         int B, int goal, int threads, int first_fuse, int last_fuse, trim__ft_plan *out);

/* ---- a network (network.c) ----------------------------------------------- */

/* link[i] != 0 when intra workload i + 1 of w reads only workload i's
 * result, which nothing else of net reads, with the same shape (FW only),
 * with no inter-layer workload between them but the padding of workload
 * i + 1's input and vector operations on the result: bit 0 set, and
 * TRIM__FT_VEC_* << 1 for each such operation (a softmax layer, read only
 * as workload i + 1's first operand, its other operand, attention's V,
 * coming from DRAM as weights do; a batchnorm layer); layers without a
 * workload of their own (an activation other than softmax, a dropout) may
 * stand between them too. link has one entry per intra workload. */
int trim__ft_network_links(const trim_network *net, const trim_workloads *w, int *link);
/* Training's BW chains, from the FW links (link, as above): bw[i] = 1 + the
 * BW workload that BW workload i links to, else 0. BW_(i+1) makes dX_(i+1),
 * which is BW_i's input dY_i (with its padding, an upsampling by 1) where
 * FW i -> i + 1 is a link with nothing between (link 1); only WG workloads
 * may run between the two, and only transposed weights and that padding
 * feed BW_i. dY_i is also WG_i's input: such a chain is `written`. */
void trim__ft_network_bw_links(const trim_workloads *w, const int *link, int *bw);
/* The buffer level named `name` (NULL: the first storage level below the
 * outermost, above every spatial level); errors name the levels. */
int trim__ft_find_level(const struct trim_arch *a, const char *name, int *level);
/* "all" or NULL: *first = *last = -1; "FIRST:LAST": their intra indices. */
int trim__ft_find_range(const trim_workloads *w, const char *range, int *first, int *last);

/* ---- every chain of a network planned (report.c) ------------------------- */

/* The totals over the chains of a network, as trim_fusedtiles_report's:
 * the goal's cost of the plans (and of the layer-by-layer plans), their
 * lower bound, both figures of each, the DRAM bytes, the largest buffer. */
typedef struct {
	double cost, lbl_cost, lower_bound;
	double energy_pj, cycles, lbl_energy_pj, lbl_cycles;
	double dram, lbl_dram;
	int64_t buffer;
	int chains, fused_groups, exact, stopped;
} trim__ft_totals;

/* trim_fusedtiles_report_within's plans, their totals into *out instead
 * of a report (the same checks and errors; table NULL: the architecture's). */
int trim__ft_network_totals(const trim_network *net, const trim_workloads *w, const struct trim_arch *arch,
                            const trim_energy *table, const char *range, const char *level, int goal, int threads,
                            double time_limit, trim__ft_totals *out);

#endif
