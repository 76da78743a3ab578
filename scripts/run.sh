#!/usr/bin/env bash
# README command 1: install what is missing, build the two binaries, and run the main job: the default gauntlet
# (configs/default.yaml) — the built-in engine against itself at 10 s sudden death, with live progress, a final
# table, and the journal and kifu (CSA and KIF) in results/default-gauntlet/. Extra arguments go to shogi-arena,
# e.g. `bash scripts/run.sh --games 4` for a shorter run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target shogi-arena shogi-arena-engine
echo "== the default gauntlet: $root/configs/default.yaml"
# The config names shogi-arena-engine, found beside shogi-arena; the engine of this build is passed all the same.
status=0
"$build/bin/shogi-arena" run --config "$root/configs/default.yaml" --each cmd="$build/bin/shogi-arena-engine" "$@" ||
  status=$?
echo "== kifu and journal: $root/results/default-gauntlet/"
exit $status
