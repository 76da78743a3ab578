#!/usr/bin/env bash
# `shogi-arena analyze` on games whose mistakes are known. A test engine plays the built-in engine's moves except at
# one chosen ply per game (31 as black, 32 as white), where it plays the move the built-in engine scores worst; its
# opponent is the same engine without blunders. Both search each move from a cleared state, as the referee (the
# built-in engine at the same node budget, --clear-hash position) does, so every other move is the referee's own.
# The analysis must flag those plies alone, name them the decisive mistakes of the games the test engine lost, and
# give the same file run at once, with two referees, after a kill -9 and --resume, and after its referee is killed.
source "$(dirname "$0")/lib.sh"
OUTPUT=${ARENA_TEST_OUTPUT:-$TMP}

BLUNDER=$(dirname "$MOCK")/blunder_usi_engine
[ -x "$BLUNDER" ] || fail "no blunder_usi_engine beside the mock engine ($BLUNDER)"
NODES=10000
blunder_engine() { # NAME [ARGS...]: an --engine argument list (no spaces inside a word)
  local name=$1 a
  shift
  printf '%s ' "cmd=$BLUNDER" "name=$name" arg=--engine "arg=$ENGINE" arg=--fresh arg=--name "arg=$name" arg=--tag \
    "arg=$TAG"
  for a in "$@"; do printf '%s ' "arg=$a"; done
}

# shellcheck disable=SC2046
"$ARENA" gauntlet --engine $(blunder_engine blunder --blunder-at 31,32) --engine $(blunder_engine steady) \
  --each tc=nodes=$NODES option.Threads=1 option.USI_Hash=16 --rounds 2 --concurrency 2 \
  --openings file="$OPENINGS" --kifu csa,kif --out "$TMP/run" >"$TMP/run.log" 2>&1 || fail "the gauntlet failed: $(tail -3 "$TMP/run.log")"
check_exactly_once "$TMP/run/journal.jsonl" 4

REFEREE=(--engine "cmd=$ENGINE" option.Threads=1 option.USI_Hash=16 --nodes $NODES --clear-hash position)
"$ARENA" analyze "$TMP/run" "${REFEREE[@]}" --concurrency 2 --records "$TMP/annotated" >"$TMP/a.log" 2>&1 ||
  fail "analyze failed: $(tail -3 "$TMP/a.log")"
A=$TMP/run/analysis.jsonl
[ "$(journal_games "$A" | wc -l)" = 4 ] || fail "expected 4 analysed games: $(cat "$TMP/a.log")"
[ "$(head -1 "$A" | jq -r '.deterministic')" = true ] || fail "a node budget is deterministic: $(head -1 "$A")"
grep -q "^  blunder " "$TMP/a.log" || fail "no per-engine table: $(cat "$TMP/a.log")"

# The opponent's moves are all the referee's own.
others=$(journal_games "$A" '.moves[] | select(.mover == "steady" and .judgement != "best") | .ply' | wc -l)
[ "$others" = 0 ] || fail "the steady engine has $others moves the referee did not choose"
# The test engine's moves other than the chosen plies too; every blunder is at a chosen ply.
stray=$(journal_games "$A" '.moves[] | select(.mover == "blunder" and .judgement != "best" and .ply != 31 and .ply != 32)
  | "\(.ply) \(.move) \(.judgement)"')
[ -z "$stray" ] || fail "moves judged off the chosen plies: $stray"
blunders=$(journal_games "$A" '.moves[] | select(.judgement == "blunder") | .ply' | sort -u | tr '\n' ' ')
[ -n "$blunders" ] || fail "no blunder found"
pass "blunders at plies $blunders only, all by the test engine"
# Each game the test engine lost: when it still held the game before its chosen ply (50 % - the 10 % margin or more),
# that ply is a blunder and the decisive mistake, unless the referee later saw it back above 40 % (a search at
# 10,000 nodes can swing between consecutive positions of a mating attack): then there is none, its other moves
# being the referee's own. When it was lost already, there is none either.
lost=$(jq -R -r 'fromjson? | select(has("game")) | select((.result == "white" and .black == "blunder") or
  (.result == "black" and .white == "blunder")) | . as $g | [.moves[] | select(.mover == "blunder" and
  (.ply == 31 or .ply == 32))][0] as $m
  | "\($g.game) \($g.decisive.ply // "none") \($m.ply) \($m.win_before >= 0.4) \($m.judgement)"' "$A")
[ -n "$lost" ] || fail "the test engine lost no game: nothing to check the decisive mistake on"
decided=0
while read -r game decisive chosen held judged; do
  # The test engine's highest winning chance in the referee's eyes after its chosen ply.
  recovered=$(jq -R -r "fromjson? | select(.game == $game) | [.moves[] | select(.ply >= $chosen)
    | if .mover == \"blunder\" then .win_after else 1 - .win_after end] | max >= 0.4" "$A")
  if [ "$held" = true ] && [ "$recovered" = false ]; then
    [ "$decisive" = "$chosen" ] || fail "game $game: decisive mistake at ply $decisive, expected the chosen ply $chosen"
    [ "$judged" = blunder ] || fail "game $game: the decisive ply $chosen is judged $judged"
    decided=$((decided + 1))
  elif [ "$held" = true ]; then
    [ "$decisive" = none ] || fail "game $game: back above 40 % after its chosen ply, yet a decisive mistake at $decisive"
  else
    [ "$decisive" = none ] || fail "game $game: lost before its chosen ply, yet a decisive mistake at $decisive"
  fi
done <<<"$lost"
[ $decided -gt 0 ] || fail "no lost game where the chosen ply decided it: $lost"
pass "decisive mistakes: $(echo "$lost" | awk '{print "game " $1 " ply " $2}' | paste -sd, -)"
grep -q "decisive mistake at ply 3[12]" "$TMP/a.log" || fail "the console names no decisive mistake: $(cat "$TMP/a.log")"

# The records with the referee's comments: one CSA and one KIF per game, each analysed move commented, readable by
# tsshogi and json-kifu-format (when node and the npm packages are installed).
[ "$(find "$TMP/annotated" -name '*.csa' | wc -l)" = 4 ] && [ "$(find "$TMP/annotated" -name '*.kif' | wc -l)" = 4 ] ||
  fail "expected 4 CSA and 4 KIF annotated records: $(ls "$TMP/annotated")"
if command -v node >/dev/null && [ -d "$SOURCE_DIR/tests/kifu/node_modules/tsshogi" ]; then
  for f in "$TMP"/annotated/*; do
    node "$SOURCE_DIR/tests/kifu/check_kifu.mjs" "$f" >"$TMP/kifu.json" || fail "$f does not parse: $(cat "$TMP/kifu.json")"
    game=$((10#$(basename "$f" | cut -c1-6) - 1))
    plies=$(jq -R -r "fromjson? | select(.game == $game) | .plies" "$A")
    commented=$(jq '[.tsshogi.comments[24:][] | select(test("^[*] -?[0-9]|#評価値="))] | length' "$TMP/kifu.json")
    # Every move after the 24 opening plies has the referee's score.
    [ "$commented" = $((plies - 24)) ] || fail "$f: $commented commented moves of $((plies - 24))"
    [ "$(jq '.tsshogi.moves | length' "$TMP/kifu.json")" = "$plies" ] || fail "$f: tsshogi read another game"
  done
  pass "the annotated records parse with tsshogi and json-kifu-format, every analysed move commented"
fi

# One referee: the same lines, in the same order.
"$ARENA" analyze "$TMP/run" "${REFEREE[@]}" --concurrency 1 --out "$TMP/one" >"$TMP/one.log" 2>&1 ||
  fail "analyze --concurrency 1 failed: $(tail -3 "$TMP/one.log")"
cmp <(tail -n +2 "$A") <(tail -n +2 "$TMP/one/analysis.jsonl") || fail "concurrency 1 and 2 differ"
pass "concurrency 1 and 2 write the same lines"

# kill -9 once a game is written, then --resume: the same lines.
mkdir -p "$TMP/killed"
"$ARENA" analyze "$TMP/run" "${REFEREE[@]}" --out "$TMP/killed" >"$TMP/killed.log" 2>&1 &
pid=$!
wait_lines "$TMP/killed/analysis.jsonl" 1 120
kill -9 $pid
wait $pid 2>/dev/null || true
before=$(game_lines "$TMP/killed/analysis.jsonl")
[ "$before" -lt 4 ] || fail "the analysis had ended before the kill"
expect_exit() { # CODE PATTERN ARGS...: shogi-arena ARGS exits with CODE, printing PATTERN on stderr
  local code=$1 pattern=$2
  shift 2
  set +e
  "$ARENA" "$@" >"$TMP/x.out" 2>"$TMP/x.err"
  local rc=$?
  set -e
  [ $rc = "$code" ] || fail "'$*' exited with $rc, expected $code: $(cat "$TMP/x.err")"
  grep -q -- "$pattern" "$TMP/x.err" || fail "'$*': expected '$pattern' in: $(cat "$TMP/x.err")"
}
expect_exit 1 "exists: --resume to go on" analyze "$TMP/run" "${REFEREE[@]}" --out "$TMP/killed"
expect_exit 1 "another analysis: the referee's budget differs: nodes $NODES in the file, nodes 20000 asked" \
  analyze "$TMP/run" --engine "cmd=$ENGINE" option.Threads=1 option.USI_Hash=16 --nodes 20000 --clear-hash position \
  --out "$TMP/killed" --resume
"$ARENA" analyze "$TMP/run" "${REFEREE[@]}" --out "$TMP/killed" --resume >"$TMP/resumed.log" 2>&1 ||
  fail "--resume failed: $(tail -3 "$TMP/resumed.log")"
grep -q "($before already in the file)" "$TMP/resumed.log" || fail "the resume redid games: $(cat "$TMP/resumed.log")"
cmp <(tail -n +2 "$A") <(tail -n +2 "$TMP/killed/analysis.jsonl") || fail "the resumed analysis differs"
pass "kill -9 after $before games and --resume: the same lines"

# The referee killed during a game: restarted, the game analysed again from its start, the same lines.
mkdir -p "$TMP/restart"
"$ARENA" analyze "$TMP/run" "${REFEREE[@]}" --out "$TMP/restart" >"$TMP/restart.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  referee=$(pgrep -P $pid | head -1 || true)
  [ -n "$referee" ] && break
  sleep 0.1
done
[ -n "$referee" ] || fail "no referee process under the analysis"
sleep 1
kill -9 "$referee"
wait $pid || fail "the analysis did not survive its referee: $(tail -3 "$TMP/restart.log")"
grep -q "restarting it for game" "$TMP/restart.log" || fail "no restart reported: $(cat "$TMP/restart.log")"
cmp <(tail -n +2 "$A") <(tail -n +2 "$TMP/restart/analysis.jsonl") || fail "the analysis after a restart differs"
pass "a referee killed mid-game is restarted and the game asked again"

# Records: the same games as CSA and KIF files (half of each, as they came from the run). The runner's records do not
# mark the opening, so every move is judged; from the first engine move on the judgements are the journal's.
mkdir -p "$TMP/records"
i=0
for csa in "$TMP"/run/games/*.csa; do
  if [ $((i % 2)) = 0 ]; then cp "$csa" "$TMP/records/"; else cp "${csa%.csa}.kif" "$TMP/records/"; fi
  i=$((i + 1))
done
[ "$(find "$TMP/records" -name '*.kif' | wc -l)" = 2 ] || fail "expected 2 KIF records: $(ls "$TMP/run/games")"
"$ARENA" analyze "$TMP/records" "${REFEREE[@]}" --concurrency 2 >"$TMP/records.log" 2>&1 ||
  fail "analyze of records failed: $(tail -3 "$TMP/records.log")"
R=$TMP/records/analysis.jsonl
[ "$(game_lines "$R")" = 4 ] || fail "expected 4 analysed records: $(cat "$TMP/records.log")"
[ "$(jq -R -r 'fromjson? | select(has("game")) | .source' "$R" | grep -c '\.kif$')" = 2 ] || fail "the KIF records were not read"
# by_game FILE FILTER: each game line of FILE through FILTER, in the order of the games' numbers (a journal is in the
# order games ended, records in the order of their files: the run's numbers).
by_game() { jq -R -c 'fromjson? | select(has("game"))' "$1" | jq -s -r -c "sort_by(.game)[] | $2"; }
same='[.black, .white, .result, [.moves[] | select(.ply > 24) | [.ply, .move, .score, .best, .after, .judgement]]]'
cmp <(by_game "$A" "$same") <(by_game "$R" "$same") || fail "the records' analysis differs from the journal's after the opening"
# Where the journal's analysis names a decisive mistake (the loser held the game after the opening), so do the
# records'. (Where it names none, the records' may name a book move, which they judge too.)
paste -d' ' <(by_game "$A" '.decisive.ply // "none"') <(by_game "$R" '.decisive.ply // "none"') >"$TMP/decisive"
awk '$1 != "none" && $1 != $2 {exit 1}' "$TMP/decisive" || fail "decisive mistakes, journal vs records: $(cat "$TMP/decisive")"
pass "CSA and KIF records: the journal's judgements and decisive mistakes"

# Referees that cannot referee, and arguments that make no sense.
expect_exit 1 "gave no score" analyze "$TMP/run" --engine "cmd=$MOCK" arg=--behavior arg=resign arg=--name arg="$TAG" \
  --nodes 100 --out "$TMP/noscore"
expect_error "needs the referee's budget" analyze "$TMP/run" --engine "cmd=$ENGINE"
expect_error "expected all, decisive, lost-by=NAME or game numbers" analyze "$TMP/run" --engine "cmd=$ENGINE" \
  --nodes 100 --games 3-x
expect_error "engine command" analyze "$TMP/run" --engine cmd=/nonexistent/referee --nodes 100
"$ARENA" analyze "$TMP/run" "${REFEREE[@]}" --games lost-by=blunder --out "$TMP/lost" >"$TMP/lost.log" 2>&1 ||
  fail "--games lost-by failed: $(tail -3 "$TMP/lost.log")"
[ "$(game_lines "$TMP/lost/analysis.jsonl")" = "$(echo "$lost" | wc -l)" ] || fail "--games lost-by=blunder chose other games"
pass "errors and the game selection"

# The report shows the analysis: the per-engine table, the lost games, and in a replay the referee's line with the
# judged plies; a decisive mistake's link and a blunder's link move the replay to their ply.
"$ARENA" report "$TMP/run" >"$TMP/report.out" 2>&1 || fail "report failed: $(cat "$TMP/report.out")"
grep -q '"analysis":{"path":' "$TMP/run/report.html" || fail "the report has no analysis"
if ! command -v chromium >/dev/null || [ ! -x "${CDP_PROBE:-}" ]; then
  echo "skip: the report's analysis in Chromium (no chromium, or CDP_PROBE not set)"
else
  on_exit stop_chromium
  start_chromium
  decisive_game=$(jq -R -r 'fromjson? | select(.decisive.mover == "blunder") | .game' "$A" | head -1)
  decisive_ply=$(jq -R -r "fromjson? | select(.game == $decisive_game) | .decisive.ply" "$A")
  "$CDP_PROBE" "$DEVTOOLS" open "file://$TMP/run/report.html" \
    eval 'document.getElementById("analysis-section").hidden' \
    eval 'document.querySelectorAll("#analysis-engines tr.analysis-engine").length' \
    eval "document.querySelector('#analysis-lost a.decisive[data-game=\"$decisive_game\"]').click(); document.getElementById('r-ply').textContent" \
    eval 'document.getElementById("replay-title").textContent' \
    eval 'document.querySelectorAll("#replay-extra svg path.series").length' \
    eval 'document.querySelectorAll("#replay-extra svg path.flag").length' \
    shot "$OUTPUT/analyze_report.png" \
    eval 'document.getElementById("r-first").click(); document.querySelector("#judged a.b").click(); document.getElementById("r-ply").textContent' \
    eval 'document.querySelector("#judged a.b").dataset.ply' \
    >"$TMP/probe.out" 2>&1 || fail "the report did not render cleanly: $(cat "$TMP/probe.out")"
  mapfile -t seen <"$TMP/probe.out"
  [ "${seen[0]}" = false ] || fail "the analysis section is hidden: $(cat "$TMP/probe.out")"
  [ "${seen[1]}" = 2 ] || fail "expected 2 engines in the analysis table: ${seen[1]}"
  grep -q " ply $decisive_ply / " <<<"${seen[2]}" || fail "the decisive link did not open ply $decisive_ply: ${seen[2]}"
  grep -q "^\"Game $((decisive_game + 1)):" <<<"${seen[3]}" || fail "the decisive link opened another game: ${seen[3]}"
  [ "${seen[4]}" -ge 3 ] || fail "no referee line beside the engines' scores: ${seen[4]}"
  [ "${seen[5]}" -ge 1 ] || fail "no blunder marked on the score chart: ${seen[5]}"
  grep -q " ply ${seen[7]//\"/} / " <<<"${seen[6]}" || fail "the blunder link did not move the replay: ${seen[6]} (${seen[7]})"
  pass "the report in Chromium: the analysis table, lost games, the referee's line, blunders linked to their ply"
fi
