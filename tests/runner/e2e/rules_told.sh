#!/usr/bin/env bash
# The game's rules told to engines that advertise YaneuraOu's EnteringKingRule and MaxMovesToDraw
# (game/rule_options.h): each rule of --entering-king and the --max-plies limit are set on such an engine, said
# once on stderr however many times the engines start; a value the user set otherwise is kept and warned about
# once; an engine without the options is told nothing.
source "$(dirname "$0")/lib.sh"

# rules OUT RULE [ARGS...]: a short gauntlet under --entering-king RULE, every USI line logged.
rules() {
  local out=$1 rule=$2
  shift 2
  # shellcheck disable=SC2046
  "$ARENA" gauntlet --engine $(mock yo --rule-options --random --seed 1) "$@" --engine $(mock plain --random --seed 2) \
    --each tc=10+0.1 --rounds 2 --concurrency 2 --entering-king "$rule" --max-plies 300 --io-logs true --kifu none \
    --out "$out" --quiet >"$out.out" 2>"$out.err" || fail "the gauntlet under rule $rule exited with $? ($(cat "$out.err"))"
}
sent() { cat "$1"/logs/yo*.io 2>/dev/null | grep -o "> setoption name $2 value [^ ]*" | sort -u; }

for pair in 27:CSARule27 24:CSARule24 off:NoEnteringKing; do
  rule=${pair%%:*} value=${pair#*:}
  out=$TMP/r$rule
  rules "$out" "$rule"
  [ "$(sent "$out" EnteringKingRule)" = "> setoption name EnteringKingRule value $value" ] ||
    fail "rule $rule: sent $(sent "$out" EnteringKingRule) ($(ls "$out/logs"))"
  [ "$(sent "$out" MaxMovesToDraw)" = "> setoption name MaxMovesToDraw value 300" ] ||
    fail "rule $rule: MaxMovesToDraw: $(sent "$out" MaxMovesToDraw)"
  [ "$(grep -c "^engine 'yo': EnteringKingRule set to $value" "$out.err")" = 1 ] ||
    fail "rule $rule: the note is not said exactly once: $(cat "$out.err")"
  if cat "$out"/logs/plain*.io | grep -q "setoption name EnteringKingRule"; then fail "plain was told a rule"; fi
  pass "rule $rule: EnteringKingRule $value and MaxMovesToDraw 300 set, said once"
done

rules "$TMP/own" 27 option.EnteringKingRule=TryRule
[ "$(sent "$TMP/own" EnteringKingRule)" = "> setoption name EnteringKingRule value TryRule" ] ||
  fail "the user's value was not kept: $(sent "$TMP/own" EnteringKingRule)"
[ "$(grep -c "^warning: engine 'yo': EnteringKingRule is set to TryRule, but the runner judges the 27-point" "$TMP/own.err")" = 1 ] ||
  fail "no single warning: $(cat "$TMP/own.err")"
pass "a user's TryRule is kept, with one warning"
check_no_engines_left
