#!/bin/bash
# test_vmlab_fdp: FDP against a controller that implements it - QEMU 10's emulated NVMe in an
# FDP subsystem (8 reclaim unit handles, 1 MiB reclaim units, 4 KiB LBAs, OCP log), one guest
# for every check, each a real bench-coord run against the agent in the guest:
#
# - discovery before any I/O (HELLO -> run.json hello.paths[].nvme.fdp): CTRATT FDP, endurance
#   group 1, FDP enabled with configuration 0, 1 reclaim group, 8 handles, 1 MiB RUs, every
#   handle host specified, 8 placement handles of 256 free blocks each;
# - placement: steps writing known amounts through /dev/ngXn1 with known placement indexes
#   (one handle, two round-robin, and no directive at all); per step and handle the RUH
#   Status RUAMW at the step's end equals the prediction from its start, rollovers included
#   (QEMU: a write that reaches a unit's end moves the handle to a fresh 256-block unit), the
#   handles the step did not name are untouched, and "no directive" lands on handle 0; FDP
#   statistics HBMW delta = the bytes the agent wrote, exactly; MBMW = HBMW plus, per rollover,
#   the blocks of the write that filled the unit (QEMU counts those twice: not GC); OCP C0
#   physical media bytes written = HBMW (QEMU's C0 reports HBMW); SMART data units written
#   within one unit of the bytes; the FDP events the agent enabled for the step counted per
#   type (one "reclaim unit not fully written" per rollover: QEMU logs one at every unit change);
# - refusals at PREPARE naming the device and the index: a placement index the namespace does
#   not have, a step placement index beyond the volume's "fdp" pids, and "fdp" on a controller
#   without FDP (CTRATT bit 19 clear);
# - seed 000's experiment (profiles/fdp-waf-3mode.json: the five KV-cache classes and their
#   metadata logs; namespace discard, fill and random pass; warmup and measurement; no_fdp /
#   mixed / separated) shrunk to a third controller's namespace, whose FDP subsystem has 1 GiB
#   reclaim units so no handle rolls over in the test: both WAF sources per mode (OCP C0 over
#   SMART, and the FDP statistics) equal the sums of their iterations' raw deltas; in every
#   measurement step of every mode each handle's host bytes (its RUH Status RUAMW delta) are
#   exactly what the mode places there (separated: hot data on 0,1, its metadata on 2, large and
#   RAG data on 3,4, their metadata on 5, metadata-heavy data on 6 and its metadata on 7; no_fdp:
#   everything on handle 0); per class the records are the profile's; the criteria pass; QEMU
#   has no GC (MBE 0), so every WAF verdict is inconclusive.
. "$(dirname "$0")/lib.sh"
vmlab_init

vm_new g1
vm_fdp g1
vm_ns g1 4096 64M
vm_ctrl g1
vm_ns g1 4096 16M
vm_ctrl g1
vm_fdp g1 fdp.runs=1G,fdp.nrg=1,fdp.nruh=8
vm_ns g1 4096 64M
vm_boot g1
vm_wait g1

# the guest's controller names by serial (PCIe probing is asynchronous: nvme0/nvme1 may swap)
ctrl_of() {
	# sysfs pads the serial with spaces
	vm_exec g1 "for c in /sys/class/nvme/nvme*; do read -r s <\$c/serial; [ \"\$s\" = $1 ] && echo \${c##*/}; done; true"
}
FDPC=$(ctrl_of vmlab-g1-nv0)
PLAINC=$(ctrl_of vmlab-g1-nv1)
BIGRUC=$(ctrl_of vmlab-g1-nv2)
{ [ -n "$FDPC" ] && [ -n "$PLAINC" ] && [ -n "$BIGRUC" ]; } ||
	fail "controllers not found (FDP: '$FDPC', plain: '$PLAINC', 1 GiB RUs: '$BIGRUC')"
FDPNG=/dev/ng${FDPC#nvme}n1
PLAINNG=/dev/ng${PLAINC#nvme}n1
BIGNG=/dev/ng${BIGRUC#nvme}n1
echo "FDP namespace $FDPNG, plain namespace $PLAINNG"

# run NAME VOLUMES STEPS: a profile with the guest's agent; bench-coord's exit status returned
run() {
	cat >"$VT/$1.json" <<JSON
{"name": "vmlab-fdp-$1",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [$2],
 "defaults": {"direct": true, "ramp": "0s", "runtime": "120s", "numjobs": 1},
 "steps": [$3]}
JSON
	"$COORD" run --plain -o "$VT/out-$1" "$VT/$1.json" >"$VT/$1.out" 2>&1
}

# ---- discovery and placement ----

# sequential 128 KiB writes of a known size, placed as PLACEMENT
wstep() {
	echo "{\"name\": \"$1\", \"rw\": \"write\", \"bs\": \"128k\", \"iodepth\": 4, \"size_based\": true, \"io_size\": \"$2\", \"placement\": $3}"
}
steps="$(wstep one-handle 1536k '[1]'), $(wstep no-rollover 640k '[2]'), $(wstep two-rollovers 2m '[3]')"
steps="$steps, $(wstep no-directive 512k '"none"'), $(wstep round-robin 1m '[4, 5]')"
run place "{\"agent\": \"g1\", \"path\": \"$FDPNG\", \"fdp\": {\"pids\": [0, 1, 2, 3, 4, 5, 6, 7]}}" "$steps" ||
	{ cat "$VT/place.out"; fail "bench-coord run place failed"; }
python3 - "$(run_dir "$VT/out-place")/run.json" "$FDPNG" <<'EOF' || fail "FDP discovery or placement does not match the prediction"
import json, sys
r = json.load(open(sys.argv[1]))
dev = sys.argv[2]
LBS, RU = 4096, 256  # 4 KiB blocks, 1 MiB reclaim units
hello = [p for a in r["agents"] for p in a["hello"]["paths"] if p["path"] == dev][0]
f = hello["nvme"]["fdp"]
print("discovery:", json.dumps({k: v for k, v in f.items() if k != "ruhs"}))
assert f["supported"] and f["enabled"] and f["endgid"] == 1 and f["config_index"] == 0, f
assert f["reclaim_groups"] == 1 and f["handles"] == 8 and f["ru_bytes"] == 1 << 20, f
assert f["ruh_usage"] == ["host"] * 8, f
assert [h["pid"] for h in f["ruhs"]] == list(range(8)), f["ruhs"]
assert all(1 <= h["ruamw"] <= RU for h in f["ruhs"]), f["ruhs"]
# per step: which handle indexes its writes go to, round-robin (one job)
plan = {"one-handle": [1], "no-rollover": [2], "two-rollovers": [3], "no-directive": [0],
        "round-robin": [4, 5]}
prev_end = None
for s in r["steps"]:
    assert s["status"] == "ok", (s["name"], s["status"])
    v = s["agent_totals"]["g1"]["volumes"][0]
    nv = v["nvme"]
    wrote = v["write"]["bytes"]
    ios = v["write"]["ios"]
    ruhs = nv["ruhs"]
    start = [h["ruamw_start"] for h in ruhs]
    end = [h["ruamw_end"] for h in ruhs]
    if prev_end is not None:
        assert start == prev_end, f"{s['name']}: RUH status moved between steps: {prev_end} -> {start}"
    prev_end = end
    # QEMU's accounting (hw/nvme/ctrl.c nvme_do_write_fdp): a write of n blocks takes them
    # from the handle's unit; one that reaches the unit's end moves the handle to a fresh
    # unit (RU blocks), and the blocks that filled the old one are counted into MBMW again
    pred = list(start)
    rollovers = extra = 0
    for i in range(ios):
        h = plan[s["name"]][i % len(plan[s["name"]])]
        n = 128 * 1024 // LBS
        while n:
            if n < pred[h]:
                pred[h] -= n
                break
            n -= pred[h]
            extra += pred[h]
            rollovers += 1
            pred[h] = RU
    fdp = nv["fdp"]
    ev = nv.get("fdp_events", {})
    print(f"{s['name']}: wrote {wrote} B in {ios} writes to handles {plan[s['name']]}; "
          f"RUAMW {start} -> {end} (predicted {pred}); HBMW +{fdp['hbmw']:.0f} "
          f"MBMW +{fdp['mbmw']:.0f} (rollovers {rollovers}, counted again {extra * LBS} B); "
          f"OCP C0 PMUW +{nv['ocp_c0']['physical_media_bytes_written']:.0f}; "
          f"SMART DUW +{nv['smart']['data_units_written']:.0f}; WAF {nv['waf'].get('value')}; "
          f"events {json.dumps(ev)}")
    assert end == pred, f"{s['name']}: RUAMW {end}, predicted {pred}"
    assert fdp["hbmw"] == wrote, f"{s['name']}: HBMW +{fdp['hbmw']} vs {wrote} bytes written"
    assert fdp["mbmw"] == wrote + extra * LBS, f"{s['name']}: MBMW +{fdp['mbmw']}"
    assert fdp["mbe"] == 0, fdp
    assert nv["ocp_c0"]["physical_media_bytes_written"] == wrote, nv["ocp_c0"]
    assert abs(nv["smart"]["data_units_written"] * 512000 - wrote) < 512000, nv["smart"]
    # seed 000's WAF: OCP C0 over SMART (QEMU's C0 is HBMW), the FDP statistics' beside it
    assert nv["waf"]["source"] == "ocp_c0" and nv["waf"]["status"] == "available", nv["waf"]
    assert nv["wafs"]["fdp"]["status"] == "available", nv["wafs"]
    assert ev["host"]["ru_not_fully_written"] + ev["controller"]["ru_not_fully_written"] == rollovers, ev
    assert ev["host"]["invalid_placement_id"] == 0, ev
md = open(sys.argv[1].replace("run.json", "summary.md")).read()
assert "enabled: config 0, 1 RG, 8 handles" in md, "summary.md's NVMe identity has no FDP"
assert "FDP placement on g1:" + dev in md and "pid 3 256;" in md, "summary.md has no FDP placement"
assert "host ru_not_fully_written 2," in md, "summary.md has no FDP events"
EOF

# ---- refusals at PREPARE ----

if run badpid "{\"agent\": \"g1\", \"path\": \"$FDPNG\", \"fdp\": {\"pids\": [2, 8]}}" "$(wstep w 128k '"volume"')"; then
	fail "a placement index the namespace does not have was accepted"
fi
grep -q "$FDPNG.*pids\[1\] = 8 refused.*8 placement handles" "$VT/badpid.out" ||
	{ cat "$VT/badpid.out"; fail "the refusal does not name the device and the index"; }
if run nofdp "{\"agent\": \"g1\", \"path\": \"$PLAINNG\", \"fdp\": {\"pids\": [0]}}" "$(wstep w 128k '"volume"')"; then
	fail "\"fdp\" on a controller without FDP was accepted"
fi
grep -q "$PLAINNG.*placement index 0 refused.*does not support flexible data placement" "$VT/nofdp.out" ||
	{ cat "$VT/nofdp.out"; fail "the refusal does not name the device and FDP"; }
# a step's placement index beyond the volume's pids: without the check it would go out as
# round-robin over them, unnoticed
if run badplace "{\"agent\": \"g1\", \"path\": \"$FDPNG\", \"fdp\": {\"pids\": [0, 1]}}" "$(wstep w 128k '[3]')"; then
	fail "a step placement index beyond the volume's fdp pids was accepted"
fi
grep -q "$FDPNG: the workload's placement index 3 refused: the volume's \"fdp\" has 2 pids" "$VT/badplace.out" ||
	{ cat "$VT/badplace.out"; fail "the placement refusal does not name the device and the index"; }
grep -h "refused" "$VT/badpid.out" "$VT/nofdp.out" "$VT/badplace.out"

# ---- an SSD evaluator's fio FDP job, imported: fdp=1 without plids is every handle ----

# fio places its writes round-robin over every handle the namespace reports ("pids": "all"):
# eight 128 KiB writes, one per handle of the eight
cat >"$VT/fdp.fio" <<FIO
[w]
ioengine=io_uring_cmd
cmd_type=nvme
filename=$FDPNG
rw=write
bs=128k
iodepth=4
fdp=1
io_size=1m
FIO
"$COORD" import-fio --agent g1 --endpoint "${VM_EP[g1]}" -o "$VT/fiofdp.json" "$VT/fdp.fio" \
	>"$VT/fiofdp.import" 2>&1 || { cat "$VT/fiofdp.import"; fail "import-fio of an FDP job refused"; }
grep -q '"pids":[[:space:]]*"all"' "$VT/fiofdp.json" || fail "the imported volume has no \"pids\": \"all\""
"$COORD" run --plain -o "$VT/out-fiofdp" "$VT/fiofdp.json" >"$VT/fiofdp.out" 2>&1 ||
	{ cat "$VT/fiofdp.out"; fail "bench-coord run of the imported FDP job failed"; }
python3 - "$(run_dir "$VT/out-fiofdp")/run.json" <<'EOF' || fail "\"pids\": \"all\" did not place a write on every handle"
import json, sys
r = json.load(open(sys.argv[1]))
RU, N = 256, 128 * 1024 // 4096
v = r["steps"][0]["agent_totals"]["g1"]["volumes"][0]
ruhs = v["nvme"]["ruhs"]
start = [h["ruamw_start"] for h in ruhs]
end = [h["ruamw_end"] for h in ruhs]
# one write of N blocks per handle; one that reaches the unit's end moves it to a fresh unit
pred = [s - N if N < s else RU - (N - s) for s in start]
print("imported fdp=1: wrote %d B in %d writes; RUAMW %s -> %s (predicted %s)" %
      (v["write"]["bytes"], v["write"]["ios"], start, end, pred))
assert v["write"]["ios"] == 8 and len(ruhs) == 8, (v["write"], len(ruhs))
assert end == pred, (end, pred)
assert v["nvme"]["fdp_events"]["host"]["invalid_placement_id"] == 0
EOF
# with "all" a placement index is checked once the agent knows the handles
if run allplace "{\"agent\": \"g1\", \"path\": \"$FDPNG\", \"fdp\": {\"pids\": \"all\"}}" "$(wstep w 128k '[9]')"; then
	fail "a placement index beyond every handle was accepted"
fi
grep -q "$FDPNG: the workload's placement index 9 refused: the volume's \"fdp\" has 8 pids" "$VT/allplace.out" ||
	{ cat "$VT/allplace.out"; fail "the placement refusal with \"all\" does not name the index"; }

# ---- seed 000's experiment (profiles/fdp-waf-3mode.json) shrunk to the guest ----

# the profile's five KV classes and three metadata logs on the 64 MiB namespace of the 1 GiB-RU
# controller; objects the seed's / 256 (16k, 128k, 64k, 8k, 4k), records per iteration the
# profile's / 16 (prefetches rounded), 1 warmup and 2 measurement iterations paced at 2 s, QD 8
python3 - "$BC_SRC/profiles/fdp-waf-3mode.json" "$VT/waf.json" "${VM_EP[g1]}" "$BIGNG" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["name"] = "vmlab-fdp-waf-3mode"
p["agents"] = [{"name": "g1", "endpoint": sys.argv[3]}]
v = p["volumes"][0]
v.update({"agent": "g1", "path": sys.argv[4]})
for k in ("offset", "length"):
    v.pop(k, None)
p["defaults"].update({"iodepth": 8, "runtime": "120s"})
st = p["steps"][0]
size = {"4m": "16k", "32m": "128k", "16m": "64k", "2m": "8k", "1m": "4k"}
for s in st["streams"]:
    if isinstance(s["kv"], dict):
        s["bs"] = size[s["bs"]]
        s["kv"]["stores"] //= 16
        s["kv"]["prefetches"] = round(s["kv"].get("prefetches", 0) / 16)
st["kv"]["pace"] = "2s"
x = st["experiment"]
x["precondition"].update({"random_bs": "64k", "iodepth": 8, "runtime": "120s"})
x["warmup_iterations"], x["measure_iterations"] = 1, 2
json.dump(p, open(sys.argv[2], "w"), indent=1)
EOF
start=$SECONDS
"$COORD" run --plain --allow-destructive -o "$VT/out-waf" "$VT/waf.json" >"$VT/waf.out" 2>&1 ||
	{ cat "$VT/waf.out"; fail "the three-mode experiment failed"; }
echo "three-mode experiment: $((SECONDS - start)) s"
R=$(run_dir "$VT/out-waf")
python3 - "$R/run.json" "$VT/waf.json" <<'EOF' || fail "the three-mode experiment's figures are wrong"
import json, sys
r = json.load(open(sys.argv[1]))
prof = json.load(open(sys.argv[2]))
steps = r["steps"]
assert len(steps) == 3 * (3 + 1 + 2), [s["name"] for s in steps]
assert all(s["status"] == "ok" for s in steps), [(s["name"], s["status"]) for s in steps]
x = steps[-1]["experiment"]
assert [m["mode"] for m in x["modes"]] == ["no_fdp", "mixed", "separated"], x["modes"]
streams = {s["name"]: s for s in prof["steps"][0]["streams"]}
# the handles a mode gives each class (stream placement in run.json), and the bytes it wrote
LBS = 4096
for m in x["modes"]:
    meas = [s for s in steps if s["mode"] == m["mode"] and s["phase"] == "measure"]
    vol = [s["agent_totals"]["g1"]["volumes"][0] for s in meas]
    # both WAF sources, each an independent sum of the iterations' raw deltas
    pmuw = sum(v["nvme"]["ocp_c0"]["physical_media_bytes_written"] for v in vol)
    duw = sum(v["nvme"]["smart"]["data_units_written"] for v in vol)
    hb = sum(v["nvme"]["fdp"]["hbmw"] for v in vol)
    mb = sum(v["nvme"]["fdp"]["mbmw"] for v in vol)
    aw = sum(v["write"]["bytes"] for v in vol)
    print(f"{m['mode']}: WAF {m['waf']} ({m['waf_status']}, {m['waf_source']}), FDP WAF "
          f"{m['wafs']['fdp']['waf']}; host {m['host_write_bytes']:.0f} B (SMART), HBMW {hb} B, "
          f"agent {aw} B; erased {m.get('media_erased_bytes')}; write p99 {m['write_p99_ms']} "
          f"read p99 {m['read_p99_ms']} all p99 {m['all_p99_ms']} ms")
    assert m["waf_status"] == "available" and m["waf_source"] == "ocp_c0", m
    assert m["host_write_bytes"] == duw * 512000 and abs(m["waf"] - pmuw / (duw * 512000)) < 1e-4, m
    f = m["wafs"]["fdp"]
    assert f["host_write_bytes"] == hb == aw and f["media_write_bytes"] == mb, (f, hb, aw)
    assert abs(f["waf"] - mb / hb) < 1e-4 and m["media_erased_bytes"] == 0, m
    # per class: the profile's records, exactly
    for c in m["classes"]:
        kv = streams[c["name"]]["kv"]
        assert c["stores"] == c["expected_stores"] == 2 * kv["stores"], c
        assert c["prefetches"] == c["expected_prefetches"] == 2 * kv.get("prefetches", 0), c
        assert c["record_failures"] == 0 and c["io_errors"] == 0, c
    # placement, per measurement step and handle: RUAMW fell by exactly the bytes placed there
    for s, v in zip(meas, vol):
        got = [(h["ruamw_start"] - h["ruamw_end"]) * LBS for h in v["nvme"]["ruhs"]]
        assert all(h["ruamw_end"] <= h["ruamw_start"] for h in v["nvme"]["ruhs"]), \
            f"{s['name']}: a handle rolled over (1 GiB units): {v['nvme']['ruhs']}"
        want = [0] * 8
        spread = []  # bytes of streams spread over several handles, with the handles
        for c in v["kv"]["classes"]:
            for name, b in ((c["name"], c["store_bytes"]), (c.get("meta"), c["meta_bytes"])):
                pl = s["placement"][name]
                if pl == "none":
                    want[0] += b  # no directive: handle 0
                elif len(pl) == 1:
                    want[pl[0]] += b
                else:
                    spread.append((pl, b))
        # a class over several handles: its objects round-robin over them, so only their sum
        sets = {}
        for pl, b in spread:
            sets[tuple(pl)] = sets.get(tuple(pl), 0) + b
        for pl, b in sets.items():
            assert sum(got[h] for h in pl) - sum(want[h] for h in pl) == b, \
                (s["name"], pl, [got[h] for h in pl], b)
            for h in pl:
                want[h] = got[h]
        print(f"{s['name']}: per-handle host bytes {got}")
        assert got == want, (s["name"], got, want)
        assert sum(got) == v["nvme"]["fdp"]["hbmw"] == v["write"]["bytes"], (got, v["nvme"]["fdp"])
    if m["mode"] == "separated":
        assert m["placement"] == {"hot_churn": [0, 1], "large_model": [3, 4], "cold_rag": [3, 4],
                                  "metadata_heavy": [6], "hot_meta": [2], "model_meta": [5],
                                  "md_meta": [7]}, m["placement"]
        # every handle got writes, each the class the mode puts there
        assert all(got), got
# no GC on QEMU: OCP C0 is HBMW (WAF 1), the FDP statistics erased nothing
print("gc:", x["gc"])
assert x["gc"]["reached"] is False, x["gc"]
for v in x["verdict"]:
    print("verdict:", v["expected"], "-", v["judgement"])
    if v["metric"] == "waf":
        assert v["outcome"] == "inconclusive", v
for c in x["criteria"]:
    print("criterion:", c["criterion"], "PASS" if c["pass"] else "FAIL",
          {k: v["observed"] for k, v in c["modes"].items()})
assert x["result"] == "PASS", x["criteria"]
EOF
grep -q '^## FDP experiment: fdp-waf' "$R/summary.md" || fail "summary.md has no experiment section"
grep -q '^Result: PASS' "$R/summary.md" || fail "summary.md has no criteria table"
grep -q '^### KV classes in separated' "$R/summary.md" || fail "summary.md has no per-class table"
echo "PASS"
