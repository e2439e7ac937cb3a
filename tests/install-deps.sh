#!/bin/sh
# Install the Debian packages reclaimscope needs, those that are missing only.
# Usage: install-deps.sh PKG...   (called by `make deps`, `make run`, `make check`)
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "reclaimscope: missing Debian packages:$missing" >&2
	echo "reclaimscope: run 'sudo make deps' or 'sudo apt-get install$missing'" >&2
	exit 1
fi
echo "reclaimscope: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || { echo "reclaimscope: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	{ echo "reclaimscope: apt-get install$missing failed" >&2; exit 1; }
