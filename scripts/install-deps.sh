#!/usr/bin/env bash
# Installs what arcnav needs on Debian 12: compiler, CMake, Check, pkg-config, and cJSON for the CLI.
# Does nothing when everything is already there, so repeated runs are fast.
# `--fuzz` adds what scripts/fuzz.sh needs: clang and its runtime libraries (libFuzzer, sanitizers).
# `--ci` adds those and valgrind, for everything .ci/run does.
# `--web` adds what scripts/web.sh and scripts/web-test.sh need: Emscripten, headless Chromium, Python
# (its http.server serves the page) and a font for the page's text.
set -euo pipefail
packages=(build-essential cmake pkg-config check libcjson-dev)
fuzz_packages=(clang libclang-rt-dev)
case "${1:-}" in
--fuzz) packages+=("${fuzz_packages[@]}") ;;
--ci) packages+=("${fuzz_packages[@]}" valgrind) ;;
--web) packages+=(emscripten chromium python3 fonts-dejavu-core) ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
echo "Installing: ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
