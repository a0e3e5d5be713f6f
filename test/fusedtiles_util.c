/* Test helpers of the fused-tiles suites (fusedtiles_util.h). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fusedtiles_util.h"
#include "tcase_util.h"

double tu_ft_brute_layer(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *c, int glb,
                         unsigned fused, int goal)
{
	return tu_ft_brute_layer_held(w, a, c, glb, fused, goal, 0);
}

double tu_ft_brute_layer_held(const trim__intra *w, const struct trim_arch *a, const trim__level_cost *c, int glb,
                              unsigned fused, int goal, int64_t held)
{
	int64_t reserved[TRIM__MAX_LEVELS] = {0};
	reserved[glb] = held;
	trim__mapspace s;
	trim__eval *e = calloc(2, sizeof *e);
	trim__eval_ws ws;
	memset(&ws, 0, sizeof ws);
	double best = HUGE_VAL;
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(trim__mapspace_init(&s, w, a), 0);
	for (trim__index i = 0; i < s.size; i++) {
		trim__mapping m;
		ck_assert_int_eq(trim__mapspace_decode(&s, i, &m), 0);
		if (trim__mapping_check_reserved(&m, w, a, reserved))
			continue;
		int skip = 0;
		for (int d = 0; fused && d < TRIM_NDIMS; d++)
			skip |= m.f[0][d] != 1;
		if ((fused & TRIM__FT_IN && !m.keep[glb][0]) || (fused & TRIM__FT_OUT && !m.keep[glb][2]) || skip)
			continue;
		memset(&e[0], 0, sizeof e[0]);
		ck_assert_msg(trim__eval_run(w, a, c, &m, &ws, &e[0]) == 0, "%s", trim_last_error());
		trim__ft_eval_fused(w, a, c, &m, glb, fused, &e[0], &e[1], NULL);
		double v = goal == TRIM__GOAL_DELAY ? e[1].cycles : e[1].energy_pj;
		if (v < best)
			best = v;
	}
	trim__mapspace_free(&s);
	trim__eval_ws_free(&ws);
	free(e);
	return best;
}

void tu_ft_fc(trim__intra *x, const char *name, int64_t n, int64_t cin, int64_t cout)
{
	ck_assert_int_eq(tu_layer(x, TU_FC, TRIM_PHASE_FW, n, cin, cout, 1, 1, 1, 1, 1, 1, 1, 0), 0);
	snprintf(x->layer, sizeof x->layer, "%s", name);
}

void tu_ft_tile_pos(int naxes, const int64_t *tiles, int64_t tile, int64_t *pos)
{
	for (int x = naxes - 1; x >= 0; x--) {
		pos[x] = tile % tiles[x];
		tile /= tiles[x];
	}
}
