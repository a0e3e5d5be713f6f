/*
 * The mapspace of one intra-layer workload: the ordered factorisations of
 * every dim's bound over the levels with loops (and, as an option, the
 * imperfect ones that spread a dim over more PEs with a ragged last pass), the keep bits and ordered
 * levels of the index (lib/search/mapspace_int.h), custom factors (pins), the
 * dataflow constraints' row filter, and the utilisation of a mapping.
 */
#include "search_int.h"

/* The ordered factorisations of b over slots [depth, k), appended to out
 * (if not NULL) after its n rows; returns the new count. Each factor runs
 * over dv[0..nd), ascending, which holds every divisor of b (NULL: every
 * value 1..b, tried one at a time). */
static int64_t factorisations_of(int64_t b, int k, int64_t *row, int depth, int64_t *out, int64_t n,
                                 const int64_t *dv, int nd)
{
	if (depth == k - 1) {
		if (out) {
			row[depth] = b;
			memcpy(out + n * k, row, (size_t)k * sizeof *row);
		}
		return n + 1;
	}
	for (int64_t i = 0; dv ? i < nd && dv[i] <= b : i < b; i++) {
		const int64_t d = dv ? dv[i] : i + 1;
		if (b % d == 0) {
			row[depth] = d;
			n = factorisations_of(b / d, k, row, depth + 1, out, n, dv, nd);
		}
	}
	return n;
}

/* Ordered factorisations of b over k slots, lexicographic (slot 0 first,
 * ascending). Writes rows into out (if not NULL); returns the count. The
 * factors run over b's divisors, found once by trial division up to its
 * square root (a divisor of b's factor's cofactor divides b): trying every
 * value 1..b at every slot took GPT-2's 65,536 tokens (batch 64) on
 * simba-like's nine slots a second per search. */
static int64_t list_factorisations(int64_t b, int k, int64_t *row, int64_t *out)
{
	enum { MAXDIV = 4096 }; /* beyond (no b below 2^32 has more than 1,344 divisors): every value */
	int64_t dv[MAXDIV];
	const int ndv = trim__divisors(b, dv, MAXDIV);
	if (ndv < 0)
		return factorisations_of(b, k, row, 0, out, 0, NULL, 0);
	return factorisations_of(b, k, row, 0, out, 0, dv, ndv);
}

/* ---- imperfect rows (trim__mapspace_set_imperfect; docs/model.md,
 * "Imperfect factorisations") ---------------------------------------------- */

/* Append to out (n rows so far, room for cap) the rows: every ordered
 * factorisation of q over slots [0, j), s at slot j, every ordered
 * factorisation of t over slots (j, k). Returns the new count (counted
 * only beyond cap). */
static int64_t ragged_rows(int64_t q, int64_t sp, int64_t t, int j, int k, int64_t *out, int64_t n, int64_t cap)
{
	int64_t row[TRIM__MAX_LEVELS];
	int64_t no = j > 0 ? list_factorisations(q, j, row, NULL) : 1;
	int64_t ni = j < k - 1 ? list_factorisations(t, k - 1 - j, row, NULL) : 1;
	if (out && n + no * ni <= cap) {
		int64_t *outer = malloc((size_t)(no * (j > 0 ? j : 1)) * sizeof *outer);
		int64_t *inner = malloc((size_t)(ni * (k - 1 - j > 0 ? k - 1 - j : 1)) * sizeof *inner);
		if (outer && inner) {
			if (j > 0)
				list_factorisations(q, j, row, outer);
			if (j < k - 1)
				list_factorisations(t, k - 1 - j, row, inner);
			for (int64_t a = 0; a < no; a++)
				for (int64_t b = 0; b < ni; b++) {
					int64_t *r = out + (n + a * ni + b) * k;
					for (int i = 0; i < j; i++)
						r[i] = outer[a * j + i];
					r[j] = sp;
					for (int i = j + 1; i < k; i++)
						r[i] = inner[b * (k - 1 - j) + (i - j - 1)];
				}
		}
		free(outer);
		free(inner);
		if (!outer || !inner)
			return -1;
	}
	return n + no * ni;
}

/* The imperfect rows of dim d (bound D): at one spatial slot j, a factor sp
 * that does not divide D and occupies more PEs along an axis (X, Y or the
 * whole array) than the largest divisor of D that fits it; below j a
 * perfect factorisation of a divisor t of D (sp * t < D); above j a perfect
 * factorisation of ceil(D / (sp * t)), so that the outermost loop on d is
 * never empty. Written into out (NULL: counted); -1: out of memory. */
static int64_t imperfect_rows(const trim__mapspace *s, int64_t D, int64_t *out, int64_t cap)
{
	int64_t n = 0;
	const int k = s->nslots;
	for (int j = 0; j < k; j++) {
		const trim__level *L = &s->a->lv[s->slot[j]];
		if (L->type != TRIM__LVL_SPATIAL)
			continue;
		int64_t fx = L->fanout_x > 0 ? L->fanout_x : 1, fy = L->fanout_y > 0 ? L->fanout_y : 1;
		int64_t axes[3] = {fx, fy, fx * fy}, lo = INT64_MAX, hi = 0;
		for (int x = 0; x < 3; x++) {
			int64_t A = axes[x] < D - 1 ? axes[x] : D - 1, best = 1;
			for (int64_t v = 1; v <= axes[x] && v <= D; v++)
				if (D % v == 0)
					best = v;
			for (int64_t sp = best + 1; sp <= A; sp++) { /* (best, A]: sp in [lo, hi] marks them */
				lo = sp < lo ? sp : lo;
				hi = sp > hi ? sp : hi;
			}
		}
		for (int64_t sp = lo; sp <= hi; sp++) {
			int cand = 0; /* in one of the three ranges */
			for (int x = 0; x < 3 && !cand; x++) {
				int64_t A = axes[x] < D - 1 ? axes[x] : D - 1, best = 1;
				for (int64_t v = 1; v <= axes[x] && v <= D; v++)
					if (D % v == 0)
						best = v;
				cand = sp > best && sp <= A;
			}
			if (!cand || D % sp == 0)
				continue;
			for (int64_t t = 1; sp * t < D; t++) {
				if (D % t || (j == k - 1 && t > 1))
					continue;
				int64_t q = (D + sp * t - 1) / (sp * t);
				if (q * sp * t == D || (j == 0 && q > 1))
					continue;
				n = ragged_rows(q, sp, t, j, k, out, n, cap);
				if (n < 0)
					return -1;
			}
		}
	}
	return n;
}

/* The rows of dim d: the perfect factorisations (in lexicographic order),
 * then, if s->imperfect, the imperfect ones. */
static int build_rows(trim__mapspace *s, int d)
{
	int64_t row[TRIM__MAX_LEVELS], D = s->w->bound[d];
	free(s->fact[d]);
	free(s->rows[d]);
	s->fact[d] = NULL;
	s->rows[d] = NULL;
	int64_t np = list_factorisations(D, s->nslots, row, NULL);
	int64_t ni = s->imperfect && D > 2 ? imperfect_rows(s, D, NULL, 0) : 0;
	s->nf[d] = np + ni;
	s->nperfect[d] = np;
	s->fact[d] = malloc((size_t)(s->nf[d] * s->nslots) * sizeof(int64_t));
	s->rows[d] = malloc((size_t)s->nf[d] * sizeof(int64_t));
	if (!s->fact[d] || !s->rows[d])
		return trim__error(TRIM_ENOMEM, "mapspace: out of memory");
	list_factorisations(D, s->nslots, row, s->fact[d]);
	if (ni > 0 && imperfect_rows(s, D, s->fact[d] + np * s->nslots, ni) != ni)
		return trim__error(TRIM_ENOMEM, "mapspace: out of memory");
	for (int64_t r = 0; r < s->nf[d]; r++)
		s->rows[d][r] = r;
	s->nrows[d] = s->nf[d];
	return 0;
}

void trim__mapspace_free(trim__mapspace *s)
{
	if (!s)
		return;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		free(s->fact[d]);
		free(s->rows[d]);
		s->fact[d] = NULL;
		s->rows[d] = NULL;
	}
}

static int space_size(trim__mapspace *s);

/* 1 if the step on which a loop on d0 wraps may leave a window one word
 * wide on the axis c0 d0 + c1 d1 in place (docs/model.md, "Bounds",
 * *Stationarity*). The loops above a level step their indices in mixed
 * radix: at that step d0's index moves by -(B0 - 1) (B0 > 1 the product of
 * the bounds of its wrapped loops, a divisor of its bound) or, carried into
 * a higher loop on d0 (a bound with two factors), by +1; d1's by 0, by the
 * stride of its lowest loop that moved (a divisor s1 < its bound), or by
 * -(B1 - 1) s1 (B1 s1 a divisor of its bound). The word stays only if
 * c0 x0 + c1 x1 = 0 for such moves, which needs |c0 x0| = |c1 x1|: 1 when
 * some pair of magnitudes is equal (whatever the signs). */
/* s->share_cap: for each spatial level l and tensor t, the largest product
 * of l's factors over the dims that are not private to t (a dim is private
 * when an axis of t has it as its only term, or is one of the two dims of
 * a one-to-one axis, trim__axis_one_to_one: instances that differ in it
 * need disjoint elements), over every combination of the factors the rows
 * give those dims at l, at most l's fan-out: the most instances of l under
 * one parent instance that can need the same element at one step. */
enum { SHARE_CAP_MAX = 1 << 20 };
static int share_caps(trim__mapspace *s)
{
	const struct trim_arch *a = s->a;
	const trim__intra *w = s->w;
	for (int i = 0; i < s->nslots; i++) {
		const int l = s->slot[i];
		const trim__level *L = &a->lv[l];
		if (L->type != TRIM__LVL_SPATIAL)
			continue;
		const int64_t fan = (L->fanout_x > 0 ? L->fanout_x : 1) * (L->fanout_y > 0 ? L->fanout_y : 1);
		for (int t = 0; t < 3; t++) {
			s->share_cap[t][l] = fan;
			unsigned priv = 0;
			for (int x = 0; x < w->t[t].ndims; x++) {
				const trim__iexpr *e = &w->t[t].idx[x];
				int k = 0, d0 = -1;
				for (int j = 0; j < e->nterms; j++)
					if (e->coef[j] != 0)
						k++, d0 = e->dim[j];
				if (k == 1)
					priv |= 1u << d0;
				if (trim__axis_one_to_one(w, e)) /* both dims tell elements apart */
					priv |= 1u << e->dim[0] | 1u << e->dim[1];
			}
			s->share_priv[t] = priv;
			if (!w->t[t].present || fan > SHARE_CAP_MAX)
				continue;
			/* the products <= fan that the non-private dims' factors reach */
			unsigned char *on = calloc((size_t)fan + 1, 1), *nx = calloc((size_t)fan + 1, 1);
			if (!on || !nx) {
				free(on);
				free(nx);
				return trim__error(TRIM_ENOMEM, "mapspace: out of memory");
			}
			on[1] = 1;
			for (int d = 0; d < TRIM_NDIMS; d++) {
				if (priv >> d & 1 || w->bound[d] == 1)
					continue;
				/* the values <= fan the rows give d at l, each once */
				memset(nx, 0, (size_t)fan + 1);
				unsigned char *val = nx;
				for (int64_t r = 0; r < s->nf[d]; r++) {
					const int64_t v = s->fact[d][r * s->nslots + i];
					if (v <= fan)
						val[v] = 1;
				}
				for (int64_t p = fan; p >= 1; p--) { /* on[p v] from on[p], p descending */
					if (!on[p])
						continue;
					on[p] = val[1];
					for (int64_t v = 2; p * v <= fan; v++)
						if (val[v])
							on[p * v] = 1;
				}
			}
			int64_t best = 1;
			for (int64_t p = fan; p >= 1; p--)
				if (on[p]) {
					best = p;
					break;
				}
			s->share_cap[t][l] = best;
			free(on);
			free(nx);
		}
	}
	return 0;
}

static int64_t smallest_factor(int64_t n)
{
	for (int64_t p = 2; p * p <= n; p++)
		if (n % p == 0)
			return p;
	return n;
}

static int wrap_may_return(const trim__intra *w, int d0, int d1, int64_t c0, int64_t c1)
{
	const int64_t b0 = w->bound[d0], b1 = w->bound[d1];
	const int two_loops = smallest_factor(b0) < b0;
	for (int64_t B0 = 2; B0 <= b0; B0++) {
		/* x0 = -(B0 - 1), B0 dividing b0; or +1 (two loops on d0) */
		const int64_t m0 = b0 % B0 == 0 ? B0 - 1 : B0 == 2 && two_loops ? 1 : 0;
		if (!m0)
			continue;
		for (int64_t s1 = 1; s1 < b1; s1++) {
			if (b1 % s1)
				continue;
			/* x1 = +s1, or -(B1 - 1) s1 with B1 s1 dividing b1 */
			if (c0 * m0 == c1 * s1)
				return 1;
			for (int64_t B1 = 2; B1 * s1 <= b1; B1++)
				if (b1 % (B1 * s1) == 0 && c0 * m0 == c1 * (B1 - 1) * s1)
					return 1;
		}
	}
	return 0;
}

uint64_t trim__mapspace_memo_id(void)
{
	static uint64_t memo_ids; /* the last memo_id handed out */
	return __atomic_add_fetch(&memo_ids, 1, __ATOMIC_RELAXED);
}

int trim__mapspace_init(trim__mapspace *s, const trim__intra *w, const struct trim_arch *a)
{
	memset(s, 0, sizeof *s);
	s->w = w;
	s->a = a;
	s->memo_id = trim__mapspace_memo_id();
	for (int l = 0; l < a->nlevels; l++) {
		if (a->lv[l].type == TRIM__LVL_COMPUTE)
			continue;
		s->slot[s->nslots++] = l;
		if (a->lv[l].type == TRIM__LVL_STORAGE) {
			/* a level's order is part of the index only if some level
			 * below may hold a tensor (else every order is one class) */
			int below = 0;
			for (int k = l + 1; k < a->nlevels; k++)
				for (int t = 0; t < 3; t++)
					below |= a->lv[k].type == TRIM__LVL_STORAGE && a->lv[k].keep[t] && w->t[t].present;
			if (below)
				s->ord_level[s->nord++] = l;
			if (l > 0)
				for (int t = 0; t < 3; t++)
					if (a->lv[l].keep[t] && w->t[t].present) {
						s->byp_level[s->nbyp] = l;
						s->byp_slot[s->nbyp++] = t;
					}
		}
	}
	for (int t = 0; t < 3; t++) {
		unsigned any = 0;
		for (int i = 0; w->t[t].present && i < w->t[t].ndims; i++) {
			const trim__iexpr *e = &w->t[t].idx[i];
			unsigned moving = 0;
			int nmoving = 0;
			for (int j = 0; j < e->nterms; j++) {
				any |= 1u << e->dim[j];
				if (e->coef[j] != 0 && w->bound[e->dim[j]] > 1) {
					moving |= 1u << e->dim[j];
					nmoving++;
				}
			}
			if (e->nterms == 1)
				s->dsingle[t] |= 1u << e->dim[0];
			if (nmoving > 1)
				s->dslide[t] |= moving;
		}
		s->dwindow[t] = any & ~s->dsingle[t];
		for (int d = 0; d < TRIM_NDIMS; d++) {
			s->waxis[t][d] = s->wpartner[t][d] = -1;
			s->wcoef[t][d] = 0;
		}
		for (int i = w->t[t].present ? w->t[t].ndims - 1 : -1; i >= 0; i--) { /* the first axis last */
			const trim__iexpr *e = &w->t[t].idx[i];
			int dd[2], k = 0;
			int64_t cc[2];
			for (int j = 0; j < e->nterms && k <= 2; j++)
				if (e->coef[j] != 0) {
					if (k < 2) {
						dd[k] = e->dim[j];
						cc[k] = e->coef[j] < 0 ? -e->coef[j] : e->coef[j];
					}
					k++;
				}
			if (k != 2 || dd[0] == dd[1])
				continue;
			for (int q = 0; q < 2; q++) {
				s->pdim[t][s->npair[t]][q] = (int8_t)dd[q];
				s->pcoef[t][s->npair[t]][q] = cc[q];
			}
			s->npair[t]++;
			for (int q = 0; q < 2; q++) {
				s->waxis[t][dd[q]] = (int8_t)i;
				s->wpartner[t][dd[q]] = (int8_t)dd[1 - q];
				s->wcoef[t][dd[q]] = cc[q];
			}
		}
		s->wreturn[t] = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (s->wpartner[t][d] < 0 || wrap_may_return(w, d, s->wpartner[t][d], s->wcoef[t][d],
			                                             s->wcoef[t][s->wpartner[t][d]]))
				s->wreturn[t] |= 1u << d;
	}
	if (s->nslots == 0 || a->lv[0].type != TRIM__LVL_STORAGE)
		return trim__error(TRIM_EINVAL, "mapspace: the architecture has no outer storage level");
	{
		int n = 0;
		/* the spatial levels innermost first (docs/model.md, "Several
		 * spatial levels"), then the storage levels outermost first */
		for (int i = s->nslots - 1; i >= 0; i--)
			if (a->lv[s->slot[i]].type == TRIM__LVL_SPATIAL)
				s->tord[n++] = i;
		for (int i = 0; i < s->nslots; i++)
			if (a->lv[s->slot[i]].type != TRIM__LVL_SPATIAL)
				s->tord[n++] = i;
	}
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (w->bound[d] < 1)
			return trim__error(TRIM_EINVAL, "mapspace: bound of dim %d is %lld", d, (long long)w->bound[d]);
		int rc = build_rows(s, d);
		if (rc) {
			trim__mapspace_free(s);
			return rc;
		}
		if (w->bound[d] > 1)
			s->dims[s->n++] = d;
	}
	s->nperm = trim__factorial(s->n);
	int rc = share_caps(s);
	if (rc) {
		trim__mapspace_free(s);
		return rc;
	}
	return space_size(s);
}

/* nfact and size from nf, nbyp, nord; ERANGE (the space freed) at 2^128 or
 * more. nfact passes 2^64 in batch-64 training layers (UNet's down0.conv2 FW
 * on simba-like: about 2^65 factorisation combinations, 2^108 raw mappings),
 * so it is a trim__index too. */
static int space_size(trim__mapspace *s)
{
	s->nfact = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (__builtin_mul_overflow(s->nfact, (trim__index)s->nf[d], &s->nfact))
			goto big;
	s->size = s->nfact;
	if (s->nbyp >= 63 || __builtin_mul_overflow(s->size, (trim__index)1 << s->nbyp, &s->size))
		goto big;
	for (int k = 0; k < s->nord; k++)
		if (__builtin_mul_overflow(s->size, (trim__index)s->nperm, &s->size))
			goto big;
	return 0;
big:
	trim__mapspace_free(s);
	return trim__error(TRIM_ERANGE, "mapspace: 2^128 raw mappings or more, beyond the mapping index's 128 bits: "
	                                "fix some factors (--factor, or a constraints file) to shrink it");
}

int trim__mapspace_set_imperfect(trim__mapspace *s, int on)
{
	s->imperfect = on ? 1 : 0;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int rc = build_rows(s, d);
		if (rc)
			return rc;
		if (trim__mapspace_filter_rows(s, d))
			return trim__error(TRIM_ENOFIT, "mapspace: no factorisation of %c = %lld obeys the fixed factors",
			                   "NGMCEFRS"[d], (long long)s->w->bound[d]);
	}
	int rc = share_caps(s);
	if (rc)
		return rc;
	if (space_size(s))
		return TRIM_ERANGE;
	return 0;
}

int trim__mapspace_row_ragged(const trim__mapspace *s, int d, int64_t r)
{
	int64_t p = 1;
	for (int i = 0; i < s->nslots; i++)
		p *= s->fact[d][r * s->nslots + i];
	return p != s->w->bound[d];
}

int trim__mapspace_node_ragged(const trim__mapspace *s, int depth, const trim__mapping *m)
{
	/* the imperfect rows follow the perfect ones (build_rows) and rows[d]
	 * ascends (trim__mapspace_filter_rows): they are its tail */
	for (int d = 0; d < TRIM_NDIMS; d++)
		for (int64_t ri = s->nrows[d] - 1; ri >= 0; ri--) {
			const int64_t r = s->rows[d][ri];
			if (!trim__mapspace_row_ragged(s, d, r))
				break;
			int match = 1;
			for (int i = 0; i < depth && match; i++)
				match = s->fact[d][r * s->nslots + s->tord[i]] == m->f[s->slot[s->tord[i]]][d];
			if (match)
				return 1;
		}
	return 0;
}

int trim__mapspace_pin(trim__mapspace *s, int level, int dim, int64_t bound)
{
	if (dim < 0 || dim >= TRIM_NDIMS || bound < 0)
		return trim__error(TRIM_EINVAL, "mapspace: bad pin (dim %d, bound %lld)", dim, (long long)bound);
	int slot = -1;
	for (int i = 0; i < s->nslots; i++)
		if (s->slot[i] == level)
			slot = i;
	if (slot < 0)
		return trim__error(TRIM_EINVAL, "mapspace: level %d has no loops (storage or spatial levels only)", level);
	int64_t old = s->pin[level][dim];
	s->pin[level][dim] = bound;
	if (trim__mapspace_filter_rows(s, dim)) {
		s->pin[level][dim] = old;
		return trim__error(TRIM_ENOFIT, "mapspace: no factorisation of %c = %lld has %c = %lld at level %s (with the other fixed factors)",
		                   "NGMCEFRS"[dim], (long long)s->w->bound[dim], "NGMCEFRS"[dim],
		                   (long long)bound, s->a->lv[level].name);
	}
	return 0;
}

int trim__mapspace_filter_rows(trim__mapspace *s, int dim)
{
	int64_t n = 0;
	for (int pass = 0; pass < 2; pass++) { /* count, then write (rows unchanged on failure) */
		n = 0;
		for (int64_t r = 0; r < s->nf[dim]; r++) {
			int ok = 1;
			for (int i = 0; i < s->nslots && ok; i++) {
				int64_t p = s->pin[s->slot[i]][dim], mx = s->fmax[s->slot[i]][dim];
				int64_t f = s->fact[dim][r * s->nslots + i];
				ok = (p == 0 || f == p) && (mx == 0 || f <= mx);
			}
			if (ok && pass)
				s->rows[dim][n] = r;
			n += ok;
		}
		if (n == 0)
			return TRIM_ENOFIT;
	}
	s->nrows[dim] = n;
	return 0;
}

void trim__mapspace_unconstrain(trim__mapspace *s)
{
	memset(s->pin, 0, sizeof s->pin);
	memset(s->fmax, 0, sizeof s->fmax);
	memset(s->cperm, 0, sizeof s->cperm);
	memset(s->ncperm, 0, sizeof s->ncperm);
	memset(s->axis, 0, sizeof s->axis);
	s->byp_fixmask = s->byp_fixval = 0;
	for (int d = 0; d < TRIM_NDIMS; d++)
		trim__mapspace_filter_rows(s, d);
}

double trim__mapspace_pe_util(const trim__mapspace *s, const trim__mapping *m)
{
	int64_t pes = 1;
	for (int l = 0; l < m->nlevels; l++)
		if (m->type[l] == TRIM__LVL_SPATIAL)
			for (int d = 0; d < TRIM_NDIMS; d++)
				pes *= m->f[l][d];
	return (double)pes / (double)(s->a->total_pes > 0 ? s->a->total_pes : 1);
}

double trim__mapspace_rf_util(const trim__mapspace *s, const trim__mapping *m)
{
	for (int l = m->nlevels - 1; l >= 0; l--) {
		const trim__level *L = &s->a->lv[l];
		if (L->type != TRIM__LVL_STORAGE || L->capacity_bytes <= 0)
			continue;
		int64_t bits = L->word_bits > 0 ? L->word_bits : (s->a->word_bits > 0 ? s->a->word_bits : 16);
		int64_t bytes = 0;
		for (int t = 0; t < 3; t++)
			if (m->keep[l][t] && s->w->t[t].present)
				bytes += (trim__mapping_tile_elems(m, s->w, l, t) * bits + 7) / 8;
		if (L->double_buffer)
			bytes *= 2;
		/* a partitioned level: of the partitions the workload can use (a
		 * pool has no weights: their partition cannot be filled) */
		int64_t cap = L->capacity_bytes;
		if (L->partitioned) {
			cap = 0;
			for (int t = 0; t < 3; t++)
				if (L->keep[t] && s->w->t[t].present)
					cap += L->part_bytes[t];
			if (cap <= 0)
				return 1;
		}
		return (double)bytes / (double)cap;
	}
	return 1; /* no bounded level: nothing to constrain */
}
