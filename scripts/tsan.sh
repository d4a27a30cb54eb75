#!/usr/bin/env bash
# ThreadSanitizer: builds the library and tests with -fsanitize=thread into build-tsan and runs
# test_threads (several threads querying one planner, planners built from one map at once). Any
# data race fails the run. Check's fork mode is off so the sanitizer watches the test itself.
#
# Environment: CC picks the compiler (default clang when installed, else cc); ARCNAV_TSAN_BUILD the
# build directory (default build-tsan).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${ARCNAV_TSAN_BUILD:-build-tsan}"
if [ -z "${CC:-}" ]; then
  if command -v clang >/dev/null; then CC=clang; else CC=cc; fi
fi
export CC
flags="-fsanitize=thread -fno-omit-frame-pointer -g -O1"
# Warnings are not errors here: with the instrumentation GCC reports a -Wmaybe-uninitialized false
# positive (src/cdt.c, step_segment's v). Warning-free code is what the normal build checks.
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARCNAV_WERROR=OFF -DARCNAV_BUILD_CLI=OFF \
  -DARCNAV_BUILD_BENCH=OFF -DCMAKE_C_FLAGS="$flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-g -O1" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
cmake --build "$dir" -j"$(nproc)" --target test_threads >/dev/null
# halt_on_error: the first race fails the run with its report; exitcode covers reports printed at
# exit as well.
CK_FORK=no TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1" \
  "$dir/tests/test_threads"
echo "tsan: test_threads is clean"
