#!/bin/sh
# Every input the fuzzers once crashed, hung or exhausted memory on (tests/fuzz/regress/), and the
# fuzz seeds: exit 0 with valid JSON or exit 1 naming the file, never a signal or a hang, with
# `events` and `analyze` alike. Plain builds run under a 4 GiB address-space limit, so an input
# that makes anything allocate gigabytes fails here too (ASan reserves terabytes: not for -san).
. tests/lib-e2e.sh
need jq timeout
limit=4194304
secs=60
case $RS_BIN in *-san) limit=unlimited; secs=180 ;; esac
# run CMD FILE [ARG...]
run() {
	( ulimit -v $limit 2>/dev/null; exec timeout $secs "$RS_BIN" "$@" --json ) \
		>"$TMP/out" 2>"$TMP/err"
	r=$?
	case $r in
	0) jq -e . "$TMP/out" >/dev/null 2>&1 || fail "$1 $2: exit 0 but invalid JSON" ;;
	1) grep -qF "$2" "$TMP/err" || fail "$1 $2: exit 1, message does not name the file:" \
		"$(head -c 300 "$TMP/err")" ;;
	124) fail "$1 $2: hung (killed after $secs s)" ;;
	*) fail "$1 $2: exit $r: $(head -c 600 "$TMP/err")" ;;
	esac
}
cmds=events
"$RS_BIN" analyze --help >/dev/null 2>&1 && cmds="events analyze"
n=0
for f in tests/fuzz/regress/* tests/fuzz/seeds/*; do
	[ -f "$f" ] || continue
	for c in $cmds; do
		run "$c" "$f"
	done
	run events "$f" --threads 2	# the parallel reader's paths
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no regression inputs"; exit 77; }
echo "$n inputs checked with: $cmds, events --threads 2"
finish
