#!/usr/bin/env bash
# The report after a run (`shogi-arena report`): an SPRT of a mock engine against one that overruns its byoyomi
# (so that every game ends in a time loss), its report written from the journal and read in headless Chromium
# (driven by cdp_probe) with no console error: the standings, the Elo and LLR charts, the time losses standing out
# in the time chart, the terminations, a replay with its score chart, and a game whose moves are not embedded.
# A round robin of three: its rating list, cross table and ratings chart.
# Bad input: no journal, a garbled line, a game line with an illegal move, a report that cannot be written.
# Screenshots go to $ARENA_TEST_OUTPUT (default: the scratch directory). Skips (77) without Chromium, after the
# checks that need no browser.
source "$(dirname "$0")/lib.sh"
OUTPUT=${ARENA_TEST_OUTPUT:-$TMP}
mkdir -p "$OUTPUT"

"$ARENA" sprt --engine $(mock good --random --seed 1 --clock) --engine $(mock overrun --behavior byoyomi-overrun --delay-ms 300 --clock \
  --random --seed 2) --each tc=1+0.2b --sprt elo0=0 elo1=50 --rounds 4 --concurrency 2 --max-plies 80 \
  --openings file="$OPENINGS" order=random seed=1 --out "$TMP/out" --kifu none --quiet >"$TMP/sprt.out" 2>&1 || true
[ "$(game_lines "$TMP/out/journal.jsonl")" = 8 ] || fail "expected 8 games: $(tail -5 "$TMP/sprt.out")"

"$ARENA" report "$TMP/out" --max-replays 5 >"$TMP/report.out" 2>"$TMP/report.err" ||
  fail "report failed: $(cat "$TMP/report.err")"
grep -q "^Report: $TMP/out/report.html (8 games, 5 replayable, [0-9]* KiB)$" "$TMP/report.out" ||
  fail "unexpected report output: $(cat "$TMP/report.out")"
[ ! -s "$TMP/report.err" ] || fail "report warned: $(cat "$TMP/report.err")"
html=$TMP/out/report.html
grep -q '"termination":"time-forfeit"' "$html" || fail "no time loss in the report's data"
# Nothing is loaded from the network (the SVG namespace is a name, not a load).
grep -Eq "(src|href)=[\"']?(https?:)?//|url\((https?:)?//|@import|fetch\(" "$html" &&
  fail "the report loads something: $(grep -Eo "(src|href)=[\"']?(https?:)?//[^\"' ]*|url\([^)]*\)|@import[^;]*|fetch\([^)]*" "$html" | head -3)"
pass "report of 8 games written, self-contained"

# The same report from the journal file itself, to a file of its own choosing.
"$ARENA" report "$TMP/out/journal.jsonl" --max-replays 5 --html "$TMP/second.html" >/dev/null || fail "report of the journal file failed"
cmp -s <(sed -E 's/"(source|journal)":"[^"]*"//g' "$html") <(sed -E 's/"(source|journal)":"[^"]*"//g' "$TMP/second.html") ||
  fail "the directory and its journal gave different reports"

expect_error "$TMP/nothing: cannot read the journal" report "$TMP/nothing"
cp -r "$TMP/out" "$TMP/garbled"
sed -i '3s/.*/{"game":garbled/' "$TMP/garbled/journal.jsonl"
expect_error "garbled/journal.jsonl:3: syntax error" report "$TMP/garbled"
expect_error "$TMP/no/such/dir/r.html: cannot write the report" report "$TMP/out" --html "$TMP/no/such/dir/r.html"
# The report already there is left as it was, with no temporary file beside it.
cmp -s "$html" "$TMP/garbled/report.html" || fail "a report was written from a garbled journal"
[ "$(ls "$TMP/garbled")" = "$(printf 'journal.jsonl\nlogs\nreport.html')" ] || fail "left behind: $(ls "$TMP/garbled")"
# A game line whose moves do not replay is listed without them, with a warning naming the game.
cp -r "$TMP/out" "$TMP/illegal"
sed -i '4s/"moves":\["[^"]*"/"moves":["9a9i"/' "$TMP/illegal/journal.jsonl"
"$ARENA" report "$TMP/illegal" >"$TMP/illegal.out" 2>"$TMP/illegal.err" || fail "report failed on an illegal move"
grep -q "^warning: game [0-9]* (pair [0-9]*): result JSON: move 1: 9a9i: .*listed without its moves or times$" \
  "$TMP/illegal.err" || fail "no warning naming the bad game: $(cat "$TMP/illegal.err")"
grep -q "(8 games, 7 replayable" "$TMP/illegal.out" || fail "the other games were not kept: $(cat "$TMP/illegal.out")"
pass "bad input: one-line errors, and a bad game line costs only its own replay"

if ! command -v chromium >/dev/null; then
  echo "SKIP: chromium is not installed (scripts/install-deps.sh --test installs it)"
  exit 77
fi
[ -x "${CDP_PROBE:-}" ] || fail "CDP_PROBE is not set to the cdp_probe test client"
on_exit stop_chromium
start_chromium
devtools=$DEVTOOLS

"$CDP_PROBE" "$devtools" open "file://$html" \
  eval 'document.getElementById("title").textContent' \
  eval 'document.querySelectorAll("#progress-charts svg path.series").length' \
  eval '[...document.querySelectorAll("#progress-charts h3")].map(e => e.textContent).join("|")' \
  eval 'document.querySelectorAll("#time-charts svg path.flag").length' \
  eval 'document.querySelector("#terminations tr.termination td").textContent' \
  eval 'document.getElementById("engines").textContent.includes("overrun")' \
  eval 'document.querySelectorAll("#games tr[data-game]").length' \
  eval 'document.getElementById("replay-title").textContent' \
  eval 'document.querySelectorAll("#replay-extra svg path.series").length' \
  shot "$OUTPUT/web_report.png" \
  eval 'document.getElementById("r-first").click(); document.getElementById("r-ply").textContent' \
  eval 'document.querySelector("#games tr[data-replay=\"-1\"]").click(); document.getElementById("replay-title").textContent' \
  eval 'document.getElementById("replay-extra").innerHTML + document.getElementById("replay-board").innerHTML' \
  eval '[...document.getElementById("f-termination").options].map(o => o.value).join("|")' \
  >"$TMP/probe.out" 2>&1 || fail "the report did not render cleanly: $(cat "$TMP/probe.out")"
mapfile -t seen <"$TMP/probe.out"
[ "${seen[0]}" = '"sprt: good vs overrun"' ] || fail "title: ${seen[0]}"
[ "${seen[1]}" -ge 1 ] || fail "no Elo or LLR line drawn: ${seen[1]}"
grep -q 'SPRT log-likelihood ratio' <<<"${seen[2]}" || fail "no LLR chart: ${seen[2]}"
[ "${seen[3]}" -ge 1 ] || fail "no time loss drawn in the time chart: $(cat "$TMP/probe.out")"
[ "${seen[4]}" = '"time-forfeit"' ] || fail "terminations: ${seen[4]}"
[ "${seen[5]}" = true ] || fail "no standings"
[ "${seen[6]}" = 8 ] || fail "expected 8 games listed: ${seen[6]}"
grep -q '^"Game [0-9]*: .*time-forfeit' <<<"${seen[7]}" || fail "no replay open: ${seen[7]}"
[ "${seen[8]}" -ge 1 ] || fail "no score line in the replay: ${seen[8]}"
grep -q ' ply 0 / ' <<<"${seen[9]}" || fail "the replay did not go to the start: ${seen[9]}"
grep -q 'not available (its moves are not in the report' <<<"${seen[10]}" || fail "a game without moves: ${seen[10]}"
[ "${seen[11]}" = '""' ] || fail "the last game's board or charts stayed beside a game without moves: ${seen[11]:0:80}"
[ "${seen[12]}" = '"|time-forfeit"' ] || fail "the termination filter's choices: ${seen[12]}"
pass "the report in Chromium: charts, ${seen[3]} time loss(es) marked, a replay, filters, no console error"

# An SPSA run's report: one chart of theta per parameter, above the standings of its two sides.
# shellcheck disable=SC2046
"$ARENA" spsa --engine $(mock m --optimum 60,40) --param X=20,0,100,6,0.05 --param Y=80,0,100,6,0.05 --pairs 120 \
  --each tc=10+0.1 --openings file="$OPENINGS" order=random --max-plies 200 --kifu none --out "$TMP/spsa" --quiet \
  >"$TMP/spsa.out" 2>&1 || fail "the SPSA run failed: $(tail -5 "$TMP/spsa.out")"
"$ARENA" report "$TMP/spsa" >/dev/null 2>"$TMP/spsa-report.err" || fail "the SPSA report failed: $(cat "$TMP/spsa-report.err")"
"$CDP_PROBE" "$devtools" open "file://$TMP/spsa/report.html" \
  eval 'document.getElementById("spsa-section").hidden' \
  eval '[...document.querySelectorAll(".spsa-chart")].map(e => e.dataset.param).join("|")' \
  eval 'document.querySelectorAll(".spsa-chart polyline.theta").length' \
  eval 'Number(document.querySelector(".spsa-chart[data-param=X]").dataset.theta)' \
  shot "$OUTPUT/web_report_spsa.png" \
  >"$TMP/probe-spsa.out" 2>&1 || fail "the SPSA report did not render cleanly: $(cat "$TMP/probe-spsa.out")"
mapfile -t seen <"$TMP/probe-spsa.out"
[ "${seen[0]}" = false ] || fail "the SPSA charts are hidden"
[ "${seen[1]}" = '"X|Y"' ] || fail "charts: ${seen[1]}"
[ "${seen[2]}" = 2 ] || fail "theta lines drawn: ${seen[2]}"
awk -v x="${seen[3]}" 'BEGIN { exit !(x > 20) }' || fail "theta X did not move from 20: ${seen[3]}"
pass "the SPSA report in Chromium: a chart of theta per parameter (X ends at ${seen[3]})"

# A round robin of three: the rating list, the cross table and the ratings over the games, with no console error.
# shellcheck disable=SC2046
"$ARENA" roundrobin --engine $(mock r60 --optimum 60,40) option.X=60 --engine $(mock r75 --optimum 60,40) option.X=75 \
  --engine $(mock r90 --optimum 60,40) option.X=90 --each tc=10+0.1 --rounds 10 --openings file="$OPENINGS" \
  --max-plies 200 --kifu none --out "$TMP/rr" --quiet >"$TMP/rr.out" 2>&1 || fail "the round robin failed: $(tail -5 "$TMP/rr.out")"
"$ARENA" report "$TMP/rr" >/dev/null 2>"$TMP/rr-report.err" || fail "the round robin's report failed: $(cat "$TMP/rr-report.err")"
"$CDP_PROBE" "$devtools" open "file://$TMP/rr/report.html" \
  eval '[...document.querySelectorAll("#ratings tr td.name")].map(e => e.textContent).join("|")' \
  eval 'document.querySelectorAll("#cross tr").length' \
  eval '[...document.querySelectorAll("#progress-charts h3")].map(e => e.textContent).join("|")' \
  shot "$OUTPUT/web_report_ratings.png" \
  >"$TMP/probe-rr.out" 2>&1 || fail "the round robin's report did not render cleanly: $(cat "$TMP/probe-rr.out")"
mapfile -t seen <"$TMP/probe-rr.out"
[ "${seen[0]}" = '"r60|r75|r90"' ] || fail "the rating list's rows: ${seen[0]}"
[ "${seen[1]}" = 4 ] || fail "cross table rows: ${seen[1]}"
grep -q 'Ratings by games played' <<<"${seen[2]}" || fail "no ratings chart: ${seen[2]}"
pass "the round robin's report in Chromium: the rating list ${seen[0]}, the cross table, the ratings chart"
