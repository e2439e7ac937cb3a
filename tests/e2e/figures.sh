#!/bin/sh
# Figures issue 15 found wrong, each against an oracle computed here from the trace itself:
# throttle reasons by trace-cmd's names (the kernel stores 1 << reason), losses by kind, fields
# a kernel era lacks (absent, never zero), over-time efficiency, empty selections.
. tests/lib-e2e.sh
command -v jq >/dev/null || { echo "jq not installed"; exit 77; }
FX=tests/fixtures/text

# 1. throttle reasons: trace-cmd's names are right; counts and delays per name by awk
t=$FX/throttle-6x.txt
"$RS_BIN" analyze --json "$t" >"$TMP/thr.json" || fail "analyze $t"
for r in WRITEBACK ISOLATED NOPROGRESS CONGESTED; do
	name=$(echo "$r" | tr A-Z a-z)
	want=$(awk -v r="reason=VMSCAN_THROTTLE_$r" '$0 ~ r { n++; match($0, /usect_delayed=[0-9]+/);
		d += substr($0, RSTART + 14, RLENGTH - 14) } END { print n + 0, d + 0 }' "$t")
	got=$(jq -r ".throttled.by_reason.$name | \"\(.count // 0) \(.delayed_us // 0)\"" \
		"$TMP/thr.json")
	expect_eq "throttled $name (count delayed_us)" "$got" "$want"
done
"$RS_BIN" analyze "$t" | grep -q '^throttled writeback .* 2 times' ||
	fail "text report: writeback throttled twice"

finish
