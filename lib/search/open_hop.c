/*
 * The hop between two holders of a tensor while a spatial level is still
 * open (docs/model.md, "Bounds", *Open hops*): part of the node bound
 * (tensor_bound.c) at the nodes above the one that fixes every spatial
 * level, where the hop's own figures (tensor_bound.c, spatial_chain.c)
 * need them all fixed.
 *
 * (1) Entries. Holder l (below the outermost) of tensor t takes in every
 * element its instances use (operands), or drains every partial sum its
 * instances make (results). Group l's instances by their indices, at the
 * fixed spatial levels above l, on the dims t does not read: the
 * instances of one group together cover every value of the dims t reads
 * (the other levels' indices and every loop run over the rest), so they
 * use (make) every element of t, and each instance takes its own copy.
 * So l's fills (result: drains) are at least |t| x the number of groups,
 * the product of those levels' factors on the dims t does not read,
 * whatever the open levels, the loops and the orders.
 * (2) The words on the way, each spatial level k between the holders, open
 * or fixed (trim__chain_hop with the node's frame): one word entering a node of k
 * reaches at most prod_{j >= k on the hop} c(j) instances of l that need
 * its element at once, c(j) = sharers(j) when j is fixed, the most any
 * rows give (mapspace.share_cap) when open, 1 without multicast; so at
 * least W / that product words enter k (W: (1)); results, as in
 * trim__chain_hop, with a reducing level's c(j) the same. A fixed level
 * with no bounds > 1 is passed over (nothing charged).
 */
#include "search_int.h"

int64_t trim__open_hop_entries(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int l,
                               int64_t touched)
{
	const struct trim_arch *a = s->a;
	const unsigned relevant = s->w->t[t].relevant;
	int64_t groups = 1;
	for (int j = 1; j < l; j++)
		if (a->lv[j].type == TRIM__LVL_SPATIAL && f->fixed[j])
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (!(relevant >> d & 1) && m->f[j][d] > 1)
					groups *= m->f[j][d];
	return touched * groups;
}

int64_t trim__open_hop_raise(const trim__mapspace *s, const node_frame *f, const trim__mapping *m, int t, int h,
                             int l, int64_t touched, int64_t *in_l, int64_t rd_h, int64_t *nw, int64_t *dw)
{
	const struct trim_arch *a = s->a;
	const int res = t == 2;
	const int64_t entries = trim__open_hop_entries(s, f, m, t, l, touched);
	if (entries > *in_l)
		*in_l = entries;
	int64_t enter[TRIM__MAX_LEVELS], deliver[TRIM__MAX_LEVELS];
	const int64_t top = trim__chain_hop(s, f, m, t, h, l, *in_l, enter, deliver);
	for (int k = h + 1; k < l; k++) {
		const trim__level *K = &a->lv[k];
		if (K->type != TRIM__LVL_SPATIAL || !enter[k])
			continue;
		/* energy: a multicast bus carries the words entering, the other
		 * networks each delivery; results, every word received */
		const int bus = K->net == TRIM__NET_BUS && K->multicast;
		const int64_t own = res || !bus ? deliver[k] : enter[k];
		if (own > nw[k])
			nw[k] = own;
		if (enter[k] > dw[k])
			dw[k] = enter[k];
	}
	return rd_h > top ? rd_h : top;
}
