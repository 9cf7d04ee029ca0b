#!/bin/bash
# test_e2e_seed003_jobs: seed 003's fio job files (profiles/seed003/*.fio, written as the seed
# describes them: libaio, direct=1, numjobs=8, 10 s ramp + 600 s, one fio per volume) import
# without a difference from fio, and each gives the step that profiles/seed003-pov.json runs:
# the same rw, bs, numjobs, direct, ramp and runtime, and fio's clone layout for the 1 MiB
# sequential ones (every clone walks the whole volume from its start: seq_regions shared).
# The shipped profile validates. About 1 s.
. "$(dirname "$0")/lib.sh" || exit 1
[ -d "${T:-}" ] || exit 1
n=0
for f in "$BC_SRC"/profiles/seed003/*.fio; do
	b=$(basename "$f" .fio)
	"$COORD" import-fio -o "$T/$b.json" "$f" >"$T/$b.out" 2>&1 || {
		cat "$T/$b.out"
		fail "$b.fio does not import as fio runs it"
	}
	n=$((n + 1))
done
[ "$n" = 6 ] || fail "expected 6 job files, found $n"
"$COORD" validate "$BC_SRC/profiles/seed003-pov.json" >/dev/null || fail "seed003-pov.json"
python3 - "$T" "$BC_SRC/profiles/seed003-pov.json" <<'PY' || fail "the job files and the profile differ"
import glob, json, os, sys
prof = json.load(open(sys.argv[2]))
d = prof["defaults"]
steps = {s["name"]: dict(d, **s) for s in prof["steps"]}
assert len(prof["volumes"]) == 18 and len(prof["agents"]) == 3, prof["volumes"]
assert all("nvme_tcp" in v for v in prof["volumes"])
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    name = os.path.basename(path)[:-5]
    imp = json.load(open(path))
    st = imp["steps"][0]
    want = steps[name]
    for k in ("rw", "bs", "numjobs"):
        assert st[k] == want[k], (name, k, st[k], want[k])
    assert st["direct"] is True and st["ramp"] == 10 and st["runtime"] == 600, (name, st)
    assert want["ramp"] == "10s" and want["runtime"] == "600s", want
    seq = st["rw"] in ("read", "write")
    assert st.get("seq_regions") == ("shared" if seq else None), (name, st)
    assert want.get("seq_regions") == ("shared" if seq else None), (name, want)
    # the job file's iodepth is one point of the profile's sweep, with its x4 neighbour
    pts = want["sweep"]["iodepth"]
    assert st["iodepth"] in pts and st["iodepth"] * 4 in pts, (name, st["iodepth"], pts)
    print(f"{name}: {st['rw']} {st['bs']} numjobs {st['numjobs']} iodepth {st['iodepth']} "
          f"(profile sweep {pts})")
PY
echo "PASS"
