// SPDX-License-Identifier: GPL-2.0
/*
 * Small reads and writes of tracefs, cgroupfs, procfs and sysfs files. These files are read in
 * one read() and written in one write(): the kernel parses a write as a whole, so a short or split
 * write would set something else than we meant.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record_private.h"

int rec_read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	int fd, saved;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* procfs files such as /proc/zoneinfo come in several reads; loop to EOF or full. */
	while (got < len - 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	while (got > 0 && buf[got - 1] == '\n')
		buf[--got] = '\0';
	return 0;
}

int rec_write_file(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, saved;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do {
		n = write(fd, val, len);
	} while (n < 0 && errno == EINTR);
	saved = errno;
	if (close(fd) < 0 && n >= 0)
		return -1;
	if (n < 0) {
		errno = saved;
		return -1;
	}
	if ((size_t)n != len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int rec_cgroup_bytes(struct rec *r, const char *rel, const char *file, unsigned long long *out)
{
	char path[PATH_MAX];
	uint64_t v;

	if (snprintf(path, sizeof(path), "%s%s/%s", r->mem.mnt, rel, file) >= (int)sizeof(path) ||
	    rec_read_bytes(r, path, &v))
		return -1;
	*out = v;
	return 0;
}

int rec_read_bytes(struct rec *r, const char *path, uint64_t *out)
{
	char buf[64], *end;

	if (rec_read_file(path, buf, sizeof(buf)))
		return -1;
	if (!strcmp(buf, "max")) {
		/* v1 writes "no limit" as the largest page-aligned long: use the same number */
		*out = (uint64_t)(INT64_MAX / r->page_size) * (uint64_t)r->page_size;
		return 0;
	}
	errno = 0;
	*out = strtoull(buf, &end, 10);
	if (errno || end == buf || *end) {
		errno = errno ? errno : EINVAL;
		return -1;
	}
	return 0;
}
