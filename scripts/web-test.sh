#!/usr/bin/env bash
# Test the web page in a real browser. Builds it (scripts/web.sh --build-only) and the native CLI
# (when build/arcnav is missing), serves build-web/site/ on a free port of 127.0.0.1, opens the
# page in headless Chromium (web/drive_chromium.py) and checks that
#   - the exact length it shows for the town, R = 2, (10,10) -> (190,130) equals what
#     `build/arcnav path` prints (relative 1e-6), with the same pieces and arcs,
#   - the plain funnel answers too, and nothing went to the console as an error,
#   - a MovingAI grid map (web/test/pinch.map) is traced into polygons the library accepts: a
#     cell reached only through a corner where two blocked cells touch has no path out, and a
#     free row gives its straight length,
# then drags the goal over 200 frames on each example map and prints the page's redraw times.
# WEB_TEST_MAPS="a.map b.geojson ..." drags over those map files too (no check beyond errors).
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
rm -rf "$out" build-web/site/test
mkdir -p "$out" build-web/site/test
cp web/test/pinch.map build-web/site/test/
extra=()
for file in ${WEB_TEST_MAPS:-}; do
  cp "$file" build-web/site/test/
  extra+=("$(basename "$file")")
done
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
drive pinch-closed "$base?file=test/pinch.map&from=1.5,1.5&to=4.5,4.5&r=0.1"
drive pinch-row "$base?file=test/pinch.map&from=0.5,4.5&to=4.5,4.5&r=0.25"
for map in town maze plaza; do
  drive "bench-$map" "$base?map=$map&bench=200"
done
for file in "${extra[@]}"; do
  drive "bench-$file" "$base?file=test/$file&bench=200"
done

python3 - "$out" "${extra[@]}" <<'EOF'
import json, math, sys
out = sys.argv[1]
extra = ["bench-" + name for name in sys.argv[2:]]
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
for name, want, length in [("pinch-closed", "no_path", None), ("pinch-row", "ok", 4.0)]:
    result = load(name)
    for key in ["exact", "plain"]:
        got = result[key]
        if got is None or got["status"] != want or (
                length is not None and not math.isclose(got["length"], length, rel_tol=1e-9)):
            failures.append(f"{name}: {key} gave {got}, expected {want} {length or ''}")
print(f"web-test: pinch.map: through the pinched corner {load('pinch-closed')['exact']['status']}, "
      f"along the free row {load('pinch-row')['exact']['length']!r}")
for name in ["town", "pinch-closed", "pinch-row", "bench-town", "bench-maze", "bench-plaza"] + extra:
    result = load(name)
    for error in result["errors"] + result["console_errors"]:
        failures.append(f"{name}: {error}")
    if name.startswith("pinch"):
        continue
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
              f"p90 {bench['p90_ms']:.1f} ms, max {bench['max_ms']:.1f} ms; median "
              f"{bench['found_median_ms']:.1f} ms over the {bench['found']} frames with an exact "
              f"path; then one query "
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
