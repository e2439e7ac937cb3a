#!/bin/sh
# The examples in docs/*.md are real: every fenced block whose first line is
# "$ reclaimscope ARGS" is run from tests/fixtures/ and must print exactly the rest of the block.
# When output is meant to change, rewrite the blocks and read the diff:
#   RS_DOCS_UPDATE=1 RS_BIN=./reclaimscope sh tests/e2e/docs_examples.sh && git diff docs/
. tests/lib-e2e.sh

BIN=$RS_BIN
case $BIN in /*) ;; *) BIN="$TOP/$BIN" ;; esac
n=0
for doc in "$TOP"/docs/*.md; do
	# the command lines of the doc's example blocks, one per line
	awk 'prev == "```" && /^\$ reclaimscope / { print substr($0, 16) } { prev = $0 }' "$doc" \
		>"$TMP/cmds"
	[ -s "$TMP/cmds" ] || continue
	i=0
	while IFS= read -r line; do
		i=$((i + 1))
		n=$((n + 1))
		# shellcheck disable=SC2086 # the line is split into words on purpose
		(cd "$TOP/tests/fixtures" && "$BIN" $line >"$TMP/out.$i" 2>"$TMP/err.$i") ||
			fail "$(basename "$doc"): '$line': exit $?: $(head -c 300 "$TMP/err.$i")"
	done <"$TMP/cmds"
	# the doc with every example block's body replaced by the output just made
	awk -v dir="$TMP" '
		state == 1 { if ($0 == "```") { print; state = 0 } ; next }
		prev == "```" && /^\$ reclaimscope / {
			print
			k++
			f = dir "/out." k
			while ((getline l < f) > 0)
				print l
			close(f)
			state = 1
			prev = $0
			next
		}
		{ print; prev = $0 }' "$doc" >"$TMP/doc"
	if [ -n "$RS_DOCS_UPDATE" ]; then
		cmp -s "$TMP/doc" "$doc" || cp "$TMP/doc" "$doc"
	elif ! diff -u "$doc" "$TMP/doc" >"$TMP/diff"; then
		fail "$(basename "$doc"): an example differs from the program's output:"
		head -n 40 "$TMP/diff"
	fi
done
[ "$n" -gt 0 ] || fail "no example blocks found in docs/"
echo "$n examples checked"
finish
