/*
 * One search's top nodes run by several processes (lib/search/share.c):
 * the interface lib/work/work_nodes.c builds trim_work_search on
 * (trim/work.h, "One search's top nodes").
 *
 * Every process makes the same share from the same search (the tree's top
 * nodes sorted by bound, the seed: deterministic). The collector hands out
 * tickets (a node and its threshold, known once the nodes TRIM__TOP_WINDOW
 * places before it are finished), any process runs a ticket into a node
 * result, the collector merges the results in any order and finishes: the
 * search's result is then trim__search's, byte for byte.
 */
#ifndef TRIM_SEARCH_SHARE_H
#define TRIM_SEARCH_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "mapspace_int.h"

struct trim_search;
typedef struct trim__search_share trim__search_share;

/* The search's set-up up to its top nodes; uses the search's threads (one
 * node at a time on each). 0 or a TRIM_E code. */
int trim__search_share_create(trim__search_share **out, struct trim_search *s);
void trim__search_share_free(trim__search_share *sh);
/* Top nodes (0: the search has no tree; trim__search_share_finish runs it whole). */
int64_t trim__search_share_nodes(const trim__search_share *sh);
/* Node i's lower bound (the order they are handed out in: ascending). */
double trim__search_share_node_bound(const trim__search_share *sh, int64_t i);
/* Collector: 1 and the next node's ticket (malloc'd text), 0 when that node
 * must wait for the results of nodes handed out before it, 2 when no node
 * is left to hand out (the rest is cut by its bound, or the search stopped
 * or failed), or a TRIM_E code. Nodes cut by their bound are finished here. */
int trim__search_share_next(trim__search_share *sh, int64_t *node, char **ticket);
/* Run a ticket: *node its node, *payload the node's result (malloc'd) or,
 * when the node itself failed, *node_rc its error (message in
 * trim_last_error()) and *payload NULL. record: the node is finished here
 * too (the collector's own run). Runs may overlap, up to the search's
 * threads. 0, or a TRIM_E code for a ticket of another search or none. */
int trim__search_share_run(trim__search_share *sh, const char *ticket, int record, int64_t *node, char **payload,
                           int *node_rc);
/* Collector: node's result made elsewhere (payload of trim__search_share_run). */
int trim__search_share_merge(trim__search_share *sh, int64_t node, const char *payload);
/* Collector: node failed elsewhere: finished empty, nothing more handed out. */
void trim__search_share_fail(trim__search_share *sh, int64_t node);
/* 1 when node has its result here, was cut, or will not run (the search stopped first). */
int trim__search_share_finished(trim__search_share *sh, int64_t node);
/* Collector, every node finished: the result into the search (as after
 * trim_search_run: trim_search_report and the others read it). */
int trim__search_share_finish(trim__search_share *sh);

/* lib/search/api.c for share.c: the search's inputs, and a result made
 * elsewhere taken as trim_search_run's (res moved; rc the run's code). */
void trim__search_parts(struct trim_search *s, const trim__mapspace **space, const trim__level_cost **costs,
                        int *goal, int *threads);
int trim__search_take_result(struct trim_search *s, trim__search_result *res, int rc);

#endif
