#!/bin/sh
# `reclaimscope plot`: on every real trace the SVG parses as XML and holds the expected series,
# counted by the style cairo gives each kind of mark (docs/plot.md): 4 scan lines per trace
# when the report has pages scanned (2 on MGLRU: anon and file), 2 reclaim lines when it has pages reclaimed; a dashed line
# per OOM kill (mark_victim); one CDF line per (trace, kind) with complete episodes, the kinds
# found by pairing *_reclaim_begin/_end per pid with awk over `trace-cmd report`; min(5,
# episodes) numbered rings per trace; kswapd bars only when the report has kswapd_wake. The PNG
# decodes (cairo's libpng loader, build/tools/pngcheck) and is not blank. Overlays of two traces
# double the lines. Bad input: unknown --what, unwritable outputs, empty traces fail with a
# message and leave no file (nor a temporary one), and an existing output is left as it was;
# fuzz inputs exit 0 or 1.
. tests/lib-e2e.sh
need xmllint trace-cmd
PNGCHECK=${RS_TOOLS:-build/tools}/pngcheck
[ -x "$PNGCHECK" ] || { echo "FAIL: no $PNGCHECK (make)"; exit 1; }

# kinds with complete episodes, paired by pid: "direct memcg ..." one a line
complete_kinds() {
	trace_report "$1" | awk '
	match($0, /-[0-9]+ +\[[0-9]+\] +[0-9.]+: +mm_vmscan_[a-z_]+_reclaim_(begin|end):/) {
		hdr = substr($0, RSTART, RLENGTH); split(hdr, h, /[][ :]+/)
		pid = substr(h[1], 2); ev = h[4]
		kind = ev; sub(/^mm_vmscan_/, "", kind); sub(/_reclaim_(begin|end)$/, "", kind)
		sub(/^memcg_softlimit$/, "softlimit", kind)
		if (ev ~ /_begin$/) open[kind, pid] = 1
		else if (open[kind, pid]) { open[kind, pid] = 0; n[kind]++ }
	}
	END { for (k in n) print k, n[k] }'
}
# "SCANNED RECLAIMED OOMS": lru_isolate nr_scanned, lru_shrink_inactive nr_reclaimed, mark_victim
report_sums() {
	trace_report "$1" | awk '
	function num(name,   r) {
		if (!match($0, " " name "=[0-9]+")) return 0
		r = substr($0, RSTART, RLENGTH); sub(/.*=/, "", r); return r + 0
	}
	/ mm_vmscan_lru_isolate:/ { sc += num("nr_scanned") }
	/ mm_vmscan_lru_shrink_inactive:/ { re += num("nr_reclaimed") }
	/ mark_victim:/ { oom++ }
	END { print sc + 0, re + 0, oom + 0 }'
}
# "FILEMAP_DELETES PSWPIN_PAGES": the refaults panel draws its 4 lines when either is non-zero
refault_sums() {
	trace_report "$1" | awk '
	/tracing_mark_write: vm_event_items/ {
		n = split($0, tok, " ")
		seen = 0; at = 0	# names follow the tag; "@N" restarts at N (docs/markers.md)
		for (i = 1; i <= n; i++) {
			if (tok[i] == "vm_event_items") { seen = 1; continue }
			if (tok[i] ~ /^@/) { at = substr(tok[i], 2) + 0; continue }
			if (!seen || tok[i] ~ /=/) continue
			if (tok[i] == "pswpin") sw = at
			at++
		}
	}
	/ mm_filemap_delete_from_page_cache:/ { del++ }
	/ count_memcg_events:/ && sw != "" && $0 ~ (" item=" sw " ") {
		v = $0; sub(/.* val=/, "", v); if (v + 0 > 0) swin += v
	}
	END { print del + 0, swin + 0 }'
}
# the lists the report's lru_isolate names, one a line ("inactive_anon inactive_file" on MGLRU)
isolate_lists() {
	trace_report "$1" | awk '/ mm_vmscan_lru_isolate:/ && match($0, / lru=[a-z_]+/) {
		l[substr($0, RSTART + 5, RLENGTH - 5)] = 1 }
	END { for (k in l) print k }' | sort
}
has_kswapd() {
	trace_report "$1" | grep -q 'mm_vmscan_kswapd_wake:' && echo yes || echo no
}
# marks in an SVG by their style (cairo 1.16's SVG surface writes them this way)
count_style() {
	grep -o "style=\"[^\"]*\"" "$1" | grep -c -- "$2"
}
# the series lines of the scan panel, the CDF lines, the rings around the worst stalls
LINE='fill:none;stroke-width:1.8;'
CDF='fill:none;stroke-width:2;'
RING='fill:none;stroke-width:1.4;'
KSWAPD_BAR='fill:rgb(90.196078%,62.352941%,0%);fill-opacity:1;'
OOM='fill:none;stroke-width:1.6;'
REFAULT_LINE='fill:none;stroke-width:1.7;'

for f in $(real_traces); do
	name=$(basename "$f" .dat)
	svg="$TMP/$name.svg"
	rs_ok "$name: plot" plot -o "$svg" "$f" || continue
	if ! xmllint --noout "$svg" 2>"$TMP/xml"; then
		fail "$name: SVG is not XML: $(head -n 2 "$TMP/xml")"
		continue
	fi
	expect_eq "$name: root element" "$(xmllint --xpath 'name(/*)' "$svg")" svg
	oracle_of complete_kinds "$f" >"$TMP/kinds"
	kinds=$(wc -l <"$TMP/kinds")
	episodes=$(awk '{ s += $2 } END { print s + 0 }' "$TMP/kinds")
	set -- $(oracle_of report_sums "$f")
	lines=$(( ($1 > 0 ? 4 : 0) + ($2 > 0 ? 2 : 0) ))
	expect_eq "$name: scan/reclaim lines" "$(count_style "$svg" "$LINE")" "$lines"
	expect_eq "$name: OOM kill lines" "$(count_style "$svg" "$OOM")" "$3"
	set -- $(oracle_of refault_sums "$f")
	expect_eq "$name: refault lines" "$(count_style "$svg" "$REFAULT_LINE")" \
		$(( $1 + $2 > 0 ? 4 : 0 ))
	expect_eq "$name: CDF lines (kinds with complete episodes)" \
		"$(count_style "$svg" "$CDF")" "$kinds"
	rings=$((episodes < 5 ? episodes : 5))
	expect_eq "$name: rings around the worst stalls" "$(count_style "$svg" "$RING")" "$rings"
	if [ "$(oracle_of has_kswapd "$f")" = yes ]; then
		[ "$(count_style "$svg" "$KSWAPD_BAR")" -ge 1 ] ||
			fail "$name: kswapd woke, no awake bar"
	else
		expect_eq "$name: kswapd bars" "$(count_style "$svg" "$KSWAPD_BAR")" 0
	fi
	# PNG: decodes, the page's size, many colours, a fair share of ink
	png="$TMP/$name.png"
	"$RS_BIN" plot -o "$png" "$f" 2>/dev/null || { fail "$name: plot png exit $?"; continue; }
	set -- $("$PNGCHECK" "$png") || { fail "$name: PNG does not decode"; continue; }
	expect_eq "$name: PNG width" "$1" 1100
	[ "$2" -gt 1000 ] || fail "$name: PNG height $2"
	[ "$3" -ge 50 ] || fail "$name: PNG has $3 colours"
	[ "$4" -ge 20 ] && [ "$4" -le 600 ] || fail "$name: PNG ink $4 per mille"
done

# two traces overlaid: every line twice, --what keeps only the chosen figures
a=tests/fixtures/v6.dat b=tests/fixtures/contention.dat
"$RS_BIN" plot -o "$TMP/cmp.svg" "$a" "$b" 2>/dev/null || fail "overlay: exit $?"
xmllint --noout "$TMP/cmp.svg" || fail "overlay: not XML"
expect_eq "overlay: scan/reclaim lines" "$(count_style "$TMP/cmp.svg" "$LINE")" 12
expect_eq "overlay: CDF lines" "$(count_style "$TMP/cmp.svg" "$CDF")" 2
expect_eq "overlay: rings" "$(count_style "$TMP/cmp.svg" "$RING")" 10
"$RS_BIN" plot --what latency -o "$TMP/lat.svg" "$a" "$b" 2>/dev/null ||
	fail "--what latency: exit $?"
expect_eq "--what latency: no scan lines" "$(count_style "$TMP/lat.svg" "$LINE")" 0
expect_eq "--what latency: CDF lines" "$(count_style "$TMP/lat.svg" "$CDF")" 2

# MGLRU (trace.mglru; analyze and the TUI name its lists anon and file): no active lists, so the
# scan panel draws the two types, not four lists, and the reclaim panel its two
m=tests/fixtures/kernel7/k72-multi-mglru.dat
expect_eq "$m: lists in the report" "$(oracle_of isolate_lists "$m" | tr '\n' ' ')" \
	"inactive_anon inactive_file "
set -- $(oracle_of report_sums "$m")
[ "$1" -gt 0 ] && [ "$2" -gt 0 ] || fail "$m: nothing scanned or reclaimed to draw"
"$RS_BIN" plot --what scan -o "$TMP/mglru.svg" "$m" 2>/dev/null || fail "mglru: exit $?"
expect_eq "mglru: scan/reclaim lines" "$(count_style "$TMP/mglru.svg" "$LINE")" 4
"$RS_BIN" plot --what scan -o "$TMP/mix.svg" "$m" "$a" 2>/dev/null || fail "mglru+classic: exit $?"
expect_eq "mglru+classic overlay: four lists each" "$(count_style "$TMP/mix.svg" "$LINE")" 12

# no complete episode (6.1, global, kswapd only): the stall and latency panels draw a frame, the
# time axis and the percent axis, and no axis of stall durations (it would be made-up decades)
e=tests/fixtures/kernel7/k61-global-classic.dat
expect_eq "$e: complete episodes in the report" "$(oracle_of complete_kinds "$e" | wc -l)" 0
for w in stalls latency kswapd; do
	"$RS_BIN" plot --what $w -o "$TMP/empty-$w.svg" "$e" 2>/dev/null || fail "--what $w: exit $?"
done
TICK='fill:none;stroke-width:1;stroke-linecap:butt;'
# the frame and one tick per 10 s of the time axis, as in the kswapd panel
expect_eq "no episodes: stall panel ticks" "$(count_style "$TMP/empty-stalls.svg" "$TICK")" \
	"$(count_style "$TMP/empty-kswapd.svg" "$TICK")"
# the frame and 0, 20 .. 100 %
expect_eq "no episodes: latency panel ticks" "$(count_style "$TMP/empty-latency.svg" "$TICK")" 7

# deterministic: with one reading thread, the SVG of the loop above (the default threads)
d1=$TMP/$(basename "$SHARED_TRACE" .dat).svg
if [ -f "$SHARED_TRACE" ] && [ -f "$d1" ]; then
	"$RS_BIN" plot --threads 1 -o "$TMP/d2.svg" "$SHARED_TRACE" 2>/dev/null
	cmp -s "$d1" "$TMP/d2.svg" || fail "plot: --threads 1 and the default threads differ"
fi

# bad input: a message, a non-zero exit, no file and no temporary file left
: >"$TMP/empty.txt"
mkdir "$TMP/out" "$TMP/out/dir.svg"
"$RS_BIN" plot --what scan,nosuch -o "$TMP/out/a.svg" "$a" 2>"$TMP/err"
expect_eq "unknown --what: exit" "$?" 2
grep -q "nosuch" "$TMP/err" || fail "unknown --what: message does not name it"
"$RS_BIN" plot -o "$TMP/out/a.pdf" "$a" 2>/dev/null
expect_eq "-o .pdf: exit" "$?" 2
"$RS_BIN" plot -o "$TMP/nosuchdir/a.svg" "$a" 2>"$TMP/err"
expect_eq "unwritable output: exit" "$?" 1
grep -q "nosuchdir" "$TMP/err" || fail "unwritable output: no message"
"$RS_BIN" plot -o "$TMP/out/dir.svg" "$a" 2>"$TMP/err"
expect_eq "output is a directory: exit" "$?" 1
"$RS_BIN" plot -o "$TMP/out/a.svg" "$TMP/empty.txt" 2>"$TMP/err"
expect_eq "empty trace: exit" "$?" 1
[ -s "$TMP/err" ] || fail "empty trace: no message"
"$RS_BIN" plot --from 999999 -o "$TMP/out/a.svg" "$a" 2>"$TMP/err"
expect_eq "nothing in range: exit" "$?" 1
grep -qF "v6.dat" "$TMP/err" || fail "nothing in range: message does not name the trace"
echo keep >"$TMP/out/kept.svg"
"$RS_BIN" plot -o "$TMP/out/kept.svg" "$a" "$TMP/empty.txt" 2>/dev/null
expect_eq "second trace empty: exit" "$?" 1
expect_eq "existing output kept" "$(cat "$TMP/out/kept.svg")" keep
left=$(ls -A "$TMP/out" | grep -v -x -e dir.svg -e kept.svg)
expect_eq "files left after failures" "$left" ""
# hostile input: every input the fuzzers once broke the loaders with, and their seeds (the seeds
# only in the light round: fuzz_inputs)
for f in $(fuzz_inputs); do
	[ -f "$f" ] || continue
	timeout 300 "$RS_BIN" plot -o "$TMP/fz.svg" "$f" >/dev/null 2>"$TMP/err"
	r=$?
	[ $r -le 1 ] || fail "plot $f: exit $r: $(head -c 300 "$TMP/err")"
done
finish
