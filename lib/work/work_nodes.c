/*
 * The items of one search (trim_work_search, trim/work.h): its tree's top
 * nodes in bound order, id = the node's place. A node goes out as a ticket
 * (the node and its threshold, which the collector knows once the nodes
 * TRIM__TOP_WINDOW places before it are merged) and comes back as a result
 * whose payload is the node's counts and kept (cost, index) pairs
 * (lib/search/share.c); trim_work_finish then sets the search's result.
 */
#include <stdlib.h>
#include <string.h>

#include "search/share.h"
#include "util/handle.h"
#include "work_int.h"

int trim__work_nodes_items(trim_work *wk)
{
	wk->n = 0;
	for (size_t i = 0; i < wk->nobj; i++) {
		wk->ids[wk->n] = (int64_t)i;
		wk->cost[wk->n] = trim__search_share_node_bound(wk->share, (int64_t)i);
		wk->n++;
	}
	return 0;
}

int trim__work_nodes_valid(const trim_work *wk, int64_t id) { return id >= 0 && (size_t)id < wk->nobj; }

int trim__work_nodes_recorded(const trim_work *wk, int64_t id) { return trim__search_share_finished(wk->share, id); }

size_t trim__work_nodes_done(const trim_work *wk)
{
	size_t n = 0;
	for (size_t i = 0; i < wk->nobj; i++)
		n += (size_t)trim__search_share_finished(wk->share, (int64_t)i);
	return n;
}

int trim__work_nodes_merge(trim_work *wk, trim__work_result *r)
{
	if (r->rc) { /* the node failed there: nothing more is handed out */
		trim__search_share_fail(wk->share, r->id);
		return 0;
	}
	return trim__search_share_merge(wk->share, r->id, r->payload ? r->payload : "");
}

int trim__work_nodes_finish(const trim_work *wk) { return trim__search_share_finish(wk->share); }

void trim__work_nodes_free(trim_work *wk)
{
	trim__search_share_free(wk->share);
	wk->share = NULL;
}

int trim_work_next(trim_work *wk, int64_t *id, char **ticket)
{
	TRIM__HANDLE_CHECK(wk, WORK, TRIM_EINVAL);
	if (ticket)
		*ticket = NULL;
	if (id)
		*id = -1;
	if (!wk || !id || !ticket)
		return trim__error(TRIM_EINVAL, "trim_work_next: NULL argument");
	if (wk->kind != TRIM__WORK_NODES)
		return trim__error(TRIM_EINVAL, "trim_work_next: not a search's work (trim_work_search)");
	return trim__search_share_next(wk->share, id, ticket);
}

int trim_work_run_ticket(trim_work *wk, const char *ticket, char **result)
{
	TRIM__HANDLE_CHECK(wk, WORK, TRIM_EINVAL);
	if (result)
		*result = NULL;
	if (!wk || !ticket)
		return trim__error(TRIM_EINVAL, "trim_work_run_ticket: NULL argument");
	if (wk->kind != TRIM__WORK_NODES)
		return trim__error(TRIM_EINVAL, "trim_work_run_ticket: not a search's work (trim_work_search)");
	trim__work_result r;
	memset(&r, 0, sizeof r);
	r.kind = wk->kind;
	int node_rc = 0;
	int rc = trim__search_share_run(wk->share, ticket, 1, &r.id, &r.payload, &node_rc);
	if (rc)
		return rc;
	if (node_rc) {
		r.rc = node_rc;
		r.message = trim__strdup(trim_last_error());
		rc = r.message ? trim__work_record_error(wk, r.id, node_rc, r.message) : TRIM_ENOMEM;
	}
	r.payload_len = r.payload ? strlen(r.payload) : 0;
	if (rc == 0 && result)
		rc = trim__work_result_text(&r, result);
	trim__work_result_clear(&r);
	return rc;
}
