/*
 * examples/embed: the explorer embedded in a program, through the public API
 * only: load a network and an architecture space, set options, step the
 * search point by point (showing progress without callbacks), read the
 * ranking and the best point's figures, free everything.
 *
 *   example-embed [NETWORK.yaml SPACE.yaml]
 * (default: the small fixtures under test/data/neteval, which run in seconds)
 */
#include <stdio.h>
#include <stdlib.h>

#include <trim.h>

static int fail(const char *what)
{
	fprintf(stderr, "example-embed: %s: %s\n", what, trim_last_error());
	return 1;
}

int main(int argc, char **argv)
{
	const char *net_path = argc > 2 ? argv[1] : "test/data/neteval/tiny.yaml";
	const char *space_path = argc > 2 ? argv[2] : "test/data/neteval/tiny-space-1pe.yaml";
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_space *space = NULL;
	trim_explorer *ex = NULL;
	int status = 1;

	/* 1. load */
	if (trim_network_load(&net, net_path) != 0) {
		status = fail(net_path);
		goto out;
	}
	if (trim_workloads_create(&w, net, TRIM_MODE_INFERENCE, 0, 0) != 0) {
		status = fail("workloads");
		goto out;
	}
	if (trim_space_load(&space, space_path) != 0) {
		status = fail(space_path);
		goto out;
	}
	/* 2. options */
	if (trim_explorer_create(&ex, net, w, space) != 0 ||
	    trim_explorer_set_int(ex, TRIM_EX_GOAL, TRIM_EXPLORE_EDP) != 0 ||
	    trim_explorer_set_int(ex, TRIM_EX_THREADS, 2) != 0) {
		status = fail("explorer");
		goto out;
	}
	/* 3. step the search, one architecture point at a time */
	int done = 0;
	while (!done) {
		if (trim_explorer_step(ex, &done) != 0) {
			status = fail("step");
			goto out;
		}
		printf("evaluated %zu of %zu points\n", trim_explorer_done(ex), trim_explorer_count(ex));
	}
	/* 4. read the results */
	for (size_t r = 1;; r++) {
		size_t i;
		double f[TRIM_XF_COUNT];
		if (trim_explorer_ranked(ex, r, &i) != 0)
			break;
		if (trim_explorer_point(ex, i, f, TRIM_XF_COUNT) != 0) {
			status = fail("point");
			goto out;
		}
		printf("#%zu %-24s %12.6g cycles %12.6g pJ EDP %12.6g%s\n", r,
		       trim_explorer_point_name(ex, i), f[TRIM_XF_CYCLES], f[TRIM_XF_ENERGY_PJ],
		       f[TRIM_XF_EDP], f[TRIM_XF_PARETO] != 0 ? "  (Pareto)" : "");
	}
	status = 0;
out:
	/* 5. free (every _free accepts NULL) */
	trim_explorer_free(ex);
	trim_space_free(space);
	trim_workloads_free(w);
	trim_network_free(net);
	return status;
}
