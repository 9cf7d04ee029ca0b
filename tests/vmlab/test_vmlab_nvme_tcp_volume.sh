#!/bin/bash
# test_vmlab_nvme_tcp_volume: a profile's "nvme_tcp" volume against the guest kernel's NVMe/TCP
# target (configfs nvmet exporting a 64 MiB file in the guest's RAM, 4096-byte LBAs, on the
# guest's 10.0.2.15:4420; lib.sh VMLAB_NVMET_RAM says why not an emulated NVMe namespace). The
# agent attaches it at PREPARE (/dev/nvme-fabrics), runs a random read/write step on the
# namespace it finds, and detaches at the end: afterwards the guest has no NVMe/TCP controller.
# The volume maps to the node whose "addresses" hold the controller's traddr. Then the same
# with "passthrough" (/dev/ngXnY over TCP), and a coordinator killed mid-step: the agent
# detaches on the loss too. Skipped until bench-coord accepts the form.
. "$(dirname "$0")/lib.sh"
vmlab_init
vmlab_have_nvme_tcp_volume ||
	vm_skip "bench-coord does not accept the \"nvme_tcp\" volume form yet: $(head -n1 "$VT/probe-nvme-tcp.out")"

NQN=nqn.2026-11.io.bench-coord:vmlab-g1-ns2
vm_nvme_tcp_guest g1 "$NQN"

# the guest's NVMe/TCP controllers, one "nvmeN traddr=...,trsvcid=..." a line
tcp_ctrls() {
	vm_exec g1 'for c in /sys/class/nvme/nvme*; do
		[ "$(cat $c/transport 2>/dev/null)" = tcp ] && echo "${c##*/} $(cat $c/address)"
	done; true'
}
# profile NAME RUNTIME PASSTHROUGH
profile() {
	cat >"$VT/$1.json" <<JSON
{"name": "vmlab-$1",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "nodes": [{"name": "target-g1", "addresses": ["10.0.2.15"]}],
 "volumes": [{"agent": "g1", "nvme_tcp": {"traddr": "10.0.2.15", "trsvcid": "4420",
              "subnqn": "$NQN", "nr_io_queues": 1, "passthrough": $3}}],
 "defaults": {"direct": true, "ramp": "1s", "runtime": "$2"},
 "steps": [{"name": "randrw-4k", "rw": "randrw", "bs": "4k", "iodepth": 8}]}
JSON
}
# check RUN_DIR: the step ran on the attached namespace, on node target-g1
check() {
	python3 - "$1/run.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["steps"][0]
assert s["status"] == "ok" and s["total"]["errors"] == 0, (s["status"], s["total"]["errors"])
v = s["volumes"][0]
print("volume", v["name"], "iops", v["iops"], "read", v["read"]["ios"], "write", v["write"]["ios"])
assert v["read"]["ios"] > 0 and v["write"]["ios"] > 0, v
assert "nvme-tcp://10.0.2.15:4420/" in v["name"], v["name"]
nodes = {n["name"]: n for n in s.get("nodes", [])}
assert "target-g1" in nodes and nodes["target-g1"]["iops"] > 0, \
    f"the volume is not aggregated on node target-g1: {list(nodes)}"
print("node target-g1 iops", nodes["target-g1"]["iops"])
EOF
}

[ -z "$(tcp_ctrls)" ] || fail "an NVMe/TCP controller exists before the run"
for pt in false true; do
	profile "vol-$pt" 3s "$pt"
	"$COORD" run --plain -o "$VT/out-$pt" "$VT/vol-$pt.json" >"$VT/run-$pt.out" 2>&1 ||
		{ cat "$VT/run-$pt.out"; fail "bench-coord run (passthrough $pt) failed"; }
	cat "$VT/run-$pt.out"
	check "$(run_dir "$VT/out-$pt")" || fail "passthrough $pt: run.json checks"
	left=$(tcp_ctrls)
	[ -z "$left" ] || fail "passthrough $pt: the agent left the NVMe/TCP controller attached: $left"
	echo "passthrough $pt: attached, ran, detached"
done

# a coordinator that dies mid-step: the agent aborts and detaches
profile vol-kill 60s false
"$COORD" run --plain -o "$VT/out-kill" "$VT/vol-kill.json" >"$VT/run-kill.out" 2>&1 &
cpid=$!
attached=""
for _ in $(seq 60); do
	attached=$(tcp_ctrls)
	[ -n "$attached" ] && break
	sleep 0.5
done
[ -n "$attached" ] || { kill -9 "$cpid"; cat "$VT/run-kill.out"; fail "the agent never attached"; }
sleep 3
kill -9 "$cpid"
wait "$cpid" 2>/dev/null || true
# the agent notices after 5 s of silence and gives the I/O 2 s to drain before it deletes the
# controller under it; with I/O on the wire of a stalled target the delete waits for the
# guest's nvme_core.io_timeout (30 s): allow 60 s and show the agent's state if not enough
for _ in $(seq 120); do
	[ -z "$(tcp_ctrls)" ] && break
	sleep 0.5
done
left=$(tcp_ctrls)
if [ -n "$left" ]; then
	vm_exec g1 'ps; cat /var/tmp/bench-agent/nvme-tcp-connected 2>/dev/null; true' >&2 || true
	fail "60 s after the coordinator died the controller is still attached: $left"
fi
echo "coordinator killed: the agent detached"
echo "PASS"
