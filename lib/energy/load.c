/* Opening energy tables: a file, a directory holding ERT.yaml (and
 * ART.yaml), a string; and the resolution of an architecture's technology
 * name to a table (energy_tables/ beside it, TRIM_DATA_DIR, the data dirs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/datadir_int.h"
#include "energy_local.h"
#include "util/handle.h"
#include "util/util.h"
#include "util/ydoc.h"

static int set_name_from_file(trim_energy *t, const char *path)
{
	if (t->name[0])
		return 0;
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	snprintf(t->name, sizeof t->name, "%s", b);
	char *dot = strrchr(t->name, '.');
	if (dot && dot != t->name)
		*dot = '\0';
	return 0;
}

static int add_file(trim_energy *t, const char *path)
{
	trim__ydoc *doc = NULL;
	int rc = trim__ydoc_load_file(&doc, path);
	if (rc == 0)
		rc = trim__energy_parse_doc(t, doc);
	trim__ydoc_free(doc);
	return rc;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static trim_energy *new_table(const char *file)
{
	trim__gsl_init(); /* GSL's default handler would abort the host */
	trim_energy *t = trim__calloc(1, sizeof *t);
	if (!t)
		return NULL;
	TRIM__HANDLE_INIT(t, ENERGY);
	t->file = trim__strdup(file ? file : "<string>");
	if (!t->file) {
		free(t);
		return NULL;
	}
	return t;
}

TRIM_API int trim_energy_load_accelergy(trim_energy **out, const char *ert, const char *art)
{
	if (!out || !ert)
		return trim__error(TRIM_EINVAL, "trim_energy_load_accelergy: NULL argument");
	*out = NULL;
	trim_energy *t = new_table(ert);
	int rc = TRIM_ENOMEM;
	if (!t)
		goto out;
	rc = add_file(t, ert);
	if (rc == 0 && art)
		rc = add_file(t, art);
	if (rc)
		goto out;
	set_name_from_file(t, ert);
	*out = t;
	t = NULL;
out:
	trim_energy_free(t);
	return rc;
}

TRIM_API int trim_energy_load(trim_energy **out, const char *path)
{
	if (!out || !path)
		return trim__error(TRIM_EINVAL, "trim_energy_load: NULL argument");
	*out = NULL;
	if (is_dir(path)) {
		char ert[4096], art[4096];
		snprintf(ert, sizeof ert, "%s/ERT.yaml", path);
		snprintf(art, sizeof art, "%s/ART.yaml", path);
		if (!is_file(ert))
			return trim__error(TRIM_ENOTFOUND, "%s: a table directory needs ERT.yaml", path);
		int rc = trim_energy_load_accelergy(out, ert, is_file(art) ? art : NULL);
		if (rc == 0) {
			const char *b = strrchr(path, '/');
			snprintf((*out)->name, sizeof (*out)->name, "%s", b && b[1] ? b + 1 : path);
		}
		return rc;
	}
	trim_energy *t = new_table(path);
	int rc = TRIM_ENOMEM;
	if (!t)
		goto out;
	rc = add_file(t, path);
	if (rc)
		goto out;
	set_name_from_file(t, path);
	*out = t;
	t = NULL;
out:
	trim_energy_free(t);
	return rc;
}

TRIM_API int trim_energy_load_string(trim_energy **out, const char *yaml, const char *name)
{
	if (!out || !yaml)
		return trim__error(TRIM_EINVAL, "trim_energy_load_string: NULL argument");
	*out = NULL;
	trim__ydoc *doc = NULL;
	trim_energy *t = new_table(name);
	int rc = TRIM_ENOMEM;
	if (!t)
		goto out;
	rc = trim__ydoc_load_string(&doc, yaml, strlen(yaml), t->file);
	if (rc == 0)
		rc = trim__energy_parse_doc(t, doc);
	if (rc)
		goto out;
	set_name_from_file(t, t->file);
	*out = t;
	t = NULL;
out:
	trim__ydoc_free(doc);
	trim_energy_free(t);
	return rc;
}

/* ---- resolution of technology names ---------------------------------------------- */

static int try_candidate(const char *base, char **out)
{
	char p[4096];
	snprintf(p, sizeof p, "%s.yaml", base);
	if (is_file(p)) {
		*out = trim__strdup(p);
		return *out ? 0 : TRIM_ENOMEM;
	}
	snprintf(p, sizeof p, "%s/ERT.yaml", base);
	if (is_file(p)) {
		*out = trim__strdup(base);
		return *out ? 0 : TRIM_ENOMEM;
	}
	return 1;
}

TRIM_API int trim_energy_resolve(const char *tech, const char *arch_file, char **out)
{
	if (!tech || !out || !tech[0])
		return trim__error(TRIM_EINVAL, "trim_energy_resolve: no technology given");
	*out = NULL;
	char dir[4096] = ".";
	if (arch_file) {
		const char *sl = strrchr(arch_file, '/');
		if (sl)
			snprintf(dir, sizeof dir, "%.*s", (int)(sl - arch_file), arch_file);
	}
	size_t tl = strlen(tech);
	if (strchr(tech, '/') || (tl > 5 && !strcmp(tech + tl - 5, ".yaml"))) {
		char p[4096];
		if (tech[0] == '/')
			snprintf(p, sizeof p, "%s", tech);
		else
			snprintf(p, sizeof p, "%s/%s", dir, tech);
		if (is_file(p) || is_dir(p)) {
			*out = trim__strdup(p);
			return *out ? 0 : TRIM_ENOMEM;
		}
		return trim__error(TRIM_ENOTFOUND, "technology '%s': no file %s", tech, p);
	}
	char tried[3 + TRIM__DATA_DIRS_MAX][TRIM__PATH_MAX];
	char data_dirs[TRIM__DATA_DIRS_MAX][TRIM__PATH_MAX];
	int nt = 0;
	snprintf(tried[nt++], sizeof tried[0], "%s/../../energy_tables/%s", dir, tech);
	const char *env = getenv("TRIM_DATA_DIR");
	if (env && env[0])
		snprintf(tried[nt++], sizeof tried[0], "%s/energy_tables/%s", env, tech);
	snprintf(tried[nt++], sizeof tried[0], "energy_tables/%s", tech);
	/* then the installed data directory, the build tree, the source tree */
	size_t nd = trim__data_dirs(data_dirs, TRIM__DATA_DIRS_MAX);
	for (size_t i = 0; i < nd; i++)
		snprintf(tried[nt++], sizeof tried[0], "%s/energy_tables/%s", data_dirs[i], tech);
	char list[sizeof tried] = "";
	size_t ll = 0;
	for (int i = 0; i < nt; i++) {
		int rc = try_candidate(tried[i], out);
		if (rc <= 0)
			return rc;
		if (ll < sizeof list)
			ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s%s.yaml", i ? ", " : "", tried[i]);
	}
	return trim__error(TRIM_ENOTFOUND,
	                   "unknown technology '%s': no energy table %s (set TRIM_DATA_DIR, or give "
	                   "a path)", tech, list);
}

TRIM_API int trim_energy_load_for_arch(trim_energy **out, const trim_arch *a)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!out || !a)
		return trim__error(TRIM_EINVAL, "trim_energy_load_for_arch: NULL argument");
	*out = NULL;
	char *path = NULL;
	int rc = trim_energy_resolve(a->technology, a->file, &path);
	if (rc) {
		char where[512];
		if (a->tech_line > 0)
			snprintf(where, sizeof where, "%s:%d:%d: technology", a->file ? a->file : "<arch>",
			         a->tech_line, a->tech_col);
		else
			snprintf(where, sizeof where, "%s: technology", a->file ? a->file : "<arch>");
		trim__error_prefix(where);
		return rc;
	}
	rc = trim_energy_load(out, path);
	free(path);
	return rc;
}
