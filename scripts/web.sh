#!/usr/bin/env bash
# Build the web page (the library compiled to WebAssembly with Emscripten, web/arcnav_web.c as
# its bridge to JavaScript, the static files of web/ and the example maps) into build-web/site/,
# then serve it on http://127.0.0.1:8000/ with Python's http.server (PORT=... to change the port).
# `--build-only` stops after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --web
# Emscripten's JavaScript tools need the acorn parser from Debian's node-acorn, which a Node.js
# from outside Debian does not look for by itself.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

build=build-web
site=$build/site
# The library's sources come from CMakeLists.txt; only the library target is built.
emcmake cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARCNAV_WERROR=ON \
  -DARCNAV_BUILD_CLI=OFF -DARCNAV_BUILD_TESTS=OFF -DARCNAV_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target arcnav -j2 >/dev/null
rm -rf "$site"
mkdir -p "$site/maps"
emcc -std=c17 -O3 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
  -Werror -ffp-contract=off -Iinclude web/arcnav_web.c "$build/libarcnav.a" -o "$site/arcnav.js" \
  -sMODULARIZE=1 -sEXPORT_NAME=createArcnav -sENVIRONMENT=web -sALLOW_MEMORY_GROWTH=1 \
  -sFILESYSTEM=0 -sEXPORTED_FUNCTIONS=_malloc,_free -sEXPORTED_RUNTIME_METHODS=UTF8ToString
cp web/index.html web/style.css web/errors.js web/movingai.js web/app.js "$site/"
cp examples/*.geojson "$site/maps/"
echo "web: built $site (arcnav.wasm $(stat -c %s "$site/arcnav.wasm") bytes," \
  "arcnav.js $(stat -c %s "$site/arcnav.js") bytes)"

if [ "${1:-}" = "--build-only" ]; then
  exit 0
fi
port=${PORT:-8000}
echo "web: serving http://127.0.0.1:$port/ (Ctrl-C to stop)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
