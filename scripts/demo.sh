#!/usr/bin/env bash
# Set up, build, and run the demo: `arcnav demo` on the maps in examples/, SVGs into demo-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
build/arcnav demo --out demo-out
# A game on a living map: buildings placed and destroyed while 200 units of three sizes walk.
build/arcnav_rts demo-out/rts
