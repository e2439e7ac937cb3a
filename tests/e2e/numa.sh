#!/bin/sh
# Two NUMA nodes (tests/fixtures/numa/, recorded by tests/fixtures/guest/vm.sh -n 2): every
# per-node figure against independent sums over `trace-cmd report -R -t` (nanosecond times):
# pages scanned and taken per node, list and context (each lru_isolate given the node of its
# task's next shrink event, the only event of the pair that names it), pages reclaimed per
# node, each kswapd's wakes, sleeps and awake time by its node, the balance_pgdat runs per node;
# then what the other commands make of two kswapds: the summary's share, replay's nodes and
# kswapd ends, diff against a one-node trace of the same scenario, export's kswapd tracks.
. tests/lib-e2e.sh
need trace-cmd jq awk
ONE="$TOP/tests/fixtures/kernel7/k72-global-classic.dat"
n=0
for f in "$TOP"/tests/fixtures/numa/k72-numa-*.dat; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	b=$(basename "$f")
	trace_report "$f" -R -t >"$TMP/raw" || { fail "$b: trace-cmd report -R -t"; continue; }
	rs_json analyze "$f" >"$TMP/an.json" || { fail "$b: analyze exit $?"; continue; }
	# "comm-pid [cpu] ts: name: k=v ..." -> "pid ts name k=v ..."
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_0-9]+:$/ && $(i - 1) ~ /^[0-9.]+:$/) {
			pid = $1; for (j = 2; j < i - 1 && $j !~ /^\[/; j++) pid = pid " " $j
			sub(/.*-/, "", pid); line = pid " " substr($(i - 1), 1, length($(i - 1)) - 1)
			line = line " " substr($i, 1, length($i) - 1)
			for (j = i + 1; j <= NF; j++) line = line " " $j
			print line; break } }' "$TMP/raw" >"$TMP/ev"
	nodes=$(awk '$3 == "mm_vmscan_kswapd_wake" { for (i = 4; i <= NF; i++)
		if ($i ~ /^nid=/) n[substr($i, 5)] = 1 } END { for (k in n) c++; print c + 0 }' "$TMP/ev")
	[ "$nodes" -ge 2 ] || fail "$b: kswapd woke on $nodes node(s), the fixture needs two"

	# scanned and taken per node, list, context: an isolate waits for its task's next shrink
	# event (inactive or active), whose nid it takes; kswapd's own context is its comm's
	awk -v K="$(awk '$3 == "mm_vmscan_kswapd_wake" { print $1 }' "$TMP/ev" | sort -u |
		tr '\n' ' ')" 'BEGIN { split(K, k, " "); for (i in k) ks[k[i]] = 1
			split("inactive_anon active_anon inactive_file active_file", L, " ") }
		{ delete v; for (i = 4; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
		$3 == "mm_vmscan_lru_isolate" { sc[$1] += v["nr_scanned"]; tk[$1] += v["nr_taken"]
			lru[$1] = L[v["lru"] + 1]; pend[$1] = 1 }
		$3 ~ /^mm_vmscan_lru_shrink_(in)?active$/ && pend[$1] {
			key = v["nid"] " " lru[$1] " " ($1 in ks ? "kswapd" : "other")
			S[key] += sc[$1]; T[key] += tk[$1]; sc[$1] = tk[$1] = pend[$1] = 0 }
		$3 == "mm_vmscan_lru_shrink_inactive" { R[v["nid"]] += v["nr_reclaimed"] }
		END { for (key in S) print "scan", key, S[key], T[key]
			for (nd in R) print "reclaimed", nd, R[nd] }' "$TMP/ev" | sort >"$TMP/want"
	jq -r '(.lru | to_entries[] | .key as $l | (.value.by_node // {}) | to_entries[] |
			select(.key != "unknown") | .key as $n | (.value.by_context // {}) |
			to_entries[] | select(.key != "all" and .value.scanned > 0) |
			[$n, $l, (if .key == "kswapd" then "kswapd" else "other" end),
			 .value.scanned, .value.taken] | @tsv),
		([.lru | to_entries[] | select(.key | startswith("inactive")) |
			(.value.by_node // {}) | to_entries[] | select(.key != "unknown")] |
			group_by(.key)[] | ["R", .[0].key, (map(.value.reclaimed // 0) | add)] | @tsv)' \
		"$TMP/an.json" | awk -F'\t' '$1 == "R" { print "reclaimed", $2, $3; next }
			{ k = $1 " " $2 " " $3; s[k] += $4; t[k] += $5 }
			END { for (k in s) print "scan", k, s[k], t[k] }' | sort >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" || fail "$b: per-node scanned/taken/reclaimed differ from
trace-cmd report (< oracle, > analyze): $(diff "$TMP/want" "$TMP/got" | head -8)"
	[ "$(grep -c '^scan' "$TMP/want")" -ge 2 ] || fail "$b: fewer than two per-node rows"

	# each kswapd by its node: wake events (wakes and re-wakes), sleeps, awake time (from the
	# first wake after a sleep to the next sleep; a period cut by the trace's end runs to its
	# last event, one cut by its start from its first), its awake periods, and the
	# balance_pgdat runs with their nr_reclaimed; awake to the microsecond (the JSON's seconds
	# have 10 digits)
	awk '{ delete v; for (i = 4; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
		split($2, t, "."); ns = t[1] * 1000000000 + t[2]; if (NR == 1) first = ns; last = ns }
		$3 == "mm_vmscan_kswapd_wake" { W[v["nid"]]++; if (!(v["nid"] in up)) up[v["nid"]] = ns }
		$3 == "mm_vmscan_kswapd_sleep" { Z[v["nid"]]++; P[v["nid"]]++
			if (!(v["nid"] in up)) up[v["nid"]] = first
			A[v["nid"]] += ns - up[v["nid"]]; delete up[v["nid"]] }
		$3 == "mm_vmscan_balance_pgdat_end" { B[v["nid"]]++; BR[v["nid"]] += v["nr_reclaimed"] }
		END { for (nd in up) { A[nd] += last - up[nd]; P[nd]++ }
			for (nd in W) printf "%s %d %d %.0f %d %d %d\n", nd, W[nd], Z[nd], A[nd] / 1000,
				B[nd], BR[nd], P[nd] }' \
		"$TMP/ev" | sort >"$TMP/ks"
	jq -r '.kswapd as $k | $k.instances[] | .nid as $n |
		[$n, .wakes + .rewakes, .sleeps, (.awake_total_s * 1e6 | round),
		 ($k.balance_pgdat.nodes[] | select(.nid == $n) | .runs, .reclaimed),
		 .periods + (if .awake_cut_s > 0 then 1 else 0 end)] | @tsv' \
		"$TMP/an.json" | tr '\t' ' ' | sort >"$TMP/got"
	cmp -s "$TMP/ks" "$TMP/got" || fail "$b: kswapd per node (nid wake-events sleeps awake_us
bp-runs bp-reclaimed periods) differ (< oracle, > analyze): $(diff "$TMP/ks" "$TMP/got" | head -6)"

	# wakeup_kswapd requests by the node whose kswapd they woke (the event's nid)
	want=$(awk '$3 == "mm_vmscan_wakeup_kswapd" { split($4, a, "="); n[a[2]]++ }
		END { for (k in n) print k, n[k] }' "$TMP/ev" | sort)
	got=$(jq -r '.wakeup_kswapd.by_node // {} | to_entries[] | "\(.key) \(.value)"' \
		"$TMP/an.json" | sort)
	expect_eq "$b: wakeup_kswapd by node" "$got" "$want"
	[ "$(echo "$want" | wc -l)" -ge 2 ] || fail "$b: wakeup_kswapd on fewer than two nodes"

	# the summary's awake share is of the kswapds' time together, and says so
	"$RS_BIN" analyze "$f" >"$TMP/an.txt" 2>/dev/null || fail "$b: analyze exit $?"
	grep -q "^kswapd  *awake [0-9.]*% of $nodes kswapds x " "$TMP/an.txt" ||
		fail "$b: the summary's kswapd line does not name $nodes kswapds: $(grep \
			'^kswapd  *awake' "$TMP/an.txt")"

	# replay: the nodes of the header; one kswapd end per recorded balance_pgdat run, both
	# nodes; only the root has sizes here, so nothing lacks the per-node memcg lists
	rs_json replay "$f" >"$TMP/rp.json" || fail "$b: replay exit $?"
	expect_eq "$b: replay nodes" "$(jq -r '.inputs.header.nodes' "$TMP/rp.json")" "$nodes"
	expect_eq "$b: replay kswapd runs" \
		"$(jq -r '.replay.identity.kswapd_ends.runs' "$TMP/rp.json")" \
		"$(awk '$3 == "mm_vmscan_balance_pgdat_end" { n++ } END { print n + 0 }' "$TMP/ev")"
	jq -e '[.replay.identity.trace_lacks[]? | .name] | index("per-node memcg lists") | not' \
		"$TMP/rp.json" >/dev/null || fail "$b: replay says the root-only trace lacks per-node lists"

	# identity per node (replay.identity.kswapd_nodes): kswapd's calls scan their own node
	# alone; their recorded pages per node and list are the oracle's kswapd rows above, and
	# mainline is ok (within 5%) on every such list of 1,000 pages or more, node by node (the
	# two pgdats' lists, watermarks and run ends)
	jq -r '.replay.identity.kswapd_nodes[]? | .nid as $n | .lists | to_entries[] |
		select(.value.recorded_scanned > 0) | "scan \($n) \(.key) kswapd \(.value.recorded_scanned)"' \
		"$TMP/rp.json" | sort >"$TMP/got"
	awk '$1 == "scan" && $4 == "kswapd" { print $1, $2, $3, $4, $5 }' "$TMP/want" |
		sort >"$TMP/kw"
	[ -s "$TMP/kw" ] && cmp -s "$TMP/kw" "$TMP/got" || fail "$b: replay's recorded kswapd pages
per node differ from trace-cmd report (< oracle, > replay): $(diff "$TMP/kw" "$TMP/got" | head -6)"
	[ "$(jq '[.replay.identity.kswapd_nodes[]? | select(.lists.inactive_file.recorded_scanned
		>= 1000)] | length' "$TMP/rp.json")" -ge 2 ] ||
		fail "$b: fewer than two nodes with 1,000 inactive file pages scanned by kswapd"
	off=$(jq -r '.replay.identity.kswapd_nodes[]? | .nid as $n | .lists | to_entries[] |
		select(.value.recorded_scanned >= 1000 and .value.verdict != "ok") |
		"node \($n) \(.key): \(.value.verdict) \(.value.scanned_error_pct)%"' "$TMP/rp.json")
	[ -z "$off" ] || fail "$b: identity per node not ok: $off"

	# diff against one node's recording of the scenario: a NOTE and kswapds_differ
	if [ -f "$ONE" ]; then
		"$RS_BIN" diff "$ONE" "$f" >"$TMP/diff.txt" 2>/dev/null || fail "$b: diff exit $?"
		grep -q "^NOTE      kswapd threads (one a node) differ: k72-global-classic 1, " \
			"$TMP/diff.txt" || fail "$b: diff does not note the kswapds: $(head -6 "$TMP/diff.txt")"
		expect_eq "$b: diff kswapds_differ, new kswapds_max" \
			"$("$RS_BIN" diff --json "$ONE" "$f" 2>/dev/null |
				jq -r '"\(.kswapds_differ) \(.new.kswapds_max)"')" "true $nodes"
	fi

	# export: one Perfetto thread a kswapd (its pid), an awake slice for each of its node's
	# periods, complete or cut (the oracle's last column above)
	"$RS_BIN" export --format perfetto -o "$TMP/pf.json" "$f" 2>/dev/null ||
		fail "$b: export exit $?"
	want=$(awk '$3 == "mm_vmscan_kswapd_wake" { split($4, a, "="); print a[2], $1 }' "$TMP/ev" |
		sort -u | while read -r nd pid; do
			echo "$pid $(awk -v N="$nd" '$1 == N { print $7 }' "$TMP/ks")"
		done | sort)
	got=$(jq -r '[.traceEvents[] | select(.name == "kswapd awake")] | group_by(.tid)[] |
		"\(.[0].tid) \(length)"' "$TMP/pf.json" | sort)
	expect_eq "$b: perfetto kswapd slices per thread" "$got" "$want"
done
[ "$n" -gt 0 ] || { echo "no tests/fixtures/numa/k72-numa-*.dat"; exit 77; }

# Memcg limit reclaim on two nodes with memory.numa_stat in the snapshots (record's numa_* keys,
# docs/markers.md): the world places each memcg's lists per node, so identity is judged, not
# NO CLAIM for want of per-node lists. Oracle: each lru_isolate's nr_scanned on the node of its
# task's next shrink event (the only event of the pair that names one), summed per node and list
# over the tasks that are no kswapd; replay's recorded pages per node (call_nodes) and per list
# must be those, the lists it claims within 5% there, and the same trace without its numa_* keys
# (trace-cmd report, keys cut: an older recorder's markers) back at NO CLAIM.
f=$TOP/tests/fixtures/numa/k72-memcg-high-numa.dat
b=$(basename "$f")
if [ -f "$f" ]; then
	trace_report "$f" -R -t >"$TMP/raw" || fail "$b: trace-cmd report -R -t"
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_0-9]+:$/ && $(i - 1) ~ /^[0-9.]+:$/) {
			pid = $1; for (j = 2; j < i - 1 && $j !~ /^\[/; j++) pid = pid " " $j
			sub(/.*-/, "", pid); line = pid " " $(i)
			for (j = i + 1; j <= NF; j++) line = line " " $j
			print line; break } }' "$TMP/raw" >"$TMP/ev"
	awk 'BEGIN { split("inactive_anon active_anon inactive_file active_file", L, " ") }
		{ delete v; for (i = 3; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
		$2 == "mm_vmscan_kswapd_wake:" { ks[$1] = 1 }
		$2 == "mm_vmscan_lru_isolate:" { sc[$1] += v["nr_scanned"]
			lru[$1] = L[v["lru"] + 1]; pend[$1] = 1 }
		$2 ~ /^mm_vmscan_lru_shrink_(in)?active:$/ && pend[$1] {
			if (!($1 in ks)) S[v["nid"] " " lru[$1]] += sc[$1]; sc[$1] = pend[$1] = 0 }
		END { for (k in S) if (S[k]) print k, S[k] }' "$TMP/ev" | sort >"$TMP/want"
	rs_json replay "$f" >"$TMP/rp.json" || fail "$b: replay exit $?"
	expect_eq "$b: replay nodes" "$(jq -r '.inputs.header.nodes' "$TMP/rp.json")" 2
	jq -e '[.replay.identity.trace_lacks[]? | .name] | index("per-node memcg lists") | not' \
		"$TMP/rp.json" >/dev/null || fail "$b: replay lacks per-node lists with numa_stat"
	jq -r '.replay.identity.call_nodes[]? | .nid as $n | .lists | to_entries[] |
		select(.value.recorded_scanned > 0) | "\($n) \(.key) \(.value.recorded_scanned)"' \
		"$TMP/rp.json" | sort >"$TMP/got"
	[ "$(wc -l <"$TMP/want")" -ge 8 ] && cmp -s "$TMP/want" "$TMP/got" ||
		fail "$b: replay's recorded pages per node and list differ from trace-cmd report (<
oracle, > replay): $(diff "$TMP/want" "$TMP/got" | head -6)"
	want=$(awk '{ s[$2] += $3 } END { for (l in s) print l, s[l] }' "$TMP/want" | sort)
	got=$(jq -r '.replay.identity.lists | to_entries[] | select(.value.recorded_scanned > 0) |
		"\(.key) \(.value.recorded_scanned)"' "$TMP/rp.json" | sort)
	expect_eq "$b: replay's recorded pages per list" "$got" "$want"
	# claimed: judged (ok or OFF), none NO CLAIM; ok within 5% of the oracle's pages
	nc=$(jq -r '[.replay.identity.lists[] | select(.verdict == "NO CLAIM")] | length' \
		"$TMP/rp.json")
	expect_eq "$b: lists NO CLAIM" "$nc" 0
	bad=$(jq -r '.replay.identity.lists | to_entries[] | select(.value.verdict == "ok") |
		"\(.key) \(.value.model_scanned)"' "$TMP/rp.json" | while read -r l m; do
			awk -v L="$l" -v M="$m" '$1 == L { e = (M - $2) / $2 * 100
				if (e > 5 || e < -5) print L, e "%" }' <<-EOF
			$want
			EOF
		done)
	[ -z "$bad" ] || fail "$b: claimed lists beyond 5% of the oracle: $bad"
	[ "$(jq '[.replay.identity.lists[] | select(.verdict == "ok")] | length' \
		"$TMP/rp.json")" -ge 1 ] || fail "$b: no list claimed within 5%"
	# without numa_* (an older recorder): every list NO CLAIM, lacking the per-node lists
	sed 's/ numa_[a-z_]*=[^ ]*//g' "$TMP/raw" >"$TMP/old.txt"
	"$RS_BIN" replay --json "$TMP/old.txt" >"$TMP/old.json" 2>/dev/null ||
		fail "$b: replay of the report without numa_* exit $?"
	expect_eq "$b: without numa_*, lists NO CLAIM" \
		"$(jq -r '[.replay.identity.lists[] | select(.verdict == "NO CLAIM" and
			(.lacks | index("per-node memcg lists")))] | length' "$TMP/old.json")" 4
	# the recorder's present form: the numa_* keys as their own memcg_numa marker just before
	# their memcg_stat (names without numa_); the loader joins them: the same replay
	awk '/ buf=memcg_stat / { id = ""; numa = ""; line = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^id=/) id = $i
				if ($i ~ /^numa_/) { numa = numa " " substr($i, 6); continue }
				line = line (i > 1 ? " " : "") $i }
			if (numa != "") { pre = line; sub(/ buf=memcg_stat .*/, "", pre)
				print pre " buf=memcg_numa " id numa }
			print line; next } { print }' "$TMP/raw" >"$TMP/new.txt"
	nm=$(grep -c ' buf=memcg_stat .* numa_' "$TMP/raw")
	[ "$nm" -gt 100 ] || fail "$b: $nm memcg_stat markers with numa_*"
	expect_eq "$b: memcg_numa markers" "$(grep -c ' buf=memcg_numa id=' "$TMP/new.txt")" "$nm"
	expect_eq "$b: numa_ left" "$(grep -c ' buf=memcg_stat .* numa_' "$TMP/new.txt")" 0
	"$RS_BIN" replay --json "$TMP/new.txt" >"$TMP/new.json" 2>/dev/null ||
		fail "$b: replay of the report with memcg_numa exit $?"
	"$RS_BIN" replay --json "$TMP/raw" >"$TMP/raw.json" 2>/dev/null ||
		fail "$b: replay of the report exit $?"
	expect_eq "$b: identity with memcg_numa as with numa_* in memcg_stat" \
		"$(jq -c '.replay.identity' "$TMP/new.json")" "$(jq -c '.replay.identity' "$TMP/raw.json")"
fi
finish
