/*
 * A point read back from its file (explore --out DIR, or a result of
 * another process, lib/work/) is checked again before it is used: its
 * figures are only what the mappings it holds give now. The point's
 * network evaluation is set up as the sweep's (trim__explore_point_begin),
 * each distinct workload takes the file's mapping instead of a search
 * (the check trim eval applies, then the evaluator: microseconds) and
 * what its search proved (exact, lower bound) from the file, the
 * evaluation runs (the sparse figures, the inter-layer workloads, the
 * totals) and the point's file is written again from the result
 * (trim__explore_point_text): it must be the file, byte for byte, so every
 * figure is bit for bit what the model gives. An invalid point (no mapping
 * fitted) has no mapping to check: its architecture's own figures (area or
 * FPGA resources) are, and its error is taken as recorded (proving again
 * that nothing fits is a search).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"
#include "neteval/neteval_state.h"
#include "trim/mapping.h"
#include "workload/workload_int.h"

/* Each distinct workload of ne takes its mapping from p; 0, or 1 with why,
 * or TRIM_ENOMEM. */
static int take_mappings(trim_neteval *ne, const trim__xpoint *p, char *why, size_t n)
{
	if (p->nw != ne->n) {
		snprintf(why, n, "it holds %zu workloads, the network has %zu", p->nw, ne->n);
		return 1;
	}
	for (size_t k = 0; k < ne->n; k++) {
		const trim__intra *x = trim__workloads_intra(ne->w, k);
		if (ne->rec[k].reused_from >= 0 || !trim__neteval_in_range(ne, x->layer_index))
			continue; /* the evaluation copies the first identical workload's */
		const char *yaml = p->wl[k].mapping ? p->wl[k].mapping : "";
		char name[160], how[600];
		snprintf(name, sizeof name, "%s %s", x->layer, trim_phase_name(x->phase));
		trim_mapping *m = NULL;
		int rc = trim_mapping_load_string(&m, (const trim_arch *)ne->arch, yaml, name);
		if (rc == TRIM_ENOMEM)
			return rc;
		if (rc) {
			snprintf(why, n, "its mapping of %s cannot be read (%s)", name, trim_last_error());
			return 1;
		}
		trim__eval e;
		double cost = 0;
		if (trim__resume_check_mapping(ne, k, m, &e, &cost, how, sizeof how)) {
			snprintf(why, n, "its mapping of %s %s", name, how);
			trim_mapping_free(m);
			return 1;
		}
		trim__resume_take(ne, k, m, &e, cost);
		/* what its search proved is the file's: checking a mapping proves
		 * nothing about the mappings it did not see */
		ne->rec[k].exact = p->wl[k].exact;
		ne->rec[k].lower_bound = p->wl[k].lower_bound;
		trim_mapping_free(m);
	}
	return 0;
}

/* Why the file's text (recorded) is not the text its mappings give (now):
 * the first value that differs, its key and, inside a workload, its layer. */
static void explain(const char *recorded, size_t len, const char *now, char *why, size_t n)
{
	/* the first byte that differs, the checksum's own digits aside (they
	 * differ whenever anything else does) */
	const char *sum = strstr(now, "\"checksum\": \"");
	size_t skip = sum ? (size_t)(sum - now) + 13 : (size_t)-1, at = 0;
	while (at < len && now[at] && (recorded[at] == now[at] || (at >= skip && at < skip + 64)))
		at++;
	size_t v = at; /* the start of the value that differs */
	while (v > 0 && !strchr(" [{", now[v - 1]))
		v--;
	size_t q = v; /* its key: the last "key": before it */
	while (q > 0 && !(now[q] == '"' && now[q + 1] == ':'))
		q--;
	size_t k = q;
	while (k > 0 && now[k - 1] != '"')
		k--;
	const char *layer = NULL;
	for (const char *s = strstr(now, "{\"layer\": \""); s && (size_t)(s - now) < v; s = strstr(s + 1, "{\"layer\": \""))
		layer = s + 11;
	char key[200];
	if (layer)
		snprintf(key, sizeof key, "the \"%.*s\" of workload %.*s", (int)(q - k), now + k, (int)strcspn(layer, "\""),
		         layer);
	else
		snprintf(key, sizeof key, "its \"%.*s\"", (int)(q - k), now + k);
	const char *rv = v < len ? recorded + v : "(nothing)";
	int rn = (int)strcspn(rv, ",}]\n"), nn = (int)strcspn(now + v, ",}]\n");
	snprintf(why, n, "%s is %.*s in the file, its mappings give %.*s", key, rn < 60 ? rn : 60, rv,
	         nn < 60 ? nn : 60, now + v);
}

int trim__explore_recheck_point(const trim_explorer *ex, size_t i, const trim__xpoint *p, const char *text,
                                size_t len, trim__xpoint *out, char *why, size_t n)
{
	trim_neteval *ne = NULL;
	char *now = NULL;
	memset(out, 0, sizeof *out);
	int rc = trim__explore_point_begin(ex, i, 1, out, &ne);
	if (rc == 0 && !p->valid) {
		out->valid = 0;
		out->done = 1;
		snprintf(out->error, sizeof out->error, "%s", p->error);
	} else if (rc == 0) {
		trim__neteval_plan(ne);
		rc = take_mappings(ne, p, why, n);
		if (rc == 0)
			rc = trim__explore_point_end(ex, i, ne, trim_neteval_run(ne), out);
		else if (rc > 0)
			goto out;
	}
	if (rc) {
		if (rc != TRIM_ENOMEM) {
			snprintf(why, n, "cannot be checked again (%s)", trim_last_error());
			rc = 1;
		}
		goto out;
	}
	/* the ranking's own fields are set again when the sweep is ranked (the
	 * bound too: it follows the goal's weights, which are not stamped) */
	static const int ranking[] = {TRIM_XF_RANK, TRIM_XF_PARETO, TRIM_XF_LOWER_BOUND, TRIM_XF_GAP,
	                              TRIM_XF_RANK_BEST, TRIM_XF_RANK_WORST};
	for (size_t k = 0; k < sizeof ranking / sizeof ranking[0]; k++)
		out->f[ranking[k]] = p->f[ranking[k]];
	if ((rc = trim__explore_point_text(ex, i, out, &now)))
		goto out;
	if (strlen(now) != len || memcmp(now, text, len)) {
		explain(text, len, now, why, n);
		rc = 1;
		goto out;
	}
	out->done = 1;
	out->resumed = 1;
out:
	free(now);
	trim_neteval_free(ne);
	if (rc)
		trim__explore_point_clear(out);
	if (rc > 0)
		trim_clear_error();
	return rc;
}
