/*
 * The lower bound of a node of the factorisation tree (docs/model.md,
 * "Bounds"): valid for every completion of its factors, every bypass choice
 * and every order.
 */
#include "search_int.h"

/* Lower bound, valid for every completion of the factors, every bypass choice
 * and every order, on the cost of the mappings below a node of the tree
 * (docs/model.md, "Mapspace and search"). The node fixes the factors of the
 * first `depth` slots of s->tord (the spatial levels first, innermost
 * first); m holds them.
 * Per tensor and keep choice (every level that may hold it):
 * - compulsory traffic: the outermost level reads (result: receives) every
 *   element the workload touches at least once;
 * - at each boundary below a storage level l whose levels above are all
 *   fixed, the words crossing it are read from (result: written into) the
 *   innermost holder above it, and the holder below is entered as often;
 * - once the spatial levels are fixed: every instance of a holder below a
 *   spatial level receives (result: drains) every element its share of the
 *   workload touches at least once, and its parent reads at least the
 *   distinct elements of one parent instance's share (multicast) or every
 *   delivery; the innermost holder feeds every MAC: MACs words when no
 *   spatial level with bounds > 1 is between, else per step the distinct
 *   elements of the spatial tile (multicast / reduction) or one word per
 *   PE; every partial sum enters the network;
 * - before that: the innermost holder feeds MACs / F words, F the fan-out
 *   of the multicasting (result: reducing) spatial levels below it.
 * Cycles: the evaluator on the count-wise minimum over the choices (no MAC
 * feed), with the active PEs and instances once the spatial levels are
 * fixed; energy: the sum over tensors of the cheapest choice, plus MACs and
 * leakage. */

static void node_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth, int64_t zero_macs,
                       trim__mapping *m, trim__eval *ev, double *lb, node_choices *out, node_counts *nc, int joint,
                       double cut, stationary_workspace *sw, const node_frame *act);

void trim__mapspace_node_lb(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb,
                            stationary_workspace *sw)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, NULL, NULL, 0, HUGE_VAL, sw, NULL);
}

void trim__node_bound_joint(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb,
                            stationary_workspace *sw)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, NULL, NULL, 1, HUGE_VAL, sw, NULL);
}

void trim__node_bound_above(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                            int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, node_choices *out,
                            double cut, stationary_workspace *sw)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, out, NULL, 0, cut, sw, NULL);
}

int trim__node_tensor_floors(const trim__mapspace *s, const trim__level_cost *costs, int depth, int64_t zero_macs,
                             const trim__mapping *m, double *fig)
{
	node_frame f;
	if (trim__node_frame(s, costs, depth, zero_macs, m, &f))
		return 0;
	for (int t = 0; t < 3; t++) {
		fig[t] = 0;
		if (s->w->t[t].present) {
			tensor_figures tf;
			trim__node_tensor(s, costs, &f, m, t, &tf);
			fig[t] = tf.emin_fit;
		}
	}
	return 1;
}

void trim__node_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                      int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, node_choices *out,
                      stationary_workspace *sw)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, out, NULL, 0, HUGE_VAL, sw, NULL);
}

/* 1 if keep choices cc[t] (masks K) fit the capacities whose tiles are known. */
int trim__choices_fit(const trim__mapspace *s, const int *extk, const int64_t *const *tbytes,
                      const unsigned *const *K, const int *nch, const int *cc)
{
	for (int l = 1; l < s->a->nlevels; l++) {
		if (!extk[l])
			continue;
		int64_t bytes[3];
		for (int t = 0; t < 3; t++)
			bytes[t] = nch[t] && (K[t][cc[t]] >> l & 1) ? tbytes[t][l] : 0;
		if (!trim__tiles_fit_level(s, l, bytes))
			return 0;
	}
	return 1;
}

/* The cheapest sum over tensors of E[t][choice] whose choices fit the
 * known tiles (HUGE_VAL: none fits): the choices of each tensor by
 * increasing energy, a branch left as soon as it cannot beat the best. */
static double cheapest_fit(const trim__mapspace *s, const int *extk, const tensor_figures *const *tf,
                           const double *const *E)
{
	int ord[3][64], n[3], nch[3];
	const int64_t *tbytes[3];
	const unsigned *K[3];
	double lo[4] = {0, 0, 0, 0}; /* lo[t]: the sum of the cheapest of tensors >= t */
	for (int t = 0; t < 3; t++) {
		nch[t] = tf[t]->nch;
		tbytes[t] = tf[t]->tbytes;
		K[t] = tf[t]->K;
		n[t] = nch[t] ? nch[t] : 1;
		for (int i = 0; i < n[t]; i++) { /* insertion sort: few choices */
			int j = i;
			while (j > 0 && nch[t] && E[t][ord[t][j - 1]] > E[t][i]) {
				ord[t][j] = ord[t][j - 1];
				j--;
			}
			ord[t][j] = i;
		}
	}
	for (int t = 2; t >= 0; t--)
		lo[t] = lo[t + 1] + (nch[t] ? E[t][ord[t][0]] : 0);
	double best = HUGE_VAL;
	for (int i0 = 0; i0 < n[0]; i0++) {
		const double e0 = nch[0] ? E[0][ord[0][i0]] : 0;
		if (e0 + lo[1] >= best)
			break;
		for (int i1 = 0; i1 < n[1]; i1++) {
			const double e1 = e0 + (nch[1] ? E[1][ord[1][i1]] : 0);
			if (e1 + lo[2] >= best)
				break;
			for (int i2 = 0; i2 < n[2]; i2++) {
				const double e = e1 + (nch[2] ? E[2][ord[2][i2]] : 0);
				if (e >= best)
					break;
				const int cc[3] = {ord[0][i0], ord[1][i1], ord[2][i2]};
				if (trim__choices_fit(s, extk, tbytes, K, nch, cc)) {
					best = e; /* the later choices of tensor 2 cost more */
					break;
				}
			}
		}
	}
	return best;
}

void trim__node_frame_extents(const trim__mapspace *s, const trim__mapping *m, node_frame *f)
{
	const int nl = s->a->nlevels;
	for (int d = 0; d < TRIM_NDIMS; d++)
		f->sfx[nl][d] = 1;
	for (int l = nl - 1; l >= 0; l--)
		for (int d = 0; d < TRIM_NDIMS; d++)
			f->sfx[l][d] = f->sfx[l + 1][d] * m->f[l][d];
}

int trim__node_frame(const trim__mapspace *s, const trim__level_cost *costs, int depth, int64_t zero_macs,
                     const trim__mapping *m, node_frame *f)
{
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	memset(f->fixed, 0, sizeof f->fixed);
	memset(f->known, 0, sizeof f->known);
	for (int i = 0; i < depth; i++)
		f->fixed[s->slot[s->tord[i]]] = 1;
	f->allsp = 1;
	for (int l = 0, pre = 1; l < nl; l++) {
		if (a->lv[l].type == TRIM__LVL_COMPUTE)
			continue;
		pre &= f->fixed[l];
		f->known[l] = pre && a->lv[l].type == TRIM__LVL_STORAGE;
		if (a->lv[l].type == TRIM__LVL_SPATIAL)
			f->allsp &= f->fixed[l];
	}
	/* spatial levels: misfit cuts the node; instances and active PEs */
	f->active = 1;
	for (int l = 0; l < nl; l++) {
		f->inst[l] = f->active;
		if (a->lv[l].type == TRIM__LVL_SPATIAL && f->fixed[l]) {
			int64_t fx[TRIM_NDIMS], fy[TRIM_NDIMS];
			if (!trim__spatial_split(&a->lv[l], s->axis[l], m->f[l], 0, 1, 1, fx, fy))
				return 1;
			for (int d = 0; d < TRIM_NDIMS; d++)
				f->active *= m->f[l][d];
		}
	}
	f->inst[nl] = f->active;
	f->act_sp = 0;
	/* a ragged completion pads its spatial factors: its instances and
	 * active PEs are the padded products above (docs/model.md, "Imperfect
	 * factorisations"), but not the extents below */
	if (s->imperfect && trim__mapspace_node_ragged(s, depth, m))
		return 2;
	/* the extents at and below each level: suffix products of the factors
	 * (they multiply to the bounds, node completions included) */
	trim__node_frame_extents(s, m, f);
	/* the extents at and below l are every completion's once the levels
	 * from l down are fixed (all of them with the last slot's rest) */
	f->sfx_exact[nl] = 1;
	for (int l = nl - 1; l >= 0; l--)
		f->sfx_exact[l] = f->sfx_exact[l + 1] &&
		                  (depth >= s->nslots - 1 || a->lv[l].type == TRIM__LVL_COMPUTE || f->fixed[l]);
	/* per-instance extents below each level (the bound over the spatial
	 * factors above it), when the spatial levels are fixed; a dim split by
	 * a spatial level above no longer runs over a contiguous range */
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int64_t e = w->bound[d];
		int c = 1;
		for (int l = 0; l < nl; l++) {
			f->pext[l][d] = e;
			f->contig[l][d] = c;
			if (a->lv[l].type == TRIM__LVL_SPATIAL && f->allsp && m->f[l][d] > 1) {
				e /= m->f[l][d];
				c = 0;
			}
		}
	}
	f->steps = f->allsp ? w->macs / f->active : 0;
	/* tiles whose extents are known (every level above fixed) let the keep
	 * choices be combined under the capacities */
	for (int l = 0, pre = 1; l < nl; l++) {
		f->extk[l] = pre && a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].capacity_bytes > 0;
		if (a->lv[l].type != TRIM__LVL_COMPUTE)
			pre &= f->fixed[l];
	}
	/* the MACs' energy, as the evaluator computes it: with the tensors so
	 * far, what may already exceed a caller's cut */
	f->emacs = 0;
	for (int l = 0; l < nl; l++)
		if (a->lv[l].type == TRIM__LVL_COMPUTE) {
			const trim__level_cost *c = &costs[l];
			double gated = a->lv[l].zero_gate ? c->gated_mac_pj : c->mac_pj;
			f->emacs = (double)(w->macs - zero_macs) * c->mac_pj + (double)zero_macs * gated;
		}
	return 0;
}


/* What trim__eval_act reads, for the architecture's levels, with no
 * tensor's counts: the MACs, the active PEs and the instances (the whole
 * activity is ~10 KB: zeroing all of it was a tenth of the bound's time). */
static void activity_clear(const trim__mapspace *s, const node_frame *f, int64_t zero_macs, trim__activity *x)
{
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	x->steps = x->padded_macs = 0;
	x->exact = 0;
	int64_t(*rows[])[3] = {x->tile,       x->fills,      x->reads,    x->updates, x->drains,
	                       x->down_words, x->down_dests, x->up_words, x->up_out,
	                       x->unicast,    x->mcast,      x->mcast_dests, x->reductions};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		memset(rows[i], 0, (size_t)nl * sizeof *rows[i]);
	x->macs = s->w->macs;
	x->zero_macs = zero_macs;
	x->active_pes = f->allsp ? f->active : f->act_sp ? f->act_active : (a->total_pes > 0 ? a->total_pes : 1);
	for (int l = 0; l < nl; l++)
		x->instances[l] = f->allsp ? f->inst[l]
		                  : f->act_sp ? f->act_inst[l]
		                              : (a->lv[l].instances > 0 ? a->lv[l].instances : 1);
}

/* Under Timeloop's counting a storage level leaks on its used instances
 * (docs/mapping.md, rule 6), which activity_clear's instances (every
 * instance) overstate until the spatial levels are fixed: at least one. */
static void static_used_floor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                              trim__eval *ev)
{
	if (f->allsp || f->act_sp || costs[0].count != TRIM_COUNT_TIMELOOP)
		return;
	for (int l = 0; l < s->a->nlevels; l++)
		ev->static_pj[l] = trim__eval_leak_pj(s->a, costs, l, 1) * ev->cycles;
}

double trim__node_static_floor(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                               const trim__mapping *m, int64_t zero_macs, trim__eval *ev)
{
	activity_clear(s, f, zero_macs, &ev->act);
	trim__eval_act(s->w, s->a, costs, m, ev);
	static_used_floor(s, costs, f, ev);
	double e = 0;
	for (int l = 0; l < s->a->nlevels; l++)
		e += ev->static_pj[l];
	return e;
}

void trim__joint_variants_of(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, joint_variants *jv)
{
	const struct trim_arch *a = s->a;
	int nvar = 1;
	for (int k = 0; k < a->nlevels; k++) {
		if (!f->known[k] || a->lv[k].type != TRIM__LVL_STORAGE)
			continue;
		int loops = 0;
		for (int d = 0; d < TRIM_NDIMS; d++)
			loops += m->f[k][d] > 1;
		/* a permutation constraint's first dim with a loop here is the
		 * innermost loop of every mapping below: its variant alone */
		int inner = -1;
		for (int i = 0; i < s->ncperm[k] && inner < 0; i++)
			if (m->f[k][s->cperm[k][i]] > 1)
				inner = s->cperm[k][i];
		const int nv = inner >= 0 ? 1 : loops;
		if (loops > 1 && nvar + nv > TRIM__JOINT_VARIANTS)
			break; /* every variant of a level, or none */
		for (int d = 0; d < TRIM_NDIMS && loops > 1; d++)
			if (m->f[k][d] > 1 && (inner < 0 || d == inner)) {
				jv->k[nvar] = k;
				jv->d[nvar++] = d;
			}
	}
	jv->n = nvar;
	for (int v = 0; v < nvar; v++)
		jv->e[v] = 0;
	for (int t = 0; t < 3; t++)
		for (int k = 0; k < a->nlevels; k++)
			jv->refill_v[t][k] = -1;
}

double trim__joint_raise(const trim__mapspace *s, const joint_variants *jv, double etensor)
{
	/* per level, the cheapest innermost loop */
	for (int k = 0; k < s->a->nlevels && jv->n > 1; k++) {
		double bk = HUGE_VAL;
		int any = 0;
		for (int v = 1; v < jv->n; v++)
			if (jv->k[v] == k) {
				any = 1;
				if (jv->e[v] < bk)
					bk = jv->e[v];
			}
		if (any && bk > etensor)
			etensor = bk;
	}
	return etensor;
}

double trim__joint_energies(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                            const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                            double etensor, joint_variants *jv)
{
	for (int v = 1; v < jv->n; v++)
		trim__joint_variant(s, costs, f, m, tf, r, jv, v);
	return trim__joint_raise(s, jv, etensor);
}

/* The joint order across levels (docs/model.md, "Bounds"): every joint
 * level's innermost loop at once. A tensor's figures under a combination
 * depend only on how each level's innermost loop moves it
 * (trim__joint_moves: not, a refill at every step, or a sliding window on
 * that dim): they are computed once per such key (no move anywhere:
 * variant 0's; one level: that level's variant's). The combinations are
 * tried with each level's variants from the cheapest, and the search stops
 * as soon as one costs no more than etensor (nothing to raise). */
enum { ACROSS_LEVELS = 4, ACROSS_COMBOS = 256, ACROSS_KEYS = 32 };

/* Tensor t's key under variant v at joint level i: 4 bits per level. */
static unsigned across_key(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int k, int d,
                           int i)
{
	const int mv = trim__joint_moves(s, f, m, t, k, d);
	return (unsigned)(mv == 0 ? 0 : mv == 1 ? 1 : 2 + d) << (4 * i);
}

typedef struct {
	int n;
	unsigned key[ACROSS_KEYS];
	const double *E[ACROSS_KEYS];
	double emin[ACROSS_KEYS];
	double own[ACROSS_KEYS][64];
} across_cache;

double trim__joint_across(const trim__mapspace *s, const trim__level_cost *costs, const node_frame *f,
                          const trim__mapping *m, const tensor_figures *const *tf, tensor_reuse *const *r,
                          const joint_variants *jv, double etensor)
{
	const trim__intra *w = s->w;
	int lev[ACROSS_LEVELS], first[ACROSS_LEVELS], nv[ACROSS_LEVELS], nlev = 0;
	for (int v = 1; v < jv->n; v++) { /* the variants come level by level */
		if (nlev == 0 || jv->k[v] != lev[nlev - 1]) {
			if (nlev == ACROSS_LEVELS)
				return etensor;
			lev[nlev] = jv->k[v];
			first[nlev] = v;
			nv[nlev++] = 0;
		}
		nv[nlev - 1]++;
	}
	if (nlev < 2)
		return etensor; /* one level: its variants are the combinations */
	int64_t ncomb = 1;
	for (int i = 0; i < nlev; i++)
		ncomb *= nv[i];
	if (ncomb > ACROSS_COMBOS)
		return etensor;
	/* each level's variants by their cheapest sum */
	int ord[ACROSS_LEVELS][TRIM__JOINT_VARIANTS];
	for (int i = 0; i < nlev; i++)
		for (int j = 0; j < nv[i]; j++) {
			int v = first[i] + j, q = j;
			while (q > 0 && jv->e[ord[i][q - 1]] > jv->e[v]) {
				ord[i][q] = ord[i][q - 1];
				q--;
			}
			ord[i][q] = v;
		}
	/* per tensor, the figures known by key: no move, and each variant's */
	across_cache cache[3];
	double scratch[64];
	unsigned keyv[TRIM__JOINT_VARIANTS][3];
	for (int i = 0; i < nlev; i++)
		for (int j = 0; j < nv[i]; j++)
			for (int t = 0; t < 3; t++)
				keyv[first[i] + j][t] = w->t[t].present ? across_key(s, f, m, t, lev[i], jv->d[first[i] + j], i) : 0;
	for (int t = 0; t < 3; t++) {
		across_cache *C = &cache[t];
		C->n = 1;
		C->key[0] = 0;
		C->E[0] = tf[t]->E;
		C->emin[0] = tf[t]->emin;
		for (int i = 0; w->t[t].present && i < nlev; i++)
			for (int j = 0; j < nv[i]; j++) {
				const int v = first[i] + j;
				const unsigned key = keyv[v][t];
				int known = 0;
				for (int c = 0; c < C->n && !known; c++)
					known = C->key[c] == key;
				if (known || C->n == ACROSS_KEYS)
					continue;
				double e = HUGE_VAL;
				for (int c = 0; c < tf[t]->nch; c++)
					if (jv->E[v][t][c] < e)
						e = jv->E[v][t][c];
				C->key[C->n] = key;
				C->E[C->n] = jv->E[v][t];
				C->emin[C->n++] = tf[t]->nch ? e : 0;
			}
	}
	const int complete = tf[0]->complete && tf[1]->complete && tf[2]->complete;
	int pos[ACROSS_LEVELS] = {0};
	double best = HUGE_VAL;
	for (;;) {
		double sum = 0;
		const double *E[3];
		for (int t = 0; t < 3; t++) {
			E[t] = tf[t]->E;
			if (!w->t[t].present)
				continue;
			across_cache *C = &cache[t];
			unsigned key = 0, window = 0;
			int64_t fills[TRIM__MAX_LEVELS] = {0};
			for (int i = 0; i < nlev; i++) {
				const int v = ord[i][pos[i]];
				const unsigned ki = keyv[v][t];
				key |= ki;
				if (ki >> (4 * i) >= 2) {
					window |= 0xfu << (4 * i);
					for (int l = 0; l < s->a->nlevels; l++)
						fills[l] += jv->slide[v][t][l];
				}
			}
			/* windows that fill no level beyond variant 0's fewest over
			 * the choices keeping it: as without them (the other levels'
			 * refills only raise those fills) */
			int changes = 0;
			for (int l = 0; window && l < s->a->nlevels && !changes; l++)
				changes = fills[l] > tf[t]->inkeep[l];
			if (!changes)
				key &= ~window;
			int inner[TRIM__MAX_LEVELS];
			for (int l = 0; l < s->a->nlevels; l++)
				inner[l] = -1;
			for (int i = 0; i < nlev; i++)
				if (!(window >> (4 * i) & 1) || changes)
					inner[lev[i]] = jv->d[ord[i][pos[i]]];
			int c = 0;
			while (c < C->n && C->key[c] != key)
				c++;
			double emin;
			if (c < C->n) {
				E[t] = C->E[c];
				emin = C->emin[c];
			} else {
				double *dst = C->n < ACROSS_KEYS ? C->own[C->n] : scratch;
				emin = trim__joint_tensor(s, costs, f, m, t, r[t], inner, dst);
				if (C->n < ACROSS_KEYS) {
					C->key[C->n] = key;
					C->E[C->n] = dst;
					C->emin[C->n++] = emin;
				}
				E[t] = dst;
			}
			sum += emin;
		}
		if (sum < best) {
			const double v = complete ? cheapest_fit(s, f->extk, tf, E) : sum;
			if (v < best)
				best = v;
			if (best <= etensor)
				return etensor;
		}
		int i = nlev - 1;
		while (i >= 0 && ++pos[i] == nv[i])
			pos[i--] = 0;
		if (i < 0)
			break;
	}
	return best > etensor && best < HUGE_VAL ? best : etensor;
}

/* The bound from the tensors' figures: the cheapest keep combination whose
 * known tiles fit (and per joint level the cheapest innermost loop), the
 * MACs, and the evaluator's cycles and leakage on the count-wise minima. */
static void combine(const trim__mapspace *s, const trim__level_cost *costs, int goal, const node_frame *f,
                    const trim__mapping *m, const tensor_figures *const *tf, double etensor,
                    const joint_variants *jv, int64_t zero_macs, trim__eval *ev, double *lb, node_choices *out,
                    node_counts *nc)
{
	const trim__intra *w = s->w;
	const struct trim_arch *a = s->a;
	const int nl = a->nlevels;
	if (out)
		for (int t = 0; t < 3; t++) {
			out->nch[t] = tf[t]->nch;
			memcpy(out->E[t], tf[t]->E, (size_t)tf[t]->nch * sizeof *tf[t]->E);
			memcpy(out->K[t], tf[t]->K, (size_t)tf[t]->nch * sizeof *tf[t]->K);
		}
	if (nc) {
		memcpy(nc->extk, f->extk, (size_t)nl * sizeof *f->extk);
		for (int t = 0; t < 3; t++)
			memcpy(nc->tbytes[t], tf[t]->tbytes, (size_t)nl * sizeof *tf[t]->tbytes);
	}
	/* the cheapest combination of keep choices whose known tiles fit (when
	 * every choice of every tensor is among the 64 kept) */
	if (tf[0]->complete && tf[1]->complete && tf[2]->complete) {
		const double *E[3] = {tf[0]->E, tf[1]->E, tf[2]->E};
		double best = cheapest_fit(s, f->extk, tf, E);
		/* and per joint level, the cheapest innermost loop of those */
		for (int k = 0; jv && k < nl && jv->n > 1 && best < HUGE_VAL; k++) {
			double bk = HUGE_VAL;
			int any = 0;
			for (int v = 1; v < jv->n; v++)
				if (jv->k[v] == k) {
					any = 1;
					const double *Ev[3] = {jv->E[v][0], jv->E[v][1], jv->E[v][2]};
					double b = cheapest_fit(s, f->extk, tf, Ev);
					if (b < bk)
						bk = b;
				}
			if (any && bk > etensor)
				etensor = bk;
		}
		if (best == HUGE_VAL) {
			/* no keep choice fits the capacities whose tiles are known:
			 * no mapping below the node is valid */
			*lb = HUGE_VAL;
			return;
		}
		if (best > etensor)
			etensor = best;
	}
	trim__activity *x = &ev->act;
	activity_clear(s, f, zero_macs, x);
	for (int t = 0; t < 3; t++) {
		if (!w->t[t].present)
			continue;
		const int res = t == 2;
		for (int l = 0; l < nl; l++)
			if (a->lv[l].type == TRIM__LVL_SPATIAL) {
				(res ? x->up_out : x->down_words)[l][t] = tf[t]->net[l];
			} else if (a->lv[l].type == TRIM__LVL_STORAGE) {
				(res ? x->updates : x->reads)[l][t] = tf[t]->rd[l];
				(res ? x->drains : x->fills)[l][t] = tf[t]->in[l];
			}
	}
	trim__eval_act(w, a, costs, m, ev);
	static_used_floor(s, costs, f, ev);
	double energy = ev->mac_pj + etensor;
	for (int l = 0; l < nl; l++)
		energy += ev->static_pj[l];
	double v = goal == TRIM__GOAL_ENERGY ? energy : goal == TRIM__GOAL_DELAY ? ev->cycles : energy * ev->cycles;
	/* the sums above run in another order than the evaluator's: a margin far
	 * above their rounding keeps a tight bound from passing a real cost */
	*lb = v * (1 - 1e-9);
}

void trim__node_combine(const trim__mapspace *s, const trim__level_cost *costs, int goal, const node_frame *f,
                        const trim__mapping *m, const tensor_figures *const *tf, double etensor,
                        const joint_variants *jv, int64_t zero_macs, trim__eval *ev, double *lb, node_choices *out)
{
	combine(s, costs, goal, f, m, tf, etensor, jv, zero_macs, ev, lb, out, NULL);
}

static void node_bound(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth, int64_t zero_macs,
                       trim__mapping *m, trim__eval *ev, double *lb, node_choices *out, node_counts *nc, int joint,
                       double cut, stationary_workspace *sw, const node_frame *act)
{
	if (out)
		out->nch[0] = out->nch[1] = out->nch[2] = 0;
	if (nc)
		nc->complete = 1;
	const trim__intra *w = s->w;
	node_frame f;
	int rc = trim__node_frame(s, costs, depth, zero_macs, m, &f);
	if (rc == 1) {
		*lb = HUGE_VAL; /* a spatial level does not fit */
		return;
	}
	if (rc == 2) {
		/* imperfect factorisations below the node: this bound derives the
		 * extents below a level from the bound and the factors above it,
		 * which ragged rows break; the root's bound, which knows no factor
		 * (the compulsory traffic, the MACs, the networks' floors over any
		 * rows), stands for it; no tie cut (docs/model.md, "Imperfect
		 * factorisations") */
		if (nc)
			nc->complete = 0;
		trim__mapspace s0 = *s; /* the root, which is not ragged */
		s0.imperfect = 0;
		trim__mapping root;
		trim__space_mapping_init(&s0, &root);
		node_bound(&s0, costs, goal, 0, zero_macs, &root, ev, lb, NULL, NULL, 0, cut, sw, f.allsp ? &f : NULL);
		return;
	}
	if (act) {
		/* a ragged node's fixed spatial levels (above): the root's counts
		 * (every completion's, ragged or not) under its instances and
		 * active PEs, which every completion has (the padded products).
		 * The evaluator's cycles then stay at most every completion's: a
		 * compute level's are eff / (active PEs x MACs a cycle), a ragged
		 * completion's steps x eff / (MACs x MACs a cycle) with
		 * steps x active PEs >= MACs (a PE does one MAC a step); a level's
		 * bandwidth divides counts at most the completion's by the same
		 * instances; leakage is the cycles times the same instances */
		f.act_sp = 1;
		f.act_active = act->active;
		memcpy(f.act_inst, act->inst, sizeof f.act_inst);
	}
	/* the joint order (joint: docs/model.md, "Bounds"): one loop of each
	 * known storage level k is its innermost; a tensor indexed by that dim
	 * alone on an axis then changes tile at every step of k's loops and
	 * is reused by none of them. Variant 0: every tensor's best order; each
	 * other variant (k, d): d innermost at k, the other tensors at best.
	 * The bound takes, per level, the smallest sum over its variants. */
	joint_variants jv_store, *jv = joint ? &jv_store : NULL;
	if (jv)
		trim__joint_variants_of(s, &f, m, jv);
	const int nvar = jv ? jv->n : 1;
	tensor_figures tf[3];
	tensor_reuse reuse[3];
	double etensor = 0;
	for (int t = 0; t < 3; t++)
		trim__tensor_figures_clear(s, &f, t, &tf[t]);
	for (int ti = 0; ti < 3; ti++) {
		const int t = trim__bound_torder[ti];
		if (!w->t[t].present)
			continue;
		trim__tensor_bound(s, costs, &f, m, t, &tf[t], &reuse[t], nc);
		etensor += tf[t].emin;
		/* the tensors so far already exceed the caller's cut (energy):
		 * their sum is a bound, the rest is not needed */
		if ((f.emacs + etensor) * (1 - 1e-9) > cut && goal == TRIM__GOAL_ENERGY && nvar == 1) {
			*lb = (f.emacs + etensor) * (1 - 1e-9);
			return;
		}
	}
	if (nvar > 1) {
		const tensor_figures *tq[3] = {&tf[0], &tf[1], &tf[2]};
		tensor_reuse *rq[3] = {&reuse[0], &reuse[1], &reuse[2]};
		etensor = trim__joint_energies(s, costs, &f, m, tq, rq, etensor, jv);
		etensor = trim__joint_across(s, costs, &f, m, tq, rq, jv, etensor);
	}
	const tensor_figures *tp[3] = {&tf[0], &tf[1], &tf[2]};
	/* the stationarity bound (not for the exact tie test, which reads the
	 * counts alone) */
	if (goal != TRIM__GOAL_DELAY && !nc) {
		tensor_reuse *rq[3] = {&reuse[0], &reuse[1], &reuse[2]};
		double st = trim__stationary_bound(s, costs, &f, m, tp, rq, sw);
		if (st > etensor)
			etensor = st;
	}
	combine(s, costs, goal, &f, m, tp, etensor, jv, zero_macs, ev, lb, out, nc);
}

void trim__node_bound_counts(const trim__mapspace *s, const trim__level_cost *costs, int goal, int depth,
                             int64_t zero_macs, trim__mapping *m, trim__eval *ev, double *lb, node_choices *out,
                             node_counts *nc, stationary_workspace *sw)
{
	node_bound(s, costs, goal, depth, zero_macs, m, ev, lb, out, nc, 0, HUGE_VAL, sw, NULL);
}
