/*
 * make bench, part 3: fused tiles (docs/fusion.md, "Fused tiles", issue
 * #33) through the public API (trim_fusedtiles_report), every chain of a
 * network fused where it pays, exact, energy goal, 2 threads: wall and CPU
 * seconds, and the DRAM bytes of the fused plan over the layer-by-layer
 * plan's (the chains only). A plan that is not proven exact prints -1 for
 * its seconds. TRIM_BENCH_FUSED=0 skips this part.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "trim.h"

/* The number after `"key": ` at or after p, or -1. */
static double json_num(const char *p, const char *key)
{
	char k[64];
	snprintf(k, sizeof k, "\"%s\": ", key);
	const char *q = p ? strstr(p, k) : NULL;
	return q ? atof(q + strlen(k)) : -1;
}

/* One network: key_fused_seconds (wall, -1 if not exact), its CPU seconds
 * and the run's wall seconds; ratio_key (if not NULL): the DRAM bytes of the
 * fused plan over the layer-by-layer plan's, over every chain. */
static void run(const char *key, const char *ratio_key, const char *netf, const char *archf)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	char *out = NULL;
	int rc = trim_network_load(&net, netf);
	if (!rc)
		rc = trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 1, 0);
	if (!rc)
		rc = trim_arch_load(&a, archf);
	double w0 = wall(), c0 = cpu();
	if (!rc)
		rc = trim_fusedtiles_report(net, w, a, NULL, "all", NULL, TRIM_GOAL_ENERGY, 2, TRIM_FORMAT_JSON, &out);
	double dw = wall() - w0, dc = cpu() - c0;
	if (rc) {
		fprintf(stderr, "bench: fused %s on %s: %s\n", netf, archf, trim_last_error());
	} else {
		const char *t = strstr(out, "\"totals\"");
		const char *lbl = t ? strstr(t, "\"layer_by_layer\"") : NULL;
		int exact = t && strstr(t, "\"exact\": true") != NULL;
		double fused = json_num(t, "dram_bytes"), by_layer = json_num(lbl, "dram_bytes");
		printf("%s_fused_seconds: %.3f\n", key, exact ? dw : -1.0);
		printf("%s_fused_cpu_seconds: %.3f\n", key, dc);
		printf("%s_fused_wall_seconds_run: %.3f\n", key, dw);
		if (ratio_key)
			printf("%s: %.4f\n", ratio_key, by_layer > 0 ? fused / by_layer : -1.0);
		printf("%s_fused_groups: %.0f\n", key, json_num(t, "fused_groups"));
		fflush(stdout);
	}
	trim_string_free(out);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}

int bench_fused(void);
int bench_fused(void)
{
	const char *skip = getenv("TRIM_BENCH_FUSED");
	if (skip && !strcmp(skip, "0"))
		return 0;
	printf("\nfused tiles, every chain, exact, energy goal, 2 threads:\n");
	run("gpt2_inference", "gpt2_fused_dram_ratio", "models/networks/gpt2-small.yaml", "models/arch/tpu-v4i-like.yaml");
	run("resnet18", "resnet18_fused_dram_ratio", "models/networks/resnet18.yaml", "models/arch/eyeriss.yaml");
	return 0;
}
