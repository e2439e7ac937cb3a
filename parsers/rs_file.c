// SPDX-License-Identifier: GPL-2.0
/* Input files are checked before they are opened: see include/rs_file.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rs_file.h"

/* The file types stat() tells apart (S_IFMT), as the refusals name them. */
static const struct {
	unsigned int type;
	const char *name;
} kinds[] = {
	{ S_IFDIR, "a directory" },		{ S_IFIFO, "a FIFO (pipe)" },
	{ S_IFCHR, "a character device" },	{ S_IFBLK, "a block device" },
	{ S_IFSOCK, "a socket" },		{ S_IFREG, "a regular file" },
};

const char *rs_file_kind(unsigned int mode)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((mode & S_IFMT) == kinds[i].type)
			return kinds[i].name;
	return "not a regular file";
}

static bool allowed(mode_t mode, bool allow_pipe)
{
	return S_ISREG(mode) || (allow_pipe && S_ISFIFO(mode));
}

int rs_file_open(const char *path, bool allow_pipe, struct rs_error *err)
{
	struct stat st;
	int fd, fl;

	if (stat(path, &st) < 0)
		return rs_error_set(err, "%s: cannot open: %s", path, strerror(errno));
	if (!allowed(st.st_mode, allow_pipe))
		goto refuse;
	/* O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return rs_error_set(err, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return rs_error_set(err, "%s: cannot stat: %s", path, strerror(e));
	}
	if (!allowed(st.st_mode, allow_pipe)) {
		close(fd);
		goto refuse;
	}
	/* reads block again while a writer is there; with none, a pipe reads as end of file */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
refuse:
	return rs_error_set(err, "%s: cannot read: %s, not a trace%s", path,
			    rs_file_kind(st.st_mode), allow_pipe ? " or a saved analysis" :
			    " (a trace is read more than once: it must be a regular file)");
}
