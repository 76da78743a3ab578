#include "csa/client/turn_time.h"

#include <algorithm>

#include "usi/go_builder.h"

namespace arena::csa {

namespace {
std::chrono::milliseconds ms(int64_t v) { return std::chrono::milliseconds(std::max<int64_t>(0, v)); }
}  // namespace

TurnDeadlines turn_deadlines(const CsaClock& clock, shogi::Color us, const GameSettings& settings,
                             Deadline turn_start) {
  if (auto budget = clock.budget_ms(us))
    return {turn_start + ms(*budget - settings.margin_ms), turn_start + ms(*budget - settings.margin_ms / 2)};
  Deadline stop_at = turn_start + ms(settings.untimed_move_ms + std::max<int64_t>(1000, settings.margin_ms));
  return {stop_at, stop_at + std::chrono::seconds(5)};
}

usi::GoParams turn_go(const CsaClock& clock, shogi::Color us, const GameSettings& settings, int64_t elapsed_ms) {
  usi::GoRequest r;
  r.mover = us;
  if (!clock.rule(us).timed()) {
    // A fixed think time as byoyomi, both main times 0: every engine understands that form.
    r.clock[us] = usi::SideClock{0, 0, settings.untimed_move_ms};
    r.clock[~us] = usi::SideClock{0, 0, 0};
    return usi::build_go(r);
  }
  for (shogi::Color c : {shogi::BLACK, shogi::WHITE})
    r.clock[c] = usi::SideClock{clock.remaining_ms(c), clock.rule(c).increment_ms, clock.rule(c).byoyomi_ms};
  r.spent_ms = settings.margin_ms + std::max<int64_t>(0, elapsed_ms);
  return usi::build_go(r);
}

Deadline desync_deadline(const CsaClock& clock, shogi::Color us, const GameSettings& settings, Deadline at) {
  auto budget = clock.budget_ms(us);
  return at + ms(budget ? *budget - settings.margin_ms : settings.untimed_move_ms);
}

}  // namespace arena::csa
