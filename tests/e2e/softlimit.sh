#!/bin/sh
# cgroup v1 soft-limit reclaim on a real trace (issue 18 item 4): k61-softlimit.dat, recorded in
# the 6.1 guest (tests/fixtures/guest/vm.sh -k 6.1 -m off softlimit): /rs_soft over its 32 MB
# soft limit, /rs_unl soft-unlimited, a stream from the root outside both. The recorded soft
# passes are summed here from `trace-cmd report`, per task between
# mm_vmscan_memcg_softlimit_reclaim_begin and _end (each pair is one mem_cgroup_shrink_node()
# visit): visits, lru_isolate nr_scanned (every list), lru_shrink_inactive nr_reclaimed and the
# ends' nr_reclaimed. analyze's softlimit context and replay's recorded soft figures must equal
# them; the tree policy's verdict is checked as docs/models.md states it: softlimit-tree is not
# within 10% of these passes (its 3.10 shrink_lruvec() stops a visit once 32 pages are
# reclaimed, 6.1's adds the proportional cut) and prints no figure, naming the inputs 6.1 lacks;
# so does mainline (+34.7%); the rework's soft passes take from /rs_soft alone, the one memcg
# over its soft limit.
. tests/lib-e2e.sh
need trace-cmd jq
check() {	# check FIXTURE SIGN: softlimit-tree scans "<" or ">" the recorded soft passes
	FX=$1
	sign=$2
	b=$(basename "$FX" .dat)
	trace_report "$FX" >"$TMP/report" || fail "$b: trace-cmd report"
	# "visits scanned reclaimed ends_reclaimed anon_scanned file_scanned"
	want=$(awk '
	{
		ev = ""
		for (i = 1; i <= NF; i++) if ($i ~ /^mm_vmscan_[a-z_]*:$/) { ev = $i; break }
		if (ev == "") next
		n = split($1, c, "-"); pid = c[n]
		if (ev == "mm_vmscan_memcg_softlimit_reclaim_begin:") { soft[pid] = 1; visits++; next }
		if (ev == "mm_vmscan_memcg_softlimit_reclaim_end:") {
			soft[pid] = 0
			for (i = 1; i <= NF; i++) if ($i ~ /^nr_reclaimed=/) { sub(/^nr_reclaimed=/, "", $i); ends += $i }
			next
		}
		if (!soft[pid]) next
		delete v
		for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
		if (ev == "mm_vmscan_lru_isolate:") {
			scanned += v["nr_scanned"]
			if (v["lru"] ~ /anon/) anon += v["nr_scanned"]; else file += v["nr_scanned"]
		}
		if (ev == "mm_vmscan_lru_shrink_inactive:") reclaimed += v["nr_reclaimed"]
	}
	END { print visits + 0, scanned + 0, reclaimed + 0, ends + 0, anon + 0, file + 0 }' "$TMP/report")
	set -- $want
	[ "$1" -gt 500 ] || fail "$b: the fixture has $1 soft-limit visits (want > 500): $want"
	expect_eq "$b: soft visits' shrink_inactive reclaimed = their ends' nr_reclaimed" "$3" "$4"

	rs_json analyze "$FX" >"$TMP/an.json" || fail "$b: analyze exit $?"
	expect_eq "$b: analyze: softlimit episodes" "$(jq '.episodes.softlimit.count' "$TMP/an.json")" "$1"
	expect_eq "$b: analyze: softlimit episodes reclaimed" \
		"$(jq '.episodes.softlimit.reclaimed' "$TMP/an.json")" "$4"

	"$RS_BIN" replay --json --policy all "$FX" >"$TMP/r.json" 2>"$TMP/r.err" ||
		fail "$b: replay --json exited non-zero: $(cat "$TMP/r.err")"
	expect_eq "$b: replay: recorded soft passes scanned, reclaimed" \
		"$(jq -r '.recorded.in_calls | "\(.soft_scanned) \(.soft_reclaimed)"' "$TMP/r.json")" "$2 $3"
	expect_eq "$b: replay: soft-limit episodes in the replayed calls" \
		"$(jq '.inputs.calls.soft_limit_episodes' "$TMP/r.json")" "$1"

	# softlimit-tree: checked against the recorded passes, off by more than 10%, no figure, and the
	# inputs 6.1 cannot record named
	jq -e --arg s "$sign" '.policies."softlimit-tree" | .soft_limit_claim as $c |
		$c.checked and ($c.shown | not) and
		(if $s == "<" then $c.error_pct < -10 else $c.error_pct > 10 end) and ($c.lacks | index("lruvec deltas")) and
		($c.lacks | index("soft-limit tree")) and .soft_scanned == null' "$TMP/r.json" >/dev/null ||
		fail "$b: softlimit-tree claims the soft passes or says no reason: $(jq -c '.policies."softlimit-tree".soft_limit_claim' "$TMP/r.json")"
	"$RS_BIN" replay --policy softlimit-tree "$FX" >"$TMP/r.txt" 2>&1 || fail "$b: replay exit $?"
	tr '\n' ' ' <"$TMP/r.txt" | sed 's/  */ /g' |
		grep -q "soft-limit passes: no figure. This model stands for the recorded kernel's soft-limit passes (recorded $2 pages scanned, $3 reclaimed)" ||
		fail "$b: replay text: no 'no figure' line with the recorded $2 / $3"

	# mainline's soft passes (the tree walk over 6.x shrink_lruvec(), the recorded kernel's) are
	# checked too: +34.7% and +257% on these traces (docs/models.md), so no figure either, and the
	# error is the one the calls' own soft figures give
	"$RS_BIN" replay --json --policy mainline --calls=all "$FX" >"$TMP/c.json" 2>"$TMP/c.err" ||
		fail "$b: replay --calls=all exited non-zero: $(cat "$TMP/c.err")"
	expect_eq "$b: replay --calls=all: recorded soft scanned over the calls" \
		"$(jq '[.replay.calls.listed[].recorded.soft_scanned] | add' "$TMP/c.json")" "$2"
	m=$(jq '[.replay.calls.listed[].model.soft_scanned] | add' "$TMP/c.json")
	jq -e --argjson m "$m" --argjson r "$2" '.policies.mainline | .soft_limit_claim as $c |
		$c.checked and ($c.shown | not) and ($c.lacks | index("lruvec deltas")) and
		(($c.error_pct - 100 * ($m - $r) / $r) | fabs < 0.001) and ($c.error_pct | fabs > 10) and
		.soft_scanned == null and ([.cgroups[].soft_scanned] | all(. == null))' "$TMP/r.json" \
		>/dev/null ||
		fail "$b: mainline's soft passes: $(jq -c '.policies.mainline.soft_limit_claim' "$TMP/r.json"), calls $m"

	# the rework's soft passes (never checked: another mechanism) take from /rs_soft alone, the one
	# memcg over its soft limit: the per-cgroup soft figures sum to the total and sit in /rs_soft
	for p in softlimit-rework; do
		got=$(jq -r --arg p "$p" '.policies[$p] | [.soft_scanned,
			([.cgroups[] | select(.path == "/rs_soft") | .soft_scanned] | add),
			([.cgroups[] | select(.path != "/rs_soft") | .soft_scanned // 0] | add)] |
			map(tostring) | join(" ")' "$TMP/r.json")
		set -- $got
		[ "$1" -gt 0 ] && [ "$1" = "$2" ] && [ "$3" = 0 ] ||
			fail "$b: $p: soft passes scanned $1, in /rs_soft $2, elsewhere $3"
	done
}

FX="$TOP/tests/fixtures/softlimit/k61-softlimit.dat"
[ -f "$FX" ] || { echo "no $FX"; exit 77; }
check "$FX" "<"
# softlimit-idle: /rs_soft's 128 MB of anon touched once and left alone, so its sizes change only
# by reclaim; its soft passes isolate 250 THPs (128,609 pages scanned, 453 reclaimed) besides
# 850 batches of base pages (27,200 scanned, 24,247 reclaimed), and both models scan far past the recording (+257%,
# +174%): no figure (docs/models.md)
FX="$TOP/tests/fixtures/softlimit/k61-softlimit-idle.dat"
[ ! -f "$FX" ] || check "$FX" ">"
finish
