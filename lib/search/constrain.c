/*
 * Dataflow constraints applied to one workload's mapspace (docs/mapping.md,
 * "Dataflow constraints"): the set's plan on this architecture
 * (trim__constraints_resolve, lib/constraints/apply.c) restricts the
 * mapspace through its own filters: pins and caps of the factor rows,
 * forced keep bits, per-level permutations, spatial axes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraints/constraints_int.h"
#include "search_int.h"

int trim__mapspace_constrain(const trim_constraints *c, trim__mapspace *s)
{
	if (!c)
		return 0;
	const struct trim_arch *a = s->a;
	trim__constraints_plan *p = malloc(sizeof *p);
	if (!p)
		return trim__error(TRIM_ENOMEM, "out of memory");
	int rc = trim__constraints_resolve(c, a, p);
	for (int l = 0; l < a->nlevels && !rc; l++) {
		for (int d = 0; d < TRIM_NDIMS && !rc; d++) {
			if (p->fix[l][d] >= 0) {
				int64_t b = s->w->bound[d], v = p->fix[l][d];
				v = v == 0 || v > b ? b : v; /* 0: the whole bound; beyond it: clamped, as Timeloop */
				if (s->pin[l][d] && s->pin[l][d] != v)
					rc = trim__error(TRIM_ENOFIT, "%s: %c = %lld at %s contradicts the custom factor %c = %lld",
					                 trim__constraints_plan_src(p, p->fsrc[l][d]), trim__constraints_dim_letters[d], (long long)v, a->lv[l].name,
					                 trim__constraints_dim_letters[d], (long long)s->pin[l][d]);
				s->pin[l][d] = v;
			}
			if (p->max[l][d] > 0 && (s->fmax[l][d] == 0 || p->max[l][d] < s->fmax[l][d]))
				s->fmax[l][d] = p->max[l][d];
		}
		if (p->nperm[l] > 0) {
			s->ncperm[l] = p->nperm[l];
			for (int k = 0; k < p->nperm[l]; k++)
				s->cperm[l][k] = (int8_t)p->perm[l][k];
		}
		memcpy(s->axis[l], p->axis[l], sizeof s->axis[l]);
	}
	for (int j = 0; j < s->nbyp && !rc; j++) {
		int k = p->keep[s->byp_level[j]][s->byp_slot[j]];
		uint64_t bit = (uint64_t)1 << (s->nbyp - 1 - j);
		if (k < 0)
			continue;
		s->byp_fixmask |= bit;
		if (k)
			s->byp_fixval |= bit;
		else
			s->byp_fixval &= ~bit;
	}
	for (int d = 0; d < TRIM_NDIMS && !rc; d++) {
		if (trim__mapspace_filter_rows(s, d) == 0)
			continue;
		/* name every constraint on d */
		char list[700] = "";
		size_t o = 0;
		for (int i = 0; i < s->nslots && o < sizeof list; i++) {
			int l = s->slot[i];
			if (s->pin[l][d])
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%c = %lld at %s%s%s%s", o ? ", " : "",
				                      trim__constraints_dim_letters[d], (long long)s->pin[l][d], a->lv[l].name,
				                      p->fsrc[l][d] >= 0 ? " (" : " (custom factor",
				                      p->fsrc[l][d] >= 0 ? trim__constraints_plan_src(p, p->fsrc[l][d]) : "", ")");
			if (s->fmax[l][d] && o < sizeof list)
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%c <= %lld at %s (%s)", o ? ", " : "",
				                      trim__constraints_dim_letters[d], (long long)s->fmax[l][d], a->lv[l].name,
				                      p->msrc[l][d] >= 0 ? trim__constraints_plan_src(p, p->msrc[l][d]) : "");
		}
		/* a fixed factor that does not divide the bound: only an imperfect
		 * factorisation can have it */
		const char *hint = "";
		for (int i = 0; i < s->nslots && !s->imperfect; i++) {
			int64_t p = s->pin[s->slot[i]][d];
			if (p > 1 && s->w->bound[d] % p)
				hint = "; a factor that does not divide the bound needs an imperfect factorisation "
				       "(--imperfect, TRIM_SEARCH_IMPERFECT), with a ragged last pass";
		}
		rc = trim__error(TRIM_ENOFIT, "constraints: no factorisation of %c = %lld obeys %s%s",
		                 trim__constraints_dim_letters[d], (long long)s->w->bound[d], list, hint);
	}
	trim__constraints_plan_free(p);
	free(p);
	return rc;
}
