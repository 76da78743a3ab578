#pragma once
// What the training-data tests share: small self-play data made by gensfen, and a data file read back whole.

#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "learn/gensfen.h"
#include "learn/training_record.h"

namespace learn_test {

// gensfen at a shallow, fast setting: one thread (the same games on every run), 200 nodes a move, a 4 MB hash
// table, no progress lines. A test sets what it checks on top.
inline shogi::learn::GensfenOptions small_selfplay(const std::filesystem::path& output, uint64_t positions) {
  shogi::learn::GensfenOptions o;
  o.output = output.string();
  o.positions = positions;
  o.threads = 1;
  o.nodes = 200;
  o.hash_mb = 4;
  o.progress_seconds = 0;
  return o;
}

// Runs gensfen to the end; an error fails the test with its message.
inline shogi::learn::GensfenSummary generate(const shogi::learn::GensfenOptions& o) {
  std::atomic<bool> stop{false};
  std::ostringstream log;
  auto summary = shogi::learn::run_gensfen(o, log, stop);
  REQUIRE_MESSAGE(summary, (summary ? "" : summary.error()));
  return *summary;
}

// Every record of a data file; a missing, damaged or torn file fails the test.
inline std::vector<shogi::learn::TrainingRecord> read_all(const std::filesystem::path& path) {
  auto records = shogi::learn::read_record_file(path.string());
  REQUIRE_MESSAGE(records, (records ? "" : records.error()));
  return *records;
}

}  // namespace learn_test
