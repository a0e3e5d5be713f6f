/* The search tests' fixture (search_fixture.h). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "search_fixture.h"

void search_fixture_load(search_fixture *x, const char *net, const char *arch, int mode, int64_t batch)
{
	char path[256];
	memset(x, 0, sizeof *x);
	snprintf(path, sizeof path, "models/networks/%s.yaml", net);
	ck_assert_int_eq(trim_network_load(&x->net, path), 0);
	ck_assert_int_eq(trim_workloads_create(&x->w, x->net, mode, batch, 0), 0);
	snprintf(path, sizeof path, "models/arch/%s.yaml", arch);
	ck_assert_int_eq(trim_arch_load(&x->a, path), 0);
	ck_assert_int_eq(trim_energy_load_for_arch(&x->tbl, x->a), 0);
	ck_assert_int_eq(trim__arch_costs(x->a, x->tbl, x->c), 0);
}

void search_fixture_free(search_fixture *x)
{
	trim_energy_free(x->tbl);
	trim_arch_free(x->a);
	trim_workloads_free(x->w);
	trim_network_free(x->net);
}
