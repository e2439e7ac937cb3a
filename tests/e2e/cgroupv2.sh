#!/bin/sh
# cgroup v2 settings that change what reclaim does with no vmscan event saying so
# (tests/fixtures/cgroupv2/, the guest's `swapmax` and `protect` scenarios on 7.2, classic LRU):
# memory.swap.max (mem_cgroup_get_nr_swap_pages(): no anon reclaim for a memcg without swap of
# its own) and memory.min/memory.low (mem_cgroup_calculate_protection()). The recorder writes
# them into its memcg_stat markers; replay models swap.max 0 and claims no identity for the
# calls the others concern. Every figure against sums over `trace-cmd report -R`: the settings
# from the markers, the pages scanned per list in each memcg's limit reclaim episodes (by the
# begin event's memcg_id, per task up to its end event).
. tests/lib-e2e.sh
need trace-cmd jq awk

# "id list pages" of every lru_isolate inside a memcg reclaim episode, by the episode's memcg_id,
# and "set cg=PATH id=ID min=B low=B swap_max=B" of every memcg_stat marker that has min=
episodes() {
	awk "$RAW_AWK"'
	/memcg_stat cg=/ && / min=/ {
		printf "set cg=%s id=%s min=%s low=%s swap_max=%s\n", field("cg"), field("id"),
			field("min"), field("low"), field("swap_max")
	}
	/ mm_vmscan_memcg_reclaim_begin: / { ep[pid_of()] = field("memcg_id") }
	/ mm_vmscan_memcg_reclaim_end: / { delete ep[pid_of()] }
	/ mm_vmscan_lru_isolate: / {
		p = pid_of()
		if (p in ep)
			sc[ep[p] " " field("lru")] += field("nr_scanned")
	}
	END { for (k in sc) print "scan", k, sc[k] }' "$1" | sort -u
}
LISTS="inactive_anon active_anon inactive_file active_file"
list_no() { echo "$LISTS" | tr ' ' '\n' | grep -nx "$1" | cut -d: -f1 | awk '{ print $1 - 1 }'; }
# recorded pages scanned on list $3 in the episodes of memcg id $2 (oracle file $1)
scanned_in() { awk -v id="$2" -v l="$(list_no "$3")" '$1 == "scan" && $2 == id && $3 == l {
	s += $4 } END { print s + 0 }' "$1"; }
# "\1 \2 \3 \4": id, min, low, swap_max of memcg $2's markers, as $3 picks them
setting() {
	_n='\([0-9]*\)'
	sed -n "s|^set cg=$2 id=$_n min=$_n low=$_n swap_max=$_n\$|$3|p" "$1" | sort -u
}
# no_claim WHAT JSON ORACLE ID GAP ROW: on every list, replay's identity row that the jq filter
# ROW picks ($l: the list) is no claim for lacking GAP, and the pages of the list scanned in the
# calls lacking GAP are those of memcg id ID's episodes
no_claim() {
	for l in $LISTS; do
		expect_eq "$1 $l verdict and lacks" "$(jq -r --arg l "$l" \
			"$6"' | [.verdict, (.lacks | join(","))] | @tsv' "$2")" \
			"$(printf 'NO CLAIM\t%s' "$5")"
		expect_eq "$1 pages of $l scanned in calls lacking $5" \
			"$(jq --arg l "$l" --arg g "$5" '.replay.identity.trace_lacks[] |
				select(.name == $g) | .recorded_scanned_in_calls[$l]' "$2")" \
			"$(scanned_in "$3" "$4" "$l")"
	done
}

# swapmax: /rs_nosw (memory.max 64 MB, memory.swap.max 0) and /rs_smallsw (memory.swap.max
# 16 MB), each keeping 40 MB of anon in use while streaming 256 MB; limit reclaim only
f=$TOP/tests/fixtures/cgroupv2/k72-swapmax.dat
trace_report "$f" -R >"$TMP/sw.raw" || fail "swapmax: trace-cmd report"
episodes "$TMP/sw.raw" >"$TMP/sw.orc"
nosw=$(setting "$TMP/sw.orc" /rs_nosw '\1')
small=$(setting "$TMP/sw.orc" /rs_smallsw '\1')
expect_eq "swapmax: /rs_nosw memory.swap.max in its markers" \
	"$(setting "$TMP/sw.orc" /rs_nosw '\4')" 0
expect_eq "swapmax: /rs_smallsw memory.swap.max in its markers" \
	"$(setting "$TMP/sw.orc" /rs_smallsw '\4')" 16777216
# the kernel reclaimed no anon of the memcg without swap, and some of the other's
expect_eq "swapmax: /rs_nosw's episodes scanned anon" "$(scanned_in "$TMP/sw.orc" "$nosw" \
	inactive_anon)" 0
[ "$(scanned_in "$TMP/sw.orc" "$small" inactive_anon)" -gt 1000 ] ||
	fail "swapmax: /rs_smallsw's episodes scanned under 1000 inactive anon pages"

"$RS_BIN" replay --policy mainline --json "$f" >"$TMP/sw.json" || fail "swapmax: replay exit $?"
"$RS_BIN" replay --policy mainline --inputs "$f" >"$TMP/sw.txt" || fail "swapmax: replay --inputs"
# /rs_nosw: modelled (no anon reclaim with swap.max 0), claimed, within the target; the
# recorded pages its lists show are the episodes' sums
for l in inactive_file active_file; do
	row=$(jq -r --arg l "$l" '.replay.identity.cgroups[] |
		select(.path == "/rs_nosw" and .list == $l) |
		[.verdict, .recorded_scanned, (.lacks | length)] | @tsv' "$TMP/sw.json")
	expect_eq "swapmax: /rs_nosw $l verdict, recorded pages, inputs lacked" "$row" \
		"$(printf 'ok\t%s\t0' "$(scanned_in "$TMP/sw.orc" "$nosw" "$l")")"
done
expect_eq "swapmax: mainline's inactive anon pages of /rs_nosw" \
	"$(jq '.policies.mainline.cgroups[] | select(.path == "/rs_nosw") |
		.lru.inactive_anon.scanned' "$TMP/sw.json")" 0
# /rs_smallsw: swap.max above 0 and swap.current sampled: no claim, the gap named, its pages
no_claim "swapmax: /rs_smallsw" "$TMP/sw.json" "$TMP/sw.orc" "$small" memory.swap.max \
	'.replay.identity.cgroups[] | select(.path == "/rs_smallsw" and .list == $l)'
grep -q 'memory.swap.max in 2 ' "$TMP/sw.txt" ||
	fail "swapmax: replay --inputs does not count the two memcgs with memory.swap.max"

# protect: /rs_prot (memory.max 160 MB) has rs_low (memory.low 64 MB, ~80 MB in use: scanned
# in proportion), rs_min (memory.min 40 MB, 32 MB in use: never scanned) and rs_hog, whose
# stream makes every limit reclaim of /rs_prot
f=$TOP/tests/fixtures/cgroupv2/k72-protect.dat
trace_report "$f" -R >"$TMP/pr.raw" || fail "protect: trace-cmd report"
episodes "$TMP/pr.raw" >"$TMP/pr.orc"
prot=$(setting "$TMP/pr.orc" /rs_prot '\1')
expect_eq "protect: rs_low memory.low" "$(setting "$TMP/pr.orc" /rs_prot/rs_low '\3')" 67108864
expect_eq "protect: rs_min memory.min" "$(setting "$TMP/pr.orc" /rs_prot/rs_min '\2')" 41943040
expect_eq "protect: rs_hog memory.min, memory.low" \
	"$(setting "$TMP/pr.orc" /rs_prot/rs_hog '\2 \3')" "0 0"
expect_eq "protect: pages scanned in the episodes of memcgs other than /rs_prot" \
	"$(awk -v id="$prot" '$1 == "scan" && $2 != id { s += $4 } END { print s + 0 }' \
		"$TMP/pr.orc")" 0
"$RS_BIN" replay --policy mainline --json "$f" >"$TMP/pr.json" || fail "protect: replay exit $?"
"$RS_BIN" replay --policy mainline --inputs "$f" >"$TMP/pr.txt" || fail "protect: replay --inputs"
# every limit reclaim of /rs_prot walks its protected children: no list is claimed, whole trace
# or per cgroup, each naming the gap; the gap's pages are the episodes' sums
no_claim protect: "$TMP/pr.json" "$TMP/pr.orc" "$prot" memory.low/min '.replay.identity.lists[$l]'
expect_eq "protect: per-cgroup lists claimed" "$(jq '[.replay.identity.cgroups[] |
	select(.claimed)] | length' "$TMP/pr.json")" 0
grep -q 'memory.min or memory.low set in 2 memcgs' "$TMP/pr.txt" ||
	fail "protect: replay --inputs does not count rs_low and rs_min as protected"

finish
