#!/bin/sh
# The text loader reads `trace-cmd report` output of a real trace into the same events as the
# trace.dat loader reads the trace itself: same counts by name, total, CPUs, kernel and losses,
# and the same time span (to the microsecond the default report prints; exactly with -t, which
# is skipped on the big shared trace to keep the run short).
. tests/lib-e2e.sh
need trace-cmd jq

# the fields that must be equal between the two loaders
summary() {
	jq -S '.trace | {events, cpus, kernel, events_by_name, missed_events}' "$1"
}

# within FILE OPT KEY TOL: |dat - text| <= TOL for .trace.KEY
within() {
	ok=$(jq -n --slurpfile a "$TMP/dat.json" --slurpfile b "$TMP/txt.json" \
		--argjson tol "$4" "(\$a[0].trace.$3 - \$b[0].trace.$3) | fabs <= \$tol")
	[ "$ok" = true ] || fail "$1: report $2 $3: text $(jq ".trace.$3" "$TMP/txt.json")," \
		"trace.dat $(jq ".trace.$3" "$TMP/dat.json")"
}

n=0
for f in $(real_traces); do
	n=$((n + 1))
	rs_json events "$f" >"$TMP/dat.json" || { fail "$f: events exit $?"; continue; }
	opts="default -t"
	[ "$f" = "$SHARED_TRACE" ] && opts=default
	for opt in $opts; do
		o=$opt
		[ "$o" = default ] && o=
		# shellcheck disable=SC2086  # $o is one word or none
		trace_report "$f" $o >"$TMP/report.txt" ||
			{ fail "$f: trace-cmd report $opt failed"; continue; }
		if ! "$RS_BIN" events --json "$TMP/report.txt" >"$TMP/txt.json" 2>"$TMP/err"; then
			fail "$f: events on report $opt: $(head -c 300 "$TMP/err")"
			continue
		fi
		expect_eq "$f report $opt format" "$(jq -r .trace.format "$TMP/txt.json")" text
		summary "$TMP/dat.json" >"$TMP/want"
		summary "$TMP/txt.json" >"$TMP/got"
		if ! cmp -s "$TMP/got" "$TMP/want"; then
			fail "$f: report $opt differs from trace.dat"
			diff "$TMP/got" "$TMP/want" | head -n 20
		fi
		# trace-cmd rounds to microseconds unless -t
		tol=0.0000005
		[ "$opt" = -t ] && tol=0.0000000005
		within "$f" "$opt" first_s $tol
		within "$f" "$opt" last_s $tol
		# nothing in a clean report is garbage
		jq -r '.trace.warnings[]' "$TMP/txt.json" | grep "not a trace event line" &&
			fail "$f: report $opt has lines the text loader does not understand"
	done
done
[ "$n" -gt 0 ] || { echo "no real traces found"; exit 77; }
echo "$n traces checked"
finish
