#!/bin/sh
# `events` counts every event exactly as `trace-cmd report` prints them, on every real trace.
. tests/lib-e2e.sh
need trace-cmd jq
# the name after "] TIMESTAMP: " on each event line, counted (awk: 15 times faster than sed and
# sort | uniq -c on the million lines of the biggest fixture), then "cpus N" from the header
counts() {
	trace_report "$1" | awk 'match($0, /\] +[0-9]+\.[0-9]+: +[A-Za-z0-9_]+:/) {
		s = substr($0, RSTART, RLENGTH); sub(/:$/, "", s); sub(/.*: +/, "", s); n[s]++ }
		/^cpus=/ && cpus == "" { cpus = substr($0, 6) }
		END { for (k in n) print k, n[k]; print "cpus=" cpus }'
}
n=0
for f in $(real_traces); do
	n=$((n + 1))
	oracle_of counts "$f" >"$TMP/counts"
	grep -v '^cpus=' "$TMP/counts" >"$TMP/want"
	rs_json events "$f" >"$TMP/json" || { fail "$f: events exit $?"; continue; }
	[ "$f" = "$SHARED_TRACE" ] && cp "$TMP/json" "$TMP/v7.json"
	jq -r '.trace.events_by_name | to_entries[] | "\(.key) \(.value)"' "$TMP/json" |
		sort >"$TMP/got"
	sort "$TMP/want" >"$TMP/want.s"
	cmp -s "$TMP/got" "$TMP/want.s" || { fail "$f: counts differ from trace-cmd report";
		diff "$TMP/got" "$TMP/want.s" | head; }
	total=$(awk '{s += $2} END {print s + 0}' "$TMP/want")
	expect_eq "$f total" "$(jq .trace.events "$TMP/json")" "$total"
	# the text form says the same kernel and CPU count
	cpus=$(sed -n 's/^cpus=//p' "$TMP/counts")
	expect_eq "$f cpus" "$(jq .trace.cpus "$TMP/json")" "$cpus"
	"$RS_BIN" events "$f" >"$TMP/text" || fail "$f: events text exit $?"
	grep -q "^format    trace.dat v[67]" "$TMP/text" || fail "$f: no format line"
	# traced, none fired: trace-cmd's formats (ftrace's own aside) without a record
	trace-cmd dump --events "$f" 2>/dev/null | awk '$1 == "name:" { print $2 }' |
		sort -u >"$TMP/fmts"
	trace-cmd dump --ftrace "$f" 2>/dev/null | awk '$1 == "name:" { print $2 }' |
		sort -u >"$TMP/ftrace"
	awk '{ print $1 }' "$TMP/want.s" | sort -u >"$TMP/fired"
	comm -23 "$TMP/fmts" "$TMP/ftrace" | comm -23 - "$TMP/fired" >"$TMP/quiet.want"
	comm -23 "$TMP/fmts" "$TMP/ftrace" >"$TMP/fmts.want"
	expect_eq "$f: event_formats" "$(jq -r '.trace.event_formats[]' "$TMP/json" | paste -sd,)" \
		"$(paste -sd, "$TMP/fmts.want")"
	expect_eq "$f: traced, none fired" \
		"$(sed -n '/^traced, none fired: /,/^[^ ]/p' "$TMP/text" | grep -v '^[A-Z]' |
		   sed 's/^traced, none fired: //' | tr -d '\n' | sed 's/, */,/g; s/^ *//')" \
		"$(paste -sd, "$TMP/quiet.want")"
	[ -s "$TMP/quiet.want" ] && quiet=$((quiet + 1))
done
[ "${quiet:-0}" -gt 0 ] || fail "no trace had a traced event that never fired: check not run"
[ "$n" -gt 0 ] || { echo "no real traces found"; exit 77; }
echo "$n traces checked"

# A v6 copy of the shared global trace (trace-cmd convert): every event format of a 6.18
# system, among them __print_flags((unsigned long)REC->flags and __print_symbolic(((REC->x) >>
# shifts; the format check once refused it. Same events as the v7 original (its events --json
# above).
if [ -f "$TMP/v7.json" ] && trace-cmd convert --file-version 6 -i "$SHARED_TRACE" \
	-o "$TMP/global-v6.dat" >/dev/null 2>&1; then
	"$RS_BIN" events --json "$TMP/global-v6.dat" >"$TMP/v6.json" || fail "global v6 copy: exit $?"
	expect_eq "global v6 copy: events" "$(jq .trace.events "$TMP/v6.json")" \
		"$(jq .trace.events "$TMP/v7.json")"
	rm -f "$TMP/global-v6.dat"
fi
finish
