/*
 * A chain's hardware: the parameters and per-buffer energies of an
 * architecture and its energy table.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fusion_int.h"

/* ---- hardware ---------------------------------------------------------------- */

static int lookup(const trim_energy *t, const char *comp, const char *act, double cap,
                  double bits, double *v)
{
	double r[2];
	int rc = trim_energy_lookup(t, comp, act, cap, (int64_t)bits, TRIM_ENERGY_CLAMP, r, 2);
	if (rc == 0)
		*v = r[0];
	return rc;
}

TRIM_API int trim_fusion_set_hardware(trim_fusion *f, const trim_arch *a,
                                      const trim_energy *table)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(table, ENERGY, TRIM_EINVAL);
	if (!f || !a)
		return trim__error(TRIM_EINVAL, "trim_fusion_set_hardware: NULL argument");
	trim_energy *own = NULL;
	trim__level_cost *cost = NULL;
	int rc = 0;
	trim_fusion g = *f; /* work on a copy: f is unchanged on failure */
	if (!table) {
		rc = trim_energy_load_for_arch(&own, a);
		if (rc)
			goto out;
		table = own;
	}
	g.prm[TRIM_FUSION_CLOCK_MHZ] = a->clock_mhz;
	g.prm[TRIM_FUSION_WORD_BITS] = a->word_bits;
	double wb = a->word_bits;
	int dram = -1, comp = a->nlevels - 1;
	for (int i = 0; i < a->nlevels && dram < 0; i++)
		if (a->lv[i].type == TRIM__LVL_STORAGE && a->lv[i].mem_class == TRIM__MEM_DRAM)
			dram = i;
	if (dram >= 0) {
		const trim__level *d = &a->lv[dram];
		char name[48];
		snprintf(name, sizeof name, "dram.%s", d->technology);
		rc = lookup(table, name, "read", 0, 1, &g.prm[TRIM_FUSION_DRAM_PJ_PER_BIT]);
		if (rc)
			goto out;
		g.prm[TRIM_FUSION_DRAM_WORDS_PER_CYCLE] = d->read_bw * d->word_bits / wb;
	}
	if (a->lv[comp].type == TRIM__LVL_COMPUTE) {
		char name[48];
		snprintf(name, sizeof name, "mac.%s", a->lv[comp].datatype);
		rc = lookup(table, name, "mac", 0, wb, &g.prm[TRIM_FUSION_MAC_PJ]);
		if (rc)
			goto out;
	}
	if (trim_energy_is_fpga(table) == 1) {
		double avail[4];
		const char *dev = NULL;
		rc = trim__energy_device(table, avail, &dev);
		if (rc)
			goto out;
		g.prm[TRIM_FUSION_DSP_AVAILABLE] = avail[TRIM_RES_DSP];
		g.prm[TRIM_FUSION_BRAM36_AVAILABLE] = avail[TRIM_RES_BRAM36];
		g.prm[TRIM_FUSION_STATIC_MW] = trim__energy_static_mw(table);
		cost = trim__calloc((size_t)a->nlevels, sizeof *cost);
		if (!cost) {
			rc = TRIM_ENOMEM;
			goto out;
		}
		rc = trim__arch_costs(a, table, cost);
		if (rc)
			goto out;
		double macs = (double)a->lv[comp].instances * a->lv[comp].macs_per_cycle;
		if (macs > 0)
			g.prm[TRIM_FUSION_DSP_PER_MAC] = cost[comp].res[TRIM_RES_DSP] / macs;
		if (!(f->prm[TRIM_FUSION_BUDGET_DSP] > 0))
			g.prm[TRIM_FUSION_BUDGET_DSP] = avail[TRIM_RES_DSP];
	}
	/* per-layer buffer energies at each buffer's capacity */
	for (int i = 0; i < g.nl; i++) {
		fu_layer *l = &g.ly[i];
		fu_lq q;
		trim__fusion_layer_q(&g, i, &q);
		double bytes = wb / 8.0;
		if (!l->pool) {
			double lbcap = (q.line > 0 ? q.line : q.window) * bytes;
			if ((rc = lookup(table, "sram", "read", lbcap, wb, &l->lb_rd)) ||
			    (rc = lookup(table, "sram", "write", lbcap, wb, &l->lb_wr)) ||
			    (rc = lookup(table, "sram", "read", q.weights * bytes, wb, &l->w_rd)) ||
			    (rc = lookup(table, "sram", "write", q.weights * bytes, wb, &l->w_wr)))
				goto out;
		} else {
			double cap = q.poolbuf * bytes;
			if ((rc = lookup(table, "sram", "read", cap, wb, &l->pb_rd)) ||
			    (rc = lookup(table, "sram", "write", cap, wb, &l->pb_wr)))
				goto out;
		}
	}
	g.has_table = 1;
	snprintf(g.hw, sizeof g.hw, "%s", a->name);
	*f = g;
out:
	if (rc)
		trim__error_prefix("fusion hardware");
	free(cost);
	trim_energy_free(own);
	return rc;
}
