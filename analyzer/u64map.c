// SPDX-License-Identifier: GPL-2.0
/*
 * u64 key -> int map (include/u64map.h): open addressing, linear probing, doubling at half
 * full up to a cap of entries.
 */
#include <stdlib.h>
#include <string.h>

#include "u64map.h"

static int map_grow(struct rs_u64map *m)
{
	size_t n = m->slots ? m->slots * 2 : 256;
	uint64_t *k = calloc(n, sizeof(*k));
	int *v = calloc(n, sizeof(*v));

	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	for (size_t i = 0; i < m->slots; i++) {
		size_t s;

		if (!m->keys[i])
			continue;
		for (s = rs_u64map_hash(m->keys[i]) & (n - 1); k[s]; s = (s + 1) & (n - 1))
			;
		k[s] = m->keys[i];
		v[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = k;
	m->vals = v;
	m->slots = n;
	return 0;
}

int rs_u64map_put(struct rs_u64map *m, uint64_t key, int val)
{
	size_t s;

	if (m->slots) {
		for (s = rs_u64map_hash(key) & (m->slots - 1); m->keys[s]; s = (s + 1) & (m->slots - 1)) {
			if (m->keys[s] == key) {
				m->vals[s] = val;
				return 0;
			}
		}
	}
	if (m->max_used && m->used >= m->max_used)
		return -1;
	if ((m->used + 1) * 2 > m->slots && map_grow(m) < 0)
		return -1;
	for (s = rs_u64map_hash(key) & (m->slots - 1); m->keys[s]; s = (s + 1) & (m->slots - 1))
		;
	m->keys[s] = key;
	m->vals[s] = val;
	m->used++;
	return 0;
}

void rs_u64map_free(struct rs_u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
