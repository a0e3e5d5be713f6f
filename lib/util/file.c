/* Whole files as text (the resumable result files of explore and network). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

char *trim__file_text(const char *path, size_t *len, int *missing)
{
	*len = 0;
	if (missing)
		*missing = 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (missing)
			*missing = errno == ENOENT;
		trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - 1 - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (buf && ferror(f)) {
		trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	} else if (!buf) {
		trim__error(TRIM_ENOMEM, "out of memory reading %s", path);
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}
