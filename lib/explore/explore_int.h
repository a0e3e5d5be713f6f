/* lib/explore/: the explorer (TRIM Algorithm 1). One concept per file:
 *   explore.c    options, driving, ranking
 *   points.c     the point files of a resumable exploration (--out)
 *   recheck.c    a point read back is re-evaluated before it is used
 *   report.c     utilisation, warnings and detail of every valid point
 *   detail.c     per-workload figures of the points (xdetail_int.h)
 *   bound.c      how sure a point is: exact, lower bound, gap, the ranks it could hold
 *   front.c      the Pareto front, and whether each point's place on it is proven
 *   fuse.c       fused tiles (trim_explorer_set_fuse): each point's chains planned
 *                (lib/fusedtiles/), its figures the fused plan's, and the reports' columns
 *
 * The explorer's state, shared by lib/explore/explore.c (options, driving, ranking,
 * reports) and lib/explore/points.c (the point files of a resumable sweep). */
#ifndef TRIM_EXPLORE_INT_H
#define TRIM_EXPLORE_INT_H

#include "arch/arch_int.h"
#include "trim/explore.h"
#include "trim/neteval.h"
#include "util/digest.h"
#include "util/handle.h"
#include "util/util.h"

typedef struct {
	char layer[64];
	int phase;
	double cycles, energy, dense_cycles, dense_energy, active_pes, pe_util;
	/* what its search proved: optimal (exact), or its cost (the search goal's,
	 * dense) at least lower_bound (lib/explore/bound.c) */
	int exact;
	double lower_bound;
	char *mapping;
} trim__xworkload;

/* A point's fused tiles (lib/explore/fuse.c): the totals over the network's
 * chains (trim__ft_totals), the goal's cost of the fused and of the
 * layer-by-layer plans and the lower bound of every plan, and the point's
 * figures layer by layer (those its figures are made from). */
typedef struct {
	int on; /* planned: a valid point of an exploration with fused tiles */
	int chains, groups, exact, stopped;
	double cost, lbl_cost, lower_bound;
	double dram, lbl_dram, buffer;
	double lbl_energy_pj, lbl_cycles, lbl_seconds;
} trim__xfused;

typedef struct {
	int done, valid, resumed;
	char error[512];
	double f[TRIM_XF_COUNT];
	int nlevels;
	char level_name[TRIM__MAX_LEVELS][TRIM__ARCH_NAME_LEN];
	double level_pj[TRIM__MAX_LEVELS];
	size_t nw;
	trim__xworkload *wl;
	/* the inter-layer work's part that no mapping changes: its cycles, and
	 * its energy less the leakage of cached tensors (which grows with the
	 * intra workloads' cycles): the lower bound's constant terms */
	double inter_cycles, inter_fixed_pj;
	trim__xfused fz;
} trim__xpoint;

/* The inputs a point's figures depend on, each stamped by the digest of its
 * content in every point file (docs/guide.md, "Exploring"). */
enum {
	TRIM__XIN_LIBRARY,      /* the library's version and the digest of its sources */
	TRIM__XIN_NETWORK,      /* the network file's bytes and the workloads made of it */
	TRIM__XIN_SPACE,        /* the space file's bytes */
	TRIM__XIN_ARCHITECTURE, /* the base architecture file's bytes */
	TRIM__XIN_ENERGY,       /* the energy table(s): file or ERT/ART directory bytes */
	TRIM__XIN_CONSTRAINTS,  /* the dataflow constraints in force (canonical dump) */
	TRIM__XIN_OPTIONS,      /* search goal, mode, batch, word bits, sparsity, limits */
	TRIM__XIN_COUNT
};
extern const char *const trim__xin_names[TRIM__XIN_COUNT];

struct trim_explorer {
	uint32_t tag; /* TRIM__H_EXPLORER (util/handle.h): first, checked by every entry point */
	const trim_network *net;
	const trim_workloads *w;
	const trim_space *space;
	int goal, threads, sparsity;
	int64_t max_mappings;
	int imperfect;           /* TRIM_EX_IMPERFECT */
	double budget, we, wd, wa, min_pe, min_rf;
	double time_limit, gap; /* anytime searches (0: exact) */
	trim_constraints *cons; /* the space's and trim_explorer_set_constraints' (NULL: none) */
	char *dir;
	char *fuse, *fuse_level; /* trim_explorer_set_fuse (NULL: no fused tiles; the default level) */
	size_t n, next, resumed, recomputed;
	trim__xpoint *pt;
	int ranked;
	size_t *order; /* rank -> point index (ranked points only) */
	size_t nranked;
	char inputs[TRIM__XIN_COUNT][TRIM__DIGEST_HEX]; /* set with the output directory */
	char *notes; /* why point files were not reused, one line per reason ("" none) */
	const char *library; /* the stamps' library: trim__library_stamp() (tests: another) */
	uint64_t stop_after; /* tests: > 0, every search stops there (a time limit that lands the same
	                        on every machine: trim__mapspace.stop_after) */
};

extern const char *const trim__explore_goal_names[];
extern const char *const trim__explore_field_keys[TRIM_XF_COUNT];
/* The mapper's goal of an exploration goal. */
int trim__explore_search_goal(int goal);
/* The ranking's cost of point p: its goal's figure (lib/explore/explore.c). */
double trim__explore_point_cost(const trim_explorer *ex, const trim__xpoint *p);
/* How sure point p is (lib/explore/bound.c): TRIM_XF_EXACT, _LOWER_BOUND
 * and _GAP of p from its workloads' proofs and the goal; and, over the
 * ranked points (order[0..n-1], best first), TRIM_XF_RANK_BEST and
 * _RANK_WORST (0 for the others). */
void trim__explore_point_bound(const trim_explorer *ex, trim__xpoint *p);
void trim__explore_rank_ranges(trim_explorer *ex, const size_t *order, size_t n);
/* The Pareto front (lib/explore/front.c): TRIM_XF_PARETO of every valid
 * point; and 1 when valid point i's place on or off it holds whatever the
 * figures of the points whose searches are not proven, 0 when it could change. */
void trim__explore_pareto_front(trim_explorer *ex);
int trim__explore_pareto_proven(const trim_explorer *ex, size_t i);
void trim__explore_point_clear(trim__xpoint *p);
/* The JSON object of point i (full: with every workload and mapping). */
void trim__explore_point_json(const trim_explorer *ex, size_t i, const trim__xpoint *p, int full,
                              trim__sb *sb);

/* Digest every input into ex->inputs; 0 or a TRIM_E code (an input that
 * cannot be read). */
int trim__explore_digest_inputs(trim_explorer *ex);
/* Point i's file: 1 loaded into *p; 0 no file, or a file that is stale (an
 * input changed) or corrupt (checksum), to be recomputed (ex->notes says
 * why); negative for a file of another exploration. */
int trim__explore_load_point(trim_explorer *ex, size_t i, trim__xpoint *p);
int trim__explore_save_point(const trim_explorer *ex, size_t i, const trim__xpoint *p);
/* The text of point i's file (stamped, checksummed; free it) and its
 * reading back: as trim__explore_load_point, from text that `path` names in
 * the notes and messages (lib/work/: results passed between processes). */
int trim__explore_point_text(const trim_explorer *ex, size_t i, const trim__xpoint *p, char **out);
int trim__explore_parse_point(trim_explorer *ex, size_t i, const char *text, size_t len, const char *path,
                              trim__xpoint *p);
/* Evaluate point i with `inner_threads` threads per network evaluation into
 * *p (cleared first); an unmappable point is recorded invalid (0). It is
 * _begin (the architecture's figures into *p, its network evaluation set up
 * as the sweep's into *ne), trim_neteval_run, and _end (the figures from the
 * evaluation run with result run_rc, whose message is the last error); both
 * name the point in an error and clear *p. lib/work/ runs the searches of
 * one evaluation in several processes between the two. */
int trim__explore_evaluate_point(const trim_explorer *ex, size_t i, int inner_threads, trim__xpoint *p);
int trim__explore_point_begin(const trim_explorer *ex, size_t i, int inner_threads, trim__xpoint *p,
                              trim_neteval **ne);
int trim__explore_point_end(const trim_explorer *ex, size_t i, const trim_neteval *ne, int run_rc,
                            trim__xpoint *p);
int trim__explore_mkdirs(const char *dir);
/* Fused tiles (lib/explore/fuse.c): the options freed; valid point i (*p,
 * evaluated layer by layer on `threads` threads) planned, its figures made
 * the fused plan's (nothing without fused tiles); TRIM_EINVAL for options
 * fused tiles do not take, naming them. */
void trim__explore_fuse_free(trim_explorer *ex);
int trim__explore_fuse_point(const trim_explorer *ex, size_t i, int threads, trim__xpoint *p);
/* The reports' fused-tiles parts (nothing without fused tiles): point i's
 * "fused" JSON member (after a comma); the table's section after the
 * ranking (point column pw wide); points.csv's header columns and point i's
 * (each after a comma, and the row's newline: also without fused tiles). */
void trim__explore_fuse_json(const trim_explorer *ex, size_t i, trim__sb *sb);
void trim__explore_fuse_table(const trim_explorer *ex, int pw, trim__sb *sb);
void trim__explore_fuse_csv(const trim_explorer *ex, long i, trim__sb *sb);
/* Point i as read back from its file (p: its figures and mappings; text,
 * len: the file's bytes) checked again (lib/explore/recheck.c): 0 with the
 * point evaluated again from its mappings in *out, when its file written
 * again from them is the file byte for byte; 1 with why (n bytes) when it
 * is not (a mapping that cannot be read, fails the check trim eval applies,
 * or gives other figures: the point is recomputed); TRIM_ENOMEM. */
int trim__explore_recheck_point(const trim_explorer *ex, size_t i, const trim__xpoint *p, const char *text,
                                size_t len, trim__xpoint *out, char *why, size_t n);

#endif
