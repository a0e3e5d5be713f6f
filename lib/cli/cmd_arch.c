#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage_arch[] = "trim arch FILE [--table FILE] [--format table|json]";

// trim-cli: arch: validate an architecture; capacities, energy per access, area or FPGA resources
int trim_cli_arch(int argc, char **argv)
{
	if (trim_cli_repeated("arch", usage_arch, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	const char *file = NULL, *table = NULL;
	int format = TRIM_FORMAT_TABLE;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: %s\n\nValidates an architecture (docs/arch.md) and prints every "
			       "level's capacity,\nenergy per access and area (mm2), or FPGA resources "
			       "and device utilisation;\nthen the roofline (peak MACs per cycle, the words "
			       "per cycle of every level and\nnetwork, the MACs per word each needs, which "
			       "binds first) and the warnings on\na design that will surely perform badly "
			       "(docs/arch.md, \"Roofline\").\nThe energy table is --table, else the "
			       "architecture's technology resolved as\ndocs/energy.md says "
			       "(../../energy_tables, $TRIM_DATA_DIR, ./energy_tables).\n",
			       usage_arch);
			return 0;
		} else if (!strcmp(argv[i], "--table") || !strcmp(argv[i], "--format")) {
			if (i + 1 >= argc)
				return trim_cli_usage("arch", usage_arch, "%s needs a value", argv[i]);
			if (argv[i][2] == 't')
				table = argv[++i];
			else if (trim_cli_format("arch", usage_arch, argv[++i], 0, &format))
				return TRIM_CLI_EXIT_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return trim_cli_unknown_option("arch", usage_arch, argv[i]);
		} else if (!file) {
			file = argv[i];
		} else {
			return trim_cli_usage("arch", usage_arch, "one architecture file only");
		}
	}
	if (!file)
		return trim_cli_usage("arch", usage_arch, "no architecture file given");
	trim_arch *a = NULL;
	trim_energy *t = NULL;
	char *text = NULL;
	int rc = trim_arch_load(&a, file);
	if (rc == 0 && table)
		rc = trim_energy_load(&t, table);
	if (rc == 0)
		rc = trim_arch_report(a, t, format, &text);
	trim_energy_free(t);
	trim_arch_free(a);
	if (rc)
		return trim_cli_fail(rc);
	return trim_cli_print(text);
}
