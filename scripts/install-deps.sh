#!/usr/bin/env bash
# Installs what Shogi Arena needs on Debian 12, and only what is missing (safe to run again).
#   install-deps.sh          build dependencies
#   install-deps.sh --test   also what the test suite uses: jq for reading journals in the end-to-end scripts
#                            (required), clang-16 for fuzzing, Node.js for the cross-checks
#                            against shogiops / tsshogi / json-kifu-format, and real engines (fairy-stockfish,
#                            gpsshogi), headless Chromium and a CJK font for the live page's browser test, Ruby
#                            (shogi-server reads players.yaml with its YAML::Store: checked with it). Test
#                            extras that cannot be installed make their tests skip, visibly.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive

build_packages=(build-essential cmake libboost1.81-dev libcli11-dev libyaml-cpp-dev doctest-dev libssl-dev)
# What the tests cannot do without (the end-to-end scripts read every journal with jq): installed or an error.
required_test_packages=(jq)
# Test extras: a test that needs one it cannot have skips, visibly.
test_packages=(clang-16 libclang-rt-16-dev fairy-stockfish gpsshogi chromium fonts-noto-cjk ruby)
packages=("${build_packages[@]}")
required=("${build_packages[@]}")
with_tests=0
if [ "${1:-}" = "--test" ]; then
  with_tests=1
  packages+=("${required_test_packages[@]}" "${test_packages[@]}")
  required+=("${required_test_packages[@]}")
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing Debian packages: ${missing[*]} (run as root, or install them yourself)" >&2
    exit 1
  fi
  echo "install-deps: installing ${missing[*]}"
  apt-get update -qq
  # Build packages must install; test extras may be unavailable (their tests then skip).
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || {
    for p in "${missing[@]}"; do
      if ! apt-get install -y -qq --no-install-recommends "$p" >/dev/null; then
        if printf '%s\n' "${required[@]}" | grep -qx "$p"; then
          echo "install-deps: cannot install required dependency $p" >&2
          exit 1
        fi
        echo "install-deps: WARNING: could not install $p; the tests that need it will be skipped" >&2
      fi
    done
  }
fi

if [ $with_tests = 1 ] && command -v npm >/dev/null; then
  # npm packages used only by tests, pinned by each folder's package-lock.json.
  for dir in tests/differential tests/kifu; do
    [ -f "$root/$dir/package-lock.json" ] || continue
    stamp="$root/$dir/node_modules/.package-lock.json"
    if [ ! -f "$stamp" ] || [ "$root/$dir/package-lock.json" -nt "$stamp" ]; then
      echo "install-deps: npm ci in $dir"
      (cd "$root/$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
        echo "install-deps: WARNING: npm ci failed in $dir; its tests will be skipped" >&2
    fi
  done
fi
