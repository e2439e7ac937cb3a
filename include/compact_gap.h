/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compact_gap() of the recorded kernel (models/compact_gap.c): kswapd_shrink_node() drops a
 * run's order to 0 once it reclaimed compact_gap(order) pages, and should_continue_reclaim()
 * goes round again only while the inactive lists hold more than it. Every 6.x kernel has
 * 2UL << order; "mm/compaction: cap compact_gap() at COMPACT_CLUSTER_MAX" (JP Kobryn, posted
 * 2026-05-19) makes it min(2UL << order, 32), as Debian's 7.2.13 has it. The rule is chosen per
 * trace: from the trace's own balance_pgdat runs where one tells, else from the release.
 */
#ifndef RS_COMPACT_GAP_H
#define RS_COMPACT_GAP_H

#include <stdbool.h>
#include <stdint.h>

struct rs_world;

/* 7.2's COMPACT_CLUSTER_MAX (SWAP_CLUSTER_MAX, include/linux/swap.h), the cap of compact_gap() */
#define RS_COMPACT_CLUSTER_MAX UINT64_C(32)

/*
 * compact_gap(order) of the world's recorded kernel, the one rule every model compares with:
 * 7.2's min(2UL << order, COMPACT_CLUSTER_MAX) unless the world says the kernel had 6.x's
 * 2UL << order (rs_world_opts.compact_gap_uncapped, from rs_gap_choose()). An order outside
 * 0..62 gives UINT64_MAX uncapped (no page count reaches it), 32 capped.
 */
uint64_t rs_compact_gap(const struct rs_world *w, int order);

/* The formula behind rs_compact_gap(): capped, 7.2's; else 6.x's. */
uint64_t rs_compact_gap_rule(int order, bool capped);

/*
 * The 7.x balance_pgdat runs that tell the two rules apart: begun at order o > 0, reclaimed
 * r pages with 32 <= r < 2 << o. The capped gap ends them at order 0, 2 << o at order o.
 */
struct rs_gap_evidence {
	uint64_t runs;		/* balance_pgdat_end events after a begin on the same node */
	uint64_t capped;	/* telling runs that ended at order 0 */
	uint64_t uncapped;	/* telling runs that ended at their begin order */
};

enum rs_gap_from {
	RS_GAP_FROM_TRACE,	/* the telling runs agree */
	RS_GAP_FROM_RELEASE,	/* none (or they disagree): the kernel release */
	RS_GAP_FROM_EVENTS,	/* no release: balance_pgdat events (7.x) or none (before) */
	RS_GAP_FROM_NR
};

struct rs_gap_rule {
	bool capped;		/* min(2 << order, 32); else 2 << order */
	enum rs_gap_from from;
	bool disagree;		/* telling runs of both kinds: the release decided */
	int major, minor;	/* the release, -1 when not known */
};

/* Count one balance_pgdat run (begin order, end order, end's nr_reclaimed). */
void rs_gap_note(struct rs_gap_evidence *e, int begin_order, int end_order, uint64_t reclaimed);

/*
 * The rule for a trace: release is the trace's kernel release ("7.2.13-amd64"; NULL unknown).
 * The cap from 7.2 on, the first release seen with it.
 */
struct rs_gap_rule rs_gap_choose(const struct rs_gap_evidence *e, const char *release);

const char *rs_gap_from_name(enum rs_gap_from f);

#endif
