#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "trim/arch.h"
#include "trim/onnx.h"

static const char *const USAGE =
	"trim import MODEL.onnx [-o NET.yaml] [--batch N] [--dim NAME=N]... [--passthrough]\n"
	"       trim import TIMELOOP_ARCH.yaml [-o ARCH.yaml]";

// trim-cli: import: an ONNX model as a network description (YAML) to read, edit and use
int trim_cli_import(int argc, char **argv)
{
	if (trim_cli_repeated("import", USAGE, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	const char *path = NULL, *out = NULL;
	trim_onnx_options *o = NULL;
	if (trim_onnx_options_create(&o))
		return trim_cli_fail(TRIM_ENOMEM);
	int code = 0;
	for (int i = 1; i < argc && !code; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf("usage: %s\n\n"
			       "Translates an ONNX model (docs/onnx.md: the operators, and how each is\n"
			       "costed) into libtrim's network description, on stdout or into -o FILE.\n"
			       "--batch N fixes the graph input's first dimension; --dim NAME=N a named\n"
			       "(symbolic) one; --passthrough turns operators libtrim cannot cost into\n"
			       "zero-cost pass-throughs, listed as warnings. Every command that takes a\n"
			       "network also takes MODEL.onnx directly (a named batch then is 1).\n"
			       "A Timeloop architecture file (version 0.3 or 0.4 YAML) is translated into\n"
			       "libtrim's architecture description instead (docs/arch.md, \"Timeloop\n"
			       "architecture files\"); every command that takes an architecture also\n"
			       "reads it directly.\n",
			       USAGE);
			trim_onnx_options_free(o);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!v)
				code = trim_cli_usage("import", USAGE, "%s needs a file name", a);
			out = v;
			i++;
		} else if (!strcmp(a, "--batch")) {
			int64_t b;
			if (trim_cli_int("import", USAGE, a, v, 1, TRIM_CLI_MAX_BATCH, &b))
				code = TRIM_CLI_EXIT_USAGE;
			else
				trim_onnx_options_set_batch(o, b);
			i++;
		} else if (!strcmp(a, "--dim")) {
			const char *eq = v ? strchr(v, '=') : NULL;
			char name[64];
			if (!eq || eq == v || (size_t)(eq - v) >= sizeof name) {
				code = trim_cli_usage("import", USAGE, "--dim needs NAME=N, got '%s'",
				                      v ? v : "");
			} else {
				int64_t n;
				snprintf(name, sizeof name, "%.*s", (int)(eq - v), v);
				if (trim_cli_int("import", USAGE, "--dim", eq + 1, 1, 2147483647, &n))
					code = TRIM_CLI_EXIT_USAGE;
				else if (trim_onnx_options_set_dim(o, name, n))
					code = trim_cli_fail(TRIM_EINVAL);
			}
			i++;
		} else if (!strcmp(a, "--passthrough")) {
			trim_onnx_options_set_passthrough(o, 1);
		} else if (a[0] == '-') {
			code = trim_cli_unknown_option("import", USAGE, a);
		} else if (!path) {
			path = a;
		} else {
			code = trim_cli_usage("import", USAGE, "one model file only");
		}
	}
	if (!code && !path)
		code = trim_cli_usage("import", USAGE, "no ONNX model given");
	if (code) {
		trim_onnx_options_free(o);
		return code;
	}
	char *yaml = NULL;
	/* a description that loads (both translations check), or nothing written */
	size_t pl = strlen(path);
	int timeloop = (pl > 5 && !strcmp(path + pl - 5, ".yaml")) || (pl > 4 && !strcmp(path + pl - 4, ".yml"));
	int rc = timeloop ? trim_arch_timeloop_yaml(&yaml, path) : trim_onnx_to_yaml(&yaml, path, o);
	trim_onnx_options_free(o);
	if (rc)
		return trim_cli_fail(rc);
	if (out) {
		code = trim_cli_write_text("import", out, yaml);
		trim_string_free(yaml);
		return code;
	}
	return trim_cli_print(yaml);
}
