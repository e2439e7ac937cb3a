// SPDX-License-Identifier: GPL-2.0
/*
 * The replay input's memcg table (replay_memcgs.h): id (or path hash | 1 << 63) -> index, paths
 * and hierarchies; the world updates, with LRU deltas coalesced per memcg until the next
 * reclaim invocation flushes them.
 */
#include <stdlib.h>
#include <string.h>

#include "replay_memcgs.h"
#include "replay_report.h"
#include "u64map.h"

/* ---- memcg table: id (or path hash | 1 << 63) -> index ---- */

static uint64_t path_key(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return h | (UINT64_C(1) << 63);
}

static int memcg_new(struct rs_replay_input *ri, uint64_t key)
{
	struct ri_memcg *m;
	size_t cap = (size_t)ri->capmc;

	if (ri->nmc >= RS_RI_MAX_MEMCGS) {
		ri->rep.memcgs_untracked++;
		return -1;
	}
	if (ri_grow((void **)&ri->mc, &cap, (size_t)ri->nmc + 1, sizeof(*ri->mc)) ||
	    rs_u64map_put(&ri->memcg_map, key, ri->nmc)) {
		ri->oom = true;
		return -1;
	}
	ri->capmc = (int)cap;
	m = &ri->mc[ri->nmc];
	memset(m, 0, sizeof(*m));
	m->hroot = -1;
	m->seq = (uint32_t)ri->nmc;
	m->swappiness = -1;
	m->limit = m->soft = RS_UNLIMITED;
	m->merged = -1;
	m->world = -1;
	m->samp_step = 1;
	return ri->nmc++;
}

int ri_memcg_by_id(struct rs_replay_input *ri, uint64_t id, bool create)
{
	int i;

	if (!id || id >> 63)
		return -1;
	i = rs_u64map_get(&ri->memcg_map, id);
	if (i >= 0 || !create)
		return i;
	i = memcg_new(ri, id);
	if (i >= 0)
		ri->mc[i].id = id;
	return i;
}

int ri_memcg_by_path(struct rs_replay_input *ri, const char *path, bool create)
{
	uint64_t key = path_key(path);
	int i = rs_u64map_get(&ri->memcg_map, key);

	if (i >= 0 && ri->mc[i].path && !strcmp(ri->mc[i].path, path))
		return i;
	if (i >= 0) {	/* hash collision: look the slow way */
		for (int k = 0; k < ri->nmc; k++)
			if ((ri->mc[k].flags & RI_MF_PATHONLY) && ri->mc[k].path &&
			    !strcmp(ri->mc[k].path, path))
				return k;
	}
	if (!create)
		return -1;
	i = memcg_new(ri, key);
	if (i < 0)
		return -1;
	ri->mc[i].path = strdup(path);
	if (!ri->mc[i].path)
		ri->oom = true;
	ri->mc[i].flags |= RI_MF_PATHONLY;
	return i;
}

void ri_memcg_set_path(struct rs_replay_input *ri, int i, const char *path, int hroot)
{
	struct ri_memcg *m = &ri->mc[i];

	if (!path || !*path)
		return;
	if (m->path && !strcmp(m->path, path) && (hroot < 0 || m->hroot == hroot))
		return;
	free(m->path);
	m->path = strdup(path);
	if (!m->path)
		ri->oom = true;
	if (hroot >= 0 || m->hroot < 0)
		m->hroot = hroot;
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
