#!/bin/bash
# vmlab-stall.sh - how often the VM lab's emulated NVMe controller holds commands without
# completing them (the guest kernel's 30 s nvme io_timeout then aborts them), on the host's
# QEMU or on QEMU 10. One guest, both namespaces, STEPS randrw runs of SECONDS each through
# a real bench-coord run; after each run the guest's kernel log is read for I/O timeouts.
# Prints `name: value` lines: qemu, steps, io_seconds, failed_runs, timeout_lines,
# stalled_runs, stalls_per_1000_io_seconds.
#
#   STALL_STEPS=10 STALL_SECONDS=10 bash bench/vmlab-stall.sh            # host QEMU (7.2)
#   VMLAB_QEMU=10 STALL_STEPS=10 STALL_SECONDS=10 bash bench/vmlab-stall.sh
# Needs a build (BC_BIN, default ./build) and what the VM lab needs (docs/vmlab.md).
set -euo pipefail
BC_SRC=${BC_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
BC_BIN=${BC_BIN:-$BC_SRC/build}
export BC_SRC BC_BIN
STEPS=${STALL_STEPS:-10}
SECS=${STALL_SECONDS:-10}
. "$BC_SRC/tests/vmlab/lib.sh"
vmlab_init

vm_new g1
vm_ns g1 512 64M
vm_ns g1 4096 64M
vm_boot g1
vm_wait g1

cat >"$VT/p.json" <<JSON
{"name": "vmlab-stall",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "path": "/dev/nvme0n1"}, {"agent": "g1", "path": "/dev/nvme0n2"}],
 "defaults": {"direct": true, "ramp": "1s", "runtime": "${SECS}s"},
 "steps": [{"name": "randrw-4k", "rw": "randrw", "bs": "4k", "iodepth": 8}]}
JSON
failed=0 stalled=0 prev=0
for i in $(seq "$STEPS"); do
	"$COORD" run --plain -o "$VT/out" "$VT/p.json" >"$VT/run$i.out" 2>&1 || failed=$((failed + 1))
	n=$(vm_exec g1 'dmesg | grep -c "timeout" || true')
	[ "$n" -gt "$prev" ] && stalled=$((stalled + 1))
	echo "run $i: timeout lines so far $n" >&2
	prev=$n
done
echo "qemu: ${VMLAB_QEMU:-host $(qemu-system-x86_64 --version | head -n1 | awk '{print $4}')}"
echo "steps: $STEPS"
echo "io_seconds: $((STEPS * SECS))"
echo "failed_runs: $failed"
echo "timeout_lines: $prev"
echo "stalled_runs: $stalled"
python3 -c "print('stalls_per_1000_io_seconds: %.1f' % (1000.0 * $stalled / ($STEPS * $SECS)))"
