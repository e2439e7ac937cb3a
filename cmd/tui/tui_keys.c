// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI's key -> action table (htop Action.c style): every key the TUI knows is one row
 * here, with the views it works in and its help line (the help screen prints this table).
 * An action changes the state or the model and returns what must follow (TUI_* flags); it
 * neither draws nor reads the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

#define MOVE (TUI_REDRAW | TUI_RECOMPUTE)

/* Lanes that fit on the screen at once */
static int lanes_h(const struct tui_state *st)
{
	struct tui_layout l;
	int n;

	tui_layout(st, tl_model_nrows(st->m), &l);
	n = l.lane_h > 0 ? l.lanes_h / l.lane_h : 0;
	return n > 1 ? n : 1;
}

static int list_rows(const struct tui_state *st)
{
	struct tui_layout l;

	tui_layout(st, tl_model_nrows(st->m), &l);
	return l.list_h > 2 ? l.list_h - 1 : 1;
}

static int act_quit(struct tui_state *st, int key)
{
	return TUI_QUIT;
}

/* A full-screen view (help, details) on, or off back to the timeline. */
static int toggle_view(struct tui_state *st, enum tui_view view)
{
	st->view = st->view == view ? TUI_MAIN : view;
	st->scroll = 0;
	return TUI_REDRAW;
}

static int act_help(struct tui_state *st, int key)
{
	return toggle_view(st, TUI_HELP);
}

static int act_back(struct tui_state *st, int key)
{
	if (st->view == TUI_MAIN && st->nest) {
		st->nest = false;
		st->lst_valid = false;
		return TUI_REDRAW | TUI_FETCH;
	}
	if (st->view == TUI_MAIN) {
		st->msg[0] = '\0';
		return TUI_REDRAW;
	}
	st->view = TUI_MAIN;
	st->scroll = 0;
	return TUI_REDRAW;
}

static int act_details(struct tui_state *st, int key)
{
	return toggle_view(st, TUI_DETAILS);
}

static int act_zoom(struct tui_state *st, int key)
{
	uint64_t before = tl_model_col_width(st->m);

	tl_model_zoom(st->m, key == '+' || key == '=' ? 1 : -1);
	if (tl_model_col_width(st->m) == before)
		snprintf(st->msg, sizeof(st->msg), key == '+' || key == '=' ?
			 "zoomed in as far as it goes (1 ns a column)" :
			 "the whole trace is in view");
	return MOVE;
}

static int act_zoom_all(struct tui_state *st, int key)
{
	tl_model_zoom_all(st->m);
	return MOVE;
}

static int act_zoom_marked(struct tui_state *st, int key)
{
	const struct tl_span *s = tl_model_selected_span(st->m);
	uint64_t a, b;

	if (tl_model_marked_range(st->m, &a, &b)) {
		tl_model_zoom_range(st->m, a, b);
	} else if (s) {
		tl_model_zoom_range(st->m, s->begin, s->end + 1);
	} else {
		snprintf(st->msg, sizeof(st->msg), "set markers A and B (a, b) or select a stall "
			 "(n, w) to zoom to it");
		return TUI_REDRAW;
	}
	return MOVE;
}

static int act_cursor(struct tui_state *st, int key)
{
	tl_model_cursor_move(st->m, key == 'h' || key == TK_LEFT ? -1 : 1);
	return MOVE;
}

static int act_pan(struct tui_state *st, int key)
{
	int half = tl_model_columns(st->m) / 2;

	if (half < 1)
		half = 1;
	tl_model_pan(st->m, key == 'H' || key == TK_SLEFT || key == '[' ? -half : half);
	return MOVE;
}

static int act_home_end(struct tui_state *st, int key)
{
	uint64_t first, end;

	tl_model_extent(st->m, &first, &end);
	tl_model_cursor_set(st->m, key == TK_HOME ? first : end - 1);
	return MOVE;
}

/* The list's selection moves; the cursor goes to the selected event. */
static int list_move(struct tui_state *st, int d)
{
	int sel = st->list_sel + d;

	st->list_follow = false;
	if (!st->lst_valid || !st->nlst)
		return TUI_REDRAW;
	if (sel < 0) {
		st->list_step = -1;	/* read back from the selected event */
		return TUI_REDRAW | TUI_FETCH;
	}
	if (sel >= st->nlst) {
		if (!st->lst_more) {
			snprintf(st->msg, sizeof(st->msg), "%s", st->nest ?
				 "the end of the episode" : "the last event of the trace");
			sel = st->nlst - 1;
		} else {
			st->list_step = 1;	/* read on from the selected event */
			return TUI_REDRAW | TUI_FETCH;
		}
	}
	st->list_sel = sel;
	st->list_sel_ts = st->lst[sel].ts;
	st->list_sel_off = st->lst[sel].offset;
	tl_model_cursor_set(st->m, st->lst[sel].ts);
	return MOVE;
}

static int act_row(struct tui_state *st, int key)
{
	int d = key == 'k' || key == TK_UP ? -1 : key == 'j' || key == TK_DOWN ? 1 :
		key == TK_PGUP ? -lanes_h(st) : lanes_h(st);

	if (st->view == TUI_MAIN && st->list_on && st->list_focus) {
		int page = list_rows(st);

		return list_move(st, key == TK_PGUP ? -page : key == TK_PGDN ? page : d);
	}
	if (st->view != TUI_MAIN) {
		st->scroll += d;
		if (st->scroll < 0)
			st->scroll = 0;
		return TUI_REDRAW;
	}
	tl_model_select_row(st->m, d);
	return TUI_REDRAW;
}

/* Enter in the list: the events of the selected task's innermost episode at that time */
static int list_enter(struct tui_state *st)
{
	const struct tl_index *ix = tl_model_index(st->m);
	const struct tl_span *sp = tl_index_spans(ix), *best = NULL;
	const struct tui_evline *e;
	size_t n = tl_index_nspans(ix);

	if (!st->lst_valid || st->list_sel < 0 || st->list_sel >= st->nlst)
		return TUI_REDRAW;
	e = &st->lst[st->list_sel];
	for (size_t i = 0; i < n; i++)
		if (sp[i].pid == e->pid && sp[i].begin <= e->ts && e->ts <= sp[i].end &&
		    (!best || sp[i].end - sp[i].begin < best->end - best->begin))
			best = &sp[i];
	/* another task's event inside the selected stall: the selected stall's events */
	if (!best && tl_model_selected_span(st->m) &&
	    tl_model_selected_span(st->m)->begin <= e->ts &&
	    e->ts <= tl_model_selected_span(st->m)->end)
		best = tl_model_selected_span(st->m);
	if (!best) {
		snprintf(st->msg, sizeof(st->msg), "pid %d is in no reclaim episode or kswapd run "
			 "at this event", e->pid);
		return TUI_REDRAW;
	}
	st->nest = true;
	st->nest_pid = best->pid;
	st->nest_t0 = best->begin;
	st->nest_t1 = best->end;
	st->lst_valid = false;
	st->list_follow = true;
	tl_model_cursor_set(st->m, best->begin);
	return MOVE | TUI_FETCH;
}

static int act_expand(struct tui_state *st, int key)
{
	if (st->list_on && st->list_focus && key == TK_ENTER)
		return list_enter(st);
	if (!tl_model_toggle_expand(st->m)) {
		snprintf(st->msg, sizeof(st->msg), "only the kswapd, direct, memcg, softlimit and "
			 "node lanes have sub-lanes");
		return TUI_REDRAW;
	}
	return MOVE;
}

static int act_hide(struct tui_state *st, int key)
{
	const struct tl_row *r = tl_model_row(st->m, tl_model_selected_row(st->m));

	if (!r)
		return TUI_REDRAW;
	snprintf(st->msg, sizeof(st->msg), "lane %s hidden; T shows every lane",
		 tl_model_lane_name(st->m, r->lane));
	tl_model_hide_row(st->m);
	return MOVE;
}

static int act_show_all(struct tui_state *st, int key)
{
	tl_model_show_all(st->m);
	snprintf(st->msg, sizeof(st->msg), "every lane shown, empty ones too");
	return MOVE;
}

static int act_marker(struct tui_state *st, int key)
{
	tl_model_set_marker(st->m, key == 'a' ? 0 : 1);
	st->ev_valid = false;
	return TUI_REDRAW | TUI_FETCH;
}

static int act_clear_markers(struct tui_state *st, int key)
{
	tl_model_clear_markers(st->m);
	st->ev_valid = false;
	return TUI_REDRAW | TUI_FETCH;
}

static int act_jump(struct tui_state *st, int key)
{
	char t[32];
	int r = key == 'w' ? tl_model_jump_worst(st->m) : tl_model_jump(st->m, key == 'n' ? 1 : -1);

	tui_fmt_dur(t, sizeof(t), tl_model_threshold(st->m));
	if (r < 0) {
		if (st->loading)
			snprintf(st->msg, sizeof(st->msg), "no such stall indexed yet: the trace is "
				 "still loading (%.0f%%)", st->progress * 100);
		else if (key == 'w')
			snprintf(st->msg, sizeof(st->msg), "no stall%s in this trace",
				 tl_model_filter(st->m)[0] ? " matching the filter" : "");
		else
			snprintf(st->msg, sizeof(st->msg), "no stall of %s or more %s the cursor%s",
				 t, key == 'n' ? "after" : "before",
				 tl_model_filter(st->m)[0] ? " matching the filter" : "");
		return TUI_REDRAW;
	}
	return MOVE;
}

static int act_threshold(struct tui_state *st, int key)
{
	uint64_t t = tl_model_threshold(st->m);
	char b[32];

	if (key == '{' || key == '<')
		t = t / 2 >= 1000 ? t / 2 : 1000;
	else
		t = t * 2 <= 3600ull * 1000000000ull ? t * 2 : t;
	tl_model_set_threshold(st->m, t);
	tui_fmt_dur(b, sizeof(b), t);
	snprintf(st->msg, sizeof(st->msg), "stall threshold for n/N: %s", b);
	return TUI_REDRAW;
}

static int act_metric(struct tui_state *st, int key)
{
	int m = key >= '1' && key <= '4' ? key - '1' : (tl_model_metric(st->m) + 1) % TL_M_NR;

	tl_model_set_metric(st->m, m);
	return MOVE;
}

static int act_group(struct tui_state *st, int key)
{
	tl_model_set_group(st->m, (tl_model_group(st->m) + 1) % TL_G_NR);
	snprintf(st->msg, sizeof(st->msg), "sub-lanes by %s", tl_group_name(tl_model_group(st->m)));
	return MOVE;
}

static int act_search(struct tui_state *st, int key)
{
	st->prompt = true;
	snprintf(st->prompt_buf, sizeof(st->prompt_buf), "%s", tl_model_filter(st->m));
	st->prompt_len = (int)strlen(st->prompt_buf);
	return TUI_REDRAW;
}

static int act_clear_filter(struct tui_state *st, int key)
{
	tl_model_set_filter(st->m, "");
	snprintf(st->msg, sizeof(st->msg), "filter cleared");
	return MOVE;
}

static int act_all_events(struct tui_state *st, int key)
{
	st->all_events = !st->all_events;
	st->ev_valid = false;
	snprintf(st->msg, sizeof(st->msg), "%s", st->all_events ? "listing every event" :
		 "listing reclaim events only (e: every event)");
	return TUI_REDRAW | TUI_FETCH;
}

static int act_list(struct tui_state *st, int key)
{
	st->list_on = !st->list_on;
	if (!st->list_on)
		st->list_focus = false;
	st->lst_valid = false;
	snprintf(st->msg, sizeof(st->msg), "%s", st->list_on ? "event list shown (Tab: focus, "
		 "( ): size)" : "event list hidden (v shows it)");
	return MOVE | TUI_FETCH;
}

static int act_focus(struct tui_state *st, int key)
{
	if (!st->list_on) {
		snprintf(st->msg, sizeof(st->msg), "the event list is hidden (v shows it)");
		return TUI_REDRAW;
	}
	st->list_focus = !st->list_focus;
	snprintf(st->msg, sizeof(st->msg), "%s", st->list_focus ?
		 "keys move in the event list (j/k, PgUp/PgDn, Enter: an episode's events)" :
		 "keys move in the lanes");
	return TUI_REDRAW;
}

static int act_list_size(struct tui_state *st, int key)
{
	struct tui_layout l;

	if (!st->list_on)
		return TUI_REDRAW;
	tui_layout(st, tl_model_nrows(st->m), &l);
	st->list_rows = l.list_h + (key == ')' ? 2 : -2);
	if (st->list_rows < 4)
		st->list_rows = 4;
	return MOVE | TUI_FETCH;
}

/* A click moves the cursor to the column (and selects the lane or the list line); the wheel
 * zooms around the column under the pointer. */
static int act_mouse(struct tui_state *st, int key)
{
	struct tui_layout l;
	const struct tui_mouse *ms = &st->mouse;
	int col, row;

	if (st->view != TUI_MAIN)
		return TUI_REDRAW;
	tui_layout(st, tl_model_nrows(st->m), &l);
	col = ms->x - l.plot_x;
	if (ms->button == TB_CLICK && l.list_h && ms->y > l.list_y &&
	    ms->y < l.list_y + l.list_h) {
		int i = st->list_top + ms->y - l.list_y - 1;

		st->list_focus = true;
		if (st->lst_valid && i >= 0 && i < st->nlst)
			return list_move(st, i - st->list_sel);
		return TUI_REDRAW;
	}
	if (col < 0 || col >= l.plot_w || ms->y < l.lanes_y - 2 || ms->y >= l.lanes_y + l.lanes_h)
		return TUI_REDRAW;
	tl_model_cursor_set(st->m, tl_model_col_ts(st->m, col));
	if (ms->button == TB_WHEEL_UP || ms->button == TB_WHEEL_DOWN) {
		tl_model_zoom(st->m, ms->button == TB_WHEEL_UP ? 1 : -1);
		return MOVE;
	}
	row = tui_layout_lane_at(st, &l, ms->y);
	if (row >= 0 && row < tl_model_nrows(st->m))
		tl_model_select_row(st->m, row - tl_model_selected_row(st->m));
	st->list_focus = false;
	return MOVE;
}

static int act_redraw(struct tui_state *st, int key)
{
	return TUI_REDRAW | TUI_RECOMPUTE;
}

static int act_scroll_home_end(struct tui_state *st, int key)
{
	st->scroll = key == TK_HOME ? 0 : 1 << 20;	/* the screen clamps it */
	return TUI_REDRAW;
}

static const struct tui_keydef table[] = {
	{ { '?' }, "?", "help (this screen); again or Esc to leave", TUI_IN_ALL, act_help },
	{ { 'q', 'Q' }, "q", "quit", TUI_IN_ALL, act_quit },
	{ { TK_CTRL_C }, "Ctrl-C", "quit, also from the filter prompt", TUI_IN_ALL, act_quit },
	{ { TK_ESC }, "Esc", "back: from an episode's events, to the timeline; clear the message",
	  TUI_IN_ALL, act_back },
	{ { 'd' }, "d", "details of the cursor column or of A-B (lists, contexts, cgroups, "
	  "events)", TUI_IN_MAIN | TUI_IN_DETAILS, act_details },
	{ { 'v' }, "v", "show / hide the event list", TUI_IN_MAIN, act_list },
	{ { TK_TAB }, "Tab", "keys move in the lanes or in the event list (Enter there: the "
	  "episode's events)", TUI_IN_MAIN, act_focus },
	{ { TK_TAB }, NULL, NULL, TUI_IN_DETAILS, act_details },
	{ { '(', ')' }, "( )", "event list smaller / larger", TUI_IN_MAIN, act_list_size },
	{ { TK_MOUSE }, "mouse", "click: cursor and lane (or list line); wheel: zoom",
	  TUI_IN_MAIN, act_mouse },
	{ { '+', '=' }, "+ =", "zoom in (x2, around the cursor)", TUI_IN_MAIN, act_zoom },
	{ { '-', '_' }, "-", "zoom out", TUI_IN_MAIN, act_zoom },
	{ { '0' }, "0", "the whole trace", TUI_IN_MAIN, act_zoom_all },
	{ { 'z' }, "z", "zoom to the A-B window, or to the selected stall", TUI_IN_MAIN,
	  act_zoom_marked },
	{ { 'h', TK_LEFT, 'l', TK_RIGHT }, "h l Left Right", "move the cursor a column",
	  TUI_IN_MAIN | TUI_IN_DETAILS, act_cursor },
	{ { 'H', 'L', TK_SLEFT, TK_SRIGHT }, "H L [ ]", "pan half a screen", TUI_IN_MAIN, act_pan },
	{ { '[', ']' }, NULL, NULL, TUI_IN_MAIN, act_pan },
	{ { TK_HOME, TK_END }, "Home End", "cursor to the start / end of the trace", TUI_IN_MAIN,
	  act_home_end },
	{ { TK_HOME, TK_END }, NULL, NULL, TUI_IN_HELP | TUI_IN_DETAILS, act_scroll_home_end },
	{ { 'k', TK_UP, 'j', TK_DOWN }, "j k Up Down", "select a lane or, list focused, an "
	  "event (help, details: scroll)",
	  TUI_IN_ALL, act_row },
	{ { TK_PGUP, TK_PGDN }, "PgUp PgDn", "a page of lanes (help, details: scroll)",
	  TUI_IN_ALL, act_row },
	{ { ' ', TK_ENTER }, "Space Enter", "expand / collapse the selected lane's sub-lanes",
	  TUI_IN_MAIN, act_expand },
	{ { 'g' }, "g", "sub-lanes by task, trigger cgroup or victim cgroup", TUI_IN_MAIN,
	  act_group },
	{ { 't' }, "t", "hide the selected lane", TUI_IN_MAIN, act_hide },
	{ { 'T' }, "T", "show every lane, empty ones too", TUI_IN_MAIN, act_show_all },
	{ { 'm' }, "m", "metric: scanned, reclaimed, efficiency, stall time", TUI_IN_MAIN,
	  act_metric },
	{ { '1', '2', '3', '4' }, "1-4", "metric scanned / reclaimed / efficiency / stall time",
	  TUI_IN_MAIN, act_metric },
	{ { 'a', 'b' }, "a b", "put marker A / B at the cursor", TUI_IN_MAIN | TUI_IN_DETAILS,
	  act_marker },
	{ { 'x' }, "x", "clear the markers", TUI_IN_MAIN | TUI_IN_DETAILS, act_clear_markers },
	{ { 'n', 'N' }, "n N", "next / previous stall at least the threshold long",
	  TUI_IN_MAIN | TUI_IN_DETAILS, act_jump },
	{ { 'w' }, "w", "the worst stall (zoomed to it)", TUI_IN_MAIN | TUI_IN_DETAILS, act_jump },
	{ { '{', '}', '<', '>' }, "{ }", "halve / double the stall threshold (default 10 ms)",
	  TUI_IN_MAIN | TUI_IN_DETAILS, act_threshold },
	{ { '/' }, "/", "filter sub-lanes and stalls by task or cgroup (Enter applies; empty "
	  "clears)", TUI_IN_MAIN, act_search },
	{ { 'c' }, "c", "clear the filter", TUI_IN_MAIN, act_clear_filter },
	{ { 'e' }, "e", "details: every event, or reclaim events only", TUI_IN_MAIN |
	  TUI_IN_DETAILS, act_all_events },
	{ { TK_CTRL_L }, "Ctrl-L", "redraw", TUI_IN_ALL, act_redraw },
	{ { TK_RESIZE }, NULL, NULL, TUI_IN_ALL, act_redraw },
};

#define NR_KEYS ((int)(sizeof(table) / sizeof(table[0])))

const struct tui_keydef *tui_keytable(int *n)
{
	*n = NR_KEYS;
	return table;
}

static int prompt_key(struct tui_state *st, int key)
{
	switch (key) {
	case TK_CTRL_C:
		return TUI_QUIT;
	case TK_ESC:
		st->prompt = false;
		return TUI_REDRAW;
	case TK_ENTER: {
		int n;

		st->prompt = false;
		n = tl_model_set_filter(st->m, st->prompt_buf);
		if (st->prompt_buf[0])
			snprintf(st->msg, sizeof(st->msg), "filter '%s': %d sub-lane%s",
				 st->prompt_buf, n, n == 1 ? "" : "s");
		else
			snprintf(st->msg, sizeof(st->msg), "filter cleared");
		return MOVE;
	}
	case TK_BACKSPACE:
	case 8:
		if (st->prompt_len > 0)
			st->prompt_buf[--st->prompt_len] = '\0';
		return TUI_REDRAW;
	case TK_RESIZE:
		return TUI_REDRAW | TUI_RECOMPUTE;
	default:
		if (key >= 0x20 && key < 0x7f &&
		    st->prompt_len < (int)sizeof(st->prompt_buf) - 1) {
			st->prompt_buf[st->prompt_len++] = (char)key;
			st->prompt_buf[st->prompt_len] = '\0';
		}
		return TUI_REDRAW;
	}
}

int tui_dispatch(struct tui_state *st, int key)
{
	unsigned int view = 1u << st->view;

	if (key == TK_TIMEOUT || key == TK_NONE)
		return 0;
	if (st->prompt)
		return prompt_key(st, key);
	if (key != TK_RESIZE)
		st->msg[0] = '\0';
	st->list_follow = true;		/* list_move() clears it: the list leads the cursor */
	for (int i = 0; i < NR_KEYS; i++) {
		if (!(table[i].views & view))
			continue;
		for (int k = 0; k < 4 && table[i].keys[k]; k++)
			if (table[i].keys[k] == key)
				return table[i].fn(st, key);
	}
	if (key >= 0x20 && key < 0x7f)
		snprintf(st->msg, sizeof(st->msg), "'%c' does nothing here; ? lists the keys",
			 key);
	return TUI_REDRAW;
}

void tui_keep_visible(struct tui_state *st, const struct tui_layout *l)
{
	int sel = tl_model_selected_row(st->m), n = tl_model_nrows(st->m);
	int shown = l->lane_h > 0 ? l->lanes_h / l->lane_h : 0, rows = l->list_h - 1;

	if (shown > 0) {
		if (sel < st->row_top)
			st->row_top = sel;
		if (sel >= st->row_top + shown)
			st->row_top = sel - shown + 1;
		if (st->row_top > n - shown)
			st->row_top = n - shown;
		if (st->row_top < 0)
			st->row_top = 0;
	}
	if (rows > 0) {
		if (st->list_sel < st->list_top)
			st->list_top = st->list_sel;
		if (st->list_sel >= st->list_top + rows)
			st->list_top = st->list_sel - rows + 1;
		if (st->list_top < 0)
			st->list_top = 0;
	}
}

static const struct { const char *name; int key; } named[] = {
	{ "Left", TK_LEFT }, { "Right", TK_RIGHT }, { "Up", TK_UP }, { "Down", TK_DOWN },
	{ "Home", TK_HOME }, { "End", TK_END }, { "PgUp", TK_PGUP }, { "PgDn", TK_PGDN },
	{ "S-Left", TK_SLEFT }, { "S-Right", TK_SRIGHT }, { "Enter", TK_ENTER },
	{ "Esc", TK_ESC }, { "Tab", TK_TAB }, { "Space", ' ' }, { "BS", TK_BACKSPACE },
	{ "C-c", TK_CTRL_C }, { "C-l", TK_CTRL_L }, { "Delete", TK_DELETE },
	{ "KEY_LEFT", TK_LEFT }, { "KEY_RIGHT", TK_RIGHT }, { "KEY_UP", TK_UP },
	{ "KEY_DOWN", TK_DOWN }, { "KEY_HOME", TK_HOME }, { "KEY_END", TK_END },
	{ "KEY_PPAGE", TK_PGUP }, { "KEY_NPAGE", TK_PGDN }, { "KEY_ENTER", TK_ENTER },
};

int tui_key_parse(const char *tok, int *w, int *h)
{
	if (!strncmp(tok, "KEY_RESIZE:", 11) || !strncmp(tok, "resize:", 7)) {
		const char *p = strchr(tok, ':') + 1;

		if (sscanf(p, "%dx%d", w, h) != 2 || *w < 1 || *h < 1 || *w > 1000 || *h > 1000)
			return -2;
		return TK_RESIZE;
	}
	if (!strncmp(tok, "type:", 5))
		return TK_NONE;
	if (!strncmp(tok, "click:", 6) || !strncmp(tok, "wheelup:", 8) ||
	    !strncmp(tok, "wheeldown:", 10)) {
		/* the position goes back in w, h; the button in the token's name */
		if (sscanf(strchr(tok, ':') + 1, "%d,%d", w, h) != 2 || *w < 0 || *h < 0 ||
		    *w > 1000 || *h > 1000)
			return -2;
		return TK_MOUSE;
	}
	if (tok[0] && !tok[1])
		return (unsigned char)tok[0];
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(tok, named[i].name))
			return named[i].key;
	return -2;
}
