#!/bin/sh
# Hostile but well-formed input cannot exhaust memory or break the output: a million distinct
# pids, absurd and backwards timestamps, events without their fields, thousands of event names,
# empty traces and empty CPUs. Each run exits 0 with valid JSON and the warning that says what
# was capped; where GNU time is installed, resident memory stays bounded by the caps, not by
# the input. Synthetic traces are generated here, as text (`trace-cmd report` form).
. tests/lib-e2e.sh
need jq
cmds=events
"$RS_BIN" analyze --help >/dev/null 2>&1 && cmds="events analyze"
# ASan multiplies memory and time: fewer pids, no RSS limits
san=0
case $RS_BIN in *-san) san=1 ;; esac
gtime=""
[ $san -eq 0 ] && /usr/bin/time -v true >/dev/null 2>&1 && gtime=/usr/bin/time

# ok CMD FILE [ARGS]: exit 0 and valid JSON in $TMP/out; max RSS (KB) in $rss when measured
ok() {
	c=$1; f=$2; shift 2
	rss=""
	if [ -n "$gtime" ]; then
		$gtime -v -o "$TMP/time" "$RS_BIN" "$c" --json "$@" "$f" >"$TMP/out" 2>"$TMP/err"
		r=$?
		rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$TMP/time")
	else
		"$RS_BIN" "$c" --json "$@" "$f" >"$TMP/out" 2>"$TMP/err"
		r=$?
	fi
	[ $r -eq 0 ] || { fail "$c $* $(basename "$f"): exit $r: $(head -c 300 "$TMP/err")"; return 1; }
	jq -e . "$TMP/out" >/dev/null 2>&1 || { fail "$c $(basename "$f"): invalid JSON"; return 1; }
}
# warned WHAT PATTERN: a warning of the last run matches
warned() {
	jq -r '[.trace.warnings[]?, .analysis.warnings[]?] | .[]' "$TMP/out" | grep -q "$2" ||
		fail "$1: no warning matching '$2'"
}
# rss_below WHAT KB
rss_below() {
	[ -z "$rss" ] || [ "$rss" -lt "$2" ] || fail "$1: max RSS $rss KB, want < $2 KB"
}

# 1. A million distinct pids (one reclaim begin each), fewer under ASan.
n=1000000
[ $san -eq 1 ] && n=200000
awk -v n=$n 'BEGIN { print "cpus=4"
	for (i = 1; i <= n; i++)
		printf "  t%d-%d [%03d] %d.%06d: mm_vmscan_direct_reclaim_begin: order=0 " \
		       "gfp_flags=GFP_KERNEL\n", i % 97, i, i % 4, 100 + int(i / 1000000), i % 1000000
}' >"$TMP/pids.txt"
ok events "$TMP/pids.txt" && {
	expect_eq "pids: events" "$(jq .trace.events "$TMP/out")" $n
	rss_below "events, $n pids" 65536
}
if [ "$cmds" != events ]; then
	ok analyze "$TMP/pids.txt" --max-tasks 1000 && {
		warned "analyze, $n pids" "more than 1000 tasks"
		rss_below "analyze --max-tasks 1000, $n pids" 131072
	}
	# at the default cap the memory is the cap's, whatever the number of pids
	ok analyze "$TMP/pids.txt" && {
		warned "analyze, $n pids, default cap" "more than [0-9]* tasks"
		rss_below "analyze, $n pids, default cap" 1048576
		echo "analyze, $n pids, default --max-tasks: max RSS ${rss:-?} KB"
	}
fi
rm -f "$TMP/pids.txt"

# 2. Absurd and backwards timestamps: 1 us, 10^10 s, then back to 5 s.
cat >"$TMP/ts.txt" <<'EOF'
cpus=2
  a-1 [000] 0.000001: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
  a-1 [000] 9999999999.000000: mm_vmscan_direct_reclaim_end: nr_reclaimed=5
  b-2 [001] 5.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
  b-2 [001] 4.000000: mm_vmscan_direct_reclaim_end: nr_reclaimed=5
EOF
for c in $cmds; do
	ok $c "$TMP/ts.txt" && warned "$c, timestamps" "backwards"
done
if [ "$cmds" != events ]; then
	# 1 us buckets over 10^10 s: the bucket cap, not the span, sizes the timeline
	ok analyze "$TMP/ts.txt" --bucket 0.001 --max-buckets 1000 && {
		b=$(jq .analysis.buckets "$TMP/out")
		[ "$b" -le 1000 ] || fail "analyze, absurd span: $b buckets, cap 1000"
		rss_below "analyze, absurd span" 262144
	}
fi

# 3. Events without the fields they need: counted, warned about, not analysed.
cat >"$TMP/miss.txt" <<'EOF'
cpus=1
  a-1 [000] 1.000001: mm_vmscan_direct_reclaim_end:
  a-1 [000] 1.000002: mm_vmscan_lru_isolate: nr_requested=32
  a-1 [000] 1.000003: mm_vmscan_lru_shrink_inactive: nid=0
EOF
for c in $cmds; do
	ok $c "$TMP/miss.txt" && warned "$c, missing fields" "without field 'nr_reclaimed'"
done

# 4. Ten thousand distinct event names: the count table stops at its cap.
awk 'BEGIN { print "cpus=1"
	for (i = 0; i < 10000; i++) printf "  a-1 [000] 1.%06d: ev_%d: x=1\n", i, i }' >"$TMP/names.txt"
ok events "$TMP/names.txt" && {
	warned "events, 10000 names" "distinct event names"
	k=$(jq '.trace.events_by_name | length' "$TMP/out")
	[ "$k" -le 4097 ] || fail "events, 10000 names: $k names kept"
}

# 5. Lines longer than the reader's buffer, one ending the file without a newline: skipped with
# a warning, the events around them kept.
{
	printf 'cpus=1\n  a-1 [000] 1.000001: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=x\n'
	printf '  a-1 [000] 1.000002: print: 0xffff: '
	head -c 300000 /dev/zero | tr '\0' x
	printf '\n  a-1 [000] 1.000003: mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n'
	head -c 1000000 /dev/zero | tr '\0' y
} >"$TMP/long.txt"
for c in $cmds; do
	ok $c "$TMP/long.txt" && {
		warned "$c, long lines" "longer than"
		expect_eq "$c, long lines: events" "$(jq '.trace.events' "$TMP/out")" 2
	}
done

# 6. Empty: no events at all (text and trace.dat v6/v7), and a trace.dat with one CPU empty.
printf 'cpus=2\n' >"$TMP/empty.txt"
for f in "$TMP/empty.txt" tests/fuzz/seeds/empty-v6.dat tests/fuzz/seeds/empty-v7-zstd.dat; do
	[ -f "$f" ] || continue
	for c in $cmds; do
		ok $c "$f" || continue
		expect_eq "$c $(basename "$f"): events" \
			"$(jq '.trace.events // .analysis.events' "$TMP/out")" 0
	done
done
f=tests/fuzz/seeds/onecpu-v7-zstd.dat
if [ -f "$f" ]; then
	for c in $cmds; do
		ok $c "$f"
	done
fi
finish
