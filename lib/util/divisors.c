/*
 * The divisors of a positive integer, ascending, by trial division up to
 * its square root (the search's factor rows, its window spacings, the
 * fused tilings).
 */
#include "util.h"

int trim__divisors(int64_t n, int64_t *dv, int max)
{
	if (n < 1)
		return 0;
	int lo = 0, hi = 0;
	/* the large divisors n / d, found descending, fill dv from its end */
	for (int64_t d = 1; d <= n / d; d++)
		if (n % d == 0) {
			if (lo + hi + (d != n / d ? 2 : 1) > max)
				return -1;
			dv[lo++] = d;
			if (d != n / d)
				dv[max - ++hi] = n / d;
		}
	for (int j = 0; j < hi; j++)
		dv[lo + j] = dv[max - hi + j];
	return lo + hi;
}
