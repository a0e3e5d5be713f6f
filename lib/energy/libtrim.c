/* Loading a libtrim energy table (docs/energy.md, energy_tables/):
 * its grids, DRAM, MACs, NoC, units, components and FPGA section; and a
 * table's document, libtrim's schema or an Accelergy ERT/ART (accelergy.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy_local.h"
#include "util/util.h"
#include "util/ydoc.h"

#define TRY(call)                                                                        \
	do {                                                                                 \
		int rc_ = (call);                                                                \
		if (rc_ < 0) {                                                                   \
			rc = rc_;                                                                    \
			goto out;                                                                    \
		}                                                                                \
	} while (0)

static const char *const res_keys[] = {"dsp", "bram36", "lut", "ff", NULL};

/* ---- loading: libtrim schema ------------------------------------------------ */

static int read_grid(trim__yctx *c, const trim__ynode *root, int gi, grid *g)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, trim__energy_grid_names[gi], 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, trim__energy_grid_names[gi]);
	static const char *const keys[] = {"word_bits", "points", "description", NULL};
	TRY(trim__ymap_check(c, m, keys));
	const trim__ynode *wb = NULL, *pts = NULL;
	TRY(trim__yget_node(c, m, "word_bits", 1, TRIM__Y_SEQ, &wb));
	TRY(trim__yget_node(c, m, "points", 1, TRIM__Y_SEQ, &pts));
	trim__yctx_key(c, "word_bits");
	if (wb->n < 1 || wb->n > MAX_GRID) {
		rc = trim__yerr(c, wb, TRIM_ESCHEMA, "1 to %d word widths", MAX_GRID);
		goto out_pop;
	}
	g->nw = wb->n;
	for (size_t j = 0; j < wb->n; j++) {
		int64_t v;
		trim__yctx_index(c, j);
		rc = trim__yint(c, wb->items[j], 1, 4096, &v);
		if (rc == 0 && j > 0 && v <= g->bits[j - 1])
			rc = trim__yerr(c, wb->items[j], TRIM_ESCHEMA, "word widths must increase");
		trim__yctx_pop(c);
		if (rc)
			goto out_pop;
		g->bits[j] = (double)v;
		g->lbits[j] = log((double)v);
	}
	trim__yctx_pop(c);
	trim__yctx_key(c, "points");
	if (pts->n < 2 || pts->n > MAX_GRID) {
		rc = trim__yerr(c, pts, TRIM_ESCHEMA,
		                "2 to %d capacity points are needed to interpolate", MAX_GRID);
		goto out_pop;
	}
	g->nc = pts->n;
	for (int q = 0; q < NQ; q++) {
		if (trim__ymap_get(pts->items[0], trim__energy_q_keys[q]) || q == Q_READ || q == Q_WRITE) {
			g->val[q] = trim__calloc(g->nc * g->nw, sizeof(double));
			if (!g->val[q]) {
				rc = TRIM_ENOMEM;
				goto out_pop;
			}
		}
	}
	static const char *const pkeys[] = {"capacity", "read_pj", "write_pj", "update_pj",
	                                    "leak_uw", "area_um2", NULL};
	for (size_t i = 0; i < pts->n; i++) {
		const trim__ynode *p = pts->items[i];
		trim__yctx_index(c, i);
		rc = trim__ymap_check(c, p, pkeys);
		int64_t cap = 0;
		if (rc == 0)
			rc = trim__yget_bytes(c, p, "capacity", 1, &cap);
		if (rc == 0 && i > 0 && (double)cap <= g->cap[i - 1]) {
			trim__yctx_key(c, "capacity");
			rc = trim__yerr(c, trim__ymap_get(p, "capacity"), TRIM_ESCHEMA,
			                "capacities must increase");
			trim__yctx_pop(c);
		}
		g->cap[i] = (double)cap;
		g->lcap[i] = log((double)cap);
		for (int q = 0; rc == 0 && q < NQ; q++) {
			const trim__ynode *row = trim__ymap_get(p, trim__energy_q_keys[q]);
			if (!g->val[q]) {
				if (row) {
					trim__yctx_key(c, trim__energy_q_keys[q]);
					rc = trim__yerr(c, row, TRIM_ESCHEMA,
					                "'%s' must be given for every point or none (not in "
					                "points[0])", trim__energy_q_keys[q]);
					trim__yctx_pop(c);
				}
				continue;
			}
			if (!row) {
				rc = trim__yerr(c, p, TRIM_ESCHEMA, "missing required key '%s'", trim__energy_q_keys[q]);
				break;
			}
			rc = trim__yget_node(c, p, trim__energy_q_keys[q], 1, TRIM__Y_SEQ, &row);
			if (rc)
				break;
			trim__yctx_key(c, trim__energy_q_keys[q]);
			if (row->n != g->nw)
				rc = trim__yerr(c, row, TRIM_ESCHEMA,
				                "expected %zu values (one per word width), found %zu", g->nw,
				                row->n);
			for (size_t j = 0; rc == 0 && j < row->n; j++) {
				trim__yctx_index(c, j);
				rc = trim__ydouble(c, row->items[j], 1e-12, 1e15, &g->val[q][i * g->nw + j]);
				trim__yctx_pop(c);
			}
			trim__yctx_pop(c);
		}
		trim__yctx_pop(c);
		if (rc)
			goto out_pop;
	}
	for (int q = 0; q < NQ; q++)
		if (g->val[q] && (rc = trim__energy_grid_build(g, q)) != 0)
			goto out_pop;
	g->present = 1;
out_pop:
	trim__yctx_pop(c);
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_dram(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "dram", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "dram");
	TRY(trim__ymap_check(c, m, trim__energy_dram_kinds));
	for (int k = 0; trim__energy_dram_kinds[k]; k++) {
		const trim__ynode *d = NULL;
		rc = trim__yget_node(c, m, trim__energy_dram_kinds[k], 0, TRIM__Y_MAP, &d);
		if (rc < 0)
			goto out;
		if (rc == 1)
			continue;
		trim__yctx_key(c, trim__energy_dram_kinds[k]);
		static const char *const keys[] = {"pj_per_bit", NULL};
		rc = trim__ymap_check(c, d, keys);
		if (rc == 0)
			rc = trim__yget_double(c, d, "pj_per_bit", 1, 1e-6, 1e6, &t->dram_pj_bit[k]);
		trim__yctx_pop(c);
		if (rc)
			goto out;
		t->has_dram[k] = 1;
	}
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_macs(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "mac", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "mac");
	TRY(trim__ymap_check(c, m, trim__energy_datatypes));
	for (int k = 0; trim__energy_datatypes[k]; k++) {
		const trim__ynode *d = NULL;
		rc = trim__yget_node(c, m, trim__energy_datatypes[k], 0, TRIM__Y_MAP, &d);
		if (rc < 0)
			goto out;
		if (rc == 1)
			continue;
		trim__yctx_key(c, trim__energy_datatypes[k]);
		static const char *const keys[] = {"mac_pj", "gated_pj", "leak_uw", "area_um2", NULL};
		rc = trim__ymap_check(c, d, keys);
		if (rc == 0)
			rc = trim__yget_double(c, d, "mac_pj", 1, 1e-9, 1e9, &t->mac[k].mac);
		t->mac[k].gated = -1;
		if (rc == 0)
			rc = trim__yget_double(c, d, "gated_pj", 0, 0, 1e9, &t->mac[k].gated);
		if (rc >= 0)
			rc = trim__yget_double(c, d, "leak_uw", 0, 0, 1e9, &t->mac[k].leak_uw);
		if (rc >= 0)
			rc = trim__yget_double(c, d, "area_um2", 0, 0, 1e12, &t->mac[k].area_um2);
		trim__yctx_pop(c);
		if (rc < 0)
			goto out;
		if (t->mac[k].gated < 0)
			t->mac[k].gated = t->mac[k].mac;
		t->mac[k].has = 1;
	}
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_noc(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "noc", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "noc");
	static const char *const keys[] = {"hop_pj_per_bit", "wire_pj_per_bit_mm",
	                                   "default_hop_mm", "area_um2_per_bit_per_pe", NULL};
	TRY(trim__ymap_check(c, m, keys));
	TRY(trim__yget_double(c, m, "hop_pj_per_bit", 1, 0, 1e6, &t->noc.hop_pj_bit));
	TRY(trim__yget_double(c, m, "wire_pj_per_bit_mm", 1, 0, 1e6, &t->noc.wire_pj_bit_mm));
	TRY(trim__yget_double(c, m, "default_hop_mm", 1, 1e-6, 1e3, &t->noc.default_hop_mm));
	TRY(trim__yget_double(c, m, "area_um2_per_bit_per_pe", 0, 0, 1e9, &t->noc.area_um2_bit_pe));
	t->noc.has = 1;
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_units(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	static const char *const names[] = {"transpose", "derivative", NULL};
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "units", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "units");
	TRY(trim__ymap_check(c, m, names));
	for (int k = 0; k < 2; k++) {
		const trim__ynode *d = NULL;
		rc = trim__yget_node(c, m, names[k], 0, TRIM__Y_MAP, &d);
		if (rc < 0)
			goto out;
		if (rc == 1)
			continue;
		trim__yctx_key(c, names[k]);
		static const char *const keys[] = {"use_pj", "area_um2", NULL};
		rc = trim__ymap_check(c, d, keys);
		if (rc == 0)
			rc = trim__yget_double(c, d, "use_pj", 1, 0, 1e9, &t->unit[k].pj);
		if (rc == 0)
			rc = trim__yget_double(c, d, "area_um2", 0, 0, 1e12, &t->unit[k].area_um2);
		trim__yctx_pop(c);
		if (rc < 0)
			goto out;
		t->unit[k].has = 1;
	}
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_res(trim__yctx *c, const trim__ynode *m, const char *key, int required,
                    double *res)
{
	const trim__ynode *d = NULL;
	int rc = trim__yget_node(c, m, key, required, TRIM__Y_MAP, &d);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, key);
	rc = trim__ymap_check(c, d, res_keys);
	for (int r = 0; rc == 0 && r < 4; r++) {
		rc = trim__yget_double(c, d, res_keys[r], 0, 0, 1e12, &res[r]);
		if (rc == 1)
			rc = 0;
	}
	trim__yctx_pop(c);
	return rc;
}

static int read_fpga(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *m = NULL;
	int rc = trim__yget_node(c, root, "fpga", 0, TRIM__Y_MAP, &m);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "fpga");
	static const char *const keys[] = {"device", "available", "static_mw", "per_mac",
	                                   "per_pe", "noc_per_pe_bit", "regfile_per_bit",
	                                   "fixed", NULL};
	TRY(trim__ymap_check(c, m, keys));
	const char *dev = NULL;
	TRY(trim__yget_str(c, m, "device", 1, &dev));
	snprintf(t->device, sizeof t->device, "%s", dev);
	TRY(read_res(c, m, "available", 1, t->avail));
	TRY(trim__yget_double(c, m, "static_mw", 0, 0, 1e6, &t->static_mw));
	TRY(read_res(c, m, "per_pe", 0, t->per_pe));
	TRY(read_res(c, m, "noc_per_pe_bit", 0, t->noc_pe_bit));
	TRY(read_res(c, m, "regfile_per_bit", 0, t->reg_bit));
	TRY(read_res(c, m, "fixed", 0, t->fixed));
	const trim__ynode *pm = NULL;
	TRY(trim__yget_node(c, m, "per_mac", 1, TRIM__Y_MAP, &pm));
	trim__yctx_key(c, "per_mac");
	rc = trim__ymap_check(c, pm, trim__energy_datatypes);
	for (int k = 0; rc == 0 && trim__energy_datatypes[k]; k++) {
		if (!trim__ymap_get(pm, trim__energy_datatypes[k]))
			continue;
		rc = read_res(c, pm, trim__energy_datatypes[k], 1, t->per_mac[k]);
		t->has_per_mac[k] = 1;
	}
	trim__yctx_pop(c);
	if (rc)
		goto out;
	for (int r = 0; r < 4; r++) {
		if (!(t->avail[r] > 0)) {
			trim__yctx_key(c, "available");
			rc = trim__yerr(c, trim__ymap_get(m, "available"), TRIM_ESCHEMA,
			                "'%s' must be given and positive", res_keys[r]);
			trim__yctx_pop(c);
			goto out;
		}
	}
	t->fpga = 1;
	rc = 0;
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_components(trim__yctx *c, const trim__ynode *root, trim_energy *t)
{
	const trim__ynode *seq = NULL;
	int rc = trim__yget_node(c, root, "components", 0, TRIM__Y_SEQ, &seq);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "components");
	for (size_t i = 0; i < seq->n; i++) {
		const trim__ynode *m = seq->items[i];
		trim__yctx_index(c, i);
		static const char *const keys[] = {"name", "actions", "leak_uw", "area_um2",
		                                   "description", NULL};
		const char *name = NULL;
		const trim__ynode *acts = NULL;
		component *k = NULL;
		rc = trim__ymap_check(c, m, keys);
		if (rc == 0)
			rc = trim__yget_str(c, m, "name", 1, &name);
		if (rc == 0 && !(k = trim__energy_comp_get(t, name)))
			rc = TRIM_ENOMEM;
		if (rc == 0)
			rc = trim__yget_node(c, m, "actions", 1, TRIM__Y_MAP, &acts);
		if (rc == 0) {
			trim__yctx_key(c, "actions");
			for (size_t j = 0; rc == 0 && j < acts->n; j++) {
				double pj = 0;
				trim__yctx_key(c, acts->keys[j]->str);
				rc = trim__ydouble(c, acts->items[j], 0, 1e12, &pj);
				if (rc == 0)
					rc = trim__energy_comp_action(c, acts->items[j], k, acts->keys[j]->str, pj);
				trim__yctx_pop(c);
			}
			trim__yctx_pop(c);
		}
		if (rc == 0) {
			rc = trim__yget_double(c, m, "leak_uw", 0, 0, 1e12, &k->leak_uw);
			k->has_leak = rc == 0;
			if (rc == 1)
				rc = 0;
		}
		if (rc == 0) {
			rc = trim__yget_double(c, m, "area_um2", 0, 0, 1e15, &k->area_um2);
			k->has_area = rc == 0;
			if (rc == 1)
				rc = 0;
		}
		trim__yctx_pop(c);
		if (rc)
			goto out;
	}
out:
	trim__yctx_pop(c);
	return rc;
}

/* ---- top level ------------------------------------------------------------------ */

int trim__energy_parse_doc(trim_energy *t, const trim__ydoc *doc)
{
	trim__yctx c;
	trim__yctx_init(&c, trim__ydoc_name(doc));
	const trim__ynode *root = trim__ydoc_root(doc);
	int rc = trim__yexpect(&c, root, TRIM__Y_MAP);
	if (rc)
		return rc;
	const trim__ynode *ert = trim__ymap_get(root, "ERT");
	const trim__ynode *art = trim__ymap_get(root, "ART");
	if (ert || art) {
		static const char *const keys[] = {"ERT", "ART", NULL};
		TRY(trim__ymap_check(&c, root, keys));
		if (ert) {
			trim__yctx_key(&c, "ERT");
			rc = trim__yexpect(&c, ert, TRIM__Y_MAP);
			if (rc == 0)
				rc = trim__energy_read_ert(&c, ert, t);
			trim__yctx_pop(&c);
			if (rc)
				goto out;
		}
		if (art) {
			trim__yctx_key(&c, "ART");
			rc = trim__yexpect(&c, art, TRIM__Y_MAP);
			if (rc == 0)
				rc = trim__energy_read_art(&c, art, t);
			trim__yctx_pop(&c);
		}
		goto out;
	}
	static const char *const keys[] = {"schema_version", "name", "description", "kind",
	                                   "technology_nm", "out_of_range", "sram", "regfile",
	                                   "dram", "mac", "noc", "units", "components", "fpga",
	                                   NULL};
	TRY(trim__ymap_check(&c, root, keys));
	int64_t v;
	TRY(trim__yget_int(&c, root, "schema_version", 1, 1, 1, &v));
	const char *name = NULL;
	TRY(trim__yget_str(&c, root, "name", 1, &name));
	snprintf(t->name, sizeof t->name, "%s", name);
	static const char *const kinds[] = {"asic", "fpga", NULL};
	int kind = 0;
	TRY(trim__yget_enum(&c, root, "kind", 1, kinds, &kind));
	static const char *const oor[] = {"error", "clamp", NULL};
	TRY(trim__yget_enum(&c, root, "out_of_range", 0, oor, &t->clamp));
	double nm = 0;
	TRY(trim__yget_double(&c, root, "technology_nm", 0, 1, 1e4, &nm));
	TRY(read_grid(&c, root, 0, &t->g[0]));
	TRY(read_grid(&c, root, 1, &t->g[1]));
	TRY(read_dram(&c, root, t));
	TRY(read_macs(&c, root, t));
	TRY(read_noc(&c, root, t));
	TRY(read_units(&c, root, t));
	TRY(read_components(&c, root, t));
	TRY(read_fpga(&c, root, t));
	if (kind == 1 && !t->fpga) {
		rc = trim__yerr(&c, root, TRIM_ESCHEMA, "a table of kind fpga needs an 'fpga' section");
		goto out;
	}
	if (kind == 0 && t->fpga) {
		trim__yctx_key(&c, "fpga");
		rc = trim__yerr(&c, trim__ymap_get(root, "fpga"), TRIM_ESCHEMA,
		                "an 'fpga' section needs kind: fpga");
		goto out;
	}
	rc = 0;
out:
	return rc;
}
