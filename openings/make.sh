#!/usr/bin/env bash
# Makes the default opening suite openings/balanced-24.sfen (see openings/README.md for what and why).
#
#   openings/make.sh [COUNT] [OUTPUT]          defaults: 100 openings/balanced-24.sfen
#
# GPSShogi (/usr/games/gpsusi, Debian package gpsshogi) plays both sides from a first-move pair until ply 24,
# mostly from its opening book, which it samples at random. Each final position is searched by a second GPSShogi
# without book for a fixed time; positions scored within +-BOUND centipawns are kept, deduplicated by position
# (board, hands and side to move, found with the built-in engine's `sfen` command).
#
# Environment: GPSUSI (default /usr/games/gpsusi), ENGINE (default build/bin/shogi-arena-engine), PLIES (24),
# BOUND (150), EVAL_MS (1000).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-100}
output=${2:-$root/openings/balanced-24.sfen}
gpsusi=${GPSUSI:-/usr/games/gpsusi}
engine=${ENGINE:-$root/build/bin/shogi-arena-engine}
plies=${PLIES:-24}
bound=${BOUND:-150}
eval_ms=${EVAL_MS:-1000}

[ -x "$gpsusi" ] || { echo "make.sh: $gpsusi not found (apt-get install gpsshogi)" >&2; exit 1; }
[ -x "$engine" ] || { echo "make.sh: $engine not found (build first: scripts/build.sh)" >&2; exit 1; }

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# start NAME CMD...: an engine behind two FIFOs; its descriptors are in_NAME / out_NAME.
start() {
  local name=$1
  shift
  mkfifo "$tmp/$name.in" "$tmp/$name.out"
  "$@" <"$tmp/$name.in" >"$tmp/$name.out" 2>/dev/null &
  pids+=($!)
  local fd_in fd_out
  exec {fd_in}>"$tmp/$name.in" {fd_out}<"$tmp/$name.out"
  printf -v "in_$name" '%s' "$fd_in"
  printf -v "out_$name" '%s' "$fd_out"
}
say() {
  local fd="in_$1"
  printf '%s\n' "$2" >&"${!fd}"
}
# wait_for NAME PREFIX [STOP_AFTER_S]: reads until a line starting with PREFIX (in $reply); the last
# "info ... score" line before it is in $info. With STOP_AFTER_S, `stop` is sent once that many seconds have
# passed: GPSShogi sometimes keeps searching long past its byoyomi.
wait_for() {
  local fd="out_$1" line start=$SECONDS stopped=0
  info=
  while IFS= read -r -t 120 line <&"${!fd}"; do
    [[ $line == info*score* ]] && info=$line
    if [[ $line == "$2"* ]]; then
      reply=$line
      return 0
    fi
    if [ -n "${3:-}" ] && [ $stopped = 0 ] && [ $((SECONDS - start)) -ge "$3" ]; then
      say "$1" stop
      stopped=1
    fi
  done
  echo "make.sh: $1 did not answer '$2'" >&2
  exit 1
}
handshake() {
  say "$1" usi
  wait_for "$1" usiok
  [ -n "${2:-}" ] && say "$1" "$2"
  say "$1" isready
  wait_for "$1" readyok
}

start gen "$gpsusi" --book-width 30 --book-width-root 40 --eval-randomness 60 --node-count-hard-limit 30000
start eval "$gpsusi"
start board "$engine"
handshake gen
handshake eval "setoption name BookDepth value 0"
handshake board

# The first two plies: the common first moves of each side, so both static-rook and ranging-rook lines occur.
seeds=()
for b in 7g7f 2g2f 5g5f 6g6f; do
  for w in 3c3d 8c8d 5c5d 4c4d; do seeds+=("$b $w"); done
done

declare -A seen
kept=()
started=$(date +%s)
attempts=0
max_attempts=$((count * 8))
while [ ${#kept[@]} -lt "$count" ] && [ $attempts -lt $max_attempts ]; do
  seed=${seeds[$((attempts % ${#seeds[@]}))]}
  attempts=$((attempts + 1))
  moves=$seed
  n=2
  say gen usinewgame
  ok=1
  while [ $n -lt "$plies" ]; do
    say gen "position startpos moves $moves"
    say gen "go byoyomi 200"
    wait_for gen bestmove 5
    move=${reply#bestmove }
    move=${move%% *}
    if [[ $move == resign || $move == win || -z $move ]]; then ok=0; break; fi
    moves+=" $move"
    n=$((n + 1))
  done
  say gen "gameover draw"
  [ -z "${VERBOSE:-}" ] || echo "tried: $moves" >&2
  [ $ok = 1 ] || continue

  say board "position startpos moves $moves"
  say board sfen
  wait_for board "info string sfen"
  key=${reply#info string sfen }
  key=${key% *}  # without the move number
  [ -z "${seen[$key]:-}" ] || continue
  seen[$key]=1

  say eval usinewgame
  say eval "position startpos moves $moves"
  say eval "go byoyomi $eval_ms"
  wait_for eval bestmove 10
  say eval "gameover draw"
  [[ $info =~ score\ cp\ (-?[0-9]+) ]] || continue  # mate scores and no score: not an opening
  score=${BASH_REMATCH[1]}
  [ "${score#-}" -le "$bound" ] || continue
  kept+=("startpos moves $moves")
  printf '\r%d/%d kept (%d tried, %d s)' ${#kept[@]} "$count" $attempts $(($(date +%s) - started)) >&2
done
echo >&2
printf '%s\n' "${kept[@]}" >"$output"
for k in 2 4 8 16; do
  printf '%d distinct %d-ply prefixes; ' \
    "$(cut -d' ' -f3-$((k + 2)) "$output" | sort -u | wc -l)" "$k" >&2
done
echo >&2
echo "make.sh: ${#kept[@]} openings of $plies plies in $output ($attempts tried, $(($(date +%s) - started)) s)" >&2
