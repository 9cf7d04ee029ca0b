#!/bin/bash
# build-guest.sh - build (or find in the cache) the VM lab's guest: the Debian
# cloud kernel and the modules the lab loads, extracted from the package
# (downloaded with apt-get download, never installed), and initramfs pieces
# that the kernel unpacks one after the other (concatenated cpio archives):
#
#   base-<hash>.cpio.gz     busybox (static), /init, the modules, modules.dep
#   agent-<hash>.cpio.gz    bench-agent and its shared libraries (ldd), ld-linux
#   nodeexp-<hash>.cpio.gz  prometheus-node-exporter and its libraries (optional)
#   fio-<hash>.cpio.gz      the host's fio (Debian's fio package) and its libraries,
#                           only with BC_VMLAB_FIO=1 (bench/engine-vs-fio-vm.sh)
#
# vm.sh appends a per-guest piece (config, keys, setup script) and boots it.
# Everything lives under $BC_VMLAB_CACHE (default /var/cache/bench-coord-vmlab as
# root, else ~/.cache/bench-coord-vmlab);
# a piece is rebuilt only when its inputs change, so a second run does nothing.
#
# Usage: build-guest.sh [--print] [BUILD_DIR]    (BUILD_DIR holds bench-agent;
#        default $BC_BIN). --print writes shell assignments of the paths:
#          VMLAB_KERNEL VMLAB_KVER VMLAB_INITRD_BASE VMLAB_INITRD_AGENT
#          VMLAB_INITRD_NODEEXP (empty without prometheus-node-exporter)
#          VMLAB_INITRD_FIO (empty without fio; VMLAB_FIO_SKIP says why)
# Exit 0, 77 (cannot build here: the reason on stderr), 1 (a bug).
# Environment: BC_VMLAB_CACHE, BC_VMLAB_FIO (1: the fio piece too), BC_VMLAB_KERNEL_PKG
# (an exact package name, default: what linux-image-cloud-amd64 depends on).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
if [ -n "${BC_VMLAB_CACHE:-}" ]; then
	CACHE=$BC_VMLAB_CACHE
elif [ "$(id -u)" = 0 ]; then
	CACHE=/var/cache/bench-coord-vmlab
else
	CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/bench-coord-vmlab
fi
PRINT=0
if [ "${1:-}" = "--print" ]; then
	PRINT=1
	shift
fi
BIN=${1:-${BC_BIN:-}}

skip() {
	echo "vmlab: skip: $*" >&2
	exit 77
}
die() {
	echo "vmlab: build-guest: $*" >&2
	exit 1
}
say() {
	[ "$PRINT" = 1 ] || echo "vmlab: $*" >&2
}

[ -n "$BIN" ] || die "usage: build-guest.sh [--print] BUILD_DIR"
[ -x "$BIN/bench-agent" ] || die "no bench-agent in $BIN (build first)"
BUSYBOX=$(command -v busybox || true)
[ -n "$BUSYBOX" ] || skip "busybox is not installed (apt-get install busybox-static)"
command -v dpkg-deb >/dev/null || skip "dpkg-deb is missing (not a Debian host)"
command -v apt-get >/dev/null || skip "apt-get is missing (not a Debian host)"

mkdir -p "$CACHE" || skip "cannot create the cache directory $CACHE"
exec {lockfd}>"$CACHE/.lock"
flock -w 600 "$lockfd" || skip "cannot lock $CACHE/.lock within 10 minutes"

# ---- the kernel package ----

# the exact package name: given, else the cloud metapackage's dependency
pkg=${BC_VMLAB_KERNEL_PKG:-}
if [ -z "$pkg" ]; then
	pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-cloud-amd64\)$/\1/p' | head -n1 || true)
fi
if [ -z "$pkg" ]; then
	# offline: whatever kernel an earlier run left in the cache
	pkg=$(find "$CACHE/kernel" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null |
		sort -V | tail -n1 || true)
	[ -n "$pkg" ] || skip "no linux-image-*-cloud-amd64 package known to apt (run apt-get update) and none cached in $CACHE/kernel"
fi
KDIR="$CACHE/kernel/$pkg"
if [ ! -s "$KDIR/KVER" ]; then
	say "downloading $pkg (not installed: extracted into $KDIR)"
	rm -rf "$KDIR.tmp"
	mkdir -p "$KDIR.tmp/x"
	# as root apt drops to _apt for the download; let it write there
	chmod 0777 "$KDIR.tmp"
	if ! (cd "$KDIR.tmp" && apt-get download -q "$pkg" >/dev/null 2>apt.err); then
		cat "$KDIR.tmp/apt.err" >&2 || true
		rm -rf "$KDIR.tmp"
		skip "cannot download $pkg from the Debian mirror"
	fi
	dpkg-deb -x "$KDIR.tmp"/*.deb "$KDIR.tmp/x" || die "dpkg-deb -x failed"
	kver=$(ls "$KDIR.tmp/x/lib/modules" | head -n1)
	[ -n "$kver" ] && [ -f "$KDIR.tmp/x/boot/vmlinuz-$kver" ] || die "$pkg: no kernel in the package"
	mv "$KDIR.tmp/x/boot/vmlinuz-$kver" "$KDIR.tmp/vmlinuz"
	cp "$KDIR.tmp/x/boot/config-$kver" "$KDIR.tmp/config"
	mkdir -p "$KDIR.tmp/modules"
	mv "$KDIR.tmp/x/lib/modules/$kver" "$KDIR.tmp/modules/"
	rm -rf "$KDIR.tmp/x" "$KDIR.tmp"/*.deb "$KDIR.tmp/apt.err"
	echo "$kver" >"$KDIR.tmp/KVER"
	chmod 0755 "$KDIR.tmp"
	rm -rf "$KDIR"
	mv "$KDIR.tmp" "$KDIR"
fi
KVER=$(cat "$KDIR/KVER")
KMODS="$KDIR/modules/$KVER"
# kernels an apt upgrade replaced: gone after two unused weeks (~100 MB each)
touch "$KDIR"
find "$CACHE/kernel" -mindepth 1 -maxdepth 1 -type d ! -name "$pkg" -mtime +14 \
	-exec rm -rf {} + 2>/dev/null || true

# ---- helpers ----

# the modules the guest loads, with everything they depend on (.modinfo "depends=")
MODULES="virtio virtio_ring virtio_pci virtio_net virtio-rng configfs nvme-fabrics nvme-tcp
nvmet nvmet-tcp sch_tbf sch_netem"
declare -A MODPATH=()
s_index_modules() {
	local f n
	while IFS= read -r f; do
		n=$(basename "$f" .ko)
		MODPATH[$n]=${f#"$KMODS"/}
		MODPATH[${n//-/_}]=${f#"$KMODS"/}
	done < <(find "$KMODS/kernel" -name '*.ko')
}
declare -A MODWANT=()
s_want_module() {
	local m=$1 rel deps d
	rel=${MODPATH[$m]:-${MODPATH[${m//-/_}]:-}}
	[ -n "$rel" ] || return 0 # built in (or absent from this kernel)
	[ -z "${MODWANT[$rel]:-}" ] || return 0
	MODWANT[$rel]=1
	deps=$(tr '\0' '\n' <"$KMODS/$rel" | sed -n 's/^depends=//p' | head -n1)
	for d in ${deps//,/ }; do
		s_want_module "$d"
	done
}

# copy BIN and the shared libraries ldd names into STAGE, at the same paths
s_copy_with_libs() {
	local stage=$1 bin=$2 dest=$3 lib
	install -D -m 0755 "$bin" "$stage$dest"
	while IFS= read -r lib; do
		[ -n "$lib" ] || continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done < <(ldd "$bin" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p')
}

# an initramfs piece from a staged tree (busybox's cpio: the host may have none)
s_pack() {
	local stage=$1 out=$2
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | "$BUSYBOX" cpio -o -H newc 2>/dev/null) |
		gzip -1 >"$out.tmp"
	mv "$out.tmp" "$out"
}

s_hash() {
	sha256sum | cut -c1-16
}

# s_bin_piece NAME BIN DEST: the piece NAME-<hash>.cpio.gz holding BIN at DEST and its
# libraries, keyed by their contents, built when missing; prints its path
s_bin_piece() {
	local name=$1 bin=$2 dest=$3 key out
	key=$( (
		sha256sum "$bin"
		# a static binary: ldd fails and names nothing
		ldd "$bin" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p' | xargs -r sha256sum || true
	) | s_hash)
	out="$CACHE/guest/$name-$key.cpio.gz"
	if [ ! -s "$out" ]; then
		say "building $out"
		mkdir -p "$TMP/$name"
		s_copy_with_libs "$TMP/$name" "$bin" "$dest"
		s_pack "$TMP/$name" "$out"
	fi
	echo "$out"
}

mkdir -p "$CACHE/guest"
TMP=$(mktemp -d "$CACHE/guest/.stage.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# ---- base: busybox, /init, modules ----

base_key=$( (
	echo "$pkg $KVER $MODULES"
	sha256sum "$BUSYBOX" "$HERE/guest-init.sh" "$HERE/guest-exec.sh" "$0"
) | s_hash)
BASE="$CACHE/guest/base-$base_key.cpio.gz"
if [ ! -s "$BASE" ]; then
	say "building $BASE"
	s=$TMP/base
	mkdir -p "$s"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,var/tmp,mnt,root}
	mkdir -p "$s/lib/modules/$KVER" "$s/lib64"
	file -L "$BUSYBOX" | grep -q 'statically linked' ||
		s_copy_with_libs "$s" "$BUSYBOX" /bin/busybox
	install -m 0755 "$BUSYBOX" "$s/bin/busybox"
	for a in $("$BUSYBOX" --list); do
		[ "$a" = busybox ] || ln -sf busybox "$s/bin/$a"
	done
	install -m 0755 "$HERE/guest-init.sh" "$s/init"
	install -m 0755 "$HERE/guest-exec.sh" "$s/sbin/vmlab-exec"
	s_index_modules
	for m in $MODULES; do
		s_want_module "$m"
	done
	for rel in "${!MODWANT[@]}"; do
		install -D -m 0644 "$KMODS/$rel" "$s/lib/modules/$KVER/$rel"
	done
	cp "$KMODS"/modules.{order,builtin} "$s/lib/modules/$KVER/" 2>/dev/null || true
	"$BUSYBOX" depmod -b "$s" "$KVER" || die "depmod failed"
	echo "root:x:0:0:root:/root:/bin/sh" >"$s/etc/passwd"
	echo "root:x:0:" >"$s/etc/group"
	printf '127.0.0.1 localhost\n' >"$s/etc/hosts"
	s_pack "$s" "$BASE"
fi

# ---- agent: bench-agent and its libraries ----

AGENT=$(s_bin_piece agent "$BIN/bench-agent" /usr/bin/bench-agent)

# ---- node exporter (storage-node guests of the PoV) ----

NODEEXP=""
ne=$(command -v prometheus-node-exporter || true)
if [ -n "$ne" ]; then
	NODEEXP=$(s_bin_piece nodeexp "$ne" /usr/bin/prometheus-node-exporter)
fi

# ---- fio (the VM-lab comparison of the engine with fio) ----

# on demand only (its ~36 MB in the cache serve one script and one test); ~85 MB unpacked in
# the guest's RAM: Debian's fio links librbd, libgfapi, libnbd, RDMA and PMEM libraries, and
# each must be there for the dynamic loader even though the lab's jobs use io_uring alone
FIO=""
FIO_SKIP=""
fio_bin=$(command -v fio || true)
if [ "${BC_VMLAB_FIO:-}" != 1 ]; then
	FIO_SKIP="the fio piece was not asked for (BC_VMLAB_FIO=1)"
elif [ -z "$fio_bin" ]; then
	FIO_SKIP="fio is not installed on the host (apt-get install fio)"
elif ldd "$fio_bin" 2>/dev/null | grep -q 'not found'; then
	FIO_SKIP="$fio_bin: a shared library is missing ($(ldd "$fio_bin" | grep -m1 'not found' | xargs))"
else
	FIO=$(s_bin_piece fio "$fio_bin" /usr/bin/fio)
fi

# pieces nobody used lately (each is touched when used): every rebuild of bench-agent
# makes a new 6 MB agent piece, so those go after a day, the rest after two weeks
find "$CACHE/guest" -maxdepth 1 -name 'agent-*.cpio.gz' -mmin +1440 -delete 2>/dev/null || true
find "$CACHE/guest" -maxdepth 1 -name '*.cpio.gz' -mtime +14 -delete 2>/dev/null || true
touch "$BASE" "$AGENT" ${NODEEXP:+"$NODEEXP"} ${FIO:+"$FIO"}

if [ "$PRINT" = 1 ]; then
	printf 'VMLAB_KERNEL=%q\nVMLAB_KVER=%q\nVMLAB_INITRD_BASE=%q\nVMLAB_INITRD_AGENT=%q\nVMLAB_INITRD_NODEEXP=%q\n' \
		"$KDIR/vmlinuz" "$KVER" "$BASE" "$AGENT" "$NODEEXP"
	printf 'VMLAB_INITRD_FIO=%q\nVMLAB_FIO_SKIP=%q\n' "$FIO" "$FIO_SKIP"
else
	say "kernel $KDIR/vmlinuz ($KVER)"
	say "initramfs pieces: $BASE $AGENT ${NODEEXP:-(no node exporter)} ${FIO:-(no fio: $FIO_SKIP)}"
fi
