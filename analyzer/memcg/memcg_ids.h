/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memcg identity of the loading stage (memcg_ids.c): rows by id and path, the memory
 * hierarchy, task -> memcg.
 */
#ifndef RS_MEMCG_IDS_H
#define RS_MEMCG_IDS_H

#include "memcg_state.h"

int mc_of_id(struct rs_memcgs *m, uint64_t id);		/* made unnamed when new */
int mc_learn(struct rs_memcgs *m, uint64_t id, const char *path, unsigned int flag);
/* An identity event (markers, cgroup events, snapshots, forks); the row it names or -1. */
int mc_identity_event(struct rs_memcgs *m, const struct rs_event *ev);
void mc_ids_free(struct rs_memcgs *m);

#endif
