#!/usr/bin/env bash
# Test the web page in a real browser. Builds it (scripts/web.sh --build-only) and the native CLI
# (when build/arcnav is missing), serves build-web/site/ on a free port of 127.0.0.1, opens the
# page in headless Chromium (web/drive_chromium.py) and checks that
#   - the exact length it shows for the town, R = 2, (10,10) -> (190,130) equals what
#     `build/arcnav path` prints (relative 1e-6), with the same pieces and arcs,
#   - the plain funnel answers too, and nothing went to the console as an error,
# then drags the goal over 200 frames on each example map and prints the page's redraw times.
# A screenshot of the town goes to build-web/web-test/town.png; `--screenshot FILE` writes it
# to FILE as well (`--screenshot docs/web.png` refreshes the README's picture).
set -euo pipefail
cd "$(dirname "$0")/.."
screenshot_copy=
if [ "${1:-}" = "--screenshot" ]; then
  screenshot_copy=${2:?--screenshot needs a file}
fi

scripts/install-deps.sh
scripts/web.sh --build-only
if [ ! -x build/arcnav ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build --target arcnav_cli -j2 >/dev/null
fi

out=build-web/web-test
rm -rf "$out"
mkdir -p "$out"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory build-web/site >"$out/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
python3 - "$port" <<'EOF'
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit("web-test: the server did not start")
EOF
base="http://127.0.0.1:$port/"

# Every browser run is bounded: the driver gives up after 60 s, `timeout` kills it after 90 s.
drive() {
  timeout 90 python3 web/drive_chromium.py --timeout 60 --log "$out/chromium-$1.log" "${@:2}" \
    >"$out/$1.json"
}

SECONDS=0
build/arcnav path --map examples/town.geojson --radius 2 --from 10,10 --to 190,130 \
  >"$out/cli.json"
drive town --screenshot "$out/town.png" "$base?map=town&from=10,10&to=190,130&r=2"
for map in town maze plaza; do
  drive "bench-$map" "$base?map=$map&bench=200"
done

python3 - "$out" <<'EOF'
import json, math, sys
out = sys.argv[1]
def load(name):
    with open(f"{out}/{name}.json") as f:
        return json.load(f)
failures = []
cli, page = load("cli"), load("town")
exact, plain = page["exact"], page["plain"]
cli_arcs = sum(1 for p in cli["pieces"] if p["type"] == "arc")
print(f"web-test: town R=2 (10,10)->(190,130): page exact {exact['length']!r} "
      f"({exact['pieces']} pieces, {exact['arcs']} arcs), CLI {cli['length']!r} "
      f"({len(cli['pieces'])} pieces, {cli_arcs} arcs); plain funnel {plain['length']!r}")
if exact["status"] != "ok" or cli["status"] != "ok":
    failures.append(f"status: page {exact['status']}, CLI {cli['status']}")
elif not math.isclose(exact["length"], cli["length"], rel_tol=1e-6):
    failures.append("the page's exact length differs from the CLI's")
elif (exact["pieces"], exact["arcs"]) != (len(cli["pieces"]), cli_arcs):
    failures.append("the page's pieces differ from the CLI's")
if plain["status"] != "ok":
    failures.append(f"plain funnel: {plain['status']}")
print(f"web-test: town planner builds in the page: exact {exact['build_ms']:.1f} ms, "
      f"plain funnel {plain['build_ms']:.1f} ms")
for name in ["town", "bench-town", "bench-maze", "bench-plaza"]:
    result = load(name)
    for error in result["errors"] + result["console_errors"]:
        failures.append(f"{name}: {error}")
    if result["exact"] is None or result["exact"]["status"] != "ok":
        failures.append(f"{name}: no exact path")
    bench = result.get("bench")
    if name.startswith("bench"):
        if bench is None:
            failures.append(f"{name}: no benchmark result")
            continue
        print(f"web-test: {result['map']}: goal dragged over {bench['steps']} frames "
              f"({bench['from']} -> {bench['to']}, R={result['radius']}): redraw median "
              f"{bench['median_ms']:.1f} ms, mean {bench['mean_ms']:.2f} ms, "
              f"p90 {bench['p90_ms']:.1f} ms, max {bench['max_ms']:.1f} ms; then one query "
              f"{result['exact']['query_us']:.1f} us exact, "
              f"{result['plain']['query_us']:.1f} us plain funnel")
for failure in failures:
    print("web-test: FAIL:", failure)
sys.exit(1 if failures else 0)
EOF
echo "web-test: browser runs took ${SECONDS}s; screenshot $out/town.png"
if [ -n "$screenshot_copy" ]; then
  cp "$out/town.png" "$screenshot_copy"
  echo "web-test: screenshot copied to $screenshot_copy"
fi
echo "web-test: passed"
