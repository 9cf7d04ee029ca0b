#!/bin/bash
# test_e2e_live_tty: the live panel on a real terminal (a tmux pane of this test's own tmux
# server) at 80x24, 120x30 and 40x8: sampled while it runs and captured whole at the end, no line
# ever wraps (capture-pane -J joins wrapped rows, so a longer line is a wrapped one), the step
# tables and verdicts after the panel included (fitted to the width; --plain keeps the full
# table); the panel is drawn once per screen (no stale progress bars under or over it), it fits the pane's height,
# and once the run ends nothing of it is left, on screen or in the scrollback.
. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null || {
	echo "skip: tmux not installed (Debian package tmux; deploy/install-deps.sh --test)"
	exit 77
}
SOCK="$T/tmux.sock"
tm() { tmux -S "$SOCK" "$@"; }
stop_tmux() { tm kill-server 2>/dev/null || true; }
on_exit stop_tmux

cat >"$T/p.json" <<JSON
{
  "name": "e2e-live",
  "agents": [{"name": "client-a", "endpoint": "local"}, {"name": "client-b", "endpoint": "local"},
             {"name": "client-c-with-a-rather-long-host-name", "endpoint": "local"}],
  "nodes": [{"name": "n1"}, {"name": "n2"}],
  "volumes": [
    {"agent": "client-a", "path": "v0.dat", "size": "8m", "node": "n1"},
    {"agent": "client-b", "path": "v0.dat", "size": "8m", "node": "n2"},
    {"agent": "client-c-with-a-rather-long-host-name", "path": "v0.dat", "size": "8m", "node": "n2"}
  ],
  "steps": [{"name": "first-step-with-a-name-long-enough-to-crowd-the-bar", "rw": "randread",
             "bs": "4k", "iodepth": 2, "ramp": "1s", "runtime": "5s"},
            {"name": "second", "rw": "randwrite", "bs": "4k", "iodepth": 2, "runtime": "2s"}]
}
JSON

# check_screen COLS ROWS FILE...: captures (-J) of the pane
check_screen() {
	python3 - "$@" <<'PY'
import re, sys
cols, rows = int(sys.argv[1]), int(sys.argv[2])
for path in sys.argv[3:]:
  lines = open(path).read().split("\n")
  # the live output: step headers, column heads, per-second lines and the panel (the step's
  # summary table and verdict after it are plain text the terminal may wrap: never redrawn)
  live = re.compile(r"^(step \S+: \S+ bs=|( *sec|time +sec) +phase|( +|[0-9:]{8} +)[0-9]+ (ramp|run) |"
                    r"  \[[#.]+\]|  +this second|  client |  node   )")
  long = [l for l in lines if len(l) >= cols and live.match(l)]
  assert not long, "%s: %d line(s) wrapped at %d columns: %r" % (path, len(long), cols, long[:2])
  bars = [l for l in lines if re.match(r"^  \[[#.]+\]", l)]
  assert len(bars) <= 1, "%s: %d progress bars on one screen: %r" % (path, len(bars), bars)
  heads = [l for l in lines if "this second" in l]
  assert len(heads) <= 1, "%s: the panel twice" % path
  if bars:
      # the panel is the screen's last rows: bar, column heads, client and node rows
      tail = [l for l in lines if l.strip()]
      i = tail.index(bars[0])
      panel = tail[i:]
      assert len(panel) <= rows - 2, "%s: a panel of %d lines in %d rows" % (path, len(panel), rows)
      assert all(l.startswith("  ") for l in panel), "%s: not the panel below the bar: %r" % (path, panel)
PY
}

# one run in a COLSxROWS pane; samples the screen until the run's exit is printed
run_in_pane() {
	local cols=$1 rows=$2 name=$3 i=0 n=0
	tm new-session -d -s "$name" -x "$cols" -y "$rows" \
		"cd '$T' && env TERM=xterm XDG_CONFIG_HOME='$XDG_CONFIG_HOME' BC_AGENT_BIN='$AGENT' \
		'$COORD' run -o '$T/out-$name' '$T/p.json'; echo RUN-EXIT=\$?; sleep 300"
	tm set-option -t "$name" history-limit 5000 >/dev/null
	# capture fast while it runs (checked afterwards: a check per sample would miss seconds)
	while [ $i -lt 1500 ]; do
		i=$((i + 1))
		tm capture-pane -p -J -t "$name" >"$T/$name.snap.$i"
		grep -q 'RUN-EXIT=' "$T/$name.snap.$i" && break
		sleep 0.1
	done
	cp "$T/$name.snap.$i" "$T/$name.screen"
	for f in "$T/$name".snap.*; do
		grep -qE '^  \[[#.]+\]' "$f" || continue
		n=$((n + 1))
		cp "$f" "$T/$name.panel.$n"
	done
	[ $n -ge 3 ] || fail "$name: the panel was seen on only $n of $i screen(s)"
	check_screen "$cols" "$rows" "$T/$name".panel.* || fail "$name: a screen failed the checks"
	grep -q 'RUN-EXIT=0' "$T/$name.screen" || fail "$name: the run did not end well: $(cat "$T/$name.screen")"
	# the whole scrollback: nothing wrapped, no panel left, every second's line there
	tm capture-pane -p -J -S - -t "$name" >"$T/$name.all"
	check_screen "$cols" 100000 "$T/$name.all" || fail "$name: scrollback"
	# and everything else the run printed: the step tables (fitted to the width), the verdict,
	# where the results are; only log lines ("bench-coord: warning: ...") stay whole, for grep,
	# and one word longer than the line (a path, a name at 40 columns), never cut
	if awk -v c="$cols" '!/^bench-coord: / && length($0) >= c && NF > 1 { print "wrapped: " $0; bad = 1 }
		END { exit !bad }' "$T/$name.all"; then
		fail "$name: lines wrapped at $cols columns (above)"
	fi
	grep -qE '^ +IOPS ' "$T/$name.all" || fail "$name: no step table"
	[ "$(grep -cE '^  total +[0-9]' "$T/$name.all")" = 2 ] || fail "$name: not one table row 'total' per step"
	if grep -nE '^  \[[#.]+\]|this second|^  client |^  node   ' "$T/$name.all"; then
		fail "$name: panel lines left after the run"
	fi
	[ "$(grep -cE '^( +|[0-9:]{8} +)[0-9]+ (ramp|run) ' "$T/$name.all")" -ge 8 ] ||
		fail "$name: per-second lines missing: $(cat "$T/$name.all")"
	echo "$name (${cols}x${rows}): panel checked on $n screens; $(grep -cE '^( +|[0-9:]{8} +)[0-9]+ (ramp|run) ' "$T/$name.all") second lines, none wrapped"
}

run_in_pane 80 24 w80
# one sampled panel at 80 columns, as it looked
sed -n '/^  \[/,$p' "$(ls "$T"/w80.panel.* | tail -1)"
grep -qE '^  client +client-c-with-a-rather-l +[0-9]' "$T/w80.all" "$T"/w80.panel.* ||
	fail "80 columns: the long client name is not cut to its column"
# the bar's line keeps its figures: a long step name is what gives way
grep -qE '^  \[[#.]+\] step 1/2 first-step-w[a-z-]* +second [0-9]+/[0-9]+ .*run ETA [0-9]+:[0-9]{2}$' "$T"/w80.panel.* ||
	fail "80 columns: the progress line lost its ETA"
# the step table at 80 columns: compact, p50 left out (mean and p99 kept), long labels cut
# to their end; at 120 the full table
grep -qE '^ +IOPS +MB/s +read% +mean_ms +p99_ms +max_ms +errors$' "$T/w80.all" ||
	fail "80 columns: the step table is not the compact one: $(grep -E 'IOPS +MB/s' "$T/w80.all")"
grep -qE '^  agent ~[a-z-]*host-name +[0-9]' "$T/w80.all" || fail "80 columns: a long label is not cut to its end"
run_in_pane 120 30 w120
grep -qE '^ +IOPS +MB/s +read% +mean_ms +p50_ms +p99_ms +max_ms +errors$' "$T/w120.all" ||
	fail "120 columns: not the full step table"
run_in_pane 40 8 w40
# at 8 rows the panel keeps the nodes and says how many clients it left out
grep -qE '^  client \.\.\. and 2 more' "$T"/w40.panel.* ||
	fail "40x8: no 'and N more' for the clients that did not fit: $(cat "$T"/w40.panel.1)"
# --plain (and a pipe): the full table whatever the terminal says, for programs that read it
(cd "$T" && COLUMNS=80 "$COORD" run --plain -o "$T/out-plain" "$T/p.json") >"$T/plain.out" 2>&1 ||
	{ cat "$T/plain.out"; fail "--plain run failed"; }
[ "$(grep -cE '^ +IOPS +MB/s +read% +mean_ms +p50_ms +p99_ms +max_ms +errors$' "$T/plain.out")" = 2 ] ||
	fail "--plain: not the full step table: $(grep -E 'IOPS +MB/s' "$T/plain.out")"
echo "PASS"
