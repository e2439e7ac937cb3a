// SPDX-License-Identifier: GPL-2.0
/*
 * The replay input's memcgs (replay_memcgs.h): the sizes, limits and deltas of the loading
 * stage's memcg rows (memcg_attrib.h says who each is: id, path, task memcgs, victims); the
 * world updates, with LRU deltas coalesced per memcg until the next reclaim invocation flushes
 * them.
 */
#include <stdlib.h>
#include <string.h>

#include "memcg_attrib.h"
#include "replay_memcgs.h"
#include "replay_report.h"

/* ---- memcgs: the loading stage's rows ---- */

struct ri_memcg *ri_memcg_at(struct rs_replay_input *ri, int row)
{
	size_t cap = (size_t)ri->capmc;

	if (row < 0)
		return NULL;
	if (row >= ri->nmc) {
		if (ri_grow((void **)&ri->mc, &cap, (size_t)row + 1, sizeof(*ri->mc))) {
			ri->oom = true;
			return NULL;
		}
		ri->capmc = (int)cap;
		for (int i = ri->nmc; i <= row; i++) {
			struct ri_memcg *m = &ri->mc[i];

			memset(m, 0, sizeof(*m));
			m->swappiness = -1;
			m->limit = m->soft = RS_UNLIMITED;
			m->world = -1;
			m->samp_step = 1;
		}
		ri->nmc = row + 1;
	}
	return &ri->mc[row];
}

int ri_memcg_row(const struct rs_replay_input *ri, int row)
{
	const struct rs_memcg *m = ri->memcgs ? rs_memcgs_get(ri->memcgs, row) : NULL;

	return m && !(m->flags & (RS_CGF_OVERFLOW | RS_CGF_UNKNOWN_TASKS)) ? row : -1;
}

const struct rs_memcg *ri_memcg_id(const struct rs_replay_input *ri, int row)
{
	return ri->memcgs && row >= 0 ? rs_memcgs_get(ri->memcgs, row) : NULL;
}

bool ri_memcg_is_root(const struct rs_replay_input *ri, int row)
{
	const struct rs_memcg *m = ri_memcg_id(ri, row);

	return m && m->path && !strcmp(m->path, "/");
}

/* ---- updates ---- */

int ri_add_update(struct rs_replay_input *ri, const struct rs_world_update *u)
{
	if (ri_grow((void **)&ri->upd, &ri->capupd, ri->nupd + 1, sizeof(*ri->upd))) {
		ri->oom = true;
		return -1;
	}
	ri->upd[ri->nupd++] = *u;
	return 0;
}

void ri_update(struct rs_replay_input *ri, uint64_t ts, uint64_t off, int field, int op,
		   int src, int memcg, int nid, int lru, int64_t v)
{
	struct rs_world_update u = {
		.ts = ts, .field = (uint8_t)field, .op = (uint8_t)op, .src = (uint8_t)src,
		.lru = (uint8_t)lru, .memcg = memcg, .nid = nid, .value = v, .ev_offset = off,
	};

	ri_add_update(ri, &u);
}

void ri_flush_deltas(struct rs_replay_input *ri)
{
	for (int d = 0; d < ri->ndirty; d++) {
		int i = ri->dirty[d];
		struct ri_memcg *m = &ri->mc[i];

		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			if (!m->pend[l])
				continue;
			ri_update(ri, m->pend_ts, m->delta.last_offset, RS_WF_LRU, RS_WOP_ADD,
			       RS_WSRC_DELTA, i, 0, l, m->pend[l]);
			ri->rep.delta_updates++;
			m->pend[l] = 0;
		}
		for (int k = 0; k < 4; k++) {
			if (!m->ws_pend[k])
				continue;
			ri_update(ri, m->ws_ts, m->ws.last_offset,
			       k < 2 ? RS_WF_WS_ACTIVATE : RS_WF_WS_RESTORE, RS_WOP_ADD,
			       RS_WSRC_DELTA, i, 0, k & 1, m->ws_pend[k]);
			m->ws_pend[k] = 0;
		}
		m->dirty = false;
	}
	ri->ndirty = 0;
}

void ri_mark_dirty(struct rs_replay_input *ri, int i)
{
	size_t cap = (size_t)ri->capdirty;

	if (ri->mc[i].dirty)
		return;
	if (ri_grow((void **)&ri->dirty, &cap, (size_t)ri->ndirty + 1, sizeof(int))) {
		ri->oom = true;
		return;
	}
	ri->capdirty = (int)cap;
	ri->dirty[ri->ndirty++] = i;
	ri->mc[i].dirty = true;
}
