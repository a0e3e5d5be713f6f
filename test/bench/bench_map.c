/*
 * make bench: evaluation speed of the analytic model and the size of the
 * mapspaces for AlexNet-CIFAR training on the training baseline.
 *
 * For every intra workload: its distinct mapspace size (exact, counted
 * without enumeration) and the evaluation rate on valid mappings decoded
 * from a fixed pseudo-random sequence of indices (one thread), also as the
 * search evaluates (one preparation, then several loop orders). Then the
 * exact branch-and-bound search is run (2 threads, energy goal) on every
 * workload and timed (BENCH_RUN_MAX distinct mappings at most: a guard,
 * every AlexNet-CIFAR workload is below it); the exhaustive estimate
 * distinct / rate / threads is printed beside it for comparison. Ends with
 * `key: value` lines.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "energy/energy_int.h"
#include "search/mapspace_int.h"
#include "trim.h"

int bench_networks(void); /* bench_networks.c: whole networks */
int bench_fused(void);    /* bench_fused.c: fused tiles */

/* workloads up to this many distinct mappings are searched for real */
#define BENCH_RUN_MAX 1e16

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
	const char *netf = "models/networks/alexnet-cifar.yaml", *archf = "models/arch/training-baseline.yaml";
	trim_network *net = NULL;
	trim_workloads *w = NULL;
	trim_arch *a = NULL;
	trim_energy *t = NULL;
	trim__level_cost costs[TRIM__MAX_LEVELS];
	int rc = trim_network_load(&net, netf);
	if (!rc)
		rc = trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 0, 0);
	if (!rc)
		rc = trim_arch_load(&a, archf);
	if (!rc)
		rc = trim_energy_load_for_arch(&t, a);
	if (!rc)
		rc = trim__arch_costs(a, t, costs);
	if (rc) {
		fprintf(stderr, "bench: %s\n", trim_last_error());
		return 1;
	}
	const int threads = 2;
	double total_evals = 0, total_time = 0, total_distinct = 0, total_est = 0;
	double total_oevals = 0, total_otime = 0;
	trim__eval_ws ws = {0};
	printf("AlexNet-CIFAR training on %s: %zu intra workloads\n\n", archf, trim_workloads_intra_count(w));
	double run_seconds = 0, run_distinct = 0, run_evaluated = 0;
	int nrun = 0, nskip = 0;
	char wkey[64][48];
	double wsec[64];
	int nw = 0;
	printf("%-4s %-8s %-3s %22s %10s %12s %14s %12s %14s\n", "#", "layer", "ph", "distinct mappings", "evals",
	       "evals/s", "est. seconds", "search s", "evaluated");
	for (size_t i = 0; i < trim_workloads_intra_count(w); i++) {
		const trim__intra *x = trim__workloads_intra(w, i);
		trim__mapspace s;
		uint64_t distinct = 0;
		if (trim__mapspace_init(&s, x, a) || trim__mapspace_distinct(&s, &distinct)) {
			printf("%-4zu %-8s %-3s  %s\n", i, x->layer, trim_phase_name(x->phase), trim_last_error());
			continue;
		}
		/* up to NM valid mappings decoded from a fixed index sequence, then
		 * timed: the rate counts evaluations only (decoding and validation
		 * happen once per factorisation and bypass in the search) */
		enum { NM = 1000 };
		static trim__mapping ms[NM];
		int nm = 0;
		uint64_t st = 0x9e3779b97f4a7c15ull ^ i, evals = 0;
		for (int k = 0; k < 100 * NM && nm < NM; k++) {
			st = st * 6364136223846793005ull + 1442695040888963407ull;
			if (trim__mapspace_decode(&s, (st >> 1) % s.size, &ms[nm]) == 0 &&
			    trim__mapping_check(&ms[nm], x, a) == 0)
				nm++;
		}
		double t0 = now(), sink = 0;
		trim__eval e;
		while (nm && now() - t0 < 0.1)
			for (int k = 0; k < nm; k++)
				if (trim__eval_run(x, a, costs, &ms[k], &ws, &e) == 0) {
					evals++;
					sink += e.energy_pj;
				}
		double dt = now() - t0, rate = evals ? (double)evals / dt : 0;
		/* the search's pattern: one preparation per factorisation and
		 * bypass choice, then its order classes (here: 8 reshuffles of
		 * each mapping's orders, drawn before the timing) */
		enum { NO = 8 };
		static int ord[NM][NO][TRIM__MAX_LEVELS][TRIM_NDIMS];
		for (int k = 0; k < nm; k++)
			for (int r = 0; r < NO; r++)
				for (int l = 0; l < a->nlevels; l++) {
					memcpy(ord[k][r][l], ms[k].order[l], sizeof ord[k][r][l]);
					for (int j = TRIM_NDIMS - 1; j > 0; j--) {
						st = st * 6364136223846793005ull + 1442695040888963407ull;
						int q = (int)((st >> 33) % (uint64_t)(j + 1)), o = ord[k][r][l][j];
						ord[k][r][l][j] = ord[k][r][l][q];
						ord[k][r][l][q] = o;
					}
				}
		uint64_t oevals = 0;
		trim__mapping mo;
		double t2 = now();
		while (nm && now() - t2 < 0.1)
			for (int k = 0; k < nm; k++) {
				if (trim__eval_prepare(x, a, &ms[k], &ws))
					continue;
				mo = ms[k];
				for (int r = 0; r < NO; r++) {
					memcpy(mo.order, ord[k][r], sizeof mo.order);
					if (trim__eval_order(x, a, costs, &mo, &ws, &e) == 0) {
						oevals++;
						sink += e.energy_pj;
					}
				}
			}
		double dto = now() - t2;
		total_oevals += (double)oevals;
		total_otime += dto;
		double est = rate > 0 ? (double)distinct / rate / threads : -1;
		/* the exact search, timed, where it is known to finish quickly */
		double secs = -1;
		trim__search_result r;
		memset(&r, 0, sizeof r);
		if ((double)distinct <= BENCH_RUN_MAX) {
			trim__eval_reserved(w, i, a, s.reserved);
			double t1 = now();
			if (trim__search(&s, costs, TRIM__GOAL_ENERGY, threads, &r) == 0) {
				secs = now() - t1;
				run_seconds += secs;
				run_distinct += (double)distinct;
				run_evaluated += (double)r.evaluated;
				nrun++;
				if (nw < 64) {
					snprintf(wkey[nw], sizeof wkey[nw], "%s_%s", x->layer, trim_phase_name(x->phase));
					wsec[nw++] = secs;
				}
			}
			trim__search_result_free(&r);
		} else {
			nskip++;
		}
		printf("%-4zu %-8s %-3s %22llu %10llu %12.0f %14.3g %12.3g %14llu%s\n", i, x->layer,
		       trim_phase_name(x->phase), (unsigned long long)distinct, (unsigned long long)evals, rate,
		       est, secs, (unsigned long long)r.evaluated, sink < 0 ? "!" : "");
		total_evals += (double)evals;
		total_time += dt;
		total_distinct += (double)distinct;
		if (est > 0)
			total_est += est;
		trim__mapspace_free(&s);
	}
	trim__eval_ws_free(&ws);
	double rate = total_time > 0 ? total_evals / total_time : 0;
	printf("\nevals/s: whole evaluations (trim__eval_run) of valid mappings, one thread;\n"
	       "order_evals_per_sec_per_thread: the same mappings as the search evaluates them, one\n"
	       "preparation (trim__eval_prepare) per mapping and 8 reshuffled loop orders of it\n"
	       "(trim__eval_order), the preparation included.\n");
	printf("\nsearch s: the exact branch-and-bound search (energy, %d threads), run on %d\n"
	       "workloads (%d above the guard of %.0g distinct mappings not run); est. seconds:\n"
	       "exhaustive evaluation of every distinct mapping at the measured rate (an\n"
	       "estimate, not a run).\n\n",
	       threads, nrun, nskip, (double)BENCH_RUN_MAX);
	printf("mappings_distinct_total: %.0f\n", total_distinct);
	printf("evals_per_sec_per_thread: %.0f\n", rate);
	printf("order_evals_per_sec_per_thread: %.0f\n", total_otime > 0 ? total_oevals / total_otime : 0);
	printf("searched_workloads: %d\n", nrun);
	printf("searched_workloads_distinct: %.0f\n", run_distinct);
	printf("searched_workloads_evaluated: %.0f\n", run_evaluated);
	printf("searched_workloads_seconds: %.3f\n", run_seconds);
	for (int j = 0; j < nw; j++)
		printf("search_seconds_%s: %.3f\n", wkey[j], wsec[j]);
	printf("alexnet_cifar_training_seconds_estimate_exhaustive: %.3g\n", total_est);
	if (nskip)
		printf("alexnet_cifar_training_seconds: -1\n");
	else
		printf("alexnet_cifar_training_seconds: %.3f\n", run_seconds);
	trim_energy_free(t);
	trim_arch_free(a);
	trim_workloads_free(w);
	trim_network_free(net);
	fflush(stdout);
	bench_fused();
	return bench_networks();
}
