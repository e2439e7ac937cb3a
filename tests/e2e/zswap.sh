#!/bin/sh
# Where reclaim's swap-out went: analyze's io.zswpout_pages and io.pswpout_pages are the sums of
# count_memcg_events' val over the items the recorder's vm_event_items marker names zswpout and
# pswpout (trace-cmd report), on every fixture that names them; null where the trace does not.
# On the zswap fixture the summary says it: every anon folio reclaim wrote went to zswap.
. tests/lib-e2e.sh
need jq trace-cmd

# sums NAME...: "NAME SUM" for each named vm_event item, over count_memcg_events' val
sums() {
	trace_report "$1" | awk -v names="zswpout pswpout" '
		/ vm_event_items source=/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^@[0-9]+$/) { at = substr($i, 2) + 0; k = i; break }
			for (i = k + 1; i <= NF; i++)
				item[at + i - k - 1] = $i
		}
		/ count_memcg_events: / {
			it = ""; v = 0
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^item=/) it = substr($i, 6) + 0
				if ($i ~ /^val=/) v = substr($i, 5) + 0
			}
			sum[item[it]] += v
		}
		END { n = split(names, nm, " "); for (i = 1; i <= n; i++) print nm[i], sum[nm[i]] + 0 }'
}
named=0
Z="$TOP/tests/fixtures/zswap/k72-zswap.dat"
more=$Z
[ "${RS_E2E_LIGHT:-0}" = 1 ] || more=$(ls "$TOP"/tests/fixtures/*/*.dat)
for f in $(real_traces) $more; do
	[ -f "$f" ] || continue
	rs_json analyze "$f" >"$TMP/a.json" || { fail "$f: analyze exit $?"; continue; }
	if trace_report "$f" | grep -q " vm_event_items source=" &&
	   trace_report "$f" | grep -q " count_memcg_events: "; then
		named=$((named + 1))
		oracle_of sums "$f" >"$TMP/want"
		expect_eq "$f: zswpout" "$(jq .summary.io.zswpout_pages "$TMP/a.json")" \
			"$(awk '$1 == "zswpout" { print $2 }' "$TMP/want")"
		expect_eq "$f: pswpout" "$(jq .summary.io.pswpout_pages "$TMP/a.json")" \
			"$(awk '$1 == "pswpout" { print $2 }' "$TMP/want")"
	elif ! trace_report "$f" | grep -q " count_memcg_events: "; then
		expect_eq "$f: no counters, zswpout" "$(jq .summary.io.zswpout_pages "$TMP/a.json")" null
	fi
done
[ "$named" -ge 2 ] || fail "only $named traces name their vm_event items: check hardly run"
echo "$named traces name their vm_event items"

if [ -f "$Z" ]; then
	rs_json analyze "$Z" >"$TMP/z.json" || fail "$Z: analyze"
	expect_eq "zswap: pages stored" "$(jq .summary.io.zswpout_pages "$TMP/z.json")" 3603
	expect_eq "zswap: none to the device" "$(jq .summary.io.pswpout_pages "$TMP/z.json")" 0
	# zswap took every anon page reclaim freed
	expect_eq "zswap: = anon reclaimed" "$(jq .summary.scan.reclaimed_anon "$TMP/z.json")" 3603
	"$RS_BIN" analyze --summary "$Z" >"$TMP/z.txt" || fail "$Z: analyze --summary"
	grep -q "^swap-out to  zswap 3603 pages (zswpout), swap device 0 (pswpout) " "$TMP/z.txt" ||
		fail "zswap: no 'swap-out to' line: $(grep '^IO' "$TMP/z.txt")"
else
	fail "no $Z"
fi
"$RS_BIN" analyze --summary "$TOP/tests/fixtures/anon-stream-swap.dat" >"$TMP/s.txt"
grep -q "^swap-out to" "$TMP/s.txt" && fail "a 'swap-out to' line without zswap"
finish
