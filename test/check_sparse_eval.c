/* Sparse evaluation: skipping, gating, imbalance, metadata on a real architecture. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "energy/energy_int.h"
#include "mapping/mapping_int.h"
#include "sparsity/sparse_eval_int.h"
#include "trim.h"
#include "trim/eval.h"
#include "trim/mapping.h"

/* conv0 (3x3, ReLU, 50% zeros) -> conv1 (1x1, ReLU, 40% zeros) -> conv2 (3x3,
 * padding same): conv1's BW has 40% input sparsity (its ReLU masks dY) and 50%
 * output sparsity (conv0's ReLU masks dX); a 1x1 stride-1 BW has no
 * predictable zeros; conv2's FW reads conv1's 40% zeros and its padding. */
static const char *NET =
	"network: {name: sp, input: [16, 16, 8], batch: 2, mode: training}\n"
	"layers:\n"
	"  - {name: conv0, type: conv2d, filters: 16, kernel: 3, padding: same, activation: relu, sparsity: 0.5}\n"
	"  - {name: conv1, type: conv2d, filters: 16, kernel: 1, activation: relu, sparsity: 0.4}\n"
	"  - {name: conv2, type: conv2d, filters: 16, kernel: 3, padding: same}\n";

static char *arch_yaml(const char *mac_extra)
{
	static char buf[2048];
	snprintf(buf, sizeof buf,
	         "schema_version: 1\nname: t\nclock_mhz: 200\ntechnology: 65nm\nword_bits: 16\nlevels:\n"
	         "  - {name: DRAM, type: storage, class: dram, technology: ddr3, read_bw: 64, write_bw: 64}\n"
	         "  - {name: GLB, type: storage, class: sram, capacity: 256 KB, read_bw: 64, write_bw: 64}\n"
	         "  - {name: NoC, type: spatial, fanout: [16, 16], network: bus, multicast: true, reduction: true}\n"
	         "  - {name: RF, type: storage, class: regfile, capacity: 1 KB}\n"
	         "  - {name: MAC, type: compute, datatype: int16%s}\n",
	         mac_extra);
	return buf;
}

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_sparsity *sp;
	trim_arch *arch;
	trim_energy *table;
	trim_mapping *m;
	trim__level_cost costs[TRIM__MAX_LEVELS];
	const trim__intra *x;
	trim__eval dense;
	trim__eval_ws ws;
	double f[TRIM_SP_NFIELDS];
} fx;

static void setup(fx *s, const char *mac_extra, const char *layer, int phase)
{
	memset(s, 0, sizeof *s);
	ck_assert(trim_network_load_string(&s->net, NET, "sp.yaml") == 0);
	ck_assert(trim_workloads_create(&s->w, s->net, TRIM_MODE_DEFAULT, 0, 0) == 0);
	ck_assert(trim_sparsity_create(&s->sp, s->net, s->w) == 0);
	ck_assert_msg(trim_arch_load_string(&s->arch, arch_yaml(mac_extra), "t.yaml") == 0, "%s",
	              trim_last_error());
	ck_assert_msg(trim_energy_load_for_arch(&s->table, s->arch) == 0, "%s", trim_last_error());
	ck_assert(trim__arch_costs(s->arch, s->table, s->costs) == 0);
	size_t i;
	ck_assert(trim_workloads_find(s->w, layer, phase, &i) == 0);
	s->x = trim__workloads_intra(s->w, i);
	ck_assert(trim_sparsity_workload(s->sp, i, s->f, TRIM_SP_NFIELDS) == 0);
	/* E and F spread over the 16 x 16 array, everything else at DRAM */
	ck_assert(trim_mapping_create(&s->m, s->arch) == 0);
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t b = s->x->bound[d];
		if (d == TRIM_DIM_E || d == TRIM_DIM_F)
			ck_assert(trim_mapping_set_spatial(s->m, 2, d, d == TRIM_DIM_E ? 16 : 1,
			                                   d == TRIM_DIM_F ? 16 : 1) == 0),
				b /= 16;
		ck_assert(trim_mapping_set_temporal(s->m, 0, d, b) == 0);
	}
	ck_assert_msg(trim__mapping_check(s->m, s->x, s->arch) == 0, "%s", trim_last_error());
	ck_assert(trim__eval_run(s->x, s->arch, s->costs, s->m, &s->ws, &s->dense) == 0);
}

static void teardown(fx *s)
{
	trim__eval_ws_free(&s->ws);
	trim_mapping_free(s->m);
	trim_energy_free(s->table);
	trim_arch_free(s->arch);
	trim_sparsity_free(s->sp);
	trim_workloads_free(s->w);
	trim_network_free(s->net);
}

START_TEST(test_output_skip_scales_exactly_without_imbalance)
{
	fx s;
	setup(&s, ", bw_output_skip: true, sparsity: {load_imbalance: false}", "conv1", TRIM_PHASE_BW);
	ck_assert(s.f[TRIM_SP_OUTPUT] == 0.5);
	ck_assert_int_eq(s.x->zero_macs, 0);
	trim__sparse_eval r;
	ck_assert(trim__sparse_adjust(s.x, s.arch, s.costs, s.m, &s.dense, s.f, &r) == 0);
	double dc = s.dense.level_cycles[s.arch->nlevels - 1];
	ck_assert_msg(fabs(r.compute_cycles - dc * 0.5) < 1e-9 * dc, "%g vs %g", r.compute_cycles, dc * 0.5);
	ck_assert(r.energy_pj < r.dense_energy_pj);
	ck_assert(r.imbalance == 1);
	teardown(&s);
}
END_TEST

START_TEST(test_imbalance_never_beats_the_bound)
{
	fx s;
	setup(&s, ", bw_output_skip: true, zero_skip: true", "conv1", TRIM_PHASE_BW);
	trim__sparse_eval r;
	ck_assert(trim__sparse_adjust(s.x, s.arch, s.costs, s.m, &s.dense, s.f, &r) == 0);
	double dc = s.dense.level_cycles[s.arch->nlevels - 1];
	double bound = dc * (1 - s.f[TRIM_SP_OUTPUT]) * (1 - s.f[TRIM_SP_OPERAND0]);
	ck_assert(r.imbalance > 1);
	ck_assert_msg(r.compute_cycles > bound, "%g <= ideal %g", r.compute_cycles, bound);
	/* redistribution at 30% brings it closer, never below the ideal */
	fx t;
	setup(&t, ", bw_output_skip: true, zero_skip: true, sparsity: {redistribution_threshold: 0.3}",
	      "conv1", TRIM_PHASE_BW);
	trim__sparse_eval q;
	ck_assert(trim__sparse_adjust(t.x, t.arch, t.costs, t.m, &t.dense, t.f, &q) == 0);
	ck_assert(q.imbalance <= 1.3 + 1e-12 && q.imbalance <= r.imbalance);
	ck_assert(q.compute_cycles >= bound);
	teardown(&t);
	teardown(&s);
}
END_TEST

/* E[max of P iid Binomial(u, p)] = sum_{k<u} 1 - F(k)^P, the CDF summed term
 * by term in log space here (not GSL's incomplete beta, as the library). */
static double expected_max_binomial(int64_t u, double p, int64_t P)
{
	double F = 0, s = 0;
	for (int64_t k = 0; k < u; k++) {
		double lp = lgamma((double)u + 1) - lgamma((double)k + 1) - lgamma((double)(u - k) + 1) +
		            (double)k * log(p) + (double)(u - k) * log1p(-p);
		F += exp(lp);
		s += 1 - pow(F > 1 ? 1 : F, (double)P);
	}
	return s;
}

/* Input-zero skipping (docs/sparsity.md, "Load imbalance"): u = real MACs per
 * PE (the predictable zeros are skipped whatever their operand), each
 * executed with probability q = 1 - s_0; imbalance = E[max of the active PEs'
 * Binomial(u, q)] / (u q), and the compute time is the dense one x q x
 * imbalance. A layer without predictable zeros (conv1, 1x1) and one with
 * (conv2, 3x3 padding same: its border MACs read padding). */
START_TEST(test_input_skip_imbalance_formula)
{
	static const char *const layers[] = {"conv1", "conv2"};
	for (int k = 0; k < 2; k++) {
		fx s;
		setup(&s, ", zero_skip: true", layers[k], TRIM_PHASE_FW);
		double q = 1 - s.f[TRIM_SP_OPERAND0];
		ck_assert_msg(fabs(q - (k == 0 ? 0.5 : 0.6)) < 1e-12, "%s: q %g", layers[k], q);
		ck_assert(k == 0 ? s.x->zero_macs == 0 : s.x->zero_macs > 0);
		trim__sparse_eval r;
		ck_assert(trim__sparse_adjust(s.x, s.arch, s.costs, s.m, &s.dense, s.f, &r) == 0);
		int64_t pes = s.dense.act.active_pes;
		ck_assert_int_eq(pes, 256);
		int64_t u = (s.x->macs - s.x->zero_macs) / pes;
		double want = expected_max_binomial(u, q, pes) / ((double)u * q);
		ck_assert_msg(fabs(r.imbalance - want) < 1e-9 * want, "%s: imbalance %.15g, formula %.15g (u %lld)",
		              layers[k], r.imbalance, want, (long long)u);
		ck_assert(r.imbalance > 1);
		double dc = s.dense.level_cycles[s.arch->nlevels - 1];
		double real = (double)(s.x->macs - s.x->zero_macs);
		/* the dense time covers the real MACs only: zero skipping drops the predictable zeros */
		double want_cycles = dc * real * q * want / real;
		ck_assert_msg(fabs(r.compute_cycles - want_cycles) < 1e-9 * want_cycles, "%s: %g vs %g", layers[k],
		              r.compute_cycles, want_cycles);
		teardown(&s);
	}
}
END_TEST

START_TEST(test_gating_saves_energy_not_time)
{
	fx s;
	setup(&s, ", zero_gate: true", "conv1", TRIM_PHASE_FW);
	ck_assert(s.f[TRIM_SP_OPERAND0] == 0.5); /* conv0's ReLU output */
	trim__sparse_eval r;
	ck_assert(trim__sparse_adjust(s.x, s.arch, s.costs, s.m, &s.dense, s.f, &r) == 0);
	ck_assert(r.gates && !r.skips);
	ck_assert(r.cycles == s.dense.cycles);
	ck_assert(r.mac_pj < s.dense.mac_pj);
	ck_assert(r.energy_pj < r.dense_energy_pj);
	teardown(&s);
	/* no sparsity features: exactly the dense figures */
	setup(&s, "", "conv1", TRIM_PHASE_FW);
	ck_assert(trim__sparse_adjust(s.x, s.arch, s.costs, s.m, &s.dense, s.f, &r) == 0);
	ck_assert(r.cycles == s.dense.cycles);
	ck_assert_msg(fabs(r.energy_pj - s.dense.energy_pj) < 1e-9 * s.dense.energy_pj, "%g vs %g",
	              r.energy_pj, s.dense.energy_pj);
	teardown(&s);
}
END_TEST

START_TEST(test_metadata_costs_energy)
{
	fx a, b;
	setup(&a, ", zero_skip: true, sparsity: {metadata: none}", "conv1", TRIM_PHASE_FW);
	setup(&b, ", zero_skip: true, sparsity: {metadata: offsets, offset_bits: 5, block: 32, encode_pj: 0.5}",
	      "conv1", TRIM_PHASE_FW);
	trim__sparse_eval ra, rb;
	ck_assert(trim__sparse_adjust(a.x, a.arch, a.costs, a.m, &a.dense, a.f, &ra) == 0);
	ck_assert(trim__sparse_adjust(b.x, b.arch, b.costs, b.m, &b.dense, b.f, &rb) == 0);
	ck_assert(ra.metadata_pj == 0 && rb.metadata_pj > 0);
	ck_assert(rb.encode_pj == 0.5 * (double)b.x->t[2].elems);
	ck_assert(rb.energy_pj > ra.energy_pj);
	ck_assert(ra.compute_cycles < a.dense.level_cycles[a.arch->nlevels - 1]);
	teardown(&a);
	teardown(&b);
	/* a bad sparsity block in the architecture names file, line and key */
	trim_arch *bad = NULL;
	ck_assert_int_eq(trim_arch_load_string(&bad, arch_yaml(", sparsity: {metadata: huffman}"), "m.yaml"),
	                 TRIM_ESCHEMA);
	ck_assert(strstr(trim_last_error(), "m.yaml:11:") && strstr(trim_last_error(), "sparsity.metadata"));
}
END_TEST

/* With no sparse hardware the sparse level times are the evaluator's, level
 * by level (sparse_eval.c recomputes them from the counts: the two formulas
 * must not drift apart). */
START_TEST(test_level_cycles_match_the_evaluator)
{
	static const char *const extra[] = {"", ", zero_gate: true"};
	for (int k = 0; k < 2; k++) {
		fx s;
		setup(&s, extra[k], "conv1", TRIM_PHASE_BW);
		trim__sparse_eval r;
		ck_assert(trim__sparse_adjust(s.x, s.arch, s.costs, s.m, &s.dense, s.f, &r) == 0);
		for (int l = 0; l < s.arch->nlevels; l++)
			ck_assert_msg(r.level_cycles[l] == s.dense.level_cycles[l], "level %d: %.17g vs %.17g", l,
			              r.level_cycles[l], s.dense.level_cycles[l]);
		ck_assert(r.cycles == s.dense.cycles && r.bottleneck == s.dense.bottleneck);
		teardown(&s);
	}
}
END_TEST

/* Lanes that skip input zeros meet at the adder tree after every
 * lane_buffers x block entries (docs/sparsity.md, "Load imbalance"):
 * lane imbalance = E[max of `lanes` Binomial(lane_buffers x block, 1 - s)]
 * / (lane_buffers x block x (1 - s)); double buffering lowers it; the
 * compute time is the dense one x (1 - s) x PE imbalance x lane imbalance. */
START_TEST(test_lane_imbalance)
{
	fx s, d, n;
	setup(&s, ", macs_per_cycle: 16, zero_skip: true, sparsity: {lanes: 16, block: 32}", "conv1",
	      TRIM_PHASE_FW);
	setup(&d, ", macs_per_cycle: 16, zero_skip: true, sparsity: {lanes: 16, block: 32, lane_buffers: 2}",
	      "conv1", TRIM_PHASE_FW);
	setup(&n, ", macs_per_cycle: 16, zero_skip: true", "conv1", TRIM_PHASE_FW);
	trim__sparse_eval r, rd, rn;
	ck_assert(trim__sparse_adjust(s.x, s.arch, s.costs, s.m, &s.dense, s.f, &r) == 0);
	ck_assert(trim__sparse_adjust(d.x, d.arch, d.costs, d.m, &d.dense, d.f, &rd) == 0);
	ck_assert(trim__sparse_adjust(n.x, n.arch, n.costs, n.m, &n.dense, n.f, &rn) == 0);
	double p = 1 - s.f[TRIM_SP_OPERAND0];
	ck_assert(p == 0.5);
	double want = expected_max_binomial(32, p, 16) / (32 * p);
	ck_assert_msg(fabs(r.lane_imbalance - want) < 1e-9 * want, "lane %.15g, formula %.15g", r.lane_imbalance,
	              want);
	double want2 = expected_max_binomial(64, p, 16) / (64 * p);
	ck_assert_msg(fabs(rd.lane_imbalance - want2) < 1e-9, "double-buffered lane %.15g vs %.15g",
	              rd.lane_imbalance, want2);
	ck_assert(rd.lane_imbalance > 1 && rd.lane_imbalance < r.lane_imbalance);
	ck_assert(rn.lane_imbalance == 1); /* no lanes declared: no lane term */
	double dc = s.dense.level_cycles[s.arch->nlevels - 1];
	double wc = dc * p * r.pe_imbalance * r.lane_imbalance;
	ck_assert_msg(fabs(r.compute_cycles - wc) < 1e-9 * wc, "%g vs %g", r.compute_cycles, wc);
	ck_assert(r.compute_cycles > rd.compute_cycles && rd.compute_cycles > rn.compute_cycles);
	teardown(&n);
	teardown(&d);
	teardown(&s);
}
END_TEST

/* The lane model against a deterministic simulation of lanes that stop at
 * the adder tree after every group (lane_buffers = 1): exact; with two
 * groups a lane may run one group ahead, and the model (a meeting every two
 * groups) is an upper bound on the time. */
START_TEST(test_lane_model_against_simulation)
{
	const int lanes = 16, block = 32, groups = 3000;
	const double p = 0.5;
	unsigned long long x = 88172645463325252ULL;
	double fin[16] = {0}, all[3000];
	for (int D = 1; D <= 2; D++) {
		memset(fin, 0, sizeof fin);
		for (int k = 0; k < groups; k++) {
			double mx = 0;
			for (int i = 0; i < lanes; i++) {
				int c = 0;
				for (int e = 0; e < block; e++) {
					x ^= x << 13; x ^= x >> 7; x ^= x << 17;
					c += (double)(x >> 11) / 9007199254740992.0 < p;
				}
				double start = fin[i];
				if (k >= D && all[k - D] > start)
					start = all[k - D];
				fin[i] = start + c;
				if (fin[i] > mx)
					mx = fin[i];
			}
			all[k] = mx;
		}
		double sim = all[groups - 1] / (groups * block * p);
		double model = 0;
		ck_assert(trim_sparsity_imbalance((int64_t)D * block, p, lanes, 0, 0, &model) == 0);
		if (D == 1)
			ck_assert_msg(fabs(model - sim) < 0.01, "one group: model %g, simulation %g", model, sim);
		else
			ck_assert_msg(model > sim && sim > 1, "two groups: model %g, simulation %g", model, sim);
	}
}
END_TEST

/* Sparse operands move compressed (the non-zeros and their offsets) when
 * the architecture says so: every level's traffic of the operand scales by
 * (1 - s) + (1 - s) offset_bits / word_bits; the dense format moves the
 * values plus the offsets, and the metadata is counted in time as well as in
 * energy. */
START_TEST(test_compressed_and_metadata_traffic)
{
	fx dn, cp;
	setup(&dn, ", zero_skip: true, sparsity: {metadata: offsets, offset_bits: 5}", "conv1", TRIM_PHASE_FW);
	setup(&cp, ", zero_skip: true, sparsity: {metadata: offsets, offset_bits: 5, format: compressed}", "conv1",
	      TRIM_PHASE_FW);
	trim__sparse_eval rd, rc;
	ck_assert(trim__sparse_adjust(dn.x, dn.arch, dn.costs, dn.m, &dn.dense, dn.f, &rd) == 0);
	ck_assert(trim__sparse_adjust(cp.x, cp.arch, cp.costs, cp.m, &cp.dense, cp.f, &rc) == 0);
	const trim__activity *a = &dn.dense.act;
	double s = dn.f[TRIM_SP_OPERAND0], meta = (1 - s) * 5.0 / 16;
	ck_assert(s == 0.5);
	/* DRAM (level 0) is read-bound by the input and the weights: 64 words per cycle */
	double in = (double)(a->reads[0][0] + a->drains[0][0]), wt = (double)(a->reads[0][1] + a->drains[0][1]),
	       out = (double)(a->reads[0][2] + a->drains[0][2]);
	double rd_dense = (in * (1 + meta) + wt + out) / 64, rd_comp = (in * (1 - s + meta) + wt + out) / 64;
	double wr = (double)(a->fills[0][0] + a->fills[0][1] + a->fills[0][2] + a->updates[0][0] +
	                     a->updates[0][1] + a->updates[0][2]) / 64;
	ck_assert_msg(fabs(rd.level_cycles[0] - (rd_dense > wr ? rd_dense : wr)) < 1e-9 * rd_dense, "%g vs %g",
	              rd.level_cycles[0], rd_dense);
	ck_assert_msg(fabs(rc.level_cycles[0] - (rd_comp > wr ? rd_comp : wr)) < 1e-9 * rd_comp, "%g vs %g",
	              rc.level_cycles[0], rd_comp);
	ck_assert(rd.level_cycles[0] > dn.dense.level_cycles[0]); /* the offsets cost time */
	ck_assert(rc.level_cycles[0] < dn.dense.level_cycles[0]); /* compression saves it */
	/* metadata words: the offsets of every read and fill of the input at each
	 * storage level, and of every input word crossing the network */
	double mw = 0;
	for (int l = 0; l < dn.arch->nlevels - 1; l++) {
		if (dn.arch->lv[l].type == TRIM__LVL_STORAGE)
			mw += meta * (double)(a->reads[l][0] + a->drains[l][0] + a->fills[l][0]);
		else if (dn.arch->lv[l].type == TRIM__LVL_SPATIAL)
			mw += meta * (double)(a->down_words[l][0] + a->up_out[l][0]);
	}
	ck_assert_msg(mw > 0 && fabs(rd.metadata_words - mw) < 1e-9 * mw, "%g vs %g", rd.metadata_words, mw);
	ck_assert(fabs(rc.metadata_words - mw) < 1e-9 * mw);
	ck_assert(rc.saved_access_pj > rd.saved_access_pj && rc.energy_pj < rd.energy_pj);
	teardown(&cp);
	teardown(&dn);
	/* compressed values need their indices */
	trim_arch *bad = NULL;
	ck_assert_int_eq(trim_arch_load_string(&bad, arch_yaml(", sparsity: {format: compressed}"), "c.yaml"),
	                 TRIM_ESCHEMA);
	ck_assert_msg(strstr(trim_last_error(), "c.yaml:11:") && strstr(trim_last_error(), "sparsity.format"), "%s",
	              trim_last_error());
	ck_assert_int_eq(trim_arch_load_string(&bad, arch_yaml(", sparsity: {lanes: 0}"), "l.yaml"), TRIM_ERANGE);
	ck_assert(strstr(trim_last_error(), "sparsity.lanes"));
}
END_TEST

/* Bitmap metadata, counted by hand: one bit per dense word of every sparse
 * operand moved (1/16 of a word per word at 16 bits), at every storage
 * level's reads, drains and fills and on the network; in BW with the
 * outputs skipped, the output mask too, one bit per result read once at
 * DRAM. The metadata's energy is its words at each level's access costs. */
START_TEST(test_bitmap_and_output_mask_by_hand)
{
	for (int bw = 0; bw < 2; bw++) {
		fx s;
		setup(&s, ", zero_skip: true, bw_output_skip: true, sparsity: {metadata: bitmap, load_imbalance: false}",
		      "conv1", bw ? TRIM_PHASE_BW : TRIM_PHASE_FW);
		trim__sparse_eval r;
		ck_assert(trim__sparse_adjust(s.x, s.arch, s.costs, s.m, &s.dense, s.f, &r) == 0);
		const trim__activity *a = &s.dense.act;
		const double bit = 1.0 / 16;
		double words = 0, pj = 0;
		for (int t = 0; t < 2; t++) {
			if (!(s.f[TRIM_SP_OPERAND0 + t] > 0))
				continue;
			for (int l = 0; l < s.arch->nlevels - 1; l++) {
				if (s.arch->lv[l].type == TRIM__LVL_STORAGE) {
					double rd = (double)(a->reads[l][t] + a->drains[l][t]), f = (double)a->fills[l][t];
					words += bit * (rd + f);
					pj += bit * (rd * s.costs[l].read_pj + f * s.costs[l].write_pj);
				} else if (s.arch->lv[l].type == TRIM__LVL_SPATIAL) {
					words += bit * (double)(a->down_words[l][t] + a->up_out[l][t]);
					pj += bit * s.dense.dyn_pj[l][t];
				}
			}
		}
		if (bw) { /* dX masked by conv0's ReLU: half the results skipped */
			ck_assert(s.f[TRIM_SP_OUTPUT] == 0.5);
			double mask = (double)s.x->t[2].elems * bit;
			words += mask;
			pj += mask * s.costs[0].read_pj;
		}
		ck_assert(s.f[TRIM_SP_OPERAND0] > 0);
		ck_assert_msg(fabs(r.metadata_words - words) <= 1e-9 * words, "%s: %.17g vs %.17g", bw ? "BW" : "FW",
		              r.metadata_words, words);
		ck_assert_msg(fabs(r.metadata_pj - pj) <= 1e-9 * pj, "%s: %.17g vs %.17g pJ", bw ? "BW" : "FW", r.metadata_pj,
		              pj);
		teardown(&s);
	}
}
END_TEST

/* ---- the shipped sparse training accelerator, through `trim sparsity` ---- */

#define SPARSE_ARCH "models/arch/sparse-training.yaml"
#define BN_NET "test/data/sparsity/bn-block.yaml"

typedef struct {
	char layer[32], phase[4], bound[32];
	double dense_cycles, cycles, speedup, s_in0, s_in1, s_out;
} wl_row;

typedef struct {
	int n;
	wl_row w[16];
	double phase_speedup[3];
} sp_run;

/* `trim sparsity NET ARCH OPTIONS --format json`, parsed. */
static void run_sparsity(const char *net, const char *arch, const char *opts, sp_run *r)
{
	const char *cli = getenv("TRIM_CLI");
	if (!cli)
		cli = "build/bin/trim";
	char cmd[2048];
	static char buf[1 << 16];
	snprintf(cmd, sizeof cmd, "%s sparsity %s %s --quiet --threads 1 --format json %s", cli, net, arch, opts);
	FILE *p = popen(cmd, "r");
	ck_assert(p != NULL);
	size_t n = fread(buf, 1, sizeof buf - 1, p);
	buf[n] = '\0';
	ck_assert_msg(WEXITSTATUS(pclose(p)) == 0, "%s: %s", cmd, buf);
	memset(r, 0, sizeof *r);
	for (const char *at = strstr(buf, "{\"layer\": \""); at; at = strstr(at + 1, "{\"layer\": \"")) {
		ck_assert(r->n < 16);
		wl_row *w = &r->w[r->n++];
		double de, e, sav;
		int got = sscanf(at,
		                 "{\"layer\": \"%31[^\"]\", \"phase\": \"%3[^\"]\", \"dense_cycles\": %lf, \"cycles\": %lf, "
		                 "\"dense_energy_pj\": %lf, \"energy_pj\": %lf, \"speedup\": %lf, \"energy_saving\": %lf, "
		                 "\"operand_sparsity\": [%lf, %lf], \"output_sparsity\": %lf, \"bottleneck\": \"%31[^\"]\"",
		                 w->layer, w->phase, &w->dense_cycles, &w->cycles, &de, &e, &w->speedup, &sav, &w->s_in0,
		                 &w->s_in1, &w->s_out, w->bound);
		ck_assert_msg(got == 12, "parsed %d fields of %.300s", got, at);
	}
	static const char *const ph[3] = {"\"FW\": {", "\"BW\": {", "\"WG\": {"};
	const char *phases = strstr(buf, "\"phases\": {");
	ck_assert(phases != NULL);
	for (int k = 0; k < 3; k++) {
		const char *at = strstr(phases, ph[k]), *sp = at ? strstr(at, "\"speedup\": ") : NULL;
		ck_assert(sp != NULL);
		r->phase_speedup[k] = strtod(sp + strlen("\"speedup\": "), NULL);
	}
}

/* SPARSE_ARCH with one line replaced, in a temporary file; returns its path. */
static const char *arch_variant(const char *from, const char *to, char *path, size_t cap)
{
	FILE *f = fopen(SPARSE_ARCH, "r");
	ck_assert(f != NULL);
	static char text[1 << 15];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	char *at = strstr(text, from);
	ck_assert_msg(at != NULL, "'%s' not in " SPARSE_ARCH, from);
	snprintf(path, cap, "/tmp/trim-sparse-arch-%d-XXXXXX", (int)getpid());
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	FILE *o = fdopen(fd, "w");
	fprintf(o, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	fclose(o);
	return path;
}

static const wl_row *row(const sp_run *r, const char *layer, const char *phase)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->w[i].layer, layer) && !strcmp(r->w[i].phase, phase))
			return &r->w[i];
	ck_abort_msg("no workload %s %s", layer, phase);
	return NULL;
}

/* Issue 14: on the training baseline every workload was bound by DRAM, the
 * buffer or the array network and `trim sparsity` gave exactly 1.00x. On
 * the sparse training accelerator (GRADIENT_SPARSITY's lanes) the lanes bind
 * and the backward pass speeds up by output skipping, less than the ideal
 * 1/(1 - s) because of the most loaded PE; without the imbalance model it
 * is the ideal; the forward pass does not change with output skipping. */
START_TEST(test_sparse_training_accelerator)
{
	const char *opts = "--goal edp --dataflow output-stationary";
	sp_run full, flat, no_out;
	run_sparsity(BN_NET, SPARSE_ARCH, opts, &full);
	ck_assert_int_eq(full.n, 8);
	int bw = 0;
	for (int i = 0; i < full.n; i++) {
		const wl_row *w = &full.w[i];
		double ideal = 1 / ((1 - w->s_out) * (1 - w->s_in0) * (1 - w->s_in1));
		ck_assert_msg(w->speedup <= ideal * (1 + 1e-12), "%s %s: %g > ideal %g", w->layer, w->phase,
		              w->speedup, ideal);
		if (!strcmp(w->phase, "BW")) {
			bw++;
			ck_assert(w->s_out == 0.5 && w->s_in0 == 0); /* BN: dY dense, dX masked */
			ck_assert_msg(w->speedup > 1.2 && w->speedup < ideal * 0.99, "%s BW: %g (ideal %g)", w->layer,
			              w->speedup, ideal);
			ck_assert_str_eq(w->bound, "MAC"); /* the lanes bind, not a memory */
		}
	}
	ck_assert_int_eq(bw, 2);
	ck_assert(full.phase_speedup[1] > 1.2);
	ck_assert(row(&full, "conv1", "FW")->speedup == 1); /* the image: no zeros */

	char p1[256], p2[256];
	run_sparsity(BN_NET, arch_variant("load_imbalance: true", "load_imbalance: false", p1, sizeof p1), opts, &flat);
	run_sparsity(BN_NET, arch_variant("bw_output_skip: true", "bw_output_skip: false", p2, sizeof p2), opts,
	             &no_out);
	unlink(p1);
	unlink(p2);
	for (int i = 0; i < full.n; i++) {
		const wl_row *w = &full.w[i], *f = &flat.w[i], *o = &no_out.w[i];
		ck_assert(w->dense_cycles == f->dense_cycles && w->dense_cycles == o->dense_cycles);
		if (!strcmp(w->phase, "BW")) {
			/* without imbalance, exactly the skipped fraction */
			ck_assert_msg(fabs(f->speedup - 2) < 1e-9, "%s BW without imbalance: %g", w->layer, f->speedup);
			ck_assert(w->speedup < f->speedup);
			ck_assert(o->speedup == 1); /* no output skipping: nothing to skip in a dense dY */
		} else if (!strcmp(w->phase, "FW")) {
			ck_assert(w->cycles == o->cycles); /* output skipping leaves FW alone */
			ck_assert(w->speedup <= f->speedup);
		}
	}
	ck_assert(full.phase_speedup[1] < flat.phase_speedup[1]);

	/* the training baseline has neither skipping nor output skipping: 1.00x */
	sp_run base;
	run_sparsity(BN_NET, "models/arch/training-baseline.yaml", "--time-limit 3", &base);
	for (int i = 0; i < base.n; i++)
		ck_assert_msg(base.w[i].cycles == base.w[i].dense_cycles, "%s %s", base.w[i].layer, base.w[i].phase);
	ck_assert(base.phase_speedup[1] == 1);
}
END_TEST

Suite *sparse_eval_suite(void)
{
	Suite *s = suite_create("sparse_eval");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_output_skip_scales_exactly_without_imbalance);
	tcase_add_test(tc, test_imbalance_never_beats_the_bound);
	tcase_add_test(tc, test_input_skip_imbalance_formula);
	tcase_add_test(tc, test_gating_saves_energy_not_time);
	tcase_add_test(tc, test_metadata_costs_energy);
	tcase_add_test(tc, test_level_cycles_match_the_evaluator);
	tcase_add_test(tc, test_lane_imbalance);
	tcase_add_test(tc, test_lane_model_against_simulation);
	tcase_add_test(tc, test_compressed_and_metadata_traffic);
	tcase_add_test(tc, test_bitmap_and_output_mask_by_hand);
	suite_add_tcase(s, tc);
	TCase *cli = tcase_create("cli");
	tcase_set_timeout(cli, 600);
	tcase_add_test(cli, test_sparse_training_accelerator);
	suite_add_tcase(s, cli);
	return s;
}
