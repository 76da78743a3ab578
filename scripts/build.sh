#!/usr/bin/env bash
# Configures and builds into build/ (Release, -march=native). Extra arguments go to CMake, e.g.
#   scripts/build.sh -DPORTABLE=ON              generic x86-64 build
#   scripts/build.sh -DSANITIZE=address,undefined
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" -j"${JOBS:-2}"
