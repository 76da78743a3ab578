#pragma once
// SPSA across a cluster: the coordinator owns theta. Shards (spsa/run.h with a shard) read the latest theta before
// each pair, play it, and journal the pair (its k, signs, the values sent, both games, no theta) in their own
// segments; the coordinator's Applier reads what the segments gained at each look, applies each pair once (the
// first line of a pair it reads; a copy from a requeued task that overlapped its predecessor is left out), in the
// order it reads them, and
//   - appends the pair with theta after it to OUT/spsa-applied.jsonl, the run's journal with theta (synced per
//     line; a restarted coordinator rebuilds theta and the applied pairs from it), and
//   - publishes theta in OUT/spsa-theta.json, {"applied":N,"theta":[...]}, replaced atomically (written to a
//     temporary file and renamed) so that a shard never reads half of it; again every 30 s even when nothing
//     changed, so that shards can tell a coordinator that is gone (spsa.coordinator_timeout_s) from a slow run.
// The run is over when every pair is applied.

#include <chrono>
#include <cstdint>
#include <expected>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "journal/file_tail.h"
#include "journal/journal.h"
#include "spsa/tuner.h"

namespace arena::spsa {

std::string applied_path(const std::string& out_dir);  // OUT/spsa-applied.jsonl
std::string theta_path(const std::string& out_dir);    // OUT/spsa-theta.json

struct PublishedTheta {
  int64_t applied = 0;  // pairs applied so far
  std::vector<double> theta;
};
// What the coordinator published, if it has (and the file holds `params` values).
std::optional<PublishedTheta> read_published_theta(const std::string& out_dir, size_t params);
// Publishes atomically; false when it cannot be written.
bool publish_theta(const std::string& out_dir, const PublishedTheta& published);

class Applier {
 public:
  // `header`: a segment's (the run's specification); the applied journal is continued when it exists.
  static std::expected<std::unique_ptr<Applier>, std::string> open(const std::string& out_dir,
                                                                   const journal::JournalHeader& header);
  // One look at the segments: applies the new pairs; returns how many. A segment of another run is left out with
  // a warning. Errors: the applied journal or theta cannot be written, or a whole line of a segment cannot be read
  // (file:line). After an error the lines read since the last good one are not applied: open the Applier anew,
  // which rebuilds theta from the applied journal and reads every segment again.
  std::expected<int64_t, std::string> poll(std::vector<std::string>& warnings);

  int64_t applied() const { return int64_t(applied_.size()); }
  int64_t pairs_total() const { return header_.spsa->schedule.iterations; }
  bool complete() const { return applied() >= pairs_total(); }
  const std::vector<double>& theta() const { return tuner_->theta(); }

 private:
  Applier(std::string out_dir, journal::JournalHeader header);

  std::string out_dir_;
  journal::JournalHeader header_;
  std::unique_ptr<Tuner> tuner_;
  journal::JournalWriter journal_;
  std::set<int64_t> applied_;
  std::map<std::string, std::unique_ptr<journal::FileTail>> tails_;
  std::set<std::string> ignored_;  // segments of another run
  std::chrono::steady_clock::time_point published_{};
};

}  // namespace arena::spsa
