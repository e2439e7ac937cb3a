// SPDX-License-Identifier: GPL-2.0
/*
 * reclaimscope tui: a timeline browser for reclaim (docs/tui.md).
 *
 * The trace is loaded by the shared analysis with the timeline index (timeline_index.h) as a
 * consumer, on a thread: the first screen is drawn as soon as the trace is open and fills in
 * as the pass goes. The loader opens its own source without the index's mutex (that open is
 * as slow as ours), then holds the mutex while it streams and lets go every 4096 events when
 * the screen asks for it (want), so the screen never reads a half-updated index and the loader
 * never waits on the terminal. Range re-reads (zoom below the index's finest bucket, and the
 * events listed in the details) go through a second source opened here, so they never touch
 * the loader's.
 *
 * Quitting while the pass runs: q, Ctrl-C (a key: the terminal is raw), and SIGINT, SIGTERM
 * or SIGHUP (a flag the key loop looks at; the key wait is bounded, so it looks at least
 * every KEY_POLL_MS) all leave the loop the same way. The cleanup path sets `cancel`, which
 * the loader sees within YIELD_EVERY events and answers by returning non-zero from its
 * callback: the stream stops, the analysis is freed on the loader's side, and the loader is
 * joined before the index, model and sources are freed. Only the loader's own
 * rs_source_open() cannot be cut short; a quit during it waits for it.
 *
 * Headless mode (tests): RS_TUI_SCRIPT holds a key script, RS_TUI_SIZE the screen size
 * (80x24), RS_TUI_DUMP where the screens are written ("-" or unset: stdout); the load
 * finishes before the first screen. RS_TUI_TIMING names a file for the timings (both modes).
 * RS_TUI_LOAD_DELAY (test hook, milliseconds): the loader sleeps that long every YIELD_EVERY
 * events, without the mutex, as a slow disk would make it; the committed fixtures load in
 * well under a second, too fast to quit from while they load (tests/e2e/tui_tmux.sh).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "cmd.h"
#include "cmd_args.h"
#include "refaults.h"
#include "rs_warn.h"
#include "timeline_index.h"
#include "timeline_model.h"
#include "trace_source.h"
#include "tui.h"

#define YIELD_EVERY 4096		/* events between the loader's looks at `want` */
#define LOAD_REFRESH_MS 200		/* redraw period while loading */
#define KEY_POLL_MS 250			/* longest key wait once loaded (signal latency) */
#define SCAN_PANE 8192			/* events read at most for the pane's list (a key's
					   latency must not grow with a column's events) */
#define SCAN_DETAILS 200000		/* ... the details screen's list */

struct loader {
	const char *path;
	struct tl_index *ix;
	pthread_t thread;
	bool started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	atomic_int want;		/* the screen waits for the mutex */
	atomic_int cancel;
	atomic_int done;
	uint64_t n;
	uint64_t delay_ns;		/* RS_TUI_LOAD_DELAY */
	bool cancelled;			/* the stream was stopped by `cancel` */
	int ret;
	struct rs_error err;
	size_t warnings;
	uint64_t t_done_ns;
	const struct rs_source *src;	/* the analysis' own, while it runs */
	int threads;			/* --threads: the pass's rs_source_opts.threads */
};

/*
 * The signal that asked to quit (SIGINT, SIGTERM, SIGHUP), 0 while none did. A file static
 * because a handler has no argument; nothing else of the run lives outside struct loader and
 * struct tui_state.
 */
static volatile sig_atomic_t quit_signal;

static void on_quit_signal(int sig)
{
	quit_signal = sig;
}

static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_QUIT_SIGNALS (sizeof(quit_signals) / sizeof(quit_signals[0]))

/*
 * Installed before the screen opens: ncurses puts its own handlers (which exit() from the
 * handler, with the loader still running) only over SIG_DFL. No SA_RESTART, so a signal cuts
 * the key wait short.
 */
static void signals_catch(struct sigaction old[NR_QUIT_SIGNALS])
{
	struct sigaction sa = { .sa_handler = on_quit_signal };

	sigemptyset(&sa.sa_mask);
	quit_signal = 0;
	for (size_t i = 0; i < NR_QUIT_SIGNALS; i++)
		sigaction(quit_signals[i], &sa, &old[i]);
}

static void signals_restore(const struct sigaction old[NR_QUIT_SIGNALS])
{
	for (size_t i = 0; i < NR_QUIT_SIGNALS; i++)
		sigaction(quit_signals[i], &old[i], NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int loader_event(void *arg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct loader *L = arg;

	tl_index_event(L->ix, ev, ctx);
	if (!(++L->n % YIELD_EVERY)) {
		if (L->delay_ns) {
			struct timespec ts = { (time_t)(L->delay_ns / 1000000000u),
					       (long)(L->delay_ns % 1000000000u) };

			pthread_mutex_unlock(&L->mu);
			nanosleep(&ts, NULL);
			pthread_mutex_lock(&L->mu);
		}
		if (atomic_load(&L->cancel)) {
			L->cancelled = true;
			return 1;	/* stops the stream (rs_event_fn) */
		}
		while (atomic_load(&L->want))
			pthread_cond_wait(&L->cv, &L->mu);
	}
	return 0;
}

static void loader_episode(void *arg, const struct rs_episode *ep)
{
	struct loader *L = arg;

	tl_index_episode(L->ix, ep);
}

static int loader_finish(void *arg, struct rs_error *err)
{
	struct loader *L = arg;

	/* the full stream has told MGLRU by now (trace_source.h): the lanes name its types */
	if (L->src)
		tl_index_set_mglru(L->ix, rs_source_info(L->src)->mglru > 0);
	return tl_index_finish(L->ix, err);
}

/* The refaults consumer's hook: refaulted pages into the index (the refault lanes) */
static void loader_refault(void *arg, uint64_t ts, uint64_t pages, uint64_t distance_ns)
{
	struct loader *L = arg;

	tl_index_refault(L->ix, ts, pages, distance_ns <= RS_RF_THRASH_DISTANCE_DEFAULT);
}

static void *loader_main(void *arg)
{
	struct loader *L = arg;
	struct rs_consumer c[2] = { {
		.name = "timeline", .arg = L, .event = loader_event, .episode = loader_episode,
		.finish = loader_finish,
	} };
	struct rs_refaults_opts ro = { .refault_hook = loader_refault, .hook_arg = L };
	struct rs_analysis_opts ao = { .pid = -1, .consumers = c, .nr_consumers = 1,
				       .threads = L->threads };
	struct rs_refaults *rf;
	struct rs_analysis *a = NULL;
	struct rs_error err = { "" };
	sigset_t block;
	int ret;

	/* refaults joined as analyze joins them (refaults.h); the lanes stay empty without */
	rf = rs_refaults_new(&ro, &err);
	if (rf) {
		rs_refaults_consumer(rf, &c[1]);
		ao.nr_consumers = 2;
	}

	/* signals go to the screen's thread, whose key wait they cut short */
	sigemptyset(&block);
	for (size_t i = 0; i < NR_QUIT_SIGNALS; i++)
		sigaddset(&block, quit_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	/* as slow as the screen's own open: not under the mutex, so the screen does not wait */
	ret = rs_analysis_open(L->path, &ao, &a, &err);
	pthread_mutex_lock(&L->mu);
	L->src = ret ? NULL : rs_analysis_source(a);
	if (!ret && atomic_load(&L->cancel))
		L->cancelled = true;
	else if (!ret)
		ret = rs_analysis_stream(a, &err);
	if (L->cancelled) {
		ret = 0;		/* asked to stop: not an error */
	} else if (!ret) {
		L->warnings = rs_warnings_count(rs_analysis_warnings(a));
	}
	L->src = NULL;
	rs_analysis_free(a);		/* the index is all the TUI keeps */
	rs_refaults_free(rf);
	L->ret = ret;
	L->err = err;
	L->t_done_ns = now_ns();
	atomic_store(&L->done, 1);
	pthread_mutex_unlock(&L->mu);
	return NULL;
}

static void ui_lock(struct loader *L)
{
	atomic_store(&L->want, 1);
	pthread_mutex_lock(&L->mu);
}

static void ui_unlock(struct loader *L)
{
	atomic_store(&L->want, 0);
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
}

/* ---- range re-reads ---- */

static int raw_cb(const struct rs_event *ev, void *arg)
{
	tl_model_raw_event(arg, ev);
	return 0;
}

struct list_ctx {
	struct tui_state *st;
	int limit;
	uint64_t seen, max_scan;
};

static int list_cb(const struct rs_event *ev, void *arg)
{
	struct list_ctx *lc = arg;
	struct tui_state *st = lc->st;
	char ts[32], what[160];

	tui_items_see(&st->items, ev);
	if (++lc->seen > lc->max_scan) {
		st->ev_capped = true;
		st->ev_scanned = lc->max_scan;
		return 1;
	}
	if (!st->all_events && !tui_event_listed(ev))
		return 0;
	if (st->nev >= lc->limit) {
		st->ev_more = 1;
		st->ev_capped = true;
		return 1;
	}
	tui_fmt_ts(ts, sizeof(ts), ev->ts, 6);
	tui_fmt_event(what, sizeof(what), ev, &st->items);
	snprintf(st->ev[st->nev++].text, TUI_EVLINE, "%s [%03d] %s-%d %s", ts, ev->cpu,
		 ev->comm ? ev->comm : "?", ev->pid, what);
	return 0;
}

/* ---- the event list pane ---- */

struct lst_ctx {
	struct tui_state *st;
	int limit;
	uint64_t seen, max_scan;
	bool ring;			/* keep the last `limit` lines (reading back) */
	int head;			/* ring: next slot */
	uint64_t stop_ts, stop_off;	/* ring: stop after this event */
	bool stopped;
};

/* The list shows what the filter or the open episode selects. */
static bool lst_wanted(const struct tui_state *st, const struct rs_event *ev)
{
	const char *f = tl_model_filter(st->m);

	if (st->nest && ev->pid != st->nest_pid)
		return false;
	if (!st->all_events && !tui_event_listed(ev))
		return false;
	if (f[0]) {
		char pid[16];

		snprintf(pid, sizeof(pid), "%d", ev->pid);
		if (!strcasestr(ev->comm ? ev->comm : "", f) && !strstr(pid, f))
			return false;
	}
	return true;
}

static void lst_line(struct tui_evline *l, const struct rs_event *ev,
		     const struct tui_items *it)
{
	char ts[32], what[168];

	tui_fmt_ts(ts, sizeof(ts), ev->ts, 6);
	tui_fmt_event(what, sizeof(what), ev, it);
	/* trace-cmd report's layout: comm-pid [cpu] time: event: fields */
	snprintf(l->text, TUI_EVLINE, "%15.15s-%-7d [%03d] %s: %s", ev->comm ? ev->comm : "<...>",
		 ev->pid, ev->cpu, ts, what);
	l->ts = ev->ts;
	l->offset = ev->offset;
	l->pid = ev->pid;
	l->episode = ev->type == RS_EV_RECLAIM_BEGIN || ev->type == RS_EV_RECLAIM_END;
}

static int lst_cb(const struct rs_event *ev, void *arg)
{
	struct lst_ctx *lc = arg;
	struct tui_state *st = lc->st;

	tui_items_see(&st->items, ev);
	if (++lc->seen > lc->max_scan) {
		st->lst_more = true;
		return 1;
	}
	if (!lst_wanted(st, ev))
		return 0;
	if (lc->ring) {
		lst_line(&st->lst[lc->head], ev, &st->items);
		lc->head = (lc->head + 1) % lc->limit;
		if (st->nlst < lc->limit)
			st->nlst++;
		if (ev->ts == lc->stop_ts && ev->offset == lc->stop_off) {
			lc->stopped = true;
			return 1;
		}
		return 0;
	}
	if (st->nlst >= lc->limit) {
		st->lst_more = true;
		return 1;
	}
	lst_line(&st->lst[st->nlst++], ev, &st->items);
	return 0;
}

static int lst_find(const struct tui_state *st, uint64_t ts, uint64_t off)
{
	for (int i = 0; i < st->nlst; i++)
		if (st->lst[i].ts == ts && st->lst[i].offset == off)
			return i;
	return -1;
}

static uint64_t lst_end(const struct tui_state *st)
{
	return st->nest ? st->nest_t1 + 1 : UINT64_MAX;
}

/* Read forward from t0: the pane's lines. */
static void lst_read(struct tui_state *st, struct rs_source *src, uint64_t t0, int limit)
{
	struct lst_ctx lc = { .st = st, .limit = limit, .max_scan = SCAN_PANE * 4 };
	struct rs_error err;

	st->nlst = 0;
	st->lst_more = false;
	st->lst_valid = true;
	st->list_anchor = t0;
	if (src && t0 < lst_end(st) && rs_source_stream(src, t0, lst_end(st), lst_cb, &lc,
							&err) < 0)
		snprintf(st->msg, sizeof(st->msg), "cannot read the events: %s", err.msg);
}

/*
 * Read back from the selected event: the lines before it (the trace is read forward only, so
 * a window before it is read, four times wider each try, keeping the last lines in a ring).
 */
static void lst_read_back(struct tui_state *st, struct rs_source *src, int limit)
{
	uint64_t ts = st->list_sel_ts, off = st->list_sel_off, first, end, back;
	uint64_t from = st->nest ? st->nest_t0 : 0;
	struct lst_ctx lc;
	struct rs_error err;
	int i;

	tl_model_extent(st->m, &first, &end);
	if (from < first)
		from = first;
	/* 1 us first, then 4x: a dense trace has the previous event close by, and each try
	   reads at most SCAN_PANE * 4 events, so a key stays cheap */
	back = 1000;
	for (int tries = 0; tries < 28; tries++, back *= 4) {
		uint64_t t0 = ts > from + back ? ts - back : from;

		lc = (struct lst_ctx){ .st = st, .limit = limit, .max_scan = SCAN_PANE * 4,
				       .ring = true, .stop_ts = ts, .stop_off = off };
		st->nlst = 0;
		if (!src || rs_source_stream(src, t0, ts + 1, lst_cb, &lc, &err) < 0)
			break;
		/* the ring, in order */
		if (st->nlst == limit && lc.head) {
			struct tui_evline *tmp = malloc((size_t)limit * sizeof(*tmp));

			if (!tmp)
				break;
			memcpy(tmp, st->lst + lc.head, (size_t)(limit - lc.head) * sizeof(*tmp));
			memcpy(tmp + limit - lc.head, st->lst, (size_t)lc.head * sizeof(*tmp));
			memcpy(st->lst, tmp, (size_t)limit * sizeof(*tmp));
			free(tmp);
		}
		i = lst_find(st, ts, off);
		if (!lc.stopped && lc.seen > lc.max_scan)
			break;		/* too many events to read back through: at the cursor */
		if ((i > 0 || t0 == from) && lc.stopped) {
			st->list_anchor = st->lst[0].ts;
			st->lst_more = true;
			st->lst_valid = true;
			st->list_sel = i > 0 ? i - 1 : 0;
			if (i <= 0)
				snprintf(st->msg, sizeof(st->msg), "%s", st->nest ?
					 "the start of the episode" : "the first event of the trace");
			return;
		}
	}
	st->lst_valid = false;	/* read it again at the cursor */
}

/* Bring the event list up to date: at the cursor, or on from / back from its selection. */
static void refresh_list(struct tui_state *st, struct rs_source *src, const struct tui_layout *l)
{
	int limit = TUI_MAX_LIST, i;
	uint64_t c0;

	if (st->view != TUI_MAIN || !st->list_on || l->list_h < 2)
		return;
	if (st->list_step > 0 && st->lst_valid) {
		lst_read(st, src, st->list_sel_ts, limit);
		i = lst_find(st, st->list_sel_ts, st->list_sel_off);
		st->list_sel = i >= 0 && i + 1 < st->nlst ? i + 1 : i >= 0 ? i : 0;
	} else if (st->list_step < 0 && st->lst_valid) {
		lst_read_back(st, src, limit);
	} else if (st->list_follow || !st->lst_valid) {
		/* from the cursor's own time: a wide column can hold more events before it
		   than the list keeps */
		c0 = tl_model_cursor_ts(st->m);
		if (st->nest && (c0 < st->nest_t0 || c0 > st->nest_t1))
			c0 = st->nest_t0;
		lst_read(st, src, c0, limit);
		for (i = 0; i < st->nlst && st->lst[i].ts < tl_model_cursor_ts(st->m); i++)
			;
		st->list_sel = i < st->nlst ? i : st->nlst ? st->nlst - 1 : 0;
		st->list_top = st->list_sel;
	}
	st->list_step = 0;
	st->list_follow = false;
	if (st->nlst) {
		if (st->list_sel >= st->nlst)
			st->list_sel = st->nlst - 1;
		st->list_sel_ts = st->lst[st->list_sel].ts;
		st->list_sel_off = st->lst[st->list_sel].offset;
		if (st->list_focus)
			tl_model_cursor_set(st->m, st->list_sel_ts);
	}
}

static void fetch_events(struct tui_state *st, struct rs_source *src, uint64_t t0, uint64_t t1,
			 int limit)
{
	struct list_ctx lc = { st, limit < TUI_MAX_EVLINES ? limit : TUI_MAX_EVLINES, 0,
			       limit > 20 ? SCAN_DETAILS : SCAN_PANE };
	struct rs_error err;
	uint64_t from;

	st->nev = 0;
	st->ev_more = 0;
	st->ev_scanned = 0;
	st->ev_capped = false;
	st->ev_t0 = t0;
	st->ev_t1 = t1;
	st->ev_valid = true;
	/* reclaim events only: start where the index saw the first of them */
	from = st->all_events ? t0 : tl_model_first_activity(st->m, t0, t1);
	if (src && from < t1 && rs_source_stream(src, from, t1, list_cb, &lc, &err) < 0)
		snprintf(st->msg, sizeof(st->msg), "cannot read the events: %s", err.msg);
}

/* ---- the loop ---- */

struct timing {
	FILE *f;
	uint64_t start, opened, first_screen;
	uint64_t keys, total_ns, max_ns;
};

static int ev_limit(const struct tui_state *st, const struct tui_layout *l)
{
	if (st->view == TUI_DETAILS)
		return TUI_MAX_EVLINES;
	/* with the event list shown, the pane lists no events of its own */
	return st->view == TUI_MAIN && !l->list_h ? l->details_h : 0;
}

/* Bin the view: from the index, or from the events of the window when zoomed below it. */
static void bin_view(struct tui_state *st, struct rs_source *src)
{
	uint64_t a, b;

	tl_model_update(st->m);
	if (src && tl_model_needs_range(st->m, &a, &b)) {
		struct rs_error err;

		tl_model_raw_begin(st->m);
		if (rs_source_stream(src, a, b, raw_cb, st->m, &err) < 0)
			snprintf(st->msg, sizeof(st->msg), "cannot re-read the range: %s", err.msg);
		tl_model_raw_end(st->m);
		tl_model_update(st->m);
	}
}

/* Bring the model and the details up to date and draw. Called with the index locked. */
static void refresh_screen(struct tui_screen *scr, struct tui_state *st, struct rs_source *src,
			   struct loader *L, int *last_limit)
{
	struct tui_layout l;
	uint64_t a, b, first, last;
	bool marked;
	int lim;

	tui_screen_size(scr, &st->width, &st->height);
	tui_layout(st, tl_model_nrows(st->m), &l);
	st->loading = !atomic_load(&L->done);
	st->events = tl_index_events(L->ix);
	st->dropped = tl_index_dropped(L->ix);
	tl_index_span(L->ix, &first, &last);
	st->progress = last > first ? (double)(tl_index_last_ts(L->ix) - first) /
		(double)(last - first) : 0;
	if (st->progress > 1)
		st->progress = 1;
	if (!st->loading && L->ret && !st->load_error[0])
		snprintf(st->load_error, sizeof(st->load_error), "loading stopped: %s", L->err.msg);
	tl_model_set_columns(st->m, l.plot_w);
	bin_view(st, src);
	refresh_list(st, src, &l);
	bin_view(st, src);		/* the list's selection may have moved the cursor */
	lim = ev_limit(st, &l);
	tui_details_range(st, &a, &b, &marked);
	if (lim > 0 && (!st->ev_valid || st->ev_t0 != a || st->ev_t1 != b || lim > *last_limit)) {
		fetch_events(st, src, a, b, lim);
		*last_limit = lim;
	}
	tui_keep_visible(st, &l);
	tui_screen_draw(scr, st);
}

static void timing_key(struct timing *t, const char *name, uint64_t t0)
{
	uint64_t d = now_ns() - t0;

	t->keys++;
	t->total_ns += d;
	if (d > t->max_ns)
		t->max_ns = d;
	if (t->f)
		fprintf(t->f, "key %-10s %8.3f ms\n", name, (double)d / 1e6);
}

static long peak_rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void key_name(int key, char *buf, size_t n)
{
	if (key >= 0x21 && key < 0x7f)
		snprintf(buf, n, "%c", key);
	else
		snprintf(buf, n, "0x%x", key);
}

static int run_interactive(struct tui_screen *scr, struct tui_state *st, struct rs_source *src,
			   struct loader *L, struct timing *tm)
{
	int key = TK_NONE, last_limit = 0;
	bool drawn_loaded = false;	/* the last screen was drawn after the load ended */

	for (;;) {
		uint64_t t0 = now_ns();
		int flags;
		char kn[16];

		if (quit_signal)
			break;
		/* once loaded, a timeout is only the signal poll: nothing to redraw */
		if (key == TK_TIMEOUT && drawn_loaded) {
			key = tui_screen_key(scr, KEY_POLL_MS);
			continue;
		}
		ui_lock(L);
		flags = tui_dispatch(st, key);
		if (flags & TUI_QUIT) {
			ui_unlock(L);
			break;
		}
		refresh_screen(scr, st, src, L, &last_limit);
		drawn_loaded = !st->loading;
		ui_unlock(L);
		if (!tm->first_screen)
			tm->first_screen = now_ns();
		else if (key != TK_TIMEOUT) {
			key_name(key, kn, sizeof(kn));
			timing_key(tm, kn, t0);
		}
		key = tui_screen_key(scr, drawn_loaded ? KEY_POLL_MS : LOAD_REFRESH_MS);
		if (key == TK_MOUSE)
			tui_screen_mouse(scr, &st->mouse);
	}
	return 0;
}

static void dump_screen(struct tui_screen *scr, FILE *out, int n, const char *what)
{
	int w, h;

	tui_screen_size(scr, &w, &h);
	fprintf(out, "=== %d: %s (%dx%d) ===\n", n, what, w, h);
	tui_screen_dump(scr, out);
}

static int run_script(struct tui_screen *scr, struct tui_state *st, struct rs_source *src,
		      struct loader *L, struct timing *tm, const char *script, FILE *out)
{
	char *copy = strdup(script), *save = NULL, *tok, **toks = NULL;
	bool explicit_dumps = false;
	int n = 0, nt = 0, last_limit = 0, ret = 0;

	if (!copy)
		return -1;
	/* a '#' starts a comment that runs to the end of the line */
	for (char *p = copy; (p = strchr(p, '#'));)
		while (*p && *p != '\n')
			*p++ = ' ';
	toks = calloc(strlen(copy) / 2 + 2, sizeof(*toks));
	if (!toks) {
		free(copy);
		return -1;
	}
	for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		toks[nt++] = tok;
		if (!strcmp(tok, "dump"))
			explicit_dumps = true;
	}
	refresh_screen(scr, st, src, L, &last_limit);
	tm->first_screen = now_ns();
	if (!explicit_dumps)
		dump_screen(scr, out, n++, "first screen");
	for (int i = 0; i < nt; i++) {
		int w = 0, h = 0, key, flags = 0;
		uint64_t t0 = now_ns();
		char what[96];

		tok = toks[i];
		if (!strcmp(tok, "dump")) {
			dump_screen(scr, out, n++, "dump");
			continue;
		}
		key = tui_key_parse(tok, &w, &h);
		if (key == -2) {
			fprintf(out, "=== bad key token '%s' ===\n", tok);
			ret = -1;
			break;
		}
		if (key == TK_NONE) {		/* type:TEXT */
			for (const char *c = tok + 5; *c && !(flags & TUI_QUIT); c++)
				flags |= tui_dispatch(st, (unsigned char)*c);
		} else {
			if (key == TK_RESIZE)
				tui_screen_resize(scr, w, h);
			if (key == TK_MOUSE)
				st->mouse = (struct tui_mouse){ tok[0] == 'c' ? TB_CLICK :
					!strncmp(tok, "wheelup", 7) ? TB_WHEEL_UP : TB_WHEEL_DOWN,
					w, h };
			flags = tui_dispatch(st, key);
		}
		if (flags & TUI_QUIT) {
			fprintf(out, "=== quit by '%s' ===\n", tok);
			goto out;
		}
		refresh_screen(scr, st, src, L, &last_limit);
		timing_key(tm, tok, t0);
		snprintf(what, sizeof(what), "after '%s'", tok);
		if (!explicit_dumps)
			dump_screen(scr, out, n++, what);
	}
	if (!ret)
		fprintf(out, "=== end of script ===\n");
out:
	free(toks);
	free(copy);
	return ret;
}

static int parse_size(const char *s, int *w, int *h)
{
	return s && sscanf(s, "%dx%d", w, h) == 2 && *w >= 1 && *h >= 1 && *w <= 1000 &&
	       *h <= 1000 ? 0 : -1;
}

enum { O_THRESHOLD = 256, O_METRIC };

static const struct rs_cmd_opt tui_opts[] = {
	RS_OPT_ARG("metric", O_METRIC, "NAME",
		   "what the lanes show first: scanned, reclaimed, efficiency or stall",
		   .synopsis = "[--metric scanned|reclaimed|efficiency|stall]"),
	RS_OPT_ARG("threshold", O_THRESHOLD, "MS",
		   "the stall length the n and N keys jump to (default 10 ms)"),
	RS_THREADS_OPT,
	RS_CMD_OPT_END,
};

RS_CMD_DEFINE(tui,
	.summary = "browse a trace on a timeline: scan, stalls, kswapd, cgroups, zoom");

static int cmd_tui(int argc, char **argv)
{
	const char *script = getenv("RS_TUI_SCRIPT"), *dump = getenv("RS_TUI_DUMP");
	const char *timing = getenv("RS_TUI_TIMING"), *delay = getenv("RS_TUI_LOAD_DELAY");
	struct sigaction old_sig[NR_QUIT_SIGNALS];
	bool caught = false;
	struct rs_source_opts so = { .warm = true };	/* the range reader: keys read columns */
	struct tui_state st = { 0 };
	struct timing tm = { 0 };
	struct tl_index_opts io = { 0 };
	/* --threads drives the loading pass; the range reader's short reads stay on one */
	struct loader L = { .threads = rs_threads_auto() };
	struct rs_cmd_args args = { .threads = &L.threads };
	struct rs_source *src = NULL;
	struct tui_screen *scr = NULL;
	struct rs_error err = { "" };
	const struct rs_trace_info *ti;
	FILE *out = stdout;
	uint64_t threshold = 10000000;
	int metric = TL_M_SCANNED, w = 80, h = 24, c, ret = RS_EXIT_OK;
	const char *base;

	optind = 1;
	while ((c = rs_cmd_getopt(&rs_cmd_tui, argc, argv, "", &args)) != -1) {
		switch (c) {
		case O_THRESHOLD: {
			char *end;
			double ms = strtod(optarg, &end);

			if (end == optarg || *end || ms < 0.001 || ms > 3600000)
				return rs_cmd_fail("tui", RS_EXIT_USAGE, "--threshold wants "
						   "milliseconds, not '%s'", optarg);
			threshold = (uint64_t)(ms * 1e6);
			break;
		}
		case O_METRIC:
			for (metric = 0; metric < TL_M_NR; metric++)
				if (!strncmp(optarg, tl_metric_name(metric), strlen(optarg)) &&
				    optarg[0])
					break;
			if (metric == TL_M_NR)
				return rs_cmd_fail("tui", RS_EXIT_USAGE, "--metric wants scanned, "
						   "reclaimed, efficiency or stall, not '%s'",
						   optarg);
			break;
		default:
			return RS_EXIT_USAGE;	/* reported */
		}
	}
	if (script && getenv("RS_TUI_SIZE") && parse_size(getenv("RS_TUI_SIZE"), &w, &h))
		return rs_cmd_fail("tui", RS_EXIT_USAGE, "RS_TUI_SIZE wants WxH, not '%s'",
				   getenv("RS_TUI_SIZE"));
	if (delay) {
		char *end;
		double ms = strtod(delay, &end);

		if (end == delay || *end || ms < 0 || ms > 10000)
			return rs_cmd_fail("tui", RS_EXIT_USAGE, "RS_TUI_LOAD_DELAY wants "
					   "milliseconds (0..10000), not '%s'", delay);
		L.delay_ns = (uint64_t)(ms * 1e6);
	}
	tm.start = now_ns();
	L.path = argv[optind];
	if (rs_source_open(L.path, &so, &src, &err) < 0)
		return rs_cmd_fail("tui", RS_EXIT_INPUT, "%s", err.msg);
	tm.opened = now_ns();
	ti = rs_source_info(src);
	io.span_first = ti->first_ts;
	io.span_last = ti->last_ts;
	L.ix = tl_index_new(&io, &err);
	st.m = L.ix ? tl_model_new(L.ix) : NULL;
	if (!st.m) {
		ret = rs_cmd_fail("tui", RS_EXIT_INPUT, "out of memory");
		goto out_free;
	}
	tl_model_set_threshold(st.m, threshold);
	tl_model_set_metric(st.m, metric);
	pthread_mutex_init(&L.mu, NULL);
	pthread_cond_init(&L.cv, NULL);
	if (pthread_create(&L.thread, NULL, loader_main, &L)) {
		ret = rs_cmd_fail("tui", RS_EXIT_INPUT, "cannot start the loader thread");
		goto out_free;
	}
	L.started = true;
	if (script) {
		/* tests: the screens must not depend on how far the pass got */
		pthread_join(L.thread, NULL);
		L.started = false;
		if (dump && strcmp(dump, "-")) {
			out = fopen(dump, "w");
			if (!out) {
				ret = rs_cmd_fail("tui", RS_EXIT_INPUT, "cannot write %s: %s", dump,
						  strerror(errno));
				goto out_free;
			}
		}
	}
	if (timing) {
		tm.f = fopen(timing, "w");
		if (!tm.f) {
			ret = rs_cmd_fail("tui", RS_EXIT_INPUT, "cannot write %s: %s", timing,
					  strerror(errno));
			goto out_stop;
		}
	}
	if (!script) {
		signals_catch(old_sig);
		caught = true;
	}
	scr = tui_screen_open(script != NULL, w, h, &err);
	if (!scr) {
		ret = rs_cmd_fail("tui", RS_EXIT_INPUT, "%s", err.msg);
		goto out_stop;
	}
	base = strrchr(L.path, '/');
	st.trace_name = base ? base + 1 : L.path;
	st.utf8 = tui_screen_utf8(scr);
	st.color = tui_screen_color(scr);
	st.ev = calloc(TUI_MAX_EVLINES, sizeof(*st.ev));
	st.lst = calloc(TUI_MAX_LIST, sizeof(*st.lst));
	st.list_on = true;
	st.all_events = true;		/* every event, as trace-cmd report lists them */
	if (!st.ev || !st.lst) {
		ret = rs_cmd_fail("tui", RS_EXIT_INPUT, "out of memory");
		goto out_stop;
	}
	if (script) {
		if (run_script(scr, &st, src, &L, &tm, script, out) < 0)
			ret = RS_EXIT_USAGE;
	} else {
		run_interactive(scr, &st, src, &L, &tm);
	}
	tui_screen_close(scr);
	scr = NULL;
out_stop:
	if (L.started) {
		atomic_store(&L.cancel, 1);
		pthread_join(L.thread, NULL);
	}
	if (caught) {
		signals_restore(old_sig);
		if (quit_signal && !ret)
			ret = 128 + quit_signal;	/* the shell's convention */
	}
	if (out != stdout && out && fclose(out) && !ret)
		ret = rs_cmd_fail("tui", RS_EXIT_INPUT, "error writing %s", dump);
	if (tm.f) {
		fprintf(tm.f, "events %" PRIu64 "\n", tl_index_events(L.ix));
		fprintf(tm.f, "source_open_ms %.1f\n", (double)(tm.opened - tm.start) / 1e6);
		fprintf(tm.f, "first_screen_ms %.1f\n", tm.first_screen ?
			(double)(tm.first_screen - tm.start) / 1e6 : -1.0);
		fprintf(tm.f, "index_built_ms %.1f\n", L.t_done_ns && !L.cancelled ?
			(double)(L.t_done_ns - tm.start) / 1e6 : -1.0);
		fprintf(tm.f, "load %s\n", L.cancelled ? "stopped" : L.ret ? "failed" :
			"complete");
		fprintf(tm.f, "keys %" PRIu64 " max_ms %.3f mean_ms %.3f\n", tm.keys,
			(double)tm.max_ns / 1e6, tm.keys ? (double)tm.total_ns / 1e6 /
			(double)tm.keys : 0.0);
		fprintf(tm.f, "peak_rss_kb %ld\n", peak_rss_kb());
		fclose(tm.f);
	}
	if (!ret && L.ret && atomic_load(&L.done))
		ret = rs_cmd_fail("tui", RS_EXIT_INPUT, "%s", L.err.msg);
	if (!ret && script && out == stdout)
		ret = rs_cmd_finish_stdout("tui", ret);
out_free:
	if (scr)
		tui_screen_close(scr);
	free(st.ev);
	free(st.lst);
	tl_model_free(st.m);
	tl_index_free(L.ix);
	rs_source_close(src);
	return ret;
}
