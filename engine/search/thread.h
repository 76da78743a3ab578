#pragma once
// Search threads for Lazy SMP: every thread runs the same iterative deepening on its own copy of the position and
// shares only the hash table; thread 0 (the main thread) starts the helpers, takes the time decisions and reports.

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "search/search.h"

namespace shogi {

class SearchThread {
 public:
  SearchThread(SharedState& shared, size_t id);
  ~SearchThread();
  SearchThread(const SearchThread&) = delete;
  SearchThread& operator=(const SearchThread&) = delete;

  void start_searching();
  void wait_for_search_finished();
  bool searching();
  Worker& worker() { return *worker_; }

 private:
  void idle_loop();

  std::unique_ptr<Worker> worker_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool searching_ = true;  // the thread clears it once it is idle
  bool exit_ = false;
  std::thread thread_;
};

class ThreadPool {
 public:
  ~ThreadPool() { set(0, nullptr); }
  // Creates n threads bound to the shared state (0 destroys them all).
  void set(size_t n, SharedState* shared);
  size_t size() const { return threads_.size(); }
  SearchThread& main() { return *threads_.front(); }
  SearchThread& at(size_t i) { return *threads_[i]; }

  void prepare_all();
  void clear_histories();
  void start_helpers();
  void wait_for_helpers();
  uint64_t nodes_searched() const;

 private:
  std::vector<std::unique_ptr<SearchThread>> threads_;
};

}  // namespace shogi
