/* The bench's two clocks: wall (monotonic) and CPU (user + system) seconds. */
#ifndef TRIM_BENCH_CLOCK_H
#define TRIM_BENCH_CLOCK_H

#include <sys/resource.h>
#include <time.h>

static inline double wall(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline double cpu(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_sec +
	       1e-6 * (double)u.ru_stime.tv_usec;
}

#endif
