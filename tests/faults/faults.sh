#!/bin/bash
# faults.sh CASE: a run hit at an awkward moment, on loopback with real agents, then the
# ground-truth checker (check_run.py) recomputes its figures from events.jsonl (and records.bin,
# the records' log by default; healthy_plain logs them as json) and compares
# them with run.json and summary.md, and a rebuild from events.jsonl must equal what the
# run wrote. Cases: sigint sigterm coord_kill9 kill_continue kill_abort stop_continue
# stop_abort between_continue between_abort between_restart restart_continue restart_abort
# prepare_fail sweep_sigint results_sigint until_stopped stop_bytes stop_window_pct stop_steady full_disk read_only low_space clock_drift healthy_plain
# healthy_sweep healthy_fdp checker_fails.
# Moments are chosen by waiting on events.jsonl, never on sleeps; nothing is timed.
. "$BC_SRC/tests/e2e/lib.sh"
CASE=${1:?case}
CHECK="python3 $BC_SRC/tests/faults/check_run.py"
OUT="$T/out"

# clock_drift: a2's clocks run 1% fast (a debugging option of bench-agent, docs/faults.md)
A2_ARGS=()
[ "$CASE" = clock_drift ] && A2_ARGS=(--debug-clock-ppm 10000)
start_agent a1
start_agent a2 "${A2_ARGS[@]}"
start_agent a3
VICTIM=${AGENT_PIDS[1]}
POLICY=continue
case $CASE in *_abort) POLICY=abort ;; esac

# restart_a2: a2 killed and started again on its endpoint with its keys (a systemd restart):
# the new process has no session with the coordinator
restart_a2() {
	kill -9 "$VICTIM"
	wait "$VICTIM" 2>/dev/null || true
	: >"$T/ep-a2.again"
	"$AGENT" --listen "$EP_a2" --ready-fd 3 --scratch-dir "$T/scratch-a2" \
		--cert "$T/keys-a2/agent.cert" --authorized-keys "$T/keys-a2/authorized_keys" --allow "$T/**" \
		3>"$T/ep-a2.again" 2>"$T/agent-a2.again.log" &
	AGENT_PIDS+=($!)
	for _ in $(seq 100); do
		[ -s "$T/ep-a2.again" ] && return 0
		sleep 0.1
	done
	fail "a2 did not start again on $EP_a2: $(cat "$T/agent-a2.again.log")"
}

# steps NAME...: short fixed steps, three agents, one file each
profile() {
	local steps="" s
	for s in "$@"; do
		[ -n "$steps" ] && steps+=","
		steps+="{\"name\": \"$s\", \"rw\": \"randread\", \"bs\": \"4k\", \"iodepth\": 4, \"ramp\": \"1s\", \"runtime\": \"4s\"}"
	done
	cat <<JSON
{"name": "faults-$CASE", "on_agent_loss": "$POLICY",
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"},
            {"name": "a3", "endpoint": "$EP_a3"}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "16m"},
             {"agent": "a2", "path": "${A2PATH:-$T/a2.dat}", "size": "16m"},
             {"agent": "a3", "path": "$T/a3.dat", "size": "16m"}],
 "steps": [$steps]}
JSON
}

# sweep_profile RUNTIME IODEPTHS [MORE_STEPS]: two agents, a sweep over iodepth
sweep_profile() {
	cat <<JSON
{"name": "faults-sweep", "on_agent_loss": "$POLICY", "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "16m"}, {"agent": "a2", "path": "$T/a2.dat", "size": "16m"}],
 "steps": [{"name": "sw", "rw": "randread", "bs": "4k", "ramp": "1s", "runtime": "$1",
            "sweep": {"iodepth": $2}}${3:-}]}
JSON
}

# wait_events N REGEX: until events.jsonl holds N lines matching REGEX (or the run ended)
wait_events() {
	local ev
	for _ in $(seq 600); do
		ev=$(ls "$OUT"/*/events.jsonl 2>/dev/null | head -n1)
		if [ -n "$ev" ] && [ "$(grep -cE "$2" "$ev")" -ge "$1" ]; then return 0; fi
		kill -0 "$CPID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# the records' log: the default (records.bin), or json for the case that sets EVFMT
run_bg() { # run_bg PROFILE: the coordinator in the background, CPID
	"$COORD" run -q --events-format "${EVFMT:-binary}" ${PREP_TIMEOUT:+--prepare-timeout "$PREP_TIMEOUT"} ${RUN_OPTS:-} \
		-o "$OUT" "$1" >"$T/stdout" 2>"$T/stderr" &
	CPID=$!
}

finish() { # the coordinator's exit code into RC
	RC=0
	wait "$CPID" || RC=$?
	cat "$T/stdout" "$T/stderr"
	R=$(run_dir "$OUT")
}

# small_fs SIZE: a tmpfs of SIZE of this test's own at $SMALL, unmounted at exit; the
# run's output goes there (OUT)
small_fs() {
	SMALL="$T/small"
	mkdir -p "$SMALL"
	[ "$(id -u)" = 0 ] || { echo "skip: mounting a tmpfs needs root"; exit 77; }
	mount -t tmpfs -o "size=$1,mode=0755" bc-faults "$SMALL" ||
		{ echo "skip: cannot mount a tmpfs"; exit 77; }
	on_exit "umount -l '$SMALL'"
	OUT="$SMALL/out"
}

# small_ext4 SIZE: an ext4 of SIZE on a loop device over a file of this test's own, mounted
# errors=remount-ro at $SMALL (OUT below it); ext4_error() on it (trigger_fs_error) turns it
# read-only as a real metadata error would. Detached at exit.
small_ext4() {
	SMALL="$T/small"
	mkdir -p "$SMALL"
	[ "$(id -u)" = 0 ] || { echo "skip: a loop device needs root"; exit 77; }
	command -v mkfs.ext4 >/dev/null || { echo "skip: no mkfs.ext4"; exit 77; }
	truncate -s "$1" "$T/ext4.img"
	mkfs.ext4 -q "$T/ext4.img" || fail "mkfs.ext4 failed"
	EXT4_LOOP=$(losetup -f --show "$T/ext4.img") || { echo "skip: no free loop device"; exit 77; }
	on_exit "losetup -d '$EXT4_LOOP'"
	mount -o errors=remount-ro "$EXT4_LOOP" "$SMALL" || fail "cannot mount the ext4"
	on_exit "umount -l '$SMALL'"
	OUT="$SMALL/out"
}

# fill_fs DIR LEAVE_KB: a file of ours takes DIR's filesystem's free space but LEAVE_KB
fill_fs() {
	local free
	free=$(df -k --output=avail "$1" | tail -n1)
	if [ "$free" -gt "$2" ]; then
		fallocate -l "$(((free - $2) * 1024))" "$1/fill" 2>/dev/null ||
			dd if=/dev/zero of="$1/fill" bs=1k count="$((free - $2))" 2>/dev/null || true
	fi
	# tmpfs rounds to pages: whatever is left beyond LEAVE_KB goes too when it is 0
	[ "$2" != 0 ] || dd if=/dev/zero of="$1/fill2" bs=4k 2>/dev/null || true
}

# closing_files_exist: every file the closing line lists is in the run directory
closing_files_exist() {
	local line f
	line=$(grep -E '^(results|run FAILED|run completed|run INCOMPLETE|run NOT STARTED).*\(' "$T/stdout" | tail -n1)
	[ -n "$line" ] || fail "no closing line in stdout"
	for f in $(echo "$line" | sed 's/.*(\(.*\)).*/\1/' | tr ',' ' '); do
		case $f in *.*) [ -e "$R/$f" ] || fail "the closing line lists $f, which does not exist: $line" ;; esac
	done
}

# check_and_rebuild: the checker on the run as written, then on a rebuild of a copy, which
# must equal it (everything the run wrote came from what the events hold)
check_and_rebuild() {
	$CHECK "$R" || fail "$CASE: the run's figures disagree with events.jsonl"
	rm -rf "$T/rebuilt"
	cp -r "$R" "$T/rebuilt"
	"$COORD" report --rebuild "$T/rebuilt" >/dev/null || fail "$CASE: rebuild failed"
	$CHECK "$T/rebuilt" --same-as "$R" || fail "$CASE: the rebuild differs from the run"
}

case $CASE in
sigint | sigterm)
	profile s0 s1 >"$T/p.json"
	run_bg "$T/p.json"
	# mid-step: three seconds of step 0 closed
	wait_events 3 '"event":"second_closed"' || fail "step 0 did not run"
	if [ "$CASE" = sigint ]; then kill -INT "$CPID"; else kill -TERM "$CPID"; fi
	finish
	[ "$RC" = 1 ] || fail "exit code $RC after a signal, expected 1"
	# the step the signal hit (a loaded host may have finished step 0 meanwhile)
	json "$R/run.json" '[s["status"] for s in r["steps"] if s["status"] != "not started"][-1] == "aborted" and r["status"] == "aborted" and [s["status"] for s in r["steps"]][-1] in ("aborted", "not started")' |
		grep -qx True || fail "the interrupted step is not aborted, or a step after it is not 'not started'"
	check_and_rebuild
	;;
until_stopped)
	# Ctrl-C in a step that runs until stopped (fio's time_based without runtime): the step
	# ends at a second boundary with its figures, ok; the step after it never starts; exit 0
	profile s0 s1 | sed 's/"runtime": "4s"}/"runtime": "600s", "until_stopped": true}/' >"$T/p.json"
	run_bg "$T/p.json"
	wait_events 4 '"event":"second_closed"' || fail "step 0 did not run"
	kill -INT "$CPID"
	finish
	[ "$RC" = 0 ] || fail "exit code $RC after stopping a step that runs until stopped"
	json "$R/run.json" 'r["status"] == "ok" and [s["status"] for s in r["steps"]] == ["ok", "not started"] and 4 <= r["steps"][0]["stopped_by_user_at_second"] == r["steps"][0]["seconds"] < 60 and r["steps"][0]["total"]["iops"] > 0' |
		grep -qx True || fail "the stopped step is not ok with its seconds, or the next one ran: $(json "$R/run.json" '[(s["name"], s["status"], s.get("seconds"), s.get("error")) for s in r["steps"]], r["status"]')"
	grep -q "runs until stopped" "$R/run.json" || fail "run.json does not say why step 1 did not start"
	grep -q "stopped by the coordinator at second" "$T"/agent-a1.log || fail "a1 did not get the STOP"
	check_and_rebuild
	;;
stop_bytes | stop_window_pct)
	# vdbench's maxdata=: step 0 ends once its volumes moved 48 MiB after the ramp (stop_bytes),
	# or twice the three 16 MiB windows the agents laid out, 96 MiB (stop_window_pct 200: maxdata=2
	# on devices without size=), two seconds after the second that reached it, long before its
	# runtime; the run goes on with step 1
	if [ "$CASE" = stop_bytes ]; then STOP='"stop_bytes": "48m"' WANT=$((48 << 20)); else STOP='"stop_window_pct": 200' WANT=$((96 << 20)); fi
	profile s0 s1 | sed "0,/\"runtime\": \"4s\"}/s//\"runtime\": \"600s\", $STOP}/" >"$T/p.json"
	run_bg "$T/p.json"
	finish
	[ "$RC" = 0 ] || fail "exit code $RC"
	json "$R/run.json" 'r["status"] == "ok" and [s["status"] for s in r["steps"]] == ["ok", "ok"] and 2 <= r["steps"][0]["stopped_at_bytes_second"] == r["steps"][0]["seconds"] < 600 and "stopped_at_bytes_second" not in r["steps"][1]' |
		grep -qx True || fail "step 0 did not end at its bytes, or step 1 did not run: $(json "$R/run.json" '[(s["name"], s["status"], s.get("seconds"), s.get("error")) for s in r["steps"]], r["status"]')"
	python3 - "$R/events.jsonl" "$WANT" <<'PY' || fail "no step_bytes_reached event at $WANT bytes in events.jsonl"
import json, sys
want = int(sys.argv[2])
ev = [e for e in map(json.loads, open(sys.argv[1])) if e.get("event") == "step_bytes_reached"]
assert len(ev) == 1 and ev[0]["step"] == 0 and ev[0]["target"] == want <= ev[0]["bytes"], ev
assert ev[0]["seconds"] == ev[0]["at_second"] + 2 or ev[0]["seconds"] > ev[0]["at_second"], ev
PY
	check_and_rebuild
	;;
stop_steady)
	# fio's steadystate: step 0 is rate-capped (200 IOPS a volume), so its total is level and
	# steady within 20% over 3 s once its ramps (1 s, and 1 s more) are over: it ends seconds
	# later, long before its 120 s runtime. Step 1 asks a 0.0001% deviation of an uncapped
	# load, which no 3 s of real I/O meet: it is judged every second and runs its whole
	# runtime, and run.json says it was not steady. About 15 s.
	profile s0 s1 | sed '0,/"runtime": "4s"}/s//"runtime": "120s", "rate_iops": 200, "stop_steady": {"criterion": "iops:20%", "window": "3s", "ramp": "1s"}}/' |
		sed '0,/"runtime": "4s"}/s//"runtime": "5s", "stop_steady": {"criterion": "iops:0.0001%", "window": 3}}/' >"$T/p.json"
	run_bg "$T/p.json"
	finish
	[ "$RC" = 0 ] || fail "exit code $RC"
	python3 - "$R/run.json" "$R/events.jsonl" <<'PY' || fail "stop_steady: $(json "$R/run.json" '[(s["name"], s.get("seconds"), s.get("stop_steady")) for s in r["steps"]]')"
import json, sys
r = json.load(open(sys.argv[1]))
s0, s1 = r["steps"]
a, b = s0["stop_steady"], s1["stop_steady"]
# step 0: steady at a second after both ramps and a full window, ended two seconds on
assert a["reached"] is True and a["criterion"] == "iops:20%" and a["window_seconds"] == 3, a
assert 1 + 1 + 3 - 1 <= a["at_second"] < a["ended_at_second"] == s0["seconds"] < 121, (a, s0["seconds"])
assert a["window_from_second"] == a["at_second"] - 2 and a["value"] <= 20, a
assert abs(a["mean"] - 600) <= 120, a  # three volumes at 200 IOPS each
# step 1: judged, never steady, ran to its runtime (1 s ramp + 5 s)
assert b["reached"] is False and b["windows_judged"] >= 1 and "at_second" not in b, b
assert s1["seconds"] == 6 and b["value"] > 0.0001, (b, s1["seconds"])
assert "not steady" in b["outcome"], b
ev = [e for e in map(json.loads, open(sys.argv[2])) if e.get("event") == "step_steady"]
assert [(e["step"], e["reached"]) for e in ev] == [(0, True), (1, False)], ev
PY
	# the reports say it in words, both outcomes, from run.json's own text
	for f in summary.md report.html; do
		grep -q "Stop on steady state.*steady at second" "$R/$f" &&
			grep -q "Stop on steady state.*not steady in" "$R/$f" ||
			fail "stop_steady: $f does not say how each step ended"
	done
	check_and_rebuild
	;;
coord_kill9)
	profile s0 s1 s2 >"$T/p.json"
	run_bg "$T/p.json"
	wait_events 1 '"event":"step_done"' && wait_events 8 '"event":"second_closed"' ||
		fail "step 1 did not run"
	kill -9 "$CPID"
	finish
	"$COORD" report "$R" >/dev/null || fail "bench-coord report after kill -9 failed"
	json "$R/run.json" 'r["status"] == "incomplete" and r["steps"][-1]["status"] == "incomplete"' |
		grep -qx True || fail "the rebuilt run is not marked incomplete"
	$CHECK "$R" || fail "the rebuilt figures disagree with events.jsonl"
	;;
kill_continue | kill_abort | stop_continue | stop_abort)
	profile s0 s1 s2 >"$T/p.json"
	run_bg "$T/p.json"
	wait_events 3 '"event":"second_closed"' || fail "step 0 did not run"
	if [ "${CASE%%_*}" = kill ]; then kill -9 "$VICTIM"; else kill -STOP "$VICTIM"; fi
	finish
	[ "${CASE%%_*}" = stop ] && kill -CONT "$VICTIM" 2>/dev/null
	json "$R/run.json" '"a2" in [l["name"] for l in r["steps"][0]["lost_agents"]]' |
		grep -qx True || fail "lost_agents does not name a2: $(json "$R/run.json" 'r["steps"][0]["lost_agents"], r.get("error")')"
	if [ "$POLICY" = continue ]; then
		[ "$RC" = 3 ] || fail "exit code $RC, expected 3"
		json "$R/run.json" 'len(r["steps"]) == 3 and all(s["status"] == "degraded" for s in r["steps"])' |
			grep -qx True || fail "the steps are not all degraded"
	else
		[ "$RC" = 1 ] || fail "exit code $RC, expected 1"
	fi
	check_and_rebuild
	;;
between_continue | between_abort)
	# a2 killed between sweep points, once both agents' point 1 is done and while the
	# coordinator writes its results (made 4 s long): point 2's PREPARE finds it gone. Never
	# a wait for the PREPARE timeout (600 s here, past this test's own), never a run that
	# fails under "continue"
	sweep_profile 3s '[1, 2, 4]' >"$T/p.json"
	PREP_TIMEOUT=600 RUN_OPTS="--results-delay-ms 4000" run_bg "$T/p.json"
	wait_events 2 '"event":"step_done"' || fail "point 1 did not finish"
	kill -9 "$VICTIM"
	finish
	json "$R/run.json" 'r["steps"][0]["status"]' | grep -qx ok || fail "point 1 is not ok"
	if [ "$POLICY" = continue ]; then
		[ "$RC" = 3 ] || fail "exit code $RC, expected 3"
		json "$R/run.json" '[l["name"] + ": " + l["reason"] for l in r["steps"][1]["lost_agents"]] == ["a2: connection closed during PREPARE"] and [s["status"] for s in r["steps"]] == ["ok", "degraded", "degraded"]' |
			grep -qx True || fail "point 2 does not name a2 lost in PREPARE, or points 2-3 are not degraded: $(json "$R/run.json" '[(s["status"], s.get("lost_agents")) for s in r["steps"]]')"
	else
		[ "$RC" = 1 ] || fail "exit code $RC, expected 1"
		grep -q 'agent a2 (tcp://127.0.0.1:[0-9]*): connection closed during PREPARE' "$T/stderr" ||
			fail "no clear error naming a2"
	fi
	check_and_rebuild
	;;
between_restart)
	# a2 restarted between sweep points (killed once point 1 is done, while the results are
	# written): point 2's PREPARE finds a new process without a session. It is HELLOed again
	# and every point runs whole; nothing was missing from point 1 (its STEP_DONE came)
	sweep_profile 3s '[1, 2, 4]' >"$T/p.json"
	RUN_OPTS="--results-delay-ms 4000" run_bg "$T/p.json"
	wait_events 2 '"event":"step_done"' || fail "point 1 did not finish"
	restart_a2
	finish
	[ "$RC" = 0 ] || fail "exit code $RC, expected 0"
	json "$R/run.json" '[s["status"] for s in r["steps"]] == ["ok", "ok", "ok"] and [[a["name"] for a in s["rejoined_agents"]] for s in r["steps"]] == [[], ["a2"], []] and all(s["lost_agents"] == [] for s in r["steps"])' |
		grep -qx True || fail "a2 was not joined again in point 2, or a point is not ok: $(json "$R/run.json" '[(s["status"], s["rejoined_agents"], s["lost_agents"]) for s in r["steps"]]')"
	# the new process ran points 2 and 3: both have its records
	json "$R/run.json" 'all(a["ios"] > 0 for s in r["steps"] for a in s["agents"] if a["name"] == "a2") and all("a2" in [a["name"] for a in s["agents"]] for s in r["steps"])' | grep -qx True ||
		fail "a2 has no I/O in a point"
	grep -q "session started" "$T/agent-a2.again.log" || fail "the new a2 never had a session"
	# and the entry names the new process
	json "$R/run.json" "r['steps'][1]['rejoined_agents'][0]['pid'] == ${AGENT_PIDS[-1]}" | grep -qx True ||
		fail "rejoined_agents does not name the new a2 (pid ${AGENT_PIDS[-1]}): $(json "$R/run.json" 'r["steps"][1]["rejoined_agents"]')"
	grep -q "Agent a2 joined again before this step" "$R/summary.md" || fail "summary.md does not say a2 joined again"
	check_and_rebuild
	;;
restart_continue | restart_abort)
	# a2 restarted mid-step: the coordinator's next heartbeat gets "no session". Lost from its
	# last record's second under continue (the run goes on, degraded), a named error under abort
	# (the results written slowly: the new process's "no session" answers to the heartbeats
	# meanwhile are held for the next PREPARE, where they come before the others' READY)
	profile s0 s1 s2 >"$T/p.json"
	RUN_OPTS="--results-delay-ms 2000" run_bg "$T/p.json"
	wait_events 3 '"event":"second_closed"' || fail "step 0 did not run"
	restart_a2
	finish
	json "$R/run.json" '[l["name"] + ": " + l["reason"] for l in r["steps"][0]["lost_agents"]]' >"$T/lost"
	# restarted in well under the 5 s silence that would call it silent instead
	grep -q "a2: restarted (it has no session)" "$T/lost" ||
		fail "a2 is not lost as restarted: $(cat "$T/lost")"
	if [ "$POLICY" = continue ]; then
		[ "$RC" = 3 ] || fail "exit code $RC, expected 3"
		json "$R/run.json" '[s["status"] for s in r["steps"]] == ["degraded", "degraded", "degraded"]' |
			grep -qx True || fail "the steps are not all degraded"
		# lost is out of the run: the new process answers the heartbeats "no session" between
		# the steps, which must not HELLO it in again nor count its READY for the others'
		json "$R/run.json" 'all(s["rejoined_agents"] == [] for s in r["steps"]) and [[l["name"] for l in s["lost_agents"]] for s in r["steps"]] == [["a2"], [], []]' |
			grep -qx True || fail "a lost a2 came back: $(json "$R/run.json" '[(s["rejoined_agents"], s["lost_agents"]) for s in r["steps"]]')"
		! grep -q "session started" "$T/agent-a2.again.log" || fail "the lost a2 was given a session again"
		json "$R/run.json" 'all(a["ios"] > 0 for s in r["steps"] for a in s["agents"] if a["name"] in ("a1", "a3"))' |
			grep -qx True || fail "a1 or a3 has no I/O in a step"
	else
		[ "$RC" = 1 ] || fail "exit code $RC, expected 1"
		grep -q 'agent a2 (tcp://127.0.0.1:[0-9]*): restarted (it has no session) during the step' "$T/stderr" ||
			fail "no clear error naming a2"
	fi
	check_and_rebuild
	;;
prepare_fail)
	# a2's volume cannot be created: PREPARE fails on that agent alone
	A2PATH="$T/no-such-dir/a2.dat" profile s0 s1 >"$T/p.json"
	run_bg "$T/p.json"
	finish
	[ "$RC" = 1 ] || fail "exit code $RC, expected 1"
	json "$R/run.json" 'r["steps"][0]["status"] == "failed" and r["steps"][0]["checks"] == [] and r["steps"][0]["total"]["iops"] is None' |
		grep -qx True || fail "the step that never started has figures or checks"
	check_and_rebuild
	;;
sweep_sigint)
	sweep_profile 3s '[1, 2, 4, 8]' >"$T/p.json"
	run_bg "$T/p.json"
	# between points: the second point's step_start is written, interrupt right then
	wait_events 2 '"event":"step_start"' || fail "the sweep did not reach its second point"
	kill -INT "$CPID"
	finish
	[ "$RC" = 1 ] || fail "exit code $RC, expected 1"
	check_and_rebuild
	;;
results_sigint)
	# Ctrl-C while step 0's results are written (made 4 s long): nothing more runs, no
	# PREPARE for step 1; steps 1 and 2 are recorded as never started, not failed
	profile s0 s1 s2 >"$T/p.json"
	RUN_OPTS="--results-delay-ms 4000" run_bg "$T/p.json"
	wait_events 3 '"event":"step_done"' || fail "step 0 did not finish"
	kill -INT "$CPID"
	finish
	[ "$RC" = 1 ] || fail "exit code $RC after a signal, expected 1"
	json "$R/run.json" '[s["name"] + ": " + s["status"] for s in r["steps"]] == ["s0: ok", "s1: not started", "s2: not started"] and r["status"] == "aborted"' |
		grep -qx True || fail "steps not recorded as ok / not started / not started: $(json "$R/run.json" '[(s["name"], s["status"], s.get("error")) for s in r["steps"]], r["status"]')"
	! grep -q "interrupted during PREPARE" "$T/stderr" "$R/run.json" || fail "a step that never started is said to have failed in PREPARE"
	! grep -q '"event":"ready","step":1\|"step":1,.*"event":"ready"' "$R/events.jsonl" || fail "step 1 was prepared after the interrupt"
	! grep -q "step 1 prepared" "$T"/agent-a*.log || fail "an agent prepared step 1 after the interrupt"
	grep -q "not started" "$R/summary.md" || fail "summary.md does not say which steps never started"
	grep -q "not started" "$R/report.html" || fail "report.html does not say which steps never started"
	check_and_rebuild
	;;
full_disk)
	# -o on a 16 MiB tmpfs, filled by a file of ours while step 0 runs: the run fails at once
	# (exit 1), names the errno once, starts nothing more, lists only files that exist, and
	# what was measured until then is rebuilt once space is freed
	small_fs 16m
	profile s0 s1 s2 >"$T/p.json"
	run_bg "$T/p.json"
	wait_events 2 '"event":"second_closed"' || fail "step 0 did not run"
	fill_fs "$SMALL" 0
	finish
	[ "$RC" = 1 ] || fail "exit code $RC on a full output filesystem, expected 1"
	n=$(grep -c "No space left on device" "$T/stderr" || true)
	[ "$n" = 1 ] || fail "ENOSPC named $n times on stderr, expected once"
	grep -q "ENOSPC" "$T/stderr" || fail "the errno is not named (ENOSPC)"
	! grep -qi "out of memory\|Input/output error" "$T/stderr" || fail "a full disk blamed on memory or I/O errors"
	grep -q "run FAILED" "$T/stdout" || fail "the closing line does not say the run failed"
	closing_files_exist
	! grep -q "step 1 prepared" "$T"/agent-a*.log || fail "step 1 ran on a full disk"
	rm -f "$SMALL/fill" "$SMALL/fill2"
	"$COORD" report --rebuild "$R" >"$T/rebuild.out" 2>&1 || fail "rebuild failed: $(cat "$T/rebuild.out")"
	json "$R/run.json" 'all(s["status"] == "not started" for s in r["steps"][1:]) and r["steps"][0]["status"] in ("failed", "incomplete") and r["status"] in ("failed", "incomplete") and r["steps"][0]["measured_seconds"] >= 1' |
		grep -qx True || fail "the rebuild does not hold step 0, failed, with its measured seconds: $(json "$R/run.json" '[(s["status"], s.get("measured_seconds")) for s in r["steps"]], r["status"]')"
	$CHECK "$R" || fail "the rebuilt figures disagree with events.jsonl"
	;;
read_only)
	# the output filesystem turned read-only by an error while step 0 runs (ext4's
	# errors=remount-ro, the default of many installs): as a full disk, the run fails at once,
	# names EROFS once, lists only files that exist and starts nothing more; what was measured
	# until then is rebuilt from a copy
	small_ext4 64m
	profile s0 s1 s2 >"$T/p.json"
	run_bg "$T/p.json"
	wait_events 2 '"event":"second_closed"' || fail "step 0 did not run"
	echo "test: a metadata error" >"/sys/fs/ext4/$(basename "$EXT4_LOOP")/trigger_fs_error" ||
		{ echo "skip: no ext4 trigger_fs_error"; exit 77; }
	finish
	! touch "$SMALL/probe" 2>/dev/null || fail "the ext4 did not turn read-only"
	grep -q "make the filesystem writable again" "$T/stdout" || fail "the closing line does not say what to do about EROFS"
	[ "$RC" = 1 ] || fail "exit code $RC on a read-only output filesystem, expected 1"
	n=$(grep -c "Read-only file system" "$T/stderr" || true)
	[ "$n" = 1 ] || fail "EROFS named $n times on stderr, expected once: $(cat "$T/stderr")"
	! grep -qi "out of memory\|No space left" "$T/stderr" || fail "a read-only filesystem blamed on memory or space"
	grep -q "run FAILED" "$T/stdout" || fail "the closing line does not say the run failed"
	closing_files_exist
	! grep -q "step 1 prepared" "$T"/agent-a*.log || fail "step 1 ran on a read-only filesystem"
	cp -r "$R" "$T/copy" || fail "the run directory cannot be read back"
	R="$T/copy"
	"$COORD" report --rebuild "$R" >"$T/rebuild.out" 2>&1 || fail "rebuild failed: $(cat "$T/rebuild.out")"
	json "$R/run.json" 'all(s["status"] == "not started" for s in r["steps"][1:]) and r["steps"][0]["measured_seconds"] >= 1' |
		grep -qx True || fail "the rebuild does not hold step 0 with its measured seconds"
	$CHECK "$R" || fail "the rebuilt figures disagree with events.jsonl"
	;;
low_space)
	# the output filesystem nearly full: the coordinator says so before step 0 and again
	# during the run, with the figures, early enough to act; space freed then, the run ends ok
	small_fs 16m
	fill_fs "$SMALL" 128
	profile s0 s1 s2 >"$T/p.json"
	run_bg "$T/p.json"
	for _ in $(seq 600); do
		grep -q "low on space" "$T/stderr" && break
		kill -0 "$CPID" 2>/dev/null || break
		sleep 0.1
	done
	grep -q "free space.*expected to write" "$T/stderr" || fail "no pre-run free-space warning: $(cat "$T/stderr")"
	grep -q "low on space" "$T/stderr" || fail "no low-space warning during the run"
	rm -f "$SMALL/fill"
	finish
	[ "$RC" = 0 ] || fail "exit code $RC after the space was freed in time"
	closing_files_exist
	check_and_rebuild
	;;
clock_drift)
	# a2's clock runs 1% fast (rate-capped at 1,000 IOPS per volume on each agent's own
	# clock): its drift is measured during the step and flagged in the step's checks and the
	# reports, and its seconds are placed on the coordinator's timeline (a2 does 1,010 I/Os
	# in each of the coordinator's seconds, a1 and a3 1,000)
	cat >"$T/p.json" <<JSON
{"name": "faults-drift", "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"}, {"name": "a3", "endpoint": "$EP_a3"}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "16m"}, {"agent": "a2", "path": "$T/a2.dat", "size": "16m"},
             {"agent": "a3", "path": "$T/a3.dat", "size": "16m"}],
 "steps": [{"name": "s0", "rw": "randread", "bs": "4k", "iodepth": 4, "rate_iops": 1000, "ramp": "1s", "runtime": "6s"}]}
JSON
	run_bg "$T/p.json"
	finish
	json "$R/run.json" '[c["detail"] for c in r["steps"][0]["checks"] if "clock" in c["name"] and c["pass"] is False]' >"$T/drift"
	grep -q "a2" "$T/drift" || fail "a2's drifting clock is not flagged in the step's checks: $(json "$R/run.json" '[c["name"] for c in r["steps"][0]["checks"]]')"
	! grep -q "a1\|a3" "$T/drift" || fail "a1 or a3 flagged for drift: $(cat "$T/drift")"
	grep -qi "clock.*a2\|a2.*clock" "$R/summary.md" || fail "summary.md does not flag a2's clock"
	grep -qi "clock.*a2\|a2.*clock" "$R/report.html" || fail "report.html does not flag a2's clock"
	# on the coordinator's timeline: a2's median second ~1% above a1's and a3's
	python3 - "$R/run.json" <<'PY' || fail "a2's seconds are not on the coordinator's timeline"
import json, statistics, sys
r = json.load(open(sys.argv[1]))
med = {a["name"]: statistics.median(v for v in a["series"]["iops"][1:] if v) for a in r["steps"][0]["agents"]}
ratio = med["a2"] / ((med["a1"] + med["a3"]) / 2)
print("median IOPS per coordinator second:", med, "a2/others %.4f" % ratio)
assert 1.005 < ratio < 1.015, ratio
PY
	check_and_rebuild
	;;
healthy_plain)
	# every bucket in events.jsonl: the checker's and the rebuild's json path
	profile s0 s1 >"$T/p.json"
	EVFMT=json run_bg "$T/p.json"
	finish
	[ "$RC" = 0 ] || fail "exit code $RC"
	check_and_rebuild
	;;
healthy_sweep)
	sweep_profile 2s '[1, 4, 16]' ', {"name": "after", "rw": "randwrite", "bs": "4k", "iodepth": 2, "runtime": "2s"}' >"$T/p.json"
	run_bg "$T/p.json"
	finish
	[ "$RC" = 0 ] || fail "exit code $RC"
	json "$R/run.json" '"sweep" in r["steps"][2] and "analysis" in r["steps"][2]' | grep -qx True ||
		fail "the sweep's last point has no table or analysis"
	check_and_rebuild
	;;
healthy_fdp)
	# the FDP experiment on the simulated SSD, cut to one mode and short iterations
	python3 - "$BC_SRC/profiles/fdp-hotcold-sim.json" "$T" "$EP_a1" >"$T/p.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["agents"] = [{"name": p["agents"][0]["name"], "endpoint": sys.argv[3]}]
for v in p["volumes"]:
    v["agent"] = p["agents"][0]["name"]
    if not v["path"].startswith("sim"):
        v["path"] = sys.argv[2] + "/" + v["path"].split("/")[-1]
x = p["steps"][0]["experiment"]
x["warmup_iterations"], x["measure_iterations"] = 1, 2
print(json.dumps(p))
PY
	run_bg "$T/p.json"
	finish
	[ "$RC" = 0 ] || { echo "skip: the FDP profile did not run here (exit $RC)"; exit 77; }
	check_and_rebuild
	;;
checker_fails)
	# the checker itself: a run.json whose total is off by one I/O, or whose silent second
	# reads as a zero, must not pass
	profile s0 >"$T/p.json"
	run_bg "$T/p.json"
	finish
	$CHECK "$R" || fail "a healthy run does not pass"
	cp -r "$R" "$T/bad"
	python3 -c "
import json; p='$T/bad/run.json'; r=json.load(open(p)); r['steps'][0]['total']['ios'] += 1
json.dump(r, open(p, 'w'))"
	! $CHECK "$T/bad" >/dev/null || fail "the checker passed a total off by one I/O"
	cp "$R/run.json" "$T/bad/run.json"
	python3 -c "
import json; p='$T/bad/run.json'; r=json.load(open(p)); t=r['steps'][0]
t['seconds'] += 1; t['total']['series']['iops'].append(0)
json.dump(r, open(p, 'w'))"
	! $CHECK "$T/bad" >/dev/null || fail "the checker passed a silent second counted as zero"
	# a record of records.bin damaged: its CRC fails and the checker says so
	cp "$R/run.json" "$T/bad/run.json"
	$CHECK "$T/bad" >/dev/null || fail "the copy does not pass"
	# the first frame starts after the 16-byte header; byte 36 is in its payload (CRC'd)
	python3 -c "
f = open('$T/bad/records.bin', 'r+b'); f.seek(36); b = f.read(1)[0]; f.seek(36)
f.write(bytes([b ^ 0x5a]))"
	! $CHECK "$T/bad" >"$T/bad.out" || fail "the checker passed a damaged records.bin"
	grep -q "bad CRC" "$T/bad.out" || fail "the checker did not name the damaged record: $(cat "$T/bad.out")"
	;;
*)
	fail "unknown case $CASE"
	;;
esac
echo "PASS: $CASE"
