#!/bin/sh
# Bad input: a clear message naming the file, exit 1, never a crash or hang.
. tests/lib-e2e.sh
need jq timeout
src=$(real_traces | head -n 1)
[ -n "$src" ] || { echo "no real trace to cut"; exit 77; }

# check_bad FILE WHAT: exit 1, message names the file, no signal, within 60 s
check_bad() {
	timeout 60 "$RS_BIN" events "$1" >/dev/null 2>"$TMP/err"
	r=$?
	[ $r -eq 1 ] || { fail "$2: exit $r, want 1 ($(head -c 300 "$TMP/err"))"; return; }
	grep -q "$1" "$TMP/err" || fail "$2: message does not name the file: $(cat "$TMP/err")"
}
# check_ok_or_bad FILE WHAT: a cut trace may still be readable up to the cut; either a clean
# exit 0 with valid JSON, or exit 1 naming the file. Never a crash (>= 128) or other code.
check_ok_or_bad() {
	timeout 60 "$RS_BIN" events --json "$1" >"$TMP/out" 2>"$TMP/err"
	r=$?
	case $r in
	0) jq -e .trace.events "$TMP/out" >/dev/null || fail "$2: exit 0 but invalid JSON" ;;
	1) grep -q "$1" "$TMP/err" || fail "$2: message does not name the file" ;;
	*) fail "$2: exit $r: $(head -c 300 "$TMP/err")" ;;
	esac
}

: >"$TMP/empty.dat"
check_bad "$TMP/empty.dat" "empty file"
grep -q "empty" "$TMP/err" || fail "empty file: message does not say empty"
check_bad "$TMP/missing.dat" "missing file"
head -c 65536 /dev/urandom >"$TMP/random.dat"
check_bad "$TMP/random.dat" "random bytes"
printf '\027\010\104trac' >"$TMP/magic.dat"
check_bad "$TMP/magic.dat" "magic only"
size=$(stat -c %s "$src")
for off in 10 100 1000 5000 20000 100000 $((size / 2)) $((size - 100)); do
	[ "$off" -lt "$size" ] || continue
	head -c "$off" "$src" >"$TMP/cut.dat"
	check_ok_or_bad "$TMP/cut.dat" "cut at $off"
done
printf 'hello world\nthis is not a trace\n' >"$TMP/garbage.txt"
check_bad "$TMP/garbage.txt" "garbage text"
# usage errors are exit 2
# the commands that name no operands take one, FILE (rs_cmd's default): none or two are exit 2
for c in events analyze cgroups replay tui; do
	"$RS_BIN" $c >/dev/null 2>"$TMP/err"
	expect_eq "$c, no file" $? 2
	sed -n '/^$/q; p' "$TMP/err" | grep -q ' FILE$' ||
		fail "$c, no file: $(head -n 1 "$TMP/err")"
	"$RS_BIN" $c "$src" "$src" >/dev/null 2>&1
	expect_eq "$c, two files" $? 2
done
"$RS_BIN" events --nope x >/dev/null 2>&1; expect_eq "bad option" $? 2
"$RS_BIN" nosuchcommand >/dev/null 2>&1; expect_eq "bad command" $? 2
# Every command that analyses a range of a trace checks its options together the same way,
# before it reads the trace (rs_analysis_opts_finish): exit 2 and the command's own sentence,
# for a trace or for none. A cap that cannot fit is checked against an address-space limit set
# here (not under ASan, whose shadow memory needs more).
for c in analyze cgroups "export --format jsonl -o -" plot; do
	for f in "$src" "$TMP/missing.dat"; do
		"$RS_BIN" $c --from 2 --to 1 "$f" >/dev/null 2>"$TMP/err"
		expect_eq "$c --from 2 --to 1 $(basename "$f"): exit" $? 2
		expect_eq "$c --from 2 --to 1 $(basename "$f")" "$(cat "$TMP/err")" \
			"reclaimscope: ${c%% *}: --to must be after --from"
	done
	case $RS_BIN in *-san) continue ;; esac
	(ulimit -v 4000000 && exec "$RS_BIN" $c --max-buckets 67108864 "$TMP/missing.dat") \
		>/dev/null 2>"$TMP/err"
	expect_eq "$c --max-buckets 67108864: exit" $? 2
	grep -q "^reclaimscope: ${c%% *}: --max-buckets 67108864 could need" "$TMP/err" ||
		fail "$c --max-buckets 67108864: $(cat "$TMP/err")"
done
"$RS_BIN" --version | grep -q '^reclaimscope [0-9]' || fail "--version"
"$RS_BIN" events --help | grep -q '^usage: reclaimscope events' || fail "events --help"
# output errors: a full disk is reported, exit 1
if [ -w /dev/full ]; then
	"$RS_BIN" events --json "$src" >/dev/full 2>"$TMP/err"; r=$?
	expect_eq "write to /dev/full" $r 1
	grep -q "error writing output" "$TMP/err" || fail "/dev/full: no write error message"
fi
finish
