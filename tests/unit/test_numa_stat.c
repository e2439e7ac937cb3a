// SPDX-License-Identifier: GPL-2.0
/*
 * memory.numa_stat as `record` writes it on cgroup v2 with two or more nodes (docs/markers.md),
 * read back through the text loader: the memcg_numa marker the loader joins to the memcg_stat
 * after it, and the numa_* keys inside memcg_stat of the earlier recorders. The lines are the
 * recorder's own (7.2 guest, two nodes: /rs_high at 49.265 s of a memcg-high recording), some
 * cut by hand. And the recorder's formatting of a read of more nodes than this machine has.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "trace_source.h"
#include "unit.h"

/* cmd/record/record_numa.c (record_private.h needs more of the recorder than we link) */
int rec_numa_marker(FILE *f, unsigned long long id, char *out, size_t len);

#define MAX_EV 12

struct got {
	int n;
	struct rs_ev_snap_memcg s[MAX_EV];
	enum rs_ev_type type[MAX_EV];
};

/* Keeps the snapshot's numbers (its strings die with the callback). */
static int keep(const struct rs_event *ev, void *ctx)
{
	struct got *g = ctx;

	if (ev->type != RS_EV_SNAP_MEMCG && ev->type != RS_EV_MARKER)
		return 0;
	if (g->n >= MAX_EV)
		return -1;
	g->type[g->n] = ev->type;
	if (ev->type == RS_EV_SNAP_MEMCG) {
		g->s[g->n] = ev->snap_memcg;
		g->s[g->n].path = NULL;
	}
	g->n++;
	return 0;
}

static int load(const char *txt, struct got *g)
{
	const char *dir = getenv("TMPDIR");
	struct rs_error err = { "" };
	struct rs_source *src = NULL;
	char path[256];
	size_t len = strlen(txt);
	int fd, ret;

	snprintf(path, sizeof(path), "%s/rs-numa-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, txt, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	memset(g, 0, sizeof(*g));
	ret = rs_source_open(path, NULL, &src, &err);
	unlink(path);
	if (ret < 0) {
		fprintf(stderr, "  open: %s\n", err.msg);
		return -1;
	}
	ret = rs_source_stream(src, 0, UINT64_MAX, keep, g, &err);
	if (ret < 0)
		fprintf(stderr, "  stream: %s\n", err.msg);
	rs_source_close(src);
	return ret;
}

#define HEAD " reclaimscope-148 [000] .....  49.265387: tracing_mark_write: memcg_stat " \
	"cg=/rs_high id=28 usage=67108864 limit=9223372036854771712 high=67108864 low=0 " \
	"swappiness=60 inactive_anon=41005056 active_anon=7274496 inactive_file=9428992 " \
	"active_file=2048000 unevictable=0 workingset_refault_anon=0 workingset_refault_file=0"

UT_TEST(test_numa_stat_marker, "markers: memcg_stat numa_* per node")
{
	static const char txt[] =
		"cpus=2\n"
		HEAD " numa_inactive_anon=N0:32964608,N1:5943296 "
		"numa_active_anon=N0:6852608,N1:421888 numa_inactive_file=N0:2551808,N1:6877184 "
		"numa_active_file=N0:1024000,N1:1024000 numa_workingset_activate_anon=N0:7,N1:0 "
		"numa_workingset_activate_file=N0:0,N1:12 numa_workingset_restore_anon=N0:3,N1:0 "
		"numa_workingset_restore_file=N0:0,N1:5\n"
		/* a list that names node 1 twice: none of the lists is taken */
		HEAD " numa_inactive_anon=N0:4096,N1:4096,N1:8192 numa_active_anon=N0:0,N1:0 "
		"numa_inactive_file=N0:0,N1:0 numa_active_file=N0:0,N1:0\n"
		/* one node's file lists missing: only node 0 is in every list; no counters */
		HEAD " numa_inactive_anon=N0:4096,N1:8192 numa_active_anon=N0:0,N1:0 "
		"numa_inactive_file=N0:12288 numa_active_file=N0:0\n"
		/* the one-node marker, as before: no numa_* */
		HEAD "\n";
	struct got g;

	UT_ASSERT(load(txt, &g) == 0);
	UT_ASSERT_EQ(g.n, 4);
	for (int i = 0; i < 4; i++)
		UT_ASSERT_EQ(g.type[i], RS_EV_SNAP_MEMCG);
	UT_ASSERT_EQ(g.s[0].lru_bytes[RS_LRU_INACTIVE_ANON], 41005056);
	UT_ASSERT_EQ(g.s[0].numa_nodes, 3);
	UT_ASSERT_EQ(g.s[0].numa_bytes[0][RS_LRU_INACTIVE_ANON], 32964608);
	UT_ASSERT_EQ(g.s[0].numa_bytes[1][RS_LRU_INACTIVE_ANON], 5943296);
	UT_ASSERT_EQ(g.s[0].numa_bytes[0][RS_LRU_ACTIVE_ANON], 6852608);
	UT_ASSERT_EQ(g.s[0].numa_bytes[1][RS_LRU_INACTIVE_FILE], 6877184);
	UT_ASSERT_EQ(g.s[0].numa_bytes[1][RS_LRU_ACTIVE_FILE], 1024000);
	UT_ASSERT_EQ(g.s[0].numa_ws_nodes, 3);
	UT_ASSERT_EQ(g.s[0].numa_ws[0][0], 7);
	UT_ASSERT_EQ(g.s[0].numa_ws[1][1], 12);
	UT_ASSERT_EQ(g.s[0].numa_ws[0][2], 3);
	UT_ASSERT_EQ(g.s[0].numa_ws[1][3], 5);
	UT_ASSERT_EQ(g.s[1].numa_nodes, 0);
	UT_ASSERT_EQ(g.s[2].numa_nodes, 1);
	UT_ASSERT_EQ(g.s[2].numa_bytes[0][RS_LRU_INACTIVE_FILE], 12288);
	UT_ASSERT_EQ(g.s[2].numa_ws_nodes, 0);
	UT_ASSERT_EQ(g.s[3].numa_nodes, 0);
	UT_ASSERT_EQ(g.s[3].numa_ws_nodes, 0);
	UT_ASSERT_EQ(g.s[3].lru_bytes[RS_LRU_INACTIVE_FILE], 9428992);
	return UT_OK;
}

#define MS_HEAD(t, id) " reclaimscope-148 [000] .....  " t ": tracing_mark_write: memcg_stat " \
	"cg=/rs_high id=" id " usage=67108864 limit=9223372036854771712 high=67108864 low=0 " \
	"swappiness=60 inactive_anon=41005056 active_anon=7274496 inactive_file=9428992 " \
	"active_file=2048000 unevictable=0 workingset_refault_anon=0 workingset_refault_file=0\n"
#define NUMA(t, id, rest) " reclaimscope-148 [000] .....  " t ": tracing_mark_write: " \
	"memcg_numa id=" id rest "\n"
#define NUMA2 " inactive_anon=N0:32964608,N1:5943296 active_anon=N0:6852608,N1:421888 " \
	"inactive_file=N0:2551808,N1:6877184 active_file=N0:1024000,N1:1024000 " \
	"workingset_activate_anon=N0:7,N1:0 workingset_activate_file=N0:0,N1:12 " \
	"workingset_restore_anon=N0:3,N1:0 workingset_restore_file=N0:0,N1:5"

UT_TEST(test_numa_marker_join, "markers: memcg_numa joins the memcg_stat of its read")
{
	static const char txt[] =
		"cpus=2\n"
		/* the recorder's order: memcg_numa, then memcg_stat of the same id */
		NUMA("49.265380", "28", NUMA2)
		MS_HEAD("49.265387", "28")
		/* another memcg's memcg_stat ends it: neither that nor a later read takes it */
		NUMA("49.365380", "28", NUMA2)
		MS_HEAD("49.365387", "29")
		MS_HEAD("49.365390", "28")
		/* a print of someone else's in between does not */
		NUMA("49.465380", "28", " inactive_anon=N0:4096,N3:8192 active_anon=N0:0,N3:1 "
		     "inactive_file=N0:0,N3:2 active_file=N0:0,N3:3")
		" dd-150 [001] .....  49.465382: tracing_mark_write: hello\n"
		MS_HEAD("49.465387", "28");
	struct got g;
	int s = 0;

	UT_ASSERT(load(txt, &g) == 0);
	UT_ASSERT_EQ(g.n, 8);
	UT_ASSERT_EQ(g.type[0], RS_EV_MARKER);	/* memcg_numa stays a marker */
	UT_ASSERT_EQ(g.type[1], RS_EV_SNAP_MEMCG);
	s = 1;
	UT_ASSERT_EQ(g.s[s].id, 28);
	UT_ASSERT_EQ(g.s[s].lru_bytes[RS_LRU_INACTIVE_ANON], 41005056);
	UT_ASSERT_EQ(g.s[s].numa_nodes, 3);
	UT_ASSERT_EQ(g.s[s].numa_bytes[0][RS_LRU_INACTIVE_ANON], 32964608);
	UT_ASSERT_EQ(g.s[s].numa_bytes[1][RS_LRU_INACTIVE_ANON], 5943296);
	UT_ASSERT_EQ(g.s[s].numa_bytes[1][RS_LRU_ACTIVE_ANON], 421888);
	UT_ASSERT_EQ(g.s[s].numa_bytes[1][RS_LRU_INACTIVE_FILE], 6877184);
	UT_ASSERT_EQ(g.s[s].numa_bytes[0][RS_LRU_ACTIVE_FILE], 1024000);
	UT_ASSERT_EQ(g.s[s].numa_ws_nodes, 3);
	UT_ASSERT_EQ(g.s[s].numa_ws[0][0], 7);
	UT_ASSERT_EQ(g.s[s].numa_ws[1][1], 12);
	UT_ASSERT_EQ(g.s[s].numa_ws[0][2], 3);
	UT_ASSERT_EQ(g.s[s].numa_ws[1][3], 5);
	UT_ASSERT_EQ(g.type[3], RS_EV_SNAP_MEMCG);
	UT_ASSERT_EQ(g.s[3].id, 29);
	UT_ASSERT_EQ(g.s[3].numa_nodes, 0);
	UT_ASSERT_EQ(g.s[3].numa_ws_nodes, 0);
	UT_ASSERT_EQ(g.s[4].id, 28);
	UT_ASSERT_EQ(g.s[4].numa_nodes, 0);
	UT_ASSERT_EQ(g.type[5], RS_EV_MARKER);
	UT_ASSERT_EQ(g.type[6], RS_EV_MARKER);
	UT_ASSERT_EQ(g.type[7], RS_EV_SNAP_MEMCG);
	UT_ASSERT_EQ(g.s[7].numa_nodes, 9);	/* nodes 0 and 3 */
	UT_ASSERT_EQ(g.s[7].numa_bytes[3][RS_LRU_ACTIVE_FILE], 3);
	UT_ASSERT_EQ(g.s[7].numa_ws_nodes, 0);
	return UT_OK;
}

/* A memory.numa_stat of n nodes, every value v, as memory_numa_stat_show() prints it. */
static FILE *fake_numa_stat(int n, const char *v)
{
	static const char *const items[] = {
		"anon", "file", "kernel_stack", "shmem", "inactive_anon", "active_anon",
		"inactive_file", "active_file", "unevictable", "slab_reclaimable",
		"workingset_refault_anon", "workingset_refault_file", "workingset_activate_anon",
		"workingset_activate_file", "workingset_restore_anon", "workingset_restore_file",
		"workingset_nodereclaim",
	};
	FILE *f = tmpfile();

	if (!f)
		return NULL;
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		fputs(items[i], f);
		for (int nid = 0; nid < n; nid++)
			fprintf(f, " N%d=%s", nid, v);
		fputc('\n', f);
	}
	rewind(f);
	return f;
}

UT_TEST(test_numa_marker_write, "record: memcg_numa fits for the nodes the loader reads")
{
	char out[1000], txt[1200];	/* REC_MARKER_MAX */
	FILE *f = fake_numa_stat(2, "4096");
	struct got g;
	int n;

	UT_ASSERT(f != NULL);
	n = rec_numa_marker(f, 28, out, sizeof(out));
	fclose(f);
	UT_ASSERT_STR(out, "memcg_numa id=28 inactive_anon=N0:4096,N1:4096 "
		      "active_anon=N0:4096,N1:4096 inactive_file=N0:4096,N1:4096 "
		      "active_file=N0:4096,N1:4096 workingset_activate_anon=N0:4096,N1:4096 "
		      "workingset_activate_file=N0:4096,N1:4096 "
		      "workingset_restore_anon=N0:4096,N1:4096 "
		      "workingset_restore_file=N0:4096,N1:4096");
	UT_ASSERT_EQ(n, (int)strlen(out));

	/* RS_SNAP_NODES nodes, the longest numbers and id there are: under the limit */
	f = fake_numa_stat(RS_SNAP_NODES, "18446744073709551615");
	UT_ASSERT(f != NULL);
	n = rec_numa_marker(f, 18446744073709551615ull, out, sizeof(out));
	fclose(f);
	UT_ASSERT(n > 0 && n < (int)sizeof(out));
	/* and the loader takes every node of it */
	snprintf(txt, sizeof(txt), "cpus=2\n reclaimscope-148 [000] .....  49.265380: "
		 "tracing_mark_write: %s\n reclaimscope-148 [000] .....  49.265387: "
		 "tracing_mark_write: memcg_stat cg=/rs_high id=18446744073709551615 "
		 "inactive_anon=1\n", out);
	UT_ASSERT(load(txt, &g) == 0);
	UT_ASSERT_EQ(g.n, 2);
	UT_ASSERT_EQ(g.s[1].numa_nodes, (1u << RS_SNAP_NODES) - 1);
	UT_ASSERT_EQ(g.s[1].numa_ws_nodes, (1u << RS_SNAP_NODES) - 1);
	UT_ASSERT_EQ(g.s[1].numa_bytes[RS_SNAP_NODES - 1][RS_LRU_ACTIVE_FILE],
		     18446744073709551615ull);

	/* eight nodes of a big server: too long, nothing (the caller counts a dropped marker) */
	f = fake_numa_stat(8, "1099511627776");
	UT_ASSERT(f != NULL);
	UT_ASSERT_EQ(rec_numa_marker(f, 28, out, sizeof(out)), -1);
	fclose(f);

	/* no item of ours: no marker */
	f = tmpfile();
	UT_ASSERT(f != NULL);
	fputs("anon N0=1 N1=2\n", f);
	rewind(f);
	UT_ASSERT_EQ(rec_numa_marker(f, 28, out, sizeof(out)), 0);
	fclose(f);
	return UT_OK;
}
