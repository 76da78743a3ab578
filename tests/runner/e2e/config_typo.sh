#!/usr/bin/env bash
# A config with a typo fails with one line naming the file, the line and the key, and exit code 2.
source "$(dirname "$0")/lib.sh"
cat >"$TMP/bad.yaml" <<YAML
tournament: gauntlet
rounds: 2
engines:
  - name: a
    cmd: $MOCK
  - name: b
    cmd: $MOCK
eachh:
  tc: 1+0.1
YAML
code=0
"$ARENA" run --config "$TMP/bad.yaml" >"$TMP/out" 2>"$TMP/err" || code=$?
[ "$code" = 2 ] || fail "exit code $code, expected 2"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "expected one line of error, got: $(cat "$TMP/err")"
grep -q "bad.yaml:8:1: unknown key 'eachh' (did you mean 'each'?)" "$TMP/err" || fail "unexpected error: $(cat "$TMP/err")"
pass "$(cat "$TMP/err")"

code=0
"$ARENA" gauntlet --engine cmd="$MOCK" name=a tc=1 --engine cmd="$MOCK" name=b tc=1 hash=1 2>"$TMP/err" || code=$?
[ "$code" = 2 ] && grep -q "^shogi-arena: error: --engine #2: 'hash=1': unknown key 'hash'" "$TMP/err" ||
  fail "a bad --engine key: exit $code, $(cat "$TMP/err")"
pass "$(cat "$TMP/err")"

# An engine that cannot start with its settings (an option value out of its range): no results table of 0 games,
# no SPRT verdict after the error; the error is the one line on stderr, and the exit code 2.
code=0
"$ARENA" sprt --engine cmd="$MOCK" name=a option.Hash=lots --engine cmd="$MOCK" name=b --each tc=nodes=1000 \
  --concurrency 1 --kifu none --out "$TMP/nostart" >"$TMP/out" 2>"$TMP/err" || code=$?
[ "$code" = 2 ] || fail "an engine that cannot start: exit code $code, expected 2"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "^shogi-arena: error: a: .*option 'Hash' must be an integer" "$TMP/err" ||
  fail "an engine that cannot start: expected one error line, got: $(cat "$TMP/err")"
! grep -q "Results of\|Error:" "$TMP/out" || fail "an engine that cannot start: a results table: $(cat "$TMP/out")"
pass "$(cat "$TMP/err")"

# A misspelt command is named, with the commands there are.
code=0
"$ARENA" gauntlt --engine cmd="$MOCK" >"$TMP/out" 2>"$TMP/err" || code=$?
[ "$code" = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
  grep -q "^shogi-arena: error: unknown command 'gauntlt' (expected one of play, gauntlet, " "$TMP/err" ||
  fail "a misspelt command: exit $code, $(cat "$TMP/err")"
pass "$(cat "$TMP/err")"

# An option that takes one value, given twice: named, and said in words (CLI11's "At Most 1 required but received 2").
code=0
"$ARENA" sprt --engine cmd="$MOCK" --engine cmd="$MOCK" --rounds 1 --rounds 2 >"$TMP/out" 2>"$TMP/err" || code=$?
[ "$code" = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
  grep -qx "shogi-arena: error: --rounds is given 2 times: it takes one value (see --help)" "$TMP/err" ||
  fail "an option given twice: exit $code, $(cat "$TMP/err")"
pass "$(cat "$TMP/err")"

# A file's garbage quoted in an error is escaped: a params file with control bytes (an escape sequence that would
# turn the terminal red) gives a line that shows them as \xNN and holds no control byte.
printf 'A,int,\x01\x1b[31m,0,10,1,0.02\n' >"$TMP/garbage.params"
code=0
"$ARENA" spsa --engine cmd="$MOCK" --params "$TMP/garbage.params" --out "$TMP/garbage" >"$TMP/out" 2>"$TMP/err" ||
  code=$?
[ "$code" = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
  grep -qF "garbage.params:1: A: start must be a number, not '\x01\x1b[31m'" "$TMP/err" &&
  ! LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$TMP/err") ||
  fail "control bytes in an error: exit $code, $(cat -v "$TMP/err")"
pass "$(cat "$TMP/err")"
