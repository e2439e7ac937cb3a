#!/bin/sh
# Output errors: a full disk (/dev/full) gives exit 1 and a message, never a silent success. A
# pipe whose reader has gone (SIGPIPE is ignored, so the write fails with EPIPE) is the reader's
# choice, not our error: exit 0 and no message, however much output did or did not fit in the
# pipe (issue 21: it was 0 or 1 by output size). Both for `events` and `analyze`, text and JSON.
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
		expect_eq "$what | closed pipe: exit" "$(cat "$TMP/rc")" 0
		[ -s "$TMP/err" ] && fail "$what | closed pipe: a message: $(head -c 200 "$TMP/err")"
		# a reader that takes one byte and leaves: 0 whether or not all fitted in the pipe
		{ "$RS_BIN" $c $j "$src" 2>"$TMP/err"; echo $? >"$TMP/rc"; } | head -c 1 >/dev/null
		expect_eq "$what | head -c 1: exit" "$(cat "$TMP/rc")" 0
	done
done
# output far larger than a pipe holds (1 ms buckets: megabytes of JSON) through head -c 1:
# the writes after head leaves fail, quietly, with the same exit 0
big=$(ls -S tests/fixtures/*.dat 2>/dev/null | head -n 1)
if [ -n "$big" ] && "$RS_BIN" analyze --help >/dev/null 2>&1; then
	{ "$RS_BIN" analyze --json --bucket 1 "$big" 2>"$TMP/err"; echo $? >"$TMP/rc"; } |
		head -c 1 >/dev/null
	expect_eq "analyze --json --bucket 1 $big | head -c 1: exit" "$(cat "$TMP/rc")" 0
	[ -s "$TMP/err" ] && fail "big | head -c 1: a message: $(head -c 200 "$TMP/err")"
fi
# -o onto what is no regular file: written in place, never replaced by a file renamed onto it
# (export -o /dev/null once turned /dev/null into a regular file); a directory is an error
v7=tests/fixtures/v7.dat
if [ -f "$v7" ]; then
	if [ "$(id -u)" = 0 ] && mknod "$TMP/null" c 1 3 2>/dev/null; then
		"$RS_BIN" export --format jsonl -o "$TMP/null" "$v7" 2>"$TMP/err"
		expect_eq "export -o a char device: exit" $? 0
		expect_eq "export -o a char device: still one" "$(stat -c %F "$TMP/null")" \
			"character special file"
		ln -s null "$TMP/null.svg"
		"$RS_BIN" plot -o "$TMP/null.svg" "$v7" 2>"$TMP/err"
		expect_eq "plot -o a link to a char device: exit" $? 0
		expect_eq "plot -o a link to a char device: the device stays" \
			"$(stat -c %F "$TMP/null")" "character special file"
		expect_eq "plot -o a link to a char device: the link stays" \
			"$(stat -c %F "$TMP/null.svg")" "symbolic link"
	fi
	mkfifo "$TMP/fifo"
	cat "$TMP/fifo" >"$TMP/fifo.out" &
	reader=$!
	"$RS_BIN" export --format jsonl -o "$TMP/fifo" "$v7" 2>"$TMP/err"
	expect_eq "export -o a FIFO: exit" $? 0
	if [ "$(stat -c %F "$TMP/fifo")" = fifo ]; then
		wait $reader
	else
		fail "export -o a FIFO: replaced by a $(stat -c %F "$TMP/fifo")"
		kill $reader 2>/dev/null
		: >"$TMP/fifo.out"
	fi
	"$RS_BIN" export --format jsonl -o "$TMP/direct.jsonl" "$v7" 2>"$TMP/err"
	cmp -s "$TMP/fifo.out" "$TMP/direct.jsonl" || fail "export -o a FIFO: not what -o FILE holds"
	mkdir "$TMP/dir"
	"$RS_BIN" export --format jsonl -o "$TMP/dir" "$v7" 2>"$TMP/err"
	expect_eq "export -o a directory: exit" $? 1
	grep -q "cannot write $TMP/dir: Is a directory" "$TMP/err" ||
		fail "export -o a directory: $(head -c 200 "$TMP/err")"
	[ -z "$(ls -A "$TMP/dir")" ] || fail "export -o a directory: wrote into it"
fi
finish
