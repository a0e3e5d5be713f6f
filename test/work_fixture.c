/* An exploration of the tiny network's space for the work tests (work_fixture.h). */
#include <check.h>
#include <string.h>

#include "work_fixture.h"

void xsetup(xfx *s, int goal, const char *dir)
{
	memset(s, 0, sizeof *s);
	ck_assert(trim_network_load(&s->net, NET) == 0);
	ck_assert(trim_workloads_create(&s->w, s->net, TRIM_MODE_INFERENCE, 0, 0) == 0);
	ck_assert_msg(trim_space_load(&s->space, SPACE) == 0, "%s", trim_last_error());
	ck_assert(trim_explorer_create(&s->ex, s->net, s->w, s->space) == 0);
	ck_assert(trim_explorer_set_int(s->ex, TRIM_EX_GOAL, goal) == 0);
	if (dir)
		ck_assert_msg(trim_explorer_set_out_dir(s->ex, dir) == 0, "%s", trim_last_error());
}

void xteardown(xfx *s)
{
	trim_work_free(s->wk);
	trim_explorer_free(s->ex);
	trim_space_free(s->space);
	trim_workloads_free(s->w);
	trim_network_free(s->net);
}

char *xreport(const trim_explorer *ex)
{
	char *t = NULL;
	ck_assert(trim_explorer_report(ex, TRIM_FORMAT_JSON, &t) == 0);
	return t;
}
