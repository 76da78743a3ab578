#!/usr/bin/env bash
# Load on the CSA server: csa_server_bench (N x1 players, 12-move sennichite games, for S seconds at each N) against
# `shogi-arena serve`, then, with --shogi-server DIR (a checkout of shogi-server; Ruby with ruby-webrick), against
# the real shogi-server on the same machine, one after the other. Each server writes its records to a scratch
# folder. Prints one line per server and N: games per second and the move-to-opponent latency.
#
#   bash scripts/bench-csa-server.sh [--build DIR] [--shogi-server DIR] [--players "10 100 500"] [--seconds 20]
#                                    [--max-clients N]
#
# shogi-server serves at most WEBrick's MaxClients (100) connections at once; more wait in accept. --max-clients N
# runs a scratch copy with that one setting raised (said in the output), so that N = 500 can be compared at all.
# Run on a quiet machine (pause scripts/datagen.sh first).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
shogi_server=""
players="10 100 500"
seconds=20
max_clients=""
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --shogi-server) shogi_server=$2; shift 2 ;;
    --players) players=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --max-clients) max_clients=$2; shift 2 ;;
    *) echo "bench-csa-server: unknown argument $1" >&2; exit 2 ;;
  esac
done
bench=$build/bin/csa_server_bench
arena=$build/bin/shogi-arena
[ -x "$bench" ] && [ -x "$arena" ] || { echo "bench-csa-server: build first ($bench, $arena)" >&2; exit 2; }
scratch=$(mktemp -d /tmp/bench-csa-server.XXXXXX)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$scratch"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() {
  local i
  for ((i = 0; i < 100; i++)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "bench-csa-server: nothing listens on port $1" >&2
  return 1
}
stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $players; do
  port=$(free_port)
  rm -rf "$scratch/arena" && mkdir -p "$scratch/arena"
  "$arena" serve --listen "127.0.0.1:$port" --out "$scratch/arena" --log "$scratch/arena.log" \
    --max-connections $((n + 50)) >/dev/null 2>&1 &
  server_pid=$!
  wait_port "$port"
  printf 'shogi-arena serve   '
  "$bench" --port "$port" --players "$n" --seconds "$seconds" || { echo "(failed)"; tail -5 "$scratch/arena.log"; }
  stop_server
  if [ -n "$shogi_server" ]; then
    port=$(free_port)
    rm -rf "$scratch/sgs" && cp -r "$shogi_server" "$scratch/sgs"
    note=""
    if [ -n "$max_clients" ]; then
      sed -i "s/^  config\[:Port\]       = port$/  config[:Port]       = port\n  config[:MaxClients] = $max_clients/" "$scratch/sgs/shogi-server"
      note=" (MaxClients $max_clients)"
    fi
    (cd "$scratch/sgs" && exec ruby shogi-server --least-time-per-move 0 bench "$port" >/dev/null 2>&1) &
    server_pid=$!
    wait_port "$port"
    printf 'shogi-server%s   ' "$note"
    timeout $((seconds + 120)) "$bench" --port "$port" --players "$n" --seconds "$seconds" || echo "(failed or timed out)"
    stop_server
  fi
done
