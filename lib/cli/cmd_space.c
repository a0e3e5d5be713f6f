#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage_space[] = "trim space FILE [--format table|json]";

// trim-cli: space: enumerate an architecture space (designer): points, area or resources, rejections
int trim_cli_space(int argc, char **argv)
{
	if (trim_cli_repeated("space", usage_space, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	const char *file = NULL;
	int format = TRIM_FORMAT_TABLE;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: %s\n\nEnumerates an architecture space (docs/arch.md) in canonical "
			       "order (first\nparameter slowest) and lists every grid point with its area "
			       "or FPGA\nresources; points that break a constraint are marked rejected.\n"
			       "JSON: an object with arrays \"points\" (accepted) and \"rejected\".\n",
			       usage_space);
			return 0;
		} else if (!strcmp(argv[i], "--format")) {
			if (i + 1 >= argc)
				return trim_cli_usage("space", usage_space, "--format needs a value");
			if (trim_cli_format("space", usage_space, argv[++i], 0, &format))
				return TRIM_CLI_EXIT_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return trim_cli_unknown_option("space", usage_space, argv[i]);
		} else if (!file) {
			file = argv[i];
		} else {
			return trim_cli_usage("space", usage_space, "one space file only");
		}
	}
	if (!file)
		return trim_cli_usage("space", usage_space, "no space file given");
	trim_space *s = NULL;
	char *text = NULL;
	int rc = trim_space_load(&s, file);
	if (rc == 0)
		rc = trim_space_report(s, format, &text);
	trim_space_free(s);
	if (rc)
		return trim_cli_fail(rc);
	return trim_cli_print(text);
}
