#!/bin/bash
# fetch-qemu.sh - QEMU 10 (Debian 13 "trixie") for the VM lab's FDP guests, fetched and
# cached the way build-guest.sh fetches the guest kernel: a private apt tree (its own
# sources list, lists, package cache and an empty dpkg status, so apt resolves every
# dependency down to libc6) downloads qemu-system-x86 and what it needs from the Debian
# archive the host already uses, and `dpkg-deb -x` unpacks each package into one root.
# Nothing is installed on the host; QEMU runs through the root's own ld-linux
# (usr/lib64/ld-linux-x86-64.so.2) with
# --library-path, the firmware from the root's /usr/share (-L).
#
# Usage: fetch-qemu.sh [--print]    --print writes shell assignments:
#          VMLAB_QEMU10_ROOT VMLAB_QEMU10_VERSION
# Exit 0, 77 (cannot fetch here: the reason on stderr), 1 (a bug).
# Environment: BC_VMLAB_CACHE (as build-guest.sh), BC_VMLAB_QEMU_SUITE (default trixie),
# BC_VMLAB_DEBIAN_MIRROR (default: the host's Debian archive URI from its apt sources).
set -euo pipefail

if [ -n "${BC_VMLAB_CACHE:-}" ]; then
	CACHE=$BC_VMLAB_CACHE
elif [ "$(id -u)" = 0 ]; then
	CACHE=/var/cache/bench-coord-vmlab
else
	CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/bench-coord-vmlab
fi
SUITE=${BC_VMLAB_QEMU_SUITE:-trixie}
PRINT=0
[ "${1:-}" = "--print" ] && PRINT=1

skip() {
	echo "vmlab: skip: $*" >&2
	exit 77
}
die() {
	echo "vmlab: fetch-qemu: $*" >&2
	exit 1
}
say() {
	[ "$PRINT" = 1 ] || echo "vmlab: $*" >&2
}

command -v dpkg-deb >/dev/null || skip "dpkg-deb is missing (not a Debian host)"
command -v apt-get >/dev/null || skip "apt-get is missing (not a Debian host)"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$KEYRING" ] || skip "no $KEYRING (package debian-archive-keyring) to check the $SUITE archive"

# the archive the host's apt uses (deb822 "URIs:" or one-line "deb URI"), not its security mirror
s_mirror() {
	local f u
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		u=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p; s/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\{0,1\}\([^[:space:]]*\).*/\2/p' "$f" |
			grep -v -- '-security' | grep '/debian/\{0,1\}$' | head -n1 || true)
		if [ -n "$u" ]; then
			echo "${u%/}"
			return
		fi
	done
	echo http://deb.debian.org/debian
}
MIRROR=${BC_VMLAB_DEBIAN_MIRROR:-$(s_mirror)}

mkdir -p "$CACHE" || skip "cannot create the cache directory $CACHE"
exec {lockfd}>"$CACHE/.lock-qemu"
flock -w 900 "$lockfd" || skip "cannot lock $CACHE/.lock-qemu within 15 minutes"

QDIR="$CACHE/qemu/$SUITE"
if [ ! -s "$QDIR/VERSION" ]; then
	say "downloading qemu-system-x86 from $MIRROR $SUITE (not installed: extracted into $QDIR)"
	T="$QDIR.tmp"
	rm -rf "$T"
	mkdir -p "$T/etc/sources.list.d" "$T/etc/preferences.d" "$T/lists/partial" \
		"$T/cache/archives/partial" "$T/root"
	echo "deb [signed-by=$KEYRING] $MIRROR $SUITE main" >"$T/etc/sources.list"
	: >"$T/status"
	# as root apt drops to _apt for the download; let it write there
	chmod -R 0777 "$T/lists" "$T/cache"
	apt_t=(apt-get -q -o "Dir::Etc::sourcelist=$T/etc/sources.list"
		-o "Dir::Etc::sourceparts=$T/etc/sources.list.d" -o "Dir::Etc::preferencesparts=$T/etc/preferences.d"
		-o "Dir::State::Lists=$T/lists" -o "Dir::Cache=$T/cache" -o "Dir::State::status=$T/status"
		-o "Debug::NoLocking=1" -o "APT::Install-Recommends=0" -o "APT::Architecture=amd64"
		-o "APT::Architectures=amd64")
	if ! "${apt_t[@]}" update >"$T/apt.log" 2>&1 ||
		grep -q '^\(W\|E\): Failed to fetch' "$T/apt.log"; then
		tail -n 5 "$T/apt.log" >&2
		rm -rf "$T"
		skip "cannot reach the Debian archive $MIRROR ($SUITE) for QEMU 10"
	fi
	if ! "${apt_t[@]}" -y install --download-only qemu-system-x86 >>"$T/apt.log" 2>&1; then
		tail -n 5 "$T/apt.log" >&2
		rm -rf "$T"
		skip "cannot download qemu-system-x86 from $MIRROR ($SUITE)"
	fi
	for deb in "$T"/cache/archives/*.deb; do
		dpkg-deb -x "$deb" "$T/root" || die "dpkg-deb -x $deb failed"
	done
	q="$T/root/usr/bin/qemu-system-x86_64"
	[ -x "$q" ] || die "no qemu-system-x86_64 in the downloaded packages"
	# trixie is merged-/usr: the loader is in usr/lib64
	ver=$("$T/root/usr/lib64/ld-linux-x86-64.so.2" --library-path "$T/root/usr/lib/x86_64-linux-gnu" \
		"$q" --version | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')
	[ -n "$ver" ] || die "the downloaded qemu-system-x86_64 does not run"
	rm -rf "$T/cache" "$T/lists"
	echo "$ver" >"$T/VERSION"
	chmod 0755 "$T"
	rm -rf "$QDIR"
	mv "$T" "$QDIR"
fi
touch "$QDIR"
if [ "$PRINT" = 1 ]; then
	printf 'VMLAB_QEMU10_ROOT=%q\nVMLAB_QEMU10_VERSION=%q\n' "$QDIR/root" "$(cat "$QDIR/VERSION")"
else
	say "QEMU $(cat "$QDIR/VERSION") in $QDIR/root"
fi
