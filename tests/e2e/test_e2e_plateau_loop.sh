#!/bin/bash
# test_e2e_plateau_loop: end to end on loop devices, a rate limit on ONE storage node's volumes
# makes that node plateau while the others scale; the analysis finds the node's knee, calls it
# the client's own pacing and names that node, without blaming the unlimited ones. Also: each
# client host sample covers the same second as the I/O stats (read at the interval boundaries).
#
# Why a thinktime on every volume: these loop devices answer from a shared virtual disk in
# 0.1-0.5 ms and two (shared) cores saturate long before iodepth 32, so unthrottled volumes
# would flatten on CPU, not scale. A 20 ms thinktime makes each I/O slot a closed-loop client
# with think time Z: an unlimited volume does about N/(R+Z) IOPS (x32 from iodepth 1 to 32, ~1500
# IOPS at 32) at little CPU, as a latency-bound storage would, and Little's law still checks out
# as N = X (R+Z). Node n2's two volumes are held at rate_iops 250 each: they scale to iodepth 4
# (~195 IOPS each, 78%) and are flat from iodepth 8 on.
#
# Needs root (losetup); skips (77) without. Only loop devices this test attached are used and
# detached (on failure too); the backing files live in the test's own directory.

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root to attach loop devices"
	exit 77
fi
if ! command -v losetup >/dev/null; then
	echo "SKIP: no losetup (util-linux mount)"
	exit 77
fi

. "$(dirname "$0")/lib.sh" || exit 1
[ -d "${T:-}" ] || exit 1 # the backing files go nowhere but the test's own directory

LOOPS=()
IMGS=()
# detach exactly the devices attached here, and only while they still back our own files
detach_loops() {
	local i back
	for i in "${!LOOPS[@]}"; do
		back=$(losetup -n -O BACK-FILE "${LOOPS[$i]}" 2>/dev/null | sed 's/ *$//')
		if [ "$back" = "${IMGS[$i]}" ]; then
			losetup -d "${LOOPS[$i]}" || echo "warning: could not detach ${LOOPS[$i]}" >&2
		fi
	done
	LOOPS=()
}
# lib.sh's cleanup exits with the status it finds in $?: hand it the test's own
# (BC_KEEP_RUN=DIR keeps a failed run's directory and output there, for a look afterwards)
plateau_cleanup() {
	local rc=$?
	set +e
	detach_loops
	if [ "$rc" != 0 ] && [ -n "${BC_KEEP_RUN:-}" ] && [ -d "$T/out" ]; then
		mkdir -p "$BC_KEEP_RUN" && cp -r "$T/out" "$T/stdout" "$BC_KEEP_RUN/"
	fi
	(exit $rc)
	cleanup
}
trap plateau_cleanup EXIT
trap 'exit 143' TERM INT

for i in 0 1 2 3; do
	img="$T/backing-$i.img"
	dd if=/dev/urandom of="$img" bs=1M count=32 status=none
	sync "$img"
	dev=$(losetup -f --show --direct-io=on "$img" 2>/dev/null || losetup -f --show "$img" 2>&1) || {
		echo "SKIP: cannot attach a loop device: $dev"
		exit 77
	}
	case "$dev" in /dev/loop*) ;; *)
		echo "SKIP: cannot attach a loop device: $dev"
		exit 77
		;;
	esac
	LOOPS+=("$dev")
	IMGS+=("$img")
done
echo "loop devices: ${LOOPS[*]}"

cat >"$T/p.json" <<JSON
{"name": "plateau-loop",
 "agents": [{"name": "c1", "endpoint": "local"}, {"name": "c2", "endpoint": "local"},
            {"name": "c3", "endpoint": "local"}],
 "nodes": [{"name": "n1"}, {"name": "n2"}, {"name": "n3"}],
 "volumes": [{"agent": "c1", "path": "${LOOPS[0]}", "node": "n1"},
             {"agent": "c2", "path": "${LOOPS[1]}", "node": "n2", "workload": {"rate_iops": 250}},
             {"agent": "c3", "path": "${LOOPS[2]}", "node": "n2", "workload": {"rate_iops": 250}},
             {"agent": "c3", "path": "${LOOPS[3]}", "node": "n3"}],
 "defaults": {"direct": true, "thinktime": "20ms"},
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k",
            "sweep": {"iodepth": [1, 2, 4, 8, 16, 32], "ramp": "1s", "runtime": "2s"}}]}
JSON
t0=$(date +%s)
"$COORD" run --plain -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "sweep run failed"
}
echo "run took $(($(date +%s) - t0)) s"
sed -n '/^sweep rr/,$p' "$T/stdout"
R=$(run_dir "$T/out")
RJ="$R/run.json"
A="r['steps'][-1]['analysis']"
N="{n['name']: n for n in ${A}['nodes']}"

# the sweep ran, every point its own step
json "$RJ" "[s['name'] for s in r['steps']] == ['rr@iodepth=%d' % d for d in (1, 2, 4, 8, 16, 32)]" |
	grep -qx True || fail "sweep points missing: $(json "$RJ" "[s['name'] for s in r['steps']]")"

# the verdict: the client's own pacing on node n2, the others still scaling
json "$RJ" "${A}['class'] == 'client-bound'" | grep -qx True ||
	fail "class is not client-bound: $(json "$RJ" "${A}['verdict']")"
KNEE=$(json "$RJ" "int(${N}['n2']['knee']['value'])")
json "$RJ" "'node n2 is held flat by the profile\\'s own rate limits from iodepth=$KNEE' in ${A}['verdict'] and 'nodes n1, n3 still scale' in ${A}['verdict'] and 'client-side pacing' in ${A}['verdict']" |
	grep -qx True || fail "verdict does not name n2's pacing: $(json "$RJ" "${A}['verdict']")"
json "$RJ" "${A}['bottleneck'] == 'rate_iops in the profile on node n2'" | grep -qx True ||
	fail "bottleneck: $(json "$RJ" "${A}['bottleneck']")"

# node n2: paced, knee at iodepth 8 (confirmed by the flat points after it), at its 500 IOPS.
# On a starved VM the thinktime wake-ups come late, the slots cycle slower, and the limit is
# first reached at iodepth 16: either way the knee is where n2 first runs at its limit.
json "$RJ" "${N}['n2']['class'] == 'paced' and ${N}['n2']['knee']['value'] in (8, 16) and ${N}['n2']['knee']['confirmed']" |
	grep -qx True || fail "n2 not found paced at iodepth 8: $(json "$RJ" "${N}['n2']")"
json "$RJ" "${N}['n2']['paced']['volumes'] == 2 and ${N}['n2']['paced']['limit_iops'] == 500 and ${N}['n2']['paced']['pct'] >= 95 and abs(${N}['n2']['knee']['iops'] - 500) <= 25" |
	grep -qx True || fail "n2's evidence numbers: $(json "$RJ" "${N}['n2']['paced'], ${N}['n2']['knee']")"
K=$(json "$RJ" "${N}['n2']['knee']['index']")
json "$RJ" "'paced' in [p['class'] for p in ${N}['n2']['points']][$K + 1:] and all(p['paced_pct'] >= 90 for p in ${N}['n2']['points'][$K:]) and ${N}['n2']['points'][$K - 1]['iops'] < 0.95 * 500" |
	grep -qx True || fail "n2's points: $(json "$RJ" "[(p['value'], p['iops'], p['class']) for p in ${N}['n2']['points']]")"

# nodes n1 and n3: not paced, not flat, IOPS x8 or more for x32 load, Little's law with Z holds
for n in n1 n3; do
	json "$RJ" "${N}['$n']['class'] in ('scaling', 'diminishing') and ${N}['$n']['x_ratio'] >= 8 and ${N}['$n']['n_ratio'] == 32 and not ${N}['$n']['knee']['confirmed']" |
		grep -qx True || fail "$n does not scale: $(json "$RJ" "[(p['value'], p['iops'], p['class']) for p in ${N}['$n']['points']]")"
	# (one starved point may fall short: the VM's two cores are shared)
	json "$RJ" "sorted(p['rho'] for p in ${N}['$n']['points'])[1] >= 0.8 and max(p['rho'] for p in ${N}['$n']['points']) <= 1.1" | grep -qx True ||
		fail "$n: X*(R+Z)/N off: $(json "$RJ" "[p['rho'] for p in ${N}['$n']['points']]")"
	json "$RJ" "'$n' not in ${A}['bottleneck']" | grep -qx True || fail "$n blamed"
done
# the total keeps rising: its knee is the last point, not a confirmed plateau
json "$RJ" "${A}['knee']['value'] == 32 and not ${A}['knee']['confirmed']" | grep -qx True ||
	fail "total knee: $(json "$RJ" "${A}['knee']")"

# every output carries the verdict
grep -qE "verdict: (Contended run: .* Otherwise: )?client-bound: node n2 is held flat" "$T/stdout" ||
	fail "verdict not in the live output"
grep -q "node n2 is held flat by the profile's own rate limits" "$R/summary.md" ||
	fail "the verdict is not in summary.md"

# host samples cover the I/O seconds: second k's host figures were read at k and k+1 s after
# the step's start, one per stats second, none missing or shifted by one. Every read within
# 150 ms of its boundary (a starved VM stalls a thread now and then; sampling when STATS left,
# as before, started second 0 at START, >= 300 ms early) and half of them within 20 ms.
python3 - "$RJ" >"$T/align" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))
bad, offs = [], []
for s in r['steps']:
    secs = s['seconds']
    for a in s['agents']:
        se, w = a['host']['series'], a['host']['window']
        # the measured window (ramp 1 s excluded) spans the reads at 1 s and at the end
        if abs(w['t0_s'] - 1) > 0.15 or abs(w['t1_s'] - secs) > 0.15:
            bad.append((s['name'], a['name'], 'window', w['t0_s'], w['t1_s']))
        if len(se['t0_s']) != secs or len(se['cpu_busy_pct']) != secs:
            bad.append((s['name'], a['name'], 'length', len(se['t0_s']), secs))
        for k, (t0, t1) in enumerate(zip(se['t0_s'], se['t1_s'])):
            if t0 is None or t1 is None or abs(t0 - k) > 0.15 or abs(t1 - (k + 1)) > 0.15:
                bad.append((s['name'], a['name'], k, t0, t1))
            else:
                offs += [abs(t0 - k), abs(t1 - (k + 1))]
if offs and statistics.median(offs) > 0.02:
    bad.append(('median offset', statistics.median(offs)))
print(bad)
print('host sample reads: median %.4f s, largest %.4f s from their boundaries' %
      (statistics.median(offs), max(offs)) if offs else 'no host samples', file=sys.stderr)
PY
grep -qx '\[\]' "$T/align" || fail "host seconds do not align with stats seconds: $(cat "$T/align")"

assert_no_agents "$T"
echo "PASS"
