#!/usr/bin/env bash
# A tournament played through the built-in CSA server (--via-csa-server): every game goes over sockets, both
# engines driven by the CSA client; the journal, the records and the counts come out as for direct games.
# Clocks a CSA game name cannot carry are one-line errors.
source "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2046
"$ARENA" gauntlet --via-csa-server --engine $(mock a --random --seed 1) --engine $(mock b --random --seed 2) \
  --engine $(mock r --behavior resign) --each tc=10+1 --rounds 2 --concurrency 2 --max-plies 50 \
  --openings file="$OPENINGS" --out "$TMP/via" --json >"$TMP/via.json" 2>"$TMP/via.log" ||
  fail "the gauntlet via the CSA server exited with $? ($(tail -5 "$TMP/via.log"))"
[ "$(json_int "$TMP/via.json" scored)" = 8 ] || fail "expected 8 scored games: $(cat "$TMP/via.json")"
check_exactly_once "$TMP/via/journal.jsonl" 8
# Against the mock random mover the games reach the ply limit; against the resigner every game is won by a.
[ "$(grep -c '"termination":"max-moves"' "$TMP/via/journal.jsonl")" = 4 ] ||
  fail "expected 4 max-moves draws: $(grep -o '"termination":"[a-z_]*"' "$TMP/via/journal.jsonl" | sort | uniq -c)"
[ "$(grep -c '"termination":"resign"' "$TMP/via/journal.jsonl")" = 4 ] || fail "expected 4 resignations"
for f in "$TMP"/via/games/*.csa; do
  grep -q '^%' "$f" || fail "$f has no ending line"
done
pass "8 games via the CSA server, journaled once each, records written"

# shellcheck disable=SC2046
expect_error "whole seconds" gauntlet --via-csa-server --engine $(mock a) --engine $(mock b) --each tc=1+0.1 \
  --out "$TMP/e1"
# shellcheck disable=SC2046
expect_error "needs a clock" gauntlet --via-csa-server --engine $(mock a) --engine $(mock b) --each tc=movetime=1 \
  --out "$TMP/e2"
pass "unsupported clocks are one-line errors"
check_no_engines_left 0.5
