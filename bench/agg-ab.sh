#!/bin/bash
# agg-ab.sh - two builds' bench_agg against each other on a noisy, shared machine. Single runs
# of one build vary up to 2x here, so the two run in turns, the order alternating every round,
# and what is compared is the median of the rounds' ratios X / Y (a burst of the host's load
# mostly hits one round's pair). Prints one figure per line as `name: value`:
#   ratio_all_median     X / Y of agg_ns_per_volume_second (the CPU of the seconds and the
#                        step's finish), the median over the rounds
#   ratio_all_q1/_q3     its quartiles: how noisy the series was
#   ratio_p50_median     X / Y of the per-second wall p50 (the 50th of the step's seconds: a
#                        burst moves a round's mean CPU, not this)
#   x_ns_median, y_ns_median, x_ns_min, y_ns_min   agg_ns_per_volume_second of each build
#
# usage: bench/agg-ab.sh X_BUILD Y_BUILD [ROUNDS] [BENCH_AGG ARGS...]
#   e.g. bench/agg-ab.sh /tmp/old/build build 24 -n 1000 -m 16 -t 0
# A build is a CMake build directory holding bench/bench_agg (an older commit's: `git worktree
# add /tmp/old COMMIT` and build it there). Do not run it beside other work: it times CPU.
set -euo pipefail

if [ $# -lt 2 ]; then
	echo "usage: $0 X_BUILD Y_BUILD [ROUNDS] [BENCH_AGG ARGS...]" >&2
	exit 2
fi
X=$1 Y=$2
shift 2
ROUNDS=${1:-12}
[ $# -gt 0 ] && shift
ARGS=("$@")
[ ${#ARGS[@]} -gt 0 ] || ARGS=(-n 1000 -m 16 -t 0)
for b in "$X" "$Y"; do
	if [ ! -x "$b/bench/bench_agg" ]; then
		echo "$0: $b/bench/bench_agg: not found or not executable" >&2
		exit 2
	fi
done
case $ROUNDS in
'' | *[!0-9]* | 0)
	echo "$0: ROUNDS must be a positive integer, got '$ROUNDS'" >&2
	exit 2
	;;
esac

out=$(mktemp)
trap 'rm -f "$out"' EXIT
# one round's figures of build $1: p50 (ms) and agg_ns_per_volume_second
one() {
	"$1/bench/bench_agg" "${ARGS[@]}" | awk '
		/^wall per second/ { p = $9 }
		/^agg_ns_per_volume_second:/ { t = $2 }
		END { if (p == "" || t == "") exit 1; print p, t }'
}
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 0 ]; then
		x=$(one "$X")
		y=$(one "$Y")
	else
		y=$(one "$Y")
		x=$(one "$X")
	fi
	echo "$x $y" >>"$out"
done
python3 - "$out" <<'EOF'
import statistics, sys

rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
p50 = sorted(r[0] / r[2] for r in rows)
alls = sorted(r[1] / r[3] for r in rows)
n = len(rows)
print(f"rounds: {n}")
print(f"ratio_all_median: {statistics.median(alls):.3f}")
print(f"ratio_all_q1: {alls[n // 4]:.3f}")
print(f"ratio_all_q3: {alls[(3 * n) // 4 if n > 1 else 0]:.3f}")
print(f"ratio_p50_median: {statistics.median(p50):.3f}")
print(f"x_ns_median: {statistics.median(r[1] for r in rows):.0f}")
print(f"y_ns_median: {statistics.median(r[3] for r in rows):.0f}")
print(f"x_ns_min: {min(r[1] for r in rows):.0f}")
print(f"y_ns_min: {min(r[3] for r in rows):.0f}")
EOF
