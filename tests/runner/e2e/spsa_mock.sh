#!/usr/bin/env bash
# shogi-arena spsa against the mock's strength model (--optimum 60,40: options X and Y, and the side farther from
# the optimum resigns sooner): from (20, 80), 300 pairs bring theta within 10 of the optimum for 3 seeds, at
# concurrency 1 and 2. A run killed with kill -9 and resumed gives the same theta, pair by pair, as one that was not.
# --then-sprt confirms the tune; bad parameters are one-line errors.
source "$(dirname "$0")/lib.sh"

# spsa OUT [ARGS...]: an SPSA run of the mock towards (60, 40) (with $MOCK_ARGS); the summary JSON in OUT.json.
MOCK_ARGS=
spsa() {
  local out=$1
  shift
  # shellcheck disable=SC2046,SC2086
  "$ARENA" spsa --engine $(mock m --optimum 60,40 $MOCK_ARGS) --param X=20,0,100,6,0.05 --param Y=80,0,100,6,0.05 \
    --each tc=10+0.1 --openings file="$OPENINGS" order=random --max-plies 200 --kifu none --out "$out" --json \
    --quiet "$@" >"$out.json" 2>"$out.err"
}
distance() { jq -r '[.params[] | .theta] | ((.[0] - 60) * (.[0] - 60) + (.[1] - 40) * (.[1] - 40)) | sqrt' "$1"; }

for concurrency in 1 2; do
  for seed in 1 2 3; do
    out=$TMP/c$concurrency-s$seed
    spsa "$out" --pairs 300 --seed "$seed" --concurrency "$concurrency" || fail "the run exited with $? ($(cat "$out.err"))"
    d=$(distance "$out.json")
    jq -e '.pairs_done == 300 and .faults.crashes + .faults.stalls + .faults.time_losses + .faults.illegal_moves == 0' \
      "$out.json" >/dev/null || fail "not 300 clean pairs: $(cat "$out.json")"
    [ "$(jq -R -c 'fromjson? | select(has("spsa_pair")) | .games[]' "$out/journal.jsonl" | wc -l)" = 600 ] ||
      fail "the journal does not hold 300 pairs of games"
    awk -v d="$d" 'BEGIN { exit !(d < 10) }' || fail "seed $seed, concurrency $concurrency: theta $(jq -c '[.params[].theta]' "$out.json") is $d from (60, 40)"
    pass "concurrency $concurrency, seed $seed: theta $(jq -c '[.params[].theta | . * 10 | round / 10]' "$out.json"), $d from the optimum"
  done
done
check_no_engines_left 0.5
grep -q '^X,int,[0-9]*,0,100,6,0.05$' "$TMP/c1-s1/tuned.params" || fail "tuned.params: $(cat "$TMP/c1-s1/tuned.params")"
"$ARENA" stats "$TMP/c1-s1/journal.jsonl" | grep -q "Games scored 600 of 600" || fail "stats does not read the journal"
"$ARENA" report "$TMP/c1-s1" >"$TMP/report.out" 2>&1 || fail "report: $(cat "$TMP/report.out")"

# Kill -9 in the middle, then --resume: theta after every pair is the uninterrupted run's (concurrency 1, a seed).
theta_trail() { jq -R -r 'fromjson? | select(has("spsa_pair")) | "\(.spsa_pair) \(.theta)"' "$1" | sort -n; }
MOCK_ARGS="--think-ms 1"  # slow enough to be killed in the middle
spsa "$TMP/whole" --pairs 120 --seed 4 --concurrency 1 || fail "the uninterrupted run failed"
spsa "$TMP/killed" --pairs 120 --seed 4 --concurrency 1 &
victim=$!
for _ in $(seq 300); do
  [ "$(jq -R 'fromjson? | select(has("spsa_pair"))' "$TMP/killed/journal.jsonl" 2>/dev/null | grep -c '^{')" -ge 30 ] && break
  sleep 0.1
done
# The runner itself (the function runs in a subshell of its own).
runner=$(pgrep -f -- "--out $TMP/killed --json" | head -1)
[ -n "$runner" ] && kill -9 "$runner" || fail "the run ended before it could be killed"
wait "$victim" 2>/dev/null || true
before=$(theta_trail "$TMP/killed/journal.jsonl" | wc -l)
[ "$before" -ge 30 ] && [ "$before" -lt 120 ] || fail "killed after $before pairs"
spsa "$TMP/killed" --pairs 120 --seed 4 --concurrency 1 --resume || fail "the resumed run failed ($(cat "$TMP/killed.err"))"
jq -e '.resumed_pairs > 0 and .pairs_done == 120' "$TMP/killed.json" >/dev/null || fail "resume: $(cat "$TMP/killed.json")"
diff <(theta_trail "$TMP/whole/journal.jsonl") <(theta_trail "$TMP/killed/journal.jsonl") >"$TMP/trail.diff" ||
  fail "theta after kill -9 and --resume differs from the uninterrupted run: $(head -4 "$TMP/trail.diff")"
pass "kill -9 after $before pairs, --resume: the same theta after each of the 120 pairs"
MOCK_ARGS=

# --then-sprt: the tuned values play the start values; near the optimum they win: H1, exit code 0 (as `sprt`).
spsa "$TMP/confirmed" --pairs 200 --seed 5 --concurrency 2 --then-sprt elo0=0 elo1=50 ||
  fail "the confirmed run exited with $? ($(tail -3 "$TMP/confirmed.err"))"
"$ARENA" stats "$TMP/confirmed/then-sprt/journal.jsonl" >"$TMP/then.txt" ||
  fail "the SPRT's journal does not say H1: $(cat "$TMP/then.txt")"
grep -q "m-tuned vs m-start" "$TMP/then.txt" || fail "the SPRT did not play m-tuned against m-start: $(cat "$TMP/then.txt")"
pass "--then-sprt: the tuned values beat the start values ($(grep -m1 'H1' "$TMP/then.txt" | sed 's/^ *//'))"

# The live page of a run: theta's charts' data, the boards, the finished games.
MOCK_ARGS="--think-ms 2"
spsa "$TMP/live" --pairs 150 --seed 6 --concurrency 2 --web 0 &
runner=$!
port=$(live_port "$TMP/live.err")
for _ in $(seq 100); do
  state=$(http_body "$port" /api/state)
  jq -e '.spsa.pairs_done >= 10 and (.boards | length) > 0' <<<"$state" >/dev/null 2>&1 && break
  sleep 0.1
done
jq -e '[.spsa.params[].name] == ["X", "Y"] and (.spsa.k | length) >= 10 and (.spsa.theta[0] | length) == (.spsa.k | length)
       and (.spsa.c[1] | length) == (.spsa.k | length) and .finished_total >= 20 and (.status | startswith("SPSA "))' \
  <<<"$state" >/dev/null || fail "the live page of the SPSA run: ${state:0:600}"
wait "$runner" || fail "the SPSA run with its page failed: $(tail -3 "$TMP/live.err")"
MOCK_ARGS=
pass "the live page: theta over $(jq '.spsa.k | length' <<<"$state") pairs, boards, $(jq .finished_total <<<"$state") finished games"

# Bad parameters: one line each, naming the parameter.
# shellcheck disable=SC2046
expect_error "parameter 'Z': engine 'm' has no option 'Z'" spsa --engine $(mock m --optimum 60,40) \
  --param Z=1,0,10,1 --pairs 2 --each tc=1+0.1 --out "$TMP/bad1"
# shellcheck disable=SC2046
expect_error "parameter 'X': the engine's spin option X takes 0..100" spsa --engine $(mock m --optimum 60,40) \
  --param X=50,-10,100,5 --pairs 2 --each tc=1+0.1 --out "$TMP/bad2"
printf 'X,int,20,0,100,6,0.05\nY,int,80,0\n' >"$TMP/bad.params"
# shellcheck disable=SC2046
expect_error "bad.params:2: expected name,start,min,max" spsa --engine $(mock m --optimum 60,40) --params "$TMP/bad.params" \
  --pairs 2 --each tc=1+0.1 --out "$TMP/bad3"
# shellcheck disable=SC2046
expect_error "spsa: how many game pairs" spsa --engine $(mock m --optimum 60,40) --param X=5,0,10,1 --each tc=1+0.1 \
  --out "$TMP/bad4"
# shellcheck disable=SC2046
expect_error "parameter 'X': the engine's option X is a spin, which takes whole numbers, and the range 0.2..0.8 holds" \
  spsa --engine $(mock m --optimum 60,40) --param X=0.5,0.2,0.8,0.1 --pairs 2 --each tc=1+0.1 --out "$TMP/bad5"
# shellcheck disable=SC2046
expect_error "max-replays: not for spsa" spsa --engine $(mock m --optimum 60,40) --param X=5,0,10,1 --pairs 2 \
  --each tc=1+0.1 --max-replays 2 --out "$TMP/bad7"
pass "bad parameters and settings refused with one line naming them"

# Through the built-in CSA server (the engines as CSA clients, their values sent before each game as directly): at
# one game at a time the pairs, their values and theta are those of the direct run, pair by pair. CSA clocks take
# whole seconds.
spsa_trail() { jq -R -r 'fromjson? | select(has("spsa_pair")) | "\(.spsa_pair) \(.plus) \(.minus) \(.result) \(.theta)"' "$1"; }
for via in "" --via-csa-server; do
  # shellcheck disable=SC2086
  spsa "$TMP/relay$via" --pairs 12 --seed 4 --concurrency 1 --each tc=10+1 $via ||
    fail "the SPSA run $via failed: $(cat "$TMP/relay$via.err")"
done
[ "$(spsa_trail "$TMP/relay--via-csa-server/journal.jsonl" | wc -l)" = 12 ] || fail "via the CSA server: not 12 pairs"
diff <(spsa_trail "$TMP/relay/journal.jsonl") <(spsa_trail "$TMP/relay--via-csa-server/journal.jsonl") >"$TMP/relay.diff" ||
  fail "via the CSA server, the pairs differ from the direct run's: $(head -5 "$TMP/relay.diff")"
pass "SPSA through the CSA server: the 12 pairs and theta of the direct run"

# fishtest's untyped lines, as Stockfish's TUNE prints them, are a params file too.
printf 'X,20,0,100,6,0.0500\nY,80,0,100,6.0,0.0500\n' >"$TMP/tune.params"
spsa "$TMP/tune" --params "$TMP/tune.params" --pairs 4 --seed 1 || fail "the TUNE-format run failed: $(cat "$TMP/tune.err")"
jq -e '.pairs_done == 4 and [.params[].name] == ["X", "Y"]' "$TMP/tune.json" >/dev/null || fail "TUNE format: $(cat "$TMP/tune.json")"
grep -q '^X,int,[0-9]*,0,100,6,0.05$' "$TMP/tune/tuned.params" || fail "tuned.params: $(cat "$TMP/tune/tuned.params")"
pass "a params file in the TUNE format (name,start,min,max,c_end,r_end)"

# A params file as an engine's options anywhere (params=FILE, as an SPSA run writes tuned.params): values far from
# the mock's optimum (100, 0) lose nearly every game to its defaults (50, 50); ignored, they would split them.
sed -e 's/^X,int,[0-9]*,/X,int,100,/' -e 's/^Y,int,[0-9]*,/Y,int,0,/' "$TMP/c1-s1/tuned.params" >"$TMP/far.params"
# shellcheck disable=SC2046
"$ARENA" gauntlet --engine $(mock far --optimum 60,40) params="$TMP/far.params" --engine $(mock default --optimum 60,40) \
  --each tc=10+0.1 --rounds 5 --concurrency 2 --openings file="$OPENINGS" --max-plies 200 --kifu none \
  --out "$TMP/params" --json --quiet >"$TMP/params.json" 2>"$TMP/params.err" ||
  fail "the gauntlet with params= failed: $(cat "$TMP/params.err")"
jq -e '.pairings[0] | .first == "far" and .wins <= 1' "$TMP/params.json" >/dev/null ||
  fail "params=: the far values were not played: $(jq -c '.pairings[0]' "$TMP/params.json")"
pass "params=far.params: $(jq '.pairings[0].wins' "$TMP/params.json") wins of 10 against the defaults"

# A run on one machine refuses an OUT holding a sharded run's segments (it would append to the wrong journal).
mkdir -p "$TMP/sharded/segments"
# shellcheck disable=SC2046
expect_error "holds the journal segments of a sharded run" spsa --engine $(mock m --optimum 60,40) --param X=5,0,10,1 \
  --pairs 2 --each tc=1+0.1 --out "$TMP/sharded" --resume

# A shard whose coordinator never publishes theta plays the pairs it may play without one, then gives up, its
# pairs journaled, its engines' logs in a folder of its own.
set +e
spsa "$TMP/orphan" --pairs 20 --seed 1 --shard 0/2 --concurrency 1 --coordinator-timeout 2 --engine-logs true
code=$?
set -e
[ "$code" = 2 ] || fail "the orphaned shard exited with $code: $(cat "$TMP/orphan.err")"
grep -q "spsa-theta.json: the coordinator has not published theta for [0-9]* s" "$TMP/orphan.err" ||
  fail "the orphaned shard did not say why it stopped: $(cat "$TMP/orphan.err")"
[ "$(jq -R 'fromjson? | select(has("spsa_pair")) | .spsa_pair' "$TMP"/orphan/segments/*.jsonl | tr '\n' ' ')" = "1 3 " ] ||
  fail "the orphaned shard did not journal pairs 1 and 3: $(ls "$TMP/orphan/segments")"
ls "$TMP"/orphan/logs/shard-0-of-2.*/m_-w1.stderr >/dev/null 2>&1 ||
  fail "the shard's engine logs are not in a folder of its own: $(find "$TMP/orphan/logs")"
pass "a shard without a coordinator gives up after --coordinator-timeout, its pairs journaled"
