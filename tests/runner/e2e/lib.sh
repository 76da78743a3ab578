# Shared by the end-to-end tests: arguments, a scratch directory, checks. Sourced, not run.
#   <test>.sh ARENA MOCK ENGINE SOURCE_DIR
set -euo pipefail
ARENA=$1
MOCK=$2
ENGINE=$3
SOURCE_DIR=$4
TMP=$(mktemp -d "${TMPDIR:-/tmp}/arena-e2e.XXXXXX")
# A tag in every mock engine's command line, to find processes left behind.
TAG="e2e-$(basename "$0" .sh)-$$"
trap 'pkill -9 -f -- "$TAG" 2>/dev/null || true; rm -rf "$TMP"' EXIT

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

# json_int FILE KEY: the first integer value of "KEY": in FILE.
json_int() { grep -o "\"$2\":-\?[0-9]*" "$1" | head -1 | cut -d: -f2; }

# game_lines JOURNAL: the number of game lines (the header excluded).
game_lines() { grep -c '^{"game":' "$1" || true; }

# Fails if any game number appears twice among the journal's counted (non-replay) lines, or if the numbers are not
# exactly 0..N-1.
check_exactly_once() {
  local journal=$1 n=$2
  local ids
  ids=$(grep '^{"game":' "$journal" | grep -v '"replay":true' | grep -o '^{"game":[0-9]*' | cut -d: -f2 | sort -n)
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
