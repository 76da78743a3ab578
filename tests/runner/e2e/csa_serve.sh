#!/usr/bin/env bash
# `shogi-arena serve` and `shogi-arena csa` from the command line, over real sockets on 127.0.0.1: two clients
# (mock random movers, then the built-in engine against a mock) play through the server in CSA and x1 mode; the
# server's record, its 00LIST line and both clients' records agree on every move and on the ending; command-line
# mistakes are one-line errors with exit code 2; Ctrl-C stops the server cleanly. The server's live page (--web)
# shows the game on a board while it is played, then lists it, replayable.
source "$(dirname "$0")/lib.sh"

# start_server DIR [ARGS...]: runs a server on an ephemeral port in the background; sets SERVER_PID and PORT.
start_server() {
  local dir=$1
  shift
  mkdir -p "$dir"
  "$ARENA" serve --listen 127.0.0.1:0 --out "$dir" --log "$dir/server.log" --log-traffic "$@" >"$dir/serve.out" 2>&1 &
  SERVER_PID=$!
  local i
  for ((i = 0; i < 50; i++)); do
    PORT=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$dir/serve.out" 2>/dev/null | grep -o '[0-9]*$' || true)
    [ -n "$PORT" ] && return 0
    sleep 0.1
  done
  fail "the server did not start: $(cat "$dir/serve.out")"
}

stop_server() {
  kill -INT "$SERVER_PID"
  local i
  for ((i = 0; i < 50; i++)); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$SERVER_PID" 2>/dev/null && fail "the server did not stop within 5 s of SIGINT"
  wait "$SERVER_PID" || fail "the server exited with $? after SIGINT"
}

# moves_of RECORD: the move lines of a CSA record, one per line.
moves_of() { grep -E '^[+-][0-9]{4}[A-Z]{2}' "$1" | cut -c1-7; }

# --- 1. CSA mode, two mock random movers, Max_Moves ends the game; the live page meanwhile ----------------------
start_server "$TMP/srv" --max-moves 40 --web 0
web=$(live_port "$TMP/srv/serve.out")
# shellcheck disable=SC2046
"$ARENA" csa --port "$PORT" --user alice --game e2e-60-1F --turn + --margin 100 --out "$TMP/alice" \
  --engine $(mock a --random --seed 1 --think-ms 100) >"$TMP/alice.out" 2>&1 &
alice=$!
# shellcheck disable=SC2046
"$ARENA" csa --port "$PORT" --user bob --game e2e-60-1F --turn - --margin 100 --out "$TMP/bob" \
  --engine $(mock b --random --seed 2 --think-ms 100) >"$TMP/bob.out" 2>&1 &
bob=$!
board=
for _ in $(seq 100); do
  state=$(http_body "$web" /api/state)
  board=$(jq -c '.boards[] | select(.game == 0 and .black == "alice" and .white == "bob" and (.moves | length) >= 2)' \
    <<<"$state" 2>/dev/null || true)
  [ -n "$board" ] && break
  sleep 0.1
done
[ -n "$board" ] || fail "no board of alice against bob on the live page: ${state:0:500}"
[ "$(jq -r .status <<<"$state")" = "CSA server on 127.0.0.1: 1 game in progress, 0 finished" ] ||
  fail "the page's status: ${state:0:300}"
wait $bob || fail "bob's client exited with $? ($(cat "$TMP/bob.out"))"
wait $alice || fail "alice's client exited with $? ($(cat "$TMP/alice.out"))"
for _ in $(seq 30); do
  state=$(http_body "$web" /api/state)
  [ "$(jq -r .finished_total <<<"$state" 2>/dev/null)" = 1 ] && break
  sleep 0.1
done
jq -e '(.boards | length) == 0 and (.finished[0] | .game == 0 and .black == "alice" and .white == "bob" and
        .result == "draw" and .termination == "max-moves")' <<<"$state" >/dev/null ||
  fail "the finished game is not listed: ${state:0:600}"
replay=$(http_body "$web" /api/game/0)
[ "$(jq '.moves | length' <<<"$replay")" = 40 ] ||
  fail "the replay does not have 40 moves: ${replay:0:300}"
pass "serve --web: the game on a board while it was played, then listed and replayable (40 moves)"

grep -q "MAX_MOVES" "$TMP/alice.out" || fail "alice did not see #MAX_MOVES: $(cat "$TMP/alice.out")"
grep -q "session over: 1 games, +0 -0 =1" "$TMP/bob.out" || fail "bob's session is not one draw: $(cat "$TMP/bob.out")"
server_record=$(find "$TMP/srv" -name '*.csa' | head -1)
[ -n "$server_record" ] || fail "the server wrote no record"
grep -q $'\tmax_moves\t' "$TMP/srv/00LIST" || fail "00LIST has no max_moves line: $(cat "$TMP/srv/00LIST")"
[ "$(moves_of "$server_record" | wc -l)" = 40 ] || fail "the server's record has $(moves_of "$server_record" | wc -l) moves, not 40"
for who in alice bob; do
  client_record=$(find "$TMP/$who" -name '*.csa' | head -1)
  [ -n "$client_record" ] || fail "$who wrote no record"
  diff <(moves_of "$server_record") <(moves_of "$client_record") >/dev/null ||
    fail "$who's record differs from the server's"
done
grep -q "LOGIN alice" "$TMP/srv/server.log" || fail "the traffic log has no LOGIN"
pass "CSA mode: 40 moves to #MAX_MOVES, server and client records agree"

# --- 2. x1 mode: the built-in engine (black) against a mock resigner, two games on one connection ---------------
# shellcheck disable=SC2046
"$ARENA" csa --port "$PORT" --mode x1 --user engine --password pw --game x1game-10-0F --turn + --games 2 \
  --margin 100 --out "$TMP/engine" --set engine.options.USI_Hash=16 >"$TMP/engine.out" 2>&1 &
engine=$!
# shellcheck disable=SC2046
"$ARENA" csa --port "$PORT" --mode x1 --user resigner --password pw --game x1game-10-0F --turn - --games 2 \
  --margin 100 --out "$TMP/resigner" --engine $(mock r --behavior resign) >"$TMP/resigner.out" 2>&1 ||
  fail "the resigner's client exited with $? ($(cat "$TMP/resigner.out"))"
wait $engine || fail "the engine's client exited with $? ($(cat "$TMP/engine.out"))"
grep -q "session over: 2 games, +2 -0 =0" "$TMP/engine.out" || fail "the engine did not win both: $(cat "$TMP/engine.out")"
[ "$(grep -c $'\ttoryo\t' "$TMP/srv/00LIST")" = 2 ] || fail "00LIST lacks the two resignations"
grep -q "^'\*\*" "$(find "$TMP/engine" -name '*.csa' | head -1)" || fail "the engine's record has no '** comments"
pass "x1 mode: two games on one connection, both won by the built-in engine"

stop_server
grep -q "listening" "$TMP/srv/serve.out" || fail "no listening line"
pass "SIGINT stops the server (exit 0)"

# --- 3. Command-line mistakes: one line, exit code 2 -------------------------------------------------------------
expect_error "expected a port" serve --listen 127.0.0.1:99999
expect_error "IPv6" serve --listen ::1:4081
expect_error "unknown key 'server.hots'" csa --user u --game g-1-1 --set server.hots=x
expect_error "the server sets the time control" csa --user u --game g-1-1 --engine cmd=x tc=10+1
expect_error "server.keep_alive_s" csa --user u --game g-1-1 --set server.keep_alive_s=5
expect_error "server.mode" csa --user u --game g-1-1 --mode tcp
expect_error "expected Floodgate game names like floodgate-600-10F" serve --floodgate floodgate-600
expect_error "need --floodgate NAMES" serve --floodgate-interval 5
mkdir -p "$TMP/fgconf"
printf 'set max_moves 200\nThx 22:00\n' >"$TMP/fgconf/floodgate-600-10F.conf"
expect_error "floodgate-600-10F.conf:2: expected a day" serve --floodgate floodgate-600-10F --floodgate-conf-dir "$TMP/fgconf"
expect_error "expected the folder of a server's records" serve --rate-only "$TMP/nonexistent"
expect_error "00LIST does not exist" serve --rate-only "$TMP/fgconf"
pass "command-line errors are one line with exit code 2"

# --- 4. --rate-only: the ratings of a folder of records alone, as shogi-server's mk_game_results | mk_rate -------
mkdir -p "$TMP/league"
now=$(date '+%Y/%m/%d %H:%M:%S')
a="alpha+0123456789abcdef0123456789abcdef"
b="beta+fedcba9876543210fedcba9876543210"
for i in $(seq 10 25); do  # 16 games: alpha wins 12, beta 4
  if [ "$i" -lt 22 ]; then marks=(win lose); else marks=(lose win); fi
  printf '%s	toryo	%s	%s	%s	%s	%s	80
' "$now" "${marks[0]}" "$a" "$b" "${marks[1]}" \
    "$TMP/league/x/local+floodgate-600-10F+alpha+beta+202611290000$i.csa" >>"$TMP/league/00LIST"
done
printf 'garbage line\n' >>"$TMP/league/00LIST"
"$ARENA" serve --rate-only "$TMP/league" >"$TMP/league.out" 2>"$TMP/league.err" || fail "--rate-only failed: $(cat "$TMP/league.err")"
grep -q "00LIST:17: expected 7 or 8 tab-separated columns" "$TMP/league.err" || fail "the bad line is not named: $(cat "$TMP/league.err")"
grep -Eq '^1 +alpha +0 +1095 ' "$TMP/league.out" || fail "alpha is not first at 1095: $(cat "$TMP/league.out")"
grep -Eq '^2 +beta +0 +904 ' "$TMP/league.out" || fail "beta is not second at 904: $(cat "$TMP/league.out")"
grep -q "^16 games counted" "$TMP/league.out" || fail "not 16 games counted: $(cat "$TMP/league.out")"
grep -q "^      rate: 1095.0$" "$TMP/league/players.yaml" || fail "players.yaml: $(cat "$TMP/league/players.yaml")"
[ "$(jq '.players | length' "$TMP/league/ratings.json")" = 2 ] || fail "ratings.json: $(cat "$TMP/league/ratings.json")"
if command -v ruby >/dev/null; then  # shogi-server reads players.yaml with YAML::Store
  ruby -ryaml/store -e 'p = YAML::Store.new(ARGV[0]).transaction(true) { |db| db["players"] }
    exit(p[0]["'"$a"'"]["rate"] == 1095 && p[0]["'"$a"'"]["last_modified"].is_a?(Time) ? 0 : 1)' \
    "$TMP/league/players.yaml" || fail "Ruby's YAML::Store does not read players.yaml as shogi-server would"
fi
pass "--rate-only rates a folder's records as mk_rate does (alpha 1095, beta 904)"

set +e
"$ARENA" serve --listen "127.0.0.1:$PORT" >/dev/null 2>&1 &
first=$!
sleep 0.3
"$ARENA" serve --listen "127.0.0.1:$PORT" >"$TMP/busy.out" 2>"$TMP/busy.log"
rc=$?
set -e
kill -INT $first 2>/dev/null || true
wait $first 2>/dev/null || true
[ $rc = 1 ] || fail "a second server on a busy port exited with $rc, expected 1"
grep -q "cannot listen" "$TMP/busy.log" || fail "no 'cannot listen' error: $(cat "$TMP/busy.log")"
pass "a busy port is a one-line error"
check_no_engines_left 0.5
