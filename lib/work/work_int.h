/*
 * The work items of an exploration or a network evaluation (trim/work.h):
 * lib/work/work.c holds the handle, the order of the items and the text of
 * a result; lib/work/work_explore.c and work_network.c what an item is for
 * each kind, on the explorer's and the evaluation's own records.
 */
#ifndef TRIM_WORK_INT_H
#define TRIM_WORK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "trim/work.h"
#include "util/handle.h"
#include "util/util.h"

enum {
	TRIM__WORK_EXPLORE = 0,
	TRIM__WORK_NETWORK = 1,
	TRIM__WORK_SEARCHES = 2, /* an exploration's searches */
	TRIM__WORK_NODES = 3     /* one search's top nodes (work_nodes.c) */
};

/* One result as it travels: the item, its error (0: none) and message,
 * whether it was read back from an output directory (resumed) after a
 * stale file there (stale), and the kind's own stamped text (payload). */
typedef struct {
	int kind;
	int64_t id;
	int rc, resumed, stale;
	char *message;
	char *payload;
	size_t payload_len;
} trim__work_result;

struct trim_work {
	uint32_t tag; /* TRIM__H_WORK (util/handle.h): first, checked by every entry point */
	int kind;
	trim_explorer *ex;
	trim_neteval *ne;
	size_t nobj;       /* points or intra workloads: ids are below it */
	size_t n;          /* items (not done when the handle was made) */
	int64_t *ids;      /* items, largest expected first */
	double *cost;      /* their estimates */
	int64_t *position; /* by id: its place among every item of the run, done or not (-1: none) */
	int *item_rc;      /* by id: an item's error (0: none) */
	char **item_msg;   /* by id: its message (NULL: none) */
	size_t recorded;   /* relaxed atomic */
	/* TRIM__WORK_SEARCHES: the network's intra workloads (id = point x nw +
	 * workload) and, per point, its evaluation while its searches arrive
	 * (lib/work/work_searches.c) */
	size_t nw;
	void *points;
	/* TRIM__WORK_NODES: the search and its top nodes (lib/search/share.h) */
	trim_search *search;
	struct trim__search_share *share;
};

/* The result's text, and a text read into *r (pointers into a copy owned by
 * r: trim__work_result_clear). */
int trim__work_result_text(const trim__work_result *r, char **out);
int trim__work_result_parse(const char *text, trim__work_result *r);
void trim__work_result_clear(trim__work_result *r);
/* Record the error of item id (message copied). */
int trim__work_record_error(trim_work *wk, int64_t id, int rc, const char *msg);
/* Sort the items by cost, largest first, ties by id. */
void trim__work_sort(trim_work *wk);

/* Per kind: every item of the run, done or not (ids and cost filled, wk->n
 * set; work.c sorts them and leaves out those done), 1 if id names an
 * item of the run (any process's), 1 if it is recorded here, run one
 * (result into *r, record kept), merge one (r->rc set: an error result,
 * already in wk->item_rc). */
int trim__work_explore_items(trim_work *wk);
int trim__work_explore_valid(const trim_work *wk, int64_t id);
int trim__work_explore_recorded(const trim_work *wk, int64_t id);
int trim__work_explore_run(trim_work *wk, int64_t id, trim__work_result *r);
int trim__work_explore_merge(trim_work *wk, trim__work_result *r);

/* One search j of evaluation ne run (result into *r) or merged. */
int trim__work_search_run(trim_neteval *ne, size_t j, trim__work_result *r);
int trim__work_search_merge(trim_neteval *ne, size_t j, trim__work_result *r);

int trim__work_searches_items(trim_work *wk);
int trim__work_searches_valid(const trim_work *wk, int64_t id);
int trim__work_searches_recorded(const trim_work *wk, int64_t id);
int trim__work_searches_run(trim_work *wk, int64_t id, trim__work_result *r);
int trim__work_searches_merge(trim_work *wk, trim__work_result *r);
void trim__work_searches_free(trim_work *wk);

int trim__work_network_items(trim_work *wk);
int trim__work_network_valid(const trim_work *wk, int64_t id);
int trim__work_network_recorded(const trim_work *wk, int64_t id);
int trim__work_network_run(trim_work *wk, int64_t id, trim__work_result *r);
int trim__work_network_merge(trim_work *wk, trim__work_result *r);

/* One search's top nodes (id = the node's place in bound order). */
int trim__work_nodes_items(trim_work *wk);
int trim__work_nodes_valid(const trim_work *wk, int64_t id);
int trim__work_nodes_recorded(const trim_work *wk, int64_t id);
int trim__work_nodes_merge(trim_work *wk, trim__work_result *r);
size_t trim__work_nodes_done(const trim_work *wk);
int trim__work_nodes_finish(const trim_work *wk);
void trim__work_nodes_free(trim_work *wk);

#endif
