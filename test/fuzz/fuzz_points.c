/* The point files of a resumable exploration (trim_explorer_set_out_dir):
 * the input is written as DIR/point-000000.json with its checksum made
 * right (so the mutations reach the reader, not only the checksum test),
 * and the tiny network's exploration resumes from it, ranks and reports.
 * Seeds: real point files, written by the harness itself when
 * TRIM_FUZZ_WRITE_SEEDS names a directory (test/fuzz/run.sh does). */
#include "fuzz.h"

#define NET "test/data/neteval/tiny.yaml"
#define SPACE "test/data/neteval/tiny-space-1pe.yaml"

static trim_network *net;
static trim_workloads *w;
static trim_space *space;
static char dir[512], path[600];

static void write_seeds(const char *out)
{
	trim_explorer *ex = NULL;
	FUZZ_REQUIRE(trim_explorer_create(&ex, net, w, space));
	FUZZ_REQUIRE(trim_explorer_set_out_dir(ex, out));
	FUZZ_REQUIRE(trim_explorer_run(ex));
	trim_explorer_free(ex);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FUZZ_REQUIRE(trim_network_load(&net, NET));
	FUZZ_REQUIRE(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0));
	FUZZ_REQUIRE(trim_space_load(&space, SPACE));
	const char *seeds = getenv("TRIM_FUZZ_WRITE_SEEDS");
	if (seeds && seeds[0])
		write_seeds(seeds);
	snprintf(dir, sizeof dir, "%s/points", fuzz_dir());
	snprintf(path, sizeof path, "%s/point-000000.json", dir);
	return 0;
}

/* The checksum as lib/explore/points.c computes it (SHA-256 of the text with
 * its own 64 digits read as zeros), through the library's digest. */
#include "util/digest.h"
static void fix_checksum(char *text, size_t len)
{
	static const char key[] = "\"checksum\": \"";
	char *at = strstr(text, key);
	if (!at || (size_t)(at - text) + sizeof key - 1 + 64 > len)
		return;
	char *hex = at + sizeof key - 1;
	memset(hex, '0', 64);
	char sum[TRIM__DIGEST_HEX];
	trim__digest_bytes_hex(text, len, sum);
	memcpy(hex, sum, 64);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	fix_checksum(text, size);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
	if (system(cmd) != 0)
		abort();
	fuzz_write(path, (const uint8_t *)text, size);
	free(text);
	trim_explorer *ex = NULL;
	if (trim_explorer_create(&ex, net, w, space) == 0) {
		/* only point 0 comes from the input; the others stay unevaluated */
		if (trim_explorer_set_out_dir(ex, dir) == 0 && trim_explorer_resumed(ex) == 1) {
			double f[TRIM_XF_COUNT];
			trim_explorer_point(ex, 0, f, TRIM_XF_COUNT);
		}
		trim_explorer_free(ex);
	}
	return 0;
}
