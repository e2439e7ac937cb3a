/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output file that appears only complete: the command writes a temporary file beside the
 * target (same directory, so rename is atomic) and renames it at commit; on any failure the
 * temporary file is removed and an existing target is left as it was. "-" is stdout; a target
 * that exists and is no regular file (/dev/null, a FIFO) is written in place.
 *
 *   rs_outfile_open(&o, path) -> fprintf(o.f, ...)... -> rs_outfile_commit(&o) or _abort(&o)
 */
#ifndef RS_CMD_OUTFILE_H
#define RS_CMD_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct rs_outfile {
	const char *path;		/* the target, as given */
	char *tmp;			/* the temporary file; NULL for stdout and in place */
	FILE *f;
	bool in_place;			/* f is the target itself, a device or FIFO */
	char err[256];			/* why open or commit failed */
};

/* 0, or -1 with o->err set (nothing is left behind). */
int rs_outfile_open(struct rs_outfile *o, const char *path);
/* Flush, check, close and rename. 0, or -1 with o->err set and the temporary file removed. */
int rs_outfile_commit(struct rs_outfile *o);
/* Close and remove the temporary file (no-op after commit). */
void rs_outfile_abort(struct rs_outfile *o);

#endif
