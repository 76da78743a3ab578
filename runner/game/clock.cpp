#include "game/clock.h"

#include <algorithm>

namespace arena::game {

namespace {
constexpr std::chrono::microseconds ms(std::int64_t v) { return std::chrono::microseconds(v * 1000); }
}  // namespace

Clock::Clock(const TimeControl& control) : control_(control), remaining_(ms(control.base_ms)) {}

std::optional<Clock::Micros> Clock::allowed() const {
  if (control_.movetime_ms) return ms(*control_.movetime_ms);
  if (!control_.has_clock()) return std::nullopt;
  return remaining_ + ms(control_.increment_ms) + ms(control_.byoyomi_ms);
}

Clock::Verdict Clock::charge(Micros used, Micros margin) {
  auto limit = allowed();
  if (!limit) return Verdict::Ok;
  if (used > *limit + margin) {
    if (!control_.movetime_ms) remaining_ = Micros(0);
    return Verdict::Flag;
  }
  if (control_.movetime_ms) return Verdict::Ok;  // a fixed time per move: nothing carries over
  remaining_ = std::max(Micros(0), remaining_ + ms(control_.increment_ms) - used);
  return Verdict::Ok;
}

usi::GoParams go_params(const Clock& black, const Clock& white, shogi::Color mover, bool ponder) {
  const Clock* clocks[shogi::COLOR_NB] = {&black, &white};
  const TimeControl& tc = clocks[mover]->control();
  usi::GoRequest r;
  r.mover = mover;
  r.ponder = ponder;
  r.movetime_ms = tc.movetime_ms;
  for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) {
    const TimeControl& side = clocks[c]->control();
    if (side.has_clock() && !side.movetime_ms)
      r.clock[c] = usi::SideClock{clocks[c]->remaining_ms(), side.increment_ms, side.byoyomi_ms};
  }
  r.nodes = tc.nodes;
  r.depth = tc.depth;
  return usi::build_go(r);
}

}  // namespace arena::game
