#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

void trim__sb_init(trim__sb *sb) { memset(sb, 0, sizeof *sb); }

void trim__sb_free(trim__sb *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof *sb);
}

static int sb_reserve(trim__sb *sb, size_t extra)
{
	if (sb->failed)
		return -1;
	if (sb->len + extra + 1 <= sb->cap)
		return 0;
	size_t ncap = sb->cap ? sb->cap : 256;
	while (ncap < sb->len + extra + 1)
		ncap *= 2;
	char *p = realloc(sb->buf, ncap);
	if (!p) {
		sb->failed = 1;
		return -1;
	}
	sb->buf = p;
	sb->cap = ncap;
	return 0;
}

void trim__sb_printf(trim__sb *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char tmp[256];
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (sb_reserve(sb, (size_t)n))
		return;
	if ((size_t)n < sizeof tmp) {
		memcpy(sb->buf + sb->len, tmp, (size_t)n + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

void trim__sb_puts(trim__sb *sb, const char *s)
{
	size_t n = strlen(s);
	if (sb_reserve(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n + 1);
	sb->len += n;
}

void trim__sb_putc(trim__sb *sb, char c)
{
	if (sb_reserve(sb, 1))
		return;
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void trim__sb_json_str(trim__sb *sb, const char *s)
{
	trim__sb_putc(sb, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '"': trim__sb_puts(sb, "\\\""); break;
		case '\\': trim__sb_puts(sb, "\\\\"); break;
		case '\n': trim__sb_puts(sb, "\\n"); break;
		case '\t': trim__sb_puts(sb, "\\t"); break;
		case '\r': trim__sb_puts(sb, "\\r"); break;
		default:
			if (c < 0x20)
				trim__sb_printf(sb, "\\u%04x", c);
			else
				trim__sb_putc(sb, (char)c);
		}
	}
	trim__sb_putc(sb, '"');
}

void trim__sb_json_double(trim__sb *sb, double v)
{
	if (!isfinite(v))
		trim__sb_puts(sb, "null");
	else if (v == floor(v) && fabs(v) < 9e15)
		trim__sb_printf(sb, "%.0f", v);
	else
		trim__sb_printf(sb, "%.17g", v);
}

void trim__sb_csv_str(trim__sb *sb, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		trim__sb_puts(sb, s);
		return;
	}
	trim__sb_putc(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			trim__sb_putc(sb, '"');
		trim__sb_putc(sb, *s);
	}
	trim__sb_putc(sb, '"');
}

int trim__sb_take(trim__sb *sb, char **out)
{
	if (sb->failed || sb_reserve(sb, 0)) {
		trim__sb_free(sb);
		*out = NULL;
		return trim__error(TRIM_ENOMEM, "out of memory building text");
	}
	sb->buf[sb->len] = '\0'; /* also an empty text: nothing written yet */
	*out = sb->buf;
	memset(sb, 0, sizeof *sb);
	return 0;
}

/* The temporary file is created with mode 0666 less the umask (as fopen
 * would), under a name unique to this process and call. */
static int create_temp(const char *path, char *tmp, size_t n)
{
	static unsigned long counter;
	for (int attempt = 0; attempt < 100; attempt++) {
		unsigned long k = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		snprintf(tmp, n, "%s.tmp%ld.%lu", path, (long)getpid(), k);
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int trim__write_file_atomic(const char *path, const char *data, size_t len)
{
	size_t n = strlen(path) + 64;
	char *tmp = malloc(n);
	if (!tmp)
		return trim__error(TRIM_ENOMEM, "out of memory");
	int fd = create_temp(path, tmp, n);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return trim__error(TRIM_EIO, "%s: cannot create file: %s", path, strerror(e));
	}
	FILE *f = fdopen(fd, "wb");
	int rc = 0;
	if (!f || fwrite(data, 1, len, f) != len)
		rc = trim__error(TRIM_EIO, "%s: write failed: %s", path, strerror(errno));
	if (f) {
		if (fclose(f) != 0 && rc == 0)
			rc = trim__error(TRIM_EIO, "%s: write failed: %s", path, strerror(errno));
	} else {
		close(fd);
	}
	if (rc == 0 && rename(tmp, path) != 0)
		rc = trim__error(TRIM_EIO, "%s: cannot write file: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}
