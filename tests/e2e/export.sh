#!/bin/sh
# `reclaimscope export`. perfetto: the Trace Event Format checked field by field (docs/export.md):
# valid JSON; every event has ph, ts, pid, tid; ph one the format defines; X durations >= 0;
# B/E balanced per thread; X slices of one thread nest (none ends after the slice it starts in);
# M events name something; i instants have a scope; C counters carry numbers. Its reclaim
# slices equal the episodes analyze --json counts (count + cut_start + cut_end + missed_end per
# kind, unmatched_end as instants), and the complete ones equal begin/end pairs per pid counted
# with awk over `trace-cmd report`; on a range (cut episodes) too. --max-slices bounds it with a
# warning. jsonl: rows per type equal analyze's counts, every row has host/trace/kernel,
# sums agree with analyze and with awk, and the docs' jq query runs. Bad input leaves no file.
. tests/lib-e2e.sh
need jq trace-cmd

# complete episodes per kind, paired by pid, and complete kswapd awake periods, from the report
report_pairs() {
	trace_report "$1" | awk '
	match($0, /-[0-9]+ +\[[0-9]+\] +[0-9.]+: +mm_vmscan_[a-z_]+:/) {
		hdr = substr($0, RSTART, RLENGTH); split(hdr, h, /[][ :]+/)
		pid = substr(h[1], 2); ev = h[4]
		if (ev == "mm_vmscan_kswapd_wake") { awake[pid] = 1; next }
		if (ev == "mm_vmscan_kswapd_sleep") { if (awake[pid]) ks++; awake[pid] = 0; next }
		if (ev !~ /_reclaim_(begin|end)$/) next
		kind = ev; sub(/^mm_vmscan_/, "", kind); sub(/_reclaim_(begin|end)$/, "", kind)
		sub(/^memcg_softlimit$/, "softlimit", kind)
		if (ev ~ /_begin$/) open[kind, pid] = 1
		else if (open[kind, pid]) { open[kind, pid] = 0; n++ }
	}
	END { print n + 0, ks + 0 }'
}

# Trace Event Format checks on $1; $2 names it in messages
check_format() {
	if ! jq -e '.traceEvents | type == "array"' "$1" >/dev/null; then
		fail "$2: no traceEvents array"
		return
	fi
	# the six counts in one jq (a jq run each was most of this script's CPU time)
	cf=$1 cn=$2
	set -- $(jq -r '.traceEvents as $e | [
		([$e[] | select((has("ph") and has("ts") and has("pid") and
		has("tid") and (.ts | type) == "number" and (.pid | type) == "number" and
		(.tid | type) == "number" and
		(.ph | IN("B","E","X","i","I","C","M","b","e","n","s","t","f","P","O","N","D")))
		| not)] | length),
		([$e[] | select(.ph == "X" and ((.dur | type) != "number" or .dur < 0))] | length),
		([$e[] | select(.ph == "M" and (.args.name | type) != "string")] | length),
		([$e[] | select(.ph == "i" and (.s | IN("g","p","t") | not))] | length),
		([$e[] | select(.ph == "C") | .args[] | select(type != "number")] | length),
		([$e[] | select(.ph == "B" or .ph == "E")] | group_by([.pid, .tid]) |
		 map(select((map(select(.ph == "B")) | length) !=
			    (map(select(.ph == "E")) | length))) | length)] | @tsv' "$cf")
	expect_eq "$cn: events without ph/ts/pid/tid or with an unknown ph" "$1" 0
	expect_eq "$cn: X with a negative or missing dur" "$2" 0
	expect_eq "$cn: M without args.name" "$3" 0
	expect_eq "$cn: i without a scope" "$4" 0
	expect_eq "$cn: C with non-number values" "$5" 0
	expect_eq "$cn: unbalanced B/E" "$6" 0
	set -- "$cf" "$cn"
	# nesting: one event a line; ts and dur in us with 3 decimals, read exactly as ns
	x='s/.*"dur":([0-9]+)\.([0-9]{3}).*"pid":([0-9]+),"tid":(-?[0-9]+),'
	x=$x'"ts":([0-9]+)\.([0-9]{3}).*/\3 \4 \5\6 \1\2/'
	grep '"ph":"X"' "$1" | sed -E "$x" | awk '{ print $1, $2, $3 + 0, $3 + $4 }' |
		sort -k1,1n -k2,2n -k3,3n -k4,4nr |
		awk '{ key = $1 " " $2
		       if (key != last) { sp = 0; last = key }
		       while (sp > 0 && $3 >= st[sp]) sp--
		       if (sp > 0 && $4 > st[sp]) {
			       print "slice at " $3 " ends after its parent"; exit 1
		       }
		       st[++sp] = $4 }' >"$TMP/nest" ||
		fail "$2: X slices do not nest: $(cat "$TMP/nest")"
}

A=$TMP/a.json P=$TMP/p.json R=$TMP/r.jsonl
# events of the perfetto export that match a jq condition
events() { jq "[.traceEvents[] | select($1)] | length" "$P"; }
# rows of the jsonl export that match a jq condition
rows() { jq -c "select($1)" "$R" | wc -l; }
ALL_EPISODES='[.episodes[] | .count + .cut_start + .cut_end + .unmatched_end + .missed_end] | add'
# "INACTIVE_ANON INACTIVE_FILE": lru_isolate nr_scanned per list
isolate_sums() {
	trace_report "$1" | awk '/ mm_vmscan_lru_isolate:/ && match($0, / nr_scanned=[0-9]+/) {
		n = substr($0, RSTART + 12, RLENGTH - 12) + 0
		if ($0 ~ / lru=inactive_anon/) a += n; else if ($0 ~ / lru=inactive_file/) f += n }
	END { print a + 0, f + 0 }'
}

SLICED='[.episodes[] | .count + .cut_start + .cut_end + .missed_end] | add'
RECLAIM_X='.ph == "X" and .cat == "reclaim" and .name != "kswapd awake"'
KSWAPD_X='.ph == "X" and .name == "kswapd awake"'

for f in $(real_traces); do
	name=$(basename "$f" .dat)
	rs_json analyze "$f" >"$A" || { fail "$name: analyze"; continue; }
	rs_ok "$name: export perfetto" export --format perfetto -o "$P" "$f" || continue
	check_format "$P" "$name"
	[ "$f" = "$SHARED_TRACE" ] && cp "$P" "$TMP/shared.perfetto"
	# the export's figures the checks compare, one jq (a jq run each was most of this
	# script's CPU time): slices, complete slices, complete kswapd slices, OOM and throttle
	# instants, LRU counter samples, their inactive_file sum, displayTimeUnit, the trace
	read -r px pxc pkc poom pthr pctr psum pdtu ptrace <<EOF
$(jq -r "[.traceEvents as \$e | ([\$e[] | select($RECLAIM_X)] | length),
	([\$e[] | select($RECLAIM_X and .args.status == \"complete\")] | length),
	([\$e[] | select($KSWAPD_X and .args.status == \"complete\")] | length),
	([\$e[] | select(.ph == \"i\" and .cat == \"oom\")] | length),
	([\$e[] | select(.ph == \"i\" and .cat == \"throttle\")] | length),
	([\$e[] | select(.ph == \"C\" and .pid == 2)] | length),
	([\$e[] | select(.ph == \"C\" and .name == \"inactive_file\") | .args.scanned_pages] |
		add), has(\"displayTimeUnit\"), .otherData.trace] | map(tostring) | @tsv" "$P")
EOF
	expect_eq "$name: reclaim slices = analyze's episodes" "$px" "$(jq "$SLICED" "$A")"
	set -- $(oracle_of report_pairs "$f")
	expect_eq "$name: complete slices = begin/end pairs in the report" "$pxc" "$1"
	expect_eq "$name: complete kswapd awake slices = wake/sleep pairs" "$pkc" "$2"
	expect_eq "$name: kswapd slices = analyze's periods" "$pkc" "$(jq .kswapd.periods "$A")"
	expect_eq "$name: OOM instants" "$poom" "$(jq .oom.kills "$A")"
	expect_eq "$name: throttle instants" "$pthr" "$(jq .throttled.count "$A")"
	expect_eq "$name: LRU counter samples" "$pctr" "$(jq '4 * (.timeline.buckets + 1)' "$A")"
	expect_eq "$name: counters sum to analyze's scanned" "$psum" \
		"$(jq '.lru.inactive_file.scanned' "$A")"
	expect_eq "$name: otherData.trace" "$ptrace" "$f"
	# some Perfetto versions read ts in displayTimeUnit: it must not say ns while ts is in us
	expect_eq "$name: no displayTimeUnit" "$pdtu" false

	# jsonl: rows per type, the common columns, sums
	if ! "$RS_BIN" export --format jsonl -o "$R" "$f" 2>/dev/null; then
		fail "$name: jsonl exit $?"
		continue
	fi
	jq -e . "$R" >/dev/null || fail "$name: jsonl rows are not JSON"
	[ "$f" = "$SHARED_TRACE" ] && cp "$R" "$TMP/shared.jsonl"
	# the rows' figures, one jq as above: episode, complete episode, bucket, cgroup_bucket and
	# complete kswapd_awake rows, rows without the common columns, two sums
	read -r re rec rb rcb rka rnc rsum rsc <<EOF
$(jq -s -r --arg f "$f" '[(map(select(.type == "episode")) | length),
	(map(select(.type == "episode" and .status == "complete")) | length),
	(map(select(.type == "bucket")) | length),
	(map(select(.type == "cgroup_bucket")) | length),
	(map(select(.type == "kswapd_awake" and .status == "complete")) | length),
	(map(select((has("host") and has("kernel") and .trace == $f) | not)) | length),
	([.[] | select(.type == "episode" and .status == "complete") | .nr_reclaimed] | add // 0),
	([.[] | select(.type == "bucket") | .scanned_inactive_file] | add)] | map(tostring) | @tsv' "$R")
EOF
	expect_eq "$name: episode rows" "$re" "$(jq "$ALL_EPISODES" "$A")"
	expect_eq "$name: complete episode rows = report pairs" "$rec" "$1"
	expect_eq "$name: bucket rows" "$rb" "$(jq .analysis.buckets "$A")"
	expect_eq "$name: cgroup_bucket rows" "$rcb" \
		"$(jq '([.cgroups[] | select(.series != null)] | length) *
			.cgroup_attribution.series.buckets' "$A")"
	expect_eq "$name: kswapd_awake complete rows" "$rka" "$(jq .kswapd.periods "$A")"
	expect_eq "$name: rows without host/trace/kernel" "$rnc" 0
	expect_eq "$name: episode rows' nr_reclaimed (complete) = analyze's" "$rsum" \
		"$(jq '[.episodes[] | .reclaimed] | add' "$A")"
	expect_eq "$name: bucket rows' scanned_inactive_file = analyze's" "$rsc" \
		"$(jq '.lru.inactive_file.scanned' "$A")"
	# the docs' jq version of the fleet query runs and counts the complete direct stalls
	expect_eq "$name: docs query" "$(jq -s -c 'map(select(.type == "episode" and
		.kind == "direct" and .status == "complete")) | group_by(.kernel) |
		map(.[0].kernel + " " + (length | tostring)) | .[]' "$R")" \
		"$(jq -c 'if .episodes.direct.count > 0 then .trace.kernel + " " +
			(.episodes.direct.count | tostring) else empty end' "$A")"
done

# a range: episodes cut by it are slices too, with their status, and still nest
g="$SHARED_TRACE"
range="--from 755.3 --to 756"
if [ -f "$g" ]; then
	"$RS_BIN" analyze --json $range "$g" >"$A"
	"$RS_BIN" export --format perfetto $range -o "$P" "$g" || fail "range: exit $?"
	check_format "$P" "range"
	expect_eq "range: reclaim slices" "$(events "$RECLAIM_X")" "$(jq "$SLICED" "$A")"
	expect_eq "range: cut slices" \
		"$(events "$RECLAIM_X and (.args.status | startswith(\"cut\"))")" \
		"$(jq '[.episodes[] | .cut_start + .cut_end] | add' "$A")"
	[ "$(jq '[.episodes[] | .cut_end] | add' "$A")" -gt 0 ] ||
		fail "range: no cut episode to check"
	# --max-slices: exactly N, a warning, the rest counted
	total=$(jq '.otherData.slices' "$P")
	"$RS_BIN" export --format perfetto $range --max-slices 10 -o "$TMP/m.json" "$g" \
		2>"$TMP/err" || fail "--max-slices: exit $?"
	expect_eq "--max-slices: slices and instants" "$(jq '[.traceEvents[] |
		select(.ph == "X" or .ph == "i")] | length' "$TMP/m.json")" 10
	expect_eq "--max-slices: dropped" "$(jq '.otherData.slices_dropped' "$TMP/m.json")" \
		"$((total - 10))"
	grep -q "warning: --max-slices 10" "$TMP/err" || fail "--max-slices: no warning"
	check_format "$TMP/m.json" "--max-slices"
	# the same bytes with one reading thread as with the default (the loop's exports above):
	# the episodes come in the same order
	for fmt in perfetto jsonl; do
		[ -f "$TMP/shared.$fmt" ] || continue
		"$RS_BIN" export --format $fmt --threads 1 -o "$TMP/t1" "$g" 2>/dev/null
		cmp -s "$TMP/t1" "$TMP/shared.$fmt" ||
			fail "$fmt: --threads 1 and the default threads differ"
	done
fi

# MGLRU (trace.mglru): the LRU counters are the types anon and file, as analyze and the TUI name
# them, each summing what lru_isolate scanned from its "inactive" list (the oldest generation)
m=tests/fixtures/kernel7/k72-multi-mglru.dat
rs_json analyze "$m" >"$A" || fail "mglru: analyze"
expect_eq "mglru: trace.mglru" "$(jq .trace.mglru "$A")" true
if rs_ok "mglru: export perfetto" export --format perfetto -o "$P" "$m"; then
	check_format "$P" mglru
	set -- $(oracle_of isolate_sums "$m")
	[ "$1" -gt 0 ] && [ "$2" -gt 0 ] || fail "mglru: nothing scanned in the report"
	expect_eq "mglru: counters and their scanned sums" "$(jq -r '[.traceEvents[] |
		select(.ph == "C" and .pid == 2)] | group_by(.name) |
		map("\(.[0].name)=\(map(.args.scanned_pages) | add)") | join(" ")' "$P")" \
		"anon=$1 file=$2"
	expect_eq "mglru: counter samples" "$(jq '[.traceEvents[] | select(.ph == "C" and
		.pid == 2)] | length' "$P")" "$(jq '2 * (.timeline.buckets + 1)' "$A")"
	expect_eq "mglru: reclaimed" "$(jq '[.traceEvents[] | select(.ph == "C" and .pid == 2) |
		.args.reclaimed_pages] | add' "$P")" \
		"$(jq '.lru.inactive_anon.reclaimed + .lru.inactive_file.reclaimed' "$A")"
fi

# stdout, and bad input: a message, a non-zero exit, no file left
"$RS_BIN" export --format jsonl -o - tests/fixtures/v6.dat | jq -e -s 'length > 0' >/dev/null ||
	fail "-o -: no rows"
: >"$TMP/empty.txt"
mkdir "$TMP/out"
"$RS_BIN" export --format nosuch -o "$TMP/out/x" tests/fixtures/v6.dat 2>"$TMP/err"
expect_eq "unknown --format: exit" "$?" 2
grep -q nosuch "$TMP/err" || fail "unknown --format: message"
"$RS_BIN" export --format jsonl tests/fixtures/v6.dat 2>/dev/null
expect_eq "no -o: exit" "$?" 2
"$RS_BIN" export --format perfetto -o "$TMP/nosuchdir/x.json" tests/fixtures/v6.dat 2>"$TMP/err"
expect_eq "unwritable output: exit" "$?" 1
grep -q nosuchdir "$TMP/err" || fail "unwritable output: message"
"$RS_BIN" export --format perfetto -o "$TMP/out/x.json" "$TMP/empty.txt" 2>"$TMP/err"
expect_eq "empty trace: exit" "$?" 1
echo keep >"$TMP/out/kept.json"
"$RS_BIN" export --format jsonl --from 999999 -o "$TMP/out/kept.json" tests/fixtures/v6.dat \
	2>"$TMP/err"
expect_eq "nothing in range: exit" "$?" 1
expect_eq "existing output kept" "$(cat "$TMP/out/kept.json")" keep
expect_eq "files left after failures" "$(ls -A "$TMP/out" | grep -v -x kept.json)" ""
# hostile input: every input the fuzzers once broke the loaders with, and their seeds (the seeds
# only in the light round: fuzz_inputs)
for f in $(fuzz_inputs); do
	[ -f "$f" ] || continue
	timeout 300 "$RS_BIN" export --format perfetto -o "$TMP/fz.json" "$f" >/dev/null \
		2>"$TMP/err"
	r=$?
	[ $r -le 1 ] || fail "export $f: exit $r: $(head -c 300 "$TMP/err")"
done
finish
