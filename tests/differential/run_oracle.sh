#!/bin/sh
# CTest fixture for the differential test: writes shogiops's figures to OUT, or exits 77 (CTest: skipped) with a
# visible reason when node or the installed npm packages are missing. The output is deterministic for a given
# oracle, lock file, positions files and arguments, so it is reused while that key is unchanged (generation takes
# about a minute).
#
#   run_oracle.sh OUT SEED PLAYOUTS [POSITIONS_TSV...]     (missing positions files are noted and left out)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=$1 seed=$2 playouts=$3
shift 3

# A stale file from an earlier run must not be compared when this run cannot produce a fresh one.
skip() {
  rm -f "$out" "$out.key"
  echo "SKIP: differential test against shogiops: $1"
  exit 77
}

command -v node >/dev/null 2>&1 || skip "node is not installed (apt-get install nodejs npm)"
[ -f "$here/node_modules/shogiops/package.json" ] ||
  skip "shogiops is not installed (run: npm ci --prefix tests/differential)"

args="--out $out --seed $seed --playouts $playouts"
files=""
for f in "$@"; do
  if [ -f "$f" ]; then
    args="$args --positions $f"
    files="$files $f"
  else
    echo "note: $f not found; its positions are not used as playout roots"
  fi
done

# shellcheck disable=SC2086 # the paths are build and source paths without spaces
key=$( (cat "$here/oracle.mjs" "$here/package-lock.json" "$here/node_modules/shogiops/package.json" $files
        node --version; echo "$args") | sha256sum | cut -d' ' -f1)
if [ -f "$out" ] && [ -f "$out.key" ] && [ "$(cat "$out.key")" = "$key" ]; then
  echo "reusing $out ($(wc -l <"$out") positions; oracle, packages, positions and arguments unchanged)"
  exit 0
fi

rm -f "$out" "$out.key"
# shellcheck disable=SC2086
node "$here/oracle.mjs" $args
echo "$key" >"$out.key"
