/*
 * Work items (trim/work.h): the handle, the order in which items are handed
 * out, and the text a result travels as between processes:
 *
 *   libtrim work 1
 *   kind explore|network|explore-searches|search-nodes
 *   item ID
 *   rc CODE            (0, or the item's TRIM_E error)
 *   resumed 0|1        (read back from an output directory)
 *   stale 0|1          (a file there was stale: searched again)
 *   message BYTES
 *   <message>
 *   payload BYTES
 *   <the point file or search file text: stamped and checksummed>
 *   end
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore_int.h"
#include "search/share.h"
#include "util/handle.h"
#include "work_int.h"

static const char *const kind_names[] = {"explore", "network", "explore-searches", "search-nodes"};
enum { NKINDS = 4 };

void trim_work_free(trim_work *wk)
{
	TRIM__HANDLE_CHECK_VOID(wk, WORK);
	if (!wk)
		return;
	trim__work_searches_free(wk);
	trim__work_nodes_free(wk);
	for (size_t i = 0; wk->item_msg && i < wk->nobj; i++)
		free(wk->item_msg[i]);
	free(wk->item_msg);
	free(wk->item_rc);
	free(wk->position);
	free(wk->ids);
	free(wk->cost);
	TRIM__HANDLE_POISON(wk, WORK);
	free(wk);
}

static int recorded_here(const trim_work *wk, int64_t id)
{
	switch (wk->kind) {
	case TRIM__WORK_EXPLORE: return trim__work_explore_recorded(wk, id);
	case TRIM__WORK_NETWORK: return trim__work_network_recorded(wk, id);
	case TRIM__WORK_NODES: return trim__work_nodes_recorded(wk, id);
	default: return trim__work_searches_recorded(wk, id);
	}
}

static int work_create(trim_work **out, int kind, trim_explorer *ex, trim_neteval *ne, size_t nobj,
                       struct trim__search_share *share)
{
	trim_work *wk = trim__calloc(1, sizeof *wk);
	if (!wk)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(wk, WORK);
	wk->kind = kind;
	wk->ex = ex;
	wk->ne = ne;
	wk->nobj = nobj;
	wk->share = share;
	size_t m = nobj ? nobj : 1;
	wk->ids = trim__calloc(m, sizeof *wk->ids);
	wk->cost = trim__calloc(m, sizeof *wk->cost);
	wk->item_rc = trim__calloc(m, sizeof *wk->item_rc);
	wk->item_msg = trim__calloc(m, sizeof *wk->item_msg);
	wk->position = trim__calloc(m, sizeof *wk->position);
	int rc = wk->ids && wk->cost && wk->item_rc && wk->item_msg && wk->position ? 0 : TRIM_ENOMEM;
	if (rc == 0)
		rc = kind == TRIM__WORK_EXPLORE ? trim__work_explore_items(wk)
		     : kind == TRIM__WORK_NETWORK ? trim__work_network_items(wk)
		     : kind == TRIM__WORK_NODES ? trim__work_nodes_items(wk) : trim__work_searches_items(wk);
	if (rc) {
		trim_work_free(wk);
		return rc;
	}
	if (kind != TRIM__WORK_NODES) /* a search's nodes go out in bound order */
		trim__work_sort(wk);
	/* every item's place in the run, then only those not done yet */
	for (size_t i = 0; i < nobj; i++)
		wk->position[i] = -1;
	size_t keep = 0;
	for (size_t k = 0; k < wk->n; k++) {
		int64_t id = wk->ids[k];
		wk->position[id] = (int64_t)k;
		if (recorded_here(wk, id))
			continue;
		wk->ids[keep] = id;
		wk->cost[keep++] = wk->cost[k];
	}
	wk->n = keep;
	*out = wk;
	return 0;
}

int trim_work_explore(trim_work **out, trim_explorer *ex)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!out || !ex)
		return trim__error(TRIM_EINVAL, "trim_work_explore: NULL argument");
	*out = NULL;
	return work_create(out, TRIM__WORK_EXPLORE, ex, NULL, trim_explorer_count(ex), NULL);
}

int trim_work_explore_searches(trim_work **out, trim_explorer *ex)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!out || !ex)
		return trim__error(TRIM_EINVAL, "trim_work_explore_searches: NULL argument");
	*out = NULL;
	size_t nw = trim_workloads_intra_count(ex->w), np = trim_explorer_count(ex);
	if (nw && np > SIZE_MAX / 2 / nw)
		return trim__error(TRIM_ERANGE, "trim_work_explore_searches: %zu points x %zu workloads is too many items", np, nw);
	return work_create(out, TRIM__WORK_SEARCHES, ex, NULL, np * nw, NULL);
}

int trim_work_network(trim_work **out, trim_neteval *ne)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!out || !ne)
		return trim__error(TRIM_EINVAL, "trim_work_network: NULL argument");
	*out = NULL;
	if (trim_neteval_done(ne) > 0)
		return trim__error(TRIM_EINVAL, "trim_work_network: the evaluation has started (make the items before the "
		                   "first step)");
	return work_create(out, TRIM__WORK_NETWORK, NULL, ne, trim_neteval_count(ne), NULL);
}

int trim_work_search(trim_work **out, trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!out || !s)
		return trim__error(TRIM_EINVAL, "trim_work_search: NULL argument");
	*out = NULL;
	struct trim__search_share *sh = NULL;
	int rc = trim__search_share_create(&sh, s);
	if (rc)
		return rc;
	rc = work_create(out, TRIM__WORK_NODES, NULL, NULL, (size_t)trim__search_share_nodes(sh), sh);
	if (rc) /* work_create freed the share with the handle */
		return rc;
	(*out)->search = s;
	return 0;
}

/* ---- order ------------------------------------------------------------------ */

typedef struct {
	int64_t id;
	double cost;
} item;

static int larger_first(const void *a, const void *b)
{
	const item *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void trim__work_sort(trim_work *wk)
{
	item *it = malloc((wk->n ? wk->n : 1) * sizeof *it);
	if (!it) /* left in id order: still a valid order */
		return;
	for (size_t k = 0; k < wk->n; k++)
		it[k] = (item){wk->ids[k], wk->cost[k]};
	qsort(it, wk->n, sizeof *it, larger_first);
	for (size_t k = 0; k < wk->n; k++) {
		wk->ids[k] = it[k].id;
		wk->cost[k] = it[k].cost;
	}
	free(it);
}

size_t trim_work_count(const trim_work *wk) { return TRIM__HANDLE_OK(wk, WORK) ? wk->n : 0; }

int trim_work_item(const trim_work *wk, size_t k, int64_t *id, double *cost)
{
	TRIM__HANDLE_CHECK(wk, WORK, TRIM_EINVAL);
	if (!wk || !id)
		return trim__error(TRIM_EINVAL, "trim_work_item: NULL argument");
	if (k >= wk->n)
		return trim__error(TRIM_ENOTFOUND, "trim_work_item: item %zu of %zu", k, wk->n);
	*id = wk->ids[k];
	if (cost)
		*cost = wk->cost[k];
	return 0;
}

int trim_work_position(const trim_work *wk, int64_t id, int64_t *position)
{
	TRIM__HANDLE_CHECK(wk, WORK, TRIM_EINVAL);
	if (!wk || !position)
		return trim__error(TRIM_EINVAL, "trim_work_position: NULL argument");
	if (id < 0 || (size_t)id >= wk->nobj || wk->position[id] < 0)
		return trim__error(TRIM_ENOTFOUND, "trim_work_position: %lld is not an item of this %s", (long long)id,
		                   kind_names[wk->kind]);
	*position = wk->position[id];
	return 0;
}

size_t trim_work_done(const trim_work *wk)
{
	TRIM__HANDLE_CHECK(wk, WORK, 0);
	if (wk && wk->kind == TRIM__WORK_NODES)
		return trim__work_nodes_done(wk);
	return wk ? __atomic_load_n(&wk->recorded, __ATOMIC_RELAXED) : 0;
}

int trim__work_record_error(trim_work *wk, int64_t id, int rc, const char *msg)
{
	free(wk->item_msg[id]);
	wk->item_msg[id] = trim__strdup(msg ? msg : "");
	wk->item_rc[id] = rc;
	return wk->item_msg[id] ? 0 : TRIM_ENOMEM;
}

static int valid_id(const trim_work *wk, int64_t id)
{
	switch (wk->kind) {
	case TRIM__WORK_EXPLORE: return trim__work_explore_valid(wk, id);
	case TRIM__WORK_NETWORK: return trim__work_network_valid(wk, id);
	case TRIM__WORK_NODES: return trim__work_nodes_valid(wk, id);
	default: return trim__work_searches_valid(wk, id);
	}
}

static int recorded(const trim_work *wk, int64_t id)
{
	return wk->item_rc[id] || recorded_here(wk, id);
}

static int kind_run(trim_work *wk, int64_t id, trim__work_result *r)
{
	switch (wk->kind) {
	case TRIM__WORK_EXPLORE: return trim__work_explore_run(wk, id, r);
	case TRIM__WORK_NETWORK: return trim__work_network_run(wk, id, r);
	case TRIM__WORK_NODES:
		return trim__error(TRIM_EINVAL, "trim_work_run: a search's top node runs from its ticket (trim_work_next, "
		                   "trim_work_run_ticket)");
	default: return trim__work_searches_run(wk, id, r);
	}
}

static int kind_merge(trim_work *wk, trim__work_result *r)
{
	switch (wk->kind) {
	case TRIM__WORK_EXPLORE: return trim__work_explore_merge(wk, r);
	case TRIM__WORK_NETWORK: return trim__work_network_merge(wk, r);
	case TRIM__WORK_NODES: return trim__work_nodes_merge(wk, r);
	default: return trim__work_searches_merge(wk, r);
	}
}

/* ---- run, merge, finish ------------------------------------------------------ */

int trim_work_status(const trim_work *wk, int64_t id)
{
	TRIM__HANDLE_CHECK(wk, WORK, TRIM_EINVAL);
	if (!wk)
		return trim__error(TRIM_EINVAL, "trim_work_status: NULL handle");
	if (!valid_id(wk, id))
		return trim__error(TRIM_ENOTFOUND, "trim_work_status: %lld is not an item of this %s", (long long)id,
		                   kind_names[wk->kind]);
	if (wk->item_rc[id])
		return trim__error(wk->item_rc[id], "%s", wk->item_msg[id] ? wk->item_msg[id] : "");
	return recorded(wk, id);
}

int trim_work_run(trim_work *wk, int64_t id, char **result)
{
	TRIM__HANDLE_CHECK(wk, WORK, TRIM_EINVAL);
	if (result)
		*result = NULL;
	if (!wk)
		return trim__error(TRIM_EINVAL, "trim_work_run: NULL handle");
	if (!valid_id(wk, id))
		return trim__error(TRIM_ENOTFOUND, "trim_work_run: %lld is not an item of this %s", (long long)id,
		                   kind_names[wk->kind]);
	int was = recorded(wk, id);
	trim__work_result r;
	memset(&r, 0, sizeof r);
	r.kind = wk->kind;
	r.id = id;
	int rc = kind_run(wk, id, &r);
	/* a search's error is the item's; in an exploration its point's (an
	 * unmappable point is invalid, not an error: work_searches.c decides) */
	if (rc == 0 && r.rc && wk->kind != TRIM__WORK_SEARCHES)
		rc = trim__work_record_error(wk, id, r.rc, r.message);
	if (rc == 0 && !was)
		__atomic_add_fetch(&wk->recorded, 1, __ATOMIC_RELAXED);
	if (rc == 0 && result)
		rc = trim__work_result_text(&r, result);
	trim__work_result_clear(&r);
	return rc;
}

int trim_work_merge(trim_work *wk, const char *text, int64_t *id)
{
	TRIM__HANDLE_CHECK(wk, WORK, TRIM_EINVAL);
	if (!wk || !text)
		return trim__error(TRIM_EINVAL, "trim_work_merge: NULL argument");
	trim__work_result r;
	int rc = trim__work_result_parse(text, &r);
	if (rc)
		return rc;
	if (r.kind != wk->kind)
		rc = trim__error(TRIM_EINVAL, "trim_work_merge: a result of %s work, this is %s work", kind_names[r.kind],
		                 kind_names[wk->kind]);
	else if (!valid_id(wk, r.id))
		rc = trim__error(TRIM_EINVAL, "trim_work_merge: item %lld is not an item of this %s", (long long)r.id,
		                 kind_names[wk->kind]);
	if (rc == 0 && id)
		*id = r.id;
	if (rc == 0 && !recorded(wk, r.id)) {
		if (r.rc && wk->kind != TRIM__WORK_SEARCHES)
			rc = trim__work_record_error(wk, r.id, r.rc, r.message);
		if (rc == 0) /* an error too: a network's search keeps it, as its own run would */
			rc = kind_merge(wk, &r);
		if (rc == 0)
			__atomic_add_fetch(&wk->recorded, 1, __ATOMIC_RELAXED);
	}
	trim__work_result_clear(&r);
	return rc;
}

int trim_work_finish(const trim_work *wk)
{
	TRIM__HANDLE_CHECK(wk, WORK, TRIM_EINVAL);
	if (!wk)
		return trim__error(TRIM_EINVAL, "trim_work_finish: NULL handle");
	int64_t first_bad = -1;
	for (size_t k = 0; k < wk->n; k++) {
		int64_t id = wk->ids[k];
		if (!recorded(wk, id))
			return trim__error(TRIM_EINVAL, "trim_work_finish: item %lld (%s) has no result yet", (long long)id,
			                   wk->kind == TRIM__WORK_EXPLORE ? trim_explorer_point_name(wk->ex, (size_t)id)
			                   : wk->kind == TRIM__WORK_SEARCHES
			                           ? trim_explorer_point_name(wk->ex, (size_t)id / wk->nw)
			                           : "a search");
		if (wk->item_rc[id] && (first_bad < 0 || id < first_bad))
			first_bad = id;
	}
	if (first_bad >= 0)
		return trim__error(wk->item_rc[first_bad], "%s", wk->item_msg[first_bad] ? wk->item_msg[first_bad] : "");
	return wk->kind == TRIM__WORK_NODES ? trim__work_nodes_finish(wk) : 0;
}

/* ---- the text of a result ---------------------------------------------------- */

int trim__work_result_text(const trim__work_result *r, char **out)
{
	trim__sb sb;
	trim__sb_init(&sb);
	const char *msg = r->message ? r->message : "";
	trim__sb_printf(&sb, "libtrim work 1\nkind %s\nitem %lld\nrc %d\nresumed %d\nstale %d\nmessage %zu\n",
	                kind_names[r->kind], (long long)r->id, r->rc, r->resumed, r->stale, strlen(msg));
	trim__sb_puts(&sb, msg);
	trim__sb_printf(&sb, "\npayload %zu\n", r->payload ? r->payload_len : 0);
	if (r->payload)
		trim__sb_puts(&sb, r->payload);
	trim__sb_puts(&sb, "\nend\n");
	return trim__sb_take(&sb, out);
}

void trim__work_result_clear(trim__work_result *r)
{
	free(r->message);
	free(r->payload);
	memset(r, 0, sizeof *r);
}

/* "KEY VALUE\n" at *p: the value as a long long; 0 or -1. */
static int line_int(const char **p, const char *key, long long *v)
{
	size_t k = strlen(key);
	if (strncmp(*p, key, k) || (*p)[k] != ' ')
		return -1;
	char *end = NULL;
	*v = strtoll(*p + k + 1, &end, 10);
	if (end == *p + k + 1 || *end != '\n')
		return -1;
	*p = end + 1;
	return 0;
}

/* BYTES of text at *p, then a newline: a NUL-terminated copy into *out. */
static int bytes(const char **p, const char *end, long long n, char **out, size_t *len)
{
	if (n < 0 || n > end - *p - 1 || (*p)[n] != '\n')
		return -1;
	*out = malloc((size_t)n + 1);
	if (!*out)
		return -1;
	memcpy(*out, *p, (size_t)n);
	(*out)[n] = '\0';
	if (len)
		*len = (size_t)n;
	*p += n + 1;
	return 0;
}

int trim__work_result_parse(const char *text, trim__work_result *r)
{
	memset(r, 0, sizeof *r);
	const char *p = text, *end = text + strlen(text);
	long long id = 0, rc = 0, resumed = 0, stale = 0, mlen = 0, plen = 0;
	int kind = -1;
	if (!strncmp(p, "libtrim work 1\nkind ", 20)) {
		p += 20;
		for (int k = 0; k < NKINDS && kind < 0; k++) {
			size_t l = strlen(kind_names[k]);
			if (!strncmp(p, kind_names[k], l) && p[l] == '\n') {
				kind = k;
				p += l + 1;
			}
		}
	}
	int bad = kind < 0 || line_int(&p, "item", &id) || line_int(&p, "rc", &rc) ||
	          line_int(&p, "resumed", &resumed) || line_int(&p, "stale", &stale) ||
	          line_int(&p, "message", &mlen) || bytes(&p, end, mlen, &r->message, NULL) ||
	          line_int(&p, "payload", &plen) || bytes(&p, end, plen, &r->payload, &r->payload_len) ||
	          strcmp(p, "end\n") || id < 0 || rc > 0 || rc < -1000 || (resumed | stale) & ~1LL;
	if (bad) {
		trim__work_result_clear(r);
		return trim__error(TRIM_EPARSE, "trim_work_merge: not a libtrim work result (or a truncated one)");
	}
	r->kind = kind;
	r->id = id;
	r->rc = (int)rc;
	r->resumed = (int)resumed;
	r->stale = (int)stale;
	return 0;
}
