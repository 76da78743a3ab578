#pragma once
// `bench`: a fixed list of positions searched to a fixed depth with one thread and a fresh hash table each, so the
// total node count is the same on every run and machine: the build's signature for regression testing. The
// signature is quoted with the built-in weights (README); other weights give other counts.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string_view>
#include <vector>

#include "eval/kp.h"

namespace shogi::usi {

constexpr int BENCH_DEPTH = 11;

const std::vector<std::string_view>& bench_positions();

struct BenchResult {
  uint64_t nodes = 0;
  uint64_t nps = 0;
};
// Searches with the given learned weights (nullptr: the hand-written evaluation alone). Prints one line per position
// (its nodes and milliseconds) and then "Nodes searched: <n>" and "Nodes/second: <n>". With more than one thread the
// count is no signature (the threads race); the times are then what a time-to-depth comparison reads.
BenchResult run_bench(std::ostream& out, std::shared_ptr<const kp::Weights> weights, int depth = BENCH_DEPTH,
                      size_t threads = 1, size_t hash_mb = 16);

}  // namespace shogi::usi
