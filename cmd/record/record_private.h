/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of `reclaimscope record`, shared by cmd/record/cmd_record.c (options and process
 * control) and its helpers: record_tracefs.c (tracefs state, events, liveness), record_cgroup.c
 * (the memory hierarchy), record_items.c (enum item names), record_markers.c (trace_marker
 * writes), record_snapshot.c (periodic snapshots), record_numa.c (the memcg_numa marker) and
 * record_files.c (small file reads and writes).
 * Helpers return 0 or -1 with a struct rs_error; only cmd_record.c prints.
 */
#ifndef RS_RECORD_IMPL_H
#define RS_RECORD_IMPL_H

#include <stdbool.h>
#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rs_error.h"

#define REC_MARKER_MAX		1000	/* docs/markers.md: one marker is < 1000 bytes */
#define REC_MAX_CGROUPS		16384	/* bound on a walk of the memory hierarchy */
#define REC_MAX_DEPTH		32
#define REC_LEAF		"rs_workload"	/* v2: the leaf the workload runs in */
#define REC_MAX_INTEREST	256	/* cgroups snapshotted per interval */

/* The hierarchy that has the memory controller. */
struct rec_memcg_root {
	int v2;				/* cgroup2 (memory.max ...) rather than v1 */
	char mnt[PATH_MAX];		/* its mount point, e.g. /sys/fs/cgroup/memory */
};

/* Names of one kernel enum's items, value = first + index; NULL for gaps. */
struct rec_items {
	const char *enum_name;		/* "vm_event_item" */
	const char *tag;		/* marker tag, "vm_event_items" */
	const char *source;		/* "btf" or "vmstat"; NULL when unknown */
	int64_t first;
	size_t nr;
	char **names;			/* lower case, as /proc/vmstat spells most of them */
};

/* One saved tracefs file: path relative to the tracing dir and its content at start. */
struct rec_tfile {
	char *rel;
	char *val;
};

struct rec_tracefs_state {
	struct rec_tfile *files;
	size_t nr, cap;
};

struct rec {
	/* options */
	const char *output;
	char *cgroup;			/* "/rs_x" relative to the hierarchy, or NULL */
	int64_t limit, soft_limit;	/* bytes, -1 when not given */
	unsigned int interval_ms;
	const char **events;		/* -e, as given */
	size_t nr_events;
	char **watch;			/* --watch, normalized like cgroup */
	size_t nr_watch;
	int file_version;		/* 0: trace-cmd's default */
	long buffer_kb;			/* per-CPU ring buffer for trace-cmd -b; 0: as is */
	double duration;		/* seconds, 0: none */
	bool all_memcg_items;
	bool keep_cgroup;
	bool own_memcgs;			/* filter memcg:* to ids >= memcg_min_id */
	uint64_t memcg_min_id;
	bool no_filemap;			/* leave the filemap page-cache events out */
	bool zone_flow;				/* the buddy allocator's kmem events */
	bool no_zone_flow;			/* not even without --cgroup */
	int pmd_order;				/* THP's PMD order; 0: no THP */
	uint64_t *filemap_devs;		/* --filemap-dev: kernel s_dev values to keep */
	size_t nr_filemap_devs;
	char **argv;			/* workload, NULL when none */
	const char *workload_path;	/* argv[0] resolved through PATH */

	/* environment */
	const char *tracing_dir;
	const char *trace_cmd;		/* resolved path of trace-cmd */
	struct rec_memcg_root mem;
	long page_size;
	int nr_nodes;			/* node directories in sysfs; 0: no NUMA sysfs */
	struct rec_items vm_events, node_stats, memcg_stats;
	char *created_top;		/* topmost cgroup we created, removed at the end */
	char *workload_cg;		/* where the workload runs: cgroup, or on v2 its leaf */
	bool created_leaf;		/* we made that leaf (below a cgroup we did not make) */
	bool lru_gen_seen;		/* the snapshot thread's: lru_gen enabled written once */
	long lru_gen_last;

	/* trace_marker */
	int marker_fd;
	atomic_ulong markers, markers_dropped;
};

/* record_tracefs.c */
int rec_tracefs_save(struct rec *r, struct rec_tracefs_state *st, struct rs_error *err);
/* Write back every saved file whose content changed; returns the number that failed. */
int rec_tracefs_restore(struct rec *r, struct rec_tracefs_state *st, struct rs_error *err);
void rec_tracefs_state_free(struct rec_tracefs_state *st);
int rec_event_exists(struct rec *r, const char *spec);
/* The trace-cmd argument vector (NULL-terminated, malloc'ed strings). */
char **rec_trace_cmd_argv(struct rec *r, struct rs_error *err);
void rec_argv_free(char **argv);
/* Make the liveness probes read 0 so that reading 1 later means trace-cmd set them. */
int rec_tracefs_arm(struct rec *r, struct rs_error *err);
/* 1 when trace-cmd has enabled the events and turned tracing on, 0 not yet. */
int rec_tracefs_live(struct rec *r);
/* Events the ring buffers lost (overrun + dropped) since trace-cmd reset them. */
unsigned long long rec_tracefs_lost(struct rec *r);
/*
 * Push the last events out of the ring buffers' half-filled pages (padding markers on every
 * CPU), wait (at most timeout_ms) until trace-cmd has read them, then turn tracing off, so
 * stopping trace-cmd loses nothing but padding. Returns the entries still unread.
 */
unsigned long long rec_tracefs_drain(struct rec *r, int timeout_ms);

/* record_cgroup.c */
int rec_memcg_find(struct rec_memcg_root *root, struct rs_error *err);
/* Normalize a user's cgroup path to "/a/b" relative to the hierarchy; NULL if invalid. */
char *rec_cgroup_normalize(const struct rec_memcg_root *root, const char *path);
int rec_cgroup_setup(struct rec *r, struct rs_error *err);
/* In a forked child: move the calling process into the cgroup. Async-signal-safe. */
int rec_cgroup_join_self(const char *procs_path);
int rec_cgroup_procs_path(struct rec *r, char *buf, size_t len);
int rec_cgroup_remove(struct rec *r, struct rs_error *err);
uint64_t rec_cgroup_id(const struct rec_memcg_root *root, const char *rel);
int rec_cgroup_write_map(struct rec *r, struct rs_error *err);
int rec_task_write_map(struct rec *r, struct rs_error *err);
/* Fill rels[] with the cgroups of interest (docs/markers.md); returns how many. */
size_t rec_cgroups_of_interest(struct rec *r, char **rels, size_t max);
/* MGLRU's enabled state (on change) and debugfs generations per memcg (record_lru_gen.c). */
void rec_snapshot_lru_gen(struct rec *r);

/* record_items.c */
int rec_items_load(struct rec *r, struct rs_error *err);
void rec_items_free(struct rec *r);
int rec_items_write_markers(struct rec *r);
/* The count_memcg_events filter for the reclaim items; NULL with err set if none known. */
char *rec_items_memcg_filter(struct rec *r, struct rs_error *err);

/* record_markers.c */
int rec_marker_open(struct rec *r, struct rs_error *err);
void rec_marker_close(struct rec *r);
/* Write one marker (printf format); over-long ones are dropped and counted. */
int rec_mark(struct rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * The memcg_numa marker of memcg id from its memory.numa_stat f, into out (len: the marker
 * limit): its length, 0 when f has none of the items, -1 when it does not fit (nothing cut).
 */
int rec_numa_marker(FILE *f, unsigned long long id, char *out, size_t len);
/* Escape a cgroup path for a marker value: '%', spaces and control bytes become %XX. */
void rec_escape_path(const char *path, char *buf, size_t len);
int rec_write_begin(struct rec *r);

/* record_snapshot.c */
struct rec_snapshot;
struct rec_snapshot *rec_snapshot_start(struct rec *r, struct rs_error *err);
/* Stop the thread, then take one last snapshot so the trace ends with the final state. */
void rec_snapshot_stop(struct rec_snapshot *s);
void rec_snapshot_once(struct rec *r);

/* record_files.c */
/* Read a small file into buf (NUL-terminated, trailing newline dropped); -1 with errno. */
int rec_read_file(const char *path, char *buf, size_t len);
int rec_write_file(const char *path, const char *val);
/* A byte count from a cgroup file; "max" (v2) reads as the v1 "unlimited" value. */
int rec_read_bytes(struct rec *r, const char *path, uint64_t *out);
/* rec_read_bytes() of `file` in the memory cgroup `rel` (a path under the mount, from "/"). */
int rec_cgroup_bytes(struct rec *r, const char *rel, const char *file, unsigned long long *out);

#endif
