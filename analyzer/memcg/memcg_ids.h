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
/*
 * The memcg `row` is provably the only memcg a limit reclaim of it by task `pid` visits (the
 * task is in it now, on cgroup v2, and no memcg below it is known): see memcg_ids.c.
 */
bool mc_lone_memcg(struct rs_memcgs *m, int row, int pid);
void mc_ids_free(struct rs_memcgs *m);

#endif
