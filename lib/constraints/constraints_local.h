/*
 * Dataflow constraints (docs/mapping.md, "Dataflow constraints"): the
 * reader (libtrim's and Timeloop's forms), the presets, the check against
 * an architecture and the plan that restricts one workload's mapspace.
 *
 *   schema_version: 1                    mapspace_constraints:       # Timeloop
 *   preset: row-stationary                 - target: RF
 *   targets:                                 type: temporal
 *     - target: RF                           factors: N=1 K=1 P=1 R=1
 *       type: temporal                       permutation: SQ        # inner first
 *       only: [S, F, C, M]                 - target: GLB
 *       permutation: SF    # inner first     type: spatial          # the fan-out below
 *     - target: RF                           factors: N=1 Q=1 S=1
 *       type: bypass                         permutation: RPKC
 *       keep: [weight]                       split: 2               # R P along X
 *
 * A set is independent of any architecture; it is resolved against one
 * (level names, kinds, conflicts) into a plan when it is used, and the plan
 * restricts a mapspace through the mapspace's own filters (pins and caps of
 * the factor rows, forced keep bits, per-level permutations filtering the
 * order classes, spatial axes), so the exact search and the distinct count
 * stay exact over the constrained space.
 *
 * One concept per file (lib/constraints/constraints_int.h is the interface to the rest
 * of the library):
 *   set.c     the presets (the table, lookup by name) and the set: create,
 *             free, add a preset, merge, clone, its items, a copy without one
 *   read.c    reading a document (libtrim's and Timeloop's forms): the
 *             factors, dimensions, tensors and targets; load from a file or
 *             a string
 *   apply.c   resolution against an architecture (presets spelled out, the
 *             per-level plan, conflicts), the check (the plan restricts a
 *             mapspace in lib/search/constrain.c)
 *   dump.c    the dump as a constraints document, the digest of a set
 * What these files share is declared here and carries the trim__constraints_
 * prefix (hidden by -fvisibility=hidden); the rest is static.
 */
#ifndef TRIM_CONSTRAINTS_LOCAL_H
#define TRIM_CONSTRAINTS_LOCAL_H

#include <stddef.h>
#include <stdint.h>

#include "constraints_int.h"

enum { CT_TEMPORAL = 0, CT_SPATIAL = 1, CT_BYPASS = 2 };
enum { SRC_LEN = 400, MAX_PRESETS = 8 };

/* The tensors' names by slot: input, weight, output. */
extern const char *const trim__constraints_slot_names[3];
/* The target types' names by CT_*: temporal, spatial, bypass. */
extern const char *const trim__constraints_type_names[3];

/* One target as written. */
typedef struct trim__constraints_target {
	char level[TRIM__ARCH_NAME_LEN];
	int type;
	int64_t fix[TRIM_NDIMS]; /* -1 free, 0 the workload's whole bound, > 0 that bound */
	int64_t max[TRIM_NDIMS]; /* 0 none, else the bound is at most this */
	int has_only;
	unsigned only;           /* with has_only: the dims that may be > 1 here */
	int nperm;
	int perm[TRIM_NDIMS];    /* innermost first */
	int split;               /* spatial: -1 none */
	int keep[3];             /* -1 free, 0 bypass, 1 keep */
	char src[SRC_LEN];       /* "file:line:col: key.path" of the entry */
	char tsrc[SRC_LEN];      /* ... of its level name */
} ctarget;

struct trim_constraints {
	uint32_t tag; /* TRIM__H_CONSTRAINTS (util/handle.h): first, checked by every entry point */
	size_t n, cap;
	ctarget *t;
	int npreset;
	int preset[MAX_PRESETS];
	char preset_src[MAX_PRESETS][SRC_LEN]; /* "" when added by name */
};

/* A dataflow preset: what it allows at the innermost storage level and at
 * every spatial level (set.c holds the table). */
typedef struct {
	const char *name, *desc;
	unsigned inner;     /* dims the innermost storage level may loop on */
	const char *perm;   /* its innermost loops, innermost first ("" none) */
	unsigned spatial;   /* dims every spatial level may spread */
} cpreset;
extern const cpreset trim__constraints_presets[];

/* ---- set.c ---- */
/* The index of the preset called name, or -1. */
int trim__constraints_preset_find(const char *name);
/* "; did you mean 'X'?" for a misspelt preset name, or "". */
const char *trim__constraints_preset_hint(char *buf, size_t n, const char *name);
/* The presets' names, comma separated, into buf[n]. */
void trim__constraints_preset_list(char *buf, size_t n);
/* A new target at the end of c's list, every field free (NULL: out of memory). */
ctarget *trim__constraints_push_target(trim_constraints *c);
/* Preset p added to c once (src: where it was written, or NULL). */
int trim__constraints_add_preset(trim_constraints *c, int p, const char *src);

/* ---- read.c ---- */
/* A dimension letter: libtrim's N G M C E F R S or Timeloop's P Q K (-1 none). */
int trim__constraints_dim_of(char ch);

/* ---- apply.c ---- */
/* Every target, presets spelled out first (against arch a), then the
 * written ones, in a new array *out[*n] (the caller frees it). */
int trim__constraints_expand(const trim_constraints *c, const struct trim_arch *a, ctarget **out, size_t *n);

#endif
