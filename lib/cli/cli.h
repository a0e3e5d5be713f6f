/* Shared helpers of the command-line client (a thin client of the C API). */
#ifndef TRIM_CLI_H
#define TRIM_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "trim.h"

/* Exit codes: 0 success, 1 failure of the work, 2 bad usage or bad input. */
#define TRIM_CLI_EXIT_FAIL 1
#define TRIM_CLI_EXIT_USAGE 2

/* Print "trim: <message>" for the library's last error; return exit code. */
int trim_cli_fail(int rc);
/* Print "trim <cmd>: <message>" and the usage hint; return 2. */
int trim_cli_usage(const char *cmd, const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Parse helpers: return 0 on success, -1 on a bad value (already reported). */
int trim_cli_int(const char *cmd, const char *usage, const char *opt, const char *val,
                 int64_t lo, int64_t hi, int64_t *out);
int trim_cli_format(const char *cmd, const char *usage, const char *val, int allow_csv,
                    int *out);
/* Write library-owned text to stdout, then free it. */
int trim_cli_print(char *text);

#define TRIM_CLI_CMD(name, summary) int trim_cli_##name(int argc, char **argv);
#include "commands.h"
#undef TRIM_CLI_CMD

#endif
