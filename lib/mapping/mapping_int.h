/*
 * lib/mapping/: mappings. One concept per file:
 *   mapping.c    representation, validation, loop-nest printing, YAML dump
 *   yaml.c       reading libtrim's and Timeloop's mapping forms
 *   timeloop.c   writing a mapping and its workload in Timeloop's format
 *   flat.c       flattened groups: several dims read as one index (their
 *                bounds, the collapsed workload, a tile's exact size)
 *
 * Internal representation of a mapping: how one intra-layer workload is
 * projected onto an architecture (TRIM section "Mapping").
 *
 * A mapping has, for every level of the architecture (outer -> inner):
 *   storage: a temporal sub-mapping: a loop bound per dimension (f[l][d])
 *            and a loop order order[l][0..7] (outermost first), plus, per
 *            tensor slot, whether the level holds the tensor (keep[l][slot])
 *            or the tensor bypasses it;
 *   spatial: a spatial sub-mapping: bounds split over the X and Y axes of
 *            the array (fx, fy; f = fx * fy); the order is irrelevant;
 *   compute: nothing (all its bounds are 1).
 * The product over levels of a dimension's bounds equals the workload bound,
 * or covers it (an imperfect factorisation: tiles clipped at the bound, the
 * last one ragged; docs/model.md, "Imperfect factorisations").
 * docs/model.md, "Mapping and activity model", defines the semantics.
 */
#ifndef TRIM_MAPPING_INT_H
#define TRIM_MAPPING_INT_H

#include <stdint.h>

#include "arch/arch_int.h"
#include "trim/mapping.h"
#include "util/handle.h"
#include "util/util.h"
#include "workload/workload_int.h"

#define TRIM__MAX_GROUPS (TRIM_NDIMS / 2) /* flattened groups: two dims or more each */

struct trim_mapping {
	uint32_t tag; /* TRIM__H_MAPPING (util/handle.h): first, checked by every entry point */
	int nlevels;
	int type[TRIM__MAX_LEVELS];                    /* trim__level_type, copied from the arch */
	char name[TRIM__MAX_LEVELS][TRIM__ARCH_NAME_LEN];
	int64_t f[TRIM__MAX_LEVELS][TRIM_NDIMS];       /* temporal or spatial (fx * fy) bound */
	int64_t fx[TRIM__MAX_LEVELS][TRIM_NDIMS];      /* spatial: bound along X */
	int64_t fy[TRIM__MAX_LEVELS][TRIM_NDIMS];      /* spatial: bound along Y */
	int order[TRIM__MAX_LEVELS][TRIM_NDIMS];       /* storage: dims, outermost loop first */
	int keep[TRIM__MAX_LEVELS][3];                 /* storage: 1 holds the slot, 0 bypasses */
	/* Where a mapping read from YAML came from (empty src: built in memory):
	 * the file, the `mapping:` list, and per level the entry that set its
	 * bounds (entry index, line, column; line 0: no entry). The checks'
	 * messages start with file:line:column of the level's entry. */
	/* Timeloop's residuals: the bound of each dim they cover (0: none given);
	 * trim__mapping_check requires it to be the workload's */
	int64_t tl_bound[TRIM_NDIMS];
	/* Flattened groups (lib/mapping/flat.c; docs/mapping.md, "Flattened
	 * groups"): several dims read as one index, the first dim outermost
	 * (RSC: k = (r*S + s)*C + c). A group's bounds stand at its first dim
	 * (its head) in f, fx, fy and order; its other dims' bounds are 1 at
	 * every level. group_of[d]: 1 + d's group, 0: none (a zeroed mapping has
	 * no group). */
	int ngroups;
	int group_nd[TRIM__MAX_GROUPS];
	int group_dim[TRIM__MAX_GROUPS][TRIM_NDIMS];
	int group_of[TRIM_NDIMS];
	char src[256];
	int src_list_line, src_list_col;
	int src_entry[TRIM__MAX_LEVELS], src_line[TRIM__MAX_LEVELS], src_col[TRIM__MAX_LEVELS];
};
typedef struct trim_mapping trim__mapping;

/* All bounds 1, canonical order N G M C E F R S, keep as the arch allows
 * (and the handle's tag set: the mapping may be passed to the public API). */
void trim__mapping_init(trim__mapping *m, const struct trim_arch *a);
/* A new handle holding a copy of m, which need not carry the tag (the
 * search's and the network evaluation's own mappings): trim_mapping_clone,
 * trim_search_best, trim_neteval_mapping. */
int trim__mapping_clone_out(trim_mapping **out, const trim__mapping *m);
/* Level index by name (case-sensitive); -1 if none. */
/* Tensor slot (0 input, 1 weight, 2 output) of a libtrim or Timeloop
 * data-space name (input(s)/ifmap, weight(s)/filter(s), output(s)/ofmap/psum,
 * any case), or -1. */
int trim__mapping_slot_of(const char *name);
int trim__mapping_level(const trim__mapping *m, const char *name);
/* Dimension by letter "N".."S" (also lower case); -1 if none. */
int trim__dim_parse(const char *s);
/* Set a level's order from a string of dim letters, outermost first; dims
 * not named follow in canonical order. */
int trim__mapping_set_order_str(trim__mapping *m, int level, const char *order);

/*
 * Validate a mapping for a workload on an architecture: level count and
 * types match, every bound >= 1, products of each dim's bounds equal the
 * workload bound or cover it with no empty iteration of the outermost loop
 * on the dim (imperfect), spatial bounds within fan-out (X and Y), bypass only
 * where the arch allows keeping is fine (keeping where the arch forbids is
 * an error), the outermost level keeps all tensors, the tile of every kept
 * tensor fits its level (shared or partitioned capacity, doubled with
 * double buffering). Returns 0 or a negative code with a message.
 */
int trim__mapping_check(const trim__mapping *m, const trim__intra *w, const struct trim_arch *a);
/* The same with reserved[l] bytes of level l's capacity taken by cached
 * intermediate activations (training; lib/eval/netcost.c's cache plan). NULL:
 * nothing reserved. */
int trim__mapping_check_reserved(const trim__mapping *m, const trim__intra *w,
                                 const struct trim_arch *a, const int64_t *reserved);
/* The same without the capacity check (structure only). */
int trim__mapping_check_shape(const trim__mapping *m, const trim__intra *w,
                              const struct trim_arch *a);

/* 1 if some dim's bounds multiply to more than its workload bound (an
 * imperfect factorisation: ragged tiles), else 0. */
int trim__mapping_ragged(const trim__mapping *m, const trim__intra *w);
/* The MACs of the padded loop nest: the product of every bound (saturated). */
int64_t trim__mapping_padded_macs(const trim__mapping *m);

/* Elements of the tile of tensor `slot` held by one instance of storage
 * level `l` (touched by the loops at l and below; an imperfect
 * factorisation: the full tile, clipped at the bounds). */
int64_t trim__mapping_tile_elems(const trim__mapping *m, const trim__intra *w, int l, int slot);

/* Distinct values of a*i + b*j over i < I, j < J (a, b >= 0), exact. */
int64_t trim__axis_distinct(int64_t a, int64_t I, int64_t b, int64_t J);

/* ---- flattened groups (flat.c) ---- */
/* Add the group of dims dims[0..nd) (outermost first, nd >= 2) to m, or
 * find it; its index, or a negative code with a message (a dim already in
 * another group). */
int trim__flat_group_add(trim__mapping *m, const int *dims, int nd);
/* Level l's order with each group's other dims right after its head (the
 * form its YAML reads back as). */
void trim__flat_order_normalize(trim__mapping *m, int l);
/* The group's letters ("RSC") into buf (at least TRIM_NDIMS + 1 bytes). */
const char *trim__flat_group_name(const trim__mapping *m, int g, char *buf);
/* The bound dim d's bounds must cover in m: a group's head, the product of
 * its dims' workload bounds; a group's other dim, 1; else w->bound[d]. */
int64_t trim__flat_bound(const trim__mapping *m, const trim__intra *w, int d);
/* The workload as m's bounds see it (collapsed, for the analyst): a group's
 * head of bound trim__flat_bound, its other dims 1; a tensor whose index
 * reads every dim of a group through one one-term axis each (a bijection)
 * reads the head through one axis instead; one that reads none is
 * unchanged. Bit t of *walk is set for an operand read otherwise (a window:
 * the analyst counts it by walking, lib/activity/flat.c); such a result is
 * TRIM_EINVAL. */
int trim__flat_view(const trim__mapping *m, const trim__intra *w, trim__intra *out, unsigned *walk);
/* The dims of the collapsed position v (per dim; a group at its head) into
 * dv (the workload's dims). */
void trim__flat_expand(const trim__mapping *m, const trim__intra *w, const int64_t *v, int64_t *dv);
/* The element of tensor t at workload position dv (row-major over its
 * axes), or -1 outside its extent. */
int64_t trim__flat_elem(const trim__intra *w, int t, const int64_t *dv);
/* Elements of the largest tile of tensor t held by an instance of level l
 * (trim__mapping_tile_elems for a mapping with groups): exact, by counting
 * the tiles that start at each offset of the groups the tensor reads
 * through a window; -1 with TRIM_ENOMEM. */
int64_t trim__flat_tile_elems(const trim__mapping *m, const trim__intra *w, int l, int t);

/* Print as a loop nest in the style of TRIM Fig. 6 (w may be NULL). */
void trim__mapping_loopnest(const trim__mapping *m, const trim__intra *w, trim__sb *sb);
/* Write libtrim's own YAML form. */
void trim__mapping_yaml(const trim__mapping *m, trim__sb *sb);

#endif
