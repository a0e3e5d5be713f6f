/*
 * Warnings before the work (docs/guide.md, "Warnings before the work"):
 * what the architecture alone, or with the workloads' sizes, says about a
 * design that will surely perform badly, before any search.
 *
 * - no_bandwidth: an off-chip level without read_bw or write_bw; the
 *   evaluator then gives its traffic 0 cycles (the intra workloads' and the
 *   inter-layer workloads').
 * - starved_link: a network whose link carries one word per cycle or less
 *   for every TRIM__WARN_ARRAY_DESTS children (the predicate of the
 *   warning after the search, lib/report/warnings.c).
 * - traffic_bound: with workloads, a level that cannot keep up with the
 *   MACs at peak even if every word crosses it only once. Every weight-like
 *   operand (slot 1) must be read from the outermost level and cross every
 *   network on its way to a MAC, and every result (slot 2) must cross every
 *   network back and be written to the outermost level; their counts are
 *   therefore lower bounds of the evaluator's reads, updates and link words
 *   for any mapping, and these words over the level's words per cycle are
 *   lower bounds of its cycles_l. The input-like operand is left out: with
 *   a stride above the kernel, or padding, some of its elements are never
 *   read. Compared with the MACs at peak (MACs / peak, the fewest compute
 *   cycles), the bound caps the temporal utilisation whatever the mapping.
 *   Designs that compress sparse operands (their words depend on the
 *   densities) or skip masked results are not checked.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_int.h"
#include "util/handle.h"
#include "workload/workload_int.h"

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

static int arch_warnings(trim__warnings *ws, const struct trim_arch *a)
{
	trim__warning *w;
	for (int l = 0; l < a->nlevels - 1; l++) {
		const trim__level *L = &a->lv[l];
		if (L->type == TRIM__LVL_STORAGE && L->mem_class == TRIM__MEM_DRAM &&
		    (!(L->read_bw > 0) || !(L->write_bw > 0))) {
			int none = !(L->read_bw > 0) && !(L->write_bw > 0);
			if (!(w = add(ws, "no_bandwidth", L->name, 0)))
				return TRIM_ENOMEM;
			snprintf(w->message, sizeof w->message,
			         "%s has no %s: its %s take no time (0 cycles in every workload, inter-layer "
			         "ones included); give it the words per cycle of its interface",
			         L->name, none ? "read_bw or write_bw" : L->read_bw > 0 ? "write_bw" : "read_bw",
			         none ? "reads and writes" : L->read_bw > 0 ? "writes" : "reads");
		}
		double per = 0;
		if (trim__arch_link_starved(a, l, &per)) {
			if (!(w = add(ws, "starved_link", L->name, 0)))
				return TRIM_ENOMEM;
			double words = (double)(L->fanout_x * L->fanout_y) / per;
			double inst = (double)(L->instances > 0 ? L->instances : 1);
			snprintf(w->message, sizeof w->message,
			         "%s: a %d-bit link of %d-bit words carries %.4g word%s per cycle into %lld children: "
			         "each word must feed %.4g MACs to keep the MACs busy; give the level a wider link_bits",
			         L->name, L->link_bits, a->word_bits, words, words == 1 ? "" : "s",
			         (long long)(L->fanout_x * L->fanout_y), trim__arch_peak_macs_per_cycle(a) / (words * inst));
		}
	}
	return 0;
}

/* Words that must cross level l per workload, and the cycles they take at
 * the level's words per cycle (0: the level is not checked). */
static double traffic_cycles(const struct trim_arch *a, const trim__roofline *r, int l, const trim__intra *w)
{
	double wt = w->t[1].present && !w->t[1].has_zeros ? (double)w->t[1].elems : 0;
	double out = w->t[2].present ? (double)w->t[2].elems : 0;
	const trim__roof_level *o = &r->lv[l];
	if (a->lv[l].type == TRIM__LVL_STORAGE) {
		double rd = o->read_words > 0 ? wt / o->read_words : 0;
		double wr = o->write_words > 0 ? out / o->write_words : 0;
		return rd > wr ? rd : wr;
	}
	if (!o->per_tensor)
		return o->link_words[0] > 0 ? (wt + out) / o->link_words[0] : 0;
	double cw = o->link_words[1] > 0 ? wt / o->link_words[1] : 0;
	double co = o->link_words[2] > 0 ? out / o->link_words[2] : 0;
	return cw > co ? cw : co;
}

static int sparse_words(const struct trim_arch *a)
{
	for (int l = 0; l < a->nlevels; l++)
		if (a->lv[l].sp_compressed)
			return 1;
	return a->lv[a->nlevels - 1].bw_output_skip;
}

static int traffic_warnings(trim__warnings *ws, const struct trim_arch *a, const trim_workloads *wl,
                            size_t first, size_t count)
{
	if (sparse_words(a) || count == 0)
		return 0;
	trim__roofline r;
	trim__roofline_make(a, &r);
	for (int l = 0; l < a->nlevels - 1; l++) {
		if (!(l == 0 || a->lv[l].type == TRIM__LVL_SPATIAL) || !(r.lv[l].ridge > 0))
			continue;
		int bound = 0;
		double macs = 0, cycles = 0, worst = 2, worst_lb = 0, worst_compute = 0;
		size_t worst_k = first;
		for (size_t k = first; k < first + count; k++) {
			const trim__intra *w = trim__workloads_intra(wl, k);
			double compute = (double)w->macs / r.peak, lb = traffic_cycles(a, &r, l, w);
			macs += (double)w->macs;
			cycles += lb > compute ? lb : compute;
			if (!(lb > compute))
				continue;
			bound++;
			if (compute / lb < worst) {
				worst = compute / lb;
				worst_k = k;
				worst_lb = lb;
				worst_compute = compute;
			}
		}
		double util = cycles > 0 ? macs / (r.peak * cycles) : 1;
		if (bound == 0 || (bound < (int)count && util >= TRIM__WARN_TEMPORAL_UTIL))
			continue;
		const trim__intra *w = trim__workloads_intra(wl, worst_k);
		trim__warning *o = add(ws, "traffic_bound", a->lv[l].name, bound);
		if (!o)
			return TRIM_ENOMEM;
		o->util_bound = util;
		snprintf(o->message, sizeof o->message,
		         "%s: moving each weight and output word once takes more cycles than the MACs at peak in %d of %zu "
		         "workloads (%s %s: %.3g cycles against %.3g): temporal utilisation at most %.3g%s, "
		         "whatever the mapping",
		         a->lv[l].name, bound, count, w->layer, trim_phase_name(w->phase), worst_lb, worst_compute, util,
		         count > 1 ? " over all of them" : "");
	}
	return 0;
}

int trim__precheck(trim__warnings *ws, const struct trim_arch *a, const trim_workloads *wl, size_t first,
                   size_t count)
{
	memset(ws, 0, sizeof *ws);
	int rc = arch_warnings(ws, a);
	if (rc == 0 && wl)
		rc = traffic_warnings(ws, a, wl, first, count);
	if (rc)
		trim__warnings_free(ws);
	return rc;
}

/* The warnings as a table for people, one per line. */
static int warnings_table(const void *report, trim__sb *sb)
{
	trim__warnings_table(report, sb);
	return 0;
}

/* The warnings as a JSON array. */
static int warnings_json(const void *report, trim__sb *sb)
{
	trim__warnings_json(report, sb);
	return 0;
}

/* The writers of trim_arch_warnings, one per format. */
static const trim__writers warnings_writers = {
	"trim_arch_warnings", {[TRIM_FORMAT_TABLE] = warnings_table, [TRIM_FORMAT_JSON] = warnings_json}};

TRIM_API int trim_arch_warnings(const trim_arch *a, const trim_workloads *w, int64_t workload, int format,
                                char **out)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	if (!a || !out)
		return trim__error(TRIM_EINVAL, "trim_arch_warnings: NULL argument");
	*out = NULL;
	int rc = trim__writers_check(&warnings_writers, format);
	if (rc)
		return rc;
	size_t n = w ? trim_workloads_intra_count(w) : 0, first = 0, count = n;
	if (workload >= 0) {
		if (!w || (uint64_t)workload >= n)
			return trim__error(TRIM_ERANGE, "trim_arch_warnings: workload %lld out of range (%zu intra "
			                   "workloads)", (long long)workload, n);
		first = (size_t)workload;
		count = 1;
	} else if (workload != -1) {
		return trim__error(TRIM_EINVAL, "trim_arch_warnings: workload must be an index or -1 (all)");
	}
	trim__warnings ws;
	rc = trim__precheck(&ws, a, w, first, count);
	if (rc)
		return rc;
	rc = trim__write_report(&warnings_writers, format, &ws, out);
	trim__warnings_free(&ws);
	return rc;
}
