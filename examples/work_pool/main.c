/*
 * A work pool without MPI: the points of an exploration spread over forked
 * processes through the work items of trim/work.h, the way any engine (a
 * queue, a batch system, a thread pool of another language) can use them.
 * Each child builds nothing new (it inherits the parent's explorer), runs
 * the items whose place in the run is its own (trim_work_position modulo
 * the number of processes), and writes each result's text to a pipe; the
 * parent merges them as they come, in whatever order, and prints the
 * ranking: the same text as `trim explore ... --quiet`.
 *
 *   example-work_pool [NETWORK SPACE [PROCESSES [inference|training]]]
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trim.h"

#define MAX_PROCS 64

static int fail(const char *what)
{
	fprintf(stderr, "example-work_pool: %s: %s\n", what, trim_last_error());
	return 1;
}

/* A child: its share of the items, each as "BYTES\n" and the result's text. */
static int child(trim_work *wk, int k, int procs, int fd)
{
	FILE *out = fdopen(fd, "w");
	if (!out)
		return 1;
	for (size_t i = 0; i < trim_work_count(wk); i++) {
		int64_t id = 0, pos = 0;
		char *text = NULL;
		if (trim_work_item(wk, i, &id, NULL) || trim_work_position(wk, id, &pos))
			return fail("item");
		if (pos % procs != k)
			continue;
		if (trim_work_run(wk, id, &text))
			return fail("run");
		fprintf(out, "%zu\n%s", strlen(text), text);
		trim_string_free(text);
	}
	return fclose(out) != 0;
}

/* What a pipe gave so far; whole records are merged and dropped. */
typedef struct {
	char *buf;
	size_t len, cap;
} inbox;

static int merge_records(trim_work *wk, inbox *in)
{
	for (;;) {
		char *nl = memchr(in->buf, '\n', in->len);
		if (!nl)
			return 0;
		size_t n = strtoul(in->buf, NULL, 10), head = (size_t)(nl - in->buf) + 1;
		if (in->len < head + n)
			return 0;
		char *text = malloc(n + 1);
		if (!text)
			return 1;
		memcpy(text, in->buf + head, n);
		text[n] = '\0';
		int rc = trim_work_merge(wk, text, NULL);
		free(text);
		if (rc)
			return fail("merge");
		memmove(in->buf, in->buf + head + n, in->len - head - n);
		in->len -= head + n;
	}
}

int main(int argc, char **argv)
{
	const char *net_file = argc > 1 ? argv[1] : "models/networks/alexnet-cifar.yaml";
	const char *space_file = argc > 2 ? argv[2] : "models/arch/spaces/default.yaml";
	int procs = argc > 3 ? atoi(argv[3]) : 2;
	int mode = argc > 4 && !strcmp(argv[4], "training") ? TRIM_MODE_TRAINING : TRIM_MODE_INFERENCE;
	if (procs < 1 || procs > MAX_PROCS) {
		fprintf(stderr, "usage: example-work_pool [NETWORK SPACE [PROCESSES (1..%d) [inference|training]]]\n",
		        MAX_PROCS);
		return 2;
	}
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_space *space = NULL;
	trim_explorer *ex = NULL;
	trim_work *wk = NULL;
	if (trim_network_load(&net, net_file) || trim_workloads_create(&w, net, mode, 0, 0) ||
	    trim_space_load(&space, space_file) || trim_explorer_create(&ex, net, w, space) ||
	    trim_work_explore(&wk, ex))
		return fail("setup");
	fflush(NULL);
	struct pollfd fds[MAX_PROCS];
	inbox in[MAX_PROCS];
	pid_t pid[MAX_PROCS];
	memset(in, 0, sizeof in);
	for (int k = 0; k < procs; k++) {
		int p[2];
		if (pipe(p) != 0 || (pid[k] = fork()) < 0) {
			perror("example-work_pool");
			return 1;
		}
		if (pid[k] == 0) {
			close(p[0]);
			_exit(child(wk, k, procs, p[1]));
		}
		close(p[1]);
		fds[k] = (struct pollfd){.fd = p[0], .events = POLLIN};
	}
	int open_pipes = procs, bad = 0;
	while (open_pipes > 0 && !bad) {
		if (poll(fds, (nfds_t)procs, -1) < 0)
			break;
		for (int k = 0; k < procs; k++) {
			if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP)))
				continue;
			if (in[k].cap - in[k].len < 65536) {
				in[k].cap = in[k].cap * 2 + 65536;
				in[k].buf = realloc(in[k].buf, in[k].cap);
				if (!in[k].buf)
					return 1;
			}
			ssize_t got = read(fds[k].fd, in[k].buf + in[k].len, in[k].cap - in[k].len);
			if (got <= 0) {
				close(fds[k].fd);
				fds[k].fd = -1;
				open_pipes--;
				continue;
			}
			in[k].len += (size_t)got;
			bad |= merge_records(wk, &in[k]);
		}
	}
	for (int k = 0; k < procs; k++) {
		int st = 0;
		waitpid(pid[k], &st, 0);
		bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
		free(in[k].buf);
	}
	char *text = NULL;
	if (bad)
		return 1;
	if (trim_work_finish(wk) || trim_explorer_run(ex) || trim_explorer_report(ex, TRIM_FORMAT_TABLE, &text))
		return fail("collect");
	fputs(text, stdout);
	trim_string_free(text);
	trim_work_free(wk);
	trim_explorer_free(ex);
	trim_space_free(space);
	trim_workloads_free(w);
	trim_network_free(net);
	return 0;
}
