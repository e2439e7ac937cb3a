#!/bin/sh
# make bench: times reclaimscope against the floor (a bare libtracecmd read of one field per
# event, bench/floor.c) and `trace-cmd report`, on a big real trace, and prints the ratios
# issue 9 sets targets for. A benchmark, not a test: it never fails on a ratio.
#
# The trace is measured twice: as recorded (trace.dat v7, zstd) and converted to v6; the v6
# copy compressed with zstd gives the decompression floor (`zstd -dc` of the same data), and
# issue 22's targets compare the v7 reads with it: one thread within 1.2x of (decompression +
# v6 analysis), two within 1.3x of the two-core limit (that CPU time over two cores). On a v7
# file libtracecmd 1.3.1 keeps every decompressed chunk and searches that list for each page
# (bench/README.md), so the floor, which is plain libtracecmd, reads it in quadratic time; the
# uncompressed v6 copy is read through mmap, which makes its floor an honest one.
#
#   BENCH_TRACE=FILE  use this trace instead of recording bench/out/bench.dat (needs root)
#   BENCH_RS=BIN      measure this reclaimscope binary (default: the one `make` built)
#   BENCH_RUNS=N      runs per measurement, the fastest kept (default 3; the v7 floor and
#                     trace-cmd report run once: they take minutes)
#   BENCH_QUICK=1     skip the v7 floor and trace-cmd report on v7 (the slow ones)
#   BENCH_LARGE=1     also record bench/out/bench-large.dat (~60 M events, 120 MB, 3 min) for
#                     the memory rows; used whenever it exists
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$(pwd)
RS=${BENCH_RS:-$TOP/reclaimscope}
TOOLS=$TOP/build/tools
FLOOR=$TOOLS/floor
MEMSPLIT=$TOOLS/memsplit.so
OUTDIR=$TOP/bench/out
RUNS=${BENCH_RUNS:-3}
QUICK=${BENCH_QUICK:-0}
mkdir -p "$OUTDIR"
TRACE=${BENCH_TRACE:-$OUTDIR/bench.dat}
V6=$OUTDIR/$(basename "$TRACE" .dat)-v6.dat
TUI5M=$OUTDIR/$(basename "$TRACE" .dat)-5m.dat
LARGE=$OUTDIR/bench-large.dat
POLICIES="mainline splitlru-plus1 splitlru softlimit-tree softlimit-rework"

if [ ! -f "$TRACE" ]; then
	[ "$(id -u)" = 0 ] || { echo "bench: recording the trace needs root (or set" \
		"BENCH_TRACE=FILE)" >&2; exit 1; }
	echo "bench: recording $TRACE (the contention scenario at scale; about a minute)"
	FIXTURE_OUT=$OUTDIR tests/fixtures/make-fixtures.sh bench || exit 1
fi
if [ "${BENCH_LARGE:-0}" = 1 ] && [ ! -f "$LARGE" ]; then
	[ "$(id -u)" = 0 ] || { echo "bench: recording $LARGE needs root" >&2; exit 1; }
	echo "bench: recording $LARGE (the bench scenario twice as long; about 3 minutes)"
	FIXTURE_OUT=$OUTDIR tests/fixtures/make-fixtures.sh bench-large || exit 1
fi
for t in "$RS" "$FLOOR" /usr/bin/time; do
	[ -x "$t" ] || { echo "bench: $t is missing (make bench builds it)" >&2; exit 1; }
done

# The v6 copy is ~16x the v7 file; make it when the disk has room for it twice over.
if [ ! -f "$V6" ]; then
	need=$(($(stat -L -c %s "$TRACE") * 32 / 1024))
	free=$(df -Pk "$OUTDIR" | awk 'NR == 2 {print $4}')
	if [ "$free" -gt "$need" ]; then
		echo "bench: converting to $V6 (trace-cmd convert --file-version 6)"
		trace-cmd convert -i "$TRACE" --file-version 6 -o "$V6" >/dev/null 2>&1 ||
			{ echo "bench: trace-cmd convert failed; v6 rows skipped" >&2; rm -f "$V6"; }
	else
		echo "bench: $((free / 1024)) MB free, the v6 copy wants ~$((need / 1024)) MB;" \
			"v6 rows skipped"
	fi
fi
# The TUI target is stated at 5 M events: the first 5 M of the trace.
if [ ! -f "$TUI5M.1" ]; then
	src=$TRACE
	[ -f "$V6" ] && src=$V6
	trace-cmd split -i "$src" -e 5000000 -o "$TUI5M" >/dev/null 2>&1 || rm -f "$TUI5M.1"
fi

# measure KEY RUNS CMD...: run CMD (output to /dev/null) RUNS times; keep the fastest wall
# time and the least CPU time (user + sys) in $OUTDIR/KEY.wall / KEY.cpu; "-" when it failed
measure() {
	key=$1 n=$2
	shift 2
	rm -f "$OUTDIR/$key.wall" "$OUTDIR/$key.cpu"
	i=0
	bw="" bc=""
	while [ $i -lt "$n" ]; do
		if ! /usr/bin/time -f "%e %U %S" -o "$OUTDIR/time.out" "$@" >/dev/null 2>"$OUTDIR/$key.err"
		then
			echo "bench: $key failed: $* ($(tail -n 1 "$OUTDIR/$key.err"))" >&2
			echo - >"$OUTDIR/$key.wall"; echo - >"$OUTDIR/$key.cpu"
			return
		fi
		read -r w u s <"$OUTDIR/time.out"
		c=$(echo "$u + $s" | bc)
		if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc)" = 1 ]; then bw=$w; fi
		if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc)" = 1 ]; then bc=$c; fi
		i=$((i + 1))
	done
	echo "$bw" >"$OUTDIR/$key.wall"
	echo "$bc" >"$OUTDIR/$key.cpu"
}
get() { cat "$OUTDIR/$1" 2>/dev/null || echo -; }
# ratio A B: A / B to two decimals, "-" when either is unknown
ratio() {
	case "$1$2" in *-*|"") echo -; return ;; esac
	echo "scale=2; $1 / $2" | bc
}
load() { cut -d' ' -f1-3 /proc/loadavg; }

load_start=$(load)
for f in "$TRACE" "$V6"; do
	[ -f "$f" ] || continue
	k=$(basename "$f" .dat)
	echo "bench: measuring $k (load $(load))"
	if [ "$QUICK" = 1 ] && [ "$f" = "$TRACE" ]; then
		echo - >"$OUTDIR/$k.floor.wall"; echo - >"$OUTDIR/$k.floor.cpu"
		echo - >"$OUTDIR/$k.report.wall"; echo - >"$OUTDIR/$k.report.cpu"
	else
		case $f in *-v6.dat) fr=$RUNS ;; *) fr=1 ;; esac
		measure "$k.floor" "$fr" "$FLOOR" "$f"
		measure "$k.report" 1 trace-cmd report -i "$f"
	fi
	measure "$k.a1" "$RUNS" "$RS" analyze --json --threads 1 "$f"
	measure "$k.a2" "$RUNS" "$RS" analyze --json --threads 2 "$f"
	measure "$k.ad" "$RUNS" "$RS" analyze --json "$f"
	# the two must agree byte for byte (tests/e2e/threads.sh checks the small traces)
	"$RS" analyze --json --threads 1 "$f" >"$OUTDIR/$k.json"
	"$RS" analyze --json --threads 2 "$f" | cmp -s - "$OUTDIR/$k.json" ||
		echo "bench: $k: analyze --threads 2 differs from --threads 1!" >&2
done
# the decompression floor: the v6 copy's data through zstd (trace-cmd's default codec, level 3)
# (-f, and stat -L above: the traces may be symlinks, as in a worktree sharing bench/out files)
ZST=$V6.zst
if [ -f "$V6" ] && command -v zstd >/dev/null; then
	[ -f "$ZST" ] || zstd -q -3 -T1 -f -c "$V6" >"$ZST" || rm -f "$ZST"
	[ -f "$ZST" ] && measure unzstd "$RUNS" zstd -q -d -c -T1 -f "$ZST"
fi
k=$(basename "$TRACE" .dat)
if "$RS" replay --help >/dev/null 2>&1; then
	for p in $POLICIES; do
		echo "bench: replay $p (load $(load))"
		measure "$k.replay-$p" "$RUNS" "$RS" replay --json --policy "$p" "$TRACE"
	done
fi
tui_first=- tui_key=- tui_events=-
if "$RS" tui --help >/dev/null 2>&1 && [ -f "$TUI5M.1" ]; then
	# headless: the first screen waits for the whole index (the interactive one does not);
	# the keys zoom into the busiest part down to re-read ranges, pan, zoom out
	keys="l l l l l l l l l l l l l l l l l l l l + + + + + + + + + + + L H - - - 0 d q"
	RS_TUI_TIMING=$OUTDIR/tui.timing RS_TUI_SCRIPT=$keys RS_TUI_DUMP=/dev/null \
		RS_TUI_SIZE=120x40 "$RS" tui "$TUI5M.1" >/dev/null 2>&1
	tui_first=$(sed -n 's/^first_screen_ms //p' "$OUTDIR/tui.timing")
	tui_key=$(sed -n 's/^keys .* max_ms \([0-9.]*\).*/\1/p' "$OUTDIR/tui.timing")
	tui_events=$(sed -n 's/^events //p' "$OUTDIR/tui.timing")
fi
load_end=$(load)

# ---- the table ----
events=$("$RS" events --json "$TRACE" | jq .trace.events)
printf '\nmachine   %s CPUs (%s), %s; libtracecmd %s, libtraceevent %s\n' "$(nproc)" \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" "$(uname -r)" \
	"$(pkg-config --modversion libtracecmd 2>/dev/null)" \
	"$(pkg-config --modversion libtraceevent 2>/dev/null)"
printf 'load      %s at the start, %s at the end (1, 5, 15 min)\n' "$load_start" "$load_end"
printf 'trace     %s: %s events\n' "$TRACE" "$events"
for f in "$TRACE" "$V6"; do
	[ -f "$f" ] && printf '          %s: %s MB, %s\n' "$(basename "$f")" \
		"$(($(stat -L -c %s "$f") >> 20))" "$("$RS" events --json "$f" | jq -r .trace.format)"
done
printf '\ntimes are the best of %s runs (floor v7, report: 1); ratios of throughput, from\n' "$RUNS"
printf 'wall time and from CPU time (user + sys); the machine is shared, see the load above\n\n'
row() {	# LABEL WALL CPU RATIO_WALL RATIO_CPU TARGET
	mev=-
	case $2 in -) ;; *) mev=$(echo "scale=2; $events / $2 / 1000000" | bc) ;; esac
	printf '%-30s %8s %8s %9s %9s %9s   %s\n' "$1" "$2" "$3" "$mev" "$4" "$5" "$6"
}
printf '%-30s %8s %8s %9s %9s %9s   %s\n' "measurement" "wall s" "cpu s" "Mev/s" \
	"x wall" "x cpu" "target"
for f in "$TRACE" "$V6"; do
	[ -f "$f" ] || continue
	k=$(basename "$f" .dat)
	fw=$(get "$k.floor.wall") fc=$(get "$k.floor.cpu")
	a1w=$(get "$k.a1.wall") a1c=$(get "$k.a1.cpu")
	a2w=$(get "$k.a2.wall") a2c=$(get "$k.a2.cpu")
	rw=$(get "$k.report.wall") rc=$(get "$k.report.cpu")
	echo "-- $(basename "$f")"
	row "floor (libtracecmd, 1 field)" "$fw" "$fc" 1.00 1.00 "x floor"
	row "analyze, 1 thread" "$a1w" "$a1c" "$(ratio "$fw" "$a1w")" "$(ratio "$fc" "$a1c")" \
		"x floor >= 1.0"
	row "analyze, 2 threads" "$a2w" "$a2c" "$(ratio "$fw" "$a2w")" "$(ratio "$fc" "$a2c")" \
		"x floor >= 1.7 (wall)"
	row "analyze, default (auto, $(nproc) CPUs)" "$(get "$k.ad.wall")" "$(get "$k.ad.cpu")" \
		"$(ratio "$fw" "$(get "$k.ad.wall")")" "$(ratio "$fc" "$(get "$k.ad.cpu")")" \
		"x floor, as 2 threads on 2 CPUs"
	row "trace-cmd report > /dev/null" "$rw" "$rc" "$(ratio "$rw" "$a1w")" \
		"$(ratio "$rc" "$a1c")" "analyze 1 thread faster, >= 15"
done
# issue 22: v7 against the physical limit, decompression + the v6 analysis, in this run
k=$(basename "$TRACE" .dat) k6=$(basename "$V6" .dat)
zc=$(get unzstd.cpu) zw=$(get unzstd.wall)
if [ "$zc" != - ] && [ -f "$V6" ]; then
	lim=$(echo "$zc + $(get "$k6.a1.cpu")" | bc)
	lim2=$(echo "scale=3; $lim / 2" | bc)
	echo "-- physical limit: decompression (zstd -dc of $(basename "$V6"), 1 thread) + v6 analysis"
	row "zstd -dc (decompression floor)" "$zw" "$zc" - - ""
	row "limit, 1 CPU (zstd + v6 a1)" "$lim" "$lim" 1.00 1.00 "x limit"
	row "v7 analyze, 1 thread" "$(get "$k.a1.wall")" "$(get "$k.a1.cpu")" \
		"$(ratio "$(get "$k.a1.wall")" "$lim")" "$(ratio "$(get "$k.a1.cpu")" "$lim")" \
		"time x limit <= 1.2"
	row "limit, 2 CPUs (the same / 2)" "$lim2" "$lim" 1.00 1.00 "x limit"
	row "v7 analyze, 2 threads" "$(get "$k.a2.wall")" "$(get "$k.a2.cpu")" \
		"$(ratio "$(get "$k.a2.wall")" "$lim2")" "$(ratio "$(get "$k.a2.cpu")" "$lim")" \
		"wall x 2-CPU limit <= 1.3"
	row "v7 analyze, default threads" "$(get "$k.ad.wall")" "$(get "$k.ad.cpu")" \
		"$(ratio "$(get "$k.ad.wall")" "$lim2")" "$(ratio "$(get "$k.ad.cpu")" "$lim")" \
		"wall x 2-CPU limit"
fi
k=$(basename "$TRACE" .dat)	# the loop above left k at the v6 copy
if [ -f "$OUTDIR/$k.replay-mainline.wall" ]; then
	echo "-- $(basename "$TRACE"): replay (x = replay time / analyze 1 thread)"
	a1w=$(get "$k.a1.wall") a1c=$(get "$k.a1.cpu")
	for p in $POLICIES; do
		w=$(get "$k.replay-$p.wall") c=$(get "$k.replay-$p.cpu")
		row "replay --policy $p" "$w" "$c" "$(ratio "$w" "$a1w")" "$(ratio "$c" "$a1c")" \
			"x analyze <= 2"
	done
fi
printf '\ntui on the first %s events: first screen %s ms (target <= 2000), slowest key %s ms' \
	"$tui_events" "$tui_first" "$tui_key"
printf ' (target <= 50)\n'

# ---- memory ----
printf '\n%-34s %10s %10s %10s %10s\n' "peak memory (KiB)" "RssAnon" "RSS" "ours" "libraries"
for f in "$TRACE" "$V6" "$LARGE"; do
	[ -f "$f" ] || continue
	k=$(basename "$f" .dat)
	[ "$f" = "$LARGE" ] && k="$k ($("$RS" events --json "$f" | jq .trace.events) events)"
	for w in floor a1 a2 ad; do
		case $w in
		floor)	[ "$f" != "$V6" ] && { [ "$QUICK" = 1 ] || [ "$f" = "$LARGE" ]; } && continue
			set -- "$FLOOR" "$f"; label="floor" ;;
		a1)	set -- "$RS" analyze --json --threads 1 "$f"; label="analyze, 1 thread" ;;
		a2)	set -- "$RS" analyze --json --threads 2 "$f"; label="analyze, 2 threads" ;;
		ad)	set -- "$RS" analyze --json "$f"; label="analyze, default threads" ;;
		esac
		bench/peakmem.sh "$OUTDIR/mem.out" "$@"
		read -r anon rss _ <"$OUTDIR/mem.out"
		ours=- theirs=-
		if [ "$w" != floor ] && [ -f "$MEMSPLIT" ]; then
			rm -f "$OUTDIR/split.out"
			MEMSPLIT_OUT=$OUTDIR/split.out LD_PRELOAD=$MEMSPLIT "$@" >/dev/null 2>&1
			read -r ours theirs _ <"$OUTDIR/split.out" 2>/dev/null || ours=-
		fi
		printf '%-34s %10s %10s %10s %10s\n' "$k: $label" "$anon" "$rss" "$ours" "$theirs"
	done
done
printf '(RssAnon: anonymous resident memory, sampled every 20 ms; RSS adds the mapped file\n'
printf ' pages of a v6 trace. ours/libraries: peak live heap by who allocated, bench/memsplit.c)\n'
