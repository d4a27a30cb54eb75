#!/usr/bin/env bash
# Build the libFuzzer targets (clang) in build-fuzz and run each for FUZZ_SECONDS seconds (default
# 30), FUZZ_JOBS targets at a time (default: one per processor), starting from
# fuzz/corpus/<target> and fuzz/regressions/<target>.
# Prints executions and executions per second per target; exits non-zero when any target found a
# crash, leak, timeout or out-of-memory (the input is saved under build-fuzz/fuzz-artifacts/).
#   scripts/fuzz.sh                      # at most 1.5 minutes on two processors
#   FUZZ_SECONDS=600 scripts/fuzz.sh     # a longer local run
#   FUZZ_SEED=1 scripts/fuzz.sh          # the same mutations every time (CI); 0 or unset: random
# With a fixed seed each target also stops after a fixed number of executions (FUZZ_SECONDS is
# then only a cap), so the run is the same on a fast machine and a slow one.
#   scripts/fuzz.sh geojson              # only the named targets
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-30}"
build="${FUZZ_BUILD_DIR:-build-fuzz}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(geojson neerc gridmap planner living cdt)
fi

scripts/install-deps.sh --fuzz
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARCNAV_WERROR=ON \
  -DARCNAV_BUILD_FUZZERS=ON -DARCNAV_BUILD_TESTS=OFF -DARCNAV_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2 --target "${targets[@]/#/fuzz_}"

# Inputs are kept small so that each execution stays fast: a map file of a few kilobytes already
# holds dozens of features, and the planner target reads at most a few hundred bytes.
runs_of() {
  if [ "${FUZZ_SEED:-0}" = 0 ]; then
    echo -1
    return
  fi
  case "$1" in
  geojson) echo 600000 ;;
  neerc) echo 300000 ;;
  planner) echo 20000 ;;
  living) echo 4000 ;;
  cdt) echo 20000 ;;
  *) echo 10000 ;;
  esac
}

max_len_of() {
  case "$1" in
  geojson) echo 4096 ;;
  neerc) echo 2048 ;;
  planner | living | cdt) echo 512 ;;
  *) echo 1024 ;;
  esac
}

# One target's run; its summary line goes to $build/fuzz-<target>.result, and its exit status
# is the run's.
fuzz_one() {
  local target="$1"
  local work="$build/fuzz-work/$target"
  local artifacts="$build/fuzz-artifacts/$target/"
  mkdir -p "$work" "$artifacts"
  local seeds=("fuzz/corpus/$target")
  if [ -d "fuzz/regressions/$target" ]; then
    seeds+=("fuzz/regressions/$target")
  fi
  local dict=()
  if [ -f "fuzz/$target.dict" ]; then
    dict=("-dict=fuzz/$target.dict")
  fi
  local log="$build/fuzz-$target.log"
  echo "fuzz_$target: ${seconds}s, max_len $(max_len_of "$target")"
  local rc=0
  # New inputs go to the first directory (the scratch corpus); the seeds are only read.
  "$build/fuzz/fuzz_$target" "$work" "${seeds[@]}" "${dict[@]}" \
    -max_total_time="$seconds" -max_len="$(max_len_of "$target")" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts" \
    -seed="${FUZZ_SEED:-0}" -runs="$(runs_of "$target")" >"$log" 2>&1 || rc=$?
  local runs speed
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ "$rc" -ne 0 ]; then
    echo "fuzz_$target: FAILED (exit $rc); log $log; input saved in $artifacts" >&2
    grep -E "^(fuzz_|bad error|==[0-9]+==ERROR|SUMMARY)" "$log" | head -5 >&2 || true
  fi
  printf '%-16s %12s execs %8s exec/s  %s\n' "fuzz_$target" "${runs:-?}" "${speed:-?}" \
    "$([ "$rc" -eq 0 ] && echo ok || echo FAILED)" >"$build/fuzz-$target.result"
  return "$rc"
}

# The targets run side by side, FUZZ_JOBS at a time (default: one per processor): each is a
# single process, and a fixed seed and execution count make each run the same whichever runs
# beside it.
jobs_at_once="${FUZZ_JOBS:-$(nproc)}"
status=0
running=()
for target in "${targets[@]}"; do
  if [ "${#running[@]}" -ge "$jobs_at_once" ]; then
    wait "${running[0]}" || status=1
    running=("${running[@]:1}")
  fi
  fuzz_one "$target" &
  running+=("$!")
done
for pid in "${running[@]}"; do
  wait "$pid" || status=1
done
for target in "${targets[@]}"; do
  cat "$build/fuzz-$target.result"
done
exit "$status"
