/*
 * One group's sums at one step of a ragged mapping (ragged.c): from each
 * leaf's tile now and at the previous step (ranges of the group's dims), the
 * positions of the group's axis every leaf holds, and per spatial level S_j
 * how many of S_j's children hold each position (now, and without a fill).
 *
 * Two ways to count the same sums:
 *  - runs: a leaf's positions are a few runs (intervals) of the axis; the
 *    sums are a sweep over the runs' ends. The time depends on the leaves,
 *    not on the axis's length, so a dense layer's 25,088 channels cost as
 *    little as 3.
 *  - bits: a bitmap per leaf over the axis's span, position by position:
 *    the obvious form. It stays for the axes runs cannot express (two terms
 *    whose reduced coefficients are both above 1) and the tests compare the
 *    two (test/check_activity.c, ragged_runs_vs_bits).
 */
#include <stdlib.h>
#include <string.h>

#include "analyst_int.h"

void trim__rag_scratch_free(trim__rag_scratch *s)
{
	free(s->bits);
	free(s->cnt);
	free(s->run);
	free(s->off);
	free(s->ev);
	memset(s, 0, sizeof *s);
}

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (*cap >= n)
		return 0;
	size_t c = *cap ? *cap : 1024;
	while (c < n)
		c *= 2;
	void *q = realloc(*p, c * size);
	if (!q)
		return trim__error(TRIM_ENOMEM, "activity: out of memory");
	*p = q;
	*cap = c;
	return 0;
}

/* ---- bits ----------------------------------------------------------------- */

/* Positions c0*u + c1*v (u in [a0, e0), v in [a1, e1)) of range r into bits
 * (offset lo); none when empty. */
static void mark(const trim__rag_shape *g, const int64_t *r, uint8_t *bits, int64_t lo)
{
	if (r[0] >= r[1] || r[2] >= r[3])
		return;
	for (int64_t u = r[0]; u < r[1]; u++)
		for (int64_t v = r[2]; v < r[3]; v++)
			bits[g->coef[0] * u + g->coef[1] * v - lo] = 1;
}

int trim__rag_stat_bits(trim__rag_scratch *S, const trim__rag_shape *g, const int64_t *rng, trim__rag_stat *st)
{
	const int64_t nl = g->nleaf;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (int64_t i = 0; i < 2 * nl; i++) {
		const int64_t *r = rng + 4 * i;
		if (r[0] < r[1] && r[2] < r[3]) {
			int64_t mn = g->coef[0] * r[0] + g->coef[1] * r[2];
			int64_t mx = g->coef[0] * (r[1] - 1) + g->coef[1] * (r[3] - 1);
			lo = mn < lo ? mn : lo;
			hi = mx > hi ? mx : hi;
		}
	}
	memset(st, 0, sizeof *st);
	if (lo > hi)
		return 0;
	const int64_t len = hi - lo + 1;
	int rc = grow((void **)&S->bits, &S->bcap, (size_t)(2 * nl * len), 1);
	if (!rc)
		rc = grow((void **)&S->cnt, &S->ccap, (size_t)(4 * len), sizeof *S->cnt);
	if (rc)
		return rc;
	uint8_t *bits = S->bits;
	memset(bits, 0, (size_t)(2 * nl * len));
	for (int64_t i = 0; i < nl; i++) {
		uint8_t *cb = bits + 2 * i * len, *pb = cb + len;
		mark(g, rng + i * 8, cb, lo);
		mark(g, rng + i * 8 + 4, pb, lo);
		for (int64_t x = 0; x < len; x++) {
			st->cur += cb[x];
			st->inter += cb[x] & pb[x];
		}
	}
	int64_t *Pc = S->cnt, *Qc = Pc + len, *now = Pc + 2 * len, *bad = Pc + 3 * len;
	for (int j = 0; j < g->k; j++) {
		const int64_t rch = g->rch[j], rin = g->rin[j];
		for (int64_t i0 = 0; i0 < nl; i0 += rin) {
			memset(Pc, 0, (size_t)(2 * len) * sizeof *Pc);
			for (int64_t c0 = i0; c0 < i0 + rin; c0 += rch) {
				memset(now, 0, (size_t)(2 * len) * sizeof *now);
				for (int64_t i = c0; i < c0 + rch; i++) {
					const uint8_t *cb = bits + 2 * i * len, *pb = cb + len;
					for (int64_t x = 0; x < len; x++)
						if (cb[x]) {
							now[x] = 1;
							bad[x] |= !pb[x];
						}
				}
				for (int64_t x = 0; x < len; x++) {
					Pc[x] += now[x];
					Qc[x] += now[x] && !bad[x];
				}
			}
			for (int64_t x = 0; x < len; x++) {
				const int64_t p = Pc[x], qq = Qc[x];
				st->A[j] += p > 0;
				st->O[j] += p == 1;
				st->E[j] += p > 0 && p == qq;
				st->O1[j] += p == 1 && qq == 1;
				st->G[j] += qq >= 1 && p == qq + 1;
			}
		}
	}
	return 0;
}

/* ---- runs ----------------------------------------------------------------- */

/* How a group's positions become runs: the positions c0*u + c1*v divided by
 * gcd(c0, c1) (a bijection, so every count is the same), then with one
 * term of reduced coefficient 1 (the inner one) each value of the other
 * (the outer one, stride s) gives one run. A term of coefficient 0 adds
 * nothing; no term left: the one position 0. */
typedef struct {
	int outer, inner; /* the terms' indices (-1: none) */
	int64_t s;        /* the outer term's reduced coefficient */
} runs_form;

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int form_of(const trim__rag_shape *g, runs_form *f)
{
	int64_t c0 = g->coef[0], c1 = g->coef[1];
	f->outer = f->inner = -1;
	f->s = 0;
	if (c0 > 0 && c1 > 0) {
		const int64_t d = gcd64(c0, c1);
		c0 /= d;
		c1 /= d;
		if (c1 == 1) {
			f->outer = 0, f->inner = 1, f->s = c0;
		} else if (c0 == 1) {
			f->outer = 1, f->inner = 0, f->s = c1;
		} else {
			return 0;
		}
	} else if (c0 > 0) {
		f->inner = 0;
	} else if (c1 > 0) {
		f->inner = 1;
	}
	return 1;
}

int trim__rag_runs_apply(const trim__rag_shape *g)
{
	runs_form f;
	return form_of(g, &f);
}

typedef struct {
	int64_t x;
	int dp, dq;
} event;

/* Append the runs of range r (sorted, disjoint) to S->run; their count. */
static int64_t range_runs(trim__rag_scratch *S, const runs_form *f, const int64_t *r, int *rc)
{
	if (r[0] >= r[1] || r[2] >= r[3])
		return 0;
	int64_t n = 1, a = 0, e = 1;
	if (f->inner >= 0)
		a = r[2 * f->inner], e = r[2 * f->inner + 1];
	int64_t oa = 0, oe = 1;
	if (f->outer >= 0) {
		oa = r[2 * f->outer], oe = r[2 * f->outer + 1];
		if (f->s <= e - a) { /* neighbouring runs touch or overlap: one run */
			e += f->s * (oe - 1);
			a += f->s * oa;
			oa = 0, oe = 1;
		} else {
			n = oe - oa;
		}
	}
	if ((*rc = grow((void **)&S->run, &S->rcap, S->nrun + (size_t)n, sizeof *S->run)))
		return 0;
	for (int64_t o = oa; o < oe; o++) {
		const int64_t b = f->outer >= 0 ? f->s * o : 0;
		S->run[S->nrun].a = a + b;
		S->run[S->nrun++].e = e + b;
	}
	return n;
}

static int run_cmp(const void *x, const void *y)
{
	const trim__rag_run *a = x, *b = y;
	return (a->a > b->a) - (a->a < b->a);
}

/* Sort and merge the runs [at, S->nrun) into disjoint ones in place;
 * S->nrun shrinks to the end of the merged list. */
static void merge_runs(trim__rag_scratch *S, size_t at)
{
	trim__rag_run *r = S->run + at;
	size_t n = S->nrun - at, w = 0;
	if (n > 1)
		qsort(r, n, sizeof *r, run_cmp);
	for (size_t i = 0; i < n; i++) {
		if (w && r[i].a <= r[w - 1].e) {
			if (r[i].e > r[w - 1].e)
				r[w - 1].e = r[i].e;
		} else {
			r[w++] = r[i];
		}
	}
	S->nrun = at + w;
}

/* x minus y (both sorted, disjoint) appended at S->nrun (runs given as
 * offsets into S->run: the array may move). */
static int subtract(trim__rag_scratch *S, size_t xa, size_t xn, size_t ya, size_t yn)
{
	int rc = grow((void **)&S->run, &S->rcap, S->nrun + xn + yn, sizeof *S->run);
	if (rc)
		return rc;
	size_t q = 0;
	for (size_t i = 0; i < xn; i++) {
		int64_t a = S->run[xa + i].a;
		const int64_t e = S->run[xa + i].e;
		while (q < yn && S->run[ya + q].e <= a)
			q++;
		for (size_t z = q; z < yn && S->run[ya + z].a < e && a < e; z++) {
			const trim__rag_run y = S->run[ya + z];
			if (y.a > a) {
				S->run[S->nrun].a = a;
				S->run[S->nrun++].e = y.a;
			}
			if (y.e > a)
				a = y.e;
		}
		if (a < e) {
			S->run[S->nrun].a = a;
			S->run[S->nrun++].e = e;
		}
	}
	return 0;
}

static int64_t runs_len(const trim__rag_run *r, size_t n)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += r[i].e - r[i].a;
	return s;
}

static int event_cmp(const void *x, const void *y)
{
	const event *a = x, *b = y;
	return (a->x > b->x) - (a->x < b->x);
}

static int add_events(trim__rag_scratch *S, size_t at, size_t n, int dp, int dq)
{
	int rc = grow((void **)&S->ev, &S->ecap, S->nev + 2 * n, sizeof(event));
	if (rc)
		return rc;
	event *ev = S->ev;
	for (size_t i = at; i < at + n; i++) {
		ev[S->nev++] = (event){S->run[i].a, dp, dq};
		ev[S->nev++] = (event){S->run[i].e, -dp, -dq};
	}
	return 0;
}

/* The sums of level j over one S_j instance's events (a sweep). */
static void sweep(trim__rag_scratch *S, int j, trim__rag_stat *st)
{
	event *ev = S->ev;
	if (S->nev > 1)
		qsort(ev, S->nev, sizeof *ev, event_cmp);
	int64_t p = 0, q = 0;
	for (size_t i = 0; i < S->nev;) {
		const int64_t x = ev[i].x;
		for (; i < S->nev && ev[i].x == x; i++) {
			p += ev[i].dp;
			q += ev[i].dq;
		}
		if (i == S->nev)
			break;
		const int64_t L = ev[i].x - x;
		st->A[j] += L * (p > 0);
		st->O[j] += L * (p == 1);
		st->E[j] += L * (p > 0 && p == q);
		st->O1[j] += L * (p == 1 && q == 1);
		st->G[j] += L * (q >= 1 && p == q + 1);
	}
}

int trim__rag_stat_runs(trim__rag_scratch *S, const trim__rag_shape *g, const int64_t *rng, trim__rag_stat *st)
{
	runs_form f;
	if (!form_of(g, &f))
		return trim__error(TRIM_EINVAL, "activity: ragged sums by runs on an axis they cannot express");
	const int64_t nl = g->nleaf;
	memset(st, 0, sizeof *st);
	/* never NULL below, even when every range is empty */
	int rc = grow((void **)&S->off, &S->ocap, (size_t)(4 * nl + 1), sizeof *S->off);
	if (!rc)
		rc = grow((void **)&S->run, &S->rcap, 1, sizeof *S->run);
	if (!rc)
		rc = grow((void **)&S->ev, &S->ecap, 1, sizeof(event));
	if (rc)
		return rc;
	/* per leaf: its runs now (C_i) and those not held at the previous step
	 * (B_i = C_i minus P_i): off[4i], off[4i+1] and off[4i+2], off[4i+3] */
	S->nrun = 0;
	for (int64_t i = 0; i < nl; i++) {
		size_t *o = S->off + 4 * i;
		const size_t c = S->nrun;
		range_runs(S, &f, rng + 8 * i, &rc);
		if (rc)
			return rc;
		merge_runs(S, c);
		const size_t p = S->nrun;
		range_runs(S, &f, rng + 8 * i + 4, &rc);
		if (rc)
			return rc;
		merge_runs(S, p);
		const size_t b = S->nrun;
		if ((rc = subtract(S, c, p - c, p, b - p)))
			return rc;
		/* drop P_i: move B_i down over it */
		memmove(S->run + p, S->run + b, (S->nrun - b) * sizeof *S->run);
		S->nrun -= b - p;
		o[0] = c, o[1] = p - c, o[2] = p, o[3] = S->nrun - p;
		const int64_t cl = runs_len(S->run + c, p - c), bl = runs_len(S->run + p, S->nrun - p);
		st->cur += cl;
		st->inter += cl - bl;
	}
	const size_t base = S->nrun;
	for (int j = 0; j < g->k; j++) {
		const int64_t rch = g->rch[j], rin = g->rin[j];
		for (int64_t i0 = 0; i0 < nl; i0 += rin) {
			S->nev = 0;
			for (int64_t c0 = i0; c0 < i0 + rin; c0 += rch) {
				/* the child's runs now (the union of its C_i), those it was
				 * not filled by (of its B_i), and the rest (now minus bad) */
				size_t at[3];
				for (int w = 0; w < 2; w++) {
					at[w] = S->nrun;
					for (int64_t i = c0; i < c0 + rch; i++) {
						const size_t *o = S->off + 4 * i + 2 * w;
						if ((rc = grow((void **)&S->run, &S->rcap, S->nrun + o[1], sizeof *S->run)))
							return rc;
						memcpy(S->run + S->nrun, S->run + o[0], o[1] * sizeof *S->run);
						S->nrun += o[1];
					}
					merge_runs(S, at[w]);
				}
				at[2] = S->nrun;
				if ((rc = subtract(S, at[0], at[1] - at[0], at[1], at[2] - at[1])) ||
				    (rc = add_events(S, at[0], at[1] - at[0], 1, 0)) ||
				    (rc = add_events(S, at[2], S->nrun - at[2], 0, 1)))
					return rc;
				S->nrun = base;
			}
			sweep(S, j, st);
		}
	}
	return 0;
}
