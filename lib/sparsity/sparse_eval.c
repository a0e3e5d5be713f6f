/* Sparse evaluation (docs/sparsity.md, "Time and energy"). */
#include <string.h>

#include "sparse_eval_int.h"

/* The PE-local storage level holding slot t that the MACs read from, or -1
 * when the MACs read it across the network (a skip is decided in the PE,
 * after the value has travelled: nothing is saved upstream). */
static int local_holder(const struct trim_arch *a, const trim__mapping *m, int t)
{
	for (int l = a->nlevels - 1; l >= 0; l--) {
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			return -1;
		if (a->lv[l].type == TRIM__LVL_STORAGE && m->keep[l][t])
			return l;
	}
	return -1;
}

static int level_bits(const struct trim_arch *a, int l)
{
	int b = a->lv[l].word_bits > 0 ? a->lv[l].word_bits : a->word_bits;
	return b > 0 ? b : 16;
}

/* The load imbalance of the skipped work (docs/sparsity.md, "Load
 * imbalance"): the most loaded PE, times the slowest lane of a PE's adder
 * tree group when the lanes skip input zeros. */
static int imbalance(const trim__intra *w, const struct trim_arch *a, const trim__mapping *m,
                     const trim__activity *x, double q, double in_keep, double out_keep,
                     int in_skip, double spread, trim__sparse_eval *out)
{
	const trim__level *L = &a->lv[a->nlevels - 1];
	out->pe_imbalance = out->lane_imbalance = 1;
	if (!(q < 1) || !L->sp_imbalance)
		return 0;
	int lanes = in_skip && L->sp_lanes > 1;
	if (x->active_pes > 1) {
		int64_t units;
		double density = q;
		if (out_keep < 1) { /* output skipping: whole result elements per PE */
			units = 1;
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (w->t[2].relevant & (1u << d)) {
					int64_t spatial = 1;
					for (int l = 0; l < a->nlevels; l++)
						if (a->lv[l].type == TRIM__LVL_SPATIAL)
							spatial *= m->f[l][d];
					units *= w->bound[d] / spatial;
				}
			if (lanes) /* the input zeros are the lanes' imbalance, below */
				density = out_keep;
		} else { /* input skipping: real MACs per PE (zero skipping also skips the
		          * predictable zeros, which are never executed: not Binomial units) */
			units = (x->macs - x->zero_macs) / x->active_pes;
		}
		int rc = trim_sparsity_imbalance(units, density, x->active_pes, spread, L->sp_redistribute,
		                                 &out->pe_imbalance);
		if (rc)
			return rc;
	}
	if (lanes) { /* each lane holds lane_buffers blocks of `block` entries; the
	              * adder tree reduces when every lane is done with them */
		int rc = trim_sparsity_imbalance((int64_t)L->sp_lane_buffers * L->sp_block, in_keep,
		                                 L->sp_lanes, 0, 0, &out->lane_imbalance);
		if (rc)
			return rc;
	}
	return 0;
}

int trim__sparse_adjust(const trim__intra *w, const struct trim_arch *a,
                        const trim__level_cost *costs, const trim__mapping *m,
                        const trim__eval *dense, const double *sp, trim__sparse_eval *out)
{
	memset(out, 0, sizeof *out);
	const int c = a->nlevels - 1;
	const trim__level *L = &a->lv[c];
	const trim__level_cost *cc = &costs[c];
	const trim__activity *x = &dense->act;
	double s0 = sp[TRIM_SP_OPERAND0], s1 = sp[TRIM_SP_OPERAND1], so = sp[TRIM_SP_OUTPUT];
	double in_keep = (1 - s0) * (1 - s1);
	double out_keep = (w->phase == TRIM_PHASE_BW && L->bw_output_skip) ? 1 - so : 1;
	int in_skip = L->zero_skip && in_keep < 1;
	double q = out_keep * (in_skip ? in_keep : 1);
	out->skips = q < 1;
	out->gates = !in_skip && L->zero_gate && in_keep < 1;
	out->time_factor = q;
	out->dense_cycles = dense->cycles;
	out->dense_energy_pj = dense->energy_pj;

	/* compute time: the executed fraction, stretched by the most loaded PE
	 * and the slowest lane */
	double real = (double)(x->macs - x->zero_macs);
	out->effective_macs = real * q + (L->zero_skip ? 0 : (double)x->zero_macs);
	int rc = imbalance(w, a, m, x, q, in_keep, out_keep, in_skip, sp[TRIM_SP_SPREAD], out);
	if (rc)
		return rc;
	out->imbalance = out->pe_imbalance * out->lane_imbalance;
	double dense_compute = dense->level_cycles[c];
	/* the dense compute time covers real MACs (and the predictable zeros unless skipped) */
	double dense_exec = real + (L->zero_skip ? 0 : (double)x->zero_macs);
	double exec = real * q * out->imbalance + (L->zero_skip ? 0 : (double)x->zero_macs);
	out->compute_cycles = dense_exec > 0 ? dense_compute * exec / dense_exec : 0;

	/* MAC energy: output-skipped MACs cost nothing; input zeros cost nothing when
	 * skipped, a gated MAC when gated, a full MAC otherwise */
	double zero_part = dense->mac_pj - real * cc->mac_pj;
	double in_zero_pj = in_skip ? 0 : (L->zero_gate ? cc->gated_mac_pj : cc->mac_pj);
	out->mac_pj = real * out_keep * (in_keep * cc->mac_pj + (1 - in_keep) * in_zero_pj) + zero_part;

	/* traffic per level and tensor: scale factors of the dense counts.
	 * val: the values moved (1 dense; the non-zeros when compressed);
	 * meta: metadata words per dense word (indices of the non-zeros);
	 * exec: the executed fraction of the MACs, for the operand reads and
	 * result updates of the PE-local level the MACs use */
	int meta_on = L->sp_metadata != TRIM__META_NONE && (in_skip || out->gates || out_keep < 1);
	double spars[2] = {s0, s1}, val[3] = {1, 1, 1};
	int sparse_t[2] = {0, 0};
	for (int t = 0; t < 2; t++) {
		sparse_t[t] = meta_on && spars[t] > 0 && w->t[t].present;
		if (sparse_t[t] && L->sp_compressed)
			val[t] = 1 - spars[t];
	}
	if (L->sp_compressed && out_keep < 1) /* masked results are neither accumulated nor stored */
		val[2] = out_keep;
	double skipped = real * (1 - q);
	double exec_frac = x->macs > 0 ? 1 - skipped / (double)x->macs : 1;
	int holder[3];
	for (int t = 0; t < 3; t++)
		holder[t] = local_holder(a, m, t);
	double saved = 0, meta_pj = 0, meta_words = 0;
	for (int l = 0; l < c; l++) {
		const trim__level *V = &a->lv[l];
		const trim__level_cost *k = &costs[l];
		double lc = 0;
		if (V->type == TRIM__LVL_STORAGE) {
			int bits = level_bits(a, l);
			double rd = 0, wr = 0;
			for (int t = 0; t < 3; t++) {
				double r = (double)x->reads[l][t], dr = (double)x->drains[l][t],
				       f = (double)x->fills[l][t], u = (double)x->updates[l][t];
				double meta = 0;
				if (t < 2 && sparse_t[t])
					meta = L->sp_metadata == TRIM__META_BITMAP ? 1.0 / bits
					                                           : (1 - spars[t]) * L->sp_offset_bits / bits;
				/* the MACs' own operand reads and accumulator reads and updates
				 * happen for executed MACs only; drains and fills move values */
				double rs = holder[t] == l ? exec_frac : val[t];
				double us = holder[t] == l ? exec_frac : val[t];
				double v = val[t];
				rd += r * (rs + meta) + (double)trim__drain_bw(k, x->drains[l][t]) * (v + meta);
				wr += f * (v + meta) + u * us;
				/* the drains charged: none under Timeloop's counting (rule 3) */
				double drc = k->count == TRIM_COUNT_TIMELOOP ? 0 : dr;
				saved += (r * (1 - rs) + drc * (1 - v)) * k->read_pj + f * (1 - v) * k->write_pj +
				         u * (1 - us) * k->update_pj;
				meta_pj += meta * ((r + drc) * k->read_pj + f * k->write_pj);
				meta_words += meta * (r + dr + f);
			}
			if (l == 0 && meta_on && out_keep < 1) { /* the BW output mask, one bit per result */
				double mask = (double)w->t[2].elems / bits;
				rd += mask;
				meta_pj += mask * k->read_pj;
				meta_words += mask;
			}
			double inst = (double)x->instances[l];
			double rc_ = V->read_bw > 0 ? rd / (V->read_bw * inst) : 0;
			double wc = V->write_bw > 0 ? wr / (V->write_bw * inst) : 0;
			lc = rc_ > wc ? rc_ : wc;
		} else if (V->type == TRIM__LVL_SPATIAL) {
			int bits = a->word_bits > 0 ? a->word_bits : 16;
			double words[3];
			for (int t = 0; t < 3; t++) {
				double meta = 0;
				if (t < 2 && sparse_t[t])
					meta = L->sp_metadata == TRIM__META_BITMAP ? 1.0 / bits
					                                           : (1 - spars[t]) * L->sp_offset_bits / bits;
				double n = (double)(x->down_words[l][t] + x->up_out[l][t]);
				words[t] = n * (val[t] + meta);
				saved += dense->dyn_pj[l][t] * (1 - val[t]);
				meta_pj += dense->dyn_pj[l][t] * meta;
				meta_words += n * meta;
			}
			/* one link for every tensor, or one network per tensor */
			lc = trim__link_cycles(V, a->word_bits, words, (double)x->instances[l]);
		}
		/* a systolic array: the MACs' cycles plus its pipeline's (lib/eval/systolic.c) */
		double extra = x->exact ? trim__systolic_extra_cycles(w, a, m, x, l) : 0;
		if (extra > 0 && out->compute_cycles + extra > lc)
			lc = out->compute_cycles + extra;
		out->level_cycles[l] = lc;
	}
	out->level_cycles[c] = out->compute_cycles;
	out->bottleneck = c;
	double cyc = out->compute_cycles;
	for (int l = 0; l < c; l++)
		if (out->level_cycles[l] > cyc) {
			cyc = out->level_cycles[l];
			out->bottleneck = l;
		}
	out->cycles = cyc;
	out->saved_access_pj = saved;
	out->metadata_pj = meta_pj;
	out->metadata_words = meta_words;

	/* encoding: FW results are indexed once for the next layer */
	if (L->sp_metadata != TRIM__META_NONE && w->phase == TRIM_PHASE_FW)
		out->encode_pj = L->sp_encode_pj * (double)w->t[2].elems;

	/* leakage over the new time */
	double dense_static = 0;
	for (int l = 0; l < a->nlevels; l++)
		dense_static += dense->static_pj[l];
	out->static_pj = dense->cycles > 0 ? dense_static * out->cycles / dense->cycles : 0;
	out->energy_pj = dense->energy_pj - dense->mac_pj - dense_static + out->mac_pj -
	                 out->saved_access_pj + out->metadata_pj + out->encode_pj + out->static_pj;
	return 0;
}
