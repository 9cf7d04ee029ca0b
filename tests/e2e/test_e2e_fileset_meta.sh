#!/bin/bash
# test_e2e_fileset_meta: a file set's metadata operations ("meta", agent/engine/meta.h) run for
# real on a tree in a temporary directory, the tree on disk checked after every step against
# the counts run.json gives:
#  - "fileset_format": "none" builds nothing; mkdir makes the tree's 6 directories, then
#    stops (nothing left to make: "ran_out"); create makes its 32 files (0 bytes), then stops;
#  - getattr (fileselect random), setattr, access, open and close run for the step's seconds
#    on the 32 files: ops counted by kind equal the volume's "meta" class and the total's, with
#    latency percentiles; setattr moved every file's mtime; nothing is added or removed;
#  - a size_based getattr with "passes": 3 stats each file 3 times, then ends;
#  - delete removes the 32 files, rmdir the 6 directories deepest first;
#  - create_write (vdbench's create) makes each file and writes it to its size: the writes are
#    the volume's write class, bytes exact;
#  - vdbench's own form: tests/data/vdbench/meta.parm (foroperations= on an empty anchor,
#    format=no) imported and run, a step per operation, the counts exact;
#  - fio's filecreate, filestat (loops=3) and filedelete jobs imported and run in turn on one
#    directory: 20 files made, 60 stats, 20 deletions;
#  - a meta workload on a volume without a file set is refused, naming it.
# About 35 s.
. "$(dirname "$0")/lib.sh"

SCR="$T/scr"
# profile FILE STEPS: the tree (2 x 2 directories, 8 files in each of the last level), as it is
profile() {
	cat >"$1" <<JSON
{"name": "meta",
 "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "tree",
              "fileset": {"depth": 2, "width": 2, "files": 8, "sizes": "4k"}}],
 "defaults": {"iodepth": 1, "numjobs": 2, "ramp": "0s", "runtime": "1s", "fileset_format": "none"},
 "steps": [$2]}
JSON
}
profile "$T/p.json" '{"name": "mkdir", "meta": "mkdir"}, {"name": "create", "meta": "create"}'
"$COORD" validate "$T/p.json" >/dev/null || fail "validate refuses the profile"
"$COORD" run -q -o "$T/out1" --scratch-dir "$SCR" "$T/p.json" >"$T/out1.txt" 2>&1 || {
	cat "$T/out1.txt"
	fail "the mkdir/create run failed"
}
TREE="$SCR/a1/tree"
RJ="$(run_dir "$T/out1")/run.json"
V="['agent_totals']['a1']['volumes'][0]"
[ "$(find "$TREE" -mindepth 1 -type d | wc -l)" = 6 ] || fail "mkdir: $(find "$TREE" -mindepth 1 -type d)"
[ "$(find "$TREE" -type f | wc -l)" = 32 ] || fail "create: $(find "$TREE" -type f | wc -l) files, not 32"
[ -z "$(find "$TREE" -type f ! -size 0)" ] || fail "create wrote data into a file"
[ -f "$TREE/vdb.1_2.dir/vdb.2_1.dir/vdb_f0008.file" ] || fail "no vdbench-named file: $(find "$TREE" | head)"
json "$RJ" "[(s['name'], s$V['meta']['ios'], s$V['meta']['errors'], s$V['meta_ops'][s['name']]['ios'], s$V['meta_ops'][s['name']]['ran_out']) for s in r['steps']]" |
	grep -qx "\[('mkdir', 6, 0, 6, True), ('create', 32, 0, 32, True)\]" ||
	fail "run.json: $(json "$RJ" "[(s['name'], s$V.get('meta'), s$V.get('meta_ops')) for s in r['steps']]")"
# no bytes, no data op: the class is its own
json "$RJ" "[(s['total']['bytes'], s['total']['meta']['ios'] == s['total']['ios'], 'read' in s['total']) for s in r['steps']]" |
	grep -qx "\[(0, True, False), (0, True, False)\]" || fail "total: $(json "$RJ" "r['steps'][1]['total']")"

# the operations that leave the tree as it is, for their seconds
touch -d '2001-01-01' "$TREE"/*/*/*.file
profile "$T/q.json" '{"name": "getattr", "meta": "getattr", "fileselect": "random"},
	{"name": "setattr", "meta": "setattr"}, {"name": "access", "meta": "access"},
	{"name": "open", "meta": "open"}, {"name": "close", "meta": "close"},
	{"name": "passes", "meta": "getattr", "size_based": true, "passes": 3, "runtime": "60s"},
	{"name": "delete", "meta": "delete"}, {"name": "rmdir", "meta": "rmdir"}'
"$COORD" run -q -o "$T/out2" --scratch-dir "$SCR" "$T/q.json" >"$T/out2.txt" 2>&1 || {
	cat "$T/out2.txt"
	fail "the second run failed"
}
RJ="$(run_dir "$T/out2")/run.json"
for i in 0 1 2 3 4; do
	S="r['steps'][$i]"
	# every op of the step's seconds: the kind's count is the volume's class, and the total's
	json "$RJ" "$S$V['meta_ops'][$S['name']]['ios'] == $S$V['meta']['ios'] > 100 and $S$V['meta']['errors'] == 0 and not $S$V['meta_ops'][$S['name']]['ran_out']" |
		grep -qx True || fail "step $i: $(json "$RJ" "($S['name'], $S$V['meta'], $S$V['meta_ops'])")"
	json "$RJ" "$S['total']['meta']['ios'] > 0 and $S['total']['meta']['ios'] == $S['total']['ios'] and 0 < $S['total']['meta']['lat_us']['p50'] <= $S['total']['meta']['lat_us']['p99'] <= $S['total']['meta']['lat_us']['max']" |
		grep -qx True || fail "step $i total: $(json "$RJ" "$S['total']")"
done
# size_based: each job's files once per pass, 3 passes: 96 stats, then the step ends
json "$RJ" "(r['steps'][5]$V['meta']['ios'], r['steps'][5]$V['meta_ops']['getattr']['ran_out'], r['steps'][5]['seconds'] < 60)" |
	grep -qx "(96, False, True)" || fail "passes: $(json "$RJ" "(r['steps'][5]$V, r['steps'][5]['seconds'])")"
# setattr set every file's times to the step's (vdbench's setattr), each file visited in turn
OLD=$(find "$TREE" -type f ! -newermt '2002-01-01' | wc -l)
[ "$OLD" = 0 ] || fail "setattr left $OLD of 32 files with their old mtime"
# (two jobs on the directories: one may find a parent whose child the other is removing)
json "$RJ" "[(s['name'], s$V['meta']['ios'], s$V['meta_ops'][s['name']]['ran_out'], s$V['meta_ops'][s['name']]['passed_over'] >= 0) for s in r['steps'][6:]]" |
	grep -qx "\[('delete', 32, True, True), ('rmdir', 6, True, True)\]" ||
	fail "delete/rmdir: $(json "$RJ" "[s$V.get('meta_ops') for s in r['steps'][6:]]")"
[ -z "$(find "$TREE" -mindepth 1)" ] || fail "left in the tree: $(find "$TREE" -mindepth 1)"

# vdbench's create: each file made and written to its size (4k in 2k transfers), the writes
# counted as the volume's; the empty tree again from nothing
profile "$T/w.json" '{"name": "mkdir", "meta": "mkdir"}, {"name": "cw", "meta": "create_write", "bs": "2k"}'
"$COORD" run -q -o "$T/out4" --scratch-dir "$SCR" "$T/w.json" >"$T/out4.txt" 2>&1 || {
	cat "$T/out4.txt"
	fail "the create_write run failed"
}
RJ="$(run_dir "$T/out4")/run.json"
[ "$(find "$TREE" -type f -size 4k | wc -l)" = 32 ] || fail "create_write: $(find "$TREE" -type f -printf '%s %p\n' | head)"
json "$RJ" "(r['steps'][1]$V['meta']['ios'], r['steps'][1]$V['write']['ios'], r['steps'][1]$V['write']['bytes'], r['steps'][1]['total']['write']['lat_us']['p50'] > 0)" |
	grep -qx "(32, 64, 131072, True)" || fail "create_write: $(json "$RJ" "r['steps'][1]$V")"

# vdbench's own form: tests/data/vdbench/meta.parm (foroperations= over an empty anchor) imported
# and run: each operation a step, the tree made, filled, read, emptied and removed
# import_run TOOL SRC NAME SCRATCH: SRC imported by import-TOOL and run; RJ its run.json
import_run() {
	"$COORD" "import-$1" -o "$T/$3.json" "$2" 2>"$T/$3.err" || {
		cat "$T/$3.err"
		fail "$2 does not import"
	}
	"$COORD" run -q -o "$T/out-$3" --scratch-dir "$4" "$T/$3.json" >"$T/$3.txt" 2>&1 || {
		cat "$T/$3.txt"
		fail "the imported $2 failed"
	}
	RJ="$(run_dir "$T/out-$3")/run.json"
}
import_run vdbench "$BC_SRC/tests/data/vdbench/meta.parm" vdb "$T/scr5"
L="['agent_totals']['local']['volumes'][0]"
json "$RJ" "[(s['name'], s$L['meta']['ios'] if s['name'][-7:] != 'getattr' else s$L['meta']['ios'] > 16, s$L['write']['bytes']) for s in r['steps']]" |
	grep -qx "\[('rd1_operations-mkdir', 6, 0), ('rd1_operations-create', 16, 131072), ('rd1_operations-getattr', True, 0), ('rd1_operations-delete', 16, 0), ('rd1_operations-rmdir', 6, 0)\]" ||
	fail "meta.parm: $(json "$RJ" "[(s['name'], s$L.get('meta'), s$L.get('write')) for s in r['steps']]")"
[ -z "$(find "$T/scr5/local/mtree" -mindepth 1)" ] || fail "meta.parm left: $(find "$T/scr5/local/mtree" | head)"

# fio's file engines, imported and run in turn on one directory: filecreate makes the 2 clones'
# 10 files each, filestat with loops=3 stats each 3 times, filedelete removes them
for e in filecreate:write filestat:read filedelete:write; do
	n=${e%%:*}
	printf '[global]\nioengine=%s\nrw=%s\nfilesize=4k\nnrfiles=10\nnumjobs=2\ndirectory=ft\n%s\n[j]\n' \
		"$n" "${e##*:}" "$([ "$n" = filestat ] && echo loops=3)" >"$T/$n.fio"
	import_run fio "$T/$n.fio" "$n" "$T/scr6"
	N=$(json "$RJ" "r['steps'][0]['agent_totals']['local']['volumes'][0]['meta']['ios']")
	case $n in
	filecreate) [ "$N" = 20 ] && [ "$(find "$T/scr6/local/ft" -type f | wc -l)" = 20 ] ;;
	filestat) [ "$N" = 60 ] ;;
	filedelete) [ "$N" = 20 ] && [ -z "$(find "$T/scr6/local/ft" -type f)" ] ;;
	esac || fail "$n: $N operations; left: $(find "$T/scr6/local/ft" -type f | wc -l) files"
done

# a meta workload needs a file set
sed -e 's/"fileset": {[^}]*}/"size": "1m"/' -e 's/, "fileset_format": "none"//' "$T/q.json" >"$T/bad.json"
rc=0
"$COORD" run -q -o "$T/out3" --scratch-dir "$T/scr3" "$T/bad.json" >"$T/out3.txt" 2>&1 || rc=$?
[ "$rc" != 0 ] && grep -q 'acts on a file set' "$T/out3.txt" || fail "meta without a file set: exit $rc: $(cat "$T/out3.txt")"
echo "PASS"
