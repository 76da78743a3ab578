#pragma once
// The facade the protocol loop drives: it owns the hash table, the search threads and the stop timer. go()
// returns at once; results come back through the callbacks, on a search thread.

#include <atomic>
#include <cstdint>
#include <expected>
#include <functional>
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
  // Learned evaluation weights from a file (eval/kp.h); an empty path selects the built-in weights
  // (eval/builtin_weights.h) and "none" the hand-written evaluation alone. On error the evaluation in use stays.
  // Waits for a running search first, and clears the hash table (it keeps static evaluations). The weights are
  // process-wide: one engine object a process (gensfen sets them once).
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
