#!/bin/sh
# Output errors are reported and fail the command: a full disk (/dev/full) and a pipe whose
# reader has gone (SIGPIPE is ignored, so the write fails with EPIPE) give exit 1 and a message,
# never a silent success or a death by signal. Both for `events` and `analyze`, text and JSON.
. tests/lib-e2e.sh
src=tests/fuzz/seeds/small-v7-zstd.dat
[ -f "$src" ] || { echo "no seed trace"; exit 77; }
cmds=events
"$RS_BIN" analyze --help >/dev/null 2>&1 && cmds="events analyze"
for c in $cmds; do
	for j in "" --json; do
		what="$c $j"
		if [ -w /dev/full ]; then
			"$RS_BIN" $c $j "$src" >/dev/full 2>"$TMP/err"
			expect_eq "$what > /dev/full: exit" $? 1
			grep -q "error writing output" "$TMP/err" ||
				fail "$what > /dev/full: no message: $(head -c 200 "$TMP/err")"
		fi
		# the reader exits at once; the command starts writing a second later
		{ sleep 1; "$RS_BIN" $c $j "$src" 2>"$TMP/err"; echo $? >"$TMP/rc"; } | true
		expect_eq "$what | closed pipe: exit" "$(cat "$TMP/rc")" 1
		grep -q "error writing output" "$TMP/err" ||
			fail "$what | closed pipe: no message: $(head -c 200 "$TMP/err")"
		# a reader that takes one byte and leaves: 0 if all fitted in the pipe, else 1
		{ "$RS_BIN" $c $j "$src" 2>"$TMP/err"; echo $? >"$TMP/rc"; } | head -c 1 >/dev/null
		r=$(cat "$TMP/rc")
		case $r in
		0|1) ;;
		*) fail "$what | head -c 1: exit $r: $(head -c 200 "$TMP/err")" ;;
		esac
	done
done
# output far larger than a pipe holds (1 ms buckets: megabytes of JSON) through head -c 1:
# the writes after head leaves must fail and be reported
big=$(ls -S tests/fixtures/*.dat 2>/dev/null | head -n 1)
if [ -n "$big" ] && "$RS_BIN" analyze --help >/dev/null 2>&1; then
	{ "$RS_BIN" analyze --json --bucket 1 "$big" 2>"$TMP/err"; echo $? >"$TMP/rc"; } |
		head -c 1 >/dev/null
	expect_eq "analyze --json --bucket 1 $big | head -c 1: exit" "$(cat "$TMP/rc")" 1
	grep -q "error writing output" "$TMP/err" || fail "big | head -c 1: no message"
fi
finish
