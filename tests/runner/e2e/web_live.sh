#!/usr/bin/env bash
# The live page in a real browser: a gauntlet of the built-in engine against itself with --web, bad requests thrown
# at the server while it plays, and headless Chromium (driven by cdp_probe over the DevTools protocol) seeing a move
# appear on a board and the engines' scores change, then the state again after a reload, with no console error.
# The games finish untouched. Screenshots go to $ARENA_TEST_OUTPUT (default: the scratch directory).
# Needs CDP_PROBE (the test client); skips (77) without Chromium, after the checks that need no browser.
source "$(dirname "$0")/lib.sh"
OUTPUT=${ARENA_TEST_OUTPUT:-$TMP}
mkdir -p "$OUTPUT"

expect_error "expected a port from 0 to 65535" gauntlet --engine "cmd=$ENGINE" --engine "cmd=$ENGINE" --web 99999
expect_error "web: 'x:y'" gauntlet --engine "cmd=$ENGINE" --engine "cmd=$ENGINE" --web x:y

"$ARENA" gauntlet --engine "cmd=$ENGINE" name=left option.USI_Hash=16 --engine "cmd=$ENGINE" name=right \
  option.USI_Hash=16 --each tc=4+0.1 --games 2 --concurrency 1 --openings file="$OPENINGS" order=random seed=3 \
  --out "$TMP/out" --web 0 --json >"$TMP/summary.json" 2>"$TMP/arena.err" &
arena_pid=$!
on_exit 'kill -9 "$arena_pid" 2>/dev/null'
on_exit stop_chromium
port=$(live_port "$TMP/arena.err")
# The page binds loopback when given only a port.
grep -q "Live page: http://127.0.0.1:$port/" "$TMP/arena.err" || fail "not on loopback: $(cat "$TMP/arena.err")"
pass "live page on 127.0.0.1:$port"

# expect_answer STATUS REQUEST: the server answers REQUEST with STATUS (the answer is read whole before it is
# searched: grep -q stopping early would break the pipe).
expect_answer() {
  local answer
  answer=$(http "$port" "$2")
  grep -q "$1" <<<"$answer" || fail "expected '$1' for '${2:0:40}...', got: ${answer:0:200}"
}
expect_answer "400 Bad Request" 'GARBAGE\r\n\r\n'
expect_answer "413 Payload Too Large" "GET / HTTP/1.1\r\nX-Big: $(head -c 20000 /dev/zero | tr '\0' a)\r\n\r\n"
expect_answer "405 Method Not Allowed" 'POST /api/state HTTP/1.1\r\nContent-Length: 0\r\n\r\n'
expect_answer "400 Bad Request" 'GET /api/game/abc HTTP/1.1\r\nConnection: close\r\n\r\n'
expect_answer '"title":"gauntlet: left vs right"' 'GET /api/state HTTP/1.1\r\nConnection: close\r\n\r\n'
pass "bad requests answered 400/413/405 while the games go on"

if ! command -v chromium >/dev/null; then
  wait "$arena_pid" || true
  echo "SKIP: chromium is not installed (scripts/install-deps.sh --test installs it)"
  exit 77
fi
[ -x "${CDP_PROBE:-}" ] || fail "CDP_PROBE is not set to the cdp_probe test client"

start_chromium
devtools=$DEVTOOLS

# Wait for a board with a few moves, so that the engines have thought and scored.
for _ in $(seq 100); do
  state=$(http "$port" 'GET /api/state HTTP/1.1\r\nConnection: close\r\n\r\n')
  grep -q '"moves":\["[^]]*","[^]]*","' <<<"$state" && break
  sleep 0.1
done

plies='(g => g ? g.dataset.game + ":" + g.dataset.plies : "")(document.querySelector(".game"))'
scores='[...document.querySelectorAll(".game .think")].map(e => e.dataset.score).join(" ")'
finished='document.querySelectorAll("#finished tr[data-game]").length'
boards='document.querySelectorAll(".game svg.board").length'
conn='document.getElementById("conn").textContent'
"$CDP_PROBE" "$devtools" open "http://127.0.0.1:$port/" eval "$plies" eval "$scores" wait 2500 \
  eval "$plies" eval "$scores" eval "$conn" shot "$OUTPUT/web_live.png" >"$TMP/probe1.out" 2>&1 ||
  fail "the first look at the page failed: $(cat "$TMP/probe1.out")"
mapfile -t seen <"$TMP/probe1.out"
plies1=$(tr -d '"' <<<"${seen[0]}") scores1=${seen[1]} plies2=$(tr -d '"' <<<"${seen[2]}") scores2=${seen[3]}
[ -n "$plies1" ] && [ -n "$plies2" ] || fail "no board on the page: $(cat "$TMP/probe1.out")"
# game:plies. A move raises the ply count; the first game ending in the window puts the next one on the board.
game1=${plies1%%:*} game2=${plies2%%:*} plies1=${plies1#*:} plies2=${plies2#*:}
[ "$game2" != "$game1" ] || [ "$plies2" -gt "$plies1" ] ||
  fail "no move appeared on the board in 2.5 s (game $game1, plies $plies1 -> $plies2)"
[ "$scores1" != "$scores2" ] || fail "the scores did not change: $scores1"
[ "${seen[4]}" = '"live"' ] || fail "the page did not say it is live: ${seen[4]}"
pass "the board moved on (game $game1 ply $plies1 -> game $game2 ply $plies2) and the scores changed ($scores1 -> $scores2)"

# After the first game has ended, a reload shows the state again: a board or the finished game, and standings.
wait_lines "$TMP/out/journal.jsonl" 1 120
"$CDP_PROBE" "$devtools" open "http://127.0.0.1:$port/" reload eval "$finished" eval "$boards" \
  eval 'document.getElementById("engines").textContent.includes("left")' \
  eval "document.querySelector('#finished tr[data-game]').click(); 1" wait 1500 \
  eval 'document.getElementById("replay-title").textContent' \
  eval "document.getElementById('r-first').click(); document.getElementById('r-ply').textContent" \
  shot "$OUTPUT/web_replay.png" >"$TMP/probe2.out" 2>&1 || fail "the reload failed: $(cat "$TMP/probe2.out")"
mapfile -t seen <"$TMP/probe2.out"
[ "${seen[0]}" -ge 1 ] || fail "no finished game listed after a reload: $(cat "$TMP/probe2.out")"
[ "${seen[2]}" = true ] || fail "no standings after a reload: $(cat "$TMP/probe2.out")"
grep -q '"Game 1: ' <<<"${seen[3]}${seen[4]}" || fail "the replay did not open: $(cat "$TMP/probe2.out")"
grep -q ' ply 0 / ' <<<"${seen[5]}" || fail "the replay did not go to the start: $(cat "$TMP/probe2.out")"
pass "after a reload: ${seen[0]} finished game(s), ${seen[1]} board(s), standings, a replay"

wait "$arena_pid" || fail "the gauntlet exited with $?: $(tail -3 "$TMP/arena.err")"
[ "$(game_lines "$TMP/out/journal.jsonl")" = 2 ] || fail "expected 2 games in the journal"
jq -e '[.engines[] | .crashes + .stalls + .time_losses + .illegal_moves] | add == 0' "$TMP/summary.json" >/dev/null ||
  fail "faults in the summary: $(cat "$TMP/summary.json")"
pass "both games finished with no fault; screenshots in $OUTPUT"

