#!/bin/bash
# test_metrics_endpoint: `run --metrics-listen` serves the live aggregates in the Prometheus text
# format: promtool accepts them, and a real Prometheus server scraping the coordinator every
# second stores bench_coord_iops values equal to what the run measured.
. "$(dirname "$0")/lib.sh"

command -v prometheus >/dev/null && command -v promtool >/dev/null ||
	{ echo "skip: prometheus/promtool not installed (deploy/install-deps.sh --test)"; exit 77; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
MP=$(free_port)
PP=$(free_port)
cat >"$T/p.json" <<JSON
{"name": "metrics", "agents": [{"name": "c1", "endpoint": "local"}],
 "volumes": [{"agent": "c1", "path": "v.dat", "size": "8m", "workload": {"rate_iops": 2000}}],
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "1s", "runtime": "14s"}]}
JSON
cat >"$T/prom.yml" <<YML
global: {scrape_interval: 1s, scrape_timeout: 800ms}
scrape_configs:
  - job_name: bench-coord
    static_configs: [{targets: ["127.0.0.1:$MP"]}]
YML
prometheus --config.file="$T/prom.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address="127.0.0.1:$PP" >"$T/prom.log" 2>&1 &
PROM=$!
on_exit "kill $PROM; wait $PROM"
"$COORD" run -q --metrics-listen "127.0.0.1:$MP" -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" \
	>"$T/stdout" 2>&1 &
CPID=$!
sleep 5
python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:$MP/metrics').read().decode())" \
	>"$T/metrics.txt" || fail "no answer from the metrics endpoint"
promtool check metrics <"$T/metrics.txt" || fail "promtool rejects the exposition"
grep -q '^bench_coord_iops{level="total",name="total",op="read"} [1-9]' "$T/metrics.txt" ||
	fail "no total read IOPS: $(head -20 "$T/metrics.txt")"
python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$MP/nope')" 2>/dev/null &&
	fail "an unknown path was answered"
wait $CPID || { cat "$T/stdout"; fail "run failed"; }
# what Prometheus stored while the run went on: every value is a second the run measured
python3 - "$PP" "$(run_dir "$T/out")/run.json" <<'PY' || fail "Prometheus did not store the run's figures"
import json, sys, time, urllib.parse, urllib.request
port, runjson = sys.argv[1], sys.argv[2]
series = json.load(open(runjson))["steps"][0]["total"]["series"]["read_iops"]
q = urllib.parse.quote('bench_coord_iops{level="total",op="read"}')
end = time.time()
url = f"http://127.0.0.1:{port}/api/v1/query_range?query={q}&start={end - 60}&end={end}&step=1"
for _ in range(10):
    r = json.load(urllib.request.urlopen(url))
    vals = [float(v) for s in r["data"]["result"] for _, v in s["values"]]
    if vals:
        break
    time.sleep(1)
assert vals, r
assert all(v in series for v in vals), (sorted(set(vals)), series)
assert max(vals) > 0
print(f"Prometheus stored {len(vals)} samples, {len(set(vals))} distinct seconds, all in run.json")
PY
echo "PASS"
