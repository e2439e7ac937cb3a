#!/bin/sh
# The libFuzzer harnesses, built with our compiler and a plain main() (tests/fuzz/
# standalone_main.c), run once over the inputs `tests/fuzz/run.sh` seeds them with: every input
# the fuzzers were given or once failed on runs to the end, so a harness that no longer matches
# the parsers' interfaces fails to build in `make check`, and one whose checks fire (the kallsyms
# harness compares our table with libtraceevent's, aborting on a difference) fails here.
. tests/lib-e2e.sh
need timeout
secs=60
case $RS_BIN in *-san) secs=300 ;; esac
# each harness with the inputs of its kind (the size bounds are run.sh's)
inputs() {
	case $1 in
	tracedat) ls tests/fuzz/seeds/*.dat tests/fuzz/regress/tracedat-* 2>/dev/null
		find tests/fixtures -maxdepth 1 -name '*.dat' -size -257k ;;
	text) ls tests/fuzz/seeds/*.txt tests/fuzz/regress/text-* 2>/dev/null ;;
	kallsyms) ls tests/fuzz/seeds/*.kallsyms tests/fuzz/regress/kallsyms-* 2>/dev/null ;;
	esac
}
n=0
for bin in "$RS_TOOLS"/fuzz_*; do
	[ -x "$bin" ] || continue
	name=${bin##*/fuzz_}
	files=$(inputs "$name")
	[ -n "$files" ] || fail "fuzz_$name: no seed inputs"
	for f in $files; do
		timeout $secs "$bin" "$f" >"$TMP/out" 2>&1
		r=$?
		[ $r -eq 0 ] || fail "fuzz_$name $f: exit $r: $(head -c 600 "$TMP/out")"
		n=$((n + 1))
	done
done
[ "$n" -gt 0 ] || { echo "no harness built in $RS_TOOLS"; exit 77; }
echo "$n harness runs over the fuzz seeds and regression inputs"
finish
