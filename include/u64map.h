/* SPDX-License-Identifier: GPL-2.0 */
/*
 * u64 key -> int map for the analyzer's tables (memcg ids, pids, matrix cells): open
 * addressing, growing to a cap. Key 0 means "empty": store key + 1 when 0 is a valid key.
 * Zero-initialised is an empty map; rs_u64map_free() releases it.
 */
#ifndef RS_U64MAP_H
#define RS_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct rs_u64map {
	uint64_t *keys;
	int *vals;
	size_t slots, used;		/* slots: power of two */
	size_t max_used;		/* cap on entries; 0: none */
};

/* The map's hash, for callers hashing other keys the same way. */
static inline size_t rs_u64map_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

/* -1 when absent; inline: the analyzer looks keys up per event */
static inline int rs_u64map_get(const struct rs_u64map *m, uint64_t key)
{
	size_t mask = m->slots - 1;

	if (!m->slots)
		return -1;
	for (size_t s = rs_u64map_hash(key) & mask; m->keys[s]; s = (s + 1) & mask)
		if (m->keys[s] == key)
			return m->vals[s];
	return -1;
}

/* Insert or replace; -1 when the cap is reached or memory ran out. */
int rs_u64map_put(struct rs_u64map *m, uint64_t key, int val);
void rs_u64map_free(struct rs_u64map *m);

#endif
