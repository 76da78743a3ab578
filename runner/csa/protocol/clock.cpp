#include "csa/protocol/clock.h"

#include <algorithm>

namespace arena::csa {

int64_t charged_ms(const TimeRule& rule, int64_t elapsed_ms) {
  int64_t unit = std::max<int64_t>(rule.unit_ms, 1);
  int64_t e = std::max<int64_t>(elapsed_ms, 0);
  // shogi-server truncates to whole units (Time_Roundup:NO); 1.2.1 allows rounding up instead.
  int64_t units = rule.roundup ? (e + unit - 1) / unit : e / unit;
  return std::max(units * unit, rule.least_ms);
}

bool is_time_up(const TimeRule& rule, int64_t remaining_ms, int64_t charged) {
  if (!rule.timed()) return false;
  return charged >= remaining_ms + rule.byoyomi_ms + rule.increment_ms;
}

int64_t remaining_after(const TimeRule& rule, int64_t remaining_ms, int64_t charged) {
  return std::max<int64_t>(0, remaining_ms + rule.increment_ms - charged);
}

std::optional<int64_t> move_budget_ms(const TimeRule& rule, int64_t remaining_ms) {
  if (!rule.timed()) return std::nullopt;
  return remaining_ms + rule.byoyomi_ms + rule.increment_ms;
}

CsaClock::CsaClock(const TimeRule& black, const TimeRule& white) : rule_{black, white} {
  remaining_[shogi::BLACK] = black.total_ms.value_or(0);
  remaining_[shogi::WHITE] = white.total_ms.value_or(0);
}

void CsaClock::apply(shogi::Color mover, int64_t charged) {
  remaining_[mover] = remaining_after(rule_[mover], remaining_[mover], charged);
}

CsaClock::Verdict CsaClock::judge(shogi::Color mover, int64_t elapsed_ms) const {
  Verdict v;
  v.charged_ms = charged_ms(rule_[mover], elapsed_ms);
  v.time_up = is_time_up(rule_[mover], remaining_[mover], v.charged_ms);
  return v;
}

}  // namespace arena::csa
