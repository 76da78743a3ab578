#!/usr/bin/env bash
# Slow suite (SHOGI_ARENA_SLOW_TESTS=1): a few hundred fast self-play games of the built-in engine through the
# runner — no illegal bestmove, no crash, no stall, no time loss, and no sanitizer report in the engines' stderr
# (run it from an ASan/UBSan build to make that last check mean something). SMOKE_GAMES sets the count (300).
source "$(dirname "$0")/lib.sh"
games=${SMOKE_GAMES:-300}
"$ARENA" gauntlet --engine cmd="$ENGINE" name=a option.USI_Hash=16 --engine cmd="$ENGINE" name=b option.USI_Hash=16 \
  --each tc=1+0.05 --games "$games" --concurrency 2 --max-plies 320 \
  --openings file="$OPENINGS" order=random seed=5 --kifu none --engine-logs true --quiet \
  --out "$TMP/out" >"$TMP/log" 2>&1 || fail "exit code $? ($(tail -5 "$TMP/log"))"
grep -q "^Games scored $games of $games scheduled" "$TMP/log" || fail "unexpected summary: $(tail -20 "$TMP/log")"
check_exactly_once "$TMP/out/journal.jsonl" "$games"
bad=$(journal_games "$TMP/out/journal.jsonl" \
  'select(.termination | IN("illegal-move", "time-forfeit", "disconnect", "stall")) | "\(.termination): \(.detail)"' |
  head -5)
[ -z "$bad" ] || fail "the built-in engine lost by its own fault: $bad"
reports=$(grep -l 'Sanitizer\|runtime error:' "$TMP"/out/logs/* 2>/dev/null | head -3 || true)
[ -z "$reports" ] || fail "sanitizer reports in $reports: $(grep -h -m3 'Sanitizer\|runtime error:' $reports)"
pass "$games self-play games: $(grep '^  Games' "$TMP/log")"
