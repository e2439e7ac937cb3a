#!/bin/sh
# reclaimscope cgroups on real traces: every per-cgroup figure against an independent sum over
# `trace-cmd report -t` (awk), never against numbers written down here (the fixtures are
# re-recorded from time to time).
#   - victim.<item> (and other_events.<item>): the sum of count_memcg_events.val per memcg_id
#     and item, items named from the vm_event_items marker lines
#   - trigger episodes, stall and reclaimed per cgroup and kind: memcg / direct / soft-limit
#     begin-end pairs per pid, pid -> cgroup from task_cgroup markers, cgroup_attach_task and
#     fork inheritance, kswapd threads left out
#   - matching: 100% exact on these traces, and the attributed pages reconcile with the
#     kernel's own counters (pgscan_* / pgsteal_* / pgrefill) per cgroup
#   - the matrix adds up to the shrink events' nr_reclaimed, per victim too
#   - without item names: one warning, raw item_<N> keys, still 100% matched
. tests/lib-e2e.sh

need trace-cmd jq md5sum

# The event lines this test reads, from `trace-cmd report -t`, as: ts_ns pid comm event fields
# (a comm with spaces gets underscores; the pid is what follows its last '-')
EVENTS='count_memcg_events|mod_memcg_lruvec_state|print|cgroup_attach_task|sched_process_fork'
EVENTS="$EVENTS|mm_vmscan_(direct|memcg|memcg_softlimit)_reclaim_(begin|end)"
EVENTS="$EVENTS|mm_vmscan_lru_shrink_(in)?active"
report() {
	trace_report "$1" -t |
	grep -E " ($EVENTS):" |
	awk '{
		for (c = 1; c <= NF && $c !~ /^\[[0-9]+\]$/; c++)
			;
		head = $1
		for (i = 2; i < c; i++)
			head = head "_" $i
		pid = head; sub(/.*-/, "", pid)
		comm = substr(head, 1, length(head) - length(pid) - 1)
		ts = $(c + 1); ev = $(c + 2); sub(/:$/, "", ts); sub(/:$/, "", ev)
		split(ts, t, ".")
		line = sprintf("%d%09d %s %s %s", t[1], t[2], pid, comm, ev)
		for (i = c + 3; i <= NF; i++)
			line = line " " $i
		print line
	}'
}

# "id name sum" for every non-zero sum of count_memcg_events.val; names from the marker
victim_sums() {
	awk -v named="$2" '
	$4 == "print" && $5 == "tracing_mark_write:" && $6 == "vm_event_items" && named {
		idx = 0
		for (i = 7; i <= NF; i++) {
			if ($i ~ /^@/) { idx = substr($i, 2) + 0; continue }
			if ($i ~ /=/) continue
			name[idx++] = $i
		}
	}
	$4 == "count_memcg_events" {
		for (i = 5; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "memcg_id") id = kv[2]
			else if (kv[1] == "item") it = kv[2]
			else if (kv[1] == "val") v = kv[2]
		}
		s[id " " it] += v
	}
	END {
		for (k in s) {
			if (s[k] == 0) continue
			split(k, p, " ")
			n = (p[2] in name) && name[p[2]] != "" ? name[p[2]] : "item_" p[2]
			printf "%s %s %.0f\n", p[1], n, s[k]
		}
	}' "$1" | sort
}

json_victim_sums() {
	jq -r '.cgroups[] | select(.id != null) | .id as $id |
		(.victim | to_entries[]), (.victim.other_events | to_entries[]) |
		select(.value | type == "number") |
		select(.key as $k | ["scanned", "reclaimed", "count_events", "oom_killed"] |
		       index($k) | not) |
		"\($id) \(.key) \(.value)"' "$1" | sort
}

# "path kind episodes stall_us reclaimed" from begin/end pairs per pid
trigger_pairs() {
	awk '
	function cgof(pid) { return (pid in cg) ? cg[pid] : "(unknown)" }
	function kv(key,   i, a) {
		for (i = 5; i <= NF; i++) { split($i, a, "="); if (a[1] == key) return a[2] }
		return ""
	}
	$4 == "print" && $6 == "task_cgroup" { cg[kv("pid")] = kv("path") }
	$4 == "cgroup_attach_task" { cg[kv("pid")] = kv("dst_path"); roots[kv("dst_root")] = 1 }
	$4 == "sched_process_fork" { p = kv("pid"); if (p in cg) cg[kv("child_pid")] = cg[p] }
	$4 ~ /^mm_vmscan_(direct|memcg|memcg_softlimit)_reclaim_(begin|end)$/ {
		if ($3 ~ /^kswapd[0-9]/) next
		k = $4; sub(/^mm_vmscan_/, "", k); sub(/_reclaim_(begin|end)$/, "", k)
		if (k == "memcg_softlimit") k = "softlimit"
		key = $2 " " k
		if ($4 ~ /_begin$/) { open[key] = $1; at[key] = cgof($2); next }
		if (!(key in open)) next
		g = at[key] " " k
		n[g]++; ns[g] += $1 - open[key]; rec[g] += kv("nr_reclaimed")
		delete open[key]
	}
	END {
		nr = 0; for (r in roots) nr++
		if (nr > 1) print "MULTIPLE-HIERARCHIES"
		for (g in n) printf "%s %d %.0f %.0f\n", g, n[g], int((ns[g] + 500) / 1000), rec[g]
	}' "$1" | sort
}

json_trigger() {
	jq -r '.cgroups[] | .path as $p | .trigger |
		(select(.episodes > 0) | "\($p) memcg \(.episodes) \(.stall_us) \(.reclaimed)"),
		(.direct | select(.episodes > 0) |
		 "\($p) direct \(.episodes) \(.stall_us) \(.reclaimed)"),
		(.softlimit | select(.episodes > 0) |
		 "\($p) softlimit \(.episodes) \(.stall_us) \(.reclaimed)")' "$1" | sort
}

# "id list sum" of mod_memcg_lruvec_state.val on the LRU items (named by node_stat_items)
lru_sums() {
	awk '
	$4 == "print" && $6 == "node_stat_items" {
		idx = 0
		for (i = 7; i <= NF; i++) {
			if ($i ~ /^@/) { idx = substr($i, 2) + 0; continue }
			if ($i ~ /=/) continue
			n = $i; sub(/^nr_/, "", n); name[idx++] = n
		}
	}
	$4 == "mod_memcg_lruvec_state" {
		split($5, a, "="); split($6, b, "="); split($7, c, "=")
		s[a[2] " " b[2]] += c[2]
	}
	END {
		for (k in s) {
			split(k, p, " ")
			n = name[p[2]]
			if (n == "inactive_anon" || n == "active_anon" || n == "inactive_file" ||
			    n == "active_file" || n == "unevictable")
				if (s[k]) printf "%s %s %.0f\n", p[1], n, s[k]
		}
	}' "$1" | sort
}

# "path snapshots snapshots_over usage_max" from the memcg_stat markers
snap_stats() {
	awk '
	$4 == "print" && $6 == "memcg_stat" {
		for (i = 7; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == "cg") p = a[2]
			else if (a[1] == "usage") u = a[2] + 0
			else if (a[1] == "soft") s = a[2]
		}
		n[p]++
		if (u > max[p]) max[p] = u
		if (s != "" && s + 0 < 9e18 && u > s + 0) over[p]++
		s = ""
	}
	END { for (p in n) printf "%s %d %d %.0f\n", p, n[p], over[p], max[p] }' "$1" | sort
}

# cgroup limit: the last snapshot's limit= per cgroup, as text (awk's doubles cannot hold it);
# the kernel's "no limit" (v2 memory.max "max", written by record as v1's PAGE_COUNTER_MAX
# pages in bytes: INT64_MAX rounded down to a page, 92233720368547xxxxx for pages up to 64 KiB)
# is "max"
snap_limits() {
	awk '
	$4 == "print" && $6 == "memcg_stat" {
		l = "null"
		for (i = 7; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == "cg") p = a[2]
			else if (a[1] == "limit") l = a[2]
		}
		if (length(l) == 19 && substr(l, 1, 14) == "92233720368547") l = "max"
		last[p] = l
	}
	END { for (p in last) print p, last[p] }' "$1" | sort
}

# of FILE FUNCTION [ARG]: FUNCTION over FILE's report, which check_trace wrote to $r; through
# oracle_of, so the sanitizer round reuses the plain round's sums (each pass of the awk reads
# up to 150 MB of report)
of() { "$2" "$r" $3; }
shrink_events() { awk '$4 ~ /^mm_vmscan_lru_shrink_(in)?active$/' "$1" | wc -l; }
shrink_reclaimed() {
	awk '$4 == "mm_vmscan_lru_shrink_inactive" {
		for (i = 5; i <= NF; i++)
			if ($i ~ /^nr_reclaimed=/) { sub(/.*=/, "", $i); s += $i } }
		END { printf "%.0f\n", s }' "$1"
}

check_trace() {
	f=$1; tag=$(basename "$f" .dat)
	j="$TMP/$tag.json"; r="$TMP/$tag.txt"
	"$RS_BIN" cgroups --json "$f" > "$j" || { fail "$tag: cgroups --json exit $?"; return; }
	"$RS_BIN" cgroups "$f" > "$TMP/$tag.out" || fail "$tag: cgroups (text) exit $?"
	grep -q "WHO MADE WHOM PAY" "$TMP/$tag.out" || fail "$tag: text lacks the matrix"
	awk 'length($0) > 100 { bad++ } END { exit bad > 0 }' "$TMP/$tag.out" ||
		fail "$tag: text wider than 100 columns"
	oracle_of report "$f" > "$r"

	# victim.<item>: exact sums per memcg id and item
	oracle_of of "$f" victim_sums 1 > "$TMP/$tag.want"
	json_victim_sums "$j" > "$TMP/$tag.got"
	[ -s "$TMP/$tag.want" ] || fail "$tag: no count_memcg_events in the report"
	cmp -s "$TMP/$tag.want" "$TMP/$tag.got" || {
		fail "$tag: victim sums differ from count_memcg_events"
		diff "$TMP/$tag.want" "$TMP/$tag.got" | head -10
	}
	for k in pgscan_direct pgsteal_direct; do
		[ "$(jq "[.cgroups[].victim.$k // 0] | add" "$j")" -gt 0 ] ||
			fail "$tag: no victim.$k anywhere"
		[ "$(jq "[.cgroups[].victim.other_events.$k // empty] | length" "$j")" = 0 ] ||
			fail "$tag: $k filed as a non-reclaim counter"
	done

	# trigger side: episodes, stall, reclaimed per cgroup and kind
	oracle_of of "$f" trigger_pairs > "$TMP/$tag.twant"
	json_trigger "$j" > "$TMP/$tag.tgot"
	grep -q MULTIPLE-HIERARCHIES "$TMP/$tag.twant" && fail "$tag: test assumes one hierarchy"
	[ -s "$TMP/$tag.twant" ] || fail "$tag: no reclaim episodes in the report"
	cmp -s "$TMP/$tag.twant" "$TMP/$tag.tgot" || {
		fail "$tag: trigger figures differ from begin/end pairs"
		diff "$TMP/$tag.twant" "$TMP/$tag.tgot" | head -10
	}

	# LRU deltas per cgroup and list, snapshots per cgroup
	oracle_of of "$f" lru_sums > "$TMP/$tag.lwant"
	jq -r '.cgroups[] | select(.id != null) | .id as $id | .lru_size.delta_pages |
		to_entries[] | select(.value != 0) | "\($id) \(.key) \(.value)"' "$j" | sort \
		> "$TMP/$tag.lgot"
	cmp -s "$TMP/$tag.lwant" "$TMP/$tag.lgot" || { fail "$tag: LRU deltas differ";
		diff "$TMP/$tag.lwant" "$TMP/$tag.lgot" | head -5; }
	oracle_of of "$f" snap_stats > "$TMP/$tag.swant"
	jq -r '.cgroups[] | select(.soft_limit.snapshots > 0) | [.path, .soft_limit.snapshots,
		.soft_limit.snapshots_over, .soft_limit.usage_max_bytes] | join(" ")' "$j" |
		sort > "$TMP/$tag.sgot"
	[ -s "$TMP/$tag.swant" ] || fail "$tag: no memcg_stat snapshots"
	cmp -s "$TMP/$tag.swant" "$TMP/$tag.sgot" || { fail "$tag: snapshot figures differ";
		diff "$TMP/$tag.swant" "$TMP/$tag.sgot" | head -5; }
	oracle_of of "$f" snap_limits > "$TMP/$tag.mwant"
	jq -r '.cgroups[] | select(.soft_limit.snapshots > 0) |
		"\(.path) \(.soft_limit.limit_bytes)"' "$j" | sort > "$TMP/$tag.mgot"
	cmp -s "$TMP/$tag.mwant" "$TMP/$tag.mgot" || { fail "$tag: limits differ";
		diff "$TMP/$tag.mwant" "$TMP/$tag.mgot" | head -5; }

	# matching: every shrink event, exactly; attributed pages = the kernel's counters
	shrinks=$(oracle_of of "$f" shrink_events)
	expect_eq "$tag: shrink events" "$(jq .cgroup_attribution.shrinks "$j")" "$shrinks"
	expect_eq "$tag: matched exactly" "$(jq .cgroup_attribution.exact "$j")" "$shrinks"
	expect_eq "$tag: exact_pct" "$(jq .cgroup_attribution.exact_pct "$j")" 100
	jq -r '.cgroups[] | select(.victim.reconcile) | .path as $p | .victim.reconcile |
		to_entries[] | select(.key != "deactivated") | select(.value.difference != 0) |
		"\($p) \(.key) \(.value)"' "$j" > "$TMP/$tag.recon"
	[ -s "$TMP/$tag.recon" ] && { fail "$tag: attributed pages differ from the counters";
		head -5 "$TMP/$tag.recon"; }

	# the matrix adds up: to the shrink events, and per victim
	reclaimed=$(oracle_of of "$f" shrink_reclaimed)
	expect_eq "$tag: matrix reclaimed" "$(jq '[.cgroup_matrix[].reclaimed] | add' "$j")" \
		"$reclaimed"
	jq -r '(.cgroup_matrix | group_by(.victim)[] | select(map(.reclaimed) | add > 0) |
		"\(.[0].victim) \(map(.reclaimed) | add)"),
		(.cgroups[] | select(.victim.reclaimed > 0) |
		 "\(.path) \(.victim.reclaimed)")' "$j" |
		sort | uniq -u > "$TMP/$tag.mx"
	[ -s "$TMP/$tag.mx" ] && { fail "$tag: matrix columns differ from victim.reclaimed";
		head -5 "$TMP/$tag.mx"; }
	echo "$tag: $shrinks shrink events matched exactly, $(wc -l < "$TMP/$tag.want")" \
		"victim sums, $(wc -l < "$TMP/$tag.twant") trigger rows agree"
}

for f in tests/fixtures/contention.dat tests/fixtures/memcg-stream.dat "$SHARED_TRACE"; do
	[ -f "$f" ] || { echo "skipping missing $f"; continue; }
	check_trace "$f"
done

# A range: the markers at the start still name items and cgroups.
f=tests/fixtures/contention.dat
[ -s "$TMP/contention.json" ] || "$RS_BIN" cgroups --json "$f" > "$TMP/contention.json"
from=$(jq '.cgroup_attribution.series.t0_s + 0.5' "$TMP/contention.json")
"$RS_BIN" cgroups --json --from "$from" "$f" > "$TMP/range.json" || fail "range: exit $?"
expect_eq "range: items named" "$(jq .cgroup_attribution.items_named "$TMP/range.json")" true
expect_eq "range: every active cgroup named" \
	"$(jq '[.cgroups[] | select(.active and (.path | startswith("id:")))] | length' \
	   "$TMP/range.json")" 0
expect_eq "range: fewer shrink events" \
	"$(jq --slurpfile all "$TMP/contention.json" '.cgroup_attribution.shrinks > 0 and
	   .cgroup_attribution.shrinks < $all[0].cgroup_attribution.shrinks' \
	   "$TMP/range.json")" true

# Without the item-name markers: one warning, raw item numbers, matching by value.
f=tests/fixtures/memcg-stream.dat
trace_report "$f" | grep -v -e 'vm_event_items' -e 'node_stat_items' \
	> "$TMP/noname.txt"
"$RS_BIN" cgroups --json "$TMP/noname.txt" > "$TMP/noname.json" || fail "noname: exit $?"
expect_eq "noname: one naming warning" "$(jq '[.trace.warnings[] |
	select(test("could not be named"))] | length' "$TMP/noname.json")" 1
expect_eq "noname: items_named" "$(jq .cgroup_attribution.items_named "$TMP/noname.json")" false
oracle_of report "$f" > "$TMP/noname.r"
victim_sums "$TMP/noname.r" 0 > "$TMP/noname.want"
json_victim_sums "$TMP/noname.json" > "$TMP/noname.got"
cmp -s "$TMP/noname.want" "$TMP/noname.got" || { fail "noname: raw item sums differ";
	diff "$TMP/noname.want" "$TMP/noname.got" | head -5; }
grep -q ' item_33 ' "$TMP/noname.got" || fail "noname: no raw item_33 key"
expect_eq "noname: still matched exactly" \
	"$(jq '.cgroup_attribution.exact == .cgroup_attribution.shrinks and
	       .cgroup_attribution.shrinks > 0' "$TMP/noname.json")" true

# analyze carries the same section once it is wired in (cmd_analyze.c; see docs/cgroups.md)
"$RS_BIN" analyze --json tests/fixtures/memcg-stream.dat > "$TMP/an.json" || fail "analyze exit"
if jq -e 'has("cgroups")' "$TMP/an.json" >/dev/null; then
	"$RS_BIN" cgroups --json tests/fixtures/memcg-stream.dat > "$TMP/cg.json"
	expect_eq "analyze cgroups[] = cgroups cgroups[]" \
		"$(jq -c '[.cgroups, .cgroup_matrix]' "$TMP/an.json" | md5sum)" \
		"$(jq -c '[.cgroups, .cgroup_matrix]' "$TMP/cg.json" | md5sum)"
	# one cgroup entered every memcg episode: its statistics are analyze's
	expect_eq "trigger latency = episodes.memcg latency" \
		"$(jq -c '.cgroups[] | select(.trigger.episodes > 0) | .trigger.latency_us' \
		   "$TMP/an.json")" "$(jq -c .episodes.memcg.latency_us "$TMP/an.json")"
else
	echo "note: analyze --json has no cgroups section yet (hook pending in cmd_analyze.c)"
fi

# the text report stays within 100 columns on every trace: a memcg stall of seconds (a 6.1
# guest's khugepaged waited 12 s) once pushed the percentiles past their columns; here the
# oracle is the one episode's end - begin of the report, printed in the 7-column fields
for f in $(real_traces) "$TOP"/tests/fixtures/text/*.txt; do
	"$RS_BIN" cgroups "$f" >"$TMP/cgtext" 2>/dev/null || continue
	w=$(wc -L <"$TMP/cgtext")
	[ "$w" -le 100 ] || fail "$(basename "$f"): cgroups text is $w columns wide"
done
f=$TOP/tests/fixtures/text/memcg-long-6x.txt
want=$(awk '/memcg_reclaim_begin:/ { sub(":", "", $3); b = $3 }
	/memcg_reclaim_end:/ { sub(":", "", $3); printf "%.3f %.1f", ($3 - b) * 1000, ($3 - b) * 1000 }' \
	"$f")
got=$("$RS_BIN" cgroups "$f" | awk '$1 == "/rs_parent/rs_a" { print $3, $5; exit }')
expect_eq "memcg-long: stall ms, p99 ms of /rs_parent/rs_a" "$got" "$want"
finish
