#!/usr/bin/env bash
# Set up, build with warnings as errors, and run every test (the whole suite: the quick
# registrations, label "quick", are for `ctest --test-dir build -L quick` while editing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARCNAV_WERROR=ON
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)" -LE quick
