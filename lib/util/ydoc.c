/* YAML to node tree with positions (libyaml), and schema-checking readers. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "util.h"
#include "ydoc.h"

struct trim__ydoc {
	char *name;
	trim__ynode *root;
	trim__ynode **all; /* every node, for freeing */
	size_t nall, capall;
	struct anchor {
		char *name;
		trim__ynode *node;
	} *anchors;
	size_t nanch, capanch;
};

static trim__ynode *new_node(trim__ydoc *d, trim__ykind kind, const yaml_mark_t *m)
{
	if (trim__grow((void **)&d->all, &d->capall, d->nall + 1, sizeof *d->all))
		return NULL;
	trim__ynode *n = trim__calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	d->all[d->nall++] = n;
	return n;
}

static int push_child(trim__ynode *parent, trim__ynode *key, trim__ynode *val)
{
	size_t n = parent->n + 1;
	trim__ynode **items = realloc(parent->items, n * sizeof *items);
	if (!items)
		return trim__error(TRIM_ENOMEM, "out of memory");
	parent->items = items;
	items[n - 1] = val;
	if (parent->kind == TRIM__Y_MAP) {
		trim__ynode **keys = realloc(parent->keys, n * sizeof *keys);
		if (!keys)
			return trim__error(TRIM_ENOMEM, "out of memory");
		parent->keys = keys;
		keys[n - 1] = key;
	}
	parent->n = n;
	return 0;
}

static int add_anchor(trim__ydoc *d, const char *name, trim__ynode *node)
{
	if (trim__grow((void **)&d->anchors, &d->capanch, d->nanch + 1, sizeof *d->anchors))
		return TRIM_ENOMEM;
	char *s = trim__strdup(name);
	if (!s)
		return TRIM_ENOMEM;
	d->anchors[d->nanch].name = s;
	d->anchors[d->nanch].node = node;
	d->nanch++;
	return 0;
}

static int parse_events(trim__ydoc *d, yaml_parser_t *p)
{
	/* Stack of open collections, and for mappings the pending key. */
	trim__ynode *stack[128];
	trim__ynode *pending_key[128];
	int sp = 0;
	int rc = 0;
	int done = 0;

	while (!done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(p, &ev)) {
			return trim__error_at(TRIM_EPARSE, d->name, (int)p->problem_mark.line + 1,
			                      (int)p->problem_mark.column + 1, NULL,
			                      "malformed YAML: %s%s%s", p->problem ? p->problem : "error",
			                      p->context ? " " : "", p->context ? p->context : "");
		}
		trim__ynode *node = NULL;
		const char *anchor = NULL;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (d->root) {
				rc = trim__error_at(TRIM_EPARSE, d->name, (int)ev.start_mark.line + 1,
				                    (int)ev.start_mark.column + 1, NULL,
				                    "more than one YAML document in the file");
			}
			break;
		case YAML_SCALAR_EVENT:
			node = new_node(d, TRIM__Y_SCALAR, &ev.start_mark);
			if (!node) {
				rc = TRIM_ENOMEM;
				break;
			}
			node->str = trim__strdup((const char *)ev.data.scalar.value);
			if (!node->str) {
				rc = TRIM_ENOMEM;
				break;
			}
			node->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
			anchor = (const char *)ev.data.scalar.anchor;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			node = new_node(d,
			                ev.type == YAML_SEQUENCE_START_EVENT ? TRIM__Y_SEQ : TRIM__Y_MAP,
			                &ev.start_mark);
			if (!node) {
				rc = TRIM_ENOMEM;
				break;
			}
			anchor = (const char *)(ev.type == YAML_SEQUENCE_START_EVENT
			                            ? ev.data.sequence_start.anchor
			                            : ev.data.mapping_start.anchor);
			break;
		case YAML_ALIAS_EVENT: {
			const char *a = (const char *)ev.data.alias.anchor;
			for (size_t i = d->nanch; i-- > 0;) {
				if (strcmp(d->anchors[i].name, a) == 0) {
					node = d->anchors[i].node;
					break;
				}
			}
			if (!node)
				rc = trim__error_at(TRIM_EPARSE, d->name, (int)ev.start_mark.line + 1,
				                    (int)ev.start_mark.column + 1, NULL,
				                    "unknown alias *%s", a);
			break;
		}
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			sp--;
			node = stack[sp];
			anchor = NULL;
			/* the closed collection becomes a value of its parent */
			break;
		default:
			break;
		}
		int opened = ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT;
		int closed = ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT;
		if (rc == 0 && anchor && node)
			rc = add_anchor(d, anchor, node);
		if (rc == 0 && opened) {
			if (sp >= (int)TRIM__ARRAY_LEN(stack)) {
				rc = trim__error_at(TRIM_EPARSE, d->name, node->line, node->col, NULL,
				                    "YAML nested too deeply");
			} else {
				stack[sp] = node;
				pending_key[sp] = NULL;
				sp++;
			}
		} else if (rc == 0 && node) {
			/* attach a complete node (scalar, alias or closed collection) */
			if (sp == 0) {
				d->root = node;
			} else {
				trim__ynode *parent = stack[sp - 1];
				if (parent->kind == TRIM__Y_SEQ) {
					rc = push_child(parent, NULL, node);
				} else if (!pending_key[sp - 1]) {
					if (node->kind != TRIM__Y_SCALAR) {
						rc = trim__error_at(TRIM_EPARSE, d->name, node->line, node->col,
						                    NULL, "mapping keys must be plain scalars");
					} else {
						for (size_t i = 0; i < parent->n; i++) {
							if (strcmp(parent->keys[i]->str, node->str) == 0) {
								rc = trim__error_at(
									TRIM_ESCHEMA, d->name, node->line, node->col, NULL,
									"duplicate key '%s' (first at line %d)", node->str,
									parent->keys[i]->line);
								break;
							}
						}
						pending_key[sp - 1] = node;
					}
				} else {
					rc = push_child(parent, pending_key[sp - 1], node);
					pending_key[sp - 1] = NULL;
				}
			}
		}
		(void)closed;
		yaml_event_delete(&ev);
		if (rc)
			return rc;
	}
	return 0;
}

static int load(trim__ydoc **out, yaml_parser_t *p, const char *name)
{
	*out = NULL;
	trim__ydoc *d = trim__calloc(1, sizeof *d);
	if (!d)
		return TRIM_ENOMEM;
	d->name = trim__strdup(name);
	if (!d->name) {
		free(d);
		return TRIM_ENOMEM;
	}
	int rc = parse_events(d, p);
	if (rc == 0 && !d->root)
		rc = trim__error_at(TRIM_EPARSE, name, 0, 0, NULL, "empty YAML document");
	if (rc) {
		trim__ydoc_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

int trim__ydoc_load_file(trim__ydoc **out, const char *path)
{
	*out = NULL;
	if (!path)
		return trim__error(TRIM_EINVAL, "no file name given");
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return trim__error(TRIM_EIO, "%s: is a directory, not a YAML file", path);
	FILE *f = fopen(path, "rb");
	if (!f)
		return trim__error(TRIM_EIO, "%s: cannot open: %s", path, strerror(errno));
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		fclose(f);
		return trim__error(TRIM_ENOMEM, "cannot initialise the YAML parser");
	}
	yaml_parser_set_input_file(&p, f);
	int rc = load(out, &p, path);
	yaml_parser_delete(&p);
	fclose(f);
	return rc;
}

int trim__ydoc_load_string(trim__ydoc **out, const char *text, size_t len, const char *name)
{
	*out = NULL;
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return trim__error(TRIM_ENOMEM, "cannot initialise the YAML parser");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	int rc = load(out, &p, name ? name : "<string>");
	yaml_parser_delete(&p);
	return rc;
}

const trim__ynode *trim__ydoc_root(const trim__ydoc *d) { return d->root; }
const char *trim__ydoc_name(const trim__ydoc *d) { return d->name; }

void trim__ydoc_free(trim__ydoc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nall; i++) {
		free(d->all[i]->str);
		free(d->all[i]->items);
		free(d->all[i]->keys);
		free(d->all[i]);
	}
	for (size_t i = 0; i < d->nanch; i++)
		free(d->anchors[i].name);
	free(d->anchors);
	free(d->all);
	free(d->name);
	free(d);
}

/* ---- readers ------------------------------------------------------------ */

void trim__yctx_init(trim__yctx *c, const char *file)
{
	memset(c, 0, sizeof *c);
	c->file = file;
}

static void ctx_mark(trim__yctx *c)
{
	if (c->depth < (int)TRIM__ARRAY_LEN(c->mark))
		c->mark[c->depth] = strlen(c->path);
	c->depth++;
}

void trim__yctx_key(trim__yctx *c, const char *key)
{
	ctx_mark(c);
	size_t l = strlen(c->path);
	snprintf(c->path + l, sizeof c->path - l, "%s%s", l ? "." : "", key);
}

void trim__yctx_index(trim__yctx *c, size_t i)
{
	ctx_mark(c);
	size_t l = strlen(c->path);
	snprintf(c->path + l, sizeof c->path - l, "[%zu]", i);
}

void trim__yctx_pop(trim__yctx *c)
{
	if (c->depth <= 0)
		return;
	c->depth--;
	if (c->depth < (int)TRIM__ARRAY_LEN(c->mark))
		c->path[c->mark[c->depth]] = '\0';
}

int trim__yerr(const trim__yctx *c, const trim__ynode *node, int code, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return trim__error_at(code, c->file, node ? node->line : 0, node ? node->col : 0, c->path,
	                      "%s", msg);
}

const char *trim__ykind_name(trim__ykind k)
{
	switch (k) {
	case TRIM__Y_SCALAR: return "a scalar";
	case TRIM__Y_SEQ: return "a list";
	case TRIM__Y_MAP: return "a mapping";
	}
	return "?";
}

int trim__yexpect(const trim__yctx *c, const trim__ynode *n, trim__ykind kind)
{
	if (n->kind != kind)
		return trim__yerr(c, n, TRIM_ESCHEMA, "expected %s, found %s", trim__ykind_name(kind),
		                  trim__ykind_name(n->kind));
	return 0;
}

const trim__ynode *trim__ymap_get(const trim__ynode *map, const char *key)
{
	if (!map || map->kind != TRIM__Y_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (strcmp(map->keys[i]->str, key) == 0)
			return map->items[i];
	return NULL;
}

int trim__ymap_check(const trim__yctx *c, const trim__ynode *map, const char *const *allowed)
{
	int rc = trim__yexpect(c, map, TRIM__Y_MAP);
	if (rc)
		return rc;
	for (size_t i = 0; i < map->n; i++) {
		const char *k = map->keys[i]->str;
		int ok = 0;
		for (const char *const *a = allowed; *a; a++)
			if (strcmp(*a, k) == 0)
				ok = 1;
		if (!ok) {
			char list[400] = "", hint[96];
			size_t l = 0;
			for (const char *const *a = allowed; *a && l < sizeof list - 40; a++)
				l += (size_t)snprintf(list + l, sizeof list - l, "%s%s",
				                      a == allowed ? "" : ", ", *a);
			trim__nearest near;
			trim__nearest_init(&near, k);
			for (const char *const *a = allowed; *a; a++)
				trim__nearest_add(&near, *a);
			trim__yctx tmp = *c;
			trim__yctx_key(&tmp, k);
			return trim__yerr(&tmp, map->keys[i], TRIM_ESCHEMA,
			                  "unknown key '%s' (expected one of: %s)%s", k, list,
			                  trim__suggestion(hint, sizeof hint, &near));
		}
	}
	return 0;
}

int trim__yint(const trim__yctx *c, const trim__ynode *n, int64_t lo, int64_t hi, int64_t *out)
{
	int rc = trim__yexpect(c, n, TRIM__Y_SCALAR);
	if (rc)
		return rc;
	const char *s = n->str;
	char *end = NULL;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (!*s || errno || (end && *end)) {
		/* accept integral floats such as 1e6 */
		double d = strtod(s, &end);
		if (!*s || (end && *end) || d != floor(d) || fabs(d) > 9e18)
			return trim__yerr(c, n, TRIM_ESCHEMA, "expected an integer, found '%s'", s);
		v = (long long)d;
	}
	if (v < lo || v > hi)
		return trim__yerr(c, n, TRIM_ERANGE, "%lld is out of range [%lld, %lld]", v,
		                  (long long)lo, (long long)hi);
	*out = v;
	return 0;
}

int trim__ydouble(const trim__yctx *c, const trim__ynode *n, double lo, double hi, double *out)
{
	int rc = trim__yexpect(c, n, TRIM__Y_SCALAR);
	if (rc)
		return rc;
	char *end = NULL;
	double v = strtod(n->str, &end);
	if (!n->str[0] || (end && *end) || !isfinite(v))
		return trim__yerr(c, n, TRIM_ESCHEMA, "expected a number, found '%s'", n->str);
	if (v < lo || v > hi)
		return trim__yerr(c, n, TRIM_ERANGE, "%g is out of range [%g, %g]", v, lo, hi);
	*out = v;
	return 0;
}

int trim__ybool(const trim__yctx *c, const trim__ynode *n, int *out)
{
	int rc = trim__yexpect(c, n, TRIM__Y_SCALAR);
	if (rc)
		return rc;
	static const char *const t[] = {"true", "True", "TRUE", "yes", "on", NULL};
	static const char *const f[] = {"false", "False", "FALSE", "no", "off", NULL};
	for (int i = 0; t[i]; i++)
		if (strcmp(n->str, t[i]) == 0)
			return (*out = 1, 0);
	for (int i = 0; f[i]; i++)
		if (strcmp(n->str, f[i]) == 0)
			return (*out = 0, 0);
	return trim__yerr(c, n, TRIM_ESCHEMA, "expected true or false, found '%s'", n->str);
}

int trim__yenum(const trim__yctx *c, const trim__ynode *n, const char *const *names, int *out)
{
	int rc = trim__yexpect(c, n, TRIM__Y_SCALAR);
	if (rc)
		return rc;
	for (int i = 0; names[i]; i++) {
		if (strcmp(n->str, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	char list[400] = "", hint[96];
	size_t l = 0;
	trim__nearest near;
	trim__nearest_init(&near, n->str);
	for (int i = 0; names[i]; i++) {
		trim__nearest_add(&near, names[i]);
		if (names[i][0] && l < sizeof list - 40)
			l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", names[i]);
	}
	return trim__yerr(c, n, TRIM_ESCHEMA, "unknown value '%s' (expected one of: %s)%s", n->str,
	                  list, trim__suggestion(hint, sizeof hint, &near));
}

int trim__ybytes(const trim__yctx *c, const trim__ynode *n, int64_t *out)
{
	int rc = trim__yexpect(c, n, TRIM__Y_SCALAR);
	if (rc)
		return rc;
	char *end = NULL;
	double v = strtod(n->str, &end);
	if (end == n->str || !isfinite(v) || v <= 0)
		return trim__yerr(c, n, TRIM_ESCHEMA, "expected a positive size such as 1024 or '108 KB', found '%s'",
		                  n->str);
	while (*end == ' ')
		end++;
	double mul = 1;
	if (!*end || !strcmp(end, "B"))
		mul = 1;
	else if (!strcmp(end, "KB") || !strcmp(end, "kB") || !strcmp(end, "KiB") || !strcmp(end, "K"))
		mul = 1024;
	else if (!strcmp(end, "MB") || !strcmp(end, "MiB") || !strcmp(end, "M"))
		mul = 1024.0 * 1024;
	else if (!strcmp(end, "GB") || !strcmp(end, "GiB") || !strcmp(end, "G"))
		mul = 1024.0 * 1024 * 1024;
	else
		return trim__yerr(c, n, TRIM_ESCHEMA, "unknown size unit '%s' (use B, KB, MB or GB)", end);
	double b = v * mul;
	if (b > TRIM__YBYTES_MAX)
		return trim__yerr(c, n, TRIM_ERANGE, "size '%s' is too large (at most 2^48 bytes, 256 TB)", n->str);
	if (b != floor(b))
		return trim__yerr(c, n, TRIM_ERANGE, "size '%s' is not a whole number of bytes", n->str);
	*out = (int64_t)b;
	return 0;
}

/* Shared shape of the keyed readers: find, push path, convert, pop. */
#define KEYED(conv_call)                                                                 \
	const trim__ynode *n = trim__ymap_get(map, key);                                     \
	if (!n) {                                                                            \
		if (!required)                                                                   \
			return 1;                                                                    \
		return trim__yerr(c, map, TRIM_ESCHEMA, "missing required key '%s'", key);       \
	}                                                                                    \
	trim__yctx_key(c, key);                                                              \
	int rc = (conv_call);                                                                \
	trim__yctx_pop(c);                                                                   \
	return rc

int trim__yget_int(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                   int64_t lo, int64_t hi, int64_t *out)
{
	KEYED(trim__yint(c, n, lo, hi, out));
}

int trim__yget_double(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                      double lo, double hi, double *out)
{
	KEYED(trim__ydouble(c, n, lo, hi, out));
}

int trim__yget_bool(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                    int *out)
{
	KEYED(trim__ybool(c, n, out));
}

static int ystr(const trim__yctx *c, const trim__ynode *n, const char **out)
{
	int rc = trim__yexpect(c, n, TRIM__Y_SCALAR);
	if (rc == 0)
		*out = n->str;
	return rc;
}

int trim__yget_str(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                   const char **out)
{
	KEYED(ystr(c, n, out));
}

int trim__yget_enum(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                    const char *const *names, int *out)
{
	KEYED(trim__yenum(c, n, names, out));
}

int trim__yget_bytes(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                     int64_t *out)
{
	KEYED(trim__ybytes(c, n, out));
}

static int yints(trim__yctx *c, const trim__ynode *n, int64_t lo, int64_t hi, size_t cnt,
                 int64_t *out)
{
	if (n->kind == TRIM__Y_SCALAR) {
		int64_t v;
		int rc = trim__yint(c, n, lo, hi, &v);
		if (rc)
			return rc;
		for (size_t i = 0; i < cnt; i++)
			out[i] = v;
		return 0;
	}
	if (n->kind != TRIM__Y_SEQ || n->n != cnt)
		return trim__yerr(c, n, TRIM_ESCHEMA, "expected an integer or a list of %zu integers",
		                  cnt);
	for (size_t i = 0; i < cnt; i++) {
		trim__yctx_index(c, i);
		int rc = trim__yint(c, n->items[i], lo, hi, &out[i]);
		trim__yctx_pop(c);
		if (rc)
			return rc;
	}
	return 0;
}

int trim__yget_ints(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                    int64_t lo, int64_t hi, size_t cnt, int64_t *out)
{
	KEYED(yints(c, n, lo, hi, cnt, out));
}

static int ynode(const trim__yctx *c, const trim__ynode *n, trim__ykind kind,
                 const trim__ynode **out)
{
	int rc = trim__yexpect(c, n, kind);
	if (rc == 0)
		*out = n;
	return rc;
}

int trim__yget_node(trim__yctx *c, const trim__ynode *map, const char *key, int required,
                    trim__ykind kind, const trim__ynode **out)
{
	KEYED(ynode(c, n, kind, out));
}
