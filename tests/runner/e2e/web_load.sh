#!/usr/bin/env bash
# The live page under load: the same concurrency-2 tournament at 2 s + 0.1 s (mock engines that spend their clock
# like real ones) once without viewers and once with 50 event-stream viewers, a flood of 300 connections and
# garbage thrown at the server. With the viewers every one of them gets updates and no game is lost on time or
# otherwise. The runner's CPU time of both runs is printed (a figure for the README and the notes, not a pass/fail:
# CI machines are too noisy for a 5 % bound). The runner's margin is 300 ms so that a suite running other tests
# beside this one does not make a mock engine flag.
source "$(dirname "$0")/lib.sh"
VIEWERS=${VIEWERS:-50}

run() {  # run OUT [--web 0]
  local out=$1
  shift
  # shellcheck disable=SC2046
  "$ARENA" gauntlet --engine $(mock a --random --seed 1 --clock) --engine $(mock b --random --seed 2 --clock) \
    --each tc=2+0.1 --games 4 --concurrency 2 --max-plies 100 --margin-ms 300 --openings file="$OPENINGS" \
    order=sequential --out "$out" --kifu none --json "$@" >"$out.json" 2>"$out.err"
}

run "$TMP/alone" || fail "the run without viewers exited with $?: $(tail -3 "$TMP/alone.err")"

run "$TMP/watched" --web 0 &
arena_pid=$!
on_exit 'kill -9 "$arena_pid" 2>/dev/null'
on_exit 'jobs -p | xargs -r kill -9 2>/dev/null'
port=
for _ in $(seq 100); do
  port=$(grep -o 'Live page: http://127.0.0.1:[0-9]*/' "$TMP/watched.err" 2>/dev/null | grep -o '[0-9]*/$' | tr -d / || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || fail "no 'Live page:' line: $(cat "$TMP/watched.err")"

viewer() {  # viewer N: an event stream read into viewer-N.out until the server closes it
  exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
  printf 'GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n' >&3
  cat <&3 >"$TMP/viewer-$1.out"
}
viewer_pids=()
for i in $(seq "$VIEWERS"); do
  viewer "$i" &
  viewer_pids+=($!)
done

# A flood: 300 connections at once, each sending a partial request and then nothing; over the server's limit of
# 256 they are refused with 503, the rest are closed at the request timeout. Garbage and oversized requests too.
flood() {
  exec 3<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null || exit 0
  printf 'GET /api/st' >&3 2>/dev/null || true
  timeout 15 cat <&3 >/dev/null 2>&1 || true
}
sleep 1
for _ in $(seq 300); do flood & done
for _ in $(seq 20); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port" && head -c 4000 /dev/urandom >&3 && timeout 2 cat <&3 >/dev/null) 2>/dev/null &
done

wait "$arena_pid" || fail "the run with viewers exited with $?: $(tail -3 "$TMP/watched.err")"
sleep 0.5
for p in "${viewer_pids[@]}"; do kill "$p" 2>/dev/null || true; done

starved=0
least=
for i in $(seq "$VIEWERS"); do
  n=$(grep -c '^event: update' "$TMP/viewer-$i.out" || true)
  [ "$n" -ge 10 ] || starved=$((starved + 1))
  if [ -z "$least" ] || [ "$n" -lt "$least" ]; then least=$n; fi
done
[ "$starved" = 0 ] || fail "$starved of $VIEWERS viewers got fewer than 10 updates"
pass "$VIEWERS viewers got at least $least updates each"

jq -e '[.engines[] | .crashes + .stalls + .time_losses + .illegal_moves] | add == 0' "$TMP/watched.json" >/dev/null ||
  fail "faults with viewers: $(cat "$TMP/watched.json")"
[ "$(game_lines "$TMP/watched/journal.jsonl")" = 4 ] || fail "expected 4 games with viewers"
pass "4 games with no crash, stall, time loss or illegal move with viewers and the flood"

echo "runner CPU: $(jq .runner_cpu_s "$TMP/alone.json") s without viewers, $(jq .runner_cpu_s "$TMP/watched.json") s" \
  "with $VIEWERS viewers (and the flood); wall $(jq .elapsed_s "$TMP/alone.json") s /" \
  "$(jq .elapsed_s "$TMP/watched.json") s"
