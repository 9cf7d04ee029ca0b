#!/bin/bash
# test_vmlab_safety_mounted: the agent's device safety against the real kernel NVMe driver.
# The guest makes an ext2 filesystem on nvme0n2 (busybox mke2fs; the cloud kernel's ext4
# driver mounts it) and mounts it. A write step to /dev/nvme0n2 is refused before any I/O,
# naming the device and the mount point; so is one to its passthrough char device /dev/ng0n2
# (which bypasses the block layer's claim: the agent checks nvme0n2 for it), even with
# "destructive" in the profile and --allow-destructive on the agent. A read step runs.
# Unmounted, the ext2 signature still refuses a plain write. The blank nvme0n1 is written.
# Afterwards the filesystem mounts again and its file is intact: nothing was written.
. "$(dirname "$0")/lib.sh"
vmlab_init

vm_new g1
vm_ns g1 512 64M
vm_ns g1 4096 64M
vm_conf g1 'VM_AGENT_ARGS="--allow /dev/nvme* --allow /dev/ng* --allow-destructive"'
vm_setup g1 'mke2fs -q -b 4096 /dev/nvme0n2 && mkdir -p /mnt/ns2 && mount -t ext2 /dev/nvme0n2 /mnt/ns2 && echo vmlab-marker >/mnt/ns2/marker && sync && log "nvme0n2 mounted on /mnt/ns2"'
vm_boot g1
vm_wait g1
vm_exec g1 'grep nvme0n2 /proc/mounts' | grep -q '/mnt/ns2' ||
	fail "the guest did not mount nvme0n2 (busybox mke2fs or mount failed)"

# step PATH RW [DESTRUCTIVE]: one short step; exit code in RC, output in OUT
NSTEP=0
step() {
	local path=$1 rw=$2 destructive=${3:-false} n=$((++NSTEP))
	cat >"$VT/p$n.json" <<JSON
{"name": "vmlab-safety-$n", "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "path": "$path", "destructive": $destructive}],
 "defaults": {"direct": true},
 "steps": [{"name": "s", "rw": "$rw", "bs": "4k", "iodepth": 2, "ramp": "0s", "runtime": "1s"}]}
JSON
	RC=0
	OUT=$("$COORD" run --plain -o "$VT/out$n" "$VT/p$n.json" 2>&1) || RC=$?
	echo "== $n: $rw $path destructive=$destructive: exit $RC"
	echo "$OUT" | grep -E "refus|error" || true
}

step /dev/nvme0n2 randwrite
[ "$RC" = 1 ] || fail "write to the mounted /dev/nvme0n2: exit $RC, expected 1"
echo "$OUT" | grep -q "refusing to write to /dev/nvme0n2: mounted on /mnt/ns2" ||
	fail "the refusal does not name /dev/nvme0n2 and its mount point"

step /dev/ng0n2 randwrite
[ "$RC" = 1 ] || fail "passthrough write to the mounted namespace: exit $RC, expected 1"
echo "$OUT" | grep -q "refusing to write to /dev/nvme0n2: mounted on /mnt/ns2" ||
	fail "the passthrough refusal does not name the mounted block device"

step /dev/ng0n2 write true
[ "$RC" = 1 ] && echo "$OUT" | grep -q "mounted on /mnt/ns2" ||
	fail "a mounted namespace was written through /dev/ng0n2 with both consents"

step /dev/nvme0n2 randread
[ "$RC" = 0 ] || fail "a read step on the mounted namespace was refused: $OUT"

vm_exec g1 'umount /mnt/ns2' || fail "umount in the guest"
step /dev/nvme0n2 randwrite
[ "$RC" = 1 ] || fail "write to the ext2 namespace: exit $RC, expected 1"
echo "$OUT" | grep -q "refusing to write to /dev/nvme0n2: carries a signature: ext2/3/4" ||
	fail "the refusal does not name the ext2 signature"

step /dev/nvme0n1 randwrite
[ "$RC" = 0 ] || fail "write to the blank /dev/nvme0n1 was refused: $OUT"

out=$(vm_exec g1 'mount -t ext2 /dev/nvme0n2 /mnt/ns2 && cat /mnt/ns2/marker && umount /mnt/ns2') ||
	fail "the filesystem on nvme0n2 no longer mounts: $out"
[ "$out" = vmlab-marker ] || fail "the file on nvme0n2 changed: '$out'"
echo "nvme0n2's filesystem is intact"
echo "PASS"
