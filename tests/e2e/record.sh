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

# Everything record may touch in tracefs, to compare after.
tracefs_state() {
	(cd "$T" && grep -m 1 -H '' tracing_on current_tracer trace_clock options/* \
		events/*/*/enable events/*/*/filter 2>/dev/null)
}

# A file on disk (not tmpfs) so that streaming it makes page cache to reclaim.
DATA=/var/tmp/rs_e2e_stream.$$
trap 'rm -rf "$TMP" "$DATA"; rmdir "$MEM/rs_test" 2>/dev/null' EXIT
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
# SIGINT (the watchdog holds no output open: a test read through a pipe does not wait for it)
( sleep 120; kill -KILL "$pid" ) >/dev/null 2>&1 &
dog=$!
wait "$pid"
st=$?
kill "$dog" 2>/dev/null
expect_eq "record until SIGINT exit" "$st" 0
trace-cmd report -i "$TMP/i.dat" 2>/dev/null |
	grep -q "tracing_mark_write: reclaimscope_end status=0" || fail "SIGINT run: no end marker"
trace-cmd report -i "$TMP/i.dat" 2>/dev/null | grep -q " mm_filemap_" &&
	fail "--no-filemap recorded filemap events"
"$RS_BIN" record --no-filemap --filemap-dev /var/tmp -o "$TMP/x.dat" >/dev/null 2>&1
expect_eq "--no-filemap with --filemap-dev" "$?" 2
tracefs_state >"$TMP/after2"
cmp -s "$TMP/before" "$TMP/after2" || fail "tracefs state not restored after SIGINT"
finish
