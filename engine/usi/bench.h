#pragma once
// `bench`: a fixed list of positions searched to a fixed depth with one thread and a fresh hash table each, so the
// total node count is the same on every run and machine: the build's signature for regression testing.

#include <cstdint>
#include <iosfwd>
#include <string_view>
#include <vector>

namespace shogi::usi {

constexpr int BENCH_DEPTH = 11;

const std::vector<std::string_view>& bench_positions();

struct BenchResult {
  uint64_t nodes = 0;
  uint64_t nps = 0;
};
// Prints one line per position and then "Nodes searched: <n>" and "Nodes/second: <n>".
BenchResult run_bench(std::ostream& out, int depth = BENCH_DEPTH);

}  // namespace shogi::usi
