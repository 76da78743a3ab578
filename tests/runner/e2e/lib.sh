# Shared by the end-to-end tests: arguments, a scratch directory, checks. Sourced, not run.
#   <test>.sh ARENA MOCK ENGINE SOURCE_DIR
set -euo pipefail
ARENA=$1
MOCK=$2
ENGINE=$3
SOURCE_DIR=$4
# Journals and summaries are read with jq, by field name: never by the order of a JSON object's members.
# A required test dependency: without it the whole e2e layer would pass unseen, so its absence is a failure.
if ! command -v jq >/dev/null; then
  echo "FAILED: jq is not installed (bash scripts/install-deps.sh --test installs it)"
  exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/arena-e2e.XXXXXX")
# A tag in every mock engine's command line, to find processes left behind.
TAG="e2e-$(basename "$0" .sh)-$$"
# on_exit COMMAND: run COMMAND when the test ends, however it ends (before the scratch directory goes). A test stops
# every service it started, and leaves alone one that was running before it.
EXIT_COMMANDS=()
on_exit() { EXIT_COMMANDS+=("$1"); }
at_exit() {
  local c
  for c in "${EXIT_COMMANDS[@]}"; do eval "$c" || true; done
  pkill -9 -f -- "$TAG" 2>/dev/null || true
  [ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"
}
trap at_exit EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
pass() { echo "ok: $*"; }

# mock NAME [ARGS...]: an --engine argument list for the mock engine (for unquoted $(mock ...): no spaces).
mock() {
  local name=$1 a
  shift
  printf '%s ' "cmd=$MOCK" "name=$name" "arg=--name" "arg=$TAG"
  for a in "$@"; do printf '%s ' "arg=$a"; done
}

# The openings shipped with the repository.
OPENINGS=${OPENINGS:-$SOURCE_DIR/openings/balanced-24.sfen}

# json_int FILE KEY: the first number of a member named KEY in the JSON document in FILE (depth first).
json_int() { jq -r --arg k "$2" 'first(.. | objects | select(has($k)) | .[$k] | numbers)' "$1"; }

# journal_games JOURNAL [FILTER]: the journal's game lines (the header excluded) through the jq FILTER (default:
# the line itself), one output per line. A torn last line (kill -9 during a write) is skipped, as the runner does.
journal_games() { jq -R -c "fromjson? | select(has(\"game\")) | ${2:-.}" "$1"; }

# game_lines JOURNAL: the number of game lines (the header excluded).
game_lines() { if [ -f "$1" ]; then journal_games "$1" | wc -l; else echo 0; fi; }

# Fails if any game number appears twice among the journal's counted (non-replay) lines, or if the numbers are not
# exactly 0..N-1.
check_exactly_once() {
  local journal=$1 n=$2
  local ids
  ids=$(journal_games "$journal" 'select(.replay != true) | .game' | sort -n)
  local dups
  dups=$(printf '%s\n' "$ids" | uniq -d | head -5 | tr '\n' ' ')
  [ -z "$dups" ] || fail "games journaled twice: $dups"
  [ "$(printf '%s\n' "$ids" | grep -c .)" = "$n" ] || fail "expected $n games, found $(printf '%s\n' "$ids" | grep -c .)"
  [ "$(printf '%s\n' "$ids" | head -1)" = 0 ] && [ "$(printf '%s\n' "$ids" | tail -1)" = $((n - 1)) ] ||
    fail "game numbers are not 0..$((n - 1))"
}

# No engine process of this test may outlive the runner.
check_no_engines_left() {
  sleep "${1:-0}"
  if pgrep -f -- "$TAG" >/dev/null; then
    pgrep -af -- "$TAG" >&2
    fail "engine processes left behind"
  fi
}

# wait_lines JOURNAL N TIMEOUT_S: until the journal has N game lines.
wait_lines() {
  local i
  for ((i = 0; i < $3 * 10; i++)); do
    [ -f "$1" ] && [ "$(game_lines "$1")" -ge "$2" ] && return 0
    sleep 0.1
  done
  fail "the journal did not reach $2 games in $3 s"
}

# expect_error PATTERN ARGS...: shogi-arena ARGS must fail with exit code 2 and one line on stderr matching PATTERN.
expect_error() {
  local pattern=$1
  shift
  set +e
  "$ARENA" "$@" >"$TMP/err.out" 2>"$TMP/err.log"
  local rc=$?
  set -e
  [ $rc = 2 ] || fail "'$*' exited with $rc, expected 2 ($(cat "$TMP/err.log"))"
  [ "$(wc -l <"$TMP/err.log")" = 1 ] || fail "'$*' printed more than one line: $(cat "$TMP/err.log")"
  grep -q -- "$pattern" "$TMP/err.log" || fail "'$*': expected '$pattern' in: $(cat "$TMP/err.log")"
}

# http PORT REQUEST: the raw answer of the server on 127.0.0.1:PORT to a raw request (printf %b escapes; bash's
# /dev/tcp: no curl needed).
http() {
  local answer
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf '%b' "$2" >&3 || true
  answer=$(timeout 5 cat <&3 || true)
  exec 3<&- 3>&-
  printf '%s' "$answer"
}
# http_get PORT TARGET: the raw answer of a GET of TARGET.
http_get() { http "$1" "GET $2 HTTP/1.1\r\nConnection: close\r\n\r\n"; }
# http_body PORT TARGET: the body alone of a GET of TARGET (the JSON of /api/...).
http_body() { http_get "$1" "$2" | sed '1,/^\r\{0,1\}$/d'; }

# live_port FILE: the port of the "Live page: http://127.0.0.1:PORT/" line a runner wrote to FILE, waiting up to 10 s
# for it; fails the test without one.
live_port() {
  local port= i
  for ((i = 0; i < 100; i++)); do
    port=$(grep -o 'Live page: http://127.0.0.1:[0-9]*/' "$1" 2>/dev/null | grep -o '[0-9]*/$' | tr -d / || true)
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || fail "no 'Live page:' line in $1: $(cat "$1" 2>/dev/null)"
  echo "$port"
}

# start_chromium: headless Chromium with its DevTools protocol on a port of the system's choice, profile in
# $TMP/chrome (its processes carry that path: stop_chromium finds them by it); sets DEVTOOLS to the port.
start_chromium() {
  chromium --headless --no-sandbox --disable-gpu --remote-debugging-port=0 --user-data-dir="$TMP/chrome" \
    --window-size=1280,1500 "--name=$TAG" about:blank 2>"$TMP/chrome.err" &
  DEVTOOLS=
  local i
  for ((i = 0; i < 200; i++)); do
    DEVTOOLS=$(grep -o 'ws://127.0.0.1:[0-9]*/' "$TMP/chrome.err" | head -1 | grep -o '[0-9]*/$' | tr -d / || true)
    [ -n "$DEVTOOLS" ] && return 0
    sleep 0.1
  done
  fail "Chromium did not start: $(tail -5 "$TMP/chrome.err")"
}
stop_chromium() {
  pkill -9 -f -- "$TMP/chrome" 2>/dev/null || true
  local i
  for ((i = 0; i < 50; i++)); do pgrep -f -- "$TMP/chrome" >/dev/null || break; sleep 0.1; done
}

# engine_repo DIR: a git repository holding a tiny USI engine built by `make` into bin/engine: a shell wrapper of
# the mock engine that prints a fixed bench ("Nodes searched" NODES, "Nodes/second" 500000). Two commits: tag
# `strong` (bench 1234, seeded random moves) and HEAD (bench 999, resigns at once). Skips the test without git/make.
engine_repo() {
  local repo=$1
  command -v git >/dev/null || { echo "SKIPPED: git is not installed"; exit 77; }
  command -v make >/dev/null || { echo "SKIPPED: make is not installed"; exit 77; }
  git init -q "$repo"
  printf 'bin/engine: engine.in\n\tmkdir -p bin && cp engine.in bin/engine && chmod +x bin/engine\n' >"$repo/Makefile"
  engine_script "$repo/engine.in" 1234 --random --seed 1
  git -C "$repo" add .
  git -C "$repo" -c user.name=test -c user.email=test@example.org commit -qm strong
  git -C "$repo" tag strong
  engine_script "$repo/engine.in" 999 --behavior resign
  git -C "$repo" -c user.name=test -c user.email=test@example.org commit -qam weak
}
engine_script() {  # engine_script FILE NODES MOCK-ARGS...
  local file=$1 nodes=$2
  shift 2
  cat >"$file" <<SCRIPT
#!/bin/sh
if [ "\$1" = bench ]; then echo "Total time (ms) : 10"; echo "Nodes searched  : $nodes"; echo "Nodes/second    : 500000"; exit 0; fi
exec "$MOCK" --name "$TAG" $* "\$@"
SCRIPT
}

# use_local_slurm: a local single-node Slurm (scripts/local-slurm.sh) for this test, or exit 77 (skipped) where it
# cannot be started (not root, no package mirror). One this test started is stopped when it ends (its daemons,
# ports 6817/6818); one that was up is left up.
use_local_slurm() {
  if [ "$(id -u)" != 0 ]; then
    echo "SKIPPED: starting a local Slurm needs root"
    exit 77
  fi
  local was_up=0
  bash "$SOURCE_DIR/scripts/local-slurm.sh" status >/dev/null 2>&1 && was_up=1
  if ! bash "$SOURCE_DIR/scripts/local-slurm.sh" start >"$TMP/slurm-start.log" 2>&1; then
    echo "SKIPPED: no local Slurm: $(tail -1 "$TMP/slurm-start.log")"
    exit 77
  fi
  [ "$was_up" = 1 ] || on_exit 'bash "$SOURCE_DIR/scripts/local-slurm.sh" stop >/dev/null 2>&1'
}
