#include "search/engine.h"

#include <deque>

#include "eval/builtin_weights.h"
#include "eval/evaluate.h"
#include "rules/perft.h"

namespace shogi {

Engine::Engine() {
  Position::init();
  init_search_tables();
  (void)record_.start("startpos");
  shared_.weights = kp::builtin_weights();
}

Engine::~Engine() {
  stop();
  wait_for_search_finished();
  timer_.disarm();
  threads_.set(0, nullptr);
}

Value Engine::static_eval() const { return evaluate(position(), shared_.weights.get()); }

void Engine::set_eval_weights(std::shared_ptr<const kp::Weights> weights) {
  wait_for_search_finished();
  shared_.weights = std::move(weights);
  // The hash table keeps static evaluations: those of the other evaluation must not be reused.
  tt_.clear();
}

std::expected<void, std::string> Engine::set_eval_file(const std::string& path) {
  auto weights = kp::weights_for_eval_file(path);
  if (!weights) return std::unexpected(weights.error());
  set_eval_weights(std::move(*weights));
  return {};
}

void Engine::set_callbacks(SearchCallbacks callbacks) {
  wait_for_search_finished();
  shared_.callbacks = std::move(callbacks);
}

std::expected<void, std::string> Engine::set_position(std::string_view text) {
  // Everything the rules library can represent is searchable: composed positions (perft suites, mate problems)
  // may hold more pieces of a kind than a set has. GameRecord::start leaves the record as it was on error.
  return record_.start(text, PieceLimits::Relaxed);
}

void Engine::ready() {
  wait_for_search_finished();
  if (tt_.size_mb() != hash_mb_ || tt_.stats_enabled() != hash_stats_) tt_.resize(hash_mb_, hash_stats_);
  if (threads_.size() != thread_count_) threads_.set(std::max<size_t>(1, thread_count_), &shared_);
}

void Engine::new_game() {
  ready();
  tt_.clear();
  threads_.clear_histories();
}

void Engine::arm_timer(TimePoint deadline) {
  const uint64_t id = search_id_.load();
  timer_.arm(deadline, [this, id] {
    // A deadline of an earlier search must not stop a later one.
    if (search_id_.load() != id) return;
    shared_.stop = true;
    shared_.wake_cv.notify_all();
  });
}

void Engine::go(SearchLimits limits) {
  ready();
  timer_.disarm();
  ++search_id_;
  const Position& pos = record_.position();
  shared_.start_sfen = record_.start_sfen();
  shared_.moves = record_.moves();
  shared_.limits = std::move(limits);
  shared_.stop = false;
  shared_.ponder = shared_.limits.ponder;
  shared_.stop_on_ponderhit = false;
  search_side_ = pos.side_to_move();
  search_ply_ = pos.game_ply();
  shared_.time.init(shared_.limits, search_side_, search_ply_, shared_.options.time);
  tt_.new_search();
  threads_.prepare_all();

  if (shared_.limits.mate_search && shared_.limits.mate_time > 0)
    arm_timer(shared_.limits.start_time + std::chrono::milliseconds(shared_.limits.mate_time));
  else if (shared_.time.enabled() && !shared_.limits.ponder)
    arm_timer(shared_.limits.start_time + std::chrono::milliseconds(shared_.time.maximum()));
  threads_.main().start_searching();
}

void Engine::stop() {
  {
    std::lock_guard lock(shared_.wake_mutex);
    shared_.stop = true;
  }
  shared_.wake_cv.notify_all();
}

void Engine::ponderhit() {
  bool timed;
  TimePoint deadline;
  {
    std::lock_guard lock(shared_.wake_mutex);
    // The time since `go ponder` counts as thinking done for this move, as in Stockfish: a ponder that already ran
    // for the move's maximum answers at once, even in the middle of an iteration (the allocation is the same as
    // at `go ponder`: it does not depend on pondering). Time lost when unused (byoyomi alone) is used again.
    const TimePoint now = Clock::now();
    const auto pondered = std::chrono::duration_cast<std::chrono::milliseconds>(now - shared_.limits.start_time);
    const bool pondered_maximum = shared_.time.pondered_past_maximum(pondered.count());
    // Otherwise our clock starts now: recompute the allocation from this moment.
    shared_.limits.start_time = now;
    shared_.time.init(shared_.limits, search_side_, search_ply_, shared_.options.time);
    shared_.ponder = false;
    timed = shared_.time.enabled();
    deadline = shared_.limits.start_time + std::chrono::milliseconds(shared_.time.maximum());
    if (shared_.stop_on_ponderhit || pondered_maximum) shared_.stop = true;
  }
  if (timed) arm_timer(deadline);
  shared_.wake_cv.notify_all();
}

void Engine::wait_for_search_finished() {
  if (threads_.size()) threads_.main().wait_for_search_finished();
}

uint64_t Engine::perft(int depth, const std::function<void(Move, uint64_t)>& divide) {
  wait_for_search_finished();
  Position pos;
  std::deque<StateInfo> states(1);
  (void)pos.set(record_.start_sfen(), &states.back(), PieceLimits::Relaxed);
  for (Move m : record_.moves()) {
    states.emplace_back();
    pos.do_move(m, states.back());
  }
  return divide ? shogi::perft_divide(pos, depth, divide) : shogi::perft(pos, depth);
}

}  // namespace shogi
