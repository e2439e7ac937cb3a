/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the timeline needs from per-cgroup attribution, behind one small interface: the
 * cgroup a task is in (the trigger of its reclaim), id -> path, and which count_memcg_events
 * items are the scan / steal counters that name a reclaim victim (NOTES.md section 3).
 *
 * This is a stand-in until analyzer/memcg/cgroups.c (include/cgroups.h) lands: it learns from
 * the recorder's cgroup_map / task_cgroup markers, cgroup_mkdir/rename and
 * cgroup_attach_task events, fork inheritance, and the vm_event_items marker. It does not
 * tell cgroup v1 hierarchies apart (attach events of other controllers count too) and keeps
 * no history: a task's cgroup is the latest one seen. Wiring the real module means
 * reimplementing these functions over it; the timeline calls nothing else.
 *
 * Cgroups are numbered densely from 1 in the order they are first seen; 0 is "unknown".
 * Paths are owned by the map. Memory: cgroups + tasks seen, capped (TL_CGMAP_MAX_*).
 */
#ifndef TIMELINE_CGMAP_H
#define TIMELINE_CGMAP_H

#include <stdint.h>

#include "rs_event.h"

#define TL_CGMAP_MAX_CGROUPS	65536
#define TL_CGMAP_MAX_TASKS	(1 << 20)

/* count_memcg_events item classes */
enum tl_item_class { TL_ITEM_OTHER, TL_ITEM_SCAN, TL_ITEM_STEAL };

struct tl_cgmap;

struct tl_cgmap *tl_cgmap_new(void);
void tl_cgmap_free(struct tl_cgmap *m);

/* Learn from one event (any type; cheap for the ones it does not use). */
void tl_cgmap_event(struct tl_cgmap *m, const struct rs_event *ev);

/* Dense index of the cgroup `pid` is in now; 0 unknown. */
uint32_t tl_cgmap_task(const struct tl_cgmap *m, int pid);
/* Dense index of cgroup id `id`, created (with no path) when new; 0 for id 0 or when full. */
uint32_t tl_cgmap_id(struct tl_cgmap *m, uint64_t id);
/* The same, naming it `path` (a later name replaces an earlier one). */
uint32_t tl_cgmap_named(struct tl_cgmap *m, uint64_t id, const char *path);

/* Pseudo cgroup of kswapd's reclaim (its own cgroup means nothing as a trigger). */
#define TL_CG_KSWAPD_ID		UINT64_MAX
/* Class of a count_memcg_events item value (from the recorded item names). */
enum tl_item_class tl_cgmap_item_class(const struct tl_cgmap *m, int item);

int tl_cgmap_count(const struct tl_cgmap *m);		/* cgroups, index 1..count */
uint64_t tl_cgmap_cgid(const struct tl_cgmap *m, uint32_t idx);
/* Its path, "id:N" when only the id is known, "?" for 0. Valid until the next event
 * (a rename or a later path replaces it). */
const char *tl_cgmap_path(const struct tl_cgmap *m, uint32_t idx);

#endif
