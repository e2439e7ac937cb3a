#!/bin/sh
# reclaimscope cgroups on kernel 7.x traces, every figure against independent sums over the raw
# fields of `trace-cmd report -R` (trace-cmd 3.1.6 cannot print the 7.x formats; -R still can):
#   - target_episodes per memcg: complete mm_vmscan_memcg_reclaim_begin/_end pairs per pid, by
#     the begin's memcg_id (7.1+: the memcg whose limit is reclaimed)
#   - slab.{calls,freed} per memcg: mm_shrink_slab_start/_end pairs per pid (same shrinker
#     function) by the end's memcg_id, and the sum of the ends' retval
#   - victim.pgscan_* / pgsteal_* / pgrefill: sums of mod_memcg_lruvec_state val per memcg id
#     and item, item names from the recorder's node_stat_items marker
#   - where every shrink event matched exactly, the pages attributed to each victim equal those
#     sums (victim.reconcile differences 0); exact or not, the pages reclaimed attributed to a
#     victim are within 0.5% of its pgsteal sum
# Runs on every real trace with memcg_id in its reclaim events (fixtures, the shared trace, the
# 7.x guest fixtures of tests/fixtures/kernel7/, and the files named in RS_EXTRA_TRACES, e.g. the
# 7.x guest recordings of /work/traces); skips
# when there is none.
. tests/lib-e2e.sh

need trace-cmd jq

# id scan steal refill target slab_calls slab_freed, one line per memcg id
oracle() {
	trace_report "$1" -R | awk "$RAW_AWK"'
	/node_stat_items source=/ {
		for (i = 1; i <= NF && $i !~ /^@[0-9]+$/; i++)
			;
		n = substr($i, 2) + 0
		for (i++; i <= NF; i++)
			item[n++] = $i
		next
	}
	/ mod_memcg_lruvec_state: / {
		id = field("id"); if (id == "") id = field("memcg_id")
		nm = item[field("item") + 0]
		if (nm ~ /^pgscan_(kswapd|direct|khugepaged|proactive)$/) scan[id] += field("val")
		else if (nm ~ /^pgsteal_(kswapd|direct|khugepaged|proactive)$/) steal[id] += field("val")
		else if (nm == "pgrefill") refill[id] += field("val")
		else next
		ids[id] = 1
		next
	}
	/ mm_vmscan_memcg_reclaim_begin: / { open[pid_of()] = field("memcg_id"); next }
	/ mm_vmscan_memcg_reclaim_end: / {
		p = pid_of()
		if (p in open) { target[open[p]]++; ids[open[p]] = 1; delete open[p] }
		next
	}
	/ mm_shrink_slab_start: / {
		p = pid_of(); sfn[p] = field("shrink"); sid[p] = field("memcg_id"); next
	}
	/ mm_shrink_slab_end: / {
		p = pid_of(); id = field("memcg_id")
		if (id == "" || id == 0) { delete sfn[p]; next }
		if ((p in sfn) && sfn[p] == field("shrink") && sid[p] == id) calls[id]++
		r = field("retval") + 0
		if (r > 0) freed[id] += r
		ids[id] = 1
		delete sfn[p]
		next
	}
	END {
		for (id in ids)
			printf "%s %d %d %d %d %d %d\n", id, scan[id], steal[id], refill[id],
				target[id], calls[id], freed[id]
	}' | sort -n
}

ours() {
	rs_json cgroups "$1" | jq -r '
		.cgroup_attribution.exact_pct as $x |
		.cgroups[] | select(.id != null) |
		[.id,
		 ([(.victim // {}) | to_entries[] | select(.key | test("^pgscan_(kswapd|direct|khugepaged|proactive)$")) | .value] | add // 0),
		 ([(.victim // {}) | to_entries[] | select(.key | test("^pgsteal_(kswapd|direct|khugepaged|proactive)$")) | .value] | add // 0),
		 (.victim.pgrefill // 0), (.target_episodes // "null"),
		 (.slab.calls // "null"), (.slab.freed // "null"),
		 (if $x == 100 then ([.victim.reconcile | .scanned_inactive.difference, .reclaimed.difference, .scanned_active.difference] | map(if . < 0 then -. else . end) | add) else 0 end),
		 (.victim.reclaimed // 0)
		] | map(tostring) | join(" ")' | sort -n
}

# "yes" when the reclaim events carry the 7.1+ memcg_id
has_memcg_id() {
	trace_report "$1" -R | grep -q ' mm_vmscan_.*_reclaim_begin: .*memcg_id=' && echo yes ||
		echo no
}

ran=0
for f in $(real_traces) "$TOP"/tests/fixtures/kernel7/*.dat $RS_EXTRA_TRACES; do
	[ -f "$f" ] || continue
	[ "$(oracle_of has_memcg_id "$f")" = yes ] || continue
	ran=$((ran + 1))
	name=$(basename "$f")
	oracle_of oracle "$f" >"$TMP/oracle"
	ours "$f" >"$TMP/ours"
	# every id the oracle names, with the same figures (ours has more rows: memcgs without them)
	while read -r id scan steal refill target calls freed; do
		line=$(awk -v id="$id" '$1 == id' "$TMP/ours")
		[ -n "$line" ] || { fail "$name: memcg id $id not in cgroups[]"; continue; }
		set -- $line
		expect_eq "$name id $id pgscan_*" "$2" "$scan"
		expect_eq "$name id $id pgsteal_*" "$3" "$steal"
		expect_eq "$name id $id pgrefill" "$4" "$refill"
		expect_eq "$name id $id target_episodes" "$5" "$target"
		expect_eq "$name id $id slab.calls" "$6" "$calls"
		expect_eq "$name id $id slab.freed" "$7" "$freed"
		expect_eq "$name id $id reconcile differences (all exact)" "$8" 0
		# the pages reclaimed that the shrink events attributed to it, exact or by
		# fallback, against its pgsteal sum: within 0.5% where it lost 1,000 pages or
		# more. MGLRU counts the scan side before lru_isolate and tries the other type
		# when one took nothing: k72-multi-mglru's /rs_multi/rs_a had 58,885 of its
		# 195,250 pages before the next isolate's counters left the open window.
		[ "$steal" -ge 1000 ] && ! awk -v a="$9" -v b="$steal" \
			'BEGIN { d = a - b; exit !((d < 0 ? -d : d) * 200 <= b) }' &&
			fail "$name id $id: $9 pages reclaimed attributed, pgsteal_* $steal"
	done <"$TMP/oracle"
	# and no target, slab or counter sum the oracle does not have
	awk '$5 != "null" && $5 > 0 || $6 != "null" && $6 > 0 || $2 > 0 {print $1}' "$TMP/ours" |
	while read -r id; do
		awk -v id="$id" '$1 == id {f = 1} END {exit !f}' "$TMP/oracle" ||
			echo "$name: id $id has figures the raw events do not" >>"$TMP/extra"
	done
	[ -s "$TMP/extra" ] && { fail "$(cat "$TMP/extra")"; rm -f "$TMP/extra"; }
	# the text's TARGETS table comes in order of its first figure, target episodes (then slab
	# calls): --top 3 shows the three memcgs most reclaimed for their limits (with 150 leaves
	# of many slab calls, the 15 parents targeted 400-900 times each fell past the top 20)
	want=$(awk '{print $5 + 0}' "$TMP/oracle" | sort -rn | head -3 | tr '\n' ' ')
	got=$("$RS_BIN" cgroups --top 3 "$f" 2>/dev/null | awk '/^TARGETS/ {t = 1; next}
		t && /^cgroup / {r = 1; next} r && NF == 5 {printf "%s ", $2; if (++n == 3) exit}
		r && NF != 5 {exit}')
	expect_eq "$name: TARGETS --top 3 target episodes" "$got" "$want"
	echo "$name: $(wc -l <"$TMP/oracle") memcgs, targets $(awk '{t += $5} END {print t + 0}' "$TMP/oracle") episodes, slab $(awk '{t += $6} END {print t + 0}' "$TMP/oracle") calls, pgscan $(awk '{t += $2} END {print t + 0}' "$TMP/oracle") pages agree"
done
[ "$ran" -gt 0 ] || { echo "no 7.1+ trace (memcg_id in reclaim events): set RS_EXTRA_TRACES"; exit 77; }
finish
