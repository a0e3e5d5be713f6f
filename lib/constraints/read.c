/*
 * Dataflow constraints: reading a document, libtrim's and Timeloop's forms
 * (lib/constraints/constraints_local.h has the map of these files).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraints_local.h"
#include "mapping/mapping_int.h"
#include "util/util.h"


/* A dimension letter: libtrim's N G M C E F R S or Timeloop's P Q K. */
int trim__constraints_dim_of(char ch)
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
	int d = trim__constraints_dim_of(*p);
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
		return trim__yerr(c, n, TRIM_ERANGE, "factor %c%s%lld out of range (%s)", trim__constraints_dim_letters[d],
		                  le ? "<=" : "=", v, le ? "a cap is >= 1" : "a bound is >= 1, or 0 for the whole bound");
	if (*seen >> (2 * d + le) & 1)
		return trim__yerr(c, n, TRIM_ESCHEMA, "%s of %c given twice in '%s'", le ? "the cap" : "the bound",
		                  trim__constraints_dim_letters[d], n->str);
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
		int d = k[0] && !k[1] ? trim__constraints_dim_of(k[0]) : -1;
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
			int d = trim__constraints_dim_of(*p);
			if (d < 0)
				rc = trim__yerr(c, x, TRIM_ESCHEMA, "unknown dimension '%c' in '%s' (" DIM_HELP ")", *p, x->str);
			else if (seen >> d & 1)
				rc = trim__yerr(c, x, TRIM_ESCHEMA, "dimension %c appears twice", trim__constraints_dim_letters[d]);
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
			rc = trim__yerr(c, n->items[i], TRIM_ESCHEMA, "%s is both kept and bypassed", trim__constraints_slot_names[s]);
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
	ctarget *t = trim__constraints_push_target(out);
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
				rc = trim__yerr(c, on, TRIM_ESCHEMA, "%c = %lld in factors but %c is not in only", trim__constraints_dim_letters[d],
				                (long long)t->fix[d], trim__constraints_dim_letters[d]);
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
			int p = rc ? -1 : trim__constraints_preset_find(x->str);
			if (!rc && p < 0) {
				char list[256], hint[96];
				trim__constraints_preset_list(list, sizeof list);
				rc = trim__yerr(c, x, TRIM_ESCHEMA, "unknown preset '%s' (%s)%s", x->str, list,
				                trim__constraints_preset_hint(hint, sizeof hint, x->str));
			}
			if (!rc) {
				char src[SRC_LEN];
				where(c, x, src);
				rc = trim__constraints_add_preset(out, p, src);
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
