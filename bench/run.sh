#!/bin/sh
# make bench: times reclaimscope against the floor (a bare libtracecmd read of one field per
# event, bench/floor.c) and `trace-cmd report`, on a big real trace, and prints the ratios
# issue 9 sets targets for. A benchmark, not a test: it never fails on a ratio.
#
#   BENCH_TRACE=FILE  use this trace instead of recording bench/out/bench.dat (needs root)
#   BENCH_RUNS=N      runs per measurement, the fastest kept (default 3)
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$(pwd)
RS=$TOP/reclaimscope
FLOOR=$TOP/build/tools/floor
OUTDIR=$TOP/bench/out
RUNS=${BENCH_RUNS:-3}
mkdir -p "$OUTDIR"
TRACE=${BENCH_TRACE:-$OUTDIR/bench.dat}

if [ ! -f "$TRACE" ]; then
	[ "$(id -u)" = 0 ] || { echo "bench: recording the trace needs root (or set" \
		"BENCH_TRACE=FILE)" >&2; exit 1; }
	echo "bench: recording $TRACE (the contention scenario at scale; about a minute)"
	FIXTURE_OUT=$OUTDIR tests/fixtures/make-fixtures.sh bench || exit 1
fi

# best WHAT CMD...: the fastest wall time of RUNS runs, in seconds
best() {
	what=$1; shift
	b=""
	i=0
	while [ $i -lt "$RUNS" ]; do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || { echo "bench: $what failed: $*" >&2; echo 0; return; }
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
		i=$((i + 1))
	done
	echo "$b"
}
ratio() { echo "scale=2; $1 / $2" | bc; }

events=$("$RS" events --json "$TRACE" | jq .trace.events)
size=$(stat -c %s "$TRACE")
t_floor=$(best floor "$FLOOR" "$TRACE")
t_a1=$(best "analyze 1 thread" "$RS" analyze --json --threads 1 "$TRACE")
t_a2=$(best "analyze 2 threads" "$RS" analyze --json --threads 2 "$TRACE")
t_report=$(RUNS=1 best "trace-cmd report" trace-cmd report -i "$TRACE")

printf '\ntrace %s: %s events, %s bytes, %s\n\n' "$TRACE" "$events" "$size" \
	"$("$RS" events --json "$TRACE" | jq -r .trace.format)"
printf '%-34s %9s %12s   %s\n' "measurement" "wall s" "Mevents/s" "ratio"
row() { printf '%-34s %9.3f %12.2f   %s\n' "$1" "$2" "$(echo "$events / $2 / 1000000" | bc -l)" "$3"; }
row "floor (libtracecmd, 1 field)" "$t_floor" "1.00x floor"
row "analyze, 1 thread" "$t_a1" "$(ratio "$t_floor" "$t_a1")x floor (target >= 1.0)"
row "analyze, 2 threads" "$t_a2" "$(ratio "$t_floor" "$t_a2")x floor (target >= 1.7)"
row "trace-cmd report > /dev/null" "$t_report" \
	"analyze is $(ratio "$t_report" "$t_a1")x faster (target >= 15)"
if "$RS" replay --help >/dev/null 2>&1; then
	for p in mainline splitlru-plus1 splitlru softlimit-tree softlimit-rework; do
		t=$(best "replay $p" "$RS" replay --json --policy "$p" "$TRACE")
		row "replay $p" "$t" "$(ratio "$t" "$t_a1")x analyze (target <= 2)"
	done
fi
if "$RS" tui --help >/dev/null 2>&1; then
	t=$(RS_TUI_SCRIPT=q RS_TUI_DUMP=/dev/null RS_TUI_SIZE=100x30 best "tui first screen" \
		"$RS" tui "$TRACE")
	row "tui: load + first screen + quit" "$t" "(target <= 2 s at 5 M events)"
fi

echo
printf '%-34s %12s %12s\n' "peak memory" "anon KiB" "RSS KiB"
for w in floor analyze; do
	if [ $w = floor ]; then set -- "$FLOOR" "$TRACE"; else set -- "$RS" analyze --json "$TRACE"; fi
	bench/peakmem.sh "$OUTDIR/mem.$w" "$@"
	read -r anon rss _ <"$OUTDIR/mem.$w"
	printf '%-34s %12s %12s\n' "$w" "$anon" "$rss"
	eval "anon_$w=$anon"
done
printf '%-34s %12s\n' "ours (analyze - floor)" "$((anon_analyze - anon_floor))"
