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
  usi::GoParams p;
  p.ponder = ponder;
  const Clock& own = mover == shogi::BLACK ? black : white;
  const TimeControl& tc = own.control();
  if (tc.movetime_ms) {
    p.movetime = *tc.movetime_ms;
  } else if (tc.has_clock()) {
    const Clock& other = mover == shogi::BLACK ? white : black;
    bool other_clock = other.control().has_clock() && !other.control().movetime_ms;
    std::int64_t mine = own.remaining_ms();
    std::int64_t theirs = other_clock ? other.remaining_ms() : mine;
    p.btime = mover == shogi::BLACK ? mine : theirs;
    p.wtime = mover == shogi::BLACK ? theirs : mine;
    if (tc.byoyomi_ms > 0) p.byoyomi = tc.byoyomi_ms;
    std::int64_t other_inc = other_clock ? other.control().increment_ms : 0;
    if (tc.increment_ms > 0 || other_inc > 0) {
      p.binc = mover == shogi::BLACK ? tc.increment_ms : other_inc;
      p.winc = mover == shogi::BLACK ? other_inc : tc.increment_ms;
    }
  }
  if (tc.nodes) p.nodes = *tc.nodes;
  if (tc.depth) p.depth = *tc.depth;
  // Neither a clock nor movetime: nodes/depth alone bound the search.
  return p;
}

}  // namespace arena::game
