// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI's screen: the only file that calls curses (htop CRT.c plays this part).
 *
 * It opens the terminal, or a headless pseudo screen (newterm() on /dev/null, resized to the
 * size asked for) whose text tui_screen_dump() reads back for the tests; translates curses
 * keys to TK_* codes; and draws a struct tui_state and its model: header, time axis, lanes,
 * details pane, status line; the help and details screens. Drawing reads the model and the
 * state and decides nothing about them. Glyphs are Unicode blocks when the locale's codeset
 * is UTF-8 and ASCII otherwise; colours only when the terminal has them and NO_COLOR is not
 * set, and nothing depends on them (the cursor column is reverse video, the selected lane has
 * a '>').
 */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <wchar.h>

#include "tui.h"
#include "text_escape.h"

struct tui_screen {
	SCREEN *scr;
	FILE *out, *in;
	bool headless, utf8, color;
	struct tui_mouse mouse;		/* of the last KEY_MOUSE */
};

void tui_screen_mouse(const struct tui_screen *s, struct tui_mouse *m)
{
	*m = s->mouse;
}

enum { P_ANON = 1, P_FILE, P_STALL, P_KSWAPD, P_MARK, P_OTHER };

static const char *const ramp_utf8[9] = {
	" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"
};
static const char *const ramp_ascii[9] = { " ", ".", ":", "-", "=", "+", "*", "#", "@" };

static bool locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

struct tui_screen *tui_screen_open(bool headless, int w, int h, struct rs_error *err)
{
	struct tui_screen *s = calloc(1, sizeof(*s));
	const char *nc = getenv("NO_COLOR");

	if (!s) {
		rs_error_set(err, "out of memory");
		return NULL;
	}
	setlocale(LC_ALL, "");
	s->utf8 = locale_utf8();
	s->headless = headless;
	if (headless) {
		static const char *const terms[] = { "xterm", "vt100", "ansi", "dumb" };

		s->out = fopen("/dev/null", "w");
		s->in = fopen("/dev/null", "r");
		if (!s->out || !s->in) {
			rs_error_set(err, "cannot open /dev/null for the headless screen");
			goto out_free;
		}
		for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]) && !s->scr; i++)
			s->scr = newterm(terms[i], s->out, s->in);
		if (!s->scr) {
			rs_error_set(err, "no terminfo entry for a headless screen (xterm, vt100)");
			goto out_free;
		}
	} else {
		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
			rs_error_set(err, "needs a terminal (for a script, set RS_TUI_SCRIPT; "
				     "docs/tui.md)");
			goto out_free;
		}
		const char *name;

		if (!tui_term_pick(&name)) {
			/* before the screen: the terminal shows it again at exit */
			if (name)
				fprintf(stderr, "reclaimscope: tui: the terminal '%s' (TERM) has no "
					"terminfo entry; using %s\n",
					rs_esc(getenv("TERM") ? getenv("TERM") : ""), name);
			s->scr = newterm(name, stdout, stdin);
		}
		if (!s->scr) {
			rs_error_set(err, "cannot set up the terminal '%s' (TERM)",
				     getenv("TERM") ? getenv("TERM") : "");
			goto out_free;
		}
	}
	set_term(s->scr);
	if (!headless) {
		const char *cup = tigetstr("cup");

		/* TERM=dumb and the like: curses could only scroll lines out */
		if (!cup || cup == (char *)-1) {
			rs_error_set(err, "the terminal '%s' cannot move the cursor, which the "
				     "browser needs; set TERM to one that can (xterm, vt100), or "
				     "use `reclaimscope analyze` for a text report",
				     getenv("TERM") ? getenv("TERM") : "");
			endwin();
			delscreen(s->scr);
			s->scr = NULL;
			goto out_free;
		}
	}
	raw();			/* Ctrl-C is a key: the terminal is always restored */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	/* clicks and the wheel (buttons 4 and 5), as KernelShark users expect */
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	set_escdelay(25);
	curs_set(0);
	if (headless)
		resizeterm(h, w);
	s->color = has_colors() && !(nc && *nc);
	if (s->color) {
		start_color();
		use_default_colors();
		init_pair(P_ANON, COLOR_YELLOW, -1);
		init_pair(P_FILE, COLOR_CYAN, -1);
		init_pair(P_STALL, COLOR_RED, -1);
		init_pair(P_KSWAPD, COLOR_GREEN, -1);
		init_pair(P_MARK, COLOR_MAGENTA, -1);
		init_pair(P_OTHER, COLOR_BLUE, -1);
	}
	return s;
out_free:
	if (s->out)
		fclose(s->out);
	if (s->in)
		fclose(s->in);
	free(s);
	return NULL;
}

void tui_screen_close(struct tui_screen *s)
{
	if (!s)
		return;
	endwin();
	delscreen(s->scr);
	if (s->out)
		fclose(s->out);
	if (s->in)
		fclose(s->in);
	free(s);
}

bool tui_screen_utf8(const struct tui_screen *s)
{
	return s->utf8;
}

bool tui_screen_color(const struct tui_screen *s)
{
	return s->color;
}

void tui_screen_size(struct tui_screen *s, int *w, int *h)
{
	int y, x;

	getmaxyx(stdscr, y, x);
	*w = x;
	*h = y;
}

void tui_screen_resize(struct tui_screen *s, int w, int h)
{
	resizeterm(h, w);
}

int tui_screen_key(struct tui_screen *s, int timeout_ms)
{
	wint_t ch;
	int r;

	wtimeout(stdscr, timeout_ms);
	r = wget_wch(stdscr, &ch);
	if (r == ERR)
		return TK_TIMEOUT;
	if (r == KEY_CODE_YES) {
		switch (ch) {
		case KEY_LEFT: return TK_LEFT;
		case KEY_RIGHT: return TK_RIGHT;
		case KEY_UP: return TK_UP;
		case KEY_DOWN: return TK_DOWN;
		case KEY_HOME: return TK_HOME;
		case KEY_END: return TK_END;
		case KEY_PPAGE: return TK_PGUP;
		case KEY_NPAGE: return TK_PGDN;
		case KEY_SLEFT: return TK_SLEFT;
		case KEY_SRIGHT: return TK_SRIGHT;
		case KEY_ENTER: return TK_ENTER;
		case KEY_BACKSPACE: return TK_BACKSPACE;
		case KEY_DC: return TK_DELETE;
		case KEY_RESIZE: return TK_RESIZE;
		case KEY_BTAB: return TK_TAB;
		case KEY_MOUSE: {
			MEVENT me;

			if (getmouse(&me) != OK)
				return TK_NONE;
			s->mouse = (struct tui_mouse){ TB_NONE, me.x, me.y };
			if (me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
				s->mouse.button = TB_CLICK;
			else if (me.bstate & BUTTON4_PRESSED)
				s->mouse.button = TB_WHEEL_UP;
#ifdef BUTTON5_PRESSED
			else if (me.bstate & BUTTON5_PRESSED)
				s->mouse.button = TB_WHEEL_DOWN;
#endif
			return s->mouse.button == TB_NONE ? TK_NONE : TK_MOUSE;
		}
		default: return TK_NONE;
		}
	}
	switch (ch) {
	case '\n':
	case '\r':
		return TK_ENTER;
	case 8:
	case 127:
		return TK_BACKSPACE;
	default:
		return ch < 0x80 ? (int)ch : TK_NONE;
	}
}

/* ---- drawing helpers ---- */

/* Every string goes to the screen through here: strings from the trace (task names, paths,
 * markers) must not drive the terminal (text_escape.h). */
static void put(int y, int x, int maxw, const char *str)
{
	char buf[4096];

	if (maxw > 0)
		mvaddnstr(y, x, rs_escape(buf, sizeof(buf), str), maxw);
}

/* A line padded to the width, in reverse video. */
static void bar(int y, int w, const char *str)
{
	attron(A_REVERSE);
	mvhline(y, 0, ' ', w);
	put(y, 0, w, str);
	attroff(A_REVERSE);
}

static int lane_pair(int lane)
{
	static const int pairs[] = {
		[TL_K_ANON] = P_ANON, [TL_K_FILE] = P_FILE, [TL_K_STALL] = P_STALL,
		[TL_K_KSWAPD] = P_KSWAPD, [TL_K_MARK] = P_MARK, [TL_K_OTHER] = P_OTHER,
	};

	return pairs[tl_lane_def(lane)->kind];
}


static bool is_span_lane(int lane)
{
	return lane >= TL_L_KSWAPD && lane <= TL_L_NODE;
}

/*
 * The figure a lane's label shows for the view, with what it is: the peak rate in view for
 * rates ("max 1.2M/s": every cell is scaled to it), the average share for shares ("avg 54%"),
 * the lowest priority reached, a count of marks. `words` false: the short form ("1.2M/s").
 */
static void row_figure(struct tl_model *m, const struct tl_row *r, bool words, char *buf,
		       size_t n)
{
	uint64_t t0, t1;
	char v[16];

	tl_model_window(m, &t0, &t1);
	buf[0] = '\0';
	switch (r->scale) {
	case TL_SCALE_RATE:
		if (r->max > 0) {
			tui_fmt_num(v, sizeof(v), r->max);
			snprintf(buf, n, "%s%s/s", words ? "max " : "", v);
		}
		break;
	case TL_SCALE_FRACTION:
		if (r->lane == TL_L_EFFICIENCY || tl_model_metric(m) == TL_M_EFFICIENCY) {
			if (r->lane != TL_L_THROTTLE && (r->sum > 0 || r->max > 0))
				snprintf(buf, n, "%s%.0f%%", words ? "avg " : "", r->sum * 100);
		} else if (r->lane == TL_L_THROTTLE) {
			if (r->max > 0)
				snprintf(buf, n, "%s%.0f%%", words ? "max " : "", r->max * 100);
		} else if (r->sum > 0) {
			double pct = r->sum * 100 / (double)(t1 - t0);

			snprintf(buf, n, pct >= 9.5 ? "%s%.0f%%" : "%s%.1f%%", words ? "avg " : "",
				 pct);
		}
		break;
	case TL_SCALE_PRIORITY:
		if (r->max > 0)
			snprintf(buf, n, "%sp%d", words ? "min " : "",
				 RS_PRIO_DEF + 1 - (int)r->max);
		break;
	case TL_SCALE_MARK:
		if (r->sum > 0)
			snprintf(buf, n, "%.0f", r->sum);
		break;
	}
}

/* Label text of a row: selection mark, name (basename for cgroups), figure. */
static void row_label(struct tl_model *m, const struct tl_row *r, bool sel, int w, char *out)
{
	char name[TL_NAME_MAX + 2], fig[24] = "";
	const char *nm = r->name;
	int namew;

	if (r->sub >= 0) {
		const char *slash = strrchr(nm, '/'), *colon = strrchr(nm, ':');
		int avail = w - 2;

		if (tl_model_group(m) != TL_G_TASK && slash && slash[1])
			nm = slash;
		if (tl_model_group(m) == TL_G_TASK && colon && (int)strlen(nm) > avail &&
		    (int)strlen(colon) < avail) {
			/* keep the pid: cut the comm */
			int keep = avail - (int)strlen(colon);

			snprintf(name, sizeof(name), " %.*s%s", keep, nm, colon);
		} else {
			snprintf(name, sizeof(name), " %s", nm);
		}
	} else {
		const char *lane = tl_model_lane_name(m, r->lane), *exp = r->expandable ?
			(r->expanded ? "-" : "+") : "";

		if (w >= 9)
			row_figure(m, r, w >= 25, fig, sizeof(fig));
		/* the kernel's list name where it fits beside the figure, else the short one */
		if ((int)(strlen(lane) + strlen(exp) + strlen(fig)) + 2 > w)
			lane = tl_model_lane_short(m, r->lane);
		snprintf(name, sizeof(name), "%s%s", lane, exp);
	}
	namew = w - 1 - (int)strlen(fig);
	if (fig[0])
		namew--;
	if (namew < 1)
		namew = 1;
	snprintf(out, (size_t)w + 1, "%c%-*.*s%s%s", sel ? '>' : ' ', namew, namew, name,
		 fig[0] ? " " : "", fig);
}

/*
 * What one cell shows: a bar filled to frac (0..1] of the lane's height, a mark, or a span
 * with no value of the metric ('~'). Returns false for a blank cell.
 */
struct cell_look {
	double frac;		/* > 0: a bar */
	const char *mark;	/* else this glyph, in the lane's bottom row */
};

static bool cell_look(struct tl_model *m, const struct tl_row *r, const struct tl_cell *c,
		      bool utf8, struct cell_look *lk)
{
	bool span = is_span_lane(r->lane);

	lk->frac = 0;
	lk->mark = NULL;
	switch (r->scale) {
	case TL_SCALE_MARK:
		lk->mark = c->flags & TL_CELL_OOM ? "X" : c->flags & TL_CELL_LOST ? "!" :
			   c->flags & TL_CELL_KFAIL ? "F" : c->flags & TL_CELL_KCLEAR ? "C" : NULL;
		return lk->mark != NULL;
	case TL_SCALE_PRIORITY:
		if (c->flags & TL_CELL_DATA)
			lk->frac = c->v / 13.0;
		break;
	case TL_SCALE_RATE:
		if (c->v > 0 && r->max > 0)
			lk->frac = c->v / r->max;
		break;
	case TL_SCALE_FRACTION:
		if (span && tl_model_metric(m) == TL_M_STALL)
			lk->frac = c->cover;
		else if (c->flags & TL_CELL_DATA && (!span || r->lane == TL_L_THROTTLE ||
						     tl_model_metric(m) == TL_M_EFFICIENCY) &&
			 (c->v > 0 || !span || r->sub < 0))
			lk->frac = c->v > 0 ? c->v : 1e-9;
		break;
	}
	if (lk->frac > 1)
		lk->frac = 1;
	if (lk->frac > 0)
		return true;
	if (span && c->cover > 0)
		lk->mark = utf8 ? "\u2500" : "~";
	return lk->mark != NULL;
}

/* The glyph of row `k` (0: the top) of a bar of `h` rows filled to frac; NULL for blank. */
static const char *bar_glyph(double frac, int k, int h, bool utf8)
{
	const char *const *ramp = utf8 ? ramp_utf8 : ramp_ascii;
	int eighths = (int)(frac * 8 * h + 0.999), below = (h - 1 - k) * 8, in;

	if (eighths < 1)
		eighths = 1;
	in = eighths - below;
	if (in <= 0)
		return NULL;
	return ramp[in > 8 ? 8 : in];
}

/* A nice tick step (1, 2, 5 x 10^k ns) of at least `min` ns, and its decimals in seconds. */
static uint64_t tick_step(uint64_t min, int *decimals)
{
	uint64_t p = 1;
	int k = 0;

	for (;;) {
		static const int mult[3] = { 1, 2, 5 };

		for (int i = 0; i < 3; i++) {
			if (p * (uint64_t)mult[i] >= min) {
				*decimals = k >= 9 ? 0 : 9 - k;
				return p * (uint64_t)mult[i];
			}
		}
		if (p > UINT64_MAX / 100)
			break;
		p *= 10;
		k++;
	}
	*decimals = 0;
	return p;
}

static void draw_axis(struct tui_state *st, const struct tui_layout *l)
{
	struct tl_model *m = st->m;
	uint64_t t0, t1, cw = tl_model_col_width(m), step, tick;
	int dec, next_free = 0, cur = tl_model_cursor_col(m);
	const char *hz = st->utf8 ? "\u2500" : "-", *tk = st->utf8 ? "\u252c" : "+";

	tl_model_window(m, &t0, &t1);
	put(1, 0, l->label_w - 1, l->label_w > 8 ? "time (s)" : "s");
	step = tick_step(cw * 14, &dec);
	for (int c = 0; c < l->plot_w; c++)
		mvaddstr(2, l->plot_x + c, hz);
	for (tick = (t0 + step - 1) / step * step; tick < t1; tick += step) {
		int c = (int)((tick - t0) / cw);
		char lab[32];

		if (c >= l->plot_w)
			break;
		mvaddstr(2, l->plot_x + c, tk);
		tui_fmt_ts(lab, sizeof(lab), tick, dec);
		if (c >= next_free && c + (int)strlen(lab) <= l->plot_w) {
			put(1, l->plot_x + c, l->plot_w - c, lab);
			next_free = c + (int)strlen(lab) + 1;
		}
	}
	/* the selected stall's edges */
	if (tl_model_selected_span(m)) {
		const struct tl_span *sp = tl_model_selected_span(m);

		if (sp->begin >= t0 && sp->begin < t1)
			mvaddstr(2, l->plot_x + (int)((sp->begin - t0) / cw), "[");
		if (sp->end >= t0 && sp->end < t1)
			mvaddstr(2, l->plot_x + (int)((sp->end - t0) / cw), "]");
	}
	for (int w = 0; w < 2; w++) {
		int c = tl_model_marker_col(m, w);

		if (c >= 0 && c < l->plot_w)
			mvaddstr(2, l->plot_x + c, w ? "B" : "A");
	}
	/* what the lanes are grouped by and what their figures mean */
	{
		char hd[64];

		snprintf(hd, sizeof(hd), l->label_w >= 25 ? "lanes by %s" : "by %s",
			 tl_group_name(tl_model_group(m)));
		put(2, 0, l->label_w - 1, hd);
	}
	if (cur >= 0 && cur < l->plot_w) {
		attron(A_BOLD);
		mvaddstr(2, l->plot_x + cur, st->utf8 ? "\u25bc" : "v");
		attroff(A_BOLD);
	}
}

static void draw_header(struct tui_state *st, int w)
{
	struct tl_model *m = st->m;
	uint64_t t0, t1, cw = tl_model_col_width(m);
	char a[32], b[32], d[32], c[32], line[512], extra[160] = "";
	int dec = 0;

	tl_model_window(m, &t0, &t1);
	tick_step(cw, &dec);
	tui_fmt_ts(a, sizeof(a), t0, dec);
	tui_fmt_ts(b, sizeof(b), t1, dec);
	tui_fmt_dur(d, sizeof(d), t1 - t0);
	tui_fmt_dur(c, sizeof(c), cw);
	if (tl_model_filter(m)[0])
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra), " filter '%s'",
			 tl_model_filter(m));
	if (st->loading)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra), " loading %.0f%%",
			 st->progress * 100);
	else if (st->load_error[0])
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra), " LOAD FAILED");
	else if (!st->events)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra), " (no events)");
	/* the state first: it must show in 80 columns */
	snprintf(line, sizeof(line), " %s  [%s]%s  %s-%s s  %s  %s/col%s", st->trace_name,
		 tl_metric_name(tl_model_metric(m)), extra, a, b, d, c,
		 tl_model_level(m) < 0 ? " exact" : "");
	bar(0, w, line);
}

/* The selected stall's row: the one its episode is drawn in (its sub-lane when expanded). */
static bool is_sel_row(const struct tl_row *r, const struct tl_cell *cells, int ncols)
{
	for (int c = 0; c < ncols; c++)
		if (cells[c].flags & TL_CELL_SEL)
			return r != NULL;
	return false;
}

static void draw_lanes(struct tui_state *st, const struct tui_layout *l)
{
	struct tl_model *m = st->m;
	int n = tl_model_nrows(m), sel = tl_model_selected_row(m), cur = tl_model_cursor_col(m);
	int ncols = tl_model_columns(m), mark[2];
	const char *sep = st->utf8 ? "\u2502" : "|", *vline = st->utf8 ? "\u2502" : "|";
	char label[64];

	if (!n) {
		put(l->lanes_y, 0, l->plot_x + l->plot_w, "(no lanes: T shows them all)");
		return;
	}
	for (int w = 0; w < 2; w++)
		mark[w] = tl_model_marker_col(m, w);
	for (int y = 0; y + l->lane_h <= l->lanes_h; y += l->lane_h) {
		int i = st->row_top + y / l->lane_h;
		const struct tl_row *r = tl_model_row(m, i);
		const struct tl_cell *cells = tl_model_cells(m, i);
		bool band;
		int pair = 0;

		if (!r || !cells)
			break;
		pair = st->color ? lane_pair(r->lane) : 0;
		band = is_sel_row(r, cells, ncols);
		row_label(m, r, i == sel, l->label_w - 1, label);
		if (i == sel)
			attron(A_BOLD);
		put(l->lanes_y + y, 0, l->label_w - 1, label);
		if (i == sel)
			attroff(A_BOLD);
		for (int k = 0; k < l->lane_h; k++)
			mvaddstr(l->lanes_y + y + k, l->label_w - 1, sep);
		for (int c = 0; c < l->plot_w && c < ncols; c++) {
			struct cell_look lk;
			bool has = cell_look(m, r, &cells[c], st->utf8, &lk);

			for (int k = 0; k < l->lane_h; k++) {
				const char *g = NULL;
				attr_t at = 0;

				if (has && lk.frac > 0)
					g = bar_glyph(lk.frac, k, l->lane_h, st->utf8);
				else if (has && k == l->lane_h - 1)
					g = lk.mark;
				/* markers A and B: a line through every lane */
				if (!g && (c == mark[0] || c == mark[1]))
					g = vline;
				if (pair)
					at |= COLOR_PAIR(pair);
				/* the selected stall: a band from its begin to its end */
				if (band && cells[c].flags & TL_CELL_SEL)
					at |= A_REVERSE;
				if (c == cur)
					at ^= A_REVERSE;
				if (at)
					attron(at);
				mvaddstr(l->lanes_y + y + k, l->plot_x + c, g ? g : " ");
				if (at)
					attroff(at);
			}
		}
	}
}

/* The event list pane: a title bar, then the events from the list's anchor on. */
static void draw_list(struct tui_state *st, const struct tui_layout *l, int w)
{
	char title[256], t[32], d[32];
	int rows = l->list_h - 1;

	if (st->nest) {
		tui_fmt_ts(t, sizeof(t), st->nest_t0, 6);
		tui_fmt_dur(d, sizeof(d), st->nest_t1 - st->nest_t0);
		snprintf(title, sizeof(title), " events of pid %d in its episode from %s s (%s)%s"
			 "  Esc: all events", st->nest_pid, t, d,
			 st->list_focus ? "  [focus]" : "");
	} else {
		tui_fmt_ts(t, sizeof(t), st->list_anchor, 6);
		snprintf(title, sizeof(title), " events from %s s (%s%s)%s  Tab: %s  v: hide",
			 t, st->all_events ? "every event" : "reclaim events",
			 tl_model_filter(st->m)[0] ? ", filtered" : "",
			 st->list_focus ? "  [focus: j/k move, Enter: episode]" : "",
			 st->list_focus ? "lanes" : "focus");
	}
	bar(l->list_y, w, title);
	if (!st->lst_valid) {
		put(l->list_y + 1, 0, w, "  (not read)");
		return;
	}
	if (!st->nlst) {
		put(l->list_y + 1, 0, w, "  (no event from here on)");
		return;
	}
	for (int i = 0; i < rows && st->list_top + i < st->nlst; i++) {
		int k = st->list_top + i;
		bool s = k == st->list_sel;

		/* the selected event: '>' (no colour needed), reverse video when focused */
		if (s)
			attron(st->list_focus ? A_REVERSE : A_BOLD);
		if (s && st->list_focus)
			mvhline(l->list_y + 1 + i, 0, ' ', w);
		put(l->list_y + 1 + i, 0, 1, s ? ">" : " ");
		put(l->list_y + 1 + i, 1, w - 1, st->lst[k].text);
		if (s)
			attroff(st->list_focus ? A_REVERSE : A_BOLD);
	}
}

/* ---- details ---- */

struct lines {
	char (*l)[256];
	int n, cap;
};

/* An empty buffer of cap lines (free ls->l); false when out of memory: then draw nothing */
static bool lines_alloc(struct lines *ls, int cap)
{
	*ls = (struct lines){ calloc((size_t)cap, sizeof(*ls->l)), 0, cap };
	return ls->l != NULL;
}

static void addl(struct lines *ls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addl(struct lines *ls, const char *fmt, ...)
{
	va_list ap;

	if (ls->n >= ls->cap)
		return;
	va_start(ap, fmt);
	vsnprintf(ls->l[ls->n++], sizeof(ls->l[0]), fmt, ap);
	va_end(ap);
}

static double pct(double a, double b)
{
	return b > 0 ? 100 * a / b : 0;
}

static const char *num(char *buf, double v)
{
	tui_fmt_num(buf, 16, v);
	return buf;
}

static void span_line(struct tl_model *m, const struct tl_span *s, char *out, size_t n)
{
	const struct tl_victim *v = tl_index_victims(tl_model_index(m)) + s->victim_off;
	char d[32], tn[64], vic[128] = "", b1[16], b2[16];

	tui_fmt_dur(d, sizeof(d), s->end - s->begin);
	tl_model_task_name(m, s->task, tn, sizeof(tn));
	for (int i = 0; i < s->nr_victims && strlen(vic) < sizeof(vic) - 40; i++)
		snprintf(vic + strlen(vic), sizeof(vic) - strlen(vic), "%s%s %s", i ? ", " : "",
			 tl_model_cgroup_name(m, v[i].cg), num(b1, v[i].scanned));
	/* scanned: its own shrink events (a nested soft-limit pass counts in its own episode);
	   reclaimed: the end event's nr_reclaimed, which counts nested passes and slab too */
	snprintf(out, n, "%s %s %s, scanned %s by itself, nr_reclaimed %s%s, trigger %s%s%s, "
		 "victims %s%s%s", rs_ctx_name(s->kind), tn, d, num(b1, s->scanned),
		 num(b2, s->reclaimed), s->kind != RS_CTX_KSWAPD && s->status == RS_EP_COMPLETE ?
		 " (end event: nested passes, slab too)" : "",
		 tl_model_cgroup_name(m, s->trigger), s->target ? ", target " : "",
		 s->target ? tl_model_cgroup_name(m, s->target) : "",
		 s->nr_victims ? vic : "unknown",
		 s->status != RS_EP_COMPLETE ? ", " : "",
		 s->status != RS_EP_COMPLETE ? rs_ep_status_name(s->status) : "");
}

/* The figures of the details range, as text lines; `full` adds the tables. */
static void details_lines(struct tui_state *st, struct lines *ls, bool full)
{
	struct tl_model *m = st->m;
	const struct tl_span *sel = tl_model_selected_span(m);
	static const char *const lists[4] = { "inactive_anon", "active_anon", "inactive_file",
					      "active_file" };
	static const int ctxs[] = { RS_CTX_KSWAPD, RS_CTX_DIRECT, RS_CTX_MEMCG, RS_CTX_SOFTLIMIT,
				    RS_CTX_NODE, RS_CTX_OTHER };
	struct tl_stats s;
	uint64_t t0, t1, a;
	bool marked;
	char x[32], y[32], z[32], b[6][16], res[32] = "";
	double recl, base;
	bool mglru = tl_index_mglru(tl_model_index(m));

	tui_details_range(st, &t0, &t1, &marked);
	tl_model_stats(m, t0, t1, &s);
	tui_fmt_ts(x, sizeof(x), t0, 6);
	tui_fmt_dur(z, sizeof(z), t1 - t0);
	if (s.res_ns) {
		tui_fmt_dur(y, sizeof(y), s.res_ns);
		snprintf(res, sizeof(res), " (buckets %s)", y);
	}
	if (marked)
		addl(ls, "A-B %s s + %s%s", x, z, res);
	else
		addl(ls, "cursor %s s + %s%s", x, z, res);
	if (!marked && tl_model_marker(m, 0, &a)) {
		tui_fmt_ts(y, sizeof(y), a, 6);
		snprintf(ls->l[ls->n - 1] + strlen(ls->l[ls->n - 1]), 64, "  A %s", y);
	}
	if (!marked && tl_model_marker(m, 1, &a)) {
		tui_fmt_ts(y, sizeof(y), a, 6);
		snprintf(ls->l[ls->n - 1] + strlen(ls->l[ls->n - 1]), 64, "  B %s", y);
	}
	recl = s.reclaimed[0] + s.reclaimed[2];
	base = s.base[0] + s.base[2];
	if (!full) {
		if (mglru)
			addl(ls, "scan anon %s file %s  recl %s eff %.0f%%  prio %s  write %s",
			     num(b[0], s.scanned[0]), num(b[2], s.scanned[2]), num(b[4], recl),
			     pct(recl, base),
			     s.min_prio >= 0 ? (snprintf(y, sizeof(y), "%d", s.min_prio), y) : "-",
			     num(b[5], s.writes));
		else
			addl(ls, "scan IA %s AA %s IF %s AF %s  recl %s eff %.0f%%  prio %s  write %s",
			     num(b[0], s.scanned[0]), num(b[1], s.scanned[1]),
			     num(b[2], s.scanned[2]), num(b[3], s.scanned[3]), num(b[4], recl),
			     pct(recl, base),
			     s.min_prio >= 0 ? (snprintf(y, sizeof(y), "%d", s.min_prio), y) : "-",
			     num(b[5], s.writes));
		tui_fmt_dur(x, sizeof(x), s.span_ns[RS_CTX_DIRECT]);
		tui_fmt_dur(y, sizeof(y), s.span_ns[RS_CTX_MEMCG]);
		tui_fmt_dur(z, sizeof(z), s.span_ns[RS_CTX_SOFTLIMIT]);
		addl(ls, "stall direct %llu %s  memcg %llu %s  soft %llu %s  kswapd %.0f%%",
		     (unsigned long long)s.episodes[RS_CTX_DIRECT], x,
		     (unsigned long long)s.episodes[RS_CTX_MEMCG], y,
		     (unsigned long long)s.episodes[RS_CTX_SOFTLIMIT], z,
		     pct((double)s.span_ns[RS_CTX_KSWAPD], (double)(t1 - t0)));
		if (sel) {
			char sl[200];

			span_line(m, sel, sl, sizeof(sl));
			addl(ls, "sel %s", sl);
		}
		if (s.nr_trig || s.nr_vic) {
			char line[256] = "cgroups";

			if (s.nr_trig) {
				tui_fmt_dur(x, sizeof(x), s.trig[0].stall_ns);
				snprintf(line + strlen(line), sizeof(line) - strlen(line),
					 " trigger %s %s", tl_model_cgroup_name(m, s.trig[0].cg),
					 x);
			}
			if (s.nr_vic)
				snprintf(line + strlen(line), sizeof(line) - strlen(line),
					 "  victim %s %s pg", tl_model_cgroup_name(m, s.vic[0].cg),
					 num(b[0], (double)s.vic[0].scanned));
			addl(ls, "%s", line);
		}
		return;
	}
	addl(ls, "%s", "");
	/* MGLRU: the oldest generation of each type, as analyze's EVICTION BY TYPE */
	addl(ls, mglru ? "MGLRU type     scanned  in stalls         reclaimed  eff." :
		 "LRU list       scanned  in stalls  reclaimed/deact.  eff.");
	for (int l = 0; l < 4; l++)
		if (!mglru || l == RS_LRU_INACTIVE_ANON || l == RS_LRU_INACTIVE_FILE)
			addl(ls, "%-12s %9s  %9s  %16s  %3.0f%%",
			     mglru ? tl_model_lane_name(m, TL_L_IA + l) : lists[l],
			     num(b[0], s.scanned[l]),
			     num(b[1], s.stall_scanned[l]), num(b[2], s.reclaimed[l]),
			     pct(s.reclaimed[l], s.base[l]));
	addl(ls, "%-12s %9s  %9s  %16s  %3.0f%%", "all", num(b[0], s.scanned[0] + s.scanned[1] +
	     s.scanned[2] + s.scanned[3]), "", num(b[1], recl), pct(recl, base));
	if (s.min_prio >= 0)
		snprintf(z, sizeof(z), "%d", s.min_prio);
	addl(ls, "lowest prio %s  write %s folios  throttled %s (%s us)  OOM %s  lost %s",
	     s.min_prio >= 0 ? z : "-", num(b[0], s.writes), num(b[1], s.throttled),
	     num(b[2], s.throttled_us), num(b[3], s.ooms), num(b[4], s.lost));
	if (tl_model_lane_visible(m, TL_L_REFAULT) || s.refaulted > 0)
		addl(ls, "refaulted %.0f file pages (%.0f back within 1 s)", s.refaulted,
		     s.quick_refaulted);
	addl(ls, "%s", "");
	addl(ls, "context      scanned  reclaimed  eff.  episodes       time      worst");
	for (size_t i = 0; i < sizeof(ctxs) / sizeof(ctxs[0]); i++) {
		int k = ctxs[i];

		tui_fmt_dur(x, sizeof(x), s.span_ns[k]);
		tui_fmt_dur(y, sizeof(y), s.worst_ns[k]);
		addl(ls, "%-10s %9s  %9s  %3.0f%%  %8llu  %9s  %9s", rs_ctx_name(k),
		     num(b[0], s.ctx_scanned[k]), num(b[1], s.ctx_reclaimed[k]),
		     pct(s.ctx_reclaimed[k], s.ctx_base[k]), (unsigned long long)s.episodes[k],
		     k == RS_CTX_OTHER ? "" : x, k == RS_CTX_OTHER ? "" : y);
	}
	if (sel) {
		char sl[200];

		span_line(m, sel, sl, sizeof(sl));
		addl(ls, "%s", "");
		addl(ls, "selected: %s", sl);
		tui_fmt_ts(x, sizeof(x), sel->begin, 6);
		tui_fmt_ts(y, sizeof(y), sel->end, 6);
		addl(ls, "          %s .. %s s", x, y);
	}
	addl(ls, "%s", "");
	addl(ls, "trigger cgroup (its tasks stalled)    episodes       time    scanned");
	for (int i = 0; i < s.nr_trig; i++) {
		tui_fmt_dur(x, sizeof(x), s.trig[i].stall_ns);
		addl(ls, "%-36.36s %9llu  %9s  %9s", tl_model_cgroup_name(m, s.trig[i].cg),
		     (unsigned long long)s.trig[i].episodes, x,
		     num(b[0], (double)s.trig[i].scanned));
	}
	if (!s.nr_trig)
		addl(ls, "  (none)");
	addl(ls, "victim cgroup (its pages taken)       episodes    scanned  reclaimed");
	for (int i = 0; i < s.nr_vic; i++)
		addl(ls, "%-36.36s %9llu  %9s  %9s", tl_model_cgroup_name(m, s.vic[i].cg),
		     (unsigned long long)s.vic[i].episodes, num(b[0], (double)s.vic[i].scanned),
		     num(b[1], (double)s.vic[i].reclaimed));
	if (!s.nr_vic)
		addl(ls, "  (none: no pgscan/pgsteal memcg counters in these episodes)");
	addl(ls, "task (stalled)                        episodes       time");
	for (int i = 0; i < s.nr_tasks; i++) {
		char tn[64];

		tl_model_task_name(m, s.tasks[i].task, tn, sizeof(tn));
		tui_fmt_dur(x, sizeof(x), s.tasks[i].stall_ns);
		addl(ls, "%-36.36s %9llu  %9s", tn, (unsigned long long)s.tasks[i].episodes, x);
	}
	if (!s.nr_tasks)
		addl(ls, "  (none)");
	addl(ls, "%s", "");
}

static void event_lines(struct tui_state *st, struct lines *ls, bool title)
{
	if (title)
		addl(ls, "%s events in the range%s:", st->all_events ? "All" : "Reclaim",
		     st->all_events ? "" : " (e: every event)");
	if (!st->ev_valid) {
		addl(ls, "  (not read)");
		return;
	}
	for (int i = 0; i < st->nev; i++)
		addl(ls, "%s", st->ev[i].text);
	if (st->ev_more)
		addl(ls, "  ... and more");
	else if (st->ev_scanned)
		addl(ls, "  (%s the first %llu events of the range%s)", st->nev ? "all in" :
		     "none in", (unsigned long long)st->ev_scanned,
		     st->view == TUI_DETAILS ? "" : "; d reads more");
	else if (!st->nev)
		addl(ls, "  (none)");
}

static void draw_pane(struct tui_state *st, const struct tui_layout *l, int w)
{
	struct lines ls;

	if (!lines_alloc(&ls, 64))
		return;
	details_lines(st, &ls, false);
	bar(l->details_y, w, ls.l[0]);
	for (int i = 1; i < l->details_h && i < ls.n; i++)
		put(l->details_y + i, 0, w, ls.l[i]);
	if (ls.n < l->details_h && !l->list_h) {
		int first = ls.n;

		ls.n = 0;
		event_lines(st, &ls, false);
		for (int i = 0; first + i < l->details_h && i < ls.n; i++)
			put(l->details_y + first + i, 0, w, ls.l[i]);
	}
	free(ls.l);
}

static void draw_scrolled(struct tui_state *st, struct lines *ls, int w, int h,
			  const char *title)
{
	int body = h - 2, max_scroll;
	char t[256];

	max_scroll = ls->n - body;
	if (max_scroll < 0)
		max_scroll = 0;
	if (st->scroll > max_scroll)
		st->scroll = max_scroll;
	snprintf(t, sizeof(t), " %s  (%d-%d of %d)", title, ls->n ? st->scroll + 1 : 0,
		 st->scroll + body < ls->n ? st->scroll + body : ls->n, ls->n);
	bar(0, w, t);
	for (int i = 0; i < body && st->scroll + i < ls->n; i++)
		put(1 + i, 0, w, ls->l[st->scroll + i]);
}

/*
 * The help after the keys (tui_keytable()), a line each, as a UTF-8 screen shows it; an ASCII
 * one shows help_ascii's stand-ins for its glyphs, as the lanes and the axis do.
 */
static const char *const help_text[] = {
	"",
	"Lanes",
	"  inactive_anon active_anon inactive_file active_file (IA AA IF AF when",
	"                narrow): per LRU list, pages scanned/s (metric 1), reclaimed",
	"                or deactivated/s (2), efficiency (3), scanned in stalls/s (4);",
	"                on MGLRU anon and file: eviction from the oldest generation",
	"                (no active lists), as analyze's EVICTION BY TYPE",
	"  reclaimed     pages reclaimed/s; efficiency: reclaimed / scanned",
	"  kswapd        awake periods; direct, memcg, softlimit, node: stalls",
	"                (Enter: per task or cgroup, g switches; the axis row's",
	"                label names the grouping)",
	"  priority      lowest reclaim priority reached (p0 = hardest)",
	"  refaults      file pages refaulted/s (evicted, then added back: filemap",
	"                events); thrashing: those back within 1 s",
	"  write, throttle, marks (X = OOM kill, ! = lost events, F = a kswapd run",
	"                failed, C = kswapd's hopeless state cleared: kernel 7.x)",
	"",
	"A label's figure says what it is: 'max 1.2M/s' is the largest rate in",
	"view, to which every cell of the lane is scaled; 'avg 54%' the average",
	"share of the view (efficiency, time in stalls or awake); 'min p0' the",
	"lowest priority. Narrow labels drop the word. \u2500 marks a span with no",
	"value of the metric. \u25bc in the axis is the cursor, A and B the markers",
	"(a line through every lane), [ ] the selected stall's edges (its band",
	"is drawn in reverse video).",
	"",
	"Event list (v): the events from the cursor on, as trace-cmd report",
	"names them. Tab puts the keys there: j/k move the selection and the",
	"cursor with it; Enter lists the events of the selected task's episode",
	"at that time; Esc goes back. The / filter applies to it (task name or",
	"pid); e switches between every event and reclaim events.",
	"Esc or ? returns, q quits.",
};

static const char *const help_ascii[][2] = {
	{ "\u2500", "~" },
	{ "\u25bc", "v" },
};

/* line, or in buf the line with its glyph (one at the most) as ASCII when !utf8 */
static const char *help_line(const char *line, bool utf8, char *buf, size_t size)
{
	for (size_t g = 0; !utf8 && g < sizeof(help_ascii) / sizeof(help_ascii[0]); g++) {
		const char *at = strstr(line, help_ascii[g][0]);

		if (at) {
			snprintf(buf, size, "%.*s%s%s", (int)(at - line), line, help_ascii[g][1],
				 at + strlen(help_ascii[g][0]));
			return buf;
		}
	}
	return line;
}

static void draw_help(struct tui_state *st, int w, int h)
{
	struct lines ls;
	const struct tui_keydef *k;
	char buf[256];
	int n;

	if (!lines_alloc(&ls, 128))
		return;
	k = tui_keytable(&n);
	addl(&ls, "Keys");
	for (int i = 0; i < n; i++)
		if (k[i].name)
			addl(&ls, "  %-15s %s", k[i].name, k[i].help);
	for (size_t i = 0; i < sizeof(help_text) / sizeof(help_text[0]); i++)
		addl(&ls, "%s", help_line(help_text[i], st->utf8, buf, sizeof(buf)));
	draw_scrolled(st, &ls, w, h, "reclaimscope tui: help");
	free(ls.l);
}

static void draw_details(struct tui_state *st, int w, int h)
{
	struct lines ls;

	if (!lines_alloc(&ls, TUI_MAX_EVLINES + 96))
		return;
	details_lines(st, &ls, true);
	event_lines(st, &ls, true);
	draw_scrolled(st, &ls, w, h, "details (Esc: back, j/k: scroll, h/l: cursor)");
	free(ls.l);
}

static void draw_status(struct tui_state *st, const struct tui_layout *l, int w)
{
	char line[256];
	uint64_t a, b;

	if (st->prompt) {
		snprintf(line, sizeof(line), "filter (task, pid or cgroup): %s_   Enter: apply  "
			 "Esc: cancel", st->prompt_buf);
		bar(l->status_y, w, line);
		return;
	}
	if (st->msg[0])
		snprintf(line, sizeof(line), "%s", st->msg);
	else if (st->load_error[0])
		snprintf(line, sizeof(line), "%s", st->load_error);
	else if (st->view == TUI_MAIN && tl_model_marked_range(st->m, &a, &b)) {
		/* the A-B window: its length and what happened in it */
		struct tl_stats s;
		char d[32], sc[16], rc[16], tt[32];
		uint64_t n = 0, ns = 0;

		tl_model_stats(st->m, a, b, &s);
		for (int k = 0; k < RS_CTX_NR; k++)
			if (k != RS_CTX_KSWAPD && k != RS_CTX_OTHER) {
				n += s.episodes[k];
				ns += s.span_ns[k];
			}
		tui_fmt_dur(d, sizeof(d), b - a);
		tui_fmt_num(sc, sizeof(sc), s.scanned[0] + s.scanned[1] + s.scanned[2] +
			    s.scanned[3]);
		tui_fmt_num(rc, sizeof(rc), s.reclaimed[0] + s.reclaimed[2]);
		tui_fmt_dur(tt, sizeof(tt), ns);
		snprintf(line, sizeof(line), "A-B %s: scanned %s, reclaimed %s, %llu stall%s begun "
			 "(%s stalled), kswapd awake %.0f%%   x: clear", d, sc, rc,
			 (unsigned long long)n, n == 1 ? "" : "s", tt,
			 pct((double)s.span_ns[RS_CTX_KSWAPD], (double)(b - a)));
	} else if (st->view == TUI_MAIN)
		snprintf(line, sizeof(line), "?:help q:quit +/-:zoom h/l:cursor H/L:pan "
			 "n/N/w:stall a/b:marks /:filter m:metric d:details");
	else
		snprintf(line, sizeof(line), "Esc: back  q: quit");
	put(l->status_y, 0, w, line);
}

void tui_screen_draw(struct tui_screen *s, struct tui_state *st)
{
	struct tui_layout l;
	int w, h;

	tui_screen_size(s, &w, &h);
	erase();
	st->width = w;
	st->height = h;
	tui_layout(st, tl_model_nrows(st->m), &l);
	if (l.too_small) {
		put(0, 0, w, "terminal too small");
		if (h > 1)
			put(1, 0, w, "q: quit");
		refresh();
		return;
	}
	switch (st->view) {
	case TUI_HELP:
		draw_help(st, w, h);
		break;
	case TUI_DETAILS:
		draw_details(st, w, h);
		break;
	default:
		draw_header(st, w);
		draw_axis(st, &l);
		draw_lanes(st, &l);
		if (l.list_h)
			draw_list(st, &l, w);
		if (l.details_h)
			draw_pane(st, &l, w);
		break;
	}
	draw_status(st, &l, w);
	refresh();
}

int tui_screen_dump(struct tui_screen *s, FILE *f)
{
	int w, h;
	cchar_t *row;
	char *line;

	tui_screen_size(s, &w, &h);
	if (w < 1 || w > 4096)
		return -1;
	row = calloc((size_t)w + 1, sizeof(*row));
	line = malloc((size_t)w * MB_LEN_MAX + 1);
	if (!row || !line) {
		free(row);
		free(line);
		return -1;
	}
	for (int y = 0; y < h; y++) {
		size_t len = 0;
		mbstate_t ps;

		memset(&ps, 0, sizeof(ps));
		mvwin_wchnstr(stdscr, y, 0, row, w);
		for (int x = 0; x < w; x++) {
			wchar_t wc[CCHARW_MAX + 1] = { 0 };
			attr_t at;
			short pair;

			if (getcchar(&row[x], wc, &at, &pair, NULL) == ERR || !wc[0])
				continue;
			for (int k = 0; wc[k]; k++) {
				size_t r = wcrtomb(line + len, wc[k], &ps);

				if (r == (size_t)-1)
					line[len++] = '?';
				else
					len += r;
			}
		}
		while (len && line[len - 1] == ' ')
			len--;
		line[len] = '\0';
		fprintf(f, "%s\n", line);
	}
	free(row);
	free(line);
	return ferror(f) ? -1 : 0;
}
