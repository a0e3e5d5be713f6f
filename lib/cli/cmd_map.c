#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static const char usage_map[] =
	"trim map NETWORK.yaml ARCH.yaml --layer NAME --phase FW|BW|WG [--goal energy|delay|edp]\n"
	"         [--threads N] [--mode inference|training] [--batch N] [--table FILE]\n"
	"         [--top K] [--factor LEVEL:D=N]... [--min-pe-util X] [--min-rf-util X]\n"
	"         [--constraints FILE] [--dataflow PRESET]... [--max-mappings N] [--progress|--quiet]\n"
	"         [--time-limit SECONDS] [--gap FRACTION] [--imperfect] [--all-loops]\n"
	"         [--count libtrim|timeloop]\n"
	"         [--format table|json|timeloop]";

/* Progress on stderr while the search runs (another thread polls
 * trim_search_progress, the one call allowed during a run). */
typedef struct {
	trim_search *s;
	int stop; /* relaxed atomic */
} progress_ctx;

static void *progress_main(void *p)
{
	progress_ctx *c = p;
	struct timespec t0, now, nap = {0, 200 * 1000 * 1000};
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int shown = 0;
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		double el = (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
		if (el < 1)
			continue;
		fprintf(stderr, "\rtrim map: searching: %5.1f%% of the top nodes, %.0f s", 100 * trim_search_progress(c->s), el);
		shown = 1;
	}
	if (shown)
		fprintf(stderr, "\n");
	return NULL;
}

/* A loop of bound 1 in the report's loop nest: "for m4 in [0:1)" or
 * "parallel_for c2 in [0:1)  # X 1, Y 1". */
static int unit_loop(const char *content, size_t n)
{
	size_t skip = !strncmp(content, "for ", 4) ? 4 : !strncmp(content, "parallel_for ", 13) ? 13 : 0;
	if (!skip)
		return 0;
	const char *in = strstr(content + skip, " in [0:1)");
	return in && in < content + n && (in + 9 == content + n || in[9] == ' ');
}

/* Drop the loops of bound 1 from the numbered loop nests of a table report,
 * in place (the text only shrinks): the kept lines are renumbered and
 * re-indented (a temporal loop nests what follows it; a group of spatial
 * loops nests the next level). Returns how many loops were dropped. */
static size_t hide_unit_loops(char *text)
{
	char *rd = text, *wr = text, line[1024];
	size_t hidden = 0, number = 0, depth = 0;
	int after_spatial = 0;
	while (*rd) {
		char *nl = strchr(rd, '\n');
		size_t len = nl ? (size_t)(nl - rd) + 1 : strlen(rd);
		const char *p = rd;
		while (*p == ' ')
			p++;
		const char *digits = p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == digits || *p != ' ' || len >= sizeof line) { /* not a line of a nest */
			memmove(wr, rd, len);
			wr += len;
			rd += len;
			number = depth = 0;
			after_spatial = 0;
			continue;
		}
		while (*p == ' ')
			p++;
		size_t clen = (size_t)(rd + len - p) - (nl ? 1 : 0);
		memcpy(line, p, clen);
		line[clen] = '\0';
		rd += len;
		if (unit_loop(line, clen)) {
			hidden++;
			continue;
		}
		int spatial = !strncmp(line, "parallel_for ", 13);
		if (!spatial && after_spatial)
			depth++;
		after_spatial = spatial;
		char out[sizeof line + 64];
		int w = snprintf(out, sizeof out, "%3zu %*s%s%s", ++number, (int)(2 * depth), "", line,
		                 nl ? "\n" : "");
		/* never longer than the input line: fewer loops above, a smaller number */
		if (w > 0 && (size_t)w <= len) {
			memmove(wr, out, (size_t)w);
			wr += w;
		}
		if (!strncmp(line, "for ", 4))
			depth++;
	}
	*wr = '\0';
	return hidden;
}

// trim-cli: map: the best mapping of one workload (exact branch-and-bound search)
/* What the command line asks for. */
typedef struct {
	const char *files[2], *layer, *table;
	int format, phase, mode, nf;
	int64_t batch, threads, goal, maxmap, topk;
	double min_pe, min_rf;
	const char *factors[64];
	int nfactors, progress, all_loops, timeloop, imperfect;
	trim_cli_mapopts mo; /* --constraints, --dataflow, --time-limit, --gap */
} map_args;

static void map_help(void)
{
	printf("usage: %s\n\nEnumerates the mapspace of one intra-layer workload (every factorisation,\n"
	       "loop orders up to equivalence, bypass), cuts what does not fit, evaluates\n"
	       "the rest and prints the best mapping (a tie on the goal is broken by the\n"
	       "other figure: delay by energy, energy by delay, EDP by energy; then by the\n"
	       "smallest index; identical for any --threads). Exact branch and bound: a\n"
	       "factorisation or bypass choice\n"
	       "is skipped only when a lower bound valid for every loop order exceeds the\n"
	       "cost already reached (counted as 'bounded'; docs/model.md).\n"
	       "--max-mappings N refuses mapspaces of more than N distinct mappings\n"
	       "(default 0: no limit).\n"
	       "--time-limit S stops the search after S seconds and --gap G as soon as\n"
	       "the best found is proven within G (a fraction) of the optimum: the report\n"
	       "gives the best found, a proven lower bound, the gap and whether it is\n"
	       "exact (default: exact, no limit).\n"
	       "--factor 'PE array:M=4' fixes the bound of M at level 'PE array' (a custom\n"
	       "factor the constructor must follow; repeatable).\n"
	       "--format timeloop prints the best mapping and the workload (a Timeloop\n"
	       "problem) in Timeloop's format, for timeloop-model (docs/mapping.md).\n"
	       "--imperfect also searches imperfect factorisations: a dim spread over more\n"
	       "PEs than any of its divisors fits, with a ragged last pass (E = 55 as\n"
	       "4 x 14 over 14 columns; docs/model.md); off by default (slower: the tree's\n"
	       "bounds do not apply below them).\n"
	       "The table's loop nest leaves out loops of bound 1 (--all-loops shows them).\n",
	       usage_map);
	trim_cli_constraints_help();
}

/* The command line into a: -1 to go on, else the exit status (help printed,
 * or a usage error reported). */
static int map_parse(int argc, char **argv, map_args *a)
{
	memset(a, 0, sizeof *a);
	a->format = TRIM_FORMAT_TABLE;
	a->phase = TRIM_PHASE_FW;
	a->mode = TRIM_MODE_DEFAULT;
	a->threads = 1;
	a->goal = TRIM_GOAL_ENERGY;
	a->topk = 1;
	a->progress = isatty(2);
	trim_cli_mapopts_init(&a->mo);
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			map_help();
			return 0;
		}
		if (!strcmp(o, "--progress") || !strcmp(o, "--quiet")) {
			a->progress = o[2] == 'p';
			continue;
		}
		if (!strcmp(o, "--all-loops")) {
			a->all_loops = 1;
			continue;
		}
		if (!strcmp(o, "--imperfect")) {
			a->imperfect = 1;
			continue;
		}
		if (!(o[0] == '-' && o[1])) {
			if (a->nf == 2)
				return trim_cli_usage("map", usage_map, "unexpected argument '%s'", o);
			a->files[a->nf++] = o;
			continue;
		}
		if (i + 1 >= argc)
			return trim_cli_usage("map", usage_map, "%s needs a value", o);
		const char *v = argv[++i];
		if (!strcmp(o, "--constraints") || !strcmp(o, "--dataflow") || !strcmp(o, "--time-limit") ||
		    !strcmp(o, "--gap")) {
			if (trim_cli_mapopt("map", usage_map, o, v, &a->mo) < 0)
				return TRIM_CLI_EXIT_USAGE;
		} else if (!strcmp(o, "--count")) {
			if (trim_cli_count("map", usage_map, v, &a->mo.count))
				return TRIM_CLI_EXIT_USAGE;
		} else if (!strcmp(o, "--layer"))
			a->layer = v;
		else if (!strcmp(o, "--table"))
			a->table = v;
		else if (!strcmp(o, "--min-pe-util") || !strcmp(o, "--min-rf-util")) {
			char *end = NULL;
			double x = strtod(v, &end);
			if (!*v || *end || !(x >= 0 && x <= 1))
				return trim_cli_usage("map", usage_map, "%s takes a number in [0, 1]; got '%s'", o, v);
			*(o[6] == 'p' ? &a->min_pe : &a->min_rf) = x;
		} else if (!strcmp(o, "--factor")) {
			if (a->nfactors == 64)
				return trim_cli_usage("map", usage_map, "at most 64 --factor options");
			a->factors[a->nfactors++] = v;
		} else if (!strcmp(o, "--format") && !strcmp(v, "timeloop")) {
			a->timeloop = 1; /* the best mapping in Timeloop's format */
		} else if (!strcmp(o, "--format")) {
			if (trim_cli_format("map", usage_map, v, 0, &a->format))
				return TRIM_CLI_EXIT_USAGE;
			a->timeloop = 0;
		} else if (!strcmp(o, "--phase")) {
			if (trim_cli_phase("map", usage_map, v, &a->phase))
				return TRIM_CLI_EXIT_USAGE;
		} else if (!strcmp(o, "--goal")) {
			int g = 0;
			if (trim_cli_goal("map", usage_map, v, &g))
				return TRIM_CLI_EXIT_USAGE;
			a->goal = g;
		} else if (!strcmp(o, "--mode")) {
			if (trim_cli_mode("map", usage_map, v, &a->mode))
				return TRIM_CLI_EXIT_USAGE;
		} else if (!strcmp(o, "--batch")) {
			if (trim_cli_int("map", usage_map, "--batch", v, 1, TRIM_CLI_MAX_BATCH, &a->batch))
				return TRIM_CLI_EXIT_USAGE;
		} else if (!strcmp(o, "--threads")) {
			if (trim_cli_int("map", usage_map, "--threads", v, 1, 1024, &a->threads))
				return TRIM_CLI_EXIT_USAGE;
		} else if (!strcmp(o, "--top")) {
			if (trim_cli_int("map", usage_map, "--top", v, 1, 1024, &a->topk))
				return TRIM_CLI_EXIT_USAGE;
		} else if (!strcmp(o, "--max-mappings")) {
			if (trim_cli_int("map", usage_map, "--max-mappings", v, 0, INT64_MAX, &a->maxmap))
				return TRIM_CLI_EXIT_USAGE;
		} else
			return trim_cli_unknown_option("map", usage_map, o);
	}
	if (a->nf < 2)
		return trim_cli_usage("map", usage_map, "a network and an architecture are needed");
	if (!a->layer)
		return trim_cli_usage("map", usage_map, "--layer is needed");
	if (a->mode == TRIM_MODE_DEFAULT && a->phase != TRIM_PHASE_FW)
		a->mode = TRIM_MODE_TRAINING;
	return -1;
}

/* The search's options from a (status; *refused 1: a --factor names no
 * level or dim, reported). */
static int map_configure(trim_search *s, const trim_cli_workload *in, const map_args *a, int *refused)
{
	int rc = a->imperfect ? trim_search_set_int(s, TRIM_SEARCH_IMPERFECT, 1) : 0;
	if (!rc && a->mo.count != TRIM_COUNT_LIBTRIM)
		rc = trim_search_set_int(s, TRIM_SEARCH_COUNT, a->mo.count);
	if (!rc && (rc = trim_search_set_int(s, TRIM_SEARCH_GOAL, a->goal)) == 0 &&
	    (rc = trim_search_set_int(s, TRIM_SEARCH_THREADS, a->threads)) == 0 &&
	    (rc = trim_search_set_int(s, TRIM_SEARCH_TOP_K, a->topk)) == 0 &&
	    (rc = trim_search_set_double(s, TRIM_SEARCH_MIN_PE_UTIL, a->min_pe)) == 0 &&
	    (rc = trim_search_set_double(s, TRIM_SEARCH_TIME_LIMIT, a->mo.time_limit)) == 0 &&
	    (rc = trim_search_set_double(s, TRIM_SEARCH_GAP, a->mo.gap)) == 0)
		rc = trim_search_set_double(s, TRIM_SEARCH_MIN_RF_UTIL, a->min_rf);
	for (int k = 0; k < a->nfactors && !rc; k++) {
		/* LEVEL:D=N, LEVEL may contain spaces; D is one of N G M C E F R S */
		const char *f = a->factors[k], *colon = strrchr(f, ':');
		char lvl[128];
		long long n = 0;
		char dch = 0, eq = 0, extra = 0;
		int l = -1, dim = -1;
		if (colon && (size_t)(colon - f) < sizeof lvl &&
		    sscanf(colon + 1, " %c %c %lld %c", &dch, &eq, &n, &extra) == 3 && eq == '=') {
			memcpy(lvl, f, (size_t)(colon - f));
			lvl[colon - f] = 0;
			l = trim_arch_level_find(in->arch, lvl);
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (trim_dim_name(d)[0] == dch)
					dim = d;
		}
		if (l < 0 || dim < 0 || n < 1) {
			fprintf(stderr, "trim map: --factor '%s': want LEVEL:D=N with a level of the "
			        "architecture and D in N G M C E F R S\n", f);
			*refused = 1;
			return 0;
		}
		rc = trim_search_set_factor(s, l, dim, n);
	}
	if (!rc) {
		trim_constraints *c = NULL;
		rc = trim_cli_constraints(&a->mo, &c);
		if (rc == 0 && c)
			rc = trim_search_set_constraints(s, c);
		trim_constraints_free(c);
	}
	return rc;
}

/* The mapspace's size on stderr; *refused 1 if it exceeds --max-mappings. */
static void map_announce(trim_search *s, const map_args *a, int *refused)
{
	double size = trim_search_size(s), distinct = trim_search_distinct(s);
	char dtext[48], stext[48];
	/* whole numbers while a double holds them exactly (2^53), else 4 digits:
	 * "%.0f" printed made-up low digits */
	const double exact = 9007199254740992.0;
	if (distinct < 0) /* beyond 64 bits: the search does not need the count */
		snprintf(dtext, sizeof dtext, "more than 2^64");
	else
		snprintf(dtext, sizeof dtext, distinct < exact ? "%.0f" : "about %.4g", distinct);
	snprintf(stext, sizeof stext, size < exact ? "%.0f" : "about %.4g", size);
	fprintf(stderr, "trim map: %s %s: mapspace of %s raw mappings, %s distinct%s\n", a->layer,
	        trim_phase_name(a->phase), stext, dtext,
	        a->mo.constraints || a->mo.ndataflow ? " obeying the dataflow constraints" : "");
	if (a->maxmap > 0 && (distinct < 0 || distinct > (double)a->maxmap)) {
		fprintf(stderr, "trim map: more than --max-mappings %lld distinct mappings: refused (raise "
		        "--max-mappings to search it anyway)\n", (long long)a->maxmap);
		*refused = 1;
	}
}

/* The search, with its progress on stderr from another thread. */
static int map_run(trim_search *s, const map_args *a)
{
	progress_ctx pc = {s, 0};
	pthread_t th;
	/* trim-mpi's rank 0 shows its own progress */
	int started = a->progress && !trim_cli_distributed && pthread_create(&th, NULL, progress_main, &pc) == 0;
	/* trim-mpi: the top nodes on MPI ranks (a worker rank ends in there) */
	int rc = trim_cli_distributed ? trim_cli_distributed->map(s, (int)a->threads, a->progress) : trim_search_run(s);
	if (started) {
		__atomic_store_n(&pc.stop, 1, __ATOMIC_RELAXED);
		pthread_join(th, NULL);
	}
	return rc;
}

int trim_cli_map(int argc, char **argv)
{
	if (trim_cli_repeated("map", usage_map, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	map_args a;
	int st = map_parse(argc, argv, &a);
	if (st >= 0)
		return st;
	trim_cli_workload in;
	trim_search *s = NULL;
	char *text = NULL;
	int refused = 0;
	int rc = trim_cli_load_workload(&in, a.files[0], a.files[1], a.table, a.mode, a.batch, a.layer, a.phase);
	if (!rc)
		trim_cli_warn_before("map", in.arch, in.w, (int64_t)in.index);
	if (!rc)
		rc = trim_search_create(&s, in.w, in.index, in.arch, in.table);
	if (!rc)
		rc = map_configure(s, &in, &a, &refused);
	if (!rc && !refused)
		map_announce(s, &a, &refused);
	if (!rc && !refused)
		rc = map_run(s, &a);
	if (!rc && !refused && a.timeloop) {
		trim_mapping *best = NULL;
		rc = trim_search_best(s, &best);
		if (!rc)
			rc = trim_mapping_dump_timeloop(best, in.w, in.index, in.arch, &text);
		trim_mapping_free(best);
	} else if (!rc && !refused)
		rc = trim_search_report(s, a.format, &text);
	trim_search_free(s);
	trim_cli_workload_free(&in);
	if (refused)
		return TRIM_CLI_EXIT_USAGE;
	if (rc)
		return trim_cli_fail(rc);
	size_t hidden = a.format == TRIM_FORMAT_TABLE && !a.all_loops && !a.timeloop ? hide_unit_loops(text) : 0;
	st = trim_cli_print(text);
	if (st == 0 && hidden)
		printf("(%zu loops of bound 1 not shown: --all-loops shows every loop)\n", hidden);
	return st;
}
