/* trim: command-line client of libtrim. Every command only calls the C API. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *summary;
} commands[] = {
#define TRIM_CLI_CMD(name, summary) {#name, trim_cli_##name, summary},
#include "commands.h"
#undef TRIM_CLI_CMD
};

static void usage(FILE *f)
{
	fprintf(f, "usage: trim <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'trim <command> --help' describes a command; every command takes\n"
	           "--format table|json (some csv too). Exit status: 0 success, 1 the work\n"
	           "failed, 2 bad usage or bad input (the message names file:line:column).\n"
	           "\n"
	           "--goal defaults to energy for every command that maps (docs/guide.md).\n"
	           "\n"
	           "Data: technology names (technology: 45nm) and trim explore's default files\n"
	           "are found under $TRIM_DATA_DIR, then ., then the data installed with this\n"
	           "trim (PREFIX/share/trim: energy_tables/ and models/), or the tree it was\n"
	           "built in (docs/arch.md).\n"
	           "libtrim %s\n",
	           trim_version_string());
}

int trim_cli_fail(int rc)
{
	const char *msg = trim_last_error();
	fprintf(stderr, "trim: %s\n", msg && msg[0] ? msg : trim_strerror(rc));
	switch (rc) {
	case TRIM_EIO: case TRIM_EPARSE: case TRIM_ESCHEMA: case TRIM_ESHAPE:
	case TRIM_ENOTFOUND: case TRIM_ENOFIT: case TRIM_ERANGE: case TRIM_EINVAL:
		return TRIM_CLI_EXIT_USAGE;
	default:
		return TRIM_CLI_EXIT_FAIL;
	}
}

int trim_cli_usage(const char *cmd, const char *use, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "trim %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: %s\n", use);
	return TRIM_CLI_EXIT_USAGE;
}

int trim_cli_int(const char *cmd, const char *use, const char *opt, const char *val,
                 int64_t lo, int64_t hi, int64_t *out)
{
	char *end = NULL;
	long long v = val ? strtoll(val, &end, 10) : 0;
	if (!val || !*val || *end || v < lo || v > hi) {
		trim_cli_usage(cmd, use, "%s needs an integer in [%lld, %lld], got '%s'", opt,
		               (long long)lo, (long long)hi, val ? val : "");
		return -1;
	}
	*out = v;
	return 0;
}

int trim_cli_unknown_option(const char *cmd, const char *use, const char *opt)
{
	/* the candidates are the --options the usage text names */
	trim__nearest near;
	trim__nearest_init(&near, opt);
	char names[64][32];
	size_t n = 0;
	for (const char *p = strstr(use, "--"); p && n < TRIM__ARRAY_LEN(names); p = strstr(p + 2, "--")) {
		size_t l = 2;
		while (p[l] && (p[l] == '-' || (p[l] >= 'a' && p[l] <= 'z')))
			l++;
		if (l > 2 && l < sizeof names[0]) {
			snprintf(names[n], sizeof names[n], "%.*s", (int)l, p);
			trim__nearest_add(&near, names[n++]);
		}
	}
	char hint[96];
	return trim_cli_usage(cmd, use, "unknown option '%s'%s", opt, trim_cli_hint(hint, sizeof hint, &near));
}

const char *trim_cli_hint(char *buf, size_t size, const trim__nearest *near)
{
	return trim__suggestion(buf, size, near);
}

int trim_cli_choice(const char *cmd, const char *use, const char *opt, const char *val,
                    const char *const *names, int *out)
{
	char list[512] = "", hint[96];
	size_t l = 0, n = 0;
	trim__nearest near;
	trim__nearest_init(&near, val);
	for (; names[n]; n++) {
		if (val && !strcmp(val, names[n])) {
			*out = (int)n;
			return 0;
		}
		trim__nearest_add(&near, names[n]);
	}
	for (size_t i = 0; i < n && l < sizeof list; i++)
		l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
		                      names[i]);
	trim_cli_usage(cmd, use, "%s takes %s; got '%s'%s", opt, list, val ? val : "",
	               trim_cli_hint(hint, sizeof hint, &near));
	return -1;
}

int trim_cli_mode(const char *cmd, const char *use, const char *val, int *mode)
{
	static const char *const modes[] = {"inference", "training", NULL};
	int k = 0;
	if (trim_cli_choice(cmd, use, "--mode", val, modes, &k))
		return -1;
	*mode = k ? TRIM_MODE_TRAINING : TRIM_MODE_INFERENCE;
	return 0;
}

int trim_cli_phase(const char *cmd, const char *use, const char *val, int *phase)
{
	static const char *const phases[] = {"FW", "BW", "WG", NULL};
	static const int values[] = {TRIM_PHASE_FW, TRIM_PHASE_BW, TRIM_PHASE_WG};
	int k = 0;
	if (trim_cli_choice(cmd, use, "--phase", val, phases, &k))
		return -1;
	*phase = values[k];
	return 0;
}

int trim_cli_goal(const char *cmd, const char *use, const char *val, int *goal)
{
	static const char *const goals[] = {"energy", "delay", "edp", NULL};
	static const int values[] = {TRIM_GOAL_ENERGY, TRIM_GOAL_DELAY, TRIM_GOAL_EDP};
	int k = 0;
	if (trim_cli_choice(cmd, use, "--goal", val, goals, &k))
		return -1;
	*goal = values[k];
	return 0;
}

int trim_cli_count(const char *cmd, const char *use, const char *val, int *count)
{
	static const char *const names[] = {"libtrim", "timeloop", NULL};
	static const int values[] = {TRIM_COUNT_LIBTRIM, TRIM_COUNT_TIMELOOP};
	int k = 0;
	if (trim_cli_choice(cmd, use, "--count", val, names, &k))
		return -1;
	*count = values[k];
	return 0;
}

int trim_cli_format(const char *cmd, const char *use, const char *val, int allow_csv, int *out)
{
	static const char *const with_csv[] = {"table", "json", "csv", NULL};
	static const char *const without[] = {"table", "json", NULL};
	int k = 0;
	if (trim_cli_choice(cmd, use, "--format", val, allow_csv ? with_csv : without, &k))
		return -1;
	*out = k == 0 ? TRIM_FORMAT_TABLE : k == 1 ? TRIM_FORMAT_JSON : TRIM_FORMAT_CSV;
	return 0;
}

/* The option at usage[p] ('-' first): its name's length, whether it takes a
 * value (a word follows it in its bracket: "--batch N", "--format a|b";
 * not "--dense]", "--progress|--quiet", "--mapper [") and whether it may be
 * repeated (its bracket is followed by "...": "[--dataflow PRESET]..."). */
static size_t usage_option(const char *usage, size_t p, int *takes_value, int *repeatable)
{
	size_t n = 1;
	while (usage[p + n] == '-' || (usage[p + n] >= 'a' && usage[p + n] <= 'z') ||
	       (usage[p + n] >= '0' && usage[p + n] <= '9'))
		n++;
	const char *after = usage + p + n;
	*takes_value = after[0] == ' ' && after[1] && after[1] != '[' && after[1] != '-' && after[1] != '\n';
	const char *close = strchr(after, ']');
	*repeatable = close && !strncmp(close + 1, "...", 3);
	return n;
}

int trim_cli_repeated(const char *cmd, const char *usage, int argc, char **argv)
{
	const char *seen[64];
	int nseen = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1])
			continue;
		/* the option in the usage text: the first place it stands whole */
		size_t len = strlen(a), p = 0;
		const char *u = usage;
		int found = 0, value = 0, repeat = 0;
		while ((u = strstr(u, a))) {
			p = (size_t)(u - usage);
			char next = usage[p + len];
			if ((p == 0 || usage[p - 1] == '[' || usage[p - 1] == ' ' || usage[p - 1] == '|') &&
			    (next == ' ' || next == ']' || next == '|' || next == '\0' || next == '\n')) {
				found = usage_option(usage, p, &value, &repeat) == len;
				if (found)
					break;
			}
			u += len;
		}
		if (!found || !value) /* unknown (the command says so) or a flag (idempotent) */
			continue;
		i++; /* its value */
		if (repeat)
			continue;
		for (int k = 0; k < nseen; k++)
			if (!strcmp(seen[k], a))
				return trim_cli_usage(cmd, usage,
				                      "%s given twice: it takes one value (the second would silently "
				                      "replace the first); give it once",
				                      a);
		if (nseen < (int)TRIM__ARRAY_LEN(seen))
			seen[nseen++] = a;
	}
	return 0;
}

void trim_cli_mapopts_init(trim_cli_mapopts *m)
{
	memset(m, 0, sizeof *m);
	m->mode = TRIM_MODE_DEFAULT;
	m->threads = 1;
}

int trim_cli_mapopt(const char *cmd, const char *use, const char *o, const char *v,
                    trim_cli_mapopts *m)
{
	char *end = NULL;
	if (!strcmp(o, "--goal")) {
		int g = 0;
		if (trim_cli_goal(cmd, use, v, &g))
			return -1;
		m->goal = g;
		return 1;
	}
	if (!strcmp(o, "--mode")) {
		return trim_cli_mode(cmd, use, v, &m->mode) ? -1 : 1;
	}
	if (!strcmp(o, "--batch"))
		return trim_cli_int(cmd, use, o, v, 1, TRIM_CLI_MAX_BATCH, &m->batch) ? -1 : 1;
	if (!strcmp(o, "--threads"))
		return trim_cli_int(cmd, use, o, v, 1, 1024, &m->threads) ? -1 : 1;
	if (!strcmp(o, "--max-mappings"))
		return trim_cli_int(cmd, use, o, v, 0, INT64_MAX, &m->max_mappings) ? -1 : 1;
	if (!strcmp(o, "--constraints"))
		return (m->constraints = v), 1;
	if (!strcmp(o, "--time-limit") || !strcmp(o, "--gap")) {
		int gap = o[2] == 'g';
		double x = strtod(v, &end);
		if (!*v || *end || !(gap ? x >= 0 && x < 1 : x >= 0 && x <= 1e9)) {
			trim_cli_usage(cmd, use, gap ? "--gap takes a fraction in [0, 1) (0: exact); got '%s'"
			                             : "--time-limit takes seconds in [0, 1e9] (0: none); got '%s'", v);
			return -1;
		}
		*(gap ? &m->gap : &m->time_limit) = x;
		return 1;
	}
	if (!strcmp(o, "--dataflow")) {
		const char *presets[32];
		size_t np = 0;
		for (; np + 1 < TRIM__ARRAY_LEN(presets) && trim_constraints_preset_name(np); np++)
			presets[np] = trim_constraints_preset_name(np);
		presets[np] = NULL;
		int k = 0;
		if (trim_cli_choice(cmd, use, o, v, presets, &k))
			return -1;
		if (m->ndataflow == TRIM_CLI_MAX_DATAFLOW) {
			trim_cli_usage(cmd, use, "at most %d --dataflow options", TRIM_CLI_MAX_DATAFLOW);
			return -1;
		}
		m->dataflow[m->ndataflow++] = v;
		return 1;
	}
	if (!strcmp(o, "--min-pe-util") || !strcmp(o, "--min-rf-util")) {
		double u = strtod(v, &end);
		if (!*v || *end || !(u >= 0 && u <= 1)) {
			trim_cli_usage(cmd, use, "%s takes a fraction in [0, 1]; got '%s'", o, v);
			return -1;
		}
		*(!strcmp(o, "--min-pe-util") ? &m->min_pe_util : &m->min_rf_util) = u;
		return 1;
	}
	return 0;
}

int trim_cli_constraints(const trim_cli_mapopts *m, trim_constraints **out)
{
	*out = NULL;
	if (!m->constraints && !m->ndataflow)
		return 0;
	int rc = m->constraints ? trim_constraints_load(out, m->constraints) : trim_constraints_create(out);
	for (int i = 0; i < m->ndataflow && rc == 0; i++)
		rc = trim_constraints_add_preset(*out, m->dataflow[i]);
	if (rc) {
		trim_constraints_free(*out);
		*out = NULL;
	}
	return rc;
}

void trim_cli_constraints_help(void)
{
	printf("\n--constraints FILE restricts the mapspace with dataflow constraints (libtrim's or\n"
	       "Timeloop's mapspace_constraints form; docs/mapping.md); --dataflow PRESET adds a\n"
	       "named dataflow (repeatable, combined with the file):\n");
	for (size_t i = 0; trim_constraints_preset_name(i); i++) {
		/* the definition wrapped at 80 columns, indented */
		const char *d = trim_constraints_preset_description(i);
		printf("  %s\n", trim_constraints_preset_name(i));
		while (*d) {
			size_t n = strlen(d), cut = n;
			if (n > 74) {
				cut = 74;
				while (cut > 0 && d[cut] != ' ')
					cut--;
				if (cut == 0)
					cut = 74;
			}
			printf("      %.*s\n", (int)cut, d);
			d += cut;
			while (*d == ' ')
				d++;
		}
	}
}

/* Standard output flushed; on failure "trim: cannot write the output: <strerror>"
 * and exit 2 (a full disk or a closed pipe is bad output, not a crash). */
static int flush_output(void)
{
	errno = 0;
	int failed = fflush(stdout) != 0;
	int e = errno;
	if (!failed && !ferror(stdout))
		return 0;
	fprintf(stderr, "trim: cannot write the output: %s\n", strerror(e ? e : EIO));
	return TRIM_CLI_EXIT_USAGE;
}

int trim_cli_print(char *text)
{
	errno = 0;
	int failed = fputs(text, stdout) < 0;
	int e = errno;
	trim_string_free(text);
	if (failed) {
		fprintf(stderr, "trim: cannot write the output: %s\n", strerror(e ? e : EIO));
		clearerr(stdout);
		return TRIM_CLI_EXIT_USAGE;
	}
	return flush_output();
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return TRIM_CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("trim %s\n", trim_version_string());
		return 0;
	}
	trim__nearest near;
	trim__nearest_init(&near, argv[1]);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
		trim__nearest_add(&near, commands[i].name);
	}
	char hint[96];
	fprintf(stderr, "trim: unknown command '%s'%s\n", argv[1],
	        trim_cli_hint(hint, sizeof hint, &near));
	usage(stderr);
	return TRIM_CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	int rc = dispatch(argc, argv);
	if (rc == 0)
		return flush_output();
	fflush(stdout); /* the command failed and said why: nothing more to report */
	return rc;
}
