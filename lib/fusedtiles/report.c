/*
 * trim_fusedtiles_report (include/trim/fusedtiles.h): every chain of a
 * network planned (plan.c), reported as a table or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/energy_int.h"
#include "eval/netcost_int.h"
#include "fusedtiles_int.h"
#include "trim/fusedtiles.h"
#include "trim/search.h"
#include "workload/workload_build_int.h"

_Static_assert((int)TRIM_GOAL_ENERGY == (int)TRIM__GOAL_ENERGY && (int)TRIM_GOAL_DELAY == (int)TRIM__GOAL_DELAY,
               "the public goals are the search's");

static const char dim_letters[] = "NGMCEFRS";

typedef trim__ft_totals totals;

/* The proven gap of a cost over its lower bound, a fraction of the cost. */
static double gap_of(double cost, double lb)
{
	return cost > 0 && lb < cost ? (cost - lb) / cost : 0;
}

/* A group's tiles per axis for people ("E/4 F/2"; "-" when untiled). */
static void group_tiles_table(trim__sb *sb, const trim__ft_group *g)
{
	for (int x = 0; x < g->naxes; x++)
		trim__sb_printf(sb, "%s%c/%lld", x ? " " : "", dim_letters[g->dim[x]], (long long)g->tiles[x]);
	if (!g->naxes)
		trim__sb_puts(sb, "-");
}

/* A group's tiles per axis as a JSON object ({"E": 4, "F": 2}). */
static void group_tiles_json(trim__sb *sb, const trim__ft_group *g)
{
	trim__sb_puts(sb, "{");
	for (int x = 0; x < g->naxes; x++)
		trim__sb_printf(sb, "%s\"%c\": %lld", x ? ", " : "", dim_letters[g->dim[x]], (long long)g->tiles[x]);
	trim__sb_puts(sb, "}");
}

/* The vector operations ops (TRIM__FT_VEC_*) between two layers, for people. */
static const char *vec_name(unsigned ops)
{
	if ((ops & TRIM__FT_VEC_SOFTMAX) && (ops & TRIM__FT_VEC_BATCHNORM))
		return "batchnorm, softmax";
	return ops & TRIM__FT_VEC_SOFTMAX ? "softmax" : "batchnorm";
}

/* The layers of chain c after which vector operation `op` runs, as a JSON list
 * under key (after a comma). */
static void vec_json(trim__sb *sb, const trim__ft_chain *c, const char *key, unsigned op)
{
	trim__sb_printf(sb, "\"%s\": [", key);
	for (int i = 0, n = 0; i + 1 < c->nlayers; i++)
		if (c->vec_ops[i] & op) {
			trim__sb_puts(sb, n++ ? ", " : "");
			trim__sb_json_str(sb, c->layer[i]->layer);
		}
	trim__sb_puts(sb, "]");
}

/* Chain k (from 1) and its plan, for people: every group, the plan's cost and DRAM bytes. */
static void chain_table(trim__sb *sb, const trim__ft_chain *c, const trim__ft_plan *p, int k)
{
	trim__sb_printf(sb, "chain %d: %s..%s (%d layers%s)\n", k, c->layer[0]->layer, c->layer[c->nlayers - 1]->layer,
	                c->nlayers, c->layer[0]->phase == TRIM_PHASE_BW ? ", BW: each intermediate also written" : "");
	for (int g = 0; g < p->ngroups; g++) {
		const trim__ft_group *G = &p->group[g];
		if (G->last > G->first)
			trim__sb_printf(sb, "  fused     %s..%s  tiles ", c->layer[G->first]->layer, c->layer[G->last]->layer);
		else
			trim__sb_printf(sb, "  alone     %s  tiles ", c->layer[G->first]->layer);
		group_tiles_table(sb, G);
		trim__sb_printf(sb, " (%lld", (long long)G->ntiles);
		if (G->kinds > 1) /* padding on a shared axis, or a kept halo: tiles of their own */
			trim__sb_printf(sb, ", %lld kinds", (long long)G->kinds);
		trim__sb_puts(sb, G->halo == 2 ? ", halo kept)" : ")");
		trim__sb_printf(sb, "  cost %.6g  DRAM %.0f B  buffer %lld B\n", G->cost, G->dram_bytes,
		                (long long)G->buffer_bytes);
		for (int i = G->first; i < G->last; i++)
			if (c->vec[i])
				trim__sb_printf(sb, "    %s after %s: in the buffer, per tile\n", vec_name(c->vec_ops[i]),
				                c->layer[i]->layer);
		if (G->last + 1 < c->nlayers && c->vec[G->last])
			trim__sb_printf(sb, "  %-9s after %s: in DRAM (cost in the next group's)\n",
			                vec_name(c->vec_ops[G->last]), c->layer[G->last]->layer);
	}
	trim__sb_printf(sb, "  plan: cost %.6g (layer by layer %.6g), lower bound %.6g%s", p->cost, p->lbl_cost,
	                p->lower_bound, p->exact ? ", exact" : ", not proven exact");
	if (!p->exact)
		trim__sb_printf(sb, " (gap %.2f%%%s)", 100 * gap_of(p->cost, p->lower_bound),
		                p->stopped ? ", time limit" : "");
	trim__sb_printf(sb, "; DRAM %.0f B (layer by layer %.0f B, saved %.0f B)\n", p->dram_bytes, p->lbl_dram_bytes,
	                p->lbl_dram_bytes - p->dram_bytes);
}

/* Chain k (from 0) and its plan as a JSON object, after a comma from the second on. */
static void chain_json(trim__sb *sb, const trim__ft_chain *c, const trim__ft_plan *p, int k)
{
	trim__sb_puts(sb, k ? ",\n    {" : "\n    {");
	vec_json(sb, c, "batchnorm_after", TRIM__FT_VEC_BATCHNORM);
	trim__sb_puts(sb, ", \"cost\": ");
	trim__sb_json_double(sb, p->cost);
	trim__sb_printf(sb, ", \"dram_bytes\": %.17g, \"exact\": %s, \"gap\": ", p->dram_bytes,
	                p->exact ? "true" : "false");
	trim__sb_json_double(sb, gap_of(p->cost, p->lower_bound));
	trim__sb_puts(sb, ", \"groups\": [");
	for (int g = 0; g < p->ngroups; g++) {
		const trim__ft_group *G = &p->group[g];
		trim__sb_printf(sb, "%s{\"buffer_bytes\": %lld, \"cost\": ", g ? ", " : "", (long long)G->buffer_bytes);
		trim__sb_json_double(sb, G->cost);
		trim__sb_printf(sb, ", \"dram_bytes\": %.17g, \"first\": ", G->dram_bytes);
		trim__sb_json_str(sb, c->layer[G->first]->layer);
		trim__sb_printf(sb, ", \"fused\": %s, \"halo\": \"%s\", \"kinds\": %lld, \"last\": ",
		                G->last > G->first ? "true" : "false",
		                G->halo == 2 ? "kept" : G->halo ? "recomputed" : "none", (long long)G->kinds);
		trim__sb_json_str(sb, c->layer[G->last]->layer);
		trim__sb_puts(sb, ", \"lower_bound\": ");
		trim__sb_json_double(sb, G->lower_bound);
		trim__sb_printf(sb, ", \"ntiles\": %lld, \"tiles\": ", (long long)G->ntiles);
		group_tiles_json(sb, G);
		trim__sb_puts(sb, "}");
	}
	trim__sb_puts(sb, "], \"layer_by_layer\": {\"cost\": ");
	trim__sb_json_double(sb, p->lbl_cost);
	trim__sb_printf(sb, ", \"dram_bytes\": %.17g}, \"layers\": [", p->lbl_dram_bytes);
	for (int i = 0; i < c->nlayers; i++) {
		trim__sb_puts(sb, i ? ", " : "");
		trim__sb_json_str(sb, c->layer[i]->layer);
	}
	trim__sb_puts(sb, "], \"lower_bound\": ");
	trim__sb_json_double(sb, p->lower_bound);
	trim__sb_printf(sb, ", \"phase\": \"%s\", \"pruned\": %lld, \"searches\": %lld, ",
	                c->layer[0]->phase == TRIM_PHASE_BW ? "BW" : "FW", (long long)p->pruned, (long long)p->searches);
	vec_json(sb, c, "softmax_after", TRIM__FT_VEC_SOFTMAX);
	trim__sb_printf(sb, ", \"stopped\": %s, \"tilings\": %lld}", p->stopped ? "true" : "false",
	                (long long)p->tilings);
}

/* Chains already planned: a chain of the same nests with the same range of
 * fusable layers has the same plan (a transformer's blocks). */
typedef struct {
	trim__ft_chain chain;
	int first_fuse, last_fuse;
	trim__ft_plan *plan;
} planned;

static const trim__ft_plan *planned_find(const planned *d, int n, const trim__ft_chain *c, int ff, int lf)
{
	for (int k = 0; k < n; k++) {
		int same = d[k].chain.nlayers == c->nlayers && d[k].first_fuse == ff && d[k].last_fuse == lf &&
		           !memcmp(d[k].chain.vec, c->vec, sizeof c->vec) &&
		           !memcmp(d[k].chain.vec_ops, c->vec_ops, sizeof c->vec_ops) && d[k].chain.glb == c->glb &&
		           !memcmp(d[k].chain.reserved, c->reserved, sizeof c->reserved) && d[k].chain.written == c->written;
		for (int i = 0; same && i < c->nlayers; i++)
			same = trim__ft_same_nest(d[k].chain.layer[i], c->layer[i]);
		if (same)
			return d[k].plan;
	}
	return NULL;
}

static void add(totals *t, const trim__ft_plan *p)
{
	t->chains++;
	t->cost += p->cost;
	t->lbl_cost += p->lbl_cost;
	t->lower_bound += p->lower_bound;
	t->energy_pj += p->energy_pj;
	t->cycles += p->cycles;
	t->lbl_energy_pj += p->lbl_energy_pj;
	t->lbl_cycles += p->lbl_cycles;
	t->dram += p->dram_bytes;
	t->lbl_dram += p->lbl_dram_bytes;
	t->exact = t->exact && p->exact;
	t->stopped |= p->stopped;
	if (p->buffer_bytes > t->buffer)
		t->buffer = p->buffer_bytes;
	for (int g = 0; g < p->ngroups; g++)
		t->fused_groups += p->group[g].last > p->group[g].first;
}

static int check_args(const trim_network *net, const trim_workloads *w, const trim_arch *arch, int goal,
                      int threads, double time_limit, char **out)
{
	if (!out)
		return trim__error(TRIM_EINVAL, "trim_fusedtiles_report: NULL out");
	*out = NULL;
	if (!net || !w || !arch)
		return trim__error(TRIM_EINVAL, "trim_fusedtiles_report: NULL argument");
	int rc = trim__workloads_check_origin(w, net, "trim_fusedtiles_report");
	if (rc)
		return rc;
	if (goal != TRIM_GOAL_ENERGY && goal != TRIM_GOAL_DELAY)
		return trim__error(TRIM_EINVAL, "trim_fusedtiles_report: goal %d: fused groups are searched for "
		                   "energy (%d) or delay (%d); EDP is not yet", goal, TRIM_GOAL_ENERGY, TRIM_GOAL_DELAY);
	if (threads < 1)
		return trim__error(TRIM_EINVAL, "trim_fusedtiles_report: threads %d: at least 1", threads);
	if (!(time_limit >= 0) || time_limit > 1e9)
		return trim__error(TRIM_EINVAL, "trim_fusedtiles_report_within: time limit %g s: 0 (none) or a number "
		                   "of seconds up to 1e9", time_limit);
	return 0;
}

/* The FW intra index of layer_index li (-1 if none). */
static int fw_index(const trim_workloads *w, int li)
{
	for (size_t k = 0; trim__workloads_intra(w, k); k++) {
		const trim__intra *x = trim__workloads_intra(w, k);
		if (x->phase == TRIM_PHASE_FW && x->layer_index == li)
			return (int)k;
	}
	return -1;
}

/* A BW chain (trim__ft_network_bw_links) from BW workload s, which no link
 * reaches, into c; its fusable range ff..lf: the positions whose layers'
 * FW workloads lie in first..last. */
static void bw_chain(const trim_workloads *w, const trim__cache_plan *cp, const int *bw, size_t s, int first,
                     int last, trim__ft_chain *c, int *ff, int *lf)
{
	memset(c, 0, sizeof *c);
	c->glb = cp->glb;
	c->written = 1;
	*ff = first < 0 ? 0 : -1;
	*lf = first < 0 ? TRIM__FT_MAX_LAYERS - 1 : -2;
	for (size_t k = s;; k = (size_t)bw[k] - 1) {
		int at = c->nlayers++;
		c->layer[at] = trim__workloads_intra(w, k);
		c->reserved[at] = cp->glb > 0 ? cp->reserved[k] : 0;
		int f = fw_index(w, c->layer[at]->layer_index);
		if (first >= 0 && f >= first && f <= last) {
			if (*ff < 0)
				*ff = at;
			*lf = at;
		}
		if (!bw[k] || c->nlayers == TRIM__FT_MAX_LAYERS)
			break;
	}
	if (*lf > c->nlayers - 1)
		*lf = c->nlayers - 1;
	if (*ff < 0) /* none in range: no fused group */
		*ff = c->nlayers, *lf = c->nlayers - 1;
}

/* The chain starting at intra workload *i or after it (*i moves past it;
 * from n on, the BW chains, at *i - n): 0 when none is left; its fusable
 * range ff..lf from first..last. */
static int next_chain(const trim_workloads *w, const trim__cache_plan *cp, const int *link, const int *bw, size_t n,
                      size_t *i, int first, int last, trim__ft_chain *c, int *ff, int *lf)
{
	while (*i < n && !link[*i])
		(*i)++;
	if (*i >= n) {
		/* a BW chain starts where no BW link arrives */
		for (; *i < 2 * n; (*i)++) {
			size_t s = *i - n;
			int reached = 0;
			for (size_t k = 0; k < n && !reached; k++)
				reached = bw[k] == (int)s + 1;
			if (bw[s] && !reached) {
				bw_chain(w, cp, bw, s, first, last, c, ff, lf);
				(*i)++;
				return 1;
			}
		}
		return 0;
	}
	size_t j = *i;
	while (link[j] && j + 1 - *i < TRIM__FT_MAX_LAYERS)
		j++;
	memset(c, 0, sizeof *c);
	c->nlayers = (int)(j - *i + 1);
	c->glb = cp->glb;
	for (size_t k = *i; k <= j; k++) {
		c->layer[k - *i] = trim__workloads_intra(w, k);
		c->reserved[k - *i] = cp->glb > 0 ? cp->reserved[k] : 0;
		unsigned ops = k < j ? (unsigned)link[k] >> 1 : 0u;
		c->vec_ops[k - *i] = (unsigned char)ops;
		c->vec[k - *i] = (unsigned char)((ops & 1u) + (ops >> 1 & 1u));
	}
	/* fused groups only within the range (none when it misses the chain) */
	*ff = 0;
	*lf = c->nlayers - 1;
	if (first >= 0) {
		*ff = first > (int)*i ? first - (int)*i : 0;
		*lf = last < (int)j ? last - (int)*i : c->nlayers - 1;
	}
	*i = j + 1;
	return 1;
}

/* Every chain of the report with its plan (one plan for identical chains),
 * and the totals: what the writers write. */
typedef struct {
	const trim_workloads *w;
	const trim_arch *arch;
	int B, goal;
	int nchains;
	trim__ft_chain *chain;      /* nchains */
	const trim__ft_plan **plan; /* nchains, into the distinct plans */
	totals t;
} fused_report;

/* The goal's name in both reports. */
static const char *goal_name(int goal) { return goal == TRIM_GOAL_DELAY ? "delay" : "energy"; }

/* The fused tiles for people: the network, every chain's plan, the totals. */
static int fused_table(const void *report, trim__sb *sb)
{
	const fused_report *r = report;
	const totals *t = &r->t;
	trim__sb_printf(sb, "fused tiles: network %s on %s, buffer level %s, goal %s (%s)\n", r->w->network,
	                r->arch->name, r->arch->lv[r->B].name, goal_name(r->goal),
	                r->goal == TRIM_GOAL_DELAY ? "cycles" : "pJ");
	for (int k = 0; k < r->nchains; k++)
		chain_table(sb, &r->chain[k], r->plan[k], k + 1);
	double gap = gap_of(t->cost, t->lower_bound);
	trim__sb_printf(sb, "total over %d chain(s): %d fused group(s); cost %.6g (layer by layer %.6g), lower "
	                "bound %.6g%s", t->chains, t->fused_groups, t->cost, t->lbl_cost, t->lower_bound,
	                t->exact ? ", exact" : ", not proven exact");
	if (!t->exact)
		trim__sb_printf(sb, " (gap %.2f%%%s)", 100 * gap, t->stopped ? ", time limit" : "");
	trim__sb_printf(sb, "; DRAM %.0f B (layer by layer %.0f B, saved %.0f B); buffer %lld B\n", t->dram,
	                t->lbl_dram, t->lbl_dram - t->dram, (long long)t->buffer);
	return 0;
}

/* The fused tiles as one JSON object: the network, every chain's plan, the totals. */
static int fused_json(const void *report, trim__sb *sb)
{
	const fused_report *r = report;
	const totals *t = &r->t;
	trim__sb_puts(sb, "{\n  \"architecture\": ");
	trim__sb_json_str(sb, r->arch->name);
	trim__sb_puts(sb, ",\n  \"buffer_level\": ");
	trim__sb_json_str(sb, r->arch->lv[r->B].name);
	trim__sb_printf(sb, ",\n  \"goal\": \"%s\",\n  \"network\": ", goal_name(r->goal));
	trim__sb_json_str(sb, r->w->network);
	trim__sb_puts(sb, ",\n  \"chains\": [");
	for (int k = 0; k < r->nchains; k++)
		chain_json(sb, &r->chain[k], r->plan[k], k);
	trim__sb_printf(sb, "%s],\n  \"totals\": {\"buffer_bytes\": %lld, \"chains\": %d, \"cost\": ",
	                t->chains ? "\n  " : "", (long long)t->buffer, t->chains);
	trim__sb_json_double(sb, t->cost);
	trim__sb_printf(sb, ", \"dram_bytes\": %.17g, \"dram_bytes_saved\": %.17g, \"exact\": %s, "
	                "\"fused_groups\": %d, \"gap\": ", t->dram, t->lbl_dram - t->dram,
	                t->exact ? "true" : "false", t->fused_groups);
	trim__sb_json_double(sb, gap_of(t->cost, t->lower_bound));
	trim__sb_puts(sb, ", \"layer_by_layer\": {\"cost\": ");
	trim__sb_json_double(sb, t->lbl_cost);
	trim__sb_printf(sb, ", \"dram_bytes\": %.17g}, \"lower_bound\": ", t->lbl_dram);
	trim__sb_json_double(sb, t->lower_bound);
	trim__sb_printf(sb, ", \"stopped\": %s}\n}\n", t->stopped ? "true" : "false");
	return 0;
}

/* The writers of trim_fusedtiles_report, one per format. */
static const trim__writers fused_writers = {
	"trim_fusedtiles_report", {[TRIM_FORMAT_TABLE] = fused_table, [TRIM_FORMAT_JSON] = fused_json}};

/* The time the chains left (a chain's share is fixed when it starts, and
 * the later ones may finish early): the distinct plans a deadline stopped,
 * planned again, the largest gap (cost less lower bound) first, each with
 * the time left shared by their layers, the cache searching again the
 * layer tiles their deadlines stopped (trim__ft_cache_refresh). A plan is
 * replaced by its retry when that is exact or cheaper, and keeps the
 * higher of the two lower bounds (both hold for the same chain); p is
 * scratch. */
static int retry_stopped(fused_report *r, planned *done, int ndone, const trim__level_cost *costs,
                         trim__ft_plan_opts *o, double deadline, trim__ft_plan *p)
{
	int *order = trim__calloc((size_t)ndone + 1, sizeof *order), n = 0, layers = 0, rc = 0;
	if (!order)
		return trim__error(TRIM_ENOMEM, "trim_fusedtiles_report: out of memory");
	for (int k = 0; k < ndone; k++)
		if (done[k].plan->stopped) {
			/* by gap, largest first, then the network's order */
			const double gk = done[k].plan->cost - done[k].plan->lower_bound;
			int j = n++;
			while (j > 0 && done[order[j - 1]].plan->cost - done[order[j - 1]].plan->lower_bound < gk) {
				order[j] = order[j - 1];
				j--;
			}
			order[j] = k;
			layers += done[k].chain.nlayers;
		}
	trim__ft_cache_refresh(o->cache, 1);
	for (int i = 0; i < n && !rc; i++) {
		planned *d = &done[order[i]];
		const double now = trim__ft_now();
		if (now >= deadline)
			break;
		o->deadline = now + (deadline - now) * d->chain.nlayers / (double)layers;
		layers -= d->chain.nlayers;
		o->first_fuse = d->first_fuse;
		o->last_fuse = d->last_fuse;
		if ((rc = trim__ft_plan_search_opts(&d->chain, r->arch, costs, r->B, o, p)))
			break;
		trim__ft_plan *q = d->plan;
		const double lb = p->lower_bound > q->lower_bound ? p->lower_bound : q->lower_bound;
		const int64_t searches = q->searches + p->searches, tilings = q->tilings + p->tilings,
		              pruned = q->pruned + p->pruned;
		if (p->exact || p->cost < q->cost)
			*q = *p;
		q->lower_bound = lb < q->cost ? lb : q->cost;
		q->stopped = p->stopped && !q->exact;
		q->searches = searches;
		q->tilings = tilings;
		q->pruned = pruned;
	}
	trim__ft_cache_refresh(o->cache, 0);
	free(order);
	return rc;
}

/* Every chain planned (once per distinct chain) into r (r->chain, r->plan
 * and r->t); the distinct plans in *done (ndone of them, each freed with
 * free(), and the array too, also on failure). */
static int plan_chains(fused_report *r, const trim__cache_plan *cp, const int *link, const int *bw,
                       const trim__level_cost *costs, int first, int last, trim__ft_plan_opts *o, double deadline,
                       planned **done_out, int *ndone_out)
{
	const trim_workloads *w = r->w;
	const trim_arch *arch = r->arch;
	const int B = r->B;
	totals *t = &r->t;
	size_t n = trim_workloads_intra_count(w), i = 0;
	trim__ft_chain c;
	int ff, lf, rc = 0, nchains = 0, ndone = 0, layers_left = 0;
	while (next_chain(w, cp, link, bw, n, &i, first, last, &c, &ff, &lf)) {
		nchains++;
		layers_left += c.nlayers;
	}
	planned *done = trim__calloc((size_t)nchains + 1, sizeof *done);
	trim__ft_plan *p = trim__calloc(1, sizeof *p);
	r->chain = trim__calloc((size_t)nchains + 1, sizeof *r->chain);
	r->plan = trim__calloc((size_t)nchains + 1, sizeof *r->plan);
	if (!done || !p || !r->chain || !r->plan)
		rc = TRIM_ENOMEM;
	for (i = 0; !rc && next_chain(w, cp, link, bw, n, &i, first, last, &c, &ff, &lf);) {
		const trim__ft_plan *q = planned_find(done, ndone, &c, ff, lf);
		if (!q) {
			/* the time left shared by the chains left, by their layers (a
			 * chain of n layers has n (n - 1) / 2 groups to search) */
			if (deadline > 0) {
				double now = trim__ft_now();
				o->deadline = now + (deadline - now) * c.nlayers / (double)layers_left;
			}
			o->first_fuse = ff;
			o->last_fuse = lf;
			if ((rc = trim__ft_plan_search_opts(&c, arch, costs, B, o, p)))
				break;
			planned *d = &done[ndone];
			if (!(d->plan = malloc(sizeof *p))) {
				rc = trim__error(TRIM_ENOMEM, "trim_fusedtiles_report: out of memory");
				break;
			}
			*d->plan = *p;
			d->chain = c;
			d->first_fuse = ff;
			d->last_fuse = lf;
			q = done[ndone++].plan;
		}
		layers_left -= c.nlayers;
		r->chain[r->nchains] = c;
		r->plan[r->nchains++] = q;
	}
	if (!rc && deadline > 0)
		rc = retry_stopped(r, done, ndone, costs, o, deadline, p);
	for (int k = 0; !rc && k < r->nchains; k++)
		add(t, r->plan[k]);
	*done_out = done;
	*ndone_out = ndone;
	free(p);
	return rc;
}

int trim_fusedtiles_report(const trim_network *net, const trim_workloads *w, const trim_arch *arch,
                           const trim_energy *table, const char *range, const char *level, int goal,
                           int threads, int format, char **out)
{
	return trim_fusedtiles_report_within(net, w, arch, table, range, level, goal, threads, 0, format, out);
}

/* Every chain planned: the report (format) into *out, or with out NULL
 * only the totals into *t. */
static int run(const trim_network *net, const trim_workloads *w, const trim_arch *arch, const trim_energy *table,
               const char *range, const char *level, int goal, int threads, double time_limit, int format,
               char **out, totals *t)
{
	const double deadline = time_limit > 0 ? trim__ft_now() + time_limit : 0;
	char *none = NULL;
	int rc = check_args(net, w, arch, goal, threads, time_limit, out ? out : &none);
	if (rc == 0 && out)
		rc = trim__writers_check(&fused_writers, format);
	if (rc)
		return rc;
	int B = 0, first = -1, last = -1;
	if ((rc = trim__ft_find_level(arch, level, &B)) || (rc = trim__ft_find_range(w, range, &first, &last)))
		return rc;
	trim_energy *own = NULL;
	size_t n = trim_workloads_intra_count(w);
	int *link = trim__calloc(2 * (n + 1), sizeof *link), *bw = link ? link + n + 1 : NULL;
	trim__level_cost costs[TRIM__MAX_LEVELS];
	trim__ft_plan_opts o = {goal, threads, -1, -1, 0, NULL};
	fused_report r = {w, arch, B, goal, 0, NULL, NULL, {.exact = 1}};
	planned *done = NULL;
	int ndone = 0;
	trim__cache_plan cp;
	memset(&cp, 0, sizeof cp);
	if (!link) {
		rc = TRIM_ENOMEM;
		goto out;
	}
	if (!table && (rc = trim_energy_load_for_arch(&own, arch)))
		goto out;
	if ((rc = trim__arch_costs(arch, table ? table : own, costs)) || (rc = trim__ft_network_links(net, w, link)) ||
	    (rc = trim__ft_cache_new(&o.cache)))
		goto out;
	/* the cached activations held on chip, as trim network holds them */
	if ((rc = trim__cache_plan_make(&cp, w, arch, TRIM__CACHE_ONCHIP_FRACTION)))
		goto out;
	trim__ft_network_bw_links(w, link, bw);
	if ((rc = plan_chains(&r, &cp, link, bw, costs, first, last, &o, deadline, &done, &ndone)))
		goto out;
	if (out)
		rc = trim__write_report(&fused_writers, format, &r, out);
	if (t)
		*t = r.t;
out:
	for (int k = 0; k < ndone; k++)
		free(done[k].plan);
	free(done);
	free(r.chain);
	free(r.plan);
	trim__cache_plan_free(&cp);
	trim_energy_free(own);
	trim__ft_cache_free(o.cache);
	free(link);
	return rc;
}

int trim_fusedtiles_report_within(const trim_network *net, const trim_workloads *w, const trim_arch *arch,
                                  const trim_energy *table, const char *range, const char *level, int goal,
                                  int threads, double time_limit, int format, char **out)
{
	TRIM__HANDLE_CHECK(net, NETWORK, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(w, WORKLOADS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(table, ENERGY, TRIM_EINVAL);
	if (!out)
		return trim__error(TRIM_EINVAL, "trim_fusedtiles_report: NULL out");
	return run(net, w, arch, table, range, level, goal, threads, time_limit, format, out, NULL);
}

int trim__ft_network_totals(const trim_network *net, const trim_workloads *w, const struct trim_arch *arch,
                            const trim_energy *table, const char *range, const char *level, int goal, int threads,
                            double time_limit, trim__ft_totals *out)
{
	memset(out, 0, sizeof *out);
	return run(net, w, arch, table, range, level, goal, threads, time_limit, TRIM_FORMAT_JSON, NULL, out);
}
