/*
 * trim/mapping.h - mappings of an intra-layer workload onto an architecture.
 *
 * A mapping gives, per storage level of the architecture, a temporal
 * sub-mapping (a loop bound per dimension and a loop order) and which
 * tensors bypass the level; per spatial (NoC) level, the spatial bounds
 * split over the X and Y axes of the array. Levels are numbered as in the
 * architecture, outermost (off-chip memory) 0. Dimensions are TRIM_DIM_*
 * (trim/workload.h); tensor slots are 0 input-like operand, 1 weight-like
 * operand, 2 result. docs/model.md "Mapping and activity model" gives the
 * semantics; docs/mapping.md the YAML forms (libtrim's and Timeloop's).
 *
 * Ownership: a trim_mapping returned through **out belongs to the caller
 * and is released with trim_mapping_free (NULL accepted). It copies what
 * it needs from the architecture: the arch may be freed first.
 * Thread safety: a mapping may be read from many threads; setters need
 * exclusive access.
 */
#ifndef TRIM_MAPPING_H
#define TRIM_MAPPING_H

#include "trim/arch.h"
#include "trim/common.h"
#include "trim/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_mapping trim_mapping;

/** A mapping with every bound 1, canonical loop orders and no bypass. */
TRIM_API int trim_mapping_create(trim_mapping **out, const trim_arch *arch);
TRIM_API void trim_mapping_free(trim_mapping *m);
/** A deep copy. */
TRIM_API int trim_mapping_clone(trim_mapping **out, const trim_mapping *m);

/** Number of levels (the architecture's). */
TRIM_API int trim_mapping_levels(const trim_mapping *m);
/** Temporal bound of `dim` at storage level `level`. */
TRIM_API int trim_mapping_set_temporal(trim_mapping *m, int level, int dim, int64_t bound);
/** Spatial bound of `dim` at spatial level `level`, split as fx * fy. */
TRIM_API int trim_mapping_set_spatial(trim_mapping *m, int level, int dim, int64_t fx, int64_t fy);
/** Loop order of storage level `level`: dim letters outermost first ("MC"
 * = m outer, c inner); dims not named follow in the order N G M C E F R S. */
TRIM_API int trim_mapping_set_order(trim_mapping *m, int level, const char *order);
/** Whether storage level `level` holds tensor `slot` (1) or it bypasses (0). */
TRIM_API int trim_mapping_set_keep(trim_mapping *m, int level, int slot, int keep);
/** Bound of `dim` at `level` (temporal or fx * fy); -1 if out of range. */
TRIM_API int64_t trim_mapping_bound(const trim_mapping *m, int level, int dim);

/** Validate mapping `m` for intra workload `i` of `w` on `arch`: factors,
 * fan-out, keep flags, capacity (with the buffer share of cached activations
 * in training). 0, or TRIM_ESHAPE / TRIM_ENOFIT / ... with a message. */
TRIM_API int trim_mapping_check(const trim_mapping *m, const trim_workloads *w, size_t i,
                                const trim_arch *arch);
/** Load libtrim's mapping YAML, or Timeloop's (a top-level `mapping:` list of
 * `target:` directives). Errors name file:line:column and the key path. */
TRIM_API int trim_mapping_load(trim_mapping **out, const trim_arch *arch, const char *path);
/** The same from text; `name` is used in error messages. */
TRIM_API int trim_mapping_load_string(trim_mapping **out, const trim_arch *arch,
                                      const char *yaml, const char *name);
/** libtrim's YAML form (TRIM_FORMAT_YAML) or the loop nest (TRIM_FORMAT_TABLE);
 * free *out with trim_string_free. */
TRIM_API int trim_mapping_dump(const trim_mapping *m, int format, char **out);
/** Mapping `m` of intra workload `i` of `w` on `arch`, with the workload as a
 * Timeloop problem, in Timeloop's format: one YAML document with `problem:`
 * (a shape written from the workload's projections, and its instance) and
 * `mapping:` (temporal, spatial and datatype directives per level), for
 * timeloop-model; trim_mapping_load reads the mapping back unchanged
 * (docs/mapping.md, "Export to Timeloop"). The mapping is checked first
 * (trim_mapping_check); a dim split over both X and Y of one spatial level,
 * and a flattened group (several dims as one index, docs/mapping.md), have
 * no Timeloop spelling (TRIM_EINVAL). Free *out with trim_string_free. */
TRIM_API int trim_mapping_dump_timeloop(const trim_mapping *m, const trim_workloads *w, size_t i,
                                        const trim_arch *arch, char **out);

#ifdef __cplusplus
}
#endif
#endif
