/*
 * The HTML report (lib/report/html_page.c: the page, its CSS and script;
 * lib/report/html.c: the data of a network evaluation and of an
 * exploration).
 */
#ifndef TRIM_HTML_INT_H
#define TRIM_HTML_INT_H

#include "report_int.h"

/* The page: title, and the data as JSON text (escaped for <script> here). */
void trim__html_page(trim__sb *sb, const char *title, const char *data_json);
/* JSON text made safe inside a <script> element. */
void trim__html_json_text(trim__sb *sb, const char *json);

/* One architecture's evaluated workloads, the data of the page's details:
 * {"levels", "workloads": [{index, layer, phase, cycles, energy_pj, ..., energy_by_level,
 * energy_by_tensor, loopnest}], "warnings", "totals"}. index[k] is the
 * workload's index among the intra workloads. */
typedef struct {
	const struct trim_arch *arch;
	const trim__level_cost *costs;
	const trim__wview *views;
	const size_t *index;
	size_t n;
	double cycles, energy_pj, pe_utilization; /* totals (inter-layer work included) */
} trim__html_detail;
int trim__html_detail_json(const trim__html_detail *d, trim__sb *sb);

#endif
