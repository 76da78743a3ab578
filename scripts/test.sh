#!/usr/bin/env bash
# README command 2: install what is missing, build, run the whole test suite (what .ci/run calls).
# Long soaks are opt-in: SHOGI_ARENA_SLOW_TESTS=1 scripts/test.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh" --test
slow=OFF
[ "${SHOGI_ARENA_SLOW_TESTS:-0}" = 1 ] && slow=ON
bash "$root/scripts/build.sh" -DBUILD_TESTING=ON -DSHOGI_ARENA_SLOW_TESTS=$slow
cd "${BUILD_DIR:-$root/build}"
ctest --output-on-failure -j"${JOBS:-2}" --timeout 1800
