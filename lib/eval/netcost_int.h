/*
 * Costs of inter-layer workloads on an architecture (docs/model.md,
 * "Network evaluation"): preprocessing (padding, upsampling, transposition),
 * data movement (concat), BatchNorm as a constant-delay workload, and the
 * caching of intermediate activations (on chip when they fit, else off chip),
 * whose on-chip share is taken from the buffer the mapper may use.
 */
#ifndef TRIM_NETCOST_INT_H
#define TRIM_NETCOST_INT_H

#include <stdint.h>

#include "arch/arch_int.h"
#include "workload/workload_int.h"

typedef struct {
	int glb;                 /* level that holds cached activations and runs preprocessing */
	double onchip_fraction;  /* at most this fraction of its capacity is used for caching */
	size_t ninter, nintra;
	int *onchip;             /* per inter workload: cached on chip (1) or off chip (0) */
	int64_t *reserved;       /* per intra workload: on-chip cached bytes while it runs */
} trim__cache_plan;

/* Decide where every cached tensor lives (greedy, in creation order: on chip
 * while the live on-chip cached bytes stay within onchip_fraction of the
 * buffer) and what each intra workload must leave free. */
int trim__cache_plan_make(trim__cache_plan *p, const trim_workloads *w, const struct trim_arch *a,
                          double onchip_fraction);
void trim__cache_plan_free(trim__cache_plan *p);

typedef struct {
	double cycles;           /* added to the network's time (0 for caching: it overlaps) */
	double energy_pj;        /* dynamic + static */
	double static_pj;
	int level;               /* where it runs */
} trim__inter_cost;

/* Cost of inter workload j; intra_cycles[i] are the cycles of every intra
 * workload (for the lifetime of cached tensors). */
int trim__inter_cost_eval(const trim_workloads *w, size_t j, const struct trim_arch *a,
                          const trim__level_cost *costs, const trim__cache_plan *plan,
                          const double *intra_cycles, trim__inter_cost *out);

#endif
