/*
 * trim_neteval_write_html: a network evaluation's HTML report (docs/guide.md,
 * "Reports"), its data gathered here and drawn by lib/report/html*.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neteval_int.h"
#include "report/html_int.h"
#include "trim/workload.h"
#include "util/handle.h"

int trim_neteval_write_html(const trim_neteval *ne, const char *path)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !path)
		return trim__error(TRIM_EINVAL, "trim_neteval_write_html: NULL argument");
	trim__neteval_info info;
	trim__neteval_info_get(ne, &info);
	if (!info.finished)
		return trim__error(TRIM_EINVAL, "trim_neteval_write_html: not evaluated yet");
	trim__wview *views = trim__calloc(info.n ? info.n : 1, sizeof *views);
	size_t *index = trim__calloc(info.n ? info.n : 1, sizeof *index);
	trim__sb data;
	trim__sb_init(&data);
	int rc = views && index ? 0 : TRIM_ENOMEM;
	size_t n = 0;
	for (size_t i = 0; rc == 0 && i < info.n; i++)
		if (trim__neteval_view(ne, i, &views[n]))
			index[n++] = i;
	trim__html_inter *inter = trim__calloc(info.ninter ? info.ninter : 1, sizeof *inter);
	size_t ni = 0;
	if (!inter)
		rc = TRIM_ENOMEM;
	for (size_t j = 0; rc == 0 && j < info.ninter; j++) {
		const trim__inter_cost *c = trim__neteval_inter_cost(ne, j);
		if (!c)
			continue;
		snprintf(inter[ni].label, sizeof inter[ni].label, "%s %s", trim_workloads_inter_layer(info.w, j),
		         trim_inter_op_name(trim_workloads_inter_op(info.w, j)));
		inter[ni].cycles = c->cycles;
		inter[ni].energy_pj = c->energy_pj;
		inter[ni].level = c->level;
		ni++;
	}
	trim__html_detail d = {info.arch, info.costs, views, index, n, trim_neteval_cycles(ne),
	                       trim_neteval_energy_pj(ne), trim_neteval_pe_utilization(ne), inter, ni};
	char title[256];
	snprintf(title, sizeof title, "libtrim: %s on %s", info.network, info.arch->name);
	if (rc == 0) {
		trim__sb_puts(&data, "{\"kind\": \"network\", \"title\": ");
		trim__sb_json_str(&data, title);
		static const char *const goals[] = {"energy", "delay", "edp"};
		char sub[160];
		snprintf(sub, sizeof sub, "%s, goal %s, %zu intra-layer workloads%s",
		         trim_mode_name(trim_workloads_mode(info.w)), goals[info.goal % 3], n,
		         info.sparse_hardware ? ", sparse figures" : "");
		trim__sb_puts(&data, ", \"subtitle\": ");
		trim__sb_json_str(&data, sub);
		trim__sb_puts(&data, ", \"detail\": ");
		rc = trim__html_detail_json(&d, &data);
		trim__sb_puts(&data, "}");
	}
	if (rc == 0)
		rc = trim__html_write(path, title, &data);
	trim__sb_free(&data);
	free(views);
	free(index);
	free(inter);
	return rc;
}
