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

	/* compute time: the executed fraction, stretched by the most loaded PE */
	double real = (double)(x->macs - x->zero_macs);
	out->effective_macs = real * q + (L->zero_skip ? 0 : (double)x->zero_macs);
	out->imbalance = 1;
	if (q < 1 && L->sp_imbalance && x->active_pes > 1) {
		int64_t units;
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
		} else { /* input skipping: real MACs per PE (zero skipping also skips the
		          * predictable zeros, which are never executed: not Binomial units) */
			units = (x->macs - x->zero_macs) / x->active_pes;
		}
		int rc = trim_sparsity_imbalance(units, q, x->active_pes, sp[TRIM_SP_SPREAD],
		                                 L->sp_redistribute, &out->imbalance);
		if (rc)
			return rc;
	}
	double dense_compute = dense->level_cycles[c];
	/* the dense compute time covers real MACs (and the predictable zeros unless skipped) */
	double dense_exec = real + (L->zero_skip ? 0 : (double)x->zero_macs);
	double exec = real * q * out->imbalance + (L->zero_skip ? 0 : (double)x->zero_macs);
	out->compute_cycles = dense_exec > 0 ? dense_compute * exec / dense_exec : 0;
	double cyc = out->compute_cycles;
	for (int l = 0; l < c; l++)
		if (dense->level_cycles[l] > cyc)
			cyc = dense->level_cycles[l];
	out->cycles = cyc;

	/* MAC energy: output-skipped MACs cost nothing; input zeros cost nothing when
	 * skipped, a gated MAC when gated, a full MAC otherwise */
	double zero_part = dense->mac_pj - real * cc->mac_pj;
	double in_zero_pj = in_skip ? 0 : (L->zero_gate ? cc->gated_mac_pj : cc->mac_pj);
	out->mac_pj = real * out_keep * (in_keep * cc->mac_pj + (1 - in_keep) * in_zero_pj) + zero_part;

	/* skipped MACs read no operands and update no partial sums in the PE's own storage */
	double skipped = real * (1 - q);
	if (x->macs > 0 && skipped > 0) {
		double frac = skipped / (double)x->macs;
		for (int t = 0; t < 3; t++) {
			int l = local_holder(a, m, t);
			if (l < 0 || !w->t[t].present)
				continue;
			double per = t < 2 ? (double)x->reads[l][t] * costs[l].read_pj
			                   : (double)x->updates[l][t] * costs[l].update_pj;
			out->saved_access_pj += per * frac;
		}
	}

	/* metadata: indices of the non-zeros of each sparse operand travel with it */
	if (L->sp_metadata != TRIM__META_NONE && (in_skip || out->gates || out_keep < 1)) {
		for (int t = 0; t < 2; t++) {
			double s = t == 0 ? s0 : s1;
			if (s <= 0 || !w->t[t].present)
				continue;
			for (int l = 0; l < c; l++) {
				if (a->lv[l].type != TRIM__LVL_STORAGE)
					continue;
				int bits = a->lv[l].word_bits > 0 ? a->lv[l].word_bits : a->word_bits;
				double ratio = L->sp_metadata == TRIM__META_BITMAP
				                   ? 1.0 / bits
				                   : (1 - s) * L->sp_offset_bits / bits;
				out->metadata_pj += ratio * ((double)x->fills[l][t] * costs[l].write_pj +
				                             (double)x->reads[l][t] * costs[l].read_pj);
			}
		}
		if (out_keep < 1) { /* the BW output mask, one bit per result, read from DRAM */
			int bits = a->lv[0].word_bits > 0 ? a->lv[0].word_bits : a->word_bits;
			out->metadata_pj += (double)w->t[2].elems / bits * costs[0].read_pj;
		}
	}
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
