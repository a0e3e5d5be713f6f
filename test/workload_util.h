/*
 * A network read and analysed into its workloads, for the tests
 * (check_workload.c, check_workload_layers.c); a failure fails the test.
 */
#ifndef TRIM_TEST_WORKLOAD_UTIL_H
#define TRIM_TEST_WORKLOAD_UTIL_H

#include "trim.h"

/* The network in yaml (named t.yaml) in mode; the network kept in *netp
 * unless netp is NULL. */
trim_workloads *analyse(const char *yaml, int mode, trim_network **netp);
/* The network at path in mode. */
trim_workloads *analyse_file(const char *path, int mode);

#endif
