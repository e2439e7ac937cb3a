#!/bin/sh
# Our reader of the CPU data (parsers/tracedat/tracedat_chunks.c: compressed chunks of v7
# traces, pages of v6 ones read in place) against libtracecmd's: on every real trace and a v6
# copy of one made by trace-cmd convert, analyze and events print byte for byte what they print
# when libtracecmd reads the pages (RS_ZCHUNKS=0), with one and two threads, whole and from the
# middle on; and the v6 copy gives the v7 file's figures, format and path aside.
. tests/lib-e2e.sh
need jq trace-cmd

# same WHAT ARGS...: the output with our reader and with libtracecmd's must be identical
same() {
	what=$1; shift
	RS_ZCHUNKS=0 "$RS_BIN" "$@" >"$TMP/lib" 2>"$TMP/elib"; rl=$?
	"$RS_BIN" "$@" >"$TMP/own" 2>"$TMP/eown"; ro=$?
	expect_eq "$what: exit status" "$ro" "$rl"
	[ "$rl" = 0 ] || { fail "$what: exit $rl"; sed 's/^/    /' "$TMP/elib" | head -n 5; }
	cmp -s "$TMP/lib" "$TMP/own" || { fail "$what: our chunk reader's output differs";
		diff "$TMP/lib" "$TMP/own" | head -n 10; }
}

# the thread counts and the traces compared. Under a sanitizer (every run six times slower: this
# script took 271 CPU seconds there) the round cuts repetitions, not checks: one count, 2 (the
# parallel reader; threads.sh reads every trace with 1 thread under it too), and the comparisons
# on the first compressed trace and the v6 ones only, the same chunk reader on other data; every
# trace is still read (events --json) and its format told, and the v6 copy compared.
THREADS="1 2"
san=
case $RS_BIN in *-san) THREADS=2 san=1 ;; esac

V7=$TOP/tests/fixtures/v7.dat
trace-cmd convert -i "$V7" --file-version 6 -o "$TMP/v6.dat" >/dev/null 2>&1 ||
	fail "trace-cmd convert of $V7 failed"
n=0 n6=0
for f in $(real_traces_all) "$TOP"/tests/fixtures/kernel7/*.dat "$TMP/v6.dat"; do
	[ -f "$f" ] || continue
	case $f in "$TMP"/*) "$RS_BIN" events --json "$f" ;; *) rs_json events "$f" ;; esac \
		2>/dev/null >"$TMP/ev.json" || { fail "$f: events"; continue; }
	case $(jq -r .trace.format "$TMP/ev.json") in
	*"v7 (zstd)"* | *"v7 (zlib)"*) n=$((n + 1)) v7=1 ;;
	"trace.dat v6") n6=$((n6 + 1)) v7= ;;
	*) continue ;;
	esac
	[ -n "$san" ] && [ -n "$v7" ] && [ "$n" -gt 1 ] && continue
	b=$(basename "$f")
	mid=$(jq -r '(.trace.first_s + .trace.last_s) / 2' "$TMP/ev.json")
	for t in $THREADS; do
		same "$b analyze --json --threads $t" analyze --json --threads $t "$f"
		same "$b events --json --threads $t" events --json --threads $t "$f"
		same "$b analyze --json --threads $t --from $mid" analyze --json --threads $t \
			--from "$mid" "$f"
	done
done
[ "$n" -gt 0 ] || { echo "no compressed traces found"; exit 77; }

# the v6 copy: the same events, counts and analysis, read without chunks
strip() { jq -S 'del(.trace.format, .trace.path)' "$1"; }
if [ -f "$TMP/v6.dat" ]; then
	for c in events analyze; do
		"$RS_BIN" $c --json "$V7" >"$TMP/a7" && "$RS_BIN" $c --json "$TMP/v6.dat" >"$TMP/a6" ||
			{ fail "v6 copy: $c exit"; continue; }
		strip "$TMP/a7" >"$TMP/s7"
		strip "$TMP/a6" >"$TMP/s6"
		cmp -s "$TMP/s7" "$TMP/s6" || { fail "v6 copy: $c differs from the v7 file";
			diff "$TMP/s7" "$TMP/s6" | head -n 10; }
	done
	expect_eq "v6 copy: events" "$(jq .trace.events "$TMP/s6")" "$(jq .trace.events "$TMP/s7")"
fi
echo "$n compressed and $n6 v6 traces checked"
finish
