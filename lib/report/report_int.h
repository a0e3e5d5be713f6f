/*
 * Reports over evaluated workloads (docs/guide.md, "Reports"): the
 * breakdown of counts and energy per (level, tensor, action), temporal
 * utilisation, the bottleneck, and the warnings for designs that starve.
 * Everything here reads results the evaluator, the sparse adjustment and
 * the network evaluation already computed: no count or cost is
 * recomputed by another formula, only split by action. One concept per
 * file:
 *   breakdown.c   a workload's view, its breakdown per (level, tensor,
 *                 action), temporal utilisation and bottleneck
 *   warnings.c    the warnings for designs that starve, after the search
 *   roofline.c    the design's roofline
 *   precheck.c    the warnings before the work
 *   eval.c        the report of one evaluation (trim_eval_report and the
 *                 getters that read a view)
 *   arch.c        trim_arch_report: what `trim arch` prints
 *   html*.c       the HTML report's pieces (html_int.h has their map)
 * The reports of a network evaluation (lib/neteval/report.c, summary.c,
 * html.c) and of an exploration (lib/explore/) are built on these, above
 * this folder; nothing here reads them.
 */
#ifndef TRIM_REPORT_INT_H
#define TRIM_REPORT_INT_H

#include "eval/eval_int.h"
#include "eval/netcost_int.h"
#include "sparsity/sparse_eval_int.h"
#include "trim/eval.h"
#include "util/util.h"

/* One evaluated workload: its best mapping, the evaluator's (dense)
 * figures and, when there are some, the sparse ones (NULL: the dense
 * figures are the workload's). */
typedef struct {
	const trim__intra *w;
	const trim__mapping *m;
	const trim__eval *dense;
	const trim__sparse_eval *sp;
} trim__wview;

/* Breakdown entries of an architecture of nlevels levels. */
#define TRIM__BD_SIZE(nlevels) ((size_t)(nlevels) * 3 * TRIM_ACT_COUNT)
#define TRIM__BD_AT(l, t, act) (((size_t)(l) * 3 + (size_t)(t)) * TRIM_ACT_COUNT + (size_t)(act))

/* Counts and energies of every (level, slot, action) into count[] and
 * energy[] (TRIM__BD_SIZE(a->nlevels) entries each, either may be NULL). */
void trim__breakdown(const trim__wview *v, const struct trim_arch *a, const trim__level_cost *costs,
                     double *count, double *energy);
/* The workload's cycles and energy (sparse when v->sp, else dense). */
double trim__wview_cycles(const trim__wview *v);
double trim__wview_energy(const trim__wview *v);
/* Cycles of the compute level (after sparse skipping and imbalance). */
double trim__wview_compute_cycles(const trim__wview *v, const struct trim_arch *a);
/* MACs executed, and the peak: PEs x MACs per PE per cycle. */
double trim__wview_executed_macs(const trim__wview *v, const struct trim_arch *a);
double trim__arch_peak_macs_per_cycle(const struct trim_arch *a);
/* MACs executed / (peak x cycles), 0 when no cycles. */
double trim__wview_temporal_util(const trim__wview *v, const struct trim_arch *a);
/* Level with the most cycles (the evaluator's rule, sparse compute time). */
int trim__wview_bottleneck(const trim__wview *v, const struct trim_arch *a);

/* ---- warnings ------------------------------------------------------------ */

/* Thresholds (docs/guide.md, "Reports"). */
#define TRIM__WARN_ARRAY_DESTS 16     /* a link into at least this many children is "large" */
#define TRIM__WARN_COMPUTE_BUSY 0.5   /* compute busy below this fraction of the cycles */
#define TRIM__WARN_TEMPORAL_UTIL 0.3  /* temporal utilisation below this */

typedef struct {
	char kind[24];    /* after the search: "starved_link", "idle_compute", "low_utilization";
	                     before it (precheck.c): "no_bandwidth", "starved_link", "traffic_bound" */
	char level[TRIM__ARCH_NAME_LEN]; /* "" when it names no level */
	int workloads;    /* workloads concerned (0: the architecture's alone) */
	double util_bound; /* traffic_bound: the temporal utilisation it caps (else 0) */
	char message[320];
} trim__warning;

typedef struct {
	trim__warning *items;
	size_t n, cap;
} trim__warnings;

void trim__warnings_free(trim__warnings *ws);
/* The warnings of n workloads (views[k] with names[k], "layer phase") on
 * one architecture. 0 or TRIM_ENOMEM. */
int trim__warnings_make(trim__warnings *ws, const trim__wview *views, const char *const *names,
                        size_t n, const struct trim_arch *a);
void trim__warnings_json(const trim__warnings *ws, trim__sb *sb);
void trim__warnings_table(const trim__warnings *ws, trim__sb *sb);

/* ---- the roofline and the warnings before the work (roofline.c, precheck.c) ---- */

typedef struct {
	double read_words, write_words;    /* storage: words per cycle, all instances (0: unlimited) */
	double read_ridge, write_ridge;    /* storage: peak / those (0: unlimited) */
	double link_words[3];              /* spatial: per tensor slot, all instances (one link: equal) */
	double link_ridge[3];
	int per_tensor;                    /* spatial: one network per tensor */
	double delivered_words;            /* spatial: words arriving per cycle, x fan-out with multicast */
	double ridge;                      /* the largest ridge of the level (0: unlimited) */
} trim__roof_level;

typedef struct {
	double peak;                       /* MACs per cycle: PEs x macs_per_cycle */
	int nlevels;
	trim__roof_level lv[TRIM__MAX_LEVELS];
	int binds_first;                   /* level of the largest ridge; -1 if every level is unlimited */
} trim__roofline;

void trim__roofline_make(const struct trim_arch *a, trim__roofline *r);
void trim__roofline_table(const struct trim_arch *a, const trim__roofline *r, trim__sb *sb);
void trim__roofline_json(const struct trim_arch *a, const trim__roofline *r, trim__sb *sb);
/* Spatial level l carries one word per cycle or less for every
 * TRIM__WARN_ARRAY_DESTS children (children per link word into *per). */
int trim__arch_link_starved(const struct trim_arch *a, int l, double *children_per_word);
/* The warnings before the work of the architecture and, when wl is not
 * NULL, of intra workloads first .. first+count-1. 0 or TRIM_ENOMEM. */
int trim__precheck(trim__warnings *ws, const struct trim_arch *a, const trim_workloads *wl, size_t first,
                   size_t count);

/* ---- JSON and tables of a breakdown ----------------------------------------- */

/* {"<level>": {"static": {"count": c, "energy_pj": e}, "<tensor>": {"<action>": {...}, ...},
 * ...}, ...}: the actions of each level's type, per tensor the workload has (the
 * compute level: "static", "macs", "sparse"). */
void trim__breakdown_json(const trim__intra *w, const struct trim_arch *a, const double *count,
                          const double *energy, trim__sb *sb);
/* CSV rows "<prefix>level,tensor,action,count,energy_pj", one per action of each level's
 * type and tensor the workload has ("all" for the compute level and leakage). */
void trim__breakdown_csv(const trim__intra *w, const struct trim_arch *a, const double *count,
                         const double *energy, const char *prefix, trim__sb *sb);
/* Energy per level (sum over tensors and actions) into out[0..nlevels-1]. */
void trim__breakdown_levels(const struct trim_arch *a, const double *energy, double *out);
/* Energy per tensor slot (sum over levels and actions) into out[0..2]. */
void trim__breakdown_tensors(const struct trim_arch *a, const double *energy, double *out);

extern const char *const trim__slot_names[3];

#endif
