/* "Did you mean ...": the valid name nearest to a misspelt one (util.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define LONGEST 64 /* names longer than this are compared on their first 64 bytes */

size_t trim__edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	la = la > LONGEST ? LONGEST : la;
	lb = lb > LONGEST ? LONGEST : lb;
	/* optimal string alignment: insertions, deletions, substitutions and
	 * transpositions of neighbours cost 1; letters compare without case */
	size_t row[3][LONGEST + 1];
	for (size_t j = 0; j <= lb; j++)
		row[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = row[i % 3], *prev = row[(i - 1) % 3], *prev2 = row[(i + 1) % 3];
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			size_t best = prev[j - 1] + !same;
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return row[la % 3][lb];
}

void trim__nearest_init(trim__nearest *n, const char *word)
{
	n->word = word ? word : "";
	n->best = NULL;
	n->distance = SIZE_MAX;
}

void trim__nearest_add(trim__nearest *n, const char *candidate)
{
	if (!candidate || !candidate[0])
		return;
	size_t d = trim__edit_distance(n->word, candidate);
	if (d < n->distance) { /* ties: the first candidate */
		n->distance = d;
		n->best = candidate;
	}
}

const char *trim__nearest_best(const trim__nearest *n)
{
	size_t len = strlen(n->word);
	size_t limit = len < 3 ? 1 : (len + 2) / 3;
	if (!n->best || n->distance > limit || n->distance >= len)
		return NULL;
	return n->best;
}

const char *trim__nearest_of(const char *word, const char *const *names)
{
	trim__nearest n;
	trim__nearest_init(&n, word);
	for (; names && *names; names++)
		trim__nearest_add(&n, *names);
	return trim__nearest_best(&n);
}

const char *trim__suggestion(char *buf, size_t size, const trim__nearest *n)
{
	const char *best = trim__nearest_best(n);
	if (best)
		snprintf(buf, size, "; did you mean '%s'?", best);
	else if (size)
		buf[0] = '\0';
	return buf;
}
