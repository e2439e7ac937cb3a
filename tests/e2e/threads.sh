#!/bin/sh
# --threads N gives byte for byte the output of --threads 1: analyze (JSON and text), events,
# cgroups and replay, on every real trace, on time ranges, and on two damaged copies of the v6 fixture
# that take the parallel loader's rare paths: pages that say events were lost, and timestamps
# that go backwards across a page (the merge must then keep the single-threaded order and warn
# at the same point). Small traces are cut into one-page segments, so segment boundaries,
# batches and the scheduling between decode threads are all exercised.
. tests/lib-e2e.sh
need jq trace-cmd

# the thread counts compared with 1: under a sanitizer (every run six times slower) one count,
# the one that runs the most decode threads at once. The sanitizer round cuts repetitions, not
# checks: every trace is still read with 1 and 3 threads by analyze (by events, which reads
# through the same loader, the big trace and the two below); the checks that run the same code
# on each trace (threads default and auto, the text, the ranges, cgroups and replay) run on the
# first fixture and on the v6 one (the other file format) there.
THREADS="2 3"
san=
case $RS_BIN in *-san) THREADS=3 san=1 ;; esac

# same WHAT ARGS...: the command's output with 1 thread and with each of $THREADS must be identical
same() {
	what=$1; shift
	"$RS_BIN" "$@" --threads 1 >"$TMP/t1" 2>"$TMP/e1"; r1=$?
	for t in $THREADS; do
		"$RS_BIN" "$@" --threads $t >"$TMP/t$t" 2>"$TMP/e$t"; rt=$?
		expect_eq "$what: exit status with $t threads" "$rt" "$r1"
		cmp -s "$TMP/t1" "$TMP/t$t" || { fail "$what: output differs with $t threads";
			diff "$TMP/t1" "$TMP/t$t" | head -n 10; }
	done
	[ "$r1" = 0 ] || { fail "$what: exit $r1"; sed 's/^/    /' "$TMP/e1"; }
}
# same_default WHAT ARGS...: also without --threads (the default, auto: up to the CPUs available,
# decode threads from 3 CPUs and 32 MiB of pages, the fixtures' kallsyms parsed on a thread of
# their own) and with --threads auto as if every trace were that big on a machine that big
# (RS_AUTO_MIN=0 RS_AUTO_CPUS=2), against $TMP/t1 of the same() just before
same_default() {
	what=$1; shift
	for t in default auto; do
		if [ $t = default ]; then "$RS_BIN" "$@" >"$TMP/td" 2>"$TMP/ed"
		else RS_AUTO_MIN=0 RS_AUTO_CPUS=2 "$RS_BIN" "$@" --threads auto >"$TMP/td" \
			2>"$TMP/ed"; fi
		expect_eq "$what: exit status with threads $t" $? 0
		cmp -s "$TMP/t1" "$TMP/td" || { fail "$what: output differs with threads $t";
			diff "$TMP/t1" "$TMP/td" | head -n 10; }
	done
}

n=0
for f in $(real_traces_all); do
	n=$((n + 1))
	b=$(basename "$f")
	# the big trace and, under a sanitizer, all but two fixtures: analyze and events with
	# each thread count only (default and auto use the CPU count or one, both checked here)
	all=1
	[ "$f" = "$SHARED_TRACE" ] && all=
	[ -n "$san" ] && [ "$n" -gt 1 ] && [ "$b" != v6.dat ] && all=
	same "$b analyze --json" analyze --json "$f"
	[ -n "$all" ] && same_default "$b analyze --json" analyze --json "$f"
	if [ -n "$all" ] || [ -z "$san" ] || [ "$f" = "$SHARED_TRACE" ]; then
		same "$b events --json" events --json "$f"
	fi
	[ -n "$all" ] && same_default "$b events --json" events --json "$f"
	[ -n "$all" ] || continue
	first=$(jq -r .trace.first_s "$TMP/t1")
	last=$(jq -r .trace.last_s "$TMP/t1")
	same "$b analyze" analyze "$f"
	# the middle of the trace, and each half
	mid=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f\n", (a + b) / 2 }')
	same "$b analyze --from $mid" analyze --json --from "$mid" "$f"
	same "$b analyze --to $mid" analyze --json --to "$mid" "$f"
	same "$b analyze --from $first --to $mid" analyze --json --from "$first" --to "$mid" "$f"
	same "$b cgroups --json" cgroups --json "$f"
	same "$b replay --json" replay --json "$f"
done
[ "$n" -gt 0 ] || { echo "no real traces found"; exit 77; }

# ---- damaged copies of the v6 fixture (its ring-buffer pages are stored as they are) ----
V6=$TOP/tests/fixtures/v6.dat
# cpu_data CPU: "offset size" of the CPU's pages, from the file's flyrecord section
cpu_data() { trace-cmd dump --flyrecord -i "$V6" 2>/dev/null |
	sed -n "s/^[[:space:]]*\([0-9]*\)[[:space:]]*\([0-9]*\)[[:space:]]*\[offset, size of cpu $1\]/\1 \2/p"; }
rd32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
wr32() {
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($3 & 255)) $((($3 >> 8) & 255)) \
		$((($3 >> 16) & 255)) $((($3 >> 24) & 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
set -- $(cpu_data 0) $(cpu_data 1)
if [ $# -ne 4 ] || [ "$2" -lt 16384 ] || [ "$4" -lt 16384 ]; then
	echo "v6 fixture: cannot find its CPU data; damaged copies skipped"
	finish
fi
c0=$1 c1=$3

# lost events: the commit word of a page header (8 bytes after its timestamp) gets the
# "missed events" flag, bit 31, on pages 1 and 3 of CPU 0 and page 2 of CPU 1
cp "$V6" "$TMP/missed.dat"
for at in $((c0 + 4096)) $((c0 + 3 * 4096)) $((c1 + 2 * 4096)); do
	wr32 "$TMP/missed.dat" $((at + 8)) $(($(rd32 "$TMP/missed.dat" $((at + 8))) | 2147483648))
done
same "missed events: analyze --json" analyze --json "$TMP/missed.dat"
same "missed events: events --json" events --json "$TMP/missed.dat"
expect_eq "missed events: pages counted" \
	"$(jq '[.trace.missed_by_cpu[].missed_unknown] | add' "$TMP/t1")" 3

# backwards: the first event of page 1 of CPU 0 is moved 100 ms later (its time delta, the
# upper 27 bits of its header), and with it the rest of the page, past page 2's start
cp "$V6" "$TMP/back.dat"
at=$((c0 + 4096 + 16))
h=$(rd32 "$TMP/back.dat" $at)
if [ $((h & 31)) -le 28 ] && [ $((h >> 5)) -lt 30000000 ]; then
	wr32 "$TMP/back.dat" $at $((h + (100000000 << 5)))
	same "backwards: analyze --json" analyze --json "$TMP/back.dat"
	same "backwards: events --json" events --json "$TMP/back.dat"
	jq -e '.trace.warnings | map(select(test("timestamps go backwards"))) | length > 0' \
		"$TMP/t1" >/dev/null || fail "backwards: no warning; the copy did not go backwards"
else
	echo "v6 fixture: page 1 does not start with a data event; backwards copy skipped"
fi

# compressed data that cannot be read from a later chunk on (fuzz regress inputs): the CPU's
# records end there, as the single-threaded cursor stops; segments decoded past it must be
# dropped and their records not counted (two of these read 112 events more, and not always
# the same, before segments were cut)
for f in "$TOP"/tests/fuzz/regress/tracedat-zchunk-later-garbage \
	 "$TOP"/tests/fuzz/regress/tracedat-zchunk-later-page-commit \
	 "$TOP"/tests/fuzz/regress/tracedat-zchunk-later-rsize-mismatch; do
	same "$(basename "$f"): events --json" events --json "$f"
	same "$(basename "$f"): analyze --json" analyze --json "$f"
	same "$(basename "$f"): cgroups --json" cgroups --json "$f"
done

# the option itself: the default is the CPUs available (the affinity mask), not 1; with one
# CPU allowed the stream is the single-threaded one, which must give the same output too
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	taskset -c 0 "$RS_BIN" analyze --json "$V6" >"$TMP/tone" 2>/dev/null
	expect_eq "analyze --json on one CPU: exit" $? 0
	"$RS_BIN" analyze --json --threads 1 "$V6" | cmp -s - "$TMP/tone" ||
		fail "analyze --json on one CPU differs from --threads 1"
fi
for bad in 0 65 two "" auto1; do
	"$RS_BIN" analyze --threads "$bad" "$V6" >/dev/null 2>&1
	expect_eq "analyze --threads '$bad'" $? 2
	for cmd in events cgroups replay; do
		"$RS_BIN" $cmd --threads "$bad" "$V6" >/dev/null 2>&1
		expect_eq "$cmd --threads '$bad'" $? 2
	done
done
# every command that reads a trace takes it (the shared option, include/cmd_args.h), and diff's
# comparison of two traces is the same with any
for cmd in analyze cgroups events replay export plot tui diff; do
	"$RS_BIN" --list-options $cmd | grep -qx -- '--threads=' || fail "$cmd has no --threads"
done
d1=$TOP/tests/fixtures/kernel7/k72-global-classic.dat d2=$TOP/tests/fixtures/kernel7/k72-multi.dat
if [ -f "$d1" ] && [ -f "$d2" ]; then
	"$RS_BIN" diff --json "$d1" "$d2" >"$TMP/diff-default" 2>/dev/null
	for t in 1 3; do
		"$RS_BIN" diff --json --threads $t "$d1" "$d2" 2>/dev/null |
			cmp -s - "$TMP/diff-default" || fail "diff --threads $t differs from the default"
	done
fi
echo "$n traces checked"
finish
