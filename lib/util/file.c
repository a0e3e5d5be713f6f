/* Whole files as text: the resumable result files of explore and network
 * (their point and search files), read only when they are regular files
 * no larger than TRIM__RESULT_FILE_MAX. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* What a file that is not a regular one is. */
static const char *kind_of(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* 0 if st is a regular file of at most the cap, else the error naming path. */
static int readable(const char *path, const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return trim__error(TRIM_EIO, "%s: not a regular file (%s)", path, kind_of(st->st_mode));
	if (st->st_size > TRIM__RESULT_FILE_MAX)
		return trim__error(TRIM_EIO, "%s: %lld bytes, larger than any result file (%d MiB)", path,
		                   (long long)st->st_size, TRIM__RESULT_FILE_MAX >> 20);
	return 0;
}

char *trim__result_file_text(const char *path, size_t *len, int *missing)
{
	*len = 0;
	if (missing)
		*missing = 0;
	/* stat first: a FIFO or a device is never opened (opening one may
	 * block or act); fstat again after the open, in case the entry was
	 * replaced in between */
	struct stat st;
	if (stat(path, &st) != 0) {
		if (missing)
			*missing = errno == ENOENT;
		trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	if (readable(path, &st))
		return NULL;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (missing)
			*missing = errno == ENOENT;
		trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (readable(path, &st)) {
		close(fd);
		return NULL;
	}
	/* the size it has now, plus what it may have grown by: at most the cap
	 * and one byte (a file that grows past the cap is not read further) */
	size_t cap = (size_t)st.st_size + 1 + 4096, n = 0;
	if (cap > (size_t)TRIM__RESULT_FILE_MAX + 1)
		cap = (size_t)TRIM__RESULT_FILE_MAX + 1;
	char *buf = malloc(cap + 1);
	int err = 0;
	while (buf && n < cap) {
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = errno;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n == cap && cap <= (size_t)TRIM__RESULT_FILE_MAX) { /* it grew: a little more room */
			size_t more = cap * 2 > (size_t)TRIM__RESULT_FILE_MAX + 1 ? (size_t)TRIM__RESULT_FILE_MAX + 1 : cap * 2;
			char *nb = realloc(buf, more + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap = more;
		}
	}
	close(fd);
	if (!buf) {
		trim__error(TRIM_ENOMEM, "out of memory reading %s", path);
		return NULL;
	}
	if (err || n > (size_t)TRIM__RESULT_FILE_MAX) {
		if (err)
			trim__error(TRIM_EIO, "%s: cannot read: %s", path, strerror(err));
		else
			trim__error(TRIM_EIO, "%s: grew past %d MiB as it was read", path,
			            TRIM__RESULT_FILE_MAX >> 20);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}
