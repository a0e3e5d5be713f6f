/* trim_arch_report(): the summary printed by `trim arch`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch_int.h"
#include "energy/energy_int.h"
#include "report_int.h"
#include "util/handle.h"
#include "util/util.h"

static const char *const res_names[4] = {"dsp", "bram36", "lut", "ff"};
static const char *const type_names[3] = {"storage", "spatial", "compute"};
static const char *const class_names[3] = {"dram", "sram", "regfile"};
static const char *const net_names[4] = {"bus", "mesh", "htree", "systolic"};
static const char *const tensor_names[3] = {"input", "weight", "output"};

static void fmt_size(char *buf, size_t n, int64_t b)
{
	if (b <= 0)
		snprintf(buf, n, "unbounded");
	else if (b >= 1048576 && b % 1048576 == 0)
		snprintf(buf, n, "%lld MB", (long long)(b / 1048576));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, n, "%lld KB", (long long)(b / 1024));
	else
		snprintf(buf, n, "%lld B", (long long)b);
}

static double mac_pj(const trim_arch *a, const trim__level_cost *c)
{
	return c[a->nlevels - 1].mac_pj;
}

/* Energy of the level's typical access, relative to one MAC. */
static double rel(const trim_arch *a, const trim__level_cost *c, int i)
{
	double m = mac_pj(a, c);
	if (!(m > 0))
		return NAN;
	switch (a->lv[i].type) {
	case TRIM__LVL_STORAGE: return c[i].read_pj / m;
	case TRIM__LVL_SPATIAL: return c[i].hop_pj / m;
	default: return 1.0;
	}
}

static void table_report(trim__sb *sb, const trim_arch *a, const trim_energy *t,
                         const trim__level_cost *c, const double *used, const double *avail,
                         const char *device, int fits)
{
	int fpga = trim_energy_is_fpga(t) == 1;
	trim__sb_printf(sb, "architecture %s (%s)\n", a->name, a->file ? a->file : "");
	trim__sb_printf(sb, "clock %g MHz, word %d bits, %lld PEs, technology %s -> %s\n\n",
	                a->clock_mhz, a->word_bits, (long long)a->total_pes, a->technology,
	                trim_energy_file(t));
	trim__sb_printf(sb, "%-3s %-16s %-8s %-22s %6s %5s %10s %10s %10s %11s %10s\n", "#",
	                "level", "type", "organisation", "inst", "word", "read pJ", "write pJ",
	                "update pJ", "leak pJ/cyc", fpga ? "" : "area mm2");
	for (int i = 0; i < a->nlevels; i++) {
		const trim__level *lv = &a->lv[i];
		char org[96], sz[32];
		if (lv->type == TRIM__LVL_STORAGE) {
			fmt_size(sz, sizeof sz, lv->capacity_bytes);
			if (lv->mem_class == TRIM__MEM_DRAM)
				snprintf(org, sizeof org, "dram %s", lv->technology);
			else if (lv->partitioned)
				snprintf(org, sizeof org, "%s %s part.", class_names[lv->mem_class], sz);
			else
				snprintf(org, sizeof org, "%s %s", class_names[lv->mem_class], sz);
		} else if (lv->type == TRIM__LVL_SPATIAL) {
			snprintf(org, sizeof org, "%s %lldx%lld%s%s", net_names[lv->net],
			         (long long)lv->fanout_x, (long long)lv->fanout_y,
			         lv->multicast ? " mcast" : "", lv->reduction ? " reduce" : "");
		} else {
			snprintf(org, sizeof org, "%s x%d%s%s", lv->datatype, lv->macs_per_cycle,
			         lv->zero_gate ? " gate" : "", lv->zero_skip ? " skip" : "");
		}
		trim__sb_printf(sb, "%-3d %-16s %-8s %-22s %6lld %5d ", i, lv->name,
		                type_names[lv->type], org, (long long)lv->instances,
		                lv->type == TRIM__LVL_STORAGE ? lv->word_bits : a->word_bits);
		if (lv->type == TRIM__LVL_STORAGE)
			trim__sb_printf(sb, "%10.4g %10.4g %10.4g %11.4g", c[i].read_pj, c[i].write_pj,
			                c[i].update_pj, c[i].leak_pj_per_cycle);
		else if (lv->type == TRIM__LVL_SPATIAL)
			trim__sb_printf(sb, "%10s %10s %10s %11s", "", "", "", "");
		else
			trim__sb_printf(sb, "%10s %10s %10s %11.4g", "", "", "", c[i].leak_pj_per_cycle);
		if (!fpga)
			trim__sb_printf(sb, " %10.4g", c[i].area_mm2);
		trim__sb_printf(sb, "%s\n", c[i].clamped ? "  (clamped to the table)" : "");
		if (lv->type == TRIM__LVL_SPATIAL && c[i].fwd_hops != c[i].avg_hops)
			trim__sb_printf(sb, "      hop %.4g pJ per word, %.4g hop per forwarded word or partial sum, "
			                "mean %.4g hops per unicast word%s\n", c[i].hop_pj, c[i].fwd_hops,
			                c[i].avg_hops, c[i].uncosted ? "  (warning: the energy table has no "
			                "entry for this network: its words cost 0 pJ)" : "");
		else if (lv->type == TRIM__LVL_SPATIAL)
			trim__sb_printf(sb, "      hop %.4g pJ per word, mean %.4g hops%s\n", c[i].hop_pj,
			                c[i].avg_hops, c[i].uncosted ? "  (warning: the energy table has no "
			                "entry for this network: its words cost 0 pJ)" : "");
		if (lv->type == TRIM__LVL_SPATIAL && (lv->link_t[0] || lv->link_t[1] || lv->link_t[2]))
			trim__sb_printf(sb, "      one network per tensor: input %d, weight %d, output %d bits\n",
			                lv->link_t[0], lv->link_t[1], lv->link_t[2]);
		if (lv->type == TRIM__LVL_COMPUTE) {
			trim__sb_printf(sb, "      MAC %.4g pJ, zero-gated MAC %.4g pJ", c[i].mac_pj,
			                c[i].gated_mac_pj);
			if (lv->transpose_unit)
				trim__sb_printf(sb, ", transpose %.4g pJ", c[i].transpose_pj);
			if (lv->derivative_unit)
				trim__sb_printf(sb, ", derivative %.4g pJ", c[i].derivative_pj);
			trim__sb_putc(sb, '\n');
		}
		if (lv->type == TRIM__LVL_STORAGE && lv->partitioned) {
			trim__sb_printf(sb, "      partitions:");
			for (int s = 0; s < 3; s++)
				if (lv->part_bytes[s])
					trim__sb_printf(sb, " %s %lld B", tensor_names[s],
					                (long long)lv->part_bytes[s]);
			trim__sb_putc(sb, '\n');
		}
	}
	trim__sb_printf(sb, "\nenergy per access relative to one MAC (%.4g pJ):",
	                mac_pj(a, c));
	for (int i = 0; i < a->nlevels - 1; i++)
		trim__sb_printf(sb, " %s %.3gx%s", a->lv[i].name, rel(a, c, i),
		                a->lv[i].type == TRIM__LVL_SPATIAL ? " (per hop)" : "");
	trim__sb_putc(sb, '\n');
	if (fpga) {
		trim__sb_printf(sb, "\nresources on %s:\n", device);
		trim__sb_printf(sb, "%-3s %-16s %10s %10s %10s %10s\n", "#", "level", "DSP", "BRAM36",
		                "LUT", "FF");
		for (int i = 0; i < a->nlevels; i++)
			trim__sb_printf(sb, "%-3d %-16s %10.6g %10.6g %10.6g %10.6g\n", i, a->lv[i].name,
			                c[i].res[0], c[i].res[1], c[i].res[2], c[i].res[3]);
		trim__sb_printf(sb, "%-3s %-16s %10.6g %10.6g %10.6g %10.6g\n", "", "total", used[0],
		                used[1], used[2], used[3]);
		trim__sb_printf(sb, "%-3s %-16s %10.6g %10.6g %10.6g %10.6g\n", "", "available",
		                avail[0], avail[1], avail[2], avail[3]);
		trim__sb_printf(sb, "%-3s %-16s", "", "utilisation");
		for (int r = 0; r < 4; r++)
			trim__sb_printf(sb, " %9.1f%%", 100.0 * used[r] / avail[r]);
		trim__sb_printf(sb, "\nfits the device: %s", fits ? "yes" : "NO");
		if (!fits) {
			trim__sb_printf(sb, " (exceeds:");
			for (int r = 0; r < 4; r++)
				if (used[r] > avail[r])
					trim__sb_printf(sb, " %s %.4g > %.4g", res_names[r], used[r], avail[r]);
			trim__sb_printf(sb, ")");
		}
		trim__sb_printf(sb, "\nstatic power %.4g mW (charged to the first on-chip level)\n",
		                trim__energy_static_mw(t));
	} else {
		double total = 0;
		for (int i = 0; i < a->nlevels; i++)
			total += c[i].area_mm2;
		trim__sb_printf(sb, "total area: %.4g mm2\n", total);
	}
}

/* The roofline of `a` and the warnings before the work, which follow either
 * report (*ws freed by the caller with trim__warnings_free). */
static int roofline_and_warnings(const trim_arch *a, trim__roofline *r, trim__warnings *ws)
{
	trim__roofline_make(a, r);
	return trim__precheck(ws, a, NULL, 0, 0);
}

static void json_num(trim__sb *sb, const char *key, double v, int comma)
{
	trim__sb_json_str(sb, key);
	trim__sb_putc(sb, ':');
	trim__sb_json_double(sb, v);
	if (comma)
		trim__sb_putc(sb, ',');
}

static void json_str(trim__sb *sb, const char *key, const char *v, int comma)
{
	trim__sb_json_str(sb, key);
	trim__sb_putc(sb, ':');
	trim__sb_json_str(sb, v);
	if (comma)
		trim__sb_putc(sb, ',');
}

static void json_res(trim__sb *sb, const char *key, const double *v, int comma)
{
	trim__sb_json_str(sb, key);
	trim__sb_puts(sb, ":{");
	for (int r = 0; r < 4; r++)
		json_num(sb, res_names[r], v[r], r < 3);
	trim__sb_putc(sb, '}');
	if (comma)
		trim__sb_putc(sb, ',');
}

static void json_report(trim__sb *sb, const trim_arch *a, const trim_energy *t,
                        const trim__level_cost *c, const double *used, const double *avail,
                        const char *device, int fits)
{
	int fpga = trim_energy_is_fpga(t) == 1;
	trim__sb_putc(sb, '{');
	json_str(sb, "name", a->name, 1);
	json_str(sb, "file", a->file ? a->file : "", 1);
	json_str(sb, "technology", a->technology, 1);
	json_str(sb, "table", trim_energy_name(t), 1);
	json_str(sb, "table_file", trim_energy_file(t), 1);
	json_str(sb, "kind", fpga ? "fpga" : "asic", 1);
	json_num(sb, "clock_mhz", a->clock_mhz, 1);
	json_num(sb, "word_bits", a->word_bits, 1);
	json_num(sb, "total_pes", (double)a->total_pes, 1);
	trim__sb_puts(sb, "\"levels\":[");
	double total = 0;
	for (int i = 0; i < a->nlevels; i++) {
		const trim__level *lv = &a->lv[i];
		total += c[i].area_mm2;
		trim__sb_puts(sb, i ? ",{" : "{");
		json_str(sb, "name", lv->name, 1);
		json_str(sb, "type", type_names[lv->type], 1);
		json_num(sb, "instances", (double)lv->instances, 1);
		if (lv->type == TRIM__LVL_STORAGE) {
			json_str(sb, "class", class_names[lv->mem_class], 1);
			json_num(sb, "capacity_bytes", (double)lv->capacity_bytes, 1);
			json_num(sb, "word_bits", lv->word_bits, 1);
			if (lv->partitioned) {
				trim__sb_puts(sb, "\"partition_bytes\":{");
				int first = 1;
				for (int s = 0; s < 3; s++) {
					if (!lv->part_bytes[s])
						continue;
					if (!first)
						trim__sb_putc(sb, ',');
					json_num(sb, tensor_names[s], (double)lv->part_bytes[s], 0);
					first = 0;
				}
				trim__sb_puts(sb, "},");
			}
			json_num(sb, "read_pj", c[i].read_pj, 1);
			json_num(sb, "write_pj", c[i].write_pj, 1);
			json_num(sb, "update_pj", c[i].update_pj, 1);
			json_num(sb, "leak_pj_per_cycle", c[i].leak_pj_per_cycle, 1);
		} else if (lv->type == TRIM__LVL_SPATIAL) {
			json_str(sb, "network", net_names[lv->net], 1);
			json_num(sb, "fanout_x", (double)lv->fanout_x, 1);
			json_num(sb, "fanout_y", (double)lv->fanout_y, 1);
			json_num(sb, "hop_pj", c[i].hop_pj, 1);
			json_num(sb, "avg_hops", c[i].avg_hops, 1);
			json_num(sb, "fwd_hops", c[i].fwd_hops, 1);
			if (c[i].uncosted) /* no network entry in the table: 0 pJ */
				trim__sb_puts(sb, "\"uncosted\":true,");
			if (lv->link_t[0] || lv->link_t[1] || lv->link_t[2]) /* one network per tensor */
				trim__sb_printf(sb, "\"link_bits_per_tensor\":{\"input\":%d,\"weight\":%d,\"output\":%d},",
				                lv->link_t[0], lv->link_t[1], lv->link_t[2]);
		} else {
			json_str(sb, "datatype", lv->datatype, 1);
			json_num(sb, "mac_pj", c[i].mac_pj, 1);
			json_num(sb, "gated_mac_pj", c[i].gated_mac_pj, 1);
			json_num(sb, "transpose_pj", c[i].transpose_pj, 1);
			json_num(sb, "derivative_pj", c[i].derivative_pj, 1);
			json_num(sb, "leak_pj_per_cycle", c[i].leak_pj_per_cycle, 1);
		}
		json_num(sb, "relative_to_mac", rel(a, c, i), 1);
		trim__sb_printf(sb, "\"clamped\":%s,", c[i].clamped ? "true" : "false");
		if (fpga)
			json_res(sb, "resources", c[i].res, 0);
		else
			json_num(sb, "area_mm2", c[i].area_mm2, 0);
		trim__sb_putc(sb, '}');
	}
	trim__sb_puts(sb, "],");
	if (fpga) {
		double util[4];
		for (int r = 0; r < 4; r++)
			util[r] = used[r] / avail[r];
		trim__sb_puts(sb, "\"fpga\":{");
		json_str(sb, "device", device, 1);
		json_res(sb, "used", used, 1);
		json_res(sb, "available", avail, 1);
		json_res(sb, "utilisation", util, 1);
		json_num(sb, "static_mw", trim__energy_static_mw(t), 0);
		trim__sb_puts(sb, "},");
		trim__sb_printf(sb, "\"fits\":%s", fits ? "true" : "false");
	} else {
		json_num(sb, "area_mm2", total, 0);
	}
}

/* What an architecture report writes: the architecture, its energy table,
 * the cost of each level and, on an FPGA, the resources used and available. */
typedef struct {
	const trim_arch *a;
	const trim_energy *table;
	const trim__level_cost *c;
	double used[4], avail[4];
	const char *device;
	int fits;
} arch_figures;

/* The architecture as a table for people, then its roofline and warnings. */
static int arch_table(const void *report, trim__sb *sb)
{
	const arch_figures *f = report;
	trim__roofline r;
	trim__warnings ws;
	table_report(sb, f->a, f->table, f->c, f->used, f->avail, f->device, f->fits);
	int rc = roofline_and_warnings(f->a, &r, &ws);
	if (rc)
		return rc;
	trim__sb_putc(sb, '\n');
	trim__roofline_table(f->a, &r, sb);
	if (ws.n)
		trim__sb_putc(sb, '\n');
	trim__warnings_table(&ws, sb);
	trim__warnings_free(&ws);
	return 0;
}

/* The architecture as one JSON object, with its roofline and warnings. */
static int arch_json(const void *report, trim__sb *sb)
{
	const arch_figures *f = report;
	trim__roofline r;
	trim__warnings ws;
	json_report(sb, f->a, f->table, f->c, f->used, f->avail, f->device, f->fits);
	int rc = roofline_and_warnings(f->a, &r, &ws);
	if (rc)
		return rc;
	trim__sb_puts(sb, ",\"roofline\":");
	trim__roofline_json(f->a, &r, sb);
	trim__sb_puts(sb, ",\"warnings\":");
	trim__warnings_json(&ws, sb);
	trim__warnings_free(&ws);
	trim__sb_puts(sb, "}\n");
	return 0;
}

/* The writers of trim_arch_report, one per format. */
static const trim__writers arch_writers = {
	"trim_arch_report", {[TRIM_FORMAT_TABLE] = arch_table, [TRIM_FORMAT_JSON] = arch_json}};

TRIM_API int trim_arch_report(const trim_arch *a, const trim_energy *table, int format,
                              char **out)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(table, ENERGY, TRIM_EINVAL);
	trim_energy *own = NULL;
	trim__level_cost *c = NULL;
	int rc;
	if (!a || !out)
		return trim__error(TRIM_EINVAL, "trim_arch_report: NULL argument");
	*out = NULL;
	rc = trim__writers_check(&arch_writers, format);
	if (rc)
		return rc;
	if (!table) {
		rc = trim_energy_load_for_arch(&own, a);
		if (rc)
			goto out;
		table = own;
	}
	c = trim__calloc((size_t)a->nlevels, sizeof *c);
	rc = TRIM_ENOMEM;
	if (!c)
		goto out;
	rc = trim__arch_costs(a, table, c);
	if (rc)
		goto out;
	arch_figures f = {a, table, c, {0, 0, 0, 0}, {0, 0, 0, 0}, "", 1};
	if (trim_energy_is_fpga(table) == 1) {
		trim__energy_device(table, f.avail, &f.device);
		for (int r = 0; r < 4; r++) {
			for (int i = 0; i < a->nlevels; i++)
				f.used[r] += c[i].res[r];
			if (f.used[r] > f.avail[r])
				f.fits = 0;
		}
	}
	rc = trim__write_report(&arch_writers, format, &f, out);
out:
	free(c);
	trim_energy_free(own);
	return rc;
}
