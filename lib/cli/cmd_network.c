#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "trim/fusedtiles.h"
#include "trim/neteval.h"
#include "trim/search.h"

static const char usage_net[] =
	"trim network NETWORK.yaml ARCH.yaml [--goal energy|delay|edp] [--threads N]\n"
	"         [--mode inference|training] [--batch N] [--table FILE] [--trace CSV] [--dense]\n"
	"         [--max-mappings N] [--min-pe-util F] [--min-rf-util F] [--constraints FILE]\n"
	"         [--dataflow PRESET]... [--progress|--quiet] [--format table|json|csv]\n"
	"         [--report FILE.html] [--breakdown FILE.csv|FILE.json]\n"
	"         [--time-limit SECONDS] [--gap FRACTION] [--out DIR] [--imperfect]\n"
	"         [--count libtrim|timeloop]\n"
	"       trim network NETWORK.yaml ARCH.yaml --fuse all|FIRST:LAST [--fuse-level LEVEL]\n"
	"         [--goal energy|delay] [--threads N] [--batch N] [--table FILE] [--format table|json]\n"
	"         [--time-limit SECONDS]";

/* --fuse: the fused-tiles plan of every chain (docs/fusion.md, "Fused tiles"). */
static int run_fused(const char *const *files, const char *table_file, const trim_cli_mapopts *mo,
                     const char *range, const char *level, int format)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *arch = NULL;
	trim_energy *table = NULL;
	char *text = NULL;
	int rc = trim_network_load(&net, files[0]);
	if (rc == 0)
		rc = trim_workloads_create(&w, net, mo->mode, mo->batch, 0);
	if (rc == 0)
		rc = trim_arch_load(&arch, files[1]);
	if (rc == 0 && table_file)
		rc = trim_energy_load(&table, table_file);
	if (rc == 0)
		rc = trim_fusedtiles_report_within(net, w, arch, table, range, level, (int)mo->goal, (int)mo->threads,
		                                   mo->time_limit, format, &text);
	trim_energy_free(table);
	trim_arch_free(arch);
	trim_workloads_free(w);
	trim_network_free(net);
	return rc ? trim_cli_fail(rc) : trim_cli_print(text);
}

/* What the command line asks for. */
typedef struct {
	const char *files[2], *table_file, *trace, *report, *breakdown, *fuse, *fuse_level;
	int format, nf, dense, progress;
	trim_cli_mapopts mo;
} network_args;

static void network_help(void)
{
	printf("usage: %s\n\nMaps every intra-layer workload with the exhaustive search (trim map),\n"
	       "adds the inter-layer workloads, and uses the sparse figures when the\n"
	       "architecture gates or skips zeros (--dense: dense figures only).\n"
	       "Progress goes to standard error when it is a terminal.\n"
	       "Every report has the warnings of a design that starves its compute and the\n"
	       "temporal utilisation (MACs / (PEs x cycles)) beside the spatial one.\n"
	       "--report FILE.html writes one self-contained page (charts of energy by level\n"
	       "and tensor, cycles and bottleneck, utilisation, loop nests; opens from disk).\n"
	       "--breakdown FILE writes the counts and energy of every workload, level, tensor\n"
	       "and action (CSV, or JSON for a .json name).\n"
	       "Each distinct workload is searched once (identical ones reuse its result);\n"
	       "with --threads N they are searched in parallel. --time-limit S shares S\n"
	       "seconds among the searches and --gap G stops each once its best is proven\n"
	       "within G of the optimum: the reports then give the proven lower bound, the\n"
	       "gap and whether each search is exact. --out DIR keeps every finished\n"
	       "search in DIR and reads back those of an earlier run made from the same\n"
	       "inputs (stamped by their content), so a killed run resumes.\n"
	       "--imperfect also searches imperfect factorisations (a dim spread over more\n"
	       "PEs than a divisor fits, with a ragged last pass; trim map --imperfect).\n"
	       "--fuse all|FIRST:LAST plans the chains of the network (layers that read only\n"
	       "the previous layer's result) as fused groups sharing the loops above a buffer\n"
	       "level (--fuse-level, default the first storage level below DRAM), searched\n"
	       "exactly with the layer-by-layer plan as one candidate, and reports the groups,\n"
	       "the DRAM bytes saved and the buffer they need (inference, or training's FW and\n"
	       "BW chains; energy or delay; docs/fusion.md, \"Fused tiles\"); FIRST:LAST fuses\n"
	       "only within those layers.\n"
	       "With --fuse, --time-limit S returns within about S seconds the best plan\n"
	       "found (never worse than layer by layer) with its proven lower bound and gap.\n",
	       usage_net);
	trim_cli_constraints_help();
}

/* The command line into a: -1 to go on, else the exit status (help printed,
 * or a usage error reported). */
static int network_parse(int argc, char **argv, network_args *a)
{
	memset(a, 0, sizeof *a);
	a->format = TRIM_FORMAT_TABLE;
	a->progress = isatty(2);
	trim_cli_mapopts_init(&a->mo);
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			network_help();
			return 0;
		}
		if (!strcmp(o, "--dense")) {
			a->dense = 1;
			continue;
		}
		if (!strcmp(o, "--imperfect")) {
			a->mo.imperfect = 1;
			continue;
		}
		if (!strcmp(o, "--progress") || !strcmp(o, "--quiet")) {
			a->progress = o[2] == 'p';
			continue;
		}
		if (o[0] == '-' && o[1]) {
			if (i + 1 >= argc)
				return trim_cli_usage("network", usage_net, "%s needs a value", o);
			const char *v = argv[++i];
			int k = trim_cli_mapopt("network", usage_net, o, v, &a->mo);
			if (k < 0)
				return TRIM_CLI_EXIT_USAGE;
			if (k > 0)
				continue;
			if (!strcmp(o, "--table"))
				a->table_file = v;
			else if (!strcmp(o, "--count")) {
				if (trim_cli_count("network", usage_net, v, &a->mo.count))
					return TRIM_CLI_EXIT_USAGE;
			}
			else if (!strcmp(o, "--trace"))
				a->trace = v;
			else if (!strcmp(o, "--report"))
				a->report = v;
			else if (!strcmp(o, "--out"))
				a->mo.out_dir = v;
			else if (!strcmp(o, "--breakdown"))
				a->breakdown = v;
			else if (!strcmp(o, "--fuse"))
				a->fuse = v;
			else if (!strcmp(o, "--fuse-level"))
				a->fuse_level = v;
			else if (!strcmp(o, "--format")) {
				if (trim_cli_format("network", usage_net, v, 1, &a->format))
					return TRIM_CLI_EXIT_USAGE;
			} else {
				return trim_cli_unknown_option("network", usage_net, o);
			}
			continue;
		}
		if (a->nf == 2)
			return trim_cli_usage("network", usage_net, "a network and an architecture only");
		a->files[a->nf++] = o;
	}
	if (a->nf != 2)
		return trim_cli_usage("network", usage_net, "needs NETWORK.yaml and ARCH.yaml");
	if (a->fuse_level && !a->fuse)
		return trim_cli_usage("network", usage_net, "--fuse-level needs --fuse");
	return -1;
}

/* --fuse: what the fused plan does not take yet is refused, not ignored
 * (the usage status), else the plan (run_fused). */
static int network_fused(const network_args *a)
{
	const char *other = a->trace ? "--trace" : a->report ? "--report" : a->breakdown ? "--breakdown"
	                  : a->mo.out_dir ? "--out" : a->mo.constraints ? "--constraints"
	                  : a->mo.ndataflow ? "--dataflow" : a->mo.imperfect ? "--imperfect"
	                  : a->mo.count != TRIM_COUNT_LIBTRIM ? "--count timeloop"
	                  : a->mo.gap > 0 ? "--gap"
	                  : a->mo.max_mappings > 0 ? "--max-mappings" : a->mo.min_pe_util > 0 ? "--min-pe-util"
	                  : a->mo.min_rf_util > 0 ? "--min-rf-util" : a->dense ? "--dense"
	                  : a->format == TRIM_FORMAT_CSV ? "--format csv" : NULL;
	if (other)
		return trim_cli_usage("network", usage_net, "--fuse does not take %s yet", other);
	if (a->mo.goal == TRIM_GOAL_EDP)
		return trim_cli_usage("network", usage_net, "--fuse searches --goal energy or delay (EDP is not yet exact for fused groups)");
	return run_fused(a->files, a->table_file, &a->mo, a->fuse, a->fuse_level, a->format);
}

/* The searches read back from out_dir (--out), if any, and why others were
 * not, on stderr. */
static void print_resumed(const trim_neteval *ne, const char *out_dir)
{
	int64_t resumed = 0, stale = 0;
	if (trim_neteval_resumed(ne, &resumed, &stale) || !(resumed || stale))
		return;
	fprintf(stderr, "trim network: %lld searches read back from %s", (long long)resumed, out_dir);
	if (stale)
		fprintf(stderr, "; %lld stale or corrupted (made from other inputs, or edited): searched again",
		        (long long)stale);
	fprintf(stderr, "\n");
	/* and why, file by file */
	for (const char *l = trim_neteval_resume_notes(ne); *l;) {
		const char *e = strchr(l, '\n');
		int n = e ? (int)(e - l) : (int)strlen(l);
		fprintf(stderr, "trim network: %.*s\n", n, l);
		l += n + (e != NULL);
	}
}

// trim-cli: network: the best mapping of every workload of a network, with totals
int trim_cli_network(int argc, char **argv)
{
	if (trim_cli_repeated("network", usage_net, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	network_args a;
	int st = network_parse(argc, argv, &a);
	if (st >= 0)
		return st;
	if (a.fuse)
		return network_fused(&a);

	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *arch = NULL;
	trim_neteval *ne = NULL;
	char *text = NULL;
	int rc = trim_cli_run_network("network", a.files[0], a.files[1], a.table_file, a.trace, &a.mo, a.dense,
	                              a.progress, &net, &w, &arch, &ne);
	if (rc == 0)
		rc = trim_neteval_report(ne, a.format, &text);
	if (rc == 0 && a.mo.out_dir)
		print_resumed(ne, a.mo.out_dir);
	if (rc == 0 && a.report)
		rc = trim_neteval_write_html(ne, a.report);
	char *bd = NULL;
	if (rc == 0 && a.breakdown) {
		size_t len = strlen(a.breakdown);
		int json = len >= 5 && !strcmp(a.breakdown + len - 5, ".json");
		rc = trim_neteval_breakdown_report(ne, json ? TRIM_FORMAT_JSON : TRIM_FORMAT_CSV, &bd);
	}
	trim_neteval_free(ne);
	trim_arch_free(arch);
	trim_workloads_free(w);
	trim_network_free(net);
	if (rc) {
		trim_string_free(text);
		return trim_cli_fail(rc);
	}
	if (bd) {
		int wrc = trim_cli_write_text("network", a.breakdown, bd);
		trim_string_free(bd);
		if (wrc) {
			trim_string_free(text);
			return wrc;
		}
	}
	return trim_cli_print(text);
}
