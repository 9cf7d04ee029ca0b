#!/bin/bash
# test_e2e_repeat: "repeat" runs each step N times as ordinary steps ("<step>#k", in rounds);
# summary.md gives each figure's mean and 95% interval over the repetitions and, for a long
# step, over its seconds (batch means) - both recomputed here from run.json independently;
# `compare` calls a run not distinguishable from itself and a copy with half the IOPS lower.
. "$(dirname "$0")/lib.sh"

cat >"$T/p.json" <<JSON
{
  "name": "e2e-repeat",
  "agents": [{"name": "a1", "endpoint": "local"}],
  "volumes": [{"agent": "a1", "path": "v0.dat", "size": "16m"}],
  "repeat": 3,
  "steps": [{"name": "rr", "rw": "randrw", "bs": "4k", "iodepth": 4, "runtime": "2s"},
            {"name": "long", "rw": "randread", "bs": "4k", "iodepth": 2, "runtime": "12s",
             "repeat": 1}]
}
JSON
"$COORD" run -q -o "$T/out" "$T/p.json" >"$T/run.out" 2>&1 || {
	cat "$T/run.out"
	fail "bench-coord run failed"
}
R=$(run_dir "$T/out")
names=$(json "$R/run.json" '" ".join(s["name"] for s in r["steps"])')
[ "$names" = "rr#1 long rr#2 rr#3" ] || fail "steps ran as: $names"
[ "$(json "$R/profile.json" '[(s["name"], s.get("repeat")) for s in r["steps"]]')" = \
	"[('rr', 3), ('long', None)]" ] || fail "profile.json does not read back as written"

# an independent recomputation of every interval summary.md shows
python3 - "$R" <<'PY' || fail "summary.md intervals disagree with run.json"
import json, math, re, statistics, sys
d = sys.argv[1]
r = json.load(open(d + "/run.json"))
md = open(d + "/summary.md").read()
T975 = {1: 12.706205, 2: 4.302653, 3: 3.182446}  # t table, two-sided 95% (to the digits the C code resolves)

def cell(row_start, col):
    # rows of the two interval tables only (the step name starts rows of other tables too)
    start = md.index("Repetitions: mean")
    sect = md[start:md.index("\n## ", start)]
    for line in sect.splitlines():
        if line.startswith(row_start):
            return [c.strip() for c in line.strip("|").split("|")][col]
    sys.exit("no row " + row_start)

def check(shown, mean, half, dec):
    want = "%.*f ± %.*f" % (dec, mean, dec, half)
    if shown != want:
        sys.exit("shown %r, recomputed %r" % (shown, want))

reps = [s for s in r["steps"] if s["name"].startswith("rr#")]
assert len(reps) == 3 and all(s["status"] == "ok" for s in reps)
for op, col_row in (("total", "| rr | total |"), ("read", "| rr | read |"), ("write", "| rr | write |")):
    ent = lambda s: s["total"] if op == "total" else s["total"][op]
    for key, col, dec, scale in (("iops", 3, 0, 1), ("mbps", 4, 1, 1), ("p99", 7, 3, 1e-3)):
        v = [(ent(s)[key] if key in ("iops", "mbps") else ent(s)["lat_us"][key] * scale) for s in reps]
        half = T975[2] * statistics.stdev(v) / math.sqrt(3)
        check(cell(col_row, col), statistics.mean(v), half, dec)
assert cell("| rr | total |", 2) == "3 of 3 ok"

# the long step: batch means of its measured seconds
st = [s for s in r["steps"] if s["name"] == "long"][0]
f, n = st["measured_from_second"], st["measured_seconds"]
x = [v for v in st["total"]["series"]["iops"][f:f + n] if v is not None]
b = math.ceil(math.sqrt(len(x)))
k = len(x) // b
skip = len(x) - k * b
bm = [statistics.mean(x[skip + i * b: skip + (i + 1) * b]) for i in range(k)]
half = T975[k - 1] * statistics.stdev(bm) / math.sqrt(k)
check(cell("| long |", 4), statistics.mean(x), half, 0)
assert cell("| long |", 2) == str(b), cell("| long |", 2)
print("recomputed: rr IOPS over 3 repetitions, long IOPS over %d batches of %d s" % (k, b))
PY
grep -q 'Repetitions: mean ± 95% interval' "$R/report.html" || fail "report.html has no repetitions table"

# a run against itself: every figure "not distinguishable", exit 0
"$COORD" compare "$R" "$R" --md "$T/cmp.md" >"$T/cmp.out" || {
	cat "$T/cmp.out"
	fail "a run is distinguishable from itself"
}
grep -q '2 step(s): 2 not distinguishable, 0 different' "$T/cmp.out" || fail "compare: $(tail -1 "$T/cmp.out")"
# (a run on a contended client host - a loaded CI machine - is compared all the same, and said)
[ "$(grep -c 'not distinguishable\($\|; a CONTENDED run was compared (\)' "$T/cmp.out")" -eq 10 ] ||
	fail "not 8+2 figure verdicts: $(cat "$T/cmp.out")"
grep -q '^## Step rr$' "$T/cmp.md" || fail "repetitions not compared as their step"

# half the IOPS in every repetition (and every second of the long step): "lower", exit 1.
# Compared on copies whose IOPS are made steady first (the mean with +-1% spread): the verdict
# is a t-test, and on a busy host three 2-second repetitions can scatter so widely that half
# of them is truly not distinguishable - what is tested here is the verdict, not the host.
cp -r "$R" "$T/base"
python3 - "$T/base/run.json" <<'PY'
import json, sys
p = sys.argv[1]
r = json.load(open(p))
reps = [s for s in r["steps"] if s["name"].startswith("rr#")]
m = sum(s["total"]["iops"] for s in reps) / len(reps)
for k, s in enumerate(reps):
    s["total"]["iops"] = m * (1 + 0.01 * (k - 1))
for s in r["steps"]:
    ser = s["total"]["series"]["iops"]
    got = [v for v in ser if v is not None]
    sm = sum(got) / len(got)
    s["total"]["series"]["iops"] = [None if v is None else sm * (1 + 0.01 * (i % 3 - 1))
                                    for i, v in enumerate(ser)]
json.dump(r, open(p, "w"))
PY
cp -r "$T/base" "$T/half"
python3 - "$T/half/run.json" <<'PY'
import json, sys
p = sys.argv[1]
r = json.load(open(p))
for s in r["steps"]:
    s["total"]["iops"] *= 0.5
    s["total"]["series"]["iops"] = [v * 0.5 if v is not None else None for v in s["total"]["series"]["iops"]]
json.dump(r, open(p, "w"))
PY
if "$COORD" compare "$T/base" "$T/half" >"$T/cmp2.out"; then
	fail "compare missed half the IOPS"
fi
grep -q 'DIFFERENT: half IOPS lower' "$T/cmp2.out" || fail "compare verdict: $(cat "$T/cmp2.out")"
grep -E '^  half +IOPS .* lower$' "$T/cmp2.out" | grep -q . || fail "no IOPS 'lower' row"
grep -E '^  half +MB/s .* not distinguishable$' "$T/cmp2.out" | grep -q . || fail "MB/s was not left alone"

# the fixed threshold stays an option
"$COORD" compare -t 5 "$R" "$R" >"$T/cmp3.out" || fail "compare -t 5 of a run with itself"
grep -q 'consistent' "$T/cmp3.out" || fail "no threshold verdict"
echo "PASS"
