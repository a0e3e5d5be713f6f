#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage_eval[] =
	"trim eval NETWORK.yaml ARCH.yaml --layer NAME --phase FW|BW|WG --mapping MAPPING.yaml\n"
	"          [--mode inference|training] [--batch N] [--table FILE] [--format table|json]\n"
	"          [--export-timeloop FILE] [--count libtrim|timeloop]";

// trim-cli: eval: evaluate a mapping of one workload (counts, cycles, energy); libtrim or Timeloop mapping YAML
int trim_cli_eval(int argc, char **argv)
{
	if (trim_cli_repeated("eval", usage_eval, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	const char *files[2] = {NULL, NULL}, *layer = NULL, *mapfile = NULL, *table = NULL;
	const char *export_tl = NULL;
	int format = TRIM_FORMAT_TABLE, phase = -1, mode = TRIM_MODE_DEFAULT, nf = 0, count = TRIM_COUNT_LIBTRIM;
	int64_t batch = 0;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			printf("usage: %s\n\nValidates the mapping (factors, fan-out, capacity) and prints its loop "
			       "nest,\nthe activity counts of every level and tensor, cycles per level with the\n"
			       "bottleneck, energy per level and tensor, and utilization (docs/model.md).\n"
			       "MAPPING.yaml is libtrim's form (trim_mapping_dump) or Timeloop's mapping list.\n"
			       "--export-timeloop FILE also writes the mapping and the workload (a Timeloop\n"
			       "problem) in Timeloop's format, for timeloop-model (docs/mapping.md).\n"
			       "--count timeloop counts and charges as Timeloop does where docs/mapping.md's\n"
			       "rules 1, 3, 4, 5 and 6 differ (an operand shared per fan-out by identical tiles\n"
			       "only, its windows along the innermost loop only; no drain charged; leakage on\n"
			       "the used instances of a storage level, none for the MACs); libtrim (default)\n"
			       "counts and charges by libtrim's rules.\n",
			       usage_eval);
			return 0;
		}
		if (o[0] == '-' && o[1]) {
			if (i + 1 >= argc)
				return trim_cli_usage("eval", usage_eval, "%s needs a value", o);
			const char *v = argv[++i];
			if (!strcmp(o, "--layer"))
				layer = v;
			else if (!strcmp(o, "--mapping"))
				mapfile = v;
			else if (!strcmp(o, "--export-timeloop"))
				export_tl = v;
			else if (!strcmp(o, "--table"))
				table = v;
			else if (!strcmp(o, "--format")) {
				if (trim_cli_format("eval", usage_eval, v, 0, &format))
					return TRIM_CLI_EXIT_USAGE;
			} else if (!strcmp(o, "--phase")) {
				if (trim_cli_phase("eval", usage_eval, v, &phase))
					return TRIM_CLI_EXIT_USAGE;
			} else if (!strcmp(o, "--mode")) {
				if (trim_cli_mode("eval", usage_eval, v, &mode))
					return TRIM_CLI_EXIT_USAGE;
			} else if (!strcmp(o, "--batch")) {
				if (trim_cli_int("eval", usage_eval, "--batch", v, 1, TRIM_CLI_MAX_BATCH, &batch))
					return TRIM_CLI_EXIT_USAGE;
			} else if (!strcmp(o, "--count")) {
				if (trim_cli_count("eval", usage_eval, v, &count))
					return TRIM_CLI_EXIT_USAGE;
			} else
				return trim_cli_unknown_option("eval", usage_eval, o);
		} else if (nf < 2) {
			files[nf++] = o;
		} else {
			return trim_cli_usage("eval", usage_eval, "unexpected argument '%s'", o);
		}
	}
	if (nf < 2)
		return trim_cli_usage("eval", usage_eval, "a network and an architecture are needed");
	if (!layer || !mapfile)
		return trim_cli_usage("eval", usage_eval, "--layer and --mapping are needed");
	if (phase < 0)
		phase = TRIM_PHASE_FW;
	if (mode == TRIM_MODE_DEFAULT && phase != TRIM_PHASE_FW)
		mode = TRIM_MODE_TRAINING;
	trim_cli_workload in;
	trim_mapping *m = NULL;
	trim_eval *e = NULL;
	char *text = NULL;
	int rc = trim_cli_load_workload(&in, files[0], files[1], table, mode, batch, layer, phase);
	if (!rc)
		rc = trim_mapping_load(&m, in.arch, mapfile);
	if (!rc)
		rc = trim_eval_mapping_count(&e, in.w, in.index, in.arch, in.table, m, count);
	if (!rc)
		rc = trim_eval_report(e, format, &text);
	char *tl = NULL;
	int wrc = 0;
	if (!rc && export_tl && (rc = trim_mapping_dump_timeloop(m, in.w, in.index, in.arch, &tl)) == 0)
		wrc = trim_cli_write_text("eval", export_tl, tl);
	trim_string_free(tl);
	trim_eval_free(e);
	trim_mapping_free(m);
	trim_cli_workload_free(&in);
	if (rc || wrc) { /* the report made before an export that failed is not printed */
		trim_string_free(text);
		return rc ? trim_cli_fail(rc) : wrc;
	}
	return trim_cli_print(text);
}
