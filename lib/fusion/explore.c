/*
 * The exploration of every partition of the chain into fused groups:
 * enumeration, or dynamic programming over Pareto fronts of prefixes for a
 * long chain; the Pareto set, the best plan for the goal, the result.
 */
#include <stdlib.h>
#include <string.h>

#include "fusion_int.h"

#define NOBJ 4 /* Pareto objectives: offchip, macs_parallel, onchip, cycles */

static const int goal_metric[TRIM_FUSION_NGOALS] = {
	TRIM_FUSION_OFFCHIP_BYTES, TRIM_FUSION_CYCLES, TRIM_FUSION_DSP,
	TRIM_FUSION_ONCHIP_BUFFER_BYTES, TRIM_FUSION_ENERGY_PJ};
static const int obj_metric[NOBJ] = {TRIM_FUSION_OFFCHIP_BYTES, TRIM_FUSION_MACS_PARALLEL,
                                     TRIM_FUSION_ONCHIP_BUFFER_BYTES, TRIM_FUSION_CYCLES};
static const int obj_is_sum[NOBJ] = {1, 0, 0, 1};

/* ---- exploration ------------------------------------------------------------ */

typedef struct {
	uint64_t cuts;
	double m[TRIM_FUSION_NMETRICS];
} cand;

static int lex_cmp(const cand *x, const cand *y, const int *order, int n)
{
	for (int k = 0; k < n; k++) {
		double a = x->m[order[k]], b = y->m[order[k]];
		if (a < b)
			return -1;
		if (a > b)
			return 1;
	}
	return x->cuts < y->cuts ? -1 : x->cuts > y->cuts;
}

static int cmp_obj(const void *a, const void *b)
{
	return lex_cmp(a, b, obj_metric, NOBJ);
}

/* x dominates y: no worse in every objective, better in one. */
static int dominates(const double *x, const double *y)
{
	int better = 0;
	for (int k = 0; k < NOBJ; k++) {
		if (x[obj_metric[k]] > y[obj_metric[k]])
			return 0;
		if (x[obj_metric[k]] < y[obj_metric[k]])
			better = 1;
	}
	return better;
}

static int same_obj(const double *x, const double *y)
{
	for (int k = 0; k < NOBJ; k++)
		if (x[obj_metric[k]] != y[obj_metric[k]])
			return 0;
	return 1;
}

typedef struct {
	cand c; /* first member: a pair sorts with the cand comparators */
	size_t i;
} pair;

static int cmp_pareto(const void *a, const void *b)
{
	static const int order[NOBJ] = {TRIM_FUSION_MACS_PARALLEL, TRIM_FUSION_OFFCHIP_BYTES,
	                                TRIM_FUSION_CYCLES, TRIM_FUSION_ONCHIP_BUFFER_BYTES};
	return lex_cmp(a, b, order, NOBJ);
}

/* Indices (into c[]) of the Pareto set of c[0..n-1], sorted by (MACs,
 * off-chip bytes, cycles, on-chip bytes, cuts); of plans with the same
 * objectives only the lowest cut mask is kept. In lexicographic order of the
 * objectives a plan can only be dominated by one before it, and only the
 * Pareto plans found so far need checking (domination is transitive). */
static int pareto_of(const cand *c, size_t n, size_t **out, size_t *np)
{
	pair *pp = trim__calloc(n ? n : 1, sizeof *pp);
	pair *par = trim__calloc(n ? n : 1, sizeof *par);
	size_t *idx = NULL;
	int rc = 0;
	size_t k = 0;
	if (!pp || !par) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		pp[i].c = c[i];
		pp[i].i = i;
	}
	qsort(pp, n, sizeof *pp, cmp_obj);
	for (size_t i = 0; i < n; i++) {
		int keep = 1;
		for (size_t j = 0; j < k && keep; j++)
			if (dominates(par[j].c.m, pp[i].c.m) || same_obj(par[j].c.m, pp[i].c.m))
				keep = 0;
		if (keep)
			par[k++] = pp[i];
	}
	qsort(par, k, sizeof *par, cmp_pareto);
	idx = trim__calloc(k ? k : 1, sizeof *idx);
	if (!idx) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	for (size_t j = 0; j < k; j++)
		idx[j] = par[j].i;
	*out = idx;
	*np = k;
out:
	free(pp);
	free(par);
	return rc;
}

/* Group metrics of every group a..b, gm[a * L + b]. */
static int all_groups(const trim_fusion *f, double **out)
{
	int L = f->nl;
	double *gm = trim__calloc((size_t)L * (size_t)L * TRIM_FUSION_NMETRICS, sizeof *gm);
	if (!gm)
		return TRIM_ENOMEM;
	for (int a = 0; a < L; a++)
		for (int b = a; b < L; b++)
			trim__fusion_eval_group(f, a, b,
			                        gm + ((size_t)a * (size_t)L + (size_t)b) *
			                                 TRIM_FUSION_NMETRICS,
			                        NULL);
	*out = gm;
	return 0;
}

#define GM(a, b) (gm + ((size_t)(a) * (size_t)L + (size_t)(b)) * TRIM_FUSION_NMETRICS)

static int enumerate(const trim_fusion *f, const double *gm, cand **out, size_t *n,
                     uint64_t *considered, uint64_t *over)
{
	int L = f->nl;
	uint64_t total = (uint64_t)1 << (L - 1);
	cand *c = trim__calloc((size_t)total, sizeof *c);
	if (!c)
		return TRIM_ENOMEM;
	size_t k = 0;
	for (uint64_t cuts = 0; cuts < total; cuts++) {
		cand *p = &c[k];
		memset(p, 0, sizeof *p);
		p->cuts = cuts;
		int a = 0, bad = 0;
		for (int i = 0; i < L && !bad; i++) {
			if (i == L - 1 || (cuts >> i & 1)) {
				if (trim__fusion_over_budget(f, GM(a, i)))
					bad = 1;
				else
					trim__fusion_combine(p->m, GM(a, i));
				a = i + 1;
			}
		}
		if (bad)
			(*over)++;
		else
			k++;
	}
	*considered = total;
	*out = c;
	*n = k;
	return 0;
}

/* q may be pruned from a prefix front by p: whatever follows, p's plan is
 * no worse than q's and wins the tie (strictly better in a summed objective,
 * or a lower cut mask). */
static int prunes(const cand *p, const cand *q)
{
	int strict_sum = 0;
	for (int k = 0; k < NOBJ; k++) {
		double a = p->m[obj_metric[k]], b = q->m[obj_metric[k]];
		if (a > b)
			return 0;
		if (a < b && obj_is_sum[k])
			strict_sum = 1;
	}
	return strict_sum || p->cuts < q->cuts;
}

static int dp(const trim_fusion *f, const double *gm, cand **out, size_t *n,
              uint64_t *considered)
{
	int L = f->nl, rc = 0;
	cand **front = trim__calloc((size_t)L + 1, sizeof *front);
	size_t *fn = trim__calloc((size_t)L + 1, sizeof *fn);
	cand *tmp = NULL;
	size_t tcap = 0;
	if (!front || !fn) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	front[0] = trim__calloc(1, sizeof(cand));
	if (!front[0]) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	fn[0] = 1;
	for (int j = 1; j <= L; j++) {
		size_t tn = 0;
		for (int i = 0; i < j; i++) {
			const double *g = GM(i, j - 1);
			if (trim__fusion_over_budget(f, g))
				continue;
			for (size_t s = 0; s < fn[i]; s++) {
				if (tn == tcap) {
					rc = trim__grow((void **)&tmp, &tcap, tn + 1, sizeof *tmp);
					if (rc)
						goto out;
				}
				cand *c = &tmp[tn++];
				*c = front[i][s];
				if (i > 0)
					c->cuts |= (uint64_t)1 << (i - 1);
				trim__fusion_combine(c->m, g);
				(*considered)++;
			}
		}
		/* prune */
		qsort(tmp, tn, sizeof *tmp, cmp_obj);
		cand *keep = trim__calloc(tn ? tn : 1, sizeof *keep);
		if (!keep) {
			rc = TRIM_ENOMEM;
			goto out;
		}
		size_t kn = 0;
		for (size_t s = 0; s < tn; s++) {
			int drop = 0;
			for (size_t t = 0; t < kn && !drop; t++)
				drop = prunes(&keep[t], &tmp[s]);
			if (!drop)
				keep[kn++] = tmp[s];
		}
		front[j] = keep;
		fn[j] = kn;
	}
	*out = front[L];
	*n = fn[L];
	front[L] = NULL;
out:
	if (front)
		for (int j = 0; j <= L; j++)
			free(front[j]);
	free(front);
	free(fn);
	free(tmp);
	return rc;
}

TRIM_API int trim_fusion_explore(trim_fusion_result **out, const trim_fusion *f, int goal)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!out || !f)
		return trim__error(TRIM_EINVAL, "trim_fusion_explore: NULL argument");
	*out = NULL;
	if (goal < 0 || goal >= TRIM_FUSION_NGOALS)
		return trim__error(TRIM_EINVAL, "unknown fusion goal %d", goal);
	int L = f->nl, rc;
	double *gm = NULL;
	cand *c = NULL;
	size_t n = 0;
	trim_fusion_result *r = trim__calloc(1, sizeof *r);
	if (!r)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(r, FUSION_RESULT);
	r->f = *f;
	r->goal = goal;
	rc = all_groups(f, &gm);
	if (rc)
		goto out;
	r->dp = L > (int)f->prm[TRIM_FUSION_ENUM_MAX_LAYERS];
	if (r->dp)
		rc = dp(f, gm, &c, &n, &r->considered);
	else
		rc = enumerate(f, gm, &c, &n, &r->considered, &r->over_budget);
	if (rc)
		goto out;
	if (n == 0) {
		double worst = 0;
		for (int i = 0; i < L; i++)
			if (GM(i, i)[TRIM_FUSION_DSP] > worst)
				worst = GM(i, i)[TRIM_FUSION_DSP];
		rc = trim__error(TRIM_ENOFIT, "no fusion plan of chain %s..%s fits the budget of "
		                 "%.17g DSP slices (layer by layer needs %.17g)", f->ly[0].name,
		                 f->ly[L - 1].name, f->prm[TRIM_FUSION_BUDGET_DSP], worst);
		goto out;
	}
	rc = pareto_of(c, n, &r->pareto, &r->np);
	if (rc)
		goto out;
	if (r->dp) { /* keep only the Pareto plans, in cut order */
		cand *pc = trim__calloc(r->np, sizeof *pc);
		if (!pc) {
			rc = TRIM_ENOMEM;
			goto out;
		}
		size_t *sel = trim__calloc(r->np, sizeof *sel);
		if (!sel) {
			free(pc);
			rc = TRIM_ENOMEM;
			goto out;
		}
		memcpy(sel, r->pareto, r->np * sizeof *sel);
		/* sort selected indices by cut mask */
		for (size_t i = 1; i < r->np; i++)
			for (size_t j = i; j > 0 && c[sel[j - 1]].cuts > c[sel[j]].cuts; j--) {
				size_t t = sel[j];
				sel[j] = sel[j - 1];
				sel[j - 1] = t;
			}
		for (size_t i = 0; i < r->np; i++)
			pc[i] = c[sel[i]];
		for (size_t k = 0; k < r->np; k++) /* Pareto order, indices into pc */
			for (size_t i = 0; i < r->np; i++)
				if (sel[i] == r->pareto[k]) {
					r->pareto[k] = i;
					break;
				}
		free(sel);
		free(c);
		c = pc;
		n = r->np;
	}
	r->n = n;
	r->cuts = trim__calloc(n, sizeof *r->cuts);
	r->m = trim__calloc(n * TRIM_FUSION_NMETRICS, sizeof *r->m);
	if (!r->cuts || !r->m) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	static const int tie[5] = {0, TRIM_FUSION_OFFCHIP_BYTES, TRIM_FUSION_CYCLES,
	                           TRIM_FUSION_MACS_PARALLEL, TRIM_FUSION_ONCHIP_BUFFER_BYTES};
	int order[5];
	memcpy(order, tie, sizeof order);
	order[0] = goal_metric[goal];
	r->best = 0;
	r->lbl = -1;
	uint64_t all_cut = L >= 65 ? ~(uint64_t)0 : (((uint64_t)1 << (L - 1)) - 1);
	for (size_t i = 0; i < n; i++) {
		r->cuts[i] = c[i].cuts;
		memcpy(r->m + i * TRIM_FUSION_NMETRICS, c[i].m, sizeof c[i].m);
		if (i > 0 && lex_cmp(&c[i], &c[r->best], order, 5) < 0)
			r->best = (int64_t)i;
		if (c[i].cuts == all_cut)
			r->lbl = (int64_t)i;
	}
	*out = r;
	r = NULL;
out:
	free(gm);
	free(c);
	trim_fusion_result_free(r);
	return rc;
}

TRIM_API void trim_fusion_result_free(trim_fusion_result *r)
{
	TRIM__HANDLE_CHECK_VOID(r, FUSION_RESULT);
	if (!r)
		return;
	free(r->cuts);
	free(r->m);
	free(r->pareto);
	TRIM__HANDLE_POISON(r, FUSION_RESULT);
	free(r);
}

TRIM_API uint64_t trim_fusion_result_considered(const trim_fusion_result *r)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, 0);
	return r ? r->considered : 0;
}

TRIM_API int trim_fusion_result_used_dp(const trim_fusion_result *r)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	return r ? r->dp : 0;
}

TRIM_API size_t trim_fusion_result_plan_count(const trim_fusion_result *r)
{
	return TRIM__HANDLE_OK(r, FUSION_RESULT) ? r->n : 0;
}

TRIM_API uint64_t trim_fusion_result_plan_cuts(const trim_fusion_result *r, size_t i)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, 0);
	return r && i < r->n ? r->cuts[i] : 0;
}

TRIM_API int trim_fusion_result_plan_metrics(const trim_fusion_result *r, size_t i, double *out,
                                             size_t n)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_plan_metrics: NULL argument");
	if (i >= r->n)
		return trim__error(TRIM_EINVAL, "plan %zu out of range (%zu plans)", i, r->n);
	return trim__fusion_copy_metrics(r->m + i * TRIM_FUSION_NMETRICS, out, n);
}

TRIM_API size_t trim_fusion_result_pareto_count(const trim_fusion_result *r)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, 0);
	return r ? r->np : 0;
}

TRIM_API int trim_fusion_result_pareto(const trim_fusion_result *r, size_t k, size_t *index)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r || !index)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_pareto: NULL argument");
	if (k >= r->np)
		return trim__error(TRIM_EINVAL, "no Pareto plan %zu (the set has %zu)", k, r->np);
	*index = r->pareto[k];
	return 0;
}

/* A kept plan index, or an error saying why there is none. */
static int plan_index(int64_t v, const char *what, size_t *index)
{
	if (!index)
		return trim__error(TRIM_EINVAL, "trim_fusion_result: NULL index");
	if (v < 0)
		return trim__error(TRIM_ENOTFOUND, "no %s plan was kept", what);
	*index = (size_t)v;
	return 0;
}

TRIM_API int trim_fusion_result_best(const trim_fusion_result *r, size_t *index)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_best: NULL result");
	return plan_index(r->best, "best", index);
}

TRIM_API int trim_fusion_result_layer_by_layer(const trim_fusion_result *r, size_t *index)
{
	TRIM__HANDLE_CHECK(r, FUSION_RESULT, TRIM_EINVAL);
	if (!r)
		return trim__error(TRIM_EINVAL, "trim_fusion_result_layer_by_layer: NULL result");
	return plan_index(r->lbl, "layer-by-layer", index);
}
