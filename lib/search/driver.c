/*
 * trim__search: the exhaustive, deterministic OpenMP search (the tree's
 * top nodes in rounds, or plain rounds of factorisations), the merge of the
 * threads' results, the search statistics and the result.
 */
#include <omp.h>
#include <stdio.h>

#include "search_int.h"

void trim__search_result_free(trim__search_result *r)
{
	if (!r)
		return;
	free(r->top_cost);
	free(r->top_index);
	free(r->top);
	r->top_cost = NULL;
	r->top_index = NULL;
	r->top = NULL;
	r->ntop = 0;
}

static void progress_set(const trim__mapspace *s, int64_t done, int64_t total)
{
	if (!s->prog)
		return;
	__atomic_store_n(&s->prog[1], total, __ATOMIC_RELAXED);
	__atomic_store_n(&s->prog[0], done, __ATOMIC_RELAXED);
}

/* End of a round: every thread's best k into the global list (thread order,
 * then (cost, index): the same for any thread count), the first error. */
static void merge_round(search_worker *ws, int threads, top_list *glob, trim__eval *glob_eval, int *err)
{
	for (int i = 0; i < threads; i++) {
		search_worker *W = &ws[i];
		if (W->err && !*err)
			*err = W->err;
		for (size_t j = 0; j < W->keep.n; j++) {
			if (trim__better(W->keep.cost[j], W->keep.idx[j], glob->n ? glob->cost[0] : 0,
			                 glob->n ? glob->idx[0] : 0, glob->n) && j == 0)
				*glob_eval = W->best_eval;
			trim__top_put(glob, W->keep.cost[j], W->keep.idx[j], &W->keep.map[j]);
		}
		W->keep.n = 0;
	}
}

int trim__search(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                 trim__search_result *out)
{
	memset(out, 0, sizeof *out);
	int err = 0;
	if (threads < 1)
		threads = 1;
	const size_t k = s->topk > 1 ? (size_t)s->topk : 1;
	uint64_t nfc = 1; /* combinations of allowed factorisations */
	for (int d = 0; d < TRIM_NDIMS; d++)
		nfc *= (uint64_t)s->nrows[d];
	int64_t zero_macs = 0;
	if ((err = trim__activity_zero_macs(s->w, &zero_macs)))
		return err;
	search_worker *ws = calloc((size_t)threads, sizeof *ws);
	top_list glob = {0};
	trim__eval glob_eval;
	if (!ws || trim__top_init(&glob, k, 1)) {
		free(ws);
		trim__top_free(&glob);
		return trim__error(TRIM_ENOMEM, "search: out of memory");
	}
	for (int i = 0; i < threads; i++) {
		trim__factor_bound_plan(s, &ws[i].fbound);
		if (trim__top_init(&ws[i].item, k, 0) || trim__top_init(&ws[i].keep, k, 1) ||
		    trim__top_init(&ws[i].node, k, 0) || trim__order_class_cache_init(&ws[i].classes, s))
			err = trim__error(TRIM_ENOMEM, "search: out of memory");
	}
	double bound = HUGE_VAL;
	if (!err && !s->nobound)
		bound = trim__seed_bound(s, costs, goal, nfc, zero_macs, k, &ws[0]);
	const double seed = bound;
	/* branch and bound over partial factorisations: the factors of slot 0
	 * for every dim, then slot 1, ...; needs the distinct total (what is cut
	 * is counted from it) */
	uint64_t dtotal = 0;
	tree_child *top = NULL;
	int64_t ntop = 0;
	int64_t *trows[TRIM_NDIMS] = {0};
	if (!err && !s->nobound && s->nslots >= 3 && trim__mapspace_distinct(s, &dtotal) == 0) {
		int32_t lo[TRIM_NDIMS], hi[TRIM_NDIMS];
		for (int d = 0; d < TRIM_NDIMS && !err; d++) {
			lo[d] = 0;
			hi[d] = (int32_t)s->nrows[d];
			if (!(trows[d] = trim__tree_rows(s, d)))
				err = trim__error(TRIM_ENOMEM, "search: out of memory");
		}
		if (!err)
			ntop = trim__tree_children(s, trows, 0, lo, hi, &top);
		if (ntop == -1)
			err = trim__error(TRIM_ENOMEM, "search: out of memory");
		if (ntop < 0)
			ntop = 0;
	}
	if (ntop > 0) {
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
		for (int64_t i = 0; i < ntop; i++) {
			search_worker *W = &ws[omp_get_thread_num()];
			trim__space_mapping_init(s, &W->node_mapping);
			trim__tree_node_set(s, trows, 1, top[i].lo, &W->node_mapping);
			trim__mapspace_node_lb(s, costs, goal, 1, zero_macs, &W->node_mapping, &W->bound_eval, &top[i].lb);
		}
		qsort(top, (size_t)ntop, sizeof *top, trim__tree_child_cmp);
		const int64_t round = 16;
		progress_set(s, 0, ntop);
		for (int64_t r0 = 0; r0 < ntop && !err; r0 += round) {
			int64_t r1 = r0 + round < ntop ? r0 + round : ntop;
			double rb = bound;
			if (top[r0].lb > rb)
				break; /* sorted: every later node is cut too */
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
			for (int64_t i = r0; i < r1; i++) {
				search_worker *W = &ws[omp_get_thread_num()];
				if (W->err || top[i].lb > rb)
					continue;
				W->node.n = 0;
				trim__tree_search_node(s, trows, costs, goal, 1, top[i].lo, top[i].hi, rb, zero_macs, W);
			}
			merge_round(ws, threads, &glob, &glob_eval, &err);
			double gb = trim__top_bound(&glob);
			if (gb < bound)
				bound = gb;
			progress_set(s, r1, ntop);
		}
		progress_set(s, ntop, ntop);
		nfc = 0; /* the plain loop below has nothing left */
	}
	free(top);
	for (int d = 0; d < TRIM_NDIMS; d++)
		free(trows[d]);
	/* rounds: every item of a round sees the bound reached at the end of
	 * the previous rounds (and its own mappings), so the work done, and the
	 * counts, do not depend on the number of threads */
	const uint64_t round = 512;
	for (uint64_t r0 = 0; r0 < nfc && !err; r0 += round) {
		uint64_t r1 = r0 + round < nfc ? r0 + round : nfc;
		double rb = bound;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
		for (uint64_t ac = r0; ac < r1; ac++) {
			search_worker *W = &ws[omp_get_thread_num()];
			if (!W->err)
				trim__search_factorisation(s, costs, goal, trim__combination_factorisation(s, ac), rb,
				                           zero_macs, W);
		}
		merge_round(ws, threads, &glob, &glob_eval, &err);
		double gb = trim__top_bound(&glob);
		if (gb < bound && !s->nobound)
			bound = gb;
		progress_set(s, (int64_t)r1, (int64_t)nfc);
	}
	if (getenv("TRIM_SEARCH_STATS")) {
		uint64_t v[6] = {0};
		for (int i = 0; i < threads; i++) {
			v[0] += ws[i].st_nodes, v[1] += ws[i].st_nodes_cut, v[2] += ws[i].st_leaves;
			v[3] += ws[i].st_leaves_cut, v[4] += ws[i].st_byp_cut, v[5] += ws[i].st_cls_cut;
		}
		for (int dd = 0; dd < TRIM__MAX_LEVELS; dd++) {
			uint64_t n = 0, c = 0;
			for (int i = 0; i < threads; i++)
				n += ws[i].st_d[dd], c += ws[i].st_dc[dd];
			if (n)
				fprintf(stderr, "search stats: depth %d: %llu nodes bounded, %llu cut\n", dd,
				        (unsigned long long)n, (unsigned long long)c);
		}
		fprintf(stderr, "search stats: top nodes %lld, nodes %llu (cut %llu), leaves %llu (cut whole %llu), "
		        "bypass choices cut %llu, classes cut %llu, seed bound %.6g\n", (long long)ntop,
		        (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
		        (unsigned long long)v[3], (unsigned long long)v[4], (unsigned long long)v[5], seed);
	}
	for (int i = 0; i < threads; i++) {
		search_worker *W = &ws[i];
		out->generated += W->cnt.generated;
		out->valid += W->cnt.valid;
		out->evaluated += W->cnt.evaluated;
		out->pruned += W->cnt.pruned;
		out->unsupported += W->cnt.unsupported;
		out->bounded += W->cnt.bounded;
		trim__eval_ws_free(&W->ws);
		trim__tensor_cache_free(&W->tensor_counts);
		trim__top_free(&W->item);
		trim__top_free(&W->keep);
		trim__top_free(&W->node);
		trim__order_class_cache_free(&W->classes);
		free(W->child_choices);
		free(W->result_energies);
	}
	free(ws);
	if (dtotal && ntop > 0) { /* cut subtrees: the distinct mappings not generated */
		out->bounded += dtotal - out->generated;
		out->generated = dtotal;
	}
	if (!err && glob.n) {
		out->found = 1;
		out->best_cost = glob.cost[0];
		out->best_index = glob.idx[0];
		out->best = glob.map[0];
		out->best_eval = glob_eval;
		if (s->topk > 1) {
			out->ntop = glob.n;
			out->top_cost = glob.cost;
			out->top_index = glob.idx;
			out->top = glob.map;
			return 0;
		}
	}
	trim__top_free(&glob);
	return err;
}
