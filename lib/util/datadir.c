/*
 * The data directories: where energy_tables/ and models/ are found when a
 * name, not a path, is given (technology: 45nm; trim explore's defaults).
 * TRIM_DATADIR (PREFIX/share/trim) and TRIM_SRCDIR (the source tree) are
 * compiled in by the Makefile ($(BUILD)/gen/datadir.h).
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "datadir_int.h"
#include "trim/common.h"
#include "util.h"

#if __has_include("datadir.h")
#include "datadir.h"
#endif
#ifndef TRIM_DATADIR
#define TRIM_DATADIR "/usr/local/share/trim"
#endif
#ifndef TRIM_SRCDIR
#define TRIM_SRCDIR ""
#endif

static int exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* Directory of the file (shared library or executable) holding this code,
 * symbolic links resolved; 0 or -1. */
static int module_dir(char *out, size_t n)
{
	Dl_info info;
	char real[PATH_MAX];
	const char *file = NULL;
	if (dladdr((void *)trim__data_dirs, &info) && info.dli_fname && strchr(info.dli_fname, '/'))
		file = info.dli_fname;
	else
		file = "/proc/self/exe"; /* linked into the executable (argv[0] may be a bare name) */
	if (!realpath(file, real))
		return -1;
	char *sl = strrchr(real, '/');
	if (!sl)
		return -1;
	*sl = '\0';
	snprintf(out, n, "%s", real[0] ? real : "/");
	return 0;
}

static void add(char dirs[][TRIM__PATH_MAX], size_t max, size_t *k, const char *dir)
{
	char real[PATH_MAX];
	const char *d = dir[0] && realpath(dir, real) ? real : dir; /* no "bin/../.." */
	if (!d[0] || *k == max)
		return;
	for (size_t i = 0; i < *k; i++)
		if (!strcmp(dirs[i], d))
			return;
	snprintf(dirs[(*k)++], TRIM__PATH_MAX, "%s", d);
}

size_t trim__data_dirs(char dirs[][TRIM__PATH_MAX], size_t max)
{
	size_t k = 0;
	char mod[TRIM__PATH_MAX], d[TRIM__PATH_MAX + 32];
	/* where this very library is first: an installed copy finds its own
	 * PREFIX/share/trim, a build tree's copy its tree, whatever else is
	 * installed on the machine */
	if (module_dir(mod, sizeof mod) == 0) {
		snprintf(d, sizeof d, "%s/../share/trim", mod);
		if (exists(d))
			add(dirs, max, &k, d);
		snprintf(d, sizeof d, "%s/../../energy_tables", mod);
		if (exists(d)) {
			snprintf(d, sizeof d, "%s/../..", mod);
			add(dirs, max, &k, d);
		}
	}
	add(dirs, max, &k, TRIM_DATADIR);
	add(dirs, max, &k, TRIM_SRCDIR);
	return k;
}

TRIM_API int trim_data_find(const char *relative, char **path_out)
{
	if (!path_out)
		return trim__error(TRIM_EINVAL, "trim_data_find: NULL argument");
	*path_out = NULL;
	if (!relative || !relative[0] || relative[0] == '/')
		return trim__error(TRIM_EINVAL, "trim_data_find: a relative path is needed, got '%s'",
		                   relative ? relative : "(null)");
	char dirs[TRIM__DATA_DIRS_MAX + 2][TRIM__PATH_MAX];
	size_t n = 0;
	const char *env = getenv("TRIM_DATA_DIR");
	if (env && env[0])
		snprintf(dirs[n++], TRIM__PATH_MAX, "%s", env);
	snprintf(dirs[n++], TRIM__PATH_MAX, ".");
	n += trim__data_dirs(dirs + n, TRIM__DATA_DIRS_MAX);
	trim__sb tried;
	trim__sb_init(&tried);
	for (size_t i = 0; i < n; i++) {
		char p[2 * TRIM__PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", dirs[i], relative);
		if (exists(p)) {
			trim__sb_free(&tried);
			*path_out = trim__strdup(!strcmp(dirs[i], ".") ? relative : p);
			return *path_out ? 0 : TRIM_ENOMEM;
		}
		trim__sb_printf(&tried, "%s%s", i ? ", " : "", p);
	}
	int rc = trim__error(TRIM_ENOTFOUND, "no %s in the data directories (tried %s; set TRIM_DATA_DIR)",
	                     relative, tried.failed || !tried.buf ? "?" : tried.buf);
	trim__sb_free(&tried);
	return rc;
}
