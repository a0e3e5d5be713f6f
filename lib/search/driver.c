/*
 * trim__search: the exhaustive, deterministic OpenMP search (the tree's top
 * nodes in a sliding window, or plain rounds of factorisations), the merge
 * of the threads' results, the anytime stop and its proven lower bound, the
 * search statistics and the result. The window's schedule (the threshold
 * of a node, a node finished) is lib/search/share.c's, which also runs the
 * top nodes of one search in several processes.
 */
#include <omp.h>
#include <stdio.h>
#include <time.h>

#include "search_int.h"

void trim__search_result_free(trim__search_result *r)
{
	if (!r)
		return;
	free(r->top_cost);
	free(r->top_second);
	free(r->top_index);
	free(r->top);
	free(r->top_done);
	r->top_done = NULL;
	r->top_cost = NULL;
	r->top_second = NULL;
	r->top_index = NULL;
	r->top = NULL;
	r->ntop = 0;
}

void trim__search_progress(const trim__mapspace *s, int64_t done, int64_t total)
{
	if (!s->prog)
		return;
	__atomic_store_n(&s->prog[1], total, __ATOMIC_RELAXED);
	__atomic_store_n(&s->prog[0], done, __ATOMIC_RELAXED);
}

/* End of a round: every thread's best k into the global list (thread order,
 * then (cost, second figure, index): the same for any thread count), the
 * first error. */
static void merge_round(search_worker *ws, int threads, top_list *glob, trim__eval *glob_eval, int *err)
{
	for (int i = 0; i < threads; i++) {
		search_worker *W = &ws[i];
		if (W->err && !*err)
			*err = W->err;
		for (size_t j = 0; j < W->keep.n; j++) {
			if (j == 0 && trim__top_first(glob, W->keep.cost[0], W->keep.sec[0], W->keep.idx[0]))
				*glob_eval = W->best_eval;
			trim__top_put(glob, W->keep.cost[j], W->keep.sec[j], W->keep.idx[j], &W->keep.map[j]);
		}
		W->keep.n = 0;
	}
}

/* Node i is done on W (W->keep: its mappings, none if it was cut). */
static void node_done(top_schedule *q, int64_t i, search_run *r, search_worker *W)
{
	int rc = trim__schedule_finish(q, i, &W->keep, &W->best_eval, &r->glob, &r->glob_eval);
	if (rc && !W->err)
		W->err = rc;
	W->keep.n = 0;
}

/* The tree's top nodes, sorted by bound, are taken in order by the threads
 * (a thread waits only while the node TRIM__TOP_WINDOW places before its
 * own is still running); the first error into r->err. */
static void search_top_nodes(search_run *r)
{
	top_schedule q;
	const int64_t ntop = r->ntop;
	if (trim__schedule_init(&q, ntop, r->k)) {
		trim__schedule_free(&q);
		r->err = trim__error(TRIM_ENOMEM, "search: out of memory");
		return;
	}
	trim__search_progress(r->s, 0, ntop);
	omp_lock_t take; /* taking a node (finishing one takes q.lock) */
	omp_init_lock(&take);
#pragma omp parallel num_threads(r->threads)
	{
		search_worker *W = &r->ws[omp_get_thread_num()];
		for (;;) {
			int64_t i;
			top_threshold t;
			omp_set_lock(&take);
			const int got = W->err ? 2 : trim__schedule_take(&q, r, W, &i, &t);
			if (got == 2) /* none left, stopped or failed: nobody takes more */
				__atomic_store_n(&q.abort, 1, __ATOMIC_RELAXED);
			omp_unset_lock(&take);
			if (got == 2)
				break;
			if (got == 0) { /* the window: a node before it still runs */
				struct timespec ts = {0, 20000};
				nanosleep(&ts, NULL);
				continue;
			}
			trim__search_top_node(r, i, &t, W);
			node_done(&q, i, r, W);
			trim__search_progress(r->s, __atomic_load_n(&q.finished_count, __ATOMIC_RELAXED), ntop);
		}
	}
	omp_destroy_lock(&take);
	for (int i = 0; i < r->threads; i++)
		if (r->ws[i].err && !r->err)
			r->err = r->ws[i].err;
	trim__search_progress(r->s, ntop, ntop);
	trim__schedule_free(&q);
}

void trim__search_top_node(search_run *r, int64_t i, const top_threshold *t, search_worker *W)
{
	W->rb_idx_on = t->idx_on;
	W->rb_idx = t->idx;
	W->rb_sec = t->sec;
	W->keep.n = 0;
	W->node.n = 0;
	const int64_t opens = W->opens;
	trim__tree_search_node(r->s, r->trows, r->costs, r->goal, 1, r->top[i].lo, r->top[i].hi, t->cost * W->cut_scale,
	                       r->zero_macs, W);
	if (r->done && W->opens == opens && !W->err)
		r->done[i] = 1; /* nothing in it left open */
}

/* The digest of the sorted top nodes (util/digest.h over each node's
 * bound and position in the enumeration, which fixes its rows in one
 * space), for a retry (keep_done, skip_top) only: a search of the same
 * space that sorts the same nodes. */
static void top_digest(search_run *r)
{
	if (!r->s->keep_done && !r->s->skip_top)
		return;
	trim__digest d;
	trim__digest_init(&d);
	trim__digest_int(&d, "top nodes", r->ntop);
	for (int64_t i = 0; i < r->ntop; i++) {
		trim__digest_update(&d, &r->top[i].lb, sizeof r->top[i].lb);
		trim__digest_update(&d, &r->top[i].ord, sizeof r->top[i].ord);
	}
	trim__digest_final(&d, r->top_digest);
}

/* A stopped search searched again (s->skip_top, mapspace_int.h): the top
 * nodes its first pass searched whole are dropped, the others keep their
 * order. Each of them holds nothing that ranks before the first pass's
 * best, which is a seed here (hint_used): every mapping of the node was
 * evaluated or cut by a bound above a threshold at least that best's cost,
 * or by the exact-tie rule against a known mapping; a gap's cut or the
 * clock would have left part of it open, and then it is searched again.
 * Only for k = 1 (a node's other mappings would be missing from the top
 * k). */
static void skip_done(search_run *r)
{
	const trim__mapspace *s = r->s;
	if (!s->skip_top || r->k != 1 || !r->hint_used || s->skip_ntop != r->ntop ||
	    memcmp(s->skip_digest, r->top_digest, sizeof r->top_digest))
		return;
	int64_t n = 0;
	for (int64_t i = 0; i < r->ntop; i++)
		if (!s->skip_top[i])
			r->top[n++] = r->top[i];
	r->skipped = r->ntop - n;
	r->ntop = n;
}
/* A better seed: from each of the first DIVES top nodes (by bound), the
 * best-first path down to the first factorisation with a mapping that can
 * beat the bound (at most `leaves` factorisations searched whole). Real
 * mappings (class representatives) into seeds; the work is not counted (the
 * search proper counts it again). Single-threaded: the same for any thread
 * count. Returns the seeds' k-th best cost. */
enum { DIVES = 8, DIVE_LEAVES = 64, DIVE_LEAVES_SEEDED = 8 };
static double dive_seeds(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                         const tree_child *top, int64_t ntop, double bound, int64_t zero_macs, int64_t leaves,
                         search_worker *W, top_list *seeds, trim__eval *seed_eval)
{
	const trim__search_result cnt = W->cnt;
	uint64_t st[6] = {W->st_nodes, W->st_nodes_cut, W->st_leaves, W->st_leaves_cut, W->st_byp_cut, W->st_cls_cut};
	uint64_t st_d[TRIM__MAX_LEVELS], st_dc[TRIM__MAX_LEVELS];
	memcpy(st_d, W->st_d, sizeof st_d);
	memcpy(st_dc, W->st_dc, sizeof st_dc);
	for (int64_t i = 0; i < ntop && i < DIVES && !W->err && top[i].lb <= bound; i++) {
		W->keep.n = 0;
		W->node.n = 0;
		W->dive_leaves = leaves;
		trim__tree_visit(s, trows, costs, goal, 1, top[i].lo, top[i].hi, bound, zero_macs, 1, W);
		for (size_t j = 0; j < W->keep.n; j++) {
			if (j == 0 && trim__top_first(seeds, W->keep.cost[0], W->keep.sec[0], W->keep.idx[0]))
				*seed_eval = W->best_eval;
			trim__top_put(seeds, W->keep.cost[j], W->keep.sec[j], W->keep.idx[j], &W->keep.map[j]);
		}
		double b = trim__top_bound(seeds);
		if (b < bound)
			bound = b;
	}
	W->keep.n = 0;
	W->node.n = 0;
	W->cnt = cnt;
	W->st_nodes = st[0], W->st_nodes_cut = st[1], W->st_leaves = st[2];
	W->st_leaves_cut = st[3], W->st_byp_cut = st[4], W->st_cls_cut = st[5];
	memcpy(W->st_d, st_d, sizeof st_d);
	memcpy(W->st_dc, st_dc, sizeof st_dc);
	W->open_lb = HUGE_VAL; /* cuts of the dives leave nothing open: the search proper sees it all */
	return bound;
}

/* The best mapping the search returns passes the check trim eval applies
 * (capacities with double buffering and the reserved bytes, fan-out,
 * products) and the utilisation constraints: the search's own fast fit
 * test is a separate path. */
static int check_returned(const trim__mapspace *s, const trim__mapping *m)
{
	int rc = trim__mapping_check_reserved(m, s->w, s->a, s->reserved);
	if (rc)
		return trim__error(rc, "search: internal error: a mapping it returns fails the mapping check: %s",
		                   trim_last_error());
	if ((s->min_pe_util > 0 && trim__mapspace_pe_util(s, m) < s->min_pe_util) ||
	    (s->min_rf_util > 0 && trim__mapspace_rf_util(s, m) < s->min_rf_util))
		return trim__error(TRIM_EINVAL, "search: internal error: a mapping it returns breaks the utilisation constraints");
	return 0;
}

/* The run's workers, each with its lists, caches and workspaces. */
static int workers_init(search_run *r, double begun, double deadline)
{
	const trim__mapspace *s = r->s;
	r->ws = calloc((size_t)r->nworkers, sizeof *r->ws);
	if (!r->ws || trim__top_init(&r->glob, r->k, 1) || trim__top_init(&r->seeds, r->k, 1))
		return trim__error(TRIM_ENOMEM, "search: out of memory");
	int err = 0;
	for (int i = 0; i < r->nworkers; i++) {
		search_worker *W = &r->ws[i];
		W->cut_scale = r->gap > 0 && r->gap < 1 ? 1 - r->gap : 1;
		W->deadline = deadline;
		W->begun = begun;
		W->deadline_at = s->time_limit > 0 ? s->deadline_at : NULL;
		W->stop = s->stop;
		W->stop_after = s->stop_after;
		W->open_lb = HUGE_VAL;
		W->cnt.max_pe_util = W->cnt.max_rf_util = -1;
		if (trim__factor_bound_plan(s, &W->fbound) || trim__top_init(&W->item, r->k, 0) ||
		    trim__top_init(&W->keep, r->k, 1) ||
		    trim__top_init(&W->node, r->k, 0) || trim__order_class_cache_init(&W->classes, s) ||
		    !(W->stationary = trim__stationary_workspace_new()))
			err = trim__error(TRIM_ENOMEM, "search: out of memory");
	}
	return err;
}

/* The seeds' bound: a good mapping first (the greedy seed), then the
 * sampled seed; the greedy seed again from the sampled one's best when its
 * own start gave nothing (a utilisation floor); the hint; with imperfect
 * rows the perfect subspace's best (perfect_first.c). */
static double seeds_first(search_run *r, double deadline)
{
	const trim__mapspace *s = r->s;
	search_worker *W = &r->ws[0];
	double bound = HUGE_VAL;
	if (!s->nobound) {
		const double t0 = trim__now();
		bound = trim__greedy_seed(s, r->costs, r->goal, W, &r->seeds, &r->seed_eval, 0);
		const double greedy = bound, t1 = trim__now();
		bound = trim__seed_bound(s, r->costs, r->goal, r->nfc, r->zero_macs, W, &r->seeds, &r->seed_eval);
		if (greedy == HUGE_VAL)
			bound = trim__greedy_seed(s, r->costs, r->goal, W, &r->seeds, &r->seed_eval, 1);
		if (getenv("TRIM_SEARCH_STATS"))
			fprintf(stderr, "search stats: greedy seed %.6g (%.3f s), with the sampled seed %.6g (%.3f s)\n",
			        greedy, t1 - t0, bound, trim__now() - t1);
	}
	if (!s->nobound && s->hint_on)
		bound = trim__seed_hint(s, r->costs, r->goal, W, &r->seeds, &r->seed_eval, &r->hint_used);
	if (s->imperfect)
		bound = trim__perfect_first(s, r->costs, r->goal, r->threads, deadline, &r->seeds, &r->seed_eval);
	return bound;
}

/* The top nodes of the tree of partial factorisations (the factors of
 * slot 0 for every dim, then slot 1, ...). Not built when the time is
 * already up and the seed holds a mapping (a network's searches after its
 * deadline): the plain loop then stops at once with the root's bound. The
 * top nodes (millions on a large ragged layer) are made only while the
 * time lasts. The distinct total, from which what the tree cuts is
 * counted, is counted at the end, and only if the tree ran to its end
 * (trim__search_end). */
static int top_nodes_make(search_run *r)
{
	const trim__mapspace *s = r->s;
	search_worker *W = &r->ws[0];
	const int late = r->seeds.n > 0 && trim__worker_stop(W);
	if (s->nobound || s->nslots < 3 || late)
		return 0;
	int32_t lo[TRIM_NDIMS], hi[TRIM_NDIMS];
	for (int d = 0; d < TRIM_NDIMS; d++) {
		lo[d] = 0;
		hi[d] = (int32_t)s->nrows[d];
		if (!(r->trows[d] = trim__tree_rows(s, d)))
			return trim__error(TRIM_ENOMEM, "search: out of memory");
	}
	if (!(r->seeds.n > 0 && trim__worker_stop(W)))
		r->ntop = trim__tree_children(s, r->trows, 0, lo, hi, &r->top, NULL, r->seeds.n > 0 ? W : NULL);
	const int err = r->ntop == -1 ? trim__error(TRIM_ENOMEM, "search: out of memory") : 0;
	if (r->ntop < 0)
		r->ntop = 0;
	return err;
}

/* Every top node's bound, in parallel, unless the time runs out: then,
 * with a mapping in hand, the tree is dropped (returns 1: sorting and
 * scheduling millions of top nodes would take the time the limit
 * forbids; the plain loop stops at once with the root's bound, a bound of
 * every mapping); with none, the root's bound stands for the nodes left
 * and they are searched in order until one gives a mapping. */
static int top_nodes_bound(search_run *r)
{
	const trim__mapspace *s = r->s;
	search_worker *ws = r->ws;
	const int64_t ntop = r->ntop;
	tree_child *top = r->top;
	int late = 0; /* top nodes left unbounded at the time limit */
#pragma omp parallel for schedule(dynamic, 64) num_threads(r->threads) reduction(+ : late)
	for (int64_t i = 0; i < ntop; i++) {
		search_worker *W = &ws[omp_get_thread_num()];
		if (trim__worker_stop(W)) { /* a bound can take a large layer milliseconds */
			top[i].lb = -HUGE_VAL;
			late++;
			continue;
		}
		trim__space_mapping_init(s, &W->node_mapping);
		trim__tree_node_set(s, r->trows, 1, top[i].lo, &W->node_mapping);
		trim__mapspace_node_lb(s, r->costs, r->goal, 1, r->zero_macs, &W->node_mapping, &W->bound_eval, &top[i].lb,
		                       W->stationary);
	}
	if (late && r->seeds.n > 0) {
		free(r->top);
		r->top = NULL;
		r->ntop = 0;
		ws[0].stopped = 1;
		return 1;
	}
	if (late) {
		double root_lb;
		trim__space_mapping_init(s, &ws[0].node_mapping);
		trim__mapspace_node_lb(s, r->costs, r->goal, 0, r->zero_macs, &ws[0].node_mapping, &ws[0].bound_eval,
		                       &root_lb, ws[0].stationary);
		for (int64_t i = 0; i < ntop; i++)
			if (top[i].lb == -HUGE_VAL)
				top[i].lb = root_lb;
		ws[0].stopped = 1;
	}
	return 0;
}

/* The top nodes' bounds in order, on stderr (TRIM_SEARCH_STATS). */
static void top_nodes_stats(search_run *r)
{
	const int64_t ntop = r->ntop;
	const tree_child *top = r->top;
	if ((r->top_lbs = malloc((size_t)ntop * sizeof *r->top_lbs)))
		for (int64_t i = 0; i < ntop; i++)
			r->top_lbs[i] = top[i].lb;
	const double q[] = {0, 0.01, 0.1, 0.25, 0.5, 0.75, 1};
	fprintf(stderr, "search stats: top node bounds (quantiles):");
	for (int j = 0; j < 7; j++)
		fprintf(stderr, " %.4g", top[(int64_t)(q[j] * (double)(ntop - 1))].lb);
	int64_t fin = 0;
	while (fin < ntop && top[fin].lb < HUGE_VAL)
		fin++;
	fprintf(stderr, " (%lld finite)\n", (long long)fin);
}

/* A good mapping in each of the best top nodes (greedy_seed.c): the greedy
 * descents from every factor outermost but the top node's own (the
 * spatial level's), for the first GREEDY_TOPS nodes (by bound) that can
 * beat the seeds, GREEDY_TOP_EVALS evaluations each, for at most
 * GREEDY_TOP_SHARE of the time limit. The greedy seed's one basin is often
 * not the optimum's: AlexNet-Cifar's conv3 WG at batch 64 on Eyeriss, 96 M
 * along the array, 8.54e9 pJ; in the top node of C 16 x R 3 x S 3, 6.47e9
 * (a 20 s search's best 6.25e9). Only with a time limit (the answer is then
 * what the search finds in time; an exact search needs only a threshold,
 * and on AlexNet-Cifar's 29 in training, whose greedy seeds are their
 * optima, they cost 24% more time), and only where the top node fixes the
 * whole array (one spatial level): with several, the levels above it start
 * empty, and on simba-like the dives found better (AlexNet-Cifar's conv3 BW
 * at batch 64: 8.12e9 against 6.13e9) in less time. Single-threaded, before
 * the threads take the nodes, and a fixed budget: the same for any thread
 * count. Returns the seeds' bound. */
enum { GREEDY_TOPS = 8, GREEDY_TOP_EVALS = 1000 };
#define GREEDY_TOP_SHARE 0.1
static double greedy_tops(search_run *r, const tree_child *top, int64_t ntop, double bound)
{
	const trim__mapspace *s = r->s;
	search_worker *W = &r->ws[0];
	const double t0 = trim__now();
	int spatial = 0;
	for (int i = 0; i < s->nslots; i++)
		spatial += s->a->lv[s->slot[i]].type == TRIM__LVL_SPATIAL;
	if (s->time_limit <= 0 || spatial != 1)
		return bound;
	for (int64_t i = 0; i < ntop && i < GREEDY_TOPS && top[i].lb <= bound && !trim__worker_stop(W); i++) {
		if (trim__now() - t0 > GREEDY_TOP_SHARE * s->time_limit)
			break;
		int64_t fix[TRIM_NDIMS];
		for (int d = 0; d < TRIM_NDIMS; d++)
			fix[d] = s->fact[d][r->trows[d][top[i].lo[d]] * s->nslots + s->tord[0]];
		bound = trim__greedy_top(s, r->costs, r->goal, W, &r->seeds, &r->seed_eval, s->tord[0], fix,
		                         GREEDY_TOP_EVALS);
	}
	if (getenv("TRIM_SEARCH_STATS"))
		fprintf(stderr, "search stats: greedy per top node %.6g (%.3f s)\n", bound, trim__now() - t0);
	return bound;
}

int trim__search_begin(search_run *r, const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                       int extra_workers)
{
	memset(r, 0, sizeof *r);
	r->s = s;
	r->costs = costs;
	r->goal = goal;
	r->threads = threads < 1 ? 1 : threads;
	r->nworkers = r->threads + (extra_workers > 0 ? extra_workers : 0);
	r->k = s->topk > 1 ? (size_t)s->topk : 1;
	r->nfc = 1; /* combinations of allowed factorisations */
	for (int d = 0; d < TRIM_NDIMS; d++)
		r->nfc *= (trim__index)s->nrows[d]; /* <= nfact < 2^128 */
	int err = trim__intra_act_zero_macs(s->w, &r->zero_macs);
	if (err)
		return r->err = err;
	r->gap = s->nobound ? 0 : s->gap;
	const double begun = trim__now(), deadline = s->time_limit > 0 ? begun + s->time_limit : 0;
	if ((err = workers_init(r, begun, deadline)) && !r->ws)
		return r->err = err;
	double bound = err ? HUGE_VAL : seeds_first(r, deadline);
	r->seed = bound;
	r->seed_thr.cost = bound;
	if (!err)
		err = top_nodes_make(r);
	if (r->ntop <= 0)
		return r->err = err;
	if (top_nodes_bound(r))
		return r->err = err;
	qsort(r->top, (size_t)r->ntop, sizeof *r->top, trim__tree_child_cmp);
	top_digest(r);
	skip_done(r);
	const int64_t ntop = r->ntop;
	tree_child *top = r->top;
	if (s->keep_done && !r->skipped && r->k == 1 && !(r->done = calloc(ntop > 0 ? (size_t)ntop : 1, 1)))
		return r->err = trim__error(TRIM_ENOMEM, "search: out of memory");
	if (getenv("TRIM_SEARCH_STATS")) {
		top_nodes_stats(r);
		if (r->skipped)
			fprintf(stderr, "search stats: %lld top nodes searched whole before, skipped\n", (long long)r->skipped);
	}
	bound = greedy_tops(r, top, ntop, bound);
	/* the dives, also after the greedy seed: the top nodes 0 ..
	 * TRIM__TOP_WINDOW - 1 are searched with the seeds' bound alone, and
	 * where the greedy seed's local minimum is far above the optimum
	 * (AlexNet conv2, conv3 FW on simba-like: 42%, 11%) they search
	 * subtrees that the optimum, found in top node 0, cuts (conv3: 19 s of
	 * CPU in top node 3 against 0.001 s). With k seeds in hand,
	 * DIVE_LEAVES_SEEDED factorisations per dive: where the seed is tight a
	 * dive searches them whole and finds nothing (AlexNet conv1-conv5 FW on
	 * eyeriss: 64 cost 10% of the search) */
	const double dive_t0 = trim__now();
	bound = dive_seeds(s, r->trows, costs, goal, top, ntop, bound, r->zero_macs,
	                   r->seeds.n < r->k ? DIVE_LEAVES : DIVE_LEAVES_SEEDED, &r->ws[0], &r->seeds, &r->seed_eval);
	if (getenv("TRIM_SEARCH_STATS"))
		fprintf(stderr, "search stats: seed bound %.6g, after the dives %.6g (%.3f s)\n", r->seed, bound,
		        trim__now() - dive_t0);
	/* exact ties: the index of the seed whose cost is the bound (k = 1) */
	r->seed_thr.cost = bound;
	r->seed_thr.idx_on = r->k == 1 && r->seeds.n == 1 && r->seeds.cost[0] == bound && r->gap == 0;
	r->seed_thr.idx = r->seeds.n ? r->seeds.idx[0] : 0;
	r->seed_thr.sec = r->seeds.n ? r->seeds.sec[0] : 0;
	r->nfc = 0; /* the plain loop has nothing left */
	return r->err = err;
}

/* The search statistics on stderr (TRIM_SEARCH_STATS). */
static void print_stats(const search_run *r)
{
	const search_worker *ws = r->ws;
	if (r->glob.n && r->top_lbs) {
		int64_t below = 0;
		for (int64_t i = 0; i < r->ntop; i++)
			below += r->top_lbs[i] <= r->glob.cost[0];
		fprintf(stderr, "search stats: %lld top nodes with a bound at most the best found\n", (long long)below);
	}
	uint64_t v[7] = {0}, jc = 0;
	for (int i = 0; i < r->nworkers; i++) {
		v[0] += ws[i].st_nodes, v[1] += ws[i].st_nodes_cut, v[2] += ws[i].st_leaves;
		v[3] += ws[i].st_leaves_cut, v[4] += ws[i].st_byp_cut, v[5] += ws[i].st_cls_cut;
		v[6] += ws[i].st_tie_cut;
		jc += ws[i].st_joint_cut;
	}
	for (int dd = 0; dd < TRIM__MAX_LEVELS; dd++) {
		uint64_t n = 0, c = 0;
		for (int i = 0; i < r->nworkers; i++)
			n += ws[i].st_d[dd], c += ws[i].st_dc[dd];
		if (n)
			fprintf(stderr, "search stats: depth %d: %llu nodes bounded, %llu cut\n", dd, (unsigned long long)n,
			        (unsigned long long)c);
	}
	fprintf(stderr, "search stats: top nodes %lld, nodes %llu (cut %llu), leaves %llu (cut whole %llu), "
	        "bypass choices cut %llu (ties %llu), classes cut %llu, seed bound %.6g\n", (long long)r->ntop,
	        (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
	        (unsigned long long)v[3], (unsigned long long)v[4], (unsigned long long)v[6], (unsigned long long)v[5],
	        r->seed);
	fprintf(stderr, "search stats: nodes cut by the joint order %llu\n", (unsigned long long)jc);
}

int trim__search_end(search_run *r, trim__search_result *out)
{
	const trim__mapspace *s = r->s;
	memset(out, 0, sizeof *out);
	out->max_pe_util = out->max_rf_util = -1;
	int err = r->err;
	search_worker *ws = r->ws;
	free(r->top);
	r->top = NULL;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		free(r->trows[d]);
		r->trows[d] = NULL;
	}
	/* rounds: every item of a round sees the bound reached at the end of
	 * the previous rounds (and its own mappings), so the work done, and the
	 * counts, do not depend on the number of threads */
	const trim__index round = 512, nfc = ws ? r->nfc : 0;
	double bound = r->seed_thr.cost;
	for (trim__index r0 = 0; r0 < nfc && !err; r0 += round) {
		if (trim__worker_stop(&ws[0])) {
			/* what is left is bounded by the root's bound */
			double lb;
			trim__space_mapping_init(s, &ws[0].node_mapping);
			trim__mapspace_node_lb(s, r->costs, r->goal, 0, r->zero_macs, &ws[0].node_mapping, &ws[0].bound_eval,
			                       &lb, ws[0].stationary);
			trim__note_open(&ws[0], lb);
			break;
		}
		trim__index r1 = r0 + round < nfc ? r0 + round : nfc;
		double rb = bound * ws[0].cut_scale;
#pragma omp parallel for schedule(dynamic, 1) num_threads(r->threads)
		for (uint64_t k = 0; k < (uint64_t)(r1 - r0); k++) {
			search_worker *W = &ws[omp_get_thread_num()];
			if (!W->err)
				trim__search_factorisation(s, r->costs, r->goal, trim__combination_factorisation(s, r0 + k), rb,
				                           r->zero_macs, W);
		}
		merge_round(ws, r->threads, &r->glob, &r->glob_eval, &err);
		double gb = trim__top_bound(&r->glob);
		if (gb < bound && !s->nobound)
			bound = gb;
		if (nfc <= INT64_MAX) /* (a plain loop past 2^63 never ends anyway) */
			trim__search_progress(s, (int64_t)r1, (int64_t)nfc);
	}
	if (getenv("TRIM_SEARCH_STATS") && ws)
		print_stats(r);
	free(r->top_lbs);
	r->top_lbs = NULL;
	double open_lb = HUGE_VAL;
	int stopped = 0;
	for (int i = 0; ws && i < r->nworkers; i++)
		stopped |= ws[i].stopped;
	/* the tree ran to its end: what it cut is the distinct total less
	 * what it generated. Counted here, not before the tree: a large layer's
	 * count takes tenths of a second (AlexNet conv2 at batch 64 0.25 s), and
	 * a search whose time ran out during it had no tree and kept the root's
	 * bound (a network's searches given 0.08 s each: 11 of MobileNet-V1's 61
	 * on simba-like at batch 64 in training). Stopped by the clock, or past
	 * 2^64, it is not counted. */
	uint64_t dtotal = 0;
	if (ws && r->ntop > 0 && !stopped) {
		if (trim__mapspace_distinct_until(s, &dtotal, &ws[0]) != 0) {
			dtotal = 0;
			trim_clear_error();
		}
		ws[0].stopped = 0; /* the count's stop is not the search's */
	}
	for (int i = 0; ws && i < r->nworkers; i++) {
		search_worker *W = &ws[i];
		out->generated += W->cnt.generated;
		out->valid += W->cnt.valid;
		out->evaluated += W->cnt.evaluated;
		out->seed_evaluated += W->cnt.seed_evaluated;
		out->seed_sampled += W->cnt.seed_sampled;
		out->greedy_evaluated += W->cnt.greedy_evaluated;
		out->pruned += W->cnt.pruned;
		out->unsupported += W->cnt.unsupported;
		out->bounded += W->cnt.bounded;
		out->tie_cuts += W->cnt.tie_cuts;
		out->tie_nodes += W->cnt.tie_nodes;
		out->hint_used = r->hint_used;
		if (W->cnt.max_pe_util > out->max_pe_util)
			out->max_pe_util = W->cnt.max_pe_util;
		if (W->cnt.max_rf_util > out->max_rf_util)
			out->max_rf_util = W->cnt.max_rf_util;
		if (W->open_lb < open_lb)
			open_lb = W->open_lb;
		stopped |= W->stopped;
		trim__eval_ws_free(&W->ws);
		trim__tensor_cache_free(&W->tensor_counts);
		trim__top_free(&W->item);
		trim__top_free(&W->keep);
		trim__top_free(&W->node);
		trim__order_class_cache_free(&W->classes);
		trim__stationary_workspace_free(W->stationary);
		trim__factor_bound_free(&W->fbound);
		free(W->child_choices);
		free(W->leaf_figures);
		free(W->leaf_reuse);
		free(W->node_counts);
		free(W->result_energies);
	}
	free(ws);
	r->ws = NULL;
	top_list *glob = &r->glob;
	if (dtotal && !stopped) { /* cut subtrees: the distinct mappings not generated */
		out->bounded += dtotal - out->generated;
		out->generated = dtotal;
	}
	/* exact when nothing was left out; otherwise the seeds (real mappings)
	 * may be the best found, and the search is still exact when every node
	 * left open would be cut by the k-th best found (trim__cut: its bound,
	 * which carries its own rounding margin, above that cost): then no
	 * mapping left out costs as much, none can tie, and the k best are
	 * those of the search run to its end (docs/model.md, "Bounds"); with
	 * top nodes skipped (skip_done) the best may be the hint, whose node
	 * the tree did not search again */
	out->exact = !stopped && open_lb == HUGE_VAL;
	out->stopped = stopped;
	out->top_skipped = r->skipped;
	if (r->done && stopped) {
		out->top_done = r->done;
		out->top_done_n = r->ntop;
		memcpy(out->top_digest, r->top_digest, sizeof out->top_digest);
	} else {
		free(r->done);
	}
	r->done = NULL;
	if (!out->exact || r->skipped) {
		for (size_t j = 0; j < r->seeds.n; j++) {
			if (j == 0 && trim__top_first(glob, r->seeds.cost[0], r->seeds.sec[0], r->seeds.idx[0]))
				r->glob_eval = r->seed_eval;
			trim__top_put(glob, r->seeds.cost[j], r->seeds.sec[j], r->seeds.idx[j], &r->seeds.map[j]);
		}
		out->exact = open_lb > trim__top_bound(glob);
	}
	trim__top_free(&r->seeds);
	out->lower_bound = open_lb;
	for (size_t j = 0; !err && j < glob->n; j++)
		err = check_returned(s, &glob->map[j]);
	if (!err && glob->n) {
		out->found = 1;
		out->best_cost = glob->cost[0];
		out->best_index = glob->idx[0];
		out->best = glob->map[0];
		out->best_eval = r->glob_eval;
		if (out->best_cost < out->lower_bound)
			out->lower_bound = out->best_cost;
		if (s->topk > 1) {
			out->ntop = glob->n;
			out->top_cost = glob->cost;
			out->top_second = glob->sec;
			out->top_index = glob->idx;
			out->top = glob->map;
			memset(glob, 0, sizeof *glob);
			return 0;
		}
	}
	trim__top_free(glob);
	return err;
}

int trim__search(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                 trim__search_result *out)
{
	search_run r;
	int err = trim__search_begin(&r, s, costs, goal, threads, 0);
	if (!err && r.ntop > 0)
		search_top_nodes(&r);
	return trim__search_end(&r, out);
}
