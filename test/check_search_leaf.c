/*
 * The leaf children's bounds (trim__leaf_children_bounds) against each
 * sibling's own bound, on a three-level hierarchy for every layer kind and
 * phase.
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
#include "search_fixture.h"

/* The layer kind and phase of case_siblings (set by the test that runs it). */
static int g_kind, g_phase;

/* A three-level hierarchy for the sibling bounds: DRAM -> GLB (small, so
 * the capacities bind) -> NoC 2x2 -> RF -> MAC, a conv with six dims > 1. */
static void case_siblings(struct trim_arch *a, trim__intra *w)
{
	tu_arch_init(a, "siblings");
	trim__level *d = tu_storage(a, "DRAM", 0, 16);
	d->read_bw = d->write_bw = 2;
	tu_storage(a, "GLB", 96, 16);
	tu_spatial(a, "NoC", 2, 2, 1, 1);
	tu_storage(a, "RF", 24, 16);
	tu_compute(a, "MAC");
	tu_arch_finish(a);
	ck_assert_int_eq(tu_layer(w, g_kind, g_phase, 2, 2, 2, 1, 4, 4, 3, 3, 1, 1, 1), 0);
}

/* The figures trim__leaf_children_bounds looked up; the children above the cut. */
static uint64_t looked_up(const search_worker *W)
{
	uint64_t k = 0;
	for (int t = 0; t < 3; t++)
		for (int64_t j = 0; W->leaf.memo[t] && j < W->leaf.ncomb[t]; j++)
			k += W->leaf_figures[W->leaf.off[t] + (size_t)j].nch >= 0;
	return k;
}

static uint64_t children_cut(const tree_child *ch, int64_t n, double cut)
{
	uint64_t k = 0;
	for (int64_t i = 0; i < n; i++)
		k += ch[i].lb > cut;
	return k;
}

/* The nodes at depth `depth` below rows [lo, hi): every one whose children
 * are factorisations gets its children's bounds both ways (one child at a
 * time, trim__node_bound_above; all at once, trim__leaf_children_bounds),
 * which must agree: the same bound and choices below the cut, above it both
 * above the cut and no higher than the full bound or the floor with the
 * parent's figures standing in; with those stand-ins, no fewer children
 * cut and no more figures looked up than without them. */
static void siblings_below(trim__mapspace *s, int64_t *const *trows, const trim__level_cost *c, int goal,
                           int depth, const int32_t *lo, const int32_t *hi, int64_t zero_macs, search_worker *W,
                           uint64_t *compared, uint64_t *cut, uint64_t *joint_higher, uint64_t *fewer)
{
	tree_child *ch = NULL;
	int nv[TRIM_NDIMS];
	int64_t n = trim__tree_children(s, trows, depth, lo, hi, &ch, nv, NULL);
	ck_assert_int_ge(n, 0);
	if (depth + 1 < s->nslots - 1) {
		for (int64_t i = 0; i < n; i++)
			siblings_below(s, trows, c, goal, depth + 1, ch[i].lo, ch[i].hi, zero_macs, W, compared, cut,
			               joint_higher, fewer);
		free(ch);
		return;
	}
	static uint64_t nodes;
	if (nodes++ % 4 != 0) { /* every fourth such node: a few seconds */
		free(ch);
		return;
	}
	node_choices *ref = malloc((size_t)(n > 0 ? n : 1) * sizeof *ref);
	double *lb = malloc((size_t)(n > 0 ? n : 1) * sizeof *lb), *full = malloc((size_t)(n > 0 ? n : 1) * sizeof *full);
	W->child_choices = realloc(W->child_choices, (size_t)(n > 0 ? n : 1) * sizeof *W->child_choices);
	ck_assert(ref && lb && full && W->child_choices);
	trim__mapping m;
	trim__eval ev;
	trim__space_mapping_init(s, &m);
	trim__space_mapping_init(s, &W->node_mapping);
	for (int64_t i = 0; i < n; i++) {
		trim__tree_node_set(s, trows, depth + 1, ch[i].lo, &m);
		trim__node_bound(s, c, goal, depth + 1, zero_macs, &m, &ev, &full[i], NULL, W->stationary);
	}
	/* per child, with the energy goal: the floor with each tensor's figure
	 * the larger of the child's and the parent's (computed here alone),
	 * the MACs and the leakage with it */
	double *floor = malloc((size_t)(n > 0 ? n : 1) * sizeof *floor);
	ck_assert_ptr_nonnull(floor);
	for (int64_t i = 0; i < n; i++) {
		floor[i] = 0;
		trim__tree_node_set(s, trows, depth + 1, ch[i].lo, &m);
		node_frame fc, fp;
		if (trim__node_frame(s, c, depth + 1, zero_macs, &m, &fc)) {
			floor[i] = HUGE_VAL; /* no spatial fit: no bound to compare */
			continue;
		}
		if (goal == TRIM__GOAL_ENERGY)
			floor[i] = fc.emacs + trim__node_static_floor(s, c, &fc, &m, zero_macs, &ev);
		for (int t = 0; t < 3 && goal == TRIM__GOAL_ENERGY; t++) {
			if (!s->w->t[t].present)
				continue;
			tensor_figures own, par;
			trim__tree_node_set(s, trows, depth + 1, ch[i].lo, &m);
			trim__node_tensor(s, c, &fc, &m, t, &own);
			trim__tree_node_set(s, trows, depth, ch[i].lo, &m);
			if (trim__node_frame(s, c, depth, zero_macs, &m, &fp))
				memset(&par, 0, sizeof par); /* the parent has no frame: no stand-ins */
			else
				trim__node_tensor(s, c, &fp, &m, t, &par);
			floor[i] += own.emin_fit > par.emin_fit ? own.emin_fit : par.emin_fit;
		}
	}
	/* cuts at no bound, near a middle child's bound, and below every bound
	 * (near, not at: summed in another order, a bound may round to either
	 * side of a cut equal to it) */
	const double cuts[3] = {HUGE_VAL, n ? full[n / 2] * (1 + 1e-7) : 0, 0};
	for (int k = 0; k < 3; k++) {
		for (int64_t i = 0; i < n; i++) {
			trim__tree_node_set(s, trows, depth + 1, ch[i].lo, &m);
			trim__node_bound_above(s, c, goal, depth + 1, zero_macs, &m, &ev, &lb[i], &ref[i], cuts[k],
			                       W->stationary);
		}
		/* first without the parent's figures standing in: the figures
		 * looked up then, and the children's bounds */
		s->test_stand_ins_off = 1;
		int rc = trim__leaf_children_bounds(s, trows, c, goal, depth + 1, ch, n, nv, cuts[k], zero_macs, W);
		s->test_stand_ins_off = 0;
		ck_assert_int_ge(rc, 0);
		if (!rc)
			continue;
		const uint64_t plain = looked_up(W), plain_cut = children_cut(ch, n, cuts[k]);
		rc = trim__leaf_children_bounds(s, trows, c, goal, depth + 1, ch, n, nv, cuts[k], zero_macs, W);
		ck_assert_int_eq(rc, 1);
		/* at least those children cut, with no more figures looked up */
		REQUIRE(children_cut(ch, n, cuts[k]) >= plain_cut && looked_up(W) <= plain, "cut %.17g: %llu cut, %llu "
		        "figures with the stand-ins, %llu and %llu without", cuts[k], (unsigned long long)children_cut(ch, n, cuts[k]),
		        (unsigned long long)looked_up(W), (unsigned long long)plain_cut, (unsigned long long)plain);
		*fewer += looked_up(W) < plain;
		for (int64_t i = 0; i < n; i++) {
			if (ch[i].lb <= cuts[k]) {
				REQUIRE(ch[i].lb == lb[i], "child %lld: bound %.17g at once, %.17g alone", (long long)i, ch[i].lb,
				        lb[i]);
				for (int t = 0; t < 3; t++) {
					REQUIRE(W->child_choices[i].nch[t] == ref[i].nch[t], "child %lld tensor %d: choices", (long long)i, t);
					for (int q = 0; q < ref[i].nch[t]; q++)
						REQUIRE(W->child_choices[i].E[t][q] == ref[i].E[t][q] &&
						            W->child_choices[i].K[t][q] == ref[i].K[t][q],
						        "child %lld tensor %d choice %d", (long long)i, t, q);
				}
			} else {
				/* no higher than the larger of the full bound and the
				 * floor with each tensor's figure the larger of the
				 * child's and the parent's (the parent's stand in for the
				 * tensors not looked up), computed here alone, but for the
				 * rounding of sums in another order (far below the
				 * bounds' margin) */
				const double most = full[i] > floor[i] ? full[i] : floor[i];
				REQUIRE(ch[i].lb > cuts[k] && ch[i].lb <= most * (1 + 1e-12),
				        "child %lld: bound %.17g, cut %.17g, full %.17g, floor with the parent's figures %.17g",
				        (long long)i, ch[i].lb, cuts[k], full[i], floor[i]);
				(*cut)++;
			}
			(*compared)++;
			/* the joint-order bound from the same figures: the same
			 * below the cut, above it a bound above the cut */
			double lbj, lbj_ref;
			trim__tree_node_set(s, trows, depth + 1, ch[i].lo, &m);
			trim__node_bound_joint(s, c, goal, depth + 1, zero_macs, &m, &ev, &lbj_ref, W->stationary);
			REQUIRE(trim__leaf_child_joint(s, trows, c, goal, depth + 1, &ch[i], cuts[k], zero_macs, W, &lbj) == 1,
			        "child %lld: no joint bound from the figures", (long long)i);
			if (lbj_ref <= cuts[k])
				REQUIRE(lbj == lbj_ref, "child %lld: joint bound %.17g from the figures, %.17g alone", (long long)i,
				        lbj, lbj_ref);
			else
				REQUIRE(lbj > cuts[k] && lbj <= lbj_ref * (1 + 1e-12),
				        "child %lld: joint bound %.17g, cut %.17g, full %.17g", (long long)i, lbj, cuts[k], lbj_ref);
			*joint_higher += lbj_ref > full[i];
		}
	}
	free(ref);
	free(lb);
	free(full);
	free(floor);
	free(ch);
}

START_TEST(test_leaf_children_bounds)
{
	static const int kinds[][2] = {{TU_CONV, TRIM_PHASE_FW}, {TU_CONV, TRIM_PHASE_BW}, {TU_CONV, TRIM_PHASE_WG},
	                               {TU_MAXPOOL, TRIM_PHASE_FW}};
	uint64_t compared = 0, cut = 0, joint_higher = 0, fewer = 0;
	for (size_t q = 0; q < sizeof kinds / sizeof kinds[0]; q++)
		for (int goal = 0; goal < 3; goal++) {
			struct trim_arch a;
			trim__intra w;
			trim__mapspace s;
			trim__level_cost c[TRIM__MAX_LEVELS];
			g_kind = kinds[q][0];
			g_phase = kinds[q][1];
			case_siblings(&a, &w);
			tu_costs(&a, c);
			ck_assert_int_eq(trim__mapspace_init(&s, &w, &a), 0);
			int64_t zero_macs = 0;
			ck_assert_int_eq(trim__intra_act_zero_macs(&w, &zero_macs), 0);
			int64_t *trows[TRIM_NDIMS];
			int32_t lo[TRIM_NDIMS], hi[TRIM_NDIMS];
			for (int d = 0; d < TRIM_NDIMS; d++) {
				trows[d] = trim__tree_rows(&s, d);
				ck_assert_ptr_nonnull(trows[d]);
				lo[d] = 0;
				hi[d] = (int32_t)s.nrows[d];
			}
			search_worker *W = calloc(1, sizeof *W);
			ck_assert_ptr_nonnull(W);
			W->stationary = trim__stationary_workspace_new();
			ck_assert_ptr_nonnull(W->stationary);
			siblings_below(&s, trows, c, goal, 0, lo, hi, zero_macs, W, &compared, &cut, &joint_higher, &fewer);
			free(W->child_choices);
			free(W->leaf_figures);
			free(W->leaf_reuse);
			trim__stationary_workspace_free(W->stationary);
			free(W);
			for (int d = 0; d < TRIM_NDIMS; d++)
				free(trows[d]);
			trim__mapspace_free(&s);
		}
	ck_assert_uint_gt(compared, 1000);
	ck_assert_uint_gt(cut, 100);
	ck_assert_uint_gt(joint_higher, 100); /* the joint order does bind there */
	ck_assert_uint_gt(fewer, 0);          /* the parent's figures spare look-ups */
}
END_TEST

Suite *search_leaf_suite(void)
{
	Suite *s = suite_create("search_leaf");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300); /* the sanitizer pass on a loaded 2-core machine */
	tcase_add_test(tc, test_leaf_children_bounds);
	suite_add_tcase(s, tc);
	return s;
}
