/*
 * Flattened groups (docs/mapping.md, "Flattened groups"): several dims of
 * the workload read as one index, the first dim outermost (RSC: k = (r*S +
 * s)*C + c), cut by the group's bounds like one dim (a ragged last piece
 * where they cover more than the product of the dims' bounds). SCALE-Sim
 * puts R x S x C (ws, is) or E x F (os, is) on one array axis this way.
 *
 * The mapping keeps a group's bounds at its first dim (its head), so the
 * rest of the library sees an ordinary mapping of the collapsed workload
 * (trim__flat_view); a tensor that reads the group's dims through a window
 * (an input: h = U*e + r) is no translate of one base set there, and the
 * analyst counts it by walking (lib/activity/flat.c); its tile's size is
 * counted here.
 */
#include <stdlib.h>
#include <string.h>

#include "mapping_int.h"

static const char dim_letters[TRIM_NDIMS + 1] = "NGMCEFRS";

int trim__flat_group_add(trim__mapping *m, const int *dims, int nd)
{
	char want[TRIM_NDIMS + 1], have[TRIM_NDIMS + 1];
	if (nd < 2 || nd > TRIM_NDIMS)
		return trim__error(TRIM_ESCHEMA, "a flattened group has 2 to %d dims (%d here)", TRIM_NDIMS, nd);
	for (int i = 0; i < nd; i++)
		want[i] = dim_letters[dims[i]];
	want[nd] = 0;
	for (int g = 0; g < m->ngroups; g++)
		if (m->group_nd[g] == nd && !memcmp(m->group_dim[g], dims, (size_t)nd * sizeof *dims))
			return g;
	for (int i = 0; i < nd; i++)
		if (m->group_of[dims[i]])
			return trim__error(TRIM_ESCHEMA, "dimension %c is in the flattened group %s already: a dim belongs to "
			                   "one group, named the same at every level (here %s)", want[i],
			                   trim__flat_group_name(m, m->group_of[dims[i]] - 1, have), want);
	if (m->ngroups >= TRIM__MAX_GROUPS)
		return trim__error(TRIM_ESCHEMA, "bad flattened group %s", want);
	const int g = m->ngroups++;
	m->group_nd[g] = nd;
	for (int i = 0; i < nd; i++) {
		m->group_dim[g][i] = dims[i];
		m->group_of[dims[i]] = g + 1;
	}
	return g;
}

void trim__flat_order_normalize(trim__mapping *m, int l)
{
	int ord[TRIM_NDIMS], n = 0;
	for (int i = 0; i < TRIM_NDIMS; i++) {
		const int d = m->order[l][i], g = m->group_of[d] - 1;
		if (g < 0) {
			ord[n++] = d;
		} else if (m->group_dim[g][0] == d) {
			for (int k = 0; k < m->group_nd[g]; k++)
				ord[n++] = m->group_dim[g][k];
		}
	}
	if (n == TRIM_NDIMS)
		memcpy(m->order[l], ord, sizeof ord);
}

const char *trim__flat_group_name(const trim__mapping *m, int g, char *buf)
{
	int n = 0;
	for (int i = 0; g >= 0 && g < m->ngroups && i < m->group_nd[g]; i++)
		buf[n++] = dim_letters[m->group_dim[g][i]];
	buf[n] = 0;
	return buf;
}

int64_t trim__flat_bound(const trim__mapping *m, const trim__intra *w, int d)
{
	if (!m->ngroups || !m->group_of[d])
		return w->bound[d];
	const int g = m->group_of[d] - 1;
	if (m->group_dim[g][0] != d)
		return 1;
	int64_t k = 1;
	for (int i = 0; i < m->group_nd[g]; i++)
		k *= w->bound[m->group_dim[g][i]];
	return k;
}

void trim__flat_expand(const trim__mapping *m, const trim__intra *w, const int64_t *v, int64_t *dv)
{
	memcpy(dv, v, TRIM_NDIMS * sizeof *dv);
	for (int g = 0; g < m->ngroups; g++) {
		int64_t k = v[m->group_dim[g][0]];
		for (int i = m->group_nd[g] - 1; i >= 0; i--) {
			const int d = m->group_dim[g][i];
			dv[d] = k % w->bound[d];
			k /= w->bound[d];
		}
	}
}

int64_t trim__flat_elem(const trim__intra *w, int t, const int64_t *dv)
{
	const trim__tensor *T = &w->t[t];
	int64_t lin = 0;
	for (int a = 0; a < T->ndims; a++) {
		int64_t v = 0;
		for (int k = 0; k < T->idx[a].nterms; k++)
			v += T->idx[a].coef[k] * dv[T->idx[a].dim[k]];
		if (v < 0 || v >= T->extent[a])
			return -1;
		lin = lin * T->extent[a] + v;
	}
	return lin;
}

/* How tensor T reads group g: 0 not at all, 1 every dim through an axis of
 * its own (one term; a bijection of the group's positions), 2 otherwise
 * (a window, some of its dims only, or a dim of a zero-padded axis). */
static int reads_group(const trim__mapping *m, const trim__tensor *T, int g)
{
	int axes = 0, own[TRIM_NDIMS] = {0}, any = 0;
	for (int a = 0; a < T->ndims; a++) {
		const trim__iexpr *e = &T->idx[a];
		int in = 0, out = 0, dim = -1;
		for (int k = 0; k < e->nterms; k++) {
			if (!e->coef[k])
				continue;
			if (m->group_of[e->dim[k]] == g + 1)
				in++, dim = e->dim[k];
			else
				out++;
		}
		if (!in)
			continue;
		any = 1;
		if (in > 1 || out || (T->has_zeros && a >= T->ndims - 2))
			return 2;
		own[dim]++;
		axes++;
	}
	if (!any)
		return 0;
	for (int i = 0; i < m->group_nd[g]; i++)
		if (own[m->group_dim[g][i]] != 1)
			return 2;
	return 1;
}

int trim__flat_view(const trim__mapping *m, const trim__intra *w, trim__intra *out, unsigned *walk)
{
	*out = *w;
	*walk = 0;
	out->act_zero_ok = 0;
	for (int g = 0; g < m->ngroups; g++) {
		const int head = m->group_dim[g][0];
		out->bound[head] = trim__flat_bound(m, w, head);
		for (int i = 1; i < m->group_nd[g]; i++)
			out->bound[m->group_dim[g][i]] = 1;
	}
	for (int t = 0; t < 3; t++) {
		trim__tensor *T = &out->t[t];
		if (!T->present)
			continue;
		for (int g = 0; g < m->ngroups; g++) {
			const int how = reads_group(m, &w->t[t], g);
			char name[TRIM_NDIMS + 1];
			if (how == 2 && t == 2)
				return trim__error(TRIM_EINVAL, "mapping: the flattened group %s: the result %s reads it through "
				                   "a window or through some of its dims only (not supported: only an operand may)",
				                   trim__flat_group_name(m, g, name), T->name);
			if (how == 2)
				*walk |= 1u << t;
			if (how != 1)
				continue;
			/* the group's axes become one, at the first of them */
			int n = 0, placed = 0;
			trim__iexpr idx[TRIM__MAX_TDIMS];
			int64_t ext[TRIM__MAX_TDIMS];
			for (int a = 0; a < T->ndims; a++) {
				const trim__iexpr *e = &T->idx[a];
				int in = 0;
				for (int k = 0; k < e->nterms; k++)
					in |= e->coef[k] && m->group_of[e->dim[k]] == g + 1;
				if (!in) {
					idx[n] = *e;
					ext[n++] = T->extent[a];
				} else if (!placed) {
					placed = 1;
					memset(&idx[n], 0, sizeof idx[n]);
					idx[n].nterms = 1;
					idx[n].dim[0] = m->group_dim[g][0];
					idx[n].coef[0] = 1;
					ext[n++] = out->bound[m->group_dim[g][0]];
				}
			}
			memcpy(T->idx, idx, sizeof idx);
			memcpy(T->extent, ext, sizeof ext);
			T->ndims = n;
		}
		trim__tensor_finish(T);
	}
	return 0;
}

/* The largest tile of a walked tensor: the tiles of level l start at 0 in
 * every dim but the groups it reads through a window, whose pieces start
 * at each multiple of the piece (a translate of another tile has its
 * size, and a clipped one is a subset of the first). */
int64_t trim__flat_tile_elems(const trim__mapping *m, const trim__intra *w, int l, int t)
{
	trim__intra v;
	unsigned walk = 0;
	if (trim__flat_view(m, w, &v, &walk))
		return -1;
	if (!(walk >> t & 1))
		return trim__mapping_tile_elems(m, &v, l, t);
	int64_t below[TRIM_NDIMS], ext[TRIM_NDIMS], base[TRIM_NDIMS] = {0};
	int rel[TRIM_NDIMS] = {0}, moving[TRIM_NDIMS], nmov = 0;
	int64_t box = 1, combos = 1;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		below[d] = 1;
		for (int k = l; k < m->nlevels; k++)
			below[d] *= m->f[k][d];
		ext[d] = v.bound[d];
		if (below[d] > ext[d])
			below[d] = ext[d];
		rel[d] = w->t[t].relevant >> d & 1;
	}
	for (int g = 0; g < m->ngroups; g++) {
		const int head = m->group_dim[g][0];
		for (int i = 0; i < m->group_nd[g]; i++)
			rel[head] |= w->t[t].relevant >> m->group_dim[g][i] & 1;
		for (int i = 1; i < m->group_nd[g]; i++)
			rel[m->group_dim[g][i]] = 0;
		if (rel[head] && below[head] < ext[head]) {
			moving[nmov++] = head;
			combos *= (ext[head] + below[head] - 1) / below[head];
		}
	}
	for (int d = 0; d < TRIM_NDIMS; d++)
		if (rel[d])
			box *= below[d];
	const int64_t E = w->t[t].elems;
	if (box > ((int64_t)1 << 26) / (combos ? combos : 1))
		return box < E ? box : E; /* too many to count: the bound (docs/mapping.md) */
	int64_t *stamp = calloc((size_t)(E > 0 ? E : 1), sizeof *stamp);
	if (!stamp) {
		trim__error(TRIM_ENOMEM, "mapping: out of memory");
		return -1;
	}
	int64_t best = 0, gen = 0;
	for (;;) {
		gen++;
		int64_t n = 0, off[TRIM_NDIMS] = {0}, pos[TRIM_NDIMS], dv[TRIM_NDIMS];
		for (;;) {
			int inside = 1;
			for (int d = 0; d < TRIM_NDIMS; d++) {
				pos[d] = base[d] + off[d];
				inside &= pos[d] < ext[d];
			}
			if (inside) {
				trim__flat_expand(m, w, pos, dv);
				const int64_t x = trim__flat_elem(w, t, dv);
				if (x >= 0 && stamp[x] != gen) {
					stamp[x] = gen;
					n++;
				}
			}
			int d = TRIM_NDIMS - 1;
			while (d >= 0 && (!rel[d] || ++off[d] == below[d])) {
				off[d] = 0;
				d--;
			}
			if (d < 0)
				break;
		}
		best = n > best ? n : best;
		int i = nmov - 1;
		while (i >= 0 && (base[moving[i]] += below[moving[i]]) >= ext[moving[i]])
			base[moving[i--]] = 0;
		if (i < 0)
			break;
	}
	free(stamp);
	return best;
}
