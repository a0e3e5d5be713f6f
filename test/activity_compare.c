/* Activities compared count by count (activity_compare.h). */
#include <stdio.h>

#include "activity_compare.h"

static const char *const F_NAMES[] = {"fills", "reads", "updates", "drains", "down_words",
                                      "down_dests", "unicast", "mcast", "mcast_dests",
                                      "up_words", "up_out", "reductions", "tile"};

static int64_t (*field(trim__activity *a, int f))[3]
{
	switch (f) {
	case 0: return a->fills;
	case 1: return a->reads;
	case 2: return a->updates;
	case 3: return a->drains;
	case 4: return a->down_words;
	case 5: return a->down_dests;
	case 6: return a->unicast;
	case 7: return a->mcast;
	case 8: return a->mcast_dests;
	case 9: return a->up_words;
	case 10: return a->up_out;
	case 11: return a->reductions;
	default: return a->tile;
	}
}

/* 0 if equal, else print the first difference. */
int compare(trim__activity *x, trim__activity *y, int nL, char *msg, size_t n)
{
	if (x->macs != y->macs || x->zero_macs != y->zero_macs || x->steps != y->steps ||
	    x->active_pes != y->active_pes) {
		snprintf(msg, n, "macs %lld/%lld zero %lld/%lld steps %lld/%lld pes %lld/%lld",
		         (long long)x->macs, (long long)y->macs, (long long)x->zero_macs,
		         (long long)y->zero_macs, (long long)x->steps, (long long)y->steps,
		         (long long)x->active_pes, (long long)y->active_pes);
		return 1;
	}
	for (int l = 0; l < nL; l++) {
		if (x->instances[l] != y->instances[l]) {
			snprintf(msg, n, "instances[%d] %lld/%lld", l, (long long)x->instances[l],
			         (long long)y->instances[l]);
			return 1;
		}
		for (int f = 0; f < 13; f++)
			for (int t = 0; t < 3; t++)
				if (field(x, f)[l][t] != field(y, f)[l][t]) {
					snprintf(msg, n, "%s[level %d][slot %d]: analytic %lld, simulator %lld",
					         F_NAMES[f], l, t, (long long)field(x, f)[l][t],
					         (long long)field(y, f)[l][t]);
					return 1;
				}
	}
	return 0;
}
