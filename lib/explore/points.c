/*
 * The point files of a resumable exploration (trim_explorer_set_out_dir):
 * one JSON file per finished point, stamped with the digest of the content
 * of every input its figures depend on (explore_int.h, TRIM__XIN_*) and a
 * checksum of the file's own text. A rerun reuses a file only when every
 * digest and the checksum agree and the point's mappings give its figures
 * again (lib/explore/recheck.c); a stale, corrupt, edited or unreadable
 * file (not a regular file, or larger than TRIM__RESULT_FILE_MAX) is
 * recomputed and the explorer says why (trim_explorer_resume_notes). A
 * file of another exploration (another network or space name) is refused.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "constraints/constraints_int.h"
#include "explore_int.h"
#include "network/network_int.h"
#include "space/space_int.h"
#include "trim/constraints.h"
#include "trim/energy.h"
#include "util/ydoc.h"

#define POINT_FORMAT "libtrim point 3" /* 3: what the searches proved */
#define CHECKSUM_KEY "\"checksum\": \""

const char *const trim__xin_names[TRIM__XIN_COUNT] = {"library", "network", "space", "architecture",
                                                      "energy_table", "constraints", "options"};
/* what the notes call them */
static const char *const xin_words[TRIM__XIN_COUNT] = {
	"the library (its version or cost model)", "the network", "the space", "the base architecture",
	"the energy table", "the dataflow constraints",
	"the options (goal, mode, batch, word bits, sparsity, mapping and search limits)"};

const char *const trim__explore_field_keys[TRIM_XF_COUNT] = {
	"valid", "rank", "cycles", "seconds", "energy_pj", "static_pj", "edp", "area_mm2",
	"pe_utilization", "pareto", "fits", "dsp", "bram36", "lut", "ff", "exact", "lower_bound", "gap",
	"rank_best", "rank_worst", "pareto_proven"};

/* FPGA resources: not written for an ASIC point */
static int fpga_only(int k) { return k >= TRIM_XF_DSP && k <= TRIM_XF_FF; }

void trim__explore_point_json(const trim_explorer *ex, size_t i, const trim__xpoint *p, int full, trim__sb *sb)
{
	trim__sb_puts(sb, "{\"name\": ");
	trim__sb_json_str(sb, trim_space_point_name(ex->space, i));
	for (int k = 0; k < TRIM_XF_COUNT; k++) {
		if (fpga_only(k) && p->f[TRIM_XF_AREA_MM2] == p->f[TRIM_XF_AREA_MM2])
			continue; /* ASIC: no FPGA resources */
		trim__sb_printf(sb, ", \"%s\": ", trim__explore_field_keys[k]);
		if (k == TRIM_XF_VALID || k == TRIM_XF_PARETO || k == TRIM_XF_FITS || k == TRIM_XF_EXACT ||
		    k == TRIM_XF_PARETO_PROVEN)
			trim__sb_puts(sb, p->f[k] != 0 ? "true" : "false");
		else
			trim__sb_json_double(sb, p->f[k]);
	}
	trim__sb_puts(sb, ", \"dynamic_pj\": ");
	trim__sb_json_double(sb, p->f[TRIM_XF_ENERGY_PJ] - p->f[TRIM_XF_STATIC_PJ]);
	if (!p->valid) {
		trim__sb_puts(sb, ", \"error\": ");
		trim__sb_json_str(sb, p->error);
	}
	trim__sb_puts(sb, ", \"energy_by_level\": {");
	for (int l = 0; l < p->nlevels && p->valid; l++) {
		trim__sb_puts(sb, l ? ", " : "");
		trim__sb_json_str(sb, p->level_name[l]);
		trim__sb_puts(sb, ": ");
		trim__sb_json_double(sb, p->level_pj[l]);
	}
	trim__sb_puts(sb, "}");
	if (full) {
		trim__sb_puts(sb, ", \"workloads\": [");
		for (size_t k = 0; k < p->nw; k++) {
			const trim__xworkload *x = &p->wl[k];
			trim__sb_puts(sb, k ? ", {\"layer\": " : "{\"layer\": ");
			trim__sb_json_str(sb, x->layer);
			trim__sb_printf(sb, ", \"phase\": \"%s\", \"cycles\": ", trim_phase_name(x->phase));
			trim__sb_json_double(sb, x->cycles);
			trim__sb_puts(sb, ", \"energy_pj\": ");
			trim__sb_json_double(sb, x->energy);
			trim__sb_puts(sb, ", \"dense_cycles\": ");
			trim__sb_json_double(sb, x->dense_cycles);
			trim__sb_puts(sb, ", \"dense_energy_pj\": ");
			trim__sb_json_double(sb, x->dense_energy);
			trim__sb_puts(sb, ", \"active_pes\": ");
			trim__sb_json_double(sb, x->active_pes);
			trim__sb_puts(sb, ", \"pe_utilization\": ");
			trim__sb_json_double(sb, x->pe_util);
			trim__sb_printf(sb, ", \"exact\": %s, \"lower_bound\": ", x->exact ? "true" : "false");
			trim__sb_json_double(sb, x->lower_bound);
			trim__sb_puts(sb, ", \"mapping\": ");
			trim__sb_json_str(sb, x->mapping ? x->mapping : "");
			trim__sb_puts(sb, "}");
		}
		trim__sb_puts(sb, "]");
	}
	trim__sb_puts(sb, "}");
}

/* ---- the inputs' digests ------------------------------------------------------ */

static int digest_network(const trim_explorer *ex, trim__digest *d)
{
	trim__digest_str(d, "name", trim_network_name(ex->net));
	const char *file = ex->net->file;
	struct stat st;
	int rc = 0;
	if (file && stat(file, &st) == 0) /* a network loaded from text has no file */
		rc = trim__digest_file(d, "file", file);
	char *report = NULL;
	if (rc == 0)
		rc = trim_workloads_report(ex->w, TRIM_FORMAT_JSON, &report);
	if (rc == 0)
		trim__digest_str(d, "workloads", report);
	trim_string_free(report);
	return rc;
}

/* The tables the points are costed with: the base architecture's
 * technology as resolved now (TRIM_DATA_DIR included) and the space's own. */
static int digest_energy(const trim_explorer *ex, trim__digest *d)
{
	int rc = 0;
	if (trim_space_count(ex->space) > 0) {
		trim_arch *a = NULL;
		char *path = NULL;
		rc = trim_space_point_arch(ex->space, 0, &a);
		if (rc == 0)
			rc = trim_energy_resolve(a->technology, a->file, &path);
		if (rc == 0)
			rc = trim__digest_file(d, "points", path);
		free(path);
		trim_arch_free(a);
	}
	const char *own = trim__space_table_path(ex->space);
	if (rc == 0 && own)
		rc = trim__digest_file(d, "space", own);
	return rc;
}

static int digest_constraints(const trim_explorer *ex, trim__digest *d)
{
	if (!ex->cons) {
		trim__digest_str(d, "constraints", NULL);
		return 0;
	}
	char *text = NULL;
	int rc = trim_constraints_dump(ex->cons, NULL, &text);
	if (rc == 0)
		trim__digest_str(d, "constraints", text);
	trim_string_free(text);
	return rc;
}

static void digest_options(const trim_explorer *ex, trim__digest *d)
{
	/* the threads, the ranking goal's weights and the area budget change no
	 * point's figures: not part of the stamp */
	trim__digest_int(d, "search_goal", trim__explore_search_goal(ex->goal));
	trim__digest_int(d, "mode", trim_workloads_mode(ex->w));
	trim__digest_int(d, "batch", trim_workloads_batch(ex->w));
	trim__digest_int(d, "word_bits", trim_workloads_word_bits(ex->w));
	trim__digest_int(d, "sparsity", ex->sparsity);
	trim__digest_int(d, "max_mappings", ex->max_mappings);
	trim__digest_int(d, "imperfect", ex->imperfect);
	trim__digest_double(d, "min_pe_util", ex->min_pe);
	trim__digest_double(d, "min_rf_util", ex->min_rf);
	trim__digest_double(d, "time_limit", ex->time_limit); /* an anytime point is not an exact one */
	trim__digest_double(d, "gap", ex->gap);
}

int trim__explore_digest_inputs(trim_explorer *ex)
{
	if (ex->fuse) /* set_out_dir and lib/work/ stamp through here */
		return trim__error(TRIM_EINVAL, "fused tiles (trim_explorer_set_fuse) are not kept in point files yet: "
		                   "no output directory, no trim/work.h");
	int rc = 0;
	for (int k = 0; k < TRIM__XIN_COUNT && rc == 0; k++) {
		trim__digest d;
		trim__digest_init(&d);
		trim__digest_str(&d, "input", trim__xin_names[k]);
		switch (k) {
		case TRIM__XIN_LIBRARY:
			trim__digest_str(&d, "library", ex->library);
			trim__digest_str(&d, "format", POINT_FORMAT);
			break;
		case TRIM__XIN_NETWORK: rc = digest_network(ex, &d); break;
		case TRIM__XIN_SPACE: rc = trim__digest_file(&d, "file", trim__space_file(ex->space)); break;
		case TRIM__XIN_ARCHITECTURE:
			rc = trim__digest_file(&d, "file", trim__space_base_file(ex->space));
			break;
		case TRIM__XIN_ENERGY: rc = digest_energy(ex, &d); break;
		case TRIM__XIN_CONSTRAINTS: rc = digest_constraints(ex, &d); break;
		default: digest_options(ex, &d); break;
		}
		trim__digest_hex(&d, ex->inputs[k]);
	}
	if (rc)
		trim__error_prefix("the inputs of the exploration cannot be stamped");
	return rc;
}

/* ---- notes: why point files were not reused ---------------------------------- */

/* One line per reason: "FILE: reason: recomputed", or "FILE and N more: ...". */
static int note(trim_explorer *ex, const char *path, const char *reason)
{
	ex->recomputed++;
	return trim__note_add(&ex->notes, path, reason, "recomputed");
}

static int note_unread(trim_explorer *ex, const char *path)
{
	ex->recomputed++;
	return trim__note_unread(&ex->notes, path, "recomputed");
}

/* ---- writing and reading ------------------------------------------------------- */

static char *point_path(const trim_explorer *ex, size_t i)
{
	size_t n = strlen(ex->dir) + 48;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/point-%06llu.json", ex->dir,
		         (unsigned long long)trim_space_point_grid_index(ex->space, i));
	return p;
}

/* The checksum of a point file's text: SHA-256 of the text with the
 * checksum's own 64 digits read as zeros. */
static int checksum(const char *text, size_t len, char out[TRIM__DIGEST_HEX])
{
	const char *at = strstr(text, CHECKSUM_KEY);
	if (!at || (size_t)(at - text) + strlen(CHECKSUM_KEY) + 64 > len)
		return -1;
	size_t off = (size_t)(at - text) + strlen(CHECKSUM_KEY);
	trim__digest d;
	trim__digest_init(&d);
	trim__digest_update(&d, text, off);
	trim__digest_update(&d, "0000000000000000000000000000000000000000000000000000000000000000", 64);
	trim__digest_update(&d, text + off + 64, len - off - 64);
	trim__digest_hex(&d, out);
	return (int)off;
}

int trim__explore_point_text(const trim_explorer *ex, size_t i, const trim__xpoint *p, char **out)
{
	trim__sb sb;
	trim__sb_init(&sb);
	trim__sb_puts(&sb, "{\"format\": \"" POINT_FORMAT "\", " CHECKSUM_KEY);
	trim__sb_puts(&sb, "0000000000000000000000000000000000000000000000000000000000000000\",\n");
	trim__sb_printf(&sb, " \"library\": \"%s\", \"network\": ", trim_version_string());
	trim__sb_json_str(&sb, trim_network_name(ex->net));
	trim__sb_puts(&sb, ", \"space\": ");
	trim__sb_json_str(&sb, trim_space_name(ex->space));
	trim__sb_printf(&sb, ", \"goal\": \"%s\",\n \"inputs\": {",
	                trim__explore_goal_names[trim__explore_search_goal(ex->goal)]);
	for (int k = 0; k < TRIM__XIN_COUNT; k++)
		trim__sb_printf(&sb, "%s\"%s\": \"%s\"", k ? ", " : "", trim__xin_names[k], ex->inputs[k]);
	trim__sb_puts(&sb, "},\n \"point\": ");
	trim__explore_point_json(ex, i, p, 1, &sb);
	trim__sb_puts(&sb, "}\n");
	char *text = NULL;
	int rc = trim__sb_take(&sb, &text);
	if (rc == 0) {
		char sum[TRIM__DIGEST_HEX];
		int off = checksum(text, strlen(text), sum);
		memcpy(text + off, sum, 64);
	}
	*out = text;
	return rc;
}

int trim__explore_save_point(const trim_explorer *ex, size_t i, const trim__xpoint *p)
{
	char *path = point_path(ex, i), *text = NULL;
	int rc = path ? trim__explore_point_text(ex, i, p, &text) : trim__error(TRIM_ENOMEM, "out of memory");
	if (rc == 0)
		rc = trim__write_file_atomic(path, text, strlen(text));
	free(text);
	free(path);
	return rc;
}

static int num(const trim__ynode *map, const char *key, double *out)
{
	const trim__ynode *n = trim__ymap_get(map, key);
	if (!n || n->kind != TRIM__Y_SCALAR)
		return -1;
	if (!strcmp(n->str, "null")) {
		*out = NAN;
		return 0;
	}
	if (!strcmp(n->str, "true") || !strcmp(n->str, "false")) {
		*out = n->str[0] == 't';
		return 0;
	}
	char *end;
	*out = strtod(n->str, &end);
	return *end ? -1 : 0;
}

static const char *str(const trim__ynode *map, const char *key)
{
	const trim__ynode *n = trim__ymap_get(map, key);
	return n && n->kind == TRIM__Y_SCALAR ? n->str : NULL;
}

/* The figures of a verified point file. */
static int read_figures(const char *path, const trim__ynode *pt, trim__xpoint *p)
{
	int rc = 0;
	for (int k = 0; k < TRIM_XF_COUNT && rc == 0; k++) {
		double v = 0;
		if (num(pt, trim__explore_field_keys[k], &v) == 0)
			p->f[k] = v;
		else if (k != TRIM_XF_PARETO_PROVEN && /* the ranking's, set again when ranked */
		         (!fpga_only(k) || !(p->f[TRIM_XF_AREA_MM2] == p->f[TRIM_XF_AREA_MM2])))
			rc = trim__error(TRIM_EPARSE, "%s: point.%s missing", path, trim__explore_field_keys[k]);
	}
	p->valid = p->f[TRIM_XF_VALID] != 0;
	const char *err = str(pt, "error");
	if (err)
		snprintf(p->error, sizeof p->error, "%s", err);
	const trim__ynode *lv = trim__ymap_get(pt, "energy_by_level");
	for (size_t l = 0; rc == 0 && lv && lv->kind == TRIM__Y_MAP && l < lv->n && l < TRIM__MAX_LEVELS; l++) {
		snprintf(p->level_name[l], sizeof p->level_name[l], "%s", lv->keys[l]->str);
		p->level_pj[l] = strtod(lv->items[l]->str ? lv->items[l]->str : "0", NULL);
		p->nlevels = (int)l + 1;
	}
	const trim__ynode *ws = trim__ymap_get(pt, "workloads");
	if (rc == 0 && ws && ws->kind == TRIM__Y_SEQ) {
		p->nw = ws->n;
		p->wl = trim__calloc(ws->n ? ws->n : 1, sizeof *p->wl);
		if (!p->wl)
			rc = TRIM_ENOMEM;
		for (size_t k = 0; rc == 0 && k < ws->n; k++) {
			const trim__ynode *x = ws->items[k];
			trim__xworkload *y = &p->wl[k];
			const char *layer = str(x, "layer"), *ph = str(x, "phase"), *mp = str(x, "mapping");
			double exact = 0;
			if (!layer || !ph || num(x, "cycles", &y->cycles) || num(x, "energy_pj", &y->energy) ||
			    num(x, "exact", &exact) || num(x, "lower_bound", &y->lower_bound) ||
			    num(x, "dense_cycles", &y->dense_cycles) ||
			    num(x, "dense_energy_pj", &y->dense_energy) ||
			    num(x, "active_pes", &y->active_pes) || num(x, "pe_utilization", &y->pe_util)) {
				rc = trim__error(TRIM_EPARSE, "%s: point.workloads[%zu] is incomplete", path, k);
				break;
			}
			y->exact = exact == 1;
			snprintf(y->layer, sizeof y->layer, "%s", layer);
			y->phase = !strcmp(ph, "BW") ? TRIM_PHASE_BW : !strcmp(ph, "WG") ? TRIM_PHASE_WG : TRIM_PHASE_FW;
			y->mapping = trim__strdup(mp ? mp : "");
			if (!y->mapping)
				rc = TRIM_ENOMEM;
		}
	}
	p->done = rc == 0;
	p->resumed = 1;
	return rc;
}

/* Which inputs differ from the file's stamps: "the network and the space
 * changed" into buf; 0 when none. */
static int changed_inputs(const trim_explorer *ex, const trim__ynode *inputs, char *buf, size_t n)
{
	int changed = 0;
	size_t l = 0;
	buf[0] = '\0';
	for (int k = 0; k < TRIM__XIN_COUNT; k++) {
		const char *h = inputs ? str(inputs, trim__xin_names[k]) : NULL;
		if (h && !strcmp(h, ex->inputs[k]))
			continue;
		changed++;
		if (l < n)
			l += (size_t)snprintf(buf + l, n - l, "%s%s", changed > 1 ? ", " : "", xin_words[k]);
	}
	if (changed && l < n)
		snprintf(buf + l, n - l, " changed since it was written");
	return changed;
}

int trim__explore_parse_point(trim_explorer *ex, size_t i, const char *text, size_t len, const char *path,
                              trim__xpoint *p)
{
	memset(p, 0, sizeof *p);
	int rc = 0;
	trim__ydoc *doc = NULL;
	char sum[TRIM__DIGEST_HEX];
	int off = checksum(text, len, sum);
	if (strlen(text) != len || off < 0) {
		rc = note(ex, path, strstr(text, "\"stamp\"") ? "written by an older libtrim, without content digests"
		                                              : "not a libtrim point file (no checksum)");
		goto out;
	}
	if (memcmp(text + off, sum, 64) != 0) {
		rc = note(ex, path, "corrupt or edited (its checksum does not match its content)");
		goto out;
	}
	if (trim__ydoc_load_string(&doc, text, len, path) != 0) {
		rc = note(ex, path, "unreadable despite a good checksum");
		goto out;
	}
	const trim__ynode *root = trim__ydoc_root(doc), *pt = trim__ymap_get(root, "point");
	const char *net = str(root, "network"), *space = str(root, "space"), *name = pt ? str(pt, "name") : NULL;
	if (!net || !space || !name) {
		rc = note(ex, path, "incomplete (no network, space or point name)");
		goto out;
	}
	if (strcmp(net, trim_network_name(ex->net)) || strcmp(space, trim_space_name(ex->space))) {
		rc = trim__error(TRIM_EINVAL,
		                 "%s: holds another exploration's results (network %s, space %s); use another "
		                 "output directory",
		                 path, net, space);
		goto out;
	}
	char why[512];
	if (strcmp(name, trim_space_point_name(ex->space, i))) { /* the space was edited */
		snprintf(why, sizeof why, "the space changed since it was written (it holds point %s, now %s)", name,
		         trim_space_point_name(ex->space, i));
		rc = note(ex, path, why);
		goto out;
	}
	if (changed_inputs(ex, trim__ymap_get(root, "inputs"), why, sizeof why)) {
		rc = note(ex, path, why);
		goto out;
	}
	if ((rc = read_figures(path, pt, p))) {
		if (rc != TRIM_ENOMEM) {
			snprintf(why, sizeof why, "incomplete despite a good checksum (%s)", trim_last_error());
			rc = note(ex, path, why);
		}
		goto out;
	}
	/* its figures are used only if its mappings give them now */
	trim__xpoint now;
	rc = trim__explore_recheck_point(ex, i, p, text, len, &now, why, sizeof why);
	if (rc > 0) {
		rc = note(ex, path, why);
	} else if (rc == 0) {
		trim__explore_point_clear(p);
		*p = now;
		rc = 1;
	}
out:
	trim__ydoc_free(doc);
	if (rc <= 0)
		trim__explore_point_clear(p);
	return rc;
}

int trim__explore_load_point(trim_explorer *ex, size_t i, trim__xpoint *p)
{
	memset(p, 0, sizeof *p);
	char *path = point_path(ex, i);
	if (!path)
		return trim__error(TRIM_ENOMEM, "out of memory");
	size_t len = 0;
	int missing = 0, rc = 0;
	char *text = trim__result_file_text(path, &len, &missing);
	if (!text) {
		/* none, or one that cannot be read (not a regular file, too large):
		 * recomputed, and its entry replaced by the new file */
		rc = missing ? 0 : trim_last_error_code() == TRIM_ENOMEM ? TRIM_ENOMEM : note_unread(ex, path);
		if (rc == 0)
			trim_clear_error();
	} else {
		rc = trim__explore_parse_point(ex, i, text, len, path, p);
	}
	free(text);
	free(path);
	return rc;
}

int trim__explore_mkdirs(const char *dir)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", dir);
	for (char *s = buf + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			if (mkdir(buf, 0777) != 0 && errno != EEXIST)
				return trim__error(TRIM_EIO, "%s: cannot create directory: %s", buf, strerror(errno));
			*s = '/';
		}
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return trim__error(TRIM_EIO, "%s: cannot create directory: %s", buf, strerror(errno));
	return 0;
}

