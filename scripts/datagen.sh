#!/usr/bin/env bash
# The self-play data store: a background job that generates training positions for the learned evaluation, part
# by part, into a store outside the repository, so that data accumulates from one working day to the next.
#
#   scripts/datagen.sh start      start (or continue) generating in the background, niced; returns at once
#   scripts/datagen.sh pause      stop using the CPU (SIGSTOP) for a benchmark, a strength match or CI
#   scripts/datagen.sh resume     continue after pause
#   scripts/datagen.sh stop       end it (the game in progress is dropped; `start` continues the part)
#   scripts/datagen.sh status     what is running, and the store's parts and positions per generation key
#   scripts/datagen.sh run        the loop itself, in the foreground (what `start` runs)
#
# The store: $SHOGI_ARENA_DATA, default ~/.local/share/shogi-arena/selfplay. One folder per generation key, the
# things that make positions comparable: the weights' sha256 (the built-in ones unless EVAL_FILE is set), the
# node limit and the openings file, e.g. w1a2b3c4d5e6-n4000-balanced-24/. In it:
#   engine           the engine binary that plays (copied at start, so a rebuild does not change a part midway)
#   weights.kpev     the weights it plays with (a copy; `--eval-file` is given this file)
#   part-NNNN.bin    PART_SIZE records each (gensfen's 64-byte records; files concatenate)
#   manifest.tsv     one line per finished part: what generated it (commit, weights, nodes, openings, seed, time)
# A killed or stopped run loses at most the game in progress: gensfen continues a part's file, and a part enters
# the manifest only when it is whole. Parts are raw; `shuffle --dedup on` removes repeated positions when a training
# set is packed from them (see README, The data store). If the store is lost, `start` on the same commit with the
# same knobs rebuilds one like it (the manifest's seed column gives each part's seed).
#
# Knobs (environment), with their defaults:
#   NODES=4000 THREADS=<CPUs> PART_SIZE=250000 PARTS=400 (then stop) OPENINGS=openings/balanced-24.sfen
#   EVAL_FILE=  (built-in weights)  NICE=19  ENGINE=build/bin/shogi-arena-engine (the binary a new key copies)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
store=${SHOGI_ARENA_DATA:-${XDG_DATA_HOME:-$HOME/.local/share}/shogi-arena/selfplay}
nodes=${NODES:-4000}
part_size=${PART_SIZE:-250000}
parts=${PARTS:-400}
openings=${OPENINGS:-$root/openings/balanced-24.sfen}
eval_file=${EVAL_FILE:-$root/engine/eval/default.kpev}
engine=${ENGINE:-$root/build/bin/shogi-arena-engine}
pidfile=$store/datagen.pid
log() { echo "datagen: $(date -u +%FT%TZ) $*"; }
die() { echo "datagen: $*" >&2; exit 1; }

key_dir() {
  local wsha osha
  wsha=$(sha256sum "$eval_file" | cut -c1-12)
  osha=$(basename "$openings" .sfen)
  echo "$store/w$wsha-n$nodes-$osha"
}

# "PID STATE" of the job while it lives (STATE is ps's: R, S, T when paused, ...). One ps call answers whether it
# lives, how, and whether it is the job: with a kill -0 before it, a job that ended between the two looks made ps
# fail and status exit with nothing said. A job that has exited but is not yet reaped (a zombie, Z) is not running.
# The pid file keeps the job's start time beside its pid: a job that died with its machine leaves a pid that a new
# process may have been given, and stop would signal that process's group. A pid file of an older script, without
# the time, is trusted only while the process runs this script's `run`.
job_state() {
  local pid started state
  read -r pid started 2>/dev/null <"$pidfile" || [ -n "${pid:-}" ] || return 1
  local seen
  seen=$(ps_job "$pid") || return 1
  read -r state _ <<<"$seen"
  [[ $state != Z* ]] || return 1
  if [ -n "$started" ]; then
    [ "$(ps_start_of "$seen")" = "$started" ] || return 1
  else
    [[ $seen == *datagen.sh\ run ]] || return 1
  fi
  echo "$pid $state"
}

# "STATE START ARGS" of a process, its start time (ps's lstart, five words) in one locale and zone whatever the
# caller's, so that the time the pid file keeps compares equal later; ps_start_of picks that time out of the line.
ps_job() { LC_ALL=C TZ=UTC ps -o stat=,lstart=,args= -p "$1" 2>/dev/null; }
ps_start_of() { awk '{ print $2, $3, $4, $5, $6 }' <<<"$1"; }

running_pid() {
  local job
  job=$(job_state) || return 1
  echo "${job%% *}"
}

run_loop() {
  [ -x "$engine" ] || die "build first (bash scripts/build.sh): no $engine"
  [ -f "$eval_file" ] || die "EVAL_FILE $eval_file: no such file"
  [ -f "$openings" ] || die "OPENINGS $openings: no such file"
  local dir
  dir=$(key_dir)
  mkdir -p "$dir"
  # The first start of a key fixes its engine; later starts keep it (the manifest names its commit).
  if [ ! -x "$dir/engine" ]; then
    cp "$engine" "$dir/engine.part" && mv "$dir/engine.part" "$dir/engine"
    cp "$eval_file" "$dir/weights.kpev"
    git -C "$root" rev-parse HEAD > "$dir/commit" 2>/dev/null || echo unknown > "$dir/commit"
  fi
  [ -f "$dir/manifest.tsv" ] ||
    printf 'part\trecords\tseed\tcommit\tweights_sha256\tnodes\topenings\topenings_sha256\tfinished\tseconds\n' \
      > "$dir/manifest.tsv"
  local wsha osha commit
  wsha=$(sha256sum "$dir/weights.kpev" | cut -d' ' -f1)
  osha=$(sha256sum "$openings" | cut -d' ' -f1)
  commit=$(cat "$dir/commit")
  trap 'log "stopping"; [ -n "${child:-}" ] && kill -TERM "$child" 2>/dev/null; wait; exit 130' TERM INT
  for ((i = 1; i <= parts; ++i)); do
    local name seed
    name=$(printf 'part-%04d' "$i")
    grep -q "^$name	" "$dir/manifest.tsv" && continue
    seed=$((i * 7919 + nodes))
    log "$dir/$name.bin: generating $part_size positions at $nodes nodes (seed $seed)"
    local t0=$SECONDS
    "$dir/engine" gensfen --output "$dir/$name.bin" --positions "$part_size" --nodes "$nodes" \
      ${THREADS:+--threads "$THREADS"} --openings "$openings" --eval-file "$dir/weights.kpev" --seed "$seed" \
      --progress 300 &
    child=$!
    local code=0
    wait "$child" || code=$?
    child=
    [ $code = 0 ] || die "gensfen exited $code on $name; run start again to continue it"
    local records=$(($(stat -c %s "$dir/$name.bin") / 64))
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$records" "$seed" "$commit" "$wsha" "$nodes" \
      "$(basename "$openings")" "$osha" "$(date -u +%FT%TZ)" $((SECONDS - t0)) >> "$dir/manifest.tsv"
    log "$name done: $records records in $((SECONDS - t0)) s"
  done
  log "all $parts parts done"
}

case "${1:-status}" in
  run)
    # setsid gives the job a session, and with the kernel's autogroup scheduling (on where
    # /proc/sys/kernel/sched_autogroup_enabled is 1) a session of its own gets an equal share of the CPU whatever its
    # nice value: a niced gensfen then halved the speed of a test run beside it (byoyomi probes overran by
    # seconds). The autogroup's own nice value is what yields to the other sessions.
    echo "${NICE:-19}" > "/proc/$$/autogroup" 2>/dev/null || true
    run_loop
    ;;
  start)
    if pid=$(running_pid); then echo "datagen: already running (pid $pid)"; exit 0; fi
    mkdir -p "$store"
    setsid nice -n "${NICE:-19}" "$0" run >> "$store/datagen.log" 2>&1 < /dev/null &
    echo "$! $(ps_start_of "$(ps_job $!)")" > "$pidfile"
    echo "datagen: started (pid $!), store $store, log $store/datagen.log"
    ;;
  pause | resume | stop)
    pid=$(running_pid) || { echo "datagen: not running"; exit 0; }
    sig=STOP; [ "$1" = resume ] && sig=CONT; [ "$1" = stop ] && sig=TERM
    [ "$1" = stop ] && kill -CONT -- "-$pid" 2>/dev/null || true
    kill -"$sig" -- "-$pid"
    echo "datagen: $1 (process group $pid)"
    ;;
  status)
    if job=$(job_state); then
      read -r pid state <<< "$job"
      [[ $state == T* ]] && echo "datagen: paused (pid $pid)" || echo "datagen: running (pid $pid)"
    else
      echo "datagen: not running"
    fi
    echo "store: $store"
    for d in "$store"/*/; do
      [ -f "$d/manifest.tsv" ] || continue
      whole=$(awk -F'\t' 'NR > 1 { n += $2 } END { print n + 0 }' "$d/manifest.tsv")
      nparts=$(($(wc -l < "$d/manifest.tsv") - 1))
      all=$(cat "$d"/part-*.bin 2>/dev/null | wc -c)
      echo "  $(basename "$d"): $nparts whole parts, $whole records in them, $((all / 64)) records in all"
    done
    ;;
  *) sed -n '2,26p' "$0" >&2; exit 2 ;;
esac; exit $?  # in the same statement: bash has read all it runs, so an edit beside a job is harmless
