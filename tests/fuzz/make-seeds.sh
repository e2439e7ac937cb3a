#!/bin/sh
# Cut a real trace.dat down to a few small fuzz seeds (tests/fuzz/seeds/*.dat), with trace-cmd
# only: no live tracefs, no recording. A fuzzer wants inputs of kilobytes; a real trace carries
# megabytes of kallsyms and hundreds of event formats, which would make every run decompress
# and parse them. So we rebuild the headers from the trace's own formats, keeping the systems
# we decode, with a two-line kallsyms, and attach a few of its ring-buffer pages unchanged.
#
# Usage: tests/fuzz/make-seeds.sh TRACE.dat OUTDIR [CPU:PAGE ...]
# PAGE is the index of a ring-buffer page inside that CPU's data (default: pages 0 and 1 of
# every CPU); a CPU with no page selected is empty (a CPU number the trace lacks, e.g. 99:0,
# gives a trace with formats and no events). The committed seeds came from the shared
# global-dev.dat trace: small-* with  0:3 0:4 0:6952 0:7297 0:7340 1:4544 1:6030,
# onecpu-* with  0:3 0:4,  empty-* with  99:0.
# (markers, kswapd/direct reclaim, cgroup_attach, and the pages with the most distinct events).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 TRACE.dat OUTDIR [CPU:PAGE ...]" >&2; exit 2; }
in=$1; out=$2; shift 2
command -v trace-cmd >/dev/null || { echo "$0: trace-cmd is not installed" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rs-seeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# v6 without compression: the per-CPU ring-buffer data lie in the file as plain pages.
trace-cmd convert --file-version 6 --compression none -i "$in" -o "$tmp/v6.dat" >/dev/null 2>&1
d=$tmp/tracing
mkdir -p "$d/events"
# header_page / header_event: dump prints "[Header page, N bytes]" then the text
for h in page event; do
	trace-cmd dump --head-$h -i "$tmp/v6.dat" 2>/dev/null >"$tmp/h"
	n=$(sed -n '1s/.*, \([0-9]*\) bytes.*/\1/p' "$tmp/h")
	tail -n +2 "$tmp/h" | head -c "$n" >"$d/events/header_$h"
done
# event formats: --systems gives "name count" in the order --events prints the formats
trace-cmd dump --systems -i "$tmp/v6.dat" 2>/dev/null |
	awk 'NF == 4 && $3 == "[system," {print $1, $2}' >"$tmp/systems"
trace-cmd dump --events -i "$tmp/v6.dat" 2>/dev/null | tail -n +2 >"$tmp/events"
awk -v d="$d/events" -v sysf="$tmp/systems" '
	BEGIN {
		while ((getline l < sysf) > 0) { split(l, a, " "); sys[++ns] = a[1]; cnt[ns] = a[2] }
		keep["vmscan"] = keep["memcg"] = keep["cgroup"] = keep["oom"] = 1
		s = 1; left = cnt[1]
	}
	/^name: / {
		if (f) close(f)
		while (left == 0 && s < ns) { s++; left = cnt[s] }
		left--; f = ""
		name = $2
		if (keep[sys[s]] || (sys[s] == "sched" && name ~ /^sched_process_(fork|exec|exit)$/)) {
			system("mkdir -p " d "/" sys[s] "/" name)
			f = d "/" sys[s] "/" name "/format"
		}
	}
	f { print > f }' "$tmp/events"
# ftrace's own events: keep print (trace_marker) only
trace-cmd dump --ftrace-events -i "$tmp/v6.dat" 2>/dev/null | tail -n +2 |
	awk -v d="$d/events/ftrace" '
		/^name: / { f = ""; if ($2 == "print") { system("mkdir -p " d "/print"); f = d "/print/format" } }
		f { print > f }'
: >"$d/printk_formats"
: >"$d/saved_cmdlines"
printf 'ffffffff81000000 T _stext\nffffffff81400000 T super_cache_scan\n' >"$tmp/kallsyms"
trace-cmd restore -c -o "$tmp/head.dat" -t "$d" -k "$tmp/kallsyms" >/dev/null 2>&1

# the chosen pages, per CPU, from the flyrecord section's offsets
cpus=$(trace-cmd dump --flyrecord -i "$tmp/v6.dat" 2>/dev/null | grep -c 'of cpu')
if [ $# -eq 0 ]; then
	c=0
	while [ "$c" -lt "$cpus" ]; do set -- "$@" "$c:0" "$c:1"; c=$((c + 1)); done
fi
raws=""
c=0
while [ "$c" -lt "$cpus" ]; do
	off=$(trace-cmd dump --flyrecord -i "$tmp/v6.dat" 2>/dev/null |
		awk -v c="$c" '$0 ~ "of cpu " c "\\]" {print $1}')
	: >"$tmp/cpu$c.raw"
	for sel in "$@"; do
		[ "${sel%%:*}" = "$c" ] || continue
		dd if="$tmp/v6.dat" bs=4096 skip=$((off / 4096 + ${sel#*:})) count=1 \
			>>"$tmp/cpu$c.raw" 2>/dev/null
	done
	raws="$raws $tmp/cpu$c.raw"
	c=$((c + 1))
done
# shellcheck disable=SC2086
trace-cmd restore -i "$tmp/head.dat" -o "$tmp/small.dat" $raws >/dev/null 2>&1
# again with only the formats of events the pages hold: parsing formats is most of an open
trace-cmd report -i "$tmp/small.dat" 2>/dev/null |
	sed -n 's/^.*\] *[0-9][0-9]*\.[0-9]*: *\([A-Za-z0-9_]*\):.*$/\1/p' | sort -u >"$tmp/used"
# (no events at all: keep the formats, a trace with formats and no events is a case to test)
[ -s "$tmp/used" ] || ls "$d"/events/*/ | grep -v : | sort -u >"$tmp/used"
for f in "$d"/events/*/*/format; do
	e=$(basename "$(dirname "$f")")
	grep -qx "$e" "$tmp/used" || rm -rf "$(dirname "$f")"
done
rm -f "$tmp/head.dat" "$tmp/small.dat"
trace-cmd restore -c -o "$tmp/head.dat" -t "$d" -k "$tmp/kallsyms" >/dev/null 2>&1
# shellcheck disable=SC2086
trace-cmd restore -i "$tmp/head.dat" -o "$tmp/small.dat" $raws >/dev/null 2>&1
trace-cmd convert --file-version 7 --compression none -i "$tmp/small.dat" -o "$out/small-v7.dat" \
	>/dev/null 2>&1
trace-cmd convert --file-version 6 --compression none -i "$tmp/small.dat" -o "$out/small-v6.dat" \
	>/dev/null 2>&1
for z in zstd zlib; do
	trace-cmd convert --file-version 7 --compression $z -i "$tmp/small.dat" \
		-o "$out/small-v7-$z.dat" >/dev/null 2>&1 || true
done
ls -l "$out"
