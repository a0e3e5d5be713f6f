/*
 * The inputs of the work tests and an exploration of the tiny network's
 * space built from them (check_work.c, check_work_search.c).
 */
#ifndef TRIM_TEST_WORK_FIXTURE_H
#define TRIM_TEST_WORK_FIXTURE_H

#include "trim.h"
#include "trim/work.h"

#define NET "test/data/neteval/tiny.yaml"
#define SPACE "test/data/neteval/tiny-space-1pe.yaml"
#define ARCH "test/data/neteval/tiny-arch.yaml"
#define NET_REPEAT "test/data/neteval/repeat.yaml"

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_space *space;
	trim_explorer *ex;
	trim_work *wk;
} xfx;

/* NET over SPACE in inference for goal, writing to dir unless NULL. */
void xsetup(xfx *s, int goal, const char *dir);
void xteardown(xfx *s);
/* The exploration's JSON report (the caller frees it). */
char *xreport(const trim_explorer *ex);

#endif
