/*
 * Dataflow constraints (docs/mapping.md, "Dataflow constraints"): the
 * reader (libtrim's and Timeloop's forms), the presets, the check against
 * an architecture and the restriction of one workload's mapspace.
 *
 *   schema_version: 1                    mapspace_constraints:       # Timeloop
 *   preset: row-stationary                 - target: RF
 *   targets:                                 type: temporal
 *     - target: RF                           factors: N=1 K=1 P=1 R=1
 *       type: temporal                       permutation: SQ        # inner first
 *       only: [S, F, C, M]                 - target: GLB
 *       permutation: SF    # inner first     type: spatial          # the fan-out below
 *     - target: RF                           factors: N=1 Q=1 S=1
 *       type: bypass                         permutation: RPKC
 *       keep: [weight]                       split: 2               # R P along X
 *
 * A set is independent of any architecture; it is resolved against one
 * (level names, kinds, conflicts) into a plan when it is used, and the plan
 * restricts a mapspace through the mapspace's own filters (pins and caps of
 * the factor rows, forced keep bits, per-level permutations filtering the
 * order classes, spatial axes), so the exact search and the distinct count
 * stay exact over the constrained space.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "constraints_int.h"
#include "util/handle.h"
#include "util/util.h"

enum { CT_TEMPORAL = 0, CT_SPATIAL = 1, CT_BYPASS = 2 };
enum { SRC_LEN = 400, MAX_PRESETS = 8 };

static const char dim_letters[TRIM_NDIMS + 1] = "NGMCEFRS";
static const char *const slot_names[3] = {"input", "weight", "output"};
static const char *const type_names[3] = {"temporal", "spatial", "bypass"};

/* One target as written. */
typedef struct {
	char level[TRIM__ARCH_NAME_LEN];
	int type;
	int64_t fix[TRIM_NDIMS]; /* -1 free, 0 the workload's whole bound, > 0 that bound */
	int64_t max[TRIM_NDIMS]; /* 0 none, else the bound is at most this */
	int has_only;
	unsigned only;           /* with has_only: the dims that may be > 1 here */
	int nperm;
	int perm[TRIM_NDIMS];    /* innermost first */
	int split;               /* spatial: -1 none */
	int keep[3];             /* -1 free, 0 bypass, 1 keep */
	char src[SRC_LEN];       /* "file:line:col: key.path" of the entry */
	char tsrc[SRC_LEN];      /* ... of its level name */
} ctarget;

struct trim_constraints {
	uint32_t tag; /* TRIM__H_CONSTRAINTS (util/handle.h): first, checked by every entry point */
	size_t n, cap;
	ctarget *t;
	int npreset;
	int preset[MAX_PRESETS];
	char preset_src[MAX_PRESETS][SRC_LEN]; /* "" when added by name */
};

/* ---- presets ----------------------------------------------------------------- */

#define B(d) (1u << TRIM_DIM_##d)
static const struct {
	const char *name, *desc;
	unsigned inner;     /* dims the innermost storage level may loop on */
	const char *perm;   /* its innermost loops, innermost first ("" none) */
	unsigned spatial;   /* dims every spatial level may spread */
} presets[] = {
	{"weight-stationary",
	 "innermost storage loops on N E F only (a weight stays while every MAC using it runs), spatial "
	 "on G M C R S only (weights partitioned over the PEs); Chen et al. ISCA 2016 (WS), Timeloop's "
	 "simple_weight_stationary example",
	 B(N) | B(E) | B(F), "", B(G) | B(M) | B(C) | B(R) | B(S)},
	{"output-stationary",
	 "innermost storage loops on C R S only (a partial sum stays until it is complete), spatial on "
	 "N G M E F only (outputs partitioned over the PEs); Chen et al. ISCA 2016 (OS), ShiDianNao",
	 B(C) | B(R) | B(S), "", B(N) | B(G) | B(M) | B(E) | B(F)},
	{"input-stationary",
	 "innermost storage loops on M only (an input stays while every filter uses it), spatial on "
	 "N G C E F only (inputs partitioned over the PEs, up to window halos); Chen et al. ISCA 2016 "
	 "taxonomy, SCNN (Parashar et al. ISCA 2017)",
	 B(M), "", B(N) | B(G) | B(C) | B(E) | B(F)},
	{"row-stationary",
	 "spatial on R E (filter rows x output rows) plus G M C to fill the array, never N F S; "
	 "innermost storage loops on S F C M only, S then F innermost (a filter row, an input "
	 "window and a psum row per PE: the 1-D row convolution); Chen et al. ISCA 2016 / JSSC 2017 "
	 "(Eyeriss), Timeloop's Eyeriss row-stationary example",
	 B(S) | B(F) | B(C) | B(M), "SF", B(G) | B(M) | B(C) | B(E) | B(R)},
};
#undef B
#define NPRESETS (sizeof presets / sizeof presets[0])

const char *trim_constraints_preset_name(size_t i) { return i < NPRESETS ? presets[i].name : NULL; }
const char *trim_constraints_preset_description(size_t i) { return i < NPRESETS ? presets[i].desc : NULL; }

static int preset_find(const char *name)
{
	for (size_t i = 0; i < NPRESETS; i++)
		if (!strcmp(name, presets[i].name))
			return (int)i;
	return -1;
}

/* "; did you mean 'X'?" for a misspelt preset name, or "". */
static const char *preset_hint(char *buf, size_t n, const char *name)
{
	trim__nearest near;
	trim__nearest_init(&near, name);
	for (size_t i = 0; i < NPRESETS; i++)
		trim__nearest_add(&near, presets[i].name);
	return trim__suggestion(buf, n, &near);
}

static void preset_list(char *buf, size_t n)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < NPRESETS && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", presets[i].name);
}

/* ---- the set ----------------------------------------------------------------- */

int trim_constraints_create(trim_constraints **out)
{
	if (!out)
		return trim__error(TRIM_EINVAL, "trim_constraints_create: NULL argument");
	*out = trim__calloc(1, sizeof **out);
	if (!*out)
		return TRIM_ENOMEM;
	TRIM__HANDLE_INIT(*out, CONSTRAINTS);
	return 0;
}

void trim_constraints_free(trim_constraints *c)
{
	TRIM__HANDLE_CHECK_VOID(c, CONSTRAINTS);
	if (!c)
		return;
	free(c->t);
	TRIM__HANDLE_POISON(c, CONSTRAINTS);
	free(c);
}

static ctarget *push_target(trim_constraints *c)
{
	if (trim__grow((void **)&c->t, &c->cap, c->n + 1, sizeof *c->t))
		return NULL;
	ctarget *t = &c->t[c->n++];
	memset(t, 0, sizeof *t);
	for (int d = 0; d < TRIM_NDIMS; d++)
		t->fix[d] = -1;
	t->split = -1;
	t->keep[0] = t->keep[1] = t->keep[2] = -1;
	return t;
}

static int add_preset(trim_constraints *c, int p, const char *src)
{
	for (int i = 0; i < c->npreset; i++)
		if (c->preset[i] == p)
			return 0;
	if (c->npreset == MAX_PRESETS)
		return trim__error(TRIM_ERANGE, "constraints: at most %d presets", MAX_PRESETS);
	c->preset[c->npreset] = p;
	snprintf(c->preset_src[c->npreset], SRC_LEN, "%s", src ? src : "");
	c->npreset++;
	return 0;
}

int trim_constraints_add_preset(trim_constraints *c, const char *name)
{
	TRIM__HANDLE_CHECK(c, CONSTRAINTS, TRIM_EINVAL);
	if (!c || !name)
		return trim__error(TRIM_EINVAL, "trim_constraints_add_preset: NULL argument");
	int p = preset_find(name);
	if (p < 0) {
		char list[256], hint[96];
		preset_list(list, sizeof list);
		return trim__error(TRIM_ENOTFOUND, "unknown dataflow preset '%s' (%s)%s", name, list,
		                   preset_hint(hint, sizeof hint, name));
	}
	return add_preset(c, p, NULL);
}

int trim_constraints_merge(trim_constraints *c, const trim_constraints *o)
{
	TRIM__HANDLE_CHECK(c, CONSTRAINTS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(o, CONSTRAINTS, TRIM_EINVAL);
	if (!c || !o)
		return trim__error(TRIM_EINVAL, "trim_constraints_merge: NULL argument");
	if (o->n && trim__grow((void **)&c->t, &c->cap, c->n + o->n, sizeof *c->t))
		return TRIM_ENOMEM;
	if (o->n)
		memcpy(c->t + c->n, o->t, o->n * sizeof *o->t);
	c->n += o->n;
	for (int i = 0; i < o->npreset; i++) {
		int rc = add_preset(c, o->preset[i], o->preset_src[i]);
		if (rc)
			return rc;
	}
	return 0;
}

int trim_constraints_clone(trim_constraints **out, const trim_constraints *c)
{
	TRIM__HANDLE_CHECK(c, CONSTRAINTS, TRIM_EINVAL);
	if (!out || !c)
		return trim__error(TRIM_EINVAL, "trim_constraints_clone: NULL argument");
	int rc = trim_constraints_create(out);
	if (rc == 0 && (rc = trim_constraints_merge(*out, c))) {
		trim_constraints_free(*out);
		*out = NULL;
	}
	return rc;
}

size_t trim_constraints_count(const trim_constraints *c)
{
	return TRIM__HANDLE_OK(c, CONSTRAINTS) ? c->n : 0;
}

size_t trim__constraints_items(const trim_constraints *c) { return c ? (size_t)c->npreset + c->n : 0; }

int trim__constraints_without(const trim_constraints *c, size_t item, trim_constraints **out, char *name,
                              size_t n)
{
	*out = NULL;
	if (!c || item >= trim__constraints_items(c))
		return trim__error(TRIM_ENOTFOUND, "constraints: no item %zu", item);
	int rc = trim_constraints_create(out);
	if (rc)
		return rc;
	trim_constraints *o = *out;
	for (int i = 0; i < c->npreset && !rc; i++)
		if ((size_t)i != item)
			rc = add_preset(o, c->preset[i], c->preset_src[i]);
	for (size_t i = 0; i < c->n && !rc; i++) {
		if ((size_t)c->npreset + i == item)
			continue;
		ctarget *t = push_target(o);
		if (!t)
			rc = TRIM_ENOMEM;
		else
			*t = c->t[i];
	}
	if (rc) {
		trim_constraints_free(o);
		*out = NULL;
		return rc;
	}
	if (item < (size_t)c->npreset) {
		int p = c->preset[item];
		if (c->preset_src[item][0])
			snprintf(name, n, "the preset %s (%s)", presets[p].name, c->preset_src[item]);
		else
			snprintf(name, n, "the preset %s", presets[p].name);
	} else {
		snprintf(name, n, "%s", c->t[item - (size_t)c->npreset].src);
	}
	return 0;
}
size_t trim_constraints_preset_count(const trim_constraints *c)
{
	return TRIM__HANDLE_OK(c, CONSTRAINTS) ? (size_t)c->npreset : 0;
}

/* ---- reading ------------------------------------------------------------------ */

/* A dimension letter: libtrim's N G M C E F R S or Timeloop's P Q K. */
static int dim_of(char ch)
{
	switch (toupper((unsigned char)ch)) {
	case 'N': return TRIM_DIM_N;
	case 'G': return TRIM_DIM_G;
	case 'M': case 'K': return TRIM_DIM_M;
	case 'C': return TRIM_DIM_C;
	case 'E': case 'P': return TRIM_DIM_E;
	case 'F': case 'Q': return TRIM_DIM_F;
	case 'R': return TRIM_DIM_R;
	case 'S': return TRIM_DIM_S;
	default: return -1;
	}
}

#define DIM_HELP "N G M C E F R S; Timeloop's P = E, Q = F, K = M"

static void where(const trim__yctx *c, const trim__ynode *n, char *buf)
{
	snprintf(buf, SRC_LEN, "%s:%d:%d: %s", c->file ? c->file : "<input>", n ? n->line : 0, n ? n->col : 0,
	         c->path);
}

/* One factor item "D=n" / "D<=n" of `text` at *p (advanced). */
static int factor_item(trim__yctx *c, const trim__ynode *n, const char **pp, ctarget *t, unsigned *seen)
{
	const char *p = *pp, *start = p;
	if (!isalpha((unsigned char)*p) || isalpha((unsigned char)p[1]))
		goto bad;
	int d = dim_of(*p);
	if (d < 0)
		return trim__yerr(c, n, TRIM_ESCHEMA, "unknown dimension '%c' in factors '%s' (" DIM_HELP ")", *p,
		                  n->str);
	p++;
	while (*p == ' ')
		p++;
	int le = 0;
	if (p[0] == '<' && p[1] == '=') {
		le = 1;
		p += 2;
	} else if (*p == '=') {
		p++;
	} else {
		goto bad;
	}
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		goto bad;
	char *end = NULL;
	long long v = strtoll(p, &end, 10);
	if (v < (le ? 1 : 0) || v > ((long long)1 << 40))
		return trim__yerr(c, n, TRIM_ERANGE, "factor %c%s%lld out of range (%s)", dim_letters[d], le ? "<=" : "=",
		                  v, le ? "a cap is >= 1" : "a bound is >= 1, or 0 for the whole bound");
	if (*seen >> (2 * d + le) & 1)
		return trim__yerr(c, n, TRIM_ESCHEMA, "%s of %c given twice in '%s'", le ? "the cap" : "the bound",
		                  dim_letters[d], n->str);
	*seen |= 1u << (2 * d + le);
	if (le)
		t->max[d] = v;
	else
		t->fix[d] = v;
	*pp = end;
	return 0;
bad:
	return trim__yerr(c, n, TRIM_ESCHEMA, "bad factor '%.12s' in '%s': want D=n (0: the whole bound) or D<=n, D in " DIM_HELP,
	                  start, n->str);
}

/* "R=3 S=0 P<=4" (spaces or commas between items). */
static int factor_string(trim__yctx *c, const trim__ynode *n, ctarget *t, unsigned *seen)
{
	const char *p = n->str;
	for (;;) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		if (!*p)
			return 0;
		int rc = factor_item(c, n, &p, t, seen);
		if (rc)
			return rc;
	}
}

static int read_factors(trim__yctx *c, const trim__ynode *n, ctarget *t)
{
	unsigned seen = 0;
	int rc = 0;
	if (n->kind == TRIM__Y_SCALAR)
		return factor_string(c, n, t, &seen);
	if (n->kind == TRIM__Y_SEQ) { /* [R=3, S=3] */
		for (size_t i = 0; i < n->n && !rc; i++) {
			trim__yctx_index(c, i);
			rc = trim__yexpect(c, n->items[i], TRIM__Y_SCALAR);
			if (!rc)
				rc = factor_string(c, n->items[i], t, &seen);
			trim__yctx_pop(c);
		}
		return rc;
	}
	/* {R: 3, S: 0, P: "<=4"} */
	for (size_t i = 0; i < n->n && !rc; i++) {
		const char *k = n->keys[i]->str;
		const trim__ynode *v = n->items[i];
		trim__yctx_key(c, k);
		int d = k[0] && !k[1] ? dim_of(k[0]) : -1;
		if (d < 0) {
			rc = trim__yerr(c, n->keys[i], TRIM_ESCHEMA, "unknown dimension '%s' (" DIM_HELP ")", k);
		} else if ((rc = trim__yexpect(c, v, TRIM__Y_SCALAR)) == 0) {
			char item[64];
			trim__ynode tmp = *v;
			snprintf(item, sizeof item, "%c%s%s", k[0], v->str[0] == '<' ? "" : "=", v->str);
			tmp.str = item;
			const char *p = item;
			rc = factor_item(c, &tmp, &p, t, &seen);
			if (!rc && *p)
				rc = trim__yerr(c, v, TRIM_ESCHEMA, "bad factor '%s': want n (0: the whole bound) or <=n", v->str);
		}
		trim__yctx_pop(c);
	}
	return rc;
}

/* Dimension letters "SRC" / "S R C" / [S, R, C] into dl (each once). */
static int read_dims(trim__yctx *c, const trim__ynode *n, int *dl, int *nd)
{
	unsigned seen = 0;
	*nd = 0;
	for (size_t i = 0; i < (n->kind == TRIM__Y_SEQ ? n->n : 1); i++) {
		const trim__ynode *x = n->kind == TRIM__Y_SEQ ? n->items[i] : n;
		if (n->kind == TRIM__Y_SEQ)
			trim__yctx_index(c, i);
		int rc = trim__yexpect(c, x, TRIM__Y_SCALAR);
		for (const char *p = x->str; !rc && *p; p++) {
			if (*p == ' ' || *p == ',')
				continue;
			int d = dim_of(*p);
			if (d < 0)
				rc = trim__yerr(c, x, TRIM_ESCHEMA, "unknown dimension '%c' in '%s' (" DIM_HELP ")", *p, x->str);
			else if (seen >> d & 1)
				rc = trim__yerr(c, x, TRIM_ESCHEMA, "dimension %c appears twice", dim_letters[d]);
			else {
				seen |= 1u << d;
				dl[(*nd)++] = d;
			}
		}
		if (n->kind == TRIM__Y_SEQ)
			trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_tensors(trim__yctx *c, const trim__ynode *n, const char *key, int val, ctarget *t)
{
	trim__yctx_key(c, key);
	int rc = trim__yexpect(c, n, TRIM__Y_SEQ);
	for (size_t i = 0; i < n->n && !rc; i++) {
		trim__yctx_index(c, i);
		rc = trim__yexpect(c, n->items[i], TRIM__Y_SCALAR);
		int s = rc ? -1 : trim__mapping_slot_of(n->items[i]->str);
		if (!rc && s < 0)
			rc = trim__yerr(c, n->items[i], TRIM_ESCHEMA,
			                "unknown tensor '%s' (input, weight, output; Timeloop: Inputs, Weights, Outputs)",
			                n->items[i]->str);
		if (!rc && t->keep[s] >= 0 && t->keep[s] != val)
			rc = trim__yerr(c, n->items[i], TRIM_ESCHEMA, "%s is both kept and bypassed", slot_names[s]);
		if (!rc)
			t->keep[s] = val;
		trim__yctx_pop(c);
	}
	trim__yctx_pop(c);
	return rc;
}

static int read_target(trim__yctx *c, const trim__ynode *e, trim_constraints *out)
{
	static const char *const keys[] = {"target", "name", "type", "factors", "only", "permutation", "split",
	                                   "keep", "bypass", NULL};
	static const char *const types[] = {"temporal", "spatial", "bypass", "datatype", "bypassing", NULL};
	static const char *const tl_types[] = {"utilization", "parallelism", "max_overbooked_proportion",
	                                       "no_multicast", "no_reduction", "no_multicast_no_reduction",
	                                       "no_link_transfer", NULL};
	int rc = trim__ymap_check(c, e, keys);
	if (rc)
		return rc;
	const trim__ynode *tn = trim__ymap_get(e, "target"), *nn = trim__ymap_get(e, "name");
	const trim__ynode *yn = trim__ymap_get(e, "type");
	if (tn && nn)
		return trim__yerr(c, e, TRIM_ESCHEMA, "give 'target' or 'name', not both");
	if (!tn && !nn)
		return trim__yerr(c, e, TRIM_ESCHEMA, "missing required key 'target' (a level name)");
	if (!yn)
		return trim__yerr(c, e, TRIM_ESCHEMA, "missing required key 'type' (temporal, spatial or bypass)");
	ctarget *t = push_target(out);
	if (!t)
		return TRIM_ENOMEM;
	where(c, e, t->src);
	const char *lname = NULL;
	if ((rc = trim__yget_str(c, e, tn ? "target" : "name", 1, &lname)))
		return rc;
	trim__yctx_key(c, tn ? "target" : "name");
	where(c, tn ? tn : nn, t->tsrc);
	if (strlen(lname) >= sizeof t->level)
		rc = trim__yerr(c, tn ? tn : nn, TRIM_ESCHEMA, "level name longer than %zu characters", sizeof t->level - 1);
	trim__yctx_pop(c);
	if (rc)
		return rc;
	snprintf(t->level, sizeof t->level, "%s", lname);
	trim__yctx_key(c, "type");
	rc = trim__yexpect(c, yn, TRIM__Y_SCALAR);
	if (!rc) {
		int ty = -1;
		for (int k = 0; types[k]; k++)
			if (!strcmp(yn->str, types[k]))
				ty = k > 2 ? CT_BYPASS : k;
		for (int k = 0; ty < 0 && tl_types[k]; k++)
			if (!strcmp(yn->str, tl_types[k]))
				rc = trim__yerr(c, yn, TRIM_ESCHEMA,
				                "Timeloop's constraint type '%s' is not supported (temporal, spatial, bypass; "
				                "utilisation: trim map --min-pe-util)", yn->str);
		if (!rc && ty < 0)
			rc = trim__yerr(c, yn, TRIM_ESCHEMA, "unknown type '%s' (temporal, spatial or bypass)", yn->str);
		t->type = ty;
	}
	trim__yctx_pop(c);
	if (rc)
		return rc;
	const trim__ynode *fn = trim__ymap_get(e, "factors"), *on = trim__ymap_get(e, "only");
	const trim__ynode *pn = trim__ymap_get(e, "permutation"), *sn = trim__ymap_get(e, "split");
	const trim__ynode *kn = trim__ymap_get(e, "keep"), *bn = trim__ymap_get(e, "bypass");
	if (t->type == CT_BYPASS) {
		const trim__ynode *x = fn ? fn : on ? on : pn ? pn : sn;
		if (x)
			return trim__yerr(c, e, TRIM_ESCHEMA, "a bypass target takes keep and bypass only");
		if (!kn && !bn)
			return trim__yerr(c, e, TRIM_ESCHEMA, "a bypass target needs keep or bypass");
		if (kn && (rc = read_tensors(c, kn, "keep", 1, t)))
			return rc;
		if (bn && (rc = read_tensors(c, bn, "bypass", 0, t)))
			return rc;
		return 0;
	}
	if (kn || bn)
		return trim__yerr(c, e, TRIM_ESCHEMA, "keep and bypass belong to a target of type bypass");
	if (sn && t->type != CT_SPATIAL)
		return trim__yerr(c, e, TRIM_ESCHEMA, "split applies to a spatial target only");
	if (fn) {
		trim__yctx_key(c, "factors");
		rc = read_factors(c, fn, t);
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	if (on) {
		int dl[TRIM_NDIMS], nd;
		trim__yctx_key(c, "only");
		rc = read_dims(c, on, dl, &nd);
		for (int i = 0; i < nd; i++)
			t->only |= 1u << dl[i];
		t->has_only = 1;
		for (int d = 0; d < TRIM_NDIMS && !rc; d++)
			if (!(t->only >> d & 1) && t->fix[d] > 1)
				rc = trim__yerr(c, on, TRIM_ESCHEMA, "%c = %lld in factors but %c is not in only", dim_letters[d],
				                (long long)t->fix[d], dim_letters[d]);
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	if (pn) {
		trim__yctx_key(c, "permutation");
		rc = read_dims(c, pn, t->perm, &t->nperm);
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	if (sn) {
		int64_t v = 0;
		if ((rc = trim__yget_int(c, e, "split", 1, 0, 64, &v)))
			return rc;
		if (!pn) {
			trim__yctx_key(c, "split");
			rc = trim__yerr(c, sn, TRIM_ESCHEMA, "split needs a permutation (its first `split` dims go along X)");
			trim__yctx_pop(c);
			return rc;
		}
		t->split = (int)v;
	}
	return 0;
}

static int read_list(trim__yctx *c, const trim__ynode *n, trim_constraints *out)
{
	const trim__ynode *list = n;
	int pushed = 0, rc = 0;
	if (n->kind == TRIM__Y_MAP) { /* Timeloop: {targets: [...]} */
		static const char *const keys[] = {"targets", NULL};
		if ((rc = trim__ymap_check(c, n, keys)) || (rc = trim__yget_node(c, n, "targets", 1, TRIM__Y_SEQ, &list)))
			return rc;
		trim__yctx_key(c, "targets");
		pushed = 1;
	}
	rc = trim__yexpect(c, list, TRIM__Y_SEQ);
	for (size_t i = 0; i < list->n && !rc; i++) {
		trim__yctx_index(c, i);
		rc = trim__yexpect(c, list->items[i], TRIM__Y_MAP);
		if (!rc)
			rc = read_target(c, list->items[i], out);
		trim__yctx_pop(c);
	}
	if (pushed)
		trim__yctx_pop(c);
	return rc;
}

int trim__constraints_read(trim__yctx *c, const trim__ynode *root, trim_constraints *out)
{
	static const char *const keys[] = {"schema_version", "description", "preset", "targets",
	                                   "mapspace_constraints", "architecture_constraints", "constraints", NULL};
	static const char *const lists[] = {"architecture_constraints", "mapspace_constraints", "constraints",
	                                    "targets", NULL};
	int rc = trim__ymap_check(c, root, keys);
	int64_t v = 1;
	if (rc || (rc = trim__yget_int(c, root, "schema_version", 0, 1, 1, &v)) < 0)
		return rc;
	const char *desc = NULL;
	if ((rc = trim__yget_str(c, root, "description", 0, &desc)) < 0)
		return rc;
	const trim__ynode *pn = trim__ymap_get(root, "preset");
	if (pn) {
		trim__yctx_key(c, "preset");
		rc = 0;
		for (size_t i = 0; i < (pn->kind == TRIM__Y_SEQ ? pn->n : 1) && !rc; i++) {
			const trim__ynode *x = pn->kind == TRIM__Y_SEQ ? pn->items[i] : pn;
			if (pn->kind == TRIM__Y_SEQ)
				trim__yctx_index(c, i);
			rc = trim__yexpect(c, x, TRIM__Y_SCALAR);
			int p = rc ? -1 : preset_find(x->str);
			if (!rc && p < 0) {
				char list[256], hint[96];
				preset_list(list, sizeof list);
				rc = trim__yerr(c, x, TRIM_ESCHEMA, "unknown preset '%s' (%s)%s", x->str, list,
				                preset_hint(hint, sizeof hint, x->str));
			}
			if (!rc) {
				char src[SRC_LEN];
				where(c, x, src);
				rc = add_preset(out, p, src);
			}
			if (pn->kind == TRIM__Y_SEQ)
				trim__yctx_pop(c);
		}
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	for (int k = 0; lists[k]; k++) {
		const trim__ynode *n = trim__ymap_get(root, lists[k]);
		if (!n)
			continue;
		trim__yctx_key(c, lists[k]);
		rc = read_list(c, n, out);
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	return 0;
}

static int load_doc(trim_constraints **out, trim__ydoc *doc)
{
	trim_constraints *c = NULL;
	int rc = trim_constraints_create(&c);
	if (rc == 0) {
		trim__yctx y;
		trim__yctx_init(&y, trim__ydoc_name(doc));
		const trim__ynode *root = trim__ydoc_root(doc);
		rc = root ? trim__constraints_read(&y, root, c)
		          : trim__error(TRIM_ESCHEMA, "%s: an empty document (want targets: or a preset:)", trim__ydoc_name(doc));
	}
	trim__ydoc_free(doc);
	if (rc) {
		trim_constraints_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int trim_constraints_load(trim_constraints **out, const char *path)
{
	if (!out || !path)
		return trim__error(TRIM_EINVAL, "trim_constraints_load: NULL argument");
	*out = NULL;
	trim__ydoc *doc = NULL;
	int rc = trim__ydoc_load_file(&doc, path);
	return rc ? rc : load_doc(out, doc);
}

int trim_constraints_load_string(trim_constraints **out, const char *yaml, const char *name)
{
	if (!out || !yaml)
		return trim__error(TRIM_EINVAL, "trim_constraints_load_string: NULL argument");
	*out = NULL;
	trim__ydoc *doc = NULL;
	int rc = trim__ydoc_load_string(&doc, yaml, strlen(yaml), name ? name : "<string>");
	return rc ? rc : load_doc(out, doc);
}

/* ---- resolution against an architecture -------------------------------------- */

/* Every target, presets spelled out first (against arch a), then the
 * written ones. */
static int expand(const trim_constraints *c, const struct trim_arch *a, ctarget **out, size_t *n)
{
	size_t cap = c->n + (size_t)c->npreset * (TRIM__MAX_LEVELS + 1);
	ctarget *t = trim__calloc(cap ? cap : 1, sizeof *t);
	if (!t)
		return TRIM_ENOMEM;
	size_t k = 0;
	int inner = -1;
	for (int l = 0; l < a->nlevels; l++)
		if (a->lv[l].type == TRIM__LVL_STORAGE)
			inner = l;
	for (int i = 0; i < c->npreset; i++) {
		int p = c->preset[i];
		char src[SRC_LEN];
		if (c->preset_src[i][0])
			snprintf(src, sizeof src, "%s (preset %s)", c->preset_src[i], presets[p].name);
		else
			snprintf(src, sizeof src, "preset %s", presets[p].name);
		for (int l = 0; l < a->nlevels; l++) {
			int sp = a->lv[l].type == TRIM__LVL_SPATIAL;
			if (l != inner && !sp)
				continue;
			ctarget *x = &t[k++];
			memset(x, 0, sizeof *x);
			snprintf(x->level, sizeof x->level, "%s", a->lv[l].name);
			x->type = sp ? CT_SPATIAL : CT_TEMPORAL;
			for (int d = 0; d < TRIM_NDIMS; d++)
				x->fix[d] = -1;
			x->split = -1;
			x->keep[0] = x->keep[1] = x->keep[2] = -1;
			x->has_only = 1;
			x->only = sp ? presets[p].spatial : presets[p].inner;
			if (!sp)
				for (const char *q = presets[p].perm; *q; q++)
					x->perm[x->nperm++] = dim_of(*q);
			snprintf(x->src, sizeof x->src, "%s", src);
			snprintf(x->tsrc, sizeof x->tsrc, "%s", src);
		}
	}
	if (c->n)
		memcpy(t + k, c->t, c->n * sizeof *c->t);
	*out = t;
	*n = k + c->n;
	return 0;
}

/* The constraints on each level of one architecture. */
typedef struct {
	ctarget *t;
	size_t nt;
	int64_t fix[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int fsrc[TRIM__MAX_LEVELS][TRIM_NDIMS]; /* target that set it, -1 none */
	int64_t max[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int msrc[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int keep[TRIM__MAX_LEVELS][3];
	int ksrc[TRIM__MAX_LEVELS][3];
	int nperm[TRIM__MAX_LEVELS];
	int perm[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int psrc[TRIM__MAX_LEVELS];
	uint8_t axis[TRIM__MAX_LEVELS][TRIM_NDIMS];
	int asrc[TRIM__MAX_LEVELS][TRIM_NDIMS];
} cplan;

static void fmt_bound(char *buf, size_t n, int d, int64_t v)
{
	if (v == 0)
		snprintf(buf, n, "%c=0 (the whole bound)", dim_letters[d]);
	else
		snprintf(buf, n, "%c=%lld", dim_letters[d], (long long)v);
}

static int resolve(const trim_constraints *c, const struct trim_arch *a, cplan *p)
{
	memset(p, 0, sizeof *p);
	memset(p->fix, 0xff, sizeof p->fix); /* -1 */
	memset(p->fsrc, 0xff, sizeof p->fsrc);
	memset(p->msrc, 0xff, sizeof p->msrc);
	memset(p->keep, 0xff, sizeof p->keep);
	memset(p->ksrc, 0xff, sizeof p->ksrc);
	memset(p->psrc, 0xff, sizeof p->psrc);
	memset(p->asrc, 0xff, sizeof p->asrc);
	int rc = expand(c, a, &p->t, &p->nt);
	if (rc)
		return rc;
	for (size_t i = 0; i < p->nt; i++) {
		const ctarget *t = &p->t[i];
		int l = -1;
		for (int k = 0; k < a->nlevels; k++)
			if (!strcmp(a->lv[k].name, t->level))
				l = k;
		if (l < 0) {
			char list[512] = "", hint[96];
			size_t o = 0;
			trim__nearest near;
			trim__nearest_init(&near, t->level);
			for (int k = 0; k < a->nlevels; k++) {
				trim__nearest_add(&near, a->lv[k].name);
				if (o < sizeof list)
					o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", k ? ", " : "", a->lv[k].name);
			}
			return trim__error(TRIM_ENOTFOUND, "%s: unknown level '%s' (%s has %s)%s", t->tsrc, t->level, a->name,
			                   list, trim__suggestion(hint, sizeof hint, &near));
		}
		int ty = a->lv[l].type;
		if (t->type == CT_SPATIAL && ty == TRIM__LVL_STORAGE) {
			/* Timeloop: a spatial target names the storage level above the fan-out */
			int L = -1;
			for (int k = l + 1; k < a->nlevels && L < 0; k++) {
				if (a->lv[k].type == TRIM__LVL_SPATIAL)
					L = k;
				else if (a->lv[k].type == TRIM__LVL_STORAGE)
					break;
			}
			if (L < 0)
				return trim__error(TRIM_ESCHEMA, "%s: no spatial level directly below %s for a spatial target",
				                   t->tsrc, t->level);
			l = L;
			ty = TRIM__LVL_SPATIAL;
		}
		if ((t->type == CT_SPATIAL) != (ty == TRIM__LVL_SPATIAL) || ty == TRIM__LVL_COMPUTE)
			return trim__error(TRIM_ESCHEMA, "%s: %s is a %s level: no %s constraint", t->tsrc, t->level,
			                   ty == TRIM__LVL_STORAGE ? "storage" : ty == TRIM__LVL_SPATIAL ? "spatial" : "compute",
			                   type_names[t->type]);
		if (t->type == CT_BYPASS) {
			for (int s = 0; s < 3; s++) {
				if (t->keep[s] < 0)
					continue;
				if (t->keep[s] == 0 && l == 0)
					return trim__error(TRIM_ESCHEMA, "%s: cannot bypass %s at %s: the outermost level holds every tensor",
					                   t->src, slot_names[s], t->level);
				if (t->keep[s] == 1 && !a->lv[l].keep[s])
					return trim__error(TRIM_ESCHEMA, "%s: cannot keep %s at %s: the architecture does not let it hold %s",
					                   t->src, slot_names[s], t->level, slot_names[s]);
				if (p->keep[l][s] >= 0 && p->keep[l][s] != t->keep[s])
					return trim__error(TRIM_ESCHEMA, "%s: %s %s at %s contradicts %s", t->src,
					                   t->keep[s] ? "keeping" : "bypassing", slot_names[s], t->level,
					                   p->t[p->ksrc[l][s]].src);
				p->keep[l][s] = t->keep[s];
				p->ksrc[l][s] = (int)i;
			}
			continue;
		}
		for (int d = 0; d < TRIM_NDIMS; d++) {
			int64_t v = t->fix[d];
			if (v < 0 && t->has_only && !(t->only >> d & 1))
				v = 1;
			if (v >= 0) {
				if (p->fix[l][d] >= 0 && p->fix[l][d] != v) {
					char x[64], y[64];
					fmt_bound(x, sizeof x, d, v);
					fmt_bound(y, sizeof y, d, p->fix[l][d]);
					return trim__error(TRIM_ESCHEMA, "%s: %s at %s contradicts %s from %s", t->src, x, a->lv[l].name,
					                   y, p->t[p->fsrc[l][d]].src);
				}
				p->fix[l][d] = v;
				p->fsrc[l][d] = (int)i;
			}
			if (t->max[d] > 0 && (p->max[l][d] == 0 || t->max[d] < p->max[l][d])) {
				p->max[l][d] = t->max[d];
				p->msrc[l][d] = (int)i;
			}
		}
		if (t->type == CT_TEMPORAL && t->nperm > 0) {
			if (p->nperm[l] > 0 &&
			    (p->nperm[l] != t->nperm || memcmp(p->perm[l], t->perm, (size_t)t->nperm * sizeof *t->perm)))
				return trim__error(TRIM_ESCHEMA, "%s: a second, different permutation for %s (the first: %s)", t->src,
				                   a->lv[l].name, p->t[p->psrc[l]].src);
			p->nperm[l] = t->nperm;
			memcpy(p->perm[l], t->perm, sizeof t->perm);
			p->psrc[l] = (int)i;
		}
		if (t->type == CT_SPATIAL && t->split >= 0)
			for (int k = 0; k < t->nperm; k++) {
				int d = t->perm[k];
				uint8_t ax = k < t->split ? 1 : 2;
				if (p->axis[l][d] && p->axis[l][d] != ax)
					return trim__error(TRIM_ESCHEMA, "%s: %c along %s at %s contradicts %s", t->src, dim_letters[d],
					                   ax == 1 ? "X" : "Y", a->lv[l].name, p->t[p->asrc[l][d]].src);
				p->axis[l][d] = ax;
				p->asrc[l][d] = (int)i;
			}
	}
	return 0;
}

int trim_constraints_check(const trim_constraints *c, const trim_arch *arch)
{
	TRIM__HANDLE_CHECK(c, CONSTRAINTS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	if (!c || !arch)
		return trim__error(TRIM_EINVAL, "trim_constraints_check: NULL argument");
	cplan *p = malloc(sizeof *p);
	if (!p)
		return trim__error(TRIM_ENOMEM, "out of memory");
	int rc = resolve(c, arch, p);
	free(p->t);
	free(p);
	return rc;
}

int trim__constraints_apply(const trim_constraints *c, trim__mapspace *s)
{
	if (!c)
		return 0;
	const struct trim_arch *a = s->a;
	cplan *p = malloc(sizeof *p);
	if (!p)
		return trim__error(TRIM_ENOMEM, "out of memory");
	int rc = resolve(c, a, p);
	for (int l = 0; l < a->nlevels && !rc; l++) {
		for (int d = 0; d < TRIM_NDIMS && !rc; d++) {
			if (p->fix[l][d] >= 0) {
				int64_t b = s->w->bound[d], v = p->fix[l][d];
				v = v == 0 || v > b ? b : v; /* 0: the whole bound; beyond it: clamped, as Timeloop */
				if (s->pin[l][d] && s->pin[l][d] != v)
					rc = trim__error(TRIM_ENOFIT, "%s: %c = %lld at %s contradicts the custom factor %c = %lld",
					                 p->t[p->fsrc[l][d]].src, dim_letters[d], (long long)v, a->lv[l].name,
					                 dim_letters[d], (long long)s->pin[l][d]);
				s->pin[l][d] = v;
			}
			if (p->max[l][d] > 0 && (s->fmax[l][d] == 0 || p->max[l][d] < s->fmax[l][d]))
				s->fmax[l][d] = p->max[l][d];
		}
		if (p->nperm[l] > 0) {
			s->ncperm[l] = p->nperm[l];
			for (int k = 0; k < p->nperm[l]; k++)
				s->cperm[l][k] = (int8_t)p->perm[l][k];
		}
		memcpy(s->axis[l], p->axis[l], sizeof s->axis[l]);
	}
	for (int j = 0; j < s->nbyp && !rc; j++) {
		int k = p->keep[s->byp_level[j]][s->byp_slot[j]];
		uint64_t bit = (uint64_t)1 << (s->nbyp - 1 - j);
		if (k < 0)
			continue;
		s->byp_fixmask |= bit;
		if (k)
			s->byp_fixval |= bit;
		else
			s->byp_fixval &= ~bit;
	}
	for (int d = 0; d < TRIM_NDIMS && !rc; d++) {
		if (trim__mapspace_filter_rows(s, d) == 0)
			continue;
		/* name every constraint on d */
		char list[700] = "";
		size_t o = 0;
		for (int i = 0; i < s->nslots && o < sizeof list; i++) {
			int l = s->slot[i];
			if (s->pin[l][d])
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%c = %lld at %s%s%s%s", o ? ", " : "",
				                      dim_letters[d], (long long)s->pin[l][d], a->lv[l].name,
				                      p->fsrc[l][d] >= 0 ? " (" : " (custom factor",
				                      p->fsrc[l][d] >= 0 ? p->t[p->fsrc[l][d]].src : "", ")");
			if (s->fmax[l][d] && o < sizeof list)
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%c <= %lld at %s (%s)", o ? ", " : "",
				                      dim_letters[d], (long long)s->fmax[l][d], a->lv[l].name,
				                      p->msrc[l][d] >= 0 ? p->t[p->msrc[l][d]].src : "");
		}
		/* a fixed factor that does not divide the bound: only an imperfect
		 * factorisation can have it */
		const char *hint = "";
		for (int i = 0; i < s->nslots && !s->imperfect; i++) {
			int64_t p = s->pin[s->slot[i]][d];
			if (p > 1 && s->w->bound[d] % p)
				hint = "; a factor that does not divide the bound needs an imperfect factorisation "
				       "(--imperfect, TRIM_SEARCH_IMPERFECT), with a ragged last pass";
		}
		rc = trim__error(TRIM_ENOFIT, "constraints: no factorisation of %c = %lld obeys %s%s", dim_letters[d],
		                 (long long)s->w->bound[d], list, hint);
	}
	free(p->t);
	free(p);
	return rc;
}

/* ---- dump ----------------------------------------------------------------------- */

static void put_name(trim__sb *sb, const char *s)
{
	trim__sb_putc(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			trim__sb_putc(sb, '\\');
		trim__sb_putc(sb, *s);
	}
	trim__sb_putc(sb, '"');
}

static void dump_target(trim__sb *sb, const ctarget *t)
{
	trim__sb_puts(sb, "  - target: ");
	put_name(sb, t->level);
	trim__sb_printf(sb, "\n    type: %s\n", type_names[t->type]);
	if (t->type == CT_BYPASS) {
		for (int v = 1; v >= 0; v--) {
			int any = 0;
			for (int s = 0; s < 3; s++)
				if (t->keep[s] == v) {
					trim__sb_printf(sb, "%s%s", any ? ", " : v ? "    keep: [" : "    bypass: [", slot_names[s]);
					any = 1;
				}
			if (any)
				trim__sb_puts(sb, "]\n");
		}
		return;
	}
	int any = 0;
	for (int d = 0; d < TRIM_NDIMS; d++) {
		if (t->fix[d] >= 0) {
			trim__sb_printf(sb, "%s%c=%lld", any ? " " : "    factors: ", dim_letters[d], (long long)t->fix[d]);
			any = 1;
		}
		if (t->max[d] > 0) {
			trim__sb_printf(sb, "%s%c<=%lld", any ? " " : "    factors: ", dim_letters[d], (long long)t->max[d]);
			any = 1;
		}
	}
	if (any)
		trim__sb_putc(sb, '\n');
	if (t->has_only) {
		trim__sb_puts(sb, "    only: [");
		int first = 1;
		for (int d = 0; d < TRIM_NDIMS; d++)
			if (t->only >> d & 1) {
				trim__sb_printf(sb, "%s%c", first ? "" : ", ", dim_letters[d]);
				first = 0;
			}
		trim__sb_puts(sb, "]\n");
	}
	if (t->nperm > 0) {
		trim__sb_puts(sb, "    permutation: ");
		for (int k = 0; k < t->nperm; k++)
			trim__sb_putc(sb, dim_letters[t->perm[k]]);
		trim__sb_putc(sb, '\n');
	}
	if (t->split >= 0)
		trim__sb_printf(sb, "    split: %d\n", t->split);
}

static int dump(const trim_constraints *c, const struct trim_arch *a, trim__sb *sb)
{
	ctarget *t = c->t;
	size_t n = c->n;
	int rc = 0;
	if (a && (rc = expand(c, a, &t, &n)))
		return rc;
	trim__sb_puts(sb, "schema_version: 1\n");
	if (!a && c->npreset) {
		trim__sb_puts(sb, "preset: [");
		for (int i = 0; i < c->npreset; i++)
			trim__sb_printf(sb, "%s%s", i ? ", " : "", presets[c->preset[i]].name);
		trim__sb_puts(sb, "]\n");
	}
	if (n) {
		trim__sb_puts(sb, "targets:\n");
		for (size_t i = 0; i < n; i++)
			dump_target(sb, &t[i]);
	}
	if (a)
		free(t);
	return 0;
}

int trim_constraints_dump(const trim_constraints *c, const trim_arch *arch, char **out)
{
	TRIM__HANDLE_CHECK(c, CONSTRAINTS, TRIM_EINVAL);
	TRIM__HANDLE_CHECK(arch, ARCH, TRIM_EINVAL);
	if (!c || !out)
		return trim__error(TRIM_EINVAL, "trim_constraints_dump: NULL argument");
	*out = NULL;
	trim__sb sb;
	trim__sb_init(&sb);
	int rc = dump(c, arch, &sb);
	if (rc) {
		trim__sb_free(&sb);
		return rc;
	}
	return trim__sb_take(&sb, out);
}

uint64_t trim__constraints_digest(const trim_constraints *c)
{
	if (!c || (!c->n && !c->npreset))
		return 0;
	trim__sb sb;
	trim__sb_init(&sb);
	dump(c, NULL, &sb);
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; sb.buf && i < sb.len; i++)
		h = (h ^ (unsigned char)sb.buf[i]) * 1099511628211ull;
	trim__sb_free(&sb);
	return h ? h : 1;
}
