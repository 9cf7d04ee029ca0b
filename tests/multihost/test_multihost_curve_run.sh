#!/bin/bash
# test_multihost_curve_run: bench-coord runs a profile over CURVE against three agents in their own
# network namespaces (addresses from 198.18.0.0/15), each on its own scratch files; every agent
# reports CURVE and the coordinator's key, every volume does I/O, and the totals add up.
. "$(dirname "$0")/../hosts/hosts.sh"

hosts_up 3
cat >"$HOSTS_DIR/p.json" <<JSON
{"name": "mh-curve",
 "agents": $(agents_json),
 "volumes": [{"agent": "h1", "path": "v.dat", "size": "16m"},
             {"agent": "h2", "path": "v.dat", "size": "16m"},
             {"agent": "h3", "path": "v.dat", "size": "16m"}],
 "defaults": {"direct": true, "ramp": "1s", "runtime": "2s"},
 "steps": [{"name": "fill", "rw": "write", "bs": "64k", "iodepth": 4},
           {"name": "mixed", "rw": "randrw", "rwmixread": 70, "bs": "4k", "iodepth": 8}]}
JSON
"$COORD" run -q -o "$HOSTS_DIR/out" "$HOSTS_DIR/p.json" >"$HOSTS_DIR/stdout" 2>"$HOSTS_DIR/stderr" || {
	cat "$HOSTS_DIR/stdout" "$HOSTS_DIR/stderr" "${HOST_LOG[@]}"
	fail "bench-coord run over CURVE failed"
}
R=$(run_dir "$HOSTS_DIR/out")
RJ="$R/run.json"
[ "$(json "$RJ" 'r["status"]')" = ok ] || fail "status is not ok"
coord_key=$(sed -n 's/^ *public-key = "\(.*\)"/\1/p' "$COORD_CERT")
for i in 1 2 3; do
	json "$RJ" "[a for a in r['agents'] if a['name'] == 'h$i'][0]['hello']['security']['mode']" |
		grep -qx curve || fail "h$i did not report CURVE in HELLO_OK"
	json "$RJ" "[a for a in r['agents'] if a['name'] == 'h$i'][0]['hello']['security']['public_key'] == '${HOST_KEY[$i]}'" |
		grep -qx True || fail "h$i's public key is not the one in the profile"
	grep -qF "(key $coord_key)" "${HOST_LOG[$i]}" || fail "h$i did not log the coordinator's key"
	grep -q "listening on tcp://${HOST_IP[$i]}:7470, CURVE" "${HOST_LOG[$i]}" || fail "h$i not on CURVE"
done
for s in 0 1; do
	json "$RJ" "all(a['bytes'] > 0 for a in r['steps'][$s]['agents']) and len(r['steps'][$s]['agents']) == 3 and r['steps'][$s]['total']['errors'] == 0" |
		grep -qx True || fail "step $s: not every agent did I/O"
done
echo "PASS"
