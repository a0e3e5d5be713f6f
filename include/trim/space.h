/*
 * trim/space.h - the designer: architecture spaces.
 *
 * A space (YAML, docs/arch.md "Architecture spaces") names a base
 * architecture and parameter ranges. Its grid is the cartesian product of
 * the parameters' values in canonical order: the first parameter varies
 * slowest, the last fastest, values in the order written. Grid points that
 * break a constraint (area budget, FPGA resources) are rejected; the
 * others are the space's points, numbered 0..count-1 in grid order and
 * named from the parameters' values or labels.
 *
 * Ownership: a trim_space belongs to the caller (trim_space_free, NULL
 * accepted); names live as long as the handle; architectures returned by
 * trim_space_point_arch() belong to the caller. A space is immutable once
 * loaded and may be read from several threads.
 */
#ifndef TRIM_SPACE_H
#define TRIM_SPACE_H

#include "trim/common.h"
#include "trim/arch.h"
#include "trim/constraints.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_space trim_space;

/** Load a space, its base architecture and (for constraints) its table. */
TRIM_API int trim_space_load(trim_space **out, const char *path);
TRIM_API void trim_space_free(trim_space *s);

TRIM_API const char *trim_space_name(const trim_space *s);
/** The dataflow constraints of the space's `mapspace_constraints:` (a file or
 * inline; checked against the base architecture), or NULL. Owned by the
 * space; the explorer applies them to every point. */
TRIM_API const trim_constraints *trim_space_constraints(const trim_space *s);
/** Grid size, rejected points included. */
TRIM_API uint64_t trim_space_grid_size(const trim_space *s);
/** Number of accepted points. */
TRIM_API uint64_t trim_space_count(const trim_space *s);
/** Name of accepted point i (NULL if out of range). */
TRIM_API const char *trim_space_point_name(const trim_space *s, uint64_t i);
/** Grid index of accepted point i (UINT64_MAX if out of range). */
TRIM_API uint64_t trim_space_point_grid_index(const trim_space *s, uint64_t i);
/** Index of the point called `name`, or TRIM_ENOTFOUND. */
TRIM_API int trim_space_find(const trim_space *s, const char *name, uint64_t *index);
/** The architecture of accepted point i (a new handle). */
TRIM_API int trim_space_point_arch(const trim_space *s, uint64_t i, trim_arch **out);
/** Area in mm^2 of point i (ASIC tables; NaN when unknown). */
TRIM_API double trim_space_point_area(const trim_space *s, uint64_t i);
/**
 * Every grid point with its values, area or resources, and whether it was
 * accepted (and why not), as TRIM_FORMAT_TABLE or TRIM_FORMAT_JSON
 * (an object with an array "points" of the accepted points and an array
 * "rejected"). Free *out with trim_string_free().
 */
TRIM_API int trim_space_report(const trim_space *s, int format, char **out);

#ifdef __cplusplus
}
#endif
#endif
