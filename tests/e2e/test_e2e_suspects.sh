#!/bin/bash
# test_e2e_suspects: the seed's shape end to end. Three storage nodes are node_exporter pages
# served by a small exporter of this test's own (loopback only) whose NIC bytes follow the real
# bytes read from each node's loop device, and whose 128 cores per node keep cores 0-15 at 100%
# while the rest run at 52% (node mean 58%, 42% idle); a 2-point iodepth sweep over it. The run's
# suspects table must implicate the node core group - 16 of 128 cores, the same cores at every
# point, on all 3 nodes named together - exclude the node NIC and the queue depth, read the MTU
# from node_network_mtu_bytes, and every output (run.json, summary.md, report.html, terminal)
# must show it; the node series carry the saturated-core count and the client host its agent's
# own CPU.
#
# Needs root (losetup); skips (77) without. Only loop devices this test attached are detached.

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root to attach loop devices"
	exit 77
fi
command -v losetup >/dev/null || { echo "SKIP: no losetup"; exit 77; }
. "$(dirname "$0")/lib.sh" || exit 1
[ -d "${T:-}" ] || exit 1

LOOPS=()
IMGS=()
EXP=""
sus_cleanup() {
	local rc=$? i back
	set +e
	[ -n "$EXP" ] && kill "$EXP" 2>/dev/null && wait "$EXP" 2>/dev/null
	for i in "${!LOOPS[@]}"; do
		back=$(losetup -n -O BACK-FILE "${LOOPS[$i]}" 2>/dev/null | sed 's/ *$//')
		[ "$back" = "${IMGS[$i]}" ] && losetup -d "${LOOPS[$i]}"
	done
	(exit $rc)
	cleanup
}
trap sus_cleanup EXIT
trap 'exit 143' TERM INT

for i in 0 1 2; do
	img="$T/backing-$i.img"
	dd if=/dev/urandom of="$img" bs=1M count=32 status=none
	dev=$(losetup -f --show --direct-io=on "$img" 2>/dev/null || losetup -f --show "$img" 2>&1) || {
		echo "SKIP: cannot attach a loop device: $dev"
		exit 77
	}
	case "$dev" in /dev/loop*) ;; *) echo "SKIP: cannot attach a loop device: $dev"; exit 77 ;; esac
	LOOPS+=("$dev")
	IMGS+=("$img")
done

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$T/exporter.py" <<'PY'
# node_exporter text for /node-1../node-3: CPU counters advance with the wall clock (cores 0-15
# always busy, the others 52%), the bond's tx bytes are what the node's loop device has read
# (x1.03 for protocol headers), split evenly on its two member links
import http.server, sys, time
port, loops = int(sys.argv[1]), sys.argv[2:]
t0 = time.time()

def read_bytes(dev):
    with open("/sys/block/%s/stat" % dev.split("/")[-1]) as f:
        return int(f.read().split()[2]) * 512

class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        try:
            i = int(self.path.rsplit("-", 1)[1]) - 1
            rd = read_bytes(loops[i]) * 1.03
        except (ValueError, IndexError, OSError):
            self.send_error(404)
            return
        t = 1000 + time.time() - t0
        out = []
        for c in range(128):
            busy = 1.0 if c < 16 else 0.52
            out.append('node_cpu_seconds_total{cpu="%d",mode="user"} %.3f' % (c, t * busy))
            out.append('node_cpu_seconds_total{cpu="%d",mode="idle"} %.3f' % (c, t * (1 - busy)))
            out.append('node_cpu_seconds_total{cpu="%d",mode="softirq"} 0' % c)
        for dev, share, speed in (("bond0", 1.0, 25e9), ("eth0", 0.5, 12.5e9), ("eth1", 0.5, 12.5e9)):
            out.append('node_network_transmit_bytes_total{device="%s"} %.0f' % (dev, rd * share))
            out.append('node_network_receive_bytes_total{device="%s"} %.0f' % (dev, rd * share * 0.02))
            out.append('node_network_speed_bytes{device="%s"} %.0f' % (dev, speed))
            out.append('node_network_mtu_bytes{device="%s"} 9000' % dev)
        out.append("node_load1 30")
        out.append('node_uname_info{release="6.1.0-test",sysname="Linux"} 1')
        body = ("\n".join(out) + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY
python3 "$T/exporter.py" "$PORT" "${LOOPS[@]}" >"$T/exporter.log" 2>&1 &
EXP=$!
for _ in $(seq 50); do
	python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/node-1')" 2>/dev/null && break
	sleep 0.1
done

cat >"$T/p.json" <<JSON
{"name": "suspects",
 "agents": [{"name": "client-1", "endpoint": "local"}, {"name": "client-2", "endpoint": "local"},
            {"name": "client-3", "endpoint": "local"}],
 "nodes": [{"name": "node-1", "addresses": ["127.0.0.1", "node-1.lab"], "metrics": ["http://127.0.0.1:$PORT/node-1"], "nic": "bond0", "nic_members": "eth0,eth1"},
           {"name": "node-2", "metrics": ["http://127.0.0.1:$PORT/node-2"], "nic": "bond0", "nic_members": "eth0,eth1", "nic_hash": "layer3+4"},
           {"name": "node-3", "metrics": ["http://127.0.0.1:$PORT/node-3"], "nic": "bond0", "nic_members": "eth0,eth1"}],
 "volumes": [{"agent": "client-1", "path": "${LOOPS[0]}", "node": "node-1"},
             {"agent": "client-2", "path": "${LOOPS[1]}", "node": "node-2"},
             {"agent": "client-3", "path": "${LOOPS[2]}", "node": "node-3"}],
 "defaults": {"direct": true},
 "steps": [{"name": "seq", "rw": "read", "bs": "128k",
            "sweep": {"iodepth": [1, 4], "ramp": "1s", "runtime": "2s"}}]}
JSON
"$COORD" run --plain -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "sweep run failed"
}
sed -n '/^sweep seq/,$p' "$T/stdout"
R=$(run_dir "$T/out")
python3 - "$R/run.json" <<'PY' || fail "the suspects table is not what the counters say"
import json, sys
run = json.load(open(sys.argv[1]))
st = run["steps"][-1]
a = st["analysis"]
rows = {r["suspect"]: r for r in a["suspects"]}
print("verdict:", a["verdict"])
assert a["class"] == "core-group-bound", a["class"]
assert "all 3 nodes: 16 of 128 cores at 100% (cores 0-15, the same at every point) while 42% is idle" in a["verdict"], a["verdict"]
assert rows["node core group"]["state"] == "implicated", rows["node core group"]
assert rows["node core group"]["hosts"] == "node-1, node-2, node-3", rows["node core group"]
assert rows["node NIC"]["state"] == "excluded", rows["node NIC"]
assert rows["network path"]["state"] != "not measured", rows["network path"]
# the clients' MTU is this host's own, from sysfs: a mismatch with the nodes' 9000 is named
import glob, os
mtus = set()
for d in glob.glob("/sys/class/net/*"):
    name = os.path.basename(d)
    if name == "lo" or name.startswith(("veth", "docker", "br-", "virbr", "tun", "tap", "vnet")):
        continue
    try:
        mtus.add(int(open(d + "/mtu").read()))
    except (OSError, ValueError):
        pass
np = rows["network path"]
if mtus and mtus != {9000}:
    assert np["state"] == "implicated" and "MTU differs" in np["figures"], np
    assert any("client-1 %d" % m in np["figures"] for m in mtus), (np, mtus)
elif mtus:
    assert np["state"] == "excluded" and "MTU 9000 on every end" in np["figures"], np
# each agent's route to node-1's addresses, asked of the kernel: loopback is this host's own
for s in run["steps"]:
    for name, t in s["agent_totals"].items():
        routes = t["net_path"]["routes"]
        assert [r["address"] for r in routes] == ["127.0.0.1", "node-1.lab"], routes
        assert routes[0]["node"] == "node-1" and routes[0]["dev"] == "lo" and routes[0]["local"] is True, routes
        assert "not a numeric" in routes[1]["error"], routes
        assert t["net_path"]["numa"]["job_cpus"], t["net_path"]
assert "3 client route(s) to a node address on the client itself" in np["figures"], np
assert "'node-1.lab' is not a numeric IPv4 or IPv6 address (3 clients)" in np["figures"], np
assert "node node-2: xmit_hash_policy layer3+4" in np["figures"], np
# NUMA: this host's node count decides it; the nodes' side is never guessed
numa = rows["NUMA locality"]
nnodes = len(glob.glob("/sys/devices/system/node/node[0-9]*"))
if nnodes == 1:
    assert numa["state"] == "excluded" and "one NUMA node" in numa["figures"], numa
assert "nodes: not measured" in numa["figures"], numa
assert rows["software/kernel version"]["state"] == "excluded", rows["software/kernel version"]
for s in run["steps"]:
    for n in s["nodes"]:
        c = n["counters"]
        assert c["window"]["cpu_sat_cores"] == 16, c["window"]
        assert c["window"]["cpu_sat_list"] == "0-15", c["window"]
        assert c["window"]["nics"]["eth0"]["member"] is True and c["window"]["nics"]["eth0"]["mtu"] == 9000
        assert any(v == 16 for v in c["series"]["cpu_sat_cores"]), c["series"]["cpu_sat_cores"]
    for ag in s["agents"]:
        w = ag["host"]["window"]
        assert w["agent_cpu_pct"] >= 0 and w["agent_cores"] >= 0, w
PY
grep -q "implicated   node core group" "$T/stdout" || fail "the terminal does not print the suspects"
sed -n '/^## Summary/,/^## /p' "$R/summary.md" | grep -q "core-group-bound: all 3 nodes" ||
	fail "summary.md does not open with the verdict"
grep -q "^### Suspects (seq" "$R/summary.md" || fail "summary.md has no suspects table"
grep -q "16 of 128 cores" "$R/summary.md" || fail "summary.md lacks the core group"
grep -q 'data-chart="nodes-cpu_sat_cores"' "$R/report.html" || fail "report.html lacks the per-node core chart"
echo "PASS"
