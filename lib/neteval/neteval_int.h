/*
 * Read access to a network evaluation's records for its reports (report.c,
 * summary.c, html.c here, drawn with lib/report/'s shared pieces): the
 * getters live in lib/neteval/neteval.c, next to the struct.
 */
#ifndef TRIM_NETEVAL_INT_H
#define TRIM_NETEVAL_INT_H

#include "report/report_int.h"
#include "trim/neteval.h"

typedef struct {
	const struct trim_arch *arch;
	const trim__level_cost *costs;  /* one per level */
	const trim_workloads *w;
	const char *network;
	int goal, sparse_hardware, finished;
	size_t n, ninter;
} trim__neteval_info;

void trim__neteval_info_get(const trim_neteval *ne, trim__neteval_info *out);
/* Intra workload i: 1 and its view when it was mapped, 0 when it was left
 * out (trim_neteval_set_layers) or is not mapped yet. */
int trim__neteval_view(const trim_neteval *ne, size_t i, trim__wview *out);
/* Inter workload j once the totals are ready: its cost, or NULL when it is
 * outside the layer range or the evaluation has not finished. */
const trim__inter_cost *trim__neteval_inter_cost(const trim_neteval *ne, size_t j);

/* Report hooks (lib/neteval/report.c) called by trim_neteval_report. */
void trim__netreport_workload_json(const trim_neteval *ne, size_t i, trim__sb *sb);
void trim__netreport_totals_json(const trim_neteval *ne, trim__sb *sb);
void trim__netreport_tail_json(const trim_neteval *ne, trim__sb *sb);
double trim__netreport_temporal_util(const trim_neteval *ne, size_t i);
void trim__netreport_table_tail(const trim_neteval *ne, trim__sb *sb);
void trim__netreport_csv(const trim_neteval *ne, trim__sb *sb);

#endif
