// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim context per task (see include/episodes.h for the rules).
 *
 * Tasks are found by pid through an open-addressing table, with a one-entry cache because
 * reclaim events of one task come in runs. A task's comm is compared as a string only when the
 * loader hands a different comm pointer (libtraceevent keeps one per pid), so the hot path does
 * no string work. Loss of ring-buffer events is a generation counter: an episode is broken when
 * the generation moved while it was open, which costs O(1) per RS_EV_LOST.
 */
#include <stdlib.h>
#include <string.h>

#include "episodes.h"
#include "pidmap.h"
#include "rs_grow.h"
#include "rs_warn.h"

enum ks_state { KS_UNKNOWN, KS_AWAKE, KS_ASLEEP };

struct open_ep {
	enum rs_ctx_kind kind, parent;
	int order, nid;
	uint64_t serial, begin_ts, memcg_id, loss_gen;
	uint32_t rewakes;
};

/*
 * The task's last lru_shrink_inactive, until its next lru_isolate (shrink_retry()).
 */
struct last_shrink {
	bool valid;
	bool file;
	int nid;
	uint64_t scanned;
};

struct task {
	struct rs_task_info info;
	struct last_shrink last_si;
	const char *comm_ptr;		/* the ev->comm last compared */
	bool selected;
	uint8_t seen;			/* bit per reclaim kind: a begin or end was seen */
	uint8_t ks_state;
	int depth;
	struct open_ep stack[RS_EPISODES_MAX_DEPTH];
	struct open_ep ks;		/* kswapd's awake period while KS_AWAKE */
	int ks_nid;			/* the node a kswapd reclaims; -1 unknown */
};

struct rs_episodes {
	struct rs_episodes_opts o;
	struct task *tasks;
	int nr_tasks, cap_tasks;
	struct rs_pidmap task_by_pid;	/* pid -> index in tasks[] */
	uint64_t serial, loss_gen;
	uint64_t untracked, nest_overflows;
	bool warned_full;
	char filter_comm[16];
};

static const char *const ctx_names[RS_CTX_NR] = {
	"direct", "memcg", "softlimit", "node", "kswapd", "other"
};

const char *rs_ctx_name(int kind)
{
	return kind >= 0 && kind < RS_CTX_NR ? ctx_names[kind] : "unknown";
}

const char *rs_ep_status_name(int status)
{
	static const char *const names[RS_EP_NR_STATUS] = {
		"complete", "cut_start", "cut_end", "unmatched_end", "missed_end"
	};

	return status >= 0 && status < RS_EP_NR_STATUS ? names[status] : "unknown";
}

struct rs_episodes *rs_episodes_new(const struct rs_episodes_opts *o)
{
	struct rs_episodes *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->o = *o;
	if (!e->o.max_tasks)
		e->o.max_tasks = RS_EPISODES_MAX_TASKS;
	if (e->o.max_tasks > (1u << 26))
		e->o.max_tasks = 1u << 26;
	if (o->filter_comm) {
		/* the kernel's comm is 15 characters: compare what it can hold */
		strncpy(e->filter_comm, o->filter_comm, sizeof(e->filter_comm) - 1);
		e->o.filter_comm = e->filter_comm;
	}
	return e;
}

void rs_episodes_free(struct rs_episodes *e)
{
	if (!e)
		return;
	free(e->tasks);
	rs_pidmap_free(&e->task_by_pid);
	free(e);
}

static bool is_kswapd_comm(const char *comm)
{
	return !strncmp(comm, "kswapd", 6) && comm[6] >= '0' && comm[6] <= '9';
}

static bool filter_match(const struct rs_episodes *e, int pid, const char *comm)
{
	if (e->o.filter_pid >= 0 && pid != e->o.filter_pid)
		return false;
	if (e->o.filter_comm && (!comm || strcmp(comm, e->o.filter_comm)))
		return false;
	return true;
}

static void set_comm(struct rs_episodes *e, struct task *t, const char *comm)
{
	t->comm_ptr = comm;
	if (!comm || !strcmp(comm, "<...>") ||
	    !strncmp(t->info.comm, comm, sizeof(t->info.comm) - 1))
		return;
	strncpy(t->info.comm, comm, sizeof(t->info.comm) - 1);
	t->info.comm[sizeof(t->info.comm) - 1] = '\0';
	if (is_kswapd_comm(t->info.comm)) {
		t->info.kswapd = true;
		/* kswapd_run() names the thread "kswapd%d" after its node; its events say better */
		if (t->ks_nid < 0)
			t->ks_nid = atoi(t->info.comm + 6);
	}
	t->selected = filter_match(e, t->info.pid, t->info.comm);
	t->info.selected = t->selected;
}

/* The task of pid, created on first sight; NULL when the table is full. */
static struct task *task_get(struct rs_episodes *e, int pid, const char *comm)
{
	struct task *t;
	int i = rs_pidmap_get(&e->task_by_pid, pid);

	if (i >= 0) {
		t = &e->tasks[i];
		goto found;
	}
	if ((size_t)e->nr_tasks >= e->o.max_tasks)
		goto full;
	if (e->nr_tasks == e->cap_tasks) {
		size_t cap = (size_t)e->cap_tasks;

		if (rs_grow((void **)&e->tasks, &cap, (size_t)e->nr_tasks + 1, sizeof(*e->tasks),
			    256, e->o.max_tasks))
			goto full;
		e->cap_tasks = (int)cap;
	}
	if (rs_pidmap_put(&e->task_by_pid, pid, e->nr_tasks) < 0)
		goto full;
	t = &e->tasks[e->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->info.pid = pid;
	t->ks_nid = -1;
	strcpy(t->info.comm, "<...>");
	t->selected = filter_match(e, pid, NULL) && !e->o.filter_comm;
	t->info.selected = t->selected;
found:
	if (comm != t->comm_ptr)
		set_comm(e, t, comm);
	return t;
full:
	if (!e->warned_full && e->o.warnings) {
		rs_warn(e->o.warnings, "more than %zu tasks: events of further tasks are not "
			"attributed to reclaim episodes (context \"other\")", e->o.max_tasks);
		e->warned_full = true;
	}
	return NULL;
}

static int task_index(const struct rs_episodes *e, const struct task *t)
{
	return (int)(t - e->tasks);
}

static enum rs_ctx_kind innermost(const struct task *t)
{
	if (t->depth)
		return t->stack[t->depth - 1].kind;
	return t->info.kswapd ? RS_CTX_KSWAPD : RS_CTX_OTHER;
}

static enum rs_ctx_kind outermost(const struct task *t)
{
	if (t->info.kswapd)
		return RS_CTX_KSWAPD;
	return t->depth ? t->stack[0].kind : RS_CTX_OTHER;
}

static void emit(struct rs_episodes *e, const struct task *t, const struct open_ep *o,
		 enum rs_ep_status status, uint64_t end_ts, uint64_t nr_reclaimed,
		 uint64_t memcg_id)
{
	struct rs_episode ep = {
		.kind = o->kind,
		.status = status,
		.parent = o->parent,
		.pid = t->info.pid,
		.task = task_index(e, t),
		.serial = o->serial,
		.begin_ts = o->begin_ts,
		.end_ts = end_ts,
		.order = o->order,
		.nid = o->nid,
		.memcg_id = o->memcg_id ? o->memcg_id : memcg_id,
		.nr_reclaimed = nr_reclaimed,
		.rewakes = o->rewakes,
		.broken = o->loss_gen != e->loss_gen,
	};

	if (e->o.on_episode)
		e->o.on_episode(&ep, e->o.arg);
}

/* Close stack entries from the top down to (and including) index `down_to` as missed ends. */
static void close_missed(struct rs_episodes *e, struct task *t, int down_to, uint64_t ts)
{
	while (t->depth > down_to) {
		t->depth--;
		emit(e, t, &t->stack[t->depth], RS_EP_MISSED_END, ts, 0, 0);
	}
}

static int find_open(const struct task *t, enum rs_ctx_kind kind)
{
	for (int i = t->depth - 1; i >= 0; i--)
		if (t->stack[i].kind == kind)
			return i;
	return -1;
}

static void ep_begin(struct rs_episodes *e, struct task *t, const struct rs_event *ev)
{
	enum rs_ctx_kind kind = (enum rs_ctx_kind)ev->reclaim.kind;
	struct open_ep *o;
	int i = find_open(t, kind);

	/* the kernel never nests a kind in itself: the earlier one's end was lost */
	if (i >= 0)
		close_missed(e, t, i, ev->ts);
	if (t->depth == RS_EPISODES_MAX_DEPTH) {
		e->nest_overflows++;
		close_missed(e, t, t->depth - 1, ev->ts);
	}
	o = &t->stack[t->depth];
	o->kind = kind;
	o->parent = innermost(t);
	o->order = (ev->have & RS_HAVE_ORDER) ? ev->reclaim.order : -1;
	o->nid = (ev->have & RS_HAVE_NID) ? ev->reclaim.nid : -1;
	o->serial = ++e->serial;
	o->begin_ts = ev->ts;
	o->memcg_id = (ev->have & RS_HAVE_MEMCG_ID) ? ev->reclaim.memcg_id : 0;
	o->loss_gen = e->loss_gen;
	o->rewakes = 0;
	t->depth++;
	t->seen |= 1u << kind;
}

static void ep_end(struct rs_episodes *e, struct task *t, const struct rs_event *ev,
		   struct rs_ctx *ctx)
{
	enum rs_ctx_kind kind = (enum rs_ctx_kind)ev->reclaim.kind;
	uint64_t memcg = (ev->have & RS_HAVE_MEMCG_ID) ? ev->reclaim.memcg_id : 0;
	int i = find_open(t, kind);

	ctx->kind = kind;
	ctx->outer = outermost(t);
	if (i >= 0) {
		struct open_ep o;

		close_missed(e, t, i + 1, ev->ts);
		ctx->depth = t->depth;
		o = t->stack[i];
		t->depth = i;
		ctx->serial = o.serial;
		ctx->start_ts = o.begin_ts;
		emit(e, t, &o, RS_EP_COMPLETE, ev->ts, ev->reclaim.nr_reclaimed, memcg);
	} else {
		struct open_ep o = {
			.kind = kind,
			.parent = innermost(t),
			.order = -1,
			.nid = -1,
			.serial = ++e->serial,
			/* broken when anything was lost before it: its begin may have been */
			.loss_gen = e->loss_gen ? e->loss_gen - 1 : 0,
		};

		ctx->depth = t->depth + 1;
		if (!t->depth)
			ctx->outer = t->info.kswapd ? RS_CTX_KSWAPD : kind;
		ctx->serial = o.serial;
		ctx->start_ts = 0;
		emit(e, t, &o, (t->seen & (1u << kind)) ? RS_EP_UNMATCHED_END : RS_EP_CUT_START,
		     ev->ts, ev->reclaim.nr_reclaimed, memcg);
	}
	t->seen |= 1u << kind;
}

static void ks_start(struct rs_episodes *e, struct task *t, uint64_t ts, int order, int nid)
{
	t->ks = (struct open_ep){
		.kind = RS_CTX_KSWAPD,
		.parent = RS_CTX_OTHER,
		.order = order,
		.nid = nid,
		.serial = ++e->serial,
		.begin_ts = ts,
		.loss_gen = e->loss_gen,
	};
	t->ks_state = KS_AWAKE;
	if (nid >= 0)
		t->ks_nid = nid;
}

static void ks_sleep(struct rs_episodes *e, struct task *t, const struct rs_event *ev,
		     struct rs_ctx *ctx)
{
	struct open_ep o;
	enum rs_ep_status st;

	if (t->ks_state == KS_AWAKE) {
		o = t->ks;
		st = o.begin_ts ? RS_EP_COMPLETE : RS_EP_CUT_START;
	} else {
		o = (struct open_ep){
			.kind = RS_CTX_KSWAPD,
			.parent = RS_CTX_OTHER,
			.order = -1,
			.nid = ev->kswapd.nid,
			.serial = ++e->serial,
			.loss_gen = e->loss_gen ? e->loss_gen - 1 : 0,
		};
		st = t->ks_state == KS_UNKNOWN ? RS_EP_CUT_START : RS_EP_UNMATCHED_END;
	}
	if (o.nid < 0)
		o.nid = ev->kswapd.nid;
	if (ev->kswapd.nid >= 0)
		t->ks_nid = ev->kswapd.nid;
	t->ks_state = KS_ASLEEP;
	ctx->serial = o.serial;
	ctx->start_ts = o.begin_ts;
	emit(e, t, &o, st, ev->ts, 0, 0);
}

static void fill_ctx(const struct rs_episodes *e, const struct task *t, struct rs_ctx *ctx)
{
	ctx->task = task_index(e, t);
	ctx->selected = t->selected;
	ctx->kind = innermost(t);
	ctx->outer = outermost(t);
	ctx->depth = t->depth;
	ctx->kswapd_nid = t->info.kswapd ? t->ks_nid : -1;
	if (t->depth) {
		ctx->serial = t->stack[t->depth - 1].serial;
		ctx->start_ts = t->stack[t->depth - 1].begin_ts;
	} else if (t->info.kswapd && t->ks_state == KS_AWAKE) {
		ctx->serial = t->ks.serial;
		ctx->start_ts = t->ks.begin_ts;
	} else {
		ctx->serial = 0;
		ctx->start_ts = 0;
	}
}

/*
 * Whether an lru_shrink_inactive with no lru_isolate since the task's previous one repeats it:
 * MGLRU's evict_folios() (6.7+, where it emits the classic events) traces lru_shrink_inactive
 * right after shrink_folio_list(), then puts the folios that were under writeback and are clean
 * now back on its list and jumps back to that call once ("retry:"): the second event carries
 * the batch's nr_scanned again, though nothing new was isolated; only its nr_reclaimed and
 * outcome counts are new. The classic LRU emits lru_isolate before each shrink event. A retry
 * is retried no more (skip_retry).
 */
static bool shrink_retry(struct task *t, const struct rs_event *ev)
{
	const struct rs_ev_shrink_inactive *si = &ev->inactive;
	struct last_shrink *l = &t->last_si;
	bool file = si->reclaim_flags & RS_RECLAIM_WB_FILE;
	bool retry = l->valid && l->file == file && l->nid == si->nid &&
		     l->scanned == si->nr_scanned;

	*l = (struct last_shrink){ .valid = !retry, .file = file, .nid = si->nid,
				   .scanned = si->nr_scanned };
	return retry;
}

static void ctx_other(struct rs_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->kind = ctx->outer = RS_CTX_OTHER;
	ctx->task = -1;
	ctx->kswapd_nid = -1;
}

void rs_episodes_feed(struct rs_episodes *e, const struct rs_event *ev, struct rs_ctx *ctx)
{
	struct task *t;

	ctx_other(ctx);
	if (ev->type == RS_EV_LOST) {
		e->loss_gen++;
		return;
	}
	t = task_get(e, ev->pid, ev->comm);
	if (!t) {
		e->untracked++;
		ctx->selected = filter_match(e, ev->pid, ev->comm);
		return;
	}
	ctx->task = task_index(e, t);
	ctx->selected = t->selected;
	/* kswapd seen reclaiming before any wake or sleep: awake since before the trace */
	if (t->info.kswapd && t->ks_state == KS_UNKNOWN && rs_episodes_reclaim_work(ev->type))
		ks_start(e, t, 0, -1, -1);
	switch (ev->type) {
	case RS_EV_RECLAIM_BEGIN:
		if ((unsigned int)ev->reclaim.kind >= RS_RK_NR)
			break;
		ep_begin(e, t, ev);
		fill_ctx(e, t, ctx);
		ctx->began = true;
		return;
	case RS_EV_RECLAIM_END:
		if ((unsigned int)ev->reclaim.kind >= RS_RK_NR)
			break;
		ep_end(e, t, ev, ctx);
		return;
	case RS_EV_KSWAPD_WAKE:
		t->info.kswapd = true;
		if (t->ks_state == KS_AWAKE) {
			t->ks.rewakes++;
			ctx->rewake = true;
		} else {
			ks_start(e, t, ev->ts, (ev->have & RS_HAVE_ORDER) ? ev->kswapd.order : -1,
				 ev->kswapd.nid);
			ctx->began = true;
		}
		break;
	case RS_EV_KSWAPD_SLEEP:
		t->info.kswapd = true;
		fill_ctx(e, t, ctx);
		ks_sleep(e, t, ev, ctx);
		return;
	case RS_EV_LRU_ISOLATE:
		t->last_si.valid = false;
		break;
	case RS_EV_SHRINK_INACTIVE:
		ctx->shrink_retry = shrink_retry(t, ev);
		break;
	default:
		break;
	}
	fill_ctx(e, t, ctx);
}

void rs_episodes_context(struct rs_episodes *e, int pid, struct rs_ctx *ctx)
{
	int i = rs_pidmap_get(&e->task_by_pid, pid);

	ctx_other(ctx);
	ctx->selected = filter_match(e, pid, NULL) && !e->o.filter_comm;
	if (i >= 0)
		fill_ctx(e, &e->tasks[i], ctx);
}

void rs_episodes_finish(struct rs_episodes *e, uint64_t end_ts)
{
	for (int i = 0; i < e->nr_tasks; i++) {
		struct task *t = &e->tasks[i];

		while (t->depth > 0) {
			t->depth--;
			emit(e, t, &t->stack[t->depth], RS_EP_CUT_END, end_ts, 0, 0);
		}
		if (t->ks_state == KS_AWAKE) {
			t->ks_state = KS_UNKNOWN;
			emit(e, t, &t->ks, RS_EP_CUT_END, end_ts, 0, 0);
		}
	}
}

int rs_episodes_nr_tasks(const struct rs_episodes *e)
{
	return e->nr_tasks;
}

const struct rs_task_info *rs_episodes_task(const struct rs_episodes *e, int task)
{
	return task >= 0 && task < e->nr_tasks ? &e->tasks[task].info : NULL;
}

uint64_t rs_episodes_untracked(const struct rs_episodes *e)
{
	return e->untracked;
}

uint64_t rs_episodes_nest_overflows(const struct rs_episodes *e)
{
	return e->nest_overflows;
}
