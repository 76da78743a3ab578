#pragma once
// The facade the protocol loop drives: it owns the hash table, the search threads, the stop timer and the learned
// evaluation weights its searches use. go() returns at once; results come back through the callbacks, on a search
// thread.

#include <atomic>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "rules/game_end.h"
#include "search/search.h"
#include "search/thread.h"
#include "search/timer.h"
#include "search/tt.h"

namespace shogi {

class Engine {
 public:
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Not to be changed while a search runs; the protocol loop waits first.
  void set_callbacks(SearchCallbacks callbacks);
  SearchOptions& options() { return shared_.options; }

  // "startpos [moves ...]" or "sfen <sfen> [moves ...]". On error the previous position is kept. A running
  // search is unaffected: it works on its own copy.
  std::expected<void, std::string> set_position(std::string_view text);
  const Position& position() const { return record_.position(); }
  // Plays a legal move on the current position (self-play), without replaying the game as set_position does.
  void play(Move m) { record_.play(m); }
  // The static evaluation of the current position, from the side to move's view (the `eval` command).
  Value static_eval() const;
  // The learned evaluation weights this engine searches with (eval/kp.h); nullptr: the hand-written evaluation
  // alone. An engine starts with the built-in weights (eval/builtin_weights.h). They are this engine's own: engines
  // in one process may search with different weights at the same time. Setting them waits for a running search
  // and clears the hash table (it keeps static evaluations).
  void set_eval_weights(std::shared_ptr<const kp::Weights> weights);
  const std::shared_ptr<const kp::Weights>& eval_weights() const { return shared_.weights; }
  // The weights an EvalFile value names (kp::weights_for_eval_file): a weights file, empty for the built-in
  // weights, "none" for the hand-written evaluation alone. On error the weights in use stay.
  std::expected<void, std::string> set_eval_file(const std::string& path);

  // Take effect at the next ready() (USI `isready`), where the heavy work belongs.
  void set_hash_size(size_t mb) { hash_mb_ = mb; }
  void set_threads(size_t n) { thread_count_ = n; }
  void set_hash_statistics(bool on) { hash_stats_ = on; }
  void ready();
  void new_game();

  void go(SearchLimits limits);
  void stop();
  void ponderhit();
  void wait_for_search_finished();
  bool searching() { return threads_.size() && threads_.main().searching(); }

  uint64_t perft(int depth, const std::function<void(Move, uint64_t)>& divide);
  uint64_t nodes_searched() const { return threads_.nodes_searched(); }
  const TranspositionTable& tt() const { return tt_; }
  size_t thread_count() const { return threads_.size(); }

 private:
  void arm_timer(TimePoint deadline);

  TranspositionTable tt_;
  ThreadPool threads_;
  SharedState shared_{tt_, threads_};  // after the two members it refers to
  StopTimer timer_;
  GameRecord record_;
  size_t hash_mb_ = 64, thread_count_ = 1;
  bool hash_stats_ = false;
  std::atomic<uint64_t> search_id_{0};
  Color search_side_ = BLACK;  // the searched position, for recomputing the allocation at ponderhit
  int search_ply_ = 1;
};

}  // namespace shogi
