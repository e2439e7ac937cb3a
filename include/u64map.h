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

int rs_u64map_get(const struct rs_u64map *m, uint64_t key);	/* -1 when absent */
/* Insert or replace; -1 when the cap is reached or memory ran out. */
int rs_u64map_put(struct rs_u64map *m, uint64_t key, int val);
void rs_u64map_free(struct rs_u64map *m);
/* The map's hash, for callers hashing other keys the same way. */
size_t rs_u64map_hash(uint64_t k);

#endif
