#!/bin/sh
# Man pages, --help, shell completion and `make install` all come from the command table: every
# option the parser takes is in --help, in its man page and in docs/COMMAND.md; the pages render
# without groff warnings; completion offers commands, options and policies; install lays out
# bin, man1, bash-completion and doc under a temporary PREFIX.
. tests/lib-e2e.sh
need man groff col bash

cmds=$("$RS_BIN" --list-commands) || fail "--list-commands"
[ -n "$cmds" ] || fail "--list-commands printed nothing"
for c in $cmds; do
	"$RS_BIN" "$c" --help >"$TMP/help" 2>&1 || fail "$c --help: exit $?"
	"$RS_BIN" --man-page "$c" >"$TMP/$c.1" || fail "--man-page $c: exit $?"
	# groff -ww: every warning; -z: no output. A warning is a malformed page.
	groff -ww -z -man "$TMP/$c.1" 2>"$TMP/warn" || fail "groff on $c.1"
	[ -s "$TMP/warn" ] && fail "$c.1: $(head -n 3 "$TMP/warn")"
	MANWIDTH=100 man -l "$TMP/$c.1" 2>/dev/null | col -b >"$TMP/$c.txt"
	grep -q "reclaimscope-$c - " "$TMP/$c.txt" || fail "$c.1 has no NAME line"
	for o in $("$RS_BIN" --list-options "$c" | sed 's/=$//'); do
		grep -q -- "$o" "$TMP/help" || fail "$c --help lacks $o"
		grep -q -- "$o" "$TMP/$c.txt" || fail "man page of $c lacks $o"
		[ "$o" = --help ] || grep -q -- "$o" "docs/$c.md" || fail "docs/$c.md lacks $o"
	done
	# docs/COMMAND.md opens with the synopsis --help prints, without "usage: "
	sed -n '/^$/q; s/^usage: //; s/^       //; p' "$TMP/help" >"$TMP/synopsis"
	awk 'NR == FNR { want[n++] = $0; next }
	     $0 == want[k] { if (++k == n) found = 1; next }
	     { k = ($0 == want[0]) }
	     END { exit !found }' "$TMP/synopsis" "docs/$c.md" ||
		fail "docs/$c.md lacks the synopsis of $c --help: $(head -n 1 "$TMP/synopsis")"
	# the synopsis names every option (by its short name where it has one): record's and
	# replay's are written by hand, and a new option must not be left out of them
	for o in $("$RS_BIN" --list-options "$c" | sed 's/=$//'); do
		[ "$o" = --help ] && continue
		s=$(sed -n "s/^  -\\([a-z]\\), $o[][ =].*/-\\1/p" "$TMP/help")
		grep -Eq -- "(^| |\\[)(${s:+$s|}$o)([] =[]|\$)" "$TMP/synopsis" ||
			fail "$c: the synopsis lacks $o"
	done
	# the man page's DESCRIPTION is the part of docs/COMMAND.md so marked, word for word
	# (cmd/man_description.awk writes it into the build): the page's words, fences dropped,
	# against the roff's, requests dropped and escapes undone
	sed -n '/^<!-- man DESCRIPTION/,/^<!-- end of man DESCRIPTION -->/p' "docs/$c.md" |
		sed '1d; $d; /^```/d' | tr -s ' \n' '  ' | sed 's/^ //; s/ $//' >"$TMP/desc.want"
	sed -n '/^\.SH DESCRIPTION/,/^\.SH /p' "$TMP/$c.1" | sed '1d; $d; /^\./d' |
		sed 's/\\-/-/g; s/\\&//g; s/\\e/\\/g' | tr -s ' \n' '  ' |
		sed 's/^ //; s/ $//' >"$TMP/desc.got"
	[ -s "$TMP/desc.want" ] || fail "docs/$c.md marks no man DESCRIPTION"
	cmp -s "$TMP/desc.want" "$TMP/desc.got" ||
		fail "$c.1's DESCRIPTION is not docs/$c.md's: $(cut -c 1-120 "$TMP/desc.got")"
	# one line per option in --help: "  --name ARG   meaning"
	n_opts=$("$RS_BIN" --list-options "$c" | wc -l)
	n_lines=$(grep -c '^  \(-[a-z], \)\{0,1\}--' "$TMP/help")
	expect_eq "$c --help option lines" "$n_lines" "$n_opts"
	awk -v c="$c" 'length($0) > 100 { print c " --help line over 100 columns: " $0; exit 1 }' \
		"$TMP/help" || fail "$c --help is wider than 100 columns"
done
"$RS_BIN" --man-page >"$TMP/main.1" && groff -ww -z -man "$TMP/main.1" 2>"$TMP/warn" ||
	fail "reclaimscope.1"
[ -s "$TMP/warn" ] && fail "reclaimscope.1: $(head -n 3 "$TMP/warn")"
for c in $cmds; do
	grep -q "reclaimscope\\\\-$c" "$TMP/main.1" || fail "reclaimscope.1 does not list $c"
done
"$RS_BIN" --man-page nosuch >/dev/null 2>&1
expect_eq "--man-page of no command" "$?" 2

# completion, with the binary on PATH as an installed one would be
case $RS_BIN in /*) bin=$RS_BIN ;; *) bin=$TOP/$RS_BIN ;; esac
mkdir -p "$TMP/bin" && ln -s "$bin" "$TMP/bin/reclaimscope"
complete_words() {
	PATH="$TMP/bin:$PATH" bash -c '. cmd/completion/reclaimscope.bash
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _reclaimscope
		printf "%s\n" "${COMPREPLY[@]}"' complete "$@"
}
expect_eq "complete 'an'" "$(complete_words reclaimscope an)" "analyze"
complete_words reclaimscope replay --pol | grep -qx -- '--policy=' || fail "complete replay --pol"
expect_eq "complete --policy soft" "$(complete_words reclaimscope replay --policy soft | tr '\n' ' ')" \
	"softlimit-tree softlimit-rework "
complete_words reclaimscope analyze --th | grep -qx -- '--threads=' || fail "complete --th"
# an optional value (--calls[=N]): the bare name, and "all" after its '='
complete_words reclaimscope replay --cal | grep -qx -- '--calls' || fail "complete replay --cal"
expect_eq "complete --calls=a" "$(complete_words reclaimscope replay --calls = a)" "all"

# install into a temporary prefix
make -s install PREFIX="$TMP/prefix" >"$TMP/install.log" 2>&1 || fail "make install: $(tail -n 3 "$TMP/install.log")"
[ -x "$TMP/prefix/bin/reclaimscope" ] || fail "install: no bin/reclaimscope"
[ -f "$TMP/prefix/share/bash-completion/completions/reclaimscope" ] || fail "install: no completion"
[ -f "$TMP/prefix/share/doc/reclaimscope/analyze.md" ] || fail "install: no docs"
for c in "" $cmds; do
	page="$TMP/prefix/share/man/man1/reclaimscope${c:+-$c}.1"
	[ -f "$page" ] || { fail "install: no $page"; continue; }
	man -l "$page" >/dev/null 2>&1 || fail "man -l $page"
done
finish
