#!/usr/bin/env bash
# scripts/train-eval.sh on records already made (DATA, the data store's way), CI-sized: two record files packed with
# dedup, the tables trained, the network trained on top of them, the candidate loaded over USI with its network, a
# second run that skips every step, the network alone on INIT's tables (TABLES=off), older records added for training
# alone (MORE_DATA), a one-round SPRT that resumes its journal, and one-line errors for bad knobs.
#   train_eval.sh ENGINE ARENA SOURCE_DIR
set -euo pipefail
engine=$1
arena=$2
source_dir=$3
script=$source_dir/scripts/train-eval.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
export ENGINE=$engine ARENA=$arena THREADS=2

"$engine" gensfen --output "$tmp/a.bin" --positions 6000 --nodes 200 --threads 2 --progress 0 --seed 5 \
  --openings "$source_dir/openings/balanced-24.sfen" >"$tmp/gensfen-a.log" 2>&1 || fail "gensfen: $(cat "$tmp/gensfen-a.log")"
"$engine" gensfen --output "$tmp/b.bin" --positions 6000 --nodes 200 --threads 2 --progress 0 --seed 6 \
  --openings "$source_dir/openings/balanced-24.sfen" >"$tmp/gensfen-b.log" 2>&1 || fail "gensfen: $(cat "$tmp/gensfen-b.log")"

out=$tmp/gen
knobs=(DATA="$tmp/a.bin $tmp/b.bin" VALIDATION_FRACTION=0.1 PAIRS=on KING_BUCKETS=on LR=0.25 EPOCHS=2 BATCH=1024 NET=on
  NET_EPOCHS=1 NET_BATCH=1024 SCALE=954.984)
env "${knobs[@]}" SPRT=off bash "$script" "$out" >"$tmp/run1.log" 2>&1 || fail "train-eval: $(tail -5 "$tmp/run1.log")"
for f in train.bin validation.bin shuffle.log weights.bin learn.log net.bin learn-net.log; do
  [ -s "$out/$f" ] || fail "no $f in $out: $(ls "$out")"
done
[ -e "$out/data.bin" ] && fail "gensfen ran although DATA was given"
grep -q "repeat" "$out/shuffle.log" || fail "shuffle did not dedup: $(cat "$out/shuffle.log")"
# Both files went in: the packed sets hold more positions than either file alone.
packed=$((($(stat -c %s "$out/train.bin") + $(stat -c %s "$out/validation.bin")) / 64))
[ "$packed" -gt 6000 ] || fail "only $packed positions packed from two files of 6000"
grep -q "scale K = 954.984 cp" "$out/learn.log" || fail "SCALE not passed: $(cat "$out/learn.log")"
grep -q "with pair terms near the kings" "$out/learn.log" || fail "PAIRS not passed: $(cat "$out/learn.log")"
grep -q "with a KP row per king region" "$out/learn.log" || fail "KING_BUCKETS not passed: $(cat "$out/learn.log")"
grep -q "with a network 16 wide (the tables frozen)" "$out/learn-net.log" || fail "net: $(cat "$out/learn-net.log")"
grep -q "trained: $out/net.bin" "$tmp/run1.log" || fail "the candidate is not the network: $(cat "$tmp/run1.log")"
head -c 8 "$out/net.bin" | grep -q SAKPEV3 || fail "net.bin is not a weights file with a network"

usi=$(printf 'usi\nsetoption name EvalFile value %s\nisready\nposition startpos\ngo nodes 3000\n' "$out/net.bin" |
  timeout 60 "$engine")
grep -q "info string EvalFile: $out/net.bin" <<<"$usi" || fail "the candidate did not load: $usi"
grep -q "^bestmove " <<<"$usi" || fail "no bestmove with the candidate: $usi"

# A second run finds every step done.
sums=$(cd "$out" && sha256sum train.bin weights.bin net.bin)
env "${knobs[@]}" SPRT=off bash "$script" "$out" >"$tmp/run2.log" 2>&1 || fail "second run: $(cat "$tmp/run2.log")"
grep -Eq "packing|training" "$tmp/run2.log" && fail "the second run did a step again: $(cat "$tmp/run2.log")"
[ "$(cd "$out" && sha256sum train.bin weights.bin net.bin)" = "$sums" ] || fail "the second run changed the outputs"

# TABLES=off: the network alone, on top of INIT's tables as they are. On the same packed sets, its starting loss is
# the built-in weights' (the network starts at zero), where the first run's network started from the trained tables'.
tables_off=$tmp/net-only
mkdir -p "$tables_off"
cp "$out/train.bin" "$out/validation.bin" "$tables_off/"
env "${knobs[@]}" TABLES=off SPRT=off bash "$script" "$tables_off" >"$tmp/run3.log" 2>&1 ||
  fail "TABLES=off: $(tail -5 "$tmp/run3.log")"
[ -e "$tables_off/weights.bin" ] && fail "TABLES=off trained the tables"
[ -s "$tables_off/net.bin" ] || fail "TABLES=off: no net.bin: $(ls "$tables_off")"
start_loss() { sed -n 's/.*validation loss at the start \([0-9.]*\).*/\1/p' "$1"; }
builtin_loss=$(start_loss "$out/learn.log")
[ -n "$builtin_loss" ] || fail "no starting loss in $(cat "$out/learn.log")"
[ "$(start_loss "$tables_off/learn-net.log")" = "$builtin_loss" ] ||
  fail "TABLES=off did not start from INIT ($builtin_loss): $(cat "$tables_off/learn-net.log")"
[ "$(start_loss "$out/learn-net.log")" != "$builtin_loss" ] || fail "the first run's network started from INIT too"

# MORE_DATA: older records packed apart for training alone, the validation set left out. Given DATA's own file, the
# exclusion must leave exactly DATA's training positions, and learn must train on both packed files.
more=$tmp/more
env DATA="$tmp/a.bin" MORE_DATA="$tmp/a.bin" VALIDATION_FRACTION=0.1 EPOCHS=1 BATCH=1024 SCALE=954.984 SPRT=off \
  bash "$script" "$more" >"$tmp/run4.log" 2>&1 || fail "MORE_DATA: $(tail -5 "$tmp/run4.log")"
[ -s "$more/train-more.bin" ] || fail "MORE_DATA: no train-more.bin: $(ls "$more")"
[ ! -e "$more/validation-more.bin" ] || fail "MORE_DATA: the empty validation-more.bin was left behind"
[ "$(stat -c %s "$more/train-more.bin")" = "$(stat -c %s "$more/train.bin")" ] ||
  fail "MORE_DATA: the validation set was not left out: $(cat "$more/shuffle-more.log")"
# Records, not positions, are counted as left out: each repeat of a validation position too.
left_out=$(sed -n 's/.* \([0-9]*\) positions of .*validation.bin left out.*/\1/p' "$more/shuffle-more.log")
[ "${left_out:-0}" -ge $(($(stat -c %s "$more/validation.bin") / 64)) ] ||
  fail "MORE_DATA: fewer left out than the validation set holds: $(cat "$more/shuffle-more.log")"
grep -q "^learn: $((2 * $(stat -c %s "$more/train.bin") / 64)) training positions" "$more/learn.log" ||
  fail "MORE_DATA: learn did not train on both files: $(head -1 "$more/learn.log")"

# The SPRT: one round (a game pair) cannot decide, so the script says so and exits 2; a second run resumes it.
code=0
env "${knobs[@]}" SPRT=on ROUNDS=1 TC=1+0.02 bash "$script" "$out" >"$tmp/sprt1.log" 2>&1 || code=$?
[ $code = 2 ] || fail "a one-round SPRT exited $code: $(tail -5 "$tmp/sprt1.log")"
grep -q "did not decide" "$tmp/sprt1.log" || fail "sprt: $(tail -3 "$tmp/sprt1.log")"
[ -f "$out/sprt/journal.jsonl" ] || fail "no SPRT journal: $(ls "$out/sprt")"
games=$(grep -c '"result"' "$out/sprt/journal.jsonl" || true)
[ "$games" -ge 2 ] || fail "the SPRT journal holds $games games"
# Run again, the journal's round is done: it resumes, plays nothing, and still cannot decide.
code=0
env "${knobs[@]}" SPRT=on ROUNDS=1 TC=1+0.02 bash "$script" "$out" >"$tmp/sprt2.log" 2>&1 || code=$?
[ $code = 2 ] || fail "the resumed SPRT exited $code: $(tail -5 "$tmp/sprt2.log")"
[ "$(grep -c '"result"' "$out/sprt/journal.jsonl")" = "$games" ] || fail "the resumed SPRT played again"
grep -q "did not decide" "$tmp/sprt2.log" || fail "resumed sprt: $(tail -3 "$tmp/sprt2.log")"
# An SPRT that cannot run (here: a time control the runner refuses) is not an undecided one.
code=0
env "${knobs[@]}" SPRT=on ROUNDS=1 TC=fast bash "$script" "$out" >"$tmp/sprt3.log" 2>&1 || code=$?
[ $code = 3 ] || fail "an SPRT with a broken time control exited $code: $(tail -3 "$tmp/sprt3.log")"
grep -q "the SPRT could not run (exit 2" "$tmp/sprt3.log" && grep -q "^shogi-arena: error: .*'fast'" "$tmp/sprt3.log" ||
  fail "sprt error: $(cat "$tmp/sprt3.log")"

# Bad knobs: one line each, nothing run.
for bad in "DATA=$tmp/missing.bin|train-eval.sh: DATA: $tmp/missing.bin: no such file" \
  "MORE_DATA=$tmp/missing.bin|train-eval.sh: MORE_DATA: $tmp/missing.bin: no such file" \
  "NET=yes|train-eval.sh: NET=yes: expected on or off" "SPRT=maybe|train-eval.sh: SPRT=maybe: expected on or off" \
  "ENGINE=$tmp/none|train-eval.sh: build first (bash scripts/build.sh): no $tmp/none" \
  "TABLES=maybe|train-eval.sh: TABLES=maybe: expected on or off" \
  "TABLES=off|train-eval.sh: TABLES=off: nothing to train without NET=on"; do
  msg=$(env "${bad%%|*}" bash "$script" "$tmp/bad" 2>&1) && fail "${bad%%|*} ran"
  [ "$msg" = "${bad#*|}" ] || fail "${bad%%|*}: '$msg'"
done
msg=$(env NET=on TABLES=off INIT=none bash "$script" "$tmp/bad" 2>&1) && fail "TABLES=off INIT=none ran"
[ "$msg" = "train-eval.sh: TABLES=off: the network needs tables to start from (INIT=none given)" ] ||
  fail "TABLES=off INIT=none: '$msg'"
# A missing INIT fails before anything runs, whether the tables train from it or the network stands on it.
for tables in on off; do
  msg=$(env DATA="$tmp/a.bin" NET=on TABLES=$tables INIT="$tmp/missing.kpev" bash "$script" "$tmp/bad" 2>&1) &&
    fail "TABLES=$tables with a missing INIT ran"
  [ "$msg" = "train-eval.sh: INIT: $tmp/missing.kpev: no such file" ] || fail "TABLES=$tables missing INIT: '$msg'"
done
# A missing CURRENT is named as CURRENT, though INIT defaults to it.
msg=$(env DATA="$tmp/a.bin" CURRENT="$tmp/missing.kpev" bash "$script" "$tmp/bad" 2>&1) && fail "a missing CURRENT ran"
[ "$msg" = "train-eval.sh: CURRENT: $tmp/missing.kpev: no such file" ] || fail "missing CURRENT: '$msg'"
[ -e "$tmp/bad" ] && fail "a bad knob made its output folder"
echo "train-eval: $packed positions packed, tables and network trained, SPRT journal of $games games"
