/*
 * The activity analyst: for a (workload, architecture, mapping) triple, the
 * exact number of MACs, zero MACs, storage accesses and network transfers,
 * computed analytically (never by walking the iterations; an imperfect
 * factorisation's ragged tiles are counted per transition between steps,
 * lib/activity/ragged.c). The semantics
 * are written down in docs/model.md, "Mapping and activity model"; the
 * reference simulator in test/refsim.c implements the same semantics by
 * brute force and test/check_activity.c requires exact equality.
 */
#ifndef TRIM_ACTIVITY_INT_H
#define TRIM_ACTIVITY_INT_H

#include <stddef.h>
#include <stdint.h>

#include "mapping/mapping_int.h"

typedef struct {
	int64_t macs;       /* product of the workload's bounds (the real work) */
	int64_t padded_macs; /* product of the mapping's bounds (= macs unless imperfect) */
	int64_t zero_macs;  /* MACs with a predictable-zero operand (padding, upsampling) */
	int64_t steps;      /* temporal iterations executed (product of all temporal
	                     * bounds, fewer with ragged tiles: empty ones are skipped) */
	int64_t active_pes; /* product of all spatial bounds (the PEs in use; some idle
	                     * on ragged tiles) */
	int exact;          /* 1: the exact counts of every tensor of one whole mapping
	                     * (trim__activity_compute, _orders); 0: a lower bound or a
	                     * subset of the tensors (the search's bounds), where the
	                     * evaluator leaves out what needs the whole mapping (a
	                     * systolic array's pipeline, lib/eval/systolic.c) */
	int64_t instances[TRIM__MAX_LEVELS]; /* active instances of each level */
	int64_t tile[TRIM__MAX_LEVELS][3];   /* storage: elements of a kept tile per instance */

	/* Storage levels (words, summed over instances). Operands: fills are
	 * written into the level from its parent, reads are read out for the
	 * children. Result: fills are partial sums read back from the parent,
	 * reads are partial sums sent down to the children, updates are words
	 * written into the level by its children, drains are words read out of
	 * the level to be written back to its parent. */
	int64_t fills[TRIM__MAX_LEVELS][3];
	int64_t reads[TRIM__MAX_LEVELS][3];
	int64_t updates[TRIM__MAX_LEVELS][3];
	int64_t drains[TRIM__MAX_LEVELS][3];

	/* Spatial levels (words, summed over instances). Downwards (operands,
	 * read-back partial sums): down_words enter the network, down_dests
	 * arrive (a multicast word arrives at several destinations); unicast
	 * words have one destination, mcast words several (mcast_dests in all).
	 * Without multicast every destination gets its own word. Several
	 * spatial levels between two holders of a tensor form a tree: a word is
	 * replicated (added up, upwards) at a level only if that level and every
	 * one below it on the way multicasts (reduces); docs/model.md. Upwards
	 * (result): up_words enter from the children, up_out leave towards the
	 * parent, reductions = additions done in the network. */
	int64_t down_words[TRIM__MAX_LEVELS][3];
	int64_t down_dests[TRIM__MAX_LEVELS][3];
	int64_t unicast[TRIM__MAX_LEVELS][3];
	int64_t mcast[TRIM__MAX_LEVELS][3];
	int64_t mcast_dests[TRIM__MAX_LEVELS][3];
	int64_t up_words[TRIM__MAX_LEVELS][3];
	int64_t up_out[TRIM__MAX_LEVELS][3];
	int64_t reductions[TRIM__MAX_LEVELS][3];
} trim__activity;

/* Scratch memory of the analyst; one per thread. Grows on first use and is
 * then reused without allocation. Holds the order-independent part of the
 * last mapping prepared (trim__activity_prepare). Zero-initialise it. */
#define TRIM__ACT_NBUF 3 /* 0: bitmaps, 1: an axis' scans, 2: ragged_lower.c */
struct trim__act_prep;
typedef struct {
	int64_t *buf[TRIM__ACT_NBUF];
	size_t cap[TRIM__ACT_NBUF];
	struct trim__act_prep *prep;
	/* counting rules of the exact counts (enum trim_count), read when the
	 * counts are taken (trim__activity_compute, _orders, _tensors): under
	 * TRIM_COUNT_TIMELOOP an operand's windows and multicasts are counted
	 * as Timeloop counts them (lib/activity/timeloop.c; docs/mapping.md,
	 * rules 1, 4 and 5); the lower bounds ignore it (they stay below) */
	int count;
} trim__act_ws;

void trim__act_ws_free(trim__act_ws *ws);

/* Compute the activities. The mapping must pass trim__mapping_check_shape.
 * Returns 0, or TRIM_EINVAL for a mapping outside the analytic model's
 * scope (more than 8 spatial levels with bounds > 1 between consecutive
 * holders of one tensor; a result index with two terms), with a message. */
int trim__activity_compute(const trim__intra *w, const struct trim_arch *a,
                           const trim__mapping *m, trim__act_ws *ws, trim__activity *out);

/* trim__activity_compute in two parts, for the many mappings that differ
 * only in their loop orders: trim__activity_prepare does everything that
 * depends on the factors and keeps of m (scope checks included: it returns
 * the same errors) and keeps it in ws; trim__activity_orders then gives
 * the counts for the loop orders of m, which must have the factors and
 * keeps of the last successful prepare on ws (nothing else may use ws in
 * between). The counts are trim__activity_compute's; rows >= the number of
 * levels of out are not written (zero them once). */
int trim__activity_prepare(const trim__intra *w, const struct trim_arch *a,
                           const trim__mapping *m, trim__act_ws *ws);
int trim__activity_orders(trim__act_ws *ws, const trim__mapping *m, trim__activity *out);
/* trim__activity_prepare for the tensors in tmask only (the others' rows
 * stay 0, as trim__activity_tensors): a tensor's preparation reads only
 * the factors and its own keeps, so it serves every mapping with those,
 * whatever the other tensors' keeps and every level's order. */
int trim__activity_prepare_tensors(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                                   unsigned tmask, trim__act_ws *ws);

/* Lower bounds, valid for every loop order of every storage level, on the
 * counts of the tensors in tmask (bit t: slot t; the other tensors' counts
 * stay 0); zero_macs is not computed (0). Same scope errors as
 * trim__activity_compute. docs/model.md, "Mapspace and search", has the
 * argument. */
int trim__activity_lower(const trim__intra *w, const struct trim_arch *a,
                         const trim__mapping *m, unsigned tmask, trim__act_ws *ws,
                         trim__activity *out);

/* Exact counts of the tensors in tmask only (the other tensors' rows 0):
 * each tensor's counts do not depend on the others', so rows of separate
 * calls combine into trim__activity_compute's result. */
int trim__activity_tensors(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                           unsigned tmask, trim__act_ws *ws, trim__activity *out);

#endif
