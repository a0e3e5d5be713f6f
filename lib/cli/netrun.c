/* Input set-up shared by the mapping commands (map, eval, network, sparsity). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "trim/search.h"

/* trim_workloads_find's message plus the layers that have a workload in
 * that phase and the nearest one. */
static int unknown_layer(const trim_workloads *w, int phase)
{
	char msg[1024], list[600] = "", hint[96];
	snprintf(msg, sizeof msg, "%s", trim_last_error());
	const char *word = strchr(msg, '\'');
	char layer[128] = "";
	if (word)
		snprintf(layer, sizeof layer, "%.*s", (int)strcspn(word + 1, "'"), word + 1);
	trim__nearest near;
	trim__nearest_init(&near, layer);
	size_t l = 0;
	for (size_t i = 0; i < trim_workloads_intra_count(w); i++) {
		if (trim_workloads_intra_phase(w, i) != phase)
			continue;
		const char *name = trim_workloads_intra_layer(w, i);
		trim__nearest_add(&near, name);
		if (l < sizeof list - 1)
			l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", name);
	}
	return trim__error(TRIM_ENOTFOUND, "%s (layers with a %s workload: %s)%s", msg,
	                   trim_phase_name(phase) ? trim_phase_name(phase) : "?", l ? list : "none",
	                   trim_cli_hint(hint, sizeof hint, &near));
}

int trim_cli_load_workload(trim_cli_workload *o, const char *net_file, const char *arch_file,
                           const char *table_file, int mode, int64_t batch, const char *layer,
                           int phase)
{
	o->net = NULL;
	o->w = NULL;
	o->arch = NULL;
	o->table = NULL;
	o->index = 0;
	int rc = trim_network_load(&o->net, net_file);
	if (rc == 0)
		rc = trim_workloads_create(&o->w, o->net, mode, batch, 0);
	if (rc == 0)
		rc = trim_workloads_find(o->w, layer, phase, &o->index);
	if (rc == TRIM_ENOTFOUND)
		rc = unknown_layer(o->w, phase);
	if (rc == 0)
		rc = trim_arch_load(&o->arch, arch_file);
	if (rc == 0 && table_file)
		rc = trim_energy_load(&o->table, table_file);
	return rc;
}

void trim_cli_workload_free(trim_cli_workload *o)
{
	trim_energy_free(o->table);
	trim_arch_free(o->arch);
	trim_workloads_free(o->w);
	trim_network_free(o->net);
}

/* Progress with an ETA on stderr while the steps run: another thread polls
 * trim_neteval_progress (the share of the searches done), the one call
 * allowed during a step. */
typedef struct {
	const trim_neteval *ne;
	const char *cmd;
	int stop; /* relaxed atomic */
} net_progress;

static void *net_progress_main(void *p)
{
	net_progress *c = p;
	struct timespec t0, now, nap = {0, 250 * 1000 * 1000};
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int shown = 0;
	for (;;) {
		int stop = __atomic_load_n(&c->stop, __ATOMIC_RELAXED);
		clock_gettime(CLOCK_MONOTONIC, &now);
		double el = (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
		double f = trim_neteval_progress(c->ne);
		if (el >= 1 || (stop && shown)) {
			char eta[48] = "";
			if (f > 0 && f < 1)
				snprintf(eta, sizeof eta, ", ETA %.0f s", el * (1 - f) / f);
			fprintf(stderr, "\rtrim %s: %5.1f%% of the searches done, %.0f s%s      ", c->cmd, 100 * (f > 0 ? f : 0),
			        el, eta);
			shown = 1;
		}
		if (stop)
			break;
		nanosleep(&nap, NULL);
	}
	if (shown)
		fprintf(stderr, "\n");
	return NULL;
}

/* An exact run (no --time-limit, no --gap) is told before it starts when
 * one of its mapspaces is beyond what exact searches finish in hours
 * (TRIM_CLI_LONG_EXACT distinct mappings: on the zoo, docs/zoo.md, the runs
 * that finish stay below it), with what bounds the run. The counts are the
 * searches' own (constraints and --imperfect applied), made without
 * enumerating, in the workloads' order until the first such space (a count
 * takes a large layer tenths of a second); a workload of the same kind,
 * phase, bounds, strides and dilations as an earlier one is not counted
 * again, and one that cannot be set up is left to the run, which reports
 * it. */
#define TRIM_CLI_LONG_EXACT 1e13
static void warn_long_exact(const char *cmd, const trim_workloads *w, const trim_arch *arch,
                            const trim_energy *table, const trim_constraints *c, const trim_cli_mapopts *mo)
{
	if (mo->time_limit > 0 || mo->gap > 0 || getenv("TRIM_NET_TIME_LIMIT") || getenv("TRIM_NET_GAP"))
		return;
	trim_energy *own = NULL; /* the architecture's technology, loaded once */
	if (!table && trim_energy_load_for_arch(&own, arch) == 0)
		table = own;
	const size_t n = trim_workloads_intra_count(w);
	int64_t(*key)[2 + TRIM_NDIMS + 4] = calloc(n ? n : 1, sizeof *key);
	for (size_t i = 0; key && i < n; i++) {
		key[i][0] = trim_workloads_intra_kind(w, i);
		key[i][1] = trim_workloads_intra_phase(w, i);
		trim_workloads_intra_bounds(w, i, key[i] + 2, TRIM_NDIMS);
		trim_workloads_intra_strides(w, i, key[i] + 2 + TRIM_NDIMS, 4);
		size_t j = 0;
		while (j < i && memcmp(key[j], key[i], sizeof key[i]))
			j++;
		if (j < i)
			continue;
		trim_search *s = NULL;
		double d = -1;
		if (trim_search_create(&s, w, i, arch, table) == 0 &&
		    (!mo->imperfect || trim_search_set_int(s, TRIM_SEARCH_IMPERFECT, 1) == 0) &&
		    (!c || trim_search_set_constraints(s, c) == 0))
			d = trim_search_distinct(s);
		trim_search_free(s);
		if (d >= TRIM_CLI_LONG_EXACT) {
			fprintf(stderr,
			        "warning: trim %s: an exact search of more than %.0e distinct mappings (%s %s: %.3g): exact "
			        "searches that large can run for hours; --time-limit SECONDS bounds the run (its report "
			        "then gives the proven gap), --gap FRACTION stops each search once proven within it\n",
			        cmd, TRIM_CLI_LONG_EXACT, trim_workloads_intra_layer(w, i),
			        trim_phase_name(trim_workloads_intra_phase(w, i)), d);
			break;
		}
	}
	free(key);
	trim_energy_free(own);
}

void trim_cli_warn_before(const char *cmd, const trim_arch *a, const trim_workloads *w, int64_t workload)
{
	char *text = NULL;
	if (trim_arch_warnings(a, w, workload, TRIM_FORMAT_TABLE, &text)) {
		trim_clear_error(); /* a warning that cannot be made is no reason to stop */
		return;
	}
	for (const char *l = text; *l;) { /* "warning: MESSAGE\n" lines */
		const char *e = strchr(l, '\n');
		int n = e ? (int)(e - l) : (int)strlen(l);
		if (n > 9)
			fprintf(stderr, "warning: trim %s: %.*s\n", cmd, n - 9, l + 9);
		l += n + (e != NULL);
	}
	trim_string_free(text);
}

const trim_cli_runner *trim_cli_distributed = NULL;

int trim_cli_run_network(const char *cmd, const char *net_file, const char *arch_file,
                         const char *table_file, const char *trace, const trim_cli_mapopts *mo,
                         int dense, int progress, trim_network **net, trim_workloads **w,
                         trim_arch **arch, trim_neteval **ne)
{
	trim_energy *table = NULL;
	*net = NULL;
	*w = NULL;
	*arch = NULL;
	*ne = NULL;
	int rc = trim_network_load(net, net_file);
	if (rc == 0)
		rc = trim_workloads_create(w, *net, mo->mode, mo->batch, 0);
	if (rc == 0)
		rc = trim_arch_load(arch, arch_file);
	if (rc == 0 && table_file)
		rc = trim_energy_load(&table, table_file);
	if (rc == 0)
		rc = trim_neteval_create(ne, *net, *w, *arch, table);
	if (rc == 0)
		rc = trim_neteval_set_int(*ne, TRIM_NET_GOAL, mo->goal);
	if (rc == 0)
		rc = trim_neteval_set_int(*ne, TRIM_NET_THREADS, mo->threads);
	if (rc == 0)
		rc = trim_neteval_set_int(*ne, TRIM_NET_SPARSITY, !dense);
	if (rc == 0)
		rc = trim_neteval_set_int(*ne, TRIM_NET_MAX_MAPPINGS, mo->max_mappings);
	if (rc == 0)
		rc = trim_neteval_set_double(*ne, TRIM_NET_MIN_PE_UTIL, mo->min_pe_util);
	if (rc == 0)
		rc = trim_neteval_set_double(*ne, TRIM_NET_MIN_RF_UTIL, mo->min_rf_util);
	if (rc == 0)
		rc = trim_neteval_set_double(*ne, TRIM_NET_TIME_LIMIT, mo->time_limit);
	if (rc == 0)
		rc = trim_neteval_set_double(*ne, TRIM_NET_GAP, mo->gap);
	if (rc == 0)
		rc = trim_neteval_set_int(*ne, TRIM_NET_IMPERFECT, mo->imperfect);
	if (rc == 0 && mo->count != TRIM_COUNT_LIBTRIM)
		rc = trim_neteval_set_int(*ne, TRIM_NET_COUNT, mo->count);
	if (rc == 0 && mo->out_dir)
		rc = trim_neteval_set_out_dir(*ne, mo->out_dir);
	if (rc == 0 && trace)
		rc = trim_neteval_load_trace(*ne, trace);
	if (rc == 0) {
		trim_constraints *c = NULL;
		rc = trim_cli_constraints(mo, &c);
		if (rc == 0 && c)
			rc = trim_neteval_set_constraints(*ne, c);
		if (rc == 0)
			trim_cli_warn_before(cmd, *arch, *w, -1);
		if (rc == 0)
			warn_long_exact(cmd, *w, *arch, table, c, mo);
		trim_constraints_free(c);
	}
	trim_energy_free(table); /* the evaluation keeps what it needs */
	int done = 0;
	net_progress pc = {*ne, cmd, 0};
	pthread_t th;
	if (rc == 0 && trim_cli_distributed) /* the searches on MPI ranks; the steps below add up */
		rc = trim_cli_distributed->network(*ne, progress);
	int started = rc == 0 && progress && !trim_cli_distributed && pthread_create(&th, NULL, net_progress_main, &pc) == 0;
	while (rc == 0 && !done)
		rc = trim_neteval_step(*ne, &done);
	if (started) {
		__atomic_store_n(&pc.stop, 1, __ATOMIC_RELAXED);
		pthread_join(th, NULL);
	}
	return rc;
}

int trim_cli_write_text(const char *cmd, const char *path, const char *text)
{
	size_t n = strlen(path) + 8;
	char *tmp = malloc(n);
	if (!tmp) {
		fprintf(stderr, "trim %s: out of memory\n", cmd);
		return TRIM_CLI_EXIT_USAGE;
	}
	snprintf(tmp, n, "%s.tmp", path);
	errno = 0;
	FILE *f = fopen(tmp, "w");
	int ok = f && fputs(text, f) >= 0;
	ok = f && fclose(f) == 0 && ok;
	ok = ok && rename(tmp, path) == 0;
	int e = errno;
	if (!ok) {
		remove(tmp);
		fprintf(stderr, "trim %s: cannot write %s: %s\n", cmd, path, strerror(e ? e : EIO));
	}
	free(tmp);
	return ok ? 0 : TRIM_CLI_EXIT_USAGE;
}

void trim_cli_print_warnings(FILE *o, const trim_neteval *ne)
{
	char *json = NULL;
	if (trim_neteval_warnings(ne, &json))
		return;
	/* [{"kind": ..., "message": "..."}, ...]: print each message */
	for (const char *m = strstr(json, "\"message\": \""); m; m = strstr(m, "\"message\": \"")) {
		m += 12;
		fputs("warning: ", o);
		for (; *m && *m != '"'; m++) {
			if (*m == '\\' && m[1])
				m++;
			fputc(*m, o);
		}
		fputc('\n', o);
	}
	trim_string_free(json);
}
