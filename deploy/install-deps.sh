#!/bin/sh
# install-deps.sh - install bench-coord's build and test dependencies from the
# system package manager. Idempotent: when everything is present it prints
# nothing and touches nothing.
#
# Debian/Ubuntu (required, tested on Debian 12):
#   build: build-essential cmake pkg-config libczmq-dev libzmq3-dev
#          liburing-dev libcjson-dev libcurl4-openssl-dev zlib1g-dev
#   test:  fio iproute2 util-linux (losetup) python3-six (fio_jsonplus_clat2csv)
#          e2fsprogs (mkfs.ext4 in the multihost loop-device test)
#          clang libclang-rt-dev (libFuzzer + ASan/UBSan for tests/fuzz; the
#          fuzz tests skip without them)
#          python3-yaml ansible-core (test_deploy_syntax: manifests and
#          playbooks; ansible-core is ~8 MB installed, not the 250 MB "ansible")
#   with --test also: chromium (renders report.html in test_e2e_report_html and
#          test_e2e_report_render; several hundred MB with its libraries, so only
#          for test runs - the tests skip without it); poppler-utils (pdfinfo and
#          pdftoppm: the report printed to PDF, its pages drawn); prometheus-node-exporter and prometheus (the
#          node counter tests start their own on loopback ports and skip
#          without them; note that on a host with systemd the packages also
#          start their services on :9100 and :9090); qemu-system-x86 and
#          busybox-static (the vmlab tests boot guests; the guest kernel is
#          downloaded into a cache at test time, see docs/vmlab.md); lintian
#          (test_package_deb checks the .deb; it skips without it), mandoc (the
#          man page linter of test_man_pages; groff serves otherwise) and rpm
#          (rpmbuild: CPack then also makes the .rpm), clang-format (test_format
#          checks the tree against .clang-format)
# Fedora/RHEL (names listed, not exercised by CI):
#   build: gcc make cmake pkgconf-pkg-config czmq-devel zeromq-devel
#          liburing-devel cjson-devel libcurl-devel zlib-devel
#   test:  fio iproute util-linux python3-six; with --test also chromium
set -eu

DEB_PKGS="build-essential cmake pkg-config libczmq-dev libzmq3-dev liburing-dev
libcjson-dev libcurl4-openssl-dev zlib1g-dev fio iproute2 util-linux python3-six e2fsprogs
clang libclang-rt-dev python3-yaml ansible-core"
RPM_PKGS="gcc make cmake pkgconf-pkg-config czmq-devel zeromq-devel
liburing-devel cjson-devel libcurl-devel zlib-devel fio iproute util-linux python3-six e2fsprogs
clang compiler-rt python3-pyyaml ansible-core"
if [ "${1:-}" = "--test" ]; then
	DEB_PKGS="$DEB_PKGS chromium poppler-utils prometheus-node-exporter prometheus qemu-system-x86"
	DEB_PKGS="$DEB_PKGS lintian mandoc rpm clang-format"
	# the vmlab guests' userland; an installed (dynamic) busybox serves too, and
	# busybox-static would replace it
	command -v busybox >/dev/null 2>&1 || DEB_PKGS="$DEB_PKGS busybox-static"
	RPM_PKGS="$RPM_PKGS chromium poppler-utils"
	# the live panel's 80x24 test (test_e2e_live_tty) draws into a tmux pane
	DEB_PKGS="$DEB_PKGS tmux"
	RPM_PKGS="$RPM_PKGS tmux"
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	SUDO="sudo"
fi

if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
	missing=""
	for p in $DEB_PKGS; do
		st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		case "$st" in
		*"install ok installed"*) ;;
		*) missing="$missing $p" ;;
		esac
	done
	[ -z "$missing" ] && exit 0
	echo "install-deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
elif command -v dnf >/dev/null 2>&1; then
	missing=""
	for p in $RPM_PKGS; do
		rpm -q "$p" >/dev/null 2>&1 || missing="$missing $p"
	done
	[ -z "$missing" ] && exit 0
	echo "install-deps: installing:$missing"
	# shellcheck disable=SC2086
	$SUDO dnf install -y -q $missing
else
	echo "install-deps: unsupported package manager; install:" >&2
	echo "  $DEB_PKGS" >&2
	exit 1
fi
