/*
 * trim/work.h - the work of an exploration or a network evaluation as
 * independent items, for a tool that distributes it its own way (the MPI
 * front end trim-mpi, Slurm job arrays, a queue): enumerate the items, run
 * any of them in any process, pass each result on as text, merge the
 * results in any order (docs/guide.md, "Running on a cluster").
 *
 * Use: every process builds the same explorer (trim/explore.h) or network
 * evaluation (trim/neteval.h) from the same inputs and options, then
 *   trim_work_explore(&wk, ex)   or   trim_work_network(&wk, ne);
 *   item k of trim_work_count(wk), largest expected first: trim_work_item;
 *   a process that runs item `id`: trim_work_run(wk, id, &text), sends text;
 *   the collector: trim_work_merge(wk, text) for every item it did not run
 *   itself, then trim_work_finish(wk) (the first item error) and
 *   trim_explorer_run / trim_neteval_run, which find every item done and
 *   only rank the points / add up the totals.
 * Items: an exploration's are its points not yet done (id = point index;
 * points read back from its output directory are not items); a network's
 * are its distinct searches (id = index of the first intra workload of its
 * kind; the identical workloads after it reuse its result); one search's
 * (trim_work_search, the "One search" calls below) are its tree's top nodes.
 * Results: text carrying the item's figures and best mappings (or its
 * error), stamped with the digests of the inputs and options that change
 * them (the stamps of trim_explorer_set_out_dir and trim_neteval_set_out_dir)
 * and a checksum; trim_work_merge refuses a result of other inputs. With an
 * output directory, trim_work_run writes the item's file there as the
 * single-process run does, and a process that finds it there reads it back
 * instead of running it: a rerun resumes from every process's finished items.
 * Determinism: once every item is merged, every report is byte-identical to
 * the single-process run, whichever process ran which item and in whatever
 * order the results arrived; a time limit (TRIM_EX_TIME_LIMIT,
 * TRIM_NET_TIME_LIMIT) makes the searches depend on the clock, as in one
 * process.
 * Errors: negative TRIM_E* codes with the message in trim_last_error().
 * Ownership: a trim_work belongs to the caller (trim_work_free, NULL
 * accepted); its explorer or evaluation must outlive it and is modified by
 * trim_work_run and trim_work_merge (the results are recorded in it).
 * Threads: trim_work_run of one item may overlap trim_work_merge of
 * another (a collector that also computes); runs must not overlap each
 * other, nor merges. A run uses the object's own threads (TRIM_EX_THREADS,
 * TRIM_NET_THREADS).
 */
#ifndef TRIM_WORK_H
#define TRIM_WORK_H

#include "trim/common.h"
#include "trim/explore.h"
#include "trim/neteval.h"
#include "trim/search.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trim_work trim_work;

/** The points of `ex` not yet done, as items. After the options and the
 * output directory are set (trim_explorer_set_out_dir), which must not
 * change after it (the results are stamped with them); TRIM_EIO when an
 * input cannot be read to stamp the results. */
TRIM_API int trim_work_explore(trim_work **out, trim_explorer *ex);
/** The exploration cut finer: the distinct searches of every point not yet
 * done, as items (id = point index x trim_workloads_intra_count + the index
 * of the first intra workload of its kind), for explorations with fewer
 * points than processes. When every search of a point is recorded in a
 * handle, the point is finished there (its figures, its file in the output
 * directory), as trim_explorer_run finishes it. Results of points not yet
 * finished are not kept on disk: a rerun searches them again. Each process
 * holds the evaluation of every point it has touched until the point is
 * finished. As trim_work_explore otherwise. */
TRIM_API int trim_work_explore_searches(trim_work **out, trim_explorer *ex);
/** The distinct searches of `ne`, as items; plans them (which workloads
 * reuse which). After the options, the constraints, the layers and the
 * output directory, which must not change after it; before the first step
 * (TRIM_EINVAL). */
TRIM_API int trim_work_network(trim_work **out, trim_neteval *ne);
TRIM_API void trim_work_free(trim_work *wk);

/** One search spread over processes: the top nodes of its tree as items
 * (id = the node's place in ascending order of its lower bound; cost: that
 * bound). After the search's options, factors and constraints are set
 * (trim/search.h), which must not change after it; builds the tree, bounds
 * and sorts its top nodes and computes the seed, deterministically, as
 * trim_search_run does before it searches them (every process that makes
 * the handle does this work). The search's threads (TRIM_SEARCH_THREADS)
 * are the runs this process may make at once (one node on each).
 * Nodes go out as tickets: the collector's trim_work_next gives the next
 * node with its threshold, any process's trim_work_run_ticket runs it into
 * a result, the collector's trim_work_merge takes it back (in any order).
 * trim_work_run does not apply (TRIM_EINVAL). Once every node is recorded,
 * trim_work_finish sets the search's result: trim_search_report and the
 * other trim_search_ calls then give exactly what trim_search_run gives with
 * any thread count. A node's threshold comes from the nodes four or more
 * places before it, so at most four nodes (beyond those already finished)
 * can run at any one time, however many processes there are. A search with
 * no tree (a small or unbounded space) has 0 items: trim_work_finish runs
 * it whole in the collector. A time limit (TRIM_SEARCH_TIME_LIMIT) or stop
 * runs on each process's clock from its trim_work_search: the result is a
 * valid anytime result, not necessarily one process's. The search must
 * outlive the handle. */
TRIM_API int trim_work_search(trim_work **out, trim_search *s);
/** Collector of trim_work_search's work: 1 and the next node's ticket
 * (*id the node; *ticket text to free with trim_string_free) once the nodes
 * four places and more before it are recorded; 0 when the next node must
 * wait for results of nodes handed out before it (merge them, ask again);
 * 2 when no node is left to hand out (the others were cut by their bound,
 * or the search stopped, or a node failed). Nodes cut by their bound are
 * recorded here without a run. Calls must not overlap each other or a
 * merge. TRIM_EINVAL for work of another kind. */
TRIM_API int trim_work_next(trim_work *wk, int64_t *id, char **ticket);
/** Run a ticket of trim_work_next (made by this or another process from
 * the same search) and record its result here; *result (NULL: not wanted)
 * gets the result text for the collector's trim_work_merge. A node that
 * fails (out of memory) is a result too, carrying its error. Runs may
 * overlap each other, merges and trim_work_next, up to the search's
 * threads at once (TRIM_EINVAL beyond). TRIM_EPARSE for text that is not a
 * ticket, TRIM_EINVAL for a ticket of another search (other inputs,
 * options or libtrim version: the top nodes differ). */
TRIM_API int trim_work_run_ticket(trim_work *wk, const char *ticket, char **result);

/** Number of items. */
TRIM_API size_t trim_work_count(const trim_work *wk);
/** Item k (0 .. count - 1), in the order to hand them out: largest expected
 * cost first (for a network, the workload's MACs; for an exploration, the
 * point's mapspace under its constraints summed over the network's
 * workloads, times its PEs), ties by id. *cost
 * (NULL: not wanted) is that estimate, only to compare items of one handle.
 * TRIM_ENOTFOUND when k >= count. */
TRIM_API int trim_work_item(const trim_work *wk, size_t k, int64_t *id, double *cost);
/** The place of item `id` among every item of the run, done or not, in the
 * same largest-first order: the same in every process and rerun with the
 * same inputs, whatever is done. For a static split among N independent
 * tasks (a job array: task K runs the items whose position % N == K).
 * TRIM_ENOTFOUND when `id` is not an item of the run. */
TRIM_API int trim_work_position(const trim_work *wk, int64_t id, int64_t *position);
/** Run item `id` in this process (its file read back from the output
 * directory when it is there, written there when it is made) and record its
 * result in the handle's explorer or evaluation; *result (NULL: not wanted)
 * gets its text, to free with trim_string_free. An item that fails (a
 * network workload no mapping fits, a file that cannot be written) is a
 * result too: its text carries the error, trim_work_finish reports it.
 * TRIM_ENOTFOUND when `id` is not an item. */
TRIM_API int trim_work_run(trim_work *wk, int64_t id, char **result);
/** Record a result of trim_work_run made by another process; *id (NULL: not
 * wanted) gets its item. A result for an item already recorded changes
 * nothing (every process makes the same one). TRIM_EPARSE for text that is
 * not a result, TRIM_EINVAL for a result of another run (other inputs or
 * options: the message says which), of another kind or of no item. */
TRIM_API int trim_work_merge(trim_work *wk, const char *result, int64_t *id);
/** Item `id` here: 1 recorded with its figures, 0 not recorded yet, or its
 * error (negative, the message in trim_last_error()). TRIM_ENOTFOUND when
 * `id` is not an item of the run. */
TRIM_API int trim_work_status(const trim_work *wk, int64_t id);
/** Items recorded so far (run here or merged). */
TRIM_API size_t trim_work_done(const trim_work *wk);
/** After every item is recorded: 0, or the error of the item with the
 * smallest id, with its message (what the single-process run reports);
 * TRIM_EINVAL naming the first missing item when some are not recorded. */
TRIM_API int trim_work_finish(const trim_work *wk);

#ifdef __cplusplus
}
#endif
#endif
