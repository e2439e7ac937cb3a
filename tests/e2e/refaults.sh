#!/bin/sh
# Refaults (docs/refaults.md): `analyze --json` against a join computed here, independently,
# over `trace-cmd report -t` with awk, page by page: a filemap deletion by a task inside a
# reclaim episode (begin..end of the same pid) or by kswapd evicts its pages; a deletion outside
# any episode waits for its task: mm_vmscan_reclaim_pages makes it an eviction (proactive),
# an add, exit, exec, fork, cgroup move or reclaim event (or the end) a deletion not by reclaim;
# an add of a range holding evicted pages refaults them. Compared exactly: refaulted folios and
# pages, evicted folios and pages, deletions not by reclaim, the "within 1 s / 10 s" shares'
# pages, the distance buckets and percentiles (nearest rank over pages, microseconds rounded
# from nanoseconds), the victim and adder cgroup, swap-ins from count_memcg_events(pswpin).
# Then the kernel's own count (workingset_refault_file in the memcg_stat snapshots) must equal
# the refaulted pages of the fixture's cgroup, the eviction table's bound must hold with a
# warning, and a trace without filemap events must say refaults are absent (null).
. tests/lib-e2e.sh
need trace-cmd jq
FX="$TOP/tests/fixtures/refaults.dat"
[ -f "$FX" ] || { echo "no $FX"; exit 77; }

# join TRACE OUT: the awk join of TRACE into OUT ("KEY VALUE" lines), distances to OUT.dist
join() {
trace_report "$1" -t >"$TMP/report" || fail "trace-cmd report $1"
awk -v dists="$2.dist" '
function ns_of(t,   tp, frac) {
	split(t, tp, "."); frac = tp[2]
	while (length(frac) < 9) frac = frac "0"
	return tp[1] * 1000000000 + substr(frac, 1, 9)
}
function field(name,   r) {
	if (!match(rest, "(^| )" name "=[^ ]+")) return ""
	r = substr(rest, RSTART, RLENGTH); sub(/^ /, "", r); sub(/^[^=]*=/, "", r); return r
}
# evict the pages of one folio deleted at time t, charged to memcg m, in context c
function evict(dev, ino, idx, order, t, m, c,   n, p) {
	n = 2 ^ order
	evfolios++; evpages += n; byctx[c] += n; victim_ev[m] += n
	for (p = idx; p < idx + n; p++) {
		k = dev SUBSEP ino SUBSEP p
		ev[k] = t; evm[k] = m
		if (t + 1000000000 <= END_NS) obs1[k] = 1; else delete obs1[k]
		if (t + 10000000000 <= END_NS) obs10[k] = 1; else delete obs10[k]
		if (obs1[k]) o1 += 1
		if (obs10[k]) o10 += 1
	}
}
function settle(p, reclaim,   i) {
	for (i = 1; i <= npend[p]; i++) {
		if (reclaim)
			evict(pd[p, i], pi[p, i], px[p, i], po[p, i], pt[p, i], pm[p, i], "other")
		else { otherf++; otherp += 2 ^ po[p, i] }
	}
	npend[p] = 0
}
FNR == 1 { pass++ }
{
	if (!match($0, /-[0-9]+ +\[[0-9]+\] +[0-9]+\.[0-9]+: +[A-Za-z0-9_]+:/)) next
	comm = substr($0, 1, RSTART - 1); sub(/^ +/, "", comm)
	hdr = substr($0, RSTART, RLENGTH); rest = substr($0, RSTART + RLENGTH)
	split(hdr, h, /[][ :]+/)
	pid = substr(h[1], 2); e = h[4]; ns = ns_of(h[3])
}
# first pass: the end of the trace (the analysed span ends at the last event)
pass == 1 { if (ns > END_NS) END_NS = ns; next }
e == "print" && rest ~ /vm_event_items/ {
	n = split(rest, tok, " ")
	for (i = 1; i <= n; i++) {
		if (tok[i] ~ /^@/) { at = substr(tok[i], 2) + 0; continue }
		if (tok[i] ~ /=/ || tok[i] ~ /tracing_mark_write|vm_event_items/) continue
		if (tok[i] == "pswpin") pswpin = at
		at++
	}
	next
}
e == "print" && rest ~ /task_cgroup / { cgof[field("pid")] = field("id"); next }
e == "cgroup_attach_task" { cgof[field("pid")] = field("dst_id") }
e == "sched_process_fork" { cgof[field("child_pid")] = cgof[field("pid")] }
# held deletions of this task settle first, as the tool does
npend[pid] > 0 {
	if (e == "mm_vmscan_reclaim_pages") settle(pid, 1)
	else if (e ~ /^(mm_filemap_add_to_page_cache|sched_process_(exit|exec|fork)|cgroup_attach_task|mm_vmscan_lru_isolate|mm_vmscan_lru_shrink_(in)?active)$/ ||
		 e ~ /_reclaim_(begin|end)$/)
		settle(pid, 0)
	else if (e ~ /^(mod_memcg_lruvec_state|mod_memcg_state|count_memcg_events)$/ &&
		 pm[pid, npend[pid]] == "")
		pm[pid, npend[pid]] = field("memcg_id")
}
comm ~ /^kswapd[0-9]/ || e == "mm_vmscan_kswapd_wake" || e == "mm_vmscan_kswapd_sleep" { ks[pid] = 1 }
e ~ /^mm_vmscan_(direct|memcg|memcg_softlimit|node)_reclaim_begin$/ { depth[pid]++; kind[pid, depth[pid]] = e; epno[pid] = ++neps }
e ~ /^mm_vmscan_(direct|memcg|memcg_softlimit|node)_reclaim_end$/ { if (depth[pid] > 0) depth[pid]-- }
e == "mm_vmscan_lru_isolate" { win[pid] = 1; vic[pid] = "" }
e ~ /^mm_vmscan_lru_shrink_(in)?active$/ { win[pid] = 0 }
e ~ /^(mod_memcg_lruvec_state|count_memcg_events)$/ && win[pid] && vic[pid] == "" { vic[pid] = field("memcg_id") }
e == "count_memcg_events" && pswpin != "" && field("item") == pswpin && field("val") > 0 {
	swapins[field("memcg_id")] += field("val"); swapin_all += field("val")
}
e == "mm_filemap_delete_from_page_cache" || e == "mm_filemap_add_to_page_cache" {
	split(rest, f, " ")
	dev = f[2]; ino = f[4]; off = f[6]; sub(/ofs=/, "", off); ord = f[7]; sub(/order=/, "", ord)
	idx = off / 4096
}
e == "mm_filemap_delete_from_page_cache" {
	if (ks[pid] || depth[pid] > 0) {
		c = ks[pid] && depth[pid] == 0 ? "kswapd" : "reclaim"
		evict(dev, ino, idx, ord, ns, win[pid] ? vic[pid] : "", c)
		if (depth[pid] > 0 && !(epno[pid] in epseen)) { epseen[epno[pid]] = 1; eps_evicting++ }
	} else {
		i = ++npend[pid]
		pd[pid, i] = dev; pi[pid, i] = ino; px[pid, i] = idx; po[pid, i] = ord; pt[pid, i] = ns
		pm[pid, i] = ""
	}
	next
}
e == "mm_filemap_add_to_page_cache" {
	hit = 0
	for (p = idx; p < idx + 2 ^ ord; p++) {
		k = dev SUBSEP ino SUBSEP p
		if (!(k in ev)) continue
		d = ns - ev[k]; hit = 1; rfp++
		print d > dists
		if (obs1[k] && d <= 1000000000) w1++
		if (obs10[k] && d <= 10000000000) w10++
		victim_rf[evm[k]]++; adder[cgof[pid]]++
		b = d < 10000000 ? 0 : d < 100000000 ? 1 : d < 1000000000 ? 2 : d < 10000000000 ? 3 : d < 60000000000 ? 4 : 5
		bucket[b]++
		delete ev[k]; delete evm[k]; delete obs1[k]; delete obs10[k]
	}
	rff += hit
}
END {
	for (p in npend) settle(p, 0)
	print "folios", rff + 0; print "pages", rfp + 0
	print "evicted_folios", evfolios + 0; print "evicted_pages", evpages + 0
	print "other_folios", otherf + 0; print "other_pages", otherp + 0
	print "obs1", o1 + 0; print "within1", w1 + 0; print "obs10", o10 + 0; print "within10", w10 + 0
	for (b = 0; b < 6; b++) print "bucket" b, bucket[b] + 0
	print "evicted_other", byctx["other"] + 0
	print "evicted_kswapd", byctx["kswapd"] + 0
	print "swapins", swapin_all + 0
	print "eps_evicting", eps_evicting + 0
	for (m in victim_rf) if (m != "") print "victim_rf_" m, victim_rf[m]
	for (m in adder) if (m != "") print "adder_" m, adder[m]
	for (m in swapins) print "swapins_" m, swapins[m]
}' "$TMP/report" "$TMP/report" >"$2" || fail "awk $1"
touch "$2.dist"
}
join "$FX" "$TMP/want"
sort -n "$TMP/want.dist" >"$TMP/dist.sorted"

"$RS_BIN" analyze --json "$FX" >"$TMP/j" || fail "analyze --json"
want() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/want"; }
got() { jq -r "$1" "$TMP/j"; }

F=.refaults.file
expect_eq "refaults.file.folios" "$(got "$F.folios")" "$(want folios)"
expect_eq "refaults.file.pages" "$(got "$F.pages")" "$(want pages)"
expect_eq "evicted folios" "$(got "$F.reclaim.evicted_folios")" "$(want evicted_folios)"
expect_eq "evicted pages" "$(got "$F.reclaim.evicted_pages")" "$(want evicted_pages)"
expect_eq "deleted not by reclaim, folios" "$(got "$F.deleted_not_by_reclaim.folios")" \
	"$(want other_folios)"
expect_eq "deleted not by reclaim, pages" "$(got "$F.deleted_not_by_reclaim.pages")" \
	"$(want other_pages)"
expect_eq "observable 1 s" "$(got "$F.reclaim.within[\"1s\"].observable_pages")" "$(want obs1)"
expect_eq "within 1 s" "$(got "$F.reclaim.within[\"1s\"].refaulted_pages")" "$(want within1)"
expect_eq "observable 10 s" "$(got "$F.reclaim.within[\"10s\"].observable_pages")" "$(want obs10)"
expect_eq "within 10 s" "$(got "$F.reclaim.within[\"10s\"].refaulted_pages")" "$(want within10)"
i=0
for b in 0-10ms 10-100ms 100ms-1s 1-10s 10-60s 60s+; do
	expect_eq "distance bucket $b" "$(got "$F.reclaim.distance_buckets_pages[\"$b\"]")" \
		"$(want bucket$i)"
	i=$((i + 1))
done
expect_eq "proactive evictions (context other)" \
	"$(got "$F.by_context.other.evicted_pages // 0")" "$(want evicted_other)"
expect_eq "kswapd evictions" "$(got "$F.by_context.kswapd.evicted_pages // 0")" \
	"$(want evicted_kswapd)"
n=$(wc -l <"$TMP/dist.sorted")
expect_eq "distance samples" "$(got "$F.distance_us.count_pages")" "$n"
for p in 50 90 99 100; do
	r=$(( (p * n + 99) / 100 )); [ "$r" -ge 1 ] || r=1
	ns=$(sed -n "${r}p" "$TMP/dist.sorted")
	us=$(( (ns + 500) / 1000 ))
	key=p$p; [ $p = 100 ] && key=max
	expect_eq "distance $key" "$(got "$F.distance_us.$key")" "$us"
done
expect_eq "swap-ins" "$(got .refaults.anon.swapin_pages)" "$(want swapins)"
# per cgroup: whose pages came back, who brought them back, swap-ins
for id in $(awk '$1 ~ /^(victim_rf|adder|swapins)_/ { sub(/^[a-z_]*_/, "", $1); print $1 }' \
	"$TMP/want" | sort -u); do
	c=".refaults.cgroups[] | select(.id == $id)"
	expect_eq "cgroup $id refaulted (victim)" "$(got "$c | .victim.refaulted_pages")" \
		"$(want victim_rf_$id | grep . || echo 0)"
	expect_eq "cgroup $id faulted back" "$(got "$c | .faulted_back_pages")" \
		"$(want adder_$id | grep . || echo 0)"
	expect_eq "cgroup $id swap-ins" "$(got "$c | .swapin_pages")" \
		"$(want swapins_$id | grep . || echo 0)"
done
[ "$(want pages)" -gt 10000 ] || fail "the fixture has too few refaults to test: $(want pages)"

# The browser's refault lanes (the same join, fed to its index): the whole trace between
# markers A and B, on the details screen, against the awk join
if "$RS_BIN" tui --help >/dev/null 2>&1; then
	LC_ALL=C NO_COLOR=1 RS_TUI_SCRIPT="Home a End b d dump" RS_TUI_SIZE=120x40 \
		"$RS_BIN" tui "$FX" >"$TMP/tui" 2>&1 || fail "tui on the fixture"
	expect_eq "tui: refaulted pages, whole trace" \
		"$(sed -n 's/^refaulted \([0-9]*\) file pages.*/\1/p' "$TMP/tui" | head -n 1)" "$(want pages)"
	expect_eq "tui: back within 1 s" \
		"$(sed -n 's/^refaulted .*(\([0-9]*\) back within 1 s)/\1/p' "$TMP/tui" | head -n 1)" \
		"$(want within1)"
fi
[ "$(want other_pages)" -gt 0 ] || fail "the fixture has no deletion outside reclaim"

# replay: the recorded side of "refaults avoided" is the same join, per call; the bounds are
# ordered and never above what came back (which pages a policy keeps is in no trace)
"$RS_BIN" replay --json "$FX" >"$TMP/r" || fail "replay --json"
for p in $(jq -r '.refaults.policies | keys[]' "$TMP/r"); do
	q=".refaults.policies[\"$p\"]"
	expect_eq "replay $p: calls with evictions" "$(jq -r "$q.calls" "$TMP/r")" \
		"$(want eps_evicting)"
	expect_eq "replay $p: recorded evicted" "$(jq -r "$q.recorded_evicted_pages" "$TMP/r")" \
		"$(got "$F.by_list.inactive_file.evicted_pages")"
	expect_eq "replay $p: recorded refaulted" \
		"$(jq -r "$q.recorded_refaulted_pages" "$TMP/r")" \
		"$(got "$F.by_list.inactive_file.refaulted_pages")"
	jq -e "$q | .avoided_min_pages <= .avoided_max_pages and
		.avoided_max_pages <= .recorded_refaulted_pages and .caused_pages == null and
		.calls_fewer + .calls_more <= .calls" "$TMP/r" >/dev/null ||
		fail "replay $p: bounds out of order: $(jq -c "$q" "$TMP/r")"
done
[ -n "$(jq -r '.refaults.policies | keys[]' "$TMP/r")" ] || fail "replay: no policy refaults"

# Swap-ins per cgroup (pswpin) on the fixture that swaps: total and per memcg, and the series
# sums to the total.
SW="$TOP/tests/fixtures/anon-stream-swap.dat"
if [ -f "$SW" ]; then
	join "$SW" "$TMP/wsw"
	"$RS_BIN" analyze --json "$SW" >"$TMP/jsw" || fail "analyze $SW"
	t=$(awk '$1 == "swapins" { print $2 }' "$TMP/wsw")
	[ "$t" -gt 1000 ] || fail "anon-stream-swap: too few swap-ins to test: $t"
	expect_eq "anon-stream-swap swap-ins" "$(jq -r .refaults.anon.swapin_pages "$TMP/jsw")" "$t"
	for id in $(awk '$1 ~ /^swapins_/ { sub(/^swapins_/, "", $1); print $1 }' "$TMP/wsw"); do
		c=".refaults.cgroups[] | select(.id == $id)"
		expect_eq "anon-stream-swap cgroup $id swap-ins" \
			"$(jq -r "$c | .swapin_pages" "$TMP/jsw")" \
			"$(awk -v k="swapins_$id" '$1 == k { print $2 }' "$TMP/wsw")"
		expect_eq "anon-stream-swap cgroup $id swap-ins over time" \
			"$(jq -r "$c | .series.swapin_pages | add" "$TMP/jsw")" \
			"$(awk -v k="swapins_$id" '$1 == k { print $2 }' "$TMP/wsw")"
	done
	expect_eq "anon-stream-swap: no filemap events" "$(jq -r .refaults.file "$TMP/jsw")" null
	# A --from range past the vm_event_items marker: the item names are the loading
	# stage's, read before the range, so the range's swap-ins are counted, not unknown.
	from=5380.7
	t=$(awk -v from="$from" '
		/tracing_mark_write: vm_event_items/ {
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^@/) { at = substr($i, 2) + 0; continue }
				if (at == "" || $i ~ /=/) continue
				if ($i == "pswpin") pswpin = at
				at++
			}
			at = ""
		}
		/ count_memcg_events: / && pswpin != "" {
			ts = $0; sub(/^.*\] +/, "", ts); ts += 0
			if (ts < from) next
			item = $0; sub(/^.* item=/, "", item); sub(/ .*/, "", item)
			val = $0; sub(/^.* val=/, "", val); val += 0
			if (item == pswpin && val > 0) s += val
		}
		END { print s + 0 }' "$TMP/report")
	[ "$t" -gt 1000 ] || fail "anon-stream-swap --from $from: too few swap-ins to test: $t"
	expect_eq "anon-stream-swap --from $from swap-ins" \
		"$("$RS_BIN" analyze --json --from "$from" "$SW" | jq -r .refaults.anon.swapin_pages)" \
		"$t"
fi

# The kernel's own refault count of the cgroup (memory.stat workingset_refault_file, first to
# last snapshot) against the pages our join found its tasks brought back (the kernel counts a
# refault in the memcg the page is charged to again). It may count a few more: the loop
# device's own page cache (ext4 metadata, in the block device's inode) refaults too, and
# --filemap-dev leaves those events out. Never fewer, and at most 0.1 % + 2 pages more.
c='.refaults.cgroups[] | select(.path == "/rs_refault")'
ws=$(got "$c | .snapshot_delta.workingset_refault_file")
ours=$(got "$c | .faulted_back_pages")
[ "$ws" -ge "$ours" ] && [ $((ws - ours)) -le $((ours / 1000 + 2)) ] ||
	fail "workingset_refault_file $ws against $ours refaulted pages"
# thrashing: the cgroup re-read its file within 1 s, so it must thrash there
[ "$(got "$c | .thrashing | length")" -ge 1 ] || fail "no thrashing interval for /rs_refault"

# Bounded table: 8 ranges, the oldest forgotten, a warning, counts only ever lower.
"$RS_BIN" analyze --json --max-evicted 8 "$FX" >"$TMP/j8" 2>"$TMP/e8" || fail "--max-evicted 8"
expect_eq "peak ranges under --max-evicted 8" \
	"$(jq -r "$F.eviction_table.peak_ranges" "$TMP/j8")" 8
expect_eq "complete flag" "$(jq -r "$F.complete" "$TMP/j8")" false
jq -r '.trace.warnings[]' "$TMP/j8" | grep -q "eviction table is full" ||
	fail "no warning when the table is full"
[ "$(jq -r "$F.pages" "$TMP/j8")" -le "$(want pages)" ] || fail "--max-evicted 8 found more"
"$RS_BIN" analyze --max-evicted 0 "$FX" >/dev/null 2>&1
expect_eq "--max-evicted 0 is a usage error" "$?" 2

# A trace without filemap events: refaults absent, never zero.
for f in "$TOP"/tests/fixtures/memcg-stream.dat; do
	rs_json analyze "$f" >"$TMP/jn" || fail "analyze $f"
	expect_eq "no filemap events: recorded" "$(jq -r .refaults.recorded "$TMP/jn")" false
	expect_eq "no filemap events: file" "$(jq -r .refaults.file "$TMP/jn")" null
	"$RS_BIN" analyze "$f" | grep -q "file refaults cannot be told" ||
		fail "text: no word that refaults are absent"
done
# the text report fits 100 columns
LC_ALL=C "$RS_BIN" analyze "$FX" >"$TMP/t" || fail "analyze text"
awk 'length($0) > 100 { print "line " NR " is " length($0) " columns"; bad = 1 } END { exit bad }' \
	"$TMP/t" || fail "text wider than 100 columns"
finish
