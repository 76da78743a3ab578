#!/usr/bin/env bash
# A declaration under each rule, with the built-in engine told the rule (game/rule_options.h): black to move with
# its king in the enemy camp, ten pieces there and 28 points (2 pawns in hand) may declare under the 27-point rule
# (28 needed for black) and not under the 24-point rule (31 needed) or with no declaration; with 5 pawns in hand
# (31 points) it declares under the 24-point rule too. An engine forced to believe the 27-point rule while the runner
# judges by 24 declares falsely and loses: the failure the telling prevents, warned about before the game.
source "$(dirname "$0")/lib.sh"

# play OUT RULE HAND [ARGS...]: one game of the built-in engine against itself from the position, under RULE.
play() {
  local out=$1 rule=$2 hand=$3
  shift 3
  "$ARENA" play --engine cmd="$ENGINE" name=a "$@" --engine cmd="$ENGINE" name=b --each tc=2+0.1 \
    --position "sfen RRBBGGSS1/4K4/GG7/9/9/9/9/9/4k4 b ${hand}2s4n4l$((18 - ${hand%P}))p 1" --entering-king "$rule" \
    --max-plies 12 --kifu none --out "$out" --quiet >"$out.out" 2>"$out.err" ||
    fail "the game under rule $rule exited with $? ($(cat "$out.err"))"
  jq -r -c '"\(.termination) \(.result) \(.moves | length)"' "$out/journal.jsonl" | tail -1
}

[ "$(play "$TMP/27" 27 2P)" = "declaration black 0" ] || fail "rule 27, 28 points: $(play "$TMP/27" 27 2P)"
grep -q "^engine 'a': EnteringKingRule set to CSARule27" "$TMP/27.err" || fail "rule 27: $(cat "$TMP/27.err")"
pass "rule 27, 28 points: black declares at once and wins"

for rule in 24 off; do
  read -r termination _ plies <<<"$(play "$TMP/$rule" "$rule" 2P)"
  [ "$termination" != declaration ] && [ "$termination" != illegal-declaration ] && [ "$plies" -gt 0 ] ||
    fail "rule $rule, 28 points: $termination after $plies plies"
done
grep -q "^engine 'a': EnteringKingRule set to 24Point" "$TMP/24.err" || fail "rule 24: $(cat "$TMP/24.err")"
grep -q "^engine 'a': EnteringKingRule set to NoEnteringKing" "$TMP/off.err" || fail "rule off: $(cat "$TMP/off.err")"
pass "rule 24 and no declaration, 28 points: the engine plays on"

[ "$(play "$TMP/24-31" 24 5P)" = "declaration black 0" ] || fail "rule 24, 31 points: $(play "$TMP/24-31" 24 5P)"
pass "rule 24, 31 points: black declares and wins"

[ "$(play "$TMP/wrong" 24 2P option.EnteringKingRule=CSARule27)" = "illegal-declaration white 0" ] ||
  fail "a forced CSARule27 under rule 24: $(cat "$TMP/wrong/journal.jsonl" | tail -1)"
grep -q "^warning: engine 'a': EnteringKingRule is set to CSARule27, but the runner judges the 24-point" \
  "$TMP/wrong.err" || fail "no warning: $(cat "$TMP/wrong.err")"
pass "told the wrong rule by its user, the engine declares falsely and loses, as warned"
