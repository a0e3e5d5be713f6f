#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "trim/neteval.h"
#include "trim/search.h"
#include "trim/sparsity.h"

static const char usage_sp[] =
	"trim sparsity NETWORK.yaml ARCH.yaml [--trace CSV] [--goal energy|delay|edp] [--threads N]\n"
	"         [--mode inference|training] [--batch N] [--max-mappings N] [--min-pe-util F] [--min-rf-util F]\n"
	"         [--constraints FILE] [--dataflow PRESET]... [--time-limit SECONDS] [--gap FRACTION]\n"
	"         [--progress|--quiet] [--format table|json]";

typedef struct {
	double dc, c, de, e;
} sums;

static void add(sums *s, const double *f)
{
	s->dc += f[TRIM_NF_DENSE_CYCLES];
	s->c += f[TRIM_NF_CYCLES];
	s->de += f[TRIM_NF_DENSE_ENERGY_PJ];
	s->e += f[TRIM_NF_ENERGY_PJ];
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

/* The level that bounds the workload's sparse time. */
static const char *bound_by(const trim_arch *a, const double *f)
{
	int b = (int)f[TRIM_NF_BOTTLENECK];
	const char *n = b >= 0 ? trim_arch_level_name(a, b) : NULL;
	return n ? n : "-";
}

static void print_json(FILE *o, const trim_workloads *w, const trim_neteval *ne,
                       const trim_sparsity *sp, const char *net, const trim_arch *a)
{
	sums ph[3] = {{0}}, all = {0};
	fprintf(o, "{\n  \"network\": \"%s\",\n  \"arch\": \"%s\",\n  \"workloads\": [", net,
	        trim_arch_name(a));
	for (size_t i = 0; i < trim_neteval_count(ne); i++) {
		double f[TRIM_NF_COUNT], s[TRIM_SP_NFIELDS];
		trim_neteval_workload(ne, i, f, TRIM_NF_COUNT);
		trim_sparsity_workload(sp, i, s, TRIM_SP_NFIELDS);
		int p = trim_workloads_intra_phase(w, i);
		add(&ph[p], f);
		add(&all, f);
		fprintf(o,
		        "%s\n    {\"layer\": \"%s\", \"phase\": \"%s\", \"dense_cycles\": %.17g, \"cycles\": %.17g, "
		        "\"dense_energy_pj\": %.17g, \"energy_pj\": %.17g, \"speedup\": %.17g, "
		        "\"energy_saving\": %.17g, \"operand_sparsity\": [%.17g, %.17g], \"output_sparsity\": %.17g, "
		        "\"bottleneck\": \"%s\", \"exact\": %s, \"gap\": %.17g, \"lower_bound\": %.17g}",
		        i ? "," : "", trim_workloads_intra_layer(w, i), trim_phase_name(p),
		        f[TRIM_NF_DENSE_CYCLES], f[TRIM_NF_CYCLES], f[TRIM_NF_DENSE_ENERGY_PJ],
		        f[TRIM_NF_ENERGY_PJ], ratio(f[TRIM_NF_DENSE_CYCLES], f[TRIM_NF_CYCLES]),
		        ratio(f[TRIM_NF_DENSE_ENERGY_PJ], f[TRIM_NF_ENERGY_PJ]), s[TRIM_SP_OPERAND0],
		        s[TRIM_SP_OPERAND1], s[TRIM_SP_OUTPUT], bound_by(a, f), f[TRIM_NF_EXACT] == 1 ? "true" : "false",
		        f[TRIM_NF_GAP], f[TRIM_NF_LOWER_BOUND]);
	}
	fprintf(o, "\n  ],\n  \"phases\": {");
	for (int p = 0; p < 3; p++)
		fprintf(o,
		        "%s\"%s\": {\"dense_cycles\": %.17g, \"cycles\": %.17g, \"dense_energy_pj\": %.17g, "
		        "\"energy_pj\": %.17g, \"speedup\": %.17g, \"energy_saving\": %.17g}",
		        p ? ", " : "", trim_phase_name(p), ph[p].dc, ph[p].c, ph[p].de, ph[p].e,
		        ratio(ph[p].dc, ph[p].c), ratio(ph[p].de, ph[p].e));
	double dc = trim_neteval_dense_cycles(ne), c = trim_neteval_cycles(ne);
	double de = trim_neteval_dense_energy_pj(ne), e = trim_neteval_energy_pj(ne);
	char *warn = NULL; /* the design's warnings (docs/guide.md, "Reports") */
	if (trim_neteval_warnings(ne, &warn))
		warn = NULL;
	double lb = 0, gap = 0;
	int exact = trim_neteval_exact(ne, &lb, &gap);
	fprintf(o,
	        "},\n  \"totals\": {\"dense_cycles\": %.17g, \"cycles\": %.17g, \"dense_energy_pj\": %.17g, "
	        "\"energy_pj\": %.17g, \"speedup\": %.17g, \"energy_saving\": %.17g},\n"
	        "  \"search\": {\"exact\": %s, \"lower_bound\": %.17g, \"gap\": %.17g},\n  \"warnings\": %s\n}\n",
	        dc, c, de, e, ratio(dc, c), ratio(de, e), exact == 1 ? "true" : "false", lb, gap,
	        warn ? warn : "[]");
	trim_string_free(warn);
}

static void print_table(FILE *o, const trim_workloads *w, const trim_neteval *ne,
                        const trim_sparsity *sp, const char *net, const trim_arch *a)
{
	sums ph[3] = {{0}};
	int lw = 5; /* the layer column fits the longest name */
	for (size_t i = 0; i < trim_neteval_count(ne); i++) {
		size_t l = strlen(trim_workloads_intra_layer(w, i));
		lw = l > (size_t)lw ? (int)(l < 200 ? l : 200) : lw;
	}
	fprintf(o, "ReLU-driven sparsity: %s on %s (dense = no zero gating or skipping)\n", net,
	        trim_arch_name(a));
	fprintf(o, "s_in0, s_in1: fraction of zeros of operands 0 and 1 (ifmap or dY; weights are dense);\n"
	           "s_out: BW results a later ReLU zeros (skippable); speedup and saving: dense / sparse;\n"
	           "exact: the search proved the mapping optimal for the goal (else gap: how far its\n"
	           "dense cost may be above the best a mapping gives); bound: the level whose time is the\n"
	           "sparse workload's\n\n");
	fprintf(o, "%-4s %-*s %-5s %6s %6s %6s %14s %14s %8s %14s %14s %8s %5s %8s  %s\n", "#", lw, "layer", "phase",
	        "s_in0", "s_in1", "s_out", "dense cycles", "cycles", "speedup", "dense pJ", "pJ", "saving", "exact",
	        "gap", "bound");
	for (size_t i = 0; i < trim_neteval_count(ne); i++) {
		double f[TRIM_NF_COUNT], s[TRIM_SP_NFIELDS];
		trim_neteval_workload(ne, i, f, TRIM_NF_COUNT);
		trim_sparsity_workload(sp, i, s, TRIM_SP_NFIELDS);
		int p = trim_workloads_intra_phase(w, i);
		add(&ph[p], f);
		char gap[32];
		snprintf(gap, sizeof gap, "%.3g%%", 100 * f[TRIM_NF_GAP]);
		fprintf(o, "%-4zu %-*s %-5s %6.3f %6.3f %6.3f %14.6g %14.6g %8.3f %14.6g %14.6g %8.3f %5s %8s  %s\n", i,
		        lw, trim_workloads_intra_layer(w, i), trim_phase_name(p), s[0], s[1], s[2],
		        f[TRIM_NF_DENSE_CYCLES], f[TRIM_NF_CYCLES],
		        ratio(f[TRIM_NF_DENSE_CYCLES], f[TRIM_NF_CYCLES]), f[TRIM_NF_DENSE_ENERGY_PJ],
		        f[TRIM_NF_ENERGY_PJ], ratio(f[TRIM_NF_DENSE_ENERGY_PJ], f[TRIM_NF_ENERGY_PJ]),
		        f[TRIM_NF_EXACT] == 1 ? "yes" : "no", gap, bound_by(a, f));
	}
	fprintf(o, "\n");
	for (int p = 0; p < 3; p++)
		if (ph[p].dc > 0)
			fprintf(o, "%s: speedup %.4gx, energy saving %.4gx\n", trim_phase_name(p),
			        ratio(ph[p].dc, ph[p].c), ratio(ph[p].de, ph[p].e));
	fprintf(o, "total (with inter-layer work): speedup %.4gx, energy saving %.4gx\n",
	        ratio(trim_neteval_dense_cycles(ne), trim_neteval_cycles(ne)),
	        ratio(trim_neteval_dense_energy_pj(ne), trim_neteval_energy_pj(ne)));
	double lb = 0, gap = 0;
	if (trim_neteval_exact(ne, &lb, &gap) == 1)
		fprintf(o, "search: exact (every mapping proven optimal for the goal)\n");
	else
		fprintf(o, "search: NOT proven optimal (time limit or --gap): proven lower bound %.6g, gap %.3g%%; "
		        "the workloads whose exact is no may have better mappings\n", lb, 100 * gap);
	trim_cli_print_warnings(o, ne);
}

// trim-cli: sparsity: what zero gating and skipping buy, dense vs sparse per workload
int trim_cli_sparsity(int argc, char **argv)
{
	if (trim_cli_repeated("sparsity", usage_sp, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	const char *files[2] = {NULL, NULL}, *trace = NULL;
	int format = TRIM_FORMAT_TABLE, nf = 0, progress = isatty(2);
	trim_cli_mapopts mo;
	trim_cli_mapopts_init(&mo);
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			printf("usage: %s\n\nMaps every workload (trim network) and compares the dense figures with\n"
			       "the sparse ones the architecture's zero gating / skipping / BW output\n"
			       "skipping gives for the network's ReLU sparsity (docs/sparsity.md).\n"
			       "--time-limit S shares S seconds among the searches and --gap G stops each\n"
			       "once its best is proven within G of the optimum (as in trim network); the\n"
			       "report then says whether the mappings are proven optimal, and the gap.\n", usage_sp);
			trim_cli_constraints_help();
			return 0;
		}
		if (!strcmp(o, "--progress") || !strcmp(o, "--quiet")) {
			progress = o[2] == 'p';
			continue;
		}
		if (o[0] == '-' && o[1]) {
			if (i + 1 >= argc)
				return trim_cli_usage("sparsity", usage_sp, "%s needs a value", o);
			const char *v = argv[++i];
			int k = trim_cli_mapopt("sparsity", usage_sp, o, v, &mo);
			if (k < 0)
				return TRIM_CLI_EXIT_USAGE;
			if (k > 0)
				continue;
			if (!strcmp(o, "--trace"))
				trace = v;
			else if (!strcmp(o, "--format")) {
				if (trim_cli_format("sparsity", usage_sp, v, 0, &format))
					return TRIM_CLI_EXIT_USAGE;
			} else {
				return trim_cli_unknown_option("sparsity", usage_sp, o);
			}
			continue;
		}
		if (nf == 2)
			return trim_cli_usage("sparsity", usage_sp, "a network and an architecture only");
		files[nf++] = o;
	}
	if (nf != 2)
		return trim_cli_usage("sparsity", usage_sp, "needs NETWORK.yaml and ARCH.yaml");
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *arch = NULL;
	trim_neteval *ne = NULL;
	trim_sparsity *sp = NULL;
	int rc = trim_cli_run_network("sparsity", files[0], files[1], NULL, trace, &mo, 0, progress,
	                              &net, &w, &arch, &ne);
	/* the same sparsity figures, for the table's operand columns */
	if (rc == 0)
		rc = trim_sparsity_create(&sp, net, w);
	if (rc == 0 && trace)
		rc = trim_sparsity_load_trace(sp, trace);
	if (rc == 0) {
		if (format == TRIM_FORMAT_JSON)
			print_json(stdout, w, ne, sp, trim_network_name(net), arch);
		else
			print_table(stdout, w, ne, sp, trim_network_name(net), arch);
		if (fflush(stdout) != 0)
			rc = TRIM_EIO;
	}
	trim_neteval_free(ne);
	trim_sparsity_free(sp);
	trim_arch_free(arch);
	trim_workloads_free(w);
	trim_network_free(net);
	return rc ? trim_cli_fail(rc) : 0;
}
