/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening an input file without ever blocking on it: the type is checked with stat() before
 * open(), and again with fstat() after (a path can change in between). Traces are read more
 * than once, so they must be regular files; a pipe makes sense only for a stream read once
 * (diff's saved analysis, `<(reclaimscope analyze --json ...)`).
 */
#ifndef RS_FILE_H
#define RS_FILE_H

#include <stdbool.h>

#include "rs_error.h"

/*
 * Open `path` read-only. Regular files always; with allow_pipe also a FIFO or pipe, read as a
 * stream: a FIFO that no process writes to reads as empty instead of waiting. Anything else
 * (directory, device, socket) is refused with err naming what it is. Returns the fd or -1.
 */
int rs_file_open(const char *path, bool allow_pipe, struct rs_error *err);

/* "a FIFO", "a directory", ... for a st_mode that is not a regular file. */
const char *rs_file_kind(unsigned int mode);

#endif
