/*
 * Brute force over every raw index of a small space against the search over
 * its distinct space (search_brute.c): the best, the top 5, the work and the
 * bytes at 1, 2 and 3 threads, every node bound, tensor part and tie test
 * against the costs of every mapping. The settings of the next run and the
 * counters the tests check are globals of the test binary (each test runs in
 * its own process).
 */
#ifndef TRIM_TEST_SEARCH_BRUTE_H
#define TRIM_TEST_SEARCH_BRUTE_H

#include <stdint.h>

#include "search/search_int.h"
#include "tcase_util.h"

/* A small space (case_fc, case_conv: tcase_util.h) of g_kind in g_phase
 * with stride g_u and padding g_pad. */
extern int g_kind, g_phase, g_u, g_pad;
void case_kind(struct trim_arch *a, trim__intra *w);

/* A custom factor: dim's bound at level. */
typedef struct {
	int level, dim;
	int64_t bound;
} pin_t;

void brute_vs_search(void (*mk)(struct trim_arch *, trim__intra *), int goal);
void brute_vs_search_pinned(void (*mk)(struct trim_arch *, trim__intra *), int goal, const pin_t *pins,
                            int npins);

/* The next run's settings (search_brute.c says what each holds). */
extern double g_min_pe, g_min_rf;
extern int64_t g_reserved[TRIM__MAX_LEVELS];
extern int g_reserved_on, g_systolic, g_count;
extern double g_leak_scale;
/* What the runs exercised, summed over them. */
extern int g_inexact_runs;
extern uint64_t g_parts_checked;
extern uint64_t g_tie_cuts, g_tie_nodes, g_ties_tight, g_joint_higher, g_stopped_early, g_stop_points;
extern uint64_t g_stopped_exact;
extern node_counts *g_node_counts;
extern uint64_t g_cost_ties, g_second_differs, g_full_ties, g_index_alone_wrong;

#endif
