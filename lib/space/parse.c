/* The designer: reading a space file (docs/arch.md, "Architecture spaces"):
 * values, targets, ranges, parameters, the mapspace constraints; the grid
 * and its points are lib/space/space.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch_int.h"
#include "constraints/constraints_int.h"
#include "energy/energy_int.h"
#include "space_int.h"
#include "trim/space.h"
#include "util/handle.h"
#include "util/util.h"
#include "util/ydoc.h"

static const char *const field_names[] = {"fanout", "capacity", "word_bits", "link_bits",
                                          "read_bw", "write_bw", "zero_gate", "zero_skip",
                                          "clock_mhz", NULL};
#define MAX_GRID_POINTS 1000000

static void fmt_value(char *buf, size_t n, int field, const double *v)
{
	double b = v[0];
	switch (field) {
	case TRIM__SPACE_FANOUT:
		if (v[1] > 1)
			snprintf(buf, n, "%gx%g", v[0], v[1]);
		else
			snprintf(buf, n, "%g", v[0]);
		break;
	case TRIM__SPACE_CAPACITY:
		if (b >= 1048576 && fmod(b, 1048576) == 0)
			snprintf(buf, n, "%gMB", b / 1048576);
		else if (b >= 1024 && fmod(b, 1024) == 0)
			snprintf(buf, n, "%gKB", b / 1024);
		else
			snprintf(buf, n, "%gB", b);
		break;
	case TRIM__SPACE_ZERO_GATE:
	case TRIM__SPACE_ZERO_SKIP: snprintf(buf, n, "%s", b ? "on" : "off"); break;
	default: snprintf(buf, n, "%g", b); break;
	}
}

/* One value of one target. */
static int read_value(trim__yctx *c, const trim__ynode *n, const trim__space_target *tg, double *v)
{
	int64_t i64[2];
	int b, rc;
	v[1] = 1;
	switch (tg->field) {
	case TRIM__SPACE_FANOUT:
		if (n->kind == TRIM__Y_SEQ) {
			if (n->n != 2)
				return trim__yerr(c, n, TRIM_ESCHEMA, "a fan-out is N or [X, Y]");
			for (int k = 0; k < 2; k++) {
				trim__yctx_index(c, (size_t)k);
				rc = trim__yint(c, n->items[k], 1, (int64_t)1 << 30, &i64[k]);
				trim__yctx_pop(c);
				if (rc)
					return rc;
				v[k] = (double)i64[k];
			}
			return 0;
		}
		rc = trim__yint(c, n, 1, (int64_t)1 << 30, &i64[0]);
		v[0] = (double)i64[0];
		return rc;
	case TRIM__SPACE_CAPACITY:
		rc = trim__ybytes(c, n, &i64[0]);
		v[0] = (double)i64[0];
		return rc;
	case TRIM__SPACE_WORD_BITS:
	case TRIM__SPACE_LINK_BITS:
		rc = trim__yint(c, n, 1, 4096, &i64[0]);
		v[0] = (double)i64[0];
		return rc;
	case TRIM__SPACE_ZERO_GATE:
	case TRIM__SPACE_ZERO_SKIP:
		rc = trim__ybool(c, n, &b);
		v[0] = b;
		return rc;
	default:
		return trim__ydouble(c, n, 1e-9, 1e12, &v[0]);
	}
}

/* "Level.field" or a global "field" -> target, checked against the base. */
static int parse_target(trim__yctx *c, const trim__ynode *n, const trim_arch *a, trim__space_target *tg)
{
	int rc = trim__yexpect(c, n, TRIM__Y_SCALAR);
	if (rc)
		return rc;
	const char *s = n->str, *dot = strrchr(s, '.');
	const char *f = dot ? dot + 1 : s;
	tg->field = -1;
	for (int k = 0; field_names[k]; k++)
		if (!strcmp(f, field_names[k]))
			tg->field = k;
	char hint[96];
	if (tg->field < 0) {
		trim__nearest near;
		trim__nearest_init(&near, f);
		for (int k = 0; field_names[k]; k++)
			trim__nearest_add(&near, field_names[k]);
		return trim__yerr(c, n, TRIM_ESCHEMA, "unknown field '%s' (fanout, capacity, "
		                  "word_bits, link_bits, read_bw, write_bw, zero_gate, zero_skip, "
		                  "clock_mhz)%s", f, trim__suggestion(hint, sizeof hint, &near));
	}
	tg->level = -1;
	if (!dot) {
		if (tg->field != TRIM__SPACE_CLOCK && tg->field != TRIM__SPACE_WORD_BITS)
			return trim__yerr(c, n, TRIM_ESCHEMA, "'%s' needs a level: 'LEVEL.%s'", f, f);
		return 0;
	}
	for (int i = 0; i < a->nlevels; i++)
		if (strlen(a->lv[i].name) == (size_t)(dot - s) && !strncmp(a->lv[i].name, s, (size_t)(dot - s)))
			tg->level = i;
	if (tg->level < 0) {
		char level[TRIM__ARCH_NAME_LEN + 1], list[400] = "";
		snprintf(level, sizeof level, "%.*s", (int)(dot - s), s);
		trim__nearest near;
		trim__nearest_init(&near, level);
		size_t l = 0;
		for (int i = 0; i < a->nlevels; i++) {
			trim__nearest_add(&near, a->lv[i].name);
			if (l < sizeof list)
				l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", a->lv[i].name);
		}
		return trim__yerr(c, n, TRIM_ENOTFOUND, "the base architecture has no level '%s' (its levels: %s)%s",
		                  level, list, trim__suggestion(hint, sizeof hint, &near));
	}
	int type = a->lv[tg->level].type;
	int ok = 0;
	switch (tg->field) {
	case TRIM__SPACE_FANOUT: case TRIM__SPACE_LINK_BITS: ok = type == TRIM__LVL_SPATIAL; break;
	case TRIM__SPACE_CAPACITY:
		ok = type == TRIM__LVL_STORAGE && a->lv[tg->level].mem_class != TRIM__MEM_DRAM;
		break;
	case TRIM__SPACE_WORD_BITS: case TRIM__SPACE_READ_BW: case TRIM__SPACE_WRITE_BW:
		ok = type == TRIM__LVL_STORAGE;
		break;
	case TRIM__SPACE_ZERO_GATE: case TRIM__SPACE_ZERO_SKIP: ok = type == TRIM__LVL_COMPUTE; break;
	default: ok = 0; break;
	}
	if (!ok)
		return trim__yerr(c, n, TRIM_ESCHEMA, "field '%s' does not apply to level '%s'", f,
		                  a->lv[tg->level].name);
	const int *lt = a->lv[tg->level].link_t;
	if (tg->field == TRIM__SPACE_LINK_BITS && (lt[0] || lt[1] || lt[2]))
		return trim__yerr(c, n, TRIM_ESCHEMA,
		                  "level '%s' has one network per tensor (link_bits: {input: %d, weight: %d, "
		                  "output: %d}): a space cannot set one link_bits for it",
		                  a->lv[tg->level].name, lt[0], lt[1], lt[2]);
	return 0;
}

static int parse_range(trim__yctx *c, const trim__ynode *m, trim__space_param *p)
{
	static const char *const keys[] = {"from", "to", "step", "factor", NULL};
	int rc = trim__ymap_check(c, m, keys);
	if (rc)
		return rc;
	if (p->nt != 1 || p->t[0].field == TRIM__SPACE_FANOUT || p->t[0].field >= TRIM__SPACE_ZERO_GATE)
		return trim__yerr(c, m, TRIM_ESCHEMA, "a range sets one numeric field (not a "
		                  "fan-out or a flag): use 'values'");
	const trim__ynode *fn = trim__ymap_get(m, "from"), *tn = trim__ymap_get(m, "to");
	const trim__ynode *sn = trim__ymap_get(m, "step"), *xn = trim__ymap_get(m, "factor");
	if (!fn || !tn || (!sn == !xn))
		return trim__yerr(c, m, TRIM_ESCHEMA, "a range needs 'from', 'to' and one of "
		                  "'step' or 'factor'");
	double from[2], to[2], by = 0;
	trim__yctx_key(c, "from");
	rc = read_value(c, fn, &p->t[0], from);
	trim__yctx_pop(c);
	if (rc)
		return rc;
	trim__yctx_key(c, "to");
	rc = read_value(c, tn, &p->t[0], to);
	trim__yctx_pop(c);
	if (rc)
		return rc;
	trim__yctx_key(c, sn ? "step" : "factor");
	rc = sn ? read_value(c, sn, &p->t[0], &by) : trim__ydouble(c, xn, 1.000001, 1e6, &by);
	if (rc == 0 && !(by > 0))
		rc = trim__yerr(c, sn ? sn : xn, TRIM_ERANGE, "must be positive");
	trim__yctx_pop(c);
	if (rc)
		return rc;
	if (to[0] < from[0])
		return trim__yerr(c, m, TRIM_ERANGE, "'to' is smaller than 'from'");
	p->nv = 0;
	for (double v = from[0]; v <= to[0] * (1 + 1e-12); v = sn ? v + by : v * by) {
		if (p->nv >= TRIM__SPACE_MAX_VALUES)
			return trim__yerr(c, m, TRIM_ERANGE, "more than %d values", TRIM__SPACE_MAX_VALUES);
		p->v[p->nv][0][0] = v;
		p->v[p->nv][0][1] = 1;
		p->nv++;
	}
	return 0;
}

static int parse_param(trim__yctx *c, const trim__ynode *m, const trim_arch *a, trim__space_param *p)
{
	static const char *const keys[] = {"name", "set", "values", "range", "labels",
	                                   "description", NULL};
	int rc = trim__ymap_check(c, m, keys);
	if (rc)
		return rc;
	const char *name = NULL;
	rc = trim__yget_str(c, m, "name", 1, &name);
	if (rc)
		return rc;
	snprintf(p->name, sizeof p->name, "%s", name);
	const trim__ynode *set = trim__ymap_get(m, "set");
	if (!set)
		return trim__yerr(c, m, TRIM_ESCHEMA, "missing required key 'set'");
	trim__yctx_key(c, "set");
	if (set->kind == TRIM__Y_SEQ) {
		if (set->n < 1 || set->n > TRIM__SPACE_MAX_TARGETS)
			rc = trim__yerr(c, set, TRIM_ESCHEMA, "1 to %d fields", TRIM__SPACE_MAX_TARGETS);
		for (size_t k = 0; rc == 0 && k < set->n; k++) {
			trim__yctx_index(c, k);
			rc = parse_target(c, set->items[k], a, &p->t[k]);
			trim__yctx_pop(c);
		}
		p->nt = set->n;
	} else {
		rc = parse_target(c, set, a, &p->t[0]);
		p->nt = 1;
	}
	trim__yctx_pop(c);
	if (rc)
		return rc;
	const trim__ynode *vals = trim__ymap_get(m, "values"), *rng = trim__ymap_get(m, "range");
	if (!vals == !rng)
		return trim__yerr(c, m, TRIM_ESCHEMA, "give exactly one of 'values' or 'range'");
	if (rng) {
		trim__yctx_key(c, "range");
		rc = trim__yexpect(c, rng, TRIM__Y_MAP);
		if (rc == 0)
			rc = parse_range(c, rng, p);
		trim__yctx_pop(c);
		if (rc)
			return rc;
	} else {
		trim__yctx_key(c, "values");
		rc = trim__yexpect(c, vals, TRIM__Y_SEQ);
		if (rc == 0 && (vals->n < 1 || vals->n > TRIM__SPACE_MAX_VALUES))
			rc = trim__yerr(c, vals, TRIM_ESCHEMA, "1 to %d values", TRIM__SPACE_MAX_VALUES);
		for (size_t i = 0; rc == 0 && i < vals->n; i++) {
			const trim__ynode *v = vals->items[i];
			trim__yctx_index(c, i);
			if (p->nt == 1) {
				rc = read_value(c, v, &p->t[0], p->v[i][0]);
			} else if (v->kind != TRIM__Y_SEQ || v->n != p->nt) {
				rc = trim__yerr(c, v, TRIM_ESCHEMA, "expected a list of %zu values (one per "
				                "field of 'set')", p->nt);
			} else {
				for (size_t k = 0; rc == 0 && k < p->nt; k++) {
					trim__yctx_index(c, k);
					rc = read_value(c, v->items[k], &p->t[k], p->v[i][k]);
					trim__yctx_pop(c);
				}
			}
			trim__yctx_pop(c);
		}
		p->nv = vals->n;
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < p->nv; i++) {
		char buf[64] = "", one[40];
		for (size_t k = 0; k < p->nt; k++) {
			fmt_value(one, sizeof one, p->t[k].field, p->v[i][k]);
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", k ? "," : "", one);
		}
		snprintf(p->text[i], sizeof p->text[i], "%s", buf);
	}
	const trim__ynode *labels = NULL;
	rc = trim__yget_node(c, m, "labels", 0, TRIM__Y_SEQ, &labels);
	if (rc < 0)
		return rc;
	if (rc == 1)
		return 0;
	{
		trim__yctx_key(c, "labels");
		if (labels->n != p->nv)
			rc = trim__yerr(c, labels, TRIM_ESCHEMA, "%zu labels for %zu values", labels->n,
			                p->nv);
		for (size_t i = 0; rc == 0 && i < labels->n; i++) {
			trim__yctx_index(c, i);
			rc = trim__yexpect(c, labels->items[i], TRIM__Y_SCALAR);
			if (rc == 0)
				snprintf(p->text[i], sizeof p->text[i], "%s", labels->items[i]->str);
			trim__yctx_pop(c);
		}
		trim__yctx_pop(c);
		p->labelled = 1;
	}
	return rc;
}

/* mapspace_constraints: a constraints file (relative to the space file) or
 * an inline constraints document; checked against the base architecture
 * (the points only change sizes, not level names). */
static int read_mapspace_constraints(trim_space *s, trim__yctx *c, const trim__ynode *n)
{
	int rc = trim_constraints_create(&s->cons);
	if (rc)
		return rc;
	trim__yctx_key(c, "mapspace_constraints");
	if (n->kind == TRIM__Y_SCALAR) {
		const char *sl = strrchr(s->file, '/');
		size_t dl = sl && n->str[0] != '/' ? (size_t)(sl - s->file) + 1 : 0;
		char *path = trim__calloc(dl + strlen(n->str) + 1, 1);
		if (!path) {
			rc = TRIM_ENOMEM;
		} else {
			memcpy(path, s->file, dl);
			strcpy(path + dl, n->str);
			trim_constraints *f = NULL;
			rc = trim_constraints_load(&f, path);
			if (rc == 0)
				rc = trim_constraints_merge(s->cons, f);
			trim_constraints_free(f);
			free(path);
		}
	} else {
		rc = trim__yexpect(c, n, TRIM__Y_MAP);
		if (rc == 0)
			rc = trim__constraints_read(c, n, s->cons);
	}
	trim__yctx_pop(c);
	if (rc == 0)
		rc = trim_constraints_check(s->cons, s->base);
	return rc;
}

static const char *target_text(char *buf, size_t n, const trim_arch *a, const trim__space_target *t)
{
	if (t->level >= 0)
		snprintf(buf, n, "%s.%s", a->lv[t->level].name, field_names[t->field]);
	else
		snprintf(buf, n, "%s", field_names[t->field]);
	return buf;
}

/* Parameter k against parameters 0..k-1 and itself: one name per parameter,
 * one parameter per field (a second would silently win), one point per
 * value (two equal values give two points of one name). */
static int check_unique(trim__yctx *c, const trim__ynode *m, const trim_arch *a,
                        const trim__space_param *p, size_t k)
{
	const trim__space_param *q = &p[k];
	char field[TRIM__ARCH_NAME_LEN + 32];
	for (size_t j = 0; j < k; j++)
		if (!strcmp(p[j].name, q->name))
			return trim__yerr(c, trim__ymap_get(m, "name"), TRIM_ESCHEMA,
			                  "parameter name '%s' is already parameters[%zu]'s", q->name, j);
	for (size_t t = 0; t < q->nt; t++) {
		for (size_t j = 0; j <= k; j++) {
			for (size_t u = 0; u < (j == k ? t : p[j].nt); u++) {
				if (p[j].t[u].level != q->t[t].level || p[j].t[u].field != q->t[t].field)
					continue;
				target_text(field, sizeof field, a, &q->t[t]);
				trim__yctx_key(c, "set");
				int rc = j == k ? trim__yerr(c, trim__ymap_get(m, "set"), TRIM_ESCHEMA,
				                             "sets %s twice (set[%zu] and set[%zu])", field, u, t)
				                : trim__yerr(c, trim__ymap_get(m, "set"), TRIM_ESCHEMA,
				                             "sets %s, which parameter '%s' (parameters[%zu]) sets too: "
				                             "the second would silently win", field, p[j].name, j);
				trim__yctx_pop(c);
				return rc;
			}
		}
	}
	for (size_t i = 0; i < q->nv; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(q->text[i], q->text[j]) ||
			    !memcmp(q->v[i], q->v[j], q->nt * sizeof q->v[i][0])) {
				const trim__ynode *vals = trim__ymap_get(m, q->labelled ? "labels" : "values");
				if (!vals)
					vals = trim__ymap_get(m, "range");
				trim__yctx_key(c, q->labelled ? "labels" : vals && vals->kind == TRIM__Y_SEQ ? "values" : "range");
				int rc = trim__yerr(c, vals && vals->kind == TRIM__Y_SEQ && i < vals->n ? vals->items[i] : vals,
				                    TRIM_ESCHEMA, "value %zu ('%s') repeats value %zu: two points would be one",
				                    i, q->text[i], j);
				trim__yctx_pop(c);
				return rc;
			}
	return 0;
}

static int parse_space(trim_space *s, const trim__ydoc *doc)
{
	trim__yctx c;
	trim__yctx_init(&c, trim__ydoc_name(doc));
	const trim__ynode *root = trim__ydoc_root(doc);
	static const char *const keys[] = {"schema_version", "name", "description", "base",
	                                   "technology", "parameters", "constraints",
	                                   "mapspace_constraints", NULL};
	int rc = trim__ymap_check(&c, root, keys);
	if (rc)
		return rc;
	int64_t v;
	const char *name = NULL, *base = NULL, *tech = NULL;
	if ((rc = trim__yget_int(&c, root, "schema_version", 1, 1, 1, &v)) != 0 ||
	    (rc = trim__yget_str(&c, root, "name", 1, &name)) != 0 ||
	    (rc = trim__yget_str(&c, root, "base", 1, &base)) != 0)
		return rc;
	snprintf(s->name, sizeof s->name, "%s", name);
	/* the base architecture, relative to the space file */
	const char *sl = strrchr(s->file, '/');
	size_t dl = sl && base[0] != '/' ? (size_t)(sl - s->file) + 1 : 0;
	s->base_file = trim__calloc(dl + strlen(base) + 1, 1);
	if (!s->base_file)
		return TRIM_ENOMEM;
	memcpy(s->base_file, s->file, dl);
	strcpy(s->base_file + dl, base);
	rc = trim_arch_load(&s->base, s->base_file);
	if (rc) {
		trim__yctx_key(&c, "base");
		char where[700];
		snprintf(where, sizeof where, "%s:%d:%d: base", s->file,
		         trim__ymap_get(root, "base")->line, trim__ymap_get(root, "base")->col);
		trim__yctx_pop(&c);
		trim__error_prefix(where);
		return rc;
	}
	rc = trim__yget_str(&c, root, "technology", 0, &tech);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		char *path = NULL;
		rc = trim_energy_resolve(tech, s->file, &path);
		if (rc == 0)
			rc = trim_energy_load(&s->table, path);
		s->table_path = path;
	} else {
		rc = trim_energy_load_for_arch(&s->table, s->base);
	}
	if (rc)
		return rc;
	const trim__ynode *cons = NULL;
	rc = trim__yget_node(&c, root, "constraints", 0, TRIM__Y_MAP, &cons);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		static const char *const ckeys[] = {"max_area_mm2", "fit_device", NULL};
		trim__yctx_key(&c, "constraints");
		rc = trim__ymap_check(&c, cons, ckeys);
		if (rc == 0 && (rc = trim__yget_double(&c, cons, "max_area_mm2", 0, 1e-9, 1e9,
		                                      &s->max_area)) == 1)
			rc = 0;
		if (rc == 0 && (rc = trim__yget_bool(&c, cons, "fit_device", 0, &s->fit_device)) == 1)
			rc = 0;
		if (rc == 0 && s->fit_device && trim_energy_is_fpga(s->table) != 1 &&
		    (trim__yctx_key(&c, "fit_device"), 1))
			rc = trim__yerr(&c, trim__ymap_get(cons, "fit_device"), TRIM_ESCHEMA,
			                "fit_device needs an FPGA energy table (%s is not one)",
			                trim_energy_file(s->table));
		if (rc == 0 && s->max_area > 0 && trim_energy_is_fpga(s->table) == 1 &&
		    (trim__yctx_key(&c, "max_area_mm2"), 1))
			rc = trim__yerr(&c, trim__ymap_get(cons, "max_area_mm2"), TRIM_ESCHEMA,
			                "an FPGA table has resources, not area: use fit_device");
		trim__yctx_pop(&c);
		if (rc)
			return rc;
	}
	const trim__ynode *mc = trim__ymap_get(root, "mapspace_constraints");
	if (mc && (rc = read_mapspace_constraints(s, &c, mc)))
		return rc;
	const trim__ynode *params = NULL;
	rc = trim__yget_node(&c, root, "parameters", 1, TRIM__Y_SEQ, &params);
	if (rc)
		return rc;
	trim__yctx_key(&c, "parameters");
	if (params->n < 1 || params->n > TRIM__SPACE_MAX_PARAMS) {
		rc = trim__yerr(&c, params, TRIM_ESCHEMA, "1 to %d parameters", TRIM__SPACE_MAX_PARAMS);
		goto out;
	}
	s->np = params->n;
	s->grid = 1;
	for (size_t k = 0; k < params->n; k++) {
		trim__yctx_index(&c, k);
		rc = trim__yexpect(&c, params->items[k], TRIM__Y_MAP);
		if (rc == 0)
			rc = parse_param(&c, params->items[k], s->base, &s->p[k]);
		if (rc == 0)
			rc = check_unique(&c, params->items[k], s->base, s->p, k);
		if (rc == 0 && s->grid * s->p[k].nv > MAX_GRID_POINTS)
			rc = trim__yerr(&c, params->items[k], TRIM_ERANGE,
			                "the grid exceeds %d points", MAX_GRID_POINTS);
		trim__yctx_pop(&c);
		if (rc)
			goto out;
		s->grid *= s->p[k].nv;
	}
	rc = trim__space_evaluate(s);
out:
	trim__yctx_pop(&c);
	return rc;
}

TRIM_API int trim_space_load(trim_space **out, const char *path)
{
	if (!out || !path)
		return trim__error(TRIM_EINVAL, "trim_space_load: NULL argument");
	*out = NULL;
	trim__ydoc *doc = NULL;
	trim_space *s = trim__calloc(1, sizeof *s);
	int rc = TRIM_ENOMEM;
	if (s)
		TRIM__HANDLE_INIT(s, SPACE);
	if (!s || !(s->file = trim__strdup(path)))
		goto out;
	rc = trim__ydoc_load_file(&doc, path);
	if (rc == 0)
		rc = parse_space(s, doc);
	if (rc)
		goto out;
	*out = s;
	s = NULL;
out:
	trim__ydoc_free(doc);
	trim_space_free(s);
	return rc;
}

