/*
 * The analytic activity analyst (docs/model.md, "Mapping and activity
 * model", "Activity analyst"); no iteration of the loop nest is walked.
 *
 * Key facts used (each one is checked by the reference simulator):
 *  - every tile of a tensor at a level is a translate of one base set, a
 *    Cartesian product over the tensor's axes of the values c0*i + c1*j;
 *  - between two consecutive iterations of the temporal loops above a
 *    level, the tile moves by a translation that depends only on which loop
 *    advanced (the others reset): fills = |S| - |S ∩ (S - delta)|;
 *  - sibling instances under one spatial level differ by a translation per
 *    axis, so the number of siblings that need an element is a product of
 *    per-axis counts (dims irrelevant to the tensor multiply it), and the
 *    delivery statistics are sums and differences of per-axis products;
 *  - the innermost loop above a child on a dim of a one-term axis, and
 *    every loop outside it, refill the whole tile like the first step.
 *
 * Cost: prepare() does everything that does not depend on the loop orders
 * once per factors and keeps (one pass over each two-term axis and its
 * ports per hop); order_counts() then adds up, per hop, one part per
 * storage level between the barrier's level and the child, each a function
 * of that level's order only (level_steps: a walk over its loops, with the
 * statistics of each two-term axis memoised per distinct advance). When
 * prepared for many orders (trim__activity_prepare) the parts are memoised
 * per level order too.
 */
#include <stdlib.h>
#include <string.h>

#include "analyst_int.h"

int64_t *trim__act_ws_get(trim__act_ws *ws, int i, size_t n)
{
	if (n == 0)
		n = 1;
	if (ws->cap[i] < n) {
		size_t c = ws->cap[i] ? ws->cap[i] : 256;
		while (c < n)
			c *= 2;
		int64_t *p = realloc(ws->buf[i], c * sizeof *p);
		if (!p) {
			trim__error(TRIM_ENOMEM, "activity: out of memory (%zu words)", c);
			return NULL;
		}
		ws->buf[i] = p;
		ws->cap[i] = c;
	}
	return ws->buf[i];
}

void trim__act_ws_free(trim__act_ws *ws)
{
	if (!ws)
		return;
	for (int i = 0; i < TRIM__ACT_NBUF; i++) {
		free(ws->buf[i]);
		ws->buf[i] = NULL;
		ws->cap[i] = 0;
	}
	if (ws->prep) {
		free(ws->prep->memo);
		free(ws->prep->lmemo);
		trim__act_rag_free(ws->prep->rag);
		free(ws->prep);
		ws->prep = NULL;
	}
}

/* ---- entry points --------------------------------------------------------------- */

/* lb = 0: exact counts of every tensor. lb = 1: for the tensors in tmask
 * only, a lower bound on every count valid for every loop order of the
 * levels (docs/model.md, "Mapspace and search"): per hop, the first step and
 * the fewest steps that move a single-term axis of the tensor (each refills
 * the whole tile and sends what the first step sends), and no partial-sum
 * read-backs; zero_macs is left 0. */
static int compute(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                   trim__act_ws *ws, trim__activity *out, int lb, unsigned tmask)
{
	memset(out, 0, sizeof *out);
	if (m->ngroups && lb)
		return trim__error(TRIM_EINVAL, "activity: no lower bounds for a mapping with a flattened group (the "
		                   "search does not enumerate them)");
	if (m->ngroups)
		return trim__act_flat(w, arch, m, ws, tmask, out);
	int rc = trim__act_prepare(w, arch, m, ws, lb, tmask, 0);
	if (rc)
		return rc;
	return trim__act_order_counts(ws, m, out);
}

int trim__activity_compute(const trim__intra *w, const struct trim_arch *arch,
                           const trim__mapping *m, trim__act_ws *ws, trim__activity *out)
{
	return compute(w, arch, m, ws, out, 0, 7u);
}

int trim__activity_tensors(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                           unsigned tmask, trim__act_ws *ws, trim__activity *out)
{
	return compute(w, arch, m, ws, out, 0, tmask);
}

int trim__activity_lower(const trim__intra *w, const struct trim_arch *arch,
                         const trim__mapping *m, unsigned tmask, trim__act_ws *ws,
                         trim__activity *out)
{
	return compute(w, arch, m, ws, out, 1, tmask);
}

int trim__activity_prepare_tensors(const trim__intra *w, const struct trim_arch *arch, const trim__mapping *m,
                                   unsigned tmask, trim__act_ws *ws)
{
	if (m->ngroups)
		return trim__error(TRIM_EINVAL, "activity: a mapping with a flattened group is counted whole "
		                   "(trim__activity_compute), not prepared for many orders");
	int rc = trim__act_prepare(w, arch, m, ws, 0, tmask, tmask == 7u);
	if (rc && ws->prep)
		ws->prep->lb = -1; /* nothing prepared */
	return rc;
}

int trim__activity_prepare(const trim__intra *w, const struct trim_arch *arch,
                           const trim__mapping *m, trim__act_ws *ws)
{
	return trim__activity_prepare_tensors(w, arch, m, 7u, ws);
}

int trim__activity_orders(trim__act_ws *ws, const trim__mapping *m, trim__activity *out)
{
	if (!ws->prep || ws->prep->lb != 0 || ws->prep->nL != m->nlevels)
		return trim__error(TRIM_EINVAL, "activity: orders evaluated without a preparation");
	return trim__act_order_counts(ws, m, out);
}
