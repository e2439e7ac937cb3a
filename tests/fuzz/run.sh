#!/bin/sh
# Run one libFuzzer harness for a while (called by `make fuzz`, one harness after the other:
# the machine is shared, so one process, no -jobs/-workers).
#
# Usage: tests/fuzz/run.sh NAME SECONDS [libFuzzer option...]
#   NAME is tracedat, text or kallsyms; the binary is build-fuzz/fuzz_NAME.
# The corpus lives in build-fuzz/corpus-NAME (kept between runs, out of git) and is seeded on
# every run from the committed seeds, small fixtures and regression inputs. Crashes, leaks,
# timeouts and out-of-memory inputs land in build-fuzz/artifacts-NAME/; copy each one into
# tests/fuzz/regress/ once it is fixed. Exit status: libFuzzer's (0: nothing found).
set -u
name=$1; secs=$2; shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
out=build-fuzz
bin=$out/fuzz_$name
corpus=$out/corpus-$name
art=$out/artifacts-$name
[ -x "$bin" ] || { echo "fuzz: $bin is not built (make fuzz builds it)" >&2; exit 1; }
mkdir -p "$corpus" "$art"

# seeds: small ones only; a multi-megabyte input makes every execution slow
seed() {	# seed MAXBYTES FILE...
	seed_max=$1; shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		if [ "$(stat -c %s "$f")" -le "$seed_max" ]; then
			cp -f "$f" "$corpus/seed-$(basename "$f")"
		fi
	done
}
case $name in
tracedat)
	maxlen=262144
	seed $maxlen tests/fuzz/seeds/*.dat tests/fixtures/*.dat tests/fuzz/regress/tracedat-*
	;;
text)
	maxlen=65536
	seed $maxlen tests/fuzz/seeds/*.txt tests/fuzz/regress/text-*
	# text fixtures can be long: their first lines carry the headers and every event kind
	for f in tests/fixtures/text/*.txt tests/fixtures/*.txt; do
		[ -f "$f" ] && head -n 300 "$f" | head -c $maxlen >"$corpus/seed-$(basename "$f")"
	done
	;;
kallsyms)
	maxlen=16384
	seed $maxlen tests/fuzz/seeds/*.kallsyms tests/fuzz/regress/kallsyms-*
	;;
*)
	echo "fuzz: unknown harness $name" >&2; exit 2 ;;
esac
dict=""
[ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"

# Leaks proven to be inside libtracecmd/libtraceevent (none of ours) are listed there. The
# format parser recurses deeper than ASan's 30 frames, which hid tep_parse_event (the frame
# lsan.supp anchors on) from a 2-byte leak's stack: keep 100.
ASAN_OPTIONS="malloc_context_size=100${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
echo "fuzz: $name for ${secs}s, corpus $corpus ($(ls "$corpus" | wc -l) inputs)"
# -fork=1: one worker process at a time that is restarted after a crash, so one run collects
# every finding instead of stopping at the first.
# shellcheck disable=SC2086
"$bin" -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
	-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
	-max_len=$maxlen -print_final_stats=1 -artifact_prefix="$art/" $dict "$@" "$corpus"
r=$?
n=$(ls "$art" | wc -l)
[ "$n" -eq 0 ] || echo "fuzz: $name: $n artifact(s) in $art" >&2
exit $r
