/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A task's open reclaim episodes as a consumer of the episodes module keeps them beside its own
 * data: a few slots keyed by the episode's serial, 0 a free slot (ep_slots.c). Used by the
 * victim matching (memcg_match.c) and the per-cgroup attribution (cgroup_*.c).
 */
#ifndef RS_EP_SLOTS_H
#define RS_EP_SLOTS_H

#include <stdint.h>

/* The slot of serial among serials[0..n), or -1 (always for serial 0). */
int ep_slot_find(const uint64_t *serials, int n, uint64_t serial);

/*
 * The slot for a new episode: a free one, else the oldest (its end was lost and the episodes
 * module closed it). serials[slot] is set to serial; the caller resets the slot's data.
 */
int ep_slot_take(uint64_t *serials, int n, uint64_t serial);

#endif
