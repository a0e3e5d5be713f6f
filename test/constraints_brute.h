/*
 * Brute force over every raw mapping of a small space that obeys a
 * constraint set, against the constrained search (constraints_brute.c). The
 * settings of the next run and the counters the tests check are globals of
 * the test binary (each test runs in its own process).
 */
#ifndef TRIM_TEST_CONSTRAINTS_BRUTE_H
#define TRIM_TEST_CONSTRAINTS_BRUTE_H

#include <stdint.h>

#include "trim.h"
#include "tcase_util.h"

/* What a constraint set means, written out by hand: the reference the
 * brute force filters raw mappings with. */
typedef struct {
	int64_t fix[TRIM__MAX_LEVELS][TRIM_NDIMS]; /* 0 free */
	int64_t max[TRIM__MAX_LEVELS][TRIM_NDIMS]; /* 0 none */
	int keep[TRIM__MAX_LEVELS][3];             /* -1 free */
	int nperm[TRIM__MAX_LEVELS];
	int perm[TRIM__MAX_LEVELS][TRIM_NDIMS];    /* innermost first */
	int axis[TRIM__MAX_LEVELS][TRIM_NDIMS];    /* 1 X, 2 Y */
} ref_t;

void ref_init(ref_t *r);
/* dims of level l outside `allowed` (letters) are 1 */
void ref_only(ref_t *r, int l, const char *allowed);
/* the loops of level l listed innermost first (letters) */
void ref_perm(ref_t *r, int l, const char *inner_first);

/* A constraint set read from yaml (named c.yaml); a failure fails the test. */
trim_constraints *load(const char *yaml);

/* The search under yaml against brute force filtered by ref. */
void brute(void (*mk)(struct trim_arch *, trim__intra *), int goal, const char *yaml, const ref_t *ref);

/* The next run's settings and what the runs saw (constraints_brute.c says
 * what each holds). */
extern int g_random, g_enofit, g_imperfect, g_ragged_best;
extern uint64_t g_reuse_checked, g_reuse_equal;
extern uint64_t g_wfill_checked, g_wfill_raised, g_wfill_equal, g_wfill_own_above;
extern uint64_t g_own_loop_checked, g_least_checked, g_ragged_valid, g_ragged_raised,
    g_ragged_nodes_raised;

#endif
