#!/bin/bash
# run_fuzzer.sh BINARY CORPUS ARTIFACTS: run one libFuzzer target for
# $BC_FUZZ_SECONDS (default 30) over a copy of its seed corpus, so the
# checked-in corpus never changes; a crash leaves its input in ARTIFACTS and
# fails the test. Skips (77) when the fuzzer was not built (no clang/libFuzzer).
set -euo pipefail
bin=$1 corpus=$2 artifacts=$3
secs=${BC_FUZZ_SECONDS:-30}
if [ ! -x "$bin" ]; then
	echo "skip: $bin not built (needs clang and libclang-rt-dev; cmake -DBC_FUZZ=ON)" >&2
	exit 77
fi
work=$(mktemp -d /tmp/bc-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# -seed: the same run every time, as far as a time bound allows
"$bin" -seed=1 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-print_final_stats=1 -artifact_prefix="$artifacts/$(basename "$bin")-" "$work" "$corpus"
