#pragma once
// The one place that turns clocks into a `go` (the USI time rule, as usi_client.h's GoParams states it). Tournament
// games (game/clock.h) and the CSA client (csa/client/turn_time.h) each describe their clocks as a GoRequest; the
// rule itself lives here:
//
// - btime/wtime are the remaining main times and never contain the increment of the coming move;
// - binc/winc are the increments, sent when either side has one;
// - byoyomi is the mover's own (USI has a single byoyomi field per go);
// - what the caller has already spent of the mover's turn (a safety margin, the time since the turn began) comes
//   off the mover's main time first, then off byoyomi, then off the increment, so that the engine is told what it
//   may really use;
// - a side without a clock is shown with the mover's remaining time, so that an engine never sees a bogus 0;
// - a fixed time per move is sent as movetime, and nodes/depth limits go along with whatever else is sent.

#include <cstdint>
#include <optional>

#include "rules/types.h"
#include "usi/usi_client.h"

namespace arena::usi {

// One side's clock as the engine should see it before the mover's deduction.
struct SideClock {
  std::int64_t remaining_ms = 0;  // main time left, without the coming increment
  std::int64_t increment_ms = 0;
  std::int64_t byoyomi_ms = 0;
};

struct GoRequest {
  shogi::Color mover = shogi::BLACK;
  std::optional<SideClock> clock[shogi::COLOR_NB];  // nullopt: that side plays without a clock
  std::int64_t spent_ms = 0;                        // already gone from the mover's turn, margin included
  std::optional<std::int64_t> movetime_ms;          // a fixed time per move (then the clocks are not sent)
  std::optional<std::int64_t> nodes;
  std::optional<int> depth;
  bool ponder = false;
};

GoParams build_go(const GoRequest& request);

}  // namespace arena::usi
