# Helpers sourced by the e2e scripts (not a test itself: run-e2e.sh runs *.sh, so keep this
# sourced only; it is named lib.sh and guarded below).
RS_BIN=${RS_BIN:-./reclaimscope}
TOP=$(pwd)
SHARED_TRACE=${RS_SHARED_TRACE:-$TOP/../shared/traces/global-dev.dat}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rs-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }
finish() { [ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }; exit 0; }
# rs_ok WHAT ARG...: run reclaimscope ARG..., stderr in $TMP/err; on failure count it, saying
# WHAT, the exit code and the last line of stderr, and return 1 (callers skip what depends on it)
rs_ok() {
	_ro_what=$1
	shift
	"$RS_BIN" "$@" 2>"$TMP/err" && return 0
	_ro_r=$?
	fail "$_ro_what exit $_ro_r: $(tail -n 1 "$TMP/err")"
	return 1
}
# need CMD...: every command the test runs beyond POSIX sh and coreutils, checked before any
# assertion, so that a missing one is named as such (not reported as the failures it causes).
# `make deps` installs them all, so a missing one fails the test rather than skipping it.
need() {
	missing=""
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	[ -z "$missing" ] && return 0
	echo "FAIL: missing command(s):$missing (run 'make deps'; as root it installs them)"
	exit 1
}
# trace_report FILE [OPTION...]: `trace-cmd report OPTION... -i FILE`, stderr dropped: the oracle
# most tests read. With RS_ORACLE_CACHE (a directory; `make check` makes one per run) each output
# is computed once, kept under a key of the file (device, inode, size, mtime) and the options, and
# reused by the later tests and by the sanitizer round.
trace_report() {
	_tr_f=$1
	shift
	if [ -z "${RS_ORACLE_CACHE:-}" ]; then
		trace-cmd report "$@" -i "$_tr_f" 2>/dev/null
		return
	fi
	_tr_c=$RS_ORACLE_CACHE/$(basename "$_tr_f").$(printf '%s\n' "$*" \
		"$(stat -L -c '%d %i %s %Y' "$_tr_f" 2>/dev/null)" | md5sum | cut -c 1-16)
	if [ ! -f "$_tr_c" ]; then
		mkdir -p "$RS_ORACLE_CACHE" && trace-cmd report "$@" -i "$_tr_f" >"$_tr_c.$$" \
			2>/dev/null && mv -f "$_tr_c.$$" "$_tr_c" || {
			rm -f "$_tr_c.$$"
			trace-cmd report "$@" -i "$_tr_f" 2>/dev/null
			return
		}
	fi
	cat "$_tr_c"
}
# oracle_of FUNCTION FILE [ARG...]: the output of `FUNCTION FILE ARG...`, a figure the script
# computes from FILE alone (awk over trace_report), kept like trace_report's outputs: computed
# once per run, reused by the sanitizer round. The key is the script, the function, its
# arguments and FILE's identity; the cache lives one run (`make check` empties it first), so an
# edited function is never read from an older run.
oracle_of() {
	if [ -z "${RS_ORACLE_CACHE:-}" ]; then
		"$@"
		return
	fi
	_or_c=$RS_ORACLE_CACHE/$(basename "$0" .sh).$1.$(printf '%s\n' "$*" \
		"$(stat -L -c '%d %i %s %Y' "$2" 2>/dev/null)" | md5sum | cut -c 1-16)
	if [ ! -f "$_or_c" ]; then
		mkdir -p "$RS_ORACLE_CACHE" && "$@" >"$_or_c.$$" && mv -f "$_or_c.$$" "$_or_c" || {
			rm -f "$_or_c.$$"
			"$@"
			return
		}
	fi
	cat "$_or_c"
}
# rs_json COMMAND TRACE: `"$RS_BIN" COMMAND --json TRACE`, its output and exit status. Several
# scripts run the same one on the same committed trace (analyze --json: analyze, diff, export,
# kernel7, refaults, replay; events --json: events, kernel7, text_vs_dat, zchunks; cgroups
# --json: cgroups_7x, kernel7): under make
# check (RS_ORACLE_CACHE) the output of a run that exits 0 is kept for the run, keyed by the
# binary and the trace (its path as given, device, inode, size, mtime), so each round makes it
# once. Not for files under $TMP (an inode is reused there).
rs_json() {
	if [ -z "${RS_ORACLE_CACHE:-}" ]; then
		"$RS_BIN" "$1" --json "$2"
		return
	fi
	_rj_c=$RS_ORACLE_CACHE/run.$1.$(basename "$2").$( (stat -L -c '%d %i %s %Y' "$RS_BIN" "$2" \
		2>/dev/null; printf '%s\n' "$2" "${LC_ALL:-}") | md5sum | cut -c 1-16)
	if [ ! -f "$_rj_c" ]; then
		mkdir -p "$RS_ORACLE_CACHE" || return 1
		"$RS_BIN" "$1" --json "$2" >"$_rj_c.$$" || {
			_rj_r=$?
			cat "$_rj_c.$$"
			rm -f "$_rj_c.$$"
			return $_rj_r
		}
		mv -f "$_rj_c.$$" "$_rj_c"
	fi
	cat "$_rj_c"
}
# Awk functions for the lines of `trace-cmd report -R` (3.1.6 prints the 7.x formats only raw),
# for the oracles to put before their program: awk "$RAW_AWK"'...'. field(NAME): the value of
# NAME= on the line, "" when absent; pid_of(): the task's pid, from "comm-PID" before "[CPU]".
RAW_AWK='
function field(name,   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, name "=") == 1)
			return substr($i, length(name) + 2)
	return ""
}
function pid_of(   i, p) {
	for (i = 1; i <= NF && $i !~ /^\[[0-9]+\]$/; i++)
		p = $i
	sub(/.*-/, "", p)
	return p
}
'
# Every real trace the tests run on: committed fixtures and the shared global trace.
real_traces_all() {
	for f in "$TOP"/tests/fixtures/*.dat "$SHARED_TRACE"; do
		[ -f "$f" ] && echo "$f"
	done
}
# The real traces a script runs its per-trace checks on. RS_E2E_LIGHT=1 (`make check-san` sets
# it: every run there is six times slower) cuts repetitions, never a check: the same checks on
# three fixtures, the first one, oom.dat (OOM kills) and v6.dat (the other file format), and the
# shared trace (checks of their own run on it), instead of all; the plain round runs them on
# every trace. Scripts with checks of a given fixture's figures (replay.sh) and those that read
# every trace under the sanitizer (threads.sh, zchunks.sh) use real_traces_all.
real_traces() {
	if [ "${RS_E2E_LIGHT:-0}" = 1 ]; then
		real_traces_all | awk -v shared="$SHARED_TRACE" \
			'NR == 1 || $0 == shared || /\/(oom|v6)\.dat$/'
	else
		real_traces_all
	fi
}
# The fuzz inputs a command other than events and analyze is run on: the seeds and every input
# that once broke the loaders. The light round takes the seeds only: the loaders on those
# inputs are fuzz_regress.sh's subject, which reads each of them three times there.
fuzz_inputs() {
	if [ "${RS_E2E_LIGHT:-0}" = 1 ]; then
		ls -d tests/fuzz/seeds/*
	else
		ls -d tests/fuzz/regress/* tests/fuzz/seeds/*
	fi
}
