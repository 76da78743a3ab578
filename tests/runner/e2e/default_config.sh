#!/usr/bin/env bash
# The default gauntlet of README command 1 (configs/default.yaml) runs the built-in engine against itself and
# finishes; shortened here from the command line (the file's other settings stay).
source "$(dirname "$0")/lib.sh"
"$ARENA" run --config "$SOURCE_DIR/configs/default.yaml" --each cmd="$ENGINE" tc=2+0.1 --games 4 \
  --out "$TMP/out" >"$TMP/log" 2>&1 || fail "exit code $? ($(tail -5 "$TMP/log"))"
grep -q "^Games scored 4 of 4 scheduled" "$TMP/log" || fail "unexpected summary: $(cat "$TMP/log")"
grep -q "^Results of arena-a vs arena-b (4 games, 2 complete pairs)" "$TMP/log" || fail "no results: $(cat "$TMP/log")"
[ "$(ls "$TMP/out/games" | grep -c '\.kif$')" = 4 ] || fail "expected 4 KIF records"
# The built-in engine never loses by its own fault: no illegal move, time loss, crash or stall.
bad=$(journal_games "$TMP/out/journal.jsonl" \
  'select(.termination | IN("illegal-move", "time-forfeit", "disconnect", "stall")) | .detail')
[ -z "$bad" ] || fail "the built-in engine lost by its own fault: $bad"
pass "the default gauntlet ran: $(grep '^  Games' "$TMP/log")"
