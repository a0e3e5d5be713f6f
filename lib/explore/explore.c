/*
 * The explorer (TRIM Algorithm 1): evaluate every architecture point of a
 * space on a network, rank by a design goal, and find the Pareto front.
 * Finished points can be written to a directory and reloaded (resumable).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arch/arch_int.h"
#include "constraints/constraints_int.h"
#include "explore_int.h"
#include "neteval/neteval_state.h"
#include "xdetail_int.h"
#include "trim/energy.h"
#include "trim/explore.h"
#include "trim/mapping.h"
#include "trim/neteval.h"
#include "trim/search.h"
#include "util/handle.h"
#include "util/util.h"
#include "util/ydoc.h"

const char *const trim__explore_goal_names[] = {"energy", "delay", "edp", "area", "weighted"};
#define goal_names trim__explore_goal_names

static int all_done(const trim_explorer *ex);
static void rank_points(trim_explorer *ex);

const char *trim_explore_goal_name(int goal)
{
	return goal >= 0 && goal <= TRIM_EXPLORE_WEIGHTED ? goal_names[goal] : NULL;
}

void trim__explore_point_clear(trim__xpoint *p)
{
	for (size_t k = 0; k < p->nw; k++)
		free(p->wl[k].mapping);
	free(p->wl);
	memset(p, 0, sizeof *p);
}

void trim_explorer_free(trim_explorer *ex)
{
	TRIM__HANDLE_CHECK_VOID(ex, EXPLORER);
	if (!ex)
		return;
	for (size_t i = 0; i < ex->n; i++)
		trim__explore_point_clear(&ex->pt[i]);
	free(ex->pt);
	free(ex->order);
	free(ex->dir);
	free(ex->notes);
	trim__explore_fuse_free(ex);
	trim_constraints_free(ex->cons);
	TRIM__HANDLE_POISON(ex, EXPLORER);
	free(ex);
}

int trim_explorer_create(trim_explorer **out, const trim_network *net, const trim_workloads *w,
                         const trim_space *space)
{
	TRIM__HANDLE_CHECK(net, NETWORK, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(space, SPACE, TRIM_EINVAL);
	if (!out || !net || !w || !space)
		return trim__error(TRIM_EINVAL, "trim_explorer_create: NULL argument");
	*out = NULL;
	int rc = trim__workloads_check_origin(w, net, "trim_explorer_create");
	if (rc)
		return rc;
	trim_explorer *ex = trim__calloc(1, sizeof *ex);
	if (!ex)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(ex, EXPLORER);
	ex->net = net;
	ex->w = w;
	ex->space = space;
	ex->library = trim__library_stamp();
	ex->goal = TRIM_EXPLORE_ENERGY; /* as TRIM_NET_GOAL and TRIM_SEARCH_GOAL (docs/guide.md) */
	ex->threads = 1;
	ex->sparsity = 1;
	ex->we = ex->wd = 1;
	ex->n = (size_t)trim_space_count(space);
	ex->pt = trim__calloc(ex->n ? ex->n : 1, sizeof *ex->pt);
	ex->order = trim__calloc(ex->n ? ex->n : 1, sizeof *ex->order);
	if (!ex->pt || !ex->order) {
		trim_explorer_free(ex);
		return TRIM_ENOMEM;
	}
	if (trim_space_constraints(space)) {
		rc = trim_constraints_clone(&ex->cons, trim_space_constraints(space));
		if (rc) {
			trim_explorer_free(ex);
			return rc;
		}
	}
	*out = ex;
	return 0;
}

int trim_explorer_set_int(trim_explorer *ex, int option, int64_t value)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_int: NULL handle");
	if (ex->next > 0 || ex->resumed)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_int: options are set before the first step");
	if (ex->dir && option != TRIM_EX_THREADS) /* the point files are stamped with them */
		return trim__error(TRIM_EINVAL, "trim_explorer_set_int: options are set before trim_explorer_set_out_dir");
	switch (option) {
	case TRIM_EX_GOAL:
		if (value < 0 || value > TRIM_EXPLORE_WEIGHTED)
			return trim__error(TRIM_ERANGE, "goal %lld (energy 0, delay 1, edp 2, area 3, weighted 4)",
			                   (long long)value);
		ex->goal = (int)value;
		return 0;
	case TRIM_EX_THREADS:
		if (value < 1 || value > 1024)
			return trim__error(TRIM_ERANGE, "threads %lld (1..1024)", (long long)value);
		ex->threads = (int)value;
		return 0;
	case TRIM_EX_SPARSITY:
		if (value != 0 && value != 1)
			return trim__error(TRIM_ERANGE, "sparsity %lld (0 or 1)", (long long)value);
		ex->sparsity = (int)value;
		return 0;
	case TRIM_EX_MAX_MAPPINGS:
		if (value < 0)
			return trim__error(TRIM_ERANGE, "max mappings %lld < 0", (long long)value);
		ex->max_mappings = value;
		return 0;
	case TRIM_EX_IMPERFECT:
		if (value != 0 && value != 1)
			return trim__error(TRIM_ERANGE, "imperfect %lld (0 or 1)", (long long)value);
		ex->imperfect = (int)value;
		return 0;
	default:
		if (option >= TRIM_EX_AREA_BUDGET && option <= TRIM_EX_GAP)
			return trim__error(TRIM_EINVAL, "trim_explorer_set_int: option %d takes a double: use "
			                   "trim_explorer_set_double", option);
		return trim__error(TRIM_EINVAL, "trim_explorer_set_int: unknown integer option %d", option);
	}
}

int trim_explorer_set_constraints(trim_explorer *ex, const trim_constraints *c)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(c, CONSTRAINTS, TRIM_EINVAL);
	if (!ex)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_constraints: NULL handle");
	if (ex->next > 0 || ex->resumed)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_constraints: set before the first step");
	if (ex->dir)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_constraints: set before trim_explorer_set_out_dir");
	trim_constraints *own = NULL;
	const trim_constraints *sc = trim_space_constraints(ex->space);
	int rc = 0;
	if (sc || c)
		rc = trim_constraints_create(&own);
	if (rc == 0 && sc)
		rc = trim_constraints_merge(own, sc);
	if (rc == 0 && c)
		rc = trim_constraints_merge(own, c);
	if (rc == 0 && own && trim_space_count(ex->space) > 0) {
		/* the points share the base's level names: check once */
		trim_arch *a = NULL;
		rc = trim_space_point_arch(ex->space, 0, &a);
		if (rc == 0)
			rc = trim_constraints_check(own, a);
		trim_arch_free(a);
	}
	if (rc) {
		trim_constraints_free(own);
		return rc;
	}
	trim_constraints_free(ex->cons);
	ex->cons = own;
	return 0;
}

int trim_explorer_set_double(trim_explorer *ex, int option, double value)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_double: NULL handle");
	static const char *const names[] = {"TRIM_EX_AREA_BUDGET (area budget)", "TRIM_EX_W_ENERGY (energy weight)",
	                                    "TRIM_EX_W_DELAY (delay weight)", "TRIM_EX_W_AREA (area weight)",
	                                    "TRIM_EX_MIN_PE_UTIL (minimum PE utilisation)",
	                                    "TRIM_EX_MIN_RF_UTIL (minimum RF utilisation)",
	                                    "TRIM_EX_TIME_LIMIT (seconds per point)", "TRIM_EX_GAP (search gap)"};
	if (option >= TRIM_EX_GOAL && option <= TRIM_EX_IMPERFECT)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_double: option %d takes an integer: use "
		                   "trim_explorer_set_int", option);
	if (option < TRIM_EX_AREA_BUDGET || option > TRIM_EX_GAP)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_double: unknown option %d", option);
	const char *name = names[option - TRIM_EX_AREA_BUDGET];
	if (!(value >= 0) || !isfinite(value))
		return trim__error(TRIM_ERANGE, "%s: %g must be a finite number >= 0", name, value);
	switch (option) {
	case TRIM_EX_AREA_BUDGET: ex->budget = value; break;
	case TRIM_EX_W_ENERGY: ex->we = value; break;
	case TRIM_EX_W_DELAY: ex->wd = value; break;
	case TRIM_EX_W_AREA: ex->wa = value; break;
	case TRIM_EX_MIN_PE_UTIL:
	case TRIM_EX_MIN_RF_UTIL:
		if (value > 1)
			return trim__error(TRIM_ERANGE, "%s: %g is above 1", name, value);
		if (ex->next > 0 || ex->resumed)
			return trim__error(TRIM_EINVAL, "utilisation constraints are set before the first step");
		if (ex->dir)
			return trim__error(TRIM_EINVAL, "utilisation constraints are set before trim_explorer_set_out_dir");
		*(option == TRIM_EX_MIN_PE_UTIL ? &ex->min_pe : &ex->min_rf) = value;
		break;
	case TRIM_EX_TIME_LIMIT:
	case TRIM_EX_GAP:
		if (option == TRIM_EX_GAP ? value >= 1 : value > 1e9)
			return trim__error(TRIM_ERANGE, "%s: %g is out of range (%s)", name, value,
			                   option == TRIM_EX_GAP ? "[0, 1)" : "[0, 1e9]");
		if (ex->next > 0 || ex->resumed)
			return trim__error(TRIM_EINVAL, "%s is set before the first step", name);
		if (ex->dir)
			return trim__error(TRIM_EINVAL, "%s is set before trim_explorer_set_out_dir", name);
		*(option == TRIM_EX_GAP ? &ex->gap : &ex->time_limit) = value;
		return 0;
	default: return trim__error(TRIM_EINVAL, "trim_explorer_set_double: unknown option %d", option);
	}
	ex->ranked = 0;
	if (all_done(ex))
		rank_points(ex); /* a finished sweep is re-ranked at once */
	return 0;
}

/* ---- one point ------------------------------------------------------------- */

int trim__explore_search_goal(int goal)
{
	switch (goal) {
	case TRIM_EXPLORE_ENERGY: return TRIM_GOAL_ENERGY;
	case TRIM_EXPLORE_DELAY: return TRIM_GOAL_DELAY;
	default: return TRIM_GOAL_EDP; /* EDP, area (mappings do not change area), weighted */
	}
}

int trim__explore_point_begin(const trim_explorer *ex, size_t i, int inner_threads, trim__xpoint *p,
                              trim_neteval **out)
{
	trim_arch *arch = NULL;
	trim_energy *table = NULL;
	trim_neteval *ne = NULL;
	int rc;
	*out = NULL;
	memset(p, 0, sizeof *p);
	for (int k = 0; k < TRIM_XF_COUNT; k++)
		p->f[k] = 0;
	if ((rc = trim_space_point_arch(ex->space, i, &arch)) ||
	    (rc = trim_energy_load_for_arch(&table, arch)))
		goto out;
	p->nlevels = arch->nlevels;
	for (int l = 0; l < arch->nlevels; l++)
		snprintf(p->level_name[l], sizeof p->level_name[l], "%s", arch->lv[l].name);
	p->f[TRIM_XF_FITS] = 1;
	p->f[TRIM_XF_AREA_MM2] = NAN;
	if (trim_energy_is_fpga(table) > 0) {
		double r[8];
		int fits = trim_energy_resources(table, arch, r, 8);
		if (fits < 0) {
			rc = fits;
			goto out;
		}
		p->f[TRIM_XF_FITS] = fits;
		for (int k = 0; k < TRIM_NRES; k++)
			p->f[TRIM_XF_DSP + k] = r[k];
	} else {
		double mm2 = 0;
		if ((rc = trim_energy_arch_area(table, arch, &mm2)))
			goto out;
		p->f[TRIM_XF_AREA_MM2] = mm2;
	}
	if ((rc = trim_neteval_create(&ne, ex->net, ex->w, arch, table)) ||
	    (rc = trim_neteval_set_int(ne, TRIM_NET_GOAL, trim__explore_search_goal(ex->goal))) ||
	    (rc = trim_neteval_set_int(ne, TRIM_NET_THREADS, inner_threads)) ||
	    (rc = trim_neteval_set_int(ne, TRIM_NET_SPARSITY, ex->sparsity)) ||
	    (rc = trim_neteval_set_int(ne, TRIM_NET_MAX_MAPPINGS, ex->max_mappings)) ||
	    (rc = trim_neteval_set_int(ne, TRIM_NET_IMPERFECT, ex->imperfect)) ||
	    (rc = trim_neteval_set_double(ne, TRIM_NET_MIN_PE_UTIL, ex->min_pe)) ||
	    (rc = trim_neteval_set_double(ne, TRIM_NET_MIN_RF_UTIL, ex->min_rf)) ||
	    (rc = trim_neteval_set_double(ne, TRIM_NET_TIME_LIMIT, ex->time_limit)) ||
	    (rc = trim_neteval_set_double(ne, TRIM_NET_GAP, ex->gap)) ||
	    (ex->cons && (rc = trim_neteval_set_constraints(ne, ex->cons))))
		goto out;
	ne->stop_after = ex->stop_after;
out:
	trim_energy_free(table);
	trim_arch_free(arch);
	if (rc) {
		trim_neteval_free(ne);
		const char *name = trim_space_point_name(ex->space, i);
		trim__error_prefix(name ? name : "point");
		trim__explore_point_clear(p);
		return rc;
	}
	*out = ne;
	return 0;
}

int trim__explore_point_end(const trim_explorer *ex, size_t i, const trim_neteval *ne, int run_rc, trim__xpoint *p)
{
	trim_mapping *m = NULL;
	int rc = run_rc;
	if (rc == TRIM_ENOFIT || rc == TRIM_ERANGE) {
		/* the point cannot run this network: recorded, not fatal */
		snprintf(p->error, sizeof p->error, "%s", trim_last_error());
		p->valid = 0;
		p->done = 1;
		return 0;
	}
	if (rc)
		goto out;
	p->valid = 1;
	p->f[TRIM_XF_VALID] = 1;
	p->f[TRIM_XF_CYCLES] = trim_neteval_cycles(ne);
	p->f[TRIM_XF_SECONDS] = trim_neteval_seconds(ne);
	p->f[TRIM_XF_ENERGY_PJ] = trim_neteval_energy_pj(ne);
	p->f[TRIM_XF_STATIC_PJ] = trim_neteval_static_pj(ne);
	p->f[TRIM_XF_EDP] = p->f[TRIM_XF_CYCLES] * p->f[TRIM_XF_ENERGY_PJ];
	p->f[TRIM_XF_PE_UTILIZATION] = trim_neteval_pe_utilization(ne);
	if ((rc = trim_neteval_level_energy(ne, p->level_pj, TRIM__MAX_LEVELS)))
		goto out;
	p->nw = trim_neteval_count(ne);
	p->wl = trim__calloc(p->nw ? p->nw : 1, sizeof *p->wl);
	if (!p->wl) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < p->nw; k++) {
		trim__xworkload *x = &p->wl[k];
		double f[TRIM_NF_COUNT];
		if ((rc = trim_neteval_workload(ne, k, f, TRIM_NF_COUNT)))
			goto out;
		snprintf(x->layer, sizeof x->layer, "%s", trim_workloads_intra_layer(ex->w, k));
		x->phase = trim_workloads_intra_phase(ex->w, k);
		x->cycles = f[TRIM_NF_CYCLES];
		x->energy = f[TRIM_NF_ENERGY_PJ];
		x->dense_cycles = f[TRIM_NF_DENSE_CYCLES];
		x->dense_energy = f[TRIM_NF_DENSE_ENERGY_PJ];
		x->active_pes = f[TRIM_NF_ACTIVE_PES];
		x->pe_util = f[TRIM_NF_PE_UTILIZATION];
		x->exact = f[TRIM_NF_EXACT] == 1;
		x->lower_bound = f[TRIM_NF_LOWER_BOUND];
		if ((rc = trim_neteval_mapping(ne, k, &m)) ||
		    (rc = trim_mapping_dump(m, TRIM_FORMAT_YAML, &x->mapping)))
			goto out;
		trim_mapping_free(m);
		m = NULL;
	}
	size_t ninter = trim_workloads_inter_count(ex->w);
	for (size_t j = 0; j < ninter; j++) {
		double f[TRIM_NI_COUNT];
		if ((rc = trim_neteval_inter(ne, j, f, TRIM_NI_COUNT)))
			goto out;
		p->inter_cycles += f[TRIM_NI_CYCLES];
		p->inter_fixed_pj += f[TRIM_NI_ENERGY_PJ] - f[TRIM_NI_STATIC_PJ]; /* static: cached tensors' leakage */
	}
	trim__explore_point_bound(ex, p);
	p->done = 1;
out:
	trim_mapping_free(m);
	if (rc) {
		const char *name = trim_space_point_name(ex->space, i);
		trim__error_prefix(name ? name : "point");
		trim__explore_point_clear(p);
	}
	return rc;
}

int trim__explore_evaluate_point(const trim_explorer *ex, size_t i, int inner_threads, trim__xpoint *p)
{
	trim_neteval *ne = NULL;
	int rc = trim__explore_point_begin(ex, i, inner_threads, p, &ne);
	if (rc)
		return rc;
	rc = trim__explore_point_end(ex, i, ne, trim_neteval_run(ne), p);
	trim_neteval_free(ne);
	return rc ? rc : trim__explore_fuse_point(ex, i, inner_threads, p); /* lib/explore/fuse.c */
}

int trim_explorer_set_out_dir(trim_explorer *ex, const char *dir)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !dir || !dir[0])
		return trim__error(TRIM_EINVAL, "trim_explorer_set_out_dir: NULL argument");
	if (ex->next > 0)
		return trim__error(TRIM_EINVAL, "trim_explorer_set_out_dir: set before the first step");
	int rc = trim__explore_mkdirs(dir);
	if (rc == 0)
		rc = trim__explore_digest_inputs(ex);
	if (rc)
		return rc;
	free(ex->dir);
	ex->dir = trim__strdup(dir);
	if (!ex->dir)
		return TRIM_ENOMEM;
	/* load what an earlier run finished with the same inputs */
	for (size_t i = 0; i < ex->n; i++) {
		if (ex->pt[i].done)
			continue;
		rc = trim__explore_load_point(ex, i, &ex->pt[i]);
		if (rc < 0)
			return rc;
		if (rc == 1)
			ex->resumed++;
	}
	return 0;
}

/* ---- ranking and the Pareto front --------------------------------------------- */

double trim__explore_point_cost(const trim_explorer *ex, const trim__xpoint *p)
{
	double e = p->f[TRIM_XF_ENERGY_PJ], d = p->f[TRIM_XF_CYCLES], a = p->f[TRIM_XF_AREA_MM2];
	if (!(a == a))
		a = p->f[TRIM_XF_DSP] > 0 ? p->f[TRIM_XF_DSP] : 1; /* FPGA: DSPs stand for area */
	switch (ex->goal) {
	case TRIM_EXPLORE_ENERGY: return e;
	case TRIM_EXPLORE_DELAY: return d;
	case TRIM_EXPLORE_EDP: return e * d;
	case TRIM_EXPLORE_AREA: return a;
	default: return pow(e, ex->we) * pow(d, ex->wd) * pow(a, ex->wa);
	}
}

static int rankable(const trim_explorer *ex, const trim__xpoint *p)
{
	if (!p->valid)
		return 0;
	double a = p->f[TRIM_XF_AREA_MM2];
	return !(ex->budget > 0 && a == a && a > ex->budget);
}

/* The ranking's order, the mapper's (docs/guide.md, "Goals"): the goal's
 * cost, then the other figures (the energy goal: cycles; every other goal:
 * energy, then cycles), then the point index. */
static int before(const trim_explorer *ex, size_t i, size_t j)
{
	const double *fi = ex->pt[i].f, *fj = ex->pt[j].f;
	double ci = trim__explore_point_cost(ex, &ex->pt[i]), cj = trim__explore_point_cost(ex, &ex->pt[j]);
	if (ci != cj)
		return ci < cj;
	const int e_first = ex->goal != TRIM_EXPLORE_ENERGY;
	const int k1 = e_first ? TRIM_XF_ENERGY_PJ : TRIM_XF_CYCLES, k2 = e_first ? TRIM_XF_CYCLES : TRIM_XF_ENERGY_PJ;
	if (fi[k1] != fj[k1])
		return fi[k1] < fj[k1];
	if (fi[k2] != fj[k2])
		return fi[k2] < fj[k2];
	return i < j;
}

static void rank_points(trim_explorer *ex)
{
	size_t k = 0;
	for (size_t i = 0; i < ex->n; i++) {
		ex->pt[i].f[TRIM_XF_RANK] = 0;
		ex->pt[i].f[TRIM_XF_PARETO] = 0;
		if (rankable(ex, &ex->pt[i]))
			ex->order[k++] = i;
	}
	for (size_t a = 1; a < k; a++) { /* insertion sort: spaces are small */
		size_t v = ex->order[a], b = a;
		for (; b > 0 && before(ex, v, ex->order[b - 1]); b--)
			ex->order[b] = ex->order[b - 1];
		ex->order[b] = v;
	}
	ex->nranked = k;
	for (size_t r = 0; r < k; r++)
		ex->pt[ex->order[r]].f[TRIM_XF_RANK] = (double)(r + 1);
	for (size_t i = 0; i < ex->n; i++) /* the goal's bounds, with the weights now */
		trim__explore_point_bound(ex, &ex->pt[i]);
	trim__explore_rank_ranges(ex, ex->order, k);
	trim__explore_pareto_front(ex); /* lib/explore/front.c */
	for (size_t i = 0; i < ex->n; i++)
		ex->pt[i].f[TRIM_XF_PARETO_PROVEN] = trim__explore_pareto_proven(ex, i);
	ex->ranked = 1;
}

/* ---- driving ------------------------------------------------------------------ */

static int all_done(const trim_explorer *ex)
{
	for (size_t i = 0; i < ex->n; i++)
		if (!ex->pt[i].done)
			return 0;
	return 1;
}

static size_t count_done(const trim_explorer *ex)
{
	size_t k = 0;
	for (size_t i = 0; i < ex->n; i++)
		k += ex->pt[i].done;
	return k;
}

int trim_explorer_step(trim_explorer *ex, int *done)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !done)
		return trim__error(TRIM_EINVAL, "trim_explorer_step: NULL argument");
	while (ex->next < ex->n && ex->pt[ex->next].done)
		ex->next++;
	if (ex->next < ex->n) {
		size_t i = ex->next;
		int rc = trim__explore_evaluate_point(ex, i, ex->threads, &ex->pt[i]);
		if (rc == 0 && ex->dir)
			rc = trim__explore_save_point(ex, i, &ex->pt[i]);
		if (rc)
			return rc;
		ex->next++;
	}
	*done = all_done(ex);
	if (*done && !ex->ranked)
		rank_points(ex);
	return 0;
}

int trim_explorer_run(trim_explorer *ex)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex)
		return trim__error(TRIM_EINVAL, "trim_explorer_run: NULL handle");
	int rc = 0;
	char msg[1024] = "";
	long n = (long)ex->n;
	/* points in parallel, each search single-threaded; the first error wins
	 * deterministically (smallest point index) */
	long first_bad = n;
#pragma omp parallel for schedule(dynamic, 1) num_threads(ex->threads)
	for (long i = 0; i < n; i++) {
		if (ex->pt[i].done)
			continue;
		int r = trim__explore_evaluate_point(ex, (size_t)i, 1, &ex->pt[i]);
		if (r == 0 && ex->dir)
			r = trim__explore_save_point(ex, (size_t)i, &ex->pt[i]);
		if (r) {
#pragma omp critical
			if (i < first_bad) {
				first_bad = i;
				rc = r;
				snprintf(msg, sizeof msg, "%s", trim_last_error());
			}
		}
	}
	if (rc)
		return trim__error(rc, "%s", msg);
	ex->next = ex->n;
	rank_points(ex);
	return 0;
}

size_t trim_explorer_done(const trim_explorer *ex)
{
	return TRIM__HANDLE_OK(ex, EXPLORER) ? count_done(ex) : 0;
}
size_t trim_explorer_count(const trim_explorer *ex)
{
	return TRIM__HANDLE_OK(ex, EXPLORER) ? ex->n : 0;
}
size_t trim_explorer_resumed(const trim_explorer *ex)
{
	return TRIM__HANDLE_OK(ex, EXPLORER) ? ex->resumed : 0;
}
size_t trim_explorer_recomputed(const trim_explorer *ex)
{
	return TRIM__HANDLE_OK(ex, EXPLORER) ? ex->recomputed : 0;
}
const char *trim_explorer_resume_notes(const trim_explorer *ex)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, NULL);
	return ex && ex->notes ? ex->notes : "";
}

const char *trim_explorer_point_name(const trim_explorer *ex, size_t i)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, NULL);
	return ex && i < ex->n ? trim_space_point_name(ex->space, i) : NULL;
}

int trim_explorer_point(const trim_explorer *ex, size_t i, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !out || n < TRIM_XF_COUNT)
		return trim__error(TRIM_EINVAL, "trim_explorer_point: needs room for %d values", TRIM_XF_COUNT);
	if (i >= ex->n || !ex->pt[i].done)
		return trim__error(TRIM_EINVAL, "trim_explorer_point: point %zu is not evaluated", i);
	memcpy(out, ex->pt[i].f, sizeof ex->pt[i].f);
	return 0;
}

int trim_explorer_ranked(const trim_explorer *ex, size_t rank, size_t *index)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !index)
		return trim__error(TRIM_EINVAL, "trim_explorer_ranked: NULL argument");
	if (!ex->ranked || rank < 1 || rank > ex->nranked)
		return trim__error(TRIM_ENOTFOUND, "no point of rank %zu", rank);
	*index = ex->order[rank - 1];
	return 0;
}

/* ---- reports ------------------------------------------------------------------- */

/* The results as JSON: the goal, every point (with its workloads when
 * `full`: results.json of trim_explorer_write) and the Pareto front. */
static void results_json(const trim_explorer *ex, int full, trim__sb *sb)
{
	trim__sb_printf(sb, "{\n  \"goal\": \"%s\",\n  \"network\": ", goal_names[ex->goal]);
	trim__sb_json_str(sb, trim_network_name(ex->net));
	trim__sb_printf(sb, ",\n  \"mode\": \"%s\",\n  \"space\": ", trim_mode_name(trim_workloads_mode(ex->w)));
	trim__sb_json_str(sb, trim_space_name(ex->space));
	trim__sb_puts(sb, ",\n  \"points\": [");
	for (size_t i = 0; i < ex->n; i++) {
		trim__sb_puts(sb, i ? ",\n    " : "\n    ");
		trim__explore_point_json(ex, i, &ex->pt[i], full, sb);
		trim__xreport_point_json(ex, i, sb); /* temporal utilisation, warnings */
		trim__explore_fuse_json(ex, i, sb);
	}
	trim__sb_puts(sb, "\n  ],\n  \"pareto\": [");
	int first = 1;
	for (size_t i = 0; i < ex->n; i++) {
		if (ex->pt[i].f[TRIM_XF_PARETO] == 0)
			continue;
		trim__sb_puts(sb, first ? "" : ", ");
		trim__sb_json_str(sb, trim_space_point_name(ex->space, i));
		first = 0;
	}
	trim__sb_puts(sb, "]\n}\n");
}

/* The exploration as JSON: the results without each point's workloads. */
static int explorer_json(const void *report, trim__sb *sb)
{
	results_json(report, 0, sb);
	return 0;
}

/* The exploration as a table for people: the ranking, the best point's warnings. */
static int explorer_table(const void *report, trim__sb *sb)
{
	const trim_explorer *ex = report;
	trim__sb_printf(sb, "exploration of %s (%s) over %s, goal %s: %zu points\n\n",
	                trim_network_name(ex->net), trim_mode_name(trim_workloads_mode(ex->w)),
	                trim_space_name(ex->space), goal_names[ex->goal], ex->n);
	int pw = 5; /* the point column as wide as the longest name */
	for (size_t i = 0; i < ex->n; i++) {
		size_t l = strlen(trim_space_point_name(ex->space, i));
		pw = l > (size_t)pw && l < 256 ? (int)l : pw;
	}
	trim__sb_printf(sb, "%-5s %-*s %14s %14s %14s %10s %8s %8s %-6s %5s %8s %s\n", "rank", pw, "point",
	                "cycles", "energy pJ", "EDP", "area mm2", "PE util", "t-util", "pareto", "exact", "gap",
	                "ranks");
	size_t unproven = 0;
	for (size_t r = 0; r < ex->nranked; r++) {
		const trim__xpoint *p = &ex->pt[ex->order[r]];
		char gap[32], ranks[48];
		double g = p->f[TRIM_XF_GAP];
		if (g == g)
			snprintf(gap, sizeof gap, "%.3g%%", 100 * g);
		else
			snprintf(gap, sizeof gap, "none"); /* no bound (docs/guide.md) */
		size_t best = (size_t)p->f[TRIM_XF_RANK_BEST], worst = (size_t)p->f[TRIM_XF_RANK_WORST];
		if (best == worst)
			snprintf(ranks, sizeof ranks, "%zu", best);
		else
			snprintf(ranks, sizeof ranks, "%zu-%zu", best, worst);
		unproven += best != worst;
		trim__sb_printf(sb, "%-5zu %-*s %14.6g %14.6g %14.6g %10.4g %8.3f %8.3f %-6s %5s %8s %s\n", r + 1,
		                pw, trim_space_point_name(ex->space, ex->order[r]), p->f[TRIM_XF_CYCLES],
		                p->f[TRIM_XF_ENERGY_PJ], p->f[TRIM_XF_EDP], p->f[TRIM_XF_AREA_MM2],
		                p->f[TRIM_XF_PE_UTILIZATION], trim__xreport_temporal(ex, ex->order[r]),
		                trim__explore_pareto_proven(ex, ex->order[r]) ? (p->f[TRIM_XF_PARETO] != 0 ? "*" : "")
		                : (p->f[TRIM_XF_PARETO] != 0 ? "*?" : "?"), p->f[TRIM_XF_EXACT] != 0 ? "yes" : "no", gap,
		                ranks);
	}
	if (unproven)
		trim__sb_printf(sb, "\nthe order of %zu of %zu ranked points is not proven: their searches stopped "
		                "before proving them optimal, and each could hold any rank of its \"ranks\" "
		                "(gap: how far its %s may be above the best its mappings can give)\n",
		                unproven, ex->nranked, goal_names[ex->goal]);
	size_t pu = 0; /* pareto "?": the point's place on or off the front could change */
	for (size_t r = 0; r < ex->nranked; r++)
		pu += !trim__explore_pareto_proven(ex, ex->order[r]);
	if (pu)
		trim__sb_printf(sb, "pareto ?: the place on or off the front of %zu points is not proven\n", pu);
	for (size_t i = 0; i < ex->n; i++) {
		const trim__xpoint *p = &ex->pt[i];
		if (p->f[TRIM_XF_RANK] != 0)
			continue;
		trim__sb_printf(sb, "-     %-*s %s\n", pw, trim_space_point_name(ex->space, i),
		                p->valid ? "over the area budget" : p->error);
	}
	trim__explore_fuse_table(ex, pw, sb);
	trim__xreport_table_tail(ex, sb); /* the best point's warnings */
	return 0;
}

/* The points as CSV, one row per point (also points.csv of trim_explorer_write). */
static int explorer_csv(const void *report, trim__sb *sb)
{
	const trim_explorer *ex = report;
	trim__sb_puts(sb, "goal,name,rank,valid,cycles,seconds,energy_pj,static_pj,edp,area_mm2,pe_utilization,pareto,fits,dsp,bram36,lut,ff,"
	                  "temporal_utilization,exact,lower_bound,gap,rank_best,rank_worst,pareto_proven");
	trim__explore_fuse_csv(ex, -1, sb); /* and the newline */
	for (size_t i = 0; i < ex->n; i++) {
		const trim__xpoint *p = &ex->pt[i];
		trim__sb_printf(sb, "%s,", goal_names[ex->goal]);
		trim__sb_csv_str(sb, trim_space_point_name(ex->space, i));
		trim__sb_printf(sb, ",%.0f,%d", p->f[TRIM_XF_RANK], p->valid);
		static const int cols[] = {TRIM_XF_CYCLES, TRIM_XF_SECONDS, TRIM_XF_ENERGY_PJ, TRIM_XF_STATIC_PJ,
		                           TRIM_XF_EDP, TRIM_XF_AREA_MM2, TRIM_XF_PE_UTILIZATION, TRIM_XF_PARETO,
		                           TRIM_XF_FITS, TRIM_XF_DSP, TRIM_XF_BRAM36, TRIM_XF_LUT, TRIM_XF_FF};
		for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
			trim__sb_printf(sb, ",%.17g", p->f[cols[k]]);
		trim__sb_printf(sb, ",%.17g", trim__xreport_temporal(ex, i)); /* NaN: invalid */
		trim__sb_printf(sb, ",%d,%.17g,%.17g,%.0f,%.0f,%d", p->f[TRIM_XF_EXACT] != 0, p->f[TRIM_XF_LOWER_BOUND],
		                p->f[TRIM_XF_GAP], p->f[TRIM_XF_RANK_BEST], p->f[TRIM_XF_RANK_WORST],
		                p->f[TRIM_XF_PARETO_PROVEN] != 0);
		trim__explore_fuse_csv(ex, (long)i, sb);
	}
	return 0;
}

static int need_ranked(const trim_explorer *ex)
{
	if (!ex->ranked)
		return trim__error(TRIM_EINVAL, "the exploration has not finished");
	return 0;
}

/* The writers of trim_explorer_report, one per format. */
static const trim__writers explorer_writers = {
	"trim_explorer_report",
	{[TRIM_FORMAT_TABLE] = explorer_table, [TRIM_FORMAT_JSON] = explorer_json, [TRIM_FORMAT_CSV] = explorer_csv}};

int trim_explorer_report(const trim_explorer *ex, int format, char **out)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !out)
		return trim__error(TRIM_EINVAL, "trim_explorer_report: NULL argument");
	*out = NULL;
	int rc = need_ranked(ex);
	if (rc)
		return rc;
	return trim__write_report(&explorer_writers, format, ex, out);
}

static int write_one(const char *dir, const char *name, trim__sb *sb)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = NULL;
	int rc = trim__sb_take(sb, &text);
	if (rc == 0)
		rc = trim__write_file_atomic(path, text, strlen(text));
	free(text);
	return rc;
}

int trim_explorer_write(const trim_explorer *ex, const char *dir)
{
	TRIM__HANDLE_CHECK(ex, EXPLORER, TRIM_EINVAL);
	if (!ex || !dir)
		return trim__error(TRIM_EINVAL, "trim_explorer_write: NULL argument");
	int rc = need_ranked(ex);
	if (rc == 0)
		rc = trim__explore_mkdirs(dir);
	trim__sb sb;
	if (rc == 0) {
		trim__sb_init(&sb);
		results_json(ex, 1, &sb);
		rc = write_one(dir, "results.json", &sb);
	}
	if (rc == 0) {
		trim__sb_init(&sb);
		explorer_csv(ex, &sb);
		rc = write_one(dir, "points.csv", &sb);
	}
	if (rc == 0) {
		trim__sb_init(&sb);
		trim__xreport_workloads_csv(ex, &sb); /* lib/explore/report.c */
		rc = write_one(dir, "workloads.csv", &sb);
	}
	return rc;
}
