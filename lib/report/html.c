/* Data of the HTML report of a network evaluation or of an exploration's
 * details (docs/guide.md, "Reports"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
