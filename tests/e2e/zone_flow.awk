# The buddy flow from `trace-cmd report` alone (tests/e2e/replay.sh): prints the kmem events
# that moved pages of a known zone, then per zone index the net pages onto the buddy lists from
# the first sample with the flow to the last. A block taken off the lists is -(1 << order)
# (mm_page_alloc_zone_locked), a drained page +(1 << order) (mm_page_pcpu_drain), a free +(1 <<
# order) only above order 3 and not at the PMD order (reclaimscope_begin pmd_order=, 9 when
# absent). Zones are told by zone_stat's start_pfn/spanned; events count once a range is known.
# A sample's moment is its zone_read marker; the first with the flow is the first zone_read
# after a zone_stat, the last is the last zone_read that a zone_stat follows.
function hex(s,   i, v) {
	v = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
function val(k,   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, k "=") == 1)
			return substr($i, length(k) + 2)
	return ""
}
BEGIN { pmd = 9 }
/tracing_mark_write: reclaimscope_begin / { if (val("pmd_order") != "") pmd = val("pmd_order") + 0 }
/tracing_mark_write: zone_read$/ {
	if (seen_stat) {
		started = 1
		for (z in cur)
			snap[z] = cur[z]
		pending = 1
	}
	next
}
/tracing_mark_write: zone_stat / {
	idx = val("idx") + 0
	if (val("spanned") != "") {
		lo[idx] = val("start_pfn") + 0
		hi[idx] = lo[idx] + val("spanned")
	}
	seen_stat = 1
	if (pending) {
		for (z in snap)
			net[z] = snap[z]
		pending = 0
	}
	next
}
/ mm_page_(alloc_zone_locked|pcpu_drain|free): / {
	pfn = hex(val("pfn"))
	o = val("order") + 0
	n = 2 ^ o
	if ($0 ~ /mm_page_alloc_zone_locked:/)
		d = -n
	else if ($0 ~ /mm_page_pcpu_drain:/)
		d = n
	else if (o > 3 && o != pmd)
		d = n
	else
		next
	for (z in lo)
		if (pfn >= lo[z] && pfn < hi[z]) {
			ev++
			if (started)
				cur[z] += d
			break
		}
}
END {
	printf "%d", ev
	for (z = 0; z < 8; z++)
		if (z in lo)
			printf " %d", net[z] + 0
	printf "\n"
}
