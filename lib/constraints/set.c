/*
 * Dataflow constraints: the presets and the set (lib/constraints/constraints_local.h
 * has the map of these files).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraints_local.h"
#include "util/handle.h"
#include "util/util.h"

const char trim__constraints_dim_letters[TRIM_NDIMS + 1] = "NGMCEFRS";
const char *const trim__constraints_slot_names[3] = {"input", "weight", "output"};
const char *const trim__constraints_type_names[3] = {"temporal", "spatial", "bypass"};

/* ---- presets ----------------------------------------------------------------- */

#define B(d) (1u << TRIM_DIM_##d)
const cpreset trim__constraints_presets[] = {
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
	 "N G C E F R S only (the inputs partitioned over the PEs; with R and S spread, their window "
	 "copies, as SCALE-Sim's is puts R x S x C on the rows); Chen et al. ISCA 2016 taxonomy, SCNN "
	 "(Parashar et al. ISCA 2017)",
	 B(M), "", B(N) | B(G) | B(C) | B(E) | B(F) | B(R) | B(S)},
	{"row-stationary",
	 "spatial on R E (filter rows x output rows) plus G M C to fill the array, never N F S; "
	 "innermost storage loops on S F C M only, S then F innermost (a filter row, an input "
	 "window and a psum row per PE: the 1-D row convolution); Chen et al. ISCA 2016 / JSSC 2017 "
	 "(Eyeriss), Timeloop's Eyeriss row-stationary example",
	 B(S) | B(F) | B(C) | B(M), "SF", B(G) | B(M) | B(C) | B(E) | B(R)},
};
#undef B
#define NPRESETS (sizeof trim__constraints_presets / sizeof trim__constraints_presets[0])

const char *trim_constraints_preset_name(size_t i)
{
	return i < NPRESETS ? trim__constraints_presets[i].name : NULL;
}

const char *trim_constraints_preset_description(size_t i)
{
	return i < NPRESETS ? trim__constraints_presets[i].desc : NULL;
}

int trim__constraints_preset_find(const char *name)
{
	for (size_t i = 0; i < NPRESETS; i++)
		if (!strcmp(name, trim__constraints_presets[i].name))
			return (int)i;
	return -1;
}

/* "; did you mean 'X'?" for a misspelt preset name, or "". */
const char *trim__constraints_preset_hint(char *buf, size_t n, const char *name)
{
	trim__nearest near;
	trim__nearest_init(&near, name);
	for (size_t i = 0; i < NPRESETS; i++)
		trim__nearest_add(&near, trim__constraints_presets[i].name);
	return trim__suggestion(buf, n, &near);
}

void trim__constraints_preset_list(char *buf, size_t n)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < NPRESETS && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", trim__constraints_presets[i].name);
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

ctarget *trim__constraints_push_target(trim_constraints *c)
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

int trim__constraints_add_preset(trim_constraints *c, int p, const char *src)
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
	int p = trim__constraints_preset_find(name);
	if (p < 0) {
		char list[256], hint[96];
		trim__constraints_preset_list(list, sizeof list);
		return trim__error(TRIM_ENOTFOUND, "unknown dataflow preset '%s' (%s)%s", name, list,
		                   trim__constraints_preset_hint(hint, sizeof hint, name));
	}
	return trim__constraints_add_preset(c, p, NULL);
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
		int rc = trim__constraints_add_preset(c, o->preset[i], o->preset_src[i]);
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
			rc = trim__constraints_add_preset(o, c->preset[i], c->preset_src[i]);
	for (size_t i = 0; i < c->n && !rc; i++) {
		if ((size_t)c->npreset + i == item)
			continue;
		ctarget *t = trim__constraints_push_target(o);
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
			snprintf(name, n, "the preset %s (%s)", trim__constraints_presets[p].name, c->preset_src[item]);
		else
			snprintf(name, n, "the preset %s", trim__constraints_presets[p].name);
	} else {
		snprintf(name, n, "%s", c->t[item - (size_t)c->npreset].src);
	}
	return 0;
}
size_t trim_constraints_preset_count(const trim_constraints *c)
{
	return TRIM__HANDLE_OK(c, CONSTRAINTS) ? (size_t)c->npreset : 0;
}
