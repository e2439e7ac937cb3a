#!/bin/sh
# The TUI headless: each tests/tui/NAME.keys is a key script run on a pseudo screen
# (RS_TUI_SCRIPT, docs/tui.md); the screens it dumps must equal tests/tui/NAME.expected.
# Header lines of a script: "# trace: FILE" (under tests/fixtures, or @tui/FILE,
# @shared/FILE), "# size: WxH", "# locale: C | C.UTF-8". Cases whose trace or locale is
# missing are skipped. RS_TUI_REGEN=1 writes the expected files instead: review them by eye.
. ./tests/lib-e2e.sh

# libtraceevent 1.7.1 leaks in tep_parse_event() on the shared global trace (events.sh sees it
# too under check-san); nothing of ours is in that stack.
printf 'leak:tep_parse_event\n' >"$TMP/lsan.supp"
LSAN_OPTIONS="suppressions=$TMP/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
have_utf8=no
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' && have_utf8=yes
ran=0
skipped=0
for k in tests/tui/*.keys; do
	name=$(basename "$k" .keys)
	trace=$(sed -n 's/^# trace: *//p' "$k")
	size=$(sed -n 's/^# size: *//p' "$k")
	loc=$(sed -n 's/^# locale: *//p' "$k")
	case $trace in
	@tui/*) file="$TOP/tests/tui/${trace#@tui/}" ;;
	@shared/*) file="$(dirname "$SHARED_TRACE")/${trace#@shared/}" ;;
	*) file="$TOP/tests/fixtures/$trace" ;;
	esac
	if [ ! -f "$file" ]; then
		echo "skip $name: no $file"
		skipped=$((skipped + 1))
		continue
	fi
	case $loc in
	C.UTF-8) [ $have_utf8 = yes ] || { echo "skip $name: no C.UTF-8 locale";
					 skipped=$((skipped + 1)); continue; } ;;
	esac
	out="$TMP/$name.out"
	if ! LC_ALL=${loc:-C} NO_COLOR=1 RS_TUI_SCRIPT="$(cat "$k")" RS_TUI_SIZE="${size:-80x24}" \
	     RS_TUI_DUMP="$out" "$RS_BIN" tui "$file" 2>"$TMP/$name.err"; then
		if grep -q 'terminfo' "$TMP/$name.err"; then
			echo "no terminfo entry for a headless screen"
			exit 77
		fi
		fail "$name: exit status $?: $(cat "$TMP/$name.err")"
		continue
	fi
	ran=$((ran + 1))
	case $name in
	quit-*) tail -n 1 "$out" | grep -q '^=== quit by' || fail "$name: did not quit" ;;
	esac
	if [ "${RS_TUI_REGEN:-}" = 1 ]; then
		cp "$out" "tests/tui/$name.expected"
		echo "wrote tests/tui/$name.expected"
	elif [ ! -f "tests/tui/$name.expected" ]; then
		fail "$name: no tests/tui/$name.expected (RS_TUI_REGEN=1 makes it)"
	elif ! diff -u "tests/tui/$name.expected" "$out" >"$TMP/$name.diff"; then
		fail "$name: screens differ from tests/tui/$name.expected"
		head -n 60 "$TMP/$name.diff"
	fi
done
# --threads (the shared option of every trace-reading command) drives the loading pass: the
# screens of a script are its expected ones with 1 and with 3 threads; a bad count is a usage error
k=tests/tui/mglru-lanes.keys
if [ -f "$TOP/tests/fixtures/$(sed -n 's/^# trace: *//p' "$k")" ]; then
	for t in 1 3; do
		LC_ALL=C NO_COLOR=1 RS_TUI_SCRIPT="$(cat "$k")" \
			RS_TUI_SIZE="$(sed -n 's/^# size: *//p' "$k")" RS_TUI_DUMP="$TMP/threads.out" \
			"$RS_BIN" tui --threads $t \
			"$TOP/tests/fixtures/$(sed -n 's/^# trace: *//p' "$k")" 2>"$TMP/threads.err" ||
			{ fail "tui --threads $t: exit $?: $(tail -n 1 "$TMP/threads.err")"; continue; }
		cmp -s "$TMP/threads.out" tests/tui/mglru-lanes.expected ||
			fail "tui --threads $t: screens differ from tests/tui/mglru-lanes.expected"
	done
	"$RS_BIN" tui --threads 0 "$TOP/tests/fixtures/v6.dat" >/dev/null 2>&1
	expect_eq "tui --threads 0: exit" $? 2
fi
# The memcg counters' items by name in the event panes: each listed count_memcg_events /
# mod_memcg_lruvec_state / mod_memcg_state line against trace-cmd report's event of that time,
# memcg and value, its item number named by the recorder's item-name markers (vm_event_items,
# node_stat_items, memcg_stat_items: "@N" sets the next item's number), else the number
if [ -s "$TMP/list.out" ] && command -v trace-cmd >/dev/null; then
	trace_report "$TOP/tests/fixtures/$(sed -n 's/^# trace: *//p' tests/tui/list.keys)" |
	awk '/tracing_mark_write: (vm_event|node_stat|memcg_stat)_items / {
		for (i = 1; i <= NF; i++) if ($i == "tracing_mark_write:") break
		e = $(i + 1); sub(/_items$/, "", e); n = 0
		for (i += 2; i <= NF; i++) {
			if ($i ~ /^@[0-9]+$/) n = substr($i, 2) + 0
			else if ($i !~ /=/) name[e, n++] = $i
		}
		next }
	/ (count_memcg_events|mod_memcg_lruvec_state|mod_memcg_state): / {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		ts = $i; ev = $(i + 1); id = $(i + 2); it = $(i + 3); v = $(i + 4)
		e = "memcg_stat"
		if (ev == "count_memcg_events:") e = "vm_event"
		if (ev == "mod_memcg_lruvec_state:") e = "node_stat"
		k = substr(it, 6) + 0
		print ts, ev, id, "item=" ((e, k) in name ? name[e, k] : k), v }' |
		sort -u >"$TMP/items.want"
	grep -E ' (count_memcg_events|mod_memcg_lruvec_state|mod_memcg_state): ' "$TMP/list.out" |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
			print $i, $(i + 1), $(i + 2), $(i + 3), $(i + 4) }' | sort -u >"$TMP/items.got"
	[ -s "$TMP/items.got" ] || fail "list: no memcg counter events on the screens"
	comm -13 "$TMP/items.want" "$TMP/items.got" >"$TMP/items.bad"
	[ -s "$TMP/items.bad" ] && fail "list: memcg items not as the markers name them:
$(head -3 "$TMP/items.bad")"
fi
# The recorder's markers in the event panes: each key=value the screens show of a cgroup_map,
# task_cgroup, memcg_stat, node_stat or zone_stat marker (the last, maybe cut by the screen's
# width, left out) stands in trace-cmd report's marker of that time and tag
if command -v trace-cmd >/dev/null; then
	for k in tests/tui/*.keys; do
		name=$(basename "$k" .keys)
		file="$TOP/tests/fixtures/$(sed -n 's/^# trace: *//p' "$k")"
		[ -f "$file" ] && [ -s "$TMP/$name.out" ] || continue
		grep -E ': print: (cgroup_map|task_cgroup|memcg_stat|node_stat|zone_stat) ' \
			"$TMP/$name.out" | awk '{ for (i = 1; i <= NF; i++) if ($i == "print:") break
				for (j = i + 2; j < NF; j++) print $(i - 1), $(i + 1), $j }' |
			sort -u >"$TMP/mk.got"
		[ -s "$TMP/mk.got" ] || continue
		trace_report "$file" | awk '/tracing_mark_write: (cgroup_map|task_cgroup|memcg_stat|node_stat|zone_stat) / {
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
			for (j = 1; j <= NF; j++) if ($j == "tracing_mark_write:") break
			for (k = j + 2; k <= NF; k++) print $i, $(j + 1), $k }' | sort -u >"$TMP/mk.want"
		comm -23 "$TMP/mk.got" "$TMP/mk.want" >"$TMP/mk.bad"
		[ -s "$TMP/mk.bad" ] && fail "$name: markers not as trace-cmd report has them:
$(head -3 "$TMP/mk.bad")"
		markers=$((${markers:-0} + $(wc -l <"$TMP/mk.got")))
	done
	[ "${markers:-0}" -gt 0 ] || fail "no recorder marker's values on any screen"
fi
echo "tui headless: $ran scripts compared, $skipped skipped"
[ "$ran" -gt 0 ] || { echo "no script could run"; exit 77; }
finish
