#!/bin/bash
# run-tests.sh - the README's test command: install dependencies, build with
# warnings as errors, and run the whole ctest suite (unit and end-to-end).
# Usage: bash deploy/run-tests.sh [ctest args...]   e.g. -L unit
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh --test
cmake -S . -B build -DBC_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
cd build
if [ $# -gt 0 ]; then
	exec ctest --output-on-failure --timeout 600 "$@"
fi
# The vmlab tests boot QEMU guests under TCG; NVMe/TCP inside a guest on a loaded 2-core host
# has stalled in about one run in five (2026-11-30): a vmlab test that fails is run once
# more, and both attempts are in the output. Every other test gets one attempt.
rc=0
ctest --output-on-failure --timeout 600 -LE vmlab || rc=$?
ctest --output-on-failure --timeout 600 -L vmlab --repeat until-pass:2 || rc=$?
exit $rc
