#pragma once
// A stronger teacher for training data already made: every record's position is searched again, at a larger node
// (or depth) limit or with other weights, and its score and best move are replaced; the position, its move number
// and the game's result stay. The output keeps the input's order, record for record, and is continued when a run
// is stopped or killed: run the same command again.

#include <atomic>
#include <cstdint>
#include <expected>
#include <iosfwd>
#include <string>

namespace shogi::learn {

struct RescoreOptions {
  std::string input;   // a file of records
  std::string output;  // the relabelled records; when it exists it must be an earlier run's output for this input
  int threads = 1;
  uint64_t nodes = 20000;  // search limit per position (0 = none, then depth must be set)
  int depth = 0;
  int hash_mb = 16;              // per thread
  std::string eval_file;         // as EvalFile names weights: empty = the built-in ones, "none" = the hand-written
  int score_limit = 3000;        // |score| is capped here (mates too), as gensfen's games end at its eval limit
  double progress_seconds = 10;  // between progress lines (0 = none)
};

struct RescoreSummary {
  uint64_t records = 0;        // in the input
  uint64_t done_before = 0;    // already in the output when the run started
  uint64_t searched = 0;       // this run
  uint64_t kept = 0;           // of them, left as they were: no score came back (no legal move, a declaration win)
  uint64_t same_move = 0;      // of the relabelled ones, those whose best move did not change
  double mean_abs_change = 0;  // centipawns, over the relabelled ones
  uint64_t torn_bytes_dropped = 0;
  double seconds = 0;
  bool interrupted = false;
};

// Runs until every record is in the output or `stop` is set (records are written in whole batches, in order; a
// batch in progress is dropped). Errors name the file: an input that is no record file, an output that is not this
// input's relabelling (its positions differ) or holds more records than the input, an unwritable output, bad options.
std::expected<RescoreSummary, std::string> run_rescore(const RescoreOptions& options, std::ostream& log,
                                                       const std::atomic<bool>& stop);

}  // namespace shogi::learn
