#!/usr/bin/env bash
# One generation of the learned evaluation, end to end: self-play data played with the current evaluation, a
# split by games, training, and an SPRT of the new weights against the current ones with our own runner.
#
#   scripts/train-eval.sh [OUT]          everything goes to OUT (default data/gen-<UTC time>); data stays out of git
#
# Knobs (environment), with their defaults:
#   CURRENT=            the weights the engine plays with now (empty: the ones built into it, engine/eval/
#                       default.kpev; `none`: the hand-written evaluation alone); the data is generated with them
#                       and the SPRT plays against them
#   INIT=               weights training starts from (default: CURRENT, or engine/eval/default.kpev when CURRENT
#                       is empty; `none`: zero tables on the hand-written evaluation)
#   POSITIONS=2000000 NODES=5000 THREADS=<CPUs>      gensfen
#   EPOCHS=12 LAMBDA=0.5 LR=1.0 BATCH=16384          learn
#   TC=2+0.05 ELO0=0 ELO1=10 ROUNDS=5000             the SPRT (both engines USI_Hash 64, one thread)
# Steps whose output exists are skipped, so an interrupted run continues where it stopped (gensfen continues its
# file; the SPRT resumes its journal).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
engine=$root/build/bin/shogi-arena-engine
arena=$root/build/bin/shogi-arena
[ -x "$engine" ] && [ -x "$arena" ] || { echo "train-eval.sh: build first (bash scripts/build.sh)" >&2; exit 1; }
out=${1:-$root/data/gen-$(date -u +%Y%m%dT%H%M%SZ)}
current=${CURRENT:-}
init=${INIT:-${current:-$root/engine/eval/default.kpev}}
[ "$init" = none ] && init=
mkdir -p "$out"
log() { echo "train-eval: $(date -u +%H:%M:%S) $*" >&2; }

eval_args=()
[ -n "$current" ] && eval_args=(--eval-file "$current")
log "generating ${POSITIONS:-2000000} positions at ${NODES:-5000} nodes into $out/data.bin"
"$engine" gensfen --output "$out/data.bin" --positions "${POSITIONS:-2000000}" --nodes "${NODES:-5000}" \
  ${THREADS:+--threads "$THREADS"} --openings "$root/openings/balanced-24.sfen" --seed "$RANDOM" "${eval_args[@]}"

if [ ! -f "$out/train.bin" ]; then
  log "splitting by games: 5 % for validation"
  "$engine" shuffle --train "$out/train.bin" --validation "$out/validation.bin" --validation-fraction 0.05 \
    "$out/data.bin"
fi

if [ ! -f "$out/weights.bin" ]; then
  init_args=()
  [ -n "$init" ] && init_args=(--init "$init")
  log "training ${EPOCHS:-12} epochs"
  "$engine" learn --output "$out/weights.bin.part" --validation "$out/validation.bin" --epochs "${EPOCHS:-12}" \
    --lambda "${LAMBDA:-0.5}" --lr "${LR:-1.0}" --batch "${BATCH:-16384}" ${THREADS:+--threads "$THREADS"} \
    "${init_args[@]}" "$out/train.bin" | tee "$out/learn.log"
  mv "$out/weights.bin.part" "$out/weights.bin"
fi

old=(--engine "cmd=$engine" name=current)
[ -n "$current" ] && old+=("option.EvalFile=$current")
log "SPRT: the new weights against the current evaluation at ${TC:-2+0.05}"
code=0
"$arena" sprt --engine "cmd=$engine" name=new "option.EvalFile=$out/weights.bin" "${old[@]}" \
  --each "tc=${TC:-2+0.05}" option.USI_Hash=64 option.Threads=1 \
  --sprt "elo0=${ELO0:-0}" "elo1=${ELO1:-10}" --rounds "${ROUNDS:-5000}" \
  --openings "file=$root/openings/balanced-24.sfen" order=random --kifu none --out "$out/sprt" --resume || code=$?
case $code in
  0) log "H1: $out/weights.bin is stronger; make it the default (see README, The engine)" ;;
  1) log "H0: $out/weights.bin is not stronger" ;;
  *) log "the SPRT did not decide (exit $code); run again to continue it" ;;
esac
exit $code
