/*
 * trim-mpi: trim explore, trim network and trim map spread over MPI ranks
 * (docs/guide.md, "Running on a cluster"). A separate executable, so that
 * neither libtrim nor trim depends on MPI: it runs the trim CLI's own
 * commands (the same options, the same output) with their work handed out
 * by lib/cli/mpi/distribute.c (map: lib/cli/mpi/map.c) through the work
 * items of trim/work.h.
 *
 *   mpirun -n 4 trim-mpi explore NETWORK.yaml SPACE.yaml --threads 2 --out DIR
 *
 * Only rank 0 writes the command's output; every rank prints its own errors.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "trim_mpi.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: mpirun -n N trim-mpi explore|network|map [the options of trim explore / network / map]\n\n"
	           "Runs trim explore (the architecture points), trim network (the distinct\n"
	           "searches) or trim map (the top nodes of its search tree) on N MPI ranks:\n"
	           "rank 0 hands out the items, largest first (map: in bound order), to the\n"
	           "ranks that ask, computes too, and prints the result, byte-identical to trim's.\n"
	           "--threads N is per rank. With --out DIR on a file system every rank sees,\n"
	           "each finished item is kept there and a rerun resumes from them.\n"
	           "An exploration's items are its points, or the searches of its points when it\n"
	           "has fewer than twice as many points as ranks (--items points|searches chooses).\n"
	           "--share K/N (without mpirun: a job array's task K of N) runs only every Nth\n"
	           "item from the Kth into --out DIR and prints nothing; trim explore|network with\n"
	           "the same --out DIR then reads them back and prints.\n"
	           "map: a top node goes out once the nodes four places before it are merged (its\n"
	           "threshold is then the one-process one), so at most four run at once in all,\n"
	           "one per thread. --gap gives trim map's bytes too; --time-limit runs on each\n"
	           "rank's clock (an anytime result, valid but not always the one-process one).\n"
	           "libtrim %s\n",
	           trim_version_string());
}

/* --items points|searches out of argv: 0, or -1 with the message printed. */
static int take_items(int *argc, char **argv)
{
	for (int i = 2; i < *argc; i++) {
		if (strcmp(argv[i], "--items"))
			continue;
		const char *v = i + 1 < *argc ? argv[i + 1] : "";
		if (!strcmp(v, "points"))
			trim_mpi_items = TRIM_MPI_ITEMS_POINTS;
		else if (!strcmp(v, "searches"))
			trim_mpi_items = TRIM_MPI_ITEMS_SEARCHES;
		else {
			fprintf(stderr, "trim-mpi %s: --items takes points or searches; got '%s'\n", argv[1], v);
			return -1;
		}
		if (strcmp(argv[1], "explore")) {
			fprintf(stderr, "trim-mpi %s: --items is for explore (a network's items are its searches)\n", argv[1]);
			return -1;
		}
		for (int k = i; k + 2 <= *argc; k++)
			argv[k] = argv[k + 2];
		*argc -= 2;
		return 0;
	}
	return 0;
}

/* --share K/N out of argv (the command does not know it): 0, or -1 with
 * the message printed. */
static int take_share(int *argc, char **argv)
{
	int at = -1, out = 0;
	for (int i = 2; i < *argc; i++) {
		if (!strcmp(argv[i], "--share"))
			at = i;
		if (!strcmp(argv[i], "--out"))
			out = 1;
	}
	if (at < 0)
		return 0;
	int k = -1, n = 0, end = 0;
	if (at + 1 >= *argc || sscanf(argv[at + 1], "%d/%d%n", &k, &n, &end) != 2 || argv[at + 1][end] ||
	    n < 1 || k < 0 || k >= n) {
		fprintf(stderr, "trim-mpi %s: --share takes K/N with 0 <= K < N (task K of N), e.g. "
		                "--share $SLURM_ARRAY_TASK_ID/16; got '%s'\n", argv[1], at + 1 < *argc ? argv[at + 1] : "");
		return -1;
	}
	if (!out) {
		fprintf(stderr, "trim-mpi %s: --share needs --out DIR (the share's results are kept there)\n", argv[1]);
		return -1;
	}
	if (trim_mpi_size > 1) {
		fprintf(stderr, "trim-mpi %s: --share is for independent tasks (one rank each), not for %d ranks\n", argv[1],
		        trim_mpi_size);
		return -1;
	}
	if (trim_mpi_items == TRIM_MPI_ITEMS_SEARCHES) {
		fprintf(stderr, "trim-mpi %s: --share takes whole points (--items searches keeps a point's searches in "
		                "memory until it is finished)\n", argv[1]);
		return -1;
	}
	trim_mpi_share_k = k;
	trim_mpi_share_n = n;
	for (int i = at; i + 2 <= *argc; i++)
		argv[i] = argv[i + 2];
	*argc -= 2;
	return 0;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return TRIM_CLI_EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("trim-mpi %s\n", trim_version_string());
		return 0;
	}
	trim_cli_distributed = &trim_mpi_runner;
	if (take_items(&argc, argv) || take_share(&argc, argv))
		return TRIM_CLI_EXIT_USAGE;
	if (!strcmp(cmd, "explore"))
		return trim_cli_explore(argc - 1, argv + 1);
	if (!strcmp(cmd, "network"))
		return trim_cli_network(argc - 1, argv + 1);
	if (!strcmp(cmd, "map"))
		return trim_cli_map(argc - 1, argv + 1);
	fprintf(stderr, "trim-mpi: '%s' is not distributed (explore, network, map)\n", cmd);
	usage(stderr);
	return TRIM_CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	int provided = 0;
	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "trim-mpi: MPI_Init_thread failed\n");
		return TRIM_CLI_EXIT_FAIL;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &trim_mpi_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &trim_mpi_size);
	trim_mpi_threaded = provided >= MPI_THREAD_SERIALIZED;
	if (trim_mpi_rank > 0 && !freopen("/dev/null", "w", stdout)) /* only rank 0 prints results */
		fprintf(stderr, "trim-mpi: rank %d: cannot silence its standard output\n", trim_mpi_rank);
	if (trim_mpi_rank > 0)
		trim_mpi_quiet_setup();
	int rc = dispatch(argc, argv);
	trim_mpi_after_command();
	if (fflush(stdout) != 0 && rc == 0) {
		perror("trim-mpi: standard output");
		rc = TRIM_CLI_EXIT_FAIL;
	}
	MPI_Finalize();
	return rc;
}
