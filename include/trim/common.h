/*
 * trim/common.h - error codes, version, library-owned strings.
 *
 * Conventions (see docs/conventions.md):
 *  - every fallible call returns 0 or a negative TRIM_E* code;
 *  - the message of the last error of the calling thread is
 *    trim_last_error(): "file:line:column: key.path: what is wrong";
 *  - output handles come first (**out); *_free(NULL) is a no-op;
 *  - a handle of another type, a freed handle or a pointer the library did
 *    not make is refused with TRIM_EINVAL before anything is read (typed
 *    handles; functions that return no code return their value for NULL
 *    and set the error);
 *  - text returned as `char *` is owned by the caller: free it with
 *    trim_string_free().
 */
#ifndef TRIM_COMMON_H
#define TRIM_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TRIM_BUILDING) && defined(__GNUC__)
#define TRIM_API __attribute__((visibility("default")))
#else
#define TRIM_API
#endif

/** Error codes: 0 is success, every failure is negative. */
enum trim_error_code {
	TRIM_OK = 0,
	TRIM_ENOMEM = -1,   /**< out of memory */
	TRIM_EINVAL = -2,   /**< invalid argument (NULL handle, a handle of another type, bad option) */
	TRIM_EIO = -3,      /**< a file could not be opened, read or written */
	TRIM_EPARSE = -4,   /**< malformed YAML or CSV */
	TRIM_ESCHEMA = -5,  /**< unknown or missing key, wrong type or value */
	TRIM_ESHAPE = -6,   /**< shapes that do not fit together */
	TRIM_ENOTFOUND = -7,/**< a named object does not exist */
	TRIM_ENOFIT = -8,   /**< a mapping or design does not fit the hardware */
	TRIM_ERANGE = -9,   /**< a value outside its valid range (also overflow) */
	TRIM_ENUMERIC = -10,/**< a numerical routine failed */
	TRIM_EBUFSIZE = -11 /**< caller buffer or array too small (returned like every code;
	                         the message of trim_last_error() gives the size needed) */
};

/** Runtime version, "MAJOR.MINOR.PATCH". */
TRIM_API const char *trim_version_string(void);
/** Runtime version as MAJOR*10000 + MINOR*100 + PATCH. */
TRIM_API int trim_version_number(void);

/** Static description of an error code ("out of memory", ...). */
TRIM_API const char *trim_strerror(int code);
/** Message of the last error raised in the calling thread ("" if none). */
TRIM_API const char *trim_last_error(void);
/** Code of the last error raised in the calling thread (0 if none). */
TRIM_API int trim_last_error_code(void);
/** Forget the calling thread's last error. */
TRIM_API void trim_clear_error(void);

/** Free a string returned by the library. NULL is accepted. */
TRIM_API void trim_string_free(char *s);

/**
 * Find a file or directory of the shipped data (energy_tables/, models/) by
 * its relative path, e.g. "models/networks/alexnet-cifar.yaml". Tried in
 * order: $TRIM_DATA_DIR/, ./, <directory of libtrim>/../share/trim (the
 * installation this copy of libtrim belongs to; also the copy a Python
 * package carries, libtrim/lib/libtrim.so.0 with libtrim/share/trim: pip
 * install ./python or make wheel after make, python/README.md), the build tree
 * (<directory of libtrim>/../.. holding energy_tables/), the installed data
 * directory compiled in (PREFIX/share/trim) and the source tree libtrim was
 * built from. *path_out is freed with trim_string_free(); TRIM_ENOTFOUND lists
 * the places tried, TRIM_EINVAL for an empty or absolute path.
 */
TRIM_API int trim_data_find(const char *relative, char **path_out);

/** Output formats of the *_dump / report functions. */
enum trim_format {
	TRIM_FORMAT_TABLE = 0,
	TRIM_FORMAT_JSON = 1,
	TRIM_FORMAT_CSV = 2,
	TRIM_FORMAT_YAML = 3
};

/** Counting rules of an evaluation (trim_eval_mapping_count, TRIM_SEARCH_COUNT,
 * TRIM_NET_COUNT; docs/mapping.md, "Differences from Timeloop's counting").
 * TRIM_COUNT_TIMELOOP counts and charges as Timeloop does where its rules
 * differ: an operand's word is shared between the children of a fan-out
 * only when their tiles are identical, fan-out by fan-out (rules 1 and 5),
 * and a tile saves its overlap with the last one only on a step of the
 * innermost loop above it, any other move refilling it whole (rule 4);
 * the drains of a level are counted but neither charged nor in its read
 * bandwidth (rule 3), and leakage is charged on the used instances of a
 * storage level only, none for the MACs (rule 6). Everything else is
 * libtrim's. */
enum trim_count {
	TRIM_COUNT_LIBTRIM = 0,  /**< libtrim's rules (default) */
	TRIM_COUNT_TIMELOOP = 1  /**< Timeloop's rules 1, 3, 4, 5 and 6 */
};

#ifdef __cplusplus
}
#endif
#endif
