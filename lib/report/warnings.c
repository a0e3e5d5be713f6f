/*
 * Warnings for designs whose defaults silently starve them (docs/guide.md,
 * "Reports"): a link that carries one word per cycle into a large array, a
 * level that bounds the time while the MACs idle, a low temporal
 * utilisation. Each names the level and how many workloads it concerns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

void trim__warnings_free(trim__warnings *ws)
{
	if (!ws)
		return;
	free(ws->items);
	memset(ws, 0, sizeof *ws);
}

static trim__warning *add(trim__warnings *ws, const char *kind, const char *level, int workloads)
{
	if (trim__grow((void **)&ws->items, &ws->cap, ws->n + 1, sizeof *ws->items))
		return NULL;
	trim__warning *w = &ws->items[ws->n++];
	memset(w, 0, sizeof *w);
	snprintf(w->kind, sizeof w->kind, "%s", kind);
	snprintf(w->level, sizeof w->level, "%s", level ? level : "");
	w->workloads = workloads;
	return w;
}

/* Words per cycle a spatial level's link carries (0: unlimited). */
static double link_words(const struct trim_arch *a, const trim__level *L)
{
	int bits = a->word_bits > 0 ? a->word_bits : 16;
	return L->link_bits > 0 ? (double)L->link_bits / (double)bits : 0;
}

/* A percentage: whole numbers from 1%, two digits below (never "0%" for 0.3%). */
static const char *percent(char *buf, size_t n, double fraction)
{
	double p = 100 * fraction;
	snprintf(buf, n, p >= 1 || p == 0 ? "%.0f%%" : "%.2g%%", p);
	return buf;
}

static int64_t fanout(const trim__level *L) { return L->fanout_x * L->fanout_y; }

int trim__warnings_make(trim__warnings *ws, const trim__wview *views, const char *const *names,
                        size_t n, const struct trim_arch *a)
{
	memset(ws, 0, sizeof *ws);
	const int c = a->nlevels - 1;
	trim__warning *w;
	for (int l = 0; l < c; l++) {
		/* workloads this level bounds, and the one where compute idles most */
		int bound = 0, idle = 0;
		double worst = 2;
		size_t worst_k = 0;
		for (size_t k = 0; k < n; k++) {
			if (trim__wview_bottleneck(&views[k], a) != l)
				continue;
			bound++;
			double cyc = trim__wview_cycles(&views[k]);
			double busy = cyc > 0 ? trim__wview_compute_cycles(&views[k], a) / cyc : 1;
			if (busy < TRIM__WARN_COMPUTE_BUSY)
				idle++;
			if (busy < worst) {
				worst = busy;
				worst_k = k;
			}
		}
		if (bound == 0)
			continue;
		const trim__level *L = &a->lv[l];
		char busy[32];
		percent(busy, sizeof busy, worst);
		if (trim__arch_link_starved(a, l, NULL)) {
			if (!(w = add(ws, "starved_link", L->name, bound)))
				return TRIM_ENOMEM;
			snprintf(w->message, sizeof w->message,
			         "%s: a %d-bit link carries %.3g word per cycle into %lld children and bounds "
			         "the time of %d of %zu workloads (%s: compute busy %s of the cycles); "
			         "give the level a wider link_bits",
			         L->name, L->link_bits, link_words(a, L), (long long)fanout(L), bound, n,
			         names[worst_k], busy);
		} else if (idle > 0) {
			if (!(w = add(ws, "idle_compute", L->name, idle)))
				return TRIM_ENOMEM;
			snprintf(w->message, sizeof w->message,
			         "%s bounds the time of %d of %zu workloads while compute is busy less than "
			         "%.0f%% of the cycles (%s: %s)",
			         L->name, idle, n, 100 * TRIM__WARN_COMPUTE_BUSY, names[worst_k], busy);
		}
	}
	/* temporal utilisation: of every workload, and of all together */
	double exec = 0, cycles = 0, worst = 2;
	int low = 0;
	size_t worst_k = 0;
	for (size_t k = 0; k < n; k++) {
		double u = trim__wview_temporal_util(&views[k], a);
		exec += trim__wview_executed_macs(&views[k], a);
		cycles += trim__wview_cycles(&views[k]);
		if (u < TRIM__WARN_TEMPORAL_UTIL)
			low++;
		if (u < worst) {
			worst = u;
			worst_k = k;
		}
	}
	double total = cycles > 0 ? exec / (trim__arch_peak_macs_per_cycle(a) * cycles) : 0;
	if (low > 0) {
		if (!(w = add(ws, "low_utilization", "", low)))
			return TRIM_ENOMEM;
		snprintf(w->message, sizeof w->message,
		         "temporal utilisation (MACs / (PEs x cycles)) %.3g%s; %d of %zu workloads below %.2g "
		         "(%s: %.3g)",
		         total, n > 1 ? " over all workloads" : "", low, n, TRIM__WARN_TEMPORAL_UTIL,
		         names[worst_k], worst);
	}
	return 0;
}

void trim__warnings_json(const trim__warnings *ws, trim__sb *sb)
{
	trim__sb_putc(sb, '[');
	for (size_t k = 0; k < ws->n; k++) {
		const trim__warning *w = &ws->items[k];
		trim__sb_puts(sb, k ? ", {\"kind\": " : "{\"kind\": ");
		trim__sb_json_str(sb, w->kind);
		trim__sb_puts(sb, ", \"level\": ");
		trim__sb_json_str(sb, w->level);
		trim__sb_printf(sb, ", \"workloads\": %d, ", w->workloads);
		if (w->util_bound > 0) {
			trim__sb_puts(sb, "\"utilization_bound\": ");
			trim__sb_json_double(sb, w->util_bound);
			trim__sb_puts(sb, ", ");
		}
		trim__sb_puts(sb, "\"message\": ");
		trim__sb_json_str(sb, w->message);
		trim__sb_putc(sb, '}');
	}
	trim__sb_putc(sb, ']');
}

void trim__warnings_table(const trim__warnings *ws, trim__sb *sb)
{
	for (size_t k = 0; k < ws->n; k++)
		trim__sb_printf(sb, "warning: %s\n", ws->items[k].message);
}
