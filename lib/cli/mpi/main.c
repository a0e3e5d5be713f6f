/*
 * trim-mpi: trim explore and trim network spread over MPI ranks
 * (docs/guide.md, "Running on a cluster"). A separate executable, so that
 * neither libtrim nor trim depends on MPI: it runs the trim CLI's own
 * commands (the same options, the same output) with their work handed out
 * by lib/cli/mpi/distribute.c through the work items of trim/work.h.
 *
 *   mpirun -n 4 trim-mpi explore NETWORK.yaml SPACE.yaml --threads 2 --out DIR
 *
 * Only rank 0 writes the command's output; every rank prints its own errors.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/mpi/trim_mpi.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: mpirun -n N trim-mpi explore|network [the options of trim explore / trim network]\n\n"
	           "Runs trim explore (the architecture points) or trim network (the distinct\n"
	           "searches) on N MPI ranks: rank 0 hands out the items, largest first, to the\n"
	           "ranks that ask, computes too, and prints the result, byte-identical to trim's.\n"
	           "--threads N is per rank. With --out DIR on a file system every rank sees,\n"
	           "each finished item is kept there and a rerun resumes from them.\n"
	           "One search (trim map) is not split across ranks.\n"
	           "libtrim %s\n",
	           trim_version_string());
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
	if (!strcmp(cmd, "explore"))
		return trim_cli_explore(argc - 1, argv + 1);
	if (!strcmp(cmd, "network"))
		return trim_cli_network(argc - 1, argv + 1);
	if (!strcmp(cmd, "map")) {
		fprintf(stderr, "trim-mpi map: one search is not split across ranks (its top nodes are divided among\n"
		                "threads inside the search, which has no API for a share of them); run trim map\n"
		                "--threads N on one node, or trim-mpi network for a network's searches\n");
		return TRIM_CLI_EXIT_USAGE;
	}
	fprintf(stderr, "trim-mpi: '%s' is not distributed (explore, network)\n", cmd);
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
