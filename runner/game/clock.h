#pragma once
// One side's clock in one game, with USI semantics (the time rule, stated at usi/usi_client.h's GoParams): the
// remaining main time never contains the increment of the coming move; the mover may use remaining + increment,
// or remaining + byoyomi once the main time is gone. The increment is credited after the move, byoyomi is never banked.
//
// Kept in microseconds so that millisecond rounding never accumulates over a long game; `go` gets whole
// milliseconds rounded down (an engine is never told it has more time than it has).

#include <chrono>
#include <cstdint>
#include <optional>

#include "game/game.h"
#include "rules/types.h"
#include "usi/go_builder.h"

namespace arena::game {

class Clock {
 public:
  using Micros = std::chrono::microseconds;

  explicit Clock(const TimeControl& control);

  const TimeControl& control() const { return control_; }
  // Main time left, without the increment of the next move.
  Micros remaining() const { return remaining_; }
  std::int64_t remaining_ms() const { return remaining_.count() / 1000; }

  // How long the next move may take: remaining + increment + byoyomi, or movetime. Nullopt when only nodes or
  // depth limit the search (no clock can fall).
  std::optional<Micros> allowed() const;

  enum class Verdict { Ok, Flag };
  // Charges a move that took `used`. Flag when used > allowed + margin; the remaining time is then 0.
  // Otherwise remaining = max(0, remaining + increment - used): a move within byoyomi (or within the margin)
  // leaves 0, whatever it did not use is not kept.
  Verdict charge(Micros used, Micros margin);

 private:
  TimeControl control_;
  Micros remaining_{0};
};

// The `go` for `mover` given both clocks, by the USI time rule of usi/go_builder.h. Nothing of the turn is spent
// yet (the runner writes `go` as the mover's clock starts).
usi::GoParams go_params(const Clock& black, const Clock& white, shogi::Color mover, bool ponder = false);

}  // namespace arena::game
