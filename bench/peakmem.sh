#!/bin/sh
# peakmem.sh OUT CMD...: run CMD, sample its anonymous and total resident memory every 20 ms,
# write "peak_anon_kb peak_rss_kb wall_s" to OUT. Anonymous memory (RssAnon) is what a
# program allocates; RSS also counts the file pages libtracecmd maps from a v6 trace.
out=$1; shift
start=$(date +%s.%N)
"$@" >/dev/null 2>&1 &
pid=$!
anon=0; rss=0
while kill -0 "$pid" 2>/dev/null; do
	if [ -r "/proc/$pid/status" ]; then
		set -- $(awk '/^RssAnon:/ {a=$2} /^VmRSS:/ {r=$2} END {print a+0, r+0}' \
			"/proc/$pid/status" 2>/dev/null)
		[ "${1:-0}" -gt "$anon" ] && anon=$1
		[ "${2:-0}" -gt "$rss" ] && rss=$2
	fi
	sleep 0.02
done
wait "$pid"
end=$(date +%s.%N)
echo "$anon $rss $(echo "$end - $start" | bc)" >"$out"
