/* Networks analysed into workloads for the tests (workload_util.h). */
#include <check.h>

#include "trim.h"
#include "workload_util.h"

trim_workloads *analyse(const char *yaml, int mode, trim_network **netp)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	int rc = trim_network_load_string(&net, yaml, "t.yaml");
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	rc = trim_workloads_create(&w, net, mode, 0, 0);
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	if (netp)
		*netp = net;
	else
		trim_network_free(net);
	return w;
}

trim_workloads *analyse_file(const char *path, int mode)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	int rc = trim_network_load(&net, path);
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	rc = trim_workloads_create(&w, net, mode, 0, 0);
	ck_assert_msg(rc == 0, "%s", trim_last_error());
	trim_network_free(net);
	return w;
}
