/*
 * Dataflow constraints that cannot be read or do not fit: every reading and
 * checking error with its file:line:column and key path, and a factor that
 * divides no factorisation of a workload (TRIM_ENOFIT).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "activity/activity_int.h"
#include "constraints/constraints_int.h"
#include "search/search_int.h"
#include "tcase_util.h"
#include "trim.h"
#include "constraints_brute.h"

/* ---- reading and checking errors: file:line:col and the key path --------- */

static void bad(const char *yaml, const char *want1, const char *want2)
{
	trim_constraints *c = NULL;
	int rc = trim_constraints_load_string(&c, yaml, "c.yaml");
	ck_assert_msg(rc < 0, "accepted: %s", yaml);
	ck_assert_ptr_null(c);
	const char *msg = trim_last_error();
	ck_assert_msg(strstr(msg, want1) && strstr(msg, want2), "'%s' lacks '%s' / '%s'", msg, want1, want2);
}

START_TEST(test_read_errors)
{
	bad("targets:\n  - target: RF\n    type: temporal\n    fators: R=1\n", "c.yaml:4:5: targets[0].fators",
	    "unknown key 'fators'");
	bad("targets:\n  - target: RF\n    type: spacial\n", "c.yaml:3:11: targets[0].type", "unknown type 'spacial'");
	bad("targets:\n  - target: RF\n    type: utilization\n", "c.yaml:3:11: targets[0].type", "not supported");
	bad("targets:\n  - {target: RF, type: temporal, factors: R=1 X=2}\n", "c.yaml:2:43: targets[0].factors",
	    "unknown dimension 'X'");
	bad("targets:\n  - {target: RF, type: temporal, factors: R=-1}\n", "c.yaml:2:43: targets[0].factors",
	    "bad factor");
	bad("targets:\n  - {target: RF, type: temporal, factors: R=2 R=3}\n", "targets[0].factors", "given twice");
	bad("targets:\n  - {target: RF, type: temporal, factors: {X: 2}}\n", "c.yaml:2:44: targets[0].factors.X",
	    "unknown dimension 'X'");
	bad("targets:\n  - target: RF\n    type: bypass\n    keep: [weigths]\n", "c.yaml:4:12: targets[0].keep[0]",
	    "unknown tensor 'weigths'");
	bad("targets:\n  - {target: RF, type: bypass, keep: [input], bypass: [Inputs]}\n",
	    "c.yaml:2:56: targets[0].bypass[0]", "both kept and bypassed");
	bad("targets:\n  - {target: RF, type: temporal, permutation: SRS}\n", "c.yaml:2:47: targets[0].permutation",
	    "S appears twice");
	bad("targets:\n  - {target: RF, type: temporal, keep: [input]}\n", "c.yaml:2:5: targets[0]", "type bypass");
	bad("targets:\n  - {target: GLB, type: spatial, split: 1}\n", "c.yaml:2:41: targets[0].split", "needs a permutation");
	bad("targets:\n  - {target: RF, type: temporal, split: 1}\n", "c.yaml:2:5: targets[0]", "spatial target only");
	bad("targets:\n  - {target: RF, type: temporal, only: [C], factors: R=3}\n", "c.yaml:2:40: targets[0].only",
	    "R is not in only");
	bad("targets:\n  - {type: temporal}\n", "c.yaml:2:5: targets[0]", "missing required key 'target'");
	bad("preset: row-stationery\n", "c.yaml:1:9: preset", "unknown preset 'row-stationery'");
	bad("mapspace_constraints:\n  targets:\n    - {target: RF, type: temporal, factor: R=1}\n",
	    "c.yaml:3:36: mapspace_constraints.targets[0].factor", "unknown key");
	bad("schema_version: 2\n", "c.yaml:1:17: schema_version", "out of range");
	bad("architecture: {}\n", "c.yaml:1:1: architecture", "unknown key");
	bad("targets: [\n", "c.yaml:", "");
}
END_TEST

#define TINY_ARCH                                                                         \
	"schema_version: 1\nname: t\nclock_mhz: 100\ntechnology: 65nm\nword_bits: 16\nlevels:\n" \
	"  - {name: DRAM, type: storage, class: dram, technology: ddr3}\n"                      \
	"  - {name: GLB, type: storage, class: sram, capacity: 1 KB}\n"                          \
	"  - {name: NoC, type: spatial, fanout: [2, 1], network: bus, multicast: true}\n"       \
	"  - {name: RF, type: storage, class: regfile, capacity: 64, keep: [input, output]}\n"  \
	"  - {name: MAC, type: compute, datatype: int16}\n"

static void bad_check(const char *yaml, const char *want1, const char *want2)
{
	trim_arch *a = NULL;
	ck_assert_int_eq(trim_arch_load_string(&a, TINY_ARCH, "a.yaml"), 0);
	trim_constraints *c = load(yaml);
	int rc = trim_constraints_check(c, a);
	ck_assert_msg(rc < 0, "accepted: %s", yaml);
	const char *msg = trim_last_error();
	ck_assert_msg(strstr(msg, want1) && strstr(msg, want2), "'%s' lacks '%s' / '%s'", msg, want1, want2);
	trim_constraints_free(c);
	trim_arch_free(a);
}

START_TEST(test_check_errors)
{
	bad_check("targets:\n  - {target: RFF, type: temporal, only: [C]}\n", "c.yaml:2:14: targets[0].target",
	          "unknown level 'RFF' (t has DRAM, GLB, NoC, RF, MAC)");
	bad_check("targets:\n  - {target: NoC, type: temporal, only: [C]}\n", "c.yaml:2:14: targets[0].target",
	          "NoC is a spatial level: no temporal constraint");
	bad_check("targets:\n  - {target: RF, type: spatial, only: [C]}\n", "c.yaml:2:14: targets[0].target",
	          "no spatial level directly below RF");
	bad_check("targets:\n  - {target: MAC, type: temporal, only: [C]}\n", "targets[0].target", "compute level");
	bad_check("targets:\n  - {target: RF, type: bypass, keep: [weight]}\n", "c.yaml:2:5: targets[0]",
	          "cannot keep weight at RF");
	bad_check("targets:\n  - {target: DRAM, type: bypass, bypass: [output]}\n", "c.yaml:2:5: targets[0]",
	          "outermost level holds every tensor");
	bad_check("targets:\n  - {target: GLB, type: temporal, factors: M=2}\n  - {target: GLB, type: temporal, factors: K=4}\n",
	          "c.yaml:3:5: targets[1]", "M=4 at GLB contradicts M=2 from c.yaml:2:5: targets[0]");
	bad_check("preset: output-stationary\ntargets:\n  - {target: RF, type: temporal, factors: M=2}\n",
	          "c.yaml:3:5: targets[0]", "contradicts M=1 from c.yaml:1:9: preset (preset output-stationary)");
	bad_check("targets:\n  - {target: RF, type: temporal, permutation: SR}\n  - {target: RF, type: temporal, permutation: RS}\n",
	          "c.yaml:3:5: targets[1]", "a second, different permutation for RF");
	bad_check("targets:\n  - {target: GLB, type: spatial, permutation: MC, split: 1}\n"
	          "  - {target: NoC, type: spatial, permutation: CM, split: 1}\n",
	          "c.yaml:3:5: targets[1]", "C along X at NoC contradicts");
	bad_check("targets:\n  - {target: GLB, type: bypass, keep: [weight]}\n  - {target: GLB, type: bypass, bypass: [weight]}\n",
	          "c.yaml:3:5: targets[1]", "bypassing weight at GLB contradicts");
}
END_TEST

/* per workload: a factor that divides no factorisation is TRIM_ENOFIT
 * naming the level and dimension; the search is then unchanged */
START_TEST(test_search_enofit)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_search *s = NULL;
	size_t i = 0;
	ck_assert_int_eq(trim_network_load(&net, "test/data/networks/tiny.yaml"), 0);
	ck_assert_int_eq(trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0), 0);
	ck_assert_int_eq(trim_workloads_find(w, "conv1", TRIM_PHASE_FW, &i), 0);
	ck_assert_int_eq(trim_arch_load_string(&a, TINY_ARCH, "a.yaml"), 0);
	ck_assert_int_eq(trim_search_create(&s, w, i, a, NULL), 0);
	double d0 = trim_search_distinct(s);
	/* C = 3 > 2 is clamped to the bound (as Timeloop): C = 2 at the GLB */
	trim_constraints *c = load("targets:\n  - {target: GLB, type: temporal, factors: C=3}\n");
	ck_assert_int_eq(trim_search_set_constraints(s, c), 0);
	double dc = trim_search_distinct(s);
	ck_assert(dc < d0);
	trim_constraints_free(c);
	/* 3 does not divide fc1's C = 8 */
	{
		trim_search *f = NULL;
		size_t j = 0;
		ck_assert_int_eq(trim_workloads_find(w, "fc1", TRIM_PHASE_FW, &j), 0);
		ck_assert_int_eq(trim_search_create(&f, w, j, a, NULL), 0);
		c = load("targets:\n  - {target: GLB, type: temporal, factors: C=3}\n");
		ck_assert_int_eq(trim_search_set_constraints(f, c), TRIM_ENOFIT);
		ck_assert_msg(strstr(trim_last_error(), "no factorisation of C = 8 obeys C = 3 at GLB (c.yaml:2:5: targets[0])"),
		              "%s", trim_last_error());
		trim_constraints_free(c);
		trim_search_free(f);
	}
	/* M = 2 at GLB and at RF cannot both hold */
	c = load("targets:\n  - {target: GLB, type: temporal, factors: C=3 M=2}\n  - {target: RF, type: temporal, factors: K=2}\n");
	ck_assert_int_eq(trim_search_set_constraints(s, c), TRIM_ENOFIT);
	ck_assert_msg(strstr(trim_last_error(), "no factorisation of M = 2 obeys M = 2 at GLB (c.yaml:2:5: targets[0]), "
	                                        "M = 2 at RF (c.yaml:3:5: targets[1])"),
	              "%s", trim_last_error());
	ck_assert(trim_search_distinct(s) == dc); /* unchanged */
	ck_assert_int_eq(trim_search_set_constraints(s, NULL), 0);
	ck_assert(trim_search_distinct(s) == d0);
	trim_constraints_free(c);
	/* a custom factor and a constraint that contradict */
	ck_assert_int_eq(trim_search_set_factor(s, 3, TRIM_DIM_M, 2), 0);
	c = load("targets:\n  - {target: RF, type: temporal, only: [C]}\n");
	ck_assert_int_eq(trim_search_set_constraints(s, c), TRIM_ENOFIT);
	ck_assert_msg(strstr(trim_last_error(), "contradicts the custom factor M = 2"), "%s", trim_last_error());
	ck_assert_int_eq(trim_search_set_factor(s, 3, TRIM_DIM_M, 0), 0);
	ck_assert_int_eq(trim_search_set_constraints(s, c), 0);
	double d1 = trim_search_distinct(s);
	ck_assert(d1 > 0 && d1 < d0);
	ck_assert_int_eq(trim_search_set_factor(s, 3, TRIM_DIM_M, 2), TRIM_ENOFIT); /* against the constraint */
	ck_assert(trim_search_distinct(s) == d1);
	ck_assert_int_eq(trim_search_set_constraints(s, NULL), 0);
	ck_assert(trim_search_distinct(s) == d0);
	trim_constraints_free(c);
	/* an unknown level names the target's position */
	c = load("\ntargets:\n  - {target: RFF, type: temporal, only: [C]}\n");
	ck_assert_int_eq(trim_search_set_constraints(s, c), TRIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(trim_last_error(), "c.yaml:3:14: targets[0].target: unknown level 'RFF'"));
	trim_constraints_free(c);
	trim_search_free(s);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
}
END_TEST

Suite *constraints_errors_suite(void)
{
	Suite *s = suite_create("constraints_errors");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_read_errors);
	tcase_add_test(tc, test_check_errors);
	tcase_add_test(tc, test_search_enofit);
	suite_add_tcase(s, tc);
	return s;
}
