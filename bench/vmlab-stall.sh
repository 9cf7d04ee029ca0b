#!/bin/bash
# vmlab-stall.sh - how often the VM lab's emulated NVMe controller holds commands without
# completing them (the guest kernel's 30 s nvme io_timeout then aborts them), on the host's
# QEMU or on QEMU 10. One guest, both namespaces, STEPS randrw runs of SECONDS each through
# a real bench-coord run; after each run the guest's kernel log is read for I/O timeouts.
# STALL_TCP=1: the I/O goes through the guest's own NVMe/TCP target and host instead
# (nvmet exports nvme0n2 on the guest's address, nvme-tcp attaches it as nvme1n1, as
# test_vmlab_nvme_tcp_target does), the path on which CI met the stall.
# Prints `name: value` lines: qemu, path, steps, io_seconds, failed_runs, timeout_lines,
# stalled_runs, stalls_per_1000_io_seconds.
#
#   STALL_TCP=1 STALL_STEPS=30 STALL_SECONDS=10 bash bench/vmlab-stall.sh   # QEMU 10 (the lab's)
#   VMLAB_QEMU=host STALL_TCP=1 STALL_STEPS=30 bash bench/vmlab-stall.sh    # the host's (7.2)
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
VOLS='{"agent": "g1", "path": "/dev/nvme0n1"}, {"agent": "g1", "path": "/dev/nvme0n2"}'
if [ "${STALL_TCP:-0}" = 1 ]; then
	NQN=nqn.2026-11.io.bench-coord:vmlab-stall
	vm_setup g1 "$(nvmet_export_sh "$NQN" /dev/nvme0n2 10.0.2.15)"
	vm_setup g1 "$(nvme_connect_sh "$NQN" 10.0.2.15)"
	VOLS='{"agent": "g1", "path": "/dev/nvme1n1", "length": "32m"}'
fi
vm_boot g1
vm_wait g1
if [ "${STALL_TCP:-0}" = 1 ]; then
	for _ in $(seq 50); do
		vm_exec g1 '[ -b /dev/nvme1n1 ]' && break
		sleep 0.2
	done
fi

cat >"$VT/p.json" <<JSON
{"name": "vmlab-stall",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [$VOLS],
 "defaults": {"direct": true, "ramp": "1s", "runtime": "${SECS}s"},
 "steps": [{"name": "randrw-4k", "rw": "randrw", "bs": "4k", "iodepth": 8}]}
JSON
failed=0 stalled=0 prev=0
for i in $(seq "$STEPS"); do
	if ! "$COORD" run --plain -o "$VT/out" "$VT/p.json" >"$VT/run$i.out" 2>&1; then
		failed=$((failed + 1))
		[ "$failed" = 1 ] && grep -E "error|FAILED" "$VT/run$i.out" | head -n 5 >&2
	fi
	n=$(vm_exec g1 'dmesg | grep -c "timeout" || true')
	[ "$n" -gt "$prev" ] && [ "$stalled" = 0 ] && vm_exec g1 'dmesg | grep timeout | head -n 4' >&2
	[ "$n" -gt "$prev" ] && stalled=$((stalled + 1))
	echo "run $i: timeout lines so far $n" >&2
	prev=$n
done
if [ "${VMLAB_QEMU:-10}" = host ]; then
	echo "qemu: host $(qemu-system-x86_64 --version | head -n1 | awk '{print $4}')"
else
	echo "qemu: ${VMLAB_QEMU10_VERSION:-host (QEMU 10 could not be fetched)}"
fi
echo "path: $([ "${STALL_TCP:-0}" = 1 ] && echo nvme-tcp || echo pcie)"
echo "steps: $STEPS"
echo "io_seconds: $((STEPS * SECS))"
echo "failed_runs: $failed"
echo "timeout_lines: $prev"
echo "stalled_runs: $stalled"
python3 -c "print('stalls_per_1000_io_seconds: %.1f' % (1000.0 * $stalled / ($STEPS * $SECS)))"
