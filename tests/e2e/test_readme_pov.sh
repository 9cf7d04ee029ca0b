#!/bin/bash
# test_readme_pov: the profile README.md shows in "A PoV in steps" is profiles/pov-nvme-tcp-3x6.json
# byte for byte, and `bench-coord validate` accepts it as 3 agents x 6 nvme_tcp volumes with an
# iodepth sweep: the README's reference example cannot drift from the file users copy. Under a second.
. "$(dirname "$0")/lib.sh"

P="$BC_SRC/profiles/pov-nvme-tcp-3x6.json"
python3 - "$BC_SRC/README.md" "$P" <<'PY' || fail "README.md's PoV profile differs from $P"
import re, sys
readme, prof = (open(p, encoding="utf-8").read() for p in sys.argv[1:])
blocks = [b for b in re.findall(r"^```json\n(.*?)^```", readme, re.S | re.M) if '"pov-nvme-tcp-3x6"' in b]
if len(blocks) != 1:
    sys.exit(f"README.md has {len(blocks)} json blocks naming pov-nvme-tcp-3x6, expected 1")
if blocks[0] != prof:
    sys.exit("the README's block and the file differ")
PY
"$COORD" validate "$P" >"$T/out" 2>&1 || { cat "$T/out"; fail "validate refused $P"; }
"$COORD" validate --resolved "$P" >"$T/resolved.json" 2>"$T/err" || { cat "$T/err"; fail "validate --resolved failed"; }
python3 - "$T/resolved.json" <<'PY' || fail "the PoV profile is not 3 clients x 6 nvme_tcp volumes with an iodepth sweep"
import json, sys, collections
p = json.load(open(sys.argv[1]))
per = collections.Counter(v["agent"] for v in p["volumes"] if "nvme_tcp" in v)
assert len(p["agents"]) == 3 and sorted(per.values()) == [6, 6, 6], per
addrs = {a for n in p["nodes"] for a in n.get("addresses", [])}
assert all(v["nvme_tcp"]["traddr"] in addrs for v in p["volumes"]), "a traddr no node holds"
assert any("iodepth" in s.get("sweep", {}) for s in p["steps"]), "no iodepth sweep"
PY
echo "PASS"
