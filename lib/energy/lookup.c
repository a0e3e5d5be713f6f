/* The table's public queries: its name, file and kind, an FPGA device's
 * totals, and the energy of one action and the area of one component. */
#include <string.h>

#include "energy_local.h"
#include "util/handle.h"
#include "util/util.h"

static const char *const q_actions[NQ + 1] = {"read", "write", "update", "leak", "area", NULL};

TRIM_API const char *trim_energy_name(const trim_energy *t)
{
	return TRIM__HANDLE_OK(t, ENERGY) ? t->name : NULL;
}
TRIM_API const char *trim_energy_file(const trim_energy *t)
{
	return TRIM__HANDLE_OK(t, ENERGY) ? t->file : NULL;
}
TRIM_API int trim_energy_is_fpga(const trim_energy *t)
{
	return TRIM__HANDLE_OK(t, ENERGY) ? t->fpga : TRIM_EINVAL;
}

int trim__energy_device(const trim_energy *t, double *avail, const char **device)
{
	if (!t || !t->fpga)
		return TRIM_EINVAL;
	memcpy(avail, t->avail, sizeof t->avail);
	if (device)
		*device = t->device;
	return 0;
}

double trim__energy_static_mw(const trim_energy *t) { return t && t->fpga ? t->static_mw : 0; }

/* ---- lookups ---------------------------------------------------------------------- */

TRIM_API int trim_energy_lookup(const trim_energy *t, const char *comp, const char *action,
                                double cap, int64_t bits, int flags, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	if (!t || !comp || !action || !out || n < 1)
		return trim__error(TRIM_EINVAL, "trim_energy_lookup: NULL argument");
	int nclamped = 0, rc;
	double v = 0;
	const component *k = trim__energy_comp_find(t, comp);
	if (k) {
		if (!strcmp(action, "leak") && k->has_leak) {
			v = k->leak_uw;
			rc = 0;
		} else if (trim__energy_comp_act(k, action, &v) != 0) {
			return trim__error(TRIM_ENOTFOUND, "%s: component '%s' has no action '%s'",
			                   t->file, comp, action);
		}
		rc = 0;
	} else if (!strcmp(comp, "sram") || !strcmp(comp, "regfile")) {
		int gi = comp[0] == 'r';
		int q = trim__energy_kind_index(action, q_actions);
		if (q < 0 || q == Q_AREA)
			return trim__error(TRIM_ENOTFOUND, "%s has no action '%s' (read, write, update, "
			                   "leak)", comp, action);
		if (q == Q_UPDATE && !t->g[gi].val[Q_UPDATE])
			q = Q_WRITE; /* an update is a write of the accumulated value */
		rc = trim__energy_grid_eval(t, gi, q, cap, (double)bits, flags, &v, &nclamped);
	} else if (!strncmp(comp, "dram.", 5)) {
		int d = trim__energy_kind_index(comp + 5, trim__energy_dram_kinds);
		if (d < 0 || !t->has_dram[d])
			return trim__error(TRIM_ENOTFOUND, "%s: no DRAM '%s' in the table", t->file,
			                   comp + 5);
		if (!strcmp(action, "leak"))
			v = 0;
		else if (!strcmp(action, "read") || !strcmp(action, "write") ||
		         !strcmp(action, "update"))
			v = t->dram_pj_bit[d] * (double)bits;
		else
			return trim__error(TRIM_ENOTFOUND, "dram has no action '%s'", action);
		rc = 0;
	} else if (!strncmp(comp, "mac.", 4)) {
		int d = trim__energy_kind_index(comp + 4, trim__energy_datatypes);
		if (d < 0 || !t->mac[d].has)
			return trim__error(TRIM_ENOTFOUND, "%s: no MAC '%s' in the table", t->file,
			                   comp + 4);
		if (!strcmp(action, "mac"))
			v = t->mac[d].mac;
		else if (!strcmp(action, "gated"))
			v = t->mac[d].gated;
		else if (!strcmp(action, "leak"))
			v = t->mac[d].leak_uw;
		else
			return trim__error(TRIM_ENOTFOUND, "a MAC has no action '%s' (mac, gated, leak)",
			                   action);
		rc = 0;
	} else if (!strcmp(comp, "noc")) {
		if (!t->noc.has)
			return trim__error(TRIM_ENOTFOUND, "%s: no noc in the table", t->file);
		if (strcmp(action, "hop"))
			return trim__error(TRIM_ENOTFOUND, "the noc has no action '%s' (hop)", action);
		v = (t->noc.hop_pj_bit + t->noc.wire_pj_bit_mm * t->noc.default_hop_mm) * (double)bits;
		rc = 0;
	} else if (!strcmp(comp, "transpose") || !strcmp(comp, "derivative")) {
		int u = comp[0] == 'd';
		if (!t->unit[u].has || strcmp(action, "use"))
			return trim__error(TRIM_ENOTFOUND, "%s: no action '%s' of unit '%s'", t->file,
			                   action, comp);
		v = t->unit[u].pj;
		rc = 0;
	} else {
		return trim__error(TRIM_ENOTFOUND, "%s: no component '%s'", t->file, comp);
	}
	if (rc)
		return rc;
	out[0] = v;
	if (n >= 2)
		out[1] = nclamped;
	return 0;
}

TRIM_API int trim_energy_action(const trim_energy *t, const char *comp, const char *action,
                                double cap, int64_t bits, double *pj)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	return trim_energy_lookup(t, comp, action, cap, bits, TRIM_ENERGY_STRICT, pj, 1);
}

static int area_um2(const trim_energy *t, const char *comp, double cap, int64_t bits, int flags,
                    double *um2, int *nclamped)
{
	const component *k = trim__energy_comp_find(t, comp);
	*nclamped = 0;
	if (k) {
		if (!k->has_area)
			return trim__error(TRIM_ENOTFOUND, "%s: component '%s' has no area", t->file, comp);
		*um2 = k->area_um2;
		return 0;
	}
	if (!strcmp(comp, "sram") || !strcmp(comp, "regfile"))
		return trim__energy_grid_eval(t, comp[0] == 'r', Q_AREA, cap, (double)bits, flags, um2, nclamped);
	if (!strncmp(comp, "dram.", 5)) {
		*um2 = 0; /* off chip */
		return 0;
	}
	if (!strncmp(comp, "mac.", 4)) {
		int d = trim__energy_kind_index(comp + 4, trim__energy_datatypes);
		if (d < 0 || !t->mac[d].has)
			return trim__error(TRIM_ENOTFOUND, "%s: no MAC '%s'", t->file, comp + 4);
		*um2 = t->mac[d].area_um2;
		return 0;
	}
	if (!strcmp(comp, "noc") && t->noc.has) {
		*um2 = t->noc.area_um2_bit_pe * (double)bits;
		return 0;
	}
	if ((!strcmp(comp, "transpose") || !strcmp(comp, "derivative")) && t->unit[comp[0] == 'd'].has) {
		*um2 = t->unit[comp[0] == 'd'].area_um2;
		return 0;
	}
	return trim__error(TRIM_ENOTFOUND, "%s: no area for component '%s'", t->file, comp);
}

TRIM_API int trim_energy_area(const trim_energy *t, const char *comp, double cap, int64_t bits,
                              double *mm2)
{
	TRIM__HANDLE_CHECK(t, ENERGY, TRIM_EINVAL);
	if (!t || !comp || !mm2)
		return trim__error(TRIM_EINVAL, "trim_energy_area: NULL argument");
	double um2 = 0;
	int nc = 0;
	int rc = area_um2(t, comp, cap, bits, TRIM_ENERGY_STRICT, &um2, &nc);
	if (rc == 0)
		*mm2 = um2 * 1e-6;
	return rc;
}
