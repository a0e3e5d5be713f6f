/*
 * The items of a network evaluation (trim/work.h): its distinct searches.
 * A result's payload is the search's resume file text
 * (lib/neteval/resume.c), so a merged search is checked as a search read
 * back from an output directory is: stamp, checksum, the mapping's check and
 * its cost evaluated again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neteval/neteval_state.h"
#include "work_int.h"
#include "workload/workload_int.h"

int trim__work_network_items(trim_work *wk)
{
	trim_neteval *ne = wk->ne;
	trim__neteval_plan(ne);
	wk->n = 0;
	for (size_t i = 0; i < ne->n; i++) {
		if (!trim__work_network_valid(wk, (int64_t)i))
			continue;
		wk->ids[wk->n] = (int64_t)i;
		wk->cost[wk->n] = (double)trim__workloads_intra(ne->w, i)->macs;
		wk->n++;
	}
	return 0;
}

int trim__work_network_valid(const trim_work *wk, int64_t id)
{
	const trim_neteval *ne = wk->ne;
	if (id < 0 || (size_t)id >= ne->n)
		return 0;
	return ne->rec[id].reused_from < 0 && trim__neteval_in_range(ne, trim__workloads_intra(ne->w, (size_t)id)->layer_index);
}

int trim__work_network_recorded(const trim_work *wk, int64_t id) { return wk->ne->rec[id].searched; }

int trim__work_network_run(trim_work *wk, int64_t id, trim__work_result *r)
{
	return trim__work_search_run(wk->ne, (size_t)id, r);
}

int trim__work_network_merge(trim_work *wk, trim__work_result *r)
{
	return trim__work_search_merge(wk->ne, (size_t)r->id, r);
}

int trim__work_search_run(trim_neteval *ne, size_t j, trim__work_result *r)
{
	wrec *rec = &ne->rec[j];
	if (!rec->searched) {
		int64_t stale = __atomic_load_n(&ne->stale, __ATOMIC_RELAXED);
		trim__neteval_search_item(ne, j);
		r->stale = __atomic_load_n(&ne->stale, __ATOMIC_RELAXED) != stale;
	}
	r->resumed = rec->resumed;
	if (rec->search_rc) {
		r->rc = rec->search_rc;
		r->message = trim__strdup(rec->search_msg);
		return r->message ? 0 : TRIM_ENOMEM;
	}
	trim__sb sb;
	trim__sb_init(&sb);
	trim__resume_text(ne, j, &sb);
	r->payload_len = sb.len;
	return trim__sb_take(&sb, &r->payload);
}

int trim__work_search_merge(trim_neteval *ne, size_t j, trim__work_result *r)
{
	wrec *rec = &ne->rec[j];
	if (r->rc) { /* kept in the record: trim_neteval_step reports it as its own search would */
		rec->search_rc = r->rc;
		snprintf(rec->search_msg, sizeof rec->search_msg, "%s", r->message ? r->message : "");
		rec->searched = 1;
		__atomic_add_fetch(&ne->searches_done, 1, __ATOMIC_RELAXED);
		return 0;
	}
	char where[96];
	snprintf(where, sizeof where, "the result of search %lld", (long long)r->id);
	char why[768];
	if (trim__resume_parse(ne, j, r->payload, r->payload_len, where, 1, why, sizeof why) != 1)
		return trim__error(TRIM_EINVAL, "trim_work_merge: %s is not a result of this network evaluation: %s",
		                   where, why);
	rec->resumed = r->resumed;
	if (r->resumed)
		__atomic_add_fetch(&ne->resumed, 1, __ATOMIC_RELAXED);
	if (r->stale)
		__atomic_add_fetch(&ne->stale, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&ne->searches_done, 1, __ATOMIC_RELAXED);
	if (ne->out_dir && !r->resumed)
		return trim__resume_save(ne, j); /* the collector's own copy */
	return 0;
}
