/*
 * The k best (cost, second figure, index) of a search, best first: a tie
 * on the goal's cost breaks on the other figure (trim__goal_second), then on
 * the index, so a list is the same whatever the order of insertion.
 */
#include "search_int.h"

int trim__top_init(top_list *t, size_t k, int maps)
{
	t->k = k;
	t->n = 0;
	t->cost = malloc(k * sizeof *t->cost);
	t->sec = malloc(k * sizeof *t->sec);
	t->idx = malloc(k * sizeof *t->idx);
	t->map = maps ? malloc(k * sizeof *t->map) : NULL;
	return t->cost && t->sec && t->idx && (!maps || t->map) ? 0 : TRIM_ENOMEM;
}

void trim__top_free(top_list *t)
{
	free(t->cost);
	free(t->sec);
	free(t->idx);
	free(t->map);
}

/* Insert unless the index is already there. */
void trim__top_put(top_list *t, double c, double sec, trim__index i, const trim__mapping *m)
{
	for (size_t j = 0; j < t->n; j++)
		if (t->idx[j] == i)
			return;
	size_t pos = t->n;
	while (pos > 0 && trim__better(c, sec, i, t->cost[pos - 1], t->sec[pos - 1], t->idx[pos - 1], 1))
		pos--;
	if (pos >= t->k)
		return;
	size_t last = t->n < t->k ? t->n : t->k - 1;
	for (size_t j = last; j > pos; j--) {
		t->cost[j] = t->cost[j - 1];
		t->sec[j] = t->sec[j - 1];
		t->idx[j] = t->idx[j - 1];
		if (t->map)
			t->map[j] = t->map[j - 1];
	}
	t->cost[pos] = c;
	t->sec[pos] = sec;
	t->idx[pos] = i;
	if (t->map)
		t->map[pos] = *m;
	if (t->n < t->k)
		t->n++;
}
