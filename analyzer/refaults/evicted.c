// SPDX-License-Identifier: GPL-2.0
/*
 * The bounded eviction table (evicted.h): a pool of ranges with a chained hash on
 * (dev, ino, index, order) and a doubly linked age list (oldest first) for forgetting.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "evicted.h"

#define NIL		(-1)
#define MAX_ORDER	30	/* what the loader accepts (parsers/normalize.c) */
/*
 * Ranges of an order below BLOCK_ORDER are counted per 2^BLOCK_ORDER-page block (hashed, so
 * that a count of 0 is certain and a collision only costs the look-ups it would have made):
 * taking an order-9 folio looked up each of its 512 pages, 256 pairs, ... in turn, 1,023
 * look-ups, nearly all misses, for each such add and deletion (6% of a one-thread analyze
 * of bench.dat: callgrind); a block without small ranges now takes one.
 */
#define BLOCK_ORDER	6
#define BLOCK_PAGES	(1ull << BLOCK_ORDER)

struct range {
	uint64_t ino, index;
	struct rf_evict_info info;
	uint32_t dev;
	int32_t hnext;			/* hash chain; free list when unused */
	int32_t older, newer;		/* age list */
	uint8_t order;
};

struct rf_evicted {
	struct range *r;
	size_t nr_alloc, cap, count, peak;
	int32_t *bucket;
	size_t nr_buckets;		/* power of two, >= 2 * nr_alloc */
	uint32_t *blocks;		/* [nr_buckets]: ranges below BLOCK_ORDER a block */
	int32_t free;
	int32_t oldest, newest;
	uint32_t orders;		/* bit o: some range of order o was ever put */
};

static size_t hash(uint32_t dev, uint64_t ino, uint64_t index, int order)
{
	uint64_t h = (ino * 0x9e3779b97f4a7c15ull) ^ (index * 0xc2b2ae3d27d4eb4full) ^
		     ((uint64_t)dev << 8) ^ (uint64_t)order;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)h;
}

struct rf_evicted *rf_evicted_new(size_t cap)
{
	struct rf_evicted *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = cap ? cap : 1;
	t->free = t->oldest = t->newest = NIL;
	return t;
}

void rf_evicted_free(struct rf_evicted *t)
{
	if (!t)
		return;
	free(t->r);
	free(t->bucket);
	free(t->blocks);
	free(t);
}

/* The count of the block holding index, for ranges below BLOCK_ORDER. */
static uint32_t *block_of(const struct rf_evicted *t, uint32_t dev, uint64_t ino, uint64_t index)
{
	return &t->blocks[hash(dev, ino, index >> BLOCK_ORDER, MAX_ORDER + 1) &
			  (t->nr_buckets - 1)];
}

static void link_hash(struct rf_evicted *t, int32_t i)
{
	struct range *e = &t->r[i];
	size_t b = hash(e->dev, e->ino, e->index, e->order) & (t->nr_buckets - 1);

	e->hnext = t->bucket[b];
	t->bucket[b] = i;
	if (e->order < BLOCK_ORDER)
		(*block_of(t, e->dev, e->ino, e->index))++;
}

/* Grow the pool (doubling, up to cap) and rehash. */
static int grow(struct rf_evicted *t)
{
	size_t n = t->nr_alloc ? t->nr_alloc * 2 : 1024;
	size_t nb = 1;
	struct range *r;
	uint32_t *blocks;
	int32_t *b;

	if (n > t->cap)
		n = t->cap;
	if (n <= t->nr_alloc || n > INT32_MAX)
		return -1;
	while (nb < 2 * n)
		nb <<= 1;
	r = realloc(t->r, n * sizeof(*r));
	if (!r)
		return -1;
	t->r = r;
	b = malloc(nb * sizeof(*b));
	blocks = calloc(nb, sizeof(*blocks));
	if (!b || !blocks) {
		free(b);
		free(blocks);
		return -1;
	}
	free(t->bucket);
	free(t->blocks);
	t->bucket = b;
	t->blocks = blocks;
	t->nr_buckets = nb;
	for (size_t i = 0; i < nb; i++)
		b[i] = NIL;
	/* every allocated slot is either in use (rehash it) or on the free list */
	for (size_t i = t->nr_alloc; i < n; i++) {
		r[i].hnext = t->free;
		r[i].order = 0xff;	/* marks "unused" */
		t->free = (int32_t)i;
	}
	for (size_t i = 0; i < t->nr_alloc; i++)
		if (r[i].order != 0xff)
			link_hash(t, (int32_t)i);
	t->nr_alloc = n;
	return 0;
}

static int32_t find(const struct rf_evicted *t, uint32_t dev, uint64_t ino, uint64_t index,
		    int order)
{
	if (!t->nr_buckets)
		return NIL;
	for (int32_t i = t->bucket[hash(dev, ino, index, order) & (t->nr_buckets - 1)]; i != NIL;
	     i = t->r[i].hnext) {
		const struct range *e = &t->r[i];

		if (e->index == index && e->ino == ino && e->dev == dev && e->order == order)
			return i;
	}
	return NIL;
}

static void unlink_age(struct rf_evicted *t, int32_t i)
{
	struct range *e = &t->r[i];

	if (e->older != NIL)
		t->r[e->older].newer = e->newer;
	else
		t->oldest = e->newer;
	if (e->newer != NIL)
		t->r[e->newer].older = e->older;
	else
		t->newest = e->older;
}

/* Put slot i in the age list right after `after` (NIL: at the oldest end). */
static void link_age_after(struct rf_evicted *t, int32_t i, int32_t after)
{
	struct range *e = &t->r[i];

	e->older = after;
	e->newer = after == NIL ? t->oldest : t->r[after].newer;
	if (e->newer != NIL)
		t->r[e->newer].older = i;
	else
		t->newest = i;
	if (after != NIL)
		t->r[after].newer = i;
	else
		t->oldest = i;
}

static void remove_slot(struct rf_evicted *t, int32_t i)
{
	struct range *e = &t->r[i];
	size_t b = hash(e->dev, e->ino, e->index, e->order) & (t->nr_buckets - 1);
	int32_t *p = &t->bucket[b];

	while (*p != i)
		p = &t->r[*p].hnext;
	*p = e->hnext;
	if (e->order < BLOCK_ORDER)
		(*block_of(t, e->dev, e->ino, e->index))--;
	unlink_age(t, i);
	e->order = 0xff;
	e->hnext = t->free;
	t->free = i;
	t->count--;
}

/* A free slot, growing the pool or forgetting the oldest range; NIL when out of memory. */
static int32_t slot(struct rf_evicted *t, rf_piece_fn forget, void *arg)
{
	int32_t i;

	if (t->free == NIL && t->nr_alloc < t->cap)
		grow(t);
	if (t->free == NIL) {
		struct range *o;

		if (t->oldest == NIL)
			return NIL;
		o = &t->r[t->oldest];
		if (forget)
			forget(arg, &o->info, 1ull << o->order);
		remove_slot(t, t->oldest);
	}
	i = t->free;
	t->free = t->r[i].hnext;
	return i;
}

static int32_t insert(struct rf_evicted *t, uint32_t dev, uint64_t ino, uint64_t index,
		      int order, const struct rf_evict_info *info, int32_t after, bool at_newest,
		      rf_piece_fn forget, void *arg)
{
	int32_t i = slot(t, forget, arg);
	struct range *e;

	if (i == NIL)
		return NIL;
	/* forgetting the oldest may have removed `after` itself: then age from the oldest end */
	if (!at_newest && after != NIL && t->r[after].order == 0xff)
		after = NIL;
	e = &t->r[i];
	e->dev = dev;
	e->ino = ino;
	e->index = index;
	e->order = (uint8_t)order;
	e->info = *info;
	link_hash(t, i);
	link_age_after(t, i, at_newest ? t->newest : after);
	t->orders |= 1u << order;
	if (++t->count > t->peak)
		t->peak = t->count;
	return i;
}

uint64_t rf_evicted_take(struct rf_evicted *t, uint32_t dev, uint64_t ino, uint64_t index,
			 int order, rf_piece_fn fn, rf_piece_fn forget, void *arg)
{
	uint64_t taken = 0;

	if (order < 0 || order > MAX_ORDER || !t->count)
		return 0;
	/* a larger range containing this one: at most one, as ranges never overlap */
	for (int j = order + 1; j <= MAX_ORDER; j++) {
		uint64_t base = index & ~((1ull << j) - 1);
		struct rf_evict_info info;
		int32_t i, after;

		if (!(t->orders & (1u << j)))
			continue;
		i = find(t, dev, ino, base, j);
		if (i == NIL)
			continue;
		info = t->r[i].info;
		after = t->r[i].older;
		remove_slot(t, i);
		/* keep the halves not containing [index, +1 << order), oldest place first */
		for (int k = j - 1; k >= order; k--) {
			uint64_t half = 1ull << k;
			uint64_t keep = (index & half) ? base : base + half;
			int32_t n = insert(t, dev, ino, keep, k, &info, after, false, forget,
					   arg);

			if (n != NIL)
				after = n;
			if (index & half)
				base += half;
		}
		fn(arg, &info, 1ull << order);
		return 1ull << order;
	}
	/* ranges inside it, of every order up to its own */
	for (int j = 0; j <= order; j++) {
		if (!(t->orders & (1u << j)))
			continue;
		for (uint64_t x = index; x < index + (1ull << order); x += 1ull << j) {
			int32_t i;

			/* a block without ranges below BLOCK_ORDER: on to the next block */
			if (j < BLOCK_ORDER && !(x & (BLOCK_PAGES - 1)) &&
			    !*block_of(t, dev, ino, x)) {
				x += BLOCK_PAGES - (1ull << j);
				continue;
			}
			i = find(t, dev, ino, x, j);
			if (i == NIL)
				continue;
			fn(arg, &t->r[i].info, 1ull << j);
			taken += 1ull << j;
			remove_slot(t, i);
		}
	}
	return taken;
}

int rf_evicted_put(struct rf_evicted *t, uint32_t dev, uint64_t ino, uint64_t index, int order,
		   const struct rf_evict_info *info, rf_piece_fn forget, void *arg)
{
	if (order < 0 || order > MAX_ORDER)
		return -1;
	return insert(t, dev, ino, index, order, info, NIL, true, forget, arg) == NIL ? -1 : 0;
}

size_t rf_evicted_count(const struct rf_evicted *t)
{
	return t->count;
}

size_t rf_evicted_peak(const struct rf_evicted *t)
{
	return t->peak;
}

void rf_evicted_each(const struct rf_evicted *t, rf_piece_fn fn, void *arg)
{
	for (int32_t i = t->oldest; i != NIL; i = t->r[i].newer)
		fn(arg, &t->r[i].info, 1ull << t->r[i].order);
}
