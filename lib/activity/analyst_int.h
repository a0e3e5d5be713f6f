/*
 * Inside the activity analyst (lib/activity/; its interface to the rest of
 * the library is lib/activity/activity_int.h). One concept per file:
 *   activity.c   the entry points and the scratch memory
 *   axis.c       one two-term axis: window sums, overlaps, an advance's
 *                statistics
 *   prepare.c    the order-independent part (per factors and keeps)
 *   orders.c     the order-dependent part (per loop orders)
 *   ragged.c     imperfect factorisations (ragged tiles), per transition
 *   ragged_stat.c   one group's sums at one step: by runs of the axis, or
 *                by a bitmap per leaf (the obvious form, for the rest)
 *   ragged_lower.c  their order-free lower bound: per instance, the
 *                elements it touches
 *   timeloop.c   an operand counted as Timeloop counts it (--count
 *                timeloop): identical tiles per fan-out, whole-tile windows
 *   flat.c       mappings with flattened groups: the collapsed view, and an
 *                operand read through a window walked step by step
 * The functions shared by these files carry the trim__act_ prefix.
 */
#ifndef TRIM_ACTIVITY_ANALYST_INT_H
#define TRIM_ACTIVITY_ANALYST_INT_H

#include <stdint.h>

#include "activity_int.h"

#define MAXAX TRIM__MAX_TDIMS

/* Spatial levels with bounds > 1 one hop may cross (outer to inner). */
#define MAXSP 8

/* Delivery statistics of a hop, per instance of each of its spatial levels
 * S_j: distinct[j] = (element, S_j instance) pairs some child below needs,
 * uni[j] = those needed below exactly one child of S_j. */
typedef struct {
	int64_t distinct[MAXSP], uni[MAXSP];
} sstat;

/* One axis of a tensor's index, terms with coefficient 0 dropped. */
typedef struct {
	int nt;
	int dim[2];
	int64_t coef[2];
} axis_t;

/* An axis of the child's base set on one hop. */
typedef struct {
	int64_t n[2];    /* extents along each term's dim */
	int64_t span;    /* two-term: max value + 1 */
	int64_t size;    /* |T_a| */
	int64_t boff;    /* two-term: offset of its membership bitmap in ws->buf[0] */
	int64_t p[MAXSP][2]; /* ports of each S_j along each term's dim */
	int64_t s[MAXSP][2]; /* distance of neighbouring ports of S_j along the axis */
	/* first step, per S_j: positions held below >= 1 child of S_j, below
	 * exactly one */
	int64_t A1[MAXSP], O1[MAXSP];
	int memo;        /* two-term: its table of advances (memo_t), else -1 */
} hax_t;

typedef struct {
	int B, C;
	int k;            /* spatial levels with bounds > 1 between B and C */
	int S[MAXSP];     /* them, outer to inner */
	int cmac;
	/* S_jm .. S_k-1 all multicast (S_jr .. all reduce): a word is
	 * replicated (added) only where every spatial level below it on the
	 * hop does the same; jm = k: no replication */
	int jm, jr;
	int64_t size;     /* |T| of the child */
	int64_t stepsC;   /* product of the temporal bounds above C */
	int64_t M;        /* lower bound: first step plus the advances that refill all */
	int64_t kirr[MAXSP]; /* S_j's ports irrelevant to the tensor */
	int64_t nsi[MAXSP];  /* instances of S_j */
	sstat first;      /* delivery statistics of the first step */
	/* the innermost storage level above C with a loop (bound > 1) on a dim
	 * of a one-term axis (-1: none): the barrier is one of its loops */
	int Lb;
	size_t lbase;     /* its level tables (lmemo_t): levels max(Lb, 0) .. C-1 */
	/* one-term axes at a step inside the barrier (they do not move): the
	 * product of their positions below an S_j instance, and of their extents */
	int64_t c1[MAXSP], s1;
	/* Timeloop's counting (timeloop.c): per S_j instance, the classes of
	 * identical tiles among its children and those of one child (all
	 * children where S_j or a level below it does not multicast); the
	 * innermost storage level above C with a loop (-1: none) */
	int64_t tlcls[MAXSP], tluni[MAXSP];
	int tlinner;
	int n2;           /* two-term axes, by index */
	int a2[MAXAX];
	hax_t ax[MAXAX];
} hop_t;

typedef struct {
	int on;             /* present and asked for */
	int nax;
	axis_t ax[MAXAX];
	unsigned hard, win; /* dims of one-term axes, of two-term axes */
	int nk;             /* hops */
	hop_t hop[TRIM__MAX_LEVELS];
} tprep_t;

/* A two-term axis' statistics of one advance (delta), memoised per
 * preparation (gen). Entries with another gen are free. */
typedef struct {
	uint64_t gen;
	int64_t delta;
	int64_t ov;              /* |T_a ∩ (T_a - delta)| */
	int64_t A[MAXSP], E[MAXSP], O[MAXSP], O1[MAXSP], G[MAXSP]; /* per S_j: see axis_scan */
} memo_t;
#define MEMO_WAYS 16 /* the hash below takes 4 bits */

/* The part of a hop's counts that one storage level's order decides (see
 * level_steps), memoised per preparation by the level's order (key),
 * direct-mapped. */
typedef struct lmemo {
	uint64_t gen;
	uint64_t key;
	int64_t fills;
	sstat st;
} lmemo_t;
#define LMEMO 128

struct trim__act_prep {
	int lb, nL;
	unsigned tmask;     /* the tensors prepared (bit t: slot t) */
	int lmemo_on;      /* level tables in use (prepared for many orders) */
	int type[TRIM__MAX_LEVELS];
	int64_t f[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int64_t ext[TRIM__MAX_LEVELS + 1][TRIM_NDIMS];
	int64_t lprod[TRIM__MAX_LEVELS];     /* product of the level's bounds */
	unsigned big[TRIM__MAX_LEVELS];      /* storage: dims with bound > 1 */
	int64_t above[TRIM__MAX_LEVELS];     /* product of the storage levels' bounds above l */
	int64_t macs, zero_macs, steps, active_pes;
	int64_t instances[TRIM__MAX_LEVELS];
	int64_t tile[TRIM__MAX_LEVELS][3];
	tprep_t t[3];
	uint64_t gen;
	int nmemo;
	size_t memo_cap;   /* tables */
	memo_t *memo;      /* memo_cap * MEMO_WAYS */
	memo_t spill;      /* when a table is full */
	size_t nlmemo, lmemo_cap; /* level tables: entries */
	struct lmemo *lmemo;
	/* an imperfect factorisation (some dim's bounds multiply to more than
	 * D): counted by ragged.c */
	int ragged;
	int64_t D[TRIM_NDIMS];
	struct trim__act_rag *rag;
};

/* Scratch buffer i of ws with room for n words (grown, never shrunk);
 * NULL with TRIM_ENOMEM set. */
int64_t *trim__act_ws_get(trim__act_ws *ws, int i, size_t n);
/* The statistics of advance delta of two-term axis x at level k into st
 * (axis.c). */
int trim__act_axis_scan(trim__act_ws *ws, const hax_t *x, int k, int64_t delta, int first, memo_t *st);
/* |S ∩ (S - delta)| of a bitmap of span bits. */
int64_t trim__act_axis_overlap(const int64_t *bits, int64_t span, int64_t delta);
/* Everything that does not depend on the loop orders, into ws->prep
 * (prepare.c); lb: the lower-bound mode; many: memoise per level order. */
int trim__act_prepare(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                      trim__act_ws *ws, int lb, unsigned tmask, int many);
/* Ragged tiles (ragged.c): hop i of tensor t's fills of the child (Fc),
 * (element, S_j instance) pairs delivered (Mw[j], Mw[k] = Fc), those needed
 * below one child of S_j (Uw), and the same pairs of the drains upwards
 * (Dw, Dw[k] = the child's drains); the executed temporal steps. */
int trim__act_ragged_hop(trim__act_ws *ws, const trim__mapping *m, int t, int i, int64_t *Fc,
                         int64_t *Mw, int64_t *Uw, int64_t *Dw);
/* The lower-bound mode's ragged hop (ragged_lower.c): raises Fc, Mw and Dw
 * (set to the tensor's touched elements, the MACs' words) to the elements
 * each instance of S_j and of the child touches, summed; uses ws->buf[2].
 * 0 or TRIM_ENOMEM. */
int trim__act_ragged_lower(trim__act_ws *ws, int t, int i, int64_t *Fc, int64_t *Mw, int64_t *Dw);
/* One group of a ragged hop at one step (ragged_stat.c): its axis reads
 * coef[0] * u + coef[1] * v over the group's dims (coef 0: a dim irrelevant
 * to the tensor, or no second dim); nleaf leaves (the child's instances
 * below the spatial levels above it, the innermost level fastest); per S_j
 * (k of them) the leaves below one child of S_j (rch) and below one S_j
 * instance (rin). */
typedef struct {
	int64_t coef[2];
	int k;
	int64_t nleaf;
	int64_t rch[MAXSP], rin[MAXSP];
} trim__rag_shape;
/* Its sums: the positions held now (cur) and held at the previous step too
 * (inter), summed over leaves; per S_j, over its instances, the positions
 * held by some child (A), by exactly one (O), by children all held them
 * before (E), by one that held them before (O1), and by children all but
 * one of which held them before (G). */
typedef struct {
	int64_t A[MAXSP], E[MAXSP], O[MAXSP], O1[MAXSP], G[MAXSP];
	int64_t cur, inter;
} trim__rag_stat;
typedef struct {
	int64_t a, e;
} trim__rag_run;
/* Scratch of both forms (zeroed: empty; grown, never shrunk). */
typedef struct {
	uint8_t *bits;
	size_t bcap;
	int64_t *cnt;
	size_t ccap;
	trim__rag_run *run;
	size_t rcap, nrun;
	size_t *off;
	size_t ocap;
	void *ev;
	size_t ecap, nev;
} trim__rag_scratch;
void trim__rag_scratch_free(trim__rag_scratch *s);
/* The sums from the leaves' ranges rng (8 per leaf: now [a0, e0, a1, e1],
 * before [a0, e0, a1, e1]; an empty range: nothing held): by a bitmap per
 * leaf, or by runs (where trim__rag_runs_apply: the same sums, in a time
 * independent of the axis's length). 0 or TRIM_ENOMEM. */
int trim__rag_stat_bits(trim__rag_scratch *s, const trim__rag_shape *g, const int64_t *rng, trim__rag_stat *st);
int trim__rag_runs_apply(const trim__rag_shape *g);
int trim__rag_stat_runs(trim__rag_scratch *s, const trim__rag_shape *g, const int64_t *rng, trim__rag_stat *st);
int64_t trim__act_ragged_steps(const struct trim__act_prep *P, const trim__mapping *m);
void trim__act_rag_free(struct trim__act_rag *r);
/* Timeloop's counting (timeloop.c). trim__act_tl_prepare: h's tlcls,
 * tluni and tlinner (after its axes; uses ws->buf[1]); 0 or TRIM_ENOMEM.
 * trim__act_tl_words: an operand's words of hop h as Timeloop counts them
 * (identical tiles per fan-out) from its fills per child instance over the
 * steps: Mw[j] entering the S_j instances (Mw[k]: the child's fills), Uw[j]
 * those sent to one child. trim__act_tl_window: whether Timeloop saves the
 * overlap of a tile with the last one on a step of loop i (innermost
 * first among those of bound > 1) of level l of hop h. */
int trim__act_tl_prepare(trim__act_ws *ws, const tprep_t *tp, hop_t *h);
void trim__act_tl_words(const hop_t *h, int64_t fills1, int64_t instances_C, int64_t *Mw, int64_t *Uw);
static inline int trim__act_tl_window(const hop_t *h, int l, int i)
{
	return l == h->tlinner && i == 0;
}
/* Exact counts of the tensors in tmask of a mapping with flattened groups
 * (flat.c): m must pass trim__mapping_check_shape. */
int trim__act_flat(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m, trim__act_ws *ws,
                   unsigned tmask, trim__activity *out);
/* The counts for m's loop orders from the preparation in ws (orders.c). */
int trim__act_order_counts(trim__act_ws *ws, const trim__mapping *m, trim__activity *out);

#endif
