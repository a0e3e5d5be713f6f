/*
 * The reports of a network evaluation beyond its totals (docs/guide.md,
 * "Reports"): per-workload breakdowns, temporal utilisation, warnings, the
 * CSV with energy by level and bottleneck; the hooks trim_neteval_report
 * calls, and the public accessors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neteval_int.h"
#include "trim/workload.h"
#include "util/handle.h"

static void workload_name(const trim__intra *x, char *buf, size_t n)
{
	snprintf(buf, n, "%s %s", x->layer, trim_phase_name(x->phase));
}

/* The views and names of every mapped intra workload (n of them). */
typedef struct {
	trim__wview *views;
	char (*names)[96];
	const char **name_ptr;
	size_t n;
} mapped_set;

static void mapped_free(mapped_set *s)
{
	free(s->views);
	free(s->names);
	free(s->name_ptr);
	memset(s, 0, sizeof *s);
}

static int mapped_make(const trim_neteval *ne, mapped_set *s)
{
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	memset(s, 0, sizeof *s);
	size_t cap = info.n ? info.n : 1;
	s->views = trim__calloc(cap, sizeof *s->views);
	s->names = trim__calloc(cap, sizeof *s->names);
	s->name_ptr = trim__calloc(cap, sizeof *s->name_ptr);
	if (!s->views || !s->names || !s->name_ptr) {
		mapped_free(s);
		return TRIM_ENOMEM;
	}
	for (size_t i = 0; i < info.n; i++) {
		if (!trim__neteval_view(ne, i, &s->views[s->n]))
			continue;
		workload_name(s->views[s->n].w, s->names[s->n], sizeof s->names[s->n]);
		s->name_ptr[s->n] = s->names[s->n];
		s->n++;
	}
	return 0;
}

static int net_warnings(const trim_neteval *ne, trim__warnings *ws)
{
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	mapped_set s;
	int rc = mapped_make(ne, &s);
	if (rc == 0)
		rc = trim__warnings_make(ws, s.views, s.name_ptr, s.n, info.arch);
	mapped_free(&s);
	return rc;
}

static double total_temporal(const trim_neteval *ne)
{
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	double exec = 0, cycles = 0;
	trim__wview v;
	for (size_t i = 0; i < info.n; i++)
		if (trim__neteval_view(ne, i, &v)) {
			exec += trim__wview_executed_macs(&v, info.arch);
			cycles += trim__wview_cycles(&v);
		}
	return cycles > 0 ? exec / (trim__arch_peak_macs_per_cycle(info.arch) * cycles) : 0;
}

/* ---- hooks of trim_neteval_report --------------------------------------------- */

void trim__netreport_workload_json(const trim_neteval *ne, size_t i, trim__sb *sb)
{
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	trim__wview v;
	if (!trim__neteval_view(ne, i, &v))
		return;
	double count[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], energy[TRIM__BD_SIZE(TRIM__MAX_LEVELS)];
	double level[TRIM__MAX_LEVELS], tensor[3];
	trim__breakdown(&v, info.arch, info.costs, count, energy);
	trim__breakdown_levels(info.arch, energy, level);
	trim__breakdown_tensors(info.arch, energy, tensor);
	trim__sb_puts(sb, ", \"temporal_utilization\": ");
	trim__sb_json_double(sb, trim__wview_temporal_util(&v, info.arch));
	trim__sb_puts(sb, ", \"compute_cycles\": ");
	trim__sb_json_double(sb, trim__wview_compute_cycles(&v, info.arch));
	trim__sb_puts(sb, ", \"energy_by_level\": {");
	for (int l = 0; l < info.arch->nlevels; l++) {
		trim__sb_puts(sb, l ? ", " : "");
		trim__sb_json_str(sb, info.arch->lv[l].name);
		trim__sb_puts(sb, ": ");
		trim__sb_json_double(sb, level[l]);
	}
	trim__sb_puts(sb, "}, \"energy_by_tensor\": {");
	for (int t = 0; t < 3; t++) {
		trim__sb_printf(sb, "%s\"%s\": ", t ? ", " : "", trim__slot_names[t]);
		trim__sb_json_double(sb, tensor[t]);
	}
	trim__sb_puts(sb, "}, \"breakdown\": ");
	trim__breakdown_json(v.w, info.arch, count, energy, sb);
}

void trim__netreport_totals_json(const trim_neteval *ne, trim__sb *sb)
{
	trim__sb_puts(sb, ", \"temporal_utilization\": ");
	trim__sb_json_double(sb, total_temporal(ne));
}

void trim__netreport_tail_json(const trim_neteval *ne, trim__sb *sb)
{
	trim__warnings ws;
	trim__sb_puts(sb, ",\n  \"warnings\": ");
	if (net_warnings(ne, &ws)) {
		sb->failed = 1; /* out of memory: the report fails as a whole */
		return;
	}
	trim__warnings_json(&ws, sb);
	trim__warnings_free(&ws);
}

double trim__netreport_temporal_util(const trim_neteval *ne, size_t i)
{
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	trim__wview v;
	return trim__neteval_view(ne, i, &v) ? trim__wview_temporal_util(&v, info.arch) : 0;
}

void trim__netreport_table_tail(const trim_neteval *ne, trim__sb *sb)
{
	trim__warnings ws;
	trim__sb_printf(sb, "temporal utilization (MACs / (PEs x cycles)) %.3f\n", total_temporal(ne));
	if (net_warnings(ne, &ws)) {
		sb->failed = 1;
		return;
	}
	if (ws.n)
		trim__sb_putc(sb, '\n');
	trim__warnings_table(&ws, sb);
	trim__warnings_free(&ws);
}

/* The name of a network evaluation's goal (TRIM_GOAL_*), as its other reports write it. */
static const char *goal_name(int goal)
{
	static const char *const names[] = {"energy", "delay", "edp"};
	return goal >= 0 && goal < 3 ? names[goal] : "?";
}

static const char *const nf_keys[] = {
	"cycles", "energy_pj", "edp", "pe_utilization", "active_pes", "dense_cycles",
	"dense_energy_pj", "static_pj", "macs", "generated", "valid", "evaluated", "mapped",
	"offchip_bytes", "temporal_utilization", "compute_cycles", "bottleneck_level",
	"lower_bound", "gap", "exact", "reused_from"};
_Static_assert(sizeof nf_keys / sizeof nf_keys[0] == TRIM_NF_COUNT, "a CSV column per TRIM_NF_* field");

void trim__netreport_csv(const trim_neteval *ne, trim__sb *sb)
{
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	const struct trim_arch *a = info.arch;
	const char *goal = goal_name(info.goal);
	trim__sb_puts(sb, "goal,index,layer,phase");
	for (int k = 0; k < TRIM_NF_COUNT; k++)
		trim__sb_printf(sb, ",%s", nf_keys[k]);
	trim__sb_puts(sb, ",bottleneck");
	for (int l = 0; l < a->nlevels; l++) {
		trim__sb_putc(sb, ',');
		char key[TRIM__ARCH_NAME_LEN + 8];
		snprintf(key, sizeof key, "%s_pj", a->lv[l].name);
		trim__sb_csv_str(sb, key);
	}
	trim__sb_putc(sb, '\n');
	for (size_t i = 0; i < info.n; i++) {
		trim__wview v;
		double f[TRIM_NF_COUNT];
		if (!trim__neteval_view(ne, i, &v) || trim_neteval_workload(ne, i, f, TRIM_NF_COUNT))
			continue;
		double energy[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], level[TRIM__MAX_LEVELS];
		trim__breakdown(&v, a, info.costs, NULL, energy);
		trim__breakdown_levels(a, energy, level);
		trim__sb_printf(sb, "%s,%zu,", goal, i);
		trim__sb_csv_str(sb, v.w->layer);
		trim__sb_printf(sb, ",%s", trim_phase_name(v.w->phase));
		for (int k = 0; k < TRIM_NF_COUNT; k++)
			trim__sb_printf(sb, ",%.17g", f[k]);
		trim__sb_putc(sb, ',');
		trim__sb_csv_str(sb, a->lv[(int)f[TRIM_NF_BOTTLENECK]].name);
		for (int l = 0; l < a->nlevels; l++)
			trim__sb_printf(sb, ",%.17g", level[l]);
		trim__sb_putc(sb, '\n');
	}
}

/* ---- public accessors ---------------------------------------------------------- */

double trim_neteval_temporal_utilization(const trim_neteval *ne)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, NAN);
	trim__neteval_info info;
	if (ne)
		trim__neteval_info_get(ne, &info);
	if (!ne || !info.finished) {
		trim__error(TRIM_EINVAL, "trim_neteval_temporal_utilization: not evaluated yet");
		return NAN;
	}
	return total_temporal(ne);
}

int trim_neteval_breakdown(const trim_neteval *ne, size_t i, double *counts, double *energy_pj, size_t n)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne)
		return trim__error(TRIM_EINVAL, "trim_neteval_breakdown: NULL handle");
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	size_t need = TRIM__BD_SIZE(info.arch->nlevels);
	if (n < need)
		return trim__error(TRIM_EBUFSIZE, "trim_neteval_breakdown: needs room for %zu values, got %zu",
		                   need, n);
	trim__wview v;
	if (i >= info.n || !trim__neteval_view(ne, i, &v))
		return trim__error(TRIM_ENOTFOUND, "trim_neteval_breakdown: workload %zu is not mapped", i);
	trim__breakdown(&v, info.arch, info.costs, counts, energy_pj);
	return 0;
}

int trim_neteval_inter(const trim_neteval *ne, size_t j, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !out)
		return trim__error(TRIM_EINVAL, "trim_neteval_inter: NULL argument");
	if (n < TRIM_NI_COUNT)
		return trim__error(TRIM_EBUFSIZE, "trim_neteval_inter: needs room for %d values, got %zu",
		                   TRIM_NI_COUNT, n);
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	if (!info.finished)
		return trim__error(TRIM_EINVAL, "trim_neteval_inter: not evaluated yet");
	if (j >= info.ninter)
		return trim__error(TRIM_ENOTFOUND, "trim_neteval_inter: no inter workload %zu (%zu in all)", j,
		                   info.ninter);
	const trim__inter_cost *ic = trim__neteval_inter_cost(ne, j);
	for (int k = 0; k < TRIM_NI_COUNT; k++)
		out[k] = 0;
	if (ic) {
		out[TRIM_NI_CYCLES] = ic->cycles;
		out[TRIM_NI_ENERGY_PJ] = ic->energy_pj;
		out[TRIM_NI_STATIC_PJ] = ic->static_pj;
		out[TRIM_NI_LEVEL] = ic->level;
		out[TRIM_NI_MAPPED] = 1;
	}
	return 0;
}

int trim_neteval_warnings(const trim_neteval *ne, char **out)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !out)
		return trim__error(TRIM_EINVAL, "trim_neteval_warnings: NULL argument");
	*out = NULL;
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	if (!info.finished)
		return trim__error(TRIM_EINVAL, "trim_neteval_warnings: not evaluated yet");
	trim__warnings ws;
	int rc = net_warnings(ne, &ws);
	if (rc)
		return rc;
	trim__sb sb;
	trim__sb_init(&sb);
	trim__warnings_json(&ws, &sb);
	trim__warnings_free(&ws);
	return trim__sb_take(&sb, out);
}

/* What a network breakdown report writes: the evaluation and its facts. */
typedef struct {
	const trim_neteval *ne;
	trim__neteval_info info;
} breakdown_source;

/* Workload i's counts and energy per level, tensor and action (trim__breakdown)
 * and its view *v: 0 when it is not mapped (no row), else 1. */
static int workload_breakdown(const breakdown_source *src, size_t i, trim__wview *v, double *count, double *energy)
{
	if (!trim__neteval_view(src->ne, i, v))
		return 0;
	trim__breakdown(v, src->info.arch, src->info.costs, count, energy);
	return 1;
}

/* The breakdown as CSV: one row per workload, level, tensor and action, then
 * one per costed inter-layer workload. */
static int breakdown_csv(const void *report, trim__sb *sb)
{
	const breakdown_source *src = report;
	const struct trim_arch *a = src->info.arch;
	const char *goal = goal_name(src->info.goal);
	trim__sb_puts(sb, "goal,index,layer,phase,level,tensor,action,count,energy_pj\n");
	for (size_t i = 0; i < src->info.n; i++) {
		trim__wview v;
		double count[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], energy[TRIM__BD_SIZE(TRIM__MAX_LEVELS)];
		if (!workload_breakdown(src, i, &v, count, energy))
			continue;
		trim__sb prefix;
		trim__sb_init(&prefix);
		trim__sb_printf(&prefix, "%s,%zu,", goal, i);
		trim__sb_csv_str(&prefix, v.w->layer);
		trim__sb_printf(&prefix, ",%s,", trim_phase_name(v.w->phase));
		trim__breakdown_csv(v.w, a, count, energy, prefix.buf ? prefix.buf : "", sb);
		trim__sb_free(&prefix);
	}
	for (size_t j = 0; j < src->info.ninter; j++) {
		const trim__inter_cost *ic = trim__neteval_inter_cost(src->ne, j);
		if (!ic)
			continue;
		trim__sb_printf(sb, "%s,inter%zu,", goal, j);
		trim__sb_csv_str(sb, trim_workloads_inter_layer(src->info.w, j));
		trim__sb_printf(sb, ",%s,", trim_inter_op_name(trim_workloads_inter_op(src->info.w, j)));
		trim__sb_csv_str(sb, a->lv[ic->level].name);
		trim__sb_printf(sb, ",all,inter,%.17g,%.17g\n", ic->cycles, ic->energy_pj);
	}
	return 0;
}

/* The breakdown as one JSON object: the goal, every mapped workload's
 * breakdown, every costed inter-layer workload. */
static int breakdown_json(const void *report, trim__sb *sb)
{
	const breakdown_source *src = report;
	const struct trim_arch *a = src->info.arch;
	trim__sb_printf(sb, "{\"goal\": \"%s\", \"workloads\": [", goal_name(src->info.goal));
	int first = 1;
	for (size_t i = 0; i < src->info.n; i++) {
		trim__wview v;
		double count[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], energy[TRIM__BD_SIZE(TRIM__MAX_LEVELS)];
		if (!workload_breakdown(src, i, &v, count, energy))
			continue;
		trim__sb_printf(sb, "%s\n  {\"index\": %zu, \"layer\": ", first ? "" : ",", i);
		trim__sb_json_str(sb, v.w->layer);
		trim__sb_printf(sb, ", \"phase\": \"%s\", \"breakdown\": ", trim_phase_name(v.w->phase));
		trim__breakdown_json(v.w, a, count, energy, sb);
		trim__sb_putc(sb, '}');
		first = 0;
	}
	trim__sb_puts(sb, "\n], \"inter\": [");
	first = 1;
	for (size_t j = 0; j < src->info.ninter; j++) {
		const trim__inter_cost *ic = trim__neteval_inter_cost(src->ne, j);
		if (!ic)
			continue;
		trim__sb_printf(sb, "%s\n  {\"index\": %zu, \"layer\": ", first ? "" : ",", j);
		trim__sb_json_str(sb, trim_workloads_inter_layer(src->info.w, j));
		trim__sb_printf(sb, ", \"op\": \"%s\", \"level\": ", trim_inter_op_name(trim_workloads_inter_op(src->info.w, j)));
		trim__sb_json_str(sb, a->lv[ic->level].name);
		trim__sb_puts(sb, ", \"energy_pj\": ");
		trim__sb_json_double(sb, ic->energy_pj);
		trim__sb_putc(sb, '}');
		first = 0;
	}
	trim__sb_puts(sb, "\n]}\n");
	return 0;
}

/* The writers of trim_neteval_breakdown_report, one per format. */
static const trim__writers breakdown_writers = {
	"trim_neteval_breakdown_report", {[TRIM_FORMAT_JSON] = breakdown_json, [TRIM_FORMAT_CSV] = breakdown_csv}};

int trim_neteval_breakdown_report(const trim_neteval *ne, int format, char **out)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !out)
		return trim__error(TRIM_EINVAL, "trim_neteval_breakdown_report: NULL argument");
	*out = NULL;
	int rc = trim__writers_check(&breakdown_writers, format);
	if (rc)
		return rc;
	breakdown_source src = {ne, {0}};
	trim__neteval_info_get(ne, &src.info);
	if (!src.info.finished)
		return trim__error(TRIM_EINVAL, "trim_neteval_breakdown_report: not evaluated yet");
	return trim__write_report(&breakdown_writers, format, &src, out);
}
