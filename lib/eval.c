/*
 * The evaluator (docs/model.md, "Evaluator").
 */
#include <string.h>

#include "eval_int.h"

static const char *const slot_key[3] = {"input", "weight", "output"};

void trim__eval_ws_free(trim__eval_ws *ws)
{
	if (ws)
		trim__act_ws_free(&ws->act);
}

static double div0(double a, double b) { return b > 0 ? a / b : 0; }

int trim__eval_run(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *costs,
                   const trim__mapping *m, trim__eval_ws *ws, trim__eval *out)
{
	memset(out, 0, sizeof *out);
	int rc = trim__activity_compute(w, a, m, &ws->act, &out->act);
	if (rc)
		return rc;
	const trim__activity *x = &out->act;
	const int nL = a->nlevels;
	double cyc = 0;
	out->bottleneck = nL - 1;
	for (int l = 0; l < nL; l++) {
		const trim__level *L = &a->lv[l];
		const trim__level_cost *c = &costs[l];
		double lc = 0;
		if (L->type == TRIM__LVL_STORAGE) {
			double rd = 0, wr = 0;
			for (int t = 0; t < 3; t++) {
				rd += (double)(x->reads[l][t] + x->drains[l][t]);
				wr += (double)(x->fills[l][t] + x->updates[l][t]);
				out->dyn_pj[l][t] = (double)(x->reads[l][t] + x->drains[l][t]) * c->read_pj +
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
			double words = 0;
			for (int t = 0; t < 3; t++) {
				out->dyn_pj[l][t] = (double)(x->down_dests[l][t] + x->up_words[l][t]) * c->hop_pj *
				                    (c->avg_hops > 0 ? c->avg_hops : 1);
				words += (double)(x->down_words[l][t] + x->up_out[l][t]);
			}
			int64_t bits = a->word_bits > 0 ? a->word_bits : 16;
			double bw = L->link_bits > 0 ? (double)L->link_bits / (double)bits : 0;
			lc = div0(words, bw * (double)x->instances[l]);
		} else {
			int64_t eff = L->zero_skip ? x->macs - x->zero_macs : x->macs;
			double per = (double)(L->macs_per_cycle > 0 ? L->macs_per_cycle : 1);
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
	out->cycles = cyc;
	double e = 0;
	for (int l = 0; l < nL; l++) {
		out->static_pj[l] = costs[l].leak_pj_per_cycle * (double)(a->lv[l].instances > 0 ? a->lv[l].instances : 1) * cyc;
		e += out->static_pj[l];
		for (int t = 0; t < 3; t++)
			e += out->dyn_pj[l][t];
	}
	out->energy_pj = e;
	out->pe_util = div0((double)x->active_pes, (double)(a->total_pes > 0 ? a->total_pes : 1));
	return 0;
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
		trim__sb_printf(sb, "%s{\"cycles\": ", l ? ", " : "");
		trim__sb_json_double(sb, e->level_cycles[l]);
		trim__sb_puts(sb, ", \"name\": ");
		trim__sb_json_str(sb, L->name);
		if (L->type == TRIM__LVL_STORAGE) {
			trim__sb_printf(sb, ", \"capacity_used_bytes\": %lld, \"capacity_utilization\": ",
			                (long long)e->cap_bytes[l]);
			trim__sb_json_double(sb, e->cap_util[l]);
		}
		trim__sb_puts(sb, ", \"static_pj\": ");
		trim__sb_json_double(sb, e->static_pj[l]);
		if (L->type == TRIM__LVL_COMPUTE) {
			trim__sb_printf(sb, ", \"macs\": %lld, \"mac_pj\": ", (long long)x->macs);
			trim__sb_json_double(sb, e->mac_pj);
			trim__sb_printf(sb, ", \"zero_macs\": %lld}", (long long)x->zero_macs);
			continue;
		}
		trim__sb_puts(sb, ", \"tensors\": {");
		for (int t = 0; t < 3; t++) {
			trim__sb_printf(sb, "%s\"%s\": {\"energy_pj\": ", t ? ", " : "", slot_key[t]);
			trim__sb_json_double(sb, e->dyn_pj[l][t]);
			if (L->type == TRIM__LVL_STORAGE)
				trim__sb_printf(sb, ", \"drains\": %lld, \"fills\": %lld, \"keep\": %s, \"reads\": %lld, \"tile\": %lld, \"updates\": %lld}",
				                (long long)x->drains[l][t], (long long)x->fills[l][t],
				                m->keep[l][t] ? "true" : "false", (long long)x->reads[l][t],
				                (long long)x->tile[l][t], (long long)x->updates[l][t]);
			else
				trim__sb_printf(sb, ", \"down_dests\": %lld, \"down_words\": %lld, \"multicast\": %lld, \"multicast_dests\": %lld, \"reductions\": %lld, \"unicast\": %lld, \"up_out\": %lld, \"up_words\": %lld}",
				                (long long)x->down_dests[l][t], (long long)x->down_words[l][t],
				                (long long)x->mcast[l][t], (long long)x->mcast_dests[l][t],
				                (long long)x->reductions[l][t], (long long)x->unicast[l][t],
				                (long long)x->up_out[l][t], (long long)x->up_words[l][t]);
		}
		trim__sb_puts(sb, "}}");
	}
	trim__sb_printf(sb, "], \"macs\": %lld, \"pe_utilization\": ", (long long)x->macs);
	trim__sb_json_double(sb, e->pe_util);
	trim__sb_printf(sb, ", \"zero_macs\": %lld}", (long long)x->zero_macs);
}
