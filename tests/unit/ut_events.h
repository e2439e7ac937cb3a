/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit tests that feed synthetic traces share: an event of a type at a time by a task,
 * an analysis with one consumer, and the loader's count of an event by name.
 */
#ifndef UT_EVENTS_H
#define UT_EVENTS_H

#include <stdint.h>

#include "analysis.h"
#include "trace_source.h"

/* A zeroed event of type t at ts by pid/comm (CPU 0, no field present). */
struct rs_event ut_event(enum rs_ev_type t, uint64_t ts, int pid, const char *comm);

/* The recorder's cgroup id -> path line. */
struct rs_event ut_cgroup_map(uint64_t ts, int pid, const char *comm, uint64_t id,
			      const char *path);
/* A recorder's item-name line (which: RS_ITEMS_*) of count names. */
struct rs_event ut_items(uint64_t ts, int pid, const char *comm, int which, int count,
			 const char *const *names);

/* An item number and the name the recorder gives it; a list ends with a NULL name. */
struct ut_item {
	int item;
	const char *name;
};

/* names[0..count) = filler (NULL: left as they are), then the name of each listed item. */
void ut_name_items(const char **names, int count, const char *filler,
		   const struct ut_item *named);

/* count_memcg_events or mod_memcg_lruvec_state (t): memcg id, item, val. */
struct rs_event ut_memcg(enum rs_ev_type t, uint64_t ts, int pid, const char *comm, uint64_t id,
			 int item, int64_t val);
/* Reclaim begin or end (t) of kind k; nr is nr_reclaimed. No field flag set. */
struct rs_event ut_reclaim(enum rs_ev_type t, uint64_t ts, int pid, const char *comm,
			   enum rs_reclaim_kind k, uint64_t nr);
/* A 4.11+ lru_isolate of one list: no node, the list and order present. */
struct rs_event ut_isolate(uint64_t ts, int pid, const char *comm, int lru, uint64_t req,
			   uint64_t scanned, uint64_t taken);
/* lru_shrink_inactive on node 0: node, priority and split activation counts present. */
struct rs_event ut_shrink_inactive(uint64_t ts, int pid, const char *comm, int prio,
				   unsigned int flags, uint64_t scanned, uint64_t reclaimed);

/*
 * An analysis of every task (o NULL: default options, pid -1) whose only consumer is c; the
 * caller's options keep their own pid. NULL with err set on failure.
 */
struct rs_analysis *ut_analysis(const struct rs_consumer *c, const struct rs_analysis_opts *o,
				struct rs_error *err);

/* How many events of this name the loader counted in src; 0 when none. */
uint64_t ut_event_count(const struct rs_source *src, const char *name);

#endif
