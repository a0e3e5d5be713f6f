/*
 * Internal YAML document model and schema-checking readers.
 *
 * The parser (lib/util/ydoc.c, the only file that includes <yaml.h>) turns
 * a YAML file into a tree of nodes that remember their line and column.
 * Module loaders then walk the tree with the trim__y* readers, which keep
 * the key path ("layers[3].kernel") and report every problem as
 *   file:line:column: key.path: message
 * Unknown keys, duplicate keys, missing required keys and wrong types are
 * errors (TRIM_ESCHEMA); malformed YAML is TRIM_EPARSE.
 */
#ifndef TRIM_YDOC_H
#define TRIM_YDOC_H

#include <stddef.h>
#include <stdint.h>

typedef enum { TRIM__Y_SCALAR = 0, TRIM__Y_SEQ = 1, TRIM__Y_MAP = 2 } trim__ykind;

typedef struct trim__ynode trim__ynode;
struct trim__ynode {
	trim__ykind kind;
	int line, col;     /* 1-based */
	int plain;         /* scalar written without quotes */
	char *str;         /* scalar text */
	size_t n;          /* items of a sequence, pairs of a mapping */
	trim__ynode **items; /* sequence items, or mapping values */
	trim__ynode **keys;  /* mapping keys (scalars) */
};

typedef struct trim__ydoc trim__ydoc;

int trim__ydoc_load_file(trim__ydoc **out, const char *path);
int trim__ydoc_load_string(trim__ydoc **out, const char *text, size_t len, const char *name);
const trim__ynode *trim__ydoc_root(const trim__ydoc *doc);
const char *trim__ydoc_name(const trim__ydoc *doc);
void trim__ydoc_free(trim__ydoc *doc);

/* ---- readers ----------------------------------------------------------- */
typedef struct {
	const char *file;
	char path[512];
	size_t mark[32];
	int depth;
} trim__yctx;

void trim__yctx_init(trim__yctx *c, const char *file);
/* Push ".key" (or "key" at the root) / "[i]" onto the key path; pop it. */
void trim__yctx_key(trim__yctx *c, const char *key);
void trim__yctx_index(trim__yctx *c, size_t i);
void trim__yctx_pop(trim__yctx *c);

/* Error at a node (NULL node: no position), with the current key path. */
int trim__yerr(const trim__yctx *c, const trim__ynode *node, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

const char *trim__ykind_name(trim__ykind k);
int trim__yexpect(const trim__yctx *c, const trim__ynode *node, trim__ykind kind);
const trim__ynode *trim__ymap_get(const trim__ynode *map, const char *key);
/* Every key of `map` must be in the NULL-terminated `allowed` list. */
int trim__ymap_check(const trim__yctx *c, const trim__ynode *map, const char *const *allowed);

/* Scalar conversions (node must be a scalar; errors name the node). */
int trim__yint(const trim__yctx *c, const trim__ynode *n, int64_t lo, int64_t hi, int64_t *out);
int trim__ydouble(const trim__yctx *c, const trim__ynode *n, double lo, double hi, double *out);
int trim__ybool(const trim__yctx *c, const trim__ynode *n, int *out);
int trim__yenum(const trim__yctx *c, const trim__ynode *n, const char *const *names, int *out);
/* A byte size: 1024, "108 KB", "64KiB", "2 MB", "1.5 MiB" (KB = KiB = 1024),
 * whole, positive and at most TRIM__YBYTES_MAX (2^48 bytes, 256 TB). */
#define TRIM__YBYTES_MAX 281474976710656.0
int trim__ybytes(const trim__yctx *c, const trim__ynode *n, int64_t *out);

/* Keyed readers: return 0 when read, 1 when the key is absent and not
 * required (out untouched), a negative code on error. They push the key
 * onto the path while reading. */
int trim__yget_int(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                   int64_t lo, int64_t hi, int64_t *out);
int trim__yget_double(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                      double lo, double hi, double *out);
int trim__yget_bool(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                    int *out);
int trim__yget_str(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                   const char **out);
int trim__yget_enum(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                    const char *const *names, int *out);
int trim__yget_bytes(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                     int64_t *out);
/* An int or a list of exactly `n` ints ([h, w]); a single int fills all n. */
int trim__yget_ints(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                    int64_t lo, int64_t hi, size_t n, int64_t *out);
/* A required-or-optional key that must hold a mapping / sequence. */
int trim__yget_node(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                    trim__ykind kind, const trim__ynode **out);

#endif
