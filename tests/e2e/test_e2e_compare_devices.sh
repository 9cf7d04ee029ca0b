#!/bin/bash
# test_e2e_compare_devices: `compare` of two runs of one profile on one drive before and after a
# namespace format (512e -> 4Kn, as events.jsonl's READY records it) says what differs in the
# device's identity - LBA data size, the format in use, firmware - and beside each step's
# figures the drive's temperature (min/max/mean per run and the mean's difference), in the
# terminal and in --md; two runs on identical devices say the identity is the same.
. "$(dirname "$0")/lib.sh"

S="$BC_SRC/tests/data/report/synthetic"
mkdir -p "$T/A" "$T/B" "$T/C"
cp "$S"/* "$T/A/"
cp "$S"/* "$T/B/"
cp "$S"/* "$T/C/"
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
def nvme(lba, fmt, fw):
    return {"model": "WD_BLACK SN850X 2000GB", "serial": "23XYZ", "firmware": fw,
            "lba_bytes": lba, "lba_kind": "512e" if lba == 512 else "4Kn", "metadata_bytes": 0,
            "format_index": fmt, "formats": [{"index": 0, "lba_bytes": 512, "metadata_bytes": 0},
                                             {"index": 1, "lba_bytes": 4096, "metadata_bytes": 0}]}
def patch(d, lba, fmt, fw, temps):
    lines = []
    for l in open(d + "/events.jsonl"):
        ev = json.loads(l)
        if ev.get("event") == "ready":
            for a in ev["agents"].values():
                for v in a["volumes"]:
                    v["lbs"] = v["pbs"] = lba if lba == 4096 else 512
                    v["pbs"] = 4096
                    v["nvme"] = nvme(lba, fmt, fw)
        lines.append(json.dumps(ev, separators=(",", ":")))
    open(d + "/events.jsonl", "w").write("\n".join(lines) + "\n")
    r = json.load(open(d + "/run.json"))
    for s in r["steps"]:
        for v in s["volumes"]:
            n = s["seconds"]
            c = [temps[0] + (temps[1] - temps[0]) * k / max(n - 1, 1) for k in range(n)]
            v["nvme_temp"] = {"celsius": [None] + c[1:], "min_c": min(c[1:]), "max_c": max(c[1:])}
    json.dump(r, open(d + "/run.json", "w"))
patch(t + "/A", 512, 0, "731100WD", (40.0, 60.0))
patch(t + "/B", 4096, 1, "731120WD", (42.0, 70.0))
patch(t + "/C", 512, 0, "731100WD", (40.0, 60.0))
PY
"$COORD" compare --md "$T/cmp.md" "$T/A" "$T/B" >"$T/out" 2>"$T/err" || true
grep -q "^device identity differs" "$T/out" || fail "no identity difference: $(cat "$T/out" "$T/err")"
line=$(grep "/dev/nvme0n1: " "$T/out")
for w in "LBA data size: A 512, B 4096" "LBA format kind: A 512e, B 4Kn" \
	"format in use: A #0 (512 B data, 0 B metadata), B #1 (4096 B data, 0 B metadata)" \
	"firmware: A 731100WD, B 731120WD" "logical block: A 512, B 4096"; do
	grep -qF "$w" <<<"$line" || fail "identity line lacks '$w': $line"
done
grep -qF "model:" <<<"$line" && fail "the model is the same but called out: $line"
python3 - "$T" <<'PY' || fail "temperatures are not min/max/mean of the step's seconds"
import json, re, sys
t = sys.argv[1]
out = open(t + "/out").read()
a = json.load(open(t + "/A/run.json")); b = json.load(open(t + "/B/run.json"))
for sa in a["steps"]:
    if sa["status"] != "ok":
        continue
    sb = [s for s in b["steps"] if s["name"] == sa["name"]][0]
    def f(s):
        c = [x for x in s["volumes"][0]["nvme_temp"]["celsius"] if x is not None]
        return min(c), max(c), sum(c) / len(c)
    (al, ah, am), (bl, bh, bm) = f(sa), f(sb)
    want = "A %.1f/%.1f/%.1f  B %.1f/%.1f/%.1f (%+.1f)" % (al, ah, am, bl, bh, bm, bm - am)
    assert want in out, (sa["name"], want, out)
md = open(t + "/cmp.md").read()
assert "## Devices" in md and "LBA data size: A 512, B 4096" in md, md
assert "Drive temperature, C" in md and "| min | max | mean |" in md, md
print("compare: identity and temperature called out")
PY
"$COORD" compare "$T/A" "$T/C" >"$T/out2" 2>&1 || true
grep -q "^device identity: the same in every run (2 device(s))" "$T/out2" ||
	fail "identical devices not said: $(cat "$T/out2")"
echo ok
