/*
 * With imperfect rows (docs/model.md, "Imperfect factorisations"): the
 * perfect subspace searched first, its best as one more seed of the first
 * bound. Every node with a ragged completion carries the root's bound, the
 * smallest of all, so the tree visits the ragged top nodes first and, given
 * a time limit, may stop with a mapping worse than the perfect search's
 * (AlexNet conv2 on Eyeriss: 4.1e9-5.1e9 pJ in 10 s, the perfect optimum
 * 1.854e9). The perfect subspace is the same index space with each dim's
 * rows restricted to its perfect ones (trim__mapspace_row_ragged), so its
 * best is a real mapping of this space with the same index: a valid seed.
 * It changes no result of an exact search (the best is the least (cost,
 * second figure, index) whatever the seeds), only how early the search
 * holds a good mapping. Given a time limit, it takes a quarter of what is
 * left.
 */
#include "search_int.h"

double trim__perfect_first(const trim__mapspace *s, const trim__level_cost *costs, int goal, int threads,
                           double deadline, top_list *seeds, trim__eval *seed_eval)
{
	const double bound = trim__top_bound(seeds);
	if (!s->imperfect || s->nobound || s->stop_after)
		return bound; /* stop_after: a test's stops, counted in this search */
	if (s->time_limit > 0 && s->deadline_at)
		__atomic_load(s->deadline_at, &deadline, __ATOMIC_RELAXED); /* a network's, which others extend */
	trim__mapspace p = *s;
	int64_t *rows[TRIM_NDIMS] = {NULL};
	int ok = 1;
	for (int d = 0; d < TRIM_NDIMS && ok; d++) {
		rows[d] = malloc((size_t)(s->nrows[d] > 0 ? s->nrows[d] : 1) * sizeof *rows[d]);
		if (!rows[d]) {
			ok = 0;
			break;
		}
		int64_t n = 0;
		for (int64_t i = 0; i < s->nrows[d]; i++)
			if (!trim__mapspace_row_ragged(s, d, s->rows[d][i]))
				rows[d][n++] = s->rows[d][i];
		p.rows[d] = rows[d];
		p.nrows[d] = n;
		ok = n > 0; /* none: every mapping is ragged */
	}
	if (ok) {
		if (deadline > 0) {
			const double left = deadline - trim__now();
			p.time_limit = left > 0 ? left / 4 : 0;
			ok = left > 0;
		}
		p.imperfect = 0;
		p.deadline_at = NULL;
		p.prog = NULL;
		p.hint_on = 0;
		p.keep_done = 0; /* the whole space's top nodes, not the subspace's */
		p.skip_top = NULL;
		p.memo_id = trim__mapspace_memo_id(); /* its memos know fewer rows */
	}
	trim__search_result res;
	memset(&res, 0, sizeof res);
	if (ok && trim__search(&p, costs, goal, threads, &res) == 0 && res.found) {
		const double c2 = trim__goal_second(&res.best_eval, goal);
		if (trim__top_first(seeds, res.best_cost, c2, res.best_index))
			*seed_eval = res.best_eval;
		trim__top_put(seeds, res.best_cost, c2, res.best_index, &res.best);
	}
	trim_clear_error(); /* a failed first pass leaves the search as it was */
	trim__search_result_free(&res);
	for (int d = 0; d < TRIM_NDIMS; d++)
		free(rows[d]);
	return trim__top_bound(seeds);
}
