/*
 * The HTML report. Files:
 *   lib/report/html_page.c   the page, its CSS and script (which draws the
 *                            interactive charts and inserts the SVG below)
 *   lib/report/html.c        the data of a network evaluation's or an
 *                            exploration's details (JSON)
 *   lib/report/html_svg.c    figures drawn in C as SVG: network energy by
 *                            level and tensor, area, buffer occupancy,
 *                            roofline, every workload with the inter-layer ones
 *   lib/report/html_tiles.c  a mapping's tiles, drawn beside its loop nest
 * Their callers: lib/neteval/html.c (trim_neteval_write_html) and
 * lib/explore/detail.c.
 */
#ifndef TRIM_HTML_INT_H
#define TRIM_HTML_INT_H

#include "report_int.h"

/* The page: title, and the data as JSON text (escaped for <script> here). */
void trim__html_page(trim__sb *sb, const char *title, const char *data_json);
/* The page of `title` and the JSON text in data (TRIM_ENOMEM if data ran
 * out of memory) written to path whole or not at all. */
int trim__html_write(const char *path, const char *title, const trim__sb *data);
/* JSON text made safe inside a <script> element. */
void trim__html_json_text(trim__sb *sb, const char *json);

/* One architecture's evaluated workloads, the data of the page's details:
 * {"levels", "workloads": [{index, layer, phase, cycles, energy_pj, ..., energy_by_level,
 * energy_by_tensor, loopnest}], "warnings", "totals"}. index[k] is the
 * workload's index among the intra workloads. */
/* An inter-layer workload as the figures show it. */
typedef struct {
	char label[160]; /* "layer op" */
	double cycles, energy_pj;
	int level;
} trim__html_inter;

typedef struct {
	const struct trim_arch *arch;
	const trim__level_cost *costs;
	const trim__wview *views;
	const size_t *index;
	size_t n;
	double cycles, energy_pj, pe_utilization; /* totals (inter-layer work included) */
	const trim__html_inter *inter;            /* NULL: none in this view (the figures' titles say so) */
	size_t ninter;
} trim__html_detail;
int trim__html_detail_json(const trim__html_detail *d, trim__sb *sb);

/* ---- SVG drawn in C (html_svg.c, html_tiles.c) ---- */
/* The JSON list [{"title", "svg"}] of the detail's figures. 0 or TRIM_ENOMEM. */
int trim__html_figures_json(const trim__html_detail *d, trim__sb *out);
/* The tiles of mapping m of workload w, one <svg> element. */
void trim__html_tiles_svg(const trim__mapping *m, const trim__intra *w, const struct trim_arch *a, trim__sb *sb);
/* Helpers: the palette's colour k, text escaped for XML, an <svg> start tag. */
const char *trim__html_color(int k);
void trim__html_xml(trim__sb *sb, const char *s);
void trim__html_svg_open(trim__sb *sb, int w, int h, const char *cls);

#endif
