/*
 * One tensor's figures for the node bound (docs/model.md, "Bounds"): the
 * per-keep-choice floors of tensor_bound.c (trim__tensor_part_floor) with
 * the tiles' bytes and which choices fit alone, the counts the exact tie
 * test reads, the same floors under a variant of the joint order (the
 * sliding-window rule's moves and fills), and what every variant of a
 * tensor shares (trim__tensor_reuse_of).
 */
#include "search_int.h"

static double tensor_part(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                          const trim__mapping *m, int t, int v, const int *inner, tensor_reuse *r, tensor_figures *o,
                          double *Ev, node_counts *nc)
{
	return trim__tensor_part_floor(s, costs, f, m, t, v, inner, r, o, Ev, nc, -1, 0, 0);
}

double trim__tensor_floor_energies(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                                   const trim__mapping *m, int t, tensor_reuse *r, int h, int64_t fills,
                                   unsigned irr, double *E)
{
	return trim__tensor_part_floor(s, costs, f, m, t, 1, NULL, r, NULL, E, NULL, h, fills, irr);
}

void trim__tensor_reuse_of(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t,
                           tensor_reuse *r)
{
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels, res = t == 2, allsp = f->allsp;
	const int ones[TRIM_NDIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
	/* per storage level, the share of one instance (spatial levels fixed) */
	memset(r->share, 0, (size_t)nl * sizeof *r->share);
	if (allsp)
		for (int l = 0; l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_STORAGE)
				r->share[l] = f->inst[l] * trim__share_blocks(s, f, m, t, l);
	r->touched = trim__share_lower_bound(w, t, w->bound, ones);
	/* results: with the spatial levels fixed and splitting only dims that
	 * are the sole term of an axis of the result (no overlap, no
	 * reduction), each holder reads back at least its updates minus the
	 * result's elements (docs/model.md, "Lower bounds") */
	r->rback = res && allsp;
	for (int l = 0; r->rback && l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (m->f[l][d] > 1 && !((s->dsingle[t] & ~s->dwindow[t]) >> d & 1))
					r->rback = 0;
	/* forced refills: a holder l below the innermost known storage level
	 * K, with unknown levels between, whose capacity cannot take t's whole
	 * per-instance extent below K. Then a storage level between has a loop
	 * on a dim of t; when every axis of t is one dim, the innermost such
	 * level is L* of the *Counts* bound, so l is refilled at least (every
	 * loop of the levels <= K) x (its instances) x (t's per-instance extent
	 * below K) times (docs/model.md) */
	memset(r->forced, 0, (size_t)nl * sizeof *r->forced);
	if (allsp && !s->dwindow[t]) {
		int K = -1;
		for (int l = 0; l < nl; l++)
			if (f->known[l])
				K = l;
		if (K >= 0) {
			int64_t MK = 1, extK[TRIM_NDIMS];
			for (int d = 0; d < TRIM_NDIMS; d++) {
				extK[d] = w->bound[d];
				for (int k = 0; k <= K; k++) {
					extK[d] /= m->f[k][d];
					if (a->lv[k].type == TRIM__LVL_STORAGE)
						MK *= m->f[k][d];
				}
			}
			int unknown = 0;
			for (int l = K + 1; l < nl; l++) {
				const trim__level *L = &a->lv[l];
				if (L->type == TRIM__LVL_SPATIAL) {
					for (int d = 0; d < TRIM_NDIMS; d++)
						extK[d] /= m->f[l][d];
					continue;
				}
				if (L->type != TRIM__LVL_STORAGE)
					continue;
				if (unknown && L->capacity_bytes > 0 && L->keep[t]) {
					int64_t el = trim__share_lower_bound(w, t, extK, ones);
					int64_t by = trim__tile_bytes_at(a, l, el);
					int64_t cap = L->partitioned ? L->part_bytes[t] : L->capacity_bytes - s->reserved[l];
					if (by > cap)
						r->forced[l] = MK * f->inst[l] * el;
				}
				unknown = 1; /* l's own loops are unknown from here on */
			}
		}
	}
	/* t's elements in one tile of each storage level whose storage level
	 * above is known (the refill rule) */
	memset(r->rsh, 0, (size_t)nl * sizeof *r->rsh);
	for (int l = 0, pv = -1; allsp && l < nl; l++) {
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		if (pv >= 0 && f->known[pv])
			r->rsh[l] = trim__share_lower_bound(w, t, f->sfx[l], ones);
		pv = l;
	}
}

int64_t trim__tile_words(const trim__intra *w, int t, const int64_t *ext)
{
	const int ones[TRIM_NDIMS] = {1, 1, 1, 1, 1, 1, 1, 1};
	return trim__share_lower_bound(w, t, ext, ones);
}

/* The tile bytes of tensor t at the levels whose tiles are known. */
static void tensor_tile_bytes(const trim__mapspace *s, const node_frame *f, int t, int64_t *tbytes)
{
	for (int l = 0; l < s->a->nlevels; l++)
		tbytes[l] = f->extk[l] && s->w->t[t].present ? trim__tile_bytes_at(s->a, l, trim__tile_words(s->w, t, f->sfx[l]))
		                                             : 0;
}

/* Figures of an absent tensor, or zeroed before tensor_part fills them. */
static void figures_clear(tensor_figures *o, int nl)
{
	o->nch = 0;
	o->emin = o->emin_fit = 0;
	o->fits_alone = 0;
	o->complete = 1;
	for (int l = 0; l < nl; l++)
		o->rd[l] = o->in[l] = o->net[l] = o->tbytes[l] = 0;
}

/* The choices whose own tiles fit where they are known, and the cheapest
 * of them: every combination that fits has one for this tensor
 * (trim__choices_fit). */
static void figures_fit(const trim__mapspace *s, const node_frame *f, int t, tensor_figures *out)
{
	const struct trim_arch *a = s->a;
	out->emin_fit = out->complete ? HUGE_VAL : out->emin;
	out->fits_alone = 0;
	for (int c = 0; c < out->nch && out->complete; c++) {
		int fits = 1;
		for (int l = 1; l < a->nlevels && fits; l++) {
			int64_t bytes[3] = {0, 0, 0};
			bytes[t] = out->tbytes[l];
			fits = !f->extk[l] || !(out->K[c] >> l & 1) || trim__tiles_fit_level(s, l, bytes);
		}
		if (fits)
			out->fits_alone |= 1ull << c;
		if (fits && out->E[c] < out->emin_fit)
			out->emin_fit = out->E[c];
	}
}

void trim__node_tensor_reuse(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                             const trim__mapping *m, int t, tensor_figures *out, tensor_reuse *r)
{
	figures_clear(out, s->a->nlevels);
	tensor_tile_bytes(s, f, t, out->tbytes);
	tensor_part(s, costs, f, m, t, 0, NULL, r, out, NULL, NULL);
	figures_fit(s, f, t, out);
}

void trim__node_tensor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                       const trim__mapping *m, int t, tensor_figures *out)
{
	tensor_reuse r;
	trim__node_tensor_reuse(s, costs, f, m, t, out, &r);
}

void trim__tensor_figures_clear(const trim__mapspace *s, const node_frame *f, int t, tensor_figures *out)
{
	figures_clear(out, s->a->nlevels);
	tensor_tile_bytes(s, f, t, out->tbytes);
}

void trim__tensor_bound(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                        const trim__mapping *m, int t, tensor_figures *out, tensor_reuse *r, node_counts *nc)
{
	tensor_part(s, costs, f, m, t, 0, NULL, r, out, NULL, nc);
}

/* 1 if the sliding-window rule (trim__window_slides) may apply to tensor t under
 * loop d0 innermost at known level k: the spatial levels are fixed, and a
 * storage level below k that may hold t, with the storage level above it
 * known, comes before any storage level looping on the axis's dims. */
static int window_may_slide(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int k,
                            int d0)
{
	const struct trim_arch *a = s->a;
	const int d1 = s->wpartner[t][d0];
	if (!f->allsp || m->f[k][d0] <= 1 || d1 < 0)
		return 0;
	for (int l = k + 1, prev = k; l < a->nlevels; l++) {
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		if (a->lv[l].keep[t] && f->known[prev])
			return 1;
		if (m->f[l][d0] > 1 || m->f[l][d1] > 1)
			return 0;
		prev = l;
	}
	return 0;
}

int trim__joint_moves(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int k, int d)
{
	/* a variant changes the tensors indexed by its dim alone, unless
	 * every loop of its level is on such dims (no reuse to lose), and
	 * may slide the windows of those with an axis of two dims, one its dim */
	if (s->dwindow[t] >> d & 1)
		return window_may_slide(s, f, m, t, k, d) ? 2 : 0;
	if (!(s->dsingle[t] >> d & 1))
		return 0;
	for (int e = 0; e < TRIM_NDIMS; e++)
		if (m->f[k][e] > 1 && !(s->dsingle[t] >> e & 1))
			return 1;
	return 0;
}

void trim__window_fills(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, const int *inner,
                        int64_t *fills)
{
	const struct trim_arch *a = s->a;
	unsigned wk = 0;
	for (int k = 0; k < a->nlevels; k++) {
		fills[k] = 0;
		if (inner[k] >= 0 && trim__joint_moves(s, f, m, t, k, inner[k]) == 2)
			wk |= 1u << k;
	}
	if (!wk || !f->allsp)
		return;
	for (int l = 1, prev = 0; l < a->nlevels; l++) {
		if (a->lv[l].type != TRIM__LVL_STORAGE)
			continue;
		if (a->lv[l].keep[t] && f->known[prev])
			fills[l] = f->inst[l] * trim__window_slides(s, f, m, t, l, wk, inner);
		prev = l;
	}
}

double trim__joint_tensor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                          const trim__mapping *m, int t, tensor_reuse *r, const int *inner, double *E)
{
	return tensor_part(s, costs, f, m, t, 1, inner, r, NULL, E, NULL);
}


void trim__joint_variant(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                         const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                         joint_variants *jv, int v)
{
	const trim__intra *w = s->w;
	const int nl = s->a->nlevels;
	int inner[TRIM__MAX_LEVELS];
	for (int l = 0; l < nl; l++)
		inner[l] = -1;
	inner[jv->k[v]] = jv->d[v];
	for (int ti = 0; ti < 3; ti++) {
		const int t = trim__bound_torder[ti];
		int64_t *fills = jv->slide[v][t];
		for (int l = 0; l < nl; l++)
			fills[l] = 0;
		if (!w->t[t].present)
			continue;
		const int mv = trim__joint_moves(s, f, m, t, jv->k[v], jv->d[v]);
		int changes = mv == 1;
		if (mv == 2) {
			/* windows that fill no level beyond variant 0's fewest
			 * over the choices keeping it: variant 0's figures */
			trim__window_fills(s, f, m, t, inner, fills);
			for (int l = 0; l < nl && !changes; l++)
				changes = fills[l] > tf[t]->inkeep[l];
		}
		if (!changes) {
			jv->e[v] += tf[t]->emin;
			memcpy(jv->E[v][t], tf[t]->E, (size_t)tf[t]->nch * sizeof *tf[t]->E);
			continue;
		}
		/* a refill at every step of level k: tensor_part reads only which
		 * levels refill t (and slide none), so another loop of k that
		 * refills t gave the same figures */
		const int k = jv->k[v], src = mv == 1 && !s->test_joint_reuse_off ? jv->refill_v[t][k] : -1;
		if (src >= 0) {
			if (s->test_joint_reuses) /* for tests (trim__mapspace) */
				(*s->test_joint_reuses)++;
			jv->e[v] += jv->refill_emin[t][k];
			memcpy(jv->E[v][t], jv->E[src][t], (size_t)tf[t]->nch * sizeof *tf[t]->E);
			continue;
		}
		const double e = tensor_part(s, costs, f, m, t, v, inner, r[t], NULL, jv->E[v][t], NULL);
		jv->e[v] += e;
		if (mv == 1) {
			jv->refill_v[t][k] = v;
			jv->refill_emin[t][k] = e;
		}
	}
}
