#!/bin/bash
# test_vmlab_block_io: a guest with one emulated NVMe controller holding a 512-byte-LBA
# namespace (nvme0n1) and a 4096-byte one (nvme0n2); bench-agent in the guest (CURVE)
# serves bench-coord on the host. A randrw step on both block devices completes without
# errors, and the device identity the agent reports - Identify, through the real kernel
# NVMe driver - carries the right LBA format: lbads 9 / 512n on nvme0n1, 12 / 4Kn on
# nvme0n2, in run.json (the agent's HELLO paths) and in summary.md's NVMe table.
. "$(dirname "$0")/lib.sh"
vmlab_init

vm_new g1
vm_ns g1 512 64M
vm_ns g1 4096 64M
vm_boot g1
vm_wait g1

cat >"$VT/p.json" <<JSON
{"name": "vmlab-block-io",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "path": "/dev/nvme0n1"}, {"agent": "g1", "path": "/dev/nvme0n2"}],
 "defaults": {"direct": true, "ramp": "1s", "runtime": "4s"},
 "steps": [{"name": "randrw-4k", "rw": "randrw", "rwmixread": 50, "bs": "4k", "iodepth": 8}]}
JSON
"$COORD" run --plain -o "$VT/out" "$VT/p.json" >"$VT/run.out" 2>&1 ||
	{ cat "$VT/run.out"; fail "bench-coord run failed"; }
cat "$VT/run.out"
R=$(run_dir "$VT/out")

[ "$(json "$R/run.json" 'r["steps"][0]["status"]')" = ok ] || fail "step status is not ok"
python3 - "$R/run.json" <<'EOF' || fail "run.json checks"
import json, sys
r = json.load(open(sys.argv[1]))
st = r["steps"][0]
tot = st["total"]
assert tot["errors"] == 0, f"errors {tot['errors']}"
print("total:", {k: tot[k] for k in ("iops", "mbps", "errors") if k in tot})
vols = st.get("volumes", [])
assert len(vols) == 2, f"{len(vols)} volumes in the step"
for v in vols:
    print("volume", v["name"], "iops", v["iops"], "read", v["read"]["ios"], "write", v["write"]["ios"])
    assert v["read"]["ios"] > 0 and v["write"]["ios"] > 0, f"no reads or writes on {v['name']}"
EOF

# the identity: the agent's HELLO paths, as run.json keeps them
python3 - "$R/run.json" <<'EOF' || fail "identity checks"
import json, sys
r = json.load(open(sys.argv[1]))
want = {"/dev/nvme0n1": (512, "512n"), "/dev/nvme0n2": (4096, "4Kn")}
seen = {p["path"]: p["nvme"] for p in r["agents"][0]["hello"]["paths"] if "nvme" in p}
for path, (lba, kind) in want.items():
    n = seen.get(path)
    assert n, f"no nvme identity for {path} in run.json (have {list(seen)})"
    fmt = [f for f in n["formats"] if f["index"] == n.get("format_index")]
    print(path, n["model"], "lba", n["lba_bytes"], n["lba_kind"], "source", n["source"],
          "format", n.get("format_index"), fmt)
    assert n["lba_bytes"] == lba, f"{path}: lba_bytes {n['lba_bytes']}, want {lba}"
    assert n["lba_kind"] == kind, f"{path}: lba_kind {n['lba_kind']}, want {kind}"
    assert n["source"] == "identify", f"{path}: identity from {n['source']}, not Identify"
    assert n["model"].startswith("QEMU NVMe"), n["model"]
    assert n["transport"] == "pcie", n["transport"]
    # lbads = log2(lba bytes): 9 / 12 in the active format of Identify Namespace
    assert len(fmt) == 1 and fmt[0]["lba_bytes"] == lba and fmt[0]["metadata_bytes"] == 0, fmt
    assert len(n["formats"]) > 1, "QEMU lists several LBA formats"
EOF
# summary.md's NVMe table: | agent | path | model | serial | firmware | LBA format | ...
grep '| /dev/nvme0n1 | QEMU NVMe' "$R/summary.md" | grep -q '| 512n |' ||
	fail "summary.md: nvme0n1 is not listed as 512n"
grep '| /dev/nvme0n2 | QEMU NVMe' "$R/summary.md" | grep -q '| 4Kn |' ||
	fail "summary.md: nvme0n2 is not listed as 4Kn"
grep '| QEMU NVMe' "$R/summary.md"
echo "PASS"
