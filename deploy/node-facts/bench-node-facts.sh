#!/bin/sh
# bench-node-facts.sh - what node_exporter does not export about a storage node, as Prometheus
# text for node_exporter's textfile collector: NUMA nodes, each NIC's NUMA node, each bond's
# mode, transmit hash policy, links and links carrying traffic, where the storage processes may
# run (their CPUs and those CPUs' NUMA nodes), storage software versions and NVMe firmware.
# bench-coord reads these beside node_exporter's own series and judges NUMA placement, bond
# mode and versions with them (docs/verdict.md).
#
#   bench-node-facts.sh [--process NAME]... [--package NAME]... [--version NAME=VERSION]...
#                       [--output FILE] [--root DIR]
#
# --process NAME   a storage process by its /proc/PID/comm (the first one found)
# --package NAME   its version from the dpkg status file, else from rpm
# --version N=V    a version given by hand (e.g. from the vendor's CLI)
# --output FILE    written atomically (a temporary file renamed), as the textfile collector needs;
#                  e.g. /var/lib/prometheus/node-exporter/bench-node-facts.prom, run from cron or
#                  a systemd timer every minute; default: standard output
# --root DIR       read sysfs, procfs and the dpkg status under DIR (tests use fixture trees)
#
# Reads only; needs no root. POSIX sh, awk, sed.
set -u

ROOT=""
OUT=""
PROCS=""
PKGS=""
VERS=""
while [ $# -gt 0 ]; do
	case "$1" in
	--process) PROCS="$PROCS
$2"; shift 2 ;;
	--package) PKGS="$PKGS
$2"; shift 2 ;;
	--version) VERS="$VERS
$2"; shift 2 ;;
	--output) OUT="$2"; shift 2 ;;
	--root) ROOT="${2%/}"; shift 2 ;;
	-h | --help) sed -n '2,22p' "$0"; exit 0 ;;
	*) echo "bench-node-facts.sh: unknown option $1 (--help)" >&2; exit 2 ;;
	esac
done

# a label value: backslash, double quote and newline escaped
esc() {
	printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr '\n' ' ' | sed 's/ *$//'
}

# the first word of a sysfs file, "" when absent
first() {
	[ -r "$1" ] && awk 'NR == 1 { print $1; exit }' "$1" 2>/dev/null
}

# the whole first line, trimmed
line() {
	[ -r "$1" ] && sed -n '1{s/^[[:space:]]*//;s/[[:space:]]*$//;p;q;}' "$1" 2>/dev/null
}

# "0-3,8" -> "0 1 2 3 8"
expand() {
	echo "$1" | tr ',' '\n' | awk -F- 'NF == 1 && $1 != "" { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }'
}

# the NUMA nodes ("0,1") of a CPU list, from each node's cpulist
cpus_nodes() {
	want=$(expand "$1")
	res=""
	for d in "$ROOT"/sys/devices/system/node/node[0-9]*; do
		[ -d "$d" ] || continue
		n=${d##*node}
		have=$(expand "$(line "$d/cpulist")")
		for c in $want; do
			if echo "$have" | grep -qx "$c"; then
				res="$res${res:+,}$n"
				break
			fi
		done
	done
	echo "$res"
}

emit() {
	echo "# HELP bench_node_numa_nodes NUMA nodes on this host (sysfs)."
	echo "# TYPE bench_node_numa_nodes gauge"
	if [ -d "$ROOT/sys/devices/system/node" ]; then
		n=0
		for d in "$ROOT"/sys/devices/system/node/node[0-9]*; do [ -d "$d" ] && n=$((n + 1)); done
		[ "$n" -gt 0 ] || n=1
		echo "bench_node_numa_nodes $n"
	fi
	echo "# HELP bench_node_nic_numa_node The NUMA node of a NIC's PCI device (-1: none)."
	echo "# TYPE bench_node_nic_numa_node gauge"
	for d in "$ROOT"/sys/class/net/*; do
		[ -e "$d/device/numa_node" ] || continue
		v=$(first "$d/device/numa_node")
		echo "bench_node_nic_numa_node{device=\"$(esc "${d##*/}")\"} ${v:--1}"
	done
	echo "# HELP bench_node_bond_info A bond's mode, transmit hash policy and links."
	echo "# TYPE bench_node_bond_info gauge"
	echo "# HELP bench_node_bond_active_members A bond's links carrying traffic (802.3ad: in the active aggregator)."
	echo "# TYPE bench_node_bond_active_members gauge"
	for d in "$ROOT"/sys/class/net/*; do
		[ -d "$d/bonding" ] || continue
		b=${d##*/}
		mode=$(first "$d/bonding/mode")
		hash=$(first "$d/bonding/xmit_hash_policy")
		slaves=$(line "$d/bonding/slaves")
		echo "bench_node_bond_info{bond=\"$(esc "$b")\",mode=\"$(esc "$mode")\",xmit_hash_policy=\"$(esc "$hash")\",members=\"$(esc "$(echo "$slaves" | tr -s ' ' ',')")\"} 1"
		if [ "$mode" = "802.3ad" ] && [ -r "$d/bonding/ad_num_ports" ]; then
			active=$(first "$d/bonding/ad_num_ports")
		elif [ "$mode" = "active-backup" ]; then
			active=0
			[ -n "$(line "$d/bonding/active_slave")" ] && active=1
		else
			active=0
			for s in $slaves; do
				[ "$(first "$ROOT/sys/class/net/$s/operstate")" = "up" ] && active=$((active + 1))
			done
		fi
		echo "bench_node_bond_active_members{bond=\"$(esc "$b")\"} ${active:-0}"
	done
	echo "# HELP bench_node_process_info Where a storage process may run: its CPUs and their NUMA nodes."
	echo "# TYPE bench_node_process_info gauge"
	echo "$PROCS" | while IFS= read -r p; do
		[ -n "$p" ] || continue
		for d in "$ROOT"/proc/[0-9]*; do
			[ "$(line "$d/comm")" = "$p" ] || continue
			cpus=$(awk -F':[ \t]*' '$1 == "Cpus_allowed_list" { print $2 }' "$d/status" 2>/dev/null)
			echo "bench_node_process_info{process=\"$(esc "$p")\",cpus=\"$(esc "$cpus")\",numa_nodes=\"$(cpus_nodes "$cpus")\"} 1"
			break
		done
	done
	echo "# HELP bench_node_software_info A storage software version."
	echo "# TYPE bench_node_software_info gauge"
	echo "$PKGS" | while IFS= read -r p; do
		[ -n "$p" ] || continue
		v=""
		if [ -r "$ROOT/var/lib/dpkg/status" ]; then
			v=$(awk -v p="$p" '/^Package: / { cur = $2 } cur == p && /^Version: / { print $2; exit }' \
				"$ROOT/var/lib/dpkg/status")
		fi
		if [ -z "$v" ] && [ -z "$ROOT" ] && command -v rpm >/dev/null 2>&1; then
			v=$(rpm -q --qf '%{VERSION}-%{RELEASE}' "$p" 2>/dev/null) || v=""
		fi
		[ -n "$v" ] && echo "bench_node_software_info{name=\"$(esc "$p")\",version=\"$(esc "$v")\"} 1"
	done
	echo "$VERS" | while IFS= read -r nv; do
		[ -n "$nv" ] || continue
		echo "bench_node_software_info{name=\"$(esc "${nv%%=*}")\",version=\"$(esc "${nv#*=}")\"} 1"
	done
	echo "# HELP bench_node_nvme_info An NVMe controller's model and firmware revision."
	echo "# TYPE bench_node_nvme_info gauge"
	for d in "$ROOT"/sys/class/nvme/nvme*; do
		[ -r "$d/firmware_rev" ] || continue
		echo "bench_node_nvme_info{device=\"$(esc "${d##*/}")\",model=\"$(esc "$(line "$d/model")")\",firmware=\"$(esc "$(line "$d/firmware_rev")")\"} 1"
	done
}

if [ -z "$OUT" ]; then
	emit
	exit 0
fi
tmp="$OUT.$$.tmp"
if emit >"$tmp"; then
	mv -f "$tmp" "$OUT"
else
	rm -f "$tmp"
	exit 1
fi
