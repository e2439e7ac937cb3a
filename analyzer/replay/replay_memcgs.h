/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay input's memcg table and world updates (replay_memcgs.c).
 */
#ifndef RS_REPLAY_MEMCGS_H
#define RS_REPLAY_MEMCGS_H

#include "replay_input_state.h"

int ri_memcg_by_id(struct rs_replay_input *ri, uint64_t id, bool create);
/* A memcg_stat without id=: its path alone (merged by path at the end). */
int ri_memcg_by_path(struct rs_replay_input *ri, const char *path, bool create);
void ri_memcg_set_path(struct rs_replay_input *ri, int i, const char *path, int hroot);
int ri_add_update(struct rs_replay_input *ri, const struct rs_world_update *u);
void ri_update(struct rs_replay_input *ri, uint64_t ts, uint64_t off, int field, int op,
	       int src, int memcg, int nid, int lru, int64_t v);
/* Memcg i has deltas pending; ri_flush_deltas() turns them into updates. */
void ri_mark_dirty(struct rs_replay_input *ri, int i);
void ri_flush_deltas(struct rs_replay_input *ri);

#endif
