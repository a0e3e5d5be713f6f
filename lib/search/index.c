/*
 * The index bijection: a mapping index (mixed radix: factorisations, keep
 * bits, Lehmer codes of the orders; lib/search/mapspace_int.h) to its mapping and
 * back, and the pieces of a mapping it is made of.
 */
#include "search_int.h"

/* First X/Y split (dims in order, X bound ascending) that fits, with dim d
 * along X only if axis[d] == 1, along Y only if 2; 1 if found. */
int trim__spatial_split(const trim__level *L, const uint8_t *axis, const int64_t *f, int d, int64_t px,
                        int64_t py, int64_t *fx, int64_t *fy)
{
	if (d == TRIM_NDIMS)
		return 1;
	int64_t X = L->fanout_x > 0 ? L->fanout_x : 1, Y = L->fanout_y > 0 ? L->fanout_y : 1;
	/* only the x with px x <= X and py (f / x) <= Y: from
	 * ceil(f / floor(Y / py)) to floor(X / px), in the same order (a large
	 * dim's bound would take as many steps as its value) */
	const int64_t ymax = Y / py, xmax = X / px;
	if (ymax < 1 || xmax < 1)
		return 0;
	const int64_t xlo = (f[d] + ymax - 1) / ymax, xhi = f[d] < xmax ? f[d] : xmax;
	for (int64_t x = xlo; x <= xhi; x++) {
		if (f[d] % x || (axis[d] == 1 && x != f[d]) || (axis[d] == 2 && x != 1))
			continue;
		int64_t y = f[d] / x;
		fx[d] = x;
		fy[d] = y;
		if (trim__spatial_split(L, axis, f, d + 1, px * x, py * y, fx, fy))
			return 1;
	}
	return 0;
}

static int set_spatial_split(const trim__mapspace *s, trim__mapping *m, int l)
{
	const struct trim_arch *a = s->a;
	if (trim__spatial_split(&a->lv[l], s->axis[l], m->f[l], 0, 1, 1, m->fx[l], m->fy[l]))
		return 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		m->fx[l][d] = m->f[l][d];
		m->fy[l][d] = 1;
	}
	return 0;
}

/* Factors of fact combo fc; returns 1 if every spatial level fits. */
int trim__set_factors(const trim__mapspace *s, trim__index fc, trim__mapping *m)
{
	int64_t fi[TRIM_NDIMS];
	for (int d = TRIM_NDIMS - 1; d >= 0; d--) {
		fi[d] = (int64_t)(fc % (trim__index)s->nf[d]);
		fc /= (trim__index)s->nf[d];
	}
	for (int i = 0; i < s->nslots; i++)
		for (int d = 0; d < TRIM_NDIMS; d++)
			m->f[s->slot[i]][d] = s->fact[d][fi[d] * s->nslots + i];
	int ok = 1;
	for (int i = 0; i < s->nslots; i++)
		if (s->a->lv[s->slot[i]].type == TRIM__LVL_SPATIAL)
			ok &= set_spatial_split(s, m, s->slot[i]);
	return ok;
}

void trim__set_keeps(const trim__mapspace *s, uint64_t bmask, trim__mapping *m)
{
	for (int j = 0; j < s->nbyp; j++)
		m->keep[s->byp_level[j]][s->byp_slot[j]] = (int)((bmask >> (s->nbyp - 1 - j)) & 1);
}

/* Order of level l from the permutation `code` (Lehmer) of the dims > 1. */
static void set_order_code(const trim__mapspace *s, trim__mapping *m, int l, uint64_t code)
{
	int k = 0, used[TRIM_NDIMS] = {0};
	unsigned taken = 0; /* positions of s->dims */
	for (int i = 0; i < s->n; i++) {
		uint64_t f = trim__factorial(s->n - 1 - i);
		int j = trim__nth_free(taken, (int)(code / f));
		code %= f;
		taken |= 1u << j;
		m->order[l][k++] = s->dims[j];
		used[s->dims[j]] = 1;
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!used[d])
			m->order[l][k++] = d;
}

/* Lehmer code of level l's order restricted to the dims > 1. */
uint64_t trim__order_code(const trim__mapspace *s, const trim__mapping *m, int l)
{
	/* s->dims ascending: a dim's digit is the number of unused dims > 1
	 * below it */
	unsigned avail = 0;
	for (int j = 0; j < s->n; j++)
		avail |= 1u << s->dims[j];
	uint64_t code = 0;
	int i = 0;
	for (int k = 0; k < TRIM_NDIMS; k++) {
		int d = m->order[l][k];
		if (!(avail >> d & 1))
			continue;
		int below = 0;
		for (unsigned x = avail & ((1u << d) - 1); x; x &= x - 1)
			below++;
		code += (uint64_t)below * trim__factorial(s->n - 1 - i);
		avail &= ~(1u << d);
		i++;
	}
	return code;
}

char *trim__index_str(trim__index i, char *buf)
{
	char tmp[48];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + (int)(i % 10));
		i /= 10;
	} while (i);
	for (int j = 0; j < n; j++)
		buf[j] = tmp[n - 1 - j];
	buf[n] = 0;
	return buf;
}

int trim__mapspace_decode(const trim__mapspace *s, trim__index index, trim__mapping *m)
{
	if (index >= s->size) {
		char a[48], b[48];
		return trim__error(TRIM_ERANGE, "mapspace: index %s >= size %s", trim__index_str(index, a),
		                   trim__index_str(s->size, b));
	}
	trim__mapping_init(m, s->a);
	trim__fixed_orders(s, m);
	uint64_t codes[TRIM__MAX_LEVELS];
	for (int k = s->nord - 1; k >= 0; k--) {
		codes[k] = (uint64_t)(index % s->nperm);
		index /= s->nperm;
	}
	uint64_t bmask = (uint64_t)(index & (((trim__index)1 << s->nbyp) - 1));
	trim__index fc = index >> s->nbyp;
	trim__set_factors(s, fc, m);
	trim__set_keeps(s, bmask, m);
	for (int k = 0; k < s->nord; k++)
		set_order_code(s, m, s->ord_level[k], codes[k]);
	return 0;
}

/* The row of dim d whose factors are m's, -1 if none: a binary search over
 * the perfect rows (lexicographic, slot 0 first), a scan of the imperfect
 * ones (a seed encodes dozens of mappings; a dim of a large layer has tens
 * of thousands of rows). */
static int64_t row_of(const trim__mapspace *s, const trim__mapping *m, int d)
{
	const int k = s->nslots;
	int64_t f[TRIM__MAX_LEVELS], prod = 1;
	for (int i = 0; i < k; i++) {
		f[i] = m->f[s->slot[i]][d];
		prod = f[i] > 0 && prod <= INT64_MAX / f[i] ? prod * f[i] : -1;
	}
	if (prod == s->w->bound[d]) {
		int64_t lo = 0, hi = s->nperfect[d];
		while (lo < hi) {
			const int64_t mid = lo + (hi - lo) / 2, *r = s->fact[d] + mid * k;
			int c = 0;
			for (int i = 0; i < k && !c; i++)
				c = (r[i] > f[i]) - (r[i] < f[i]);
			if (c == 0)
				return mid;
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	for (int64_t r = s->nperfect[d]; r < s->nf[d]; r++)
		if (!memcmp(s->fact[d] + r * k, f, (size_t)k * sizeof *f))
			return r;
	return -1;
}

int trim__mapspace_encode(const trim__mapspace *s, const trim__mapping *m, trim__index *index)
{
	trim__index fc = 0;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		const int64_t hit = row_of(s, m, d);
		if (hit < 0)
			return trim__error(TRIM_ENOTFOUND, "mapspace: the factors of dim %d are not in the space", d);
		fc = fc * (trim__index)s->nf[d] + (trim__index)hit;
	}
	trim__index idx = fc;
	for (int j = 0; j < s->nbyp; j++)
		idx = idx * 2 + (trim__index)(m->keep[s->byp_level[j]][s->byp_slot[j]] != 0);
	for (int k = 0; k < s->nord; k++)
		idx = idx * s->nperm + trim__order_code(s, m, s->ord_level[k]);
	*index = idx;
	return 0;
}

/* Allowed combination ac -> global factorisation index. */
trim__index trim__combination_factorisation(const trim__mapspace *s, trim__index ac)
{
	trim__index r = ac, fc = 0;
	uint64_t digit[TRIM_NDIMS];
	for (int d = TRIM_NDIMS - 1; d >= 0; d--) {
		digit[d] = (uint64_t)s->rows[d][r % (trim__index)s->nrows[d]];
		r /= (trim__index)s->nrows[d];
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		fc = fc * (trim__index)s->nf[d] + digit[d];
	return fc;
}
