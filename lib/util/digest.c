/* SHA-256 (FIPS 180-4) and the framed updates of util/digest.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "digest.h"
#include "util.h"

static const uint32_t round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t state[8], const unsigned char block[64])
{
	uint32_t w[64];
	for (int t = 0; t < 16; t++)
		w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 |
		       (uint32_t)block[4 * t + 2] << 8 | (uint32_t)block[4 * t + 3];
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
	for (int t = 0; t < 64; t++) {
		uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
		uint32_t choose = (e & f) ^ (~e & g);
		uint32_t t1 = h + s1 + choose + round_constants[t] + w[t];
		uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
		uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = s0 + majority;
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

void trim__digest_init(trim__digest *d)
{
	static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(d->state, initial, sizeof initial);
	d->bytes = 0;
	d->pending = 0;
}

void trim__digest_update(trim__digest *d, const void *data, size_t n)
{
	const unsigned char *p = data;
	d->bytes += n;
	while (n > 0) {
		size_t take = 64 - d->pending < n ? 64 - d->pending : n;
		memcpy(d->block + d->pending, p, take);
		d->pending += take;
		p += take;
		n -= take;
		if (d->pending == 64) {
			compress(d->state, d->block);
			d->pending = 0;
		}
	}
}

void trim__digest_final(trim__digest *d, unsigned char out[TRIM__DIGEST_BYTES])
{
	uint64_t bits = d->bytes * 8;
	unsigned char pad = 0x80;
	trim__digest_update(d, &pad, 1);
	pad = 0;
	while (d->pending != 56)
		trim__digest_update(d, &pad, 1);
	unsigned char len[8];
	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	trim__digest_update(d, len, 8);
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 4; k++)
			out[4 * i + k] = (unsigned char)(d->state[i] >> (24 - 8 * k));
}

void trim__digest_hex(trim__digest *d, char out[TRIM__DIGEST_HEX])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char raw[TRIM__DIGEST_BYTES];
	trim__digest_final(d, raw);
	for (int i = 0; i < TRIM__DIGEST_BYTES; i++) {
		out[2 * i] = digits[raw[i] >> 4];
		out[2 * i + 1] = digits[raw[i] & 15];
	}
	out[2 * TRIM__DIGEST_BYTES] = '\0';
}

void trim__digest_bytes_hex(const void *data, size_t n, char out[TRIM__DIGEST_HEX])
{
	trim__digest d;
	trim__digest_init(&d);
	trim__digest_update(&d, data, n);
	trim__digest_hex(&d, out);
}

/* ---- framed fields ------------------------------------------------------- */

static void length(trim__digest *d, uint64_t n)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(n >> (56 - 8 * i));
	trim__digest_update(d, b, 8);
}

void trim__digest_field(trim__digest *d, const char *key, const void *value, size_t n)
{
	size_t kl = key ? strlen(key) : 0;
	length(d, kl);
	trim__digest_update(d, key, kl);
	length(d, n);
	trim__digest_update(d, value, n);
}

void trim__digest_str(trim__digest *d, const char *key, const char *s)
{
	if (s) {
		trim__digest_field(d, key, s, strlen(s));
	} else { /* absent: a length no string can have */
		size_t kl = key ? strlen(key) : 0;
		length(d, kl);
		trim__digest_update(d, key, kl);
		length(d, UINT64_MAX);
	}
}

void trim__digest_int(trim__digest *d, const char *key, int64_t v)
{
	char t[32];
	int n = snprintf(t, sizeof t, "%lld", (long long)v);
	trim__digest_field(d, key, t, (size_t)n);
}

void trim__digest_double(trim__digest *d, const char *key, double v)
{
	char t[40];
	int n = snprintf(t, sizeof t, "%.17g", v);
	trim__digest_field(d, key, t, (size_t)n);
}

/* ---- files --------------------------------------------------------------- */

static int file_bytes(trim__digest *d, const char *key, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(errno));
	/* the length frames the content: read it all first */
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	int rc = buf ? 0 : trim__error(TRIM_ENOMEM, "out of memory");
	while (rc == 0) {
		if (len == cap) {
			char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
			if (!nb) {
				rc = trim__error(TRIM_ENOMEM, "out of memory reading %s", path);
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0) {
			if (ferror(f))
				rc = trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(errno));
			break;
		}
	}
	fclose(f);
	if (rc == 0)
		trim__digest_field(d, key, buf, len);
	free(buf);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int directory(trim__digest *d, const char *key, const char *path)
{
	DIR *dir = opendir(path);
	if (!dir)
		return trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(errno));
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if ((rc = trim__grow((void **)&names, &cap, n + 1, sizeof *names)) == 0 &&
		    !(names[n++] = trim__strdup(e->d_name)))
			rc = TRIM_ENOMEM;
	}
	closedir(dir);
	if (names)
		qsort(names, n, sizeof *names, by_name);
	trim__digest_str(d, key, "directory");
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t l = strlen(path) + strlen(names[i]) + 2;
		char *full = malloc(l);
		if (!full) {
			rc = trim__error(TRIM_ENOMEM, "out of memory");
			break;
		}
		snprintf(full, l, "%s/%s", path, names[i]);
		struct stat st;
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
			rc = file_bytes(d, names[i], full);
		free(full);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int trim__digest_file(trim__digest *d, const char *key, const char *path)
{
	if (!path)
		return trim__error(TRIM_EINVAL, "trim__digest_file: no path");
	struct stat st;
	if (stat(path, &st) != 0)
		return trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(errno));
	return S_ISDIR(st.st_mode) ? directory(d, key, path) : file_bytes(d, key, path);
}
