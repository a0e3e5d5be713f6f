/*
 * The dataflow presets: brute force under each on small spaces (as defined
 * in docs/mapping.md), the wraps that may leave an input window in place,
 * the presets' definitions on a real layer, the shipped preset files.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "activity/activity_int.h"
#include "constraints/constraints_int.h"
#include "search/search_int.h"
#include "tcase_util.h"
#include "trim.h"
#include "constraints_brute.h"

/* A conv's weight gradient (M = E = R = 2, the reduction over E) on the
 * same hardware. */
static void case_wg(struct trim_arch *a, trim__intra *w)
{
	case_conv(a, w);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_WG, 1, 1, 2, 1, 3, 1, 2, 1, 1, 1, 0), 0);
}

/* the presets on small spaces, as defined in docs/mapping.md */
static void ref_preset(ref_t *r, const struct trim_arch *a, const char *inner, const char *spatial,
                       const char *perm)
{
	ref_init(r);
	int in = -1;
	for (int l = 0; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE)
			in = l;
	ref_only(r, in, inner);
	ref_perm(r, in, perm);
	for (int l = 0; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			ref_only(r, l, spatial);
}

static const struct {
	const char *name, *inner, *spatial, *perm;
} defs[] = {
	{"weight-stationary", "NEF", "GMCRS", ""},
	{"output-stationary", "CRS", "NGMEF", ""},
	{"input-stationary", "M", "NGCEFRS", ""},
	{"row-stationary", "SFCM", "GMCER", "SF"},
};

START_TEST(test_brute_presets)
{
	void (*cases[])(struct trim_arch *, trim__intra *) = {case_conv, case_fc, case_wg};
	for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
		for (size_t k = 0; k < 3; k++) {
			if (i == 3 && k == 1)
				continue; /* row-stationary allows M and C everywhere: nothing to cut in an FC */
			struct trim_arch a;
			trim__intra w;
			cases[k](&a, &w);
			ref_t r;
			ref_preset(&r, &a, defs[i].inner, defs[i].spatial, defs[i].perm);
			char yaml[128];
			snprintf(yaml, sizeof yaml, "preset: %s\n", defs[i].name);
			brute(cases[k], (int)((i + k) % 3), yaml, &r);
		}
	/* the sliding-window floor was checked, raised above nothing often, and
	 * is sometimes a mapping's own fills */
	fprintf(stderr, "window floor: %llu checked, %llu above 0, %llu tight, %llu above the any-loop floor for the own first loop\n",
	        (unsigned long long)g_wfill_checked, (unsigned long long)g_wfill_raised,
	        (unsigned long long)g_wfill_equal, (unsigned long long)g_wfill_own_above);
	ck_assert_uint_gt(g_wfill_checked, 1000);
	ck_assert_uint_gt(g_wfill_raised * 10, g_wfill_checked);
	ck_assert_uint_gt(g_wfill_equal, 0);
	ck_assert_uint_gt(g_wfill_own_above, 0);
	ck_assert_uint_gt(g_own_loop_checked, 1000);
	ck_assert_uint_gt(g_least_checked, 100);
}
END_TEST

/* the presets on a real layer and architecture: the best and the top
 * mappings obey their definitions */
/* The wraps that may leave a one-word input window in place, worked by
 * hand (mixed radix on the axis e U + r): R of 2 wrapping into E of
 * stride 1 may ((e, 1) -> (e + 1, 0)); R and S of 3 over E and F of 13
 * may not (R moves back 2, E forward 1 or back 12, and a carry into a
 * second loop on R needs a bound with two factors); at stride 2, R of 3
 * over E of 4 may (R back 2, E forward 1: 2 x 1 = 1 x 2). */
static unsigned wrap_returns(int64_t in_h, int64_t in_w, int64_t r, int64_t s, int64_t u)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace sp;
	tu_arch_rf(&a, "wrap", 2, 2, 12);
	ck_assert_int_eq(tu_layer(&w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, in_h, in_w, r, s, u, 1, 0), 0);
	ck_assert_int_eq(trim__mapspace_init(&sp, &w, &a), 0);
	const unsigned ret = sp.wreturn[0];
	trim__mapspace_free(&sp);
	return ret;
}

START_TEST(test_window_wrap_returns)
{
	const unsigned E = 1u << TRIM_DIM_E, F = 1u << TRIM_DIM_F, R = 1u << TRIM_DIM_R, S = 1u << TRIM_DIM_S;
	unsigned ret = wrap_returns(5, 5, 2, 2, 1); /* E = F = 4, R = S = 2 */
	ck_assert_uint_eq(ret & (R | S), R | S);
	ck_assert_uint_eq(ret & (E | F), E | F); /* E of 4: a carry into its second loop, R forward 1 */
	ret = wrap_returns(15, 15, 3, 3, 1); /* E = F = 13, R = S = 3 */
	ck_assert_uint_eq(ret & (E | F | R | S), 0);
	ret = wrap_returns(9, 9, 3, 3, 2); /* E = F = 4, R = S = 3, stride 2 */
	ck_assert_uint_eq(ret & (R | S), R | S);
	/* the dims of no two-term axis count as returning (no claim) */
	ck_assert_uint_eq(ret & (1u << TRIM_DIM_C), 1u << TRIM_DIM_C);
}
END_TEST

START_TEST(test_presets_definition)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "test/data/networks/tiny.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 0, 0), 0);
	ck_assert_uint_ge(trim_workloads_intra_count(w), 4);
	ck_assert_int_eq(trim_arch_load(&a, "test/data/neteval/tiny-arch.yaml"), 0);
	for (size_t p = 0; trim_constraints_preset_name(p); p++) {
		ck_assert_str_eq(trim_constraints_preset_name(p), defs[p].name);
		ck_assert_ptr_nonnull(trim_constraints_preset_description(p));
		for (i = 0; i < trim_workloads_intra_count(w); i++) {
			trim_search *s = NULL;
			trim_constraints *c = NULL;
			ck_assert_int_eq(trim_search_create(&s, w, i, a, NULL), 0);
			ck_assert_int_eq(trim_constraints_create(&c), 0);
			ck_assert_int_eq(trim_constraints_add_preset(c, defs[p].name), 0);
			ck_assert_int_eq(trim_constraints_add_preset(c, defs[p].name), 0); /* twice: once */
			ck_assert_uint_eq(trim_constraints_preset_count(c), 1);
			double d0 = trim_search_distinct(s);
			ck_assert_int_eq(trim_search_set_constraints(s, c), 0);
			ck_assert(trim_search_distinct(s) <= d0); /* < for conv1 FW; an FC under row-stationary: = */
			ck_assert_int_eq(trim_search_set_int(s, TRIM_SEARCH_TOP_K, 8), 0);
			ck_assert_int_eq(trim_search_set_int(s, TRIM_SEARCH_THREADS, 2), 0);
			ck_assert_int_eq(trim_search_run(s), 0);
			ck_assert_uint_gt(trim_search_top_count(s), 0);
			for (size_t k = 0; k < trim_search_top_count(s); k++) {
				trim_mapping *m = NULL;
				ck_assert_int_eq(trim_search_top_mapping(s, k, &m), 0);
				const trim__mapping *x = (const trim__mapping *)m;
				for (int d = 0; d < TRIM_NDIMS; d++) {
					char dc = "NGMCEFRS"[d];
					ck_assert_msg(x->f[3][d] == 1 || strchr(defs[p].inner, dc), "%s: RF loops on %c",
					              defs[p].name, dc);
					ck_assert_msg(x->f[2][d] == 1 || strchr(defs[p].spatial, dc), "%s: NoC spreads %c",
					              defs[p].name, dc);
				}
				if (defs[p].perm[0]) { /* S then F innermost at the RF */
					int loops[TRIM_NDIMS], n = 0;
					for (int o = 0; o < TRIM_NDIMS; o++)
						if (x->f[3][x->order[3][o]] > 1)
							loops[n++] = x->order[3][o];
					int j = n - 1;
					for (const char *q = defs[p].perm; *q; q++) {
						int d = (int)(strchr("NGMCEFRS", *q) - "NGMCEFRS");
						if (x->f[3][d] > 1)
							ck_assert_int_eq(loops[j--], d);
					}
				}
				trim_mapping_free(m);
			}
			trim_constraints_free(c);
			trim_search_free(s);
		}
	}
	trim_constraints *c = NULL;
	ck_assert_int_eq(trim_constraints_create(&c), 0);
	ck_assert_int_eq(trim_constraints_add_preset(c, "diagonal-stationary"), TRIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "weight-stationary, output-stationary"));
	trim_constraints_free(c);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* the shipped preset files are the presets on the RF / PE array
 * architectures; the Timeloop-style file checks on Eyeriss; dumps load
 * back to the same dump */
START_TEST(test_shipped)
{
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/training-baseline.yaml"), 0);
	for (size_t p = 0; trim_constraints_preset_name(p); p++) {
		char path[256], *x = NULL, *y = NULL;
		snprintf(path, sizeof path, "models/constraints/%s.yaml", trim_constraints_preset_name(p));
		trim_constraints *f = NULL, *b = NULL;
		ck_assert_msg(trim_constraints_load(&f, path) == 0, "%s", trim_last_error());
		ck_assert_int_eq(trim_constraints_create(&b), 0);
		ck_assert_int_eq(trim_constraints_add_preset(b, trim_constraints_preset_name(p)), 0);
		ck_assert_int_eq(trim_constraints_dump(f, a, &x), 0);
		ck_assert_int_eq(trim_constraints_dump(b, a, &y), 0);
		ck_assert_msg(!strcmp(x, y), "%s differs from the preset:\n%s\n%s", path, x, y);
		trim_string_free(x);
		trim_string_free(y);
		trim_constraints_free(f);
		trim_constraints_free(b);
	}
	trim_arch_free(a);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/eyeriss.yaml"), 0);
	trim_constraints *t = NULL, *u = NULL;
	ck_assert_int_eq(trim_constraints_load(&t, "models/constraints/timeloop-eyeriss-rs.yaml"), 0);
	ck_assert_msg(trim_constraints_check(t, a) == 0, "%s", trim_last_error());
	ck_assert_uint_eq(trim_constraints_count(t), 5);
	ck_assert_int_eq(trim_constraints_add_preset(t, "row-stationary"), 0);
	char *x = NULL, *y = NULL;
	ck_assert_int_eq(trim_constraints_dump(t, NULL, &x), 0);
	ck_assert_ptr_nonnull(strstr(x, "preset: [row-stationary]\n"));
	ck_assert_ptr_nonnull(strstr(x, "  - target: \"GLB\"\n    type: spatial\n    factors: N=1 E=1 R=1 S=0\n"
	                                "    permutation: FSC\n    split: 1\n"));
	ck_assert_int_eq(trim_constraints_load_string(&u, x, "dump"), 0);
	ck_assert_int_eq(trim_constraints_dump(u, NULL, &y), 0);
	ck_assert_str_eq(x, y);
	ck_assert(trim__constraints_digest(t) == trim__constraints_digest(u));
	ck_assert(trim__constraints_digest(t) != 0 && trim__constraints_digest(NULL) == 0);
	trim_string_free(x);
	trim_string_free(y);
	trim_constraints_free(u);
	/* the preset's RF permutation (S F) and the file's (C R K) contradict */
	ck_assert_int_eq(trim_constraints_check(t, a), TRIM_ESCHEMA);
	trim_constraints_free(t);
	trim_arch_free(a);
}
END_TEST

Suite *constraints_presets_suite(void)
{
	Suite *s = suite_create("constraints_presets");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_brute_presets);
	tcase_add_test(tc, test_presets_definition);
	tcase_add_test(tc, test_window_wrap_returns);
	tcase_add_test(tc, test_shipped);
	suite_add_tcase(s, tc);
	return s;
}
