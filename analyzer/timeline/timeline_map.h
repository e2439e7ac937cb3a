/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small open-addressing map from a 64-bit key to a non-zero 32-bit value, for the
 * timeline modules (analyzer/timeline_*.c only). Slots hold value 0 when empty; the table
 * doubles at half full, so lookups stay short. No deletion: the timeline only adds.
 */
#ifndef TIMELINE_MAP_H
#define TIMELINE_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct tl_map {
	uint64_t *keys;
	uint32_t *vals;			/* 0 = empty slot */
	size_t size, used;		/* size: power of two or 0 */
};

static inline size_t tl_map_hash(uint64_t k, size_t size)
{
	return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 17) & (size - 1);
}

static inline uint32_t tl_map_get(const struct tl_map *m, uint64_t key)
{
	if (!m->size)
		return 0;
	for (size_t s = tl_map_hash(key, m->size);; s = (s + 1) & (m->size - 1)) {
		if (!m->vals[s])
			return 0;
		if (m->keys[s] == key)
			return m->vals[s];
	}
}

static inline bool tl_map_grow(struct tl_map *m)
{
	size_t nsize = m->size ? m->size * 2 : 256;
	uint64_t *nk = calloc(nsize, sizeof(*nk));
	uint32_t *nv = calloc(nsize, sizeof(*nv));

	if (!nk || !nv) {
		free(nk);
		free(nv);
		return false;
	}
	for (size_t i = 0; i < m->size; i++) {
		size_t s;

		if (!m->vals[i])
			continue;
		for (s = tl_map_hash(m->keys[i], nsize); nv[s]; s = (s + 1) & (nsize - 1))
			;
		nk[s] = m->keys[i];
		nv[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = nk;
	m->vals = nv;
	m->size = nsize;
	return true;
}

/* Set key -> val (val != 0), replacing. False when out of memory. */
static inline bool tl_map_set(struct tl_map *m, uint64_t key, uint32_t val)
{
	size_t s;

	if ((m->used + 1) * 2 > m->size && !tl_map_grow(m))
		return false;
	for (s = tl_map_hash(key, m->size); m->vals[s]; s = (s + 1) & (m->size - 1)) {
		if (m->keys[s] == key) {
			m->vals[s] = val;
			return true;
		}
	}
	m->keys[s] = key;
	m->vals[s] = val;
	m->used++;
	return true;
}

static inline void tl_map_free(struct tl_map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->size = m->used = 0;
}

#endif
