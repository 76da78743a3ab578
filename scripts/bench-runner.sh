#!/usr/bin/env bash
# Runner overhead benchmark (not a test): games between instant-move mock engines (seeded random movers, no
# thinking), so the time measured is the runner's and the engines' protocol work, not search.
#   1. GAMES games (default 10,000) at concurrency 2, then
#   2. GAMES64 games (default 2,000) at concurrency 64,
#   each: games/s; the runner's own CPU time per game and per engine move, with its user/sys split, and its peak
#   RSS (from the runner's --json summary: getrusage RUSAGE_SELF and engine_moves); /usr/bin/time -v of the whole
#   run (runner + engines). The per-move figures of the two runs side by side are the runner's scaling.
# Usage: scripts/bench-runner.sh [GAMES] [GAMES64]; BUILD_DIR selects the build (default build/, built with
# -DBUILD_TESTING=ON for the mock engine).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
arena=${ARENA:-$build/bin/shogi-arena}  # ARENA=path compares another build of the runner
mock=$build/tests/mock_usi_engine
games=${1:-10000}
games64=${2:-2000}
for f in "$arena" "$mock"; do [ -x "$f" ] || { echo "bench-runner: $f not built" >&2; exit 1; }; done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {  # run NAME CONCURRENCY GAMES
  local name=$1 concurrency=$2 n=$3
  /usr/bin/time -v "$arena" gauntlet \
    --engine cmd="$mock" name=m1 arg=--random arg=--seed arg=1 \
    --engine cmd="$mock" name=m2 arg=--random arg=--seed arg=2 \
    --each tc=60+1 --games "$n" --concurrency "$concurrency" --max-plies 160 \
    --openings file="$root/openings/balanced-24.sfen" order=random \
    --kifu none --engine-logs false --out "$out/$name" --json --quiet >"$out/$name.json" 2>"$out/$name.time"
  local elapsed cpu user sys moves rss total_rss
  elapsed=$(grep -o '"elapsed_s":[0-9.e+-]*' "$out/$name.json" | cut -d: -f2)
  cpu=$(grep -o '"runner_cpu_s":[0-9.e+-]*' "$out/$name.json" | cut -d: -f2)
  user=$(grep -o '"runner_user_s":[0-9.e+-]*' "$out/$name.json" | cut -d: -f2)
  sys=$(grep -o '"runner_sys_s":[0-9.e+-]*' "$out/$name.json" | cut -d: -f2)
  moves=$(grep -o '"engine_moves":[0-9]*' "$out/$name.json" | cut -d: -f2)
  rss=$(grep -o '"runner_max_rss_kb":[0-9]*' "$out/$name.json" | cut -d: -f2)
  total_rss=$(grep 'Maximum resident set size' "$out/$name.time" | grep -o '[0-9]*$')
  awk -v n="$n" -v c="$concurrency" -v e="$elapsed" -v cpu="$cpu" -v rss="$rss" -v wall="$(grep 'Elapsed (wall' "$out/$name.time" | sed 's/.*): //')" \
      -v ru="$user" -v rs="$sys" -v moves="$moves" \
      -v user="$(grep 'User time' "$out/$name.time" | grep -o '[0-9.]*$')" \
      -v sys="$(grep 'System time' "$out/$name.time" | grep -o '[0-9.]*$')" 'BEGIN {
    printf "%d games at concurrency %d: %.1f s, %.0f games/s; runner CPU %.1f s (%.2f ms/game), runner peak RSS %.1f MB;\n", n, c, e, n / e, cpu, 1000 * cpu / n, rss / 1024
    printf "  runner CPU per engine move: %.2f us (user %.2f us, sys %.2f us) over %d moves\n", 1e6 * cpu / moves, 1e6 * ru / moves, 1e6 * rs / moves, moves
    printf "  whole run (/usr/bin/time -v, runner + engines): wall %s, user %s s, sys %s s\n", wall, user, sys
  }'
}

echo "== $games games, concurrency 2"
run c2 2 "$games"
echo "== $games64 games, concurrency 64"
run c64 64 "$games64"
