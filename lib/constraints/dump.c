/*
 * Dataflow constraints: the dump as a constraints document and the digest
 * of a set (lib/constraints/constraints_local.h has the map of these files).
 */
#include <stdlib.h>

#include "constraints_local.h"
#include "util/handle.h"
#include "util/util.h"

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
	trim__sb_printf(sb, "\n    type: %s\n", trim__constraints_type_names[t->type]);
	if (t->type == CT_BYPASS) {
		for (int v = 1; v >= 0; v--) {
			int any = 0;
			for (int s = 0; s < 3; s++)
				if (t->keep[s] == v) {
					trim__sb_printf(sb, "%s%s", any ? ", " : v ? "    keep: [" : "    bypass: [", trim__constraints_slot_names[s]);
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
			trim__sb_printf(sb, "%s%c=%lld", any ? " " : "    factors: ", trim__constraints_dim_letters[d],
			                (long long)t->fix[d]);
			any = 1;
		}
		if (t->max[d] > 0) {
			trim__sb_printf(sb, "%s%c<=%lld", any ? " " : "    factors: ", trim__constraints_dim_letters[d],
			                (long long)t->max[d]);
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
				trim__sb_printf(sb, "%s%c", first ? "" : ", ", trim__constraints_dim_letters[d]);
				first = 0;
			}
		trim__sb_puts(sb, "]\n");
	}
	if (t->nperm > 0) {
		trim__sb_puts(sb, "    permutation: ");
		for (int k = 0; k < t->nperm; k++)
			trim__sb_putc(sb, trim__constraints_dim_letters[t->perm[k]]);
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
	if (a && (rc = trim__constraints_expand(c, a, &t, &n)))
		return rc;
	trim__sb_puts(sb, "schema_version: 1\n");
	if (!a && c->npreset) {
		trim__sb_puts(sb, "preset: [");
		for (int i = 0; i < c->npreset; i++)
			trim__sb_printf(sb, "%s%s", i ? ", " : "", trim__constraints_presets[c->preset[i]].name);
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
