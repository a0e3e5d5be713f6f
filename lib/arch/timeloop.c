/*
 * Timeloop architecture files read unchanged (docs/arch.md, "Timeloop
 * architecture files"): version 0.4's `nodes` (containers, components,
 * parallel groups) and version 0.3's `subtree` / `local` tree are translated
 * into libtrim's description, which the loader then reads as any other.
 *
 * The translation, level by level, outermost first:
 *   a container with `spatial: {meshX, meshY}` (0.4), or a rise in the
 *   instance count between two components (0.3: `PE[0..167]`, `meshX`)
 *                      -> a spatial level [X, Y], multicast and reduction,
 *                         `link_bits: unlimited` (Timeloop's default network
 *                         has no bandwidth limit), named inter_<container>_spatial
 *                         as Timeloop 0.4 names it in its mappings;
 *   a DRAM component   -> storage `dram` (`type`: DDR3, LPDDR4, HBM2);
 *   an SRAM / buffer   -> storage `sram`, a register file -> `regfile`:
 *                         word_bits = datawidth (0.3: word-bits),
 *                         block_size = width / datawidth (0.3: block-size),
 *                         entries = depth x block_size (Timeloop's size),
 *                         read_bw / write_bw = read/write_bandwidth;
 *   `constraints: {dataspace: {bypass: [...]}}` -> keep = the others;
 *   a MAC              -> compute, int8/int16 from multiplier_width or
 *                         datawidth (fp16/fp32 for an `fpmac`).
 * Each level keeps its Timeloop name, so an Accelergy ERT made for the file
 * costs it unchanged (components are found by their last name segment) and
 * Timeloop's mappings for it read unchanged. Errors name the Timeloop file's
 * line and column.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_int.h"
#include "util/util.h"
#include "util/ydoc.h"

#define TL_MAX_LEVELS TRIM__MAX_LEVELS
#define TL_MAX_INSTANCES ((int64_t)1 << 40) /* as the native loader's counts */

typedef struct {
	trim__yctx *c;
	trim__sb *out;
	int nlevels;
	int word_bits;       /* the first storage level's, the default of the file */
	char tech[64];       /* the first `technology` attribute met */
	int64_t inst;        /* 0.3: instances of the last component translated */
	int64_t mesh_x;      /* 0.3: its meshX */
	int have_compute;
} tl_state;

static int ci_contains(const char *s, const char *sub)
{
	size_t n = strlen(sub);
	for (; *s; s++) {
		size_t k = 0;
		while (k < n && s[k] && tolower((unsigned char)s[k]) == tolower((unsigned char)sub[k]))
			k++;
		if (k == n)
			return 1;
	}
	return 0;
}

/* An attribute that is a whole number (a Timeloop expression such as
 * "width // datawidth" is refused: write its value). 1: absent. */
static int tl_int(tl_state *S, const trim__ynode *attrs, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	const trim__ynode *n = attrs ? trim__ymap_get(attrs, key) : NULL;
	if (!n)
		return 1;
	trim__yctx_key(S->c, key);
	int rc = trim__yexpect(S->c, n, TRIM__Y_SCALAR);
	if (rc == 0) {
		char *end = NULL;
		double v = strtod(n->str, &end);
		/* the range first: a double outside int64_t (or NaN) has no integer cast */
		if (!n->str[0] || *end || v != v || v != floor(v))
			rc = trim__yerr(S->c, n, TRIM_ESCHEMA, "'%s' is not a whole number (an expression of "
			                "other attributes is not evaluated here: write its value)", n->str);
		else if (v < (double)lo || v > (double)hi)
			rc = trim__yerr(S->c, n, TRIM_ERANGE, "%s must be in [%lld, %lld], got %s", key, (long long)lo,
			                (long long)hi, n->str);
		else
			*out = (int64_t)v;
	}
	trim__yctx_pop(S->c);
	return rc;
}

static const char *tl_str(const trim__ynode *attrs, const char *key)
{
	const trim__ynode *n = attrs ? trim__ymap_get(attrs, key) : NULL;
	return n && n->kind == TRIM__Y_SCALAR ? n->str : NULL;
}

/* The first of several spellings of one attribute (0.4, 0.3). */
static int tl_int2(tl_state *S, const trim__ynode *attrs, const char *k1, const char *k2, int64_t lo, int64_t hi,
                   int64_t *out)
{
	int rc = tl_int(S, attrs, k1, lo, hi, out);
	return rc == 1 && k2 ? tl_int(S, attrs, k2, lo, hi, out) : rc;
}

static void note_tech(tl_state *S, const trim__ynode *attrs)
{
	const char *t = tl_str(attrs, "technology");
	if (t && !S->tech[0])
		snprintf(S->tech, sizeof S->tech, "%s", t);
}

/* The tensors of `dataspace: {bypass: [...]}` (0.4 constraints). */
static int tl_bypass(tl_state *S, const trim__ynode *comp, int byp[3])
{
	const trim__ynode *cons = trim__ymap_get(comp, "constraints");
	const trim__ynode *ds = cons && cons->kind == TRIM__Y_MAP ? trim__ymap_get(cons, "dataspace") : NULL;
	const trim__ynode *b = ds && ds->kind == TRIM__Y_MAP ? trim__ymap_get(ds, "bypass") : NULL;
	if (!b)
		return 0;
	trim__yctx_key(S->c, "constraints.dataspace.bypass");
	int rc = trim__yexpect(S->c, b, TRIM__Y_SEQ);
	static const char *const names[] = {"Inputs", "Weights", "Outputs", NULL};
	for (size_t i = 0; rc == 0 && i < b->n; i++) {
		int k = -1;
		rc = trim__yexpect(S->c, b->items[i], TRIM__Y_SCALAR);
		for (int t = 0; rc == 0 && names[t]; t++)
			if (!strcmp(b->items[i]->str, names[t]))
				k = t;
		if (rc == 0 && k < 0)
			rc = trim__yerr(S->c, b->items[i], TRIM_ESCHEMA, "unknown dataspace '%s' (Inputs, Weights, "
			                "Outputs)", b->items[i]->str);
		if (rc == 0)
			byp[k] = 1;
	}
	trim__yctx_pop(S->c);
	return rc;
}

static int add_level(tl_state *S, const trim__ynode *at)
{
	if (S->nlevels == TL_MAX_LEVELS)
		return trim__yerr(S->c, at, TRIM_ESCHEMA, "more than %d levels", TL_MAX_LEVELS);
	if (S->have_compute)
		return trim__yerr(S->c, at, TRIM_ESCHEMA, "a level below the MAC: the MAC must be the last component");
	S->nlevels++;
	return 0;
}

static int spatial_level(tl_state *S, const trim__ynode *at, const char *name, int64_t x, int64_t y)
{
	int rc = add_level(S, at);
	if (rc == 0)
		trim__sb_printf(S->out,
		                "  - {name: \"inter_%s_spatial\", type: spatial, fanout: [%lld, %lld], network: mesh, "
		                "multicast: true, reduction: true, link_bits: unlimited}\n",
		                name, (long long)x, (long long)y);
	return rc;
}

/* Strip a 0.3 range: "PE[0..167]" -> "PE", count 168 (1 without a range). */
static int tl_range(tl_state *S, const trim__ynode *n, char *base, size_t cap, int64_t *count)
{
	const char *s = n->str, *br = strchr(s, '[');
	size_t len = br ? (size_t)(br - s) : strlen(s);
	*count = 1;
	if (len >= cap || len == 0)
		return trim__yerr(S->c, n, TRIM_ESCHEMA, "name '%s' is empty or longer than %zu characters", s,
		                  cap - 1);
	memcpy(base, s, len);
	base[len] = 0;
	if (br) {
		long long lo = 0, hi = 0;
		char tail = 0;
		if (sscanf(br, "[%lld..%lld]%c", &lo, &hi, &tail) != 2 || lo < 0 || hi < lo)
			return trim__yerr(S->c, n, TRIM_ESCHEMA, "'%s': a range is written [first..last]", s);
		if (hi - lo >= TL_MAX_INSTANCES)
			return trim__yerr(S->c, n, TRIM_ERANGE, "'%s': more than %lld instances", s,
			                  (long long)TL_MAX_INSTANCES);
		*count = hi - lo + 1;
	}
	return 0;
}

static int component(tl_state *S, const trim__ynode *comp, const char *name)
{
	const trim__ynode *attrs = trim__ymap_get(comp, "attributes");
	const char *cls = tl_str(comp, "class");
	int rc = 0;
	note_tech(S, attrs);
	if (!cls)
		return trim__yerr(S->c, comp, TRIM_ESCHEMA, "component '%s' has no class", name);
	trim__yctx_key(S->c, "attributes");
	if (ci_contains(cls, "mac")) {
		int64_t bits = 0;
		rc = tl_int2(S, attrs, "multiplier_width", "datawidth", 1, 64, &bits);
		if (rc == 1)
			rc = tl_int(S, attrs, "word-bits", 1, 64, &bits);
		int fp = ci_contains(cls, "fp");
		const char *dt = bits == 8 && !fp ? "int8" : bits == 16 ? (fp ? "fp16" : "int16") : bits == 32 && fp ? "fp32" : NULL;
		if (rc == 0 && !dt)
			rc = trim__yerr(S->c, comp, TRIM_ESCHEMA, "MAC '%s' of %lld bits: libtrim has int8, int16, fp16 and "
			                "fp32 MACs", name, (long long)bits);
		else if (rc == 1)
			rc = trim__yerr(S->c, comp, TRIM_ESCHEMA, "MAC '%s': multiplier_width or datawidth is needed", name);
		if (rc == 0)
			rc = add_level(S, comp);
		if (rc == 0) {
			trim__sb_printf(S->out, "  - {name: \"%s\", type: compute, datatype: %s}\n", name, dt);
			S->have_compute = 1;
		}
		trim__yctx_pop(S->c);
		return rc;
	}
	const char *mem = ci_contains(cls, "dram") ? "dram"
	                  : ci_contains(cls, "regfile") || ci_contains(cls, "_rf") || !strcmp(cls, "RF") ? "regfile"
	                  : ci_contains(cls, "sram") || ci_contains(cls, "buffer") || ci_contains(cls, "storage") ? "sram"
	                                                                                                     : NULL;
	if (!mem) {
		trim__yctx_pop(S->c);
		return trim__yerr(S->c, trim__ymap_get(comp, "class"), TRIM_ESCHEMA,
		                  "component '%s' of class '%s': libtrim reads storage classes (DRAM, SRAM, "
		                  "smartbuffer_SRAM, regfile, smartbuffer_RF, ...) and MACs (intmac, fpmac); a network "
		                  "or other component is not translated", name, cls);
	}
	int64_t bits = 0, width = 0, block = 0, depth = 0, rbw = 0, wbw = 0;
	rc = tl_int2(S, attrs, "datawidth", "word-bits", 1, 4096, &bits);
	if (rc == 1)
		rc = tl_int(S, attrs, "word_bits", 1, 4096, &bits);
	if (rc == 1)
		rc = trim__yerr(S->c, comp, TRIM_ESCHEMA, "storage '%s': datawidth (Timeloop 0.3: word-bits) is needed",
		                name);
	int r2 = rc ? rc : tl_int2(S, attrs, "width", "memory_width", 1, 1 << 20, &width);
	if (r2 < 0)
		rc = r2;
	int r3 = rc ? rc : tl_int2(S, attrs, "block-size", "block_size", 1, 1 << 20, &block);
	if (r3 < 0)
		rc = r3;
	if (rc == 0 && r3 == 1)
		block = r2 == 0 ? width / bits : 1;
	if (rc == 0 && r3 == 1 && r2 == 0 && width % bits)
		rc = trim__yerr(S->c, trim__ymap_get(attrs, "width"), TRIM_ESCHEMA,
		                "width %lld is not a multiple of datawidth %lld", (long long)width, (long long)bits);
	if (rc == 0 && block < 1)
		rc = trim__yerr(S->c, comp, TRIM_ESCHEMA, "width %lld is less than datawidth %lld", (long long)width,
		                (long long)bits);
	int r4 = rc ? rc : tl_int2(S, attrs, "depth", "memory_depth", 1, (int64_t)1 << 40, &depth);
	if (r4 < 0)
		rc = r4;
	if (rc == 0 && r4 == 1 && strcmp(mem, "dram"))
		rc = trim__yerr(S->c, comp, TRIM_ESCHEMA, "storage '%s': depth (Timeloop 0.3: memory_depth) is needed",
		                name);
	int r5 = rc ? rc : tl_int(S, attrs, "read_bandwidth", 1, 1 << 20, &rbw);
	if (r5 < 0)
		rc = r5;
	int r6 = rc ? rc : tl_int(S, attrs, "write_bandwidth", 1, 1 << 20, &wbw);
	if (r6 < 0)
		rc = r6;
	trim__yctx_pop(S->c);
	int byp[3] = {0};
	if (rc == 0)
		rc = tl_bypass(S, comp, byp);
	if (rc == 0)
		rc = add_level(S, comp);
	if (rc)
		return rc;
	if (!S->word_bits)
		S->word_bits = (int)bits;
	trim__sb_printf(S->out, "  - {name: \"%s\", type: storage, class: %s", name, mem);
	if (!strcmp(mem, "dram")) {
		const char *t = tl_str(attrs, "type");
		const char *kinds[] = {"ddr3", "lpddr4", "hbm2"}, *k = NULL;
		for (int i = 0; i < 3 && t; i++)
			if (ci_contains(t, kinds[i]) && strlen(t) == strlen(kinds[i]))
				k = kinds[i];
		if (t && !k) {
			const trim__ynode *tn = trim__ymap_get(attrs, "type");
			return trim__yerr(S->c, tn, TRIM_ESCHEMA, "DRAM type '%s': libtrim knows DDR3, LPDDR4 and HBM2", t);
		}
		trim__sb_printf(S->out, ", technology: %s", k ? k : "lpddr4");
		if (r4 == 0)
			trim__sb_printf(S->out, ", entries: %lld", (long long)(depth * block));
	} else {
		trim__sb_printf(S->out, ", entries: %lld", (long long)(depth * block));
	}
	trim__sb_printf(S->out, ", word_bits: %lld, block_size: %lld", (long long)bits, (long long)block);
	if (r5 == 0)
		trim__sb_printf(S->out, ", read_bw: %lld", (long long)rbw);
	if (r6 == 0)
		trim__sb_printf(S->out, ", write_bw: %lld", (long long)wbw);
	if (byp[0] || byp[1] || byp[2]) {
		static const char *const lib[] = {"input", "weight", "output"};
		int first = 1;
		trim__sb_puts(S->out, ", keep: [");
		for (int t = 0; t < 3; t++)
			if (!byp[t]) {
				trim__sb_printf(S->out, "%s%s", first ? "" : ", ", lib[t]);
				first = 0;
			}
		trim__sb_puts(S->out, "]");
	}
	trim__sb_puts(S->out, "}\n");
	return 0;
}

/* ---- version 0.4: nodes ------------------------------------------------------ */

static int v4_spatial(tl_state *S, const trim__ynode *node, const char *name)
{
	const trim__ynode *sp = trim__ymap_get(node, "spatial");
	if (!sp)
		return 0;
	trim__yctx_key(S->c, "spatial");
	int64_t x = 1, y = 1;
	int rc = trim__yexpect(S->c, sp, TRIM__Y_MAP);
	int rx = rc ? rc : tl_int(S, sp, "meshX", 1, 1 << 20, &x);
	int ry = rx < 0 ? rx : tl_int(S, sp, "meshY", 1, 1 << 20, &y);
	trim__yctx_pop(S->c);
	if (rx < 0 || ry < 0)
		return rx < 0 ? rx : ry;
	return x * y > 1 ? spatial_level(S, sp, name, x, y) : 0;
}

static int v4_nodes(tl_state *S, const trim__ynode *nodes)
{
	int rc = trim__yexpect(S->c, nodes, TRIM__Y_SEQ);
	for (size_t i = 0; rc == 0 && i < nodes->n; i++) {
		const trim__ynode *n = nodes->items[i];
		trim__yctx_index(S->c, i);
		rc = trim__yexpect(S->c, n, TRIM__Y_MAP);
		const trim__ynode *sub = rc ? NULL : trim__ymap_get(n, "nodes");
		const char *name = rc ? NULL : tl_str(n, "name");
		if (rc == 0 && sub) { /* !Parallel, !Hierarchical: their nodes in order */
			trim__yctx_key(S->c, "nodes");
			rc = v4_nodes(S, sub);
			trim__yctx_pop(S->c);
		} else if (rc == 0 && !name) {
			rc = trim__yerr(S->c, n, TRIM_ESCHEMA, "a node without a name");
		} else if (rc == 0 && trim__ymap_get(n, "class")) { /* !Component */
			rc = v4_spatial(S, n, name);
			if (rc == 0)
				rc = component(S, n, name);
		} else if (rc == 0) { /* !Container */
			note_tech(S, trim__ymap_get(n, "attributes"));
			rc = v4_spatial(S, n, name);
		}
		trim__yctx_pop(S->c);
	}
	return rc;
}

/* ---- version 0.3: subtree / local ------------------------------------------- */

static int v3_tree(tl_state *S, const trim__ynode *t, int64_t inst_above)
{
	const trim__ynode *nn = trim__ymap_get(t, "name"), *local = trim__ymap_get(t, "local"),
	                  *sub = trim__ymap_get(t, "subtree");
	char base[64];
	int64_t count = 1;
	int rc = nn ? trim__yexpect(S->c, nn, TRIM__Y_SCALAR) : trim__yerr(S->c, t, TRIM_ESCHEMA, "a subtree without a name");
	if (rc == 0)
		rc = tl_range(S, nn, base, sizeof base, &count);
	note_tech(S, trim__ymap_get(t, "attributes"));
	int64_t inst = 1;
	if (rc == 0 && (trim__mul64(inst_above, count, &inst) || inst > TL_MAX_INSTANCES))
		rc = trim__yerr(S->c, nn, TRIM_ERANGE, "'%s': more than %lld instances in all", nn->str,
		                (long long)TL_MAX_INSTANCES);
	if (rc == 0 && local) {
		trim__yctx_key(S->c, "local");
		rc = trim__yexpect(S->c, local, TRIM__Y_SEQ);
		for (size_t i = 0; rc == 0 && i < local->n; i++) {
			const trim__ynode *k = local->items[i], *kn = NULL;
			char kb[64];
			int64_t kc = 1, mx = 0;
			trim__yctx_index(S->c, i);
			rc = trim__yexpect(S->c, k, TRIM__Y_MAP);
			if (rc == 0 && !(kn = trim__ymap_get(k, "name")))
				rc = trim__yerr(S->c, k, TRIM_ESCHEMA, "a component without a name");
			if (rc == 0)
				rc = trim__yexpect(S->c, kn, TRIM__Y_SCALAR);
			if (rc == 0)
				rc = tl_range(S, kn, kb, sizeof kb, &kc);
			int64_t ki = 1;
			if (rc == 0 && (trim__mul64(inst, kc, &ki) || ki > TL_MAX_INSTANCES))
				rc = trim__yerr(S->c, kn, TRIM_ERANGE, "'%s': more than %lld instances in all", kn->str,
				                (long long)TL_MAX_INSTANCES);
			if (rc == 0) {
				trim__yctx_key(S->c, "attributes");
				int r = tl_int(S, trim__ymap_get(k, "attributes"), "meshX", 1, (int64_t)1 << 40, &mx);
				trim__yctx_pop(S->c);
				rc = r < 0 ? r : 0;
				if (r == 1)
					mx = ki; /* Timeloop: meshX defaults to the instances */
			}
			if (rc == 0 && ki % S->inst)
				rc = trim__yerr(S->c, kn, TRIM_ESCHEMA, "%lld instances of '%s' under %lld of the level above: "
				                "not a whole fan-out", (long long)ki, kb, (long long)S->inst);
			if (rc == 0 && ki != S->inst) {
				int64_t f = ki / S->inst, x = mx % S->mesh_x ? 0 : mx / S->mesh_x;
				if (x < 1 || f % x)
					rc = trim__yerr(S->c, kn, TRIM_ESCHEMA, "meshX %lld of '%s' does not divide its fan-out "
					                "%lld from meshX %lld", (long long)mx, kb, (long long)f, (long long)S->mesh_x);
				else /* named after the subtree that brings it, as Timeloop 0.4 would */
					rc = spatial_level(S, kn, kc > 1 ? kb : base, x, f / x);
			}
			if (rc == 0)
				rc = component(S, k, kb);
			S->inst = ki;
			S->mesh_x = mx;
			trim__yctx_pop(S->c);
		}
		trim__yctx_pop(S->c);
	}
	if (rc == 0 && sub) {
		trim__yctx_key(S->c, "subtree");
		rc = trim__yexpect(S->c, sub, TRIM__Y_SEQ);
		if (rc == 0 && sub->n > 1)
			rc = trim__yerr(S->c, sub, TRIM_ESCHEMA, "%zu subtrees side by side: libtrim reads one hierarchy "
			                "(a chain of subtrees)", sub->n);
		for (size_t i = 0; rc == 0 && i < sub->n; i++) {
			trim__yctx_index(S->c, i);
			rc = trim__yexpect(S->c, sub->items[i], TRIM__Y_MAP);
			if (rc == 0)
				rc = v3_tree(S, sub->items[i], inst);
			trim__yctx_pop(S->c);
		}
		trim__yctx_pop(S->c);
	}
	return rc;
}

int trim__arch_is_timeloop(const trim__ynode *root)
{
	return root && root->kind == TRIM__Y_MAP && trim__ymap_get(root, "architecture") &&
	       !trim__ymap_get(root, "schema_version");
}

int trim__arch_from_timeloop(trim__yctx *c, const trim__ynode *root, const char *file, trim__sb *out)
{
	const trim__ynode *arch = trim__ymap_get(root, "architecture");
	tl_state S = {.c = c, .inst = 1, .mesh_x = 1};
	trim__sb levels;
	trim__sb_init(&levels);
	S.out = &levels;
	trim__yctx_key(c, "architecture");
	int rc = trim__yexpect(c, arch, TRIM__Y_MAP);
	const trim__ynode *nodes = rc ? NULL : trim__ymap_get(arch, "nodes");
	const trim__ynode *sub = rc ? NULL : trim__ymap_get(arch, "subtree");
	if (rc == 0 && nodes) {
		trim__yctx_key(c, "nodes");
		rc = v4_nodes(&S, nodes);
		trim__yctx_pop(c);
	} else if (rc == 0 && sub) {
		trim__yctx_key(c, "subtree");
		rc = trim__yexpect(c, sub, TRIM__Y_SEQ);
		if (rc == 0 && sub->n != 1)
			rc = trim__yerr(c, sub, TRIM_ESCHEMA, "the top subtree is one node (the system), found %zu", sub->n);
		if (rc == 0) {
			trim__yctx_index(c, 0);
			rc = trim__yexpect(c, sub->items[0], TRIM__Y_MAP);
			if (rc == 0)
				rc = v3_tree(&S, sub->items[0], 1);
			trim__yctx_pop(c);
		}
		trim__yctx_pop(c);
	} else if (rc == 0) {
		rc = trim__yerr(c, arch, TRIM_ESCHEMA, "a Timeloop architecture has 'nodes' (version 0.4) or "
		                "'subtree' (version 0.3)");
	}
	if (rc == 0 && !S.have_compute)
		rc = trim__yerr(c, arch, TRIM_ESCHEMA, "no MAC component (class intmac, fpmac, ...): libtrim needs one, last");
	trim__yctx_pop(c);
	if (rc == 0) {
		/* the name: the file's, without its folder and extension */
		const char *b = strrchr(file, '/');
		char name[64];
		snprintf(name, sizeof name, "%s", b ? b + 1 : file);
		char *dot = strrchr(name, '.');
		if (dot && dot != name)
			*dot = 0;
		trim__sb_printf(out,
		                "# translated from the Timeloop architecture %s (docs/arch.md, \"Timeloop "
		                "architecture files\")\nschema_version: 1\nname: \"%s\"\nclock_mhz: 1000\n"
		                "technology: \"%s\"\nword_bits: %d\nlevels:\n%s",
		                file, name, S.tech[0] ? S.tech : "45nm", S.word_bits ? S.word_bits : 16,
		                levels.len ? levels.buf : "");
	}
	trim__sb_free(&levels);
	return rc;
}
