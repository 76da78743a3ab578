#!/usr/bin/env bash
# A 100-game gauntlet of mock engines (seeded random movers) on the shipped openings completes with the expected
# counts, and gives the same results at concurrency 4 and 1 (each game is a pure function of its schedule entry).
source "$(dirname "$0")/lib.sh"

run() {  # run CONCURRENCY OUT
  # shellcheck disable=SC2046
  "$ARENA" gauntlet --engine $(mock a --random --seed 1) --engine $(mock b --random --seed 2) \
    --engine $(mock c --random --seed 3) --each tc=10+0.1 --rounds 25 --concurrency "$1" \
    --openings file="$OPENINGS" order=random seed=5 --max-plies 256 --out "$2" --json --quiet >"$2.json"
}
run 4 "$TMP/c4" || fail "the gauntlet exited with $?"
journal=$TMP/c4/journal.jsonl
[ "$(game_lines "$journal")" = 100 ] || fail "expected 100 journal lines, got $(game_lines "$journal")"
check_exactly_once "$journal" 100
[ "$(json_int "$TMP/c4.json" scored)" = 100 ] || fail "scored: $(json_int "$TMP/c4.json" scored)"
[ "$(ls "$TMP/c4/games" | grep -c '\.csa$')" = 100 ] || fail "expected 100 CSA records"
# Two pairings of 50 games each; W + L + D and the pentanomial pairs add up.
for p in a-b a-c; do
  first=${p%-*} second=${p#*-}
  entry=$(jq -c --arg f "$first" --arg s "$second" '.pairings[] | select(.first == $f and .second == $s)' "$TMP/c4.json")
  [ -n "$entry" ] || fail "no pairing $p in the summary"
  read -r games w l d penta < <(jq -r '"\(.games) \(.wins) \(.losses) \(.draws) \(.pentanomial | add)"' <<<"$entry")
  [ "$games" = 50 ] && [ $((w + l + d)) = 50 ] && [ "$penta" = 25 ] ||
    fail "pairing $p: games $games, W $w L $l D $d, pairs $penta"
  # The split itself, counted independently from the journal's lines (the first engine's view).
  read -r jw jl jd < <(journal_games "$journal" \
    "select([.black, .white] | sort == ([\"$first\", \"$second\"] | sort)) |
     if .result == \"draw\" then \"d\" elif (.result == \"black\") == (.black == \"$first\") then \"w\" else \"l\" end" |
    jq -rs '"\([.[] | select(. == "w")] | length) \([.[] | select(. == "l")] | length) \([.[] | select(. == "d")] | length)"')
  [ "$jw $jl $jd" = "$w $l $d" ] || fail "pairing $p: the summary says +$w -$l =$d, the journal +$jw -$jl =$jd"
  [ $((w + l)) -gt 0 ] || fail "pairing $p: no decisive game at all (random movers should mate each other)"
done
pass "100 games, 2 pairings of 50, 25 pairs each"

# The engines' moves (the runner's cost per move is counted against them): the journal's moves after the openings.
expected_moves=$(journal_games "$journal" '(.moves | length) - .opening_plies' | jq -s add)
[ "$(json_int "$TMP/c4.json" engine_moves)" = "$expected_moves" ] ||
  fail "engine_moves: the summary says $(json_int "$TMP/c4.json" engine_moves), the journal $expected_moves"
pass "engine_moves $expected_moves matches the journal"

run 1 "$TMP/c1" || fail "the sequential gauntlet exited with $?"
strip() { jq -c '.pairings' "$1"; }
[ "$(strip "$TMP/c1.json")" = "$(strip "$TMP/c4.json")" ] || fail "concurrency 1 and 4 gave different results"
pass "the same results at concurrency 1 and 4"

"$ARENA" stats "$journal" --json >"$TMP/stats.json" || fail "stats exited with $?"
[ "$(strip "$TMP/stats.json")" = "$(strip "$TMP/c4.json")" ] || fail "stats recomputed different results"
pass "stats recomputes the same results from the journal"

# What the games show of an engine is said once a run, on stderr in --quiet mode: an engine that answers each go
# with two bestmoves (before, only `check` said so), and the mocks' malformed option line (skipped at the handshake).
# shellcheck disable=SC2046
"$ARENA" gauntlet --engine $(mock a --random --seed 1 --behavior double-bestmove) --engine $(mock b --random --seed 2) \
  --each tc=nodes=1000 --rounds 3 --concurrency 2 --kifu none --out "$TMP/twice" --quiet \
  >/dev/null 2>"$TMP/twice.err" ||
  fail "the gauntlet with a double-bestmove engine exited with $?"
[ "$(grep -c "^warning: engine 'a' answers a go with two bestmoves: the second is ignored$" "$TMP/twice.err")" = 1 ] &&
  ! grep -q "engine 'b' answers" "$TMP/twice.err" &&
  [ "$(grep -c "^warning: engine 'b': bad option line 'option name Broken type spin" "$TMP/twice.err")" = 1 ] ||
  fail "expected one warning of each, got: $(cat "$TMP/twice.err")"
pass "an engine's double bestmoves and malformed option line said once each"
check_no_engines_left
