/*
 * Content digests (SHA-256, FIPS 180-4) for resumable results: a result
 * written to disk is stamped with the digest of every input that changes
 * it, and carries a checksum of its own text, so a rerun can tell a stale
 * or edited file from a good one. Internal: nothing here is exported.
 *
 * Use: trim__digest_init, then any number of updates (raw bytes, framed
 * fields, whole files), then trim__digest_hex (or _final for the raw 32
 * bytes). A context is a plain struct on the caller's stack; no allocation
 * except trim__digest_file's read buffer. Not shared between threads.
 *
 *   trim__digest d;
 *   char hex[TRIM__DIGEST_HEX];
 *   trim__digest_init(&d);
 *   trim__digest_field(&d, "mode", "training", 8);
 *   if (trim__digest_file(&d, "models/networks/alexnet.yaml") < 0) ...error...
 *   trim__digest_hex(&d, hex);          -> 64 lowercase hex digits + NUL
 */
#ifndef TRIM_UTIL_DIGEST_H
#define TRIM_UTIL_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#define TRIM__DIGEST_BYTES 32
#define TRIM__DIGEST_HEX 65 /* 64 hex digits and the NUL */

typedef struct {
	uint32_t state[8];
	uint64_t bytes;          /* message length so far */
	unsigned char block[64]; /* pending input */
	size_t pending;
} trim__digest;

/* Start a digest. */
void trim__digest_init(trim__digest *d);
/* Add n raw bytes (incremental: updates in any split give the same digest). */
void trim__digest_update(trim__digest *d, const void *data, size_t n);
/* Add a framed field: the key, its length and the value's length precede the
 * value, so ("ab", "c") and ("a", "bc") differ. value may be NULL when n is 0. */
void trim__digest_field(trim__digest *d, const char *key, const void *value, size_t n);
/* Framed helpers: a NUL-terminated string (NULL hashes as absent, unlike
 * ""), a 64-bit integer, a double (by its %.17g text, so -0 and 0 differ
 * only as printed). */
void trim__digest_str(trim__digest *d, const char *key, const char *s);
void trim__digest_int(trim__digest *d, const char *key, int64_t v);
void trim__digest_double(trim__digest *d, const char *key, double v);
/* Add the bytes of a file as the field `key` (framed by its length). A
 * directory adds every regular file directly in it, sorted by name, each
 * framed by its name. Returns 0, or TRIM_EIO (message names the path and
 * strerror) when the file cannot be read; the digest is then unusable. */
int trim__digest_file(trim__digest *d, const char *key, const char *path);
/* Finish: the 32-byte digest / 64 lowercase hex digits and a NUL. The
 * context must be initialised again before reuse. */
void trim__digest_final(trim__digest *d, unsigned char out[TRIM__DIGEST_BYTES]);
void trim__digest_hex(trim__digest *d, char out[TRIM__DIGEST_HEX]);
/* One call: the hex digest of n bytes. */
void trim__digest_bytes_hex(const void *data, size_t n, char out[TRIM__DIGEST_HEX]);

#endif
