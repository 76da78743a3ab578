#!/usr/bin/env bash
# A run split into shards on one machine, as a Slurm job array or a Kubernetes Indexed Job splits it over many,
# merges into exactly the games of the same run played on one machine: every scheduled pair once, the same
# results and moves, the same statistics. Along the way:
# - shard 3 comes from a Slurm array's variables (--shard auto), starts with --resume and no segment, is killed
#   with kill -9 mid-run (its engines must die with it) and resumed;
# - a second copy of shard 1 runs at the same time as the first (a requeued task overlapping its predecessor):
#   its duplicate lines are left out by the merge;
# - engines that ignore EOF on stdin still die with a runner killed by kill -9 (PR_SET_PDEATHSIG);
# - a segment of another engine build is refused, at a shard's start and by merge, naming the file and engine
#   (and so is resuming a one-machine journal with it);
# - a shard that finds OUT/STOP starts no pair.
# The engines are seeded mocks whose move depends only on the position, so the games do not depend on which
# process plays them.
source "$(dirname "$0")/lib.sh"

ROUNDS=12  # 3 engines in a gauntlet: 2 pairings, 24 pairs, 48 games
GAMES=48

# run_exec OUT [extra args]: the run, replacing the shell (so that `run_exec ... &` gives the runner's own pid);
# run: the same in the foreground.
run_exec() {
  local out=$1
  shift
  # shellcheck disable=SC2046
  exec "$ARENA" gauntlet --engine $(mock a --random --seed 21 --think-ms 3) --engine $(mock b --random --seed 22 --think-ms 3) \
    --engine $(mock c --random --seed 23 --think-ms 3) --each tc=10+0.1 --rounds $ROUNDS \
    --openings file="$OPENINGS" order=random seed=5 --max-plies 80 --out "$out" --kifu none --quiet "$@"
}
run() { (run_exec "$@"); }

# keys JOURNAL: one line per counted game, in game order: number, players, result, termination and moves.
keys() {
  journal_games "$1" 'select(.replay != true) | "\(.game) \(.black) \(.white) \(.result) \(.termination) \(.moves)"' |
    sort -n
}

run "$TMP/one" --concurrency 2 >"$TMP/one.log" 2>&1 || fail "the one-machine run failed: $(tail -3 "$TMP/one.log")"
check_exactly_once "$TMP/one/journal.jsonl" $GAMES
grep -q '"sha256":"[0-9a-f]\{64\}"' "$TMP/one/journal.jsonl" || fail "the journal header has no engine sha256"

# Four shards at once, plus an overlapping copy of shard 1.
pids=()
for i in 0 1 2; do
  run_exec "$TMP/sh" --shard $i/4 --concurrency 1 >"$TMP/shard$i.log" 2>&1 &
  pids+=($!)
done
run_exec "$TMP/sh" --shard 1/4 --concurrency 1 --resume >"$TMP/shard1b.log" 2>&1 &
pids+=($!)
SLURM_ARRAY_TASK_ID=13 SLURM_ARRAY_TASK_MIN=10 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MAX=13 \
  run_exec "$TMP/sh" --shard auto --concurrency 1 --resume >"$TMP/shard3.log" 2>&1 &
shard3=$!
for _ in $(seq 600); do
  seg=$(ls "$TMP"/sh/segments/shard-3-of-4.*.jsonl 2>/dev/null | head -1 || true)
  [ -n "$seg" ] && [ "$(game_lines "$seg")" -ge 2 ] && break
  sleep 0.1
done
[ -n "$seg" ] || fail "shard 3 wrote no segment ($(tail -3 "$TMP/shard3.log"))"
kill -9 $shard3
wait $shard3 2>/dev/null || true
for p in "${pids[@]}"; do wait "$p" || fail "a shard failed: $(tail -3 "$TMP"/shard*.log)"; done
killed_at=$(game_lines "$seg")
[ "$killed_at" -lt 12 ] || fail "shard 3 finished before the kill; make the games longer"
run "$TMP/sh" --shard 3/4 --concurrency 1 --resume >"$TMP/shard3r.log" 2>&1 || fail "resuming shard 3 failed"
[ "$(ls "$TMP"/sh/segments/*.jsonl | wc -l)" = 6 ] || fail "expected 6 segments, found $(ls "$TMP"/sh/segments)"
pass "4 shards (one overlapping copy, shard 3 killed after $killed_at games and resumed): 6 segments"

"$ARENA" merge "$TMP/sh" >"$TMP/merge.out" 2>"$TMP/merge.err" || fail "merge failed: $(cat "$TMP/merge.err")"
grep -q "Merged 6 segments of 4 shards" "$TMP/merge.err" || fail "merge report: $(cat "$TMP/merge.err")"
check_exactly_once "$TMP/sh/journal.jsonl" $GAMES
diff <(keys "$TMP/one/journal.jsonl") <(keys "$TMP/sh/journal.jsonl") >"$TMP/diff" ||
  fail "the merged games differ from the one-machine run: $(head -c 600 "$TMP/diff")"
stats_of() { "$ARENA" stats "$1" | grep -v '^Games scored'; }
diff <(stats_of "$TMP/one/journal.jsonl") <(stats_of "$TMP/sh") >"$TMP/diff" ||
  fail "stats of the shard directory differ: $(cat "$TMP/diff")"
diff <(stats_of "$TMP/one/journal.jsonl") <(stats_of "$TMP/sh/journal.jsonl") >"$TMP/diff" ||
  fail "stats of the merged journal differ: $(cat "$TMP/diff")"
# The report of the shard directory (its segments merged) holds the one-machine run's games and terminations.
"$ARENA" report "$TMP/sh" --html "$TMP/sh-report.html" >"$TMP/report.out" 2>&1 || fail "report failed: $(cat "$TMP/report.out")"
"$ARENA" report "$TMP/one/journal.jsonl" --html "$TMP/one-report.html" >/dev/null 2>&1 || fail "report of one failed"
grep -q "($GAMES games, $GAMES replayable" "$TMP/report.out" || fail "report of the shards: $(cat "$TMP/report.out")"
# The report's data (its embedded JSON) has the terminations by result.
terminations() { grep -o '"terminations":\[[^]]*\]' "$1"; }
[ -n "$(terminations "$TMP/one-report.html")" ] && diff <(terminations "$TMP/one-report.html") \
  <(terminations "$TMP/sh-report.html") >/dev/null || fail "the shards' report differs from the one-machine run's"
"$ARENA" merge "$TMP/sh" >/dev/null 2>&1 || fail "merging again (replacing the merged journal) failed"
code=0
run "$TMP/sh" --resume >"$TMP/unsharded.log" 2>&1 || code=$?
[ "$code" = 2 ] && grep -q "holds the journal segments of a sharded run" "$TMP/unsharded.log" ||
  fail "an unsharded resume into a shard directory was not refused: $(cat "$TMP/unsharded.log")"
pass "merged: $GAMES games each once, the same games and statistics as on one machine ($(grep -o '[0-9]* duplicate' "$TMP/merge.err"))"

# Another build of engine a: refused at a shard's start, and by merge.
cp "$MOCK" "$TMP/mock-other"
printf 'another build' >>"$TMP/mock-other"
other_a() {
  local out=$1
  shift
  "$ARENA" gauntlet --engine cmd="$TMP/mock-other" name=a arg=--name arg="$TAG" arg=--random arg=--seed arg=21 \
    arg=--think-ms arg=3 --engine $(mock b --random --seed 22 --think-ms 3) \
    --engine $(mock c --random --seed 23 --think-ms 3) --each tc=10+0.1 --rounds $ROUNDS \
    --openings file="$OPENINGS" order=random seed=5 --max-plies 80 --out "$out" --kifu none --quiet "$@"
}
code=0
other_a "$TMP/sh" --shard 0/4 --resume >"$TMP/other.log" 2>&1 || code=$?
[ "$code" = 2 ] || fail "a shard of another build started in the run's directory (exit $code)"
grep -q "written for another run.*engine 'a': its binary .*mock-other has sha256" "$TMP/other.log" ||
  fail "the refusal does not name the engine and binary: $(cat "$TMP/other.log")"
code=0
other_a "$TMP/one" --resume >"$TMP/other-one.log" 2>&1 || code=$?
[ "$code" = 2 ] || fail "a one-machine journal was resumed with another build (exit $code)"
grep -q "the journal was written by another run: engine 'a': its binary" "$TMP/other-one.log" ||
  fail "the resume refusal does not name the engine: $(cat "$TMP/other-one.log")"
other_a "$TMP/other" --shard 0/4 --concurrency 1 >/dev/null 2>&1 || fail "the other build's own run failed"
cp -r "$TMP/sh" "$TMP/mixed"
rm -f "$TMP/mixed/journal.jsonl"
cp "$TMP"/other/segments/*.jsonl "$TMP/mixed/segments/"
code=0
"$ARENA" merge "$TMP/mixed" >/dev/null 2>"$TMP/mixed.err" || code=$?
[ "$code" = 2 ] || fail "merge accepted a segment of another build"
[ "$(wc -l <"$TMP/mixed.err")" = 1 ] || fail "the refusal is not one line: $(cat "$TMP/mixed.err")"
grep -q "segments/shard-0-of-4\..*jsonl and .*jsonl belong to different runs: engine 'a': its binary" "$TMP/mixed.err" ||
  fail "merge's refusal does not name the segment and the engine: $(cat "$TMP/mixed.err")"
pass "another build of engine a refused at start and by merge: $(cut -c1-160 "$TMP/mixed.err")..."

# Engines that do not exit on EOF die with a runner killed by kill -9.
# shellcheck disable=SC2046
"$ARENA" gauntlet --engine $(mock x --behavior late-quit-exit --delay-ms 60000 --think-ms 20) \
  --engine $(mock y --behavior late-quit-exit --delay-ms 60000 --think-ms 20) --each tc=10+0.1 --rounds 20 \
  --max-plies 40 --out "$TMP/pdeath" --shard 0/2 --concurrency 2 --kifu none --quiet >/dev/null 2>&1 &
runner=$!
for _ in $(seq 300); do
  pgrep -f -- "$TAG" >/dev/null && [ "$(pgrep -f -- "$TAG" | wc -l)" -ge 4 ] && break
  sleep 0.1
done
[ "$(pgrep -f -- "$TAG" | wc -l)" -ge 4 ] || fail "the engines of the pdeathsig run did not start"
sleep 0.5
kill -9 $runner
wait $runner 2>/dev/null || true
check_no_engines_left 1
pass "kill -9 of a shard: its engines (which ignore EOF for 60 s) died with it"

# OUT/STOP: a shard starts no pair and exits 0.
mkdir -p "$TMP/stop"
touch "$TMP/stop/STOP"
code=0
run "$TMP/stop" --shard 1/2 >"$TMP/stop.log" 2>&1 || code=$?
[ "$code" = 0 ] || fail "a stopped shard exited with $code: $(tail -3 "$TMP/stop.log")"
grep -q "STOP file appeared" "$TMP/stop.log" || fail "no stop notice: $(tail -3 "$TMP/stop.log")"
[ "$(game_lines "$TMP"/stop/segments/*.jsonl)" = 0 ] || fail "a stopped shard played games"
pass "OUT/STOP: the shard started no pair and exited 0"
