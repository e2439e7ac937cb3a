/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The eviction table of the refault analysis: file ranges reclaim deleted from the page cache
 * and that have not come back yet, keyed by (s_dev, i_ino, index, order). Folios are naturally
 * aligned (index a multiple of 1 << order), so a range added back either contains evicted
 * ranges or lies inside one; a partly refaulted range is split buddy-wise and its remaining
 * pieces keep their place in the age order.
 *
 * Bounded: at most `cap` ranges; a put into a full table forgets the oldest one (the forget
 * callback says which, so the caller can count what it can no longer match). Memory is
 * ~64 bytes a range plus the hash buckets, never a function of the trace's IO.
 */
#ifndef RS_REFAULT_EVICTED_H
#define RS_REFAULT_EVICTED_H

#include <stddef.h>
#include <stdint.h>

/* What is known of an eviction, handed back when its pages are matched or forgotten. */
struct rf_evict_info {
	uint64_t ts;			/* the deletion */
	uint64_t memcg;			/* the memcg the pages were charged to; 0 unknown */
	uint8_t ctx;			/* enum rs_ctx_kind of the reclaim that deleted it */
	int8_t list;			/* enum rs_lru, RF_LIST_SLAB, or -1 unknown */
	uint8_t flags;			/* caller's bits, kept as given */
	uint32_t ep;			/* caller's episode record + 1, 0 none */
};

/* A piece of evicted range handed to a callback: `pages` pages of one eviction. */
typedef void (*rf_piece_fn)(void *arg, const struct rf_evict_info *info, uint64_t pages);

struct rf_evicted;

/* cap: ranges kept (> 0). NULL when out of memory. */
struct rf_evicted *rf_evicted_new(size_t cap);
void rf_evicted_free(struct rf_evicted *t);

/*
 * Remove every evicted page inside [index, index + (1 << order)) of the file, calling fn for
 * each piece (splitting a larger range that contains it; a split in a full table may forget
 * the oldest ranges, passed to forget). Returns the pages removed.
 */
uint64_t rf_evicted_take(struct rf_evicted *t, uint32_t dev, uint64_t ino, uint64_t index,
			 int order, rf_piece_fn fn, rf_piece_fn forget, void *arg);

/*
 * Record an eviction of [index, index + (1 << order)). The caller takes overlapping ranges
 * first (they mean an add was missed). When the table is full the oldest range is dropped and
 * passed to forget (may be NULL). Returns 0, or -1 when out of memory (nothing recorded).
 */
int rf_evicted_put(struct rf_evicted *t, uint32_t dev, uint64_t ino, uint64_t index, int order,
		   const struct rf_evict_info *info, rf_piece_fn forget, void *arg);

/* Ranges held now, and the most ever held. */
size_t rf_evicted_count(const struct rf_evicted *t);
size_t rf_evicted_peak(const struct rf_evicted *t);

/* Call fn for every range still held (pages not refaulted by the end). */
void rf_evicted_each(const struct rf_evicted *t, rf_piece_fn fn, void *arg);

#endif
