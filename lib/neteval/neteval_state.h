/*
 * lib/neteval/: a network on an architecture (docs/model.md, "Network
 * evaluation"). One concept per file:
 *   neteval.c       options, the run, totals and the public accessors
 *   search.c        one search per distinct workload, reuse between them
 *   pool.c          the searches side by side on the threads, one node pool
 *   resume.c        finished searches kept on disk (--out) and re-checked
 *   summary.c       the report: totals, workloads, searches (table, JSON, CSV)
 *   report.c        per-workload breakdowns, utilisation, warnings, JSON
 *   html.c          the HTML report (trim_neteval_write_html), drawn by
 *                   lib/report/html*.c
 * Headers: neteval_state.h (this: the state), neteval_int.h (read access
 * for the reports). The inter-layer workloads' costs are the evaluator's
 * (lib/eval/netcost_int.h).
 *
 * The state of a network evaluation (lib/neteval/neteval.c: options, totals,
 * reports; lib/neteval/search.c: the searches of its workloads, their reuse
 * and their parallel run).
 */
#ifndef TRIM_NETEVAL_STATE_H
#define TRIM_NETEVAL_STATE_H

#include "search/mapspace_int.h"
#include "eval/netcost_int.h"
#include "sparsity/sparse_eval_int.h"
#include "trim/constraints.h"
#include "trim/neteval.h"
#include "trim/sparsity.h"
#include "util/digest.h"
#include "util/handle.h"

/* One intra workload's record. */
typedef struct {
	int found;
	int skipped; /* outside the layer range */
	trim__mapping best;
	trim__index index;
	trim__eval dense;
	trim__sparse_eval sp;
	uint64_t generated, valid, evaluated;
	/* the search: what it proved (trim__search_result), and whether it is
	 * a reuse of the search of an earlier identical workload */
	int searched;              /* 1 once the search result is here */
	int search_rc;             /* its error (0: none) and message */
	char search_msg[512];
	int exact, stopped;
	double best_cost, lower_bound;
	long reused_from;          /* -1: searched itself */
	int resumed;               /* 1: read back from the --out directory */
	int running;               /* its search is running (with a time limit) */
	int retry;                 /* searched again with the time left (not read back from --out) */
	double deadline_at;        /* and stops at this monotonic second (extended as others finish) */
	double began, granted;     /* time limit: when its set-up began, the limit it was given */
	unsigned char key[TRIM__DIGEST_BYTES]; /* everything the search sees */
} wrec;

/* A stopped search's top nodes searched whole, for its retry
 * (trim__search_result.top_done; lib/neteval/search.c). */
typedef struct {
	uint8_t *done;
	int64_t n;
	unsigned char digest[TRIM__DIGEST_BYTES];
} done_memo;

struct trim_neteval {
	uint32_t tag; /* TRIM__H_NETEVAL (util/handle.h): first, checked by every entry point */
	char network[TRIM__NAME_LEN];
	trim_workloads *w;       /* own copy */
	trim_sparsity *sp;
	struct trim_arch *arch;  /* own copy */
	trim__level_cost costs[TRIM__MAX_LEVELS];
	trim__cache_plan plan;
	int goal, threads, use_sparsity;
	int64_t max_mappings;
	int imperfect;           /* TRIM_NET_IMPERFECT */
	double min_pe_util, min_rf_util;
	double time_limit, gap;  /* anytime search (0: exact) */
	int cache;               /* reuse identical workloads' searches (default 1) */
	trim_constraints *cons;  /* own copy, or NULL */
	int first_layer, last_layer; /* network layer indices; all when last < 0 */
	size_t n, next;
	wrec *rec;
	done_memo *done;         /* with a time limit: per record (NULL: none) */
	/* the searches: planned at the first step; the distinct ones number
	 * nsearch, searches_done of them are done (read from other threads) */
	int planned;
	double deadline;         /* monotonic seconds (time_limit), 0: none */
	int64_t started;         /* searches side by side: started so far, of share_total */
	int64_t share_total;
	int share_slots;         /* and the threads they share (0: one search at a time) */
	int64_t pooled;          /* searches run through the pool of top nodes (lib/neteval/pool.c) */
	double first_share;      /* tests: > 0, every search's limit in the first pass (then the retry) */
	uint64_t stop_after;     /* tests: > 0, every search stops there (trim__mapspace.stop_after) */
	/* time limit: the seconds each search took beyond its limit (set-up,
	 * stopping), summed over over_n searches (over_ns); the searches left keep their
	 * mean back from what remains (trim__neteval_search_budget) */
	int64_t over_ns, over_n; /* (atomics: nanoseconds) */
	int64_t nsearch, searches_done;
	/* resume (trim_neteval_set_out_dir): the directory (NULL: none), the
	 * digest of the evaluation's inputs, searches read back and found stale */
	char *out_dir;
	unsigned char stamp[TRIM__DIGEST_BYTES];
	int64_t resumed, stale;
	char *notes;             /* why: one line per reason (trim_neteval_resume_notes; NULL: none) */
	const char *library;     /* the stamps' library: trim__library_stamp() (tests: another) */
	/* totals (valid once next == n) */
	int finished;
	double cycles, energy, static_pj, dense_cycles, dense_energy, pe_util;
	double saved_pj, metadata_pj;
	double level_pj[TRIM__MAX_LEVELS];
	size_t ninter;
	trim__inter_cost *inter;
};

/* 1 if workload i is in the layer range. */
int trim__neteval_in_range(const trim_neteval *ne, int layer);
/* The search of workload i's mapping: from its own search, the parallel
 * phase or an earlier identical workload; its record filled (found, best,
 * index, dense, counts, what the search proved). 0 or an error naming the
 * workload. */
int trim__neteval_search(trim_neteval *ne, size_t i);
/* The order in which the pool starts the searches (the workloads that are
 * searched, not reused, in range): without a time limit the most MACs
 * first; with one the fewest distinct mappings first. Returns their count
 * (order: room for ne->n), SIZE_MAX when out of memory. */
size_t trim__neteval_search_order(const trim_neteval *ne, size_t *order);
/* Resume files (lib/neteval/resume.c): the inputs' digest into ne->stamp;
 * workload i read back (1), absent (0) or stale, unreadable or corrupted
 * (-1, a line in ne->notes); written (0 or an error); the directory made
 * if missing. */
void trim__resume_stamp(trim_neteval *ne);
int trim__resume_load(trim_neteval *ne, size_t i);
int trim__resume_save(const trim_neteval *ne, size_t i);
/* The text of workload i's file appended to sb, and workload i's record
 * from such text (modified in place; `path` names it in messages): 1 used,
 * -1 stale or corrupted, why (nwhy bytes) says how. It is used only when
 * its checksum and stamp hold, it carries the proof the run asks for, its
 * mapping passes the check trim eval applies and evaluates to the recorded
 * cost bit for bit, and its index is the encoding of its mapping. any_proof
 * 1 takes a result whatever it proves (one made by another process of this
 * same run, lib/work/). */
int trim__resume_text(const trim_neteval *ne, size_t i, trim__sb *sb);
int trim__resume_parse(trim_neteval *ne, size_t i, char *text, size_t n, const char *path, int any_proof,
                       char *why, size_t nwhy);
/* A search's result read back (a resume file, lib/work/'s results, an
 * explore point file's mappings): mapping m of workload i must pass the
 * check trim eval applies (with the bytes the cache plan reserves): then 0
 * with its evaluation in *e and the goal's cost in *cost; else -1 with why
 * ("fails the check trim eval applies (...)"; no record changed). _take
 * records it as workload i's result (exact, its lower bound its cost, no
 * search counts, index 0). */
int trim__resume_check_mapping(const trim_neteval *ne, size_t i, const trim__mapping *m, trim__eval *e,
                               double *cost, char *why, size_t n);
void trim__resume_take(trim_neteval *ne, size_t i, const trim__mapping *m, const trim__eval *e, double cost);
/* Searches side by side with a time limit (lib/neteval/search.c): raise
 * the deadline of every running search (rec[j].running) to what remains
 * of the network's (started of share_total started, `slots` threads) less
 * half the fair share (remaining * slots / searches not finished) of each
 * search still waiting, over the slots, and at least to that fair share;
 * the network's deadline once every search has started; with first_share
 * (tests) the fair share alone; never lowered. Called as a search starts
 * and as one ends. */
void trim__neteval_share_deadlines(trim_neteval *ne, int64_t started, int slots);
/* The time limit of a search starting now with `threads` threads, when
 * `left` searches (this one included) share what remains of the budget on
 * `slots` threads in all: its share of the thread-seconds left, or more:
 * what remains less half the share of each of the other left - 1 (0: none). */
double trim__neteval_search_budget(const trim_neteval *ne, int64_t left, int threads, int slots);
/* Which of the m stopped searches order[0 .. m) to search again with `fit`
 * thread-seconds (a second or more each): all when they fit; else those
 * of the largest gaps (best less lower bound), the network's order among
 * equals, moved to the front; returns how many (0 below a second). */
size_t trim__neteval_retry_pick(const trim_neteval *ne, size_t *order, size_t m, double fit);
/* The distinct searches order[0 .. m) side by side on the network's
 * threads, their top nodes in one pool (lib/neteval/pool.c). */
void trim__neteval_pool(trim_neteval *ne, const size_t *order, size_t m);
/* One active search of the pool, as the choice of a thread's next job sees
 * it: begun (its nodes may be handed out), stopping (none handed out any
 * more), ending (a thread ends it), running (its nodes being searched). */
typedef struct {
	int begun, stopping, ending, running;
} pool_state;
/* A free thread's choice among the nact active searches st[] (oldest
 * first) on `threads` threads, can_begin when a search waits and the pool
 * has room for it: -1 to begin the next search, while fewer searches than
 * threads still hand out nodes (a search's time limit is its share with a
 * thread to itself); else the count n of searches to take a node from, in
 * order[0 .. n): those that hand out nodes, the fewest threads on them
 * first, the oldest first among equals. */
int trim__pool_order(int nact, const pool_state *st, int threads, int can_begin, int *order);
/* One search of workload i in two halves around the search itself (the
 * network's pool runs it between them, lib/neteval/pool.c): prepare reads
 * it back from --out (1: the record is complete, nothing to search) or
 * makes its space (time limit `limit`, constraints, the mapping cap) and
 * result (0; *rc the set-up's error, which finish records); finish records
 * the search's result (rc its code) and frees both. */
int trim__neteval_search_prepare(trim_neteval *ne, size_t i, double limit, trim__mapspace *space,
                                 trim__search_result **res, int *rc);
void trim__neteval_search_finish(trim_neteval *ne, size_t i, int threads, trim__mapspace *space,
                                 trim__search_result *res, int rc);
/* The searches planned (keys, reuse, the resume stamp, the deadline) without
 * running any; idempotent. Then trim__neteval_search runs no parallel phase:
 * each workload not yet searched is searched at its step. */
void trim__neteval_plan(trim_neteval *ne);
/* Search distinct workload i now (not a reuse; read back from the
 * directory when it is there) with the evaluation's threads. */
void trim__neteval_search_item(trim_neteval *ne, size_t i);
int trim__resume_dir(const char *dir);
/* Shared by neteval.c and summary.c (the report): the goals' names; the
 * network's search figures (all exact?, the sums of the workloads' proven
 * lower bounds and best costs); the gap of best over lb; workload record r's
 * TRIM_NF_* figures into f. */
extern const char *const trim__neteval_goal_names[3];
int trim__neteval_search_totals(const trim_neteval *ne, double *lb, double *best);
double trim__neteval_gap_of(double best, double lb);
void trim__neteval_fields(const trim_neteval *ne, const wrec *r, double *f);
/* whether the compute level gates or skips zeros; record r's DRAM traffic in bytes */
int trim__neteval_sparse_hardware(const struct trim_arch *a);
double trim__neteval_offchip_bytes(const trim_neteval *ne, const wrec *r);

#endif
