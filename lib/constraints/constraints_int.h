/*
 * Dataflow constraints, internal side: reading a constraints document from
 * a YAML node (also inline in an architecture space) and resolving a set
 * against an architecture into the plan that the search applies to one
 * workload's mapspace (trim__mapspace_constrain, lib/search/mapspace_int.h;
 * docs/mapping.md, "Dataflow constraints").
 */
#ifndef TRIM_CONSTRAINTS_INT_H
#define TRIM_CONSTRAINTS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "arch/arch_int.h"
#include "trim/constraints.h"
#include "trim/workload.h"
#include "util/ydoc.h"

/* Read a constraints document (the root of a file, or the inline mapping of
 * a space's `mapspace_constraints:`) into an empty set. */
int trim__constraints_read(trim__yctx *c, const trim__ynode *root, trim_constraints *out);

/* A set resolved against one architecture: the constraints on each of its
 * levels, each with the target that set it (for the messages), which
 * trim__mapspace_constrain (lib/search/constrain.c) applies to a mapspace. */
typedef struct {
	struct trim__constraints_target *t; /* the targets (constraints_local.h) */
	size_t nt;
	int64_t fix[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int fsrc[TRIM__MAX_LEVELS][TRIM_NDIMS]; /* target that set it, -1 none */
	int64_t max[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int msrc[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int keep[TRIM__MAX_LEVELS][3];
	int ksrc[TRIM__MAX_LEVELS][3];
	int nperm[TRIM__MAX_LEVELS];
	int perm[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int psrc[TRIM__MAX_LEVELS];
	uint8_t axis[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int asrc[TRIM__MAX_LEVELS][TRIM_NDIMS];
} trim__constraints_plan;

/* Resolve c against a (presets spelled out, level names and kinds, conflicts:
 * an error naming the target) into *p; free it with
 * trim__constraints_plan_free, also on failure. */
int trim__constraints_resolve(const trim_constraints *c, const struct trim_arch *a, trim__constraints_plan *p);
void trim__constraints_plan_free(trim__constraints_plan *p);
/* "file:line:col: key.path" of the plan's target (an fsrc/msrc/... entry). */
const char *trim__constraints_plan_src(const trim__constraints_plan *p, int target);
/* The letter of each dimension, in TRIM_DIM_* order ("NGMCEFRS"). */
extern const char trim__constraints_dim_letters[TRIM_NDIMS + 1];
/* The set's items: its presets, then its written targets (one per entry of
 * the document). trim__constraints_without copies the set without item
 * `item` into a new set and names that item in name[n] ("the preset P", or
 * the entry's file:line:column and key). */
size_t trim__constraints_items(const trim_constraints *c);
int trim__constraints_without(const trim_constraints *c, size_t item, trim_constraints **out, char *name,
                              size_t n);
/* FNV-1a of the set's dump (0 for NULL or an empty set): a stamp for
 * resumable sweeps. */
uint64_t trim__constraints_digest(const trim_constraints *c);

#endif
