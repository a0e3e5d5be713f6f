/*
 * The top nodes of one search, shared: the sliding window's schedule that
 * trim__search's threads use (driver.c), and the same search's top nodes
 * run by other processes, one node at a time, and merged back
 * (lib/search/share.h for lib/work/, trim/work.h for the caller; the MPI
 * front end's trim-mpi map).
 *
 * A node's threshold depends only on the seed and on the nodes that are
 * TRIM__TOP_WINDOW places or more before it, all finished: whoever runs a
 * node, and whenever, it does the same work with the same counts. So a
 * collector that hands node i out only once nodes [0, i - WINDOW] are
 * merged, with their threshold, gets trim__search's result byte for byte.
 */
#include <stdio.h>

#include "search_int.h"

/* ---- the window's schedule (threads and processes) --------------------------- */

int trim__schedule_init(top_schedule *q, int64_t n, size_t k)
{
	memset(q, 0, sizeof *q);
	q->n = n;
	q->k = k;
	q->cut_from = n;
	size_t m = n > 0 ? (size_t)n : 1;
	q->node_costs = calloc(m, sizeof *q->node_costs);
	q->node_ncosts = calloc(m, sizeof *q->node_ncosts);
	q->node_idx = calloc(m, sizeof *q->node_idx);
	q->finished = calloc(m, 1);
	q->prefix_bound = malloc(m * sizeof *q->prefix_bound);
	q->prefix_idx = malloc(m * sizeof *q->prefix_idx);
	q->prefix_idx_on = malloc(m * sizeof *q->prefix_idx_on);
	if (!q->node_costs || !q->node_idx || !q->node_ncosts || !q->finished || !q->prefix_bound || !q->prefix_idx ||
	    !q->prefix_idx_on || trim__top_init(&q->prefix_list, k, 0))
		return TRIM_ENOMEM;
	omp_init_lock(&q->lock);
	q->locked = 1;
	return 0;
}

void trim__schedule_free(top_schedule *q)
{
	for (int64_t i = 0; q->node_costs && q->node_idx && i < q->n; i++) {
		free(q->node_costs[i]);
		free(q->node_idx[i]);
	}
	if (q->locked)
		omp_destroy_lock(&q->lock);
	free(q->node_idx);
	free(q->node_costs);
	free(q->node_ncosts);
	free(q->finished);
	free(q->prefix_bound);
	free(q->prefix_idx);
	free(q->prefix_idx_on);
	trim__top_free(&q->prefix_list);
	memset(q, 0, sizeof *q);
}

int trim__schedule_finish(top_schedule *q, int64_t i, const top_list *kept, const trim__eval *first_eval,
                          top_list *glob, trim__eval *glob_eval)
{
	double *c = NULL;
	trim__index *x = NULL;
	int rc = 0;
	if (kept->n && (!(c = malloc(kept->n * sizeof *c)) || !(x = malloc(kept->n * sizeof *x)))) {
		free(c);
		c = NULL;
		rc = TRIM_ENOMEM;
	}
	omp_set_lock(&q->lock);
	for (size_t j = 0; j < kept->n; j++) {
		if (j == 0 && trim__better(kept->cost[0], kept->idx[0], glob->n ? glob->cost[0] : 0,
		                           glob->n ? glob->idx[0] : 0, glob->n))
			*glob_eval = *first_eval;
		trim__top_put(glob, kept->cost[j], kept->idx[j], kept->map ? &kept->map[j] : NULL);
		if (c) {
			c[j] = kept->cost[j];
			x[j] = kept->idx[j];
		}
	}
	q->node_costs[i] = c;
	q->node_idx[i] = x;
	q->node_ncosts[i] = c ? kept->n : 0;
	q->finished_count += !q->finished[i];
	q->finished[i] = 1;
	int64_t p = q->prefix;
	while (p < q->n && q->finished[p]) {
		for (size_t j = 0; j < q->node_ncosts[p]; j++)
			trim__top_put(&q->prefix_list, q->node_costs[p][j], q->node_idx[p][j], NULL);
		free(q->node_costs[p]);
		free(q->node_idx[p]);
		q->node_costs[p] = NULL;
		q->node_idx[p] = NULL;
		q->prefix_bound[p] = trim__top_bound(&q->prefix_list);
		q->prefix_idx_on[p] = q->prefix_list.n == 1 && q->prefix_list.k == 1;
		q->prefix_idx[p] = q->prefix_list.n ? q->prefix_list.idx[0] : 0;
		p++;
	}
	__atomic_store_n(&q->prefix, p, __ATOMIC_RELEASE);
	omp_unset_lock(&q->lock);
	return rc;
}

int trim__schedule_ready(top_schedule *q, int64_t i)
{
	return i < TRIM__TOP_WINDOW || __atomic_load_n(&q->prefix, __ATOMIC_ACQUIRE) >= i - TRIM__TOP_WINDOW + 1;
}

void trim__schedule_threshold(top_schedule *q, int64_t i, const top_threshold *seed, top_threshold *out)
{
	*out = *seed;
	if (i < TRIM__TOP_WINDOW)
		return;
	const double pb = q->prefix_bound[i - TRIM__TOP_WINDOW];
	const int pon = q->prefix_idx_on[i - TRIM__TOP_WINDOW];
	const trim__index pidx = q->prefix_idx[i - TRIM__TOP_WINDOW];
	if (pb < out->cost) {
		out->cost = pb;
		out->idx_on = pon;
		out->idx = pidx;
	} else if (pb == out->cost && pon && out->idx_on && pidx < out->idx) {
		out->idx = pidx;
	}
}

int trim__schedule_cut(top_schedule *q, int64_t i, double lb, const top_threshold *t, search_worker *W)
{
	if (!trim__cut(W, lb, t->cost * W->cut_scale))
		return 0;
	int64_t cf = __atomic_load_n(&q->cut_from, __ATOMIC_RELAXED);
	while (i < cf && !__atomic_compare_exchange_n(&q->cut_from, &cf, i, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return 1;
}
