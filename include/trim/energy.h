/*
 * trim/energy.h - energy and area tables.
 *
 * A table (YAML, docs/energy.md) gives the energy per action (read, write,
 * update, leakage) and the area of the components an architecture is made
 * of: SRAM and register files as grids over capacity and word width
 * (interpolated in log-log space with GSL, never extrapolated silently),
 * DRAM per bit, MACs per datatype, the NoC per bit per hop, training units,
 * and named components. FPGA tables give resources (DSP, BRAM, LUT, FF)
 * instead of area, with the device's totals. Accelergy energy- and
 * area-reference tables (ERT.yaml / ART.yaml) load unchanged as named
 * components.
 *
 * Units: energy in pJ per action on one word of `word_bits`; leakage
 * ("leak") in uW per instance; area in mm^2.
 *
 * Ownership: handles from **out belong to the caller, released with
 * trim_energy_free() (NULL accepted). Thread safety: a loaded table is
 * immutable; lookups may run from any number of threads at once.
 */
#ifndef TRIM_ENERGY_H
#define TRIM_ENERGY_H

#include "trim/common.h"
#include "trim/arch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Flags of trim_energy_lookup(). */
enum trim_energy_flag {
	TRIM_ENERGY_STRICT = 0, /**< out of the table's range: TRIM_ERANGE */
	TRIM_ENERGY_CLAMP = 1   /**< out of range: clamp to the nearest edge and report it */
};

/**
 * Load a table: a libtrim table (schema_version: 1), an Accelergy ERT
 * (root key `ERT`) or ART (root key `ART`), or a directory holding
 * ERT.yaml and optionally ART.yaml.
 */
TRIM_API int trim_energy_load(trim_energy **out, const char *path);
TRIM_API int trim_energy_load_string(trim_energy **out, const char *yaml, const char *name);
/** An Accelergy ERT and ART pair (art_path may be NULL). */
TRIM_API int trim_energy_load_accelergy(trim_energy **out, const char *ert_path,
                                        const char *art_path);
/**
 * Find the table of a technology name. A name containing '/' or ending in
 * ".yaml" is a path (relative to the architecture file's directory). A bare
 * name NAME is looked up, in order, as
 *   <dir of arch_file>/../../energy_tables/NAME{.yaml,/}
 *   $TRIM_DATA_DIR/energy_tables/NAME{.yaml,/}
 *   ./energy_tables/NAME{.yaml,/}
 *   DIR/energy_tables/NAME{.yaml,/} for each default data directory DIR:
 *     <dir of libtrim>/../share/trim, the build tree, the installed one
 *     compiled in (PREFIX/share/trim), the source tree (trim_data_find())
 * arch_file may be NULL. *path_out is freed with trim_string_free().
 * TRIM_ENOTFOUND when nothing matches (the message lists the places tried).
 */
TRIM_API int trim_energy_resolve(const char *technology, const char *arch_file,
                                 char **path_out);
/** Resolve and load the table of an architecture's technology. */
TRIM_API int trim_energy_load_for_arch(trim_energy **out, const trim_arch *a);
TRIM_API void trim_energy_free(trim_energy *t);

TRIM_API const char *trim_energy_name(const trim_energy *t);
TRIM_API const char *trim_energy_file(const trim_energy *t);
/** 1 for an FPGA table (resources instead of area), 0 otherwise. */
TRIM_API int trim_energy_is_fpga(const trim_energy *t);

/**
 * Energy of one action on a component, strict about the table's range.
 * component: "sram", "regfile", "dram.ddr3" (".lpddr4", ".hbm2"),
 *   "mac.int8" (".int16", ".fp16", ".fp32"), "noc", "transpose",
 *   "derivative", or the name of a named / Accelergy component.
 * action: "read", "write", "update", "leak" (uW) for memories; "mac",
 *   "gated" for MACs; "hop" for the NoC (one word over one default hop);
 *   "use" for training units; any action of a named component.
 * capacity_bytes and word_bits select the grid point of sram / regfile
 * (word_bits also scales DRAM and NoC energy per word).
 */
TRIM_API int trim_energy_action(const trim_energy *t, const char *component, const char *action,
                                double capacity_bytes, int64_t word_bits, double *pj);
/**
 * The same with flags (TRIM_ENERGY_CLAMP); out[0] is the value, out[1]
 * (if n >= 2) the number of clamped coordinates (0 when inside the table).
 */
TRIM_API int trim_energy_lookup(const trim_energy *t, const char *component, const char *action,
                                double capacity_bytes, int64_t word_bits, int flags,
                                double *out, size_t n);
/** Area of one instance of a component in mm^2 (TRIM_ENOTFOUND when the
 *  table has no area for it, e.g. FPGA tables). */
TRIM_API int trim_energy_area(const trim_energy *t, const char *component,
                              double capacity_bytes, int64_t word_bits, double *mm2);

/** FPGA resources, indices of trim_energy_resources() out[]. */
enum trim_fpga_resource {
	TRIM_RES_DSP = 0,
	TRIM_RES_BRAM36 = 1,
	TRIM_RES_LUT = 2,
	TRIM_RES_FF = 3,
	TRIM_NRES = 4
};
/**
 * FPGA resources an architecture needs under an FPGA table: out[0..3] used
 * (DSP, BRAM36, LUT, FF), out[4..7] available on the device (n >= 8).
 * Returns 1 if it fits, 0 if not, a negative code on error
 * (TRIM_EINVAL for a non-FPGA table).
 */
TRIM_API int trim_energy_resources(const trim_energy *t, const trim_arch *a, double *out,
                                   size_t n);
/** Total area of an architecture in mm^2 under an ASIC table. */
TRIM_API int trim_energy_arch_area(const trim_energy *t, const trim_arch *a, double *mm2);

#ifdef __cplusplus
}
#endif
#endif
