/* The per-level costs of an architecture under a table (trim__arch_costs,
 * lib/energy/energy_int.h): storage, networks and compute; and the totals built on
 * them, an FPGA's resources and the architecture's area. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy_local.h"
#include "util/handle.h"
#include "util/util.h"

/* ---- costs of an architecture ---------------------------------------------------- */

/* Prefix the current error with the level's position. */
/* A component's energy per idle cycle: Accelergy's `idle` action, or `leak`
 * (the name Accelergy 0.4 and Timeloop's ERTs use; per global cycle too). */
static int idle_act(const component *k, double *v)
{
	return trim__energy_comp_act(k, "idle", v) == 0 ? 0 : trim__energy_comp_act(k, "leak", v);
}

static int at_level(const trim_arch *a, int i, int rc)
{
	char where[512];
	snprintf(where, sizeof where, "%s:%d:%d: levels[%d] (%s)", a->file ? a->file : "<arch>",
	         a->lv[i].line, a->lv[i].col, i, a->lv[i].name);
	trim__error_prefix(where);
	return rc;
}

/* BRAM36 blocks of one buffer (7-series: BRAM18 = 1Kx18 .. 16Kx1, 512x36 in SDP mode). */
static double bram36_blocks(double cap_bytes, int bits)
{
	static const struct { int w; double depth; } cfg[] = {
		{1, 16384}, {2, 8192}, {4, 4096}, {9, 2048}, {18, 1024}, {36, 512}};
	double entries = ceil(cap_bytes * 8.0 / bits);
	double cols = 1, depth = 512;
	if (bits > 36) {
		cols = ceil(bits / 36.0);
	} else {
		for (size_t k = 0; k < TRIM__ARRAY_LEN(cfg); k++) {
			if (cfg[k].w >= bits) {
				depth = cfg[k].depth;
				break;
			}
		}
	}
	return cols * ceil(entries / depth) / 2.0;
}

/* Mean hops of a delivered word (docs/arch.md): from a corner port on a mesh,
 * half a row and half a column bus, an H-tree's depth; on a systolic array a
 * unicast word (a preloaded stationary word) shifts in from the top edge down
 * its column, (Y+1)/2 hops on average ((X+1)/2 along a 1-D array). */
static double topology_hops(const trim__level *lv)
{
	double x = (double)lv->fanout_x, y = (double)lv->fanout_y, h;
	switch (lv->net) {
	case TRIM__NET_BUS: h = (x + y) / 2.0; break;
	case TRIM__NET_HTREE: h = ceil(log2(x * y)); break;
	case TRIM__NET_SYSTOLIC: h = y > 1 ? (y + 1) / 2.0 : (x + 1) / 2.0; break;
	default: h = (x - 1) / 2.0 + (y - 1) / 2.0; break; /* mesh: from a corner */
	}
	return h < 1 ? 1 : h;
}

/* Area (um^2 per bit) of a flip-flop register: the table's smallest register
 * file per bit (0 if the table has no register-file areas). */
static int register_area_bit(const trim_energy *t, int bits, double *out)
{
	const grid *g = &t->g[1];
	*out = 0;
	if (!g->present || !g->val[Q_AREA] || g->nc == 0)
		return 0;
	int nc = 0;
	double v;
	int rc = trim__energy_grid_eval(t, 1, Q_AREA, g->cap[0], bits, TRIM_ENERGY_CLAMP, &v, &nc);
	if (rc)
		return rc;
	*out = v / (g->cap[0] * 8);
	return 0;
}

/* A systolic array's area: in every PE a register for the operand it
 * forwards along its row and one for the partial sum it passes down its
 * column, each with a word-wide link to the neighbour; and the edge ports
 * (link_bits) once per array. */
static int systolic_area(const trim_arch *a, const trim_energy *t, const trim__level *lv,
                         trim__level_cost *o)
{
	double pes = (double)lv->fanout_total * (double)lv->instances;
	double fwd_bits = 2.0 * a->word_bits, edge_bits = (double)lv->link_bits * (double)lv->instances;
	double reg_bit = 0;
	int rc = register_area_bit(t, a->word_bits, &reg_bit);
	if (rc)
		return rc;
	o->area_mm2 = (t->noc.area_um2_bit_pe * (fwd_bits * pes + edge_bits) + reg_bit * fwd_bits * pes) * 1e-6;
	if (t->fpga)
		for (int r = 0; r < 4; r++)
			o->res[r] = t->noc_pe_bit[r] * (fwd_bits * pes + edge_bits) + t->reg_bit[r] * fwd_bits * pes;
	return 0;
}

static const component *level_component(const trim_energy *t, const trim__level *lv, int *err)
{
	*err = 0;
	if (lv->component[0]) {
		const component *k = trim__energy_comp_find(t, lv->component);
		if (!k)
			*err = trim__error(TRIM_ENOTFOUND, "energy table %s has no component '%s'",
			                   t->file, lv->component);
		return k;
	}
	return trim__energy_comp_find(t, lv->name);
}

static int cost_storage(const trim_arch *a, const trim_energy *t, const trim__level *lv,
                        trim__level_cost *o)
{
	int err = 0, rc = 0;
	const component *k = level_component(t, lv, &err);
	double inst = (double)lv->instances, wb = lv->word_bits;
	if (err)
		return err;
	if (k) {
		/* A component's action moves one block of block_size words (an
		 * Accelergy ERT entry is per action; Timeloop's block-size): the
		 * evaluator counts words, so each word costs action / block_size.
		 * Idle (leakage) is per cycle and instance, whatever the block. */
		double v, block = lv->block_size > 1 ? (double)lv->block_size : 1;
		if (trim__energy_comp_act(k, "read", &o->read_pj))
			return trim__error(TRIM_ENOTFOUND, "component '%s' has no 'read' action", k->name);
		o->write_pj = trim__energy_comp_act(k, "write", &v) == 0 ? v
		              : trim__energy_comp_act(k, "fill", &v) == 0 ? v : o->read_pj;
		o->update_pj = trim__energy_comp_act(k, "update", &v) == 0 ? v : o->write_pj;
		o->read_pj /= block;
		o->write_pj /= block;
		o->update_pj /= block;
		if (k->has_leak)
			o->leak_pj_per_cycle = k->leak_uw / a->clock_mhz;
		else if (idle_act(k, &v) == 0)
			o->leak_pj_per_cycle = v;
		o->area_mm2 = k->has_area ? k->area_um2 * 1e-6 * inst : 0;
		return 0;
	}
	if (lv->mem_class == TRIM__MEM_DRAM) {
		char name[48];
		double r[2];
		snprintf(name, sizeof name, "dram.%s", lv->technology);
		rc = trim_energy_lookup(t, name, "read", 0, lv->word_bits, 0, r, 1);
		if (rc)
			return rc;
		o->read_pj = o->write_pj = o->update_pj = r[0];
		return 0;
	}
	const char *cn = lv->mem_class == TRIM__MEM_SRAM ? "sram" : "regfile";
	int gi = lv->mem_class == TRIM__MEM_REGFILE;
	int flags = t->clamp ? TRIM_ENERGY_CLAMP : 0;
	double ecap = (double)lv->capacity_bytes;
	if (lv->partitioned) { /* energy per access: the largest partition's array */
		ecap = 0;
		for (int s = 0; s < 3; s++)
			if ((double)lv->part_bytes[s] > ecap)
				ecap = (double)lv->part_bytes[s];
	}
	double r[2];
	static const char *const acts[3] = {"read", "write", "update"};
	double *dst[3] = {&o->read_pj, &o->write_pj, &o->update_pj};
	for (int q = 0; q < 3; q++) {
		rc = trim_energy_lookup(t, cn, acts[q], ecap, lv->word_bits, flags, r, 2);
		if (rc)
			return rc;
		*dst[q] = r[0];
		if (r[1] > 0)
			o->clamped = 1;
	}
	/* leakage and area: every partition is its own array */
	int nparts = lv->partitioned ? 3 : 1;
	for (int s = 0; s < nparts; s++) {
		double pc = lv->partitioned ? (double)lv->part_bytes[s] : (double)lv->capacity_bytes;
		int nc = 0;
		double v;
		if (pc <= 0)
			continue;
		if (t->g[gi].val[Q_LEAK]) {
			rc = trim__energy_grid_eval(t, gi, Q_LEAK, pc, wb, flags, &v, &nc);
			if (rc)
				return rc;
			o->leak_pj_per_cycle += v / a->clock_mhz;
		}
		if (t->g[gi].val[Q_AREA]) {
			rc = trim__energy_grid_eval(t, gi, Q_AREA, pc, wb, flags, &v, &nc);
			if (rc)
				return rc;
			o->area_mm2 += v * 1e-6 * inst;
		}
		if (nc)
			o->clamped = 1;
		if (t->fpga) {
			if (lv->mem_class == TRIM__MEM_SRAM) {
				o->res[TRIM_RES_BRAM36] += bram36_blocks(pc, lv->word_bits) * inst;
			} else {
				for (int res = 0; res < 4; res++)
					o->res[res] += t->reg_bit[res] * pc * 8 * inst;
			}
		}
	}
	return 0;
}

static int cost_spatial(const trim_arch *a, const trim_energy *t, const trim__level *lv,
                        trim__level_cost *o)
{
	int err = 0;
	const component *k = level_component(t, lv, &err);
	double links = (double)lv->fanout_total * (double)lv->instances;
	if (err)
		return err;
	o->avg_hops = lv->hops > 0 ? lv->hops : topology_hops(lv);
	/* a word forwarded PE to PE (systolic) takes one hop per PE it reaches */
	o->fwd_hops = lv->net == TRIM__NET_SYSTOLIC && lv->hops <= 0 ? 1 : o->avg_hops;
	if (k) {
		if (trim__energy_comp_act(k, "hop", &o->hop_pj) != 0) {
			if (trim__energy_comp_act(k, "transfer", &o->hop_pj) != 0)
				return trim__error(TRIM_ENOTFOUND, "component '%s' has no 'hop' or "
				                   "'transfer' action", k->name);
			if (lv->hops <= 0)
				o->avg_hops = o->fwd_hops = 1; /* an Accelergy transfer is a whole delivery */
		}
		double v;
		if (k->has_leak)
			o->leak_pj_per_cycle = k->leak_uw / a->clock_mhz;
		else if (idle_act(k, &v) == 0)
			o->leak_pj_per_cycle = v;
		o->area_mm2 = k->has_area ? k->area_um2 * 1e-6 * (double)lv->instances : 0;
		return 0;
	}
	if (!t->noc.has) {
		/* nothing in the table costs this network (an Accelergy ERT without
		 * its NoC, a table without `noc`): its words are counted, their
		 * energy is 0, and the level says so (trim arch, trim eval) */
		o->hop_pj = 0;
		o->uncosted = 1;
		return 0;
	}
	double hop_mm = lv->hop_mm > 0 ? lv->hop_mm : t->noc.default_hop_mm;
	o->hop_pj = (t->noc.hop_pj_bit + t->noc.wire_pj_bit_mm * hop_mm) * a->word_bits;
	if (lv->net == TRIM__NET_SYSTOLIC)
		return systolic_area(a, t, lv, o);
	o->area_mm2 = t->noc.area_um2_bit_pe * lv->link_bits * links * 1e-6;
	if (t->fpga)
		for (int r = 0; r < 4; r++)
			o->res[r] = t->noc_pe_bit[r] * lv->link_bits * links;
	return 0;
}

static int cost_compute(const trim_arch *a, const trim_energy *t, const trim__level *lv,
                        trim__level_cost *o)
{
	int err = 0;
	const component *k = level_component(t, lv, &err);
	double inst = (double)lv->instances, macs = inst * lv->macs_per_cycle;
	if (err)
		return err;
	if (k) {
		double v;
		if (trim__energy_comp_act(k, "mac", &o->mac_pj) != 0 &&
		    trim__energy_comp_act(k, "mac_random", &o->mac_pj) != 0 &&
		    trim__energy_comp_act(k, "compute", &o->mac_pj) != 0)
			return trim__error(TRIM_ENOTFOUND, "component '%s' has no 'mac', 'mac_random' or "
			                   "'compute' action", k->name);
		o->gated_mac_pj = trim__energy_comp_act(k, "gated", &v) == 0 ? v
		                  : trim__energy_comp_act(k, "mac_gated", &v) == 0 ? v : o->mac_pj;
		o->area_mm2 = k->has_area ? k->area_um2 * 1e-6 * macs : 0;
		/* leakage per MAC unit and cycle, like a storage component's idle */
		if (k->has_leak)
			o->leak_pj_per_cycle = k->leak_uw * lv->macs_per_cycle / a->clock_mhz;
		else if (idle_act(k, &v) == 0)
			o->leak_pj_per_cycle = v * lv->macs_per_cycle;
	} else {
		int d = trim__energy_kind_index(lv->datatype, trim__energy_datatypes);
		if (d < 0 || !t->mac[d].has)
			return trim__error(TRIM_ENOTFOUND, "energy table %s has no MAC of datatype '%s'",
			                   t->file, lv->datatype);
		o->mac_pj = t->mac[d].mac;
		o->gated_mac_pj = t->mac[d].gated;
		o->area_mm2 = t->mac[d].area_um2 * 1e-6 * macs;
		o->leak_pj_per_cycle = t->mac[d].leak_uw * lv->macs_per_cycle / a->clock_mhz;
		if (t->fpga) {
			if (!t->has_per_mac[d])
				return trim__error(TRIM_ENOTFOUND, "FPGA table %s has no per_mac resources "
				                   "for '%s'", t->file, lv->datatype);
			for (int r = 0; r < 4; r++)
				o->res[r] = t->per_mac[d][r] * macs + t->per_pe[r] * inst;
		}
	}
	int has[2] = {lv->transpose_unit, lv->derivative_unit};
	double given[2] = {lv->transpose_pj, lv->derivative_pj};
	double *dst[2] = {&o->transpose_pj, &o->derivative_pj};
	static const char *const un[2] = {"transpose", "derivative"};
	for (int u = 0; u < 2; u++) {
		if (!has[u])
			continue;
		if (given[u] > 0)
			*dst[u] = given[u];
		else if (t->unit[u].has)
			*dst[u] = t->unit[u].pj;
		else
			return trim__error(TRIM_ENOTFOUND, "energy table %s has no '%s' unit (give "
			                   "%s_pj in the architecture, or add units.%s)", t->file, un[u],
			                   un[u], un[u]);
		if (t->unit[u].has)
			o->area_mm2 += t->unit[u].area_um2 * 1e-6 * inst;
	}
	return 0;
}

int trim__arch_costs(const trim_arch *a, const trim_energy *t, trim__level_cost *out)
{
	if (!a || !t || !out)
		return trim__error(TRIM_EINVAL, "trim__arch_costs: NULL argument");
	memset(out, 0, sizeof *out * (size_t)a->nlevels);
	int first_onchip = -1;
	for (int i = 0; i < a->nlevels; i++) {
		const trim__level *lv = &a->lv[i];
		int rc;
		switch (lv->type) {
		case TRIM__LVL_STORAGE: rc = cost_storage(a, t, lv, &out[i]); break;
		case TRIM__LVL_SPATIAL: rc = cost_spatial(a, t, lv, &out[i]); break;
		default: rc = cost_compute(a, t, lv, &out[i]); break;
		}
		if (rc)
			return at_level(a, i, rc);
		if (first_onchip < 0 && !(lv->type == TRIM__LVL_STORAGE &&
		                          lv->mem_class == TRIM__MEM_DRAM))
			first_onchip = i;
	}
	if (t->fpga) {
		/* the DMA engine and interconnect go with the off-chip level; the device's
		 * static power is charged to the outermost on-chip level */
		for (int r = 0; r < 4; r++)
			out[0].res[r] += t->fixed[r];
		if (first_onchip >= 0)
			out[first_onchip].leak_pj_per_cycle +=
				t->static_mw * 1000.0 / a->clock_mhz / (double)a->lv[first_onchip].instances;
	}
	return 0;
}

static int with_costs(const trim_energy *t, const trim_arch *a, trim__level_cost **out)
{
	*out = trim__calloc((size_t)(a->nlevels > 0 ? a->nlevels : 1), sizeof **out);
	if (!*out)
		return TRIM_ENOMEM;
	int rc = trim__arch_costs(a, t, *out);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

TRIM_API int trim_energy_resources(const trim_energy *t, const trim_arch *a, double *out,
                                   size_t n)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!t || !a || !out || n < 8)
		return trim__error(TRIM_EINVAL, "trim_energy_resources: bad argument");
	if (!t->fpga)
		return trim__error(TRIM_EINVAL, "%s is not an FPGA table", t->file);
	trim__level_cost *c = NULL;
	int rc = with_costs(t, a, &c);
	if (rc)
		return rc;
	int fits = 1;
	for (int r = 0; r < 4; r++) {
		out[r] = 0;
		for (int i = 0; i < a->nlevels; i++)
			out[r] += c[i].res[r];
		out[4 + r] = t->avail[r];
		if (out[r] > t->avail[r])
			fits = 0;
	}
	free(c);
	return fits;
}

TRIM_API int trim_energy_arch_area(const trim_energy *t, const trim_arch *a, double *mm2)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!t || !a || !mm2)
		return trim__error(TRIM_EINVAL, "trim_energy_arch_area: NULL argument");
	trim__level_cost *c = NULL;
	int rc = with_costs(t, a, &c);
	if (rc)
		return rc;
	*mm2 = 0;
	for (int i = 0; i < a->nlevels; i++)
		*mm2 += c[i].area_mm2;
	free(c);
	return 0;
}
