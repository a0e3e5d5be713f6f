/* The command-line client's own behaviour (lib/cli/): one default goal, the
 * loop nest of trim map without loops of bound 1, columns as wide as the
 * names, the sparsity legend, trim version --format json. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcase_util.h"
#include "trim.h"

#define TINY_MAP "map test/data/networks/tiny.yaml test/data/arch/tiny.yaml --layer conv1 --phase FW --quiet"

/* The numbered lines of the first loop nest of a trim map table: their
 * contents (indent and number dropped) into contents[], their indents into
 * indents[]; returns how many (numbers checked to run 1, 2, ...). */
static int nest_lines(const char *text, char contents[][128], int indents[], int max)
{
	int n = 0;
	const char *p = strstr(text, "\n# ");
	ck_assert_ptr_nonnull(p);
	p = strchr(p + 1, '\n') + 1;
	while (*p && n < max) {
		int number = 0, used = 0;
		if (sscanf(p, "%d%n", &number, &used) != 1)
			break;
		ck_assert_int_eq(number, n + 1);
		const char *q = p + used + 1;
		const char *c = q;
		while (*c == ' ')
			c++;
		const char *end = strchr(c, '\n');
		size_t len = end ? (size_t)(end - c) : strlen(c);
		ck_assert_uint_lt(len, 128);
		memcpy(contents[n], c, len);
		contents[n][len] = '\0';
		indents[n] = (int)(c - q);
		n++;
		p = end ? end + 1 : c + len;
	}
	return n;
}

static int unit_loop(const char *c)
{
	const char *in = strstr(c, " in [0:1)");
	return (!strncmp(c, "for ", 4) || !strncmp(c, "parallel_for ", 13)) && in &&
	       (in[9] == '\0' || in[9] == ' ');
}

START_TEST(test_map_hides_loops_of_bound_one)
{
	int st = 0;
	char *all = tu_capture(TINY_MAP " --all-loops", 0, &st);
	ck_assert_int_eq(st, 0);
	char *some = tu_capture(TINY_MAP, 0, &st);
	ck_assert_int_eq(st, 0);
	static char ca[64][128], cs[64][128];
	int ia[64], is[64];
	int na = nest_lines(all, ca, ia, 64), ns = nest_lines(some, cs, is, 64);
	/* every loop of --all-loops, less those of bound 1, in the same order */
	int k = 0, units = 0;
	for (int i = 0; i < na; i++) {
		if (unit_loop(ca[i])) {
			units++;
			continue;
		}
		ck_assert_int_lt(k, ns);
		ck_assert_str_eq(cs[k], ca[i]);
		k++;
	}
	ck_assert_int_eq(k, ns);
	ck_assert_int_gt(units, 0);
	char note[96];
	snprintf(note, sizeof note, "(%d loops of bound 1 not shown: --all-loops shows every loop)", units);
	ck_assert_msg(strstr(some, note) != NULL, "%s", some);
	ck_assert_ptr_null(strstr(all, "not shown"));
	/* indentation: one step per enclosing temporal loop and per spatial group */
	int depth = 0, after_spatial = 0;
	for (int i = 0; i < ns; i++) {
		int spatial = !strncmp(cs[i], "parallel_for ", 13);
		if (!spatial && after_spatial)
			depth++;
		after_spatial = spatial;
		ck_assert_msg(is[i] == 2 * depth, "line %d '%s': indent %d, want %d", i + 1, cs[i], is[i], 2 * depth);
		if (!strncmp(cs[i], "for ", 4))
			depth++;
	}
	/* the hand-checked nest of this case (its --all-loops nest has 22 lines) */
	ck_assert_int_eq(na, 22);
	ck_assert_msg(strstr(some, "  1 // DRAM (temporal)\n"
	                           "  2 for c3 in [0:2)\n"
	                           "  3   for s3 in [0:2)\n"
	                           "  4     for r3 in [0:2)\n"
	                           "  5       // PEs (spatial)\n"
	                           "  6       parallel_for f2 in [0:2)  # X 2, Y 1\n"
	                           "  7         // RF (temporal)\n"
	                           "  8         for m1 in [0:2)\n"
	                           "  9           for e1 in [0:2)\n"
	                           " 10             MAC  # MAC\n") != NULL, "%s", some);
	free(all);
	free(some);
	/* JSON keeps every loop */
	char *json = tu_capture(TINY_MAP " --format json", 0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_null(strstr(json, "not shown"));
	free(json);
}
END_TEST

/* Every option of every command given twice (issue: two --constraints
 * files silently kept the second): one that takes a single value is refused
 * with exit 2 and says so; the repeatable ones (exactly --factor, --dataflow
 * and --dim, whose usage shows "...") and the flags are not. The options
 * are read from each command's --help. */
START_TEST(test_every_option_twice)
{
	static const char *const cmds[] = {"arch",  "eval",    "explore",  "fuse",    "import",   "map",
	                                   "network", "space", "sparsity", "version", "workloads"};
	int refused = 0, repeatable = 0, flags = 0;
	for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
		char args[1024];
		int st = 0;
		snprintf(args, sizeof args, "%s --help", cmds[c]);
		char *help = tu_capture(args, 0, &st);
		ck_assert_int_eq(st, 0);
		char *use = strstr(help, "usage: ");
		ck_assert_ptr_nonnull(use);
		char *end = strstr(use, "\n\n");
		if (end)
			*end = 0;
		for (char *p = use; (p = strchr(p, '-'));) {
			if (!(p[-1] == '[' || p[-1] == ' ' || p[-1] == '|') || !(p[1] == '-' || (p[1] >= 'a' && p[1] <= 'z'))) {
				p++;
				continue;
			}
			size_t n = 1;
			while (p[n] == '-' || (p[n] >= 'a' && p[n] <= 'z'))
				n++;
			char opt[64];
			snprintf(opt, sizeof opt, "%.*s", (int)n, p);
			const int value = p[n] == ' ' && p[n + 1] && p[n + 1] != '[' && p[n + 1] != '-' && p[n + 1] != '\n';
			const char *close = strchr(p + n, ']');
			const int repeat = close && !strncmp(close + 1, "...", 3);
			p += n;
			if (!strcmp(opt, "--help"))
				continue;
			/* a missing file after the options: whatever else is wrong, exit 2 fast */
			if (value)
				snprintf(args, sizeof args, "%s %s 1 %s 1 /nonexistent.yaml", cmds[c], opt, opt);
			else
				snprintf(args, sizeof args, "%s %s %s /nonexistent.yaml", cmds[c], opt, opt);
			char *out = tu_capture(args, 1, &st);
			const int twice = strstr(out, "given twice") != NULL;
			if (value && !repeat) {
				ck_assert_msg(st == 2 && twice, "trim %s: exit %d: %s", args, st, out);
				refused++;
			} else {
				ck_assert_msg(!twice, "trim %s: %s", args, out);
				ck_assert_msg(!repeat || !strcmp(opt, "--factor") || !strcmp(opt, "--dataflow") ||
				                  !strcmp(opt, "--dim"),
				              "trim %s: %s repeatable", cmds[c], opt);
				repeatable += repeat;
				flags += !value;
			}
			free(out);
		}
		free(help);
	}
	ck_assert_int_ge(refused, 60);
	ck_assert_int_eq(repeatable, 6); /* --factor; --dataflow of 4 commands; --dim */
	ck_assert_int_ge(flags, 10);
	/* the repeatable ones combine: two presets, both applied */
	int st = 0;
	char *two = tu_capture("map models/networks/trim-fig2.yaml models/arch/eyeriss.yaml --layer conv1 --phase FW "
	                       "--dataflow row-stationary --dataflow row-stationary --max-mappings 1",
	                       1, &st);
	ck_assert_ptr_null(strstr(two, "given twice"));
	free(two);
}
END_TEST

/* An exact network run is told before it starts when a mapspace is beyond
 * what exact searches finish (AlexNet at batch 2^24: conv1 FW has 5.1e13
 * distinct mappings; --max-mappings 1 then refuses it, so nothing long
 * runs); with a time limit or a gap, or a small space, nothing is said. */
START_TEST(test_long_exact_warned_before)
{
	int st = 0;
	char *big = tu_capture("network models/networks/alexnet.yaml models/arch/eyeriss.yaml --batch 16777216 "
	                       "--max-mappings 1",
	                       1, &st);
	ck_assert_int_eq(st, 2);
	const char *w = strstr(big, "warning: trim network: an exact search of more than 1e+13 distinct mappings "
	                            "(conv1 FW: 5.11e+13)");
	const char *refused = strstr(big, "more than the limit of 1");
	ck_assert_msg(w && refused && w < refused, "%s", big);
	ck_assert_ptr_nonnull(strstr(big, "--time-limit SECONDS bounds the run"));
	free(big);
	static const char *const quiet[] = {
		"network models/networks/alexnet.yaml models/arch/eyeriss.yaml --batch 16777216 --max-mappings 1 "
		"--time-limit 5",
		"network models/networks/alexnet.yaml models/arch/eyeriss.yaml --batch 16777216 --max-mappings 1 --gap 0.1",
		"network test/data/networks/tiny.yaml test/data/neteval/tiny-arch.yaml --quiet"};
	for (int k = 0; k < 3; k++) {
		char *o = tu_capture(quiet[k], 1, &st);
		ck_assert_msg(strstr(o, "exact search of more than") == NULL, "%s: %s", quiet[k], o);
		free(o);
	}
}
END_TEST

/* The warnings before the work: trim arch prints them; trim map, network,
 * sparsity and explore print them on standard error before the search
 * (here a search that fails: its error comes after them, so they cannot
 * have been made from its results). */
START_TEST(test_warnings_before_the_search)
{
	int st = 0;
	char *a = tu_capture("arch test/data/arch/starved.yaml", 1, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(a, "\nwarning: Array: a 16-bit link of 16-bit words carries 1 word per cycle into 16 "
	                        "children: each word must feed 32 MACs") != NULL, "%s", a);
	ck_assert_msg(strstr(a, "\nroofline: peak 32 MACs per cycle") < strstr(a, "\nwarning: "), "%s", a);
	free(a);
	static const char *const runs[][2] = {
		{"network test/data/networks/fc64.yaml test/data/arch/starved.yaml --quiet "
		 "--constraints test/data/constraints/fc64-none.yaml", "network"},
		{"sparsity test/data/networks/fc64.yaml test/data/arch/starved.yaml --quiet "
		 "--constraints test/data/constraints/fc64-none.yaml", "sparsity"},
		{"map test/data/networks/fc64.yaml test/data/arch/starved.yaml --layer fc --phase FW "
		 "--constraints test/data/constraints/fc64-none.yaml", "map"},
		{"explore test/data/networks/fc64.yaml test/data/arch/starved-space.yaml --quiet "
		 "--constraints test/data/constraints/fc64-none.yaml", "explore"}};
	for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
		char link[160], dram[256], array[160];
		char *o = tu_capture(runs[k][0], 1, &st); /* stdout too: nothing before the warnings */
		ck_assert_msg(st == 2, "%s: status %d\n%s", runs[k][1], st, o);
		snprintf(link, sizeof link, "warning: trim %s: Array: a 16-bit link", runs[k][1]);
		snprintf(dram, sizeof dram, "warning: trim %s: DRAM: moving each weight and output word once takes more "
		         "cycles than the MACs at peak in 1 of 1 workloads (fc FW: 1.02e+03 cycles against 64): temporal "
		         "utilisation at most 0.0625, whatever the mapping", runs[k][1]);
		snprintf(array, sizeof array, "warning: trim %s: Array: moving each weight", runs[k][1]);
		const char *l = strstr(o, link), *d = strstr(o, dram), *y = strstr(o, array);
		const char *search = strstr(o, "no factorisation of M = 32");
		ck_assert_msg(l == o && d && y && search && l < d && d < y && y < search, "%s:\n%s", runs[k][1], o);
		if (!strcmp(runs[k][1], "explore")) /* once, for every point */
			ck_assert_msg(!strncmp(d + strlen(dram), " (every point)\n", 15), "%s", o);
		free(o);
	}
}
END_TEST

/* trim map, network and explore default to the same goal, energy */
START_TEST(test_one_default_goal)
{
	int st = 0;
	char *m = tu_capture(TINY_MAP, 0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(m, "\ngoal: energy\n") != NULL, "%s", m);
	free(m);
	char *n = tu_capture("network test/data/networks/tiny.yaml test/data/neteval/tiny-arch.yaml --quiet", 0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(n, ", goal energy") != NULL, "%s", n);
	free(n);
	char *x = tu_capture("explore test/data/networks/tiny.yaml test/data/neteval/tiny-space.yaml --quiet", 0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(x, ", goal energy:") != NULL, "%s", x);
	free(x);
	char *h = tu_capture("--help", 0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(h, "--goal defaults to energy"));
	free(h);
	/* and every report names it: JSON, CSV (a first column; the breakdowns: test/check_report.c) */
	static const char *const named[][2] = {
		{TINY_MAP " --format json", "\"goal\": \"energy\""},
		{"network test/data/networks/tiny.yaml test/data/neteval/tiny-arch.yaml --quiet --format json",
		 "\"goal\": \"energy\""},
		{"network test/data/networks/tiny.yaml test/data/neteval/tiny-arch.yaml --quiet --format csv",
		 "goal,index,layer,phase,"},
		{"explore test/data/networks/tiny.yaml test/data/neteval/tiny-space.yaml --quiet --format json",
		 "\"goal\": \"energy\""},
		{"explore test/data/networks/tiny.yaml test/data/neteval/tiny-space.yaml --quiet --format csv",
		 "goal,name,rank,"}};
	for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
		char *o = tu_capture(named[k][0], 0, &st);
		ck_assert_int_eq(st, 0);
		ck_assert_msg(strstr(o, named[k][1]) != NULL, "%s:\n%.300s", named[k][0], o);
		if (strstr(named[k][0], "csv")) /* every row says it */
			for (const char *l = strchr(o, '\n'); l && l[1]; l = strchr(l + 1, '\n'))
				ck_assert_msg(!strncmp(l + 1, "energy,", 7), "%s:\n%.300s", named[k][0], l + 1);
		free(o);
	}
}
END_TEST

/* the C API agrees: a new search, network evaluation and explorer map for energy */
START_TEST(test_one_default_goal_in_the_api)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_space *sp = NULL;
	trim_explorer *ex = NULL;
	char *text = NULL;
	ck_assert_int_eq(trim_network_load(&net, "test/data/networks/tiny.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_int_eq(trim_space_load(&sp, "test/data/neteval/tiny-space.yaml"), 0);
	ck_assert_int_eq(trim_explorer_create(&ex, net, w, sp), 0);
	ck_assert_int_eq(trim_explorer_run(ex), 0);
	ck_assert_int_eq(trim_explorer_report(ex, TRIM_FORMAT_JSON, &text), 0);
	const char *goal = strstr(text, "\"goal\": ");
	ck_assert_msg(goal && !strncmp(goal, "\"goal\": \"energy\"", 16), "%.80s", text);
	trim_string_free(text);
	trim_explorer_free(ex);
	trim_space_free(sp);
	trim_arch *a = NULL;
	trim_neteval *ne = NULL;
	ck_assert_int_eq(trim_arch_load(&a, "test/data/neteval/tiny-arch.yaml"), 0);
	ck_assert_int_eq(trim_neteval_create(&ne, net, w, a, NULL), 0);
	ck_assert_int_eq(trim_neteval_run(ne), 0);
	ck_assert_int_eq(trim_neteval_report(ne, TRIM_FORMAT_TABLE, &text), 0);
	ck_assert_msg(strstr(text, ", goal energy") != NULL, "%.200s", text);
	trim_string_free(text);
	trim_neteval_free(ne);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

/* layer and point names are never cut, and the header lines up with the rows */
static void assert_column(const char *text, const char *header, const char *name, const char *next)
{
	const char *head = strstr(text, header);
	ck_assert_msg(head != NULL, "no '%s' in\n%s", header, text);
	const char *cell = strstr(text, name);
	ck_assert_msg(cell != NULL, "'%s' cut or missing in\n%s", name, text);
	const char *row = cell;
	while (row > text && row[-1] != '\n')
		row--;
	const char *line_end = strchr(head, '\n');
	const char *col = strstr(head, next);
	ck_assert_msg(col && col < line_end, "no '%s' in the header", next);
	/* the column after the name starts where the header's does */
	const char *after = cell + strlen(name);
	while (*after == ' ')
		after++;
	ck_assert_int_eq((int)(after - row), (int)(col - head));
}

#define LONGNET "test/data/networks/tiny-long-names.yaml"
START_TEST(test_columns_fit_the_names)
{
	int st = 0;
	char *w = tu_capture("workloads " LONGNET " --mode training", 0, &st);
	ck_assert_int_eq(st, 0);
	assert_column(w, "#    layer", "stage1.block0.conv_with_a_long_name", "phase");
	ck_assert_ptr_nonnull(strstr(w, " stage9.classifier.fully_connected   WG "));
	free(w);
	char *n = tu_capture("network " LONGNET " test/data/neteval/tiny-arch.yaml --quiet --mode training", 0, &st);
	ck_assert_msg(st == 0, "%s", n);
	assert_column(n, "#    layer", "stage1.block0.conv_with_a_long_name", "phase");
	free(n);
	char *s = tu_capture("sparsity " LONGNET " test/data/neteval/tiny-arch.yaml --quiet --mode training", 0, &st);
	ck_assert_msg(st == 0, "%s", s);
	assert_column(s, "#    layer", "stage9.classifier.fully_connected", "phase");
	free(s);
	/* ResNet-18's downsample layers, as the issue saw them cut */
	char *r = tu_capture("workloads models/networks/resnet18.yaml", 0, &st);
	ck_assert_int_eq(st, 0);
	assert_column(r, "#    layer", "layer2.0.downsample.0", "phase");
	free(r);
}
END_TEST

START_TEST(test_sparsity_legend)
{
	int st = 0;
	char *s = tu_capture("sparsity test/data/networks/tiny.yaml test/data/neteval/tiny-arch.yaml --quiet", 0, &st);
	ck_assert_msg(st == 0, "%s", s);
	ck_assert_ptr_nonnull(strstr(s, "s_in0, s_in1: fraction of zeros of operands 0 and 1"));
	ck_assert_ptr_nonnull(strstr(s, "s_out: BW results a later ReLU zeros"));
	free(s);
}
END_TEST

/* trim sparsity says whether its mappings are proven optimal: exact on a tiny
 * network, not proven (with the lower bound and gap) on VGG-16 stopped by
 * --time-limit after a second (4.8e13 distinct mappings in conv1_2 alone) */
START_TEST(test_sparsity_search_line)
{
	int st = 0;
	char *s = tu_capture("sparsity test/data/networks/tiny.yaml test/data/neteval/tiny-arch.yaml --quiet", 0, &st);
	ck_assert_msg(st == 0, "%s", s);
	ck_assert_ptr_nonnull(strstr(s, "search: exact"));
	ck_assert_msg(strstr(s, " saving exact      gap  bound\n") && !strstr(s, "    no "), "%s", s);
	free(s);
	char *j = tu_capture("sparsity test/data/networks/tiny.yaml test/data/neteval/tiny-arch.yaml --quiet --format json", 0,
	                     &st);
	ck_assert_msg(st == 0, "%s", j);
	ck_assert_ptr_nonnull(strstr(j, "\"search\": {\"exact\": true, \"lower_bound\": "));
	ck_assert_ptr_nonnull(strstr(j, "\"gap\": 0}"));
	ck_assert_ptr_nonnull(strstr(j, "\"bottleneck\": \"NoC\", \"exact\": true, \"gap\": 0, \"lower_bound\": "));
	free(j);
	char *v = tu_capture("sparsity models/networks/vgg16.yaml models/arch/sparse-training.yaml --quiet --time-limit 1", 0,
	                     &st);
	ck_assert_msg(st == 0, "%s", v);
	const char *line = strstr(v, "search: NOT proven optimal (time limit or --gap): proven lower bound ");
	ck_assert_msg(line != NULL, "%s", v);
	double gap = 0;
	const char *g = strstr(line, "gap ");
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(sscanf(g, "gap %lf%%", &gap), 1);
	ck_assert(gap > 0 && gap < 100);
	ck_assert_msg(strstr(v, "    no "), "no workload marked not proven: %s", v); /* the one that stopped */
	free(v);
}
END_TEST

START_TEST(test_version_formats)
{
	int st = 0;
	char *t = tu_capture("version", 0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(t, "libtrim 0.1.0\n");
	free(t);
	char *j = tu_capture("version --format json", 0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(j, "{\"version\": \"0.1.0\", \"number\": 100}\n");
	free(j);
	char *bad = tu_capture("version --format csv", 1, &st);
	ck_assert_int_eq(st, 2);
	ck_assert_ptr_nonnull(strstr(bad, "--format takes table or json"));
	free(bad);
	bad = tu_capture("version --verbose", 1, &st);
	ck_assert_int_eq(st, 2);
	free(bad);
	char *h = tu_capture("version --help", 0, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(h, "usage: trim version [--format table|json]"));
	free(h);
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_map_hides_loops_of_bound_one);
	tcase_add_test(tc, test_one_default_goal);
	tcase_add_test(tc, test_warnings_before_the_search);
	tcase_add_test(tc, test_one_default_goal_in_the_api);
	tcase_add_test(tc, test_columns_fit_the_names);
	tcase_add_test(tc, test_sparsity_legend);
	tcase_add_test(tc, test_sparsity_search_line);
	tcase_add_test(tc, test_version_formats);
	tcase_add_test(tc, test_every_option_twice);
	tcase_add_test(tc, test_long_exact_warned_before);
	suite_add_tcase(s, tc);
	return s;
}
