/*
 * The MACs with a predictable-zero operand (docs/model.md, "Predictable
 * zeros"), exactly, as the activity analyst charges them: counted once per
 * workload when it is built, and cached in it.
 */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "workload_int.h"

/* ---- zero MACs ------------------------------------------------------------- */

static int zreal(const trim__zaxis *z, int64_t p)
{
	return p >= z->lo && p <= z->hi && (p - z->lo) % z->step == 0;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

/* x with a * x == 1 (mod m), for gcd(a, m) == 1 and m >= 1. */
static int64_t mod_inverse(int64_t a, int64_t m)
{
	int64_t r0 = m, r1 = ((a % m) + m) % m, t0 = 0, t1 = 1;
	while (r1) {
		int64_t q = r0 / r1, r = r0 - q * r1, t = t0 - q * t1;
		r0 = r1, r1 = r, t0 = t1, t1 = t;
	}
	return ((t0 % m) + m) % m;
}

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t r = a % b;
		a = b, b = r;
	}
	return a;
}

/* How many v in [0, n) put p0 + c * v on a real position of z: the positions
 * are an arithmetic progression, so the answer is an interval of v cut by one
 * congruence, counted without enumerating v. */
static int64_t real_count(const trim__zaxis *z, int64_t p0, int64_t c, int64_t n)
{
	if (c == 0)
		return zreal(z, p0) ? n : 0;
	int64_t vlo, vhi;
	if (c > 0) {
		vlo = ceil_div(z->lo - p0, c);
		vhi = floor_div(z->hi - p0, c);
	} else {
		vlo = ceil_div(z->hi - p0, c);
		vhi = floor_div(z->lo - p0, c);
	}
	if (vlo < 0)
		vlo = 0;
	if (vhi > n - 1)
		vhi = n - 1;
	if (vlo > vhi)
		return 0;
	/* c * v == lo - p0 (mod step) */
	int64_t m = z->step, g = gcd64(c < 0 ? -c : c, m), rhs = ((z->lo - p0) % m + m) % m;
	if (rhs % g)
		return 0;
	m /= g;
	int64_t v0 = (int64_t)((__int128)((rhs / g) % m) * mod_inverse((c / g) % m, m) % m);
	/* v == v0 (mod m) in [vlo, vhi] */
	int64_t first = vlo + ((v0 - vlo) % m + m) % m;
	return first > vhi ? 0 : (vhi - first) / m + 1;
}

/* One component of the constraints: its dims dl[0..nd) and the constraints
 * i with comp[i] == c. */
typedef struct {
	const trim__iexpr *const *ex;
	const trim__zaxis *const *zx;
	const int *comp;
	int nc;
} zcons;

/* The component's real points counted by enumerating every dim (the slow,
 * obvious count; the tests compare the fast one against it). */
static int64_t count_enum(const trim__intra *w, const zcons *K, int c, const int *dl, int nd, int64_t total)
{
	int64_t idx[TRIM_NDIMS] = {0}, cnt = 0;
	for (int64_t it = 0; it < total; it++) {
		int64_t v = it;
		for (int k = nd - 1; k >= 0; k--) {
			idx[dl[k]] = v % w->bound[dl[k]];
			v /= w->bound[dl[k]];
		}
		int ok = 1;
		for (int i = 0; i < K->nc && ok; i++) {
			if (K->comp[i] != c)
				continue;
			int64_t p = 0;
			for (int k = 0; k < K->ex[i]->nterms; k++)
				p += K->ex[i]->coef[k] * idx[K->ex[i]->dim[k]];
			ok = zreal(K->zx[i], p);
		}
		cnt += ok;
	}
	return cnt;
}

static int64_t coef_of(const trim__iexpr *e, int d)
{
	int64_t c = 0;
	for (int k = 0; k < e->nterms; k++)
		if (e->dim[k] == d)
			c += e->coef[k];
	return c;
}

/* The fast count: one dim f that exactly one constraint i_f uses is counted
 * in closed form (real_count) for each point of the other dims; 0 if no dim
 * qualifies (then *outer is 0). *outer: the points enumerated. */
static int64_t count_fast(const trim__intra *w, const zcons *K, int c, const int *dl, int nd, int64_t *outer)
{
	int f = -1, i_f = -1;
	for (int k = 0; k < nd; k++) {
		int d = dl[k], users = 0, user = -1;
		for (int i = 0; i < K->nc; i++)
			if (K->comp[i] == c && coef_of(K->ex[i], d) != 0)
				users++, user = i;
		if (users == 1 && (f < 0 || w->bound[d] > w->bound[f]))
			f = d, i_f = user;
	}
	*outer = 0;
	if (f < 0)
		return 0;
	int ol[TRIM_NDIMS], no = 0;
	int64_t total = 1;
	for (int k = 0; k < nd; k++)
		if (dl[k] != f) {
			ol[no++] = dl[k];
			total *= w->bound[dl[k]];
		}
	*outer = total;
	if (total > ((int64_t)1 << 30))
		return 0;
	int64_t idx[TRIM_NDIMS] = {0}, cnt = 0, cf = coef_of(K->ex[i_f], f);
	for (int64_t it = 0; it < total; it++) {
		int64_t v = it;
		for (int k = no - 1; k >= 0; k--) {
			idx[ol[k]] = v % w->bound[ol[k]];
			v /= w->bound[ol[k]];
		}
		int ok = 1;
		int64_t p0 = 0;
		for (int i = 0; i < K->nc && ok; i++) {
			if (K->comp[i] != c)
				continue;
			int64_t p = 0;
			for (int k = 0; k < K->ex[i]->nterms; k++)
				if (K->ex[i]->dim[k] != f)
					p += K->ex[i]->coef[k] * idx[K->ex[i]->dim[k]];
			if (i == i_f)
				p0 = p;
			else
				ok = zreal(K->zx[i], p);
		}
		if (ok)
			cnt += real_count(K->zx[i_f], p0, cf, w->bound[f]);
	}
	return cnt;
}

/* The count: 0, or (without a message) 1 if the MAC count overflows, 2 if a
 * component needs *big > 2^30 enumerations. slow: every component by plain
 * enumeration. */
static int zero_macs_count(const trim__intra *w, int slow, int64_t *out, int64_t *big)
{
	/* Constraints "position of operand axis is real"; grouped into connected
	 * components over the dims they use (a component is typically {e, r}),
	 * each counted exactly: one dim in closed form, the others enumerated. */
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
	zcons K = {ex, zx, comp, nc};
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
		int64_t cnt = 0, outer = 0;
		if (!slow) {
			cnt = count_fast(w, &K, c, dl, nd, &outer);
			if (outer > ((int64_t)1 << 30)) {
				*big = outer;
				return 2;
			}
		}
		if (!outer) {
			if (total > ((int64_t)1 << 30)) {
				*big = total;
				return 2;
			}
			cnt = count_enum(w, &K, c, dl, nd, total);
		}
		nonzero *= cnt;
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!(all >> d & 1))
			nonzero *= w->bound[d];
	*out = macs - nonzero;
	return 0;
}

int trim__intra_act_zero_macs_slow(const trim__intra *w, int64_t *out)
{
	int64_t big = 0;
	return zero_macs_count(w, 1, out, &big) ? -1 : 0;
}

int trim__intra_act_zero_macs(const trim__intra *w, int64_t *out)
{
	if (w->act_zero_ok) {
		*out = w->act_zero_macs;
		return 0;
	}
	int64_t big = 0;
	int r = zero_macs_count(w, 0, out, &big);
	if (r == 1)
		return trim__error(TRIM_ERANGE, "activity: MAC count overflows");
	if (r == 2)
		return trim__error(TRIM_ERANGE, "activity: zero-MAC count needs %lld enumerations", (long long)big);
	return 0;
}

void trim__intra_act_zero_macs_cache(trim__intra *w)
{
	int64_t z = 0, big = 0;
	w->act_zero_ok = 0;
	if (zero_macs_count(w, 0, &z, &big) == 0) {
		w->act_zero_macs = z;
		w->act_zero_ok = 1;
	}
}
