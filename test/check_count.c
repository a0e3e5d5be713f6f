/* Counting rules (enum trim_count; docs/mapping.md, "Differences from
 * Timeloop's counting"): TRIM_COUNT_TIMELOOP through the real code paths of
 * trim_eval_mapping_count, the search (TRIM_SEARCH_COUNT), the network
 * evaluation (TRIM_NET_COUNT) and the CLI (--count), on Timeloop's own
 * Eyeriss-like files (test/data/timeloop-v4/) and the small cases of
 * test/data/timeloop-diff/. The search against brute force under the rules
 * is test/check_search_count.c (test_search_count_timeloop). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcase_util.h"
#include "trim.h"

typedef struct {
	trim_network *net;
	trim_workloads *ws;
	size_t i;
	trim_arch *arch;
	trim_energy *ert; /* NULL: the architecture's technology */
} inputs;

static void load(inputs *in, const char *dir, const char *layer, int with_ert)
{
	char p[256];
	memset(in, 0, sizeof *in);
	snprintf(p, sizeof p, "%s/net.yaml", dir);
	ck_assert_msg(trim_network_load(&in->net, p) == 0, "%s", trim_last_error());
	ck_assert_int_eq(trim_workloads_create(&in->ws, in->net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_int_eq(trim_workloads_find(in->ws, layer, TRIM_PHASE_FW, &in->i), 0);
	snprintf(p, sizeof p, "%s/arch.yaml", dir);
	ck_assert_msg(trim_arch_load(&in->arch, p) == 0, "%s", trim_last_error());
	snprintf(p, sizeof p, "%s/ERT.yaml", dir);
	if (with_ert)
		ck_assert_msg(trim_energy_load(&in->ert, p) == 0, "%s", trim_last_error());
}

static void unload(inputs *in)
{
	trim_energy_free(in->ert);
	trim_arch_free(in->arch);
	trim_workloads_free(in->ws);
	trim_network_free(in->net);
}

enum { NL = 8, BD = NL * 3 * TRIM_ACT_COUNT };
#define AT(l, t, act) (((l) * 3 + (t)) * TRIM_ACT_COUNT + (act))

static double level_pj(const double *e, int l)
{
	double s = 0;
	for (int k = 0; k < 3 * TRIM_ACT_COUNT; k++)
		s += e[l * 3 * TRIM_ACT_COUNT + k];
	return s;
}

/* Timeloop's Eyeriss-like arch and ERT, both unchanged, and timeloop-mapper's
 * best mapping of conv1: under TRIM_COUNT_TIMELOOP the cycles and every
 * count of Timeloop's (README.md) are the evaluation's, every component of
 * Timeloop's breakdown is what it charges, to its 2 printed decimals in
 * fJ/compute, and the energy is Timeloop's 59.28 uJ. Where the rules
 * differ (1/5: multicast per fan-out; 4: windows only along the innermost
 * loop; 3: drains), libtrim's counts are its own. */
START_TEST(test_count_timeloop_v4)
{
	inputs in;
	load(&in, "test/data/timeloop-v4", "conv", 1);
	trim_mapping *m = NULL;
	ck_assert_msg(trim_mapping_load(&m, in.arch, "test/data/timeloop-v4/map.yaml") == 0, "%s", trim_last_error());
	trim_eval *lt = NULL, *tl = NULL, *dflt = NULL;
	ck_assert_int_eq(trim_eval_mapping(&dflt, in.ws, in.i, in.arch, in.ert, m), 0);
	ck_assert_int_eq(trim_eval_mapping_count(&lt, in.ws, in.i, in.arch, in.ert, m, TRIM_COUNT_LIBTRIM), 0);
	ck_assert_msg(trim_eval_mapping_count(&tl, in.ws, in.i, in.arch, in.ert, m, TRIM_COUNT_TIMELOOP) == 0, "%s",
	              trim_last_error());
	/* libtrim's rules are trim_eval_mapping's, to the bit */
	ck_assert(trim_eval_energy_pj(lt) == trim_eval_energy_pj(dflt));
	/* Timeloop's cycles under both (the GLB's drains, 401,408, take no
	 * read bandwidth under Timeloop's rules, so its 1,354,752 reads fit) */
	ck_assert_double_eq(trim_eval_cycles(tl), 86016);
	ck_assert(trim_eval_cycles(tl) == trim_eval_cycles(lt));
	static double cl[BD], el[BD], ct[BD], et[BD];
	ck_assert_int_eq(trim_eval_breakdown(lt, cl, el, BD), 0);
	ck_assert_int_eq(trim_eval_breakdown(tl, ct, et, BD), 0);
	enum { DRAM = 0, GLB = 1, IF = 4, WT = 5, PS = 6, MAC = 7, IN = 0, W = 1, OUT = 2 };
	/* README.md's counts: DRAM reads and updates; the GLB's input reads
	 * and fills, output updates; per spad instance (126 used) */
	const struct {
		int l, t, act;
		double timeloop, libtrim;
	} want[] = {
		{DRAM, W, TRIM_ACT_READS, 13824, 13824},
		{DRAM, IN, TRIM_ACT_READS, 157296, 156579},  /* rule 4: 16 whole tiles of 9,831 */
		{DRAM, OUT, TRIM_ACT_UPDATES, 401408, 401408},
		{GLB, IN, TRIM_ACT_READS, 1354752, 935424},  /* rules 1/5: no sharing across the columns */
		{GLB, IN, TRIM_ACT_FILLS, 157296, 156579},
		{GLB, OUT, TRIM_ACT_UPDATES, 401408, 401408},
		{IF, IN, TRIM_ACT_READS, 86016.0 * 126, 86016.0 * 126},
		{IF, IN, TRIM_ACT_FILLS, 10752.0 * 126, 10752.0 * 126},
		{WT, W, TRIM_ACT_READS, 86016.0 * 126, 86016.0 * 126},
		{WT, W, TRIM_ACT_FILLS, 1536.0 * 126, 1536.0 * 126},
		{PS, OUT, TRIM_ACT_READS, 57344.0 * 126, 57344.0 * 126},
		{PS, OUT, TRIM_ACT_UPDATES, 86016.0 * 126, 86016.0 * 126},
	};
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		const int at = AT(want[k].l, want[k].t, want[k].act);
		ck_assert_msg(ct[at] == want[k].timeloop && cl[at] == want[k].libtrim,
		              "level %d tensor %d count %d: %.17g (Timeloop %.17g), libtrim's %.17g (%.17g)", want[k].l,
		              want[k].t, want[k].act, ct[at], want[k].timeloop, cl[at], want[k].libtrim);
	}
	/* rule 3: the drains are counted (psum_spad's 3,612,672, the GLB's
	 * 401,408) but not charged; libtrim charges them as reads */
	ck_assert_double_eq(ct[AT(PS, OUT, TRIM_ACT_DRAINS)], 3612672);
	ck_assert_double_eq(ct[AT(GLB, OUT, TRIM_ACT_DRAINS)], 401408);
	ck_assert_double_eq(et[AT(PS, OUT, TRIM_ACT_DRAINS)], 0);
	ck_assert_double_eq(et[AT(GLB, OUT, TRIM_ACT_DRAINS)], 0);
	ck_assert(el[AT(PS, OUT, TRIM_ACT_DRAINS)] > 0 && el[AT(GLB, OUT, TRIM_ACT_DRAINS)] > 0);
	/* rule 6: no leakage for the MACs; the spads' on their 126 used instances of 168 */
	ck_assert(el[AT(MAC, 0, TRIM_ACT_STATIC)] > 0);
	ck_assert_double_eq(et[AT(MAC, 0, TRIM_ACT_STATIC)], 0);
	for (int l = IF; l <= PS; l++)
		ck_assert_msg(fabs(et[AT(l, 0, TRIM_ACT_STATIC)] / el[AT(l, 0, TRIM_ACT_STATIC)] - 126.0 / 168) < 1e-12,
		              "level %d: leakage %.17g, libtrim's %.17g", l, et[AT(l, 0, TRIM_ACT_STATIC)],
		              el[AT(l, 0, TRIM_ACT_STATIC)]);
	const double N = 10838016;
	ck_assert_int_eq(trim_eval_macs(tl), (int64_t)N);
	const int lv[6] = {MAC, PS, WT, IF, GLB, DRAM};
	const double printed[6] = {207.69, 386.77, 1006.69, 112.37, 375.27, 3380.86};
	double sum = 0;
	for (int k = 0; k < 6; k++) {
		double fj = level_pj(et, lv[k]) / N * 1000;
		ck_assert_msg(fabs(fj - printed[k]) < 0.006, "level %d: %.4f fJ/compute, Timeloop %.2f", lv[k], fj,
		              printed[k]);
		sum += level_pj(et, lv[k]);
	}
	/* the networks charge nothing here, and the levels add up to the energy */
	ck_assert_double_eq(level_pj(et, 2) + level_pj(et, 3), 0);
	ck_assert_msg(fabs(sum / trim_eval_energy_pj(tl) - 1) < 1e-12, "levels %.17g, energy %.17g", sum,
	              trim_eval_energy_pj(tl));
	/* 59.28 uJ, Timeloop's energy (libtrim's rules: 60.14) */
	ck_assert_msg(fabs(trim_eval_energy_pj(tl) / 59.28e6 - 1) < 1e-4, "%.9g pJ", trim_eval_energy_pj(tl));
	ck_assert_msg(fabs(trim_eval_energy_pj(lt) / 60.14e6 - 1) < 1e-4, "%.9g pJ", trim_eval_energy_pj(lt));
	/* the reports say which rules counted */
	char *j = NULL;
	ck_assert_int_eq(trim_eval_report(tl, TRIM_FORMAT_JSON, &j), 0);
	ck_assert_ptr_nonnull(strstr(j, "\"count\": \"timeloop\""));
	trim_string_free(j);
	ck_assert_int_eq(trim_eval_report(tl, TRIM_FORMAT_TABLE, &j), 0);
	ck_assert_ptr_nonnull(strstr(j, "counted as Timeloop counts"));
	trim_string_free(j);
	ck_assert_int_eq(trim_eval_report(lt, TRIM_FORMAT_JSON, &j), 0);
	ck_assert_ptr_null(strstr(j, "\"count\": \""));
	trim_string_free(j);
	/* a value that names no rules */
	trim_eval *bad = NULL;
	ck_assert_int_eq(trim_eval_mapping_count(&bad, in.ws, in.i, in.arch, in.ert, m, 2), TRIM_ERANGE);
	ck_assert_ptr_null(bad);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "counting rules 2"));
	trim_eval_free(dflt);
	trim_eval_free(lt);
	trim_eval_free(tl);
	trim_mapping_free(m);
	unload(&in);
}
END_TEST

/* Rules 1 and 4 on test/data/timeloop-diff/conv-window.yaml (docs/mapping.md):
 * two columns whose input tiles overlap by two rows, DRAM steps along F
 * (inner) and E (outer). Hand counts: the GLB's input fills 16 + 8 + 12 + 8
 * (libtrim: the E step keeps the 2 x 2 corner) against 16 + 8 + 16 + 8; its
 * reads per step the union of the columns' tiles (16, 8, 14, 8 = 46)
 * against both tiles (24, 12, 24, 12 = 72); the RFs' fills 12 + 6 + 10 + 6
 * per column against 12 + 6 + 12 + 6. */
START_TEST(test_count_timeloop_window)
{
	inputs in;
	load(&in, "test/data/timeloop-diff", "conv", 0);
	trim_mapping *m = NULL;
	ck_assert_msg(trim_mapping_load(&m, in.arch, "test/data/timeloop-diff/conv-window.yaml") == 0, "%s",
	              trim_last_error());
	enum { GLB = 1, RF = 3, IN = 0 };
	const double want[2][3] = {{44, 46, 68}, {48, 72, 72}}; /* GLB fills, GLB reads, RF fills */
	for (int c = 0; c < 2; c++) {
		trim_eval *e = NULL;
		ck_assert_int_eq(trim_eval_mapping_count(&e, in.ws, in.i, in.arch, NULL, m, c), 0);
		static double cnt[BD], en[BD];
		ck_assert_int_eq(trim_eval_breakdown(e, cnt, en, BD), 0);
		const double got[3] = {cnt[AT(GLB, IN, TRIM_ACT_FILLS)], cnt[AT(GLB, IN, TRIM_ACT_READS)],
		                       cnt[AT(RF, IN, TRIM_ACT_FILLS)]};
		for (int k = 0; k < 3; k++)
			ck_assert_msg(got[k] == want[c][k], "rules %d, count %d: %.17g, by hand %.17g", c, k, got[k],
			              want[c][k]);
		trim_eval_free(e);
	}
	trim_mapping_free(m);
	unload(&in);
}
END_TEST

START_TEST(test_count_names)
{
	int c = -1;
	ck_assert_str_eq(trim_count_name(TRIM_COUNT_LIBTRIM), "libtrim");
	ck_assert_str_eq(trim_count_name(TRIM_COUNT_TIMELOOP), "timeloop");
	ck_assert_ptr_null(trim_count_name(2));
	ck_assert_ptr_null(trim_count_name(-1));
	ck_assert_int_eq(trim_count_parse("timeloop", &c), 0);
	ck_assert_int_eq(c, TRIM_COUNT_TIMELOOP);
	ck_assert_int_eq(trim_count_parse("libtrim", &c), 0);
	ck_assert_int_eq(c, TRIM_COUNT_LIBTRIM);
	ck_assert_int_eq(trim_count_parse("Timeloop", &c), TRIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "libtrim or timeloop"));
}
END_TEST

/* The search under the switch: its best mapping evaluated under the same
 * rules gives its reported energy and passes trim eval's check; the rules
 * change the answer's energy; the option is checked and reported. */
START_TEST(test_count_search)
{
	inputs in;
	load(&in, "test/data/timeloop-diff", "conv", 0);
	double e[2];
	for (int c = 0; c < 2; c++) {
		trim_search *s = NULL;
		ck_assert_int_eq(trim_search_create(&s, in.ws, in.i, in.arch, NULL), 0);
		if (c == 0)
			ck_assert_int_eq(trim_search_set_int(s, TRIM_SEARCH_COUNT, 2), TRIM_ERANGE);
		ck_assert_int_eq(trim_search_set_int(s, TRIM_SEARCH_COUNT, c), 0);
		ck_assert_msg(trim_search_run(s) == 0, "%s", trim_last_error());
		trim_mapping *best = NULL;
		ck_assert_int_eq(trim_search_top_mapping(s, 0, &best), 0);
		ck_assert_int_eq(trim_mapping_check(best, in.ws, in.i, in.arch), 0);
		trim_eval *ev = NULL;
		ck_assert_int_eq(trim_eval_mapping_count(&ev, in.ws, in.i, in.arch, NULL, best, c), 0);
		double cost = 0;
		uint64_t idx = 0;
		ck_assert_int_eq(trim_search_top(s, 0, &cost, &idx), 0);
		ck_assert_double_eq(trim_eval_energy_pj(ev), cost);
		e[c] = trim_eval_energy_pj(ev);
		char *j = NULL;
		ck_assert_int_eq(trim_search_report(s, TRIM_FORMAT_JSON, &j), 0);
		ck_assert_int_eq(strstr(j, "\"count\": \"timeloop\"") != NULL, c);
		trim_string_free(j);
		trim_eval_free(ev);
		trim_mapping_free(best);
		trim_search_free(s);
	}
	/* Timeloop's rules change the answer's energy */
	ck_assert_msg(e[1] != e[0], "Timeloop's rules %.17g, libtrim's %.17g", e[1], e[0]);
	unload(&in);
}
END_TEST

/* A network under the switch (TRIM_NET_COUNT): every workload's best
 * mapping evaluates under the same rules to the figures the network
 * reports, and the total is not libtrim's. */
START_TEST(test_count_network)
{
	inputs in;
	load(&in, "test/data/timeloop-diff", "conv", 0);
	double total[2];
	for (int c = 0; c < 2; c++) {
		trim_neteval *ne = NULL;
		ck_assert_int_eq(trim_neteval_create(&ne, in.net, in.ws, in.arch, NULL), 0);
		if (c == 0) {
			ck_assert_int_eq(trim_neteval_set_int(ne, TRIM_NET_COUNT, 2), TRIM_ERANGE);
			ck_assert_int_eq(trim_neteval_set_double(ne, TRIM_NET_COUNT, 1), TRIM_EINVAL);
			ck_assert_str_eq(trim_neteval_option_name(TRIM_NET_COUNT), "TRIM_NET_COUNT");
		}
		ck_assert_int_eq(trim_neteval_set_int(ne, TRIM_NET_COUNT, c), 0);
		ck_assert_msg(trim_neteval_run(ne) == 0, "%s", trim_last_error());
		size_t checked = 0;
		for (size_t i = 0; i < trim_neteval_count(ne); i++) {
			double f[TRIM_NF_COUNT];
			trim_mapping *m = NULL;
			ck_assert_int_eq(trim_neteval_workload(ne, i, f, TRIM_NF_COUNT), 0);
			if (f[TRIM_NF_MAPPED] != 1 || trim_neteval_mapping(ne, i, &m) != 0)
				continue;
			trim_eval *e = NULL;
			ck_assert_int_eq(trim_eval_mapping_count(&e, in.ws, i, in.arch, NULL, m, c), 0);
			ck_assert_msg(trim_eval_energy_pj(e) == f[TRIM_NF_ENERGY_PJ], "workload %zu: %.17g, network %.17g", i,
			              trim_eval_energy_pj(e), f[TRIM_NF_ENERGY_PJ]);
			ck_assert(trim_eval_cycles(e) == f[TRIM_NF_CYCLES]);
			checked++;
			trim_eval_free(e);
			trim_mapping_free(m);
		}
		ck_assert_uint_ge(checked, 2);
		total[c] = trim_neteval_energy_pj(ne);
		trim_neteval_free(ne);
	}
	ck_assert_msg(total[1] != total[0], "Timeloop's rules %.17g, libtrim's %.17g", total[1], total[0]);
	unload(&in);
}
END_TEST

/* The CLI: trim eval, map and network take --count, and say so. */
START_TEST(test_count_cli)
{
	int st = 0;
	char *o = tu_capture("eval test/data/timeloop-v4/net.yaml test/data/timeloop-v4/arch.yaml --layer conv "
	                     "--mapping test/data/timeloop-v4/map.yaml --table test/data/timeloop-v4/ERT.yaml "
	                     "--count timeloop --format json",
	                     0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(o, "\"count\": \"timeloop\""));
	ck_assert_ptr_nonnull(strstr(o, "\"energy_pj\": 59280"));
	free(o);
	o = tu_capture("eval test/data/timeloop-v4/net.yaml test/data/timeloop-v4/arch.yaml --layer conv "
	               "--mapping test/data/timeloop-v4/map.yaml --count timelop",
	               1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_ptr_nonnull(strstr(o, "timeloop"));
	free(o);
	o = tu_capture("map test/data/timeloop-diff/net.yaml test/data/timeloop-diff/arch.yaml --layer conv --quiet "
	               "--count timeloop",
	               0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(o, "counted as Timeloop counts"));
	free(o);
	o = tu_capture("network test/data/timeloop-diff/net.yaml test/data/timeloop-diff/arch.yaml --quiet "
	               "--count timeloop --format json",
	               0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(o, "\"count\": \"timeloop\""));
	free(o);
	/* searches kept by --out under one set of rules are not read back under the other */
	char dir[] = "/tmp/trim-count-XXXXXX", args[512];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int k = 0; k < 3; k++) {
		snprintf(args, sizeof args, "network test/data/timeloop-diff/net.yaml test/data/timeloop-diff/arch.yaml "
		         "--quiet --out %s%s", dir, k ? " --count timeloop" : "");
		o = tu_capture(args, 1, &st);
		ck_assert_int_eq(st, 0);
		if (k == 1)
			ck_assert_msg(strstr(o, "0 searches read back") && strstr(o, "2 stale"), "%s", o);
		if (k == 2)
			ck_assert_msg(strstr(o, "2 searches read back") && !strstr(o, "stale"), "%s", o);
		free(o);
	}
	snprintf(args, sizeof args, "rm -rf %s", dir);
	ck_assert_int_eq(system(args), 0);
	o = tu_capture("network test/data/timeloop-diff/net.yaml test/data/timeloop-diff/arch.yaml --quiet "
	               "--count timeloop --fuse auto",
	               1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_ptr_nonnull(strstr(o, "--count timeloop"));
	free(o);
}
END_TEST

Suite *count_suite(void)
{
	Suite *s = suite_create("count");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_count_timeloop_v4);
	tcase_add_test(tc, test_count_names);
	tcase_add_test(tc, test_count_timeloop_window);
	tcase_add_test(tc, test_count_search);
	tcase_add_test(tc, test_count_network);
	tcase_add_test(tc, test_count_cli);
	suite_add_tcase(s, tc);
	return s;
}
