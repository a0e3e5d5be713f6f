/*
 * The top nodes of one search, shared: the sliding window's schedule that
 * trim__search's threads use (driver.c), and the same search's top nodes
 * run by other processes, one node at a time, and merged back
 * (lib/search/share.h for lib/work/, trim/work.h for the caller; the MPI
 * front end's trim-mpi map).
 *
 * A node's threshold depends only on the seed and on the nodes that are
 * TRIM__TOP_WINDOW places or more before it, all finished: whoever runs a
 * node, and whenever, it does the same work with the same counts. So a
 * collector that hands node i out only once nodes [0, i - WINDOW] are
 * merged, with their threshold, gets trim__search's result byte for byte.
 */
#include <stdio.h>

#include "search_int.h"

/* ---- the window's schedule (threads and processes) --------------------------- */

int trim__schedule_init(top_schedule *q, int64_t n, size_t k)
{
	memset(q, 0, sizeof *q);
	q->n = n;
	q->k = k;
	q->cut_from = n;
	size_t m = n > 0 ? (size_t)n : 1;
	q->node_costs = calloc(m, sizeof *q->node_costs);
	q->node_sec = calloc(m, sizeof *q->node_sec);
	q->node_ncosts = calloc(m, sizeof *q->node_ncosts);
	q->node_idx = calloc(m, sizeof *q->node_idx);
	q->finished = calloc(m, 1);
	q->prefix_bound = malloc(m * sizeof *q->prefix_bound);
	q->prefix_idx = malloc(m * sizeof *q->prefix_idx);
	q->prefix_sec = malloc(m * sizeof *q->prefix_sec);
	q->prefix_idx_on = malloc(m * sizeof *q->prefix_idx_on);
	if (!q->node_costs || !q->node_sec || !q->node_idx || !q->node_ncosts || !q->finished || !q->prefix_bound ||
	    !q->prefix_idx || !q->prefix_sec || !q->prefix_idx_on || trim__top_init(&q->prefix_list, k, 0))
		return TRIM_ENOMEM;
	omp_init_lock(&q->lock);
	q->locked = 1;
	return 0;
}

void trim__schedule_free(top_schedule *q)
{
	for (int64_t i = 0; q->node_costs && q->node_sec && q->node_idx && i < q->n; i++) {
		free(q->node_costs[i]);
		free(q->node_sec[i]);
		free(q->node_idx[i]);
	}
	if (q->locked)
		omp_destroy_lock(&q->lock);
	free(q->node_idx);
	free(q->node_costs);
	free(q->node_sec);
	free(q->node_ncosts);
	free(q->finished);
	free(q->prefix_bound);
	free(q->prefix_idx);
	free(q->prefix_sec);
	free(q->prefix_idx_on);
	trim__top_free(&q->prefix_list);
	memset(q, 0, sizeof *q);
}

int trim__schedule_finish(top_schedule *q, int64_t i, const top_list *kept, const trim__eval *first_eval,
                          top_list *glob, trim__eval *glob_eval)
{
	double *c = NULL, *c2 = NULL;
	trim__index *x = NULL;
	int rc = 0;
	if (kept->n && (!(c = malloc(kept->n * sizeof *c)) || !(c2 = malloc(kept->n * sizeof *c2)) ||
	                !(x = malloc(kept->n * sizeof *x)))) {
		free(c);
		free(c2);
		c = c2 = NULL;
		rc = TRIM_ENOMEM;
	}
	omp_set_lock(&q->lock);
	for (size_t j = 0; j < kept->n; j++) {
		if (j == 0 && trim__top_first(glob, kept->cost[0], kept->sec[0], kept->idx[0]))
			*glob_eval = *first_eval;
		trim__top_put(glob, kept->cost[j], kept->sec[j], kept->idx[j], kept->map ? &kept->map[j] : NULL);
		if (c) {
			c[j] = kept->cost[j];
			c2[j] = kept->sec[j];
			x[j] = kept->idx[j];
		}
	}
	q->node_costs[i] = c;
	q->node_sec[i] = c2;
	q->node_idx[i] = x;
	q->node_ncosts[i] = c ? kept->n : 0;
	q->finished_count += !q->finished[i];
	q->finished[i] = 1;
	int64_t p = q->prefix;
	while (p < q->n && q->finished[p]) {
		for (size_t j = 0; j < q->node_ncosts[p]; j++)
			trim__top_put(&q->prefix_list, q->node_costs[p][j], q->node_sec[p][j], q->node_idx[p][j], NULL);
		free(q->node_costs[p]);
		free(q->node_sec[p]);
		free(q->node_idx[p]);
		q->node_costs[p] = NULL;
		q->node_sec[p] = NULL;
		q->node_idx[p] = NULL;
		q->prefix_bound[p] = trim__top_bound(&q->prefix_list);
		q->prefix_idx_on[p] = q->prefix_list.n == 1 && q->prefix_list.k == 1;
		q->prefix_idx[p] = q->prefix_list.n ? q->prefix_list.idx[0] : 0;
		q->prefix_sec[p] = q->prefix_list.n ? q->prefix_list.sec[0] : 0;
		p++;
	}
	__atomic_store_n(&q->prefix, p, __ATOMIC_RELEASE);
	omp_unset_lock(&q->lock);
	return rc;
}

int trim__schedule_ready(top_schedule *q, int64_t i)
{
	return i < TRIM__TOP_WINDOW || __atomic_load_n(&q->prefix, __ATOMIC_ACQUIRE) >= i - TRIM__TOP_WINDOW + 1;
}

void trim__schedule_threshold(top_schedule *q, int64_t i, const top_threshold *seed, top_threshold *out)
{
	*out = *seed;
	if (i < TRIM__TOP_WINDOW)
		return;
	const double pb = q->prefix_bound[i - TRIM__TOP_WINDOW];
	const int pon = q->prefix_idx_on[i - TRIM__TOP_WINDOW];
	const trim__index pidx = q->prefix_idx[i - TRIM__TOP_WINDOW];
	const double psec = q->prefix_sec[i - TRIM__TOP_WINDOW];
	if (pb < out->cost) {
		out->cost = pb;
		out->idx_on = pon;
		out->idx = pidx;
		out->sec = psec;
	} else if (pb == out->cost && pon && out->idx_on && trim__better(pb, psec, pidx, out->cost, out->sec, out->idx, 1)) {
		out->idx = pidx;
		out->sec = psec;
	}
}

int trim__schedule_cut(top_schedule *q, int64_t i, double lb, const top_threshold *t, search_worker *W)
{
	if (!trim__cut(W, lb, t->cost * W->cut_scale))
		return 0;
	int64_t cf = __atomic_load_n(&q->cut_from, __ATOMIC_RELAXED);
	while (i < cf && !__atomic_compare_exchange_n(&q->cut_from, &cf, i, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return 1;
}

int trim__schedule_take(top_schedule *q, search_run *r, search_worker *W, int64_t *node, top_threshold *t)
{
	top_list none = {0};
	while (q->next < q->n && !__atomic_load_n(&q->abort, __ATOMIC_RELAXED)) {
		const int64_t i = q->next;
		if (q->finished[i]) { /* its result came before (another collector's) */
			q->next++;
			continue;
		}
		if (i < q->cut_from) {
			if (!trim__schedule_ready(q, i))
				return 0;
			if (trim__worker_stop(W)) { /* sorted: no node from i on has a smaller bound */
				trim__note_open(W, r->top[i].lb);
				return 2;
			}
			trim__schedule_threshold(q, i, &r->seed_thr, t);
			if (!trim__schedule_cut(q, i, r->top[i].lb, t, W)) {
				q->next++;
				*node = i;
				return 1;
			}
		}
		/* cut by its bound, or after the first cut node: finished empty */
		q->next++;
		int rc = trim__schedule_finish(q, i, &none, NULL, &r->glob, &r->glob_eval);
		if (rc && !W->err)
			W->err = rc;
		trim__search_progress(r->s, q->finished_count, q->n);
	}
	return 2;
}

/* ---- one search's top nodes in several processes (share.h) -------------------- */

#include "share.h"
#include "util/digest.h"

/* What one node adds to a search's counts and statistics. */
typedef struct {
	trim__search_result cnt; /* the counts only */
	uint64_t st_d[TRIM__MAX_LEVELS], st_dc[TRIM__MAX_LEVELS];
	uint64_t st[7];          /* nodes, nodes cut, leaves, leaves cut, bypass cut, classes cut, ties cut */
	double open_lb;
	int stopped;
} node_tally;

struct trim__search_share {
	struct trim_search *search;
	search_run run;          /* ws[0 .. threads): the runs; ws[threads]: the merged nodes' counts */
	top_schedule q;
	omp_lock_t lock;         /* the slots, the merged counts, the hand-out */
	int locked;
	uint8_t *busy;           /* per run worker */
	int stop;                /* the search stopped or a node failed: nothing more handed out */
	int done, done_rc;       /* finished into the search */
	char stamp[TRIM__DIGEST_HEX];
};

static search_worker *merged(trim__search_share *sh) { return &sh->run.ws[sh->run.threads]; }

/* W's counts into *c (c NULL: dropped), W's zeroed. */
static void counts_take(search_worker *W, node_tally *c)
{
	if (c) {
		memset(c, 0, sizeof *c);
		c->cnt = W->cnt;
		memcpy(c->st_d, W->st_d, sizeof c->st_d);
		memcpy(c->st_dc, W->st_dc, sizeof c->st_dc);
		uint64_t st[7] = {W->st_nodes, W->st_nodes_cut, W->st_leaves, W->st_leaves_cut, W->st_byp_cut,
		                  W->st_cls_cut, W->st_tie_cut};
		memcpy(c->st, st, sizeof st);
		c->open_lb = W->open_lb;
		c->stopped = W->stopped;
	}
	memset(&W->cnt, 0, sizeof W->cnt);
	W->cnt.max_pe_util = W->cnt.max_rf_util = -1;
	memset(W->st_d, 0, sizeof W->st_d);
	memset(W->st_dc, 0, sizeof W->st_dc);
	W->st_nodes = W->st_nodes_cut = W->st_leaves = W->st_leaves_cut = 0;
	W->st_byp_cut = W->st_cls_cut = W->st_tie_cut = 0;
	W->open_lb = HUGE_VAL;
	W->stopped = 0;
}

/* c added to W (sums, maxima, the smallest open bound). */
static void counts_add(search_worker *W, const node_tally *c)
{
	W->cnt.generated += c->cnt.generated;
	W->cnt.valid += c->cnt.valid;
	W->cnt.evaluated += c->cnt.evaluated;
	W->cnt.pruned += c->cnt.pruned;
	W->cnt.unsupported += c->cnt.unsupported;
	W->cnt.bounded += c->cnt.bounded;
	W->cnt.tie_cuts += c->cnt.tie_cuts;
	W->cnt.tie_nodes += c->cnt.tie_nodes;
	if (c->cnt.max_pe_util > W->cnt.max_pe_util)
		W->cnt.max_pe_util = c->cnt.max_pe_util;
	if (c->cnt.max_rf_util > W->cnt.max_rf_util)
		W->cnt.max_rf_util = c->cnt.max_rf_util;
	for (int d = 0; d < TRIM__MAX_LEVELS; d++) {
		W->st_d[d] += c->st_d[d];
		W->st_dc[d] += c->st_dc[d];
	}
	W->st_nodes += c->st[0], W->st_nodes_cut += c->st[1], W->st_leaves += c->st[2];
	W->st_leaves_cut += c->st[3], W->st_byp_cut += c->st[4], W->st_cls_cut += c->st[5], W->st_tie_cut += c->st[6];
	trim__note_open(W, c->open_lb);
	W->stopped |= c->stopped;
}

/* The digest that names this search's tree: the space, the options that
 * change the work, every top node and the seed. */
static void make_stamp(trim__search_share *sh)
{
	const search_run *r = &sh->run;
	trim__digest d;
	char b[48];
	trim__digest_init(&d);
	trim__digest_str(&d, "libtrim", trim__library_stamp());
	trim__digest_str(&d, "size", trim__index_str(r->s->size, b));
	trim__digest_int(&d, "goal", r->goal);
	trim__digest_int(&d, "k", (int64_t)r->k);
	trim__digest_double(&d, "gap", r->gap);
	trim__digest_int(&d, "imperfect", r->s->imperfect);
	trim__digest_int(&d, "nodes", r->ntop);
	for (int64_t i = 0; i < r->ntop; i++) {
		trim__digest_update(&d, &r->top[i].lb, sizeof r->top[i].lb);
		trim__digest_update(&d, &r->top[i].ord, sizeof r->top[i].ord);
		trim__digest_update(&d, r->top[i].lo, sizeof r->top[i].lo);
		trim__digest_update(&d, r->top[i].hi, sizeof r->top[i].hi);
	}
	trim__digest_double(&d, "seed", r->seed_thr.cost);
	trim__digest_str(&d, "seed_index", trim__index_str(r->seed_thr.idx, b));
	trim__digest_int(&d, "seed_index_on", r->seed_thr.idx_on);
	trim__digest_double(&d, "seed_second", r->seed_thr.sec);
	trim__digest_hex(&d, sh->stamp);
}

int trim__search_share_create(trim__search_share **out, struct trim_search *s)
{
	*out = NULL;
	trim__search_share *sh = calloc(1, sizeof *sh);
	if (!sh)
		return trim__error(TRIM_ENOMEM, "search: out of memory");
	const trim__mapspace *space;
	const trim__level_cost *costs;
	int goal, threads;
	trim__search_parts(s, &space, &costs, &goal, &threads);
	sh->search = s;
	omp_init_lock(&sh->lock);
	sh->locked = 1;
	trim__search_progress(space, 0, 0);
	int rc = trim__search_begin(&sh->run, space, costs, goal, threads, 1);
	if (rc == 0 && !(sh->busy = calloc((size_t)sh->run.threads, 1)))
		rc = trim__error(TRIM_ENOMEM, "search: out of memory");
	if (rc == 0 && trim__schedule_init(&sh->q, sh->run.ntop, sh->run.k))
		rc = trim__error(TRIM_ENOMEM, "search: out of memory");
	if (rc) {
		trim__search_share_free(sh);
		return rc;
	}
	make_stamp(sh);
	*out = sh;
	return 0;
}

void trim__search_share_free(trim__search_share *sh)
{
	if (!sh)
		return;
	if (!sh->done) { /* never finished here (a process that only runs nodes): dropped */
		trim__search_result res;
		sh->run.nfc = 0;
		if (!sh->run.err)
			sh->run.err = TRIM_EINVAL; /* no result is wanted: skip the checks */
		trim__search_end(&sh->run, &res);
		trim__search_result_free(&res);
	}
	trim__schedule_free(&sh->q);
	free(sh->busy);
	if (sh->locked)
		omp_destroy_lock(&sh->lock);
	free(sh);
}

int64_t trim__search_share_nodes(const trim__search_share *sh) { return sh->run.ntop; }

double trim__search_share_node_bound(const trim__search_share *sh, int64_t i)
{
	return i >= 0 && i < sh->run.ntop ? sh->run.top[i].lb : NAN;
}

int trim__search_share_finished(trim__search_share *sh, int64_t node)
{
	omp_set_lock(&sh->lock);
	int f = node >= 0 && node < sh->q.n && (sh->q.finished[node] || (sh->stop && node >= sh->q.next));
	omp_unset_lock(&sh->lock);
	return f;
}

/* Node i finished with nothing (cut, or failed). Under sh->lock. */
static void finish_empty(trim__search_share *sh, int64_t i)
{
	top_list none = {0};
	trim__schedule_finish(&sh->q, i, &none, NULL, &sh->run.glob, &sh->run.glob_eval);
	trim__search_progress(sh->run.s, sh->q.finished_count, sh->q.n);
}

/* ---- tickets: "libtrim search node 2", the stamp, the node, its threshold ---- */

static int ticket_text(const trim__search_share *sh, int64_t i, const top_threshold *t, char **out)
{
	char b[48];
	trim__sb sb;
	trim__sb_init(&sb);
	trim__sb_printf(&sb, "libtrim search node 2\nsearch %s\nnode %lld\nthreshold %.17g\nsecond %.17g\nindex %s\n"
	                "index_on %d\nend\n", sh->stamp, (long long)i, t->cost, t->sec, trim__index_str(t->idx, b), t->idx_on);
	return trim__sb_take(&sb, out);
}

/* A decimal index below the space's size at *p (then *p past it); 0 or -1. */
static int parse_index(const trim__mapspace *s, const char **p, trim__index *out)
{
	trim__index v = 0;
	const char *q = *p;
	if (*q < '0' || *q > '9')
		return -1;
	for (; *q >= '0' && *q <= '9'; q++) {
		const trim__index d = (trim__index)(*q - '0');
		if (d >= s->size || v > (s->size - 1 - d) / 10)
			return -1; /* v * 10 + d would not be below the size */
		v = v * 10 + d;
	}
	*p = q;
	*out = v;
	return 0;
}

/* "KEY " at *p: 0 (then *p past it) or -1. */
static int key(const char **p, const char *k)
{
	size_t n = strlen(k);
	if (strncmp(*p, k, n) || (*p)[n] != ' ')
		return -1;
	*p += n + 1;
	return 0;
}

static int line_end(const char **p)
{
	if (**p != '\n')
		return -1;
	(*p)++;
	return 0;
}

static int parse_u64(const char **p, uint64_t *v)
{
	char *end = NULL;
	if (**p < '0' || **p > '9')
		return -1;
	*v = strtoull(*p, &end, 10);
	*p = end;
	return 0;
}

static int parse_double(const char **p, double *v)
{
	char *end = NULL;
	*v = strtod(*p, &end);
	if (end == *p || isnan(*v))
		return -1;
	*p = end;
	return 0;
}

/* The stamp and node lines shared by tickets and results. */
static int parse_head(const trim__search_share *sh, const char **p, int64_t *node, const char *what)
{
	uint64_t i = 0;
	if (key(p, "search"))
		return trim__error(TRIM_EPARSE, "search: not a %s of a search's top node", what);
	if (strncmp(*p, sh->stamp, TRIM__DIGEST_HEX - 1) || (*p)[TRIM__DIGEST_HEX - 1] != '\n')
		return trim__error(TRIM_EINVAL, "search: a %s of another search (other inputs, options or libtrim: its "
		                   "top nodes differ)", what);
	*p += TRIM__DIGEST_HEX;
	if (key(p, "node") || parse_u64(p, &i) || line_end(p))
		return trim__error(TRIM_EPARSE, "search: a %s without its node", what);
	if (i >= (uint64_t)sh->run.ntop)
		return trim__error(TRIM_EINVAL, "search: a %s of node %llu; the search has %lld top nodes", what,
		                   (unsigned long long)i, (long long)sh->run.ntop);
	*node = (int64_t)i;
	return 0;
}

static int parse_ticket(const trim__search_share *sh, const char *text, int64_t *node, top_threshold *t)
{
	const char *p = text;
	static const char head[] = "libtrim search node 2\n";
	if (strncmp(p, head, sizeof head - 1))
		return trim__error(TRIM_EPARSE, "search: not a ticket of a search's top node");
	p += sizeof head - 1;
	int rc = parse_head(sh, &p, node, "ticket");
	if (rc)
		return rc;
	uint64_t on = 0;
	if (key(&p, "threshold") || parse_double(&p, &t->cost) || line_end(&p) || key(&p, "second") ||
	    parse_double(&p, &t->sec) || line_end(&p) || key(&p, "index") ||
	    parse_index(sh->run.s, &p, &t->idx) || line_end(&p) || key(&p, "index_on") || parse_u64(&p, &on) || on > 1 ||
	    line_end(&p) || strcmp(p, "end\n"))
		return trim__error(TRIM_EPARSE, "search: a malformed ticket of node %lld", (long long)*node);
	t->idx_on = (int)on;
	return 0;
}

int trim__search_share_next(trim__search_share *sh, int64_t *node, char **ticket)
{
	*node = -1;
	*ticket = NULL;
	search_worker *M = merged(sh);
	int rc = 2;
	omp_set_lock(&sh->lock);
	int64_t i;
	top_threshold t;
	if (!sh->stop && (rc = trim__schedule_take(&sh->q, &sh->run, M, &i, &t)) == 1) {
		rc = ticket_text(sh, i, &t, ticket);
		if (rc == 0) {
			*node = i;
			rc = 1;
		} else {
			sh->q.next--; /* not handed out */
		}
	}
	if (rc == 2 && M->stopped)
		sh->stop = 1;
	omp_unset_lock(&sh->lock);
	return rc;
}

/* ---- node results ------------------------------------------------------------- */

static void result_text(const trim__search_share *sh, int64_t i, const node_tally *c, const top_list *kept,
                        trim__sb *sb)
{
	const trim__search_result *n = &c->cnt;
	trim__sb_printf(sb, "search %s\nnode %lld\ncounts %llu %llu %llu %llu %llu %llu %llu\nutil %.17g %.17g\nstats",
	                sh->stamp, (long long)i, (unsigned long long)n->generated, (unsigned long long)n->valid,
	                (unsigned long long)n->evaluated, (unsigned long long)n->pruned,
	                (unsigned long long)n->unsupported, (unsigned long long)n->bounded,
	                (unsigned long long)n->tie_cuts, n->max_pe_util, n->max_rf_util);
	for (int j = 0; j < 7; j++)
		trim__sb_printf(sb, " %llu", (unsigned long long)c->st[j]);
	trim__sb_puts(sb, "\ndepths");
	for (int d = 0; d < TRIM__MAX_LEVELS; d++)
		trim__sb_printf(sb, " %llu %llu", (unsigned long long)c->st_d[d], (unsigned long long)c->st_dc[d]);
	trim__sb_printf(sb, "\nopen %.17g\nstopped %d\nkept %zu\n", c->open_lb, c->stopped, kept->n);
	char b[48];
	for (size_t j = 0; j < kept->n; j++)
		trim__sb_printf(sb, "%.17g %.17g %s\n", kept->cost[j], kept->sec[j], trim__index_str(kept->idx[j], b));
}

/* The result's counts and kept (cost, second figure, index) (kept: k
 * entries, with mappings, rebuilt from the indices). */
static int parse_result(const trim__search_share *sh, const char *text, int64_t node, node_tally *c,
                        top_list *kept, trim__mapping *m)
{
	const char *p = text;
	int64_t i = -1;
	int rc = parse_head(sh, &p, &i, "result");
	if (rc)
		return rc;
	if (i != node)
		return trim__error(TRIM_EINVAL, "search: the result of node %lld sent as node %lld's", (long long)i,
		                   (long long)node);
	memset(c, 0, sizeof *c);
	trim__search_result *n = &c->cnt;
	uint64_t stopped = 0, nk = 0;
	int bad = key(&p, "counts") || parse_u64(&p, &n->generated) || key(&p, "") || parse_u64(&p, &n->valid) ||
	          key(&p, "") || parse_u64(&p, &n->evaluated) || key(&p, "") || parse_u64(&p, &n->pruned) ||
	          key(&p, "") || parse_u64(&p, &n->unsupported) || key(&p, "") || parse_u64(&p, &n->bounded) ||
	          key(&p, "") || parse_u64(&p, &n->tie_cuts) || line_end(&p) || key(&p, "util") ||
	          parse_double(&p, &n->max_pe_util) || key(&p, "") || parse_double(&p, &n->max_rf_util) ||
	          line_end(&p) || strncmp(p, "stats", 5);
	p += bad ? 0 : 5;
	for (int j = 0; j < 7 && !bad; j++)
		bad = key(&p, "") || parse_u64(&p, &c->st[j]);
	bad = bad || line_end(&p) || strncmp(p, "depths", 6);
	p += bad ? 0 : 6;
	for (int d = 0; d < TRIM__MAX_LEVELS && !bad; d++)
		bad = key(&p, "") || parse_u64(&p, &c->st_d[d]) || key(&p, "") || parse_u64(&p, &c->st_dc[d]);
	bad = bad || line_end(&p) || key(&p, "open") || parse_double(&p, &c->open_lb) || line_end(&p) ||
	      key(&p, "stopped") || parse_u64(&p, &stopped) || stopped > 1 || line_end(&p) || key(&p, "kept") ||
	      parse_u64(&p, &nk) || nk > sh->run.k || line_end(&p);
	c->stopped = (int)stopped;
	for (uint64_t j = 0; j < nk && !bad; j++) {
		double cost, sec;
		trim__index x;
		bad = parse_double(&p, &cost) || key(&p, "") || parse_double(&p, &sec) || key(&p, "") ||
		      parse_index(sh->run.s, &p, &x) || line_end(&p) || trim__mapspace_decode(sh->run.s, x, m);
		if (!bad)
			trim__top_put(kept, cost, sec, x, m);
	}
	if (bad || *p || kept->n != nk)
		return trim__error(TRIM_EPARSE, "search: a malformed result of node %lld", (long long)node);
	return 0;
}

/* The kept mappings as their indices rebuild them, and the first's
 * evaluation as trim__eval_run gives it: what a collector rebuilds from the
 * result. Compared with the search's own (no silent wrong answer). */
static int check_rebuilt(const search_run *r, int64_t i, const top_list *kept, const trim__eval *first_eval)
{
	trim__mapping *m = malloc(sizeof *m);
	trim__eval *ev = malloc(sizeof *ev);
	trim__eval_ws ws;
	memset(&ws, 0, sizeof ws);
	trim__sb a, b;
	trim__sb_init(&a);
	trim__sb_init(&b);
	int rc = m && ev ? 0 : trim__error(TRIM_ENOMEM, "search: out of memory");
	for (size_t j = 0; rc == 0 && j < kept->n; j++) {
		char x[48];
		a.len = b.len = 0;
		rc = trim__mapspace_decode(r->s, kept->idx[j], m);
		if (rc == 0 && j == 0)
			rc = trim__eval_run(r->s->w, r->s->a, r->costs, m, &ws, ev);
		if (rc)
			break;
		trim__mapping_yaml(m, &a);
		trim__mapping_yaml(&kept->map[j], &b);
		if (j == 0) {
			trim__eval_json(ev, r->s->a, m, &a);
			trim__eval_json(first_eval, r->s->a, &kept->map[0], &b);
		}
		if (a.failed || b.failed)
			rc = trim__error(TRIM_ENOMEM, "search: out of memory");
		else if (a.len != b.len || memcmp(a.buf, b.buf, a.len))
			rc = trim__error(TRIM_EINVAL, "search: internal error: mapping %s of top node %lld is not what its "
			                 "index rebuilds%s", trim__index_str(kept->idx[j], x), (long long)i,
			                 j ? "" : " (or its evaluation differs)");
	}
	trim__sb_free(&a);
	trim__sb_free(&b);
	trim__eval_ws_free(&ws);
	free(m);
	free(ev);
	return rc;
}

/* A free run worker (-1: none). */
static int take_slot(trim__search_share *sh)
{
	int w = -1;
	omp_set_lock(&sh->lock);
	for (int j = 0; j < sh->run.threads && w < 0; j++)
		if (!sh->busy[j]) {
			sh->busy[j] = 1;
			w = j;
		}
	omp_unset_lock(&sh->lock);
	return w;
}

int trim__search_share_run(trim__search_share *sh, const char *ticket, int record, int64_t *node, char **payload,
                           int *node_rc)
{
	*payload = NULL;
	*node_rc = 0;
	top_threshold t;
	int rc = parse_ticket(sh, ticket, node, &t);
	if (rc)
		return rc;
	const int64_t i = *node;
	const int slot = take_slot(sh);
	if (slot < 0)
		return trim__error(TRIM_EINVAL, "search: more nodes run at once than the search's %d threads",
		                   sh->run.threads);
	search_worker *W = &sh->run.ws[slot];
	counts_take(W, NULL);
	W->err = 0;
	trim__search_top_node(&sh->run, i, &t, W);
	int nrc = W->err;
	if (nrc == 0)
		nrc = check_rebuilt(&sh->run, i, &W->keep, &W->best_eval);
	node_tally c;
	counts_take(W, &c);
	trim__sb sb;
	trim__sb_init(&sb);
	if (nrc == 0)
		result_text(sh, i, &c, &W->keep, &sb);
	if (nrc == 0 && (rc = trim__sb_take(&sb, payload)))
		nrc = rc;
	trim__sb_free(&sb);
	if (record) {
		omp_set_lock(&sh->lock);
		if (nrc) {
			finish_empty(sh, i);
			sh->stop = 1;
		} else {
			int frc = trim__schedule_finish(&sh->q, i, &W->keep, &W->best_eval, &sh->run.glob, &sh->run.glob_eval);
			counts_add(merged(sh), &c);
			sh->stop |= c.stopped;
			if (frc && !sh->run.err)
				sh->run.err = frc;
			trim__search_progress(sh->run.s, sh->q.finished_count, sh->q.n);
		}
		omp_unset_lock(&sh->lock);
	}
	W->keep.n = 0;
	W->err = 0;
	omp_set_lock(&sh->lock);
	sh->busy[slot] = 0;
	omp_unset_lock(&sh->lock);
	if (nrc) {
		free(*payload);
		*payload = NULL;
		*node_rc = nrc; /* the message stays this thread's last error */
	}
	return 0;
}

int trim__search_share_merge(trim__search_share *sh, int64_t node, const char *payload)
{
	top_list kept = {0};
	trim__mapping *m = malloc(sizeof *m);
	trim__eval *ev = malloc(sizeof *ev);
	trim__eval_ws ws;
	memset(&ws, 0, sizeof ws);
	node_tally c;
	int rc = m && ev && trim__top_init(&kept, sh->run.k, 1) == 0 ? 0 : trim__error(TRIM_ENOMEM, "search: out of memory");
	if (rc == 0)
		rc = parse_result(sh, payload, node, &c, &kept, m);
	if (rc == 0 && kept.n && (rc = trim__eval_run(sh->run.s->w, sh->run.s->a, sh->run.costs, &kept.map[0], &ws, ev)))
		rc = trim__error(rc, "search: the best mapping of top node %lld does not evaluate: %s", (long long)node,
		                 trim_last_error());
	if (rc == 0 && kept.n &&
	    (trim__goal_cost(ev, sh->run.goal) != kept.cost[0] || trim__goal_second(ev, sh->run.goal) != kept.sec[0]))
		rc = trim__error(TRIM_EINVAL, "search: the best mapping of top node %lld evaluates to %.17g (second figure "
		                 "%.17g), not the %.17g (%.17g) its result gives", (long long)node, trim__goal_cost(ev, sh->run.goal),
		                 trim__goal_second(ev, sh->run.goal), kept.cost[0], kept.sec[0]);
	if (rc == 0) {
		omp_set_lock(&sh->lock);
		if (!sh->q.finished[node]) {
			rc = trim__schedule_finish(&sh->q, node, &kept, ev, &sh->run.glob, &sh->run.glob_eval);
			counts_add(merged(sh), &c);
			sh->stop |= c.stopped;
			trim__search_progress(sh->run.s, sh->q.finished_count, sh->q.n);
		}
		omp_unset_lock(&sh->lock);
		if (rc)
			rc = trim__error(rc, "search: out of memory");
	}
	trim__top_free(&kept);
	trim__eval_ws_free(&ws);
	free(m);
	free(ev);
	return rc;
}

void trim__search_share_fail(trim__search_share *sh, int64_t node)
{
	omp_set_lock(&sh->lock);
	if (node >= 0 && node < sh->q.n && !sh->q.finished[node])
		finish_empty(sh, node);
	sh->stop = 1;
	omp_unset_lock(&sh->lock);
}

int trim__search_share_finish(trim__search_share *sh)
{
	if (sh->done)
		return sh->done_rc;
	for (int64_t i = 0; i < sh->q.n; i++)
		if (!trim__search_share_finished(sh, i))
			return trim__error(TRIM_EINVAL, "search: top node %lld has no result yet", (long long)i);
	trim__search_result res;
	int rc = trim__search_end(&sh->run, &res);
	sh->done = 1;
	sh->done_rc = trim__search_take_result(sh->search, &res, rc);
	return sh->done_rc;
}
