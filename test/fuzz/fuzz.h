/*
 * Shared helpers of the libFuzzer harnesses (test/fuzz/README.md). Each
 * harness feeds one public loader with arbitrary bytes and, when it loads,
 * the next stages that consume what it made (checks, evaluations, dumps):
 * any crash, sanitizer report, leak or hang is a finding. A loader may
 * refuse the input (that is the point); it must not misbehave.
 */
#ifndef TRIM_FUZZ_H
#define TRIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trim.h"

/* The input as a NUL-terminated string (malloc'd; the caller frees it).
 * Inputs with a NUL byte inside are cut there, as a C string API sees them. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	if (!t)
		abort();
	memcpy(t, data, size);
	t[size] = '\0';
	return t;
}

/* Write the input to `path` (the loaders that read only files). */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
}

/* A per-process scratch directory (created once, removed at exit). */
static char fuzz_dir_path[256];
static inline void fuzz_dir_remove(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir_path);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir_path);
}
static inline const char *fuzz_dir(void)
{
	if (!fuzz_dir_path[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/trim-fuzz-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
		if (!mkdtemp(fuzz_dir_path))
			abort();
		atexit(fuzz_dir_remove);
	}
	return fuzz_dir_path;
}

/* A fixture the harness needs (models/, energy_tables/: run from the top of
 * the tree); abort if it does not load, which is a broken set-up, not a finding. */
#define FUZZ_REQUIRE(call)                                                         \
	do {                                                                           \
		if ((call) != 0) {                                                         \
			fprintf(stderr, "fuzz set-up: %s: %s\n", #call, trim_last_error());   \
			abort();                                                               \
		}                                                                          \
	} while (0)

#endif
