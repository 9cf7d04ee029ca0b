#!/bin/bash
# test_e2e_preflight: `bench-coord agents PROFILE` has every agent check every volume as PREPARE
# would -- allowlist, existence, size/window, signature, mounted, destructive consent -- with
# PREPARE's own messages, creating and writing nothing; exit 1 naming every refused volume. A
# read step passes what a write step is refused. `run` on such a profile stops before any START
# and says "not started" (no partial results). Mounted/ext4 loop devices when root.
. "$(dirname "$0")/lib.sh"

OUTSIDE=$(mktemp /var/tmp/bc-e2e-outside.XXXXXX)   # exists, but not in the agent's allowlist
LOOP="" MNT=""
undo() {
	local rc=$?
	[ -z "$MNT" ] || umount "$MNT" 2>/dev/null || true
	[ -z "$LOOP" ] || losetup -d "$LOOP" || true
	rm -f "$OUTSIDE"
	(exit $rc)
	cleanup
}
trap undo EXIT
mkdir -p "$T/data"
head -c 4096 /dev/zero >"$T/data/small.dat"   # smaller than one 64k block
printf 'x' | dd of="$T/data/sig.img" bs=1 seek=$((8 << 20)) conv=notrunc status=none
# an ext2/3/4 superblock magic at byte 1080 of an image file (not a block device: allowed)
printf '\x53\xef' | dd of="$T/data/sig.img" bs=1 seek=1080 conv=notrunc status=none

if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null; then
	truncate -s 32M "$T/disk.img"
	mkfs.ext4 -q -F "$T/disk.img"
	if LOOP=$(losetup -f --show "$T/disk.img" 2>/dev/null); then
		mkdir -p "$T/mnt"
		mount "$LOOP" "$T/mnt" && MNT="$T/mnt"
	fi
fi
if [ -n "$MNT" ]; then
	start_agent a1 --allow "$LOOP"   # the agent allows exactly this device
	LOOPVOL=", {\"agent\": \"a1\", \"path\": \"$LOOP\"}"
else
	echo "note: not root or no losetup/mkfs.ext4/mount: the mounted loop device case is not tried"
	LOOP="" LOOPVOL=""
	start_agent a1
fi

# profile RW: every kind of volume, one step of RW
profile() {
	cat <<JSON
{"name": "e2e-preflight", "agents": [{"name": "a1", "endpoint": "$EP_a1"}],
 "volumes": [
  {"agent": "a1", "path": "$T/data/new.dat", "size": "8m"},
  {"agent": "a1", "path": "$OUTSIDE"},
  {"agent": "a1", "path": "$T/data/missing.dat"},
  {"agent": "a1", "path": "$T/data/small.dat"},
  {"agent": "a1", "path": "$T/data/sig.img", "offset": "16m"}$LOOPVOL],
 "steps": [{"name": "s1", "rw": "$1", "bs": "64k", "runtime": "1s"}]}
JSON
}
profile randwrite >"$T/w.json"
profile randread >"$T/r.json"

rc=0
"$COORD" agents "$T/w.json" >"$T/out" 2>"$T/err" || rc=$?
cat "$T/out" "$T/err"
[ "$rc" = 1 ] || fail "agents exit $rc with volumes that PREPARE refuses, expected 1"
[ ! -e "$T/data/new.dat" ] || fail "the pre-flight created a volume file"
grep -qE "^a1 +$T/data/new\.dat +ok" "$T/out" || fail "a creatable volume is not ok"
# every refused volume named on stderr, with the reason
for want in "$OUTSIDE.*not in this agent's allowlist|$OUTSIDE.*allow" \
	"$T/data/missing\.dat: no such file" \
	"$T/data/small\.dat: I/O window .* smaller than one block of 65536" \
	"$T/data/sig\.img: offset 16777216 is at or beyond the end"; do
	grep -Eq "agent a1 \(tcp://127\.0\.0\.1:[0-9]+\): volume .*would be refused at PREPARE: .*($want)" \
		"$T/err" || fail "refusal /$want/ not reported"
done
n=4
if [ -n "$MNT" ]; then
	grep -q "volume $LOOP would be refused at PREPARE: refusing to write to $LOOP: mounted on $MNT (ext4)" \
		"$T/err" || fail "the mounted loop device is not refused as mounted"
	n=5
fi
grep -q "pre-flight: $n volume(s) would be refused" "$T/err" || fail "the count of refusals is not $n"

# --json carries the same verdicts per volume
"$COORD" agents --json "$T/w.json" >"$T/json" 2>/dev/null && fail "agents --json exit 0"
python3 - "$T/json" "$n" <<'PY' || fail "agents --json volumes wrong"
import json, sys
a = json.load(open(sys.argv[1]))[0]
v = a["volumes"]
assert v[0]["ok"] and not any(x["ok"] for x in v[1:]), v
assert len([x for x in v if not x["ok"]]) == int(sys.argv[2]), v
assert all(x["steps"] == ["s1"] for x in v[1:]), v
PY

# the same messages as PREPARE: run the missing volume alone and compare
python3 - "$T/w.json" "$T/one.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["volumes"] = [p["volumes"][2]]
json.dump(p, open(sys.argv[2], "w"))
PY
"$COORD" agents "$T/one.json" >/dev/null 2>"$T/err1" && fail "agents accepted a missing volume"
pre=$(sed -n 's/.*would be refused at PREPARE: //p' "$T/err1")
rc=0
"$COORD" run -o "$T/runs" "$T/one.json" >"$T/rout" 2>"$T/rerr" || rc=$?
cat "$T/rout" "$T/rerr"
[ "$rc" = 1 ] || fail "run with a missing volume: exit $rc"
grep -qF "$pre" "$T/rerr" || fail "PREPARE's message differs from the pre-flight's: '$pre'"
grep -q "run NOT STARTED" "$T/rout" || fail "run does not say it did not start"
! grep -q "partial results" "$T/rout" || fail "run claims partial results"
R=$(ls -d "$T/runs"/*/)
json "$R/run.json" "r['status']" | grep -qx "not started" || fail "run.json status is not 'not started'"

# a read step: reads need only the allowlist and an existing, large enough volume
rc=0
"$COORD" agents "$T/r.json" >"$T/out" 2>"$T/err" || rc=$?
cat "$T/err"
[ "$rc" = 1 ] || fail "agents on the read profile: exit $rc, expected 1"
if [ -n "$MNT" ]; then
	grep -qE "^a1 +$LOOP +ok" "$T/out" || fail "a read of the mounted device is refused"
fi
grep -q "pre-flight: 4 volume(s) would be refused" "$T/err" || fail "read profile: wrong refusals"

# the signature: a write to the ext4 image file is fine (files carry no check); on the loop device,
# once unmounted, the ext4 signature refuses writes and says how to consent
if [ -n "$MNT" ]; then
	umount "$MNT"
	MNT=""
	python3 - "$T/w.json" "$T/loop.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["volumes"] = [p["volumes"][5]]
json.dump(p, open(sys.argv[2], "w"))
PY
	"$COORD" agents "$T/loop.json" >"$T/out" 2>"$T/err" && fail "agents accepted an ext4 device"
	grep -q "refusing to write to $LOOP: carries a signature: ext2/3/4 filesystem" "$T/err" ||
		fail "the ext4 signature is not named"
	grep -q '"destructive": true' "$T/err" || fail "the refusal does not say how to consent"
	dd if="$LOOP" bs=2 skip=540 count=1 status=none | od -An -tx1 | grep -q "53 ef" ||
		fail "the pre-flight changed the device"
fi

# all volumes fine: exit 0
python3 - "$T/w.json" "$T/good.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["volumes"] = [p["volumes"][0], {"agent": "a1", "path": "null"}]
json.dump(p, open(sys.argv[2], "w"))
PY
"$COORD" agents "$T/good.json" >"$T/out" 2>"$T/err" || { cat "$T/out" "$T/err"; fail "agents refused good volumes"; }
[ ! -e "$T/data/new.dat" ] || fail "the pre-flight created a volume file"
echo "PASS"
