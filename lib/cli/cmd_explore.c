#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "trim/explore.h"

static const char usage_ex[] =
	"trim explore [NETWORK.yaml SPACE.yaml] [--goal energy|delay|edp|area|weighted]\n"
	"         [--weights E,D,A] [--area-budget MM2] [--threads N] [--mode inference|training]\n"
	"         [--batch N] [--dense] [--imperfect] [--max-mappings N] [--min-pe-util F] [--min-rf-util F]\n"
	"         [--constraints FILE] [--dataflow PRESET]... [--out DIR] [--progress|--quiet]\n"
	"         [--format table|json|csv] [--report FILE.html] [--breakdown FILE.csv|FILE.json]\n"
	"         [--time-limit SECONDS] [--gap FRACTION] [--fuse all|FIRST:LAST [--fuse-level LEVEL]]";

#define DEFAULT_NET "models/networks/alexnet-cifar.yaml"
#define DEFAULT_SPACE "models/arch/spaces/default.yaml"

/* "E,D,A": three finite numbers >= 0 and nothing else; 0 or -1. */
static int parse_weights(const char *v, double *we, double *wd, double *wa)
{
	double *w[3] = {we, wd, wa};
	const char *p = v;
	for (int k = 0; k < 3; k++) {
		char *end = NULL;
		double x = strtod(p, &end);
		if (end == p || !isfinite(x) || !(x >= 0) || *end != (k < 2 ? ',' : '\0'))
			return -1;
		*w[k] = x;
		p = end + 1;
	}
	return 0;
}

/* Every point rejected: the reasons (the explorer's, or the space's when it
 * accepts no point) on standard error; returns TRIM_ENOFIT and frees *text. */
static int no_point_ranked(const trim_explorer *ex, const trim_space *space, char **text)
{
	char *why = NULL;
	if (trim_explorer_count(ex) == 0 && trim_space_report(space, TRIM_FORMAT_TABLE, &why) == 0) {
		fprintf(stderr, "trim explore: space %s accepts none of its %llu grid points:\n%s", trim_space_name(space),
		        (unsigned long long)trim_space_grid_size(space), why);
	} else {
		fprintf(stderr, "trim explore: none of the %zu points of space %s can be ranked:\n%s",
		        trim_explorer_count(ex), trim_space_name(space), *text ? *text : "");
	}
	trim_string_free(why);
	trim_string_free(*text);
	*text = NULL;
	trim_clear_error();
	return TRIM_ENOFIT;
}

/* The warnings before the work of every point (trim_arch_warnings of its
 * architecture with the workloads) on standard error before the search,
 * each message once with the points it concerns. */
static void warn_points(const trim_space *space, const trim_workloads *w)
{
	typedef struct {
		char *msg;
		uint64_t points, first;
	} seen_t;
	seen_t *seen = NULL;
	size_t nseen = 0;
	uint64_t n = trim_space_count(space);
	for (uint64_t i = 0; i < n; i++) {
		trim_arch *a = NULL;
		char *text = NULL;
		if (trim_space_point_arch(space, i, &a) || trim_arch_warnings(a, w, -1, TRIM_FORMAT_TABLE, &text)) {
			trim_arch_free(a);
			trim_clear_error(); /* a warning that cannot be made is no reason to stop */
			continue;
		}
		for (char *l = text; *l;) { /* "warning: MESSAGE\n" lines */
			char *e = strchr(l, '\n');
			if (e)
				*e = 0;
			size_t k = 0;
			while (k < nseen && strcmp(seen[k].msg, l))
				k++;
			if (k < nseen) {
				seen[k].points++;
			} else {
				seen_t *grown = realloc(seen, (nseen + 1) * sizeof *seen);
				char *copy = strdup(l);
				if (grown)
					seen = grown;
				if (!grown || !copy) {
					free(copy);
					break;
				}
				seen[nseen++] = (seen_t){copy, 1, i};
			}
			l = e ? e + 1 : l + strlen(l);
		}
		trim_string_free(text);
		trim_arch_free(a);
	}
	for (size_t k = 0; k < nseen; k++) {
		const char *m = strncmp(seen[k].msg, "warning: ", 9) ? seen[k].msg : seen[k].msg + 9;
		if (seen[k].points == n)
			fprintf(stderr, "warning: trim explore: %s (every point)\n", m);
		else
			fprintf(stderr, "warning: trim explore: %s (%llu of %llu points, the first %s)\n", m,
			        (unsigned long long)seen[k].points, (unsigned long long)n,
			        trim_space_point_name(space, seen[k].first));
		free(seen[k].msg);
	}
	free(seen);
}

// trim-cli: explore: rank the architectures of a space for a network and a design goal
/* What the command line asks for. */
typedef struct {
	const char *files[2], *outdir, *report, *breakdown, *fuse, *fuse_level;
	int format, nf, dense, progress;
	int64_t goal;
	double budget, we, wd, wa;
	trim_cli_mapopts mo;
} explore_args;

static void explore_help(void)
{
	printf("usage: %s\n\nEvaluates every point of an architecture space on a network (the best\n"
	       "mapping of every workload plus the inter-layer workloads), ranks them by the\n"
	       "goal (default energy, as every command) and marks the Pareto front over\n"
	       "(energy, delay, area). With no files:\n"
	       "%s in training over %s.\n"
	       "--out DIR writes every finished point there (a rerun resumes) and the full\n"
	       "result set (results.json, points.csv, workloads.csv).\n"
	       "--report FILE.html writes one self-contained page: the ranking, the Pareto\n"
	       "front and every valid point's workloads (energy by level and tensor, cycles\n"
	       "and bottleneck, utilisation, loop nests, warnings); it opens from disk.\n"
	       "--breakdown FILE writes the counts and energy of every point, workload, level,\n"
	       "tensor and action (CSV, or JSON for a .json name).\n"
	       "--fuse all|FIRST:LAST plans each point's chains of layers as fused tiles, as\n"
	       "trim network --fuse does (--fuse-level: the buffer level): a point's energy\n"
	       "and cycles are then its layer-by-layer figures less what the fused plan saves\n"
	       "(never worse on the goal), and the reports give its chains' DRAM bytes fused\n"
	       "and layer by layer, the fused groups and the buffer they need (inference;\n"
	       "goal energy or delay; with --time-limit S the plan gets S seconds of its own;\n"
	       "docs/fusion.md, \"Fused tiles\").\n",
	       usage_ex, DEFAULT_NET, DEFAULT_SPACE);
	trim_cli_constraints_help();
	printf("A space's own mapspace_constraints: apply too (docs/arch.md).\n");
}

/* --fuse: what fused tiles do not take yet is refused, not ignored (the
 * usage status); -1 to go on. */
static int explore_fuse_check(const explore_args *a)
{
	const trim_cli_mapopts *mo = &a->mo;
	if (!a->fuse)
		return trim_cli_usage("explore", usage_ex, "--fuse-level needs --fuse");
	const char *other = a->outdir ? "--out" : mo->constraints ? "--constraints" : mo->ndataflow ? "--dataflow"
	                  : mo->imperfect ? "--imperfect" : mo->gap > 0 ? "--gap"
	                  : mo->max_mappings > 0 ? "--max-mappings" : mo->min_pe_util > 0 ? "--min-pe-util"
	                  : mo->min_rf_util > 0 ? "--min-rf-util" : trim_cli_distributed ? "MPI ranks" : NULL;
	if (other)
		return trim_cli_usage("explore", usage_ex, "--fuse does not take %s yet", other);
	if (a->goal != TRIM_EXPLORE_ENERGY && a->goal != TRIM_EXPLORE_DELAY)
		return trim_cli_usage("explore", usage_ex, "--fuse ranks by --goal energy or delay (fused groups are "
		                      "searched for one of them)");
	return -1;
}

/* The command line into a: -1 to go on, else the exit status (help printed,
 * or a usage error reported). */
static int explore_parse(int argc, char **argv, explore_args *a)
{
	memset(a, 0, sizeof *a);
	a->format = TRIM_FORMAT_TABLE;
	a->progress = isatty(2);
	a->goal = TRIM_EXPLORE_ENERGY; /* one default for every command (docs/guide.md) */
	a->we = a->wd = 1;
	trim_cli_mapopts_init(&a->mo);
	a->mo.threads = 2;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			explore_help();
			return 0;
		}
		if (!strcmp(o, "--dense")) {
			a->dense = 1;
			continue;
		}
		if (!strcmp(o, "--imperfect")) {
			a->mo.imperfect = 1;
			continue;
		}
		if (!strcmp(o, "--progress") || !strcmp(o, "--quiet")) {
			a->progress = o[2] == 'p';
			continue;
		}
		if (!(o[0] == '-' && o[1])) {
			if (a->nf == 2)
				return trim_cli_usage("explore", usage_ex, "a network and a space only");
			a->files[a->nf++] = o;
			continue;
		}
		if (i + 1 >= argc)
			return trim_cli_usage("explore", usage_ex, "%s needs a value", o);
		const char *v = argv[++i];
		char *end = NULL;
		int k = strcmp(o, "--goal") ? trim_cli_mapopt("explore", usage_ex, o, v, &a->mo) : 0;
		if (k < 0)
			return TRIM_CLI_EXIT_USAGE;
		if (k > 0)
			continue;
		if (!strcmp(o, "--out"))
			a->outdir = v;
		else if (!strcmp(o, "--report"))
			a->report = v;
		else if (!strcmp(o, "--breakdown"))
			a->breakdown = v;
		else if (!strcmp(o, "--fuse"))
			a->fuse = v;
		else if (!strcmp(o, "--fuse-level"))
			a->fuse_level = v;
		else if (!strcmp(o, "--format")) {
			if (trim_cli_format("explore", usage_ex, v, 1, &a->format))
				return TRIM_CLI_EXIT_USAGE;
		} else if (!strcmp(o, "--goal")) {
			const char *goals[TRIM_EXPLORE_WEIGHTED + 2];
			for (int g = 0; g <= TRIM_EXPLORE_WEIGHTED; g++)
				goals[g] = trim_explore_goal_name(g);
			goals[TRIM_EXPLORE_WEIGHTED + 1] = NULL;
			int g = 0;
			if (trim_cli_choice("explore", usage_ex, o, v, goals, &g))
				return TRIM_CLI_EXIT_USAGE;
			a->goal = g;
		} else if (!strcmp(o, "--weights")) {
			if (parse_weights(v, &a->we, &a->wd, &a->wa))
				return trim_cli_usage("explore", usage_ex,
				                      "--weights takes three finite exponents >= 0, E,D,A (e.g. 1,2,0); "
				                      "got '%s'", v);
			a->goal = TRIM_EXPLORE_WEIGHTED;
		} else if (!strcmp(o, "--area-budget")) {
			a->budget = strtod(v, &end);
			if (!*v || *end || !(a->budget >= 0))
				return trim_cli_usage("explore", usage_ex, "--area-budget takes mm^2 >= 0; got '%s'", v);
		} else {
			return trim_cli_unknown_option("explore", usage_ex, o);
		}
	}
	if (a->nf == 1)
		return trim_cli_usage("explore", usage_ex, "give both NETWORK.yaml and SPACE.yaml, or neither");
	return a->fuse || a->fuse_level ? explore_fuse_check(a) : -1;
}

/* The explorer's options from a, and its point files' directory (the
 * notes on stale or corrupt point files printed). */
static int explore_configure(trim_explorer *ex, const explore_args *a)
{
	const trim_cli_mapopts *mo = &a->mo;
	int rc = trim_explorer_set_int(ex, TRIM_EX_GOAL, a->goal);
	if (rc == 0)
		rc = trim_explorer_set_int(ex, TRIM_EX_THREADS, mo->threads);
	if (rc == 0)
		rc = trim_explorer_set_int(ex, TRIM_EX_SPARSITY, !a->dense);
	if (rc == 0)
		rc = trim_explorer_set_int(ex, TRIM_EX_MAX_MAPPINGS, mo->max_mappings);
	if (rc == 0)
		rc = trim_explorer_set_int(ex, TRIM_EX_IMPERFECT, mo->imperfect);
	if (rc == 0)
		rc = trim_explorer_set_double(ex, TRIM_EX_AREA_BUDGET, a->budget);
	if (rc == 0 && a->goal == TRIM_EXPLORE_WEIGHTED) {
		rc = trim_explorer_set_double(ex, TRIM_EX_W_ENERGY, a->we);
		if (rc == 0)
			rc = trim_explorer_set_double(ex, TRIM_EX_W_DELAY, a->wd);
		if (rc == 0)
			rc = trim_explorer_set_double(ex, TRIM_EX_W_AREA, a->wa);
	}
	if (rc == 0)
		rc = trim_explorer_set_double(ex, TRIM_EX_MIN_PE_UTIL, mo->min_pe_util);
	if (rc == 0)
		rc = trim_explorer_set_double(ex, TRIM_EX_MIN_RF_UTIL, mo->min_rf_util);
	if (rc == 0)
		rc = trim_explorer_set_double(ex, TRIM_EX_TIME_LIMIT, mo->time_limit);
	if (rc == 0)
		rc = trim_explorer_set_double(ex, TRIM_EX_GAP, mo->gap);
	if (rc == 0 && a->fuse)
		rc = trim_explorer_set_fuse(ex, a->fuse, a->fuse_level);
	if (rc == 0) {
		trim_constraints *c = NULL;
		rc = trim_cli_constraints(mo, &c);
		if (rc == 0 && c)
			rc = trim_explorer_set_constraints(ex, c);
		trim_constraints_free(c);
	}
	if (rc == 0 && a->outdir) {
		rc = trim_explorer_set_out_dir(ex, a->outdir);
		/* stale or corrupt point files are recomputed: always say so */
		const char *notes = rc == 0 ? trim_explorer_resume_notes(ex) : "";
		for (const char *l = notes; *l;) {
			const char *e = strchr(l, '\n');
			int n = e ? (int)(e - l) : (int)strlen(l);
			fprintf(stderr, "trim explore: %.*s\n", n, l);
			l += n + (e != NULL);
		}
	}
	return rc;
}

/* Every point evaluated: on MPI ranks, point by point with progress on
 * stderr, or at once. */
static int explore_run(trim_explorer *ex, int progress)
{
	if (trim_cli_distributed)
		return trim_cli_distributed->explore(ex, progress); /* the points on MPI ranks, then ranked */
	if (!progress)
		return trim_explorer_run(ex);
	/* step point by point to report progress (each search uses the threads) */
	time_t t0 = time(NULL);
	size_t n = trim_explorer_count(ex), start = trim_explorer_done(ex);
	int done = 0, rc = 0;
	while (rc == 0 && !done) {
		rc = trim_explorer_step(ex, &done);
		size_t k = trim_explorer_done(ex);
		double el = difftime(time(NULL), t0);
		double left = k > start ? el / (double)(k - start) * (double)(n - k) : 0;
		fprintf(stderr, "\rtrim explore: %zu/%zu points (%zu resumed), %.0f s, about %.0f s left   ",
		        k, n, trim_explorer_resumed(ex), el, left);
	}
	fprintf(stderr, "\n");
	return rc;
}

int trim_cli_explore(int argc, char **argv)
{
	if (trim_cli_repeated("explore", usage_ex, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	explore_args a;
	int st = explore_parse(argc, argv, &a);
	if (st >= 0)
		return st;
	char *found[2] = {NULL, NULL}; /* the default files, from the data directories */
	if (a.nf == 0) {
		const char *rel[2] = {DEFAULT_NET, DEFAULT_SPACE};
		for (int k = 0; k < 2; k++) {
			int frc = trim_data_find(rel[k], &found[k]);
			if (frc) {
				trim_string_free(found[0]);
				return trim_cli_fail(frc);
			}
			a.files[k] = found[k];
		}
		if (a.mo.mode == TRIM_MODE_DEFAULT)
			a.mo.mode = TRIM_MODE_TRAINING;
	}

	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_space *space = NULL;
	trim_explorer *ex = NULL;
	char *text = NULL;
	int rc = trim_network_load(&net, a.files[0]);
	if (rc == 0)
		rc = trim_workloads_create(&w, net, a.mo.mode, a.mo.batch, 0);
	if (rc == 0)
		rc = trim_space_load(&space, a.files[1]);
	if (rc == 0)
		warn_points(space, w);
	if (rc == 0)
		rc = trim_explorer_create(&ex, net, w, space);
	if (rc == 0)
		rc = explore_configure(ex, &a);
	if (rc == 0)
		rc = explore_run(ex, a.progress);
	if (rc == 0 && a.outdir)
		rc = trim_explorer_write(ex, a.outdir);
	size_t best = 0;
	int none_ranked = rc == 0 && trim_explorer_ranked(ex, 1, &best) != 0;
	if (rc == 0)
		rc = trim_explorer_report(ex, none_ranked ? TRIM_FORMAT_TABLE : a.format, &text);
	if (none_ranked) /* every point rejected: exit 2 and say why, not an empty ranking */
		rc = no_point_ranked(ex, space, &text);
	if (rc == 0 && a.report)
		rc = trim_explorer_write_html(ex, a.report);
	char *bd = NULL;
	if (rc == 0 && a.breakdown) {
		size_t len = strlen(a.breakdown);
		int json = len >= 5 && !strcmp(a.breakdown + len - 5, ".json");
		rc = trim_explorer_breakdown_report(ex, json ? TRIM_FORMAT_JSON : TRIM_FORMAT_CSV, &bd);
	}
	trim_explorer_free(ex);
	trim_space_free(space);
	trim_workloads_free(w);
	trim_network_free(net);
	trim_string_free(found[0]);
	trim_string_free(found[1]);
	if (none_ranked && rc == TRIM_ENOFIT)
		return TRIM_CLI_EXIT_USAGE; /* the reasons are printed */
	if (rc) {
		trim_string_free(text);
		trim_string_free(bd);
		return trim_cli_fail(rc);
	}
	if (bd) {
		int wrc = trim_cli_write_text("explore", a.breakdown, bd);
		trim_string_free(bd);
		if (wrc) {
			trim_string_free(text);
			return wrc;
		}
	}
	return trim_cli_print(text);
}
