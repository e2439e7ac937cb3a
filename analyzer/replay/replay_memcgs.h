/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay input's memcgs, by the loading stage's rows, and world updates (replay_memcgs.c).
 */
#ifndef RS_REPLAY_MEMCGS_H
#define RS_REPLAY_MEMCGS_H

#include "replay_input_state.h"

struct rs_memcg;

/* The replay's state of memcg row `row`, made when new; NULL for -1 or out of memory. */
struct ri_memcg *ri_memcg_at(struct rs_replay_input *ri, int row);
/* `row` when it is one memcg, -1 for none and the loading stage's shared rows (the overflow
   row past its cap, the unknown tasks' row): those count in the root. */
int ri_memcg_row(const struct rs_replay_input *ri, int row);
/* Who row is (id, path, flags): the loading stage's; NULL for -1. */
const struct rs_memcg *ri_memcg_id(const struct rs_replay_input *ri, int row);
bool ri_memcg_is_root(const struct rs_replay_input *ri, int row);	/* path "/" */
int ri_add_update(struct rs_replay_input *ri, const struct rs_world_update *u);
void ri_update(struct rs_replay_input *ri, uint64_t ts, uint64_t off, int field, int op,
	       int src, int memcg, int nid, int lru, int64_t v);
/* Memcg i has deltas pending; ri_flush_deltas() turns them into updates. */
void ri_mark_dirty(struct rs_replay_input *ri, int i);
void ri_flush_deltas(struct rs_replay_input *ri);

#endif
