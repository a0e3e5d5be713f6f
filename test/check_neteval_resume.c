/* A network's searches kept and read back (--out, resume stamps, rechecks,
 * the gap rule, notes), an anytime run's figures, and the imperfect option's
 * part in what is read back. The rest of the network evaluator is in
 * check_neteval.c. */
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
		/* a run searched again with a gap writes what it found, which may
		 * be another mapping within that gap (the greedy seed's): the
		 * proof is set against the file's own best (the first's until then) */
		snprintf(lb, sizeof lb, "%.17g", search_value(f[0], "best_cost") * 0.75);
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

Suite *neteval_resume_suite(void)
{
	Suite *s = suite_create("neteval_resume");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_search_reuse);
	tcase_add_test(tc, test_resume);
	tcase_add_test(tc, test_resume_rechecked);
	tcase_add_test(tc, test_resume_gap_rule);
	tcase_add_test(tc, test_resume_cli_notes);
	tcase_add_test(tc, test_network_anytime);
	tcase_add_test(tc, test_imperfect);
	suite_add_tcase(s, tc);
	return s;
}
