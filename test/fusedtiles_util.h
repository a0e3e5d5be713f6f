/*
 * Test helpers shared by the fused-tiles suites (check_fusedtiles*.c): the
 * brute force those suites hold the plan search against, a dense layer.
 */
#ifndef TRIM_TEST_FUSEDTILES_UTIL_H
#define TRIM_TEST_FUSEDTILES_UTIL_H

#include "fusedtiles/fusedtiles_int.h"

/* The best fused cost (goal: TRIM__GOAL_DELAY cycles, else energy) of layer
 * w by enumeration of its whole mapspace on a DRAM (level 0) -> GLB (level
 * glb) -> ... architecture, with the fused space's rules stated here again:
 * with fused slots (TRIM__FT_IN / _OUT) no loop above the GLB and the fused
 * tensors kept in it; HUGE_VAL if no mapping fits. */
double tu_ft_brute_layer(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *c, int glb,
                         unsigned fused, int goal);
/* The same with `held` bytes of level glb taken (a kept halo's rows). */
double tu_ft_brute_layer_held(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *c, int glb,
                              unsigned fused, int goal, int64_t held);

/* x: a dense layer named `name` over n tokens, cin -> cout features (FW). */
void tu_ft_fc(trim__intra *x, const char *name, int64_t n, int64_t cin, int64_t cout);

/* The position (per axis, the last fastest) of tile number `tile` of a
 * tiling into tiles[x] tiles on each of naxes axes. */
void tu_ft_tile_pos(int naxes, const int64_t *tiles, int64_t tile, int64_t *pos);

#endif
