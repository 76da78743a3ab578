#!/usr/bin/env bash
# The tune build (search/tune.h) against the release build:
# - the release build's USI options are the list in release_options.txt, and it refuses tune-params;
# - the tune build has the same options plus one spin per tune-params line, with the same default and range;
# - both builds give the same bench signature with the defaults, the one README.md states;
# - every search constant changes the tree searched (a fixed-depth bench), every time constant is accepted;
# - configs/engine-search.params agrees with it;
# - with ARENA: `shogi-arena spsa --params` takes the tune-params output as it is and plays with it.
#   tune_build.sh RELEASE TUNE SOURCE_DIR [ARENA]
set -euo pipefail
release=$1
tune=$2
source_dir=$3
arena=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
pass() { echo "ok: $*"; }

options() { printf 'usi\nquit\n' | "$1" | grep '^option '; }
signature() { printf '%s\nquit\n' "$2" | "$1" | sed -n 's/^Nodes searched: *//p'; }

if "$release" tune-params >"$tmp/release-tune.out" 2>&1; then fail "the release build printed tune-params"; fi
grep -q "shogi-arena-engine-tune" "$tmp/release-tune.out" || fail "release tune-params: $(cat "$tmp/release-tune.out")"
options "$release" >"$tmp/release.options"
diff -u "$source_dir/tests/engine/release_options.txt" "$tmp/release.options" >"$tmp/release.diff" ||
  fail "the release build's options changed (update tests/engine/release_options.txt if on purpose):
$(cat "$tmp/release.diff")"
pass "release options unchanged ($(wc -l <"$tmp/release.options") options), tune-params refused"

"$tune" tune-params >"$tmp/tune.params"
count=$(wc -l <"$tmp/tune.params")
[ "$count" -ge 30 ] || fail "tune-params printed $count lines"
cp "$tmp/release.options" "$tmp/expected.options"
while IFS=, read -r name type def min max c_end r_end; do
  [ "$type" = int ] && [ "$r_end" = 0.0020 ] || fail "tune-params line for $name: $type ... $r_end"
  [ "$min" -le "$def" ] && [ "$def" -le "$max" ] && [ "$c_end" -gt 0 ] || fail "tune-params: $name,$def,$min,$max,$c_end"
  echo "option name $name type spin default $def min $min max $max" >>"$tmp/expected.options"
done <"$tmp/tune.params"
options "$tune" >"$tmp/tune.options"
diff -u "$tmp/expected.options" "$tmp/tune.options" >"$tmp/tune.diff" ||
  fail "the tune build's options are not the release ones plus tune-params:
$(cat "$tmp/tune.diff")"
pass "the tune build adds $count spin options, as tune-params prints them"

# The params files the repository tunes the search and the time manager with (configs/spsa-engine-search.yaml,
# configs/spsa-engine-time.yaml) are tune-params' lines with another r_end: a constant renamed or re-ranged in
# search/tune.h must be changed there too. Together they hold every constant, each once.
for params in engine-search.params engine-time.params; do
  while IFS=, read -r name rest; do
    want=$(grep "^$name," "$tmp/tune.params" | cut -d, -f2-6) || fail "configs/$params: $name is not tunable"
    [ "$(cut -d, -f1-5 <<<"$rest")" = "$want" ] || fail "configs/$params: $name,$rest, the engine has $name,$want"
  done < <(grep -v '^#' "$source_dir/configs/$params")
done
listed=$(cat "$source_dir/configs/engine-search.params" "$source_dir/configs/engine-time.params" | grep -v '^#' |
         cut -d, -f1 | sort)
[ "$listed" = "$(cut -d, -f1 "$tmp/tune.params" | sort)" ] ||
  fail "configs/engine-search.params and engine-time.params do not list every tunable constant once"
pass "configs/engine-search.params and engine-time.params agree with tune-params"

release_signature=$(signature "$release" bench)
tune_signature=$(signature "$tune" bench)
[ -n "$release_signature" ] && [ "$release_signature" = "$tune_signature" ] ||
  fail "bench signatures differ: release $release_signature, tune $tune_signature"
pass "the same bench signature: $release_signature nodes"

# README.md states the signature: a change that moves it changes play (and needs an SPRT and the README line), a
# speed-up must not move it.
readme_line='^The bench signature of the current search is \*\*\([0-9,]*\) nodes\*\*.*'
readme_signature=$(sed -n "s/$readme_line/\1/p" "$source_dir/README.md" | tr -d ,)
[ -n "$readme_signature" ] || fail "README.md has no line 'The bench signature of the current search is **N nodes**'"
[ "$release_signature" = "$readme_signature" ] ||
  fail "bench signature $release_signature nodes, README.md says $readme_signature: update README.md (with the SPRT)"
pass "README.md states the bench signature"

# Each search constant set to an end of its range changes the nodes of a fixed-depth search; a time constant leaves
# them alone but must be taken without complaint. A constant that acts only far beyond the iteration's depth (the
# extension limits) may not bind at depth 9 with some weights: it gets a second look at depth 11.
nodes_with() {  # nodes_with NAME VALUE DEPTH; fails on an info string (a refused value)
  local out
  out=$(printf 'setoption name %s value %s\nbench %s\nquit\n' "$1" "$2" "$3" | "$tune")
  if grep -q "^info string" <<<"$out"; then fail "setoption $1 $2: $(grep '^info string' <<<"$out")"; fi
  sed -n 's/^Nodes searched: *//p' <<<"$out"
}
base=$(signature "$tune" "bench 9")
base11=
while IFS=, read -r name _ def min max _; do
  value=$min
  [ "$value" = "$def" ] && value=$max
  nodes=$(nodes_with "$name" "$value" 9)
  [ -n "$nodes" ] || fail "setoption $name $value: bench 9 printed no node count"
  case $name in
    Tm*) [ "$nodes" = "$base" ] || fail "$name=$value changed a fixed-depth search ($base -> $nodes)" ;;
    *)
      if [ "$nodes" = "$base" ]; then
        [ -n "$base11" ] || base11=$(signature "$tune" "bench 11")
        nodes=$(nodes_with "$name" "$value" 11)
        [ -n "$nodes" ] && [ "$nodes" != "$base11" ] ||
          fail "$name=$value did not change the search ($base nodes at depth 9, $base11 at 11)"
      fi
      ;;
  esac
done <"$tmp/tune.params"
pass "every search constant changes the tree, every time constant is taken"

if [ -n "$arena" ]; then
  grep -E '^(RfpMargin|NmpBase|SingularMargin),' "$tmp/tune.params" >"$tmp/three.params"
  "$arena" spsa --engine cmd="$tune" name=tune option.DepthLimit=3 option.USI_Hash=16 --params "$tmp/three.params" \
    --pairs 2 --concurrency 2 --each tc=10+0.1 --position startpos --max-plies 60 --kifu none --out "$tmp/spsa" \
    --json --quiet >"$tmp/spsa.json" 2>"$tmp/spsa.err" || fail "spsa with the tune-params output: $(cat "$tmp/spsa.err")"
  jq -e '.pairs_done == 2 and (.params | length) == 3' "$tmp/spsa.json" >/dev/null || fail "spsa: $(cat "$tmp/spsa.json")"
  grep -q "^RfpMargin,int," "$tmp/spsa/tuned.params" || fail "tuned.params: $(cat "$tmp/spsa/tuned.params")"
  pass "shogi-arena spsa takes tune-params as it is: $(jq -c '[.params[] | {(.name): .theta}] | add' "$tmp/spsa.json")"
fi
