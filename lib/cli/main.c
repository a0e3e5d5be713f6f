/* trim: command-line client of libtrim. Every command only calls the C API. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

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
	fprintf(f, "\n'trim <command> --help' describes a command. libtrim %s\n",
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

int trim_cli_format(const char *cmd, const char *use, const char *val, int allow_csv, int *out)
{
	if (val && !strcmp(val, "table"))
		*out = TRIM_FORMAT_TABLE;
	else if (val && !strcmp(val, "json"))
		*out = TRIM_FORMAT_JSON;
	else if (val && allow_csv && !strcmp(val, "csv"))
		*out = TRIM_FORMAT_CSV;
	else {
		trim_cli_usage(cmd, use, "--format takes table, json%s; got '%s'",
		               allow_csv ? " or csv" : "", val ? val : "");
		return -1;
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
		static const char *const goals[] = {"energy", "delay", "edp"};
		for (int g = 0; g < 3; g++)
			if (!strcmp(v, goals[g]))
				return (m->goal = g), 1;
		trim_cli_usage(cmd, use, "--goal takes energy, delay or edp; got '%s'", v);
		return -1;
	}
	if (!strcmp(o, "--mode")) {
		if (!strcmp(v, "inference") || !strcmp(v, "training"))
			return (m->mode = v[0] == 't' ? TRIM_MODE_TRAINING : TRIM_MODE_INFERENCE), 1;
		trim_cli_usage(cmd, use, "--mode takes inference or training; got '%s'", v);
		return -1;
	}
	if (!strcmp(o, "--batch"))
		return trim_cli_int(cmd, use, o, v, 1, 1 << 24, &m->batch) ? -1 : 1;
	if (!strcmp(o, "--threads"))
		return trim_cli_int(cmd, use, o, v, 1, 1024, &m->threads) ? -1 : 1;
	if (!strcmp(o, "--max-mappings"))
		return trim_cli_int(cmd, use, o, v, 0, INT64_MAX, &m->max_mappings) ? -1 : 1;
	if (!strcmp(o, "--constraints"))
		return (m->constraints = v), 1;
	if (!strcmp(o, "--dataflow")) {
		int ok = 0;
		char list[256] = "";
		size_t l = 0;
		for (size_t i = 0; trim_constraints_preset_name(i); i++) {
			ok |= !strcmp(v, trim_constraints_preset_name(i));
			l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", trim_constraints_preset_name(i));
		}
		if (!ok) {
			trim_cli_usage(cmd, use, "--dataflow takes %s; got '%s'", list, v);
			return -1;
		}
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

int trim_cli_print(char *text)
{
	int rc = fputs(text, stdout) < 0 || fflush(stdout) != 0;
	trim_string_free(text);
	if (rc) {
		fprintf(stderr, "trim: cannot write the output\n");
		return TRIM_CLI_EXIT_FAIL;
	}
	return 0;
}

int main(int argc, char **argv)
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
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "trim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return TRIM_CLI_EXIT_USAGE;
}
