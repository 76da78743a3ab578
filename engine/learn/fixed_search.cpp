#include "learn/fixed_search.h"

namespace shogi::learn {

FixedSearcher::FixedSearcher(std::shared_ptr<const kp::Weights> weights, uint64_t nodes, int depth, int hash_mb)
    : nodes_(nodes), depth_(depth) {
  engine_.set_eval_weights(std::move(weights));
  engine_.set_threads(1);
  engine_.set_hash_size(size_t(hash_mb));
  SearchCallbacks cb;
  cb.on_info = [this](const InfoFull& info) {
    if (info.pv.empty()) return;
    std::lock_guard lock(mutex_);
    if (info.lowerbound || info.upperbound) {
      if (info.multipv == 1) last_bound_ = {info.pv[0], info.score};
      return;
    }
    const size_t i = size_t(info.multipv - 1);
    if (answer_.lines.size() <= i) answer_.lines.resize(i + 1, {MOVE_NONE, VALUE_NONE});
    answer_.lines[i] = {info.pv[0], info.score};
  };
  cb.on_bestmove = [this](Move best, Move) {
    std::lock_guard lock(mutex_);
    answer_.best = best;
    answered_ = true;
    cv_.notify_all();
  };
  engine_.set_callbacks(std::move(cb));
}

SearchAnswer FixedSearcher::search(int multipv) {
  engine_.options().multi_pv = multipv;
  {
    std::lock_guard lock(mutex_);
    answer_ = {};
    last_bound_ = {MOVE_NONE, VALUE_NONE};
    answered_ = false;
  }
  SearchLimits limits;
  limits.nodes = nodes_;
  limits.depth = depth_;
  engine_.go(limits);
  {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return answered_; });
  }
  engine_.wait_for_search_finished();
  std::lock_guard lock(mutex_);
  SearchAnswer a = answer_;
  // The best line's score; the best move is the engine's answer (its first line).
  for (const auto& [move, value] : a.lines)
    if (move == a.best) {
      a.score = value;
      break;
    }
  if (a.score == VALUE_NONE && last_bound_.first == a.best) a.bound_score = last_bound_.second;
  return a;
}

}  // namespace shogi::learn
