#!/bin/sh
# `diff`: self-diffs change nothing, percentages match jq's arithmetic, multi-run statistics
# reproduce seed 003's table (hand-checked, p-values from mpmath), mixed trace/JSON inputs,
# left-out metrics, and exit codes. Every exit-0 --json output must be valid JSON.
. tests/lib-e2e.sh
need jq

# run_ok NAME ARGS...: diff must exit 0; output in $TMP/out (and checked with jq for --json)
run_ok() {
	what=$1
	shift
	"$RS_BIN" diff "$@" >"$TMP/out" 2>"$TMP/err"
	r=$?
	[ $r -eq 0 ] || { fail "$what: exit $r: $(cat "$TMP/err")"; return 1; }
	case " $* " in
	*" --json "*) jq -e . "$TMP/out" >/dev/null || { fail "$what: invalid JSON"; return 1; } ;;
	esac
	return 0
}

# run_exit NAME CODE PATTERN ARGS...: diff must exit CODE with PATTERN on stderr
run_exit() {
	what=$1 want=$2 pat=$3
	shift 3
	"$RS_BIN" diff "$@" >"$TMP/out" 2>"$TMP/err"
	r=$?
	expect_eq "$what: exit" "$r" "$want"
	[ -z "$pat" ] || grep -q -- "$pat" "$TMP/err" || fail "$what: stderr lacks '$pat': $(cat "$TMP/err")"
}

# check_self NAME: $TMP/out is a --json self-diff: every change 0, nothing left out
check_self() {
	nm=$(jq '.metrics | length' "$TMP/out")
	[ "$nm" -gt 0 ] || fail "$1: no metrics"
	expect_eq "$1: metrics_compared" "$(jq .metrics_compared "$TMP/out")" "$nm"
	expect_eq "$1: nonzero changes" "$(jq '[.metrics[] | select(.change_pct != 0)] | length' "$TMP/out")" 0
	expect_eq "$1: avg % not 100" "$(jq '[.metrics[] | select(.pct_of_base.avg != 100)] | length' "$TMP/out")" 0
	expect_eq "$1: significant" "$(jq '[.metrics[] | select(.significant)] | length' "$TMP/out")" 0
	expect_eq "$1: left out" "$(jq '.left_out | length' "$TMP/out")" 0
}

# ---- hand-made analyses (tests/fixtures/diff: a 6.1 and a 6.18 run of the same scenario) ----
cp tests/fixtures/diff/a.json tests/fixtures/diff/b.json "$TMP/"

# 1. self-diff of a saved analysis, text and JSON
run_ok "self-diff json" --json "$TMP/a.json" "$TMP/a.json" && check_self "self-diff a.json"
run_ok "self-diff text" --format seed "$TMP/a.json" "$TMP/a.json" &&
	{ grep -q '^lru.inactive_file.scanned$' "$TMP/out" || fail "self-diff text: no block"; }
grep -q '^base: min: 12000.00 max: 12000.00 avg: 12000.00 std: 0.00 runs: 1$' "$TMP/out" ||
	fail "self-diff text: base line"
grep -q '^new: min: 12000.00 \[100.0%\] max: 12000.00 \[100.0%\] avg: 12000.00 \[100.0%\] std: 0.00 runs: 1$' "$TMP/out" ||
	fail "self-diff text: new line"

# 2. two kernels: percentages against jq's arithmetic on the inputs
run_ok "a vs b" --json "$TMP/a.json" "$TMP/b.json" && {
	for m in lru.inactive_file.scanned lru.inactive_file.reclaimed episodes.direct.count \
		 episodes.direct.latency_us.p50 episodes.direct.latency_us.p99 trace.events; do
		path=$(echo "$m" | sed 's/\./","/g')
		bad=$(jq -n --slurpfile a "$TMP/a.json" --slurpfile b "$TMP/b.json" \
			--slurpfile d "$TMP/out" --arg m "$m" "
			def off(\$g; \$w): (\$g - \$w | fabs) > 1e-8 * ([1, (\$w | fabs)] | max);
			(\$b[0] | getpath([\"$path\"])) as \$n | (\$a[0] | getpath([\"$path\"])) as \$o |
			\$d[0].metrics[\$m] as \$r |
			off(\$r.change_pct; (\$n - \$o) / \$o * 100) or off(\$r.pct_of_base.avg; \$n / \$o * 100)")
		expect_eq "a vs b $m: percentages against jq" "$bad" false
	done
	# by hand: 15000/12000 = 125%, 8100/9000 = 90%, 3000/2400 = 125%, 100.25/120.5 = 83.195%
	expect_eq "scanned +25%" "$(jq '.metrics["lru.inactive_file.scanned"].change_pct' "$TMP/out")" 25
	expect_eq "reclaimed -10%" "$(jq '.metrics["lru.inactive_file.reclaimed"].change_pct' "$TMP/out")" -10
	# cgroups are matched by path (their ids differ), the series is no metric
	expect_eq "cgroup by path" "$(jq '.metrics["cgroups[/rs_a].victim.pgscan_direct"].change_pct' "$TMP/out")" 10
	expect_eq "no series" "$(jq '[.metrics | keys[] | select(test("series|width|\\.id$"))] | length' "$TMP/out")" 0
	# a change from 0 has no percentage
	expect_eq "from zero" "$(jq -c '.metrics["lru.active_anon.scanned"] | [.change_pct, .pct_of_base.avg]' "$TMP/out")" "[null,null]"
	expect_eq "single runs: no test" "$(jq -c '[.metrics[] | .p] | unique' "$TMP/out")" "[null]"
	expect_eq "kernels differ" "$(jq .kernels_differ "$TMP/out")" true
	expect_eq "events only in base" "$(jq -c .base.events_only_here "$TMP/out")" '["count_memcg_events"]'
	expect_eq "events only in new" "$(jq -c .new.events_only_here "$TMP/out")" '["mm_vmscan_write_folio"]'
	expect_eq "left out" "$(jq -c '[.left_out[] | "\(.metric) \(.only_in)"]' "$TMP/out")" \
		'["cgroups[/rs_gone].victim.pgscan_direct base","cgroups[/rs_gone].victim.pgsteal_direct base","cgroups[/rs_new].victim.pgscan_direct new","trace.events_by_name.count_memcg_events base","trace.events_by_name.mm_vmscan_write_folio new"]'
	expect_eq "labels" "$(jq -r '.base.label + " " + .new.label' "$TMP/out")" "a b"
}
run_ok "a vs b text" --format seed "$TMP/a.json" "$TMP/b.json" && {
	grep -q '^b: min: 15000.00 \[125.0%\] max: 15000.00 \[125.0%\] avg: 15000.00 \[125.0%\] std: 0.00 runs: 1$' "$TMP/out" ||
		fail "a vs b text: scanned line"
	grep -q '^b: min: 100.25 \[83.2%\] max: 100.25 \[83.2%\]' "$TMP/out" || fail "a vs b text: p50"
	grep -q '^b: min: 7.00 \[n/a\]' "$TMP/out" || fail "a vs b text: from zero"
	grep -q '^NOTE      the kernels differ' "$TMP/out" || fail "a vs b text: kernel note"
	grep -q 'events recorded only in a: count_memcg_events' "$TMP/out" || fail "a vs b text: events"
	grep -q '^  cgroups\[/rs_gone\]\.\* (2 metrics, only in a)$' "$TMP/out" || fail "a vs b text: left out"
	grep -q '^  cgroups\[/rs_new\].victim.pgscan_direct (only in b)$' "$TMP/out" || fail "a vs b text: left out new"
	grep -q '^signif.   n/a' "$TMP/out" || fail "a vs b text: significance n/a"
}
# --only-changed 20: scanned (+25%), p50 (-16.8%: no), p99 (+25%), active_anon (from 0), ...
run_ok "only-changed" --json --only-changed 20 "$TMP/a.json" "$TMP/b.json" && {
	want=$(jq '[.metrics[] | select(.change_pct == null or (.change_pct | fabs) >= 20)] | length' \
		"$TMP/out")
	got=$(jq '.metrics | length' "$TMP/out")
	expect_eq "only-changed count" "$got" "$want"
	expect_eq "only-changed drops p50" "$(jq '.metrics | has("episodes.direct.latency_us.p50")' "$TMP/out")" false
	expect_eq "only-changed keeps p99" "$(jq '.metrics | has("episodes.direct.latency_us.p99")' "$TMP/out")" true
}
"$RS_BIN" diff --json "$TMP/a.json" "$TMP/b.json" >"$TMP/all.json"
run_ok "only-changed text" --format seed --only-changed 20 "$TMP/a.json" "$TMP/b.json" && {
	want=$(jq '[.metrics[] | select(.change_pct == null or (.change_pct | fabs) >= 20)] | length' \
		"$TMP/all.json")
	expect_eq "only-changed text blocks" "$(grep -c '^b: min:' "$TMP/out")" "$want"
}

# 3. multi-run: seed 003's "8k-0-limit" kbuild table, 3 runs a side. With 3 runs the middle
# value is 3 * avg - min - max. Expected lines are the seed's, character for character.
# p-values: mpmath (30 digits) Welch-Satterthwaite df, betainc(df/2, 1/2, df/(df+t^2)).
# runs SIDE "ELAPSED SYSTEM"...: $TMP/SIDE1.json... with those two metrics, a.json's kernel
runs() {
	_side=$1 _i=0
	shift
	for _pair in "$@"; do
		_i=$((_i + 1))
		jq --argjson e "${_pair% *}" --argjson s "${_pair#* }" \
			'{trace: {kernel: .trace.kernel}, Elapsed: $e, System: $s}' \
			"$TMP/a.json" >"$TMP/$_side$_i.json"
	done
}
runs base "475.48 320.50" "515.95 323.78" "585.19 332.10"
runs new "616.25 1115.76" "619.89 1116.53" "625.90 1165.66"
run_ok "multi-run text" --format seed --labels 8k-0-limit/base,8k-0-limit/reclaim \
	--base "$TMP/base1.json" "$TMP/base2.json" "$TMP/base3.json" \
	--new "$TMP/new1.json" "$TMP/new2.json" "$TMP/new3.json" && {
	cat >"$TMP/want" <<'EOF'
8k-0-limit/base: min: 320.50 max: 332.10 avg: 325.46 std: 4.88 runs: 3
8k-0-limit/reclaim: min: 1115.76 [348.1%] max: 1165.66 [351.0%] avg: 1132.65 [348.0%] std: 23.34 runs: 3
8k-0-limit/base: min: 475.48 max: 585.19 avg: 525.54 std: 45.30 runs: 3
8k-0-limit/reclaim: min: 616.25 [129.6%] max: 625.90 [107.0%] avg: 620.68 [118.1%] std: 3.98 runs: 3
EOF
	grep '^8k-0-limit/' "$TMP/out" | sort >"$TMP/got"
	sort "$TMP/want" >"$TMP/want.s"
	cmp -s "$TMP/got" "$TMP/want.s" || { fail "multi-run: lines differ from seed 003";
		diff "$TMP/got" "$TMP/want.s"; }
	grep -q '^Elapsed  p=0.0960$' "$TMP/out" || fail "multi-run: Elapsed p (want 0.0960, not significant)"
	grep -q '^System  p=0.0002 \*$' "$TMP/out" || fail "multi-run: System p (want 0.0002 *)"
}
run_ok "multi-run json" --json --base "$TMP/base1.json" "$TMP/base2.json" "$TMP/base3.json" \
	--new "$TMP/new1.json" "$TMP/new2.json" "$TMP/new3.json" && {
	expect_eq "Elapsed p" "$(jq '.metrics.Elapsed.p * 1e9 | round' "$TMP/out")" 96002062
	expect_eq "Elapsed df" "$(jq '.metrics.Elapsed.df * 1e9 | round' "$TMP/out")" 2030860199
	expect_eq "Elapsed t" "$(jq '.metrics.Elapsed.t * 1e9 | round' "$TMP/out")" 2958810646
	expect_eq "Elapsed significant" "$(jq '.metrics.Elapsed.significant' "$TMP/out")" false
	expect_eq "System p" "$(jq '.metrics.System.p * 1e12 | round' "$TMP/out")" 249939139
	expect_eq "System significant" "$(jq '.metrics.System.significant' "$TMP/out")" true
	expect_eq "Elapsed base" "$(jq -c '.metrics.Elapsed.base | [.n, .min, .max, (.avg * 100 | round), (.std * 100 | round)]' "$TMP/out")" \
		"[3,475.48,585.19,52554,4530]"
	expect_eq "labels default" "$(jq -r '.base.label + " " + .new.label' "$TMP/out")" "base new"
	expect_eq "runs" "$(jq '.base.runs | length' "$TMP/out")" 3
}
# --alpha 0.1 makes Elapsed (p = 0.096) significant too
run_ok "alpha" --json --alpha 0.1 --base "$TMP/base1.json" "$TMP/base2.json" "$TMP/base3.json" \
	--new "$TMP/new1.json" "$TMP/new2.json" "$TMP/new3.json" &&
	expect_eq "alpha 0.1" "$(jq '.metrics.Elapsed.significant' "$TMP/out")" true
# 3 runs against themselves: nothing changes, nothing is significant (p = 1)
run_ok "multi-run self" --json --base "$TMP/base1.json" "$TMP/base2.json" "$TMP/base3.json" \
	--new "$TMP/base1.json" "$TMP/base2.json" "$TMP/base3.json" && {
	check_self "multi-run self"
	expect_eq "multi-run self p" "$(jq -c '[.metrics[] | .p] | unique' "$TMP/out")" "[1]"
}

# 4. real traces: self-diff of their saved JSON; a trace against its own saved JSON
have_analyze=no
"$RS_BIN" analyze --help >/dev/null 2>&1 && have_analyze=yes
n=0
for f in $(real_traces); do
	n=$((n + 1))
	if [ $have_analyze = yes ]; then
		rs_json analyze "$f" >"$TMP/t.json" || { fail "$f: analyze exit $?"; continue; }
	else
		rs_json events "$f" >"$TMP/t.json" || { fail "$f: events exit $?"; continue; }
	fi
	run_ok "$f self" --json "$TMP/t.json" "$TMP/t.json" && check_self "$f self"
	"$RS_BIN" diff --json "$f" "$TMP/t.json" >"$TMP/out" 2>"$TMP/err"
	r=$?
	if [ $have_analyze = yes ]; then
		expect_eq "$f: trace vs its JSON exit" "$r" 0
		[ $r -ne 0 ] || { jq -e . "$TMP/out" >/dev/null || fail "$f: mixed: invalid JSON"; }
		[ $r -ne 0 ] || check_self "$f trace vs JSON"
		expect_eq "$f: mixed inputs" "$(jq -r '[.base.runs[0].input, .new.runs[0].input] | join(" ")' "$TMP/out")" "trace analysis"
		# a trace against itself (the first one only: analysing twice takes time)
		[ $n -gt 1 ] || { run_ok "$f trace self" --json "$f" "$f" &&
			check_self "$f trace self"; }
	else
		[ $n -gt 1 ] || echo "note: no analyze command yet: mixed trace/JSON part not run"
		expect_eq "$f: trace input before analysis exists" "$r" 1
	fi
	cp "$TMP/t.json" "$TMP/real$n.json"
done
[ "$n" -gt 0 ] || echo "note: no real traces found: real-trace part not run"

# 5. two real traces: every event count's change and percentage against jq's arithmetic, the
# events only one trace has are left out on the right side unless the other traced them (its
# event_formats), the text shows the same percentage
if [ "$n" -ge 2 ]; then
	A=$TMP/real1.json B=$TMP/real2.json
	run_ok "two traces" --json "$A" "$B" && {
		# JSON reals carry 10 significant digits: compare to 1e-8 relative
		bad=$(jq -n -r --slurpfile a "$A" --slurpfile b "$B" --slurpfile d "$TMP/out" '
			def off($g; $w): ($g - $w | fabs) > 1e-8 * ([1, ($w | fabs)] | max);
			($a[0].trace.events_by_name) as $x | ($b[0].trace.events_by_name) as $y |
			[($x | keys[]) as $k | select($y | has($k)) |
			 $d[0].metrics["trace.events_by_name." + $k] as $m |
			 select($m == null or off($m.change_pct; ($y[$k] - $x[$k]) / $x[$k] * 100) or
				off($m.pct_of_base.avg; $y[$k] / $x[$k] * 100)) | $k] | join(" ")')
		expect_eq "two traces: events whose percentages differ from jq" "$bad" ""
		expect_eq "two traces: common events compared" "$(jq -n --slurpfile a "$A" --slurpfile b "$B" \
			'[$a[0].trace.events_by_name | keys[] | select(. as $k | $b[0].trace.events_by_name | has($k))] | length > 0')" true
		jq -n -r --slurpfile a "$A" --slurpfile b "$B" '
			($a[0].trace.events_by_name) as $x | ($b[0].trace.events_by_name) as $y |
			($a[0].trace.event_formats // []) as $fx |
			($b[0].trace.event_formats // []) as $fy |
			(($x | keys[]) as $k | select(($y | has($k)) or ($fy | index([$k])) | not) |
			 "\($k) base"),
			(($y | keys[]) as $k | select(($x | has($k)) or ($fx | index([$k])) | not) |
			 "\($k) new")' |
			sort >"$TMP/want"
		jq -r '.left_out[] | select(.metric | startswith("trace.events_by_name.")) |
			"\(.metric | ltrimstr("trace.events_by_name.")) \(.only_in)"' "$TMP/out" |
			sort >"$TMP/got"
		cmp -s "$TMP/got" "$TMP/want" || { fail "two traces: left-out events differ";
			diff "$TMP/got" "$TMP/want" | head; }
		pct=$(jq -n -r --slurpfile a "$A" --slurpfile b "$B" \
			'$b[0].trace.events / $a[0].trace.events * 100')
		want=$(printf '%.1f' "$pct")
		"$RS_BIN" diff --format seed --labels one,two "$A" "$B" >"$TMP/text" || fail "two traces: text exit $?"
		grep -A 2 '^trace.events$' "$TMP/text" | grep -q "^two: min: [0-9.]* \[$want%\]" ||
			fail "two traces: trace.events text percentage, want [$want%]"
	}
fi

# 6. the ranked table (default text), --threshold, --all, --format mmtests, identical inputs.
# Two hand-made analyses with a `summary` as analyze writes it; every shown value and change is
# checked against jq's arithmetic on the inputs, the filter against the documented rules.
mk_summary() {	# FILE ANON FILEPAGES ANONPCT EFF SWAP DIRTY DCOUNT DTOTAL DMAX AWAKE P12 P11 P10 P9
	jq -n --argjson a "$2" --argjson f "$3" --argjson ap "$4" --argjson e "$5" --argjson sw "$6" \
		--argjson di "$7" --argjson dc "$8" --argjson dt "$9" --argjson dm "${10}" \
		--argjson aw "${11}" --argjson p12 "${12}" --argjson p11 "${13}" --argjson p10 "${14}" \
		--argjson p9 "${15}" '{trace: {kernel: "6.12.0"}, summary: {
		scan: {scanned_anon: $a, scanned_file: $f, anon_pct: $ap, efficiency_pct: $e},
		io: {swap_out_folios: $sw, dirty_pages: $di},
		stalls: {direct: {count: $dc, total_us: $dt, max_us: $dm}},
		kswapd: {awake_total_s: $aw},
		priority: {share_pct: ({"0": 0, "1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0,
			"8": 0} + {"12": $p12, "11": $p11, "10": $p10, "9": $p9})}}}' >"$1"
}
mk_summary "$TMP/s1.json" 50000 100000 33.33 66.0 20000 100 100 1500000 150000 6.72 60 30 10 0
mk_summary "$TMP/s2.json" 10000 104000 8.77 87.0 4000 110 105 1200000 200000 6.64 20 30 30 20
"$RS_BIN" diff --json "$TMP/s1.json" "$TMP/s2.json" >"$TMP/rank.json" || fail "ranked json: exit $?"
run_ok "ranked table" --labels classic,mglru "$TMP/s1.json" "$TMP/s2.json" && {
	cp "$TMP/out" "$TMP/table"
	w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/table")
	[ "$w" -le 100 ] || fail "ranked table: $w columns wide"
	# row LABEL BASE NEW CHANGE as printed, the values from the inputs, the change from jq
	row() {
		grep -q "^  $1 \{2,\}$2 \{2,\}$3 \{2,\}$4\$" "$TMP/table" ||
			fail "ranked table: no row '$1 $2 $3 $4': $(grep "^  $1 " "$TMP/table")"
	}
	pct() {	# METRIC: jq's (new - base) / base * 100 to one decimal, signed
		jq -n -r --slurpfile a "$TMP/s1.json" --slurpfile b "$TMP/s2.json" --arg m "$1" '
			($m | split(".")) as $p | ($a[0] | getpath($p)) as $x | ($b[0] | getpath($p)) as $y |
			(($y - $x) / $x * 1000 | round / 10) as $c |
			(if $c >= 0 then "+" else "" end) + ($c | tostring) + (if $c == ($c | floor) then ".0" else "" end) + "%"'
	}
	row "scanned anon" 50000 10000 "$(pct summary.scan.scanned_anon)"
	row "swap-out" 20000 4000 "$(pct summary.io.swap_out_folios)"
	row "direct stall total" "1.500 s" "1.200 s" "$(pct summary.stalls.direct.total_us)"
	row "direct max" "150.0 ms" "200.0 ms" "$(pct summary.stalls.direct.max_us)"
	row "efficiency" "66.0%" "87.0%" "+21.0 pt"
	row "anon share of scanned" "33.3%" "8.8%" "-24.6 pt"
	# the priority distribution: total variation distance of the shares, by jq
	tv=$(jq -n -r --slurpfile a "$TMP/s1.json" --slurpfile b "$TMP/s2.json" '
		[range(0; 13) | tostring | ($b[0].summary.priority.share_pct[.] -
		 $a[0].summary.priority.share_pct[.]) | fabs] | add / 2 | "\(.)"')
	row "priority (mean; move)" 11.50 10.50 "$tv.0 pt"
	# under the threshold (10%, 5 points) or the floor (64 pages): not shown
	for l in "scanned file" "dirty seen" "direct episodes" "awake (with cut periods)"; do
		grep -q "^  $l " "$TMP/table" && fail "ranked table: '$l' shown (moved too little)"
	done
	grep -q "^(4 more figures moved less than 10% (5 points): --all shows them)$" "$TMP/table" ||
		fail "ranked table: hidden count line"
	# groups come by their largest move, rows by theirs (scores from the JSON, recomputed)
	bad=$(jq -r '[.ranking[] | select(.changed)] as $r |
		($r | map(.group) | reduce .[] as $g ([]; if (.[-1] // "") == $g then . else . + [$g] end)) as $gs |
		[$gs[] as $g | [$r[] | select(.group == $g) | .score] | max] as $gmax |
		(if $gmax != ($gmax | sort | reverse) then "groups not by score" else empty end),
		($gs[] as $g | [$r[] | select(.group == $g) | .score] |
			select(. != (sort | reverse)) | "rows of \($g) not by score"),
		($r[] | select(.unit != "%" and .unit != "distribution") |
			((((.new + 64) / (.base + 64)) | log2 | fabs) as $want |
			 select(.unit == "pages" or .unit == "folios") |
			 select((.score - $want) | fabs > 1e-9) | "score of \(.label)"))' "$TMP/rank.json")
	[ -z "$bad" ] || fail "ranking: $bad"
	first=$(sed -n '/^what changed/{n;p;q}' "$TMP/table")
	expect_eq "first group (priority moved 40 points)" "$first" "scan balance"
	expect_eq "ranking has every catalogue figure" "$(jq '.ranking | length' "$TMP/rank.json")" \
		"$(jq '[.ranking[] | select(.changed)] | length + 4' "$TMP/rank.json")"
}
run_ok "threshold 25" --threshold 25 "$TMP/s1.json" "$TMP/s2.json" && {
	grep -q '^  direct stall total ' "$TMP/out" && fail "--threshold 25 shows a -20% move"
	grep -q '^  direct max ' "$TMP/out" || fail "--threshold 25 hides a +33% move"
}
run_ok "all" --all "$TMP/s1.json" "$TMP/s2.json" &&
	expect_eq "--all rows" "$(grep -c '^  ' "$TMP/out")" "$(jq '.ranking | length' "$TMP/rank.json")"
run_ok "mmtests" --format mmtests --labels classic,mglru "$TMP/s1.json" "$TMP/s2.json" && {
	# [P%] = new as % of base, as seed 003 prints it; awk computes it from the inputs
	want=$(awk 'BEGIN { printf "[%.1f%%]", 10000 / 50000 * 100 }')
	grep -q "^scanned anon (pages) *50000 *10000 \[20.0%\]$" "$TMP/out" ||
		fail "mmtests: scanned anon row (want $want)"
	grep -q "^direct stall total (s) *1.500 *1.200 \[80.0%\]$" "$TMP/out" ||
		fail "mmtests: stall total row"
	grep -q "^efficiency *66.0% *87.0% \[+21.0pt\]$" "$TMP/out" || fail "mmtests: efficiency row"
	sed -n 3p "$TMP/out" | grep -q 'classic *mglru$' || fail "mmtests: label columns"
}
# identical inputs: exactly one line
run_ok "identical" "$TMP/s1.json" "$TMP/s1.json" && {
	expect_eq "identical: lines" "$(wc -l <"$TMP/out")" 1
	grep -q '^no difference: base and new have the same [0-9]* metrics, all equal$' "$TMP/out" ||
		fail "identical: $(cat "$TMP/out")"
}
# several runs a side: the table shows avg ±std and Welch's p, only significant moves
for i in 1 2 3; do
	mk_summary "$TMP/m$i.json" $((50000 + i * 100)) 100000 33.33 66.0 20000 100 100 1500000 \
		$((150000 + i * 50000)) 6.72 60 30 10 0
	mk_summary "$TMP/n$i.json" $((10000 + i * 100)) 100000 33.33 66.0 20000 100 100 1500000 \
		$((150000 + i * 60000)) 6.72 60 30 10 0
done
run_ok "multi-run table" --base "$TMP/m1.json" "$TMP/m2.json" "$TMP/m3.json" \
	--new "$TMP/n1.json" "$TMP/n2.json" "$TMP/n3.json" && {
	"$RS_BIN" diff --json --base "$TMP/m1.json" "$TMP/m2.json" "$TMP/m3.json" \
		--new "$TMP/n1.json" "$TMP/n2.json" "$TMP/n3.json" >"$TMP/mr.json"
	p=$(jq -r '.metrics["summary.scan.scanned_anon"].p' "$TMP/mr.json")
	sig=$(jq -r '.metrics["summary.stalls.direct.max_us"].significant' "$TMP/mr.json")
	expect_eq "max_us moves 20% but not significantly" "$sig" false
	grep -q '^  direct max ' "$TMP/out" && fail "multi-run: a move that is not significant shown"
	grep -q '^  scanned anon  *50200 ±81.6  *10200 ±81.6  *-79.7%  p<0.0001 \*$' "$TMP/out" ||
		fail "multi-run: scanned anon row (p=$p): $(grep 'scanned anon' "$TMP/out")"
	# the seeds' min and max under it: the runs' extremes by jq
	lo=$(jq -r '.metrics["summary.scan.scanned_anon"] | "\(.base.min)..\(.base.max) \(.new.min)..\(.new.max)"' \
		"$TMP/mr.json")
	expect_eq "multi-run: min..max under scanned anon" \
		"$(grep -A1 '^  scanned anon ' "$TMP/out" | sed -n '2s/^ *min\.\.max *//p' | tr -s ' ')" "$lo"
}

# analyses without a summary (an older analyze): the table says so and counts what differs
run_ok "no summary" "$TMP/a.json" "$TMP/b.json" && {
	want=$(jq '[.metrics[] | select(.base.avg != .new.avg)] | length' "$TMP/all.json")
	grep -q "^no .summary. to rank (an older analyze?): $want of [0-9]* metrics differ; --format seed lists them$" \
		"$TMP/out" || fail "no summary: $(tail -n 2 "$TMP/out")"
}
# per cgroup (matched by path): the victim figures only when both sides attributed 90%+ of
# their reclaimed pages exactly; the trigger's memcg figures
mk_cg() {	# FILE EXACT_PCT RECLAIMED P99 MAX
	jq -n --argjson x "$2" --argjson r "$3" --argjson p "$4" --argjson m "$5" '{
		trace: {kernel: "7.2"}, cgroup_attribution: {reclaimed_exact_pct: $x},
		cgroups: [{path: "/rs_a", victim: {reclaimed: $r, scanned: 5000},
			   trigger: {episodes: 50, stalled_us: 500000,
				     latency_us: {p99: $p, max: $m}}}]}' >"$1"
}
mk_cg "$TMP/c1.json" 100 1000 9000 20000
mk_cg "$TMP/c2.json" 100 3000 3000 30000
mk_cg "$TMP/c3.json" 50 3000 3000 30000
run_ok "cgroup rows" "$TMP/c1.json" "$TMP/c2.json" && {
	grep -q '^cgroup /rs_a$' "$TMP/out" || fail "cgroup rows: no group"
	grep -q '^  reclaimed from it  *1000  *3000  *+200.0%$' "$TMP/out" || fail "cgroup rows: victim"
	grep -q '^  memcg p99  *9.000 ms  *3.000 ms  *-66.7%$' "$TMP/out" || fail "cgroup rows: p99"
	grep -q '^  memcg max  *20.00 ms  *30.00 ms  *+50.0%$' "$TMP/out" || fail "cgroup rows: max"
}
run_ok "cgroup victims unattributed" "$TMP/c1.json" "$TMP/c3.json" && {
	grep -q 'reclaimed from it' "$TMP/out" && fail "victim rows despite 50% attribution"
	grep -q '^(pages taken per cgroup not compared: reclaimed pages matched to a cgroup: c1 100.0%, c3 50.0%)$' "$TMP/out" ||
		fail "no note on the unattributed victims"
	grep -q '^  memcg p99 ' "$TMP/out" || fail "trigger rows gone with the victims"
}

# 7. bad input (exit 1, naming the file and what is wrong) and usage errors (exit 2)
printf '{"trace": {' >"$TMP/broken.json"
echo '{"lru": {"x": 1}}' >"$TMP/notrace.json"
echo '[1, 2]' >"$TMP/array.json"
: >"$TMP/empty"
run_exit "missing file" 1 "$TMP/nope.json: cannot open" "$TMP/nope.json" "$TMP/a.json"
run_exit "broken JSON" 1 "broken.json: not valid JSON" "$TMP/a.json" "$TMP/broken.json"
run_exit "no trace" 1 "notrace.json: JSON without a \"trace\" object" "$TMP/notrace.json" "$TMP/a.json"
run_exit "empty" 1 "empty: empty file" "$TMP/empty" "$TMP/a.json"
run_exit "directory" 1 "cannot read" "$TMP" "$TMP/a.json"
run_exit "multi-run bad" 1 "notrace.json" --base "$TMP/a.json" --new "$TMP/b.json" "$TMP/notrace.json"
run_exit "no args" 2 "usage:"
run_exit "one arg" 2 "usage:" "$TMP/a.json"
run_exit "three args" 2 "usage:" "$TMP/a.json" "$TMP/a.json" "$TMP/a.json"
run_exit "base only" 2 "--base and --new" --base "$TMP/a.json"
run_exit "loose and base" 2 "files go after" "$TMP/a.json" --base "$TMP/a.json" --new "$TMP/b.json"
run_exit "bad only-changed" 2 "--only-changed" --only-changed abc "$TMP/a.json" "$TMP/b.json"
run_exit "bad labels" 2 "--labels" --labels x "$TMP/a.json" "$TMP/b.json"
run_exit "bad alpha" 2 "--alpha" --alpha 2 "$TMP/a.json" "$TMP/b.json"
run_exit "bad option" 2 "usage:" --frobnicate "$TMP/a.json" "$TMP/b.json"
"$RS_BIN" diff --help >"$TMP/out" 2>&1
expect_eq "help exit" "$?" 0
grep -q -- "--base A1 A2" "$TMP/out" || fail "help: no usage"

# The catalogue's rows read the figures they name: a row whose metric is not in the analysis
# is left out without a word, so each per-list scanned row is looked for and its sides are
# the lists' figures of analyze --json (k72-multi scans all four lists).
A="$TOP/tests/fixtures/kernel7/k72-global-classic.dat"
B="$TOP/tests/fixtures/kernel7/k72-multi.dat"
if [ -f "$A" ] && [ -f "$B" ]; then
	"$RS_BIN" diff --all --json "$A" "$B" >"$TMP/lists.json" || fail "diff --all $A $B"
	"$RS_BIN" analyze --json "$B" >"$TMP/b_lists.json" || fail "analyze $B"
	for l in inactive_anon active_anon inactive_file active_file; do
		expect_eq "row 'scanned $l': new side" \
			"$(jq -r --arg l "scanned $l" '.ranking[] | select(.label == $l) | .new' \
			   "$TMP/lists.json")" \
			"$(jq -r ".summary.scan.scanned.$l" "$TMP/b_lists.json")"
	done
fi
# Events that fired in one trace only, against trace-cmd: an event the other file has a format
# for (trace-cmd wrote the formats of what it traced) fired only in the one, and its count is
# compared as 0; one without a format there was recorded only in the one.
A="$TOP/tests/fixtures/kernel7/k72-multi.dat"
B="$TOP/tests/fixtures/kernel7/k72-memcg-high.dat"
if [ -f "$A" ] && [ -f "$B" ] && command -v trace-cmd >/dev/null 2>&1; then
	for t in A B; do
		eval f=\$$t
		trace-cmd report -R -i "$f" 2>/dev/null |
			awk '$4 ~ /:$/ { sub(/:$/, "", $4); print $4 }' | sort -u >"$TMP/fired.$t"
		trace-cmd dump --events "$f" 2>/dev/null | awk '$1 == "name:" { print $2 }' |
			sort -u >"$TMP/fmts.$t"
	done
	comm -23 "$TMP/fired.A" "$TMP/fired.B" | grep -vx print >"$TMP/only.A"
	comm -12 "$TMP/only.A" "$TMP/fmts.B" | paste -sd, >"$TMP/quiet.want"
	comm -23 "$TMP/only.A" "$TMP/fmts.B" | paste -sd, >"$TMP/untraced.want"
	[ -s "$TMP/quiet.want" ] && [ -s "$TMP/untraced.want" ] ||
		fail "oracle: $A vs $B should have events of both kinds"
	"$RS_BIN" diff --json "$A" "$B" >"$TMP/ev.json" || fail "diff --json $A $B"
	expect_eq "fired only in A, traced in B" \
		"$(jq -r '.base.events_only_here_traced_there | join(",")' "$TMP/ev.json")" \
		"$(cat "$TMP/quiet.want")"
	expect_eq "recorded only in A" \
		"$(jq -r '.base.events_only_here - .base.events_only_here_traced_there | join(",")' \
		   "$TMP/ev.json")" "$(cat "$TMP/untraced.want")"
	ev=$(head -c 200 "$TMP/quiet.want" | cut -d, -f1)
	expect_eq "$ev compared: A's count, 0 in B" \
		"$(jq -c --arg m "trace.events_by_name.$ev" '.metrics[$m] | [.base.avg, .new.avg]' \
		   "$TMP/ev.json")" \
		"[$(trace-cmd report -R -i "$A" 2>/dev/null | awk -v e="$ev:" '$4 == e' | wc -l),0]"
	"$RS_BIN" diff "$A" "$B" >"$TMP/ev.txt" || fail "diff $A $B"
	grep -q "^NOTE      events that fired only in k72-multi: " "$TMP/ev.txt" ||
		fail "text: no 'fired only' note"
fi
finish
