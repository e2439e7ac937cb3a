// SPDX-License-Identifier: GPL-2.0
/*
 * `replay --json`: the recording (`recorded.lru.<list>` as analyze counts it, and the part in
 * the replayed calls), every policy (`policies.<name>.lru.<list>`, `.cgroups[]`, `.error_pct`
 * for the identity policy), the identity verdict, the open-loop caveat and the reconstruction
 * (`inputs`). docs/json.md, section replay, documents every member. Integers are pages.
 */
#include <stdio.h>
#include <string.h>

#include "replay_output.h"
#include "report.h"

#define JI(v) json_integer((json_int_t)(v))

static const char *const lname[RS_NR_EVICTABLE] = { "inactive_anon", "active_anon",
						"inactive_file", "active_file" };

static json_t *src_json(const struct rs_ri_source *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "events", JI(s->events));
	if (s->events) {
		json_object_set_new(o, "first_s", rs_json_real(rs_ns_to_s(s->first_ts)));
		json_object_set_new(o, "first_offset", JI(s->first_offset));
		json_object_set_new(o, "last_s", rs_json_real(rs_ns_to_s(s->last_ts)));
		json_object_set_new(o, "last_offset", JI(s->last_offset));
	}
	return o;
}

static json_t *limit_json(uint64_t v)
{
	return v == RS_UNLIMITED ? json_null() : JI(v);
}

static json_t *lists4_(const json_int_t *v)
{
	json_t *o = json_object();

	for (int l = 0; l < RS_NR_EVICTABLE; l++)
		json_object_set_new(o, lname[l], json_integer(v[l]));
	return o;
}

/* The four lists' figures of v: pages (uint64_t) or signed differences (int64_t) alike */
_Static_assert(RS_NR_EVICTABLE == 4, "lists4() names four lists");
#define lists4(v)								\
	lists4_((const json_int_t[RS_NR_EVICTABLE]){ (json_int_t)(v)[0], (json_int_t)(v)[1], \
						       (json_int_t)(v)[2], (json_int_t)(v)[3] })

/* scanned and reclaimed per list */
static json_t *scan_reclaim_lists(const uint64_t *scanned, const uint64_t *reclaimed)
{
	json_t *o = json_object();

	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		json_t *x = json_object();

		json_object_set_new(x, "scanned", JI(scanned[l]));
		json_object_set_new(x, "reclaimed", JI(reclaimed[l]));
		json_object_set_new(o, lname[l], x);
	}
	return o;
}

/* The names of the inputs a mask (1 << enum rs_gap) says the trace lacks */
static json_t *lacks_json(unsigned int mask)
{
	json_t *a = json_array();

	for (int g = 0; g < RS_GAP_NR; g++)
		if (mask & (1u << g))
			json_array_append_new(a, json_string(rs_gap_name((enum rs_gap)g)));
	return a;
}

/* An error in percent of a recorded figure; null where nothing was recorded to be off from */
static json_t *err_pct_json(uint64_t recorded, double err)
{
	return recorded ? rs_json_real(err) : json_null();
}

/* An identity row's two errors into o, under the names the object gives them. */
static void err_pcts_json(json_t *o, const struct rs_identity_list *il, const char *scanned,
			  const char *reclaimed)
{
	json_object_set_new(o, scanned, err_pct_json(il->rec_scanned, il->scanned_err));
	json_object_set_new(o, reclaimed, err_pct_json(il->rec_reclaimed, il->reclaimed_err));
}

/* The reconstruction's flat counters, by the object of `inputs` they stand in */
#define RI(key, member) RS_JSON_U64(struct rs_ri_report, key, member)
static const struct rs_json_u64 calls_fields[] = {
	RI("cut_start", calls_cut_start), RI("cut_end", calls_cut_end),
	RI("dropped_over_cap", calls_dropped), RI("without_isolate", calls_without_scan),
	RI("soft_limit_episodes", soft_episodes), RI("memcg_goal_overshoot", goal_overshoot),
	RI("kswapd_want", kswapd_want), RI("kswapd_overshoot", kswapd_overshoot),
	RI("memcg_proactive", proactive_calls),
};

static const struct rs_json_u64 victims_fields[] = {
	RI("windows", windows), RI("exact", victim_exact), RI("scan_counter_only", victim_scan),
	RI("steal_counter_only", victim_steal), RI("lru_decrement", victim_lruvec),
	RI("memcg_id_leaf", victim_leaf), RI("unattributed", victim_none),
};

static const struct rs_json_u64 sizes_fields[] = {
	RI("memcg_snapshots", memcg_snapshots), RI("memcg_snapshots_at_read", snapshots_at_read),
	RI("node_snapshots", node_snapshots), RI("delta_events", delta_events),
	RI("delta_updates", delta_updates), RI("workingset_events", ws_events),
	RI("implied_updates", implied_updates), RI("root_clamped", root_clamped),
};

static const struct rs_json_u64 swap_fields[] = {
	RI("anon_scanned", swap_anon_scanned), RI("anon_writes", swap_anon_writes),
	RI("pswpout_events", swap_pswpout),
};
#undef RI

/* A memcg's of `inputs.memcgs[]`, and those of its snapshots' usage (when it has them) */
#define RM(key, member) RS_JSON_U64(struct rs_ri_memcg, key, member)
static const struct rs_json_u64 memcg_fields[] = {
	RM("id", id), RM("folded_ids", folded), RM("victim_calls", victim_events),
	RM("target_calls", target_calls),
};

static const struct rs_json_u64 memcg_usage_fields[] = {
	RM("usage_first", usage_first), RM("usage_last", usage_last), RM("usage_max", usage_max),
	RM("snapshots_over_soft_limit", soft_over),
};
#undef RM

#define KE(key, member) RS_JSON_U64(struct rs_kswapd_ends, key, member)
static const struct rs_json_u64 kswapd_end_fields[] = {
	KE("runs", runs), KE("from_flow", flow), KE("flow_lost", flow_lost),
	KE("without_pcp", no_pcp), KE("recorded_freed_all", all_freed),
	KE("recorded_freed", rec_freed), KE("derived_freed", derived_freed),
};
#undef KE

#define SP(member) RS_JSON_U64(struct rs_scan_pages, #member, member)
static const struct rs_json_u64 scan_pages_fields[] = {
	SP(scanned), SP(reclaimed), SP(activated), SP(pageout), SP(taken), SP(deactivated),
	SP(referenced),
};
#undef SP

#define IL(key, member) RS_JSON_U64(struct rs_identity_list, key, member)
static const struct rs_json_u64 identity_pages_fields[] = {
	IL("recorded_scanned", rec_scanned), IL("model_scanned", model_scanned),
	IL("recorded_reclaimed", rec_reclaimed), IL("model_reclaimed", model_reclaimed),
};
#undef IL

static json_t *inputs_json(const struct rs_replay_report *r)
{
	const struct rs_ri_report *in = r->in;
	json_t *o = json_object(), *h = json_object(), *c = json_object(), *s = json_object();
	json_t *v = json_object(), *sw = json_object(), *ob = json_object(), *mc = json_array();
	json_t *wm = json_object(), *rec = json_object(), *warn = json_array(), *cc;
	const char *w;

	json_object_set_new(h, "marker", in->header ? json_string(in->header) : json_null());
	json_object_set_new(h, "offset", JI(in->header_offset));
	json_object_set_new(h, "vm_swappiness", JI(in->vm_swappiness));
	json_object_set_new(h, "swappiness_assumed", json_boolean(in->swappiness_assumed));
	json_object_set_new(h, "cgroup", json_string(in->cgroup_v1 ? "v1" : "v2"));
	json_object_set_new(h, "cgroup_from", json_string(in->cgroup_src ? in->cgroup_src : ""));
	json_object_set_new(h, "nodes", JI(in->nr_nodes));
	json_object_set_new(h, "nodes_assumed", json_boolean(in->nodes_assumed));
	json_object_set_new(h, "page_size", JI(in->page_size));
	/* null: nothing in the trace tells (trace.mglru null); false would be a claim */
	json_object_set_new(h, "mglru", in->mglru_unknown ? json_null() : json_boolean(in->mglru));
	/* without a begin marker the mask is no reading (null, not a made-up 0) */
	json_object_set_new(h, "mglru_mask", in->header ? JI(in->mglru_mask) : json_null());
	json_object_set_new(h, "mglru_from_events", json_boolean(in->mglru_shape != NULL));
	json_object_set_new(o, "header", h);

	cc = json_object();
	for (int k = 0; k < RS_CALL_NR; k++) {
		json_t *x = src_json(&in->call_src[k]);

		json_object_set_new(x, "calls", JI(in->calls[k]));
		json_object_set_new(cc, rs_call_ctx_name(k), x);
	}
	json_object_set_new(c, "by_context", cc);
	json_object_set_new(c, "replayed", JI(in->world_calls));
	RS_JSON_ADD_U64(c, in, calls_fields);
	cc = json_object();
	for (int k = 0; k < RS_RI_TGT_NR; k++)
		json_object_set_new(cc, rs_ri_target_src_name(k), JI(in->target_src[k]));
	json_object_set_new(c, "memcg_target_from", cc);
	cc = json_object();
	for (int k = 0; k < RS_RI_WANT_NR; k++)
		json_object_set_new(cc, rs_ri_want_src_name(k), JI(in->want_src[k]));
	json_object_set_new(c, "memcg_want_from", cc);
	json_object_set_new(o, "calls", c);

	json_object_set_new(rec, "scanned", lists4(in->scanned));
	json_object_set_new(rec, "taken", lists4(in->taken));
	json_object_set_new(rec, "reclaimed", lists4(in->reclaimed));
	json_object_set_new(rec, "outside_calls_scanned", lists4(in->out_scanned));
	json_object_set_new(rec, "outside_calls_reclaimed", lists4(in->out_reclaimed));
	json_object_set_new(rec, "outside_calls_events", JI(in->out_events));
	json_object_set_new(o, "recorded_in_calls", rec);

	RS_JSON_ADD_U64(v, in, victims_fields);
	json_object_set_new(v, "item_names", json_boolean(in->item_names));
	json_object_set_new(o, "victims", v);

	RS_JSON_ADD_U64(s, in, sizes_fields);
	json_object_set_new(s, "world_updates", JI(in->world_updates));
	json_object_set_new(s, "world_windows", JI(in->world_obs));
	json_object_set_new(o, "sizes", s);

	json_object_set_new(wm, "from", json_string(in->have_wmark ? "node_stat" :
						     in->wmark_inferred ? "inferred" : "none"));
	json_object_set_new(wm, "node_stat", src_json(&in->wmark));
	json_object_set_new(wm, "inferred_at_least", JI(in->wmark_inferred));
	json_object_set_new(wm, "inferred_from_kswapd_calls", JI(in->wmark_inferred_calls));
	/* only where the trace has zone_stat: older traces' output stays as it was */
	if (in->zone.events) {
		json_t *zi = json_array();

		for (int i = 0; i < RS_ZONE_MAX; i++)
			if (in->zone_idx & (1u << i))
				json_array_append_new(zi, JI(i));
		json_object_set_new(wm, "zone_stat", src_json(&in->zone));
		json_object_set_new(wm, "zone_indices", zi);
		json_object_set_new(wm, "zone_stat_used", json_true());
	}
	/* only where the trace has the buddy flow (record --zone-flow) */
	if (in->flow.samples) {
		json_t *fl = json_object(), *net = json_array();

		for (int i = 0; i < RS_ZONE_MAX; i++)
			if (in->zone_idx & (1u << i))
				json_array_append_new(net, json_integer(in->flow.net[i]));
		json_object_set_new(fl, "events", JI(in->flow.events));
		json_object_set_new(fl, "samples", JI(in->flow.samples));
		json_object_set_new(fl, "first_s", rs_json_real(rs_ns_to_s(in->flow.first_ts)));
		json_object_set_new(fl, "last_s", rs_json_real(rs_ns_to_s(in->flow.last_ts)));
		json_object_set_new(fl, "net_pages", net);
		json_object_set_new(wm, "zone_flow", fl);
	}
	json_object_set_new(o, "watermark", wm);

	json_object_set_new(sw, "state", json_string(in->swap == RS_RI_SWAP_MARKER ? "marker" :
						     in->swap == RS_RI_SWAP_INFERRED ?
						     "inferred_on" : "off"));
	RS_JSON_ADD_U64(sw, in, swap_fields);
	json_object_set_new(sw, "markers", src_json(&in->swap_marker));
	json_object_set_new(o, "swap", sw);

	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		const struct rs_ri_obs_sum *x = &in->obs[l];
		json_t *lo = json_object();

		json_object_set_new(lo, "windows", JI(x->windows));
		RS_JSON_ADD_U64(lo, &x->pages, scan_pages_fields);
		json_object_set_new(ob, lname[l], lo);
	}
	json_object_set_new(o, "reclaimability", ob);

	for (int i = 0; i < in->nr_memcg; i++) {
		const struct rs_ri_memcg *m = &in->memcg[i];
		json_t *x = json_object();

		json_object_set_new(x, "path", json_string(m->path));
		RS_JSON_ADD_U64(x, m, memcg_fields);
		json_object_set_new(x, "world_index", JI(m->world));
		json_object_set_new(x, "made_in_trace", json_boolean(m->mkdir));
		json_object_set_new(x, "removed_in_trace", json_boolean(m->rmdir));
		json_object_set_new(x, "sizes_from", json_string(
			m->world == 0 ? "node_stat_minus_tracked" :
			m->sizes_from_deltas ? "deltas" : m->snap.events ? "snapshots" :
			m->implied.events ? "implied" : "none"));
		json_object_set_new(x, "snapshots", src_json(&m->snap));
		json_object_set_new(x, "deltas", src_json(&m->delta));
		json_object_set_new(x, "workingset_deltas", src_json(&m->ws));
		json_object_set_new(x, "implied", src_json(&m->implied));
		json_object_set_new(x, "node_snapshots", src_json(&m->node));
		if (m->sizes_from_deltas) {
			json_object_set_new(x, "offset", lists4(m->offset));
			json_object_set_new(x, "offset_from", json_string(
				m->offset_from_mkdir ? "mkdir" :
				m->offset_assumed ? "assumed_empty" :
				m->offset_from_first ? "first_snapshot" : "snapshot_minus_deltas"));
			json_object_set_new(x, "snapshot_disagreement_max",
					    lists4(m->disagree_max));
			json_object_set_new(x, "reanchored", JI(m->anchors));
		}
		json_object_set_new(x, "lists_first", lists4(m->first_lru));
		json_object_set_new(x, "lists_last", lists4(m->last_lru));
		json_object_set_new(x, "lists_max", lists4(m->max_lru));
		if (m->have_usage) {
			RS_JSON_ADD_U64(x, m, memcg_usage_fields);
			json_object_set_new(x, "limit", limit_json(m->limit));
			json_object_set_new(x, "soft_limit", limit_json(m->soft_limit));
			json_object_set_new(x, "swappiness", m->swappiness < 0 ? json_null()
							     : JI(m->swappiness));
		}
		json_array_append_new(mc, x);
	}
	json_object_set_new(o, "memcgs", mc);
	for (size_t i = 0; (w = rs_replay_input_warning(r->ri, i)); i++)
		json_array_append_new(warn, json_string(w));
	json_object_set_new(o, "warnings", warn);
	return o;
}

static json_t *cgroups_json(const struct rs_replay_report *r, const struct rs_replay_result *p,
			    bool recorded, bool soft_shown)
{
	json_t *a = json_array();

	for (int c = 0; c < p->nr_memcg; c++) {
		const struct rs_reclaim_acct *m = &p->memcg[c];
		json_t *o = json_object();

		json_object_set_new(o, "path", json_string(rs_replay_cgroup_name(r, c)));
		json_object_set_new(o, "id", JI(r->w ? rs_world_memcg(r->w, c)->id : 0));
		json_object_set_new(o, "lru", scan_reclaim_lists(m->scanned, m->reclaimed));
		json_object_set_new(o, "swapped_out", JI(m->swapped_out));
		if (!recorded) {
			json_object_set_new(o, "soft_scanned", soft_shown ? JI(m->soft_scanned)
									  : json_null());
			json_object_set_new(o, "soft_reclaimed", soft_shown ? JI(m->soft_reclaimed)
									    : json_null());
		}
		json_array_append_new(a, o);
	}
	return a;
}

static void result_common(json_t *o, const struct rs_replay_result *p)
{
	json_t *prio = json_object(), *src = json_object();
	char k[8];

	json_object_set_new(o, "calls", JI(p->calls));
	json_object_set_new(o, "calls_short", JI(p->calls_short));
	json_object_set_new(o, "rounds", JI(p->rounds));
	json_object_set_new(o, "prio_lowest", p->prio_lowest < 0 ? json_null()
							    : JI(p->prio_lowest));
	for (int i = 0; i <= RS_DEF_PRIORITY; i++) {
		snprintf(k, sizeof(k), "%d", i);
		if (p->calls_at_prio[i])
			json_object_set_new(prio, k, JI(p->calls_at_prio[i]));
	}
	json_object_set_new(o, "calls_by_lowest_priority", prio);
	json_object_set_new(o, "swapped_out", JI(p->acct.swapped_out));
	json_object_set_new(o, "soft_scanned", JI(p->acct.soft_scanned));
	json_object_set_new(o, "soft_reclaimed", JI(p->acct.soft_reclaimed));
	if (p->policy) {
		for (int i = 0; i < RS_RATE_SRC_NR; i++)
			json_object_set_new(src, rs_rate_src_name(i), JI(p->reclaimed_by_src[i]));
		json_object_set_new(o, "reclaimed_by_reclaimability", src);
	} else {
		json_decref(src);
	}
}

static json_t *recorded_json(const struct rs_replay_report *r)
{
	json_t *o = json_object(), *lru = json_object(), *ic = json_object(), *il = json_object();

	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		json_t *x = json_object(), *y = json_object();

		json_object_set_new(x, "scanned", JI(r->analyze[l].scanned));
		json_object_set_new(x, "taken", JI(r->analyze[l].taken));
		json_object_set_new(x, "reclaimed", JI(r->analyze[l].reclaimed));
		json_object_set_new(lru, lname[l], x);
		if (r->rec) {
			json_object_set_new(y, "scanned", JI(r->rec->acct.scanned[l]));
			json_object_set_new(y, "taken", JI(r->in->taken[l]));
			json_object_set_new(y, "reclaimed", JI(r->rec->acct.reclaimed[l]));
		}
		json_object_set_new(il, lname[l], y);
	}
	json_object_set_new(o, "lru", lru);
	json_object_set_new(ic, "lru", il);
	if (r->rec) {
		result_common(ic, r->rec);
		json_object_set_new(ic, "cgroups", cgroups_json(r, r->rec, true, true));
	}
	json_object_set_new(o, "in_calls", ic);
	return o;
}

/*
 * An identity row, of a list or of a list in a cgroup: recorded against modelled, the verdict,
 * whether identity is claimed for it and what the trace lacks for it.
 */
static json_t *identity_row_json(const struct rs_identity_list *il)
{
	json_t *x = json_object();

	json_object_set_new(x, "claimed", json_boolean(il->claimed));
	json_object_set_new(x, "lacks", lacks_json(il->lacks));
	RS_JSON_ADD_U64(x, il, identity_pages_fields);
	json_object_set_new(x, "checked", json_boolean(il->checked));
	json_object_set_new(x, "within_target", json_boolean(il->within));
	json_object_set_new(x, "verdict", json_string(rs_identity_verdict_name(il->verdict)));
	return x;
}

static json_t *gaps_json(const struct rs_replay_report *r)
{
	const struct rs_identity *id = r->id;
	json_t *a = json_array();

	for (int g = 0; g < RS_GAP_NR; g++) {
		json_t *x, *sc;

		if (!(id->gap_mask & (1u << g)))
			continue;
		x = json_object();
		sc = json_object();
		json_object_set_new(x, "name", json_string(rs_gap_name((enum rs_gap)g)));
		json_object_set_new(x, "missing", json_string(rs_gap_missing((enum rs_gap)g)));
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			json_object_set_new(sc, lname[l], JI(id->gaps[0].scanned[g][l]));
		json_object_set_new(x, "recorded_scanned_in_calls", sc);
		json_array_append_new(a, x);
	}
	return a;
}

/* Where kswapd's runs end (include/kswapd_end.h); docs/json.md */
static json_t *kswapd_ends_json(const struct rs_kswapd_ends *k, const struct rs_gap_rule *g)
{
	json_t *o = json_object();

	json_object_set_new(o, "compact_gap", json_string(g->capped ? "capped" : "uncapped"));
	json_object_set_new(o, "compact_gap_from", json_string(rs_gap_from_name(g->from)));

	json_object_set_new(o, "from", json_string(k->zone_samples ? "zone_stat"
								  : "recorded_end"));
	json_object_set_new(o, "zone_samples", JI(k->zone_samples));
	RS_JSON_ADD_U64(o, k, kswapd_end_fields);
	json_object_set_new(o, "reproduced", JI(k->how[RS_KEND_AT_END] +
						k->how[RS_KEND_NOT_EARLIER]));
	for (int h = 0; h < RS_KEND_NR; h++)
		json_object_set_new(o, rs_kend_how_name((enum rs_kend_how)h), JI(k->how[h]));
	json_object_set_new(o, "freed_error_pct", k->rec_freed
			    ? rs_json_real(rs_replay_err_pct(k->derived_freed, k->rec_freed))
			    : json_null());
	return o;
}

/* Identity node by node (two or more nodes): kswapd's calls, or the others; docs/json.md */
static json_t *nodes_json(const struct rs_identity_node *nodes, int n)
{
	json_t *a = json_array();

	for (int k = 0; k < n; k++) {
		const struct rs_identity_node *x = &nodes[k];
		json_t *o = json_object(), *lists = json_object();

		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			const struct rs_identity_list *il = &x->list[l];
			json_t *row = identity_row_json(il);

			err_pcts_json(row, il, "scanned_error_pct", "reclaimed_error_pct");
			json_object_set_new(lists, lname[l], row);
		}
		json_object_set_new(o, "nid", json_integer(x->nid));
		json_object_set_new(o, "calls", JI(x->calls));
		json_object_set_new(o, "lists", lists);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *identity_json(const struct rs_replay_report *r, json_t **error_pct)
{
	const struct rs_identity *id = r->id;
	json_t *o = json_object(), *lists = json_object(), *cg = json_array();

	*error_pct = json_object();
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		const struct rs_identity_list *il = &id->list[l];
		json_t *x = identity_row_json(il), *e = json_object();

		err_pcts_json(e, il, "scanned", "reclaimed");
		json_object_set_new(x, "error_pct", json_deep_copy(e));
		json_object_set_new(*error_pct, lname[l], e);
		json_object_set_new(lists, lname[l], x);
	}
	for (int c = 0; id->per_cgroup && c < id->nr_memcg; c++) {
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			const struct rs_identity_list *il = rs_identity_memcg(id, c, l);
			json_t *x;

			/* only the lists the recording scanned in the cgroup */
			if (!il->rec_scanned)
				continue;
			x = identity_row_json(il);
			json_object_set_new(x, "path", json_string(rs_replay_cgroup_name(r, c)));
			json_object_set_new(x, "list", json_string(lname[l]));
			err_pcts_json(x, il, "scanned_error_pct", "reclaimed_error_pct");
			json_array_append_new(cg, x);
		}
	}
	json_object_set_new(o, "policy", json_string(id->policy->name));
	json_object_set_new(o, "target_pct", rs_json_real(RS_IDENTITY_TARGET_PCT));
	json_object_set_new(o, "min_scanned", JI(RS_IDENTITY_MIN_SCANNED));
	json_object_set_new(o, "lists", lists);
	json_object_set_new(o, "per_cgroup_checked", json_boolean(id->per_cgroup));
	json_object_set_new(o, "cgroups", cg);
	json_object_set_new(o, "checked", JI(id->claimed));
	json_object_set_new(o, "within", JI(id->within));
	json_object_set_new(o, "within_target", json_boolean(id->claimed &&
							     id->within == id->claimed));
	json_object_set_new(o, "not_claimed", JI(id->not_claimed));
	json_object_set_new(o, "not_checked", JI(id->not_checked));
	json_object_set_new(o, "trace_lacks", gaps_json(r));
	json_object_set_new(o, "sizes_from_snapshots_only", json_boolean(id->sizes_snapshots_only));
	json_object_set_new(o, "snapshot_interval_ms",
			    id->sizes_snapshots_only && id->snapshot_interval_ns ?
			    rs_json_real((double)id->snapshot_interval_ns / 1e6) : json_null());
	json_object_set_new(o, "folio_granularity", json_boolean(r->folio_granularity));
	json_object_set_new(o, "flushed_stats", json_boolean(r->flushed_stats));
	json_object_set_new(o, "kswapd_ends", kswapd_ends_json(&id->kswapd, &r->in->gap));
	if (id->nr_kswapd_nodes)
		json_object_set_new(o, "kswapd_nodes", nodes_json(id->kswapd_node,
								  id->nr_kswapd_nodes));
	if (id->nr_call_nodes)
		json_object_set_new(o, "call_nodes", nodes_json(id->call_node, id->nr_call_nodes));
	return o;
}

/* A reclaimed figure extrapolated from a small sample: null when it is not. */
static json_t *range_json(const struct rs_reclaim_range *g)
{
	json_t *o;

	if (!g->extrapolated)
		return json_null();
	o = json_object();
	json_object_set_new(o, "unknown", json_boolean(g->unknown));
	json_object_set_new(o, "lo", g->unknown ? json_null() : JI(g->lo));
	json_object_set_new(o, "hi", g->unknown ? json_null() : JI(g->hi));
	json_object_set_new(o, "sample_scanned", JI(g->sample));
	return o;
}

static json_t *soft_claim_json(const struct rs_policy_claims *pc)
{
	json_t *o = json_object();

	json_object_set_new(o, "checked", json_boolean(pc->soft_checked));
	json_object_set_new(o, "shown", json_boolean(pc->soft_shown));
	json_object_set_new(o, "error_pct", pc->soft_checked ? rs_json_real(pc->soft_err)
							      : json_null());
	json_object_set_new(o, "target_pct", rs_json_real(RS_SOFT_TARGET_PCT));
	json_object_set_new(o, "lacks", lacks_json(pc->soft_lacks));
	return o;
}

static json_t *policy_json(const struct rs_replay_report *r, const struct rs_replay_result *p,
			   const struct rs_policy_claims *pc)
{
	const struct rs_reclaim_acct *pt = &p->acct, *rt = &r->rec->acct;	/* totals */
	json_t *o = json_object(), *lru = json_object();

	json_object_set_new(o, "stands_for", json_string(p->policy->stands_for));
	json_object_set_new(o, "approximates", json_string(p->policy->approximates));
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		json_t *x = json_object();

		json_object_set_new(x, "scanned", JI(pt->scanned[l]));
		json_object_set_new(x, "reclaimed", JI(pt->reclaimed[l]));
		json_object_set_new(x, "scanned_diff",
				    JI((int64_t)pt->scanned[l] - (int64_t)rt->scanned[l]));
		json_object_set_new(x, "reclaimed_diff",
				    JI((int64_t)pt->reclaimed[l] - (int64_t)rt->reclaimed[l]));
		json_object_set_new(x, "reclaimed_range", range_json(&pc->reclaimed[l]));
		if (l == RS_LRU_INACTIVE_ANON)
			json_object_set_new(x, "scanned_no_swap", JI(pt->scanned_no_swap));
		json_object_set_new(lru, lname[l], x);
	}
	json_object_set_new(o, "lru", lru);
	result_common(o, p);
	json_object_set_new(o, "swapped_out_range", range_json(&pc->swapped));
	json_object_set_new(o, "soft_limit_claim", soft_claim_json(pc));
	if (!pc->soft_shown) {
		json_object_set_new(o, "soft_scanned", json_null());
		json_object_set_new(o, "soft_reclaimed", json_null());
	}
	json_object_set_new(o, "swapped_out_diff",
			    JI((int64_t)pt->swapped_out - (int64_t)rt->swapped_out));
	json_object_set_new(o, "cgroups", cgroups_json(r, p, false, pc->soft_shown));
	return o;
}

static json_t *prio_json(int prio)
{
	return prio < 0 ? json_null() : JI(prio);
}

static json_t *call_json(const struct rs_replay_report *r, size_t i)
{
	const struct rs_identity_call *x = &r->calls->call[i];
	const struct rs_reclaim_call *c = x->call;
	const struct rs_call_outcome *mo = x->model;
	const char *comm = r->call_comm ? r->call_comm[i] : "";
	json_t *o = json_object(), *rec = json_object(), *m = json_object();

	json_object_set_new(o, "index", JI(x->index));
	json_object_set_new(o, "start_s", rs_json_real(rs_ns_to_s(c->ts)));
	json_object_set_new(o, "start_ns", JI(c->ts));
	json_object_set_new(o, "end_s", rs_json_real(rs_ns_to_s(c->ts_end)));
	json_object_set_new(o, "end_ns", JI(c->ts_end));
	json_object_set_new(o, "offset", JI(c->ev_offset));
	json_object_set_new(o, "context", json_string(rs_call_ctx_name(c->ctx)));
	json_object_set_new(o, "pid", JI(c->pid));
	json_object_set_new(o, "comm", *comm ? json_string(comm) : json_null());
	json_object_set_new(o, "node", c->nid < 0 ? json_null() : JI(c->nid));
	json_object_set_new(o, "order", JI(c->order));
	json_object_set_new(o, "memcg_target", c->ctx == RS_CALL_MEMCG && c->target >= 0 ?
			    json_string(rs_replay_cgroup_name(r, c->target)) : json_null());
	json_object_set_new(o, "nr_to_reclaim", JI(c->nr_to_reclaim));
	json_object_set_new(rec, "have", json_boolean(c->rec.have));
	json_object_set_new(rec, "prio_first", c->rec.have ? prio_json(c->rec.prio_first)
							   : json_null());
	json_object_set_new(rec, "prio_lowest", c->rec.have ? prio_json(c->rec.prio_lowest)
							    : json_null());
	json_object_set_new(rec, "rounds", JI(c->rec.have ? c->rec.rounds : 0));
	json_object_set_new(rec, "lru", scan_reclaim_lists(x->rec_scanned, x->rec_reclaimed));
	json_object_set_new(rec, "soft_scanned", JI(c->rec.have ? c->rec.soft_scanned : 0));
	json_object_set_new(o, "recorded", rec);
	json_object_set_new(m, "prio_lowest", prio_json(mo->prio_lowest));
	json_object_set_new(m, "rounds", JI(mo->rounds));
	json_object_set_new(m, "lru", scan_reclaim_lists(mo->acct.scanned, mo->acct.reclaimed));
	json_object_set_new(m, "soft_scanned", JI(mo->acct.soft_scanned));
	json_object_set_new(o, "model", m);
	json_object_set_new(o, "scanned_diff", lists4(x->scanned_diff));
	json_object_set_new(o, "diff", JI(x->diff));
	return o;
}

json_t *rs_replay_calls_json(const struct rs_replay_report *r)
{
	const struct rs_identity_calls *ic = r->calls;
	json_t *o = json_object(), *a = json_array(), *d = json_object();

	json_object_set_new(o, "policy", json_string(r->res[r->identity].policy->name));
	json_object_set_new(o, "replayed", JI(ic->nr_calls));
	for (size_t i = 0; i < ic->nr; i++)
		json_array_append_new(a, call_json(r, i));
	json_object_set_new(o, "listed", a);
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		json_t *x = json_object();

		json_object_set_new(x, "listed", JI(ic->listed_diff[l]));
		json_object_set_new(x, "all", JI(ic->total_diff[l]));
		json_object_set_new(d, lname[l], x);
	}
	json_object_set_new(o, "scanned_diff", d);
	return o;
}

json_t *rs_replay_json(const struct rs_replay_report *r)
{
	json_t *root = json_object(), *rp = json_object(), *pol = json_object(), *names;

	if (!root)
		return NULL;
	if (r->src)
		json_object_set_new(root, "trace", rs_report_trace_json(r->src));
	json_object_set_new(rp, "caveat", json_string(rs_replay_open_loop_caveat));
	json_object_set_new(rp, "refused", r->refusal ? json_string(r->refusal) : json_null());
	names = json_array();
	for (int i = 0; i < r->n; i++)
		json_array_append_new(names, json_string(r->res[i].policy->name));
	json_object_set_new(rp, "policies", names);
	json_object_set_new(root, "recorded", recorded_json(r));
	if (!r->refusal) {
		for (int i = 0; i < r->n; i++) {
			json_t *p = policy_json(r, &r->res[i], &r->claims[i]);

			if (i == r->identity && r->id) {
				json_t *err;

				json_object_set_new(rp, "identity", identity_json(r, &err));
				json_object_set_new(p, "error_pct", err);
				if (r->calls)
					json_object_set_new(rp, "calls", rs_replay_calls_json(r));
			}
			json_object_set_new(pol, r->res[i].policy->name, p);
		}
	}
	if (r->calls_asked && !json_object_get(rp, "calls"))
		json_object_set_new(rp, "calls", json_null());
	json_object_set_new(root, "policies", pol);
	json_object_set_new(root, "replay", rp);
	json_object_set_new(root, "inputs", inputs_json(r));
	return root;
}
