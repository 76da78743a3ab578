#!/usr/bin/env bash
# One generation of the learned evaluation, end to end: self-play data played with the current evaluation (or
# records already made, such as the data store's parts), a split by games, training, and an SPRT of the new weights
# against the current ones with our own runner.
#
#   scripts/train-eval.sh [OUT]          everything goes to OUT (default data/gen-<UTC time>); data stays out of git
#
# Knobs (environment), with their defaults:
#   CURRENT=            the weights the engine plays with now (empty: the ones built into it, engine/eval/
#                       default.kpev; `none`: the hand-written evaluation alone); the data is generated with them
#                       and the SPRT plays against them
#   INIT=               weights training starts from (default: CURRENT, or engine/eval/default.kpev when CURRENT
#                       is empty; `none`: zero tables on the hand-written evaluation)
#   DATA=               record files to train on instead of generating (space-separated, e.g. the store's parts:
#                       DATA="$(echo $S/part-000{1..6}.bin)"), packed with `shuffle` like generated data
#   MORE_DATA=          older record files to train on as well (e.g. the store's keys of earlier generations): packed
#                       apart, with dedup and every position of the validation set left out (`shuffle --exclude`), so
#                       that the validation loss measures only the newest data (DATA or the generated file)
#   POSITIONS=2000000 NODES=5000 THREADS=<CPUs>      gensfen (without DATA)
#   VALIDATION_FRACTION=0.05 DEDUP=on                shuffle: the share of games kept for validation, and each
#                       position once (self-play repeats positions: 17 % of the store's records are repeats)
#   EPOCHS=12 LAMBDA=0.5 LR=1.0 BATCH=16384 PAIRS=off SCALE=(fitted)       learn: the tables
#   KING_BUCKETS=off    on: the tables train a KP row per king region beside each king square's own (learn
#                       --king-buckets); the file holds their sums
#   TABLES=on           off: keep INIT's tables as they are (no OUT/weights.bin) and train only the network on top of
#                       them (needs NET=on); for tables that no longer gain on the data, as generation 8's on its own
#   NET=off NET_LR=0.00025 NET_EPOCHS=3 NET_BATCH=4096                     learn: NET=on trains the network on top of
#                       the tables (just trained, or INIT's with TABLES=off; frozen), and the candidate is then those
#                       weights
#   SPRT=on TC=2+0.05 ELO0=0 ELO1=10 ROUNDS=5000     the SPRT (both engines USI_Hash 64, one thread); SPRT=off stops
#                       after training (for a machine that is not quiet: play the SPRT later with the same command)
#   ENGINE=build/bin/shogi-arena-engine ARENA=build/bin/shogi-arena
# Steps whose output exists are skipped, so an interrupted run continues where it stopped (gensfen continues its
# file; the SPRT resumes its journal). Each training step logs to OUT/learn.log or OUT/learn-net.log.
# Exit code: 0 H1, 1 H0, 2 the SPRT did not decide (run again to continue it), 3 the SPRT could not run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
engine=${ENGINE:-$root/build/bin/shogi-arena-engine}
arena=${ARENA:-$root/build/bin/shogi-arena}
sprt=${SPRT:-on}
net=${NET:-off}
tables_train=${TABLES:-on}
die() { echo "train-eval.sh: $*" >&2; exit 1; }
[ -x "$engine" ] || die "build first (bash scripts/build.sh): no $engine"
[ "$sprt" = off ] || [ -x "$arena" ] || die "build first (bash scripts/build.sh): no $arena"
on_off() { [ "$2" = on ] || [ "$2" = off ] || die "$1=$2: expected on or off"; }
on_off SPRT "$sprt"
on_off NET "$net"
on_off PAIRS "${PAIRS:-off}"
on_off KING_BUCKETS "${KING_BUCKETS:-off}"
on_off DEDUP "${DEDUP:-on}"
on_off TABLES "$tables_train"
read -r -a data <<<"${DATA:-}"
for f in "${data[@]}"; do [ -f "$f" ] || die "DATA: $f: no such file"; done
read -r -a more_data <<<"${MORE_DATA:-}"
for f in "${more_data[@]}"; do [ -f "$f" ] || die "MORE_DATA: $f: no such file"; done
out=${1:-$root/data/gen-$(date -u +%Y%m%dT%H%M%SZ)}
current=${CURRENT:-}
# Checked before INIT, which defaults to it: a missing CURRENT is named as such, not as INIT.
[ -z "$current" ] || [ "$current" = none ] || [ -f "$current" ] || die "CURRENT: $current: no such file"
init=${INIT:-${current:-$root/engine/eval/default.kpev}}
[ "$init" = none ] && init=
[ -z "$init" ] || [ -f "$init" ] || die "INIT: $init: no such file"
if [ "$tables_train" = off ]; then
  [ "$net" = on ] || die "TABLES=off: nothing to train without NET=on"
  [ -n "$init" ] || die "TABLES=off: the network needs tables to start from (INIT=none given)"
fi
mkdir -p "$out"
log() { echo "train-eval: $(date -u +%H:%M:%S) $*" >&2; }

if [ ${#data[@]} = 0 ]; then
  eval_args=()
  [ -n "$current" ] && eval_args=(--eval-file "$current")
  log "generating ${POSITIONS:-2000000} positions at ${NODES:-5000} nodes into $out/data.bin"
  "$engine" gensfen --output "$out/data.bin" --positions "${POSITIONS:-2000000}" --nodes "${NODES:-5000}" \
    ${THREADS:+--threads "$THREADS"} --openings "$root/openings/balanced-24.sfen" --seed "$RANDOM" "${eval_args[@]}"
  data=("$out/data.bin")
fi

# Shuffle writes under a .part name, like learn below: a killed run leaves no file that looks done.
pack() {
  local output=$1 validation=$2 logfile=$3
  shift 3
  "$engine" shuffle --train "$output.part" --validation "$validation" --dedup "${DEDUP:-on}" "$@" | tee "$logfile"
  mv "$output.part" "$output"
}

if [ ! -f "$out/train.bin" ]; then
  log "packing ${#data[@]} file(s) by games: ${VALIDATION_FRACTION:-0.05} of them for validation, dedup ${DEDUP:-on}"
  pack "$out/train.bin" "$out/validation.bin" "$out/shuffle.log" \
    --validation-fraction "${VALIDATION_FRACTION:-0.05}" "${data[@]}"
fi
train=("$out/train.bin")
if [ ${#more_data[@]} != 0 ]; then
  if [ ! -f "$out/train-more.bin" ]; then
    log "packing ${#more_data[@]} more file(s) for training alone: dedup ${DEDUP:-on}, the validation set left out"
    # shuffle wants a validation file even for a fraction of 0: the empty one is not kept.
    pack "$out/train-more.bin" "$out/validation-more.bin" "$out/shuffle-more.log" \
      --validation-fraction 0 --exclude "$out/validation.bin" "${more_data[@]}"
    rm -f "$out/validation-more.bin"
  fi
  train+=("$out/train-more.bin")
fi

# Learn writes its output only at the end; the .part name keeps a killed run from leaving a file that looks done.
learn() {
  local output=$1 logfile=$2
  shift 2
  "$engine" learn --output "$output.part" --validation "$out/validation.bin" ${THREADS:+--threads "$THREADS"} \
    ${SCALE:+--scale "$SCALE"} "$@" "${train[@]}" | tee "$logfile"
  mv "$output.part" "$output"
}

tables=$out/weights.bin
if [ "$tables_train" = off ]; then
  tables=$init
  log "the tables: $init as they are (TABLES=off)"
elif [ ! -f "$out/weights.bin" ]; then
  init_args=()
  [ -n "$init" ] && init_args=(--init "$init")
  log "training the tables: ${EPOCHS:-12} epochs"
  learn "$out/weights.bin" "$out/learn.log" --epochs "${EPOCHS:-12}" --lambda "${LAMBDA:-0.5}" --lr "${LR:-1.0}" \
    --batch "${BATCH:-16384}" --pairs "${PAIRS:-off}" --king-buckets "${KING_BUCKETS:-off}" "${init_args[@]}"
fi
candidate=$tables

if [ "$net" = on ]; then
  if [ ! -f "$out/net.bin" ]; then
    log "training the network on top of the tables: ${NET_EPOCHS:-3} epochs, net-lr ${NET_LR:-0.00025}"
    learn "$out/net.bin" "$out/learn-net.log" --init "$tables" --net on --freeze-tables on \
      --net-lr "${NET_LR:-0.00025}" --epochs "${NET_EPOCHS:-3}" --lambda "${LAMBDA:-0.5}" --batch "${NET_BATCH:-4096}"
  fi
  candidate=$out/net.bin
fi

if [ "$sprt" = off ]; then
  log "trained: $candidate (SPRT=off: run the same command with SPRT=on on a quiet machine to play it)"
  exit 0
fi
old=(--engine "cmd=$engine" name=current)
[ -n "$current" ] && old+=("option.EvalFile=$current")
log "SPRT: $candidate against the current evaluation at ${TC:-2+0.05}"
code=0
"$arena" sprt --engine "cmd=$engine" name=new "option.EvalFile=$candidate" "${old[@]}" \
  --each "tc=${TC:-2+0.05}" option.USI_Hash=64 option.Threads=1 \
  --sprt "elo0=${ELO0:-0}" "elo1=${ELO1:-10}" --rounds "${ROUNDS:-5000}" \
  --openings "file=$root/openings/balanced-24.sfen" order=random --kifu none --out "$out/sprt" --resume \
  --json >"$out/sprt.json" || code=$?
# The runner's exit code 2 is an SPRT undecided at its cap, or an error before or while it played: with --json the
# progress and the summary still go to the terminal (stderr), and stdout holds a summary with "error":null only when
# the run went through.
case $code in
  0) log "H1: $candidate is stronger; make it the default (see README, The engine)" ;;
  1) log "H0: $candidate is not stronger" ;;
  *) if grep -q '"error":null' "$out/sprt.json"; then log "the SPRT did not decide (exit $code); run again to continue it"
     else log "the SPRT could not run (exit $code; the runner's error is above)"; code=3; fi ;;
esac
exit $code
