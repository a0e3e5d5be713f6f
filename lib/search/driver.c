/*
 * trim__search: the exhaustive, deterministic OpenMP search (the tree's top
 * nodes in a sliding window, or plain rounds of factorisations), the merge
 * of the threads' results, the anytime stop and its proven lower bound, the
 * search statistics and the result.
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


/* The tree's top nodes, sorted by bound, are taken in order by the threads.
 * Node i is searched with the bound reached by the nodes before i - WINDOW
 * (and its own mappings): the work, every count and the result are the same
 * for any number of threads, and a thread waits only while the node WINDOW
 * places before its own is still running. */
enum { TOP_WINDOW = 4 };

typedef struct {
	int64_t n;
	size_t k;
	int64_t next;          /* the next node to take */
	int64_t prefix;        /* nodes [0, prefix) finished, their costs in prefix_list */
	int64_t cut_from;      /* the first node cut by its bound (every later one is too) */
	int abort;             /* a thread left on an error or a stop: nobody waits any more */
	double **node_costs;   /* per finished node not yet in the prefix: its k best costs */
	trim__index **node_idx; /* and their indices */
	size_t *node_ncosts;
	uint8_t *finished;
	double *prefix_bound;  /* [j]: the k-th best cost of nodes [0, j] (HUGE_VAL: fewer) */
	trim__index *prefix_idx; /* [j]: the index of that mapping (k = 1 and one found) */
	int *prefix_idx_on;
	top_list prefix_list;
	omp_lock_t lock;
	int locked;            /* lock initialised */
} top_schedule;

static int schedule_init(top_schedule *q, int64_t n, size_t k)
{
	memset(q, 0, sizeof *q);
	q->n = n;
	q->k = k;
	q->cut_from = n;
	q->node_costs = calloc((size_t)n, sizeof *q->node_costs);
	q->node_ncosts = calloc((size_t)n, sizeof *q->node_ncosts);
	q->node_idx = calloc((size_t)n, sizeof *q->node_idx);
	q->finished = calloc((size_t)n, 1);
	q->prefix_bound = malloc((size_t)n * sizeof *q->prefix_bound);
	q->prefix_idx = malloc((size_t)n * sizeof *q->prefix_idx);
	q->prefix_idx_on = malloc((size_t)n * sizeof *q->prefix_idx_on);
	if (!q->node_costs || !q->node_idx || !q->node_ncosts || !q->finished || !q->prefix_bound || !q->prefix_idx ||
	    !q->prefix_idx_on || trim__top_init(&q->prefix_list, k, 0))
		return TRIM_ENOMEM;
	omp_init_lock(&q->lock);
	q->locked = 1;
	return 0;
}

static void schedule_free(top_schedule *q)
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
}

/* Node i is done (W->keep: its mappings, none if it was cut): its mappings
 * into the global list, its costs into the prefix. */
static void schedule_finish(top_schedule *q, int64_t i, search_worker *W, top_list *glob, trim__eval *glob_eval)
{
	double *c = NULL;
	trim__index *x = NULL;
	if (W->keep.n && (!(c = malloc(W->keep.n * sizeof *c)) || !(x = malloc(W->keep.n * sizeof *x)))) {
		free(c);
		c = NULL;
		if (!W->err)
			W->err = TRIM_ENOMEM;
	}
	omp_set_lock(&q->lock);
	for (size_t j = 0; j < W->keep.n; j++) {
		if (j == 0 && trim__better(W->keep.cost[0], W->keep.idx[0], glob->n ? glob->cost[0] : 0,
		                           glob->n ? glob->idx[0] : 0, glob->n))
			*glob_eval = W->best_eval;
		trim__top_put(glob, W->keep.cost[j], W->keep.idx[j], &W->keep.map[j]);
		if (c) {
			c[j] = W->keep.cost[j];
			x[j] = W->keep.idx[j];
		}
	}
	q->node_costs[i] = c;
	q->node_idx[i] = x;
	q->node_ncosts[i] = c ? W->keep.n : 0;
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
	W->keep.n = 0;
}

/* The bound node i is searched with: the seed's and that of the nodes
 * before i - TOP_WINDOW (waiting for them); -1 when the search stopped (or
 * another thread failed) while waiting. */
static int schedule_bound(top_schedule *q, int64_t i, double seed, search_worker *W, double *rb)
{
	*rb = seed;
	W->rb_idx_on = W->seed_idx_on;
	W->rb_idx = W->seed_idx;
	if (i < TOP_WINDOW)
		return 0;
	const int64_t need = i - TOP_WINDOW + 1;
	while (__atomic_load_n(&q->prefix, __ATOMIC_ACQUIRE) < need) {
		if (trim__worker_stop(W) || __atomic_load_n(&q->abort, __ATOMIC_RELAXED))
			return -1;
		struct timespec ts = {0, 20000};
		nanosleep(&ts, NULL);
	}
	double pb = q->prefix_bound[i - TOP_WINDOW];
	const int pon = q->prefix_idx_on[i - TOP_WINDOW];
	const trim__index pidx = q->prefix_idx[i - TOP_WINDOW];
	if (pb < *rb) {
		*rb = pb;
		W->rb_idx_on = pon;
		W->rb_idx = pidx;
	} else if (pb == *rb && pon && W->rb_idx_on && pidx < W->rb_idx) {
		W->rb_idx = pidx;
	}
	return 0;
}

/* Every top node of the tree (sorted by bound), from the seed bound; the
 * first error into *err. */
static void search_top_nodes(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                             const tree_child *top, int64_t ntop, double seed, int64_t zero_macs, size_t k,
                             int threads, search_worker *ws, top_list *glob, trim__eval *glob_eval, int *err)
{
	top_schedule q;
	if (schedule_init(&q, ntop, k)) {
		schedule_free(&q);
		*err = trim__error(TRIM_ENOMEM, "search: out of memory");
		return;
	}
	progress_set(s, 0, ntop);
	int64_t done = 0;
#pragma omp parallel num_threads(threads)
	{
		search_worker *W = &ws[omp_get_thread_num()];
		for (;;) {
			int64_t i = __atomic_fetch_add(&q.next, 1, __ATOMIC_RELAXED);
			if (i >= ntop)
				break;
			if (W->err) {
				__atomic_store_n(&q.abort, 1, __ATOMIC_RELAXED);
				break;
			}
			if (i >= __atomic_load_n(&q.cut_from, __ATOMIC_RELAXED)) {
				schedule_finish(&q, i, W, glob, glob_eval); /* cut like the node before it */
				continue;
			}
			double rb;
			if (trim__worker_stop(W) || schedule_bound(&q, i, seed, W, &rb)) {
				/* sorted: no node after i has a smaller bound */
				trim__note_open(W, top[i].lb);
				__atomic_store_n(&q.abort, 1, __ATOMIC_RELAXED);
				break;
			}
			rb *= W->cut_scale;
			if (trim__cut(W, top[i].lb, rb)) {
				int64_t cf = __atomic_load_n(&q.cut_from, __ATOMIC_RELAXED);
				while (i < cf && !__atomic_compare_exchange_n(&q.cut_from, &cf, i, 0, __ATOMIC_RELAXED,
				                                              __ATOMIC_RELAXED))
					;
				schedule_finish(&q, i, W, glob, glob_eval);
				continue;
			}
			W->keep.n = 0;
			W->node.n = 0;
			trim__tree_search_node(s, trows, costs, goal, 1, top[i].lo, top[i].hi, rb, zero_macs, W);
			schedule_finish(&q, i, W, glob, glob_eval);
			int64_t d = __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
			progress_set(s, d, ntop);
		}
	}
	for (int i = 0; i < threads; i++)
		if (ws[i].err && !*err)
			*err = ws[i].err;
	progress_set(s, ntop, ntop);
	schedule_free(&q);
}

/* A better seed: from each of the first DIVES top nodes (by bound), the
 * best-first path down to the first factorisation with a mapping that can
 * beat the bound (at most DIVE_LEAVES factorisations searched whole). Real mappings (class representatives) into seeds; the work is not
 * counted (the search proper counts it again). Single-threaded: the same
 * for any thread count. Returns the seeds' k-th best cost. */
enum { DIVES = 8, DIVE_LEAVES = 64 };
static double dive_seeds(const trim__mapspace *s, int64_t *const *trows, const trim__level_cost *costs, int goal,
                         const tree_child *top, int64_t ntop, double bound, int64_t zero_macs, search_worker *W,
                         top_list *seeds, trim__eval *seed_eval)
{
	const trim__search_result cnt = W->cnt;
	uint64_t st[6] = {W->st_nodes, W->st_nodes_cut, W->st_leaves, W->st_leaves_cut, W->st_byp_cut, W->st_cls_cut};
	uint64_t st_d[TRIM__MAX_LEVELS], st_dc[TRIM__MAX_LEVELS];
	memcpy(st_d, W->st_d, sizeof st_d);
	memcpy(st_dc, W->st_dc, sizeof st_dc);
	for (int64_t i = 0; i < ntop && i < DIVES && !W->err && top[i].lb <= bound; i++) {
		W->keep.n = 0;
		W->node.n = 0;
		W->dive_leaves = DIVE_LEAVES;
		trim__tree_visit(s, trows, costs, goal, 1, top[i].lo, top[i].hi, bound, zero_macs, 1, W);
		for (size_t j = 0; j < W->keep.n; j++) {
			if (j == 0 && trim__better(W->keep.cost[0], W->keep.idx[0], seeds->n ? seeds->cost[0] : 0,
			                           seeds->n ? seeds->idx[0] : 0, seeds->n))
				*seed_eval = W->best_eval;
			trim__top_put(seeds, W->keep.cost[j], W->keep.idx[j], &W->keep.map[j]);
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

int trim__search(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                 trim__search_result *out)
{
	memset(out, 0, sizeof *out);
	out->max_pe_util = out->max_rf_util = -1;
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
	const double gap = s->nobound ? 0 : s->gap;
	const double deadline = s->time_limit > 0 ? trim__now() + s->time_limit : 0;
	search_worker *ws = calloc((size_t)threads, sizeof *ws);
	top_list glob = {0}, seeds = {0};
	trim__eval glob_eval, seed_eval;
	if (!ws || trim__top_init(&glob, k, 1) || trim__top_init(&seeds, k, 1)) {
		free(ws);
		trim__top_free(&glob);
		trim__top_free(&seeds);
		return trim__error(TRIM_ENOMEM, "search: out of memory");
	}
	for (int i = 0; i < threads; i++) {
		search_worker *W = &ws[i];
		W->cut_scale = gap > 0 && gap < 1 ? 1 - gap : 1;
		W->deadline = deadline;
		W->stop = s->stop;
		W->open_lb = HUGE_VAL;
		W->cnt.max_pe_util = W->cnt.max_rf_util = -1;
		trim__factor_bound_plan(s, &W->fbound);
		if (trim__top_init(&W->item, k, 0) || trim__top_init(&W->keep, k, 1) ||
		    trim__top_init(&W->node, k, 0) || trim__order_class_cache_init(&W->classes, s))
			err = trim__error(TRIM_ENOMEM, "search: out of memory");
	}
	double bound = HUGE_VAL;
	if (!err && !s->nobound)
		bound = trim__seed_bound(s, costs, goal, nfc, zero_macs, &ws[0], &seeds, &seed_eval);
	const double seed = bound;
	/* branch and bound over partial factorisations: the factors of slot 0
	 * for every dim, then slot 1, ...; needs the distinct total (what is cut
	 * is counted from it) */
	uint64_t dtotal = 0;
	double *top_lbs = NULL; /* TRIM_SEARCH_STATS: the top nodes' bounds */
	int64_t ntop_all = 0;
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
		if (getenv("TRIM_SEARCH_STATS") && (top_lbs = malloc((size_t)ntop * sizeof *top_lbs))) {
			ntop_all = ntop;
			for (int64_t i = 0; i < ntop; i++)
				top_lbs[i] = top[i].lb;
		}
		if (getenv("TRIM_SEARCH_STATS") && ntop > 0) {
			const double q[] = {0, 0.01, 0.1, 0.25, 0.5, 0.75, 1};
			fprintf(stderr, "search stats: top node bounds (quantiles):");
			for (int j = 0; j < 7; j++)
				fprintf(stderr, " %.4g", top[(int64_t)(q[j] * (double)(ntop - 1))].lb);
			int64_t fin = 0;
			while (fin < ntop && top[fin].lb < HUGE_VAL)
				fin++;
			fprintf(stderr, " (%lld finite)\n", (long long)fin);
		}
		bound = dive_seeds(s, trows, costs, goal, top, ntop, bound, zero_macs, &ws[0], &seeds, &seed_eval);
		if (getenv("TRIM_SEARCH_STATS"))
			fprintf(stderr, "search stats: seed bound %.6g, after the dives %.6g\n", seed, bound);
		/* exact ties: the index of the seed whose cost is the bound (k = 1) */
		for (int i = 0; i < threads; i++) {
			ws[i].seed_idx_on = k == 1 && seeds.n == 1 && seeds.cost[0] == bound && gap == 0;
			ws[i].seed_idx = seeds.n ? seeds.idx[0] : 0;
		}
		search_top_nodes(s, trows, costs, goal, top, ntop, bound, zero_macs, k, threads, ws, &glob, &glob_eval,
		                 &err);
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
		if (trim__worker_stop(&ws[0])) {
			/* what is left is bounded by the root's bound */
			double lb;
			trim__space_mapping_init(s, &ws[0].node_mapping);
			trim__mapspace_node_lb(s, costs, goal, 0, zero_macs, &ws[0].node_mapping, &ws[0].bound_eval, &lb);
			trim__note_open(&ws[0], lb);
			break;
		}
		uint64_t r1 = r0 + round < nfc ? r0 + round : nfc;
		double rb = bound * ws[0].cut_scale;
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
	if (getenv("TRIM_SEARCH_STATS") && glob.n && top_lbs) {
		int64_t below = 0;
		for (int64_t i = 0; i < ntop_all; i++)
			below += top_lbs[i] <= glob.cost[0];
		fprintf(stderr, "search stats: %lld top nodes with a bound at most the best found\n", (long long)below);
	}
	free(top_lbs);
	if (getenv("TRIM_SEARCH_STATS")) {
		uint64_t v[7] = {0};
		for (int i = 0; i < threads; i++) {
			v[0] += ws[i].st_nodes, v[1] += ws[i].st_nodes_cut, v[2] += ws[i].st_leaves;
			v[3] += ws[i].st_leaves_cut, v[4] += ws[i].st_byp_cut, v[5] += ws[i].st_cls_cut;
			v[6] += ws[i].st_tie_cut;
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
		        "bypass choices cut %llu (ties %llu), classes cut %llu, seed bound %.6g\n", (long long)ntop,
		        (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
		        (unsigned long long)v[3], (unsigned long long)v[4], (unsigned long long)v[6], (unsigned long long)v[5],
		        seed);
	}
	double open_lb = HUGE_VAL;
	int stopped = 0;
	for (int i = 0; i < threads; i++) {
		search_worker *W = &ws[i];
		out->generated += W->cnt.generated;
		out->valid += W->cnt.valid;
		out->evaluated += W->cnt.evaluated;
		out->pruned += W->cnt.pruned;
		out->unsupported += W->cnt.unsupported;
		out->bounded += W->cnt.bounded;
		out->tie_cuts += W->cnt.tie_cuts;
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
		free(W->child_choices);
		free(W->result_energies);
	}
	free(ws);
	if (dtotal && ntop > 0 && !stopped) { /* cut subtrees: the distinct mappings not generated */
		out->bounded += dtotal - out->generated;
		out->generated = dtotal;
	}
	/* exact unless something that could have ranked first was left out:
	 * then the seeds (real mappings) may be the best found */
	out->exact = !stopped && open_lb == HUGE_VAL;
	out->stopped = stopped;
	if (!out->exact)
		for (size_t j = 0; j < seeds.n; j++) {
			if (j == 0 && trim__better(seeds.cost[0], seeds.idx[0], glob.n ? glob.cost[0] : 0,
			                           glob.n ? glob.idx[0] : 0, glob.n))
				glob_eval = seed_eval;
			trim__top_put(&glob, seeds.cost[j], seeds.idx[j], &seeds.map[j]);
		}
	trim__top_free(&seeds);
	out->lower_bound = open_lb;
	for (size_t j = 0; !err && j < glob.n; j++)
		err = check_returned(s, &glob.map[j]);
	if (!err && glob.n) {
		out->found = 1;
		out->best_cost = glob.cost[0];
		out->best_index = glob.idx[0];
		out->best = glob.map[0];
		out->best_eval = glob_eval;
		if (out->best_cost < out->lower_bound)
			out->lower_bound = out->best_cost;
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
