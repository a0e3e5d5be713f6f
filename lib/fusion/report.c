/*
 * The reports of a fusion plan and of an exploration's result (table, JSON).
 */
#include <stdio.h>

#include "fusion_int.h"

/* ---- reports ---------------------------------------------------------------- */

static void json_groups(trim__sb *sb, const trim_fusion *f, uint64_t cuts)
{
	trim__sb_putc(sb, '[');
	int open = 0;
	for (int i = 0; i < f->nl; i++) {
		if (!open) {
			trim__sb_puts(sb, i ? ", [" : "[");
			open = 1;
		} else {
			trim__sb_puts(sb, ", ");
		}
		trim__sb_json_str(sb, f->ly[i].name);
		if (i == f->nl - 1 || (cuts >> i & 1)) {
			trim__sb_putc(sb, ']');
			open = 0;
		}
	}
	trim__sb_putc(sb, ']');
}

static void text_groups(trim__sb *sb, const trim_fusion *f, uint64_t cuts)
{
	for (int i = 0; i < f->nl; i++) {
		trim__sb_puts(sb, f->ly[i].name);
		if (i < f->nl - 1)
			trim__sb_puts(sb, (cuts >> i & 1) ? " | " : ",");
	}
}

static void json_metrics(trim__sb *sb, const double *m)
{
	for (int k = 0; k < TRIM_FUSION_NMETRICS; k++) {
		trim__sb_printf(sb, ", \"%s\": ", trim__fusion_metric_names[k]);
		trim__sb_json_double(sb, m[k]);
	}
}

static void json_hardware(trim__sb *sb, const trim_fusion *f)
{
	trim__sb_puts(sb, "\"network\": ");
	trim__sb_json_str(sb, f->net);
	trim__sb_puts(sb, ", \"hardware\": ");
	trim__sb_json_str(sb, f->hw);
	trim__sb_puts(sb, ", \"chain\": [");
	for (int i = 0; i < f->nl; i++) {
		trim__sb_puts(sb, i ? ", " : "");
		trim__sb_json_str(sb, f->ly[i].name);
	}
	trim__sb_puts(sb, "], \"parallelism\": {");
	int first = 1;
	for (int i = 0; i < f->nl; i++) {
		if (f->ly[i].pool)
			continue;
		trim__sb_puts(sb, first ? "" : ", ");
		trim__sb_json_str(sb, f->ly[i].name);
		trim__sb_printf(sb, ": %lld", (long long)f->ly[i].P);
		first = 0;
	}
	trim__sb_puts(sb, "}, \"params\": {");
	for (int p = 0; p < TRIM_FUSION_NPARAMS; p++) {
		trim__sb_printf(sb, "%s\"%s\": ", p ? ", " : "", trim__fusion_param_names[p]);
		trim__sb_json_double(sb, f->prm[p]);
	}
	trim__sb_puts(sb, "}");
}

static void table_header(trim__sb *sb)
{
	trim__sb_printf(sb, "%5s %12s %10s %10s %8s %7s %12s %10s %12s  %s\n", "plan", "offchip_MB",
	                "fmap_MB", "weight_MB", "onchip_KB", "DSP", "BRAM36", "cycles", "energy_uJ",
	                "groups");
}

static void table_row(trim__sb *sb, const trim_fusion *f, const char *tag, uint64_t cuts,
                      const double *m)
{
	trim__sb_printf(sb, "%5s %12.3f %10.3f %10.3f %8.1f %7.0f %12.0f %10.0f %12.3f  ", tag,
	                m[TRIM_FUSION_OFFCHIP_BYTES] / 1048576.0,
	                m[TRIM_FUSION_OFFCHIP_FMAP_BYTES] / 1048576.0,
	                m[TRIM_FUSION_OFFCHIP_WEIGHT_BYTES] / 1048576.0,
	                m[TRIM_FUSION_ONCHIP_BUFFER_BYTES] / 1024.0, m[TRIM_FUSION_DSP],
	                m[TRIM_FUSION_BRAM36], m[TRIM_FUSION_CYCLES], m[TRIM_FUSION_ENERGY_PJ] * 1e-6);
	text_groups(sb, f, cuts);
	trim__sb_putc(sb, '\n');
}

/* One fusion plan as a JSON object: the hardware, its groups, its metrics
 * and each group's, and every layer's buffers and timing. */
static int plan_json(const void *report, trim__sb *sb)
{
	const trim_fusion_plan *p = report;
	const trim_fusion *f = &p->f;
	trim__sb_puts(sb, "{");
	json_hardware(sb, f);
	trim__sb_printf(sb, ", \"cuts\": %llu, \"groups\": ", (unsigned long long)p->cuts);
	json_groups(sb, f, p->cuts);
	json_metrics(sb, p->m);
	trim__sb_puts(sb, ", \"group_metrics\": [");
	for (int g = 0; g < p->ng; g++) {
		trim__sb_printf(sb, "%s{\"first\": ", g ? ", " : "");
		trim__sb_json_str(sb, f->ly[p->gfirst[g]].name);
		trim__sb_puts(sb, ", \"last\": ");
		trim__sb_json_str(sb, f->ly[p->glast[g]].name);
		json_metrics(sb, p->gm[g]);
		trim__sb_puts(sb, "}");
	}
	trim__sb_puts(sb, "], \"layers\": [");
	for (int i = 0; i < f->nl; i++) {
		fu_lq q;
		trim__fusion_layer_q(f, i, &q);
		trim__sb_printf(sb, "%s{\"name\": ", i ? ", " : "");
		trim__sb_json_str(sb, f->ly[i].name);
		trim__sb_printf(sb, ", \"line_buffer_words\": %.17g, \"window_words\": %.17g, "
		                "\"pool_buffer_words\": %.17g, \"weight_words\": %.17g, "
		                "\"macs_parallel\": %.17g, \"passes\": %.17g, \"fill_slots\": "
		                "%.17g, \"pipeline_cycles\": %.17g, \"first_output\": %.17g, "
		                "\"last_output\": %.17g, \"pace\": %.17g}",
		                q.line, q.window, q.poolbuf, q.weights, q.macs_par, q.passes,
		                q.fill, q.delta, p->t[i][0], p->t[i][1], p->t[i][2]);
	}
	trim__sb_puts(sb, "]}\n");
	return 0;
}

/* One fusion plan as a table for people: its metrics, then every layer's
 * buffers and timing. */
static int plan_table(const void *report, trim__sb *sb)
{
	const trim_fusion_plan *p = report;
	const trim_fusion *f = &p->f;
	trim__sb_printf(sb, "fusion plan of %s on %s: %d groups\n", f->net,
	                f->hw[0] ? f->hw : "(no hardware)", p->ng);
	table_header(sb);
	table_row(sb, f, "plan", p->cuts, p->m);
	trim__sb_printf(sb, "\n%-12s %10s %10s %10s %8s %8s %10s %12s %12s %10s\n", "layer",
	                "line_w", "window_w", "pool_w", "weight_w", "MACs//", "passes",
	                "first_out", "last_out", "pace");
	for (int i = 0; i < f->nl; i++) {
		fu_lq q;
		trim__fusion_layer_q(f, i, &q);
		trim__sb_printf(sb, "%-12s %10.0f %10.0f %10.0f %8.0f %8.0f %10.0f %12.0f %12.0f "
		                "%10.0f\n", f->ly[i].name, q.line, q.window, q.poolbuf, q.weights,
		                q.macs_par, q.passes, p->t[i][0], p->t[i][1], p->t[i][2]);
	}
	return 0;
}

/* The writers of trim_fusion_plan_report, one per format. */
static const trim__writers plan_writers = {
	"trim_fusion_plan_report", {[TRIM_FORMAT_TABLE] = plan_table, [TRIM_FORMAT_JSON] = plan_json}};

TRIM_API int trim_fusion_plan_report(const trim_fusion_plan *p, int format, char **out)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_report: NULL argument");
	*out = NULL;
	return trim__write_report(&plan_writers, format, p, out);
}

static void json_plan(trim__sb *sb, const trim_fusion_result *r, size_t i)
{
	trim__sb_printf(sb, "{\"index\": %zu, \"cuts\": %llu, \"groups\": ", i,
	                (unsigned long long)r->cuts[i]);
	json_groups(sb, &r->f, r->cuts[i]);
	json_metrics(sb, r->m + i * TRIM_FUSION_NMETRICS);
	trim__sb_putc(sb, '}');
}

/* The fusion result as a JSON object: the hardware, how the partitions were
 * searched, every plan kept, the Pareto set, the best plan and layer by layer. */
static int result_json(const void *report, trim__sb *sb)
{
	const trim_fusion_result *r = report;
	const trim_fusion *f = &r->f;
	trim__sb_puts(sb, "{");
	json_hardware(sb, f);
	trim__sb_printf(sb, ",\n \"goal\": \"%s\", \"method\": \"%s\", \"considered\": %llu, "
	                "\"over_budget\": %llu,\n \"plans\": [", trim__fusion_goal_names[r->goal],
	                r->dp ? "dynamic-programming" : "enumeration",
	                (unsigned long long)r->considered, (unsigned long long)r->over_budget);
	for (size_t i = 0; i < r->n; i++) {
		trim__sb_puts(sb, i ? ",\n  " : "\n  ");
		json_plan(sb, r, i);
	}
	trim__sb_puts(sb, "],\n \"pareto\": [");
	for (size_t k = 0; k < r->np; k++)
		trim__sb_printf(sb, "%s%zu", k ? ", " : "", r->pareto[k]);
	trim__sb_puts(sb, "],\n \"best\": ");
	json_plan(sb, r, (size_t)r->best);
	trim__sb_puts(sb, ",\n \"layer_by_layer\": ");
	if (r->lbl >= 0)
		json_plan(sb, r, (size_t)r->lbl);
	else
		trim__sb_puts(sb, "null");
	trim__sb_puts(sb, "}\n");
	return 0;
}

/* The fusion result as a table for people: the Pareto set, the best plan
 * marked, and layer by layer. */
static int result_table(const void *report, trim__sb *sb)
{
	const trim_fusion_result *r = report;
	const trim_fusion *f = &r->f;
	trim__sb_printf(sb, "fusion of %s, chain %s..%s (%d layers) on %s\n", f->net,
	                f->ly[0].name, f->ly[f->nl - 1].name, f->nl,
	                f->hw[0] ? f->hw : "(no hardware)");
	trim__sb_printf(sb, "%s: %llu partitions considered, %llu over the DSP budget "
	                "(%.17g), %zu plans kept; best for %s: plan %lld\n",
	                r->dp ? "dynamic programming" : "enumeration",
	                (unsigned long long)r->considered, (unsigned long long)r->over_budget,
	                f->prm[TRIM_FUSION_BUDGET_DSP], r->n, trim__fusion_goal_names[r->goal],
	                (long long)r->best);
	trim__sb_puts(sb, "\nPareto set (off-chip bytes, MACs, on-chip bytes, cycles), by "
	                  "DSP:\n");
	table_header(sb);
	for (size_t k = 0; k < r->np; k++) {
		char tag[32];
		size_t i = r->pareto[k];
		snprintf(tag, sizeof tag, "%s%zu", (int64_t)i == r->best ? "*" : "", i);
		table_row(sb, f, tag, r->cuts[i], r->m + i * TRIM_FUSION_NMETRICS);
	}
	if (r->lbl >= 0) {
		trim__sb_puts(sb, "\nlayer by layer (every layer its own group):\n");
		table_row(sb, f, "lbl", r->cuts[r->lbl], r->m + (size_t)r->lbl * TRIM_FUSION_NMETRICS);
	}
	return 0;
}

/* The writers of trim_fusion_result_report, one per format. */
static const trim__writers result_writers = {
	"trim_fusion_result_report", {[TRIM_FORMAT_TABLE] = result_table, [TRIM_FORMAT_JSON] = result_json}};

TRIM_API int trim_fusion_result_report(const trim_fusion_result *r, int format, char **out)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_report: NULL argument");
	*out = NULL;
	return trim__write_report(&result_writers, format, r, out);
}
