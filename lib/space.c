/* The designer: architecture spaces (docs/arch.md, "Architecture spaces"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_int.h"
#include "constraints_int.h"
#include "energy_int.h"
#include "space_int.h"
#include "trim/space.h"
#include "util/handle.h"
#include "util/util.h"
#include "util/ydoc.h"

enum { F_FANOUT, F_CAPACITY, F_WORD_BITS, F_LINK_BITS, F_READ_BW, F_WRITE_BW, F_ZERO_GATE,
       F_ZERO_SKIP, F_CLOCK, NFIELDS };
static const char *const field_names[] = {"fanout", "capacity", "word_bits", "link_bits",
                                          "read_bw", "write_bw", "zero_gate", "zero_skip",
                                          "clock_mhz", NULL};
#define MAX_PARAMS 8
#define MAX_TARGETS 4
#define MAX_VALUES 256
#define MAX_GRID_POINTS 1000000

typedef struct {
	int level; /* -1: a global field */
	int field;
} target;

typedef struct {
	char name[64];
	size_t nt;
	target t[MAX_TARGETS];
	size_t nv;
	double v[MAX_VALUES][MAX_TARGETS][2];
	char text[MAX_VALUES][64]; /* the value as it appears in point names */
	int labelled;
} param;

typedef struct {
	uint64_t gi;
	char name[256];
	int ok;
	char why[256];
	double area;
	double res[4];
	int fits;
} point;

struct trim_space {
	uint32_t tag; /* TRIM__H_SPACE (util/handle.h): first, checked by every entry point */
	char name[64];
	char *file;
	char *base_file;
	char *table_path; /* technology: as resolved (NULL: none given) */
	trim_arch *base;
	trim_energy *table;
	double max_area;
	int fit_device;
	size_t np;
	param p[MAX_PARAMS];
	uint64_t grid;
	point *pts;
	uint64_t nok;
	uint64_t *ok; /* accepted point -> grid index */
	trim_constraints *cons; /* mapspace_constraints: (NULL: none) */
};

TRIM_API void trim_space_free(trim_space *s)
{
	TRIM__HANDLE_CHECK_VOID(s, SPACE);
	if (!s)
		return;
	trim_arch_free(s->base);
	trim_energy_free(s->table);
	trim_constraints_free(s->cons);
	free(s->pts);
	free(s->ok);
	free(s->file);
	free(s->base_file);
	free(s->table_path);
	TRIM__HANDLE_POISON(s, SPACE);
	free(s);
}

static void fmt_value(char *buf, size_t n, int field, const double *v)
{
	double b = v[0];
	switch (field) {
	case F_FANOUT:
		if (v[1] > 1)
			snprintf(buf, n, "%gx%g", v[0], v[1]);
		else
			snprintf(buf, n, "%g", v[0]);
		break;
	case F_CAPACITY:
		if (b >= 1048576 && fmod(b, 1048576) == 0)
			snprintf(buf, n, "%gMB", b / 1048576);
		else if (b >= 1024 && fmod(b, 1024) == 0)
			snprintf(buf, n, "%gKB", b / 1024);
		else
			snprintf(buf, n, "%gB", b);
		break;
	case F_ZERO_GATE:
	case F_ZERO_SKIP: snprintf(buf, n, "%s", b ? "on" : "off"); break;
	default: snprintf(buf, n, "%g", b); break;
	}
}

/* One value of one target. */
static int read_value(trim__yctx *c, const trim__ynode *n, const target *tg, double *v)
{
	int64_t i64[2];
	int b, rc;
	v[1] = 1;
	switch (tg->field) {
	case F_FANOUT:
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
	case F_CAPACITY:
		rc = trim__ybytes(c, n, &i64[0]);
		v[0] = (double)i64[0];
		return rc;
	case F_WORD_BITS:
	case F_LINK_BITS:
		rc = trim__yint(c, n, 1, 4096, &i64[0]);
		v[0] = (double)i64[0];
		return rc;
	case F_ZERO_GATE:
	case F_ZERO_SKIP:
		rc = trim__ybool(c, n, &b);
		v[0] = b;
		return rc;
	default:
		return trim__ydouble(c, n, 1e-9, 1e12, &v[0]);
	}
}

/* "Level.field" or a global "field" -> target, checked against the base. */
static int parse_target(trim__yctx *c, const trim__ynode *n, const trim_arch *a, target *tg)
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
		if (tg->field != F_CLOCK && tg->field != F_WORD_BITS)
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
	case F_FANOUT: case F_LINK_BITS: ok = type == TRIM__LVL_SPATIAL; break;
	case F_CAPACITY:
		ok = type == TRIM__LVL_STORAGE && a->lv[tg->level].mem_class != TRIM__MEM_DRAM;
		break;
	case F_WORD_BITS: case F_READ_BW: case F_WRITE_BW: ok = type == TRIM__LVL_STORAGE; break;
	case F_ZERO_GATE: case F_ZERO_SKIP: ok = type == TRIM__LVL_COMPUTE; break;
	default: ok = 0; break;
	}
	if (!ok)
		return trim__yerr(c, n, TRIM_ESCHEMA, "field '%s' does not apply to level '%s'", f,
		                  a->lv[tg->level].name);
	const int *lt = a->lv[tg->level].link_t;
	if (tg->field == F_LINK_BITS && (lt[0] || lt[1] || lt[2]))
		return trim__yerr(c, n, TRIM_ESCHEMA,
		                  "level '%s' has one network per tensor (link_bits: {input: %d, weight: %d, "
		                  "output: %d}): a space cannot set one link_bits for it",
		                  a->lv[tg->level].name, lt[0], lt[1], lt[2]);
	return 0;
}

static int parse_range(trim__yctx *c, const trim__ynode *m, param *p)
{
	static const char *const keys[] = {"from", "to", "step", "factor", NULL};
	int rc = trim__ymap_check(c, m, keys);
	if (rc)
		return rc;
	if (p->nt != 1 || p->t[0].field == F_FANOUT || p->t[0].field >= F_ZERO_GATE)
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
		if (p->nv >= MAX_VALUES)
			return trim__yerr(c, m, TRIM_ERANGE, "more than %d values", MAX_VALUES);
		p->v[p->nv][0][0] = v;
		p->v[p->nv][0][1] = 1;
		p->nv++;
	}
	return 0;
}

static int parse_param(trim__yctx *c, const trim__ynode *m, const trim_arch *a, param *p)
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
		if (set->n < 1 || set->n > MAX_TARGETS)
			rc = trim__yerr(c, set, TRIM_ESCHEMA, "1 to %d fields", MAX_TARGETS);
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
		if (rc == 0 && (vals->n < 1 || vals->n > MAX_VALUES))
			rc = trim__yerr(c, vals, TRIM_ESCHEMA, "1 to %d values", MAX_VALUES);
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

/* Apply value index vi of parameter p to a. */
static void apply(trim_arch *a, const param *p, size_t vi)
{
	for (size_t k = 0; k < p->nt; k++) {
		const double *v = p->v[vi][k];
		trim__level *lv = p->t[k].level >= 0 ? &a->lv[p->t[k].level] : NULL;
		switch (p->t[k].field) {
		case F_FANOUT:
			lv->fanout_x = (int64_t)v[0];
			lv->fanout_y = (int64_t)v[1];
			break;
		case F_CAPACITY:
			if (lv->partitioned) { /* keep the proportions of the partitions */
				double scale = v[0] / (double)lv->capacity_bytes;
				for (int s = 0; s < 3; s++)
					lv->part_bytes[s] = (int64_t)floor((double)lv->part_bytes[s] * scale);
			}
			lv->capacity_bytes = (int64_t)v[0];
			break;
		case F_WORD_BITS:
			if (lv) {
				lv->word_bits = (int)v[0];
			} else {
				int old = a->word_bits;
				a->word_bits = (int)v[0];
				for (int i = 0; i < a->nlevels; i++) {
					if (a->lv[i].type == TRIM__LVL_STORAGE && a->lv[i].word_bits == old) {
						for (int s = 0; s < 3; s++)
							a->lv[i].part_bytes[s] = a->lv[i].part_bytes[s] * (int64_t)v[0] / old;
						a->lv[i].word_bits = (int)v[0];
					}
					if (a->lv[i].type == TRIM__LVL_SPATIAL && a->lv[i].link_bits == old)
						a->lv[i].link_bits = (int)v[0];
				}
			}
			break;
		case F_LINK_BITS: lv->link_bits = (int)v[0]; break;
		case F_READ_BW: lv->read_bw = v[0]; break;
		case F_WRITE_BW: lv->write_bw = v[0]; break;
		case F_ZERO_GATE: lv->zero_gate = (int)v[0]; break;
		case F_ZERO_SKIP: lv->zero_skip = (int)v[0]; break;
		default: a->clock_mhz = v[0]; break;
		}
	}
}

/* Architecture of grid point gi (first parameter slowest). */
static int grid_arch(const trim_space *s, uint64_t gi, trim_arch **out)
{
	trim_arch *a = NULL;
	int rc = trim_arch_clone(&a, s->base);
	if (rc)
		return rc;
	size_t idx[MAX_PARAMS];
	for (size_t k = s->np; k-- > 0;) {
		idx[k] = (size_t)(gi % s->p[k].nv);
		gi /= s->p[k].nv;
	}
	for (size_t k = 0; k < s->np; k++)
		apply(a, &s->p[k], idx[k]);
	rc = trim__arch_finish(a);
	if (rc) {
		trim_arch_free(a);
		return rc;
	}
	*out = a;
	return 0;
}

static void point_name(const trim_space *s, uint64_t gi, char *buf, size_t n)
{
	size_t idx[MAX_PARAMS];
	for (size_t k = s->np; k-- > 0;) {
		idx[k] = (size_t)(gi % s->p[k].nv);
		gi /= s->p[k].nv;
	}
	buf[0] = '\0';
	for (size_t k = 0; k < s->np; k++) {
		size_t l = strlen(buf);
		if (s->p[k].labelled)
			snprintf(buf + l, n - l, "%s%s", k ? "_" : "", s->p[k].text[idx[k]]);
		else
			snprintf(buf + l, n - l, "%s%s=%s", k ? "_" : "", s->p[k].name,
			         s->p[k].text[idx[k]]);
	}
}

static int evaluate(trim_space *s)
{
	s->pts = trim__calloc((size_t)s->grid, sizeof *s->pts);
	s->ok = trim__calloc((size_t)s->grid, sizeof *s->ok);
	if (!s->pts || !s->ok)
		return TRIM_ENOMEM;
	int fpga = trim_energy_is_fpga(s->table) == 1;
	for (uint64_t gi = 0; gi < s->grid; gi++) {
		point *p = &s->pts[gi];
		trim_arch *a = NULL;
		p->gi = gi;
		p->area = NAN;
		point_name(s, gi, p->name, sizeof p->name);
		int rc = grid_arch(s, gi, &a);
		if (rc == 0) {
			double r[8];
			if (fpga) {
				rc = trim_energy_resources(s->table, a, r, 8);
				if (rc >= 0) {
					p->fits = rc;
					memcpy(p->res, r, sizeof p->res);
					rc = 0;
				}
			} else {
				rc = trim_energy_arch_area(s->table, a, &p->area);
			}
		}
		trim_arch_free(a);
		if (rc == TRIM_ENOMEM)
			return rc;
		if (rc) {
			snprintf(p->why, sizeof p->why, "invalid: %s", trim_last_error());
			trim_clear_error();
			continue;
		}
		if (s->fit_device && !p->fits) {
			char *w = p->why;
			size_t l = 0;
			static const char *const rn[4] = {"DSP", "BRAM36", "LUT", "FF"};
			double av[4];
			trim__energy_device(s->table, av, NULL);
			l += (size_t)snprintf(w, sizeof p->why, "does not fit the device:");
			for (int r = 0; r < 4; r++)
				if (p->res[r] > av[r] && l < sizeof p->why)
					l += (size_t)snprintf(w + l, sizeof p->why - l, " %s %g > %g", rn[r],
					                      p->res[r], av[r]);
			continue;
		}
		if (s->max_area > 0 && p->area > s->max_area) {
			snprintf(p->why, sizeof p->why, "area %.4g mm2 > budget %g mm2", p->area,
			         s->max_area);
			continue;
		}
		p->ok = 1;
		s->ok[s->nok++] = gi;
	}
	return 0;
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

static const char *target_text(char *buf, size_t n, const trim_arch *a, const target *t)
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
static int check_unique(trim__yctx *c, const trim__ynode *m, const trim_arch *a, const param *p, size_t k)
{
	const param *q = &p[k];
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
	if (params->n < 1 || params->n > MAX_PARAMS) {
		rc = trim__yerr(&c, params, TRIM_ESCHEMA, "1 to %d parameters", MAX_PARAMS);
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
	rc = evaluate(s);
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

TRIM_API const char *trim_space_name(const trim_space *s)
{
	return TRIM__HANDLE_OK(s, SPACE) ? s->name : NULL;
}
const char *trim__space_file(const trim_space *s) { return s->file; }
const char *trim__space_base_file(const trim_space *s) { return s->base_file; }
const char *trim__space_table_path(const trim_space *s) { return s->table_path; }
TRIM_API const trim_constraints *trim_space_constraints(const trim_space *s)
{
	return TRIM__HANDLE_OK(s, SPACE) ? s->cons : NULL;
}
TRIM_API uint64_t trim_space_grid_size(const trim_space *s)
{
	return TRIM__HANDLE_OK(s, SPACE) ? s->grid : 0;
}
TRIM_API uint64_t trim_space_count(const trim_space *s)
{
	return TRIM__HANDLE_OK(s, SPACE) ? s->nok : 0;
}

TRIM_API const char *trim_space_point_name(const trim_space *s, uint64_t i)
{
	TRIM__HANDLE_CHECK(s, SPACE, NULL);
	return s && i < s->nok ? s->pts[s->ok[i]].name : NULL;
}

TRIM_API uint64_t trim_space_point_grid_index(const trim_space *s, uint64_t i)
{
	TRIM__HANDLE_CHECK(s, SPACE, 0);
	return s && i < s->nok ? s->ok[i] : UINT64_MAX;
}

TRIM_API double trim_space_point_area(const trim_space *s, uint64_t i)
{
	TRIM__HANDLE_CHECK(s, SPACE, NAN);
	return s && i < s->nok ? s->pts[s->ok[i]].area : NAN;
}

TRIM_API int trim_space_find(const trim_space *s, const char *name, uint64_t *index)
{
	TRIM__HANDLE_CHECK(s, SPACE, TRIM_EINVAL);
	if (!s || !name || !index)
		return trim__error(TRIM_EINVAL, "trim_space_find: NULL argument");
	for (uint64_t i = 0; i < s->nok; i++) {
		if (!strcmp(s->pts[s->ok[i]].name, name)) {
			*index = i;
			return 0;
		}
	}
	return trim__error(TRIM_ENOTFOUND, "space %s has no point '%s'", s->name, name);
}

TRIM_API int trim_space_point_arch(const trim_space *s, uint64_t i, trim_arch **out)
{
	TRIM__HANDLE_CHECK(s, SPACE, TRIM_EINVAL);
	if (!s || !out)
		return trim__error(TRIM_EINVAL, "trim_space_point_arch: NULL argument");
	*out = NULL;
	if (i >= s->nok)
		return trim__error(TRIM_ERANGE, "space %s has %llu points, no point %llu", s->name,
		                   (unsigned long long)s->nok, (unsigned long long)i);
	trim_arch *a = NULL;
	int rc = grid_arch(s, s->ok[i], &a);
	if (rc)
		return rc;
	snprintf(a->name, sizeof a->name, "%s", s->pts[s->ok[i]].name);
	*out = a;
	return 0;
}

static void json_point(trim__sb *sb, const trim_space *s, const point *p, int fpga, int64_t idx)
{
	trim__sb_putc(sb, '{');
	if (idx >= 0)
		trim__sb_printf(sb, "\"index\":%lld,", (long long)idx);
	trim__sb_printf(sb, "\"grid_index\":%llu,\"name\":", (unsigned long long)p->gi);
	trim__sb_json_str(sb, p->name);
	trim__sb_puts(sb, ",\"values\":{");
	uint64_t gi = p->gi;
	size_t vi[MAX_PARAMS];
	for (size_t k = s->np; k-- > 0;) {
		vi[k] = (size_t)(gi % s->p[k].nv);
		gi /= s->p[k].nv;
	}
	for (size_t k = 0; k < s->np; k++) {
		if (k)
			trim__sb_putc(sb, ',');
		trim__sb_json_str(sb, s->p[k].name);
		trim__sb_putc(sb, ':');
		trim__sb_json_str(sb, s->p[k].text[vi[k]]);
	}
	trim__sb_putc(sb, '}');
	if (p->why[0] && !strncmp(p->why, "invalid", 7)) {
		/* no costs */
	} else if (fpga) {
		trim__sb_printf(sb, ",\"resources\":{\"dsp\":%.17g,\"bram36\":%.17g,\"lut\":%.17g,"
		                "\"ff\":%.17g},\"fits\":%s", p->res[0], p->res[1], p->res[2],
		                p->res[3], p->fits ? "true" : "false");
	} else {
		trim__sb_puts(sb, ",\"area_mm2\":");
		trim__sb_json_double(sb, p->area);
	}
	if (!p->ok) {
		trim__sb_puts(sb, ",\"reason\":");
		trim__sb_json_str(sb, p->why);
	}
	trim__sb_putc(sb, '}');
}

TRIM_API int trim_space_report(const trim_space *s, int format, char **out)
{
	TRIM__HANDLE_CHECK(s, SPACE, TRIM_EINVAL);
	if (!s || !out)
		return trim__error(TRIM_EINVAL, "trim_space_report: NULL argument");
	*out = NULL;
	if (format != TRIM_FORMAT_TABLE && format != TRIM_FORMAT_JSON)
		return trim__error(TRIM_EINVAL, "trim_space_report: format must be table or json");
	int fpga = trim_energy_is_fpga(s->table) == 1;
	trim__sb sb;
	trim__sb_init(&sb);
	if (format == TRIM_FORMAT_JSON) {
		trim__sb_puts(&sb, "{\"name\":");
		trim__sb_json_str(&sb, s->name);
		trim__sb_puts(&sb, ",\"file\":");
		trim__sb_json_str(&sb, s->file);
		trim__sb_puts(&sb, ",\"base\":");
		trim__sb_json_str(&sb, s->base_file);
		trim__sb_puts(&sb, ",\"table\":");
		trim__sb_json_str(&sb, trim_energy_file(s->table));
		trim__sb_printf(&sb, ",\"grid_size\":%llu,\"count\":%llu,\"parameters\":[",
		                (unsigned long long)s->grid, (unsigned long long)s->nok);
		for (size_t k = 0; k < s->np; k++) {
			trim__sb_puts(&sb, k ? ",{\"name\":" : "{\"name\":");
			trim__sb_json_str(&sb, s->p[k].name);
			trim__sb_puts(&sb, ",\"values\":[");
			for (size_t i = 0; i < s->p[k].nv; i++) {
				if (i)
					trim__sb_putc(&sb, ',');
				trim__sb_json_str(&sb, s->p[k].text[i]);
			}
			trim__sb_puts(&sb, "]}");
		}
		trim__sb_puts(&sb, "],\"points\":[");
		for (uint64_t i = 0; i < s->nok; i++) {
			if (i)
				trim__sb_putc(&sb, ',');
			json_point(&sb, s, &s->pts[s->ok[i]], fpga, (int64_t)i);
		}
		trim__sb_puts(&sb, "],\"rejected\":[");
		int first = 1;
		for (uint64_t g = 0; g < s->grid; g++) {
			if (s->pts[g].ok)
				continue;
			if (!first)
				trim__sb_putc(&sb, ',');
			json_point(&sb, s, &s->pts[g], fpga, -1);
			first = 0;
		}
		trim__sb_puts(&sb, "]}\n");
	} else {
		trim__sb_printf(&sb, "space %s (%s): base %s, table %s\n", s->name, s->file,
		                s->base_file, trim_energy_file(s->table));
		trim__sb_printf(&sb, "%llu grid points, %llu accepted", (unsigned long long)s->grid,
		                (unsigned long long)s->nok);
		if (s->max_area > 0)
			trim__sb_printf(&sb, ", area budget %g mm2", s->max_area);
		if (s->fit_device)
			trim__sb_printf(&sb, ", must fit the device");
		trim__sb_puts(&sb, "\n\n");
		uint64_t nacc = 0;
		trim__sb_printf(&sb, "%-6s %-6s %-40s %s\n", "point", "grid", "name",
		                fpga ? "DSP / BRAM36 / LUT / FF" : "area mm2");
		for (uint64_t g = 0; g < s->grid; g++) {
			const point *p = &s->pts[g];
			char idx[24] = "-";
			if (p->ok) /* accepted points are numbered in grid order */
				snprintf(idx, sizeof idx, "%llu", (unsigned long long)nacc++);
			trim__sb_printf(&sb, "%-6s %-6llu %-40s ", idx, (unsigned long long)g, p->name);
			if (!strncmp(p->why, "invalid", 7))
				trim__sb_puts(&sb, "-");
			else if (fpga)
				trim__sb_printf(&sb, "%g / %g / %g / %g", p->res[0], p->res[1], p->res[2],
				                p->res[3]);
			else
				trim__sb_printf(&sb, "%.4g", p->area);
			if (!p->ok)
				trim__sb_printf(&sb, "  REJECTED: %s", p->why);
			trim__sb_putc(&sb, '\n');
		}
	}
	int rc = trim__sb_take(&sb, out);
	trim__sb_free(&sb);
	return rc;
}
