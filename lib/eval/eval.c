/*
 * The evaluator (docs/model.md, "Evaluator").
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/energy_int.h"
#include "eval_int.h"
#include "netcost_int.h"
#include "util/handle.h"

static const char *const slot_key[3] = {"input", "weight", "output"};

void trim__eval_ws_free(trim__eval_ws *ws)
{
	if (ws)
		trim__act_ws_free(&ws->act);
}

static double div0(double a, double b) { return b > 0 ? a / b : 0; }

/* 1 if the executed PE-steps exceed the MACs: PEs idle on ragged tiles (an
 * imperfect factorisation; never for a perfect one, where they are equal). */
static int idle_pes(const trim__activity *x)
{
	int64_t p;
	return __builtin_mul_overflow(x->steps, x->active_pes, &p) || p > x->macs;
}

double trim__eval_leak_pj(const struct trim_arch *a, const trim__level_cost *costs, int l, int64_t used)
{
	const trim__level *L = &a->lv[l];
	double all = (double)(L->instances > 0 ? L->instances : 1);
	if (costs[l].count != TRIM_COUNT_TIMELOOP || L->type == TRIM__LVL_SPATIAL)
		return costs[l].leak_pj_per_cycle * all;
	if (L->type == TRIM__LVL_COMPUTE)
		return 0;
	return costs[l].leak_pj_per_cycle * (double)(used > 0 ? used : 1);
}

int trim__eval_run(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                   const trim__mapping *m, trim__eval_ws *ws, trim__eval *out)
{
	/* trim__eval_act writes every field but act */
	ws->act.count = costs[0].count; /* Timeloop's counting counts some operands otherwise */
	int rc = trim__activity_compute(w, a, m, &ws->act, &out->act);
	if (rc) {
		memset(out, 0, sizeof *out);
		return rc;
	}
	trim__eval_act(w, a, costs, m, out);
	return 0;
}

int trim__eval_prepare(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                       trim__eval_ws *ws)
{
	return trim__activity_prepare(w, a, m, &ws->act);
}

int trim__eval_order(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                     const trim__mapping *m, trim__eval_ws *ws, trim__eval *out)
{
	ws->act.count = costs[0].count;
	int rc = trim__activity_orders(&ws->act, m, &out->act);
	if (rc)
		return rc;
	trim__eval_act(w, a, costs, m, out);
	return 0;
}

void trim__eval_act(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                    const trim__mapping *m, trim__eval *out)
{
	const trim__activity *x = &out->act;
	const int nL = a->nlevels;
	double cyc = 0;
	/* every field after the counts (level_cycles is the first array), at once */
	memset(&out->level_cycles, 0, sizeof *out - offsetof(trim__eval, level_cycles));
	out->bottleneck = nL - 1;
	for (int l = 0; l < nL; l++) {
		const trim__level *L = &a->lv[l];
		const trim__level_cost *c = &costs[l];
		double lc = 0;
		if (L->type == TRIM__LVL_STORAGE) {
			double rd = 0, wr = 0;
			for (int t = 0; t < 3; t++) {
				rd += (double)(x->reads[l][t] + trim__drain_bw(c, x->drains[l][t]));
				wr += (double)(x->fills[l][t] + x->updates[l][t]);
				/* Timeloop's counting charges no drain (docs/mapping.md, rule 3) */
				int64_t charged = c->count == TRIM_COUNT_TIMELOOP ? 0 : x->drains[l][t];
				out->dyn_pj[l][t] = (double)(x->reads[l][t] + charged) * c->read_pj +
				                    (double)x->fills[l][t] * c->write_pj +
				                    (double)x->updates[l][t] * c->update_pj;
			}
			double inst = (double)x->instances[l];
			double rc_ = L->read_bw > 0 ? rd / (L->read_bw * inst) : 0;
			double wc = L->write_bw > 0 ? wr / (L->write_bw * inst) : 0;
			lc = rc_ > wc ? rc_ : wc;
			int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
			int64_t bytes = 0;
			for (int t = 0; t < 3; t++)
				if (m->keep[l][t] && w->t[t].present)
					bytes += (x->tile[l][t] * bits + 7) / 8;
			if (L->double_buffer)
				bytes *= 2;
			out->cap_bytes[l] = bytes;
			out->cap_util[l] = div0((double)bytes, (double)L->capacity_bytes);
		} else if (L->type == TRIM__LVL_SPATIAL) {
			double words[3];
			for (int t = 0; t < 3; t++) {
				/* a bus drives one word past every tap: a multicast word costs
				 * one traversal; on mesh and H-tree networks every destination
				 * is reached over its own hops (no path sharing: an upper
				 * bound); a systolic array forwards a word one hop per PE and
				 * passes partial sums one hop per PE; a drained result shifts
				 * out like a preloaded word shifts in (trim__net_pj) */
				out->dyn_pj[l][t] = trim__net_pj(L, c, (double)x->down_words[l][t],
				                                 (double)x->down_dests[l][t], (double)x->unicast[l][t],
				                                 (double)x->up_words[l][t],
				                                 trim__net_drained(x->exact, (double)x->up_words[l][t],
				                                                   (double)x->reductions[l][t]));
				words[t] = (double)(x->down_words[l][t] + x->up_out[l][t]);
			}
			/* one link for every tensor, or one network per tensor */
			lc = trim__link_cycles(L, a->word_bits, words, (double)x->instances[l]);
		} else {
			int64_t eff = L->zero_skip ? x->macs - x->zero_macs : x->macs;
			double per = (double)(L->macs_per_cycle > 0 ? L->macs_per_cycle : 1);
			if (idle_pes(x)) /* PEs idle on ragged tiles: a step is a cycle per MAC of a PE */
				lc = div0((double)x->steps * (double)eff, (double)x->macs * per);
			else
				lc = div0((double)eff, (double)x->active_pes * per);
			double gated = L->zero_gate ? c->gated_mac_pj : c->mac_pj;
			out->mac_pj = (double)(x->macs - x->zero_macs) * c->mac_pj + (double)x->zero_macs * gated;
			out->dyn_pj[l][0] = out->mac_pj;
		}
		out->level_cycles[l] = lc;
		if (lc > cyc) {
			cyc = lc;
			out->bottleneck = l;
		}
	}
	/* a systolic array takes the MACs' cycles plus its pipeline's
	 * (lib/eval/systolic.c); the first level with the most cycles binds */
	int systolic = 0;
	for (int l = 0; l < nL && x->exact; l++) {
		double extra = trim__systolic_extra_cycles(w, a, m, x, l);
		if (extra > 0 && out->level_cycles[nL - 1] + extra > out->level_cycles[l]) {
			out->level_cycles[l] = out->level_cycles[nL - 1] + extra;
			systolic = 1;
		}
	}
	if (systolic) {
		cyc = 0;
		for (int l = 0; l < nL; l++)
			if (out->level_cycles[l] > cyc) {
				cyc = out->level_cycles[l];
				out->bottleneck = l;
			}
	}
	out->cycles = cyc;
	double e = 0;
	for (int l = 0; l < nL; l++) {
		out->static_pj[l] = trim__eval_leak_pj(a, costs, l, x->instances[l]) * cyc;
		e += out->static_pj[l];
		for (int t = 0; t < 3; t++)
			e += out->dyn_pj[l][t];
	}
	out->energy_pj = e;
	out->pe_util = div0((double)x->active_pes, (double)(a->total_pes > 0 ? a->total_pes : 1));
	/* the PEs doing real work, on average over the steps (idle on ragged tiles) */
	out->pe_util_real = idle_pes(x)
	                    ? div0((double)x->macs, (double)x->steps * (double)(a->total_pes > 0 ? a->total_pes : 1))
	                    : out->pe_util;
}

void trim__eval_json(const trim__eval *e, const struct trim_arch *a, const trim__mapping *m,
                     trim__sb *sb)
{
	const trim__activity *x = &e->act;
	trim__sb_puts(sb, "{\"active_pes\": ");
	trim__sb_printf(sb, "%lld, \"bottleneck\": ", (long long)x->active_pes);
	trim__sb_json_str(sb, a->lv[e->bottleneck].name);
	trim__sb_puts(sb, ", \"cycles\": ");
	trim__sb_json_double(sb, e->cycles);
	trim__sb_puts(sb, ", \"edp\": ");
	trim__sb_json_double(sb, e->cycles * e->energy_pj);
	trim__sb_puts(sb, ", \"energy_pj\": ");
	trim__sb_json_double(sb, e->energy_pj);
	trim__sb_puts(sb, ", \"levels\": [");
	for (int l = 0; l < a->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		trim__sb_puts(sb, l ? ", {" : "{");
		if (L->type == TRIM__LVL_STORAGE) {
			trim__sb_printf(sb, "\"capacity_used_bytes\": %lld, \"capacity_utilization\": ",
			                (long long)e->cap_bytes[l]);
			trim__sb_json_double(sb, e->cap_util[l]);
			trim__sb_puts(sb, ", ");
		}
		trim__sb_puts(sb, "\"cycles\": ");
		trim__sb_json_double(sb, e->level_cycles[l]);
		if (L->type == TRIM__LVL_COMPUTE) {
			trim__sb_puts(sb, ", \"mac_pj\": ");
			trim__sb_json_double(sb, e->mac_pj);
			trim__sb_printf(sb, ", \"macs\": %lld", (long long)x->macs);
		}
		trim__sb_puts(sb, ", \"name\": ");
		trim__sb_json_str(sb, L->name);
		trim__sb_puts(sb, ", \"static_pj\": ");
		trim__sb_json_double(sb, e->static_pj[l]);
		if (L->type == TRIM__LVL_COMPUTE) {
			trim__sb_printf(sb, ", \"zero_macs\": %lld}", (long long)x->zero_macs);
			continue;
		}
		trim__sb_puts(sb, ", \"tensors\": {");
		for (int t = 0; t < 3; t++) {
			trim__sb_printf(sb, "%s\"%s\": {", t ? ", " : "", slot_key[t]);
			if (L->type == TRIM__LVL_STORAGE) {
				trim__sb_printf(sb, "\"drains\": %lld, \"energy_pj\": ", (long long)x->drains[l][t]);
				trim__sb_json_double(sb, e->dyn_pj[l][t]);
				trim__sb_printf(sb, ", \"fills\": %lld, \"keep\": %s, \"reads\": %lld, \"tile\": %lld, \"updates\": %lld}",
				                (long long)x->fills[l][t], m->keep[l][t] ? "true" : "false",
				                (long long)x->reads[l][t], (long long)x->tile[l][t],
				                (long long)x->updates[l][t]);
			} else {
				trim__sb_printf(sb, "\"down_dests\": %lld, \"down_words\": %lld, \"energy_pj\": ",
				                (long long)x->down_dests[l][t], (long long)x->down_words[l][t]);
				trim__sb_json_double(sb, e->dyn_pj[l][t]);
				trim__sb_printf(sb, ", \"multicast\": %lld, \"multicast_dests\": %lld, \"reductions\": %lld, \"unicast\": %lld, \"up_out\": %lld, \"up_words\": %lld}",
				                (long long)x->mcast[l][t], (long long)x->mcast_dests[l][t],
				                (long long)x->reductions[l][t], (long long)x->unicast[l][t],
				                (long long)x->up_out[l][t], (long long)x->up_words[l][t]);
			}
		}
		trim__sb_puts(sb, "}}");
	}
	trim__sb_printf(sb, "], \"macs\": %lld, \"padded_macs\": %lld, \"pe_utilization\": ", (long long)x->macs,
	                (long long)trim__mapping_padded_macs(m));
	trim__sb_json_double(sb, e->pe_util);
	trim__sb_puts(sb, ", \"pe_utilization_real\": ");
	trim__sb_json_double(sb, e->pe_util_real);
	trim__sb_printf(sb, ", \"steps\": %lld", (long long)x->steps);
	trim__sb_printf(sb, ", \"zero_macs\": %lld}", (long long)x->zero_macs);
}

/* ---- public API -------------------------------------------------------------- */

int trim__eval_reserved(const trim_workloads *w, size_t i, const struct trim_arch *a,
                        int64_t *reserved)
{
	trim__cache_plan plan;
	for (int l = 0; l < TRIM__MAX_LEVELS; l++)
		reserved[l] = 0;
	int rc = trim__cache_plan_make(&plan, w, a, TRIM__CACHE_ONCHIP_FRACTION);
	if (rc)
		return rc;
	if (plan.glb > 0 && plan.glb < TRIM__MAX_LEVELS && i < plan.nintra)
		reserved[plan.glb] = plan.reserved[i];
	trim__cache_plan_free(&plan);
	return 0;
}

int trim_mapping_check(const trim_mapping *m, const trim_workloads *w, size_t i,
                       const trim_arch *arch)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	if (!m || !w || !arch)
		return trim__error(TRIM_EINVAL, "trim_mapping_check: NULL argument");
	const trim__intra *x = trim__workloads_intra(w, i);
	if (!x)
		return trim__error(TRIM_ENOTFOUND, "trim_mapping_check: no intra workload %zu", i);
	int64_t reserved[TRIM__MAX_LEVELS];
	int rc = trim__eval_reserved(w, i, arch, reserved);
	if (rc)
		return rc;
	return trim__mapping_check_reserved(m, x, arch, reserved);
}

int trim_eval_mapping(trim_eval **out, const trim_workloads *w, size_t i, const trim_arch *arch,
                      const trim_energy *table, const trim_mapping *m)
{
	return trim_eval_mapping_count(out, w, i, arch, table, m, TRIM_COUNT_LIBTRIM);
}

const char *trim_count_name(int count)
{
	return count == TRIM_COUNT_LIBTRIM ? "libtrim" : count == TRIM_COUNT_TIMELOOP ? "timeloop" : NULL;
}

int trim_count_parse(const char *name, int *count)
{
	if (!name || !count)
		return trim__error(TRIM_EINVAL, "trim_count_parse: NULL argument");
	for (int c = TRIM_COUNT_LIBTRIM; c <= TRIM_COUNT_TIMELOOP; c++)
		if (!strcmp(name, trim_count_name(c))) {
			*count = c;
			return 0;
		}
	return trim__error(TRIM_EINVAL, "counting rules '%s': libtrim or timeloop", name);
}

int trim_eval_mapping_count(trim_eval **out, const trim_workloads *w, size_t i, const trim_arch *arch,
                            const trim_energy *table, const trim_mapping *m, int count)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(table, ENERGY, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	if (!out || !w || !arch || !m)
		return trim__error(TRIM_EINVAL, "trim_eval_mapping: NULL argument");
	*out = NULL;
	if (!trim_count_name(count))
		return trim__error(TRIM_ERANGE, "trim_eval_mapping: counting rules %d (libtrim %d, timeloop %d)", count,
		                   TRIM_COUNT_LIBTRIM, TRIM_COUNT_TIMELOOP);
	trim_energy *own = NULL;
	trim__level_cost *costs = NULL;
	trim_eval *e = NULL;
	trim__eval_ws ws = {0};
	int rc = 0;
	const trim__intra *x = trim__workloads_intra(w, i);
	if (!x) {
		rc = trim__error(TRIM_ENOTFOUND, "trim_eval_mapping: no intra workload %zu", i);
		goto out;
	}
	int64_t reserved[TRIM__MAX_LEVELS];
	if ((rc = trim__eval_reserved(w, i, arch, reserved)))
		goto out;
	if ((rc = trim__mapping_check_reserved(m, x, arch, reserved)))
		goto out;
	if (!table) {
		if ((rc = trim_energy_load_for_arch(&own, arch)))
			goto out;
		table = own;
	}
	costs = trim__calloc((size_t)arch->nlevels, sizeof *costs);
	e = trim__calloc(1, sizeof *e);
	if (e)
		TRIM__HANDLE_INIT(e, EVAL);
	if (!costs || !e) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	if ((rc = trim__arch_costs(arch, table, costs)))
		goto out;
	trim__costs_set_count(costs, arch->nlevels, count);
	if ((rc = trim__eval_run(x, arch, costs, m, &ws, &e->e)))
		goto out;
	e->arch = *arch;
	e->arch.file = NULL;
	e->m = *m;
	e->w = *x;
	memcpy(e->costs, costs, (size_t)arch->nlevels * sizeof *costs);
	*out = e;
	e = NULL;
out:
	trim__eval_ws_free(&ws);
	free(e);
	free(costs);
	trim_energy_free(own);
	return rc;
}

void trim_eval_free(trim_eval *e)
{
	TRIM__HANDLE_CHECK_VOID(e, EVAL);
	if (!e)
		return;
	TRIM__HANDLE_POISON(e, EVAL);
	free(e);
}
double trim_eval_cycles(const trim_eval *e) { return TRIM__HANDLE_OK(e, EVAL) ? e->e.cycles : -1; }
double trim_eval_energy_pj(const trim_eval *e)
{
	return TRIM__HANDLE_OK(e, EVAL) ? e->e.energy_pj : -1;
}
double trim_eval_edp(const trim_eval *e)
{
	return TRIM__HANDLE_OK(e, EVAL) ? e->e.cycles * e->e.energy_pj : -1;
}
double trim_eval_pe_utilization(const trim_eval *e)
{
	return TRIM__HANDLE_OK(e, EVAL) ? e->e.pe_util : -1;
}
int64_t trim_eval_macs(const trim_eval *e)
{
	TRIM__HANDLE_CHECK(e, EVAL, TRIM_EINVAL);
	return e ? e->e.act.macs : -1;
}
int64_t trim_eval_zero_macs(const trim_eval *e)
{
	TRIM__HANDLE_CHECK(e, EVAL, TRIM_EINVAL);
	return e ? e->e.act.zero_macs : -1;
}
int64_t trim_eval_padded_macs(const trim_eval *e)
{
	TRIM__HANDLE_CHECK(e, EVAL, TRIM_EINVAL);
	return e ? trim__mapping_padded_macs(&e->m) : -1;
}
double trim_eval_pe_utilization_real(const trim_eval *e)
{
	return TRIM__HANDLE_OK(e, EVAL) ? e->e.pe_util_real : -1;
}
const char *trim_eval_bottleneck(const trim_eval *e)
{
	TRIM__HANDLE_CHECK(e, EVAL, NULL);
	return e ? e->arch.lv[e->e.bottleneck].name : NULL;
}
