#!/bin/bash
# run-tests.sh - the README's test command: install dependencies, build with
# warnings as errors, and run the whole ctest suite (unit and end-to-end); then
# the sanitizer build (build-san/) and its tests.
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
# Every test gets one attempt, the vmlab tests (QEMU guests under TCG) included: each passes 10
# runs out of 10 on an idle machine (docs/vmlab.md). They run after the rest, on their own, so
# the guests do not compete with the other tests for CPU.
rc=0
ctest --output-on-failure --timeout 600 -LE vmlab || rc=$?
ctest --output-on-failure --timeout 600 -L vmlab || rc=$?
# The same code under AddressSanitizer and UndefinedBehaviorSanitizer (build-san/, any finding
# fails its test): every unit test and the e2e subset below, about 5 minutes on 2 cores after
# the build. docs/style.md (Tests) says why this subset and what it covers.
BC_SAN_E2E='^(test_bad_.*|test_e2e_quickstart|test_e2e_sweep|test_e2e_events_compact|test_agent_junk_connections|test_e2e_keys)$'
cd ..
cmake -S . -B build-san -DBC_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DBC_SANITIZE=address,undefined >/dev/null
cmake --build build-san -j"$(nproc)"
cd build-san
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
ctest --output-on-failure --timeout 600 -L unit -j2 || rc=$?
ctest --output-on-failure --timeout 600 -R "$BC_SAN_E2E" || rc=$?
exit $rc
