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
ctest --output-on-failure --timeout 600 "$@"
