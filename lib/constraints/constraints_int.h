/*
 * Dataflow constraints, internal side: reading a constraints document from
 * a YAML node (also inline in an architecture space) and applying a set to
 * one workload's mapspace (docs/mapping.md, "Dataflow constraints").
 */
#ifndef TRIM_CONSTRAINTS_INT_H
#define TRIM_CONSTRAINTS_INT_H

#include "search/mapspace_int.h"
#include "trim/constraints.h"
#include "util/ydoc.h"

/* Read a constraints document (the root of a file, or the inline mapping of
 * a space's `mapspace_constraints:`) into an empty set. */
int trim__constraints_read(trim__yctx *c, const trim__ynode *root, trim_constraints *out);
/* Check c against s->a and restrict s accordingly: pins and caps of the
 * factors (TRIM_ENOFIT naming the level and dimension when no factorisation
 * of the workload obeys them), forced keep bits, permutations, spatial axes.
 * Pins already set (custom factors) stay; a different value is TRIM_ENOFIT. */
int trim__constraints_apply(const trim_constraints *c, trim__mapspace *s);
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
