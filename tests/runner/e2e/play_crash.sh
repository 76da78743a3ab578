#!/usr/bin/env bash
# `play` prints the result and writes the records; a crashing engine is restarted, its pair replayed, and the
# crashes are counted in the summary.
source "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2046
"$ARENA" play --engine $(mock a --random --seed 1) --engine $(mock b --random --seed 2) --each tc=1+0.1 \
  --position "startpos moves 7g7f 3c3d" --kifu csa,kif --out "$TMP/play" >"$TMP/play.log" 2>&1 ||
  fail "play exited with $? ($(cat "$TMP/play.log"))"
grep -q "^Game 1: a (black) vs b (white): " "$TMP/play.log" || fail "no game line: $(cat "$TMP/play.log")"
grep -q "record: .*000001-a-vs-b.csa" "$TMP/play.log" || fail "no record path printed"
[ -f "$TMP/play/games/000001-a-vs-b.kif" ] || fail "no KIF record"
grep -q "^PI\|^P1" "$TMP/play/games/000001-a-vs-b.csa" || fail "the CSA record has no position"
pass "$(grep '^Game 1' "$TMP/play.log")"

# shellcheck disable=SC2046
"$ARENA" play --pair --engine $(mock a --random --seed 1) --engine $(mock b --random --seed 2) --each tc=1+0.1 \
  --out "$TMP/pair" >"$TMP/pair.log" 2>&1 || fail "play --pair exited with $?"
grep -q "^Game 2: b (black) vs a (white)" "$TMP/pair.log" || fail "no second game: $(cat "$TMP/pair.log")"
pass "a pair"

# The crashing engine dies on its 21st search of each process.
# shellcheck disable=SC2046
"$ARENA" gauntlet --engine $(mock ok --random --seed 1) --engine $(mock crashy --random --seed 2 --behavior crash-on-go --after 20) \
  --each tc=1+0.1 --rounds 2 --max-replays 1 --concurrency 1 --kifu none --out "$TMP/crash" --json \
  >"$TMP/crash.json" 2>"$TMP/crash.log" || fail "the gauntlet with crashes exited with $?"
crashes=$(jq -r '.engines[] | select(.name == "crashy") | .crashes' "$TMP/crash.json")
[ "$crashes" -ge 2 ] || fail "expected crashes to be counted, got '$crashes'"
grep -q '"replay":true' "$TMP/crash/journal.jsonl" || fail "no replayed pair in the journal"
[ "$(json_int "$TMP/crash.json" scored)" = 4 ] || fail "expected 4 scored games"
check_exactly_once "$TMP/crash/journal.jsonl" 4
grep -q "the pair will be replayed" "$TMP/crash.log" || fail "no replay notice"
pass "crashes counted ($crashes), pairs replayed, 4 games scored"
check_no_engines_left
