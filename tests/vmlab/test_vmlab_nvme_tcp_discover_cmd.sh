#!/bin/bash
# test_vmlab_nvme_tcp_discover_cmd: `bench-coord discover` through the guest's agent against the
# guest kernel's NVMe/TCP target. nvmet answers the discovery NQN on its I/O port
# (10.0.2.15:4420): the agent connects a discovery controller through /dev/nvme-fabrics, reads
# Get Log Page 70h, deletes the controller, and bench-coord lists the exported subsystem as a
# table and as JSON (trtype tcp, adrfam ipv4, traddr 10.0.2.15, trsvcid 4420, subtype nvme).
# Nothing is left connected. An address where nothing listens fails with exit 1 naming it.
. "$(dirname "$0")/lib.sh"
vmlab_init
"$COORD" discover --help >/dev/null 2>&1 || vm_skip "bench-coord has no discover command"

NQN=nqn.2026-11.io.bench-coord:vmlab-list
vm_nvme_tcp_guest g1 "$NQN"
[ -z "$(vm_tcp_ctrls g1)" ] || fail "an NVMe/TCP controller exists before the test"
cat >"$VT/p.json" <<JSON
{"name": "vmlab-discover", "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "path": "/dev/nvme0n1"}],
 "steps": [{"name": "s", "rw": "read", "runtime": "1s"}]}
JSON
t0=$SECONDS
"$COORD" discover "$VT/p.json" --agent g1 --traddr 10.0.2.15 --trsvcid 4420 >"$VT/table" 2>"$VT/err" ||
	{ cat "$VT/err"; fail "discover (table) failed"; }
cat "$VT/table"
grep -Eq "^tcp +ipv4 +10\.0\.2\.15 +4420 +nvme +$NQN\$" "$VT/table" ||
	fail "the table does not list $NQN on 10.0.2.15:4420"
grep -q "connected for the read" "$VT/table" || fail "the table does not say the agent connected"
[ -z "$(vm_tcp_ctrls g1)" ] || fail "the discovery controller was left connected: $(vm_tcp_ctrls g1)"

"$COORD" discover --endpoint "${VM_EP[g1]}" --traddr 10.0.2.15 --trsvcid 4420 --json \
	>"$VT/json" 2>"$VT/err" || { cat "$VT/err"; fail "discover --json failed"; }
python3 - "$VT/json" "$NQN" <<'EOF' || fail "JSON checks"
import json, sys
d = json.load(open(sys.argv[1]))
print("controller", d["controller"], "connected_by_agent", d["connected_by_agent"],
      "genctr", d["genctr"], "entries", len(d["entries"]))
for e in d["entries"]:
    print(" ", e)
assert d["traddr"] == "10.0.2.15" and d["trsvcid"] == "4420" and d["connected_by_agent"], d
m = [e for e in d["entries"] if e["subnqn"] == sys.argv[2]]
assert len(m) == 1, m
e = m[0]
assert (e["trtype"], e["adrfam"], e["traddr"], e["trsvcid"], e["subtype"]) == \
    ("tcp", "ipv4", "10.0.2.15", "4420", "nvme"), e
EOF
[ -z "$(vm_tcp_ctrls g1)" ] || fail "the discovery controller was left connected: $(vm_tcp_ctrls g1)"

# nothing listens on 10.0.2.15:8009 (the default port): the kernel refuses, the agent says where
rc=0
"$COORD" discover --endpoint "${VM_EP[g1]}" --traddr 10.0.2.15 >"$VT/out3" 2>"$VT/err3" || rc=$?
cat "$VT/err3"
[ "$rc" = 1 ] || fail "an address without a target: exit $rc, expected 1"
grep -q "discovery at 10.0.2.15:8009: nvme_tcp connect to 10.0.2.15:8009" "$VT/err3" ||
	fail "the error does not name the address"
[ -z "$(vm_tcp_ctrls g1)" ] || fail "controllers left after the failure: $(vm_tcp_ctrls g1)"
echo "PASS ($((SECONDS - t0)) s after boot)"
