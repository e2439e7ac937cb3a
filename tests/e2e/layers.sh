#!/bin/sh
# The rooms' include graph (issue 14): the pipeline reads one way, parsers -> models ->
# analyzer -> cmd, so no file includes a header of a later layer (a public header in include/
# belongs to the layer of the .c file of its name, when one file has that name); and no
# file-level include circle. Reads the sources only: no build needed.
. tests/lib-e2e.sh

find analyzer parsers models cmd include -name '*.[ch]' | sort >"$TMP/files"
[ -s "$TMP/files" ] || { fail "no sources found"; finish; }
# "FROM TO" for every #include "..." that names a file of the tree: beside FROM, else
# include/NAME, else the only file with that base name
while IFS= read -r f; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while IFS= read -r inc; do echo "$f $inc"; done
done <"$TMP/files" >"$TMP/raw"
awk 'NR == FNR { have[$1] = 1; n = split($1, p, "/"); base[p[n]] = base[p[n]] ? "-" : $1; next }
	{
		dir = $1; sub(/\/[^\/]*$/, "", dir)
		t = dir "/" $2
		while (t ~ /\/[^\/.][^\/]*\/\.\.\//)
			sub(/\/[^\/.][^\/]*\/\.\.\//, "/", t)
		if (!(t in have)) t = "include/" $2
		if (!(t in have)) { n = split($2, p, "/"); t = base[p[n]] }
		if (t != "" && t != "-") print $1, t
	}' "$TMP/files" "$TMP/raw" >"$TMP/edges"
[ -s "$TMP/edges" ] || fail "no includes resolved"

# layers
awk 'BEGIN { L["parsers"] = 0; L["models"] = 1; L["analyzer"] = 2; L["cmd"] = 3 }
	NR == FNR {
		split($1, p, "/")
		if (p[1] != "include") {
			layer[$1] = L[p[1]]
			n = split($1, q, "/"); b = q[n]; sub(/\.c$/, "", b)
			if ($1 ~ /\.c$/) impl[b] = impl[b] == "" ? L[p[1]] : "-"
		}
		next
	}
	{
		lf = lay($1); lt = lay($2)
		if (lf != "" && lt != "" && lt + 0 > lf + 0)
			printf "%s includes %s, of a later layer\n", $1, $2
	}
	function lay(f,    n, q, b) {
		if (f in layer) return layer[f]
		n = split(f, q, "/"); b = q[n]; sub(/\.h$/, "", b)
		return (b in impl) && impl[b] != "-" ? impl[b] : ""
	}' "$TMP/files" "$TMP/edges" >"$TMP/layer_bad"
[ -s "$TMP/layer_bad" ] && fail "layering: $(cat "$TMP/layer_bad")"

# file-level circles: a depth-first walk from every file
awk '{ out[$1] = out[$1] " " $2 }
	function walk(f,    n, i, t, k) {
		state[f] = 1
		stack[++depth] = f
		n = split(out[f], t, " ")
		for (i = 1; i <= n; i++) {
			if (state[t[i]] == 1) {
				s = ""
				for (k = depth; k >= 1 && stack[k] != t[i]; k--)
					s = stack[k] " -> " s
				print t[i] " -> " s t[i]
			} else if (!state[t[i]])
				walk(t[i])
		}
		depth--
		state[f] = 2
	}
	END { for (f in out) if (!state[f]) walk(f) }' "$TMP/edges" >"$TMP/circles"
[ -s "$TMP/circles" ] && fail "include circles: $(cat "$TMP/circles")"

echo "$(wc -l <"$TMP/files") files, $(wc -l <"$TMP/edges") includes checked"
finish
