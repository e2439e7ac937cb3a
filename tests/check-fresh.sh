#!/bin/sh
# `make check-fresh`: the README's two commands on a new machine. Builds a minimal Debian 12 root
# (debootstrap --variant=minbase bookworm, then only git and make), clones the current commit
# into it and runs `make run` and `make check` there (chroot, as root, no stdin), printing each
# one's exit status and time. Nothing else is installed by hand: `make deps` must do the rest.
#
# Root only. Installs debootstrap with apt-get when it is missing. The Debian mirror is the one
# this machine's own apt sources use (RS_FRESH_MIRROR=URL overrides it). The root is built under
# RS_FRESH_DIR (default /var/tmp) and removed at the end unless RS_FRESH_KEEP=1. Downloaded
# .debs are kept in RS_FRESH_CACHE (default /var/cache/reclaimscope-fresh) for the next run; the
# root itself is always new. RS_E2E_RECORD_LOCK (see tests/e2e/record.sh) is passed on, the
# lock file bind-mounted into the root, so the record test inside serializes with the host's.
# Exit status: 0 when both commands exit 0, 1 otherwise, 2 when the root could not be built.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
SUITE=bookworm
say() { echo "check-fresh: $*"; }
die() { say "$*" >&2; exit 2; }

[ "$(id -u)" = 0 ] || die "must be run as root (debootstrap, chroot, mounts)"
commit=$(git -C "$TOP" rev-parse HEAD) || die "$TOP is not a git checkout"
[ -z "$(git -C "$TOP" status --porcelain --untracked-files=no)" ] ||
	say "note: uncommitted changes in $TOP are not tested (the root gets commit $commit)"

if ! command -v debootstrap >/dev/null 2>&1; then
	say "installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null ||
		die "cannot install debootstrap with apt-get"
fi

# The mirror: from the machine's apt sources, one-line (.list) and deb822 (.sources) forms. A
# source of suite bookworm first, else of any plain suite (no -security, -updates...).
mirror_from_sources() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		 /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		case $f in
		*.sources) awk '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && enabled != "no" && uris != "")
					for (i = 1; i <= ns; i++) print s[i], u[1]
				types = uris = enabled = ""; ns = 0
			}
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			{ k = tolower($1); sub(/:$/, "", k); $1 = "" }
			k == "types" { types = $0 }
			k == "uris" { uris = $0; split($0, u, " ") }
			k == "suites" { ns = split($0, s, " ") }
			k == "enabled" { enabled = $2 }
			END { flush() }' "$f" ;;
		*) awk '$1 == "deb" {
				i = 2
				if ($2 ~ /^\[/) while (i <= NF && $i !~ /\]$/) i++
				if ($2 ~ /^\[/) i++
				print $(i + 1), $i
			}' "$f" ;;
		esac
	done | awk -v want="$SUITE" '
		$1 == want { print $2; found = 1; exit }
		$1 !~ /-/ && $2 !~ /security/ && first == "" { first = $2 }
		END { if (!found && first != "") print first }' | head -n 1
}
MIRROR=${RS_FRESH_MIRROR:-$(mirror_from_sources)}
[ -n "$MIRROR" ] || die "no Debian mirror in /etc/apt/sources*; set RS_FRESH_MIRROR=URL"

CACHE=${RS_FRESH_CACHE:-/var/cache/reclaimscope-fresh}
mkdir -p "$CACHE" || die "cannot create $CACHE"
ROOT=$(mktemp -d "${RS_FRESH_DIR:-/var/tmp}/rs-fresh.XXXXXX") || die "cannot create the root"
LOG=$ROOT.log
mounted() { awk -v r="$ROOT" '{ gsub(/\\040/, " ", $2) } $2 == r || index($2, r "/") == 1' \
	/proc/self/mounts; }
cleanup() {
	[ -d "$ROOT" ] || return
	# every mount under the root, deepest first
	mounted | awk '{ print $2 }' | sort -r | while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	if [ -n "$(mounted)" ]; then
		say "still mounted under $ROOT, not removed:"
		mounted
		return
	fi
	if [ "${RS_FRESH_KEEP:-0}" = 1 ]; then
		say "root kept in $ROOT"
	else
		rm -rf --one-file-system "$ROOT"
	fi
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

say "commit $commit, mirror $MIRROR, root $ROOT (log $LOG)"
t0=$(date +%s)
debootstrap --variant=minbase --cache-dir="$CACHE" "$SUITE" "$ROOT" "$MIRROR" >"$LOG" 2>&1 ||
	{ tail -n 20 "$LOG"; die "debootstrap failed (log $LOG)"; }
say "debootstrap: $(($(date +%s) - t0)) s"

cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null
mount --rbind /proc "$ROOT/proc" && mount --make-rslave "$ROOT/proc" &&
mount --rbind /sys "$ROOT/sys" && mount --make-rslave "$ROOT/sys" &&
mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev" ||
	die "cannot bind-mount /proc, /sys, /dev into $ROOT"
# a booted Debian has tracefs mounted (systemd does it); the bind mount of /sys carries the
# host's when it has one
if ! awk -v d="$ROOT/sys/kernel/tracing" '$3 == "tracefs" && $2 == d { f = 1 } END { exit !f }' \
	/proc/self/mounts; then
	mount -t tracefs nodev "$ROOT/sys/kernel/tracing" 2>/dev/null ||
		say "note: cannot mount tracefs in the root; the record test will say so"
fi
env_lock=""
if [ -n "${RS_E2E_RECORD_LOCK:-}" ]; then
	touch "$RS_E2E_RECORD_LOCK" && mkdir -p "$ROOT/run/rs-lock" &&
		touch "$ROOT/run/rs-lock/record.lock" &&
		mount --bind "$RS_E2E_RECORD_LOCK" "$ROOT/run/rs-lock/record.lock" ||
		die "cannot bind-mount $RS_E2E_RECORD_LOCK into the root"
	env_lock="RS_E2E_RECORD_LOCK=/run/rs-lock/record.lock"
fi

# in_root CMD: a login-like clean environment, no stdin (as CI runs)
in_root() {
	# shellcheck disable=SC2086  # env_lock is one assignment or none
	chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root $env_lock /bin/sh -c "$1" </dev/null
}
t0=$(date +%s)
in_root 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
	apt-get install -y -qq --no-install-recommends git make' >>"$LOG" 2>&1 ||
	{ tail -n 20 "$LOG"; die "cannot install git and make in the root (log $LOG)"; }
say "git and make installed: $(($(date +%s) - t0)) s"
git clone -q --no-hardlinks "$TOP" "$ROOT/root/reclaimscope" &&
	git -C "$ROOT/root/reclaimscope" checkout -q --detach "$commit" ||
	die "cannot clone $TOP into the root"
say "root has $(chroot "$ROOT" dpkg-query -W -f '.\n' | wc -l) packages; cloned $commit"

r=0
for c in run check; do
	say "make $c ..."
	t0=$(date +%s)
	in_root "cd /root/reclaimscope && make $c" >"$ROOT.$c.log" 2>&1
	s=$?
	t=$(($(date +%s) - t0))
	tail -n 25 "$ROOT.$c.log" | sed "s/^/  $c | /"
	say "make $c: exit $s, $t s (log $ROOT.$c.log)"
	[ "$s" -eq 0 ] || r=1
done
exit $r
