// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's trace_marker lines (docs/markers.md) as typed events. Both the current
 * `reclaimscope record` format and the earlier record-scenario one are accepted; a line that
 * is not a marker of ours stays a plain RS_EV_MARKER.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_warn.h"
#include "source_state.h"

#define MAX_ITEMS 4096		/* enum items we keep per enum; hostile input stops here */
#define MAX_PAIRS 48	/* memcg_stat: 24 keys, + 8 numa_* (recorders of 2026-12-03 14:30) */
#define LINE_MAX_LEN 4096

struct item_list {
	char **names;
	int count;
};

struct rs_markers {
	struct item_list items[3];	/* by enum rs_item_enum */
	char line[LINE_MAX_LEN];
	char *keys[MAX_PAIRS], *vals[MAX_PAIRS];
	int nr_pairs;
	char path[LINE_MAX_LEN];
	/*
	 * The last memcg_numa marker, decoded: the recorder writes it just before the memcg_stat
	 * of the same read (docs/markers.md), which takes it when its id is the same. Any
	 * memcg_stat ends it, so a numa part never joins another read.
	 */
	struct {
		uint64_t id;		/* 0: none pending */
		uint32_t nodes, ws_nodes;
		uint64_t bytes[RS_SNAP_NODES][RS_LRU_NR];
		uint64_t ws[RS_SNAP_NODES][4];
	} numa;
};

struct rs_markers *rs_markers_new(void)
{
	return calloc(1, sizeof(struct rs_markers));
}

void rs_markers_free(struct rs_markers *m)
{
	if (!m)
		return;
	for (int e = 0; e < 3; e++) {
		for (int i = 0; i < m->items[e].count; i++)
			free(m->items[e].names[i]);
		free(m->items[e].names);
	}
	free(m);
}

/* The next space-separated word at *p, ended in place with a NUL; NULL at the end of the text. */
static char *next_word(char **p)
{
	char *w = *p, *end;

	while (*w == ' ')
		w++;
	if (!*w)
		return NULL;
	end = w + strcspn(w, " ");
	if (*end)
		*end++ = '\0';
	*p = end;
	return w;
}

/* Split m->line (after the tag) into key=value pairs in place. */
static void split_pairs(struct rs_markers *m, char *p)
{
	char *w;

	m->nr_pairs = 0;
	while (m->nr_pairs < MAX_PAIRS && (w = next_word(&p))) {
		char *eq = strchr(w, '=');

		if (eq) {
			*eq = '\0';
			m->keys[m->nr_pairs] = w;
			m->vals[m->nr_pairs++] = eq + 1;
		}
	}
}

static const char *get(struct rs_markers *m, const char *key)
{
	for (int i = 0; i < m->nr_pairs; i++)
		if (!strcmp(m->keys[i], key))
			return m->vals[i];
	return NULL;
}

static uint64_t getu(struct rs_markers *m, const char *key, uint64_t def)
{
	const char *v = get(m, key);
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return def;
	n = strtoull(v, &end, 0);
	return *end ? def : n;
}

/* Undo the recorder's %20 / %25 escapes of paths, into m->path. */
static const char *unescape_path(struct rs_markers *m, const char *v)
{
	size_t o = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; v[i] && o + 1 < sizeof(m->path); i++) {
		if (v[i] == '%' && v[i + 1] == '2' && (v[i + 2] == '0' || v[i + 2] == '5')) {
			m->path[o++] = v[i + 2] == '0' ? ' ' : '%';
			i += 2;
		} else {
			m->path[o++] = v[i];
		}
	}
	m->path[o] = '\0';
	return m->path;
}

static void decode_items(struct rs_source *src, struct rs_markers *m, enum rs_item_enum which,
			 char *p, struct rs_event *ev)
{
	struct item_list *l = &m->items[which];
	int idx = 0;
	char *w;

	while ((w = next_word(&p))) {
		if (*w == '@') {
			idx = atoi(w + 1);
		} else if (!strchr(w, '=')) {	/* skip source=btf and the like */
			if (idx < 0 || idx >= MAX_ITEMS) {
				rs_warn(src->info.warnings, "marker: item index %d out of range; "
					"item names ignored past it", idx);
				break;
			}
			if (idx >= l->count) {
				char **n = realloc(l->names, (idx + 1) * sizeof(*n));

				if (!n)
					break;
				memset(n + l->count, 0, (idx + 1 - l->count) * sizeof(*n));
				l->names = n;
				l->count = idx + 1;
			}
			free(l->names[idx]);
			l->names[idx] = strdup(w);
			idx++;
		}
	}
	/* unnamed holes get "" so consumers can index without NULL checks */
	for (int i = 0; i < l->count; i++)
		if (!l->names[i])
			l->names[i] = strdup("");
	ev->type = RS_EV_ITEM_NAMES;
	ev->items.which = which;
	ev->items.count = l->count;
	ev->items.names = (const char *const *)l->names;
}

/*
 * One PREFIXNAME=N0:V,N1:V key (docs/markers.md: numa_NAME in memcg_stat, NAME in memcg_numa)
 * into out[nid * stride]: the nodes it names, each once with a number; 0 when absent or
 * malformed.
 */
static uint32_t numa_key(struct rs_markers *m, const char *prefix, const char *name,
			 uint64_t *out, size_t stride)
{
	char key[64];
	const char *p;
	uint32_t seen = 0;

	snprintf(key, sizeof(key), "%s%s", prefix, name);
	p = get(m, key);
	while (p && *p) {
		char *end;
		unsigned long nid;
		unsigned long long v;

		if (*p != 'N')
			return 0;
		nid = strtoul(p + 1, &end, 10);
		if (end == p + 1 || *end != ':')
			return 0;
		p = end + 1;
		v = strtoull(p, &end, 10);
		if (end == p || (*end && *end != ','))
			return 0;
		p = *end ? end + 1 : end;
		if (nid >= RS_SNAP_NODES || (seen & (1u << nid)))
			return 0;
		seen |= 1u << nid;
		out[nid * stride] = v;
	}
	return seen;
}

static const char *const memcg_lru_keys[RS_LRU_NR] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable"
};

/*
 * The per-node lists and workingset counters, keys PREFIXNAME: the nodes every one of them
 * names.
 */
static void decode_numa(struct rs_markers *m, const char *prefix, uint64_t bytes[][RS_LRU_NR],
			uint32_t *nodes, uint64_t ws[][4], uint32_t *ws_nodes)
{
	static const char *const ws_keys[4] = {
		"workingset_activate_anon", "workingset_activate_file",
		"workingset_restore_anon", "workingset_restore_file",
	};
	uint32_t all = UINT32_MAX;

	memset(bytes, 0, sizeof(uint64_t[RS_SNAP_NODES][RS_LRU_NR]));
	memset(ws, 0, sizeof(uint64_t[RS_SNAP_NODES][4]));
	for (int l = 0; l < RS_LRU_NR; l++)
		if (l != RS_LRU_UNEVICTABLE)	/* not needed by reclaim: not written */
			all &= numa_key(m, prefix, memcg_lru_keys[l], &bytes[0][l], RS_LRU_NR);
	*nodes = all;
	all = UINT32_MAX;
	for (int k = 0; k < 4; k++)
		all &= numa_key(m, prefix, ws_keys[k], &ws[0][k], 4);
	*ws_nodes = all;
}

/* memcg_numa id=N NAME=N0:V,...: kept for the memcg_stat that follows it */
static void decode_memcg_numa(struct rs_markers *m)
{
	m->numa.id = getu(m, "id", 0);
	decode_numa(m, "", m->numa.bytes, &m->numa.nodes, m->numa.ws, &m->numa.ws_nodes);
}

static void decode_memcg_stat(struct rs_markers *m, struct rs_event *ev)
{
	struct rs_ev_snap_memcg *s = &ev->snap_memcg;

	ev->type = RS_EV_SNAP_MEMCG;
	s->id = getu(m, "id", 0);
	s->path = unescape_path(m, get(m, "cg"));
	s->usage = getu(m, "usage", 0);
	s->limit = getu(m, "limit", UINT64_MAX);
	s->soft_limit = getu(m, "soft", UINT64_MAX);
	s->have_low = get(m, "low") != NULL;
	s->low = getu(m, "low", 0);
	s->have_min = get(m, "min") != NULL;
	s->min = getu(m, "min", 0);
	s->have_swap = get(m, "swap_max") != NULL;
	s->swap_max = getu(m, "swap_max", 0);
	s->swap = getu(m, "swap", 0);
	s->swappiness = (int)getu(m, "swappiness", (uint64_t)-1);
	for (int l = 0; l < RS_LRU_NR; l++)
		s->lru_bytes[l] = getu(m, memcg_lru_keys[l], 0);
	for (int w = 0; w < RS_WS_NR; w++) {
		uint64_t v = getu(m, rs_ws_item_name(w), UINT64_MAX);

		s->ws[w] = v > INT64_MAX ? -1 : (int64_t)v;
	}
	/* numa_* keys inside the marker: the recorders of 2026-12-03 before memcg_numa */
	decode_numa(m, "numa_", s->numa_bytes, &s->numa_nodes, s->numa_ws, &s->numa_ws_nodes);
	if (!s->numa_nodes && !s->numa_ws_nodes && m->numa.id && m->numa.id == s->id) {
		memcpy(s->numa_bytes, m->numa.bytes, sizeof(s->numa_bytes));
		memcpy(s->numa_ws, m->numa.ws, sizeof(s->numa_ws));
		s->numa_nodes = m->numa.nodes;
		s->numa_ws_nodes = m->numa.ws_nodes;
	}
	m->numa.id = 0;
}

static void decode_node_stat(struct rs_markers *m, struct rs_event *ev)
{
	static const char *const lru_keys[RS_LRU_NR] = {
		"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
		"nr_unevictable"
	};
	struct rs_ev_snap_node *s = &ev->snap_node;

	ev->type = RS_EV_SNAP_NODE;
	s->nid = (int)getu(m, "nid", 0);
	s->free_pages = getu(m, "nr_free_pages", 0);
	for (int l = 0; l < RS_LRU_NR; l++)
		s->lru_pages[l] = getu(m, lru_keys[l], 0);
	s->wmark_min = getu(m, "wmark_min", 0);
	s->wmark_low = getu(m, "wmark_low", 0);
	s->wmark_high = getu(m, "wmark_high", 0);
}

/* A value list "a,b,c" (NULL: none) into out[], at most max numbers: how many were read. */
static int get_list(const char *p, uint64_t *out, int max)
{
	int n = 0;

	while (p && *p && n < max) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p)
			break;
		out[n++] = v;
		p = *end == ',' ? end + 1 : NULL;
	}
	return n;
}

/* zone_stat (docs/markers.md): protection=a,b,c is the zone's lowmem_reserve[] */
static void decode_zone_stat(struct rs_markers *m, struct rs_event *ev)
{
	struct rs_ev_snap_zone z = { 0 };
	uint64_t ha;

	z.nid = (int)getu(m, "nid", 0);
	z.idx = (int)getu(m, "idx", (uint64_t)-1);
	/* not a zone we can index: the event stays a plain marker, its text intact */
	if (z.idx < 0 || z.idx >= RS_ZONE_MAX || z.nid < 0 || z.nid >= 1024)
		return;
	z.free_pages = getu(m, "free", 0);
	z.free_cma = getu(m, "free_cma", 0);
	z.wmark_min = getu(m, "min", 0);
	z.wmark_low = getu(m, "low", 0);
	z.wmark_high = getu(m, "high", 0);
	z.managed = getu(m, "managed", 0);
	z.nr_reserve = get_list(get(m, "protection"), z.lowmem_reserve, RS_ZONE_MAX);
	z.nr_blocks = get_list(get(m, "blocks"), z.blocks, RS_ZONE_ORDERS);
	ha = getu(m, "free_highatomic", UINT64_MAX);
	z.free_highatomic = ha > INT64_MAX ? -1 : (int64_t)ha;
	ha = getu(m, "reserved_highatomic", UINT64_MAX);
	z.reserved_highatomic = ha > INT64_MAX ? -1 : (int64_t)ha;
	ha = getu(m, "pcp", UINT64_MAX);
	z.pcp = ha > INT64_MAX ? -1 : (int64_t)ha;
	ha = getu(m, "pcp_high", UINT64_MAX);
	z.pcp_high = ha > INT64_MAX ? -1 : (int64_t)ha;
	ha = getu(m, "pcp_batch", UINT64_MAX);
	z.pcp_batch = ha > INT64_MAX ? -1 : (int64_t)ha;
	z.start_pfn = getu(m, "start_pfn", 0);
	z.spanned = getu(m, "spanned", 0);
	ev->type = RS_EV_SNAP_ZONE;
	ev->snap_zone = z;
}

void rs_markers_decode(struct rs_source *src, const char *text, struct rs_event *ev)
{
	struct rs_markers *m = src->markers;
	char *tag, *rest;
	size_t taglen;

	if (!m || !text)
		return;
	snprintf(m->line, sizeof(m->line), "%s", text);
	tag = m->line;
	taglen = strcspn(tag, " ");
	rest = tag + taglen;
	if (*rest)
		*rest++ = '\0';

	if (!strcmp(tag, "vm_event_items")) {
		decode_items(src, m, RS_ITEMS_VM_EVENT, rest, ev);
	} else if (!strcmp(tag, "node_stat_items")) {
		decode_items(src, m, RS_ITEMS_NODE_STAT, rest, ev);
	} else if (!strcmp(tag, "memcg_stat_items")) {
		decode_items(src, m, RS_ITEMS_MEMCG_STAT, rest, ev);
	} else if (!strcmp(tag, "memcg_stat")) {
		split_pairs(m, rest);
		decode_memcg_stat(m, ev);
	} else if (!strcmp(tag, "memcg_numa")) {
		/* stays a plain marker, its text intact: its numbers go with the next memcg_stat */
		split_pairs(m, rest);
		decode_memcg_numa(m);
	} else if (!strcmp(tag, "node_stat")) {
		split_pairs(m, rest);
		decode_node_stat(m, ev);
	} else if (!strcmp(tag, "zone_stat")) {
		split_pairs(m, rest);
		decode_zone_stat(m, ev);
	} else if (!strcmp(tag, "cgroup_map")) {
		const char *path;

		split_pairs(m, rest);
		path = unescape_path(m, get(m, "path"));
		/*
		 * Without a path it stays the plain marker it came as: ev->marker shares its
		 * storage with cgroup_map.id, so nothing of the map may be written before
		 */
		if (path) {
			ev->type = RS_EV_CGROUP_MAP;
			ev->cgroup_map.id = getu(m, "id", 0);
			ev->cgroup_map.path = path;
		}
	} else if (!strcmp(tag, "task_cgroup")) {
		split_pairs(m, rest);
		ev->type = RS_EV_TASK_CGROUP;
		ev->task_cgroup.pid = (int)getu(m, "pid", (uint64_t)-1);
		ev->task_cgroup.id = getu(m, "id", 0);
		ev->task_cgroup.path = unescape_path(m, get(m, "path"));
	} else if (!strcmp(tag, "reclaimscope_begin") || !strcmp(tag, "scenario_begin") ||
		   !strcmp(tag, "reclaimscope_end") || !strcmp(tag, "scenario_end")) {
		bool begin = strstr(tag, "_begin") != NULL;
		const char *k;

		/* keep the unsplit text for consumers; split a copy for the kernel release */
		ev->type = RS_EV_META;
		ev->meta.kind = begin ? "begin" : "end";
		ev->meta.text = text + (rest - m->line);
		split_pairs(m, rest);
		k = get(m, "kernel");
		if (begin && k && (!src->info.kernel || !strcmp(src->info.kernel, "unknown")))
			rs_source_set_kernel(src, k);
	}
}

const char *rs_meta_value(const char *text, const char *key, char *buf, size_t n)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			size_t l = strcspn(p + kl + 1, " ");

			if (l >= n)
				l = n - 1;
			memcpy(buf, p + kl + 1, l);
			buf[l] = '\0';
			return buf;
		}
		p = strchr(p, ' ');
	}
	return NULL;
}
