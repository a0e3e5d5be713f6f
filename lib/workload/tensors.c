/*
 * The task analyst's tensors: derived fields, index expressions and names,
 * and the exact count of the MACs that meet a predictable zero along a
 * padded or zero-inserted (upsampled) axis. docs/model.md, "Workloads".
 */
#include <stdint.h>
#include <stdio.h>

#include "workload_int.h"
#include "workload_build_int.h"

/* ---- tensors ------------------------------------------------------------ */

void trim__tensor_finish(trim__tensor *t)
{
	t->elems = t->present ? 1 : 0;
	t->relevant = 0;
	if (!t->present)
		return;
	for (int k = 0; k < t->ndims; k++) {
		/* saturates: the task analyst reports an overflow before it matters */
		if (__builtin_mul_overflow(t->elems, t->extent[k], &t->elems))
			t->elems = INT64_MAX;
		for (int j = 0; j < t->idx[k].nterms; j++)
			if (t->idx[k].coef[j] != 0)
				t->relevant |= 1u << t->idx[k].dim[j];
	}
}

/* Append index expression `d` (coef 1), or `a*d1 + b*d2`. */
void trim__wl_ix1(trim__tensor *t, int d, int64_t extent)
{
	trim__iexpr *e = &t->idx[t->ndims];
	e->nterms = 1;
	e->dim[0] = d;
	e->coef[0] = 1;
	t->extent[t->ndims++] = extent;
}

void trim__wl_ix2(trim__tensor *t, int d1, int64_t c1, int d2, int64_t c2, int64_t extent)
{
	trim__iexpr *e = &t->idx[t->ndims];
	e->nterms = 2;
	e->dim[0] = d1;
	e->coef[0] = c1;
	e->dim[1] = d2;
	e->coef[1] = c2;
	t->extent[t->ndims++] = extent;
}

void trim__wl_tname(trim__tensor *t, const char *name)
{
	snprintf(t->name, sizeof t->name, "%s", name);
	t->present = 1;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Integers x in [a, b] with x = m (mod step), step >= 1. */
static int64_t count_congruent(int64_t a, int64_t b, int64_t m, int64_t step)
{
	if (a > b)
		return 0;
	int64_t k0 = -floor_div(m - a, step), k1 = floor_div(b - m, step);
	return k1 >= k0 ? k1 - k0 + 1 : 0;
}

/* Number of real positions p in [0, extent) of a zero axis (closed form). */
int64_t trim__wl_axis_real(const trim__zaxis *z, int64_t extent)
{
	int64_t a = z->lo > 0 ? z->lo : 0, b = z->hi < extent - 1 ? z->hi : extent - 1;
	return count_congruent(a, b, z->lo, z->step);
}

/* Number of (e, r) pairs with p = ce*e + cr*r a real position: for each r, the
 * e in closed form (ce = 1: BW's zero-inserted dY; step 1: padding), so a
 * window of 2^16 rows over 2^31 outputs costs 2^16 steps, not 2^47. */
static int64_t axis_valid_pairs(const trim__zaxis *z, int64_t E, int64_t ce, int64_t R, int64_t cr)
{
	int64_t n = 0;
	for (int64_t r = 0; r < R; r++) {
		int64_t q = cr * r;
		if (ce == 1) {
			int64_t a = z->lo - q > 0 ? z->lo - q : 0;
			int64_t b = z->hi - q < E - 1 ? z->hi - q : E - 1;
			n += count_congruent(a, b, z->lo - q, z->step);
		} else if (z->step == 1 && ce > 1) {
			int64_t a = -floor_div(q - z->lo, ce), b = floor_div(z->hi - q, ce);
			if (a < 0)
				a = 0;
			if (b > E - 1)
				b = E - 1;
			n += b >= a ? b - a + 1 : 0;
		} else {
			for (int64_t e = 0; e < E; e++) {
				int64_t p = ce * e + q;
				if (p >= z->lo && p <= z->hi && (p - z->lo) % z->step == 0)
					n++;
			}
		}
	}
	return n;
}

int64_t trim__intra_zero_macs(const trim__intra *w)
{
	const trim__tensor *t = &w->t[0];
	if (!t->present || !t->has_zeros)
		return 0;
	int64_t nonzero = w->macs;
	for (int a = 0; a < 2; a++) {
		const trim__iexpr *ex = &t->idx[t->ndims - 2 + a];
		int64_t E = w->bound[ex->dim[0]], R = w->bound[ex->dim[1]];
		nonzero = nonzero / (E * R) *
		          axis_valid_pairs(&t->zaxis[a], E, ex->coef[0], R, ex->coef[1]);
	}
	return w->macs - nonzero;
}
