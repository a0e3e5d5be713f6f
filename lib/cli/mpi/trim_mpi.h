/* trim-mpi, the MPI front end (lib/cli/mpi/): shared by main.c and distribute.c. */
#ifndef TRIM_MPI_H
#define TRIM_MPI_H

#include "cli/cli.h"

extern int trim_mpi_rank, trim_mpi_size;
extern int trim_mpi_threaded; /* MPI allows a second thread of rank 0 to call it */
extern const trim_cli_runner trim_mpi_runner;
/* --share K/N: run only that share of the items into --out DIR, then end
 * (a Slurm job array's task; -1, 0: not set). One rank. */
extern int trim_mpi_share_k, trim_mpi_share_n;
/* --items: what an exploration hands out (auto: the searches of its points
 * when it has fewer than twice as many points as ranks). */
enum { TRIM_MPI_ITEMS_AUTO = 0, TRIM_MPI_ITEMS_POINTS, TRIM_MPI_ITEMS_SEARCHES };
extern int trim_mpi_items;
/* A worker's messages before it reaches the work are rank 0's too (the
 * same inputs fail the same way): kept out of standard error until then. */
void trim_mpi_quiet_setup(void);
/* After the command returned: a rank whose command never reached the work
 * tells rank 0; rank 0 in that case stops the others. */
void trim_mpi_after_command(void);

/* Shared by distribute.c and map.c: this rank reached its work (its own
 * messages count from now on); rank 0 tells every other rank to stop as it
 * asks (nothing to hand out: TRIM_MPI_TAG_STOP); the tag of a rank that
 * never reached its work. */
void trim_mpi_enter(void);
void trim_mpi_stop_everyone(void);
/* After making the work items (rc their code): a rank other than 0 that
 * failed aborts the job, rank 0 tells the others to stop; returns rc. */
int trim_mpi_work_made(int rc);
enum { TRIM_MPI_TAG_STOP = 13, TRIM_MPI_TAG_BYE = 14 };
/* trim map's search spread over the ranks (map.c). */
int trim_mpi_run_map(trim_search *s, int threads, int progress);

#endif
