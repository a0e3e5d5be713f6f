#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_fuse[] =
	"trim fuse NETWORK.yaml ARCH.yaml [--layers FIRST:LAST] [--budget-dsp N] [--mapper [--mapper-goal energy|delay|edp] [--threads N] [--time-limit S] [--gap G]] "
	"[--parallel LAYER=P[,LAYER=P...]] [--max-parallel P] "
	"[--goal offchip|cycles|dsp|onchip|energy] [--plan GROUPS] [--table FILE] "
	"[--format table|json]";

/* Apply "conv1_1=3,conv2_2=64" to the chain. */
static int set_parallel(trim_fusion *f, const char *spec)
{
	char buf[1024];
	if (strlen(spec) >= sizeof buf)
		return trim_cli_usage("fuse", usage_fuse, "--parallel: value too long");
	snprintf(buf, sizeof buf, "%s", spec);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end = NULL;
		if (!eq)
			return trim_cli_usage("fuse", usage_fuse, "--parallel takes LAYER=P, got '%s'",
			                      tok);
		*eq = '\0';
		long long p = strtoll(eq + 1, &end, 10);
		if (!eq[1] || *end)
			return trim_cli_usage("fuse", usage_fuse, "--parallel %s: '%s' is not an integer",
			                      tok, eq + 1);
		int rc = trim_fusion_set_parallelism(f, tok, p);
		if (rc)
			return trim_cli_fail(rc);
	}
	return 0;
}

// trim-cli: fuse: inter-layer fusion (DeCoILFNet): every grouping of a CONV/POOL chain, Pareto set, best plan
/* Layer-by-layer execution of the chain evaluated by the mapper (inference,
 * one image): appended to the fusion report (a "mapper" object in JSON), with
 * how sure each layer's mapping is (exact, gap, lower bound) and the chain's. */
static int compare_mapper(const trim_network *net, const trim_arch *arch, const trim_energy *tab,
                          const trim_fusion *f, const trim_cli_mapopts *mo, int format, char **text)
{
	static const char *const goals[] = {"energy", "delay", "edp"};
	trim_workloads *w = NULL;
	trim_neteval *ne = NULL;
	size_t nl = trim_fusion_layer_count(f);
	int rc = trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0);
	if (rc == 0)
		rc = trim_neteval_create(&ne, net, w, arch, tab);
	if (rc == 0)
		rc = trim_neteval_set_layers(ne, trim_fusion_layer_name(f, 0), trim_fusion_layer_name(f, nl - 1));
	if (rc == 0)
		rc = trim_neteval_set_int(ne, TRIM_NET_GOAL, mo->goal);
	if (rc == 0)
		rc = trim_neteval_set_int(ne, TRIM_NET_THREADS, mo->threads);
	if (rc == 0)
		rc = trim_neteval_set_int(ne, TRIM_NET_MAX_MAPPINGS, mo->max_mappings);
	if (rc == 0 && mo->time_limit > 0)
		rc = trim_neteval_set_double(ne, TRIM_NET_TIME_LIMIT, mo->time_limit);
	if (rc == 0 && mo->gap > 0)
		rc = trim_neteval_set_double(ne, TRIM_NET_GAP, mo->gap);
	if (rc == 0)
		rc = trim_neteval_run(ne);
	size_t len = strlen(*text), cap = len + 4096 + 384 * nl;
	char *out = rc == 0 ? malloc(cap) : NULL;
	if (rc == 0 && !out)
		rc = TRIM_ENOMEM;
	if (rc == 0) {
		size_t at = len, k = 0;
		if (format == TRIM_FORMAT_JSON) {
			while (at > 0 && (*text)[at - 1] != '}')
				at--;
			at = at ? at - 1 : 0; /* before the closing brace */
		}
		memcpy(out, *text, at);
		k = at;
		double cyc = 0, pj = 0, off = 0;
		if (format == TRIM_FORMAT_JSON)
			k += (size_t)snprintf(out + k, cap - k, ",\n \"mapper\": {\"goal\": \"%s\", \"layers\": [",
			                      goals[mo->goal]);
		else
			k += (size_t)snprintf(out + k, cap - k,
			                      "\nlayer by layer, evaluated by the mapper (goal %s):\n"
			                      "%-16s %14s %14s %16s %6s %8s %14s\n",
			                      goals[mo->goal], "layer", "cycles", "energy pJ", "off-chip bytes", "exact",
			                      "gap", "lower bound");
		int first = 1;
		for (size_t i = 0; i < trim_neteval_count(ne); i++) {
			double v[TRIM_NF_COUNT];
			if (trim_neteval_workload(ne, i, v, TRIM_NF_COUNT) || v[TRIM_NF_MAPPED] == 0)
				continue;
			cyc += v[TRIM_NF_CYCLES];
			pj += v[TRIM_NF_ENERGY_PJ];
			off += v[TRIM_NF_OFFCHIP_BYTES];
			const char *name = trim_workloads_intra_layer(w, i);
			if (format == TRIM_FORMAT_JSON)
				k += (size_t)snprintf(out + k, cap - k,
				                      "%s{\"layer\": \"%s\", \"cycles\": %.17g, \"energy_pj\": "
				                      "%.17g, \"offchip_bytes\": %.17g, \"exact\": %s, \"gap\": %.17g, "
				                      "\"lower_bound\": %.17g}",
				                      first ? "" : ", ", name, v[TRIM_NF_CYCLES],
				                      v[TRIM_NF_ENERGY_PJ], v[TRIM_NF_OFFCHIP_BYTES],
				                      v[TRIM_NF_EXACT] == 1 ? "true" : "false", v[TRIM_NF_GAP],
				                      v[TRIM_NF_LOWER_BOUND]);
			else
				k += (size_t)snprintf(out + k, cap - k, "%-16s %14.6g %14.6g %16.6g %6s %7.3g%% %14.6g\n",
				                      name, v[TRIM_NF_CYCLES], v[TRIM_NF_ENERGY_PJ],
				                      v[TRIM_NF_OFFCHIP_BYTES], v[TRIM_NF_EXACT] == 1 ? "yes" : "no",
				                      100 * v[TRIM_NF_GAP], v[TRIM_NF_LOWER_BOUND]);
			first = 0;
		}
		double lb = 0, gap = 0;
		int exact = trim_neteval_exact(ne, &lb, &gap) == 1;
		if (format == TRIM_FORMAT_JSON)
			snprintf(out + k, cap - k,
			         "], \"cycles\": %.17g, \"energy_pj\": %.17g, \"offchip_bytes\": %.17g, "
			         "\"exact\": %s, \"gap\": %.17g, \"lower_bound\": %.17g}\n}\n",
			         cyc, pj, off, exact ? "true" : "false", gap, lb);
		else if (exact)
			snprintf(out + k, cap - k, "%-16s %14.6g %14.6g %16.6g\n"
			         "search: exact (every layer's mapping proven optimal for the goal)\n",
			         "total", cyc, pj, off);
		else
			snprintf(out + k, cap - k, "%-16s %14.6g %14.6g %16.6g\n"
			         "search: NOT proven optimal (--time-limit or --gap): the layers marked no may have "
			         "better mappings; proven lower bound %.6g, gap %.3g%%\n",
			         "total", cyc, pj, off, lb, 100 * gap);
		trim_string_free(*text);
		*text = out;
	}
	trim_neteval_free(ne);
	trim_workloads_free(w);
	return rc;
}

int trim_cli_fuse(int argc, char **argv)
{
	if (trim_cli_repeated("fuse", usage_fuse, argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	const char *files[2] = {NULL, NULL}, *layers = NULL, *parallel = NULL, *plan = NULL;
	const char *table = NULL;
	int format = TRIM_FORMAT_TABLE, goal = TRIM_FUSION_GOAL_OFFCHIP, nfiles = 0, mapper = 0;
	trim_cli_mapopts mo;
	trim_cli_mapopts_init(&mo);
	mo.goal = 1; /* the mapper's layer-by-layer comparison: fastest mappings */
	int64_t budget = -1, maxp = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf("usage: %s\n\nEvaluates every partition of the chain of CONV and POOL "
			       "layers FIRST..LAST\ninto fused groups (docs/fusion.md) on the "
			       "architecture, under the DSP budget\n(default: the device's DSPs), and "
			       "prints the Pareto set over (off-chip bytes,\nparallel MACs, on-chip "
			       "bytes, cycles), the best plan for --goal and layer-by-layer\n"
			       "execution. --plan evaluates one plan instead: groups of layers, layers "
			       "separated\nby ',' and groups by '|' (\"conv1_1,conv1_2|pool1\").\n",
			       usage_fuse);
			return 0;
		} else if (!strcmp(a, "--layers") || !strcmp(a, "--parallel") || !strcmp(a, "--plan") ||
		           !strcmp(a, "--goal") || !strcmp(a, "--table")) {
			if (!v)
				return trim_cli_usage("fuse", usage_fuse, "%s needs a value", a);
			if (!strcmp(a, "--layers"))
				layers = v;
			else if (!strcmp(a, "--parallel"))
				parallel = v;
			else if (!strcmp(a, "--plan"))
				plan = v;
			else if (!strcmp(a, "--table"))
				table = v;
			else {
				goal = trim_fusion_goal_from_name(v);
				if (goal < 0)
					return trim_cli_usage("fuse", usage_fuse, "--goal takes offchip, cycles, "
					                      "dsp, onchip or energy; got '%s'", v);
			}
			i++;
		} else if (!strcmp(a, "--mapper")) {
			mapper = 1;
		} else if (!strcmp(a, "--mapper-goal") || !strcmp(a, "--threads") ||
		           !strcmp(a, "--max-mappings") || !strcmp(a, "--time-limit") || !strcmp(a, "--gap")) {
			if (!v)
				return trim_cli_usage("fuse", usage_fuse, "%s needs a value", a);
			if (trim_cli_mapopt("fuse", usage_fuse, strcmp(a, "--mapper-goal") ? a : "--goal", v,
			                    &mo) < 0)
				return TRIM_CLI_EXIT_USAGE;
			i++;
		} else if (!strcmp(a, "--budget-dsp")) {
			if (trim_cli_int("fuse", usage_fuse, a, v, 0, (int64_t)1 << 40, &budget))
				return TRIM_CLI_EXIT_USAGE;
			i++;
		} else if (!strcmp(a, "--max-parallel")) {
			if (trim_cli_int("fuse", usage_fuse, a, v, 0, (int64_t)1 << 30, &maxp))
				return TRIM_CLI_EXIT_USAGE;
			i++;
		} else if (!strcmp(a, "--format")) {
			if (trim_cli_format("fuse", usage_fuse, v, 0, &format))
				return TRIM_CLI_EXIT_USAGE;
			i++;
		} else if (a[0] == '-' && a[1]) {
			return trim_cli_unknown_option("fuse", usage_fuse, a);
		} else if (nfiles < 2) {
			files[nfiles++] = a;
		} else {
			return trim_cli_usage("fuse", usage_fuse, "one network and one architecture only");
		}
	}
	if (nfiles < 2)
		return trim_cli_usage("fuse", usage_fuse, "needs a network file and an architecture "
		                      "file");
	char first[256] = "", last[256] = "";
	if (layers) {
		const char *colon = strchr(layers, ':');
		if (!colon || colon == layers || !colon[1] || strlen(layers) >= sizeof first)
			return trim_cli_usage("fuse", usage_fuse, "--layers takes FIRST:LAST, got '%s'",
			                      layers);
		snprintf(first, sizeof first, "%.*s", (int)(colon - layers), layers);
		snprintf(last, sizeof last, "%s", colon + 1);
	}

	trim_network *net = NULL;
	trim_arch *arch = NULL;
	trim_energy *tab = NULL;
	trim_fusion *f = NULL;
	trim_fusion_plan *p = NULL;
	trim_fusion_result *r = NULL;
	char *text = NULL;
	int rc = trim_network_load(&net, files[0]);
	if (rc == 0)
		rc = trim_arch_load(&arch, files[1]);
	if (rc == 0 && table)
		rc = trim_energy_load(&tab, table);
	if (rc == 0)
		rc = trim_fusion_create(&f, net, layers ? first : NULL, layers ? last : NULL);
	if (rc == 0)
		rc = trim_fusion_set_hardware(f, arch, tab);
	if (rc == 0 && budget >= 0)
		rc = trim_fusion_set_param(f, TRIM_FUSION_BUDGET_DSP, (double)budget);
	if (rc == 0 && maxp >= 0)
		rc = trim_fusion_set_max_parallelism(f, maxp);
	if (rc) {
		int code = trim_cli_fail(rc);
		trim_fusion_free(f);
		trim_energy_free(tab);
		trim_arch_free(arch);
		trim_network_free(net);
		return code;
	}
	int ex = 0;
	if (parallel && (ex = set_parallel(f, parallel)) != 0)
		goto out;
	if (plan) {
		rc = trim_fusion_evaluate(&p, f, plan);
		if (rc == 0)
			rc = trim_fusion_plan_report(p, format, &text);
	} else {
		rc = trim_fusion_explore(&r, f, goal);
		if (rc == 0)
			rc = trim_fusion_result_report(r, format, &text);
	}
	if (rc == 0 && mapper)
		rc = compare_mapper(net, arch, tab, f, &mo, format, &text);
	if (rc)
		ex = trim_cli_fail(rc);
	else
		ex = trim_cli_print(text);
out:
	trim_fusion_result_free(r);
	trim_fusion_plan_free(p);
	trim_fusion_free(f);
	trim_energy_free(tab);
	trim_arch_free(arch);
	trim_network_free(net);
	return ex;
}
