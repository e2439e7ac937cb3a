// SPDX-License-Identifier: GPL-2.0
/*
 * reclaimscope record: run trace-cmd with the reclaim events, write the markers the analyzer
 * needs (docs/markers.md) into the same trace, optionally run a workload in a memory cgroup,
 * and put tracefs back as it was. Usage and behaviour: docs/record.md.
 *
 * trace-cmd is started without a command and the workload is forked by us, because the
 * workload must be moved into its cgroup before it execs and the markers must be written
 * after tracing is live and before the workload starts.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "cmd.h"
#include "record_private.h"

#define CMD			"record"
#define LIVE_TIMEOUT_MS		30000	/* trace-cmd start-up, many CPUs take a while */
#define SETTLE_MS		100	/* let trace-cmd's readers drain into their files */
#define DRAIN_MS		10000	/* at most this long for trace-cmd to empty the buffers */
#define POLL_MS			20
#define KILL_GRACE_MS		5000	/* after SIGTERM at --duration, before SIGKILL */
#define LOCK_FILE		"/run/lock/reclaimscope-record.lock"
#define LOCK_TIMEOUT_S		120

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t nr_signals;

static void on_signal(int sig)
{
	got_signal = sig;
	nr_signals++;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR && !got_signal)
		;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "64M", "1G", "4096", "512KiB": bytes, or -1 when malformed. */
static int64_t parse_bytes(const char *s)
{
	unsigned long long v;
	int shift = 0;
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift && *end == 'i')
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end || v > (unsigned long long)(INT64_MAX >> shift))
		return -1;
	return (int64_t)(v << shift);
}

/* argv[0] of a command as execv() would find it through PATH; NULL when it would not. */
static char *find_in_path(const char *name)
{
	const char *path = getenv("PATH");
	struct stat sb;
	char *dirs, *dir, *save = NULL, *out = NULL;

	if (!*name)
		return NULL;
	if (strchr(name, '/'))
		return !stat(name, &sb) && S_ISREG(sb.st_mode) && !access(name, X_OK) ?
			strdup(name) : NULL;
	dirs = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	if (!dirs)
		return NULL;
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		if (asprintf(&out, "%s/%s", *dir ? dir : ".", name) < 0) {
			out = NULL;
			break;
		}
		if (!stat(out, &sb) && S_ISREG(sb.st_mode) && !access(out, X_OK))
			break;
		free(out);
		out = NULL;
	}
	free(dirs);
	return out;
}

enum { OPT_CGROUP = 256, OPT_LIMIT, OPT_SOFT, OPT_INTERVAL, OPT_FILE_VERSION, OPT_DURATION,
       OPT_WATCH, OPT_BUFFER, OPT_FILEMAP_DEV };

/* -o and the flags go straight into struct rec (the table's fields); the rest parse below */
static const struct rs_cmd_opt record_opts[] = {
	RS_OPT_STRING_SHORT('o', "output", struct rec, output, "FILE",
			    "the trace to write (default trace.dat)"),
	RS_OPT_SHORT('e', "event", "SYSTEM[:EVENT]",
		     "record these events too (repeatable)"),
	RS_OPT_ARG("cgroup", OPT_CGROUP, "PATH",
		   "run the workload in this memory cgroup (made if missing)"),
	RS_OPT_ARG("limit", OPT_LIMIT, "BYTES",
		   "hard limit of --cgroup (v1 memory.limit_in_bytes, v2 memory.max)"),
	RS_OPT_ARG("soft-limit", OPT_SOFT, "BYTES",
		   "soft limit of --cgroup (v1 memory.soft_limit_in_bytes, v2 memory.low)"),
	RS_OPT_BOOL("own-memcgs", struct rec, own_memcgs,
		    "filter memcg events in the kernel to --cgroup and later cgroups"),
	RS_OPT_BOOL("keep-cgroup", struct rec, keep_cgroup, "do not remove the cgroups we created"),
	RS_OPT_ARG("watch", OPT_WATCH, "PATH",
		   "snapshot this cgroup too, every interval (repeatable)"),
	RS_OPT_ARG("interval", OPT_INTERVAL, "MS",
		   "snapshot period in milliseconds, 1 to 3600000 (default 100)"),
	RS_OPT_BOOL("all-memcg-items", struct rec, all_memcg_items,
		    "do not filter count_memcg_events to the reclaim items"),
	RS_OPT_ARG("buffer-kb", OPT_BUFFER, "KB",
		   "per-CPU ring buffer size (default 8192; 0 keeps the current size)"),
	RS_OPT_ARG("file-version", OPT_FILE_VERSION, "6|7",
		   "trace.dat layout trace-cmd writes (default: trace-cmd's own)"),
	RS_OPT_ARG("duration", OPT_DURATION, "S",
		   "stop after S seconds (the workload gets SIGTERM, SIGKILL 5 s later)"),
	RS_OPT_BOOL("no-filemap", struct rec, no_filemap,
		    "leave out the page cache events (filemap add/delete) refaults need"),
	RS_OPT_ARG("filemap-dev", OPT_FILEMAP_DEV, "PATH",
		   "keep only the filemap events of PATH's filesystem (repeatable)"),
	RS_OPT_BOOL("zone-flow", struct rec, zone_flow,
		    "record the kmem buddy events (kswapd's end; default without --cgroup)"),
	RS_OPT_BOOL("no-zone-flow", struct rec, no_zone_flow,
		    "leave the kmem events out of a global recording"),
	RS_CMD_OPT_END,
};

RS_CMD_DEFINE(record,
	.summary = "record a reclaim trace (trace-cmd) with the markers we read",
	/* by hand: --cgroup's options nested in it, the alternatives, not the table's order */
	.synopsis = "[-o FILE] [--cgroup PATH [--limit BYTES] [--soft-limit BYTES]] "
		    "[--own-memcgs] [--keep-cgroup] [--watch PATH]... [--interval MS] "
		    "[-e SYSTEM[:EVENT]]... [--all-memcg-items] [--buffer-kb KB] "
		    "[--no-filemap | --filemap-dev PATH...] [--zone-flow | --no-zone-flow] "
		    "[--file-version 6|7] [--duration S]",
	/* the workload's: record runs it */
	.operands = { .name = "[-- COMMAND [ARG...]]" });

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One sentence about the bad argument, then the usage text; returns RS_EXIT_USAGE. */
static int usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rs_cmd_fail(CMD, RS_EXIT_USAGE, "%s", msg);
	return rs_cmd_usage(&rs_cmd_record, stderr);
}

/* Parse options into r; the workload is what follows "--" or the first non-option. */
static int parse_opts(struct rec *r, int argc, char **argv, const char **cgroup_arg,
		      const char ***watch_args)
{
	struct rs_cmd_args args = { .opts = r };
	char *end;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = rs_cmd_getopt(&rs_cmd_record, argc, argv, "+:o:e:", &args)) != -1) {
		switch (c) {
		case 'e':
			r->events[r->nr_events++] = optarg;	/* sized argc */
			break;
		case OPT_CGROUP:
			*cgroup_arg = optarg;
			break;
		case OPT_LIMIT:
		case OPT_SOFT:
			if (parse_bytes(optarg) < 0)
				return usage_error("bad byte count '%s' (e.g. 64M, 1G, 4096)",
						   optarg);
			*(c == OPT_LIMIT ? &r->limit : &r->soft_limit) = parse_bytes(optarg);
			break;
		case OPT_INTERVAL: {
			unsigned long ms = strtoul(optarg, &end, 10);

			if (*end || end == optarg || ms < 1 || ms > 3600000)
				return usage_error("--interval takes milliseconds, 1..3600000, "
						   "not '%s'", optarg);
			r->interval_ms = (unsigned int)ms;
			break;
		}
		case OPT_FILE_VERSION:
			if (strcmp(optarg, "6") && strcmp(optarg, "7"))
				return usage_error("--file-version takes 6 or 7, not '%s'", optarg);
			r->file_version = atoi(optarg);
			break;
		case OPT_DURATION:
			r->duration = strtod(optarg, &end);
			if (*end || end == optarg || !(r->duration > 0) || r->duration > 1e7)
				return usage_error("--duration takes seconds > 0, not '%s'",
						   optarg);
			break;
		case OPT_WATCH:
			(*watch_args)[r->nr_watch++] = optarg;	/* sized argc */
			break;
		case OPT_BUFFER:
			r->buffer_kb = strtol(optarg, &end, 10);
			if (*end || end == optarg || r->buffer_kb < 0 || r->buffer_kb > (4L << 20))
				return usage_error("--buffer-kb takes kilobytes per CPU, 0..4194304, "
						   "not '%s'", optarg);
			break;
		case OPT_FILEMAP_DEV: {
			struct stat sb;

			/* the kernel's dev_t: major << 20 | minor (MINORBITS 20) */
			if (stat(optarg, &sb))
				return usage_error("--filemap-dev: cannot stat '%s': %s", optarg,
						   strerror(errno));
			/* filemap_devs is sized argc */
			r->filemap_devs[r->nr_filemap_devs++] =
				((uint64_t)major(sb.st_dev) << 20) | minor(sb.st_dev);
			break;
		}
		case ':':
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		r->argv = argv + optind;
	if ((r->limit >= 0 || r->soft_limit >= 0) && !*cgroup_arg)
		return usage_error("%s needs --cgroup", r->limit >= 0 ? "--limit" : "--soft-limit");
	if (r->own_memcgs && !*cgroup_arg)
		return usage_error("%s needs --cgroup", "--own-memcgs");
	if (r->no_filemap && r->nr_filemap_devs)
		return usage_error("--filemap-dev and --no-filemap contradict each other");
	if (r->zone_flow && r->no_zone_flow)
		return usage_error("--zone-flow and --no-zone-flow contradict each other");
	/*
	 * The kmem events by default where kswapd's end is what the replay needs them for, a
	 * global recording (no --cgroup). Their cost is two events per block taken off and put
	 * back on the buddy lists: 35k of 74k events (+9% trace size) for the 7.2 guest's global
	 * scenario, whose page cache comes in 2 MB folios, but two per page allocated for order-0
	 * heavy workloads (anon faults), as many as the memcg events a --cgroup recording takes.
	 */
	if (!r->no_zone_flow && !*cgroup_arg)
		r->zone_flow = true;
	return 0;
}

/*
 * trace-cmd's default 1.4 MB per CPU overruns when memcg stat events come at a million a
 * second (anon faults in a cgroup): take 8 MB per CPU, but no more than 256 MB in all.
 */
static long default_buffer_kb(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	long kb = 262144 / (cpus > 0 ? cpus : 1);

	return kb > 8192 ? 8192 : kb < 1024 ? 1024 : kb;
}

/* THP's PMD order (HPAGE_PMD_ORDER), the one order above 3 the per-cpu lists hold; 0: no THP */
static int pmd_order(long page_size)
{
	char buf[32];
	unsigned long long sz;
	int o = 0;

	if (rec_read_file("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", buf, sizeof(buf)))
		return 0;
	sz = strtoull(buf, NULL, 10);
	while (page_size > 0 && ((unsigned long long)page_size << o) < sz && o < 30)
		o++;
	return ((unsigned long long)page_size << o) == sz ? o : 0;
}

static int count_nodes(void)
{
	char path[64];
	int n = 0;

	/* node ids can be sparse; counting directories is what "nodes=" means */
	for (int i = 0; i < 1024; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", i);
		if (!access(path, F_OK))
			n++;
	}
	return n;
}

static void child_fail(int fd, int stage)
{
	int msg[2] = { stage, errno };
	ssize_t n = write(fd, msg, sizeof(msg));

	(void)n;
	_exit(127);
}

/* Start trace-cmd in its own process group, so that the terminal's Ctrl-C reaches only us. */
static pid_t start_trace_cmd(char **tc_argv, struct rs_error *err)
{
	pid_t pid = fork();

	if (pid < 0) {
		rs_error_set(err, "cannot fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		setpgid(0, 0);
		/* if we die, trace-cmd still finishes its file */
		prctl(PR_SET_PDEATHSIG, SIGINT);
		/* -q still prints "Hit Ctrl^C"; its errors go to stderr, which stays ours */
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
		}
		signal(SIGPIPE, SIG_DFL);
		execv(tc_argv[0], tc_argv);
		_exit(127);
	}
	return pid;
}

/*
 * Fork the workload: the child joins the cgroup, then execs. A close-on-exec pipe reports a
 * failure of either step; EOF on it means the exec happened.
 */
static pid_t start_workload(struct rec *r, struct rs_error *err)
{
	char procs[PATH_MAX];
	int p[2], msg[2];
	pid_t pid;
	ssize_t n;

	if (r->cgroup && rec_cgroup_procs_path(r, procs, sizeof(procs))) {
		rs_error_set(err, "cgroup path too long");
		return -1;
	}
	if (pipe2(p, O_CLOEXEC)) {
		rs_error_set(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		rs_error_set(err, "cannot fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		/* a child of a threaded process: only async-signal-safe calls until exec */
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		close(p[0]);
		sigaction(SIGPIPE, &dfl, NULL);
		sigaction(SIGINT, &dfl, NULL);
		sigaction(SIGTERM, &dfl, NULL);
		sigaction(SIGHUP, &dfl, NULL);
		if (r->cgroup && rec_cgroup_join_self(procs))
			child_fail(p[1], 1);
		execv(r->workload_path, r->argv);
		child_fail(p[1], 2);
	}
	close(p[1]);
	do {
		n = read(p[0], msg, sizeof(msg));
	} while (n < 0 && errno == EINTR);
	close(p[0]);
	if (n == (ssize_t)sizeof(msg)) {
		waitpid(pid, NULL, 0);
		if (msg[0] == 1)
			rs_error_set(err, "cannot move the workload into %s: %s", procs,
				     strerror(msg[1]));
		else
			rs_error_set(err, "cannot run %s: %s", r->workload_path, strerror(msg[1]));
		return -1;
	}
	return pid;
}

/*
 * trace-cmd records each CPU into OUTPUT.cpuN and joins them into OUTPUT when it stops; killed
 * or failing, it leaves them (tens of MB a second on a busy machine). Remove them once it has
 * exited: after a success they are gone already, and a file of that name that was there
 * before, trace-cmd overwrote when it started.
 */
static int remove_cpu_files(struct rec *r)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	char path[PATH_MAX];
	int n = 0;

	for (long cpu = 0; cpu < (cpus > 0 ? cpus : 1); cpu++) {
		if (snprintf(path, sizeof(path), "%s.cpu%ld", r->output, cpu) >= (int)sizeof(path))
			break;
		if (!unlink(path))
			n++;
	}
	return n;
}

/* What a failed trace-cmd left at the output: nothing, the file as it was before, or a part. */
static const char *output_outcome(struct rec *r, const struct stat *before, bool existed)
{
	struct stat now;

	if (stat(r->output, &now))
		return "no trace was written";
	if (existed && now.st_ino == before->st_ino && now.st_size == before->st_size &&
	    now.st_mtim.tv_sec == before->st_mtim.tv_sec &&
	    now.st_mtim.tv_nsec == before->st_mtim.tv_nsec)
		return "the output still holds what was there before";
	return "the output may be incomplete";
}

/* Shell convention for the end marker: exit code, or 128 + signal. */
static int wait_status_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

/*
 * Wait for the workload (or, without one, a signal) and --duration. Returns the workload's
 * status code, 0 without a workload, or -1 when trace-cmd died underneath us.
 */
static int wait_workload(struct rec *r, pid_t wl, pid_t tc, int *tc_status)
{
	double start = now_s(), term_at = 0;
	int forwarded = 0, st;

	for (;;) {
		if (wl > 0 && waitpid(wl, &st, WNOHANG) == wl)
			return wait_status_code(st);
		if (waitpid(tc, tc_status, WNOHANG) == tc) {
			if (wl > 0) {
				kill(wl, SIGKILL);
				waitpid(wl, NULL, 0);
			}
			return -1;
		}
		if (got_signal && wl <= 0)
			return 0;
		/* Forward the first signal; insist with SIGKILL after a second one. */
		if (got_signal && wl > 0 && forwarded < nr_signals) {
			kill(wl, forwarded ? SIGKILL : got_signal);
			forwarded = nr_signals;
		}
		if (r->duration > 0 && now_s() - start >= r->duration) {
			if (wl <= 0)
				return 0;
			if (!term_at) {
				kill(wl, SIGTERM);
				term_at = now_s();
			} else if (now_s() - term_at > KILL_GRACE_MS / 1000.0) {
				kill(wl, SIGKILL);
			}
		}
		sleep_ms(POLL_MS);
	}
}

/* Wait for tracing to be live; *reaped is set when trace-cmd exited (and was waited for). */
static int wait_live(struct rec *r, pid_t tc, int *tc_status, int *reaped, struct rs_error *err)
{
	for (int waited = 0; waited < LIVE_TIMEOUT_MS; waited += 10) {
		if (waitpid(tc, tc_status, WNOHANG) == tc) {
			*reaped = 1;
			return rs_error_set(err, "trace-cmd exited with status %d before tracing "
					    "started (its messages are above)",
					    wait_status_code(*tc_status));
		}
		if (got_signal)
			return rs_error_set(err, "interrupted before tracing started");
		if (rec_tracefs_live(r)) {
			sleep_ms(SETTLE_MS);
			return 0;
		}
		sleep_ms(10);
	}
	return rs_error_set(err, "trace-cmd did not start tracing within %d s",
			    LIVE_TIMEOUT_MS / 1000);
}

/*
 * The output must be a file we can create or replace: caught here, before tracing is set up,
 * not by trace-cmd after it (an empty name, an existing directory, a FIFO).
 */
static int check_output(const char *output, struct rs_error *err)
{
	struct stat st;
	char *copy;
	const char *dir;
	int ret = 0;

	if (!*output)
		return rs_error_set(err, "-o wants a file name, not an empty string");
	if (!stat(output, &st) && !S_ISREG(st.st_mode))
		return rs_error_set(err, "cannot write %s: it is %s, not a file", output,
				    S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
	copy = strdup(output);
	if (!copy)
		return rs_error_set(err, "out of memory");
	dir = dirname(copy);
	if (access(dir, W_OK))
		ret = rs_error_set(err, "cannot write %s: directory %s: %s", output, dir,
				   strerror(errno));
	free(copy);
	return ret;
}

/* Precondition checks, each its own sentence naming the problem. */
static int preconditions(struct rec *r, struct rs_error *err)
{
	if (geteuid() != 0)
		return rs_error_set(err, "must be run as root: tracing and memory cgroups "
				    "need it");
	if (check_output(r->output, err))
		return -1;
	r->trace_cmd = find_in_path("trace-cmd");
	if (!r->trace_cmd)
		return rs_error_set(err, "trace-cmd not found in PATH; install it (Debian: "
				    "apt-get install trace-cmd)");
	if (r->argv) {
		r->workload_path = find_in_path(r->argv[0]);
		if (!r->workload_path)
			return rs_error_set(err, "workload '%s' not found%s", r->argv[0],
					    strchr(r->argv[0], '/') ? " or not executable" :
					    " in PATH");
	}
	r->tracing_dir = tracefs_tracing_dir();
	if (!r->tracing_dir)
		return rs_error_set(err, "tracefs is not mounted and could not be mounted "
				    "(mount -t tracefs nodev /sys/kernel/tracing)");
	return rec_memcg_find(&r->mem, err);
}

static void print_summary(struct rec *r, int status)
{
	struct stat sb;

	if (stat(r->output, &sb))
		sb.st_size = 0;
	printf("reclaimscope: wrote %s (%.1f MB, %lu markers", r->output,
	       (double)sb.st_size / (1 << 20), atomic_load(&r->markers));
	if (r->argv)
		printf(", workload status %d", status);
	printf(")\n");
	if (atomic_load(&r->markers_dropped))
		fprintf(stderr, "reclaimscope: record: %lu markers could not be written\n",
			atomic_load(&r->markers_dropped));
}

static void free_rec(struct rec *r)
{
	free(r->cgroup);
	for (size_t i = 0; i < r->nr_watch; i++)
		free(r->watch[i]);
	free(r->watch);
	free(r->events);
	free(r->filemap_devs);
	free((char *)r->trace_cmd);
	free((char *)r->workload_path);
	free(r->created_top);
	free(r->workload_cg);
	rec_items_free(r);
}

/* The smallest id among --cgroup and the --watch cgroups that exist now. */
static uint64_t min_memcg_id(struct rec *r)
{
	uint64_t min = rec_cgroup_id(&r->mem, r->cgroup);

	for (size_t i = 0; i < r->nr_watch; i++) {
		uint64_t id = rec_cgroup_id(&r->mem, r->watch[i]);

		if (id && id < min)
			min = id;
	}
	return min;
}

/*
 * tracefs has one top-level instance: two recorders at once would disable each other's events
 * and restore each other's state. Serialize them (e.g. e2e runs of several developers). A
 * script that needs tracefs to itself around a recording (to compare its state before and
 * after) holds the lock and passes its descriptor in RECLAIMSCOPE_LOCK_FD.
 */
static int take_lock(struct rs_error *err)
{
	const char *path = access("/run/lock", W_OK) ? "/tmp/reclaimscope-record.lock" : LOCK_FILE;
	const char *env = getenv("RECLAIMSCOPE_LOCK_FD");
	struct stat a, b;
	int fd;

	if (env && *env) {
		fd = atoi(env);
		/* the same open file description as the holder's, so flock() succeeds at once */
		if (fd < 0 || fstat(fd, &a) || stat(path, &b) || a.st_dev != b.st_dev ||
		    a.st_ino != b.st_ino || flock(fd, LOCK_EX | LOCK_NB))
			return rs_error_set(err, "RECLAIMSCOPE_LOCK_FD=%s is not a locked "
					    "descriptor of %s", env, path);
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (fd < 0)
			return rs_error_set(err, "cannot duplicate the lock descriptor: %s",
					    strerror(errno));
		return fd;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return rs_error_set(err, "cannot open the lock file %s: %s", path, strerror(errno));
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	fprintf(stderr, "reclaimscope: record: waiting for another reclaimscope record to "
		"finish (%s)\n", path);
	for (int i = 0; i < LOCK_TIMEOUT_S * 10 && !got_signal; i++) {
		sleep_ms(100);
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return fd;
	}
	close(fd);
	if (got_signal)
		return rs_error_set(err, "interrupted while waiting for another reclaimscope "
				    "record (lock %s)", path);
	return rs_error_set(err, "another reclaimscope record is still running after %d s "
			    "(lock %s)", LOCK_TIMEOUT_S, path);
}

/* Everything after the checks: cgroup, trace-cmd, markers, workload, teardown. */
static int run(struct rec *r, struct rs_error *err)
{
	struct rec_tracefs_state st = { 0 };
	struct rec_snapshot *snap = NULL;
	struct sigaction sa = { 0 };
	struct rs_error err2;
	char **tc_argv = NULL;
	pid_t tc = -1, wl = -1;
	int tc_status = 0, status = 0, ret = -1, saved = 0, tc_done = 0, lock_fd;
	unsigned long long lost = 0, unread = 0;
	struct stat out_before;
	bool existed = false;

	/* No SA_RESTART: a signal must end the waits below, the wait for the lock first. */
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	lock_fd = take_lock(err);
	if (lock_fd < 0)
		return -1;
	if (rec_items_load(r, err) || rec_marker_open(r, err) || rec_tracefs_save(r, &st, err))
		goto out;
	saved = 1;
	if (r->cgroup && rec_cgroup_setup(r, err))
		goto out;
	if (r->own_memcgs)
		r->memcg_min_id = min_memcg_id(r);
	tc_argv = rec_trace_cmd_argv(r, err);
	if (!tc_argv)
		goto out;
	if (rec_tracefs_arm(r, err))
		goto out;
	existed = !stat(r->output, &out_before);
	tc = start_trace_cmd(tc_argv, err);
	if (tc < 0)
		goto out;
	if (wait_live(r, tc, &tc_status, &tc_done, err))
		goto out;
	rec_write_begin(r);
	rec_items_write_markers(r);
	rec_cgroup_write_map(r, err);
	rec_task_write_map(r, err);
	snap = rec_snapshot_start(r, err);
	if (!snap)
		goto out;
	if (r->argv) {
		wl = start_workload(r, err);
		if (wl < 0)
			goto out;
	} else if (r->duration <= 0) {
		fprintf(stderr, "reclaimscope: recording to %s; Ctrl-C to stop\n", r->output);
	}
	status = wait_workload(r, wl, tc, &tc_status);
	wl = -1;
	if (status < 0) {
		tc_done = 1;
		rs_error_set(err, "trace-cmd exited with status %d while recording; %s",
			     wait_status_code(tc_status), output_outcome(r, &out_before, existed));
		goto out;
	}
	ret = 0;
out:
	if (wl > 0) {
		kill(wl, SIGKILL);
		waitpid(wl, NULL, 0);
	}
	rec_snapshot_stop(snap);
	if (rec_cgroup_remove(r, &err2))
		fprintf(stderr, "reclaimscope: record: warning: %s\n", err2.msg);
	if (tc > 0 && !tc_done) {
		if (!ret)
			rec_mark(r, "reclaimscope_end status=%d", status);
		unread = rec_tracefs_drain(r, DRAIN_MS);
		sleep_ms(SETTLE_MS);
		kill(tc, SIGINT);
		while (waitpid(tc, &tc_status, 0) < 0 && errno == EINTR)
			;
		if (!ret && wait_status_code(tc_status) != 0) {
			rs_error_set(err, "trace-cmd failed with status %d (its messages are "
				     "above); %s", wait_status_code(tc_status),
				     output_outcome(r, &out_before, existed));
			ret = -1;
		}
		lost = rec_tracefs_lost(r) + unread;	/* unread: real events left behind */
	}
	if (tc > 0 && remove_cpu_files(r) && !ret)
		fprintf(stderr, "reclaimscope: record: warning: trace-cmd left per-CPU files "
			"%s.cpuN behind; removed\n", r->output);
	rec_marker_close(r);
	if (saved && rec_tracefs_restore(r, &st, &err2))
		fprintf(stderr, "reclaimscope: record: warning: %s\n", err2.msg);
	rec_tracefs_state_free(&st);
	rec_argv_free(tc_argv);
	close(lock_fd);
	if (!ret) {
		print_summary(r, status);
		if (lost)
			fprintf(stderr, "reclaimscope: record: warning: the ring buffers lost %llu "
				"events (trace-cmd could not keep up); try a larger --buffer-kb or "
				"--own-memcgs\n", lost);
		if (r->argv && status)
			fprintf(stderr, "reclaimscope: record: the workload exited with "
				"status %d\n", status);
	}
	return ret;
}

static int cmd_record(int argc, char **argv)
{
	struct rec r = { .output = "trace.dat", .limit = -1, .soft_limit = -1,
			 .interval_ms = 100, .marker_fd = -1, .buffer_kb = -1 };
	const char *cgroup_arg = NULL;
	const char **watch_args;
	struct rs_error err;
	int ret;

	r.events = calloc((size_t)argc + 1, sizeof(*r.events));
	watch_args = calloc((size_t)argc + 1, sizeof(*watch_args));
	r.watch = calloc((size_t)argc + 1, sizeof(*r.watch));
	r.filemap_devs = calloc((size_t)argc + 1, sizeof(*r.filemap_devs));
	if (!r.events || !watch_args || !r.watch || !r.filemap_devs) {
		ret = rs_cmd_fail(CMD, RS_EXIT_INPUT, "out of memory");
		goto out;
	}
	ret = parse_opts(&r, argc, argv, &cgroup_arg, &watch_args);
	if (ret)
		goto out;
	if (preconditions(&r, &err)) {
		ret = rs_cmd_fail(CMD, RS_EXIT_INPUT, "%s", err.msg);
		goto out;
	}
	for (size_t i = 0; i < r.nr_events; i++) {
		if (!rec_event_exists(&r, r.events[i])) {
			ret = rs_cmd_fail(CMD, RS_EXIT_INPUT, "event '%s' not found in %s/events",
					  r.events[i], r.tracing_dir);
			goto out;
		}
	}
	if (cgroup_arg && !(r.cgroup = rec_cgroup_normalize(&r.mem, cgroup_arg))) {
		ret = usage_error("--cgroup '%s' must name a cgroup below the root of the "
				  "memory hierarchy, without '.' or '..'", cgroup_arg);
		goto out;
	}
	/* A watched cgroup need not exist yet: the workload may create it. */
	for (size_t i = 0; i < r.nr_watch; i++) {
		r.watch[i] = rec_cgroup_normalize(&r.mem, watch_args[i]);
		if (!r.watch[i]) {
			ret = usage_error("--watch '%s' must name a cgroup below the root of the "
					  "memory hierarchy, without '.' or '..'", watch_args[i]);
			goto out;
		}
	}
	if (r.buffer_kb < 0)
		r.buffer_kb = default_buffer_kb();
	r.page_size = sysconf(_SC_PAGESIZE);
	r.pmd_order = pmd_order(r.page_size);
	r.nr_nodes = count_nodes();
	if (run(&r, &err)) {
		ret = rs_cmd_fail(CMD, RS_EXIT_INPUT, "%s", err.msg);
		goto out;
	}
	ret = rs_cmd_finish_stdout(CMD, RS_EXIT_OK);
out:
	free(watch_args);
	free_rec(&r);
	return ret;
}
