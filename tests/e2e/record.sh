#!/bin/sh
# `record`: usage and precondition errors, then (as root, with tracefs, trace-cmd and a memory
# cgroup controller) a 1-second trace of `workload stream` in an rs_test cgroup: the markers are
# in it, tracefs is as before, and the cgroup is gone. Contract: see tests/run-e2e.sh.
. tests/lib-e2e.sh
need trace-cmd flock
: "${RS_TOOLS:=build/tools}"
WL="$RS_TOOLS/workload"

# Usage errors need nothing: exit 2 and a sentence naming the problem.
"$RS_BIN" record --no-such-option >"$TMP/out" 2>&1
expect_eq "bad option exit" "$?" 2
grep -q "unknown option '--no-such-option'" "$TMP/out" || fail "bad option: no message"
"$RS_BIN" record --limit 64M >"$TMP/out" 2>&1
expect_eq "--limit without --cgroup exit" "$?" 2
"$RS_BIN" record --interval 0 >"$TMP/out" 2>&1
expect_eq "--interval 0 exit" "$?" 2

if [ "$(id -u)" != 0 ]; then
	"$RS_BIN" record -- true >"$TMP/out" 2>&1
	expect_eq "not root exit" "$?" 1
	grep -q "must be run as root" "$TMP/out" || fail "not root: no message"
	[ "$fails" -eq 0 ] || finish
	echo "recording needs root"
	exit 77
fi

"$RS_BIN" record -o "$TMP/x.dat" -- rs-no-such-workload >"$TMP/out" 2>&1
expect_eq "missing workload exit" "$?" 1
grep -q "workload 'rs-no-such-workload' not found" "$TMP/out" || fail "missing workload: message"
[ -e "$TMP/x.dat" ] && fail "missing workload: a trace was written"

# Each precondition a recording needs, checked in turn; a skip names the one that is missing.
# tracefs: where libtracefs (inside trace-cmd and record) finds it, the first tracefs mount; when
# there is none (a chroot whose /sys was bind-mounted without its submounts, a system that never
# mounted it), mounted at /sys/kernel/tracing as record itself would do.
skip_record() {
	[ "$fails" -eq 0 ] || finish
	echo "$*"
	exit 77
}
tracefs_dir() { awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts; }
T=$(tracefs_dir)
why="no tracefs in /proc/self/mounts"
if [ -z "$T" ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>"$TMP/mount" ||
		why="$why; mount -t tracefs nodev /sys/kernel/tracing: $(cat "$TMP/mount")"
	T=$(tracefs_dir)
fi
[ -n "$T" ] || skip_record "tracefs is not mounted and could not be mounted ($why)"
[ -e "$T/trace_marker" ] || skip_record "tracefs at $T has no trace_marker"
[ -w "$T/trace_marker" ] || skip_record "$T/trace_marker is not writable"
MEM=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ {print $2; exit}' /proc/self/mounts)
if [ -z "$MEM" ]; then
	MEM=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/self/mounts)
	grep -qw memory "$MEM/cgroup.controllers" 2>/dev/null || MEM=
fi
[ -n "$MEM" ] || skip_record "no memory cgroup controller (no cgroup v1 mount with 'memory'," \
	"no cgroup2 mount whose cgroup.controllers lists it)"
[ -x "$WL" ] || { fail "no workload tool at $WL"; finish; }

# RS_E2E_RECORD_LOCK=FILE: a lock of the machine's own (shared machines: every recorder there
# holds it) taken for the rest of the test too, before record's own lock below.
if [ -n "${RS_E2E_RECORD_LOCK:-}" ]; then
	exec 8>>"$RS_E2E_RECORD_LOCK"
	flock -w 1800 8 || skip_record "$RS_E2E_RECORD_LOCK held by another recorder for 30 minutes"
fi

# Hold the recorders' lock for the rest of the test, so that no other recorder (another
# developer's test run) changes tracefs between our before and after; the recorder uses our
# descriptor (docs/record.md).
LOCK=/run/lock/reclaimscope-record.lock
[ -w /run/lock ] || LOCK=/tmp/reclaimscope-record.lock
exec 9>>"$LOCK"
flock -w 600 9 || skip_record "another recorder held $LOCK for 10 minutes"
export RECLAIMSCOPE_LOCK_FD=9

# Everything record may touch in tracefs, to compare after: the switches, the buffer sizes, the
# pid and CPU masks, every option and every event's enable, filter and trigger, the instances.
tracefs_state() {
	(cd "$T" && grep -m 1 -H '' tracing_on current_tracer trace_clock buffer_size_kb \
		buffer_percent per_cpu/*/buffer_size_kb set_event_pid tracing_cpumask options/* \
		events/*/*/enable events/*/*/filter events/*/*/trigger 2>/dev/null; ls instances)
}

# A user's own set-up that trace-cmd record clears (it disables every event and clears every
# filter): an event that hardly ever fires, enabled with a filter. Put back at exit.
UEV=$T/events/alarmtimer/alarmtimer_cancel
user_setup() { [ -d "$UEV" ] && echo 'common_pid == 1' >"$UEV/filter" && echo 1 >"$UEV/enable"; }
user_undo() { [ -d "$UEV" ] && echo 0 >"$UEV/enable" && echo 0 >"$UEV/filter"; }
# watchdog PID: kill -KILL PID if it still runs 120 s from now; its watcher ($dog) ends by itself
# within 0.1 s of PID's end, so no process of the test outlives it (an orphaned `sleep 120` kept
# the runner's inherited descriptors, a caller's flock among them, for two minutes)
watchdog() {
	( i=0
	  while [ $i -lt 1200 ] && kill -0 "$1"; do sleep 0.1; i=$((i + 1)); done
	  [ $i -lt 1200 ] || kill -KILL "$1" ) </dev/null >/dev/null 2>&1 &
	dog=$!
}
user_setup
# A file on disk (not tmpfs) so that streaming it makes page cache to reclaim.
DATA=/var/tmp/rs_e2e_stream.$$
SMALL=$TMP/small
trap 'user_undo; umount "$SMALL" 2>/dev/null; rm -rf "$TMP" "$DATA"
	rmdir "$MEM/rs_test" "$MEM/rs_e2e_fail" 2>/dev/null' EXIT
"$WL" mkfile "$DATA" 96 || fail "workload mkfile"
echo 1 >/proc/sys/vm/drop_caches
tracefs_state >"$TMP/before"
"$RS_BIN" record -o "$TMP/t.dat" --cgroup rs_test --limit 32M --own-memcgs --duration 1 \
	--filemap-dev /var/tmp -- "$WL" stream "$DATA" 1000 >"$TMP/out" 2>&1
expect_eq "record exit" "$?" 0
grep -q "wrote $TMP/t.dat" "$TMP/out" || fail "record: no summary line"
tracefs_state >"$TMP/after"
cmp -s "$TMP/before" "$TMP/after" || { fail "tracefs state not restored";
	diff "$TMP/before" "$TMP/after" | head; }
filter=$(head -n 1 "$T/events/memcg/count_memcg_events/filter" 2>/dev/null || echo none)
expect_eq "count_memcg_events filter" "$filter" none
[ -d "$MEM/rs_test" ] && fail "rs_test cgroup left behind"

trace-cmd report -i "$TMP/t.dat" >"$TMP/report" 2>/dev/null || fail "trace-cmd report failed"
for m in "reclaimscope_begin version=1 " "vm_event_items source=" "node_stat_items source=" \
	 "cgroup_map id=[0-9]* path=/$" "cgroup_map id=[0-9]* path=/rs_test$" \
	 "memcg_stat cg=/rs_test id=[0-9]* usage=" "node_stat nid=0 " \
	 "swap total=[0-9]* free=[0-9]*$" "reclaimscope_end status=143"; do
	grep -q "tracing_mark_write: $m" "$TMP/report" || fail "marker '$m' missing"
done
# one node: memory.numa_stat is not read, the memcg_stat markers are as before (docs/markers.md)
if grep -q "tracing_mark_write: reclaimscope_begin .* nodes=1 " "$TMP/report"; then
	grep -q "tracing_mark_write: memcg_numa \|tracing_mark_write: memcg_stat .* numa_" \
		"$TMP/report" && fail "one node, yet memcg_numa or numa_* written"
fi
# zone_stat (docs/markers.md): per snapshot one marker per managed zone of /proc/zoneinfo, read
# here on its own; the first snapshot's managed pages are the machine's (they do not move)
nz=$(awk '$1 == "managed" && $2 > 0 {n++} END {print n + 0}' /proc/zoneinfo)
managed=$(awk '$1 == "managed" {s += $2} END {print s + 0}' /proc/zoneinfo)
got=$(grep "tracing_mark_write: zone_stat " "$TMP/report" | head -n "$nz" |
	sed -n 's/.* managed=\([0-9]*\) .*/\1/p' | awk '{s += $1} END {print s + 0}')
expect_eq "zone_stat managed pages of the first snapshot" "$got" "$managed"
grep -Eq "tracing_mark_write: zone_stat nid=0 zone=[A-Za-z0-9]+ idx=[0-9]+ free=[0-9]+ min=[0-9]+ low=[0-9]+ high=[0-9]+ managed=[0-9]+ free_cma=[0-9]+ protection=[0-9,]+( free_highatomic=[0-9]+)?( reserved_highatomic=[0-9]+)?( pcp=[0-9]+ pcp_high=[0-9]+ pcp_batch=[0-9]+)?( start_pfn=[0-9]+ spanned=[0-9]+)? blocks=[0-9,]+$" \
	"$TMP/report" || fail "zone_stat marker missing or malformed"
# blocks= has one count per order, as many as /proc/buddyinfo has columns
norders=$(awk '{print NF - 4; exit}' /proc/buddyinfo)
got=$(grep "tracing_mark_write: zone_stat " "$TMP/report" | head -n 1 | sed 's/.* blocks=//' |
	tr ',' '\n' | wc -l)
expect_eq "zone_stat orders" "$got" "$norders"
grep -q "reclaimscope_begin .*cgroup_path=/rs_test limit=33554432" "$TMP/report" ||
	fail "begin marker lacks the cgroup and its limit"
# the workload ran in the cgroup and was reclaimed there
grep -q "mm_vmscan_memcg_reclaim_begin" "$TMP/report" || fail "no memcg reclaim in the trace"
grep -q "cgroup_attach_task:.*rs_test" "$TMP/report" || fail "workload not attached to rs_test"
# the page cache events (docs/refaults.md), filtered in the kernel to /var/tmp's device (the
# kernel's dev_t: major << 20 | minor, printed major:minor), and the snapshots' refault counter
dev=$(stat -c '%d' /var/tmp)
dev="$((dev >> 8 & 0xfff)):$((dev & 0xff | (dev >> 12 & 0xfff00)))"
grep -q " mm_filemap_delete_from_page_cache: dev $dev " "$TMP/report" ||
	fail "no page cache deletion of dev $dev (reclaim of the streamed file)"
grep -q " mm_filemap_add_to_page_cache: dev $dev " "$TMP/report" ||
	fail "no page cache add of dev $dev"
other=$(grep -E " mm_filemap_(add_to|delete_from)_page_cache: " "$TMP/report" |
	grep -vc " dev $dev ")
expect_eq "filemap events of other devices (--filemap-dev)" "$other" 0
grep -q "tracing_mark_write: memcg_stat cg=/rs_test .* workingset_refault_file=" "$TMP/report" ||
	fail "memcg_stat lacks workingset_refault_file"
# one memory.stat read a snapshot: each read flushes the memcg (memcg_flush_stats, 6.13+), and
# lists and refault counters must be of one moment. Per memcg_stat marker of rs_test, the
# flushes of its id by the recorder (the tasks writing markers) since its previous marker.
if grep -q " memcg_flush_stats: " "$TMP/report"; then
	got=$(awk 'function pid(   p) { p = $1; sub(/.*-/, "", p); return p }
		NR == FNR { if (/ tracing_mark_write: /) rec[pid()] = 1; next }
		/ tracing_mark_write: memcg_stat cg=\/rs_test id=/ {
			match($0, / id=[0-9]+/); id = substr($0, RSTART + 4, RLENGTH - 4)
			seen[n[id] + 0] = 1; n[id] = 0; next
		}
		/ memcg_flush_stats: / && (pid() in rec) {
			match($0, /memcg_id=[0-9]+/); n[substr($0, RSTART + 9, RLENGTH - 9)]++
		}
		END { for (k in seen) print k }' "$TMP/report" "$TMP/report" | sort -n | tr '\n' ' ')
	expect_eq "recorder's memcg_flush_stats per rs_test snapshot" "$got" "1 "
fi
awk '/tracing_mark_write:/ { sub(/.*tracing_mark_write: /, ""); if (length($0) >= 1000) bad++ }
     END { exit bad > 0 }' "$TMP/report" || fail "a marker is 1000 bytes or longer"
# the first marker is the begin marker and the last is the end marker (then only the padding
# that pushes the last ring-buffer pages out, docs/markers.md)
first=$(grep -m 1 -o "tracing_mark_write: [a-z_]*" "$TMP/report")
last=$(grep -o "tracing_mark_write: [a-z_]*" "$TMP/report" | grep -v reclaimscope_pad |
	tail -n 1)
# nothing was left in the ring buffers: the recording is complete
unread=$(trace-cmd report --stat -i "$TMP/t.dat" 2>/dev/null |
	awk '/^entries:/ {s += $2} END {print s + 0}')
expect_eq "entries left in the ring buffers" "$unread" 0
expect_eq "first marker" "$first" "tracing_mark_write: reclaimscope_begin"
expect_eq "last marker" "$last" "tracing_mark_write: reclaimscope_end"

# Without a command: records until SIGINT, then stops cleanly. The signal is sent once the
# recorder says it is recording.
"$RS_BIN" record -o "$TMP/i.dat" --no-filemap >"$TMP/out" 2>&1 &
pid=$!
i=0
while ! grep -q "Ctrl-C to stop" "$TMP/out" && [ $i -lt 300 ] && kill -0 "$pid" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
grep -q "Ctrl-C to stop" "$TMP/out" || { fail "no 'Ctrl-C to stop' within 30 s"; cat "$TMP/out"; }
kill -INT "$pid" 2>/dev/null
# its exit status, waited for; a watchdog kills it (status 137) if it has not stopped 120 s after
# SIGINT
watchdog "$pid"
wait "$pid"
st=$?
kill "$dog" 2>/dev/null
expect_eq "record until SIGINT exit" "$st" 0
trace-cmd report -i "$TMP/i.dat" >"$TMP/i.report" 2>"$TMP/i.err"
r=$?
# missed in two `make check` runs under heavy load (2026-12-03), not reproduced alone or beside
# busy loops since: on failure say what record printed and which markers the trace ends with
if ! grep -q "tracing_mark_write: reclaimscope_end status=0" "$TMP/i.report"; then
	fail "SIGINT run: no end marker (trace-cmd report exit $r, $(wc -l <"$TMP/i.report")" \
		"lines; record said: $(tr '\n' ' ' <"$TMP/out" | tail -c 600); report errors:" \
		"$(head -c 300 "$TMP/i.err"); last markers:" \
		"$(grep -o 'tracing_mark_write: [a-z_]*[^.]\{0,60\}' "$TMP/i.report" |
			grep -v reclaimscope_pad | tail -n 3 |
			tr '\n' '|'))"
fi
grep -q " mm_filemap_" "$TMP/i.report" && fail "--no-filemap recorded filemap events"
# a global recording (no --cgroup) has the buddy flow by default (docs/record.md): the header
# says so, a zone_read marker comes before each round of zone_stat, and mm_page_free is filtered
# to the orders the per-cpu lists never hold (above 3, not the PMD order)
grep -q "tracing_mark_write: reclaimscope_begin .* zone_flow=1 pmd_order=[0-9]*" \
	"$TMP/i.report" || fail "global recording: no zone_flow=1 in the begin marker"
# (the recording may stop between a round's read and its node_stat)
nr=$(grep -c 'tracing_mark_write: zone_read$' "$TMP/i.report")
nn=$(grep -c 'tracing_mark_write: node_stat nid=0 ' "$TMP/i.report")
[ "$nr" -gt 0 ] && [ $((nr - nn)) -ge 0 ] && [ $((nr - nn)) -le 1 ] ||
	fail "zone_read markers: $nr for $nn rounds of node_stat"
pmd=$(sed -n 's/.*tracing_mark_write: reclaimscope_begin .* pmd_order=\([0-9]*\).*/\1/p' \
	"$TMP/i.report")
expect_eq "mm_page_free of per-cpu orders (filtered)" \
	"$(grep ' mm_page_free: ' "$TMP/i.report" | sed -n 's/.* order=\([0-9]*\).*/\1/p' |
		awk -v p="$pmd" '$1 <= 3 || $1 == p' | wc -l)" 0
"$RS_BIN" record --no-filemap --filemap-dev /var/tmp -o "$TMP/x.dat" >/dev/null 2>&1
expect_eq "--no-filemap with --filemap-dev" "$?" 2
tracefs_state >"$TMP/after2"
cmp -s "$TMP/before" "$TMP/after2" || fail "tracefs state not restored after SIGINT"

# Failures at each stage, and signals: after each, tracefs is as it was, no rs_* cgroup was left,
# and neither were trace-cmd's per-CPU files (OUTPUT.cpuN). Every workload runs in rs_e2e_fail,
# limited to 32 MB.
ls -d "$MEM"/rs_* >"$TMP/cg.before" 2>/dev/null
CG="--cgroup rs_e2e_fail --limit 32M --own-memcgs --no-filemap"
O=$TMP/o.dat
check_clean() {	# check_clean WHAT
	tracefs_state >"$TMP/after.c"
	cmp -s "$TMP/before" "$TMP/after.c" || { fail "$1: tracefs state not restored"
		diff "$TMP/before" "$TMP/after.c" | head -n 6; }
	ls -d "$MEM"/rs_* >"$TMP/cg.after" 2>/dev/null
	cmp -s "$TMP/cg.before" "$TMP/cg.after" || fail "$1: cgroup(s) left behind:" \
		"$(comm -13 "$TMP/cg.before" "$TMP/cg.after" | tr '\n' ' ')"
	left=""
	for f in "$O".cpu* "$SMALL"/o.dat.cpu*; do
		[ -e "$f" ] && left="$left $f"
	done
	[ -z "$left" ] || fail "$1: trace-cmd's per-CPU files left:$left"
	rm -f "$O" "$O".cpu*
}
expect_fail() {	# expect_fail WHAT EXIT MESSAGE (record's exit in $st, its output in $TMP/out)
	expect_eq "$1: exit" "$st" "$2"
	grep -q "$3" "$TMP/out" || fail "$1: no '$3' in: $(head -c 400 "$TMP/out")"
	check_clean "$1"
}
until_true() {	# until_true SECONDS CMD...: 0 once CMD succeeds, 1 after SECONDS
	_n=$(($1 * 10))
	shift
	while ! "$@" 2>/dev/null; do
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || return 1
		sleep 0.1
	done
}
has_procs() { grep -q . "$MEM/rs_e2e_fail/cgroup.procs"; }	# cgroupfs sizes are 0
# bg_record ARG...: record in the background, its pid in $pid and a 120 s watchdog in $dog
bg_record() {
	"$RS_BIN" record "$@" >"$TMP/out" 2>&1 &
	pid=$!
	watchdog "$pid"
}
bg_wait() { wait "$pid"; st=$?; kill "$dog" 2>/dev/null; }

# trace-cmd missing from PATH: refused before anything is set up
PATH=/nonexistent "$RS_BIN" record -o "$O" $CG -- /bin/sleep 1 >"$TMP/out" 2>&1
st=$?
expect_fail "no trace-cmd in PATH" 1 "trace-cmd not found in PATH"
# a trace-cmd that fails at once, after the cgroup and tracefs were set up
mkdir -p "$TMP/fake"
printf '#!/bin/sh\necho fake trace-cmd failing >&2\nexit 3\n' >"$TMP/fake/trace-cmd"
chmod +x "$TMP/fake/trace-cmd"
PATH=$TMP/fake:$PATH "$RS_BIN" record -o "$O" $CG -- /bin/sleep 1 >"$TMP/out" 2>&1
st=$?
expect_fail "trace-cmd failing at start" 1 "trace-cmd exited with status 3 before tracing started"
# SIGTERM while trace-cmd starts (this one never starts tracing)
printf '#!/bin/sh\n: >"%s"\nexec sleep 60\n' "$TMP/fake.started" >"$TMP/fake/trace-cmd"
PATH=$TMP/fake:$PATH bg_record -o "$O" $CG -- /bin/sleep 1
until_true 30 test -e "$TMP/fake.started" || fail "fake trace-cmd not started in 30 s"
kill -TERM "$pid"
bg_wait
expect_fail "SIGTERM before tracing started" 1 "interrupted before tracing started"
# a workload that cannot be executed (no #! line, not ELF: ENOEXEC), once tracing is live
printf 'not a program\n' >"$TMP/notexec"
chmod +x "$TMP/notexec"
"$RS_BIN" record -o "$O" $CG -- "$TMP/notexec" >"$TMP/out" 2>&1
st=$?
expect_fail "workload exec fails" 1 "cannot run $TMP/notexec: Exec format error"
# the workload killed from outside: its status is recorded, the recording completes
bg_record -o "$O" $CG -- /bin/sleep 60
until_true 60 has_procs || fail "workload not in rs_e2e_fail within 60 s"
kill -KILL $(cat "$MEM/rs_e2e_fail/cgroup.procs") 2>/dev/null
bg_wait
expect_eq "workload killed: end marker" \
	"$(trace-cmd report -i "$O" 2>/dev/null | grep -o 'reclaimscope_end status=[0-9]*')" \
	"reclaimscope_end status=137"
expect_fail "workload killed" 0 "the workload exited with status 137"
# SIGINT and SIGTERM to record mid-recording: passed on to the workload, which ends; the
# recording completes with its status
for sig in INT TERM; do
	bg_record -o "$O" $CG -- /bin/sleep 60
	until_true 60 has_procs || fail "SIG$sig: workload not in rs_e2e_fail within 60 s"
	kill -$sig "$pid"
	bg_wait
	case $sig in INT) code=130 ;; TERM) code=143 ;; esac
	expect_eq "SIG$sig mid-record: end marker" \
		"$(trace-cmd report -i "$O" 2>/dev/null | grep -o 'reclaimscope_end status=[0-9]*')" \
		"reclaimscope_end status=$code"
	expect_fail "SIG$sig mid-record" 0 "the workload exited with status $code"
done
# trace-cmd killed mid-recording (with its per-CPU readers)
bg_record -o "$O" $CG -- /bin/sleep 60
until_true 60 has_procs || fail "trace-cmd kill: workload not in rs_e2e_fail within 60 s"
tc=$(pgrep -P "$pid" -x trace-cmd)
[ -n "$tc" ] && kill -KILL -"$tc"
bg_wait
expect_fail "trace-cmd killed" 1 "trace-cmd exited with status 137 while recording; no trace was written"
# the output's file system full once tracing runs (256 KB: the headers alone are more)
mkdir -p "$SMALL"
if mount -t tmpfs -o size=256k rs_e2e_small "$SMALL"; then
	"$RS_BIN" record -o "$SMALL/o.dat" $CG --duration 2 -- /bin/sleep 60 >"$TMP/out" 2>&1
	st=$?
	expect_fail "output's file system full" 1 \
		"trace-cmd failed with status [0-9]* (its messages are above); no trace was written"
	umount "$SMALL"
else
	fail "cannot mount a tmpfs at $SMALL"
fi
finish
