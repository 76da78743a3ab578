#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" -DBUILD_TESTING=ON
bin="${BUILD_DIR:-$root/build}/bin"
echo "== move generator speed (perft, one thread)"
"$bin/perft_bench"
echo "== engine benchmark (fixed positions and depth, one thread)"
"$bin/shogi-arena-engine" bench
