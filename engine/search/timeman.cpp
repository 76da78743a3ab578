#include "search/timeman.h"

#include <algorithm>
#include <cmath>

#include "search/tune.h"

namespace shogi {

int expected_moves_to_go(int game_ply) {
  return std::clamp(tune::TmMovesToGo - game_ply / 5, tune::TmMovesToGoMin, tune::TmMovesToGo);
}

namespace {

// Stops just before the next whole second (as seen by the server, `delay` later) instead of just after one:
// a server that truncates to whole seconds charges the same for the extra time.
Milliseconds round_up_to_second(Milliseconds t, Milliseconds delay, Milliseconds hard) {
  const Milliseconds rounded = (t + delay + 999) / 1000 * 1000 - delay - 1;
  return std::clamp(rounded, t, std::max(t, hard));
}

}  // namespace

void TimeManager::init(const SearchLimits& limits, Color us, int game_ply, const TimeOptions& o) {
  enabled_ = false;
  use_full_time_ = false;
  optimum_ = maximum_ = 0;
  const Milliseconds d1 = std::max<Milliseconds>(0, o.network_delay);
  const Milliseconds d2 = std::max<Milliseconds>(0, o.network_delay2);
  const Milliseconds min_think = std::max<Milliseconds>(0, o.minimum_thinking_time);
  const int slow = std::clamp(o.slow_mover, 1, 1000);

  if (limits.movetime > 0) {
    enabled_ = true;
    use_full_time_ = true;
    optimum_ = maximum_ = std::max<Milliseconds>(0, limits.movetime - d1);
    return;
  }
  if (limits.infinite || limits.mate_search || !limits.has_clock()) return;
  enabled_ = true;

  // Missing and negative values from buggy front ends count as zero.
  const Milliseconds remaining = std::max<Milliseconds>(0, limits.time[us]);
  const Milliseconds inc = std::max<Milliseconds>(0, limits.inc[us]);
  const Milliseconds byoyomi = std::max<Milliseconds>(0, limits.byoyomi[us]);
  const int mtg = expected_moves_to_go(game_ply);
  // The most of a clock one move may take, before the increment or byoyomi that comes with it.
  const auto max_share = [](Milliseconds clock) { return clock * tune::TmMaxShare / 1000; };

  Milliseconds hard;  // the most this move may take without losing on time
  Milliseconds opt, max;
  if (byoyomi > 0) {
    hard = std::max<Milliseconds>(0, remaining + byoyomi - std::max(d1, d2));
    if (remaining < byoyomi) {
      // Main time gone (or nearly): whatever is left of it would be thrown away, and so is unused byoyomi.
      opt = max = hard;
      use_full_time_ = true;
    } else {
      opt = remaining / mtg * slow / 100 + byoyomi - std::max(d1, d2);
      max = std::min(hard, max_share(remaining) + byoyomi - std::max(d1, d2));
    }
  } else if (inc > 0) {
    hard = std::max<Milliseconds>(0, remaining + inc - std::max(d1, d2));
    // Budget the remaining time plus the increments still to come over the expected moves.
    opt = (remaining + (mtg - 1) * inc) / mtg * slow / 100 - d1;
    max = std::min({hard, max_share(remaining) + inc - d1, std::max<Milliseconds>(opt, 0) * tune::TmMaxScale});
  } else {
    // Sudden death: a reserve kept back that is a growing fraction of a shrinking clock, so that per-move
    // overheads never exhaust it; with almost nothing left, move at once.
    const Milliseconds reserve =
        std::min<Milliseconds>(remaining / 2, Milliseconds(std::sqrt(double(remaining) * 300.0)));
    hard = std::max<Milliseconds>(0, remaining - d1 - reserve);
    opt = hard / mtg * slow / 100;
    max = std::min(max_share(hard), opt * tune::TmMaxScale);
  }

  // The minimum thinking time gives way on a nearly empty clock, where moving at once is what saves the game.
  const Milliseconds floor = std::min(min_think, use_full_time_ ? hard : hard / 8);
  opt = std::clamp(std::max(opt, floor), Milliseconds(0), hard);
  max = std::clamp(std::max(max, opt), Milliseconds(0), hard);
  if (o.round_up_to_full_second && hard > 0) {
    opt = round_up_to_second(opt, d1, hard);
    max = std::max(opt, round_up_to_second(max, d1, hard));
  }
  optimum_ = opt;
  maximum_ = max;
}

bool TimeManager::stop_after_iteration(const IterationReport& r) const {
  if (!enabled_) return false;
  if (r.single_legal_move || r.mate_proven) return true;
  // Time that is lost when unused (fixed movetime, byoyomi with the main time gone) is searched to the end: the
  // timer stops the search at the deadline and a partly searched iteration costs nothing.
  if (use_full_time_) return false;
  // Otherwise never start an iteration that cannot finish before the hard limit.
  const double next = double(r.last_iteration_time) * std::clamp(r.branching_factor, 1.0, tune::TmBranchingMax / 10.0);
  if (double(r.elapsed) + next > double(maximum_)) return true;
  return double(r.elapsed) >= wanted_time(r);
}

bool TimeManager::thought_enough_while_pondering(const IterationReport& r) const {
  // A forced or mating move needs no more thought even when no clock bounds the search after ponderhit.
  if (r.single_legal_move || r.mate_proven) return true;
  return enabled_ && !use_full_time_ && double(r.elapsed) >= wanted_time(r);
}

bool TimeManager::pondered_past_maximum(Milliseconds pondered) const {
  return enabled_ && !use_full_time_ && pondered >= maximum_;
}

double TimeManager::wanted_time(const IterationReport& r) const {
  // A falling score, an unstable best move or a fail-low ask for more time; a long-stable best move for less.
  double falling = 1.0;
  if (r.previous_score != VALUE_NONE)
    falling = std::clamp(1.0 + (r.previous_score - r.score) / double(tune::TmFalling), 0.7, 1.6);
  const double instability = 1.0 + tune::TmInstability / 100.0 * r.best_move_changes;
  const double stability = r.stable_iterations >= 8   ? tune::TmStable8 / 100.0
                           : r.stable_iterations >= 5 ? tune::TmStable5 / 100.0
                           : r.stable_iterations >= 3 ? tune::TmStable3 / 100.0
                                                      : 1.0;
  const double fail_low = r.failed_low ? tune::TmFailLow / 100.0 : 1.0;
  return std::min(double(maximum_), double(optimum_) * falling * instability * stability * fail_low);
}

}  // namespace shogi
