/* A whole network on an architecture: totals, consistency with the per-workload
 * search, determinism across thread counts, sparse figures, errors. */
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

/* One run of NET_REPEAT on ARCH: every workload's figures and mapping. */
typedef struct {
	size_t n;
	double f[16][TRIM_NF_COUNT];
	char *yaml[16];
	char *json;
	int64_t resumed, stale;
	int exact;
	double lb, gap;
	char notes[4096]; /* trim_neteval_resume_notes */
} repeat_run;

/* library: the stamps' library (NULL: this one's, trim__library_stamp) */
static void run_repeat_as(repeat_run *o, const char *arch, int threads, int cache, const char *dir, double gap,
                          double limit, const char *library)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_neteval *ne = NULL;
	memset(o, 0, sizeof *o);
	ck_assert(trim_network_load(&net, NET_REPEAT) == 0);
	ck_assert(trim_workloads_create(&w, net, TRIM_MODE_DEFAULT, 0, 0) == 0);
	ck_assert(trim_arch_load(&a, arch) == 0);
	ck_assert(trim_neteval_create(&ne, net, w, a, NULL) == 0);
	ck_assert(trim_neteval_set_int(ne, TRIM_NET_THREADS, threads) == 0);
	ck_assert(trim_neteval_set_int(ne, TRIM_NET_CACHE, cache) == 0);
	ck_assert(trim_neteval_set_double(ne, TRIM_NET_GAP, gap) == 0);
	ck_assert(trim_neteval_set_double(ne, TRIM_NET_TIME_LIMIT, limit) == 0);
	if (dir)
		ck_assert_msg(trim_neteval_set_out_dir(ne, dir) == 0, "%s", trim_last_error());
	if (library)
		ne->library = library; /* a library built from other sources */
	ck_assert_msg(trim_neteval_run(ne) == 0, "%s", trim_last_error());
	o->n = trim_neteval_count(ne);
	ck_assert_uint_le(o->n, 16);
	for (size_t i = 0; i < o->n; i++) {
		trim_mapping *m = NULL;
		ck_assert(trim_neteval_workload(ne, i, o->f[i], TRIM_NF_COUNT) == 0);
		ck_assert(trim_neteval_mapping(ne, i, &m) == 0);
		ck_assert(trim_mapping_dump(m, TRIM_FORMAT_YAML, &o->yaml[i]) == 0);
		/* every mapping it returns passes the check trim eval applies */
		ck_assert_msg(trim_mapping_check(m, w, i, a) == 0, "%s", trim_last_error());
		trim_mapping_free(m);
	}
	ck_assert(trim_neteval_report(ne, TRIM_FORMAT_JSON, &o->json) == 0);
	ck_assert(trim_neteval_resumed(ne, &o->resumed, &o->stale) == 0);
	snprintf(o->notes, sizeof o->notes, "%s", trim_neteval_resume_notes(ne));
	o->exact = trim_neteval_exact(ne, &o->lb, &o->gap);
	ck_assert(trim_neteval_progress(ne) == 1);
	trim_neteval_free(ne);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}

static void run_repeat(repeat_run *o, const char *arch, int threads, int cache, const char *dir, double gap,
                       double limit)
{
	run_repeat_as(o, arch, threads, cache, dir, gap, limit, NULL);
}

static void free_repeat(repeat_run *o)
{
	for (size_t i = 0; i < o->n; i++)
		trim_string_free(o->yaml[i]);
	trim_string_free(o->json);
}

/* The same figures and mappings, but for where each search came from. */
static void same_results(const repeat_run *a, const repeat_run *b)
{
	ck_assert_uint_eq(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		for (int k = 0; k < TRIM_NF_COUNT; k++)
			if (k != TRIM_NF_REUSED_FROM)
				ck_assert_msg(!memcmp(&a->f[i][k], &b->f[i][k], sizeof(double)) ||
				                  (isnan(a->f[i][k]) && isnan(b->f[i][k])),
				              "workload %zu field %d: %.17g vs %.17g", i, k, a->f[i][k], b->f[i][k]);
		ck_assert_str_eq(a->yaml[i], b->yaml[i]);
	}
}

/* Identical workloads are searched once: the results equal searching each
 * (cache off), for 1, 2 and 3 threads (2 and 3 search the distinct
 * workloads in parallel), byte for byte. */
START_TEST(test_search_reuse)
{
	repeat_run ref, r[3];
	run_repeat(&ref, ARCH, 1, 0, NULL, 0, 0);
	int reused = 0;
	for (size_t i = 0; i < ref.n; i++)
		ck_assert(ref.f[i][TRIM_NF_REUSED_FROM] == -1 && ref.f[i][TRIM_NF_EXACT] == 1);
	ck_assert(strstr(ref.json, "\"searches\": 6,"));
	for (int t = 0; t < 3; t++) {
		run_repeat(&r[t], ARCH, t + 1, 1, NULL, 0, 0);
		same_results(&ref, &r[t]);
		ck_assert_int_eq(r[t].exact, 1);
		ck_assert(r[t].gap == 0 && r[t].lb == ref.lb);
		if (t)
			ck_assert_str_eq(r[t].json, r[0].json);
	}
	for (size_t i = 0; i < r[0].n; i++)
		reused += r[0].f[i][TRIM_NF_REUSED_FROM] >= 0;
	ck_assert_int_eq(reused, 2); /* conv2 and conv3 reuse conv1's search */
	ck_assert(r[0].f[1][TRIM_NF_REUSED_FROM] == 0 && r[0].f[2][TRIM_NF_REUSED_FROM] == 0);
	ck_assert(strstr(r[0].json, "\"searches\": 4,"));
	free_repeat(&ref);
	for (int t = 0; t < 3; t++)
		free_repeat(&r[t]);
}
END_TEST

/* --out DIR: a second run reads every search back and gives the same
 * results; an edited or truncated file, or other inputs (another
 * architecture), are searched again. */
START_TEST(test_resume)
{
	char dir[] = "/tmp/trim-resume-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	repeat_run a, b, c, d, e;
	run_repeat(&a, ARCH, 2, 1, dir, 0, 0);
	ck_assert(a.resumed == 0 && a.stale == 0);
	run_repeat(&b, ARCH, 1, 1, dir, 0, 0);
	ck_assert_int_eq(b.resumed, 4);
	ck_assert_int_eq(b.stale, 0);
	same_results(&a, &b);
	/* edit one file's recorded cost, truncate another */
	char cmd[512];
	snprintf(cmd, sizeof cmd, "cd %s && f=$(ls search-*.txt | head -1) && sed -i 's/^best_cost \\(.\\)/best_cost 7\\1/' $f && "
	         "g=$(ls search-*.txt | sed -n 2p) && head -c 100 $g > $g.x && mv $g.x $g", dir);
	ck_assert_int_eq(system(cmd), 0);
	run_repeat(&c, ARCH, 1, 1, dir, 0, 0);
	ck_assert_int_eq(c.resumed, 2);
	ck_assert_int_eq(c.stale, 2);
	same_results(&a, &c);
	/* another architecture: nothing is reused, the results are its own */
	run_repeat(&d, ARCH_SKIP, 1, 1, dir, 0, 0);
	ck_assert_int_eq(d.resumed, 0);
	run_repeat(&e, ARCH_SKIP, 1, 1, NULL, 0, 0);
	same_results(&d, &e);
	/* a result proven only within a gap is not reused by an exact run */
	snprintf(cmd, sizeof cmd, "rm -rf %s/*", dir);
	ck_assert_int_eq(system(cmd), 0);
	repeat_run g, h;
	run_repeat(&g, ARCH, 1, 1, dir, 0, 1e-9);
	run_repeat(&h, ARCH, 1, 1, dir, 0, 0);
	ck_assert_int_eq(g.exact, 0);
	ck_assert_int_eq(h.exact, 1);
	ck_assert_int_eq(h.resumed, 0);
	same_results(&a, &h);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	repeat_run *all[] = {&a, &b, &c, &d, &e, &g, &h};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		free_repeat(all[i]);
}
END_TEST

/* The search files of dir, in byte order of their names (at most max). */
static size_t search_files(const char *dir, char paths[][256], size_t max)
{
	char pattern[256];
	snprintf(pattern, sizeof pattern, "%s/search-*.txt", dir);
	glob_t g;
	size_t n = 0;
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (; n < g.gl_pathc && n < max; n++)
			snprintf(paths[n], 256, "%s", g.gl_pathv[n]);
		globfree(&g);
	}
	return n;
}

/* Edit search file `path` as anyone can, its checksum recomputed: its line
 * "key ..." becomes "key value"; with key NULL, value is "FROM=>TO", the
 * first FROM in its mapping replaced by TO (of FROM's length: the mapping's
 * byte count holds). */
static void edit_search(const char *path, const char *key, const char *value)
{
	size_t n = 0;
	char *text = trim__result_file_text(path, &n, NULL);
	ck_assert_ptr_nonnull(text);
	char *sum_line = strstr(text, "\nchecksum ");
	ck_assert_ptr_nonnull(sum_line);
	sum_line[1] = '\0';
	trim__sb sb;
	trim__sb_init(&sb);
	if (key) {
		char head[64];
		snprintf(head, sizeof head, "\n%s ", key);
		char *at = strstr(text, head);
		ck_assert_ptr_nonnull(at);
		trim__sb_printf(&sb, "%.*s%s %s%s", (int)(at + 1 - text), text, key, value, strchr(at + 1, '\n'));
	} else {
		const char *arrow = strstr(value, "=>");
		ck_assert_ptr_nonnull(arrow);
		size_t from = (size_t)(arrow - value);
		ck_assert_uint_eq(strlen(arrow + 2), from);
		char want[64];
		snprintf(want, sizeof want, "%.*s", (int)from, value);
		char *at = strstr(strstr(text, "\nmapping "), want);
		ck_assert_ptr_nonnull(at);
		trim__sb_printf(&sb, "%.*s%s%s", (int)(at - text), text, arrow + 2, at + from);
	}
	char sum[TRIM__DIGEST_HEX];
	trim__digest_bytes_hex(sb.buf, sb.len, sum);
	trim__sb_printf(&sb, "checksum %s\n", sum);
	ck_assert_int_eq(trim__write_file_atomic(path, sb.buf, sb.len), 0);
	trim__sb_free(&sb);
	free(text);
}

/* The value of line "key ..." of search file `path`. */
static double search_value(const char *path, const char *key)
{
	size_t n = 0;
	char *text = trim__result_file_text(path, &n, NULL), head[64];
	ck_assert_ptr_nonnull(text);
	snprintf(head, sizeof head, "\n%s ", key);
	const char *at = strstr(text, head);
	ck_assert_ptr_nonnull(at);
	double v = strtod(at + strlen(head), NULL);
	free(text);
	return v;
}

/* A resumed search is used only when it checks again: a file edited with its
 * checksum recomputed (a lower recorded cost, by one ulp or more; an index
 * that overflows or names another mapping; a mapping that fails trim eval's
 * check) is searched again, with the results of the first run, and the
 * notes name the file and why. */
START_TEST(test_resume_rechecked)
{
	char dir[] = "/tmp/trim-recheck-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	repeat_run a, r;
	run_repeat(&a, ARCH, 1, 1, dir, 0, 0);
	char f[8][256], cost[64], index[64], next[64];
	ck_assert_uint_eq(search_files(dir, f, 8), 4);
	double best = search_value(f[0], "best_cost");
	snprintf(cost, sizeof cost, "%.17g", nextafter(best, 0));
	snprintf(index, sizeof index, "%.0f", search_value(f[0], "index"));
	snprintf(next, sizeof next, "%.0f", search_value(f[0], "index") + 1);
	const struct {
		const char *key, *value, *why;
	} edits[] = {
		{"best_cost", cost, ", not the recorded cost "},
		{"best_cost", "1000", "not the recorded cost 1000: searched again"},
		{"index", "100000000000000000000000000000000000000000000",
		 "its index 100000000000000000000000000000000000000000000 is not the encoding of its mapping"},
		{"index", next, "is not the encoding of its mapping"},
		{NULL, "C: 1=>C: 3", "its mapping fails the check trim eval applies"},
		{NULL, "level: GLB=>level: XYZ", "its mapping cannot be read"},
	};
	for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
		edit_search(f[0], edits[k].key, edits[k].value);
		run_repeat(&r, ARCH, 1, 1, dir, 0, 0);
		ck_assert_msg(r.resumed == 3 && r.stale == 1, "edit %zu: %lld resumed, %lld stale", k,
		              (long long)r.resumed, (long long)r.stale);
		same_results(&a, &r);
		ck_assert_msg(!strncmp(r.notes, f[0], strlen(f[0])) && strstr(r.notes, edits[k].why) &&
		                  strstr(r.notes, ": searched again\n"),
		              "edit %zu: %s", k, r.notes);
		free_repeat(&r);
		ck_assert(search_value(f[0], "best_cost") == best); /* searched again: its file is whole again */
	}
	/* the untouched index is read back */
	edit_search(f[0], "index", index);
	run_repeat(&r, ARCH, 1, 1, dir, 0, 0);
	ck_assert_int_eq(r.resumed, 4);
	ck_assert_str_eq(r.notes, "");
	free_repeat(&r);

	/* entries that are not regular files, or too large to be a search file,
	 * are not read (no hang on a FIFO, no reading /dev/zero to the end) and
	 * are replaced */
	ck_assert_int_eq(unlink(f[1]), 0);
	ck_assert_int_eq(mkfifo(f[1], 0600), 0);
	ck_assert_int_eq(unlink(f[2]), 0);
	ck_assert_int_eq(symlink("/dev/zero", f[2]), 0);
	ck_assert_int_eq(truncate(f[3], (off_t)TRIM__RESULT_FILE_MAX + 1), 0);
	run_repeat(&r, ARCH, 1, 1, dir, 0, 0);
	ck_assert_int_eq(r.resumed, 1);
	ck_assert_int_eq(r.stale, 3);
	same_results(&a, &r);
	const char *whys[] = {"not a regular file (a FIFO): not read: searched again",
	                      "not a regular file (a character device): not read: searched again",
	                      "67108865 bytes, larger than any result file (64 MiB): not read: searched again"};
	for (int k = 0; k < 3; k++) {
		char line[512];
		snprintf(line, sizeof line, "%s: %s\n", f[k + 1], whys[k]);
		ck_assert_msg(strstr(r.notes, line), "%s", r.notes);
		struct stat st;
		ck_assert_int_eq(lstat(f[k + 1], &st), 0);
		ck_assert(S_ISREG(st.st_mode) && st.st_size < 4096);
	}
	free_repeat(&r);

	/* a library built from other sources (another cost model, the same
	 * version): every file is searched again, both ways */
	run_repeat_as(&r, ARCH, 1, 1, dir, 0, 0, "libtrim 0.1.0 model 0000");
	ck_assert_int_eq(r.resumed, 0);
	ck_assert_int_eq(r.stale, 4);
	ck_assert_msg(strstr(r.notes, " and 3 more: made from other inputs (the library or its cost model"), "%s",
	              r.notes);
	same_results(&a, &r);
	free_repeat(&r);
	run_repeat(&r, ARCH, 1, 1, dir, 0, 0);
	ck_assert_int_eq(r.resumed, 0);
	ck_assert_int_eq(r.stale, 4);
	free_repeat(&r);
	run_repeat(&r, ARCH, 1, 1, dir, 0, 0);
	ck_assert_int_eq(r.resumed, 4);
	free_repeat(&r);
	free_repeat(&a);
	char cmd[80];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Which proofs a run reuses: an exact run only exact results; a run with a
 * gap G and no time limit those proven within G (G itself included, not a
 * hair worse); a run with a time limit only exact ones. */
START_TEST(test_resume_gap_rule)
{
	char dir[] = "/tmp/trim-gaprule-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	repeat_run a, r;
	run_repeat(&a, ARCH, 1, 1, dir, 0, 0);
	free_repeat(&a);
	char f[8][256], lb[64];
	ck_assert_uint_eq(search_files(dir, f, 8), 4);
	double best = search_value(f[0], "best_cost"), low = best * 0.75;
	snprintf(lb, sizeof lb, "%.17g", low);
	const double g = (best - low) / best; /* the proof the file then carries */
	ck_assert(g > 0.2 && g < 0.3);
	const struct {
		double gap, limit;
		int reused;
		const char *why;
	} runs[] = {
		{g, 0, 1, NULL},
		{0.5, 0, 1, NULL},
		{nextafter(g, 0), 0, 0, "proven only within 0.25 of the optimum, this run asks for 0.25: searched again"},
		{0, 0, 0, "not exact (proven within 0.25 of the optimum), this run asks for an exact result"},
		{0.5, 60, 0, "not exact (proven within 0.25 of the optimum), a run with a time limit reuses only exact "
		             "results: searched again"},
	};
	for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
		edit_search(f[0], "exact", "0");
		edit_search(f[0], "lower_bound", lb);
		run_repeat(&r, ARCH, 1, 1, dir, runs[k].gap, runs[k].limit);
		ck_assert_msg(r.resumed == 3 + runs[k].reused && r.stale == !runs[k].reused,
		              "run %zu: %lld resumed, %lld stale: %s", k, (long long)r.resumed, (long long)r.stale,
		              r.notes);
		if (runs[k].reused) {
			ck_assert_int_eq(r.exact, 0); /* the file's proof, taken as it is */
			ck_assert_str_eq(r.notes, "");
		} else {
			ck_assert_msg(!strncmp(r.notes, f[0], strlen(f[0])) && strstr(r.notes, runs[k].why), "run %zu: %s",
			              k, r.notes);
		}
		free_repeat(&r);
	}
	char cmd[80];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* trim network --out: standard error names each file searched again and
 * why; the report is the first run's (no wrapped index, no hang). */
START_TEST(test_resume_cli_notes)
{
	char dir[] = "/tmp/trim-netcli-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char args[512];
	snprintf(args, sizeof args, "network %s %s --format csv --out %s", NET_REPEAT, ARCH, dir);
	int st = 0;
	char *first = tu_capture(args, 0, &st);
	ck_assert_int_eq(st, 0);
	char f[8][256];
	ck_assert_uint_eq(search_files(dir, f, 8), 4);
	edit_search(f[0], "index", "100000000000000000000000000000000000000000000");
	ck_assert_int_eq(unlink(f[1]), 0);
	ck_assert_int_eq(mkfifo(f[1], 0600), 0);
	char *err = tu_capture(args, 1, &st);
	ck_assert_int_eq(st, 0);
	char want[1024];
	snprintf(want, sizeof want, "trim network: 2 searches read back from %s; 2 stale or corrupted", dir);
	ck_assert_msg(strstr(err, want), "%.2000s", err);
	snprintf(want, sizeof want, "trim network: %s: its index 100000000000000000000000000000000000000000000 is "
	         "not the encoding of its mapping (", f[0]);
	ck_assert_msg(strstr(err, want), "%.2000s", err);
	snprintf(want, sizeof want, "trim network: %s: not a regular file (a FIFO): not read: searched again\n", f[1]);
	ck_assert_msg(strstr(err, want), "%.2000s", err);
	free(err);
	char *again = tu_capture(args, 0, &st);
	ck_assert(!strcmp(again, first));
	err = tu_capture(args, 1, &st); /* all read back: no note */
	ck_assert_ptr_null(strstr(err, "searched again"));
	free(err);
	free(again);
	free(first);
	char cmd[80];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Anytime over a network: with a gap or a time limit every workload still
 * has a real mapping, and the network's proven lower bound is below the
 * exact optimum's cost. */
START_TEST(test_network_anytime)
{
	repeat_run x, g, t;
	run_repeat(&x, ARCH, 1, 1, NULL, 0, 0);
	run_repeat(&g, ARCH, 2, 1, NULL, 0.5, 0);
	run_repeat(&t, ARCH, 2, 1, NULL, 0, 1e-9);
	ck_assert_int_eq(x.exact, 1);
	ck_assert(g.lb <= x.lb * (1 + 1e-12) && t.lb <= x.lb * (1 + 1e-12));
	ck_assert(g.gap <= 0.5 && g.gap >= 0);
	ck_assert_int_eq(t.exact, 0);
	ck_assert(strstr(t.json, "\"exact\": false"));
	for (size_t i = 0; i < x.n; i++) {
		ck_assert(t.f[i][TRIM_NF_LOWER_BOUND] <= x.f[i][TRIM_NF_LOWER_BOUND] * (1 + 1e-12));
		ck_assert(g.f[i][TRIM_NF_GAP] <= 0.5);
	}
	free_repeat(&x);
	free_repeat(&g);
	free_repeat(&t);
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
 * the network's deadline, never lowered) */
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
 * nothing ends, with the retry, where no limit does (exact, same figures) */
START_TEST(test_retry_stopped)
{
	char *text[2];
	for (int k = 0; k < 2; k++) {
		fx s;
		setup(&s, ARCH, 2, 1);
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
	trim_string_free(text[0]);
	trim_string_free(text[1]);
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

/* TRIM_NET_IMPERFECT: every search also has the imperfect factorisations
 * (all dims 3 on 2 PEs: a ragged pass uses both, 2/3 of the cycles), and a
 * result kept in --out without them is not read back with them */
static double run_ragged(int imperfect, const char *dir, int64_t *resumed)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_neteval *ne = NULL;
	double cyc = -1;
	int64_t stale = 0;
	ck_assert(trim_network_load(&net, "test/data/neteval/ragged.yaml") == 0);
	ck_assert(trim_workloads_create(&w, net, TRIM_MODE_DEFAULT, 0, 0) == 0);
	ck_assert(trim_arch_load(&a, ARCH) == 0);
	ck_assert(trim_neteval_create(&ne, net, w, a, NULL) == 0);
	ck_assert(trim_neteval_set_int(ne, TRIM_NET_GOAL, TRIM_GOAL_DELAY) == 0);
	ck_assert(trim_neteval_set_int(ne, TRIM_NET_IMPERFECT, imperfect) == 0);
	ck_assert(trim_neteval_set_double(ne, TRIM_NET_IMPERFECT, 1) == TRIM_EINVAL);
	ck_assert(trim_neteval_set_int(ne, TRIM_NET_IMPERFECT, 2) == TRIM_ERANGE);
	if (dir)
		ck_assert(trim_neteval_set_out_dir(ne, dir) == 0);
	ck_assert_msg(trim_neteval_run(ne) == 0, "%s", trim_last_error());
	cyc = trim_neteval_cycles(ne);
	ck_assert(trim_neteval_resumed(ne, resumed, &stale) == 0);
	trim_neteval_free(ne);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
	return cyc;
}

START_TEST(test_imperfect)
{
	char dir[] = "/tmp/trim-ragged-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	int64_t r0, r1, r2;
	double perfect = run_ragged(0, dir, &r0), ragged = run_ragged(1, dir, &r1), again = run_ragged(1, dir, &r2);
	ck_assert_msg(ragged < perfect, "cycles: imperfect %g, perfect %g", ragged, perfect);
	ck_assert(r0 == 0 && r1 == 0); /* the perfect run's result is not read back */
	ck_assert(r2 > 0 && again == ragged);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
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
	tcase_add_test(tc, test_search_reuse);
	tcase_add_test(tc, test_resume);
	tcase_add_test(tc, test_resume_rechecked);
	tcase_add_test(tc, test_resume_gap_rule);
	tcase_add_test(tc, test_resume_cli_notes);
	tcase_add_test(tc, test_network_anytime);
	tcase_add_test(tc, test_shared_deadlines);
	tcase_add_test(tc, test_budget_keeps_overrun);
	tcase_add_test(tc, test_retry_stopped);
	tcase_add_test(tc, test_search_order);
	tcase_add_test(tc, test_imperfect);
	suite_add_tcase(s, tc);
	return s;
}
