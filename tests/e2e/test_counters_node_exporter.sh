#!/bin/bash
# test_counters_node_exporter: a real prometheus-node-exporter on loopback, scraped by
# bc_counters at each second boundary of a 4 s step: per-second CPU and NIC (lo) figures exist
# for every second, the window has them, and a second node whose endpoint is dead only loses its
# own seconds (marked missing), never the step.
set -euo pipefail
: "${BC_BIN:?set BC_BIN to the build directory}"
PROBE="$BC_BIN/tests/counters_probe"
command -v prometheus-node-exporter >/dev/null ||
	{ echo "skip: prometheus-node-exporter not installed (deploy/install-deps.sh)"; exit 77; }
[ -x "$PROBE" ] || { echo "skip: $PROBE not built"; exit 77; }

T=$(mktemp -d /var/tmp/bc-counters.XXXXXX)
NE_PID=
cleanup() {
	local rc=$?
	if [ -n "$NE_PID" ]; then
		kill "$NE_PID" 2>/dev/null || true
		wait "$NE_PID" 2>/dev/null || true
	fi
	rm -rf "$T"
	exit $rc
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

PORT=$(free_port)
DEAD=$(free_port) # nothing listens there
# Debian's default excludes lo from netdev; this test's traffic is on lo
prometheus-node-exporter --web.listen-address="127.0.0.1:$PORT" \
	--collector.netdev.device-exclude='^$' >"$T/ne.log" 2>&1 &
NE_PID=$!
for _ in $(seq 50); do
	curl -sf -o /dev/null "http://127.0.0.1:$PORT/metrics" && break
	sleep 0.1
done
curl -sf -o /dev/null "http://127.0.0.1:$PORT/metrics" || fail "node_exporter did not start: $(cat "$T/ne.log")"

"$PROBE" --node n1 --metrics "http://127.0.0.1:$PORT/metrics" --nic lo \
	--node dead --metrics "http://127.0.0.1:$DEAD/metrics" --seconds 4 >"$T/out.json" ||
	fail "counters_probe failed"

python3 - "$T/out.json" <<'PY' || { cat "$T/out.json"; fail "figures missing"; }
import json, sys
r = json.load(open(sys.argv[1]))
n = r["nodes"]["n1"]
ser = n["series"]
assert n["scrapes"]["ok"] == 5 and n["scrapes"]["failed"] == 0, n["scrapes"]
for key in ("cpu_busy_pct", "cpu_hot_core_pct", "softirq_pct", "net_tx_mbps", "net_rx_mbps",
            "mem_used_pct"):
    assert len(ser[key]) == 4, (key, ser[key])
    assert all(v is not None for v in ser[key]), (key, ser[key])
assert all(v > 0 for v in ser["net_tx_mbps"]), ser["net_tx_mbps"]  # the scrapes themselves
assert all(0 <= v <= 100 for v in ser["cpu_busy_pct"]), ser["cpu_busy_pct"]
assert n["interfaces"] == ["lo"], n["interfaces"]
w = n["window"]
assert w["from_second"] == 0 and w["to_second"] == 4, w
assert w["net_tx_mbps"] > 0 and "cpu_busy_pct" in w and "softirq_hot_core_pct" in w
assert w["nics"]["lo"]["counted"] and len(w["nics"]["lo"]["series"]["tx_mbps"]) == 4
assert n["missing_seconds"] == []
d = r["nodes"]["dead"]
assert d["scrapes"]["ok"] == 0 and d["scrapes"]["failed"] == 5, d["scrapes"]
assert d["missing_seconds"] == [0, 1, 2, 3], d["missing_seconds"]
assert all(v is None for v in d["series"]["cpu_busy_pct"])
assert "window" not in d
assert r["use"]["n1"]["nics"] == "lo" and r["use"]["n1"]["cpu_busy"] is not None
assert "dead" not in r["use"]
print("per-second cpu_busy_pct", ser["cpu_busy_pct"], "lo tx MB/s", ser["net_tx_mbps"])
PY
echo PASS
