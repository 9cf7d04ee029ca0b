#!/bin/bash
# test_e2e_node_facts: the node-facts textfile collector (deploy/node-facts/bench-node-facts.sh)
# against fixture sysfs/procfs trees this test builds, then what the verdict makes of its facts
# and of the storage software's series mapped by role, in a real run (local agents, file
# volumes, rate-paced writes so the clients' write bandwidth is known). Three nodes served by
# a small exporter of this test's own (loopback only), one suspect each:
#   node-1: GC writes as much as the clients write (gc_write_bytes)      -> node disk/GC
#   node-2: journal latency 70 ms over devices' 1 ms write await         -> node journal
#   node-3: storage process on NUMA node 1, its bond's links on node 0;   -> NUMA locality
#           802.3ad with 1 of 2 links aggregated; another software version -> network path,
#                                                                             versions
# and the rows the facts clear (one NUMA node, the same firmware) say so. About 15 s.
. "$(dirname "$0")/lib.sh" || exit 1
[ -d "${T:-}" ] || exit 1
FACTS="$BC_SRC/deploy/node-facts/bench-node-facts.sh"
EXP=""
nf_cleanup() {
	local rc=$?
	set +e
	[ -n "$EXP" ] && kill "$EXP" 2>/dev/null && wait "$EXP" 2>/dev/null
	(exit $rc)
	cleanup
}
trap nf_cleanup EXIT

# put FILE CONTENT...: a fixture file
put() {
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" >"$1"
}

# tree ROOT NUMA_NODES NIC_NODE MODE ACTIVE PROC_CPUS VERSION
tree() {
	local r=$1 n
	for n in $(seq 0 $(($2 - 1))); do
		put "$r/sys/devices/system/node/node$n/cpulist" "$((n * 8))-$((n * 8 + 7))"
	done
	for n in eth0 eth1; do
		put "$r/sys/class/net/$n/device/numa_node" "$3"
		put "$r/sys/class/net/$n/operstate" "up"
	done
	put "$r/sys/class/net/bond0/bonding/mode" "$4 4"
	put "$r/sys/class/net/bond0/bonding/xmit_hash_policy" "layer3+4 1"
	put "$r/sys/class/net/bond0/bonding/slaves" "eth0 eth1"
	put "$r/sys/class/net/bond0/bonding/ad_num_ports" "$5"
	put "$r/sys/class/net/bond0/bonding/active_slave" "eth0"
	put "$r/sys/class/net/lo/operstate" "unknown"
	put "$r/proc/4242/comm" "storaged"
	put "$r/proc/4242/status" "Name:	storaged
Cpus_allowed_list:	$6"
	put "$r/proc/77/comm" "sshd"
	put "$r/var/lib/dpkg/status" "Package: other
Version: 9

Package: storage-sw
Status: install ok installed
Version: $7
"
	for n in 0 1; do
		put "$r/sys/class/nvme/nvme$n/model" "PM9A3 15.36TB   "
		put "$r/sys/class/nvme/nvme$n/firmware_rev" "GDC5602Q"
	done
}
tree "$T/n1" 1 0 802.3ad 2 0-7 3.18.2
tree "$T/n2" 1 0 802.3ad 2 0-7 3.18.2
tree "$T/n3" 2 0 802.3ad 1 8-15 3.18.1
for n in 1 2 3; do
	sh "$FACTS" --root "$T/n$n" --process storaged --process absent --package storage-sw \
		--version cli=7 --output "$T/facts-$n.prom" || fail "bench-node-facts.sh failed on node $n"
done
ls "$T"/facts-*.prom.*.tmp 2>/dev/null && fail "a temporary file was left behind"
grep -v '^#' "$T/facts-3.prom" >"$T/facts-3.txt"
cat >"$T/facts-3.want" <<'TXT'
bench_node_numa_nodes 2
bench_node_nic_numa_node{device="eth0"} 0
bench_node_nic_numa_node{device="eth1"} 0
bench_node_bond_info{bond="bond0",mode="802.3ad",xmit_hash_policy="layer3+4",members="eth0,eth1"} 1
bench_node_bond_active_members{bond="bond0"} 1
bench_node_process_info{process="storaged",cpus="8-15",numa_nodes="1"} 1
bench_node_software_info{name="storage-sw",version="3.18.1"} 1
bench_node_software_info{name="cli",version="7"} 1
bench_node_nvme_info{device="nvme0",model="PM9A3 15.36TB",firmware="GDC5602Q"} 1
bench_node_nvme_info{device="nvme1",model="PM9A3 15.36TB",firmware="GDC5602Q"} 1
TXT
diff -u "$T/facts-3.want" "$T/facts-3.txt" || fail "node-3's facts differ from its fixture tree"
# active-backup: one link carries traffic, whatever ad_num_ports says
put "$T/ab/sys/class/net/bond1/bonding/mode" "active-backup 1"
put "$T/ab/sys/class/net/bond1/bonding/slaves" "eth2 eth3"
put "$T/ab/sys/class/net/bond1/bonding/active_slave" "eth3"
AB=$(sh "$FACTS" --root "$T/ab")
grep -qx 'bench_node_bond_active_members{bond="bond1"} 1' <<<"$AB" ||
	fail "an active-backup bond is not one active link"
grep -qx 'bench_node_bond_info{bond="bond1",mode="active-backup",xmit_hash_policy="",members="eth2,eth3"} 1' \
	<<<"$AB" || fail "the active-backup bond's info line: $AB"
if grep -q '^bench_node_numa_nodes' <<<"$AB"; then
	fail "a tree without sysfs NUMA reported a node count"
fi

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$T/exporter.py" <<'PY'
# node_exporter-like pages /node-1../node-3 with the node-facts textfile appended: CPU, the
# bond and one data disk advance with the wall clock (1,000 writes/s, 1 ms each: 1 ms write
# await), and the storage software's series: GC bytes (node-1 at the clients' paced write rate,
# the others at a tenth of it), a journal latency gauge (node-2 70 ms, the others 0.5 ms), a
# read cache hit ratio and a build-info metric
import http.server, sys, time
port, wbps, facts = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
t0 = time.time()

class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        try:
            i = int(self.path.rsplit("-", 1)[1]) - 1
            text = open(facts[i]).read()
        except (ValueError, IndexError, OSError):
            self.send_error(404)
            return
        t = 1000 + time.time() - t0
        out = []
        for c in range(16):
            out.append('node_cpu_seconds_total{cpu="%d",mode="user"} %.3f' % (c, t * 0.3))
            out.append('node_cpu_seconds_total{cpu="%d",mode="idle"} %.3f' % (c, t * 0.7))
        for dev, speed in (("bond0", 25e9), ("eth0", 12.5e9), ("eth1", 12.5e9)):
            out.append('node_network_transmit_bytes_total{device="%s"} %.0f' % (dev, t * 1e6))
            out.append('node_network_receive_bytes_total{device="%s"} %.0f' % (dev, t * 2e6))
            out.append('node_network_speed_bytes{device="%s"} %.0f' % (dev, speed))
            out.append('node_network_mtu_bytes{device="%s"} 9000' % dev)
        out.append('node_disk_writes_completed_total{device="nvme0n1"} %.0f' % (t * 1000))
        out.append('node_disk_write_time_seconds_total{device="nvme0n1"} %.3f' % (t * 1.0))
        out.append('node_disk_written_bytes_total{device="nvme0n1"} %.0f' % (t * 4e6))
        out.append('node_disk_io_time_seconds_total{device="nvme0n1"} %.3f' % (t * 0.5))
        out.append('node_disk_io_time_weighted_seconds_total{device="nvme0n1"} %.3f' % (t * 1.0))
        out.append("node_load1 1")
        out.append('node_uname_info{release="6.1.0-test",sysname="Linux"} 1')
        out.append('vendor_gc_write_bytes_total %.0f' % (t * wbps * (1.0 if i == 0 else 0.1)))
        out.append('vendor_journal_write_latency_seconds %.4f' % (0.070 if i == 1 else 0.0005))
        out.append('vendor_read_cache_hit_ratio 0.93')
        out.append('vendor_build_info{version="%s"} 1' % ("3.18.1" if i == 2 else "3.18.2"))
        body = ("\n".join(out) + "\n" + text).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY
# two volumes per node, each paced at 2 MB/s: 4 MB/s of client writes to every node
python3 "$T/exporter.py" "$PORT" 4000000 "$T/facts-1.prom" "$T/facts-2.prom" "$T/facts-3.prom" \
	>"$T/exporter.log" 2>&1 &
EXP=$!
for _ in $(seq 50); do
	python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/node-1')" 2>/dev/null && break
	sleep 0.1
done
node() {
	cat <<JSON
{"name": "node-$1", "metrics": ["http://127.0.0.1:$PORT/node-$1"], "nic": "bond0",
 "series": [{"name": "gc", "role": "gc_write_bytes", "metric": "vendor_gc_write_bytes_total"},
            {"name": "journal", "role": "journal_latency", "metric": "vendor_journal_write_latency_seconds"},
            {"name": "cache", "role": "cache_hit_ratio", "metric": "vendor_read_cache_hit_ratio"},
            {"name": "sw", "role": "version", "metric": "vendor_build_info"}]}
JSON
}
cat >"$T/p.json" <<JSON
{"name": "node-facts",
 "agents": [{"name": "client-1", "endpoint": "local"}],
 "nodes": [$(node 1), $(node 2), $(node 3)],
 "volumes": [{"agent": "client-1", "path": "v1a.dat", "size": "16m", "node": "node-1"},
             {"agent": "client-1", "path": "v1b.dat", "size": "16m", "node": "node-1"},
             {"agent": "client-1", "path": "v2a.dat", "size": "16m", "node": "node-2"},
             {"agent": "client-1", "path": "v2b.dat", "size": "16m", "node": "node-2"},
             {"agent": "client-1", "path": "v3a.dat", "size": "16m", "node": "node-3"},
             {"agent": "client-1", "path": "v3b.dat", "size": "16m", "node": "node-3"}],
 "steps": [{"name": "w", "rw": "randwrite", "bs": "64k", "iodepth": 2, "rate_bw": "2m",
            "ramp": "1s", "runtime": "4s"}]}
JSON
"$COORD" run --plain -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "the run failed"
}
R=$(run_dir "$T/out")
python3 - "$R/run.json" <<'PY' || fail "the suspects table is not what the facts and roles say"
import json, sys
run = json.load(open(sys.argv[1]))
st = run["steps"][-1]
a = st["analysis"]
rows = {r["suspect"]: r for r in a["suspects"]}
print("verdict:", a["verdict"])
for k in ("node disk/GC", "node journal", "node read cache", "NUMA locality", "network path",
          "software/kernel version"):
    print("  %-24s %-12s %s" % (k, rows[k]["state"], rows[k]["figures"]))
gc = rows["node disk/GC"]
assert gc["state"] == "implicated" and gc["hosts"] == "node-1", gc
assert "GC writes" in gc["figures"] and "while clients write" in gc["figures"], gc
j = rows["node journal"]
assert j["state"] == "implicated" and j["hosts"] == "node-2", j
assert "journal latency 70.0 ms while its devices' write await is 1.00 ms" in j["figures"], j
assert rows["node read cache"]["state"] == "excluded" and "93%" in rows["node read cache"]["figures"]
numa = rows["NUMA locality"]
assert numa["state"] == "implicated" and "node-3" in numa["hosts"], numa
assert "storage process storaged on CPUs 8-15 (node 1) while bond0 is on node 0" in numa["figures"], numa
np = rows["network path"]
assert np["state"] == "implicated" and "bond bond0 (802.3ad) aggregates 1 of its 2 links" in np["figures"], np
assert "node node-1: bond bond0 802.3ad, 2 link(s), 2 carrying traffic" in np["figures"], np
assert "node node-1: xmit_hash_policy layer3+4" in np["figures"], np
v = rows["software/kernel version"]
assert v["state"] == "implicated", v
assert "storage software differs across nodes" in v["figures"], v
assert "node-3 sw 3.18.1, storage-sw 3.18.1, cli 7" in v["figures"], v
assert "NVMe model/firmware PM9A3 15.36TB GDC5602Q x2 on every node measured (3)" in v["figures"], v
# the writes are paced by the profile: the verdict says so, the suspects above say the rest
f = st["nodes"][2]["counters"]["facts"]
assert f["numa_nodes"] == 2 and f["bonds"]["bond0"]["active_members"] == 1, f
assert f["processes"]["storaged"]["numa_nodes"] == "1" and f["software"]["sw"] == "3.18.1", f
PY
echo "PASS"
