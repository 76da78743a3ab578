#!/usr/bin/env bash
# Openings from a YaneuraOu book (--openings file=book.db plies= eval_window= balance=): a gauntlet plays each
# position the walk reaches twice, colours swapped; a broken line stops the run before any game with file:line.
source "$(dirname "$0")/lib.sh"

cat >"$TMP/book.db" <<'BOOK'
#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f 3c3d 30 20 10
2g2f 8c8d 20 20 5
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d 2g2f -30 20 8
8c8d none -60 20 2
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2
8c8d 7g7f -20 20 4
BOOK
# shellcheck disable=SC2046
"$ARENA" gauntlet --engine $(mock a --random --seed 1) --engine $(mock b --random --seed 2) --each tc=10+0.1 \
  --rounds 3 --openings file="$TMP/book.db" plies=2 --kifu none --out "$TMP/run" --json --quiet >"$TMP/run.json" \
  2>"$TMP/run.err" || fail "the gauntlet exited with $? ($(cat "$TMP/run.err"))"
starts=$(journal_games "$TMP/run/journal.jsonl" '.moves[:2] | join(" ")' | sort | uniq -c | awk '{print $1, $2, $3}' | tr -d '"')
[ "$starts" = "$(printf '2 2g2f 8c8d\n2 7g7f 3c3d\n2 7g7f 8c8d')" ] || fail "the games' first moves: $starts"
pass "3 book positions at ply 2, each played twice"

"$ARENA" gauntlet --engine $(mock a --random --seed 1) --engine $(mock b --random --seed 2) --each tc=10+0.1 \
  --rounds 1 --openings file="$TMP/book.db" plies=2 balance=25 --kifu none --out "$TMP/bal" --json --quiet \
  >/dev/null 2>&1 || fail "the balanced gauntlet failed"
[ "$(journal_games "$TMP/bal/journal.jsonl" '.moves[:2] | join(" ")' | sort -u | tr -d '"')" = "2g2f 8c8d" ] ||
  fail "balance=25 kept: $(journal_games "$TMP/bal/journal.jsonl" '.moves[:2] | join(" ")' | sort -u)"
pass "balance=25 keeps the one position within 25"

sed -i 's/^8c8d 7g7f -20 20 4$/8c8d 7g7f -20 twenty 4/' "$TMP/book.db"
if "$ARENA" gauntlet --engine $(mock a) --engine $(mock b) --each tc=10+0.1 --openings file="$TMP/book.db" plies=2 \
  --out "$TMP/broken" >/dev/null 2>"$TMP/broken.err"; then fail "a broken book was played"; fi
[ "$(wc -l <"$TMP/broken.err")" = 1 ] && grep -q "book.db:9: expected 'move ponder eval depth count'" "$TMP/broken.err" ||
  fail "the error: $(cat "$TMP/broken.err")"
[ "$(game_lines "$TMP/broken/journal.jsonl")" = 0 ] || fail "games were played from a broken book"
pass "a broken line: one error naming book.db:9, no game"
check_no_engines_left
