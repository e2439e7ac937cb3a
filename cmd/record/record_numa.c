// SPDX-License-Identifier: GPL-2.0
/*
 * The memcg_numa marker (docs/markers.md): a memcg's memory.numa_stat, per node, written just
 * before the memcg_stat of the same read. Apart from snap_memcg() so that the unit tests can
 * format a read of any node count (tests/unit/test_numa_stat.c): this machine has one node.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "record_private.h"

/*
 * The lines of cgroup v2's memory.numa_stat the replay needs per node: the evictable lists
 * (get_scan_count() sizes each (node, memcg) lruvec's scan from its own) and the workingset
 * counters it reads per lruvec (prepare_scan_control()'s refaults, lru_note_cost()'s restores).
 * memory.stat sums them over the nodes; so do the memcg events. Unevictable is left out: reclaim
 * never scans it, and a marker has < 1000 bytes.
 */
static const char *const numa_names[] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file",
	"workingset_activate_anon", "workingset_activate_file", "workingset_restore_anon",
	"workingset_restore_file",
};
#define NR_NUMA (sizeof(numa_names) / sizeof(numa_names[0]))

int rec_numa_marker(FILE *f, unsigned long long id, char *out, size_t len)
{
	char line[1024];
	size_t used;
	int n, items = 0;

	n = snprintf(out, len, "memcg_numa id=%llu", id);
	if (n < 0 || (size_t)n >= len)
		return -1;
	used = (size_t)n;
	while (fgets(line, sizeof(line), f)) {
		char *p, *sp = strchr(line, ' ');
		size_t i, start = used;
		int nodes = 0;

		if (!sp)
			continue;
		*sp = '\0';
		for (i = 0; i < NR_NUMA && strcmp(line, numa_names[i]); i++)
			;
		if (i == NR_NUMA)
			continue;
		n = snprintf(out + used, len - used, " %s=", line);
		if (n < 0 || (size_t)n >= len - used)
			return -1;
		used += (size_t)n;
		p = sp + 1;
		for (;;) {
			unsigned int nid;
			unsigned long long v;
			int c;

			while (*p == ' ')
				p++;
			if (sscanf(p, "N%u=%llu%n", &nid, &v, &c) != 2)
				break;
			p += c;
			n = snprintf(out + used, len - used, "%sN%u:%llu", nodes ? "," : "", nid,
				     v);
			/* no room: the whole marker goes, never a cut list (docs/markers.md) */
			if (n < 0 || (size_t)n >= len - used)
				return -1;
			used += (size_t)n;
			nodes++;
		}
		if (!nodes) {
			used = start;	/* a line without nodes: left out */
			out[used] = '\0';
		} else {
			items++;
		}
	}
	return items ? (int)used : 0;
}
