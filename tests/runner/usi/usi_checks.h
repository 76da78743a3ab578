#pragma once
// Helpers shared by the USI client tests (mock and real engines): reaping checks, milliseconds, byoyomi clocks.

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>

#include <unistd.h>

#include "usi/usi_client.h"

namespace usi_test {

inline bool pid_gone(pid_t pid) { return ::kill(pid, 0) == -1 && errno == ESRCH; }

inline double ms(std::chrono::steady_clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// `go btime 0 wtime 0 byoyomi <ms_per_move>`.
inline arena::usi::GoParams byoyomi(std::int64_t ms_per_move) {
  arena::usi::GoParams p;
  p.btime = 0;
  p.wtime = 0;
  p.byoyomi = ms_per_move;
  return p;
}

}  // namespace usi_test
