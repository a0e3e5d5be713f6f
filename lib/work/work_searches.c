/*
 * The items of an exploration cut finer (trim_work_explore_searches): the
 * distinct searches of every point's network evaluation, id = point x
 * intra workloads + workload. A process keeps, per point it has touched, the
 * point's architecture figures and its evaluation (lib/explore/explore.c's
 * trim__explore_point_begin); a search result is recorded in it as in a
 * network's work (work_network.c), and when every search of the point is
 * recorded the point is finished there exactly as the explorer finishes it
 * (trim_neteval_run, which only reuses and adds up, then
 * trim__explore_point_end) and written to the output directory.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore_int.h"
#include "neteval/neteval_state.h"
#include "work_int.h"
#include "workload/workload_int.h"

typedef struct {
	trim_neteval *ne; /* NULL: not started, or finished */
	trim__xpoint p;   /* its architecture figures, then all of them */
	int finished;     /* its searches all recorded: done, or failed (the error on its first item) */
	int busy;         /* searches of it running now (it is not finished under them) */
} point_state;

/* The points, and the lock that lets a run overlap a merge (trim/work.h,
 * "Threads"): held while a point's state is read, started, merged into or
 * finished, not while its search runs. */
typedef struct {
	omp_lock_t lock;
	point_state *ps;
} points;

#define PS(wk) (((points *)(wk)->points)->ps)

void trim__work_searches_free(trim_work *wk)
{
	points *pts = wk->points;
	if (!pts)
		return;
	size_t np = wk->ex ? wk->ex->n : 0;
	for (size_t i = 0; pts->ps && i < np; i++) {
		trim_neteval_free(pts->ps[i].ne);
		trim__explore_point_clear(&pts->ps[i].p);
	}
	free(pts->ps);
	omp_destroy_lock(&pts->lock);
	free(pts);
	wk->points = NULL;
}

static int in_item(const trim_neteval *ne, size_t j)
{
	return ne->rec[j].reused_from < 0 && trim__neteval_in_range(ne, trim__workloads_intra(ne->w, j)->layer_index);
}

/* Point i's state, started if need be. */
static int state(trim_work *wk, size_t i, point_state **out)
{
	point_state *s = &PS(wk)[i];
	*out = s;
	if (s->ne)
		return 0;
	int rc = trim__explore_point_begin(wk->ex, i, wk->ex->threads, &s->p, &s->ne);
	if (rc == 0)
		trim__neteval_plan(s->ne);
	return rc;
}

/* Every search of point i recorded: finish the point (its figures, its file). */
static int try_finish(trim_work *wk, size_t i)
{
	point_state *s = &PS(wk)[i];
	trim_explorer *ex = wk->ex;
	if (!s->ne || s->finished || s->busy || ex->pt[i].done)
		return 0;
	int64_t first = -1;
	for (size_t j = 0; j < wk->nw; j++) {
		if (!in_item(s->ne, j))
			continue;
		if (first < 0)
			first = (int64_t)(i * wk->nw + j);
		if (!s->ne->rec[j].searched)
			return 0;
	}
	int rc = trim__explore_point_end(ex, i, s->ne, trim_neteval_run(s->ne), &s->p);
	if (rc == 0 && ex->dir)
		rc = trim__explore_save_point(ex, i, &s->p);
	trim_neteval_free(s->ne);
	s->ne = NULL;
	s->finished = 1;
	if (rc) { /* the point's error, as the explorer's run reports it: on its first item */
		trim__explore_point_clear(&s->p);
		return first >= 0 ? trim__work_record_error(wk, first, rc, trim_last_error()) : rc;
	}
	ex->pt[i] = s->p;
	memset(&s->p, 0, sizeof s->p);
	return 0;
}

int trim__work_searches_items(trim_work *wk)
{
	trim_explorer *ex = wk->ex;
	wk->nw = trim_workloads_intra_count(ex->w);
	points *pts = trim__calloc(1, sizeof *pts);
	if (!pts)
		return TRIM_ENOMEM;
	pts->ps = trim__calloc(ex->n ? ex->n : 1, sizeof(point_state));
	omp_init_lock(&pts->lock);
	wk->points = pts;
	if (!pts->ps)
		return TRIM_ENOMEM;
	if (!ex->inputs[0][0]) { /* the finished points' files are stamped */
		int rc = trim__explore_digest_inputs(ex);
		if (rc)
			return rc;
	}
	wk->n = 0;
	for (size_t i = 0; i < ex->n; i++) { /* every point: its searches' places do not depend on what is done */
		trim__xpoint p;
		trim_neteval *ne = NULL;
		int rc = trim__explore_point_begin(ex, i, 1, &p, &ne);
		if (rc)
			return rc; /* as the explorer's run: the first point that cannot be set up */
		trim__neteval_plan(ne);
		double pes = (double)(ne->arch->total_pes > 0 ? ne->arch->total_pes : 1);
		size_t searches = 0;
		for (size_t j = 0; j < wk->nw; j++) {
			if (!in_item(ne, j))
				continue;
			wk->ids[wk->n] = (int64_t)(i * wk->nw + j);
			wk->cost[wk->n] = (double)trim__workloads_intra(ne->w, j)->macs * pes;
			wk->n++;
			searches++;
		}
		trim_neteval_free(ne);
		trim__explore_point_clear(&p);
		if (searches == 0 && !ex->pt[i].done) { /* nothing to search: the point is finished here */
			rc = trim__explore_evaluate_point(ex, i, ex->threads, &ex->pt[i]);
			if (rc == 0 && ex->dir)
				rc = trim__explore_save_point(ex, i, &ex->pt[i]);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int trim__work_searches_valid(const trim_work *wk, int64_t id)
{
	return id >= 0 && (size_t)id < wk->nobj && wk->position[id] >= 0;
}

int trim__work_searches_recorded(const trim_work *wk, int64_t id)
{
	size_t i = (size_t)id / wk->nw, j = (size_t)id % wk->nw;
	points *pts = wk->points;
	const point_state *s = &pts->ps[i];
	omp_set_lock(&pts->lock);
	int got = s->ne ? s->ne->rec[j].searched : s->finished || wk->ex->pt[i].done;
	omp_unset_lock(&pts->lock);
	return got;
}

int trim__work_searches_run(trim_work *wk, int64_t id, trim__work_result *r)
{
	size_t i = (size_t)id / wk->nw, j = (size_t)id % wk->nw;
	points *pts = wk->points;
	point_state *s = NULL;
	omp_set_lock(&pts->lock);
	int rc = state(wk, i, &s); /* a point done here (read back) but asked for: searched again */
	if (rc == 0)
		s->busy++;
	omp_unset_lock(&pts->lock);
	if (rc) {
		r->rc = rc;
		r->message = trim__strdup(trim_last_error());
		return r->message ? 0 : TRIM_ENOMEM;
	}
	rc = trim__work_search_run(s->ne, j, r); /* unlocked: a merge into another point may run meanwhile */
	omp_set_lock(&pts->lock);
	s->busy--;
	if (rc == 0)
		rc = try_finish(wk, i);
	omp_unset_lock(&pts->lock);
	return rc;
}

int trim__work_searches_merge(trim_work *wk, trim__work_result *r)
{
	size_t i = (size_t)r->id / wk->nw, j = (size_t)r->id % wk->nw;
	points *pts = wk->points;
	point_state *s = NULL;
	omp_set_lock(&pts->lock);
	int rc = state(wk, i, &s);
	if (rc == 0)
		rc = trim__work_search_merge(s->ne, j, r);
	if (rc == 0)
		rc = try_finish(wk, i);
	omp_unset_lock(&pts->lock);
	return rc;
}
