/*
 * The explorer fixture shared by the explore suites (check_explore.c,
 * check_explore_bound.c): the tiny network over the one-PE space, in
 * inference (it keeps the sweeps fast).
 */
#ifndef TRIM_TEST_EXPLORE_UTIL_H
#define TRIM_TEST_EXPLORE_UTIL_H

#include "trim.h"

#define NET "test/data/neteval/tiny.yaml"
#define SPACE "test/data/neteval/tiny-space-1pe.yaml"

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_space *space;
	trim_explorer *ex;
} fx;

/* NET's inference workloads over SPACE, an explorer with goal and threads. */
void fx_setup(fx *s, int goal, int threads);
void fx_teardown(fx *s);

#endif
