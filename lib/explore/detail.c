/*
 * Per-workload figures of an explorer's points (docs/guide.md, "Reports"):
 * a point keeps the best mapping of every workload (also in its point file,
 * so resumed points have them too); the figures, breakdowns and warnings
 * are evaluated again from those mappings, exactly as the network
 * evaluation evaluated them (the same evaluator, the same sparse
 * adjustment): the same numbers, at the cost of one evaluation per
 * workload, no search.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/energy_int.h"
#include "eval/eval_int.h"
#include "explore_int.h"
#include "report/html_int.h"
#include "xdetail_int.h"
#include "trim/energy.h"
#include "trim/mapping.h"
#include "trim/neteval.h"
#include "trim/search.h"
#include "trim/sparsity.h"
#include "util/handle.h"
#include "workload/workload_int.h"

void trim__xdetail_free(trim__xdetail *d)
{
	if (!d)
		return;
	trim_arch_free(d->arch);
	free(d->m);
	free(d->dense);
	free(d->sp);
	free(d->views);
	free(d->index);
	memset(d, 0, sizeof *d);
}

static int sparse_hardware(const struct trim_arch *a)
{
	const trim__level *L = &a->lv[a->nlevels - 1];
	return L->zero_gate || L->zero_skip || L->bw_output_skip;
}

int trim__xdetail_make(const trim_explorer *ex, size_t i, trim__xdetail *d)
{
	memset(d, 0, sizeof *d);
	if (i >= ex->n || !ex->pt[i].done)
		return trim__error(TRIM_EINVAL, "point %zu is not evaluated", i);
	const trim__xpoint *p = &ex->pt[i];
	if (!p->valid)
		return trim__error(TRIM_ENOTFOUND, "point %s is invalid: %s", trim_space_point_name(ex->space, i),
		                   p->error);
	trim_energy *table = NULL;
	trim_sparsity *spy = NULL;
	trim__eval_ws ws = {0};
	trim_mapping *m = NULL;
	size_t cap = p->nw ? p->nw : 1;
	int rc = trim_space_point_arch(ex->space, i, &d->arch);
	if (rc == 0)
		rc = trim_energy_load_for_arch(&table, d->arch);
	if (rc == 0)
		rc = trim__arch_costs(d->arch, table, d->costs);
	if (rc == 0)
		rc = trim_sparsity_create(&spy, ex->net, ex->w);
	if (rc == 0) {
		d->m = trim__calloc(cap, sizeof *d->m);
		d->dense = trim__calloc(cap, sizeof *d->dense);
		d->sp = trim__calloc(cap, sizeof *d->sp);
		d->views = trim__calloc(cap, sizeof *d->views);
		d->index = trim__calloc(cap, sizeof *d->index);
		if (!d->m || !d->dense || !d->sp || !d->views || !d->index)
			rc = TRIM_ENOMEM;
	}
	int use_sparse = ex->sparsity && d->arch && sparse_hardware(d->arch);
	for (size_t k = 0; rc == 0 && k < p->nw; k++) {
		const trim__intra *x = trim__workloads_intra(ex->w, k);
		if (!x || !p->wl[k].mapping || !p->wl[k].mapping[0])
			continue; /* not mapped (a layer range) */
		char name[96];
		snprintf(name, sizeof name, "%s %s mapping", x->layer, trim_phase_name(x->phase));
		if ((rc = trim_mapping_load_string(&m, d->arch, p->wl[k].mapping, name)))
			break;
		size_t j = d->n;
		d->m[j] = *m;
		trim_mapping_free(m);
		m = NULL;
		if ((rc = trim__eval_run(x, d->arch, d->costs, &d->m[j], &ws, &d->dense[j])))
			break;
		double f[TRIM_SP_NFIELDS];
		if ((rc = trim_sparsity_workload(spy, k, f, TRIM_SP_NFIELDS)))
			break;
		if (!use_sparse)
			for (int q = 0; q < TRIM_SP_FACTOR; q++)
				f[q] = 0;
		if ((rc = trim__sparse_adjust(x, d->arch, d->costs, &d->m[j], &d->dense[j], f, &d->sp[j])))
			break;
		d->views[j] = (trim__wview){x, &d->m[j], &d->dense[j], &d->sp[j]};
		d->index[j] = k;
		d->n++;
	}
	trim_mapping_free(m);
	trim__eval_ws_free(&ws);
	trim_sparsity_free(spy);
	trim_energy_free(table);
	if (rc) {
		trim__error_prefix(trim_space_point_name(ex->space, i));
		trim__xdetail_free(d);
	}
	return rc;
}

/* Point i's view of intra workload k, or -1 (TRIM_ENOTFOUND set). */
static long find(const trim__xdetail *d, size_t k)
{
	for (size_t j = 0; j < d->n; j++)
		if (d->index[j] == k)
			return (long)j;
	trim__error(TRIM_ENOTFOUND, "workload %zu was not mapped", k);
	return -1;
}

int trim_explorer_workload(const trim_explorer *ex, size_t i, size_t k, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !out)
		return trim__error(TRIM_EINVAL, "trim_explorer_workload: NULL argument");
	if (n < TRIM_NF_COUNT)
		return trim__error(TRIM_EBUFSIZE, "trim_explorer_workload: needs room for %d values, got %zu",
		                   TRIM_NF_COUNT, n);
	trim__xdetail d;
	int rc = trim__xdetail_make(ex, i, &d);
	if (rc)
		return rc;
	long j = find(&d, k);
	if (j < 0) {
		trim__xdetail_free(&d);
		return TRIM_ENOTFOUND;
	}
	const trim__wview *v = &d.views[j];
	const trim__xworkload *x = &ex->pt[i].wl[k];
	const struct trim_arch *a = d.arch;
	for (int q = 0; q < TRIM_NF_COUNT; q++)
		out[q] = NAN; /* what the explorer does not keep: the search's counts */
	out[TRIM_NF_CYCLES] = x->cycles;
	out[TRIM_NF_ENERGY_PJ] = x->energy;
	out[TRIM_NF_EDP] = x->cycles * x->energy;
	out[TRIM_NF_PE_UTILIZATION] = v->dense->pe_util;
	out[TRIM_NF_ACTIVE_PES] = (double)v->dense->act.active_pes;
	out[TRIM_NF_DENSE_CYCLES] = x->dense_cycles;
	out[TRIM_NF_DENSE_ENERGY_PJ] = x->dense_energy;
	out[TRIM_NF_STATIC_PJ] = v->sp->static_pj;
	out[TRIM_NF_MACS] = (double)v->dense->act.macs;
	out[TRIM_NF_MAPPED] = 1;
	const trim__activity *act = &v->dense->act;
	double words = 0;
	for (int t = 0; t < 3; t++)
		words += (double)(act->reads[0][t] + act->updates[0][t] + act->fills[0][t] + act->drains[0][t]);
	int bits = a->lv[0].word_bits > 0 ? a->lv[0].word_bits : a->word_bits;
	out[TRIM_NF_OFFCHIP_BYTES] = words * bits / 8;
	out[TRIM_NF_TEMPORAL_UTILIZATION] = trim__wview_temporal_util(v, a);
	out[TRIM_NF_COMPUTE_CYCLES] = trim__wview_compute_cycles(v, a);
	out[TRIM_NF_BOTTLENECK] = trim__wview_bottleneck(v, a);
	/* what its search proved, kept by the point: its lower bound on the
	 * search goal's (dense) cost and the gap of its mapping's cost above it */
	int goal = trim__explore_search_goal(ex->goal);
	double cost = goal == TRIM_GOAL_ENERGY  ? x->dense_energy
	              : goal == TRIM_GOAL_DELAY ? x->dense_cycles
	                                        : x->dense_energy * x->dense_cycles;
	out[TRIM_NF_EXACT] = x->exact;
	out[TRIM_NF_LOWER_BOUND] = x->lower_bound;
	out[TRIM_NF_GAP] = x->exact ? 0 : cost > 0 && cost > x->lower_bound ? (cost - x->lower_bound) / cost : 0;
	trim__xdetail_free(&d);
	return 0;
}

int trim_explorer_breakdown(const trim_explorer *ex, size_t i, size_t k, double *counts, double *energy_pj,
                            size_t n)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex)
		return trim__error(TRIM_EINVAL, "trim_explorer_breakdown: NULL handle");
	trim__xdetail d;
	int rc = trim__xdetail_make(ex, i, &d);
	if (rc)
		return rc;
	size_t need = TRIM__BD_SIZE(d.arch->nlevels);
	long j = find(&d, k);
	if (n < need)
		rc = trim__error(TRIM_EBUFSIZE, "trim_explorer_breakdown: needs room for %zu values, got %zu", need, n);
	else if (j < 0)
		rc = TRIM_ENOTFOUND;
	else
		trim__breakdown(&d.views[j], d.arch, d.costs, counts, energy_pj);
	trim__xdetail_free(&d);
	return rc;
}

int trim__xdetail_warnings(const trim__xdetail *d, trim__warnings *ws)
{
	const char **names = trim__calloc(d->n ? d->n : 1, sizeof *names);
	char(*buf)[96] = trim__calloc(d->n ? d->n : 1, sizeof *buf);
	int rc = names && buf ? 0 : TRIM_ENOMEM;
	for (size_t k = 0; rc == 0 && k < d->n; k++) {
		snprintf(buf[k], sizeof buf[k], "%s %s", d->views[k].w->layer, trim_phase_name(d->views[k].w->phase));
		names[k] = buf[k];
	}
	if (rc == 0)
		rc = trim__warnings_make(ws, d->views, names, d->n, d->arch);
	free(names);
	free(buf);
	return rc;
}

int trim_explorer_warnings(const trim_explorer *ex, size_t i, char **out)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !out)
		return trim__error(TRIM_EINVAL, "trim_explorer_warnings: NULL argument");
	*out = NULL;
	trim__xdetail d;
	trim__warnings ws;
	int rc = trim__xdetail_make(ex, i, &d);
	if (rc)
		return rc;
	rc = trim__xdetail_warnings(&d, &ws);
	trim__xdetail_free(&d);
	if (rc)
		return rc;
	trim__sb sb;
	trim__sb_init(&sb);
	trim__warnings_json(&ws, &sb);
	trim__warnings_free(&ws);
	return trim__sb_take(&sb, out);
}

/* The breakdown as CSV: one row per valid point, workload, level, tensor and action. */
static int breakdown_csv(const void *report, trim__sb *sb)
{
	const trim_explorer *ex = report;
	const char *goal = trim_explore_goal_name(ex->goal);
	trim__sb_puts(sb, "goal,point,index,layer,phase,level,tensor,action,count,energy_pj\n");
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < ex->n; i++) {
		if (!ex->pt[i].valid)
			continue;
		trim__xdetail d;
		if ((rc = trim__xdetail_make(ex, i, &d)))
			break;
		const char *pname = trim_space_point_name(ex->space, i);
		for (size_t j = 0; j < d.n; j++) {
			const trim__wview *v = &d.views[j];
			double count[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], energy[TRIM__BD_SIZE(TRIM__MAX_LEVELS)];
			trim__breakdown(v, d.arch, d.costs, count, energy);
			trim__sb prefix;
			trim__sb_init(&prefix);
			trim__sb_printf(&prefix, "%s,", goal);
			trim__sb_csv_str(&prefix, pname);
			trim__sb_printf(&prefix, ",%zu,", d.index[j]);
			trim__sb_csv_str(&prefix, v->w->layer);
			trim__sb_printf(&prefix, ",%s,", trim_phase_name(v->w->phase));
			trim__breakdown_csv(v->w, d.arch, count, energy, prefix.buf ? prefix.buf : "", sb);
			trim__sb_free(&prefix);
		}
		trim__xdetail_free(&d);
	}
	return rc;
}

/* The breakdown as one JSON object: the goal, then every valid point with
 * every workload's breakdown. */
static int breakdown_json(const void *report, trim__sb *sb)
{
	const trim_explorer *ex = report;
	trim__sb_printf(sb, "{\"goal\": \"%s\", \"points\": [", trim_explore_goal_name(ex->goal));
	int rc = 0, first_point = 1;
	for (size_t i = 0; rc == 0 && i < ex->n; i++) {
		if (!ex->pt[i].valid)
			continue;
		trim__xdetail d;
		if ((rc = trim__xdetail_make(ex, i, &d)))
			break;
		trim__sb_printf(sb, "%s\n {\"name\": ", first_point ? "" : ",");
		trim__sb_json_str(sb, trim_space_point_name(ex->space, i));
		trim__sb_puts(sb, ", \"workloads\": [");
		first_point = 0;
		for (size_t j = 0; j < d.n; j++) {
			const trim__wview *v = &d.views[j];
			double count[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], energy[TRIM__BD_SIZE(TRIM__MAX_LEVELS)];
			trim__breakdown(v, d.arch, d.costs, count, energy);
			trim__sb_printf(sb, "%s\n  {\"index\": %zu, \"layer\": ", j ? "," : "", d.index[j]);
			trim__sb_json_str(sb, v->w->layer);
			trim__sb_printf(sb, ", \"phase\": \"%s\", \"breakdown\": ", trim_phase_name(v->w->phase));
			trim__breakdown_json(v->w, d.arch, count, energy, sb);
			trim__sb_putc(sb, '}');
		}
		trim__sb_puts(sb, "]}");
		trim__xdetail_free(&d);
	}
	trim__sb_puts(sb, "\n]}\n");
	return rc;
}

/* The writers of trim_explorer_breakdown_report, one per format. */
static const trim__writers breakdown_writers = {
	"trim_explorer_breakdown_report", {[TRIM_FORMAT_JSON] = breakdown_json, [TRIM_FORMAT_CSV] = breakdown_csv}};

int trim_explorer_breakdown_report(const trim_explorer *ex, int format, char **out)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !out)
		return trim__error(TRIM_EINVAL, "trim_explorer_breakdown_report: NULL argument");
	*out = NULL;
	int rc = trim__writers_check(&breakdown_writers, format);
	if (rc)
		return rc;
	if (!ex->ranked)
		return trim__error(TRIM_EINVAL, "trim_explorer_breakdown_report: the exploration has not finished");
	return trim__write_report(&breakdown_writers, format, ex, out);
}

/* The inter-layer workloads of point i's detail, costed as its network
 * evaluation costs them (the cache plan, the intra workloads' cycles). */
static int html_inter(const trim_explorer *ex, const trim__xdetail *d, trim__html_inter **out, size_t *n)
{
	size_t ni = trim_workloads_inter_count(ex->w), nw = trim_workloads_intra_count(ex->w);
	double *cycles = trim__calloc(nw ? nw : 1, sizeof *cycles);
	*out = trim__calloc(ni ? ni : 1, sizeof **out);
	*n = 0;
	trim__cache_plan plan;
	int rc = cycles && *out ? trim__cache_plan_make(&plan, ex->w, d->arch, TRIM__CACHE_ONCHIP_FRACTION) : TRIM_ENOMEM;
	if (rc) {
		free(cycles);
		return rc;
	}
	for (size_t k = 0; k < d->n; k++)
		cycles[d->index[k]] = trim__wview_cycles(&d->views[k]);
	for (size_t j = 0; j < ni && rc == 0; j++) {
		trim__inter_cost c;
		if ((rc = trim__inter_cost_eval(ex->w, j, d->arch, d->costs, &plan, cycles, &c)))
			break;
		trim__html_inter *x = &(*out)[(*n)++];
		snprintf(x->label, sizeof x->label, "%s %s", trim_workloads_inter_layer(ex->w, j),
		         trim_inter_op_name(trim_workloads_inter_op(ex->w, j)));
		x->cycles = c.cycles;
		x->energy_pj = c.energy_pj;
		x->level = c.level;
	}
	trim__cache_plan_free(&plan);
	free(cycles);
	return rc;
}

int trim_explorer_write_html(const trim_explorer *ex, const char *path)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !path)
		return trim__error(TRIM_EINVAL, "trim_explorer_write_html: NULL argument");
	if (!ex->ranked)
		return trim__error(TRIM_EINVAL, "trim_explorer_write_html: the exploration has not finished");
	char *report = NULL;
	int rc = trim_explorer_report(ex, TRIM_FORMAT_JSON, &report);
	if (rc)
		return rc;
	trim__sb data;
	trim__sb_init(&data);
	char title[256];
	snprintf(title, sizeof title, "libtrim: %s over %s", trim_network_name(ex->net), trim_space_name(ex->space));
	trim__sb_puts(&data, "{\"kind\": \"explore\", \"title\": ");
	trim__sb_json_str(&data, title);
	char sub[256];
	snprintf(sub, sizeof sub, "%s, goal %s, %zu points", trim_mode_name(trim_workloads_mode(ex->w)),
	         trim_explore_goal_name(ex->goal), ex->n);
	trim__sb_puts(&data, ", \"subtitle\": ");
	trim__sb_json_str(&data, sub);
	/* the explorer's report object, spliced in after its opening brace */
	trim__sb_printf(&data, ", %s", report + 1);
	while (data.len > 0 && (data.buf[data.len - 1] == '\n' || data.buf[data.len - 1] == '}'))
		data.buf[--data.len] = '\0';
	trim__sb_puts(&data, ", \"details\": {");
	int first = 1;
	for (size_t i = 0; rc == 0 && i < ex->n; i++) {
		if (!ex->pt[i].valid)
			continue;
		trim__xdetail d;
		if ((rc = trim__xdetail_make(ex, i, &d)))
			break;
		const trim__xpoint *p = &ex->pt[i];
		trim__html_inter *inter = NULL;
		size_t ninter = 0;
		if ((rc = html_inter(ex, &d, &inter, &ninter))) {
			free(inter);
			trim__xdetail_free(&d);
			break;
		}
		trim__html_detail hd = {d.arch, d.costs, d.views, d.index, d.n, p->f[TRIM_XF_CYCLES],
		                        p->f[TRIM_XF_ENERGY_PJ], p->f[TRIM_XF_PE_UTILIZATION], inter, ninter};
		trim__sb_printf(&data, "%s\n\"%zu\": {\"name\": ", first ? "" : ",", i);
		trim__sb_json_str(&data, trim_space_point_name(ex->space, i));
		trim__sb_printf(&data, ", \"rank\": %.0f, \"detail\": ", p->f[TRIM_XF_RANK]);
		rc = trim__html_detail_json(&hd, &data);
		trim__sb_putc(&data, '}');
		first = 0;
		free(inter);
		trim__xdetail_free(&d);
	}
	trim__sb_puts(&data, "}}");
	if (rc == 0)
		rc = trim__html_write(path, title, &data);
	trim__sb_free(&data);
	trim_string_free(report);
	return rc;
}
