// SPDX-License-Identifier: GPL-2.0
/*
 * Periodic snapshots written into the trace: per cgroup of interest its LRU sizes, usage and
 * limits (memcg_stat), per node its LRU sizes, free pages and watermarks (node_stat). No
 * tracepoint carries list sizes, and the policy models need them; a marker shares the trace
 * clock with the events around it. Formats: docs/markers.md.
 */
#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record_private.h"

#define MAX_NODES	1024

struct rec_snapshot {
	struct rec *r;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stop;
};

/* LRU fields of memory.stat and node vmstat, in marker order. */
static const char *const lru_names[] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};
#define NR_LRU (sizeof(lru_names) / sizeof(lru_names[0]))

/* Find "prefix+name value" lines of a stat file; missing ones stay 0. */
static int read_stat(const char *path, const char *prefix, const char *const *names, size_t nr,
		     unsigned long long *vals)
{
	char line[256], key[128];
	size_t pl = strlen(prefix);
	unsigned long long v;
	FILE *f;

	memset(vals, 0, nr * sizeof(*vals));
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %llu", key, &v) != 2 || strncmp(key, prefix, pl))
			continue;
		for (size_t i = 0; i < nr; i++)
			if (!strcmp(key + pl, names[i]))
				vals[i] = v;
	}
	fclose(f);
	return 0;
}

/*
 * Refault and swap-in counters of memory.stat, written only when the file has them (v1 has
 * workingset_refault_anon/file; v2 also activate, restore, nodereclaim, pswpin/pswpout).
 * Counts, not bytes. The names are the kernel's; docs/markers.md.
 */
static const char *const ws_names[] = {
	"workingset_refault_anon", "workingset_refault_file", "workingset_activate_anon",
	"workingset_activate_file", "workingset_restore_anon", "workingset_restore_file",
	"workingset_nodereclaim", "pswpin", "pswpout",
};
#define NR_WS (sizeof(ws_names) / sizeof(ws_names[0]))

/*
 * One read of a cgroup's memory.stat for both: the LRU lists and " name=value" for each
 * refault counter present, the cgroup's own lines (v1 has its own lists first, total_* with
 * children later: exact names only). Each read of memory.stat flushes the memcg's stats
 * (memcg_flush_stats), so two reads a snapshot gave two flushes milliseconds apart and lists
 * and counters of different moments (the replay times a marker by its flush: 1064193 keeps the
 * first of them for recordings made before this).
 */
static int read_memcg_stat(const char *path, unsigned long long *lru, char *ws, size_t len)
{
	char line[256], key[128];
	unsigned long long v;
	size_t used = 0;
	bool seen[NR_WS] = { false };
	FILE *f;

	memset(lru, 0, NR_LRU * sizeof(*lru));
	ws[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %llu", key, &v) != 2)
			continue;
		for (size_t i = 0; i < NR_LRU; i++)
			if (!strcmp(key, lru_names[i]))
				lru[i] = v;
		for (size_t i = 0; i < NR_WS; i++) {
			int n;

			if (seen[i] || strcmp(key, ws_names[i]))
				continue;
			seen[i] = true;
			n = snprintf(ws + used, len - used, " %s=%llu", key, v);
			if (n < 0 || (size_t)n >= len - used) {
				ws[used] = '\0';
				break;
			}
			used += (size_t)n;
		}
	}
	fclose(f);
	return 0;
}

static void snap_memcg(struct rec *r, const char *rel)
{
	unsigned long long lru[NR_LRU], usage, limit, a, b, c;
	uint64_t swappiness;
	char path[PATH_MAX], esc[3 * 256], tail[192], ws[400], numa[REC_MARKER_MAX];
	uint64_t id = rec_cgroup_id(&r->mem, rel);
	int n, numa_len = 0;

	if (!id)
		return;		/* removed since the list was made */
	if (snprintf(path, sizeof(path), "%s%s/memory.stat", r->mem.mnt, rel) >= (int)sizeof(path))
		return;
	if (read_memcg_stat(path, lru, ws, sizeof(ws)))
		return;
	rec_escape_path(rel, esc, sizeof(esc));
	/*
	 * One node: memory.stat is the node's, and no memcg_numa is written. The second read
	 * flushes again, a few ms after memory.stat's (docs/markers.md).
	 */
	if (r->mem.v2 && r->nr_nodes > 1 &&
	    snprintf(path, sizeof(path), "%s%s/memory.numa_stat", r->mem.mnt, rel) <
	    (int)sizeof(path)) {
		FILE *f = fopen(path, "re");

		if (f) {
			numa_len = rec_numa_marker(f, (unsigned long long)id, numa, sizeof(numa));
			fclose(f);
		}
	}
	if (r->mem.v2) {
		if (rec_cgroup_bytes(r, rel, "memory.current", &usage) ||
		    rec_cgroup_bytes(r, rel, "memory.max", &limit) ||
		    rec_cgroup_bytes(r, rel, "memory.high", &a) ||
		    rec_cgroup_bytes(r, rel, "memory.low", &b))
			return;
		/* v2 has no per-cgroup swappiness: the global one applies. */
		snprintf(path, sizeof(path), "/proc/sys/vm/swappiness");
		n = snprintf(tail, sizeof(tail), "high=%llu low=%llu", a, b);
		/*
		 * Inputs of reclaim no event shows: memory.min (the protection
		 * mem_cgroup_below_min() tests, as memory.low for mem_cgroup_below_low()), and
		 * memory.swap.max/swap.current (mem_cgroup_get_nr_swap_pages(): no anon reclaim
		 * for a memcg without swap of its own). Absent files (swap accounting off) are
		 * left out, never written as 0.
		 */
		if (!rec_cgroup_bytes(r, rel, "memory.min", &c))
			n += snprintf(tail + n, sizeof(tail) - (size_t)n, " min=%llu", c);
		if (!rec_cgroup_bytes(r, rel, "memory.swap.max", &c))
			n += snprintf(tail + n, sizeof(tail) - (size_t)n, " swap_max=%llu", c);
		if (!rec_cgroup_bytes(r, rel, "memory.swap.current", &c))
			snprintf(tail + n, sizeof(tail) - (size_t)n, " swap=%llu", c);
	} else {
		if (rec_cgroup_bytes(r, rel, "memory.usage_in_bytes", &usage) ||
		    rec_cgroup_bytes(r, rel, "memory.limit_in_bytes", &limit) ||
		    rec_cgroup_bytes(r, rel, "memory.soft_limit_in_bytes", &a))
			return;
		if (snprintf(path, sizeof(path), "%s%s/memory.swappiness", r->mem.mnt, rel) >=
		    (int)sizeof(path))
			return;
		snprintf(tail, sizeof(tail), "soft=%llu", a);
	}
	if (rec_read_bytes(r, path, &swappiness))
		swappiness = 0;
	/*
	 * Its own marker, just before memcg_stat, which the loader joins it to by id: inside
	 * memcg_stat (up to 794 bytes on a two-node guest with a 7-byte path) a long cgroup path,
	 * big numbers or more nodes pushed it out. Alone it fits for the nodes the loader reads
	 * (RS_SNAP_NODES); too long even alone: dropped and counted, never cut, and the replay
	 * says what it lacks.
	 */
	if (numa_len < 0)
		atomic_fetch_add(&r->markers_dropped, 1);	/* as rec_mark() does */
	else if (numa_len > 0)
		rec_mark(r, "%s", numa);
	rec_mark(r, "memcg_stat cg=%s id=%llu usage=%llu limit=%llu %s swappiness=%llu "
		 "inactive_anon=%llu active_anon=%llu inactive_file=%llu active_file=%llu "
		 "unevictable=%llu%s", esc, (unsigned long long)id, usage, limit, tail,
		 (unsigned long long)swappiness,
		 lru[0], lru[1], lru[2], lru[3], lru[4], ws);
}

#define MAX_ZONES	8	/* MAX_NR_ZONES is at most 6 */
#define MAX_ORDERS	16	/* NR_PAGE_ORDERS is 11 on x86, at most 14 elsewhere */

/* One zone of /proc/zoneinfo: what zone_watermark_ok_safe() reads for pgdat_balanced(). */
struct zone_snap {
	int nid, idx;
	char name[16];
	unsigned long long free, wm[3], managed, free_cma;
	/* the zone's pfn range: the kmem events name a pfn, not a zone (--zone-flow) */
	unsigned long long start_pfn, spanned;
	bool have_span;
	/* free pages in highatomic pageblocks: unusable to kswapd's check (-1: not printed) */
	long long free_ha, reserved_ha;
	/* pages on the per-cpu lists (pagesets count:, summed), and their high marks: freed pages
	 * wait there, outside NR_FREE_PAGES, which is what the watermark check reads */
	unsigned long long pcp_count, pcp_high, pcp_batch;
	bool have_pcp;
	unsigned long long prot[MAX_ZONES];	/* lowmem_reserve[] by highest_zoneidx */
	int nr_prot;
	unsigned long long blocks[MAX_ORDERS];	/* /proc/buddyinfo: free blocks by order */
	int nr_blocks;
};

/* "protection: (0, 1818, 1818, 1818)": the zone's lowmem_reserve[] */
static void parse_protection(const char *p, struct zone_snap *z)
{
	char *end;

	p = strchr(p, '(');
	z->nr_prot = 0;
	while (p && *p && z->nr_prot < MAX_ZONES) {
		unsigned long long v;

		p++;
		v = strtoull(p, &end, 10);
		if (end == p)
			break;
		z->prot[z->nr_prot++] = v;
		p = strchr(end, ',');
	}
}

/*
 * The whole of /proc/zoneinfo in back-to-back reads, parsed afterwards. With --zone-flow a
 * `zone_read` marker goes just before the first read: the kmem events say when free pages moved,
 * and the free pages a zone_stat line gives are as of this moment, not of the zone_stat marker,
 * written milliseconds later in a slow guest (docs/markers.md). Returns a malloc'd buffer.
 */
static char *read_zoneinfo(struct rec *r, size_t *len)
{
	size_t cap = 65536, got = 0;
	char *buf = malloc(cap), *nb;
	int fd = open("/proc/zoneinfo", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	if (r->zone_flow)
		rec_mark(r, "zone_read");
	for (;;) {
		ssize_t n;

		if (got == cap) {
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!got) {
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

/*
 * Read every zone of /proc/zoneinfo (in zone index order within a node, unpopulated ones
 * included, so the position is the zone index). The watermarks printed include the boost, as
 * high_wmark_pages() does. Returns the number of zones; *zs is the caller's to free.
 */
static int read_zones(struct rec *r, struct zone_snap **zs)
{
	static const char *const keys[] = { "min", "low", "high" };
	char line[512], key[64], name[16];
	struct zone_snap *z = NULL, *arr = NULL;
	unsigned long long v;
	int nr = 0, cap = 0, nid, last_nid = -1, idx = 0;
	char *text;
	size_t len;
	FILE *f;

	*zs = NULL;
	text = read_zoneinfo(r, &len);
	f = text ? fmemopen(text, len, "r") : NULL;
	if (!f) {
		free(text);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %15s", &nid, name) == 2) {
			if (nr == cap) {
				struct zone_snap *n = realloc(arr, (size_t)(cap + 8) * sizeof(*n));

				if (!n)
					break;
				arr = n;
				cap += 8;
			}
			idx = nid == last_nid ? idx + 1 : 0;
			last_nid = nid;
			z = &arr[nr++];
			memset(z, 0, sizeof(*z));
			z->nid = nid;
			z->idx = idx;
			z->free_ha = -1;
			z->reserved_ha = -1;
			snprintf(z->name, sizeof(z->name), "%s", name);
			continue;
		}
		if (!z)
			continue;
		if (sscanf(line, " pages free %llu", &v) == 1) {
			z->free = v;
			continue;
		}
		if (strstr(line, "protection:")) {
			parse_protection(line, z);
			continue;
		}
		/* the per-cpu "high:" lines have a colon and so never equal "high" */
		if (sscanf(line, "%63s %llu", key, &v) != 2)
			continue;
		if (!strcmp(key, "count:")) {
			z->pcp_count += v;
			z->have_pcp = true;
		} else if (!strcmp(key, "high:")) {
			z->pcp_high += v;
		} else if (!strcmp(key, "batch:")) {
			z->pcp_batch += v;
		}
		if (!strcmp(key, "free_highatomic:"))
			z->free_ha = (long long)v;
		else if (!strcmp(key, "reserved_highatomic:"))
			z->reserved_ha = (long long)v;
		for (int i = 0; i < 3; i++)
			if (!strcmp(key, keys[i]))
				z->wm[i] = v;
		if (!strcmp(key, "managed"))
			z->managed = v;
		else if (!strcmp(key, "spanned"))
			z->spanned = v;
		else if (!strcmp(key, "start_pfn:")) {
			z->start_pfn = v;
			z->have_span = true;
		}
		else if (!strcmp(key, "nr_free_cma"))
			z->free_cma = v;
	}
	fclose(f);
	free(text);
	*zs = arr;
	return arr ? nr : 0;
}

/* "Node 0, zone      DMA      1      0 ...": free blocks per order, matched by node and name */
static void read_buddyinfo(struct zone_snap *zs, int nr)
{
	char line[512], name[16];
	FILE *f = fopen("/proc/buddyinfo", "re");
	int nid, n;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %15s %n", &nid, name, &n) != 2)
			continue;
		for (int i = 0; i < nr; i++) {
			struct zone_snap *z = &zs[i];
			char *p = line + n, *end;

			if (z->nid != nid || strcmp(z->name, name))
				continue;
			z->nr_blocks = 0;
			while (z->nr_blocks < MAX_ORDERS) {
				unsigned long long v = strtoull(p, &end, 10);

				if (end == p)
					break;
				z->blocks[z->nr_blocks++] = v;
				p = end;
			}
			break;
		}
	}
	fclose(f);
}

/*
 * zone_stat, per managed zone: pgdat_balanced() is per zone (any eligible zone with free pages
 * above its high watermark plus its lowmem_reserve[highest_zoneidx]), and node sums hide a small
 * zone with a huge reserve (DMA) whose free pages count in the sum but never balance the node.
 */
static void snap_zones(struct rec *r, const struct zone_snap *zs, int nr)
{
	for (int i = 0; i < nr; i++) {
		const struct zone_snap *z = &zs[i];
		char prot[MAX_ZONES * 21 + 1], blocks[MAX_ORDERS * 21 + 16], ha[192];
		size_t used = 0;

		if (!z->managed)
			continue;
		prot[0] = '\0';
		for (int k = 0; k < z->nr_prot; k++)
			used += (size_t)snprintf(prot + used, sizeof(prot) - used, "%s%llu",
						 k ? "," : "", z->prot[k]);
		blocks[0] = '\0';
		used = 0;
		for (int k = 0; k < z->nr_blocks; k++)
			used += (size_t)snprintf(blocks + used, sizeof(blocks) - used, "%s%llu",
						 k ? "," : " blocks=", z->blocks[k]);
		ha[0] = '\0';
		if (z->free_ha >= 0)
			snprintf(ha, sizeof(ha), " free_highatomic=%lld", z->free_ha);
		if (z->reserved_ha >= 0)
			snprintf(ha + strlen(ha), sizeof(ha) - strlen(ha), " reserved_highatomic=%lld",
				 z->reserved_ha);
		if (z->have_pcp)
			snprintf(ha + strlen(ha), sizeof(ha) - strlen(ha),
				 " pcp=%llu pcp_high=%llu pcp_batch=%llu", z->pcp_count, z->pcp_high,
				 z->pcp_batch);
		if (z->have_span)
			snprintf(ha + strlen(ha), sizeof(ha) - strlen(ha),
				 " start_pfn=%llu spanned=%llu", z->start_pfn, z->spanned);
		rec_mark(r, "zone_stat nid=%d zone=%s idx=%d free=%llu min=%llu low=%llu high=%llu "
			 "managed=%llu free_cma=%llu protection=%s%s%s", z->nid, z->name, z->idx,
			 z->free, z->wm[0], z->wm[1], z->wm[2], z->managed, z->free_cma,
			 prot[0] ? prot : "0", ha, blocks);
	}
}

static void snap_nodes(struct rec *r)
{
	static const char *const names[] = {
		"nr_free_pages", "nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
		"nr_active_file", "nr_unevictable",
	};
	unsigned long long v[6];
	unsigned long long (*wm)[3];
	struct zone_snap *zs;
	char path[PATH_MAX];
	int nr_zones;
	int nids[MAX_NODES], nr = 0, max_nid = 0;
	struct dirent *d;
	DIR *dh;

	dh = opendir("/sys/devices/system/node");
	while (dh && (d = readdir(dh)) && nr < MAX_NODES) {
		char *end;
		long nid;

		if (strncmp(d->d_name, "node", 4) || !isdigit((unsigned char)d->d_name[4]))
			continue;
		nid = strtol(d->d_name + 4, &end, 10);
		if (*end || nid < 0 || nid >= MAX_NODES)
			continue;
		nids[nr++] = (int)nid;
		if (nid > max_nid)
			max_nid = (int)nid;
	}
	if (dh)
		closedir(dh);
	wm = calloc((size_t)max_nid + 1, sizeof(*wm));
	if (!wm)
		return;
	/* node_stat keeps the watermarks summed over the node's zones, as older traces have them */
	nr_zones = read_zones(r, &zs);
	read_buddyinfo(zs, nr_zones);
	for (int i = 0; i < nr_zones; i++)
		for (int k = 0; k < 3; k++)
			if (zs[i].nid >= 0 && zs[i].nid <= max_nid)
				wm[zs[i].nid][k] += zs[i].wm[k];
	/* Without NUMA sysfs the machine is node 0 and /proc/vmstat has its counters. */
	for (int i = 0; i < (nr ? nr : 1); i++) {
		int nid = nr ? nids[i] : 0;

		if (nr)
			snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/vmstat", nid);
		else
			snprintf(path, sizeof(path), "/proc/vmstat");
		if (read_stat(path, "", names, 6, v))
			continue;
		rec_mark(r, "node_stat nid=%d nr_free_pages=%llu nr_inactive_anon=%llu "
			 "nr_active_anon=%llu nr_inactive_file=%llu nr_active_file=%llu "
			 "nr_unevictable=%llu wmark_min=%llu wmark_low=%llu wmark_high=%llu",
			 nid, v[0], v[1], v[2], v[3], v[4], v[5], wm[nid][0], wm[nid][1],
			 wm[nid][2]);
	}
	snap_zones(r, zs, nr_zones);
	free(zs);
	free(wm);
}

/*
 * Swap space (KB, /proc/meminfo): whether reclaim may scan anon at all is a world input of the
 * replay (can_reclaim_anon_pages()); without it the replay infers swap from anon scanning, and a
 * kernel that never scanned anon (cache_trim_mode) looks swapless to it.
 */
static void snap_swap(struct rec *r)
{
	static const char *const names[] = { "SwapTotal:", "SwapFree:" };
	unsigned long long v[2];

	if (!read_stat("/proc/meminfo", "", names, 2, v))
		rec_mark(r, "swap total=%llu free=%llu", v[0], v[1]);
}

void rec_snapshot_once(struct rec *r)
{
	char *rels[REC_MAX_INTEREST];
	size_t n = rec_cgroups_of_interest(r, rels, REC_MAX_INTEREST);

	for (size_t i = 0; i < n; i++) {
		snap_memcg(r, rels[i]);
		free(rels[i]);
	}
	snap_nodes(r);
	snap_swap(r);
	rec_snapshot_lru_gen(r);
}

static void *snapshot_thread(void *arg)
{
	struct rec_snapshot *s = arg;
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		pthread_mutex_unlock(&s->lock);
		rec_snapshot_once(s->r);
		/* absolute deadlines: the time a snapshot takes does not stretch the interval */
		next.tv_nsec += (long)(s->r->interval_ms % 1000) * 1000000L;
		next.tv_sec += s->r->interval_ms / 1000 + next.tv_nsec / 1000000000L;
		next.tv_nsec %= 1000000000L;
		pthread_mutex_lock(&s->lock);
		while (!s->stop && pthread_cond_timedwait(&s->cond, &s->lock, &next) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

struct rec_snapshot *rec_snapshot_start(struct rec *r, struct rs_error *err)
{
	struct rec_snapshot *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;
	int e;

	if (!s) {
		rs_error_set(err, "out of memory");
		return NULL;
	}
	s->r = r;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	e = pthread_create(&s->thread, NULL, snapshot_thread, s);
	if (e) {
		rs_error_set(err, "cannot start the snapshot thread: %s", strerror(e));
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		free(s);
		return NULL;
	}
	return s;
}

void rec_snapshot_stop(struct rec_snapshot *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	rec_snapshot_once(s->r);
	free(s);
}
