/*
 * The items of an exploration (trim/work.h): its points not yet done. A
 * result's payload is the point's file text (lib/explore/points.c), so a
 * merged point is exactly a point read back from an output directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraints/constraints_int.h"
#include "explore/explore_int.h"
#include "search/mapspace_int.h"
#include "space/space_int.h"
#include "trim/space.h"
#include "work_int.h"
#include "workload/workload_int.h"

/* The expected cost of point i, only to hand the large ones out first: the
 * distinct mappings of every workload of the network on its architecture
 * under the exploration's constraints (the search's work grows with them)
 * times its PEs; 0 when the point cannot be built (it fails fast). */
static double point_cost(const trim_explorer *ex, size_t i)
{
	trim_arch *a = NULL;
	if (trim_space_point_arch(ex->space, i, &a)) {
		trim_clear_error();
		return 0;
	}
	double sum = 0;
	size_t nw = trim_workloads_intra_count(ex->w);
	for (size_t k = 0; k < nw; k++) {
		trim__mapspace s;
		uint64_t distinct = 0;
		if (trim__mapspace_init(&s, trim__workloads_intra(ex->w, k), a) == 0) {
			if (trim__mapspace_constrain(ex->cons, &s) == 0 && trim__mapspace_distinct(&s, &distinct) == 0)
				sum += (double)distinct;
			trim__mapspace_free(&s);
		}
	}
	trim_clear_error();
	/* the counts do not see the array's size or the capacities, which decide
	 * what fits; more PEs leave more spatial choices to fit (measured: the
	 * 1024-PE points of case study II search about 1.5 times longer than the
	 * 256-PE ones, docs/cluster.md) */
	sum *= (double)(a->total_pes > 0 ? a->total_pes : 1);
	trim_arch_free(a);
	return sum;
}

int trim__work_explore_items(trim_work *wk)
{
	trim_explorer *ex = wk->ex;
	if (!ex->inputs[0][0]) { /* stamped with the output directory, or now */
		int rc = trim__explore_digest_inputs(ex);
		if (rc)
			return rc;
	}
	wk->n = 0;
	for (size_t i = 0; i < ex->n; i++) { /* every point: work.c leaves out those done */
		wk->ids[wk->n] = (int64_t)i;
		wk->cost[wk->n] = point_cost(ex, i);
		wk->n++;
	}
	return 0;
}

int trim__work_explore_valid(const trim_work *wk, int64_t id)
{
	return id >= 0 && (size_t)id < wk->ex->n;
}

int trim__work_explore_recorded(const trim_work *wk, int64_t id) { return wk->ex->pt[id].done; }

int trim__work_explore_run(trim_work *wk, int64_t id, trim__work_result *r)
{
	trim_explorer *ex = wk->ex;
	size_t i = (size_t)id;
	if (!ex->pt[i].done) {
		trim__xpoint p;
		int rc = trim__explore_evaluate_point(ex, i, ex->threads, &p);
		if (rc == 0 && ex->dir)
			rc = trim__explore_save_point(ex, i, &p);
		if (rc) {
			trim__explore_point_clear(&p);
			r->rc = rc;
			r->message = trim__strdup(trim_last_error());
			return r->message ? 0 : TRIM_ENOMEM;
		}
		ex->pt[i] = p;
	}
	r->resumed = ex->pt[i].resumed;
	int rc = trim__explore_point_text(ex, i, &ex->pt[i], &r->payload);
	if (rc == 0)
		r->payload_len = strlen(r->payload);
	return rc;
}

int trim__work_explore_merge(trim_work *wk, trim__work_result *r)
{
	trim_explorer *ex = wk->ex;
	size_t i = (size_t)r->id;
	if (r->rc) /* the error is the handle's (trim_work_finish) */
		return 0;
	char where[96];
	snprintf(where, sizeof where, "the result of point %lld", (long long)r->id);
	/* a result that does not fit is an error here, not a note to recompute */
	char *notes = ex->notes;
	size_t recomputed = ex->recomputed;
	ex->notes = NULL;
	trim__xpoint p;
	int got = trim__explore_parse_point(ex, i, r->payload, r->payload_len, where, &p);
	int rc = 0;
	if (got == 0) {
		/* the note: "WHERE: reason: recomputed\n" */
		const char *why = ex->notes ? ex->notes : "";
		size_t l = strlen(why);
		if (l && why[l - 1] == '\n')
			l--;
		if (l >= 12 && !strncmp(why + l - 12, ": recomputed", 12))
			l -= 12;
		rc = trim__error(TRIM_EINVAL, "trim_work_merge: %.*s: not a result of this exploration", (int)l, why);
	} else if (got < 0) {
		rc = got;
	}
	free(ex->notes);
	ex->notes = notes;
	ex->recomputed = recomputed;
	if (rc)
		return rc;
	p.resumed = r->resumed;
	if (ex->dir && !r->resumed && (rc = trim__explore_save_point(ex, i, &p))) {
		trim__explore_point_clear(&p);
		return rc;
	}
	ex->pt[i] = p;
	if (r->resumed)
		ex->resumed++;
	return 0;
}
