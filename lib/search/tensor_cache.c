/*
 * Per factorisation: each tensor's exact counts (and their energy and
 * words) by its keep choice and its own order classes at every level, which
 * is all they depend on, so that an order class is evaluated from cached
 * per-tensor counts.
 */
#include "search_int.h"

/* A new factorisation: forget every entry. */
int trim__tensor_cache_reset(const trim__mapspace *s, tensor_count_cache *c)
{
	if (!c->ent) {
		c->cap = 1024;
		c->nl = s->a->nlevels;
		c->ent = calloc(c->cap, sizeof *c->ent);
		if (!c->ent)
			return TRIM_ENOMEM;
	}
	c->nv = 0;
	c->prep_on[0] = c->prep_on[1] = c->prep_on[2] = 0;
	if (++c->gen == 0) { /* wrapped: clear for real */
		for (uint32_t i = 0; i < c->cap; i++)
			c->ent[i].gen = 0;
		c->gen = 1;
	}
	return 0;
}

/* A new bypass choice (plan p): the per-choice look-up tables. */
int trim__tensor_cache_plan(const trim__mapspace *s, const order_plan *p, tensor_count_cache *c)
{
	for (int t = 0; t < 3; t++) {
		uint64_t n = 1;
		for (int k = 0; k < s->nord; k++)
			n *= (uint64_t)p->tab[k]->nproj[t];
		if (n > c->by_proj_cap[t]) {
			int32_t *q = realloc(c->by_proj[t], n * sizeof *q);
			if (!q)
				return TRIM_ENOMEM;
			c->by_proj[t] = q;
			c->by_proj_cap[t] = n;
		}
		memset(c->by_proj[t], 0xff, n * sizeof *c->by_proj[t]);
	}
	return 0;
}

void trim__tensor_cache_free(tensor_count_cache *c)
{
	free(c->ent);
	free(c->val);
	free(c->energy);
	free(c->words);
	free(c->state);
	for (int t = 0; t < 3; t++) {
		free(c->by_proj[t]);
		trim__act_ws_free(&c->prep_ws[t]);
	}
}

static uint32_t key_hash(const uint8_t *k, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ k[i]) * 16777619u;
	return h;
}

/* The slot of key (found, or the empty one where it goes). */
static uint32_t find_slot(const tensor_count_cache *c, const uint8_t *k, int n)
{
	uint32_t i = key_hash(k, n) & (c->cap - 1);
	for (;; i = (i + 1) & (c->cap - 1)) {
		const tensor_count_entry *e = &c->ent[i];
		if (e->gen != c->gen || (e->len == n && !memcmp(e->key, k, (size_t)n)))
			return i;
	}
}

/* Room for one more entry (hash at most half full, vectors). */
static int make_room(tensor_count_cache *c)
{
	if (2 * ((uint32_t)c->nv + 1) > c->cap) {
		tensor_count_cache d = *c;
		d.cap = c->cap * 2;
		d.ent = calloc(d.cap, sizeof *d.ent);
		if (!d.ent)
			return TRIM_ENOMEM;
		for (uint32_t i = 0; i < c->cap; i++)
			if (c->ent[i].gen == c->gen)
				d.ent[find_slot(&d, c->ent[i].key, c->ent[i].len)] = c->ent[i];
		free(c->ent);
		c->ent = d.ent;
		c->cap = d.cap;
	}
	if (c->nv == c->vcap) {
		int32_t n = c->vcap ? 2 * c->vcap : 256;
		int64_t *v = realloc(c->val, (size_t)n * TRIM__NACTIVITY_ROWS * (size_t)c->nl * sizeof *v);
		if (v)
			c->val = v;
		double *wd = realloc(c->words, (size_t)n * 2 * (size_t)c->nl * sizeof *wd);
		if (wd)
			c->words = wd;
		double *e = realloc(c->energy, (size_t)n * sizeof *e);
		if (e)
			c->energy = e;
		uint8_t *st = realloc(c->state, (size_t)n);
		if (st)
			c->state = st;
		if (!v || !e || !st || !wd)
			return TRIM_ENOMEM;
		c->vcap = n;
	}
	return 0;
}

/* The entry of tensor t for order class code[] of plan p under bypass
 * choice b: looked up, or computed from m (whose orders must then be the
 * class's: *applied tells, apply_all sets them). Returns the entry or -1
 * with W->err set. */
int32_t trim__tensor_cache_entry(const trim__mapspace *s, const order_plan *p, const uint64_t *code, uint64_t oc,
                                 uint64_t b, int t, trim__mapping *m, int *applied, const trim__level_cost *costs,
                                 int64_t zero_macs, search_worker *W)
{
	tensor_count_cache *c = &W->tensor_counts;
	uint64_t pkey = 0;
	for (int k = 0; k < s->nord; k++)
		pkey = pkey * (uint64_t)p->tab[k]->nproj[t] + p->tab[k]->proj[t][code[k]];
	if (c->by_proj[t][pkey] >= 0)
		return c->by_proj[t][pkey];
	uint8_t key[TRIM__TENSOR_KEY_MAX];
	int n = 0;
	key[n++] = (uint8_t)t;
	int ch = trim__keep_choice(s, &W->fbound, t, b);
	key[n++] = (uint8_t)(ch & 0xff);
	key[n++] = (uint8_t)(ch >> 8);
	for (int k = 0; k < s->nord; k++) {
		const order_class_table *tb = p->tab[k];
		int u = tb->proj[t][code[k]], len = (tb->hb >> t & 1) ? tb->proj_len[t][u] : 0;
		if (n + 1 + len > TRIM__TENSOR_KEY_MAX) {
			W->err = trim__error(TRIM_ERANGE, "search: signature too long");
			return -1;
		}
		key[n++] = (uint8_t)len;
		if (len) {
			memcpy(key + n, tb->proj_sig[t] + (size_t)u * TRIM__SIGNATURE_MAX, (size_t)len);
			n += len;
		}
	}
	uint32_t i = find_slot(c, key, n);
	if (c->ent[i].gen != c->gen) {
		if (make_room(c)) {
			W->err = trim__error(TRIM_ENOMEM, "search: out of memory");
			return -1;
		}
		i = find_slot(c, key, n);
		if (!*applied) {
			for (int k = s->nord - 1; k >= 0; k--)
				trim__apply_order(s, p, k, code[k], m);
			*applied = 1;
		}
		(void)oc;
		const int nl = c->nl;
		const int32_t vi = c->nv++;
		/* one preparation per (factorisation, keep choice of t), then
		 * the counts of each of t's order classes */
		if (!c->prep_on[t] || c->prep_ch[t] != ch) {
			c->prep_rc[t] = trim__activity_prepare_tensors(s->w, s->a, m, 1u << t, &c->prep_ws[t]);
			c->prep_on[t] = 1;
			c->prep_ch[t] = ch;
		}
		c->prep_ws[t].count = costs[0].count;
		int rc = c->prep_rc[t] ? c->prep_rc[t] : trim__activity_orders(&c->prep_ws[t], m, &W->tensor_scratch);
		if (rc && rc != TRIM_EINVAL) {
			W->err = rc;
			return -1;
		}
		tensor_count_entry *e = &c->ent[i];
		e->gen = c->gen;
		e->len = (uint16_t)n;
		e->vi = vi;
		memcpy(e->key, key, (size_t)n);
		c->state[vi] = rc ? 2 : 1;
		c->energy[vi] = 0;
		if (!rc) {
			int64_t *v = c->val + (size_t)vi * TRIM__NACTIVITY_ROWS * (size_t)nl;
			for (int j = 0; j < TRIM__NACTIVITY_ROWS; j++) {
				int64_t (*src)[3] = trim__activity_rows(&W->tensor_scratch, j);
				for (int l = 0; l < nl; l++)
					v[j * nl + l] = src[l][t];
			}
			/* the tensor's dynamic energy, by the evaluator's formulas */
			trim__eval *ev = &W->bound_eval;
			ev->act = W->tensor_scratch;
			ev->act.zero_macs = zero_macs;
			trim__eval_act(s->w, s->a, costs, m, ev);
			double en = 0;
			for (int l = 0; l < nl; l++)
				if (s->a->lv[l].type != TRIM__LVL_COMPUTE)
					en += ev->dyn_pj[l][t];
			c->energy[vi] = en;
			double *wd = c->words + (size_t)vi * 2 * (size_t)nl;
			for (int l = 0; l < nl; l++) {
				const trim__activity *y = &W->tensor_scratch;
				wd[2 * l] = wd[2 * l + 1] = 0;
				if (s->a->lv[l].type == TRIM__LVL_STORAGE) {
					wd[2 * l] = (double)(y->reads[l][t] + trim__drain_bw(&costs[l], y->drains[l][t]));
					wd[2 * l + 1] = (double)(y->fills[l][t] + y->updates[l][t]);
				} else if (s->a->lv[l].type == TRIM__LVL_SPATIAL) {
					wd[2 * l] = (double)(y->down_words[l][t] + y->up_out[l][t]);
				}
			}
			W->common_macs = W->tensor_scratch.macs; /* the same for every tensor and order */
			W->common_steps = W->tensor_scratch.steps;
			W->common_active_pes = W->tensor_scratch.active_pes;
			memcpy(W->common_instances, W->tensor_scratch.instances, sizeof W->common_instances);
		}
	}
	return c->by_proj[t][pkey] = c->ent[i].vi;
}
