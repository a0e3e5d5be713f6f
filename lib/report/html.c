/* Data of the HTML report of a network evaluation (docs/guide.md, "Reports"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neteval/neteval_int.h"
#include "html_int.h"
#include "trim/workload.h"
#include "util/handle.h"

int trim__html_detail_json(const trim__html_detail *d, trim__sb *sb)
{
	const struct trim_arch *a = d->arch;
	trim__sb_puts(sb, "{\"levels\": [");
	for (int l = 0; l < a->nlevels; l++) {
		trim__sb_puts(sb, l ? ", " : "");
		trim__sb_json_str(sb, a->lv[l].name);
	}
	trim__sb_puts(sb, "], \"workloads\": [");
	double exec = 0, cycles = 0;
	for (size_t k = 0; k < d->n; k++) {
		const trim__wview *v = &d->views[k];
		double energy[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], level[TRIM__MAX_LEVELS], tensor[3];
		trim__breakdown(v, a, d->costs, NULL, energy);
		trim__breakdown_levels(a, energy, level);
		trim__breakdown_tensors(a, energy, tensor);
		exec += trim__wview_executed_macs(v, a);
		cycles += trim__wview_cycles(v);
		trim__sb_printf(sb, "%s\n{\"index\": %zu, \"layer\": ", k ? "," : "", d->index[k]);
		trim__sb_json_str(sb, v->w->layer);
		trim__sb_printf(sb, ", \"phase\": \"%s\", \"cycles\": ", trim_phase_name(v->w->phase));
		trim__sb_json_double(sb, trim__wview_cycles(v));
		trim__sb_puts(sb, ", \"energy_pj\": ");
		trim__sb_json_double(sb, trim__wview_energy(v));
		trim__sb_puts(sb, ", \"compute_cycles\": ");
		trim__sb_json_double(sb, trim__wview_compute_cycles(v, a));
		trim__sb_puts(sb, ", \"pe_utilization\": ");
		trim__sb_json_double(sb, v->dense->pe_util);
		trim__sb_puts(sb, ", \"temporal_utilization\": ");
		trim__sb_json_double(sb, trim__wview_temporal_util(v, a));
		trim__sb_puts(sb, ", \"bottleneck\": ");
		trim__sb_json_str(sb, a->lv[trim__wview_bottleneck(v, a)].name);
		trim__sb_puts(sb, ", \"energy_by_level\": {");
		for (int l = 0; l < a->nlevels; l++) {
			trim__sb_puts(sb, l ? ", " : "");
			trim__sb_json_str(sb, a->lv[l].name);
			trim__sb_puts(sb, ": ");
			trim__sb_json_double(sb, level[l]);
		}
		trim__sb_puts(sb, "}, \"energy_by_tensor\": {");
		for (int t = 0; t < 3; t++) {
			trim__sb_printf(sb, "%s\"%s\": ", t ? ", " : "", trim__slot_names[t]);
			trim__sb_json_double(sb, tensor[t]);
		}
		trim__sb nest;
		trim__sb_init(&nest);
		trim__mapping_loopnest(v->m, v->w, &nest);
		trim__sb_puts(sb, "}, \"loopnest\": ");
		trim__sb_json_str(sb, nest.buf ? nest.buf : "");
		trim__sb_free(&nest);
		trim__sb_init(&nest);
		trim__html_tiles_svg(v->m, v->w, a, &nest);
		trim__sb_puts(sb, ", \"tiles\": ");
		trim__sb_json_str(sb, nest.buf ? nest.buf : "");
		if (nest.failed)
			sb->failed = 1;
		trim__sb_free(&nest);
		trim__sb_putc(sb, '}');
	}
	trim__sb_puts(sb, "], \"figures\": ");
	int frc = trim__html_figures_json(d, sb);
	if (frc)
		return frc;
	trim__sb_puts(sb, ", \"warnings\": ");
	const char **names = trim__calloc(d->n ? d->n : 1, sizeof *names);
	char(*buf)[96] = trim__calloc(d->n ? d->n : 1, sizeof *buf);
	trim__warnings ws;
	int rc = names && buf ? 0 : TRIM_ENOMEM;
	for (size_t k = 0; rc == 0 && k < d->n; k++) {
		snprintf(buf[k], sizeof buf[k], "%s %s", d->views[k].w->layer, trim_phase_name(d->views[k].w->phase));
		names[k] = buf[k];
	}
	if (rc == 0)
		rc = trim__warnings_make(&ws, d->views, names, d->n, a);
	free(names);
	free(buf);
	if (rc)
		return rc;
	trim__warnings_json(&ws, sb);
	trim__warnings_free(&ws);
	trim__sb_puts(sb, ", \"totals\": {\"cycles\": ");
	trim__sb_json_double(sb, d->cycles);
	trim__sb_puts(sb, ", \"energy_pj\": ");
	trim__sb_json_double(sb, d->energy_pj);
	trim__sb_puts(sb, ", \"pe_utilization\": ");
	trim__sb_json_double(sb, d->pe_utilization);
	trim__sb_puts(sb, ", \"temporal_utilization\": ");
	trim__sb_json_double(sb, cycles > 0 ? exec / (trim__arch_peak_macs_per_cycle(a) * cycles) : 0);
	trim__sb_puts(sb, "}}");
	return sb->failed ? TRIM_ENOMEM : 0;
}

int trim_neteval_write_html(const trim_neteval *ne, const char *path)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !path)
		return trim__error(TRIM_EINVAL, "trim_neteval_write_html: NULL argument");
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	if (!info.finished)
		return trim__error(TRIM_EINVAL, "trim_neteval_write_html: not evaluated yet");
	trim__wview *views = trim__calloc(info.n ? info.n : 1, sizeof *views);
	size_t *index = trim__calloc(info.n ? info.n : 1, sizeof *index);
	trim__sb data, page;
	trim__sb_init(&data);
	trim__sb_init(&page);
	char *text = NULL;
	int rc = views && index ? 0 : TRIM_ENOMEM;
	size_t n = 0;
	for (size_t i = 0; rc == 0 && i < info.n; i++)
		if (trim__neteval_view(ne, i, &views[n]))
			index[n++] = i;
	trim__html_inter *inter = trim__calloc(info.ninter ? info.ninter : 1, sizeof *inter);
	size_t ni = 0;
	if (!inter)
		rc = TRIM_ENOMEM;
	for (size_t j = 0; rc == 0 && j < info.ninter; j++) {
		const trim__inter_cost *c = trim__neteval_inter_cost(ne, j);
		if (!c)
			continue;
		snprintf(inter[ni].label, sizeof inter[ni].label, "%s %s", trim_workloads_inter_layer(info.w, j),
		         trim_inter_op_name(trim_workloads_inter_op(info.w, j)));
		inter[ni].cycles = c->cycles;
		inter[ni].energy_pj = c->energy_pj;
		inter[ni].level = c->level;
		ni++;
	}
	trim__html_detail d = {info.arch, info.costs, views, index, n, trim_neteval_cycles(ne),
	                       trim_neteval_energy_pj(ne), trim_neteval_pe_utilization(ne), inter, ni};
	char title[256];
	snprintf(title, sizeof title, "libtrim: %s on %s", info.network, info.arch->name);
	if (rc == 0) {
		trim__sb_puts(&data, "{\"kind\": \"network\", \"title\": ");
		trim__sb_json_str(&data, title);
		static const char *const goals[] = {"energy", "delay", "edp"};
		char sub[160];
		snprintf(sub, sizeof sub, "%s, goal %s, %zu intra-layer workloads%s",
		         trim_mode_name(trim_workloads_mode(info.w)), goals[info.goal % 3], n,
		         info.sparse_hardware ? ", sparse figures" : "");
		trim__sb_puts(&data, ", \"subtitle\": ");
		trim__sb_json_str(&data, sub);
		trim__sb_puts(&data, ", \"detail\": ");
		rc = trim__html_detail_json(&d, &data);
		trim__sb_puts(&data, "}");
	}
	if (rc == 0 && data.failed)
		rc = TRIM_ENOMEM;
	if (rc == 0) {
		trim__html_page(&page, title, data.buf);
		rc = trim__sb_take(&page, &text);
	}
	if (rc == 0)
		rc = trim__write_file_atomic(path, text, strlen(text));
	free(text);
	trim__sb_free(&page);
	trim__sb_free(&data);
	free(views);
	free(index);
	free(inter);
	return rc;
}
