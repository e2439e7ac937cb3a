// SPDX-License-Identifier: GPL-2.0
/* Output files that appear only complete: temporary file and rename (include/cmd_outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_outfile.h"

/*
 * A target that exists and is no regular file (a device such as /dev/null, a FIFO, a socket)
 * is written in place: renaming a file onto it would replace the device node with a regular
 * file. 1 when o->f is open on it, 0 when the target is a regular file or absent, -1 with
 * o->err set (a directory, or it cannot be opened).
 */
static int open_special(struct rs_outfile *o, const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0 || S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		snprintf(o->err, sizeof(o->err), "cannot write %s: %s", path, strerror(EISDIR));
		return -1;
	}
	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		snprintf(o->err, sizeof(o->err), "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	o->in_place = true;
	return 1;
}

int rs_outfile_open(struct rs_outfile *o, const char *path)
{
	const char *slash = strrchr(path, '/');
	mode_t mask;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!*path || (slash && !slash[1])) {
		snprintf(o->err, sizeof(o->err), "'%s' is not a file name", path);
		return -1;
	}
	switch (open_special(o, path)) {
	case 1:
		return 0;
	case -1:
		return -1;
	}
	/* DIR/.NAME.XXXXXX: hidden, and in the target's directory so that rename is atomic */
	if (asprintf(&o->tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0, path,
		     slash ? slash + 1 : path) < 0) {
		o->tmp = NULL;
		snprintf(o->err, sizeof(o->err), "out of memory");
		return -1;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		snprintf(o->err, sizeof(o->err), "cannot write %s: %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	/* mkstemp makes it 0600; a finished file gets the usual 0666 & ~umask */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(o->f = fdopen(fd, "w"))) {
		snprintf(o->err, sizeof(o->err), "cannot write %s: %s", path, strerror(errno));
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

int rs_outfile_commit(struct rs_outfile *o)
{
	int e = 0;

	if (!o->f)
		return -1;
	if (fflush(o->f) || ferror(o->f))
		e = errno ? errno : EIO;
	if (o->in_place && fclose(o->f) && !e)
		e = errno ? errno : EIO;
	if (!o->tmp) {
		o->f = NULL;
		if (e)
			snprintf(o->err, sizeof(o->err), "error writing output: %s", strerror(e));
		return e ? -1 : 0;
	}
	if (!e && fsync(fileno(o->f)) < 0 && errno != EINVAL)
		e = errno;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && rename(o->tmp, o->path) < 0)
		e = errno;
	if (e) {
		snprintf(o->err, sizeof(o->err), "cannot write %s: %s", o->path, strerror(e));
		unlink(o->tmp);
	}
	free(o->tmp);
	o->tmp = NULL;
	return e ? -1 : 0;
}

void rs_outfile_abort(struct rs_outfile *o)
{
	if (o->f && (o->tmp || o->in_place))
		fclose(o->f);
	o->f = NULL;
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
}
