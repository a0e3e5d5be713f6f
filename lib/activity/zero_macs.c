/*
 * The MACs with a predictable-zero operand (docs/model.md, "Predictable
 * zeros"): counted once per workload.
 */
#include <stdlib.h>
#include <string.h>

#include "analyst_int.h"

/* ---- zero MACs ------------------------------------------------------------- */

static int zreal(const trim__zaxis *z, int64_t p)
{
	return p >= z->lo && p <= z->hi && (p - z->lo) % z->step == 0;
}

/* The count: 0, or (without a message) 1 if the MAC count overflows, 2 if a
 * component needs *big > 2^30 enumerations. */
static int zero_macs_count(const trim__intra *w, int64_t *out, int64_t *big)
{
	/* Constraints "position of operand axis is real"; grouped into connected
	 * components over the dims they use, each counted by enumeration of its
	 * dims (exact; a component is typically {e, r}). */
	const trim__iexpr *ex[4];
	const trim__zaxis *zx[4];
	int nc = 0;
	for (int s = 0; s < 2; s++) {
		const trim__tensor *t = &w->t[s];
		if (!t->present || !t->has_zeros || t->ndims < 2)
			continue;
		for (int a = 0; a < 2; a++) {
			ex[nc] = &t->idx[t->ndims - 2 + a];
			zx[nc] = &t->zaxis[a];
			nc++;
		}
	}
	int64_t macs = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (trim__mul64(macs, w->bound[d], &macs))
			return 1;
	if (!nc) {
		*out = 0;
		return 0;
	}
	int comp[4], ncomp = 0;
	unsigned cdims[4];
	for (int i = 0; i < nc; i++)
		comp[i] = -1;
	for (int i = 0; i < nc; i++) {
		if (comp[i] >= 0)
			continue;
		comp[i] = ncomp;
		unsigned dims = 0;
		for (int k = 0; k < ex[i]->nterms; k++)
			dims |= 1u << ex[i]->dim[k];
		int grew = 1;
		while (grew) {
			grew = 0;
			for (int j = 0; j < nc; j++) {
				if (comp[j] >= 0)
					continue;
				unsigned dj = 0;
				for (int k = 0; k < ex[j]->nterms; k++)
					dj |= 1u << ex[j]->dim[k];
				if (dj & dims) {
					comp[j] = ncomp;
					dims |= dj;
					grew = 1;
				}
			}
		}
		cdims[ncomp++] = dims;
	}
	unsigned all = 0;
	int64_t nonzero = 1;
	for (int c = 0; c < ncomp; c++) {
		int dl[TRIM_NDIMS], nd = 0;
		int64_t total = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (cdims[c] >> d & 1) {
				dl[nd++] = d;
				total *= w->bound[d];
			}
		all |= cdims[c];
		if (total > ((int64_t)1 << 30)) {
			*big = total;
			return 2;
		}
		int64_t idx[TRIM_NDIMS] = {0}, cnt = 0;
		for (int64_t it = 0; it < total; it++) {
			int64_t v = it;
			for (int k = nd - 1; k >= 0; k--) {
				idx[dl[k]] = v % w->bound[dl[k]];
				v /= w->bound[dl[k]];
			}
			int ok = 1;
			for (int i = 0; i < nc && ok; i++) {
				if (comp[i] != c)
					continue;
				int64_t p = 0;
				for (int k = 0; k < ex[i]->nterms; k++)
					p += ex[i]->coef[k] * idx[ex[i]->dim[k]];
				ok = zreal(zx[i], p);
			}
			cnt += ok;
		}
		nonzero *= cnt;
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!(all >> d & 1))
			nonzero *= w->bound[d];
	*out = macs - nonzero;
	return 0;
}

int trim__activity_zero_macs(const trim__intra *w, int64_t *out)
{
	if (w->act_zero_ok) {
		*out = w->act_zero_macs;
		return 0;
	}
	int64_t big = 0;
	int r = zero_macs_count(w, out, &big);
	if (r == 1)
		return trim__error(TRIM_ERANGE, "activity: MAC count overflows");
	if (r == 2)
		return trim__error(TRIM_ERANGE, "activity: zero-MAC count needs %lld enumerations", (long long)big);
	return 0;
}

void trim__activity_zero_macs_cache(trim__intra *w)
{
	int64_t z = 0, big = 0;
	w->act_zero_ok = 0;
	if (zero_macs_count(w, &z, &big) == 0) {
		w->act_zero_macs = z;
		w->act_zero_ok = 1;
	}
}
