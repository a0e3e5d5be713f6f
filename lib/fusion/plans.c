/*
 * A fusion plan: one partition of the chain into groups (a cut mask or the
 * groups by name), evaluated, and its accessors.
 */
#include <stdlib.h>
#include <string.h>

#include "fusion_int.h"

/* ---- plans ------------------------------------------------------------------ */

TRIM_API int trim_fusion_evaluate_cuts(trim_fusion_plan **out, const trim_fusion *f,
                                       uint64_t cuts)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!out || !f)
		return trim__error(TRIM_EINVAL, "trim_fusion_evaluate_cuts: NULL argument");
	*out = NULL;
	if (f->nl < 64 && (cuts >> (f->nl - 1)) != 0)
		return trim__error(TRIM_EINVAL, "cut mask 0x%llx has bits at or above %d, the number "
		                   "of layer boundaries of the chain %s..%s", (unsigned long long)cuts,
		                   f->nl - 1, f->ly[0].name, f->ly[f->nl - 1].name);
	trim_fusion_plan *p = trim__calloc(1, sizeof *p);
	if (!p)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(p, FUSION_PLAN);
	p->f = *f;
	p->cuts = cuts;
	int a = 0;
	for (int i = 0; i < f->nl; i++) {
		if (i == f->nl - 1 || (cuts >> i & 1)) {
			int g = p->ng++;
			p->gfirst[g] = a;
			p->glast[g] = i;
			trim__fusion_eval_group(f, a, i, p->gm[g], p->t);
			if (trim__fusion_over_budget(f, p->gm[g])) {
				int rc = trim__error(TRIM_ENOFIT, "group %d (%s..%s) needs %.17g DSP slices, "
				                     "over the budget of %.17g", g + 1, f->ly[a].name,
				                     f->ly[i].name, p->gm[g][TRIM_FUSION_DSP],
				                     f->prm[TRIM_FUSION_BUDGET_DSP]);
				free(p);
				return rc;
			}
			trim__fusion_combine(p->m, p->gm[g]);
			a = i + 1;
		}
	}
	*out = p;
	return 0;
}

/* Copy the next token of `s` up to one of `stop` (trimmed) into tok. */
static const char *next_tok(const char *s, char *tok, size_t cap)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = 0;
	while (*s && *s != ',' && *s != '|') {
		if (n + 1 < cap)
			tok[n++] = *s;
		s++;
	}
	while (n > 0 && (tok[n - 1] == ' ' || tok[n - 1] == '\t'))
		n--;
	tok[n] = '\0';
	return s;
}

TRIM_API int trim_fusion_evaluate(trim_fusion_plan **out, const trim_fusion *f,
                                  const char *groups)
{
	TRIM__HANDLE_CHECK(f, FUSION, TRIM_EINVAL);
	if (!out || !f || !groups)
		return trim__error(TRIM_EINVAL, "trim_fusion_evaluate: NULL argument");
	*out = NULL;
	uint64_t cuts = 0;
	int next = 0, group = 1, in_group = 0;
	const char *s = groups;
	char tok[TRIM__NAME_LEN * 2];
	for (;;) {
		s = next_tok(s, tok, sizeof tok);
		if (!tok[0])
			return trim__error(TRIM_ESCHEMA, "plan '%s': group %d has an empty layer name",
			                   groups, group);
		int i = -1;
		for (int k = 0; k < f->nl; k++)
			if (!strcmp(f->ly[k].name, tok))
				i = k;
		if (i < 0)
			return trim__error(TRIM_ESCHEMA, "plan '%s': layer '%s' is not in the chain "
			                   "%s..%s", groups, tok, f->ly[0].name, f->ly[f->nl - 1].name);
		if (i < next)
			return trim__error(TRIM_ESCHEMA, "plan '%s': layer '%s' appears twice or out of "
			                   "chain order", groups, tok);
		if (i > next) {
			if (in_group)
				return trim__error(TRIM_ESCHEMA, "plan '%s': group %d: layer '%s' does not "
				                   "follow '%s': the chain has '%s' between them (a group "
				                   "holds consecutive layers)", groups, group, tok,
				                   f->ly[next - 1].name, f->ly[next].name);
			return trim__error(TRIM_ESCHEMA, "plan '%s': layer '%s' is missing (group %d "
			                   "starts at '%s')", groups, f->ly[next].name, group, tok);
		}
		next = i + 1;
		in_group = 1;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '|') {
			if (i < 64)
				cuts |= (uint64_t)1 << i;
			s++;
			group++;
			in_group = 0;
			continue;
		}
		break; /* end of text */
	}
	if (next != f->nl)
		return trim__error(TRIM_ESCHEMA, "plan '%s': layer '%s' and the %d after it are "
		                   "missing", groups, f->ly[next].name, f->nl - next - 1);
	return trim_fusion_evaluate_cuts(out, f, cuts);
}

TRIM_API void trim_fusion_plan_free(trim_fusion_plan *p)
{
	TRIM__HANDLE_CHECK_VOID(p, FUSION_PLAN);
	if (!p)
		return;
	TRIM__HANDLE_POISON(p, FUSION_PLAN);
	free(p);
}

TRIM_API uint64_t trim_fusion_plan_cuts(const trim_fusion_plan *p)
{
	return TRIM__HANDLE_OK(p, FUSION_PLAN) ? p->cuts : 0;
}

TRIM_API size_t trim_fusion_plan_group_count(const trim_fusion_plan *p)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, 0);
	return p ? (size_t)p->ng : 0;
}

TRIM_API int trim_fusion_plan_group(const trim_fusion_plan *p, size_t g, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out || n < 2)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_group: NULL argument or n < 2");
	if (g >= (size_t)p->ng)
		return trim__error(TRIM_EINVAL, "group %zu out of range (%d groups)", g, p->ng);
	out[0] = p->gfirst[g];
	out[1] = p->glast[g];
	return 0;
}

int trim__fusion_copy_metrics(const double *m, double *out, size_t n)
{
	for (size_t k = 0; k < n && k < TRIM_FUSION_NMETRICS; k++)
		out[k] = m[k];
	return 0;
}

TRIM_API int trim_fusion_plan_metrics(const trim_fusion_plan *p, double *out, size_t n)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_metrics: NULL argument");
	return trim__fusion_copy_metrics(p->m, out, n);
}

TRIM_API int trim_fusion_plan_group_metrics(const trim_fusion_plan *p, size_t g, double *out,
                                            size_t n)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_group_metrics: NULL argument");
	if (g >= (size_t)p->ng)
		return trim__error(TRIM_EINVAL, "group %zu out of range (%d groups)", g, p->ng);
	return trim__fusion_copy_metrics(p->gm[g], out, n);
}

TRIM_API int trim_fusion_plan_layer_times(const trim_fusion_plan *p, size_t i, double *out,
                                          size_t n)
{
	TRIM__HANDLE_CHECK(p, FUSION_PLAN, TRIM_EINVAL);
	if (!p || !out)
		return trim__error(TRIM_EINVAL, "trim_fusion_plan_layer_times: NULL argument");
	if (i >= (size_t)p->f.nl)
		return trim__error(TRIM_EINVAL, "chain layer %zu out of range (%d layers)", i, p->f.nl);
	for (size_t k = 0; k < n && k < TRIM_FUSION_T_N; k++)
		out[k] = p->t[i][k];
	return 0;
}
