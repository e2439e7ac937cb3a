// SPDX-License-Identifier: GPL-2.0
/*
 * MGLRU's state over time, which no tracepoint carries: /sys/kernel/mm/lru_gen/enabled each
 * time it changes, and, where debugfs has /sys/kernel/debug/lru_gen, the generations of each
 * memcg of interest (every memcg without --cgroup) and node: sequence number, age, anon and
 * file pages (Documentation/admin-guide/mm/multigen_lru.rst). Markers in docs/markers.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_private.h"

#define LRU_GEN_ENABLED	"/sys/kernel/mm/lru_gen/enabled"
#define LRU_GEN_DEBUGFS	"/sys/kernel/debug/lru_gen"
#define MAX_MARKERS	64		/* per round: a busy machine has thousands of memcgs */
#define MAX_LINES	65536		/* of the debugfs file read per round */

struct gen_node {
	char css_id[24], cg[3 * 256];
	int nid;
	char gens[512];
	size_t len;
	bool wanted;
};

static bool wanted(const char *cg, char *const *rels, size_t nr, bool all)
{
	if (all)
		return true;
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(rels[i], cg))
			return true;
	return false;
}

static void flush(struct rec *r, struct gen_node *g, int *written)
{
	if (g->nid >= 0 && g->wanted && g->len && *written < MAX_MARKERS) {
		rec_mark(r, "lru_gen css_id=%s cg=%s node=%d gens=%s", g->css_id, g->cg, g->nid,
			 g->gens);
		(*written)++;
	}
	g->nid = -1;
	g->len = 0;
	g->gens[0] = '\0';
}

void rec_snapshot_lru_gen(struct rec *r)
{
	char line[4096], *rels[REC_MAX_INTEREST], path[2048];
	struct gen_node g = { .nid = -1 };
	size_t nr = 0, lines = 0;
	int written = 0;
	long enabled;
	FILE *f;

	if (rec_read_file(LRU_GEN_ENABLED, line, sizeof(line)))
		return;		/* no CONFIG_LRU_GEN: the begin marker says mglru=0x0000 */
	enabled = strtol(line, NULL, 16);
	if (!r->lru_gen_seen || enabled != r->lru_gen_last) {
		rec_mark(r, "lru_gen_enabled enabled=0x%04lx", enabled);
		r->lru_gen_seen = true;
		r->lru_gen_last = enabled;
	}
	if (!(enabled & 1) || !(f = fopen(LRU_GEN_DEBUGFS, "re")))
		return;
	if (r->cgroup)
		nr = rec_cgroups_of_interest(r, rels, REC_MAX_INTEREST);
	while (fgets(line, sizeof(line), f) && lines++ < MAX_LINES) {
		unsigned long long seq, age, anon, file;
		char id[24];
		int nid;

		if (sscanf(line, " memcg %23s %2047s", id, path) == 2 ||
		    sscanf(line, " memcg %23s", id) == 1) {
			flush(r, &g, &written);
			if (sscanf(line, " memcg %*s %2047s", path) != 1)
				snprintf(path, sizeof(path), "/");
			snprintf(g.css_id, sizeof(g.css_id), "%s", id);
			rec_escape_path(path, g.cg, sizeof(g.cg));
			g.wanted = wanted(path, rels, nr, !r->cgroup);
		} else if (sscanf(line, " node %d", &nid) == 1) {
			flush(r, &g, &written);
			g.nid = nid;
		} else if (g.nid >= 0 &&
			   sscanf(line, " %llu %llu %llu %llu", &seq, &age, &anon, &file) == 4) {
			int n = snprintf(g.gens + g.len, sizeof(g.gens) - g.len, "%s%llu:%llu:%llu:%llu",
					 g.len ? "," : "", seq, age, anon, file);

			if (n > 0 && g.len + (size_t)n < sizeof(g.gens))
				g.len += (size_t)n;
		}
	}
	flush(r, &g, &written);
	fclose(f);
	for (size_t i = 0; i < nr; i++)
		free(rels[i]);
}
