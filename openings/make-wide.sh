#!/usr/bin/env bash
# Makes the wide opening suite openings/wide-24.sfen: many thousands of distinct, balanced openings for long SPRTs
# (see openings/README.md for what and why).
#
#   openings/make-wide.sh [COUNT] [OUTPUT]        defaults: 10000 openings/wide-24.sfen
#
# Each candidate starts from the first PREFIX plies (8) of a random line of openings/balanced-24.sfen (GPSShogi's
# book moves), then the built-in engine plays both sides up to PLIES (24): at every ply it searches MULTIPV (4)
# moves at MOVE_NODES (4000) nodes and one is drawn at random among those within NEAR (40) centipawns of the
# best. The final position is searched at EVAL_NODES (60000) nodes; within +-BOUND (100) centipawns and not a mate
# score, it is kept, unless its position (board, hands, side to move) was already kept. SEED (1) seeds the draws.
# Runs WORKERS (1) engine processes; progress goes to stderr.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-10000}
output=${2:-$root/openings/wide-24.sfen}
engine=${ENGINE:-$root/build/bin/shogi-arena-engine}
source_suite=${SOURCE:-$root/openings/balanced-24.sfen}
prefix=${PREFIX:-8}
plies=${PLIES:-24}
multipv=${MULTIPV:-4}
move_nodes=${MOVE_NODES:-4000}
eval_nodes=${EVAL_NODES:-60000}
near=${NEAR:-40}
bound=${BOUND:-100}
seed=${SEED:-1}
workers=${WORKERS:-1}

[ -x "$engine" ] || { echo "make-wide.sh: $engine not found (build first: scripts/build.sh)" >&2; exit 1; }
[ -r "$source_suite" ] || { echo "make-wide.sh: $source_suite not found" >&2; exit 1; }
mapfile -t lines < <(grep '^startpos moves' "$source_suite")
[ ${#lines[@]} -gt 0 ] || { echo "make-wide.sh: no 'startpos moves' lines in $source_suite" >&2; exit 1; }

# Work files beside the output, kept if the run fails (a worker's openings are not lost), removed on success.
tmp="$output.work"
mkdir -p "$tmp"
rm -f "$tmp"/*.in "$tmp"/*.out
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT

# worker ID QUOTA: writes "<key>\t<opening>" lines of balanced candidates to $tmp/ID.out until it has QUOTA of them
# (duplicates between workers are removed at the end, so each worker aims a little higher).
worker() {
  local id=$1 quota=$2 kept=0 tried=0
  RANDOM=$((seed * 1000 + id))
  mkfifo "$tmp/$id.in" "$tmp/$id.out"
  "$engine" <"$tmp/$id.in" >"$tmp/$id.out" 2>/dev/null &
  local in out
  exec {in}>"$tmp/$id.in" {out}<"$tmp/$id.out"
  local line
  ask() { printf '%s\n' "$@" >&"$in"; }
  # until PREFIX: reads lines until one starts with PREFIX; the lines are in the array `got`.
  until_line() {
    got=()
    while IFS= read -r -t 60 line <&"$out"; do
      got+=("$line")
      [[ $line == "$1"* ]] && return 0
    done
    echo "make-wide.sh: worker $id: the engine did not answer '$1'" >&2
    exit 1
  }
  ask usi "setoption name MultiPV value $multipv" isready
  until_line readyok
  declare -A seen=()
  while [ $kept -lt "$quota" ]; do
    tried=$((tried + 1))
    local base=${lines[$((RANDOM % ${#lines[@]}))]}
    local -a moves
    read -r -a moves <<<"${base#startpos moves }"
    moves=("${moves[@]:0:$prefix}")
    ask usinewgame "setoption name MultiPV value $multipv"
    local ok=1
    while [ ${#moves[@]} -lt "$plies" ]; do
      ask "position startpos moves ${moves[*]}" "go nodes $move_nodes"
      until_line bestmove
      # The last score of each multipv line, and its first move.
      local -A score=() first=()
      local l
      for l in "${got[@]}"; do
        [[ $l == info*multipv*pv* ]] || continue
        [[ $l == *lowerbound* || $l == *upperbound* ]] && continue
        local k=${l#* multipv }; k=${k%% *}
        local s
        if [[ $l == *"score mate"* ]]; then s=-99999; else s=${l#* score cp }; s=${s%% *}; fi
        score[$k]=$s
        local m=${l#* pv }; first[$k]=${m%% *}
      done
      [ -n "${score[1]:-}" ] || { ok=0; break; }
      local best=${score[1]}
      local -a near_moves=()
      for k in "${!score[@]}"; do
        [ $((best - score[$k])) -le "$near" ] && near_moves+=("${first[$k]}")
      done
      moves+=("${near_moves[$((RANDOM % ${#near_moves[@]}))]}")
    done
    [ $ok = 1 ] || continue
    ask "setoption name MultiPV value 1" "position startpos moves ${moves[*]}" "go nodes $eval_nodes"
    until_line bestmove
    local last=""
    for l in "${got[@]}"; do [[ $l == info*score* ]] && last=$l; done
    [[ $last == *"score cp "* ]] || continue
    local cp=${last#* score cp }
    cp=${cp%% *}
    [ "${cp#-}" -le "$bound" ] || continue
    ask d
    until_line "info string sfen"
    local key=${got[-1]#info string sfen }
    key=${key% *}  # without the move number
    [ -z "${seen[$key]:-}" ] || continue
    seen[$key]=1
    printf '%s\tstartpos moves %s\n' "$key" "${moves[*]}" >>"$tmp/$id.out.txt"
    kept=$((kept + 1))
    [ $((kept % 100)) = 0 ] && echo "worker $id: $kept kept of $tried tried ($SECONDS s)" >&2
  done
  ask quit
  echo "worker $id: $kept kept of $tried tried ($SECONDS s)" >&2
}

per_worker=$(((count * 105 / 100 + workers - 1) / workers))
pids=()
for id in $(seq 1 "$workers"); do
  worker "$id" "$per_worker" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || { echo "make-wide.sh: a worker failed" >&2; exit 1; }; done
# (no `head` in the pipe: with pipefail, the SIGPIPE it gives sort would fail the run)
sort -u -t$'\t' -k1,1 "$tmp"/*.out.txt | cut -f2 >"$tmp/all"
sed -n "1,${count}p" "$tmp/all" >"$tmp/suite"
n=$(wc -l <"$tmp/suite")
[ "$n" -ge "$count" ] || echo "make-wide.sh: only $n distinct openings (asked for $count)" >&2
{
  echo "# wide-24: $n balanced openings made by openings/make-wide.sh (see openings/README.md)"
  cat "$tmp/suite"
} >"$output"
rm -rf "$tmp"
echo "wrote $n openings to $output in $SECONDS s" >&2
