#!/bin/sh
# Transparent huge pages (tests/fixtures/thp/k72-thp-tc.dat: the guest's `thp` scenario on 7.2,
# classic LRU, recorded by plain trace-cmd with compaction:*): isolates that take 512-page
# folios, swap-out of THPs, order-9 allocations waking kswapd, compaction. The commands count
# pages where the kernel's events count pages (lru_isolate nr_scanned and nr_taken,
# lru_shrink_inactive nr_reclaimed) and folios where they count folios (write_folio), and tell
# kswapd's wakes by order; every figure against sums over `trace-cmd report -R`.
. tests/lib-e2e.sh
need trace-cmd jq awk

t=tests/fixtures/thp/k72-thp-tc.dat
trace_report "$t" -R | awk "$RAW_AWK"'
	{
		ev = ""
		for (i = 2; i <= NF; i++)
			if ($i ~ /^[a-z_0-9]+:$/ && $(i - 1) ~ /^[0-9.]+:$/) {
				ev = substr($i, 1, length($i) - 1)
				break
			}
		if (ev == "")
			next
		cnt[ev]++
	}
	ev == "mm_vmscan_lru_isolate" {
		l = field("lru") + 0; iso[l]++; sc[l] += field("nr_scanned"); tk[l] += field("nr_taken")
		if (field("nr_taken") + 0 >= 512) big++
	}
	ev == "mm_vmscan_lru_shrink_inactive" {
		l = int(field("reclaim_flags") / 2) % 2 ? 2 : 0; rec[l] += field("nr_reclaimed")
	}
	ev == "mm_vmscan_write_folio" {
		if (int(field("reclaim_flags") / 2) % 2) wf++; else wa++
	}
	ev == "mm_vmscan_kswapd_wake" { kw[field("order") + 0]++ }
	ev == "mm_vmscan_wakeup_kswapd" { wk[field("order") + 0]++ }
	END {
		for (e in cnt) printf "events.%s %d\n", e, cnt[e]
		split("inactive_anon active_anon inactive_file active_file", L, " ")
		for (l = 0; l < 4; l++)
			printf "lru.%s %d %d %d\n", L[l + 1], iso[l], sc[l], tk[l]
		printf "reclaimed.inactive_anon %d\nreclaimed.inactive_file %d\n", rec[0], rec[2]
		printf "written %d %d\nbig %d\n", wa, wf, big
		for (o in kw) printf "kswapd_wake.%s %d\n", o, kw[o]
		for (o in wk) printf "wakeup_kswapd.%s %d\n", o, wk[o]
	}' | sort >"$TMP/want"

# the fixture is what it is for: isolates of whole THPs, swap-outs, order-9 wakes, compaction
big=$(awk '$1 == "big" {print $2}' "$TMP/want")
[ "${big:-0}" -gt 0 ] || fail "no lru_isolate took a 512-page folio in $t"
grep -q '^kswapd_wake\.9 [1-9]' "$TMP/want" || fail "no order-9 kswapd_wake in $t"
grep -q '^events\.mm_compaction_begin [1-9]' "$TMP/want" || fail "no compaction in $t"

# events: every event by name, the compaction ones included
rs_json events "$t" >"$TMP/ev.json" || fail "events --json"
jq -r '.trace.events_by_name | to_entries[] | "events.\(.key) \(.value)"' "$TMP/ev.json" | sort >"$TMP/got.ev"
grep '^events\.' "$TMP/want" | cmp -s - "$TMP/got.ev" ||
	fail "events by name: $(grep '^events\.' "$TMP/want" | diff - "$TMP/got.ev" | grep '^[<>]' |
		head -5 | tr '\n' ' ')"

# analyze: pages per list (isolates, scanned, taken), reclaimed pages, written folios, kswapd
# wakes (wakes and re-wakes) and wakeup_kswapd requests by order
rs_json analyze "$t" >"$TMP/a.json" || fail "analyze --json"
{
	jq -r '.lru | to_entries[] | select(.key | test("^(in)?active_(anon|file)$")) |
		"lru.\(.key) \(.value.isolates) \(.value.scanned) \(.value.taken)"' "$TMP/a.json"
	jq -r '"reclaimed.inactive_anon \(.lru.inactive_anon.reclaimed)",
		"reclaimed.inactive_file \(.lru.inactive_file.reclaimed)",
		"written \(.summary.io.swap_out_folios) \(.summary.io.file_written_folios)"' \
		"$TMP/a.json"
	jq -r '[.kswapd.instances[] | (.wakes_by_order, .rewakes_by_order) | to_entries[]] |
		group_by(.key)[] | "kswapd_wake.\(.[0].key) \(map(.value) | add)"' "$TMP/a.json"
	jq -r '.wakeup_kswapd.by_order | to_entries[] | "wakeup_kswapd.\(.key) \(.value)"' \
		"$TMP/a.json"
} | sort >"$TMP/got.a"
grep -v -e '^events\.' -e '^big ' "$TMP/want" | cmp -s - "$TMP/got.a" ||
	fail "analyze: $(grep -v -e '^events\.' -e '^big ' "$TMP/want" | diff - "$TMP/got.a" |
		grep '^[<>]' | head -6 | tr '\n' ' ')"

# the text names the units: written columns are folios (a THP's write_folio is one event)
"$RS_BIN" analyze "$t" 2>/dev/null >"$TMP/a.txt"
set -- $(awk '$1 == "written" {print $2, $3}' "$TMP/want")
grep -q "^IO  *swap-out $1, file $2 folios" "$TMP/a.txt" || fail "summary IO line: $(grep '^IO' "$TMP/a.txt")"
awk '/^TASKS/ {getline; getline; print; exit}' "$TMP/a.txt" | grep -q ' folios  *ms$' ||
	fail "TASKS: the written column does not say folios"
echo "$t: $big isolates of 512-page folios, $1 anon folios written, $(grep -c '^kswapd_wake' "$TMP/want") kswapd wake orders checked"
finish
