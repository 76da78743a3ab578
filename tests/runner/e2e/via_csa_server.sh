#!/usr/bin/env bash
# A tournament played through the built-in CSA server (--via-csa-server): every game goes over sockets, both
# engines driven by the CSA client; the journal, the records and the counts come out as for direct games.
# Clocks a CSA game name cannot carry are one-line errors. With --web, the games are on the live page move by move.
source "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2046
"$ARENA" gauntlet --via-csa-server --engine $(mock a --random --seed 1) --engine $(mock b --random --seed 2) \
  --engine $(mock r --behavior resign) --each tc=10+1 --rounds 2 --concurrency 2 --max-plies 50 \
  --openings file="$OPENINGS" --out "$TMP/via" --json >"$TMP/via.json" 2>"$TMP/via.log" ||
  fail "the gauntlet via the CSA server exited with $? ($(tail -5 "$TMP/via.log"))"
[ "$(json_int "$TMP/via.json" scored)" = 8 ] || fail "expected 8 scored games: $(cat "$TMP/via.json")"
check_exactly_once "$TMP/via/journal.jsonl" 8
# Against the mock random mover the games reach the ply limit; against the resigner every game is won by a.
[ "$(journal_games "$TMP/via/journal.jsonl" 'select(.termination == "max-moves")' | wc -l)" = 4 ] ||
  fail "expected 4 max-moves draws: $(journal_games "$TMP/via/journal.jsonl" .termination | sort | uniq -c)"
[ "$(journal_games "$TMP/via/journal.jsonl" 'select(.termination == "resign")' | wc -l)" = 4 ] ||
  fail "expected 4 resignations"
for f in "$TMP"/via/games/*.csa; do
  grep -q '^%' "$f" || fail "$f has no ending line"
done
pass "8 games via the CSA server, journaled once each, records written"

# The live page shows a game through the relay on a board, move by move, with its clocks.
# shellcheck disable=SC2046
"$ARENA" play --via-csa-server --engine $(mock a --random --seed 1 --think-ms 100) \
  --engine $(mock b --random --seed 2 --think-ms 100) --each tc=10+1 --max-plies 30 --out "$TMP/live" --web 0 \
  --quiet >"$TMP/live.out" 2>"$TMP/live.err" &
player=$!
port=$(live_port "$TMP/live.err")
plies=()
for _ in $(seq 100); do
  state=$(http_body "$port" /api/state)
  n=$(jq '.boards[0].moves // [] | length' <<<"$state" 2>/dev/null || echo 0)
  [ "$n" -gt 0 ] && plies+=("$n")
  [ "${#plies[@]}" -ge 2 ] && [ "${plies[-1]}" -gt "${plies[0]}" ] && break
  sleep 0.2
done
[ "${#plies[@]}" -ge 2 ] && [ "${plies[-1]}" -gt "${plies[0]}" ] ||
  fail "no board moving on the live page of a game via the CSA server: ${state:0:400}"
jq -e '.boards[0].clock.black_ms | numbers' <<<"$state" >/dev/null || fail "no clocks on the board: ${state:0:400}"
wait $player || fail "the game via the CSA server exited with $? ($(tail -3 "$TMP/live.err"))"
pass "--via-csa-server --web: the game's board moved on the live page (ply ${plies[0]} -> ${plies[-1]})"

# shellcheck disable=SC2046
expect_error "whole seconds" gauntlet --via-csa-server --engine $(mock a) --engine $(mock b) --each tc=1+0.1 \
  --out "$TMP/e1"
# shellcheck disable=SC2046
expect_error "needs a clock" gauntlet --via-csa-server --engine $(mock a) --engine $(mock b) --each tc=movetime=1 \
  --out "$TMP/e2"
pass "unsupported clocks are one-line errors"
check_no_engines_left 0.5
