/*
 * A network's distinct searches side by side on its threads, with their
 * top nodes in one pool (docs/model.md, "Network evaluation"). A thread
 * begins the next search while fewer searches than threads hand out
 * nodes, else takes the next top node of the running search the fewest
 * threads work on whose threshold is known (the window of
 * lib/search/share.c: the nodes TRIM__TOP_WINDOW places before it are
 * finished), else begins the next search (at most two per thread at
 * once, which bounds the memory), else waits briefly. So every search has
 * a thread of its own while others wait, the threads that finish the short
 * searches help the long ones, and a network's wall time is its CPU time
 * over the threads rather than its longest search. Each search's work,
 * counts and result are those of trim__search alone: a node's threshold
 * depends on its search's finished prefix only, whoever runs it.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "neteval_state.h"
#include "search/search_int.h"

typedef struct {
	size_t rec;                 /* the workload */
	trim__mapspace space;
	trim__search_result *res;
	int rc;                     /* set-up or search error */
	search_run run;
	top_schedule q;
	int has_run, has_q;         /* made (trim__search_end / trim__schedule_free to do) */
	int begun;                  /* its nodes may be handed out */
	int stopping;               /* none handed out any more (all taken, stopped, failed) */
	int ending;                 /* a thread is ending it */
	int running;                /* its nodes being searched */
} pool_search;

typedef struct {
	trim_neteval *ne;
	const size_t *order;
	size_t m, next;             /* searches to begin (in this order), the next one */
	pool_search **act;          /* the active searches, oldest first */
	int nact, maxact;
	pool_state *st;             /* next_job's view of them (maxact) */
	int *pick;                  /* and its order (maxact) */
	omp_lock_t lock;
} search_pool;

enum { JOB_WAIT, JOB_BEGIN, JOB_NODE, JOB_END, JOB_EXIT };

typedef struct {
	int kind;
	pool_search *S;
	int64_t node;
	top_threshold t;
} pool_job;

/* Node i of S is finished on W (W->keep: its mappings, none if cut). */
static void node_finished(pool_search *S, int64_t i, search_worker *W)
{
	int rc = trim__schedule_finish(&S->q, i, &W->keep, &W->best_eval, &S->run.glob, &S->run.glob_eval);
	if (rc && !W->err)
		W->err = rc;
	W->keep.n = 0;
}

/* Under the lock: S's next node for thread tid (1, into *j), or 0 when
 * none is ready now; S stops handing out once they are all taken, it is
 * stopped or it failed (trim__schedule_take). */
static int next_node(pool_search *S, int tid, pool_job *j)
{
	search_worker *W = &S->run.ws[tid];
	if (S->stopping)
		return 0;
	const int got = W->err ? 2 : trim__schedule_take(&S->q, &S->run, W, &j->node, &j->t);
	if (got == 2)
		S->stopping = 1;
	if (got != 1)
		return 0;
	S->running++;
	j->kind = JOB_NODE;
	j->S = S;
	return 1;
}

/* Under the lock: the next search begun, into *j (1), if the pool holds
 * room for it. */
static int begin_next(search_pool *P, pool_job *j)
{
	if (P->nact >= P->maxact || P->next >= P->m)
		return 0;
	pool_search *S = calloc(1, sizeof *S);
	if (!S)
		return 0;
	S->rec = P->order[P->next++];
	P->act[P->nact++] = S;
	j->kind = JOB_BEGIN;
	j->S = S;
	return 1;
}

/* lib/neteval/neteval_state.h */
int trim__pool_order(int nact, const pool_state *st, int threads, int can_begin, int *order)
{
	int live = 0, n = 0;
	for (int a = 0; a < nact; a++)
		live += !st[a].stopping && !st[a].ending;
	if (live < threads && can_begin)
		return -1;
	for (int load = 0; load <= threads; load++)
		for (int a = 0; a < nact; a++)
			if (st[a].begun && !st[a].stopping && !st[a].ending && st[a].running == load)
				order[n++] = a;
	return n;
}

/* Under the lock: the next job of thread tid (the order of
 * trim__pool_order; a search stopped with no node running ends first). */
static void next_job(search_pool *P, int tid, pool_job *j)
{
	memset(j, 0, sizeof *j);
	pool_state *st = P->st;
	int *order = P->pick;
	for (int a = 0; a < P->nact; a++) {
		pool_search *S = P->act[a];
		if (S->begun && S->stopping && !S->ending && S->running == 0) {
			S->ending = 1;
			j->kind = JOB_END;
			j->S = S;
			return;
		}
		st[a] = (pool_state){S->begun, S->stopping, S->ending, S->running};
	}
	const int can_begin = P->nact < P->maxact && P->next < P->m;
	int n = trim__pool_order(P->nact, st, P->ne->threads, can_begin, order);
	if (n < 0) {
		if (begin_next(P, j))
			return;
		n = trim__pool_order(P->nact, st, P->ne->threads, 0, order); /* out of memory: help the others */
	}
	for (int k = 0; k < n; k++) {
		pool_search *S = P->act[order[k]];
		if (next_node(S, tid, j))
			return;
		if (S->stopping && S->running == 0) { /* none left to hand out */
			S->ending = 1;
			j->kind = JOB_END;
			j->S = S;
			return;
		}
	}
	if (begin_next(P, j))
		return;
	j->kind = P->nact == 0 && P->next >= P->m ? JOB_EXIT : JOB_WAIT;
}

static void drop(search_pool *P, pool_search *S)
{
	for (int a = 0; a < P->nact; a++)
		if (P->act[a] == S) {
			memmove(P->act + a, P->act + a + 1, (size_t)(P->nact - a - 1) * sizeof *P->act);
			P->nact--;
			break;
		}
	free(S);
}

/* Outside the lock: S's set-up and the search up to its top nodes. 1 when
 * the record is already complete (read back, or its space failed). */
static int begin_search(search_pool *P, pool_search *S)
{
	trim_neteval *ne = P->ne;
	int64_t started = __atomic_fetch_add(&ne->started, 1, __ATOMIC_RELAXED);
	double limit = trim__neteval_search_budget(ne, (int64_t)P->m - started, 1, ne->threads);
	if (ne->first_share > 0 && !ne->rec[S->rec].retry)
		limit = ne->first_share;
	if (trim__neteval_search_prepare(ne, S->rec, limit, &S->space, &S->res, &S->rc))
		return 1;
	if (S->rc == 0) {
		__atomic_add_fetch(&ne->pooled, 1, __ATOMIC_RELAXED);
		S->rc = trim__search_begin(&S->run, &S->space, ne->costs, ne->goal, ne->threads, 0);
		S->has_run = 1;
		if (S->rc == 0 && S->run.ntop > 0) {
			if (trim__schedule_init(&S->q, S->run.ntop, S->run.k))
				S->rc = trim__error(TRIM_ENOMEM, "search: out of memory");
			S->has_q = 1;
			trim__search_progress(&S->space, 0, S->run.ntop);
		}
	}
	return 0;
}

/* Outside the lock: the search's end (the plain rounds of a search without
 * a tree, the counts, the result) and its record. */
static void end_search(search_pool *P, pool_search *S)
{
	int rc = S->rc;
	if (S->has_run) {
		search_run *r = &S->run;
		for (int i = 0; i < r->threads; i++)
			if (r->ws[i].err && !r->err)
				r->err = r->ws[i].err;
		if (S->has_q)
			trim__search_progress(&S->space, r->ntop, r->ntop);
		int e = trim__search_end(r, S->res);
		if (!rc)
			rc = e;
	}
	if (S->has_q)
		trim__schedule_free(&S->q);
	trim__neteval_search_finish(P->ne, S->rec, 1, &S->space, S->res, rc);
}

void trim__neteval_pool(trim_neteval *ne, const size_t *order, size_t m)
{
	search_pool P;
	memset(&P, 0, sizeof P);
	P.ne = ne;
	P.order = order;
	P.m = m;
	P.maxact = 2 * ne->threads;
	P.act = calloc((size_t)P.maxact, sizeof *P.act);
	P.st = calloc((size_t)P.maxact, sizeof *P.st);
	P.pick = calloc((size_t)P.maxact, sizeof *P.pick);
	if (!P.act || !P.st || !P.pick) { /* one search after the other, each on every thread */
		free(P.act);
		free(P.st);
		free(P.pick);
		for (size_t k = 0; k < m; k++)
			trim__neteval_search_item(ne, order[k]);
		return;
	}
	omp_init_lock(&P.lock);
#pragma omp parallel num_threads(ne->threads)
	{
		const int tid = omp_get_thread_num();
		for (;;) {
			pool_job j;
			omp_set_lock(&P.lock);
			next_job(&P, tid, &j);
			omp_unset_lock(&P.lock);
			if (j.kind == JOB_EXIT)
				break;
			if (j.kind == JOB_WAIT) {
				struct timespec ts = {0, 50000};
				nanosleep(&ts, NULL);
				continue;
			}
			pool_search *S = j.S;
			if (j.kind == JOB_BEGIN) {
				int complete = begin_search(&P, S);
				omp_set_lock(&P.lock);
				if (complete)
					drop(&P, S);
				else if (S->rc || !S->has_q)
					S->begun = S->stopping = 1; /* nothing to hand out: it ends */
				else
					S->begun = 1;
				omp_unset_lock(&P.lock);
			} else if (j.kind == JOB_NODE) {
				search_worker *W = &S->run.ws[tid];
				trim__search_top_node(&S->run, j.node, &j.t, W);
				omp_set_lock(&P.lock);
				node_finished(S, j.node, W);
				if (W->err)
					S->stopping = 1;
				S->running--;
				trim__search_progress(&S->space, S->q.finished_count, S->run.ntop);
				omp_unset_lock(&P.lock);
			} else { /* JOB_END */
				end_search(&P, S);
				omp_set_lock(&P.lock);
				drop(&P, S);
				omp_unset_lock(&P.lock);
			}
		}
	}
	omp_destroy_lock(&P.lock);
	free(P.act);
	free(P.st);
	free(P.pick);
}
