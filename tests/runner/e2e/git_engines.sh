#!/usr/bin/env bash
# Engines built from git refs (--engine git=REPO@REF build=... bin=...), checked by their bench signature, and time
# controls scaled to the machine (--scale-tc). A scratch repository holds a tiny USI engine: a shell wrapper of the
# mock engine that prints a fixed bench, strong at one commit and weak (it resigns) at the next.
source "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2046
REPO=$TMP/repo
CACHE=$TMP/cache
engine_repo "$REPO"

SPRT=(sprt --each tc=10+0.1 build=make bin=bin/engine --sprt elo0=0 elo1=10 --openings "file=$OPENINGS"
  --concurrency 2 --kifu none --build-cache "$CACHE" --json)

# 1. Both refs built, H1 for the stronger, both commits recorded.
code=0
"$ARENA" "${SPRT[@]}" --engine "git=$REPO@strong" name=strong bench=1234 --engine "git=$REPO@HEAD" name=weak \
  --out "$TMP/first" >"$TMP/first.json" 2>"$TMP/first.err" || code=$?
[ "$code" = 0 ] || fail "H1 expected, exit code $code: $(cat "$TMP/first.err")"
[ "$(grep -c '^building ' "$TMP/first.err")" = 2 ] || fail "two builds expected: $(cat "$TMP/first.err")"
strong=$(git -C "$REPO" rev-parse strong) weak=$(git -C "$REPO" rev-parse HEAD)
header=$(head -1 "$TMP/first/journal.jsonl")
[ "$(jq -r '.builds[] | select(.engine=="strong") | .commit' <<<"$header")" = "$strong" ] || fail "strong's commit: $header"
[ "$(jq -r '.builds[] | select(.engine=="weak") | .commit' <<<"$header")" = "$weak" ] || fail "weak's commit: $header"
[ "$(jq -r '.builds[] | select(.engine=="strong") | .bench' <<<"$header")" = 1234 ] || fail "strong's bench: $header"
[ "$(jq -r '.builds[] | select(.engine=="weak") | .ref' <<<"$header")" = HEAD ] || fail "weak's ref: $header"
jq -e '.builds | length == 2' "$TMP/first.json" >/dev/null || fail "the summary's builds: $(cat "$TMP/first.json")"
"$ARENA" stats "$TMP/first/journal.jsonl" | grep -q "strong .*@strong = ${strong:0:12}, bench 1234 checked" ||
  fail "stats shows no build: $("$ARENA" stats "$TMP/first/journal.jsonl")"
verdict=$(tail -1 "$TMP/first.err")
[[ "$verdict" == "sprt: H1 accepted (pass): strong vs weak, "*" games, LLR "*"; exit code 0" ]] ||
  fail "the last line of stderr should be the verdict: $verdict"
pass "built both refs, H1 for the stronger after $(json_int "$TMP/first.json" scored) games, commits recorded"

# 2. The same commits again: nothing is built.
start=$(date +%s%N)
code=0
"$ARENA" "${SPRT[@]}" --engine "git=$REPO@strong" name=strong --engine "git=$REPO@HEAD" name=weak \
  --out "$TMP/second" >"$TMP/second.json" 2>"$TMP/second.err" || code=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ "$code" = 0 ] || fail "second run: exit code $code: $(cat "$TMP/second.err")"
! grep -q '^building ' "$TMP/second.err" || fail "the second run built again: $(cat "$TMP/second.err")"
[ "$(grep -c 'built before' "$TMP/second.err")" = 2 ] || fail "no cache hits: $(cat "$TMP/second.err")"
pass "second run: both builds from the cache, the whole run in $ms ms"

# 3. A broken build: one line with the log and its last lines, nothing played.
code=0
"$ARENA" "${SPRT[@]}" --engine "git=$REPO@strong" name=strong build="make no-such-target" \
  --engine "git=$REPO@HEAD" name=weak --out "$TMP/broken" >/dev/null 2>"$TMP/broken.err" || code=$?
[ "$code" = 2 ] || fail "broken build: exit code $code"
error=$(grep '^shogi-arena: error' "$TMP/broken.err")
[[ "$error" == *"engine 'strong': the build of"*"failed (exit 2)"*"log: $CACHE/"*"build.log; last lines: "*"no-such-target"* ]] ||
  fail "broken build's error: $(cat "$TMP/broken.err")"
[ ! -e "$TMP/broken/journal.jsonl" ] || fail "a journal was written for a broken build"
pass "broken build: $error"

# 4. A wrong bench signature is refused, naming both counts.
code=0
"$ARENA" "${SPRT[@]}" --engine "git=$REPO@HEAD" name=weak bench=1234 --engine "git=$REPO@strong" name=strong \
  --out "$TMP/wrong" >/dev/null 2>"$TMP/wrong.err" || code=$?
[ "$code" = 2 ] || fail "wrong bench: exit code $code"
grep -q "engine 'weak': its bench gives 999 nodes but bench=1234 was expected" "$TMP/wrong.err" ||
  fail "wrong bench's error: $(cat "$TMP/wrong.err")"
[ ! -e "$TMP/wrong/journal.jsonl" ] || fail "games were played with a wrong bench"
pass "wrong bench refused: $(grep -o "its bench gives.*expected" "$TMP/wrong.err")"

# 5. The uncommitted state (@WORKTREE) is built as such, and rebuilt when it changes.
echo "# a local change" >>"$REPO/engine.in"
worktree_run() {
  "$ARENA" gauntlet --engine "git=$REPO@WORKTREE" name=wt build=make bin=bin/engine --engine $(mock m) \
    --each tc=1+0.1 --rounds 1 --kifu none --build-cache "$CACHE" --quiet --out "$TMP/$1" >"$TMP/$1.out" 2>&1 ||
    fail "worktree run $1: $(cat "$TMP/$1.out")"
}
worktree_run wt1
grep -q "building wt from $REPO@WORKTREE (${weak:0:12} with uncommitted changes)" "$TMP/wt1.out" ||
  fail "worktree build: $(cat "$TMP/wt1.out")"
jq -e '.builds[0].ref == "WORKTREE" and .builds[0].dirty == true' <(head -1 "$TMP/wt1/journal.jsonl") >/dev/null ||
  fail "worktree header: $(head -1 "$TMP/wt1/journal.jsonl")"
worktree_run wt2
grep -q "built before" "$TMP/wt2.out" || fail "the unchanged worktree was built again: $(cat "$TMP/wt2.out")"
echo "# another change" >>"$REPO/engine.in"
worktree_run wt3
grep -q "^building wt" "$TMP/wt3.out" || fail "a changed worktree was not rebuilt: $(cat "$TMP/wt3.out")"
git -C "$REPO" checkout -q engine.in
pass "WORKTREE built with its uncommitted changes, rebuilt only when they change"

# 6. --scale-tc: the bench says 500000 nps here; time controls written for 1000000 play twice as long.
"$ARENA" gauntlet --engine "git=$REPO@strong" name=strong build=make bin=bin/engine --each tc=10+0.1 \
  --engine $(mock m) --scale-tc nps=1000000 --rounds 1 --kifu none --build-cache "$CACHE" --quiet \
  --out "$TMP/scaled" >"$TMP/scaled.out" 2>&1 || fail "scaled run: $(cat "$TMP/scaled.out")"
header=$(head -1 "$TMP/scaled/journal.jsonl")
[ "$(jq -r '.scale_tc.factor' <<<"$header")" = 2 ] || fail "scale factor: $header"
[ "$(jq -r '.settings.engines[0].tc' <<<"$header")" = 10+0.1 ] || fail "the settings keep the written tc: $header"
tcs=$(journal_games "$TMP/scaled/journal.jsonl" '.time_control' | sort -u)
[ "$tcs" = '"20+0.2"' ] || fail "games should be played at 20+0.2: $tcs"
grep -q "Time controls scaled x2.000" "$TMP/scaled.out" || fail "no scaling line: $(cat "$TMP/scaled.out")"
pass "--scale-tc nps=1000000 against a 500000 nps bench: 10+0.1 played as 20+0.2"

# 7. The built-in engine with the bench signature the README gives: accepted; with another: refused.
signature=$(grep -o 'bench signature of the current search is \*\*[0-9,]* nodes' "$SOURCE_DIR/README.md" |
  grep -o '[0-9,]* nodes' | tr -d ', a-z')
[ -n "$signature" ] || fail "no bench signature in README.md"
"$ARENA" play --engine "cmd=$ENGINE" name=arena bench="$signature" tc=nodes=2000 --engine $(mock m) tc=1+0.1 \
  --kifu none --quiet --out "$TMP/builtin" >"$TMP/builtin.out" 2>&1 || fail "README's signature: $(cat "$TMP/builtin.out")"
grep -q "bench of arena: $signature nodes, as expected" "$TMP/builtin.out" || fail "$(cat "$TMP/builtin.out")"
code=0
"$ARENA" play --engine "cmd=$ENGINE" name=arena bench=$((signature + 1)) tc=nodes=2000 --engine $(mock m) tc=1+0.1 \
  --kifu none --quiet --out "$TMP/builtin2" >"$TMP/builtin2.out" 2>&1 || code=$?
[ "$code" = 2 ] && grep -q "its bench gives $signature nodes but bench=$((signature + 1))" "$TMP/builtin2.out" ||
  fail "a wrong signature of the built-in engine: exit $code: $(cat "$TMP/builtin2.out")"
pass "the built-in engine: README's signature $signature accepted, $((signature + 1)) refused"

# 8. (slow) The built-in engine from this repository's HEAD, built by the runner, checked by that signature.
if [ "${SHOGI_ARENA_SLOW_TESTS:-0}" = 1 ] && git -C "$SOURCE_DIR" rev-parse HEAD >/dev/null 2>&1; then
  build="cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build b -j2 --target shogi-arena-engine"
  "$ARENA" play --engine "git=$SOURCE_DIR@HEAD" name=head build="$build" bin=b/bin/shogi-arena-engine \
    bench="$signature" tc=nodes=2000 --engine $(mock m) tc=1+0.1 --build-cache "$CACHE" --kifu none --quiet \
    --out "$TMP/head" >"$TMP/head.out" 2>&1 || fail "HEAD's build: $(tail -5 "$TMP/head.out")"
  grep -q "bench of head: $signature nodes, as expected" "$TMP/head.out" || fail "$(cat "$TMP/head.out")"
  pass "HEAD built by the runner ($(grep -o "built head in [0-9.]* s" "$TMP/head.out")), bench $signature"
fi
check_no_engines_left
