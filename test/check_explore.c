/* The explorer: ranking, Pareto front, goals, budgets, determinism, resuming. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explore/explore_int.h"
#include "trim.h"
#include "tcase_util.h"
#include "trim/explore.h"
#include "explore_util.h"
#include "util/digest.h"

static char *report(const fx *s)
{
	char *t = NULL;
	ck_assert(trim_explorer_report(s->ex, TRIM_FORMAT_JSON, &t) == 0);
	return t;
}

START_TEST(test_ranking_and_pareto)
{
	fx s;
	fx_setup(&s, TRIM_EXPLORE_EDP, 1);
	ck_assert_int_eq(trim_explorer_count(s.ex), 3);
	ck_assert(trim_explorer_run(s.ex) == 0);
	double f[3][TRIM_XF_COUNT];
	for (size_t i = 0; i < 3; i++) {
		ck_assert(trim_explorer_point(s.ex, i, f[i], TRIM_XF_COUNT) == 0);
		ck_assert(f[i][TRIM_XF_VALID] == 1);
		ck_assert(f[i][TRIM_XF_EDP] == f[i][TRIM_XF_CYCLES] * f[i][TRIM_XF_ENERGY_PJ]);
		ck_assert(f[i][TRIM_XF_AREA_MM2] > 0);
	}
	/* ranks follow EDP (this space has no ties: test_ranking_ties has) */
	for (size_t r = 1; r < 3; r++) {
		size_t a, b;
		ck_assert(trim_explorer_ranked(s.ex, r, &a) == 0);
		ck_assert(trim_explorer_ranked(s.ex, r + 1, &b) == 0);
		ck_assert(f[a][TRIM_XF_EDP] < f[b][TRIM_XF_EDP]);
		ck_assert(f[a][TRIM_XF_RANK] == (double)r);
	}
	ck_assert_int_eq(trim_explorer_ranked(s.ex, 4, &(size_t){0}), TRIM_ENOTFOUND);
	/* the Pareto flags: brute force over (energy, delay, area) */
	for (size_t i = 0; i < 3; i++) {
		int dom = 0;
		for (size_t j = 0; j < 3; j++) {
			if (j == i)
				continue;
			int le = f[j][TRIM_XF_ENERGY_PJ] <= f[i][TRIM_XF_ENERGY_PJ] &&
			         f[j][TRIM_XF_CYCLES] <= f[i][TRIM_XF_CYCLES] &&
			         f[j][TRIM_XF_AREA_MM2] <= f[i][TRIM_XF_AREA_MM2];
			int lt = f[j][TRIM_XF_ENERGY_PJ] < f[i][TRIM_XF_ENERGY_PJ] ||
			         f[j][TRIM_XF_CYCLES] < f[i][TRIM_XF_CYCLES] ||
			         f[j][TRIM_XF_AREA_MM2] < f[i][TRIM_XF_AREA_MM2];
			if (le && (lt || j < i))
				dom = 1;
		}
		ck_assert_int_eq((int)f[i][TRIM_XF_PARETO], !dom);
	}
	/* the smallest buffer has the smallest area: always on the front */
	ck_assert(f[0][TRIM_XF_PARETO] == 1);
	char *t = report(&s);
	ck_assert(strstr(t, "\"goal\": \"edp\""));
	ck_assert(strstr(t, "\"pareto\": [\"pes=1_glb=1KB\""));
	ck_assert(strstr(t, "\"area_mm2\": "));
	trim_string_free(t);
	fx_teardown(&s);
}
END_TEST

/* A tie on the ranking's goal breaks on the other figure, then the point
 * index: with the delay goal the three points of tiny-space-1pe-desc.yaml
 * take the same cycles, and the last point (the smallest buffer) spends the
 * least energy: it ranks first, the first point last. */
START_TEST(test_ranking_ties)
{
	fx s;
	fx_setup(&s, TRIM_EXPLORE_DELAY, 1);
	trim_space_free(s.space);
	trim_explorer_free(s.ex);
	ck_assert_msg(trim_space_load(&s.space, "test/data/neteval/tiny-space-1pe-desc.yaml") == 0, "%s",
	              trim_last_error());
	ck_assert(trim_explorer_create(&s.ex, s.net, s.w, s.space) == 0);
	ck_assert(trim_explorer_set_int(s.ex, TRIM_EX_GOAL, TRIM_EXPLORE_DELAY) == 0);
	ck_assert(trim_explorer_run(s.ex) == 0);
	double f[3][TRIM_XF_COUNT];
	for (size_t i = 0; i < 3; i++)
		ck_assert(trim_explorer_point(s.ex, i, f[i], TRIM_XF_COUNT) == 0);
	/* the case: equal cycles, energy falling with the point index */
	ck_assert(f[0][TRIM_XF_CYCLES] == f[1][TRIM_XF_CYCLES] && f[1][TRIM_XF_CYCLES] == f[2][TRIM_XF_CYCLES]);
	ck_assert(f[0][TRIM_XF_ENERGY_PJ] > f[1][TRIM_XF_ENERGY_PJ] && f[1][TRIM_XF_ENERGY_PJ] > f[2][TRIM_XF_ENERGY_PJ]);
	for (size_t r = 1; r <= 3; r++) {
		size_t p;
		ck_assert(trim_explorer_ranked(s.ex, r, &p) == 0);
		ck_assert_uint_eq(p, 3 - r);
		ck_assert(f[p][TRIM_XF_RANK] == (double)r);
	}
	fx_teardown(&s);
}
END_TEST

START_TEST(test_goals_and_budget)
{
	fx s;
	fx_setup(&s, TRIM_EXPLORE_AREA, 1);
	/* area budget below the two larger buffers: only the smallest is ranked */
	double probe[TRIM_XF_COUNT];
	ck_assert(trim_explorer_run(s.ex) == 0);
	ck_assert(trim_explorer_point(s.ex, 0, probe, TRIM_XF_COUNT) == 0);
	size_t best;
	ck_assert(trim_explorer_ranked(s.ex, 1, &best) == 0);
	ck_assert_int_eq(best, 0); /* least area */
	ck_assert(trim_explorer_set_double(s.ex, TRIM_EX_AREA_BUDGET, probe[TRIM_XF_AREA_MM2] * 1.001) == 0);
	/* a finished sweep is re-ranked at once */
	ck_assert(trim_explorer_ranked(s.ex, 1, &best) == 0 && best == 0);
	ck_assert_int_eq(trim_explorer_ranked(s.ex, 2, &best), TRIM_ENOTFOUND);
	char *t = NULL;
	ck_assert(trim_explorer_report(s.ex, TRIM_FORMAT_TABLE, &t) == 0);
	ck_assert(strstr(t, "over the area budget"));
	trim_string_free(t);
	ck_assert_int_eq(trim_explorer_set_double(s.ex, TRIM_EX_W_ENERGY, -1), TRIM_ERANGE);
	ck_assert_int_eq(trim_explorer_set_int(s.ex, TRIM_EX_GOAL, 9), TRIM_EINVAL);
	fx_teardown(&s);
}
END_TEST

/* Identical results for 1 and 2 threads, by stepping or running. */
START_TEST(test_deterministic)
{
	char *t[3];
	for (int k = 0; k < 3; k++) {
		fx s;
		fx_setup(&s, TRIM_EXPLORE_ENERGY, k == 0 ? 1 : 2);
		if (k == 2) {
			int done = 0;
			while (!done)
				ck_assert(trim_explorer_step(s.ex, &done) == 0);
		} else {
			ck_assert(trim_explorer_run(s.ex) == 0);
		}
		t[k] = report(&s);
		fx_teardown(&s);
	}
	ck_assert_str_eq(t[0], t[1]);
	ck_assert_str_eq(t[0], t[2]);
	for (int k = 0; k < 3; k++)
		trim_string_free(t[k]);
}
END_TEST

/* An interrupted sweep resumes from what it wrote, with identical results;
 * a directory of another exploration is refused. */
START_TEST(test_resume)
{
	char dir[] = "/tmp/trim-explore-XXXXXX";
	ck_assert(mkdtemp(dir) != NULL);
	char out[256];
	snprintf(out, sizeof out, "%s/run", dir);
	fx a;
	fx_setup(&a, TRIM_EXPLORE_EDP, 1);
	ck_assert(trim_explorer_set_out_dir(a.ex, out) == 0);
	int done = 0;
	ck_assert(trim_explorer_step(a.ex, &done) == 0 && !done); /* one point, then "interrupted" */
	fx_teardown(&a);

	fx b;
	fx_setup(&b, TRIM_EXPLORE_EDP, 2);
	ck_assert(trim_explorer_set_out_dir(b.ex, out) == 0);
	ck_assert_int_eq(trim_explorer_resumed(b.ex), 1);
	ck_assert(trim_explorer_run(b.ex) == 0);
	char *tb = report(&b);
	ck_assert(trim_explorer_write(b.ex, out) == 0);
	fx_teardown(&b);

	fx c; /* fresh, no directory */
	fx_setup(&c, TRIM_EXPLORE_EDP, 1);
	ck_assert(trim_explorer_run(c.ex) == 0);
	char *tc = report(&c);
	fx_teardown(&c);
	ck_assert_str_eq(tb, tc);

	fx d; /* everything resumed */
	fx_setup(&d, TRIM_EXPLORE_EDP, 1);
	ck_assert(trim_explorer_set_out_dir(d.ex, out) == 0);
	ck_assert_int_eq(trim_explorer_resumed(d.ex), 3);
	ck_assert(trim_explorer_run(d.ex) == 0);
	char *td = report(&d);
	ck_assert_str_eq(td, tc);
	fx_teardown(&d);

	fx e; /* another goal changes every figure: nothing is reused, and it says why */
	fx_setup(&e, TRIM_EXPLORE_DELAY, 1);
	ck_assert(trim_explorer_set_out_dir(e.ex, out) == 0);
	ck_assert_int_eq(trim_explorer_resumed(e.ex), 0);
	ck_assert_int_eq(trim_explorer_recomputed(e.ex), 3);
	ck_assert_msg(strstr(trim_explorer_resume_notes(e.ex), "point-000000.json and 2 more: the options"),
	              "%s", trim_explorer_resume_notes(e.ex));
	fx_teardown(&e);
	fx h; /* options that change figures come before the directory that is stamped with them */
	fx_setup(&h, TRIM_EXPLORE_EDP, 1);
	ck_assert_int_eq(trim_explorer_set_int(h.ex, TRIM_EX_IMPERFECT, 2), TRIM_ERANGE);
	ck_assert_int_eq(trim_explorer_set_double(h.ex, TRIM_EX_IMPERFECT, 1), TRIM_EINVAL);
	ck_assert(trim_explorer_set_out_dir(h.ex, out) == 0);
	ck_assert_int_eq(trim_explorer_set_int(h.ex, TRIM_EX_GOAL, TRIM_EXPLORE_ENERGY), TRIM_EINVAL);
	ck_assert_int_eq(trim_explorer_set_int(h.ex, TRIM_EX_SPARSITY, 0), TRIM_EINVAL);
	ck_assert_int_eq(trim_explorer_set_int(h.ex, TRIM_EX_IMPERFECT, 1), TRIM_EINVAL);
	ck_assert_int_eq(trim_explorer_set_double(h.ex, TRIM_EX_MIN_PE_UTIL, 0.5), TRIM_EINVAL);
	ck_assert_int_eq(trim_explorer_set_double(h.ex, TRIM_EX_AREA_BUDGET, 1), 0);
	fx_teardown(&h);
	fx g; /* the area goal ranks EDP mappings: the EDP points are reused */
	fx_setup(&g, TRIM_EXPLORE_AREA, 1);
	ck_assert(trim_explorer_set_out_dir(g.ex, out) == 0);
	ck_assert_int_eq(trim_explorer_resumed(g.ex), 3);
	ck_assert_str_eq(trim_explorer_resume_notes(g.ex), "");
	fx_teardown(&g);

	char path[300];
	snprintf(path, sizeof path, "%s/results.json", out);
	ck_assert(access(path, R_OK) == 0);
	snprintf(path, sizeof path, "%s/workloads.csv", out);
	ck_assert(access(path, R_OK) == 0);
	trim_string_free(tb);
	trim_string_free(tc);
	trim_string_free(td);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert(system(cmd) == 0);
}
END_TEST

/* An exploration in which every point is rejected exits 2 and says why for
 * each point (it printed a ranking of 0 points and exited 0). */
START_TEST(test_every_point_rejected)
{
	int st = 0;
	char *o = tu_capture("explore " NET " " SPACE " --mode inference --quiet --area-budget 0.001", 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(o, "none of the 3 points of space tiny-space-1pe can be ranked") &&
	              strstr(o, "pes=1_glb=4KB") && strstr(o, "over the area budget"), "%s", o);
	free(o);
	o = tu_capture("explore " NET " test/data/explore/no-point.yaml --mode inference --quiet --format json", 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(o, "space no-point accepts none of its 2 grid points") &&
	              strstr(o, "REJECTED: area 0.1152 mm2 > budget 1e-05 mm2"), "%s", o);
	free(o);
	/* a point that cannot run the network: its reason */
	o = tu_capture("explore " NET " " SPACE " --mode inference --quiet --max-mappings 1", 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(o, "can be ranked") && strstr(o, "mapping"), "%s", o);
	free(o);
	/* one rankable point is enough */
	o = tu_capture("explore " NET " " SPACE " --mode inference --quiet --area-budget 0.07", 0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(o, "1     pes=1_glb=1KB"));
	free(o);
}
END_TEST

/* ---- resuming with changed inputs -------------------------------------------- */

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert(fputs(text, f) >= 0);
	ck_assert_int_eq(fclose(f), 0);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	char *buf = calloc(1, 1 << 20);
	ck_assert_ptr_nonnull(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* replace the first `from` in the file with `to` */
static void edit(const char *path, const char *from, const char *to)
{
	char *t = read_all(path);
	char *at = strstr(t, from);
	ck_assert_msg(at != NULL, "%s: no '%s'", path, from);
	size_t n = strlen(t) + strlen(to) + 1;
	char *u = malloc(n);
	snprintf(u, n, "%.*s%s%s", (int)(at - t), t, to, at + strlen(from));
	write_text(path, u);
	free(u);
	free(t);
}

static const char tmp_net[] =
	"schema_version: 1\n"
	"network: {name: tiny, input: [4, 4, 1], output: [2], batch: 1, mode: inference, word_bits: 16}\n"
	"layers:\n"
	"  - {name: conv, type: conv2d, filters: 2, kernel: 3, padding: same, activation: relu, sparsity: 0.5}\n"
	"  - {name: pool, type: maxpool2d, pool: 2}\n"
	"  - {type: flatten}\n"
	"  - {name: fc, type: dense, units: 2}\n";
static const char tmp_arch[] =
	"schema_version: 1\n"
	"name: tiny-arch\n"
	"clock_mhz: 100\n"
	"technology: table.yaml\n"
	"word_bits: 16\n"
	"levels:\n"
	"  - {name: DRAM, type: storage, class: dram, technology: ddr3, read_bw: 2, write_bw: 2}\n"
	"  - {name: GLB, type: storage, class: sram, capacity: 1 KB, read_bw: 4, write_bw: 4}\n"
	"  - {name: NoC, type: spatial, fanout: [2, 1], network: bus, multicast: true, reduction: true}\n"
	"  - {name: RF, type: storage, class: regfile, capacity: 1 KB}\n"
	"  - {name: MAC, type: compute, datatype: int16, zero_gate: true}\n";
static const char tmp_space[] =
	"schema_version: 1\n"
	"name: tiny-space-1pe\n"
	"base: arch.yaml\n"
	"parameters:\n"
	"  - {name: pes, set: NoC.fanout, values: [[1, 1]]}\n"
	"  - {name: glb, set: GLB.capacity, values: [1 KB, 2 KB]}\n";

typedef struct {
	char dir[64], net[96], arch[96], space[96], table[96], out[96];
} tmp_inputs;

static void make_inputs(tmp_inputs *t)
{
	snprintf(t->dir, sizeof t->dir, "/tmp/trim-stale-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	snprintf(t->net, sizeof t->net, "%s/net.yaml", t->dir);
	snprintf(t->arch, sizeof t->arch, "%s/arch.yaml", t->dir);
	snprintf(t->space, sizeof t->space, "%s/space.yaml", t->dir);
	snprintf(t->table, sizeof t->table, "%s/table.yaml", t->dir);
	snprintf(t->out, sizeof t->out, "%s/out", t->dir);
	write_text(t->net, tmp_net);
	write_text(t->arch, tmp_arch);
	write_text(t->space, tmp_space);
	char *table = read_all("energy_tables/65nm.yaml");
	write_text(t->table, table);
	free(table);
}

/* One exploration of the files; *cycles of point 0, the notes copied;
 * library: the stamps' library (NULL: this one's, trim__library_stamp). */
static int explore_files_as(const tmp_inputs *t, int with_dir, double *cycles, char *notes, size_t n,
                            size_t *resumed, const char *library)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_space *space = NULL;
	trim_explorer *ex = NULL;
	int rc = trim_network_load(&net, t->net);
	if (rc == 0)
		rc = trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0);
	if (rc == 0)
		rc = trim_space_load(&space, t->space);
	if (rc == 0)
		rc = trim_explorer_create(&ex, net, w, space);
	if (rc == 0 && library)
		ex->library = library; /* a library built from other sources */
	if (rc == 0 && with_dir)
		rc = trim_explorer_set_out_dir(ex, t->out);
	if (rc == 0) {
		snprintf(notes, n, "%s", trim_explorer_resume_notes(ex));
		*resumed = trim_explorer_resumed(ex);
		rc = trim_explorer_run(ex);
	}
	double f[TRIM_XF_COUNT];
	if (rc == 0)
		rc = trim_explorer_point(ex, 0, f, TRIM_XF_COUNT);
	if (rc == 0)
		*cycles = f[TRIM_XF_CYCLES];
	trim_explorer_free(ex);
	trim_space_free(space);
	trim_workloads_free(w);
	trim_network_free(net);
	return rc;
}

static int explore_files(const tmp_inputs *t, int with_dir, double *cycles, char *notes, size_t n,
                         size_t *resumed)
{
	return explore_files_as(t, with_dir, cycles, notes, n, resumed, NULL);
}

/* Edit an input between two runs with the same names: the rerun recomputes
 * (the same figures as a fresh run on the edited input) and says which
 * input changed. Before content digests it reused the old figures. */
START_TEST(test_resume_stale_inputs)
{
	tmp_inputs t;
	make_inputs(&t);
	char notes[2048];
	size_t resumed = 0;
	double c0 = 0, c1 = 0, fresh = 0;
	ck_assert_msg(explore_files(&t, 1, &c0, notes, sizeof notes, &resumed) == 0, "%s", trim_last_error());
	ck_assert_int_eq(resumed, 0);
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
	ck_assert_int_eq(resumed, 2); /* nothing changed: reused */
	ck_assert(c1 == c0);
	ck_assert_str_eq(notes, "");

	static const struct {
		int file; /* 0 network, 1 architecture, 2 energy table, 3 space */
		const char *from, *to, *word;
	} edits[] = {
		{0, "filters: 2,", "filters: 4,", "the network changed"},
		{1, "capacity: 1 KB}", "capacity: 512 B}", "the base architecture changed"},
		{2, "#", "# edited\n#", "the energy table changed"},
		{3, "values: [[1, 1]]", "values: [[2, 1]]", "the space"},
	};
	for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
		const char *file = edits[k].file == 0 ? t.net : edits[k].file == 1 ? t.arch
		                   : edits[k].file == 2 ? t.table : t.space;
		edit(file, edits[k].from, edits[k].to);
		ck_assert_msg(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed) == 0, "%s", trim_last_error());
		ck_assert_msg(resumed == 0, "edit %zu: %zu points reused", k, resumed);
		ck_assert_msg(strstr(notes, edits[k].word) && strstr(notes, "recomputed"), "edit %zu: %s", k, notes);
		ck_assert_int_eq(explore_files(&t, 0, &fresh, notes, sizeof notes, &resumed), 0);
		ck_assert_msg(c1 == fresh, "edit %zu: resumed %g, fresh %g", k, c1, fresh);
	}
	ck_assert(c1 != c0); /* the edits changed the figures */

	/* a point file whose numbers were edited: detected by its checksum */
	char pf[160];
	snprintf(pf, sizeof pf, "%s/point-000000.json", t.out);
	char *text = read_all(pf), cyc[64];
	char *at = strstr(text, "\"cycles\": ");
	ck_assert_ptr_nonnull(at);
	snprintf(cyc, sizeof cyc, "%.*s", (int)strcspn(at, ","), at);
	edit(pf, cyc, "\"cycles\": 86901");
	free(text);
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
	ck_assert_int_eq(resumed, 1);
	ck_assert_msg(strstr(notes, "point-000000.json: corrupt or edited (its checksum does not match its content): recomputed"),
	              "%s", notes);
	ck_assert(c1 == fresh);
	/* a truncated file, and a file of libtrim 0.1.0 (stamped by names only) */
	write_text(pf, "{\"format\": \"libtrim point 2\", \"checksum\": \"00");
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
	ck_assert_msg(strstr(notes, "point-000000.json: not a libtrim point file"), "%s", notes);
	write_text(pf, "{\"stamp\": \"tiny|inference|1|16|tiny-space-1pe|1|0|0|0\", \"goal\": \"edp\", "
	               "\"point\": {\"name\": \"pes=2x1_glb=512B\", \"cycles\": 1}}\n");
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
	ck_assert_msg(strstr(notes, "written by an older libtrim, without content digests"), "%s", notes);
	ck_assert(c1 == fresh);
	/* another network's directory is refused, naming the file */
	edit(t.net, "name: tiny,", "name: other,");
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "point-000000.json: holds another exploration's results (network tiny"),
	              "%s", trim_last_error());
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t.dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Edit point file `path` as anyone can: the first `from` after `after`
 * becomes `to`, and its checksum is recomputed (SHA-256 of the text with
 * the checksum's digits read as zeros). */
static void edit_point(const char *path, const char *after, const char *from, const char *to)
{
	char *t = read_all(path);
	char *at = strstr(strstr(t, after), from);
	ck_assert_msg(at != NULL, "%s: no '%s'", path, from);
	size_t n = strlen(t) + strlen(to) + 1;
	char *u = malloc(n);
	snprintf(u, n, "%.*s%s%s", (int)(at - t), t, to, at + strlen(from));
	char *sum = strstr(u, "\"checksum\": \"") + 13;
	memset(sum, '0', 64);
	char hex[TRIM__DIGEST_HEX];
	trim__digest_bytes_hex(u, strlen(u), hex);
	memcpy(sum, hex, 64);
	write_text(path, u);
	free(u);
	free(t);
}

/* The text of the value of the first "key": in point file path after `after`. */
static void point_value(const char *path, const char *after, const char *key, char *out, size_t n)
{
	char *t = read_all(path), want[64];
	snprintf(want, sizeof want, "\"%s\": ", key);
	const char *at = strstr(strstr(t, after), want);
	ck_assert_ptr_nonnull(at);
	at += strlen(want);
	snprintf(out, n, "%.*s", (int)strcspn(at, ",}"), at);
	free(t);
}

/* A resumed point is used only if its mappings give its figures now: a point
 * file edited with its checksum recomputed (a figure of the point, of a
 * level, of a workload; a mapping that fails trim eval's check) is
 * recomputed, with a fresh run's figures, and the notes name the file and
 * the first figure that differs. */
START_TEST(test_resume_rechecked)
{
	tmp_inputs t;
	make_inputs(&t);
	char notes[4096], pf[160], pg[160], v[64];
	size_t resumed = 0;
	double c1 = 0, fresh = 0;
	ck_assert_msg(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed) == 0, "%s", trim_last_error());
	ck_assert_int_eq(explore_files(&t, 0, &fresh, notes, sizeof notes, &resumed), 0);
	snprintf(pf, sizeof pf, "%s/point-000000.json", t.out);
	snprintf(pg, sizeof pg, "%s/point-000001.json", t.out);
	static const struct {
		const char *after, *key, *to, *why; /* to: prepended to the value; why: after "FILE: " */
	} edits[] = {
		{"\"point\"", "cycles", "1", "its \"cycles\" is 1%s in the file, its mappings give %s: recomputed\n"},
		/* the same length: the text compared, not only its size */
		{"\"point\"", "cycles", NULL, "its \"cycles\" is %s in the file, its mappings give %s: recomputed\n"},
		{"\"point\"", "energy_pj", "-", "its \"energy_pj\" is -%s in the file, its mappings give %s: recomputed\n"},
		{"\"energy_by_level\"", "DRAM", "2", "its \"DRAM\" is 2%s in the file, its mappings give %s: recomputed\n"},
		{"{\"layer\": \"fc\"", "dense_energy_pj", "9",
		 "the \"dense_energy_pj\" of workload fc is 9%s in the file, its mappings give %s: recomputed\n"},
		{"\"mapping\"", NULL, "C: 3", "its mapping of conv FW fails the check trim eval applies ("},
	};
	for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
		char from[96], to[96], why[400];
		if (edits[k].key && !edits[k].to) { /* the first digit changed */
			char w[64];
			point_value(pf, edits[k].after, edits[k].key, v, sizeof v);
			snprintf(w, sizeof w, "%s", v);
			w[0] = w[0] == '1' ? '2' : '1';
			snprintf(from, sizeof from, "\"%s\": %s", edits[k].key, v);
			snprintf(to, sizeof to, "\"%s\": %s", edits[k].key, w);
			snprintf(why, sizeof why, edits[k].why, w, v);
		} else if (edits[k].key) {
			point_value(pf, edits[k].after, edits[k].key, v, sizeof v);
			snprintf(from, sizeof from, "\"%s\": %s", edits[k].key, v);
			snprintf(to, sizeof to, "\"%s\": %s%s", edits[k].key, edits[k].to, v);
			snprintf(why, sizeof why, edits[k].why, v, v);
		} else {
			snprintf(from, sizeof from, "C: 1");
			snprintf(to, sizeof to, "%s", edits[k].to);
			snprintf(why, sizeof why, "%s", edits[k].why);
		}
		edit_point(pf, edits[k].after, from, to);
		ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
		ck_assert_msg(resumed == 1, "edit %zu: %zu resumed", k, resumed);
		char line[600];
		snprintf(line, sizeof line, "%s: %s", pf, why);
		ck_assert_msg(!strncmp(notes, line, strlen(line)), "edit %zu: %s", k, notes);
		ck_assert(c1 == fresh);
	}
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
	ck_assert_int_eq(resumed, 2); /* recomputed, written again: whole */
	ck_assert_str_eq(notes, "");

	/* a library built from other sources (another cost model, the same
	 * version): every point is recomputed, both ways */
	ck_assert_int_eq(explore_files_as(&t, 1, &c1, notes, sizeof notes, &resumed, "libtrim 0.1.0 model 00"), 0);
	ck_assert_int_eq(resumed, 0);
	char want[400];
	snprintf(want, sizeof want, "%s and 1 more: the library (its version or cost model) changed since it was "
	         "written: recomputed\n", pf);
	ck_assert_str_eq(notes, want);
	ck_assert(c1 == fresh);
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
	ck_assert_int_eq(resumed, 0);
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
	ck_assert_int_eq(resumed, 2);

	/* entries that are not regular files, or too large for a point file, are
	 * not read (no hang on a FIFO, no reading /dev/zero to the end) and are
	 * replaced */
	ck_assert_int_eq(unlink(pf), 0);
	ck_assert_int_eq(mkfifo(pf, 0600), 0);
	ck_assert_int_eq(unlink(pg), 0);
	ck_assert_int_eq(symlink("/dev/zero", pg), 0);
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
	ck_assert_int_eq(resumed, 0);
	snprintf(want, sizeof want, "%s: not a regular file (a FIFO): not read: recomputed\n%s: not a regular file (a "
	         "character device): not read: recomputed\n", pf, pg);
	ck_assert_str_eq(notes, want);
	ck_assert(c1 == fresh);
	ck_assert_int_eq(truncate(pf, (off_t)TRIM__RESULT_FILE_MAX + 1), 0);
	ck_assert_int_eq(explore_files(&t, 1, &c1, notes, sizeof notes, &resumed), 0);
	ck_assert_int_eq(resumed, 1);
	snprintf(want, sizeof want, "%s: 67108865 bytes, larger than any result file (64 MiB): not read: recomputed\n",
	         pf);
	ck_assert_str_eq(notes, want);
	struct stat st;
	ck_assert(lstat(pf, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 65536);
	ck_assert(lstat(pg, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 65536);

	/* the CLI says so on standard error, and prints the fresh ranking */
	char args[600], fresh_args[600];
	snprintf(args, sizeof args, "explore %s %s --mode inference --quiet --format csv --out %s", t.net, t.space,
	         t.out);
	snprintf(fresh_args, sizeof fresh_args, "explore %s %s --mode inference --quiet --format csv", t.net, t.space);
	point_value(pf, "\"point\"", "cycles", v, sizeof v);
	char from[96], to[96];
	snprintf(from, sizeof from, "\"cycles\": %s", v);
	snprintf(to, sizeof to, "\"cycles\": 1%s", v);
	edit_point(pf, "\"point\"", from, to);
	int code = 0;
	char *err = tu_capture(args, 1, &code);
	ck_assert_int_eq(code, 0);
	snprintf(want, sizeof want, "trim explore: %s: its \"cycles\" is 1%s in the file, its mappings give %s: "
	         "recomputed\n", pf, v, v);
	ck_assert_msg(strstr(err, want), "%s", err);
	free(err);
	char *out = tu_capture(args, 0, &code), *fresh_out = tu_capture(fresh_args, 0, &code);
	ck_assert_str_eq(out, fresh_out);
	free(out);
	free(fresh_out);
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t.dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The CLI: the edited network's rerun prints fresh numbers and says why on
 * standard error. */
START_TEST(test_resume_cli)
{
	tmp_inputs t;
	make_inputs(&t);
	char args[600];
	snprintf(args, sizeof args, "explore %s %s --mode inference --quiet --format csv --out %s", t.net, t.space,
	         t.out);
	int st = 0;
	char *first = tu_capture(args, 0, &st);
	ck_assert_int_eq(st, 0);
	edit(t.net, "filters: 2,", "filters: 4,");
	char *second = tu_capture(args, 0, &st);
	ck_assert_int_eq(st, 0);
	char *err = tu_capture(args, 1, &st); /* a third run reuses silently */
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_null(strstr(err, "recomputed"));
	free(err);
	char fresh_args[600];
	snprintf(fresh_args, sizeof fresh_args, "explore %s %s --mode inference --quiet --format csv", t.net, t.space);
	char *fresh = tu_capture(fresh_args, 0, &st);
	ck_assert_str_eq(second, fresh);
	ck_assert_str_ne(first, second);
	edit(t.net, "filters: 4,", "filters: 3,");
	err = tu_capture(args, 1, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(err, "trim explore: ") && strstr(err, "point-000000.json and 1 more: the network changed since it was written: recomputed"),
	              "%s", err);
	free(err);
	free(first);
	free(second);
	free(fresh);
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t.dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *explore_suite(void)
{
	Suite *s = suite_create("explore");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_ranking_and_pareto);
	tcase_add_test(tc, test_ranking_ties);
	tcase_add_test(tc, test_goals_and_budget);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_resume);
	tcase_add_test(tc, test_resume_stale_inputs);
	tcase_add_test(tc, test_resume_cli);
	tcase_add_test(tc, test_resume_rechecked);
	tcase_add_test(tc, test_every_point_rejected);
	suite_add_tcase(s, tc);
	return s;
}
