#!/bin/bash
# test_e2e_fileset: a file set (a volume with "fileset", vdbench's fsd=) on a local agent, on a
# filesystem with a block device under it:
#  - PREPARE builds the tree (2 x 2 directories, 8 files in each of the last level, sizes
#    32k/64k by share) and writes every file it made before the first step; the tree on disk
#    has the planned files and sizes, and run.json says so (backing: files, bytes; layout);
#  - a sequential one-pass read with fileselect sequential reads every file from its start to
#    its end: exactly the set's bytes, and the device under it moved them (direct I/O);
#  - random writes with fileselect random land in the tree's files only: every file keeps its
#    size, no file is added, the tree's content changes;
#  - "fileset_format": "fresh" deletes the tree's files and builds it anew;
#  - two workloads on the set at once deal its files over all their jobs; more jobs than
#    files is refused;
#  - file_stopafter: 16k of a file before the next, the next visit going on where it stopped
#    (the writes' stamps give the order);
#  - vdbench's own form: tests/data/vdbench/fileset.parm (fsd=, fwd=, format=only, format=no,
#    format=yes, fwdrate=) imported and run: the format step writes every file once (the set's
#    bytes exactly, through the device), the read step reads the files, format=yes deletes and
#    rebuilds the tree before random writes at fwdrate=200.
# About 30 s.
. "$(dirname "$0")/lib.sh"

need_block_fs "$T"
SCR="$T/scr"
cat >"$T/p.json" <<JSON
{"name": "fileset",
 "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "tree",
              "fileset": {"depth": 2, "width": 2, "files": 8,
                          "sizes": [{"size": "32k", "pct": 50}, {"size": "64k", "pct": 50}]}}],
 "defaults": {"direct": true, "iodepth": 1, "numjobs": 2, "ramp": "0s"},
 "steps": [{"name": "pass", "rw": "read", "bs": "16k", "size_based": true, "runtime": "60s"},
           {"name": "rw", "rw": "randwrite", "bs": "4k", "fileselect": "random", "runtime": "2s"}]}
JSON
"$COORD" validate "$T/p.json" >/dev/null || fail "validate refuses the profile"
"$COORD" run -o "$T/out" --plain --scratch-dir "$SCR" "$T/p.json" >"$T/out1" 2>&1 || {
	cat "$T/out1"
	fail "the file set run failed"
}
R=$(run_dir "$T/out")
RJ="$R/run.json"
TREE="$SCR/a1/tree"
NF=$(find "$TREE" -type f | wc -l)
ND=$(find "$TREE" -mindepth 1 -type d | wc -l)
[ "$NF" = 32 ] && [ "$ND" = 6 ] || fail "the tree has $NF files and $ND directories, expected 32 and 6"
[ -f "$TREE/vdb.1_2.dir/vdb.2_1.dir/vdb_f0008.file" ] || fail "no vdbench-named file: $(find "$TREE" | head)"
BAD=$(find "$TREE" -type f ! -size 32k ! -size 64k | head -n1)
[ -z "$BAD" ] || fail "$BAD is $(stat -c %s "$BAD") bytes, not 32k or 64k"
N32=$(find "$TREE" -type f -size 32k | wc -l)
[ "$N32" -gt 0 ] && [ "$N32" -lt 32 ] || fail "$N32 of 32 files are 32k: the shares were not drawn"
BYTES=$(find "$TREE" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
json "$RJ" "[(b['kind'], b['files'], b['directories'], b['bytes'], b['created'], b['laid_out']) for b in r['steps'][0]['backing']]" |
	grep -qx "\[('fileset', 32, 6, $BYTES, 32, True)\]" ||
	fail "run.json backing: $(json "$RJ" "r['steps'][0]['backing']"), expected 32 files of $BYTES bytes"
json "$RJ" "sorted((e['bytes'], e['files']) for e in r['steps'][0]['backing'][0]['sizes'])" |
	grep -qx "\[(32768, $N32), (65536, $((32 - N32)))\]" ||
	fail "run.json sizes: $(json "$RJ" "r['steps'][0]['backing'][0]['sizes']"), expected $N32 of 32k"
json "$RJ" "[(l['bytes'], l['files']) for l in r['steps'][0]['layout']]" | grep -qx "\[($BYTES, 32)\]" ||
	fail "layout before the first step: $(json "$RJ" "r['steps'][0]['layout']")"
[ "$(json "$RJ" "r['steps'][1]['layout']")" = "[]" ] || fail "the tree was laid out again"
# every file read from its start to its end, once: the set's bytes exactly, from the device
V="r['steps'][0]['agent_totals']['a1']['volumes'][0]"
[ "$(json "$RJ" "$V['read']['bytes']")" = "$BYTES" ] ||
	fail "the pass read $(json "$RJ" "$V['read']['bytes']") bytes, the set holds $BYTES"
json "$RJ" "$V['device']['read_bytes'] >= $BYTES" | grep -qx True ||
	fail "the device read $(json "$RJ" "$V['device']") for $BYTES bytes read direct"
json "$RJ" "r['steps'][0]['device_check'][0]['pass']" | grep -qx True ||
	fail "device check: $(json "$RJ" "r['steps'][0]['device_check']")"
# random writes stayed in the tree's files
W="r['steps'][1]['agent_totals']['a1']['volumes'][0]"
json "$RJ" "$W['write']['ios'] > 0 and $W['write']['errors'] == 0" | grep -qx True ||
	fail "the random writes: $(json "$RJ" "$W['write']")"
[ "$(find "$TREE" -type f | wc -l)" = 32 ] || fail "files were added"
[ "$(find "$TREE" -type f -printf '%s\n' | awk '{s += $1} END {print s}')" = "$BYTES" ] ||
	fail "a file changed size"
[ -z "$(find "$SCR" -type f ! -path "$TREE/*")" ] || fail "files outside the tree: $(find "$SCR" -type f ! -path "$TREE/*")"

# fresh: the tree's files deleted and made anew (and laid out again)
SUM0=$(find "$TREE" -type f -exec cat {} + | md5sum)
sed -e 's/"fileselect": "random", "runtime": "2s"/"fileselect": "random", "runtime": "1s", "fileset_format": "fresh"/' \
	-e 's/"rw": "randwrite"/"rw": "randread"/' "$T/p.json" >"$T/f.json"
"$COORD" run -q -o "$T/out2" --scratch-dir "$SCR" "$T/f.json" >"$T/out2.txt" 2>&1 || {
	cat "$T/out2.txt"
	fail "the fresh run failed"
}
RJ="$(run_dir "$T/out2")/run.json"
json "$RJ" "[(b['deleted'], b['created']) for b in r['steps'][1]['backing']]" | grep -qx "\[(32, 32)\]" ||
	fail "fresh: $(json "$RJ" "r['steps'][1]['backing']")"
json "$RJ" "[l['bytes'] for l in r['steps'][1]['layout']]" | grep -qx "\[$BYTES\]" ||
	fail "fresh: not laid out anew: $(json "$RJ" "r['steps'][1]['layout']")"
[ "$(find "$TREE" -type f -exec cat {} + | md5sum)" != "$SUM0" ] || fail "fresh left the files as they were"

# two workloads on the set at once (vdbench's fwds on one fsd): the files are dealt over the
# jobs of both; more jobs than files is refused, naming the set
cat >"$T/two.json" <<JSON
{"name": "two", "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "two", "fileset": {"depth": 1, "width": 2, "files": 2, "sizes": "64k"}}],
 "defaults": {"direct": true, "iodepth": 1, "numjobs": 2, "ramp": "0s", "runtime": "1s"},
 "steps": [{"name": "two", "rw": "randread", "bs": "4k",
            "volume_workloads": {"0": [{"rw": "randread", "bs": "4k", "fileselect": "random"},
                                       {"rw": "write", "bs": "16k", "rate_iops": 100}]}}]}
JSON
"$COORD" run -q -o "$T/out4" --scratch-dir "$SCR" "$T/two.json" >"$T/out4.txt" 2>&1 || {
	cat "$T/out4.txt"
	fail "two workloads on one file set failed"
}
RJ="$(run_dir "$T/out4")/run.json"
json "$RJ" "[(v['read']['ios'] > 0, v['write']['ios'] > 0, v['write']['errors']) for v in r['steps'][0]['agent_totals']['a1']['volumes']]" |
	grep -qx "\[(True, True, 0)\]" || fail "two workloads: $(json "$RJ" "r['steps'][0]['agent_totals']")"
sed -i 's/"files": 2/"files": 1/' "$T/two.json"
rc=0
"$COORD" run -q -o "$T/out5" --scratch-dir "$T/scr5" "$T/two.json" >"$T/out5.txt" 2>&1 || rc=$?
[ "$rc" != 0 ] && grep -q "the file set has 2 files for 4 jobs" "$T/out5.txt" ||
	fail "4 jobs on 2 files: exit $rc: $(cat "$T/out5.txt")"

# file_stopafter (vdbench's stopafter=): 16k of a file, then the next; the next visit goes on
# where the last stopped. The writes' stamps (offset, the job's write number) show the order:
# f1 0-16k, f2 0-16k, f1 16-32k, ...
cat >"$T/stop.json" <<JSON
{"name": "stop", "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "stop", "fileset": {"depth": 0, "files": 2, "sizes": "64k"}}],
 "steps": [{"name": "w", "rw": "write", "bs": "16k", "iodepth": 1, "numjobs": 1, "direct": true,
            "size_based": true, "file_stopafter": "16k", "ramp": "0s", "runtime": "30s"}]}
JSON
"$COORD" run -q -o "$T/out6" --scratch-dir "$SCR" "$T/stop.json" >"$T/out6.txt" 2>&1 || {
	cat "$T/out6.txt"
	fail "the file_stopafter run failed"
}
python3 - "$SCR/a1/stop" <<'PY' || fail "file_stopafter: the writes did not stop after 16k of each file"
import struct, sys
d = sys.argv[1]
got = []
for f in ("vdb_f0001.file", "vdb_f0002.file"):
    b = open("%s/%s" % (d, f), "rb").read()
    got.append([struct.unpack_from("=QQ", b, off) for off in range(0, 65536, 16384)])
# (the set's offset, the write's number): visits alternate between the two files
want = [[(0, 0), (16384, 2), (32768, 4), (49152, 6)],
        [(65536, 1), (81920, 3), (98304, 5), (114688, 7)]]
assert got == want, got
PY

# the vdbench parameter file, imported and run
"$COORD" import-vdbench -o "$T/vdb.json" "$BC_SRC/tests/data/vdbench/fileset.parm" 2>"$T/imp.err" || {
	cat "$T/imp.err"
	fail "fileset.parm does not import"
}
SCR2="$T/scr2"
"$COORD" run -q -o "$T/out3" --scratch-dir "$SCR2" "$T/vdb.json" >"$T/out3.txt" 2>&1 || {
	cat "$T/out3.txt"
	fail "the imported vdbench file set run failed"
}
RJ="$(run_dir "$T/out3")/run.json"
TREE2="$SCR2/local/tree"
[ "$(find "$TREE2" -type f | wc -l)" = 32 ] || fail "the imported tree has $(find "$TREE2" -type f | wc -l) files"
BYTES2=$(find "$TREE2" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
V="['agent_totals']['local']['volumes'][0]"
json "$RJ" "[(s['name'], s$V['write']['bytes'], s$V['read']['bytes'] > 0, s['device_check'][0]['pass']) for s in r['steps']]" |
	grep -qx "\[('format', $BYTES2, False, True), ('read', 0, True, True), ('write', .*, False, True)\]" ||
	fail "imported steps: $(json "$RJ" "[(s['name'], s$V['write']['bytes'], s$V['read']['bytes'], s['device_check']) for s in r['steps']]"), set $BYTES2 bytes"
# format=only wrote the files itself: no layout before it; format=yes deleted and rebuilt them
json "$RJ" "[(len(s['layout']), [(b['created'], b['deleted']) for b in s['backing']]) for s in r['steps']]" |
	grep -qx "\[(0, \[(32, 0)\]), (0, \[(0, 0)\]), (1, \[(32, 32)\])\]" ||
	fail "format steps: $(json "$RJ" "[(s['layout'], s['backing']) for s in r['steps']]")"
# fwdrate=200 over 1 s of ramp and 3 measured: at most 200 writes a second, give or take one
json "$RJ" "0 < r['steps'][2]$V['write']['ios'] <= 200 * 5" | grep -qx True ||
	fail "fwdrate=200: $(json "$RJ" "r['steps'][2]$V['write']")"
echo "PASS"
