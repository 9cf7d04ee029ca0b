#!/bin/bash
# vm.sh - the VM lab by hand, for dry runs: boot one guest (emulated NVMe, bench-agent over
# CURVE, forwarded ports on 127.0.0.1) and keep it up until Ctrl-C, or run the PoV in a box.
#
#   vm.sh guest [--fdp] [--ns LBS:SIZE[:DRIVE_OPTS]]... [--mem MB] [--node-exporter] [--name NAME]
#       default: --ns 512:256M --ns 4096:256M. --fdp: QEMU 10, the controller in an FDP
#       subsystem (8 handles, 1 MiB reclaim units, OCP log), default --ns 4096:256M.
#       Prints the agent's endpoint and key, writes a profile for it and the coordinator's
#       known_hosts, then reads shell lines from stdin and runs each in the guest (the
#       command channel) until EOF or Ctrl-C.
#       e.g. --ns 4096:1G:throttling.bps-total=10485760 for a 10 MB/s drive
#   vm.sh pov
#       the PoV in a box (tests/vmlab/test_vmlab_pov.sh), its directory kept afterwards
#
# BC_BIN: the build directory (default <repo>/build); the guest pieces are cached under
# $BC_VMLAB_CACHE (default /var/cache/bench-coord-vmlab). See docs/vmlab.md.
set -euo pipefail
BC_SRC=${BC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
BC_BIN=${BC_BIN:-$BC_SRC/build}
export BC_SRC BC_BIN

usage() {
	sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

cmd=${1:-}
[ -n "$cmd" ] || usage
shift
case $cmd in
pov)
	VMLAB_KEEP=1 exec bash "$BC_SRC/tests/vmlab/test_vmlab_pov.sh"
	;;
guest) ;;
*) usage ;;
esac

NS=() MEM=512 NE=0 NAME=g1 FDP=0
while [ $# -gt 0 ]; do
	case $1 in
	--ns) NS+=("$2"); shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	--node-exporter) NE=1; shift ;;
	--name) NAME=$2; shift 2 ;;
	--fdp) FDP=1; shift ;;
	*) usage ;;
	esac
done
if [ ${#NS[@]} = 0 ] && [ "$FDP" = 1 ]; then
	NS=(4096:256M)
elif [ ${#NS[@]} = 0 ]; then
	NS=(512:256M 4096:256M)
fi

. "$BC_SRC/tests/vmlab/lib.sh"
vmlab_init
vm_new "$NAME" "$MEM"
[ "$NE" = 1 ] && vm_conf "$NAME" VM_NODE_EXPORTER=1
[ "$FDP" = 1 ] && vm_fdp "$NAME"
for spec in "${NS[@]}"; do
	IFS=: read -r lbs size opts <<<"$spec"
	vm_ns "$NAME" "$lbs" "$size" "$opts"
done
vm_boot "$NAME"
vm_wait "$NAME"

vols="" i=0
for spec in "${NS[@]}"; do
	i=$((i + 1))
	vols="$vols${vols:+, }{\"agent\": \"$NAME\", \"path\": \"/dev/nvme0n$i\"}"
done
cat >"$VT/profile.json" <<JSON
{"name": "vmlab-dry-run",
 "agents": [{"name": "$NAME", "endpoint": "${VM_EP[$NAME]}", "server_key": "${VM_KEY[$NAME]}"}],
 "volumes": [$vols],
 "defaults": {"direct": true, "ramp": "2s", "runtime": "10s"},
 "steps": [{"name": "randrw-4k", "rw": "randrw", "bs": "4k", "iodepth": 16}]}
JSON
cat <<EOF
guest $NAME is up (QEMU pid ${VM_PID[$NAME]}, console $VT/$NAME/console.log)
  agent:      ${VM_EP[$NAME]}  server_key ${VM_KEY[$NAME]}
  metrics:    ${VM_METRICS[$NAME]} $([ "$NE" = 1 ] || echo "(node_exporter off: --node-exporter)")
  a profile:  $VT/profile.json
  run it:     XDG_CONFIG_HOME=$XDG_CONFIG_HOME $COORD run $VT/profile.json
Lines typed here run in the guest; Ctrl-D or Ctrl-C stops it.
EOF
while IFS= read -r -p "$NAME# " line; do
	[ -n "$line" ] || continue
	vm_exec "$NAME" "$line" || echo "(exit $?)"
done
echo
