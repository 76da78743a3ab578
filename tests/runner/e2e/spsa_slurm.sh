#!/usr/bin/env bash
# One SPSA run across a real (local, single-node) Slurm: `shogi-arena slurm` with a config of `tournament: spsa`.
# The coordinator owns theta (OUT/spsa-theta.json), shards play their pairs and journal them without theta, the
# coordinator applies each once (OUT/spsa-applied.jsonl) and stops the array when all are applied.
# - 4 shards bring the mock's strength model from (20, 80) to within 10 of its optimum (60, 40), for 3 seeds.
# - Faults: kill -9 of one shard's runner (requeued by the coordinator) and scontrol requeue of another: no pair is
#   lost, none applied twice, none lost by an engine that died of the requeue's signal, and the merged journal
#   lists every pair once.
# Skipped (exit 77) where Slurm cannot be installed or started (not root, no package mirror).
source "$(dirname "$0")/lib.sh"

use_local_slurm

# config FILE PAIRS THINK_MS [SEED]
config() {
  cat >"$1" <<YAML
tournament: spsa
engines:
  - {name: m, cmd: $MOCK, args: [--name, $TAG, --optimum, "60,40", --think-ms, "$3"]}
each: {tc: 10+0.1}
openings: {file: $OPENINGS, order: random}
game: {max_plies: 200}
output: {kifu: none}
spsa:
  params: ["X,int,20,0,100,6,0.05", "Y,int,80,0,100,6,0.05"]
  pairs: $2
  seed: ${4:-1}
YAML
}
applied_once() {  # JOURNAL N: every pair 1..N exactly once
  local ks
  ks=$(jq -R -r 'fromjson? | select(has("spsa_pair")) | .spsa_pair' "$1" | sort -n)
  [ -z "$(uniq -d <<<"$ks")" ] || fail "$1: pairs applied twice: $(uniq -d <<<"$ks" | head -3 | tr '\n' ' ')"
  [ "$(grep -c . <<<"$ks")" = "$2" ] && [ "$(head -1 <<<"$ks")" = 1 ] && [ "$(tail -1 <<<"$ks")" = "$2" ] ||
    fail "$1: expected pairs 1..$2, found $(grep -c . <<<"$ks")"
}
distance() { jq -r '.theta | ((.[0] - 60) * (.[0] - 60) + (.[1] - 40) * (.[1] - 40)) | sqrt' "$1"; }

# 1. Convergence on 4 shards, 3 seeds.
for seed in 1 2 3; do
  run=$TMP/run-$seed
  config "$run.yaml" 300 0 "$seed"
  start=$(date +%s.%N)
  "$ARENA" slurm --config "$run.yaml" --out "$run" --shards 4 --poll 1 --status-interval 2 \
    >"$run.log" 2>&1 || fail "the slurm SPSA run failed: $(tail -8 "$run.log")"
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  applied_once "$run/spsa-applied.jsonl" 300
  applied_once "$run/journal.jsonl" 300
  d=$(distance "$run/spsa-theta.json")
  awk -v d="$d" 'BEGIN { exit !(d < 10) }' || fail "seed $seed: theta $(jq -c .theta "$run/spsa-theta.json") is $d from (60, 40)"
  grep -q "SPSA of m: 300 of 300 pairs applied" "$run.log" || fail "no tuned values at the end: $(tail -8 "$run.log")"
  grep -q "all 300 pairs applied" "$run/slurm/coordinator.out" || fail "the coordinator did not stop the run"
  pass "seed $seed, 4 shards in $seconds s: theta $(jq -c '[.theta[] | . * 10 | round / 10]' "$run/spsa-theta.json"), $d from the optimum"
done

# 2. Faults: kill -9 of a shard's runner, scontrol requeue of another task.
config "$TMP/faults.yaml" 120 8
"$ARENA" slurm --config "$TMP/faults.yaml" --out "$TMP/faults" --shards 4 --poll 1 --quiet >"$TMP/faults.log" 2>&1 &
follower=$!
for _ in $(seq 600); do
  [ -f "$TMP/faults/spsa-theta.json" ] && [ "$(jq -r .applied "$TMP/faults/spsa-theta.json" 2>/dev/null)" -ge 12 ] && break
  sleep 0.1
done
array=$(sed -n 's/^array=//p' "$TMP/faults/slurm/jobs.txt")
victim=
for p in $(pgrep -f -- "run --config $TMP/faults.yaml --shard auto .*--out $TMP/faults\$"); do
  task=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^SLURM_ARRAY_TASK_ID=//p')
  if [ -n "$task" ] && [ "$task" != 2 ]; then
    victim=$p
    break
  fi
done
[ -n "$victim" ] || fail "no shard runner process found outside task 2: $(tail -3 "$TMP/faults.log")"
kill -9 "$victim"
scontrol requeue "${array}_2" || fail "scontrol requeue ${array}_2 failed"
wait $follower || fail "the SPSA run with faults failed: $(tail -8 "$TMP/faults.log")"
grep -q "requeued" "$TMP/faults/slurm/coordinator.out" ||
  fail "the coordinator did not requeue the killed shard: $(cat "$TMP/faults/slurm/coordinator.out")"
applied_once "$TMP/faults/spsa-applied.jsonl" 120
applied_once "$TMP/faults/journal.jsonl" 120
disconnects=$(jq -R -c 'fromjson? | select(has("spsa_pair")) | .games[] | select(.termination == "disconnect") | .detail' \
  "$TMP/faults/spsa-applied.jsonl")
[ -z "$disconnects" ] || fail "engines killed by the batch system's signal were scored as losses: $disconnects"
segments=$(ls "$TMP"/faults/segments/*.jsonl | wc -l)
[ "$segments" -ge 6 ] || fail "expected at least 6 segments (2 restarted shards), found $segments"
pass "kill -9 of a shard runner and scontrol requeue of another: 120 pairs, each applied once ($segments segments)"
check_no_engines_left 1
