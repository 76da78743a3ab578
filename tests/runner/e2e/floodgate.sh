#!/usr/bin/env bash
# `shogi-arena serve` as a private Floodgate, with real `shogi-arena csa` clients (mock engines of five strengths,
# the SPSA tests' strength model) logging in with trips for one group paired every 3 s: rounds pair everyone
# waiting and no game starts outside a round, the odd player sits out in turn, a player's last game is replayed
# only where no other pairing existed, CSA-mode players are logged out after each game and come back; the
# ratings are rebuilt from the records (players.yaml read back by Ruby as shogi-server reads it, when Ruby is
# there; `--rate-only` gives the same file). Then kill -9 during a game: after the restart nothing finished is
# lost, the cut game is closed as abnormal and listed, the rounds go on from where they were, and its players
# play again. At the end the rating list has the strongest above the weakest.
source "$(dirname "$0")/lib.sh"

GROUP=floodgate-60-1F
OUT=$TMP/fg
mkdir -p "$OUT"
# Short games: the group's own move limit (a .conf's set line applies with --floodgate-interval).
printf 'set max_moves 60\n' >"$OUT/$GROUP.conf"
SERVER_ARGS=(serve --out "$OUT" --log "$OUT/server.log" --floodgate "$GROUP" --floodgate-interval 3
             --rating-min-games 4 --web 0)
OUTPUT=${ARENA_TEST_OUTPUT:-$TMP}
mkdir -p "$OUTPUT"

STARTS=0
start_server() {  # start_server LISTEN: sets SERVER_PID and PORT
  STARTS=$((STARTS + 1))
  local out=$TMP/serve$STARTS.out
  "$ARENA" "${SERVER_ARGS[@]}" --listen "$1" >"$out" 2>&1 &
  SERVER_PID=$!
  local i
  for ((i = 0; i < 50; i++)); do
    PORT=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$out" 2>/dev/null | grep -o '[0-9]*$' || true)
    [ -n "$PORT" ] && { WEB_PORT=$(live_port "$out"); return 0; }
    sleep 0.1
  done
  fail "the server did not start: $(cat "$out")"
}
on_exit 'kill -9 $SERVER_PID 2>/dev/null'

# Ends when the results list has N lines.
wait_results() {
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    [ "$(wc -l <"$OUT/00LIST" 2>/dev/null || echo 0)" -ge "$1" ] && return 0
    sleep 0.1
  done
  fail "00LIST did not reach $1 games in $2 s: $(tail -5 "$OUT/server.log")"
}

start_server 127.0.0.1:0
CLIENTS=()
x=(50 45 35 20 0)  # away from the mock's optimum: p1 resigns at 2 % of its moves, p5 at 52 %
for i in 1 2 3 4 5; do
  "$ARENA" csa --port "$PORT" --user "p$i" --trip "trip$i" --game "$GROUP" --games 0 --margin 100 \
    --out "$TMP/c$i" --set server.reconnect_initial_s=0.3 --set server.reconnect_max_s=1 \
    --set server.reconnect_attempts=100 \
    --engine $(mock "p$i" --optimum 50,50 --p0 0.02 --k 0.01 --think-ms 40) "option.X=${x[$((i - 1))]}" \
    >"$TMP/c$i.out" 2>&1 &
  CLIENTS+=($!)
done
on_exit 'kill -9 ${CLIENTS[*]} 2>/dev/null'

# --- 1. Rounds: everyone waiting is paired at the round, one sits out, nobody twice in a row --------------------
wait_results 6 120
log=$OUT/server.log
grep -q "Floodgate group $GROUP: pairs every 3 s by default_factory" "$log" || fail "no group line: $(head "$log")"
rounds=$(grep -c "$GROUP round [0-9]*: [0-9]* waiting" "$log")
[ "$rounds" -ge 2 ] || fail "fewer than 2 rounds logged"
# Whoever sits out a round with five waiting plays in the next round with five waiting.
grep -E "$GROUP round [0-9]+: (5 waiting|left out)" "$log" | awk '
  / 5 waiting/ { round = $5; five[round] = 1; next }
  /left out/ { split($0, a, "left out "); split(a[2], b, ":"); out[$5] = b[1] }
  END { for (r in out) { n = r + 1; if ((n ":") in five && out[r] == out[n ":"]) { print r; exit 1 } } }' ||
  fail "the same player sat out two full rounds in a row"
games_per_round=$(grep -c "round [0-9]*: pair " "$log")
[ "$games_per_round" -ge 6 ] || fail "fewer pairs logged than games listed"
grep -q "round [0-9]*: left out p[1-5]: odd count" "$log" || fail "no odd player left out with its reason"
pass "rounds pair everyone waiting; the odd one out rotates"

# check_rounds: every game of the group was created at a round (within 50 ms of its line), and a rematch of a
# player's last game happened only in a round of 2 or 3 players waiting (with 4 or more another pairing exists).
check_rounds() {
  awk -v group="$GROUP" '
    function ms(t) { split(t, p, ":"); return (p[1] * 3600 + p[2] * 60 + p[3]) * 1000 }
    $0 ~ group " round [0-9]+: [0-9]+ waiting" { round_at = ms($2); waiting = $6; next }
    $0 ~ group " round [0-9]+: pair .*rematch" { if (waiting > 3) { print "rematch with " waiting " waiting: " $0; bad = 1 } }
    / game created / && index($0, "+" group "+") {
      if (round_at == "" || ms($2) - round_at > 50) { print "a game outside a round: " $0; bad = 1 } }
    END { exit bad }' "$log" || fail "rounds broken (see above)"
}
check_rounds
pass "games start only at rounds; rematches only where no other pairing existed"

# CSA mode: one game per login; each client logged in again for its next game.
logins=$(grep -c "^.*login p1 (CSA)" "$log")
p1_games=$(grep -c "+p1+\|+p1+" "$OUT/00LIST" || true)
[ "$logins" -ge 2 ] || fail "p1 logged in only $logins time(s)"
pass "CSA-mode players log in again for each round ($logins logins of p1)"

# --- 2. Ratings rebuilt from the records -------------------------------------------------------------------------
[ -f "$OUT/players.yaml" ] || fail "no players.yaml"
grep -q "^      name: p1$" "$OUT/players.yaml" || fail "p1 not in players.yaml: $(cat "$OUT/players.yaml")"
[ "$(jq '[.players[] | select(.elo != null)] | length' "$OUT/ratings.json")" -ge 4 ] ||
  fail "ratings.json lists fewer than 4 rated players: $(cat "$OUT/ratings.json")"
records=$(find "$OUT" -name '*.csa' | wc -l)
grep -l "^'rating:p[1-5]+[0-9a-f]*:p[1-5]+[0-9a-f]*$" $(find "$OUT" -name '*.csa') >/dev/null ||
  fail "no record has a 'rating: line"
pass "players.yaml and ratings.json are rebuilt as rounds end ($records records)"

# --- 3. kill -9 during a game, restart on the same port ------------------------------------------------------------
# A game in progress: a record without its summary that already has two moves. The server is frozen (SIGSTOP)
# while the records are read, so that no game ends between the look and the kill (games of 40 ms moves end often).
cut=""
for ((i = 0; i < 300; i++)); do
  kill -STOP "$SERVER_PID"
  for f in $(find "$OUT" -name "*+$GROUP+*.csa"); do
    if ! grep -q "^'summary:" "$f" && [ "$(grep -c '^[+-][0-9]' "$f")" -ge 2 ]; then cut=$f; break; fi
  done
  [ -n "$cut" ] && break
  kill -CONT "$SERVER_PID"
  sleep 0.1
done
[ -n "$cut" ] || fail "no game in progress to cut"
listed_before=$(wc -l <"$OUT/00LIST")
kill -9 "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
cp "$OUT/00LIST" "$TMP/00LIST.before"
grep -q "^'summary:" "$cut" && fail "the cut record has an ending before the restart"
start_server "127.0.0.1:$PORT"
grep -q "^'summary:abnormal:p[1-5] draw:p[1-5] draw$" "$cut" || fail "the cut game was not closed as abnormal: $(tail -5 "$cut")"
grep -q "	abnormal	draw	p[1-5]+[0-9a-f]*	p[1-5]+[0-9a-f]*	draw	$cut	" "$OUT/00LIST" ||
  fail "the cut game is not listed: $(tail -3 "$OUT/00LIST")"
head -n "$listed_before" "$OUT/00LIST" | cmp -s - <(head -n "$listed_before" "$TMP/00LIST.before") ||
  fail "finished games changed across the restart"
grep -q "had no ending (the server was stopped during its game): closed as abnormal" "$log" || fail "no recovery line"
grep -q "rounds restored from" "$log" || fail "the rounds were not restored"
pass "kill -9 during a game: nothing finished lost, the cut game closed as abnormal and listed"

# The cut game's players come back and play again.
cut_players=$(grep "^N[+-]" "$cut" | cut -c3- | tr '\n' ' ')
after=$(wc -l <"$OUT/00LIST")
wait_results $((after + 4)) 120
for p in $cut_players; do
  tail -n +$((after + 1)) "$OUT/00LIST" | grep -q "	$p+" || fail "$p did not play after the restart"
done
pass "the cut game's players ($cut_players) were paired again after the restart"

# --- 4. The live page in Chromium: groups counting down, the last round, the ratings, a player's games --------
if ! command -v chromium >/dev/null || [ ! -x "${CDP_PROBE:-}" ]; then
  echo "skip: the Floodgate page in Chromium (no chromium, or CDP_PROBE not set)"
else
  on_exit stop_chromium
  start_chromium
  player=${cut_players%% *}
  "$CDP_PROBE" "$DEVTOOLS" open "http://127.0.0.1:$WEB_PORT/" wait 1500 \
    eval 'document.getElementById("league-section").hidden' \
    eval 'document.querySelector("#league-groups tr.group td").textContent' \
    eval 'document.querySelector("#league-groups [data-next]").textContent' \
    eval 'document.querySelectorAll("#league-rounds li").length' \
    eval 'document.querySelectorAll("#league-ratings tr[data-player]").length' \
    eval "document.querySelector('#league-ratings tr[data-player=\"$player\"]').click(); 1" wait 1500 \
    eval 'document.getElementById("player-name").textContent' \
    eval '[...document.querySelectorAll("#player-games tr[data-game]")].filter(r => r.textContent.includes("'"$player"'")).length' \
    shot "$OUTPUT/floodgate_page.png" >"$TMP/probe.out" 2>&1 || fail "the page in Chromium: $(cat "$TMP/probe.out")"
  mapfile -t seen <"$TMP/probe.out"
  [ "${seen[0]}" = false ] || fail "no Floodgate section: $(cat "$TMP/probe.out")"
  [ "${seen[1]}" = "\"$GROUP\"" ] || fail "the group is not listed: $(cat "$TMP/probe.out")"
  grep -Eq '^"(in 0:0[0-3]|pairing now)"$' <<<"${seen[2]}" || fail "no countdown to the next round: ${seen[2]}"
  [ "${seen[3]}" -ge 2 ] || fail "the last round's pairs are not shown: $(cat "$TMP/probe.out")"
  [ "${seen[4]}" = 5 ] || fail "the ratings do not list the 5 players: $(cat "$TMP/probe.out")"
  [ "${seen[6]}" = "\"$player\"" ] || fail "the player's page did not open: $(cat "$TMP/probe.out")"
  [ "${seen[7]}" -ge 1 ] || fail "the player's page lists none of $player's games: $(cat "$TMP/probe.out")"
  pass "the page shows the group counting down (${seen[2]}), the last round, 5 ratings, $player's ${seen[7]} game(s)"
fi

# --- 5. Stop; the ratings of the records alone are the server's ------------------------------------------------
kill -9 ${CLIENTS[*]} 2>/dev/null || true
sleep 3.5  # a last round with nobody to pair
kill -INT "$SERVER_PID"
wait "$SERVER_PID" || fail "the server exited with $? after SIGINT"
cp "$OUT/players.yaml" "$TMP/players.server.yaml"
"$ARENA" serve --rate-only "$OUT" --rating-min-games 4 >"$TMP/rate.out" 2>"$TMP/rate.err" || fail "--rate-only failed: $(cat "$TMP/rate.err")"
cmp -s "$OUT/players.yaml" "$TMP/players.server.yaml" ||
  fail "--rate-only's players.yaml differs from the server's: $(diff "$OUT/players.yaml" "$TMP/players.server.yaml")"
head -1 "$TMP/rate.out" | grep -q "^rank player" || fail "no rating table: $(cat "$TMP/rate.out")"
if command -v ruby >/dev/null; then
  ruby -ryaml/store -e 'p = YAML::Store.new(ARGV[0]).transaction(true) { |db| db["players"] }
    n = p.values.map { |g| (g || {}).size }.sum
    ok = p.values.all? { |g| (g || {}).values.all? { |v| v["last_modified"].is_a?(Time) && v["rate"].is_a?(Numeric) } }
    exit(n == 5 && ok ? 0 : 1)' "$OUT/players.yaml" || fail "Ruby's YAML::Store does not read the 5 players: $(cat "$OUT/players.yaml")"
  pass "shogi-server's YAML::Store reads players.yaml (5 players, times and rates typed)"
fi
pass "--rate-only rebuilds the server's players.yaml from the records alone, byte for byte"
check_rounds
elo() { jq -r --arg n "$1" '.players[] | select(.name == $n) | .elo' "$OUT/ratings.json"; }
[ "$(elo p1)" != null ] && [ "$(elo p5)" != null ] || fail "p1 or p5 unrated: $(cat "$OUT/ratings.json")"
awk -v a="$(elo p1)" -v b="$(elo p5)" 'BEGIN { exit !(a > b) }' ||
  fail "the strongest (p1, Elo $(elo p1)) is not above the weakest (p5, Elo $(elo p5))"
pass "the rating list puts the strongest above the weakest (p1 $(elo p1), p5 $(elo p5))"
cp "$log" /tmp/floodgate-e2e-server.log 2>/dev/null || true
