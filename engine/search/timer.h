#pragma once
// A dedicated timer thread: it sleeps on a condition variable until an absolute deadline and then runs the
// expiry action (setting the search's stop flag). Search threads never look at the clock; they read the flag.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "search/limits.h"

namespace shogi {

class StopTimer {
 public:
  StopTimer();
  ~StopTimer();
  StopTimer(const StopTimer&) = delete;
  StopTimer& operator=(const StopTimer&) = delete;

  // Replaces any armed deadline. The deadline is absolute: late arming never buys time.
  void arm(TimePoint deadline, std::function<void()> on_expiry);
  void disarm();

 private:
  void loop();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<TimePoint> deadline_;
  std::function<void()> on_expiry_;
  bool quit_ = false;
  std::thread thread_;
};

}  // namespace shogi
