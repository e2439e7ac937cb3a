/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MGLRU generations over time, from the recorder's lru_gen markers (docs/markers.md): per memcg
 * and node, how many snapshots, the first and last generation numbers (max_seq and min_seq
 * moving up are aging and eviction, which no tracepoint shows) and the last sizes. Bounded:
 * RS_GENS_MAX_SERIES memcg/node pairs, RS_GENS_MAX generations each.
 */
#ifndef RS_MGLRU_GENS_H
#define RS_MGLRU_GENS_H

#include <stdint.h>

#define RS_GENS_MAX_SERIES	64
#define RS_GENS_MAX		8	/* MAX_NR_GENS is 4 */
#define RS_GENS_CG_LEN		256

struct rs_gen {
	uint64_t seq, age_ms, anon, file;	/* pages */
};

struct rs_gens_series {
	char cg[RS_GENS_CG_LEN];
	int nid;
	uint64_t snapshots, first_ts, last_ts;
	uint64_t first_min_seq, first_max_seq;
	int nr_last;
	struct rs_gen last[RS_GENS_MAX];	/* oldest first */
	uint64_t max_anon, max_file;		/* largest totals over the snapshots */
};

struct rs_mglru_gens {
	int nr;
	struct rs_gens_series s[RS_GENS_MAX_SERIES];
	uint64_t dropped;		/* markers past the series bound, or unreadable */
};

/* Feed the text of a plain marker; returns whether it was an lru_gen marker. */
int rs_mglru_gens_feed(struct rs_mglru_gens *g, uint64_t ts, const char *text);

#endif
