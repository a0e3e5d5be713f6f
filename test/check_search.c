/*
 * The mapspace index: index round trips, the order
 * equivalence the search relies on, the fast paths over a dim's rows and
 * the spatial split against their slow forms. The search against brute
 * force over the raw space: check_search_brute.c (its harness
 * search_brute.c), Timeloop's counting and levels holding nothing:
 * check_search_count.c, systolic arrays: check_search_systolic.c, stopped
 * searches and the cut rule: check_search_stop.c, `trim map` and indices
 * past 2^64: check_search_cli.c; the bounds on real layers against their slow forms:
 * check_search_bounds.c.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "constraints/constraints_int.h"
#include "energy/energy_int.h"
#include "search/mapspace_int.h"
#include "workload/workload_int.h"
#include "search/search_int.h"
#include "search/share.h"
#include "trim/search.h"
#include "tcase_util.h"
#include "search_brute.h"

START_TEST(test_index_roundtrip)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__mapping m, c;
	case_fc(&a, &w);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	/* 4 slots: M = 4 has 10 ordered factorisations, C = 2 has 4; 6 keep bits;
	 * 2 dims > 1 -> 2 orders at each of the 2 storage levels with a level
	 * below that may hold a tensor (the innermost level's order is fixed) */
	ck_assert_uint_eq(s.nfact, 40);
	ck_assert_int_eq(s.nbyp, 6);
	ck_assert_int_eq(s.nord, 2);
	ck_assert_uint_eq(s.size, 40ull * 64 * 4);
	for (uint64_t i = 0; i < s.size; i++) {
		trim__index j = ~(trim__index)0;
		REQUIRE(trim__mapspace_decode(&s, i, &m) == 0, "decode %llu", (unsigned long long)i);
		REQUIRE(trim__mapspace_encode(&s, &m, &j) == 0, "encode %llu", (unsigned long long)i);
		REQUIRE(i == j, "index %llu encodes back to %llu", (unsigned long long)i, (unsigned long long)j);
		c = m;
		trim__mapspace_canonical(&s, &c);
		trim__mapping d = c;
		trim__mapspace_canonical(&s, &d);
		REQUIRE(!memcmp(&c, &d, sizeof c), "canonical form of %llu is not idempotent", (unsigned long long)i);
	}
	ck_assert_int_eq(trim__mapspace_decode(&s, s.size, &m), TRIM_ERANGE);
	trim__mapspace_free(&s);
}
END_TEST

/* The number of order classes counted from the loops up to where every
 * signature ends (trim__order_class_count, what trim__mapspace_distinct
 * multiplies) equals the class table's, built over every order: every
 * ordered level, every set of the layer's dims and every set of tensors
 * with a holder below, on convolutions (FW, BW, WG), depthwise, FC and
 * pools, without and with permutation constraints (some dims innermost). */
START_TEST(test_order_class_count)
{
	int tables = 0, big = 0, constrained = 0;
	for (int it = 0; it < 24; it++) {
		struct trim_arch a;
		trim__intra w;
		const int kind = it % 5, phase = it / 5 % 3;
		if (tu_layer(&w, kind, phase, 2, 4, 6, kind == TU_CONV ? 2 : 1, 5, 4, kind == TU_FC ? 1 : 3,
		             kind == TU_FC ? 1 : 2, 1 + it % 2, 1, it % 2))
			continue;
		tu_arch_init(&a, "counts");
		tu_storage(&a, "DRAM", 0, 16);
		tu_storage(&a, "GLB", 0, 16);
		tu_spatial(&a, "NoC", 4, 4, 1, 1);
		tu_storage(&a, "L1", 0, 16);
		tu_storage(&a, "RF", 0, 16);
		tu_compute(&a, "MAC");
		tu_arch_finish(&a);
		trim__mapspace s;
		const int rc = trim__mapspace_init(&s, &w, &a);
		if (rc == TRIM_ERANGE)
			continue;
		ck_assert_int_eq(rc, 0);
		if (it % 3) { /* a permutation constraint at an ordered level: two or three dims innermost */
			const int l = s.ord_level[it % s.nord];
			s.ncperm[l] = 2 + it % 2;
			for (int i = 0; i < s.ncperm[l]; i++)
				s.cperm[l][i] = (int8_t)((it + 3 * i) % TRIM_NDIMS);
			constrained++;
		}
		unsigned dims = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (w.bound[d] > 1)
				dims |= 1u << d;
		order_class_cache cache;
		ck_assert_int_eq(trim__order_class_cache_init(&cache, &s), 0);
		for (int k = 0; k < s.nord; k++)
			for (unsigned mask = 0; mask < 256; mask++) {
				if (mask & ~dims)
					continue;
				for (unsigned hb = 0; hb < 8; hb++) {
					const order_class_table *tb = trim__order_class_cache_get(&cache, &s, k, mask, hb);
					ck_assert_ptr_nonnull(tb);
					const int64_t n = trim__order_class_count(&s, k, mask, hb);
					REQUIRE(n == tb->n, "case %d level %d dims %#x tensors %#x: counted %lld, table %d", it, k, mask, hb,
					        (long long)n, tb->n);
					tables++;
					big += tb->k >= 6;
				}
			}
		trim__order_class_cache_free(&cache);
		trim__mapspace_free(&s);
	}
	ck_assert_int_gt(tables, 10000);
	ck_assert_int_gt(big, 500);
	ck_assert_int_gt(constrained, 10);
}
END_TEST

/* The order classes: on random layers (conv, depthwise, FC, pools; FW, BW,
 * WG; strides, dilation, padding) and random mappings (factors over
 * DRAM -> GLB -> NoC -> L1 -> RF, bypass, every order), the class
 * representative has exactly the activities of the mapping, and an order
 * code no larger than the mapping's own (dims of bound 1 placed
 * canonically). Also counts how often the representative differs from the
 * mapping's order beyond the old rule (the new classes do merge orders). */
START_TEST(test_order_classes)
{
	uint64_t st = 0x5eed0c1a55e5ull;
	trim__act_ws ws = {0};
	int merged = 0, done = 0, big = 0;
	for (int it = 0; it < 3000; it++) {
		struct trim_arch a;
		trim__intra w;
		int kind = (int)tu_range(&st, 0, 4), phase = (int)tu_range(&st, 0, 2);
		int64_t r = tu_range(&st, 1, 3), u = tu_range(&st, 1, 2), dil = tu_range(&st, 1, 2),
		        pad = tu_range(&st, 0, 1), ih = tu_range(&st, 3, 6), iw = tu_range(&st, 2, 5);
		if (kind == TU_FC)
			ih = iw = r = 1;
		if (tu_layer(&w, kind, phase, tu_range(&st, 1, 2), 2 * tu_range(&st, 1, 2), 2 * tu_range(&st, 1, 3),
		             kind == TU_CONV ? tu_range(&st, 1, 2) : 1, ih, iw, r, kind == TU_FC ? 1 : tu_range(&st, 1, 2),
		             u, dil, pad))
			continue;
		tu_arch_init(&a, "classes");
		tu_storage(&a, "DRAM", 0, 16);
		tu_storage(&a, "GLB", 0, 16);
		tu_spatial(&a, "NoC", 4, 4, (int)tu_range(&st, 0, 1), (int)tu_range(&st, 0, 1));
		tu_storage(&a, "L1", 0, 16);
		tu_storage(&a, "RF", 0, 16);
		tu_compute(&a, "MAC");
		tu_arch_finish(&a);
		trim__mapspace s;
		int rc = trim__mapspace_init(&s, &w, &a);
		if (rc == TRIM_ERANGE) { /* more than 2^64 raw mappings: no index */
			big++;
			continue;
		}
		ck_assert_int_eq(rc, 0);
		trim__mapping m, c, n;
		trim__mapping_init(&m, &a);
		for (int d = 0; d < TRIM_NDIMS; d++) {
			int64_t row = tu_range(&st, 0, s.nf[d] - 1);
			for (int i = 0; i < s.nslots; i++)
				m.f[s.slot[i]][d] = s.fact[d][row * s.nslots + i];
		}
		for (int i = 0; i < s.nslots; i++)
			for (int d = 0; d < TRIM_NDIMS; d++) {
				m.fx[s.slot[i]][d] = m.f[s.slot[i]][d];
				m.fy[s.slot[i]][d] = 1;
			}
		for (int j = 0; j < s.nbyp; j++)
			m.keep[s.byp_level[j]][s.byp_slot[j]] = tu_range(&st, 0, 2) > 0;
		for (int l = 0; l < a.nlevels; l++) { /* every storage level, in the index or not */
			if (a.lv[l].type != TRIM__LVL_STORAGE)
				continue;
			for (int i = 0; i < TRIM_NDIMS; i++)
				m.order[l][i] = i;
			for (int i = TRIM_NDIMS - 1; i > 0; i--) {
				int j = (int)tu_range(&st, 0, i), t = m.order[l][i];
				m.order[l][i] = m.order[l][j];
				m.order[l][j] = t;
			}
		}
		c = m;
		trim__mapspace_canonical(&s, &c);
		n = c;
		trim__mapspace_canonical(&s, &n);
		REQUIRE(!memcmp(&c, &n, sizeof c), "case %d: canonical form is not idempotent", it);
		/* the mapping with its own relative order (dims of bound 1 placed
		 * canonically): the representative's code is not larger */
		n = m;
		for (int k = 0; k < s.nord; k++) {
			int l = s.ord_level[k], o[TRIM_NDIMS], q = 0;
			for (int i = 0; i < TRIM_NDIMS; i++)
				if (m.f[l][m.order[l][i]] > 1)
					o[q++] = m.order[l][i];
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (m.f[l][d] == 1 && w.bound[d] > 1)
					o[q++] = d;
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (w.bound[d] == 1)
					o[q++] = d;
			memcpy(n.order[l], o, sizeof o);
		}
		/* order codes compare as the orders do, lexicographically */
		int cmp = 0;
		for (int k = 0; k < s.nord && !cmp; k++)
			for (int i = 0; i < TRIM_NDIMS && !cmp; i++)
				cmp = (c.order[s.ord_level[k]][i] > n.order[s.ord_level[k]][i]) -
				      (c.order[s.ord_level[k]][i] < n.order[s.ord_level[k]][i]);
		REQUIRE(cmp <= 0, "case %d: the representative's order code is above the member's", it);
		merged += cmp != 0;
		trim__activity x, y;
		memset(&x, 0, sizeof x);
		memset(&y, 0, sizeof y);
		int rx = trim__activity_compute(&w, &a, &m, &ws, &x), ry = trim__activity_compute(&w, &a, &c, &ws, &y);
		REQUIRE(rx == ry, "case %d: scope differs (%d, %d)", it, rx, ry);
		if (rx == 0) {
			done++;
			REQUIRE(!memcmp(&x, &y, sizeof x), "case %d (kind %d phase %d): the representative's activities differ",
			        it, kind, phase);
		}
		trim__mapspace_free(&s);
	}
	trim__act_ws_free(&ws);
	fprintf(stderr, "order classes: %d cases, %d evaluated, %d merged, %d without index\n", 3000, done, merged, big);
	ck_assert_int_gt(done, 1500);
	ck_assert_int_gt(merged, 150);
}
END_TEST

/* The slow obvious tree order: an insertion sort of the allowed rows by
 * their factors at the tree slots, in tree order (stable). */
static void tree_rows_slow(const trim__mapspace *s, int d, int64_t *r)
{
	for (int64_t i = 0; i < s->nrows[d]; i++) {
		int64_t v = s->rows[d][i], j = i;
		while (j > 0) {
			const int64_t *fu = s->fact[d] + r[j - 1] * s->nslots, *fv = s->fact[d] + v * s->nslots;
			int c = 0;
			for (int k = 0; k < s->nslots && !c; k++)
				c = (fu[s->tord[k]] > fv[s->tord[k]]) - (fu[s->tord[k]] < fv[s->tord[k]]);
			if (c <= 0)
				break;
			r[j] = r[j - 1];
			j--;
		}
		r[j] = v;
	}
}

/* The fast paths over a dim's rows against the slow obvious ones, on large
 * layers of a deep hierarchy (simba-like: eight slots), with imperfect rows
 * (E = 7 on a 6-wide axis) and a fully connected layer of thousands of rows:
 * the tree's sort of packed keys (and its merge sort, where the keys do not
 * fit 64 bits) gives the insertion sort's order, and every row of
 * every dim, perfect (binary search) or imperfect (scan), encodes back to
 * its own index. */
/* The ordered factorisations of b over slots [depth, k) in lexicographic
 * order, every value 1..b tried at each slot (the obvious enumeration the
 * mapspace's divisor lists replace); returns the new count. */
static int64_t factorisations_slow(int64_t b, int k, int depth, int64_t *row, int64_t *out, int64_t n)
{
	if (depth == k - 1) {
		row[depth] = b;
		memcpy(out + n * k, row, (size_t)k * sizeof *row);
		return n + 1;
	}
	for (int64_t d = 1; d <= b; d++)
		if (b % d == 0) {
			row[depth] = d;
			n = factorisations_slow(b / d, k, depth + 1, row, out, n);
		}
	return n;
}

START_TEST(test_rows_fast_paths)
{
	static const char *const layers[][2] = {{"layer4.0.conv2", "imperfect"}, {"fc", ""}};
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_network_load(&net, "models/networks/resnet50.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0), 0);
	ck_assert_int_eq(trim_arch_load(&a, "models/arch/simba-like.yaml"), 0);
	int64_t imperfect_rows = 0, rows = 0;
	for (size_t q = 0; q < 2; q++) {
		size_t i = 0;
		ck_assert_int_eq(trim_workloads_find(w, layers[q][0], TRIM_PHASE_FW, &i), 0);
		trim__mapspace s;
		ck_assert_int_eq(trim__mapspace_init(&s, trim__workloads_intra(w, i), a), 0);
		if (layers[q][1][0])
			ck_assert_int_eq(trim__mapspace_set_imperfect(&s, 1), 0);
		for (int d = 0; d < TRIM_NDIMS; d++) {
			/* the perfect rows: those of the obvious enumeration, in its order */
			int64_t row[TRIM__MAX_LEVELS], *all = malloc((size_t)(s.nperfect[d] * s.nslots) * sizeof *all);
			ck_assert_ptr_nonnull(all);
			ck_assert_int_eq(factorisations_slow(s.w->bound[d], s.nslots, 0, row, all, 0), s.nperfect[d]);
			ck_assert(!memcmp(all, s.fact[d], (size_t)(s.nperfect[d] * s.nslots) * sizeof *all));
			free(all);
			int64_t *fast = trim__tree_rows(&s, d), *slow = malloc((size_t)s.nrows[d] * sizeof *slow);
			ck_assert_ptr_nonnull(fast);
			ck_assert_ptr_nonnull(slow);
			tree_rows_slow(&s, d, slow);
			ck_assert_msg(!memcmp(fast, slow, (size_t)s.nrows[d] * sizeof *fast), "%s: dim %d: tree order differs",
			              layers[q][0], d);
			free(fast);
			free(slow);
			/* the index of row r of dim d, every other digit 0 */
			trim__index unit = 1;
			for (int e = d + 1; e < TRIM_NDIMS; e++)
				unit *= (trim__index)s.nf[e];
			unit <<= s.nbyp;
			for (int k = 0; k < s.nord; k++)
				unit *= (trim__index)s.nperm;
			for (int64_t r = 0; r < s.nf[d]; r++) {
				trim__mapping m;
				trim__index idx = unit * (trim__index)r, back = 0;
				REQUIRE(trim__mapspace_decode(&s, idx, &m) == 0, "decode row %lld", (long long)r);
				REQUIRE(trim__mapspace_encode(&s, &m, &back) == 0, "%s: dim %d row %lld: %s", layers[q][0], d,
				        (long long)r, trim_last_error());
				REQUIRE(back == idx, "%s: dim %d: row %lld encodes back to another row", layers[q][0], d,
				        (long long)r);
			}
			imperfect_rows += s.nf[d] - s.nperfect[d];
			rows += s.nf[d];
		}
		trim__mapspace_free(&s);
	}
	ck_assert_msg(imperfect_rows > 0 && rows > 10000, "%lld rows, %lld imperfect: the fast paths are not reached",
	              (long long)rows, (long long)imperfect_rows);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* The X/Y split of a spatial level's factors: trim__spatial_split tries
 * only the x whose X and Y parts can fit; the same first fit (or none) as
 * trying every x from 1 to the bound, on random fan-outs, axis pins and
 * bounds up to 4096. */
static int spatial_split_slow(const trim__level *L, const uint8_t *axis, const int64_t *f, int d, int64_t px,
                              int64_t py, int64_t *fx, int64_t *fy)
{
	if (d == TRIM_NDIMS)
		return 1;
	int64_t X = L->fanout_x > 0 ? L->fanout_x : 1, Y = L->fanout_y > 0 ? L->fanout_y : 1;
	for (int64_t x = 1; x <= f[d]; x++) {
		if (f[d] % x || (axis[d] == 1 && x != f[d]) || (axis[d] == 2 && x != 1))
			continue;
		int64_t y = f[d] / x;
		if (px * x > X || py * y > Y)
			continue;
		fx[d] = x;
		fy[d] = y;
		if (spatial_split_slow(L, axis, f, d + 1, px * x, py * y, fx, fy))
			return 1;
	}
	return 0;
}

START_TEST(test_spatial_split_fast)
{
	uint64_t st = 0x5b117ull;
	int fits = 0, misfits = 0;
	for (int it = 0; it < 20000; it++) {
		trim__level L;
		memset(&L, 0, sizeof L);
		L.fanout_x = (int)tu_range(&st, 1, 40);
		L.fanout_y = (int)tu_range(&st, 0, 3) ? (int)tu_range(&st, 1, 40) : 1;
		uint8_t axis[TRIM_NDIMS];
		int64_t f[TRIM_NDIMS], fx[TRIM_NDIMS], fy[TRIM_NDIMS], sx[TRIM_NDIMS], sy[TRIM_NDIMS];
		for (int d = 0; d < TRIM_NDIMS; d++) {
			axis[d] = (uint8_t)(tu_range(&st, 0, 5) < 4 ? 0 : tu_range(&st, 1, 2));
			const int64_t k = tu_range(&st, 0, 9);
			f[d] = k < 7 ? 1 : k < 9 ? tu_range(&st, 1, 12) : tu_range(&st, 1, 4096);
		}
		const int a = trim__spatial_split(&L, axis, f, 0, 1, 1, fx, fy), b = spatial_split_slow(&L, axis, f, 0, 1, 1, sx, sy);
		ck_assert_int_eq(a, b);
		if (a) {
			ck_assert(!memcmp(fx, sx, sizeof fx) && !memcmp(fy, sy, sizeof fy));
			fits++;
		} else {
			misfits++;
		}
	}
	ck_assert_int_gt(fits, 2000);
	ck_assert_int_gt(misfits, 2000);
}
END_TEST

Suite *search_suite(void)
{
	Suite *s = suite_create("search");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(tc, test_index_roundtrip);
	tcase_add_test(tc, test_order_classes);
	tcase_add_test(tc, test_order_class_count);
	tcase_add_test(tc, test_rows_fast_paths);
	tcase_add_test(tc, test_spatial_split_fast);
	suite_add_tcase(s, tc);
	return s;
}
