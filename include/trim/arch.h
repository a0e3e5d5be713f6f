/*
 * trim/arch.h - hardware organisations (architectures).
 *
 * An architecture (YAML, docs/arch.md) is an ordered hierarchy of levels
 * from off-chip memory (level 0) to the MAC (last level), as in TRIM's
 * Table III: storage levels (DRAM, SRAM, register files), spatial levels
 * (the NoC fanning out to an array of PEs) and one compute level.
 *
 * Ownership: a trim_arch returned through **out belongs to the caller and
 * is released with trim_arch_free() (NULL accepted). Strings returned as
 * `const char *` live as long as the handle; `char **out` text is freed
 * with trim_string_free().
 * Thread safety: a loaded trim_arch is immutable and may be read from any
 * number of threads at once.
 */
#ifndef TRIM_ARCH_H
#define TRIM_ARCH_H

#include "trim/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An architecture: an ordered hierarchy of storage, spatial and compute levels. */
typedef struct trim_arch trim_arch;
/** An energy/area table (trim/energy.h); declared here for trim_arch_report(). */
typedef struct trim_energy trim_energy;
/** A network's workloads (trim/workload.h); declared here for trim_arch_warnings(). */
typedef struct trim_workloads trim_workloads;

/** Kinds of level. */
enum trim_level_type {
	TRIM_LEVEL_STORAGE = 0, /**< memory: dram, sram or regfile */
	TRIM_LEVEL_SPATIAL = 1, /**< a NoC fanning out to an array of children */
	TRIM_LEVEL_COMPUTE = 2  /**< the MAC, always the last level */
};

/**
 * Load and validate an architecture. Errors (TRIM_EIO, TRIM_EPARSE,
 * TRIM_ESCHEMA, TRIM_ERANGE) carry "file:line:col: key.path: message".
 */
TRIM_API int trim_arch_load(trim_arch **out, const char *path);
/** The same from YAML text; `name` stands for the file in messages and
 * relative technology paths are resolved from the current directory. */
TRIM_API int trim_arch_load_string(trim_arch **out, const char *yaml, const char *name);
/** A Timeloop architecture file (version 0.3 `subtree` or 0.4 `nodes`;
 * trim_arch_load reads one directly) translated into libtrim's description:
 * *yaml is set to text the caller frees with trim_string_free. The
 * translation is checked: it loads. Errors name the Timeloop file's line and
 * column (TRIM_ESCHEMA for what has no translation, e.g. a network component). */
TRIM_API int trim_arch_timeloop_yaml(char **yaml, const char *path);
/** A deep copy. */
TRIM_API int trim_arch_clone(trim_arch **out, const trim_arch *a);
TRIM_API void trim_arch_free(trim_arch *a);

TRIM_API const char *trim_arch_name(const trim_arch *a);
/** The file it was loaded from (the `name` of trim_arch_load_string). */
TRIM_API const char *trim_arch_file(const trim_arch *a);
/** The technology as written ("65nm", "fpga-xc7z020", or a path). */
TRIM_API const char *trim_arch_technology(const trim_arch *a);
TRIM_API double trim_arch_clock_mhz(const trim_arch *a);
TRIM_API int trim_arch_word_bits(const trim_arch *a);
/** Product of all spatial fan-outs: the number of PEs. */
TRIM_API int64_t trim_arch_total_pes(const trim_arch *a);

TRIM_API int trim_arch_level_count(const trim_arch *a);
/** Name of level i (NULL if out of range). */
TRIM_API const char *trim_arch_level_name(const trim_arch *a, int i);
/** TRIM_LEVEL_* of level i, or TRIM_EINVAL if out of range. */
TRIM_API int trim_arch_level_type(const trim_arch *a, int i);
/** "storage", "spatial", "compute" (NULL if unknown). */
TRIM_API const char *trim_arch_level_type_name(int type);
/** Storage class "dram", "sram", "regfile"; "" for other levels; NULL if out of range. */
TRIM_API const char *trim_arch_level_class(const trim_arch *a, int i);
/** Index of the level called `name`, or TRIM_ENOTFOUND. */
TRIM_API int trim_arch_level_find(const trim_arch *a, const char *name);
/** Capacity in bytes of one instance (0: unbounded DRAM, or not storage);
 *  TRIM_EINVAL if out of range. */
TRIM_API int64_t trim_arch_level_capacity(const trim_arch *a, int i);
/** Number of instances of the level (PEs below the spatial levels above it). */
TRIM_API int64_t trim_arch_level_instances(const trim_arch *a, int i);
/** Word width of a storage level in bits (the architecture's for others). */
TRIM_API int trim_arch_level_word_bits(const trim_arch *a, int i);
/** Fan-out of a spatial level as X and Y into out[0..1] (n >= 2). */
TRIM_API int trim_arch_level_fanout(const trim_arch *a, int i, int64_t *out, size_t n);

/**
 * Validation, per-level capacity, energy per access of every level, the
 * area breakdown (mm^2, or FPGA resources with device utilisation), the
 * roofline (peak MACs per cycle, the words per cycle of every level and
 * network, the MACs per word each needs; docs/arch.md, "Roofline") and the
 * warnings of trim_arch_warnings(a, NULL, -1, ...) as
 * TRIM_FORMAT_TABLE or TRIM_FORMAT_JSON. `table` may be NULL: the table is
 * then found from the architecture's technology (trim_energy_resolve()).
 * Free *out with trim_string_free().
 */
TRIM_API int trim_arch_report(const trim_arch *a, const trim_energy *table, int format,
                              char **out);

/**
 * Warnings on a design that will surely perform badly, known before any
 * search (docs/guide.md, "Warnings before the work"): an off-chip level
 * without bandwidth ("no_bandwidth"), a link that starves its array
 * ("starved_link") and, with workloads, a level too slow for the MACs even
 * if every weight and output word crosses it once ("traffic_bound", with
 * the temporal utilisation it caps whatever the mapping). `w` may be NULL
 * (the architecture alone); `workload` is the index of one intra workload
 * of `w`, or -1 for all of them. TRIM_FORMAT_JSON: an array of {"kind",
 * "level", "workloads", ["utilization_bound",] "message"}; TRIM_FORMAT_TABLE:
 * one "warning: ..." line each ("" when none). Free *out with
 * trim_string_free(). TRIM_ERANGE for a workload out of range.
 */
TRIM_API int trim_arch_warnings(const trim_arch *a, const trim_workloads *w, int64_t workload,
                                int format, char **out);

#ifdef __cplusplus
}
#endif
#endif
