/*
 * trim/constraints.h - dataflow constraints: optional restrictions of the
 * mapspace the exact search explores (docs/mapping.md, "Dataflow
 * constraints"), in the language of Timeloop's mapspace constraints.
 *
 * A constraint set is a list of targets, each naming a level of an
 * architecture and saying, for that level, which loop bounds are fixed,
 * capped or must be 1 (`factors`, `only`), which loops are innermost
 * (`permutation`), which spatial loops go along X or Y (`split`), or which
 * tensors it must keep or bypass; plus named presets (weight-, output-,
 * input- and row-stationary) that are expressed in the same language
 * against an architecture's innermost storage level and spatial levels.
 * The search then finds the best mapping among those that obey every
 * constraint, exactly (the same answer as brute force over them).
 *
 * A set does not depend on an architecture: level names are checked when
 * it is used (trim_search_set_constraints, trim_neteval_set_constraints,
 * trim_explorer_set_constraints) or with trim_constraints_check; errors
 * then still carry the file:line:column and key path where the target was
 * written. Whether fixed factors divide a workload's bounds is known per
 * workload only: the search reports TRIM_ENOFIT naming the level and
 * dimension.
 *
 * Ownership: a trim_constraints belongs to the caller (trim_constraints_free,
 * NULL accepted); the setters of the search, network evaluation and explorer
 * copy it. Thread safety: a set is not modified by its users and may be read
 * from several threads.
 */
#ifndef TRIM_CONSTRAINTS_H
#define TRIM_CONSTRAINTS_H

#include "trim/arch.h"
#include "trim/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_constraints trim_constraints;

/** An empty set (no constraint: the whole mapspace). */
TRIM_API int trim_constraints_create(trim_constraints **out);
/** Load a constraints file: libtrim's form (`targets:`, `preset:`) or
 * Timeloop's (`mapspace_constraints:`, `architecture_constraints:`,
 * `constraints:`). Errors: TRIM_EPARSE, TRIM_ESCHEMA with
 * "file:line:column: key.path: message". */
TRIM_API int trim_constraints_load(trim_constraints **out, const char *path);
/** The same from text; `name` (NULL: "<string>") stands for the file name. */
TRIM_API int trim_constraints_load_string(trim_constraints **out, const char *yaml,
                                          const char *name);
TRIM_API int trim_constraints_clone(trim_constraints **out, const trim_constraints *c);
TRIM_API void trim_constraints_free(trim_constraints *c);

/** Add a named preset (trim_constraints_preset_name); TRIM_ENOTFOUND names
 * the known ones. Adding one twice changes nothing. */
TRIM_API int trim_constraints_add_preset(trim_constraints *c, const char *name);
/** Add every target and preset of `other` to `c` (a mapping must obey both). */
TRIM_API int trim_constraints_merge(trim_constraints *c, const trim_constraints *other);
/** Name of built-in preset i ("weight-stationary", ...), NULL past the last. */
TRIM_API const char *trim_constraints_preset_name(size_t i);
/** One-line definition and source of built-in preset i, NULL past the last. */
TRIM_API const char *trim_constraints_preset_description(size_t i);

/** Targets written in the set (presets not counted) and presets added. */
TRIM_API size_t trim_constraints_count(const trim_constraints *c);
TRIM_API size_t trim_constraints_preset_count(const trim_constraints *c);

/** Check the set against an architecture: every target names a level of the
 * right kind, kept tensors may be held there, no two constraints contradict
 * each other. 0 or a negative code with file:line:column and key path. */
TRIM_API int trim_constraints_check(const trim_constraints *c, const trim_arch *arch);
/** The set as YAML in libtrim's form (loadable again, schema_version 1).
 * arch NULL: as written (presets by name); otherwise the presets spelled out
 * as targets against that architecture. Free *out with trim_string_free. */
TRIM_API int trim_constraints_dump(const trim_constraints *c, const trim_arch *arch, char **out);

#ifdef __cplusplus
}
#endif
#endif
