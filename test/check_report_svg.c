/*
 * The HTML report's figures drawn in C (lib/report/html_svg.c,
 * html_tiles.c): the same evaluation gives the same bytes, the network's
 * energy by tensor adds up to its energy, every workload (inter-layer ones
 * included) is charted, and the page renders them in headless chromium
 * (skipped, saying so, without it).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "browser.h"
#include "trim.h"

#define NET "test/data/neteval/tiny.yaml"
#define ARCH "test/data/neteval/tiny-arch.yaml"

/* Evaluate the tiny network (default mode: 7 intra, 7 inter workloads)
 * and write its page to path; the network's energy into *energy. */
static void write_page(const char *path, double *energy, size_t *nintra, size_t *ninter)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *arch = NULL;
	trim_neteval *ne = NULL;
	ck_assert(trim_network_load(&net, NET) == 0);
	ck_assert(trim_workloads_create(&w, net, TRIM_MODE_DEFAULT, 0, 0) == 0);
	ck_assert(trim_arch_load(&arch, ARCH) == 0);
	ck_assert(trim_neteval_create(&ne, net, w, arch, NULL) == 0);
	ck_assert(trim_neteval_run(ne) == 0);
	ck_assert_msg(trim_neteval_write_html(ne, path) == 0, "%s", trim_last_error());
	*energy = trim_neteval_energy_pj(ne);
	*nintra = trim_workloads_intra_count(w);
	*ninter = trim_workloads_inter_count(w);
	trim_neteval_free(ne);
	trim_arch_free(arch);
	trim_workloads_free(w);
	trim_network_free(net);
}

/* The legend values "name: V pJ (" of the figure whose title starts at
 * title in the page's data, summed over its n parts. */
static double legend_sum(const char *html, const char *title, int n)
{
	const char *p = strstr(html, title);
	ck_assert_msg(p != NULL, "no figure %s", title);
	double sum = 0;
	for (int k = 0; k < n; k++) {
		p = strstr(p, " pJ (");
		ck_assert(p != NULL);
		const char *q = p;
		while (q > html && q[-1] != ' ')
			q--;
		sum += strtod(q, NULL);
		p += 5;
	}
	return sum;
}

START_TEST(test_figures_data)
{
	char dir[] = "/tmp/trim-svg-XXXXXX", a[256], b[256];
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(a, sizeof a, "%s/a.html", dir);
	snprintf(b, sizeof b, "%s/b.html", dir);
	double energy, e2;
	size_t ni, nx, ni2, nx2;
	write_page(a, &energy, &ni, &nx);
	write_page(b, &e2, &ni2, &nx2);
	char *ha = tb_slurp(a), *hb = tb_slurp(b);
	ck_assert(ha && hb);
	ck_assert_int_eq(ni, 7);
	ck_assert_int_eq(nx, 7);
	/* deterministic bytes */
	ck_assert_msg(strcmp(ha, hb) == 0, "two writes of the same evaluation differ");
	/* the figures are data until the script inserts them: no <svg in the page */
	ck_assert_int_eq(tb_count_of(ha, "<svg"), 0);
	ck_assert_int_eq(tb_count_of(ha, "\\u003csvg "), 7 + 7);
	/* by tensor: input, weight, output, compute and the rest, inter-layer work */
	double t = legend_sum(ha, "Network energy by tensor (intra- and inter-layer workloads)", 5);
	ck_assert_msg(fabs(t - energy) <= 5e-4 * energy, "by tensor %.6g, network %.6g", t, energy);
	double l = legend_sum(ha, "Network energy by level (intra- and inter-layer workloads)", 5);
	ck_assert_msg(fabs(l - energy) <= 5e-4 * energy, "by level %.6g, network %.6g", l, energy);
	/* every inter workload in both bar charts, 3 storage levels in each tile panel */
	ck_assert_int_eq(tb_count_of(ha, " (inter)\\u003c/text>"), 2 * nx);
	ck_assert_int_eq(tb_count_of(ha, "class=\\\"tile\\\""), 2 * 3 * ni);
	ck_assert_int_eq(tb_count_of(ha, "class=\\\"workload\\\""), ni);
	ck_assert_msg(strstr(ha, "Area by level") && strstr(ha, "Buffer occupancy per level") &&
	              strstr(ha, "peak 2 MACs/cycle"), "a figure is missing");
	free(ha);
	free(hb);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_figures_rendered)
{
	if (!tb_chromium()) {
		fprintf(stderr, "test_figures_rendered: skipped: chromium is not installed (make deps installs it)\n");
		return;
	}
	char dir[] = "/tmp/trim-svg-XXXXXX", page[256], png[256];
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(page, sizeof page, "%s/net.html", dir);
	snprintf(png, sizeof png, "%s/net.png", dir);
	double energy;
	size_t ni, nx;
	write_page(page, &energy, &ni, &nx);
	char *dom = tb_browse(page, dir, png, 1100, 5000);
	ck_assert(dom != NULL);
	ck_assert_msg(!strstr(dom, "data-trim-error=\""), "script error: %.300s", strstr(dom, "trim-errors"));
	/* 5 charts of the script, 7 figures, 7 tile diagrams: all rendered */
	ck_assert_msg(strstr(dom, "data-trim-rendered=\"19\""), "%.300s", dom);
	ck_assert_int_eq(tb_count_of(dom, "<svg"), 19);
	ck_assert_int_eq(tb_count_of(dom, "class=\"tile\""), 2 * 3 * ni);
	ck_assert_int_eq(tb_count_of(dom, "class=\"workload\""), ni);
	ck_assert_int_eq(tb_count_of(dom, " (inter)</text>"), 2 * nx);
	ck_assert_msg(strstr(dom, "<h3>Roofline of every workload") && strstr(dom, "<div class=\"nest\"><pre>"),
	              "%.300s", dom);
	tb_check_png(png, 1100, 5000);
	free(dom);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* trim explore's page: each point's figures carry its inter-layer workloads,
 * costed as its evaluation costs them, so they add up to the point's energy. */
START_TEST(test_explore_figures)
{
	const char *cli = getenv("TRIM_CLI");
	if (!cli)
		cli = "build/bin/trim";
	char dir[] = "/tmp/trim-svg-XXXXXX", page[256], cmd[1024];
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(page, sizeof page, "%s/x.html", dir);
	snprintf(cmd, sizeof cmd, "%s explore " NET " test/data/neteval/tiny-space-1pe.yaml --goal edp --quiet --report %s > /dev/null",
	         cli, page);
	ck_assert_int_eq(system(cmd), 0);
	char *h = tb_slurp(page);
	ck_assert(h != NULL);
	const char *title = "Network energy by level (intra- and inter-layer workloads)";
	ck_assert_int_eq(tb_count_of(h, title), 3); /* every point */
	double l = legend_sum(h, title, 5);
	const char *t = strstr(strstr(h, title), "\"totals\": {\"cycles\": ");
	ck_assert(t != NULL && (t = strstr(t, "\"energy_pj\": ")) != NULL);
	double e = strtod(t + strlen("\"energy_pj\": "), NULL);
	ck_assert_msg(e > 0 && fabs(l - e) <= 5e-4 * e, "by level %.6g, point %.6g", l, e);
	ck_assert_int_eq(tb_count_of(h, " (inter)\\u003c/text>"), 3 * 2 * 7);
	free(h);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *report_svg_suite(void)
{
	Suite *s = suite_create("report_svg");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_figures_data);
	tcase_add_test(tc, test_figures_rendered);
	tcase_add_test(tc, test_explore_figures);
	suite_add_tcase(s, tc);
	return s;
}
