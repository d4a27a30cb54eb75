#!/usr/bin/env bash
# Uses arcnav the ways another project would, and checks each: a C and a C++ program
# (tests/consumer/) that plan paths with lengths known by hand are built and run against
#   1. the installed package, through find_package(arcnav CONFIG), static, shared, and both
#      installed in one prefix;
#   2. the installed pkg-config file, static and shared;
#   3. add_subdirectory of this tree (shared), configured so that pkg-config finds nothing: as a
#      subproject arcnav must build only the library, and leave the parent's cache alone;
#   4. FetchContent from a source archive of this tree (file://, no network; static).
# It also checks that the shared library exports exactly the functions the header declares with
# ARCNAV_API, makes the Debian package with `cpack -G DEB`, and builds against that package's files
# unpacked into another directory.
# Everything happens in build-consumer/ (installed prefixes: build-consumer/prefix-static and
# build-consumer/prefix-shared).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
root="$(pwd)"
work="$root/build-consumer"
jobs="$(nproc)"
rm -rf "$work"
mkdir -p "$work"

say() { echo "consumer-test: $*"; }
fail() {
  echo "consumer-test: FAILED: $*" >&2
  exit 1
}

# Runs the two programs in a build directory and, for a shared build, checks that they load the
# expected libarcnav (given as a directory); for a static one, that they load none.
run_programs() { # label, directory with consumer_c and consumer_cxx, library directory or ""
  local label="$1" dir="$2" libdir="$3" program loaded
  for program in consumer_c consumer_cxx; do
    "$dir/$program" >"$dir/$program.out" 2>&1 || {
      cat "$dir/$program.out" >&2
      fail "$label: $program"
    }
    loaded="$(ldd "$dir/$program" | awk '/libarcnav/ {print $3}')"
    if [ -n "$libdir" ]; then
      if [ -z "$loaded" ] ||
        [ "$(cd "$(dirname "$loaded")" && pwd -P)" != "$(cd "$libdir" && pwd -P)" ]; then
        fail "$label: $program does not load libarcnav.so from $libdir: $(ldd "$dir/$program")"
      fi
    elif [ -n "$loaded" ]; then
      fail "$label: $program loads $loaded although it was linked statically"
    fi
  done
  say "$label: $(cat "$dir/consumer_c.out") / $(cat "$dir/consumer_cxx.out")"
}

consumer_cmake() { # build directory, cmake arguments...
  local dir="$1"
  shift
  cmake -S tests/consumer -B "$dir" "$@" >"$dir.configure.log" 2>&1 || {
    cat "$dir.configure.log" >&2
    fail "configuring $dir"
  }
  cmake --build "$dir" -j"$jobs" >"$dir.build.log" 2>&1 || {
    cat "$dir.build.log" >&2
    fail "building $dir"
  }
}

# The names the header declares with ARCNAV_API.
header_api() { sed -n 's/^ARCNAV_API .*\b\(arcnav_[a-z0-9_]*\)(.*/\1/p' "$1" | sort -u; }

for kind in static shared; do
  shared=OFF
  [ "$kind" = shared ] && shared=ON
  build="$work/lib-$kind"
  prefix="$work/prefix-$kind"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS="$shared" \
    -DARCNAV_WERROR=ON -DARCNAV_BUILD_TESTS=OFF -DARCNAV_BUILD_BENCH=OFF \
    -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
  cmake --build "$build" -j"$jobs" >"$build.log" 2>&1 || {
    cat "$build.log" >&2
    fail "building the $kind library"
  }
  cmake --install "$build" >/dev/null
  for file in include/arcnav/arcnav.h lib/cmake/arcnav/arcnav-config.cmake \
    lib/cmake/arcnav/arcnav-config-version.cmake "lib/cmake/arcnav/arcnav-$kind-targets.cmake" \
    lib/pkgconfig/arcnav.pc bin/arcnav share/arcnav/examples/town.geojson; do
    [ -e "$prefix/$file" ] || fail "$kind install lacks $file"
  done
  libdir="$prefix/lib"
  if [ "$kind" = shared ]; then
    [ -e "$libdir/libarcnav.so.0.1" ] || fail "no versioned soname: $(ls "$libdir")"
    [ ! -e "$libdir/libarcnav.a" ] || fail "a shared install brought libarcnav.a"
    # Exactly the public functions, nothing internal.
    nm -D --defined-only "$libdir/libarcnav.so" | awk '{print $3}' | sort -u >"$work/exported.txt"
    header_api "$prefix/include/arcnav/arcnav.h" >"$work/declared.txt"
    diff -u "$work/declared.txt" "$work/exported.txt" >&2 ||
      fail "libarcnav.so exports other symbols than the header's ARCNAV_API functions"
    say "libarcnav.so exports the header's $(wc -l <"$work/exported.txt") arcnav_ functions, no others"
  else
    [ -e "$libdir/libarcnav.a" ] || fail "no libarcnav.a: $(ls "$libdir")"
    [ ! -e "$libdir/libarcnav.so" ] || fail "a static install brought libarcnav.so"
    libdir=""
  fi
  "$prefix/bin/arcnav" --version >/dev/null || fail "installed $kind CLI does not run"

  # 1. find_package(arcnav CONFIG)
  consumer_cmake "$work/package-$kind" -DCMAKE_BUILD_TYPE=Release -DARCNAV_CONSUMER_MODE=package \
    -DCMAKE_PREFIX_PATH="$prefix"
  run_programs "find_package, $kind" "$work/package-$kind" "$libdir"

  # 2. pkg-config, with a compiler and nothing else
  pc=(env PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config)
  [ "$kind" = static ] && pc+=(--static)
  "${pc[@]}" --exact-version=0.1.0 arcnav || fail "pkg-config does not find arcnav 0.1.0"
  dir="$work/pkgconfig-$kind"
  mkdir -p "$dir"
  read -ra cflags <<<"$("${pc[@]}" --cflags arcnav)"
  read -ra libs <<<"$("${pc[@]}" --libs arcnav)"
  rpath=()
  [ "$kind" = shared ] && rpath=("-Wl,-rpath,$("${pc[@]}" --variable=libdir arcnav)")
  cc -std=c11 -Wall -Wextra -Wpedantic -Werror "${cflags[@]}" tests/consumer/consumer.c \
    -o "$dir/consumer_c" "${libs[@]}" "${rpath[@]}" -lm
  c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror "${cflags[@]}" tests/consumer/consumer.cpp \
    -o "$dir/consumer_cxx" "${libs[@]}" "${rpath[@]}"
  run_programs "pkg-config, $kind" "$dir" "$libdir"
done

# Both kinds installed in one prefix: find_package takes the shared library unless
# ARCNAV_SHARED_LIBS=OFF asks for the static one.
both="$work/prefix-both"
cmake --install "$work/lib-static" --prefix "$both" >/dev/null
cmake --install "$work/lib-shared" --prefix "$both" >/dev/null
consumer_cmake "$work/package-both" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$both"
run_programs "find_package, both installed" "$work/package-both" "$both/lib"
consumer_cmake "$work/package-both-static" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$both" \
  -DARCNAV_SHARED_LIBS=OFF
run_programs "find_package, both installed, ARCNAV_SHARED_LIBS=OFF" "$work/package-both-static" ""

# The Debian package, from the shared build; then a build against its files unpacked elsewhere,
# which also shows that the installed CMake and pkg-config files do not depend on the prefix.
(cd "$work/lib-shared" && cpack -G DEB >"$work/cpack.log" 2>&1) || {
  cat "$work/cpack.log" >&2
  fail "cpack -G DEB"
}
deb="$(ls "$work"/lib-shared/arcnav_*.deb)"
dpkg-deb -f "$deb" Depends | grep -q libc6 || fail "$deb: no Depends on libc6"
dpkg-deb -x "$deb" "$work/unpacked"
usr="$work/unpacked/usr"
"$usr/bin/arcnav" render --map "$usr/share/arcnav/examples/town.geojson" --out "$work/town.svg" >/dev/null ||
  fail "the packaged CLI cannot render its packaged example map"
consumer_cmake "$work/package-deb" -DCMAKE_BUILD_TYPE=Release -DARCNAV_CONSUMER_MODE=package \
  -DCMAKE_PREFIX_PATH="$usr"
run_programs "find_package, unpacked $(basename "$deb")" "$work/package-deb" "$usr/lib"
say "$(basename "$deb"): $(stat -c %s "$deb") bytes, Depends: $(dpkg-deb -f "$deb" Depends)"

# 3. add_subdirectory: no build type, and pkg-config finding nothing (as on a machine without
# cJSON or Check): the subproject must not look for them. Shared, to run from the build tree.
mkdir -p "$work/no-pkgconfig"
(
  unset PKG_CONFIG_PATH
  export PKG_CONFIG_LIBDIR="$work/no-pkgconfig"
  consumer_cmake "$work/subdirectory" -DARCNAV_CONSUMER_MODE=subdirectory \
    -DARCNAV_SOURCE_DIR="$root" -DBUILD_SHARED_LIBS=ON -DARCNAV_WERROR=ON
)
run_programs "add_subdirectory, shared" "$work/subdirectory" "$work/subdirectory/arcnav"
! grep -q '^CMAKE_BUILD_TYPE:STRING=.' "$work/subdirectory/CMakeCache.txt" ||
  fail "add_subdirectory: the parent's cache got a build type"

# 4. FetchContent from an archive of this tree as it is (uncommitted changes included).
tar -C "$root" -czf "$work/arcnav-src.tar.gz" --exclude-vcs --exclude='./build*' \
  --exclude='./cmake-build*' --exclude='./out' --exclude='./demo-out' .
hash="$(sha256sum "$work/arcnav-src.tar.gz" | cut -d' ' -f1)"
consumer_cmake "$work/fetchcontent" -DCMAKE_BUILD_TYPE=Release -DARCNAV_CONSUMER_MODE=fetchcontent \
  -DARCNAV_URL="file://$work/arcnav-src.tar.gz" -DARCNAV_URL_HASH="SHA256=$hash"
run_programs "FetchContent, static" "$work/fetchcontent" ""

say "all passed"
