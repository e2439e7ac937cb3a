// SPDX-License-Identifier: GPL-2.0
/*
 * The replay input's consumer of the analysis stream (include/replay_input.h): the header,
 * the list sizes (memcg_stat and node_stat snapshots, mod_memcg_lruvec_state deltas, coalesced
 * between invocations), workingset counters, memcgs made and removed in the range. Who a memcg
 * is, which memcg a task is in and which one a window took its pages from are the loading
 * stage's (rs_ctx.memcg, memcg_attrib.h): this file keeps sizes by its memcg rows. Calls go one
 * way: this file -> replay_calls.c (reclaim invocations and what they took), replay_build.c
 * (the world at the end) -> replay_memcgs.c (sizes by memcg row, coalesced updates) ->
 * replay_report.c (warnings, sources, swap evidence); each has its own header.
 *
 * Sizes of a memcg's lruvec come from one of two sources, decided at the end (docs/replay.md):
 * with LRU deltas, size = offset + deltas so far, snapshots then only checked; the offset is 0
 * for a memcg made in the trace, else its snapshot from before its first delta, else the
 * median over its snapshots of (snapshot - deltas so far). memory.stat flushes the memcg
 * stats only when more than 64 x CPUs updates are pending, so a snapshot lags the (exact)
 * deltas by up to that many pages; one taken before any delta has nothing to lag behind.
 * Without deltas, each snapshot sets the size. The root's own lists are the node
 * totals minus every tracked memcg's lists (node_stat), which also holds the pages of memcgs
 * the recorder did not snapshot. mod_memcg_lruvec_state and memory.stat have no node: with
 * two or more nodes the build splits a memcg's lists by its memory.numa_stat reads, where the
 * recorder wrote them (replay_build.c ns_init(), "node split"), and keeps them on node 0
 * otherwise.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcg_attrib.h"
#include "replay_build.h"
#include "replay_calls.h"
#include "replay_memcgs.h"
#include "replay_report.h"
#include "rs_grow.h"
#include "trace_source.h"

static const char *const tgt_names[RS_RI_TGT_NR] = {
	[RS_RI_TGT_KERNEL] = "memcg_id", [RS_RI_TGT_VICTIMS] = "victims", [RS_RI_TGT_LIMITED] = "limited-ancestor",
	[RS_RI_TGT_TASK] = "task", [RS_RI_TGT_HEADER] = "header", [RS_RI_TGT_ROOT] = "root",
};

static const char *const want_names[RS_RI_WANT_NR] = {
	[RS_RI_WANT_CHARGE] = "charge", [RS_RI_WANT_RECLAIMED] = "recorded",
	[RS_RI_WANT_MIN] = "swap_cluster_max",
};

const char *rs_ri_target_src_name(int s)
{
	return s >= 0 && s < RS_RI_TGT_NR ? tgt_names[s] : "?";
}

const char *rs_ri_want_src_name(int s)
{
	return s >= 0 && s < RS_RI_WANT_NR ? want_names[s] : "?";
}

/* ---- tasks: pid -> index, capped ---- */

struct ri_task *ri_task_get(struct rs_replay_input *ri, int pid, bool create)
{
	size_t cap;
	struct ri_task *t;
	int i;

	if (pid < 0)
		return NULL;
	i = rs_pidmap_get(&ri->task_by_pid, pid);
	if (i >= 0)
		return &ri->task[i];
	if (!create)
		return NULL;
	if ((size_t)ri->ntask >= ri->o.max_tasks) {
		ri->rep.untracked_events++;
		return NULL;
	}
	cap = (size_t)ri->captask;
	if (ri_grow((void **)&ri->task, &cap, (size_t)ri->ntask + 1, sizeof(*ri->task))) {
		ri->oom = true;
		return NULL;
	}
	ri->captask = (int)cap;
	if (rs_pidmap_put(&ri->task_by_pid, pid, ri->ntask) < 0) {
		ri->oom = true;
		return NULL;
	}
	t = &ri->task[ri->ntask];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->dense = -1;
	t->call = RI_NO_CALL;
	t->ended_memcg_call = RI_NO_CALL;
	t->win_lru = -1;
	ri->ntask++;
	return t;
}

/*
 * A swap-in counted to a memcg (count_memcg_events pswpin, swap_read_folio()) right after a
 * memcg call of the same task: the charge that call reclaimed for was the swapped-in folio's,
 * and mem_cgroup_swapin_charge_folio() charges the memcg that owned it at swap-out, not the
 * task's (a fault in one cgroup reading swap readahead slots of another's pages). Such a call's
 * root is beside the task's memcg without any write to memory.reclaim (the manycg recording: 6
 * calls of 4,711, each followed within 0.1 ms by a pswpin in the root's subtree).
 */
#define RI_SWAPIN_AFTER_NS 10000000ull	/* 10 ms: the read is submitted microseconds after */

static void on_swapin(struct rs_replay_input *ri, const struct rs_event *ev,
		      const struct rs_memcg_ctx *mc)
{
	struct ri_task *t = ri_task_get(ri, ev->pid, false);
	struct ri_call *c;

	if (!t || t->ended_memcg_call >= ri->ncall)
		return;
	c = &ri->call[t->ended_memcg_call];
	t->ended_memcg_call = RI_NO_CALL;
	if (ev->ts - t->ended_ts > RI_SWAPIN_AFTER_NS)
		return;
	c->swapin_row = ri_memcg_row(ri, mc->named >= 0 ? mc->named :
				     rs_memcgs_find_id(mc->memcgs, ev->memcg.id));
}

/* ---- header and item names ---- */

static void on_meta(struct rs_replay_input *ri, const struct rs_event *ev)
{
	char b[256];
	const char *v;

	if (strcmp(ev->meta.kind, "begin") || ri->have_header)
		return;
	ri->have_header = true;
	ri->rep.header = strstr(ev->meta.text ? ev->meta.text : "", "name=") ? "scenario_begin"
									   : "reclaimscope_begin";
	ri->rep.header_offset = ev->offset;
	/*
	 * record writes its header and its final snapshot (rec_snapshot_stop()) from its main
	 * thread, the snapshots before it from the snapshot thread: both tasks are the recorder's
	 * (on_flush()). A scenario's header comes from another program.
	 */
	if (!strcmp(ri->rep.header, "reclaimscope_begin") && ev->pid > 0)
		ri->recorder_main_pid = ev->pid;
	if ((v = rs_meta_value(ev->meta.text, "swappiness", b, sizeof(b)))) {
		ri->rep.vm_swappiness = atoi(v);
		ri->have_swappiness = true;
	}
	if ((v = rs_meta_value(ev->meta.text, "page_size", b, sizeof(b))) && atol(v) > 0)
		ri->page_size = (uint64_t)atol(v);
	if ((v = rs_meta_value(ev->meta.text, "mglru", b, sizeof(b)))) {
		ri->rep.mglru_mask = (unsigned int)strtoul(v, NULL, 0);
		/* lru_gen/enabled bit 0 (LRU_GEN_CORE): the multi-gen LRU is on */
		ri->rep.mglru = ri->rep.mglru_mask & 1;
	}
	if ((v = rs_meta_value(ev->meta.text, "cgroup", b, sizeof(b)))) {
		ri->rep.cgroup_v1 = !strcmp(v, "v1");
		ri->have_cgroup_kind = true;
		ri->rep.cgroup_src = "header";
	}
	if ((v = rs_meta_value(ev->meta.text, "nodes", b, sizeof(b))) && atoi(v) > 0) {
		ri->rep.nr_nodes = atoi(v);
		ri->have_nodes = true;
	}
	if ((v = rs_meta_value(ev->meta.text, "cgroup_path", b, sizeof(b)))) {
		free(ri->header_cgroup);
		ri->header_cgroup = strdup(v);
	}
	/* record --zone-flow: the kmem events are in, and which free order is THP's */
	if ((v = rs_meta_value(ev->meta.text, "zone_flow", b, sizeof(b))))
		ri->zone_flow = atoi(v) == 1;
	if ((v = rs_meta_value(ev->meta.text, "pmd_order", b, sizeof(b))))
		ri->pmd_order = atoi(v);
}

static void on_items(struct rs_replay_input *ri, const struct rs_event *ev)
{
	int n = ev->items.count;

	if (ev->items.which == RS_ITEMS_VM_EVENT) {
		/* the counters are classed by the loading stage (rs_memcg_ctx.item_class) */
		ri->rep.item_names = true;
	} else if (ev->items.which == RS_ITEMS_NODE_STAT) {
		/* the LRU lists' items are the loading stage's (rs_memcg_ctx.lru) */
		static const char *const ws[4] = { "workingset_activate_anon",
						   "workingset_activate_file",
						   "workingset_restore_anon",
						   "workingset_restore_file" };
		int8_t *b = realloc(ri->ns_ws, (size_t)(n ? n : 1));

		if (!b) {
			ri->oom = true;
			return;
		}
		ri->ns_ws = b;
		for (int i = 0; i < n; i++) {
			b[i] = -1;
			for (int k = 0; k < 4; k++)
				if (!strcmp(ev->items.names[i], ws[k]))
					b[i] = (int8_t)k;
		}
		ri->nns = n;
	}
}

/* ---- snapshots ---- */

static uint64_t pages(const struct rs_replay_input *ri, uint64_t bytes)
{
	return bytes / (ri->page_size ? ri->page_size : 4096);
}

/* A limit in bytes: >= 2^62 is "not set" (v1 writes PAGE_COUNTER_MAX pages in bytes). */
static uint64_t limit_pages(const struct rs_replay_input *ri, uint64_t bytes)
{
	return bytes >= (UINT64_C(1) << 62) ? RS_UNLIMITED : pages(ri, bytes);
}

static void add_sample(struct rs_replay_input *ri, struct ri_memcg *m, const int64_t v[4])
{
	if (m->samp_skip++ % m->samp_step)
		return;
	if (m->nsamp == RI_MAX_SAMPLES) {
		/* keep every other one, and from now on half as many */
		for (uint32_t i = 0; i < RI_MAX_SAMPLES / 2; i++)
			memcpy(m->samp[i], m->samp[2 * i], sizeof(m->samp[0]));
		m->nsamp = RI_MAX_SAMPLES / 2;
		m->samp_step *= 2;
	}
	if (!m->samp) {
		m->samp = malloc(RI_MAX_SAMPLES * sizeof(*m->samp));
		if (!m->samp) {
			ri->oom = true;
			return;
		}
	}
	memcpy(m->samp[m->nsamp++], v, sizeof(m->samp[0]));
}

/*
 * Re-anchor a memcg whose sizes come from deltas at one of its snapshots (d = snapshot - deltas
 * so far). The sizes are offset + deltas + corrections; the offset is 0 for a memcg made in the
 * trace, else its first snapshot - deltas so far (replay_build.c), both known by now, so the
 * correction that makes the sizes equal this snapshot is d - offset - what was added before.
 * Reading memory.stat flushes the memcg's stats: the snapshot is the lists' size to within the
 * per-CPU batches not yet folded in, while the deltas drift without bound when some list
 * update is not traced (anon-stream-swap.dat: 917 inactive anon pages by the end). An ADD
 * rather than a SET: the deltas still pending are flushed later with their own timestamp, and
 * additions commute.
 */
static void anchor(struct rs_replay_input *ri, struct ri_memcg *m, int i, uint64_t ts,
		   uint64_t off, const int64_t d[RS_NR_EVICTABLE])
{
	bool any = false;

	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		int64_t base = (m->flags & RI_MF_MKDIR) ? 0 : m->have_pre ? m->pre[l]
					: m->nsamp ? m->samp[0][l] : d[l];
		int64_t add = d[l] - base - m->corr[l];

		if (!add)
			continue;
		ri_update(ri, ts, off, RS_WF_LRU, RS_WOP_ADD, RS_WSRC_SNAPSHOT, i, 0, l, add);
		m->corr[l] += add;
		any = true;
	}
	m->anchors += any;
}

/*
 * __mem_cgroup_flush_stats() flushed memcg `id`'s subtree (the periodic flusher's force, or more
 * updates pending than the threshold): lruvec_page_state() reads the lists and the workingset
 * counters as they are now. The root's periodic flush every 2 s is one; without it the stats a
 * reclaim reads stay as the last memory.stat read left them (the 7.2 memory.high trace: a call
 * 0.1 s after the periodic flush saw 4 active anon pages where the lists had 6,660, and the
 * model never deactivated anon in it: 9,220 pages recorded, 0 modelled). A flush of a memcg
 * the replay does not track is the root's only when its id is the root's.
 */
static void on_flush(struct rs_replay_input *ri, const struct rs_event *ev)
{
	int i = ri_memcg_row(ri, rs_memcgs_find_id(ri->memcgs, ev->flush.id));
	struct ri_memcg *m = i >= 0 ? ri_memcg_at(ri, i) : NULL;
	struct ri_task *t;

	ri->rep.flush_events++;
	t = ri_task_get(ri, ev->pid, false);
	if (t)
		ri_calls_flush(ri, t, ev->ts);
	/*
	 * A memory.stat read starts with its flush: its values are as of here. Recorders before
	 * 2026-12-03 read memory.stat twice per snapshot (the lists, then the refault counters;
	 * snap_memcg() in cmd/record/record_snapshot.c now reads it once), so the lists are as of
	 * the first of its flushes since the memcg's previous marker, not the last (the 7.2 multi
	 * trace: /rs_c's two flushes at 34.890 s and 34.903 s were 13 ms apart, with +453
	 * inactive file and -512 inactive anon pages in between; anchored at the second, the next
	 * call saw inactive file low, and scanned and swapped a 512-page anon THP where the kernel
	 * trimmed the file cache). With one read a snapshot the first is the only one. The
	 * recorder is the writer of the markers so far, or record's main thread (its header's
	 * writer), which writes the final snapshot after the snapshot thread has ended.
	 */
	/* a second flush of the recorder's read (memory.numa_stat's): on_snap_memcg() */
	bool again = m && m->have_read && m->read_pid == ev->pid;

	if (m && !ri_memcg_is_root(ri, i) && !again &&
	    (!ri->recorder_pid || ev->pid == ri->recorder_pid ||
	     (ri->recorder_main_pid && ev->pid == ri->recorder_main_pid))) {
		m->have_read = true;
		m->read_pid = ev->pid;
		m->read_ts = ev->ts;
		memcpy(m->read_cum, m->cum, sizeof(m->cum));
	}
	if (!ev->flush.force && !ev->flush.needs_flush)
		return;
	if (!m)
		return;
	ri->rep.stats_flushes++;
	/* the deltas so far go out first: the flush sees them and no later one */
	ri_flush_deltas(ri);
	if (again)
		m->read_flush2 = ri->nupd + 1;
	ri_update(ri, ev->ts, ev->offset, RS_WF_WS_FLUSH, RS_WOP_SET, RS_WSRC_DELTA, i, -1, 0, 1);
}

/*
 * memory.min, memory.low, memory.swap.max and memory.swap.current of a v2 snapshot, as world
 * updates when they change: inputs of reclaim no event shows (the identity gaps "memory.low/min"
 * and "memory.swap.max" follow them, models/world.c).
 */
static void snap_settings(struct rs_replay_input *ri, const struct rs_event *ev, int i,
			  struct ri_memcg *m, uint64_t ts)
{
	const struct rs_ev_snap_memcg *s = &ev->snap_memcg;
	uint64_t v;

	if (s->have_min && (!m->have_min || m->memory_min != pages(ri, s->min))) {
		m->memory_min = pages(ri, s->min);
		m->have_min = true;
		ri_update(ri, ts, ev->offset, RS_WF_MEMORY_MIN, RS_WOP_SET, RS_WSRC_SNAPSHOT, i, -1,
			  0, (int64_t)m->memory_min);
	}
	if (s->have_low && (!m->have_low || m->memory_low != pages(ri, s->low))) {
		m->memory_low = pages(ri, s->low);
		m->have_low = true;
		ri_update(ri, ts, ev->offset, RS_WF_MEMORY_LOW, RS_WOP_SET, RS_WSRC_SNAPSHOT, i, -1,
			  0, (int64_t)m->memory_low);
	}
	if (m->memory_min || m->memory_low)
		m->ever_protected = true;
	if (!s->have_swap)
		return;
	v = limit_pages(ri, s->swap_max);
	if (v != RS_UNLIMITED)
		m->ever_swap_limited = true;
	if (!m->have_swap || m->swap_max != v) {
		m->swap_max = v;
		ri_update(ri, ts, ev->offset, RS_WF_SWAP_MAX, RS_WOP_SET, RS_WSRC_SNAPSHOT, i, -1,
			  0, (int64_t)v);
	}
	v = pages(ri, s->swap);
	if (!m->have_swap || m->swap_usage != v) {
		m->swap_usage = v;
		ri_update(ri, ts, ev->offset, RS_WF_SWAP_USAGE, RS_WOP_SET, RS_WSRC_SNAPSHOT, i,
			  -1, 0, (int64_t)v);
	}
	m->have_swap = true;
}

/* A memcg_stat snapshot of memcg row i (the loading stage's: by id, or by path without id=). */
static void on_snap_memcg(struct rs_replay_input *ri, const struct rs_event *ev, int i)
{
	const struct rs_ev_snap_memcg *s = &ev->snap_memcg;
	struct ri_memcg *m = ri_memcg_at(ri, i);
	int64_t lru[RS_NR_EVICTABLE], d[RS_NR_EVICTABLE];
	uint64_t limit, soft = RS_UNLIMITED, usage, ts;
	const int64_t *cum;

	if (!m)
		return;
	/*
	 * The values are as of the recorder's read, whose flush event came first (same pid):
	 * up to 170 ms before the marker, and a reclaim in between freed a thousand pages that
	 * the values do not show (the 7.2 memory.high trace at 28.306 s / 28.353 s: the sizes
	 * anchored to the marker's time were 828 inactive file pages short for three calls).
	 */
	ri->recorder_pid = ev->pid;
	ts = ev->ts;
	cum = m->cum;
	if (m->have_read && m->read_pid == ev->pid && m->read_ts <= ev->ts) {
		ts = m->read_ts;
		cum = m->read_cum;
		ri->rep.snapshots_at_read++;
	}
	m->have_read = false;
	ri->rep.memcg_snapshots++;
	if (ri_memcg_is_root(ri, i)) {
		ri_warn(ri, "memcg_stat of the root ignored: the root's own lists are node_stat "
			"minus the tracked memcgs");
		return;
	}
	m->flags |= RI_MF_SNAP;
	ri_source_note(&m->snap, ev);
	/*
	 * Reading memory.stat flushed the memcg's subtree: what lruvec_page_state() reads from
	 * now on. The deltas so far go out first, so that the flush sees them and no later one.
	 */
	ri_flush_deltas(ri);
	ri_update(ri, ts, ev->offset, RS_WF_WS_FLUSH, RS_WOP_SET, RS_WSRC_SNAPSHOT, i, -1, 0, 0);
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		lru[l] = (int64_t)pages(ri, s->lru_bytes[l]);
		d[l] = lru[l] - cum[l];	/* cum includes what is pending */
		/* the size it sets unless the memcg turns out to have deltas */
		ri_update(ri, ts, ev->offset, RS_WF_LRU, RS_WOP_SET, RS_WSRC_SNAPSHOT, i, 0, l,
		       lru[l]);
	}
	memcpy(m->snap_lru, lru, sizeof(lru));
	m->have_snap_lru = true;
	/*
	 * memory.numa_stat is read right after memory.stat and flushes again: the list stats are
	 * then what the marker's numa_* say (RS_WF_LRU_STAT per node), not the lists the world
	 * holds at that flush, which the read re-splits only later (the two-node memcg-high
	 * recording at 57.243 s: node 1's inactive anon seen 1,617 against 1,689 active where the
	 * reads said 1,731, and the model deactivated anon the kernel left alone). Its refault
	 * counters are flushed all the same.
	 */
	if (s->numa_nodes && m->read_flush2 && m->read_flush2 <= ri->nupd &&
	    ri->upd[m->read_flush2 - 1].field == RS_WF_WS_FLUSH)
		ri->upd[m->read_flush2 - 1].value = 0;
	m->read_flush2 = 0;
	if (!s->numa_nodes) {
		m->numa_missing++;
	} else if (RS_GROW(m->numa, m->capnuma, m->nnuma + 1, 64) < 0) {
		ri->oom = true;
	} else {
		struct ri_numa *n = &m->numa[m->nnuma++];

		n->ts = ts;
		n->nodes = s->numa_nodes;
		n->ws_nodes = s->numa_ws_nodes;
		for (int nid = 0; nid < RS_SNAP_NODES; nid++) {
			for (int l = 0; l < RS_NR_EVICTABLE; l++)
				n->v[nid][l] = (int64_t)pages(ri, s->numa_bytes[nid][l]);
			for (int k = 0; k < 4; k++)
				n->ws[nid][k] = (int64_t)s->numa_ws[nid][k];
		}
	}
	if (!(m->flags & RI_MF_DELTA) && !m->have_pre) {
		m->have_pre = true;
		memcpy(m->pre, lru, sizeof(lru));
	}
	if (m->flags & RI_MF_DELTA)
		anchor(ri, m, i, ts, ev->offset, d);
	add_sample(ri, m, d);

	usage = pages(ri, s->usage);
	limit = limit_pages(ri, s->limit);
	if (s->soft_limit != UINT64_MAX) {
		soft = limit_pages(ri, s->soft_limit);
		m->soft_recorded = true;
		ri->saw_soft = true;
	}
	if (!m->have_usage || m->usage != usage)
		ri_update(ri, ts, ev->offset, RS_WF_USAGE, RS_WOP_SET, RS_WSRC_SNAPSHOT, i, -1,
		       0, (int64_t)usage);
	if (!m->have_usage || m->limit != limit)
		ri_update(ri, ts, ev->offset, RS_WF_LIMIT, RS_WOP_SET, RS_WSRC_SNAPSHOT, i, -1,
		       0, (int64_t)limit);
	if (m->soft_recorded && (!m->have_usage || m->soft != soft))
		ri_update(ri, ts, ev->offset, RS_WF_SOFT_LIMIT, RS_WOP_SET, RS_WSRC_SNAPSHOT, i,
		       -1, 0, (int64_t)soft);
	if (s->swappiness >= 0 && (!m->have_usage || m->swappiness != s->swappiness))
		ri_update(ri, ts, ev->offset, RS_WF_SWAPPINESS, RS_WOP_SET, RS_WSRC_SNAPSHOT, i,
		       -1, 0, s->swappiness);
	snap_settings(ri, ev, i, m, ts);
	if (!m->have_usage)
		m->usage_first = usage;
	m->have_usage = true;
	m->usage = usage;
	if (usage > m->usage_max)
		m->usage_max = usage;
	m->limit = limit;
	m->soft = soft;
	if (s->swappiness >= 0)
		m->swappiness = s->swappiness;
	if (m->soft_recorded && soft != RS_UNLIMITED && usage > soft)
		m->soft_over++;
}

/*
 * node_stat: free pages, the high watermark, and the root's own lists = node - the tracked
 * memcgs' lists. Memcgs with deltas so far count with their deltas (their offsets are only
 * known at the end and are subtracted then: `k` says how many of them there were, in the
 * order they got deltas); the others with their latest snapshot (its part kept apart: on cgroup v2
 * a snapshot counts the memcg's subtree, and the build takes the world's own lists off instead,
 * replay_build.c root_own_v2()).
 */
static void on_snap_node(struct rs_replay_input *ri, const struct rs_event *ev)
{
	const struct rs_ev_snap_node *s = &ev->snap_node;
	struct ri_root_upd *r;

	if (s->nid < 0 || s->nid >= 1024)
		return;
	if (s->nid > ri->max_nid)
		ri->max_nid = s->nid;
	ri->rep.node_snapshots++;
	/* the root's own deltas so far go before the snapshot that re-anchors its lists */
	ri_flush_deltas(ri);
	ri_update(ri, ev->ts, ev->offset, RS_WF_NODE_FREE, RS_WOP_SET, RS_WSRC_SNAPSHOT, -1, s->nid,
	       0, (int64_t)s->free_pages);
	if (s->wmark_high) {
		ri->rep.have_wmark = true;
		ri_source_note(&ri->rep.wmark, ev);
		ri_update(ri, ev->ts, ev->offset, RS_WF_NODE_WMARK_HIGH, RS_WOP_SET,
		       RS_WSRC_SNAPSHOT, -1, s->nid, 0, (int64_t)s->wmark_high);
	}
	if (ri_grow((void **)&ri->root, &ri->caproot, ri->nroot + 1, sizeof(*ri->root))) {
		ri->oom = true;
		return;
	}
	r = &ri->root[ri->nroot++];
	r->ts = ev->ts;
	r->off = ev->offset;
	r->nid = s->nid;
	r->k = (uint32_t)ri->ndelta;
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		r->raw[l] = r->node[l] = (int64_t)s->lru_pages[l];
		r->snap[l] = 0;
	}
	if (s->nid != 0)
		return;
	for (int i = 0; i < ri->nmc; i++) {
		const struct ri_memcg *m = &ri->mc[i];

		if (ri_memcg_is_root(ri, i))
			continue;
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			if (m->flags & RI_MF_DELTA) {
				r->raw[l] -= m->cum[l] + m->corr[l];
			} else if (m->have_snap_lru) {
				r->raw[l] -= m->snap_lru[l];
				r->snap[l] += m->snap_lru[l];
			}
		}
	}
}

/* ---- memcg counters and lruvec deltas ---- */

/*
 * An LRU list's delta (the loading stage names the list and the memcg), or a workingset
 * counter's (the memcg of a known id: workingset items name no row there).
 */
static void on_lruvec(struct rs_replay_input *ri, const struct rs_event *ev,
		      const struct rs_memcg_ctx *mc)
{
	int item = ev->memcg.item, lru = mc->lru, ws = -1, i;
	struct ri_memcg *m;

	if (lru >= RS_NR_EVICTABLE)
		lru = -1;
	if (lru < 0 && item >= 0 && item < ri->nns)
		ws = ri->ns_ws[item];
	if (lru < 0 && ws < 0)
		return;
	i = ri_memcg_row(ri, mc->named >= 0 ? mc->named : rs_memcgs_find_id(mc->memcgs,
									   ev->memcg.id));
	m = ri_memcg_at(ri, i);
	if (!m)
		return;
	if (lru >= 0) {
		if (!(m->flags & RI_MF_DELTA)) {
			size_t cap = ri->capdelta;

			if (ri_grow((void **)&ri->delta_order, &cap, ri->ndelta + 1, sizeof(int))) {
				ri->oom = true;
				return;
			}
			ri->capdelta = cap;
			ri->delta_order[ri->ndelta++] = i;
			m->flags |= RI_MF_DELTA;
		}
		ri_source_note(&m->delta, ev);
		m->pend[lru] += ev->memcg.val;
		m->cum[lru] += ev->memcg.val;
		m->pend_ts = ev->ts;
		ri->rep.delta_events++;
	} else {
		ri_source_note(&m->ws, ev);
		m->ws_pend[ws] += ev->memcg.val;
		m->ws_ts = ev->ts;
		ri->rep.ws_events++;
	}
	ri_mark_dirty(ri, i);
}

void ri_node_flow(struct rs_replay_input *ri, int nid, struct rs_zone_flow *out)
{
	struct ri_node *n = nid >= 0 && (size_t)nid < ri->nnode ? &ri->node[nid] : NULL;

	if (!n || !ri->zone_flow) {
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = n->flow;
	out->lost = ri->lost_marks;
}

/*
 * `zone_read` (record --zone-flow): the recorder reads /proc/zoneinfo right after it, so the
 * zone_stat samples that follow are as of this moment; keep each node's flow and reclaim here.
 */
static void on_zone_read(struct rs_replay_input *ri, const struct rs_event *ev)
{
	ri->read_ts = ev->ts;
	for (size_t i = 0; i < ri->nnode; i++) {
		struct ri_node *n = &ri->node[i];

		ri_node_flow(ri, (int)i, &n->read_flow);
		n->read_reclaimed = n->reclaimed;
		n->read_ts = ev->ts;
	}
}

/*
 * A kmem page event: its pages onto or off the buddy lists of the zone whose pfn range holds
 * it (the zone_stat ranges; zones of one node do not overlap unless ZONE_MOVABLE is carved out
 * of another's span, kernelcore=/movablecore=, where the first zone listed wins).
 */
static void on_buddy(struct rs_replay_input *ri, const struct rs_event *ev)
{
	int64_t pages;

	if (!ri->zone_flow)
		return;
	pages = rs_buddy_pages(ev->buddy.kind, ev->buddy.order, ri->pmd_order);
	if (!pages)
		return;
	for (size_t i = 0; i < ri->nnode; i++) {
		struct ri_node *n = &ri->node[i];

		if (!n->flow.ok)
			continue;
		for (int z = 0; z < RS_ZONE_MAX; z++)
			if (ev->buddy.pfn >= n->pfn_start[z] && ev->buddy.pfn < n->pfn_end[z]) {
				n->flow.pages[z] += pages;
				ri->rep.flow.events++;
				return;
			}
	}
}

static void on_marker(struct rs_replay_input *ri, const struct rs_event *ev)
{
	char b[64];
	const char *t = ev->marker, *v;

	if (t && !strncmp(t, "zone_read", 9) && (!t[9] || isspace((unsigned char)t[9]))) {
		on_zone_read(ri, ev);
		return;
	}
	/* `swap total=KB free=KB` (a marker the recorder may write; docs/replay.md) */
	if (!t || strncmp(t, "swap ", 5))
		return;
	v = rs_meta_value(t + 5, "free", b, sizeof(b));
	if (!v)
		return;
	ri->rep.swap = RS_RI_SWAP_MARKER;
	ri_source_note(&ri->rep.swap_marker, ev);
	ri_update(ri, ev->ts, ev->offset, RS_WF_SWAP_FREE, RS_WOP_SET, RS_WSRC_SNAPSHOT, -1, -1, 0,
	       (int64_t)(strtoull(v, NULL, 10) * 1024 / (ri->page_size ? ri->page_size : 4096)));
}

/*
 * A memcg made or removed in the range (the loading stage names its row; events of another
 * controller's hierarchy name none): a made one's sizes start at 0, a removed one goes offline.
 */
static void on_cgroup(struct rs_replay_input *ri, const struct rs_event *ev, int row)
{
	struct ri_memcg *m;

	if (ev->cgroup.op != RS_CG_MKDIR && ev->cgroup.op != RS_CG_RMDIR)
		return;
	m = ri_memcg_at(ri, ri_memcg_row(ri, row));
	if (!m)
		return;
	if (ev->cgroup.op == RS_CG_MKDIR) {
		m->flags |= RI_MF_MKDIR;
		m->mkdir_off = ev->offset;
	} else {
		m->flags |= RI_MF_RMDIR;
		m->rmdir_ts = ev->ts;
		m->rmdir_off = ev->offset;
	}
}

struct ri_node *ri_node_get(struct rs_replay_input *ri, int nid)
{
	if (nid < 0 || nid >= 1024)
		return NULL;
	if ((size_t)nid >= ri->nnode) {
		if (RS_GROW(ri->node, ri->capnode, (size_t)nid + 1, 4)) {
			ri->oom = true;
			return NULL;
		}
		for (size_t i = ri->nnode; i <= (size_t)nid; i++)
			ri->node[i] = (struct ri_node){ .zs_cur = SIZE_MAX, .zs_last_idx = -1 };
		ri->nnode = (size_t)nid + 1;
	}
	return &ri->node[nid];
}

/*
 * zone_stat: one marker per zone, in zone order, every interval: a zone index not above the
 * last one given to the node's latest sample starts the next sample, timed at its first zone.
 */
static void on_snap_zone(struct rs_replay_input *ri, const struct rs_event *ev)
{
	const struct rs_ev_snap_zone *z = &ev->snap_zone;
	struct ri_node *n = ri_node_get(ri, z->nid);
	struct rs_zone_sample *s;
	struct rs_zone *d;

	ri_source_note(&ri->rep.zone, ev);
	ri->rep.zone_idx |= 1u << z->idx;	/* idx < RS_ZONE_MAX: the decoder */
	if (!n)
		return;
	if (z->nid > ri->max_nid)
		ri->max_nid = z->nid;
	if (n->zs_cur == SIZE_MAX || z->idx <= n->zs_last_idx) {
		if (RS_GROW(ri->zs, ri->capzs, ri->nzs + 1, 64)) {
			ri->oom = true;
			return;
		}
		n->zs_cur = ri->nzs++;
		s = &ri->zs[n->zs_cur];
		memset(s, 0, sizeof(*s));
		s->ts = ev->ts;
		s->nid = z->nid;
		s->reclaimed = n->reclaimed;
		/*
		 * As of the zone_read marker before it (--zone-flow): the read, not this marker,
		 * written milliseconds later in a slow guest, is when the free pages were so. No
		 * marker since the node's previous sample: no flow for this one.
		 */
		if (n->read_ts && n->read_ts <= ev->ts &&
		    (n->zs_prev_ts == 0 || n->read_ts > n->zs_prev_ts)) {
			s->ts = n->read_ts;
			s->reclaimed = n->read_reclaimed;
			s->flow = n->read_flow;
		}
		n->zs_prev_ts = s->ts;
		if (s->flow.ok) {
			if (!n->flow_first_ts) {
				n->flow_first = s->flow;
				n->flow_first_ts = s->ts;
			}
			n->flow_last = s->flow;
			n->flow_last_ts = s->ts;
			ri->rep.flow.samples++;
		}
	}
	s = &ri->zs[n->zs_cur];
	n->zs_last_idx = z->idx;
	if (z->idx + 1 > s->nr_zones)
		s->nr_zones = z->idx + 1;
	d = &s->zone[z->idx];
	*d = (struct rs_zone){
		.managed = z->managed > 0, .managed_pages = z->managed, .free = z->free_pages,
		.free_cma = z->free_cma,
		.highatomic = z->free_highatomic > 0 ? (uint64_t)z->free_highatomic : 0,
		.wmark_min = z->wmark_min, .wmark_low = z->wmark_low, .wmark_high = z->wmark_high,
		.blocks = z->nr_blocks ? 0 : RS_ZONE_BLOCKS_UNKNOWN,
		.pcp = z->pcp_high >= 0 ? z->pcp : -1, .pcp_high = z->pcp >= 0 ? z->pcp_high : -1,
	};
	for (int i = 0; i < z->nr_reserve && i < RS_ZONE_MAX; i++)
		d->lowmem_reserve[i] = z->lowmem_reserve[i];
	/* a zone's reserve for the zones above the list's end: its last value */
	for (int i = z->nr_reserve; i > 0 && i < RS_ZONE_MAX; i++)
		d->lowmem_reserve[i] = z->lowmem_reserve[z->nr_reserve - 1];
	for (int o = 0; o < z->nr_blocks && o < RS_ZONE_ORDERS; o++)
		if (z->blocks[o])
			d->blocks |= 1u << o;
	/* the pfn range the kmem events are told by; from here on this node's flow counts */
	if (z->spanned && ri->zone_flow) {
		n->pfn_start[z->idx] = z->start_pfn;
		n->pfn_end[z->idx] = z->start_pfn + z->spanned;
		n->flow.ok = true;
	}
}

/* A 7.x balance_pgdat run: its begin and end orders tell compact_gap() (compact_gap.h) */
static void on_balance(struct rs_replay_input *ri, const struct rs_event *ev)
{
	struct ri_node *n = ri_node_get(ri, ev->balance.nid >= 0 ? ev->balance.nid : 0);

	if (!n)
		return;
	if (ev->type == RS_EV_BALANCE_BEGIN) {
		n->bal_order = ev->balance.order >= 0 && ev->balance.order < 63
			       ? ev->balance.order + 1 : 0;
		return;
	}
	if (n->bal_order)
		rs_gap_note(&ri->rep.gap_evidence, n->bal_order - 1, ev->balance.order,
			    ev->balance.nr_reclaimed);
	n->bal_order = 0;
}

static int ri_event(void *arg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct rs_replay_input *ri = arg;
	struct ri_task *t;
	int i;

	ri->memcgs = ctx->memcg->memcgs;
	if (!ri->first_ts)
		ri->first_ts = ev->ts;
	ri->last_ts = ev->ts;
	switch (ev->type) {
	case RS_EV_MEMCG_COUNT:
		if (ctx->memcg->item_class == RS_MIC_PSWPOUT)
			ri->rep.swap_pswpout++;
		else if (ctx->memcg->item_class == RS_MIC_PSWPIN)
			on_swapin(ri, ev, ctx->memcg);
		return 0;
	case RS_EV_MEMCG_LRUVEC:
		on_lruvec(ri, ev, ctx->memcg);
		return 0;
	case RS_EV_MEMCG_STATE:
		return 0;
	case RS_EV_MEMCG_FLUSH:
		on_flush(ri, ev);
		return 0;
	case RS_EV_META:
		on_meta(ri, ev);
		return 0;
	case RS_EV_ITEM_NAMES:
		on_items(ri, ev);
		return 0;
	case RS_EV_CGROUP:
		on_cgroup(ri, ev, ctx->memcg->named);
		return 0;
	case RS_EV_SNAP_MEMCG:
		i = ri_memcg_row(ri, ctx->memcg->named);
		if (i >= 0)
			on_snap_memcg(ri, ev, i);
		return 0;
	case RS_EV_SNAP_NODE:
		on_snap_node(ri, ev);
		return 0;
	case RS_EV_SNAP_ZONE:
		on_snap_zone(ri, ev);
		return ri->oom ? -1 : 0;
	case RS_EV_MARKER:
		on_marker(ri, ev);
		return 0;
	case RS_EV_BUDDY:
		on_buddy(ri, ev);
		return 0;
	case RS_EV_BALANCE_BEGIN:
	case RS_EV_BALANCE_END:
		on_balance(ri, ev);
		t = ev->type == RS_EV_BALANCE_END ? ri_task_get(ri, ev->pid, false) : NULL;
		if (t)
			ri_calls_run_end(ri, t, ev->ts);
		return ri->oom ? -1 : 0;
	case RS_EV_LOST:
		ri->lost_marks++;
		ri->rep.lost = true;
		if (ev->lost > 0)
			ri->rep.lost_events += (uint64_t)ev->lost;
		return 0;
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_KSWAPD_SLEEP:
		if (ev->kswapd.nid > ri->max_nid && ev->kswapd.nid < 1024)
			ri->max_nid = ev->kswapd.nid;
		/* fallthrough */
	case RS_EV_SHRINK_INACTIVE:
		/* the node's reclaim, every context: what zone_stat's free pages were fed */
		if (ev->type == RS_EV_SHRINK_INACTIVE) {
			struct ri_node *n = ri_node_get(ri, ev->inactive.nid >= 0
							    ? ev->inactive.nid : 0);

			if (n)
				n->reclaimed += ev->inactive.nr_reclaimed;
		}
		/* fallthrough */
	case RS_EV_RECLAIM_BEGIN:
	case RS_EV_RECLAIM_END:
	case RS_EV_LRU_ISOLATE:
	case RS_EV_SHRINK_ACTIVE:
	case RS_EV_WRITE_FOLIO:
		t = ri_task_get(ri, ev->pid, true);
		if (t)
			ri_calls_event(ri, ev, ctx, t);
		return ri->oom ? -1 : 0;
	case RS_EV_THROTTLED:
	case RS_EV_SLAB_START:
		/* what came of an ISOLATED throttle (replay_calls.c): tasks in reclaim only */
		t = ri_task_get(ri, ev->pid, false);
		if (t)
			ri_calls_event(ri, ev, ctx, t);
		return 0;
	default:
		return 0;
	}
}

static int ri_finish(void *arg, struct rs_error *err)
{
	struct rs_replay_input *ri = arg;

	for (size_t i = 0; i < ri->nnode; i++) {
		const struct ri_node *n = &ri->node[i];

		if (!n->flow_first_ts)
			continue;
		for (int z = 0; z < RS_ZONE_MAX; z++)
			ri->rep.flow.net[z] += n->flow_last.pages[z] - n->flow_first.pages[z];
		if (!i) {
			ri->rep.flow.first_ts = n->flow_first_ts;
			ri->rep.flow.last_ts = n->flow_last_ts;
		}
	}

	if (ri->oom)
		return rs_error_set(err, "replay input: out of memory");
	return 0;
}

void rs_replay_input_consumer(struct rs_replay_input *ri, struct rs_consumer *out)
{
	*out = (struct rs_consumer){ .name = "replay-input", .arg = ri, .event = ri_event,
		.finish = ri_finish };
}

struct rs_replay_input *rs_replay_input_new(const struct rs_replay_input_opts *o,
					    struct rs_error *err)
{
	struct rs_replay_input *ri = calloc(1, sizeof(*ri));

	if (!ri) {
		rs_error_set(err, "out of memory");
		return NULL;
	}
	if (o)
		ri->o = *o;
	if (!ri->o.max_calls)
		ri->o.max_calls = RS_RI_MAX_CALLS;
	if (!ri->o.max_tasks)
		ri->o.max_tasks = RS_EPISODES_MAX_TASKS;
	ri->rep.vm_swappiness = 60;
	ri->rep.nr_nodes = 1;
	ri->page_size = 4096;
	ri->pmd_order = 9;
	return ri;
}

void rs_replay_input_free(struct rs_replay_input *ri)
{
	if (!ri)
		return;
	for (int i = 0; i < ri->nmc; i++) {
		free(ri->mc[i].samp);
		free(ri->mc[i].numa);
	}
	for (size_t i = 0; i < ri->ncall; i++)
		ri_call_free(&ri->call[i]);
	for (size_t i = 0; i < ri->nwarn; i++)
		free(ri->warn[i]);
	free((void *)ri->rep.memcg);
	free(ri->mc);
	free(ri->kernel);
	free(ri->dirty);
	free(ri->task);
	rs_pidmap_free(&ri->task_by_pid);
	free(ri->upd);
	free(ri->root);
	free(ri->delta_order);
	free(ri->call);
	free(ri->node);
	free(ri->zs);
	free(ri->ns_ws);
	free(ri->header_cgroup);
	free(ri->refusal);
	rs_world_free(ri->world);
	free(ri);
}

const struct rs_ri_report *rs_replay_input_report(const struct rs_replay_input *ri)
{
	return &ri->rep;
}

const char *rs_replay_input_warning(const struct rs_replay_input *ri, size_t i)
{
	return i < ri->nwarn ? ri->warn[i] : NULL;
}

struct rs_world *rs_replay_input_world(struct rs_replay_input *ri, struct rs_error *err)
{
	if (ri->built)
		return ri->world;
	if (ri_build_world(ri, err))
		return NULL;
	ri->built = true;
	return ri->world;
}

/*
 * MGLRU told from the trace's shape (parsers/lru_shape.c) counts as much as the marker: a
 * trace-cmd recording without markers, or a marker that disagrees with the events.
 */
void rs_replay_input_lru_shape(struct rs_replay_input *ri, const struct rs_trace_info *ti)
{
	if (ti->mglru > 0 && ti->mglru_how) {
		ri->rep.mglru = true;
		ri->rep.mglru_shape = ti->mglru_how;
	} else if (ti->mglru < 0 && !ri->rep.mglru) {
		ri->rep.mglru_unknown = ti->mglru_how ? ti->mglru_how : "nothing tells";
	}
}

int rs_replay_input_kernel(struct rs_replay_input *ri, const char *release)
{
	free(ri->kernel);
	ri->kernel = release ? strdup(release) : NULL;
	return release && !ri->kernel ? -1 : 0;
}

const char *rs_replay_input_refusal(const struct rs_replay_input *ri)
{
	return ri->refusal;
}

int rs_replay_input_build(const char *path, const struct rs_analysis_opts *ao,
			  const struct rs_replay_input_opts *o, struct rs_replay_build *out,
			  struct rs_error *err)
{
	struct rs_analysis_opts opts = ao ? *ao : (struct rs_analysis_opts){ .pid = -1 };
	struct rs_consumer cons[RS_ANALYSIS_MAX_CONSUMERS];
	int n = 0;

	memset(out, 0, sizeof(*out));
	out->ri = rs_replay_input_new(o, err);
	if (!out->ri)
		return -1;
	for (; n < opts.nr_consumers && n < RS_ANALYSIS_MAX_CONSUMERS - 1; n++)
		cons[n] = opts.consumers[n];
	rs_replay_input_consumer(out->ri, &cons[n++]);
	opts.consumers = cons;
	opts.nr_consumers = n;
	if (rs_analysis_run(path, &opts, &out->a, err) < 0)
		goto fail;
	rs_replay_input_lru_shape(out->ri, rs_source_info(rs_analysis_source(out->a)));
	if (rs_replay_input_kernel(out->ri, rs_source_info(rs_analysis_source(out->a))->kernel)) {
		rs_error_set(err, "out of memory");
		goto fail;
	}
	out->w = rs_replay_input_world(out->ri, err);
	if (!out->w)
		goto fail;
	return 0;
fail:
	rs_replay_build_free(out);
	return -1;
}

void rs_replay_build_free(struct rs_replay_build *b)
{
	rs_replay_input_free(b->ri);
	rs_analysis_free(b->a);
	memset(b, 0, sizeof(*b));
}
