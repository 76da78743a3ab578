#include "search/thread.h"

namespace shogi {

SearchThread::SearchThread(SharedState& shared, size_t id)
    : worker_(std::make_unique<Worker>(shared, id)), thread_([this] { idle_loop(); }) {
  wait_for_search_finished();
}

SearchThread::~SearchThread() {
  {
    std::lock_guard lock(mutex_);
    exit_ = true;
    searching_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void SearchThread::start_searching() {
  {
    std::lock_guard lock(mutex_);
    searching_ = true;
  }
  cv_.notify_all();
}

void SearchThread::wait_for_search_finished() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [&] { return !searching_; });
}

bool SearchThread::searching() {
  std::lock_guard lock(mutex_);
  return searching_;
}

void SearchThread::idle_loop() {
  while (true) {
    std::unique_lock lock(mutex_);
    searching_ = false;
    cv_.notify_all();
    cv_.wait(lock, [&] { return searching_; });
    if (exit_) return;
    lock.unlock();
    worker_->start_searching();
  }
}

void ThreadPool::set(size_t n, SharedState* shared) {
  if (!threads_.empty()) {
    main().wait_for_search_finished();
    threads_.clear();
  }
  for (size_t i = 0; i < n; ++i) threads_.push_back(std::make_unique<SearchThread>(*shared, i));
}

void ThreadPool::prepare_all() {
  for (auto& t : threads_) t->worker().prepare();
}

void ThreadPool::clear_histories() {
  for (auto& t : threads_) t->worker().clear_history();
}

void ThreadPool::start_helpers() {
  for (size_t i = 1; i < threads_.size(); ++i) threads_[i]->start_searching();
}

void ThreadPool::wait_for_helpers() {
  for (size_t i = 1; i < threads_.size(); ++i) threads_[i]->wait_for_search_finished();
}

uint64_t ThreadPool::nodes_searched() const {
  uint64_t n = 0;
  for (const auto& t : threads_) n += t->worker().nodes();
  return n;
}

}  // namespace shogi
