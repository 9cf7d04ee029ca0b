#!/bin/bash
# quickstart.sh - the README's first command: install dependencies, build, and
# run profiles/local-quickstart.json (three agents started on loopback, file
# volumes in a scratch directory that is removed afterwards).
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec ./build/bench-coord run profiles/local-quickstart.json "$@"
