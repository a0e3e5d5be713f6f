/*
 * The searches of a network evaluation (docs/model.md, "Network
 * evaluation"): one per distinct workload (a workload identical to an
 * earlier one in everything the search sees reuses its result), in parallel
 * over the distinct workloads when there are enough of them, within the
 * network's time budget.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "constraints/constraints_int.h"
#include "neteval_state.h"
#include "util/util.h"

static double now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int trim__neteval_in_range(const trim_neteval *ne, int layer)
{
	return ne->last_layer < 0 || (layer >= ne->first_layer && layer <= ne->last_layer);
}

/* The key of workload i: every field of the workload the mapspace, the
 * bounds and the evaluator read (not its names), and the buffer bytes its
 * cached activations reserve. Everything else the search sees (arch, table,
 * constraints, goal, options) is the evaluation's own, the same for all. */
static void workload_key(const trim_neteval *ne, size_t i, unsigned char *key)
{
	const trim__intra *x = trim__workloads_intra(ne->w, i);
	trim__digest d;
	trim__digest_init(&d);
	trim__digest_int(&d, "phase", x->phase);
	trim__digest_int(&d, "kind", x->kind);
	for (int k = 0; k < TRIM_NDIMS; k++)
		trim__digest_int(&d, "bound", x->bound[k]);
	for (int k = 0; k < 2; k++) {
		trim__digest_int(&d, "stride", x->stride[k]);
		trim__digest_int(&d, "dilation", x->dilation[k]);
	}
	trim__digest_int(&d, "macs", x->macs);
	trim__digest_int(&d, "zero_macs", x->zero_macs);
	trim__digest_int(&d, "act_zero_ok", x->act_zero_ok);
	trim__digest_int(&d, "act_zero_macs", x->act_zero_ok ? x->act_zero_macs : 0);
	for (int t = 0; t < 3; t++) {
		const trim__tensor *T = &x->t[t];
		trim__digest_int(&d, "present", T->present);
		trim__digest_int(&d, "ndims", T->ndims);
		for (int a = 0; a < T->ndims && a < TRIM__MAX_TDIMS; a++) {
			trim__digest_int(&d, "nterms", T->idx[a].nterms);
			for (int j = 0; j < T->idx[a].nterms && j < TRIM__MAX_TERMS; j++) {
				trim__digest_int(&d, "dim", T->idx[a].dim[j]);
				trim__digest_int(&d, "coef", T->idx[a].coef[j]);
			}
			trim__digest_int(&d, "extent", T->extent[a]);
		}
		trim__digest_int(&d, "elems", T->elems);
		trim__digest_int(&d, "has_zeros", T->has_zeros);
		for (int a = 0; T->has_zeros && a < 2; a++) {
			trim__digest_int(&d, "lo", T->zaxis[a].lo);
			trim__digest_int(&d, "hi", T->zaxis[a].hi);
			trim__digest_int(&d, "step", T->zaxis[a].step);
		}
		trim__digest_int(&d, "relevant", (int64_t)T->relevant);
	}
	trim__digest_int(&d, "reserved", ne->plan.glb > 0 ? ne->plan.reserved[i] : 0);
	trim__digest_final(&d, key);
}

/* The searches to run: keys, reuse, how many. */
static void plan_searches(trim_neteval *ne)
{
	ne->nsearch = 0;
	for (size_t i = 0; i < ne->n; i++) {
		wrec *r = &ne->rec[i];
		r->reused_from = -1;
		const trim__intra *x = trim__workloads_intra(ne->w, i);
		if (!trim__neteval_in_range(ne, x->layer_index))
			continue;
		workload_key(ne, i, r->key);
		for (size_t j = 0; ne->cache && j < i; j++)
			if (ne->rec[j].reused_from < 0 && !memcmp(ne->rec[j].key, r->key, sizeof r->key) &&
			    trim__neteval_in_range(ne, trim__workloads_intra(ne->w, j)->layer_index)) {
				r->reused_from = (long)j;
				break;
			}
		if (r->reused_from < 0)
			ne->nsearch++;
	}
	ne->planned = 1;
}

/* What a search may use of the rem seconds left when `waiting` searches
 * (of `left` not finished) have not started, each to run on `threads` of
 * the `slots` threads: all but half of the fair share of each waiting one
 * (so at least half of rem), so that a long search stops early, to be
 * searched again, only when the others would need more. */
static double after_reserve(double rem, int64_t waiting, int64_t left, int threads, int slots)
{
	if (waiting <= 0 || left <= 0)
		return rem;
	const double half = rem * slots / threads / (double)left / 2;
	return rem - (double)waiting * half * threads / slots;
}

/* What remains of the network's time limit for the searches to use, less
 * what the `left` searches will take beyond their limits (set-up and
 * stopping), at the mean of those finished so far. */
static double remaining(const trim_neteval *ne, double now, int64_t left)
{
	double rem = ne->deadline - now;
	const int64_t n = __atomic_load_n(&ne->over_n, __ATOMIC_RELAXED);
	const double over = (double)__atomic_load_n(&ne->over_ns, __ATOMIC_RELAXED) * 1e-9;
	if (n > 0 && left > 0)
		rem -= (double)left * over / (double)n;
	return rem;
}

double trim__neteval_search_budget(const trim_neteval *ne, int64_t left, int threads, int slots)
{
	if (ne->time_limit <= 0)
		return 0;
	double rem = remaining(ne, now_seconds(), left);
	double share = left > 0 ? rem * slots / threads / (double)left : rem;
	double most = after_reserve(rem, left - 1, left, threads, slots);
	/* and at least half of each waiting one's fair share of the whole
	 * limit, so that what a search leaves does not shrink geometrically
	 * (the first of 29 taking half, the next half of the rest...: the last
	 * ones got nothing and returned their first sampled mapping) */
	if (ne->nsearch > 0 && left > 1) {
		const double half0 = ne->time_limit * slots / threads / (double)ne->nsearch / 2;
		const double kept = rem - (double)(left - 1) * half0 * threads / slots;
		if (kept < most)
			most = kept;
	}
	if (share < most)
		share = most;
	if (share > rem)
		share = rem;
	return share > 1e-6 ? share : 1e-6; /* 0 would mean no limit */
}

/* With a time limit, searches running side by side: a search that ends
 * leaves its time to the others (lib/neteval/neteval_state.h). */
void trim__neteval_share_deadlines(trim_neteval *ne, int64_t started, int slots)
{
	double now = now_seconds();
	int64_t running = 0;
	for (size_t j = 0; j < ne->n; j++)
		running += ne->rec[j].running;
	const int64_t waiting = ne->share_total - started;
	int64_t left = waiting + running;
	if (left < 1)
		left = 1;
	const double rem = remaining(ne, now, (waiting + running + slots - 1) / slots);
	double at = now + rem * slots / (double)left;
	/* and up to the network's deadline less the slices kept for the
	 * searches waiting for the threads (all of it once every search has
	 * started, none waiting), unless a test forces the first pass's share */
	if (ne->first_share <= 0 && now + after_reserve(rem, waiting, left, 1, slots) > at)
		at = now + after_reserve(rem, waiting, left, 1, slots);
	/* but never into half of each waiting one's fair share of the whole
	 * limit (as trim__neteval_search_budget): otherwise each pair of
	 * searches running side by side took half of what the pair before
	 * left, and the last searches of AlexNet's 29 (training, batch 64, 3 s
	 * on 2 threads) got nothing and returned their first mapping, 50 times
	 * slower than a tenth of a second of search finds */
	if (ne->nsearch > 0 && waiting > 0) {
		const double cap = ne->deadline - (double)waiting * ne->time_limit / (2.0 * (double)ne->nsearch);
		if (at > cap)
			at = cap;
	}
	if (at > ne->deadline)
		at = ne->deadline;
	for (size_t j = 0; j < ne->n; j++) {
		wrec *r = &ne->rec[j];
		double cur;
		__atomic_load(&r->deadline_at, &cur, __ATOMIC_RELAXED);
		if (r->running && at > cur)
			__atomic_store(&r->deadline_at, &at, __ATOMIC_RELAXED);
	}
}

int trim__neteval_search_prepare(trim_neteval *ne, size_t i, double limit, trim__mapspace *space,
                                 trim__search_result **resp, int *rcp)
{
	*rcp = 0;
	wrec *r = &ne->rec[i];
	const trim__intra *x = trim__workloads_intra(ne->w, i);
	*resp = NULL;
	if (ne->out_dir && !r->retry) {
		int got = trim__resume_load(ne, i);
		if (got > 0) {
			__atomic_add_fetch(&ne->resumed, 1, __ATOMIC_RELAXED);
			__atomic_add_fetch(&ne->searches_done, 1, __ATOMIC_RELAXED);
			return 1;
		}
		if (got < 0)
			__atomic_add_fetch(&ne->stale, 1, __ATOMIC_RELAXED);
	}
	r->began = now_seconds();
	r->granted = limit;
	trim__search_result *res = trim__calloc(1, sizeof *res);
	int rc = res ? trim__mapspace_init(space, x, ne->arch) : TRIM_ENOMEM;
	if (!res || rc) {
		free(res);
		if (rc) {
			char what[160];
			snprintf(what, sizeof what, "%s %s", x->layer, trim_phase_name(x->phase));
			trim__error_prefix(what);
		}
		r->search_rc = rc ? rc : TRIM_ENOMEM;
		snprintf(r->search_msg, sizeof r->search_msg, "%s", trim_last_error());
		r->searched = 1;
		__atomic_add_fetch(&ne->searches_done, 1, __ATOMIC_RELAXED);
		return 1;
	}
	*resp = res;
	if (ne->imperfect && (rc = trim__mapspace_set_imperfect(space, 1))) {
		*rcp = rc;
		return 0;
	}
	if (ne->plan.glb > 0)
		space->reserved[ne->plan.glb] = ne->plan.reserved[i];
	space->min_pe_util = ne->min_pe_util;
	space->min_rf_util = ne->min_rf_util;
	space->time_limit = limit;
	space->gap = ne->gap;
	space->stop_after = ne->stop_after;
	if (r->retry && r->found) { /* searched again: from the first pass's best */
		space->hint_on = 1;
		space->hint_index = r->index;
		space->hint_cost = r->best_cost;
	}
	if (ne->done) { /* and without the top nodes it searched whole */
		const done_memo *dm = &ne->done[i];
		space->keep_done = !r->retry;
		if (r->retry && r->found && dm->done) {
			space->skip_top = dm->done;
			space->skip_ntop = dm->n;
			memcpy(space->skip_digest, dm->digest, sizeof dm->digest);
		}
	}
	if (limit > 0 && ne->share_slots > 0) {
		/* searches side by side: a deadline the others' ends extend */
		double at = now_seconds() + limit;
#pragma omp critical
		{
			__atomic_store(&r->deadline_at, &at, __ATOMIC_RELAXED);
			r->running = 1;
			/* the last search to start lifts every running one's deadline */
			trim__neteval_share_deadlines(ne, __atomic_load_n(&ne->started, __ATOMIC_RELAXED), ne->share_slots);
		}
		space->deadline_at = &r->deadline_at;
	}
	if ((rc = trim__mapspace_constrain(ne->cons, space))) {
		char what[160];
		snprintf(what, sizeof what, "%s %s", x->layer, trim_phase_name(x->phase));
		trim__error_prefix(what);
	}
	if (rc == 0 && ne->max_mappings > 0) {
		uint64_t distinct = 0;
		rc = trim__mapspace_distinct(space, &distinct);
		if (rc == 0 && distinct > (uint64_t)ne->max_mappings)
			rc = trim__error(TRIM_ERANGE, "%s %s: %llu distinct mappings, more than the limit of %lld", x->layer,
			                 trim_phase_name(x->phase), (unsigned long long)distinct, (long long)ne->max_mappings);
	}
	*rcp = rc;
	return 0;
}

void trim__neteval_search_finish(trim_neteval *ne, size_t i, int threads, trim__mapspace *space,
                                 trim__search_result *res, int rc)
{
	wrec *r = &ne->rec[i];
	const trim__intra *x = trim__workloads_intra(ne->w, i);
	if (r->granted > 0 && space->deadline_at == NULL) {
		/* the seconds beyond its limit (searches side by side have moving
		 * deadlines: theirs are not counted) */
		double over = now_seconds() - r->began - r->granted;
		__atomic_add_fetch(&ne->over_ns, (int64_t)((over > 0 ? over : 0) * 1e9), __ATOMIC_RELAXED);
		__atomic_add_fetch(&ne->over_n, 1, __ATOMIC_RELAXED);
	}
	if (space->deadline_at) {
#pragma omp critical
		{
			r->running = 0;
			trim__neteval_share_deadlines(ne, __atomic_load_n(&ne->started, __ATOMIC_RELAXED), ne->share_slots);
		}
	}
	if (rc == 0 && !res->found) {
		char *why = NULL;
		if (!res->stopped)
			trim__search_why_empty(space, ne->costs, ne->goal, threads, ne->cons, NULL, res, &why);
		rc = res->stopped ? trim__error(TRIM_ENOFIT, "%s %s: no mapping found within the time limit on %s", x->layer,
		                                trim_phase_name(x->phase), ne->arch->name)
		                  : trim__error(TRIM_ENOFIT, "%s %s: no mapping fits %s: %s", x->layer,
		                                trim_phase_name(x->phase), ne->arch->name, why ? why : "");
		free(why);
	}
	if (rc == 0) {
		r->found = 1;
		r->best = res->best;
		r->index = res->best_index;
		r->dense = res->best_eval;
		r->generated = res->generated;
		r->valid = res->valid;
		r->evaluated = res->evaluated;
		r->exact = res->exact;
		r->stopped = res->stopped;
		r->best_cost = res->best_cost;
		r->lower_bound = res->lower_bound;
		if (ne->out_dir && (rc = trim__resume_save(ne, i)))
			snprintf(r->search_msg, sizeof r->search_msg, "%s", trim_last_error());
	} else {
		snprintf(r->search_msg, sizeof r->search_msg, "%s", trim_last_error());
	}
	r->search_rc = rc;
	if (ne->done) {
		done_memo *dm = &ne->done[i];
		if (r->retry || res->top_done) { /* used by this search's start, or the first pass's */
			free(dm->done);
			dm->done = res->top_done;
			dm->n = res->top_done_n;
			memcpy(dm->digest, res->top_digest, sizeof dm->digest);
			res->top_done = NULL;
		}
	}
	trim__mapspace_free(space);
	free(res->top_done);
	free(res);
	r->searched = 1;
	__atomic_add_fetch(&ne->searches_done, 1, __ATOMIC_RELAXED);
}

/* Search workload i (not a reuse) with `threads` threads and time limit
 * `limit`; the result into its record. */
static void search_one(trim_neteval *ne, size_t i, int threads, double limit)
{
	trim__mapspace space;
	trim__search_result *res;
	int rc;
	if (trim__neteval_search_prepare(ne, i, limit, &space, &res, &rc))
		return;
	if (rc == 0)
		rc = trim__search(&space, ne->costs, ne->goal, threads, res);
	trim__neteval_search_finish(ne, i, threads, &space, res, rc);
}

size_t trim__neteval_retry_pick(const trim_neteval *ne, size_t *order, size_t m, double fit)
{
	if (fit >= (double)m)
		return m;
	for (size_t k = 1; k < m; k++) { /* by gap, largest first; the network's order among equals */
		const size_t v = order[k];
		const double g = ne->rec[v].best_cost - ne->rec[v].lower_bound;
		size_t j = k;
		while (j > 0 && ne->rec[order[j - 1]].best_cost - ne->rec[order[j - 1]].lower_bound < g)
			order[j] = order[j - 1], j--;
		order[j] = v;
	}
	return fit >= 1 ? (size_t)fit : 0;
}

/* With a time limit, the searches that stopped at their share while the
 * others left time are searched again, side by side, with what is left of
 * the network's (a later deadline explores a superset of the same tree, so
 * the answer is at least as good and the bound at least as high); a record
 * keeps its first result unless the new one ranks before it on (cost,
 * second figure, index), or is the same mapping with a bound as high. */
static void retry_stopped(trim_neteval *ne, size_t *order, size_t m0)
{
	if (ne->time_limit <= 0)
		return;
	size_t m = 0;
	for (size_t k = 0; k < m0; k++) {
		const wrec *r = &ne->rec[order[k]];
		if (r->searched && r->search_rc == 0 && r->found && r->stopped && !r->exact)
			order[m++] = order[k];
	}
	m = trim__neteval_retry_pick(ne, order, m, (ne->deadline - now_seconds()) * ne->threads);
	if (!m)
		return;
	wrec *old = malloc(m * sizeof *old);
	if (!old)
		return;
	__atomic_sub_fetch(&ne->searches_done, (int64_t)m, __ATOMIC_RELAXED); /* counted again */
	for (size_t k = 0; k < m; k++) {
		wrec *r = &ne->rec[order[k]];
		old[k] = *r;
		r->searched = 0;
		r->retry = 1;
	}
	ne->started = 0;
	ne->share_total = (int64_t)m;
	ne->share_slots = ne->threads;
	trim__neteval_pool(ne, order, m);
	ne->share_slots = 0;
	for (size_t k = 0; k < m; k++) {
		wrec *r = &ne->rec[order[k]];
		/* the search's order: (cost, second figure, index) */
		const double sec = trim__goal_second(&r->dense, ne->goal), old_sec = trim__goal_second(&old[k].dense, ne->goal);
		const int same = r->best_cost == old[k].best_cost && sec == old_sec && r->index == old[k].index;
		if (r->search_rc || !r->found ||
		    trim__better(old[k].best_cost, old_sec, old[k].index, r->best_cost, sec, r->index, 1) ||
		    (same && r->lower_bound < old[k].lower_bound)) {
			*r = old[k]; /* the first result stays, on disk too */
			if (ne->out_dir)
				(void)trim__resume_save(ne, order[k]);
		}
		r->retry = 0;
		r->searched = 1;
	}
	free(old);
}

/* The size of workload i's search for the order of a time-limited pool:
 * its distinct mappings under the constraints (a fully connected layer at
 * batch 64 has the most MACs of AlexNet-Cifar and one of its smallest
 * spaces, searched in a tenth of a second); 2^64 for a count above it, its
 * MACs if the space cannot be built (the search then says why). */
static double search_size(const trim_neteval *ne, size_t i)
{
	const trim__intra *x = trim__workloads_intra(ne->w, i);
	trim__mapspace space;
	uint64_t n = 0;
	double size = (double)x->macs;
	if (trim__mapspace_init(&space, x, ne->arch) == 0) {
		if (trim__mapspace_constrain(ne->cons, &space) == 0) {
			int rc = trim__mapspace_distinct(&space, &n);
			size = rc == 0 ? (double)n : rc == TRIM_ERANGE ? 0x1p64 : size; /* ERANGE: over 2^64 */
		}
		trim__mapspace_free(&space);
	}
	return size;
}

/* With enough distinct workloads, search them all at once, one thread
 * each: every search's result is the same for any thread count, so the
 * records are too. */
size_t trim__neteval_search_order(const trim_neteval *ne, size_t *order)
{
	size_t m = 0;
	double *size = malloc((ne->n ? ne->n : 1) * sizeof *size);
	if (!size)
		return SIZE_MAX;
	for (size_t i = 0; i < ne->n; i++) {
		const wrec *r = &ne->rec[i];
		if (r->reused_from >= 0 || !trim__neteval_in_range(ne, trim__workloads_intra(ne->w, i)->layer_index))
			continue;
		/* without a time limit the largest first (MACs: the longest
		 * searches, for the wall time); with one the smallest first
		 * (distinct mappings), so that what they leave of their share
		 * goes to the large ones after them */
		size[i] = ne->time_limit > 0 ? -search_size(ne, i) : (double)trim__workloads_intra(ne->w, i)->macs;
		size_t k = m++;
		while (k > 0 && size[order[k - 1]] < size[i])
			order[k] = order[k - 1], k--;
		order[k] = i;
	}
	free(size);
	return m;
}

static void search_parallel(trim_neteval *ne)
{
	size_t *order = malloc((ne->n ? ne->n : 1) * sizeof *order);
	const size_t m = order ? trim__neteval_search_order(ne, order) : SIZE_MAX;
	if (m == SIZE_MAX) {
		free(order);
		return; /* the steps search one by one */
	}
	ne->started = 0;
	ne->share_total = (int64_t)m;
	ne->share_slots = ne->threads;
	trim__neteval_pool(ne, order, m);
	ne->share_slots = 0;
	retry_stopped(ne, order, m);
	free(order);
}

/* One search after the other, in the network's order, each on every
 * thread (what the steps would do one at a time), then the stopped ones
 * again with the time the others left. */
static void search_in_order(trim_neteval *ne)
{
	size_t *order = malloc((ne->n ? ne->n : 1) * sizeof *order);
	if (!order)
		return; /* the steps search one by one */
	size_t m = 0;
	for (size_t i = 0; i < ne->n; i++) {
		wrec *r = &ne->rec[i];
		if (r->reused_from >= 0 || !trim__neteval_in_range(ne, trim__workloads_intra(ne->w, i)->layer_index))
			continue;
		order[m++] = i;
		if (!r->searched)
			trim__neteval_search_item(ne, i);
	}
	retry_stopped(ne, order, m);
	free(order);
}

void trim__neteval_plan(trim_neteval *ne)
{
	if (ne->planned)
		return;
	plan_searches(ne);
	trim__resume_stamp(ne); /* the resume files' and lib/work/'s results' */
	if (ne->time_limit > 0) {
		ne->deadline = now_seconds() + ne->time_limit;
		ne->done = calloc(ne->n ? ne->n : 1, sizeof *ne->done); /* NULL: retries search whole */
	}
}

void trim__neteval_search_item(trim_neteval *ne, size_t i)
{
	int64_t left = ne->nsearch - __atomic_load_n(&ne->searches_done, __ATOMIC_RELAXED);
	double limit = trim__neteval_search_budget(ne, left, ne->threads, ne->threads);
	if (ne->first_share > 0 && !ne->rec[i].retry)
		limit = ne->first_share;
	search_one(ne, i, ne->threads, limit);
}

int trim__neteval_search(trim_neteval *ne, size_t i)
{
	if (!ne->planned) {
		trim__neteval_plan(ne);
		if (ne->threads > 1 && ne->nsearch >= 2 * (int64_t)ne->threads)
			search_parallel(ne);
		else if (ne->time_limit > 0)
			search_in_order(ne);
	}
	wrec *r = &ne->rec[i];
	if (r->reused_from >= 0) {
		const wrec *o = &ne->rec[r->reused_from];
		if (!o->searched)
			return trim__error(TRIM_EINVAL, "network evaluation: workload %zu reuses %ld, not searched", i,
			                   r->reused_from);
		long from = r->reused_from;
		unsigned char key[TRIM__DIGEST_BYTES];
		memcpy(key, r->key, sizeof key);
		*r = *o;
		r->reused_from = from;
		memcpy(r->key, key, sizeof key);
	} else if (!r->searched) {
		trim__neteval_search_item(ne, i);
	}
	if (r->search_rc) {
		const trim__intra *x = trim__workloads_intra(ne->w, i);
		if (r->reused_from >= 0)
			return trim__error(r->search_rc, "%s (as %s %s)", r->search_msg, x->layer, trim_phase_name(x->phase));
		return trim__error(r->search_rc, "%s", r->search_msg);
	}
	return 0;
}
