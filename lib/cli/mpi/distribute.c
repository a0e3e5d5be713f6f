/*
 * The MPI distribution of trim-mpi (docs/guide.md, "Running on a cluster"):
 * every rank builds the same explorer or network evaluation (the command's
 * own code), then the work items of trim/work.h are handed out by rank 0 on
 * request, largest expected first (dynamic load balancing: point and search
 * times differ by orders of magnitude). Rank 0 also computes, from the small
 * end of the list, while a thread of it answers the requests; the other
 * ranks send each result back with their next request. Rank 0 merges the
 * results into its own object, which the command then ranks or adds up and
 * prints: byte-identical to one process.
 *
 * Messages: a worker sends TAG_REQUEST carrying its last result's text
 * ("" at first), or TAG_BYE when its command failed before it could work;
 * rank 0 answers TAG_ITEM (an int64 item id) or TAG_STOP.
 */
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "trim_mpi.h"
#include "trim/work.h"

enum { TAG_REQUEST = 11, TAG_ITEM = 12, TAG_STOP = TRIM_MPI_TAG_STOP, TAG_BYE = TRIM_MPI_TAG_BYE };

int trim_mpi_rank, trim_mpi_size, trim_mpi_threaded;
static int entered; /* this rank reached the distribution */
static int saved_stderr = -1;

void trim_mpi_quiet_setup(void)
{
	int null = open("/dev/null", O_WRONLY);
	saved_stderr = null >= 0 ? dup(2) : -1;
	if (saved_stderr >= 0)
		dup2(null, 2);
	if (null >= 0)
		close(null);
}

/* This rank reached its work: its own messages count from now on. */
void trim_mpi_enter(void)
{
	entered = 1;
	if (saved_stderr >= 0) {
		fflush(stderr);
		dup2(saved_stderr, 2);
		close(saved_stderr);
		saved_stderr = -1;
	}
}

/* TRIM_MPI_TIMES=FILE: rank 0 writes every item's run and merge seconds
 * there (docs/cluster.md: the projection to many nodes is made from them). */
typedef struct {
	int64_t *id;
	double *estimate, *run_s, *merge_s;
	int *rank;
	size_t n;
} item_times;

typedef struct {
	trim_work *wk;
	item_times *times;  /* NULL: not kept */
	const char *cmd;
	pthread_mutex_t lock;
	size_t front, back;  /* items [front, back) not handed out yet */
	int rc;              /* the first error (the run stops) */
	char *refused;       /* the result whose merge failed, and its rank */
	int refused_rank;
	int progress;
	double t0;
	size_t total, shown;
} queue;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Under q->lock. */
static void show(queue *q)
{
	size_t k = trim_work_done(q->wk);
	if (!q->progress || k == q->shown)
		return;
	q->shown = k;
	double el = now() - q->t0, left = k ? el / (double)k * (double)(q->total - k) : 0;
	fprintf(stderr, "\rtrim-mpi %s: %zu/%zu items on %d ranks, %.0f s, about %.0f s left   %s", q->cmd, k, q->total,
	        trim_mpi_size, el, left, k == q->total ? "\n" : "");
}

static void note_time(queue *q, int64_t id, int rank, double run_s, double merge_s)
{
	item_times *t = q->times;
	for (size_t k = 0; t && k < t->n; k++)
		if (t->id[k] == id) {
			t->rank[k] = rank;
			t->run_s[k] = run_s;
			t->merge_s[k] = merge_s;
			return;
		}
}

/* The next item for a worker (largest first), or -1. */
static int64_t take_front(queue *q)
{
	int64_t id = -1;
	pthread_mutex_lock(&q->lock);
	if (q->rc == 0 && q->front < q->back && trim_work_item(q->wk, q->front, &id, NULL) == 0)
		q->front++;
	pthread_mutex_unlock(&q->lock);
	return id;
}

/* Answer every worker until each is stopped. */
static void *serve(void *arg)
{
	queue *q = arg;
	int stopped = 0;
	while (stopped < trim_mpi_size - 1) {
		int flag = 0;
		MPI_Status st;
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		if (!flag) { /* poll gently: rank 0's own computing needs the core */
			struct timespec nap = {0, 500 * 1000};
			nanosleep(&nap, NULL);
			continue;
		}
		int len = 0;
		MPI_Get_count(&st, MPI_CHAR, &len);
		char *text = malloc((size_t)len + 1);
		if (!text) {
			fprintf(stderr, "trim-mpi: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
		}
		MPI_Recv(text, len, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		text[len] = '\0';
		if (st.MPI_TAG == TAG_BYE) {
			if (q->wk) /* rank 0 is distributing: that rank's command failed where rank 0's did not */
				fprintf(stderr, "trim-mpi: rank %d could not start its work (its command failed on its node; "
				        "run it there alone to see why)\n", st.MPI_SOURCE);
			stopped++;
			free(text);
			continue;
		}
		/* "SECONDS\n" the worker's run took, then its result ("" at first) */
		char *result = strchr(text, '\n');
		double run_s = strtod(text, NULL);
		result = result ? result + 1 : text + len;
		if (result[0]) {
			pthread_mutex_lock(&q->lock);
			int64_t id = -1;
			double t0 = now();
			int rc = trim_work_merge(q->wk, result, &id);
			note_time(q, id, st.MPI_SOURCE, run_s, now() - t0);
			if (rc && q->rc == 0) {
				q->rc = rc;
				q->refused = strdup(result);
				q->refused_rank = st.MPI_SOURCE;
			}
			show(q);
			pthread_mutex_unlock(&q->lock);
		}
		free(text);
		int64_t id = take_front(q);
		if (id >= 0) {
			MPI_Send(&id, 1, MPI_INT64_T, st.MPI_SOURCE, TAG_ITEM, MPI_COMM_WORLD);
		} else {
			MPI_Send(&id, 1, MPI_INT64_T, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
			stopped++;
		}
	}
	return NULL;
}

/* Rank 0's own items, from the small end of the list. */
static void compute(queue *q)
{
	for (;;) {
		int64_t id = -1;
		pthread_mutex_lock(&q->lock);
		if (q->rc == 0 && q->front < q->back && trim_work_item(q->wk, q->back - 1, &id, NULL) == 0)
			q->back--;
		pthread_mutex_unlock(&q->lock);
		if (id < 0)
			return;
		double t0 = now();
		int rc = trim_work_run(q->wk, id, NULL);
		double run_s = now() - t0;
		pthread_mutex_lock(&q->lock);
		note_time(q, id, 0, run_s, 0);
		if (rc && q->rc == 0) /* the message stays this thread's last error */
			q->rc = rc;
		show(q);
		pthread_mutex_unlock(&q->lock);
	}
}

static void times_free(item_times *t)
{
	if (!t)
		return;
	free(t->id);
	free(t->estimate);
	free(t->run_s);
	free(t->merge_s);
	free(t->rank);
	free(t);
}

static item_times *times_make(const trim_work *wk)
{
	item_times *t = calloc(1, sizeof *t);
	size_t n = trim_work_count(wk), m = n ? n : 1;
	if (!t)
		return NULL;
	t->n = n;
	t->id = calloc(m, sizeof *t->id);
	t->estimate = calloc(m, sizeof *t->estimate);
	t->run_s = calloc(m, sizeof *t->run_s);
	t->merge_s = calloc(m, sizeof *t->merge_s);
	t->rank = calloc(m, sizeof *t->rank);
	if (!t->id || !t->estimate || !t->run_s || !t->merge_s || !t->rank) {
		times_free(t);
		return NULL;
	}
	for (size_t k = 0; k < n; k++)
		trim_work_item(wk, k, &t->id[k], &t->estimate[k]);
	return t;
}

/* The times file: one line per item in the order handed out. */
static void times_write(const item_times *t, const char *cmd, double collect_s, double finish_s)
{
	const char *path = getenv("TRIM_MPI_TIMES");
	FILE *f = t && path ? fopen(path, "w") : NULL;
	if (!f) {
		if (t && path)
			fprintf(stderr, "trim-mpi: cannot write %s (TRIM_MPI_TIMES)\n", path);
		return;
	}
	fprintf(f, "# trim-mpi %s: %d ranks, %zu items; collect %.6f s, finish %.6f s\n", cmd, trim_mpi_size, t->n,
	        collect_s, finish_s);
	fprintf(f, "position\tid\testimate\trank\trun_seconds\tmerge_seconds\n");
	for (size_t k = 0; k < t->n; k++)
		fprintf(f, "%zu\t%lld\t%.17g\t%d\t%.6f\t%.6f\n", k, (long long)t->id[k], t->estimate[k], t->rank[k],
		        t->run_s[k], t->merge_s[k]);
	if (fclose(f) != 0)
		fprintf(stderr, "trim-mpi: cannot write %s (TRIM_MPI_TIMES)\n", path);
}

/* Rank 0: every item recorded in q->wk, or the first error. */
static int collect(trim_work *wk, const char *cmd, int progress, item_times *times)
{
	queue q;
	memset(&q, 0, sizeof q);
	q.wk = wk;
	q.times = times;
	q.cmd = cmd;
	q.back = q.total = trim_work_count(wk);
	q.progress = progress;
	q.t0 = now();
	pthread_mutex_init(&q.lock, NULL);
	pthread_t th;
	if (trim_mpi_size == 1) {
		compute(&q);
	} else if (trim_mpi_threaded && pthread_create(&th, NULL, serve, &q) == 0) {
		compute(&q); /* while the thread answers the others */
		pthread_join(th, NULL);
	} else {
		serve(&q); /* MPI without thread support: rank 0 only hands out */
		compute(&q);
	}
	pthread_mutex_destroy(&q.lock);
	if (q.refused) { /* merged again here: its message becomes this thread's last error */
		fprintf(stderr, "trim-mpi %s: the result from rank %d is refused\n", cmd, q.refused_rank);
		int rc = trim_work_merge(wk, q.refused, NULL);
		free(q.refused);
		return rc ? rc : q.rc;
	}
	return q.rc;
}

/* A worker: run what rank 0 hands out, send each result with the next
 * request; end the process when told to stop. */
static void work(trim_work *wk)
{
	char *text = NULL;
	double run_s = 0;
	for (;;) {
		const char *result = text ? text : "";
		size_t len = strlen(result) + 32;
		char *msg = malloc(len);
		if (!msg) {
			fprintf(stderr, "trim-mpi: rank %d: out of memory\n", trim_mpi_rank);
			MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
		}
		snprintf(msg, len, "%.6f\n%s", run_s, result);
		MPI_Send(msg, (int)strlen(msg), MPI_CHAR, 0, TAG_REQUEST, MPI_COMM_WORLD);
		free(msg);
		trim_string_free(text);
		text = NULL;
		int64_t id = -1;
		MPI_Status st;
		MPI_Recv(&id, 1, MPI_INT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		if (st.MPI_TAG == TAG_STOP)
			break;
		double t0 = now();
		int rc = trim_work_run(wk, id, &text);
		run_s = now() - t0;
		if (rc) { /* not the item's error: this rank cannot go on */
			fprintf(stderr, "trim-mpi: rank %d: %s\n", trim_mpi_rank, trim_last_error());
			MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
		}
	}
	trim_work_free(wk);
	fflush(NULL);
	MPI_Finalize();
	exit(0);
}

/* --share K/N (a Slurm job array's task K of N, no MPI between them): the
 * items at positions K, K + N, K + 2N, ... of the run's largest-first list
 * (trim_work_position: the same whatever other tasks finished), each
 * written to the output directory; nothing printed; the process ends. A
 * later `trim explore|network ... --out DIR` reads them all back and prints
 * (computing what no task finished). */
int trim_mpi_share_k = -1, trim_mpi_share_n = 0;
int trim_mpi_items = TRIM_MPI_ITEMS_AUTO;

static void run_share(trim_work *wk, const char *cmd)
{
	size_t n = trim_work_count(wk), ran = 0, mine = 0;
	int status = 0;
	for (size_t k = 0; k < n && !status; k++) {
		int64_t id = -1, pos = -1;
		int rc = trim_work_item(wk, k, &id, NULL);
		if (rc == 0)
			rc = trim_work_position(wk, id, &pos);
		if (rc == 0 && pos % trim_mpi_share_n != trim_mpi_share_k)
			continue; /* another task's */
		mine++;
		if (rc == 0)
			rc = trim_work_run(wk, id, NULL);
		if (rc == 0 && (rc = trim_work_status(wk, id)) > 0) /* the item's own error: not kept */
			rc = 0;
		if (rc) {
			fprintf(stderr, "trim-mpi %s: %s\n", cmd, trim_last_error());
			status = TRIM_CLI_EXIT_FAIL;
		}
		ran += rc == 0;
	}
	fprintf(stderr, "trim-mpi %s: share %d/%d: ran %zu of its %zu items not yet done (of %zu left in all), kept in "
	        "the output directory\n", cmd, trim_mpi_share_k, trim_mpi_share_n, ran, mine, n);
	trim_work_free(wk);
	fflush(NULL);
	MPI_Finalize();
	exit(status);
}


static int run_explore(trim_explorer *ex, int progress)
{
	trim_mpi_enter();
	trim_work *wk = NULL;
	/* few points for the ranks: hand out their searches (the same choice on every rank) */
	int searches = trim_mpi_items == TRIM_MPI_ITEMS_SEARCHES ||
	               (trim_mpi_items == TRIM_MPI_ITEMS_AUTO && trim_mpi_share_n == 0 &&
	                trim_explorer_count(ex) < 2 * (size_t)trim_mpi_size);
	int rc = searches ? trim_work_explore_searches(&wk, ex) : trim_work_explore(&wk, ex);
	if (trim_mpi_work_made(rc))
		return rc;
	if (trim_mpi_share_n > 0)
		run_share(wk, "explore");
	if (rc == 0 && trim_mpi_rank > 0)
		work(wk);
	item_times *times = rc == 0 && getenv("TRIM_MPI_TIMES") ? times_make(wk) : NULL;
	double t0 = now();
	if (rc == 0)
		rc = collect(wk, "explore", progress, times);
	double t1 = now();
	if (rc == 0)
		rc = trim_work_finish(wk);
	trim_work_free(wk);
	if (rc == 0)
		rc = trim_explorer_run(ex); /* every point is done: ranks them */
	if (rc == 0)
		times_write(times, "explore", t1 - t0, now() - t1);
	times_free(times);
	return rc;
}

static int run_network(trim_neteval *ne, int progress)
{
	trim_mpi_enter();
	trim_work *wk = NULL;
	int rc = trim_work_network(&wk, ne);
	if (trim_mpi_work_made(rc))
		return rc;
	if (trim_mpi_share_n > 0)
		run_share(wk, "network");
	if (rc == 0 && trim_mpi_rank > 0)
		work(wk);
	item_times *times = rc == 0 && getenv("TRIM_MPI_TIMES") ? times_make(wk) : NULL;
	double t0 = now();
	if (rc == 0)
		rc = collect(wk, "network", progress, times);
	trim_work_free(wk); /* a failed search is in its record: the steps report it */
	if (rc == 0) /* the totals are added up by the command's steps, after this */
		times_write(times, "network", now() - t0, 0);
	times_free(times);
	return rc;
}

const trim_cli_runner trim_mpi_runner = {run_explore, run_network, trim_mpi_run_map};

int trim_mpi_work_made(int rc)
{
	if (rc && trim_mpi_rank > 0) {
		fprintf(stderr, "trim-mpi: rank %d: %s\n", trim_mpi_rank, trim_last_error());
		MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
	}
	if (rc) /* rank 0 cannot list the items */
		trim_mpi_stop_everyone();
	return rc;
}

/* Rank 0 hands nothing out: every other rank is told to stop as it asks. */
void trim_mpi_stop_everyone(void)
{
	queue q;
	memset(&q, 0, sizeof q);
	pthread_mutex_init(&q.lock, NULL);
	serve(&q);
	pthread_mutex_destroy(&q.lock);
}

void trim_mpi_after_command(void)
{
	if (entered)
		return;
	if (trim_mpi_rank > 0) { /* the command failed here before its work: say so to rank 0 */
		trim_mpi_enter();
		MPI_Send("", 0, MPI_CHAR, 0, TAG_BYE, MPI_COMM_WORLD);
		return;
	}
	trim_mpi_stop_everyone(); /* rank 0 failed before handing anything out */
}
