#!/bin/sh
# The real TUI in a real terminal: tmux runs the binary, send-keys types, capture-pane reads
# the screen. First screen, help, details, filter prompt, worst stall, zoom, resize to 20x10
# and back, quit from every screen (main, help, details, prompt), an empty and a one-event
# trace, keys while a big trace is still loading (when the shared trace is there), and quitting
# while a trace loads (q, q from the help, Ctrl-C, SIGTERM): the loader must be stopped, not
# waited for. Runs on a private tmux socket, so nothing else is touched. RS_TUI_BIG_TRACE names
# a trace that takes several seconds to load (default: bench/out/bench.dat when made).
. ./tests/lib-e2e.sh

# libtraceevent 1.7.1 leaks in tep_parse_event() on the shared global trace (events.sh sees it
# too under check-san); nothing of ours is in that stack.
printf 'leak:tep_parse_event\n' >"$TMP/lsan.supp"
LSAN_OPTIONS="suppressions=$TMP/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
need tmux timeout
SOCK="rs-e2e-$$"
# remain-on-exit: a session stays after its command ended (its screen can be read, and the
# server does not exit between sessions)
printf 'set -g remain-on-exit on\n' >"$TMP/tmux.conf"
T() { tmux -L "$SOCK" -f "$TMP/tmux.conf" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
BIN=$(cd "$(dirname "$RS_BIN")" && pwd)/$(basename "$RS_BIN")
FIX="$TOP/tests/fixtures/contention.dat"

# start NAME FILE [W H]: run the TUI in a detached session; its timings (RS_TUI_TIMING) go to
# $TMP/NAME.timing, its stderr to $TMP/NAME.err, its pid to $TMP/NAME.pid (written before the
# TUI starts: the inner shell execs it). $RUN_ENV (assignments) goes before the command. The
# pane's shell waits for the TUI, writes its exit status to $TMP/NAME.rc and only then signals
# the tmux channel NAME-done, which quit_check waits on: the status is whole when it is read.
# (Not tmux's own #{pane_dead_status}: tmux 3.3a under load has left an exited TUI unreaped,
# a zombie, for over 20 s.)
start() {
	T new-session -d -s "$1" -x "${3:-100}" -y "${4:-30}" \
		"sh -c 'echo \$\$ >\"$TMP/$1.pid\"; exec env LC_ALL=C NO_COLOR=1 \
		RS_TUI_TIMING=\"$TMP/$1.timing\" ${RUN_ENV:-} \"$BIN\" tui \"$2\" 2>\"$TMP/$1.err\"'; \
		echo \$? >'$TMP/$1.rc'; tmux wait-for -S '$1-done'"
}
screen() { T capture-pane -p -t "$1" 2>/dev/null; }
# wait_for NAME TEXT [SECONDS]: poll the screen until TEXT shows (10 tries a second at most)
wait_for() {
	i=0
	while [ $i -lt $((${3:-30} * 10)) ]; do
		screen "$1" | grep -qF -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "$1: '$2' never showed in ${3:-30} s; screen was:"
	screen "$1" | sed 's/^/    | /'
	[ -f "$TMP/$1.err" ] && sed 's/^/    err: /' "$TMP/$1.err"
	return 1
}
keys() { n=$1; shift; T send-keys -t "$n" "$@"; }
# wait_loaded NAME [SECONDS]: until the header no longer says "loading"
wait_loaded() {
	i=0
	while [ $i -lt $((${2:-60} * 10)) ] && screen "$1" | head -n 1 | grep -q "loading"; do
		sleep 0.1
		i=$((i + 1))
	done
	if screen "$1" | head -n 1 | grep -q "loading"; then
		fail "$1: still loading after ${2:-60} s; screen was:"
		screen "$1" | sed 's/^/    | /'
		return 1
	fi
	return 0
}
# quit_check NAME [STATUS [SECONDS]]: the TUI must end within SECONDS (60) with exit status
# STATUS (0): waits on the channel its shell signals once the status is written. The bound only
# catches a TUI that does not quit (nice'd runs on the loaded 2-CPU machine took many seconds);
# what must not be waited for (the loader) is checked by what the TUI did (its timings), not by
# the clock. A quit slower than 5 s is noted.
quit_check() {
	t0=$(date +%s)
	if ! timeout "${3:-60}" tmux -L "$SOCK" -f "$TMP/tmux.conf" wait-for "$1-done"; then
		fail "$1: still running ${3:-60} s after quit"
		T kill-session -t "$1"
		return 1
	fi
	[ $(($(date +%s) - t0)) -le 5 ] || echo "note: $1 took $(($(date +%s) - t0)) s to quit"
	expect_eq "$1 exit status" "$(cat "$TMP/$1.rc")" "${2:-0}"
}
# quit_loading NAME FILE HOW [STATUS]: start the TUI on FILE, and once it shows "loading",
# quit by HOW (keys, or TERM: the signal); it must end, and its timings must say the load was
# stopped rather than finished
quit_loading() {
	start "$1" "$2"
	wait_for "$1" "loading" 30 || { T kill-session -t "$1"; return; }
	case $3 in
	TERM)	kill -TERM "$(cat "$TMP/$1.pid")" ;;
	*)	set -f		# "?" is a key, not a pattern
		# shellcheck disable=SC2086
		keys "$1" $3
		set +f ;;
	esac
	quit_check "$1" "${4:-0}" || return
	screen "$1" | head -n 1 | grep -q "loading" && fail "$1: the screen was not restored"
	grep -qx 'load stopped' "$TMP/$1.timing" ||
		fail "$1: the load was not stopped: $(tr '\n' ' ' <"$TMP/$1.timing")"
}

# main screen, help, details, prompt, worst stall, zoom, resize; q from the main screen
start main "$FIX"
if wait_for main "time (s)"; then
	wait_for main "contention.dat"
	wait_loaded main 120
	screen main | grep -q '^>inactive_anon ' || fail "main: no selected inactive_anon lane"
	screen main | grep -q '^ inactive_file ' || fail "main: no inactive_file lane"
	screen main | grep -q 'memcg+' || fail "main: no memcg lane"
	screen main | grep -q '^ events from ' || fail "main: no event list pane"
	keys main '?'; wait_for main "Keys"
	keys main Escape; wait_for main "time (s)"
	keys main d; wait_for main "LRU list"
	keys main Escape; wait_for main "time (s)"
	keys main /; wait_for main "filter (task, pid or cgroup)"
	keys main r s _ a Enter; wait_for main "filter 'rs_a'"
	keys main c; wait_for main "filter cleared"
	keys main w; wait_for main "sel memcg"
	keys main 0 + +; wait_for main "ms/col"
	T resize-window -t main -x 20 -y 10; wait_for main "?:help q:quit"
	[ "$(screen main | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 20 ] ||
		fail "main: wider than 20 columns after the resize"
	T resize-window -t main -x 100 -y 30; wait_for main "a/b:marks"
	keys main q; quit_check main
fi

# quit from the help screen, the details screen, and (Ctrl-C) the filter prompt
start help "$FIX"; wait_for help "time (s)" && { keys help '?'; wait_for help Keys; keys help q;
	quit_check help; }
start details "$FIX"; wait_for details "time (s)" && { keys details d; wait_for details "LRU list";
	keys details q; quit_check details; }
start prompt "$FIX"; wait_for prompt "time (s)" && { keys prompt /; wait_for prompt "filter (task";
	keys prompt q; wait_for prompt "filter (task, pid or cgroup): q_"; keys prompt C-c;
	quit_check prompt; }

# an empty trace and a one-event trace
start empty "$TOP/tests/tui/empty.txt"
wait_for empty "(no events)" && { keys empty + - w d Escape; keys empty q; quit_check empty; }
start one "$TOP/tests/tui/one-event.txt"
wait_for one "kswapd0-50      [000] 3000.100020: mm_vmscan_lru_isolate: order=0 nr_requested=32" &&
	{ keys one q; quit_check one; }

# the event list at three sizes: lanes grow with the terminal, the list follows the cursor and,
# focused (Tab), moves it; Enter lists an episode's events, Esc goes back; the mouse
for size in 80x24 120x40 200x60; do
	w=${size%x*}; h=${size#*x}
	start "list$w" "$FIX" "$w" "$h"
	wait_for "list$w" "time (s)" || continue
	wait_loaded "list$w" 120
	[ "$(screen "list$w" | wc -l)" -eq "$h" ] || fail "list$w: not $h lines"
	screen "list$w" | awk -v w="$w" 'length($0) > w { bad = 1 } END { exit bad }' ||
		fail "list$w: a line wider than $w columns"
	keys "list$w" w; wait_for "list$w" "sel memcg"
	# the list starts at the stall's begin, the worst stall's own event
	wait_for "list$w" "mm_vmscan_memcg_reclaim_begin"
	keys "list$w" Tab; wait_for "list$w" "[focus"
	keys "list$w" Enter; wait_for "list$w" "in its episode from"
	keys "list$w" j j; wait_for "list$w" "[focus"
	keys "list$w" Escape; wait_for "list$w" "events from"
	keys "list$w" q; quit_check "list$w"
done
# lanes use the height: at 200x60 each lane takes more than one row
start tall "$FIX" 200 60
if wait_for tall "time (s)" && wait_loaded tall 120; then
	screen tall | awk '/^>inactive_anon/ { getline; if (substr($0, 1, 20) ~ /^ *$/) ok = 1 }
		END { exit !ok }' ||
		fail "tall: the first lane is one row high at 200x60"
	keys tall q; quit_check tall
fi

# a terminal that cannot move the cursor: a clear word and exit 1, not a status line alone
T new-session -d -s dumb -x 80 -y 24 "sh -c 'env TERM=dumb \"$BIN\" tui \"$FIX\" \
	2>\"$TMP/dumb.err\"; echo \$? >\"$TMP/dumb.rc\"; tmux wait-for -S dumb-done'"
if timeout 60 tmux -L "$SOCK" -f "$TMP/tmux.conf" wait-for dumb-done; then
	expect_eq "TERM=dumb exit status" "$(cat "$TMP/dumb.rc")" 1
	grep -q "cannot move the cursor" "$TMP/dumb.err" || fail "TERM=dumb: $(cat "$TMP/dumb.err")"
else
	fail "TERM=dumb: still running"
fi

# a terminal without a terminfo entry: a fallback (xterm-256color) is used and said so, and q
# quits with status 0. Under check-san this is the sanitizer build, which exited 1 here: the
# probe of TERM by newterm() leaked ncurses' SCREEN (cmd/tui/tui_term.c)
RUN_ENV="TERM=rs-no-such-term" start unknown "$FIX" 80 24
if wait_for unknown "time (s)" 60; then
	keys unknown q; quit_check unknown
	grep -q "the terminal 'rs-no-such-term' (TERM) has no terminfo entry; using xterm-256color" \
		"$TMP/unknown.err" || fail "unknown TERM: no word of the fallback: $(cat "$TMP/unknown.err")"
	grep -q "LeakSanitizer\|ERROR" "$TMP/unknown.err" && fail "unknown TERM: $(head -c 600 "$TMP/unknown.err")"
else
	T kill-session -t unknown
fi

# a big trace: the first screen comes before the index is complete; keys work meanwhile, and
# q while it loads stops the loader. Under a sanitizer build the pass is too slow to wait for.
if [ -f "$SHARED_TRACE" ]; then
	start big "$SHARED_TRACE"
	if wait_for big "time (s)" 60; then
		keys big w + l d
		# back on the timeline first: the details' top line never says "loading" (and the
		# old timeline's "time (s)" can still be on screen before d is read)
		wait_for big "LRU list" 60
		keys big Escape
		wait_for big "time (s)" 60
		case $RS_BIN in
		*-san) ;;
		*)	if wait_loaded big 120; then
				keys big w; wait_for big "sel direct" 60
			fi ;;
		esac
		keys big q; quit_check big
	fi
fi

# quitting while the trace loads: on a trace big enough to take seconds, else (CI: only the
# committed fixtures, which load in under a second) on a fixture the loader is slowed down on
# (RS_TUI_LOAD_DELAY, a test hook: 250 ms every 4096 events, about 20 s for contention.dat, so
# that even a starved test run sends its key before the load ends; the quit itself is prompt)
BIG=${RS_TUI_BIG_TRACE:-$TOP/bench/out/bench.dat}
if [ -f "$BIG" ]; then
	quit_loading bigq "$BIG" q
	quit_loading bigterm "$BIG" TERM 143
fi
RUN_ENV="RS_TUI_LOAD_DELAY=250"
quit_loading slowq "$FIX" q
quit_loading slowhelp "$FIX" "? q"
quit_loading slowctrlc "$FIX" C-c
quit_loading slowterm "$FIX" TERM 143
RUN_ENV=
finish
