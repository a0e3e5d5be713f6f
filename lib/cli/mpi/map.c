/*
 * trim-mpi map: the top nodes of one search on MPI ranks (docs/cluster.md,
 * "One search on many ranks"). Every rank builds the same search (trim
 * map's own code) and its top nodes (trim_work_search: the tree, the
 * bounds, the seed). Rank 0 hands out tickets (a node and its threshold)
 * in bound order, node i only once the nodes four places and more before it
 * are merged (trim_work_next), so every threshold, count and the result are
 * the one-process ones; it runs nodes on its own threads too, while a
 * thread of it answers the other ranks. Each rank runs one node per thread
 * (--threads), each thread asking for its own tickets. The window of four
 * nodes limits how many run at once, whatever the number of ranks.
 *
 * Messages: a worker thread sends TAG_NODE_REQUEST, "SLOT SLOTS SECONDS\n"
 * then its last result ("" at first); rank 0 answers on tag
 * TAG_NODE_TICKET + SLOT with a ticket, or an empty message: stop. A rank
 * whose command failed before its work sends TAG_BYE (distribute.c).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "trim_mpi.h"
#include "trim/work.h"

enum { TAG_NODE_REQUEST = 21, TAG_NODE_TICKET = 1000 };

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void nap(void)
{
	struct timespec t = {0, 200 * 1000};
	nanosleep(&t, NULL);
}

/* Rank 0's state: the work, under `lock` for trim_work_next and merges
 * (runs go unlocked). */
typedef struct {
	trim_work *wk;
	pthread_mutex_t lock;
	int rc;                 /* the first error: nothing more handed out */
	char *refused;          /* the result whose merge failed, and its rank */
	int refused_rank;
	int progress;
	double t0, shown;
	size_t total;
	double busy_s;          /* seconds of node runs, every rank */
	size_t ran;             /* nodes run, every rank */
	size_t *ran_by;         /* per rank */
	double *node_s;         /* per node searched: its run seconds (TRIM_MPI_TIMES; -1: not searched) */
	int *node_rank;
} node_queue;

/* Under q->lock: node id ran `s` seconds on `rank`. */
static void note(node_queue *q, int64_t id, int rank, double s)
{
	q->busy_s += s;
	q->ran++;
	q->ran_by[rank]++;
	if (id >= 0 && (size_t)id < q->total) {
		q->node_s[id] = s;
		q->node_rank[id] = rank;
	}
}

/* Under q->lock: 1 and a ticket, 0 wait, 2 nothing left (or an error). */
static int take(node_queue *q, int64_t *id, char **ticket)
{
	*ticket = NULL;
	if (q->rc)
		return 2;
	int rc = trim_work_next(q->wk, id, ticket);
	if (rc < 0) {
		q->rc = rc;
		fprintf(stderr, "trim-mpi map: %s\n", trim_last_error());
		return 2;
	}
	return rc;
}

/* Under q->lock. */
static void show(node_queue *q, int last)
{
	if (!q->progress)
		return;
	double t = now();
	if (!last && t - q->shown < 0.5)
		return;
	q->shown = t;
	fprintf(stderr, "\rtrim-mpi map: %zu/%zu top nodes on %d ranks (%zu searched), %.0f s   %s",
	        trim_work_done(q->wk), q->total, trim_mpi_size, q->ran, t - q->t0, last ? "\n" : "");
}

/* A thread of rank 0 running nodes until none is left. */
static void *compute(void *arg)
{
	node_queue *q = arg;
	for (;;) {
		int64_t id = -1;
		char *ticket = NULL;
		pthread_mutex_lock(&q->lock);
		int got = take(q, &id, &ticket);
		show(q, 0);
		pthread_mutex_unlock(&q->lock);
		if (got == 2)
			return NULL;
		if (got == 0) {
			nap();
			continue;
		}
		double t0 = now();
		int rc = trim_work_run_ticket(q->wk, ticket, NULL);
		trim_string_free(ticket);
		pthread_mutex_lock(&q->lock);
		note(q, id, 0, now() - t0);
		if (rc && q->rc == 0) {
			q->rc = rc;
			fprintf(stderr, "trim-mpi map: %s\n", trim_last_error());
		}
		pthread_mutex_unlock(&q->lock);
	}
}

typedef struct {
	int rank, slot;
} requester;

typedef struct {
	node_queue *q;
	requester *wait;        /* threads of other ranks waiting for a ticket, in arrival order */
	size_t nwait, cap;
	int *slots, *stopped;   /* per rank: its threads (-1: not heard from), those told to stop */
	int ranks_done;
} server;

/* Answer the waiting threads in order while tickets come (or tell them to stop). */
static void answer(server *sv)
{
	size_t k = 0;
	for (; k < sv->nwait; k++) {
		requester r = sv->wait[k];
		int64_t id = -1;
		char *ticket = NULL;
		pthread_mutex_lock(&sv->q->lock);
		int got = take(sv->q, &id, &ticket);
		pthread_mutex_unlock(&sv->q->lock);
		if (got == 0)
			break; /* the next node waits for results: so does everyone after */
		if (got == 1) {
			MPI_Send(ticket, (int)strlen(ticket), MPI_CHAR, r.rank, TAG_NODE_TICKET + r.slot, MPI_COMM_WORLD);
			trim_string_free(ticket);
		} else {
			MPI_Send("", 0, MPI_CHAR, r.rank, TAG_NODE_TICKET + r.slot, MPI_COMM_WORLD);
			if (++sv->stopped[r.rank] == sv->slots[r.rank])
				sv->ranks_done++;
		}
	}
	memmove(sv->wait, sv->wait + k, (sv->nwait - k) * sizeof *sv->wait);
	sv->nwait -= k;
}

/* One message from another rank. */
static void receive(server *sv, const MPI_Status *st)
{
	node_queue *q = sv->q;
	int len = 0, src = st->MPI_SOURCE;
	MPI_Get_count(st, MPI_CHAR, &len);
	char *text = malloc((size_t)len + 1);
	if (!text) {
		fprintf(stderr, "trim-mpi: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
	}
	MPI_Recv(text, len, MPI_CHAR, src, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	text[len] = '\0';
	if (st->MPI_TAG == TRIM_MPI_TAG_BYE) { /* that rank never reached its work */
		fprintf(stderr, "trim-mpi: rank %d could not start its work (its command failed on its node; run it there "
		        "alone to see why)\n", src);
		sv->slots[src] = 0;
		sv->ranks_done++;
		free(text);
		return;
	}
	int slot = -1, slots = 0, at = 0;
	double run_s = 0;
	if (st->MPI_TAG != TAG_NODE_REQUEST || sscanf(text, "%d %d %lf\n%n", &slot, &slots, &run_s, &at) != 3 ||
	    slot < 0 || slot >= slots || slots > 1024) {
		fprintf(stderr, "trim-mpi map: a message from rank %d that is not a node request\n", src);
		MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
	}
	sv->slots[src] = slots;
	const char *result = text + at;
	if (result[0]) {
		pthread_mutex_lock(&q->lock);
		int64_t id = -1;
		int rc = trim_work_merge(q->wk, result, &id);
		note(q, id, src, run_s);
		if (rc && q->rc == 0) {
			q->rc = rc;
			q->refused = strdup(result);
			q->refused_rank = src;
		}
		show(q, 0);
		pthread_mutex_unlock(&q->lock);
	}
	free(text);
	if (sv->nwait == sv->cap) {
		size_t cap = sv->cap ? 2 * sv->cap : 16;
		requester *w = realloc(sv->wait, cap * sizeof *w);
		if (!w) {
			fprintf(stderr, "trim-mpi: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
		}
		sv->wait = w;
		sv->cap = cap;
	}
	sv->wait[sv->nwait++] = (requester){src, slot};
}

/* Rank 0's thread that answers the others until every thread of theirs is stopped. */
static void *serve(void *arg)
{
	server *sv = arg;
	while (sv->ranks_done < trim_mpi_size - 1) {
		answer(sv);
		int flag = 0;
		MPI_Status st;
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		if (flag)
			receive(sv, &st);
		else
			nap();
	}
	return NULL;
}

/* Rank 0: every node recorded, or the first error. */
static int collect(trim_work *wk, int threads, int progress)
{
	node_queue q;
	memset(&q, 0, sizeof q);
	q.wk = wk;
	q.progress = progress;
	q.t0 = now();
	q.total = trim_work_count(wk);
	pthread_mutex_init(&q.lock, NULL);
	server sv;
	memset(&sv, 0, sizeof sv);
	sv.q = &q;
	sv.slots = calloc((size_t)trim_mpi_size, sizeof *sv.slots);
	sv.stopped = calloc((size_t)trim_mpi_size, sizeof *sv.stopped);
	q.ran_by = calloc((size_t)trim_mpi_size, sizeof *q.ran_by);
	q.node_s = malloc((q.total ? q.total : 1) * sizeof *q.node_s);
	q.node_rank = calloc(q.total ? q.total : 1, sizeof *q.node_rank);
	if (!sv.slots || !sv.stopped || !q.ran_by || !q.node_s || !q.node_rank) {
		fprintf(stderr, "trim-mpi: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
	}
	for (int r = 0; r < trim_mpi_size; r++)
		sv.slots[r] = -1;
	for (size_t i = 0; i < q.total; i++)
		q.node_s[i] = -1;
	pthread_t th[64], server_thread;
	int n = 0, serving = 0;
	/* MPI without thread support: rank 0 only hands out (then runs what is left) */
	if (trim_mpi_size > 1 && trim_mpi_threaded)
		serving = pthread_create(&server_thread, NULL, serve, &sv) == 0;
	if (trim_mpi_size > 1 && !serving)
		serve(&sv);
	for (; n < threads && n < 64; n++)
		if (pthread_create(&th[n], NULL, compute, &q))
			break;
	if (n == 0)
		compute(&q);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (serving)
		pthread_join(server_thread, NULL);
	pthread_mutex_lock(&q.lock);
	show(&q, 1);
	pthread_mutex_unlock(&q.lock);
	if (getenv("TRIM_MPI_TIMES")) {
		FILE *f = fopen(getenv("TRIM_MPI_TIMES"), "w");
		if (f) {
			fprintf(f, "# trim-mpi map: %d ranks, %zu top nodes, %zu searched, %.6f s of node runs, collect %.6f s\n"
			        "rank\tnodes_searched\n", trim_mpi_size, q.total, q.ran, q.busy_s, now() - q.t0);
			for (int r = 0; r < trim_mpi_size; r++)
				fprintf(f, "%d\t%zu\n", r, q.ran_by[r]);
			fprintf(f, "node\trank\trun_seconds\n"); /* the nodes searched, in bound order */
			for (size_t i = 0; i < q.total; i++)
				if (q.node_s[i] >= 0)
					fprintf(f, "node %zu\t%d\t%.6f\n", i, q.node_rank[i], q.node_s[i]);
			if (fclose(f) != 0)
				fprintf(stderr, "trim-mpi: cannot write %s (TRIM_MPI_TIMES)\n", getenv("TRIM_MPI_TIMES"));
		} else {
			fprintf(stderr, "trim-mpi: cannot write %s (TRIM_MPI_TIMES)\n", getenv("TRIM_MPI_TIMES"));
		}
	}
	free(sv.wait);
	free(sv.slots);
	free(sv.stopped);
	free(q.ran_by);
	free(q.node_s);
	free(q.node_rank);
	pthread_mutex_destroy(&q.lock);
	if (q.refused) { /* merged again here: its message becomes this thread's last error */
		fprintf(stderr, "trim-mpi map: the result from rank %d is refused\n", q.refused_rank);
		int rc = trim_work_merge(wk, q.refused, NULL);
		free(q.refused);
		return rc ? rc : q.rc;
	}
	return q.rc;
}

/* A worker rank's thread: ask, run, send the result with the next request. */
typedef struct {
	trim_work *wk;
	int slot, slots;
	pthread_mutex_t *mpi; /* MPI_THREAD_SERIALIZED: one call at a time */
	char *ticket;         /* a first ticket already received (slot 0) */
} slot_arg;

static void *alloc_or_abort(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fprintf(stderr, "trim-mpi: rank %d: out of memory\n", trim_mpi_rank);
		MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
	}
	return p;
}

/* Send the request of thread `slot` with its last result. */
static void request(const slot_arg *a, const char *result, double run_s)
{
	size_t len = (result ? strlen(result) : 0) + 64;
	char *msg = alloc_or_abort(len);
	snprintf(msg, len, "%d %d %.6f\n%s", a->slot, a->slots, run_s, result ? result : "");
	pthread_mutex_lock(a->mpi);
	MPI_Send(msg, (int)strlen(msg), MPI_CHAR, 0, TAG_NODE_REQUEST, MPI_COMM_WORLD);
	pthread_mutex_unlock(a->mpi);
	free(msg);
}

/* The answer to thread `slot`: a ticket, "" (stop), or (first: rank 0
 * failed before it could hand out, and answers as for explore) NULL. */
static char *answer_of(const slot_arg *a, int first)
{
	for (;;) {
		int flag = 0, n = 0;
		MPI_Status st;
		char *text = NULL;
		pthread_mutex_lock(a->mpi);
		MPI_Iprobe(0, TAG_NODE_TICKET + a->slot, MPI_COMM_WORLD, &flag, &st);
		if (flag) {
			MPI_Get_count(&st, MPI_CHAR, &n);
			text = alloc_or_abort((size_t)n + 1);
			MPI_Recv(text, n, MPI_CHAR, 0, TAG_NODE_TICKET + a->slot, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			text[n] = '\0';
		} else if (first) {
			MPI_Iprobe(0, TRIM_MPI_TAG_STOP, MPI_COMM_WORLD, &flag, &st);
			if (flag) {
				int64_t none;
				MPI_Recv(&none, 1, MPI_INT64_T, 0, TRIM_MPI_TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
		}
		pthread_mutex_unlock(a->mpi);
		if (flag)
			return text;
		nap();
	}
}

static void *work_slot(void *arg)
{
	slot_arg *a = arg;
	char *result = NULL, *ticket = a->ticket;
	double run_s = 0;
	for (;;) {
		if (!ticket) {
			request(a, result, run_s);
			trim_string_free(result);
			result = NULL;
			ticket = answer_of(a, 0);
		}
		if (!ticket[0]) { /* stop */
			free(ticket);
			return NULL;
		}
		double t0 = now();
		int rc = trim_work_run_ticket(a->wk, ticket, &result);
		run_s = now() - t0;
		free(ticket);
		ticket = NULL;
		if (rc) { /* not the node's error: this rank cannot go on */
			fprintf(stderr, "trim-mpi: rank %d: %s\n", trim_mpi_rank, trim_last_error());
			MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
		}
	}
}

static void leave(trim_work *wk)
{
	trim_work_free(wk);
	fflush(NULL);
	MPI_Finalize();
	exit(0);
}

/* A worker rank: one thread per --threads (one without MPI thread support),
 * then the process ends. Thread 0 asks first, alone: a rank 0 that failed
 * before handing out answers that one request with a stop, as for explore. */
static void work(trim_work *wk, int threads)
{
	pthread_mutex_t mpi = PTHREAD_MUTEX_INITIALIZER;
	int slots = trim_mpi_threaded ? (threads < 1 ? 1 : threads > 64 ? 64 : threads) : 1;
	slot_arg args[64];
	pthread_t th[64];
	int started = 0;
	for (int i = 0; i < slots; i++)
		args[i] = (slot_arg){wk, i, slots, &mpi, NULL};
	request(&args[0], NULL, 0);
	if (!(args[0].ticket = answer_of(&args[0], 1)))
		leave(wk); /* rank 0 stopped everyone */
	for (int i = 1; i < slots; i++) /* slot 0 on this thread */
		if (pthread_create(&th[i], NULL, work_slot, &args[i]) == 0)
			started++;
		else {
			fprintf(stderr, "trim-mpi: rank %d: cannot start a thread\n", trim_mpi_rank);
			MPI_Abort(MPI_COMM_WORLD, TRIM_CLI_EXIT_FAIL);
		}
	work_slot(&args[0]);
	for (int i = 1; i <= started; i++)
		pthread_join(th[i], NULL);
	leave(wk);
}

int trim_mpi_run_map(trim_search *s, int threads, int progress)
{
	trim_mpi_enter();
	trim_work *wk = NULL;
	int rc = trim_work_search(&wk, s);
	if (trim_mpi_work_made(rc))
		return rc;
	if (trim_mpi_rank > 0)
		work(wk, threads);
	rc = collect(wk, threads, progress);
	if (rc == 0)
		rc = trim_work_finish(wk); /* the search's result: trim map prints it */
	trim_work_free(wk);
	return rc;
}
