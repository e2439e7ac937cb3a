/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The strings an rs_event points at besides its comm, by its type: what the fuzz harnesses read
 * to the last byte and the text loader's unit test copies before the loader's callback returns.
 * One table for both, so a string a loader starts to hand out is read by the two of them. Names
 * that are an array (RS_EV_ITEM_NAMES) and names looked up from a number are the caller's.
 */
#ifndef RS_TEST_EVENT_STRINGS_H
#define RS_TEST_EVENT_STRINGS_H

#include <stddef.h>

#include "rs_event.h"

#define RS_EV_MAX_STRINGS 3

/* Where each type's strings are in struct rs_event; 0 (the type, never a string) ends a row. */
#define RS_EV_STR(f) offsetof(struct rs_event, f)
static const size_t rs_event_string_at[RS_EV_NR_TYPES][RS_EV_MAX_STRINGS + 1] = {
	[RS_EV_MARKER] = { RS_EV_STR(marker) },
	[RS_EV_META] = { RS_EV_STR(meta.kind), RS_EV_STR(meta.text) },
	[RS_EV_SLAB_START] = { RS_EV_STR(slab.shrink_name) },
	[RS_EV_SLAB_END] = { RS_EV_STR(slab.shrink_name) },
	[RS_EV_CGROUP] = { RS_EV_STR(cgroup.path), RS_EV_STR(cgroup.comm) },
	[RS_EV_CGROUP_ATTACH] = { RS_EV_STR(cgroup.path), RS_EV_STR(cgroup.comm) },
	[RS_EV_FORK] = { RS_EV_STR(task.comm), RS_EV_STR(task.child_comm),
			 RS_EV_STR(task.filename) },
	[RS_EV_EXEC] = { RS_EV_STR(task.comm), RS_EV_STR(task.child_comm),
			 RS_EV_STR(task.filename) },
	[RS_EV_EXIT] = { RS_EV_STR(task.comm), RS_EV_STR(task.child_comm),
			 RS_EV_STR(task.filename) },
	[RS_EV_OOM_VICTIM] = { RS_EV_STR(oom.comm) },
	[RS_EV_CGROUP_MAP] = { RS_EV_STR(cgroup_map.path) },
	[RS_EV_TASK_CGROUP] = { RS_EV_STR(task_cgroup.path) },
	[RS_EV_SNAP_MEMCG] = { RS_EV_STR(snap_memcg.path) },
};
#undef RS_EV_STR

/* The event's strings in out[], NULLs among them; how many its type has. */
static inline int rs_event_strings(const struct rs_event *ev, const char *out[RS_EV_MAX_STRINGS])
{
	const size_t *at = rs_event_string_at[ev->type];
	int n = 0;

	while (n < RS_EV_MAX_STRINGS && at[n]) {
		out[n] = *(const char *const *)((const char *)ev + at[n]);
		n++;
	}
	return n;
}

#endif
