/* Architecture loader: YAML (docs/arch.md) -> struct trim_arch, with strict validation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_int.h"
#include "util/handle.h"
#include "util/util.h"
#include "util/ydoc.h"

static const char *const level_types[] = {"storage", "spatial", "compute", NULL};
static const char *const mem_classes[] = {"dram", "sram", "regfile", NULL};
static const char *const net_types[] = {"bus", "mesh", "htree", "systolic", NULL};
static const char *const tensor_names[] = {"input", "weight", "output", NULL};
static const char *const dram_kinds[] = {"ddr3", "lpddr4", "hbm2", NULL};
static const char *const datatypes[] = {"int8", "int16", "fp16", "fp32", NULL};
static const char *const inst_kinds[] = {"shared", "per_pe", NULL};

static const char *const root_keys[] = {"schema_version", "name", "description", "clock_mhz",
                                        "technology", "word_bits", "levels", NULL};
static const char *const storage_keys[] = {
	"name", "type", "description", "class", "technology", "capacity", "entries", "word_bits",
	"instances", "keep", "partition", "read_bw", "write_bw", "ports", "double_buffer",
	"component", "block_size", NULL};
static const char *const spatial_keys[] = {"name", "type", "description", "fanout", "network",
                                           "multicast", "reduction", "link_bits", "hop_mm",
                                           "hops", "component", NULL};
static const char *const compute_keys[] = {
	"name", "type", "description", "datatype", "macs_per_cycle", "pipeline", "zero_gate",
	"zero_skip", "bw_output_skip", "transpose_unit", "derivative_unit", "transpose_pj",
	"derivative_pj", "component", "sparsity", NULL};
static const char *const sparsity_keys[] = {"metadata", "offset_bits", "block", "encode_pj",
                                            "load_imbalance", "redistribution_threshold",
                                            "lanes", "lane_buffers", "format", NULL};
static const char *const metadata_kinds[] = {"none", "bitmap", "offsets", NULL};
static const char *const sparse_formats[] = {"dense", "compressed", NULL};

#define MAX_BITS 1024
#define MAX_COUNT ((int64_t)1 << 40)

/* Copy a string into a fixed field; too long is a schema error. */
static int copy_str(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                    char *dst, size_t cap)
{
	const char *s = NULL;
	int rc = trim__yget_str(c, map, key, required, &s);
	if (rc)
		return rc < 0 ? rc : 0;
	if (!s[0] || strlen(s) >= cap) {
		trim__yctx_key(c, key);
		rc = trim__yerr(c, trim__ymap_get(map, key), TRIM_ESCHEMA,
		                "must be a non-empty string of at most %zu characters", cap - 1);
		trim__yctx_pop(c);
		return rc;
	}
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

/* rc of a keyed reader: 0 read, 1 absent -> 0, negative error. */
#define TRY(call)                                                                        \
	do {                                                                                 \
		int rc_ = (call);                                                                \
		if (rc_ < 0) {                                                                   \
			rc = rc_;                                                                    \
			goto out;                                                                    \
		}                                                                                \
	} while (0)

static int read_keep(trim__yctx *c, const trim__ynode *map, int keep[3])
{
	const trim__ynode *seq = NULL;
	int rc = trim__yget_node(c, map, "keep", 0, TRIM__Y_SEQ, &seq);
	if (rc)
		return rc < 0 ? rc : 0; /* absent: keeps every tensor */
	trim__yctx_key(c, "keep");
	keep[0] = keep[1] = keep[2] = 0;
	for (size_t i = 0; i < seq->n; i++) {
		int t;
		trim__yctx_index(c, i);
		rc = trim__yenum(c, seq->items[i], tensor_names, &t);
		if (rc == 0 && keep[t])
			rc = trim__yerr(c, seq->items[i], TRIM_ESCHEMA, "tensor '%s' listed twice",
			                tensor_names[t]);
		trim__yctx_pop(c);
		if (rc)
			goto out;
		keep[t] = 1;
	}
out:
	trim__yctx_pop(c);
	return rc;
}

static int read_partition(trim__yctx *c, const trim__ynode *map, trim__level *lv)
{
	const trim__ynode *pm = NULL;
	int rc = trim__yget_node(c, map, "partition", 0, TRIM__Y_MAP, &pm);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "partition");
	rc = trim__ymap_check(c, pm, tensor_names);
	if (rc)
		goto out;
	if (pm->n == 0) {
		rc = trim__yerr(c, pm, TRIM_ESCHEMA, "a partition names at least one tensor");
		goto out;
	}
	lv->partitioned = 1;
	for (int t = 0; t < 3; t++) {
		int64_t entries = 0;
		rc = trim__yget_int(c, pm, tensor_names[t], 0, 1, MAX_COUNT, &entries);
		if (rc < 0)
			goto out;
		rc = 0;
		lv->part_bytes[t] = (entries * lv->word_bits + 7) / 8;
	}
out:
	trim__yctx_pop(c);
	return rc;
}

static int parse_storage(trim__yctx *c, const trim__ynode *m, trim__level *lv, int *inst_decl)
{
	int rc = trim__ymap_check(c, m, storage_keys);
	if (rc)
		return rc;
	TRY(trim__yget_enum(c, m, "class", 1, mem_classes, &lv->mem_class));
	if (lv->mem_class == TRIM__MEM_DRAM) {
		int k = 0;
		TRY(trim__yget_enum(c, m, "technology", 1, dram_kinds, &k));
		snprintf(lv->technology, sizeof lv->technology, "%s", dram_kinds[k]);
	} else if (trim__ymap_get(m, "technology")) {
		trim__yctx_key(c, "technology");
		rc = trim__yerr(c, trim__ymap_get(m, "technology"), TRIM_ESCHEMA,
		                "only a dram level names a DRAM technology");
		trim__yctx_pop(c);
		goto out;
	}
	int64_t v = lv->word_bits;
	TRY(trim__yget_int(c, m, "word_bits", 0, 1, MAX_BITS, &v));
	lv->word_bits = (int)v;
	TRY(read_partition(c, m, lv));

	const trim__ynode *cap = trim__ymap_get(m, "capacity");
	const trim__ynode *ent = trim__ymap_get(m, "entries");
	if (cap && ent) {
		trim__yctx_key(c, "entries");
		rc = trim__yerr(c, ent, TRIM_ESCHEMA, "give either capacity or entries, not both");
		trim__yctx_pop(c);
		goto out;
	}
	if (cap) {
		TRY(trim__yget_bytes(c, m, "capacity", 1, &lv->capacity_bytes));
	} else if (ent) {
		int64_t e = 0;
		TRY(trim__yget_int(c, m, "entries", 1, 1, MAX_COUNT, &e));
		lv->capacity_bytes = (e * lv->word_bits + 7) / 8;
	} else if (lv->mem_class != TRIM__MEM_DRAM && !lv->partitioned) {
		rc = trim__yerr(c, m, TRIM_ESCHEMA,
		                "missing required key 'capacity' (or 'entries', or 'partition') "
		                "for a %s level", mem_classes[lv->mem_class]);
		goto out;
	}
	if (lv->partitioned) {
		int64_t sum = lv->part_bytes[0] + lv->part_bytes[1] + lv->part_bytes[2];
		if (lv->capacity_bytes && lv->capacity_bytes != sum) {
			trim__yctx_key(c, cap ? "capacity" : "entries");
			rc = trim__yerr(c, cap ? cap : ent, TRIM_ESCHEMA,
			                "capacity %lld B differs from the partition's total %lld B",
			                (long long)lv->capacity_bytes, (long long)sum);
			trim__yctx_pop(c);
			goto out;
		}
		lv->capacity_bytes = sum;
	}
	lv->keep[0] = lv->keep[1] = lv->keep[2] = 1;
	TRY(read_keep(c, m, lv->keep));
	if (lv->partitioned) {
		for (int t = 0; t < 3; t++) {
			if (lv->part_bytes[t] && !lv->keep[t]) {
				trim__yctx_key(c, "partition");
				rc = trim__yerr(c, trim__ymap_get(m, "partition"), TRIM_ESCHEMA,
				                "partition for '%s', which the level does not keep",
				                tensor_names[t]);
				trim__yctx_pop(c);
				goto out;
			}
			if (!lv->part_bytes[t] && lv->keep[t]) {
				trim__yctx_key(c, "partition");
				rc = trim__yerr(c, trim__ymap_get(m, "partition"), TRIM_ESCHEMA,
				                "no partition for kept tensor '%s' (list it, or leave "
				                "it out of 'keep')", tensor_names[t]);
				trim__yctx_pop(c);
				goto out;
			}
		}
	}
	TRY(trim__yget_double(c, m, "read_bw", 0, 1e-9, 1e12, &lv->read_bw));
	TRY(trim__yget_double(c, m, "write_bw", 0, 1e-9, 1e12, &lv->write_bw));
	v = 1;
	TRY(trim__yget_int(c, m, "ports", 0, 1, 64, &v));
	lv->ports = (int)v;
	TRY(trim__yget_bool(c, m, "double_buffer", 0, &lv->double_buffer));
	TRY(trim__yget_enum(c, m, "instances", 0, inst_kinds, inst_decl));
	TRY(copy_str(c, m, "component", 0, lv->component, sizeof lv->component));
	v = 1;
	TRY(trim__yget_int(c, m, "block_size", 0, 1, 1 << 16, &v));
	lv->block_size = (int)v;
	rc = 0;
out:
	return rc;
}

static int parse_fanout(trim__yctx *c, const trim__ynode *m, trim__level *lv)
{
	const trim__ynode *f = trim__ymap_get(m, "fanout");
	if (!f)
		return trim__yerr(c, m, TRIM_ESCHEMA, "missing required key 'fanout'");
	int rc;
	trim__yctx_key(c, "fanout");
	if (f->kind == TRIM__Y_SCALAR) {
		rc = trim__yint(c, f, 1, MAX_COUNT, &lv->fanout_x);
		lv->fanout_y = 1;
	} else {
		int64_t xy[2] = {0, 0};
		trim__yctx_pop(c);
		rc = trim__yget_ints(c, m, "fanout", 1, 1, MAX_COUNT, 2, xy);
		lv->fanout_x = xy[0];
		lv->fanout_y = xy[1];
		return rc;
	}
	trim__yctx_pop(c);
	return rc;
}

static int parse_spatial(trim__yctx *c, const trim__ynode *m, trim__level *lv)
{
	int rc = trim__ymap_check(c, m, spatial_keys);
	if (rc)
		return rc;
	TRY(parse_fanout(c, m, lv));
	lv->net = TRIM__NET_MESH;
	TRY(trim__yget_enum(c, m, "network", 1, net_types, &lv->net));
	/* a systolic array forwards a word along a row (one read reaches every
	 * PE of it) and adds partial sums down a column: by default it does both */
	lv->multicast = lv->reduction = lv->net == TRIM__NET_SYSTOLIC;
	TRY(trim__yget_bool(c, m, "multicast", 0, &lv->multicast));
	TRY(trim__yget_bool(c, m, "reduction", 0, &lv->reduction));
	int64_t v = lv->word_bits;
	const trim__ynode *lk = trim__ymap_get(m, "link_bits");
	if (lk && lk->kind == TRIM__Y_MAP) {
		/* one network per tensor: {input: 16, weight: 64, output: 128} */
		trim__yctx_key(c, "link_bits");
		rc = trim__ymap_check(c, lk, tensor_names);
		int64_t sum = 0;
		for (int t = 0; rc == 0 && t < 3; t++) {
			int64_t b = 0;
			rc = trim__yget_int(c, lk, tensor_names[t], 1, 1, 1 << 20, &b);
			lv->link_t[t] = (int)b;
			sum += b;
		}
		trim__yctx_pop(c);
		if (rc)
			goto out;
		v = sum;
	} else if (lk && lk->kind == TRIM__Y_SCALAR && !strcmp(lk->str, "unlimited")) {
		v = 0; /* no link time and no link area (Timeloop's default network) */
	} else {
		TRY(trim__yget_int(c, m, "link_bits", 0, 1, 1 << 20, &v));
	}
	lv->link_bits = (int)v;
	TRY(trim__yget_double(c, m, "hop_mm", 0, 1e-6, 1e3, &lv->hop_mm));
	TRY(trim__yget_double(c, m, "hops", 0, 1e-6, 1e9, &lv->hops));
	TRY(copy_str(c, m, "component", 0, lv->component, sizeof lv->component));
	rc = 0;
out:
	return rc;
}

/* `sparsity: {metadata: offsets, offset_bits: 5, block: 32, encode_pj: 0.1,
 * load_imbalance: true, redistribution_threshold: 0.3, lanes: 16,
 * lane_buffers: 2, format: compressed}` on the compute level: how
 * zero-skipping hardware indexes non-zeros, stores them and balances work. */
static int parse_sparsity(trim__yctx *c, const trim__ynode *m, trim__level *lv)
{
	lv->sp_metadata = TRIM__META_NONE;
	lv->sp_offset_bits = 5;
	lv->sp_block = 32;
	lv->sp_imbalance = 1;
	lv->sp_lanes = 1;
	lv->sp_lane_buffers = 1;
	const trim__ynode *n = NULL;
	int rc = trim__yget_node(c, m, "sparsity", 0, TRIM__Y_MAP, &n);
	if (rc)
		return rc < 0 ? rc : 0;
	trim__yctx_key(c, "sparsity");
	int64_t v;
	rc = trim__ymap_check(c, n, sparsity_keys);
	if (rc == 0)
		rc = trim__yget_enum(c, n, "metadata", 0, metadata_kinds, &lv->sp_metadata);
	if (rc >= 0 && (rc = trim__yget_int(c, n, "offset_bits", 0, 1, 32, &v)) == 0)
		lv->sp_offset_bits = (int)v;
	if (rc >= 0 && (rc = trim__yget_int(c, n, "block", 0, 1, 1 << 20, &v)) == 0)
		lv->sp_block = (int)v;
	if (rc >= 0)
		rc = trim__yget_double(c, n, "encode_pj", 0, 0, 1e6, &lv->sp_encode_pj);
	if (rc >= 0)
		rc = trim__yget_bool(c, n, "load_imbalance", 0, &lv->sp_imbalance);
	if (rc >= 0)
		rc = trim__yget_double(c, n, "redistribution_threshold", 0, 0, 10, &lv->sp_redistribute);
	if (rc >= 0 && (rc = trim__yget_int(c, n, "lanes", 0, 1, 4096, &v)) == 0)
		lv->sp_lanes = (int)v;
	if (rc >= 0 && (rc = trim__yget_int(c, n, "lane_buffers", 0, 1, 64, &v)) == 0)
		lv->sp_lane_buffers = (int)v;
	if (rc >= 0)
		rc = trim__yget_enum(c, n, "format", 0, sparse_formats, &lv->sp_compressed);
	if (rc == 0 && lv->sp_compressed && lv->sp_metadata == TRIM__META_NONE) {
		trim__yctx_key(c, "format");
		rc = trim__yerr(c, trim__ymap_get(n, "format"), TRIM_ESCHEMA,
		                "compressed operands need their indices: set metadata to bitmap or "
		                "offsets");
		trim__yctx_pop(c);
	}
	trim__yctx_pop(c);
	return rc < 0 ? rc : 0;
}

static int parse_compute(trim__yctx *c, const trim__ynode *m, trim__level *lv)
{
	int rc = trim__ymap_check(c, m, compute_keys);
	if (rc)
		return rc;
	int dt = 0;
	TRY(trim__yget_enum(c, m, "datatype", 1, datatypes, &dt));
	snprintf(lv->datatype, sizeof lv->datatype, "%s", datatypes[dt]);
	int64_t v = 1;
	TRY(trim__yget_int(c, m, "macs_per_cycle", 0, 1, 1 << 20, &v));
	lv->macs_per_cycle = (int)v;
	v = 1;
	TRY(trim__yget_int(c, m, "pipeline", 0, 1, 64, &v));
	lv->pipeline = (int)v;
	TRY(trim__yget_bool(c, m, "zero_gate", 0, &lv->zero_gate));
	TRY(trim__yget_bool(c, m, "zero_skip", 0, &lv->zero_skip));
	TRY(trim__yget_bool(c, m, "bw_output_skip", 0, &lv->bw_output_skip));
	TRY(trim__yget_bool(c, m, "transpose_unit", 0, &lv->transpose_unit));
	TRY(trim__yget_bool(c, m, "derivative_unit", 0, &lv->derivative_unit));
	TRY(trim__yget_double(c, m, "transpose_pj", 0, 0, 1e9, &lv->transpose_pj));
	TRY(trim__yget_double(c, m, "derivative_pj", 0, 0, 1e9, &lv->derivative_pj));
	if (lv->transpose_pj > 0)
		lv->transpose_unit = 1;
	if (lv->derivative_pj > 0)
		lv->derivative_unit = 1;
	TRY(copy_str(c, m, "component", 0, lv->component, sizeof lv->component));
	TRY(parse_sparsity(c, m, lv));
	rc = 0;
out:
	return rc;
}

static int parse_level(trim__yctx *c, const trim__ynode *m, trim_arch *a, trim__level *lv,
                       int *inst_decl)
{
	int rc = trim__yexpect(c, m, TRIM__Y_MAP);
	if (rc)
		return rc;
	lv->line = m->line;
	lv->col = m->col;
	lv->word_bits = a->word_bits;
	lv->link_bits = a->word_bits;
	lv->instances = 1;
	lv->ports = 1;
	TRY(copy_str(c, m, "name", 1, lv->name, sizeof lv->name));
	TRY(trim__yget_enum(c, m, "type", 1, level_types, &lv->type));
	switch (lv->type) {
	case TRIM__LVL_STORAGE: rc = parse_storage(c, m, lv, inst_decl); break;
	case TRIM__LVL_SPATIAL: rc = parse_spatial(c, m, lv); break;
	default: rc = parse_compute(c, m, lv); break;
	}
out:
	return rc;
}

static int parse_root(trim_arch *a, const trim__ydoc *doc)
{
	trim__yctx c;
	trim__yctx_init(&c, trim__ydoc_name(doc));
	const trim__ynode *root = trim__ydoc_root(doc);
	int inst_decl[TRIM__MAX_LEVELS];
	int rc = trim__ymap_check(&c, root, root_keys);
	if (rc)
		return rc;
	int64_t v = 0;
	TRY(trim__yget_int(&c, root, "schema_version", 1, 1, 1, &v));
	TRY(copy_str(&c, root, "name", 1, a->name, sizeof a->name));
	TRY(trim__yget_double(&c, root, "clock_mhz", 1, 1e-3, 1e6, &a->clock_mhz));
	TRY(copy_str(&c, root, "technology", 1, a->technology, sizeof a->technology));
	a->tech_line = trim__ymap_get(root, "technology")->line;
	a->tech_col = trim__ymap_get(root, "technology")->col;
	v = 16;
	TRY(trim__yget_int(&c, root, "word_bits", 0, 1, MAX_BITS, &v));
	a->word_bits = (int)v;
	const trim__ynode *levels = NULL;
	TRY(trim__yget_node(&c, root, "levels", 1, TRIM__Y_SEQ, &levels));
	trim__yctx_key(&c, "levels");
	if (levels->n < 2 || levels->n > TRIM__MAX_LEVELS) {
		rc = trim__yerr(&c, levels, TRIM_ESCHEMA,
		                "an architecture has 2 to %d levels (storage ... compute), found %zu",
		                TRIM__MAX_LEVELS, levels->n);
		goto out;
	}
	a->nlevels = (int)levels->n;
	for (size_t i = 0; i < levels->n; i++) {
		inst_decl[i] = -1;
		trim__yctx_index(&c, i);
		rc = parse_level(&c, levels->items[i], a, &a->lv[i], &inst_decl[i]);
		if (rc == 0) {
			for (size_t j = 0; j < i; j++) {
				if (!strcmp(a->lv[j].name, a->lv[i].name)) {
					trim__yctx_key(&c, "name");
					rc = trim__yerr(&c, trim__ymap_get(levels->items[i], "name"),
					                TRIM_ESCHEMA, "level name '%s' used twice",
					                a->lv[i].name);
					trim__yctx_pop(&c);
					break;
				}
			}
		}
		trim__yctx_pop(&c);
		if (rc)
			goto out;
	}
	rc = trim__arch_finish(a);
	if (rc)
		goto out;
	for (int i = 0; i < a->nlevels; i++) {
		if (inst_decl[i] < 0)
			continue;
		int per_pe = a->lv[i].instances > 1;
		if (per_pe != (inst_decl[i] == 1)) {
			trim__yctx_index(&c, (size_t)i);
			trim__yctx_key(&c, "instances");
			rc = trim__yerr(&c, trim__ymap_get(levels->items[i], "instances"), TRIM_ESCHEMA,
			                "'%s' contradicts the level's position: %lld instance%s (one "
			                "per PE below a spatial level, else shared)",
			                inst_kinds[inst_decl[i]], (long long)a->lv[i].instances,
			                a->lv[i].instances == 1 ? "" : "s");
			goto out;
		}
	}
	rc = 0;
out:
	return rc;
}

static int level_err(const trim_arch *a, int i, const char *key, int code, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int level_err(const trim_arch *a, int i, const char *key, int code, const char *fmt, ...)
{
	char path[128], msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(path, sizeof path, "levels[%d]%s%s", i, key ? "." : "", key ? key : "");
	return trim__error_at(code, a->file, a->lv[i].line, a->lv[i].col, path, "%s", msg);
}

int trim__arch_finish(trim_arch *a)
{
	int n = a->nlevels;
	if (n < 2)
		return trim__error_at(TRIM_ESCHEMA, a->file, 0, 0, "levels",
		                      "an architecture needs at least a storage and a compute level");
	int64_t inst = 1;
	int ncompute = 0;
	for (int i = 0; i < n; i++) {
		trim__level *lv = &a->lv[i];
		const char *tn = level_types[lv->type];
		if (lv->type == TRIM__LVL_COMPUTE) {
			ncompute++;
			if (i != n - 1)
				return level_err(a, i, "type", TRIM_ESCHEMA,
				                 "compute level '%s' must be the last level (found "
				                 "level '%s' after it)", lv->name, a->lv[i + 1].name);
		} else if (i == n - 1) {
			return level_err(a, i, "type", TRIM_ESCHEMA,
			                 "the last level must be the compute level (MAC), not a %s "
			                 "level", tn);
		}
		if (i == 0 && lv->type != TRIM__LVL_STORAGE)
			return level_err(a, i, "type", TRIM_ESCHEMA,
			                 "the first level must be storage (off-chip memory), not %s", tn);
		if (lv->type == TRIM__LVL_STORAGE) {
			if (lv->mem_class == TRIM__MEM_DRAM && i != 0)
				return level_err(a, i, "class", TRIM_ESCHEMA,
				                 "a dram level must be the outermost level (level 0)");
			if (lv->mem_class != TRIM__MEM_DRAM && lv->capacity_bytes <= 0)
				return level_err(a, i, "capacity", TRIM_ERANGE,
				                 "a %s level needs a positive capacity",
				                 mem_classes[lv->mem_class]);
			if (lv->capacity_bytes < 0)
				return level_err(a, i, "capacity", TRIM_ERANGE, "negative capacity");
			if (lv->word_bits <= 0)
				return level_err(a, i, "word_bits", TRIM_ERANGE, "word_bits must be positive");
			if (lv->capacity_bytes > 0 && lv->capacity_bytes * 8 < lv->word_bits)
				return level_err(a, i, "capacity", TRIM_ERANGE,
				                 "capacity %lld B is smaller than one %d-bit word",
				                 (long long)lv->capacity_bytes, lv->word_bits);
			if (lv->partitioned) {
				int64_t sum = 0;
				for (int t = 0; t < 3; t++)
					sum += lv->part_bytes[t];
				lv->capacity_bytes = sum;
			}
			if (i == 0 && !(lv->keep[0] && lv->keep[1] && lv->keep[2]))
				return level_err(a, i, "keep", TRIM_ESCHEMA,
				                 "the outermost level must keep every tensor");
			/* keep: [] is a level every tensor bypasses (Timeloop's
			 * "DummyBuffer"): it only carries temporal loops */
			lv->instances = inst;
		} else if (lv->type == TRIM__LVL_SPATIAL) {
			if (lv->fanout_x <= 0 || lv->fanout_y <= 0)
				return level_err(a, i, "fanout", TRIM_ERANGE, "fan-out must be positive");
			if (trim__mul64(lv->fanout_x, lv->fanout_y, &lv->fanout_total))
				return level_err(a, i, "fanout", TRIM_ERANGE, "fan-out overflows");
			/* two spatial levels in a row are two networks, the inner one
			 * with one instance per child of the outer one */
			lv->instances = inst;
			if (trim__mul64(inst, lv->fanout_total, &inst) || inst > MAX_COUNT)
				return level_err(a, i, "fanout", TRIM_ERANGE, "too many PEs");
		} else {
			lv->instances = inst;
		}
	}
	if (ncompute != 1)
		return level_err(a, n - 1, "type", TRIM_ESCHEMA, "exactly one compute level needed");
	a->total_pes = inst;
	return 0;
}

static int load_doc(trim_arch **out, trim__ydoc *doc);

/* A Timeloop architecture file: its translation loaded in its place (named
 * as the file, so that relative paths resolve from its folder). */
static int load_timeloop(trim_arch **out, trim__ydoc *doc)
{
	trim__yctx c;
	trim__sb sb;
	trim__ydoc *tr = NULL;
	trim__yctx_init(&c, trim__ydoc_name(doc));
	trim__sb_init(&sb);
	int rc = trim__arch_from_timeloop(&c, trim__ydoc_root(doc), trim__ydoc_name(doc), &sb);
	if (rc == 0 && sb.failed)
		rc = trim__error(TRIM_ENOMEM, "out of memory");
	if (rc == 0)
		rc = trim__ydoc_load_string(&tr, sb.buf, sb.len, trim__ydoc_name(doc));
	if (rc == 0) {
		rc = load_doc(out, tr);
		if (rc)
			rc = trim__error(rc, "%s (in the translation of the Timeloop architecture %s: `trim import %s` "
			                 "prints it)", trim_last_error(), trim__ydoc_name(doc), trim__ydoc_name(doc));
	}
	trim__ydoc_free(tr);
	trim__sb_free(&sb);
	return rc;
}

TRIM_API int trim_arch_timeloop_yaml(char **yaml, const char *path)
{
	trim__ydoc *doc = NULL;
	if (!yaml || !path)
		return trim__error(TRIM_EINVAL, "trim_arch_timeloop_yaml: NULL argument");
	*yaml = NULL;
	int rc = trim__ydoc_load_file(&doc, path);
	if (rc == 0 && !trim__arch_is_timeloop(trim__ydoc_root(doc)))
		rc = trim__error(TRIM_ESCHEMA, "%s: not a Timeloop architecture (no root key 'architecture')", path);
	if (rc == 0) {
		trim__yctx c;
		trim__sb sb;
		trim__yctx_init(&c, path);
		trim__sb_init(&sb);
		rc = trim__arch_from_timeloop(&c, trim__ydoc_root(doc), path, &sb);
		if (rc == 0 && sb.failed)
			rc = trim__error(TRIM_ENOMEM, "out of memory");
		trim_arch *a = NULL;
		if (rc == 0)
			rc = trim_arch_load_string(&a, sb.buf, path); /* the translation loads */
		trim_arch_free(a);
		if (rc == 0)
			*yaml = sb.buf;
		else
			trim__sb_free(&sb);
	}
	trim__ydoc_free(doc);
	return rc;
}

static int load_doc(trim_arch **out, trim__ydoc *doc)
{
	if (trim__arch_is_timeloop(trim__ydoc_root(doc)))
		return load_timeloop(out, doc);
	trim_arch *a = trim__calloc(1, sizeof *a);
	int rc = TRIM_ENOMEM;
	if (!a)
		goto out;
	TRIM__HANDLE_INIT(a, ARCH);
	a->file = trim__strdup(trim__ydoc_name(doc));
	if (!a->file)
		goto out;
	rc = parse_root(a, doc);
	if (rc)
		goto out;
	*out = a;
	a = NULL;
out:
	trim_arch_free(a);
	return rc;
}

TRIM_API int trim_arch_load(trim_arch **out, const char *path)
{
	trim__ydoc *doc = NULL;
	if (!out)
		return trim__error(TRIM_EINVAL, "trim_arch_load: out is NULL");
	*out = NULL;
	int rc = trim__ydoc_load_file(&doc, path);
	if (rc == 0)
		rc = load_doc(out, doc);
	trim__ydoc_free(doc);
	return rc;
}

TRIM_API int trim_arch_load_string(trim_arch **out, const char *yaml, const char *name)
{
	trim__ydoc *doc = NULL;
	if (!out || !yaml)
		return trim__error(TRIM_EINVAL, "trim_arch_load_string: NULL argument");
	*out = NULL;
	int rc = trim__ydoc_load_string(&doc, yaml, strlen(yaml), name ? name : "<string>");
	if (rc == 0)
		rc = load_doc(out, doc);
	trim__ydoc_free(doc);
	return rc;
}

TRIM_API int trim_arch_clone(trim_arch **out, const trim_arch *a)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!out || !a)
		return trim__error(TRIM_EINVAL, "trim_arch_clone: NULL argument");
	*out = NULL;
	trim_arch *b = trim__calloc(1, sizeof *b);
	if (!b)
		return TRIM_ENOMEM;
	*b = *a;
	TRIM__HANDLE_INIT(b, ARCH);
	b->file = a->file ? trim__strdup(a->file) : NULL;
	if (a->file && !b->file) {
		free(b);
		return TRIM_ENOMEM;
	}
	*out = b;
	return 0;
}

TRIM_API void trim_arch_free(trim_arch *a)
{
	TRIM__HANDLE_CHECK_VOID(a, ARCH);
	if (!a)
		return;
	free(a->file);
	TRIM__HANDLE_POISON(a, ARCH);
	free(a);
}

/* ---- accessors ----------------------------------------------------------- */

#define LEVEL_OK(a, i) ((a) && (i) >= 0 && (i) < (a)->nlevels)

TRIM_API const char *trim_arch_name(const trim_arch *a)
{
	return TRIM__HANDLE_OK(a, ARCH) ? a->name : NULL;
}
TRIM_API const char *trim_arch_file(const trim_arch *a)
{
	return TRIM__HANDLE_OK(a, ARCH) ? a->file : NULL;
}
TRIM_API const char *trim_arch_technology(const trim_arch *a)
{
	return TRIM__HANDLE_OK(a, ARCH) ? a->technology : NULL;
}
TRIM_API double trim_arch_clock_mhz(const trim_arch *a)
{
	return TRIM__HANDLE_OK(a, ARCH) ? a->clock_mhz : NAN;
}
TRIM_API int trim_arch_word_bits(const trim_arch *a)
{
	return TRIM__HANDLE_OK(a, ARCH) ? a->word_bits : TRIM_EINVAL;
}
TRIM_API int64_t trim_arch_total_pes(const trim_arch *a)
{
	return TRIM__HANDLE_OK(a, ARCH) ? a->total_pes : TRIM_EINVAL;
}
TRIM_API int trim_arch_level_count(const trim_arch *a)
{
	return TRIM__HANDLE_OK(a, ARCH) ? a->nlevels : TRIM_EINVAL;
}

TRIM_API const char *trim_arch_level_name(const trim_arch *a, int i)
{
	TRIM__HANDLE_CHECK(a, ARCH, NULL);
	return LEVEL_OK(a, i) ? a->lv[i].name : NULL;
}

TRIM_API int trim_arch_level_type(const trim_arch *a, int i)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	return LEVEL_OK(a, i) ? a->lv[i].type : trim__error(TRIM_EINVAL, "no level %d", i);
}

TRIM_API const char *trim_arch_level_type_name(int type)
{
	return type >= 0 && type <= 2 ? level_types[type] : NULL;
}

TRIM_API const char *trim_arch_level_class(const trim_arch *a, int i)
{
	TRIM__HANDLE_CHECK(a, ARCH, NULL);
	if (!LEVEL_OK(a, i))
		return NULL;
	return a->lv[i].type == TRIM__LVL_STORAGE ? mem_classes[a->lv[i].mem_class] : "";
}

TRIM_API int trim_arch_level_find(const trim_arch *a, const char *name)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	for (int i = 0; a && name && i < a->nlevels; i++)
		if (!strcmp(a->lv[i].name, name))
			return i;
	return trim__error(TRIM_ENOTFOUND, "no level named '%s'", name ? name : "(null)");
}

TRIM_API int64_t trim_arch_level_capacity(const trim_arch *a, int i)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!LEVEL_OK(a, i))
		return trim__error(TRIM_EINVAL, "no level %d", i);
	return a->lv[i].type == TRIM__LVL_STORAGE ? a->lv[i].capacity_bytes : 0;
}

TRIM_API int64_t trim_arch_level_instances(const trim_arch *a, int i)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	return LEVEL_OK(a, i) ? a->lv[i].instances : trim__error(TRIM_EINVAL, "no level %d", i);
}

TRIM_API int trim_arch_level_word_bits(const trim_arch *a, int i)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!LEVEL_OK(a, i))
		return trim__error(TRIM_EINVAL, "no level %d", i);
	return a->lv[i].type == TRIM__LVL_STORAGE ? a->lv[i].word_bits : a->word_bits;
}

TRIM_API int trim_arch_level_fanout(const trim_arch *a, int i, int64_t *out, size_t n)
{
	TRIM__HANDLE_CHECK(a, ARCH, TRIM_EINVAL);
	if (!LEVEL_OK(a, i) || !out || n < 2)
		return trim__error(TRIM_EINVAL, "trim_arch_level_fanout: bad argument");
	if (a->lv[i].type != TRIM__LVL_SPATIAL) {
		out[0] = out[1] = 1;
		return 0;
	}
	out[0] = a->lv[i].fanout_x;
	out[1] = a->lv[i].fanout_y;
	return 0;
}
