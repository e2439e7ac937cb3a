#!/bin/sh
# Valgrind memcheck over end-to-end runs on small inputs: trace.dat v6 and v7 (plain, zstd), a text
# trace, and two corrupt files that fail in our validation and inside libtracecmd. No invalid
# access, no definite or indirect leak. Needs the plain build: under ASan (reclaimscope-san)
# valgrind cannot run, so that pass skips. The trace.dat check forks a child (the formats' test
# parse) whose exit status the command never passes on: --error-exitcode alone misses the child's
# errors, so any report valgrind prints (-q: errors only, each process's under its pid) fails.
. tests/lib-e2e.sh
need valgrind
case $RS_BIN in *-san) echo "valgrind needs the non-sanitized binary"; exit 77 ;; esac
vg() {	# vg WANT_EXIT CMD FILE
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--num-callers=30 --suppressions=tests/valgrind.supp \
		"$RS_BIN" "$2" --json "$3" >"$TMP/out" 2>"$TMP/err"
	r=$?
	if [ "$r" -ne "$1" ]; then
		fail "valgrind $2 $3: exit $r, want $1"
	elif grep -q '^==[0-9]*== ' "$TMP/err"; then
		fail "valgrind $2 $3: a process reported errors"
	else
		return 0
	fi
	sed 's/^/    /' "$TMP/err" | head -n 40
}
cmds=events
"$RS_BIN" analyze --help >/dev/null 2>&1 && cmds="events analyze"
small=$(ls -S tests/fixtures/*.dat 2>/dev/null | tail -n 1)
for c in $cmds; do
	for f in tests/fuzz/seeds/small-v6.dat tests/fuzz/seeds/small-v7.dat \
		 tests/fuzz/seeds/small-v7-zstd.dat tests/fuzz/seeds/report.txt $small; do
		[ -f "$f" ] && vg 0 "$c" "$f"
	done
	vg 1 "$c" tests/fuzz/regress/tracedat-page-commit-past-page
	vg 1 "$c" tests/fuzz/regress/tracedat-v7z-close-after-failed-init
done
finish
