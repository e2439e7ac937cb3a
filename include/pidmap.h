/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pid -> index of the task's row, for the tables that look up the task of every event
 * (episodes.c, replay_input.c): an rs_u64map keyed by the pid's 32 bits + 1 (never the empty
 * key 0, whatever a trace's pid field holds), with the last pid found kept in front of it,
 * since a trace's events come in runs of one task. Zero-initialised is an empty map;
 * rs_pidmap_free() releases it.
 */
#ifndef RS_PIDMAP_H
#define RS_PIDMAP_H

#include <stdint.h>

#include "u64map.h"

struct rs_pidmap {
	struct rs_u64map map;
	uint64_t last_key;		/* key of the last pid found or stored; 0: none */
	int last;			/* its index */
};

static inline uint64_t rs_pidmap_key(int pid)
{
	return (uint64_t)(uint32_t)pid + 1;
}

/* The index of pid, or -1 when absent. */
static inline int rs_pidmap_get(struct rs_pidmap *p, int pid)
{
	uint64_t key = rs_pidmap_key(pid);
	int i;

	if (key == p->last_key)
		return p->last;
	i = rs_u64map_get(&p->map, key);
	if (i >= 0) {
		p->last_key = key;
		p->last = i;
	}
	return i;
}

/* Store pid's index; -1 when memory ran out. */
static inline int rs_pidmap_put(struct rs_pidmap *p, int pid, int index)
{
	uint64_t key = rs_pidmap_key(pid);

	if (rs_u64map_put(&p->map, key, index) < 0)
		return -1;
	p->last_key = key;
	p->last = index;
	return 0;
}

static inline void rs_pidmap_free(struct rs_pidmap *p)
{
	rs_u64map_free(&p->map);
}

#endif
