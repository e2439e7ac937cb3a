/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reclaimscope export (docs/export.md), private to cmd/export/. The analysis runs with one more
 * consumer, the spool: each closed episode, OOM kill and throttle event is appended to an
 * unlinked temporary file (memory stays bounded by what is analysed; the disk holds one fixed
 * record per episode). When the analysis has finished, a writer reads the spool and the
 * finished results (series, tasks, cgroups) and writes the output: a view over results, with
 * every name known (comms, kernel, host) before the first byte.
 *
 *   export_spool_new() -> export_spool_consumer() into the analysis -> run ->
 *   export_perfetto_write() or export_jsonl_write() -> export_spool_free()
 */
#ifndef RS_EXPORT_H
#define RS_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "cgroups.h"
#include "trace_source.h"

enum export_rec_type {
	EXPORT_EPISODE,			/* a closed reclaim episode or kswapd awake period */
	EXPORT_OOM,			/* oom:mark_victim */
	EXPORT_THROTTLE,		/* mm_vmscan_throttled */
};

struct export_rec {
	uint32_t type;			/* enum export_rec_type */
	struct rs_episode ep;		/* EXPORT_EPISODE */
	uint64_t ts;			/* OOM, THROTTLE: the event's time */
	int pid, task;			/* the emitting task, its dense index (-1) */
	int ctx;			/* its reclaim context (enum rs_ctx_kind) */
	int victim_pid;			/* OOM */
	char victim_comm[16];		/* OOM: the victim's, when recorded */
	int reason;			/* THROTTLE: as the kernel passes it */
	int64_t usec_delayed, usec_timeout;
};

struct export_spool;

struct export_spool *export_spool_new(void);
void export_spool_free(struct export_spool *s);
void export_spool_consumer(struct export_spool *s, struct rs_consumer *out);
/* After the run: write errors while spooling (0, or an errno), and reading back. */
int export_spool_error(const struct export_spool *s);
int export_spool_rewind(struct export_spool *s);
/* The next record; false at the end (or on a read error: export_spool_error). */
bool export_spool_next(struct export_spool *s, struct export_rec *r);

/* What the writers read: the trace and its finished analysis. */
struct export_input {
	const struct rs_trace_info *info;
	const struct rs_analysis *a;
	const struct rs_cgroups *cg;
	struct export_spool *spool;
	uint64_t max_slices;		/* perfetto: slices and instants written at most */
};

/* What a writer did, for the command's messages. */
struct export_result {
	uint64_t rows;			/* jsonl: rows; perfetto: trace events */
	uint64_t slices, slices_dropped;	/* perfetto: X and i events, those over the cap */
};

/* 0, or -1 (a read error of the spool; write errors show in ferror(f)). */
int export_perfetto_write(FILE *f, const struct export_input *in, struct export_result *res);
int export_jsonl_write(FILE *f, const struct export_input *in, struct export_result *res);

/* A JSON string: quotes, backslashes, control characters and bytes >= 0x7f escaped (\u00XX). */
void export_json_str(FILE *f, const char *s);

#endif
