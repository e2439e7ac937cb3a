// SPDX-License-Identifier: GPL-2.0
/*
 * kswapd runs and health per node (include/kswapd_health.h). The failure count is the
 * kernel's own, as reclaim_fail reports it after each failed run; hopeless is that count
 * reaching MAX_RECLAIM_RETRIES, as pgdat_balanced()/wakeup_kswapd() test it.
 */
#include <string.h>

#include "kswapd_health.h"

void rs_kswapd_health_init(struct rs_kswapd_health *h)
{
	memset(h, 0, sizeof(*h));
}

/*
 * The node's slot, the first RS_HEALTH_MAX_NODES nodes seen each getting one: node ids are not
 * dense (POWER and CXL machines number nodes 0, 8, 252, ...), so the cap is on how many, not
 * on the id. Events of a node past the cap are counted (bad_nid), for the analysis to say so.
 */
static struct rs_kswapd_node_health *node(struct rs_kswapd_health *h, int nid)
{
	struct rs_kswapd_node_health *n;

	if (nid < 0) {
		h->bad_nid++;
		return NULL;
	}
	for (int i = 0; i < h->nr_nodes; i++)
		if (h->nodes[i].nid == nid)
			return &h->nodes[i];
	if (h->nr_nodes == RS_HEALTH_MAX_NODES) {
		h->bad_nid++;
		return NULL;
	}
	n = &h->nodes[h->nr_nodes++];
	n->nid = nid;
	return n;
}

static void note(struct rs_kswapd_node_health *n, uint64_t ts, enum rs_health_kind kind,
		 int value, int before)
{
	struct rs_health_entry *e;

	if (n->nr_timeline == RS_HEALTH_TIMELINE) {
		n->timeline_dropped++;
		return;
	}
	e = &n->timeline[n->nr_timeline++];
	e->ts = ts;
	e->kind = kind;
	e->value = value;
	e->failures_before = before;
}

void rs_kswapd_health_feed(struct rs_kswapd_health *h, const struct rs_event *ev)
{
	struct rs_kswapd_node_health *n;
	int nid;

	/* the events of kswapd's health, each of one node */
	switch (ev->type) {
	case RS_EV_BALANCE_BEGIN:
	case RS_EV_BALANCE_END:
		nid = ev->balance.nid;
		break;
	case RS_EV_KSWAPD_FAIL:
	case RS_EV_KSWAPD_CLEAR_HOPELESS:
		nid = ev->health.nid;
		break;
	default:
		return;
	}
	h->seen = true;
	if (!(n = node(h, nid)))
		return;
	switch (ev->type) {
	case RS_EV_BALANCE_BEGIN:
	case RS_EV_BALANCE_END:
		if (ev->type == RS_EV_BALANCE_BEGIN) {
			n->runs_unfinished += n->in_run;
			n->in_run = true;
			n->run_ts = ev->ts;
			return;
		}
		n->reclaimed += ev->balance.nr_reclaimed;
		n->runs_reclaimed_nothing += !ev->balance.nr_reclaimed;
		if (!n->in_run) {
			n->runs_ended_unbegun++;
			return;
		}
		n->in_run = false;
		n->runs++;
		n->run_ns += ev->ts >= n->run_ts ? ev->ts - n->run_ts : 0;
		return;
	case RS_EV_KSWAPD_FAIL:
		n->reclaim_fail++;
		n->failures = ev->health.failures;
		if (n->failures > n->max_failures)
			n->max_failures = n->failures;
		if (n->failures >= RS_KSWAPD_MAX_FAILURES && !n->is_hopeless) {
			n->is_hopeless = true;
			n->hopeless++;
			n->hopeless_ts = ev->ts;
			note(n, ev->ts, RS_HEALTH_HOPELESS, n->failures, 0);
		} else if (!n->is_hopeless) {
			note(n, ev->ts, RS_HEALTH_FAIL, n->failures, 0);
		}
		return;
	case RS_EV_KSWAPD_CLEAR_HOPELESS:
		n->clears++;
		n->clears_by_reason[ev->health.reason >= 0 && ev->health.reason < RS_HOPELESS_NR ?
				    ev->health.reason : RS_HOPELESS_NR]++;
		if (n->is_hopeless) {
			n->clears_of_hopeless++;
			n->hopeless_ns += ev->ts >= n->hopeless_ts ? ev->ts - n->hopeless_ts : 0;
			n->is_hopeless = false;
		}
		note(n, ev->ts, RS_HEALTH_CLEAR, ev->health.reason, n->failures);
		n->failures = 0;
		return;
	default:
		return;
	}
}

void rs_kswapd_health_finish(struct rs_kswapd_health *h, uint64_t end_ts)
{
	for (int i = 0; i < h->nr_nodes; i++) {
		struct rs_kswapd_node_health *n = &h->nodes[i];

		if (n->in_run) {
			n->runs_unfinished++;
			n->in_run = false;
		}
		if (n->is_hopeless && end_ts >= n->hopeless_ts)
			n->hopeless_ns += end_ts - n->hopeless_ts;
	}
}
