/*
 * Mappings: representation, validation, loop-nest printing, YAML writing.
 * (The YAML readers are in lib/mapping/yaml.c.)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mapping_int.h"
#include "util/handle.h"

static const char dim_letters[TRIM_NDIMS + 1] = "NGMCEFRS";
static const char *const slot_names[3] = {"input", "weight", "output"};

/* A dim's name: its letter, or a flattened group's letters at its head. */
static const char *dim_name(const trim__mapping *m, int d, char *buf)
{
	if (m->ngroups && m->group_of[d] && m->group_dim[m->group_of[d] - 1][0] == d)
		return trim__flat_group_name(m, m->group_of[d] - 1, buf);
	buf[0] = dim_letters[d];
	buf[1] = 0;
	return buf;
}

int trim__dim_parse(const char *s)
{
	if (!s || !s[0] || s[1])
		return -1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (s[0] == dim_letters[d] || s[0] == dim_letters[d] + ('a' - 'A'))
			return d;
	return -1;
}

void trim__mapping_init(trim__mapping *m, const struct trim_arch *a)
{
	memset(m, 0, sizeof *m);
	TRIM__HANDLE_INIT(m, MAPPING);
	m->nlevels = a->nlevels;
	for (int l = 0; l < a->nlevels && l < TRIM__MAX_LEVELS; l++) {
		m->type[l] = a->lv[l].type;
		snprintf(m->name[l], sizeof m->name[l], "%s", a->lv[l].name);
		for (int d = 0; d < TRIM_NDIMS; d++) {
			m->f[l][d] = m->fx[l][d] = m->fy[l][d] = 1;
			m->order[l][d] = d;
		}
		for (int s = 0; s < 3; s++)
			m->keep[l][s] = a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].keep[s];
	}
}

int trim__mapping_slot_of(const char *s)
{
	static const char *const names[3][4] = {{"input", "inputs", "ifmap", NULL},
	                                        {"weight", "weights", "filter", "filters"},
	                                        {"output", "outputs", "ofmap", "psum"}};
	for (int t = 0; t < 3; t++)
		for (int k = 0; k < 4 && names[t][k]; k++)
			if (!strcasecmp(s, names[t][k]))
				return t;
	return -1;
}

int trim__mapping_level(const trim__mapping *m, const char *name)
{
	for (int l = 0; l < m->nlevels; l++)
		if (!strcmp(m->name[l], name))
			return l;
	return -1;
}

int trim__mapping_set_order_str(trim__mapping *m, int level, const char *order)
{
	if (level < 0 || level >= m->nlevels || m->type[level] != TRIM__LVL_STORAGE)
		return trim__error(TRIM_EINVAL, "mapping: level %d is not a storage level", level);
	int used[TRIM_NDIMS] = {0}, n = 0, ord[TRIM_NDIMS];
	for (const char *p = order; *p; p++) {
		if (*p == ' ' || *p == ',')
			continue;
		char c[2] = {*p, 0};
		int d = trim__dim_parse(c);
		if (d < 0)
			return trim__error(TRIM_EINVAL, "mapping: level %s: unknown dimension '%c' in order '%s'",
			                   m->name[level], *p, order);
		/* a flattened group named by its letters (RSC) is one loop, at its head */
		int g = m->ngroups && m->group_of[d] ? m->group_of[d] - 1 : -1, nd = 1;
		if (g >= 0) {
			char name[TRIM_NDIMS + 1];
			trim__flat_group_name(m, g, name);
			if (m->group_dim[g][0] != d || strncasecmp(p, name, strlen(name)))
				return trim__error(TRIM_EINVAL, "mapping: level %s: %c is in the flattened group %s, one loop: "
				                   "name it as %s in order '%s'", m->name[level], dim_letters[d], name, name,
				                   order);
			nd = m->group_nd[g];
		}
		for (int i = 0; i < nd; i++) {
			const int di = nd > 1 ? m->group_dim[g][i] : d;
			if (used[di])
				return trim__error(TRIM_EINVAL, "mapping: level %s: dimension %c twice in order '%s'",
				                   m->name[level], dim_letters[di], order);
			used[di] = 1;
			ord[n++] = di;
		}
		p += nd - 1;
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (!used[d])
			ord[n++] = d;
	memcpy(m->order[level], ord, sizeof ord);
	if (m->ngroups)
		trim__flat_order_normalize(m, level);
	return 0;
}

/* Number of distinct values of a*i + b*j over 0 <= i < I, 0 <= j < J
 * (a, b >= 0). Two pairs collide iff they differ by k*(b', -a') with
 * a' = a/g, b' = b/g, g = gcd(a, b); every value's pairs form one chain,
 * so the distinct count is the number of chain heads: pairs (i, j) for
 * which (i + b', j - a') is out of range. */
int64_t trim__axis_distinct(int64_t a, int64_t I, int64_t b, int64_t J)
{
	if (I <= 0 || J <= 0)
		return 0;
	if (a == 0 || I == 1)
		return b == 0 ? 1 : J;
	if (b == 0 || J == 1)
		return I;
	/* x = gcd(a, b), without Euclid's loop for the usual strides and
	 * dilations (a coefficient 1, or both equal) */
	int64_t x = a, y = b;
	if (a == 1 || b == 1)
		x = 1, y = 0;
	else if (a == b)
		y = 0;
	while (y) {
		int64_t t = x % y;
		x = y;
		y = t;
	}
	int64_t ap = a / x, bp = b / x;
	int64_t ci = I - bp > 0 ? I - bp : 0, cj = J - ap > 0 ? J - ap : 0;
	return I * J - ci * cj;
}

/* Product of the bounds of dim d at levels >= l, at most the workload bound
 * (an imperfect factorisation: the largest tile is the full one, clipped). */
static int64_t ext_from(const trim__mapping *m, const trim__intra *w, int l, int d)
{
	int64_t p = 1;
	for (int k = l; k < m->nlevels; k++)
		p *= m->f[k][d];
	if (!w)
		return p;
	const int64_t bound = m->ngroups ? trim__flat_bound(m, w, d) : w->bound[d];
	return p > bound ? bound : p;
}

int trim__mapping_ragged(const trim__mapping *m, const trim__intra *w)
{
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t p = 1;
		for (int l = 0; l < m->nlevels; l++)
			if (__builtin_mul_overflow(p, m->f[l][d], &p))
				return 1;
		if (p != (m->ngroups ? trim__flat_bound(m, w, d) : w->bound[d]))
			return 1;
	}
	return 0;
}

int64_t trim__mapping_padded_macs(const trim__mapping *m)
{
	int64_t n = 1;
	for (int d = 0; d < TRIM_NDIMS; d++)
		for (int l = 0; l < m->nlevels; l++)
			if (__builtin_mul_overflow(n, m->f[l][d], &n))
				return INT64_MAX;
	return n;
}

int64_t trim__mapping_tile_elems(const trim__mapping *m, const trim__intra *w, int l, int slot)
{
	const trim__tensor *t = &w->t[slot];
	if (!t->present)
		return 0;
	int64_t n = 1;
	for (int a = 0; a < t->ndims; a++) {
		const trim__iexpr *e = &t->idx[a];
		if (e->nterms == 1)
			n *= e->coef[0] == 0 ? 1 : ext_from(m, w, l, e->dim[0]);
		else
			n *= trim__axis_distinct(e->coef[0], ext_from(m, w, l, e->dim[0]), e->coef[1],
			                         ext_from(m, w, l, e->dim[1]));
	}
	return n;
}

/* An error of the checks below, located: with a source (a mapping read from
 * YAML) "FILE:LINE:COL: mapping[i]: level L, dimension D: what", pointing at
 * the entry of level l (l < 0: at the `mapping:` list); without one
 * "mapping: level L, dimension D: what". l < 0 omits the level, d < 0 the
 * dimension. */
__attribute__((format(printf, 5, 6)))
static int check_err(const trim__mapping *m, int l, int d, int code, const char *fmt, ...)
{
	char what[768], where[512] = "mapping", subject[160] = "";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (m->src[0]) {
		if (l >= 0 && l < m->nlevels && m->src_line[l] > 0)
			snprintf(where, sizeof where, "%s:%d:%d: mapping[%d]", m->src, m->src_line[l],
			         m->src_col[l], m->src_entry[l]);
		else
			snprintf(where, sizeof where, "%s:%d:%d: mapping", m->src, m->src_list_line,
			         m->src_list_col);
	}
	if (l >= 0 && d >= 0)
		snprintf(subject, sizeof subject, ": level %s, dimension %c", m->name[l], dim_letters[d]);
	else if (l >= 0)
		snprintf(subject, sizeof subject, ": level %s", m->name[l]);
	else if (d >= 0)
		snprintf(subject, sizeof subject, ": dimension %c", dim_letters[d]);
	return trim__error(code, "%s%s: %s", where, subject, what);
}

/* A product of bounds for a message: the number, or "more than 2^63 - 1". */
static const char *count_str(char *buf, size_t n, int64_t v, int over)
{
	if (over)
		snprintf(buf, n, "more than %lld", (long long)INT64_MAX);
	else
		snprintf(buf, n, "%lld", (long long)v);
	return buf;
}

/* Every dim's bounds (a flattened group's at its head) cover its bound,
 * with no empty last iteration of the outermost loop on it. */
static int check_cover(const trim__mapping *m, const trim__intra *w)
{
	for (int d = 0; d < TRIM_NDIMS; d++) {
		const int64_t bound = trim__flat_bound(m, w, d);
		char gname[TRIM_NDIMS + 1] = "", what[64];
		const int g = m->ngroups && m->group_of[d] ? m->group_of[d] - 1 : -1;
		if (g >= 0) {
			trim__flat_group_name(m, g, gname);
			if (m->group_dim[g][0] != d) {
				for (int l = 0; l < m->nlevels; l++)
					if (m->f[l][d] != 1)
						return check_err(m, l, d, TRIM_ESHAPE, "%c is in the flattened group %s: its bounds are "
						                 "the group's (written %s), %c has none of its own (here %lld)",
						                 dim_letters[d], gname, gname, dim_letters[d], (long long)m->f[l][d]);
				continue;
			}
			char *o = what;
			for (int i = 0; i < m->group_nd[g]; i++)
				o += snprintf(o, (size_t)(what + sizeof what - o), "%s%c %lld", i ? " x " : "",
				              dim_letters[m->group_dim[g][i]], (long long)w->bound[m->group_dim[g][i]]);
			snprintf(o, (size_t)(what + sizeof what - o), " = %lld", (long long)bound);
		}
		int64_t p = 1;
		int over = 0, at = -1; /* at: the first entry (in the file) giving d a bound > 1 */
		for (int l = 0; l < m->nlevels; l++) {
			over |= __builtin_mul_overflow(p, m->f[l][d], &p);
			if (m->f[l][d] > 1 && m->src_line[l] > 0 &&
			    (at < 0 || m->src_entry[l] < m->src_entry[at]))
				at = l;
		}
		/* an imperfect factorisation: the product covers the bound with a
		 * ragged last tile and no empty iteration of the outermost loop on d
		 * ((f - 1) * T < bound, T the tile inside it; docs/model.md) */
		int64_t inner = p, outer = 1;
		for (int l = 0; !over && l < m->nlevels; l++)
			if (m->f[l][d] > 1) {
				outer = m->f[l][d];
				inner = p / outer;
				break;
			}
		if (m->tl_bound[d] && m->tl_bound[d] != w->bound[d])
			return check_err(m, at, d, TRIM_ESHAPE, "the residuals of %c (Timeloop's D=bound,residual) cover %lld, "
			                 "the workload bound is %lld", dim_letters[d], (long long)m->tl_bound[d],
			                 (long long)w->bound[d]);
		if (over || p < bound || (p > bound && (outer - 1) * inner >= bound)) {
			char buf[256], pb[48];
			size_t o = 0;
			for (int l = 0; l < m->nlevels && o < sizeof buf; l++)
				if (m->type[l] != TRIM__LVL_COMPUTE)
					o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s=%lld", o ? " x " : "",
					                      m->name[l], (long long)m->f[l][d]);
			if (!over && p > bound)
			{
				if (g >= 0)
					return check_err(m, at, d, TRIM_ESHAPE, "the bounds of the flattened group %s multiply to %lld (%s), "
					                 "its extent is %s: the last iteration of its outermost loop (bound %lld, "
					                 "pieces of %lld) would be empty", gname, (long long)p, buf, what,
					                 (long long)outer, (long long)inner);
				return check_err(m, at, d, TRIM_ESHAPE, "the bounds of %c multiply to %lld (%s), the workload bound is %lld: "
				                 "an imperfect factorisation may cover it with a ragged last tile, but the last "
				                 "iteration of the outermost loop on %c (bound %lld, tiles of %lld) would be empty",
				                 dim_letters[d], (long long)p, buf, (long long)bound, dim_letters[d],
				                 (long long)outer, (long long)inner);
			}
			if (g >= 0)
				return check_err(m, at, d, TRIM_ESHAPE, "the bounds of the flattened group %s multiply to %s (%s), "
				                 "its extent is %s: they must cover it", gname, count_str(pb, sizeof pb, p, over),
				                 buf, what);
			return check_err(m, at, d, TRIM_ESHAPE, "the bounds of %c multiply to %s (%s), the workload bound is %lld",
			                 dim_letters[d], count_str(pb, sizeof pb, p, over), buf, (long long)bound);
		}
	}
	return 0;
}

int trim__mapping_check_shape(const trim__mapping *m, const trim__intra *w,
                              const struct trim_arch *a)
{
	if (m->nlevels != a->nlevels)
		return check_err(m, -1, -1, TRIM_ESHAPE, "%d levels, architecture '%s' has %d",
		                 m->nlevels, a->name, a->nlevels);
	for (int l = 0; l < m->nlevels; l++) {
		if (m->type[l] != a->lv[l].type || strcmp(m->name[l], a->lv[l].name))
			return check_err(m, -1, -1, TRIM_ESHAPE, "level %d is '%s', architecture has '%s'", l,
			                 m->name[l], a->lv[l].name);
		const trim__level *L = &a->lv[l];
		/* PEs used along X and Y, saturated (a bound may be up to 2^40 and
		 * eight of them do not fit 64 bits) */
		int64_t px = 1, py = 1;
		int pxo = 0, pyo = 0;
		for (int d = 0; d < TRIM_NDIMS; d++) {
			if (m->f[l][d] < 1)
				return check_err(m, l, d, TRIM_ERANGE, "the bound of %c is %lld (must be >= 1)",
				                 dim_letters[d], (long long)m->f[l][d]);
			if (L->type == TRIM__LVL_COMPUTE && m->f[l][d] != 1)
				return check_err(m, l, d, TRIM_ESHAPE, "%s is the compute level: the bound of %c must be 1",
				                 m->name[l], dim_letters[d]);
			if (L->type == TRIM__LVL_SPATIAL) {
				int64_t xy = 0;
				if (m->fx[l][d] < 1 || m->fy[l][d] < 1 ||
				    __builtin_mul_overflow(m->fx[l][d], m->fy[l][d], &xy) || xy != m->f[l][d])
					return check_err(m, l, d, TRIM_ESHAPE, "the spatial bound of %c is %lld but X*Y = %lld*%lld",
					                 dim_letters[d], (long long)m->f[l][d],
					                 (long long)m->fx[l][d], (long long)m->fy[l][d]);
				pxo |= __builtin_mul_overflow(px, m->fx[l][d], &px);
				pyo |= __builtin_mul_overflow(py, m->fy[l][d], &py);
			}
		}
		if (L->type == TRIM__LVL_SPATIAL) {
			int64_t fx = L->fanout_x > 0 ? L->fanout_x : 1, fy = L->fanout_y > 0 ? L->fanout_y : 1;
			int dx = -1, dy = -1; /* the largest bound along the axis that does not fit */
			for (int d = 0; d < TRIM_NDIMS; d++) {
				if (m->fx[l][d] > 1 && (dx < 0 || m->fx[l][d] > m->fx[l][dx]))
					dx = d;
				if (m->fy[l][d] > 1 && (dy < 0 || m->fy[l][d] > m->fy[l][dy]))
					dy = d;
			}
			if (pxo || pyo || px > fx || py > fy) {
				char bx[48], by[48];
				int over_x = pxo || px > fx;
				return check_err(m, l, over_x ? dx : dy, TRIM_ENOFIT,
				                 "the spatial bounds use %s x %s PEs, the array has %lld x %lld (%s is too %s)",
				                 count_str(bx, sizeof bx, px, pxo), count_str(by, sizeof by, py, pyo),
				                 (long long)fx, (long long)fy, over_x ? "X" : "Y",
				                 over_x ? "wide" : "tall");
			}
		}
		if (L->type == TRIM__LVL_STORAGE) {
			int seen[TRIM_NDIMS] = {0};
			for (int k = 0; k < TRIM_NDIMS; k++) {
				int d = m->order[l][k];
				if (d < 0 || d >= TRIM_NDIMS || seen[d])
					return check_err(m, l, -1, TRIM_ESHAPE, "the loop order is not a permutation of N G M C E F R S");
				seen[d] = 1;
			}
			for (int s = 0; s < 3; s++)
				if (m->keep[l][s] && !L->keep[s])
					return check_err(m, l, -1, TRIM_ESHAPE, "%s cannot hold the %s tensor (the architecture bypasses it)",
					                 m->name[l], slot_names[s]);
		} else {
			for (int s = 0; s < 3; s++)
				if (m->keep[l][s])
					return check_err(m, l, -1, TRIM_ESHAPE, "%s is not a storage level: it cannot hold a tensor",
					                 m->name[l]);
		}
	}
	if (a->nlevels < 2 || a->lv[0].type != TRIM__LVL_STORAGE ||
	    a->lv[a->nlevels - 1].type != TRIM__LVL_COMPUTE)
		return check_err(m, -1, -1, TRIM_ESHAPE, "the architecture must start with a storage level and end with the compute level");
	for (int s = 0; s < 3; s++)
		if (w->t[s].present && !m->keep[0][s])
			return check_err(m, 0, -1, TRIM_ESHAPE, "the outermost level %s must hold the %s tensor",
			                 m->name[0], slot_names[s]);
	int rc = check_cover(m, w);
	if (rc)
		return rc;
	if (m->ngroups) {
		trim__intra view;
		unsigned walk;
		if (trim__flat_view(m, w, &view, &walk)) {
			char msg[512];
			const char *e = trim_last_error();
			snprintf(msg, sizeof msg, "%s", strncmp(e, "mapping: ", 9) ? e : e + 9);
			return check_err(m, -1, -1, TRIM_EINVAL, "%s", msg);
		}
	}
	return 0;
}

int trim__mapping_check_reserved(const trim__mapping *m, const trim__intra *w,
                                 const struct trim_arch *a, const int64_t *reserved)
{
	int rc = trim__mapping_check_shape(m, w, a);
	if (rc)
		return rc;
	for (int l = 0; l < m->nlevels; l++) {
		const trim__level *L = &a->lv[l];
		if (L->type != TRIM__LVL_STORAGE || L->capacity_bytes <= 0)
			continue;
		int64_t bits = L->word_bits > 0 ? L->word_bits : (a->word_bits > 0 ? a->word_bits : 16);
		int64_t mult = L->double_buffer ? 2 : 1, total = 0, res = reserved ? reserved[l] : 0;
		for (int s = 0; s < 3; s++) {
			if (!m->keep[l][s] || !w->t[s].present)
				continue;
			const int64_t elems = m->ngroups ? trim__flat_tile_elems(m, w, l, s) : trim__mapping_tile_elems(m, w, l, s);
			if (elems < 0)
				return TRIM_ENOMEM; /* trim__flat_view's errors: trim__mapping_check_shape */
			int64_t bytes = (elems * bits + 7) / 8 * mult;
			if (L->partitioned) {
				if (bytes > L->part_bytes[s])
					return check_err(m, l, -1, TRIM_ENOFIT, "the %s tile needs %lld bytes%s, its partition has %lld",
					                 slot_names[s], (long long)bytes,
					                 mult > 1 ? " (double-buffered)" : "", (long long)L->part_bytes[s]);
			}
			total += bytes;
		}
		if ((!L->partitioned || res > 0) && total + res > L->capacity_bytes) {
			if (res > 0)
				return check_err(m, l, -1, TRIM_ENOFIT, "the tiles need %lld bytes%s, the capacity is %lld of which %lld hold cached activations",
				                 (long long)total, mult > 1 ? " (double-buffered)" : "",
				                 (long long)L->capacity_bytes, (long long)res);
			return check_err(m, l, -1, TRIM_ENOFIT, "the tiles need %lld bytes%s, the capacity is %lld",
			                 (long long)total, mult > 1 ? " (double-buffered)" : "",
			                 (long long)L->capacity_bytes);
		}
	}
	return 0;
}
int trim__mapping_check(const trim__mapping *m, const trim__intra *w, const struct trim_arch *a)
{
	return trim__mapping_check_reserved(m, w, a, NULL);
}

/* ---- printing ------------------------------------------------------------ */

void trim__mapping_loopnest(const trim__mapping *m, const trim__intra *w, trim__sb *sb)
{
	/* Loop variables are numbered from the innermost level with loops (1) as
	 * in TRIM Fig. 6: c1 is the innermost c loop, c4 the outermost. */
	int num[TRIM__MAX_LEVELS], k = 0;
	for (int l = m->nlevels - 1; l >= 0; l--)
		num[l] = m->type[l] == TRIM__LVL_COMPUTE ? 0 : ++k;
	int depth = 0, line = 1;
	/* an imperfect factorisation: the outermost loop of a ragged dim says so */
	int rlev[TRIM_NDIMS];
	char rnote[TRIM_NDIMS][96];
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t p = 1;
		rlev[d] = -1;
		for (int l = 0; l < m->nlevels; l++)
			p *= m->f[l][d];
		const int64_t bound = w ? trim__flat_bound(m, w, d) : 0;
		for (int l = 0; w && p > bound && l < m->nlevels; l++)
			if (m->f[l][d] > 1) {
				int64_t t = p / m->f[l][d];
				char name[TRIM_NDIMS + 1];
				rlev[d] = l;
				snprintf(rnote[d], sizeof rnote[d], "ragged: %s = %lld in tiles of %lld, the last %lld",
				         dim_name(m, d, name), (long long)bound, (long long)t,
				         (long long)(bound - (m->f[l][d] - 1) * t));
				break;
			}
	}
	if (w)
		trim__sb_printf(sb, "# %s %s\n", w->layer,
		                w->phase >= 0 && w->phase <= 2 ? (const char *[]){"FW", "BW", "WG"}[w->phase] : "");
	for (int l = 0; l < m->nlevels; l++) {
		if (m->type[l] == TRIM__LVL_COMPUTE) {
			trim__sb_printf(sb, "%3d %*sMAC  # %s\n", line++, 2 * depth, "", m->name[l]);
			break;
		}
		char keep[64] = "";
		if (m->type[l] == TRIM__LVL_STORAGE) {
			size_t o = 0;
			for (int s = 0; s < 3; s++)
				if (!m->keep[l][s])
					o += (size_t)snprintf(keep + o, sizeof keep - o, "%s%s", o ? "," : ", bypass ",
					                      slot_names[s]);
		}
		trim__sb_printf(sb, "%3d %*s// %s (%s%s)\n", line++, 2 * depth, "", m->name[l],
		                m->type[l] == TRIM__LVL_STORAGE ? "temporal" : "spatial", keep);
		for (int i = 0; i < TRIM_NDIMS; i++) {
			int d = m->type[l] == TRIM__LVL_STORAGE ? m->order[l][i] : i;
			char v[TRIM_NDIMS + 1];
			dim_name(m, d, v);
			for (char *q = v; *q; q++)
				*q = (char)(*q + ('a' - 'A'));
			if (m->ngroups && m->group_of[d] && m->group_dim[m->group_of[d] - 1][0] != d)
				continue; /* a flattened group's other dim: the group's loop is at its head */
			if (w && trim__flat_bound(m, w, d) == 1)
				continue; /* a dimension the workload does not have (or a group's other dim) */
			const int rg = rlev[d] == l;
			if (m->type[l] == TRIM__LVL_STORAGE)
				trim__sb_printf(sb, "%3d %*sfor %s%d in [0:%lld)%s%s\n", line++, 2 * depth, "", v, num[l],
				                (long long)m->f[l][d], rg ? "  # " : "", rg ? rnote[d] : "");
			else if (m->f[l][d] > 1 || (w && trim__flat_bound(m, w, d) > 1))
				trim__sb_printf(sb, "%3d %*sparallel_for %s%d in [0:%lld)  # X %lld, Y %lld%s%s\n", line++,
				                2 * depth, "", v, num[l], (long long)m->f[l][d],
				                (long long)m->fx[l][d], (long long)m->fy[l][d], rg ? "; " : "", rg ? rnote[d] : "");
			else
				continue;
			if (m->type[l] == TRIM__LVL_STORAGE)
				depth++;
		}
		if (m->type[l] == TRIM__LVL_SPATIAL)
			depth++;
	}
}

/* A dim's own bounds in the YAML form: its letter, a group's head the
 * group's letters, a group's other dim nothing (NULL). */
static const char *yaml_key(const trim__mapping *m, int d, char *buf)
{
	if (m->ngroups && m->group_of[d] && m->group_dim[m->group_of[d] - 1][0] != d)
		return NULL;
	return dim_name(m, d, buf);
}

static void yaml_bounds(const trim__mapping *m, const int64_t *f, trim__sb *sb)
{
	char key[TRIM_NDIMS + 1];
	trim__sb_putc(sb, '{');
	for (int d = 0, first = 1; d < TRIM_NDIMS; d++)
		if (yaml_key(m, d, key)) {
			trim__sb_printf(sb, "%s%s: %lld", first ? "" : ", ", key, (long long)f[d]);
			first = 0;
		}
	trim__sb_puts(sb, "}\n");
}

void trim__mapping_yaml(const trim__mapping *m, trim__sb *sb)
{
	char key[TRIM_NDIMS + 1];
	trim__sb_puts(sb, "schema_version: 1\nmapping:\n");
	for (int l = 0; l < m->nlevels; l++) {
		if (m->type[l] == TRIM__LVL_COMPUTE)
			continue;
		trim__sb_printf(sb, "  - level: %s\n", m->name[l]);
		if (m->type[l] == TRIM__LVL_STORAGE) {
			trim__sb_puts(sb, "    temporal: ");
			yaml_bounds(m, m->f[l], sb);
			trim__sb_puts(sb, "    order: ");
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (yaml_key(m, m->order[l][d], key))
					trim__sb_puts(sb, key);
			trim__sb_puts(sb, "\n    keep: [");
			int first = 1;
			for (int s = 0; s < 3; s++)
				if (m->keep[l][s]) {
					trim__sb_printf(sb, "%s%s", first ? "" : ", ", slot_names[s]);
					first = 0;
				}
			trim__sb_puts(sb, "]\n");
		} else {
			trim__sb_puts(sb, "    spatial_x: ");
			yaml_bounds(m, m->fx[l], sb);
			trim__sb_puts(sb, "    spatial_y: ");
			yaml_bounds(m, m->fy[l], sb);
		}
	}
}

/* ---- public API ------------------------------------------------------------ */

int trim_mapping_create(trim_mapping **out, const trim_arch *arch)
{
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	if (!out || !arch)
		return trim__error(TRIM_EINVAL, "trim_mapping_create: NULL argument");
	*out = NULL;
	if (arch->nlevels < 1 || arch->nlevels > TRIM__MAX_LEVELS)
		return trim__error(TRIM_EINVAL, "trim_mapping_create: architecture has %d levels", arch->nlevels);
	trim__mapping *m = trim__calloc(1, sizeof *m);
	if (!m)
		return TRIM_ENOMEM;
	trim__mapping_init(m, arch);
	*out = m;
	return 0;
}

void trim_mapping_free(trim_mapping *m)
{
	TRIM__HANDLE_CHECK_VOID(m, MAPPING);
	if (!m)
		return;
	TRIM__HANDLE_POISON(m, MAPPING);
	free(m);
}

int trim_mapping_clone(trim_mapping **out, const trim_mapping *m)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	if (!out || !m)
		return trim__error(TRIM_EINVAL, "trim_mapping_clone: NULL argument");
	return trim__mapping_clone_out(out, m);
}

int trim__mapping_clone_out(trim_mapping **out, const trim__mapping *m)
{
	*out = trim__calloc(1, sizeof **out);
	if (!*out)
		return TRIM_ENOMEM;
	memcpy(*out, m, sizeof *m);
	TRIM__HANDLE_INIT(*out, MAPPING);
	return 0;
}

int trim_mapping_levels(const trim_mapping *m)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	return m ? m->nlevels : -1;
}

static int check_ld(const trim_mapping *m, int level, int dim, int type, const char *fn)
{
	if (!m)
		return trim__error(TRIM_EINVAL, "%s: NULL mapping", fn);
	if (level < 0 || level >= m->nlevels)
		return trim__error(TRIM_ENOTFOUND, "%s: no level %d (the architecture has %d)", fn, level,
		                   m->nlevels);
	if (dim < 0 || dim >= TRIM_NDIMS)
		return trim__error(TRIM_ENOTFOUND, "%s: no dimension %d", fn, dim);
	if (type >= 0 && m->type[level] != type)
		return trim__error(TRIM_EINVAL, "%s: level %s is not a %s level", fn, m->name[level],
		                   type == TRIM__LVL_STORAGE ? "storage" : "spatial");
	return 0;
}

int trim_mapping_set_temporal(trim_mapping *m, int level, int dim, int64_t bound)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	int rc = check_ld(m, level, dim, TRIM__LVL_STORAGE, "trim_mapping_set_temporal");
	if (rc)
		return rc;
	if (bound < 1 || bound > ((int64_t)1 << 40))
		return trim__error(TRIM_ERANGE, "trim_mapping_set_temporal: bound %lld (must be 1 .. 2^40)",
		                   (long long)bound);
	m->f[level][dim] = bound;
	return 0;
}

int trim_mapping_set_spatial(trim_mapping *m, int level, int dim, int64_t fx, int64_t fy)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	int rc = check_ld(m, level, dim, TRIM__LVL_SPATIAL, "trim_mapping_set_spatial");
	if (rc)
		return rc;
	int64_t xy = 0;
	if (fx < 1 || fy < 1 || __builtin_mul_overflow(fx, fy, &xy) || xy > ((int64_t)1 << 40))
		return trim__error(TRIM_ERANGE, "trim_mapping_set_spatial: bounds %lld x %lld (each >= 1, "
		                   "the product at most 2^40)", (long long)fx, (long long)fy);
	m->fx[level][dim] = fx;
	m->fy[level][dim] = fy;
	m->f[level][dim] = xy;
	return 0;
}

int trim_mapping_set_order(trim_mapping *m, int level, const char *order)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	int rc = check_ld(m, level, 0, TRIM__LVL_STORAGE, "trim_mapping_set_order");
	if (rc)
		return rc;
	if (!order)
		return trim__error(TRIM_EINVAL, "trim_mapping_set_order: NULL order");
	return trim__mapping_set_order_str(m, level, order);
}

int trim_mapping_set_keep(trim_mapping *m, int level, int slot, int keep)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	int rc = check_ld(m, level, 0, TRIM__LVL_STORAGE, "trim_mapping_set_keep");
	if (rc)
		return rc;
	if (slot < 0 || slot > 2)
		return trim__error(TRIM_ENOTFOUND, "trim_mapping_set_keep: no tensor slot %d", slot);
	m->keep[level][slot] = keep != 0;
	return 0;
}

int64_t trim_mapping_bound(const trim_mapping *m, int level, int dim)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	if (!m || level < 0 || level >= m->nlevels || dim < 0 || dim >= TRIM_NDIMS)
		return -1;
	return m->f[level][dim];
}

/* The mapping as libtrim's mapping YAML (trim_mapping_load reads it back). */
static int mapping_yaml(const void *report, trim__sb *sb)
{
	trim__mapping_yaml(report, sb);
	return 0;
}

/* The mapping as a loop nest for people. */
static int mapping_table(const void *report, trim__sb *sb)
{
	trim__mapping_loopnest(report, NULL, sb);
	return 0;
}

/* The writers of trim_mapping_dump, one per format. */
static const trim__writers mapping_writers = {
	"trim_mapping_dump", {[TRIM_FORMAT_TABLE] = mapping_table, [TRIM_FORMAT_YAML] = mapping_yaml}};

int trim_mapping_dump(const trim_mapping *m, int format, char **out)
{
	TRIM__HANDLE_CHECK(m, MAPPING, TRIM_EINVAL);
	if (!m || !out)
		return trim__error(TRIM_EINVAL, "trim_mapping_dump: NULL argument");
	*out = NULL;
	return trim__write_report(&mapping_writers, format, m, out);
}
