#!/bin/sh
# Run every end-to-end test script in tests/e2e/. Contract of a script: exit 0 pass, 77 skip,
# anything else fail; env RS_BIN (the binary) and RS_TOOLS (helper programs); run from the top.
# A script names the commands it needs (`need CMD...`, tests/lib-e2e.sh) before any assertion;
# its `trace-cmd report` oracles go through trace_report (cached per run under RS_ORACLE_CACHE).
# RS_E2E="NAME..." runs only those scripts. RS_JOBS scripts run at once (default: the CPUs
# available), the costliest first, and tui_tmux, which mostly waits, beside them; each script
# has its own temporary directory, and none depends on another's output or on running alone.
# Prints one line per script as it ends, then each failure's output, then
# "e2e: N passed, N failed, N skipped".
cd "$(dirname "$0")/.." || exit 1
: "${RS_BIN:=./reclaimscope}"
: "${RS_TOOLS:=build/tools}"
: "${RS_JOBS:=$(nproc 2>/dev/null || echo 1)}"
export RS_BIN RS_TOOLS
log=$(mktemp -d "${TMPDIR:-/tmp}/rs-e2e.XXXXXX") || exit 1
trap 'rm -rf "$log"' EXIT

# the costliest scripts first (CPU seconds measured in both rounds), so that the last ones to
# start are short and the jobs end together; the rest in name order
FIRST="threads zchunks replay export plot fuzz_regress analyze diff kernel7 golden events cgroups_7x"
FIRST="$FIRST cgroups text_vs_dat valgrind"
list=""
for n in $FIRST; do [ -f "tests/e2e/$n.sh" ] && list="$list $n"; done
for t in tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	case " $list " in *" $n "*) ;; *) list="$list $n" ;; esac
done
if [ -n "${RS_E2E:-}" ]; then
	for n in $RS_E2E; do
		[ -f "tests/e2e/$n.sh" ] || { echo "run-e2e: no tests/e2e/$n.sh" >&2; exit 2; }
	done
	sel=""
	for n in $list; do case " $RS_E2E " in *" $n "*) sel="$sel $n" ;; esac; done
	list=$sel
fi

# run_one NAME: the script's output in $log/NAME.out, its result line in $log/NAME.res
run_one() {
	t0=$(date +%s)
	times >"$log/$1.times0"
	if sh "tests/e2e/$1.sh" >"$log/$1.out" 2>&1; then r=0; else r=$?; fi
	times >"$log/$1.times1"
	secs=$(($(date +%s) - t0))
	# CPU seconds (user + system) of the script and all it ran: the load-independent cost
	cpu=$(awk 'FNR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/);
		t += p[1] * 60 + p[2] } s[++n] = t } END { printf "%.0f", s[2] - s[1] }' \
		"$log/$1.times0" "$log/$1.times1")
	case $r in
	0) echo "OK   $1 ($secs s, cpu $cpu s)" ;;
	77) echo "SKIP $1: $(tail -n 1 "$log/$1.out")" ;;
	*) echo "FAIL $1 (exit $r, $secs s, cpu $cpu s)" ;;
	esac >"$log/$1.res"
	echo "$r" >"$log/$1.rc"
	cat "$log/$1.res"
}
# a job takes the next script nobody has claimed (mkdir is atomic) until none is left
job() {
	for n in $list; do
		mkdir "$log/$n.claim" 2>/dev/null || continue
		run_one "$n"
	done
}
# Scripts that mostly wait (tui_tmux: tmux sessions polled against timeouts, 6-13 CPU seconds in
# 30-100 s) run beside the RS_JOBS jobs from the start, not in a slot: last in the order, it ended
# each round with one CPU idle for up to 90 s (the sanitizer round's last minute and a half).
BESIDE="tui_tmux"
bes=""
for n in $BESIDE; do
	case " $list " in *" $n "*) mkdir "$log/$n.claim" && bes="$bes $n" ;; esac
done
if [ -n "$bes" ]; then
	( for n in $bes; do run_one "$n"; done ) &
fi
i=0
while [ "$i" -lt "$RS_JOBS" ]; do
	job &
	i=$((i + 1))
done
wait

pass=0; fail=0; skip=0
for n in $list; do
	case $(cat "$log/$n.rc" 2>/dev/null) in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1))
	   cat "$log/$n.res" 2>/dev/null || echo "FAIL $n (no result)"
	   sed 's/^/    /' "$log/$n.out" | tail -n 40 ;;
	esac
done
echo "e2e: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
