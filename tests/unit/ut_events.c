// SPDX-License-Identifier: GPL-2.0
/* Synthetic events and one-consumer analyses for the unit tests (ut_events.h). */
#include <string.h>

#include "ut_events.h"

struct rs_event ut_event(enum rs_ev_type t, uint64_t ts, int pid, const char *comm)
{
	struct rs_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = t;
	ev.ts = ts;
	ev.pid = pid;
	ev.comm = comm;
	return ev;
}

struct rs_analysis *ut_analysis(const struct rs_consumer *c, const struct rs_analysis_opts *o,
				struct rs_error *err)
{
	struct rs_analysis_opts ao = { .pid = -1 };

	if (o)
		ao = *o;
	ao.consumers = c;
	ao.nr_consumers = 1;
	return rs_analysis_new(&ao, err);
}

uint64_t ut_event_count(const struct rs_source *src, const char *name)
{
	const struct rs_event_count *c;
	size_t n = rs_source_event_counts(src, &c);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return c[i].count;
	return 0;
}
