#!/bin/sh
# Kernel 7.x and MGLRU (issue 23) on the guest fixtures of tests/fixtures/kernel7/ (recorded by
# tests/fixtures/guest/vm.sh): every trace is read (the 7.x print formats are no longer
# refused), and the figures are checked against independent sums over the raw fields of
# `trace-cmd report -R` (trace-cmd 3.1.6 cannot print these formats; -R still prints the
# fields): event counts, per-list scanning, reclaim episodes, the 7.x kswapd runs and health,
# and MGLRU told from the trace's own shape.
. tests/lib-e2e.sh
need trace-cmd jq
n=0
for f in "$TOP"/tests/fixtures/kernel7/*.dat; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	b=$(basename "$f")
	trace_report "$f" -R >"$TMP/raw" || { fail "$b: trace-cmd report -R"; continue; }
	rs_json events "$f" >"$TMP/ev.json" || { fail "$b: events exit $?"; continue; }
	rs_json analyze "$f" >"$TMP/an.json" || { fail "$b: analyze exit $?"; continue; }
	# each command runs once a fixture: its output is kept for the checks below that read it
	"$RS_BIN" cgroups "$f" >"$TMP/cg-$b.txt" 2>/dev/null || fail "$b: cgroups exit $?"
	"$RS_BIN" replay "$f" >"$TMP/replay.txt" 2>&1 || fail "$b: replay exit $?"

	# raw lines: "comm-pid [cpu] ts: name: key=value ..." -> one "name key=value..." per line
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_0-9]+:$/ && $(i - 1) ~ /^[0-9.]+:$/) {
			name = substr($i, 1, length($i) - 1); line = name
			for (j = i + 1; j <= NF; j++) line = line " " $j
			print line; break } }' "$TMP/raw" >"$TMP/ev"

	# every event count (the formats with the 7.x in-irq conditional included)
	awk '{ c[$1]++ } END { for (k in c) print k, c[k] }' "$TMP/ev" | sort >"$TMP/want"
	jq -r '.trace.events_by_name | to_entries[] | "\(.key) \(.value)"' "$TMP/ev.json" |
		sort >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" || fail "$b: event counts differ from trace-cmd report -R:
$(diff "$TMP/want" "$TMP/got" | head -5)"

	# per list: lru_isolate count, nr_scanned; lru_shrink_inactive nr_reclaimed by the
	# RECLAIM_WB_FILE bit (0x2)
	for l in 0:inactive_anon 1:active_anon 2:inactive_file 3:active_file; do
		want=$(awk -v L="${l%%:*}" '$1 == "mm_vmscan_lru_isolate" {
			for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
			if (v["lru"] == L) { n++; s += v["nr_scanned"] } }
			END { print n + 0, s + 0 }' "$TMP/ev")
		got=$(jq -r --arg l "${l#*:}" '"\(.lru[$l].isolates // 0) \(.lru[$l].scanned // 0)"' \
			"$TMP/an.json")
		expect_eq "$b: ${l#*:} isolates, scanned" "$got" "$want"
	done
	want=$(awk '$1 == "mm_vmscan_lru_shrink_inactive" {
		for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
		if (int(v["reclaim_flags"] / 2) % 2) f += v["nr_reclaimed"]; else an += v["nr_reclaimed"] }
		END { print an + 0, f + 0 }' "$TMP/ev")
	got=$(jq -r '"\(.lru.inactive_anon.reclaimed // 0) \(.lru.inactive_file.reclaimed // 0)"' \
		"$TMP/an.json")
	expect_eq "$b: reclaimed anon, file" "$got" "$want"
	# lru_shrink_inactive nr_scanned by list, but a task's event with no lru_isolate since its
	# previous one (same list, node and nr_scanned) once: MGLRU's evict_folios() retry emits the
	# batch's nr_scanned again (mm/vmscan.c, "retry:")
	want=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_0-9]+:$/ && $(i - 1) ~ /^[0-9.]+:$/) {
			ev = substr($i, 1, length($i) - 1); e = i; break }
		pid = $0; sub(/ +\[[0-9]+\].*/, "", pid); sub(/.*-/, "", pid)
		if (ev == "mm_vmscan_lru_isolate") last[pid] = ""
		if (ev != "mm_vmscan_lru_shrink_inactive") next
		for (i = e + 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
		k = int(v["reclaim_flags"] / 2) % 2 " " v["nid"] " " v["nr_scanned"]
		if (last[pid] == k) { last[pid] = ""; next }
		last[pid] = k
		if (int(v["reclaim_flags"] / 2) % 2) f += v["nr_scanned"]; else an += v["nr_scanned"] }
		END { print an + 0, f + 0 }' "$TMP/raw")
	got=$(jq -r '"\(.lru.inactive_anon.shrink_inactive_scanned // 0)",
		"\(.lru.inactive_file.shrink_inactive_scanned // 0)"' "$TMP/an.json" | tr '\n' ' ')
	expect_eq "$b: shrink_inactive_scanned anon, file" "${got% }" "$want"

	# reclaim episodes: begin count and the ends' nr_reclaimed (7.x: with memcg_id)
	for k in direct memcg; do
		want=$(awk -v K="mm_vmscan_${k}_reclaim" '$1 == K "_begin" { n++ }
			$1 == K "_end" { for (i = 2; i <= NF; i++) { split($i, a, "=")
				if (a[1] == "nr_reclaimed") r += a[2] } }
			END { print n + 0, r + 0 }' "$TMP/ev")
		got=$(jq -r --arg k "$k" '"\(.episodes[$k].count) \(.episodes[$k].reclaimed)"' \
			"$TMP/an.json")
		expect_eq "$b: $k episodes, reclaimed" "$got" "$want"
	done

	# kswapd runs (balance_pgdat_end): count, nr_reclaimed, runs reclaiming nothing; null
	# (not 0) when the kernel has no such event (its format is not in the file)
	has7=$(trace-cmd dump --events -i "$f" 2>/dev/null |
		grep -c '^name: mm_vmscan_balance_pgdat_end$')
	want=$(awk '$1 == "mm_vmscan_balance_pgdat_end" { n++; for (i = 2; i <= NF; i++) {
		split($i, a, "="); if (a[1] == "nr_reclaimed") { r += a[2]; z += a[2] == 0 } } }
		END { print n + 0, r + 0, z + 0 }' "$TMP/ev")
	got=$(jq -r '.kswapd.balance_pgdat | "\(.runs) \(.reclaimed) \(.reclaimed_nothing)"' \
		"$TMP/an.json")
	[ "$has7" = 1 ] || want="null null null"
	expect_eq "$b: balance_pgdat runs, reclaimed, reclaimed nothing" "$got" "$want"
	[ "$has7" = 1 ] || expect_eq "$b: reclaim_fail without the 7.x events" \
		"$(jq -c .kswapd.reclaim_fail "$TMP/an.json")" null

	# kswapd health: reclaim_fail events, the largest failure count, clears by reason
	want=$(awk '$1 == "mm_vmscan_kswapd_reclaim_fail" { n++; for (i = 2; i <= NF; i++) {
		split($i, a, "="); if (a[1] == "failures" && a[2] + 0 > m) m = a[2] + 0 } }
		$1 == "mm_vmscan_kswapd_clear_hopeless" { for (i = 2; i <= NF; i++) {
		split($i, a, "="); if (a[1] == "reason") c[a[2] + 0]++ } }
		END { print n + 0, m + 0, c[1] + 0, c[2] + 0, c[3] + 0, c[0] + 0 }' "$TMP/ev")
	[ "$has7" = 1 ] || want=null
	got=$(jq -r '.kswapd.reclaim_fail | if . == null then "null" else "\(.events) \([.nodes[].max_failures] | max // 0) " +
		"\([.nodes[].clears_by_reason.KSWAPD] | add // 0) " +
		"\([.nodes[].clears_by_reason.DIRECT] | add // 0) " +
		"\([.nodes[].clears_by_reason.PCP] | add // 0) " +
		"\([.nodes[].clears_by_reason.OTHER] | add // 0)" end' "$TMP/an.json")
	expect_eq "$b: reclaim_fail events, max failures, clears KSWAPD DIRECT PCP OTHER" "$got" \
		"$want"

	# mod_memcg_lruvec_state.val, a signed long on 7.x: per cgroup, the LRU items' (0-3:
	# inactive/active anon/file) sums against lru_size.delta_pages; on cgroup v2 (the
	# recorder's begin marker) a cgroup's sums include its descendants', as the memory.stat
	# they are held against does: paths by id from the memcg_stat markers and cgroup_mkdir,
	# the root "/" id 1 (its kernfs root's inode)
	awk '{ delete v; for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
		$1 == "print" && v["buf"] == "reclaimscope_begin" && v["cgroup"] == "v2" { v2 = 1 }
		$1 == "print" && v["buf"] == "memcg_stat" { path[v["id"]] = v["cg"]; idp[v["cg"]] = v["id"] }
		$1 == "cgroup_mkdir" { path[v["id"]] = v["path"]; idp[v["path"]] = v["id"] }
		$1 == "mod_memcg_lruvec_state" && v["item"] <= 3 { s[v["id"] " " v["item"]] += v["val"] }
		END {
			idp["/"] = 1
			for (k in s) {
				split(k, q, " ")
				out[k] += s[k]
				if (!v2 || !(q[1] in path))
					continue
				for (p = path[q[1]]; p != "/" && p != "";) {
					sub(/\/[^\/]*$/, "", p)
					if (p == "")
						p = "/"
					if (p in idp)
						out[idp[p] " " q[2]] += s[k]
				}
			}
			for (k in out) print k, out[k]
		}' "$TMP/ev" | sort >"$TMP/want"
	jq -r '.cgroups[] | select(.lru_size.delta_pages != null) | .id as $i |
		.lru_size.delta_pages | "\($i) 0 \(.inactive_anon)", "\($i) 1 \(.active_anon)",
		"\($i) 2 \(.inactive_file)", "\($i) 3 \(.active_file)"' "$TMP/an.json" |
		sort >"$TMP/got"
	awk '{ print $1 "/" $2, $3 }' "$TMP/want" | sort >"$TMP/want2"
	awk '{ print $1 "/" $2, $3 }' "$TMP/got" | sort >"$TMP/got2"
	join -j1 "$TMP/want2" "$TMP/got2" |
		awk '$2 != $3 { print; bad++ } END { exit bad > 0 }' >"$TMP/lrubad" ||
		fail "$b: lru_size.delta_pages differs from the val sums: $(head -3 "$TMP/lrubad")"
	[ -s "$TMP/want" ] && [ "$(join -j1 "$TMP/want2" "$TMP/got2" | wc -l)" -eq 0 ] &&
		fail "$b: no cgroup of the val sums in the analysis"
	[ -s "$TMP/want" ] && ! [ -s "$TMP/got" ] && fail "$b: no lru_size deltas in the analysis"

	# the memcg counters: their event counts where the kernel has the event (its format is
	# in the file), null where it has not (6.1): then no victim, no LRU delta, no swap-in
	# figure is a made-up 0
	rs_json cgroups "$f" >"$TMP/cg.json" || fail "$b: cgroups --json exit $?"
	trace-cmd dump --events -i "$f" 2>/dev/null | sed -n 's/^name: //p' >"$TMP/fmts"
	for e in count_memcg_events mod_memcg_lruvec_state; do
		if grep -qx "$e" "$TMP/fmts"; then
			want=$(awk -v E="$e" '$1 == E { n++ } END { print n + 0 }' "$TMP/ev")
		else
			want=null
		fi
		expect_eq "$b: cgroup_attribution.$e" \
			"$(jq -r ".cgroup_attribution.$e" "$TMP/cg.json")" "$want"
	done
	if ! grep -qx mod_memcg_lruvec_state "$TMP/fmts"; then
		expect_eq "$b: cgroups with an lru_size and no mod_memcg_lruvec_state" \
			"$(jq '[.cgroups[] | select(.lru_size != null)] | length' "$TMP/cg.json")" 0
		# no victim side unless a 7.1+ memcg_id told some (cgroups_leaf.sh checks those
		# figures), and then never a counter sum in it
		leaf=$(jq '.cgroup_attribution.reasons.memcg_id_leaf' "$TMP/cg.json")
		if grep -qx count_memcg_events "$TMP/fmts"; then
			:
		elif [ "$leaf" = 0 ]; then
			expect_eq "$b: cgroups with a victim side and no memcg counter events" \
			"$(jq '[.cgroups[] | select(.victim != null)] | length' "$TMP/cg.json")" 0
		else
			expect_eq "$b: cgroups with counter sums and no memcg counter events" \
			"$(jq '[.cgroups[].victim | select(.count_events != 0 or
				(.other_events | length) != 0 or
				([keys[] | select(test("^(pg|item_|workingset|pswp|zswp|swp|thp)"))] |
				 length) != 0)] | length' "$TMP/cg.json")" 0
		fi
	fi
	# no memcg counters: a kernel before 6.13, or (reclaim events with memcg_id: 7.1+, which
	# has them) not recorded, which the warning says with how to record them
	if ! grep -qx count_memcg_events "$TMP/fmts" &&
	   grep -q '^mm_vmscan_memcg_reclaim_begin .*memcg_id=\|^mm_vmscan_direct_reclaim_begin .*memcg_id=' "$TMP/ev"; then
		grep -q 'not recorded: this kernel has them' "$TMP/cg-$b.txt" ||
			fail "$b: 7.1+ without memcg events: the warning does not say not recorded"
	elif ! grep -qx count_memcg_events "$TMP/fmts"; then
		grep -q 'a kernel before 6.13, or not recorded' "$TMP/cg-$b.txt" ||
			fail "$b: no memcg events: the warning does not say a kernel before 6.13"
	fi
	# and no swap-in line of 0 in the refaults figure: the file's evictions draw the three
	# other lines (plot.sh counts them the same way)
	if ! grep -qx count_memcg_events "$TMP/fmts"; then
		"$RS_BIN" plot --what refaults -o "$TMP/rf.svg" "$f" 2>/dev/null ||
			fail "$b: plot exit $?"
		del=$(grep -c '^mm_filemap_delete_from_page_cache ' "$TMP/ev")
		expect_eq "$b: refault lines without count_memcg_events" \
			"$(grep -o 'style="[^"]*"' "$TMP/rf.svg" | grep -c 'fill:none;stroke-width:1.7;')" \
			"$([ "$del" -gt 0 ] && echo 3 || echo 0)"
	fi
	if ! grep -qx count_memcg_events "$TMP/fmts" && [ "$(jq -r '.refaults.recorded' \
	   "$TMP/an.json")" = true ]; then
		expect_eq "$b: swap-ins without count_memcg_events" \
			"$(jq -c '[.refaults.anon.swapin_pages, .refaults.anon.swapin_events,
				   (.refaults.cgroups[].swapin_pages)] | unique' "$TMP/an.json")" '[null]'
	fi

	# MGLRU from the shape: a batch above 32 pages (SWAP_CLUSTER_MAX) -> true; an active list
	# isolated or shrunk -> false; neither -> the recorder's mglru= marker, else small isolates
	# only, all with isolate_mode (before 6.7: MGLRU emits none, or asks for 4096) -> false,
	# else null (6.17+ MGLRU asks for its scan budget, under 32 in memcg reclaim)
	want=$(awk '$1 == "mm_vmscan_lru_isolate" { iso++; for (i = 2; i <= NF; i++) { split($i, a, "=")
			if (a[1] == "isolate_mode") mode++
			if (a[1] == "nr_requested" && a[2] + 0 > 32) big++
			if (a[1] == "lru" && (a[2] == 1 || a[2] == 3)) cl++ } }
		$1 == "mm_vmscan_lru_shrink_active" { cl++ }
		$1 == "print" && /reclaimscope_begin/ { for (i = 2; i <= NF; i++)
			if ($i ~ /^mglru=/) mk = substr($i, 7) }
		END { if (big && cl) print "null"; else if (big) print "true"
			else if (cl) print "false"
			else if (mk != "") {	# bit 0 of a hex mask: its last digit odd
				d = index("0123456789abcdef", tolower(substr(mk, length(mk)))) - 1
				print (d % 2 ? "true" : "false") }
			else if (iso && mode == iso) print "false"
			else print "null" }' "$TMP/ev")
	for j in "$TMP/ev.json" "$TMP/an.json"; do
		expect_eq "$b: trace.mglru ($(basename "$j"))" "$(jq -r .trace.mglru "$j")" "$want"
	done
	# replay's reconstruction says the same: null/unknown when nothing tells, never "off"
	"$RS_BIN" replay --json --inputs "$f" >"$TMP/ri.json" 2>/dev/null || fail "$b: replay --json"
	expect_eq "$b: replay inputs.header.mglru" "$(jq -r .inputs.header.mglru "$TMP/ri.json")" \
		"$want"
	"$RS_BIN" replay --inputs "$f" 2>/dev/null | sed -n '/^header/,/^calls/p' | tr '\n' ' ' | tr -s ' ' |
		grep -q "MGLRU $(case $want in true) echo on ;; false) echo off ;;
			*) echo unknown ;; esac) " || fail "$b: replay --inputs MGLRU is not $want"
	# MGLRU before 6.7 emits no lru_isolate/lru_shrink_inactive: reclaim that ran (kswapd
	# woke, or an episode began) with neither event is eviction not traced, said so, not 0
	untraced=$(awk -v M="$want" '$1 == "mm_vmscan_lru_isolate" ||
		$1 == "mm_vmscan_lru_shrink_inactive" { ev++ }
		$1 == "mm_vmscan_kswapd_wake" || $1 ~ /^mm_vmscan_.*_reclaim_begin$/ { r++ }
		END { print (M != "false" && !ev && r) ? "true" : "false" }' "$TMP/ev")
	expect_eq "$b: trace.eviction_traced" "$(jq -r .trace.eviction_traced "$TMP/an.json")" \
		"$([ "$untraced" = true ] && echo false || echo true)"
	if [ "$untraced" = true ]; then
		expect_eq "$b: lru, summary.scan, kswapd pages, dirty without eviction events" \
			"$(jq -c '[.lru, .summary.scan, .summary.kswapd.scanned,
				  .summary.kswapd.reclaimed, .summary.io.dirty_pages] | unique' \
			   "$TMP/an.json")" '[null]'
	fi
	"$RS_BIN" analyze "$f" >"$TMP/text" || fail "$b: analyze exit $?"
	if [ "$untraced" = true ]; then
		grep -Eq '^eviction     not (traced|in the trace)' "$TMP/text" ||
			fail "$b: the summary does not say eviction is not traced"
	fi
	case $b in
	*mglru-tc*)
		# plain trace-cmd of 6.1 with MGLRU on: no marker, no isolate, reclaim ran: the
		# LRU unknown, its eviction not in the trace (not 0 pages scanned)
		expect_eq "$b: recorded with MGLRU, nothing tells" "$want" null
		expect_eq "$b: eviction untraced" "$untraced" true ;;
	*mglru*) expect_eq "$b: recorded with MGLRU" "$want" true ;;
	*) expect_eq "$b: recorded with the classic LRU" "$want" false ;;
	esac
	grep -q '^lru       ' "$TMP/text" || fail "$b: no lru line in the text head"
	w=$(wc -L <"$TMP/text")
	[ "$w" -le 100 ] || fail "$b: text report is $w columns wide"
	if [ "$want" = true ]; then
		# the report speaks MGLRU: eviction by type, no active-list rows, aging not
		# traced, and the isolates that took nothing counted
		grep -q '^lru       MGLRU' "$TMP/text" || fail "$b: the head does not say MGLRU"
		grep -q '^EVICTION BY TYPE (MGLRU' "$TMP/text" || fail "$b: no eviction by type"
		! grep -q '^ACTIVE LISTS (lru_shrink_active' "$TMP/text" ||
			fail "$b: active-list rows under MGLRU"
		! grep -Eq '^(all|[0-9?]) +active_(anon|file) ' "$TMP/text" ||
			fail "$b: active-list rows under MGLRU"
		# the lists by the names the kernel's MGLRU uses (anon, file) in every table
		! grep -Eq '^(all +|[0-9?] +)?(in)?active_(anon|file) ' "$TMP/text" ||
			fail "$b: a table row names a classic list under MGLRU:" \
				"$(grep -Em1 '^(all +|[0-9?] +)?(in)?active_(anon|file) ' "$TMP/text")"
		empty=$(awk '$1 == "mm_vmscan_lru_isolate" { for (i = 2; i <= NF; i++) {
			split($i, a, "="); if (a[1] == "nr_taken" && a[2] == 0) n++ } }
			END { print n + 0 }' "$TMP/ev")
		[ "$untraced" = true ] || tr '\n' ' ' <"$TMP/text" | sed 's/  */ /g' |
			grep -q "not traced. $empty lru_isolate took no page" ||
			fail "$b: the $empty isolates that took no page are not explained"
	elif [ "$want" = null ]; then
		grep -q '^lru       unknown: MGLRU or classic LRU' "$TMP/text" ||
			fail "$b: the head does not say the LRU is unknown"
	else
		grep -q '^lru       classic LRU' "$TMP/text" || fail "$b: the head does not say classic"
	fi

	# replay refuses MGLRU and says so
	if [ "$want" = true ]; then
		grep -q MGLRU "$TMP/replay.txt" || fail "$b: replay does not say MGLRU"
	fi
	# a list size implied by an isolate (nr_requested << priority) only where the request is
	# the classic LRU's share of the list (at most SWAP_CLUSTER_MAX): never from MGLRU's batches
	small=$(awk '$1 == "mm_vmscan_lru_isolate" { for (i = 2; i <= NF; i++) {
		split($i, a, "="); if (a[1] == "nr_requested" && a[2] + 0 <= 32) n++ } }
		END { print n + 0 }' "$TMP/ev")
	if [ "$small" = 0 ]; then
		expect_eq "$b: list sizes implied with no isolate of at most 32 pages" \
			"$("$RS_BIN" replay --json --inputs "$f" | jq .inputs.sizes.implied_updates)" 0
	fi
	# without the recorder's begin marker (plain trace-cmd) the inputs name no marker value:
	# mglru=0x0000 there would be a made-up 0
	if ! grep -q '^print .*reclaimscope_begin' "$TMP/ev"; then
		"$RS_BIN" replay --inputs "$f" >"$TMP/inputs.txt" 2>&1
		h=$(sed -n '/^header /,/^calls /p' "$TMP/inputs.txt" | tr '\n' ' ')
		case $h in
		*"no begin marker"*) ;;
		*) fail "$b: replay --inputs does not say there is no begin marker: $h" ;;
		esac
		case $h in
		*mglru=*) fail "$b: replay --inputs names a marker value the trace lacks: $h" ;;
		esac
		expect_eq "$b: replay --json --inputs mglru_mask without a begin marker" \
			"$("$RS_BIN" replay --json --inputs "$f" | jq -c .inputs.header.mglru_mask)" null
	fi
done
[ "$n" -gt 0 ] || { echo "no kernel 7 fixtures"; exit 77; }

# diff with MGLRU on one side: the classic LRU's active-list figures are not comparable (set
# apart, not compared as a change to 0), and the header says so
d=$TOP/tests/fixtures/kernel7
if [ -f "$d/k72-global-classic.dat" ] && [ -f "$d/k72-global-mglru.dat" ]; then
	"$RS_BIN" diff --json "$d/k72-global-classic.dat" "$d/k72-global-mglru.dat" >"$TMP/diff.json" ||
		fail "diff exit $?"
	expect_eq "diff: mglru_differs" "$(jq -r .mglru_differs "$TMP/diff.json")" true
	expect_eq "diff: MGLRU runs per side" \
		"$(jq -r '"\(.base.mglru_runs) \(.new.mglru_runs)"' "$TMP/diff.json")" "0 1"
	nc=$(jq -r '[.not_comparable[] | select(test("^lru\\.active_(anon|file)\\."))] | length' \
		"$TMP/diff.json")
	[ "$nc" -gt 0 ] || fail "diff: no active-list figure set apart"
	left=$(jq -r '[(.metrics | keys[]), (.left_out[].metric)] |
		map(select(test("^lru\\.active_(anon|file)\\."))) | length' "$TMP/diff.json")
	expect_eq "diff: active-list figures compared or left out" "$left" 0
	"$RS_BIN" diff "$d/k72-global-classic.dat" "$d/k72-global-mglru.dat" |
		grep -q '^NOTE      MGLRU on one side only' || fail "diff: no MGLRU note"
	"$RS_BIN" diff --json "$d/k72-global-classic.dat" "$d/k72-memcg-high.dat" |
		jq -e '.mglru_differs == false and (.not_comparable | length) == 0' >/dev/null ||
		fail "diff: two classic traces set figures apart"
fi
# a side whose trace cannot tell the LRU (plain trace-cmd of 6.1, MGLRU on) is not counted
# as classic: the note says how many runs are not known
if [ -f "$d/k61-global-mglru-tc.dat" ] && [ -f "$d/k612-global-mglru.dat" ]; then
	"$RS_BIN" diff --json "$d/k61-global-mglru-tc.dat" "$d/k612-global-mglru.dat" \
		>"$TMP/diffu.json" || fail "diff (LRU unknown) exit $?"
	expect_eq "diff: MGLRU and unknown runs per side" \
		"$(jq -r '"\(.base.mglru_runs) \(.base.mglru_unknown_runs) \(.new.mglru_runs) \(.new.mglru_unknown_runs)"' "$TMP/diffu.json")" "0 1 1 0"
	"$RS_BIN" diff "$d/k61-global-mglru-tc.dat" "$d/k612-global-mglru.dat" |
		tr '\n' ' ' | grep -q '^.*NOTE      MGLRU on one side only or not known (.*1 not known' ||
		fail "diff: the note does not say the base's LRU is not known"
fi

# the recorder's MGLRU snapshots: lru_gen_enabled, then lru_gen generations per memcg/node
f=$d/k72-global-mglru.dat
if [ -f "$f" ]; then
	trace_report "$f" >"$TMP/rep"
	grep -q 'lru_gen_enabled enabled=0x0007' "$TMP/rep" || fail "mglru: no lru_gen_enabled marker"
	grep -Eq 'lru_gen css_id=[0-9]+ cg=/ node=0 gens=[0-9]+:[0-9]+:[0-9]+:[0-9]+(,|$)' \
		"$TMP/rep" || fail "mglru: no lru_gen generations marker"
	# analyze reads them: snapshots of / node 0 and its last generations
	want=$(awk '/ lru_gen css_id=[0-9]+ cg=\/ node=0 / { n++; g = $NF } END { print n + 0, g }' \
		"$TMP/rep")
	got=$(rs_json analyze "$f" | jq -r '.mglru_generations[] | select(.cgroup == "/"
		and .nid == 0) | "\(.snapshots) gens=\([.last[] | "\(.seq):\(.age_ms):\(.anon):" +
		"\(.file)"] | join(","))"')
	expect_eq "mglru: lru_gen snapshots and last generations of / node 0" "$got" "$want"
fi

# record --cgroup on v2 (issue 23 item 5): the workload ran in rs_parent/rs_workload and made
# rs_parent/rs_a with its own memory.max; memcg reclaim of rs_a's own limit proves rs_a had the
# memory controller (on v2 it could not, had the workload run in rs_parent itself)
f=$TOP/tests/fixtures/kernel7/k72-cgroup-children.dat
if [ -f "$f" ]; then
	trace_report "$f" -R >"$TMP/raw"
	grep -q 'reclaimscope_begin .*cgroup_path=/rs_parent .*workload_cgroup=/rs_parent/rs_workload' \
		"$TMP/raw" || fail "children: the begin marker does not name the workload's leaf"
	grep -q 'reclaimscope_end status=0' "$TMP/raw" || fail "children: the workload failed"
	id=$(awk '/cgroup_mkdir:/ && /path=\/rs_parent\/rs_a( |$)/ { for (i = 1; i <= NF; i++)
		if ($i ~ /^id=/) print substr($i, 4) }' "$TMP/raw" | head -1)
	[ -n "$id" ] || fail "children: no cgroup_mkdir of rs_parent/rs_a"
	nr=$(grep -c "mm_vmscan_memcg_reclaim_begin:.* memcg_id=$id " "$TMP/raw")
	[ "$nr" -gt 0 ] || fail "children: no memcg reclaim of rs_a's own limit"
fi
# a --from/--to range tells MGLRU from its own isolates as a whole read does
if [ -f "$d/k72-global-mglru.dat" ] && [ -f "$d/k72-global-classic.dat" ]; then
	for f in mglru:true classic:false; do
		t=$(trace_report "$d/k72-global-${f%:*}.dat" | awk '/lru_isolate/ { sub(":", "", $3);
			if (!n++) a = $3; b = $3 } END { printf "%.6f %.6f", a, b + 0.000001 }')
		got=$("$RS_BIN" analyze --json --from "${t% *}" --to "${t#* }" \
			"$d/k72-global-${f%:*}.dat" | jq -r .trace.mglru)
		expect_eq "${f%:*}: trace.mglru of a --from/--to range" "$got" "${f#*:}"
	done
fi
# the cgroups report speaks MGLRU on an MGLRU trace, the classic LRU on a classic one
if [ -f "$d/k72-global-mglru.dat" ] && [ -f "$d/k72-global-classic.dat" ]; then
	cp "$TMP/cg-k72-global-mglru.dat.txt" "$TMP/cg-mglru.txt"	# the fixture loop's run
	grep -q "MGLRU's eviction scanned in the oldest generation" "$TMP/cg-mglru.txt" ||
		fail "cgroups on MGLRU: no MGLRU wording"
	grep -q "inactive and the active lists" "$TMP/cg-mglru.txt" &&
		fail "cgroups on MGLRU: speaks of active lists"
	cp "$TMP/cg-k72-global-classic.dat.txt" "$TMP/cg-classic.txt"
	grep -q "inactive and the active lists" "$TMP/cg-classic.txt" ||
		fail "cgroups on the classic LRU: the classic wording is gone"
fi
# MGLRU before 6.7 (the 6.1 guest, 5.6 MB with its filemap events, is not kept): the marker
# says MGLRU, kswapd ran, and no lru_isolate or lru_shrink_inactive exists: its scanning is
# unknown, reported null and "not traced", never as lists of 0 pages
f=$TOP/tests/fixtures/text/mglru-untraced-6x.txt
"$RS_BIN" analyze --json "$f" >"$TMP/un.json" || fail "mglru-untraced: analyze exit $?"
wakes=$(grep -c ' mm_vmscan_kswapd_wake: ' "$f")
expect_eq "mglru-untraced: mglru, eviction_traced, lru, scan, kswapd pages" \
	"$(jq -c '[.trace.mglru, .trace.eviction_traced, .lru, .summary.scan,
		   .summary.kswapd.scanned]' "$TMP/un.json")" '[true,false,null,null,null]'
jq -r .trace.mglru_evidence "$TMP/un.json" |
	grep -q "reclaim ran ($wakes kswapd wakes and reclaim begins) with no lru_isolate" ||
	fail "mglru-untraced: the evidence does not say eviction is not traced"
"$RS_BIN" analyze "$f" >"$TMP/un.txt"
grep -q '^eviction     not traced' "$TMP/un.txt" ||
	fail "mglru-untraced: the summary does not say eviction is not traced"
# ... nor per kswapd and per task: every page figure of the isolate/shrink events is null, "-"
expect_eq "mglru-untraced: kswapd and task page figures" \
	"$(jq -c '[.kswapd.scanned, .kswapd.reclaimed, (.kswapd.instances[] | .scanned,
		   .reclaimed, .efficiency_pct), (.tasks[] | .scanned, .scanned_inactive, .taken,
		   .reclaimed)] | unique' "$TMP/un.json")" '[null]'
awk '/^TASKS/ { t = 1 } t && $2 == "kswapd0" { print $8, $9; exit }' "$TMP/un.txt" |
	grep -qx -- '- -' || fail "mglru-untraced: the TASKS table shows kswapd0's pages as numbers"
"$RS_BIN" replay "$f" 2>&1 | grep -q MGLRU || fail "mglru-untraced: replay does not say MGLRU"
echo "$n traces checked"
finish
