/*
 * Finished searches of a network evaluation kept on disk (trim network
 * --out DIR), so that a killed or repeated run resumes where it stopped
 * (docs/guide.md, "Resuming a network"). One file per distinct search,
 * DIR/search-<key>.txt, stamped with the digest of everything that changes
 * its result and closed by a checksum of its own text:
 *
 *   trim-search 1
 *   stamp <sha-256 of the library (version, digest of its sources:
 *          trim__library_stamp), the architecture, its costs
 *          (energy table), the constraints, goal and options, the workload>
 *   exact 0|1, stopped 0|1, best_cost, lower_bound, index, generated,
 *   valid, evaluated (one "key value" line each)
 *   mapping <bytes>\n<libtrim mapping YAML>
 *   checksum <sha-256 of every byte above>
 *
 * A file is used only when its checksum, stamp and proof match (an exact
 * run takes only exact results; a run with a gap takes results proven
 * within it), its mapping passes the mapping check and evaluates to the
 * recorded cost exactly; otherwise the workload is searched again and the
 * file replaced (counted as stale). Files are written to a temporary name
 * and renamed, so two runs writing one directory never leave a torn file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "neteval_state.h"
#include "trim/mapping.h"
#include "util/util.h"

static void hex_of(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

void trim__resume_stamp(trim_neteval *ne)
{
	const struct trim_arch *a = ne->arch;
	trim__digest d;
	trim__digest_init(&d);
	trim__digest_str(&d, "library", ne->library); /* its version and cost model */
	trim__digest_str(&d, "arch", a->name);
	trim__digest_double(&d, "clock", a->clock_mhz);
	trim__digest_int(&d, "word_bits", a->word_bits);
	trim__digest_int(&d, "nlevels", a->nlevels);
	for (int l = 0; l < a->nlevels; l++) {
		trim__level L = a->lv[l];
		L.line = L.col = 0; /* where it was written does not change a count */
		trim__digest_field(&d, "level", &L, sizeof L);
		trim__digest_field(&d, "cost", &ne->costs[l], sizeof ne->costs[l]);
	}
	char *cons = NULL;
	if (ne->cons && trim_constraints_dump(ne->cons, (const trim_arch *)a, &cons) == 0)
		trim__digest_str(&d, "constraints", cons);
	else
		trim__digest_str(&d, "constraints", ne->cons ? "(undumpable)" : NULL);
	free(cons);
	trim__digest_int(&d, "goal", ne->goal);
	trim__digest_double(&d, "min_pe_util", ne->min_pe_util);
	trim__digest_double(&d, "min_rf_util", ne->min_rf_util);
	trim__digest_int(&d, "max_mappings", ne->max_mappings);
	trim__digest_int(&d, "imperfect", ne->imperfect);
	trim__digest_final(&d, ne->stamp);
}

/* The stamp of workload i: the evaluation's and its own key. */
static void stamp_of(const trim_neteval *ne, size_t i, char *hex)
{
	trim__digest d;
	trim__digest_init(&d);
	trim__digest_field(&d, "inputs", ne->stamp, sizeof ne->stamp);
	trim__digest_field(&d, "workload", ne->rec[i].key, sizeof ne->rec[i].key);
	trim__digest_hex(&d, hex);
}

static int path_of(const trim_neteval *ne, size_t i, char *buf, size_t n)
{
	char hex[2 * TRIM__DIGEST_BYTES + 1];
	hex_of(ne->rec[i].key, 12, hex);
	return snprintf(buf, n, "%s/search-%s.txt", ne->out_dir, hex) < (int)n;
}

int trim__resume_text(const trim_neteval *ne, size_t i, trim__sb *sb)
{
	const wrec *r = &ne->rec[i];
	char stamp[TRIM__DIGEST_HEX], ib[48];
	stamp_of(ne, i, stamp);
	trim__sb yb;
	trim__sb_init(&yb);
	trim__mapping_yaml(&r->best, &yb);
	size_t start = sb->len;
	trim__sb_printf(sb, "trim-search 1\nstamp %s\nexact %d\nstopped %d\nbest_cost %.17g\nlower_bound %.17g\n"
	                    "index %s\ngenerated %llu\nvalid %llu\nevaluated %llu\nmapping %zu\n%s",
	                stamp, r->exact, r->stopped, r->best_cost, r->lower_bound, trim__index_str(r->index, ib),
	                (unsigned long long)r->generated, (unsigned long long)r->valid,
	                (unsigned long long)r->evaluated, yb.len, yb.buf ? yb.buf : "");
	trim__sb_free(&yb);
	char sum[TRIM__DIGEST_HEX];
	trim__digest_bytes_hex(sb->buf + start, sb->len - start, sum);
	trim__sb_printf(sb, "checksum %s\n", sum);
	return 0;
}

int trim__resume_save(const trim_neteval *ne, size_t i)
{
	char path[4096], tmp[4160];
	if (!path_of(ne, i, path, sizeof path))
		return trim__error(TRIM_EIO, "%s: path too long", ne->out_dir);
	trim__sb sb;
	trim__sb_init(&sb);
	trim__resume_text(ne, i, &sb);
	snprintf(tmp, sizeof tmp, "%s.%ld.%zu.tmp", path, (long)getpid(), i);
	errno = 0;
	FILE *f = fopen(tmp, "w");
	int ok = f && fwrite(sb.buf, 1, sb.len, f) == sb.len;
	ok = f && fclose(f) == 0 && ok;
	ok = ok && rename(tmp, path) == 0;
	int e = errno;
	trim__sb_free(&sb);
	if (!ok) {
		remove(tmp);
		return trim__error(TRIM_EIO, "cannot write %s: %s", path, strerror(e ? e : EIO));
	}
	return 0;
}

int trim__resume_check_mapping(const trim_neteval *ne, size_t i, const trim__mapping *m, trim__eval *e,
                               double *cost, char *why, size_t n)
{
	const trim__intra *x = trim__workloads_intra(ne->w, i);
	int64_t reserved[TRIM__MAX_LEVELS] = {0};
	if (ne->plan.glb > 0)
		reserved[ne->plan.glb] = ne->plan.reserved[i];
	if (trim__mapping_check_reserved(m, x, ne->arch, reserved)) {
		snprintf(why, n, "fails the check trim eval applies (%s)", trim_last_error());
		return -1;
	}
	trim__eval_ws ws;
	memset(&ws, 0, sizeof ws);
	int rc = trim__eval_run(x, ne->arch, ne->costs, m, &ws, e);
	trim__eval_ws_free(&ws);
	if (rc) {
		snprintf(why, n, "cannot be evaluated (%s)", trim_last_error());
		return -1;
	}
	*cost = trim__goal_cost(e, ne->goal);
	return 0;
}

void trim__resume_take(trim_neteval *ne, size_t i, const trim__mapping *m, const trim__eval *e, double cost)
{
	wrec *r = &ne->rec[i];
	r->found = 1;
	r->best = *m;
	r->dense = *e;
	r->exact = 1;
	r->stopped = 0;
	r->best_cost = r->lower_bound = cost;
	r->generated = r->valid = r->evaluated = 0;
	r->index = 0;
	r->search_rc = 0;
	r->searched = 1;
	r->resumed = 1;
}

/* 0 if ib (decimal digits) is the index of m in workload i's mapspace (the
 * search's, imperfect rows included when the run searches them), else -1
 * with why. */
static int check_index(const trim_neteval *ne, size_t i, const trim__mapping *m, const char *ib, char *why,
                       size_t n)
{
	trim__mapspace space;
	trim__index index = 0;
	int rc = trim__mapspace_init(&space, trim__workloads_intra(ne->w, i), ne->arch);
	if (rc == 0 && ne->imperfect)
		rc = trim__mapspace_set_imperfect(&space, 1);
	if (rc == 0)
		rc = trim__mapspace_encode(&space, m, &index);
	trim__mapspace_free(&space); /* init clears it first: safe after a failure */
	char b[48];
	if (rc)
		snprintf(why, n, "its mapping has no index in the workload's mapspace (%s)", trim_last_error());
	else if (strcmp(trim__index_str(index, b), ib))
		snprintf(why, n, "its index %.45s is not the encoding of its mapping (%s)", ib, b);
	else
		return 0;
	return -1;
}

/* Bit for bit: the cost evaluated is the one recorded. */
static int same_double(double a, double b) { return !memcmp(&a, &b, sizeof a); }

int trim__resume_parse(trim_neteval *ne, size_t i, char *text, size_t n, const char *path, int any_proof,
                       char *why, size_t nwhy)
{
	char stamp[TRIM__DIGEST_HEX];
	int used = -1;
	trim_mapping *m = NULL;
	/* the checksum covers every byte before its line */
	char *cs = n > 74 ? text + n - 74 : NULL; /* "checksum " + 64 hex digits + newline */
	char sum[TRIM__DIGEST_HEX];
	if (strlen(text) != n || !cs || strncmp(cs, "checksum ", 9) || text[n - 1] != '\n') {
		snprintf(why, nwhy, "not a libtrim search file (no checksum)");
		goto out;
	}
	trim__digest_bytes_hex(text, (size_t)(cs - text), sum);
	if (strncmp(cs + 9, sum, 64)) {
		snprintf(why, nwhy, "corrupt or edited (its checksum does not match its content)");
		goto out;
	}
	stamp_of(ne, i, stamp);
	char st[80], ib[48];
	int exact = 0, stopped = 0, off = 0;
	double best = 0, lb = 0;
	unsigned long long gen = 0, val = 0, ev = 0;
	size_t ylen = 0;
	if (sscanf(text, "trim-search 1\nstamp %70s\nexact %d\nstopped %d\nbest_cost %lg\nlower_bound %lg\nindex %45s\n"
	                 "generated %llu\nvalid %llu\nevaluated %llu\nmapping %zu\n%n",
	           st, &exact, &stopped, &best, &lb, ib, &gen, &val, &ev, &ylen, &off) != 10 || off <= 0 ||
	    (size_t)off + ylen != (size_t)(cs - text)) {
		snprintf(why, nwhy, "unreadable despite a good checksum");
		goto out;
	}
	if (strcmp(st, stamp)) {
		snprintf(why, nwhy, "made from other inputs (the library or its cost model, the architecture, its "
		                    "costs, the constraints, the goal, the options or the workload changed)");
		goto out;
	}
	/* the proof it carries must be what this run asks for: exact, or with a
	 * gap G and no time limit, proven within G */
	double gap = best > 0 && best > lb ? (best - lb) / best : 0;
	if (!any_proof && !exact && !(ne->gap > 0 && gap <= ne->gap && ne->time_limit <= 0)) {
		if (ne->time_limit > 0)
			snprintf(why, nwhy, "not exact (proven within %.3g of the optimum), a run with a time limit "
			                    "reuses only exact results", gap);
		else if (ne->gap > 0)
			snprintf(why, nwhy, "proven only within %.3g of the optimum, this run asks for %.3g", gap, ne->gap);
		else
			snprintf(why, nwhy, "not exact (proven within %.3g of the optimum), this run asks for an exact "
			                    "result", gap);
		goto out;
	}
	int digits = ib[0] != '\0';
	for (const char *p = ib; *p; p++)
		digits &= *p >= '0' && *p <= '9';
	if (!digits) {
		snprintf(why, nwhy, "its index is not a number");
		goto out;
	}
	text[off + ylen] = '\0';
	if (trim_mapping_load_string(&m, (const trim_arch *)ne->arch, text + off, path)) {
		snprintf(why, nwhy, "its mapping cannot be read (%s)", trim_last_error());
		goto out;
	}
	trim__eval e;
	double c = 0;
	char how[600];
	if (trim__resume_check_mapping(ne, i, m, &e, &c, how, sizeof how)) {
		snprintf(why, nwhy, "its mapping %s", how);
		goto out;
	}
	if (!same_double(c, best)) {
		snprintf(why, nwhy, "its mapping evaluates to %.17g, not the recorded cost %.17g", c, best);
		goto out;
	}
	if (check_index(ne, i, m, ib, why, nwhy))
		goto out;
	trim__resume_take(ne, i, m, &e, best);
	wrec *r = &ne->rec[i];
	r->exact = exact;
	r->stopped = stopped;
	r->lower_bound = lb;
	r->generated = gen;
	r->valid = val;
	r->evaluated = ev;
	for (const char *p = ib; *p; p++)
		r->index = r->index * 10 + (trim__index)(*p - '0'); /* fits: it is the encoding of a mapping */
	used = 1;
out:
	trim_mapping_free(m);
	if (used < 0)
		trim_clear_error();
	return used;
}

/* Workload i from its file: 1 used, 0 absent, -1 there but unreadable,
 * stale or corrupted (searched again; ne->notes says why). */
int trim__resume_load(trim_neteval *ne, size_t i)
{
	char path[4096];
	if (!path_of(ne, i, path, sizeof path))
		return 0;
	size_t n = 0;
	int missing = 0, used = -1;
	char why[768];
	char *text = trim__result_file_text(path, &n, &missing);
	const int read = text != NULL;
	if (read)
		used = trim__resume_parse(ne, i, text, n, path, 0, why, sizeof why);
	free(text);
	if (!read && missing) {
		trim_clear_error();
		return 0;
	}
	if (used < 0) {
#pragma omp critical
		{
			if (read)
				(void)trim__note_add(&ne->notes, path, why, "searched again");
			else
				(void)trim__note_unread(&ne->notes, path, "searched again");
		}
		trim_clear_error();
	}
	return used;
}

int trim__resume_dir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : trim__error(TRIM_EIO, "%s: not a directory", dir);
	if (mkdir(dir, 0777) && errno != EEXIST)
		return trim__error(TRIM_EIO, "cannot create %s: %s", dir, strerror(errno));
	return 0;
}
