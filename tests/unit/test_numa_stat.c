// SPDX-License-Identifier: GPL-2.0
/*
 * memcg_stat's numa_* keys (docs/markers.md): memory.numa_stat as `record` writes it on cgroup v2
 * with two or more nodes, read back through the text loader. The lines are the recorder's own
 * (7.2 guest, two nodes: /rs_high at 49.265 s of a memcg-high recording), the second and third
 * cut by hand.
 */
#include <stdlib.h>
#include <unistd.h>

#include "trace_source.h"
#include "unit.h"

#define MAX_EV 8

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
