/*
 * The explorer's reports beyond its figures (docs/guide.md, "Reports"):
 * temporal utilisation and warnings of every valid point, the per-workload
 * CSV with bottleneck and energy by level. The hooks trim_explorer_report
 * and trim_explorer_write call; every figure comes from the point's
 * mappings evaluated again (lib/explore/detail.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explore_int.h"
#include "xdetail_int.h"

static double detail_temporal(const trim__xdetail *d)
{
	double exec = 0, cycles = 0;
	for (size_t j = 0; j < d->n; j++) {
		exec += trim__wview_executed_macs(&d->views[j], d->arch);
		cycles += trim__wview_cycles(&d->views[j]);
	}
	return cycles > 0 ? exec / (trim__arch_peak_macs_per_cycle(d->arch) * cycles) : 0;
}

double trim__xreport_temporal(const trim_explorer *ex, size_t i)
{
	trim__xdetail d;
	if (i >= ex->n || !ex->pt[i].valid || trim__xdetail_make(ex, i, &d))
		return NAN;
	double u = detail_temporal(&d);
	trim__xdetail_free(&d);
	return u;
}

void trim__xreport_point_json(const trim_explorer *ex, size_t i, trim__sb *sb)
{
	if (i >= ex->n || !ex->pt[i].valid || sb->len == 0 || sb->buf[sb->len - 1] != '}')
		return;
	trim__xdetail d;
	trim__warnings ws;
	if (trim__xdetail_make(ex, i, &d)) {
		sb->failed = 1;
		return;
	}
	if (trim__xdetail_warnings(&d, &ws)) {
		trim__xdetail_free(&d);
		sb->failed = 1;
		return;
	}
	sb->buf[--sb->len] = '\0';
	trim__sb_puts(sb, ", \"temporal_utilization\": ");
	trim__sb_json_double(sb, detail_temporal(&d));
	trim__sb_puts(sb, ", \"warnings\": ");
	trim__warnings_json(&ws, sb);
	trim__sb_putc(sb, '}');
	trim__warnings_free(&ws);
	trim__xdetail_free(&d);
}

void trim__xreport_table_tail(const trim_explorer *ex, trim__sb *sb)
{
	if (ex->nranked == 0)
		return;
	size_t best = ex->order[0];
	trim__xdetail d;
	trim__warnings ws;
	if (trim__xdetail_make(ex, best, &d)) {
		sb->failed = 1;
		return;
	}
	if (trim__xdetail_warnings(&d, &ws)) {
		trim__xdetail_free(&d);
		sb->failed = 1;
		return;
	}
	trim__sb_printf(sb, "\nbest point %s: temporal utilization (MACs / (PEs x cycles)) %.3f\n",
	                trim_space_point_name(ex->space, best), detail_temporal(&d));
	trim__warnings_table(&ws, sb);
	trim__warnings_free(&ws);
	trim__xdetail_free(&d);
}

void trim__xreport_workloads_csv(const trim_explorer *ex, trim__sb *sb)
{
	const char *goal = trim_explore_goal_name(ex->goal);
	trim__sb_puts(sb, "goal,point,layer,phase,cycles,energy_pj,dense_cycles,dense_energy_pj,active_pes,"
	                  "pe_utilization,temporal_utilization,compute_cycles,bottleneck");
	/* the points of a space share the base's levels */
	const trim__xpoint *first = NULL;
	for (size_t i = 0; i < ex->n && !first; i++)
		if (ex->pt[i].valid)
			first = &ex->pt[i];
	for (int l = 0; first && l < first->nlevels; l++) {
		char key[TRIM__ARCH_NAME_LEN + 8];
		snprintf(key, sizeof key, "%s_pj", first->level_name[l]);
		trim__sb_putc(sb, ',');
		trim__sb_csv_str(sb, key);
	}
	trim__sb_putc(sb, '\n');
	for (size_t i = 0; i < ex->n; i++) {
		const trim__xpoint *p = &ex->pt[i];
		if (!p->valid)
			continue;
		trim__xdetail d;
		if (trim__xdetail_make(ex, i, &d)) {
			sb->failed = 1;
			return;
		}
		for (size_t j = 0; j < d.n; j++) {
			const trim__wview *v = &d.views[j];
			const trim__xworkload *x = &p->wl[d.index[j]];
			double energy[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], level[TRIM__MAX_LEVELS];
			trim__breakdown(v, d.arch, d.costs, NULL, energy);
			trim__breakdown_levels(d.arch, energy, level);
			trim__sb_printf(sb, "%s,", goal);
			trim__sb_csv_str(sb, trim_space_point_name(ex->space, i));
			trim__sb_putc(sb, ',');
			trim__sb_csv_str(sb, x->layer);
			trim__sb_printf(sb, ",%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,", trim_phase_name(x->phase),
			                x->cycles, x->energy, x->dense_cycles, x->dense_energy, x->active_pes, x->pe_util,
			                trim__wview_temporal_util(v, d.arch), trim__wview_compute_cycles(v, d.arch));
			trim__sb_csv_str(sb, d.arch->lv[trim__wview_bottleneck(v, d.arch)].name);
			for (int l = 0; l < d.arch->nlevels; l++)
				trim__sb_printf(sb, ",%.17g", level[l]);
			trim__sb_putc(sb, '\n');
		}
		trim__xdetail_free(&d);
	}
}
