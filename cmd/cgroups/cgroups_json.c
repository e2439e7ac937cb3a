// SPDX-License-Identifier: GPL-2.0
/*
 * The per-cgroup attribution as JSON: `cgroups`, `cgroup_matrix`, `cgroup_attribution`.
 * docs/json.md ("cgroups") documents every member and the event field it comes from. Integers
 * are exact sums of event fields; `_us` members are rounded to the nearest microsecond from
 * exact nanoseconds, `_s` members are reals.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroups.h"
#include "cgroups_output.h"
#include "report.h"

#define JI(v) json_integer((json_int_t)(v))

/* Episodes of one kind: members set into o (the trigger object itself for memcg). */
static void trigger_kind_json(json_t *o, const struct rs_cg_trigger *t)
{
	json_t *inc = json_object();

	json_object_set_new(o, "episodes", JI(t->episodes));
	json_object_set_new(o, "stall_us", JI(rs_ns_to_us(t->ns)));
	json_object_set_new(o, "reclaimed", JI(t->reclaimed));
	json_object_set_new(o, "reclaimed_unpaired", JI(t->reclaimed_unpaired));
	for (int s = 1; s < RS_EP_NR_STATUS; s++)
		json_object_set_new(inc, rs_ep_status_name(s), JI(t->status[s]));
	json_object_set_new(o, "incomplete", inc);
	json_object_set_new(o, "approximate", json_boolean(t->latency.approximate));
	json_object_set_new(o, "latency_us", rs_latency_json(&t->latency));
	json_object_set_new(o, "latency_ms_buckets", rs_mmtests_json(&t->latency));
}

static json_t *name_or_null(const struct rs_cgroups *cg, int i)
{
	char buf[48];

	return json_string(rs_cgroups_name(cg, i, buf, sizeof(buf)));
}

static json_t *trigger_json(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	json_t *o = json_object(), *caused = json_object(), *roots = json_object();

	trigger_kind_json(o, &c->trig[RS_RK_MEMCG]);
	for (int k = 0; k < RS_RK_NR; k++) {
		json_t *kj;

		if (k == RS_RK_MEMCG)
			continue;
		kj = json_object();
		trigger_kind_json(kj, &c->trig[k]);
		json_object_set_new(o, rs_reclaim_kind_name(k), kj);
	}
	json_object_set_new(o, "stalled_us", JI(rs_ns_to_us(c->stalled_ns)));
	json_object_set_new(o, "throttled", json_pack("{s:I,s:I}", "count",
		(json_int_t)c->throttled, "delayed_us", (json_int_t)c->throttled_us));
	json_object_set_new(o, "oom_kills", JI(c->oom_kills));
	for (int x = 0; x < RS_CTX_NR; x++)
		if (c->caused_scanned[x] || c->caused_reclaimed[x])
			json_object_set_new(caused, rs_ctx_name(x), json_pack("{s:I,s:I}",
				"scanned", (json_int_t)c->caused_scanned[x],
				"reclaimed", (json_int_t)c->caused_reclaimed[x]));
	json_object_set_new(o, "caused", caused);
	for (int r = 0; r < c->nr_roots; r++) {
		const char *p = rs_cgroups_get(cg, c->roots[r].cg)->memcg.path;
		char path[4096];
		size_t len = c->roots[r].len < sizeof(path) - 1 ? c->roots[r].len :
			     sizeof(path) - 1;
		json_t *old;

		memcpy(path, p, len);
		path[len] = '\0';
		if (!len)
			strcpy(path, "/");
		old = json_object_get(roots, path);
		json_object_set_new(roots, path, JI((old ? json_integer_value(old) : 0) +
						     (json_int_t)c->roots[r].episodes));
	}
	json_object_set_new(o, "reclaim_roots", roots);
	json_object_set_new(o, "reclaim_roots_other", JI(c->roots_other));
	json_object_set_new(o, "reclaim_roots_unknown_path", JI(c->roots_unknown));
	json_object_set_new(o, "reclaim_roots_no_victim", JI(c->roots_none));
	return o;
}

static bool pages_zero(const struct rs_cg_pages *p)
{
	return !p->shrinks && !p->scanned && !p->reclaimed && !p->deactivated &&
	       !p->isolate_only_scanned;
}

static json_t *item_key_json(const struct rs_cgroups *cg, int item, char *buf, size_t n)
{
	const char *name = rs_cgroups_item_name(cg, item);

	if (name)
		return json_string(name);
	snprintf(buf, n, "item_%d", item);
	return json_string(buf);
}

static bool one_of(const char *name, const char *const *names)
{
	for (; name && *names; names++)
		if (!strcmp(name, *names))
			return true;
	return false;
}

/* Counter sums of one class (enum in include/cgroups.h naming), and their reconciliation. */
static int64_t item_sum(const struct rs_cgroups *cg, const struct rs_cgroup *c,
			const char *const *names)
{
	int64_t sum = 0;

	for (int i = 0; i < c->nr_items; i++)
		if (one_of(rs_cgroups_item_name(cg, i), names))
			sum += c->items[i];
	/* 7.x: pgscan_*, pgsteal_*, pgrefill are node-stat items */
	for (int i = 0; i < c->nr_node_items; i++)
		if (one_of(rs_cgroups_node_item_name(cg, i), names))
			sum += c->node_items[i];
	return sum;
}

static json_t *reconcile_json(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	static const char *const scan[] = { "pgscan_kswapd", "pgscan_direct", "pgscan_khugepaged",
					    "pgscan_proactive", NULL };
	static const char *const steal[] = { "pgsteal_kswapd", "pgsteal_direct",
					     "pgsteal_khugepaged", "pgsteal_proactive", NULL };
	static const char *const refill[] = { "pgrefill", NULL };
	static const char *const deact[] = { "pgdeactivate", NULL };
	uint64_t si = 0, sa = 0, rec = 0, dea = 0;
	json_t *o = json_object();

	for (int x = 0; x < RS_CTX_NR; x++) {
		for (int l = 0; l < RS_LRU_NR; l++) {
			const struct rs_cg_pages *p = &c->pages[x][l];

			if (l == RS_LRU_ACTIVE_ANON || l == RS_LRU_ACTIVE_FILE)
				sa += p->scanned + p->isolate_only_scanned;
			else
				si += p->scanned + p->isolate_only_scanned;
			rec += p->reclaimed;
			dea += p->deactivated;
		}
	}
#define RECON(key, names, got) do { \
		int64_t want = item_sum(cg, c, names); \
		json_object_set_new(o, key, json_pack("{s:I,s:I,s:I}", \
			"counters", (json_int_t)want, "attributed", (json_int_t)(got), \
			"difference", (json_int_t)(want - (int64_t)(got)))); \
	} while (0)
	RECON("scanned_inactive", scan, si);
	RECON("reclaimed", steal, rec);
	RECON("scanned_active", refill, sa);
	RECON("deactivated", deact, dea);
#undef RECON
	return o;
}

static bool no_counters(const struct rs_cgroups *cg)
{
	return rs_cgroups_lacks(cg, RS_EV_MEMCG_COUNT) && rs_cgroups_lacks(cg, RS_EV_MEMCG_LRUVEC);
}

static json_t *victim_json(const struct rs_cgroups *cg, const struct rs_cgroup *c,
			   json_t *by_trigger)
{
	json_t *o = json_object(), *by = json_object(), *other = json_object();
	json_t *reasons = json_object();
	bool named = rs_cgroups_facts(cg)->item_names;
	uint64_t scanned = 0, reclaimed = 0;
	char buf[32];

	for (int i = 0; i < c->nr_items; i++) {
		json_t *key;

		if (!c->items[i])
			continue;
		key = item_key_json(cg, i, buf, sizeof(buf));
		json_object_set_new(!named || rs_cgroups_item_is_reclaim(cg, i) ? o : other,
				    json_string_value(key), JI(c->items[i]));
		json_decref(key);
	}
	for (int i = 0; i < c->nr_node_items; i++)	/* 7.x: node-stat pgscan_* ... */
		if (c->node_items[i] && rs_cgroups_node_item_name(cg, i))
			json_object_set_new(o, rs_cgroups_node_item_name(cg, i), JI(c->node_items[i]));
	for (int x = 0; x < RS_CTX_NR; x++) {
		json_t *xj = json_object();

		for (int l = 0; l < RS_LRU_NR; l++) {
			const struct rs_cg_pages *p = &c->pages[x][l];

			scanned += p->scanned + p->isolate_only_scanned;
			reclaimed += p->reclaimed;
			if (pages_zero(p))
				continue;
			json_object_set_new(xj, rs_lru_name(l), json_pack("{s:I,s:I,s:I,s:I,s:I}",
				"shrinks", (json_int_t)p->shrinks,
				"scanned", (json_int_t)p->scanned,
				"reclaimed", (json_int_t)p->reclaimed,
				"deactivated", (json_int_t)p->deactivated,
				"isolate_only_scanned", (json_int_t)p->isolate_only_scanned));
		}
		if (json_object_size(xj))
			json_object_set_new(by, rs_ctx_name(x), xj);
		else
			json_decref(xj);
	}
	json_object_set_new(o, "by_context", by);
	json_object_set_new(o, "by_trigger", by_trigger ? json_incref(by_trigger) : json_object());
	json_object_set_new(o, "scanned", JI(scanned));
	json_object_set_new(o, "reclaimed", JI(reclaimed));
	for (int r = 0; r < RS_CGR_FIRST_UNMATCHED; r++)
		if (c->fallback_by[r])
			json_object_set_new(reasons, rs_cg_reason_name(r), JI(c->fallback_by[r]));
	json_object_set_new(o, "matched", json_pack("{s:I,s:I,s:o}",
		"exact", (json_int_t)c->exact, "fallback", (json_int_t)c->fallback,
		"fallback_reasons", reasons));
	json_object_set_new(o, "count_events", JI(c->item_events));
	json_object_set_new(o, "other_events", other);
	json_object_set_new(o, "oom_killed", JI(c->oom_killed));
	if (named)
		json_object_set_new(o, "reconcile", reconcile_json(cg, c));
	return o;
}

/*
 * The hard limit: null when not recorded; "max" when it is the kernel's "no limit", as
 * memory.max prints it. v1's memory.limit_in_bytes shows that as PAGE_COUNTER_MAX pages in
 * bytes (9223372036854771712 on 4 KiB pages), and record writes v2's "max" the same way
 * (rec_read_bytes()): as a number it reads as a limit of 8 EiB.
 */
static json_t *limit_json(uint64_t v, uint64_t unlimited)
{
	if (v == UINT64_MAX)
		return json_null();
	return v >= unlimited ? json_string("max") : JI(v);
}

static json_t *soft_json(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	uint64_t ps = rs_cgroups_page_size(cg);
	uint64_t unlimited = (uint64_t)(INT64_MAX / (int64_t)ps) * ps;
	json_t *o = json_object(), *taken = json_object();

	json_object_set_new(o, "soft_limit_bytes", c->soft_recorded ? JI(c->soft_limit) :
			    json_null());
	json_object_set_new(o, "unlimited", json_boolean(c->soft_recorded &&
							 c->soft_limit >= unlimited));
	json_object_set_new(o, "limit_bytes", c->snapshots ? limit_json(c->limit, unlimited) :
			    json_null());
	json_object_set_new(o, "usage_bytes", c->snapshots ? JI(c->usage) : json_null());
	json_object_set_new(o, "usage_max_bytes", c->snapshots ? JI(c->usage_max) : json_null());
	json_object_set_new(o, "snapshots", JI(c->snapshots));
	json_object_set_new(o, "snapshots_over", JI(c->snapshots_over));
	json_object_set_new(o, "excess_max_bytes", JI(c->excess_max));
	json_object_set_new(o, "over_s", rs_json_real(rs_ns_to_s(c->over_ns)));
	json_object_set_new(o, "under_s", rs_json_real(rs_ns_to_s(c->under_ns)));
	json_object_set_new(o, "softlimit_episodes", JI(c->softlimit_episodes));
	for (int s = 0; s < RS_CG_SOFT_NR; s++)
		json_object_set_new(taken, rs_cg_soft_state_name(s), json_pack("{s:I,s:I}",
			"scanned", (json_int_t)c->taken_scanned[s],
			"reclaimed", (json_int_t)c->taken_reclaimed[s]));
	json_object_set_new(o, "taken_while", taken);
	return o;
}

static json_t *lru_json(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	json_t *o = json_object(), *delta = json_object(), *off = json_object();
	json_t *dis = json_object(), *last = json_object(), *from = json_object();
	json_t *mins = json_object();

	json_object_set_new(o, "lruvec_events", JI(c->lru_events));
	for (int l = 0; l < RS_LRU_NR; l++)
		json_object_set_new(delta, rs_lru_name(l), JI(c->lru_delta[l]));
	json_object_set_new(o, "delta_pages", delta);
	json_object_set_new(o, "anchored", json_boolean(c->anchored));
	json_object_set_new(o, "offset_from", !c->anchored ? json_null() :
			    json_string(c->offset_from_mkdir ? "cgroup_mkdir" : "memcg_stat"));
	json_object_set_new(o, "below_zero", json_boolean(c->below_zero));
	for (int l = 0; l < RS_LRU_NR; l++)
		json_object_set_new(mins, rs_lru_name(l), JI(c->lru_delta_min[l]));
	json_object_set_new(o, "delta_min_pages", mins);
	for (int l = 0; l < RS_LRU_NR && c->anchored; l++) {
		const struct rs_cg_disagree *d = &c->dis[l];

		json_object_set_new(off, rs_lru_name(l), JI(c->offset_pages[l]));
		json_object_set_new(last, rs_lru_name(l), JI(c->last_snap_pages[l]));
		json_object_set_new(from, rs_lru_name(l), JI(c->offset_pages[l] +
							     c->last_snap_delta[l]));
		json_object_set_new(dis, rs_lru_name(l), json_pack("{s:I,s:I,s:o,s:I,s:I,s:I,s:o}",
			"snapshots", (json_int_t)d->n,
			"max_abs", (json_int_t)d->max_abs,
			"mean_abs", rs_json_real(d->n ? (double)d->sum_abs / (double)d->n : 0.0),
			"last", (json_int_t)d->last,
			"steps", (json_int_t)d->step_n,
			"step_max_abs", (json_int_t)d->step_max_abs,
			"step_mean_abs", rs_json_real(d->step_n ? (double)d->step_sum_abs /
						      (double)d->step_n : 0.0)));
	}
	json_object_set_new(o, "offset_pages", off);
	json_object_set_new(o, "last_snapshot_pages", last);
	json_object_set_new(o, "last_snapshot_from_deltas_pages", from);
	json_object_set_new(o, "disagreement_pages", dis);
	return o;
}

static json_t *int_array(const int64_t *v, size_t n, bool none_is_null, int64_t div,
			 int64_t add)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		if (none_is_null && v[i] == RS_CG_TS_NONE)
			json_array_append_new(a, json_null());
		else
			json_array_append_new(a, JI(v[i] / div + add));
	}
	return a;
}

static json_t *series_json(const struct rs_cgroups *cg, int row, const struct rs_cgroup *c)
{
	size_t n = rs_cgroups_buckets(cg).len;
	json_t *o = json_object();
	char k[48];

	if (!rs_cgroups_series(cg, row, 0) || !n) {
		json_decref(o);
		return json_null();
	}
	for (int l = 0; l < RS_LRU_NR; l++) {
		const int64_t *d = rs_cgroups_series(cg, row, RS_CG_TS_LRU_DELTA + l);
		json_t *a = json_array();
		int64_t cum = 0;

		/* level at each bucket's end: the anchor plus the deltas since it */
		for (size_t i = 0; i < n; i++) {
			cum += d[i];
			if (c->anchored)
				json_array_append_new(a, JI(c->offset_pages[l] + cum));
			else
				json_array_append_new(a, JI(cum));
		}
		snprintf(k, sizeof(k), c->anchored ? "lru_%s_pages" : "lru_%s_delta_pages",
			 rs_lru_name(l));
		json_object_set_new(o, k, a);
		snprintf(k, sizeof(k), "snapshot_%s_pages", rs_lru_name(l));
		json_object_set_new(o, k, int_array(rs_cgroups_series(cg, row,
				    RS_CG_TS_SNAP_LRU + l), n, true, 1, 0));
	}
	json_object_set_new(o, "usage_bytes",
			    int_array(rs_cgroups_series(cg, row, RS_CG_TS_USAGE), n, true, 1, 0));
	json_object_set_new(o, "soft_limit_bytes",
			    int_array(rs_cgroups_series(cg, row, RS_CG_TS_SOFT), n, true, 1, 0));
	json_object_set_new(o, "victim_scanned", int_array(rs_cgroups_series(cg, row,
			    RS_CG_TS_VICTIM_SCANNED), n, false, 1, 0));
	json_object_set_new(o, "victim_reclaimed", int_array(rs_cgroups_series(cg, row,
			    RS_CG_TS_VICTIM_RECLAIMED), n, false, 1, 0));
	json_object_set_new(o, "trigger_episodes", int_array(rs_cgroups_series(cg, row,
			    RS_CG_TS_TRIGGER_EPISODES), n, false, 1, 0));
	{
		const int64_t *v = rs_cgroups_series(cg, row, RS_CG_TS_TRIGGER_STALL_NS);
		json_t *a = json_array();

		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, JI(rs_ns_to_us((uint64_t)v[i])));
		json_object_set_new(o, "trigger_stall_us", a);
	}
	return o;
}

static json_t *named_by_json(unsigned int f)
{
	static const struct { unsigned int bit; const char *name; } src[] = {
		{ RS_CGF_MAP, "cgroup_map" }, { RS_CGF_MKDIR, "cgroup_mkdir" },
		{ RS_CGF_RENAME, "cgroup_rename" }, { RS_CGF_ATTACH, "cgroup_attach_task" },
		{ RS_CGF_SNAPSHOT, "memcg_stat" },
	};
	json_t *a = json_array();

	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++)
		if (f & src[i].bit)
			json_array_append_new(a, json_string(src[i].name));
	return a;
}

static json_t *row_json(const struct rs_cgroups *cg, int row, json_t *by_trigger)
{
	const struct rs_cgroup *c = rs_cgroups_get(cg, row);
	const struct rs_memcg *m = &c->memcg;
	const struct rs_memcgs_facts *facts = rs_cgroups_facts(cg);
	bool pseudo = m->flags & (RS_CGF_OVERFLOW | RS_CGF_UNKNOWN_TASKS);
	json_t *o = json_object();

	json_object_set_new(o, "id", m->id ? JI(m->id) : json_null());
	json_object_set_new(o, "path", name_or_null(cg, row));
	json_object_set_new(o, "path_known", json_boolean(m->path != NULL));
	json_object_set_new(o, "pseudo", json_boolean(pseudo));
	json_object_set_new(o, "level", m->level >= 0 ? json_integer(m->level) : json_null());
	json_object_set_new(o, "named_by", named_by_json(m->flags));
	json_object_set_new(o, "removed", json_boolean(m->flags & RS_CGF_RMDIR));
	json_object_set_new(o, "released", json_boolean(m->flags & RS_CGF_RELEASE));
	json_object_set_new(o, "renamed", json_boolean(m->flags & RS_CGF_RENAME));
	json_object_set_new(o, "id_reused", json_boolean(m->flags & RS_CGF_REUSED));
	json_object_set_new(o, "mkdir_s", m->mkdir_ts ? rs_json_real(rs_ns_to_s(m->mkdir_ts)) :
			    json_null());
	json_object_set_new(o, "rmdir_s", m->rmdir_ts ? rs_json_real(rs_ns_to_s(m->rmdir_ts)) :
			    json_null());
	json_object_set_new(o, "active", json_boolean(c->active));
	json_object_set_new(o, "trigger", trigger_json(cg, c));
	/* 7.1+ memcg_id; absent (null) before */
	json_object_set_new(o, "target_episodes", facts->kernel_roots ?
			    JI(c->target_episodes) : json_null());
	json_object_set_new(o, "slab", facts->slab_memcgs ?
			    json_pack("{s:I,s:I,s:I}", "calls", (json_int_t)c->slab_calls,
				      "us", (json_int_t)rs_ns_to_us(c->slab_ns),
				      "freed", (json_int_t)c->slab_freed) : json_null());
	/*
	 * A kernel without the memcg counters (6.1) tells no victim memcg and no LRU delta:
	 * null, not rows of made-up zeros. A 7.1+ trace without them still tells the victims of
	 * limit reclaim of a memcg with none below it (memcg_id_leaf).
	 */
	json_object_set_new(o, "victim", no_counters(cg) &&
			    !rs_cgroups_attrib(cg)->by_reason[RS_CGR_MEMCG_ID_LEAF] ? json_null() :
			    victim_json(cg, c, by_trigger));
	json_object_set_new(o, "soft_limit", soft_json(cg, c));
	json_object_set_new(o, "lru_size", rs_cgroups_lacks(cg, RS_EV_MEMCG_LRUVEC) ?
			    json_null() : lru_json(cg, c));
	json_object_set_new(o, "series", series_json(cg, row, c));
	return o;
}

struct cell_order {
	const struct rs_cgroups *cg;
	const int *rank;		/* [index + 2]: kswapd, unattributed, then by name */
};

static int cell_cmp(const void *x, const void *y, void *arg)
{
	const struct cell_order *o = arg;
	const struct rs_cg_cell *a = rs_cgroups_cell(o->cg, *(const int *)x);
	const struct rs_cg_cell *b = rs_cgroups_cell(o->cg, *(const int *)y);

	if (a->trigger != b->trigger)
		return o->rank[a->trigger + 2] - o->rank[b->trigger + 2];
	if (a->victim != b->victim)
		return o->rank[a->victim + 2] - o->rank[b->victim + 2];
	return a->ctx - b->ctx;
}

static json_t *id_or_null(const struct rs_cgroups *cg, int i)
{
	const struct rs_cgroup *c = rs_cgroups_get(cg, i);

	return c && c->memcg.id ? JI(c->memcg.id) : json_null();
}

static json_t *matrix_json(const struct rs_cgroups *cg)
{
	int n = rs_cgroups_nr_cells(cg);
	const int *sorted;
	int nr = rs_cgroups_sorted(cg, &sorted);
	int *rank = calloc((size_t)nr + 2, sizeof(*rank));
	int *idx = calloc((size_t)n + 1, sizeof(*idx));
	json_t *a = json_array();
	struct cell_order ord = { cg, rank };

	if (!rank || !idx)
		goto out;
	rank[RS_CG_KSWAPD + 2] = 0;
	rank[RS_CG_UNATTRIBUTED + 2] = 1;
	for (int i = 0; i < nr; i++)
		rank[sorted[i] + 2] = i + 2;
	for (int i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, (size_t)n, sizeof(*idx), cell_cmp, &ord);
	for (int i = 0; i < n; i++) {
		const struct rs_cg_cell *c = rs_cgroups_cell(cg, idx[i]);

		json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:o,s:s,s:I,s:I,s:I,s:I}",
			"trigger", name_or_null(cg, c->trigger),
			"trigger_id", id_or_null(cg, c->trigger),
			"victim", name_or_null(cg, c->victim),
			"victim_id", id_or_null(cg, c->victim),
			"context", rs_ctx_name(c->ctx),
			"shrinks", (json_int_t)c->shrinks,
			"scanned", (json_int_t)c->scanned,
			"reclaimed", (json_int_t)c->reclaimed,
			"deactivated", (json_int_t)c->deactivated));
	}
out:
	free(rank);
	free(idx);
	return a;
}

#define CA(key, member) RS_JSON_U64(struct rs_cg_attrib, key, member)
static const struct rs_json_u64 attrib_fields[] = {
	CA("shrinks", shrinks), CA("exact", exact), CA("fallback", fallback),
	CA("unmatched", unmatched), CA("scanned", scanned), CA("reclaimed", reclaimed),
	CA("scanned_exact", scanned_exact), CA("reclaimed_exact", reclaimed_exact),
	CA("isolates_without_shrink", isolates_without_shrink),
	CA("isolates_without_shrink_matched", isolates_without_shrink_matched),
	CA("matrix_overflow", cells_overflow),
	CA("episode_victims_overflow", episode_victims_overflow),
};
#undef CA

static json_t *attribution_json(const struct rs_cgroups *cg)
{
	const struct rs_cg_attrib *at = rs_cgroups_attrib(cg);
	const struct rs_memcgs_facts *facts = rs_cgroups_facts(cg);
	const struct rs_buckets bk = rs_cgroups_buckets(cg);
	const char *h = rs_cgroups_hierarchy(cg);
	json_t *o = json_object(), *reasons = json_object();

	json_object_set_new(o, "items_named", json_boolean(facts->item_names));
	json_object_set_new(o, "reclaim_roots_from", json_string(facts->kernel_roots ?
			    "memcg_id" : "victims"));
	json_object_set_new(o, "lru_items_named", json_boolean(facts->lru_names));
	json_object_set_new(o, "hierarchy", h ? json_string(h) : json_null());
	json_object_set_new(o, "page_size", JI(rs_cgroups_page_size(cg)));
	RS_JSON_ADD_U64(o, at, attrib_fields);
	json_object_set_new(o, "exact_pct", rs_json_real(rs_pct(at->exact, at->shrinks)));
	for (int r = 0; r < RS_CGR_NR; r++)
		json_object_set_new(reasons, rs_cg_reason_name(r), JI(at->by_reason[r]));
	json_object_set_new(o, "reasons", reasons);
	json_object_set_new(o, "reclaimed_exact_pct",
			    rs_json_real(rs_pct(at->reclaimed_exact, at->reclaimed)));
	/* null, not 0, when the kernel has no such event (6.1): nothing counted them */
	json_object_set_new(o, "count_memcg_events", rs_cgroups_lacks(cg, RS_EV_MEMCG_COUNT) ?
			    json_null() : JI(at->count_events));
	json_object_set_new(o, "mod_memcg_lruvec_state",
			    rs_cgroups_lacks(cg, RS_EV_MEMCG_LRUVEC) ? json_null() :
			    JI(at->lruvec_events));
	json_object_set_new(o, "cgroups", JI(rs_cgroups_count(cg)));
	json_object_set_new(o, "capped", json_boolean(facts->capped));
	json_object_set_new(o, "limits", json_pack("{s:I,s:I}",
		"max_cgroups", (json_int_t)rs_cgroups_max(cg),
		"max_cells", (json_int_t)RS_CG_MAX_CELLS));
	json_object_set_new(o, "series", json_pack("{s:o,s:o,s:I,s:b}",
		"t0_s", rs_json_real(rs_ns_to_s(bk.t0)),
		"bucket_s", rs_json_real(rs_ns_to_s(bk.width)),
		"buckets", (json_int_t)bk.len,
		"shared_with_timeline", rs_cgroups_series_shared(cg)));
	return o;
}

/* victim.by_trigger of every row, from one pass over the matrix: {trigger: {ctx: pages}} */
static json_t **by_trigger_all(const struct rs_cgroups *cg)
{
	json_t **bt = calloc((size_t)rs_cgroups_count(cg) + 1, sizeof(*bt));
	char buf[48];

	if (!bt)
		return NULL;
	for (int i = 0; i < rs_cgroups_nr_cells(cg); i++) {
		const struct rs_cg_cell *c = rs_cgroups_cell(cg, i);
		const char *t = rs_cgroups_name(cg, c->trigger, buf, sizeof(buf));
		json_t *tj;

		if (c->victim < 0)
			continue;
		if (!bt[c->victim])
			bt[c->victim] = json_object();
		tj = json_object_get(bt[c->victim], t);
		if (!tj) {
			tj = json_object();
			json_object_set_new(bt[c->victim], t, tj);
		}
		json_object_set_new(tj, rs_ctx_name(c->ctx), json_pack("{s:I,s:I,s:I,s:I}",
			"shrinks", (json_int_t)c->shrinks, "scanned", (json_int_t)c->scanned,
			"reclaimed", (json_int_t)c->reclaimed,
			"deactivated", (json_int_t)c->deactivated));
	}
	return bt;
}

int rs_cgroups_json_add(json_t *root, const struct rs_cgroups *cg)
{
	const int *sorted;
	int n = rs_cgroups_sorted(cg, &sorted);
	json_t *rows = json_array(), **bt = by_trigger_all(cg);

	if (!rows || !bt) {
		json_decref(rows);
		free(bt);
		return -1;
	}
	for (int i = 0; i < n; i++)
		json_array_append_new(rows, row_json(cg, sorted[i], bt[sorted[i]]));
	for (int i = 0; i < rs_cgroups_count(cg); i++)
		json_decref(bt[i]);
	free(bt);
	json_object_set_new(root, "cgroups", rows);
	json_object_set_new(root, "cgroup_matrix", matrix_json(cg));
	json_object_set_new(root, "cgroup_attribution", attribution_json(cg));
	return 0;
}
