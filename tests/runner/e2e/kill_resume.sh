#!/usr/bin/env bash
# A run killed with SIGKILL midway and resumed ends with exactly the scheduled games in the journal: none lost,
# none twice. The same after SIGINT, which must also stop every engine and exit with code 2.
source "$(dirname "$0")/lib.sh"

start() {  # start OUT [extra args]: in the background; the pid in $runner
  local out=$1
  shift
  # shellcheck disable=SC2046
  "$ARENA" gauntlet --engine $(mock a --random --seed 11 --think-ms 2) --engine $(mock b --random --seed 12 --think-ms 2) \
    --each tc=10+0.1 --rounds 30 --concurrency 3 --openings file="$OPENINGS" order=random seed=3 \
    --max-plies 200 --out "$out" --quiet "$@" >"$out.log" 2>&1 &
  runner=$!
}

# SIGKILL: the runner dies at once; its engines see EOF on stdin and exit by themselves.
start "$TMP/kill"
wait_lines "$TMP/kill/journal.jsonl" 10 120
kill -9 "$runner"
wait "$runner" 2>/dev/null || true
before=$(game_lines "$TMP/kill/journal.jsonl")
[ "$before" -lt 60 ] || fail "the run finished before the kill; make it longer"
check_no_engines_left 2
start "$TMP/kill" --resume
wait "$runner" || fail "the resumed run exited with $? ($(tail -3 "$TMP/kill.log"))"
check_exactly_once "$TMP/kill/journal.jsonl" 60
pass "killed after $before games, resumed: 60 games, each once"

# SIGINT: running games are interrupted (not journaled), engines shut down, exit code 2.
start "$TMP/int"
wait_lines "$TMP/int/journal.jsonl" 10 120
kill -INT "$runner"
code=0
wait "$runner" || code=$?
[ "$code" = 2 ] || fail "interrupted run: exit code $code, expected 2"
grep -q "Interrupted: run again with --resume" "$TMP/int.log" || fail "no interrupt notice"
check_no_engines_left
start "$TMP/int" --resume
wait "$runner" || fail "the resumed run exited with $?"
check_exactly_once "$TMP/int/journal.jsonl" 60
pass "interrupted, engines stopped, exit code 2; resumed: 60 games, each once"

# SIGTERM while an engine starts (it answers usi only after 20 s, within its 30 s startup timeout): the run stops
# within a second or two, as an interruption (exit code 2, no error about the engine), and leaves no engine behind.
# shellcheck disable=SC2046
"$ARENA" gauntlet --engine $(mock a --behavior slow-usiok --delay-ms 20000) startup_timeout_ms=30000 \
  --engine $(mock b) --each tc=1+0.1 --rounds 1 --concurrency 1 --out "$TMP/slow" >"$TMP/slow.log" 2>&1 &
runner=$!
sleep 1
started=$(date +%s%N)
kill -TERM "$runner"
code=0
wait "$runner" || code=$?
took_ms=$((($(date +%s%N) - started) / 1000000))
[ "$code" = 2 ] || fail "SIGTERM during a start: exit code $code, expected 2 ($(tail -3 "$TMP/slow.log"))"
[ "$took_ms" -lt 5000 ] || fail "SIGTERM during a start: the runner took $took_ms ms to stop"
! grep -q "error" "$TMP/slow.log" || fail "SIGTERM during a start reported an error: $(cat "$TMP/slow.log")"
check_no_engines_left
pass "SIGTERM while an engine starts: stopped in $took_ms ms, exit code 2, no error"
