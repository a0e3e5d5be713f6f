/*
 * Test-only builders of intra-layer workloads and architectures as C
 * structs (the network loader and the arch loader are other modules).
 */
#ifndef TRIM_TEST_TCASE_UTIL_H
#define TRIM_TEST_TCASE_UTIL_H

#include <stdint.h>

#include "arch/arch_int.h"
#include "energy/energy_int.h"
#include "search/mapspace_int.h"
#include "workload/workload_int.h"

enum { TU_CONV = 0, TU_DEPTHWISE, TU_FC, TU_MAXPOOL, TU_AVGPOOL };

/* A sliding-window layer (conv, depthwise, fc as 1x1 conv on 1x1, pools) in
 * phase FW, BW or WG, built as the task analyst does (docs/model.md):
 * in_h x in_w input, kernel r x s, stride u, dilation dil, padding pad on
 * every side, cin input channels, cout output channels (conv), groups. */
int tu_layer(trim__intra *x, int kind, int phase, int64_t n, int64_t cin, int64_t cout,
             int64_t groups, int64_t in_h, int64_t in_w, int64_t r, int64_t s, int64_t u,
             int64_t dil, int64_t pad);

/* A storage / spatial / compute level appended to arch a. */
trim__level *tu_storage(struct trim_arch *a, const char *name, int64_t cap_bytes, int word_bits);
trim__level *tu_spatial(struct trim_arch *a, const char *name, int64_t fx, int64_t fy, int mc,
                        int red);
trim__level *tu_compute(struct trim_arch *a, const char *name);
void tu_arch_init(struct trim_arch *a, const char *name);
/* Fill in instances / total_pes after the levels are added. */
void tu_arch_finish(struct trim_arch *a);

/* Per-level costs for search tests: DRAM expensive, inner levels cheaper,
 * leakage growing inwards (energy_int.h's trim__level_cost). */
void tu_costs(const struct trim_arch *a, trim__level_cost *c);
/* The node of the branch-and-bound tree above mapping m at depth (its
 * factors at the first depth tree slots: *node) and the node's bound (sw:
 * the test's own trim__stationary_workspace_new). */
double tu_node_lb(const trim__mapspace *s, const trim__level_cost *c, int goal, int depth, int64_t zero_macs,
                  const trim__mapping *m, trim__mapping *node, stationary_workspace *sw);
/* DRAM (2 words per cycle) -> NoC nx x ny (multicast, reduction) -> RF of
 * rf_bytes -> MAC (levels 0-3), 16-bit words. */
void tu_arch_rf(struct trim_arch *a, const char *name, int64_t nx, int64_t ny, int64_t rf_bytes);
/* Small search spaces shared by the search and constraint tests; 0 or the
 * error of tu_layer. FC M = 4, C = 2 on DRAM -> GLB -> NoC 2x2 -> RF -> MAC
 * (levels 0-4). */
int tu_case_fc(struct trim_arch *a, trim__intra *w);
/* A strided conv (C = 2, 3x2 input, 2x2 kernel, stride 1, pad 0: E = 2,
 * F = 1, R = S = 2, a sliding window) on DRAM -> NoC 2x1 -> RF -> MAC
 * (levels 0-3). */
int tu_case_conv(struct trim_arch *a, trim__intra *w);
/* The two as builders of brute_vs_search (search_brute.h) and the
 * constraints' brute force (constraints_brute.h): a failure fails the test. */
void case_fc(struct trim_arch *a, trim__intra *w);
void case_conv(struct trim_arch *a, trim__intra *w);

/* Check records every passing assertion (a write per call): loops over
 * whole spaces test with REQUIRE, which only acts on failure. */
#define REQUIRE(cond, ...)                   \
	do {                                     \
		if (!(cond))                         \
			ck_abort_msg(__VA_ARGS__);       \
	} while (0)

/* The output of the CLI (TRIM_CLI, default build/bin/trim) run with args,
 * standard error merged (with_stderr) or dropped; *status its exit code
 * (-1 if it did not exit). Returns a malloc'd string (never NULL; the
 * caller frees it). */
char *tu_capture(const char *args, int with_stderr, int *status);

/* Deterministic generator (splitmix64). */
uint64_t tu_rand(uint64_t *state);
int64_t tu_range(uint64_t *state, int64_t lo, int64_t hi); /* uniform in [lo, hi] */

#endif
