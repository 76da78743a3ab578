#!/usr/bin/env bash
# `shogi-arena check` on the Debian engines recommends the keys configs/gauntlet-real-engines.yaml uses for them:
# send_inc=false for gpsusi (it aborts on binc/winc) and a margin_ms when it thought past its byoyomi in the run,
# swap_btime_wtime=true for Fairy-Stockfish 11.1 (it budgets from gote's clock when it is sente). Timing on a loaded
# machine is noisy, so only the keys are judged here; the quirks' sizes are judged on mock engines. Skips (77)
# when neither engine is installed.
source "$(dirname "$0")/lib.sh"

keys() {  # keys OUT: the recommended --engine tokens, one per line
  grep -A1 '^Recommended engine settings:' "$1" | tail -1 | tr ' ' '\n'
}

# Each check runs in an empty folder of its own. Fairy-Stockfish's must stay empty (the checker once set its "Debug
# Log File" to "<empty>", and it created a file of that name); gpsusi creates "<empty>" by itself on some runs, and
# the check must say so when it does.
mkdir "$TMP/gps" "$TMP/fsf"
ran=0
if command -v gpsusi >/dev/null || [ -x /usr/games/gpsusi ]; then
  ran=1
  # The full battery: its tolerance comes from 8 byoyomi moves (3 in --quick can all land inside the margin).
  (cd "$TMP/gps" && "$ARENA" check --engine cmd=gpsusi) >"$TMP/gps.txt" 2>&1 || fail "gpsusi: check exited with $?: $(cat "$TMP/gps.txt")"
  cat "$TMP/gps.txt"
  keys "$TMP/gps.txt" | grep -qx send_inc=false || fail "gpsusi: no send_inc=false"
  keys "$TMP/gps.txt" | grep -qx option.Thread=1 || fail "gpsusi: no option.Thread=1"
  # gpsusi thinks past its byoyomi on most runs, not on all (a clean CI run measured a worst of -9 ms): margin_ms is
  # recommended exactly when time.margin warns, with the figure the warning names.
  if grep -q '^  warn  time.margin ' "$TMP/gps.txt"; then
    margin=$(grep -o 'use margin_ms=[0-9]*' "$TMP/gps.txt" | head -1 | cut -d= -f2)
    keys "$TMP/gps.txt" | grep -qx "margin_ms=$margin" || fail "gpsusi: time.margin warns but no margin_ms=$margin"
  else
    grep -q '^  pass  time.margin .*within the margin' "$TMP/gps.txt" || fail "gpsusi: no time.margin verdict"
    ! keys "$TMP/gps.txt" | grep -q margin_ms || fail "gpsusi: margin_ms recommended within the margin"
  fi
  ! keys "$TMP/gps.txt" | grep -q swap_btime_wtime || fail "gpsusi: swap_btime_wtime recommended"
  # gpsusi writes '<empty>' (the default name of its CSAFile, InputLogFile and ErrorLogFile) only on some runs: the
  # check must report exactly what it left.
  if [ -e "$TMP/gps/<empty>" ]; then
    grep -q "^  warn  robust.files .*created '<empty>'" "$TMP/gps.txt" || fail "gpsusi: its '<empty>' file not reported"
  else
    grep -q "^  pass  robust.files .*none created" "$TMP/gps.txt" ||
      fail "gpsusi: a file reported that is not there: $(grep robust.files "$TMP/gps.txt")"
  fi
  pass "gpsusi: $(keys "$TMP/gps.txt" | grep -E 'send_inc|margin_ms|Thread' | tr '\n' ' ')"
  # About 0.8 s a move whatever its clock: at 10+0.1 it is out of time by its fifteenth move or so (40 games of 40
  # lost on time in a gauntlet with the old check's settings); at byoyomi, with its margin, it keeps its time.
  grep -Eq '^  warn  profile.increment .*flags at move (1[0-9]|20):' "$TMP/gps.txt" ||
    fail "gpsusi: 10+0.1 not reported as losing on time: $(grep profile.increment "$TMP/gps.txt")"
  grep -q '^  pass  profile.byoyomi ' "$TMP/gps.txt" || fail "gpsusi: byoyomi not safe: $(grep profile.byoyomi "$TMP/gps.txt")"
  ! grep -q 'can play timed games reliably' "$TMP/gps.txt" || fail "gpsusi: still said to play timed games reliably"
  grep -q '^Do not use with it: .*sudden death with a small increment like tc=10+0.1 (it flags at its move' \
    "$TMP/gps.txt" || fail "gpsusi: 10+0.1 not in the controls to avoid"
  pass "gpsusi's time profile: $(grep -o 'profile.increment .*flags at move [0-9]*' "$TMP/gps.txt" | sed 's/  */ /g'), byoyomi safe"
fi
if command -v fairy-stockfish >/dev/null || [ -x /usr/games/fairy-stockfish ]; then
  ran=1
  (cd "$TMP/fsf" && "$ARENA" check --engine cmd=fairy-stockfish option.Hash=64 --quick) >"$TMP/fsf.txt" 2>&1 ||
    fail "fairy-stockfish: check exited with $?: $(cat "$TMP/fsf.txt")"
  cat "$TMP/fsf.txt"
  keys "$TMP/fsf.txt" | grep -qx swap_btime_wtime=true || fail "fairy-stockfish: no swap_btime_wtime=true"
  keys "$TMP/fsf.txt" | grep -qx option.Threads=1 || fail "fairy-stockfish: no option.Threads=1"
  ! keys "$TMP/fsf.txt" | grep -q send_inc || fail "fairy-stockfish: send_inc recommended"
  [ -z "$(ls -A "$TMP/fsf")" ] || fail "fairy-stockfish: the check left files in its directory: $(ls -A "$TMP/fsf")"
  pass "fairy-stockfish: swap_btime_wtime=true option.Threads=1, no file left behind"
  # With swap_btime_wtime=true it keeps its time at every kind of clock: no false alarm.
  ! grep -E '^  (warn|FAIL)  profile\.' "$TMP/fsf.txt" || fail "fairy-stockfish: a time profile warns"
  pass "fairy-stockfish's time profiles: $(grep -c '^  pass  profile\.' "$TMP/fsf.txt") kinds safe"
fi
[ $ran = 1 ] || { echo "skip: neither gpsusi nor fairy-stockfish is installed"; exit 77; }
check_no_engines_left 1
