// SPDX-License-Identifier: GPL-2.0
/*
 * workload: small memory workloads to run under `reclaimscope record` in a limited cgroup, for
 * the fixtures and the e2e tests. Depends on libc only, so it can be linked statically into a
 * guest's initramfs.
 *
 *   workload stream FILE [PASSES]         read FILE sequentially, PASSES times (1)
 *   workload reread FILE [SECONDS [EVERY]] re-read FILE (a working set) for SECONDS (2), a
 *                                         pass every EVERY seconds (0: back to back)
 *   workload anon MB [SECONDS [EVERY]]    touch MB of anon memory, keep touching it (1 s), a
 *                                         sweep every EVERY seconds (0: back to back)
 *   workload churn MB [SECONDS]           map, touch and unmap MB of anon memory in a loop (2 s)
 *   workload huge MB [SECONDS [EVERY]]    as anon, but 2 MB aligned and madvise(MADV_HUGEPAGE):
 *                                         order-9 faults (compaction, high-order kswapd
 *                                         wakes), THP folios on the LRU
 *   workload hugechurn MB [SECONDS]       as churn, with MADV_HUGEPAGE: order-9 allocations
 *                                         again and again while memory fragments
 *   workload shared MB [SECONDS [EVERY]]  as anon, but MAP_SHARED: shmem pages, swap-backed
 *                                         pages the kernel keeps on the file lists' side
 *   workload mlock MB [SECONDS]           touch and mlock MB of anon memory, hold it (1 s):
 *                                         unevictable pages still charged to the cgroup
 *   workload pageout FILE MB [SECONDS]    map MB of FILE and MB of anon, touch both; every
 *                                         second madvise(MADV_COLD) one half, MADV_PAGEOUT the
 *                                         other, touch both again (refaults) (5 s)
 *   workload forks N MB [SECONDS]         keep N forked children alive, each touching MB of
 *                                         anon for 0.1-0.5 s and exiting (5 s): many short
 *                                         tasks charging and reclaiming in one cgroup
 *   workload mix MB FILE [PASSES]         keep MB of anon memory in use while streaming FILE
 *   workload slice FILE OFF MB ANON [SECONDS]
 *                                         keep ANON MB of anon in use while re-reading MB of
 *                                         FILE from OFF MB on (no readahead), for SECONDS
 *                                         (10): a small workload with page cache of its own,
 *                                         one per cgroup
 *   workload oom [MAX_MB]                 allocate and touch 4 MB at a time until killed; give
 *                                         up after MAX_MB (1024) so a missing limit is harmless
 *   workload mkfile FILE MB               write MB of incompressible data to FILE
 *   workload scatter FILE MB              write MB to FILE a page at a time in a scattered
 *                                         order: the LRU gets the pages in that order, the
 *                                         flushers write them back in file order, so reclaim
 *                                         meets dirty and writeback pages at the LRU's tail
 *   workload evict FILE...                drop FILEs' clean pages from the page cache, so the
 *                                         next reader charges them to its own cgroup
 *
 * WORKLOAD_NODE=N in the environment binds every mode's memory, anon and page cache, to NUMA
 * node N (set_mempolicy(MPOL_BIND)) before it starts: a guest with two nodes (vm.sh -n 2) then
 * has reclaim on the node chosen, kswapd's and direct, where allocations would otherwise fall
 * back to the other node. A guest has no numactl.
 *
 * Exit status: 0 done, 1 error, 2 usage, 3 "oom" was not killed.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUF_SIZE	(256u << 10)
#define MB		(1ul << 20)

static long page_size;
static volatile unsigned sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int num(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return errno || end == s || *end || *out < 0 ? -1 : 0;
}

static void touch(volatile char *mem, size_t len, unsigned char v)
{
	for (size_t off = 0; off < len; off += (size_t)page_size)
		mem[off] = (char)v;
}

static char *map_anon(size_t len, int share)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, share | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "workload: mmap %zu MB: %s\n", len / MB, strerror(errno));
		return NULL;
	}
	return p;
}

static char *anon_alloc(size_t len)
{
	return map_anon(len, MAP_PRIVATE);
}

#define HUGE_SIZE	(2ul << 20)

/*
 * len bytes of private anon at a 2 MB boundary, MADV_HUGEPAGE: each aligned 2 MB is one order-9
 * fault when THP is enabled. Freed with huge_free (the mapping is larger than len).
 */
static char *huge_alloc(size_t len)
{
	char *p = map_anon(len + HUGE_SIZE, MAP_PRIVATE), *a;
	size_t head;

	if (!p)
		return NULL;
	a = (char *)(((uintptr_t)p + HUGE_SIZE - 1) & ~(uintptr_t)(HUGE_SIZE - 1));
	head = (size_t)(a - p);
	if (head)
		munmap(p, head);
	munmap(a + len, HUGE_SIZE - head);
	if (madvise(a, len, MADV_HUGEPAGE))
		fprintf(stderr, "workload: madvise(MADV_HUGEPAGE): %s\n", strerror(errno));
	return a;
}

/* share: MAP_PRIVATE, MAP_SHARED, or 0 for huge_alloc's THP-advised private anon */
static char *set_alloc(size_t len, int share)
{
	return share ? map_anon(len, share) : huge_alloc(len);
}

/* Read FILE once from the start; between buffers call `between` (may be NULL). */
static int read_once(const char *file, void (*between)(void *), void *arg)
{
	static char buf[BUF_SIZE];
	int fd = open(file, O_RDONLY);
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (between)
			between(arg);
	if (n < 0)
		fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
	close(fd);
	return n < 0 ? -1 : 0;
}

static int do_stream(const char *file, double passes)
{
	for (long i = 0; i < (long)passes; i++)
		if (read_once(file, NULL, NULL))
			return 1;
	return 0;
}

/* Sleep until `t` (CLOCK_MONOTONIC seconds); nothing when it has passed. */
static void sleep_until(double t)
{
	double left = t - now();
	struct timespec ts;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

static int do_reread(const char *file, double seconds, double every)
{
	double start = now(), end = start + seconds;

	for (long i = 1;; i++) {
		if (read_once(file, NULL, NULL))
			return 1;
		if (now() >= end)
			break;
		sleep_until(start + (double)i * every);
	}
	return 0;
}

static int do_anon(double mb, double seconds, double every, int share)
{
	size_t len = (size_t)(mb * MB);
	double start = now(), end = start + seconds;
	unsigned char v = 1;
	char *mem = set_alloc(len, share);

	if (!mem)
		return 1;
	for (long i = 1;; i++) {
		touch(mem, len, v++);
		if (now() >= end)
			break;
		sleep_until(start + (double)i * every);
	}
	munmap(mem, len);
	return 0;
}

static int do_churn(double mb, double seconds, int share)
{
	size_t len = (size_t)(mb * MB);
	double end = now() + seconds;

	do {
		char *mem = set_alloc(len, share);

		if (!mem)
			return 1;
		touch(mem, len, 1);
		munmap(mem, len);
	} while (now() < end);
	return 0;
}

static void sleep_for(double seconds)
{
	sleep_until(now() + seconds);
}

static int do_mlock(double mb, double seconds)
{
	size_t len = (size_t)(mb * MB);
	char *mem = anon_alloc(len);

	if (!mem)
		return 1;
	touch(mem, len, 1);
	if (mlock(mem, len)) {
		fprintf(stderr, "workload: mlock %zu MB: %s\n", len / MB, strerror(errno));
		return 1;
	}
	sleep_for(seconds);
	munmap(mem, len);
	return 0;
}

/* Read every page of a mapping, so file pages come back (refault) after a pageout. */
static unsigned read_pages(const volatile char *mem, size_t len)
{
	unsigned sum = 0;

	for (size_t off = 0; off < len; off += (size_t)page_size)
		sum += (unsigned char)mem[off];
	return sum;
}

/* Both halves of both mappings, per round: COLD moves pages to the inactive list (no reclaim
 * event of its own), PAGEOUT reclaims them through reclaim_pages(), outside any limit or
 * watermark: the trace's reclaim that no reclaim_begin opens. */
static int do_pageout(const char *file, double mb, double seconds)
{
	size_t alen = (size_t)(mb * MB), flen, half;
	double end = now() + seconds;
	unsigned sum = 0;
	struct stat st;
	char *anon, *fmem;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
		return 1;
	}
	flen = (size_t)st.st_size < alen ? (size_t)st.st_size : alen;
	flen &= ~((size_t)page_size - 1);
	fmem = mmap(NULL, flen, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	anon = anon_alloc(alen);
	if (fmem == MAP_FAILED || !anon) {
		fprintf(stderr, "workload: pageout: mmap: %s\n", strerror(errno));
		return 1;
	}
	do {
		sum += read_pages(fmem, flen);
		touch(anon, alen, 3);
		half = (flen / 2) & ~((size_t)page_size - 1);
		madvise(fmem, half, MADV_COLD);
		madvise(fmem + half, flen - half, MADV_PAGEOUT);
		half = (alen / 2) & ~((size_t)page_size - 1);
		madvise(anon, half, MADV_COLD);
		madvise(anon + half, alen - half, MADV_PAGEOUT);
		sleep_for(1);
	} while (now() < end);
	munmap(fmem, flen);
	munmap(anon, alen);
	sink = sum;	/* keeps the reads from being optimised away */
	return 0;
}

/* A child: MB of anon touched for 0.1-0.5 s (by its pid, so children differ), then exit. */
static void fork_child(double mb)
{
	size_t len = (size_t)(mb * MB);
	double end = now() + 0.1 + (double)(getpid() % 5) / 10;
	char *mem = anon_alloc(len);

	if (!mem)
		_exit(1);
	do
		touch(mem, len, 1);
	while (now() < end);
	_exit(0);
}

static int do_forks(double n, double mb, double seconds)
{
	double end = now() + seconds;
	long alive = 0, forked = 0;

	while (now() < end || alive) {
		while (alive < (long)n && now() < end) {
			pid_t pid = fork();

			if (pid < 0) {
				fprintf(stderr, "workload: fork: %s\n", strerror(errno));
				break;
			}
			if (!pid)
				fork_child(mb);
			alive++;
			forked++;
		}
		if (wait(NULL) > 0)
			alive--;
		else
			break;
	}
	fprintf(stderr, "workload: forks: %ld children\n", forked);
	return 0;
}

struct mix {
	char *mem;
	size_t len, off;
};

/* One step of the anon sweep per buffer read: the set stays in use while the file streams. */
static void mix_step(void *arg)
{
	struct mix *m = arg;
	size_t step = 64 * (size_t)page_size;

	touch(m->mem + m->off, step < m->len - m->off ? step : m->len - m->off, 2);
	m->off += step;
	if (m->off >= m->len)
		m->off = 0;
}

static int do_mix(double mb, const char *file, double passes)
{
	struct mix m = { .len = (size_t)(mb * MB) };

	m.mem = anon_alloc(m.len);
	if (!m.mem)
		return 1;
	touch(m.mem, m.len, 1);
	for (long i = 0; i < (long)passes; i++)
		if (read_once(file, mix_step, &m))
			return 1;
	munmap(m.mem, m.len);
	return 0;
}

/* The anon set is touched a page per 256 KB read, as mix; the file slice is read back to back. */
static int do_slice(const char *file, double off_mb, double mb, double anon_mb, double seconds)
{
	static char buf[BUF_SIZE];
	struct mix m = { .len = (size_t)(anon_mb * MB) };
	off_t start = (off_t)(off_mb * MB), end_off = start + (off_t)(mb * MB);
	double end = now() + seconds;
	int fd = open(file, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
		return 1;
	}
	/*
	 * No readahead: under a limit of a few MB, 150 readers' readahead windows were reclaimed
	 * before they were read and read again, and the guest made no progress in minutes
	 */
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	m.mem = m.len ? anon_alloc(m.len) : NULL;
	if (m.len && !m.mem) {
		close(fd);
		return 1;
	}
	if (m.mem)
		touch(m.mem, m.len, 1);
	do {
		for (off_t o = start; o < end_off; o += (off_t)sizeof(buf)) {
			size_t n = (size_t)(end_off - o) < sizeof(buf) ? (size_t)(end_off - o) :
				   sizeof(buf);

			if (pread(fd, buf, n, o) < 0) {
				fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
				close(fd);
				return 1;
			}
			if (m.mem)
				mix_step(&m);
		}
	} while (now() < end);
	close(fd);
	if (m.mem)
		munmap(m.mem, m.len);
	return 0;
}

static int do_oom(double max_mb)
{
	size_t step = 4 * MB, total = 0;

	while (total < (size_t)(max_mb * MB)) {
		char *mem = anon_alloc(step);

		if (!mem)
			return 1;
		touch(mem, step, 1);	/* never freed: the cgroup runs out */
		total += step;
	}
	fprintf(stderr, "workload: oom: allocated %zu MB and was not killed\n", total / MB);
	return 3;
}

/* xorshift64: incompressible enough that trace or page cache tricks cannot shortcut it */
static int do_mkfile(const char *file, double mb)
{
	static uint64_t buf[BUF_SIZE / sizeof(uint64_t)];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t left = (size_t)(mb * MB);
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0) {
		fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
		return 1;
	}
	while (left) {
		size_t n = left < sizeof(buf) ? left : sizeof(buf);

		for (size_t i = 0; i < sizeof(buf) / sizeof(buf[0]); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		if (write(fd, buf, n) != (ssize_t)n) {
			fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
			close(fd);
			return 1;
		}
		left -= n;
	}
	if (fsync(fd) || close(fd)) {
		fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
		return 1;
	}
	return 0;
}

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Page i goes to page (i * stride) mod n, stride coprime to n: every page once, far apart. */
static int do_scatter(const char *file, double mb)
{
	static uint64_t buf[1024];
	size_t ps = (size_t)page_size, n = (size_t)(mb * MB) / ps, stride = n / 3 + 1;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || ftruncate(fd, (off_t)(n * ps))) {
		fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
		return 1;
	}
	while (n && gcd(stride, n) != 1)
		stride++;
	for (size_t i = 0; i < n; i++) {
		size_t pg = i * stride % n;

		buf[0] = pg;
		if (pwrite(fd, buf, ps < sizeof(buf) ? ps : sizeof(buf), (off_t)(pg * ps)) < 0) {
			fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
			close(fd);
			return 1;
		}
	}
	if (close(fd)) {
		fprintf(stderr, "workload: %s: %s\n", file, strerror(errno));
		return 1;
	}
	return 0;
}

/* Unlike drop_caches this touches only our files, not the rest of the machine's cache. */
static int do_evict(char **files, int n)
{
	int ret = 0;

	for (int i = 0; i < n; i++) {
		int fd = open(files[i], O_RDONLY);
		int e;

		if (fd < 0) {
			fprintf(stderr, "workload: %s: %s\n", files[i], strerror(errno));
			ret = 1;
			continue;
		}
		e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (e) {
			fprintf(stderr, "workload: %s: fadvise: %s\n", files[i], strerror(e));
			ret = 1;
		}
		close(fd);
	}
	return ret;
}

/*
 * A mode's arguments as its usage line spells them: FILE is a path, any other word a number,
 * the numbers in order into n[] (their defaults where not given); a word in [] may be left out.
 */
enum mode_id { STREAM, REREAD, ANON, SHARED, HUGE, CHURN, HUGECHURN, MLOCK, PAGEOUT, FORKS, MIX,
	       SLICE, OOM, MKFILE, SCATTER, NR_MODES };

#define MAX_NUMS	4

static const struct mode {
	const char *name, *args;
	double def[MAX_NUMS];
} modes[NR_MODES] = {
	[STREAM] = { "stream", "FILE [PASSES]", { 1 } },
	[REREAD] = { "reread", "FILE [SECONDS [EVERY]]", { 2, 0 } },
	[ANON] = { "anon", "MB [SECONDS [EVERY]]", { 0, 1, 0 } },
	[SHARED] = { "shared", "MB [SECONDS [EVERY]]", { 0, 1, 0 } },
	[HUGE] = { "huge", "MB [SECONDS [EVERY]]", { 0, 1, 0 } },
	[CHURN] = { "churn", "MB [SECONDS]", { 0, 2 } },
	[HUGECHURN] = { "hugechurn", "MB [SECONDS]", { 0, 2 } },
	[MLOCK] = { "mlock", "MB [SECONDS]", { 0, 1 } },
	[PAGEOUT] = { "pageout", "FILE MB [SECONDS]", { 0, 5 } },
	[FORKS] = { "forks", "N MB [SECONDS]", { 0, 0, 5 } },
	[MIX] = { "mix", "MB FILE [PASSES]", { 0, 1 } },
	[SLICE] = { "slice", "FILE OFF MB ANON [SECONDS]", { 0, 0, 0, 10 } },
	[OOM] = { "oom", "[MAX_MB]", { 1024 } },
	[MKFILE] = { "mkfile", "FILE MB", { 0 } },
	[SCATTER] = { "scatter", "FILE MB", { 0 } },
};

static int usage(void)
{
	fprintf(stderr, "usage:");
	for (int m = 0; m < NR_MODES; m++)
		fprintf(stderr, "%s workload %s %s\n", m ? "      " : "", modes[m].name,
			modes[m].args);
	fprintf(stderr, "       workload evict FILE...\n");
	return 2;
}

/* Parse argv as m's usage line says; -1 where it does not fit. */
static int mode_args(const struct mode *m, int argc, char **argv, const char **file, double *n)
{
	const char *w = m->args;
	int i = 0, k = 0, depth = 0;

	memcpy(n, m->def, sizeof(m->def));
	while (*w) {
		size_t len;
		bool is_file;

		while (*w == ' ' || *w == '[')
			depth += *w++ == '[';
		len = strcspn(w, " []");
		is_file = len == 4 && !strncmp(w, "FILE", 4);
		w += len;
		if (i == argc) {
			if (!depth)
				return -1;	/* a word that must be there */
			break;
		}
		if (is_file)
			*file = argv[i++];
		else if (k >= MAX_NUMS || num(argv[i++], &n[k++]))
			return -1;
		while (*w == ']')
			depth -= *w++ == ']';
	}
	return i == argc ? 0 : -1;
}

/* WORKLOAD_NODE: bind to that node (MPOL_BIND, 2 in linux/mempolicy.h); libc has no wrapper. */
static int bind_node(void)
{
	const char *v = getenv("WORKLOAD_NODE");
	unsigned long mask;
	char *end;
	long nid;

	if (!v || !*v)
		return 0;
	nid = strtol(v, &end, 10);
	if (*end || nid < 0 || nid >= (long)(8 * sizeof(mask))) {
		fprintf(stderr, "workload: WORKLOAD_NODE=%s: not a node number\n", v);
		return -1;
	}
	mask = 1ul << nid;
	if (syscall(SYS_set_mempolicy, 2, &mask, 8 * sizeof(mask))) {
		fprintf(stderr, "workload: set_mempolicy(MPOL_BIND, node %ld): %s\n", nid,
			strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *file = NULL;
	double n[MAX_NUMS];
	int m;

	page_size = sysconf(_SC_PAGESIZE);
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "evict") && argc >= 3)
		return do_evict(argv + 2, argc - 2);
	for (m = 0; m < NR_MODES && strcmp(argv[1], modes[m].name); m++)
		;
	if (m == NR_MODES || mode_args(&modes[m], argc - 2, argv + 2, &file, n))
		return usage();
	if (bind_node())
		return 1;
	switch (m) {
	case STREAM: return do_stream(file, n[0]);
	case REREAD: return do_reread(file, n[0], n[1]);
	case ANON: return do_anon(n[0], n[1], n[2], MAP_PRIVATE);
	case SHARED: return do_anon(n[0], n[1], n[2], MAP_SHARED);
	case HUGE: return do_anon(n[0], n[1], n[2], 0);
	case CHURN: return do_churn(n[0], n[1], MAP_PRIVATE);
	case HUGECHURN: return do_churn(n[0], n[1], 0);
	case MLOCK: return do_mlock(n[0], n[1]);
	case PAGEOUT: return do_pageout(file, n[0], n[1]);
	case FORKS: return do_forks(n[0], n[1], n[2]);
	case MIX: return do_mix(n[0], file, n[1]);
	case SLICE: return do_slice(file, n[0], n[1], n[2], n[3]);
	case OOM: return do_oom(n[0]);
	case MKFILE: return do_mkfile(file, n[0]);
	default: return do_scatter(file, n[0]);
	}
}
