/*
 * Dataflow constraints: resolution against an architecture into a plan
 * (which lib/search/constrain.c applies to a mapspace), the check
 * (lib/constraints/constraints_local.h has the map of these files).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraints_local.h"
#include "util/handle.h"
#include "util/util.h"

/* ---- resolution against an architecture -------------------------------------- */

/* Every target, presets spelled out first (against arch a), then the
 * written ones. */
int trim__constraints_expand(const trim_constraints *c, const struct trim_arch *a, ctarget **out, size_t *n)
{
	size_t cap = c->n + (size_t)c->npreset * (TRIM__MAX_LEVELS + 1);
	ctarget *t = trim__calloc(cap ? cap : 1, sizeof *t);
	if (!t)
		return TRIM_ENOMEM;
	size_t k = 0;
	int inner = -1;
	for (int l = 0; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE)
			inner = l;
	for (int i = 0; i < c->npreset; i++) {
		int p = c->preset[i];
		char src[SRC_LEN];
		if (c->preset_src[i][0])
			snprintf(src, sizeof src, "%s (preset %s)", c->preset_src[i], trim__constraints_presets[p].name);
		else
			snprintf(src, sizeof src, "preset %s", trim__constraints_presets[p].name);
		for (int l = 0; l < a->nlevels; l++) {
			int sp = a->lv[l].type == TRIM__LVL_SPATIAL;
			if (l != inner && !sp)
				continue;
			ctarget *x = &t[k++];
			memset(x, 0, sizeof *x);
			snprintf(x->level, sizeof x->level, "%s", a->lv[l].name);
			x->type = sp ? CT_SPATIAL : CT_TEMPORAL;
			for (int d = 0; d < TRIM_NDIMS; d++)
				x->fix[d] = -1;
			x->split = -1;
			x->keep[0] = x->keep[1] = x->keep[2] = -1;
			x->has_only = 1;
			x->only = sp ? trim__constraints_presets[p].spatial : trim__constraints_presets[p].inner;
			if (!sp)
				for (const char *q = trim__constraints_presets[p].perm; *q; q++)
					x->perm[x->nperm++] = trim__constraints_dim_of(*q);
			snprintf(x->src, sizeof x->src, "%s", src);
			snprintf(x->tsrc, sizeof x->tsrc, "%s", src);
		}
	}
	if (c->n)
		memcpy(t + k, c->t, c->n * sizeof *c->t);
	*out = t;
	*n = k + c->n;
	return 0;
}

static void fmt_bound(char *buf, size_t n, int d, int64_t v)
{
	if (v == 0)
		snprintf(buf, n, "%c=0 (the whole bound)", trim__constraints_dim_letters[d]);
	else
		snprintf(buf, n, "%c=%lld", trim__constraints_dim_letters[d], (long long)v);
}

int trim__constraints_resolve(const trim_constraints *c, const struct trim_arch *a, trim__constraints_plan *p)
{
	memset(p, 0, sizeof *p);
	memset(p->fix, 0xff, sizeof p->fix); /* -1 */
	memset(p->fsrc, 0xff, sizeof p->fsrc);
	memset(p->msrc, 0xff, sizeof p->msrc);
	memset(p->keep, 0xff, sizeof p->keep);
	memset(p->ksrc, 0xff, sizeof p->ksrc);
	memset(p->psrc, 0xff, sizeof p->psrc);
	memset(p->asrc, 0xff, sizeof p->asrc);
	int rc = trim__constraints_expand(c, a, &p->t, &p->nt);
	if (rc)
		return rc;
	for (size_t i = 0; i < p->nt; i++) {
		const ctarget *t = &p->t[i];
		int l = -1;
		for (int k = 0; k < a->nlevels; k++)
			if (!strcmp(a->lv[k].name, t->level))
				l = k;
		if (l < 0) {
			char list[512] = "", hint[96];
			size_t o = 0;
			trim__nearest near;
			trim__nearest_init(&near, t->level);
			for (int k = 0; k < a->nlevels; k++) {
				trim__nearest_add(&near, a->lv[k].name);
				if (o < sizeof list)
					o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", k ? ", " : "", a->lv[k].name);
			}
			return trim__error(TRIM_ENOTFOUND, "%s: unknown level '%s' (%s has %s)%s", t->tsrc, t->level, a->name,
			                   list, trim__suggestion(hint, sizeof hint, &near));
		}
		int ty = a->lv[l].type;
		if (t->type == CT_SPATIAL && ty == TRIM__LVL_STORAGE) {
			/* Timeloop: a spatial target names the storage level above the fan-out */
			int L = -1;
			for (int k = l + 1; k < a->nlevels && L < 0; k++) {
				if (a->lv[k].type == TRIM__LVL_SPATIAL)
					L = k;
				else if (a->lv[k].type == TRIM__LVL_STORAGE)
					break;
			}
			if (L < 0)
				return trim__error(TRIM_ESCHEMA, "%s: no spatial level directly below %s for a spatial target",
				                   t->tsrc, t->level);
			l = L;
			ty = TRIM__LVL_SPATIAL;
		}
		if ((t->type == CT_SPATIAL) != (ty == TRIM__LVL_SPATIAL) || ty == TRIM__LVL_COMPUTE)
			return trim__error(TRIM_ESCHEMA, "%s: %s is a %s level: no %s constraint", t->tsrc, t->level,
			                   ty == TRIM__LVL_STORAGE ? "storage" : ty == TRIM__LVL_SPATIAL ? "spatial" : "compute",
			                   trim__constraints_type_names[t->type]);
		if (t->type == CT_BYPASS) {
			for (int s = 0; s < 3; s++) {
				if (t->keep[s] < 0)
					continue;
				if (t->keep[s] == 0 && l == 0)
					return trim__error(TRIM_ESCHEMA, "%s: cannot bypass %s at %s: the outermost level holds every tensor",
					                   t->src, trim__constraints_slot_names[s], t->level);
				if (t->keep[s] == 1 && !a->lv[l].keep[s])
					return trim__error(TRIM_ESCHEMA, "%s: cannot keep %s at %s: the architecture does not let it hold %s",
					                   t->src, trim__constraints_slot_names[s], t->level, trim__constraints_slot_names[s]);
				if (p->keep[l][s] >= 0 && p->keep[l][s] != t->keep[s])
					return trim__error(TRIM_ESCHEMA, "%s: %s %s at %s contradicts %s", t->src,
					                   t->keep[s] ? "keeping" : "bypassing", trim__constraints_slot_names[s], t->level,
					                   p->t[p->ksrc[l][s]].src);
				p->keep[l][s] = t->keep[s];
				p->ksrc[l][s] = (int)i;
			}
			continue;
		}
		for (int d = 0; d < TRIM_NDIMS; d++) {
			int64_t v = t->fix[d];
			if (v < 0 && t->has_only && !(t->only >> d & 1))
				v = 1;
			if (v >= 0) {
				if (p->fix[l][d] >= 0 && p->fix[l][d] != v) {
					char x[64], y[64];
					fmt_bound(x, sizeof x, d, v);
					fmt_bound(y, sizeof y, d, p->fix[l][d]);
					return trim__error(TRIM_ESCHEMA, "%s: %s at %s contradicts %s from %s", t->src, x, a->lv[l].name,
					                   y, p->t[p->fsrc[l][d]].src);
				}
				p->fix[l][d] = v;
				p->fsrc[l][d] = (int)i;
			}
			if (t->max[d] > 0 && (p->max[l][d] == 0 || t->max[d] < p->max[l][d])) {
				p->max[l][d] = t->max[d];
				p->msrc[l][d] = (int)i;
			}
		}
		if (t->type == CT_TEMPORAL && t->nperm > 0) {
			if (p->nperm[l] > 0 &&
			    (p->nperm[l] != t->nperm || memcmp(p->perm[l], t->perm, (size_t)t->nperm * sizeof *t->perm)))
				return trim__error(TRIM_ESCHEMA, "%s: a second, different permutation for %s (the first: %s)", t->src,
				                   a->lv[l].name, p->t[p->psrc[l]].src);
			p->nperm[l] = t->nperm;
			memcpy(p->perm[l], t->perm, sizeof t->perm);
			p->psrc[l] = (int)i;
		}
		if (t->type == CT_SPATIAL && t->split >= 0)
			for (int k = 0; k < t->nperm; k++) {
				int d = t->perm[k];
				uint8_t ax = k < t->split ? 1 : 2;
				if (p->axis[l][d] && p->axis[l][d] != ax)
					return trim__error(TRIM_ESCHEMA, "%s: %c along %s at %s contradicts %s", t->src, trim__constraints_dim_letters[d],
					                   ax == 1 ? "X" : "Y", a->lv[l].name, p->t[p->asrc[l][d]].src);
				p->axis[l][d] = ax;
				p->asrc[l][d] = (int)i;
			}
	}
	return 0;
}

int trim_constraints_check(const trim_constraints *c, const trim_arch *arch)
{
	TRIM__HANDLE_CHECK(c, CONSTRAINTS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	if (!c || !arch)
		return trim__error(TRIM_EINVAL, "trim_constraints_check: NULL argument");
	trim__constraints_plan *p = malloc(sizeof *p);
	if (!p)
		return trim__error(TRIM_ENOMEM, "out of memory");
	int rc = trim__constraints_resolve(c, arch, p);
	trim__constraints_plan_free(p);
	free(p);
	return rc;
}

void trim__constraints_plan_free(trim__constraints_plan *p)
{
	free(p->t);
	p->t = NULL;
}

const char *trim__constraints_plan_src(const trim__constraints_plan *p, int target)
{
	return p->t[target].src;
}
