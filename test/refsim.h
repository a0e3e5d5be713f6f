/*
 * Reference simulator of the mapping and activity model (docs/model.md,
 * "Mapping and activity model"): executes every iteration of the mapped
 * loop nest, keeps the explicit contents (sets of tensor elements) of every
 * instance of every storage level, and counts every transfer. Slow and
 * simple on purpose: it is the oracle of test/check_activity.c.
 */
#ifndef TRIM_TEST_REFSIM_H
#define TRIM_TEST_REFSIM_H

#include "activity/activity_int.h"

/* 0, or a negative code with a message (unsupported or too large case). */
int refsim_run(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
               trim__activity *out);

/* The same with tensor t's home (its outermost holder, where it is from
 * the start and to which results are drained) at level home[t] instead
 * of level 0: the tensor is nowhere above it and comes from nowhere (a
 * fused group's intermediate in its buffer, docs/fusion.md). A home below
 * level 0 requires every factor above it to be 1. */
int refsim_run_home(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                    const int *home, trim__activity *out);

/* refsim_run under counting rules `count` (enum trim_count): under
 * TRIM_COUNT_TIMELOOP the operands' windows and multicasts as Timeloop
 * counts them (docs/mapping.md, rules 1, 4 and 5; lib/activity/timeloop.c),
 * counted from the explicit sets. */
int refsim_run_count(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m, int count,
                     trim__activity *out);

#endif
