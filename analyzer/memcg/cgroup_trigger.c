// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger side of the per-cgroup attribution: reclaim episodes (direct, memcg limit, soft
 * limit, node) entered by a cgroup's tasks, with exact latency statistics as `analyze` gives
 * them, and the reclaim root of each memcg episode.
 *
 * An episode belongs to the cgroup its task was in at the episode's begin (cgroup_ids.c). The
 * analysis reports an episode as it closes, before the event that closed it reaches the
 * consumer; that event's context says whether the task passes the pid/comm filter, so closed
 * episodes wait in a small queue until then. kswapd's episodes (and soft-limit reclaim inside
 * kswapd) belong to no cgroup: the matrix shows kswapd as a trigger of its own.
 *
 * The reclaim root of a memcg limit episode comes with the episode from the loading stage
 * (memcg_attrib.h): the kernel's memcg_id on 7.1+, else the lowest common ancestor of the
 * victims it took pages from (a lower bound).
 */
#include <stdlib.h>
#include <string.h>

#include "cgroup_rows.h"
#include "cgroup_series.h"
#include "cgroup_trigger.h"
#include "ep_slots.h"

static void add_root(struct rs_cgroups *cg, struct rs_cgroup *t, int v0, uint16_t len)
{
	const char *p = cg->cgs[v0].memcg.path;

	if (!p) {
		t->roots_unknown++;
		return;
	}
	for (int i = 0; i < t->nr_roots; i++) {
		const char *q = cg->cgs[t->roots[i].cg].memcg.path;

		if (t->roots[i].len == len && !memcmp(p, q, len)) {
			t->roots[i].episodes++;
			return;
		}
	}
	if (t->nr_roots == RS_CG_MAX_ROOTS) {
		t->roots_other++;
		return;
	}
	t->roots[t->nr_roots].cg = v0;
	t->roots[t->nr_roots].len = len;
	t->roots[t->nr_roots].episodes = 1;
	t->nr_roots++;
}

/* The reclaim root of a complete memcg episode of trigger c. */
static void count_root(struct rs_cgroups *cg, struct rs_cgroup *c, const struct rs_memcg_root *r)
{
	switch (r ? r->how : RS_ROOT_NONE) {
	case RS_ROOT_KERNEL: {
		const char *path;

		c->roots_kernel++;
		if (r->row < 0) {
			c->roots_none++;
			break;
		}
		cg->cgs[r->row].target_episodes++;
		cg->cgs[r->row].active = true;
		path = cg->cgs[r->row].memcg.path;
		add_root(cg, c, r->row, path && strcmp(path, "/") ? (uint16_t)strlen(path) : 0);
		break;
	}
	case RS_ROOT_INFERRED:
		add_root(cg, c, r->row, r->len);
		break;
	case RS_ROOT_UNKNOWN_PATH:
		c->roots_unknown++;
		break;
	default:
		c->roots_none++;
		break;
	}
}

static void process_episode(struct rs_cgroups *cg, const struct rs_episode *ep, bool selected)
{
	struct cg_rtask *rt = ep->task >= 0 && ep->task < cg->nr_rt ? &cg->rt[ep->task] : NULL;
	int slot = rt ? ep_slot_find(rt->ep_serial, CG_TASK_EPS, ep->serial) : -1;
	const struct rs_memcg_root *root = ep->root;
	struct rs_cg_trigger *t;
	struct rs_cgroup *c;
	int row;

	/* victims it took pages from (credited only when selected) */
	if (root && selected) {
		if (ep->kind == RS_CTX_SOFTLIMIT)
			for (int i = 0; i < root->nr_victims; i++)
				cg->cgs[root->victims[i]].softlimit_episodes++;
		if (root->victims_overflow)
			cg->at.episode_victims_overflow++;
	}
	/* kswapd's reclaim (and soft-limit reclaim inside it) is no cgroup's: the matrix
	   shows it as the trigger "(kswapd)", analyze's kswapd section its episodes */
	if (ep->kind == RS_CTX_KSWAPD || (unsigned int)ep->kind >= RS_RK_NR || !selected ||
	    ep->parent == RS_CTX_KSWAPD || (rt && rt->kswapd))
		goto out;
	row = slot >= 0 ? rt->ep_trig[slot] : cg_task_row(cg, ep->pid);
	if (row < 0)
		goto out;
	c = &cg->cgs[row];
	t = &c->trig[ep->kind];
	c->active = true;
	t->status[ep->status]++;
	if (ep->status == RS_EP_COMPLETE) {
		uint64_t dur = ep->end_ts - ep->begin_ts;
		struct rs_latency **l = &cg->priv[row].lat[ep->kind];

		t->episodes++;
		t->ns += dur;
		t->reclaimed += ep->nr_reclaimed;
		if (ep->parent == RS_CTX_OTHER)
			c->stalled_ns += dur;
		if (!*l && !(*l = rs_latency_new(cg->o.max_samples)))
			cg->oom = true;
		if (*l)
			rs_latency_add(*l, dur);
		if (ep->kind == RS_CTX_MEMCG)
			count_root(cg, c, root);
	} else if (ep->status == RS_EP_CUT_START || ep->status == RS_EP_UNMATCHED_END) {
		t->reclaimed_unpaired += ep->nr_reclaimed;
	}
	if (ep->kind == RS_CTX_MEMCG && (ep->status == RS_EP_COMPLETE ||
	    ep->status == RS_EP_CUT_START || ep->status == RS_EP_CUT_END))
		cg_ts_add_span(cg, row, RS_CG_TS_TRIGGER_STALL_NS,
			       ep->begin_ts ? ep->begin_ts : cg->grid.t0, ep->end_ts);
out:
	if (slot >= 0)
		rt->ep_serial[slot] = 0;
}

void cg_flush_pending(struct rs_cgroups *cg, const struct rs_ctx *ctx)
{
	for (int i = 0; i < cg->nr_pend; i++) {
		const struct rs_episode *ep = &cg->pend[i];
		bool sel;

		if (ctx && ctx->task >= 0 && ep->task == ctx->task)
			sel = ctx->selected;
		else if (ep->task >= 0 && ep->task < cg->nr_rt && cg->rt[ep->task].known)
			sel = cg->rt[ep->task].selected;
		else
			sel = !cg->filtered;
		process_episode(cg, ep, sel);
	}
	cg->nr_pend = 0;
}

/* Episodes close before the event that closed them reaches event(): decide there. */
void cg_on_episode(void *arg, const struct rs_episode *ep)
{
	struct rs_cgroups *cg = arg;

	if (cg->nr_pend == CG_EP_PENDING)
		cg_flush_pending(cg, NULL);
	cg->pend[cg->nr_pend++] = *ep;
}
