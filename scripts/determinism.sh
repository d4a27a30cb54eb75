#!/usr/bin/env bash
# Same answers at every optimisation level: builds tests/test_determinism at -O0 (Debug) and at -O2
# (Release, -O2 -DNDEBUG) in two build directories, runs both, and checks that they print the same
# per-engine path hashes. Each run also compares its hashes with tests/data/determinism.hash; a
# mismatch there fails the script too, but the -O0/-O2 comparison is reported first so the two
# causes are told apart.
#
# Environment: CC picks the compiler (default cc); ARCNAV_DET_BUILD_PREFIX the build directories'
# prefix (default build-det, giving build-det-O0 and build-det-O2).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${ARCNAV_DET_BUILD_PREFIX:-build-det}"
jobs="$(nproc)"

build() { # dir, build type, extra cmake arguments...
  local dir="$1" type="$2"
  shift 2
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DARCNAV_WERROR=ON -DARCNAV_BUILD_CLI=OFF \
    -DARCNAV_BUILD_BENCH=OFF "$@" >/dev/null
  cmake --build "$dir" -j"$jobs" --target test_determinism >/dev/null
}

build "$prefix-O0" Debug -DCMAKE_C_FLAGS_DEBUG="-O0 -g"
build "$prefix-O2" Release -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG"

status=0
for level in O0 O2; do
  # The output goes to a file: a command substitution would lose the exit status.
  if ! CK_FORK=no "$prefix-$level/tests/test_determinism" >"$prefix-$level/determinism.out" 2>&1; then
    status=1
    grep -v '^determinism ' "$prefix-$level/determinism.out" | sed "s/^/-$level: /" >&2 || true
  fi
done
hashes() { grep '^determinism [a-z_]* [0-9a-f]*$' "$prefix-$1/determinism.out" || true; }
o0="$(hashes O0)"
o2="$(hashes O2)"
if [ -z "$o0" ] || [ "$o0" != "$o2" ]; then
  echo "determinism: -O0 and -O2 give different paths" >&2
  diff <(printf '%s\n' "$o0") <(printf '%s\n' "$o2") >&2 || true
  exit 1
fi
printf '%s\n' "$o0"
if [ "$status" -ne 0 ]; then
  echo "determinism: -O0 and -O2 agree, but not with tests/data/determinism.hash" >&2
  exit 1
fi
echo "determinism: -O0 and -O2 agree with each other and with tests/data/determinism.hash"
