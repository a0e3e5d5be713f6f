#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage_version[] = "trim version [--format table|json]";

// trim-cli: version: print the library version
int trim_cli_version(int argc, char **argv)
{
	if (trim_cli_repeated("version", usage_version, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	int format = TRIM_FORMAT_TABLE;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: %s\n\nPrints the version of libtrim the client runs on; JSON: "
			       "{\"version\": \"MAJOR.MINOR.PATCH\",\n\"number\": MAJOR*10000 + MINOR*100 + "
			       "PATCH}.\n", usage_version);
			return 0;
		}
		if (!strcmp(argv[i], "--format")) {
			if (i + 1 >= argc)
				return trim_cli_usage("version", usage_version, "--format needs a value");
			if (trim_cli_format("version", usage_version, argv[++i], 0, &format))
				return TRIM_CLI_EXIT_USAGE;
			continue;
		}
		return trim_cli_usage("version", usage_version, "unknown option '%s'", argv[i]);
	}
	/* a write failure is reported when main() flushes standard output */
	if (format == TRIM_FORMAT_JSON)
		printf("{\"version\": \"%s\", \"number\": %d}\n", trim_version_string(),
		       trim_version_number());
	else
		printf("libtrim %s\n", trim_version_string());
	return 0;
}
