#pragma once
// A one-thread engine that searches synchronously at a fixed node (or depth) limit with given weights: the player of
// gensfen's self-play games and the teacher of rescore. Each answer has the best move and the first move and score of
// each MultiPV line.

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "eval/kp.h"
#include "search/engine.h"

namespace shogi::learn {

struct SearchAnswer {
  Move best = MOVE_NONE;     // MOVE_WIN (a declaration), MOVE_RESIGN or MOVE_NONE when there is no move to play
  Value score = VALUE_NONE;  // of the best move's line, from the side to move's view; VALUE_NONE when none came
  std::vector<std::pair<Move, Value>> lines;  // the first move and score of each MultiPV line
  // When the best move comes from a last iteration the limit cut short, after it failed high at the root, no exact
  // line has it: its score is then known only as the bound of its last line (VALUE_NONE when there is none either).
  Value bound_score = VALUE_NONE;
};

class FixedSearcher {
 public:
  // nodes 0 means no node limit (then depth must be set); hash_mb is this searcher's own table.
  FixedSearcher(std::shared_ptr<const kp::Weights> weights, uint64_t nodes, int depth, int hash_mb);
  FixedSearcher(const FixedSearcher&) = delete;
  FixedSearcher& operator=(const FixedSearcher&) = delete;

  // The position searched, kept by the caller (set_position, play, new_game).
  Engine& engine() { return engine_; }
  // Searches the engine's position with `multipv` lines and waits for the answer.
  SearchAnswer search(int multipv = 1);

 private:
  uint64_t nodes_;
  int depth_;
  // The callbacks use these: they are declared before the engine so that they outlive its search thread.
  std::mutex mutex_;
  std::condition_variable cv_;
  SearchAnswer answer_;
  std::pair<Move, Value> last_bound_{MOVE_NONE, VALUE_NONE};  // the first line's latest bound
  bool answered_ = false;
  Engine engine_;
};

}  // namespace shogi::learn
