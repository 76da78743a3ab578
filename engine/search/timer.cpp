#include "search/timer.h"

namespace shogi {

StopTimer::StopTimer() : thread_([this] { loop(); }) {}

StopTimer::~StopTimer() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void StopTimer::arm(TimePoint deadline, std::function<void()> on_expiry) {
  {
    std::lock_guard lock(mutex_);
    deadline_ = deadline;
    on_expiry_ = std::move(on_expiry);
  }
  cv_.notify_all();
}

void StopTimer::disarm() {
  {
    std::lock_guard lock(mutex_);
    deadline_.reset();
    on_expiry_ = nullptr;
  }
  cv_.notify_all();
}

void StopTimer::loop() {
  std::unique_lock lock(mutex_);
  while (!quit_) {
    if (!deadline_) {
      cv_.wait(lock);
      continue;
    }
    const TimePoint deadline = *deadline_;
    if (Clock::now() < deadline) {
      // Woken early by arm/disarm or spuriously: re-read the (possibly new) deadline.
      cv_.wait_until(lock, deadline);
      continue;
    }
    auto action = std::move(on_expiry_);
    deadline_.reset();
    on_expiry_ = nullptr;
    lock.unlock();
    if (action) action();
    lock.lock();
  }
}

}  // namespace shogi
