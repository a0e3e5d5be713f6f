/* Internal views of a finished trim_search (for the network evaluator). */
#ifndef TRIM_SEARCH_INT_H
#define TRIM_SEARCH_INT_H

#include "mapspace_int.h"
#include "trim/search.h"

/* The result of a run (NULL before trim_search_run succeeded). */
const trim__search_result *trim__search_result_of(const trim_search *s);
/* The per-level costs the search evaluated with. */
const trim__level_cost *trim__search_costs(const trim_search *s);

#endif
