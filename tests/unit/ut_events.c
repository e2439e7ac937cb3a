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

struct rs_event ut_cgroup_map(uint64_t ts, int pid, const char *comm, uint64_t id,
			      const char *path)
{
	struct rs_event ev = ut_event(RS_EV_CGROUP_MAP, ts, pid, comm);

	ev.cgroup_map.id = id;
	ev.cgroup_map.path = path;
	return ev;
}

struct rs_event ut_items(uint64_t ts, int pid, const char *comm, int which, int count,
			 const char *const *names)
{
	struct rs_event ev = ut_event(RS_EV_ITEM_NAMES, ts, pid, comm);

	ev.items.which = which;
	ev.items.count = count;
	ev.items.names = names;
	return ev;
}

void ut_name_items(const char **names, int count, const char *filler,
		   const struct ut_item *named)
{
	for (int i = 0; filler && i < count; i++)
		names[i] = filler;
	for (; named->name; named++)
		names[named->item] = named->name;
}

struct rs_event ut_memcg(enum rs_ev_type t, uint64_t ts, int pid, const char *comm, uint64_t id,
			 int item, int64_t val)
{
	struct rs_event ev = ut_event(t, ts, pid, comm);

	ev.memcg.id = id;
	ev.memcg.item = item;
	ev.memcg.val = val;
	return ev;
}

struct rs_event ut_reclaim(enum rs_ev_type t, uint64_t ts, int pid, const char *comm,
			   enum rs_reclaim_kind k, uint64_t nr)
{
	struct rs_event ev = ut_event(t, ts, pid, comm);

	ev.reclaim.kind = k;
	ev.reclaim.nr_reclaimed = nr;
	return ev;
}

struct rs_event ut_isolate(uint64_t ts, int pid, const char *comm, int lru, uint64_t req,
			   uint64_t scanned, uint64_t taken)
{
	struct rs_event ev = ut_event(RS_EV_LRU_ISOLATE, ts, pid, comm);

	ev.isolate.nid = -1;
	ev.isolate.lru = lru;
	ev.isolate.nr_requested = req;
	ev.isolate.nr_scanned = scanned;
	ev.isolate.nr_taken = taken;
	ev.have = RS_HAVE_LRU | RS_HAVE_ORDER;
	return ev;
}

struct rs_event ut_shrink_inactive(uint64_t ts, int pid, const char *comm, int prio,
				   unsigned int flags, uint64_t scanned, uint64_t reclaimed)
{
	struct rs_event ev = ut_event(RS_EV_SHRINK_INACTIVE, ts, pid, comm);

	ev.inactive.nid = 0;
	ev.inactive.priority = prio;
	ev.inactive.reclaim_flags = flags;
	ev.inactive.nr_scanned = scanned;
	ev.inactive.nr_reclaimed = reclaimed;
	ev.have = RS_HAVE_NID | RS_HAVE_PRIORITY | RS_HAVE_ACTIVATE_SPLIT;
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
