#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define TRIM__ERRLEN 1024

static _Thread_local char err_msg[TRIM__ERRLEN];
static _Thread_local int err_code;
/* where the last error was found, when trim__error_at gave a place */
static _Thread_local int err_line;
static _Thread_local char err_path[256];
static _Thread_local char err_what[TRIM__ERRLEN];

int trim__verror(int code, const char *fmt, va_list ap)
{
	err_code = code;
	err_line = 0;
	vsnprintf(err_msg, sizeof err_msg, fmt, ap);
	return code;
}

int trim__error(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	trim__verror(code, fmt, ap);
	va_end(ap);
	return code;
}

int trim__error_at(int code, const char *file, int line, int col,
                   const char *path, const char *fmt, ...)
{
	char what[TRIM__ERRLEN];
	char where[TRIM__ERRLEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(where, sizeof where, "%s:%d:%d", file ? file : "<input>", line, col);
	else
		snprintf(where, sizeof where, "%s", file ? file : "<input>");
	if (path && path[0])
		trim__error(code, "%s: %s: %s", where, path, what);
	else
		trim__error(code, "%s: %s", where, what);
	err_line = line > 0 ? line : 0;
	snprintf(err_path, sizeof err_path, "%s", path ? path : "");
	memcpy(err_what, what, sizeof err_what);
	return code;
}

int trim__error_where(int *line, const char **path, const char **what)
{
	*line = err_line;
	*path = err_path;
	*what = err_what;
	return err_line > 0;
}

int trim__error_prefix(const char *prefix)
{
	char old[TRIM__ERRLEN];
	memcpy(old, err_msg, sizeof old);
	snprintf(err_msg, sizeof err_msg, "%s: %s", prefix, old);
	return err_code;
}

const char *trim_last_error(void) { return err_msg; }
int trim_last_error_code(void) { return err_code; }

void trim_clear_error(void)
{
	err_msg[0] = '\0';
	err_code = 0;
}

const char *trim_strerror(int code)
{
	switch (code) {
	case TRIM_OK: return "success";
	case TRIM_ENOMEM: return "out of memory";
	case TRIM_EINVAL: return "invalid argument";
	case TRIM_EIO: return "input/output error";
	case TRIM_EPARSE: return "malformed input";
	case TRIM_ESCHEMA: return "schema violation";
	case TRIM_ESHAPE: return "shape mismatch";
	case TRIM_ENOTFOUND: return "not found";
	case TRIM_ENOFIT: return "does not fit the hardware";
	case TRIM_ERANGE: return "value out of range";
	case TRIM_ENUMERIC: return "numerical error";
	case TRIM_EBUFSIZE: return "buffer too small";
	default: return "unknown error";
	}
}

#define TRIM__STR2(x) #x
#define TRIM__STR(x) TRIM__STR2(x)
const char *trim_version_string(void)
{
	return TRIM__STR(TRIM_VERSION_MAJOR) "." TRIM__STR(TRIM_VERSION_MINOR) "." TRIM__STR(
		TRIM_VERSION_PATCH);
}

int trim_version_number(void)
{
	return TRIM_VERSION_MAJOR * 10000 + TRIM_VERSION_MINOR * 100 + TRIM_VERSION_PATCH;
}

void trim_string_free(char *s) { free(s); }

void *trim__calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		trim__error(TRIM_ENOMEM, "out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *trim__realloc_array(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		trim__error(TRIM_ENOMEM, "allocation overflow");
		return NULL;
	}
	void *q = realloc(p, (n && size) ? n * size : 1);
	if (!q)
		trim__error(TRIM_ENOMEM, "out of memory (%zu x %zu bytes)", n, size);
	return q;
}

char *trim__strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (!p) {
		trim__error(TRIM_ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(p, s, n);
	return p;
}

int trim__grow(void **items, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need)
		ncap *= 2;
	void *p = trim__realloc_array(*items, ncap, elem);
	if (!p)
		return TRIM_ENOMEM;
	memset((char *)p + *cap * elem, 0, (ncap - *cap) * elem);
	*items = p;
	*cap = ncap;
	return 0;
}

int trim__mul64(int64_t a, int64_t b, int64_t *out)
{
	if (__builtin_mul_overflow(a, b, out))
		return trim__error(TRIM_ERANGE, "64-bit overflow in %lld x %lld", (long long)a,
		                   (long long)b);
	return 0;
}
