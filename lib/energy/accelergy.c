/* Loading Accelergy's output: an ERT (energy reference table, versions
 * 0.2 to 0.4) and an ART (area reference table) into a table's components. */
#include <string.h>

#include "energy_local.h"
#include "util/util.h"
#include "util/ydoc.h"

/* ---- Accelergy ERT / ART ---------------------------------------------------- */

/* `version` of an ERT or ART: required, one of the formats read here
 * (Accelergy 0.2's mapping of tables, 0.3's and 0.4's list of tables). */
static int accelergy_version(trim__yctx *c, const trim__ynode *root, const char *what)
{
	static const char *const versions[] = {"0.2", "0.3", "0.4", NULL};
	const trim__ynode *v = trim__ymap_get(root, "version");
	if (!v)
		return trim__yerr(c, root, TRIM_ESCHEMA, "missing required key 'version' of the %s "
		                  "(Accelergy writes 0.2, 0.3 or 0.4)", what);
	trim__yctx_key(c, "version");
	int rc = trim__yexpect(c, v, TRIM__Y_SCALAR);
	int known = 0;
	for (int k = 0; rc == 0 && versions[k]; k++)
		known |= !strcmp(v->str, versions[k]);
	if (rc == 0 && !known)
		rc = trim__yerr(c, v, TRIM_ESCHEMA, "unsupported %s version '%s' (0.2, 0.3 or 0.4)", what,
		                v->str);
	trim__yctx_pop(c);
	return rc;
}

/* One ERT action entry: {name?, arguments, energy} */
static int ert_entry(trim__yctx *c, const trim__ynode *e, component *k, const char *act)
{
	static const char *const keys[] = {"name", "arguments", "energy", NULL};
	int rc = trim__ymap_check(c, e, keys);
	double pj = 0;
	if (rc == 0)
		rc = trim__yget_double(c, e, "energy", 1, 0, 1e12, &pj);
	if (rc == 0)
		rc = trim__energy_comp_action(c, e, k, act, pj);
	return rc;
}

int trim__energy_read_ert(trim__yctx *c, const trim__ynode *ert, trim_energy *t)
{
	static const char *const keys[] = {"version", "tables", NULL};
	const trim__ynode *tables = trim__ymap_get(ert, "tables");
	int rc = trim__ymap_check(c, ert, keys);
	if (rc == 0)
		rc = accelergy_version(c, ert, "ERT");
	if (rc)
		return rc;
	if (!tables)
		return trim__yerr(c, ert, TRIM_ESCHEMA, "missing required key 'tables'");
	trim__yctx_key(c, "tables");
	if (tables->kind == TRIM__Y_SEQ) { /* Accelergy 0.3: [{name, actions: [...]}] */
		for (size_t i = 0; rc == 0 && i < tables->n; i++) {
			const trim__ynode *tb = tables->items[i], *acts = NULL;
			const char *name = NULL;
			static const char *const tkeys[] = {"name", "actions", NULL};
			component *k = NULL;
			trim__yctx_index(c, i);
			rc = trim__ymap_check(c, tb, tkeys);
			if (rc == 0)
				rc = trim__yget_str(c, tb, "name", 1, &name);
			if (rc == 0 && !(k = trim__energy_comp_get(t, name)))
				rc = TRIM_ENOMEM;
			if (rc == 0)
				rc = trim__yget_node(c, tb, "actions", 1, TRIM__Y_SEQ, &acts);
			if (rc == 0) {
				trim__yctx_key(c, "actions");
				for (size_t j = 0; rc == 0 && j < acts->n; j++) {
					const char *an = NULL;
					trim__yctx_index(c, j);
					rc = trim__yexpect(c, acts->items[j], TRIM__Y_MAP);
					if (rc == 0)
						rc = trim__yget_str(c, acts->items[j], "name", 1, &an);
					if (rc == 0)
						rc = ert_entry(c, acts->items[j], k, an);
					trim__yctx_pop(c);
				}
				trim__yctx_pop(c);
			}
			trim__yctx_pop(c);
		}
	} else if (tables->kind == TRIM__Y_MAP) { /* Accelergy 0.2: {name: {action: entry|[entries]}} */
		for (size_t i = 0; rc == 0 && i < tables->n; i++) {
			const trim__ynode *tb = tables->items[i];
			component *k = trim__energy_comp_get(t, tables->keys[i]->str);
			trim__yctx_key(c, tables->keys[i]->str);
			rc = k ? trim__yexpect(c, tb, TRIM__Y_MAP) : TRIM_ENOMEM;
			for (size_t j = 0; rc == 0 && j < tb->n; j++) {
				const trim__ynode *v = tb->items[j];
				const char *an = tb->keys[j]->str;
				trim__yctx_key(c, an);
				if (v->kind == TRIM__Y_SEQ) {
					for (size_t e = 0; rc == 0 && e < v->n; e++) {
						trim__yctx_index(c, e);
						rc = trim__yexpect(c, v->items[e], TRIM__Y_MAP);
						if (rc == 0)
							rc = ert_entry(c, v->items[e], k, an);
						trim__yctx_pop(c);
					}
				} else {
					rc = trim__yexpect(c, v, TRIM__Y_MAP);
					if (rc == 0)
						rc = ert_entry(c, v, k, an);
				}
				trim__yctx_pop(c);
			}
			trim__yctx_pop(c);
		}
	} else {
		rc = trim__yerr(c, tables, TRIM_ESCHEMA, "expected a list or a mapping of tables");
	}
	trim__yctx_pop(c);
	return rc;
}

int trim__energy_read_art(trim__yctx *c, const trim__ynode *art, trim_energy *t)
{
	static const char *const keys[] = {"version", "tables", NULL};
	const trim__ynode *tables = NULL;
	int rc = trim__ymap_check(c, art, keys);
	if (rc == 0)
		rc = accelergy_version(c, art, "ART");
	if (rc == 0)
		rc = trim__yget_node(c, art, "tables", 1, TRIM__Y_SEQ, &tables);
	if (rc)
		return rc;
	trim__yctx_key(c, "tables");
	for (size_t i = 0; rc == 0 && i < tables->n; i++) {
		static const char *const tkeys[] = {"name", "area", NULL};
		const char *name = NULL;
		component *k = NULL;
		trim__yctx_index(c, i);
		rc = trim__ymap_check(c, tables->items[i], tkeys);
		if (rc == 0)
			rc = trim__yget_str(c, tables->items[i], "name", 1, &name);
		if (rc == 0 && !(k = trim__energy_comp_get(t, name)))
			rc = TRIM_ENOMEM;
		if (rc == 0)
			rc = trim__yget_double(c, tables->items[i], "area", 1, 0, 1e15, &k->area_um2);
		if (rc == 0)
			k->has_area = 1;
		trim__yctx_pop(c);
	}
	trim__yctx_pop(c);
	return rc;
}
