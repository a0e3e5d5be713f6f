/*
 * The public side of fused tiles (include/trim/fusedtiles.h, `trim network
 * --fuse`; docs/fusion.md, "Fused tiles"): the chains of a network, the
 * report's figures by hand, a repeated chain planned once, the same text
 * at any thread count, errors with the nearest names, the CLI's exits.
 * The model and the search: test/check_fusedtiles.c.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcase_util.h"
#include "trim.h"

/* ---- the public report and the CLI ----------------------------------------- */

#define NET_FILE "test/data/networks/mlp-chain.yaml"
#define ARCH_FILE "test/data/arch/fused-glb.yaml"

/* The report of mlp-chain (fc1 -> fc2 -> fc3 -> fc4, fc3 also read by
 * the residual add, so the chain is fc1..fc3) as text; 0 or the code. */
static int report_of(const char *file, int mode, const char *range, const char *level, int goal, int threads,
                     int format, char **text)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_network_load(&net, file), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, mode, 1, 0), 0);
	ck_assert_int_eq(trim_arch_load(&a, ARCH_FILE), 0);
	int rc = trim_fusedtiles_report(net, w, a, NULL, range, level, goal, threads, format, text);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
	return rc;
}

static int report(int mode, const char *range, const char *level, int goal, int threads, int format, char **text)
{
	return report_of(NET_FILE, mode, range, level, goal, threads, format, text);
}

/* The line after "chain K:"'s groups: "  plan: ..." (a copy). */
static char *plan_line(const char *text, int k)
{
	char head[32];
	snprintf(head, sizeof head, "chain %d:", k);
	const char *c = strstr(text, head), *p = c ? strstr(c, "  plan: ") : NULL;
	ck_assert_msg(p != NULL, "no %s in %s", head, text);
	return strndup(p, strcspn(p, "\n"));
}

/* Two identical chains: the second reuses the first's plan, which is what
 * planning it alone gives. */
START_TEST(api_report_reuse)
{
	char *all = NULL, *second = NULL;
	const char *twice = "test/data/networks/mlp-twice.yaml";
	ck_assert_int_eq(report_of(twice, TRIM_MODE_INFERENCE, NULL, NULL, TRIM_GOAL_ENERGY, 1, 0, &all), 0);
	ck_assert_int_eq(report_of(twice, TRIM_MODE_INFERENCE, "fc3:fc4", NULL, TRIM_GOAL_ENERGY, 1, 0, &second), 0);
	char *a1 = plan_line(all, 1), *a2 = plan_line(all, 2), *s2 = plan_line(second, 2), *s1 = plan_line(second, 1);
	ck_assert_str_eq(a1, a2);
	ck_assert_str_eq(a2, s2);
	/* the hand-worked pair's figures: 56 DRAM bytes fused, 104 layer by layer */
	ck_assert_msg(strstr(a1, "DRAM 56 B (layer by layer 104 B, saved 48 B)"), "%s", a1);
	ck_assert_msg(strstr(s1, "saved 0 B"), "%s", s1); /* fc1..fc2 outside the range */
	ck_assert_msg(strstr(all, "total over 2 chain(s): 2 fused group(s)"), "%s", all);
	free(a1);
	free(a2);
	free(s1);
	free(s2);
	trim_string_free(all);
	trim_string_free(second);
}
END_TEST

START_TEST(api_report)
{
	char *t1 = NULL, *t3 = NULL;
	ck_assert_msg(report(TRIM_MODE_INFERENCE, NULL, NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_JSON, &t1) == 0, "%s",
	              trim_last_error());
	/* one chain, fc1..fc3, fused whole in one tile at the 1 KB GLB: X (8
	 * words), W1 (6), W2 (6), W3 (4) and the result (8) cross DRAM, 64
	 * bytes; layer by layer 26 + 26 + 20 words, 144 bytes */
	ck_assert_msg(strstr(t1, "\"layers\": [\"fc1\", \"fc2\", \"fc3\"]"), "%s", t1);
	ck_assert_msg(strstr(t1, "\"first\": \"fc1\", \"fused\": true, \"halo\": \"none\", \"kinds\": 1, \"last\": \"fc3\""),
	              "%s", t1);
	ck_assert_msg(strstr(t1, "\"chains\": 1, "), "%s", t1);
	ck_assert_msg(strstr(t1, "\"dram_bytes\": 64, \"dram_bytes_saved\": 80, \"exact\": true, \"fused_groups\": 1"),
	              "%s", t1);
	ck_assert_msg(strstr(t1, "\"layer_by_layer\": {\"cost\": "), "%s", t1);
	ck_assert_msg(strstr(t1, "\"buffer_level\": \"GLB\""), "%s", t1);
	/* the same bytes at 3 threads */
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, "all", "GLB", TRIM_GOAL_ENERGY, 3, TRIM_FORMAT_JSON, &t3), 0);
	ck_assert_str_eq(t1, t3);
	trim_string_free(t1);
	trim_string_free(t3);
	/* fused only within fc2..fc3: fc1 alone (26 words), fc2..fc3 fused
	 * (12 + 6 + 4 + 8): 112 bytes */
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, "fc2:fc3", NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_JSON, &t1), 0);
	ck_assert_msg(strstr(t1, "\"first\": \"fc1\", \"fused\": false"), "%s", t1);
	ck_assert_msg(strstr(t1, "\"first\": \"fc2\", \"fused\": true, \"halo\": \"none\", \"kinds\": 1, \"last\": \"fc3\""),
	              "%s", t1);
	ck_assert_msg(strstr(t1, "\"dram_bytes\": 112, \"dram_bytes_saved\": 32"), "%s", t1);
	trim_string_free(t1);
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, NULL, NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_TABLE, &t1), 0);
	ck_assert_msg(strstr(t1, "fused     fc1..fc3  tiles N/1 (1)") && strstr(t1, "saved 80 B"), "%s", t1);
	trim_string_free(t1);
	/* errors, with the names to choose from */
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, "fc1:fcx", NULL, TRIM_GOAL_ENERGY, 1, 0, &t1), TRIM_ENOTFOUND);
	ck_assert_msg(strstr(trim_last_error(), "no layer 'fcx'") && strstr(trim_last_error(), "did you mean"), "%s",
	              trim_last_error());
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, "fc3:fc1", NULL, TRIM_GOAL_ENERGY, 1, 0, &t1), TRIM_EINVAL);
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, "fc1", NULL, TRIM_GOAL_ENERGY, 1, 0, &t1), TRIM_EINVAL);
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, NULL, "GLBB", TRIM_GOAL_ENERGY, 1, 0, &t1), TRIM_ENOTFOUND);
	ck_assert_msg(strstr(trim_last_error(), "expected one of: GLB") && strstr(trim_last_error(), "did you mean 'GLB'"),
	              "%s", trim_last_error());
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, NULL, NULL, TRIM_GOAL_EDP, 1, 0, &t1), TRIM_EINVAL);
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, NULL, NULL, TRIM_GOAL_ENERGY, 0, 0, &t1), TRIM_EINVAL);
	ck_assert_int_eq(report(TRIM_MODE_INFERENCE, NULL, NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_CSV, &t1), TRIM_EINVAL);
	ck_assert_ptr_null(t1);
}
END_TEST

/* The number after the first `key` in text (a JSON report). */
static double number_after(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	ck_assert_msg(p != NULL, "no %s in %s", key, text);
	return strtod(p + strlen(key), NULL);
}

/* The energy trim network gives intra workloads first..last of `file`. */
static double network_energy(const char *file, int mode, size_t first, size_t last)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_neteval *ne = NULL;
	ck_assert_int_eq(trim_network_load(&net, file), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, mode, 1, 0), 0);
	ck_assert_int_eq(trim_arch_load(&a, ARCH_FILE), 0);
	ck_assert_int_eq(trim_neteval_create(&ne, net, w, a, NULL), 0);
	ck_assert_int_eq(trim_neteval_run(ne), 0);
	double e = 0, f[TRIM_NF_COUNT];
	for (size_t i = first; i <= last; i++) {
		ck_assert_int_eq(trim_neteval_workload(ne, i, f, TRIM_NF_COUNT), 0);
		e += f[TRIM_NF_ENERGY_PJ];
	}
	trim_neteval_free(ne);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
	return e;
}

/* The layers of a chain are searched with the bytes the network's cache
 * plan holds in the GLB while they run, as trim network searches them: the
 * plan's layer-by-layer cost is trim network's, in inference and (the FW
 * chain) in training, and a group that would need the reserved bytes is
 * not fused (it was, on the whole GLB, before the reservation). */
START_TEST(api_report_reserved)
{
	static const char *const file = "test/data/networks/chain-shortcut-tiny.yaml";
	static const int modes[] = {TRIM_MODE_INFERENCE, TRIM_MODE_TRAINING};
	for (int k = 0; k < 2; k++) {
		char *t = NULL;
		ck_assert_msg(report_of(file, modes[k], NULL, NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_JSON, &t) == 0, "%s",
		              trim_last_error());
		ck_assert_msg(strstr(t, "\"layers\": [\"fc2\", \"fc3\"]"), "%s", t);
		double lbl = number_after(t, "\"layer_by_layer\": {\"cost\": ");
		double ne = network_energy(file, modes[k], 1, 2); /* fc2 FW, fc3 FW */
		ck_assert_msg(fabs(lbl - ne) <= 1e-9 * ne, "mode %d: layer by layer %.17g, trim network %.17g", k, lbl, ne);
		ck_assert_msg(strstr(t, "\"fused_groups\": 0"), "mode %d: %s", k, t);
		trim_string_free(t);
	}
}
END_TEST

/* Training: its FW chains fuse (mlp-chain's fc1..fc3, as in inference) and
 * its BW chains (fc3 -> fc2), but not through a batchnorm, which
 * normalises by the whole batch's statistics in training (conv-bn-tiny's
 * c1..c2 fuses in inference only, and has no BW chain). */
START_TEST(api_report_training)
{
	static const char *const bn = "test/data/networks/conv-bn-tiny.yaml";
	char *t = NULL;
	ck_assert_int_eq(report(TRIM_MODE_TRAINING, NULL, NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_JSON, &t), 0);
	ck_assert_msg(strstr(t, "\"layers\": [\"fc1\", \"fc2\", \"fc3\"], \"lower_bound\": ") && strstr(t, "\"phase\": \"FW\""),
	              "%s", t);
	/* and the BW chain fc3 -> fc2 (fc1 has no BW), fused too */
	ck_assert_msg(strstr(t, "\"layers\": [\"fc3\", \"fc2\"]") && strstr(t, "\"phase\": \"BW\"") &&
	              strstr(t, "\"chains\": 2,") && strstr(t, "\"fused_groups\": 2"), "%s", t);
	trim_string_free(t);
	ck_assert_int_eq(report_of(bn, TRIM_MODE_INFERENCE, NULL, NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_JSON, &t), 0);
	ck_assert_msg(strstr(t, "\"chains\": 1,") && strstr(t, "\"fused_groups\": 1"), "%s", t);
	trim_string_free(t);
	ck_assert_int_eq(report_of(bn, TRIM_MODE_TRAINING, NULL, NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_JSON, &t), 0);
	ck_assert_msg(strstr(t, "\"chains\": 0,"), "%s", t);
	trim_string_free(t);
	/* FIRST:LAST names FW layers; a BW chain fuses only within them too:
	 * conv-pad-tiny's BW c3 -> c2 does with c2:c3, not with c1:c2 (which
	 * fuses the FW c1..c2) */
	static const char *const pad = "test/data/networks/conv-pad-tiny.yaml";
	ck_assert_int_eq(report_of(pad, TRIM_MODE_TRAINING, "c2:c3", NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_JSON, &t), 0);
	ck_assert_msg(strstr(t, "\"first\": \"c3\", \"fused\": true") && strstr(t, "\"phase\": \"BW\""), "%s", t);
	trim_string_free(t);
	ck_assert_int_eq(report_of(pad, TRIM_MODE_TRAINING, "c1:c2", NULL, TRIM_GOAL_ENERGY, 1, TRIM_FORMAT_JSON, &t), 0);
	ck_assert_msg(strstr(t, "\"first\": \"c1\", \"fused\": true") && !strstr(t, "\"first\": \"c3\", \"fused\": true") &&
	              strstr(t, "\"fused_groups\": 1"), "%s", t);
	trim_string_free(t);
}
END_TEST

START_TEST(cli_fuse)
{
	int st = 0;
	char *out = tu_capture("network " NET_FILE " " ARCH_FILE " --fuse all", 0, &st);
	ck_assert_msg(st == 0 && strstr(out, "chain 1: fc1..fc3 (3 layers)") && strstr(out, "saved 80 B"), "%s", out);
	free(out);
	/* a time limit: taken, the same plan on this small chain */
	out = tu_capture("network " NET_FILE " " ARCH_FILE " --fuse all --time-limit 10", 0, &st);
	ck_assert_msg(st == 0 && strstr(out, "chain 1: fc1..fc3 (3 layers)") && strstr(out, "saved 80 B"), "%s", out);
	free(out);
	out = tu_capture("network " NET_FILE " " ARCH_FILE " --fuse fc1:fcx", 1, &st);
	ck_assert_msg(st == 2 && strstr(out, "did you mean"), "%s", out);
	free(out);
	static const char *const refused[] = {"--fuse all --trace t.csv", "--fuse-level GLB", "--fuse all --goal edp",
	                                      "--fuse all --format csv", "--fuse all --fuse-level RF",
	                                      "--fuse all --gap 0.1"};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		char args[256];
		snprintf(args, sizeof args, "network " NET_FILE " " ARCH_FILE " %s", refused[i]);
		out = tu_capture(args, 1, &st);
		ck_assert_msg(st == 2, "%s: exit %d: %s", refused[i], st, out);
		free(out);
	}
}
END_TEST

Suite *fusedtiles_api_suite(void)
{
	Suite *s = suite_create("fusedtiles_api");
	TCase *tc = tcase_create("fusedtiles_api");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, api_report);
	tcase_add_test(tc, api_report_reuse);
	tcase_add_test(tc, api_report_reserved);
	tcase_add_test(tc, api_report_training);
	tcase_add_test(tc, cli_fuse);
	suite_add_tcase(s, tc);
	return s;
}
