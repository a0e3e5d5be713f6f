/*
 * Reports (lib/report/): breakdowns that add up and whose counts are the
 * activity analyst's, temporal utilisation, warnings in every report, the
 * API's error conventions for the network evaluation, and the HTML page in
 * a real headless browser (Debian's chromium).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "activity/activity_int.h"
#include "browser.h"
#include "trim.h"
#include "workload/workload_int.h"

#define NET "test/data/neteval/tiny.yaml"
#define ARCH "test/data/neteval/tiny-arch.yaml"
#define ARCH_SKIP "test/data/neteval/tiny-arch-skip.yaml"

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_arch *arch;
	trim_neteval *ne;
} fx;

static void setup(fx *s, const char *arch, int sparsity)
{
	memset(s, 0, sizeof *s);
	ck_assert(trim_network_load(&s->net, NET) == 0);
	ck_assert(trim_workloads_create(&s->w, s->net, TRIM_MODE_DEFAULT, 0, 0) == 0);
	ck_assert_msg(trim_arch_load(&s->arch, arch) == 0, "%s", trim_last_error());
	ck_assert(trim_neteval_create(&s->ne, s->net, s->w, s->arch, NULL) == 0);
	ck_assert(trim_neteval_set_int(s->ne, TRIM_NET_SPARSITY, sparsity) == 0);
}

static void teardown(fx *s)
{
	trim_neteval_free(s->ne);
	trim_arch_free(s->arch);
	trim_workloads_free(s->w);
	trim_network_free(s->net);
}

#define CLOSE(a, b)                                                                   \
	ck_assert_msg(fabs((a) - (b)) <= 1e-12 * fabs(b), "%s = %.17g, expected %.17g", #a, \
	              (double)(a), (double)(b))

/* Every workload's breakdown adds up to its energy; with the inter-layer
 * workloads they add up to the network's; each level's entries to the
 * network's energy by level; the counts are the activity analyst's. */
static void check_breakdown(const char *arch, int sparsity)
{
	fx s;
	setup(&s, arch, sparsity);
	ck_assert(trim_neteval_run(s.ne) == 0);
	int nl = trim_arch_level_count(s.arch);
	size_t nb = trim_breakdown_size(nl);
	ck_assert_int_eq(nb, (size_t)nl * 3 * TRIM_ACT_COUNT);
	double *count = calloc(nb, sizeof *count), *energy = calloc(nb, sizeof *energy);
	double level[16] = {0}, total = 0, f[TRIM_NF_COUNT], g[TRIM_NI_COUNT];
	trim__act_ws ws = {0};
	for (size_t i = 0; i < trim_neteval_count(s.ne); i++) {
		ck_assert(trim_neteval_workload(s.ne, i, f, TRIM_NF_COUNT) == 0);
		ck_assert(trim_neteval_breakdown(s.ne, i, count, energy, nb) == 0);
		double sum = 0;
		for (size_t k = 0; k < nb; k++) {
			sum += energy[k];
			level[k / (3 * TRIM_ACT_COUNT)] += energy[k];
		}
		CLOSE(sum, f[TRIM_NF_ENERGY_PJ]);
		total += sum;
		/* the counts are the analyst's for the best mapping */
		trim_mapping *m = NULL;
		ck_assert(trim_neteval_mapping(s.ne, i, &m) == 0);
		trim__activity act;
		ck_assert(trim__activity_compute(trim__workloads_intra(s.w, i), s.arch, m, &ws, &act) == 0);
		for (int l = 0; l < nl; l++)
			for (int t = 0; t < 3; t++) {
				const double *c = &count[(l * 3 + t) * TRIM_ACT_COUNT];
				int type = trim_arch_level_type(s.arch, l);
				if (type == 0) {
					ck_assert(c[TRIM_ACT_READS] == (double)act.reads[l][t]);
					ck_assert(c[TRIM_ACT_FILLS] == (double)act.fills[l][t]);
					ck_assert(c[TRIM_ACT_UPDATES] == (double)act.updates[l][t]);
					ck_assert(c[TRIM_ACT_DRAINS] == (double)act.drains[l][t]);
				} else if (type == 1) {
					ck_assert(c[TRIM_ACT_UNICAST] == (double)act.unicast[l][t]);
					ck_assert(c[TRIM_ACT_MULTICAST] == (double)act.mcast[l][t]);
					ck_assert(c[TRIM_ACT_REDUCTIONS] == (double)act.reductions[l][t]);
				} else if (t == 0) {
					ck_assert(c[TRIM_ACT_MACS] == (double)act.macs);
				}
				ck_assert(c[TRIM_ACT_STATIC] == (t == 0 ? f[TRIM_NF_CYCLES] : 0));
			}
		trim_mapping_free(m);
	}
	for (size_t j = 0; j < trim_workloads_inter_count(s.w); j++) {
		ck_assert(trim_neteval_inter(s.ne, j, g, TRIM_NI_COUNT) == 0);
		total += g[TRIM_NI_ENERGY_PJ];
		level[(int)g[TRIM_NI_LEVEL]] += g[TRIM_NI_ENERGY_PJ];
	}
	CLOSE(total, trim_neteval_energy_pj(s.ne));
	if (!sparsity) { /* the energy by level leaves the sparse adjustments out */
		double lv[16];
		ck_assert(trim_neteval_level_energy(s.ne, lv, 16) == 0);
		for (int l = 0; l < nl; l++)
			ck_assert_msg(fabs(level[l] - lv[l]) <= 1e-12 * fabs(lv[l]) + 1e-9, "level %d: %.17g, %.17g", l,
			              level[l], lv[l]);
	}
	trim__act_ws_free(&ws);
	free(count);
	free(energy);
	teardown(&s);
}

START_TEST(test_breakdown_dense) { check_breakdown(ARCH, 0); }
END_TEST
START_TEST(test_breakdown_sparse) { check_breakdown(ARCH, 1); }
END_TEST
START_TEST(test_breakdown_skip) { check_breakdown(ARCH_SKIP, 1); }
END_TEST

/* The C API's conventions: the right setter is named, getters before the run
 * give NaN, arrays too small give TRIM_EBUFSIZE (a negative code). */
START_TEST(test_api_conventions)
{
	fx s;
	setup(&s, ARCH, 1);
	ck_assert_int_eq(trim_neteval_set_int(s.ne, TRIM_NET_MIN_PE_UTIL, 1), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "TRIM_NET_MIN_PE_UTIL") &&
	              strstr(trim_last_error(), "use trim_neteval_set_double"), "%s", trim_last_error());
	ck_assert_int_eq(trim_neteval_set_double(s.ne, TRIM_NET_GOAL, 2.0), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "TRIM_NET_GOAL") && strstr(trim_last_error(), "use trim_neteval_set_int") &&
	              !strstr(trim_last_error(), "utilisation"), "%s", trim_last_error());
	ck_assert_int_eq(trim_neteval_set_double(s.ne, TRIM_NET_MIN_RF_UTIL, 2.0), TRIM_ERANGE);
	ck_assert_msg(strstr(trim_last_error(), "TRIM_NET_MIN_RF_UTIL"), "%s", trim_last_error());
	ck_assert_int_eq(trim_neteval_set_double(s.ne, 77, 0.5), TRIM_EINVAL);
	ck_assert_ptr_null(trim_neteval_option_name(77));
	ck_assert(trim_neteval_set_double(s.ne, TRIM_NET_MIN_PE_UTIL, 0.25) == 0);
	ck_assert(trim_neteval_set_double(s.ne, TRIM_NET_MIN_PE_UTIL, 0) == 0);
	trim_clear_error();
	ck_assert(isnan(trim_neteval_cycles(s.ne)));
	ck_assert_int_eq(trim_last_error_code(), TRIM_EINVAL);
	ck_assert(isnan(trim_neteval_energy_pj(s.ne)) && isnan(trim_neteval_seconds(s.ne)) &&
	          isnan(trim_neteval_temporal_utilization(s.ne)) && isnan(trim_neteval_cycles(NULL)));
	char *text = NULL;
	ck_assert_int_eq(trim_neteval_warnings(s.ne, &text), TRIM_EINVAL);
	ck_assert(trim_neteval_run(s.ne) == 0);
	ck_assert(trim_neteval_cycles(s.ne) > 0);
	double f[TRIM_NF_COUNT + 1], b[4];
	ck_assert_int_eq(trim_neteval_workload(s.ne, 0, f, TRIM_NF_COUNT - 1), TRIM_EBUFSIZE);
	ck_assert_msg(strstr(trim_last_error(), "needs room for"), "%s", trim_last_error());
	ck_assert_int_eq(trim_neteval_level_energy(s.ne, f, 2), TRIM_EBUFSIZE);
	ck_assert_int_eq(trim_neteval_breakdown(s.ne, 0, b, NULL, 4), TRIM_EBUFSIZE);
	ck_assert_int_eq(trim_neteval_inter(s.ne, 0, b, 2), TRIM_EBUFSIZE);
	ck_assert_int_eq(trim_neteval_inter(s.ne, 999, f, TRIM_NF_COUNT), TRIM_ENOTFOUND);
	ck_assert(TRIM_EBUFSIZE < 0);
	ck_assert_str_eq(trim_strerror(TRIM_EBUFSIZE), "buffer too small");
	ck_assert_str_eq(trim_action_name(TRIM_ACT_MULTICAST), "multicast");
	ck_assert_ptr_null(trim_action_name(TRIM_ACT_COUNT));
	/* one eval: the same conventions and the same breakdown */
	trim_mapping *m = NULL;
	trim_eval *e = NULL;
	ck_assert(trim_neteval_mapping(s.ne, 0, &m) == 0);
	ck_assert(trim_eval_mapping(&e, s.w, 0, s.arch, NULL, m) == 0);
	ck_assert_int_eq(trim_eval_breakdown(e, b, NULL, 4), TRIM_EBUFSIZE);
	size_t nb = trim_breakdown_size(trim_arch_level_count(s.arch));
	double *ce = calloc(nb, sizeof *ce), *cn = calloc(nb, sizeof *cn);
	ck_assert(trim_eval_breakdown(e, ce, NULL, nb) == 0);
	ck_assert(trim_neteval_breakdown(s.ne, 0, cn, NULL, nb) == 0);
	ck_assert(memcmp(ce, cn, nb * sizeof *ce) == 0);
	ck_assert(trim_neteval_workload(s.ne, 0, f, TRIM_NF_COUNT) == 0);
	/* conv FW on one of two PEs, compute-bound: temporal = spatial = 0.5 */
	ck_assert(f[TRIM_NF_TEMPORAL_UTILIZATION] == trim_eval_temporal_utilization(e));
	ck_assert(f[TRIM_NF_COMPUTE_CYCLES] == trim_eval_compute_cycles(e));
	ck_assert(trim_eval_temporal_utilization(e) == 0.5);
	ck_assert(trim_eval_report(e, TRIM_FORMAT_JSON, &text) == 0);
	ck_assert_msg(strstr(text, "\"breakdown\": {\"DRAM\": {\"static\": ") &&
	              strstr(text, "\"temporal_utilization\": 0.5") && strstr(text, "\"warnings\": []}"), "%s",
	              text);
	trim_string_free(text);
	ck_assert(trim_eval_report(e, TRIM_FORMAT_TABLE, &text) == 0);
	ck_assert_msg(strstr(text, "spatial utilization 0.5, temporal 0.5"), "%.600s", text);
	trim_string_free(text);
	free(ce);
	free(cn);
	trim_eval_free(e);
	trim_mapping_free(m);
	teardown(&s);
}
END_TEST

/* Warnings and temporal utilisation in the JSON, the table and the CSV. */
START_TEST(test_warnings_in_reports)
{
	fx s;
	setup(&s, ARCH, 1);
	ck_assert(trim_neteval_run(s.ne) == 0);
	char *text = NULL;
	ck_assert(trim_neteval_warnings(s.ne, &text) == 0);
	/* fc and pool BW/FW wait for the 1-word NoC of 2 PEs (not a large array) */
	ck_assert_msg(strstr(text, "[{\"kind\": \"idle_compute\", \"level\": \"NoC\", \"workloads\": 3, ") &&
	              strstr(text, "(fc FW: 31%)"), "%.600s", text);
	trim_string_free(text);
	ck_assert(trim_neteval_report(s.ne, TRIM_FORMAT_JSON, &text) == 0);
	ck_assert_msg(strstr(text, "\"warnings\": [{\"kind\": \"idle_compute\"") &&
	              strstr(text, "\"temporal_utilization\": ") && strstr(text, "\"energy_by_tensor\": {") &&
	              strstr(text, "\"breakdown\": {\"DRAM\": "), "%.600s", text);
	trim_string_free(text);
	ck_assert(trim_neteval_report(s.ne, TRIM_FORMAT_TABLE, &text) == 0);
	ck_assert_msg(strstr(text, "t-util") && strstr(text, "warning: NoC bounds the time of 3 of 7 workloads") &&
	              strstr(text, "temporal utilization (MACs / (PEs x cycles)) 0.485"), "%.600s", text);
	trim_string_free(text);
	ck_assert(trim_neteval_report(s.ne, TRIM_FORMAT_CSV, &text) == 0);
	ck_assert_msg(!strncmp(text, "goal,index,layer,phase,", 23) && strstr(text, "\nenergy,0,conv,FW,") &&
	              strstr(text, ",temporal_utilization,compute_cycles,bottleneck_level,lower_bound,gap,exact,reused_from,bottleneck,DRAM_pj,GLB_pj,"
	                           "NoC_pj,RF_pj,MAC_pj\n") && strstr(text, ",MAC,"), "%.600s", text);
	trim_string_free(text);
	ck_assert(trim_neteval_breakdown_report(s.ne, TRIM_FORMAT_CSV, &text) == 0);
	ck_assert_msg(strstr(text, "goal,index,layer,phase,level,tensor,action,count,energy_pj\nenergy,0,conv,FW,DRAM,input,reads,36,") &&
	              strstr(text, "\nenergy,0,conv,FW,DRAM,all,static,288,") &&
	              strstr(text, "\nenergy,0,conv,FW,NoC,input,multicast,") && strstr(text, "\nenergy,inter0,") && strstr(text, ",MAC,all,macs,288,"),
	              "%.600s", text);
	trim_string_free(text);
	ck_assert_int_eq(trim_neteval_breakdown_report(s.ne, TRIM_FORMAT_TABLE, &text), TRIM_EINVAL);
	teardown(&s);
}
END_TEST

static void check_page(const char *html, const char *dom, int charts)
{
	/* self-contained: nothing to fetch */
	ck_assert_msg(!strstr(html, "<link") && !strstr(html, " src=") && !strstr(html, "url(") &&
	              !strstr(html, "https:") && !strstr(html, "@import"), "the page fetches something");
	ck_assert_msg(strstr(html, "default-src 'none'"), "no content security policy");
	if (!dom)
		return;
	char want[64];
	snprintf(want, sizeof want, "data-trim-rendered=\"%d\"", charts);
	ck_assert_msg(strstr(dom, want), "charts not rendered: %.400s", dom);
	ck_assert_msg(!strstr(dom, "data-trim-error=\"") && strstr(dom, "<div id=\"trim-errors\"></div>"),
	              "script error: %.300s", strstr(dom, "trim-errors"));
	ck_assert_int_eq(tb_count_of(dom, "<svg"), (size_t)charts);
	ck_assert_msg(tb_count_of(dom, "<rect") >= 20, "%zu bars", tb_count_of(dom, "<rect"));
}

START_TEST(test_html_network)
{
	const char *cli = getenv("TRIM_CLI");
	if (!cli)
		cli = "build/bin/trim";
	char dir[] = "/tmp/trim-report-XXXXXX", cmd[2048], page[256], png[256], bd[256];
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(page, sizeof page, "%s/net.html", dir);
	snprintf(png, sizeof png, "%s/net.png", dir);
	snprintf(bd, sizeof bd, "%s/bd.json", dir);
	snprintf(cmd, sizeof cmd, "%s network " NET " " ARCH " --quiet --report %s --breakdown %s > /dev/null", cli,
	         page, bd);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 0);
	char *html = tb_slurp(page), *bdj = tb_slurp(bd);
	ck_assert(html && bdj);
	ck_assert_msg(strstr(bdj, "{\"goal\": \"energy\", \"workloads\": [\n  {\"index\": 0, \"layer\": \"conv\", \"phase\": \"FW\", \"breakdown\": {"),
	              "%.300s", bdj);
	ck_assert_msg(strstr(html, "NoC bounds the time of 3 of 7 workloads") && strstr(html, "\"loopnest\": "),
	              "data missing");
	/* an unwritable report: exit 2, a message, no partial file */
	snprintf(cmd, sizeof cmd, "%s network " NET " " ARCH " --quiet --report /nonexistent/x.html > /dev/null 2>&1",
	         cli);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
	char *dom = tb_browse(page, dir, png, 900, 1400);
	if (!dom)
		fprintf(stderr, "test_html_network: chromium is not installed (make deps installs it): "
		                "the page was checked without a browser\n");
	check_page(html, dom, 19); /* 5 drawn by the script, 7 figures and 7 tile diagrams drawn in C */
	if (dom) {
		ck_assert_msg(strstr(dom, "<h1>libtrim: tiny on tiny-arch</h1>") && strstr(dom, "class=\"warn\""),
		              "%.600s", dom);
		tb_check_png(png, 900, 1400);
		/* #shares: each workload's energy as shares (the page's check box) */
		char url[300];
		snprintf(url, sizeof url, "%s#shares", page);
		char *shares = tb_browse(url, dir, png, 900, 1400);
		ck_assert_msg(shares && strstr(shares, "<h3>Energy by level (%)</h3>") &&
		              strstr(dom, "<h3>Energy by level (pJ)</h3>") && !strstr(shares, "data-trim-error=\""),
		              "%.300s", shares ? strstr(shares, "Energy per workload") : "");
		free(shares);
		/* the check can fail: a page whose script does not parse is reported as such */
		char broken[300];
		snprintf(broken, sizeof broken, "%s/broken.html", dir);
		char *bad = strstr(html, "'use strict';");
		ck_assert(bad != NULL);
		FILE *f = fopen(broken, "w");
		ck_assert(f != NULL);
		fprintf(f, "%.*s'use strict';(((%s", (int)(bad - html), html, bad + strlen("'use strict';"));
		fclose(f);
		char *bdom = tb_browse(broken, dir, png, 900, 1400);
		ck_assert_msg(bdom && strstr(bdom, "data-trim-error=\"Uncaught SyntaxError") &&
		              !strstr(bdom, "data-trim-rendered=\""), "%.300s", bdom ? bdom : "");
		free(bdom);
	}
	free(dom);
	free(html);
	free(bdj);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

#define SPACE "test/data/neteval/tiny-space-1pe.yaml"

/* The explorer's per-workload figures and breakdowns are the network
 * evaluation's of the same point, and survive a resumed sweep. */
START_TEST(test_explore_details)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_space *space = NULL;
	trim_explorer *ex = NULL, *again = NULL;
	char dir[] = "/tmp/trim-report-XXXXXX", cmd[4096];
	ck_assert(mkdtemp(dir) != NULL);
	ck_assert(trim_network_load(&net, NET) == 0);
	ck_assert(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert_msg(trim_space_load(&space, SPACE) == 0, "%s", trim_last_error());
	ck_assert(trim_explorer_create(&ex, net, w, space) == 0);
	ck_assert(trim_explorer_set_int(ex, TRIM_EX_GOAL, TRIM_EXPLORE_ENERGY) == 0);
	/* an option given to the other setter names the right one */
	ck_assert_int_eq(trim_explorer_set_int(ex, TRIM_EX_AREA_BUDGET, 1), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "use trim_explorer_set_double"), "%s", trim_last_error());
	ck_assert_int_eq(trim_explorer_set_double(ex, TRIM_EX_GOAL, 2.0), TRIM_EINVAL);
	ck_assert_msg(strstr(trim_last_error(), "use trim_explorer_set_int"), "%s", trim_last_error());
	ck_assert(trim_explorer_set_out_dir(ex, dir) == 0);
	double f[TRIM_NF_COUNT], g[TRIM_NF_COUNT];
	ck_assert_int_eq(trim_explorer_workload(ex, 0, 0, f, TRIM_NF_COUNT), TRIM_EINVAL); /* not run */
	ck_assert(trim_explorer_run(ex) == 0);
	ck_assert_int_eq(trim_explorer_workload(ex, 0, 0, f, 3), TRIM_EBUFSIZE);
	trim_arch *arch = NULL;
	ck_assert(trim_space_point_arch(space, 1, &arch) == 0);
	trim_neteval *ne = NULL;
	ck_assert(trim_neteval_create(&ne, net, w, arch, NULL) == 0);
	ck_assert(trim_neteval_set_int(ne, TRIM_NET_GOAL, TRIM_GOAL_ENERGY) == 0);
	ck_assert(trim_neteval_run(ne) == 0);
	size_t nb = trim_breakdown_size(trim_arch_level_count(arch));
	double *ca = calloc(nb, sizeof *ca), *ea = calloc(nb, sizeof *ea), *cb = calloc(nb, sizeof *cb),
	       *eb = calloc(nb, sizeof *eb);
	ck_assert(trim_explorer_set_int(ex, TRIM_EX_THREADS, 1) != 0); /* options after the run */
	ck_assert(trim_explorer_create(&again, net, w, space) == 0);
	ck_assert(trim_explorer_set_int(again, TRIM_EX_GOAL, TRIM_EXPLORE_ENERGY) == 0);
	ck_assert(trim_explorer_set_out_dir(again, dir) == 0);
	ck_assert(trim_explorer_run(again) == 0);
	ck_assert_int_eq(trim_explorer_resumed(again), 3);
	for (size_t k = 0; k < trim_neteval_count(ne); k++) {
		ck_assert_msg(trim_explorer_workload(ex, 1, k, f, TRIM_NF_COUNT) == 0, "%s", trim_last_error());
		ck_assert(trim_neteval_workload(ne, k, g, TRIM_NF_COUNT) == 0);
		for (int q = 0; q < TRIM_NF_COUNT; q++)
			if (q != TRIM_NF_GENERATED && q != TRIM_NF_VALID && q != TRIM_NF_EVALUATED && q != TRIM_NF_REUSED_FROM)
				ck_assert_msg(f[q] == g[q], "workload %zu field %d: %.17g != %.17g", k, q, f[q], g[q]);
		ck_assert(isnan(f[TRIM_NF_EVALUATED]) && isnan(f[TRIM_NF_REUSED_FROM]));
		ck_assert(f[TRIM_NF_EXACT] == 1 && f[TRIM_NF_GAP] == 0); /* what the search proved, kept */
		double h[TRIM_NF_COUNT]; /* and kept by the point file: resumed, the same */
		ck_assert(trim_explorer_workload(again, 1, k, h, TRIM_NF_COUNT) == 0);
		ck_assert(h[TRIM_NF_EXACT] == 1 && h[TRIM_NF_LOWER_BOUND] == g[TRIM_NF_LOWER_BOUND]);
		ck_assert(trim_explorer_breakdown(ex, 1, k, ca, ea, nb) == 0);
		ck_assert(trim_neteval_breakdown(ne, k, cb, eb, nb) == 0);
		ck_assert(memcmp(ca, cb, nb * sizeof *ca) == 0 && memcmp(ea, eb, nb * sizeof *ea) == 0);
		ck_assert(trim_explorer_breakdown(again, 1, k, cb, eb, nb) == 0); /* resumed */
		ck_assert(memcmp(ca, cb, nb * sizeof *ca) == 0 && memcmp(ea, eb, nb * sizeof *ea) == 0);
	}
	char *a = NULL, *b = NULL;
	/* the reports: temporal utilisation and warnings per point, the CSV per workload */
	ck_assert(trim_explorer_report(ex, TRIM_FORMAT_JSON, &a) == 0);
	ck_assert_msg(tb_count_of(a, "\"temporal_utilization\": ") == 3 && tb_count_of(a, "\"warnings\": [") == 3, "%.600s", a);
	trim_string_free(a);
	ck_assert(trim_explorer_report(ex, TRIM_FORMAT_TABLE, &a) == 0);
	ck_assert_msg(strstr(a, " t-util ") && strstr(a, "\nbest point pes=1_glb=1KB: temporal utilization"), "%s", a);
	trim_string_free(a);
	ck_assert(trim_explorer_report(ex, TRIM_FORMAT_CSV, &a) == 0);
	ck_assert_msg(!strncmp(a, "goal,name,rank,", 15) &&
	              strstr(a, ",lut,ff,temporal_utilization,exact,lower_bound,gap,rank_best,rank_worst,pareto_proven\nenergy,pes=1_glb=1KB,1,1,"),
	              "%.300s", a);
	trim_string_free(a);
	ck_assert(trim_explorer_write(ex, dir) == 0);
	snprintf(cmd, sizeof cmd, "%s/workloads.csv", dir);
	a = tb_slurp(cmd);
	ck_assert_msg(a && strstr(a, ",pe_utilization,temporal_utilization,compute_cycles,bottleneck,DRAM_pj,GLB_pj,NoC_pj,"
	                             "RF_pj,MAC_pj\nenergy,pes=1_glb=1KB,conv,FW,") && !strncmp(a, "goal,point,layer,", 17), "%.300s", a);
	free(a);
	ck_assert(trim_explorer_warnings(ex, 1, &a) == 0);
	ck_assert(trim_neteval_warnings(ne, &b) == 0);
	ck_assert_str_eq(a, b);
	trim_string_free(a);
	trim_string_free(b);
	ck_assert(trim_explorer_breakdown_report(ex, TRIM_FORMAT_CSV, &a) == 0);
	ck_assert(trim_explorer_breakdown_report(again, TRIM_FORMAT_CSV, &b) == 0);
	ck_assert_str_eq(a, b);
	ck_assert_msg(strstr(a, "goal,point,index,layer,phase,level,tensor,action,count,energy_pj\nenergy,pes=1_glb=1KB,0,conv,FW,DRAM,"),
	              "%.300s", a);
	trim_string_free(a);
	trim_string_free(b);
	free(ca);
	free(ea);
	free(cb);
	free(eb);
	trim_neteval_free(ne);
	trim_arch_free(arch);
	trim_explorer_free(again);
	trim_explorer_free(ex);
	trim_space_free(space);
	trim_workloads_free(w);
	trim_network_free(net);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_html_explore)
{
	const char *cli = getenv("TRIM_CLI");
	if (!cli)
		cli = "build/bin/trim";
	char dir[] = "/tmp/trim-report-XXXXXX", cmd[2048], page[256], png[256];
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(page, sizeof page, "%s/explore.html", dir);
	snprintf(png, sizeof png, "%s/explore.png", dir);
	snprintf(cmd, sizeof cmd, "%s explore " NET " " SPACE " --mode inference --goal edp --quiet --report %s > /dev/null",
	         cli, page);
	ck_assert_int_eq(WEXITSTATUS(system(cmd)), 0);
	char *html = tb_slurp(page);
	ck_assert(html != NULL);
	char *dom = tb_browse(page, dir, png, 800, 1000);
	if (!dom)
		fprintf(stderr, "test_html_explore: chromium is not installed (make deps installs it): "
		                "the page was checked without a browser\n");
	check_page(html, dom, 16); /* 6 drawn by the script, 7 figures, the tiles of 3 workloads */
	if (dom) {
		/* the ranking (with how sure each point is: exact, gap 0, its rank
		 * proven), three points on the scatter (one on the front), a detail */
		ck_assert_msg(strstr(dom, ">exact</th>") && strstr(dom, ">ranks</th>") && tb_count_of(dom, ">yes</td>") == 3 &&
		              tb_count_of(dom, ">0.00%</td>") == 3, "%.3000s", strstr(dom, "Ranking") ? strstr(dom, "Ranking") : dom);
		ck_assert_msg(strstr(dom, "<h2>Ranking (goal edp)</h2>") && tb_count_of(dom, "class=\"point\"") == 3 &&
		              strstr(dom, "<option value=\"0\">pes=1_glb=1KB (rank "), "%.600s", dom);
		tb_check_png(png, 800, 1000);
	}
	free(dom);
	free(html);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* trim sparsity's reports carry the warnings too. */
START_TEST(test_sparsity_warnings)
{
	const char *cli = getenv("TRIM_CLI");
	if (!cli)
		cli = "build/bin/trim";
	char cmd[1024], buf[16384];
	const char *fmt[2] = {"table", "json"}, *want[2] = {"\nwarning: NoC bounds the time of 3 of 7 workloads",
	                                                    "\"warnings\": [{\"kind\": \"idle_compute\", \"level\": \"NoC\""};
	for (int k = 0; k < 2; k++) {
		snprintf(cmd, sizeof cmd, "%s sparsity " NET " " ARCH " --quiet --format %s", cli, fmt[k]);
		FILE *p = popen(cmd, "r");
		ck_assert(p != NULL);
		size_t n = fread(buf, 1, sizeof buf - 1, p);
		buf[n] = '\0';
		ck_assert_int_eq(WEXITSTATUS(pclose(p)), 0);
		ck_assert_msg(strstr(buf, want[k]), "%.1000s", buf);
	}
}
END_TEST

/* Issue 14's starved array: 16 PEs behind a link of one word per cycle. The
 * spatial utilisation is high, the temporal one low, and the report says why;
 * a wide link removes the warning and shortens the run. */
START_TEST(test_starved_link)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	ck_assert(trim_network_load(&net, NET) == 0);
	ck_assert(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	double cycles[2];
	for (int wide = 0; wide < 2; wide++) {
		trim_arch *arch = NULL;
		trim_neteval *ne = NULL;
		ck_assert_msg(trim_arch_load(&arch, "test/data/report/starved-16.yaml") == 0, "%s", trim_last_error());
		if (wide) { /* the same design with a 16-word link */
			char *yaml = tb_slurp("test/data/report/starved-16.yaml"), *at = strstr(yaml, "link_bits: 16}");
			ck_assert(at != NULL);
			size_t n = strlen(yaml) + 2;
			char *wide_yaml = malloc(n);
			snprintf(wide_yaml, n, "%.*slink_bits: 256}%s", (int)(at - yaml), yaml, at + strlen("link_bits: 16}"));
			trim_arch_free(arch);
			arch = NULL;
			ck_assert_msg(trim_arch_load_string(&arch, wide_yaml, "test/data/report/starved-16.yaml") == 0, "%s",
			              trim_last_error());
			free(wide_yaml);
			free(yaml);
		}
		ck_assert(trim_neteval_create(&ne, net, w, arch, NULL) == 0);
		ck_assert(trim_neteval_run(ne) == 0);
		cycles[wide] = trim_neteval_cycles(ne);
		char *text = NULL;
		ck_assert(trim_neteval_warnings(ne, &text) == 0);
		if (!wide) {
			ck_assert_msg(strstr(text, "{\"kind\": \"starved_link\", \"level\": \"NoC\", \"workloads\": 3, \"message\": "
			                           "\"NoC: a 16-bit link carries 1 word per cycle into 16 children"),
			              "%s", text);
			ck_assert(trim_neteval_pe_utilization(ne) > 0.8);
			ck_assert(trim_neteval_temporal_utilization(ne) < 0.2);
		} else {
			ck_assert_msg(!strstr(text, "starved_link"), "%s", text);
		}
		trim_string_free(text);
		trim_neteval_free(ne);
		trim_arch_free(arch);
	}
	ck_assert_msg(cycles[1] < cycles[0] / 2, "%g vs %g cycles", cycles[1], cycles[0]);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* The smallest "utilization_bound" of a warnings JSON array (2: none) and
 * how many there are. */
static double least_bound(const char *json, int *count)
{
	double least = 2;
	*count = 0;
	for (const char *p = strstr(json, "\"utilization_bound\": "); p; p = strstr(p + 1, "\"utilization_bound\": ")) {
		double u = strtod(p + 21, NULL);
		least = u < least ? u : least;
		(*count)++;
	}
	return least;
}

/* The traffic bound worked by hand: one FC layer (2,048 MACs, 2,048 weights,
 * 32 outputs) on test/data/arch/roofline.yaml (32 MACs per cycle): the MACs
 * take 64 cycles at peak; DRAM reads the weights in 2,048 / 2 = 1,024 cycles
 * (writes 32 / 1), the 2-word link carries 2,080 words in 1,040 cycles. The
 * fastest mapping the search finds takes at least those 1,040 cycles. */
START_TEST(test_traffic_bound_hand_worked)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_neteval *ne = NULL;
	char *text = NULL;
	ck_assert(trim_network_load(&net, "test/data/networks/fc64.yaml") == 0);
	ck_assert(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert_int_eq(trim_workloads_intra_count(w), 1);
	ck_assert_int_eq(trim_workloads_intra_macs(w, 0), 2048);
	ck_assert(trim_arch_load(&a, "test/data/arch/roofline.yaml") == 0);
	ck_assert_int_eq(trim_arch_warnings(a, w, -1, TRIM_FORMAT_JSON, &text), 0);
	char want[256];
	snprintf(want, sizeof want, "{\"kind\": \"traffic_bound\", \"level\": \"DRAM\", \"workloads\": 1, "
	                            "\"utilization_bound\": %.17g, \"message\": \"DRAM: moving each weight and output "
	                            "word once takes more cycles than the MACs at peak in 1 of 1 workloads (fc FW: 1.02e+03 "
	                            "cycles against 64): temporal utilisation at most 0.0625, whatever the mapping\"}",
	         64.0 / 1024);
	ck_assert_msg(strstr(text, want) != NULL, "%s\nnot in\n%s", want, text);
	snprintf(want, sizeof want, "{\"kind\": \"traffic_bound\", \"level\": \"Array\", \"workloads\": 1, "
	                            "\"utilization_bound\": %.17g, ", 64.0 / 1040);
	ck_assert_msg(strstr(text, want) != NULL, "%s\nnot in\n%s", want, text);
	int n = 0;
	ck_assert_double_eq(least_bound(text, &n), 64.0 / 1040);
	ck_assert_int_eq(n, 2);
	trim_string_free(text);
	/* workload 0 alone: the same two */
	ck_assert_int_eq(trim_arch_warnings(a, w, 0, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_msg(strstr(text, "warning: DRAM: moving") && strstr(text, "warning: Array: moving"), "%s", text);
	trim_string_free(text);
	ck_assert(trim_neteval_create(&ne, net, w, a, NULL) == 0);
	ck_assert(trim_neteval_set_int(ne, TRIM_NET_GOAL, TRIM_GOAL_DELAY) == 0);
	ck_assert(trim_neteval_set_int(ne, TRIM_NET_SPARSITY, 0) == 0);
	ck_assert(trim_neteval_run(ne) == 0);
	double f[TRIM_NF_COUNT];
	ck_assert_int_eq(trim_neteval_workload(ne, 0, f, TRIM_NF_COUNT), 0);
	ck_assert_msg(f[TRIM_NF_EXACT] == 1 && f[TRIM_NF_CYCLES] >= 1040, "%g cycles", f[TRIM_NF_CYCLES]);
	ck_assert(f[TRIM_NF_TEMPORAL_UTILIZATION] <= 64.0 / 1040);
	trim_neteval_free(ne);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* The bound is never above what a mapping reaches: every workload of a
 * small network in training (FW, BW and WG: the slots change roles) on a
 * design whose DRAM and link bound them, against the fastest mapping of an
 * exact search; on the tiny design (2 PEs) against its own warnings too. */
START_TEST(test_traffic_bound_below_the_fastest_mapping)
{
	static const char *const archs[] = {"test/data/arch/roofline.yaml", ARCH};
	int bounded = 0;
	for (int d = 0; d < 2; d++) {
		trim_network *net = NULL;
		trim_workloads *w = NULL;
		trim_arch *a = NULL;
		trim_neteval *ne = NULL;
		ck_assert(trim_network_load(&net, NET) == 0);
		ck_assert(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 0, 0) == 0);
		ck_assert(trim_arch_load(&a, archs[d]) == 0);
		ck_assert(trim_neteval_create(&ne, net, w, a, NULL) == 0);
		ck_assert(trim_neteval_set_int(ne, TRIM_NET_GOAL, TRIM_GOAL_DELAY) == 0);
		ck_assert(trim_neteval_set_int(ne, TRIM_NET_SPARSITY, 0) == 0);
		ck_assert(trim_neteval_run(ne) == 0);
		size_t n = trim_workloads_intra_count(w);
		ck_assert_uint_gt(n, 4);
		for (size_t k = 0; k < n; k++) {
			char *text = NULL;
			double f[TRIM_NF_COUNT];
			int count = 0;
			ck_assert_int_eq(trim_arch_warnings(a, w, (int64_t)k, TRIM_FORMAT_JSON, &text), 0);
			double bound = least_bound(text, &count);
			ck_assert_int_eq(trim_neteval_workload(ne, k, f, TRIM_NF_COUNT), 0);
			ck_assert(f[TRIM_NF_EXACT] == 1);
			ck_assert_msg(f[TRIM_NF_TEMPORAL_UTILIZATION] <= bound * (1 + 1e-12), "%s %s: %.17g above %.17g\n%s",
			              archs[d], trim_workloads_intra_layer(w, k), f[TRIM_NF_TEMPORAL_UTILIZATION], bound, text);
			bounded += count > 0;
			trim_string_free(text);
		}
		trim_neteval_free(ne);
		trim_arch_free(a);
		trim_workloads_free(w);
		trim_network_free(net);
	}
	ck_assert_int_gt(bounded, 4); /* not a test that cannot fail */
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_breakdown_dense);
	tcase_add_test(tc, test_breakdown_sparse);
	tcase_add_test(tc, test_breakdown_skip);
	tcase_add_test(tc, test_api_conventions);
	tcase_add_test(tc, test_warnings_in_reports);
	tcase_add_test(tc, test_html_network);
	tcase_add_test(tc, test_sparsity_warnings);
	tcase_add_test(tc, test_starved_link);
	tcase_add_test(tc, test_traffic_bound_hand_worked);
	tcase_add_test(tc, test_traffic_bound_below_the_fastest_mapping);
	tcase_add_test(tc, test_explore_details);
	tcase_add_test(tc, test_html_explore);
	suite_add_tcase(s, tc);
	return s;
}
