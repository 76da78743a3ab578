#!/usr/bin/env bash
# The data store's job (scripts/datagen.sh) through its own commands, on a throwaway store with tiny parts: the
# generation key's folder and what it keeps, whole parts in the manifest with their seeds, a second run that adds
# nothing, start / pause / resume / stop of the background job, a stopped part continued to its end with the records
# written before it kept, one-line errors for a missing weights, openings or engine file, and a pid file left by a
# dead job (a zombie, or a pid reused by a stranger) that is neither called running nor signalled.
#   datagen_store.sh ENGINE SOURCE_DIR
set -euo pipefail
engine=$1
source_dir=$2
datagen=$source_dir/scripts/datagen.sh
tmp=$(mktemp -d)
export SHOGI_ARENA_DATA=$tmp/store ENGINE=$engine THREADS=1 NICE=0
holder=
first_job=
cleanup() {
  bash "$datagen" stop >/dev/null 2>&1 || true
  # A second start that wrongly ran a second job overwrote the pid file: the first job's group is stopped by name.
  [ -z "$first_job" ] || kill -TERM -- "-$first_job" 2>/dev/null || true
  # The zombie's holder below keeps the test's output open: a failure there must not wait for its sleep to end.
  [ -z "$holder" ] || kill "$holder" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
records() { echo $(($(stat -c %s "$1") / 64)); }
manifest_parts() { tail -n +2 "$1/manifest.tsv" | cut -f1 | tr '\n' ' '; }

wsha=$(sha256sum "$source_dir/engine/eval/default.kpev" | cut -c1-12)

# Two whole parts, in the foreground.
NODES=100 PARTS=2 PART_SIZE=300 bash "$datagen" run >"$tmp/run1.log" 2>&1 || fail "run: $(tail -3 "$tmp/run1.log")"
key=$SHOGI_ARENA_DATA/w$wsha-n100-balanced-24
[ -d "$key" ] || fail "no key folder $key: $(ls "$SHOGI_ARENA_DATA")"
for f in engine weights.kpev commit manifest.tsv part-0001.bin part-0002.bin; do
  [ -e "$key/$f" ] || fail "the key folder has no $f"
done
cmp -s "$key/weights.kpev" "$source_dir/engine/eval/default.kpev" || fail "weights.kpev is not the built-in weights"
[ "$(records "$key/part-0001.bin")" = 300 ] && [ "$(records "$key/part-0002.bin")" = 300 ] ||
  fail "parts of $(records "$key/part-0001.bin") and $(records "$key/part-0002.bin") records, not 300"
[ "$(manifest_parts "$key")" = "part-0001 part-0002 " ] || fail "manifest: $(cat "$key/manifest.tsv")"
# The seeds are the recipe's, so that a lost store is rebuilt part by part with the same ones.
[ "$(tail -n +2 "$key/manifest.tsv" | cut -f2,3,6 | tr '\t\n' ', ')" = "300,8019,100 300,15938,100 " ] ||
  fail "manifest records, seeds, nodes: $(cat "$key/manifest.tsv")"
osha=$(sha256sum "$source_dir/openings/balanced-24.sfen" | cut -d' ' -f1)
[ -z "$(tail -n +2 "$key/manifest.tsv" | cut -f8 | grep -vx "$osha")" ] || fail "manifest openings sha256 is not $osha"
grep -q "all 2 parts done" "$tmp/run1.log" || fail "run did not say it was done: $(cat "$tmp/run1.log")"

# A second run finds both parts whole and generates nothing.
cp "$key/manifest.tsv" "$tmp/manifest.before"
NODES=100 PARTS=2 PART_SIZE=300 bash "$datagen" run >"$tmp/run2.log" 2>&1 || fail "second run: $(cat "$tmp/run2.log")"
grep -q generating "$tmp/run2.log" && fail "the second run generated again: $(cat "$tmp/run2.log")"
cmp -s "$key/manifest.tsv" "$tmp/manifest.before" || fail "the second run changed the manifest"

status=$(bash "$datagen" status)
grep -q "datagen: not running" <<<"$status" || fail "status: $status"
grep -q "w$wsha-n100-balanced-24: 2 whole parts, 600 records in them, 600 records in all" <<<"$status" ||
  fail "status: $status"

# The background job: a third part far larger than it gets to write here.
export NODES=100 PARTS=3 PART_SIZE=10000000
bash "$datagen" start >"$tmp/start.log" 2>&1 || fail "start: $(cat "$tmp/start.log")"
grep -q "datagen: started" "$tmp/start.log" || fail "start: $(cat "$tmp/start.log")"
read -r first_job _ <"$SHOGI_ARENA_DATA/datagen.pid"
# The pid file keeps the job's start time: another time zone or locale must still see the same job.
out=$(TZ=Asia/Tokyo LC_ALL=C.UTF-8 bash "$datagen" start)
grep -q "already running" <<<"$out" || fail "a second start did not say it was running: $out"
part=$key/part-0003.bin
for _ in $(seq 300); do
  [ -f "$part" ] && [ "$(records "$part")" -gt 0 ] && break
  sleep 0.1
done
[ -f "$part" ] && [ "$(records "$part")" -gt 0 ] || fail "the job wrote nothing in 30 s: $(cat "$SHOGI_ARENA_DATA/datagen.log")"

out=$(bash "$datagen" pause)
grep -q "datagen: pause" <<<"$out" || fail "pause: $out"
# SIGSTOP lands a moment after kill returns.
wait_status() {
  for _ in $(seq 100); do
    # Captured first: grep -q stops reading at the match, and under pipefail the writer's SIGPIPE fails the pipe.
    local out
    out=$(bash "$datagen" status)
    grep -q "datagen: $1" <<<"$out" && return 0
    sleep 0.1
  done
  fail "status is not '$1' 10 s after $2: $(bash "$datagen" status)"
}
wait_status paused pause
sleep 0.5  # a write under way when the signal came lands
paused_at=$(stat -c %s "$part")
sleep 1.5
[ "$(stat -c %s "$part")" = "$paused_at" ] || fail "the part grew while paused"

out=$(bash "$datagen" resume)
grep -q "datagen: resume" <<<"$out" || fail "resume: $out"
wait_status running resume
for _ in $(seq 300); do
  [ "$(stat -c %s "$part")" -gt "$paused_at" ] && break
  sleep 0.1
done
[ "$(stat -c %s "$part")" -gt "$paused_at" ] || fail "the part did not grow after resume"

out=$(bash "$datagen" stop)
grep -q "datagen: stop" <<<"$out" || fail "stop: $out"
wait_status "not running" stop
first_job=  # stopped: the cleanup trap must not signal a group whose pid may be reused
grep -q stopping "$SHOGI_ARENA_DATA/datagen.log" || fail "the log does not say it stopped"
[ "$(manifest_parts "$key")" = "part-0001 part-0002 " ] || fail "a stopped part entered the manifest"
written=$(records "$part")
[ $((written * 64)) = "$(stat -c %s "$part")" ] || fail "the stopped part ends with a torn record"

# Continued to its end: the records written before the stop stay, and the part enters the manifest whole.
head -c $((written * 64)) "$part" >"$tmp/before-stop.bin"
PART_SIZE=$((written + 200)) bash "$datagen" run >"$tmp/run3.log" 2>&1 || fail "continue: $(tail -3 "$tmp/run3.log")"
[ "$(records "$part")" = $((written + 200)) ] || fail "the continued part has $(records "$part") records"
cmp -s "$tmp/before-stop.bin" <(head -c $((written * 64)) "$part") || fail "the continued part lost what it had"
[ "$(manifest_parts "$key")" = "part-0001 part-0002 part-0003 " ] || fail "manifest: $(cat "$key/manifest.tsv")"

# Bad knobs: one line naming the file, no key folder made for them.
out=$(EVAL_FILE=$tmp/missing.kpev bash "$datagen" run 2>&1) && fail "a missing weights file ran"
[ "$out" = "datagen: EVAL_FILE $tmp/missing.kpev: no such file" ] || fail "missing weights: $out"
out=$(OPENINGS=$tmp/missing.sfen bash "$datagen" run 2>&1) && fail "a missing openings file ran"
[ "$out" = "datagen: OPENINGS $tmp/missing.sfen: no such file" ] || fail "missing openings: $out"
out=$(ENGINE=$tmp/no-engine bash "$datagen" run 2>&1) && fail "a missing engine ran"
grep -q "no $tmp/no-engine" <<<"$out" || fail "missing engine: $out"
[ "$(ls "$SHOGI_ARENA_DATA" | grep -c '^w')" = 1 ] || fail "a key folder was made for bad knobs: $(ls "$SHOGI_ARENA_DATA")"
# A job that has exited but is not yet reaped (a zombie: its parent here never waits) is not running. Status said it
# was, and when the job ended between its two looks (kill -0, then ps) it exited with nothing said.
pidfile=$SHOGI_ARENA_DATA/datagen.pid
rm -f "$pidfile"
bash -c 'sleep 0.05 & echo $! > "$1"; exec sleep 60' _ "$pidfile" &
holder=$!
zombie_state() { ps -o stat= -p "$(cat "$pidfile" 2>/dev/null)" 2>/dev/null || true; }
for _ in $(seq 50); do
  [[ $(zombie_state) == Z* ]] && break
  sleep 0.1
done
[[ $(zombie_state) == Z* ]] || fail "no zombie to test with: '$(zombie_state)'"
out=$(bash "$datagen" status) || fail "status failed on a zombie job: $out"
grep -q "datagen: not running" <<<"$out" || fail "status on a zombie job: $out"
out=$(bash "$datagen" pause) || fail "pause failed on a zombie job: $out"
[ "$out" = "datagen: not running" ] || fail "pause on a zombie job: $out"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
holder=  # reaped: the cleanup trap must not kill a pid that may be reused

# A pid file left by a job that died with its machine names a pid that a new process may have been given since.
# That process is not the job: status must not call it running, and stop must not signal its process group.
setsid sleep 60 </dev/null >/dev/null 2>&1 &
stranger=$!
holder=$stranger
for left in "$stranger" "$stranger Thu Jan  1 00:00:00 1970"; do
  echo "$left" >"$pidfile"
  out=$(bash "$datagen" status) || fail "status failed on a reused pid: $out"
  grep -q "datagen: not running" <<<"$out" || fail "status on a reused pid ($left): $out"
  out=$(bash "$datagen" stop) || fail "stop failed on a reused pid: $out"
  [ "$out" = "datagen: not running" ] || fail "stop on a reused pid ($left): $out"
  kill -0 "$stranger" 2>/dev/null || fail "stop signalled the process that reused the job's pid ($left)"
done
kill "$stranger" 2>/dev/null || true
wait "$stranger" 2>/dev/null || true
holder=

echo "datagen store: 3 parts, a stop at $written records continued, pause held the part at $paused_at bytes"
