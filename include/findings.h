/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The findings of one analysis: the figures a reclaim developer asks for first (the worst
 * stall, stalls by context, kswapd, scanning by list and efficiency, the priority reached,
 * swap-out and writeback, the cgroups that paid and caused most, losses), read from a finished
 * analysis and its per-cgroup attribution. `analyze` prints them as its SUMMARY and as the
 * JSON `summary` object; `diff` compares them (derived totals the raw keys do not give, e.g.
 * kswapd awake including cut periods, the priority distribution with every priority present).
 * Definitions: docs/analyze.md "Summary".
 */
#ifndef RS_FINDINGS_H
#define RS_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

struct rs_cgroups;
struct rs_source;

struct rs_findings_stall {
	uint64_t count;			/* complete episodes */
	uint64_t total_ns, p99_ns, max_ns;
	bool approximate;		/* p99 from the histogram */
	uint64_t incomplete;		/* cut, unmatched or missed-end ones (not in the above) */
};

struct rs_findings_cgroup {
	bool valid;
	char name[128];			/* path, or id:N */
	uint64_t pages;			/* reclaimed from it (paid) / by its tasks' reclaim (caused) */
	uint64_t scanned;
};

struct rs_findings {
	double span_s;			/* analysed seconds */

	/* the longest complete reclaim episode of any kind (not kswapd's awake periods) */
	bool worst_valid;
	int worst_kind;			/* enum rs_reclaim_kind */
	int worst_pid;
	char worst_comm[16];
	uint64_t worst_ns, worst_begin_ts;
	double worst_offset_s;		/* its begin after the analysed window's start */

	struct rs_findings_stall stall[RS_RK_NR];

	/* kswapd: every instance summed */
	int kswapds;
	uint64_t awake_ns, awake_cut_ns;	/* complete periods; parts of cut ones */
	double awake_pct;		/* (awake + cut) / (span x kswapds) x 100; NaN: no kswapd */
	uint64_t wakes, rewakes, sleeps, unmatched_sleeps;
	int64_t reclaim_fail;		/* kswapd_reclaim_fail events (7.x); -1: no 7.x health events */
	int64_t hopeless;		/* times a node's failures made kswapd hopeless; -1 as above */
	uint64_t kswapd_scanned, kswapd_reclaimed;

	/* scanning: lru_isolate nr_scanned per list, reclaimed per type */
	bool eviction_untraced;		/* MGLRU before 6.7: none of these was traced */
	int mglru;			/* trace.mglru: 1, 0, -1 unknown */
	uint64_t scanned[RS_LRU_NR];
	uint64_t scanned_anon, scanned_file, scanned_inactive;
	uint64_t reclaimed_anon, reclaimed_file;
	double anon_pct;		/* of scanned; NaN when nothing was scanned */
	double efficiency_pct;		/* reclaimed / inactive scanned; NaN: none */
	double efficiency_anon_pct, efficiency_file_pct;
	/* priority: pages scanned at each priority 0..12 and unknown (index RS_PRIO_UNKNOWN) */
	uint64_t by_prio[RS_NR_PRIO];
	double prio_mean;		/* scanned-weighted mean over known priorities; NaN: none */

	/* IO by reclaim (write_folio, folios) and what shrink_inactive found (pages) */
	uint64_t swap_out, file_written, write_sync, write_async;
	uint64_t dirty, writeback, immediate;
	/*
	 * Where the swap-out went, in pages, from the memcg counters: zswpout (zswap stored
	 * them) and pswpout (the swap device wrote them); write_folio counts both alike. -1:
	 * not counted (no count_memcg_events in the trace, or its items not named).
	 */
	int64_t zswpout, pswpout;

	struct rs_findings_cgroup paid_most, caused_most;
	/* pages reclaimed whose victim cgroup is not known (the matrix's unattributed column) */
	uint64_t paid_unknown;

	/* refaults (docs/refaults.md): filled by rs_refaults_findings() after rs_findings_of() */
	struct {
		bool set;			/* a refault analysis ran */
		bool recorded;			/* the trace has filemap events */
		uint64_t evicted_pages, refaulted_pages, refaulted_folios;
		uint64_t observable_1s_pages, within_1s_pages;
		bool lower_bound;		/* the eviction table forgot ranges */
		bool swapins_known;		/* the trace names pswpin */
		uint64_t swapin_pages;
		char thrash_name[128];		/* the memcg that thrashed longest, "" none */
		double thrash_s;
	} refaults;

	/* what the figures may miss */
	uint64_t lost_events, lost_records, incomplete, broken, warnings;
	bool lost_unknown;		/* some loss had no count */
};

/*
 * Fill *f from a finished analysis; cg (NULL: no cgroup lines) and src (NULL: losses without
 * a count are not known) are optional.
 */
void rs_findings_of(const struct rs_analysis *a, const struct rs_cgroups *cg,
		    const struct rs_source *src, struct rs_findings *f);

#endif
