#!/usr/bin/env bash
# The kifu files of real runs load in the viewers' libraries (tsshogi, json-kifu-format) with exactly the moves of
# the journal and an ending where the game has one: games of the built-in engine against mock engines that resign,
# play illegal moves, declare falsely or move at random, played directly and through the CSA server.
# Skipped (77) without node or without tests/kifu/node_modules (installed by scripts/install-deps.sh --test).
source "$(dirname "$0")/lib.sh"
if ! command -v node >/dev/null || [ ! -d "$SOURCE_DIR/tests/kifu/node_modules/tsshogi" ]; then
  echo "SKIP: node or the npm packages in tests/kifu are missing (scripts/install-deps.sh --test installs them)"
  exit 77
fi
check() {  # check OUT: the journal against the records
  node "$SOURCE_DIR/tests/kifu/compare_journal.mjs" "$1/journal.jsonl" "$1/games" >"$1.kifu.log" 2>&1 ||
    fail "records of $1 do not match the journal: $(grep FAIL "$1.kifu.log" | head -5)"
  tail -1 "$1.kifu.log"
}
engine="cmd=$ENGINE name=arena option.USI_Hash=16"
# shellcheck disable=SC2046,SC2086
"$ARENA" gauntlet --engine $engine --engine $(mock resigner --behavior resign) \
  --engine $(mock illegal --behavior illegal-move) --engine $(mock falsewin --behavior false-win) \
  --engine $(mock random --random --seed 9) --each tc=2+0.1 --rounds 1 --concurrency 2 --max-plies 120 \
  --openings file="$OPENINGS" --kifu csa,kif --out "$TMP/direct" --quiet >"$TMP/direct.log" 2>&1 ||
  fail "the direct gauntlet exited with $? ($(tail -3 "$TMP/direct.log"))"
for t in resign illegal-move illegal-declaration; do
  grep -q "\"termination\":\"$t\"" "$TMP/direct/journal.jsonl" || fail "no game ended by $t"
done
pass "direct games: $(check "$TMP/direct")"
# shellcheck disable=SC2046,SC2086
"$ARENA" gauntlet --via-csa-server --engine $engine --engine $(mock resigner --behavior resign) \
  --engine $(mock random --random --seed 9) --each tc=2+1 --rounds 1 --concurrency 2 --max-plies 60 \
  --kifu csa,kif --out "$TMP/via" --quiet >"$TMP/via.log" 2>&1 ||
  fail "the gauntlet via the CSA server exited with $? ($(tail -3 "$TMP/via.log"))"
pass "games via the CSA server: $(check "$TMP/via")"
check_no_engines_left 0.5
