/*
 * make bench, part 2: whole networks through the public API (trim_neteval),
 * the exact search without constraints, 2 threads, energy goal: the keys of
 * the search's speed targets (docs/model.md, "Speed"), wall and CPU seconds.
 *
 * Each run has a time limit (TRIM_BENCH_NET_LIMIT seconds, default 300):
 * a run that is not exact within it prints -1 for its seconds and the gap
 * it reached, so the bench always ends. preset_over_unconstrained_ratio is
 * the worst, over those networks and every shipped dataflow preset, of the
 * preset's time over the unconstrained time; when the unconstrained run hit
 * the limit the ratio uses the limit (the true ratio is then smaller).
 * A network run that takes under REPEAT_BELOW seconds, with or without a
 * preset, is the least of REPEATS runs (at a few seconds, wall time on a
 * shared machine moves by more than the ratio's margin).
 * TRIM_BENCH_NETWORKS=0 skips this part.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "trim.h"

typedef struct {
	double wall, cpu, gap;
	int exact;
	long long searches, workloads;
} net_run;

/* One network, exact unless the limit stops it; preset NULL: unconstrained. */
static int run_net(const char *netf, const char *archf, int mode, int64_t batch, const char *preset, double limit,
                   net_run *o)
{
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_neteval *ne = NULL;
	trim_constraints *c = NULL;
	memset(o, 0, sizeof *o);
	int rc = trim_network_load(&net, netf);
	if (!rc)
		rc = trim_workloads_create(&w, net, mode, batch, 0);
	if (!rc)
		rc = trim_arch_load(&a, archf);
	if (!rc)
		rc = trim_neteval_create(&ne, net, w, a, NULL);
	if (!rc)
		rc = trim_neteval_set_int(ne, TRIM_NET_THREADS, 2);
	if (!rc)
		rc = trim_neteval_set_double(ne, TRIM_NET_TIME_LIMIT, limit);
	if (!rc && preset && !(rc = trim_constraints_create(&c)) && !(rc = trim_constraints_add_preset(c, preset)))
		rc = trim_neteval_set_constraints(ne, c);
	double w0 = wall(), c0 = cpu();
	if (!rc)
		rc = trim_neteval_run(ne);
	o->wall = wall() - w0;
	o->cpu = cpu() - c0;
	if (!rc) {
		double lb;
		o->exact = trim_neteval_exact(ne, &lb, &o->gap) == 1;
		o->workloads = (long long)trim_neteval_count(ne);
	} else {
		fprintf(stderr, "bench: %s on %s%s%s: %s\n", netf, archf, preset ? " --dataflow " : "", preset ? preset : "",
		        trim_last_error());
	}
	trim_constraints_free(c);
	trim_neteval_free(ne);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
	return rc;
}

enum { REPEATS = 3 };
#define REPEAT_BELOW 20.0

/* run_net, repeated while the least wall time so far is under REPEAT_BELOW
 * seconds (at most REPEATS runs): the run with the least wall time. */
static int run_least(const char *netf, const char *archf, int mode, int64_t batch, const char *preset, double limit,
                     net_run *o)
{
	if (run_net(netf, archf, mode, batch, preset, limit, o))
		return 1;
	for (int i = 1; i < REPEATS && o->wall < REPEAT_BELOW; i++) {
		net_run again;
		if (run_net(netf, archf, mode, batch, preset, limit, &again))
			return 1;
		if (again.wall < o->wall)
			*o = again;
	}
	return 0;
}

int bench_networks(void);
int bench_networks(void)
{
	const char *skip = getenv("TRIM_BENCH_NETWORKS");
	if (skip && !strcmp(skip, "0"))
		return 0;
	double limit = getenv("TRIM_BENCH_NET_LIMIT") ? atof(getenv("TRIM_BENCH_NET_LIMIT")) : 300;
	static const struct {
		const char *key, *net, *arch;
		int mode;
		int64_t batch;
	} cases[] = {
		{"resnet18_inference_eyeriss", "models/networks/resnet18.yaml", "models/arch/eyeriss.yaml",
		 TRIM_MODE_INFERENCE, 1},
		{"resnet18_inference_baseline", "models/networks/resnet18.yaml", "models/arch/training-baseline.yaml",
		 TRIM_MODE_INFERENCE, 1},
		{"alexnet_training_eyeriss", "models/networks/alexnet.yaml", "models/arch/eyeriss.yaml", TRIM_MODE_TRAINING,
		 1},
		{"alexnet_cifar_training_b64", "models/networks/alexnet-cifar.yaml", "models/arch/training-baseline.yaml",
		 TRIM_MODE_TRAINING, 64},
		{"resnet50_training_baseline", "models/networks/resnet50.yaml", "models/arch/training-baseline.yaml",
		 TRIM_MODE_TRAINING, 1},
	};
	const size_t n = sizeof cases / sizeof cases[0];
	double worst = 0, worst_cpu = 0;
	int worst_bounded = 0;
	printf("\nwhole networks, exact search without constraints, 2 threads, at most %.0f s each\n"
	       "(a run under %.0f s: the least of %d runs):\n",
	       limit, REPEAT_BELOW, REPEATS);
	for (size_t i = 0; i < n; i++) {
		net_run r;
		if (run_least(cases[i].net, cases[i].arch, cases[i].mode, cases[i].batch, NULL, limit, &r))
			continue;
		printf("%s_seconds: %.3f\n", cases[i].key, r.exact ? r.wall : -1.0);
		printf("%s_cpu_seconds: %.3f\n", cases[i].key, r.cpu);
		printf("%s_wall_seconds_run: %.3f\n", cases[i].key, r.wall);
		printf("%s_gap: %.4g\n", cases[i].key, r.gap);
		fflush(stdout);
		for (size_t p = 0; trim_constraints_preset_name(p); p++) {
			const char *preset = trim_constraints_preset_name(p);
			net_run q;
			if (run_least(cases[i].net, cases[i].arch, cases[i].mode, cases[i].batch, preset, limit, &q))
				continue;
			double ratio = q.wall / (r.wall > 0 ? r.wall : 1e-9);
			printf("%s_%s_seconds: %.3f%s\n", cases[i].key, preset, q.exact ? q.wall : -1.0,
			       q.exact ? "" : " (not exact within the limit)");
			if (ratio > worst) {
				worst = ratio;
				worst_bounded = !r.exact;
			}
			if (q.cpu / (r.cpu > 0 ? r.cpu : 1e-9) > worst_cpu)
				worst_cpu = q.cpu / (r.cpu > 0 ? r.cpu : 1e-9);
			fflush(stdout);
		}
	}
	printf("preset_over_unconstrained_ratio: %.3f%s\n", worst,
	       worst_bounded ? " (an upper bound: the unconstrained run hit the limit)" : "");
	printf("preset_over_unconstrained_cpu_ratio: %.3f\n", worst_cpu);
	return 0;
}
