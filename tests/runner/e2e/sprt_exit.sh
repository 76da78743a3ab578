#!/usr/bin/env bash
# An SPRT's exit code tells its verdict: 0 H1 accepted, 1 H0 accepted, 2 inconclusive at the maximum.
source "$(dirname "$0")/lib.sh"
sprt() {  # sprt OUT ENGINE-ARGS...: the exit code in $code
  local out=$1
  shift
  code=0
  "$ARENA" sprt "$@" --each tc=10+0.1 --sprt elo0=0 elo1=10 --openings file="$OPENINGS" --concurrency 2 \
    --kifu none --out "$TMP/$out" --json >"$TMP/$out.json" 2>"$TMP/$out.err" || code=$?
}
# shellcheck disable=SC2046
sprt good --engine $(mock strong --random --seed 1) --engine $(mock weak --behavior resign)
[ "$code" = 0 ] || fail "H1 expected: exit code $code"
grep -q '"verdict":"H1"' "$TMP/good.json" || fail "no H1 verdict in $(cat "$TMP/good.json")"
scored=$(json_int "$TMP/good.json" scored)
[ "$scored" -lt 1000 ] || fail "the test should stop long before its maximum of 100000 games; it played $scored games"
pass "H1 after $scored games, exit code 0"

# shellcheck disable=SC2046
sprt bad --engine $(mock weak --behavior resign) --engine $(mock strong --random --seed 1)
[ "$code" = 1 ] || fail "H0 expected: exit code $code"
pass "H0, exit code 1"

# shellcheck disable=SC2046
sprt short --engine $(mock x --random --seed 1) --engine $(mock y --random --seed 2) --rounds 2
[ "$code" = 2 ] || fail "inconclusive expected: exit code $code"
grep -q '"verdict":"continue"' "$TMP/short.json" || fail "no inconclusive verdict"
pass "inconclusive after 2 pairs, exit code 2"
"$ARENA" stats "$TMP/good/journal.jsonl" >/dev/null || fail "stats of the H1 journal: exit code $?"
code=0
"$ARENA" stats "$TMP/bad/journal.jsonl" >/dev/null || code=$?
[ "$code" = 1 ] || fail "stats of the H0 journal: exit code $code"
pass "stats recomputes the verdicts"
check_no_engines_left
