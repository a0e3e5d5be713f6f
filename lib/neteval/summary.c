/*
 * The report of a network evaluation (trim_neteval_report: table, JSON,
 * CSV): the totals, every workload's figures and search, the inter-layer
 * workloads; the reports beyond them (breakdowns, utilisation, warnings) are
 * in report.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "neteval_int.h"
#include "neteval_state.h"
#include "network/network_int.h"
#include "trim/neteval.h"
#include "util/handle.h"
#include "util/util.h"

static void json_num(trim__sb *sb, const char *key, double v, int comma)
{
	trim__sb_printf(sb, "%s\"%s\": ", comma ? ", " : "", key);
	trim__sb_json_double(sb, v);
}

/* The network evaluation as JSON: the workloads, the totals, the search. */
static int neteval_json(const void *report, trim__sb *sb)
{
	const trim_neteval *ne = report;
	const struct trim_arch *a = ne->arch;
	trim__sb_puts(sb, "{\n  \"network\": ");
	trim__sb_json_str(sb, ne->network);
	trim__sb_puts(sb, ",\n  \"arch\": ");
	trim__sb_json_str(sb, a->name);
	if (ne->costs[0].count != TRIM_COUNT_LIBTRIM) /* libtrim's rules: no key */
		trim__sb_printf(sb, ",\n  \"count\": \"%s\"", trim_count_name(ne->costs[0].count));
	trim__sb_printf(sb, ",\n  \"goal\": \"%s\",\n  \"mode\": \"%s\",\n  \"sparse_hardware\": %s,\n  \"workloads\": [",
	                trim__neteval_goal_names[ne->goal], trim_mode_name(trim_workloads_mode(ne->w)),
	                ne->use_sparsity && trim__neteval_sparse_hardware(a) ? "true" : "false");
	int first = 1;
	for (size_t i = 0; i < ne->n; i++) {
		const wrec *r = &ne->rec[i];
		const trim__intra *x = trim__workloads_intra(ne->w, i);
		double f[TRIM_NF_COUNT];
		if (r->skipped)
			continue;
		trim__neteval_fields(ne, r, f);
		trim__sb_printf(sb, "%s\n    {\"index\": %zu, \"layer\": ", first ? "" : ",", i);
		first = 0;
		trim__sb_json_str(sb, x->layer);
		trim__sb_printf(sb, ", \"phase\": \"%s\", \"best\": {", trim_phase_name(x->phase));
		json_num(sb, "cycles", f[TRIM_NF_CYCLES], 0);
		json_num(sb, "energy_pj", f[TRIM_NF_ENERGY_PJ], 1);
		json_num(sb, "edp", f[TRIM_NF_EDP], 1);
		json_num(sb, "pe_utilization", f[TRIM_NF_PE_UTILIZATION], 1);
		json_num(sb, "active_pes", f[TRIM_NF_ACTIVE_PES], 1);
		json_num(sb, "dense_cycles", f[TRIM_NF_DENSE_CYCLES], 1);
		json_num(sb, "dense_energy_pj", f[TRIM_NF_DENSE_ENERGY_PJ], 1);
		json_num(sb, "static_pj", f[TRIM_NF_STATIC_PJ], 1);
		json_num(sb, "offchip_bytes", f[TRIM_NF_OFFCHIP_BYTES], 1);
		json_num(sb, "imbalance", r->sp.imbalance, 1);
		trim__sb_puts(sb, ", \"bottleneck\": ");
		trim__sb_json_str(sb, a->lv[(int)f[TRIM_NF_BOTTLENECK]].name);
		char ibuf[48];
		trim__sb_printf(sb, ", \"index\": %s, \"mapping\": ", trim__index_str(r->index, ibuf));
		trim__sb yb;
		trim__sb_init(&yb);
		trim__mapping_yaml(&r->best, &yb);
		trim__sb_json_str(sb, yb.buf ? yb.buf : "");
		trim__sb_free(&yb);
		trim__netreport_workload_json(ne, i, sb);
		trim__sb_printf(sb, "}, \"counts\": {\"generated\": %llu, \"valid\": %llu, \"evaluated\": %llu}",
		                (unsigned long long)r->generated, (unsigned long long)r->valid,
		                (unsigned long long)r->evaluated);
		trim__sb_printf(sb, ", \"search\": {\"exact\": %s", r->exact ? "true" : "false");
		json_num(sb, "lower_bound", r->lower_bound, 1);
		json_num(sb, "gap", r->exact ? 0 : trim__neteval_gap_of(r->best_cost, r->lower_bound), 1);
		if (r->reused_from >= 0)
			trim__sb_printf(sb, ", \"reused_from\": %ld}}", r->reused_from);
		else
			trim__sb_puts(sb, ", \"reused_from\": null}}");
	}
	trim__sb_puts(sb, "\n  ],\n  \"inter\": [");
	first = 1;
	for (size_t j = 0; j < ne->ninter; j++) {
		const trim__inter_cost *ic = &ne->inter[j];
		if (!trim__neteval_in_range(ne, trim__workloads_inter(ne->w, j)->layer_index))
			continue;
		trim__sb_printf(sb, "%s\n    {\"index\": %zu, \"op\": \"%s\", \"layer\": ", first ? "" : ",", j,
		                trim_inter_op_name(trim_workloads_inter_op(ne->w, j)));
		trim__sb_json_str(sb, trim_workloads_inter_layer(ne->w, j));
		first = 0;
		trim__sb_puts(sb, ", \"level\": ");
		trim__sb_json_str(sb, a->lv[ic->level].name);
		json_num(sb, "cycles", ic->cycles, 1);
		json_num(sb, "energy_pj", ic->energy_pj, 1);
		json_num(sb, "static_pj", ic->static_pj, 1);
		trim__sb_puts(sb, "}");
	}
	trim__sb_puts(sb, "\n  ],\n  \"totals\": {");
	json_num(sb, "cycles", ne->cycles, 0);
	json_num(sb, "seconds", trim_neteval_seconds(ne), 1);
	json_num(sb, "energy_pj", ne->energy, 1);
	json_num(sb, "edp", ne->energy * ne->cycles, 1);
	json_num(sb, "static_pj", ne->static_pj, 1);
	json_num(sb, "dynamic_pj", ne->energy - ne->static_pj, 1);
	json_num(sb, "dense_cycles", ne->dense_cycles, 1);
	json_num(sb, "dense_energy_pj", ne->dense_energy, 1);
	json_num(sb, "pe_utilization", ne->pe_util, 1);
	json_num(sb, "sparsity_saved_pj", ne->saved_pj, 1);
	json_num(sb, "metadata_pj", ne->metadata_pj, 1);
	trim__sb_puts(sb, ", \"energy_by_level\": {");
	for (int l = 0; l < a->nlevels; l++) {
		trim__sb_puts(sb, l ? ", " : "");
		trim__sb_json_str(sb, a->lv[l].name);
		trim__sb_puts(sb, ": ");
		trim__sb_json_double(sb, ne->level_pj[l]);
	}
	uint64_t gen = 0, val = 0, ev = 0;
	double off = 0;
	for (size_t i = 0; i < ne->n; i++) {
		if (!ne->rec[i].skipped)
			off += trim__neteval_offchip_bytes(ne, &ne->rec[i]);
		gen += ne->rec[i].generated;
		val += ne->rec[i].valid;
		ev += ne->rec[i].evaluated;
	}
	trim__sb_puts(sb, "}, \"offchip_bytes\": ");
	trim__sb_json_double(sb, off);
	trim__sb_printf(sb, ", \"counts\": {\"generated\": %llu, \"valid\": %llu, \"evaluated\": %llu}, "
	                    "\"intra_count\": %zu, \"inter_count\": %zu",
	                (unsigned long long)gen, (unsigned long long)val, (unsigned long long)ev, ne->n,
	                ne->ninter);
	double slb, sbest;
	int sexact = trim__neteval_search_totals(ne, &slb, &sbest);
	trim__sb_printf(sb, ", \"search\": {\"exact\": %s", sexact ? "true" : "false");
	json_num(sb, "lower_bound", slb, 1);
	json_num(sb, "best", sbest, 1);
	json_num(sb, "gap", sexact ? 0 : trim__neteval_gap_of(sbest, slb), 1);
	trim__sb_printf(sb, ", \"searches\": %lld, \"resumed\": %lld, \"stale\": %lld, \"goal\": \"%s\"}",
	                (long long)ne->nsearch, (long long)ne->resumed, (long long)ne->stale, trim__neteval_goal_names[ne->goal]);
	trim__netreport_totals_json(ne, sb);
	trim__sb_putc(sb, '}');
	trim__netreport_tail_json(ne, sb);
	trim__sb_puts(sb, "\n}\n");
	return 0;
}

/* The network evaluation as a table for people, with the totals and how sure the search is. */
static int neteval_table(const void *report, trim__sb *sb)
{
	const trim_neteval *ne = report;
	const struct trim_arch *a = ne->arch;
	trim__sb_printf(sb, "network %s on %s, goal %s%s%s\n\n", ne->network, a->name, trim__neteval_goal_names[ne->goal],
	                ne->use_sparsity && trim__neteval_sparse_hardware(a) ? ", sparse figures (the hardware gates/skips zeros)" : "",
	                ne->costs[0].count == TRIM_COUNT_TIMELOOP ? ", counted as Timeloop counts (--count timeloop)" : "");
	int lw = 5, bw = 10; /* columns as wide as the longest layer and level names */
	for (size_t i = 0; i < ne->n; i++) {
		size_t l = strlen(trim__workloads_intra(ne->w, i)->layer);
		lw = l > (size_t)lw && l < 256 ? (int)l : lw;
	}
	for (int k = 0; k < a->nlevels; k++) {
		size_t l = strlen(a->lv[k].name);
		bw = l > (size_t)bw && l < 256 ? (int)l : bw;
	}
	trim__sb_printf(sb, "%-4s %-*s %-5s %14s %14s %8s %8s %6s %-*s %12s\n", "#", lw, "layer", "phase",
	                "cycles", "energy pJ", "PE util", "t-util", "PEs", bw, "bottleneck", "evaluated");
	for (size_t i = 0; i < ne->n; i++) {
		const wrec *r = &ne->rec[i];
		const trim__intra *x = trim__workloads_intra(ne->w, i);
		if (r->skipped)
			continue;
		double f[TRIM_NF_COUNT];
		trim__neteval_fields(ne, r, f);
		trim__sb_printf(sb, "%-4zu %-*s %-5s %14.6g %14.6g %8.3f %8.3f %6lld %-*s %12llu\n", i,
		                lw, x->layer, trim_phase_name(x->phase), r->sp.cycles, r->sp.energy_pj,
		                r->dense.pe_util, f[TRIM_NF_TEMPORAL_UTILIZATION], (long long)r->dense.act.active_pes,
		                bw, a->lv[(int)f[TRIM_NF_BOTTLENECK]].name, (unsigned long long)r->evaluated);
	}
	double pre = 0, pre_e = 0;
	for (size_t j = 0; j < ne->ninter; j++) {
		pre += ne->inter[j].cycles;
		pre_e += ne->inter[j].energy_pj;
	}
	trim__sb_printf(sb, "\ninter-layer workloads: %zu, %.6g cycles, %.6g pJ\n", ne->ninter, pre, pre_e);
	trim__sb_printf(sb, "total: %.6g cycles (%.6g s), %.6g pJ (static %.6g), EDP %.6g, PE utilization %.3f\n",
	                ne->cycles, trim_neteval_seconds(ne), ne->energy, ne->static_pj,
	                ne->energy * ne->cycles, ne->pe_util);
	if (ne->dense_cycles != ne->cycles || ne->dense_energy != ne->energy)
		trim__sb_printf(sb, "dense: %.6g cycles, %.6g pJ (sparse speedup %.4gx, energy saving %.4gx)\n",
		                ne->dense_cycles, ne->dense_energy, ne->dense_cycles / ne->cycles,
		                ne->dense_energy / ne->energy);
	trim__sb_puts(sb, "energy by level:");
	for (int l = 0; l < a->nlevels; l++)
		trim__sb_printf(sb, " %s %.4g pJ%s", a->lv[l].name, ne->level_pj[l], l + 1 < a->nlevels ? "," : "\n");
	double slb, sbest;
	size_t mapped = 0, inexact = 0;
	for (size_t i = 0; i < ne->n; i++)
		if (!ne->rec[i].skipped) {
			mapped++;
			inexact += !ne->rec[i].exact;
		}
	if (trim__neteval_search_totals(ne, &slb, &sbest))
		trim__sb_printf(sb, "search: exact (%lld searches for %zu workloads)\n", (long long)ne->nsearch, mapped);
	else
		trim__sb_printf(sb, "search: NOT proven optimal for %zu of %zu workloads: %s %.6g, proven lower bound "
		                    "%.6g (gap %.3g%%; %lld searches)\n", inexact, mapped, trim__neteval_goal_names[ne->goal], sbest, slb,
		                100 * trim__neteval_gap_of(sbest, slb), (long long)ne->nsearch);
	trim__netreport_table_tail(ne, sb);
	return 0;
}

/* The network evaluation as CSV: one row per workload (lib/neteval/report.c). */
static int neteval_csv(const void *report, trim__sb *sb)
{
	const trim_neteval *ne = report;
	trim__netreport_csv(ne, sb); /* lib/neteval/report.c */
	return 0;
}

/* The writers of trim_neteval_report, one per format. */
static const trim__writers neteval_writers = {
	"trim_neteval_report",
	{[TRIM_FORMAT_TABLE] = neteval_table, [TRIM_FORMAT_JSON] = neteval_json, [TRIM_FORMAT_CSV] = neteval_csv}};

int trim_neteval_report(const trim_neteval *ne, int format, char **out)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !out)
		return trim__error(TRIM_EINVAL, "trim_neteval_report: NULL argument");
	*out = NULL;
	if (!ne->finished)
		return trim__error(TRIM_EINVAL, "trim_neteval_report: not evaluated yet");
	return trim__write_report(&neteval_writers, format, ne, out);
}
