#!/bin/bash
# test_counters_prometheus: a real Prometheus server on loopback scraping a real node_exporter
# every second; bc_counters asks it for a 4 s step through /api/v1/query_range at 1 s
# resolution: the built-in figures and a custom PromQL series ("$instance" substituted) come
# back per second, with window averages and no query errors.
set -euo pipefail
: "${BC_BIN:?set BC_BIN to the build directory}"
PROBE="$BC_BIN/tests/counters_probe"
for b in prometheus prometheus-node-exporter; do
	command -v "$b" >/dev/null || { echo "skip: $b not installed (deploy/install-deps.sh)"; exit 77; }
done
[ -x "$PROBE" ] || { echo "skip: $PROBE not built"; exit 77; }

T=$(mktemp -d /var/tmp/bc-prom.XXXXXX)
PIDS=()
cleanup() {
	local rc=$? p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${PIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
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
wait_url() { # wait_url URL LOG
	for _ in $(seq 100); do
		curl -sf -o /dev/null "$1" && return 0
		sleep 0.1
	done
	fail "$1 did not come up: $(tail -5 "$2")"
}

NE=$(free_port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$NE" \
	--collector.netdev.device-exclude='^$' >"$T/ne.log" 2>&1 &
PIDS+=($!)
wait_url "http://127.0.0.1:$NE/metrics" "$T/ne.log"

PP=$(free_port)
cat >"$T/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ["127.0.0.1:$NE"]
YML
mkdir -p "$T/tsdb"
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address="127.0.0.1:$PP" >"$T/prom.log" 2>&1 &
PIDS+=($!)
wait_url "http://127.0.0.1:$PP/-/ready" "$T/prom.log"
# the scrape manager applies its targets a few seconds after start: wait for the first sample
for _ in $(seq 150); do
	curl -sfg "http://127.0.0.1:$PP/api/v1/query?query=up{instance=\"127.0.0.1:$NE\"}" |
		grep -q '"value"' && break
	sleep 0.1
done

# a rate() window of 3 s holds 3 scrapes at 1 s; ask 2 s after the step so its last one is in
"$PROBE" --node n1 --nic lo --prometheus "http://127.0.0.1:$PP" --instance "127.0.0.1:$NE" \
	--rate-window 3s --lag 2s \
	--series '{"name": "up", "promql": "up{instance=\"$instance\"}"}' \
	--seconds 4 >"$T/out.json" || fail "counters_probe failed"

python3 - "$T/out.json" <<'PY' || { cat "$T/out.json"; fail "PromQL figures missing"; }
import json, sys
r = json.load(open(sys.argv[1]))
n = r["nodes"]["n1"]
assert n["sources"] == ["promql"], n["sources"]
q = n["promql"]
assert "errors" not in q, q.get("errors")
ser = q["series"]
# Prometheus started moments before the step: the first second may predate its first scrapes
for key in ("cpu_busy_pct", "net_tx_mbps", "mem_used_pct", "softirq_hot_core_pct"):
    vals = [v for v in ser[key] if v is not None]
    assert len(ser[key]) == 4 and len(vals) >= 3, (key, ser[key])
assert all(v > 0 for v in ser["net_tx_mbps"] if v is not None), ser["net_tx_mbps"]
up = q["custom"]["up"]
assert "127.0.0.1:" in up["promql"] and "$instance" not in up["promql"], up["promql"]
assert [v for v in up["series"] if v is not None] and all(v == 1 for v in up["series"] if v is not None), up
assert q["window"]["cpu_busy_pct"] >= 0 and q["window"]["net_tx_mbps"] > 0, q["window"]
assert r["use"]["n1"]["cpu_busy"] is not None
print("promql cpu_busy_pct", ser["cpu_busy_pct"], "lo tx MB/s", ser["net_tx_mbps"])
PY
echo PASS
