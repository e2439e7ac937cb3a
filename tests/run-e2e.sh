#!/bin/sh
# Run every end-to-end test script in tests/e2e/. Contract of a script: exit 0 pass, 77 skip,
# anything else fail; env RS_BIN (the binary) and RS_TOOLS (helper programs); run from the top.
# A script names the commands it needs (`need CMD...`, tests/lib-e2e.sh) before any assertion;
# its `trace-cmd report` oracles go through trace_report (cached per run under RS_ORACLE_CACHE).
# Prints one line per script and a closing "e2e: N passed, N failed, N skipped".
cd "$(dirname "$0")/.." || exit 1
: "${RS_BIN:=./reclaimscope}"
: "${RS_TOOLS:=build/tools}"
export RS_BIN RS_TOOLS
pass=0; fail=0; skip=0
log=$(mktemp -d "${TMPDIR:-/tmp}/rs-e2e.XXXXXX") || exit 1
for t in tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	t0=$(date +%s)
	times >"$log/times0"
	if sh "$t" >"$log/$name.out" 2>&1; then r=0; else r=$?; fi
	times >"$log/times1"
	secs=$(($(date +%s) - t0))
	# CPU seconds (user + system) of the script and all it ran: the load-independent cost
	cpu=$(awk 'FNR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/);
		t += p[1] * 60 + p[2] } s[++n] = t } END { printf "%.0f", s[2] - s[1] }' \
		"$log/times0" "$log/times1")
	case $r in
	0) pass=$((pass + 1)); echo "OK   $name ($secs s, cpu $cpu s)" ;;
	77) skip=$((skip + 1)); echo "SKIP $name: $(tail -n 1 "$log/$name.out")" ;;
	*) fail=$((fail + 1)); echo "FAIL $name (exit $r, $secs s)"; sed 's/^/    /' "$log/$name.out" | tail -n 40 ;;
	esac
done
rm -rf "$log"
echo "e2e: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
