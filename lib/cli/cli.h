/* Shared helpers of the command-line client (a thin client of the C API).
 * main.c dispatches the subcommands and parses the shared option kinds
 * (trim_cli_int, _choice, _mode, _phase, _format); cmd_<name>.c is `trim
 * <name>`; netrun.c loads a network's workloads and runs a network
 * evaluation for the commands that need one. */
#ifndef TRIM_CLI_H
#define TRIM_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "trim.h"
#include "trim/neteval.h"
/* the one internal helper the CLI uses: "did you mean" (lib/util/suggest.c,
 * linked from the static library) */
#include "util/util.h"

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
/* `val` must be one of the NULL-terminated `names` (*out its index); else a
 * usage error listing them with the nearest ("did you mean ..."). */
int trim_cli_choice(const char *cmd, const char *usage, const char *opt, const char *val,
                    const char *const *names, int *out);
/* --mode inference|training, --phase FW|BW|WG, --goal energy|delay|edp (the
 * mapper's TRIM_GOAL_*) through trim_cli_choice: 0 or -1 (reported). */
int trim_cli_mode(const char *cmd, const char *usage, const char *val, int *mode);
int trim_cli_phase(const char *cmd, const char *usage, const char *val, int *phase);
int trim_cli_goal(const char *cmd, const char *usage, const char *val, int *goal);
/* --count libtrim|timeloop (enum trim_count) of trim eval, map and network. */
int trim_cli_count(const char *cmd, const char *usage, const char *val, int *count);
/* "unknown option 'OPT'" with the nearest --option of the usage text; returns 2. */
int trim_cli_unknown_option(const char *cmd, const char *usage, const char *opt);
/* "; did you mean 'X'?" for the nearest name seen by `near`, or "". */
const char *trim_cli_hint(char *buf, size_t size, const trim__nearest *near);
/* Exit code 2 with a usage error when an option that takes one value (by
 * the usage text: "[--batch N]") is given twice: the second would silently
 * replace the first (two --constraints files kept only the second). Options
 * whose bracket is followed by "..." ("[--dataflow PRESET]...") combine and
 * may repeat; flags are idempotent. 0 when none is. Called by every command
 * before it reads its options. */
int trim_cli_repeated(const char *cmd, const char *usage, int argc, char **argv);
/* The largest batch (trim_workloads_create's limit), for every command. */
#define TRIM_CLI_MAX_BATCH (1 << 24)
/* Options shared by the commands that map workloads (network, sparsity,
 * explore): --mode, --batch, --threads, --goal (energy|delay|edp),
 * --max-mappings, --min-pe-util, --min-rf-util, --constraints FILE,
 * --dataflow PRESET (repeatable), --time-limit SECONDS, --gap FRACTION. */
#define TRIM_CLI_MAX_DATAFLOW 8
typedef struct {
	int mode;
	int64_t batch, threads, goal, max_mappings;
	double min_pe_util, min_rf_util;
	double time_limit, gap; /* anytime search (0: exact) */
	int imperfect;          /* --imperfect: imperfect factorisations searched too */
	int count;              /* --count of trim map and network (enum trim_count; read by those
	                           commands, not by trim_cli_mapopt) */
	const char *out_dir;    /* --out DIR of trim network: finished searches kept, resumed */
	const char *constraints;
	const char *dataflow[TRIM_CLI_MAX_DATAFLOW];
	int ndataflow;
} trim_cli_mapopts;
void trim_cli_mapopts_init(trim_cli_mapopts *m);
/* 1 if `opt` is one of them (its value `val` consumed), 0 if not, -1 on a bad
 * value (already reported). */
int trim_cli_mapopt(const char *cmd, const char *usage, const char *opt, const char *val,
                    trim_cli_mapopts *m);
/* The dataflow constraints of --constraints and --dataflow (*out NULL when
 * neither was given); 0 or a TRIM_E code (message set). */
int trim_cli_constraints(const trim_cli_mapopts *m, trim_constraints **out);
/* Help text of --constraints / --dataflow, with the preset names. */
void trim_cli_constraints_help(void);

/* One workload of a network on an architecture: the inputs of trim map and
 * trim eval. Outputs are owned by the caller and set even on failure. */
typedef struct {
	trim_network *net;
	trim_workloads *w;
	size_t index;
	trim_arch *arch;
	trim_energy *table; /* NULL: the architecture's technology */
} trim_cli_workload;
int trim_cli_load_workload(trim_cli_workload *o, const char *net_file, const char *arch_file,
                           const char *table_file, int mode, int64_t batch, const char *layer,
                           int phase);
void trim_cli_workload_free(trim_cli_workload *o);

/* A network evaluation set up from the shared options and run to the end
 * (progress on stderr when asked). Outputs are owned by the caller (their
 * _free functions) and are set even on failure; returns 0 or a TRIM_E code. */
int trim_cli_run_network(const char *cmd, const char *net_file, const char *arch_file,
                         const char *table_file, const char *trace, const trim_cli_mapopts *mo,
                         int dense, int progress, trim_network **net, trim_workloads **w,
                         trim_arch **arch, trim_neteval **ne);

/* How trim explore runs the remaining points, trim network the searches and
 * trim map its search's top nodes:
 * in this process (NULL, the trim binary) or distributed by the MPI front
 * end (lib/cli/mpi/, the trim-mpi binary), which sets it before calling the
 * command. Each returns 0 with every item recorded (the command then ranks
 * or adds up as usual), or a TRIM_E code; on a worker (MPI rank > 0) it does
 * not return: the process ends once the collector needs it no more. */
typedef struct {
	int (*explore)(trim_explorer *ex, int progress);
	int (*network)(trim_neteval *ne, int progress);
	/* trim map: the search's top nodes on the ranks (threads: the search's,
	 * one node on each); 0 with the search's result set as trim_search_run
	 * sets it */
	int (*map)(trim_search *s, int threads, int progress);
} trim_cli_runner;
extern const trim_cli_runner *trim_cli_distributed;

/* Write library-owned text to stdout, then free it. */
int trim_cli_print(char *text);
/* Write text to the file `path` (through path.tmp and a rename: no half-written
 * file); 0, or a message on stderr and TRIM_CLI_EXIT_USAGE. */
int trim_cli_write_text(const char *cmd, const char *path, const char *text);
/* The warnings before the work (trim_arch_warnings of the architecture and
 * the workloads: all of them, or intra workload `workload`) on standard
 * error as "warning: trim CMD: ..." lines, before any search starts. */
void trim_cli_warn_before(const char *cmd, const trim_arch *a, const trim_workloads *w, int64_t workload);
/* "warning: ..." lines of a finished network evaluation (trim_neteval_warnings). */
void trim_cli_print_warnings(FILE *o, const trim_neteval *ne);

#define TRIM_CLI_CMD(name, summary) int trim_cli_##name(int argc, char **argv);
#include "commands.h"
#undef TRIM_CLI_CMD

#endif
