#!/usr/bin/env bash
# `shogi-arena check` from the command line: on mock engines with a quirk each, the --engine line it recommends
# then plays a short match without a time loss or a crash, where the same engine without the keys loses games; the
# built-in engine passes every check; bad arguments exit 2 with one line.
source "$(dirname "$0")/lib.sh"
# The checks look for files an engine leaves in its working directory: run them where no other test writes.
mkdir "$TMP/cwd"
cd "$TMP/cwd"

# The recommended --engine line of a check's text output, as an argument array in REC.
recommended() {
  local line
  line=$(grep -A1 '^Recommended engine settings:' "$1" | tail -1)
  [ -n "$line" ] || fail "no recommended engine line in $1"
  eval "REC=($line)"
  [ "${REC[0]}" = --engine ] || fail "the recommended line does not start with --engine: $line"
}

# match OUT TC REF-TC ENGINE-ARGS...: a 2-game gauntlet (8 plies after the 24 of the opening) of the engine (time control TC) against an instant random
# mover (REF-TC); prints the checked engine's crashes + time losses.
match() {
  local out=$1 tc=$2 ref_tc=$3
  shift 3
  # shellcheck disable=SC2046
  "$ARENA" gauntlet "$@" tc="$tc" --engine $(mock ref --random --seed 7) tc="$ref_tc" --rounds 1 --concurrency 1 \
    --openings file="$OPENINGS" --max-plies 32 --out "$out" --json --quiet >"$out.json" 2>"$out.err" ||
    [ $? = 2 ] || fail "the match in $out exited with $?"
  local crashes time
  crashes=$(jq -r '.engines[0].crashes' "$out.json")
  time=$(jq -r '.engines[0].time_losses' "$out.json")
  [ -n "$crashes" ] && [ -n "$time" ] || fail "no engine figures in $out.json: $(head -c 600 "$out.json")"
  echo $((crashes + time))
}

# quirk NAME TC REF-TC KEY-PATTERN MOCK-ARGS...
quirk() {
  local name=$1 tc=$2 ref_tc=$3 key=$4
  shift 4
  # shellcheck disable=SC2046
  "$ARENA" check --engine $(mock "$name" "$@") --quick --no-time-profiles >"$TMP/$name.txt" 2>&1 ||
    fail "$name: check exited with $? ($(tail -3 "$TMP/$name.txt"))"
  grep -q "^  warn" "$TMP/$name.txt" || fail "$name: no warning"
  recommended "$TMP/$name.txt"
  printf '%s\n' "${REC[@]}" | grep -Eqx "$key" || fail "$name: expected $key in: ${REC[*]}"
  # Without the keys the quirk costs games; with them the match is clean.
  local bare fixed
  # shellcheck disable=SC2046
  bare=$(match "$TMP/$name-bare" "$tc" "$ref_tc" --engine $(mock "$name" "$@"))
  fixed=$(match "$TMP/$name-fixed" "$tc" "$ref_tc" "${REC[@]}")
  [ "$bare" -gt 0 ] || fail "$name: the engine without the keys lost no game to its quirk (the test shows nothing)"
  [ "$fixed" = 0 ] || fail "$name: $fixed crashes or time losses with the recommended keys (${REC[*]})"
  pass "$name: $(printf '%s\n' "${REC[@]}" | grep -Ex "$key"); without it $bare crashes or time losses in 2 games, with them none"
}

quirk reject-increment 2+0.5 2+0.5 send_inc=false --clock --behavior reject-increment
# Budgeting from the opponent's 12 s, a tenth of it is more than its own 1 s.
quirk swapped-clocks 1+0 12+0 swap_btime_wtime=true --behavior swapped-clocks
quirk byoyomi-overrun 0+1b 0+1b 'margin_ms=[0-9]+' --behavior byoyomi-overrun --delay-ms 300

# JSON: the same findings, and exit 1 for what no key fixes.
# shellcheck disable=SC2046
set +e
"$ARENA" check --engine $(mock twice --clock --behavior double-bestmove) --quick --no-time-profiles --json >"$TMP/twice.json" 2>&1
rc=$?
set -e
[ $rc = 1 ] || fail "a double bestmove should exit 1, not $rc"
grep -q '"id":"protocol.bestmove_once","title":"[^"]*","verdict":"fail"' "$TMP/twice.json" ||
  fail "no failed protocol.bestmove_once in $(head -c 400 "$TMP/twice.json")"
[ "$(json_int "$TMP/twice.json" exit_code)" = 1 ] || fail "exit_code in the JSON is not 1"
pass "a second bestmove fails, exit 1, in JSON too"

# The built-in engine: every check passes. A timing warning (a stall of the loaded machine past a movetime) gets one
# more run; any other warning fails at once.
builtin() { "$ARENA" check --engine cmd="$ENGINE" name=built-in >"$TMP/engine.txt" 2>&1 || fail "the built-in engine fails: $(cat "$TMP/engine.txt")"; }
builtin
if grep -E '^  (warn|FAIL)' "$TMP/engine.txt" && ! grep -E '^  (warn|FAIL)' "$TMP/engine.txt" | grep -vq ' time\.'; then
  echo "timing warnings only: once more"
  builtin
fi
! grep -E '^  (warn|FAIL)' "$TMP/engine.txt" || fail "the built-in engine has warnings"
[ "$(grep -c '^  pass' "$TMP/engine.txt")" -ge 25 ] || fail "fewer than 25 checks passed: $(cat "$TMP/engine.txt")"
pass "the built-in engine passes all $(grep -c '^  pass' "$TMP/engine.txt") checks"

# Bad arguments: exit 2, one line naming the problem.
set +e
"$ARENA" check --engine cmd=/nonexistent/engine >"$TMP/bad.txt" 2>&1
rc=$?
set -e
[ $rc = 2 ] && grep -q "'/nonexistent/engine' is not an executable file" "$TMP/bad.txt" || fail "bad cmd: exit $rc, $(cat "$TMP/bad.txt")"
set +e
"$ARENA" check --engine cmd="$ENGINE" tc=10+0.1 >"$TMP/bad.txt" 2>&1
rc=$?
set -e
[ $rc = 2 ] && grep -q 'leave tc out' "$TMP/bad.txt" || fail "tc given: exit $rc, $(cat "$TMP/bad.txt")"
pass "bad arguments exit 2 with one line"
check_no_engines_left 1
