#!/bin/sh
# `analyze --json` against figures computed here, independently, from `trace-cmd report -t`
# (nanosecond timestamps) with awk: per-list sums of lru_isolate nr_scanned / nr_taken, sums of
# lru_shrink_inactive nr_reclaimed by RECLAIM_WB_FILE/ANON, reclaim episodes per kind paired
# by pid (count, nr_reclaimed, total/max/p50/p99 latency), kswapd wakes and re-wakes. Every
# comparison is exact: latencies are microseconds rounded to nearest from nanoseconds, and
# percentiles nearest-rank, as docs/json.md defines them. Then the text report must fit 100
# columns, in the C and in a UTF-8 locale.
. tests/lib-e2e.sh
need trace-cmd jq

# Reads `trace-cmd report -t` text on stdin; $1/$2: the range in ns (0 0: all).
# Output: lines "KEY VALUE"; latencies per kind go to $TMP/lat.KIND (ns, one per line).
expect() {
	awk -v lat="$TMP/lat" -v from="$1" -v to="$2" '
	function num(name,   r) {
		if (!match(rest, "(^| )" name "=[0-9]+")) return 0
		r = substr(rest, RSTART, RLENGTH); sub(/.*=/, "", r); return r + 0
	}
	{
		if (!match($0, /-[0-9]+ +\[[0-9]+\] +[0-9]+\.[0-9]+: +[A-Za-z0-9_]+:/)) next
		comm = substr($0, 1, RSTART - 1); sub(/^ +/, "", comm)
		hdr = substr($0, RSTART, RLENGTH); rest = substr($0, RSTART + RLENGTH)
		split(hdr, h, /[][ :]+/)
		pid = substr(h[1], 2); ev = h[4]
		split(h[3], tp, "."); frac = tp[2]
		while (length(frac) < 9) frac = frac "0"
		ns = tp[1] * 1000000000 + substr(frac, 1, 9)
		if (to > 0 && (ns < from || ns >= to)) next
		if (comm ~ /^kswapd[0-9]/) kswapd[pid] = 1
		if (ev == "mm_vmscan_kswapd_wake" || ev == "mm_vmscan_kswapd_sleep") kswapd[pid] = 1
	}
	# kswapd: the first wake after a sleep (or at the start) is a wake, others re-wakes;
	# reclaim work seen before any wake or sleep means it was awake when the trace began
	ev == "mm_vmscan_kswapd_wake" {
		if (ks[pid] == "awake") rewakes++; else { wakes++; ks[pid] = "awake"; kb[pid] = ns }
		next
	}
	ev == "mm_vmscan_kswapd_sleep" {
		sleeps++
		if (ks[pid] == "awake" && kb[pid] > 0) { periods++; awake += ns - kb[pid] }
		ks[pid] = "asleep"; next
	}
	ev != "mm_vmscan_wakeup_kswapd" && (pid in kswapd) && !(pid in ks) {
		ks[pid] = "awake"; kb[pid] = 0
	}
	ev == "mm_vmscan_lru_isolate" {
		if (!match(rest, /lru=[a-z_]+/)) next
		l = substr(rest, RSTART + 4, RLENGTH - 4)
		scanned[l] += num("nr_scanned"); taken[l] += num("nr_taken"); next
	}
	ev == "mm_vmscan_lru_shrink_inactive" {
		t = rest ~ /RECLAIM_WB_FILE/ ? "inactive_file" : "inactive_anon"
		reclaimed[t] += num("nr_reclaimed"); next
	}
	ev ~ /^mm_vmscan_(direct|memcg|memcg_softlimit|node)_reclaim_(begin|end)$/ {
		k = ev; sub(/^mm_vmscan_/, "", k); sub(/_reclaim_(begin|end)$/, "", k)
		sub(/^memcg_softlimit$/, "softlimit", k)
		if (ev ~ /_begin$/) { b[pid, k] = ns; next }
		if (!((pid, k) in b)) next
		d = ns - b[pid, k]; delete b[pid, k]
		cnt[k]++; tot[k] += d; rec[k] += num("nr_reclaimed"); if (d > max[k]) max[k] = d
		# %.0f: mawk prints a number above 2^31 as %.6g (an episode over 2.147 s: "2.1819e+09",
		# which sort -n reads as 2.18) and caps %d there
		printf "%.0f\n", d > (lat "." k)
		# the SUMMARY worst stall: the longest pair of any kind not run by a kswapd
		if (!(pid in kswapd) && (!wset || d > worst)) { worst = d; wpid = pid; wset = 1 }
	}
	ev == "mm_vmscan_kswapd_reclaim_fail" { fails++ }
	ev == "mm_vmscan_reclaim_pages" { rpn++; rps += num("nr_scanned"); rpr += num("nr_reclaimed") }
	ev == "mm_vmscan_write_folio" {
		if (rest ~ /RECLAIM_WB_ANON/) swapout++; else if (rest ~ /RECLAIM_WB_FILE/) filew++
	}
	END {
		split("inactive_anon active_anon inactive_file active_file", L, " ")
		for (i = 1; i <= 4; i++) {
			printf "lru.%s.scanned %d\n", L[i], scanned[L[i]]
			printf "lru.%s.taken %d\n", L[i], taken[L[i]]
		}
		printf "lru.inactive_anon.reclaimed %d\n", reclaimed["inactive_anon"]
		printf "lru.inactive_file.reclaimed %d\n", reclaimed["inactive_file"]
		split("direct memcg softlimit node", K, " ")
		for (i = 1; i <= 4; i++) {
			k = K[i]
			printf "episodes.%s.count %d\n", k, cnt[k]
			printf "episodes.%s.reclaimed %d\n", k, rec[k]
			printf "episodes.%s.latency_us.total %d\n", k, int((tot[k] + 500) / 1000)
			# no episode: no maximum (null), not 0
			if (cnt[k]) printf "episodes.%s.latency_us.max %d\n", k, int((max[k] + 500) / 1000)
			else printf "episodes.%s.latency_us.max null\n", k
		}
		printf "kswapd.wakes %d\nkswapd.rewakes %d\n", wakes, rewakes
		printf "kswapd.periods %d\n", periods
		printf "kswapd.awake_us %d\n", int((awake + 500) / 1000)
		# the summary object: the same figures where they come from, and its own
		for (i = 1; i <= 4; i++) {
			k = K[i]
			printf "summary.stalls.%s.count %d\n", k, cnt[k]
			printf "summary.stalls.%s.total_us %d\n", k, int((tot[k] + 500) / 1000)
		}
		if (wset) {
			printf "summary.worst_stall.latency_us %d\n", int((worst + 500) / 1000)
			printf "summary.worst_stall.pid %d\n", wpid
		} else {
			printf "summary.worst_stall null\n"
		}
		printf "summary.kswapd.wakes %d\nsummary.kswapd.rewakes %d\n", wakes, rewakes
		printf "summary.kswapd.sleeps %d\n", sleeps
		# 7.x: kswapd_reclaim_fail events (traces without 7.x events: null, checked in unit tests)
		if (fails) printf "summary.kswapd.reclaim_fail %d\n", fails
		for (i = 1; i <= 4; i++)
			printf "summary.scan.scanned.%s %d\n", L[i], scanned[L[i]]
		printf "summary.scan.scanned_anon %d\n", scanned["inactive_anon"] + scanned["active_anon"]
		printf "summary.scan.scanned_file %d\n", scanned["inactive_file"] + scanned["active_file"]
		printf "summary.scan.reclaimed %d\n", reclaimed["inactive_anon"] + reclaimed["inactive_file"]
		printf "summary.io.swap_out_folios %d\nsummary.io.file_written_folios %d\n", swapout, filew
		printf "reclaim_pages.events %d\nreclaim_pages.scanned %d\n", rpn, rps
		printf "reclaim_pages.reclaimed %d\n", rpr
	}'
}

# nearest rank: x[ceil(p * n / 100)] of the sorted samples, in us rounded to nearest
pctl() {
	sort -n "$1" | awk -v p="$2" '{ v[NR] = $1 } END {
		if (!NR) { print 0; exit }
		r = int((p * NR + 99) / 100); if (r < 1) r = 1
		print int((v[r] + 500) / 1000) }'
}

# compare KEYS-AND-VALUES-FILE JSON-FILE LABEL: every key of the file, exactly
compare() {
	keys=$(cut -d' ' -f1 "$1" | tr '\n' ' ')
	jq -r --arg keys "$keys" '. as $r | $keys | split(" ")[] | select(. != "") |
		. as $k | "\($k) \($r | getpath($k | split(".")))"' "$2" >"$TMP/got"
	cmp -s "$TMP/got" "$1" || { fail "$3 (got <, want >)"; diff "$TMP/got" "$1" | head -20; }
}

# want_of TRACE FROM-NS TO-NS: the figures (expect) and the percentiles ("P KEY VALUE") of the
# trace's report in that range (0 0: all); through oracle_of, so that the sanitizer round reuses
# the plain round's (an awk pass over the report each)
want_of() {
	rm -f "$TMP"/lat.*
	trace_report "$1" -t -F vmscan | expect "$2" "$3"
	for k in direct memcg softlimit node; do
		[ -f "$TMP/lat.$k" ] || continue
		for p in 50 90 99; do
			echo "P episodes.$k.latency_us.p$p $(pctl "$TMP/lat.$k" $p)"
		done
	done
}
# range_of TRACE: "T1 T2 NS1 NS2", the middle third of its events, bounded by event times as
# trace-cmd prints them; nothing under 30 events
range_of() {
	trace_report "$1" -t -F vmscan | sed -n 's/^.*\] *\([0-9]*\.[0-9]*\): .*$/\1/p' |
		awk '{ t[NR] = $0 } END { if (NR < 30) exit
			a = t[int(NR / 3)]; b = t[int(2 * NR / 3)]
			split(a, x, "."); split(b, y, ".")
			printf "%s %s %d%09d %d%09d\n", a, b, x[1], x[2], y[1], y[2] }'
}

# check RANGE-FROM-NS RANGE-TO-NS TRACE ANALYZE-ARGS...: figures and percentiles
check() {
	from=$1; to=$2; f=$3; shift 3
	oracle_of want_of "$f" "$from" "$to" >"$TMP/want.all" ||
		{ fail "$f: trace-cmd report failed"; return 1; }
	grep -v '^P ' "$TMP/want.all" >"$TMP/want"
	sed -n 's/^P //p' "$TMP/want.all" >"$TMP/want.p"
	if [ $# -eq 0 ]; then
		rs_json analyze "$f" >"$TMP/json"
	else
		"$RS_BIN" analyze --json "$@" "$f" >"$TMP/json"
	fi || { fail "$f $*: exit $?"; return 1; }
	compare "$TMP/want" "$TMP/json" "$f $*: figures differ from trace-cmd report"
	compare "$TMP/want.p" "$TMP/json" "$f $*: percentiles differ"
}

n=0
for f in $(real_traces); do
	n=$((n + 1))
	# a range, on the first trace and the shared one (the code path is the same for all):
	# the middle third, bounded by event times as trace-cmd prints them
	if [ "$n" -eq 1 ] || [ "$f" = "$SHARED_TRACE" ]; then
		set -- $(oracle_of range_of "$f")
		[ $# -eq 4 ] && check "$3" "$4" "$f" --from "$1" --to "$2"
	fi
	check 0 0 "$f" || continue
	# the breakdowns add up to the totals: by context, by node, by task
	bad=$(jq -r '
		(.lru | to_entries[] | .key as $l | .value |
			select(([.by_context[].scanned] | add // 0) != .scanned or
			       ([.by_node[].scanned] | add // 0) != .scanned) |
			"lru.\($l) breakdowns do not add up"),
		(. as $r | ["direct", "memcg", "softlimit", "node"][] as $k |
			select(([$r.tasks[].episodes[$k].count // 0] | add // 0) !=
			       $r.episodes[$k].count) |
			"tasks[].episodes.\($k).count")' "$TMP/json")
	[ -z "$bad" ] || fail "$f: $bad"
	# node ?: a row for each list and context whose isolates of unknown node scanned, took
	# or wrote something; none for isolates that took nothing (shrink_inactive_list() emits
	# no event then, so they never learn a node: a row of zeros says nothing)
	want_q=$(jq '[.lru[].by_node.unknown.by_context // {} | .[] |
		select(.scanned + .taken + (.write_folios // 0) +
		       (.shrink_inactive_events // 0) + (.shrink_active_events // 0) > 0)] | length' \
		"$TMP/json")
	got_q=$(LC_ALL=C "$RS_BIN" analyze "$f" | sed -n '/^LRU SCAN\|^EVICTION BY/,/^$/p' |
		grep -c '^? ')
	expect_eq "$f: LRU rows of node ?" "$got_q" "$want_q"
	# the text report: 100 columns at most, in a UTF-8 locale (sparklines in block
	# characters: count characters, not bytes) and, on the first trace, in ASCII
	if locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
		LC_ALL=C.UTF-8 "$RS_BIN" analyze "$f" >"$TMP/text" || fail "$f: analyze exit $?"
		w=$(LC_ALL=C.UTF-8 wc -L <"$TMP/text")
		[ "$w" -le 100 ] || fail "$f: text report is $w columns wide (UTF-8)"
		grep -q '^RECLAIM EPISODES' "$TMP/text" || fail "$f: no episodes section"
		# reclaim_pages (MADV_PAGEOUT) is in no list: its own row of SCAN BALANCE, with
		# the report's sums, and none without the event
		rp=$(awk '$1 ~ /^reclaim_pages\./ { v[$1] = $2 } END {
			if (v["reclaim_pages.events"]) printf "reclaim_pages %d - - - %d|%d",
				v["reclaim_pages.scanned"], v["reclaim_pages.reclaimed"],
				v["reclaim_pages.events"] }' "$TMP/want")
		got=$(awk '/^reclaim_pages  / { printf "%s %s %s %s %s %s", $1, $2, $3, $4, $5, $6 }
			/^reclaim_pages = / { printf "|%s", $3 }' "$TMP/text")
		expect_eq "$f: the reclaim_pages row of the text" "$got" "$rp"
		# prose may wrap (continuation lines start with exactly 4 spaces); table rows,
		# which have runs of spaces between columns, must not
		bad=$(awk '/^    [^ ]/ && prev ~ /[^ ]   +[^ ]/ { print NR ": " prev }
			{ prev = $0 }' "$TMP/text" | head -3)
		[ -z "$bad" ] || fail "$f: a table row wrapped: $bad"
	fi
	if [ "$n" -eq 1 ]; then
		LC_ALL=C "$RS_BIN" analyze "$f" >"$TMP/text" || fail "$f: analyze text exit $?"
		w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/text")
		[ "$w" -le 100 ] || fail "$f: text report is $w columns wide (C locale)"
		LC_ALL=C grep -q "$(printf '[\200-\377]')" "$TMP/text" &&
			fail "$f: non-ASCII bytes in the C locale"
		# the SUMMARY opens the report (at most 18 lines) and --summary prints only the
		# header and it; the cgroups command's sections only with --with-cgroups
		"$RS_BIN" analyze --summary "$f" >"$TMP/sum" || fail "$f: --summary exit $?"
		s=$(awk '/^SUMMARY/ { on = 1; next } on && /^$/ { exit } on { n++ } END { print n + 0 }' \
			"$TMP/sum")
		[ "$s" -ge 8 ] && [ "$s" -le 18 ] || fail "$f: SUMMARY has $s lines"
		head -n "$(wc -l <"$TMP/sum")" "$TMP/text" | cmp -s - "$TMP/sum" ||
			fail "$f: the report does not open with what --summary prints"
		grep -q '^RECLAIM EPISODES' "$TMP/sum" && fail "$f: --summary printed sections"
		grep -q '^VICTIM SIDE' "$TMP/text" && fail "$f: analyze repeats the cgroups output"
		"$RS_BIN" analyze --with-cgroups "$f" >"$TMP/wc" || fail "$f: --with-cgroups exit $?"
		"$RS_BIN" cgroups "$f" | sed -n '/^VICTIM SIDE/,$p' >"$TMP/cg"
		[ -s "$TMP/cg" ] && { grep -qxF "$(head -n 1 "$TMP/cg")" "$TMP/wc" ||
			fail "$f: --with-cgroups lacks the cgroups sections"; }
		expect_eq "$f: --summary --json keys" \
			"$("$RS_BIN" analyze --summary --json "$f" | jq -c 'keys')" '["analysis","summary","trace"]'
	fi
done
[ "$n" -gt 0 ] || { echo "no real traces found"; exit 77; }
echo "$n traces checked"
finish
