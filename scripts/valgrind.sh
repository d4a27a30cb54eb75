#!/usr/bin/env bash
# The whole CTest suite under valgrind memcheck, from its own build directory (RelWithDebInfo, no
# sanitizers: valgrind and the sanitizers do not mix). Any invalid read or write, use of an
# uninitialised value, bad free, or definitely or possibly lost block fails the run. Check's fork
# mode is off so that valgrind watches the tests themselves, and children are traced so that the
# CLI runs started by test_cli are checked too. Shell checks (label "script") are left out: memcheck
# would report the shell's own leaks.
#
# The exit code for memcheck errors is 99, not 1: the CLI exits with 1 for a valid question with no
# path, so an error in a traced CLI run must not pass for that answer.
#
# Environment: ARCNAV_VALGRIND_BUILD the build directory (default build-valgrind);
# ARCNAV_PROPERTY_SCALE (default 0.02, about a fiftieth of the randomised property test) and
# ARCNAV_TEST_SCALE (default 0.2: a fifth of the other randomised loops) keep the
# run to a few minutes; extra arguments go to ctest (e.g. -R alloc_failure). The quick
# registrations (label "quick") are left out: they repeat the same tests at a smaller size.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${ARCNAV_VALGRIND_BUILD:-build-valgrind}"
valgrind="$(command -v valgrind || true)"
if [ -z "$valgrind" ]; then
  echo "valgrind.sh: valgrind is not installed (Debian: apt-get install valgrind)" >&2
  exit 2
fi
# Check's record of every passing assertion's place is left out: one write each, which under
# memcheck costs more than most checks (tests/arcnav_test.h).
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARCNAV_WERROR=ON -DARCNAV_SANITIZE=OFF \
  -DARCNAV_BUILD_BENCH=OFF -DARCNAV_TEST_MARK_POINTS=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)" >/dev/null

# One log per process (%p): with traced children, a single log file shared by the test and the CLI
# runs it starts would be overwritten by each of them. This --log-file comes after the one ctest
# adds, and valgrind takes the last.
logs="$dir/valgrind-logs"
rm -rf "$logs"
mkdir -p "$logs"
options="--error-exitcode=99 --leak-check=full --show-leak-kinds=definite,possible"
options+=" --errors-for-leak-kinds=definite,possible --trace-children=yes --num-callers=40"
options+=" --log-file=$(cd "$logs" && pwd)/%p.log"
status=0
CK_FORK=no ARCNAV_PROPERTY_SCALE="${ARCNAV_PROPERTY_SCALE:-0.02}" \
  ARCNAV_TEST_SCALE="${ARCNAV_TEST_SCALE:-0.2}" \
  ctest --test-dir "$dir" -T memcheck --overwrite MemoryCheckCommand="$valgrind" \
  --overwrite MemoryCheckCommandOptions="$options" --output-on-failure -j"$(nproc)" \
  -LE 'quick|script' \
  "$@" ||
  status=$?
# Show every report that found something (the exit code alone does not say where).
for log in "$logs"/*.log; do
  [ -e "$log" ] || continue
  if grep -qE 'ERROR SUMMARY: [1-9]|definitely lost: [1-9]|possibly lost: [1-9]' "$log"; then
    echo "==== $log" >&2
    cat "$log" >&2
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "valgrind.sh: memcheck found errors or a test failed" >&2
  exit 1
fi
echo "valgrind.sh: the whole suite is clean under memcheck"
