#pragma once
// The CSA server's clock bookkeeping (csa-protocol.md §5), in milliseconds.
//
// Per move the server measures elapsed time e and charges
//   t = max(floor(e / unit) * unit, Least_Time_Per_Move)      (ceil instead of floor with Time_Roundup:YES)
// The move loses on time iff  t >= remaining + Byoyomi + Increment  (only when one of Total_Time, Byoyomi,
// Increment is > 0; otherwise the game is untimed). After a legal move
//   remaining <- max(0, remaining + Increment - t)
// so the increment is credited before every move, the first one included, and byoyomi is never banked.
// A client mirrors this by applying the server's T for both sides (the server's T is the truth), and may use
// remaining + Byoyomi + Increment on its move (minus its own safety margin).

#include <cstdint>
#include <optional>

#include "rules/types.h"

namespace arena::csa {

// The time settings of one side (a Time block, or Time+ / Time-), already converted to milliseconds.
struct TimeRule {
  int64_t unit_ms = 1000;                  // Time_Unit
  std::optional<int64_t> total_ms;         // Total_Time; absent means no main-time limit
  int64_t byoyomi_ms = 0;                  // Byoyomi
  int64_t increment_ms = 0;                // Increment
  int64_t least_ms = 0;                    // Least_Time_Per_Move
  int64_t delay_ms = 0;                    // Delay (1.2.1; parsed and kept, not applied: semantics unverified)
  bool roundup = false;                    // Time_Roundup

  // False when nothing limits the time: no Total_Time and no Byoyomi / Increment (or all of them zero).
  bool timed() const { return total_ms.value_or(0) > 0 || byoyomi_ms > 0 || increment_ms > 0; }
  bool operator==(const TimeRule&) const = default;
};

// Time the server charges for a move that took elapsed_ms.
int64_t charged_ms(const TimeRule& rule, int64_t elapsed_ms);
// Whether a move charged `charged` is a time-up for a side with `remaining_ms` left.
bool is_time_up(const TimeRule& rule, int64_t remaining_ms, int64_t charged);
// The remaining main time after a legal move charged `charged`.
int64_t remaining_after(const TimeRule& rule, int64_t remaining_ms, int64_t charged);
// The whole time a side may use on its next move: remaining + Byoyomi + Increment. nullopt when untimed.
std::optional<int64_t> move_budget_ms(const TimeRule& rule, int64_t remaining_ms);

// Both sides' clocks for one game.
class CsaClock {
 public:
  CsaClock() = default;
  CsaClock(const TimeRule& black, const TimeRule& white);

  const TimeRule& rule(shogi::Color c) const { return rule_[c]; }
  // Remaining main time (Total_Time when nothing was played yet); 0 for a side without Total_Time.
  int64_t remaining_ms(shogi::Color c) const { return remaining_[c]; }
  std::optional<int64_t> budget_ms(shogi::Color c) const { return move_budget_ms(rule_[c], remaining_[c]); }

  // Applies a move whose charged time is known (the server's T, or a Position-block move).
  void apply(shogi::Color mover, int64_t charged);

  // Judges a move the way the server would (for a server, or to check our own deadline logic): the charged
  // time, and whether it is a time-up. Does not change the clock.
  struct Verdict {
    int64_t charged_ms = 0;
    bool time_up = false;
  };
  Verdict judge(shogi::Color mover, int64_t elapsed_ms) const;

 private:
  TimeRule rule_[shogi::COLOR_NB];
  int64_t remaining_[shogi::COLOR_NB] = {0, 0};
};

}  // namespace arena::csa
