#!/usr/bin/env bash
# A tournament through a real Slurm (single node, started by scripts/local-slurm.sh): `shogi-arena slurm` submits
# the shard array, the coordinator and the merge job, follows them, and prints the summary of the merged journal.
# - Deterministic engines (seeded mocks whose move depends only on the position): the merged games equal a
#   one-machine run's, game by game.
# - Faults: one shard's runner is killed with kill -9 mid-run (the coordinator requeues its task) and another task
#   is requeued with scontrol: every scheduled pair is still there exactly once.
# - The live page of a run (web: in its config) is served by the following process from the shards' segments, while
#   the shards themselves serve none.
# - An SPRT stops the array early (STOP file, pending tasks cancelled) with the verdict of a local run at the same
#   pair count.
# Skipped (exit 77) where Slurm cannot be installed or started (not root, no package mirror).
source "$(dirname "$0")/lib.sh"

use_local_slurm

# config FILE ROUNDS THINK_MS [B_BEHAVIOUR] [sprt]: a gauntlet (or SPRT) config of two seeded mocks.
config() {
  local file=$1 rounds=$2 think=$3 b_behavior=${4:-normal} type=${5:-gauntlet}
  {
    echo "tournament: $type"
    echo "rounds: $rounds"
    echo "engines:"
    echo "  - {name: a, cmd: $MOCK, args: [--name, $TAG, --random, --seed, '31', --think-ms, '$think']}"
    echo "  - {name: b, cmd: $MOCK, args: [--name, $TAG, --random, --seed, '32', --think-ms, '$think', --behavior, $b_behavior]}"
    echo "each: {tc: 10+0.1}"
    echo "openings: {file: $OPENINGS, order: random, seed: 9}"
    echo "game: {max_plies: 80}"
    echo "output: {kifu: none}"
    [ "$type" = sprt ] && echo "sprt: {elo0: 0, elo1: 200, alpha: 0.05, beta: 0.05}"
    true
  } >"$file"
}

# keys JOURNAL: per game, the line of its last attempt (the one that counts; a pair broken by an engine that died
# with a requeued task is replayed as a new attempt): number, players, result, termination and moves.
keys() {
  journal_games "$1" '"\(.game) \(.attempt) \(.black) \(.white) \(.result) \(.termination) \(.moves)"' |
    sort -k1,1n -k2,2n | awk '{ last[$1] = $0 } END { for (g in last) print last[g] }' | cut -d' ' -f1,3- | sort -n
}

# check_pairs_once JOURNAL N: no (game, attempt) twice, the games 0..N-1 all there, and the statistics count N.
check_pairs_once() {
  local dups
  dups=$(journal_games "$1" '"\(.game) \(.attempt)"' | sort | uniq -d | head -3 | tr '\n' ' ')
  [ -z "$dups" ] || fail "(game, attempt) journaled twice: $dups"
  [ "$(keys "$1" | wc -l)" = "$2" ] || fail "expected $2 games, found $(keys "$1" | wc -l)"
  "$ARENA" stats "$1" | grep -q "Games scored $2 of $2" || fail "the statistics do not count $2 games"
}

# 1. A small run: the same games as on one machine.
config "$TMP/small.yaml" 8 2
"$ARENA" run --config "$TMP/small.yaml" --out "$TMP/local" --concurrency 2 --quiet >/dev/null ||
  fail "the local run failed"
start=$(date +%s.%N)
"$ARENA" slurm --config "$TMP/small.yaml" --out "$TMP/small" --shards 4 --poll 1 --status-interval 1 \
  >"$TMP/small.log" 2>&1 || fail "slurm run failed: $(tail -5 "$TMP/small.log")"
small_s=$(echo "$(date +%s.%N) - $start" | bc)
grep -q "Submitted: shards [0-9]*_\[0-3\]" "$TMP/small.log" || fail "no submission line: $(head -3 "$TMP/small.log")"
[ "$(ls "$TMP"/small/segments/shard-*-of-4.*.jsonl | wc -l)" = 4 ] || fail "expected 4 segments"
check_pairs_once "$TMP/small/journal.jsonl" 16
diff <(keys "$TMP/local/journal.jsonl") <(keys "$TMP/small/journal.jsonl") >"$TMP/diff" ||
  fail "the Slurm run's games differ from the local run's: $(head -c 400 "$TMP/diff")"
grep -q "Games scored 16 of 16" "$TMP/small.log" || fail "no final summary: $(tail -5 "$TMP/small.log")"
pass "4 shards through Slurm in ${small_s} s: the same 16 games as the local run"

# 2. Faults: kill -9 of one shard's runner, scontrol requeue of another task; the live page meanwhile.
config "$TMP/faults.yaml" 24 15
"$ARENA" run --config "$TMP/faults.yaml" --out "$TMP/faults-local" --concurrency 2 --quiet >/dev/null ||
  fail "the local faults run failed"
echo "web: 0" >>"$TMP/faults.yaml"
"$ARENA" slurm --config "$TMP/faults.yaml" --out "$TMP/faults" --shards 4 --poll 1 --quiet \
  >"$TMP/faults.log" 2>&1 &
follower=$!
# Wait until every shard has journaled a game.
for _ in $(seq 600); do
  n=0
  for i in 0 1 2 3; do
    seg=$(ls "$TMP"/faults/segments/shard-$i-of-4.*.jsonl 2>/dev/null | head -1 || true)
    [ -n "$seg" ] && [ "$(game_lines "$seg")" -ge 1 ] && n=$((n + 1))
  done
  [ $n = 4 ] && break
  sleep 0.1
done
[ $n = 4 ] || fail "the shards did not all start: $(cat "$TMP/faults.log")"
port=$(live_port "$TMP/faults.log")
grep -q -- '--web off' "$TMP/faults/slurm/shards.sbatch" || fail "the shards are not told to serve no page"
for _ in $(seq 100); do
  state=$(http_body "$port" /api/state)
  jq -e '.finished_total > 0 and (.status | contains("Slurm shards: "))' <<<"$state" >/dev/null 2>&1 && break
  sleep 0.2
done
jq -e '.finished_total > 0' <<<"$state" >/dev/null || fail "no finished game on the live page: ${state:0:400}"
jq -e '.standings | type == "object"' <<<"$state" >/dev/null || fail "no standings on the live page: ${state:0:400}"
jq -e '.status | contains("Slurm shards: ")' <<<"$state" >/dev/null ||
  fail "no shard states on the live page: ${state:0:400}"
game=$(jq -r '.finished[0].game' <<<"$state")
replay=$(http_body "$port" "/api/game/$game")
jq -e '.moves | length > 0' <<<"$replay" >/dev/null ||
  fail "game $game cannot be replayed from the live page: ${replay:0:300}"
pass "the follower's live page: $(jq -r .finished_total <<<"$state") finished games, standings, shard states, a replay"
array=$(sed -n 's/^array=//p' "$TMP/faults/slurm/jobs.txt")
# The victim must not be task 2: requeueing that one with scontrol below would replace the killed task before the
# coordinator saw it fail, and nothing would be left for the coordinator to requeue.
victim=
for p in $(pgrep -f -- "run --config $TMP/faults.yaml --shard auto .*--out $TMP/faults\$"); do
  task=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^SLURM_ARRAY_TASK_ID=//p')
  if [ -n "$task" ] && [ "$task" != 2 ]; then
    victim=$p
    break
  fi
done
[ -n "$victim" ] || fail "no shard runner process found outside task 2"
kill -9 "$victim"
scontrol requeue "${array}_2" || fail "scontrol requeue ${array}_2 failed"
wait $follower || fail "the followed faults run failed: $(tail -5 "$TMP/faults.log")"
! grep -l "Live page" "$TMP"/faults/slurm/shard-*.out || fail "a shard served a live page of its own"
grep -q "requeued" "$TMP/faults/slurm/coordinator.out" ||
  fail "the coordinator did not requeue the killed shard: $(cat "$TMP/faults/slurm/coordinator.out")"
check_pairs_once "$TMP/faults/journal.jsonl" 48
diff <(keys "$TMP/faults-local/journal.jsonl") <(keys "$TMP/faults/journal.jsonl") >"$TMP/diff" ||
  fail "after the faults the games differ from the local run: $(head -c 400 "$TMP/diff")"
segments=$(ls "$TMP"/faults/segments/*.jsonl | wc -l)
[ "$segments" -ge 6 ] || fail "expected at least 6 segments (2 restarted shards), found $segments"
pass "kill -9 of a shard runner (requeued by the coordinator) and scontrol requeue of another: 48 games, each once, the same as local ($segments segments)"
check_no_engines_left 1

# 3. An SPRT that decides early: engine b resigns at its first move. The local run and the cluster decide on the
# same complete prefix of pairs.
config "$TMP/sprt.yaml" 400 40 resign sprt
code=0
"$ARENA" run --config "$TMP/sprt.yaml" --out "$TMP/sprt-local" --concurrency 2 --json >"$TMP/sprt-local.json" \
  2>/dev/null || code=$?
[ "$code" = 0 ] || fail "the local SPRT did not accept H1 (exit $code)"
local_pairs=$(json_int "$TMP/sprt-local.json" prefix_pairs)
code=0
"$ARENA" slurm --config "$TMP/sprt.yaml" --out "$TMP/sprt" --shards 4 --poll 1 --grace 2 --json \
  >"$TMP/sprt.json" 2>"$TMP/sprt.log" || code=$?
[ "$code" = 0 ] || fail "the Slurm SPRT exited $code: $(tail -5 "$TMP/sprt.log")"
[ -f "$TMP/sprt/STOP" ] || fail "no STOP file"
cluster_pairs=$(json_int "$TMP/sprt.json" prefix_pairs)
[ "$cluster_pairs" = "$local_pairs" ] ||
  fail "the cluster decided on $cluster_pairs pairs, the local run on $local_pairs"
grep -q '"verdict":"H1"' "$TMP/sprt/STOP" || fail "STOP: $(cat "$TMP/sprt/STOP")"
played=$(game_lines "$TMP/sprt/journal.jsonl")
[ "$played" -lt 800 ] || fail "the array was not stopped early: $played games of 800"
decided=$(grep -m1 "SPRT decided" "$TMP/sprt/slurm/coordinator.out" | cut -c1-19)
over=$(grep -m1 "the shards are over" "$TMP/sprt/slurm/coordinator.out" | cut -c1-19)
stop_s=$(($(date -d "$over" +%s) - $(date -d "$decided" +%s)))
pass "SPRT through Slurm: H1 on the first $cluster_pairs pairs as locally; $played of 800 games played; ${stop_s} s from the decision to the last shard gone"
check_no_engines_left 1

# 4. An engine from a git ref: built once by the submitting command into OUT/builds, played by every shard from
# there (--prebuilt), each segment's header naming the same binary digest and the merged journal the commit.
engine_repo "$TMP/repo"
{
  echo "tournament: gauntlet"
  echo "rounds: 4"
  echo "engines:"
  echo "  - {name: a, git: $TMP/repo@strong, build: make, bin: bin/engine}"
  echo "  - {name: b, cmd: $MOCK, args: [--name, $TAG, --random, --seed, '7']}"
  echo "each: {tc: 10+0.1}"
  echo "openings: {file: $OPENINGS}"
  echo "output: {kifu: none}"
} >"$TMP/git.yaml"
"$ARENA" slurm --config "$TMP/git.yaml" --out "$TMP/git" --shards 2 --poll 1 --quiet >"$TMP/git.log" 2>&1 ||
  fail "slurm run of a git engine failed: $(tail -5 "$TMP/git.log")"
[ "$(grep -c '^building a ' "$TMP/git.log")" = 1 ] || fail "one build expected: $(cat "$TMP/git.log")"
grep -q -- "--prebuilt $TMP/git/slurm/prebuilt.tsv" "$TMP/git/slurm/shards.sbatch" || fail "the shards get no --prebuilt"
! grep -l '^building' "$TMP"/git/slurm/shard-*.out || fail "a shard built the engine again"
binary=$(cut -f5 "$TMP/git/slurm/prebuilt.tsv")
[[ "$binary" == "$TMP/git/builds/"*/src/bin/engine ]] || fail "the build is not in OUT/builds: $binary"
digest=$(sha256sum "$binary" | cut -d' ' -f1)
for seg in "$TMP"/git/segments/*.jsonl; do
  [ "$(head -1 "$seg" | jq -r '.files[] | select(.role=="a") | .sha256')" = "$digest" ] ||
    fail "segment $seg played another binary: $(head -1 "$seg")"
done
commit=$(git -C "$TMP/repo" rev-parse strong)
[ "$(head -1 "$TMP/git/journal.jsonl" | jq -r '.builds[0].commit')" = "$commit" ] ||
  fail "the merged journal lacks the commit: $(head -1 "$TMP/git/journal.jsonl")"
check_pairs_once "$TMP/git/journal.jsonl" 8
pass "a git engine through Slurm: built once into OUT/builds, both shards played sha256 ${digest:0:12}, commit ${commit:0:12} in the merged journal"
check_no_engines_left 1
