/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of `reclaimscope tui` (cmd/ only), in three modules:
 *
 *   tui_screen.c  the only file that calls curses: terminal or headless pseudo screen, key
 *                 reading (translated to TK_* codes), drawing of a struct tui_state, dumps
 *   tui_keys.c    the key -> action table (htop Action.c style); each action changes the
 *                 state or the model and returns TUI_* flags saying what must follow
 *   cmd_tui.c     the command: load the trace through the analysis with the timeline index
 *                 as a consumer (on a thread, so the first screen does not wait for the
 *                 pass), then the loop: key, action, re-read if asked, redraw
 *
 * Everything the screen shows is in struct tui_state and the model: drawing reads, never
 * decides. tui_layout() is the one place the screen geometry is computed, so the command
 * can size the model's columns before drawing.
 */
#ifndef RS_TUI_H
#define RS_TUI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rs_error.h"
#include "rs_event.h"
#include "timeline_model.h"

/* Keys independent of curses: printable ASCII is itself, the rest are these. */
enum tui_key {
	TK_NONE = -1,
	TK_CTRL_C = 3,
	TK_TAB = 9,
	TK_CTRL_L = 12,
	TK_ENTER = 13,
	TK_ESC = 27,
	TK_BACKSPACE = 127,
	TK_LEFT = 0x10000, TK_RIGHT, TK_UP, TK_DOWN, TK_HOME, TK_END, TK_PGUP, TK_PGDN,
	TK_SLEFT, TK_SRIGHT, TK_DELETE, TK_RESIZE, TK_TIMEOUT,
	TK_MOUSE,			/* st->mouse says where and which button */
};

/* A mouse event, translated by the screen (tui_screen_key) */
enum tui_button { TB_NONE, TB_CLICK, TB_WHEEL_UP, TB_WHEEL_DOWN };
struct tui_mouse {
	enum tui_button button;
	int x, y;
};

/* Flags an action returns */
#define TUI_REDRAW	0x1	/* draw again */
#define TUI_RECOMPUTE	0x2	/* the model must re-bin (and maybe re-read a range) */
#define TUI_FETCH	0x4	/* the events under the cursor / window must be re-read */
#define TUI_QUIT	0x8

enum tui_view { TUI_MAIN, TUI_HELP, TUI_DETAILS };

/* An event line of the details (the raw events under the cursor or in the A-B window). */
#define TUI_EVLINE 200
struct tui_evline {
	char text[TUI_EVLINE];
	uint64_t ts;			/* the event's time and record offset: what a list */
	uint64_t offset;		/* selection keeps across re-reads */
	int pid;
	bool episode;			/* a reclaim begin or end: Enter lists its events */
};
#define TUI_MAX_EVLINES 400
#define TUI_MAX_LIST 512

/*
 * The memcg counters' item names, as the recorder's item-name markers give them (docs/markers.md;
 * cgroups and analyze name items the same way): names[e][i] is item value i of the enum e
 * (enum rs_item_enum). The arrays belong to the source's markers and stay valid while it is open;
 * tui_items_see() takes each newer list as the source's stream passes it on.
 */
struct tui_items {
	const char *const *names[RS_ITEMS_MEMCG_STAT + 1];
	int count[RS_ITEMS_MEMCG_STAT + 1];
};

struct tui_state {
	struct tl_model *m;
	enum tui_view view;
	bool prompt;			/* the `/` filter prompt is open */
	char prompt_buf[64];
	int prompt_len;
	char msg[160];			/* one-shot status message */
	int row_top;			/* first lane row on screen */
	int scroll;			/* help / details scroll */
	bool all_events;		/* details list every event, not only reclaim ones */
	bool utf8, color;
	const char *trace_name;
	/* loading */
	bool loading;
	double progress;		/* 0..1 */
	uint64_t events;		/* indexed so far */
	char load_error[200];
	uint64_t dropped;		/* spans the index could not keep */
	size_t warnings;
	/* events of the details range, filled by the command (TUI_FETCH) */
	struct tui_evline *ev;
	int nev;
	uint64_t ev_more;		/* 1: more matching events than listed */
	uint64_t ev_scanned;		/* > 0: reading stopped after this many events */
	bool ev_capped;			/* the list stopped early (either reason) */
	uint64_t ev_t0, ev_t1;		/* the range they come from */
	bool ev_valid;
	/* the event list pane (main view): events from list_anchor on, the selected one
	   (list_sel) is where the cursor is; with the list focused, moving the selection moves
	   the cursor (tui_list_* in tui_keys.c, the re-reads in cmd_tui.c) */
	struct tui_items items;		/* memcg item names seen in the panes' streams */
	struct tui_evline *lst;		/* [TUI_MAX_LIST] the pane's lines */
	int nlst;
	bool lst_more;			/* more events after the last line read */
	bool lst_valid;
	bool list_on;			/* the pane shows */
	int list_rows;			/* its height asked for with ( and ); 0: automatic */
	bool list_focus;		/* keys move the list's selection, not the lanes' */
	int list_sel, list_top;		/* index in ev[]; first shown */
	uint64_t list_anchor;		/* the list is read from here */
	bool list_follow;		/* re-anchor at the cursor on the next refresh */
	int list_step;			/* +1 / -1: the selection left the lines read: the command
					   reads on (or back) from the selected event */
	uint64_t list_sel_ts, list_sel_off;	/* the selected event, kept across re-reads */
	/* Enter on an episode's begin or end: the list shows that task's events inside it */
	bool nest;
	int nest_pid;
	uint64_t nest_t0, nest_t1;
	struct tui_mouse mouse;		/* of the last TK_MOUSE */
	/* screen geometry, from tui_layout() */
	int width, height;
};

struct tui_layout {
	bool too_small;
	int label_w;			/* label columns, separator included */
	int plot_x, plot_w;		/* model columns */
	int lanes_y, lanes_h;		/* screen rows of the lanes */
	int lane_h;			/* rows of one lane (1..TUI_LANE_MAX_H): grows with the
					   terminal */
	int list_y, list_h;		/* the event list pane, its title bar included; 0 rows:
					   hidden */
	int details_y, details_h;	/* 0 rows: no details pane */
	int status_y;
};

#define TUI_LANE_MAX_H 3

/* The screen's geometry for st's size, pane settings and nrows lanes. */
void tui_layout(const struct tui_state *st, int nrows, struct tui_layout *l);
/* The lane row (model row index) at a screen line of the lanes, or -1. */
int tui_layout_lane_at(const struct tui_state *st, const struct tui_layout *l, int y);

/* The range the details describe: A-B when both markers are set, else the cursor column. */
void tui_details_range(const struct tui_state *st, uint64_t *t0, uint64_t *t1, bool *marked);

/* ---- keys (tui_keys.c) ---- */
#define TUI_IN_MAIN	(1u << TUI_MAIN)
#define TUI_IN_HELP	(1u << TUI_HELP)
#define TUI_IN_DETAILS	(1u << TUI_DETAILS)
#define TUI_IN_ALL	(TUI_IN_MAIN | TUI_IN_HELP | TUI_IN_DETAILS)

struct tui_keydef {
	int keys[4];			/* enum tui_key or characters; 0 ends the list */
	const char *name;		/* as the help shows them */
	const char *help;
	unsigned int views;		/* TUI_IN_*: where the action applies */
	int (*fn)(struct tui_state *st, int key);
};
/* Run the action of `key` in the current view; returns TUI_* flags. */
int tui_dispatch(struct tui_state *st, int key);
/* The table, for the help screen. */
const struct tui_keydef *tui_keytable(int *n);
/* Scroll the lanes so the selected row shows (after an action, before drawing). */
void tui_keep_visible(struct tui_state *st, const struct tui_layout *l);
/* A key script token: "q", "+", "Left", "Enter", "C-c", "KEY_RESIZE:20x10" (w, h set),
 * "type:TEXT" (returns TK_NONE; the caller types TEXT). Returns the key or TK_NONE, -2 bad. */
int tui_key_parse(const char *tok, int *w, int *h);

/* ---- screen (tui_screen.c) ---- */
struct tui_screen;
/* headless: a pseudo screen of w x h on /dev/null (no terminal needed). */
struct tui_screen *tui_screen_open(bool headless, int w, int h, struct rs_error *err);
/* tui_term.c: the terminal to open, *name NULL for TERM or a fallback; -1 when none has one. */
int tui_term_pick(const char **name);
void tui_screen_close(struct tui_screen *s);
bool tui_screen_utf8(const struct tui_screen *s);
bool tui_screen_color(const struct tui_screen *s);
void tui_screen_size(struct tui_screen *s, int *w, int *h);
void tui_screen_resize(struct tui_screen *s, int w, int h);	/* headless */
/* Next key, TK_TIMEOUT after timeout_ms (-1: wait). */
int tui_screen_key(struct tui_screen *s, int timeout_ms);
/* Where and which button, after tui_screen_key() returned TK_MOUSE. */
void tui_screen_mouse(const struct tui_screen *s, struct tui_mouse *m);
void tui_screen_draw(struct tui_screen *s, struct tui_state *st);
/* The screen's text, one line a row, trailing blanks dropped. */
int tui_screen_dump(struct tui_screen *s, FILE *f);

/* ---- formatting shared by the screen and the command (tui_format.c) ---- */
void tui_fmt_ts(char *buf, size_t n, uint64_t ns, int decimals);
void tui_fmt_dur(char *buf, size_t n, uint64_t ns);
void tui_fmt_num(char *buf, size_t n, double v);	/* 12, 1.2k, 34k, 5.6M */
void tui_items_see(struct tui_items *it, const struct rs_event *ev);
/* One line describing an event (no timestamp, no task); it: item names, or NULL (numbers). */
void tui_fmt_event(char *buf, size_t n, const struct rs_event *ev, const struct tui_items *it);
/* Events worth listing in the details by default (reclaim, OOM, losses). */
bool tui_event_listed(const struct rs_event *ev);

#endif
