/* A whole network on an architecture: totals, consistency with the per-workload
 * search, determinism across thread counts, sparse figures, errors, the time
 * limit shared between searches (check_neteval_resume.c: results kept and
 * read back). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <glob.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trim.h"
#include "trim/neteval.h"
#include "trim/search.h"
#include "neteval/neteval_state.h"
#include "tcase_util.h"

#define NET "test/data/neteval/tiny.yaml"
#define ARCH "test/data/neteval/tiny-arch.yaml"
#define ARCH_SKIP "test/data/neteval/tiny-arch-skip.yaml"
#define NET_REPEAT "test/data/neteval/repeat.yaml"

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_arch *arch;
	trim_neteval *ne;
} fx;

static void setup(fx *s, const char *arch, int threads, int sparsity)
{
	memset(s, 0, sizeof *s);
	ck_assert(trim_network_load(&s->net, NET) == 0);
	ck_assert(trim_workloads_create(&s->w, s->net, TRIM_MODE_DEFAULT, 0, 0) == 0);
	ck_assert_msg(trim_arch_load(&s->arch, arch) == 0, "%s", trim_last_error());
	ck_assert(trim_neteval_create(&s->ne, s->net, s->w, s->arch, NULL) == 0);
	ck_assert(trim_neteval_set_int(s->ne, TRIM_NET_THREADS, threads) == 0);
	ck_assert(trim_neteval_set_int(s->ne, TRIM_NET_SPARSITY, sparsity) == 0);
}

static void teardown(fx *s)
{
	trim_neteval_free(s->ne);
	trim_arch_free(s->arch);
	trim_workloads_free(s->w);
	trim_network_free(s->net);
}

#define CLOSE(a, b) ck_assert_msg(fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-12, "%s = %.17g, expected %.17g", #a, (double)(a), (double)(b))

START_TEST(test_totals_and_consistency)
{
	fx s;
	setup(&s, ARCH, 1, 1);
	size_t n = trim_neteval_count(s.ne);
	ck_assert_int_eq(n, 7);
	/* stepping maps one workload at a time; nothing can be read before the end */
	int done = 0;
	ck_assert(trim_neteval_step(s.ne, &done) == 0 && !done);
	ck_assert_int_eq(trim_neteval_done(s.ne), 1);
	char *text = NULL;
	ck_assert_int_eq(trim_neteval_report(s.ne, TRIM_FORMAT_JSON, &text), TRIM_EINVAL);
	ck_assert_int_eq(trim_neteval_set_int(s.ne, TRIM_NET_GOAL, TRIM_GOAL_EDP), TRIM_EINVAL);
	ck_assert(trim_neteval_run(s.ne) == 0);
	ck_assert_int_eq(trim_neteval_done(s.ne), n);

	/* every workload equals the public search of that workload alone */
	double sum_cycles = 0, sum_energy = 0, f[TRIM_NF_COUNT];
	for (size_t i = 0; i < n; i++) {
		ck_assert(trim_neteval_workload(s.ne, i, f, TRIM_NF_COUNT) == 0);
		sum_cycles += f[TRIM_NF_CYCLES];
		sum_energy += f[TRIM_NF_ENERGY_PJ];
		trim_search *q = NULL;
		ck_assert(trim_search_create(&q, s.w, i, s.arch, NULL) == 0);
		ck_assert(trim_search_run(q) == 0);
		trim_mapping *a = NULL, *b = NULL;
		ck_assert(trim_search_best(q, &a) == 0);
		ck_assert(trim_neteval_mapping(s.ne, i, &b) == 0);
		char *ya = NULL, *yb = NULL;
		ck_assert(trim_mapping_dump(a, TRIM_FORMAT_YAML, &ya) == 0);
		ck_assert(trim_mapping_dump(b, TRIM_FORMAT_YAML, &yb) == 0);
		ck_assert_str_eq(ya, yb);
		int64_t counts[5];
		ck_assert(trim_search_counts(q, counts, 5) == 0);
		ck_assert_int_eq((int64_t)f[TRIM_NF_EVALUATED], counts[2]);
		trim_string_free(ya);
		trim_string_free(yb);
		trim_mapping_free(a);
		trim_mapping_free(b);
		trim_search_free(q);
		/* zero-gating hardware, but a gate changes energy only */
		CLOSE(f[TRIM_NF_CYCLES], f[TRIM_NF_DENSE_CYCLES]);
	}
	/* totals: the workloads plus the inter-layer work */
	ck_assert(trim_neteval_cycles(s.ne) >= sum_cycles);
	ck_assert(trim_neteval_energy_pj(s.ne) > sum_energy);
	double lv[8];
	ck_assert(trim_neteval_level_energy(s.ne, lv, 8) == 0);
	double sum_lv = 0;
	for (int l = 0; l < 5; l++)
		sum_lv += lv[l];
	CLOSE(sum_lv, trim_neteval_energy_pj(s.ne));
	CLOSE(trim_neteval_seconds(s.ne), trim_neteval_cycles(s.ne) / 100e6);
	ck_assert(trim_neteval_report(s.ne, TRIM_FORMAT_JSON, &text) == 0);
	ck_assert(strstr(text, "\"workloads\": ["));
	ck_assert(strstr(text, "\"totals\": {\"cycles\": "));
	ck_assert(strstr(text, "\"pe_utilization\": "));
	ck_assert(strstr(text, "\"counts\": {\"generated\": "));
	trim_string_free(text);
	teardown(&s);
}
END_TEST

/* Byte-identical results for 1, 2 and 3 threads: one search after the
 * other on every thread, and the searches side by side with their top
 * nodes in one pool (lib/neteval/pool.c) */
START_TEST(test_threads_identical)
{
	char *text[3];
	for (int k = 0; k < 3; k++) {
		fx s;
		setup(&s, ARCH, k + 1, 1);
		ck_assert(trim_neteval_set_int(s.ne, TRIM_NET_GOAL, TRIM_GOAL_EDP) == 0);
		ck_assert(trim_neteval_run(s.ne) == 0);
		ck_assert(trim_neteval_report(s.ne, TRIM_FORMAT_JSON, &text[k]) == 0);
		if (k > 0)
			ck_assert_int_gt(s.ne->pooled, 0);
		else
			ck_assert_int_eq(s.ne->pooled, 0);
		teardown(&s);
	}
	ck_assert_str_eq(text[0], text[1]);
	ck_assert_str_eq(text[0], text[2]);
	for (int k = 0; k < 3; k++)
		trim_string_free(text[k]);
}
END_TEST

/* Zero-skipping hardware: conv WG skips the MACs with a zero dY (conv's ReLU,
 * 50%), fc BW the outputs masked by ReLU; dense figures when asked. */
START_TEST(test_sparse_figures)
{
	fx s, d;
	setup(&s, ARCH_SKIP, 2, 1);
	setup(&d, ARCH_SKIP, 2, 0);
	ck_assert(trim_neteval_run(s.ne) == 0);
	ck_assert(trim_neteval_run(d.ne) == 0);
	ck_assert(trim_neteval_cycles(s.ne) < trim_neteval_dense_cycles(s.ne));
	ck_assert(trim_neteval_energy_pj(s.ne) < trim_neteval_dense_energy_pj(s.ne));
	CLOSE(trim_neteval_cycles(d.ne), trim_neteval_dense_cycles(d.ne));
	CLOSE(trim_neteval_dense_cycles(s.ne), trim_neteval_cycles(d.ne));
	size_t wg;
	ck_assert(trim_workloads_find(s.w, "conv", TRIM_PHASE_WG, &wg) == 0);
	double f[TRIM_NF_COUNT];
	ck_assert(trim_neteval_workload(s.ne, wg, f, TRIM_NF_COUNT) == 0);
	ck_assert(f[TRIM_NF_CYCLES] < f[TRIM_NF_DENSE_CYCLES]);
	teardown(&d);
	teardown(&s);
}
END_TEST

START_TEST(test_errors)
{
	fx s;
	setup(&s, ARCH, 1, 1);
	ck_assert(trim_neteval_set_int(s.ne, TRIM_NET_MAX_MAPPINGS, 100) == 0);
	ck_assert_int_eq(trim_neteval_run(s.ne), TRIM_ERANGE);
	ck_assert_msg(strstr(trim_last_error(), "conv FW:") != NULL, "%s", trim_last_error());
	ck_assert_int_eq(trim_neteval_set_int(s.ne, 99, 1), TRIM_EINVAL);
	ck_assert_int_eq(trim_neteval_load_trace(s.ne, "test/data/sparsity/none.csv"), TRIM_EIO);
	teardown(&s);
	trim_neteval *ne = NULL;
	ck_assert_int_eq(trim_neteval_create(&ne, NULL, NULL, NULL, NULL), TRIM_EINVAL);
	ck_assert_ptr_null(ne);
	trim_neteval_free(NULL);
}
END_TEST

/* The CLI front ends: trim network and trim sparsity, JSON keys and exit codes. */
START_TEST(test_cli)
{
	const char *cli = getenv("TRIM_CLI");
	if (!cli)
		cli = "build/bin/trim";
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s sparsity " NET " " ARCH_SKIP " --mode inference --quiet --format json", cli);
	FILE *p = popen(cmd, "r");
	ck_assert(p != NULL);
	char buf[65536];
	size_t n = fread(buf, 1, sizeof buf - 1, p);
	buf[n] = '\0';
	ck_assert_int_eq(WEXITSTATUS(pclose(p)), 0);
	ck_assert_msg(strstr(buf, "\"workloads\": [") && strstr(buf, "\"dense_cycles\": ") &&
	              strstr(buf, "\"dense_energy_pj\": ") && strstr(buf, "\"totals\": {") &&
	              strstr(buf, "\"layer\": \"fc\", \"phase\": \"FW\""), "%s", buf);
	snprintf(cmd, sizeof cmd, "%s network " NET " test/data/bad/unknown_key.yaml --quiet 2>/dev/null", cli);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
	snprintf(cmd, sizeof cmd, "%s network " NET " --quiet 2>/dev/null", cli);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
	snprintf(cmd, sizeof cmd, "%s sparsity " NET " " ARCH " --goal fast 2>/dev/null", cli);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
}
END_TEST

/* Only a range of layers: the others are left out of every total. */
START_TEST(test_layer_range)
{
	fx s;
	memset(&s, 0, sizeof s);
	ck_assert(trim_network_load(&s.net, NET) == 0);
	ck_assert(trim_workloads_create(&s.w, s.net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert(trim_arch_load(&s.arch, ARCH) == 0);
	ck_assert(trim_neteval_create(&s.ne, s.net, s.w, s.arch, NULL) == 0);
	ck_assert_int_eq(trim_neteval_set_layers(s.ne, "conv", "nothing"), TRIM_ENOTFOUND);
	ck_assert_int_eq(trim_neteval_set_layers(s.ne, "fc", "conv"), TRIM_EINVAL);
	ck_assert(trim_neteval_set_layers(s.ne, "conv", "pool") == 0);
	ck_assert(trim_neteval_run(s.ne) == 0);
	double f[TRIM_NF_COUNT], sum = 0;
	int mapped = 0;
	for (size_t i = 0; i < trim_neteval_count(s.ne); i++) {
		ck_assert(trim_neteval_workload(s.ne, i, f, TRIM_NF_COUNT) == 0);
		mapped += f[TRIM_NF_MAPPED] != 0;
		sum += f[TRIM_NF_CYCLES];
		if (!strcmp(trim_workloads_intra_layer(s.w, i), "fc")) {
			ck_assert(f[TRIM_NF_MAPPED] == 0 && f[TRIM_NF_CYCLES] == 0);
			trim_mapping *m = NULL;
			ck_assert_int_eq(trim_neteval_mapping(s.ne, i, &m), TRIM_ENOTFOUND);
		}
	}
	ck_assert_int_eq(mapped, 2);
	ck_assert(trim_neteval_cycles(s.ne) >= sum); /* + conv's padding */
	teardown(&s);
}
END_TEST

/* trim fuse --mapper: layer-by-layer execution of DeCoILFNet's toy chain by the
 * mapper. On the Virtex-7 (5.8 MB of BRAM) every tensor of c1 crosses the DDR3
 * interface once: the padded input 7x7x3 + the weights 3x3x3x3 + the output
 * 5x5x3 = 147 + 81 + 75 words = 1212 bytes. */
START_TEST(test_fuse_mapper)
{
	const char *cli = getenv("TRIM_CLI");
	if (!cli)
		cli = "build/bin/trim";
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s fuse test/data/fusion/toy.yaml models/arch/virtex7-690t.yaml --mapper --format json", cli);
	FILE *p = popen(cmd, "r");
	ck_assert(p != NULL);
	char buf[65536];
	size_t n = fread(buf, 1, sizeof buf - 1, p);
	buf[n] = '\0';
	ck_assert_int_eq(WEXITSTATUS(pclose(p)), 0);
	ck_assert_msg(strstr(buf, "\"mapper\": {\"goal\": \"delay\"") &&
	              strstr(buf, "{\"layer\": \"c1\", \"cycles\": ") &&
	              strstr(buf, "\"offchip_bytes\": 1212, \"exact\": true, \"gap\": 0, \"lower_bound\": ") &&
	              strstr(buf, "\"pareto\": ") && strstr(buf, "\"offchip_bytes\": 2664, \"exact\": true"),
	              "%s", buf);
	/* searches stopped by --gap: every layer and the chain say they are not proven */
	snprintf(cmd, sizeof cmd, "%s fuse test/data/fusion/toy.yaml models/arch/virtex7-690t.yaml --mapper --gap 0.9", cli);
	p = popen(cmd, "r");
	ck_assert(p != NULL);
	n = fread(buf, 1, sizeof buf - 1, p);
	buf[n] = '\0';
	ck_assert_int_eq(WEXITSTATUS(pclose(p)), 0);
	ck_assert_msg(strstr(buf, " exact      gap    lower bound\n") && strstr(buf, "\nsearch: NOT proven optimal") &&
	              !strstr(buf, " yes "), "%s", buf);
}
END_TEST

/* A network's time limit: each search's share keeps back, for every search
 * left (itself included), the mean of what the finished ones took beyond
 * their limits (set-up, stopping), so that the last ends by the deadline. */
START_TEST(test_budget_keeps_overrun)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	const double now = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	trim_neteval *ne = calloc(1, sizeof *ne);
	ck_assert_ptr_nonnull(ne);
	ne->time_limit = 10;
	ne->deadline = now + 10;
	/* 4 left on one thread: at least half of what remains (10 less 3
	 * halves of 2.5 s: 6.25 s) */
	double b = trim__neteval_search_budget(ne, 4, 1, 1);
	ck_assert_msg(b > 6.2 && b <= 6.25, "%g", b);
	/* 4 finished took 0.5 s each beyond their limits: 2 s kept back, 8 s
	 * shared as before: 8 - 3 x 1 = 5 s */
	ne->over_ns = 2000000000;
	ne->over_n = 4;
	b = trim__neteval_search_budget(ne, 4, 1, 1);
	ck_assert_msg(b > 4.95 && b <= 5, "%g", b);
	/* 29 searches in all (the whole limit's fair share 10 / 29 s): with
	 * 28 waiting, 28 halves of it are kept back whatever remains (the
	 * first takes 10 - 4.83 s), and once half the limit is spent the next
	 * takes its fair share of what remains, not half of it */
	ne->over_ns = 0;
	ne->over_n = 0;
	ne->nsearch = 29;
	b = trim__neteval_search_budget(ne, 29, 1, 1);
	ck_assert_msg(b > 5.15 && b <= 5.18, "%g", b);
	ne->deadline = now + 4.83;
	b = trim__neteval_search_budget(ne, 28, 1, 1);
	ck_assert_msg(b > 0.17 && b < 0.18, "%g", b);
	ne->deadline = now + 10;
	ne->nsearch = 0;
	ne->over_ns = 2000000000;
	ne->over_n = 4;
	/* past what remains: the least share, never 0 (no limit) */
	ne->over_ns = 400000000000;
	b = trim__neteval_search_budget(ne, 4, 1, 1);
	ck_assert(b > 0 && b < 1e-3);
	free(ne);
}
END_TEST

/* searches side by side with a time limit: one that ends leaves its time
 * to those still running (raised to their share of what remains, at most
 * the network's deadline, never into the halves of the whole limit's fair
 * share kept for the searches waiting, never lowered) */
START_TEST(test_shared_deadlines)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	const double now = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	trim_neteval *ne = calloc(1, sizeof *ne);
	ck_assert_ptr_nonnull(ne);
	wrec rec[4];
	memset(rec, 0, sizeof rec);
	ne->rec = rec;
	ne->n = 4;
	ne->share_total = 4;
	ne->deadline = now + 100;
	/* 3 started, 2 still running with short deadlines, one far off; 1 waiting */
	rec[0].running = 1, rec[0].deadline_at = now + 1;
	rec[1].running = 1, rec[1].deadline_at = now + 1000;
	rec[2].running = 0, rec[2].deadline_at = now + 1;
	ne->first_share = 1; /* the fair share alone (as in a test's first pass) */
	trim__neteval_share_deadlines(ne, 3, 2);
	/* 3 not finished (2 running, 1 waiting) share ~100 s on 2 threads: ~66 s */
	ck_assert(rec[0].deadline_at > now + 60 && rec[0].deadline_at < now + 70);
	/* otherwise the network's deadline less half the waiting one's share
	 * (~66 / 2 s) over the 2 threads: ~83 s */
	ne->first_share = 0;
	trim__neteval_share_deadlines(ne, 3, 2);
	ck_assert(rec[0].deadline_at > now + 82 && rec[0].deadline_at < now + 84);
	/* 150 waiting keep half their shares of ~1.3 s: ~51 s */
	ne->share_total = 153;
	rec[0].deadline_at = now + 1;
	trim__neteval_share_deadlines(ne, 3, 2);
	ck_assert(rec[0].deadline_at > now + 49.5 && rec[0].deadline_at < now + 51.5);
	/* late in a run (10 s left of a 20 s limit over 29 searches), 20
	 * waiting: a raise stops where their halves of the whole limit's fair
	 * share begin (10 - 20 x 20 / 58: ~3.1 s), not at half of what
	 * remains (~5.5 s), which let each pair side by side take half of what
	 * the pair before left */
	ne->deadline = now + 10;
	ne->time_limit = 20;
	ne->nsearch = 29;
	ne->share_total = 23;
	rec[0].deadline_at = now + 1;
	trim__neteval_share_deadlines(ne, 3, 2);
	ck_assert_msg(rec[0].deadline_at > now + 3.0 && rec[0].deadline_at < now + 3.2, "%g",
	              rec[0].deadline_at - now);
	/* of a 100 s limit, those halves take more than what remains: no raise */
	ne->time_limit = 100;
	rec[0].deadline_at = now + 1;
	trim__neteval_share_deadlines(ne, 3, 2);
	ck_assert(rec[0].deadline_at == now + 1);
	ne->deadline = now + 100;
	ne->time_limit = 0;
	ne->nsearch = 0;
	ne->share_total = 4;
	ck_assert(rec[1].deadline_at == now + 1000); /* never lowered */
	ck_assert(rec[2].deadline_at == now + 1);     /* not running: untouched */
	/* the fourth starts: none waits for the threads any more, so the three
	 * running (on 2 threads) may all run to the network's deadline */
	rec[3].running = 1, rec[3].deadline_at = now + 1;
	trim__neteval_share_deadlines(ne, 4, 2);
	ck_assert(rec[0].deadline_at == ne->deadline && rec[3].deadline_at == ne->deadline);
	ck_assert(rec[1].deadline_at == now + 1000);
	rec[3].running = 0;
	/* the last one running gets what remains of the network's deadline */
	rec[1].running = 0;
	trim__neteval_share_deadlines(ne, 4, 2);
	ck_assert(rec[0].deadline_at == ne->deadline);
	free(ne);
}
END_TEST

/* With a time limit, the searches stopped at their share while time is
 * left are searched again with it: a first pass that gives every search
 * nothing ends, with the retry, where no limit does (exact, same figures);
 * on two threads (the network's pool) and on one (one search after the
 * other, then the retry) */
START_TEST(test_retry_stopped)
{
	char *text[3];
	for (int k = 0; k < 3; k++) {
		fx s;
		setup(&s, ARCH, k == 2 ? 1 : 2, 1);
		if (k) {
			ck_assert(trim_neteval_set_double(s.ne, TRIM_NET_TIME_LIMIT, 600) == 0);
			s.ne->first_share = 1e-9;
		}
		ck_assert(trim_neteval_run(s.ne) == 0);
		ck_assert(trim_neteval_report(s.ne, TRIM_FORMAT_JSON, &text[k]) == 0);
		for (size_t i = 0; i < s.ne->n; i++)
			ck_assert(s.ne->rec[i].exact || s.ne->rec[i].reused_from >= 0 || !s.ne->rec[i].searched);
		teardown(&s);
	}
	ck_assert_str_eq(text[0], text[1]);
	ck_assert_str_eq(text[0], text[2]);
	for (int k = 0; k < 3; k++)
		trim_string_free(text[k]);
}
END_TEST

/* Which stopped searches the retry takes: all when each gets a second on
 * the threads; else as many as get one, the largest gaps (best less lower
 * bound) first, the network's order among equal gaps; none below a
 * second. */
START_TEST(test_retry_pick)
{
	trim_neteval ne;
	memset(&ne, 0, sizeof ne);
	wrec rec[5];
	memset(rec, 0, sizeof rec);
	ne.rec = rec;
	ne.n = 5;
	const double best[5] = {10, 50, 8, 30, 40}, lb[5] = {9, 20, 2, 25, 10}; /* gaps 1, 30, 6, 5, 30 */
	for (int i = 0; i < 5; i++)
		rec[i].best_cost = best[i], rec[i].lower_bound = lb[i];
	size_t order[5] = {0, 1, 2, 3, 4};
	ck_assert_uint_eq(trim__neteval_retry_pick(&ne, order, 5, 5.0), 5);
	for (size_t k = 0; k < 5; k++)
		ck_assert_uint_eq(order[k], k); /* all fit: the order is kept */
	ck_assert_uint_eq(trim__neteval_retry_pick(&ne, order, 5, 3.7), 3);
	const size_t want[5] = {1, 4, 2, 3, 0};
	for (size_t k = 0; k < 5; k++)
		ck_assert_uint_eq(order[k], want[k]);
	size_t o2[3] = {3, 0, 2};
	ck_assert_uint_eq(trim__neteval_retry_pick(&ne, o2, 3, 0.9), 0);
}
END_TEST

/* The pool's order: without a time limit the most MACs first; with one
 * the fewest distinct mappings first, so that AlexNet-Cifar's fully
 * connected layers at batch 64 (the most MACs, a tenth of a second of
 * search each) start before the convolutions and are not left without
 * time (they ended a 60 s run with a 76% gap when the order was MACs). */
START_TEST(test_search_order)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	ck_assert(trim_network_load(&net, "models/networks/alexnet-cifar.yaml") == 0);
	ck_assert(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 64, 0) == 0);
	ck_assert(trim_arch_load(&a, "models/arch/training-baseline.yaml") == 0);
	size_t fc7 = 0, conv2 = 0;
	ck_assert(trim_workloads_find(w, "fc7", TRIM_PHASE_FW, &fc7) == 0);
	ck_assert(trim_workloads_find(w, "conv2", TRIM_PHASE_FW, &conv2) == 0);
	for (int limited = 0; limited < 2; limited++) {
		trim_neteval *ne = NULL;
		ck_assert(trim_neteval_create(&ne, net, w, a, NULL) == 0);
		if (limited)
			ck_assert(trim_neteval_set_double(ne, TRIM_NET_TIME_LIMIT, 60) == 0);
		trim__neteval_plan(ne);
		size_t *order = malloc(ne->n * sizeof *order);
		ck_assert_ptr_nonnull(order);
		size_t m = trim__neteval_search_order(ne, order);
		ck_assert(m > 2 && m <= ne->n);
		size_t at_fc7 = m, at_conv2 = m;
		for (size_t k = 0; k < m; k++) {
			at_fc7 = order[k] == fc7 ? k : at_fc7;
			at_conv2 = order[k] == conv2 ? k : at_conv2;
			ck_assert(ne->rec[order[k]].reused_from < 0);
		}
		ck_assert(at_fc7 < m && at_conv2 < m);
		if (limited)
			ck_assert_msg(at_fc7 < at_conv2, "fc7 FW at %zu, conv2 FW at %zu", at_fc7, at_conv2);
		else
			ck_assert_uint_eq(at_fc7, 0); /* the most MACs */
		free(order);
		trim_neteval_free(ne);
	}
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* A free thread of the network's pool: while searches wait and fewer than
 * one per thread still hand out nodes, it begins the next; else it takes a
 * node from the search the fewest threads work on, the oldest among
 * equals; never from one not begun, stopping or ending. Helping the oldest
 * first let VGG-16's fc6 (on simba-like, 2 threads, 30 s) hold both
 * threads to its deadline while conv1_2 waited and began with none. */
START_TEST(test_pool_order)
{
	int order[8];
	/* one search running on both threads, others waiting: begin one */
	pool_state one[] = {{1, 0, 0, 2}};
	ck_assert_int_eq(trim__pool_order(1, one, 2, 1, order), -1);
	/* none waits: help it */
	ck_assert_int_eq(trim__pool_order(1, one, 2, 0, order), 1);
	ck_assert_int_eq(order[0], 0);
	/* two searches on two threads: the one with fewer threads first,
	 * however old; a stopping one does not count as a thread's own */
	pool_state two[] = {{1, 0, 0, 2}, {1, 0, 0, 0}, {1, 1, 0, 1}};
	ck_assert_int_eq(trim__pool_order(3, two, 2, 1, order), 2);
	ck_assert_int_eq(order[0], 1);
	ck_assert_int_eq(order[1], 0);
	/* one being begun counts as a thread's own (three threads: no
	 * further begin) and gives no node; stopping and ending ones neither
	 * count nor give nodes; a fourth thread begins one */
	pool_state three[] = {{1, 0, 0, 1}, {0, 0, 0, 0}, {1, 1, 0, 1}, {1, 0, 0, 1}, {1, 0, 1, 0}};
	ck_assert_int_eq(trim__pool_order(5, three, 4, 1, order), -1);
	ck_assert_int_eq(trim__pool_order(5, three, 3, 1, order), 2);
	ck_assert_int_eq(order[0], 0); /* equal loads: the oldest first */
	ck_assert_int_eq(order[1], 3);
	/* nothing active */
	ck_assert_int_eq(trim__pool_order(0, NULL, 4, 1, order), -1);
	ck_assert_int_eq(trim__pool_order(0, NULL, 4, 0, order), 0);
}
END_TEST

Suite *neteval_suite(void)
{
	Suite *s = suite_create("neteval");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_totals_and_consistency);
	tcase_add_test(tc, test_threads_identical);
	tcase_add_test(tc, test_sparse_figures);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_cli);
	tcase_add_test(tc, test_layer_range);
	tcase_add_test(tc, test_fuse_mapper);
	tcase_add_test(tc, test_shared_deadlines);
	tcase_add_test(tc, test_budget_keeps_overrun);
	tcase_add_test(tc, test_retry_stopped);
	tcase_add_test(tc, test_retry_pick);
	tcase_add_test(tc, test_search_order);
	tcase_add_test(tc, test_pool_order);
	suite_add_tcase(s, tc);
	return s;
}
