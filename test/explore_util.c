/* The explorer fixture of the explore suites (explore_util.h). */
#include <check.h>
#include <string.h>

#include "explore_util.h"

void fx_setup(fx *s, int goal, int threads)
{
	memset(s, 0, sizeof *s);
	ck_assert(trim_network_load(&s->net, NET) == 0);
	ck_assert(trim_workloads_create(&s->w, s->net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert_msg(trim_space_load(&s->space, SPACE) == 0, "%s", trim_last_error());
	ck_assert(trim_explorer_create(&s->ex, s->net, s->w, s->space) == 0);
	ck_assert(trim_explorer_set_int(s->ex, TRIM_EX_GOAL, goal) == 0);
	ck_assert(trim_explorer_set_int(s->ex, TRIM_EX_THREADS, threads) == 0);
}

void fx_teardown(fx *s)
{
	trim_explorer_free(s->ex);
	trim_space_free(s->space);
	trim_workloads_free(s->w);
	trim_network_free(s->net);
}
