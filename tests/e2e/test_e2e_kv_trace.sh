#!/bin/bash
# test_e2e_kv_trace: a KV trace replayed through bench-coord and a local agent on a simulated
# SSD: a CSV trace (beside the profile, named relatively) of stores, prefetches (some of keys
# never stored) and evictions for one class of two workers with a metadata log; run.json's
# records per class are the trace's exactly, its misses counted apart, each store and eviction
# a metadata record, and the simulator's per-handle bytes the class's data and its log's; a bad
# line is refused by validate as file:line. About 5 s.
. "$(dirname "$0")/lib.sh"

python3 - "$T/t.csv" <<'PY'
import random, sys
random.seed(7)
out, live, t, n = ["time,class,op,key,bytes"], [], 0.0, 0
for i in range(2000):
    t += 0.0004
    if random.random() < 0.6 or not live:
        k = f"k{n}"; n += 1; live.append(k)
        out.append(f"{t:.4f},chat,store,{k},{random.choice([4096, 10000, 65536])}")
        if len(live) > 150:
            out.append(f"{t:.4f},chat,evict,{live.pop(0)},0")
    else:
        out.append(f"{t:.4f},chat,prefetch,{random.choice(live + ['never-stored'])},0")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
cat >"$T/p.json" <<'JSON'
{"name": "kv-trace", "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "sim", "sim": {"capacity": "256MiB", "ru": "1MiB", "ruhs": 2},
              "fdp": {"pids": [0, 1]}}],
 "defaults": {"iodepth": 8, "numjobs": 2, "runtime": "60s"},
 "steps": [{"name": "replay",
            "streams": [{"name": "chat", "class": "hot", "bs": "64k", "range": {"size": "50%"},
                         "placement": [0], "kv": {"workers": 2, "meta": "log"}},
                        {"name": "log", "bs": "4k", "range": {"offset": "50%", "size": "1%"},
                         "placement": [1], "kv": "meta"}],
            "kv": {"trace": "t.csv"}}]}
JSON
"$COORD" run --plain -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/stdout" 2>&1 ||
	{ cat "$T/stdout"; fail "the replay failed"; }
python3 - "$(run_dir "$T/out")/run.json" "$T/t.csv" <<'PY' || fail "the replay's records are not the trace's"
import json, sys
r = json.load(open(sys.argv[1]))
rows = [l.split(",") for l in open(sys.argv[2]).read().split("\n")[1:] if l]
stores = sum(1 for x in rows if x[2] == "store")
prefs = [x for x in rows if x[2] == "prefetch"]
misses = sum(1 for x in prefs if x[3] == "never-stored")
evicts = sum(1 for x in rows if x[2] == "evict")
v = r["steps"][0]["agent_totals"]["local"]["volumes"][0]
c = v["kv"]["classes"][0]
print(f"trace: {stores} stores, {len(prefs)} prefetches ({misses} of keys never stored), "
      f"{evicts} evictions; run: {c['stores']} / {c['prefetches']} + {c['misses']} misses / "
      f"{c['evictions']}, {c['meta_records']} metadata records")
assert c["stores"] == c["expected"]["stores"] == stores, c
assert c["prefetches"] == len(prefs) - misses and c["misses"] == misses, c
assert c["evictions"] == c["trims"] == evicts and c["record_failures"] == 0, c
assert c["meta_records"] == stores + evicts, c
ruhs = [h["host_write_bytes"] for h in v["nvme"]["sim"]["ruhs"]]
assert ruhs == [c["store_bytes"], c["meta_bytes"]], (ruhs, c["store_bytes"], c["meta_bytes"])
PY
echo "0.9,chat,write,x,1" >>"$T/t.csv"
if "$COORD" validate "$T/p.json" >"$T/bad" 2>&1; then
	fail "validate accepted a trace with a bad op"
fi
grep -q "steps\[0\].kv.trace: .*t.csv:$(wc -l <"$T/t.csv"): op \"write\": expected store, prefetch or evict" "$T/bad" ||
	{ cat "$T/bad"; fail "the bad line is not named"; }
echo "PASS"
