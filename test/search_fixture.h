/*
 * A shipped network's workloads on a shipped design with the energy table's
 * level costs: the setting of the search tests on real layers
 * (check_search_bounds.c, check_greedy_seed.c).
 */
#ifndef TRIM_TEST_SEARCH_FIXTURE_H
#define TRIM_TEST_SEARCH_FIXTURE_H

#include <stdint.h>

#include "trim.h"
#include "energy/energy_int.h"

typedef struct {
	trim_network *net;
	trim_workloads *w;
	trim_arch *a;
	trim_energy *tbl;
	trim__level_cost c[TRIM__MAX_LEVELS];
} search_fixture;

/* models/networks/NET.yaml in mode at batch on models/arch/ARCH.yaml. */
void search_fixture_load(search_fixture *x, const char *net, const char *arch, int mode, int64_t batch);
void search_fixture_free(search_fixture *x);

#endif
