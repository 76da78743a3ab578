#!/usr/bin/env bash
# The rating list of more than two engines (standings/ratings.h): a round robin of four engines of known order of
# strength (the built-in engine at 20,000 and at 2,000 nodes a move, and two mocks of the --optimum model, which
# resign the sooner the farther they are from the optimum) lists them in that order with mean 0, in the console,
# the JSON, `stats`, the live page and the report; an anchor puts one engine at a given rating without changing the
# differences; a gauntlet of three has a list, a match of two has none; a bad anchor is a one-line error.
source "$(dirname "$0")/lib.sh"

engines() {  # the four engines, strongest first
  printf '%s ' --engine "cmd=$ENGINE" name=e20k option.USI_Hash=16 tc=nodes=20000 \
    --engine "cmd=$ENGINE" name=e2k option.USI_Hash=16 tc=nodes=2000
  # shellcheck disable=SC2046
  printf '%s ' --engine $(mock s60 --optimum 60,40) option.X=60 option.Y=40 tc=10+0.1 \
    --engine $(mock s90 --optimum 60,40) option.X=90 option.Y=40 tc=10+0.1
}
# shellcheck disable=SC2046
"$ARENA" roundrobin $(engines) --rounds 10 --concurrency 2 --openings file="$OPENINGS" order=random seed=3 \
  --max-plies 200 --kifu none --out "$TMP/rr" --web 0 --json >"$TMP/rr.json" 2>"$TMP/rr.err" &
arena_pid=$!
on_exit 'kill -9 "$arena_pid" 2>/dev/null'
# The live page carries the list while the run goes on (its standings are the summary's JSON).
port=$(live_port "$TMP/rr.err")
live=
for ((i = 0; i < 600; i++)); do
  [ -z "$live" ] || break
  live=$(http_body "$port" /api/state | grep -o '"ratings":{"anchor":null,"anchor_elo":0,"error":null,"engines":\[{"rank":1' || true)
  sleep 0.1
done
[ -n "$live" ] || fail "the live page never showed a rating list"
wait "$arena_pid" || fail "the round robin exited with $? ($(cat "$TMP/rr.err"))"
pass "the live page shows the rating list during the run"
order=$(jq -r '[.ratings.engines[].name] | join(" ")' "$TMP/rr.json")
[ "$order" = "e20k e2k s60 s90" ] || fail "the rating list's order is $order: $(jq -c .ratings "$TMP/rr.json")"
jq -e '.ratings.anchor == null and ([.ratings.engines[].elo] | add | fabs) < 1e-6 and
       all(.ratings.engines[]; .lower <= .elo and .elo <= .upper and .games == 60) and
       all(.ratings.engines[:3][]; .los_next > 0.5) and .ratings.engines[3].los_next == null' "$TMP/rr.json" >/dev/null ||
  fail "the rating list: $(jq -c .ratings "$TMP/rr.json")"
pass "round robin of 4: $(jq -c '[.ratings.engines[] | "\(.name) \(.elo | round) +/- \(.error | round)\(if .bound then " (" + .bound + " bound)" else "" end)"]' "$TMP/rr.json")"

# The same run as text: the list after the cross table.
"$ARENA" stats "$TMP/rr/journal.jsonl" >"$TMP/rr.txt" || fail "stats exited with $?"
grep -q "^Ratings (maximum likelihood, mean 0; 95 % interval; LOS over the next engine):" "$TMP/rr.txt" ||
  fail "no rating list in the text summary: $(cat "$TMP/rr.txt")"
grep -qE '^ +1  e20k +[>]?\+[0-9.]+ +[0-9.]+ +60 ' "$TMP/rr.txt" || fail "the list's first row: $(grep -A2 ^Ratings "$TMP/rr.txt")"
pass "stats prints the list"

# Anchored on the weakest at 1000: its rating is exactly that, with no error; the differences are the run's.
"$ARENA" stats "$TMP/rr/journal.jsonl" --json --rating-anchor s90 --rating-anchor-elo 1000 >"$TMP/anchored.json" ||
  fail "stats --rating-anchor exited with $?"
jq -e --slurpfile rr "$TMP/rr.json" '
  def elo($doc; $n): $doc.ratings.engines[] | select(.name == $n) | .elo;
  .ratings.anchor == "s90" and .ratings.anchor_elo == 1000 and
  (.ratings.engines[] | select(.name == "s90") | .elo == 1000 and .error == 0) and
  . as $a | all(["e20k", "e2k", "s60"][]; . as $n |
    ((elo($a; $n) - 1000) - (elo($rr[0]; $n) - elo($rr[0]; "s90")) | fabs) < 1e-6)' \
  "$TMP/anchored.json" >/dev/null 2>&1 || fail "anchored: $(jq -c .ratings "$TMP/anchored.json")"
pass "anchored on s90 at 1000: the same differences"

if "$ARENA" stats "$TMP/rr/journal.jsonl" --rating-anchor nobody >/dev/null 2>"$TMP/bad.err"; then
  fail "stats took an unknown anchor"
fi
grep -q "rating-anchor: 'nobody' is not an engine of" "$TMP/bad.err" || fail "stats' error: $(cat "$TMP/bad.err")"
# shellcheck disable=SC2046
if "$ARENA" roundrobin $(engines) --rounds 1 --rating-anchor nobody --out "$TMP/bad" \
  >/dev/null 2>"$TMP/bad-run.err"; then fail "a run took an unknown anchor"; fi
[ "$(wc -l <"$TMP/bad-run.err")" = 1 ] && grep -q "rating anchor 'nobody' is not an engine of the run (engines: e20k, e2k, s60, s90)" \
  "$TMP/bad-run.err" || fail "the run's error: $(cat "$TMP/bad-run.err")"
pass "an unknown anchor is a one-line error"

# The anchor from a YAML file goes into the journal's header: stats rates as the run did.
cat >"$TMP/gauntlet.yaml" <<YAML
tournament: gauntlet
rounds: 6
concurrency: 2
engines:
  - {name: s60, cmd: $MOCK, args: "--name $TAG --optimum 60,40", options: {X: 60, Y: 40}}
  - {name: s70, cmd: $MOCK, args: "--name $TAG --optimum 60,40", options: {X: 70, Y: 40}}
  - {name: s80, cmd: $MOCK, args: "--name $TAG --optimum 60,40", options: {X: 80, Y: 40}}
each: {tc: 10+0.1}
openings: {file: $OPENINGS}
output: {dir: $TMP/g, kifu: none}
rating: {anchor: s70, anchor_elo: 50}
YAML
"$ARENA" run --config "$TMP/gauntlet.yaml" --json --quiet >"$TMP/g.json" 2>"$TMP/g.err" ||
  fail "the YAML gauntlet exited with $? ($(cat "$TMP/g.err"))"
jq -e '.ratings.anchor == "s70" and (.ratings.engines | length) == 3' "$TMP/g.json" >/dev/null ||
  fail "the gauntlet's list: $(jq -c .ratings "$TMP/g.json")"
head -1 "$TMP/g/journal.jsonl" | jq -e '.rating_anchor == {"engine": "s70", "elo": 50}' >/dev/null ||
  fail "the header: $(head -1 "$TMP/g/journal.jsonl")"
"$ARENA" stats "$TMP/g/journal.jsonl" | grep -q "^Ratings (maximum likelihood, s70 at +50.0" ||
  fail "stats does not rate on the header's anchor"
pass "a gauntlet of 3 has a list; the YAML anchor is in the header and stats uses it"

# Two engines: a pairing's Elo, no list.
# shellcheck disable=SC2046
"$ARENA" gauntlet --engine $(mock a --random --seed 1) --engine $(mock b --random --seed 2) --each tc=10+0.1 \
  --rounds 2 --out "$TMP/two" --json --quiet >"$TMP/two.json" 2>/dev/null || fail "the match exited with $?"
jq -e '.ratings == null' "$TMP/two.json" >/dev/null || fail "two engines have a rating list"
"$ARENA" stats "$TMP/two/journal.jsonl" | grep -q "^Ratings" && fail "two engines' text has a rating list"
pass "two engines: no list"

# The report: the list, the cross table and the ratings over the games.
"$ARENA" report "$TMP/rr" >"$TMP/report.out" 2>&1 || fail "report: $(cat "$TMP/report.out")"
grep -q '"ratings":{"games":\[' "$TMP/rr/report.html" || fail "the report has no ratings over the games"
grep -q 'id="ratings"' "$TMP/rr/report.html" && grep -q 'id="cross"' "$TMP/rr/report.html" ||
  fail "the report has no rating list or cross table"
pass "the report carries the ratings over the games"
check_no_engines_left
