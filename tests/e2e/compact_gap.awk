# trace-cmd report | awk -f compact_gap.awk (include/compact_gap.h; tests/e2e/replay.sh):
# balance_pgdat runs that tell compact_gap(): begun at order o > 0, reclaimed 32 <= r < 2 << o;
# prints how many ended at order 0 (capped) and at order o (2 << order)
/mm_vmscan_balance_pgdat_(begin|end):/ {
	nid = o = r = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^nid=/) nid = substr($i, 5) + 0
		if ($i ~ /^order=/) o = substr($i, 7) + 0
		if ($i ~ /^nr_reclaimed=/) r = substr($i, 14) + 0
	}
	if ($0 ~ /_begin:/) { b[nid] = o + 1; next }
	if (b[nid] > 1 && r >= 32 && r < 2 * 2 ^ (b[nid] - 1)) {
		if (o == 0) c++
		else if (o == b[nid] - 1) u++
	}
	b[nid] = 0
}
END { print c + 0, u + 0 }
