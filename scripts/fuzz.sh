#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-16 and runs each for the given number of seconds (default 20).
# Exit codes: 0 all ran clean, 1 a target crashed or failed to build, 77 clang-16 / libFuzzer not installed.
set -euo pipefail
seconds=${1:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${FUZZ_BUILD_DIR:-$root/build-fuzz}")

if ! command -v clang++-16 >/dev/null || ! ls /usr/lib/llvm-16/lib/clang/16/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "SKIPPED: clang-16 with libclang-rt-16-dev is not installed (apt-get install clang-16 libclang-rt-16-dev)"
  exit 77
fi

cmake -S "$root/tests/fuzz" -B "$build" -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 >/dev/null

status=0
for target in fuzz_sfen fuzz_usi_move fuzz_csa_move fuzz_csa_protocol fuzz_csa_server_line fuzz_learn_files fuzz_engine_output fuzz_journal_line fuzz_web_request; do
  [ -x "$build/$target" ] || continue
  seeds="$root/tests/fuzz/corpus/${target#fuzz_}"
  work="$build/corpus/${target#fuzz_}"
  mkdir -p "$work"
  echo "== $target for ${seconds}s"
  if ! (cd "$build" && "./$target" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 "$work" "$seeds" \
        2>"$build/$target.log"); then
    echo "FAILED: $target (see $build/$target.log)"; tail -30 "$build/$target.log"; status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/$target.log" | tr '\n' ' '; echo
  fi
done
exit $status
