#!/bin/bash
# test_vmlab_fio: the fio piece of the guest (build-guest.sh with BC_VMLAB_FIO=1, the host's
# fio and its ldd libraries) boots, and the guest's fio runs a 1-second 4k randread job with
# io_uring and direct I/O on its emulated NVMe namespace (nvme0n1), answering in JSON: the
# reads fio counts are the reads the namespace's block device completed in that time
# (/sys/block/nvme0n1/stat), so bench/engine-vs-fio-vm.sh reads real figures. ~40 s, most of
# it the boot; skips (77) without fio on the host.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || vm_skip "fio is not installed on the host (apt-get install fio)"
export BC_VMLAB_FIO=1
vmlab_init

vm_new g1 768
vm_ns g1 4096 64M
vm_fio g1
vm_boot g1
vm_wait g1

vm_exec g1 'read -r r0 _ </sys/block/nvme0n1/stat
fio --name=t --ioengine=io_uring --filename=/dev/nvme0n1 --direct=1 --rw=randread --bs=4k \
	--iodepth=4 --time_based --runtime=1 --norandommap --randrepeat=0 \
	--output-format=json --output=/tmp/fio.json >/tmp/fio.err 2>&1 || { cat /tmp/fio.err; exit 1; }
read -r r1 _ </sys/block/nvme0n1/stat
echo "device_reads $((r1 - r0))" >/tmp/dev
cat /tmp/fio.json' >"$VT/fio.json" || { cat "$VT/fio.json"; fail "fio failed in the guest"; }
dev=$(vm_exec g1 'cat /tmp/dev' | sed -n 's/^device_reads //p')
[ -n "$dev" ] || fail "no device read count from the guest"
python3 - "$VT/fio.json" "$dev" <<'EOF' || fail "fio's JSON from the guest"
import json, sys
j = json.load(open(sys.argv[1]))
dev = int(sys.argv[2])
job = j["jobs"][0]
ios = job["read"]["total_ios"]
print("fio", j["fio version"], "read ios", ios, "iops", round(job["read"]["iops"]),
      "usr_cpu", job["usr_cpu"], "sys_cpu", job["sys_cpu"], "device reads", dev)
assert job["error"] == 0, job["error"]
assert ios > 0, "fio read nothing"
assert job["write"]["total_ios"] == 0, "a randread job wrote"
# every read fio counts went to the namespace, and the namespace saw no other reads but a
# handful (the kernel's partition scan does not run then; allow for a stray one)
assert ios <= dev <= ios + 8, f"fio counts {ios} reads, the device {dev}"
EOF
echo "PASS"
