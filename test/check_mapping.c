/*
 * Mappings: validation errors, the Fig. 6 loop nest, YAML round trip,
 * Timeloop's mapping format.
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

enum { DRAM = 0, GLB = 1, NOC = 2, RF = 3 };

static void fig6_arch(struct trim_arch *a)
{
	tu_arch_init(a, "fig6");
	tu_storage(a, "DRAM", 0, 16);
	tu_storage(a, "GLB", 1024, 16);
	tu_spatial(a, "NoC", 4, 2, 1, 1);
	tu_storage(a, "RF", 64, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
}

static void fig6_wl(trim__intra *w)
{
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 16, 32, 1, 1, 1, 1, 1, 1, 1, 0), 0);
}

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

#define EXPECT_ERR(call, code, text)                                                          \
	do {                                                                                      \
		int rc_ = (call);                                                                     \
		ck_assert_msg(rc_ == (code), "rc %d, want %d: %s", rc_, (code), trim_last_error());   \
		ck_assert_msg(strstr(trim_last_error(), (text)) != NULL, "message '%s' lacks '%s'",    \
		              trim_last_error(), (text));                                              \
	} while (0)

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

static const char *const TL_FIG6B =
	"mapping:\n"
	"  - target: DRAM\n"
	"    type: temporal\n"
	"    factors: R=1 S=1 P=1 Q=1 C=1 K=4 N=1\n"
	"    permutation: CKRSPQN\n"
	"  - target: GLB\n"
	"    type: temporal\n"
	"    factors: C=2 K=2\n"
	"    permutation: CK\n"
	"  - target: GLB\n"
	"    type: spatial\n"
	"    factors: K=4 C=2\n"
	"    permutation: KC\n"
	"    split: 1\n"
	"  - target: GLB\n"
	"    type: bypass\n"
	"    keep: [Inputs, Outputs]\n"
	"    bypass: [Weights]\n"
	"  - target: RF\n"
	"    type: temporal\n"
	"    factors: C=4\n"
	"    permutation: C\n";

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

/* What timeloop-mapper writes: factors without '=' ("C1 M16"), output
 * channels as M (its CNN-Layer problem; K in older examples), every dim. */
START_TEST(test_timeloop_mapper_output)
{
	struct trim_arch a;
	trim__intra w;
	trim_mapping *m = NULL, *k = NULL;
	fig6_arch(&a);
	fig6_wl(&w);
	static const char mapper[] =
		"mapping:\n"
		"  - target: GLB\n    type: datatype\n    keep:\n      - Inputs\n      - Outputs\n    bypass:\n      - Weights\n"
		"  - target: DRAM\n    type: temporal\n    factors: C1 M4 R1 S1 N1 P1 Q1\n    permutation: CRSNPQM\n"
		"  - target: GLB\n    type: spatial\n    factors: C2 M4 R1 S1 N1 P1 Q1\n    permutation: MCRSNPQ\n    split: 1\n"
		"  - target: GLB\n    type: temporal\n    factors: C2 M2 R1 S1 N1 P1 Q1\n    permutation: CMRSNPQ\n"
		"  - target: RF\n    type: temporal\n    factors: C4 M1 R1 S1 N1 P1 Q1\n    permutation: CMRSNPQ\n";
	ck_assert_msg(trim_mapping_load_string(&m, &a, mapper, "mapper.yaml") == 0, "%s", trim_last_error());
	ck_assert_msg(trim_mapping_load_string(&k, &a, TL_FIG6B, "tl.yaml") == 0, "%s", trim_last_error());
	for (int l = 0; l < a.nlevels; l++) {
		for (int d = 0; d < TRIM_NDIMS; d++) {
			ck_assert_int_eq(m->f[l][d], k->f[l][d]);
			ck_assert_int_eq(m->fx[l][d], k->fx[l][d]);
			ck_assert_int_eq(m->fy[l][d], k->fy[l][d]);
		}
		for (int t = 0; t < 3; t++)
			ck_assert_int_eq(m->keep[l][t], k->keep[l][t]);
	}
	int pm = -1, pc = -1; /* M outside C at the GLB */
	for (int k = 0; k < TRIM_NDIMS; k++) {
		pm = m->order[GLB][k] == TRIM_DIM_M ? k : pm;
		pc = m->order[GLB][k] == TRIM_DIM_C ? k : pc;
	}
	ck_assert_int_lt(pm, pc);
	ck_assert_int_eq(trim__mapping_check(m, &w, &a), 0);
	trim_mapping_free(m);
	trim_mapping_free(k);
	m = NULL;
	/* K and M are one dim: both in a directive is a dim named twice */
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: temporal\n"
	           "    factors: K2 M2\n", "tl.yaml"), TRIM_ESCHEMA, "'M2': M is named twice");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: temporal\n"
	           "    factors: C2 X2\n", "tl.yaml"), TRIM_ESCHEMA, "bad factor 'X2'");
	EXPECT_ERR(trim_mapping_load_string(&m, &a, "mapping:\n  - target: GLB\n    type: temporal\n"
	           "    factors: C\n", "tl.yaml"), TRIM_ESCHEMA, "bad factor 'C'");
	ck_assert_ptr_null(m);
}
END_TEST

/* A mapping for any workload on eyeriss.yaml: every bound at DRAM except a
 * factor 2 (or 3) of the first dim that has one, spread along X (or Y). */
static int trivial_mapping(trim_mapping **out, const trim_workloads *ws, size_t i, const trim_arch *arch,
                           int along_y)
{
	int64_t b[TRIM_NDIMS];
	ck_assert_int_eq(trim_workloads_intra_bounds(ws, i, b, TRIM_NDIMS), 0);
	ck_assert_int_eq(trim_mapping_create(out, arch), 0);
	int spread = -1;
	for (int d = TRIM_NDIMS - 1; d >= 0 && spread < 0; d--)
		if (b[d] % 2 == 0 || b[d] % 3 == 0)
			spread = d;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t s = d == spread ? (b[d] % 2 == 0 ? 2 : 3) : 1;
		ck_assert_int_eq(trim_mapping_set_temporal(*out, 0, d, b[d] / s), 0);
		if (s > 1)
			ck_assert_int_eq(trim_mapping_set_spatial(*out, 2, d, along_y ? 1 : s, along_y ? s : 1), 0);
	}
	ck_assert_int_eq(trim_mapping_set_order(*out, 0, "SRFECMGN"), 0);
	ck_assert_int_eq(trim_mapping_set_keep(*out, 1, 1, 0), 0); /* the GLB bypasses slot 1 */
	return spread;
}

/* trim_mapping_dump_timeloop writes the problem and the mapping; libtrim's
 * reader gives back the same mapping, which evaluates identically: every
 * workload of AlexNet-CIFAR in training (conv, pool, FC; FW, BW, WG) and a
 * grouped (depthwise) conv of MobileNet, on Eyeriss. */
START_TEST(test_timeloop_export_roundtrip)
{
	static const char *const nets[2] = {"models/networks/alexnet-cifar.yaml", "models/networks/mobilenet-v1.yaml"};
	trim_arch *arch = NULL;
	ck_assert_int_eq(trim_arch_load(&arch, "models/arch/eyeriss.yaml"), 0);
	int groups_seen = 0;
	for (int n = 0; n < 2; n++) {
		trim_network *net = NULL;
		trim_workloads *ws = NULL;
		ck_assert_int_eq(trim_network_load(&net, nets[n]), 0);
		ck_assert_int_eq(trim_workloads_create(&ws, net, TRIM_MODE_TRAINING, 2, 0), 0);
		size_t count = trim_workloads_intra_count(ws);
		for (size_t i = 0; i < count && i < (n ? 4u : count); i++) {
			trim_mapping *m = NULL, *back = NULL;
			int along_y = (int)(i % 2);
			trivial_mapping(&m, ws, i, arch, along_y);
			char *tl = NULL;
			ck_assert_msg(trim_mapping_dump_timeloop(m, ws, i, arch, &tl) == 0, "%zu: %s", i, trim_last_error());
			ck_assert_ptr_nonnull(strstr(tl, "problem:\n  shape:\n"));
			ck_assert_ptr_nonnull(strstr(tl, "\nmapping:\n  - target: \"DRAM\"\n    type: temporal\n"));
			ck_assert_ptr_nonnull(strstr(tl, "type: spatial"));
			int64_t b[TRIM_NDIMS];
			ck_assert_int_eq(trim_workloads_intra_bounds(ws, i, b, TRIM_NDIMS), 0);
			if (b[TRIM_DIM_G] > 1) {
				groups_seen++;
				ck_assert_ptr_nonnull(strstr(tl, "dimensions: [G, C, M, R, S, N, P, Q]"));
			} else {
				ck_assert_ptr_nonnull(strstr(tl, "dimensions: [C, M, R, S, N, P, Q]"));
			}
			ck_assert_msg(trim_mapping_load_string(&back, arch, tl, "export.yaml") == 0, "%s\n%s",
			              trim_last_error(), tl);
			const trim__mapping *x = m, *y = back;
			for (int l = 0; l < x->nlevels; l++) {
				for (int d = 0; d < TRIM_NDIMS; d++) {
					ck_assert_int_eq(x->f[l][d], y->f[l][d]);
					ck_assert_int_eq(x->fx[l][d], y->fx[l][d]);
					ck_assert_int_eq(x->fy[l][d], y->fy[l][d]);
				}
				for (int t = 0; t < 3; t++) /* the tensors the workload has */
					if (trim__workloads_intra(ws, i)->t[t].present)
						ck_assert_int_eq(x->keep[l][t], y->keep[l][t]);
				/* the loop order, for the loops the workload has */
				for (int k = 0, j = 0; k < TRIM_NDIMS; k++) {
					if (b[x->order[l][k]] == 1 && x->order[l][k] == TRIM_DIM_G)
						continue;
					while (b[y->order[l][j]] == 1 && y->order[l][j] == TRIM_DIM_G)
						j++;
					ck_assert_int_eq(x->order[l][k], y->order[l][j]);
					j++;
				}
			}
			trim_eval *e1 = NULL, *e2 = NULL;
			ck_assert_msg(trim_eval_mapping(&e1, ws, i, arch, NULL, m) == 0, "%s", trim_last_error());
			ck_assert_int_eq(trim_eval_mapping(&e2, ws, i, arch, NULL, back), 0);
			ck_assert(trim_eval_cycles(e1) == trim_eval_cycles(e2));
			ck_assert(trim_eval_energy_pj(e1) == trim_eval_energy_pj(e2));
			trim_eval_free(e1);
			trim_eval_free(e2);
			trim_string_free(tl);
			trim_mapping_free(back);
			trim_mapping_free(m);
		}
		trim_workloads_free(ws);
		trim_network_free(net);
	}
	ck_assert_int_gt(groups_seen, 0);
	/* a dim split over both X and Y: two spatial directives (Timeloop gives a
	 * dim one loop per fan-out), which the reader multiplies back */
	trim_network *net = NULL;
	trim_workloads *ws = NULL;
	trim_mapping *m = NULL;
	char *tl = NULL;
	ck_assert_int_eq(trim_network_load(&net, nets[0]), 0);
	ck_assert_int_eq(trim_workloads_create(&ws, net, TRIM_MODE_INFERENCE, 4, 0), 0);
	int s = trivial_mapping(&m, ws, 0, arch, 0), d = TRIM_DIM_M;
	int64_t b[TRIM_NDIMS];
	ck_assert_int_eq(trim_workloads_intra_bounds(ws, 0, b, TRIM_NDIMS), 0);
	ck_assert_int_eq(trim_mapping_set_temporal(m, 0, s, b[s]), 0);
	ck_assert_int_eq(trim_mapping_set_spatial(m, 2, s, 1, 1), 0);
	ck_assert_int_eq(b[d] % 4, 0);
	ck_assert_int_eq(trim_mapping_set_temporal(m, 0, d, b[d] / 4), 0);
	ck_assert_int_eq(trim_mapping_set_spatial(m, 2, d, 2, 2), 0);
	ck_assert_msg(trim_mapping_dump_timeloop(m, ws, 0, arch, &tl) == 0, "%s", trim_last_error());
	ck_assert_ptr_nonnull(strstr(tl, "splits a dim over X and Y"));
	ck_assert_ptr_nonnull(strstr(tl, "  - target: \"PE array\"\n    type: spatial\n"));
	trim_mapping *back = NULL;
	ck_assert_msg(trim_mapping_load_string(&back, arch, tl, "xy.yaml") == 0, "%s", trim_last_error());
	for (int k = 0; k < TRIM_NDIMS; k++) {
		ck_assert_int_eq(back->fx[2][k], m->fx[2][k]);
		ck_assert_int_eq(back->fy[2][k], m->fy[2][k]);
		ck_assert_int_eq(back->f[2][k], m->f[2][k]);
	}
	trim_mapping_free(back);
	trim_string_free(tl);
	tl = NULL;
	/* an invalid mapping is not exported */
	ck_assert_int_eq(trim_mapping_set_spatial(m, 2, d, 4, 1), 0);
	ck_assert_int_eq(trim_mapping_set_temporal(m, 0, d, b[d] / 2), 0);
	EXPECT_ERR(trim_mapping_dump_timeloop(m, ws, 0, arch, &tl), TRIM_ESHAPE, "multiply to");
	ck_assert_ptr_null(tl);
	trim_mapping_free(m);
	trim_workloads_free(ws);
	trim_network_free(net);
	trim_arch_free(arch);
}
END_TEST

/* The CLI: trim eval --export-timeloop FILE writes what trim eval reads back
 * with the same report; trim map --format timeloop prints the best mapping. */
START_TEST(test_timeloop_export_cli)
{
	int st = 0;
	char args[1024], path[64];
	snprintf(path, sizeof path, "/tmp/trim-tl-export-%d.yaml", (int)getpid());
	const char *base = "eval models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1";
	snprintf(args, sizeof args, "%s --mapping test/data/mapping/eyeriss-conv1.yaml --export-timeloop %s", base, path);
	char *a = tu_capture(args, 0, &st);
	ck_assert_msg(st == 0, "%s", a);
	snprintf(args, sizeof args, "%s --mapping %s", base, path);
	char *b = tu_capture(args, 0, &st);
	ck_assert_msg(st == 0, "%s", b);
	ck_assert_str_eq(a, b);
	remove(path);
	free(a);
	free(b);
	/* a directory that does not exist: exit 2, no report claimed */
	snprintf(args, sizeof args, "%s --mapping test/data/mapping/eyeriss-conv1.yaml --export-timeloop /nonexistent/x.yaml", base);
	a = tu_capture(args, 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_ptr_nonnull(strstr(a, "/nonexistent/x.yaml"));
	free(a);
	a = tu_capture("map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 "
	               "--constraints models/constraints/timeloop-eyeriss-rs.yaml --format timeloop", 0, &st);
	ck_assert_msg(st == 0, "%s", a);
	ck_assert_ptr_nonnull(strstr(a, "problem:\n  shape:\n"));
	ck_assert_ptr_nonnull(strstr(a, "mapping:\n  - target: \"DRAM\""));
	/* and trim eval takes it back */
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(a, f);
	fclose(f);
	snprintf(args, sizeof args, "%s --mapping %s", base, path);
	b = tu_capture(args, 0, &st);
	ck_assert_msg(st == 0, "%s", b);
	remove(path);
	free(a);
	free(b);
}
END_TEST

/* The numbers docs/mapping.md quotes for the counting differences from
 * Timeloop (test/data/timeloop-diff): the activity of two small mappings. */
static void diff_activity(const char *layer, const char *mapfile, trim__activity *act)
{
	trim_network *net = NULL;
	trim_workloads *ws = NULL;
	trim_arch *arch = NULL;
	trim_mapping *m = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "test/data/timeloop-diff/net.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&ws, net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_int_eq(trim_arch_load(&arch, "test/data/timeloop-diff/arch.yaml"), 0);
	ck_assert_int_eq(trim_workloads_find(ws, layer, TRIM_PHASE_FW, &i), 0);
	ck_assert_msg(trim_mapping_load(&m, arch, mapfile) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_mapping_check(m, ws, i, arch) == 0, "%s", trim_last_error());
	trim__act_ws aws;
	memset(&aws, 0, sizeof aws);
	ck_assert_msg(trim__activity_compute(trim__workloads_intra(ws, i), arch, m, &aws, act) == 0, "%s",
	              trim_last_error());
	trim__act_ws_free(&aws);
	trim_mapping_free(m);
	trim_arch_free(arch);
	trim_workloads_free(ws);
	trim_network_free(net);
}

START_TEST(test_timeloop_differences)
{
	enum { G = 1, PE = 2, R = 3 };
	trim__activity a;
	/* 1. the diagonals of row stationary within one fan-out: 72 deliveries, 36
	 * distinct words read from the GLB (Timeloop multicasts them too, as measured
	 * with timeloop-model by the reporter of #36: docs/mapping.md) */
	diff_activity("conv", "test/data/timeloop-diff/conv-rs.yaml", &a);
	ck_assert_int_eq(a.down_dests[PE][0], 72);
	ck_assert_int_eq(a.down_words[PE][0], 36);
	ck_assert_int_eq(a.reads[G][0], 36);
	ck_assert_int_eq(a.mcast[PE][0], 24);
	ck_assert_int_eq(a.unicast[PE][0], 12);
	ck_assert_int_eq(a.fills[R][0], 72);
	/* weights: multicast over E by both tools */
	ck_assert_int_eq(a.reads[G][1], 9);
	ck_assert_int_eq(a.down_dests[PE][1], 36);
	/* 2. and 3. read-backs into one sibling and drains, under a reduction over 4 rows */
	diff_activity("fc", "test/data/timeloop-diff/fc-reduce.yaml", &a);
	ck_assert_int_eq(a.reads[G][2], 12);   /* Timeloop: 12 x 4 siblings = 48 */
	ck_assert_int_eq(a.fills[R][2], 12);
	ck_assert_int_eq(a.drains[R][2], 64);  /* Timeloop: not counted */
	ck_assert_int_eq(a.drains[G][2], 4);
	ck_assert_int_eq(a.up_words[PE][2], 64);
	ck_assert_int_eq(a.up_out[PE][2], 16);
	ck_assert_int_eq(a.reductions[PE][2], 48);
	ck_assert_int_eq(a.updates[G][2], 16);
}
END_TEST

/* Timeloop's own Eyeriss-like design, architecture (version 0.4), ERT and
 * mapping unchanged (test/data/timeloop-v4/README.md has the source and
 * Timeloop's figures): the same cycles, the counts both tools count the same
 * way equal, the energy within 2% (the rest is docs/mapping.md's rules: drains,
 * multicast of sliding windows across columns). */
START_TEST(test_timeloop_v4_eyeriss)
{
	const char *D = "test/data/timeloop-v4/";
	char p[256];
	trim_network *net = NULL;
	trim_workloads *ws = NULL;
	trim_arch *arch = NULL;
	trim_energy *ert = NULL;
	trim_mapping *m = NULL;
	trim_eval *e = NULL;
	size_t i = 0;
	snprintf(p, sizeof p, "%snet.yaml", D);
	ck_assert_int_eq(trim_network_load(&net, p), 0);
	ck_assert_int_eq(trim_workloads_create(&ws, net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_int_eq(trim_workloads_find(ws, "conv", TRIM_PHASE_FW, &i), 0);
	snprintf(p, sizeof p, "%sarch.yaml", D);
	ck_assert_msg(trim_arch_load(&arch, p) == 0, "%s", trim_last_error());
	snprintf(p, sizeof p, "%sERT.yaml", D);
	ck_assert_msg(trim_energy_load(&ert, p) == 0, "%s", trim_last_error());
	snprintf(p, sizeof p, "%smap.yaml", D);
	ck_assert_msg(trim_mapping_load(&m, arch, p) == 0, "%s", trim_last_error());
	ck_assert_msg(trim_eval_mapping(&e, ws, i, arch, ert, m) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_eval_macs(e), 10838016);
	ck_assert_double_eq(trim_eval_cycles(e), 86016);
	double tl_pj = 59.28e6, pj = trim_eval_energy_pj(e);
	ck_assert_msg(fabs(pj / tl_pj - 1) < 0.02, "energy %.6g pJ, Timeloop %.6g", pj, tl_pj);
	trim__activity a;
	trim__act_ws aws;
	memset(&aws, 0, sizeof aws);
	ck_assert(trim__activity_compute(trim__workloads_intra(ws, i), arch, m, &aws, &a) == 0);
	trim__act_ws_free(&aws);
	enum { DRAM = 0, GLB = 1, IF = 4, WT = 5, PS = 6 };
	ck_assert_int_eq(a.reads[DRAM][1], 13824);
	ck_assert_int_eq(a.updates[DRAM][2], 401408);
	ck_assert_int_eq(a.updates[GLB][2], 401408);
	ck_assert_int_eq(a.reads[IF][0], 86016 * 126);
	ck_assert_int_eq(a.fills[IF][0], 10752 * 126);
	ck_assert_int_eq(a.reads[WT][1], 86016 * 126);
	ck_assert_int_eq(a.fills[WT][1], 1536 * 126);
	ck_assert_int_eq(a.reads[PS][2], 57344 * 126);
	ck_assert_int_eq(a.updates[PS][2], 86016 * 126);
	/* the two differences (docs/mapping.md): windows overlapping across the 14
	 * columns read once (Timeloop 1,354,752), drains of the partial sums */
	ck_assert_int_eq(a.reads[GLB][0], 935424);
	ck_assert_int_eq(a.drains[PS][2], 3612672);
	/* Timeloop's energy rebuilt from these counts with Timeloop's rule in
	 * place of libtrim's wherever they differ (docs/mapping.md, "Differences
	 * from Timeloop's counting", each measured here): every component lands on
	 * Timeloop's fJ/compute to its 2 printed decimals. ERT action energies per
	 * block (DRAM, GLB: 8 words; ifmap and weights spads: 2; psum_spad: 1). */
	const double C = 86016, N = 10838016, used = (double)a.instances[PS];
	ck_assert_int_eq(a.instances[PS], 126);
	ck_assert_int_eq(a.tile[GLB][0], 9831);
	/* rule 1/5: no multicast of inputs at all (the columns' tiles are not
	 * identical, the PEs' in a column disjoint): GLB reads = the spads' fills */
	const double tl_glb_in = (double)a.fills[IF][0];
	/* rule 4: no window saving between DRAM steps: 16 (P8 x Q2) whole tiles */
	const double tl_dram_in = 16.0 * (double)a.tile[GLB][0];
	/* rule 3: no drains charged (psum_spad's nor the GLB's); rule 6: leakage
	 * over the used instances only, none for the MACs */
	const double tl_fj[6] = {
		N * 0.207692,
		(double)a.reads[PS][2] * 0.2513 + (double)a.updates[PS][2] * 0.2191 + used * C * 0.000134,
		((double)a.reads[WT][1] * 1.976602 + (double)a.fills[WT][1] * 1.881657) / 2 + used * C * 0.001592,
		((double)a.reads[IF][0] * 0.202442 + (double)a.fills[IF][0] * 0.176713) / 2 + used * C * 0.000101,
		(tl_glb_in * 18.183829 + (tl_dram_in + (double)a.updates[GLB][2]) * 14.137929) / 8 + C * 0.005652,
		(tl_dram_in + (double)a.reads[DRAM][1] + (double)a.updates[DRAM][2]) * 512.0 / 8,
	};
	const double tl_printed[6] = {207.69, 386.77, 1006.69, 112.37, 375.27, 3380.86};
	double tl_sum = 0;
	for (int k = 0; k < 6; k++) {
		double fj = tl_fj[k] / N * 1000;
		ck_assert_msg(fabs(fj - tl_printed[k]) < 0.006, "component %d: %.4f fJ/compute, Timeloop %.2f", k, fj,
		              tl_printed[k]);
		tl_sum += tl_fj[k];
	}
	ck_assert_msg(fabs(tl_sum / tl_pj - 1) < 1e-4, "rebuilt %.7g pJ, Timeloop %.7g", tl_sum, tl_pj);
	/* a container's directives say nothing, or are refused */
	trim_mapping *bad = NULL;
	ck_assert_int_eq(trim_mapping_load_string(&bad, arch,
	                                          "mapping:\n  - {target: inter_PE_spatial, type: temporal, factors: C3}\n",
	                                          "tl-map.yaml"),
	                 TRIM_ESCHEMA);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "only factors of 1"));
	ck_assert_int_eq(trim_mapping_load_string(&bad, arch,
	                                          "mapping:\n  - {target: inter_PE_spatial, type: datatype, keep: [Inputs]}\n",
	                                          "tl-map.yaml"),
	                 TRIM_ESCHEMA);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "tl-map.yaml:2:"));
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "not a storage level: it keeps nothing"));
	trim_eval_free(e);
	trim_mapping_free(m);
	trim_energy_free(ert);
	trim_arch_free(arch);
	trim_workloads_free(ws);
	trim_network_free(net);
}
END_TEST

Suite *mapping_suite(void)
{
	Suite *s = suite_create("mapping");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_timeloop_v4_eyeriss);
	tcase_add_test(tc, test_public_setters);
	tcase_add_test(tc, test_loopnest_fig6);
	tcase_add_test(tc, test_yaml_roundtrip);
	tcase_add_test(tc, test_yaml_errors);
	tcase_add_test(tc, test_timeloop_format);
	tcase_add_test(tc, test_factor_ranges);
	tcase_add_test(tc, test_rows_over_fanout);
	tcase_add_test(tc, test_check_locations);
	tcase_add_test(tc, test_timeloop_mapper_output);
	tcase_add_test(tc, test_timeloop_export_roundtrip);
	tcase_add_test(tc, test_timeloop_export_cli);
	tcase_add_test(tc, test_timeloop_differences);
	suite_add_tcase(s, tc);
	return s;
}
