#!/bin/bash
# test_vmlab_nvme_tcp_target: the guest kernel's NVMe/TCP target (nvmet, nvmet-tcp,
# configfs) exports the emulated 4096-byte-LBA namespace nvme0n2 on the guest's address; the
# guest's NVMe/TCP host (nvme-tcp, one write to /dev/nvme-fabrics) attaches it as nvme1n1. The
# agent's identity of it says transport tcp, the target's address and subsystem NQN and a
# 4096-byte LBA (sysfs, then Identify through the fabrics controller); a random read/write
# step on it completes without errors, and the bytes arrive on the exported namespace
# (nvme0n2's diskstats in the guest grow by at least what the agent wrote). The agent's
# diskstats cross-check holds on the multipath head nvme1n1, whose I/O a 6.1 kernel counts
# on the path device nvme1c1n1 only (agent/host/diskstats.c sums a head's paths).
. "$(dirname "$0")/lib.sh"
vmlab_init

NQN=nqn.2026-11.io.bench-coord:vmlab-g1-ns2
vm_new g1
vm_ns g1 512 64M
vm_ns g1 4096 64M
vm_setup g1 "$(nvmet_export_sh "$NQN" /dev/nvme0n2 10.0.2.15)"
vm_setup g1 "$(nvme_connect_sh "$NQN" 10.0.2.15)"
vm_boot g1
vm_wait g1

# the namespace appears asynchronously after the connect (the kernel scans namespaces in a work
# item after the controller goes live)
dev=""
for _ in $(seq 50); do
	dev=$(vm_exec g1 'for c in /sys/class/nvme/nvme*; do
		[ "$(cat $c/transport)" = tcp ] || continue
		for n in /sys/block/nvme*n*; do
			[ "$(readlink -f $n/device)" = "$(readlink -f $c)" ] && echo ${n##*/}
		done
		for p in $c/nvme*c*n*; do [ -e "$p" ] && basename $p; done
	done' | head -n1) || true
	[ -n "$dev" ] && break
	sleep 0.2
done
[ -n "$dev" ] || fail "no NVMe/TCP namespace appeared in the guest: $(vm_console g1 | grep vmlab:)"
# a multipath path nvmeScCnN is reached through its head nvmeSnN
case $dev in *c*n*) dev="nvme$(echo "$dev" | sed 's/^nvme\([0-9]*\)c[0-9]*n\([0-9]*\)$/\1n\2/')" ;; esac
echo "NVMe/TCP namespace in the guest: /dev/$dev"
before=$(vm_exec g1 "awk '\$3 == \"nvme0n2\" {print \$10}' /proc/diskstats")

cat >"$VT/p.json" <<JSON
{"name": "vmlab-nvme-tcp-target",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "path": "/dev/$dev", "length": "32m"}],
 "defaults": {"direct": true, "ramp": "1s", "runtime": "3s"},
 "steps": [{"name": "randrw-4k", "rw": "randrw", "bs": "4k", "iodepth": 8}]}
JSON
"$COORD" run --plain -o "$VT/out" "$VT/p.json" >"$VT/run.out" 2>&1 ||
	{ cat "$VT/run.out"; fail "bench-coord run failed"; }
cat "$VT/run.out"
R=$(run_dir "$VT/out")
after=$(vm_exec g1 "awk '\$3 == \"nvme0n2\" {print \$10}' /proc/diskstats")

python3 - "$R/run.json" "/dev/$dev" "$NQN" "$before" "$after" <<'EOF' || fail "NVMe/TCP checks"
import json, sys
r, path, nqn = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
sectors = int(sys.argv[5]) - int(sys.argv[4])
s = r["steps"][0]
assert s["status"] == "ok" and s["total"]["errors"] == 0, (s["status"], s["total"]["errors"])
v = s["volumes"][0]
assert v["read"]["ios"] > 0 and v["write"]["ios"] > 0, v
wrote = s["agent_totals"]["g1"]["volumes"][0]["write"]["bytes"]
n = {p["path"]: p.get("nvme") for p in r["agents"][0]["hello"]["paths"]}[path]
print(path, "transport", n["transport"], "address", n["address"], "subsysnqn", n["subsysnqn"],
      "lba", n["lba_bytes"], n["lba_kind"], "source", n["source"], "model", n["model"])
print(f"agent wrote {wrote} bytes; the exported nvme0n2 took {sectors * 512} bytes")
assert n["transport"] == "tcp", n
assert "traddr=10.0.2.15" in n["address"] and "trsvcid=4420" in n["address"], n["address"]
assert n["subsysnqn"] == nqn, n["subsysnqn"]
assert n["lba_bytes"] == 4096 and n["lba_kind"] == "4Kn", n
assert n["model"] == "Linux", n["model"]  # nvmet's default model string
assert sectors * 512 >= wrote, "the target's backing namespace did not get the writes"
ck = [c for c in s["checks"] if c["name"].startswith("agent bytes match the block device")]
print(ck[0]["detail"] if ck else "no diskstats check")
assert ck and all(c["pass"] for c in ck), ck
EOF
echo "PASS"
