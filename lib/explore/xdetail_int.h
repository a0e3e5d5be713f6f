/*
 * An explorer point's workloads evaluated again from their best mappings
 * (lib/explore/detail.c), for the per-workload accessors, the
 * warnings and the HTML report of an exploration.
 */
#ifndef TRIM_XDETAIL_INT_H
#define TRIM_XDETAIL_INT_H

#include "report/report_int.h"
#include "trim/explore.h"

typedef struct {
	trim_arch *arch;                          /* the point's architecture */
	trim__level_cost costs[TRIM__MAX_LEVELS];
	size_t n;                                 /* mapped workloads */
	trim__mapping *m;
	trim__eval *dense;
	trim__sparse_eval *sp;
	trim__wview *views;
	size_t *index;                            /* views[j] is intra workload index[j] */
} trim__xdetail;

/* 0, or TRIM_EINVAL (not evaluated), TRIM_ENOTFOUND (an invalid point), an
 * error of the evaluation. */
int trim__xdetail_make(const trim_explorer *ex, size_t i, trim__xdetail *d);
void trim__xdetail_free(trim__xdetail *d);
int trim__xdetail_warnings(const trim__xdetail *d, trim__warnings *ws);

/* Hooks of the explorer's reports (lib/explore/report.c): the point
 * object just written to sb gains "temporal_utilization" and "warnings"
 * (valid points); the temporal utilisation of point i (NaN if invalid);
 * the best point's warnings under the table; the per-workload CSV. A
 * failure marks sb failed (the report then fails with TRIM_ENOMEM). */
void trim__xreport_point_json(const trim_explorer *ex, size_t i, trim__sb *sb);
double trim__xreport_temporal(const trim_explorer *ex, size_t i);
void trim__xreport_table_tail(const trim_explorer *ex, trim__sb *sb);
void trim__xreport_workloads_csv(const trim_explorer *ex, trim__sb *sb);

#endif
