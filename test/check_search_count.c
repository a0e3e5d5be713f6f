/*
 * The search under Timeloop's counting rules (--count timeloop) and on
 * levels that hold nothing (keep: []): brute force and the rule of
 * lib/search/hold_nothing.c on every raw mapping.
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

/* Timeloop's counting (TRIM_COUNT_TIMELOOP, docs/mapping.md rules 1, 3-6:
 * an operand shared per fan-out by identical tiles only, its windows along
 * the innermost loop only, no drain charged, leakage on the used instances
 * of a storage level, none for the MACs): every node bound, tensor part and tie test holds against
 * the costs so charged, and the search finds brute force's (cost, second
 * figure, index) and top 5 at 1, 2 and 3 threads (brute_vs_search). The
 * cases have partial sums drained at every level and fewer PEs used than
 * the array has (tu_costs: every level but DRAM leaks). */
static void case_hold_conv(struct trim_arch *a, trim__intra *w);

/* Timeloop's rules 1, 4 and 5 (an operand's identical tiles per fan-out, its
 * windows along the innermost loop): columns, a level keeping nothing, rows
 * (both multicasting and reducing), a convolution whose inputs slide (E =
 * 4, R = 2) and whose diagonals e + r are identical. */
static void case_tl_rows(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "tl-rows");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	tu_spatial(a, "Cols", 2, 1, 1, 1);
	trim__level *h = tu_storage(a, "Hold", 16, 16);
	h->keep[0] = h->keep[1] = h->keep[2] = 0;
	tu_spatial(a, "Rows", 2, 1, 1, 1);
	tu_storage(a, "RF", 12, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 5, 1, 2, 1, 1, 1, 0), 0);
}

/* Mappings of case_tl_rows whose operand reads (rules 1, 5) and fills
 * (rule 4) Timeloop's counting changes: the space exercises both. */
static void tl_rows_changed(uint64_t *reads, uint64_t *fills)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__act_ws ws = {0};
	case_tl_rows(&a, &w);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	*reads = *fills = 0;
	for (uint64_t i = 0; i < s.size; i++) {
		trim__mapping m;
		trim__activity x, y;
		ck_assert_int_eq(trim__mapspace_decode(&s, i, &m), 0);
		if (trim__mapping_check(&m, &w, &a))
			continue;
		ws.count = TRIM_COUNT_LIBTRIM;
		ck_assert_int_eq(trim__activity_compute(&w, &a, &m, &ws, &x), 0);
		ws.count = TRIM_COUNT_TIMELOOP;
		ck_assert_int_eq(trim__activity_compute(&w, &a, &m, &ws, &y), 0);
		int r = 0, f = 0;
		for (int l = 0; l < a.nlevels; l++)
			for (int t = 0; t < 2; t++) {
				r |= y.reads[l][t] != x.reads[l][t];
				f |= y.fills[l][t] != x.fills[l][t];
			}
		*reads += r;
		*fills += f;
	}
	trim__act_ws_free(&ws);
	trim__mapspace_free(&s);
}

START_TEST(test_search_count_timeloop)
{
	uint64_t changed_reads, changed_fills;
	tl_rows_changed(&changed_reads, &changed_fills);
	ck_assert_uint_gt(changed_reads, 0);
	ck_assert_uint_gt(changed_fills, 0);
	fprintf(stderr, "search count: case_tl_rows, %llu mappings whose reads and %llu whose fills Timeloop's rules change\n",
	        (unsigned long long)changed_reads, (unsigned long long)changed_fills);
	g_count = TRIM_COUNT_TIMELOOP;
	brute_vs_search(case_fc, TRIM__GOAL_ENERGY);
	brute_vs_search(case_conv, TRIM__GOAL_ENERGY);
	brute_vs_search(case_conv, TRIM__GOAL_EDP);
	brute_vs_search(case_hold_conv, TRIM__GOAL_ENERGY);
	brute_vs_search(case_tl_rows, TRIM__GOAL_ENERGY);
	brute_vs_search(case_tl_rows, TRIM__GOAL_DELAY);
	/* leakage that outweighs the accesses: the node bounds before the
	 * spatial factors are known take one used instance per storage level */
	g_leak_scale = 1000;
	brute_vs_search(case_fc, TRIM__GOAL_ENERGY);
	brute_vs_search(case_conv, TRIM__GOAL_EDP);
	g_leak_scale = 0;
	g_count = TRIM_COUNT_LIBTRIM;
}
END_TEST

/* A level that holds nothing (keep: [], AccelForge's always-bypassed
 * LocalBuffer, Timeloop's DummyBuffer) right below the GLB: an FC layer on
 * DRAM -> GLB -> Hold -> NoC 2x1 -> RF (weights, partial sums) -> MAC, and a convolution (a sliding
 * window: E = 4, R = 2) on DRAM -> Hold -> NoC 2x1 -> RF -> MAC. */
static void case_hold_fc(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "hold-fc");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 1;
	trim__level *g = tu_storage(a, "GLB", 24, 16);
	g->read_bw = g->write_bw = 2;
	trim__level *h = tu_storage(a, "Hold", 16, 16);
	h->keep[0] = h->keep[1] = h->keep[2] = 0;
	tu_spatial(a, "NoC", 2, 1, 1, 0);
	tu_storage(a, "RF", 6, 16)->keep[0] = 0; /* inputs stream past (a smaller space) */
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_FC, TRIM_PHASE_FW, 1, 2, 4, 1, 1, 1, 1, 1, 1, 1, 0), 0);
}

static void case_hold_conv(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "hold-conv");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	trim__level *h = tu_storage(a, "Hold", 16, 16);
	h->keep[0] = h->keep[1] = h->keep[2] = 0;
	tu_spatial(a, "NoC", 2, 1, 1, 1);
	tu_storage(a, "RF", 12, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 5, 1, 2, 1, 1, 1, 0), 0);
}

/* The TPU-like shape, where the rule also cuts split dims: below Hold only
 * weights may be held (RF: weights), so every tensor held below it is an
 * operand without a window; a convolution (E = 4, R = 2: the inputs
 * slide, but go from the GLB straight to the MACs). */
static void case_hold_ws(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "hold-ws");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	trim__level *g = tu_storage(a, "GLB", 32, 16);
	g->read_bw = g->write_bw = 1;
	trim__level *h = tu_storage(a, "Hold", 16, 16);
	h->keep[0] = h->keep[1] = h->keep[2] = 0;
	tu_spatial(a, "NoC", 2, 1, 1, 1);
	trim__level *r = tu_storage(a, "RF", 4, 16);
	r->keep[0] = r->keep[2] = 0;
	r->read_bw = 1;
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, TU_CONV, TRIM_PHASE_FW, 1, 1, 1, 1, 5, 1, 2, 1, 1, 1, 0), 0);
}

/* The rule of hold_nothing.c, on every raw mapping of both spaces: a
 * mapping whose level above Hold (up) has loops on dims Hold has none on
 * has exactly the activities and costs of the mapping with those loops
 * moved outermost into Hold, whose index is smaller; the search cuts the
 * first (as exact ties), and finds brute force's (cost, index) with 1, 2
 * and 3 threads, for the best and the top 5 (brute_vs_search). */
static void hold_nothing_moves(void (*mk)(struct trim_arch *, trim__intra *), int hold)
{
	struct trim_arch a;
	trim__intra w;
	trim__mapspace s;
	trim__level_cost c[TRIM__MAX_LEVELS];
	trim__eval_ws ws = {0};
	mk(&a, &w);
	tu_costs(&a, c);
	ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
	const int up = hold - 1;
	uint64_t moved = 0, split = 0, dominated = 0, dominated_lower = 0;
	for (uint64_t i = 0; i < s.size; i++) {
		trim__mapping m, mv;
		trim__eval e, ev;
		ck_assert_int_eq(trim__mapspace_decode(&s, i, &m), 0);
		unsigned above = 0, here = 0;
		for (int d = 0; d < TRIM_NDIMS; d++) {
			above |= (unsigned)(m.f[up][d] > 1) << d;
			here |= (unsigned)(m.f[hold][d] > 1) << d;
		}
		split += (above & here) != 0;
		if (above & here) {
			if (!trim__hold_nothing_dominated(&s, hold) || trim__mapping_check(&m, &w, &a) != 0)
				continue;
			/* dominated: the split dims' upper loops merged into Hold's
			 * refill nothing more often: no count rises, nor the costs,
			 * and the index falls */
			mv = m;
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (above & here & 1u << d) {
					mv.f[hold][d] *= mv.f[up][d];
					mv.f[up][d] = 1;
				}
			ck_assert_int_eq(trim__mapping_check(&mv, &w, &a), 0);
			ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
			ck_assert_int_eq(trim__eval_run(&w, &a, c, &mv, &ws, &ev), 0);
			for (int j = 0; j < TRIM__NACTIVITY_ROWS; j++) {
				int64_t (*x)[3] = trim__activity_rows(&e.act, j), (*y)[3] = trim__activity_rows(&ev.act, j);
				for (int l = 0; l < a.nlevels; l++)
					for (int t = 0; t < 3; t++)
						ck_assert_msg(y[l][t] <= x[l][t], "index %llu: row %d level %d tensor %d rose %lld -> %lld",
						              (unsigned long long)i, j, l, t, (long long)x[l][t], (long long)y[l][t]);
			}
			ck_assert(ev.energy_pj <= e.energy_pj && ev.cycles <= e.cycles);
			dominated_lower += ev.energy_pj < e.energy_pj;
			trim__index iv;
			ck_assert_int_eq(trim__mapspace_encode(&s, &mv, &iv), 0);
			ck_assert(iv < (trim__index)i);
			dominated++;
			continue;
		}
		if (!above || trim__mapping_check(&m, &w, &a) != 0)
			continue;
		/* the same nest: up's loops, then Hold's, all in Hold */
		mv = m;
		int n = 0;
		for (int pass = 0; pass < 3; pass++)
			for (int j = 0; j < TRIM_NDIMS; j++) {
				const int d = pass == 2 ? j : m.order[pass ? hold : up][j];
				const int64_t f = pass == 2 ? 1 : m.f[pass ? hold : up][d];
				if (pass == 2 ? mv.f[up][d] * mv.f[hold][d] == 1 : f > 1)
					mv.order[hold][n++] = d;
			}
		ck_assert_int_eq(n, TRIM_NDIMS);
		for (int d = 0; d < TRIM_NDIMS; d++) {
			mv.f[hold][d] *= mv.f[up][d];
			mv.f[up][d] = 1;
		}
		ck_assert_int_eq(trim__mapping_check(&mv, &w, &a), 0);
		ck_assert_int_eq(trim__eval_run(&w, &a, c, &m, &ws, &e), 0);
		ck_assert_int_eq(trim__eval_run(&w, &a, c, &mv, &ws, &ev), 0);
		ck_assert_msg(!memcmp(&e.act, &ev.act, sizeof e.act), "index %llu: moving the loops into %s changed the counts",
		              (unsigned long long)i, a.lv[hold].name);
		ck_assert(e.energy_pj == ev.energy_pj && e.cycles == ev.cycles);
		trim__index iv;
		ck_assert_int_eq(trim__mapspace_encode(&s, &mv, &iv), 0);
		ck_assert_msg(iv < (trim__index)i, "index %llu: the moved mapping's index is not smaller", (unsigned long long)i);
		moved++;
	}
	ck_assert_uint_gt(moved, 0);
	ck_assert_uint_gt(split, 0); /* loops on one dim above and in Hold */
	if (trim__hold_nothing_dominated(&s, hold)) /* split dims cut too: some strictly dearer */
		ck_assert(dominated > 0 && dominated_lower > 0);
	/* the search cuts the moved ones as ties (the best alone), only them:
	 * with the rule off (the top k) no tie is cut in these spaces */
	trim__search_result r;
	s.topk = 1;
	ck_assert_int_eq(trim__hold_nothing_parent(&s, hold), up);
	ck_assert_int_eq(trim__search(&s, c, TRIM__GOAL_ENERGY, 1, &r), 0);
	ck_assert_uint_gt(r.tie_nodes, 0);
	trim__search_result_free(&r);
	/* not for the top k, nor under a pin at either level */
	s.topk = 2;
	ck_assert_int_eq(trim__hold_nothing_parent(&s, hold), -1);
	s.topk = 1;
	ck_assert_int_eq(trim__mapspace_pin(&s, hold, TRIM_DIM_M, 1), 0);
	ck_assert_int_eq(trim__hold_nothing_parent(&s, hold), -1);
	trim__eval_ws_free(&ws);
	trim__mapspace_free(&s);
}

/* The "index" and "energy_pj" of the best of `trim map ... --format json`. */
static void cli_best(const char *args, char *out, size_t n)
{
	int st = -1;
	char *j = tu_capture(args, 0, &st);
	ck_assert_int_eq(st, 0);
	const char *best = strstr(j, "\"best\": {");
	ck_assert_ptr_nonnull(best);
	const char *e = strstr(best, "\"energy_pj\": "), *i = strstr(best, "\"index\": ");
	ck_assert(e && i);
	snprintf(out, n, "%.30s | %.30s", i, e);
	free(j);
}

START_TEST(test_hold_nothing)
{
	/* end to end on the TPU-like array with its bypassed LocalBuffer: the
	 * best alone (the rule on) is the top 2's first (the rule off) */
	char k1[80], k2[80];
#define HOLD_MAP "map models/networks/gpt2-small.yaml test/data/arch/tpu-like-keepnone.yaml --layer h.0.attn.context " \
	"--phase FW --quiet --format json --threads 2"
	cli_best(HOLD_MAP, k1, sizeof k1);
	cli_best(HOLD_MAP " --top 2", k2, sizeof k2);
#undef HOLD_MAP
	ck_assert_str_eq(k1, k2);
	hold_nothing_moves(case_hold_fc, 2);
	hold_nothing_moves(case_hold_conv, 1);
	hold_nothing_moves(case_hold_ws, 2);
	{ /* which spaces the split rule covers: not with the result or a sliding
	   * window held below Hold */
		struct trim_arch a;
		trim__intra w;
		trim__mapspace s;
		void (*const mk[])(struct trim_arch *, trim__intra *) = {case_hold_fc, case_hold_conv, case_hold_ws};
		const int hold[] = {2, 1, 2}, want[] = {0, 0, 1};
		for (int k = 0; k < 3; k++) {
			mk[k](&a, &w);
			ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
			ck_assert_int_eq(trim__hold_nothing_dominated(&s, hold[k]), want[k]);
			trim__mapspace_free(&s);
		}
	}
	brute_vs_search(case_hold_fc, TRIM__GOAL_ENERGY);
	brute_vs_search(case_hold_conv, TRIM__GOAL_EDP);
	brute_vs_search(case_hold_ws, TRIM__GOAL_EDP);
}
END_TEST

Suite *search_count_suite(void)
{
	Suite *s = suite_create("search_count");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(tc, test_hold_nothing);
	suite_add_tcase(s, tc);
	/* Timeloop's counting rules (CK_RUN_CASE=count runs them alone) */
	TCase *count = tcase_create("count");
	tcase_set_timeout(count, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(count, test_search_count_timeloop);
	suite_add_tcase(s, count);
	return s;
}
