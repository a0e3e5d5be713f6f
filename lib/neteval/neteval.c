/*
 * A network on an architecture (docs/model.md, "Network evaluation"): the
 * best mapping of every intra workload, sparse figures where the hardware
 * gates or skips zeros, and the inter-layer workloads.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraints/constraints_int.h"
#include "energy/energy_int.h"
#include "search/mapspace_int.h"
#include "eval/netcost_int.h"
#include "neteval_int.h"
#include "neteval_state.h"
#include "network/network_int.h"
#include "sparsity/sparse_eval_int.h"
#include "trim/neteval.h"
#include "trim/search.h"
#include "trim/sparsity.h"
#include "util/handle.h"
#include "util/util.h"

const char *const trim__neteval_goal_names[3] = {"energy", "delay", "edp"};

void trim_neteval_free(trim_neteval *ne)
{
	TRIM__HANDLE_CHECK_VOID(ne, NETEVAL);
	if (!ne)
		return;
	trim_workloads_free(ne->w);
	trim_sparsity_free(ne->sp);
	trim_arch_free(ne->arch);
	trim__cache_plan_free(&ne->plan);
	trim_constraints_free(ne->cons);
	free(ne->out_dir);
	free(ne->notes);
	for (size_t i = 0; ne->done && i < ne->n; i++)
		free(ne->done[i].done);
	free(ne->done);
	free(ne->rec);
	free(ne->inter);
	TRIM__HANDLE_POISON(ne, NETEVAL);
	free(ne);
}

int trim_neteval_create(trim_neteval **out, const trim_network *net, const trim_workloads *w,
                        const trim_arch *arch, const trim_energy *table)
{
	TRIM__HANDLE_CHECK(net, NETWORK, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(table, ENERGY, TRIM_EINVAL);
	if (!out || !net || !w || !arch)
		return trim__error(TRIM_EINVAL, "trim_neteval_create: NULL argument");
	*out = NULL;
	int rc = trim__workloads_check_origin(w, net, "trim_neteval_create");
	if (rc)
		return rc;
	trim_energy *own = NULL;
	trim_neteval *ne = trim__calloc(1, sizeof *ne);
	rc = TRIM_ENOMEM;
	if (!ne)
		return rc;
	TRIM__HANDLE_INIT(ne, NETEVAL);
	snprintf(ne->network, sizeof ne->network, "%s", trim_network_name(net));
	ne->use_sparsity = 1;
	ne->library = trim__library_stamp();
	ne->cache = 1;
	ne->last_layer = -1;
	ne->threads = 1;
	if ((rc = trim_workloads_create(&ne->w, net, trim_workloads_mode(w), trim_workloads_batch(w),
	                                trim_workloads_word_bits(w))))
		goto out;
	if (trim_workloads_intra_count(ne->w) != trim_workloads_intra_count(w)) {
		rc = trim__error(TRIM_EINVAL, "trim_neteval_create: the workloads were not made from this network");
		goto out;
	}
	if ((rc = trim_sparsity_create(&ne->sp, net, ne->w)))
		goto out;
	if ((rc = trim_arch_clone(&ne->arch, arch)))
		goto out;
	if (!table) {
		if ((rc = trim_energy_load_for_arch(&own, arch)))
			goto out;
		table = own;
	}
	if ((rc = trim__arch_costs(ne->arch, table, ne->costs)))
		goto out;
	if ((rc = trim__cache_plan_make(&ne->plan, ne->w, ne->arch, TRIM__CACHE_ONCHIP_FRACTION)))
		goto out;
	ne->n = trim_workloads_intra_count(ne->w);
	ne->ninter = trim_workloads_inter_count(ne->w);
	ne->rec = trim__calloc(ne->n ? ne->n : 1, sizeof *ne->rec);
	ne->inter = trim__calloc(ne->ninter ? ne->ninter : 1, sizeof *ne->inter);
	if (!ne->rec || !ne->inter) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	*out = ne;
	ne = NULL;
	rc = 0;
out:
	trim_energy_free(own);
	trim_neteval_free(ne);
	return rc;
}

int trim_neteval_set_int(trim_neteval *ne, int option, int64_t value)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_int: NULL handle");
	if (ne->next > 0)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_int: options are set before the first step");
	switch (option) {
	case TRIM_NET_GOAL:
		if (value < TRIM_GOAL_ENERGY || value > TRIM_GOAL_EDP)
			return trim__error(TRIM_ERANGE, "goal %lld (energy 0, delay 1, edp 2)", (long long)value);
		ne->goal = (int)value;
		return 0;
	case TRIM_NET_THREADS:
		if (value < 1 || value > 1024)
			return trim__error(TRIM_ERANGE, "threads %lld (1..1024)", (long long)value);
		ne->threads = (int)value;
		return 0;
	case TRIM_NET_SPARSITY:
		if (value != 0 && value != 1)
			return trim__error(TRIM_ERANGE, "sparsity %lld (0 or 1)", (long long)value);
		ne->use_sparsity = (int)value;
		return 0;
	case TRIM_NET_CACHE:
		if (value != 0 && value != 1)
			return trim__error(TRIM_ERANGE, "cache %lld (0 or 1)", (long long)value);
		ne->cache = (int)value;
		return 0;
	case TRIM_NET_MAX_MAPPINGS:
		if (value < 0)
			return trim__error(TRIM_ERANGE, "max mappings %lld < 0", (long long)value);
		ne->max_mappings = value;
		return 0;
	case TRIM_NET_IMPERFECT:
		if (value != 0 && value != 1)
			return trim__error(TRIM_ERANGE, "imperfect %lld (0 or 1)", (long long)value);
		ne->imperfect = (int)value;
		return 0;
	case TRIM_NET_COUNT:
		if (value < TRIM_COUNT_LIBTRIM || value > TRIM_COUNT_TIMELOOP)
			return trim__error(TRIM_ERANGE, "counting rules %lld (libtrim %d, timeloop %d)", (long long)value,
			                   TRIM_COUNT_LIBTRIM, TRIM_COUNT_TIMELOOP);
		trim__costs_set_count(ne->costs, ne->arch->nlevels, (int)value);
		return 0;
	case TRIM_NET_MIN_PE_UTIL:
	case TRIM_NET_MIN_RF_UTIL:
	case TRIM_NET_TIME_LIMIT:
	case TRIM_NET_GAP:
		return trim__error(TRIM_EINVAL, "trim_neteval_set_int: option %d (%s) takes a double: "
		                   "use trim_neteval_set_double", option, trim_neteval_option_name(option));
	default:
		return trim__error(TRIM_EINVAL, "trim_neteval_set_int: unknown option %d", option);
	}
}

int trim_neteval_set_double(trim_neteval *ne, int option, double value)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_double: NULL handle");
	if (ne->next > 0)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_double: options are set before the first step");
	switch (option) {
	case TRIM_NET_MIN_PE_UTIL:
	case TRIM_NET_MIN_RF_UTIL:
		if (!(value >= 0 && value <= 1))
			return trim__error(TRIM_ERANGE, "%s: utilisation constraint %g is not in [0, 1]",
			                   trim_neteval_option_name(option), value);
		*(option == TRIM_NET_MIN_PE_UTIL ? &ne->min_pe_util : &ne->min_rf_util) = value;
		return 0;
	case TRIM_NET_TIME_LIMIT:
		if (!(value >= 0 && value <= 1e9))
			return trim__error(TRIM_ERANGE, "TRIM_NET_TIME_LIMIT: %g s is not in [0, 1e9] (0: none)", value);
		ne->time_limit = value;
		return 0;
	case TRIM_NET_GAP:
		if (!(value >= 0 && value < 1))
			return trim__error(TRIM_ERANGE, "TRIM_NET_GAP: %g is not in [0, 1) (0: exact)", value);
		ne->gap = value;
		return 0;
	case TRIM_NET_GOAL:
	case TRIM_NET_THREADS:
	case TRIM_NET_SPARSITY:
	case TRIM_NET_CACHE:
	case TRIM_NET_MAX_MAPPINGS:
	case TRIM_NET_IMPERFECT:
	case TRIM_NET_COUNT:
		return trim__error(TRIM_EINVAL, "trim_neteval_set_double: option %d (%s) takes an integer: "
		                   "use trim_neteval_set_int", option, trim_neteval_option_name(option));
	default: return trim__error(TRIM_EINVAL, "trim_neteval_set_double: unknown option %d", option);
	}
}

const char *trim_neteval_option_name(int option)
{
	switch (option) {
	case TRIM_NET_GOAL: return "TRIM_NET_GOAL";
	case TRIM_NET_THREADS: return "TRIM_NET_THREADS";
	case TRIM_NET_SPARSITY: return "TRIM_NET_SPARSITY";
	case TRIM_NET_MAX_MAPPINGS: return "TRIM_NET_MAX_MAPPINGS";
	case TRIM_NET_IMPERFECT: return "TRIM_NET_IMPERFECT";
	case TRIM_NET_MIN_PE_UTIL: return "TRIM_NET_MIN_PE_UTIL";
	case TRIM_NET_MIN_RF_UTIL: return "TRIM_NET_MIN_RF_UTIL";
	case TRIM_NET_CACHE: return "TRIM_NET_CACHE";
	case TRIM_NET_TIME_LIMIT: return "TRIM_NET_TIME_LIMIT";
	case TRIM_NET_GAP: return "TRIM_NET_GAP";
	case TRIM_NET_COUNT: return "TRIM_NET_COUNT";
	default: return NULL;
	}
}

int trim_neteval_set_out_dir(trim_neteval *ne, const char *dir)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_out_dir: NULL handle");
	if (ne->next > 0)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_out_dir: set before the first step");
	char *own = NULL;
	if (dir) {
		int rc = trim__resume_dir(dir);
		if (rc)
			return rc;
		if (!(own = trim__strdup(dir)))
			return TRIM_ENOMEM;
	}
	free(ne->out_dir);
	ne->out_dir = own;
	return 0;
}

int trim_neteval_resumed(const trim_neteval *ne, int64_t *resumed, int64_t *stale)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !resumed || !stale)
		return trim__error(TRIM_EINVAL, "trim_neteval_resumed: NULL argument");
	*resumed = ne->resumed;
	*stale = ne->stale;
	return 0;
}

const char *trim_neteval_resume_notes(const trim_neteval *ne)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, NULL);
	return ne && ne->notes ? ne->notes : "";
}

int trim_neteval_set_constraints(trim_neteval *ne, const trim_constraints *c)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(c, CONSTRAINTS, TRIM_EINVAL);
	if (!ne)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_constraints: NULL handle");
	if (ne->next > 0)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_constraints: set before the first step");
	trim_constraints *own = NULL;
	int rc = c ? trim_constraints_check(c, ne->arch) : 0;
	if (rc == 0 && c)
		rc = trim_constraints_clone(&own, c);
	if (rc)
		return rc;
	trim_constraints_free(ne->cons);
	ne->cons = own;
	return 0;
}

static int layer_of(const trim_neteval *ne, const char *name, int *index)
{
	for (size_t i = 0; i < ne->n; i++) {
		const trim__intra *x = trim__workloads_intra(ne->w, i);
		if (!strcmp(x->layer, name)) {
			*index = x->layer_index;
			return 0;
		}
	}
	return trim__error(TRIM_ENOTFOUND, "no workload of a layer '%s' in %s", name, ne->network);
}

int trim_neteval_set_layers(trim_neteval *ne, const char *first, const char *last)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !first || !last)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_layers: NULL argument");
	if (ne->next > 0)
		return trim__error(TRIM_EINVAL, "trim_neteval_set_layers: set before the first step");
	int a = 0, b = 0, rc;
	if ((rc = layer_of(ne, first, &a)) || (rc = layer_of(ne, last, &b)))
		return rc;
	if (b < a)
		return trim__error(TRIM_EINVAL, "layer '%s' comes after '%s'", first, last);
	ne->first_layer = a;
	ne->last_layer = b;
	return 0;
}

static int in_range(const trim_neteval *ne, int layer) { return trim__neteval_in_range(ne, layer); }

int trim_neteval_load_trace(trim_neteval *ne, const char *path)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne)
		return trim__error(TRIM_EINVAL, "trim_neteval_load_trace: NULL handle");
	return trim_sparsity_load_trace(ne->sp, path);
}

int trim__neteval_sparse_hardware(const struct trim_arch *a)
{
	const trim__level *L = &a->lv[a->nlevels - 1];
	return L->zero_gate || L->zero_skip || L->bw_output_skip;
}

static void finish(trim_neteval *ne)
{
	const struct trim_arch *a = ne->arch;
	const int c = a->nlevels - 1;
	double *intra_cycles = malloc((ne->n ? ne->n : 1) * sizeof *intra_cycles);
	double util_macs = 0, macs = 0;
	memset(ne->level_pj, 0, sizeof ne->level_pj);
	ne->cycles = ne->energy = ne->static_pj = ne->dense_cycles = ne->dense_energy = 0;
	ne->saved_pj = ne->metadata_pj = 0;
	for (size_t i = 0; i < ne->n; i++) {
		const wrec *r = &ne->rec[i];
		const trim__eval *d = &r->dense;
		double ratio = d->cycles > 0 ? r->sp.cycles / d->cycles : 1;
		if (intra_cycles)
			intra_cycles[i] = r->sp.cycles; /* 0 when skipped */
		if (r->skipped)
			continue;
		ne->cycles += r->sp.cycles;
		ne->energy += r->sp.energy_pj;
		ne->static_pj += r->sp.static_pj;
		ne->dense_cycles += d->cycles;
		ne->dense_energy += d->energy_pj;
		ne->saved_pj += r->sp.saved_access_pj;
		ne->metadata_pj += r->sp.metadata_pj + r->sp.encode_pj;
		for (int l = 0; l < a->nlevels; l++) {
			for (int t = 0; t < 3; t++)
				ne->level_pj[l] += d->dyn_pj[l][t];
			ne->level_pj[l] += d->static_pj[l] * ratio;
		}
		ne->level_pj[c] += r->sp.mac_pj - d->mac_pj;
		util_macs += (double)d->act.macs * d->pe_util;
		macs += (double)d->act.macs;
	}
	for (size_t j = 0; j < ne->ninter; j++) {
		trim__inter_cost *ic = &ne->inter[j];
		const trim__inter *y = trim__workloads_inter(ne->w, j);
		if (!in_range(ne, y->layer_index) ||
		    trim__inter_cost_eval(ne->w, j, a, ne->costs, &ne->plan, intra_cycles, ic))
			memset(ic, 0, sizeof *ic);
		ne->cycles += ic->cycles;
		ne->dense_cycles += ic->cycles;
		ne->energy += ic->energy_pj;
		ne->dense_energy += ic->energy_pj;
		ne->static_pj += ic->static_pj;
		ne->level_pj[ic->level] += ic->energy_pj;
	}
	ne->pe_util = macs > 0 ? util_macs / macs : 0;
	free(intra_cycles);
	ne->finished = 1;
}

int trim_neteval_step(trim_neteval *ne, int *done)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !done)
		return trim__error(TRIM_EINVAL, "trim_neteval_step: NULL argument");
	*done = ne->finished;
	if (ne->finished)
		return 0;
	if (ne->next < ne->n) {
		size_t i = ne->next;
		const trim__intra *x = trim__workloads_intra(ne->w, i);
		wrec *r = &ne->rec[i];
		if (!in_range(ne, x->layer_index)) {
			r->skipped = 1;
			ne->next++;
			if (ne->next == ne->n)
				finish(ne);
			*done = ne->finished;
			return 0;
		}
		int rc = trim__neteval_search(ne, i);
		if (rc == 0) {
			double f[TRIM_SP_NFIELDS];
			rc = trim_sparsity_workload(ne->sp, i, f, TRIM_SP_NFIELDS);
			if (rc == 0 && !(ne->use_sparsity && trim__neteval_sparse_hardware(ne->arch)))
				for (int k = 0; k < TRIM_SP_FACTOR; k++)
					f[k] = 0;
			if (rc == 0)
				rc = trim__sparse_adjust(x, ne->arch, ne->costs, &r->best, &r->dense, f, &r->sp);
		}
		if (rc)
			return rc;
		ne->next++;
	}
	if (ne->next == ne->n)
		finish(ne);
	*done = ne->finished;
	return 0;
}

int trim_neteval_run(trim_neteval *ne)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	int done = 0, rc = 0;
	while (rc == 0 && !done)
		rc = trim_neteval_step(ne, &done);
	return rc;
}

size_t trim_neteval_done(const trim_neteval *ne)
{
	return TRIM__HANDLE_OK(ne, NETEVAL) ? ne->next : 0;
}

double trim_neteval_progress(const trim_neteval *ne)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, -1);
	if (!ne)
		return -1;
	int64_t n = __atomic_load_n(&ne->nsearch, __ATOMIC_RELAXED);
	int64_t d = __atomic_load_n(&ne->searches_done, __ATOMIC_RELAXED);
	if (ne->finished)
		return 1;
	return n > 0 ? (double)d / (double)n : 0;
}

/* The network's search figures: all exact?, the sums of the workloads'
 * proven lower bounds and best costs (goal's cost, dense). */
int trim__neteval_search_totals(const trim_neteval *ne, double *lb, double *best)
{
	int exact = 1;
	*lb = *best = 0;
	for (size_t i = 0; i < ne->n; i++) {
		const wrec *r = &ne->rec[i];
		if (r->skipped)
			continue;
		exact &= r->exact;
		*lb += r->lower_bound;
		*best += r->best_cost;
	}
	return exact;
}

double trim__neteval_gap_of(double best, double lb) { return best > 0 && best > lb ? (best - lb) / best : 0; }

int trim_neteval_exact(const trim_neteval *ne, double *lower_bound, double *gap)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !ne->finished) {
		if (lower_bound)
			*lower_bound = NAN;
		if (gap)
			*gap = NAN;
		return -1;
	}
	double lb, best;
	int exact = trim__neteval_search_totals(ne, &lb, &best);
	if (lower_bound)
		*lower_bound = lb;
	if (gap)
		*gap = exact ? 0 : trim__neteval_gap_of(best, lb);
	return exact;
}
size_t trim_neteval_count(const trim_neteval *ne)
{
	return TRIM__HANDLE_OK(ne, NETEVAL) ? ne->n : 0;
}

#define TOTAL(name, field)                                                                 \
	double trim_neteval_##name(const trim_neteval *ne)                                     \
	{                                                                                      \
		TRIM__HANDLE_CHECK(ne, NETEVAL, NAN);                                              \
		if (!ne || !ne->finished) {                                                        \
			trim__error(TRIM_EINVAL, "trim_neteval_" #name ": not evaluated yet");         \
			return NAN;                                                                    \
		}                                                                                  \
		return ne->field;                                                                  \
	}
TOTAL(cycles, cycles)
TOTAL(energy_pj, energy)
TOTAL(static_pj, static_pj)
TOTAL(dense_cycles, dense_cycles)
TOTAL(dense_energy_pj, dense_energy)
TOTAL(pe_utilization, pe_util)

double trim_neteval_seconds(const trim_neteval *ne)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, NAN);
	if (!ne || !ne->finished) {
		trim__error(TRIM_EINVAL, "trim_neteval_seconds: not evaluated yet");
		return NAN;
	}
	return ne->arch->clock_mhz > 0 ? ne->cycles / (ne->arch->clock_mhz * 1e6) : 0;
}

int trim_neteval_level_energy(const trim_neteval *ne, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !out)
		return trim__error(TRIM_EINVAL, "trim_neteval_level_energy: NULL argument");
	if (n < (size_t)ne->arch->nlevels)
		return trim__error(TRIM_EBUFSIZE, "trim_neteval_level_energy: needs room for %d levels, got %zu",
		                   ne->arch->nlevels, n);
	if (!ne->finished)
		return trim__error(TRIM_EINVAL, "trim_neteval_level_energy: not evaluated yet");
	memcpy(out, ne->level_pj, (size_t)ne->arch->nlevels * sizeof *out);
	return 0;
}

double trim__neteval_offchip_bytes(const trim_neteval *ne, const wrec *r)
{
	const trim__activity *x = &r->dense.act;
	double words = 0;
	for (int t = 0; t < 3; t++)
		words += (double)(x->reads[0][t] + x->updates[0][t] + x->fills[0][t] + x->drains[0][t]);
	int bits = ne->arch->lv[0].word_bits > 0 ? ne->arch->lv[0].word_bits : ne->arch->word_bits;
	return words * bits / 8;
}

void trim__neteval_fields(const trim_neteval *ne, const wrec *r, double *f)
{
	f[TRIM_NF_CYCLES] = r->sp.cycles;
	f[TRIM_NF_ENERGY_PJ] = r->sp.energy_pj;
	f[TRIM_NF_EDP] = r->sp.cycles * r->sp.energy_pj;
	f[TRIM_NF_PE_UTILIZATION] = r->dense.pe_util;
	f[TRIM_NF_ACTIVE_PES] = (double)r->dense.act.active_pes;
	f[TRIM_NF_DENSE_CYCLES] = r->dense.cycles;
	f[TRIM_NF_DENSE_ENERGY_PJ] = r->dense.energy_pj;
	f[TRIM_NF_STATIC_PJ] = r->sp.static_pj;
	f[TRIM_NF_MACS] = (double)r->dense.act.macs;
	f[TRIM_NF_GENERATED] = (double)r->generated;
	f[TRIM_NF_VALID] = (double)r->valid;
	f[TRIM_NF_EVALUATED] = (double)r->evaluated;
	f[TRIM_NF_MAPPED] = !r->skipped;
	f[TRIM_NF_OFFCHIP_BYTES] = r->skipped ? 0 : trim__neteval_offchip_bytes(ne, r);
	trim__wview v = {trim__workloads_intra(ne->w, (size_t)(r - ne->rec)), &r->best, &r->dense, &r->sp};
	f[TRIM_NF_TEMPORAL_UTILIZATION] = r->skipped ? 0 : trim__wview_temporal_util(&v, ne->arch);
	f[TRIM_NF_COMPUTE_CYCLES] = r->skipped ? 0 : trim__wview_compute_cycles(&v, ne->arch);
	f[TRIM_NF_BOTTLENECK] = r->skipped ? -1 : trim__wview_bottleneck(&v, ne->arch);
	f[TRIM_NF_LOWER_BOUND] = r->skipped ? NAN : r->lower_bound;
	f[TRIM_NF_GAP] = r->skipped ? NAN : r->exact ? 0 : trim__neteval_gap_of(r->best_cost, r->lower_bound);
	f[TRIM_NF_EXACT] = r->skipped ? NAN : r->exact;
	f[TRIM_NF_REUSED_FROM] = r->skipped ? -1 : (double)r->reused_from;
}

/* ---- read access for the reports (lib/neteval/neteval_int.h) ------------------------ */

void trim__neteval_info_get(const trim_neteval *ne, trim__neteval_info *out)
{
	out->arch = ne->arch;
	out->costs = ne->costs;
	out->w = ne->w;
	out->network = ne->network;
	out->goal = ne->goal;
	out->sparse_hardware = ne->use_sparsity && trim__neteval_sparse_hardware(ne->arch);
	out->finished = ne->finished;
	out->n = ne->n;
	out->ninter = ne->ninter;
}

int trim__neteval_view(const trim_neteval *ne, size_t i, trim__wview *out)
{
	if (i >= ne->next || ne->rec[i].skipped || !ne->rec[i].found)
		return 0;
	const wrec *r = &ne->rec[i];
	out->w = trim__workloads_intra(ne->w, i);
	out->m = &r->best;
	out->dense = &r->dense;
	out->sp = &r->sp;
	return 1;
}

const trim__inter_cost *trim__neteval_inter_cost(const trim_neteval *ne, size_t j)
{
	if (!ne->finished || j >= ne->ninter || !in_range(ne, trim__workloads_inter(ne->w, j)->layer_index))
		return NULL;
	return &ne->inter[j];
}

int trim_neteval_workload(const trim_neteval *ne, size_t i, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !out)
		return trim__error(TRIM_EINVAL, "trim_neteval_workload: NULL argument");
	if (n < TRIM_NF_COUNT)
		return trim__error(TRIM_EBUFSIZE, "trim_neteval_workload: needs room for %d values, got %zu",
		                   TRIM_NF_COUNT, n);
	if (i >= ne->next)
		return trim__error(TRIM_EINVAL, "trim_neteval_workload: workload %zu is not mapped", i);
	trim__neteval_fields(ne, &ne->rec[i], out);
	return 0;
}

int trim_neteval_mapping(const trim_neteval *ne, size_t i, trim_mapping **out)
{
	TRIM__HANDLE_CHECK(ne, NETEVAL, TRIM_EINVAL);
	if (!ne || !out)
		return trim__error(TRIM_EINVAL, "trim_neteval_mapping: NULL argument");
	*out = NULL;
	if (i >= ne->next || ne->rec[i].skipped)
		return trim__error(TRIM_ENOTFOUND, "trim_neteval_mapping: workload %zu is not mapped", i);
	return trim__mapping_clone_out(out, &ne->rec[i].best);
}
