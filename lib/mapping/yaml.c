/*
 * Reading mappings from YAML: libtrim's own form (what trim_mapping_dump
 * writes) and Timeloop's mapping form. docs/mapping.md describes both.
 *
 * libtrim:                            Timeloop:
 *   schema_version: 1                   mapping:
 *   mapping:                              - target: GLB
 *     - level: GLB                          type: temporal
 *       temporal: {M: 2, C: 2}              factors: R=1 S=1 P=1 Q=1 C=2 K=2 N=1
 *       order: MC      # outer first         permutation: CKRSPQN  # inner first
 *       keep: [input, output]              - target: GLB
 *     - level: NoC                           type: spatial     # the fan-out below GLB
 *       spatial_x: {M: 4}                    factors: K=4 C=2
 *       spatial_y: {C: 2}                    permutation: KC
 *                                            split: 1          # K along X, C along Y
 *                                          - target: GLB
 *                                            type: bypass
 *                                            keep: [Inputs, Outputs]
 *                                            bypass: [Weights]
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "mapping_int.h"
#include "util/handle.h"
#include "util/ydoc.h"

static const char *const own_keys[] = {"schema_version", "mapping", NULL};
static const char *const own_level_keys[] = {"level", "temporal", "order", "keep", "bypass",
                                             "spatial_x", "spatial_y", NULL};
static const char *const tl_level_keys[] = {"target", "type", "factors", "permutation", "split",
                                            "keep", "bypass", NULL};

/* The largest bound a mapping may give one dimension at one level (both
 * forms): 2^40, so that products of a few bounds stay far from 2^63. */
#define MAX_BOUND ((int64_t)1 << 40)

/* Timeloop dim letter -> libtrim dim. Output channels are K in Timeloop's
 * older examples and M in its CNN-Layer problem (what timeloop-mapper
 * writes); G is the group dim of Timeloop's grouped convolution shape. */
static int tl_dim(char c)
{
	switch (toupper((unsigned char)c)) {
	case 'R': return TRIM_DIM_R;
	case 'S': return TRIM_DIM_S;
	case 'P': return TRIM_DIM_E;
	case 'Q': return TRIM_DIM_F;
	case 'C': return TRIM_DIM_C;
	case 'K': return TRIM_DIM_M;
	case 'M': return TRIM_DIM_M;
	case 'N': return TRIM_DIM_N;
	case 'G': return TRIM_DIM_G;
	default: return -1;
	}
}

/* Remember the entry that set level l's bounds (the checks name it). */
static void note_entry(trim__mapping *m, int l, size_t i, const trim__ynode *e)
{
	if (l < 0 || l >= m->nlevels)
		return;
	m->src_entry[l] = (int)i;
	m->src_line[l] = e->line;
	m->src_col[l] = e->col;
}

static int find_level(trim__yctx *c, const trim__ynode *n, const trim__mapping *m, const char *name)
{
	int l = trim__mapping_level(m, name);
	if (l < 0) {
		char list[512] = "", hint[96];
		size_t o = 0;
		trim__nearest near;
		trim__nearest_init(&near, name);
		for (int k = 0; k < m->nlevels; k++) {
			trim__nearest_add(&near, m->name[k]);
			if (o < sizeof list)
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", k ? ", " : "", m->name[k]);
		}
		return trim__yerr(c, n, TRIM_ENOTFOUND, "unknown level '%s' (the architecture has %s)%s", name, list,
		                  trim__suggestion(hint, sizeof hint, &near));
	}
	return l;
}

/* Where the reader of libtrim's form saw each dim's own bound > 1 (a key of
 * one letter), per level: a dim of a flattened group has none. */
typedef struct {
	const trim__ynode *own[TRIM__MAX_LEVELS][TRIM_NDIMS];
} dim_seen;

/* A key of several letters (RSC): a flattened group (docs/mapping.md), added
 * to m; its head, or a negative code. Its dims have no bound of their own
 * at any level (seen). */
static int read_group(trim__yctx *c, const trim__ynode *key, trim__mapping *m, const dim_seen *seen)
{
	const char *s = key->str;
	int dims[TRIM_NDIMS], nd = 0;
	for (const char *p = s; *p; p++) {
		char one[2] = {*p, 0};
		int d = trim__dim_parse(one);
		if (d < 0 || nd == TRIM_NDIMS)
			return trim__yerr(c, key, TRIM_ENOTFOUND, "unknown dimension '%s' (N, G, M, C, E, F, R, S, or a "
			                  "flattened group of several: RSC)", s);
		for (int i = 0; i < nd; i++)
			if (dims[i] == d)
				return trim__yerr(c, key, TRIM_ESCHEMA, "flattened group '%s' names %c twice", s, *p);
		dims[nd++] = d;
	}
	for (int i = 0; seen && i < nd; i++)
		for (int l = 0; l < m->nlevels; l++)
			if (seen->own[l][dims[i]])
				return trim__yerr(c, key, TRIM_ESCHEMA, "dimension %c of the flattened group %s has a bound of its "
				                  "own at level %s (line %d): a group's dims appear in no other factor",
				                  "NGMCEFRS"[dims[i]], s, m->name[l], seen->own[l][dims[i]]->line);
	int g = trim__flat_group_add(m, dims, nd);
	if (g < 0) {
		char msg[512];
		snprintf(msg, sizeof msg, "%s", trim_last_error());
		return trim__yerr(c, key, g, "%s", msg);
	}
	return dims[0];
}

/* {D: bound, ...} into f[] (dims not named stay 1); a key of several
 * letters is a flattened group, its bound at its head (m: groups allowed,
 * level l's own bounds noted in seen; NULL: single dims only). */
static int read_dim_map(trim__yctx *c, const trim__ynode *map, int64_t *f, trim__mapping *m, int l,
                        dim_seen *seen)
{
	int rc = trim__yexpect(c, map, TRIM__Y_MAP);
	if (rc)
		return rc;
	const trim__ynode *named[TRIM_NDIMS] = {0};
	for (int d = 0; d < TRIM_NDIMS; d++)
		f[d] = 1;
	for (size_t i = 0; i < map->n; i++) {
		const trim__ynode *key = map->keys[i];
		int d = trim__dim_parse(key->str);
		trim__yctx_key(c, key->str);
		if (d < 0 && m && strlen(key->str) > 1) {
			d = read_group(c, key, m, seen);
			rc = d < 0 ? d : 0;
		} else if (d < 0) {
			rc = trim__yerr(c, key, TRIM_ENOTFOUND,
			                "unknown dimension '%s' (N, G, M, C, E, F, R, S)", key->str);
		}
		if (!rc) {
			/* a dim named twice in one map, alone or in a group */
			const int g = strlen(key->str) > 1 ? m->group_of[d] - 1 : -1;
			for (int k = 0; k < (g >= 0 ? m->group_nd[g] : 1) && !rc; k++) {
				const int e = g >= 0 ? m->group_dim[g][k] : d;
				if (named[e])
					rc = trim__yerr(c, key, TRIM_ESCHEMA, "dimension %c is named twice here (in '%s' and '%s')",
					                "NGMCEFRS"[e], named[e]->str, key->str);
				named[e] = key;
			}
		}
		if (!rc)
			rc = trim__yint(c, map->items[i], 1, MAX_BOUND, &f[d]);
		if (!rc && m && strlen(key->str) == 1 && f[d] > 1) {
			const int g = m->ngroups ? m->group_of[d] - 1 : -1;
			char name[TRIM_NDIMS + 1];
			if (g >= 0)
				rc = trim__yerr(c, key, TRIM_ESCHEMA, "dimension %c is in the flattened group %s: its bound is the "
				                "group's (write %s), a group's dims appear in no other factor", key->str[0],
				                trim__flat_group_name(m, g, name), name);
			else if (seen && l >= 0)
				seen->own[l][d] = key;
		}
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_slots(trim__yctx *c, const trim__ynode *seq, int *slots)
{
	int rc = trim__yexpect(c, seq, TRIM__Y_SEQ);
	if (rc)
		return rc;
	slots[0] = slots[1] = slots[2] = 0;
	for (size_t i = 0; i < seq->n; i++) {
		trim__yctx_index(c, i);
		rc = trim__yexpect(c, seq->items[i], TRIM__Y_SCALAR);
		int t = rc ? -1 : trim__mapping_slot_of(seq->items[i]->str);
		if (!rc && t < 0)
			rc = trim__yerr(c, seq->items[i], TRIM_ESCHEMA,
			                "unknown tensor '%s' (input, weight, output; Timeloop: Inputs, Weights, Outputs)",
			                seq->items[i]->str);
		trim__yctx_pop(c);
		if (rc)
			return rc;
		slots[t] = 1;
	}
	return 0;
}

/* keep: / bypass: of one entry. */
static int read_keep(trim__yctx *c, const trim__ynode *e, trim__mapping *m, int l)
{
	const trim__ynode *kn = trim__ymap_get(e, "keep"), *bn = trim__ymap_get(e, "bypass");
	int keep[3] = {0}, byp[3] = {0}, rc;
	if (!kn && !bn)
		return 0;
	if (kn) {
		trim__yctx_key(c, "keep");
		rc = read_slots(c, kn, keep);
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	if (m->type[l] != TRIM__LVL_STORAGE) {
		/* Timeloop 0.4 writes a datatype directive for every level of its
		 * flattened hierarchy, a container's (a spatial level here) keeping
		 * nothing: that says nothing, and is read as such */
		if (kn && !keep[0] && !keep[1] && !keep[2])
			return 0;
		return trim__yerr(c, kn ? kn : bn, TRIM_ESCHEMA, "level %s is not a storage level: it keeps nothing",
		                  m->name[l]);
	}
	if (bn) {
		trim__yctx_key(c, "bypass");
		rc = read_slots(c, bn, byp);
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	for (int t = 0; t < 3; t++) {
		if (kn && bn && keep[t] && byp[t])
			return trim__yerr(c, bn, TRIM_ESCHEMA, "a tensor is both kept and bypassed");
		if (kn && !bn)
			m->keep[l][t] = keep[t];
		else if (bn && !kn)
			m->keep[l][t] = m->keep[l][t] && !byp[t];
		else
			m->keep[l][t] = keep[t] ? 1 : byp[t] ? 0 : m->keep[l][t];
	}
	return 0;
}

static int read_own(trim__yctx *c, const trim__ynode *list, trim__mapping *m)
{
	int rc = 0, seen[TRIM__MAX_LEVELS] = {0};
	dim_seen own;
	memset(&own, 0, sizeof own);
	for (size_t i = 0; i < list->n && !rc; i++) {
		const trim__ynode *e = list->items[i];
		const char *name = NULL;
		trim__yctx_index(c, i);
		if ((rc = trim__ymap_check(c, e, own_level_keys)) ||
		    (rc = trim__yget_str(c, e, "level", 1, &name)))
			goto next;
		trim__yctx_key(c, "level");
		int l = find_level(c, trim__ymap_get(e, "level"), m, name);
		trim__yctx_pop(c);
		if (l < 0) {
			rc = l;
			goto next;
		}
		if (seen[l]++) {
			rc = trim__yerr(c, e, TRIM_ESCHEMA, "level %s appears twice", name);
			goto next;
		}
		const trim__ynode *tn = trim__ymap_get(e, "temporal"), *on = trim__ymap_get(e, "order");
		const trim__ynode *xn = trim__ymap_get(e, "spatial_x"), *yn = trim__ymap_get(e, "spatial_y");
		if (m->type[l] == TRIM__LVL_COMPUTE) {
			rc = trim__yerr(c, e, TRIM_ESCHEMA, "level %s is the compute level: it has no loops", name);
			goto next;
		}
		if (m->type[l] == TRIM__LVL_STORAGE && (xn || yn)) {
			rc = trim__yerr(c, xn ? xn : yn, TRIM_ESCHEMA, "level %s is a storage level: temporal bounds only", name);
			goto next;
		}
		if (m->type[l] == TRIM__LVL_SPATIAL && (tn || on)) {
			rc = trim__yerr(c, tn ? tn : on, TRIM_ESCHEMA, "level %s is a spatial level: spatial_x / spatial_y only", name);
			goto next;
		}
		if (tn) {
			trim__yctx_key(c, "temporal");
			rc = read_dim_map(c, tn, m->f[l], m, l, &own);
			trim__yctx_pop(c);
			if (rc)
				goto next;
		}
		if (on) {
			const char *ord = NULL;
			if ((rc = trim__yget_str(c, e, "order", 1, &ord)))
				goto next;
			if ((rc = trim__mapping_set_order_str(m, l, ord))) {
				trim__yctx_key(c, "order");
				rc = trim__yerr(c, on, rc, "%s", trim_last_error());
				trim__yctx_pop(c);
				goto next;
			}
		}
		if (xn || yn) {
			int64_t fx[TRIM_NDIMS], fy[TRIM_NDIMS];
			for (int d = 0; d < TRIM_NDIMS; d++)
				fx[d] = fy[d] = 1;
			if (xn) {
				trim__yctx_key(c, "spatial_x");
				rc = read_dim_map(c, xn, fx, m, l, &own);
				trim__yctx_pop(c);
			}
			if (!rc && yn) {
				trim__yctx_key(c, "spatial_y");
				rc = read_dim_map(c, yn, fy, m, l, &own);
				trim__yctx_pop(c);
			}
			if (rc)
				goto next;
			for (int d = 0; d < TRIM_NDIMS; d++) {
				m->fx[l][d] = fx[d];
				m->fy[l][d] = fy[d];
				int64_t xy = 0;
				if (__builtin_mul_overflow(fx[d], fy[d], &xy) || xy > MAX_BOUND) {
					rc = trim__yerr(c, e, TRIM_ERANGE, "level %s: the spatial bound of %c is %lld x %lld, "
					                "more than 2^40", name, "NGMCEFRS"[d], (long long)fx[d],
					                (long long)fy[d]);
					goto next;
				}
				m->f[l][d] = fx[d] * fy[d];
			}
		}
		note_entry(m, l, i, e);
		rc = read_keep(c, e, m, l);
	next:
		trim__yctx_pop(c);
	}
	for (int l = 0; !rc && m->ngroups && l < m->nlevels; l++)
		if (m->type[l] == TRIM__LVL_STORAGE)
			trim__flat_order_normalize(m, l);
	return rc;
}

/* "R=3 S=3 P=1 ..." or, as timeloop-mapper writes them, "R3 S3 P1 ..." into
 * f[] (libtrim dims; dims not named stay 1; a dim named twice is an error);
 * Timeloop's residual "P=14,13" (13 iterations in the last pass of its
 * parent, at most the bound) into res[] (0: none given). */
static int tl_factors(trim__yctx *c, const trim__ynode *n, int64_t *f, int64_t *res)
{
	int named[TRIM_NDIMS] = {0};
	for (int d = 0; d < TRIM_NDIMS; d++)
		f[d] = 1, res[d] = 0;
	const char *p = n->str;
	while (*p) {
		while (isspace((unsigned char)*p) || *p == ',')
			p++;
		if (!*p)
			break;
		const char *fp = p; /* this factor, for the messages */
		int d = tl_dim(*p);
		const char *num = p + 1 + (p[1] == '=');
		if (d < 0 || !isdigit((unsigned char)*num))
			return trim__yerr(c, n, TRIM_ESCHEMA,
			                  "bad factor '%.8s': want D=n or Dn with D in R S P Q C K (or M) N G", p);
		if (named[d]++)
			return trim__yerr(c, n, TRIM_ESCHEMA, "bad factor '%.8s': %c is named twice", p, *p);
		errno = 0;
		char *end = NULL;
		long long v = strtoll(num, &end, 10);
		if (v < 1 || (*end && !isspace((unsigned char)*end) && *end != ','))
			return trim__yerr(c, n, TRIM_ESCHEMA, "bad factor '%.8s': the bound must be an integer >= 1", p);
		if (errno == ERANGE || v > MAX_BOUND)
			return trim__yerr(c, n, TRIM_ERANGE, "bad factor '%.*s': a bound is at most 2^40 = %lld",
			                  (int)(end - p), p, (long long)MAX_BOUND);
		f[d] = v;
		p = end;
		if (p[0] == ',' && !isdigit((unsigned char)p[1]))
			return trim__yerr(c, n, TRIM_ESCHEMA, "bad factor '%.*s': nothing after the comma (Timeloop's residual: "
			                  "%.*s,N, N from 1 to the bound %lld the iterations of the last pass)",
			                  (int)(p + 1 - fp), fp, (int)(p - fp), fp, v);
		if (p[0] == ',') {
			long long r = strtoll(p + 1, &end, 10);
			if (r < 1 || r > v || (*end && !isspace((unsigned char)*end) && *end != ','))
				return trim__yerr(c, n, TRIM_ESCHEMA, "bad factor '%.*s': the residual (after the comma) must be "
				                  "an integer from 1 to the bound %lld", (int)(end - fp), fp, v);
			res[d] = r;
			p = end;
		}
	}
	return 0;
}

/* Timeloop permutation (inner to outer) as dims outer to inner. */
static int tl_perm(trim__yctx *c, const trim__ynode *n, int *dims, int *nd)
{
	int seen[TRIM_NDIMS] = {0};
	*nd = 0;
	for (const char *p = n->str; *p; p++) {
		if (isspace((unsigned char)*p))
			continue;
		int d = tl_dim(*p);
		if (d < 0 || seen[d])
			return trim__yerr(c, n, TRIM_ESCHEMA, "bad permutation '%s' (letters of R S P Q C K (or M) N G, each once)", n->str);
		seen[d] = 1;
		dims[(*nd)++] = d;
	}
	return 0;
}

/* A directive's factors fn, "R=3 S=3 P=1" or a list [R=3, S=3, P=1]
 * (Timeloop accepts both), into f and the residuals res. */
static int tl_directive_factors(trim__yctx *c, const trim__ynode *fn, int64_t *f, int64_t *res)
{
	int rc = 0;
	trim__yctx_key(c, "factors");
	if (fn->kind == TRIM__Y_SEQ) {
		int64_t one[TRIM_NDIMS], ores[TRIM_NDIMS];
		for (size_t k = 0; k < fn->n && !rc; k++) {
			trim__yctx_index(c, k);
			rc = trim__yexpect(c, fn->items[k], TRIM__Y_SCALAR);
			if (!rc)
				rc = tl_factors(c, fn->items[k], one, ores);
			for (int d = 0; d < TRIM_NDIMS && !rc; d++) {
				if (one[d] != 1)
					f[d] = one[d];
				if (ores[d])
					res[d] = ores[d];
			}
			trim__yctx_pop(c);
		}
	} else {
		rc = trim__yexpect(c, fn, TRIM__Y_SCALAR);
		if (!rc)
			rc = tl_factors(c, fn, f, res);
	}
	trim__yctx_pop(c);
	return rc;
}

/* A spatial directive e for level L (factors f, residuals res, permutation
 * perm of np dims): its X and Y factors, multiplied into an earlier one's
 * (spatial_seen), and the digits of the last point (rdig, any_res). */
static int tl_spatial_directive(trim__yctx *c, const trim__ynode *e, trim__mapping *m, int L, const int64_t *f,
                                const int64_t *res, const int *perm, int np, int *spatial_seen,
                                int64_t rdig[][TRIM_NDIMS], int *any_res)
{
	int64_t split = TRIM_NDIMS;
	int rc = trim__yget_int(c, e, "split", 0, 0, 64, &split);
	if (rc < 0)
		return rc;
	/* Timeloop: loops at permutation positions < split along X, the
	 * others along Y; dims not in the permutation along X. A second
	 * spatial directive for the same level (the Y fan-out of an array
	 * Timeloop describes as two, as trim_mapping_dump_timeloop writes
	 * a dim split over X and Y) multiplies into the first. */
	int again = spatial_seen[L]++ > 0;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		int pos = -1;
		for (int k = 0; k < np; k++)
			if (perm[k] == d)
				pos = k;
		int x = pos < 0 || pos < split;
		int64_t fx = x ? f[d] : 1, fy = x ? 1 : f[d];
		int64_t xy = 0;
		if (again && (__builtin_mul_overflow(fx, m->fx[L][d], &fx) ||
		              __builtin_mul_overflow(fy, m->fy[L][d], &fy) ||
		              __builtin_mul_overflow(fx, fy, &xy) || xy > MAX_BOUND)) {
			rc = trim__yerr(c, e, TRIM_ERANGE, "the spatial bound of %c at %s is more than 2^40",
			                "NGMCEFRS"[d], m->name[L]);
			return rc;
		}
		/* the last point's digit: this directive's loop inside the
		 * first one's (a second fan-out below the first) */
		int64_t prev = again ? m->f[L][d] : 1;
		if (res[d] || (again && rdig[L][d] >= 0)) {
			int64_t hi = again ? (rdig[L][d] >= 0 ? rdig[L][d] : prev - 1) : 0;
			rdig[L][d] = hi * f[d] + (res[d] ? res[d] : f[d]) - 1;
			any_res[d] = 1;
		}
		m->f[L][d] = fx * fy; /* one of them is 1, or xy checked it */
		m->fx[L][d] = fx;
		m->fy[L][d] = fy;
	}
	return 0;
}

/* With residuals, the bound they cover (Timeloop: 1 + the last point, sum
 * over levels of digit x the bounds inside): trim__mapping_check requires
 * the workload's. */
static void tl_residual_bounds(trim__mapping *m, int64_t rdig[][TRIM_NDIMS], const int *any_res)
{
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (!any_res[d])
			continue;
		int64_t last = 0, stride = 1;
		int over = 0;
		for (int l = m->nlevels - 1; l >= 0; l--) {
			int64_t dig = rdig[l][d] >= 0 ? rdig[l][d] : m->f[l][d] - 1, t;
			over |= __builtin_mul_overflow(dig, stride, &t) || __builtin_add_overflow(last, t, &last) ||
			        __builtin_mul_overflow(stride, m->f[l][d], &stride);
		}
		m->tl_bound[d] = over ? INT64_MAX : last + 1;
	}
}

static int read_timeloop(trim__yctx *c, const trim__ynode *list, trim__mapping *m)
{
	static const char *const types[] = {"temporal", "spatial", "bypass", "datatype", "dataspace", NULL};
	int rc = 0, spatial_seen[TRIM__MAX_LEVELS] = {0};
	/* residuals given (Timeloop's "P=14,13"): per level and dim the digit of
	 * the last point (residual - 1, -1: none given) and its radix */
	int64_t rdig[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int any_res[TRIM_NDIMS] = {0};
	memset(rdig, 0xff, sizeof rdig);
	for (size_t i = 0; i < list->n && !rc; i++) {
		const trim__ynode *e = list->items[i];
		const char *name = NULL;
		int type = 0;
		trim__yctx_index(c, i);
		if ((rc = trim__ymap_check(c, e, tl_level_keys)) ||
		    (rc = trim__yget_str(c, e, "target", 1, &name)) ||
		    (rc = trim__yget_enum(c, e, "type", 1, types, &type)))
			goto next;
		trim__yctx_key(c, "target");
		int l = find_level(c, trim__ymap_get(e, "target"), m, name);
		trim__yctx_pop(c);
		if (l < 0) {
			rc = l;
			goto next;
		}
		if (type >= 2) {
			rc = read_keep(c, e, m, l);
			if (!rc && m->src_line[l] == 0)
				note_entry(m, l, i, e); /* a temporal entry for l, if any, wins */
			goto next;
		}
		/* spatial directives target the parent storage level: the fan-out
		 * is the first spatial level below it */
		int L = l;
		if (type == 1 && m->type[l] != TRIM__LVL_SPATIAL) {
			L = -1;
			for (int k = l + 1; k < m->nlevels; k++)
				if (m->type[k] == TRIM__LVL_SPATIAL) {
					L = k;
					break;
				} else if (m->type[k] == TRIM__LVL_STORAGE) {
					break;
				}
			if (L < 0) {
				rc = trim__yerr(c, e, TRIM_ESCHEMA, "no spatial level directly below %s for a spatial directive", name);
				goto next;
			}
		}
		int64_t f[TRIM_NDIMS], res[TRIM_NDIMS] = {0};
		const trim__ynode *fn = trim__ymap_get(e, "factors"), *pn = trim__ymap_get(e, "permutation");
		for (int d = 0; d < TRIM_NDIMS; d++)
			f[d] = 1;
		if (fn && (rc = tl_directive_factors(c, fn, f, res)))
			goto next;
		int perm[TRIM_NDIMS], np = 0;
		if (pn) {
			trim__yctx_key(c, "permutation");
			rc = trim__yexpect(c, pn, TRIM__Y_SCALAR);
			if (!rc)
				rc = tl_perm(c, pn, perm, &np);
			trim__yctx_pop(c);
			if (rc)
				goto next;
		}
		if (type == 0 && m->type[l] != TRIM__LVL_STORAGE) {
			/* a Timeloop 0.4 container's temporal directive: all its
			 * factors are 1 (a container has no temporal loops) */
			int ones = 1;
			for (int d = 0; d < TRIM_NDIMS; d++)
				ones &= f[d] == 1 && !res[d];
			if (!ones)
				rc = trim__yerr(c, e, TRIM_ESCHEMA,
				                "temporal directive on %s, which is not a storage level (only factors of 1 "
				                "are accepted there, as Timeloop writes for a container)", name);
			else
				note_entry(m, l, i, e);
			goto next;
		}
		if (type == 0) {
			char ord[TRIM_NDIMS + 1];
			for (int k = 0; k < np; k++)
				ord[k] = "NGMCEFRS"[perm[np - 1 - k]];
			ord[np] = 0;
			memcpy(m->f[l], f, sizeof f);
			for (int d = 0; d < TRIM_NDIMS; d++)
				if (res[d]) {
					rdig[l][d] = res[d] - 1;
					any_res[d] = 1;
				}
			note_entry(m, l, i, e);
			if ((rc = trim__mapping_set_order_str(m, l, ord)))
				goto next;
		} else {
			if ((rc = tl_spatial_directive(c, e, m, L, f, res, perm, np, spatial_seen, rdig, any_res)))
				goto next;
			note_entry(m, L, i, e);
		}
	next:
		trim__yctx_pop(c);
	}
	if (!rc)
		tl_residual_bounds(m, rdig, any_res);
	return rc;
}

static int load_doc(trim__mapping *m, trim__ydoc *doc)
{
	trim__yctx c;
	trim__yctx_init(&c, trim__ydoc_name(doc));
	const trim__ynode *root = trim__ydoc_root(doc), *list = NULL;
	int rc = trim__yexpect(&c, root, TRIM__Y_MAP);
	if (rc)
		return rc;
	if ((rc = trim__yget_node(&c, root, "mapping", 1, TRIM__Y_SEQ, &list)))
		return rc;
	int timeloop = list->n > 0 && list->items[0]->kind == TRIM__Y_MAP &&
	               trim__ymap_get(list->items[0], "target");
	if (!timeloop) {
		int64_t v = 1;
		if ((rc = trim__ymap_check(&c, root, own_keys)))
			return rc;
		if ((rc = trim__yget_int(&c, root, "schema_version", 0, 1, 1, &v)) < 0)
			return rc;
	}
	snprintf(m->src, sizeof m->src, "%s", trim__ydoc_name(doc) ? trim__ydoc_name(doc) : "<input>");
	m->src_list_line = list->line;
	m->src_list_col = list->col;
	trim__yctx_key(&c, "mapping");
	rc = timeloop ? read_timeloop(&c, list, m) : read_own(&c, list, m);
	trim__yctx_pop(&c);
	return rc;
}

static int load_common(trim_mapping **out, const trim_arch *arch, trim__ydoc *doc)
{
	trim__mapping *m = NULL;
	int rc = trim_mapping_create(&m, arch);
	if (rc)
		goto out;
	if ((rc = load_doc(m, doc)))
		goto out;
	*out = m;
	m = NULL;
out:
	trim_mapping_free(m);
	trim__ydoc_free(doc);
	return rc;
}

int trim_mapping_load(trim_mapping **out, const trim_arch *arch, const char *path)
{
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	if (!out || !arch || !path)
		return trim__error(TRIM_EINVAL, "trim_mapping_load: NULL argument");
	*out = NULL;
	trim__ydoc *doc = NULL;
	int rc = trim__ydoc_load_file(&doc, path);
	if (rc)
		return rc;
	return load_common(out, arch, doc);
}

int trim_mapping_load_string(trim_mapping **out, const trim_arch *arch, const char *yaml,
                             const char *name)
{
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	if (!out || !arch || !yaml)
		return trim__error(TRIM_EINVAL, "trim_mapping_load_string: NULL argument");
	*out = NULL;
	trim__ydoc *doc = NULL;
	int rc = trim__ydoc_load_string(&doc, yaml, strlen(yaml), name ? name : "<string>");
	if (rc)
		return rc;
	return load_common(out, arch, doc);
}
