// SPDX-License-Identifier: GPL-2.0
/* Option values shared by the commands that read a trace (include/cmd_args.h). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "report.h"
#include "trace_source.h"
#include "cmd.h"
#include "cmd_args.h"
#include "rs_error.h"
#include "text_escape.h"

/* Progress is worth showing from this size on (a few seconds of reading). */
#define PROGRESS_MIN_BYTES (64ll << 20)

int rs_arg_decimal(const char *s, uint64_t scale, int scale_digits, uint64_t *out)
{
	uint64_t ip = 0, fp = 0;
	int digits = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -1;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (digits < scale_digits) {
				fp = fp * 10 + (uint64_t)(*p - '0');
				digits++;
			}
		}
	}
	if (*p || p == s)
		return -1;
	for (; digits < scale_digits; digits++)
		fp *= 10;
	if (ip > (UINT64_MAX - fp) / scale)
		return -1;
	*out = ip * scale + fp;
	return 0;
}

int rs_arg_count(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int rs_threads_auto(void)
{
	cpu_set_t set;
	long n = 0;

	if (!sched_getaffinity(0, sizeof(set), &set))
		n = CPU_COUNT(&set);
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return -1;
	return n > RS_MAX_THREADS ? -RS_MAX_THREADS : -(int)n;
}

int rs_threads_opt(const struct rs_cmd *command, const char *arg, int *threads)
{
	const char *cmd = command->name;
	long long v;

	if (!strcmp(arg, "auto")) {
		*threads = rs_threads_auto();
		return RS_EXIT_OK;
	}
	if (rs_arg_count(arg, 1, RS_MAX_THREADS, &v))
		return rs_cmd_fail(cmd, RS_EXIT_USAGE, "--threads wants a count from 1 to %d or "
				   "'auto', not '%s'", RS_MAX_THREADS, arg);
	*threads = (int)v;
	return RS_EXIT_OK;
}

int rs_analysis_opt(const struct rs_cmd *command, int c, const char *arg, long long count,
		    struct rs_analysis_opts *ao)
{
	const char *cmd = command->name;

	switch (c) {
	case RS_OPT_BUCKET:
		if (rs_arg_decimal(arg, 1000000ull, 6, &ao->bucket_ns) || !ao->bucket_ns)
			return rs_cmd_fail(cmd, RS_EXIT_USAGE, "--bucket wants a positive number "
					   "of milliseconds, not '%s'", arg);
		return RS_EXIT_OK;
	case RS_OPT_FROM:
	case RS_OPT_TO:
		if (rs_arg_decimal(arg, 1000000000ull, 9, c == RS_OPT_FROM ? &ao->from_ns :
				   &ao->to_ns))
			return rs_cmd_fail(cmd, RS_EXIT_USAGE, "--%s wants seconds on the trace "
					   "clock (as trace-cmd report prints them), not '%s'",
					   c == RS_OPT_FROM ? "from" : "to", arg);
		return RS_EXIT_OK;
	case RS_OPT_MAX_TASKS:
		ao->max_tasks = (size_t)count;
		return RS_EXIT_OK;
	case RS_OPT_MAX_BUCKETS:
		ao->max_buckets = (size_t)count;
		return RS_EXIT_OK;
	default:
		return rs_threads_opt(command, arg, &ao->threads);
	}
}

/* Half of what this process may use: physical memory, or a lower address-space limit. */
static uint64_t memory_budget(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
	uint64_t m = pages > 0 && ps > 0 ? (uint64_t)pages * (uint64_t)ps : UINT64_MAX;
	struct rlimit rl;

	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < m)
		m = rl.rlim_cur;
	return m / 2;
}

/*
 * Worst-case bytes of one time bucket and of one task, with their JSON (every metric of a
 * bucket becomes a JSON number, ~40 bytes in jansson): a cap is refused when what it allows
 * cannot fit, instead of failing gigabytes into the run.
 */
#define BUCKET_BYTES	((uint64_t)RS_TS_NR * 48)
#define TASK_BYTES	4096ull

/* A --max-* cap of n things of `bytes` each that could need more than the budget: refused. */
static int cap_check(const char *cmd, const char *opt, size_t n, uint64_t bytes, uint64_t budget)
{
	if (!n || n <= budget / bytes)
		return 0;
	return rs_cmd_fail(cmd, RS_EXIT_USAGE, "--%s %zu could need %llu MB, more than half the "
			   "memory this process may use (%llu MB): at most %llu", opt, n,
			   (unsigned long long)(n * bytes >> 20), (unsigned long long)(budget >> 20),
			   (unsigned long long)(budget / bytes));
}

int rs_analysis_opts_finish(const char *cmd, struct rs_analysis_opts *ao, const char *path)
{
	uint64_t budget = memory_budget();
	int ret;

	if (ao->to_ns && ao->to_ns <= ao->from_ns)
		return rs_cmd_fail(cmd, RS_EXIT_USAGE, "--to must be after --from");
	ret = cap_check(cmd, "max-buckets", ao->max_buckets, BUCKET_BYTES, budget);
	if (!ret)
		ret = cap_check(cmd, "max-tasks", ao->max_tasks, TASK_BYTES, budget);
	if (!ret && path)
		ao->progress = rs_cmd_show_progress(path);
	return ret;
}

/* " (tasks with reclaim events: kswapd0 35, dd 6100, ...)" into buf; "" when there are none. */
static void some_tasks(const struct rs_episodes *e, char *buf, size_t n)
{
	int nr = rs_episodes_nr_tasks(e), shown = 0;
	size_t len;

	snprintf(buf, n, " (tasks with reclaim events:");
	for (int i = 0; i < nr && shown < 5; i++) {
		const struct rs_task_info *t = rs_episodes_task(e, i);

		len = strlen(buf);
		if (t && t->pid >= 0) {
			snprintf(buf + len, n - len, "%s %s %d", shown ? "," : "", rs_esc(t->comm),
				 t->pid);
			shown++;
		}
	}
	len = strlen(buf);
	if (!shown)
		buf[0] = '\0';
	else
		snprintf(buf + len, n - len, "%s)", nr > shown ? ", ..." : "");
}

int rs_analysis_selection_check(const char *cmd, const struct rs_analysis *a,
				const struct rs_source *src)
{
	const struct rs_analysis_opts *o = rs_analysis_opts(a);
	const struct rs_trace_info *ti = src ? rs_source_info(src) : NULL;
	const struct rs_episodes *e = rs_analysis_episodes_ctx(a);
	bool range = o->from_ns || (o->to_ns && o->to_ns != UINT64_MAX);
	char what[96] = "", tasks[160];
	int nr = rs_episodes_nr_tasks(e);

	if (range && !rs_analysis_events(a)) {
		if (o->from_ns)
			snprintf(what, sizeof(what), "--from %.6f", rs_ns_to_s(o->from_ns));
		if (o->to_ns && o->to_ns != UINT64_MAX)
			snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s--to %.6f",
				 *what ? " " : "", rs_ns_to_s(o->to_ns));
		if (ti && ti->last_ts > ti->first_ts)
			return rs_cmd_fail(cmd, RS_EXIT_INPUT, "%s: nothing selected: %s holds no "
					   "event; the trace spans %.6f s .. %.6f s (seconds on the "
					   "trace clock, as trace-cmd report prints them)", ti->path,
					   what, rs_ns_to_s(ti->first_ts), rs_ns_to_s(ti->last_ts));
		return rs_cmd_fail(cmd, RS_EXIT_INPUT, "%s: nothing selected: %s holds no event",
				   ti ? ti->path : "trace", what);
	}
	if (o->pid < 0 && !o->comm)
		return RS_EXIT_OK;
	for (int i = 0; i < nr; i++) {
		const struct rs_task_info *t = rs_episodes_task(e, i);

		if (t && t->selected)
			return RS_EXIT_OK;
	}
	if (o->pid >= 0)
		snprintf(what, sizeof(what), "--pid %d", o->pid);
	if (o->comm)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s--comm %s",
			 *what ? " " : "", o->comm);
	some_tasks(e, tasks, sizeof(tasks));
	return rs_cmd_fail(cmd, RS_EXIT_INPUT, "%s: nothing selected: %s matches no task with "
			   "reclaim events%s%s", ti ? ti->path : "trace", what,
			   range ? " in the range" : "", tasks);
}

bool rs_cmd_show_progress(const char *path)
{
	struct stat st;

	return isatty(STDERR_FILENO) && !stat(path, &st) && st.st_size >= PROGRESS_MIN_BYTES;
}
