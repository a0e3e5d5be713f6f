/*
 * The report of one evaluation (trim/eval.h; docs/guide.md, "Reports"):
 * its breakdown per (level, tensor, action), compute cycles, temporal
 * utilisation and warnings, as a table or JSON. The evaluator's figures
 * are lib/eval/eval.c's; nothing here recomputes them.
 */
#include <stdio.h>

#include "eval/eval_int.h"
#include "report_int.h"
#include "util/handle.h"

static trim__wview eval_view(const trim_eval *e)
{
	trim__wview v = {&e->w, &e->m, &e->e, NULL};
	return v;
}

double trim_eval_temporal_utilization(const trim_eval *e)
{
	TRIM__HANDLE_CHECK(e, EVAL, -1);
	if (!e)
		return -1;
	trim__wview v = eval_view(e);
	return trim__wview_temporal_util(&v, &e->arch);
}

double trim_eval_compute_cycles(const trim_eval *e)
{
	TRIM__HANDLE_CHECK(e, EVAL, -1);
	if (!e)
		return -1;
	trim__wview v = eval_view(e);
	return trim__wview_compute_cycles(&v, &e->arch);
}

int trim_eval_breakdown(const trim_eval *e, double *counts, double *energy_pj, size_t n)
{
	TRIM__HANDLE_CHECK(e, EVAL, TRIM_EINVAL);
	if (!e)
		return trim__error(TRIM_EINVAL, "trim_eval_breakdown: NULL handle");
	size_t need = TRIM__BD_SIZE(e->arch.nlevels);
	if (n < need)
		return trim__error(TRIM_EBUFSIZE, "trim_eval_breakdown: needs room for %zu values, got %zu",
		                   need, n);
	trim__wview v = eval_view(e);
	trim__breakdown(&v, &e->arch, e->costs, counts, energy_pj);
	return 0;
}

static int eval_warnings(const trim_eval *e, trim__warnings *warn)
{
	trim__wview v = eval_view(e);
	char name[96];
	snprintf(name, sizeof name, "%s %s", e->w.layer, trim_phase_name(e->w.phase));
	const char *names[1] = {name};
	int rc = trim__warnings_make(warn, &v, names, 1, &e->arch);
	if (rc)
		trim__warnings_free(warn);
	return rc;
}

int trim_eval_warnings(const trim_eval *e, char **out)
{
	TRIM__HANDLE_CHECK(e, EVAL, TRIM_EINVAL);
	if (!e || !out)
		return trim__error(TRIM_EINVAL, "trim_eval_warnings: NULL argument");
	*out = NULL;
	trim__warnings warn;
	int rc = eval_warnings(e, &warn);
	if (rc)
		return rc;
	trim__sb sb;
	trim__sb_init(&sb);
	trim__warnings_json(&warn, &sb);
	trim__warnings_free(&warn);
	return trim__sb_take(&sb, out);
}

/* The report's keys beyond trim__eval_json's object (whose closing brace
 * they replace). */
static void eval_json_extra(const trim_eval *e, const trim__warnings *warn, trim__sb *sb)
{
	if (sb->len > 0 && sb->buf[sb->len - 1] == '}')
		sb->buf[--sb->len] = '\0';
	double count[TRIM__BD_SIZE(TRIM__MAX_LEVELS)], energy[TRIM__BD_SIZE(TRIM__MAX_LEVELS)];
	trim__wview v = eval_view(e);
	trim__breakdown(&v, &e->arch, e->costs, count, energy);
	trim__sb_puts(sb, ", \"breakdown\": ");
	trim__breakdown_json(&e->w, &e->arch, count, energy, sb);
	trim__sb_puts(sb, ", \"compute_cycles\": ");
	trim__sb_json_double(sb, trim__wview_compute_cycles(&v, &e->arch));
	if (e->costs[0].count != TRIM_COUNT_LIBTRIM) /* libtrim's rules: no key */
		trim__sb_printf(sb, ", \"count\": \"%s\"", trim_count_name(e->costs[0].count));
	trim__sb_puts(sb, ", \"temporal_utilization\": ");
	trim__sb_json_double(sb, trim__wview_temporal_util(&v, &e->arch));
	trim__sb_puts(sb, ", \"warnings\": ");
	trim__warnings_json(warn, sb);
	trim__sb_putc(sb, '}');
}

/* What an evaluation report writes: the evaluation and its warnings. */
typedef struct {
	const trim_eval *e;
	const trim__warnings *warn;
} eval_figures;

/* The evaluation as a table for people: the loop nest, the totals, then the
 * counts, energy and cycles of every level and tensor, and the warnings. */
static int eval_table(const void *report, trim__sb *sb)
{
	const eval_figures *f = report;
	const trim_eval *e = f->e;
	const trim__eval *v = &e->e;
	const trim__activity *x = &v->act;
	trim__mapping_loopnest(&e->m, &e->w, sb);
	trim__sb_printf(sb, "\nMACs %lld (zero %lld), active PEs %lld (spatial utilization %.4g, "
	                "temporal %.4g)\n",
	                (long long)x->macs, (long long)x->zero_macs, (long long)x->active_pes,
	                v->pe_util, trim_eval_temporal_utilization(e));
	const int64_t padded = trim__mapping_padded_macs(&e->m);
	if (padded > x->macs)
		trim__sb_printf(sb, "imperfect factorisation: padded MACs %lld (%.4g%% wasted on ragged tiles), "
		                "steps %lld, PEs doing real work %.4g of the array on average\n",
		                (long long)padded, 100.0 * (double)(padded - x->macs) / (double)padded,
		                (long long)x->steps, v->pe_util_real);
	trim__sb_printf(sb, "cycles %.6g (bottleneck %s), energy %.6g pJ, EDP %.6g\n\n",
	                v->cycles, e->arch.lv[v->bottleneck].name, v->energy_pj,
	                v->cycles * v->energy_pj);
	if (e->costs[0].count == TRIM_COUNT_TIMELOOP)
		trim__sb_puts(sb, "counted as Timeloop counts (--count timeloop): an operand shared per fan-out by "
		                  "identical tiles only, its windows along the innermost loop only, drains not "
		                  "charged, leakage on the used instances of a storage level only, none for the MACs\n\n");
	trim__sb_printf(sb, "%-10s %-7s %12s %12s %12s %12s %12s %12s\n", "level", "tensor",
	                "reads/in", "fills/dests", "updates/mc", "drains/up", "energy_pj", "cycles");
	for (int l = 0; l < e->arch.nlevels; l++) {
		const trim__level *L = &e->arch.lv[l];
		if (L->type == TRIM__LVL_COMPUTE) {
			trim__sb_printf(sb, "%-10s %-7s %12lld %12s %12s %12s %12.6g %12.6g\n", L->name,
			                "-", (long long)x->macs, "", "", "", v->mac_pj, v->level_cycles[l]);
			continue;
		}
		for (int t = 0; t < 3; t++) {
			if (!e->w.t[t].present)
				continue;
			if (L->type == TRIM__LVL_STORAGE)
				trim__sb_printf(sb, "%-10s %-7s %12lld %12lld %12lld %12lld %12.6g %12.6g\n",
				                t ? "" : L->name, trim__slot_names[t], (long long)x->reads[l][t],
				                (long long)x->fills[l][t], (long long)x->updates[l][t],
				                (long long)x->drains[l][t], v->dyn_pj[l][t],
				                t ? 0.0 : v->level_cycles[l]);
			else
				trim__sb_printf(sb, "%-10s %-7s %12lld %12lld %12lld %12lld %12.6g %12.6g\n",
				                t ? "" : L->name, trim__slot_names[t], (long long)x->down_words[l][t],
				                (long long)x->down_dests[l][t], (long long)x->mcast[l][t],
				                (long long)x->up_words[l][t], v->dyn_pj[l][t],
				                t ? 0.0 : v->level_cycles[l]);
		}
	}
	trim__warnings_table(f->warn, sb);
	return 0;
}

/* The evaluation as one JSON object (trim__eval_json), with the workload's
 * figures and the warnings. */
static int eval_json(const void *report, trim__sb *sb)
{
	const eval_figures *f = report;
	trim__eval_json(&f->e->e, &f->e->arch, &f->e->m, sb);
	eval_json_extra(f->e, f->warn, sb);
	trim__sb_putc(sb, '\n');
	return 0;
}

/* The writers of trim_eval_report, one per format. */
static const trim__writers eval_writers = {
	"trim_eval_report", {[TRIM_FORMAT_TABLE] = eval_table, [TRIM_FORMAT_JSON] = eval_json}};

int trim_eval_report(const trim_eval *e, int format, char **out)
{
	TRIM__HANDLE_CHECK(e, EVAL, TRIM_EINVAL);
	if (!e || !out)
		return trim__error(TRIM_EINVAL, "trim_eval_report: NULL argument");
	*out = NULL;
	trim__warnings warn;
	int rc = eval_warnings(e, &warn);
	if (rc)
		return rc;
	eval_figures f = {e, &warn};
	rc = trim__write_report(&eval_writers, format, &f, out);
	trim__warnings_free(&warn);
	return rc;
}
