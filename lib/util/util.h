/*
 * Internal utilities shared by every module: errors, string buffers,
 * checked arithmetic. Nothing here is exported from the shared library.
 * lib/util/ is the bottom row of the folders (make folder-check): it
 * includes no other folder. One concept per file:
 *   error.c        trim__error, the thread's last error, trim_strerror
 *   strbuf.c       the string builder (trim__sb_*), JSON scalars, files
 *                  written whole or not at all
 *   writers.c      one writer per output format (trim__writers)
 *   suggest.c      "did you mean": the nearest valid choice
 *   ydoc.c         YAML reading with file:line:column (ydoc.h)
 *   handle.c       typed handles (handle.h)
 *   digest.c       SHA-256 and the content keys of inputs (digest.h)
 *   model_digest.c the library's stamp: version and the sources' digest
 *   file.c         result files read back (regular, bounded in size)
 *   notes.c        the notes on result files not reused
 *   datadir.c      where energy_tables/ and models/ are found (datadir_int.h)
 *   gslinit.c      GSL's aborting error handler turned off, once
 *   divisors.c     the divisors of an integer, ascending
 */
#ifndef TRIM_UTIL_H
#define TRIM_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "trim/common.h"

#define TRIM__ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- errors ---------------------------------------------------------- */
/* Every error of the library passes through trim__error(): one breakpoint
 * catches them all. Returns `code` so callers write `return trim__error(..)`. */
int trim__error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int trim__verror(int code, const char *fmt, va_list ap);
/* Error located in a file: "file:line:col: path: message". line <= 0 omits. */
int trim__error_at(int code, const char *file, int line, int col,
                   const char *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Prefix the current message with "prefix: " (keeps the code). */
int trim__error_prefix(const char *prefix);
/* Where the last error was found, if trim__error_at gave a line: 1 and its
 * line, key path ("" if none) and message without the place; else 0. For a
 * caller that knows better what the line stands for (lib/network/onnx: the node
 * of a generated description). */
int trim__error_where(int *line, const char **path, const char **what);

/* ---- "did you mean ..." ---------------------------------------------- */
/* Every message that rejects an unknown name (key, value, layer, level,
 * preset, option) lists the valid ones and adds the nearest:
 *   trim__nearest n; trim__nearest_init(&n, word);
 *   for (each valid name) trim__nearest_add(&n, name);
 *   char hint[96]; ...fmt "(expected one of: %s%s)", list, trim__suggestion(hint, sizeof hint, &n)
 * Distance: optimal string alignment (insert, delete, substitute, swap two
 * neighbours; case ignored). A name is suggested only when it is close:
 * at most max(1, (len + 2) / 3) edits for a word of len bytes, fewer than
 * len. Ties go to the first name added. */
typedef struct {
	const char *word, *best;
	size_t distance;
} trim__nearest;
size_t trim__edit_distance(const char *a, const char *b);
void trim__nearest_init(trim__nearest *n, const char *word);
void trim__nearest_add(trim__nearest *n, const char *candidate);
/* The nearest close name, or NULL. */
const char *trim__nearest_best(const trim__nearest *n);
/* The nearest close name of a NULL-terminated list, or NULL. */
const char *trim__nearest_of(const char *word, const char *const *names);
/* "; did you mean 'X'?" (or "" when no name is close) in buf; returns buf. */
const char *trim__suggestion(char *buf, size_t size, const trim__nearest *n);

/* Turn GSL's aborting error handler off (once, thread-safe). */
void trim__gsl_init(void);

/* ---- memory ---------------------------------------------------------- */
void *trim__calloc(size_t n, size_t size); /* sets TRIM_ENOMEM on failure */
void *trim__realloc_array(void *p, size_t n, size_t size);
char *trim__strdup(const char *s);
/* Grow *items (of *cap elements) to hold at least `need`. 0 or TRIM_ENOMEM. */
int trim__grow(void **items, size_t *cap, size_t need, size_t elem);

/* ---- files ------------------------------------------------------------ */
/* The largest result file read back (a point file of explore --out, a
 * search file of network --out): 64 MiB. The largest point files of the
 * model zoo (a training network's every workload with its mapping) are a
 * few hundred KiB; a search file is a few KiB. */
#define TRIM__RESULT_FILE_MAX (64 << 20)
/* The bytes of a result file, NUL-terminated (*len without the NUL). Only a
 * regular file (a symbolic link to one is followed) of at most
 * TRIM__RESULT_FILE_MAX bytes is read: a FIFO, a device or a directory is
 * never opened, a larger file never read. NULL with the error set
 * (TRIM_EIO naming the path and why, or TRIM_ENOMEM), and *missing (NULL:
 * not wanted) 1 when it does not exist. Free with free(). */
char *trim__result_file_text(const char *path, size_t *len, int *missing);
/* Append "PATH: reason: action\n" to *notes (NULL: empty), or count it on the
 * last line when that has the same reason ("PATH and N more: reason:
 * action"). 0 or TRIM_ENOMEM (*notes unchanged). */
int trim__note_add(char **notes, const char *path, const char *reason, const char *action);
/* The same for a file trim__result_file_text did not read: the reason is
 * its last error without the path ("not a regular file (a FIFO): not
 * read"). */
int trim__note_unread(char **notes, const char *path, const char *action);

/* ---- the library's identity ------------------------------------------ */
/* "libtrim VERSION model DIGEST": what stamps every resumable result (the
 * search files of network --out, the point files of explore --out, the
 * shared search trees); DIGEST (trim__model_digest, 64 hex digits) is the
 * SHA-256 the Makefile computes over the library's sources. */
const char *trim__library_stamp(void);
const char *trim__model_digest(void);

/* ---- checked 64-bit arithmetic --------------------------------------- */
/* Saturating helpers return 0 on success, TRIM_ERANGE on overflow. */
int trim__mul64(int64_t a, int64_t b, int64_t *out);

/* ---- integers -------------------------------------------------------- */
/* The divisors of n >= 1 into dv (room for max), ascending; their count, or
 * -1 when there are more than max (dv then holds nothing useful); 0 for
 * n < 1. */
int trim__divisors(int64_t n, int64_t *dv, int max);

/* ---- string buffer --------------------------------------------------- */
typedef struct {
	char *buf;
	size_t len, cap;
	int failed; /* sticky allocation failure */
} trim__sb;

void trim__sb_init(trim__sb *sb);
void trim__sb_free(trim__sb *sb);
void trim__sb_printf(trim__sb *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void trim__sb_puts(trim__sb *sb, const char *s);
void trim__sb_putc(trim__sb *sb, char c);
/* JSON helpers: a quoted, escaped string; a double as %.17g (null if not finite). */
void trim__sb_json_str(trim__sb *sb, const char *s);
void trim__sb_json_double(trim__sb *sb, double v);
/* CSV field, quoted when needed. */
void trim__sb_csv_str(trim__sb *sb, const char *s);
/* Hand the text to the caller (who frees it with trim_string_free) or fail. */
int trim__sb_take(trim__sb *sb, char **out);

/* ---- one writer per output format ------------------------------------ */
/* A report writes each format it offers with its own writer, listed in a
 * table by TRIM_FORMAT_* (lib/util/writers.c):
 *   static const trim__writers arch_writers = {"trim_arch_report",
 *       {[TRIM_FORMAT_TABLE] = arch_table, [TRIM_FORMAT_JSON] = arch_json}};
 *   return trim__write_report(&arch_writers, format, &what_to_write, out);
 * A writer appends the report to sb from `report` (what the report's entry
 * point hands it: a handle, or a struct of its figures) and returns 0 or a
 * negative code. A format a report does not offer is refused, for every
 * report alike, with TRIM_EINVAL: "NAME: format 2 (csv) is not offered;
 * table, json". */
#define TRIM__FORMAT_COUNT 4 /* TRIM_FORMAT_TABLE .. TRIM_FORMAT_YAML */
typedef int (*trim__writer)(const void *report, trim__sb *sb);
typedef struct {
	const char *name;                           /* the report, as its errors name it */
	trim__writer by_format[TRIM__FORMAT_COUNT]; /* NULL: format not offered */
} trim__writers;
/* "table", "json", "csv", "yaml", or "unknown". */
const char *trim__format_name(int format);
/* 0 when the report offers `format`, else the TRIM_EINVAL above: for a
 * report that checks the format before its work and writes afterwards. */
int trim__writers_check(const trim__writers *w, int format);
/* Check the format, write the report with its writer into *out (freed with
 * trim_string_free; NULL on failure) and return 0 or the code. */
int trim__write_report(const trim__writers *w, int format, const void *report, char **out);

/* Write a whole buffer to a file atomically (temp file + rename): no
 * half-written output on failure. */
int trim__write_file_atomic(const char *path, const char *data, size_t len);

#endif
