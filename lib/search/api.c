/*
 * Public face of the mapspace search (the rest of lib/search/; interface:
 * lib/search/mapspace_int.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constraints/constraints_int.h"
#include "energy/energy_int.h"
#include "mapspace_int.h"
#include "share.h"
#include "trim/search.h"
#include "util/handle.h"

struct trim_search {
	uint32_t tag; /* TRIM__H_SEARCH (util/handle.h): first, checked by every entry point */
	trim__intra w;
	struct trim_arch arch;
	trim__level_cost costs[TRIM__MAX_LEVELS];
	trim__mapspace space;
	int goal, threads, ran;
	trim__search_result res;
	int64_t prog[2]; /* progress of a running search (trim__mapspace.prog) */
	int64_t upin[TRIM__MAX_LEVELS][TRIM_NDIMS]; /* custom factors (trim_search_set_factor) */
	trim_constraints *cons;                     /* own copy, or NULL */
	char *why_empty; /* after a run that found nothing: why (trim__search_why_empty) */
};

int trim_search_create(trim_search **out, const trim_workloads *w, size_t i, const trim_arch *arch,
                       const trim_energy *table)
{
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(table, ENERGY, TRIM_EINVAL);
	if (!out || !w || !arch)
		return trim__error(TRIM_EINVAL, "trim_search_create: NULL argument");
	*out = NULL;
	trim_energy *own = NULL;
	trim_search *s = NULL;
	int rc = 0;
	const trim__intra *x = trim__workloads_intra(w, i);
	if (!x) {
		rc = trim__error(TRIM_ENOTFOUND, "trim_search_create: no intra workload %zu", i);
		goto out;
	}
	if (arch->nlevels > TRIM__MAX_LEVELS) {
		rc = trim__error(TRIM_EINVAL, "trim_search_create: too many levels");
		goto out;
	}
	if (!table) {
		if ((rc = trim_energy_load_for_arch(&own, arch)))
			goto out;
		table = own;
	}
	s = trim__calloc(1, sizeof *s);
	if (!s) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	TRIM__HANDLE_INIT(s, SEARCH);
	s->w = *x;
	s->arch = *arch;
	s->arch.file = NULL;
	s->threads = 1;
	if ((rc = trim__arch_costs(&s->arch, table, s->costs)))
		goto out;
	if ((rc = trim__mapspace_init(&s->space, &s->w, &s->arch)))
		goto out;
	s->space.prog = s->prog;
	if ((rc = trim__eval_reserved(w, i, &s->arch, s->space.reserved)))
		goto out;
	*out = s;
	s = NULL;
out:
	if (s)
		trim__mapspace_free(&s->space);
	free(s);
	trim_energy_free(own);
	return rc;
}

void trim_search_free(trim_search *s)
{
	TRIM__HANDLE_CHECK_VOID(s, SEARCH);
	if (!s)
		return;
	trim__mapspace_free(&s->space);
	trim__search_result_free(&s->res);
	trim_constraints_free(s->cons);
	free(s->why_empty);
	TRIM__HANDLE_POISON(s, SEARCH);
	free(s);
}

/* The space restricted by the custom factors, then by the constraints. */
static int restrict_space(trim_search *s)
{
	trim__mapspace_unconstrain(&s->space);
	for (int l = 0; l < s->arch.nlevels; l++)
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (s->upin[l][d]) {
				int rc = trim__mapspace_pin(&s->space, l, d, s->upin[l][d]);
				if (rc)
					return rc;
			}
	return trim__mapspace_constrain(s->cons, &s->space);
}

int trim_search_set_int(trim_search *s, int option, int64_t value)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s)
		return trim__error(TRIM_EINVAL, "trim_search_set_int: NULL search");
	switch (option) {
	case TRIM_SEARCH_GOAL:
		if (value < TRIM_GOAL_ENERGY || value > TRIM_GOAL_EDP)
			return trim__error(TRIM_ERANGE, "trim_search_set_int: goal %lld (energy 0, delay 1, edp 2)",
			                   (long long)value);
		s->goal = (int)value;
		return 0;
	case TRIM_SEARCH_TOP_K:
		if (value < 1 || value > 1024)
			return trim__error(TRIM_ERANGE, "trim_search_set_int: top k %lld (1..1024)", (long long)value);
		s->space.topk = (int)value;
		s->ran = 0;
		return 0;
	case TRIM_SEARCH_IMPERFECT: {
		if (value != 0 && value != 1)
			return trim__error(TRIM_ERANGE, "trim_search_set_int: imperfect %lld (0 or 1)", (long long)value);
		int rc = trim__mapspace_set_imperfect(&s->space, (int)value);
		if (!rc)
			rc = restrict_space(s);
		if (rc) {
			trim__mapspace_set_imperfect(&s->space, !value); /* as before (it was accepted) */
			restrict_space(s);
			return trim__error_prefix("trim_search_set_int");
		}
		s->ran = 0;
		return 0;
	}
	case TRIM_SEARCH_COUNT:
		if (value < TRIM_COUNT_LIBTRIM || value > TRIM_COUNT_TIMELOOP)
			return trim__error(TRIM_ERANGE, "trim_search_set_int: counting rules %lld (libtrim %d, timeloop %d)",
			                   (long long)value, TRIM_COUNT_LIBTRIM, TRIM_COUNT_TIMELOOP);
		trim__costs_set_count(s->costs, s->arch.nlevels, (int)value);
		s->ran = 0;
		return 0;
	case TRIM_SEARCH_THREADS:
		if (value < 1 || value > 1024)
			return trim__error(TRIM_ERANGE, "trim_search_set_int: threads %lld (1..1024)", (long long)value);
		s->threads = (int)value;
		return 0;
	default:
		return trim__error(TRIM_EINVAL, "trim_search_set_int: unknown option %d", option);
	}
}

int trim_search_set_factor(trim_search *s, int level, int dim, int64_t bound)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s)
		return trim__error(TRIM_EINVAL, "trim_search_set_factor: NULL search");
	if (level < 0 || level >= s->arch.nlevels)
		return trim__error(TRIM_ENOTFOUND, "trim_search_set_factor: no level %d", level);
	if (dim < 0 || dim >= TRIM_NDIMS || bound < 0)
		return trim__error(TRIM_EINVAL, "trim_search_set_factor: bad factor (dim %d, bound %lld)", dim,
		                   (long long)bound);
	int64_t old = s->upin[level][dim];
	int rc = 0;
	s->upin[level][dim] = bound;
	if (!s->cons) {
		rc = trim__mapspace_pin(&s->space, level, dim, bound);
	} else if ((rc = restrict_space(s))) {
		s->upin[level][dim] = old;
		restrict_space(s); /* as before (it was accepted) */
	}
	if (rc) {
		s->upin[level][dim] = old;
		return trim__error_prefix("trim_search_set_factor");
	}
	s->ran = 0;
	return 0;
}

int trim_search_set_constraints(trim_search *s, const trim_constraints *c)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(c, CONSTRAINTS, TRIM_EINVAL);
	if (!s)
		return trim__error(TRIM_EINVAL, "trim_search_set_constraints: NULL search");
	trim_constraints *own = NULL, *old = s->cons;
	int rc = c ? trim_constraints_clone(&own, c) : 0;
	if (rc)
		return rc;
	s->cons = own;
	if ((rc = restrict_space(s))) {
		s->cons = old;
		restrict_space(s); /* as before (it was accepted) */
		trim_constraints_free(own);
		return rc;
	}
	trim_constraints_free(old);
	s->ran = 0;
	return 0;
}

int trim_search_set_double(trim_search *s, int option, double value)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s)
		return trim__error(TRIM_EINVAL, "trim_search_set_double: NULL search");
	if (option == TRIM_SEARCH_TIME_LIMIT) {
		if (!(value >= 0 && value <= 1e9))
			return trim__error(TRIM_ERANGE, "trim_search_set_double: time limit %g s is not in [0, 1e9] (0: none)",
			                   value);
		s->space.time_limit = value;
		s->ran = 0;
		return 0;
	}
	if (option == TRIM_SEARCH_GAP) {
		if (!(value >= 0 && value < 1))
			return trim__error(TRIM_ERANGE, "trim_search_set_double: gap %g is not in [0, 1) (0: exact)", value);
		s->space.gap = value;
		s->ran = 0;
		return 0;
	}
	if (option != TRIM_SEARCH_MIN_PE_UTIL && option != TRIM_SEARCH_MIN_RF_UTIL)
		return trim__error(TRIM_EINVAL, "trim_search_set_double: unknown option %d (min PE util %d, min RF util %d, "
		                                "time limit %d, gap %d)", option, TRIM_SEARCH_MIN_PE_UTIL,
		                   TRIM_SEARCH_MIN_RF_UTIL, TRIM_SEARCH_TIME_LIMIT, TRIM_SEARCH_GAP);
	if (!(value >= 0 && value <= 1))
		return trim__error(TRIM_ERANGE, "trim_search_set_double: utilization %g is not in [0, 1]", value);
	if (option == TRIM_SEARCH_MIN_PE_UTIL)
		s->space.min_pe_util = value;
	else
		s->space.min_rf_util = value;
	s->ran = 0;
	return 0;
}

double trim_search_size(const trim_search *s)
{
	return TRIM__HANDLE_OK(s, SEARCH) ? (double)s->space.size : -1;
}

double trim_search_distinct(const trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, -1);
	uint64_t n = 0;
	if (!s || trim__mapspace_distinct(&s->space, &n))
		return -1;
	return (double)n;
}

double trim_search_progress(const trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, -1);
	if (!s)
		return -1;
	int64_t done = __atomic_load_n(&s->prog[0], __ATOMIC_RELAXED);
	int64_t total = __atomic_load_n(&s->prog[1], __ATOMIC_RELAXED);
	return total > 0 ? (double)done / (double)total : 0;
}

int trim_search_run(trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s)
		return trim__error(TRIM_EINVAL, "trim_search_run: NULL search");
	__atomic_store_n(&s->prog[0], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->prog[1], 0, __ATOMIC_RELAXED);
	trim__search_result_free(&s->res);
	trim__search_result res;
	int rc = trim__search(&s->space, s->costs, s->goal, s->threads, &res);
	return trim__search_take_result(s, &res, rc);
}

/* For lib/search/share.c (the top nodes run by several processes): the
 * search's inputs, and a result made elsewhere taken as trim_search_run's. */
void trim__search_parts(trim_search *s, const trim__mapspace **space, const trim__level_cost **costs, int *goal,
                        int *threads)
{
	*space = &s->space;
	*costs = s->costs;
	*goal = s->goal;
	*threads = s->threads;
}

int trim__search_take_result(trim_search *s, trim__search_result *res, int rc)
{
	trim__search_result_free(&s->res);
	free(s->why_empty);
	s->why_empty = NULL;
	s->res = *res;
	memset(res, 0, sizeof *res);
	if (rc == 0 && !s->res.found)
		rc = trim__search_why_empty(&s->space, s->costs, s->goal, s->threads, s->cons,
		                            (const int64_t(*)[TRIM_NDIMS])s->upin, &s->res, &s->why_empty);
	s->ran = rc == 0;
	return rc;
}

const char *trim_search_why_empty(const trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, NULL);
	return s && s->ran && !s->res.found ? s->why_empty : NULL;
}

int trim_search_counts(const trim_search *s, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s || !out || n < 5)
		return trim__error(TRIM_EINVAL, "trim_search_counts: NULL argument or n < 5");
	if (n > 5)
		out[5] = (int64_t)s->res.bounded;
	out[0] = (int64_t)s->res.generated;
	out[1] = (int64_t)s->res.valid;
	out[2] = (int64_t)s->res.evaluated;
	out[3] = (int64_t)s->res.unsupported;
	out[4] = (int64_t)s->res.pruned;
	return 0;
}

double trim_search_lower_bound(const trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, NAN);
	return s && s->ran && s->res.found ? s->res.lower_bound : NAN;
}

double trim_search_gap(const trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, NAN);
	if (!s || !s->ran || !s->res.found)
		return NAN;
	return trim__search_gap(&s->res);
}

int trim_search_exact(const trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	return s && s->ran ? s->res.exact : -1;
}

int trim_search_best(const trim_search *s, trim_mapping **out)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s || !out)
		return trim__error(TRIM_EINVAL, "trim_search_best: NULL argument");
	*out = NULL;
	if (!s->ran || !s->res.found)
		return s->ran ? trim__error(TRIM_ENOTFOUND, "trim_search_best: no mapping fits: %s",
		                            s->why_empty ? s->why_empty : "")
		              : trim__error(TRIM_ENOTFOUND, "trim_search_best: not run");
	return trim__mapping_clone_out(out, &s->res.best);
}

uint64_t trim_search_best_index(const trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, 0);
	return s && s->ran && s->res.found && s->res.best_index < UINT64_MAX ? (uint64_t)s->res.best_index
	                                                                        : UINT64_MAX;
}

/* The top list: the kept k, or just the best when k <= 1. */
static size_t top_n(const trim_search *s)
{
	if (!s || !s->ran || !s->res.found)
		return 0;
	return s->res.ntop ? s->res.ntop : 1;
}

size_t trim_search_top_count(const trim_search *s)
{
	TRIM__HANDLE_CHECK(s, SEARCH, 0);
	return top_n(s);
}

int trim_search_top(const trim_search *s, size_t i, double *cost, uint64_t *index)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s || !cost || !index)
		return trim__error(TRIM_EINVAL, "trim_search_top: NULL argument");
	if (i >= top_n(s))
		return trim__error(TRIM_ENOTFOUND, "trim_search_top: no mapping %zu (%zu kept)", i, top_n(s));
	trim__index x = s->res.ntop ? s->res.top_index[i] : s->res.best_index;
	*cost = s->res.ntop ? s->res.top_cost[i] : s->res.best_cost;
	*index = x < UINT64_MAX ? (uint64_t)x : UINT64_MAX;
	if (x >= UINT64_MAX) {
		char b[48];
		return trim__error(TRIM_ERANGE, "trim_search_top: index %s does not fit 64 bits (trim_search_index_str)",
		                   trim__index_str(x, b));
	}
	return 0;
}

int trim_search_index_str(const trim_search *s, size_t i, char *buf, size_t n)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s || !buf)
		return trim__error(TRIM_EINVAL, "trim_search_index_str: NULL argument");
	if (i >= top_n(s))
		return trim__error(TRIM_ENOTFOUND, "trim_search_index_str: no mapping %zu (%zu kept)", i, top_n(s));
	char b[48];
	trim__index_str(s->res.ntop ? s->res.top_index[i] : s->res.best_index, b);
	if (strlen(b) + 1 > n)
		return trim__error(TRIM_ERANGE, "trim_search_index_str: %zu bytes needed", strlen(b) + 1);
	memcpy(buf, b, strlen(b) + 1);
	return 0;
}

int trim_search_top_mapping(const trim_search *s, size_t i, trim_mapping **out)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s || !out)
		return trim__error(TRIM_EINVAL, "trim_search_top_mapping: NULL argument");
	*out = NULL;
	if (i >= top_n(s))
		return trim__error(TRIM_ENOTFOUND, "trim_search_top_mapping: no mapping %zu (%zu kept)", i, top_n(s));
	return trim__mapping_clone_out(out, s->res.ntop ? &s->res.top[i] : &s->res.best);
}

static const char *const goal_names[] = {"energy", "delay", "edp"};

/* The search as one JSON object: the best mapping with its evaluation, the
 * counts, how sure the search is, the mapspace and the top mappings. */
static int search_json(const void *report, trim__sb *sb)
{
	const trim_search *s = report;
	const trim__search_result *r = &s->res;
	trim__sb_puts(sb, "{\"best\": ");
	if (r->found) {
		const trim__eval *e = &r->best_eval;
		trim__sb_puts(sb, "{\"cycles\": ");
		trim__sb_json_double(sb, e->cycles);
		trim__sb_puts(sb, ", \"edp\": ");
		trim__sb_json_double(sb, e->cycles * e->energy_pj);
		trim__sb_puts(sb, ", \"energy_pj\": ");
		trim__sb_json_double(sb, e->energy_pj);
		trim__sb_puts(sb, ", \"evaluation\": ");
		trim__eval_json(e, &s->arch, &r->best, sb);
		char ib[48];
		trim__sb_printf(sb, ", \"index\": %s, \"mapping\": ", trim__index_str(r->best_index, ib));
		trim__sb yb;
		trim__sb_init(&yb);
		trim__mapping_yaml(&r->best, &yb);
		trim__sb_json_str(sb, yb.buf ? yb.buf : "");
		trim__sb_free(&yb);
		trim__sb_puts(sb, ", \"pe_utilization\": ");
		trim__sb_json_double(sb, e->pe_util);
		trim__sb_puts(sb, "}");
	} else {
		trim__sb_puts(sb, "null");
	}
	if (s->costs[0].count != TRIM_COUNT_LIBTRIM) /* libtrim's rules: no key */
		trim__sb_printf(sb, ", \"count\": \"%s\"", trim_count_name(s->costs[0].count));
	trim__sb_printf(sb, ", \"counts\": {\"bounded\": %llu, \"evaluated\": %llu, \"generated\": %llu, \"pruned\": %llu, \"unsupported\": %llu, \"valid\": %llu}",
	                (unsigned long long)r->bounded, (unsigned long long)r->evaluated, (unsigned long long)r->generated,
	                (unsigned long long)r->pruned, (unsigned long long)r->unsupported,
	                (unsigned long long)r->valid);
	char rb[48];
	trim__sb_printf(sb, ", \"exact\": %s, \"gap\": ", r->exact ? "true" : "false");
	trim__sb_json_double(sb, r->found ? trim__search_gap(r) : NAN);
	trim__sb_printf(sb, ", \"goal\": \"%s\", \"lower_bound\": ", goal_names[s->goal]);
	trim__sb_json_double(sb, r->found ? r->lower_bound : NAN);
	trim__sb_printf(sb, ", \"mapspace\": {\"distinct\": %llu, \"raw\": %s}",
	                (unsigned long long)r->generated, trim__index_str(s->space.size, rb));
	if (!r->found && s->why_empty) {
		trim__sb_puts(sb, ", \"no_mapping\": ");
		trim__sb_json_str(sb, s->why_empty);
	}
	if (r->ntop) {
		trim__sb_puts(sb, ", \"top\": [");
		for (size_t i = 0; i < r->ntop; i++) {
			trim__sb_puts(sb, i ? ", {\"cost\": " : "{\"cost\": ");
			trim__sb_json_double(sb, r->top_cost[i]);
			trim__sb_puts(sb, ", \"second\": ");
			trim__sb_json_double(sb, r->top_second[i]);
			char ib[48];
			trim__sb_printf(sb, ", \"index\": %s}", trim__index_str(r->top_index[i], ib));
		}
		trim__sb_puts(sb, "]");
	}
	trim__sb_puts(sb, "}\n");
	return 0;
}

/* The search as a table for people: the mapspace, the goal, how sure the
 * search is, the best mapping's figures and loop nest, the top mappings. */
static int search_table(const void *report, trim__sb *sb)
{
	const trim_search *s = report;
	const trim__search_result *r = &s->res;
	char rb[48];
	trim__sb_printf(sb, "mapspace: %s raw mappings; %llu distinct generated, %llu skipped by bounds, %llu valid, %llu pruned, %llu evaluated",
	                trim__index_str(s->space.size, rb), (unsigned long long)r->generated,
	                (unsigned long long)r->bounded, (unsigned long long)r->valid,
	                (unsigned long long)r->pruned, (unsigned long long)r->evaluated);
	if (r->unsupported)
		trim__sb_printf(sb, ", %llu outside the analytic model", (unsigned long long)r->unsupported);
	trim__sb_printf(sb, "\ngoal: %s\n", goal_names[s->goal]);
	if (s->costs[0].count == TRIM_COUNT_TIMELOOP)
		trim__sb_puts(sb, "counted as Timeloop counts (--count timeloop): an operand shared per fan-out by "
		                  "identical tiles only, its windows along the innermost loop only, drains not "
		                  "charged, leakage on the used instances of a storage level only, none for the MACs\n");
	if (r->found && !r->exact)
		trim__sb_printf(sb, "not proven optimal (%s): lower bound %.9g, gap %.4g%%\n",
		                r->stopped ? "stopped at the time limit" : "within the gap", r->lower_bound,
		                100 * trim__search_gap(r));
	if (!r->found) {
		trim__sb_printf(sb, "no mapping fits: %s\n", s->why_empty ? s->why_empty : "");
	} else {
		const trim__eval *e = &r->best_eval;
		char ib[48];
		trim__sb_printf(sb, "best: index %s, cycles %.6g (bottleneck %s), energy %.6g pJ, EDP %.6g, PE utilization %.4g\n\n",
		                trim__index_str(r->best_index, ib), e->cycles,
		                s->arch.lv[e->bottleneck].name, e->energy_pj, e->cycles * e->energy_pj,
		                e->pe_util);
		trim__mapping_loopnest(&r->best, &s->w, sb);
		if (r->ntop > 1) {
			/* the order: the goal's cost, the other figure, the index */
			trim__sb_printf(sb, "\ntop %zu (cost, %s, index):\n", r->ntop,
			                s->goal == TRIM_GOAL_ENERGY ? "cycles" : "energy pJ");
			for (size_t i = 0; i < r->ntop; i++)
				trim__sb_printf(sb, "%4zu  %.9g  %.9g  %s\n", i + 1, r->top_cost[i], r->top_second[i],
				                trim__index_str(r->top_index[i], ib));
		}
	}
	return 0;
}

/* The writers of trim_search_report, one per format. */
static const trim__writers search_writers = {
	"trim_search_report", {[TRIM_FORMAT_TABLE] = search_table, [TRIM_FORMAT_JSON] = search_json}};

int trim_search_report(const trim_search *s, int format, char **out)
{
	TRIM__HANDLE_CHECK(s, SEARCH, TRIM_EINVAL);
	if (!s || !out)
		return trim__error(TRIM_EINVAL, "trim_search_report: NULL argument");
	*out = NULL;
	if (!s->ran)
		return trim__error(TRIM_EINVAL, "trim_search_report: the search has not run");
	return trim__write_report(&search_writers, format, s, out);
}
