#pragma once
// What a `go` command asks for, as plain values; times in milliseconds.

#include <chrono>
#include <cstdint>
#include <vector>

#include "rules/types.h"

namespace shogi {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;
using Milliseconds = int64_t;

inline Milliseconds elapsed_ms(TimePoint since, TimePoint now = Clock::now()) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(now - since).count();
}

struct SearchLimits {
  // Clock values as sent; -1 means "not given". Negative values from buggy front ends are clamped by the user.
  Milliseconds time[COLOR_NB] = {-1, -1};
  Milliseconds inc[COLOR_NB] = {-1, -1};
  Milliseconds byoyomi[COLOR_NB] = {-1, -1};
  Milliseconds movetime = 0;
  int depth = 0;
  uint64_t nodes = 0;
  bool infinite = false;
  bool ponder = false;
  // `go mate <ms|infinite>`: a mate search answered with `checkmate ...`.
  bool mate_search = false;
  Milliseconds mate_time = 0;  // 0 = no limit
  std::vector<Move> search_moves;
  TimePoint start_time = Clock::now();

  // True when the clock fields ask for time management (any clock value was given).
  bool has_clock() const {
    for (int c = 0; c < COLOR_NB; ++c)
      if (time[c] >= 0 || inc[c] > 0 || byoyomi[c] > 0) return true;
    return false;
  }
};

}  // namespace shogi
