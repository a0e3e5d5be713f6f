/* Inter-layer workloads on an architecture (docs/model.md, "Network evaluation"). */
#include <stdlib.h>
#include <string.h>

#include "netcost_int.h"
#include "util/util.h"

/* The outermost on-chip storage level (the global buffer), or 0 if none. */
static int buffer_level(const struct trim_arch *a)
{
	for (int l = 1; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE && a->lv[l].instances <= 1)
			return l;
	return 0;
}

static int is_cache(const trim__inter *y)
{
	return y->op == TRIM__OP_CACHE || y->op == TRIM__OP_SHORTCUT;
}

static int64_t bytes_of(const trim_workloads *w, const trim__inter *y)
{
	return (y->elems * trim_workloads_word_bits(w) + 7) / 8;
}

int trim__cache_plan_make(trim__cache_plan *p, const trim_workloads *w, const struct trim_arch *a,
                          double onchip_fraction)
{
	memset(p, 0, sizeof *p);
	if (!(onchip_fraction >= 0 && onchip_fraction <= 1))
		return trim__error(TRIM_ERANGE, "on-chip caching fraction %g is not in [0, 1]",
		                   onchip_fraction);
	p->glb = buffer_level(a);
	p->onchip_fraction = onchip_fraction;
	p->ninter = trim_workloads_inter_count(w);
	p->nintra = trim_workloads_intra_count(w);
	p->onchip = trim__calloc(p->ninter ? p->ninter : 1, sizeof *p->onchip);
	p->reserved = trim__calloc(p->nintra ? p->nintra : 1, sizeof *p->reserved);
	if (!p->onchip || !p->reserved) {
		trim__cache_plan_free(p);
		return TRIM_ENOMEM;
	}
	int64_t cap = p->glb > 0 ? a->lv[p->glb].capacity_bytes : 0;
	double budget = (double)cap * onchip_fraction;
	/* greedy in creation order (inter workloads are listed in a fixed order) */
	for (size_t j = 0; j < p->ninter; j++) {
		const trim__inter *y = trim__workloads_inter(w, j);
		if (!is_cache(y) || p->glb == 0)
			continue;
		int64_t b = bytes_of(w, y);
		int fits = 1;
		for (int i = y->created; i <= y->freed && i < (int)p->nintra; i++)
			if ((double)(p->reserved[i] + b) > budget)
				fits = 0;
		if (!fits)
			continue;
		p->onchip[j] = 1;
		for (int i = y->created; i <= y->freed && i < (int)p->nintra; i++)
			p->reserved[i] += b;
	}
	return 0;
}

void trim__cache_plan_free(trim__cache_plan *p)
{
	if (!p)
		return;
	free(p->onchip);
	free(p->reserved);
	memset(p, 0, sizeof *p);
}

static double bw_of(double bw) { return bw > 0 ? bw : 0; }

/* Cycles to move `words` through level l (read + write), 0 if unlimited. */
static double move_cycles(const trim__level *L, double rd, double wr)
{
	double c = 0;
	if (bw_of(L->read_bw) > 0 && rd / L->read_bw > c)
		c = rd / L->read_bw;
	if (bw_of(L->write_bw) > 0 && wr / L->write_bw > c)
		c = wr / L->write_bw;
	return c;
}

int trim__inter_cost_eval(const trim_workloads *w, size_t j, const struct trim_arch *a,
                          const trim__level_cost *costs, const trim__cache_plan *plan,
                          const double *intra_cycles, trim__inter_cost *out)
{
	memset(out, 0, sizeof *out);
	const trim__inter *y = trim__workloads_inter(w, j);
	if (!y)
		return trim__error(TRIM_EINVAL, "no inter workload %zu", j);
	int g = plan->glb;
	const trim__level *G = &a->lv[g];
	const trim__level *D = &a->lv[0];
	switch (y->op) {
	case TRIM__OP_PAD:
	case TRIM__OP_UPSAMPLE_PAD:
	case TRIM__OP_TRANSPOSE:
	case TRIM__OP_CONCAT:
	case TRIM__OP_MOVE:
		/* TRIM: the output size over the memory bandwidth; the data are read
		 * once and the output written once at the buffer */
		out->level = g;
		out->cycles = move_cycles(G, (double)y->in_elems, (double)y->out_elems);
		out->energy_pj = (double)y->in_elems * costs[g].read_pj +
		                 (double)y->out_elems * costs[g].write_pj;
		break;
	case TRIM__OP_BATCHNORM:
	case TRIM__OP_LAYERNORM:
	case TRIM__OP_SOFTMAX:
	case TRIM__OP_LOOKUP: /* embedding rows read from (FW) or updated in (WG) the table in DRAM */
		/* off the PE array (TRIM: CPU or co-processor): a constant delay to read
		 * and write the tensor through off-chip memory */
		out->level = 0;
		out->cycles = move_cycles(D, (double)y->elems, (double)y->elems);
		out->energy_pj = (double)y->elems * (costs[0].read_pj + costs[0].write_pj);
		break;
	case TRIM__OP_CACHE:
	case TRIM__OP_SHORTCUT: {
		/* written once where it is kept, read once when used; it overlaps the
		 * intra workloads, so it adds no time. On chip it leaks, for its share of
		 * the buffer, over the cycles of the workloads in its lifetime. */
		int on = plan->onchip[j];
		int l = on ? g : 0;
		out->level = l;
		out->energy_pj = (double)y->elems * (costs[l].write_pj + costs[l].read_pj);
		if (on && G->capacity_bytes > 0) {
			double life = 0;
			for (int i = y->created; i <= y->freed && i < (int)plan->nintra; i++)
				life += intra_cycles ? intra_cycles[i] : 0;
			double share = (double)bytes_of(w, y) / (double)G->capacity_bytes;
			out->static_pj = costs[g].leak_pj_per_cycle * share * life;
			out->energy_pj += out->static_pj;
		}
		break;
	}
	default:
		return trim__error(TRIM_EINVAL, "unknown inter workload operation %d", y->op);
	}
	return 0;
}
