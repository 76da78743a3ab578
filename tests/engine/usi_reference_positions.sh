#!/usr/bin/env bash
# The reference positions of ../shared/positions (or a file of the same columns) through the engine binary over USI
# (not the library alone):
#   usi_reference_positions.sh ENGINE SHARED_DIR perft MAX_NODES   perft.tsv rows up to MAX_NODES leaves: position
#                                                                   + go perft D must print "Nodes searched: N"
#   usi_reference_positions.sh ENGINE SHARED_DIR mates MAX_PLIES    mates.tsv rows up to MAX_PLIES: go btime 0
#                                                                   wtime 0 byoyomi 5000 must end on score mate N
#                                                                   (the last exact score, and none longer before
#                                                                   it), and go mate 10000 on a line of N plies
#   usi_reference_positions.sh ENGINE FILE.tsv mates MAX_PLIES      the same on FILE.tsv; a note's go-mate=M says
#                                                                   go mate's length where it differs (a quiet move)
# Exits 77 (skipped) when SHARED_DIR/positions is absent.
set -euo pipefail
engine=$1
shared=$2
mode=$3
limit=$4
if [[ "$shared" == *.tsv ]]; then
  file=$shared
else
  file=$shared/positions/$([ "$mode" = perft ] && echo perft.tsv || echo mates.tsv)
fi
if [ ! -f "$file" ]; then
  echo "SKIP: $file not found (../shared is absent)"
  exit 77
fi

coproc ENG { exec "$engine"; }
# Bash unsets ENG_PID when the engine exits (after quit): keep a copy for the trap.
engine_pid=$ENG_PID
trap 'kill "$engine_pid" 2>/dev/null || true' EXIT
send() { printf '%s\n' "$1" >&"${ENG[1]}"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# read_until REGEX SECONDS: reads engine lines until one matches; the lines read are in $seen, the match in $line.
read_until() {
  local deadline=$((SECONDS + $2))
  seen=""
  while true; do
    local left=$((deadline - SECONDS))
    [ "$left" -gt 0 ] || return 1
    IFS= read -r -t "$left" line <&"${ENG[0]}" || return 1
    seen+="$line"$'\n'
    [[ $line =~ $1 ]] && return 0
  done
}

send "usi"
read_until '^usiok$' 10 || fail "no usiok"
send "isready"
read_until '^readyok$' 30 || fail "no readyok"

checked=0
skipped=0
while IFS=$'\t' read -r sfen a b name_or_note; do
  [[ -z "$sfen" || "$sfen" == \#* ]] && continue
  if [ "$mode" = perft ]; then
    depth=$a nodes=$b
    if [ "$nodes" -gt "$limit" ]; then
      skipped=$((skipped + 1))
      continue
    fi
    send "position sfen $sfen"
    send "go perft $depth"
    # A depth-7 start position takes minutes even at 150 M leaves/s.
    read_until '^Nodes searched: ' 3600 || fail "$name_or_note depth $depth: no answer${seen:+ (last: ${seen: -300})}"
    [[ "$seen" != *"info string"* ]] || fail "$name_or_note: $(grep -m1 'info string' <<<"$seen")"
    [ "${line#Nodes searched: }" = "$nodes" ] || fail "$name_or_note depth $depth: $line, expected $nodes"
  else
    plies=$a first=$b
    if [ "$plies" -gt "$limit" ]; then
      skipped=$((skipped + 1))
      continue
    fi
    send "usinewgame"
    send "position sfen $sfen"
    send "go btime 0 wtime 0 byoyomi 5000"
    read_until '^bestmove ' 30 || fail "${name_or_note%%;*}: no bestmove${seen:+ (last: ${seen: -300})}"
    # The last exact score (bounds from aspiration fail-highs and fail-lows do not count).
    score=$(grep '^info .* score ' <<<"$seen" | grep -v 'lowerbound\|upperbound' | tail -1 |
      sed -n 's/.* score \(\(mate\|cp\) -\?[0-9]*\).*/\1/p')
    [ "$score" = "mate $plies" ] ||
      fail "${name_or_note%%;*} ($sfen): last score '$score', expected 'mate $plies' ($line; solution $first)"
    [ "$line" != "bestmove resign" ] || fail "${name_or_note%%;*}: resigned in a won position"
    # A mate score is a claim: once a mate is proven, no later line says a longer one (bounds included).
    longer=$(grep -o ' score mate [0-9]*' <<<"$seen" | awk '{ if (NR > 1 && $3 > best) { print $3; exit } best = $3 }')
    [ -z "$longer" ] || fail "${name_or_note%%;*} ($sfen): an info line says mate $longer after a shorter one"
    mate_plies=$plies
    [[ "$name_or_note" =~ go-mate=([0-9]+) ]] && mate_plies=${BASH_REMATCH[1]}
    send "go mate 10000"
    read_until '^checkmate' 30 || fail "${name_or_note%%;*}: no checkmate answer${seen:+ (last: ${seen: -300})}"
    read -ra mate_line <<<"$line"
    [ "${mate_line[1]:-}" != nomate ] && [ "${mate_line[1]:-}" != timeout ] &&
      [ $((${#mate_line[@]} - 1)) = "$mate_plies" ] ||
      fail "${name_or_note%%;*} ($sfen): go mate answered '$line', expected a line of $mate_plies plies"
  fi
  checked=$((checked + 1))
done <"$file"

send "quit"
[ "$checked" -gt 0 ] || fail "no row of $file within the limit $limit"
echo "ok: $checked rows of $(basename "$file") through the engine binary, $skipped over the limit $limit"
