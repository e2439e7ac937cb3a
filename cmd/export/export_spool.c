// SPDX-License-Identifier: GPL-2.0
/* The export's spool: closed episodes and instants, one record each, in a temporary file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

struct export_spool {
	FILE *f;
	int error;			/* first errno while writing or reading */
};

struct export_spool *export_spool_new(void)
{
	struct export_spool *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->f = tmpfile();	/* unlinked: nothing is left behind, whatever happens */
	if (!s->f) {
		free(s);
		return NULL;
	}
	return s;
}

void export_spool_free(struct export_spool *s)
{
	if (!s)
		return;
	fclose(s->f);
	free(s);
}

static void put(struct export_spool *s, const struct export_rec *r)
{
	if (!s->error && fwrite(r, sizeof(*r), 1, s->f) != 1)
		s->error = errno ? errno : EIO;
}

static void on_episode(void *arg, const struct rs_episode *ep)
{
	struct export_rec r;

	memset(&r, 0, sizeof(r));
	r.type = EXPORT_EPISODE;
	r.ep = *ep;
	put(arg, &r);
}

static int on_event(void *arg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct export_rec r;

	if (ev->type != RS_EV_OOM_VICTIM && ev->type != RS_EV_THROTTLED)
		return 0;
	memset(&r, 0, sizeof(r));
	r.ts = ev->ts;
	r.pid = ev->pid;
	r.task = ctx->task;
	r.ctx = ctx->kind;
	if (ev->type == RS_EV_OOM_VICTIM) {
		r.type = EXPORT_OOM;
		r.victim_pid = ev->oom.pid;
		if (ev->oom.comm)
			snprintf(r.victim_comm, sizeof(r.victim_comm), "%s", ev->oom.comm);
	} else {
		r.type = EXPORT_THROTTLE;
		r.reason = ev->throttled.reason;
		r.usec_delayed = ev->throttled.usec_delayed;
		r.usec_timeout = ev->throttled.usec_timeout;
	}
	put(arg, &r);
	return 0;
}

void export_spool_consumer(struct export_spool *s, struct rs_consumer *out)
{
	*out = (struct rs_consumer){ .name = "export", .arg = s, .event = on_event,
		.episode = on_episode };
}

int export_spool_error(const struct export_spool *s)
{
	return s->error;
}

int export_spool_rewind(struct export_spool *s)
{
	if (!s->error && (fflush(s->f) || fseek(s->f, 0, SEEK_SET)))
		s->error = errno ? errno : EIO;
	return s->error ? -1 : 0;
}

bool export_spool_next(struct export_spool *s, struct export_rec *r)
{
	if (s->error)
		return false;
	if (fread(r, sizeof(*r), 1, s->f) == 1)
		return true;
	if (ferror(s->f))
		s->error = errno ? errno : EIO;
	return false;
}

void export_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}
