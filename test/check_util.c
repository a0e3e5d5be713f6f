/* lib/util: content digests (SHA-256), "did you mean" suggestions, atomic
 * file writes that follow the umask, and the CLI's handling of output that
 * cannot be written. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/digest.h"
#include "tcase_util.h"
#include "util/util.h"

static void hex_of(const char *text, size_t n, char *out) { trim__digest_bytes_hex(text, n, out); }

/* FIPS 180-2 appendix B and the NIST example vectors */
/* trim__divisors against trial division of every value up to n, ascending,
 * for n = 1 .. 3000 and a few large n (a prime, a square, 2^40); more
 * divisors than the room: -1; n < 1: none. */
START_TEST(test_divisors)
{
	static int64_t dv[4096];
	for (int64_t n = 1; n <= 3000; n++) {
		const int got = trim__divisors(n, dv, 4096);
		int k = 0;
		for (int64_t d = 1; d <= n; d++)
			if (n % d == 0) {
				ck_assert_int_lt(k, got);
				ck_assert_int_eq(dv[k], d);
				k++;
			}
		ck_assert_int_eq(got, k);
	}
	ck_assert_int_eq(trim__divisors(1000003, dv, 4096), 2); /* a prime */
	ck_assert(dv[0] == 1 && dv[1] == 1000003);
	ck_assert_int_eq(trim__divisors(1000003LL * 1000003LL, dv, 4096), 3);
	ck_assert(dv[1] == 1000003);
	ck_assert_int_eq(trim__divisors((int64_t)1 << 40, dv, 4096), 41);
	for (int i = 0; i <= 40; i++)
		ck_assert(dv[i] == (int64_t)1 << i);
	ck_assert_int_eq(trim__divisors(720720, dv, 239), -1); /* 240 divisors */
	ck_assert_int_eq(trim__divisors(720720, dv, 240), 240);
	ck_assert_int_eq(trim__divisors(36, dv, 8), -1); /* 9 divisors, the square root one last */
	ck_assert_int_eq(trim__divisors(36, dv, 9), 9);
	ck_assert_int_eq(trim__divisors(0, dv, 4), 0);
}
END_TEST

START_TEST(test_sha256_vectors)
{
	char h[TRIM__DIGEST_HEX];
	hex_of("", 0, h);
	ck_assert_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, h);
	ck_assert_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 448 bits */
	hex_of(two, strlen(two), h);
	ck_assert_str_eq(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* a million 'a', fed in uneven pieces: incremental updates agree */
	trim__digest d;
	trim__digest_init(&d);
	char chunk[997];
	memset(chunk, 'a', sizeof chunk);
	size_t left = 1000000;
	for (size_t k = 1; left > 0; k = k % 996 + 1) {
		size_t n = k < left ? k : left;
		trim__digest_update(&d, chunk, n);
		left -= n;
	}
	trim__digest_hex(&d, h);
	ck_assert_str_eq(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* 55, 56 and 64 bytes: the padding boundaries */
	hex_of(chunk, 55, h);
	ck_assert_str_eq(h, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
	hex_of(chunk, 56, h);
	ck_assert_str_eq(h, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
	hex_of(chunk, 64, h);
	ck_assert_str_eq(h, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}
END_TEST

static void field_hex(const char *k1, const char *v1, const char *k2, const char *v2, char *out)
{
	trim__digest d;
	trim__digest_init(&d);
	trim__digest_str(&d, k1, v1);
	trim__digest_str(&d, k2, v2);
	trim__digest_hex(&d, out);
}

/* framed fields cannot be confused by moving bytes between them */
START_TEST(test_fields_are_framed)
{
	char a[TRIM__DIGEST_HEX], b[TRIM__DIGEST_HEX], c[TRIM__DIGEST_HEX], n[TRIM__DIGEST_HEX];
	field_hex("x", "ab", "y", "c", a);
	field_hex("x", "a", "y", "bc", b);
	field_hex("x", "ab", "y", "c", c);
	ck_assert_str_ne(a, b);
	ck_assert_str_eq(a, c);
	field_hex("x", "", "y", "c", a);
	field_hex("x", NULL, "y", "c", n);
	ck_assert_str_ne(a, n);
	trim__digest d;
	trim__digest_init(&d);
	trim__digest_int(&d, "batch", 64);
	trim__digest_hex(&d, a);
	trim__digest_init(&d);
	trim__digest_int(&d, "batch", 65);
	trim__digest_hex(&d, b);
	ck_assert_str_ne(a, b);
	trim__digest_init(&d);
	trim__digest_double(&d, "u", 0.5);
	trim__digest_hex(&d, a);
	trim__digest_init(&d);
	trim__digest_double(&d, "u", 0.5000000000000001);
	trim__digest_hex(&d, b);
	ck_assert_str_ne(a, b);
}
END_TEST

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void file_hex(const char *path, char *out)
{
	trim__digest d;
	trim__digest_init(&d);
	ck_assert_int_eq(trim__digest_file(&d, "f", path), 0);
	trim__digest_hex(&d, out);
}

/* a file's digest is its content (one byte changed changes it); a
 * directory's covers every file in it; a missing file is an error */
START_TEST(test_file_digests)
{
	char dir[] = "/tmp/trim-digest-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char p1[128], p2[128], sub[128];
	snprintf(p1, sizeof p1, "%s/a.yaml", dir);
	snprintf(p2, sizeof p2, "%s/b.yaml", dir);
	snprintf(sub, sizeof sub, "%s/table", dir);
	ck_assert_int_eq(mkdir(sub, 0777), 0);
	char h1[TRIM__DIGEST_HEX], h2[TRIM__DIGEST_HEX], h3[TRIM__DIGEST_HEX];
	write_text(p1, "filters: 64\n");
	write_text(p2, "filters: 64\n");
	file_hex(p1, h1);
	file_hex(p2, h2);
	ck_assert_str_eq(h1, h2); /* the content, not the name */
	/* the same as the framed bytes */
	trim__digest d;
	trim__digest_init(&d);
	trim__digest_field(&d, "f", "filters: 64\n", 12);
	trim__digest_hex(&d, h3);
	ck_assert_str_eq(h1, h3);
	write_text(p2, "filters: 65\n");
	file_hex(p2, h2);
	ck_assert_str_ne(h1, h2);
	/* a directory: ERT.yaml and ART.yaml both count */
	char ert[160], art[160];
	snprintf(ert, sizeof ert, "%s/ERT.yaml", sub);
	snprintf(art, sizeof art, "%s/ART.yaml", sub);
	write_text(ert, "ERT: []\n");
	file_hex(sub, h1);
	write_text(art, "ART: []\n");
	file_hex(sub, h2);
	ck_assert_str_ne(h1, h2);
	write_text(art, "ART: [ ]\n");
	file_hex(sub, h3);
	ck_assert_str_ne(h2, h3);
	char missing[160];
	snprintf(missing, sizeof missing, "%s/none.yaml", dir);
	trim__digest_init(&d);
	ck_assert_int_eq(trim__digest_file(&d, "f", missing), TRIM_EIO);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "none.yaml: cannot read: No such file or directory"));
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_suggestions)
{
	ck_assert_uint_eq(trim__edit_distance("", ""), 0);
	ck_assert_uint_eq(trim__edit_distance("kitten", "sitting"), 3);
	ck_assert_uint_eq(trim__edit_distance("nmae", "name"), 1); /* a swap of neighbours is one edit */
	ck_assert_uint_eq(trim__edit_distance("FW", "fw"), 0);     /* case ignored */
	ck_assert_uint_eq(trim__edit_distance("abc", ""), 3);
	static const char *const keys[] = {"name", "type", "filters", "kernel", "strides", NULL};
	ck_assert_str_eq(trim__nearest_of("filtres", keys), "filters");
	ck_assert_str_eq(trim__nearest_of("kernal", keys), "kernel");
	ck_assert_str_eq(trim__nearest_of("stride", keys), "strides");
	ck_assert_ptr_null(trim__nearest_of("padding", keys)); /* nothing close: no guess */
	ck_assert_ptr_null(trim__nearest_of("x", keys));
	static const char *const modes[] = {"inference", "training", NULL};
	ck_assert_str_eq(trim__nearest_of("trainig", modes), "training");
	trim__nearest n;
	trim__nearest_init(&n, "GBL");
	trim__nearest_add(&n, "DRAM");
	trim__nearest_add(&n, "GLB");
	trim__nearest_add(&n, "RF");
	char hint[64];
	ck_assert_str_eq(trim__suggestion(hint, sizeof hint, &n), "; did you mean 'GLB'?");
	trim__nearest_init(&n, "zzzz");
	trim__nearest_add(&n, "GLB");
	ck_assert_str_eq(trim__suggestion(hint, sizeof hint, &n), "");
	/* through the YAML readers: an unknown value and an unknown key */
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load_string(&a,
	                                       "schema_version: 1\nname: x\nclock_mhz: 100\ntechnology: 65nm\nlevels:\n"
	                                       "  - {name: DRAM, type: storage, class: dram, technology: ddr3}\n"
	                                       "  - {name: G, type: storage, class: sarm, capacity: 1 KB}\n"
	                                       "  - {name: MAC, type: compute, datatype: int16}\n",
	                                       "a.yaml"),
	                 TRIM_ESCHEMA);
	ck_assert_msg(strstr(trim_last_error(), "a.yaml:7:37: levels[1].class: unknown value 'sarm' (expected one of: ") &&
	              strstr(trim_last_error(), "); did you mean 'sram'?"), "%s", trim_last_error());
	trim_network *net = NULL;
	ck_assert_int_eq(trim_network_load_string(&net,
	                                          "network: {name: x, input: [4, 4, 1]}\nlayers:\n"
	                                          "  - {name: c, type: conv2d, filtres: 2, kernel: 3}\n",
	                                          "n.yaml"),
	                 TRIM_ESCHEMA);
	ck_assert_msg(strstr(trim_last_error(), "n.yaml:3:") && strstr(trim_last_error(), "did you mean 'filters'?"), "%s",
	              trim_last_error());
}
END_TEST

/* Result files are read only when regular and at most TRIM__RESULT_FILE_MAX
 * bytes: a FIFO (no writer: opening it would block), a link to /dev/zero
 * (endless), a directory or a larger file is refused at once, naming why. */
START_TEST(test_result_file_text)
{
	char dir[] = "/tmp/trim-read-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[160];
	size_t len = 7;
	int missing = 0;
	snprintf(path, sizeof path, "%s/ok.txt", dir);
	ck_assert_int_eq(trim__write_file_atomic(path, "abc\n", 4), 0);
	char *text = trim__result_file_text(path, &len, &missing);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, "abc\n");
	ck_assert_uint_eq(len, 4);
	free(text);
	snprintf(path, sizeof path, "%s/none.txt", dir);
	ck_assert_ptr_null(trim__result_file_text(path, &len, &missing));
	ck_assert_int_eq(missing, 1);
	static const struct {
		const char *name, *why;
	} cases[] = {{"fifo", "not a regular file (a FIFO)"},
	             {"zero", "not a regular file (a character device)"},
	             {"sub", "not a regular file (a directory)"},
	             {"big", "67108865 bytes, larger than any result file (64 MiB)"}};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		snprintf(path, sizeof path, "%s/%s", dir, cases[k].name);
		if (k == 0)
			ck_assert_int_eq(mkfifo(path, 0600), 0);
		else if (k == 1)
			ck_assert_int_eq(symlink("/dev/zero", path), 0);
		else if (k == 2)
			ck_assert_int_eq(mkdir(path, 0700), 0);
		else { /* sparse: one byte past the cap, nothing written */
			ck_assert_int_eq(trim__write_file_atomic(path, "x", 1), 0);
			ck_assert_int_eq(truncate(path, (off_t)TRIM__RESULT_FILE_MAX + 1), 0);
		}
		missing = 1;
		ck_assert_ptr_null(trim__result_file_text(path, &len, &missing));
		ck_assert_int_eq(missing, 0);
		ck_assert_int_eq(trim_last_error_code(), TRIM_EIO);
		char want[300];
		snprintf(want, sizeof want, "%s: %s", path, cases[k].why);
		ck_assert_str_eq(trim_last_error(), want);
		/* and the note a resumed run gives */
		char *notes = NULL;
		ck_assert_int_eq(trim__note_unread(&notes, path, "recomputed"), 0);
		snprintf(want, sizeof want, "%s: %s: not read: recomputed\n", path, cases[k].why);
		ck_assert_str_eq(notes, want);
		free(notes);
	}
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Notes on files not reused: a reason shared by consecutive files is
 * counted on one line. */
START_TEST(test_notes)
{
	char *notes = NULL;
	ck_assert_int_eq(trim__note_add(&notes, "a", "edited", "recomputed"), 0);
	ck_assert_int_eq(trim__note_add(&notes, "b", "edited", "recomputed"), 0);
	ck_assert_int_eq(trim__note_add(&notes, "c", "edited", "recomputed"), 0);
	ck_assert_int_eq(trim__note_add(&notes, "d", "stale", "recomputed"), 0);
	ck_assert_str_eq(notes, "a and 2 more: edited: recomputed\nd: stale: recomputed\n");
	free(notes);
}
END_TEST

/* trim__write_report: the writer of the format asked for, and one message
 * for a format a report does not offer (lib/util/writers.c). */
static int writer_a(const void *report, trim__sb *sb)
{
	trim__sb_printf(sb, "a %s", (const char *)report);
	return 0;
}

static int writer_fails(const void *report, trim__sb *sb)
{
	(void)report;
	trim__sb_puts(sb, "half");
	return trim__error(TRIM_ERANGE, "writer failed");
}

START_TEST(test_writers)
{
	static const trim__writers w = {"trim_test_report",
	                                {[TRIM_FORMAT_TABLE] = writer_a, [TRIM_FORMAT_CSV] = writer_fails}};
	char *out = NULL;
	ck_assert_int_eq(trim__write_report(&w, TRIM_FORMAT_TABLE, "x", &out), 0);
	ck_assert_str_eq(out, "a x");
	trim_string_free(out);
	ck_assert_int_eq(trim__write_report(&w, TRIM_FORMAT_JSON, "x", &out), TRIM_EINVAL);
	ck_assert_ptr_null(out);
	ck_assert_str_eq(trim_last_error(), "trim_test_report: format 1 (json) is not offered; table, csv");
	ck_assert_int_eq(trim__write_report(&w, 7, "x", &out), TRIM_EINVAL);
	ck_assert_str_eq(trim_last_error(), "trim_test_report: format 7 (unknown) is not offered; table, csv");
	ck_assert_int_eq(trim__write_report(&w, -1, "x", &out), TRIM_EINVAL);
	ck_assert_int_eq(trim__writers_check(&w, TRIM_FORMAT_CSV), 0);
	ck_assert_int_eq(trim__write_report(&w, TRIM_FORMAT_CSV, "x", &out), TRIM_ERANGE);
	ck_assert_ptr_null(out);
	ck_assert_str_eq(trim__format_name(TRIM_FORMAT_YAML), "yaml");
}
END_TEST

/* The library's stamp carries the digest of its sources (the Makefile's
 * build/gen/model_digest.h): the SHA-256 of `sha256sum` over lib/ (but the
 * CLI's) and include/ in byte order of the paths, computed here again. A
 * library built from other sources than these fails here (rebuild it). */
START_TEST(test_model_digest)
{
	FILE *p = popen("find lib include -name '*.[ch]' ! -path 'lib/cli/*' | LC_ALL=C sort | xargs sha256sum | "
	                "sha256sum | cut -c1-64", "r");
	ck_assert_ptr_nonnull(p);
	char want[128] = "";
	ck_assert_ptr_nonnull(fgets(want, sizeof want, p));
	ck_assert_int_eq(pclose(p), 0);
	want[strcspn(want, "\n")] = '\0';
	ck_assert_uint_eq(strlen(want), 64);
	ck_assert_str_eq(trim__model_digest(), want);
	char stamp[160];
	snprintf(stamp, sizeof stamp, "libtrim %s model %s", trim_version_string(), want);
	ck_assert_str_eq(trim__library_stamp(), stamp);
}
END_TEST

/* files are created 0666 less the umask, not 0600 */
START_TEST(test_write_follows_umask)
{
	char dir[] = "/tmp/trim-umask-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/out.json", dir);
	mode_t old = umask(022);
	ck_assert_int_eq(trim__write_file_atomic(path, "{}\n", 3), 0);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	umask(002);
	ck_assert_int_eq(trim__write_file_atomic(path, "{} \n", 4), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0664);
	ck_assert_int_eq(st.st_size, 4);
	umask(old);
	/* a directory that does not exist: the system's reason */
	char bad[160];
	snprintf(bad, sizeof bad, "%s/no/such/out.json", dir);
	ck_assert_int_eq(trim__write_file_atomic(bad, "{}", 2), TRIM_EIO);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "No such file or directory"));
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* stdout to a full disk: exit 2 and the system's reason, for every command */
static int run_full(const char *args, char *err, size_t n)
{
	const char *cli = getenv("TRIM_CLI");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s 2>&1 >/dev/full", cli ? cli : "build/bin/trim", args);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t k = fread(err, 1, n - 1, p);
	err[k] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_cli_output_errors)
{
	static const char *const runs[] = {
		"version",
		"--help",
		"--version",
		"workloads models/networks/alexnet.yaml",
		"arch models/arch/eyeriss.yaml",
		"space test/data/neteval/tiny-space-1pe.yaml",
		"workloads models/networks/alexnet.yaml --help",
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		char err[2048];
		int st = run_full(runs[i], err, sizeof err);
		ck_assert_msg(st == 2, "trim %s > /dev/full: exit %d (%s)", runs[i], st, err);
		ck_assert_msg(strstr(err, "No space left on device"), "trim %s > /dev/full: %s", runs[i], err);
		ck_assert_msg(!strstr(err, "\ntrim: cannot write") || strstr(err, "cannot write") == strstr(err, "trim: cannot"),
		              "one message: %s", err);
	}
}
END_TEST

/* unknown names get the nearest valid one */
START_TEST(test_cli_suggestions)
{
	static const struct {
		const char *args, *want;
	} cases[] = {
		{"explor", "unknown command 'explor'; did you mean 'explore'?"},
		{"workloads models/networks/alexnet.yaml --mode trainig", "--mode takes inference or training; got 'trainig'; did you mean 'training'?"},
		{"network a b --formt json", "unknown option '--formt'; did you mean '--format'?"},
		{"map a b --layer c --phase fw", "--phase takes FW, BW or WG; got 'fw'; did you mean 'FW'?"},
		{"explore --goal edpp", "--goal takes energy, delay, edp, area or weighted; got 'edpp'; did you mean 'edp'?"},
		{"network a b --dataflow row-stationery", "did you mean 'row-stationary'?"},
		{"explore --weights nan,1,1", "--weights takes three finite exponents >= 0"},
		{"map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --mode training --layer cnv2 --phase WG",
		 "no WG workload for layer 'cnv2' (layers with a WG workload: fc8, fc7, fc6, conv5, conv4, conv3, conv2, "
		 "conv1); did you mean 'conv2'?"},
		{"arch models/arch", "models/arch: is a directory, not a YAML file"},
		{"explore test/data/neteval/tiny.yaml test/data/neteval/tiny-space-1pe.yaml --mode inference --quiet "
		 "--out /proc/trim/out", "/proc/trim: cannot create directory: No such file or directory"},
		{"eval models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 --phase FW --mapping "
		 "test/data/suggest/mapping.yaml", "mapping.yaml:9:13: mapping[1].target: unknown level 'GBL' (the "
		 "architecture has DRAM, GLB, PE array, RF, MAC); did you mean 'GLB'?"},
		{"map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 --constraints "
		 "test/data/suggest/level.yaml", "unknown level 'GBL' (eyeriss has DRAM, GLB, PE array, RF, MAC); did you mean 'GLB'?"},
		{"map models/networks/alexnet-cifar.yaml models/arch/eyeriss.yaml --layer conv1 --constraints "
		 "test/data/suggest/preset.yaml", "unknown preset 'weight-stationery' (weight-stationary, "
		 "output-stationary, input-stationary, row-stationary); did you mean 'weight-stationary'?"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int st = 0;
		char *o = tu_capture(cases[i].args, 1, &st);
		ck_assert_msg(st == 2, "trim %s: exit %d", cases[i].args, st);
		ck_assert_msg(strstr(o, cases[i].want), "trim %s: %s", cases[i].args, o);
		free(o);
	}
}
END_TEST

Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_divisors);
	tcase_add_test(tc, test_sha256_vectors);
	tcase_add_test(tc, test_fields_are_framed);
	tcase_add_test(tc, test_file_digests);
	tcase_add_test(tc, test_suggestions);
	tcase_add_test(tc, test_write_follows_umask);
	tcase_add_test(tc, test_result_file_text);
	tcase_add_test(tc, test_notes);
	tcase_add_test(tc, test_writers);
	tcase_add_test(tc, test_model_digest);
	tcase_add_test(tc, test_cli_output_errors);
	tcase_add_test(tc, test_cli_suggestions);
	suite_add_tcase(s, tc);
	return s;
}
