#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *const USAGE =
	"trim workloads NETWORK.yaml [--mode inference|training] [--batch N] [--word-bits B] "
	"[--format table|json|csv]";

// trim-cli: workloads: the task analyst: intra- and inter-layer workloads of a network
int trim_cli_workloads(int argc, char **argv)
{
	if (trim_cli_repeated("workloads", USAGE, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	const char *path = NULL;
	int mode = TRIM_MODE_DEFAULT, format = TRIM_FORMAT_TABLE;
	int64_t batch = 0, bits = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf("usage: %s\n", USAGE);
			return 0;
		} else if (!strcmp(a, "--mode")) {
			if (trim_cli_mode("workloads", USAGE, v, &mode))
				return TRIM_CLI_EXIT_USAGE;
			i++;
		} else if (!strcmp(a, "--batch")) {
			if (trim_cli_int("workloads", USAGE, a, v, 1, TRIM_CLI_MAX_BATCH, &batch))
				return TRIM_CLI_EXIT_USAGE;
			i++;
		} else if (!strcmp(a, "--word-bits")) {
			if (trim_cli_int("workloads", USAGE, a, v, 1, 64, &bits))
				return TRIM_CLI_EXIT_USAGE;
			i++;
		} else if (!strcmp(a, "--format")) {
			if (trim_cli_format("workloads", USAGE, v, 1, &format))
				return TRIM_CLI_EXIT_USAGE;
			i++;
		} else if (a[0] == '-') {
			return trim_cli_unknown_option("workloads", USAGE, a);
		} else if (!path) {
			path = a;
		} else {
			return trim_cli_usage("workloads", USAGE, "one network file only");
		}
	}
	if (!path)
		return trim_cli_usage("workloads", USAGE, "no network file given");

	trim_network *net = NULL;
	trim_workloads *w = NULL;
	char *text = NULL;
	int rc = trim_network_load(&net, path);
	if (rc == 0)
		rc = trim_workloads_create(&w, net, mode, batch, (int)bits);
	if (rc == 0)
		rc = trim_workloads_report(w, format, &text);
	trim_workloads_free(w);
	trim_network_free(net);
	if (rc)
		return trim_cli_fail(rc);
	return trim_cli_print(text);
}
