#!/bin/sh
# Golden outputs (git's t4013 style): every command line of tests/golden/commands is run from
# tests/fixtures/ and its stdout (then stderr and a non-zero exit status, if any) is compared
# with tests/golden/<line, ' ' and '/' as '_'>.out. They guard refactors that must not change
# output; a change meant to alter output regenerates them and commits the diff with it:
#   RS_GOLDEN_UPDATE=1 RS_BIN=./reclaimscope sh tests/e2e/golden.sh
# (see tests/golden/README.md). The figures themselves are checked against trace-cmd by the
# other e2e scripts; these files only say that nothing moved unnoticed.
. tests/lib-e2e.sh
# The goldens are written in a UTF-8 locale (sparklines in block characters): pinned, so that an
# environment without a locale (C: ASCII sparklines; a minimal Debian, CI) compares the same bytes.
LC_ALL=C.UTF-8
export LC_ALL

GOLDEN="$TOP/tests/golden"
BIN=$RS_BIN
case $BIN in /*) ;; *) BIN="$TOP/$BIN" ;; esac
out="$TMP/golden"
[ -n "$RS_GOLDEN_UPDATE" ] && out="$GOLDEN"
mkdir -p "$out"

golden_name() { printf '%s' "$1" | tr ' /' '__'; }

listed="$TMP/listed"
: >"$listed"
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	name=$(golden_name "$line").out
	echo "$name" >>"$listed"
	# shellcheck disable=SC2086 # the line is split into words on purpose
	(cd "$TOP/tests/fixtures" && "$BIN" $line >"$TMP/stdout" 2>"$TMP/stderr"; echo $? >"$TMP/rc")
	{
		echo "\$ reclaimscope $line"
		cat "$TMP/stdout"
		if [ -s "$TMP/stderr" ]; then echo "--- stderr"; cat "$TMP/stderr"; fi
		rc=$(cat "$TMP/rc")
		[ "$rc" = 0 ] || echo "--- exit $rc"
	} >"$out/$name"
done <"$GOLDEN/commands"

if [ -n "$RS_GOLDEN_UPDATE" ]; then
	# a golden file whose line left tests/golden/commands goes with it
	for f in "$GOLDEN"/*.out; do
		grep -qxF "$(basename "$f")" "$listed" || rm -f "$f"
	done
	echo "golden files written to tests/golden/ ($(wc -l <"$listed") commands)"
	exit 0
fi

while IFS= read -r name; do
	if [ ! -f "$GOLDEN/$name" ]; then
		fail "no golden file tests/golden/$name (RS_GOLDEN_UPDATE=1 writes it)"
	elif ! diff -u "$GOLDEN/$name" "$out/$name" >"$TMP/diff"; then
		fail "output differs from tests/golden/$name:"
		head -n 40 "$TMP/diff"
	fi
done <"$listed"
for f in "$GOLDEN"/*.out; do
	[ -f "$f" ] || continue
	grep -qxF "$(basename "$f")" "$listed" || fail "tests/golden/$(basename "$f") has no line in tests/golden/commands"
done
finish
