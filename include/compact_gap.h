/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which compact_gap() the recorded kernel had (models/compact_gap.c): kswapd_shrink_node()
 * drops a run's order to 0 once it reclaimed compact_gap(order) pages. Every 6.x kernel has
 * 2UL << order; "mm/compaction: cap compact_gap() at COMPACT_CLUSTER_MAX" (JP Kobryn, posted
 * 2026-05-19) makes it min(2UL << order, 32), as Debian's 7.2.13 has it. The rule is chosen per
 * trace: from the trace's own balance_pgdat runs where one tells, else from the release.
 */
#ifndef RS_COMPACT_GAP_H
#define RS_COMPACT_GAP_H

#include <stdbool.h>
#include <stdint.h>

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
