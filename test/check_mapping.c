/*
 * Mappings: validation errors, the Fig. 6 loop nest, YAML round trip,
 * Timeloop's mapping format, factor ranges, where check failures point (what
 * timeloop-mapper writes, the export to Timeloop and the counting
 * differences: check_mapping_timeloop.c).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "activity/activity_int.h"
#include "mapping/mapping_int.h"
#include "tcase_util.h"
#include "trim.h"
#include "mapping_fig6.h"

/* Fig. 6 (b) */
static void fig6_b(trim__mapping *m, const struct trim_arch *a)
{
	trim__mapping_init(m, a);
	m->f[DRAM][TRIM_DIM_M] = 4;
	ck_assert_int_eq(trim__mapping_set_order_str(m, DRAM, "MC"), 0);
	m->f[GLB][TRIM_DIM_M] = 2;
	m->f[GLB][TRIM_DIM_C] = 2;
	ck_assert_int_eq(trim__mapping_set_order_str(m, GLB, "MC"), 0);
	m->f[NOC][TRIM_DIM_M] = m->fx[NOC][TRIM_DIM_M] = 4;
	m->f[NOC][TRIM_DIM_C] = m->fy[NOC][TRIM_DIM_C] = 2;
	m->f[RF][TRIM_DIM_C] = 4;
}

static int same(const trim__mapping *x, const trim__mapping *y)
{
	return x->nlevels == y->nlevels && !memcmp(x->f, y->f, sizeof x->f) &&
	       !memcmp(x->fx, y->fx, sizeof x->fx) && !memcmp(x->fy, y->fy, sizeof x->fy) &&
	       !memcmp(x->order, y->order, sizeof x->order) && !memcmp(x->keep, y->keep, sizeof x->keep);
}

START_TEST(test_validate)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	fig6_arch(&a);
	fig6_wl(&w);
	fig6_b(&m, &a);
	ck_assert_msg(trim__mapping_check(&m, &w, &a) == 0, "%s", trim_last_error());

	/* factors that do not multiply to the bound */
	m.f[RF][TRIM_DIM_C] = 2;
	EXPECT_ERR(trim__mapping_check(&m, &w, &a), TRIM_ESHAPE, "bounds of C multiply to 8");
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "workload bound is 16"));
	m.f[RF][TRIM_DIM_C] = 4;

	/* spatial bounds beyond the fan-out (X is 4 wide) */
	m.f[NOC][TRIM_DIM_M] = m.fx[NOC][TRIM_DIM_M] = 8;
	m.f[DRAM][TRIM_DIM_M] = 2;
	EXPECT_ERR(trim__mapping_check(&m, &w, &a), TRIM_ENOFIT, "use 8 x 2 PEs, the array has 4 x 2");
	fig6_b(&m, &a);
	/* X * Y inconsistent with the bound */
	m.fx[NOC][TRIM_DIM_M] = 2;
	EXPECT_ERR(trim__mapping_check(&m, &w, &a), TRIM_ESHAPE, "X*Y");
	fig6_b(&m, &a);

	/* capacity: RF holds 64 bytes = 32 words; tiles: in 4 + wt 4 + out 1 */
	m.f[RF][TRIM_DIM_C] = 1;
	m.f[GLB][TRIM_DIM_C] = 8;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	fig6_b(&m, &a);
	/* GLB tile: input 16 + weight 8*16 + output 8 = 152 words = 304 bytes */
	ck_assert_int_eq(trim__mapping_tile_elems(&m, &w, GLB, 1), 128);
	a.lv[GLB].capacity_bytes = 303;
	EXPECT_ERR(trim__mapping_check(&m, &w, &a), TRIM_ENOFIT, "need 304 bytes, the capacity is 303");
	a.lv[GLB].capacity_bytes = 304;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	/* cached intermediate activations take part of the buffer (training) */
	int64_t reserved[TRIM__MAX_LEVELS] = {0};
	reserved[GLB] = 1;
	EXPECT_ERR(trim__mapping_check_reserved(&m, &w, &a, reserved), TRIM_ENOFIT,
	           "need 304 bytes, the capacity is 304 of which 1 hold cached activations");
	reserved[GLB] = 0;
	ck_assert_int_eq(trim__mapping_check_reserved(&m, &w, &a, reserved), 0);
	a.lv[GLB].double_buffer = 1;
	EXPECT_ERR(trim__mapping_check(&m, &w, &a), TRIM_ENOFIT, "608 bytes (double-buffered)");
	a.lv[GLB].double_buffer = 0;
	/* partitioned: the weight partition is too small */
	a.lv[GLB].partitioned = 1;
	a.lv[GLB].part_bytes[0] = 32;
	a.lv[GLB].part_bytes[1] = 255;
	a.lv[GLB].part_bytes[2] = 16;
	EXPECT_ERR(trim__mapping_check(&m, &w, &a), TRIM_ENOFIT, "the weight tile needs 256 bytes, its partition has 255");
	a.lv[GLB].part_bytes[1] = 256;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	/* bypassing a tensor frees its share */
	a.lv[GLB].part_bytes[1] = 0;
	m.keep[GLB][1] = 0;
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	a.lv[GLB].partitioned = 0;

	/* keep where the architecture bypasses */
	fig6_b(&m, &a);
	a.lv[RF].keep[2] = 0;
	EXPECT_ERR(trim__mapping_check(&m, &w, &a), TRIM_ESHAPE, "RF cannot hold the output tensor");
	a.lv[RF].keep[2] = 1;
	/* the outermost level holds everything */
	m.keep[DRAM][0] = 0;
	EXPECT_ERR(trim__mapping_check(&m, &w, &a), TRIM_ESHAPE, "outermost level DRAM must hold the input");
	m.keep[DRAM][0] = 1;
	/* a bad order */
	EXPECT_ERR(trim__mapping_set_order_str(&m, GLB, "MXC"), TRIM_EINVAL, "unknown dimension 'X'");
	EXPECT_ERR(trim__mapping_set_order_str(&m, GLB, "MCM"), TRIM_EINVAL, "dimension M twice");
	EXPECT_ERR(trim__mapping_set_order_str(&m, NOC, "MC"), TRIM_EINVAL, "not a storage level");
}
END_TEST

START_TEST(test_public_setters)
{
	struct trim_arch a;
	trim_mapping *m = NULL;
	fig6_arch(&a);
	ck_assert_int_eq(trim_mapping_create(&m, &a), 0);
	ck_assert_int_eq(trim_mapping_levels(m), 5);
	ck_assert_int_eq(trim_mapping_set_temporal(m, DRAM, TRIM_DIM_M, 4), 0);
	ck_assert_int_eq(trim_mapping_bound(m, DRAM, TRIM_DIM_M), 4);
	EXPECT_ERR(trim_mapping_set_temporal(m, NOC, TRIM_DIM_M, 4), TRIM_EINVAL, "not a storage level");
	EXPECT_ERR(trim_mapping_set_temporal(m, 9, TRIM_DIM_M, 4), TRIM_ENOTFOUND, "no level 9");
	EXPECT_ERR(trim_mapping_set_temporal(m, DRAM, 8, 4), TRIM_ENOTFOUND, "no dimension 8");
	EXPECT_ERR(trim_mapping_set_temporal(m, DRAM, TRIM_DIM_M, 0), TRIM_ERANGE, "bound 0");
	ck_assert_int_eq(trim_mapping_set_spatial(m, NOC, TRIM_DIM_M, 2, 2), 0);
	ck_assert_int_eq(trim_mapping_bound(m, NOC, TRIM_DIM_M), 4);
	EXPECT_ERR(trim_mapping_set_spatial(m, GLB, TRIM_DIM_M, 2, 2), TRIM_EINVAL, "not a spatial level");
	EXPECT_ERR(trim_mapping_set_keep(m, GLB, 3, 0), TRIM_ENOTFOUND, "no tensor slot 3");
	ck_assert_int_eq(trim_mapping_set_order(m, GLB, "cm"), 0);
	trim_mapping *c = NULL;
	ck_assert_int_eq(trim_mapping_clone(&c, m), 0);
	ck_assert(same(c, m));
	trim_mapping_free(c);
	trim_mapping_free(m);
	trim_mapping_free(NULL);
}
END_TEST

START_TEST(test_loopnest_fig6)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	fig6_arch(&a);
	fig6_wl(&w);
	fig6_b(&m, &a);
	trim__sb sb;
	trim__sb_init(&sb);
	trim__mapping_loopnest(&m, &w, &sb);
	ck_assert_ptr_nonnull(sb.buf);
	/* loop variables numbered from the innermost level, as in Fig. 6 */
	const char *want[] = {"for m4 in [0:4)", "for c4 in [0:1)", "for m3 in [0:2)",
	                      "for c3 in [0:2)", "parallel_for m2 in [0:4)  # X 4, Y 1",
	                      "parallel_for c2 in [0:2)  # X 1, Y 2", "for c1 in [0:4)", "MAC"};
	const char *p = sb.buf;
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const char *q = strstr(p, want[i]);
		ck_assert_msg(q != NULL, "'%s' missing or out of order in\n%s", want[i], sb.buf);
		p = q + 1;
	}
	/* m3 is outside c3 in (b) */
	ck_assert(strstr(sb.buf, "for m3") < strstr(sb.buf, "for c3"));
	trim__sb_free(&sb);
}
END_TEST

START_TEST(test_yaml_roundtrip)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	fig6_arch(&a);
	fig6_wl(&w);
	fig6_b(&m, &a);
	m.keep[GLB][1] = 0;
	char *text = NULL;
	ck_assert_int_eq(trim_mapping_dump(&m, TRIM_FORMAT_YAML, &text), 0);
	trim_mapping *back = NULL;
	ck_assert_msg(trim_mapping_load_string(&back, &a, text, "rt.yaml") == 0, "%s\n%s", trim_last_error(), text);
	ck_assert_msg(same(back, &m), "round trip differs:\n%s", text);
	char *again = NULL;
	ck_assert_int_eq(trim_mapping_dump(back, TRIM_FORMAT_YAML, &again), 0);
	ck_assert_str_eq(text, again);
	trim_string_free(text);
	trim_string_free(again);
	trim_mapping_free(back);
}
END_TEST

START_TEST(test_yaml_errors)
{
	struct trim_arch a;
	trim_mapping *m = NULL;
	fig6_arch(&a);
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - level: SRAM\n    temporal: {M: 2}\n", "e.yaml"),
	           TRIM_ENOTFOUND, "e.yaml:2:12: mapping[0].level: unknown level 'SRAM' (the architecture has DRAM, GLB, NoC, RF, MAC)");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - level: GLB\n    temporal: {X: 2}\n", "e.yaml"),
	           TRIM_ENOTFOUND, "e.yaml:3:16: mapping[0].temporal.X: unknown dimension 'X'");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - level: NoC\n    temporal: {M: 2}\n", "e.yaml"),
	           TRIM_ESCHEMA, "spatial level");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - level: GLB\n    temporal: {M: 0}\n", "e.yaml"),
	           TRIM_ERANGE, "mapping[0].temporal.M");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - level: GLB\n    keep: [psums2]\n", "e.yaml"),
	           TRIM_ESCHEMA, "unknown tensor 'psums2'");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - level: GLB\n    tmporal: {M: 2}\n", "e.yaml"),
	           TRIM_ESCHEMA, "tmporal");
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(test_timeloop_format)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping want;
	trim_mapping *m = NULL;
	fig6_arch(&a);
	fig6_wl(&w);
	fig6_b(&want, &a);
	want.keep[GLB][1] = 0;
	ck_assert_msg(trim_mapping_load_string(&m, &a, TL_FIG6B, "tl.yaml") == 0, "%s", trim_last_error());
	/* K -> M, P -> E, Q -> F; permutation inner first; split 1: K on X, C on Y */
	ck_assert_int_eq(m->f[DRAM][TRIM_DIM_M], 4);
	ck_assert_int_eq(m->fx[NOC][TRIM_DIM_M], 4);
	ck_assert_int_eq(m->fy[NOC][TRIM_DIM_C], 2);
	ck_assert_int_eq(m->order[GLB][0], TRIM_DIM_M); /* K outermost (last in CK) */
	ck_assert_int_eq(m->order[GLB][1], TRIM_DIM_C);
	ck_assert_int_eq(m->keep[GLB][1], 0);
	ck_assert_int_eq(trim__mapping_check(m, &w, &a), 0);
	/* factors as a list, a spatial directive naming the spatial level itself */
	trim_mapping *m2 = NULL;
	ck_assert_msg(trim_mapping_load_string(&m2, &a,
	              "mapping:\n  - target: NoC\n    type: spatial\n    factors: [K=4, C=2]\n"
	              "    permutation: KC\n    split: 1\n", "tl2.yaml") == 0, "%s", trim_last_error());
	ck_assert_int_eq(m2->fx[NOC][TRIM_DIM_M], 4);
	ck_assert_int_eq(m2->fy[NOC][TRIM_DIM_C], 2);
	trim_mapping_free(m2);
	/* the same loops as the hand-built Fig. 6 (b), order of bound-1 loops aside */
	for (int l = 0; l < a.nlevels; l++)
		for (int d = 0; d < TRIM_NDIMS; d++) {
			ck_assert_int_eq(m->f[l][d], want.f[l][d]);
			ck_assert_int_eq(m->fx[l][d], want.fx[l][d]);
		}
	trim_mapping_free(m);
	m = NULL;
	/* G > 1 cannot be expressed in Timeloop's names: the check says so */
	w.bound[TRIM_DIM_G] = 2;
	ck_assert_int_eq(trim_mapping_load_string(&m, &a, TL_FIG6B, "tl.yaml"), 0);
	EXPECT_ERR(trim__mapping_check(m, &w, &a), TRIM_ESHAPE, "bounds of G multiply to 1");
	trim_mapping_free(m);
	m = NULL;
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: temporal\n    factors: C=2 X=2\n", "tl.yaml"),
	           TRIM_ESCHEMA, "tl.yaml:4:14: mapping[0].factors: bad factor 'X=2'");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: PEbuf\n    type: temporal\n", "tl.yaml"),
	           TRIM_ENOTFOUND, "unknown level 'PEbuf'");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: RF\n    type: spatial\n    factors: C=2\n", "tl.yaml"),
	           TRIM_ESCHEMA, "no spatial level directly below RF");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: temporal\n    permutation: CKC\n", "tl.yaml"),
	           TRIM_ESCHEMA, "bad permutation");
	ck_assert_ptr_null(m);
}
END_TEST

/* Bounds are capped at 2^40 in both YAML forms and the setters, and products
 * of bounds never overflow: a huge mapping is an error with its position,
 * never a wrapped PE count (UBSan aborts on the signed overflow these
 * inputs caused in the fan-out check and the X*Y product). */
START_TEST(test_factor_ranges)
{
	struct trim_arch a;
	trim__intra w;
	trim_mapping *m = NULL;
	fig6_arch(&a);
	fig6_wl(&w);
	/* Timeloop factors above 2^40 (also beyond int64) are refused where written */
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: temporal\n"
	           "    factors: C=2 K=2199023255553\n", "tl.yaml"),
	           TRIM_ERANGE, "tl.yaml:4:14: mapping[0].factors: bad factor 'K=2199023255553': a bound is at most 2^40");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: spatial\n"
	           "    factors: K99999999999999999999\n", "tl.yaml"),
	           TRIM_ERANGE, "a bound is at most 2^40");
	ck_assert_ptr_null(m);
	/* two X bounds of 2^40 each: the PEs used along X do not fit 64 bits */
	ck_assert_msg(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: spatial\n"
	              "    factors: K=1099511627776 C=1099511627776\n", "tl.yaml") == 0, "%s", trim_last_error());
	EXPECT_ERR(trim__mapping_check(m, &w, &a), TRIM_ENOFIT,
	           "tl.yaml:2:5: mapping[0]: level NoC, dimension");
	ck_assert_msg(strstr(trim_last_error(), "use more than 9223372036854775807 x 1 PEs, the array has 4 x 2 (X is too wide)"),
	              "%s", trim_last_error());
	trim_mapping_free(m);
	m = NULL;
	/* libtrim's form: X and Y bounds of one dim whose product exceeds 2^40 */
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - level: NoC\n    spatial_x: {M: 1099511627776}\n"
	           "    spatial_y: {M: 1099511627776}\n", "own.yaml"),
	           TRIM_ERANGE, "own.yaml:2:5: mapping[0]: level NoC: the spatial bound of M is 1099511627776 x 1099511627776, more than 2^40");
	ck_assert_ptr_null(m);
	/* the setters */
	ck_assert_int_eq(trim_mapping_create(&m, &a), 0);
	EXPECT_ERR(trim_mapping_set_spatial(m, NOC, TRIM_DIM_M, (int64_t)1 << 40, (int64_t)1 << 40), TRIM_ERANGE,
	           "the product at most 2^40");
	EXPECT_ERR(trim_mapping_set_temporal(m, GLB, TRIM_DIM_M, INT64_MAX), TRIM_ERANGE, "1 .. 2^40");
	/* a mapping built in memory: X*Y of a bound checked without overflow */
	m->fx[NOC][TRIM_DIM_M] = m->fy[NOC][TRIM_DIM_M] = (int64_t)1 << 62;
	m->f[NOC][TRIM_DIM_M] = 0x7fffffffffffffff;
	EXPECT_ERR(trim__mapping_check(m, &w, &a), TRIM_ESHAPE, "mapping: level NoC, dimension M: the spatial bound of M");
	trim_mapping_free(m);
}
END_TEST

/* More PE rows (Y) than the array has is refused, as more columns is. */
START_TEST(test_rows_over_fanout)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapping m;
	fig6_arch(&a); /* NoC 4 x 2 */
	fig6_wl(&w);
	fig6_b(&m, &a);
	ck_assert_int_eq(trim__mapping_check(&m, &w, &a), 0);
	/* C: 2 along Y -> 4 along Y (GLB gives up its C) */
	m.f[GLB][TRIM_DIM_C] = 1;
	m.f[NOC][TRIM_DIM_C] = m.fy[NOC][TRIM_DIM_C] = 4;
	EXPECT_ERR(trim__mapping_check(&m, &w, &a), TRIM_ENOFIT,
	           "mapping: level NoC, dimension C: the spatial bounds use 4 x 4 PEs, the array has 4 x 2 (Y is too tall)");
	/* the same bounds along X fit a transposed array */
	a.lv[NOC].fanout_x = 2;
	a.lv[NOC].fanout_y = 4;
	m.f[NOC][TRIM_DIM_M] = m.fy[NOC][TRIM_DIM_M] = 1;
	m.f[NOC][TRIM_DIM_M] = m.fx[NOC][TRIM_DIM_M] = 2;
	m.f[DRAM][TRIM_DIM_M] = 8;
	ck_assert_msg(trim__mapping_check(&m, &w, &a) == 0, "%s", trim_last_error());
	/* one row too many, through libtrim's YAML form: the entry is named */
	fig6_arch(&a);
	trim_mapping *y = NULL;
	ck_assert_int_eq(trim_mapping_load_string(&y, &a,
	                 "mapping:\n  - level: DRAM\n    temporal: {M: 8, C: 2}\n"
	                 "  - level: NoC\n    spatial_x: {M: 4}\n    spatial_y: {C: 4}\n"
	                 "  - level: RF\n    temporal: {C: 2}\n", "rows.yaml"), 0);
	EXPECT_ERR(trim__mapping_check(y, &w, &a), TRIM_ENOFIT,
	           "rows.yaml:4:5: mapping[1]: level NoC, dimension C: the spatial bounds use 4 x 4 PEs, the array has 4 x 2 (Y is too tall)");
	trim_mapping_free(y);
}
END_TEST

/* Check failures of a mapping read from a file name the file, the
 * line:column of the level's entry, the level and the dimension. */
static const char *const OWN_FIG6B =
	"mapping:\n"
	"  - level: DRAM\n"          /* 2:5 */
	"    temporal: {M: 4}\n"
	"    order: MC\n"
	"  - level: GLB\n"           /* 5:5 */
	"    temporal: {M: 2, C: 2}\n"
	"    order: MC\n"
	"  - level: NoC\n"           /* 8:5 */
	"    spatial_x: {M: 4}\n"
	"    spatial_y: {C: 2}\n"
	"  - level: RF\n"            /* 11:5 */
	"    temporal: {C: 4}\n";

static int check_text(const struct trim_arch *a, const trim__intra *w, const char *text,
                      const char *name, const char *from, const char *to)
{
	char buf[1024];
	const char *p = strstr(text, from);
	ck_assert_ptr_nonnull(p);
	snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - text), text, to, p + strlen(from));
	trim_mapping *m = NULL;
	ck_assert_msg(trim_mapping_load_string(&m, a, buf, name) == 0, "%s", trim_last_error());
	int rc = trim__mapping_check(m, w, a);
	trim_mapping_free(m);
	return rc;
}

START_TEST(test_check_locations)
{
	struct trim_arch a;
	trim__intra w;
	fig6_arch(&a);
	fig6_wl(&w);
	ck_assert_int_eq(check_text(&a, &w, OWN_FIG6B, "m.yaml", "", ""), 0);
	/* factor product: the first entry that splits the dim */
	EXPECT_ERR(check_text(&a, &w, OWN_FIG6B, "m.yaml", "{C: 4}", "{C: 2}"), TRIM_ESHAPE,
	           "m.yaml:5:5: mapping[1]: level GLB, dimension C: the bounds of C multiply to 8 "
	           "(DRAM=1 x GLB=2 x NoC=2 x RF=2), the workload bound is 16");
	/* a dim no entry splits: the `mapping:` list */
	EXPECT_ERR(check_text(&a, &w, OWN_FIG6B, "m.yaml", "{M: 4}\n    order", "{M: 1}\n    order"), TRIM_ESHAPE,
	           "m.yaml:5:5: mapping[1]: level GLB, dimension M: the bounds of M multiply to 8");
	w.bound[TRIM_DIM_N] = 2;
	EXPECT_ERR(check_text(&a, &w, OWN_FIG6B, "m.yaml", "", ""), TRIM_ESHAPE,
	           "m.yaml:2:3: mapping: dimension N: the bounds of N multiply to 1");
	w.bound[TRIM_DIM_N] = 1;
	/* fan-out along X */
	EXPECT_ERR(check_text(&a, &w, OWN_FIG6B, "m.yaml", "{M: 4}\n    spatial_y", "{M: 8}\n    spatial_y"), TRIM_ENOFIT,
	           "m.yaml:8:5: mapping[2]: level NoC, dimension M: the spatial bounds use 8 x 2 PEs, the array has 4 x 2 (X is too wide)");
	/* capacity: RF holds 64 bytes; input 16 + weight 16 + output 1 words = 66 bytes */
	EXPECT_ERR(check_text(&a, &w, OWN_FIG6B, "m.yaml", "{M: 2, C: 2}", "{M: 2}"), TRIM_ESHAPE, "multiply to 8");
	char text[1024];
	snprintf(text, sizeof text, "%s", OWN_FIG6B);
	*strstr(text, "    spatial_y: {C: 2}\n") = 0;
	strcat(text, "  - level: RF\n    temporal: {C: 16}\n");
	EXPECT_ERR(check_text(&a, &w, text, "m.yaml", "{M: 2, C: 2}", "{M: 2}"), TRIM_ENOFIT,
	           "m.yaml:10:5: mapping[3]: level RF: the tiles need 66 bytes, the capacity is 64");
	/* Timeloop's form: the directive that set the level's bounds */
	EXPECT_ERR(check_text(&a, &w, TL_FIG6B, "tl.yaml", "K=4 C=2", "K=8 C=2"), TRIM_ENOFIT,
	           "tl.yaml:10:5: mapping[2]: level NoC, dimension M: the spatial bounds use 8 x 2 PEs");
	EXPECT_ERR(check_text(&a, &w, TL_FIG6B, "tl.yaml", "factors: C=4", "factors: C=8"), TRIM_ESHAPE,
	           "tl.yaml:6:5: mapping[1]: level GLB, dimension C: the bounds of C multiply to 32");
	/* a bypass entry locates a level no temporal entry names */
	a.lv[GLB].keep[1] = 0;
	EXPECT_ERR(check_text(&a, &w, "mapping:\n  - target: GLB\n    type: datatype\n    keep: [Weights]\n",
	                      "tl.yaml", "", ""), TRIM_ESHAPE,
	           "tl.yaml:2:5: mapping[0]: level GLB: GLB cannot hold the weight tensor");
}
END_TEST

Suite *mapping_suite(void)
{
	Suite *s = suite_create("mapping");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_public_setters);
	tcase_add_test(tc, test_loopnest_fig6);
	tcase_add_test(tc, test_yaml_roundtrip);
	tcase_add_test(tc, test_yaml_errors);
	tcase_add_test(tc, test_timeloop_format);
	tcase_add_test(tc, test_factor_ranges);
	tcase_add_test(tc, test_rows_over_fanout);
	tcase_add_test(tc, test_check_locations);
	suite_add_tcase(s, tc);
	return s;
}
